/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dpdk-rio-linux-ref: a RapidIO node running Linux's own RapidIO core,
 * switch drivers and rionet (built unmodified from Debian's linux-source
 * package over the shim of shim/) on one rio_sim endpoint, or, with
 * --stack dpdk, our own lib/rio on the same endpoint, so that both views
 * of a fabric come out in one JSON format. With --tsi721, Linux's master
 * port is its own tsi721 driver on our register-level model of the part
 * (rte_pmd_tsi721_model.h) instead of the shim's. See doc/guides/testing.rst.
 *
 * Life of a node: scan (enumerate or discover), open rionet (--rionet),
 * write the --ready report, then poll (as an interrupt handler would).
 * SIGUSR1 runs the action once (--ping, --send, --mem) and writes the --done
 * report; SIGTERM or SIGINT (or --timeout) ends the node: rionet is
 * closed (LEAVE to its peers) and the final report goes to --json.
 *
 * Memory space: --inb-window maps a window at start (Linux's
 * rio_map_inb_region(), or rte_rio_map_inb_window() with --stack dpdk)
 * filled with lr_fill_byte(); every report lists what others wrote into it
 * (the runs of bytes that differ from the fill). --mem reads, writes
 * (lr_write_byte()) and reads back ranges of another node's window (Linux's
 * RapidIO DMA API, or rte_rio_mem_read/write()). devtools/linux-interop.py
 * computes both patterns too.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_bus_vdev.h>
#include <rte_rio.h>
#include <rte_rio_dev.h>

#include "lr_backend.h"
#include "lr_bridge.h"
#include "lr_frame.h"
#include "rte_pmd_tsi721_model.h"

#define LR_MAX_FRAME 4096
#define LR_MAX_IDS 65536
#define LR_MAX_SIZES 8
#define LR_MAX_SEQ (1u << 20)
#define LR_MAX_MEM_OPS 16
#define LR_MAX_MEM_LEN 4096
/* What a report shows of a window: runs of changed bytes, each up to LR_MAX_MEM_LEN. */
#define LR_MAX_WIN_RUNS 64
#define LR_MAX_WIN_SIZE (16u << 20)

/* rio_write_type of Linux's <linux/rio.h> (CONFIG_RAPIDIO_DMA_ENGINE). */
enum { LR_RDW_DEFAULT, LR_RDW_ALL_NWRITE, LR_RDW_ALL_NWRITE_R, LR_RDW_LAST_NWRITE_R };

static const struct {
	const char *name;
	int rdw;		/* Linux */
	enum rte_rio_mem_type type;	/* ours */
} lr_mem_types[] = {
	{ "nwrite_r", LR_RDW_ALL_NWRITE_R, RTE_RIO_MEM_NWRITE_R },
	{ "nwrite", LR_RDW_ALL_NWRITE, RTE_RIO_MEM_NWRITE },
	{ "last_nwrite_r", LR_RDW_LAST_NWRITE_R, RTE_RIO_MEM_NWRITE_R },
	{ "default", LR_RDW_DEFAULT, RTE_RIO_MEM_NWRITE },
};

static volatile sig_atomic_t lr_stop;
static volatile sig_atomic_t lr_go;

static struct {
	const char *stack;
	int hdid;
	int loglevel;
	bool rionet;
	bool ping;
	bool echo;
	const char *send_dst;	/* MAC, "bcast", "mcast" or "peers" */
	unsigned int frames;
	unsigned int sizes[LR_MAX_SIZES];
	unsigned int nb_sizes;
	unsigned int timeout_s;
	unsigned int reply_wait_ms;
	const char *json;
	const char *ready;
	const char *done;
	const char *tsi721;	/* model args: Linux's tsi721 driver is the master port */
	uint64_t win_addr, win_size;	/* --inb-window; size 0: none */
	int mem_destid;		/* --mem; -1: none */
	unsigned int nb_mem;
	struct {
		uint64_t addr;
		unsigned int len;
	} mem[LR_MAX_MEM_OPS];
	unsigned int mem_type;	/* index in lr_mem_types */
} opt = {
	.mem_destid = -1,
	.stack = "linux",
	.hdid = -1,
	.loglevel = 5,
	.frames = 16,
	.sizes = { 60, 1514, 4096 },
	.nb_sizes = 3,
	.timeout_s = 120,
	.reply_wait_ms = 5000,
};

/* Traffic counters, by the 16-bit device ID in a rionet MAC (or the source ID). */
static struct {
	uint64_t req_rx[LR_MAX_IDS];
	uint64_t rep_rx[LR_MAX_IDS];
	uint64_t ping_rx[LR_MAX_IDS];
	uint64_t sent, send_errors, echoed, echo_errors;
	uint64_t bad, dup, other;
	uint64_t maint_ok, maint_err, ping_ok, ping_err;
	uint8_t *seen;		/* LR_MAX_SEQ bits per replying peer slot */
	uint16_t seen_ids[16];
	unsigned int nb_seen;
} ts;

/* The --inb-window buffer, and the results of the --mem operations. */
static struct {
	uint8_t *buf;
	int result;	/* of the map; 1: not yet */
} win = { .result = 1 };

static struct {
	int read0, write, read;
	bool match, done;
	uint8_t before[LR_MAX_MEM_LEN];
} mem_res[LR_MAX_MEM_OPS];

static struct lr_backend be;
static struct rte_rio_mport *mport;
static struct tsi721_model *t7_model;
static bool linux_stack;
static uint8_t my_mac[6];
static uint16_t my_destid;
static uint64_t scan_ms;	/* time of the enumeration or discovery (with its waits) */

/* Replies waiting to be sent (Linux rionet's queue may be stopped). */
static struct {
	uint8_t frame[LR_MAX_FRAME];
	unsigned int len;
} *echo_q;
static unsigned int echo_head, echo_tail;
#define LR_ECHO_Q 256

static void
lr_signal(int sig)
{
	if (sig == SIGUSR1)
		lr_go = 1;
	else
		lr_stop = 1;
}

static unsigned int
lr_build(uint8_t *f, const uint8_t dst[6], enum lr_kind kind, uint32_t seq, unsigned int len)
{
	return lr_frame_build(f, dst, my_mac, kind, seq, len);
}

static int
lr_seen_slot(uint16_t id)
{
	unsigned int i;

	for (i = 0; i < ts.nb_seen; i++)
		if (ts.seen_ids[i] == id)
			return (int)i;
	if (ts.nb_seen == RTE_DIM(ts.seen_ids))
		return -1;
	ts.seen_ids[ts.nb_seen] = id;
	return (int)ts.nb_seen++;
}

/* One frame (or message) received: check it, count it, maybe queue a reply. */
static void
lr_rx(const uint8_t *f, unsigned int len, uint16_t srcid)
{
	struct lr_hdr h;
	uint16_t src;
	int slot, ret;
	uint8_t *bit;

	ret = lr_frame_parse(f, len, &h);
	if (ret == -1) {
		ts.other++;
		return;
	}
	/* Linux rionet passes up whole 4096-byte buffers: the header has the length. */
	if (ret < 0) {
		ts.bad++;
		return;
	}
	/* By the RapidIO source: an echo by MAC swap carries the group address. */
	src = srcid;
	switch (h.kind) {
	case LR_PING:
		ts.ping_rx[src]++;
		break;
	case LR_REQ:
		ts.req_rx[src]++;
		if (opt.echo && echo_head - echo_tail < LR_ECHO_Q) {
			uint8_t *r = echo_q[echo_head % LR_ECHO_Q].frame;

			lr_build(r, f + 6, LR_REP, h.seq, h.len);
			echo_q[echo_head % LR_ECHO_Q].len = h.len;
			echo_head++;
		}
		break;
	case LR_REP:
		slot = lr_seen_slot(src);
		if (slot >= 0 && h.seq < LR_MAX_SEQ) {
			bit = &ts.seen[(size_t)slot * (LR_MAX_SEQ / 8) + h.seq / 8];
			if (*bit & (1u << (h.seq % 8))) {
				ts.dup++;
				break;
			}
			*bit |= (uint8_t)(1u << (h.seq % 8));
		}
		ts.rep_rx[src]++;
		break;
	default:
		ts.bad++;
	}
}

static void
lr_linux_rx(const uint8_t *frame, unsigned int len, uint16_t srcid, void *arg)
{
	(void)arg;
	lr_rx(frame, len, srcid);
}

static int
lr_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int v[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (v[i] > 0xff)
			return -EINVAL;
		mac[i] = (uint8_t)v[i];
	}
	return 0;
}

static void
lr_poll(void)
{
	static struct rte_rio_msg msgs[32];
	static uint8_t bufs[32][LR_MAX_FRAME];
	uint16_t n, i;

	if (linux_stack) {
		lr_node_poll();
		while (echo_tail != echo_head) {
			if (lr_node_rionet_xmit(echo_q[echo_tail % LR_ECHO_Q].frame,
						echo_q[echo_tail % LR_ECHO_Q].len) < 0)
				break;
			ts.echoed++;
			echo_tail++;
		}
		return;
	}
	if (rte_rio_dbell_poll(mport, 32) < 0)
		return;
	for (i = 0; i < RTE_DIM(msgs); i++)
		msgs[i].buf = bufs[i];
	n = rte_rio_recv_messages(mport, 0, msgs, RTE_DIM(msgs));
	for (i = 0; i < n; i++) {
		lr_rx(msgs[i].buf, msgs[i].len, msgs[i].srcid);
		rte_rio_add_inb_buffer(mport, 0, msgs[i].buf);
	}
}

static void
lr_dpdk_dbell(struct rte_rio_mport *m, void *arg, const struct rte_rio_dbell *db)
{
	(void)m;
	(void)arg;
	(void)db;
}

static int
lr_dpdk_open(void)
{
	unsigned int i;
	int ret;
	static uint8_t bufs[64][LR_MAX_FRAME];

	ret = rte_rio_request_inb_mbox(mport, 0, 64);
	if (ret < 0)
		return ret;
	for (i = 0; i < 64; i++)
		rte_rio_add_inb_buffer(mport, 0, bufs[i]);
	ret = rte_rio_request_outb_mbox(mport, 0, 64);
	if (ret < 0)
		return ret;
	/* Doorbells (rionet JOINs) are taken and dropped, as by a node without rionet. */
	return rte_rio_request_inb_dbell(mport, 0, 0xffff, lr_dpdk_dbell, NULL);
}

/* Endpoint device IDs of the view, without our own. */
static unsigned int
lr_endpoints(uint16_t *ids, unsigned int max)
{
	struct rte_rio_dev_info info;
	struct rte_rio_dev *d = NULL;
	unsigned int n = 0;

	if (linux_stack)
		return lr_node_endpoints(ids, max);
	while ((d = rte_rio_dev_next(mport, d)) != NULL) {
		if (rte_rio_dev_info_get(d, &info) < 0 || info.local ||
		    info.type != RTE_RIO_DEV_ENDPOINT)
			continue;
		if (n < max)
			ids[n++] = info.destid;
	}
	return n;
}

/* Maintenance read and one message to every endpoint of the view, by its device ID. */
static void
lr_do_ping(void)
{
	static uint16_t ids[LR_MAX_IDS];
	uint8_t frame[64], mac[6] = { 0x00, 0x01, 0x00, 0x01 };
	unsigned int n, i;
	uint32_t v;
	int ret;

	n = lr_endpoints(ids, RTE_DIM(ids));
	for (i = 0; i < n; i++) {
		if (rte_rio_remote_read_config_32(mport, ids[i], RTE_RIO_HOPCOUNT_DIRECT,
						  RTE_RIO_DEV_ID_CAR, &v) == 0)
			ts.maint_ok++;
		else
			ts.maint_err++;
		mac[4] = (uint8_t)(ids[i] >> 8);
		mac[5] = (uint8_t)ids[i];
		lr_build(frame, mac, LR_PING, i, sizeof(frame));
		ret = lrb_send_message(&be, ids[i], 0, frame, sizeof(frame));
		if (ret == 0)
			ts.ping_ok++;
		else
			ts.ping_err++;
	}
}

/* Requests of every size to one destination over Linux rionet. */
static uint32_t
lr_send_to(const uint8_t dst[6], uint32_t seq)
{
	static uint8_t frame[LR_MAX_FRAME];
	unsigned int s, k;

	for (s = 0; s < opt.nb_sizes; s++) {
		for (k = 0; k < opt.frames && !lr_stop; k++) {
			lr_build(frame, dst, LR_REQ, seq, opt.sizes[s]);
			while (!lr_stop && lr_node_rionet_xmit(frame, opt.sizes[s]) == -EBUSY)
				lr_poll();
			ts.sent++;
			seq++;
			lr_poll();
		}
	}
	return seq;
}

/*
 * --send: a comma-separated list of "peers" (each peer rionet holds active,
 * by unicast), "bcast", "mcast" or MAC addresses; then wait for the replies.
 */
static void
lr_do_send(void)
{
	static uint16_t ids[LR_MAX_IDS];
	char list[256], *tok, *save;
	uint8_t dst[6];
	uint64_t deadline;
	unsigned int n, i;
	uint32_t seq = 0;

	snprintf(list, sizeof(list), "%s", opt.send_dst);
	for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "peers") == 0) {
			n = lr_node_rionet_active(ids, RTE_DIM(ids));
			for (i = 0; i < n; i++) {
				memcpy(dst, (const uint8_t[]){ 0x00, 0x01, 0x00, 0x01,
					(uint8_t)(ids[i] >> 8), (uint8_t)ids[i] }, 6);
				seq = lr_send_to(dst, seq);
			}
			continue;
		}
		if (strcmp(tok, "bcast") == 0)
			memset(dst, 0xff, 6);
		else if (strcmp(tok, "mcast") == 0)
			memcpy(dst, (const uint8_t[]){ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 }, 6);
		else if (lr_parse_mac(tok, dst) < 0) {
			ts.send_errors++;
			continue;
		}
		seq = lr_send_to(dst, seq);
	}
	deadline = lrb_monotonic_ms() + opt.reply_wait_ms;
	while (!lr_stop && lrb_monotonic_ms() < deadline)
		lr_poll();
}

/* Byte @off of a window as its owner fills it. */
static uint8_t
lr_fill_byte(uint64_t off)
{
	return (uint8_t)((off * 7) ^ (off >> 8) ^ 0x5a);
}

/* Byte a --mem write puts at RapidIO address @addr: every address bit counts. */
static uint8_t
lr_write_byte(uint64_t addr)
{
	return (uint8_t)((addr * 13) ^ (addr >> 8) ^ (addr >> 16) ^ (addr >> 24) ^ (addr >> 32) ^
			 0xc3);
}

static void
lr_win_map(void)
{
	uint64_t i;
	int ret;

	if (linux_stack) {
		ret = lr_node_inb_window(opt.win_addr, opt.win_size, &win.buf);
	} else {
		/* rio_sim maps the window over the buffer: normal pages, page-aligned. */
		win.buf = mmap(NULL, opt.win_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (win.buf == MAP_FAILED) {
			win.buf = NULL;
			ret = -errno;
		} else {
			ret = rte_rio_map_inb_window(mport, win.buf, opt.win_addr, opt.win_size, 0);
		}
	}
	win.result = ret;
	if (ret < 0) {
		fprintf(stderr, "linux-ref: inbound window 0x%" PRIx64 "+0x%" PRIx64 ": %s\n",
			opt.win_addr, opt.win_size, strerror(-ret));
		return;
	}
	/* Filled once mapped: what the owner writes there is what a remote NREAD returns. */
	for (i = 0; i < opt.win_size; i++)
		win.buf[i] = lr_fill_byte(i);
}

static void
lr_json_hex(FILE *f, const uint8_t *b, size_t len)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", b[i]);
	fputc('"', f);
}

static void
lr_json_win(FILE *f)
{
	unsigned int runs = 0;
	uint64_t i, start;
	bool more = false;

	if (opt.win_size == 0)
		return;
	fprintf(f, ",\n  \"inb_window\": {\"rio_addr\": %" PRIu64 ", \"size\": %" PRIu64
		", \"result\": %d, \"changed\": [", opt.win_addr, opt.win_size, win.result);
	for (i = 0; win.result == 0 && i < opt.win_size; ) {
		if (win.buf[i] == lr_fill_byte(i)) {
			i++;
			continue;
		}
		if (runs == LR_MAX_WIN_RUNS) {
			more = true;
			break;
		}
		start = i;
		while (i < opt.win_size && i - start < LR_MAX_MEM_LEN &&
		       win.buf[i] != lr_fill_byte(i))
			i++;
		fprintf(f, "%s[%" PRIu64 ", ", runs ? ", " : "", start);
		lr_json_hex(f, win.buf + start, (size_t)(i - start));
		fputc(']', f);
		runs++;
	}
	fprintf(f, "], \"truncated\": %s}", more ? "true" : "false");
}

static int
lr_mem_xfer(uint64_t addr, uint8_t *buf, unsigned int len, bool write)
{
	uint16_t destid = (uint16_t)opt.mem_destid;

	if (linux_stack)
		return lr_node_dma_xfer(destid, addr, buf, len, write,
					lr_mem_types[opt.mem_type].rdw);
	if (write)
		return rte_rio_mem_write(mport, destid, addr, buf, len,
					 lr_mem_types[opt.mem_type].type);
	return rte_rio_mem_read(mport, destid, addr, buf, len);
}

/* --mem: read each range, write the pattern, read it back. */
static void
lr_do_mem(void)
{
	static uint8_t wbuf[LR_MAX_MEM_LEN], rbuf[LR_MAX_MEM_LEN];
	unsigned int k, i;

	for (k = 0; k < opt.nb_mem; k++) {
		uint64_t a = opt.mem[k].addr;
		unsigned int n = opt.mem[k].len;

		mem_res[k].read0 = lr_mem_xfer(a, mem_res[k].before, n, false);
		for (i = 0; i < n; i++)
			wbuf[i] = lr_write_byte(a + i);
		mem_res[k].write = lr_mem_xfer(a, wbuf, n, true);
		memset(rbuf, 0, n);
		mem_res[k].read = lr_mem_xfer(a, rbuf, n, false);
		mem_res[k].match = mem_res[k].read == 0 && memcmp(rbuf, wbuf, n) == 0;
		mem_res[k].done = true;
	}
}

static void
lr_json_mem(FILE *f)
{
	unsigned int k;

	if (opt.mem_destid < 0)
		return;
	fprintf(f, ",\n  \"mem\": {\"destid\": %d, \"type\": \"%s\", \"ops\": [",
		opt.mem_destid, lr_mem_types[opt.mem_type].name);
	for (k = 0; k < opt.nb_mem; k++) {
		fprintf(f, "%s\n    {\"addr\": %" PRIu64 ", \"len\": %u, \"done\": %s",
			k ? "," : "", opt.mem[k].addr, opt.mem[k].len,
			mem_res[k].done ? "true" : "false");
		if (mem_res[k].done) {
			fprintf(f, ", \"read0\": %d, \"write\": %d, \"read\": %d, "
				"\"match\": %s, \"before\": ", mem_res[k].read0, mem_res[k].write,
				mem_res[k].read, mem_res[k].match ? "true" : "false");
			if (mem_res[k].read0 == 0)
				lr_json_hex(f, mem_res[k].before, opt.mem[k].len);
			else
				fputs("null", f);
		}
		fputc('}', f);
	}
	fprintf(f, "]}");
}

static void
lr_json_ids(FILE *f, const char *name, const uint64_t *c)
{
	bool first = true;
	unsigned int i;

	fprintf(f, ",\n  \"%s\": {", name);
	for (i = 0; i < LR_MAX_IDS; i++) {
		if (c[i] == 0)
			continue;
		fprintf(f, "%s\"%u\": %llu", first ? "" : ", ", i, (unsigned long long)c[i]);
		first = false;
	}
	fputc('}', f);
}

static void
lr_json_dpdk(FILE *f)
{
	struct rte_rio_mport_info mi;
	struct rte_rio_dev_info info;
	struct rte_rio_dev *d = NULL;
	bool first = true, rfirst;
	unsigned int id, max;
	int port;

	rte_rio_mport_info_get(mport, &mi);
	fprintf(f, "  \"stack\": \"dpdk\",\n  \"mport\": \"%s\",\n  \"devid_size\": %u,\n"
		"  \"host_destid\": %d,\n  \"destid\": %u,\n  \"scan_result\": %d,\n"
		"  \"maint_count\": %llu,\n  \"devices\": [", mi.name, mi.devid_size,
		(int)mi.host_destid, mi.destid, rte_rio_mport_scanned(mport) ? 0 : -1,
		(unsigned long long)mi.maint_count);
	max = RTE_RIO_MAX_DESTIDS(mi.devid_size);
	while ((d = rte_rio_dev_next(mport, d)) != NULL) {
		if (rte_rio_dev_info_get(d, &info) < 0 || info.local)
			continue;
		fprintf(f, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"vid\": %u, \"did\": %u, "
			"\"destid\": %u, \"hopcount\": %u, \"comptag\": %u", first ? "" : ",",
			info.name, info.type == RTE_RIO_DEV_SWITCH ? "switch" : "endpoint",
			info.vid, info.did, info.destid, info.hopcount, info.comptag);
		first = false;
		if (info.type == RTE_RIO_DEV_SWITCH) {
			fprintf(f, ", \"ports\": %u, \"inport\": %u, \"routes\": [", info.nports,
				info.sw_inport);
			rfirst = true;
			for (id = 0; id < max; id++) {
				port = rte_rio_switch_route_get(d, (uint16_t)id);
				if (port < 0 || port == 0xff)
					continue;
				fprintf(f, "%s[%u, %d]", rfirst ? "" : ", ", id, port);
				rfirst = false;
			}
			fputc(']', f);
		}
		fputc('}', f);
	}
	fprintf(f, "\n  ]");
}

static int
lr_report(const char *path, const char *phase)
{
	static uint16_t ids[LR_MAX_IDS];
	char tmp[4096];
	unsigned int n, i;
	FILE *f;

	if (path == NULL)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = strcmp(path, "-") == 0 ? stdout : fopen(tmp, "w");
	if (f == NULL) {
		fprintf(stderr, "linux-ref: cannot write %s: %s\n", tmp, strerror(errno));
		return -errno;
	}
	fprintf(f, "{\n  \"format_version\": 1,\n  \"phase\": \"%s\",\n", phase);
	if (linux_stack)
		lr_node_json(f);
	else
		lr_json_dpdk(f);
	fprintf(f, ",\n  \"scan_ms\": %llu", (unsigned long long)scan_ms);
	fprintf(f, ",\n  \"mac\": \"%02x:%02x:%02x:%02x:%02x:%02x\"", my_mac[0], my_mac[1],
		my_mac[2], my_mac[3], my_mac[4], my_mac[5]);
	n = linux_stack ? lr_node_rionet_active(ids, RTE_DIM(ids)) : 0;
	fprintf(f, ",\n  \"rionet_open\": %s,\n  \"rionet_active\": [",
		linux_stack && opt.rionet ? "true" : "false");
	for (i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", ids[i]);
	fprintf(f, "]");
	fprintf(f, ",\n  \"traffic\": {\"sent\": %llu, \"send_errors\": %llu, \"echoed\": %llu, "
		"\"bad\": %llu, \"dup\": %llu, \"other\": %llu, \"maint_ok\": %llu, "
		"\"maint_err\": %llu, \"ping_ok\": %llu, \"ping_err\": %llu}",
		(unsigned long long)ts.sent, (unsigned long long)ts.send_errors,
		(unsigned long long)ts.echoed, (unsigned long long)ts.bad,
		(unsigned long long)ts.dup, (unsigned long long)ts.other,
		(unsigned long long)ts.maint_ok, (unsigned long long)ts.maint_err,
		(unsigned long long)ts.ping_ok, (unsigned long long)ts.ping_err);
	lr_json_ids(f, "requests_rx", ts.req_rx);
	lr_json_ids(f, "replies_rx", ts.rep_rx);
	lr_json_ids(f, "pings_rx", ts.ping_rx);
	lr_json_win(f);
	lr_json_mem(f);
	if (linux_stack)
		lr_node_dma_json(f);
	fprintf(f, "\n}\n");
	if (f == stdout) {
		fflush(f);
		return 0;
	}
	fclose(f);
	if (rename(tmp, path) < 0)
		return -errno;
	return 0;
}

static void
lr_usage(const char *prog)
{
	printf("Usage: %s <EAL args> -- [options]\n"
	       "  --stack linux|dpdk   run Linux's RapidIO code (default) or our lib/rio\n"
	       "  --tsi721 ARGS        linux: the master port is Linux's tsi721 driver on a Tsi721\n"
	       "                       model (ARGS: fabric=F[,topology=T][,endpoint=E]; 8-bit\n"
	       "                       fabrics only, as the driver) instead of a rio_sim vdev\n"
	       "  --hdid N             linux: enumerate as host with device ID N (else discover)\n"
	       "  --loglevel N         printk level shown (default 5)\n"
	       "  --rionet             linux: open Linux rionet after the scan\n"
	       "  --echo               answer test requests (rionet, or mailbox 0 with dpdk)\n"
	       "  --ping               on SIGUSR1: maintenance read and a message to every endpoint\n"
	       "  --send DST,..        on SIGUSR1: test requests over rionet to each DST: peers\n"
	       "                       (every active peer), bcast, mcast or a MAC address\n"
	       "  --frames N           requests per size (default 16)\n"
	       "  --sizes A,B,..       frame sizes (default 60,1514,4096)\n"
	       "  --reply-wait MS      how long to wait for replies after sending (default 5000)\n"
	       "  --inb-window A:S     map an inbound window of S bytes at RapidIO address A at\n"
	       "                       start (linux: rio_map_inb_region()), filled with a\n"
	       "                       pattern; the reports list what others wrote into it\n"
	       "  --mem D:A+L,..       on SIGUSR1: read L bytes at RapidIO address A of device\n"
	       "                       ID D, write a pattern there, read it back (linux: Linux's\n"
	       "                       RapidIO DMA API); up to 16 ranges of up to 4096 bytes\n"
	       "  --mem-type T         writes of --mem: nwrite_r (default), nwrite,\n"
	       "                       last_nwrite_r or default (Linux's rio_write_type)\n"
	       "  --ready FILE         report written after the scan\n"
	       "  --done FILE          report written after the SIGUSR1 action\n"
	       "  --json FILE          final report ('-': standard output)\n"
	       "  --timeout S          end by itself after S seconds (default 120)\n", prog);
}

static int
lr_parse_u64(const char *s, char **end, uint64_t *v)
{
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno != 0 || *end == s || *s == '-' ? -EINVAL : 0;
}

/* A:S, S a power of two of at least 4096 (rte_rio_map_inb_window()). */
static int
lr_parse_win(const char *arg)
{
	char *end;

	if (lr_parse_u64(arg, &end, &opt.win_addr) < 0 || *end != ':' ||
	    lr_parse_u64(end + 1, &end, &opt.win_size) < 0 || *end != '\0')
		return -EINVAL;
	if (opt.win_size < RTE_RIO_INB_WIN_MIN || opt.win_size > LR_MAX_WIN_SIZE ||
	    !rte_is_power_of_2(opt.win_size))
		return -EINVAL;
	return 0;
}

/* D:A+L[,A+L...] */
static int
lr_parse_mem(char *arg)
{
	uint64_t id, a, l;
	char *end, *tok, *save;

	if (lr_parse_u64(arg, &end, &id) < 0 || *end != ':' || id > 0xffff)
		return -EINVAL;
	opt.mem_destid = (int)id;
	opt.nb_mem = 0;
	for (tok = strtok_r(end + 1, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (lr_parse_u64(tok, &end, &a) < 0 || *end != '+' ||
		    lr_parse_u64(end + 1, &end, &l) < 0 || *end != '\0' || l == 0 ||
		    l > LR_MAX_MEM_LEN || opt.nb_mem == LR_MAX_MEM_OPS)
			return -EINVAL;
		opt.mem[opt.nb_mem].addr = a;
		opt.mem[opt.nb_mem].len = (unsigned int)l;
		opt.nb_mem++;
	}
	return opt.nb_mem > 0 ? 0 : -EINVAL;
}

static int
lr_parse_args(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "stack", required_argument, NULL, 's' },
		{ "tsi721", required_argument, NULL, 'T' },
		{ "hdid", required_argument, NULL, 'H' },
		{ "loglevel", required_argument, NULL, 'l' },
		{ "rionet", no_argument, NULL, 'r' },
		{ "echo", no_argument, NULL, 'e' },
		{ "ping", no_argument, NULL, 'p' },
		{ "send", required_argument, NULL, 'S' },
		{ "frames", required_argument, NULL, 'f' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "reply-wait", required_argument, NULL, 'w' },
		{ "ready", required_argument, NULL, 'R' },
		{ "done", required_argument, NULL, 'D' },
		{ "json", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "inb-window", required_argument, NULL, 'W' },
		{ "mem", required_argument, NULL, 'M' },
		{ "mem-type", required_argument, NULL, 'Y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end, *tok, *save;
	unsigned int i;
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "linux") != 0 && strcmp(optarg, "dpdk") != 0)
				goto bad;
			opt.stack = optarg;
			break;
		case 'T':
			opt.tsi721 = optarg;
			break;
		case 'r':
			opt.rionet = true;
			break;
		case 'e':
			opt.echo = true;
			break;
		case 'p':
			opt.ping = true;
			break;
		case 'S':
			opt.send_dst = optarg;
			break;
		case 'z':
			opt.nb_sizes = 0;
			for (tok = strtok_r(optarg, ",", &save); tok != NULL;
			     tok = strtok_r(NULL, ",", &save)) {
				v = strtol(tok, &end, 0);
				if (*end != '\0' || v < LR_HDR_LEN || v > LR_MAX_FRAME ||
				    opt.nb_sizes == LR_MAX_SIZES)
					goto bad;
				opt.sizes[opt.nb_sizes++] = (unsigned int)v;
			}
			if (opt.nb_sizes == 0)
				goto bad;
			break;
		case 'W':
			if (lr_parse_win(optarg) < 0)
				goto bad;
			break;
		case 'M':
			if (lr_parse_mem(optarg) < 0)
				goto bad;
			break;
		case 'Y':
			for (i = 0; i < RTE_DIM(lr_mem_types); i++)
				if (strcmp(optarg, lr_mem_types[i].name) == 0)
					break;
			if (i == RTE_DIM(lr_mem_types))
				goto bad;
			opt.mem_type = i;
			break;
		case 'R':
			opt.ready = optarg;
			break;
		case 'D':
			opt.done = optarg;
			break;
		case 'j':
			opt.json = optarg;
			break;
		case 'H': case 'l': case 'f': case 'w': case 't':
			errno = 0;
			v = strtol(optarg, &end, 0);
			if (errno != 0 || *end != '\0' || v < 0 || v > 0xffffff)
				goto bad;
			if (c == 'H')
				opt.hdid = (int)v;
			else if (c == 'l')
				opt.loglevel = (int)v;
			else if (c == 'f')
				opt.frames = (unsigned int)v;
			else if (c == 'w')
				opt.reply_wait_ms = (unsigned int)v;
			else
				opt.timeout_s = (unsigned int)v;
			break;
		case 'h':
			lr_usage(argv[0]);
			exit(0);
		default:
			goto bad;
		}
	}
	if (optind != argc)
		goto bad;
	if (opt.tsi721 != NULL && (strcmp(opt.stack, "linux") != 0 || opt.ping)) {
		fprintf(stderr, "linux-ref: --tsi721 runs Linux's stack, without --ping\n");
		return -EINVAL;
	}
	return 0;
bad:
	fprintf(stderr, "linux-ref: bad option (see --help)\n");
	return -EINVAL;
}

int
main(int argc, char **argv)
{
	struct rte_rio_mport_info mi;
	struct lr_node_opts nopts;
	uint64_t end_ms;
	int ret, rc = 1;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "linux-ref: EAL init failed\n");
		return 1;
	}
	if (lr_parse_args(argc - ret, argv + ret) < 0)
		goto out;
	signal(SIGTERM, lr_signal);
	signal(SIGINT, lr_signal);
	signal(SIGUSR1, lr_signal);
	linux_stack = strcmp(opt.stack, "linux") == 0;
	ts.seen = calloc(RTE_DIM(ts.seen_ids), LR_MAX_SEQ / 8);
	echo_q = calloc(LR_ECHO_Q, sizeof(*echo_q));
	if (ts.seen == NULL || echo_q == NULL)
		goto out;
	if (opt.tsi721 != NULL) {
		t7_model = rte_pmd_tsi721_model_open("linux_tsi721", opt.tsi721);
		if (t7_model == NULL) {
			fprintf(stderr, "linux-ref: --tsi721 %s: %s\n", opt.tsi721,
				rte_strerror(rte_errno));
			goto out;
		}
	} else {
		mport = rte_rio_mport_get(0);
		if (mport == NULL) {
			fprintf(stderr, "linux-ref: no mport: give one rio_sim vdev with scan=0 "
				"(or --tsi721)\n");
			goto out;
		}
		lr_backend_init(&be, mport);
	}
	end_ms = lrb_monotonic_ms() + (uint64_t)opt.timeout_s * 1000u;

	if (linux_stack) {
		nopts.tsi721_model = t7_model;
		nopts.hdid = opt.hdid;
		nopts.loglevel = opt.loglevel;
		nopts.disc_timeout_s = 30;
		scan_ms = lrb_monotonic_ms();
		ret = lr_node_boot(&be, &nopts);
		scan_ms = lrb_monotonic_ms() - scan_ms;
		if (ret < 0) {
			fprintf(stderr, "linux-ref: boot failed: %s\n", strerror(-ret));
			goto out;
		}
		if (lr_node_scan_result() != 0)
			fprintf(stderr, "linux-ref: Linux's scan failed: %d\n", lr_node_scan_result());
		lr_node_set_rx(lr_linux_rx, NULL);
		if (opt.rionet) {
			ret = lr_node_rionet_open();
			if (ret < 0) {
				fprintf(stderr, "linux-ref: rionet open failed: %s\n",
					strerror(-ret));
				goto out;
			}
			lr_node_rionet_mac(my_mac);
		}
	} else {
		struct rte_rio_scan_conf conf = { .disc_timeout_ms = 30000 };

		if (!rte_rio_mport_scanned(mport)) {
			scan_ms = lrb_monotonic_ms();
			ret = rte_rio_mport_scan(mport, &conf);
			scan_ms = lrb_monotonic_ms() - scan_ms;
			if (ret < 0)
				fprintf(stderr, "linux-ref: our scan failed: %s\n", strerror(-ret));
		}
		ret = lr_dpdk_open();
		if (ret < 0) {
			fprintf(stderr, "linux-ref: mailbox 0: %s\n", strerror(-ret));
			goto out;
		}
	}
	if (opt.win_size != 0)
		lr_win_map();
	if (mport != NULL && rte_rio_mport_info_get(mport, &mi) == 0) {
		my_destid = mi.destid;
		if (!linux_stack || !opt.rionet)
			memcpy(my_mac, (const uint8_t[]){ 0x00, 0x01, 0x00, 0x01,
				(uint8_t)(my_destid >> 8), (uint8_t)my_destid }, 6);
	}
	lr_report(opt.ready, "ready");

	while (!lr_stop && lrb_monotonic_ms() < end_ms) {
		lr_poll();
		if (lr_go) {
			lr_go = 0;
			if (opt.ping)
				lr_do_ping();
			if (opt.send_dst != NULL && linux_stack)
				lr_do_send();
			if (opt.mem_destid >= 0)
				lr_do_mem();
			lr_report(opt.done, "done");
		}
		usleep(200);
	}
	if (!lr_stop)
		fprintf(stderr, "linux-ref: --timeout of %u s reached\n", opt.timeout_s);
	rc = lr_report(opt.json, "final") < 0 ? 1 : 0;
	if (linux_stack && opt.rionet)
		lr_node_shutdown();
	if (win.result == 0 && linux_stack) {
		lr_node_inb_window_free();
	} else if (win.result == 0) {
		rte_rio_unmap_inb_window(mport, opt.win_addr);
		munmap(win.buf, opt.win_size);
	}
out:
	/* Release the endpoint, so that the last process removes the fabric. */
	if (mport != NULL && rte_rio_mport_info_get(mport, &mi) == 0)
		rte_vdev_uninit(mi.name);
	rte_pmd_tsi721_model_close(t7_model);
	rte_eal_cleanup();
	return rc;
}
