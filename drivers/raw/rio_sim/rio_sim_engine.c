/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Outbound messaging engines of the timing model: when the messages of one
 * outbound mailbox (and the doorbells of an endpoint) are on the wire.
 *
 * An engine sends its messages in the order they were posted. A message of
 * n bytes (a multiple of 8) is ceil(n / 256) segments of ssize 256, sent
 * back to back; each segment is answered by a response, and the message is
 * complete when the response to its last segment is back (RapidIO Part 2,
 * type 11 and type 13). Segments and responses reserve the links of their
 * paths (sim_path_carry()), the target answers response_latency after a
 * segment arrived, each switch adds hop_latency.
 *
 * (letter, mailbox, segment) identifies a segment among those a sender has
 * outstanding at a target (Part 2): a message may not start while the last
 * message with the same letter to the same mailbox of that target is
 * incomplete. Four letters thus allow four messages in flight per mailbox
 * and target; a sender that always uses one letter has one.
 *
 * A message the target refuses (RETRY for its first segment because the
 * mailbox is full, or ERROR) is not sent on: the engine waits for that
 * response before it starts anything else, and the sender resends.
 *
 * A target's reception resources are shared by all who send to it (Part 2:
 * RETRY lets many senders share few reception resources). With [fabric]
 * seg_bufs = N an endpoint has N inbound segment buffers: a segment holds
 * one from its arrival until the target answered it (response_latency
 * later). A segment that finds all N held, whichever segment of its message
 * it is, gets RETRY, and the engine resends that segment, not the message,
 * when the RETRY is back; the other segments go on. The message so arrives
 * (and completes) later, intact and once. Its first segment has been given a
 * mailbox buffer all the same: the message is accepted.
 *
 * Accepted messages hold a descriptor of the mailbox until they complete;
 * with all of them held, the mailbox takes nothing (back-pressure). The
 * process-local state here is the sender's own; what several senders share
 * (the links) is in shared memory.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_fabric.h"

/* Timing state towards one target endpoint. */
struct sim_engine_peer {
	uint32_t t;			/* target endpoint index */
	uint32_t gen;			/* route generation + 1 of the paths; 0: none yet */
	uint16_t destid;		/* the ID the paths lead to */
	uint16_t own;			/* our ID: where the responses go */
	bool back_ok;			/* the responses find their way back */
	uint64_t letter_done[RTE_RIO_MAX_LETTER];	/* each letter's last message completes */
	struct sim_path fwd;		/* to the target */
	struct sim_path back;		/* the responses' way back */
};

struct sim_engine {
	struct sim_fabric *f;
	uint32_t dev_index;		/* the sending endpoint */
	uint64_t order_ns;		/* start of the last message: later ones start later */
	uint64_t busy_ns;		/* a refused message's response is back then */
	uint64_t *done;			/* completion times of the messages in flight (FIFO) */
	uint32_t size;			/* descriptors: slots of done[] */
	uint32_t head, tail;		/* free-running FIFO positions */
	uint64_t completed, reported;
	uint64_t *seg_retries;		/* the sender's count of segments retried */
	struct sim_engine_peer **peers;	/* by target endpoint index, allocated on first use */
};

struct sim_engine *
sim_engine_create(struct sim_fabric *f, uint32_t dev_index, uint32_t entries,
		  uint64_t *seg_retries)
{
	struct sim_engine *e = calloc(1, sizeof(*e));

	if (e == NULL)
		return NULL;
	e->f = f;
	e->dev_index = dev_index;
	e->seg_retries = seg_retries;
	e->size = RTE_MAX(entries, 1u);
	e->done = calloc(e->size, sizeof(e->done[0]));
	e->peers = calloc(f->n_endpoints, sizeof(e->peers[0]));
	if (e->done == NULL || e->peers == NULL) {
		sim_engine_free(e);
		return NULL;
	}
	return e;
}

void
sim_engine_free(struct sim_engine *e)
{
	uint32_t i;

	if (e == NULL)
		return;
	for (i = 0; e->peers != NULL && i < e->f->n_endpoints; i++)
		free(e->peers[i]);
	free(e->peers);
	free(e->done);
	free(e);
}

/* Messages whose last response is back by @now leave the FIFO. */
static void
engine_reap(struct sim_engine *e, uint64_t now)
{
	while (e->head != e->tail && e->done[e->head % e->size] <= now) {
		e->head++;
		e->completed++;
	}
}

uint32_t
sim_engine_admit(struct sim_engine *e, uint64_t now)
{
	engine_reap(e, now);
	if (now < e->busy_ns)
		return 0;
	return e->size - (e->tail - e->head);
}

uint64_t
sim_engine_completions(struct sim_engine *e, uint64_t now)
{
	uint64_t n;

	engine_reap(e, now);
	n = e->completed - e->reported;
	e->reported = e->completed;
	return n;
}

/* (Re)compute the paths towards endpoint device @tdev. */
static void
engine_paths(struct sim_engine *e, struct sim_engine_peer *p, uint32_t tdev, uint32_t gen,
	     uint16_t destid, uint16_t own)
{
	uint32_t at, back_at;

	p->gen = 0;
	if (sim_path_probe(e->f, e->dev_index, destid, false, &at, &p->fwd) != 0 || at != tdev)
		return;
	p->back_ok = sim_path_probe(e->f, tdev, own, true, &back_at, &p->back) == 0 &&
		back_at == e->dev_index;
	p->destid = destid;
	p->own = own;
	p->gen = gen;
}

struct sim_engine_peer *
sim_engine_peer(struct sim_engine *e, uint32_t t, uint16_t destid, uint16_t own)
{
	struct sim_engine_peer *p;
	uint32_t gen;

	if (t >= e->f->n_endpoints)
		return NULL;
	p = e->peers[t];
	if (unlikely(p == NULL)) {
		p = calloc(1, sizeof(*p));
		if (p == NULL)
			return NULL;
		e->peers[t] = p;
	}
	p->t = t;
	/* Acquire pairs with the release that publishes a route change. */
	gen = (uint32_t)__atomic_load_n(&e->f->hdr->route_gen, __ATOMIC_ACQUIRE) + 1;
	if (gen == 0)
		gen = 1;
	if (unlikely(p->gen != gen || p->destid != destid || p->own != own))
		engine_paths(e, p, e->f->eps[t].dev_index, gen, destid, own);
	return p->gen != 0 ? p : NULL;
}

/* A switch crossing and a target's answer, as the fabric is set now. */
static inline uint64_t
engine_hop_ns(const struct sim_engine *e)
{
	return __atomic_load_n(&e->f->hdr->hop_ns, __ATOMIC_RELAXED);
}

static inline uint64_t
engine_proc_ns(const struct sim_engine *e)
{
	return __atomic_load_n(&e->f->hdr->proc_ns, __ATOMIC_RELAXED);
}

/* When a message with @letter could start at @now. */
static inline uint64_t
engine_start(const struct sim_engine *e, const struct sim_engine_peer *p, uint64_t now,
	     uint8_t letter)
{
	uint64_t s = RTE_MAX(now, RTE_MAX(e->order_ns, e->busy_ns));

	return RTE_MAX(s, p->letter_done[letter & (RTE_RIO_MAX_LETTER - 1)]);
}

/*
 * Responses to a burst whose last packet arrived at @arrival: the target
 * answers each packet @proc after it came in, so the first ones leave
 * before the last; they go back as one burst. @return when the last is back.
 */
static uint64_t
engine_answer(struct sim_engine *e, const struct sim_engine_peer *p, uint64_t now,
	      uint64_t arrival, const struct sim_burst *rsp)
{
	uint64_t t = arrival + engine_proc_ns(e);
	uint64_t early = p->back.n > 0 ?
		((uint64_t)(rsp->n - 1) * rsp->bytes * p->back.ps_per_byte[0] + 999) / 1000 : 0;

	return sim_path_carry(e->f, &p->back, engine_hop_ns(e), now,
			      t > early ? t - early : t, rsp);
}

/* Take an inbound segment buffer of @ep free at @at, held until @until. */
static bool
engine_seg_take(struct sim_shm_endpoint *ep, uint32_t nbufs, uint64_t at, uint64_t until)
{
	uint32_t i;
	uint64_t free_at;

	for (i = 0; i < nbufs; i++) {
		free_at = __atomic_load_n(&ep->seg_free[i], __ATOMIC_RELAXED);
		while (free_at <= at)
			if (__atomic_compare_exchange_n(&ep->seg_free[i], &free_at, until, false,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				return true;
	}
	return false;
}

/*
 * The segments of a message (@req, the last arriving at *@arrival) meet
 * the target's @nbufs segment buffers, in the order they arrive. A segment
 * refused (RETRY, answered response_latency after it arrived) is resent
 * when that response is back. *@arrival becomes when the last segment was
 * taken, *@done when the last response (DONE) is back.
 */
static void
engine_seg_buffers(struct sim_engine *e, const struct sim_engine_peer *p, uint64_t now,
		   uint32_t nbufs, const struct sim_burst *req, uint64_t *arrival, uint64_t *done)
{
	struct sim_shm_endpoint *tep = &e->f->eps[p->t];
	uint64_t at[SIM_MSG_MAX_SEGS], proc = engine_proc_ns(e), hop = engine_hop_ns(e);
	uint64_t gap = 0, last_in = *arrival, last_done = *done, r;
	uint8_t ds = e->f->devid_size;
	struct sim_burst seg = { 1, req->bytes, req->bytes };
	struct sim_burst rsp = { 1, 0, 0 };
	uint32_t n = RTE_MIN(req->n, (uint32_t)SIM_MSG_MAX_SEGS), left = n, j, k;
	bool retried[SIM_MSG_MAX_SEGS] = { false };

	rsp.bytes = rsp.last_bytes = sim_pkt_wire_bytes(ds, SIM_RSP_HDR(ds), 0);
	/* Back to back on the target's link: a full segment's serialization apart. */
	if (p->fwd.n > 0)
		gap = ((uint64_t)req->bytes * p->fwd.ps_per_byte[p->fwd.n - 1] + 999) / 1000;
	for (j = 0; j < n; j++)
		at[j] = *arrival - (uint64_t)(n - 1 - j) * gap;
	while (left > 0) {
		/* The segment that arrives next. */
		for (k = UINT32_MAX, j = 0; j < n; j++)
			if (at[j] != UINT64_MAX && (k == UINT32_MAX || at[j] < at[k]))
				k = j;
		if (engine_seg_take(tep, nbufs, at[k], at[k] + proc)) {
			if (retried[k]) {
				last_in = RTE_MAX(last_in, at[k]);
				last_done = RTE_MAX(last_done, sim_path_carry(e->f, &p->back, hop,
						     now, at[k] + proc, &rsp));
			}
			at[k] = UINT64_MAX;
			left--;
			continue;
		}
		/* RETRY: back to the sender, which resends this segment at once. */
		(*e->seg_retries)++;
		retried[k] = true;
		seg.bytes = seg.last_bytes = k == n - 1 ? req->last_bytes : req->bytes;
		r = sim_path_carry(e->f, &p->back, hop, now, at[k] + proc, &rsp);
		at[k] = RTE_MAX(sim_path_carry(e->f, &p->fwd, hop, now, r, &seg), at[k] + 1);
	}
	*arrival = last_in;
	*done = last_done;
}

uint64_t
sim_engine_send(struct sim_engine *e, struct sim_engine_peer *p, uint64_t now, uint8_t letter,
		uint32_t len)
{
	struct sim_burst req, rsp;
	uint64_t s = engine_start(e, p, now, letter), arrival, done;
	uint32_t nbufs;

	sim_msg_bursts(e->f->devid_size, len, &req, &rsp);
	arrival = sim_path_carry(e->f, &p->fwd, engine_hop_ns(e), now, s, &req);
	e->order_ns = s;
	if (unlikely(!p->back_ok)) {
		/* No response comes: the sender fails it at its response timeout. */
		p->letter_done[letter & (RTE_RIO_MAX_LETTER - 1)] =
			s + sim_resp_timeout_ns(e->f, e->dev_index);
		return arrival;
	}
	done = engine_answer(e, p, now, arrival, &rsp);
	nbufs = __atomic_load_n(&e->f->hdr->seg_bufs, __ATOMIC_RELAXED);
	if (unlikely(nbufs != 0))
		engine_seg_buffers(e, p, now, RTE_MIN(nbufs, (uint32_t)SIM_SEG_BUFS_MAX), &req,
				   &arrival, &done);
	p->letter_done[letter & (RTE_RIO_MAX_LETTER - 1)] = done;
	if (e->tail - e->head < e->size)
		e->done[e->tail++ % e->size] = done;
	return arrival;
}

void
sim_engine_refused(struct sim_engine *e, struct sim_engine_peer *p, uint64_t now, uint8_t letter,
		   uint32_t len)
{
	struct sim_burst req, rsp;
	uint64_t s = engine_start(e, p, now, letter), arrival;

	/* Only the first segment went: its response says RETRY or ERROR. */
	sim_msg_bursts(e->f->devid_size, len, &req, &rsp);
	if (req.n > 1)
		req.last_bytes = req.bytes;
	req.n = 1;
	rsp.n = 1;
	arrival = sim_path_carry(e->f, &p->fwd, engine_hop_ns(e), now, s, &req);
	e->order_ns = s;
	e->busy_ns = p->back_ok ? engine_answer(e, p, now, arrival, &rsp) :
		s + sim_resp_timeout_ns(e->f, e->dev_index);
}

uint64_t
sim_engine_timeout_at(const struct sim_engine *e, uint64_t now)
{
	uint64_t s = RTE_MAX(now, RTE_MAX(e->order_ns, e->busy_ns));

	return s + sim_resp_timeout_ns(e->f, e->dev_index);
}

void
sim_engine_doorbell(struct sim_engine *e, struct sim_engine_peer *p, uint64_t now,
		    uint64_t *arrival, uint64_t *done)
{
	uint8_t ds = e->f->devid_size;
	struct sim_burst req = { 1, 0, 0 }, rsp = { 1, 0, 0 };
	uint64_t s = RTE_MAX(now, e->order_ns);

	e->order_ns = s;
	req.bytes = req.last_bytes = sim_pkt_wire_bytes(ds, SIM_DBELL_HDR(ds), 0);
	rsp.bytes = rsp.last_bytes = sim_pkt_wire_bytes(ds, SIM_RSP_HDR(ds), 0);
	*arrival = sim_path_carry(e->f, &p->fwd, engine_hop_ns(e), now, s, &req);
	*done = p->back_ok ? engine_answer(e, p, now, *arrival, &rsp) : 0;
}

bool
sim_engine_peer_answers(const struct sim_engine_peer *p)
{
	return p->back_ok;
}
