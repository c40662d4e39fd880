/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Configuration space of every emulated device and maintenance routing.
 *
 * Register model (offsets in bytes; "EP" endpoint, "SW" switch):
 *
 *   0x00 DEV_ID      (did << 16) | vid                      RO
 *   0x04 DEV_INFO    dev_rev                                RO
 *   0x08 ASM_ID      (asm_did << 16) | asm_vid              RO
 *   0x0c ASM_INFO    (asm_rev << 16) | 0x0100 (EF pointer)  RO
 *   0x10 PEF         EP: PROCESSOR|EXT_FEATURES|ADDR_34; SW: SWITCH|STD_RT|
 *                    EXT_RT (not on the vendor model)|EXT_FEATURES; |DEV16 on
 *                    16-bit fabrics                         RO
 *   0x14 SWP_INFO    (nports << 8) | ingress port of this request
 *                    (0xff for a local/backdoor access)     RO
 *   0x18 SRC_OPS     EP: READ|WRITE|DATA_MSG|DOORBELL|PORT_WRITE; SW: PORT_WRITE
 *   0x1c DST_OPS     EP: as SRC_OPS; SW: 0                  RO
 *   0x34 RT_LIMIT    SW: 0xff or 0xffff                     RO
 *   0x4c PELL_CTRL   EP: ADDR_34 (bits 29-31 r/w)
 *   0x60 BASE_DEVID  EP: r/w 0x00ffffff, reset 0x00ffffff or the preset ID;
 *                    SW: reads 0, writes ignored
 *   0x68 HOST_LOCK   reset 0xffff; unlocked: a write stores the value; locked:
 *                    a different value is ignored, the same value unlocks;
 *                    bits 0-15 (0xffff0000) read 0
 *   0x6c COMPTAG     r/w, reset 0
 *   0x70 RTE_SEL     std SW: Config_destID (8-bit) or msb|lsb (16-bit) and
 *                    Ext_config_en (0x80000000); r/w
 *   0x74 RTE_PORT    std SW: read/write the route entry of the selected ID
 *                    (low byte; 0xff = no route); with Ext_config_en the
 *                    entries of the aligned group of 4 holding the selected
 *                    ID, first ID in the low byte, ID + 3 in the high byte
 *   0x78 RTE_DEFAULT std SW: default output port, reset 0xff (none: drop)
 *   0x100 LP-Serial block, register map I:
 *     +0x00 header   EP: 0x00000001 (ID 1, last); SW: 0x10000009 (ID 9, next 0x1000)
 *     +0x20 link timeout, +0x24 response timeout (EP only): 0xffffff00 r/w
 *     +0x3c general control: EP Host|Master|Discovered r/w; SW Discovered only
 *     per port n (+0x20 n): +0x40 link maintenance request (SW, accepted),
 *     +0x44 response (SW: valid | ackID | OK/error), +0x48 local ackID,
 *     +0x58 error/status (PORT_OK when the link is up and the peer present,
 *     else PORT_UNINIT; W1C bits), +0x5c control (P_TYP_SER|PWIDTH_4, reset
 *     EN_TX|EN_RX; DISABLE, EN_TX, EN_RX, LOCKOUT and the EM bits writable;
 *     DISABLE takes the link down)
 *   0x1000 Error Management block (SW only): header 0x00000007, +0x04 hot
 *     swap CAR, +0x08/0x0c L/T error detect/enable, +0x28 port-write target
 *     (reset: ANY), +0x2c TTL, +0x34 port-write tx control, per port n
 *     (+0x40 n) +0x40 error detect (written value stored: write 0 to clear),
 *     +0x44 error rate enable
 *   0x10000 vendor switch model only (no STD_RT in PEF, did 0x0003):
 *     0x10000 route select (destID), 0x10004 route port of the selected ID,
 *     0x10008 default port (same register as 0x78 of the std model)
 *
 * Everything else reads 0 and ignores writes. 8- and 16-bit accesses use
 * RapidIO big-endian byte lanes: the byte at 4k is bits 31..24 of the
 * register at 4k; writes are a read-modify-write of the lanes written.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_fabric.h"
#include "rte_pmd_rio_sim_fabric.h"

#define CFG_PHYS_PORT_BASE	0x40
#define CFG_PHYS_STRIDE		0x20	/* register map I */
#define CFG_EM_PORT_BASE	0x40
#define CFG_EM_STRIDE		0x40
#define CFG_PORT_CTL_RW		(RTE_RIO_PORT_N_CTL_DISABLE | RTE_RIO_PORT_N_CTL_EN_TX | \
				 RTE_RIO_PORT_N_CTL_EN_RX | RTE_RIO_PORT_N_CTL_ERR_DIS | \
				 RTE_RIO_PORT_N_CTL_MCAST | RTE_RIO_PORT_N_CTL_ENUM_B | \
				 RTE_RIO_PORT_N_CTL_STOP_FAIL | RTE_RIO_PORT_N_CTL_DROP_EN | \
				 RTE_RIO_PORT_N_CTL_LOCKOUT)
#define CFG_PORT_CTL_RO		(RTE_RIO_PORT_N_CTL_P_TYP_SER | RTE_RIO_PORT_N_CTL_PWIDTH_4)
#define CFG_IPW_4X		0x10000000u
#define CFG_TIMEOUT_RESET	0xffffff00u
#define CFG_ACK_RW		(RTE_RIO_PORT_N_ACK_INBOUND | RTE_RIO_PORT_N_ACK_OUTBOUND)
#define CFG_LSTAT_OK		0x10u
#define CFG_LSTAT_ERR		0x02u

/* Relaxed loads/stores of fields other processes change concurrently. */
static inline uint32_t
cfg_ld32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline uint8_t
cfg_ld8(const uint8_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void
cfg_count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static inline void
cfg_route_changed(struct sim_fabric *f)
{
	/* Release: route caches re-read tables after seeing the new generation. */
	__atomic_fetch_add(&f->hdr->route_gen, 1, __ATOMIC_RELEASE);
}

static inline unsigned int
cfg_nports(const struct sim_shm_device *d)
{
	return RTE_MIN(d->nports, SIM_MAX_PORTS);
}

bool
sim_port_ok(const struct sim_fabric *f, uint32_t dev_index, uint8_t port)
{
	const struct sim_shm_device *d = sim_fabric_dev(f, dev_index), *pd;
	const struct sim_shm_port *p;
	int32_t peer;

	if (d == NULL || port >= cfg_nports(d))
		return false;
	p = &d->ports[port];
	peer = p->peer_dev;
	pd = peer >= 0 ? sim_fabric_dev(f, (uint32_t)peer) : NULL;
	if (pd == NULL || p->peer_port >= cfg_nports(pd))
		return false;
	if (!cfg_ld8(&p->link_up) || !cfg_ld8(&pd->ports[p->peer_port].link_up))
		return false;
	if ((cfg_ld32(&p->ctl) | cfg_ld32(&pd->ports[p->peer_port].ctl)) &
	    RTE_RIO_PORT_N_CTL_DISABLE)
		return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* Reset values                                                       */

void
sim_config_init_device(struct sim_fabric *f, struct sim_shm_device *dev,
		       const struct sim_topo_dev *td)
{
	bool sw = td->type == SIM_DEV_SWITCH;
	bool d16 = f->devid_size == 16;
	unsigned int i;

	dev->dev_id = ((uint32_t)td->did << 16) | td->vid;
	dev->dev_info = td->dev_rev;
	dev->asm_id = ((uint32_t)td->asm_did << 16) | td->asm_vid;
	dev->asm_info = ((uint32_t)td->asm_rev << 16) | SIM_PHYS_EFPTR;
	if (sw) {
		dev->pef = RTE_RIO_PEF_SWITCH | RTE_RIO_PEF_EXT_FEATURES;
		if (td->model == SIM_SW_STD)
			dev->pef |= RTE_RIO_PEF_STD_RT | RTE_RIO_PEF_EXT_RT;
		dev->src_ops = RTE_RIO_OPS_PORT_WRITE;
		dev->dst_ops = 0;
		dev->rt_limit = d16 ? 0xffff : 0xff;
		dev->base_devid = 0;
		dev->pell_ctrl = 0;
		dev->rsp_to_ctl = 0;
	} else {
		dev->pef = RTE_RIO_PEF_PROCESSOR | RTE_RIO_PEF_EXT_FEATURES |
			RTE_RIO_PEF_ADDR_34;
		dev->src_ops = RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | RTE_RIO_OPS_DATA_MSG |
			RTE_RIO_OPS_DOORBELL | RTE_RIO_OPS_PORT_WRITE;
		dev->dst_ops = dev->src_ops;
		dev->rt_limit = 0;
		dev->base_devid = td->destid >= 0 ?
			RTE_RIO_SET_DID(f->devid_size, td->destid) : 0x00ffffff;
		dev->pell_ctrl = RTE_RIO_PELL_ADDR_34;
		dev->rsp_to_ctl = CFG_TIMEOUT_RESET;
	}
	if (d16)
		dev->pef |= RTE_RIO_PEF_DEV16;
	dev->host_lock = RTE_RIO_HOST_DID_UNLOCKED;
	dev->comptag = 0;
	dev->rte_destid_sel = 0;
	dev->rte_default_port = RTE_RIO_INVALID_ROUTE;
	dev->gen_ctl = 0;
	dev->link_to_ctl = CFG_TIMEOUT_RESET;
	dev->em_ltl_err_det = 0;
	dev->em_ltl_err_en = 0;
	/* Port-write target unset: the ANY device ID. */
	dev->em_pw_target = d16 ? 0xffff0000u | RTE_RIO_EM_PW_TGT_DEVID_DEV16 : 0x00ff0000u;
	dev->em_pkt_ttl = 0;
	dev->em_pw_tx_ctrl = 0;
	dev->vendor_sel = 0;
	dev->maint_rx = 0;
	for (i = 0; i < SIM_MAX_PORTS; i++) {
		struct sim_shm_port *p = &dev->ports[i];

		p->err_sts = 0;
		p->ctl = CFG_PORT_CTL_RO | RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX;
		p->ack_sts = 0;
		p->em_err_det = 0;
		p->em_err_rate_en = 0;
		p->tx_pkts = 0;
		p->rx_pkts = 0;
		p->drops = 0;
	}
}

/* ------------------------------------------------------------------ */
/* Register access (device lock held)                                 */

static uint8_t *
cfg_rt(struct sim_fabric *f, struct sim_shm_device *d, uint32_t *limit)
{
	*limit = RTE_RIO_MAX_DESTIDS(f->devid_size) - 1;
	return sim_fabric_rt(f, d->index < f->n_devices ? d->index : UINT32_MAX);
}

static uint32_t
cfg_sel_destid(const struct sim_fabric *f, uint32_t sel)
{
	return f->devid_size == 16 ? (sel & 0xffff) : (sel & 0xff);
}

static inline uint32_t
cfg_merge(uint32_t old, uint32_t val, uint32_t mask)
{
	return (old & ~mask) | (val & mask);
}

/* 0x74 of a standard switch: one entry, or four with Ext_config_en. */
static uint32_t
cfg_std_rte_read(struct sim_fabric *f, struct sim_shm_device *d)
{
	uint32_t limit, id, k, v = 0;
	uint8_t *rt;

	rt = cfg_rt(f, d, &limit);
	id = cfg_sel_destid(f, d->rte_destid_sel);
	if (!(d->rte_destid_sel & RTE_RIO_STD_RTE_CONF_EXTCFGEN))
		return rt == NULL || id > limit ? RTE_RIO_INVALID_ROUTE : cfg_ld8(&rt[id]);
	id &= ~3u;
	for (k = 0; k < 4; k++)
		v |= (uint32_t)(rt == NULL || id + k > limit ? RTE_RIO_INVALID_ROUTE :
				cfg_ld8(&rt[id + k])) << (8 * k);
	return v;
}

static void
cfg_std_rte_write(struct sim_fabric *f, struct sim_shm_device *d, uint32_t val, uint32_t mask)
{
	uint32_t limit, id, k, v;
	uint8_t *rt;

	rt = cfg_rt(f, d, &limit);
	id = cfg_sel_destid(f, d->rte_destid_sel);
	if (rt == NULL)
		return;
	if (!(d->rte_destid_sel & RTE_RIO_STD_RTE_CONF_EXTCFGEN)) {
		if (id > limit)
			return;
		v = cfg_merge(cfg_ld8(&rt[id]), val, mask) & 0xff;
		__atomic_store_n(&rt[id], (uint8_t)v, __ATOMIC_RELAXED);
		cfg_route_changed(f);
		return;
	}
	v = cfg_merge(cfg_std_rte_read(f, d), val, mask);
	id &= ~3u;
	for (k = 0; k < 4 && id + k <= limit; k++)
		__atomic_store_n(&rt[id + k], (uint8_t)(v >> (8 * k)), __ATOMIC_RELAXED);
	cfg_route_changed(f);
}

static uint32_t
cfg_read_phys(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint32_t off)
{
	bool sw = d->type == SIM_DEV_SWITCH;
	unsigned int n;
	uint32_t r;

	switch (off) {
	case RTE_RIO_PORT_MNT_HEADER:
		return sw ? ((uint32_t)SIM_EM_EFPTR << 16) | RTE_RIO_EFB_SER_EPF_SW_M1_ID :
			RTE_RIO_EFB_SER_EP_M1_ID;
	case RTE_RIO_PORT_LINKTO_CTL_CSR:
		return d->link_to_ctl;
	case RTE_RIO_PORT_RSPTO_CTL_CSR:
		return sw ? 0 : d->rsp_to_ctl;
	case RTE_RIO_PORT_GEN_CTL_CSR:
		return d->gen_ctl;
	}
	if (off < CFG_PHYS_PORT_BASE)
		return 0;
	n = (off - CFG_PHYS_PORT_BASE) / CFG_PHYS_STRIDE;
	r = (off - CFG_PHYS_PORT_BASE) % CFG_PHYS_STRIDE + CFG_PHYS_PORT_BASE;
	if (n >= cfg_nports(d))
		return 0;
	switch (r) {
	case 0x44:	/* link maintenance response (SW recovery block) */
		if (!sw)
			return 0;
		return RTE_RIO_PORT_N_MNT_RSP_RVAL |
			((((d->ports[n].ack_sts & RTE_RIO_PORT_N_ACK_INBOUND) >> 24) << 5) &
			 RTE_RIO_PORT_N_MNT_RSP_ASTAT) |
			(sim_port_ok(f, idx, n) ? CFG_LSTAT_OK : CFG_LSTAT_ERR);
	case 0x48:
		return d->ports[n].ack_sts;
	case 0x58:
		return (d->ports[n].err_sts & RTE_RIO_PORT_N_ERR_STS_W1C) |
			(sim_port_ok(f, idx, n) ? RTE_RIO_PORT_N_ERR_STS_PORT_OK :
			 RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT);
	case 0x5c:
		return (d->ports[n].ctl & (CFG_PORT_CTL_RW | CFG_PORT_CTL_RO)) |
			(sim_port_ok(f, idx, n) ? CFG_IPW_4X : 0);
	default:
		return 0;
	}
}

static uint32_t
cfg_read_em(struct sim_shm_device *d, uint32_t off)
{
	unsigned int n;
	uint32_t r;

	switch (off) {
	case RTE_RIO_EM_EFB_HEADER:
		return RTE_RIO_EFB_ERR_MGMNT;
	case RTE_RIO_EM_EMHS_CAR:
		return RTE_RIO_EM_EMHS_CAR_HOT_SWAP;
	case RTE_RIO_EM_LTL_ERR_DETECT:
		return d->em_ltl_err_det;
	case RTE_RIO_EM_LTL_ERR_EN:
		return d->em_ltl_err_en;
	case RTE_RIO_EM_PW_TGT_DEVID:
		return d->em_pw_target;
	case RTE_RIO_EM_PKT_TTL:
		return d->em_pkt_ttl;
	case RTE_RIO_EM_PW_TX_CTRL:
		return d->em_pw_tx_ctrl;
	}
	if (off < CFG_EM_PORT_BASE)
		return 0;
	n = (off - CFG_EM_PORT_BASE) / CFG_EM_STRIDE;
	r = (off - CFG_EM_PORT_BASE) % CFG_EM_STRIDE;
	if (n >= cfg_nports(d))
		return 0;
	if (r == 0)
		return d->ports[n].em_err_det;
	if (r == 4)
		return d->ports[n].em_err_rate_en;
	return 0;
}

static uint32_t
cfg_reg_read(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint8_t ingress,
	     uint32_t reg)
{
	bool sw = d->type == SIM_DEV_SWITCH;
	bool std = sw && d->model == SIM_SW_STD;
	bool vendor = sw && d->model == SIM_SW_VENDOR;
	uint32_t limit;
	uint8_t *rt;

	if (reg >= SIM_PHYS_EFPTR && reg < SIM_EM_EFPTR)
		return cfg_read_phys(f, d, idx, reg - SIM_PHYS_EFPTR);
	if (reg >= SIM_EM_EFPTR && reg < 0x10000)
		return sw ? cfg_read_em(d, reg - SIM_EM_EFPTR) : 0;
	switch (reg) {
	case RTE_RIO_DEV_ID_CAR:
		return d->dev_id;
	case RTE_RIO_DEV_INFO_CAR:
		return d->dev_info;
	case RTE_RIO_ASM_ID_CAR:
		return d->asm_id;
	case RTE_RIO_ASM_INFO_CAR:
		return d->asm_info;
	case RTE_RIO_PEF_CAR:
		return d->pef;
	case RTE_RIO_SWP_INFO_CAR:
		return ((uint32_t)cfg_nports(d) << 8) | ingress;
	case RTE_RIO_SRC_OPS_CAR:
		return d->src_ops;
	case RTE_RIO_DST_OPS_CAR:
		return d->dst_ops;
	case RTE_RIO_SWITCH_RT_LIMIT:
		return sw ? d->rt_limit : 0;
	case RTE_RIO_PELL_CTRL_CSR:
		return sw ? 0 : d->pell_ctrl;
	case RTE_RIO_DID_CSR:
		return sw ? 0 : d->base_devid;
	case RTE_RIO_HOST_DID_LOCK_CSR:
		return d->host_lock & RTE_RIO_HOST_DID_LOCK_MASK;
	case RTE_RIO_COMPONENT_TAG_CSR:
		return d->comptag;
	case RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR:
		return std ? d->rte_destid_sel : 0;
	case RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR:
		return std ? cfg_std_rte_read(f, d) : 0;
	case RTE_RIO_STD_RTE_DEFAULT_PORT:
		return std ? d->rte_default_port : 0;
	case RTE_PMD_RIO_SIM_VENDOR_RTE_SEL:
		return vendor ? d->vendor_sel : 0;
	case RTE_PMD_RIO_SIM_VENDOR_RTE_PORT:
		if (!vendor)
			return 0;
		rt = cfg_rt(f, d, &limit);
		if (rt == NULL || cfg_sel_destid(f, d->vendor_sel) > limit)
			return RTE_RIO_INVALID_ROUTE;
		return cfg_ld8(&rt[cfg_sel_destid(f, d->vendor_sel)]);
	case RTE_PMD_RIO_SIM_VENDOR_RTE_DEFAULT:
		return vendor ? d->rte_default_port : 0;
	default:
		return 0;
	}
}

/*
 * Write @val to the byte lanes in @mask of register @reg. A port whose
 * control changed is reported in *ev_port (and its old Port OK in *ev_ok)
 * for a port event after the lock is dropped.
 */
static void
cfg_reg_write(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint32_t reg,
	      uint32_t val, uint32_t mask, int *ev_port, bool *ev_ok)
{
	bool sw = d->type == SIM_DEV_SWITCH;
	bool std = sw && d->model == SIM_SW_STD;
	bool vendor = sw && d->model == SIM_SW_VENDOR;
	uint32_t off, n, r, v, limit, cur;
	uint8_t *rt;

	if (reg >= SIM_PHYS_EFPTR && reg < SIM_EM_EFPTR) {
		off = reg - SIM_PHYS_EFPTR;
		if (off == RTE_RIO_PORT_LINKTO_CTL_CSR) {
			d->link_to_ctl = cfg_merge(d->link_to_ctl, val, mask) &
				RTE_RIO_PORT_TIMEOUT_MASK;
		} else if (off == RTE_RIO_PORT_RSPTO_CTL_CSR) {
			if (!sw)
				d->rsp_to_ctl = cfg_merge(d->rsp_to_ctl, val, mask) &
					RTE_RIO_PORT_TIMEOUT_MASK;
		} else if (off == RTE_RIO_PORT_GEN_CTL_CSR) {
			v = cfg_merge(d->gen_ctl, val, mask);
			d->gen_ctl = v & (sw ? RTE_RIO_PORT_GEN_DISCOVERED :
					  RTE_RIO_PORT_GEN_HOST | RTE_RIO_PORT_GEN_MASTER |
					  RTE_RIO_PORT_GEN_DISCOVERED);
		} else if (off >= CFG_PHYS_PORT_BASE) {
			n = (off - CFG_PHYS_PORT_BASE) / CFG_PHYS_STRIDE;
			r = (off - CFG_PHYS_PORT_BASE) % CFG_PHYS_STRIDE + CFG_PHYS_PORT_BASE;
			if (n >= cfg_nports(d))
				return;
			if (r == 0x48) {
				struct sim_shm_port *p = &d->ports[n];

				v = cfg_merge(p->ack_sts, val, mask);
				p->ack_sts = (v & CFG_ACK_RW) |
					((v & RTE_RIO_PORT_N_ACK_OUTBOUND) << 8);
			} else if (r == 0x58) {
				d->ports[n].err_sts &= ~(val & mask & RTE_RIO_PORT_N_ERR_STS_W1C);
			} else if (r == 0x5c) {
				struct sim_shm_port *p = &d->ports[n];

				cur = p->ctl;
				v = (cfg_merge(cur, val, mask) & CFG_PORT_CTL_RW) |
					(cur & CFG_PORT_CTL_RO);
				if (v != cur) {
					*ev_port = (int)n;
					*ev_ok = sim_port_ok(f, idx, n);
					__atomic_store_n(&p->ctl, v, __ATOMIC_RELAXED);
				}
			}
			/* 0x40 link maintenance request: accepted, nothing to do. */
		}
		return;
	}
	if (reg >= SIM_EM_EFPTR && reg < 0x10000) {
		if (!sw)
			return;
		off = reg - SIM_EM_EFPTR;
		switch (off) {
		case RTE_RIO_EM_LTL_ERR_DETECT:
			d->em_ltl_err_det = cfg_merge(d->em_ltl_err_det, val, mask);
			return;
		case RTE_RIO_EM_LTL_ERR_EN:
			d->em_ltl_err_en = cfg_merge(d->em_ltl_err_en, val, mask);
			return;
		case RTE_RIO_EM_PW_TGT_DEVID:
			d->em_pw_target = cfg_merge(d->em_pw_target, val, mask) &
				(RTE_RIO_EM_PW_TGT_DEVID_D16M | RTE_RIO_EM_PW_TGT_DEVID_D8 |
				 RTE_RIO_EM_PW_TGT_DEVID_DEV16);
			return;
		case RTE_RIO_EM_PKT_TTL:
			d->em_pkt_ttl = cfg_merge(d->em_pkt_ttl, val, mask) & 0xffff0000u;
			return;
		case RTE_RIO_EM_PW_TX_CTRL:
			d->em_pw_tx_ctrl = cfg_merge(d->em_pw_tx_ctrl, val, mask) &
				RTE_RIO_EM_PW_TX_CTRL_PW_DIS;
			return;
		}
		if (off < CFG_EM_PORT_BASE)
			return;
		n = (off - CFG_EM_PORT_BASE) / CFG_EM_STRIDE;
		r = (off - CFG_EM_PORT_BASE) % CFG_EM_STRIDE;
		if (n >= cfg_nports(d))
			return;
		if (r == 0)
			d->ports[n].em_err_det = cfg_merge(d->ports[n].em_err_det, val, mask);
		else if (r == 4)
			d->ports[n].em_err_rate_en = cfg_merge(d->ports[n].em_err_rate_en,
							       val, mask);
		return;
	}
	switch (reg) {
	case RTE_RIO_PELL_CTRL_CSR:
		if (!sw)
			d->pell_ctrl = cfg_merge(d->pell_ctrl, val, mask) &
				(RTE_RIO_PELL_ADDR_34 | RTE_RIO_PELL_ADDR_50 |
				 RTE_RIO_PELL_ADDR_66);
		break;
	case RTE_RIO_DID_CSR:
		if (sw)
			break;
		v = cfg_merge(d->base_devid, val, mask) & 0x00ffffffu;
		if (v != d->base_devid) {
			__atomic_store_n(&d->base_devid, v, __ATOMIC_RELAXED);
			cfg_route_changed(f);
		}
		break;
	case RTE_RIO_HOST_DID_LOCK_CSR:
		cur = d->host_lock & RTE_RIO_HOST_DID_LOCK_MASK;
		v = cfg_merge(cur, val, mask) & RTE_RIO_HOST_DID_LOCK_MASK;
		if (cur == RTE_RIO_HOST_DID_UNLOCKED)
			d->host_lock = v;
		else if (v == cur)
			d->host_lock = RTE_RIO_HOST_DID_UNLOCKED;
		/* Locked and a different value: ignored. */
		break;
	case RTE_RIO_COMPONENT_TAG_CSR:
		d->comptag = cfg_merge(d->comptag, val, mask);
		break;
	case RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR:
		if (std)
			d->rte_destid_sel = cfg_merge(d->rte_destid_sel, val, mask) &
				(RTE_RIO_STD_RTE_CONF_EXTCFGEN |
				 (f->devid_size == 16 ? 0xffffu : 0xffu));
		break;
	case RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR:
		if (std)
			cfg_std_rte_write(f, d, val, mask);
		break;
	case RTE_PMD_RIO_SIM_VENDOR_RTE_PORT:
		if (!vendor)
			break;
		rt = cfg_rt(f, d, &limit);
		cur = cfg_sel_destid(f, d->vendor_sel);
		if (rt == NULL || cur > limit)
			break;
		v = cfg_merge(cfg_ld8(&rt[cur]), val, mask) & 0xff;
		__atomic_store_n(&rt[cur], (uint8_t)v, __ATOMIC_RELAXED);
		cfg_route_changed(f);
		break;
	case RTE_RIO_STD_RTE_DEFAULT_PORT:
	case RTE_PMD_RIO_SIM_VENDOR_RTE_DEFAULT:
		if ((reg == RTE_RIO_STD_RTE_DEFAULT_PORT && !std) ||
		    (reg == RTE_PMD_RIO_SIM_VENDOR_RTE_DEFAULT && !vendor))
			break;
		d->rte_default_port = cfg_merge(d->rte_default_port, val, mask) &
			RTE_RIO_STD_RTE_DEFAULT_PORT_MASK;
		cfg_route_changed(f);
		break;
	case RTE_PMD_RIO_SIM_VENDOR_RTE_SEL:
		if (vendor)
			d->vendor_sel = cfg_merge(d->vendor_sel, val, mask) & 0xffffu;
		break;
	default:
		/* CARs and reserved registers: ignored. */
		break;
	}
}

static int
cfg_check(uint32_t offset, int len)
{
	if (len != 1 && len != 2 && len != 4)
		return -EINVAL;
	if (offset > RTE_RIO_MAINT_SPACE_SZ - (uint32_t)len)
		return -ERANGE;
	if (offset & (uint32_t)(len - 1))
		return -EFAULT;
	return 0;
}

/* Byte-lane shift and mask of an access within its 32-bit register. */
static void
cfg_lanes(uint32_t offset, int len, unsigned int *shift, uint32_t *mask)
{
	*shift = (4 - len - (offset & 3)) * 8;
	*mask = (len == 4 ? 0xffffffffu : ((1u << (len * 8)) - 1)) << *shift;
}

int
sim_config_read(struct sim_fabric *f, uint32_t dev_index, uint8_t ingress_port,
		uint32_t offset, int len, uint32_t *val)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	unsigned int shift;
	uint32_t mask, v;
	int rc;

	if (d == NULL || val == NULL)
		return -EINVAL;
	rc = cfg_check(offset, len);
	if (rc != 0)
		return rc;
	cfg_lanes(offset, len, &shift, &mask);
	rc = sim_lock(f, &d->lock);
	if (rc != 0)
		return rc;
	v = cfg_reg_read(f, d, dev_index, ingress_port, offset & ~3u);
	sim_unlock(f, &d->lock);
	*val = (v & mask) >> shift;
	return 0;
}

int
sim_config_write(struct sim_fabric *f, uint32_t dev_index, uint8_t ingress_port,
		 uint32_t offset, int len, uint32_t val)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	unsigned int shift;
	int ev_port = -1;
	bool ev_ok = false;
	uint32_t mask;
	int rc;

	RTE_SET_USED(ingress_port);
	if (d == NULL)
		return -EINVAL;
	rc = cfg_check(offset, len);
	if (rc != 0)
		return rc;
	cfg_lanes(offset, len, &shift, &mask);
	rc = sim_lock(f, &d->lock);
	if (rc != 0)
		return rc;
	cfg_reg_write(f, d, dev_index, offset & ~3u, val << shift, mask, &ev_port, &ev_ok);
	sim_unlock(f, &d->lock);
	if (ev_port >= 0) {
		int32_t peer = d->ports[ev_port].peer_dev;
		uint8_t pport = d->ports[ev_port].peer_port;
		bool peer_ok = ev_ok;

		/* The peer's Port OK follows ours (a disabled port takes the link down). */
		sim_fabric_port_event(f, dev_index, (uint8_t)ev_port, ev_ok);
		if (peer >= 0 && (uint32_t)peer < f->n_devices)
			sim_fabric_port_event(f, (uint32_t)peer, pport, peer_ok);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Routing                                                            */

enum cfg_pkt {
	CFG_PKT_DATA,		/* messages, doorbells: by destid to its endpoint */
	CFG_PKT_MAINT_REQ,	/* maintenance request: hop count, any endpoint */
	CFG_PKT_MAINT_RSP,	/* maintenance response: by destid, maintenance class */
};

static inline bool
cfg_port_passes(const struct sim_shm_port *p, bool out, enum cfg_pkt kind)
{
	uint32_t ctl = cfg_ld32(&p->ctl);

	if (ctl & (RTE_RIO_PORT_N_CTL_LOCKOUT | RTE_RIO_PORT_N_CTL_DISABLE))
		return false;
	if (kind != CFG_PKT_DATA)
		return true;
	return (ctl & (out ? RTE_RIO_PORT_N_CTL_EN_TX : RTE_RIO_PORT_N_CTL_EN_RX)) != 0;
}

/* Output port of a switch for destid, or -1 (drop). */
static int
cfg_switch_out(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint16_t destid)
{
	unsigned int np = cfg_nports(d);
	uint32_t port = RTE_RIO_INVALID_ROUTE;
	uint8_t *rt = sim_fabric_rt(f, idx);

	if (rt != NULL && destid <= RTE_RIO_MAX_DESTIDS(f->devid_size) - 1 &&
	    destid <= cfg_ld32(&d->rt_limit))
		port = cfg_ld8(&rt[destid]);
	if (port >= np)
		port = cfg_ld32(&d->rte_default_port) & 0xff;
	return port < np ? (int)port : -1;
}

static int
cfg_route(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
	  uint8_t hopcount, enum cfg_pkt kind, uint32_t *dst_dev, uint8_t *ingress_port)
{
	uint32_t cur = src_dev, hops, dmask = f->devid_size == 16 ? 0xffff : 0xff;
	struct sim_shm_device *d, *nd;
	struct sim_shm_port *p, *np;
	unsigned int out = src_port;
	int32_t peer;
	uint8_t pport;
	int o;

	destid &= dmask;
	for (hops = 0; hops <= SIM_MAX_HOPS; hops++) {
		d = sim_fabric_dev(f, cur);
		if (d == NULL || out >= cfg_nports(d))
			return -ETIMEDOUT;
		p = &d->ports[out];
		peer = p->peer_dev;
		nd = peer >= 0 ? sim_fabric_dev(f, (uint32_t)peer) : NULL;
		pport = p->peer_port;
		if (nd == NULL || pport >= cfg_nports(nd) || !cfg_port_passes(p, true, kind) ||
		    !sim_port_ok(f, cur, (uint8_t)out)) {
			cfg_count(&p->drops);
			return -ETIMEDOUT;
		}
		cfg_count(&p->tx_pkts);
		np = &nd->ports[pport];
		if (!cfg_port_passes(np, false, kind)) {
			cfg_count(&np->drops);
			return -ETIMEDOUT;
		}
		cfg_count(&np->rx_pkts);
		if (nd->type == SIM_DEV_ENDPOINT) {
			if (kind != CFG_PKT_MAINT_REQ &&
			    RTE_RIO_GET_DID(f->devid_size, cfg_ld32(&nd->base_devid)) != destid) {
				cfg_count(&np->drops);	/* not for this endpoint */
				return -ETIMEDOUT;
			}
			*dst_dev = (uint32_t)peer;
			*ingress_port = pport;
			return 0;
		}
		if (nd->type != SIM_DEV_SWITCH) {
			cfg_count(&np->drops);
			return -ETIMEDOUT;
		}
		if (kind == CFG_PKT_MAINT_REQ) {
			if (hopcount == 0) {
				*dst_dev = (uint32_t)peer;
				*ingress_port = pport;
				return 0;
			}
			hopcount--;
		}
		o = cfg_switch_out(f, nd, (uint32_t)peer, destid);
		if (o < 0) {
			cfg_count(&np->drops);
			return -ETIMEDOUT;
		}
		cur = (uint32_t)peer;
		out = (unsigned int)o;
	}
	/* Routing loop. */
	return -ETIMEDOUT;
}

int
sim_route(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
	  uint8_t hopcount, bool maint, uint32_t *dst_dev, uint8_t *ingress_port)
{
	if (f == NULL || dst_dev == NULL || ingress_port == NULL)
		return -EINVAL;
	return cfg_route(f, src_dev, src_port, destid, hopcount,
			 maint ? CFG_PKT_MAINT_REQ : CFG_PKT_DATA, dst_dev, ingress_port);
}

int
sim_maint(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
	  bool write, uint32_t offset, int len, uint32_t *val)
{
	struct sim_shm_device *src = sim_fabric_dev(f, src_dev), *t;
	uint32_t tdev, back;
	uint8_t in, bin;
	int rc;

	if (src == NULL || val == NULL || src->type != SIM_DEV_ENDPOINT)
		return -EINVAL;
	rc = cfg_check(offset, len);
	if (rc != 0)
		return rc;
	rc = cfg_route(f, src_dev, 0, destid, hopcount, CFG_PKT_MAINT_REQ, &tdev, &in);
	if (rc != 0) {
		if (!write)
			*val = 0xffffffff;
		return rc;
	}
	t = sim_fabric_dev(f, tdev);
	if (write)
		rc = sim_config_write(f, tdev, in, offset, len, *val);
	else
		rc = sim_config_read(f, tdev, in, offset, len, val);
	if (rc != 0)
		return rc;
	cfg_count(&t->maint_rx);
	/*
	 * The response leaves by the port the request came in on and then
	 * follows route tables to the requester's device ID (hop count 0xff).
	 */
	rc = cfg_route(f, tdev, in, (uint16_t)RTE_RIO_GET_DID(f->devid_size,
							      cfg_ld32(&src->base_devid)),
		       0xff, CFG_PKT_MAINT_RSP, &back, &bin);
	if (rc != 0 || back != src_dev) {
		if (!write)
			*val = 0xffffffff;
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * Multi-word maintenance: one request of len bytes (8..64, offset 8-byte
 * aligned), routed once and executed word by word in register order at the
 * target (so a write of 0x70-0x77 selects then programs a route entry, and
 * a write of 0x60-0x6f applies the lock semantics to 0x68), one response.
 */
int
sim_maint_block(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
		bool write, uint32_t offset, int len, uint32_t *words)
{
	struct sim_shm_device *src = sim_fabric_dev(f, src_dev), *t;
	uint32_t tdev, back;
	uint8_t in, bin;
	int rc = 0, i;

	if (src == NULL || words == NULL || src->type != SIM_DEV_ENDPOINT ||
	    (len != 8 && len != 16 && len != 32 && len != 64))
		return -EINVAL;
	if ((offset & 7) != 0)
		return -EFAULT;
	if (offset > RTE_RIO_MAINT_SPACE_SZ - (uint32_t)len)
		return -ERANGE;
	rc = cfg_route(f, src_dev, 0, destid, hopcount, CFG_PKT_MAINT_REQ, &tdev, &in);
	if (rc != 0)
		goto fail;
	t = sim_fabric_dev(f, tdev);
	for (i = 0; rc == 0 && i < len / 4; i++) {
		if (write)
			rc = sim_config_write(f, tdev, in, offset + 4 * i, 4, words[i]);
		else
			rc = sim_config_read(f, tdev, in, offset + 4 * i, 4, &words[i]);
	}
	if (rc != 0)
		return rc;
	cfg_count(&t->maint_rx);
	rc = cfg_route(f, tdev, in, (uint16_t)RTE_RIO_GET_DID(f->devid_size,
							      cfg_ld32(&src->base_devid)),
		       0xff, CFG_PKT_MAINT_RSP, &back, &bin);
	if (rc != 0 || back != src_dev) {
		rc = -ETIMEDOUT;
		goto fail;
	}
	return 0;
fail:
	if (!write)
		memset(words, 0xff, len);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Static routes                                                      */

int
sim_config_static_routes(struct sim_fabric *f)
{
	uint32_t n = f->n_devices, s, i, head, tail;
	uint32_t *queue = NULL;
	uint8_t *first = NULL;
	uint8_t *seen = NULL;
	int ret = -ENOMEM;

	queue = malloc(sizeof(*queue) * n);
	first = malloc(n);
	seen = malloc(n);
	if (queue == NULL || first == NULL || seen == NULL)
		goto out;
	for (s = 0; s < n; s++) {
		struct sim_shm_device *sd = &f->devs[s];
		uint8_t *rt;

		if (sd->type != SIM_DEV_SWITCH)
			continue;
		rt = sim_fabric_rt(f, s);
		if (rt == NULL) {
			ret = -EINVAL;
			goto out;
		}
		/* Breadth-first from s: first[] = port of s on a shortest path. */
		memset(seen, 0, n);
		seen[s] = 1;
		head = tail = 0;
		for (i = 0; i < cfg_nports(sd); i++) {
			int32_t pd = sd->ports[i].peer_dev;

			if (pd >= 0 && (uint32_t)pd < n && !seen[pd]) {
				seen[pd] = 1;
				first[pd] = (uint8_t)i;
				queue[tail++] = (uint32_t)pd;
			}
		}
		while (head < tail) {
			uint32_t c = queue[head++];
			struct sim_shm_device *cd = &f->devs[c];

			if (cd->type == SIM_DEV_ENDPOINT) {
				if (cd->base_devid != 0x00ffffffu)
					rt[RTE_RIO_GET_DID(f->devid_size, cd->base_devid)] =
						first[c];
				continue;	/* endpoints do not forward */
			}
			for (i = 0; i < cfg_nports(cd); i++) {
				int32_t pd = cd->ports[i].peer_dev;

				if (pd >= 0 && (uint32_t)pd < n && !seen[pd]) {
					seen[pd] = 1;
					first[pd] = first[c];
					queue[tail++] = (uint32_t)pd;
				}
			}
		}
	}
	cfg_route_changed(f);
	ret = 0;
out:
	free(queue);
	free(first);
	free(seen);
	return ret;
}
