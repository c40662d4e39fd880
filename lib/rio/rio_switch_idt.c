/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Route ops of the IDT switch families whose route tables are not reached
 * through the standard CSRs alone, written from the parts' public facts as
 * Linux's drivers/rapidio/switches/idt_gen2.c and idt_gen3.c use them:
 *
 * CPS Gen2 (CPS-1848, CPS-1432, CPS-1616, SPS-1616, VPS-1616):
 *  - a table select register (0x10070, low five bits: 0 the global table,
 *    whose writes reach every port's table, n + 1 port n's table) in front
 *    of the standard select/port pair 0x70/0x74, which supports extended
 *    route configuration (four entries per access, as Linux clears tables);
 *  - entry values 0xde "use the default port" and 0xdf "drop"; the default
 *    port CSR 0x78 set to 0xdf when a host enumerates (as Linux's probe
 *    does), so nothing is routed by default; the ops write 0xdf for "no
 *    route" and read both as no route;
 *  - 256 entries per ID (the device table, by the ID's low byte); with
 *    16-bit IDs packets first look up the domain table by the ID's most
 *    significant byte, whose 0xdd sends them to the device table: init
 *    writes 0xdd for domain 0 (broadcast domain table 0xe00400 + 4 MSB),
 *    and an ID above 0xff (ANY_DESTID only) is routed by its domain entry,
 *    which 0x70 selects when the ID's MSB is not the switch's domain (0),
 *    as Linux's add_entry reaches it;
 *  - port-writes for port events enabled as Linux's em_init does (device
 *    control 1 and per-port operations "generate port-write" bits, port
 *    error reporting of link events).
 *
 * RXS Gen3 (RXS-1632, RXS-2448):
 *  - per-port level-2 route tables, group 0 (IDs 0-0xff) at 0x51000 +
 *    0x2000 port + 4 ID; writes through the broadcast copy at 0x31000 + 4 ID
 *    reach every port's table; one register per entry, no select, so a
 *    block access covers 2, 4, 8 or 16 entries (the 8 to 64-byte payloads
 *    maintenance has, naturally aligned);
 *  - 10-bit entry values: 0x000-0x0ff a port, 0x300 drop (the ops write it
 *    for "no route"), others (multicast, next-level group, default) read as
 *    no route;
 *  - with 16-bit IDs packets first look up the level-1 table by the ID's
 *    most significant byte (broadcast 0x30400 + 4 MSB, per port 0x50400 +
 *    0x2000 port + 4 MSB): init writes 0x200 "level-2 group 0" for MSB 0,
 *    and an ID above 0xff (ANY_DESTID only) is routed by its level-1 entry
 *    (Linux's idt_gen3 routes IDs up to 0xff only, so its 16-bit walk stops
 *    at such a switch);
 *  - reads use the table of the port the read arrived on, as Linux does
 *    for the global table;
 *  - port-writes leave by the port facing the host (port-write route
 *    register 0x40208), as Linux's em_init sets it.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "rio_scan_private.h"

/* CPS Gen2 */
#define IDT_CPS_RTE_TABLE_SEL		0x010070
#define IDT_CPS_RTE_TABLE_GLOBAL	0
#define IDT_CPS_USE_DEVICE_TABLE	0xdd
#define IDT_CPS_DEFAULT_ROUTE		0xde
#define IDT_CPS_NO_ROUTE		0xdf
#define IDT_CPS_BC_DOM_ENTRY(msb)	(0xe00400 + (msb) * 4)
#define IDT_CPS_DEV_CTRL_1		0xf2000c
#define  IDT_CPS_DEV_CTRL_1_GENPW	0x02000000u
#define IDT_CPS_PORT_ERR_REPORT_EN_BC	0x03ff04
/* Link events reported (RapidIO Part 8 port error detect bits the part has). */
#define  IDT_CPS_PORT_ERR_REPORT_ALL	0x807e8037u
#define IDT_CPS_PORT_OPS(n)		(0xf40004 + (n) * 0x100)
#define  IDT_CPS_PORT_OPS_GENPW		0x08000000u
#define  IDT_CPS_PORT_OPS_LOG		0x00000070u	/* physical, logical, transport */

/* RXS Gen3 */
#define IDT_RXS_BC_L1_ENTRY(msb)	(0x30400 + (msb) * 4)
#define IDT_RXS_SP_L1_ENTRY(p, msb)	(0x50400 + (p) * 0x2000 + (msb) * 4)
#define IDT_RXS_L1_L2_GROUP0		0x200
#define IDT_RXS_BC_L2_G0_ENTRY(id)	(0x31000 + (id) * 4)
#define IDT_RXS_SP_L2_G0_ENTRY(p, id)	(0x51000 + (p) * 0x2000 + (id) * 4)
#define IDT_RXS_RT_DROP			0x300
#define IDT_RXS_RT_PORT_MAX		0x0ff
#define IDT_RXS_PW_ROUTE		0x40208
#define IDT_RXS_BLOCK_ENTRIES		16	/* a 64-byte maintenance payload */

#define IDT_MAX_DESTID			0xff

typedef int (*idt_add_entries_t)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop,
				 uint16_t table, uint16_t first, uint16_t n, const uint8_t *ports);

/* Every entry of the table to "no route". */
static int
idt_clr_table(idt_add_entries_t add_entries, struct rte_rio_mport *mport, uint16_t destid,
	      uint8_t hop, uint16_t table)
{
	uint8_t none[IDT_MAX_DESTID + 1];

	memset(none, RTE_RIO_INVALID_ROUTE, sizeof(none));
	return add_entries(mport, destid, hop, table, 0, sizeof(none), none);
}

/* ---------------------------------------------------------------------- */
/* CPS Gen2                                                               */

static inline uint32_t
idt_cps_value(uint8_t port)
{
	return port == RTE_RIO_INVALID_ROUTE ? IDT_CPS_NO_ROUTE : port;
}

static inline uint8_t
idt_cps_port(uint32_t v)
{
	v &= 0xff;
	return v == IDT_CPS_USE_DEVICE_TABLE || v == IDT_CPS_DEFAULT_ROUTE ||
		v == IDT_CPS_NO_ROUTE ? RTE_RIO_INVALID_ROUTE : (uint8_t)v;
}

static int
idt_cps_select(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table)
{
	uint32_t t = table == RTE_RIO_GLOBAL_TABLE ? IDT_CPS_RTE_TABLE_GLOBAL : table + 1u;

	return rte_rio_remote_write_config_32(mport, destid, hop, IDT_CPS_RTE_TABLE_SEL, t);
}

static int
idt_cps_write_one(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t id,
		  uint8_t port)
{
	int ret;

	ret = rte_rio_remote_write_config_32(mport, destid, hop,
					     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, id);
	if (ret == 0)
		ret = rte_rio_remote_write_config_32(mport, destid, hop,
						     RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR,
						     idt_cps_value(port));
	return ret;
}

static int
idt_cps_add_entries(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		    uint16_t first, uint16_t n, const uint8_t *ports)
{
	uint32_t id = first, end = (uint32_t)first + n, w[2];
	unsigned int k;
	int ret;

	if (end > IDT_MAX_DESTID + 1u)
		return -ERANGE;
	ret = idt_cps_select(mport, destid, hop, table);
	while (ret == 0 && id < end) {
		if ((id % RIO_SWITCH_RT_GROUP) != 0 || end - id < RIO_SWITCH_RT_GROUP) {
			ret = idt_cps_write_one(mport, destid, hop, (uint16_t)id, ports[id - first]);
			id++;
			continue;
		}
		/* Extended route configuration: four entries, the first in the low byte. */
		w[0] = RTE_RIO_STD_RTE_CONF_EXTCFGEN | id;
		w[1] = 0;
		for (k = 0; k < RIO_SWITCH_RT_GROUP; k++)
			w[1] |= idt_cps_value(ports[id - first + k]) << (8 * k);
		if (mport->ops->cwrite_block != NULL) {
			ret = rte_rio_remote_write_block(mport, destid, hop,
							 RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 8, w);
		} else {
			ret = rte_rio_remote_write_config_32(mport, destid, hop,
							     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
							     w[0]);
			if (ret == 0)
				ret = rte_rio_remote_write_config_32(mport, destid, hop,
					RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, w[1]);
		}
		id += RIO_SWITCH_RT_GROUP;
	}
	return ret;
}

static int
idt_cps_read_one(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t id,
		 uint8_t *port)
{
	uint32_t v;
	int ret;

	ret = rte_rio_remote_write_config_32(mport, destid, hop,
					     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, id);
	if (ret == 0)
		ret = rte_rio_remote_read_config_32(mport, destid, hop,
						    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &v);
	if (ret == 0)
		*port = idt_cps_port(v);
	return ret;
}

static int
idt_cps_get_entries(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		    uint16_t first, uint16_t n, uint8_t *ports)
{
	uint32_t id = first, end = (uint32_t)first + n, v;
	unsigned int k;
	int ret;

	if (end > IDT_MAX_DESTID + 1u)
		return -ERANGE;
	ret = idt_cps_select(mport, destid, hop, table);
	while (ret == 0 && id < end) {
		if ((id % RIO_SWITCH_RT_GROUP) != 0 || end - id < RIO_SWITCH_RT_GROUP) {
			ret = idt_cps_read_one(mport, destid, hop, (uint16_t)id, &ports[id - first]);
			id++;
			continue;
		}
		ret = rte_rio_remote_write_config_32(mport, destid, hop,
						     RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
						     RTE_RIO_STD_RTE_CONF_EXTCFGEN | id);
		if (ret == 0)
			ret = rte_rio_remote_read_config_32(mport, destid, hop,
							    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &v);
		for (k = 0; ret == 0 && k < RIO_SWITCH_RT_GROUP; k++)
			ports[id - first + k] = idt_cps_port(v >> (8 * k));
		id += RIO_SWITCH_RT_GROUP;
	}
	return ret;
}

static int
idt_cps_add_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		  uint16_t route_destid, uint8_t route_port)
{
	int ret;

	if (route_destid <= IDT_MAX_DESTID)
		return idt_cps_add_entries(mport, destid, hop, table, route_destid, 1,
					   &route_port);
	if (mport->devid_size != 16)
		return -ERANGE;
	/* The ID's domain entry. */
	ret = idt_cps_select(mport, destid, hop, table);
	if (ret == 0)
		ret = idt_cps_write_one(mport, destid, hop, route_destid, route_port);
	return ret;
}

static int
idt_cps_get_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		  uint16_t route_destid, uint8_t *route_port)
{
	int ret;

	if (route_destid <= IDT_MAX_DESTID)
		return idt_cps_get_entries(mport, destid, hop, table, route_destid, 1,
					   route_port);
	if (mport->devid_size != 16)
		return -ERANGE;
	ret = idt_cps_select(mport, destid, hop, table);
	if (ret == 0)
		ret = idt_cps_read_one(mport, destid, hop, route_destid, route_port);
	return ret;
}

static int
idt_cps_clr_table(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table)
{
	return idt_clr_table(idt_cps_add_entries, mport, destid, hop, table);
}

static int
idt_cps_init(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint8_t inport)
{
	uint32_t v, swp;
	unsigned int p;
	int ret;

	RTE_SET_USED(inport);
	/* Nothing is routed by default: an entry left "default" drops too. */
	ret = rte_rio_remote_write_config_32(mport, destid, hop, RTE_RIO_STD_RTE_DEFAULT_PORT,
					     IDT_CPS_NO_ROUTE);
	/* 16-bit IDs of domain 0 (every ID the host assigns) by the device table. */
	if (ret == 0 && mport->devid_size == 16)
		ret = rte_rio_remote_write_config_32(mport, destid, hop, IDT_CPS_BC_DOM_ENTRY(0),
						     IDT_CPS_USE_DEVICE_TABLE);
	if (ret == 0)
		ret = rte_rio_remote_read_config_32(mport, destid, hop, IDT_CPS_DEV_CTRL_1, &v);
	if (ret == 0 && !(v & IDT_CPS_DEV_CTRL_1_GENPW))
		ret = rte_rio_remote_write_config_32(mport, destid, hop, IDT_CPS_DEV_CTRL_1,
						     v | IDT_CPS_DEV_CTRL_1_GENPW);
	if (ret == 0)
		ret = rte_rio_remote_write_config_32(mport, destid, hop,
						     IDT_CPS_PORT_ERR_REPORT_EN_BC,
						     IDT_CPS_PORT_ERR_REPORT_ALL);
	if (ret == 0)
		ret = rte_rio_remote_read_config_32(mport, destid, hop, RTE_RIO_SWP_INFO_CAR, &swp);
	for (p = 0; ret == 0 && p < RTE_RIO_GET_TOTAL_PORTS(swp); p++) {
		ret = rte_rio_remote_read_config_32(mport, destid, hop, IDT_CPS_PORT_OPS(p), &v);
		if (ret == 0 && (v & (IDT_CPS_PORT_OPS_GENPW | IDT_CPS_PORT_OPS_LOG)) !=
		    (IDT_CPS_PORT_OPS_GENPW | IDT_CPS_PORT_OPS_LOG))
			ret = rte_rio_remote_write_config_32(mport, destid, hop,
				IDT_CPS_PORT_OPS(p),
				v | IDT_CPS_PORT_OPS_GENPW | IDT_CPS_PORT_OPS_LOG);
	}
	return ret;
}

#define IDT_CPS_OPS(n, d) { \
	.name = (n), \
	.vid = RTE_RIO_VID_IDT, \
	.did = (d), \
	.add_entry = idt_cps_add_entry, \
	.get_entry = idt_cps_get_entry, \
	.clr_table = idt_cps_clr_table, \
	.add_entries = idt_cps_add_entries, \
	.get_entries = idt_cps_get_entries, \
	.route_group = RIO_SWITCH_RT_GROUP, \
	.max_destid = IDT_MAX_DESTID, \
	.init = idt_cps_init, \
}

/* ---------------------------------------------------------------------- */
/* RXS Gen3                                                               */

static inline uint32_t
idt_rxs_value(uint8_t port)
{
	return port == RTE_RIO_INVALID_ROUTE ? IDT_RXS_RT_DROP : port;
}

static inline uint8_t
idt_rxs_port(uint32_t v)
{
	v &= 0x3ff;
	return v <= IDT_RXS_RT_PORT_MAX && v != RTE_RIO_INVALID_ROUTE ? (uint8_t)v :
		RTE_RIO_INVALID_ROUTE;
}

/*
 * Entries from @id (before @end) one access covers: one register, or with
 * block maintenance a naturally aligned block of 2, 4, 8 or 16 (the 8, 16,
 * 32 and 64-byte maintenance payloads).
 */
static uint32_t
idt_rxs_run(bool block, uint32_t id, uint32_t end)
{
	uint32_t cnt = IDT_RXS_BLOCK_ENTRIES;

	if (!block)
		return 1;
	while (cnt > 1 && ((id % cnt) != 0 || end - id < cnt))
		cnt /= 2;
	return cnt;
}

static int
idt_rxs_add_entries(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		    uint16_t first, uint16_t n, const uint8_t *ports)
{
	uint32_t id = first, end = (uint32_t)first + n, w[IDT_RXS_BLOCK_ENTRIES], cnt, k;
	int ret = 0;

	/* Per-port tables are not used: the global table is every port's. */
	if (table != RTE_RIO_GLOBAL_TABLE || end > IDT_MAX_DESTID + 1u)
		return -ERANGE;
	while (ret == 0 && id < end) {
		cnt = idt_rxs_run(mport->ops->cwrite_block != NULL, id, end);
		for (k = 0; k < cnt; k++)
			w[k] = idt_rxs_value(ports[id - first + k]);
		if (cnt == 1)
			ret = rte_rio_remote_write_config_32(mport, destid, hop,
							     IDT_RXS_BC_L2_G0_ENTRY(id), w[0]);
		else
			ret = rte_rio_remote_write_block(mport, destid, hop,
							 IDT_RXS_BC_L2_G0_ENTRY(id),
							 (int)cnt * 4, w);
		id += cnt;
	}
	return ret;
}

static int
idt_rxs_add_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		  uint16_t route_destid, uint8_t route_port)
{
	if (route_destid <= IDT_MAX_DESTID)
		return idt_rxs_add_entries(mport, destid, hop, table, route_destid, 1,
					   &route_port);
	if (mport->devid_size != 16 || table != RTE_RIO_GLOBAL_TABLE)
		return -ERANGE;
	/* The ID's level-1 (domain) entry. */
	return rte_rio_remote_write_config_32(mport, destid, hop,
					      IDT_RXS_BC_L1_ENTRY(route_destid >> 8),
					      idt_rxs_value(route_port));
}

/* The port whose tables a read of @table looks at. */
static int
idt_rxs_table_port(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		   uint32_t *port)
{
	uint32_t swp;
	int ret;

	ret = rte_rio_remote_read_config_32(mport, destid, hop, RTE_RIO_SWP_INFO_CAR, &swp);
	if (ret < 0)
		return ret;
	/* No global table to read: the one of the port this read came in on. */
	*port = table == RTE_RIO_GLOBAL_TABLE ? RTE_RIO_GET_PORT_NUM(swp) : table;
	return *port < RTE_RIO_GET_TOTAL_PORTS(swp) ? 0 : -EINVAL;
}

static int
idt_rxs_get_entries(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		    uint16_t first, uint16_t n, uint8_t *ports)
{
	uint32_t id = first, end = (uint32_t)first + n, w[IDT_RXS_BLOCK_ENTRIES], port, cnt, k;
	int ret;

	if (end > IDT_MAX_DESTID + 1u)
		return -ERANGE;
	ret = idt_rxs_table_port(mport, destid, hop, table, &port);
	while (ret == 0 && id < end) {
		cnt = idt_rxs_run(mport->ops->cread_block != NULL, id, end);
		if (cnt == 1)
			ret = rte_rio_remote_read_config_32(mport, destid, hop,
							    IDT_RXS_SP_L2_G0_ENTRY(port, id), w);
		else
			ret = rte_rio_remote_read_block(mport, destid, hop,
							IDT_RXS_SP_L2_G0_ENTRY(port, id),
							(int)cnt * 4, w);
		for (k = 0; ret == 0 && k < cnt; k++)
			ports[id - first + k] = idt_rxs_port(w[k]);
		id += cnt;
	}
	return ret;
}

static int
idt_rxs_get_entry(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table,
		  uint16_t route_destid, uint8_t *route_port)
{
	uint32_t port, v;
	int ret;

	if (route_destid <= IDT_MAX_DESTID)
		return idt_rxs_get_entries(mport, destid, hop, table, route_destid, 1,
					   route_port);
	if (mport->devid_size != 16)
		return -ERANGE;
	ret = idt_rxs_table_port(mport, destid, hop, table, &port);
	if (ret == 0)
		ret = rte_rio_remote_read_config_32(mport, destid, hop,
						    IDT_RXS_SP_L1_ENTRY(port, route_destid >> 8),
						    &v);
	if (ret == 0)
		*route_port = idt_rxs_port(v);
	return ret;
}

static int
idt_rxs_clr_table(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint16_t table)
{
	return idt_clr_table(idt_rxs_add_entries, mport, destid, hop, table);
}

static int
idt_rxs_init(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint8_t inport)
{
	int ret;

	ret = rte_rio_remote_write_config_32(mport, destid, hop, IDT_RXS_PW_ROUTE,
					     UINT32_C(1) << inport);
	/* 16-bit IDs with MSB 0 (every ID the host assigns) by the level-2 table. */
	if (ret == 0 && mport->devid_size == 16)
		ret = rte_rio_remote_write_config_32(mport, destid, hop, IDT_RXS_BC_L1_ENTRY(0),
						     IDT_RXS_L1_L2_GROUP0);
	return ret;
}

#define IDT_RXS_OPS(n, d) { \
	.name = (n), \
	.vid = RTE_RIO_VID_IDT, \
	.did = (d), \
	.add_entry = idt_rxs_add_entry, \
	.get_entry = idt_rxs_get_entry, \
	.clr_table = idt_rxs_clr_table, \
	.add_entries = idt_rxs_add_entries, \
	.get_entries = idt_rxs_get_entries, \
	.max_destid = IDT_MAX_DESTID, \
	.init = idt_rxs_init, \
}

static const struct rte_rio_switch_ops idt_switch_ops[] = {
	IDT_CPS_OPS("IDT CPS-1848", RTE_RIO_DID_IDT_CPS1848),
	IDT_CPS_OPS("IDT CPS-1432", RTE_RIO_DID_IDT_CPS1432),
	IDT_CPS_OPS("IDT CPS-1616", RTE_RIO_DID_IDT_CPS1616),
	IDT_CPS_OPS("IDT SPS-1616", RTE_RIO_DID_IDT_SPS1616),
	IDT_CPS_OPS("IDT VPS-1616", RTE_RIO_DID_IDT_VPS1616),
	IDT_RXS_OPS("IDT RXS-1632", RTE_RIO_DID_IDT_RXS1632),
	IDT_RXS_OPS("IDT RXS-2448", RTE_RIO_DID_IDT_RXS2448),
};

RTE_INIT(rio_switch_idt_init)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(idt_switch_ops); i++)
		if (rte_rio_switch_ops_register(&idt_switch_ops[i]) < 0)
			RIO_LOG(ERR, "cannot register the route ops of %s",
				idt_switch_ops[i].name);
}
