/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Host enumeration of a RapidIO fabric, as Linux's rio-scan.c does it
 * (reference section 4.3-4.5): a depth-first walk from the host in port
 * order, every device reached with maintenance to (ANY_DESTID, hop count)
 * through ANY_DESTID route entries pointed along the walk, locked with the
 * Host Base Device ID Lock, given its component tag at once and, for an
 * endpoint, its Base Device ID (lowest free ID, the host's reserved; the
 * same fabric always gets the same IDs). Then every switch gets an explicit
 * entry for every ID of the fabric, towards the device or towards the
 * host, as rio_update_route_tables does, and "no route" for the other IDs
 * of the window it keeps (rio_route_clr_table); nothing is left to reset
 * contents or to the default-port CSR. Locks are released and endpoints
 * marked Discovered last, which lets agents start.
 *
 * Where it differs from Linux, and why:
 *  - the table is written once, at the end, with the final values and as
 *    few transactions as the part allows (four entries per access with
 *    extended route configuration, one block write where the master port
 *    has block maintenance), not cleared and then rewritten entry by entry;
 *  - on a 16-bit fabric the window is the IDs in use plus
 *    RIO_SWITCH_RT_MARGIN, not all 65536 entries, except on a switch with
 *    an active port that no ID leads to: a reader scanning the whole table
 *    for an ID routed to that port (Linux's discovery) would find a reset
 *    value, so that switch gets its whole table;
 *  - a port that is OK but whose device does not answer is skipped, not a
 *    reason to abandon the enumeration;
 *  - a host that backs off or fails releases the locks it took and clears
 *    the route entries it wrote;
 *  - configuration is read and written with block maintenance where the
 *    master port has it (one transaction for the CARs, ...).
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
	struct rio_scan_data *sd;	/* the devices this walk found */
	struct rte_rio_dev *local;
	uint16_t host;
	uint32_t any;		/* ANY_DESTID: never assigned */
	uint32_t nids;
	uint8_t *used;		/* nids flags: ID assigned or kept (hot-plug) */
	uint32_t next_id;	/* where the search for a free ID starts */
	uint32_t next_tag;	/* next component tag */
	bool block;		/* the mport has block maintenance ops */
	/* The walk's switch path from the host, ANY_DESTID routed along it. */
	struct rte_rio_dev *path[RIO_SCAN_MAX_DEPTH];
	uint8_t path_port[RIO_SCAN_MAX_DEPTH];
	int32_t path_first[RIO_SCAN_MAX_DEPTH];	/* first ID handed out below, -1 none */
	unsigned int depth;
	bool routed;		/* final route tables written (in part) */
	/* Hot-plug re-enumeration of a subtree (rio_enum_subtree), else NULL. */
	struct rio_dev_list *live;	/* the mport's published devices */
	int32_t tag_hi;			/* last tag of the range to reuse (next_tag on) */
	uint32_t *tag_top;		/* next never-used tag, beyond the range */
};

/* ---------------------------------------------------------------------- */
/* IDs, tags, the tree                                                    */

static uint32_t
rio_enum_free_from(const struct rio_enum *e, uint32_t from)
{
	uint32_t id;

	for (id = from; id < e->any; id++)
		if (!e->used[id] && id != e->host)
			return id;
	return e->any;
}

/* Hand out the lowest free ID from next_id on (then from 0). */
static int
rio_enum_alloc_id(struct rio_enum *e, uint16_t *out)
{
	uint32_t id = rio_enum_free_from(e, e->next_id);
	unsigned int i;

	if (id >= e->any)
		id = rio_enum_free_from(e, 0);
	if (id >= e->any) {
		RIO_LOG(ERR, "%s: out of device IDs", e->mport->name);
		return -ENOSPC;
	}
	e->used[id] = 1;
	e->next_id = id + 1;
	for (i = 0; i < e->depth; i++)
		if (e->path_first[i] < 0)
			e->path_first[i] = (int32_t)id;
	*out = (uint16_t)id;
	return 0;
}

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

/* The ID @dev is known by: its own, or the one a switch will be addressed by. */
static inline uint32_t
rio_enum_dev_id(const struct rte_rio_dev *dev)
{
	return dev->access_id >= 0 ? (uint32_t)dev->access_id : dev->info.destid;
}

/* Upstream neighbour of @dev in the host's tree (NULL for the local endpoint). */
static struct rte_rio_dev *
rio_enum_parent(const struct rte_rio_dev *dev, uint8_t *port)
{
	uint8_t in = rio_scan_inport(dev);

	if (dev->info.local)
		return NULL;
	*port = dev->peer_port[in];
	return dev->peer[in];
}

/*
 * The scan's or the live list's device with @tag that a new link can lead
 * to, at its port @port (any port when the device does not say, @port < 0).
 */
static struct rte_rio_dev *
rio_enum_known(struct rio_enum *e, uint32_t tag, const struct rio_scan_raw *raw, int port)
{
	struct rte_rio_dev *dev = rio_dev_list_find_comptag(&e->sd->devs, tag);

	if (dev == NULL && e->live != NULL)
		dev = rio_dev_list_find_comptag(e->live, tag);
	/*
	 * A tag of an earlier run can name another device now: the same
	 * identity and a port not linked yet, or it is not this one.
	 */
	if (dev == NULL || tag == 0 || dev->info.pef != raw->car[4] ||
	    dev->info.vid != (raw->car[0] & RTE_RIO_DEV_ID_VID_MASK) ||
	    dev->info.did != (raw->car[0] >> 16) || port >= RTE_RIO_MAX_SWITCH_PORTS ||
	    (port >= 0 && dev->peer[port] != NULL) || dev->info.local)
		return NULL;
	return dev;
}

/* ---------------------------------------------------------------------- */
/* Walk                                                                   */

/*
 * Take the host lock of the device at (ANY_DESTID, hop). @csr gets
 * 0x60-0x6c as read back. Returns 0 (locked), RIO_SCAN_BACKOFF (a higher
 * host holds it), 1 + 1 (it is ours already: *known set) or -errno. A
 * lower host holding it is waited for, bounded.
 */
#define RIO_ENUM_KNOWN	2

static int
rio_enum_lock(struct rio_enum *e, uint8_t hop, struct rio_scan_raw *raw,
	      struct rte_rio_dev **known)
{
	uint64_t deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() * RIO_SCAN_LOCK_WAIT_MS / 1000;
	uint16_t any = (uint16_t)e->any;
	unsigned int unlocked = 0;
	uint32_t cur, *csr = raw->csr;
	int ret;

	for (;;) {
		ret = rte_rio_remote_write_config_32(e->mport, any, hop,
						     RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		if (ret < 0)
			return ret;
		if (e->block)
			ret = rio_scan_read(e->mport, any, hop, RTE_RIO_DID_CSR, 4, csr);
		else
			ret = rio_scan_read(e->mport, any, hop, RTE_RIO_HOST_DID_LOCK_CSR, 1,
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
		if (cur == RTE_RIO_HOST_DID_UNLOCKED) {
			/*
			 * Our write released a lock with our ID: a device of this
			 * walk reached again (a second port of an endpoint that
			 * does not say it has several), or a stale lock of ours.
			 */
			if (!e->block)
				ret = rio_scan_read(e->mport, any, hop, RTE_RIO_COMPONENT_TAG_CSR,
						    1, &csr[3]);
			if (ret < 0)
				return ret;
			*known = rio_enum_known(e, csr[3], raw, -1);
			if (*known != NULL) {
				ret = rte_rio_remote_write_config_32(e->mport, any, hop,
					RTE_RIO_HOST_DID_LOCK_CSR, e->host);
				return ret < 0 ? ret : RIO_ENUM_KNOWN;
			}
			if (++unlocked > RIO_SCAN_LOCK_RETRY) {
				RIO_LOG(ERR, "%s: host lock of device (0x%x, %u) does not lock",
					e->mport->name, any, hop);
				return -EIO;
			}
			continue;
		}
		/* A lower host: it will back off. */
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

/*
 * Set the input and output port enables of the Port n Control CSR at @off of
 * the device at (destid, hop), as Linux's rio_enable_rx_tx_port() does: with
 * them clear a port passes maintenance only, and the specification
 * recommends they reset clear. @ctl is the CSR when @ctl_valid.
 */
static int
rio_enum_port_enable(struct rio_enum *e, uint16_t destid, uint8_t hop, uint32_t off,
		     uint32_t ctl, bool ctl_valid)
{
	const uint32_t en = RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX;
	int ret;

	if (!ctl_valid) {
		ret = rte_rio_remote_read_config_32(e->mport, destid, hop, off, &ctl);
		if (ret < 0)
			return ret;
	}
	if ((ctl & en) == en)
		return 0;
	return rte_rio_remote_write_config_32(e->mport, destid, hop, off, ctl | en);
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

/* An ID the switch must route beyond the IDs its route table holds one by one. */
static void
rio_enum_beyond_limit(const struct rio_enum *e, const struct rte_rio_dev *sw, uint32_t id)
{
	RIO_LOG(ERR, "%s: %s routes device IDs up to 0x%x only, not 0x%x",
		e->mport->name, sw->info.name, rio_switch_route_limit(sw) - 1, id);
}

/* Point @sw's ANY_DESTID entry at @port (the walk goes there next). */
static int
rio_enum_route_any(struct rio_enum *e, struct rte_rio_dev *sw, uint8_t port)
{
	int ret;

	if (rio_switch_rt_known(sw, e->any) && sw->rt[e->any] == port)
		return 0;
	ret = rio_switch_route_write(sw, e->any, port);
	if (ret == -ERANGE)
		rio_enum_beyond_limit(e, sw, e->any);
	if (ret == 0)
		sw->any_routed = true;
	return ret;
}

static int
rio_enum_switch(struct rio_enum *e, uint8_t hop, struct rte_rio_dev *sw)
{
	uint32_t err[RTE_RIO_MAX_SWITCH_PORTS], ctl[RTE_RIO_MAX_SWITCH_PORTS];
	uint8_t in = sw->info.sw_inport;
	uint16_t id;
	unsigned int p, lvl;
	bool ctl_valid = false;
	int ret;

	ret = rio_switch_init(sw, in);
	/* Responses to the host cross this switch from now on (reset contents are no route). */
	if (ret == 0) {
		ret = rio_switch_route_write(sw, e->host, in);
		if (ret == -ERANGE)
			rio_enum_beyond_limit(e, sw, e->host);
	}
	if (ret == 0)
		ret = rio_enum_port_status(e, sw, err, ctl, &ctl_valid);
	if (ret < 0)
		return ret;
	if (e->depth >= RIO_SCAN_MAX_DEPTH) {
		RIO_LOG(ERR, "%s: fabric deeper than %u switches", e->mport->name,
			RIO_SCAN_MAX_DEPTH);
		return -ELOOP;
	}
	lvl = e->depth++;
	e->path[lvl] = sw;
	e->path_first[lvl] = -1;
	for (p = 0; p < sw->info.nports; p++) {
		if (p == in || (err[p] & RTE_RIO_PORT_N_ERR_STS_PORT_OK)) {
			sw->port_ok |= 1u << p;
			ret = rio_enum_port_enable(e, (uint16_t)e->any, hop, sw->info.phys_efptr +
				RTE_RIO_PORT_N_CTL_CSR(p, sw->info.phys_rmap), ctl[p], ctl_valid);
			if (ret < 0)
				return ret;
			continue;
		}
		/* Lockout is an Error Management feature (Linux sets it with the EM block). */
		if (sw->info.em_efptr != 0) {
			ret = rio_enum_lockout(e, sw, p, ctl[p], ctl_valid);
			if (ret < 0)
				return ret;
		}
	}
	for (p = 0; p < sw->info.nports; p++) {
		if (p == in || !(sw->port_ok & (1u << p)) || sw->peer[p] != NULL)
			continue; /* known already from the other end */
		e->path_port[lvl] = p;
		ret = rio_enum_route_any(e, sw, p);
		if (ret == 0)
			ret = rio_enum_peer(e, hop + 1, sw, p);
		if (ret != 0)
			return ret;
	}
	/* Port-writes go to the host; the walk still leads here through ANY_DESTID. */
	if ((sw->info.src_ops & RTE_RIO_OPS_PORT_WRITE) && sw->info.em_efptr != 0) {
		uint32_t tgt = ((uint32_t)e->host << 16) |
			(e->mport->devid_size == 16 ? RTE_RIO_EM_PW_TGT_DEVID_DEV16 : 0);

		ret = rte_rio_remote_write_config_32(e->mport, (uint16_t)e->any, hop,
						     sw->info.em_efptr + RTE_RIO_EM_PW_TGT_DEVID,
						     tgt);
		if (ret < 0)
			return ret;
	}
	e->depth--;
	/*
	 * Addressed by the first ID below it, or by one of its own, once routes
	 * lead there; through ANY_DESTID until then.
	 */
	if (e->path_first[lvl] >= 0) {
		sw->access_id = e->path_first[lvl];
	} else {
		ret = rio_enum_alloc_id(e, &id);
		if (ret < 0)
			return ret;
		sw->access_id = id;
	}
	return 0;
}

/*
 * Enumerate the device behind @prev's port @prev_port (the mport itself
 * when @prev is the local endpoint), at (ANY_DESTID, @hop).
 */
static int
rio_enum_peer(struct rio_enum *e, uint8_t hop, struct rte_rio_dev *prev, uint8_t prev_port)
{
	struct rte_rio_mport *mport = e->mport;
	uint16_t any = (uint16_t)e->any;
	struct rte_rio_dev *dev = NULL;
	struct rio_scan_raw raw;
	bool sw, ours = false;
	uint8_t port;
	int ret;

	memset(&raw, 0, sizeof(raw));
	ret = rio_scan_read(mport, any, hop, RTE_RIO_DEV_ID_CAR, 8, raw.car);
	if (ret < 0) {
		RIO_LOG(WARNING, "%s: no answer behind %s port %u (%d)", mport->name,
			prev->info.name, prev_port, ret);
		return 0;
	}
	sw = rio_is_switch(raw.car[4]);
	port = rio_is_multiport(raw.car[4]) ? RTE_RIO_GET_PORT_NUM(raw.car[5]) : 0;

	if (rio_is_multiport(raw.car[4])) {
		/* Reached before through another link? Then it is ours already. */
		if (e->block)
			ret = rio_scan_read(mport, any, hop, RTE_RIO_DID_CSR, 4, raw.csr);
		else
			ret = rio_scan_read(mport, any, hop, RTE_RIO_HOST_DID_LOCK_CSR, 1,
					    &raw.csr[2]);
		if (ret == 0 && !e->block && ((raw.csr[2] & RTE_RIO_HOST_DID_LOCK_MASK) == e->host ||
					      e->live != NULL))
			ret = rio_scan_read(mport, any, hop, RTE_RIO_COMPONENT_TAG_CSR, 1,
					    &raw.csr[3]);
		if (ret < 0)
			return ret;
		/* Re-enumerating, a published device is unlocked: know it by its tag. */
		if ((raw.csr[2] & RTE_RIO_HOST_DID_LOCK_MASK) == e->host || e->live != NULL)
			dev = rio_enum_known(e, raw.csr[3], &raw, port);
		/* Our ID but not a device of ours: a stale lock of an earlier run, ours. */
		ours = dev == NULL && (raw.csr[2] & RTE_RIO_HOST_DID_LOCK_MASK) == e->host;
	}
	if (dev == NULL && !ours) {
		ret = rio_enum_lock(e, hop, &raw, &dev);
		if (ret == RIO_ENUM_KNOWN)
			ret = 0;
		else if (ret != 0)
			return ret;
	}
	if (dev != NULL) {
		rio_scan_link(prev, prev_port, dev, port, true);
		RIO_LOG(DEBUG, "%s: redundant link %s.%u - %s.%u", mport->name, prev->info.name,
			prev_port, dev->info.name, port);
		/*
		 * Another port of a (dual-port) endpoint: enabled too, so the
		 * redundant path carries traffic when it is needed (a switch
		 * had all its live ports enabled when it was walked).
		 */
		if (dev->info.type == RTE_RIO_DEV_ENDPOINT && !dev->info.local &&
		    dev->info.phys_efptr != 0)
			return rio_enum_port_enable(e, any, hop, dev->info.phys_efptr +
				RTE_RIO_PORT_N_CTL_CSR(port, dev->info.phys_rmap), 0, false);
		return 0;
	}

	dev = rio_dev_alloc(mport, sw);
	if (dev == NULL) {
		/* Locked but unknown to the cleanup: release it here. */
		rte_rio_remote_write_config_32(mport, any, hop, RTE_RIO_HOST_DID_LOCK_CSR,
					       e->host);
		return -ENOMEM;
	}
	rio_scan_fill_info(dev, &raw);
	dev->locked = true;
	dev->info.hopcount = hop;
	dev->info.destid = any;
	dev->info.comptag = rio_enum_new_tag(e);
	if (prev != e->local) {
		dev->info.prev_comptag = (int32_t)prev->info.comptag;
		dev->info.prev_port = prev_port;
	}
	rio_scan_append(e->sd, dev);
	rio_scan_link(prev, prev_port, dev, rio_scan_inport(dev), false);

	ret = rio_scan_efb(mport, e->block, any, hop, dev, &raw);
	/* The tag first: a second path to this device must find it at once. */
	if (ret == 0)
		ret = rte_rio_remote_write_config_32(mport, any, hop, RTE_RIO_COMPONENT_TAG_CSR,
						     dev->info.comptag);
	if (ret < 0)
		return ret;

	if (!sw) {
		uint16_t id;

		if (dev->info.phys_efptr != 0)
			ret = rio_enum_port_enable(e, any, hop, dev->info.phys_efptr +
				RTE_RIO_PORT_N_CTL_CSR(port, dev->info.phys_rmap), 0, false);
		if (ret == 0)
			ret = rio_enum_alloc_id(e, &id);
		if (ret == 0)
			ret = rte_rio_remote_write_config_32(mport, any, hop, RTE_RIO_DID_CSR,
					RTE_RIO_SET_DID(mport->devid_size, id));
		if (ret < 0)
			return ret;
		/* From now on it answers to its own ID only, once routes lead there. */
		dev->info.destid = id;
		dev->info.hopcount = RTE_RIO_HOPCOUNT_DIRECT;
		rio_dev_set_name(dev);
		return 0;
	}
	rio_dev_set_name(dev);
	return rio_enum_switch(e, hop, dev);
}

/* ---------------------------------------------------------------------- */
/* Route tables                                                           */

/* Entries every switch routes explicitly: the window of IDs in use. */
static uint32_t
rio_enum_window(const struct rio_enum *e)
{
	uint32_t top = e->host, id;

	if (e->mport->devid_size != 16)
		return e->nids;
	for (id = 0; id < e->any; id++)
		if (e->used[id])
			top = RTE_MAX(top, id);
	return RTE_MIN(RTE_ALIGN_CEIL(top + 1 + RIO_SWITCH_RT_MARGIN, RIO_SWITCH_RT_GROUP),
		       e->any);
}

/* What a switch's table must hold: entries [0, n). */
struct rio_enum_rt {
	struct rte_rio_dev *sw;
	uint32_t n;
	uint8_t *want;
};

static struct rio_enum_rt *
rio_enum_rt_find(struct rio_enum_rt *rt, unsigned int nsw, const struct rte_rio_dev *sw)
{
	unsigned int i;

	for (i = 0; i < nsw; i++)
		if (rt[i].sw == sw)
			return &rt[i];
	return NULL;
}

/*
 * Every ID routed on every switch: towards the host (the ingress port) by
 * default, "no route" for free IDs, the current entry for IDs kept for a
 * removed subtree; then, for every ID a device owns, towards it on the
 * switches above it.
 */
static int
rio_enum_rt_fill(struct rio_enum *e, struct rio_dev_list *lists[2], struct rio_enum_rt *rt,
		 unsigned int nsw)
{
	struct rte_rio_dev **owner, *dev, *cur, *up;
	struct rio_enum_rt *r;
	unsigned int i, l, pass, depth;
	uint32_t id;
	uint8_t port = 0;
	int ret = 0;

	owner = calloc(e->nids, sizeof(*owner));
	if (owner == NULL)
		return -ENOMEM;
	/* An endpoint owns its ID; a switch owns the ID it is addressed by if nobody else does. */
	for (pass = 0; pass < 2; pass++)
		for (l = 0; l < 2; l++)
			if (lists[l] != NULL)
				TAILQ_FOREACH(dev, lists[l], next) {
					id = rio_enum_dev_id(dev);
					/* A switch reached by the host's own ID does not own it. */
					if (!dev->info.local && id < e->any && id != e->host &&
					    (dev->info.type == RTE_RIO_DEV_ENDPOINT) == (pass == 0) &&
					    owner[id] == NULL)
						owner[id] = dev;
				}
	for (i = 0; i < nsw; i++) {
		struct rte_rio_dev *sw = rt[i].sw;

		for (id = 0; id < rt[i].n; id++) {
			if (id == e->host || owner[id] != NULL)
				rt[i].want[id] = sw == owner[id] ? RTE_RIO_INVALID_ROUTE :
					sw->info.sw_inport;
			else if (e->used[id] && rio_switch_rt_known(sw, id))
				rt[i].want[id] = sw->rt[id];
			else
				rt[i].want[id] = RTE_RIO_INVALID_ROUTE;
		}
	}
	for (id = 0; id < e->any; id++) {
		if (owner[id] == NULL)
			continue;
		cur = owner[id];
		for (depth = 0; depth < RIO_SCAN_MAX_DEPTH; depth++) {
			up = rio_enum_parent(cur, &port);
			if (up == NULL)
				break;
			r = rio_enum_rt_find(rt, nsw, up);
			if (r != NULL && id < r->n) {
				r->want[id] = port;
			} else if (r != NULL) {
				rio_enum_beyond_limit(e, up, id);
				ret = -ERANGE;
			}
			cur = up;
		}
	}
	free(owner);
	return ret;
}

/* Does every live port of the switch other than its ingress have an ID routed to it? */
static bool
rio_enum_rt_ports_reached(const struct rio_enum_rt *r)
{
	uint32_t reached = 1u << r->sw->info.sw_inport, id;

	for (id = 0; id < r->n; id++)
		if (r->want[id] < RTE_RIO_MAX_SWITCH_PORTS)
			reached |= 1u << r->want[id];
	return (r->sw->port_ok & ~reached) == 0;
}

/* "No route" for entries [from, to) of @sw. */
static int
rio_enum_rt_clear(struct rte_rio_dev *sw, uint32_t from, uint32_t to)
{
	uint8_t none[256];
	uint32_t n;
	int ret = 0;

	memset(none, RTE_RIO_INVALID_ROUTE, sizeof(none));
	for (; from < to && ret == 0; from += n) {
		n = RTE_MIN(to - from, (uint32_t)sizeof(none));
		ret = rio_switch_route_program(sw, from, n, none);
	}
	return ret;
}

/*
 * Program every switch of @lists (the walk's, and the published ones when
 * re-enumerating) with the final routes, as few transactions as each part
 * allows; entries the shadow knows to be right already cost nothing.
 * Switches are programmed from the host down and reached by their own IDs:
 * the switches above one are programmed before it. A switch the mport does
 * not hold is locked for the writes.
 */
static int
rio_enum_routes(struct rio_enum *e, struct rio_dev_list *lists[2])
{
	uint32_t window = rio_enum_window(e);
	struct rio_enum_rt *rt = NULL;
	struct rte_rio_dev *dev;
	unsigned int nsw = 0, i, l;
	uint8_t *mem = NULL;
	size_t off = 0;
	int ret = 0;

	for (l = 0; l < 2; l++)
		if (lists[l] != NULL)
			TAILQ_FOREACH(dev, lists[l], next)
				nsw += dev->info.type == RTE_RIO_DEV_SWITCH;
	rt = calloc(RTE_MAX(nsw, 1u), sizeof(*rt));
	if (rt == NULL)
		return -ENOMEM;
	nsw = 0;
	for (l = 0; l < 2; l++) {
		if (lists[l] == NULL)
			continue;
		TAILQ_FOREACH(dev, lists[l], next) {
			if (dev->info.type != RTE_RIO_DEV_SWITCH)
				continue;
			rt[nsw].sw = dev;
			rt[nsw].n = RTE_MIN(window, rio_switch_route_limit(dev));
			off += rt[nsw].n;
			nsw++;
		}
	}
	mem = malloc(RTE_MAX(off, (size_t)1));
	if (mem == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0, off = 0; i < nsw; i++) {
		rt[i].want = mem + off;
		off += rt[i].n;
	}
	ret = rio_enum_rt_fill(e, lists, rt, nsw);
	for (i = 0; i < nsw && ret == 0; i++) {
		struct rte_rio_dev *sw = rt[i].sw;
		bool held = sw->locked;

		/* The switches above it are programmed: its own ID leads there now. */
		if (sw->access_id >= 0) {
			sw->info.destid = (uint16_t)sw->access_id;
			sw->access_id = -1;
		}
		ret = rio_switch_lock(sw, e->host, RTE_RIO_SWITCH_LOCK_WAIT_MS);
		if (ret < 0)
			break;
		e->routed = true;
		ret = rio_switch_route_program(sw, 0, rt[i].n, rt[i].want);
		/* Beyond the window only a reader of whole tables looks. */
		if (ret == 0 && e->mport->devid_size == 16 && !rio_enum_rt_ports_reached(&rt[i]))
			ret = rio_enum_rt_clear(sw, rt[i].n, rio_switch_route_limit(sw));
		/* The walk's ANY_DESTID entry, outside a 16-bit window. */
		if (ret == 0 && sw->any_routed &&
		    (!rio_switch_rt_known(sw, e->any) || sw->rt[e->any] != RTE_RIO_INVALID_ROUTE))
			ret = rio_switch_route_write(sw, e->any, RTE_RIO_INVALID_ROUTE);
		if (ret == 0)
			sw->any_routed = false;
		if (!held)
			rio_switch_unlock(sw, e->host);
	}
	if (ret == 0)
		e->sd->rt_window = window;
out:
	free(mem);
	free(rt);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Finishing and aborting                                                 */

/*
 * Success: release every lock of the walk, then set Discovered and Master
 * Enable in every new endpoint's Port General Control: agents waiting on
 * Discovered proceed, and find the switches unlocked.
 */
static int
rio_enum_release(struct rio_enum *e)
{
	struct rte_rio_mport *mport = e->mport;
	struct rte_rio_dev *dev;
	int ret;

	TAILQ_FOREACH(dev, &e->sd->devs, next) {
		if (dev->info.local || !dev->locked)
			continue;
		if (dev->info.type == RTE_RIO_DEV_SWITCH) {
			ret = rio_switch_unlock(dev, e->host);
		} else {
			ret = rte_rio_dev_write_config_32(dev, RTE_RIO_HOST_DID_LOCK_CSR, e->host);
			dev->locked = ret < 0;
		}
		if (ret < 0) {
			RIO_LOG(ERR, "%s: cannot release %s (%d)", mport->name, dev->info.name,
				ret);
			return ret;
		}
	}
	TAILQ_FOREACH(dev, &e->sd->devs, next) {
		uint32_t off = dev->info.phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR;

		if (dev->info.local || dev->info.type != RTE_RIO_DEV_ENDPOINT ||
		    dev->info.phys_efptr == 0)
			continue;
		if (!e->block) {
			ret = rte_rio_dev_read_config_32(dev, off, &dev->gen_ctl);
			if (ret < 0)
				return ret;
		}
		if ((dev->gen_ctl & RIO_PORT_DISC_MASTER) == RIO_PORT_DISC_MASTER)
			continue;
		dev->gen_ctl |= RIO_PORT_DISC_MASTER;
		ret = rte_rio_dev_write_config_32(dev, off, dev->gen_ctl);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Switches between the host and @dev: its hop count. */
static uint8_t
rio_enum_depth(const struct rte_rio_dev *dev)
{
	struct rte_rio_dev *up;
	uint8_t hop = 0, port;

	while ((up = rio_enum_parent(dev, &port)) != NULL) {
		hop += up->info.type == RTE_RIO_DEV_SWITCH;
		dev = up;
	}
	return hop;
}

/* Route ANY_DESTID from the host down to @dev (its switches the walk's or locked). */
static int
rio_enum_route_any_to(struct rio_enum *e, struct rte_rio_dev *dev)
{
	struct rte_rio_dev *chain[RIO_SCAN_MAX_DEPTH], *cur = dev, *up;
	uint8_t ports[RIO_SCAN_MAX_DEPTH], port = 0;
	unsigned int n = 0;
	int ret = 0;

	while (n < RIO_SCAN_MAX_DEPTH && (up = rio_enum_parent(cur, &port)) != NULL) {
		if (up->info.type == RTE_RIO_DEV_SWITCH) {
			chain[n] = up;
			ports[n] = port;
			n++;
		}
		cur = up;
	}
	while (n-- > 0 && ret == 0)
		ret = rio_enum_route_any(e, chain[n], ports[n]);
	return ret;
}

/*
 * Failure or back-off: every device of the walk, deepest first, reached
 * again through ANY_DESTID: its route entries the walk wrote cleared, its
 * lock released. Best effort: a device that does not answer any more is
 * skipped. Base Device IDs and component tags stay (the next enumerator
 * writes its own).
 */
static void
rio_enum_abort(struct rio_enum *e)
{
	struct rte_rio_mport *mport = e->mport;
	struct rte_rio_dev *dev;
	uint32_t limit, id;

	/* Through ANY_DESTID, routed from the host down before each access. */
	TAILQ_FOREACH(dev, &e->sd->devs, next) {
		if (dev->info.local)
			continue;
		dev->info.destid = (uint16_t)e->any;
		dev->info.hopcount = rio_enum_depth(dev);
		dev->access_id = -1;
	}
	TAILQ_FOREACH_REVERSE(dev, &e->sd->devs, rio_dev_list, next) {
		if (dev->info.local)
			continue;
		if (rio_enum_route_any_to(e, dev) < 0) {
			RIO_LOG(WARNING, "%s: %s out of reach, left locked", mport->name,
				dev->info.name);
			continue;
		}
		if (dev->info.type == RTE_RIO_DEV_SWITCH) {
			/* Entries the walk wrote go back to "no route". */
			limit = rio_switch_route_limit(dev);
			for (id = 0; id < limit; id++) {
				if (!rio_switch_rt_known(dev, id) ||
				    dev->rt[id] == RTE_RIO_INVALID_ROUTE || id == e->any)
					continue;
				rio_switch_route_write(dev, id, RTE_RIO_INVALID_ROUTE);
			}
		}
		if (dev->locked)
			rte_rio_dev_write_config_32(dev, RTE_RIO_HOST_DID_LOCK_CSR, e->host);
		dev->locked = false;
		/* Its ANY_DESTID entry last: the way to the devices below it. */
		if (dev->info.type == RTE_RIO_DEV_SWITCH && dev->any_routed)
			rio_switch_route_write(dev, e->any, RTE_RIO_INVALID_ROUTE);
	}
}

/* ---------------------------------------------------------------------- */
/* Host enumeration                                                       */

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
		RIO_LOG(NOTICE, "%s: host 0x%x is enumerating this port: joining as an agent",
			e->mport->name, v & RTE_RIO_HOST_DID_LOCK_MASK);
		return RIO_SCAN_BACKOFF;
	}
	return 0;
}

/*
 * The host's own port: input and output enabled (more than maintenance
 * passes), Host and Master Enable (it issues requests) set before the walk;
 * Discovered only at the end.
 */
static int
rio_enum_local_port(struct rio_enum *e)
{
	struct rte_rio_mport *mport = e->mport;
	const uint32_t gen_bits = RTE_RIO_PORT_GEN_HOST | RTE_RIO_PORT_GEN_MASTER;
	uint32_t gen_off = mport->phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR;
	uint32_t v;
	int ret;

	ret = rio_scan_local_port_enable(mport);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, gen_off, &v);
	if (ret == 0 && (v & gen_bits) != gen_bits)
		ret = rte_rio_local_write_config_32(mport, gen_off, v | gen_bits);
	return ret;
}

/*
 * Was this port enumerated before? Not by its Discovered bit, which a part
 * may set at reset (Part 7 suggests it for a host), but by what an
 * enumerator writes first: the component tag, and the Base Device ID.
 * Asked with the port's lock held (rio_enum_lock_local()), so that no other
 * host can enumerate it between the question and the walk.
 * 0: enumerate; 1: it was this host (tag 1 and our ID): take the role back;
 * RIO_SCAN_BACKOFF: another host did: join as an agent.
 */
static int
rio_enum_prior(struct rio_enum *e)
{
	struct rte_rio_mport *mport = e->mport;
	uint32_t did, tag;
	int ret;

	ret = rte_rio_local_read_config_32(mport, RTE_RIO_DID_CSR, &did);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, RTE_RIO_COMPONENT_TAG_CSR, &tag);
	if (ret < 0)
		return ret;
	did = RTE_RIO_GET_DID(mport->devid_size, did);
	if (tag == 0)
		return 0;
	if (tag == 1 && did == e->host) {
		RIO_LOG(NOTICE, "%s: fabric enumerated before by host 0x%x (this mport): "
			"taking the host role back", mport->name, e->host);
		return 1;
	}
	RIO_LOG(NOTICE, "%s: fabric enumerated by another host (this port has ID 0x%x, "
		"component tag 0x%x): joining as an agent", mport->name, did, tag);
	return RIO_SCAN_BACKOFF;
}

int
rio_enum_mport(struct rte_rio_mport *mport, struct rio_scan_data *sd)
{
	struct rio_dev_list *lists[2] = { &sd->devs, NULL };
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
	/* Lock first, then look: a rival must not enumerate in between. */
	ret = rio_enum_lock_local(&e);
	if (ret != 0)
		return ret;
	ret = rio_enum_prior(&e);
	if (ret == 1) {
		sd->lock_id = e.host;
		ret = rio_disc_takeover(mport, sd);
		if (ret != -EAGAIN)
			goto release_local;
		RIO_LOG(NOTICE, "%s: that enumeration did not finish: enumerating again",
			mport->name);
	} else if (ret != 0) {
		goto release_local;
	}
	ret = rio_enum_local_port(&e);
	if (ret < 0)
		goto unlock_local;

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
	sd->lock_id = e.host;
	/* Own ID first: responses are routed back to it. */
	ret = rte_rio_local_write_config_32(mport, RTE_RIO_DID_CSR,
					    RTE_RIO_SET_DID(mport->devid_size, e.host));
	if (ret == 0)
		ret = rte_rio_local_write_config_32(mport, RTE_RIO_COMPONENT_TAG_CSR,
						    e.local->info.comptag);
	if (ret < 0)
		goto unlock_local;

	ret = rio_enum_peer(&e, 0, e.local, 0);
	if (ret == 0)
		ret = rio_enum_routes(&e, lists);
	if (ret == 0)
		ret = rio_enum_release(&e);
	if (ret != 0) {
		rio_enum_abort(&e);
		/* Not ours any more: a later scan must not take it for a finished one. */
		rte_rio_local_write_config_32(mport, RTE_RIO_COMPONENT_TAG_CSR, 0);
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

release_local:
	/* Backing off, or the role taken back: the port stays as an enumeration leaves it. */
	rte_rio_local_write_config_32(mport, RTE_RIO_HOST_DID_LOCK_CSR, e.host);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Host hot-plug: enumerate one subtree again                              */

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
	struct rte_rio_dev *chain[RIO_SCAN_MAX_DEPTH], *cur = sw, *up;
	uint8_t ports[RIO_SCAN_MAX_DEPTH], p = port;
	unsigned int n = 0, i;

	for (;;) {
		if (n >= RIO_SCAN_MAX_DEPTH)
			return -ELOOP;
		chain[n] = cur;
		ports[n] = p;
		n++;
		up = rio_enum_parent(cur, &p);
		while (up != NULL && up->info.type != RTE_RIO_DEV_SWITCH)
			up = rio_enum_parent(up, &p);
		if (up == NULL)
			break;
		cur = up;
	}
	for (i = 0; i < n; i++) {
		e->path[i] = chain[n - 1 - i];
		e->path_port[i] = ports[n - 1 - i];
		e->path_first[i] = 0;	/* addressed already */
	}
	e->depth = n;
	return e->path[n - 1]->info.hopcount == n - 1 ? 0 : -EIO;
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

/* Clear the ANY_DESTID entries the walk wrote on the path, and release the path. */
static void
rio_enum_path_release(struct rio_enum *e, unsigned int locked)
{
	unsigned int i;

	for (i = locked; i-- > 0;) {
		struct rte_rio_dev *sw = e->path[i];

		if (sw->any_routed && rio_switch_route_write(sw, e->any,
							     RTE_RIO_INVALID_ROUTE) == 0)
			sw->any_routed = false;
		rio_switch_unlock(sw, e->host);
	}
}

/* Write the link partner's registers; a response that does not come back may be expected. */
static int
rio_enum_partner_writes(struct rio_enum *e, uint8_t hop, const struct rio_partner_write *w,
			unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rte_rio_remote_write_config_32(e->mport, (uint16_t)e->any, hop, w[i].offset,
						     w[i].value);
		if (ret < 0 && w[i].answered) {
			RIO_LOG(WARNING, "%s: link partner at hop %u: write of 0x%x failed (%d)",
				e->mport->name, hop, w[i].offset, ret);
			return ret;
		}
	}
	return 0;
}

int
rio_enum_subtree(struct rte_rio_mport *mport, struct rte_rio_dev *sw, uint8_t port,
		 struct rte_rio_dev **first)
{
	return rio_enum_subtree_fix(mport, sw, port, NULL, 0, first);
}

int
rio_enum_subtree_fix(struct rte_rio_mport *mport, struct rte_rio_dev *sw, uint8_t port,
		     const struct rio_partner_write *w, unsigned int nw,
		     struct rte_rio_dev **first)
{
	struct rio_scan_data *sd = mport->lib->scan_data;
	struct rio_dev_list *lists[2];
	struct rio_scan_data nsd;
	struct rio_enum e;
	int32_t old_lo = sw->hp_id_lo[port];
	unsigned int locked = 0, depth;
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
	nsd.lock_id = sd->lock_id;
	lists[0] = &sd->devs;
	lists[1] = &nsd.devs;

	e.used = calloc(e.nids, 1);
	if (e.used == NULL)
		return -ENOMEM;
	rio_enum_mark_used(&e, sw, port);
	ret = rio_enum_build_path(&e, sw, port);
	if (ret < 0) {
		RIO_LOG(ERR, "%s: no switch path to %s (%d)", mport->name, sw->info.name, ret);
		goto out;
	}
	/* The IDs the subtree had come first: in the same walk order it gets them back. */
	e.next_id = old_lo >= 0 ? (uint32_t)old_lo : 0;

	/* The path's switches are published: hold them while ANY_DESTID leads the walk. */
	for (locked = 0; locked < e.depth && ret == 0; locked++) {
		ret = rio_switch_lock(e.path[locked], e.host, RTE_RIO_SWITCH_LOCK_WAIT_MS);
		if (ret == 0)
			ret = rio_enum_route_any(&e, e.path[locked], e.path_port[locked]);
		if (ret < 0)
			break;
	}
	depth = e.depth;
	if (ret == 0)
		ret = rio_enum_partner_writes(&e, sw->info.hopcount + 1, w, nw);
	if (ret == 0)
		ret = rio_enum_peer(&e, sw->info.hopcount + 1, sw, port);
	e.depth = depth;
	if (ret == RIO_SCAN_BACKOFF)
		ret = -EBUSY;
	/* Nothing answered: the routes of the kept IDs stay for its return. */
	if (ret == 0 && nsd.ndevs > 0)
		ret = rio_enum_routes(&e, lists);
	if (ret == 0)
		ret = rio_enum_release(&e);
	if (ret != 0) {
		rio_enum_abort(&e);
		rio_enum_path_release(&e, locked);
		rio_enum_subtree_drop(&e, &nsd.devs);
		goto out;
	}
	rio_enum_path_release(&e, locked);

	n = (int)nsd.ndevs;
	*first = TAILQ_FIRST(&nsd.devs);
	TAILQ_CONCAT(&sd->devs, &nsd.devs, next);
	sd->ndevs += n;
	if (n > 0)
		sd->rt_window = nsd.rt_window;
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
