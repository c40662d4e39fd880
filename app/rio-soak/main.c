/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dpdk-rio-soak: long-running message soak over an emulated fabric.
 *
 * The controller (no EAL) builds a fabric of two switches and three
 * endpoints
 *
 *   ep0 -- sw0.0   sw0.1 == sw1.1   sw1.0 -- ep1
 *   ep2 -- sw0.2
 *
 * (4 of the 6 flows cross both switches), then starts one peer process per
 * endpoint (itself, "peer" mode, with its own EAL and a rio_sim vdev). Every
 * peer sends --messages/6 messages to each of the two others and receives
 * theirs. A message carries its flow (source and destination peer), a
 * per-flow sequence number and a CRC32C of all its bytes; lengths vary with
 * the sequence number.
 *
 * --mode raw (default): device IDs 1, 2, 3, scan=0 (nothing enumerates,
 *   messages only need the static routes); mailbox 0 through
 *   rte_rio_send_messages() / rte_rio_recv_messages().
 * --mode rionet, rionet-zc: ep0 is the host and enumerates (device IDs 0,
 *   1, 2), ep1 and ep2 discover; each message travels as an Ethernet frame
 *   (destination MAC of the peer, EtherType 0x88b5) through the peer's
 *   rionet port, sent one per rte_eth_tx_burst() call so that opackets
 *   tells whether rionet sent it or dropped it (an inactive peer, no
 *   response); rionet-zc receives with rx_zero_copy=1 (frames longer than
 *   256 bytes in place).
 *
 * Accepted: a message is accepted when rte_rio_send_messages() counted it
 * (status DONE), or rionet counted it sent. A refused message (-EAGAIN,
 * -ETIMEDOUT, -EIO; rionet: pushed back or dropped) is not accepted and is
 * offered again later with the same sequence number, so every flow is
 * gap-free by construction: the receiver must see 0, 1, 2, ... exactly
 * once each. lost = accepted - received once; dup, reordered (a hole filled
 * late), corrupt (bad magic, length, flow or CRC) must all be 0. A message
 * offered again after a send without response may arrive twice (the fault
 * may have taken the response, not the request): dup_unanswered, reported.
 *
 * Run-time faults, scheduled by the receive progress of the whole run:
 *   flap     the controller takes a link down (in turn the inter-switch link
 *            sw0.1=sw1.1, ep2's link sw0.2 and ep1's link sw1.0), holds it
 *            --flap-ms, then up.
 *            Sends across it fail with -ETIMEDOUT meanwhile.
 *   stall    the controller stops a peer (in turn ep0, ep1, ep2) with
 *            SIGSTOP SOAK_MICRO_STOPS times for a few milliseconds at
 *            random moments (some land between claiming ring slots and
 *            publishing them), then for --stall-ms, continuing it with
 *            SIGCONT each time. A stopped peer is alive: nothing it sent or
 *            that was sent to it may be lost; its receivers wait for it
 *            (counted by the msg_rx_wait_sender xstat of their mports).
 *   restart  clean (--restarts): the controller sends SIGTERM to a peer (in
 *            turn ep1, ep2, ep0; rionet: ep1, ep2, ep0 is the host), which
 *            stops cleanly: it takes its own link down (new sends to it
 *            fail), asks the other peers to acknowledge (an
 *            acknowledgement is given between two send bursts, so no send
 *            to it is in flight afterwards), drains its ring, and exits. A
 *            new process reclaims the endpoint, resumes its sequence state
 *            from the run's state file, opens its mailboxes and takes its
 *            link up again (rionet: the controller takes it up first, for
 *            the new process to discover the fabric).
 *            by SIGKILL (--kills; clean and killed alternate): a killed
 *            peer loses what its ring held (accepted, never read) and what
 *            it read or sent but had not yet recorded in the state file.
 *            These are counted apart, bounded: at most a ring plus a burst
 *            skipped once per flow into the restarted peer ("lost at
 *            kill"), at most a burst sent again per flow out of it
 *            ("resent", known by the sender incarnation in every message).
 *            Anything beyond is a violation.
 *
 * Memory: each peer samples its VmRSS (ASan build: its heap in use, as the
 * sanitizer's allocator counts it) and the in-use count of its buffer
 * pool at start, middle (each flow in and out half way through what was
 * left at the start) and end of each of its incarnations. Flat means the
 * pool count is unchanged (rionet: from start to end, both taken with the
 * port stopped) and RSS (heap) grows by at most --rss-slack-kb from the
 * middle to the end (default 1024).
 *
 * Usage (defaults: raw, 100 million messages, 20 flaps of 100 ms, 2
 * restarts, 2 kills, 3 stalls of 6 s):
 *   dpdk-rio-soak [--mode raw|rionet|rionet-zc] [--messages N] [--flaps N]
 *                 [--flap-ms MS] [--restarts N] [--kills N] [--stalls N]
 *                 [--stall-ms MS] [--size-min B] [--size-max B] [--burst N]
 *                 [--timeout-s S] [--rss-slack-kb KB] [--rate MSG_PER_S]
 *                 [--seed S] [--keep]
 *                 [--inject drop|dup|corrupt|reorder|leak|unanswered]
 * --rate paces each flow to a sixth of it; --seed replays the random stops
 * (their moments still depend on the machine); --inject makes the run fail
 * on purpose (the harness's self-test, raw mode; unanswered must pass, see
 * enum soak_inject); --keep keeps the run
 * directory (logs, state file, topology), which is kept anyway when the run
 * fails. Prints a summary and a "RESULT soak ..." line; exits 0 when nothing
 * was lost, duplicated, reordered or corrupted and memory stayed flat, 1 on
 * any violation, 2 on a usage error.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rawdev.h>

#include "rio_app_common.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"

#define SOAK_NB_PEERS		3
#define SOAK_NB_FLOWS		(SOAK_NB_PEERS * (SOAK_NB_PEERS - 1))
#define SOAK_MAGIC		0x534f414bu	/* "SOAK": state file and messages */
#define SOAK_STATE_VERSION	4
#define SOAK_MAX_INC		16	/* incarnations recorded per peer */
#define SOAK_MAX_BURST		64
#define SOAK_MAX_HOLES		8
#define SOAK_MBOX		0
#define SOAK_RING		256	/* inbound and outbound mailbox entries */
#define SOAK_POOL		(2 * SOAK_RING)
#define SOAK_ACK_TIMEOUT_S	30
/*
 * Under ASan, RSS also holds the sanitizer's own memory (allocator,
 * quarantine, shadow), which grows by itself in a run that makes no heap
 * allocation at all: about 2 MB from the middle to the end of a smoke run on
 * an idle machine, 6 MB under load (gcc 14's libasan, Debian 13). So there
 * the memory that must stay flat is the heap the program holds, as the
 * sanitizer's allocator counts it; LeakSanitizer checks the rest.
 */
#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif
#ifdef SOAK_ASAN
/* The sanitizer runtime's (gcc's headers do not declare it). */
size_t __sanitizer_get_current_allocated_bytes(void);
#define SOAK_MEM_NAME	"heap"
#define SOAK_MEM_KEY	"heap"
#else
#define SOAK_MEM_NAME	"VmRSS"
#define SOAK_MEM_KEY	"rss"
#endif
#define SOAK_MEM_SLACK_KB	1024	/* default --rss-slack-kb */
#define SOAK_READY_TIMEOUT_S	60
#define SOAK_STALL_S		30	/* no progress for that long: fail */
#define SOAK_PUBLISH_WAIT_MS	20
#define SOAK_VDEV		"rio_sim_soak"
#define SOAK_PORT		"rionet_" SOAK_VDEV
#define SOAK_ETHERTYPE		0x88b5	/* local experimental */
#define SOAK_ETH_MSG_MAX	RTE_ETHER_MTU	/* soak message in a frame of the default MTU */
#define SOAK_RIONET_RX_DESC	64
#define SOAK_RIONET_TX_DESC	512
#define SOAK_MICRO_STOPS	200	/* short stops before each long one */
/* Long enough for a receiver to see a stopped sender's slot (it looks after 1 ms). */
#define SOAK_MICRO_STOP_MIN_US	1500
#define SOAK_MICRO_STOP_MAX_US	5000
#define SOAK_XSTAT_EVERY	1024	/* peer loops between two xstat reads */
#define SOAK_PACE_BUCKET_S	0.02	/* --rate: sending saved up while held back */

/* What the peers exchange messages with. */
enum soak_mode {
	SOAK_MODE_RAW = 0,	/* rte_rio_send_messages() / rte_rio_recv_messages() */
	SOAK_MODE_RIONET,	/* Ethernet frames through rionet ports */
	SOAK_MODE_RIONET_ZC,	/* the same, receiving with rx_zero_copy=1 */
};

static const char *const soak_mode_names[] = {
	[SOAK_MODE_RAW] = "raw",
	[SOAK_MODE_RIONET] = "rionet",
	[SOAK_MODE_RIONET_ZC] = "rionet-zc",
};

/* Where a memory sample is taken in an incarnation. */
enum soak_mem_point { SOAK_MEM_START, SOAK_MEM_MID, SOAK_MEM_END, SOAK_MEM_POINTS };

/*
 * Faults the soak injects into itself (--inject) to prove that its checks
 * catch them: in flow ep0->ep1 at half its messages (receiver side for leak).
 */
enum soak_inject {
	SOAK_INJ_NONE = 0,
	SOAK_INJ_DROP,		/* count one message accepted without sending it */
	SOAK_INJ_DUP,		/* send one message twice */
	SOAK_INJ_CORRUPT,	/* flip a payload byte after the CRC */
	SOAK_INJ_REORDER,	/* swap two consecutive messages */
	SOAK_INJ_LEAK,		/* ep1 keeps one receive buffer in 1000 (at most 200) */
	/*
	 * Not a fault: one message arrives twice after a send without response,
	 * and the next one is refused many times before the receiver sees the
	 * second copy (a slow receiver); must pass as dup_unanswered.
	 */
	SOAK_INJ_UNANSWERED,
};

static const char *const soak_inject_names[] = {
	[SOAK_INJ_NONE] = "none",
	[SOAK_INJ_DROP] = "drop",
	[SOAK_INJ_DUP] = "dup",
	[SOAK_INJ_CORRUPT] = "corrupt",
	[SOAK_INJ_REORDER] = "reorder",
	[SOAK_INJ_LEAK] = "leak",
	[SOAK_INJ_UNANSWERED] = "unanswered",
};

enum soak_peer_state {
	SOAK_ST_NONE = 0,
	SOAK_ST_STARTING,
	SOAK_ST_RUNNING,
	SOAK_ST_STOPPING,
	SOAK_ST_STOPPED,	/* clean stop for a restart */
	SOAK_ST_DONE,		/* every flow in and out complete */
	SOAK_ST_FAILED,
};

/* Messages per flow whose send got no response that a receiver remembers. */
#define SOAK_AMBIG	16

/* Counters of one peer; all uint64_t so that soak_publish() copies words. */
struct soak_ctr {
	uint64_t tx_attempts[SOAK_NB_PEERS];	/* accepted + refused offers */
	uint64_t tx_accepted[SOAK_NB_PEERS];	/* = next sequence number */
	uint64_t tx_eagain[SOAK_NB_PEERS];
	uint64_t tx_etimedout[SOAK_NB_PEERS];
	uint64_t tx_eio[SOAK_NB_PEERS];
	uint64_t tx_other[SOAK_NB_PEERS];
	uint64_t tx_dropped[SOAK_NB_PEERS];	/* rionet: tx_burst took it, not sent */
	uint64_t rx_next[SOAK_NB_PEERS];	/* next expected sequence number */
	uint64_t rx_unique[SOAK_NB_PEERS];	/* sequence numbers received once */
	uint64_t rx_dup[SOAK_NB_PEERS];
	uint64_t rx_reorder[SOAK_NB_PEERS];	/* unique, but after a later one */
	uint64_t rx_gap[SOAK_NB_PEERS];		/* skipped when a later one came */
	uint64_t rx_corrupt[SOAK_NB_PEERS];
	uint64_t rx_src_inc[SOAK_NB_PEERS];	/* newest sender incarnation seen */
	uint64_t rx_lost_kill[SOAK_NB_PEERS];	/* skipped at our restart after a kill */
	uint64_t rx_resent_kill[SOAK_NB_PEERS];	/* again from a sender killed before */
	uint64_t rx_dup_unanswered[SOAK_NB_PEERS];	/* again after a send without response */
	/* The first duplicate: sequence number + 1 (0: none), sender incarnation, rx_next then. */
	uint64_t rx_dup_seq[SOAK_NB_PEERS];
	uint64_t rx_dup_inc[SOAK_NB_PEERS];
	uint64_t rx_dup_next[SOAK_NB_PEERS];
	uint64_t rx_foreign;	/* source device ID of no peer */
	uint64_t rx_drained;	/* received while draining for a stop */
	uint64_t stop_lost;	/* accepted to us but not received at a stop */
	uint64_t rx_wait_sender;	/* the mport's msg_rx_wait_sender, every incarnation */
};

struct soak_mem {
	uint64_t mem_kb;	/* SOAK_MEM_NAME */
	uint64_t pool_in_use;
	uint64_t rx_total;
};

struct soak_peer {
	int32_t pid;
	uint32_t state;		/* enum soak_peer_state */
	uint32_t incarnations;
	uint32_t quiesce_req;	/* bumped by this peer when it stops */
	uint32_t quiesce_ack[SOAK_NB_PEERS];	/* [j]: peer j's quiesce_req seen */
	uint32_t pad;
	uint8_t after_kill[SOAK_MAX_INC];	/* [k]: incarnation k - 1 was killed */
	/*
	 * [d][k]: sequence number + 1 of the last SOAK_AMBIG different messages
	 * to peer d whose send failed without a response (-ETIMEDOUT, or dropped
	 * by rionet), written before they are offered again: no response does not
	 * mean not delivered (the response, not the request, may be what the
	 * fault took), so the first copy may arrive as well.
	 */
	uint64_t ambig[SOAK_NB_PEERS][SOAK_AMBIG];
	uint32_t ambig_n[SOAK_NB_PEERS];
	struct soak_ctr ctr;
	struct soak_mem mem[SOAK_MAX_INC][SOAK_MEM_POINTS];
	char err[160];
};

/* The run's state file, mapped by the controller and every peer. */
struct soak_shared {
	uint32_t magic;
	uint32_t version;
	uint64_t messages;	/* in total */
	uint64_t flow_count[SOAK_NB_PEERS][SOAK_NB_PEERS];	/* [src][dst] */
	uint64_t rate;		/* messages/s per flow, 0: as fast as possible */
	uint32_t inject;	/* enum soak_inject */
	uint32_t mode;		/* enum soak_mode */
	uint32_t size_min;
	uint32_t size_max;
	uint32_t burst;
	uint16_t destid[SOAK_NB_PEERS];
	char fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	struct soak_peer peer[SOAK_NB_PEERS];
};

/* Message header; the payload follows, CRC32C over everything but crc. */
struct soak_hdr {
	uint32_t magic;
	uint8_t src;
	uint8_t dst;
	uint16_t len;
	uint64_t seq;
	uint32_t inc;	/* sender's incarnation */
	uint32_t crc;
} __rte_packed;

static const char *const soak_ep_names[SOAK_NB_PEERS] = { "ep0", "ep1", "ep2" };
/* Links the controller flaps, in turn. */
static const struct {
	const char *dev;
	uint8_t port;
	const char *desc;
} soak_flap_links[] = {
	{ "sw0", 1, "sw0.1=sw1.1" },
	{ "sw0", 2, "sw0.2=ep2.0" },
	{ "sw1", 0, "sw1.0=ep1.0" },
};

/* Peers restarted, in turn: ep1 (behind both switches) first. */
static const unsigned int soak_restart_order[SOAK_NB_PEERS] = { 1, 2, 0 };

static volatile sig_atomic_t soak_stop_req;

static void
soak_signal(int sig)
{
	RTE_SET_USED(sig);
	soak_stop_req = 1;
}

/*
 * Cross-process hand-over through the state file. A peer's counters are
 * written by that peer only; soak_publish() stores them relaxed (others
 * read them for progress), and the acknowledgement stored with release
 * after it makes them visible to the stopping peer's acquire load.
 */
static void
soak_publish(struct soak_ctr *dst, const struct soak_ctr *src)
{
	const uint64_t *s = (const uint64_t *)src;
	uint64_t *d = (uint64_t *)dst;
	size_t i;

	for (i = 0; i < sizeof(*src) / sizeof(uint64_t); i++)
		app_store_rlx(&d[i], s[i]);
}

static void
soak_read_ctr(struct soak_ctr *dst, const struct soak_ctr *src)
{
	const uint64_t *s = (const uint64_t *)src;
	uint64_t *d = (uint64_t *)dst;
	size_t i;

	for (i = 0; i < sizeof(*src) / sizeof(uint64_t); i++)
		d[i] = app_load_rlx(&s[i]);
}

static double
soak_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What must stay flat: VmRSS, or the heap in use under ASan (see SOAK_ASAN). */
static uint64_t
soak_mem_kb(void)
{
#ifdef SOAK_ASAN
	return __sanitizer_get_current_allocated_bytes() / 1024;
#else
	char line[256];
	uint64_t kb = 0;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %" SCNu64, &kb) == 1)
			break;
	fclose(f);
	return kb;
#endif
}

static int
soak_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static struct soak_shared *
soak_map_state(const char *path, bool create)
{
	struct soak_shared *sh;
	int fd;

	fd = open(path, create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
	if (fd < 0)
		return NULL;
	if (create && ftruncate(fd, sizeof(*sh)) != 0) {
		close(fd);
		return NULL;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return sh == MAP_FAILED ? NULL : sh;
}

/* ------------------------------------------------------------------ */
/* Messages                                                           */

static inline uint64_t
soak_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline uint16_t
soak_msg_len(const struct soak_shared *sh, unsigned int src, unsigned int dst, uint64_t seq)
{
	uint32_t span = sh->size_max - sh->size_min + 1;

	return (uint16_t)(sh->size_min +
			  soak_mix(seq ^ ((uint64_t)(src * 8 + dst) << 56)) % span);
}

static inline uint32_t
soak_msg_crc(const uint8_t *buf, uint16_t len)
{
	uint32_t crc;

	RTE_BUILD_BUG_ON(offsetof(struct soak_hdr, crc) + sizeof(uint32_t) !=
			 sizeof(struct soak_hdr));
	crc = rio_app_crc32c(buf, offsetof(struct soak_hdr, crc), 0xffffffff);
	return rio_app_crc32c(buf + sizeof(struct soak_hdr), len - sizeof(struct soak_hdr), crc);
}

static uint16_t
soak_msg_build(const struct soak_shared *sh, uint8_t *buf, unsigned int src, unsigned int dst,
	       uint64_t seq, uint32_t inc)
{
	struct soak_hdr *h = (struct soak_hdr *)buf;
	uint16_t len = soak_msg_len(sh, src, dst, seq);
	uint64_t x = soak_mix(seq + 1) ^ dst, w;
	uint32_t off;

	h->magic = SOAK_MAGIC;
	h->src = (uint8_t)src;
	h->dst = (uint8_t)dst;
	h->len = len;
	h->seq = seq;
	h->inc = inc;
	h->crc = 0;
	for (off = sizeof(*h); off < len; off += sizeof(w)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w = x;
		memcpy(buf + off, &w, RTE_MIN((uint32_t)sizeof(w), len - off));
	}
	h->crc = soak_msg_crc(buf, len);
	return len;
}

/* ------------------------------------------------------------------ */
/* Peer                                                               */

struct soak_hole {
	uint64_t first;
	uint64_t end;	/* exclusive */
};

struct soak_peer_ctx {
	struct soak_shared *sh;
	struct soak_peer *me;
	unsigned int idx;
	unsigned int inc;
	struct rte_rio_mport *mport;
	struct rte_mempool *pool;
	unsigned int posted;
	struct soak_ctr c;
	struct soak_hole holes[SOAK_NB_PEERS][SOAK_MAX_HOLES];
	unsigned int nholes[SOAK_NB_PEERS];
	uint8_t *txbuf[SOAK_NB_PEERS];	/* burst buffers of size_max per flow */
	uint64_t txseq[SOAK_NB_PEERS][SOAK_MAX_BURST];	/* seq + 1 built there, 0: none */
	/* --rate: a token bucket per flow, so that a pause is not made up in a rush. */
	double tokens[SOAK_NB_PEERS];
	double tokens_t[SOAK_NB_PEERS];
	/* --kill: allowances at a kill boundary, per flow. */
	bool first_after_kill[SOAK_NB_PEERS];
	uint32_t resend_allow[SOAK_NB_PEERS];
	bool injected;		/* --inject fault done */
	unsigned int inject_step;
	uint64_t leaked;	/* receive buffers kept by --inject leak */
	/* The middle sample: when every flow in and out is half way. */
	uint64_t rx_mid[SOAK_NB_PEERS];
	uint64_t tx_mid[SOAK_NB_PEERS];
	bool mid_done;
	/* rionet modes */
	bool rionet;
	bool port_found;
	bool port_started;
	uint16_t port_id;
	struct rte_ether_addr mac;
	struct rte_mbuf *txm[SOAK_NB_PEERS];	/* refused with back-pressure: offered again */
	uint8_t *rxbuf;		/* a chained frame, copied out */
	/* msg_rx_wait_sender of the mport */
	int raw_dev;
	uint64_t wait_base;	/* of the earlier incarnations */
	uint64_t loops;
};

static void
soak_peer_fail(struct soak_peer_ctx *p, const char *fmt, ...) __rte_format_printf(2, 3);

static void
soak_peer_fail(struct soak_peer_ctx *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->me->err, sizeof(p->me->err), fmt, ap);
	va_end(ap);
	printf("soak peer %u: error: %s\n", p->idx, p->me->err);
	fflush(stdout);
}

static uint64_t
soak_rx_total(const struct soak_ctr *c)
{
	uint64_t t = 0;
	unsigned int j;

	for (j = 0; j < SOAK_NB_PEERS; j++)
		t += c->rx_unique[j];
	return t;
}

static void
soak_mem_sample(struct soak_peer_ctx *p, enum soak_mem_point pt)
{
	struct soak_mem *m;

	if (p->inc >= SOAK_MAX_INC)
		return;
	m = &p->me->mem[p->inc][pt];
	app_store_rlx(&m->mem_kb, soak_mem_kb());
	app_store_rlx(&m->pool_in_use, rte_mempool_in_use_count(p->pool));
	app_store_rlx(&m->rx_total, soak_rx_total(&p->c));
}

/* Post receive buffers until the mailbox holds SOAK_RING of them. */
static void
soak_refill(struct soak_peer_ctx *p)
{
	void *bufs[SOAK_MAX_BURST];
	unsigned int want;
	uint16_t n;

	while (p->posted < SOAK_RING) {
		want = RTE_MIN(SOAK_RING - p->posted, (unsigned int)SOAK_MAX_BURST);
		if (rte_mempool_get_bulk(p->pool, bufs, want) != 0)
			return;
		n = rte_rio_add_inb_buffers(p->mport, SOAK_MBOX, bufs, want);
		p->posted += n;
		if (n < want) {
			rte_mempool_put_bulk(p->pool, &bufs[n], want - n);
			return;
		}
	}
}

static int
soak_peer_of_destid(const struct soak_shared *sh, uint16_t destid)
{
	unsigned int j;

	for (j = 0; j < SOAK_NB_PEERS; j++)
		if (sh->destid[j] == destid)
			return (int)j;
	return -1;
}

/* A sequence number below rx_next: a late one filling a hole, or a duplicate. */
static bool
soak_hole_fill(struct soak_peer_ctx *p, unsigned int s, uint64_t seq)
{
	struct soak_hole *h = p->holes[s];
	unsigned int i;

	for (i = 0; i < p->nholes[s]; i++) {
		if (seq < h[i].first || seq >= h[i].end)
			continue;
		if (seq == h[i].first) {
			h[i].first++;
		} else if (seq == h[i].end - 1) {
			h[i].end--;
		} else if (p->nholes[s] < SOAK_MAX_HOLES) {
			h[p->nholes[s]].first = seq + 1;
			h[p->nholes[s]].end = h[i].end;
			p->nholes[s]++;
			h[i].end = seq;
		} else {
			/* No room to split: forget the upper part (counted as gap already). */
			h[i].end = seq;
		}
		if (h[i].first >= h[i].end)
			h[i] = h[--p->nholes[s]];
		return true;
	}
	return false;
}

/* Are the bytes of @buf from @len up to @wire_len zero (the wire's padding)? */
static bool
soak_msg_pad_zero(const uint8_t *buf, uint16_t len, uint16_t wire_len)
{
	for (; len < wire_len; len++)
		if (buf[len] != 0)
			return false;
	return true;
}

/* Did peer @src offer message @seq to @dst again after a send without response? */
static bool
soak_unanswered(const struct soak_shared *sh, unsigned int src, unsigned int dst, uint64_t seq)
{
	unsigned int k;

	for (k = 0; k < SOAK_AMBIG; k++)
		if (app_load_acq(&sh->peer[src].ambig[dst][k]) == seq + 1)
			return true;
	return false;
}

/*
 * Record message @seq to @dst as sent without a response, before it goes
 * again. A message refused over and over (rionet drops each offer to a
 * peer it lost, thousands in a row) is recorded once: one entry per offer
 * would push out the message before it, whose second copy a receiver that
 * lags behind has yet to see, and that copy would count as a duplicate.
 */
static void
soak_note_unanswered(struct soak_peer_ctx *p, unsigned int dst, uint64_t seq)
{
	uint32_t n = p->me->ambig_n[dst];

	if (n > 0 && p->me->ambig[dst][(n - 1) % SOAK_AMBIG] == seq + 1)
		return;
	app_store_rel(&p->me->ambig[dst][n % SOAK_AMBIG], seq + 1);
	p->me->ambig_n[dst] = n + 1;
}

/*
 * @framing: bytes of the message before @m->buf (rionet's Ethernet header):
 * the message is padded as a whole, so the padding follows the payload.
 */
static void
soak_rx_one(struct soak_peer_ctx *p, const struct rte_rio_msg *m, uint16_t framing)
{
	const struct soak_hdr *h = m->buf;
	struct soak_ctr *c = &p->c;
	int s = soak_peer_of_destid(p->sh, m->srcid);
	uint64_t seq;
	bool first;

	if (s < 0 || (unsigned int)s == p->idx) {
		c->rx_foreign++;
		return;
	}
	/* Messages arrive as whole double-words: the message, then zero padding. */
	if (m->len < sizeof(*h) || h->magic != SOAK_MAGIC ||
	    m->len + framing != RTE_ALIGN_CEIL(h->len + framing, 8) ||
	    h->src != s || h->dst != p->idx ||
	    h->crc != soak_msg_crc(m->buf, h->len) ||
	    h->len != soak_msg_len(p->sh, h->src, h->dst, h->seq) ||
	    !soak_msg_pad_zero(m->buf, h->len, m->len)) {
		c->rx_corrupt[s]++;
		return;
	}
	seq = h->seq;
	if (h->inc > c->rx_src_inc[s]) {
		/*
		 * A sender restarted after a kill resumes from the counters it
		 * last published: up to one burst it had sent may come again.
		 */
		c->rx_src_inc[s] = h->inc;
		p->resend_allow[s] = h->inc < SOAK_MAX_INC &&
			p->sh->peer[s].after_kill[h->inc] ? p->sh->burst : 0;
	}
	first = p->first_after_kill[s];
	p->first_after_kill[s] = false;
	if (seq == c->rx_next[s]) {
		c->rx_next[s]++;
		c->rx_unique[s]++;
	} else if (first && seq > c->rx_next[s] &&
		   seq - c->rx_next[s] <= SOAK_RING + p->sh->burst) {
		/*
		 * We were killed: what our ring held (accepted, never read), or
		 * what we took but had not published, is gone with it.
		 */
		c->rx_lost_kill[s] += seq - c->rx_next[s];
		c->rx_next[s] = seq + 1;
		c->rx_unique[s]++;
	} else if (seq > c->rx_next[s]) {
		c->rx_gap[s] += seq - c->rx_next[s];
		if (p->nholes[s] < SOAK_MAX_HOLES) {
			p->holes[s][p->nholes[s]].first = c->rx_next[s];
			p->holes[s][p->nholes[s]].end = seq;
			p->nholes[s]++;
		}
		c->rx_next[s] = seq + 1;
		c->rx_unique[s]++;
	} else if (soak_hole_fill(p, (unsigned int)s, seq)) {
		c->rx_reorder[s]++;
		c->rx_unique[s]++;
	} else if (p->resend_allow[s] > 0 && h->inc == c->rx_src_inc[s]) {
		p->resend_allow[s]--;
		c->rx_resent_kill[s]++;
	} else if (soak_unanswered(p->sh, (unsigned int)s, p->idx, seq)) {
		c->rx_dup_unanswered[s]++;
	} else {
		if (c->rx_dup[s]++ == 0) {
			c->rx_dup_seq[s] = seq + 1;
			c->rx_dup_inc[s] = h->inc;
			c->rx_dup_next[s] = c->rx_next[s];
		}
	}
}

/* rionet: MAC address of the endpoint with device ID @destid. */
static void
soak_mac(uint16_t destid, struct rte_ether_addr *mac)
{
	static const uint8_t prefix[4] = { 0x00, 0x01, 0x00, 0x01 };

	memcpy(mac->addr_bytes, prefix, sizeof(prefix));
	mac->addr_bytes[4] = (uint8_t)(destid >> 8);
	mac->addr_bytes[5] = (uint8_t)destid;
}

/* rionet: take the frames received, check each as a message. */
static unsigned int
soak_rx_rionet(struct soak_peer_ctx *p)
{
	struct rte_mbuf *pkts[SOAK_MAX_BURST];
	const struct rte_ether_hdr *eh;
	struct rte_ether_addr src;
	struct rte_rio_msg m;
	uint16_t n, i;

	n = rte_eth_rx_burst(p->port_id, 0, pkts, (uint16_t)p->sh->burst);
	for (i = 0; i < n; i++) {
		eh = rte_pktmbuf_read(pkts[i], 0, pkts[i]->pkt_len, p->rxbuf);
		/* rionet never delivers a frame shorter than its header. */
		if (eh == NULL || pkts[i]->pkt_len < RTE_ETHER_HDR_LEN ||
		    !rte_is_same_ether_addr(&eh->dst_addr, &p->mac) ||
		    eh->ether_type != rte_cpu_to_be_16(SOAK_ETHERTYPE)) {
			p->c.rx_foreign++;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		memset(&m, 0, sizeof(m));
		/* The source MAC names the sender: its device ID in the last two bytes. */
		m.srcid = (uint16_t)(eh->src_addr.addr_bytes[4] << 8 | eh->src_addr.addr_bytes[5]);
		soak_mac(m.srcid, &src);
		if (!rte_is_same_ether_addr(&eh->src_addr, &src)) {
			p->c.rx_foreign++;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		m.buf = (void *)(uintptr_t)(eh + 1);
		m.len = (uint16_t)(pkts[i]->pkt_len - RTE_ETHER_HDR_LEN);
		soak_rx_one(p, &m, RTE_ETHER_HDR_LEN);
		rte_pktmbuf_free(pkts[i]);
	}
	return n;
}

/* @return number of messages received. */
static unsigned int
soak_rx(struct soak_peer_ctx *p)
{
	struct rte_rio_msg msgs[SOAK_MAX_BURST];
	void *bufs[SOAK_MAX_BURST];
	uint16_t n, i, keep = 0;

	if (p->rionet)
		return soak_rx_rionet(p);
	n = rte_rio_recv_messages(p->mport, SOAK_MBOX, msgs, p->sh->burst);
	for (i = 0; i < n; i++) {
		soak_rx_one(p, &msgs[i], 0);
		bufs[i] = msgs[i].buf;
	}
	if (unlikely(p->sh->inject == SOAK_INJ_LEAK && p->idx == 1 && n > 0 &&
		     p->leaked < 200 && soak_rx_total(&p->c) / 1000 > p->leaked)) {
		keep = 1;	/* never returned to the pool */
		p->leaked++;
	}
	if (n > 0) {
		rte_mempool_put_bulk(p->pool, bufs + keep, n - keep);
		p->posted -= n;
	}
	soak_refill(p);
	return n;
}

/*
 * rionet: up to @n frames to peer d, one per rte_eth_tx_burst() call, so
 * that each one is known sent (opackets) or dropped (oerrors: an inactive
 * peer, no response). A frame pushed back (full ring) is offered again
 * later. @return number accepted.
 */
static unsigned int
soak_tx_flow_rionet(struct soak_peer_ctx *p, unsigned int d, unsigned int n)
{
	const struct soak_shared *sh = p->sh;
	struct soak_ctr *c = &p->c;
	struct rte_ether_hdr *eh;
	struct rte_eth_stats st;
	struct rte_mbuf *m;
	unsigned int k, acc = 0;
	uint64_t seq, sent0;
	uint16_t len;

	for (k = 0; k < n; k++) {
		seq = c->tx_accepted[d];
		m = p->txm[d];
		if (m == NULL) {
			m = rte_pktmbuf_alloc(p->pool);
			if (m == NULL)
				break;
			len = soak_msg_len(sh, p->idx, d, seq);
			eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, RTE_ETHER_HDR_LEN + len);
			soak_mac(sh->destid[d], &eh->dst_addr);
			rte_ether_addr_copy(&p->mac, &eh->src_addr);
			eh->ether_type = rte_cpu_to_be_16(SOAK_ETHERTYPE);
			soak_msg_build(sh, (uint8_t *)(eh + 1), p->idx, d, seq, p->inc);
		}
		p->txm[d] = NULL;
		rte_eth_stats_get(p->port_id, &st);
		sent0 = st.opackets;
		c->tx_attempts[d]++;
		if (rte_eth_tx_burst(p->port_id, 0, &m, 1) == 0) {
			p->txm[d] = m;
			c->tx_eagain[d]++;
			break;
		}
		rte_eth_stats_get(p->port_id, &st);
		if (st.opackets == sent0) {
			/* Dropped and counted by rionet: the peer cannot be reached now. */
			c->tx_dropped[d]++;
			soak_note_unanswered(p, d, seq);
			break;
		}
		c->tx_accepted[d]++;
		acc++;
	}
	return acc;
}

/* One burst of up to max messages to peer d. @return number accepted. */
static unsigned int
soak_tx_flow_plain(struct soak_peer_ctx *p, unsigned int d, unsigned int max)
{
	struct rte_rio_msg msgs[SOAK_MAX_BURST];
	struct soak_ctr *c = &p->c;
	const struct soak_shared *sh = p->sh;
	uint64_t seq, todo = sh->flow_count[p->idx][d] - c->tx_accepted[d], allowed;
	unsigned int n, k, slot;
	uint16_t sent;

	if (sh->rate != 0) {
		/* Pacing: rate messages/s per flow, SOAK_PACE_BUCKET_S of them saved up at most. */
		double now = soak_now();

		p->tokens[d] = RTE_MIN(p->tokens[d] + (now - p->tokens_t[d]) * (double)sh->rate,
				       (double)sh->rate * SOAK_PACE_BUCKET_S + sh->burst);
		p->tokens_t[d] = now;
		allowed = (uint64_t)p->tokens[d];
		todo = RTE_MIN(todo, allowed);
	}
	n = (unsigned int)RTE_MIN(todo, (uint64_t)RTE_MIN(sh->burst, max));
	if (n == 0)
		return 0;
	if (p->rionet) {
		sent = (uint16_t)soak_tx_flow_rionet(p, d, n);
		goto out;
	}
	for (k = 0; k < n; k++) {
		seq = c->tx_accepted[d] + k;
		slot = (unsigned int)(seq % sh->burst);
		msgs[k].buf = p->txbuf[d] + (size_t)slot * sh->size_max;
		if (p->txseq[d][slot] != seq + 1) {
			soak_msg_build(sh, msgs[k].buf, p->idx, d, seq, p->inc);
			p->txseq[d][slot] = seq + 1;
		}
		msgs[k].len = soak_msg_len(sh, p->idx, d, seq);
		msgs[k].destid = sh->destid[d];
		msgs[k].letter = 0;
	}
	sent = rte_rio_send_messages(p->mport, SOAK_MBOX, msgs, (uint16_t)n);
	c->tx_accepted[d] += sent;
	c->tx_attempts[d] += sent;
	if (sent < n) {
		c->tx_attempts[d]++;
		switch (msgs[sent].status) {
		case -EAGAIN:
			c->tx_eagain[d]++;
			break;
		case -ETIMEDOUT:
			c->tx_etimedout[d]++;
			soak_note_unanswered(p, d, c->tx_accepted[d]);
			break;
		case -EIO:
			c->tx_eio[d]++;
			break;
		default:
			c->tx_other[d]++;
			break;
		}
	}
out:
	if (sh->rate != 0)
		p->tokens[d] -= sent;
	return sent;
}

/*
 * Flow ep0->ep1 with --inject (drop, dup, corrupt, reorder, unanswered):
 * sends normally up to sequence number S (half the flow), then does the
 * fault once.
 * @return messages accepted.
 */
static unsigned int
soak_tx_inject(struct soak_peer_ctx *p, unsigned int d)
{
	const struct soak_shared *sh = p->sh;
	uint64_t s = sh->flow_count[p->idx][d] / 2, acc = p->c.tx_accepted[d];
	struct rte_rio_msg msgs[2];
	uint8_t *buf;
	unsigned int k, sent = 0;

	if (acc < s)
		return soak_tx_flow_plain(p, d, (unsigned int)RTE_MIN(s - acc,
								   (uint64_t)SOAK_MAX_BURST));
	if (sh->inject == SOAK_INJ_DUP && acc == s)
		return soak_tx_flow_plain(p, d, 1);
	if (acc > s + 1 || s + 2 > sh->flow_count[p->idx][d]) {
		p->injected = true;	/* flow too short: nothing injected */
		return 0;
	}
	buf = calloc(2, sh->size_max);
	if (buf == NULL)
		return 0;
	for (k = 0; k < 2; k++) {
		msgs[k].buf = buf + (size_t)k * sh->size_max;
		msgs[k].len = soak_msg_build(sh, msgs[k].buf, p->idx, d, s + k, p->inc);
		msgs[k].destid = sh->destid[d];
		msgs[k].letter = 0;
	}
	switch (sh->inject) {
	case SOAK_INJ_DROP:
		p->c.tx_accepted[d]++;	/* counted as accepted, never sent */
		p->injected = true;
		break;
	case SOAK_INJ_DUP:
		/* S was accepted already: send it once more, uncounted. */
		p->injected = rte_rio_send_messages(p->mport, SOAK_MBOX, msgs, 1) == 1;
		break;
	case SOAK_INJ_CORRUPT:
		buf[msgs[0].len - 1] ^= 0x5a;
		sent = rte_rio_send_messages(p->mport, SOAK_MBOX, msgs, 1);
		p->injected = sent == 1;
		break;
	case SOAK_INJ_UNANSWERED:
		/*
		 * S goes, uncounted, as if its response had been lost; S+1
		 * is then refused (unsent) more often than the receiver
		 * remembers messages sent without response. S goes again
		 * (counted) next: the receiver sees its second copy after
		 * all of that, as a receiver that lags behind does.
		 */
		if (rte_rio_send_messages(p->mport, SOAK_MBOX, msgs, 1) != 1)
			break;
		soak_note_unanswered(p, d, s);
		for (k = 0; k < 2 * SOAK_AMBIG; k++)
			soak_note_unanswered(p, d, s + 1);
		p->injected = true;
		break;
	case SOAK_INJ_REORDER:
		/* S+1 alone, then S alone (each retried until accepted). */
		if (rte_rio_send_messages(p->mport, SOAK_MBOX,
					  &msgs[p->inject_step == 0 ? 1 : 0], 1) != 1)
			break;
		if (p->inject_step++ == 0)
			break;
		sent = 2;
		p->injected = true;
		break;
	default:
		p->injected = true;
		break;
	}
	p->c.tx_accepted[d] += sent;
	p->c.tx_attempts[d] += sent;
	free(buf);
	return sent;
}

static unsigned int
soak_tx_flow(struct soak_peer_ctx *p, unsigned int d)
{
	if (unlikely(p->sh->inject != SOAK_INJ_NONE && p->sh->inject != SOAK_INJ_LEAK &&
		     p->idx == 0 && d == 1 && !p->injected))
		return soak_tx_inject(p, d);
	return soak_tx_flow_plain(p, d, SOAK_MAX_BURST);
}

/* Acknowledge the other peers' stop requests: no send of ours is in flight here. */
static void
soak_ack(struct soak_peer_ctx *p)
{
	unsigned int j;
	uint32_t r;

	for (j = 0; j < SOAK_NB_PEERS; j++) {
		if (j == p->idx)
			continue;
		r = app_load_acq(&p->sh->peer[j].quiesce_req);
		if (p->me->quiesce_ack[j] != r)
			app_store_rel(&p->me->quiesce_ack[j], r);
	}
}

static bool
soak_complete(const struct soak_peer_ctx *p)
{
	unsigned int j;

	for (j = 0; j < SOAK_NB_PEERS; j++) {
		if (j == p->idx)
			continue;
		/* rx_next: the last one arrived (a hole before it is lost, not awaited). */
		if (p->c.tx_accepted[j] < p->sh->flow_count[p->idx][j] ||
		    p->c.rx_next[j] < p->sh->flow_count[j][p->idx])
			return false;
	}
	return true;
}

/*
 * Clean stop for a restart: nothing accepted for us may stay unread.
 * @return 0 or -1.
 */
static int
soak_stop(struct soak_peer_ctx *p)
{
	const struct soak_peer *o;
	uint32_t req, st;
	unsigned int j, empty = 0, acked;
	double deadline = soak_now() + SOAK_ACK_TIMEOUT_S;
	uint64_t before = soak_rx_total(&p->c);
	int ret;

	app_store_rel(&p->me->state, SOAK_ST_STOPPING);
	/* New sends to us now fail (-ETIMEDOUT) on a fresh route walk. */
	ret = rte_pmd_rio_sim_fabric_link_set(p->sh->fabric, soak_ep_names[p->idx], 0, false);
	if (ret != 0) {
		soak_peer_fail(p, "cannot take own link down: %s", strerror(-ret));
		return -1;
	}
	req = p->me->quiesce_req + 1;
	app_store_rel(&p->me->quiesce_req, req);
	/* Keep receiving while the others acknowledge, or they may sit in RETRY. */
	for (;;) {
		soak_rx(p);
		soak_ack(p);
		acked = 0;
		for (j = 0; j < SOAK_NB_PEERS; j++) {
			o = &p->sh->peer[j];
			st = app_load_acq(&o->state);
			if (j == p->idx || st == SOAK_ST_DONE || st == SOAK_ST_FAILED ||
			    st == SOAK_ST_NONE || app_load_acq(&o->quiesce_ack[p->idx]) == req)
				acked++;
		}
		if (acked == SOAK_NB_PEERS)
			break;
		if (soak_now() > deadline) {
			soak_peer_fail(p, "stop: no acknowledgement from the other peers in %d s",
				       SOAK_ACK_TIMEOUT_S);
			return -1;
		}
		sched_yield();
	}
	/* Nothing can be published into our ring any more: drain it. */
	while (empty < 3) {
		if (soak_rx(p) == 0)
			empty++;
		else
			empty = 0;
	}
	p->c.rx_drained += soak_rx_total(&p->c) - before;
	/* Everything the others counted as accepted to us must be here. */
	for (j = 0; j < SOAK_NB_PEERS; j++) {
		uint64_t acc;

		if (j == p->idx)
			continue;
		acc = app_load_rlx(&p->sh->peer[j].ctr.tx_accepted[p->idx]);
		if (acc > p->c.rx_unique[j])
			p->c.stop_lost += acc - p->c.rx_unique[j];
	}
	return 0;
}

/* The msg_rx_wait_sender xstat of our mport, added to the earlier incarnations'. */
static void
soak_read_waits(struct soak_peer_ctx *p)
{
	unsigned int id;
	uint64_t v;

	if (p->raw_dev < 0)
		return;
	v = rte_rawdev_xstats_by_name_get((uint16_t)p->raw_dev, "msg_rx_wait_sender", &id);
	if (id != (unsigned int)-1)
		p->c.rx_wait_sender = p->wait_base + v;
}

/*
 * rionet: configure and start the port of our mport (one queue pair; its
 * receive mode, copy or zero-copy, came with the EAL devargs).
 */
static int
soak_rionet_setup(struct soak_peer_ctx *p)
{
	struct rte_eth_conf conf;
	int ret, socket;

	if (rte_eth_dev_get_port_by_name(SOAK_PORT, &p->port_id) != 0) {
		soak_peer_fail(p, "no rionet port %s", SOAK_PORT);
		return -1;
	}
	p->port_found = true;
	memset(&conf, 0, sizeof(conf));
	socket = rte_eth_dev_socket_id(p->port_id);
	ret = rte_eth_dev_configure(p->port_id, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(p->port_id, 0, SOAK_RIONET_RX_DESC, socket, NULL,
					     p->pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(p->port_id, 0, SOAK_RIONET_TX_DESC, socket, NULL);
	if (ret == 0)
		ret = rte_eth_macaddr_get(p->port_id, &p->mac);
	if (ret != 0) {
		soak_peer_fail(p, "cannot set up port %s: %s", SOAK_PORT, strerror(-ret));
		return -1;
	}
	/* Before the start: the pool holds what the port posts, once started. */
	soak_mem_sample(p, SOAK_MEM_START);
	ret = rte_eth_dev_start(p->port_id);
	if (ret != 0) {
		soak_peer_fail(p, "cannot start port %s: %s", SOAK_PORT, strerror(-ret));
		return -1;
	}
	p->port_started = true;
	return 0;
}

/*
 * rionet: stop the port (LEAVE to the peers; its posted and stashed mbufs
 * go back to the pool) and free a frame kept for a retry.
 */
static void
soak_rionet_stop(struct soak_peer_ctx *p)
{
	unsigned int j;

	for (j = 0; j < SOAK_NB_PEERS; j++) {
		rte_pktmbuf_free(p->txm[j]);
		p->txm[j] = NULL;
	}
	if (p->port_started)
		rte_eth_dev_stop(p->port_id);
	p->port_started = false;
}

static int
soak_peer_setup(struct soak_peer_ctx *p)
{
	char name[64];
	unsigned int j;
	int ret;

	p->mport = rte_rio_mport_find(SOAK_VDEV);
	if (p->mport == NULL) {
		soak_peer_fail(p, "no mport %s (vdev missing?)", SOAK_VDEV);
		return -1;
	}
	p->raw_dev = rte_rawdev_get_dev_id(SOAK_VDEV);
	if (p->raw_dev >= 0) {
		unsigned int id;

		rte_rawdev_xstats_by_name_get((uint16_t)p->raw_dev, "msg_rx_wait_sender", &id);
		if (id == (unsigned int)-1)
			p->raw_dev = -1;
	}
	if (p->raw_dev < 0) {
		soak_peer_fail(p, "no rawdev %s with the msg_rx_wait_sender xstat", SOAK_VDEV);
		return -1;
	}
	snprintf(name, sizeof(name), "soak_pool_%u", p->idx);
	if (p->rionet) {
		/* Enumeration gives the IDs the topology has (ep0 host 0, ep1 1, ep2 2). */
		ret = rte_rio_mport_destid(p->mport);
		if (ret != p->sh->destid[p->idx]) {
			soak_peer_fail(p, "own device ID %d after the scan, not %u", ret,
				       p->sh->destid[p->idx]);
			return -1;
		}
		p->pool = rte_pktmbuf_pool_create(name, SOAK_POOL, 0, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
		p->rxbuf = malloc(RTE_ETHER_MAX_JUMBO_FRAME_LEN);
	} else {
		p->pool = rte_mempool_create(name, SOAK_POOL, RTE_RIO_MAX_MSG_SIZE, 0, 0, NULL,
					     NULL, NULL, NULL, rte_socket_id(), 0);
	}
	if (p->pool == NULL) {
		soak_peer_fail(p, "cannot create the buffer pool: %s", rte_strerror(rte_errno));
		return -1;
	}
	if (p->rionet) {
		if (p->rxbuf == NULL) {
			soak_peer_fail(p, "out of memory");
			return -1;
		}
		if (soak_rionet_setup(p) != 0)
			return -1;
		/* Up again after a restart (the controller did it already for the scan). */
		ret = rte_pmd_rio_sim_fabric_link_set(p->sh->fabric, soak_ep_names[p->idx], 0,
						      true);
		if (ret != 0) {
			soak_peer_fail(p, "cannot take own link up: %s", strerror(-ret));
			return -1;
		}
		return 0;
	}
	for (j = 0; j < SOAK_NB_PEERS; j++) {
		p->txbuf[j] = calloc(p->sh->burst, p->sh->size_max);
		if (p->txbuf[j] == NULL) {
			soak_peer_fail(p, "out of memory");
			return -1;
		}
	}
	ret = rte_rio_request_inb_mbox(p->mport, SOAK_MBOX, SOAK_RING);
	if (ret == 0)
		ret = rte_rio_request_outb_mbox(p->mport, SOAK_MBOX, SOAK_RING);
	if (ret != 0) {
		soak_peer_fail(p, "cannot open mailbox %d: %s", SOAK_MBOX, strerror(-ret));
		return -1;
	}
	soak_refill(p);
	if (p->posted != SOAK_RING) {
		soak_peer_fail(p, "posted %u receive buffers, not %d", p->posted, SOAK_RING);
		return -1;
	}
	/* Up (again, after a restart): others' sends to us succeed from here. */
	ret = rte_pmd_rio_sim_fabric_link_set(p->sh->fabric, soak_ep_names[p->idx], 0, true);
	if (ret != 0) {
		soak_peer_fail(p, "cannot take own link up: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

static void
soak_peer_teardown(struct soak_peer_ctx *p)
{
	unsigned int j;

	if (p->rionet) {
		soak_rionet_stop(p);
		if (p->port_found)
			rte_eth_dev_close(p->port_id);
		rte_mempool_free(p->pool);
		free(p->rxbuf);
		return;
	}
	if (p->mport != NULL) {
		rte_rio_release_outb_mbox(p->mport, SOAK_MBOX);
		rte_rio_release_inb_mbox(p->mport, SOAK_MBOX);
	}
	rte_mempool_free(p->pool);
	for (j = 0; j < SOAK_NB_PEERS; j++)
		free(p->txbuf[j]);
}

/*
 * Middle of this incarnation: every flow in and out has done half of what
 * was left at its start, so each ring and buffer it uses has been touched.
 */
static bool
soak_mid_reached(const struct soak_peer_ctx *p)
{
	unsigned int j;

	for (j = 0; j < SOAK_NB_PEERS; j++)
		if (j != p->idx &&
		    (p->c.rx_unique[j] < p->rx_mid[j] || p->c.tx_accepted[j] < p->tx_mid[j]))
			return false;
	return true;
}

/* Last samples of an incarnation that ends well (done, or stopped for a restart). */
static void
soak_peer_end(struct soak_peer_ctx *p)
{
	if (!p->mid_done)
		soak_mem_sample(p, SOAK_MEM_MID);
	/* rionet: what the port holds goes back to the pool when it stops. */
	if (p->rionet)
		soak_rionet_stop(p);
	soak_mem_sample(p, SOAK_MEM_END);
	soak_read_waits(p);
	soak_publish(&p->me->ctr, &p->c);
}

static int
soak_peer_loop(struct soak_peer_ctx *p)
{
	unsigned int j, work;

	for (;;) {
		work = 0;
		for (j = 0; j < SOAK_NB_PEERS; j++)
			if (j != p->idx)
				work += soak_tx_flow(p, j);
		work += soak_rx(p);
		if (++p->loops % SOAK_XSTAT_EVERY == 0)
			soak_read_waits(p);
		soak_publish(&p->me->ctr, &p->c);
		soak_ack(p);
		if (!p->mid_done && soak_mid_reached(p)) {
			soak_mem_sample(p, SOAK_MEM_MID);
			p->mid_done = true;
		}
		if (soak_complete(p)) {
			soak_peer_end(p);
			app_store_rel(&p->me->state, SOAK_ST_DONE);
			return 0;
		}
		if (soak_stop_req) {
			if (soak_stop(p) != 0)
				return -1;
			soak_peer_end(p);
			app_store_rel(&p->me->state, SOAK_ST_STOPPED);
			return 0;
		}
		if (work == 0)
			sched_yield();
	}
}

static int
soak_peer_main(int argc, char **argv)
{
	struct soak_peer_ctx *p = NULL;
	struct soak_shared *sh = NULL;
	uint64_t idx;
	unsigned int j;
	int n, ret = 1;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		printf("soak peer: error: EAL initialization failed\n");
		return 1;
	}
	signal(SIGINT, soak_signal);
	signal(SIGTERM, soak_signal);
	argc -= n;
	argv += n;
	if (argc != 3 || soak_parse_u64(argv[1], 0, SOAK_NB_PEERS - 1, &idx) != 0) {
		printf("soak peer: error: usage: <EAL args> -- INDEX STATE_FILE\n");
		goto out;
	}
	sh = soak_map_state(argv[2], false);
	if (sh == NULL || sh->magic != SOAK_MAGIC || sh->version != SOAK_STATE_VERSION) {
		printf("soak peer: error: cannot use state file %s\n", argv[2]);
		goto out;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		goto out;
	p->sh = sh;
	p->idx = (unsigned int)idx;
	p->me = &sh->peer[p->idx];
	p->rionet = sh->mode != SOAK_MODE_RAW;
	p->raw_dev = -1;
	/* Resume where the previous incarnation stopped (zero the first time). */
	soak_read_ctr(&p->c, &p->me->ctr);
	p->wait_base = p->c.rx_wait_sender;
	p->inc = p->me->incarnations;
	__atomic_store_n(&p->me->pid, (int32_t)getpid(), __ATOMIC_RELAXED);
	app_store_rel(&p->me->incarnations, p->inc + 1);
	app_store_rel(&p->me->state, SOAK_ST_STARTING);
	if (soak_peer_setup(p) != 0)
		goto fail;
	if (!p->rionet)
		soak_mem_sample(p, SOAK_MEM_START);
	for (j = 0; j < SOAK_NB_PEERS; j++) {
		if (j == p->idx)
			continue;
		p->rx_mid[j] = p->c.rx_unique[j] +
			(sh->flow_count[j][p->idx] - p->c.rx_unique[j]) / 2;
		p->tx_mid[j] = p->c.tx_accepted[j] +
			(sh->flow_count[p->idx][j] - p->c.tx_accepted[j]) / 2;
		p->tokens_t[j] = soak_now();
	}
	for (j = 0; j < SOAK_NB_PEERS; j++)
		p->first_after_kill[j] = p->inc < SOAK_MAX_INC && p->me->after_kill[p->inc];
	app_store_rel(&p->me->state, SOAK_ST_RUNNING);
	if (soak_peer_loop(p) == 0) {
		ret = 0;
		goto out;
	}
fail:
	soak_publish(&p->me->ctr, &p->c);
	app_store_rel(&p->me->state, SOAK_ST_FAILED);
out:
	if (p != NULL) {
		soak_peer_teardown(p);
		free(p);
	}
	if (sh != NULL)
		munmap(sh, sizeof(*sh));
	rte_eal_cleanup();
	return ret;
}

/* ------------------------------------------------------------------ */
/* Controller                                                         */

struct soak_opts {
	uint64_t messages;
	uint64_t flaps;
	uint64_t flap_ms;
	uint64_t restarts;
	uint64_t size_min;
	uint64_t size_max;
	uint64_t burst;
	uint64_t timeout_s;
	uint64_t rss_slack_kb;
	uint64_t rate;
	uint64_t kills;
	uint64_t stalls;
	uint64_t stall_ms;
	uint64_t seed;
	unsigned int inject;
	unsigned int mode;
	bool keep;
};

struct soak_ctl {
	struct soak_opts o;
	struct soak_shared *sh;
	char dir[64];
	char state[96];
	char self[PATH_MAX];
	char fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	pid_t pid[SOAK_NB_PEERS];
	bool exited_ok[SOAK_NB_PEERS];
	double t0;
	unsigned int flaps_done;
	unsigned int restarts_done;	/* clean restarts and kills */
	unsigned int kills_done;
	unsigned int stalls_done;
	unsigned int stops;		/* SIGSTOPs, short and long */
	uint64_t flap_refused;	/* -ETIMEDOUT sends while a flapped link was down */
	uint64_t rng;
	unsigned int violations;
};

static void
soak_usage(const char *prog)
{
	printf("usage: %s [--mode raw|rionet|rionet-zc] [--messages N] [--flaps N]\n"
	       "       [--flap-ms MS] [--restarts N] [--kills N] [--stalls N] [--stall-ms MS]\n"
	       "       [--size-min B] [--size-max B] [--burst N] [--timeout-s S]\n"
	       "       [--rss-slack-kb KB] [--rate MSG_PER_S] [--seed S] [--keep]\n"
	       "       [--inject drop|dup|corrupt|reorder|leak]  (self-test of the checks, raw)\n"
	       "defaults: --mode raw --messages 100000000 --flaps 20 --flap-ms 100\n"
	       "          --restarts 2 --kills 2 --stalls 3 --stall-ms 6000\n"
	       "          --size-min 24 --size-max 512 --burst 32 --timeout-s 600\n"
	       "          --rss-slack-kb %u --rate 0 (unpaced) --seed (random)\n", prog,
	       SOAK_MEM_SLACK_KB);
}

static int
soak_parse(int argc, char **argv, struct soak_opts *o)
{
	static const struct option longopts[] = {
		{ "messages", required_argument, NULL, 'm' },
		{ "flaps", required_argument, NULL, 'f' },
		{ "flap-ms", required_argument, NULL, 'F' },
		{ "restarts", required_argument, NULL, 'r' },
		{ "size-min", required_argument, NULL, 's' },
		{ "size-max", required_argument, NULL, 'S' },
		{ "burst", required_argument, NULL, 'b' },
		{ "timeout-s", required_argument, NULL, 't' },
		{ "rss-slack-kb", required_argument, NULL, 'R' },
		{ "rate", required_argument, NULL, 'a' },
		{ "inject", required_argument, NULL, 'i' },
		{ "mode", required_argument, NULL, 'M' },
		{ "kills", required_argument, NULL, 'K' },
		{ "stalls", required_argument, NULL, 'T' },
		{ "stall-ms", required_argument, NULL, 'D' },
		{ "seed", required_argument, NULL, 'e' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret = 0;

	memset(o, 0, sizeof(*o));
	o->messages = 100000000;
	o->flaps = 20;
	o->flap_ms = 100;
	o->restarts = 2;
	o->kills = 2;
	o->stalls = 3;
	o->size_min = sizeof(struct soak_hdr);
	o->size_max = 512;
	o->burst = 32;
	o->timeout_s = 600;
	o->rss_slack_kb = SOAK_MEM_SLACK_KB;
	o->stall_ms = 6000;
	o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			ret = soak_parse_u64(optarg, SOAK_NB_FLOWS, 1000000000000ULL, &o->messages);
			break;
		case 'f':
			ret = soak_parse_u64(optarg, 0, 1000, &o->flaps);
			break;
		case 'F':
			ret = soak_parse_u64(optarg, 1, 60000, &o->flap_ms);
			break;
		case 'r':
			ret = soak_parse_u64(optarg, 0, SOAK_MAX_INC - 1, &o->restarts);
			break;
		case 'K':
			ret = soak_parse_u64(optarg, 0, SOAK_MAX_INC - 1, &o->kills);
			break;
		case 'T':
			ret = soak_parse_u64(optarg, 0, 1000, &o->stalls);
			break;
		case 'D':
			ret = soak_parse_u64(optarg, 1, 60000, &o->stall_ms);
			break;
		case 'e':
			ret = soak_parse_u64(optarg, 0, UINT64_MAX, &o->seed);
			break;
		case 'M':
			ret = -EINVAL;
			for (o->mode = 0; o->mode < RTE_DIM(soak_mode_names); o->mode++)
				if (strcmp(optarg, soak_mode_names[o->mode]) == 0) {
					ret = 0;
					break;
				}
			break;
		case 's':
			ret = soak_parse_u64(optarg, sizeof(struct soak_hdr), RTE_RIO_MAX_MSG_SIZE,
					     &o->size_min);
			break;
		case 'S':
			ret = soak_parse_u64(optarg, sizeof(struct soak_hdr), RTE_RIO_MAX_MSG_SIZE,
					     &o->size_max);
			break;
		case 'b':
			ret = soak_parse_u64(optarg, 1, SOAK_MAX_BURST, &o->burst);
			break;
		case 't':
			ret = soak_parse_u64(optarg, 1, 86400, &o->timeout_s);
			break;
		case 'R':
			ret = soak_parse_u64(optarg, 0, 1 << 30, &o->rss_slack_kb);
			break;
		case 'a':
			ret = soak_parse_u64(optarg, 0, 1000000000, &o->rate);
			break;
		case 'i':
			ret = -EINVAL;
			for (o->inject = 0; o->inject < RTE_DIM(soak_inject_names); o->inject++)
				if (strcmp(optarg, soak_inject_names[o->inject]) == 0) {
					ret = 0;
					break;
				}
			break;
		case 'k':
			o->keep = true;
			break;
		default:
			return -EINVAL;
		}
		if (ret != 0) {
			printf("rio-soak: error: bad option value '%s'\n", optarg);
			return -EINVAL;
		}
	}
	if (optind != argc || o->size_min > o->size_max)
		return -EINVAL;
	/* Every peer incarnation is recorded; rionet restarts only ep1 and ep2. */
	if (o->restarts + o->kills >= SOAK_MAX_INC) {
		printf("rio-soak: error: at most %d restarts and kills together\n",
		       SOAK_MAX_INC - 1);
		return -EINVAL;
	}
	if (o->mode != SOAK_MODE_RAW && o->size_max > SOAK_ETH_MSG_MAX) {
		printf("rio-soak: error: --size-max %" PRIu64 " does not fit a frame of MTU %d\n",
		       o->size_max, SOAK_ETH_MSG_MAX);
		return -EINVAL;
	}
	if (o->mode != SOAK_MODE_RAW && o->inject != SOAK_INJ_NONE) {
		printf("rio-soak: error: --inject is for --mode raw\n");
		return -EINVAL;
	}
	return 0;
}

static int
soak_write_topology(const struct soak_ctl *ctl, const char *path)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (f == NULL)
		return -errno;
	fprintf(f,
		"; dpdk-rio-soak: ep0 and ep2 on sw0, ep1 on sw1\n"
		"; a send that gets no response (link down, peer killed) fails at\n"
		"; the response timeout: 2 ms, not the default 100 ms\n"
		"[fabric]\n"
		"devid_size = 8\n"
		"mbox_entries = %d\n"
		"static_routes = 1\n"
		"response_timeout = 2000\n"
		"[switch sw0]\n"
		"ports = 4\n"
		"[switch sw1]\n"
		"ports = 4\n"
		"[endpoint ep0]\n"
		"%s"
		"destid = %u\n"
		"[endpoint ep1]\n"
		"destid = %u\n"
		"[endpoint ep2]\n"
		"destid = %u\n"
		"[links]\n"
		"sw0.0 = ep0.0\n"
		"sw0.1 = sw1.1\n"
		"sw1.0 = ep1.0\n"
		"sw0.2 = ep2.0\n",
		SOAK_RING, ctl->o.mode == SOAK_MODE_RAW ? "" : "host = 1\n",
		ctl->sh->destid[0], ctl->sh->destid[1], ctl->sh->destid[2]);
	ret = ferror(f) ? -EIO : 0;
	if (fclose(f) != 0)
		ret = -EIO;
	return ret;
}

static int
soak_spawn(struct soak_ctl *ctl, unsigned int i)
{
	char prefix[64], vdev[160], lcores[32], idx[8], log[128], allow[96];
	char plugin[PATH_MAX + 32], *slash;
	unsigned int inc = ctl->sh->peer[i].incarnations;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pid, parent;
	int fd;

	snprintf(prefix, sizeof(prefix), "--file-prefix=%s_%u_%u", ctl->fabric, i, inc);
	/*
	 * raw: nothing enumerates (scan=0), the static routes are enough.
	 * rionet: ep0 enumerates, ep1 and ep2 discover, rionet binds each
	 * local endpoint; rionet-zc names it (rio:rapidio0, the peer's only
	 * mport) to give it rx_zero_copy=1.
	 */
	snprintf(vdev, sizeof(vdev), "%s,fabric=%s,endpoint=%s%s", SOAK_VDEV, ctl->fabric,
		 soak_ep_names[i], ctl->o.mode == SOAK_MODE_RAW ? ",scan=0" : "");
	snprintf(allow, sizeof(allow), "--allow=rio:" RTE_RIO_DEV_NAME_LOCAL_FMT ",rx_zero_copy=1",
		 0u);
	/* rionet is a plugin of the build: <build>/drivers, next to <build>/app/rio-soak. */
	snprintf(plugin, sizeof(plugin), "%s", ctl->self);
	slash = strrchr(plugin, '/');
	if (slash != NULL)
		*slash = '\0';
	strncat(plugin, "/../../drivers/librte_net_rionet.so", sizeof(plugin) - strlen(plugin) - 1);
	/* The main lcore may run on any core: three busy peers share the machine. */
	if (ncpu > 1)
		snprintf(lcores, sizeof(lcores), "--lcores=0@(0-%ld)", RTE_MIN(ncpu, 64L) - 1);
	else
		snprintf(lcores, sizeof(lcores), "--lcores=0@0");
	snprintf(idx, sizeof(idx), "%u", i);
	snprintf(log, sizeof(log), "%s/%s.%u.log", ctl->dir, soak_ep_names[i], inc);
	fflush(stdout);
	parent = getpid();
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char *args[24];
		unsigned int n = 0;

		args[n++] = ctl->self;
		args[n++] = (char *)(uintptr_t)"peer";
		args[n++] = (char *)(uintptr_t)"--no-huge";
		args[n++] = (char *)(uintptr_t)"-m";
		args[n++] = (char *)(uintptr_t)(ctl->o.mode == SOAK_MODE_RAW ? "64" : "128");
		args[n++] = (char *)(uintptr_t)"--no-pci";
		args[n++] = (char *)(uintptr_t)"--no-telemetry";
		args[n++] = (char *)(uintptr_t)"--no-shconf";
		args[n++] = prefix;
		args[n++] = lcores;
		args[n++] = (char *)(uintptr_t)"--vdev";
		args[n++] = vdev;
		if (ctl->o.mode != SOAK_MODE_RAW) {
			args[n++] = (char *)(uintptr_t)"-d";
			args[n++] = plugin;
		}
		if (ctl->o.mode == SOAK_MODE_RIONET_ZC)
			args[n++] = allow;
		args[n++] = (char *)(uintptr_t)"--";
		args[n++] = idx;
		args[n++] = ctl->state;
		args[n] = NULL;

		/* A peer never outlives the controller (it stops as on a restart). */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(127);
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execv(ctl->self, args);
		_exit(127);
	}
	ctl->pid[i] = pid;
	ctl->exited_ok[i] = false;
	return 0;
}

/*
 * Remove the (empty, thanks to --no-shconf) EAL runtime directories of every
 * peer incarnation: /var/run/dpdk/<prefix> for root, else
 * $XDG_RUNTIME_DIR/dpdk/<prefix> or /tmp/dpdk/<prefix>.
 */
static void
soak_rm_runtime_dirs(const struct soak_ctl *ctl)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	char path[PATH_MAX];
	unsigned int i, inc;

	for (i = 0; i < SOAK_NB_PEERS; i++) {
		for (inc = 0; inc < ctl->sh->peer[i].incarnations; inc++) {
			if (geteuid() == 0)
				snprintf(path, sizeof(path), "/var/run/dpdk/%s_%u_%u", ctl->fabric,
					 i, inc);
			else
				snprintf(path, sizeof(path), "%s/dpdk/%s_%u_%u",
					 base != NULL ? base : "/tmp", ctl->fabric, i, inc);
			rmdir(path);
		}
	}
}

static void
soak_show_log(const struct soak_ctl *ctl, unsigned int i)
{
	char path[128], line[256];
	unsigned int inc;
	FILE *f;

	for (inc = 0; inc < ctl->sh->peer[i].incarnations && inc < SOAK_MAX_INC; inc++) {
		snprintf(path, sizeof(path), "%s/%s.%u.log", ctl->dir, soak_ep_names[i], inc);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		printf("---- %s\n", path);
		while (fgets(line, sizeof(line), f) != NULL)
			printf("  %s", line);
		fclose(f);
	}
}

/* Reap peer i if it exited. @return 1 exited, 0 running, -1 abnormal exit. */
static int
soak_reap(struct soak_ctl *ctl, unsigned int i, bool block)
{
	int status;
	pid_t r;

	if (ctl->pid[i] <= 0)
		return 1;
	r = waitpid(ctl->pid[i], &status, block ? 0 : WNOHANG);
	if (r == 0)
		return 0;
	ctl->pid[i] = 0;
	if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("rio-soak: error: peer %s (pid %d) ended abnormally (%s %d): %s\n",
		       soak_ep_names[i], (int)r,
		       r > 0 && WIFSIGNALED(status) ? "signal" : "status",
		       r > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
		       ctl->sh->peer[i].err[0] != '\0' ? ctl->sh->peer[i].err : "see its log");
		return -1;
	}
	ctl->exited_ok[i] = true;
	return 1;
}

static void
soak_kill_all(struct soak_ctl *ctl)
{
	unsigned int i, t;

	for (i = 0; i < SOAK_NB_PEERS; i++) {
		if (ctl->pid[i] > 0) {
			kill(ctl->pid[i], SIGTERM);
			/* One stopped by a stall would not see it. */
			kill(ctl->pid[i], SIGCONT);
		}
	}
	for (t = 0; t < 100; t++) {
		bool left = false;

		for (i = 0; i < SOAK_NB_PEERS; i++)
			if (ctl->pid[i] > 0 && waitpid(ctl->pid[i], NULL, WNOHANG) == ctl->pid[i])
				ctl->pid[i] = 0;
			else if (ctl->pid[i] > 0)
				left = true;
		if (!left)
			return;
		usleep(50000);
	}
	for (i = 0; i < SOAK_NB_PEERS; i++) {
		if (ctl->pid[i] > 0) {
			kill(ctl->pid[i], SIGKILL);
			waitpid(ctl->pid[i], NULL, 0);
			ctl->pid[i] = 0;
		}
	}
}

static uint64_t
soak_progress(const struct soak_ctl *ctl)
{
	uint64_t t = 0;
	unsigned int i, j;

	for (i = 0; i < SOAK_NB_PEERS; i++)
		for (j = 0; j < SOAK_NB_PEERS; j++)
			t += app_load_rlx(&ctl->sh->peer[i].ctr.rx_unique[j]);
	return t;
}

static uint64_t
soak_sum_timeouts(const struct soak_ctl *ctl)
{
	uint64_t t = 0;
	unsigned int i, j;

	for (i = 0; i < SOAK_NB_PEERS; i++)
		for (j = 0; j < SOAK_NB_PEERS; j++)
			t += app_load_rlx(&ctl->sh->peer[i].ctr.tx_etimedout[j]) +
				app_load_rlx(&ctl->sh->peer[i].ctr.tx_dropped[j]);
	return t;
}

static uint64_t
soak_sum_refused(const struct soak_ctl *ctl)
{
	const struct soak_ctr *c;
	uint64_t t = 0;
	unsigned int i, j;

	for (i = 0; i < SOAK_NB_PEERS; i++) {
		c = &ctl->sh->peer[i].ctr;
		for (j = 0; j < SOAK_NB_PEERS; j++)
			t += app_load_rlx(&c->tx_eagain[j]) + app_load_rlx(&c->tx_etimedout[j]) +
				app_load_rlx(&c->tx_eio[j]) + app_load_rlx(&c->tx_other[j]) +
				app_load_rlx(&c->tx_dropped[j]);
	}
	return t;
}

/* --kill: SIGKILL peer i; its next incarnation starts after a kill. */
static int
soak_kill_one(struct soak_ctl *ctl, unsigned int i)
{
	struct soak_peer *pe = &ctl->sh->peer[i];
	uint32_t next = pe->incarnations;
	int status;

	if (next >= SOAK_MAX_INC) {
		printf("rio-soak: error: too many incarnations of %s\n", soak_ep_names[i]);
		return -1;
	}
	kill(ctl->pid[i], SIGKILL);
	if (waitpid(ctl->pid[i], &status, 0) != ctl->pid[i] || !WIFSIGNALED(status)) {
		printf("rio-soak: error: %s did not die by SIGKILL\n", soak_ep_names[i]);
		return -1;
	}
	ctl->pid[i] = 0;
	pe->after_kill[next] = 1;
	app_store_rel(&pe->state, SOAK_ST_NONE);
	return 0;
}

static int
soak_wait_state(struct soak_ctl *ctl, unsigned int i, uint32_t want, double timeout_s)
{
	double end = soak_now() + timeout_s;

	while (app_load_acq(&ctl->sh->peer[i].state) != want) {
		if (soak_reap(ctl, i, false) != 0 || soak_now() > end)
			return -1;
		usleep(1000);
	}
	return 0;
}

/*
 * The ackIDs of both ends of the link of (@dev, @port), for the log: a link
 * that does not come back is told by them (an end's outbound ackID that is
 * not what the other end expects stops that direction).
 */
static void
soak_link_ackids(const struct soak_ctl *ctl, const char *dev, uint8_t port, char *buf,
		 size_t len)
{
	struct rte_pmd_rio_sim_dev_info a, b;
	const struct rte_pmd_rio_sim_port_info *pa, *pb;
	int ia = rte_pmd_rio_sim_fabric_dev_find(ctl->fabric, dev);

	if (ia < 0 || rte_pmd_rio_sim_fabric_dev_info(ctl->fabric, (uint32_t)ia, &a) != 0 ||
	    port >= a.nports || a.ports[port].peer_dev < 0 ||
	    rte_pmd_rio_sim_fabric_dev_info(ctl->fabric, (uint32_t)a.ports[port].peer_dev,
					    &b) != 0) {
		snprintf(buf, len, "ackIDs unknown");
		return;
	}
	pa = &a.ports[port];
	pb = &b.ports[pa->peer_port];
	snprintf(buf, len, "ackIDs %s.%u in %u out %u, %s.%u in %u out %u", a.name, port,
		 pa->ack_in, pa->ack_out, b.name, pa->peer_port, pb->ack_in, pb->ack_out);
}

static int
soak_flap(struct soak_ctl *ctl, uint64_t total)
{
	unsigned int l = ctl->flaps_done % RTE_DIM(soak_flap_links);
	uint64_t before, refused;
	double t = soak_now() - ctl->t0;
	char ack_down[160], ack_up[160];
	int ret;

	before = soak_sum_timeouts(ctl);
	soak_link_ackids(ctl, soak_flap_links[l].dev, soak_flap_links[l].port, ack_down,
			 sizeof(ack_down));
	ret = rte_pmd_rio_sim_fabric_link_set(ctl->fabric, soak_flap_links[l].dev,
					      soak_flap_links[l].port, false);
	if (ret != 0) {
		printf("rio-soak: error: link %s down: %s\n", soak_flap_links[l].desc,
		       strerror(-ret));
		return -1;
	}
	usleep(ctl->o.flap_ms * 1000);
	ret = rte_pmd_rio_sim_fabric_link_set(ctl->fabric, soak_flap_links[l].dev,
					      soak_flap_links[l].port, true);
	if (ret != 0) {
		printf("rio-soak: error: link %s up: %s\n", soak_flap_links[l].desc,
		       strerror(-ret));
		return -1;
	}
	/*
	 * Only a down link refuses with -ETIMEDOUT (flaps and restarts never
	 * overlap); give the peers time to publish what they counted meanwhile.
	 */
	usleep(SOAK_PUBLISH_WAIT_MS * 1000);
	refused = soak_sum_timeouts(ctl) - before;
	soak_link_ackids(ctl, soak_flap_links[l].dev, soak_flap_links[l].port, ack_up,
			 sizeof(ack_up));
	ctl->flaps_done++;
	ctl->flap_refused += refused;
	printf("  t=%7.2fs %5.1f%%  flap %u: %s down %" PRIu64 " ms, %" PRIu64
	       " sends refused (%s)\n", t,
	       100.0 * (double)soak_progress(ctl) / (double)total,
	       ctl->flaps_done, soak_flap_links[l].desc, ctl->o.flap_ms, refused,
	       ctl->o.mode == SOAK_MODE_RAW ? "-ETIMEDOUT" : "dropped by rionet");
	printf("            at down %s; %d ms after up %s\n", ack_down,
	       SOAK_PUBLISH_WAIT_MS, ack_up);
	fflush(stdout);
	return 0;
}

/* A number in [0, n) from the run's seed (xorshift64*). */
static uint64_t
soak_rand(struct soak_ctl *ctl, uint64_t n)
{
	ctl->rng ^= ctl->rng >> 12;
	ctl->rng ^= ctl->rng << 25;
	ctl->rng ^= ctl->rng >> 27;
	return n == 0 ? 0 : (ctl->rng * 0x2545f4914f6cdd1dULL) % n;
}

static int soak_flap(struct soak_ctl *ctl, uint64_t total);

/* Is the next flap due (by receive progress)? */
static bool
soak_flap_due(const struct soak_ctl *ctl, uint64_t total)
{
	double at = ((double)ctl->flaps_done + 0.75) / (double)(ctl->o.flaps + 1);

	return ctl->flaps_done < ctl->o.flaps && (double)soak_progress(ctl) >= at * (double)total;
}

/*
 * SIGSTOP peer i, wait until it is stopped, hold it @us microseconds,
 * SIGCONT it. Flaps that fall due meanwhile are done (with @total not 0):
 * the others go on while it is stopped. @return 0, 1 when it ended
 * meanwhile, -1 on error.
 */
static int
soak_stop_peer(struct soak_ctl *ctl, unsigned int i, uint64_t us, uint64_t total)
{
	double until;

	double end = soak_now() + 5;
	char st;

	if (kill(ctl->pid[i], SIGSTOP) != 0)
		return -1;
	for (;;) {
		st = rio_app_proc_state(ctl->pid[i]);
		if (st == 'T' || st == 't')
			break;
		if (st == 'Z' || st == 'X' || st == '?') {
			kill(ctl->pid[i], SIGCONT);
			return 1;
		}
		if (soak_now() > end) {
			kill(ctl->pid[i], SIGCONT);
			printf("rio-soak: error: %s not stopped after 5 s (state %c)\n",
			       soak_ep_names[i], st);
			return -1;
		}
		sched_yield();
	}
	ctl->stops++;
	until = soak_now() + (double)us * 1e-6;
	while (total != 0 && soak_now() + 0.01 < until) {
		if (soak_flap_due(ctl, total)) {
			if (soak_flap(ctl, total) != 0) {
				kill(ctl->pid[i], SIGCONT);
				return -1;
			}
		} else {
			usleep(10000);
		}
	}
	if (soak_now() < until)
		usleep((useconds_t)((until - soak_now()) * 1e6));
	return kill(ctl->pid[i], SIGCONT) == 0 ? 0 : -1;
}

/*
 * Stall a running peer (in turn ep0, ep1, ep2): SOAK_MICRO_STOPS stops of
 * a few milliseconds at random moments, some of which catch it between
 * claiming ring slots and publishing them, then one of --stall-ms.
 * A stopped peer is alive: what it sends arrives once it goes on, and what
 * is sent to it waits (its ring fills: back-pressure).
 */
static int
soak_stall(struct soak_ctl *ctl, uint64_t total)
{
	unsigned int i = 0, k, stops;
	uint64_t refused0, waits0 = 0, waits = 0;
	bool found = false;
	double t = soak_now() - ctl->t0;
	double pct = 100.0 * (double)soak_progress(ctl) / (double)total;
	int ret = 0;

	for (k = 0; k < SOAK_NB_PEERS && !found; k++) {
		i = (ctl->stalls_done + k) % SOAK_NB_PEERS;
		found = app_load_acq(&ctl->sh->peer[i].state) == SOAK_ST_RUNNING &&
			ctl->pid[i] > 0;
	}
	ctl->stalls_done++;
	if (!found) {
		printf("  t=%7.2fs         stall %u: no peer is running\n", t, ctl->stalls_done);
		return 0;
	}
	for (k = 0; k < SOAK_NB_PEERS; k++)
		waits0 += app_load_rlx(&ctl->sh->peer[k].ctr.rx_wait_sender);
	refused0 = soak_sum_refused(ctl);
	for (stops = 0; stops < SOAK_MICRO_STOPS && ret == 0; stops++) {
		usleep((useconds_t)soak_rand(ctl, 500));
		ret = soak_stop_peer(ctl, i, SOAK_MICRO_STOP_MIN_US +
				     soak_rand(ctl, SOAK_MICRO_STOP_MAX_US -
						    SOAK_MICRO_STOP_MIN_US), 0);
	}
	if (ret == 0)
		ret = soak_stop_peer(ctl, i, ctl->o.stall_ms * 1000, total);
	if (ret < 0)
		return -1;
	/* The others publish their counters between two bursts. */
	usleep(SOAK_PUBLISH_WAIT_MS * 1000);
	for (k = 0; k < SOAK_NB_PEERS; k++)
		waits += app_load_rlx(&ctl->sh->peer[k].ctr.rx_wait_sender);
	printf("  t=%7.2fs %5.1f%%  stall %u: %s (pid %d) stopped %u times briefly, then %"
	       PRIu64 " ms%s; %" PRIu64 " sends refused meanwhile, receivers waited for a"
	       " stopped sender %" PRIu64 " times so far (+%" PRIu64 ")\n", t, pct,
	       ctl->stalls_done,
	       soak_ep_names[i], (int)ctl->pid[i], stops, ctl->o.stall_ms,
	       ret == 1 ? " (it finished meanwhile)" : "", soak_sum_refused(ctl) - refused0,
	       waits, waits - waits0);
	fflush(stdout);
	return 0;
}

static int
soak_restart(struct soak_ctl *ctl, uint64_t total)
{
	unsigned int i = 0, k, left, kills_left, order;
	struct soak_peer *pe = NULL;
	double t1, t2, t3;
	uint64_t drained0, refused0;
	char what[96];
	bool by_kill;
	int ret;

	/* Clean restarts and kills alternate, a clean one first, while both are left. */
	left = (unsigned int)(ctl->o.restarts + ctl->o.kills) - ctl->restarts_done;
	kills_left = (unsigned int)ctl->o.kills - ctl->kills_done;
	by_kill = kills_left == left || (kills_left > 0 && ctl->restarts_done % 2 == 1);
	/* rionet: ep0 is the host that enumerated the fabric; it stays. */
	order = ctl->o.mode == SOAK_MODE_RAW ? SOAK_NB_PEERS : SOAK_NB_PEERS - 1;
	/* The next in turn that is still running (one that finished has no traffic). */
	for (k = 0; k < order; k++) {
		i = soak_restart_order[(ctl->restarts_done + k) % order];
		if (app_load_acq(&ctl->sh->peer[i].state) == SOAK_ST_RUNNING) {
			pe = &ctl->sh->peer[i];
			break;
		}
	}
	if (pe == NULL) {
		printf("rio-soak: error: no peer is running at restart %u\n",
		       ctl->restarts_done + 1);
		return -1;
	}
	drained0 = app_load_rlx(&pe->ctr.rx_drained);
	t1 = soak_now();
	printf("  t=%7.2fs %5.1f%%  restart %u: %s %s (pid %d)\n", t1 - ctl->t0,
	       100.0 * (double)soak_progress(ctl) / (double)total, ctl->restarts_done + 1,
	       by_kill ? "killing (SIGKILL)" : "stopping (SIGTERM)", soak_ep_names[i],
	       (int)ctl->pid[i]);
	fflush(stdout);
	refused0 = soak_sum_refused(ctl);
	if (by_kill) {
		if (soak_kill_one(ctl, i) != 0)
			return -1;
		ctl->kills_done++;
	} else {
		kill(ctl->pid[i], SIGTERM);
		if (soak_reap(ctl, i, true) != 1 ||
		    app_load_acq(&pe->state) != SOAK_ST_STOPPED) {
			printf("rio-soak: error: %s did not stop cleanly\n", soak_ep_names[i]);
			return -1;
		}
	}
	t2 = soak_now();
	/* Down a while: the others' sends to it fail meanwhile. */
	usleep(ctl->o.flap_ms * 1000);
	/* rionet: the new process discovers the fabric as it starts: link up first. */
	if (ctl->o.mode != SOAK_MODE_RAW) {
		ret = rte_pmd_rio_sim_fabric_link_set(ctl->fabric, soak_ep_names[i], 0, true);
		if (ret != 0) {
			printf("rio-soak: error: link of %s up: %s\n", soak_ep_names[i],
			       strerror(-ret));
			return -1;
		}
	}
	if (soak_spawn(ctl, i) != 0 ||
	    soak_wait_state(ctl, i, SOAK_ST_RUNNING, SOAK_READY_TIMEOUT_S) != 0) {
		printf("rio-soak: error: %s did not come back: %s\n", soak_ep_names[i],
		       pe->err[0] != '\0' ? pe->err : "see its log");
		return -1;
	}
	t3 = soak_now();
	ctl->restarts_done++;
	if (by_kill)
		snprintf(what, sizeof(what), "killed");
	else
		snprintf(what, sizeof(what), "stopped in %.0f ms (drained %" PRIu64
			 ", unreceived %" PRIu64 ")", (t2 - t1) * 1e3,
			 app_load_rlx(&pe->ctr.rx_drained) - drained0,
			 app_load_rlx(&pe->ctr.stop_lost));
	printf("  t=%7.2fs         restart %u: %s %s, back as pid %d after %.0f ms; %" PRIu64
	       " sends refused meanwhile\n", t3 - ctl->t0, ctl->restarts_done, soak_ep_names[i],
	       what, (int)ctl->pid[i], (t3 - t2) * 1e3, soak_sum_refused(ctl) - refused0);
	fflush(stdout);
	return 0;
}

/* Progress thresholds of the events: flaps evenly, restarts evenly. */
static int
soak_run_events(struct soak_ctl *ctl)
{
	uint64_t total = ctl->sh->messages, prog, last_prog = 0;
	uint64_t restarts = ctl->o.restarts + ctl->o.kills;
	double deadline = ctl->t0 + (double)ctl->o.timeout_s, restart_at, stall_at;
	double last_move = soak_now();
	unsigned int i, running;
	int r;

	for (;;) {
		prog = soak_progress(ctl);
		/* Flaps at three quarters of a step, stalls at half: apart from the restarts. */
		restart_at = (double)(ctl->restarts_done + 1) / (double)(restarts + 1);
		stall_at = ((double)ctl->stalls_done + 0.5) / (double)(ctl->o.stalls + 1);
		if (ctl->restarts_done < restarts &&
		    (double)prog >= restart_at * (double)total) {
			if (soak_restart(ctl, total) != 0)
				return -1;
		} else if (ctl->stalls_done < ctl->o.stalls &&
			   (double)prog >= stall_at * (double)total) {
			if (soak_stall(ctl, total) != 0)
				return -1;
			/* The stop was no lack of progress. */
			last_move = soak_now();
		} else if (soak_flap_due(ctl, total)) {
			if (soak_flap(ctl, total) != 0)
				return -1;
		}
		running = 0;
		for (i = 0; i < SOAK_NB_PEERS; i++) {
			r = soak_reap(ctl, i, false);
			if (r < 0)
				return -1;
			if (r == 0)
				running++;
			else if (app_load_acq(&ctl->sh->peer[i].state) != SOAK_ST_DONE) {
				printf("rio-soak: error: peer %s exited before finishing\n",
				       soak_ep_names[i]);
				return -1;
			}
		}
		if (running == 0)
			return 0;
		if (prog != last_prog) {
			last_prog = prog;
			last_move = soak_now();
		} else if (soak_now() > last_move + SOAK_STALL_S) {
			printf("rio-soak: error: no message received for %d s (%" PRIu64 " of %"
			       PRIu64 " received)\n", SOAK_STALL_S, prog, total);
			return -1;
		}
		if (soak_stop_req) {
			printf("rio-soak: error: interrupted\n");
			return -1;
		}
		if (soak_now() > deadline) {
			printf("rio-soak: error: not finished after %" PRIu64 " s (%" PRIu64
			       " of %" PRIu64 " messages received)\n", ctl->o.timeout_s, prog,
			       total);
			return -1;
		}
		usleep(2000);
	}
}

static void
soak_check(struct soak_ctl *ctl, bool cond, const char *fmt, ...) __rte_format_printf(3, 4);

static void
soak_check(struct soak_ctl *ctl, bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return;
	ctl->violations++;
	printf("VIOLATION: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void
soak_report(struct soak_ctl *ctl, double duration, bool run_ok)
{
	struct soak_ctr c[SOAK_NB_PEERS];
	uint64_t sent = 0, acc = 0, rcv = 0, lost = 0, dup = 0, reo = 0, cor = 0, gap = 0;
	uint64_t eagain = 0, etimedout = 0, eio = 0, other = 0, dropped = 0, foreign = 0;
	uint64_t mem_start = 0, mem_end = 0, lost_kill = 0, resent_kill = 0, waits = 0;
	uint64_t unanswered = 0;
	bool killed;
	const struct soak_mem *m;
	unsigned int i, j, inc;

	for (i = 0; i < SOAK_NB_PEERS; i++)
		soak_read_ctr(&c[i], &ctl->sh->peer[i].ctr);
	printf("\nflow       accepted   received  lost  dup  reord  corrupt  at kills   refused\n"
	       "                                                      lost/resent"
	       " EAGAIN/ETIMEDOUT/EIO/other/dropped\n");
	for (i = 0; i < SOAK_NB_PEERS; i++) {
		for (j = 0; j < SOAK_NB_PEERS; j++) {
			uint64_t a, r, l, lk;

			if (i == j)
				continue;
			a = c[i].tx_accepted[j];
			r = c[j].rx_unique[i];
			lk = c[j].rx_lost_kill[i];
			/* Lost at a kill (--kill only, bounded per kill) is counted apart. */
			l = a > r + lk ? a - r - lk : 0;
			printf("%s->%s %10" PRIu64 " %10" PRIu64 " %5" PRIu64 " %4" PRIu64
			       " %6" PRIu64 " %8" PRIu64 "  %5" PRIu64 "/%-5" PRIu64 " %" PRIu64
			       "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n", soak_ep_names[i],
			       soak_ep_names[j], a, r, l, c[j].rx_dup[i], c[j].rx_reorder[i],
			       c[j].rx_corrupt[i], lk, c[j].rx_resent_kill[i], c[i].tx_eagain[j],
			       c[i].tx_etimedout[j], c[i].tx_eio[j], c[i].tx_other[j],
			       c[i].tx_dropped[j]);
			lost_kill += lk;
			resent_kill += c[j].rx_resent_kill[i];
			unanswered += c[j].rx_dup_unanswered[i];
			soak_check(ctl, r <= a, "%s->%s: %" PRIu64 " received but only %" PRIu64
				   " accepted", soak_ep_names[i], soak_ep_names[j], r, a);
			soak_check(ctl, a == ctl->sh->flow_count[i][j] || !run_ok,
				   "%s->%s: %" PRIu64 " of %" PRIu64 " accepted", soak_ep_names[i],
				   soak_ep_names[j], a, ctl->sh->flow_count[i][j]);
			sent += c[i].tx_attempts[j];
			acc += a;
			rcv += r;
			lost += l;
			dup += c[j].rx_dup[i];
			reo += c[j].rx_reorder[i];
			cor += c[j].rx_corrupt[i];
			gap += c[j].rx_gap[i];
			eagain += c[i].tx_eagain[j];
			etimedout += c[i].tx_etimedout[j];
			eio += c[i].tx_eio[j];
			other += c[i].tx_other[j];
			dropped += c[i].tx_dropped[j];
		}
		foreign += c[i].rx_foreign;
		waits += c[i].rx_wait_sender;
	}
	/* Where to look in the peer logs and the state file. */
	for (i = 0; i < SOAK_NB_PEERS; i++)
		for (j = 0; j < SOAK_NB_PEERS; j++)
			if (i != j && c[j].rx_dup_seq[i] != 0)
				printf("%s->%s: first duplicate sequence number %" PRIu64
				       " (sender incarnation %" PRIu64 ", next expected %" PRIu64
				       ")\n", soak_ep_names[i], soak_ep_names[j],
				       c[j].rx_dup_seq[i] - 1, c[j].rx_dup_inc[i],
				       c[j].rx_dup_next[i]);
	printf("\nmemory      inc   %5s kB start/mid/end     pool in use start/mid/end\n",
	       SOAK_MEM_NAME);
	for (i = 0; i < SOAK_NB_PEERS; i++) {
		for (inc = 0; inc < ctl->sh->peer[i].incarnations && inc < SOAK_MAX_INC; inc++) {
			m = ctl->sh->peer[i].mem[inc];
			killed = inc + 1 < SOAK_MAX_INC && ctl->sh->peer[i].after_kill[inc + 1];
			printf("%-10s %4u   %7" PRIu64 " %7" PRIu64 " %7" PRIu64 "     %5" PRIu64
			       " %5" PRIu64 " %5" PRIu64 "%s\n", soak_ep_names[i], inc,
			       m[0].mem_kb, m[1].mem_kb, m[2].mem_kb, m[0].pool_in_use,
			       m[1].pool_in_use, m[2].pool_in_use, killed ? "  (killed)" : "");
			if (inc == 0)
				mem_start += m[0].mem_kb;
			if (inc + 1 == ctl->sh->peer[i].incarnations)
				mem_end += m[2].mem_kb;
			if (!run_ok || killed)
				continue;
			soak_check(ctl, m[2].mem_kb <= m[1].mem_kb + ctl->o.rss_slack_kb,
				   "%s incarnation %u: " SOAK_MEM_NAME " grew %" PRIu64
				   " kB from middle to end", soak_ep_names[i], inc,
				   m[2].mem_kb - m[1].mem_kb);
			/* rionet: the start and end samples are taken with the port stopped. */
			soak_check(ctl, m[0].pool_in_use == m[2].pool_in_use &&
				   (ctl->o.mode != SOAK_MODE_RAW ||
				    m[1].pool_in_use == m[2].pool_in_use),
				   "%s incarnation %u: pool in use changed", soak_ep_names[i], inc);
		}
	}
	soak_check(ctl, lost == 0, "%" PRIu64 " accepted messages lost", lost);
	soak_check(ctl, dup == 0, "%" PRIu64 " duplicates", dup);
	soak_check(ctl, reo == 0 && gap == 0, "%" PRIu64 " reordered, %" PRIu64 " skipped", reo,
		   gap);
	soak_check(ctl, cor == 0 && foreign == 0, "%" PRIu64 " corrupt, %" PRIu64 " foreign",
		   cor, foreign);
	soak_check(ctl, ctl->flaps_done == ctl->o.flaps, "%u of %" PRIu64 " flaps done",
		   ctl->flaps_done, ctl->o.flaps);
	soak_check(ctl, ctl->o.flaps == 0 || ctl->flap_refused > 0,
		   "no send was refused while links were down");
	soak_check(ctl, ctl->restarts_done == ctl->o.restarts + ctl->o.kills &&
		   ctl->kills_done == ctl->o.kills, "%u of %" PRIu64 " restarts done (%u of %"
		   PRIu64 " by SIGKILL)", ctl->restarts_done, ctl->o.restarts + ctl->o.kills,
		   ctl->kills_done, ctl->o.kills);
	soak_check(ctl, ctl->stalls_done == ctl->o.stalls, "%u of %" PRIu64 " stalls done",
		   ctl->stalls_done, ctl->o.stalls);
	soak_check(ctl, run_ok, "the run did not complete");
	printf("\nsummary: %s, messages %" PRIu64 " (%d flows), seed %" PRIu64 "\n"
	       "  sent (offers) %" PRIu64 "  accepted %" PRIu64 "  received %" PRIu64
	       "  refused %" PRIu64 " (EAGAIN %" PRIu64 ", ETIMEDOUT %" PRIu64 ", EIO %" PRIu64
	       ", other %" PRIu64 ", dropped %" PRIu64 ")\n"
	       "  lost %" PRIu64 "  dup %" PRIu64 "  reordered %" PRIu64 "  corrupt %" PRIu64
	       "\n  flaps %u  restarts %u (%u by SIGTERM, %u by SIGKILL)  stalls %u (%u SIGSTOPs)"
	       "  duration %.1f s  %.0f msg/s\n"
	       "  " SOAK_MEM_NAME " sum of peers start %" PRIu64 " kB end %" PRIu64 " kB\n",
	       soak_mode_names[ctl->o.mode], ctl->sh->messages, SOAK_NB_FLOWS, ctl->o.seed, sent,
	       acc, rcv, eagain + etimedout + eio + other + dropped, eagain, etimedout, eio,
	       other, dropped, lost, dup, reo, cor, ctl->flaps_done, ctl->restarts_done,
	       ctl->restarts_done - ctl->kills_done, ctl->kills_done, ctl->stalls_done,
	       ctl->stops, duration, duration > 0 ? (double)rcv / duration : 0.0, mem_start,
	       mem_end);
	if (ctl->o.stalls > 0)
		printf("  stalls: receivers waited %" PRIu64 " times for a message whose stopped"
		       " sender had claimed its slot (msg_rx_wait_sender)%s\n", waits,
		       waits == 0 ? "; no stop landed inside a send this time" : "");
	printf("  sends without response: %" PRIu64 " messages offered again arrived twice"
	       " (the fault took the response, not the request; not a duplicate of an"
	       " accepted message)\n", unanswered);
	if (ctl->o.kills > 0)
		printf("  at kills: %" PRIu64 " accepted messages lost with the killed receivers"
		       " (their rings, at most %u per flow and kill), %" PRIu64 " sent again by"
		       " restarted senders\n", lost_kill, SOAK_RING + ctl->sh->burst, resent_kill);
	printf("RESULT soak mode=%s messages=%" PRIu64 " sent=%" PRIu64 " accepted=%" PRIu64
	       " received=%" PRIu64 " lost=%" PRIu64 " dup=%" PRIu64 " reordered=%" PRIu64
	       " corrupt=%" PRIu64 " refused=%" PRIu64 " flaps=%u restarts=%u stalls=%u"
	       " stops=%u waits=%" PRIu64 " duration_s=%.1f"
	       " msg_per_s=%.0f " SOAK_MEM_KEY "_start_kb=%" PRIu64 " " SOAK_MEM_KEY "_end_kb=%" PRIu64
	       " kills=%u lost_at_kill=%" PRIu64 " resent_at_kill=%" PRIu64
	       " dup_unanswered=%" PRIu64 " violations=%u verdict=%s\n",
	       soak_mode_names[ctl->o.mode], ctl->sh->messages, sent, acc, rcv, lost, dup, reo,
	       cor, eagain + etimedout + eio + other + dropped, ctl->flaps_done,
	       ctl->restarts_done, ctl->stalls_done, ctl->stops, waits, duration,
	       duration > 0 ? (double)rcv / duration : 0.0, mem_start, mem_end,
	       ctl->kills_done, lost_kill, resent_kill, unanswered, ctl->violations,
	       ctl->violations == 0 ? "PASS" : "FAIL");
}

static int
soak_ctl_main(int argc, char **argv)
{
	struct soak_ctl *ctl;
	char topo[128], err[256], path[160];
	unsigned int i, j, k;
	bool run_ok = false, fabric = false;
	ssize_t len;
	int ret = 1;

	ctl = calloc(1, sizeof(*ctl));
	if (ctl == NULL)
		return 1;
	if (soak_parse(argc, argv, &ctl->o) != 0) {
		soak_usage(argv[0]);
		free(ctl);
		return 2;
	}
	signal(SIGINT, soak_signal);
	signal(SIGTERM, soak_signal);
	/* The driver logs through rte_log; keep the summary readable. */
	rte_log_set_global_level(RTE_LOG_WARNING);
	len = readlink("/proc/self/exe", ctl->self, sizeof(ctl->self) - 1);
	if (len <= 0) {
		printf("rio-soak: error: cannot find own executable\n");
		goto out;
	}
	ctl->self[len] = '\0';
	snprintf(ctl->dir, sizeof(ctl->dir), "/tmp/rio-soak.XXXXXX");
	if (mkdtemp(ctl->dir) == NULL) {
		printf("rio-soak: error: cannot create a run directory: %s\n", strerror(errno));
		goto out;
	}
	snprintf(ctl->state, sizeof(ctl->state), "%s/state", ctl->dir);
	snprintf(ctl->fabric, sizeof(ctl->fabric), "soak%d", (int)getpid());
	ctl->sh = soak_map_state(ctl->state, true);
	if (ctl->sh == NULL) {
		printf("rio-soak: error: cannot create %s: %s\n", ctl->state, strerror(errno));
		goto out;
	}
	ctl->sh->magic = SOAK_MAGIC;
	ctl->sh->version = SOAK_STATE_VERSION;
	ctl->sh->messages = ctl->o.messages;
	ctl->sh->rate = ctl->o.rate / SOAK_NB_FLOWS;
	ctl->sh->inject = ctl->o.inject;
	ctl->sh->mode = ctl->o.mode;
	if (ctl->o.rate != 0 && ctl->sh->rate == 0)
		ctl->sh->rate = 1;
	/* Flow k (in [src][dst] order) gets one more while k < messages % flows. */
	for (i = 0, k = 0; i < SOAK_NB_PEERS; i++)
		for (j = 0; j < SOAK_NB_PEERS; j++)
			if (i != j)
				ctl->sh->flow_count[i][j] = ctl->o.messages / SOAK_NB_FLOWS +
					(k++ < ctl->o.messages % SOAK_NB_FLOWS ? 1 : 0);
	ctl->sh->size_min = (uint32_t)ctl->o.size_min;
	ctl->sh->size_max = (uint32_t)ctl->o.size_max;
	ctl->sh->burst = (uint32_t)ctl->o.burst;
	/* rionet: what ep0's enumeration assigns (the host 0, then ep1 1, ep2 2). */
	for (i = 0; i < SOAK_NB_PEERS; i++)
		ctl->sh->destid[i] = (uint16_t)(ctl->o.mode == SOAK_MODE_RAW ? i + 1 : i);
	snprintf(ctl->sh->fabric, sizeof(ctl->sh->fabric), "%s", ctl->fabric);
	snprintf(topo, sizeof(topo), "%s/topology.ini", ctl->dir);
	if (soak_write_topology(ctl, topo) != 0) {
		printf("rio-soak: error: cannot write %s\n", topo);
		goto out;
	}
	ret = rte_pmd_rio_sim_fabric_create(ctl->fabric, topo, err, sizeof(err));
	if (ret != 0) {
		printf("rio-soak: error: fabric %s: %s\n", ctl->fabric, err);
		ret = 1;
		goto out;
	}
	fabric = true;
	ret = 1;
	printf("rio-soak: fabric %s: ep0@sw0.0 ep2@sw0.2, sw0.1=sw1.1, ep1@sw1.0 "
	       "(4 of 6 flows cross both switches); %s\n"
	       "rio-soak: %" PRIu64 " messages (%" PRIu64 " per flow), %" PRIu64 "..%" PRIu64
	       " bytes, burst %" PRIu64 ", %" PRIu64 " flaps of %" PRIu64 " ms, %" PRIu64
	       " restart(s) by SIGTERM and %" PRIu64 " by SIGKILL (%s in turn), %" PRIu64
	       " stall(s) of %" PRIu64 " ms; seed %" PRIu64 "; run directory %s\n",
	       ctl->fabric, ctl->o.mode == SOAK_MODE_RAW ? "mode raw, scan=0" :
	       ctl->o.mode == SOAK_MODE_RIONET ? "mode rionet, ep0 enumerates" :
	       "mode rionet-zc (rx_zero_copy=1), ep0 enumerates",
	       ctl->sh->messages, ctl->sh->flow_count[0][1],
	       ctl->o.size_min, ctl->o.size_max, ctl->o.burst, ctl->o.flaps, ctl->o.flap_ms,
	       ctl->o.restarts, ctl->o.kills,
	       ctl->o.mode == SOAK_MODE_RAW ? "ep1, ep2, ep0" : "ep1, ep2", ctl->o.stalls,
	       ctl->o.stall_ms, ctl->o.seed, ctl->dir);
	ctl->rng = ctl->o.seed | 1;
	ctl->t0 = soak_now();
	for (i = 0; i < SOAK_NB_PEERS; i++) {
		if (soak_spawn(ctl, i) != 0) {
			printf("rio-soak: error: cannot start peer %s\n", soak_ep_names[i]);
			goto stop;
		}
	}
	run_ok = soak_run_events(ctl) == 0;
stop:
	soak_kill_all(ctl);
	for (i = 0; i < SOAK_NB_PEERS && !run_ok; i++)
		soak_show_log(ctl, i);
	soak_report(ctl, soak_now() - ctl->t0, run_ok);
	soak_rm_runtime_dirs(ctl);
	ret = ctl->violations == 0 ? 0 : 1;
out:
	if (fabric)
		rte_pmd_rio_sim_fabric_destroy(ctl->fabric);
	if (ctl->sh != NULL)
		munmap(ctl->sh, sizeof(*ctl->sh));
	if (ctl->dir[0] != '\0' && (ret == 0 && !ctl->o.keep)) {
		for (i = 0; i < SOAK_NB_PEERS; i++) {
			unsigned int inc;

			for (inc = 0; inc < SOAK_MAX_INC; inc++) {
				snprintf(path, sizeof(path), "%s/%s.%u.log", ctl->dir,
					 soak_ep_names[i], inc);
				unlink(path);
			}
		}
		unlink(ctl->state);
		snprintf(path, sizeof(path), "%s/topology.ini", ctl->dir);
		unlink(path);
		rmdir(ctl->dir);
	} else if (ctl->dir[0] != '\0') {
		printf("rio-soak: logs and state kept in %s\n", ctl->dir);
	}
	free(ctl);
	return ret;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "peer") == 0) {
		argv[1] = argv[0];
		return soak_peer_main(argc - 1, argv + 1);
	}
	return soak_ctl_main(argc, argv);
}
