/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Agent discovery of a RapidIO fabric, as Linux's rio_disc_peer() does it
 * (reference section 4.6): wait for Discovered, read the own Base Device
 * ID, then walk the fabric from the own port, depth first: every switch is
 * locked with the agent's own ID (its Host Base Device ID Lock, so nobody
 * changes a table select in the middle of the reads), its route table read
 * and the lock released; behind every active port other than the one the
 * walk came in by, the device is reached with maintenance to the lowest ID
 * the table routes to that port, one hop further. It relies on nothing but
 * the explicit route entries an enumerator writes (ours or Linux's): no
 * default-port CSR, no Error Management block, no numbering convention.
 * Devices are known by component tag: one seen again is a redundant link.
 *
 * Where it differs from Linux, and why: the tables are read once per
 * switch, four entries per access where the switch has extended route
 * configuration; past the first switch only the entries of the IDs the
 * previous switch routes towards it (the others lead back the way the walk
 * came: explicit routes say so; they stay unknown in the view); on a 16-bit
 * fabric only the window of IDs in use plus RIO_SWITCH_RT_MARGIN (the
 * window grows with the highest ID found, and the tables are read further
 * when it does), not 65536 entries twice.
 *
 * The same walk rebuilds the view of a host that restarts on a fabric it
 * enumerated (rio_disc_takeover()): from the host's own port, locking with
 * the host ID, and checking that the enumeration it finds had finished.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "rio_scan_private.h"

/* Discovery polls the Discovered bit this often. */
#define RIO_SCAN_DISC_POLL_MS		10

struct rio_disc {
	struct rte_rio_mport *mport;
	struct rio_scan_data *sd;
	struct rte_rio_dev *local;
	uint16_t self;		/* own ID: what the lock CSRs get */
	uint32_t any;
	uint32_t nids;
	uint32_t window;	/* route entries [0, window) read on every switch */
	uint32_t top;		/* highest ID seen (devices, routes, the host) */
	uint32_t tag_top;	/* highest component tag seen */
	bool block;
	bool takeover;		/* a restarted host: the enumeration must have finished */
	unsigned int lock_wait_ms;	/* for a switch another party holds */
};

static void
rio_disc_saw_id(struct rio_disc *d, uint32_t id)
{
	if (id < d->any && id > d->top)
		d->top = id;
}

/* Entries to read: the whole table on 8-bit fabrics, the IDs seen and a margin on 16-bit. */
static uint32_t
rio_disc_window(const struct rio_disc *d)
{
	if (d->mport->devid_size != 16)
		return d->nids;
	return RTE_MIN(RTE_ALIGN_CEIL(d->top + 1 + RIO_SWITCH_RT_MARGIN, RIO_SWITCH_RT_GROUP),
		       d->any);
}

static int
rio_disc_port_status(struct rio_disc *d, struct rte_rio_dev *sw)
{
	uint32_t stride = RTE_RIO_PORT_N_STRIDE(sw->info.phys_rmap), w[16];
	unsigned int per = d->block ? RTE_MAX(64 / stride, 1u) : 1;
	unsigned int p, k;
	int ret;

	for (p = 0; p < sw->info.nports; p += per) {
		uint32_t off = sw->info.phys_efptr +
			RTE_RIO_PORT_N_ERR_STS_CSR(p, sw->info.phys_rmap);
		unsigned int n = RTE_MIN(per, sw->info.nports - p);

		ret = rio_scan_read(d->mport, sw->info.destid, sw->info.hopcount, off,
				    n == 1 || !d->block ? 1 : 16, w);
		if (ret < 0)
			return ret;
		for (k = 0; k < n; k++)
			if ((w[k * stride / 4] & RTE_RIO_PORT_N_ERR_STS_PORT_OK) ||
			    p + k == sw->info.sw_inport)
				sw->port_ok |= 1u << (p + k);
	}
	return 0;
}

/*
 * Could @id lie behind @sw, seen from the walk? The first switch: any ID;
 * another: the IDs the switch the walk came from routes towards it, as an
 * enumerator's explicit routes send every other ID back that way.
 */
static bool
rio_disc_candidate(const struct rio_disc *d, const struct rte_rio_dev *sw, uint32_t id)
{
	const struct rte_rio_dev *up = sw->peer[sw->info.sw_inport];
	uint8_t q = sw->peer_port[sw->info.sw_inport];

	/* A host taking its role back reprograms routes: it reads them all. */
	if (d->takeover || up == NULL || up->info.type != RTE_RIO_DEV_SWITCH)
		return true;
	return rio_switch_rt_known(up, id) && up->rt[id] == q;
}

/*
 * Read @sw's entries [from, to) that can lead away from the walk, under its
 * lock, in runs of whole groups of RIO_SWITCH_RT_GROUP.
 */
static int
rio_disc_read_routes(struct rio_disc *d, struct rte_rio_dev *sw, uint32_t from, uint32_t to)
{
	uint32_t id, lo, hi, k;
	bool any;
	int ret = 0;

	to = RTE_MIN(to, rio_switch_route_limit(sw));
	from = RTE_ALIGN_FLOOR(from, RIO_SWITCH_RT_GROUP);
	if (from >= to)
		return 0;
	ret = rio_switch_lock(sw, d->self, d->lock_wait_ms);
	if (ret < 0)
		return ret;
	for (lo = from; lo < to && ret == 0; lo = hi) {
		/* The next run of groups holding a candidate. */
		for (any = false; lo < to && !any; lo += any ? 0 : RIO_SWITCH_RT_GROUP)
			for (k = 0; k < RIO_SWITCH_RT_GROUP && lo + k < to && !any; k++)
				any = rio_disc_candidate(d, sw, lo + k);
		for (hi = lo; hi < to; hi += RIO_SWITCH_RT_GROUP) {
			for (any = false, k = 0; k < RIO_SWITCH_RT_GROUP && hi + k < to; k++)
				any = any || rio_disc_candidate(d, sw, hi + k);
			if (!any)
				break;
		}
		hi = RTE_MIN(hi, to);
		if (hi > lo)
			ret = rio_switch_route_load(sw, lo, hi - lo);
		for (id = lo; ret == 0 && id < hi; id++)
			if (sw->rt[id] != RTE_RIO_INVALID_ROUTE)
				rio_disc_saw_id(d, id);
	}
	rio_switch_unlock(sw, d->self);
	return ret;
}

static int rio_disc_ports(struct rio_disc *d, struct rte_rio_dev *sw);

/* Read the device at (destid, hop), behind @prev's port @prev_port, and what is below it. */
static int
rio_disc_peer(struct rio_disc *d, uint16_t destid, uint8_t hop, struct rte_rio_dev *prev,
	      uint8_t prev_port)
{
	struct rte_rio_mport *mport = d->mport;
	struct rio_scan_raw raw;
	struct rte_rio_dev *dev;
	uint8_t port;
	bool sw;
	int ret;

	if (hop >= RIO_SCAN_MAX_DEPTH)
		return -ELOOP;
	memset(&raw, 0, sizeof(raw));
	ret = rio_scan_read(mport, destid, hop, RTE_RIO_DEV_ID_CAR, 8, raw.car);
	if (ret == 0 && d->block) {
		ret = rio_scan_read(mport, destid, hop, RTE_RIO_DID_CSR, 4, raw.csr);
	} else if (ret == 0) {
		/* Word by word: the Base Device ID, the tag, and the lock on a takeover. */
		ret = rio_scan_read(mport, destid, hop, RTE_RIO_DID_CSR, 1, &raw.csr[0]);
		if (ret == 0)
			ret = rio_scan_read(mport, destid, hop, RTE_RIO_COMPONENT_TAG_CSR, 1,
					    &raw.csr[3]);
		if (ret == 0 && d->takeover)
			ret = rio_scan_read(mport, destid, hop, RTE_RIO_HOST_DID_LOCK_CSR, 1,
					    &raw.csr[2]);
	}
	if (ret < 0) {
		RIO_LOG(ERR, "%s: no answer from (0x%x, %u) behind %s port %u (%d)", mport->name,
			destid, hop, prev->info.name, prev_port, ret);
		return ret;
	}
	sw = rio_is_switch(raw.car[4]);
	port = rio_is_multiport(raw.car[4]) ? RTE_RIO_GET_PORT_NUM(raw.car[5]) : 0;
	if (d->takeover && (raw.csr[2] & RTE_RIO_HOST_DID_LOCK_MASK) == d->self) {
		RIO_LOG(NOTICE, "%s: device (0x%x, %u) still locked by this host", mport->name,
			destid, hop);
		return -EAGAIN;
	}
	dev = rio_dev_list_find_comptag(&d->sd->devs, raw.csr[3]);
	if (dev != NULL) {
		/* Routes lead to it twice: it is known, the link is another way to it. */
		rio_scan_link(prev, prev_port, dev, port, true);
		RIO_LOG(DEBUG, "%s: %s seen again through %s port %u", mport->name,
			dev->info.name, prev->info.name, prev_port);
		return 0;
	}
	dev = rio_dev_alloc(mport, sw);
	if (dev == NULL)
		return -ENOMEM;
	rio_scan_fill_info(dev, &raw);
	dev->info.comptag = raw.csr[3];
	d->tag_top = RTE_MAX(d->tag_top, raw.csr[3] & RTE_RIO_CTAG_UDEVID);
	if (prev != d->local) {
		dev->info.prev_comptag = (int32_t)prev->info.comptag;
		dev->info.prev_port = prev_port;
	}
	rio_scan_append(d->sd, dev);
	rio_scan_link(prev, prev_port, dev, rio_scan_inport(dev), false);
	ret = rio_scan_efb(mport, d->block, destid, hop, dev, &raw);
	if (ret < 0)
		return ret;
	if (raw.pw_target_valid)
		rio_disc_saw_id(d, (raw.pw_target >> 16) &
				(mport->devid_size == 16 ? 0xffff : 0xff));

	if (!sw) {
		dev->info.destid = RTE_RIO_GET_DID(mport->devid_size, raw.csr[0]);
		rio_disc_saw_id(d, dev->info.destid);
		if (!d->block && d->takeover && dev->info.phys_efptr != 0)
			ret = rio_scan_read(mport, destid, hop, dev->info.phys_efptr +
					    RTE_RIO_PORT_GEN_CTL_CSR, 1, &dev->gen_ctl);
		if (ret < 0)
			return ret;
		if (d->takeover && !(dev->gen_ctl & RTE_RIO_PORT_GEN_DISCOVERED)) {
			RIO_LOG(NOTICE, "%s: endpoint 0x%x not marked Discovered", mport->name,
				dev->info.destid);
			return -EAGAIN;
		}
		rio_dev_set_name(dev);
		/* Past a switch, an endpoint is reached by a route to its own ID. */
		if (hop > 0 && dev->info.destid != destid)
			RIO_LOG(WARNING, "%s: %s reached as 0x%x", mport->name, dev->info.name,
				destid);
		return 0;
	}
	dev->info.destid = destid;
	dev->info.hopcount = hop;
	rio_dev_set_name(dev);
	rio_disc_saw_id(d, destid);
	ret = rio_disc_port_status(d, dev);
	if (ret == 0)
		ret = rio_disc_read_routes(d, dev, 0, d->window);
	if (ret == 0)
		ret = rio_disc_ports(d, dev);
	return ret;
}

/* Walk on behind every live port of @sw that a route leads to and nothing known does. */
static int
rio_disc_ports(struct rio_disc *d, struct rte_rio_dev *sw)
{
	uint32_t limit = RTE_MIN(d->window, rio_switch_route_limit(sw)), id;
	uint32_t lowest[RTE_RIO_MAX_SWITCH_PORTS];
	unsigned int p;
	int ret;

	for (p = 0; p < RTE_RIO_MAX_SWITCH_PORTS; p++)
		lowest[p] = UINT32_MAX;
	for (id = 0; id < limit; id++) {
		uint8_t q = sw->rt[id];

		if (q < sw->info.nports && lowest[q] == UINT32_MAX &&
		    rio_switch_rt_known(sw, id))
			lowest[q] = id;
	}
	for (p = 0; p < sw->info.nports; p++) {
		if (p == sw->info.sw_inport || !(sw->port_ok & (1u << p)) ||
		    sw->peer[p] != NULL || lowest[p] == UINT32_MAX)
			continue;
		ret = rio_disc_peer(d, (uint16_t)lowest[p], sw->info.hopcount + 1, sw, (uint8_t)p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * 16-bit fabrics: the walk found IDs near the edge of the window. Read the
 * tables further and follow ports the new entries lead to, until the window
 * covers every ID found plus the margin.
 */
static int
rio_disc_grow(struct rio_disc *d)
{
	struct rte_rio_dev *dev;
	uint32_t from;
	int ret;

	while (rio_disc_window(d) > d->window) {
		from = d->window;
		d->window = rio_disc_window(d);
		TAILQ_FOREACH(dev, &d->sd->devs, next) {
			if (dev->info.type != RTE_RIO_DEV_SWITCH)
				continue;
			ret = rio_disc_read_routes(d, dev, from, d->window);
			if (ret < 0)
				return ret;
		}
		/* Devices appended meanwhile are walked by their own rio_disc_peer(). */
		TAILQ_FOREACH(dev, &d->sd->devs, next) {
			if (dev->info.type != RTE_RIO_DEV_SWITCH)
				continue;
			ret = rio_disc_ports(d, dev);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

unsigned int
rio_disc_timeout_ms(const struct rte_rio_scan_conf *conf)
{
	return conf != NULL && conf->disc_timeout_ms != 0 ?
		conf->disc_timeout_ms : RTE_RIO_DISC_TIMEOUT_DEFAULT * 1000;
}

static int
rio_disc_wait(struct rte_rio_mport *mport, const struct rte_rio_scan_conf *conf)
{
	unsigned int timeout_ms = rio_disc_timeout_ms(conf);
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * timeout_ms / 1000;
	uint32_t gen;
	int ret;

	for (;;) {
		ret = rte_rio_local_read_config_32(mport, mport->phys_efptr +
						   RTE_RIO_PORT_GEN_CTL_CSR, &gen);
		if (ret < 0)
			return ret;
		if (gen & RTE_RIO_PORT_GEN_DISCOVERED)
			return 0;
		if (conf != NULL && conf->no_wait)
			return -EAGAIN;
		if (rte_get_timer_cycles() > deadline) {
			RIO_LOG(ERR, "%s: no host enumerated the fabric within %u ms",
				mport->name, timeout_ms);
			return -ETIMEDOUT;
		}
		rte_delay_us_sleep(RIO_SCAN_DISC_POLL_MS * 1000);
	}
}

/* The walk from the own port; sd->lock_id set by the caller. */
static int
rio_disc_walk(struct rte_rio_mport *mport, struct rio_scan_data *sd, bool takeover,
	      unsigned int lock_wait_ms)
{
	struct rte_rio_dev *dev;
	struct rio_disc d;
	uint32_t v;
	int ret;

	memset(&d, 0, sizeof(d));
	d.mport = mport;
	d.sd = sd;
	d.nids = RTE_RIO_MAX_DESTIDS(mport->devid_size);
	d.any = RTE_RIO_ANY_DESTID(mport->devid_size);
	d.block = mport->ops->cread_block != NULL;
	d.takeover = takeover;
	d.lock_wait_ms = lock_wait_ms;

	ret = rio_scan_local_dev(mport, &d.local);
	if (ret < 0)
		return ret;
	rio_scan_append(sd, d.local);
	ret = rte_rio_local_read_config_32(mport, RTE_RIO_DID_CSR, &v);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, RTE_RIO_COMPONENT_TAG_CSR,
						   &d.local->info.comptag);
	if (ret < 0)
		goto fail;
	d.local->info.destid = RTE_RIO_GET_DID(mport->devid_size, v);
	rio_dev_set_name(d.local);
	d.self = d.local->info.destid;
	sd->lock_id = d.self;
	rio_disc_saw_id(&d, d.self);
	d.window = rio_disc_window(&d);

	/* The device on the other end of the link, consumed at hop 0 whatever the ID. */
	ret = rio_disc_peer(&d, d.self, 0, d.local, 0);
	if (ret == 0)
		ret = rio_disc_grow(&d);
	if (ret < 0)
		goto fail;
	sd->rt_window = d.window;
	sd->tag_top = d.tag_top + 1;
	TAILQ_FOREACH(dev, &sd->devs, next)
		if (dev->info.type == RTE_RIO_DEV_ENDPOINT &&
		    (dev->gen_ctl & RTE_RIO_PORT_GEN_HOST))
			sd->fabric_host = dev->info.destid;
	return 0;
fail:
	rio_dev_list_free(&sd->devs);
	sd->ndevs = 0;
	return ret;
}

int
rio_disc_mport(struct rte_rio_mport *mport, struct rio_scan_data *sd,
	       const struct rte_rio_scan_conf *conf)
{
	int ret;

	ret = rio_scan_local_port_ok(mport);
	if (ret == 0)
		ret = rio_disc_wait(mport, conf);
	/* The host enables the ports it walks through; this one is ours to enable. */
	if (ret == 0)
		ret = rio_scan_local_port_enable(mport);
	/*
	 * Every node discovers when the fabric is Discovered, and a Linux agent
	 * holds a switch while it scans the whole table port by port (up to
	 * 256 entries a port): wait for a switch as long as for the fabric.
	 */
	if (ret == 0)
		ret = rio_disc_walk(mport, sd, false, rio_disc_timeout_ms(conf));
	if (ret < 0)
		return ret;
	sd->enumerated = false;
	RIO_LOG(INFO, "%s: discovered %u devices, %" PRIu64 " maintenance transactions",
		mport->name, sd->ndevs, rte_rio_mport_maint_count(mport));
	return 0;
}

int
rio_disc_takeover(struct rte_rio_mport *mport, struct rio_scan_data *sd)
{
	int ret;

	ret = rio_disc_walk(mport, sd, true, RTE_RIO_SWITCH_LOCK_WAIT_MS);
	if (ret < 0)
		return ret;
	sd->enumerated = true;
	sd->fabric_host = mport->host_destid;
	RIO_LOG(INFO, "%s: took the host role back: %u devices, %" PRIu64
		" maintenance transactions", mport->name, sd->ndevs,
		rte_rio_mport_maint_count(mport));
	return 0;
}
