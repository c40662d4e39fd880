/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_switch_autotest: the route ops lib/rio has for the IDT CPS Gen2 and
 * RXS Gen3 switch families, driven against a register model of one switch
 * behind a test master port (no rio_sim model needed), written from the
 * same public facts as the ops (Linux's idt_gen2.c and idt_gen3.c):
 *  - CPS: table select 0x10070 (0 global, n + 1 port n), then 0x70 with
 *    Ext_config_en for four entries or without for one, 0x74; 0xde
 *    "default route", 0xdf "drop"; 0x78 default port;
 *    with 16-bit IDs, a 0x70 value whose MSB is not 0 (the switch's domain)
 *    selects that MSB's domain table entry, also written through the
 *    broadcast domain table at 0xe00400 + 4 MSB; 0xdd "use the device table";
 *  - RXS: broadcast entries at 0x31000 + 4 ID write every port's table,
 *    per-port tables at 0x51000 + 0x2000 port + 4 ID; 0x300 drop; reads of
 *    the global table use the table of the port the read came in on; the
 *    level-1 (domain) table likewise at 0x30400 / 0x50400 + 4 MSB, 0x200
 *    "level-2 group 0".
 * Checked: entries land where the part keeps them with the part's values,
 * reads map the part's "no route" values, IDs beyond the table are refused
 * on 8-bit fabrics and route their domain on 16-bit ones, the init hook,
 * and the transaction counts with 4-byte and block maintenance (the cost
 * the enumerator reports).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rio_driver.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_rio_regs.h"

#include "test.h"

#define SWT_NPORTS	18
#define SWT_INGRESS	3
#define SWT_PHYS	0x100

/* One switch answering every (destid, hop). */
struct swt_model {
	bool rxs;
	uint8_t devid_size;
	uint32_t table_sel;		/* CPS 0x10070 */
	uint32_t sel;			/* CPS 0x70 */
	uint32_t dflt;			/* 0x78 */
	uint32_t dev_ctrl_1;
	uint32_t port_err_report_bc;
	uint32_t port_ops[SWT_NPORTS];
	uint32_t table[SWT_NPORTS][256];	/* CPS: 8-bit values; RXS: 10-bit */
	uint32_t dom[SWT_NPORTS][256];		/* domain / level-1 table, by ID MSB */
	uint32_t pw_route;
	unsigned int bad;		/* accesses the part does not have */
};

static struct swt_model swt;

#define CPS_TABLE_SEL		0x10070
#define CPS_DEV_CTRL_1		0xf2000c
#define CPS_PORT_ERR_BC		0x03ff04
#define CPS_PORT_OPS(n)		(0xf40004 + (n) * 0x100)
#define CPS_BC_DOM(m)		(0xe00400 + (m) * 4)
#define RXS_BC_ENTRY(id)	(0x31000 + (id) * 4)
#define RXS_SP_ENTRY(p, id)	(0x51000 + (p) * 0x2000 + (id) * 4)
#define RXS_BC_L1(m)		(0x30400 + (m) * 4)
#define RXS_SP_L1(p, m)		(0x50400 + (p) * 0x2000 + (m) * 4)
#define RXS_PW_ROUTE		0x40208

static int
swt_lcread(struct rte_rio_mport *m, uint32_t off, int len, uint32_t *data)
{
	RTE_SET_USED(m);
	if (len != 4)
		return -EINVAL;
	switch (off) {
	case RTE_RIO_PEF_CAR:
		*data = RTE_RIO_PEF_PROCESSOR | RTE_RIO_PEF_EXT_FEATURES;
		break;
	case RTE_RIO_ASM_INFO_CAR:
		*data = SWT_PHYS;
		break;
	case SWT_PHYS:
		*data = RTE_RIO_EFB_SER_EP_M1_ID;
		break;
	default:
		*data = 0;
	}
	return 0;
}

static int
swt_lcwrite(struct rte_rio_mport *m, uint32_t off, int len, uint32_t data)
{
	RTE_SET_USED(m);
	RTE_SET_USED(off);
	RTE_SET_USED(data);
	return len == 4 ? 0 : -EINVAL;
}

/* The port whose table CPS reads use: the global table reads as port 0's. */
static unsigned int
swt_cps_read_port(void)
{
	uint32_t t = swt.table_sel & 0x1f;

	return t == 0 ? 0 : t - 1;
}

static uint32_t *
swt_cps_port_table(void)
{
	return swt.table[swt_cps_read_port()];
}

/* Does the CPS's 0x70 select a domain entry (a 16-bit ID outside domain 0)? */
static bool
swt_cps_domain(void)
{
	return swt.devid_size == 16 && ((swt.sel >> 8) & 0xff) != 0;
}

static int
swt_cread(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
	  uint32_t *data)
{
	uint32_t id, k;

	RTE_SET_USED(m);
	RTE_SET_USED(destid);
	RTE_SET_USED(hop);
	if (len != 4)
		return -EINVAL;
	*data = 0;
	if (off == RTE_RIO_SWP_INFO_CAR) {
		*data = (SWT_NPORTS << 8) | SWT_INGRESS;
	} else if (swt.rxs && off >= RXS_SP_ENTRY(0, 0) &&
		   off < RXS_SP_ENTRY(SWT_NPORTS, 0) &&
		   (off - RXS_SP_ENTRY(0, 0)) % 0x2000 < RXS_SP_ENTRY(0, 256) - RXS_SP_ENTRY(0, 0)) {
		id = (off - RXS_SP_ENTRY(0, 0)) % 0x2000 / 4;
		*data = swt.table[(off - RXS_SP_ENTRY(0, 0)) / 0x2000][id];
	} else if (swt.rxs && off >= RXS_SP_L1(0, 0) && off < RXS_SP_L1(SWT_NPORTS, 0) &&
		   (off - RXS_SP_L1(0, 0)) % 0x2000 < 0x400) {
		*data = swt.dom[(off - RXS_SP_L1(0, 0)) / 0x2000]
			[(off - RXS_SP_L1(0, 0)) % 0x2000 / 4];
	} else if (!swt.rxs && off == RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR) {
		id = swt.sel & 0xff;
		if (swt_cps_domain())
			*data = swt.dom[swt_cps_read_port()][(swt.sel >> 8) & 0xff];
		else if (swt.sel & RTE_RIO_STD_RTE_CONF_EXTCFGEN)
			for (id &= ~3u, k = 0; k < 4; k++)
				*data |= swt_cps_port_table()[id + k] << (8 * k);
		else
			*data = swt_cps_port_table()[id];
	} else if (!swt.rxs && off == CPS_DEV_CTRL_1) {
		*data = swt.dev_ctrl_1;
	} else if (!swt.rxs && off >= CPS_PORT_OPS(0) && off < CPS_PORT_OPS(SWT_NPORTS) &&
		   (off & 0xff) == 4) {
		*data = swt.port_ops[(off - CPS_PORT_OPS(0)) / 0x100];
	} else {
		swt.bad++;
	}
	return 0;
}

static int
swt_cwrite(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
	   uint32_t data)
{
	uint32_t id, k, p;

	RTE_SET_USED(m);
	RTE_SET_USED(destid);
	RTE_SET_USED(hop);
	if (len != 4)
		return -EINVAL;
	if (swt.rxs && off >= RXS_BC_ENTRY(0) && off <= RXS_BC_ENTRY(255)) {
		for (p = 0; p < SWT_NPORTS; p++)
			swt.table[p][(off - RXS_BC_ENTRY(0)) / 4] = data & 0x3ff;
	} else if (swt.rxs && off >= RXS_BC_L1(0) && off <= RXS_BC_L1(255)) {
		for (p = 0; p < SWT_NPORTS; p++)
			swt.dom[p][(off - RXS_BC_L1(0)) / 4] = data & 0x3ff;
	} else if (!swt.rxs && off >= CPS_BC_DOM(0) && off <= CPS_BC_DOM(255)) {
		for (p = 0; p < SWT_NPORTS; p++)
			swt.dom[p][(off - CPS_BC_DOM(0)) / 4] = data & 0xff;
	} else if (swt.rxs && off == RXS_PW_ROUTE) {
		swt.pw_route = data;
	} else if (!swt.rxs && off == CPS_TABLE_SEL) {
		swt.table_sel = data;
	} else if (!swt.rxs && off == RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR) {
		swt.sel = data;
	} else if (!swt.rxs && off == RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR) {
		id = swt.sel & 0xff;
		for (p = 0; p < SWT_NPORTS; p++) {
			uint32_t t = swt.table_sel & 0x1f;

			if (t != 0 && t - 1 != p)
				continue;
			if (swt_cps_domain())
				swt.dom[p][(swt.sel >> 8) & 0xff] = data & 0xff;
			else if (swt.sel & RTE_RIO_STD_RTE_CONF_EXTCFGEN)
				for (k = 0; k < 4; k++)
					swt.table[p][(id & ~3u) + k] = (data >> (8 * k)) & 0xff;
			else
				swt.table[p][id] = data & 0xff;
		}
	} else if (!swt.rxs && off == RTE_RIO_STD_RTE_DEFAULT_PORT) {
		swt.dflt = data;
	} else if (!swt.rxs && off == CPS_DEV_CTRL_1) {
		swt.dev_ctrl_1 = data;
	} else if (!swt.rxs && off == CPS_PORT_ERR_BC) {
		swt.port_err_report_bc = data;
	} else if (!swt.rxs && off >= CPS_PORT_OPS(0) && off < CPS_PORT_OPS(SWT_NPORTS) &&
		   (off & 0xff) == 4) {
		swt.port_ops[(off - CPS_PORT_OPS(0)) / 0x100] = data;
	} else {
		swt.bad++;
	}
	return 0;
}

/* A maintenance payload of 8, 16, 32 or 64 bytes, naturally aligned. */
static bool
swt_block_ok(uint32_t off, int len)
{
	if ((len == 8 || len == 16 || len == 32 || len == 64) && off % (uint32_t)len == 0)
		return true;
	swt.bad++;
	return false;
}

static int
swt_cread_block(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
		uint32_t *words)
{
	int i, ret = 0;

	if (!swt_block_ok(off, len))
		return -EINVAL;
	for (i = 0; ret == 0 && i < len / 4; i++)
		ret = swt_cread(m, destid, hop, off + 4 * i, 4, &words[i]);
	return ret;
}

static int
swt_cwrite_block(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off,
		 int len, const uint32_t *words)
{
	int i, ret = 0;

	if (!swt_block_ok(off, len))
		return -EINVAL;
	for (i = 0; ret == 0 && i < len / 4; i++)
		ret = swt_cwrite(m, destid, hop, off + 4 * i, 4, words[i]);
	return ret;
}

static int
swt_dsend(struct rte_rio_mport *m, uint16_t destid, uint16_t info)
{
	RTE_SET_USED(m);
	RTE_SET_USED(destid);
	RTE_SET_USED(info);
	return -ENOTSUP;
}

static int
swt_dbell_fetch(struct rte_rio_mport *m, struct rte_rio_dbell *d, uint16_t n)
{
	RTE_SET_USED(m);
	RTE_SET_USED(d);
	RTE_SET_USED(n);
	return 0;
}

static int
swt_open(struct rte_rio_mport *m, uint8_t mbox, uint32_t entries)
{
	RTE_SET_USED(m);
	RTE_SET_USED(mbox);
	RTE_SET_USED(entries);
	return -ENOTSUP;
}

static void
swt_close(struct rte_rio_mport *m, uint8_t mbox)
{
	RTE_SET_USED(m);
	RTE_SET_USED(mbox);
}

static uint16_t
swt_msgs(struct rte_rio_mport *m, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	RTE_SET_USED(m);
	RTE_SET_USED(mbox);
	RTE_SET_USED(msgs);
	RTE_SET_USED(n);
	return 0;
}

static int64_t
swt_outb_compl(struct rte_rio_mport *m, uint8_t mbox)
{
	RTE_SET_USED(m);
	RTE_SET_USED(mbox);
	return 0;
}

static uint16_t
swt_add_inb(struct rte_rio_mport *m, uint8_t mbox, void * const *bufs, uint16_t n)
{
	RTE_SET_USED(m);
	RTE_SET_USED(mbox);
	RTE_SET_USED(bufs);
	RTE_SET_USED(n);
	return 0;
}

#define SWT_COMMON_OPS \
	.lcread = swt_lcread, \
	.lcwrite = swt_lcwrite, \
	.cread = swt_cread, \
	.cwrite = swt_cwrite, \
	.dsend = swt_dsend, \
	.dbell_fetch = swt_dbell_fetch, \
	.open_outb_mbox = swt_open, \
	.close_outb_mbox = swt_close, \
	.open_inb_mbox = swt_open, \
	.close_inb_mbox = swt_close, \
	.add_outb_messages = swt_msgs, \
	.outb_completion = swt_outb_compl, \
	.add_inb_buffers = swt_add_inb, \
	.get_inb_messages = swt_msgs

static const struct rte_rio_mport_ops swt_word_ops = { SWT_COMMON_OPS };
static const struct rte_rio_mport_ops swt_block_ops = {
	SWT_COMMON_OPS,
	.cread_block = swt_cread_block,
	.cwrite_block = swt_cwrite_block,
};

static struct rte_rio_mport *
swt_mport(bool block, bool rxs, uint8_t devid_size)
{
	struct rte_rio_mport_conf c;

	memset(&swt, 0, sizeof(swt));
	swt.rxs = rxs;
	swt.devid_size = devid_size;
	memset(&c, 0, sizeof(c));
	c.name = block ? "rio_switch_test_block" : "rio_switch_test_word";
	c.ops = block ? &swt_block_ops : &swt_word_ops;
	c.devid_size = devid_size;
	c.host_destid = 0;
	/* One a failed case left behind. */
	if (rte_rio_mport_find(c.name) != NULL)
		rte_rio_mport_unregister(rte_rio_mport_find(c.name));
	return rte_rio_mport_register(&c);
}

/* A pattern of ports and "no route" over 256 IDs. */
static void
swt_pattern(uint8_t *ports, unsigned int salt)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		ports[i] = (i + salt) % 7 == 0 ? RTE_RIO_INVALID_ROUTE :
			(uint8_t)((i * 5 + salt) % SWT_NPORTS);
}

static int
swt_cps(bool block)
{
	const struct rte_rio_switch_ops *ops = rte_rio_switch_ops_find(RTE_RIO_VID_IDT,
								       RTE_RIO_DID_IDT_CPS1848);
	struct rte_rio_mport *mp = swt_mport(block, false, 8);
	uint8_t want[256], got[256], one;
	unsigned int i, p;
	uint64_t cnt;

	TEST_ASSERT_NOT_NULL(mp, "mport");
	TEST_ASSERT(ops != rte_rio_switch_std_ops() && ops->add_entries != NULL &&
		    ops->get_entries != NULL && ops->init != NULL, "CPS-1848 route ops");
	TEST_ASSERT_EQUAL(ops->route_group, 4, "four entries per access");
	TEST_ASSERT_EQUAL(ops->max_destid, 0xff, "256 entries");
	swt_pattern(want, 1);
	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_SUCCESS(ops->add_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0, 256, want),
			    "add_entries");
	cnt = rte_rio_mport_maint_count(mp);
	printf("  CPS-1848, %s maintenance: 256 entries in %" PRIu64 " transactions\n",
	       block ? "block" : "4-byte", cnt);
	/* The table select, then one group of four per access (select and port). */
	TEST_ASSERT_EQUAL(cnt, 1 + 64 * (block ? 1 : 2), "transactions");
	for (p = 0; p < SWT_NPORTS; p++)
		for (i = 0; i < 256; i++)
			TEST_ASSERT_EQUAL(swt.table[p][i], want[i] == RTE_RIO_INVALID_ROUTE ?
					  0xdfu : want[i], "port %u entry 0x%x", p, i);
	/* Reads map "drop" and "default route" to no route. */
	swt.table[0][9] = 0xde;
	TEST_ASSERT_SUCCESS(ops->get_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0, 256, got),
			    "get_entries");
	want[9] = RTE_RIO_INVALID_ROUTE;
	TEST_ASSERT(memcmp(got, want, sizeof(got)) == 0, "entries read back");
	TEST_ASSERT_SUCCESS(ops->get_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 9, &one), "get");
	TEST_ASSERT_EQUAL(one, RTE_RIO_INVALID_ROUTE, "0xde read as a route");
	/* A run not aligned to groups touches nothing else. */
	memset(got, 2, sizeof(got));
	TEST_ASSERT_SUCCESS(ops->add_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 5, 6, got), "run");
	for (i = 4; i <= 11; i++)
		TEST_ASSERT_EQUAL(swt.table[1][i], i >= 5 && i <= 10 ? 2u :
				  (want[i] == RTE_RIO_INVALID_ROUTE ? 0xdfu : want[i]),
				  "entry 0x%x", i);
	TEST_ASSERT_EQUAL(ops->add_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0x100, 1), -ERANGE,
			  "ID beyond the table");
	TEST_ASSERT_EQUAL(swt.table_sel & 0x1f, 0, "global table not selected");
	/* Enumeration: default routing off, port-writes for port events. */
	swt.dflt = 5;
	TEST_ASSERT_SUCCESS(ops->init(mp, 0, 0, SWT_INGRESS), "init");
	TEST_ASSERT_EQUAL(swt.dflt, 0xdf, "default route not disabled");
	TEST_ASSERT(swt.dev_ctrl_1 & 0x02000000u, "port-writes not generated");
	for (p = 0; p < SWT_NPORTS; p++)
		TEST_ASSERT(swt.port_ops[p] & 0x08000000u, "port %u events not reported", p);
	TEST_ASSERT_EQUAL(swt.bad, 0, "accesses the part does not have");
	TEST_ASSERT_SUCCESS(rte_rio_mport_unregister(mp), "unregister");
	return TEST_SUCCESS;
}

static int
swt_rxs(bool block)
{
	const struct rte_rio_switch_ops *ops = rte_rio_switch_ops_find(RTE_RIO_VID_IDT,
								       RTE_RIO_DID_IDT_RXS2448);
	struct rte_rio_mport *mp = swt_mport(block, true, 8);
	uint8_t want[256], got[256];
	unsigned int i, p;
	uint64_t cnt;

	TEST_ASSERT_NOT_NULL(mp, "mport");
	TEST_ASSERT(ops != rte_rio_switch_std_ops() && ops->add_entries != NULL &&
		    ops->get_entries != NULL && ops->init != NULL, "RXS-2448 route ops");
	swt_pattern(want, 3);
	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_SUCCESS(ops->add_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0, 256, want),
			    "add_entries");
	cnt = rte_rio_mport_maint_count(mp);
	printf("  RXS-2448, %s maintenance: 256 entries in %" PRIu64 " transactions\n",
	       block ? "block" : "4-byte", cnt);
	/* One register per entry; a 64-byte block write covers 16. */
	TEST_ASSERT_EQUAL(cnt, block ? 16u : 256u, "transactions");
	for (p = 0; p < SWT_NPORTS; p++)
		for (i = 0; i < 256; i++)
			TEST_ASSERT_EQUAL(swt.table[p][i], want[i] == RTE_RIO_INVALID_ROUTE ?
					  0x300u : want[i], "port %u entry 0x%x", p, i);
	/* Reads: the table of the ingress port; multicast, group and drop values are no route. */
	swt.table[SWT_INGRESS][7] = 0x1ff;
	swt.table[SWT_INGRESS][8] = 0x2a0;
	swt.table[SWT_INGRESS + 1][10] = 0x300;
	want[7] = want[8] = RTE_RIO_INVALID_ROUTE;
	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_SUCCESS(ops->get_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0, 256, got),
			    "get_entries");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 1 + (block ? 16u : 256u), "reads");
	TEST_ASSERT(memcmp(got, want, sizeof(got)) == 0, "entries read back");
	TEST_ASSERT_EQUAL(ops->add_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0x100, 1), -ERANGE,
			  "ID beyond the table");
	/* Runs that do not start or end on a block: legal, aligned payloads only. */
	swt_pattern(want, 4);
	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_SUCCESS(ops->add_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 2, 254, want + 2),
			    "add_entries 0x2-0xff");
	cnt = rte_rio_mport_maint_count(mp);
	/* Blocks of 2, 4, 8, then 16 from 0x10 on (reads from 0x3: 1, 4, 8, 16...). */
	TEST_ASSERT_EQUAL(cnt, block ? 18u : 254u, "transactions for 0x2-0xff");
	TEST_ASSERT_SUCCESS(ops->add_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 5, 0x77, want + 5),
			    "add_entries 0x5-0x7b");
	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_SUCCESS(ops->get_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 3, 0xfd, got + 3),
			    "get_entries 0x3-0xff");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 1 + (block ? 18u : 253u),
			  "transactions for reading 0x3-0xff");
	for (i = 2; i < 256; i++)
		TEST_ASSERT_EQUAL(swt.table[0][i], want[i] == RTE_RIO_INVALID_ROUTE ?
				  0x300u : want[i], "entry 0x%x", i);
	TEST_ASSERT(memcmp(got + 3, want + 3, 253) == 0, "entries 0x3-0xff read back");
	TEST_ASSERT_SUCCESS(ops->add_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0x42, 4), "add");
	for (p = 0; p < SWT_NPORTS; p++)
		TEST_ASSERT_EQUAL(swt.table[p][0x42], 4, "broadcast write, port %u", p);
	TEST_ASSERT_SUCCESS(ops->init(mp, 0, 0, 5), "init");
	TEST_ASSERT_EQUAL(swt.pw_route, 1u << 5, "port-writes not towards the host");
	TEST_ASSERT_EQUAL(swt.bad, 0, "accesses the part does not have");
	TEST_ASSERT_SUCCESS(rte_rio_mport_unregister(mp), "unregister");
	return TEST_SUCCESS;
}

/*
 * 16-bit IDs: init sends domain 0 (every ID the host assigns) to the device
 * table, whatever the domain table held; an ID above 0xff (ANY_DESTID, the
 * only one the enumerator routes there) is routed and read by its domain
 * entry, and no device entry changes.
 */
static int
swt_domain(bool block, bool rxs)
{
	const struct rte_rio_switch_ops *ops = rte_rio_switch_ops_find(RTE_RIO_VID_IDT,
		rxs ? RTE_RIO_DID_IDT_RXS2448 : RTE_RIO_DID_IDT_CPS1848);
	struct rte_rio_mport *mp = swt_mport(block, rxs, 16);
	uint32_t use_dev = rxs ? 0x200 : 0xdd, drop = rxs ? 0x300 : 0xdf;
	uint8_t want[256], one;
	unsigned int i, p;

	TEST_ASSERT_NOT_NULL(mp, "mport");
	swt_pattern(want, 5);
	TEST_ASSERT_SUCCESS(ops->add_entries(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0, 256, want),
			    "add_entries");
	for (p = 0; p < SWT_NPORTS; p++)
		for (i = 0; i < 256; i++)
			swt.dom[p][i] = (p * 7 + i) % SWT_NPORTS;
	TEST_ASSERT_SUCCESS(ops->init(mp, 0, 0, SWT_INGRESS), "init");
	for (p = 0; p < SWT_NPORTS; p++)
		TEST_ASSERT_EQUAL(swt.dom[p][0], use_dev, "port %u: domain 0", p);
	TEST_ASSERT_SUCCESS(ops->add_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0xffff, 6), "ANY");
	for (p = 0; p < SWT_NPORTS; p++)
		TEST_ASSERT_EQUAL(swt.dom[p][0xff], 6, "port %u: domain 0xff", p);
	/* The global table reads as the ingress port's (RXS) or port 0's (CPS). */
	swt.dom[rxs ? SWT_INGRESS : 0][0xfe] = 9;
	TEST_ASSERT_SUCCESS(ops->get_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0xfe12, &one), "get");
	TEST_ASSERT_EQUAL(one, 9, "domain 0xfe read back");
	TEST_ASSERT_SUCCESS(ops->get_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0xffff, &one), "get");
	TEST_ASSERT_EQUAL(one, 6, "domain 0xff read back");
	TEST_ASSERT_SUCCESS(ops->add_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0xffff,
					   RTE_RIO_INVALID_ROUTE), "ANY cleared");
	for (p = 0; p < SWT_NPORTS; p++)
		TEST_ASSERT_EQUAL(swt.dom[p][0xff], drop, "port %u: domain 0xff", p);
	TEST_ASSERT_SUCCESS(ops->get_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0xffff, &one), "get");
	TEST_ASSERT_EQUAL(one, RTE_RIO_INVALID_ROUTE, "dropped domain read as a route");
	swt.dom[rxs ? SWT_INGRESS : 0][0x01] = use_dev;
	TEST_ASSERT_SUCCESS(ops->get_entry(mp, 0, 0, RTE_RIO_GLOBAL_TABLE, 0x0100, &one), "get");
	TEST_ASSERT_EQUAL(one, RTE_RIO_INVALID_ROUTE, "\"use the device table\" read as a port");
	/* Device entries stay what add_entries wrote. */
	for (p = 0; p < SWT_NPORTS; p++)
		for (i = 0; i < 256; i++)
			TEST_ASSERT_EQUAL(swt.table[p][i], want[i] == RTE_RIO_INVALID_ROUTE ?
					  drop : want[i], "port %u entry 0x%x", p, i);
	TEST_ASSERT_EQUAL(swt.bad, 0, "accesses the part does not have");
	TEST_ASSERT_SUCCESS(rte_rio_mport_unregister(mp), "unregister");
	return TEST_SUCCESS;
}

static int
test_switch_domain(void)
{
	unsigned int m;

	for (m = 0; m < 4; m++)
		TEST_ASSERT_SUCCESS(swt_domain(m & 1, m & 2), "%s, %s maintenance",
				    m & 2 ? "RXS-2448" : "CPS-1848", m & 1 ? "block" : "4-byte");
	return TEST_SUCCESS;
}

static int
test_switch_registry(void)
{
	static const uint16_t cps[] = {
		RTE_RIO_DID_IDT_CPS1848, RTE_RIO_DID_IDT_CPS1432, RTE_RIO_DID_IDT_CPS1616,
		RTE_RIO_DID_IDT_SPS1616, RTE_RIO_DID_IDT_VPS1616,
	};
	static const uint16_t rxs[] = { RTE_RIO_DID_IDT_RXS1632, RTE_RIO_DID_IDT_RXS2448 };
	const struct rte_rio_switch_ops *c0, *r0;
	unsigned int i;

	c0 = rte_rio_switch_ops_find(RTE_RIO_VID_IDT, cps[0]);
	r0 = rte_rio_switch_ops_find(RTE_RIO_VID_IDT, rxs[0]);
	for (i = 0; i < RTE_DIM(cps); i++)
		TEST_ASSERT(rte_rio_switch_ops_find(RTE_RIO_VID_IDT, cps[i])->add_entries ==
			    c0->add_entries && c0->add_entries != NULL, "CPS 0x%x", cps[i]);
	for (i = 0; i < RTE_DIM(rxs); i++)
		TEST_ASSERT(rte_rio_switch_ops_find(RTE_RIO_VID_IDT, rxs[i])->add_entries ==
			    r0->add_entries && r0->add_entries != NULL, "RXS 0x%x", rxs[i]);
	TEST_ASSERT(c0->add_entries != r0->add_entries, "CPS and RXS share ops");
	TEST_ASSERT(rte_rio_switch_ops_find(0x1234, 0x5678) == rte_rio_switch_std_ops(),
		    "unknown switch");
	TEST_ASSERT(rte_rio_switch_ops_find(RTE_RIO_VID_IDT, 0x0001) == rte_rio_switch_std_ops(),
		    "unknown IDT part");
	return TEST_SUCCESS;
}

static int
test_switch_cps(void)
{
	TEST_ASSERT_SUCCESS(swt_cps(false), "4-byte maintenance");
	return swt_cps(true);
}

static int
test_switch_rxs(void)
{
	TEST_ASSERT_SUCCESS(swt_rxs(false), "4-byte maintenance");
	return swt_rxs(true);
}

static struct unit_test_suite rio_switch_suite = {
	.suite_name = "rio_switch_autotest",
	.unit_test_cases = {
		TEST_CASE(test_switch_registry),
		TEST_CASE(test_switch_cps),
		TEST_CASE(test_switch_rxs),
		TEST_CASE(test_switch_domain),
		TEST_CASES_END()
	}
};

static int
test_rio_switch(void)
{
	return unit_test_suite_runner(&rio_switch_suite);
}

REGISTER_TEST_COMMAND(rio_switch_autotest, test_rio_switch);
