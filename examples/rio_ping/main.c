/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_ping: doorbell and message ping-pong between two RapidIO endpoints,
 * with round-trip latency statistics (min/avg/p50/p99/max and a log2
 * histogram in microseconds).
 *
 * One process (default): two master ports on a fabric of its own (two
 * rio_sim vdevs, or the first two given with --vdev). The "ping" port sends,
 * the "pong" port answers: on a worker lcore when the EAL gives one (-l 0-1),
 * otherwise from the main loop between polls.
 *
 * Two processes: `--role pong` and `--role ping` on a shared --fabric, one
 * endpoint each. The ping side waits for the pong side with HELLO doorbells,
 * then measures, then says BYE; the pong side answers until BYE.
 *
 * The run is bounded by --count and --timeout; the exit status is 0 only
 * when every ping got its reply.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_pause.h>
#include <rte_lcore.h>
#include <rte_rawdev.h>

#include "rte_pmd_rio_sim.h"
#include "rte_rio.h"

/* Doorbell infos: one range claimed on both sides. */
#define PING_DB_FIRST	0x3ffe
#define PING_DB_BYE	0x3ffe	/* ping -> pong: finished */
#define PING_DB_HELLO	0x3fff	/* ping -> pong -> ping: are you there? */
#define PING_DB_SEQ	0x4000	/* ping: PING_DB_SEQ | (seq & PING_DB_MASK) */
#define PING_DB_MASK	0x3fff
#define PING_DB_LAST	0x7fff

#define PING_MBOX	0
#define PING_RING	64
#define PING_MAGIC	0x52494f50u	/* "RIOP" */
#define PING_BUCKETS	24		/* [0,1) us, [1,2) us, ... [2^22, inf) us */
#define PING_REPLY_MS	1000		/* one ping waits this long for its reply */
#define PING_HELLO_MS	10		/* HELLO period while waiting for the pong side */
#define PING_MAX_COUNT	10000000u

enum ping_role {
	PING_ROLE_BOTH,		/* one process, two ports */
	PING_ROLE_PING,
	PING_ROLE_PONG,
};

struct ping_hdr {
	uint32_t magic;
	uint32_t seq;
	uint64_t tsc;
};

struct ping_port {
	char name[64];		/* rawdev and mport name */
	bool created;		/* by us, with rte_vdev_init() */
	uint16_t dev_id;
	struct rte_rio_mport *mport;
	struct rte_pmd_rio_sim_info info;
	bool dbell, mbox_in, mbox_out;
	void *rx_bufs[PING_RING];
	/* ping side: last doorbell reply seen by the callback */
	uint16_t reply_info;
	uint64_t replies;
	/* pong side: answers given, BYE seen */
	uint64_t db_answered;
	uint64_t msg_answered;
	uint64_t answer_errors;
	bool bye;
};

struct ping_stats {
	const char *kind;
	uint64_t sent;
	uint64_t replies;
	uint64_t bad;		/* replies with a wrong length or content */
	uint64_t *samples;	/* round trips in TSC cycles, one per reply */
};

static struct ping_port ping_ports[2];
static enum ping_role ping_role = PING_ROLE_BOTH;
static unsigned int ping_count = 1000;
static unsigned int ping_timeout_s = 30;
static unsigned int ping_size = 64;
static bool ping_do_dbell = true;
static bool ping_do_msg = true;
static int ping_peer = -1;		/* --peer destid, -1: derived */
static char ping_fabric[RTE_PMD_RIO_SIM_NAME_LEN];
static bool ping_fabric_set;
static uint32_t ping_pong_stop;		/* main -> pong lcore: stop */

/* Written by the main lcore, read by the pong lcore (ping_pong_stopped()). */
static inline void
ping_pong_stop_set(void)
{
	__atomic_store_n(&ping_pong_stop, 1, __ATOMIC_RELEASE);
}

/* Pairs with the release store of ping_pong_stop_set(). */
static inline bool
ping_pong_stopped(void)
{
	return __atomic_load_n(&ping_pong_stop, __ATOMIC_ACQUIRE) != 0;
}

static uint64_t
ping_ms_to_tsc(uint64_t ms)
{
	return rte_get_tsc_hz() / 1000 * ms;
}

static double
ping_tsc_to_us(uint64_t tsc)
{
	return (double)tsc * 1e6 / (double)rte_get_tsc_hz();
}

/* Send a doorbell, retrying while the target's doorbell ring is full. */
static int
ping_send_dbell(struct ping_port *p, uint16_t destid, uint16_t info, uint64_t deadline)
{
	int ret;

	do {
		ret = rte_rio_send_doorbell(p->mport, destid, info);
	} while (ret == -EAGAIN && rte_rdtsc() < deadline);
	return ret;
}

/* Send a message, retrying while the target's mailbox ring is full. */
static int
ping_send_msg(struct ping_port *p, uint16_t destid, const void *buf, size_t len,
	      uint64_t deadline)
{
	int ret;

	do {
		ret = rte_rio_add_outb_message(p->mport, destid, PING_MBOX, 0, buf, len);
	} while (ret == -EAGAIN && rte_rdtsc() < deadline);
	return ret;
}

/* Pong side doorbell handler: answer every ping and HELLO with the same info. */
static void
ping_pong_dbell_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct ping_port *p = arg;

	RTE_SET_USED(mport);
	if (db->info == PING_DB_BYE) {
		p->bye = true;
		return;
	}
	if (ping_send_dbell(p, db->src, db->info, rte_rdtsc() + ping_ms_to_tsc(100)) != 0) {
		p->answer_errors++;
		return;
	}
	if (db->info != PING_DB_HELLO)
		p->db_answered++;
}

/* Ping side doorbell handler: remember the reply. */
static void
ping_ping_dbell_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct ping_port *p = arg;

	RTE_SET_USED(mport);
	p->reply_info = db->info;
	p->replies++;
}

/* One pass of the pong side: answer pending doorbells and messages. */
static void
ping_pong_poll(struct ping_port *p)
{
	uint64_t deadline = rte_rdtsc() + ping_ms_to_tsc(100);
	uint16_t src = 0;
	size_t len = 0;
	void *buf;

	rte_rio_dbell_poll(p->mport, 32);
	while ((buf = rte_rio_get_inb_message(p->mport, PING_MBOX, &len, &src)) != NULL) {
		/* Echo the message as it came. */
		if (ping_send_msg(p, src, buf, len, deadline) == 0)
			p->msg_answered++;
		else
			p->answer_errors++;
		if (rte_rio_add_inb_buffer(p->mport, PING_MBOX, buf) != 0)
			p->answer_errors++;
	}
}

static int
ping_pong_lcore(void *arg)
{
	struct ping_port *p = arg;

	while (!ping_pong_stopped())
		ping_pong_poll(p);
	return 0;
}

/* Find the rio_sim rawdevs given with --vdev, or create our own. */
static int
ping_open_ports(unsigned int n)
{
	struct rte_rawdev_info ri;
	unsigned int found = 0, i;
	char args[160];
	uint16_t id;

	for (id = 0; id < rte_rawdev_count() && found < n; id++) {
		memset(&ri, 0, sizeof(ri));
		if (rte_rawdev_info_get(id, &ri, 0) != 0 || ri.driver_name == NULL ||
		    strcmp(ri.driver_name, RTE_PMD_RIO_SIM_DRIVER_NAME) != 0)
			continue;
		ping_ports[found].dev_id = id;
		snprintf(ping_ports[found].name, sizeof(ping_ports[found].name), "%s",
			 rte_dev_name(ri.device));
		found++;
	}
	if (found < n) {
		/*
		 * Not enough on the command line: create them. The built-in
		 * default topology has static routes, so no scan is needed.
		 * Two processes: the pong side takes ep0, the ping side ep1.
		 */
		for (i = 0; i < n; i++) {
			struct ping_port *p = &ping_ports[i];
			unsigned int ep = n == 2 ? i : (ping_role == PING_ROLE_PONG ? 0 : 1);

			snprintf(p->name, sizeof(p->name), "rio_sim_ping%u", ep);
			snprintf(args, sizeof(args),
				 "fabric=%s,topology=builtin:default,endpoint=ep%u,scan=0",
				 ping_fabric, ep);
			if (rte_vdev_init(p->name, args) != 0) {
				fprintf(stderr, "rio_ping: cannot create %s (%s)\n", p->name,
					args);
				return -1;
			}
			p->created = true;
			p->dev_id = rte_rawdev_get_dev_id(p->name);
			if (p->dev_id >= RTE_RAWDEV_MAX_DEVS)
				return -1;
		}
	}
	for (i = 0; i < n; i++) {
		struct ping_port *p = &ping_ports[i];

		memset(&ri, 0, sizeof(ri));
		ri.dev_private = &p->info;
		if (rte_rawdev_info_get(p->dev_id, &ri, sizeof(p->info)) != 0)
			return -1;
		p->mport = rte_pmd_rio_sim_mport(p->dev_id);
		if (p->mport == NULL)
			return -1;
		printf("rio_ping: %s: fabric %s, endpoint %s, destid %u\n", p->name,
		       p->info.fabric, p->info.endpoint, p->info.destid);
	}
	return 0;
}

static int
ping_claim(struct ping_port *p, bool pong)
{
	unsigned int i;
	int ret;

	ret = rte_rio_request_inb_dbell(p->mport, PING_DB_FIRST, PING_DB_LAST,
					pong ? ping_pong_dbell_cb : ping_ping_dbell_cb, p);
	if (ret != 0)
		goto err;
	p->dbell = true;
	ret = rte_rio_request_inb_mbox(p->mport, PING_MBOX, PING_RING);
	if (ret != 0)
		goto err;
	p->mbox_in = true;
	ret = rte_rio_request_outb_mbox(p->mport, PING_MBOX, PING_RING);
	if (ret != 0)
		goto err;
	p->mbox_out = true;
	for (i = 0; i < PING_RING; i++) {
		p->rx_bufs[i] = malloc(RTE_RIO_MAX_MSG_SIZE);
		if (p->rx_bufs[i] == NULL) {
			ret = -ENOMEM;
			goto err;
		}
	}
	if (rte_rio_add_inb_buffers(p->mport, PING_MBOX, p->rx_bufs, PING_RING) != PING_RING) {
		ret = -ENOSPC;
		goto err;
	}
	return 0;
err:
	fprintf(stderr, "rio_ping: %s: cannot claim doorbells and mailbox %u: %s\n", p->name,
		PING_MBOX, strerror(-ret));
	return ret;
}

static void
ping_release(struct ping_port *p)
{
	unsigned int i;

	if (p->mport != NULL) {
		if (p->mbox_in)
			rte_rio_release_inb_mbox(p->mport, PING_MBOX);
		if (p->mbox_out)
			rte_rio_release_outb_mbox(p->mport, PING_MBOX);
		if (p->dbell)
			rte_rio_release_inb_dbell(p->mport, PING_DB_FIRST, PING_DB_LAST);
	}
	for (i = 0; i < PING_RING; i++)
		free(p->rx_bufs[i]);
	if (p->created)
		rte_vdev_uninit(p->name);
}

/* Wait until the pong side answers a HELLO doorbell. */
static int
ping_hello(struct ping_port *p, uint16_t peer, struct ping_port *inline_pong,
	   uint64_t deadline)
{
	uint64_t next = 0, now;

	p->replies = 0;
	while ((now = rte_rdtsc()) < deadline) {
		if (now >= next) {
			/* The peer may not exist yet: errors only mean "not yet". */
			rte_rio_send_doorbell(p->mport, peer, PING_DB_HELLO);
			next = now + ping_ms_to_tsc(PING_HELLO_MS);
		}
		if (inline_pong != NULL)
			ping_pong_poll(inline_pong);
		rte_rio_dbell_poll(p->mport, 32);
		if (p->replies > 0 && p->reply_info == PING_DB_HELLO)
			return 0;
		if (inline_pong == NULL)
			rte_delay_us_sleep(100);
	}
	fprintf(stderr, "rio_ping: no answer from destid %u (is the pong side running?)\n",
		peer);
	return -ETIMEDOUT;
}

static void
ping_dbells(struct ping_port *p, uint16_t peer, struct ping_port *inline_pong,
	    struct ping_stats *st, uint64_t deadline)
{
	unsigned int seq;

	for (seq = 0; seq < ping_count; seq++) {
		uint16_t info = PING_DB_SEQ | (seq & PING_DB_MASK);
		uint64_t t0, t1, wait_end;
		bool got = false;

		if (rte_rdtsc() >= deadline)
			break;
		st->sent++;
		p->replies = 0;
		t0 = rte_rdtsc_precise();
		if (ping_send_dbell(p, peer, info, deadline) != 0)
			continue;
		wait_end = RTE_MIN(t0 + ping_ms_to_tsc(PING_REPLY_MS), deadline);
		do {
			if (inline_pong != NULL)
				ping_pong_poll(inline_pong);
			rte_rio_dbell_poll(p->mport, 32);
			/* Late replies to earlier pings carry another info. */
			got = p->replies > 0 && p->reply_info == info;
			t1 = rte_rdtsc_precise();
		} while (!got && t1 < wait_end);
		if (got)
			st->samples[st->replies++] = t1 - t0;
	}
}

static void
ping_msgs(struct ping_port *p, uint16_t peer, struct ping_port *inline_pong,
	  struct ping_stats *st, uint64_t deadline)
{
	uint8_t tx[RTE_RIO_MAX_MSG_SIZE];
	struct ping_hdr *h = (struct ping_hdr *)tx;
	unsigned int seq, i;

	for (i = sizeof(*h); i < ping_size; i++)
		tx[i] = (uint8_t)(i * 7);
	for (seq = 0; seq < ping_count; seq++) {
		uint64_t t0, t1 = 0, wait_end;
		uint16_t src = 0;
		size_t len = 0;
		void *buf = NULL;

		if (rte_rdtsc() >= deadline)
			break;
		st->sent++;
		t0 = rte_rdtsc_precise();
		h->magic = PING_MAGIC;
		h->seq = seq;
		h->tsc = t0;
		if (ping_send_msg(p, peer, tx, ping_size, deadline) != 0)
			continue;
		wait_end = RTE_MIN(t0 + ping_ms_to_tsc(PING_REPLY_MS), deadline);
		while (buf == NULL && t1 < wait_end) {
			if (inline_pong != NULL)
				ping_pong_poll(inline_pong);
			buf = rte_rio_get_inb_message(p->mport, PING_MBOX, &len, &src);
			t1 = rte_rdtsc_precise();
			if (buf != NULL && ((const struct ping_hdr *)buf)->seq != seq &&
			    len >= sizeof(*h)) {
				/* A late reply to an earlier ping: skip it. */
				rte_rio_add_inb_buffer(p->mport, PING_MBOX, buf);
				buf = NULL;
			}
		}
		if (buf == NULL)
			continue;
		if (len == ping_size && src == peer && memcmp(buf, tx, ping_size) == 0)
			st->samples[st->replies++] = t1 - t0;
		else
			st->bad++;
		rte_rio_add_inb_buffer(p->mport, PING_MBOX, buf);
	}
}

static int
ping_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted samples. */
static uint64_t
ping_percentile(const uint64_t *s, uint64_t n, unsigned int pct)
{
	uint64_t rank = (n * pct + 99) / 100;

	return s[rank == 0 ? 0 : rank - 1];
}

static void
ping_report(struct ping_stats *st)
{
	uint64_t hist[PING_BUCKETS] = { 0 };
	uint64_t i, sum = 0, hmax = 0;
	unsigned int b, first = PING_BUCKETS, last = 0;
	double min = 0, avg = 0, p50 = 0, p99 = 0, max = 0;

	if (st->replies > 0) {
		qsort(st->samples, st->replies, sizeof(st->samples[0]), ping_cmp_u64);
		for (i = 0; i < st->replies; i++) {
			double us = ping_tsc_to_us(st->samples[i]);

			sum += st->samples[i];
			/* bucket b >= 1 holds [2^(b-1), 2^b) us */
			b = us < 1.0 ? 0 : RTE_MIN((unsigned int)rte_fls_u64((uint64_t)us),
						   PING_BUCKETS - 1u);
			hist[b]++;
		}
		min = ping_tsc_to_us(st->samples[0]);
		max = ping_tsc_to_us(st->samples[st->replies - 1]);
		avg = ping_tsc_to_us(sum / st->replies);
		p50 = ping_tsc_to_us(ping_percentile(st->samples, st->replies, 50));
		p99 = ping_tsc_to_us(ping_percentile(st->samples, st->replies, 99));
	}
	printf("\n%s round trips: %" PRIu64 " sent, %" PRIu64 " replies, %" PRIu64 " lost",
	       st->kind, st->sent, st->replies, st->sent - st->replies);
	if (st->bad > 0)
		printf(", %" PRIu64 " corrupt", st->bad);
	printf("\n  min %.2f  avg %.2f  p50 %.2f  p99 %.2f  max %.2f us\n",
	       min, avg, p50, p99, max);
	for (b = 0; b < PING_BUCKETS; b++) {
		if (hist[b] == 0)
			continue;
		first = RTE_MIN(first, b);
		last = b;
		hmax = RTE_MAX(hmax, hist[b]);
	}
	for (b = first; b <= last && first < PING_BUCKETS; b++) {
		uint64_t lo = b == 0 ? 0 : UINT64_C(1) << (b - 1);
		char bar[41];
		unsigned int w = (unsigned int)(hist[b] * 40 / hmax);

		memset(bar, '#', w);
		bar[w] = '\0';
		if (b == PING_BUCKETS - 1)
			printf("  [%8" PRIu64 ",      inf) us %10" PRIu64 " %s\n", lo, hist[b],
			       bar);
		else
			printf("  [%8" PRIu64 ", %8" PRIu64 ") us %10" PRIu64 " %s\n", lo,
			       UINT64_C(1) << b, hist[b], bar);
	}
	/* One line for scripts. */
	printf("rio_ping: result kind=%s sent=%" PRIu64 " replies=%" PRIu64 " lost=%" PRIu64
	       " corrupt=%" PRIu64 " min_us=%.2f avg_us=%.2f p50_us=%.2f p99_us=%.2f"
	       " max_us=%.2f\n", st->kind, st->sent, st->replies, st->sent - st->replies,
	       st->bad, min, avg, p50, p99, max);
}

/* Ping side of both modes. @return 0 when every ping got its reply. */
static int
ping_run_ping(struct ping_port *p, uint16_t peer, struct ping_port *inline_pong)
{
	uint64_t deadline = rte_rdtsc() + ping_ms_to_tsc(ping_timeout_s * 1000ull);
	struct ping_stats db = { .kind = "doorbell" }, msg = { .kind = "message" };
	int ret = -1;

	db.samples = calloc(ping_count, sizeof(uint64_t));
	msg.samples = calloc(ping_count, sizeof(uint64_t));
	if (db.samples == NULL || msg.samples == NULL) {
		fprintf(stderr, "rio_ping: out of memory for %u samples\n", ping_count);
		goto out;
	}
	if (ping_hello(p, peer, inline_pong, deadline) != 0)
		goto out;
	if (ping_do_dbell) {
		ping_dbells(p, peer, inline_pong, &db, deadline);
		db.sent = ping_count;	/* pings not sent before the timeout are lost */
		ping_report(&db);
	}
	if (ping_do_msg) {
		ping_msgs(p, peer, inline_pong, &msg, deadline);
		msg.sent = ping_count;
		ping_report(&msg);
	}
	ret = (!ping_do_dbell || db.replies == ping_count) &&
	      (!ping_do_msg || msg.replies == ping_count) ? 0 : -1;
	if (rte_rdtsc() >= deadline)
		fprintf(stderr, "rio_ping: timeout (%u s) reached\n", ping_timeout_s);
out:
	/* Tell a pong process that we are done (a pong lcore is stopped by the caller). */
	if (inline_pong == NULL && ping_role == PING_ROLE_PING)
		ping_send_dbell(p, peer, PING_DB_BYE, rte_rdtsc() + ping_ms_to_tsc(1000));
	free(db.samples);
	free(msg.samples);
	return ret;
}

/* Pong process: answer until BYE or the timeout. */
static int
ping_run_pong(struct ping_port *p)
{
	uint64_t deadline = rte_rdtsc() + ping_ms_to_tsc(ping_timeout_s * 1000ull);

	printf("rio_ping: pong: answering on destid %u until the ping side says BYE "
	       "(at most %u s)\n", p->info.destid, ping_timeout_s);
	fflush(stdout);
	while (!p->bye && rte_rdtsc() < deadline) {
		ping_pong_poll(p);
		rte_pause();
	}
	printf("rio_ping: pong answered %" PRIu64 " doorbells and %" PRIu64 " messages, "
	       "%" PRIu64 " errors%s\n", p->db_answered, p->msg_answered, p->answer_errors,
	       p->bye ? "" : ", no BYE before the timeout");
	return p->bye && p->answer_errors == 0 ? 0 : -1;
}

static void
ping_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s <EAL args> -- [options]\n"
		"  --count N       pings of each kind (default 1000)\n"
		"  --size B        message size in bytes, 16..4096 (default 64)\n"
		"  --mode M        dbell, msg or both (default both)\n"
		"  --timeout S     give up after S seconds (default 30)\n"
		"  --role R        ping or pong: one side of a two-process run\n"
		"  --fabric NAME   fabric of the ports we create (default rio_ping_<pid>;\n"
		"                  required with --role)\n"
		"  --peer DESTID   ping role: device ID of the pong side (default: the\n"
		"                  other endpoint of the built-in default topology)\n",
		prog);
}

static int
ping_parse_uint(const char *opt, const char *s, unsigned long min, unsigned long max,
		unsigned long *v)
{
	char *end = NULL;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || *v < min || *v > max || s[0] == '-') {
		fprintf(stderr, "rio_ping: %s: '%s' is not a number in %lu..%lu\n", opt, s, min,
			max);
		return -1;
	}
	return 0;
}

static int
ping_parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 't' },
		{ "role", required_argument, NULL, 'r' },
		{ "fabric", required_argument, NULL, 'f' },
		{ "peer", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c;

	snprintf(ping_fabric, sizeof(ping_fabric), "rio_ping_%d", (int)getpid());
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (ping_parse_uint("--count", optarg, 1, PING_MAX_COUNT, &v) != 0)
				return -1;
			ping_count = v;
			break;
		case 's':
			if (ping_parse_uint("--size", optarg, sizeof(struct ping_hdr),
					    RTE_RIO_MAX_MSG_SIZE, &v) != 0)
				return -1;
			ping_size = v;
			break;
		case 't':
			if (ping_parse_uint("--timeout", optarg, 1, 3600, &v) != 0)
				return -1;
			ping_timeout_s = v;
			break;
		case 'p':
			if (ping_parse_uint("--peer", optarg, 0, 0xfffe, &v) != 0)
				return -1;
			ping_peer = (int)v;
			break;
		case 'm':
			ping_do_dbell = strcmp(optarg, "dbell") == 0 || strcmp(optarg, "both") == 0;
			ping_do_msg = strcmp(optarg, "msg") == 0 || strcmp(optarg, "both") == 0;
			if (!ping_do_dbell && !ping_do_msg) {
				fprintf(stderr, "rio_ping: --mode: dbell, msg or both, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'r':
			if (strcmp(optarg, "ping") == 0) {
				ping_role = PING_ROLE_PING;
			} else if (strcmp(optarg, "pong") == 0) {
				ping_role = PING_ROLE_PONG;
			} else {
				fprintf(stderr, "rio_ping: --role: ping or pong, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'f':
			if (strlen(optarg) == 0 || strlen(optarg) >= sizeof(ping_fabric)) {
				fprintf(stderr, "rio_ping: --fabric: 1..%zu characters\n",
					sizeof(ping_fabric) - 1);
				return -1;
			}
			snprintf(ping_fabric, sizeof(ping_fabric), "%s", optarg);
			ping_fabric_set = true;
			break;
		default:
			ping_usage(argv[0]);
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "rio_ping: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int nports, i, pong_lcore = RTE_MAX_LCORE;
	struct ping_port *inline_pong = NULL;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rio_ping: cannot initialize EAL\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (ping_parse_args(argc, argv) != 0) {
		rte_eal_cleanup();
		return 2;
	}

	ret = -1;
	nports = ping_role == PING_ROLE_BOTH ? 2 : 1;
	if (ping_role != PING_ROLE_BOTH && !ping_fabric_set && rte_rawdev_count() == 0) {
		fprintf(stderr, "rio_ping: --role needs --fabric (or a --vdev rio_sim...)\n");
		goto out;
	}
	if (ping_open_ports(nports) != 0)
		goto out;
	for (i = 0; i < nports; i++)
		if (ping_claim(&ping_ports[i], ping_role == PING_ROLE_PONG || i == 1) != 0)
			goto out;

	if (ping_role == PING_ROLE_PONG) {
		ret = ping_run_pong(&ping_ports[0]);
	} else if (ping_role == PING_ROLE_PING) {
		uint16_t peer = ping_peer >= 0 ? (uint16_t)ping_peer :
				(ping_ports[0].info.destid == 0 ? 1 : 0);

		printf("rio_ping: ping: destid %u -> destid %u, %u pings of each kind\n",
		       ping_ports[0].info.destid, peer, ping_count);
		ret = ping_run_ping(&ping_ports[0], peer, NULL);
	} else {
		pong_lcore = rte_get_next_lcore(-1, 1, 0);
		if (pong_lcore < RTE_MAX_LCORE) {
			if (rte_eal_remote_launch(ping_pong_lcore, &ping_ports[1],
						  pong_lcore) != 0)
				goto out;
		} else {
			inline_pong = &ping_ports[1];
		}
		printf("rio_ping: %s (destid %u) pings %s (destid %u), %u pings of each kind, "
		       "pong on %s\n", ping_ports[0].name, ping_ports[0].info.destid,
		       ping_ports[1].name, ping_ports[1].info.destid, ping_count,
		       inline_pong != NULL ? "the main lcore" : "a worker lcore");
		ret = ping_run_ping(&ping_ports[0], ping_ports[1].info.destid, inline_pong);
		if (inline_pong == NULL) {
			ping_pong_stop_set();
			rte_eal_wait_lcore(pong_lcore);
		}
		if (ping_ports[1].answer_errors > 0) {
			fprintf(stderr, "rio_ping: pong side: %" PRIu64 " answers failed\n",
				ping_ports[1].answer_errors);
			ret = -1;
		}
	}
out:
	for (i = 0; i < nports; i++)
		ping_release(&ping_ports[i]);
	rte_eal_cleanup();
	printf("rio_ping: %s\n", ret == 0 ? "PASSED" : "FAILED");
	return ret == 0 ? 0 : 1;
}
