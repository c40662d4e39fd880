/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * appliance: a small packet-processing appliance embedding the RapidIO
 * drivers, built out of tree against an installed dpdk-rio with
 * `pkg-config libdpdk-rio` (see Makefile).
 *
 * Every lcore receives frames from its own queue of one ethdev (--in), drops
 * or forwards each one by EtherType (--drop / --pass), rewrites the
 * destination MAC to the rionet address of the peer's destination ID
 * (00:01:00:01:<hi>:<lo>) and sends it on a rionet port (--out). Counters
 * are kept per lcore and printed at the end.
 *
 * Usage:
 *   appliance <EAL args> -- --peer <destid> [--in <port>] [--out <port>]
 *             [--drop <ethertype>]... [--pass <ethertype>]...
 *             [--duration <s>] [--count <frames>] [--inject <frames>]
 *             [--sink <port>]
 * <port> is an ethdev name (e.g. net_ring0, rionet_rio_sim0) or a port id.
 * --in defaults to the first port that is not rionet, --out to the first
 * rionet port. --duration (default 10 s) and --count (frames received on
 * --in) bound the run. --inject sends frames with EtherTypes 0x0800, 0x0806
 * and 0x86dd in turn into --in before starting: a test source for loopback
 * ports such as net_ring. --sink also drains a port (for instance the peer's
 * rionet port in this same process) and counts what arrives there.
 * The rionet port uses one Tx queue, hence one mailbox, per lcore: the peer
 * must open as many Rx queues (run with one lcore for a Linux rionet peer).
 * Exits 0 when the run completed, 1 on a setup error.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <rte_rio.h>
#include <rte_rio_dev.h>

#define APP_BURST	32
#define APP_RING	512
#define APP_MBUFS	8191
#define APP_MBUF_CACHE	128
#define APP_MAX_TYPES	16
#define APP_LINK_WAIT_MS	5000
#define APP_INJECT_LEN	64

/* Counters of one lcore (written by that lcore only). */
struct app_lcore_stats {
	uint64_t rx;		/* frames received on --in */
	uint64_t fwd;		/* frames handed to rionet */
	uint64_t dropped;	/* frames dropped by the EtherType decision */
	uint64_t tx_fail;	/* frames rionet did not take (ring full) */
	uint64_t sink;		/* frames drained from --sink */
} __rte_cache_aligned;

struct app_cfg {
	const char *in_name;
	const char *out_name;
	const char *sink_name;
	uint16_t in_port;
	uint16_t out_port;
	uint16_t sink_port;
	bool have_sink;
	long peer;			/* destination ID, -1 when not given */
	uint16_t drop[APP_MAX_TYPES];	/* EtherTypes, host order */
	unsigned int nb_drop;
	uint16_t pass[APP_MAX_TYPES];
	unsigned int nb_pass;
	double duration;
	uint64_t count;			/* 0: no limit */
	unsigned int inject;
	uint16_t nb_queues;		/* one per lcore used */
	struct rte_ether_addr peer_mac;
};

static struct app_cfg app = {
	.peer = -1,
	.duration = 10.0,
};
static struct app_lcore_stats app_stats[RTE_MAX_LCORE];
static bool app_quit;
static uint64_t app_rx_total;	/* frames received on --in, all lcores */

/* Relaxed is enough: the flag only stops the loops; the counters are read
 * after rte_eal_mp_wait_lcore(), which orders them.
 */
static inline bool
app_should_quit(void)
{
	return __atomic_load_n(&app_quit, __ATOMIC_RELAXED);
}

static inline void
app_stop(void)
{
	__atomic_store_n(&app_quit, true, __ATOMIC_RELAXED);
}

static void
app_signal(int sig)
{
	RTE_SET_USED(sig);
	app_stop();
}

static void
app_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s <EAL args> -- --peer <destid> [--in <port>] [--out <port>]\n"
		"       [--drop <ethertype>]... [--pass <ethertype>]... [--duration <s>]\n"
		"       [--count <frames>] [--inject <frames>] [--sink <port>]\n", prog);
}

static int
app_parse_u(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || *v > max)
		return -EINVAL;
	return 0;
}

static int
app_parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "peer", required_argument, NULL, 'p' },
		{ "in", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "drop", required_argument, NULL, 'd' },
		{ "pass", required_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'c' },
		{ "inject", required_argument, NULL, 'j' },
		{ "sink", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (app_parse_u(optarg, UINT16_MAX, &v) < 0)
				goto bad;
			app.peer = (long)v;
			break;
		case 'i':
			app.in_name = optarg;
			break;
		case 'o':
			app.out_name = optarg;
			break;
		case 's':
			app.sink_name = optarg;
			break;
		case 'd':
		case 'a':
			if (app_parse_u(optarg, UINT16_MAX, &v) < 0)
				goto bad;
			if (c == 'd') {
				if (app.nb_drop == APP_MAX_TYPES)
					goto bad;
				app.drop[app.nb_drop++] = (uint16_t)v;
			} else {
				if (app.nb_pass == APP_MAX_TYPES)
					goto bad;
				app.pass[app.nb_pass++] = (uint16_t)v;
			}
			break;
		case 't':
			app.duration = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || app.duration <= 0)
				goto bad;
			break;
		case 'c':
			if (app_parse_u(optarg, ULONG_MAX, &v) < 0)
				goto bad;
			app.count = v;
			break;
		case 'j':
			if (app_parse_u(optarg, 1u << 20, &v) < 0)
				goto bad;
			app.inject = (unsigned int)v;
			break;
		default:
			goto bad;
		}
	}
	if (app.peer < 0) {
		fprintf(stderr, "appliance: --peer <destid> is required\n");
		goto bad;
	}
	return 0;
bad:
	app_usage(argv[0]);
	return -EINVAL;
}

static bool
app_is_rionet(uint16_t port)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	return rte_eth_dev_get_name_by_port(port, name) == 0 &&
		strncmp(name, "rionet_", strlen("rionet_")) == 0;
}

/* Port by name or id; with name NULL, the first port that is (not) rionet. */
static int
app_find_port(const char *name, bool rionet, uint16_t *port)
{
	unsigned long v;
	uint16_t p;

	if (name != NULL) {
		if (rte_eth_dev_get_port_by_name(name, port) == 0)
			return 0;
		if (app_parse_u(name, RTE_MAX_ETHPORTS - 1, &v) == 0 &&
		    rte_eth_dev_is_valid_port((uint16_t)v)) {
			*port = (uint16_t)v;
			return 0;
		}
		fprintf(stderr, "appliance: no ethdev %s\n", name);
		return -ENODEV;
	}
	RTE_ETH_FOREACH_DEV(p) {
		if (app_is_rionet(p) == rionet) {
			*port = p;
			return 0;
		}
	}
	fprintf(stderr, "appliance: no %s port (give --%s)\n", rionet ? "rionet" : "ingress",
		rionet ? "out" : "in");
	return -ENODEV;
}

static int
app_port_init(uint16_t port, uint16_t nb_queues, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = APP_RING, nb_txd = APP_RING;
	int socket = rte_eth_dev_socket_id(port);
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_info_get(port, &info);
	if (ret < 0)
		goto out;
	if (nb_queues > info.max_rx_queues || nb_queues > info.max_tx_queues) {
		fprintf(stderr, "appliance: port %u has %u/%u queues, %u needed\n", port,
			info.max_rx_queues, info.max_tx_queues, nb_queues);
		ret = -EINVAL;
		goto out;
	}
	ret = rte_eth_dev_configure(port, nb_queues, nb_queues, &conf);
	if (ret < 0)
		goto out;
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret < 0)
		goto out;
	for (q = 0; q < nb_queues; q++) {
		ret = rte_eth_rx_queue_setup(port, q, nb_rxd, socket < 0 ? 0 : socket,
					     NULL, mp);
		if (ret < 0)
			goto out;
		ret = rte_eth_tx_queue_setup(port, q, nb_txd, socket < 0 ? 0 : socket, NULL);
		if (ret < 0)
			goto out;
	}
	ret = rte_eth_dev_start(port);
out:
	if (ret < 0)
		fprintf(stderr, "appliance: port %u setup failed: %s\n", port, strerror(-ret));
	return ret;
}

/* Wait until rionet reports the peer active (or, without that xstat, the
 * link up): frames to a peer that has not joined yet are dropped.
 */
static int
app_wait_peer(uint16_t port, uint16_t destid)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	struct rte_eth_link link;
	uint64_t id, val;
	bool by_xstat;
	unsigned int ms;

	snprintf(name, sizeof(name), "peer_0x%04x_active", destid);
	by_xstat = rte_eth_xstats_get_id_by_name(port, name, &id) == 0;
	for (ms = 0; ms < APP_LINK_WAIT_MS; ms += 10) {
		if (by_xstat) {
			if (rte_eth_xstats_get_by_id(port, &id, &val, 1) == 1 && val != 0)
				return 0;
		} else if (rte_eth_link_get_nowait(port, &link) == 0 &&
			   link.link_status == RTE_ETH_LINK_UP) {
			return 0;
		}
		rte_delay_ms(10);
	}
	fprintf(stderr, "appliance: peer 0x%04x did not join on port %u within %u ms\n",
		destid, port, APP_LINK_WAIT_MS);
	return -ETIMEDOUT;
}

/* The peer must be a RapidIO endpoint the out port's mport knows. */
static int
app_check_peer(uint16_t port, uint16_t destid)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_rio_mport *mport;

	if (rte_eth_dev_get_name_by_port(port, name) < 0)
		return -ENODEV;
	mport = rte_rio_mport_find(name + strlen("rionet_"));
	if (mport == NULL) {
		fprintf(stderr, "appliance: port %s has no RapidIO mport\n", name);
		return -ENODEV;
	}
	if (destid == rte_rio_mport_destid(mport)) {
		fprintf(stderr, "appliance: peer 0x%04x is %s itself\n", destid, name);
		return -EINVAL;
	}
	if (rte_rio_dev_find_by_destid(mport, destid) == NULL) {
		fprintf(stderr, "appliance: no endpoint 0x%04x behind mport %s\n", destid,
			rte_rio_mport_name(mport));
		return -ENOENT;
	}
	return 0;
}

/* Loopback test source: frames of three EtherTypes in turn. */
static int
app_inject(uint16_t port, struct rte_mempool *mp, unsigned int n)
{
	static const uint16_t types[] = {
		RTE_ETHER_TYPE_IPV4, RTE_ETHER_TYPE_ARP, RTE_ETHER_TYPE_IPV6,
	};
	struct rte_mbuf *m;
	struct rte_ether_hdr *eh;
	unsigned int i, tries;

	for (i = 0; i < n; i++) {
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			return -ENOMEM;
		eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, APP_INJECT_LEN);
		memset(eh, 0, APP_INJECT_LEN);
		rte_eth_random_addr(eh->src_addr.addr_bytes);
		eh->dst_addr = eh->src_addr;
		eh->ether_type = rte_cpu_to_be_16(types[i % RTE_DIM(types)]);
		/* One queue after the other, so that every lcore gets frames. */
		for (tries = 0; rte_eth_tx_burst(port, i % app.nb_queues, &m, 1) == 0;
		     tries++) {
			if (tries == 1000) {
				rte_pktmbuf_free(m);
				return -ENOBUFS;
			}
			rte_delay_us(100);
		}
	}
	return 0;
}

/* The user decision: true to forward. */
static inline bool
app_decide(uint16_t ethertype)
{
	unsigned int i;

	for (i = 0; i < app.nb_drop; i++)
		if (app.drop[i] == ethertype)
			return false;
	if (app.nb_pass == 0)
		return true;
	for (i = 0; i < app.nb_pass; i++)
		if (app.pass[i] == ethertype)
			return true;
	return false;
}

/* Drain every queue of the sink port (main lcore only). */
static uint16_t
app_sink_poll(struct rte_mbuf **pkts)
{
	uint16_t q, nb, total = 0;

	for (q = 0; q < app.nb_queues; q++) {
		nb = rte_eth_rx_burst(app.sink_port, q, pkts, APP_BURST);
		rte_pktmbuf_free_bulk(pkts, nb);
		total += nb;
	}
	return total;
}

static int
app_lcore_main(void *arg)
{
	struct app_lcore_stats *st = &app_stats[rte_lcore_id()];
	uint16_t q = (uint16_t)rte_lcore_index(rte_lcore_id());
	bool main_lcore = rte_lcore_id() == rte_get_main_lcore();
	uint64_t end = rte_get_timer_cycles() + (uint64_t)(app.duration * rte_get_timer_hz());
	struct rte_mbuf *pkts[APP_BURST], *fwd[APP_BURST];
	struct rte_ether_hdr *eh;
	uint16_t nb, nb_fwd, sent, i;

	RTE_SET_USED(arg);
	while (!app_should_quit()) {
		if (rte_get_timer_cycles() >= end)
			break;
		nb = rte_eth_rx_burst(app.in_port, q, pkts, APP_BURST);
		st->rx += nb;
		nb_fwd = 0;
		for (i = 0; i < nb; i++) {
			if (rte_pktmbuf_data_len(pkts[i]) < sizeof(*eh) ||
			    !app_decide(rte_be_to_cpu_16(rte_pktmbuf_mtod(pkts[i],
						struct rte_ether_hdr *)->ether_type))) {
				st->dropped++;
				rte_pktmbuf_free(pkts[i]);
				continue;
			}
			eh = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
			eh->dst_addr = app.peer_mac;
			fwd[nb_fwd++] = pkts[i];
		}
		if (nb_fwd > 0) {
			sent = rte_eth_tx_burst(app.out_port, q, fwd, nb_fwd);
			st->fwd += sent;
			st->tx_fail += nb_fwd - sent;
			rte_pktmbuf_free_bulk(&fwd[sent], nb_fwd - sent);
		}
		if (app.count != 0 && nb > 0 &&
		    __atomic_add_fetch(&app_rx_total, nb, __ATOMIC_RELAXED) >= app.count)
			app_stop();
		if (main_lcore && app.have_sink)
			st->sink += app_sink_poll(pkts);
	}
	return 0;
}

/* Let frames still in flight reach the sink. */
static void
app_drain_sink(void)
{
	struct app_lcore_stats *st = &app_stats[rte_lcore_id()];
	struct rte_mbuf *pkts[APP_BURST];
	unsigned int idle;
	uint16_t nb;

	for (idle = 0; idle < 100; idle++) {
		nb = app_sink_poll(pkts);
		if (nb > 0)
			idle = 0;
		st->sink += nb;
		rte_delay_ms(1);
	}
}

static void
app_print_stats(void)
{
	struct app_lcore_stats tot = { 0 };
	unsigned int lc;

	RTE_LCORE_FOREACH(lc) {
		const struct app_lcore_stats *s = &app_stats[lc];

		printf("lcore %u: rx %" PRIu64 " forwarded %" PRIu64 " dropped %" PRIu64
		       " tx_fail %" PRIu64 "\n", lc, s->rx, s->fwd, s->dropped, s->tx_fail);
		tot.rx += s->rx;
		tot.fwd += s->fwd;
		tot.dropped += s->dropped;
		tot.tx_fail += s->tx_fail;
		tot.sink += s->sink;
	}
	printf("total: rx %" PRIu64 " forwarded %" PRIu64 " dropped %" PRIu64
	       " tx_fail %" PRIu64 "\n", tot.rx, tot.fwd, tot.dropped, tot.tx_fail);
	if (app.have_sink)
		printf("sink: rx %" PRIu64 "\n", tot.sink);
}

int
main(int argc, char **argv)
{
	struct rte_mempool *mp = NULL;
	struct rte_eth_stats es;
	uint16_t started[3];
	unsigned int nb_started = 0, i;
	int ret, rc = 1;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "appliance: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	signal(SIGINT, app_signal);
	signal(SIGTERM, app_signal);

	if (app_parse_args(argc, argv) < 0)
		goto out;
	if (app_find_port(app.in_name, false, &app.in_port) < 0 ||
	    app_find_port(app.out_name, true, &app.out_port) < 0)
		goto out;
	if (app.sink_name != NULL) {
		if (app_find_port(app.sink_name, true, &app.sink_port) < 0)
			goto out;
		app.have_sink = true;
	}
	if (app.in_port == app.out_port ||
	    (app.have_sink && (app.sink_port == app.in_port || app.sink_port == app.out_port))) {
		fprintf(stderr, "appliance: --in, --out and --sink must be different ports\n");
		goto out;
	}
	/* The rionet address of the peer: 00:01:00:01:<destid hi>:<destid lo>. */
	app.peer_mac = (struct rte_ether_addr){
		.addr_bytes = { 0x00, 0x01, 0x00, 0x01, (uint8_t)(app.peer >> 8),
				(uint8_t)(app.peer & 0xff) },
	};
	app.nb_queues = (uint16_t)rte_lcore_count();

	mp = rte_pktmbuf_pool_create("appliance_mbufs", APP_MBUFS, APP_MBUF_CACHE, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "appliance: mbuf pool: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	if (app_port_init(app.in_port, app.nb_queues, mp) < 0)
		goto out;
	started[nb_started++] = app.in_port;
	if (app_port_init(app.out_port, app.nb_queues, mp) < 0)
		goto out;
	started[nb_started++] = app.out_port;
	if (app.have_sink) {
		/* rionet: both ends must open the same mailboxes (one per queue). */
		if (app_port_init(app.sink_port, app.nb_queues, mp) < 0)
			goto out;
		started[nb_started++] = app.sink_port;
	}
	printf("appliance: %u lcores, in port %u, out port %u, peer 0x%04lx"
	       " (%02x:%02x:%02x:%02x:%02x:%02x)\n", app.nb_queues, app.in_port, app.out_port,
	       app.peer, app.peer_mac.addr_bytes[0], app.peer_mac.addr_bytes[1],
	       app.peer_mac.addr_bytes[2], app.peer_mac.addr_bytes[3],
	       app.peer_mac.addr_bytes[4], app.peer_mac.addr_bytes[5]);
	if (app_check_peer(app.out_port, (uint16_t)app.peer) < 0)
		goto out;
	if (app_wait_peer(app.out_port, (uint16_t)app.peer) < 0)
		goto out;
	if (app.inject > 0 && app_inject(app.in_port, mp, app.inject) < 0) {
		fprintf(stderr, "appliance: could not inject %u frames into port %u\n",
			app.inject, app.in_port);
		goto out;
	}

	rte_eal_mp_remote_launch(app_lcore_main, NULL, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	if (app.have_sink)
		app_drain_sink();
	app_print_stats();
	if (rte_eth_stats_get(app.out_port, &es) == 0)
		printf("out port %u: opackets %" PRIu64 " oerrors %" PRIu64 "\n", app.out_port,
		       es.opackets, es.oerrors);
	rc = 0;
out:
	for (i = 0; i < nb_started; i++) {
		rte_eth_dev_stop(started[i]);
		rte_eth_dev_close(started[i]);
	}
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return rc;
}
