/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Host enumeration of a RapidIO fabric.
 *
 * Host: a depth-first walk from the host in port order, as Linux rio-scan
 * does (reference section 4), with these differences:
 *  - device IDs are handed out in DFS order, lowest free first, the host ID
 *    reserved, so the same fabric always gets the same IDs and the IDs below
 *    every switch port form one contiguous interval;
 *  - a device is probed with the next free ID (the "candidate") as
 *    destination: the candidate is routed along the current switch path, so
 *    the entries written to reach a new endpoint are its final routes and no
 *    ANY_DESTID route is needed; entries of a candidate that ends up
 *    elsewhere are cleared when the walk leaves a switch;
 *  - routes towards the host use the default output port, so only the IDs
 *    below a switch get explicit entries (no clearing of whole tables);
 *  - configuration is read and written with block maintenance where the
 *    mport has it (one transaction for the CARs, one for 0x60-0x6c, ...).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "rio_scan_private.h"

/* How long a host waits for a lower-priority host to back off a device. */
#define RIO_SCAN_LOCK_WAIT_MS		10000
/* Lock attempts that may read back "unlocked" before the lock CSR is declared broken. */
#define RIO_SCAN_LOCK_RETRY		3

#define RIO_PORT_DISC_MASTER	(RTE_RIO_PORT_GEN_DISCOVERED | RTE_RIO_PORT_GEN_MASTER)

struct rio_enum {
	struct rte_rio_mport *mport;
	struct rio_scan_data *sd;
	struct rte_rio_dev *local;
	uint16_t host;
	uint32_t any;		/* ANY_DESTID: never assigned */
	uint32_t nids;
	uint8_t *used;		/* nids flags: ID assigned (endpoint or switch access ID) */
	uint32_t cand;		/* next ID to assign */
	uint32_t next_tag;	/* next component tag */
	bool block;		/* the mport has block maintenance ops */
	struct rte_rio_dev *path[RIO_SCAN_MAX_DEPTH];
	uint8_t path_port[RIO_SCAN_MAX_DEPTH];
	unsigned int depth;
	/* Hot-plug re-enumeration of a subtree (rio_enum_subtree), else NULL. */
	struct rio_dev_list *live;	/* the mport's published devices */
	int32_t tag_hi;			/* last tag of the range to reuse (next_tag on) */
	uint32_t *tag_top;		/* next never-used tag, beyond the range */
};

/* ---------------------------------------------------------------------- */
/* Host enumeration                                                       */

static uint32_t
rio_enum_next_free(const struct rio_enum *e, uint32_t from)
{
	uint32_t id;

	for (id = from; id < e->any; id++)
		if (!e->used[id] && id != e->host)
			return id;
	return e->any;
}

/* Give the candidate ID away; every switch on the path now covers it. */
static int
rio_enum_assign(struct rio_enum *e, uint16_t *id)
{
	unsigned int i;

	if (e->cand >= e->any) {
		RIO_LOG(ERR, "%s: out of device IDs", e->mport->name);
		return -ENOSPC;
	}
	*id = (uint16_t)e->cand;
	e->used[e->cand] = 1;
	/* In DFS order IDs ascend; a subtree enumerated again may reuse lower ones. */
	for (i = 0; i < e->depth; i++) {
		struct rte_rio_dev *sw = e->path[i];

		sw->sub_hi = RTE_MAX(sw->sub_hi, (int32_t)e->cand);
		if (sw->sub_lo < 0 || sw->sub_lo > (int32_t)e->cand)
			sw->sub_lo = e->cand;
	}
	e->cand = rio_enum_next_free(e, e->cand + 1);
	return 0;
}

/* Can @id still be given to a device (not the host, not assigned)? */
static inline bool
rio_enum_id_free(const struct rio_enum *e, uint32_t id)
{
	return id < e->any && id != e->host && !e->used[id];
}

/* Next live port of @sw after @port with no known peer, or @port. */
static uint8_t
rio_enum_next_port(const struct rte_rio_dev *sw, uint8_t port)
{
	unsigned int p;

	for (p = port + 1u; p < sw->info.nports; p++)
		if (p != sw->info.sw_inport && (sw->port_ok & (1u << p)) && sw->peer[p] == NULL)
			return (uint8_t)p;
	return port;
}

/*
 * Route the candidate ID along the current switch path.
 *
 * A switch with extended route configuration takes the route entries of
 * RIO_SWITCH_RT_GROUP consecutive IDs in one access, so the free IDs after
 * the candidate in its group are routed too, by guess: the next IDs are
 * given in DFS order, so they are in the same subtree on a switch above
 * the deepest one, and behind the following live ports (one endpoint each)
 * on the deepest one. A right guess saves the later write; a wrong one is
 * overwritten when that ID is routed, or cleared when the walk leaves the
 * switch (rio_enum_drop_guess), so the final tables hold only real routes.
 */
static int
rio_enum_route_path(struct rio_enum *e)
{
	uint8_t g[RIO_SWITCH_RT_GROUP];
	uint32_t first, id;
	unsigned int i;
	uint8_t port;
	int ret;

	if (e->cand >= e->any)
		return -ENOSPC;
	for (i = 0; i < e->depth; i++) {
		struct rte_rio_dev *sw = e->path[i];

		port = e->path_port[i];
		if (rio_switch_route_group(sw) == 1) {
			ret = rio_switch_route_write(sw, (uint16_t)e->cand, port);
			if (ret < 0)
				return ret;
			continue;
		}
		if (sw->rt[e->cand] == port)
			continue;
		first = e->cand & ~(RIO_SWITCH_RT_GROUP - 1u);
		memcpy(g, &sw->rt[first], sizeof(g));
		g[e->cand - first] = port;
		for (id = e->cand + 1; id < first + RIO_SWITCH_RT_GROUP; id++) {
			if (!rio_enum_id_free(e, id))
				continue;
			if (i + 1 == e->depth)
				port = rio_enum_next_port(sw, port);
			g[id - first] = port;
		}
		ret = rio_switch_route_write_group(sw, (uint16_t)first, g);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The walk leaves @sw: clear the routes of the free IDs from the candidate's on. */
static int
rio_enum_drop_guess(struct rio_enum *e, struct rte_rio_dev *sw)
{
	uint8_t g[RIO_SWITCH_RT_GROUP];
	uint32_t first, id;

	if (e->cand >= e->any)
		return 0;
	first = e->cand & ~(RIO_SWITCH_RT_GROUP - 1u);
	if (rio_switch_route_group(sw) == 1)
		return rio_switch_route_write(sw, (uint16_t)e->cand, RTE_RIO_INVALID_ROUTE);
	memcpy(g, &sw->rt[first], sizeof(g));
	for (id = e->cand; id < first + RIO_SWITCH_RT_GROUP; id++)
		if (rio_enum_id_free(e, id))
			g[id - first] = RTE_RIO_INVALID_ROUTE;
	return rio_switch_route_write_group(sw, (uint16_t)first, g);
}

/*
 * Take the host lock of the device at (destid, hop). @csr gets 0x60-0x6c as
 * read back. Returns 0 (locked), RIO_SCAN_BACKOFF (a higher host holds it)
 * or -errno. A lower host holding it is waited for, bounded.
 */
static int
rio_enum_lock(struct rio_enum *e, uint16_t destid, uint8_t hop, uint32_t *csr)
{
	uint64_t deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() * RIO_SCAN_LOCK_WAIT_MS / 1000;
	unsigned int unlocked = 0;
	uint32_t cur;
	int ret;

	for (;;) {
		ret = rte_rio_remote_write_config_32(e->mport, destid, hop,
						     RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		if (ret < 0)
			return ret;
		if (e->block)
			ret = rio_scan_read(e->mport, destid, hop, RTE_RIO_DID_CSR, 4, csr);
		else
			ret = rio_scan_read(e->mport, destid, hop, RTE_RIO_HOST_DID_LOCK_CSR, 1,
					    &csr[2]);
		if (ret < 0)
			return ret;
		cur = csr[2] & RTE_RIO_HOST_DID_LOCK_MASK;
		if (cur == e->host)
			return 0;
		if (cur != RTE_RIO_HOST_DID_UNLOCKED && cur > e->host) {
			RIO_LOG(NOTICE, "%s: host %u holds the fabric, backing off",
				e->mport->name, cur);
			return RIO_SCAN_BACKOFF;
		}
		/*
		 * Unlocked: our write released a stale lock of ours, or the holder
		 * let go meanwhile; retry at once, a few times (a lock CSR that
		 * never locks is an error). A lower host: wait for it to back off.
		 */
		if (cur == RTE_RIO_HOST_DID_UNLOCKED) {
			if (++unlocked > RIO_SCAN_LOCK_RETRY) {
				RIO_LOG(ERR, "%s: host lock of device (0x%x, %u) does not lock",
					e->mport->name, destid, hop);
				return -EIO;
			}
			continue;
		}
		if (rte_get_timer_cycles() > deadline) {
			RIO_LOG(ERR, "%s: host %u did not release a device within %u ms",
				e->mport->name, cur, RIO_SCAN_LOCK_WAIT_MS);
			return -ETIMEDOUT;
		}
		rte_delay_us_sleep(1000);
	}
}

static int rio_enum_peer(struct rio_enum *e, uint8_t hop, struct rte_rio_dev *prev,
			 uint8_t prev_port);

/* Is @tag used by a device of the scan or, when re-enumerating, of the mport? */
static bool
rio_enum_tag_used(struct rio_enum *e, uint32_t tag)
{
	return rio_dev_list_find_comptag(&e->sd->devs, tag) != NULL ||
		(e->live != NULL && rio_dev_list_find_comptag(e->live, tag) != NULL);
}

/*
 * Next component tag. A first enumeration counts up; a re-enumeration takes
 * the range the subtree had, then tags never used, skipping any in use.
 */
static uint32_t
rio_enum_new_tag(struct rio_enum *e)
{
	uint32_t tag;

	if (e->live == NULL)
		return e->next_tag++;
	do {
		if (e->tag_hi >= 0 && e->next_tag <= (uint32_t)e->tag_hi)
			tag = e->next_tag++;
		else
			tag = (*e->tag_top)++;
	} while (rio_enum_tag_used(e, tag));
	return tag;
}

/* Read Port n Error/Status (and Control when cheap) of every switch port. */
static int
rio_enum_port_status(struct rio_enum *e, struct rte_rio_dev *sw, uint32_t *err,
		     uint32_t *ctl, bool *ctl_valid)
{
	uint32_t stride = RTE_RIO_PORT_N_STRIDE(sw->info.phys_rmap);
	unsigned int per = e->block ? RTE_MAX(64 / stride, 1u) : 1;
	unsigned int p, k;
	uint32_t w[16];
	int ret;

	*ctl_valid = e->block;
	for (p = 0; p < sw->info.nports; p += per) {
		uint32_t off = sw->info.phys_efptr +
			RTE_RIO_PORT_N_ERR_STS_CSR(p, sw->info.phys_rmap);
		unsigned int n = RTE_MIN(per, sw->info.nports - p);

		if (e->block)
			ret = rio_scan_read(e->mport, sw->info.destid, sw->info.hopcount, off,
					    n == 1 ? 2 : 16, w);
		else
			ret = rio_scan_read(e->mport, sw->info.destid, sw->info.hopcount, off,
					    1, w);
		if (ret < 0)
			return ret;
		for (k = 0; k < n; k++) {
			err[p + k] = w[k * stride / 4];
			ctl[p + k] = e->block ? w[k * stride / 4 + 1] : 0;
		}
	}
	return 0;
}

static int
rio_enum_lockout(struct rio_enum *e, struct rte_rio_dev *sw, uint8_t port, uint32_t ctl,
		 bool ctl_valid)
{
	uint32_t off = sw->info.phys_efptr + RTE_RIO_PORT_N_CTL_CSR(port, sw->info.phys_rmap);
	int ret;

	if (!ctl_valid) {
		ret = rte_rio_remote_read_config_32(e->mport, sw->info.destid,
						    sw->info.hopcount, off, &ctl);
		if (ret < 0)
			return ret;
	}
	if (ctl & RTE_RIO_PORT_N_CTL_LOCKOUT)
		return 0;
	return rte_rio_remote_write_config_32(e->mport, sw->info.destid, sw->info.hopcount,
					      off, ctl | RTE_RIO_PORT_N_CTL_LOCKOUT);
}

static int
rio_enum_switch(struct rio_enum *e, uint8_t hop, struct rte_rio_dev *sw)
{
	uint32_t err[RTE_RIO_MAX_SWITCH_PORTS], ctl[RTE_RIO_MAX_SWITCH_PORTS];
	uint8_t in = sw->info.sw_inport;
	unsigned int p;
	bool ctl_valid;
	int ret;

	/* Responses to the host leave by the ingress port from now on. */
	ret = rio_switch_default_write(sw, in);
	if (ret == -ENOTSUP)
		ret = rio_switch_route_write(sw, e->host, in);
	if (ret < 0)
		return ret;

	ret = rio_enum_port_status(e, sw, err, ctl, &ctl_valid);
	if (ret < 0)
		return ret;

	if (e->depth >= RIO_SCAN_MAX_DEPTH) {
		RIO_LOG(ERR, "%s: fabric deeper than %u switches", e->mport->name,
			RIO_SCAN_MAX_DEPTH);
		return -ELOOP;
	}
	e->path[e->depth++] = sw;
	/* Live ports first: route guesses (rio_enum_route_path) look ahead. */
	for (p = 0; p < sw->info.nports; p++) {
		if (p == in || (err[p] & RTE_RIO_PORT_N_ERR_STS_PORT_OK)) {
			sw->port_ok |= 1u << p;
			continue;
		}
		if (sw->info.em_efptr != 0) {
			ret = rio_enum_lockout(e, sw, p, ctl[p], ctl_valid);
			if (ret < 0)
				return ret;
		}
	}
	for (p = 0; p < sw->info.nports; p++) {
		if (p == in || !(sw->port_ok & (1u << p)))
			continue;
		if (sw->peer[p] != NULL)
			continue; /* known already from the other end */
		e->path_port[e->depth - 1] = p;
		ret = rio_enum_route_path(e);
		if (ret < 0)
			return ret;
		ret = rio_enum_peer(e, hop + 1, sw, p);
		if (ret != 0)
			return ret;
	}

	/* Nothing below: the switch still needs an ID to be addressed by. */
	if (sw->sub_hi < 0) {
		uint16_t id;

		ret = rio_enum_assign(e, &id);
		if (ret < 0)
			return ret;
		if (sw->rt[id] != RTE_RIO_INVALID_ROUTE) {
			ret = rio_switch_route_write(sw, id, RTE_RIO_INVALID_ROUTE);
			if (ret < 0)
				return ret;
		}
	}
	/* The candidate is not below this switch: drop its probe route. */
	ret = rio_enum_drop_guess(e, sw);
	if (ret < 0)
		return ret;
	e->depth--;

	/* Port-writes go to the host. */
	if ((sw->info.src_ops & RTE_RIO_OPS_PORT_WRITE) && sw->info.em_efptr != 0) {
		uint32_t tgt = ((uint32_t)e->host << 16) |
			(e->mport->devid_size == 16 ? RTE_RIO_EM_PW_TGT_DEVID_DEV16 : 0);

		ret = rte_rio_remote_write_config_32(e->mport, sw->info.destid, hop,
						     sw->info.em_efptr + RTE_RIO_EM_PW_TGT_DEVID,
						     tgt);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Enumerate the device behind @prev's port @prev_port (the mport itself
 * when @prev is the local endpoint), addressed by (candidate, hop).
 */
static int
rio_enum_peer(struct rio_enum *e, uint8_t hop, struct rte_rio_dev *prev, uint8_t prev_port)
{
	struct rte_rio_mport *mport = e->mport;
	uint16_t destid = (uint16_t)e->cand;
	struct rio_scan_raw raw;
	struct rte_rio_dev *dev;
	bool sw;
	int ret;

	memset(&raw, 0, sizeof(raw));
	ret = rio_scan_read(mport, destid, hop, RTE_RIO_DEV_ID_CAR, 8, raw.car);
	if (ret < 0) {
		RIO_LOG(WARNING, "%s: no answer behind %s port %u (%d)", mport->name,
			prev->info.name, prev_port, ret);
		return 0;
	}
	sw = rio_is_switch(raw.car[4]);

	if (rio_is_multiport(raw.car[4])) {
		/* Reached before through another link? Then it is ours already. */
		if (e->block)
			ret = rio_scan_read(mport, destid, hop, RTE_RIO_DID_CSR, 4, raw.csr);
		else
			ret = rio_scan_read(mport, destid, hop, RTE_RIO_HOST_DID_LOCK_CSR, 1,
					    &raw.csr[2]);
		if (ret < 0)
			return ret;
		if ((raw.csr[2] & RTE_RIO_HOST_DID_LOCK_MASK) == e->host) {
			if (!e->block) {
				ret = rio_scan_read(mport, destid, hop,
						    RTE_RIO_COMPONENT_TAG_CSR, 1, &raw.csr[3]);
				if (ret < 0)
					return ret;
			}
			dev = rio_dev_list_find_comptag(&e->sd->devs, raw.csr[3]);
			if (dev != NULL) {
				rio_scan_link(prev, prev_port, dev,
					      RTE_RIO_GET_PORT_NUM(raw.car[5]), true);
				RIO_LOG(DEBUG, "%s: redundant link %s.%u - %s.%u", mport->name,
					prev->info.name, prev_port, dev->info.name,
					RTE_RIO_GET_PORT_NUM(raw.car[5]));
				return 0;
			}
			/* Our ID but not our tag: a stale lock; retake it below. */
		} else if (e->live != NULL) {
			/* Re-enumerating: a published device is unlocked; know it by its tag. */
			if (!e->block)
				ret = rio_scan_read(mport, destid, hop, RTE_RIO_COMPONENT_TAG_CSR,
						    1, &raw.csr[3]);
			if (ret < 0)
				return ret;
			dev = raw.csr[3] != 0 ? rio_dev_list_find_comptag(e->live, raw.csr[3]) :
				NULL;
			if (dev != NULL && dev->info.pef == raw.car[4] &&
			    dev->info.vid == (raw.car[0] & RTE_RIO_DEV_ID_VID_MASK)) {
				rio_scan_link(prev, prev_port, dev,
					      RTE_RIO_GET_PORT_NUM(raw.car[5]), true);
				return 0;
			}
		}
	}

	ret = rio_enum_lock(e, destid, hop, raw.csr);
	if (ret != 0)
		return ret;
	dev = rio_dev_alloc(mport, sw);
	if (dev == NULL) {
		/* Locked but unknown to the cleanup: release it here. */
		rte_rio_remote_write_config_32(mport, destid, hop, RTE_RIO_HOST_DID_LOCK_CSR,
					       e->host);
		return -ENOMEM;
	}
	rio_scan_fill_info(dev, &raw);
	dev->locked = true;
	dev->info.hopcount = sw ? hop : RTE_RIO_HOPCOUNT_DIRECT;
	dev->info.destid = destid;
	dev->info.comptag = rio_enum_new_tag(e);
	if (prev != e->local) {
		dev->info.prev_comptag = (int32_t)prev->info.comptag;
		dev->info.prev_port = prev_port;
	}
	rio_scan_append(e->sd, dev);
	rio_scan_link(prev, prev_port, dev, rio_scan_inport(dev), false);

	ret = rio_scan_efb(mport, e->block, destid, hop, dev, &raw);
	if (ret < 0)
		return ret;

	if (!sw) {
		ret = rio_enum_assign(e, &dev->info.destid);
		if (ret < 0)
			return ret;
		rio_dev_set_name(dev);
		return 0;
	}

	dev->ops = rio_switch_ops_find(dev->info.vid, dev->info.did);
	dev->sub_lo = destid;
	rio_dev_set_name(dev);
	ret = rte_rio_remote_write_config_32(mport, destid, hop, RTE_RIO_COMPONENT_TAG_CSR,
					     dev->info.comptag);
	if (ret < 0)
		return ret;
	return rio_enum_switch(e, hop, dev);
}

/* Switches of @list without a default port: route every other ID towards the host. */
static int
rio_enum_fill_upstream(struct rio_enum *e, struct rio_dev_list *list)
{
	struct rte_rio_dev *dev;
	uint32_t id;
	int ret;

	TAILQ_FOREACH(dev, list, next) {
		if (dev->info.type != RTE_RIO_DEV_SWITCH || dev->ops->set_default != NULL)
			continue;
		for (id = 0; id < e->any; id++) {
			if (!e->used[id] || dev->rt[id] != RTE_RIO_INVALID_ROUTE ||
			    ((int32_t)id >= dev->sub_lo && (int32_t)id <= dev->sub_hi))
				continue;
			ret = rio_switch_route_write(dev, id, dev->info.sw_inport);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/* Success: IDs, tags, unlock, then Discovered so agents proceed. */
static int
rio_enum_finish(struct rio_enum *e)
{
	struct rte_rio_mport *mport = e->mport;
	struct rte_rio_dev *dev;
	uint32_t w[4];
	int ret;

	TAILQ_FOREACH(dev, &e->sd->devs, next) {
		uint16_t hop = dev->info.hopcount;

		if (dev->info.local)
			continue;
		if (dev->info.type == RTE_RIO_DEV_SWITCH) {
			ret = rte_rio_remote_write_config_32(mport, dev->info.destid, hop,
							     RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		} else if (e->block) {
			/* Base Device ID, Dev32 ID unchanged, unlock, tag: one write. */
			w[0] = RTE_RIO_SET_DID(mport->devid_size, dev->info.destid);
			w[1] = dev->did32;
			w[2] = e->host;
			w[3] = dev->info.comptag;
			ret = rte_rio_remote_write_block(mport, dev->info.destid, hop,
							 RTE_RIO_DID_CSR, 16, w);
		} else {
			ret = rte_rio_remote_write_config_32(mport, dev->info.destid, hop,
				RTE_RIO_DID_CSR, RTE_RIO_SET_DID(mport->devid_size,
								 dev->info.destid));
			if (ret == 0)
				ret = rte_rio_remote_write_config_32(mport, dev->info.destid, hop,
					RTE_RIO_COMPONENT_TAG_CSR, dev->info.comptag);
			if (ret == 0)
				ret = rte_rio_remote_write_config_32(mport, dev->info.destid, hop,
					RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		}
		if (ret < 0) {
			RIO_LOG(ERR, "%s: cannot release %s (%d)", mport->name, dev->info.name,
				ret);
			return ret;
		}
		dev->locked = false;
	}

	TAILQ_FOREACH(dev, &e->sd->devs, next) {
		uint32_t off = dev->info.phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR;

		if (dev->info.local || dev->info.type != RTE_RIO_DEV_ENDPOINT ||
		    dev->info.phys_efptr == 0)
			continue;
		if (!e->block) {
			ret = rte_rio_remote_read_config_32(mport, dev->info.destid,
							    dev->info.hopcount, off, &dev->gen_ctl);
			if (ret < 0)
				return ret;
		}
		if ((dev->gen_ctl & RIO_PORT_DISC_MASTER) == RIO_PORT_DISC_MASTER)
			continue;
		dev->gen_ctl |= RIO_PORT_DISC_MASTER;
		ret = rte_rio_remote_write_config_32(mport, dev->info.destid, dev->info.hopcount,
						     off, dev->gen_ctl);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Failure or back-off: clear our routes and release every lock we took. */
static void
rio_enum_abort(struct rio_enum *e)
{
	static const uint8_t none[RIO_SWITCH_RT_GROUP] = {
		RTE_RIO_INVALID_ROUTE, RTE_RIO_INVALID_ROUTE,
		RTE_RIO_INVALID_ROUTE, RTE_RIO_INVALID_ROUTE,
	};
	struct rte_rio_mport *mport = e->mport;
	struct rte_rio_dev *dev;
	uint32_t id;

	/* Endpoints first, while the routes to them still exist. */
	TAILQ_FOREACH(dev, &e->sd->devs, next) {
		if (dev->info.local || dev->info.type != RTE_RIO_DEV_ENDPOINT || !dev->locked)
			continue;
		rte_rio_remote_write_config_32(mport, dev->info.destid, dev->info.hopcount,
					       RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		dev->locked = false;
	}
	/* Switches deepest first: each is reached through its ancestors only. */
	TAILQ_FOREACH_REVERSE(dev, &e->sd->devs, rio_dev_list, next) {
		if (dev->info.type != RTE_RIO_DEV_SWITCH)
			continue;
		/* Groups already clear in the shadow cost nothing. */
		for (id = 0; id < e->nids; id += RIO_SWITCH_RT_GROUP)
			rio_switch_route_write_group(dev, (uint16_t)id, none);
		if (dev->locked)
			rte_rio_remote_write_config_32(mport, dev->info.destid,
						       dev->info.hopcount,
						       RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		dev->locked = false;
	}
}

/* Lock the local port. 0, RIO_SCAN_BACKOFF (someone else has it) or -errno. */
static int
rio_enum_lock_local(struct rio_enum *e)
{
	uint32_t v;
	int ret;

	ret = rte_rio_local_read_config_32(e->mport, RTE_RIO_HOST_DID_LOCK_CSR, &v);
	if (ret < 0)
		return ret;
	if ((v & RTE_RIO_HOST_DID_LOCK_MASK) == e->host)
		return 0;
	ret = rte_rio_local_write_config_32(e->mport, RTE_RIO_HOST_DID_LOCK_CSR, e->host);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(e->mport, RTE_RIO_HOST_DID_LOCK_CSR, &v);
	if (ret < 0)
		return ret;
	if ((v & RTE_RIO_HOST_DID_LOCK_MASK) != e->host) {
		RIO_LOG(NOTICE, "%s: host %u already enumerates this port, discovering instead",
			e->mport->name, v & RTE_RIO_HOST_DID_LOCK_MASK);
		return RIO_SCAN_BACKOFF;
	}
	return 0;
}

int
rio_enum_mport(struct rte_rio_mport *mport, struct rio_scan_data *sd)
{
	struct rio_enum e;
	uint32_t gen;
	int ret;

	memset(&e, 0, sizeof(e));
	e.mport = mport;
	e.sd = sd;
	e.host = (uint16_t)mport->host_destid;
	e.nids = RTE_RIO_MAX_DESTIDS(mport->devid_size);
	e.any = RTE_RIO_ANY_DESTID(mport->devid_size);
	e.block = mport->ops->cread_block != NULL && mport->ops->cwrite_block != NULL;
	e.next_tag = 1;
	if (e.host >= e.any) {
		RIO_LOG(ERR, "%s: host ID 0x%x does not fit %u-bit device IDs", mport->name,
			e.host, mport->devid_size);
		return -EINVAL;
	}

	ret = rio_scan_local_port_ok(mport);
	if (ret < 0)
		return ret;
	/* Enumerated already (by another host that won, or earlier by us): join it. */
	ret = rte_rio_local_read_config_32(mport, mport->phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR,
					   &gen);
	if (ret < 0)
		return ret;
	if (gen & RTE_RIO_PORT_GEN_DISCOVERED) {
		RIO_LOG(NOTICE, "%s: fabric enumerated already, discovering instead",
			mport->name);
		return RIO_SCAN_BACKOFF;
	}
	ret = rio_enum_lock_local(&e);
	if (ret != 0)
		return ret;

	e.used = calloc(e.nids, 1);
	if (e.used == NULL) {
		ret = -ENOMEM;
		goto unlock_local;
	}
	ret = rio_scan_local_dev(mport, &e.local);
	if (ret < 0)
		goto unlock_local;
	e.local->info.destid = e.host;
	e.local->info.comptag = e.next_tag++;
	rio_dev_set_name(e.local);
	rio_scan_append(sd, e.local);
	/* Own ID first: responses are routed back to it. */
	ret = rte_rio_local_write_config_32(mport, RTE_RIO_DID_CSR,
					    RTE_RIO_SET_DID(mport->devid_size, e.host));
	if (ret == 0)
		ret = rte_rio_local_write_config_32(mport, RTE_RIO_COMPONENT_TAG_CSR,
						    e.local->info.comptag);
	if (ret < 0)
		goto unlock_local;

	e.cand = rio_enum_next_free(&e, 0);
	ret = rio_enum_peer(&e, 0, e.local, 0);
	if (ret == 0)
		ret = rio_enum_fill_upstream(&e, &sd->devs);
	if (ret == 0)
		ret = rio_enum_finish(&e);
	if (ret != 0) {
		rio_enum_abort(&e);
		goto unlock_local;
	}

	ret = rte_rio_local_write_config_32(mport, RTE_RIO_HOST_DID_LOCK_CSR, e.host);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, mport->phys_efptr +
						   RTE_RIO_PORT_GEN_CTL_CSR, &gen);
	if (ret == 0)
		ret = rte_rio_local_write_config_32(mport,
			mport->phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR,
			gen | RTE_RIO_PORT_GEN_HOST | RIO_PORT_DISC_MASTER);
	sd->enumerated = true;
	sd->fabric_host = e.host;
	sd->tag_top = e.next_tag;
	free(e.used);
	RIO_LOG(INFO, "%s: enumerated %u devices, %" PRIu64 " maintenance transactions",
		mport->name, sd->ndevs, rte_rio_mport_maint_count(mport));
	return ret;

unlock_local:
	rte_rio_local_write_config_32(mport, RTE_RIO_HOST_DID_LOCK_CSR, e.host);
	free(e.used);
	rio_dev_list_free(&sd->devs);
	sd->ndevs = 0;
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Host hot-plug: enumerate one subtree again                              */

/* Is @id the access ID of a published switch? */
static bool
rio_enum_switch_id(const struct rio_enum *e, uint32_t id)
{
	const struct rte_rio_dev *dev;

	TAILQ_FOREACH(dev, e->live, next)
		if (dev->info.type == RTE_RIO_DEV_SWITCH && dev->info.destid == id)
			return true;
	return false;
}

/*
 * Mark the IDs the mport's devices hold, and those kept for other removed
 * subtrees. A switch's access ID is the first ID below it: one that lies in
 * the range kept for @sw's @port may go to a device of that subtree again
 * (it still leads through the switch).
 */
static void
rio_enum_mark_used(struct rio_enum *e, const struct rte_rio_dev *sw, uint8_t port)
{
	int32_t lo = sw->hp_id_lo[port], hi = sw->hp_id_hi[port], id;
	struct rte_rio_dev *dev;
	unsigned int p;

	TAILQ_FOREACH(dev, e->live, next) {
		id = dev->info.destid;
		if ((uint32_t)id < e->any &&
		    (dev->info.type == RTE_RIO_DEV_ENDPOINT || lo < 0 || id < lo || id > hi))
			e->used[id] = 1;
		if (dev->info.type != RTE_RIO_DEV_SWITCH)
			continue;
		for (p = 0; p < RTE_RIO_MAX_SWITCH_PORTS; p++) {
			if ((dev == sw && p == port) || dev->hp_id_lo[p] < 0)
				continue;
			for (id = dev->hp_id_lo[p]; id <= dev->hp_id_hi[p]; id++)
				if ((uint32_t)id < e->any)
					e->used[id] = 1;
		}
	}
}

/* Switch path from the mport down to @sw: e->path[], e->path_port[], e->depth. */
static int
rio_enum_build_path(struct rio_enum *e, struct rte_rio_dev *sw, uint8_t port)
{
	struct rte_rio_dev *cur = sw, *up;
	unsigned int n = 0, i;
	uint8_t p = port;

	while (cur != NULL) {
		if (n >= RIO_SCAN_MAX_DEPTH || cur->info.type != RTE_RIO_DEV_SWITCH)
			return -ELOOP;
		e->path[n] = cur;
		e->path_port[n] = p;
		n++;
		if (cur->info.prev_comptag < 0)
			break;
		up = rio_dev_list_find_comptag(e->live, (uint32_t)cur->info.prev_comptag);
		if (up == NULL)
			return -ENOENT;
		p = cur->info.prev_port;
		cur = up;
	}
	/* Collected upwards: reverse into host-first order. */
	for (i = 0; i < n / 2; i++) {
		struct rte_rio_dev *t = e->path[i];
		uint8_t tp = e->path_port[i];

		e->path[i] = e->path[n - 1 - i];
		e->path_port[i] = e->path_port[n - 1 - i];
		e->path[n - 1 - i] = t;
		e->path_port[n - 1 - i] = tp;
	}
	e->depth = n;
	if (e->path[n - 1]->info.hopcount != n - 1)
		return -EIO;
	return 0;
}

/* Forget a failed subtree: links of published devices to it, then its devices. */
static void
rio_enum_subtree_drop(struct rio_enum *e, struct rio_dev_list *nlist)
{
	struct rte_rio_dev *dev, *n;
	unsigned int p;

	TAILQ_FOREACH(dev, e->live, next) {
		for (p = 0; p < RTE_RIO_MAX_SWITCH_PORTS; p++) {
			if (dev->peer[p] == NULL)
				continue;
			TAILQ_FOREACH(n, nlist, next) {
				if (dev->peer[p] == n) {
					dev->peer[p] = NULL;
					dev->redundant &= ~(1u << p);
					break;
				}
			}
		}
	}
	rio_dev_list_free(nlist);
}

int
rio_enum_subtree(struct rte_rio_mport *mport, struct rte_rio_dev *sw, uint8_t port,
		 struct rte_rio_dev **first)
{
	struct rio_scan_data *sd = mport->scan_data;
	struct rio_scan_data nsd;
	struct rio_enum e;
	int32_t old_lo = sw->hp_id_lo[port], old_hi = sw->hp_id_hi[port], id;
	unsigned int i;
	int ret, n;

	memset(&nsd, 0, sizeof(nsd));
	TAILQ_INIT(&nsd.devs);
	memset(&e, 0, sizeof(e));
	e.mport = mport;
	e.sd = &nsd;
	e.live = &sd->devs;
	e.local = TAILQ_FIRST(&sd->devs);
	e.host = (uint16_t)sd->fabric_host;
	e.nids = RTE_RIO_MAX_DESTIDS(mport->devid_size);
	e.any = RTE_RIO_ANY_DESTID(mport->devid_size);
	e.block = mport->ops->cread_block != NULL && mport->ops->cwrite_block != NULL;
	e.next_tag = sw->hp_tag_lo[port] >= 0 ? (uint32_t)sw->hp_tag_lo[port] : 0;
	e.tag_hi = sw->hp_tag_lo[port] >= 0 ? sw->hp_tag_hi[port] : -1;
	e.tag_top = &sd->tag_top;

	e.used = calloc(e.nids, 1);
	if (e.used == NULL)
		return -ENOMEM;
	rio_enum_mark_used(&e, sw, port);
	ret = rio_enum_build_path(&e, sw, port);
	if (ret < 0) {
		RIO_LOG(ERR, "%s: no switch path to %s (%d)", mport->name, sw->info.name, ret);
		goto out;
	}
	/* The IDs the subtree had come first: in the same DFS order it gets them back. */
	e.cand = rio_enum_next_free(&e, old_lo >= 0 ? (uint32_t)old_lo : 0);
	if (e.cand >= e.any)
		e.cand = rio_enum_next_free(&e, 0);

	ret = rio_enum_route_path(&e);
	if (ret == 0)
		ret = rio_enum_peer(&e, sw->info.hopcount + 1, sw, port);
	if (ret == RIO_SCAN_BACKOFF)
		ret = -EBUSY;
	if (ret == 0)
		ret = rio_enum_fill_upstream(&e, &nsd.devs);
	if (ret == 0)
		ret = rio_enum_fill_upstream(&e, &sd->devs);
	if (ret == 0)
		ret = rio_enum_finish(&e);
	/* The walk leaves the path: drop the probe routes of the next candidate. */
	for (i = e.depth; ret == 0 && i-- > 0;)
		ret = rio_enum_drop_guess(&e, e.path[i]);
	/* IDs of the old subtree that nobody took back lose their routes. */
	for (id = old_lo; ret == 0 && old_lo >= 0 && id <= old_hi; id++) {
		if ((uint32_t)id >= e.any || e.used[id] || id == e.host ||
		    rio_enum_switch_id(&e, id))
			continue;
		for (i = 0; i < e.depth && ret == 0; i++)
			if (e.path[i]->rt[id] == e.path_port[i])
				ret = rio_switch_route_write(e.path[i], (uint16_t)id,
							     RTE_RIO_INVALID_ROUTE);
	}
	if (ret != 0) {
		rio_enum_abort(&e);
		rio_enum_subtree_drop(&e, &nsd.devs);
		goto out;
	}

	n = (int)nsd.ndevs;
	*first = TAILQ_FIRST(&nsd.devs);
	TAILQ_CONCAT(&sd->devs, &nsd.devs, next);
	sd->ndevs += n;
	/* Nothing answered (the link went down again?): keep the ranges for later. */
	if (n > 0) {
		sw->hp_id_lo[port] = -1;
		sw->hp_id_hi[port] = -1;
		sw->hp_tag_lo[port] = -1;
		sw->hp_tag_hi[port] = -1;
	}
	ret = n;
out:
	free(e.used);
	return ret;
}
