/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dpdk-rio-bench: the measurements devtools/bench.sh cannot take with the
 * stock dpdk-testpmd.
 *
 *   pong   echo every frame received on any ethdev port back to its sender
 *          (MACs swapped) until a STOP frame arrives or --timeout-s passes.
 *   ping   send one small frame, busy-wait for its echo, and time the round
 *          trip with rte_rdtsc; --count times per port after --warmup
 *          untimed ones. Prints min/p50/p99/max per port. Works over any
 *          ethdev (rionet, net_memif, ...): the transports come from the EAL
 *          --vdev options. With several ports (pong has the same ports in
 *          the same order), the round trips go to the ports in turn, --block
 *          at a time, so that every port is measured over the same span of
 *          time and a change of machine state (another process, the
 *          hypervisor moving a vCPU) hits all of them alike. Pong polls
 *          every port on each turn of its loop, so an idle port's empty
 *          poll is part of every port's round trip.
 *   sink   count every frame received on any ethdev port, per port, until a
 *          STOP frame has arrived on every port (or --timeout-s passes);
 *          echo ping frames, so that stream can wait for each port's peer.
 *   stream send --size frames to the sink as fast as tx_burst accepts them,
 *          one port at a time: --window-ms on each port in turn, first
 *          --warmup-ms per port untimed, then --run-ms per port timed. Prints
 *          per port the frames accepted and the rate over its timed windows
 *          (and min/p50/max of the windows). Taking the transports in turn
 *          every few milliseconds times all of them over the same seconds,
 *          as ping does for latency: on a VM whose vCPUs move between caches
 *          every few seconds, two separate runs meet different machines.
 *   enum   for each fabric size, create a 16-bit builtin:star:N fabric with
 *          a host mport (endpoint 0) and an agent mport (last endpoint), both
 *          scan=0, then time rte_rio_mport_scan() on the host (enumeration)
 *          and on the agent (discovery) and read their maintenance
 *          transaction counters. Needs no --vdev.
 *   corelat  bounce one cache line between the main lcore and the first
 *          worker lcore (give them different cores with --lcores) and
 *          time the round trip: --samples samples of --ms milliseconds,
 *          min/p50/max ns. On a VM this shows where the hypervisor has put
 *          the two vCPUs at that moment (the same cache or not), which sets
 *          the cost of every line two processes share. Needs no --vdev.
 *   window map an inbound window of --win-size bytes at RapidIO address
 *          --addr on the first mport (the target of dma), print a RESULT
 *          line when it is mapped, and hold it until SIGINT/SIGTERM or
 *          --timeout-s.
 *   dma    move --sizes bytes per operation through the first dmadev
 *          (dma_rio from --vdev) for --run-ms each: --dir write (MEM_TO_DEV)
 *          or read (DEV_TO_MEM), operations at successive addresses of
 *          [--addr, --addr + --win-size), --batch per submit, a ring of
 *          --ring. Prints per size the operations, bytes and goodput
 *          (payload bytes per second), and fails on any failed operation.
 *
 * Every result is one line starting with "RESULT " (key=value pairs) so that
 * scripts can parse it.
 *
 * Usage:
 *   dpdk-rio-bench <EAL args> -- pong [--timeout-s S]
 *   dpdk-rio-bench <EAL args> -- ping [--peer MAC] [--size B] [--count N]
 *                                     [--warmup N] [--block N] [--timeout-s S]
 *   dpdk-rio-bench <EAL args> -- sink [--size B] [--timeout-s S]
 *   dpdk-rio-bench <EAL args> -- stream [--peer MAC] [--size B] [--window-ms W]
 *                                       [--warmup-ms M] [--run-ms M] [--timeout-s S]
 *   dpdk-rio-bench <EAL args> -- enum [--sizes N,N,...] [--reps R]
 *                                     [--fabric NAME]
 *   dpdk-rio-bench <EAL args> -- corelat [--samples N] [--ms M]
 *   dpdk-rio-bench <EAL args> -- window --addr A --win-size B [--timeout-s S]
 *   dpdk-rio-bench <EAL args> -- dma --addr A --win-size B [--dir write|read]
 *                                    [--sizes B,B,...] [--run-ms M] [--batch N] [--ring N]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dmadev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "rte_pmd_rio_sim_fabric.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"

#define BENCH_ETHERTYPE		0x88b5	/* IEEE local experimental */
#define BENCH_MAGIC_PING	0x50494e47u
#define BENCH_MAGIC_STOP	0x53544f50u
#define BENCH_MAGIC_DATA	0x44415441u
#define BENCH_NB_MBUFS		4095
#define BENCH_NB_DESC		512
#define BENCH_BURST		32
#define BENCH_REPLY_TIMEOUT_MS	100
#define BENCH_MAX_SIZES		16
#define BENCH_MAX_PORTS		4
#define BENCH_MAX_SAMPLES	1000
#define BENCH_MAX_WINDOWS	100000

struct bench_payload {
	uint32_t magic;
	uint32_t seq;
	uint64_t tsc;
} __rte_packed;

struct bench_opts {
	const char *mode;
	struct rte_ether_addr peer;
	unsigned int size;
	unsigned int count;
	unsigned int warmup;
	unsigned int block;
	unsigned int timeout_s;
	unsigned int sizes[BENCH_MAX_SIZES];
	unsigned int nb_sizes;
	unsigned int reps;
	unsigned int samples;
	unsigned int sample_ms;
	unsigned int window_ms;
	unsigned int stream_warmup_ms;
	unsigned int stream_ms;
	char fabric[64];
	uint64_t addr;
	uint64_t win_size;
	bool dma_read;
	unsigned int batch;
	unsigned int ring;
};

static volatile bool bench_quit;

static void
bench_signal(int sig)
{
	RTE_SET_USED(sig);
	bench_quit = true;
}

static void
bench_usage(const char *prog)
{
	printf("usage: %s <EAL args> -- pong [--timeout-s S]\n"
	       "       %s <EAL args> -- ping [--peer MAC] [--size B] [--count N] [--warmup N]"
	       " [--block N] [--timeout-s S]\n"
	       "       %s <EAL args> -- sink [--size B] [--timeout-s S]\n"
	       "       %s <EAL args> -- stream [--peer MAC] [--size B] [--window-ms W]"
	       " [--warmup-ms M] [--run-ms M] [--timeout-s S]\n"
	       "       %s <EAL args> -- enum [--sizes N,N,...] [--reps R] [--fabric NAME]\n"
	       "       %s <EAL args> -- corelat [--samples N] [--ms M]\n"
	       "       %s <EAL args> -- window --addr A --win-size B [--timeout-s S]\n"
	       "       %s <EAL args> -- dma --addr A --win-size B [--dir write|read]"
	       " [--sizes B,B,...] [--run-ms M] [--batch N] [--ring N]\n",
	       prog, prog, prog, prog, prog, prog, prog, prog);
}

static int
bench_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int
bench_parse_sizes(const char *s, struct bench_opts *o)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->nb_sizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (o->nb_sizes == BENCH_MAX_SIZES ||
		    bench_parse_uint(tok, 1, 1u << 24, &o->sizes[o->nb_sizes]) != 0)
			return -EINVAL;
		o->nb_sizes++;
	}
	return o->nb_sizes > 0 ? 0 : -EINVAL;
}

static int
bench_parse(int argc, char **argv, struct bench_opts *o)
{
	static const struct option longopts[] = {
		{ "peer", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "block", required_argument, NULL, 'b' },
		{ "timeout-s", required_argument, NULL, 't' },
		{ "sizes", required_argument, NULL, 'S' },
		{ "reps", required_argument, NULL, 'r' },
		{ "fabric", required_argument, NULL, 'f' },
		{ "samples", required_argument, NULL, 'n' },
		{ "ms", required_argument, NULL, 'm' },
		{ "window-ms", required_argument, NULL, 'W' },
		{ "warmup-ms", required_argument, NULL, 'u' },
		{ "run-ms", required_argument, NULL, 'R' },
		{ "addr", required_argument, NULL, 'A' },
		{ "win-size", required_argument, NULL, 'Z' },
		{ "dir", required_argument, NULL, 'D' },
		{ "batch", required_argument, NULL, 'B' },
		{ "ring", required_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;
	int opt, ret = 0;

	memset(o, 0, sizeof(*o));
	memset(&o->peer, 0xff, sizeof(o->peer));
	o->size = 64;
	o->count = 10000;
	o->warmup = 1000;
	o->block = 100;
	o->timeout_s = 30;
	o->sizes[0] = 64;
	o->nb_sizes = 1;
	o->reps = 3;
	o->samples = 5;
	o->sample_ms = 100;
	o->window_ms = 50;
	o->stream_warmup_ms = 1000;
	o->stream_ms = 2000;
	o->batch = 32;
	o->ring = 1024;
	snprintf(o->fabric, sizeof(o->fabric), "rio_bench_%d", (int)getpid());
	if (argc < 2)
		return -EINVAL;
	o->mode = argv[1];
	if (strcmp(o->mode, "ping") != 0 && strcmp(o->mode, "pong") != 0 &&
	    strcmp(o->mode, "sink") != 0 && strcmp(o->mode, "stream") != 0 &&
	    strcmp(o->mode, "enum") != 0 && strcmp(o->mode, "corelat") != 0 &&
	    strcmp(o->mode, "window") != 0 && strcmp(o->mode, "dma") != 0)
		return -EINVAL;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			ret = rte_ether_unformat_addr(optarg, &o->peer);
			break;
		case 's':
			ret = bench_parse_uint(optarg,
					       RTE_ETHER_HDR_LEN + sizeof(struct bench_payload),
					       4096, &o->size);
			break;
		case 'c':
			ret = bench_parse_uint(optarg, 1, 10000000, &o->count);
			break;
		case 'w':
			ret = bench_parse_uint(optarg, 0, 10000000, &o->warmup);
			break;
		case 'b':
			ret = bench_parse_uint(optarg, 1, 10000000, &o->block);
			break;
		case 't':
			ret = bench_parse_uint(optarg, 1, 3600, &o->timeout_s);
			break;
		case 'S':
			ret = bench_parse_sizes(optarg, o);
			break;
		case 'r':
			ret = bench_parse_uint(optarg, 1, 1000, &o->reps);
			break;
		case 'f':
			if (strlen(optarg) >= sizeof(o->fabric) - 16)
				ret = -EINVAL;
			else
				snprintf(o->fabric, sizeof(o->fabric), "%s", optarg);
			break;
		case 'n':
			ret = bench_parse_uint(optarg, 1, BENCH_MAX_SAMPLES, &o->samples);
			break;
		case 'm':
			ret = bench_parse_uint(optarg, 1, 10000, &o->sample_ms);
			break;
		case 'R':
			ret = bench_parse_uint(optarg, 1, 600000, &o->stream_ms);
			break;
		case 'W':
			ret = bench_parse_uint(optarg, 1, 10000, &o->window_ms);
			break;
		case 'u':
			ret = bench_parse_uint(optarg, 0, 600000, &o->stream_warmup_ms);
			break;
		case 'A':
		case 'Z':
			errno = 0;
			v = strtoull(optarg, &end, 0);
			if (errno != 0 || end == optarg || *end != '\0' || optarg[0] == '-')
				ret = -EINVAL;
			else if (opt == 'A')
				o->addr = v;
			else
				o->win_size = v;
			break;
		case 'D':
			if (strcmp(optarg, "read") == 0)
				o->dma_read = true;
			else if (strcmp(optarg, "write") != 0)
				ret = -EINVAL;
			break;
		case 'B':
			ret = bench_parse_uint(optarg, 1, 4096, &o->batch);
			break;
		case 'G':
			ret = bench_parse_uint(optarg, 32, 4096, &o->ring);
			break;
		default:
			ret = -EINVAL;
			break;
		}
		if (ret != 0)
			return -EINVAL;
	}
	if (strcmp(o->mode, "stream") == 0 && o->stream_ms / o->window_ms > BENCH_MAX_WINDOWS)
		return -EINVAL;
	if ((strcmp(o->mode, "window") == 0 || strcmp(o->mode, "dma") == 0) && o->win_size == 0)
		return -EINVAL;
	/* A star fabric of one endpoint has no agent to discover it. */
	for (i = 0; strcmp(o->mode, "enum") == 0 && i < o->nb_sizes; i++)
		if (o->sizes[i] < 2)
			return -EINVAL;
	return optind == argc ? 0 : -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Ethdev ping-pong                                                   */

/* The ethdev ports of the run, in port ID order, each with its own pool. */
struct bench_ports {
	uint16_t id[BENCH_MAX_PORTS];
	struct rte_mempool *mp[BENCH_MAX_PORTS];
	struct rte_ether_addr mac[BENCH_MAX_PORTS];
	unsigned int n;
};

/*
 * One Rx and one Tx queue with @nb_desc descriptors (0: the driver's
 * default, as testpmd), and mbufs that hold a @size-byte frame in one
 * segment. A port that takes frames of @size bytes is given the MTU for
 * them (rionet enforces it); net_memif caps max_rx_pktlen at 1518 but does
 * not enforce the MTU, and keeps its default.
 */
static int
bench_port_init(uint16_t port, struct rte_mempool **mp, unsigned int size, uint16_t nb_desc)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint16_t room;
	int ret;

	room = RTE_MAX((unsigned int)RTE_MBUF_DEFAULT_BUF_SIZE, RTE_PKTMBUF_HEADROOM + size);

	snprintf(name, sizeof(name), "rio_bench_pool%u", port);
	*mp = rte_pktmbuf_pool_create(name, BENCH_NB_MBUFS, 256, 0, room, rte_socket_id());
	if (*mp == NULL)
		return -rte_errno;
	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_info_get(port, &info);
	if (ret == 0 && size > RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN &&
	    info.max_rx_pktlen >= size)
		conf.rxmode.mtu = size - RTE_ETHER_HDR_LEN;
	if (ret == 0)
		ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, nb_desc, rte_eth_dev_socket_id(port),
					     NULL, *mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, nb_desc, rte_eth_dev_socket_id(port),
					     NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		rte_eth_promiscuous_enable(port);
	if (ret != 0)
		printf("rio-bench: error: port %u setup failed: %s\n", port, strerror(-ret));
	return ret;
}

static void
bench_ports_fini(struct bench_ports *ps)
{
	unsigned int i;

	for (i = 0; i < ps->n; i++) {
		rte_eth_dev_stop(ps->id[i]);
		rte_eth_dev_close(ps->id[i]);
		rte_mempool_free(ps->mp[i]);
	}
	ps->n = 0;
}

/*
 * Start every ethdev port (see bench_port_init()).
 * @return 0, or a negative errno (nothing left started).
 */
static int
bench_ports_init(struct bench_ports *ps, unsigned int size, uint16_t nb_desc)
{
	uint16_t port;
	int ret;

	memset(ps, 0, sizeof(*ps));
	RTE_ETH_FOREACH_DEV(port) {
		if (ps->n == BENCH_MAX_PORTS) {
			printf("rio-bench: error: more than %d ethdev ports\n", BENCH_MAX_PORTS);
			bench_ports_fini(ps);
			return -E2BIG;
		}
		ps->id[ps->n] = port;
		ret = bench_port_init(port, &ps->mp[ps->n], size, nb_desc);
		if (ret != 0) {
			rte_mempool_free(ps->mp[ps->n]);
			bench_ports_fini(ps);
			return ret;
		}
		rte_eth_macaddr_get(port, &ps->mac[ps->n]);
		ps->n++;
	}
	if (ps->n == 0) {
		printf("rio-bench: error: no ethdev port (give one with --vdev)\n");
		return -ENODEV;
	}
	return 0;
}

static const struct bench_payload *
bench_payload(struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(struct bench_payload) ||
	    eh->ether_type != rte_cpu_to_be_16(BENCH_ETHERTYPE))
		return NULL;
	return (const struct bench_payload *)(eh + 1);
}

/* Turn a received frame around: back to its sender, from port @p's MAC. */
static void
bench_reply_addr(struct rte_mbuf *m, const struct bench_ports *ps, unsigned int p)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	rte_ether_addr_copy(&eh->src_addr, &eh->dst_addr);
	rte_ether_addr_copy(&ps->mac[p], &eh->src_addr);
}

/* The driver of @port, for RESULT lines. */
static const char *
bench_driver_name(uint16_t port)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port, &info) == 0 && info.driver_name != NULL)
		return info.driver_name;
	return "unknown";
}

/* The ethdev name of @port (several ports may share a driver), in @buf. */
static const char *
bench_port_name(uint16_t port, char buf[RTE_ETH_NAME_MAX_LEN])
{
	if (rte_eth_dev_get_name_by_port(port, buf) != 0)
		snprintf(buf, RTE_ETH_NAME_MAX_LEN, "unknown");
	return buf;
}

static int
bench_pong(const struct bench_opts *o)
{
	struct rte_mbuf *pkts[BENCH_BURST];
	const struct bench_payload *pl;
	struct bench_ports ps;
	uint64_t deadline, echoed = 0;
	uint16_t nb, sent, i, port;
	unsigned int p;
	bool stop = false;
	int ret;

	ret = bench_ports_init(&ps, o->size, BENCH_NB_DESC);
	if (ret != 0)
		return ret;
	printf("pong: ready\n");
	fflush(stdout);
	deadline = rte_get_timer_cycles() + (uint64_t)o->timeout_s * rte_get_timer_hz();
	while (!stop && !bench_quit && rte_get_timer_cycles() < deadline) {
		for (p = 0; p < ps.n; p++) {
			port = ps.id[p];
			nb = rte_eth_rx_burst(port, 0, pkts, BENCH_BURST);
			if (nb == 0)
				continue;
			for (i = 0; i < nb; i++) {
				pl = bench_payload(pkts[i]);
				if (pl != NULL && pl->magic == BENCH_MAGIC_STOP)
					stop = true;
				bench_reply_addr(pkts[i], &ps, p);
			}
			sent = rte_eth_tx_burst(port, 0, pkts, nb);
			if (sent < nb)
				rte_pktmbuf_free_bulk(&pkts[sent], nb - sent);
			echoed += sent;
		}
	}
	printf("RESULT pong echoed=%" PRIu64 " stopped=%d\n", echoed, stop ? 1 : 0);
	fflush(stdout);
	bench_ports_fini(&ps);
	return stop ? 0 : -ETIMEDOUT;
}

/*
 * Wait (up to 2 s) until every port's link is down: the receiver (sink,
 * pong) has closed its ports after the STOP frames. net_memif 22.11 can
 * crash when both ends disconnect at once (the local stop frees the control
 * channel while the interrupt thread handles the peer's disconnect); the
 * sender leaves last, so that each side meets the other's disconnect while
 * idle. Results are flushed before: a crash must not take them along.
 */
static void
bench_leave_last(const struct bench_ports *ps)
{
	uint64_t end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	struct rte_eth_link link;
	unsigned int p, up;

	do {
		up = 0;
		for (p = 0; p < ps->n; p++)
			if (rte_eth_link_get_nowait(ps->id[p], &link) == 0 &&
			    link.link_status == RTE_ETH_LINK_UP)
				up++;
		if (up == 0)
			break;
		rte_delay_us_sleep(10000);
	} while (rte_get_timer_cycles() < end && !bench_quit);
	/* The peer's disconnect is handled by the interrupt thread: let it finish. */
	rte_delay_us_sleep(100000);
}

/* Send one probe on port @p of @ps; @return 0 when tx_burst accepted it. */
static int
bench_ping_send(const struct bench_ports *ps, unsigned int p, const struct bench_opts *o,
		uint32_t magic, uint32_t seq)
{
	struct bench_payload *pl;
	struct rte_ether_hdr *eh;
	struct rte_mbuf *m;

	m = rte_pktmbuf_alloc(ps->mp[p]);
	if (m == NULL)
		return -ENOMEM;
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, o->size);
	if (eh == NULL) {
		rte_pktmbuf_free(m);
		return -ENOSPC;
	}
	memset(eh, 0, o->size);
	rte_ether_addr_copy(&o->peer, &eh->dst_addr);
	rte_ether_addr_copy(&ps->mac[p], &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(BENCH_ETHERTYPE);
	pl = (struct bench_payload *)(eh + 1);
	pl->magic = magic;
	pl->seq = seq;
	pl->tsc = rte_rdtsc();
	if (rte_eth_tx_burst(ps->id[p], 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -EAGAIN;
	}
	return 0;
}

/* Wait up to @cycles for the echo of @seq on @port; @return 0 or -ETIMEDOUT. */
static int
bench_ping_wait(uint16_t port, uint32_t seq, uint64_t cycles)
{
	struct rte_mbuf *pkts[BENCH_BURST];
	const struct bench_payload *pl;
	uint64_t end = rte_rdtsc() + cycles;
	uint16_t nb, i;
	bool got = false;

	do {
		nb = rte_eth_rx_burst(port, 0, pkts, BENCH_BURST);
		for (i = 0; i < nb; i++) {
			pl = bench_payload(pkts[i]);
			if (pl != NULL && pl->magic == BENCH_MAGIC_PING && pl->seq == seq)
				got = true;
		}
		if (nb > 0)
			rte_pktmbuf_free_bulk(pkts, nb);
	} while (!got && !bench_quit && rte_rdtsc() < end);
	return got ? 0 : -ETIMEDOUT;
}

static int
bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Until the first echo on port @p: the peer may still be starting or joining. */
static int
bench_ping_first(const struct bench_ports *ps, unsigned int p, const struct bench_opts *o,
		 uint32_t *seq)
{
	uint64_t hz = rte_get_tsc_hz();
	uint64_t deadline = rte_get_timer_cycles() + (uint64_t)o->timeout_s * rte_get_timer_hz();

	for (;;) {
		(*seq)++;
		if (bench_ping_send(ps, p, o, BENCH_MAGIC_PING, *seq) == 0 &&
		    bench_ping_wait(ps->id[p], *seq, hz / 100) == 0)
			return 0;
		if (bench_quit || rte_get_timer_cycles() >= deadline) {
			printf("rio-bench: error: no echo from the peer on port %u within %u s\n",
			       ps->id[p], o->timeout_s);
			return -ETIMEDOUT;
		}
	}
}

static void
bench_ping_report(const struct bench_ports *ps, unsigned int p, const struct bench_opts *o,
		  uint64_t *lat, unsigned int n, unsigned int lost)
{
	uint64_t hz = rte_get_tsc_hz();
	char name[RTE_ETH_NAME_MAX_LEN];

	qsort(lat, n, sizeof(*lat), bench_cmp_u64);
#define BENCH_NS(c) ((double)(c) * 1e9 / (double)hz)
	printf("RESULT latency port=%u name=%s driver=%s size=%u n=%u lost=%u min_ns=%.0f"
	       " p50_ns=%.0f p99_ns=%.0f max_ns=%.0f\n", ps->id[p],
	       bench_port_name(ps->id[p], name), bench_driver_name(ps->id[p]), o->size, n,
	       lost,
	       BENCH_NS(lat[0]), BENCH_NS(lat[n / 2]), BENCH_NS(lat[(uint64_t)n * 99 / 100]),
	       BENCH_NS(lat[n - 1]));
#undef BENCH_NS
}

static int
bench_ping(const struct bench_opts *o)
{
	uint64_t reply = rte_get_tsc_hz() * BENCH_REPLY_TIMEOUT_MS / 1000, t0;
	uint64_t *lat[BENCH_MAX_PORTS] = { NULL };
	unsigned int n[BENCH_MAX_PORTS] = { 0 }, lost[BENCH_MAX_PORTS] = { 0 };
	unsigned int done[BENCH_MAX_PORTS] = { 0 }, total = o->warmup + o->count;
	unsigned int p, k, active;
	struct bench_ports ps;
	uint32_t seq = 0;
	int ret;

	ret = bench_ports_init(&ps, o->size, BENCH_NB_DESC);
	if (ret != 0)
		return ret;
	for (p = 0; p < ps.n && ret == 0; p++) {
		lat[p] = calloc(o->count, sizeof(*lat[p]));
		if (lat[p] == NULL)
			ret = -ENOMEM;
		else
			ret = bench_ping_first(&ps, p, o, &seq);
	}
	if (ret != 0)
		goto out;
	/* The ports in turn, a block of round trips each, until each has all. */
	do {
		active = 0;
		for (p = 0; p < ps.n && !bench_quit; p++) {
			for (k = 0; k < o->block && done[p] < total && !bench_quit; k++) {
				seq++;
				t0 = rte_rdtsc();
				if (bench_ping_send(&ps, p, o, BENCH_MAGIC_PING, seq) != 0 ||
				    bench_ping_wait(ps.id[p], seq, reply) != 0)
					lost[p]++;
				else if (done[p] >= o->warmup)
					lat[p][n[p]++] = rte_rdtsc() - t0;
				done[p]++;
			}
			active += done[p] < total;
		}
	} while (active > 0 && !bench_quit);
	for (p = 0; p < ps.n; p++)
		for (k = 0; k < 3; k++)
			bench_ping_send(&ps, p, o, BENCH_MAGIC_STOP, 0);
	for (p = 0; p < ps.n; p++) {
		if (n[p] == 0) {
			printf("rio-bench: error: no round trip measured on port %u\n", ps.id[p]);
			ret = -EIO;
			continue;
		}
		bench_ping_report(&ps, p, o, lat[p], n[p], lost[p]);
	}
	fflush(stdout);
	bench_leave_last(&ps);
out:
	for (p = 0; p < BENCH_MAX_PORTS; p++)
		free(lat[p]);
	bench_ports_fini(&ps);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Interleaved streams                                                */

static int
bench_sink(const struct bench_opts *o)
{
	uint64_t received[BENCH_MAX_PORTS] = { 0 }, bytes[BENCH_MAX_PORTS] = { 0 };
	struct rte_mbuf *pkts[BENCH_BURST], *echo[BENCH_BURST], *drop[BENCH_BURST];
	bool stopped[BENCH_MAX_PORTS] = { false };
	char name[RTE_ETH_NAME_MAX_LEN];
	const struct bench_payload *pl;
	unsigned int p, left;
	uint16_t nb, i, ne, nd, sent;
	struct bench_ports ps;
	uint64_t deadline;
	int ret;

	/* The driver's default descriptors and MTU handling, as testpmd rxonly. */
	ret = bench_ports_init(&ps, o->size, 0);
	if (ret != 0)
		return ret;
	printf("sink: ready\n");
	fflush(stdout);
	left = ps.n;
	deadline = rte_get_timer_cycles() + (uint64_t)o->timeout_s * rte_get_timer_hz();
	while (left > 0 && !bench_quit && rte_get_timer_cycles() < deadline) {
		for (p = 0; p < ps.n; p++) {
			nb = rte_eth_rx_burst(ps.id[p], 0, pkts, BENCH_BURST);
			ne = 0;
			nd = 0;
			for (i = 0; i < nb; i++) {
				pl = bench_payload(pkts[i]);
				if (pl != NULL && pl->magic == BENCH_MAGIC_PING) {
					bench_reply_addr(pkts[i], &ps, p);
					echo[ne++] = pkts[i];
					continue;
				}
				if (pl != NULL && pl->magic == BENCH_MAGIC_STOP) {
					/* Each sender's frames arrive in order: all are in. */
					if (!stopped[p]) {
						stopped[p] = true;
						left--;
					}
				} else {
					received[p]++;
					bytes[p] += pkts[i]->pkt_len;
				}
				drop[nd++] = pkts[i];
			}
			if (nd > 0)
				rte_pktmbuf_free_bulk(drop, nd);
			if (ne > 0) {
				sent = rte_eth_tx_burst(ps.id[p], 0, echo, ne);
				if (sent < ne)
					rte_pktmbuf_free_bulk(&echo[sent], ne - sent);
			}
		}
	}
	for (p = 0; p < ps.n; p++)
		printf("RESULT sink port=%u name=%s driver=%s received=%" PRIu64 " bytes=%" PRIu64
		       " stopped=%d\n", ps.id[p], bench_port_name(ps.id[p], name),
		       bench_driver_name(ps.id[p]), received[p],
		       bytes[p], stopped[p] ? 1 : 0);
	/* Out before the ports close: see bench_leave_last(). */
	fflush(stdout);
	bench_ports_fini(&ps);
	return left == 0 ? 0 : -ETIMEDOUT;
}

/* Per port state of the stream sender. */
struct bench_stream {
	struct rte_mbuf *pend[BENCH_BURST];	/* built, not yet accepted */
	uint16_t nb_pend;
	uint8_t tmpl[RTE_ETHER_HDR_LEN + sizeof(struct bench_payload)];
	uint64_t sent_all;		/* accepted, warm-up included */
	uint64_t sent;			/* accepted in timed windows */
	uint64_t cycles;		/* length of the timed windows */
	double *win_mpps;		/* rate of each timed window */
	unsigned int nb_win;
};

/* Top the pending burst up with new frames from the template (if the pool has them). */
static void
bench_stream_fill(struct bench_stream *st, struct rte_mempool *mp, unsigned int size)
{
	uint16_t k = BENCH_BURST - st->nb_pend, i;
	struct rte_mbuf *m;

	if (k == 0 || rte_pktmbuf_alloc_bulk(mp, &st->pend[st->nb_pend], k) != 0)
		return;
	for (i = st->nb_pend; i < BENCH_BURST; i++) {
		m = st->pend[i];
		/* Like testpmd txonly: headers written, the payload as it is. */
		rte_memcpy(rte_pktmbuf_mtod(m, void *), st->tmpl, sizeof(st->tmpl));
		m->data_len = size;
		m->pkt_len = size;
	}
	st->nb_pend = BENCH_BURST;
}

/* Send on port @p for @cycles; @return frames accepted, *used: cycles taken. */
static uint64_t
bench_stream_window(const struct bench_ports *ps, unsigned int p, struct bench_stream *st,
		    unsigned int size, uint64_t cycles, uint64_t *used)
{
	uint64_t t0 = rte_rdtsc(), now, n = 0;
	uint16_t k;

	do {
		bench_stream_fill(st, ps->mp[p], size);
		if (st->nb_pend > 0) {
			k = rte_eth_tx_burst(ps->id[p], 0, st->pend, st->nb_pend);
			if (k > 0 && k < st->nb_pend)
				memmove(st->pend, &st->pend[k],
					(st->nb_pend - k) * sizeof(st->pend[0]));
			st->nb_pend -= k;
			n += k;
		}
		now = rte_rdtsc();
	} while (now - t0 < cycles && !bench_quit);
	*used = now - t0;
	return n;
}

/* A STOP frame on every port, each until accepted or one second passed. */
static void
bench_stream_stop(const struct bench_ports *ps, const struct bench_opts *o)
{
	uint64_t end;
	unsigned int p;

	for (p = 0; p < ps->n; p++) {
		end = rte_get_timer_cycles() + rte_get_timer_hz();
		while (bench_ping_send(ps, p, o, BENCH_MAGIC_STOP, 0) != 0 &&
		       rte_get_timer_cycles() < end)
			;
	}
}

static void
bench_stream_report(const struct bench_ports *ps, unsigned int p, const struct bench_opts *o,
		    struct bench_stream *st)
{
	double hz = (double)rte_get_tsc_hz();
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_stats stats;

	if (rte_eth_stats_get(ps->id[p], &stats) != 0)
		memset(&stats, 0, sizeof(stats));
	qsort(st->win_mpps, st->nb_win, sizeof(st->win_mpps[0]), bench_cmp_double);
	printf("RESULT stream port=%u name=%s driver=%s size=%u windows=%u sent=%" PRIu64
	       " sent_all=%" PRIu64 " tx_errors=%" PRIu64 " mpps=%.6f win_min=%.6f"
	       " win_p50=%.6f win_max=%.6f\n", ps->id[p], bench_port_name(ps->id[p], name),
	       bench_driver_name(ps->id[p]), o->size,
	       st->nb_win,
	       st->sent, st->sent_all, stats.oerrors,
	       (double)st->sent * hz / (double)st->cycles / 1e6, st->win_mpps[0],
	       st->win_mpps[st->nb_win / 2], st->win_mpps[st->nb_win - 1]);
}

static int
bench_stream(const struct bench_opts *o)
{
	unsigned int warm = o->stream_warmup_ms / o->window_ms, timed = o->stream_ms / o->window_ms;
	uint64_t win = rte_get_tsc_hz() / 1000 * o->window_ms, n, used;
	struct bench_stream st[BENCH_MAX_PORTS];
	struct bench_payload *pl;
	struct rte_ether_hdr *eh;
	struct bench_ports ps;
	unsigned int p, r;
	uint32_t seq = 0;
	int ret;

	if (timed == 0)
		timed = 1;
	memset(st, 0, sizeof(st));
	ret = bench_ports_init(&ps, o->size, 0);
	if (ret != 0)
		return ret;
	for (p = 0; p < ps.n && ret == 0; p++) {
		eh = (struct rte_ether_hdr *)st[p].tmpl;
		rte_ether_addr_copy(&o->peer, &eh->dst_addr);
		rte_ether_addr_copy(&ps.mac[p], &eh->src_addr);
		eh->ether_type = rte_cpu_to_be_16(BENCH_ETHERTYPE);
		pl = (struct bench_payload *)(eh + 1);
		pl->magic = BENCH_MAGIC_DATA;
		st[p].win_mpps = calloc(timed, sizeof(st[p].win_mpps[0]));
		if (st[p].win_mpps == NULL)
			ret = -ENOMEM;
		else
			ret = bench_ping_first(&ps, p, o, &seq);
	}
	if (ret != 0)
		goto out;
	/* Every port a window in turn: all of them meet the same machine. */
	for (r = 0; r < warm + timed && !bench_quit; r++) {
		for (p = 0; p < ps.n && !bench_quit; p++) {
			n = bench_stream_window(&ps, p, &st[p], o->size, win, &used);
			st[p].sent_all += n;
			if (r < warm)
				continue;
			st[p].sent += n;
			st[p].cycles += used;
			st[p].win_mpps[st[p].nb_win++] =
				(double)n * (double)rte_get_tsc_hz() / (double)used / 1e6;
		}
	}
	if (bench_quit) {
		ret = -EINTR;
		goto out;
	}
	bench_stream_stop(&ps, o);
	for (p = 0; p < ps.n; p++)
		bench_stream_report(&ps, p, o, &st[p]);
	fflush(stdout);
	bench_leave_last(&ps);
out:
	/* Frames tx_burst never accepted were never sent: not part of any count. */
	for (p = 0; p < ps.n; p++) {
		if (st[p].nb_pend > 0)
			rte_pktmbuf_free_bulk(st[p].pend, st[p].nb_pend);
		free(st[p].win_mpps);
	}
	bench_ports_fini(&ps);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Enumeration scale                                                  */

/*
 * Write the builtin:star:N shape (ep0 the host; 15 children per 16-port
 * switch, port 15 up, until at most 16 remain for the root) as a topology
 * file with 16-bit device IDs: the builtin shape uses 8-bit IDs up to 200
 * endpoints, and every size must be measured with the same ID size.
 */
static int
bench_star_file(const char *path, unsigned int n)
{
	unsigned int *level, *up, cnt = n, nxt, i, j, sw = 0;
	bool root, child_sw = false;
	FILE *f;
	int ret = -ENOMEM;

	level = malloc(sizeof(*level) * n);
	up = malloc(sizeof(*up) * n);
	f = fopen(path, "w");
	if (level == NULL || up == NULL || f == NULL)
		goto out;
	fprintf(f, "[fabric]\ndevid_size = 16\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "[endpoint ep%u]\n%s", i, i == 0 ? "host = 1\n" : "");
		level[i] = i;
	}
	fprintf(f, "[links]\n");
	do {
		root = cnt <= 16;
		nxt = 0;
		for (i = 0; i < cnt; i += root ? 16 : 15) {
			for (j = 0; j < (root ? 16u : 15u) && i + j < cnt; j++) {
				if (child_sw)
					fprintf(f, "sw%u.%u = sw%u.15\n", sw, j, level[i + j]);
				else
					fprintf(f, "sw%u.%u = ep%u.0\n", sw, j, level[i + j]);
			}
			up[nxt++] = sw++;
		}
		memcpy(level, up, nxt * sizeof(*level));
		cnt = nxt;
		child_sw = true;
	} while (!root);
	for (i = 0; i < sw; i++)
		fprintf(f, "[switch sw%u]\nports = 16\n", i);
	ret = ferror(f) ? -EIO : 0;
out:
	if (f != NULL && fclose(f) != 0)
		ret = -EIO;
	free(level);
	free(up);
	return ret;
}

static int
bench_enum_one(const struct bench_opts *o, unsigned int endpoints, unsigned int rep)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 10000 };
	char host[96], agent[96], args[512], fabric[96], topo[128];
	struct rte_rio_mport *hmp, *amp;
	uint64_t t0, t1, t2, hz = rte_get_timer_hz();
	bool host_up = false, agent_up = false;
	int ret = -EIO;

	snprintf(fabric, sizeof(fabric), "%s_%u_%u", o->fabric, endpoints, rep);
	snprintf(host, sizeof(host), "rio_sim_%s_%u_%u_h", o->fabric, endpoints, rep);
	snprintf(agent, sizeof(agent), "rio_sim_%s_%u_%u_a", o->fabric, endpoints, rep);
	snprintf(topo, sizeof(topo), "/tmp/%s_star%u.ini", fabric, endpoints);
	ret = bench_star_file(topo, endpoints);
	if (ret != 0) {
		printf("rio-bench: error: cannot write %s: %s\n", topo, strerror(-ret));
		goto out;
	}
	ret = -EIO;
	snprintf(args, sizeof(args),
		 "fabric=%s,topology=%s,devid_size=16,endpoint=0,host=0,scan=0", fabric, topo);
	if (rte_vdev_init(host, args) != 0) {
		printf("rio-bench: error: rte_vdev_init(%s, %s) failed\n", host, args);
		goto out;
	}
	host_up = true;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=%u,scan=0", fabric, endpoints - 1);
	if (rte_vdev_init(agent, args) != 0) {
		printf("rio-bench: error: rte_vdev_init(%s, %s) failed\n", agent, args);
		goto out;
	}
	agent_up = true;
	hmp = rte_rio_mport_find(host);
	amp = rte_rio_mport_find(agent);
	if (hmp == NULL || amp == NULL)
		goto out;
	rte_rio_mport_maint_count_reset(hmp);
	rte_rio_mport_maint_count_reset(amp);
	t0 = rte_get_timer_cycles();
	ret = rte_rio_mport_scan(hmp, NULL);
	t1 = rte_get_timer_cycles();
	if (ret != 0) {
		printf("rio-bench: error: enumeration of %u endpoints: %s\n", endpoints,
		       strerror(-ret));
		goto out;
	}
	ret = rte_rio_mport_scan(amp, &conf);
	t2 = rte_get_timer_cycles();
	if (ret != 0) {
		printf("rio-bench: error: discovery of %u endpoints: %s\n", endpoints,
		       strerror(-ret));
		goto out;
	}
	printf("RESULT enum endpoints=%u rep=%u host_ms=%.3f host_maint=%" PRIu64
	       " agent_ms=%.3f agent_maint=%" PRIu64 " host_devices=%u agent_devices=%u\n",
	       endpoints, rep, (double)(t1 - t0) * 1e3 / (double)hz,
	       rte_rio_mport_maint_count(hmp), (double)(t2 - t1) * 1e3 / (double)hz,
	       rte_rio_mport_maint_count(amp), rte_rio_dev_count(hmp), rte_rio_dev_count(amp));
	fflush(stdout);
out:
	if (agent_up)
		rte_vdev_uninit(agent);
	if (host_up)
		rte_vdev_uninit(host);
	unlink(topo);
	/* The last mport to leave removes the fabric's shared memory. */
	if (rte_pmd_rio_sim_fabric_exists(fabric) > 0) {
		printf("rio-bench: error: fabric %s left behind\n", fabric);
		rte_pmd_rio_sim_fabric_destroy(fabric);
		ret = -EEXIST;
	}
	return ret;
}

static int
bench_enum(const struct bench_opts *o)
{
	unsigned int i, r;
	int ret;

	for (i = 0; i < o->nb_sizes; i++) {
		for (r = 0; r < o->reps && !bench_quit; r++) {
			ret = bench_enum_one(o, o->sizes[i], r);
			if (ret != 0)
				return ret;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Core-to-core cache line round trip                                 */

/* Main lcore makes it odd, the worker makes it even again. */
static uint64_t corelat_line __rte_cache_aligned;
static bool corelat_stop __rte_cache_aligned;

static int
bench_corelat_echo(void *arg)
{
	uint64_t v;

	RTE_SET_USED(arg);
	/* No rte_pause(): it would be part of every round trip timed. */
	while (!__atomic_load_n(&corelat_stop, __ATOMIC_RELAXED)) {
		v = __atomic_load_n(&corelat_line, __ATOMIC_ACQUIRE);
		if (v & 1)
			__atomic_store_n(&corelat_line, v + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

static int
bench_corelat(const struct bench_opts *o)
{
	static double ns[BENCH_MAX_SAMPLES];
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), i;
	uint64_t hz = rte_get_tsc_hz(), len, t0, now, trips, v;

	if (worker >= RTE_MAX_LCORE) {
		printf("rio-bench: error: corelat needs two lcores (--lcores=0@0,1@1)\n");
		return -EINVAL;
	}
	__atomic_store_n(&corelat_line, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&corelat_stop, false, __ATOMIC_RELAXED);
	if (rte_eal_remote_launch(bench_corelat_echo, NULL, worker) != 0) {
		printf("rio-bench: error: cannot launch lcore %u\n", worker);
		return -EBUSY;
	}
	len = hz / 1000 * o->sample_ms;
	v = 0;
	for (i = 0; i < o->samples && !bench_quit; i++) {
		trips = 0;
		t0 = rte_rdtsc();
		do {
			__atomic_store_n(&corelat_line, v + 1, __ATOMIC_RELEASE);
			while (__atomic_load_n(&corelat_line, __ATOMIC_ACQUIRE) == v + 1)
				;
			v += 2;
			trips++;
			now = rte_rdtsc();
		} while (now - t0 < len);
		ns[i] = (double)(now - t0) * 1e9 / hz / trips;
	}
	__atomic_store_n(&corelat_stop, true, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	if (i < o->samples)
		return -EINTR;
	for (i = 0; i < o->samples; i++)
		printf("corelat sample %u: %.0f ns\n", i, ns[i]);
	qsort(ns, o->samples, sizeof(ns[0]), bench_cmp_double);
	printf("RESULT corelat lcores=%u,%u samples=%u min_ns=%.0f p50_ns=%.0f max_ns=%.0f\n",
	       rte_get_main_lcore(), worker, o->samples, ns[0], ns[o->samples / 2],
	       ns[o->samples - 1]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Memory space: a target window and DMA goodput                      */

static int
bench_window(const struct bench_opts *o)
{
	struct rte_rio_mport *mport = rte_rio_mport_get(0);
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * o->timeout_s;
	void *buf;
	int ret;

	if (mport == NULL) {
		printf("rio-bench: error: window needs an mport (--vdev rio_sim0,...)\n");
		return -ENODEV;
	}
	/* rio_sim maps its windows over pages of the process's own (not DPDK's). */
	buf = aligned_alloc(4096, o->win_size);
	if (buf == NULL)
		return -ENOMEM;
	memset(buf, 0, o->win_size);
	ret = rte_rio_map_inb_window(mport, buf, o->addr, o->win_size, 0);
	if (ret < 0) {
		printf("rio-bench: error: window of 0x%" PRIx64 " bytes at 0x%" PRIx64 ": %s\n",
		       o->win_size, o->addr, strerror(-ret));
		free(buf);
		return ret;
	}
	printf("RESULT window mport=%s destid=0x%x addr=0x%" PRIx64 " size=%" PRIu64 "\n",
	       rte_rio_mport_name(mport), rte_rio_mport_destid(mport), o->addr, o->win_size);
	fflush(stdout);
	while (!bench_quit && rte_get_timer_cycles() < end)
		rte_delay_us_sleep(10000);
	rte_rio_unmap_inb_window(mport, o->addr);
	free(buf);
	return 0;
}

static int
bench_dma_start(int16_t dev, const struct bench_opts *o)
{
	struct rte_dma_conf conf = { .nb_vchans = 1 };
	struct rte_dma_vchan_conf vc = {
		.direction = o->dma_read ? RTE_DMA_DIR_DEV_TO_MEM : RTE_DMA_DIR_MEM_TO_DEV,
		.nb_desc = (uint16_t)o->ring,
	};
	int ret;

	/* dmadev's only device port type; dma_rio takes the target from its devargs. */
	if (o->dma_read)
		vc.src_port.port_type = RTE_DMA_PORT_PCIE;
	else
		vc.dst_port.port_type = RTE_DMA_PORT_PCIE;
	ret = rte_dma_configure(dev, &conf);
	if (ret == 0)
		ret = rte_dma_vchan_setup(dev, 0, &vc);
	if (ret == 0)
		ret = rte_dma_start(dev);
	return ret;
}

/* One size for --run-ms: operations and bytes done, or -errno. */
static int
bench_dma_size(int16_t dev, const struct bench_opts *o, uint8_t *local, uint32_t size)
{
	uint64_t hz = rte_get_timer_hz(), t0, t1, ops = 0, errors = 0, off = 0;
	enum rte_dma_status_code st[BENCH_BURST];
	uint16_t last, n, i, k;
	rte_iova_t iova = rte_mem_virt2iova(local);
	bool err;
	int ret;

	if (size > o->win_size) {
		printf("rio-bench: error: size %u larger than the window\n", size);
		return -EINVAL;
	}
	t0 = rte_get_timer_cycles();
	do {
		n = RTE_MIN((uint16_t)o->batch, rte_dma_burst_capacity(dev, 0));
		for (i = 0; i < n; i++) {
			if (off + size > o->win_size)
				off = 0;
			ret = o->dma_read ?
				rte_dma_copy(dev, 0, o->addr + off, iova, size, 0) :
				rte_dma_copy(dev, 0, iova, o->addr + off, size, 0);
			if (ret < 0)
				break;
			off += size;
		}
		rte_dma_submit(dev, 0);
		do {
			k = rte_dma_completed(dev, 0, BENCH_BURST, &last, &err);
			ops += k;
			if (err) {
				k = rte_dma_completed_status(dev, 0, BENCH_BURST, &last, st);
				for (i = 0; i < k; i++)
					errors += st[i] != RTE_DMA_STATUS_SUCCESSFUL;
				ops += k;
			}
		} while (k > 0);
		t1 = rte_get_timer_cycles();
	} while (t1 - t0 < hz / 1000 * o->stream_ms && !bench_quit);
	printf("RESULT dma dir=%s size=%u ops=%" PRIu64 " errors=%" PRIu64 " bytes=%" PRIu64
	       " ms=%.1f gbytes_s=%.4f mops=%.4f\n", o->dma_read ? "read" : "write", size, ops,
	       errors, (ops - errors) * size, (double)(t1 - t0) * 1e3 / hz,
	       (double)(ops - errors) * size / ((double)(t1 - t0) / hz) / 1e9,
	       (double)ops / ((double)(t1 - t0) / hz) / 1e6);
	fflush(stdout);
	return errors == 0 ? 0 : -EIO;
}

static int
bench_dma(const struct bench_opts *o)
{
	uint32_t max = 0;
	uint8_t *local;
	unsigned int i;
	int16_t dev;
	int ret = 0;

	if (rte_dma_count_avail() == 0) {
		printf("rio-bench: error: dma needs a dmadev (--vdev dma_rio0,destid=...)\n");
		return -ENODEV;
	}
	dev = (int16_t)rte_dma_next_dev(0);
	for (i = 0; i < o->nb_sizes; i++)
		max = RTE_MAX(max, o->sizes[i]);
	local = rte_malloc("rio_bench_dma", max, 4096);
	if (local == NULL)
		return -ENOMEM;
	memset(local, 0xa5, max);
	ret = bench_dma_start(dev, o);
	if (ret < 0)
		printf("rio-bench: error: cannot start dmadev %d: %s\n", dev, strerror(-ret));
	for (i = 0; ret == 0 && i < o->nb_sizes && !bench_quit; i++)
		ret = bench_dma_size(dev, o, local, o->sizes[i]);
	rte_dma_stop(dev);
	rte_free(local);
	return ret;
}

int
main(int argc, char **argv)
{
	struct bench_opts opts;
	int ret, n;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		printf("rio-bench: error: EAL initialization failed\n");
		return 1;
	}
	signal(SIGINT, bench_signal);
	signal(SIGTERM, bench_signal);
	argc -= n;
	argv += n;
	if (bench_parse(argc, argv, &opts) != 0) {
		bench_usage(argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	if (strcmp(opts.mode, "pong") == 0)
		ret = bench_pong(&opts);
	else if (strcmp(opts.mode, "ping") == 0)
		ret = bench_ping(&opts);
	else if (strcmp(opts.mode, "sink") == 0)
		ret = bench_sink(&opts);
	else if (strcmp(opts.mode, "stream") == 0)
		ret = bench_stream(&opts);
	else if (strcmp(opts.mode, "corelat") == 0)
		ret = bench_corelat(&opts);
	else if (strcmp(opts.mode, "window") == 0)
		ret = bench_window(&opts);
	else if (strcmp(opts.mode, "dma") == 0)
		ret = bench_dma(&opts);
	else
		ret = bench_enum(&opts);
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
