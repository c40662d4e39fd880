/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Doorbells and port-writes of a claimed endpoint.
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
/* Doorbells                                                          */

/*
 * A doorbell is one packet and its response, and the call returns with the
 * response (DONE, RETRY, ERROR), or at the response timeout when none
 * comes. With the timing model the doorbell reaches the target's queue
 * when it arrives and the call returns when the response is back. Under
 * ep->dbell_lock (the route cache, the sender record and the engine).
 */
static int
sim_ep_dsend_locked(struct sim_ep *ep, uint16_t destid, uint16_t info)
{
	struct sim_shm_sender *rec = sim_sender(ep->f, ep->dbell_tx.sender);
	struct sim_engine *eng = ep->dbell_tx.eng;
	struct sim_engine_peer *ept = NULL;
	uint64_t now = 0, arrival = 0, done = 0;
	struct sim_shm_endpoint *tshm;
	struct sim_shm_dbell_slot *s;
	struct sim_ep_route *route;
	struct sim_ring ring;
	uint32_t walked;
	uint64_t p;
	int t, ret;

	if (eng != NULL)
		now = sim_now_ns();
	t = sim_ep_resolve(ep, &ep->dbell_tx, destid, &route, &walked);
	if (t >= 0 && eng != NULL) {
		ept = sim_engine_peer(eng, t, destid, sim_ep_own_destid(ep));
		if (ept == NULL)
			t = -ETIMEDOUT;
		else
			sim_engine_doorbell(eng, ept, now, &arrival, &done);
	}
	if (t < 0) {
		ret = t;
		goto fail;
	}
	sim_ep_count_path(ep, route, 1 - walked);
	tshm = &ep->f->eps[t];
	/* Nobody runs that endpoint: its doorbell queue would be reset at claim. */
	if (__atomic_load_n(&tshm->owner, __ATOMIC_ACQUIRE) == 0) {
		ret = -EIO;
		goto fail;
	}
	/*
	 * An owner that is gone answers nothing (doorbells are rare: look every
	 * time); a stopped one is alive and gets it.
	 */
	if (!sim_ep_owner_alive(ep->f, tshm)) {
		ret = -ETIMEDOUT;
		goto fail;
	}
	sim_ring_attach(&ring, &tshm->dbell_pos, tshm->dbell, sizeof(tshm->dbell[0]),
			SIM_DBELL_RING_SIZE);
	/* It is queued (or refused) when it arrives. */
	sim_wait_until(arrival);
	sim_sender_start(rec, sim_ring_id(t, SIM_RING_DBELL));
	if (sim_ring_claim(&ring, 1, &p) == 0) {
		sim_sender_done(rec);
		sim_ring_counter_add(&tshm->dbell_retry, 1);
		ep->st.dbell_tx_retry++;
		if (done == 0 && eng != NULL)
			sim_wait_until(sim_engine_timeout_at(eng, now));
		sim_wait_until(done);
		return done == 0 && eng != NULL ? -ETIMEDOUT : -EAGAIN;
	}
	s = sim_ring_slot(&ring, p);
	s->src = sim_ep_own_destid(ep);
	s->dst = destid;
	s->info = info;
	sim_ring_publish(&ring, p);
	sim_sender_done(rec);
	sim_ring_counter_add(&tshm->dbell_rx, 1);
	if (done == 0 && eng != NULL) {
		/* Delivered, but its response finds no way back. */
		ret = -ETIMEDOUT;
		goto fail;
	}
	sim_wait_until(done);
	ep->st.dbell_tx++;
	return 0;
fail:
	ep->st.dbell_tx_error++;
	/* No response: the request fails at its response timeout, not at once. */
	if (ret == -ETIMEDOUT)
		sim_wait_until(sim_ep_timeout_at(ep, eng, now));
	else if (ret == -EIO)
		sim_wait_until(done);
	return ret;
}

int
sim_ep_dsend(struct sim_ep *ep, uint16_t destid, uint16_t info)
{
	int ret;

	rte_spinlock_lock(&ep->dbell_lock);
	ret = sim_ep_dsend_locked(ep, destid, info);
	rte_spinlock_unlock(&ep->dbell_lock);
	return ret;
}

int
sim_ep_dbell_fetch(struct sim_ep *ep, struct rte_rio_dbell *dbells, uint16_t n)
{
	struct sim_shm_dbell_slot *s;
	enum sim_ring_state state;
	enum sim_ep_idle idle;
	uint32_t budget;
	void *slot;
	int cnt = 0;

	/* The owner consumes the endpoint's doorbells. */
	if (!ep->owner)
		return 0;
	for (budget = ep->dbell_ring.size + n; cnt < n && budget > 0; budget--) {
		state = sim_ring_peek(&ep->dbell_ring, &slot);
		if (state == SIM_RING_EMPTY) {
			idle = sim_ep_ring_idle(ep->f, &ep->dbell_ring,
						sim_ring_id(ep->ep_index, SIM_RING_DBELL),
						&ep->dbell_stall, NULL);
			if (likely(idle == SIM_EP_IDLE_OK))
				break;
			ep->st.dbell_rx_bad++;
			if (idle == SIM_EP_IDLE_REPAIRED)
				break;
			sim_ring_free(&ep->dbell_ring);
			continue;
		}
		if (likely(state == SIM_RING_READY)) {
			s = slot;
			dbells[cnt].src = s->src;
			dbells[cnt].dst = s->dst;
			dbells[cnt].info = s->info;
			cnt++;
		} else {
			ep->st.dbell_rx_bad++;
		}
		sim_ring_free(&ep->dbell_ring);
	}
	ep->st.dbell_rx += cnt;
	return cnt;
}

int
sim_ep_set_dbell_depth(struct sim_ep *ep, uint32_t depth)
{
	if (!ep->owner)
		return -EPERM;
	if (depth > SIM_DBELL_RING_SIZE)
		return -EINVAL;
	/* Fetches leave the limit: each fetched doorbell took one of the places. */
	sim_ring_set_limit(&ep->dbell_ring, depth == SIM_DBELL_RING_SIZE ? UINT64_MAX :
			   ep->dbell_ring.cons + depth);
	return 0;
}

uint64_t
sim_ep_retries_answered(const struct sim_ep *ep)
{
	uint64_t n = __atomic_load_n(&ep->shm->dbell_retry, __ATOMIC_RELAXED);
	const struct sim_shm_mbox_ring *rh;
	unsigned int m;

	/* The offsets are our own: nothing in shared memory says where. */
	for (m = 0; ep->data != NULL && m < RTE_RIO_MAX_MBOX; m++) {
		rh = RTE_PTR_ADD(ep->data, sim_ep_ring_off(ep->entries, m));
		n += __atomic_load_n(&rh->retries, __ATOMIC_RELAXED);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Port-writes                                                        */

RTE_INIT(sim_ep_pw_handler)
{
	sim_port_write_handler_set(sim_pw_deliver);
}

int
sim_pw_deliver(struct sim_fabric *f, uint32_t src_dev, uint16_t destid,
	       const uint32_t *payload, uint32_t len)
{
	struct sim_shm_device *sdev = sim_fabric_dev(f, src_dev), *dst;
	struct sim_shm_endpoint *tshm;
	struct sim_shm_sender *rec;
	struct sim_shm_pw_slot *s;
	struct sim_ring ring;
	uint32_t dst_dev;
	uint8_t in_port;
	uint64_t p;
	int t;

	if (sdev == NULL || payload == NULL || len == 0 || len > RTE_RIO_PW_MSG_SIZE)
		return -EINVAL;
	t = sim_pw_route(f, src_dev, destid, &dst_dev, &in_port);
	if (t < 0)
		return t;
	dst = sim_fabric_dev(f, dst_dev);
	if (dst == NULL || dst->type != SIM_DEV_ENDPOINT)
		return -ETIMEDOUT;
	t = (int)__atomic_load_n(&dst->ep_index, __ATOMIC_RELAXED);	/* untrusted: once */
	if ((uint32_t)t >= f->n_endpoints)
		return -ETIMEDOUT;
	tshm = &f->eps[t];
	if (__atomic_load_n(&tshm->owner, __ATOMIC_ACQUIRE) == 0)
		goto dropped;
	sim_ring_attach(&ring, &tshm->pw_pos, tshm->pw, sizeof(tshm->pw[0]), SIM_PW_RING_SIZE);
	rte_spinlock_lock(&f->pw_lock);
	if (f->pw_sender == 0)
		f->pw_sender = sim_sender_get(f);
	if (f->pw_sender == 0) {
		rte_spinlock_unlock(&f->pw_lock);
		goto dropped;
	}
	rec = sim_sender(f, f->pw_sender);
	sim_sender_start(rec, sim_ring_id(t, SIM_RING_PW));
	if (sim_ring_claim(&ring, 1, &p) == 0) {
		sim_sender_done(rec);
		rte_spinlock_unlock(&f->pw_lock);
		goto dropped;
	}
	s = sim_ring_slot(&ring, p);
	s->len = len;
	memset(s->payload, 0, sizeof(s->payload));
	memcpy(s->payload, payload, len);
	sim_ring_publish(&ring, p);
	sim_sender_done(rec);
	rte_spinlock_unlock(&f->pw_lock);
	sim_ring_counter_add(&tshm->pw_rx, 1);
	return 0;
dropped:
	/* Port-writes are droppable: count it, the sender does not retry. */
	sim_ring_counter_add(&tshm->pw_dropped, 1);
	return -ENOBUFS;
}

int
sim_ep_pw_fetch(struct sim_ep *ep, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	struct sim_shm_pw_slot *s;
	enum sim_ring_state state;
	enum sim_ep_idle idle;
	uint32_t budget, len;
	void *slot;
	int cnt = 0;

	/* The owner consumes the endpoint's port-writes. */
	if (!ep->owner)
		return 0;
	sim_fabric_pw_tick(ep->f);
	for (budget = SIM_PW_RING_SIZE + n; cnt < n && budget > 0; budget--) {
		state = sim_ring_peek(&ep->pw_ring, &slot);
		if (state == SIM_RING_EMPTY) {
			idle = sim_ep_ring_idle(ep->f, &ep->pw_ring,
						sim_ring_id(ep->ep_index, SIM_RING_PW), &ep->pw_stall,
						NULL);
			if (likely(idle == SIM_EP_IDLE_OK))
				break;
			ep->st.pw_rx_bad++;
			if (idle == SIM_EP_IDLE_REPAIRED)
				break;
			sim_ring_free(&ep->pw_ring);
			continue;
		}
		s = slot;
		len = s->len;
		if (likely(state == SIM_RING_READY && len > 0 && len <= RTE_RIO_PW_MSG_SIZE)) {
			memset(&msgs[cnt], 0, sizeof(msgs[cnt]));
			memcpy(msgs[cnt].raw, s->payload, len);
			msgs[cnt].len = len;
			cnt++;
		} else {
			ep->st.pw_rx_bad++;
		}
		sim_ring_free(&ep->pw_ring);
	}
	ep->st.pw_rx += cnt;
	return cnt;
}
