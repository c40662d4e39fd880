/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Route operations of the emulator's vendor switch model: no standard
 * route CSRs; the table is reached through implementation-specific
 * registers (select a destination ID, then read or write its port), the
 * default output port has its own register. Registered with lib/rio's
 * switch route-ops registry for the model's vendor and device IDs.
 */

#include <errno.h>

#include <rte_common.h>

#include "rio_driver.h"
#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim_fabric.h"

static int
rio_sim_sw_add_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		     uint16_t table, uint16_t route_destid, uint8_t route_port)
{
	uint32_t words[2];

	RTE_SET_USED(table);
	/* Select and port are adjacent: one 8-byte write. */
	words[0] = route_destid;
	words[1] = route_port;
	return rte_rio_remote_write_block(mport, destid, hopcount,
					  RTE_PMD_RIO_SIM_VENDOR_RTE_SEL, 8, words);
}

static int
rio_sim_sw_get_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		     uint16_t table, uint16_t route_destid, uint8_t *route_port)
{
	uint32_t val;
	int ret;

	RTE_SET_USED(table);
	ret = rte_rio_remote_write_config_32(mport, destid, hopcount,
					     RTE_PMD_RIO_SIM_VENDOR_RTE_SEL, route_destid);
	if (ret < 0)
		return ret;
	ret = rte_rio_remote_read_config_32(mport, destid, hopcount,
					    RTE_PMD_RIO_SIM_VENDOR_RTE_PORT, &val);
	if (ret == 0)
		*route_port = val & 0xff;
	return ret;
}

static int
rio_sim_sw_clr_table(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		     uint16_t table)
{
	uint32_t limit, i;
	int ret;

	ret = rte_rio_remote_read_config_32(mport, destid, hopcount, RTE_RIO_SWITCH_RT_LIMIT,
					    &limit);
	if (ret < 0)
		return ret;
	/* An 8-bit fabric only has 256 entries, whatever the switch reports. */
	limit = RTE_MIN(limit & RTE_RIO_RT_MAX_DESTID,
			(uint32_t)RTE_RIO_MAX_DESTIDS(mport->devid_size) - 1);
	for (i = 0; i <= limit; i++) {
		ret = rio_sim_sw_add_entry(mport, destid, hopcount, table, (uint16_t)i,
					   RTE_RIO_INVALID_ROUTE);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
rio_sim_sw_set_default(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		       uint8_t port)
{
	return rte_rio_remote_write_config_32(mport, destid, hopcount,
					      RTE_PMD_RIO_SIM_VENDOR_RTE_DEFAULT, port);
}

static int
rio_sim_sw_get_default(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		       uint8_t *port)
{
	uint32_t val;
	int ret;

	ret = rte_rio_remote_read_config_32(mport, destid, hopcount,
					    RTE_PMD_RIO_SIM_VENDOR_RTE_DEFAULT, &val);
	if (ret == 0)
		*port = val & 0xff;
	return ret;
}

static const struct rte_rio_switch_ops rio_sim_sw_ops = {
	.name = "rio_sim vendor switch",
	.vid = RTE_PMD_RIO_SIM_VID,
	.did = RTE_PMD_RIO_SIM_DID_VENDOR_SWITCH,
	.add_entry = rio_sim_sw_add_entry,
	.get_entry = rio_sim_sw_get_entry,
	.clr_table = rio_sim_sw_clr_table,
	.set_default = rio_sim_sw_set_default,
	.get_default = rio_sim_sw_get_default,
};

RTE_INIT(rio_sim_switch_ops_init)
{
	rte_rio_switch_ops_register(&rio_sim_sw_ops);
}
