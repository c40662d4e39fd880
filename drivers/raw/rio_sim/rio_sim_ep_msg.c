/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Messages of a claimed endpoint: outbound and inbound mailboxes, send,
 * receive (copy and in place).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memcpy.h>

#include "rio_sim_fabric.h"
#include "rio_sim_ring.h"
#include "rio_sim_ep.h"

/* ------------------------------------------------------------------ */
/* Messages                                                           */

int
sim_ep_open_outb_mbox(struct sim_ep *ep, uint8_t mbox, uint32_t entries)
{
	if (mbox >= RTE_RIO_MAX_MBOX || !sim_ep_entries_valid(entries))
		return -EINVAL;
	if (ep->tx[mbox].open)
		return -EBUSY;
	return sim_ep_tx_init(ep, &ep->tx[mbox], true, entries);
}

void
sim_ep_close_outb_mbox(struct sim_ep *ep, uint8_t mbox)
{
	if (mbox >= RTE_RIO_MAX_MBOX || !ep->tx[mbox].open)
		return;
	sim_ep_tx_free(ep, &ep->tx[mbox]);
}

/*
 * Give back to the senders, in ring order, the slots consumed since
 * held_pos whose messages are no longer held. @return true when none is
 * held any more.
 */
static __rte_always_inline bool
sim_ep_rx_reclaim(struct sim_ep_rx *rx, struct sim_ring *ring)
{
	uint64_t p = rx->held_pos;

	while (p != ring->cons) {
		/* Pairs with the release store in sim_ep_inplace_free(). */
		if (__atomic_load_n(&rx->held[p & (ring->size - 1)].held, __ATOMIC_ACQUIRE))
			break;
		/* Pairs with the producers' acquire load in sim_ring_claim(). */
		sim_ring_store_release(sim_ring_seq(ring, p), p + ring->size);
		p++;
	}
	rx->held_pos = p;
	return p == ring->cons;
}

/*
 * The oldest message received in place is still held. Every
 * SIM_EP_HELD_CHECK such calls, look whether its holder is alive: the
 * messages of a holder that is gone (a process killed while it held them;
 * its mbufs went with it) are taken back, so that the ring moves on.
 */
static void
sim_ep_rx_held_dead(struct sim_ep *ep, struct sim_ep_rx *rx, const struct sim_ring *ring)
{
	uint32_t holder, mask = ring->size - 1, n = 0;
	uint64_t p;

	if (likely(++rx->held_polls < SIM_EP_HELD_CHECK))
		return;
	rx->held_polls = 0;
	holder = __atomic_load_n(&rx->held[rx->held_pos & mask].held, __ATOMIC_ACQUIRE);
	if (holder == 0 || sim_token_alive(ep->f, holder))
		return;
	for (p = rx->held_pos; p != ring->cons; p++) {
		uint32_t exp = holder;

		/* Pairs with the acquire load in sim_ep_rx_reclaim(). */
		if (__atomic_compare_exchange_n(&rx->held[p & mask].held, &exp, 0, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			n++;
	}
	ep->st.msg_rx_held_dead += n;
	SIM_LOG(NOTICE, "%s: mailbox %u: %u messages held in place by process %d, which is gone, taken back",
		ep->data_name, (unsigned int)(rx - ep->rx), n, (int)sim_token_pid(ep->f, holder));
}

/*
 * Consumer: done with the slot at the consumer position, nothing of it
 * held. With held slots before it, it waits for them (ring order).
 */
static __rte_always_inline void
sim_ep_rx_skip(struct sim_ep_rx *rx, struct sim_ring *ring)
{
	if (likely(rx->held_pos == ring->cons)) {
		sim_ring_free_slot(ring);
		rx->held_pos = ring->cons;
	} else {
		rx->held[ring->cons & (ring->size - 1)].held = 0;
		ring->cons++;
	}
}

/* Messages published in an inbound ring and not received yet (slow: walks the ring). */
uint32_t
sim_ep_rx_pending(const struct sim_ep_rx *rx)
{
	uint32_t n = 0;

	while (n < rx->ring.size &&
	       sim_ring_load_acquire(sim_ring_seq(&rx->ring, rx->ring.cons + n)) ==
	       rx->ring.cons + n + 1)
		n++;
	return n;
}

/*
 * Messages received in place and not yet released, by any process of the
 * group (slow: walks the ring). The owner gives back what was released.
 */
uint32_t
sim_ep_rx_held_count(struct sim_ep_rx *rx, bool owner)
{
	uint32_t n = 0;
	uint64_t p;

	if (rx->held == NULL)
		return 0;
	/* A secondary's view only looks: the shared receive state is not its own. */
	if (owner)
		sim_ep_rx_reclaim(rx, &rx->ring);
	for (p = rx->held_pos; p != rx->ring.cons; p++)
		n += __atomic_load_n(&rx->held[p & (rx->ring.size - 1)].held,
				     __ATOMIC_ACQUIRE) != 0;
	return n;
}

/*
 * A mailbox that takes messages only into posted buffers (as a controller
 * that writes each message straight into a free buffer of the host, taken
 * at its first segment) lets senders claim one position per posted buffer
 * not used yet: the messages in its ring take the first of them. Others
 * let the ring alone limit them.
 */
static void
sim_ep_rx_limit(struct sim_ep_rx *rx)
{
	uint64_t limit = UINT64_MAX;

	if (rx->ring_hdr == NULL)
		return;
	if (rx->posted_only)
		limit = rx->ring.cons + (rx->open ? rx->buf_tail - rx->buf_head : 0);
	sim_ring_set_limit(&rx->ring, limit);
}

int
sim_ep_open_inb_mbox(struct sim_ep *ep, uint8_t mbox, uint32_t entries)
{
	struct sim_ep_rx *rx;

	if (mbox >= RTE_RIO_MAX_MBOX || !sim_ep_entries_valid(entries))
		return -EINVAL;
	/* A view uses the mailbox as the owner opened it (or will): nothing to do. */
	if (!ep->owner)
		return 0;
	rx = &ep->rx[mbox];
	if (rx->open)
		return -EBUSY;
	/* Shared receive state holds its FIFO in DPDK memory, for every process. */
	if (ep->sh != NULL)
		rx->bufs = rte_zmalloc("rio_sim_rx_bufs", entries * sizeof(rx->bufs[0]), 0);
	else
		rx->bufs = calloc(entries, sizeof(rx->bufs[0]));
	if (rx->bufs == NULL)
		return -ENOMEM;
	rx->buf_size = entries;
	rx->buf_len = RTE_RIO_MAX_MSG_SIZE;
	rx->buf_head = 0;
	rx->buf_tail = 0;
	memset(&rx->stall, 0, sizeof(rx->stall));
	rx->held_polls = 0;
	/* What the ring kept since the mailbox was closed is delivered now. */
	rx->open = true;
	sim_ep_rx_limit(rx);
	/* Pairs with the senders' acquire load in sim_ep_peer_get(). */
	__atomic_fetch_or(&ep->shm->mbox_open, 1u << mbox, __ATOMIC_RELEASE);
	return 0;
}

void
sim_ep_close_inb_mbox(struct sim_ep *ep, uint8_t mbox)
{
	struct sim_ep_rx *rx;

	if (!ep->owner || mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open)
		return;
	rx = &ep->rx[mbox];
	/*
	 * New messages are refused (ERROR). A send that began before still
	 * lands in the ring: the ring keeps it, and every message not received
	 * yet, for the next time the mailbox is opened (a message accepted is
	 * never dropped here). Only the posted buffers are forgotten.
	 */
	__atomic_fetch_and(&ep->shm->mbox_open, ~(1u << mbox), __ATOMIC_RELEASE);
	if (ep->sh != NULL)
		rte_free(rx->bufs);
	else
		free(rx->bufs);
	rx->bufs = NULL;
	rx->buf_size = 0;
	rx->open = false;
	sim_ep_rx_limit(rx);
}

/*
 * Copy message bytes between a buffer and a slot or its overflow block: the
 * sender's emulated DMA into the target's ring and the receiver's into its
 * posted buffer. rte_memcpy() is inlined, but bound at build time to the ISA
 * of the DPDK headers' -march (corei7: 16-byte SSE moves with Debian's
 * DPDK); the C library's memcpy() picks the widest vector unit at run time,
 * which halves the instructions of a long copy. Measured (alternating
 * rounds, rionet/memif in the same round; doc/guides/perf):
 *  - between two processes, 512 bytes, sender: rte_memcpy() 0.96 to 1.10,
 *    glibc 0.67 to 0.99 (6 of 6 rounds); the slot's lines were last read
 *    by the other core. From 1024 bytes on, both alike.
 *  - one testpmd forwarding, 1500 bytes: glibc for both copies from 1024
 *    bytes on was ahead of rte_memcpy() for the receiver's in 9 of 10
 *    rounds (median ratio 1.09 against 1.01); between two processes it
 *    measured alike at 1500 bytes and ahead in 3 of 4 rounds at 4096.
 * From 32 to 64 bytes (minimum-size frames) two overlapping 32-byte moves
 * skip rte_memcpy()'s dispatch on size and alignment: 9 instructions less
 * per sent 64-byte frame (devtools/callgrind-fwd.sh). The copy writes
 * exactly len bytes: a posted buffer is never written past the message.
 */
#define SIM_EP_LONG_COPY	1024

static __rte_always_inline void
sim_ep_msg_copy(void *dst, const void *src, uint16_t len)
{
	if (len >= 32 && len <= 64) {
		rte_mov32(dst, src);
		rte_mov32(RTE_PTR_ADD(dst, len - 32), RTE_PTR_ADD(src, len - 32));
	} else if (len < SIM_EP_LONG_COPY) {
		rte_memcpy(dst, src, len);
	} else {
		memcpy(dst, src, len);
	}
}

/*
 * Copy one message into the claimed slot s at position p of ring r and, past
 * SIM_SLOT_INLINE bytes, the slot's overflow block. On the wire a payload is
 * whole double-words: the message is padded with zeros to a multiple of 8
 * bytes, and that is the length the receiver gets. @arrival: when its last
 * segment arrives (timing model), 0 without.
 */
static __rte_always_inline void
sim_ep_fill_slot(const struct sim_ring *r, uint64_t p, struct sim_shm_msg_slot *s,
		 const struct rte_rio_msg *m, uint16_t src, uint8_t mbox, uint64_t arrival)
{
	uint16_t len = m->len;
	uint8_t *end, *ovf;

	s->len = RTE_ALIGN_CEIL(len, 8);
	s->src = src;
	s->mbox = mbox;
	s->letter = m->letter;
	s->arrival_ns = arrival;
	if (likely(len <= SIM_SLOT_INLINE)) {
		sim_ep_msg_copy(s->data, m->buf, len);
		end = s->data + len;
	} else {
		sim_ep_msg_copy(s->data, m->buf, SIM_SLOT_INLINE);
		ovf = sim_ring_ovf(r, p);
		sim_ep_msg_copy(ovf, (const uint8_t *)m->buf + SIM_SLOT_INLINE,
				    len - SIM_SLOT_INLINE);
		end = ovf + len - SIM_SLOT_INLINE;
	}
	/* SIM_SLOT_INLINE is a multiple of 8: the padding stays in one part. */
	if (len & 7)
		memset(end, 0, 8 - (len & 7));
}

/* Slots claimed with one CAS at most: their addresses are kept on the stack. */
#define SIM_EP_SEND_CLAIM	64u

/*
 * When a request that no response answers fails: at its response timeout,
 * never at once (the sender waits for it, as for maintenance). With the
 * timing model the request starts behind what its mailbox queued.
 */
uint64_t
sim_ep_timeout_at(struct sim_ep *ep, const struct sim_engine *eng, uint64_t now)
{
	if (eng != NULL)
		return sim_engine_timeout_at(eng, now);
	return sim_now_ns() + sim_resp_timeout_ns(ep->f, ep->dev_index);
}

/*
 * Timing model: the target of a run cannot answer (its responses find no
 * way back). The first message is delivered all the same (if its mailbox
 * has room); its sender hears nothing. @return when the sender fails it.
 */
static uint64_t
sim_ep_send_unanswered(struct sim_ep *ep, struct sim_ep_tx *tx, struct sim_engine_peer *ept,
		       struct sim_ring *ring, struct rte_rio_msg *m, uint16_t src, uint8_t mbox,
		       uint64_t now)
{
	uint64_t p, fail_at = sim_engine_timeout_at(tx->eng, now);
	struct sim_shm_msg_slot *slot;

	if (sim_ring_claim(ring, 1, &p) == 1) {
		slot = sim_ring_slot(ring, p);
		sim_ep_fill_slot(ring, p, slot, m, src, mbox,
				 sim_engine_send(tx->eng, ept, now, m->letter,
						 RTE_ALIGN_CEIL((uint32_t)m->len, 8u)));
		sim_ring_publish_at(slot, p);
	}
	return fail_at;
}

/*
 * Send a burst; @timed (a constant: two versions are built) applies the
 * timing model. Without it the fast path is a route lookup, one claim per
 * run of one destination, the copies and the release stores.
 */
static __rte_always_inline uint16_t
sim_ep_send_burst(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n,
		  const bool timed)
{
	struct sim_ep_route *route;
	struct sim_ep_tx *tx;
	struct sim_ep_peer *peer = NULL;
	struct sim_engine_peer *ept = NULL;
	struct sim_ring *ring, r;
	struct sim_shm_msg_slot *slots[SIM_EP_SEND_CLAIM];
	struct sim_shm_sender *rec;
	uint16_t i = 0, run, src, destid;
	uint32_t k, c, walked, room = UINT32_MAX;
	uint64_t first, bytes = 0, segs = 0, now = 0, fail_at = 0;
	bool busy = false;
	int t, ret = 0;

	tx = &ep->tx[mbox];
	rec = sim_sender(ep->f, tx->sender);
	src = sim_ep_own_destid(ep);
	if (timed) {
		now = sim_now_ns();
		/* Every descriptor is in flight, or a refused message's response is awaited. */
		room = sim_engine_admit(tx->eng, now);
		if (room == 0) {
			ret = -EAGAIN;
			busy = true;
			goto out;
		}
	}
	while (i < n) {
		/*
		 * Messages i..i+run-1 go to the same destination. Lengths,
		 * buffers and letters were checked by lib/rio (the op's contract).
		 */
		destid = msgs[i].destid;
		for (run = i + 1; run < n && msgs[run].destid == destid; run++)
			;
		run -= i;
		t = sim_ep_resolve(ep, tx, destid, &route, &walked);
		if (unlikely(t < 0)) {
			ret = t;
			break;
		}
		if (timed) {
			ept = sim_engine_peer(tx->eng, t, destid, src);
			if (unlikely(ept == NULL)) {
				ret = -ETIMEDOUT;
				break;
			}
		}
		/* A refused message still crossed the fabric (ERROR or RETRY response). */
		ret = sim_ep_peer_get(ep, tx, t, mbox, &peer);
		if (unlikely(ret < 0)) {
			sim_ep_count_path(ep, route, 1 - walked);
			if (timed && ret == -EIO)
				sim_engine_refused(tx->eng, ept, now, msgs[i].letter,
						   RTE_ALIGN_CEIL(msgs[i].len, 8));
			break;
		}
		ring = &peer->rings[mbox];
		/* Receivers wait for what we claim until we publish it (or are gone). */
		sim_sender_start(rec, sim_ring_id(t, mbox));
		if (timed && unlikely(!sim_engine_peer_answers(ept))) {
			sim_ep_count_path(ep, route, 1 - walked);
			fail_at = sim_ep_send_unanswered(ep, tx, ept, ring, &msgs[i], src, mbox,
							 now);
			ret = -ETIMEDOUT;
			break;
		}
		k = sim_ring_claim(ring, RTE_MIN(RTE_MIN((uint32_t)run, SIM_EP_SEND_CLAIM), room),
				   &first);
		if (unlikely(k == 0)) {
			sim_ep_count_path(ep, route, 1 - walked);
			ret = sim_ep_peer_full(ep, peer, t);
			if (ret == -EAGAIN) {
				sim_ring_counter_add(&peer->ring_hdr[mbox]->retries, 1);
				/* RETRY for the first segment: the engine waits for it. */
				if (timed)
					sim_engine_refused(tx->eng, ept, now, msgs[i].letter,
							   RTE_ALIGN_CEIL(msgs[i].len, 8));
			}
			break;
		}
		sim_ep_count_path(ep, route, k - walked);
		/*
		 * A local copy of the geometry stays in registers: the slot
		 * copies (char stores) would make the compiler reload it.
		 */
		r = *ring;
		/* msgs[].mbox and status were set by lib/rio. */
		for (c = 0; c < k; c++) {
			uint32_t len = RTE_ALIGN_CEIL((uint32_t)msgs[i + c].len, 8u);

			slots[c] = sim_ring_slot(&r, first + c);
			sim_ep_fill_slot(&r, first + c, slots[c], &msgs[i + c], src, mbox,
					 timed ? sim_engine_send(tx->eng, ept, now,
								 msgs[i + c].letter, len) : 0);
			bytes += len;
			segs += len > SIM_MSG_SEG_SIZE ?
				(len + SIM_MSG_SEG_SIZE - 1) / SIM_MSG_SEG_SIZE : 1;
		}
		/*
		 * Publish the run last slot first. A receiver that keeps up polls
		 * the first slot of the run; publishing in order would hand it
		 * the run one slot at a time, each poll pulling the header line
		 * being written to the other core and back (per message). This
		 * way it takes the whole run at once: one exchange per run.
		 */
		for (c = k; c > 0; c--)
			sim_ring_publish_at(slots[c - 1], first + c - 1);
		i += k;
		ret = 0;
		if (timed) {
			room -= k;
			if (room == 0 && i < n) {
				/* Every descriptor is in flight: back-pressure. */
				ret = -EAGAIN;
				busy = true;
				break;
			}
		}
	}
out:
	sim_sender_done(rec);
	ep->st.msg_tx += i;
	ep->st.msg_tx_bytes += bytes;
	ep->st.msg_tx_segs += segs;
	tx->accepted += i;
	if (unlikely(i < n)) {
		/* No response: the request fails at its response timeout, not now. */
		if (ret == -ETIMEDOUT)
			sim_wait_until(fail_at != 0 ? fail_at :
				       sim_ep_timeout_at(ep, tx->eng, now));
		msgs[i].status = ret;
		if (busy)
			ep->st.msg_tx_busy++;
		else if (ret == -EAGAIN)
			ep->st.msg_tx_retry++;
		else
			ep->st.msg_tx_error++;
	}
	return i;
}

uint16_t
sim_ep_send(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	if (unlikely(mbox >= RTE_RIO_MAX_MBOX || !ep->tx[mbox].open)) {
		if (n > 0)
			msgs[0].status = -EINVAL;
		return 0;
	}
	if (unlikely(ep->tx[mbox].eng != NULL))
		return sim_ep_send_burst(ep, mbox, msgs, n, true);
	return sim_ep_send_burst(ep, mbox, msgs, n, false);
}

int64_t
sim_ep_outb_completion(struct sim_ep *ep, uint8_t mbox)
{
	struct sim_ep_tx *tx;
	int64_t done;

	if (mbox >= RTE_RIO_MAX_MBOX || !ep->tx[mbox].open)
		return -EINVAL;
	tx = &ep->tx[mbox];
	/* Timing model: complete once the response to the last segment is back. */
	if (tx->eng != NULL)
		return (int64_t)sim_engine_completions(tx->eng, sim_now_ns());
	done = tx->accepted - tx->reported;
	tx->reported = tx->accepted;
	return done;
}

int
sim_ep_set_inb_buf_size(struct sim_ep *ep, uint8_t mbox, uint16_t size)
{
	struct sim_ep_rx *rx;

	if (mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open || size < RTE_RIO_MIN_MSG_SIZE ||
	    size > RTE_RIO_MAX_MSG_SIZE)
		return -EINVAL;
	rx = &ep->rx[mbox];
	if (rx->buf_tail != rx->buf_head)
		return -EBUSY;
	rx->buf_len = size;
	return 0;
}

uint16_t
sim_ep_add_inb_buffers(struct sim_ep *ep, uint8_t mbox, void * const *bufs, uint16_t n)
{
	struct sim_ep_rx *rx;
	uint32_t room, tail, first;

	if (mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open)
		return 0;
	rx = &ep->rx[mbox];
	room = rx->buf_size - (rx->buf_tail - rx->buf_head);
	if (n > room)
		n = room;
	/* lib/rio passes no NULL buffer. Copy in at most two runs (ring wrap). */
	tail = rx->buf_tail & (rx->buf_size - 1);
	first = RTE_MIN((uint32_t)n, rx->buf_size - tail);
	memcpy(&rx->bufs[tail], bufs, first * sizeof(bufs[0]));
	if (first < n)
		memcpy(&rx->bufs[0], &bufs[first], (n - first) * sizeof(bufs[0]));
	rx->buf_tail += n;
	if (unlikely(rx->posted_only))
		sim_ep_rx_limit(rx);
	return n;
}

int
sim_ep_set_mbox_posted(struct sim_ep *ep, uint32_t mask)
{
	unsigned int m;

	if (!ep->owner || ep->data == NULL)
		return -EPERM;
	if (mask >= 1u << RTE_RIO_MAX_MBOX)
		return -EINVAL;
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		ep->rx[m].posted_only = (mask >> m) & 1;
		sim_ep_rx_limit(&ep->rx[m]);
	}
	return 0;
}

uint32_t
sim_ep_mbox_posted(const struct sim_ep *ep)
{
	uint32_t mask = 0;
	unsigned int m;

	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		mask |= (uint32_t)ep->rx[m].posted_only << m;
	return mask;
}

/*
 * The slot at the consumer position of @r is claimed but not published.
 * Once it has stayed so for SIM_EP_STALL_SCAN_MS, and every as long after,
 * ask the sender records: true when no live sender claims slots of ring
 * @ring_id and the slot is still not published, that is, nobody will ever
 * publish it (its producer is gone, or someone else moved the producer
 * head): skip it. A live sender, however long it is stopped, keeps it.
 */
static bool
sim_ep_stall_dead(const struct sim_fabric *f, const struct sim_ring *r, uint32_t ring_id,
		  struct sim_ep_stall *st, uint64_t *waits)
{
	uint64_t now = rte_get_timer_cycles();

	if (st->since == 0 || st->pos != r->cons) {
		st->pos = r->cons;
		st->since = now | 1;
		st->waited = false;
		return false;
	}
	if (now - st->since < rte_get_timer_hz() / 1000 * SIM_EP_STALL_SCAN_MS)
		return false;
	st->since = now | 1;
	if (sim_sender_claiming(f, ring_id)) {
		if (!st->waited && waits != NULL)
			(*waits)++;
		st->waited = true;
		return false;
	}
	/* The sender may have published and left since we looked at the slot. */
	return !sim_ring_published(r);
}

/*
 * Every SIM_EP_STALL_CHECK empty polls of a ring: repair a producer head
 * that someone moved outside the ring, or, when the consumer position is
 * claimed but not published, tell whether to skip it (sim_ep_stall_dead()).
 */
enum sim_ep_idle
sim_ep_ring_idle(const struct sim_fabric *f, struct sim_ring *r, uint32_t ring_id,
		 struct sim_ep_stall *st, uint64_t *waits)
{
	if (likely(++st->polls < SIM_EP_STALL_CHECK))
		return SIM_EP_IDLE_OK;
	st->polls = 0;
	if (sim_ring_repair_prod_head(r))
		return SIM_EP_IDLE_REPAIRED;
	if (!sim_ring_claimed_unpublished(r)) {
		st->since = 0;
		return SIM_EP_IDLE_OK;
	}
	if (!sim_ep_stall_dead(f, r, ring_id, st, waits))
		return SIM_EP_IDLE_OK;
	st->since = 0;
	return SIM_EP_IDLE_SKIP;
}

/*
 * Another process of the fabric may have written over the header of our
 * data segment: senders mapping it from then on would find it invalid and
 * get ERROR (-EIO) for as long as it stays so. The owner knows every field:
 * put back what differs. @return true if the header was repaired.
 */
static bool
sim_ep_data_hdr_repair(struct sim_ep *ep)
{
	struct sim_shm_data_hdr *data = ep->data;

	if (likely(sim_ep_data_hdr_ok(data, ep->ep_index, ep->generation, ep->entries) &&
		   data->instance == ep->f->instance))
		return false;
	sim_ep_data_hdr_write(ep, data, ep->data_size);
	return true;
}

/*
 * Timing model: a message is received once its last segment has arrived.
 * @now: a clock reading of this call, 0 until the first is needed. An
 * arrival time further ahead than any sender schedules is garbage: taken.
 */
#define SIM_EP_ARRIVAL_MAX_AHEAD_NS	(10ull * 1000000000ull)

static __rte_always_inline bool
sim_ep_msg_arrived(const struct sim_shm_msg_slot *s, uint64_t *now)
{
	uint64_t at = s->arrival_ns;

	if (likely(at <= *now))
		return true;
	*now = sim_now_ns();
	return at <= *now || at - *now > SIM_EP_ARRIVAL_MAX_AHEAD_NS;
}

/*
 * The slot at the consumer position of @ring (rx's local copy): READY, EMPTY
 * (stop), or BAD, counted, for the caller to skip; a slot claimed that
 * nobody will publish is BAD too (sim_ep_ring_idle()). With the timing
 * model (@now not NULL) a message not arrived yet is EMPTY.
 */
static __rte_always_inline enum sim_ring_state
sim_ep_rx_peek(struct sim_ep *ep, struct sim_ep_rx *rx, struct sim_ring *ring, uint8_t mbox,
	       struct sim_shm_msg_slot **slot, uint64_t *now)
{
	enum sim_ring_state state;
	enum sim_ep_idle idle;
	void *p;

	state = sim_ring_peek(ring, &p);
	*slot = p;
	if (likely(state == SIM_RING_READY)) {
		if (now != NULL && !sim_ep_msg_arrived(*slot, now))
			return SIM_RING_EMPTY;
		return state;
	}
	if (state == SIM_RING_EMPTY) {
		rx->ring.cons = ring->cons;
		idle = sim_ep_ring_idle(ep->f, &rx->ring, sim_ring_id(ep->ep_index, mbox),
					&rx->stall, &ep->st.msg_rx_wait_sender);
		/* The ring's checks ran (they reset the count): the segment's header too. */
		if (unlikely(rx->stall.polls == 0) && sim_ep_data_hdr_repair(ep))
			ep->st.msg_rx_bad_index++;
		if (likely(idle == SIM_EP_IDLE_OK))
			return SIM_RING_EMPTY;
		if (idle == SIM_EP_IDLE_REPAIRED) {
			ep->st.msg_rx_bad_index++;
			return SIM_RING_EMPTY;
		}
		state = SIM_RING_BAD;
	}
	if (unlikely(state == SIM_RING_BAD))
		ep->st.msg_rx_bad++;
	return state;
}

/*
 * Read the header of published slot @s once and check the local copies:
 * @return its length, or 0 when it cannot be delivered, counted as too long
 * (a valid message longer than the longest deliverable one, @span +
 * RTE_RIO_MIN_MSG_SIZE, which is within the message size bounds: one
 * unsigned compare covers both) or as bad.
 */
static __rte_always_inline uint16_t
sim_ep_rx_check(struct sim_ep *ep, struct sim_shm_msg_slot *s, uint8_t mbox, uint16_t span,
		uint8_t *letter)
{
	uint16_t len = s->len;
	uint8_t slot_mbox = s->mbox;

	*letter = s->letter;
	if (likely((uint16_t)(len - RTE_RIO_MIN_MSG_SIZE) <= span && slot_mbox == mbox &&
		   *letter < RTE_RIO_MAX_LETTER))
		return len;
	if (len > span + RTE_RIO_MIN_MSG_SIZE && len <= RTE_RIO_MAX_MSG_SIZE &&
	    slot_mbox == mbox && *letter < RTE_RIO_MAX_LETTER)
		ep->st.msg_rx_too_long++;
	else
		ep->st.msg_rx_bad++;
	return 0;
}

/* Fill the descriptor of a delivered message. */
static __rte_always_inline void
sim_ep_rx_deliver(struct rte_rio_msg *o, struct sim_shm_msg_slot *s, void *buf, uint16_t len,
		  uint16_t dst, uint8_t mbox, uint8_t letter)
{
	o->buf = buf;
	o->len = len;
	o->destid = dst;
	o->srcid = s->src;
	o->mbox = mbox;
	o->letter = letter;
	o->status = 0;
}

/* End of a receive call: the consumer position and the counters. @return cnt. */
static __rte_always_inline uint16_t
sim_ep_rx_end(struct sim_ep *ep, struct sim_ep_rx *rx, const struct sim_ring *ring,
	      uint64_t cons0, uint16_t cnt, uint64_t bytes)
{
	rx->ring.cons = ring->cons;
	if (ring->cons != cons0)
		sim_ring_cons_sync(&rx->ring);
	/* A slot skipped (bad, too long) used no buffer. */
	if (unlikely(rx->posted_only))
		sim_ep_rx_limit(rx);
	if (cnt > 0) {
		ep->st.msg_rx += cnt;
		ep->st.msg_rx_bytes += bytes;
		sim_ring_counter_add(&rx->ring_hdr->rx_msgs, cnt);
	}
	return cnt;
}

uint16_t
sim_ep_recv(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	struct sim_ep_rx *rx;
	struct sim_ring ring;
	struct sim_shm_msg_slot *s;
	enum sim_ring_state state;
	uint32_t budget, avail;
	struct rte_rio_msg *o = msgs, *o_end;
	uint16_t len, dst, span;
	uint64_t cons0, bytes = 0, now = 0, *timed;
	uint32_t buf_head, buf_mask;
	void *buf, **bufs;
	uint8_t letter;

	if (unlikely(mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open))
		return 0;
	rx = &ep->rx[mbox];
	/* Slots are freed in ring order: not past a message still held in place. */
	if (unlikely(rx->held_pos != rx->ring.cons) && !sim_ep_rx_reclaim(rx, &rx->ring)) {
		sim_ep_rx_held_dead(ep, rx, &rx->ring);
		return 0;
	}
	avail = rx->buf_tail - rx->buf_head;
	if (n > avail)
		n = avail;
	if (n == 0)
		return 0;
	dst = sim_ep_own_destid(ep);
	timed = ep->f->timing ? &now : NULL;
	/*
	 * A local copy of the ring (geometry and consumer position) stays in
	 * registers across the slot copies; rx->ring is updated before any
	 * call that reads it and at the end.
	 */
	ring = rx->ring;
	cons0 = ring.cons;
	bufs = rx->bufs;
	buf_head = rx->buf_head;
	buf_mask = rx->buf_size - 1;
	span = rx->buf_len - RTE_RIO_MIN_MSG_SIZE;
	o_end = msgs + n;
	/* Bad slots are skipped, but never more than one lap per call. */
	for (budget = ring.size + n; o < o_end && budget > 0; budget--) {
		state = sim_ep_rx_peek(ep, rx, &ring, mbox, &s, timed);
		if (unlikely(state != SIM_RING_READY)) {
			if (state == SIM_RING_EMPTY)
				break;
			sim_ring_free_slot(&ring);
			continue;
		}
		len = sim_ep_rx_check(ep, s, mbox, span, &letter);
		if (unlikely(len == 0)) {
			/* Bad, or longer than the posted buffers: the buffer stays posted. */
			sim_ring_free_slot(&ring);
			continue;
		}
		buf = bufs[buf_head++ & buf_mask];
		if (likely(len <= SIM_SLOT_INLINE)) {
			sim_ep_msg_copy(buf, s->data, len);
		} else {
			sim_ep_msg_copy(buf, s->data, SIM_SLOT_INLINE);
			sim_ep_msg_copy((uint8_t *)buf + SIM_SLOT_INLINE,
					sim_ring_ovf(&ring, ring.cons), len - SIM_SLOT_INLINE);
		}
		sim_ep_rx_deliver(o, s, buf, len, dst, mbox, letter);
		bytes += len;
		sim_ring_free_slot(&ring);
		o++;
	}
	rx->held_pos = ring.cons;
	rx->buf_head = buf_head;
	return sim_ep_rx_end(ep, rx, &ring, cons0, o - msgs, bytes);
}

/* Release callback of a message received in place: its slot may be given back. */
static void
sim_ep_inplace_free(void *addr, void *opaque)
{
	struct sim_ep_held *h = opaque;

	RTE_SET_USED(addr);
	/* Pairs with the consumer's acquire load in sim_ep_rx_reclaim(). */
	__atomic_store_n(&h->held, 0, __ATOMIC_RELEASE);
}

/* The in-place entries of a mailbox, allocated at its first in-place receive. */
static int
sim_ep_rx_held_init(struct sim_ep *ep, struct sim_ep_rx *rx)
{
	size_t size = (size_t)rx->ring.size * sizeof(rx->held[0]);
	uint32_t i;

	/* Shared receive state: every process of the group reaches the entries. */
	if (ep->sh != NULL)
		rx->held = rte_zmalloc("rio_sim_rx_held", size, RTE_CACHE_LINE_SIZE);
	else
		rx->held = calloc(1, size);
	if (rx->held == NULL)
		return -ENOMEM;
	for (i = 0; i < rx->ring.size; i++)
		rx->held[i].shinfo.fcb_opaque = &rx->held[i];
	return 0;
}

/*
 * Receive in place: the message stays in its slot (its first SIM_SLOT_INLINE
 * bytes, so no longer than that) and the slot stays the receiver's until
 * the message is released through its shared info. Same checks and counters
 * as sim_ep_recv(); the declared buffer size applies too.
 */
uint16_t
sim_ep_recv_inplace(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs,
		    struct rte_mbuf_ext_shared_info **shinfo, uint16_t n)
{
	struct sim_ep_rx *rx;
	struct sim_ring ring;
	struct sim_shm_msg_slot *s;
	enum sim_ring_state state;
	struct rte_rio_msg *o = msgs, *o_end;
	struct sim_ep_held *h;
	uint16_t len, dst, span;
	uint64_t cons0, bytes = 0, now = 0, *timed;
	uint32_t budget;
	uint8_t letter;

	if (unlikely(mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open || n == 0))
		return 0;
	rx = &ep->rx[mbox];
	if (unlikely(rx->held == NULL) && sim_ep_rx_held_init(ep, rx) < 0)
		return 0;
	dst = sim_ep_own_destid(ep);
	timed = ep->f->timing ? &now : NULL;
	ring = rx->ring;
	cons0 = ring.cons;
	if (!sim_ep_rx_reclaim(rx, &ring))
		sim_ep_rx_held_dead(ep, rx, &ring);
	span = RTE_MIN(rx->buf_len, (uint32_t)SIM_SLOT_INLINE) - RTE_RIO_MIN_MSG_SIZE;
	o_end = msgs + n;
	/*
	 * A lap past the oldest held slot is that slot again, still the
	 * receiver's (its seq of the last lap would read as a bad slot): stop.
	 */
	for (budget = ring.size + n; o < o_end && budget > 0 &&
	     ring.cons - rx->held_pos < ring.size; budget--) {
		state = sim_ep_rx_peek(ep, rx, &ring, mbox, &s, timed);
		if (unlikely(state != SIM_RING_READY)) {
			if (state == SIM_RING_EMPTY)
				break;
			sim_ep_rx_skip(rx, &ring);
			continue;
		}
		len = sim_ep_rx_check(ep, s, mbox, span, &letter);
		if (unlikely(len == 0)) {
			sim_ep_rx_skip(rx, &ring);
			continue;
		}
		h = &rx->held[ring.cons & (ring.size - 1)];
		h->held = ep->f->token;
		/* Set at each receive: the callback's address is this process's. */
		h->shinfo.free_cb = sim_ep_inplace_free;
		rte_mbuf_ext_refcnt_set(&h->shinfo, 1);
		*shinfo++ = &h->shinfo;
		sim_ep_rx_deliver(o, s, s->data, len, dst, mbox, letter);
		bytes += len;
		ring.cons++;
		o++;
	}
	return sim_ep_rx_end(ep, rx, &ring, cons0, o - msgs, bytes);
}
