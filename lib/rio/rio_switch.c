/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Switch route operations: a registry keyed by (vid, did), the standard
 * route-table CSRs (0x70/0x74/0x78) as fallback, and the shadow tables the
 * library keeps of every switch it knows.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "rio_scan_private.h"

#define RIO_SWITCH_OPS_MAX	32

static struct {
	rte_spinlock_t lock;
	const struct rte_rio_switch_ops *ops[RIO_SWITCH_OPS_MAX];
} rio_sw_registry = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

/* ---------------------------------------------------------------------- */
/* Standard route-table CSRs                                              */

static int
rio_std_route_add_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			uint16_t table, uint16_t route_destid, uint8_t route_port)
{
	uint32_t words[2];

	RTE_SET_USED(table);
	/* Select and write in one 8-byte transaction (0x70 then 0x74). */
	words[0] = route_destid;
	words[1] = route_port;
	return rte_rio_remote_write_block(mport, destid, hopcount,
					  RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 8, words);
}

static int
rio_std_route_get_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			uint16_t table, uint16_t route_destid, uint8_t *route_port)
{
	uint32_t val;
	int ret;

	RTE_SET_USED(table);
	ret = rte_rio_remote_write_config_32(mport, destid, hopcount,
					     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, route_destid);
	if (ret < 0)
		return ret;
	ret = rte_rio_remote_read_config_32(mport, destid, hopcount,
					    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &val);
	if (ret < 0)
		return ret;
	*route_port = val & RTE_RIO_STD_RTE_CONF_PORT_MASK;
	return 0;
}

static int
rio_std_route_clr_table(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			uint16_t table)
{
	uint32_t limit, i;
	int ret;

	RTE_SET_USED(table);
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
/* Route access of a known switch                                         */

unsigned int
rio_switch_route_group(const struct rte_rio_dev *sw)
{
	/* Extended route configuration is only defined on the standard CSRs. */
	if (sw->ops == &rio_std_switch_ops && (sw->info.pef & RTE_RIO_PEF_STD_RT) &&
	    (sw->info.pef & RTE_RIO_PEF_EXT_RT))
		return RIO_SWITCH_RT_GROUP;
	return 1;
}

int
rio_switch_route_write_group(struct rte_rio_dev *sw, uint16_t first, const uint8_t *ports)
{
	uint32_t words[2];
	unsigned int k;
	int ret;

	first &= ~(RIO_SWITCH_RT_GROUP - 1);
	if (memcmp(&sw->rt[first], ports, RIO_SWITCH_RT_GROUP) == 0)
		return 0;
	if (rio_switch_route_group(sw) == 1) {
		for (k = 0; k < RIO_SWITCH_RT_GROUP; k++) {
			ret = rio_switch_route_write(sw, (uint16_t)(first + k), ports[k]);
			if (ret < 0)
				return ret;
		}
		return 0;
	}
	/* Select the group and write its four entries: one 8-byte transaction. */
	words[0] = RTE_RIO_STD_RTE_CONF_EXTCFGEN | first;
	words[1] = 0;
	for (k = 0; k < RIO_SWITCH_RT_GROUP; k++)
		words[1] |= (uint32_t)ports[k] << (8 * k);
	ret = rte_rio_remote_write_block(sw->mport, sw->info.destid, sw->info.hopcount,
					 RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 8, words);
	if (ret == 0)
		memcpy(&sw->rt[first], ports, RIO_SWITCH_RT_GROUP);
	return ret;
}

int
rio_switch_route_write(struct rte_rio_dev *sw, uint16_t destid, uint8_t port)
{
	uint8_t g[RIO_SWITCH_RT_GROUP];
	uint16_t first;
	int ret;

	if (sw->rt[destid] == port)
		return 0;
	if (rio_switch_route_group(sw) != 1) {
		/* Read-modify-write of the group from the shadow table. */
		first = destid & ~(RIO_SWITCH_RT_GROUP - 1);
		memcpy(g, &sw->rt[first], sizeof(g));
		g[destid - first] = port;
		return rio_switch_route_write_group(sw, first, g);
	}
	ret = sw->ops->add_entry(sw->mport, sw->info.destid, sw->info.hopcount,
				 RTE_RIO_GLOBAL_TABLE, destid, port);
	if (ret == 0)
		sw->rt[destid] = port;
	return ret;
}

int
rio_switch_route_read(struct rte_rio_dev *sw, uint16_t destid, uint8_t *port)
{
	return sw->ops->get_entry(sw->mport, sw->info.destid, sw->info.hopcount,
				  RTE_RIO_GLOBAL_TABLE, destid, port);
}

int
rio_switch_default_write(struct rte_rio_dev *sw, uint8_t port)
{
	int ret;

	if (sw->ops->set_default == NULL)
		return -ENOTSUP;
	ret = sw->ops->set_default(sw->mport, sw->info.destid, sw->info.hopcount, port);
	if (ret == 0)
		sw->def_port = port;
	return ret;
}

int
rio_switch_default_read(struct rte_rio_dev *sw, uint8_t *port)
{
	if (sw->ops->get_default == NULL)
		return -ENOTSUP;
	return sw->ops->get_default(sw->mport, sw->info.destid, sw->info.hopcount, port);
}

/* ---------------------------------------------------------------------- */
/* Public API                                                             */

int
rte_rio_switch_route_get(const struct rte_rio_dev *sw, uint16_t destid)
{
	uint32_t max;
	uint8_t port;

	if (sw == NULL || sw->info.type != RTE_RIO_DEV_SWITCH || sw->rt == NULL)
		return -EINVAL;
	max = RTE_RIO_MAX_DESTIDS(sw->mport->devid_size);
	if (destid >= max)
		return -EINVAL;
	/* What the switch does: an entry without a route uses the default port. */
	port = sw->rt[destid];
	if (port == RTE_RIO_INVALID_ROUTE)
		port = sw->def_port;
	return port;
}

int
rte_rio_switch_route_set(struct rte_rio_dev *sw, uint16_t destid, uint8_t port)
{
	int ret;

	if (sw == NULL || sw->info.type != RTE_RIO_DEV_SWITCH || sw->rt == NULL)
		return -EINVAL;
	if (destid >= RTE_RIO_MAX_DESTIDS(sw->mport->devid_size) ||
	    (port != RTE_RIO_INVALID_ROUTE && port >= sw->info.nports))
		return -EINVAL;
	rio_dev_list_lock();
	/* Always write: the caller may want to repair the hardware entry. */
	ret = sw->ops->add_entry(sw->mport, sw->info.destid, sw->info.hopcount,
				 RTE_RIO_GLOBAL_TABLE, destid, port);
	if (ret == 0)
		sw->rt[destid] = port;
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
