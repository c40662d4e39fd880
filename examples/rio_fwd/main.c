/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_fwd: an L2 bridge between any ethdev (port A, the "NIC" side) and a
 * rionet port, on dedicated lcores, in the manner of DPDK's ntb_fwd.
 *
 *   port A --rx--> rewrite MACs --tx--> rionet port --RapidIO--> peer <destid>
 *   port A <--tx-- (unchanged) <--rx--- rionet port <--RapidIO-- peers
 *
 * Frames taken from port A get the destination MAC of the rionet peer chosen
 * with --dest-destid (00:01:00:01:<destid hi>:<destid lo>) and the rionet
 * port's own MAC as source, so that the peer's answers come back to us.
 * Frames received on the rionet port go out of port A as they are.
 *
 * --echo <port> runs a third task on another rionet port of the same process
 * (for example the port of a second rio_sim vdev on the same fabric): it plays
 * the far end, counts what arrives and sends it back with the MACs swapped.
 *
 * Each task runs on a worker lcore of its own (tasks share lcores round robin
 * when there are fewer workers; with no worker the main lcore runs them all).
 * Statistics per lcore and task are printed every --stats-period seconds and
 * at exit. The run ends after --duration seconds, or when --count frames were
 * taken from port A and everything in flight has drained.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#define FWD_BURST	32
#define FWD_DESC	512
#define FWD_MBUFS	8191
#define FWD_MBUF_CACHE	256
#define FWD_TX_TRIES	64	/* tx_burst attempts before the rest is dropped */
#define FWD_MAX_TASKS	3
#define FWD_LINK_MS	5000	/* wait this long for rionet links */
#define FWD_QUIET_MS	500	/* --count: stop after this long without traffic */

enum fwd_kind {
	FWD_TO_RIO,	/* port A -> rionet */
	FWD_FROM_RIO,	/* rionet -> port A */
	FWD_ECHO,	/* far end: rionet -> same rionet, MACs swapped */
};

struct fwd_task {
	enum fwd_kind kind;
	uint16_t rx_port;
	uint16_t tx_port;
	unsigned int lcore;
	char name[2 * RTE_ETH_NAME_MAX_LEN + 8];
	/* written by the task's lcore only, read by the main lcore */
	uint64_t rx;
	uint64_t tx;
	uint64_t drop;
	bool done;	/* FWD_TO_RIO: --count frames taken */
};

static struct fwd_task fwd_tasks[FWD_MAX_TASKS];
static unsigned int fwd_ntasks;
static struct rte_ether_addr fwd_dest_mac;	/* MAC of the chosen rionet peer */
static struct rte_ether_addr fwd_rio_mac;	/* our rionet port's MAC */
static uint64_t fwd_count;			/* 0: no limit */
static unsigned int fwd_duration_s = 10;
static unsigned int fwd_period_s = 1;
static unsigned int fwd_tx_first;		/* frames to inject into port A first */
static int fwd_dest_destid = -1;
static const char *fwd_port_a_name;
static const char *fwd_rionet_name;
static const char *fwd_echo_name;
static uint32_t fwd_stop;	/* main -> workers */
static volatile sig_atomic_t fwd_signal;

/* Counters: one writer (the task's lcore); the main lcore reads them. */
static inline void
fwd_counter_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

static inline uint64_t
fwd_counter_read(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* Set by the main lcore; pairs with the acquire load in fwd_stopped(). */
static inline void
fwd_stop_set(void)
{
	__atomic_store_n(&fwd_stop, 1, __ATOMIC_RELEASE);
}

static inline bool
fwd_stopped(void)
{
	return __atomic_load_n(&fwd_stop, __ATOMIC_ACQUIRE) != 0;
}

/* Set by the FWD_TO_RIO task when --count frames were taken (release). */
static inline void
fwd_done_set(struct fwd_task *t)
{
	__atomic_store_n(&t->done, true, __ATOMIC_RELEASE);
}

static inline bool
fwd_done(const struct fwd_task *t)
{
	return __atomic_load_n(&t->done, __ATOMIC_ACQUIRE);
}

static void
fwd_on_signal(int sig)
{
	fwd_signal = sig;
}

/* Send a burst, retrying a bounded number of times; free and count the rest. */
static void
fwd_send(struct fwd_task *t, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = 0;
	unsigned int tries;

	for (tries = 0; tries < FWD_TX_TRIES && sent < n; tries++)
		sent += rte_eth_tx_burst(t->tx_port, 0, pkts + sent, n - sent);
	fwd_counter_add(&t->tx, sent);
	if (sent < n) {
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
		fwd_counter_add(&t->drop, n - sent);
	}
}

/* One pass of a task: one rx burst, rewrite, one tx burst. */
static void
fwd_task_poll(struct fwd_task *t)
{
	struct rte_mbuf *pkts[FWD_BURST];
	struct rte_ether_hdr *eth;
	struct rte_ether_addr tmp;
	uint16_t n, want = FWD_BURST, i;

	if (t->kind == FWD_TO_RIO && fwd_count != 0) {
		if (t->rx >= fwd_count)
			return;
		want = (uint16_t)RTE_MIN((uint64_t)FWD_BURST, fwd_count - t->rx);
	}
	n = rte_eth_rx_burst(t->rx_port, 0, pkts, want);
	if (n == 0)
		return;
	fwd_counter_add(&t->rx, n);
	/* Frames from rionet leave port A unchanged. */
	for (i = 0; i < n && t->kind != FWD_FROM_RIO; i++) {
		if (rte_pktmbuf_data_len(pkts[i]) < sizeof(*eth))
			continue;	/* rionet refuses and counts runts */
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		if (t->kind == FWD_TO_RIO) {
			rte_ether_addr_copy(&fwd_dest_mac, &eth->dst_addr);
			rte_ether_addr_copy(&fwd_rio_mac, &eth->src_addr);
		} else {
			rte_ether_addr_copy(&eth->dst_addr, &tmp);
			rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
			rte_ether_addr_copy(&tmp, &eth->src_addr);
		}
	}
	fwd_send(t, pkts, n);
	if (t->kind == FWD_TO_RIO && fwd_count != 0 && t->rx >= fwd_count)
		fwd_done_set(t);
}

/* Worker lcore: run the tasks assigned to it until told to stop. */
static int
fwd_lcore_main(void *arg)
{
	unsigned int lcore = rte_lcore_id(), i;

	RTE_SET_USED(arg);
	while (!fwd_stopped())
		for (i = 0; i < fwd_ntasks; i++)
			if (fwd_tasks[i].lcore == lcore)
				fwd_task_poll(&fwd_tasks[i]);
	return 0;
}

static void
fwd_print_stats(const char *when)
{
	unsigned int i;

	printf("rio_fwd: stats (%s)\n", when);
	for (i = 0; i < fwd_ntasks; i++) {
		const struct fwd_task *t = &fwd_tasks[i];

		printf("rio_fwd: lcore %u task %s rx=%" PRIu64 " tx=%" PRIu64 " drop=%" PRIu64
		       "\n", t->lcore, t->name, fwd_counter_read(&t->rx),
		       fwd_counter_read(&t->tx), fwd_counter_read(&t->drop));
	}
	fflush(stdout);
}

static void
fwd_print_ports(void)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_stats st;
	uint16_t port;

	RTE_ETH_FOREACH_DEV(port) {
		if (rte_eth_dev_get_name_by_port(port, name) != 0 ||
		    rte_eth_stats_get(port, &st) != 0)
			continue;
		printf("rio_fwd: port %u %s ipackets=%" PRIu64 " opackets=%" PRIu64
		       " imissed=%" PRIu64 " ierrors=%" PRIu64 " oerrors=%" PRIu64 "\n", port,
		       name, st.ipackets, st.opackets, st.imissed, st.ierrors, st.oerrors);
	}
}

static bool
fwd_is_rionet(uint16_t port)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	return rte_eth_dev_get_name_by_port(port, name) == 0 &&
	       strncmp(name, "rionet_", strlen("rionet_")) == 0;
}

/* Port by name, or the first port that is (or is not) rionet and not in use. */
static int
fwd_find_port(const char *name, bool rionet, const char *what, uint16_t *port,
	      const bool *used)
{
	uint16_t p;

	if (name != NULL) {
		if (rte_eth_dev_get_port_by_name(name, port) != 0) {
			fprintf(stderr, "rio_fwd: %s: no port named '%s'\n", what, name);
			return -ENODEV;
		}
		if (fwd_is_rionet(*port) != rionet) {
			fprintf(stderr, "rio_fwd: %s: '%s' is %sa rionet port\n", what, name,
				rionet ? "not " : "");
			return -EINVAL;
		}
		return 0;
	}
	RTE_ETH_FOREACH_DEV(p) {
		if (!used[p] && fwd_is_rionet(p) == rionet) {
			*port = p;
			return 0;
		}
	}
	fprintf(stderr, "rio_fwd: %s: no %s port (give one with --vdev)\n", what,
		rionet ? "rionet" : "non-rionet");
	return -ENODEV;
}

static int
fwd_port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, FWD_DESC, rte_eth_dev_socket_id(port),
					     NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, FWD_DESC, rte_eth_dev_socket_id(port),
					     NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret != 0)
		fprintf(stderr, "rio_fwd: port %u: cannot start: %s\n", port, strerror(-ret));
	return ret;
}

/* Wait until every rionet port has an active peer (its link is up). */
static int
fwd_wait_links(const uint16_t *ports, unsigned int n)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * FWD_LINK_MS;
	struct rte_eth_link link;
	unsigned int i, up;

	do {
		for (i = 0, up = 0; i < n; i++)
			if (rte_eth_link_get_nowait(ports[i], &link) == 0 &&
			    link.link_status == RTE_ETH_LINK_UP)
				up++;
		if (up == n)
			return 0;
		rte_delay_ms(10);
	} while (rte_get_timer_cycles() < end);
	fprintf(stderr, "rio_fwd: rionet link not up after %u ms (no active peer)\n",
		FWD_LINK_MS);
	return -ETIMEDOUT;
}

static void
fwd_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s <EAL args> -- --dest-destid D [options]\n"
		"  --dest-destid D   rionet peer (device ID) that gets port A's frames\n"
		"  --port-a NAME     port A (default: the first port that is not rionet)\n"
		"  --rionet NAME     rionet port (default: the first rionet port)\n"
		"  --echo NAME       another rionet port of this process that plays the\n"
		"                    far end: counts and returns what arrives\n"
		"  --count N         stop after N frames from port A have been forwarded\n"
		"                    and the traffic has drained (default: no limit)\n"
		"  --duration S      stop after S seconds (default 10)\n"
		"  --stats-period S  print statistics every S seconds, 0: at exit only\n"
		"                    (default 1)\n"
		"  --tx-first N      send N 64-byte frames out of port A first (for a\n"
		"                    loopback port A such as net_ring: they come back)\n",
		prog);
}

static int
fwd_parse_uint(const char *opt, const char *s, unsigned long min, unsigned long max,
	       unsigned long *v)
{
	char *end = NULL;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || *v < min || *v > max || s[0] == '-') {
		fprintf(stderr, "rio_fwd: %s: '%s' is not a number in %lu..%lu\n", opt, s, min,
			max);
		return -1;
	}
	return 0;
}

static int
fwd_parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dest-destid", required_argument, NULL, 'd' },
		{ "port-a", required_argument, NULL, 'a' },
		{ "rionet", required_argument, NULL, 'r' },
		{ "echo", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 't' },
		{ "stats-period", required_argument, NULL, 'p' },
		{ "tx-first", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (fwd_parse_uint("--dest-destid", optarg, 0, 0xfffe, &v) != 0)
				return -1;
			fwd_dest_destid = (int)v;
			break;
		case 'a':
			fwd_port_a_name = optarg;
			break;
		case 'r':
			fwd_rionet_name = optarg;
			break;
		case 'e':
			fwd_echo_name = optarg;
			break;
		case 'c':
			if (fwd_parse_uint("--count", optarg, 1, ULONG_MAX - 1, &v) != 0)
				return -1;
			fwd_count = v;
			break;
		case 't':
			if (fwd_parse_uint("--duration", optarg, 1, 86400, &v) != 0)
				return -1;
			fwd_duration_s = v;
			break;
		case 'p':
			if (fwd_parse_uint("--stats-period", optarg, 0, 86400, &v) != 0)
				return -1;
			fwd_period_s = v;
			break;
		case 'f':
			if (fwd_parse_uint("--tx-first", optarg, 1, FWD_DESC, &v) != 0)
				return -1;
			fwd_tx_first = v;
			break;
		default:
			fwd_usage(argv[0]);
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "rio_fwd: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (fwd_dest_destid < 0) {
		fprintf(stderr, "rio_fwd: --dest-destid is required\n");
		return -1;
	}
	return 0;
}

/* Send @p n 64-byte frames (to the rionet peer's MAC) out of port A. */
static int
fwd_inject(uint16_t port, struct rte_mempool *mp, unsigned int n)
{
	struct rte_mbuf *pkts[FWD_DESC];
	struct rte_ether_hdr *eth;
	uint16_t sent;
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(mp, pkts, n) != 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		eth = (struct rte_ether_hdr *)rte_pktmbuf_append(pkts[i], 64);
		memset(eth, 0, 64);
		rte_ether_addr_copy(&fwd_dest_mac, &eth->dst_addr);
		rte_ether_addr_copy(&fwd_rio_mac, &eth->src_addr);
		eth->ether_type = rte_cpu_to_be_16(0x88b5);	/* local experimental */
	}
	sent = rte_eth_tx_burst(port, 0, pkts, n);
	if (sent < n)
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	printf("rio_fwd: sent %u of %u first frames out of port %u\n", sent, n, port);
	return 0;
}

static void
fwd_add_task(enum fwd_kind kind, uint16_t rx_port, uint16_t tx_port)
{
	char rx[RTE_ETH_NAME_MAX_LEN], tx[RTE_ETH_NAME_MAX_LEN];
	struct fwd_task *t = &fwd_tasks[fwd_ntasks++];

	t->kind = kind;
	t->rx_port = rx_port;
	t->tx_port = tx_port;
	rte_eth_dev_get_name_by_port(rx_port, rx);
	rte_eth_dev_get_name_by_port(tx_port, tx);
	if (kind == FWD_ECHO)
		snprintf(t->name, sizeof(t->name), "echo:%s", rx);
	else
		snprintf(t->name, sizeof(t->name), "%s->%s", rx, tx);
}

/* Main lcore: wait for the end of the run, printing statistics. */
static void
fwd_main_loop(bool inline_tasks)
{
	uint64_t hz = rte_get_timer_hz(), start = rte_get_timer_cycles();
	uint64_t end = start + hz * fwd_duration_s, next = start + hz * fwd_period_s;
	uint64_t last_sum = UINT64_MAX, quiet_since = 0, now, sum;
	unsigned int i;
	char when[32];

	for (;;) {
		if (inline_tasks)
			for (i = 0; i < fwd_ntasks; i++)
				fwd_task_poll(&fwd_tasks[i]);
		else
			rte_delay_us_sleep(1000);
		now = rte_get_timer_cycles();
		if (fwd_signal != 0) {
			printf("rio_fwd: signal %d, stopping\n", (int)fwd_signal);
			break;
		}
		if (now >= end) {
			printf("rio_fwd: %u s elapsed, stopping\n", fwd_duration_s);
			break;
		}
		if (fwd_period_s != 0 && now >= next) {
			snprintf(when, sizeof(when), "%.0f s", (double)(now - start) / hz);
			fwd_print_stats(when);
			next += hz * fwd_period_s;
		}
		if (fwd_count == 0 || !fwd_done(&fwd_tasks[0]))
			continue;
		/* --count reached: stop once no counter moved for FWD_QUIET_MS. */
		for (i = 0, sum = 0; i < fwd_ntasks; i++)
			sum += fwd_counter_read(&fwd_tasks[i].rx) +
			       fwd_counter_read(&fwd_tasks[i].tx) +
			       fwd_counter_read(&fwd_tasks[i].drop);
		if (sum != last_sum) {
			last_sum = sum;
			quiet_since = now;
		} else if (now - quiet_since >= hz / 1000 * FWD_QUIET_MS) {
			printf("rio_fwd: %" PRIu64 " frames taken from port A and drained, "
			       "stopping\n", fwd_count);
			break;
		}
	}
}

int
main(int argc, char **argv)
{
	uint16_t port_a = 0, rio = 0, echo = 0, rio_ports[2];
	bool used[RTE_MAX_ETHPORTS] = { false };
	unsigned int i, lcore, nworkers = 0, nrio = 0;
	uint16_t started[3];
	unsigned int nstarted = 0;
	struct rte_mempool *mp = NULL;
	uint64_t drops = 0;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rio_fwd: cannot initialize EAL\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	ret = -1;
	if (fwd_parse_args(argc, argv) != 0) {
		rte_eal_cleanup();
		return 2;
	}
	signal(SIGINT, fwd_on_signal);
	signal(SIGTERM, fwd_on_signal);

	if (fwd_find_port(fwd_rionet_name, true, "--rionet", &rio, used) != 0)
		goto out;
	used[rio] = true;
	if (fwd_echo_name != NULL) {
		if (fwd_find_port(fwd_echo_name, true, "--echo", &echo, used) != 0)
			goto out;
		if (echo == rio) {
			fprintf(stderr, "rio_fwd: --echo: '%s' is the forwarding rionet port\n",
				fwd_echo_name);
			goto out;
		}
		used[echo] = true;
	}
	if (fwd_find_port(fwd_port_a_name, false, "--port-a", &port_a, used) != 0)
		goto out;
	used[port_a] = true;

	mp = rte_pktmbuf_pool_create("rio_fwd_pool", FWD_MBUFS, FWD_MBUF_CACHE, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "rio_fwd: cannot create the mbuf pool: %s\n",
			rte_strerror(rte_errno));
		goto out;
	}
	/* The far end first, so that it answers our JOIN at once. */
	if (fwd_echo_name != NULL) {
		if (fwd_port_init(echo, mp) != 0)
			goto out;
		started[nstarted++] = echo;
		rio_ports[nrio++] = echo;
	}
	if (fwd_port_init(rio, mp) != 0)
		goto out;
	started[nstarted++] = rio;
	rio_ports[nrio++] = rio;
	if (fwd_port_init(port_a, mp) != 0)
		goto out;
	started[nstarted++] = port_a;
	if (fwd_wait_links(rio_ports, nrio) != 0)
		goto out;

	rte_eth_macaddr_get(rio, &fwd_rio_mac);
	fwd_dest_mac = (struct rte_ether_addr){ .addr_bytes = { 0x00, 0x01, 0x00, 0x01,
		(uint8_t)(fwd_dest_destid >> 8), (uint8_t)fwd_dest_destid } };
	fwd_add_task(FWD_TO_RIO, port_a, rio);
	fwd_add_task(FWD_FROM_RIO, rio, port_a);
	if (fwd_echo_name != NULL)
		fwd_add_task(FWD_ECHO, echo, echo);

	if (fwd_tx_first != 0 && fwd_inject(port_a, mp, fwd_tx_first) != 0)
		goto out;

	/* Tasks to worker lcores round robin; none: the main lcore runs them. */
	RTE_LCORE_FOREACH_WORKER(lcore) {
		nworkers++;
	}
	for (i = 0; i < fwd_ntasks; i++) {
		unsigned int k = nworkers == 0 ? 0 : i % nworkers, n = 0;

		fwd_tasks[i].lcore = rte_get_main_lcore();
		RTE_LCORE_FOREACH_WORKER(lcore) {
			if (n++ == k) {
				fwd_tasks[i].lcore = lcore;
				break;
			}
		}
	}
	printf("rio_fwd: bridging port %u and rionet port %u, frames to destid %u "
	       "(MAC %02x:%02x:%02x:%02x:%02x:%02x), %u worker lcore(s)\n", port_a, rio,
	       fwd_dest_destid, RTE_ETHER_ADDR_BYTES(&fwd_dest_mac), nworkers);
	for (i = 0; i < fwd_ntasks; i++)
		printf("rio_fwd: task %s on lcore %u\n", fwd_tasks[i].name, fwd_tasks[i].lcore);
	fflush(stdout);

	RTE_LCORE_FOREACH_WORKER(lcore)
		rte_eal_remote_launch(fwd_lcore_main, NULL, lcore);
	fwd_main_loop(nworkers == 0);
	fwd_stop_set();
	rte_eal_mp_wait_lcore();

	fwd_print_stats("final");
	fwd_print_ports();
	for (i = 0; i < fwd_ntasks; i++)
		drops += fwd_tasks[i].drop;
	printf("rio_fwd: total to_rionet=%" PRIu64 " from_rionet=%" PRIu64 " dropped=%" PRIu64
	       "\n", fwd_tasks[0].tx, fwd_tasks[1].tx, drops);
	ret = fwd_tasks[0].tx > 0 && (fwd_count == 0 || fwd_done(&fwd_tasks[0])) ? 0 : -1;
out:
	for (i = 0; i < nstarted; i++) {
		rte_eth_dev_stop(started[i]);
		rte_eth_dev_close(started[i]);
	}
	rte_mempool_free(mp);
	rte_eal_cleanup();
	printf("rio_fwd: %s\n", ret == 0 ? "PASSED" : "FAILED");
	return ret == 0 ? 0 : 1;
}
