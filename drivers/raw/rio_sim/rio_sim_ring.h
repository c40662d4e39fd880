/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SIM_RING_H
#define RIO_SIM_RING_H

/*
 * Bounded multi-producer single-consumer ring in shared memory, used for the
 * three ring kinds of an endpoint (inbound mailboxes, doorbells, port-writes).
 *
 * Every slot starts with a uint64_t sequence number; positions are
 * free-running 64-bit counters masked to the ring size. For the slot at
 * position p (lap of a ring of size S):
 *   seq == p          free: a producer may claim position p
 *   seq == p + 1      published: the consumer may read position p
 *   seq == p + S      freed by the consumer: free for position p + S
 * Producers claim one or more consecutive positions with one CAS on
 * prod_head, fill the slots, then publish each with a release store of seq.
 * The single consumer (the endpoint's owner) reads a slot after an acquire
 * load of seq and frees it with a release store of seq + S.
 *
 * Nothing read from shared memory is trusted: the ring geometry is a
 * process-local copy, positions are masked before use, and a seq value that
 * is neither "free" nor "published" for the consumer's position is reported
 * as a bad slot so the caller can skip it.
 *
 * A slot claimed but not published is never skipped while its producer may
 * still publish it: producers announce the ring in their sender record
 * before they claim (rio_sim_lock.c), and the consumer skips such a slot
 * only when no live sender announces the ring (rio_sim_ep.c). A producer
 * that stops between claim and publish (SIGSTOP, a debugger) thus holds
 * the ring: the slot waits, the ring fills up, and senders get RETRY.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "rio_sim_shm.h"

/* CAS attempts before a producer gives up and reports the ring as busy. */
#define SIM_RING_CAS_TRIES	64

/* What the consumer finds at its position. */
enum sim_ring_state {
	SIM_RING_READY = 0,	/* published slot */
	SIM_RING_EMPTY = 1,	/* free or claimed but not yet published */
	SIM_RING_BAD = 2,	/* seq makes no sense: skip the slot */
};

/* Process-local view of one shared ring. */
struct sim_ring {
	struct sim_shm_ring_pos *pos;	/* shared heads */
	uint8_t *slots;			/* first slot */
	uint32_t slot_size;		/* bytes per slot, seq at offset 0 */
	uint32_t size;			/* slots, power of two */
	uint64_t cons;			/* consumer only: next position to read */
	uint8_t *ovf;			/* mailbox rings: first overflow block */
	uint32_t ovf_size;		/* bytes per overflow block */
};

/* Atomic accessors: every caller names the barrier partner. */
static __rte_always_inline uint64_t
sim_ring_load_acquire(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static __rte_always_inline uint64_t
sim_ring_load_relaxed(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static __rte_always_inline void
sim_ring_store_release(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static __rte_always_inline void
sim_ring_store_relaxed(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Relaxed counter increment for counters several processes update. */
static __rte_always_inline void
sim_ring_counter_add(uint64_t *p, uint64_t v)
{
	__atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

static __rte_always_inline void
sim_ring_attach(struct sim_ring *r, struct sim_shm_ring_pos *pos, void *slots,
		uint32_t slot_size, uint32_t size)
{
	r->pos = pos;
	r->slots = slots;
	r->slot_size = slot_size;
	r->size = size;
	r->cons = 0;
	r->ovf = NULL;
	r->ovf_size = 0;
}

/* Mailbox rings: one overflow block of @ovf_size bytes per slot from @ovf on. */
static __rte_always_inline void
sim_ring_attach_ovf(struct sim_ring *r, void *ovf, uint32_t ovf_size)
{
	r->ovf = ovf;
	r->ovf_size = ovf_size;
}

static __rte_always_inline void *
sim_ring_slot(const struct sim_ring *r, uint64_t p)
{
	return r->slots + (size_t)(p & (r->size - 1)) * r->slot_size;
}

/* The overflow block of the slot at position p. */
static __rte_always_inline uint8_t *
sim_ring_ovf(const struct sim_ring *r, uint64_t p)
{
	return r->ovf + (size_t)(p & (r->size - 1)) * r->ovf_size;
}

static __rte_always_inline uint64_t *
sim_ring_seq(const struct sim_ring *r, uint64_t p)
{
	return (uint64_t *)sim_ring_slot(r, p);
}

/*
 * Owner only, before any producer can see the ring (or accepting that a
 * producer racing with the reset loses its slot, which the consumer then
 * skips as bad): every slot free for its first lap, heads at 0.
 */
static inline void
sim_ring_reset(struct sim_ring *r)
{
	uint32_t i;

	for (i = 0; i < r->size; i++)
		sim_ring_store_relaxed(sim_ring_seq(r, i), i);
	sim_ring_store_relaxed(&r->pos->cons_head, 0);
	sim_ring_store_relaxed(&r->pos->prod_limit, UINT64_MAX);
	/* Pairs with the producers' acquire load of seq: slots are reset first. */
	sim_ring_store_release(&r->pos->prod_head, 0);
	r->cons = 0;
}

/*
 * Consumer: producers may claim positions below @limit only (UINT64_MAX:
 * the ring alone bounds them).
 */
static __rte_always_inline void
sim_ring_set_limit(struct sim_ring *r, uint64_t limit)
{
	/* Pairs with the producers' acquire load in sim_ring_claim(). */
	sim_ring_store_release(&r->pos->prod_limit, limit);
}

/*
 * Producer: claim up to n consecutive positions, below the consumer's
 * limit, with one CAS.
 * Returns the number claimed (0: the ring is full or too contended) and the
 * first position in *first.
 */
static __rte_always_inline uint32_t
sim_ring_claim(struct sim_ring *r, uint32_t n, uint64_t *first)
{
	uint64_t lim;
	unsigned int tries;
	uint64_t head, seq;
	int64_t diff = 0;
	uint32_t k;

	if (n > r->size)
		n = r->size;
	for (tries = 0; tries < SIM_RING_CAS_TRIES; tries++) {
		head = sim_ring_load_relaxed(&r->pos->prod_head);
		/* On head's line: no extra miss. The CAS on head makes it hold at the claim. */
		lim = sim_ring_load_acquire(&r->pos->prod_limit);
		if (unlikely(head + n > lim)) {
			if (head >= lim)
				return 0;
			n = (uint32_t)(lim - head);
		}
		/*
		 * The consumer frees positions in order: when the last slot
		 * wanted is free for this lap, so is every slot before it, and
		 * the acquire load on it (pairs with the consumer's release
		 * store in sim_ring_free_slot()) orders all the consumer's
		 * earlier reads before our writes. Otherwise look slot by slot.
		 */
		seq = sim_ring_load_acquire(sim_ring_seq(r, head + n - 1));
		k = n;
		if (unlikely(seq != head + n - 1)) {
			for (k = 0; k < n; k++) {
				/* Acquire: as above, for this slot. */
				seq = sim_ring_load_acquire(sim_ring_seq(r, head + k));
				diff = (int64_t)(seq - (head + k));
				if (diff != 0)
					break;
			}
			if (k == 0) {
				if (diff < 0)
					return 0;	/* full: previous lap */
				continue;		/* stale head: another producer moved on */
			}
		}
		/*
		 * The slots are published by the release store of seq. Release
		 * here orders the caller's sender record (sim_sender_start())
		 * before the claim: pairs with the acquire load in
		 * sim_ring_claimed_unpublished().
		 */
		if (__atomic_compare_exchange_n(&r->pos->prod_head, &head, head + k,
						false, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
			*first = head;
			return k;
		}
	}
	return 0;
}

/* Producer: publish the filled slot at position p, found at @slot. */
static __rte_always_inline void
sim_ring_publish_at(void *slot, uint64_t p)
{
	/* Pairs with the consumer's acquire load in sim_ring_peek(). */
	sim_ring_store_release((uint64_t *)slot, p + 1);
}

/* Producer: publish the filled slot at position p. */
static __rte_always_inline void
sim_ring_publish(struct sim_ring *r, uint64_t p)
{
	sim_ring_publish_at(sim_ring_slot(r, p), p);
}

/* Consumer: state of the slot at the consumer position; *slot set when READY or BAD. */
static __rte_always_inline enum sim_ring_state
sim_ring_peek(const struct sim_ring *r, void **slot)
{
	uint64_t seq;

	/* Pairs with the producer's release store in sim_ring_publish(). */
	seq = sim_ring_load_acquire(sim_ring_seq(r, r->cons));
	*slot = sim_ring_slot(r, r->cons);
	if (likely(seq == r->cons + 1))
		return SIM_RING_READY;
	if (seq == r->cons)
		return SIM_RING_EMPTY;
	return SIM_RING_BAD;
}

/*
 * Consumer: true when a producer has claimed the consumer position but not
 * published it. Acquire pairs with the release CAS in sim_ring_claim(): the
 * claimer's sender record is visible after it.
 */
static __rte_always_inline bool
sim_ring_claimed_unpublished(const struct sim_ring *r)
{
	return (int64_t)(sim_ring_load_acquire(&r->pos->prod_head) - r->cons) > 0;
}

/* Consumer: is the slot at the consumer position published? */
static __rte_always_inline bool
sim_ring_published(const struct sim_ring *r)
{
	/* Pairs with the producer's release store in sim_ring_publish(). */
	return sim_ring_load_acquire(sim_ring_seq(r, r->cons)) == r->cons + 1;
}

/*
 * Consumer: check the shared producer head against the consumer position.
 * Producers only ever move it forward, to at most one lap ahead of the
 * consumer, so a value outside [cons, cons + size] was written by someone
 * else (or follows a garbage slot the consumer skipped). Then point it at the
 * first free slot from the consumer position on, so that producers can claim
 * slots again, and return true. Slow path: callers look every so often only.
 */
static inline bool
sim_ring_repair_prod_head(struct sim_ring *r)
{
	uint64_t head = sim_ring_load_relaxed(&r->pos->prod_head), p;

	if (likely(head - r->cons <= r->size))
		return false;
	for (p = r->cons; p != r->cons + r->size; p++)
		if (sim_ring_load_relaxed(sim_ring_seq(r, p)) == p)
			break;
	/* Relaxed: producers re-check each slot's seq with acquire before using it. */
	__atomic_compare_exchange_n(&r->pos->prod_head, &head, p, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return true;
}

/*
 * Consumer: free the slot at the consumer position and move on, without
 * updating the shared cons_head (call sim_ring_cons_sync() after a batch).
 */
static __rte_always_inline void
sim_ring_free_slot(struct sim_ring *r)
{
	/* Pairs with the producers' acquire load in sim_ring_claim(). */
	sim_ring_store_release(sim_ring_seq(r, r->cons), r->cons + r->size);
	r->cons++;
}

/* Consumer: publish the consumer position (once per batch: its line is shared). */
static __rte_always_inline void
sim_ring_cons_sync(struct sim_ring *r)
{
	/* Informational only (dumps); nobody relies on its ordering. */
	sim_ring_store_relaxed(&r->pos->cons_head, r->cons);
}

/* Consumer: free the slot at the consumer position and move on. */
static __rte_always_inline void
sim_ring_free(struct sim_ring *r)
{
	sim_ring_free_slot(r);
	sim_ring_cons_sync(r);
}

#endif /* RIO_SIM_RING_H */
