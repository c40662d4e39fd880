/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Sender state of an endpoint (messages and doorbells): its sender record,
 * engine and routes, and the peers' data segments it maps.
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
/* Sender state                                                       */

void
sim_ep_tx_free(struct sim_ep *ep, struct sim_ep_tx *tx)
{
	uint32_t i;

	sim_sender_put(ep->f, tx->sender);
	if (tx->peers != NULL) {
		for (i = 0; i < ep->f->n_endpoints; i++)
			if (tx->peers[i].data != NULL)
				munmap(tx->peers[i].data, tx->peers[i].size);
		free(tx->peers);
	}
	free(tx->routes);
	sim_engine_free(tx->eng);
	memset(tx, 0, sizeof(*tx));
}

/* Sender state with @entries descriptors (doorbells: 1), its engine when timing is on. */
int
sim_ep_tx_init(struct sim_ep *ep, struct sim_ep_tx *tx, bool with_peers, uint32_t entries)
{
	tx->routes = calloc(RTE_RIO_MAX_DESTIDS(ep->f->devid_size), sizeof(tx->routes[0]));
	if (tx->routes == NULL)
		return -ENOMEM;
	if (with_peers) {
		tx->peers = calloc(ep->f->n_endpoints, sizeof(tx->peers[0]));
		if (tx->peers == NULL) {
			sim_ep_tx_free(ep, tx);
			return -ENOMEM;
		}
	}
	tx->sender = sim_sender_get(ep->f);
	if (tx->sender == 0) {
		sim_ep_tx_free(ep, tx);
		return -ENOSPC;
	}
	if (ep->f->timing) {
		tx->eng = sim_engine_create(ep->f, ep->dev_index, entries,
					    &ep->st.msg_tx_seg_retry);
		if (tx->eng == NULL) {
			sim_ep_tx_free(ep, tx);
			return -ENOMEM;
		}
	}
	tx->open = true;
	tx->accepted = 0;
	tx->reported = 0;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Routing of messages and doorbells                                  */

/* Endpoint index of the device a packet for destid reaches, or -ETIMEDOUT. */
static int
sim_ep_route_slow(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
		  uint8_t *in_port)
{
	struct sim_shm_device *dst;
	uint32_t dst_dev;
	int ret;

	ret = sim_route(f, src_dev, src_port, destid, 0, false, &dst_dev, in_port);
	if (ret < 0)
		return ret;
	dst = sim_fabric_dev(f, dst_dev);
	if (dst == NULL || dst->type != SIM_DEV_ENDPOINT || dst->ep_index >= f->n_endpoints ||
	    f->eps[dst->ep_index].dev_index != dst_dev)
		return -ETIMEDOUT;
	return dst->ep_index;
}

/*
 * Packet counters of the first and last link of a cached route: the own
 * port's tx and the target's ingress rx. A route walk (sim_route()) counts
 * its packet on every port of the path itself; cached packets do not cross
 * the switches again, so switch ports count route walks only.
 */
void
sim_ep_count_path(struct sim_ep *ep, const struct sim_ep_route *r, uint32_t n)
{
	struct sim_shm_device *dst;

	if (n == 0)
		return;
	/* Endpoint port 0: the per-endpoint counter lines (see sim_port_pkts()). */
	sim_ring_counter_add(&ep->shm->port_tx_pkts, n);
	if (r->in_port == 0) {
		sim_ring_counter_add(&ep->f->eps[r->ep_index].port_rx_pkts, n);
		return;
	}
	dst = sim_fabric_dev(ep->f, ep->f->eps[r->ep_index].dev_index);
	if (dst != NULL && r->in_port < SIM_MAX_PORTS)
		sim_ring_counter_add(&dst->ports[r->in_port].rx_pkts, n);
}

/*
 * Target endpoint of destid, from the cache when the route generation has
 * not changed and the target still answers to destid. *walked is 1 when the
 * route was walked (and its packet counted) now, else 0.
 */
int
sim_ep_resolve(struct sim_ep *ep, struct sim_ep_tx *tx, uint16_t destid,
	       struct sim_ep_route **route, uint32_t *walked)
{
	struct sim_fabric *f = ep->f;
	struct sim_ep_route *r;
	struct sim_shm_device *dst;
	uint32_t gen, dst_dev;
	int ret;

	if (unlikely(destid >= RTE_RIO_MAX_DESTIDS(f->devid_size)))
		return -ETIMEDOUT;
	/* Acquire pairs with the release that publishes a route change. */
	gen = (uint32_t)__atomic_load_n(&f->hdr->route_gen, __ATOMIC_ACQUIRE) + 1;
	if (gen == 0)
		gen = 1;
	r = &tx->routes[destid];
	*route = r;
	*walked = 0;
	if (likely(r->gen == gen)) {
		dst_dev = f->eps[r->ep_index].dev_index;
		dst = sim_fabric_dev(f, dst_dev);
		if (likely(dst != NULL &&
			   RTE_RIO_GET_DID(f->devid_size,
					   __atomic_load_n(&dst->base_devid, __ATOMIC_RELAXED)) ==
			   destid))
			return r->ep_index;
	}
	*walked = 1;
	ret = sim_ep_route_slow(f, ep->dev_index, sim_ep_tx_port(f, ep->dev_index), destid,
				&r->in_port);
	if (ret < 0) {
		r->gen = 0;
		return ret;
	}
	r->ep_index = ret;
	r->gen = gen;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Peer data segments                                                 */

static void
sim_ep_peer_unmap(struct sim_ep_peer *p)
{
	if (p->data != NULL)
		munmap(p->data, p->size);
	memset(p, 0, sizeof(*p));
}

/* Map and validate the data segment of endpoint t for generation gen. */
static int
sim_ep_peer_map(struct sim_ep *ep, struct sim_ep_peer *p, uint32_t t, uint32_t gen)
{
	char name[SIM_NAME_MAX + 32], why[160] = "layout";
	struct sim_shm_data_hdr *data = NULL;
	struct stat st;
	uint32_t entries;
	size_t size = 0;
	int fd, ret = 0;

	sim_fabric_data_name(ep->f, t, name, sizeof(name));
	fd = sim_fabric_obj_open(ep->f, name, O_RDWR, 0);
	if (fd < 0)
		return -EIO;
	/* Same owner rules as the fabric's main segment (see sim_shm_check_access()). */
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sim_ep_data_hdr_size() ||
	    sim_shm_check_access(&st, ep->f->group_access, why, sizeof(why)) != 0) {
		ret = -EIO;
		goto out;
	}
	size = st.st_size;
	data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		data = NULL;
		ret = -EIO;
		goto out;
	}
	entries = __atomic_load_n(&data->entries, __ATOMIC_RELAXED);
	if (!sim_ep_entries_valid(entries) || sim_ep_data_size(entries) > size ||
	    !sim_ep_data_hdr_ok(data, t, gen, entries)) {
		ret = -EIO;
		goto out;
	}
	p->data = data;
	p->size = size;
	p->generation = gen;
	sim_ep_data_rings(data, entries, p->rings, p->ring_hdr);
	data = NULL;
out:
	if (data != NULL)
		munmap(data, size);
	close(fd);
	if (ret < 0)
		SIM_LOG(DEBUG, "invalid data segment %s: %s", name, why);
	return ret;
}

/*
 * Ring of mailbox mbox of endpoint t, or -EIO (mailbox closed, segment
 * missing or invalid).
 */
int
sim_ep_peer_get(struct sim_ep *ep, struct sim_ep_tx *tx, uint32_t t, uint8_t mbox,
		struct sim_ep_peer **out)
{
	struct sim_shm_endpoint *tshm = &ep->f->eps[t];
	struct sim_ep_peer *p = &tx->peers[t];
	uint32_t gen;
	int ret;

	/*
	 * Acquire pairs with the owner's release of mbox_open in
	 * sim_ep_open_inb_mbox(): the segment of this generation is complete.
	 */
	if (unlikely(!(sim_ep_load32_acquire(&tshm->mbox_open) & (1u << mbox))))
		return -EIO;
	/* Pairs with the release store of generation in sim_ep_take(). */
	gen = sim_ep_load32_acquire(&tshm->generation);
	if (unlikely(p->data == NULL || p->generation != gen)) {
		sim_ep_peer_unmap(p);
		ret = sim_ep_peer_map(ep, p, t, gen);
		if (ret < 0)
			return ret;
	}
	if (unlikely(p->gone))
		return -ETIMEDOUT;
	*out = p;
	return 0;
}

/*
 * The ring of endpoint t is full. A live owner is only slow: RETRY. A dead
 * owner never drains it: as on a fabric whose target stopped responding,
 * the message times out (-ETIMEDOUT), and so does every later one to this
 * generation of the target without touching its ring (a new owner bumps the
 * generation). The owner is looked at once per millisecond at most.
 */
int
sim_ep_peer_full(struct sim_ep *ep, struct sim_ep_peer *p, uint32_t t)
{
	struct sim_shm_endpoint *tshm = &ep->f->eps[t];
	uint64_t now = rte_get_timer_cycles();

	if (now < p->next_check)
		return -EAGAIN;
	p->next_check = now + rte_get_timer_hz() / 1000;
	/* Stopped or slow is alive: only an owner that is gone times out. */
	if (sim_ep_owner_alive(ep->f, tshm))
		return -EAGAIN;
	SIM_LOG(DEBUG, "endpoint %u: owner %d is gone, messages to it time out", t,
		(int)__atomic_load_n(&tshm->owner_pid, __ATOMIC_RELAXED));
	p->gone = true;
	return -ETIMEDOUT;
}
