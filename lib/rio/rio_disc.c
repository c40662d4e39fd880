/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Agent discovery of a RapidIO fabric.
 *
 * Agent: waits for Discovered, learns the host ID from a switch's
 * port-write target, then rebuilds the host's view without reading whole
 * route tables: at every switch the IDs routed to a port other than the
 * default (host-facing) one form one interval, intervals ascend with port
 * order and the region found so far is one interval, so probing the one ID
 * just above (below) it tells which port leads to the next subtree.
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
	int32_t host;
	uint32_t any;
	uint32_t nids;
	int32_t lo, hi;		/* region of IDs found so far (host ID excluded) */
	bool block;
};

/* ---------------------------------------------------------------------- */
/* Agent discovery                                                        */

static int32_t
rio_disc_above(const struct rio_disc *d, int32_t id)
{
	id++;
	if (id == d->host)
		id++;
	return id < (int32_t)d->any ? id : -1;
}

static int32_t
rio_disc_below(const struct rio_disc *d, int32_t id)
{
	id--;
	if (id == d->host)
		id--;
	return id;
}

/* Read a device at (destid, hop) and add it to the view. */
static int
rio_disc_read_dev(struct rio_disc *d, uint16_t destid, uint8_t hop, struct rte_rio_dev **out,
		  struct rio_scan_raw *raw)
{
	struct rte_rio_mport *mport = d->mport;
	struct rte_rio_dev *dev;
	bool sw;
	int ret;

	memset(raw, 0, sizeof(*raw));
	ret = rio_scan_read(mport, destid, hop, RTE_RIO_DEV_ID_CAR, 8, raw->car);
	if (ret < 0)
		return ret;
	if (d->block) {
		ret = rio_scan_read(mport, destid, hop, RTE_RIO_DID_CSR, 4, raw->csr);
	} else {
		/* Word by word: only the Base Device ID and the component tag. */
		ret = rio_scan_read(mport, destid, hop, RTE_RIO_DID_CSR, 1, &raw->csr[0]);
		if (ret == 0)
			ret = rio_scan_read(mport, destid, hop, RTE_RIO_COMPONENT_TAG_CSR, 1,
					    &raw->csr[3]);
	}
	if (ret < 0)
		return ret;
	sw = rio_is_switch(raw->car[4]);
	if (rio_dev_list_find_comptag(&d->sd->devs, raw->csr[3]) != NULL) {
		RIO_LOG(ERR, "%s: component tag 0x%x seen twice: routes form a loop",
			mport->name, raw->csr[3]);
		return -ELOOP;
	}
	dev = rio_dev_alloc(mport, sw);
	if (dev == NULL)
		return -ENOMEM;
	rio_scan_fill_info(dev, raw);
	dev->info.comptag = raw->csr[3];
	rio_scan_append(d->sd, dev);
	ret = rio_scan_efb(mport, d->block, destid, hop, dev, raw);
	if (ret < 0)
		return ret;
	if (sw) {
		dev->info.hopcount = hop;
		dev->info.destid = destid;
		dev->ops = rio_switch_ops_find(dev->info.vid, dev->info.did);
		ret = rio_switch_default_read(dev, &dev->def_port);
		if (ret == -ENOTSUP && d->host >= 0)
			ret = rio_switch_route_read(dev, (uint16_t)d->host, &dev->def_port);
		if (ret < 0)
			return ret;
	} else {
		dev->info.destid = RTE_RIO_GET_DID(mport->devid_size, raw->csr[0]);
	}
	rio_dev_set_name(dev);
	*out = dev;
	return 0;
}

/* Port of @sw that @id is routed to; the default port for "no route". */
static int
rio_disc_probe(struct rte_rio_dev *sw, int32_t id, uint8_t *port)
{
	int ret;

	ret = rio_switch_route_read(sw, (uint16_t)id, port);
	if (ret < 0)
		return ret;
	if (*port == RTE_RIO_INVALID_ROUTE)
		*port = sw->def_port;
	return 0;
}

static inline bool
rio_disc_down_port(const struct rte_rio_dev *sw, uint8_t port)
{
	return port != sw->def_port && port < sw->info.nports && sw->peer[port] == NULL;
}

static inline void
rio_disc_region_add(struct rio_disc *d, int32_t lo, int32_t hi)
{
	d->lo = RTE_MIN(d->lo, lo);
	d->hi = RTE_MAX(d->hi, hi);
}

/*
 * Discover the subtree (host view) behind @sw's port @port, whose ID
 * nearest the known region is @x; @dir +1: it extends the region upwards.
 * Returns the subtree's interval.
 */
static int
rio_disc_down(struct rio_disc *d, struct rte_rio_dev *sw, uint8_t port, int32_t x, int dir,
	      uint8_t hop, int32_t *lo, int32_t *hi)
{
	struct rio_scan_raw raw;
	struct rte_rio_dev *dev;
	int32_t nxt, l, h;
	uint8_t q;
	int ret;

	if (hop >= RIO_SCAN_MAX_DEPTH)
		return -ELOOP;
	ret = rio_disc_read_dev(d, (uint16_t)x, hop, &dev, &raw);
	if (ret < 0)
		return ret;
	rio_scan_link(sw, port, dev, rio_scan_inport(dev), false);
	dev->info.prev_comptag = (int32_t)sw->info.comptag;
	dev->info.prev_port = port;
	*lo = x;
	*hi = x;
	if (dev->info.type == RTE_RIO_DEV_ENDPOINT) {
		if (dev->info.destid != x)
			RIO_LOG(WARNING, "%s: %s routed as 0x%x", d->mport->name, dev->info.name,
				x);
		rio_disc_region_add(d, x, x);
		return 0;
	}

	rio_disc_region_add(d, x, x);
	/* x is the subtree's first ID: below one of the ports, or the switch's own. */
	ret = rio_disc_probe(dev, x, &q);
	if (ret < 0)
		return ret;
	for (nxt = x; rio_disc_down_port(dev, q);) {
		ret = rio_disc_down(d, dev, q, nxt, dir, hop + 1, &l, &h);
		if (ret < 0)
			return ret;
		dev->port_lo[q] = l;
		dev->port_hi[q] = h;
		*lo = RTE_MIN(*lo, l);
		*hi = RTE_MAX(*hi, h);
		nxt = dir > 0 ? rio_disc_above(d, *hi) : rio_disc_below(d, *lo);
		if (nxt < 0)
			break;
		ret = rio_disc_probe(dev, nxt, &q);
		if (ret < 0)
			return ret;
	}
	dev->sub_lo = *lo;
	dev->sub_hi = *hi;
	dev->info.destid = (uint16_t)*lo;
	return 0;
}

/* Explore the ports of @sw above and below the region. */
static int
rio_disc_sides(struct rio_disc *d, struct rte_rio_dev *sw, uint8_t hop)
{
	int32_t nxt, l, h;
	uint8_t q;
	int dir, ret;

	for (dir = 1; dir >= -1; dir -= 2) {
		for (;;) {
			nxt = dir > 0 ? rio_disc_above(d, d->hi) : rio_disc_below(d, d->lo);
			if (nxt < 0)
				break;
			ret = rio_disc_probe(sw, nxt, &q);
			if (ret < 0)
				return ret;
			if (!rio_disc_down_port(sw, q))
				break;
			ret = rio_disc_down(d, sw, q, nxt, dir, hop + 1, &l, &h);
			if (ret < 0)
				return ret;
			sw->port_lo[q] = l;
			sw->port_hi[q] = h;
		}
	}
	sw->sub_lo = d->lo;
	sw->sub_hi = d->hi;
	return 0;
}

/* Shadow tables from the intervals found. */
static void
rio_disc_build_routes(struct rio_disc *d)
{
	struct rte_rio_dev *dev;
	unsigned int p;
	int32_t id;

	TAILQ_FOREACH(dev, &d->sd->devs, next) {
		if (dev->info.type != RTE_RIO_DEV_SWITCH)
			continue;
		for (p = 0; p < dev->info.nports; p++) {
			if (p == dev->def_port || dev->port_lo[p] < 0)
				continue;
			for (id = dev->port_lo[p]; id <= dev->port_hi[p]; id++)
				if (id != d->host)
					dev->rt[id] = p;
		}
		if (dev->ops->get_default != NULL)
			continue;
		/* No default port: the enumerator routed every other ID explicitly. */
		for (id = d->lo; id <= d->hi; id++)
			if (id != d->host && (id < dev->sub_lo || id > dev->sub_hi))
				dev->rt[id] = dev->def_port;
		if (d->host >= 0)
			dev->rt[d->host] = dev->def_port;
		dev->def_port = RTE_RIO_INVALID_ROUTE;
	}
}

static int
rio_disc_wait(struct rte_rio_mport *mport, const struct rte_rio_scan_conf *conf)
{
	unsigned int timeout_ms = conf != NULL && conf->disc_timeout_ms != 0 ?
		conf->disc_timeout_ms : RTE_RIO_DISC_TIMEOUT_DEFAULT * 1000;
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

int
rio_disc_mport(struct rte_rio_mport *mport, struct rio_scan_data *sd,
	       const struct rte_rio_scan_conf *conf)
{
	struct rte_rio_dev *cur, *up;
	struct rio_scan_raw raw;
	struct rio_disc d;
	uint32_t v;
	uint8_t hop;
	int ret;

	memset(&d, 0, sizeof(d));
	d.mport = mport;
	d.sd = sd;
	d.host = -1;
	d.nids = RTE_RIO_MAX_DESTIDS(mport->devid_size);
	d.any = RTE_RIO_ANY_DESTID(mport->devid_size);
	d.block = mport->ops->cread_block != NULL;

	ret = rio_scan_local_port_ok(mport);
	if (ret < 0)
		return ret;
	ret = rio_disc_wait(mport, conf);
	if (ret < 0)
		return ret;

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
	d.lo = d.local->info.destid;
	d.hi = d.local->info.destid;

	/* The device on the other end of the link. */
	ret = rio_disc_read_dev(&d, d.local->info.destid, 0, &cur, &raw);
	if (ret < 0)
		goto fail;
	rio_scan_link(d.local, 0, cur, rio_scan_inport(cur), false);
	if (cur->info.type == RTE_RIO_DEV_ENDPOINT) {
		/* Back to back: the peer is the host. */
		d.host = cur->info.destid;
		goto done;
	}
	if (!raw.pw_target_valid && cur->info.em_efptr != 0) {
		ret = rte_rio_remote_read_config_32(mport, d.local->info.destid, 0,
						    cur->info.em_efptr + RTE_RIO_EM_PW_TGT_DEVID,
						    &raw.pw_target);
		if (ret < 0)
			goto fail;
		raw.pw_target_valid = true;
	}
	if (!raw.pw_target_valid) {
		RIO_LOG(ERR, "%s: %s has no port-write target to learn the host ID from",
			mport->name, cur->info.name);
		ret = -ENOTSUP;
		goto fail;
	}
	d.host = mport->devid_size == 16 ? (raw.pw_target >> 16) & 0xffff :
		(raw.pw_target >> 16) & 0xff;
	if ((uint32_t)d.host >= d.any) {
		RIO_LOG(ERR, "%s: port-write target of %s is unset", mport->name,
			cur->info.name);
		ret = -EIO;
		goto fail;
	}
	if (cur->ops->get_default == NULL) {
		ret = rio_switch_route_read(cur, (uint16_t)d.host, &cur->def_port);
		if (ret < 0)
			goto fail;
	}
	cur->port_lo[cur->info.sw_inport] = d.lo;
	cur->port_hi[cur->info.sw_inport] = d.hi;

	/* Climb towards the host, exploring each switch's other subtrees. */
	for (hop = 0;; hop++) {
		uint8_t hf = cur->def_port;

		ret = rio_disc_sides(&d, cur, hop);
		if (ret < 0)
			goto fail;
		if (hf >= cur->info.nports) {
			RIO_LOG(ERR, "%s: %s has no route towards host %d", mport->name,
				cur->info.name, d.host);
			ret = -EIO;
			goto fail;
		}
		if (hop + 1 >= RIO_SCAN_MAX_DEPTH) {
			ret = -ELOOP;
			goto fail;
		}
		ret = rio_disc_read_dev(&d, (uint16_t)d.host, hop + 1, &up, &raw);
		if (ret < 0)
			goto fail;
		rio_scan_link(cur, hf, up, rio_scan_inport(up), false);
		cur->info.prev_comptag = (int32_t)up->info.comptag;
		cur->info.prev_port = rio_scan_inport(up);
		if (up->info.type == RTE_RIO_DEV_ENDPOINT) {
			if (up->info.destid != d.host)
				RIO_LOG(WARNING, "%s: host endpoint reports ID 0x%x, expected 0x%x",
					mport->name, up->info.destid, d.host);
			break;
		}
		/* Up-path switches are addressed by the host ID, which leads to them. */
		up->port_lo[up->info.sw_inport] = d.lo;
		up->port_hi[up->info.sw_inport] = d.hi;
		cur = up;
	}

done:
	rio_disc_build_routes(&d);
	sd->enumerated = false;
	sd->fabric_host = d.host;
	RIO_LOG(INFO, "%s: discovered %u devices, %" PRIu64 " maintenance transactions",
		mport->name, sd->ndevs, rte_rio_mport_maint_count(mport));
	return 0;
fail:
	rio_dev_list_free(&sd->devs);
	sd->ndevs = 0;
	return ret;
}
