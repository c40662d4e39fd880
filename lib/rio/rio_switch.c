/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Switch route operations: a registry keyed by (vid, did), the standard
 * route-table CSRs (0x70/0x74) as fallback, the switch's Host Base Device
 * ID Lock around every route-table access, and the shadow tables the
 * library keeps of every switch it knows.
 *
 * A route access is a select-then-access sequence (write the destID select
 * register, then read or write the port register; an IDT CPS also selects
 * the table first): another party's select in between would make the
 * access land on another entry. So every party (the enumerating host, the
 * host's hot-plug, agents reading tables, rte_rio_switch_route_set()) runs
 * those sequences holding the switch's lock, as Linux's rio-scan.c does
 * around its table reads, and no sequence depends on a multi-word
 * maintenance write being atomic: with block maintenance the select and
 * the port may share one 8-byte write, which is just cheaper under the lock.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_spinlock.h>

#include "rio_scan_private.h"

#define RIO_SWITCH_OPS_MAX	32
/* Lock attempts that may read back "unlocked" before the lock CSR is declared broken. */
#define RIO_SWITCH_LOCK_RETRY	3
/* Entries one program or load call passes to the ops at most. */
#define RIO_SWITCH_RUN_MAX	256
/* Route type of a 10-bit route value (Dev32-capable switches, RapidIO 3.x Part 3). */
#define RIO_STD_RTE_TYPE_MASK	0x00000300u

static struct {
	rte_spinlock_t lock;
	const struct rte_rio_switch_ops *ops[RIO_SWITCH_OPS_MAX];
} rio_sw_registry = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

/* ---------------------------------------------------------------------- */
/* Standard route-table CSRs                                              */

/* Config_destID field of 0x70 for @id (Dev16: MSB in bits 8-15 of the value). */
static inline uint32_t
rio_std_sel(uint16_t id)
{
	return id;
}

static int
rio_std_route_add_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			uint16_t table, uint16_t route_destid, uint8_t route_port)
{
	int ret;

	RTE_SET_USED(table);
	ret = rte_rio_remote_write_config_32(mport, destid, hopcount,
					     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
					     rio_std_sel(route_destid));
	if (ret == 0)
		ret = rte_rio_remote_write_config_32(mport, destid, hopcount,
						     RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, route_port);
	return ret;
}

static int
rio_std_route_get_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			uint16_t table, uint16_t route_destid, uint8_t *route_port)
{
	uint32_t val;
	int ret;

	RTE_SET_USED(table);
	ret = rte_rio_remote_write_config_32(mport, destid, hopcount,
					     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
					     rio_std_sel(route_destid));
	if (ret < 0)
		return ret;
	ret = rte_rio_remote_read_config_32(mport, destid, hopcount,
					    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &val);
	if (ret < 0)
		return ret;
	/*
	 * Dev32-capable switches hold 10-bit route values: a route type in
	 * bits 8-9 (drop, default port, group, multicast) is no port.
	 */
	if (val & RIO_STD_RTE_TYPE_MASK)
		*route_port = RTE_RIO_INVALID_ROUTE;
	else
		*route_port = val & RTE_RIO_STD_RTE_CONF_PORT_MASK;
	return 0;
}

static int
rio_std_route_clr_table(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			uint16_t table)
{
	uint32_t limit, i;
	int ret;

	ret = rte_rio_remote_read_config_32(mport, destid, hopcount, RTE_RIO_SWITCH_RT_LIMIT,
					    &limit);
	if (ret < 0)
		return ret;
	limit &= RTE_RIO_RT_MAX_DESTID;
	if (mport->devid_size != 16 && limit > 0xff)
		limit = 0xff;
	for (i = 0; i <= limit; i++) {
		ret = rio_std_route_add_entry(mport, destid, hopcount, table, (uint16_t)i,
					      RTE_RIO_INVALID_ROUTE);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
rio_std_route_set_default(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			  uint8_t port)
{
	return rte_rio_remote_write_config_32(mport, destid, hopcount,
					      RTE_RIO_STD_RTE_DEFAULT_PORT, port);
}

static int
rio_std_route_get_default(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			  uint8_t *port)
{
	uint32_t val;
	int ret;

	ret = rte_rio_remote_read_config_32(mport, destid, hopcount,
					    RTE_RIO_STD_RTE_DEFAULT_PORT, &val);
	if (ret == 0)
		*port = val & RTE_RIO_STD_RTE_DEFAULT_PORT_MASK;
	return ret;
}

static const struct rte_rio_switch_ops rio_std_switch_ops = {
	.name = "standard",
	.vid = 0,
	.did = 0,
	.add_entry = rio_std_route_add_entry,
	.get_entry = rio_std_route_get_entry,
	.clr_table = rio_std_route_clr_table,
	.set_default = rio_std_route_set_default,
	.get_default = rio_std_route_get_default,
};

const struct rte_rio_switch_ops *
rte_rio_switch_std_ops(void)
{
	return &rio_std_switch_ops;
}

/*
 * Extended route configuration (PEF bit 22): 0x70 selects an aligned group
 * of four IDs (Ext_config_en), 0x74 carries their ports, the first ID in
 * the low byte. Defined for the standard CSRs only, and not on Dev32-capable
 * switches, whose route values are wider (reference section 2.4).
 */
static bool
rio_std_ext_rt(const struct rte_rio_dev *sw)
{
	uint32_t pef = sw->info.pef;

	return sw->ops == &rio_std_switch_ops && (pef & RTE_RIO_PEF_STD_RT) &&
		(pef & RTE_RIO_PEF_EXT_RT) && !(pef & RTE_RIO_PEF_DEV32);
}

static bool
rio_switch_block(const struct rte_rio_dev *sw)
{
	return sw->mport->ops->cwrite_block != NULL;
}

/* Write aligned groups of four with extended route configuration. */
static int
rio_std_write_groups(struct rte_rio_dev *sw, uint32_t first, uint32_t n, const uint8_t *ports)
{
	uint32_t w[2], i;
	unsigned int k;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i += RIO_SWITCH_RT_GROUP) {
		w[0] = RTE_RIO_STD_RTE_CONF_EXTCFGEN | rio_std_sel((uint16_t)(first + i));
		w[1] = 0;
		for (k = 0; k < RIO_SWITCH_RT_GROUP; k++)
			w[1] |= (uint32_t)ports[i + k] << (8 * k);
		if (rio_switch_block(sw)) {
			ret = rte_rio_remote_write_block(sw->mport, sw->info.destid,
							 sw->info.hopcount,
							 RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 8, w);
			continue;
		}
		ret = rte_rio_remote_write_config_32(sw->mport, sw->info.destid, sw->info.hopcount,
						     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, w[0]);
		if (ret == 0)
			ret = rte_rio_remote_write_config_32(sw->mport, sw->info.destid,
							     sw->info.hopcount,
							     RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, w[1]);
	}
	return ret;
}

static int
rio_std_read_groups(struct rte_rio_dev *sw, uint32_t first, uint32_t n, uint8_t *ports)
{
	uint32_t v, i;
	unsigned int k;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i += RIO_SWITCH_RT_GROUP) {
		ret = rte_rio_remote_write_config_32(sw->mport, sw->info.destid, sw->info.hopcount,
			RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
			RTE_RIO_STD_RTE_CONF_EXTCFGEN | rio_std_sel((uint16_t)(first + i)));
		if (ret == 0)
			ret = rte_rio_remote_read_config_32(sw->mport, sw->info.destid,
							    sw->info.hopcount,
							    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &v);
		for (k = 0; ret == 0 && k < RIO_SWITCH_RT_GROUP; k++)
			ports[i + k] = (uint8_t)(v >> (8 * k));
	}
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Registry                                                               */

int
rte_rio_switch_ops_register(const struct rte_rio_switch_ops *ops)
{
	int free_slot = -1;
	int ret = 0;
	int i;

	if (ops == NULL || ops->add_entry == NULL || ops->get_entry == NULL ||
	    (ops->set_default == NULL) != (ops->get_default == NULL))
		return -EINVAL;

	rte_spinlock_lock(&rio_sw_registry.lock);
	for (i = 0; i < RIO_SWITCH_OPS_MAX; i++) {
		const struct rte_rio_switch_ops *o = rio_sw_registry.ops[i];

		if (o == NULL) {
			if (free_slot < 0)
				free_slot = i;
		} else if (o->vid == ops->vid && o->did == ops->did) {
			ret = -EEXIST;
			break;
		}
	}
	if (ret == 0) {
		if (free_slot < 0)
			ret = -ENOSPC;
		else
			rio_sw_registry.ops[free_slot] = ops;
	}
	rte_spinlock_unlock(&rio_sw_registry.lock);
	if (ret == 0)
		RIO_LOG(DEBUG, "route ops %s registered for %04x:%04x",
			ops->name != NULL ? ops->name : "?", ops->vid, ops->did);
	return ret;
}

int
rte_rio_switch_ops_unregister(const struct rte_rio_switch_ops *ops)
{
	int ret = -ENOENT;
	int i;

	if (ops == NULL)
		return -ENOENT;
	rte_spinlock_lock(&rio_sw_registry.lock);
	for (i = 0; i < RIO_SWITCH_OPS_MAX; i++) {
		if (rio_sw_registry.ops[i] == ops) {
			rio_sw_registry.ops[i] = NULL;
			ret = 0;
			break;
		}
	}
	rte_spinlock_unlock(&rio_sw_registry.lock);
	return ret;
}

const struct rte_rio_switch_ops *
rio_switch_ops_find(uint16_t vid, uint16_t did)
{
	const struct rte_rio_switch_ops *found = &rio_std_switch_ops;
	int i;

	rte_spinlock_lock(&rio_sw_registry.lock);
	for (i = 0; i < RIO_SWITCH_OPS_MAX; i++) {
		const struct rte_rio_switch_ops *o = rio_sw_registry.ops[i];

		if (o != NULL && o->vid == vid && o->did == did) {
			found = o;
			break;
		}
	}
	rte_spinlock_unlock(&rio_sw_registry.lock);
	return found;
}

const struct rte_rio_switch_ops *
rte_rio_switch_ops_find(uint16_t vid, uint16_t did)
{
	return rio_switch_ops_find(vid, did);
}

/* ---------------------------------------------------------------------- */
/* Host Base Device ID Lock of a switch                                   */

int
rio_switch_lock(struct rte_rio_dev *sw, uint16_t lock_id, unsigned int wait_ms)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * wait_ms / 1000;
	unsigned int unlocked = 0;
	uint32_t v;
	int ret;

	if (sw->locked)
		return 0;
	for (;;) {
		ret = rte_rio_dev_write_config_32(sw, RTE_RIO_HOST_DID_LOCK_CSR, lock_id);
		if (ret == 0)
			ret = rte_rio_dev_read_config_32(sw, RTE_RIO_HOST_DID_LOCK_CSR, &v);
		if (ret < 0)
			return ret;
		v &= RTE_RIO_HOST_DID_LOCK_MASK;
		if (v == lock_id) {
			sw->locked = true;
			return 0;
		}
		/* Unlocked: our write released a stale lock of ours; write again at once. */
		if (v == RTE_RIO_HOST_DID_UNLOCKED) {
			if (++unlocked > RIO_SWITCH_LOCK_RETRY) {
				RIO_LOG(ERR, "%s: host lock does not lock", sw->info.name);
				return -EIO;
			}
			continue;
		}
		if (rte_get_timer_cycles() > deadline) {
			RIO_LOG(NOTICE, "%s: held by 0x%x for more than %u ms", sw->info.name, v,
				wait_ms);
			return -EBUSY;
		}
		rte_delay_us_sleep(1000);
	}
}

int
rio_switch_unlock(struct rte_rio_dev *sw, uint16_t lock_id)
{
	int ret;

	if (!sw->locked)
		return 0;
	/* Writing the holder's ID again releases the lock. */
	ret = rte_rio_dev_write_config_32(sw, RTE_RIO_HOST_DID_LOCK_CSR, lock_id);
	sw->locked = false;
	if (ret < 0)
		RIO_LOG(WARNING, "%s: cannot release the host lock (%d)", sw->info.name, ret);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Route access of a known switch                                         */

uint32_t
rio_switch_route_limit(const struct rte_rio_dev *sw)
{
	uint32_t nids = RTE_RIO_MAX_DESTIDS(sw->mport->devid_size);

	if (sw->ops->max_destid != 0 && (uint32_t)sw->ops->max_destid + 1 < nids)
		return (uint32_t)sw->ops->max_destid + 1;
	return nids;
}

static unsigned int
rio_switch_group(const struct rte_rio_dev *sw)
{
	if (rio_std_ext_rt(sw))
		return RIO_SWITCH_RT_GROUP;
	return sw->ops->route_group > 1 ? sw->ops->route_group : 1;
}

static inline void
rio_switch_rt_set(struct rte_rio_dev *sw, uint32_t id, uint8_t port)
{
	sw->rt[id] = port;
	sw->rt_known[id / 64] |= UINT64_C(1) << (id % 64);
}

/* Write @n entries from @first through the ops; @first and @n group-aligned when grouped. */
static int
rio_switch_write_run(struct rte_rio_dev *sw, uint32_t first, uint32_t n, const uint8_t *ports)
{
	const struct rte_rio_switch_ops *ops = sw->ops;
	uint32_t i;
	int ret = 0;

	if (rio_std_ext_rt(sw) && (first % RIO_SWITCH_RT_GROUP) == 0 &&
	    (n % RIO_SWITCH_RT_GROUP) == 0)
		ret = rio_std_write_groups(sw, first, n, ports);
	else if (ops->add_entries != NULL)
		ret = ops->add_entries(sw->mport, sw->info.destid, sw->info.hopcount,
				       RTE_RIO_GLOBAL_TABLE, (uint16_t)first, (uint16_t)n, ports);
	else
		for (i = 0; i < n && ret == 0; i++)
			ret = ops->add_entry(sw->mport, sw->info.destid, sw->info.hopcount,
					     RTE_RIO_GLOBAL_TABLE, (uint16_t)(first + i), ports[i]);
	for (i = 0; i < n && ret == 0; i++)
		rio_switch_rt_set(sw, first + i, ports[i]);
	return ret;
}

static inline bool
rio_switch_clean(const struct rte_rio_dev *sw, uint32_t id, uint8_t want)
{
	return rio_switch_rt_known(sw, id) && sw->rt[id] == want;
}

int
rio_switch_route_program(struct rte_rio_dev *sw, uint32_t first, uint32_t n,
			 const uint8_t *want)
{
	uint32_t end = first + n, limit = rio_switch_route_limit(sw);
	unsigned int g = rio_switch_group(sw);
	uint8_t buf[RIO_SWITCH_RUN_MAX];
	uint32_t id = first, lo, hi, k;
	bool whole;
	int ret;

	if (end > limit)
		return -ERANGE;
	while (id < end) {
		if (rio_switch_clean(sw, id, want[id - first])) {
			id++;
			continue;
		}
		/* A run of differing entries, short enough to widen to whole groups. */
		lo = id;
		hi = id + 1;
		while (hi < end && hi - RTE_ALIGN_FLOOR(lo, g) < RIO_SWITCH_RUN_MAX &&
		       !rio_switch_clean(sw, hi, want[hi - first]))
			hi++;
		/* Widen it to whole groups where the other entries are known. */
		if (g > 1) {
			uint32_t glo = RTE_ALIGN_FLOOR(lo, g), ghi = RTE_ALIGN_CEIL(hi, g);

			whole = ghi <= limit && ghi - glo <= RIO_SWITCH_RUN_MAX;
			for (k = glo; whole && k < ghi; k++)
				whole = (k >= first && k < end) || rio_switch_rt_known(sw, k);
			if (whole) {
				lo = glo;
				hi = ghi;
			}
		}
		for (k = lo; k < hi; k++)
			buf[k - lo] = k >= first && k < end ? want[k - first] : sw->rt[k];
		ret = rio_switch_write_run(sw, lo, hi - lo, buf);
		if (ret < 0) {
			RIO_LOG(ERR, "%s: cannot program route entries 0x%x-0x%x (%d)",
				sw->info.name, lo, hi - 1, ret);
			return ret;
		}
		id = hi;
	}
	return 0;
}

int
rio_switch_route_write(struct rte_rio_dev *sw, uint32_t destid, uint8_t port)
{
	int ret;

	/*
	 * ANY_DESTID may lie beyond the IDs a part routes one by one: its ops
	 * route it through a coarser table (the IDT parts' domain table).
	 */
	if (destid >= rio_switch_route_limit(sw) &&
	    destid != RTE_RIO_ANY_DESTID(sw->mport->devid_size))
		return -ERANGE;
	ret = sw->ops->add_entry(sw->mport, sw->info.destid, sw->info.hopcount,
				 RTE_RIO_GLOBAL_TABLE, (uint16_t)destid, port);
	if (ret == 0)
		rio_switch_rt_set(sw, destid, port);
	return ret;
}

int
rio_switch_route_load(struct rte_rio_dev *sw, uint32_t first, uint32_t n)
{
	const struct rte_rio_switch_ops *ops = sw->ops;
	uint8_t buf[RIO_SWITCH_RUN_MAX];
	uint32_t id, cnt, k;
	int ret = 0;

	if (first + n > rio_switch_route_limit(sw))
		return -ERANGE;
	for (id = first; id < first + n && ret == 0; id += cnt) {
		cnt = RTE_MIN(first + n - id, (uint32_t)RIO_SWITCH_RUN_MAX);
		if (rio_std_ext_rt(sw) && (id % RIO_SWITCH_RT_GROUP) == 0 &&
		    (cnt % RIO_SWITCH_RT_GROUP) == 0)
			ret = rio_std_read_groups(sw, id, cnt, buf);
		else if (ops->get_entries != NULL)
			ret = ops->get_entries(sw->mport, sw->info.destid, sw->info.hopcount,
					       RTE_RIO_GLOBAL_TABLE, (uint16_t)id, (uint16_t)cnt,
					       buf);
		else
			for (k = 0; k < cnt && ret == 0; k++)
				ret = ops->get_entry(sw->mport, sw->info.destid, sw->info.hopcount,
						     RTE_RIO_GLOBAL_TABLE, (uint16_t)(id + k),
						     &buf[k]);
		for (k = 0; k < cnt && ret == 0; k++)
			rio_switch_rt_set(sw, id + k, buf[k] < sw->info.nports ? buf[k] :
					  RTE_RIO_INVALID_ROUTE);
	}
	if (ret < 0)
		RIO_LOG(ERR, "%s: cannot read route entries from 0x%x (%d)", sw->info.name,
			first, ret);
	return ret;
}

int
rio_switch_init(struct rte_rio_dev *sw, uint8_t inport)
{
	if (sw->ops->init == NULL)
		return 0;
	return sw->ops->init(sw->mport, sw->info.destid, sw->info.hopcount, inport);
}

void
rio_switch_route_forget(struct rte_rio_dev *sw)
{
	size_t n = RTE_RIO_MAX_DESTIDS(sw->mport->devid_size);

	memset(sw->rt, RTE_RIO_INVALID_ROUTE, n);
	memset(sw->rt_known, 0, n / 8);
}

/* ---------------------------------------------------------------------- */
/* Public API                                                             */

int
rte_rio_switch_route_get(const struct rte_rio_dev *sw, uint16_t destid)
{
	if (sw == NULL || sw->info.type != RTE_RIO_DEV_SWITCH || sw->rt == NULL)
		return -EINVAL;
	if (destid >= RTE_RIO_MAX_DESTIDS(sw->mport->devid_size))
		return -EINVAL;
	return rio_switch_rt_known(sw, destid) ? sw->rt[destid] : RTE_RIO_INVALID_ROUTE;
}

int
rte_rio_switch_route_set(struct rte_rio_dev *sw, uint16_t destid, uint8_t port)
{
	struct rio_scan_data *sd;
	bool held;
	int ret;

	if (sw == NULL || sw->info.type != RTE_RIO_DEV_SWITCH || sw->rt == NULL)
		return -EINVAL;
	if (destid >= rio_switch_route_limit(sw) ||
	    (port != RTE_RIO_INVALID_ROUTE && port >= sw->info.nports))
		return -EINVAL;
	rio_dev_list_lock();
	sd = sw->mport->lib->scan_data;
	if (sd == NULL) {
		rio_dev_list_unlock();
		return -EINVAL;
	}
	held = sw->locked;
	ret = rio_switch_lock(sw, sd->lock_id, RTE_RIO_SWITCH_LOCK_WAIT_MS);
	/* Always write: the caller may want to repair the hardware entry. */
	if (ret == 0)
		ret = rio_switch_route_write(sw, destid, port);
	if (!held)
		rio_switch_unlock(sw, sd->lock_id);
	rio_dev_list_unlock();
	return ret;
}

struct rte_rio_dev *
rte_rio_switch_port_peer(const struct rte_rio_dev *sw, uint8_t port)
{
	if (sw == NULL || sw->info.type != RTE_RIO_DEV_SWITCH || port >= sw->info.nports ||
	    port >= RTE_RIO_MAX_SWITCH_PORTS)
		return NULL;
	return sw->peer[port];
}
