/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Configuration space of every emulated device, maintenance transactions,
 * routing of packets and the link-level ackID state.
 *
 * Register model (offsets in bytes; "EP" endpoint, "SW" switch; model
 * specifics in rio_sim_switch.c):
 *
 *   0x00 DEV_ID      (did << 16) | vid of the model      RO
 *   0x04 DEV_INFO    device revision                      RO
 *   0x08 ASM_ID      (asm_did << 16) | asm_vid            RO
 *   0x0c ASM_INFO    (asm_rev << 16) | 0x0100 (EF pointer)  RO
 *   0x10 PEF         generic: PROCESSOR; tsi721: BRIDGE; SW: SWITCH|STD_RT
 *                    (|EXT_RT, rxs2448 |DEV32 instead); MULTIPORT on dual-port
 *                    endpoints; DEV16 on 16-bit fabrics (the IDT parts
 *                    always); EXT_FEATURES             RO
 *   0x14 SWP_INFO    (ports << 8) | ingress port of this request
 *                    (0xff for a local/backdoor access); switches and
 *                    dual-port endpoints               RO
 *   0x18 SRC_OPS     EP: READ|WRITE|DATA_MSG|DOORBELL|PORT_WRITE; SW: PORT_WRITE
 *   0x1c DST_OPS     EP: as SRC_OPS; SW: 0                  RO
 *   0x34 RT_LIMIT    SW: 0xff or 0xffff (std: the topology's rt_limit)  RO
 *   0x4c PELL_CTRL   EP: ADDR_34 (bits 29-31 r/w)
 *   0x60 BASE_DEVID  EP: r/w 0x00ffffff, reset 0x00ffffff or the preset ID;
 *                    SW: reads 0, writes ignored
 *   0x68 HOST_LOCK   reset 0xffff; unlocked: a write stores the value; locked:
 *                    a different value is ignored, the same value unlocks;
 *                    bits 0-15 (0xffff0000) read 0
 *   0x6c COMPTAG     r/w, reset 0
 *   0x70 RTE_SEL     SW: destID (8 or 16 bits) and Ext_config_en (0x80000000)
 *   0x74 RTE_PORT    SW: the entry of the selected ID (rio_sim_switch.c)
 *   0x78 RTE_DEFAULT SW: default output port
 *   0x100 LP-Serial block, register map I (rxs2448: map II), SW-assisted
 *     error recovery: header (EP 0x0002; SW 0x0009, rxs2448 0x0019, next
 *     0x1000), +0x20 link timeout, +0x24 response timeout (EP only), +0x3c
 *     general control (EP Host|Master|Discovered; SW Discovered only), per
 *     port n (stride 0x20 n, map II 0x40 n): +0x40 link maintenance request
 *     (input-status: a link-request to the partner), +0x44 response (valid
 *     bit cleared on read), +0x48 local ackID (map I) or +0x60/+0x64
 *     outbound/inbound ackID (map II), +0x54 control 2 (lane rates),
 *     +0x58 error/status, +0x5c control
 *   0x1000 Error Management block (SW only): header 0x0007, +0x04 hot
 *     swap CAR, +0x08/0x0c L/T error detect/enable, +0x28 port-write target
 *     (reset: ANY), +0x2c TTL, +0x34 port-write tx control, per port n
 *     (+0x40 n) +0x40 error detect (write 0 to clear), +0x44 error rate enable
 *   0x5000 Switch Routing Table block (rxs2448 only)
 *
 * Everything else reads 0 and ignores writes, but the vendor registers of
 * the models. Local accesses of 1 and 2 bytes use RapidIO big-endian byte
 * lanes; maintenance transactions are 4 bytes or 8 to 64 (double-words).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_fabric.h"

#define CFG_PHYS_PORT_BASE	0x40
#define CFG_EM_PORT_BASE	0x40
#define CFG_EM_STRIDE		0x40
#define CFG_PORT_CTL_RW		(RTE_RIO_PORT_N_CTL_DISABLE | RTE_RIO_PORT_N_CTL_EN_TX | \
				 RTE_RIO_PORT_N_CTL_EN_RX | RTE_RIO_PORT_N_CTL_ERR_DIS | \
				 RTE_RIO_PORT_N_CTL_MCAST | RTE_RIO_PORT_N_CTL_ENUM_B | \
				 RTE_RIO_PORT_N_CTL_STOP_FAIL | RTE_RIO_PORT_N_CTL_DROP_EN | \
				 RTE_RIO_PORT_N_CTL_LOCKOUT)
#define CFG_PORT_CTL_ENABLES	(RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX)
#define CFG_TIMEOUT_RESET	0xffffff00u
#define CFG_ES_BITS		(RTE_RIO_PORT_N_ERR_STS_OUT_ES | RTE_RIO_PORT_N_ERR_STS_INP_ES)
/* Link-response port_status values (RapidIO Part 6). */
#define CFG_LSTAT_OK		0x10u
#define CFG_LSTAT_INP_ES	0x05u
/* Port n Control width support: 2x and 4x (bits 0-1), 8x and 16x (bits 18-19). */
#define CFG_PWIDTH_2X		0x80000000u
#define CFG_PWIDTH_8X		0x00002000u
#define CFG_PWIDTH_16X		0x00001000u

/* Relaxed loads/stores of fields other processes change concurrently. */
static inline uint32_t
cfg_ld32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline uint16_t
cfg_ld16(const uint16_t *p)
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

static inline uint8_t
cfg_rmap(const struct sim_shm_device *d)
{
	return sim_model_get(d->model)->rmap;
}

/* ackID mask: 6 bits with control symbols of register map I, 12 bits with map II. */
static inline uint16_t
cfg_ack_mask(const struct sim_shm_device *d)
{
	return cfg_rmap(d) == 2 ? 0xfff : 0x3f;
}

/* The partner of (dev, port), or NULL. */
static struct sim_shm_device *
cfg_peer(const struct sim_fabric *f, const struct sim_shm_device *d, unsigned int port,
	 uint8_t *pport)
{
	struct sim_shm_device *pd;
	int32_t peer = d->ports[port].peer_dev;

	pd = peer >= 0 ? sim_fabric_dev(f, (uint32_t)peer) : NULL;
	if (pd == NULL || d->ports[port].peer_port >= cfg_nports(pd))
		return NULL;
	*pport = d->ports[port].peer_port;
	return pd;
}

/* ------------------------------------------------------------------ */
/* Reset values                                                       */

static uint32_t
cfg_pwidth(uint8_t lanes)
{
	uint32_t w = 0;

	if (lanes >= 2)
		w |= CFG_PWIDTH_2X;
	if (lanes >= 4)
		w |= RTE_RIO_PORT_N_CTL_PWIDTH_4;
	if (lanes >= 8)
		w |= CFG_PWIDTH_8X;
	if (lanes >= 16)
		w |= CFG_PWIDTH_16X;
	return w;
}

void
sim_config_init_device(struct sim_fabric *f, struct sim_shm_device *dev,
		       const struct sim_topo_dev *td, const struct sim_topology *topo)
{
	const struct sim_model_info *mi = sim_model_get(td->model);
	bool sw = td->type == SIM_DEV_SWITCH;
	bool d16 = f->devid_size == 16;
	bool custom = td->model == SIM_MODEL_STD || td->model == SIM_MODEL_GENERIC;
	uint8_t lanes, baud;
	unsigned int i;

	/* The vendor parts are what they are; spec-only devices take the topology's IDs. */
	dev->dev_id = custom ? ((uint32_t)td->did << 16) | td->vid :
		((uint32_t)mi->did << 16) | mi->vid;
	dev->dev_info = custom ? td->dev_rev : mi->dev_rev;
	dev->asm_id = ((uint32_t)td->asm_did << 16) | td->asm_vid;
	dev->asm_info = ((uint32_t)td->asm_rev << 16) | SIM_PHYS_EFPTR;
	if (sw) {
		dev->pef = RTE_RIO_PEF_SWITCH | RTE_RIO_PEF_EXT_FEATURES | RTE_RIO_PEF_STD_RT;
		/*
		 * A Dev32-capable switch holds 10-bit route values, which
		 * extended route configuration (four 8-bit values) cannot carry.
		 */
		if (td->model == SIM_MODEL_RXS2448)
			dev->pef |= RTE_RIO_PEF_DEV32;
		else
			dev->pef |= RTE_RIO_PEF_EXT_RT;
		dev->src_ops = RTE_RIO_OPS_PORT_WRITE;
		dev->dst_ops = 0;
		dev->rt_limit = d16 ? 0xffff : 0xff;
		if (td->model == SIM_MODEL_STD && td->rt_limit >= 0)
			dev->rt_limit = RTE_MIN((uint32_t)td->rt_limit, dev->rt_limit);
		dev->base_devid = 0;
		dev->pell_ctrl = 0;
		dev->rsp_to_ctl = 0;
	} else {
		dev->pef = RTE_RIO_PEF_EXT_FEATURES | RTE_RIO_PEF_ADDR_34;
		/* Every endpoint does the four I/O logical transactions (rio_sim_ep_mem.c). */
		dev->src_ops = RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | RTE_RIO_OPS_STREAM_WRITE |
			RTE_RIO_OPS_WRITE_RESPONSE | RTE_RIO_OPS_DATA_MSG | RTE_RIO_OPS_DOORBELL |
			RTE_RIO_OPS_PORT_WRITE;
		if (td->model == SIM_MODEL_TSI721) {
			dev->pef |= RTE_RIO_PEF_BRIDGE | RTE_RIO_PEF_ADDR_50 | RTE_RIO_PEF_ADDR_66;
		} else {
			dev->pef |= RTE_RIO_PEF_PROCESSOR;
		}
		if (td->nports > 1)
			dev->pef |= RTE_RIO_PEF_MULTIPORT;
		dev->dst_ops = dev->src_ops;
		dev->rt_limit = 0;
		dev->base_devid = td->destid >= 0 ?
			RTE_RIO_SET_DID(f->devid_size, td->destid) : 0x00ffffff;
		dev->pell_ctrl = RTE_RIO_PELL_ADDR_34;
		dev->rsp_to_ctl = CFG_TIMEOUT_RESET;
	}
	if (d16 || !custom)
		dev->pef |= RTE_RIO_PEF_DEV16;
	dev->host_lock = RTE_RIO_HOST_DID_UNLOCKED;
	dev->comptag = 0;
	dev->rte_destid_sel = 0;
	dev->rte_default_port = RTE_RIO_INVALID_ROUTE;
	/*
	 * A device configured before software runs (a preset device ID: boot
	 * strapping or EEPROM) may issue requests; the others wait for the
	 * host to set Master Enable.
	 */
	dev->gen_ctl = !sw && td->destid >= 0 ? RTE_RIO_PORT_GEN_MASTER : 0;
	dev->link_to_ctl = CFG_TIMEOUT_RESET;
	dev->em_ltl_err_det = 0;
	dev->em_ltl_err_en = 0;
	/* Port-write target unset: the ANY device ID. */
	dev->em_pw_target = d16 ? 0xffff0000u | RTE_RIO_EM_PW_TGT_DEVID_DEV16 : 0x00ff0000u;
	dev->em_pkt_ttl = 0;
	dev->em_pw_tx_ctrl = 0;
	dev->maint_rx = 0;
	dev->drop_destid = 0;
	dev->maint_refused = 0;
	sim_impl_reset(dev);
	lanes = RTE_MIN(td->lanes != 0 ? td->lanes : topo->lanes, mi->max_lanes);
	baud = RTE_MIN(td->baud != 0 ? td->baud : topo->baud, mi->max_baud);
	for (i = 0; i < SIM_MAX_PORTS; i++) {
		struct sim_shm_port *p = &dev->ports[i];

		p->err_sts = 0;
		p->ctl = RTE_RIO_PORT_N_CTL_P_TYP_SER | cfg_pwidth(lanes);
		/* A fabric with static routes is configured: its ports pass traffic. */
		if (mi->ports_enabled || topo->static_routes)
			p->ctl |= CFG_PORT_CTL_ENABLES;
		p->lanes = lanes;
		p->baud = baud;
		p->ack_in = 0;
		p->ack_out = 0;
		p->ack_outstanding = 0;
		p->lm_resp = 0;
		p->em_err_det = 0;
		p->em_err_rate_en = 0;
		p->pw_next_ns = 0;
		p->tx_pkts = 0;
		p->rx_pkts = 0;
		p->drops = 0;
		p->err_stopped = 0;
	}
	if (sw)
		sim_switch_reset_routes(f, dev, f->hdr->seed);
}

/* ------------------------------------------------------------------ */
/* Register access (device lock held)                                 */

static inline uint32_t
cfg_merge(uint32_t old, uint32_t val, uint32_t mask)
{
	return (old & ~mask) | (val & mask);
}

/* Control 2: lane rates the port supports (and enables), and the one in use. */
static uint32_t
cfg_ctl2(const struct sim_fabric *f, const struct sim_shm_device *d, uint32_t idx,
	 unsigned int n)
{
	static const uint32_t support[] = {
		[SIM_BAUD_1_25] = 0x02000000, [SIM_BAUD_2_5] = 0x00800000,
		[SIM_BAUD_3_125] = 0x00200000, [SIM_BAUD_5_0] = 0x00080000,
		[SIM_BAUD_6_25] = 0x00020000, [SIM_BAUD_10_3125] = 0x00008000,
		[SIM_BAUD_12_5] = 0x00002000,
	};
	uint8_t top = sim_model_get(d->model)->max_baud, b;
	uint32_t v = 0;

	for (b = SIM_BAUD_1_25; b <= top && b < RTE_DIM(support); b++)
		v |= support[b] | (support[b] >> 1);
	if (sim_port_ok(f, idx, (uint8_t)n))
		v |= (uint32_t)d->ports[n].baud << 28;
	return v;
}

/* Port n Control: initialized width of an OK port (RapidIO Part 6 encoding). */
static uint32_t
cfg_ipw(uint8_t lanes)
{
	switch (lanes) {
	case 1:
		return 0;
	case 2:
		return 3u << 27;
	case 8:
		return 4u << 27;
	case 16:
		return 5u << 27;
	default:
		return 2u << 27;
	}
}

/* The effective lanes of a link: the narrower end. */
static uint8_t
cfg_link_lanes(const struct sim_fabric *f, const struct sim_shm_device *d, unsigned int n)
{
	const struct sim_shm_device *pd;
	uint8_t pp;

	pd = cfg_peer(f, d, n, &pp);
	return pd == NULL ? d->ports[n].lanes : RTE_MIN(d->ports[n].lanes, pd->ports[pp].lanes);
}

static uint32_t
cfg_ackid_read(const struct sim_shm_device *d, unsigned int n, uint32_t r)
{
	const struct sim_shm_port *p = &d->ports[n];

	if (cfg_rmap(d) == 1)
		return ((uint32_t)cfg_ld16(&p->ack_in) << 24) |
			((uint32_t)cfg_ld16(&p->ack_outstanding) << 8) | cfg_ld16(&p->ack_out);
	if (r == 0x60)
		return ((uint32_t)cfg_ld16(&p->ack_outstanding) << 12) | cfg_ld16(&p->ack_out);
	return cfg_ld16(&p->ack_in);
}

static uint32_t
cfg_read_phys(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint32_t off)
{
	const struct sim_model_info *mi = sim_model_get(d->model);
	bool sw = d->type == SIM_DEV_SWITCH;
	uint32_t stride = RTE_RIO_PORT_N_STRIDE(mi->rmap), r, v;
	struct sim_shm_port *p;
	unsigned int n;

	switch (off) {
	case RTE_RIO_PORT_MNT_HEADER:
		return sw ? ((uint32_t)SIM_EM_EFPTR << 16) | mi->phys_id : mi->phys_id;
	case RTE_RIO_PORT_LINKTO_CTL_CSR:
		return d->link_to_ctl;
	case RTE_RIO_PORT_RSPTO_CTL_CSR:
		return sw ? 0 : d->rsp_to_ctl;
	case RTE_RIO_PORT_GEN_CTL_CSR:
		return d->gen_ctl;
	}
	if (off < CFG_PHYS_PORT_BASE)
		return 0;
	n = (off - CFG_PHYS_PORT_BASE) / stride;
	r = (off - CFG_PHYS_PORT_BASE) % stride + CFG_PHYS_PORT_BASE;
	if (n >= cfg_nports(d))
		return 0;
	p = &d->ports[n];
	switch (r) {
	case 0x44:	/* link maintenance response: the valid bit clears on read */
		return __atomic_fetch_and(&p->lm_resp, ~RTE_RIO_PORT_N_MNT_RSP_RVAL,
					  __ATOMIC_RELAXED);
	case 0x48:
		return mi->rmap == 1 ? cfg_ackid_read(d, n, r) : 0;
	case 0x54:
		return cfg_ctl2(f, d, idx, n);
	case 0x58:
		v = cfg_ld32(&p->err_sts) & (RTE_RIO_PORT_N_ERR_STS_W1C | CFG_ES_BITS);
		return v | (sim_port_ok(f, idx, n) ? RTE_RIO_PORT_N_ERR_STS_PORT_OK :
			    RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT);
	case 0x5c:
		v = cfg_ld32(&p->ctl);
		return sim_port_ok(f, idx, n) ? v | cfg_ipw(cfg_link_lanes(f, d, n)) : v;
	case 0x60:
	case 0x64:
		return mi->rmap == 2 ? cfg_ackid_read(d, n, r) : 0;
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
		return (d->model == SIM_MODEL_RXS2448 ? (uint32_t)SIM_RT_EFPTR << 16 : 0) |
			RTE_RIO_EFB_ERR_MGMNT;
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

/* rxs2448 Switch Routing Table block: one level-0, -1 and -2 group each. */
static uint32_t
cfg_read_rt_block(struct sim_shm_device *d, uint32_t off)
{
	int slot;

	switch (off) {
	case 0x00:
		return RTE_RIO_EFB_SW_ROUTING_TBL;
	case 0x30:
		return (1u << 24) | 0x30000;
	case 0x34:
		return (1u << 24) | SIM_RXS_BC_L1_TABLE;
	case 0x38:
		return (1u << 24) | SIM_RXS_BC_L2_TABLE;
	}
	slot = sim_impl_slot(d->model, SIM_RT_EFPTR + off);
	return slot >= 0 ? d->impl[slot] : 0;
}

/*
 * Route table registers of the IDT parts, outside the standard CSRs.
 * Returns 1 when @reg is one (*entry set, *bcast: the broadcast copy,
 * writable; per-port copies read the same table but refuse writes).
 */
static int
cfg_table_reg(const struct sim_shm_device *d, uint32_t reg, uint32_t *entry, bool *bcast)
{
	uint32_t o, p;

	if (reg & 3)
		return 0;
	if (d->model == SIM_MODEL_CPS1848) {
		if (reg >= SIM_CPS_BC_DEV_TABLE && reg < SIM_CPS_BC_DEV_TABLE + 0x800) {
			*entry = (reg - SIM_CPS_BC_DEV_TABLE) / 4;	/* dev then dom: 512 */
			*bcast = true;
			return 1;
		}
		if (reg >= SIM_CPS_PORT_TABLES && reg < SIM_CPS_PORT_TABLES + 0x1000 * 18) {
			o = (reg - SIM_CPS_PORT_TABLES) % 0x1000;
			if (o >= 0x800)
				return 0;
			*entry = o / 4;
			*bcast = false;
			return 1;
		}
	} else if (d->model == SIM_MODEL_RXS2448) {
		if (reg >= SIM_RXS_BC_L1_TABLE && reg < SIM_RXS_BC_L1_TABLE + 0x400) {
			*entry = SIM_RT_DOM_TABLE + (reg - SIM_RXS_BC_L1_TABLE) / 4;
			*bcast = true;
			return 1;
		}
		if (reg >= SIM_RXS_BC_L2_TABLE && reg < SIM_RXS_BC_L2_TABLE + 0x400) {
			*entry = SIM_RT_DEV_TABLE + (reg - SIM_RXS_BC_L2_TABLE) / 4;
			*bcast = true;
			return 1;
		}
		if (reg >= SIM_RXS_PORT_TABLES && reg < SIM_RXS_PORT_TABLES + 0x2000 * 24) {
			p = (reg - SIM_RXS_PORT_TABLES) % 0x2000;
			if (p >= 0x400 && p < 0x800) {
				*entry = SIM_RT_DOM_TABLE + (p - 0x400) / 4;
			} else if (p >= 0x1000 && p < 0x1400) {
				*entry = SIM_RT_DEV_TABLE + (p - 0x1000) / 4;
			} else {
				return 0;
			}
			*bcast = false;
			return 1;
		}
	}
	return 0;
}

/* Read register @reg; -EIO when the device answers ERROR. */
static int
cfg_reg_read(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint8_t ingress,
	     uint32_t reg, uint32_t *val)
{
	bool sw = d->type == SIM_DEV_SWITCH;
	uint32_t entry;
	bool bcast;
	int slot;

	*val = 0;
	if (reg >= SIM_PHYS_EFPTR && reg < SIM_EM_EFPTR) {
		*val = cfg_read_phys(f, d, idx, reg - SIM_PHYS_EFPTR);
		return 0;
	}
	if (reg >= SIM_EM_EFPTR && reg < SIM_EM_EFPTR + 0x1000) {
		*val = sw ? cfg_read_em(d, reg - SIM_EM_EFPTR) : 0;
		return 0;
	}
	if (d->model == SIM_MODEL_RXS2448 && reg >= SIM_RT_EFPTR && reg < SIM_RT_EFPTR + 0x1000) {
		*val = cfg_read_rt_block(d, reg - SIM_RT_EFPTR);
		return 0;
	}
	if (cfg_table_reg(d, reg, &entry, &bcast) == 1)
		return sim_switch_table_read(f, d, entry, val) == 0 ? 0 : -EIO;
	switch (reg) {
	case RTE_RIO_DEV_ID_CAR:
		*val = d->dev_id;
		return 0;
	case RTE_RIO_DEV_INFO_CAR:
		*val = d->dev_info;
		return 0;
	case RTE_RIO_ASM_ID_CAR:
		*val = d->asm_id;
		return 0;
	case RTE_RIO_ASM_INFO_CAR:
		*val = d->asm_info;
		return 0;
	case RTE_RIO_PEF_CAR:
		*val = d->pef;
		return 0;
	case RTE_RIO_SWP_INFO_CAR:
		if (sw || (d->pef & RTE_RIO_PEF_MULTIPORT))
			*val = ((uint32_t)cfg_nports(d) << 8) | ingress;
		return 0;
	case RTE_RIO_SRC_OPS_CAR:
		*val = d->src_ops;
		return 0;
	case RTE_RIO_DST_OPS_CAR:
		*val = d->dst_ops;
		return 0;
	case RTE_RIO_SWITCH_RT_LIMIT:
		*val = sw ? d->rt_limit : 0;
		return 0;
	case RTE_RIO_PELL_CTRL_CSR:
		*val = sw ? 0 : d->pell_ctrl;
		return 0;
	case RTE_RIO_DID_CSR:
		*val = sw ? 0 : d->base_devid;
		return 0;
	case RTE_RIO_HOST_DID_LOCK_CSR:
		*val = d->host_lock & RTE_RIO_HOST_DID_LOCK_MASK;
		return 0;
	case RTE_RIO_COMPONENT_TAG_CSR:
		*val = d->comptag;
		return 0;
	case RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR:
		*val = sw ? d->rte_destid_sel : 0;
		return 0;
	case RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR:
		if (!sw)
			return 0;
		/* Port tables of the CPS are selected with 0x10070: not modelled, refused. */
		slot = sim_impl_slot(d->model, SIM_CPS_RTE_PORT_SEL);
		if (d->model == SIM_MODEL_CPS1848 && slot >= 0 && d->impl[slot] != 0)
			return -EIO;
		*val = sim_switch_rte_read(f, d);
		return 0;
	case RTE_RIO_STD_RTE_DEFAULT_PORT:
		*val = sw ? d->rte_default_port : 0;
		return 0;
	}
	slot = sim_impl_slot(d->model, reg);
	if (slot >= 0)
		*val = d->impl[slot];
	return 0;
}

/* Pending port and old Port OK of a control change, for after the lock. */
struct cfg_event {
	int port;
	bool was_ok;
	bool route_changed;
};

/* Link maintenance request (@cmd) out of port @n of @d: a link-request symbol. */
static void
cfg_link_request(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, unsigned int n,
		 uint32_t cmd, struct cfg_event *ev)
{
	struct sim_shm_port *p = &d->ports[n], *pp;
	struct sim_shm_device *pd;
	uint32_t astat, lstat;
	uint8_t pport;

	if (cmd != RTE_RIO_MNT_REQ_CMD_IS)
		return;	/* reset-device/reset-port: not modelled */
	pd = cfg_peer(f, d, n, &pport);
	if (pd == NULL || !sim_port_ok(f, idx, (uint8_t)n))
		return;	/* no partner: no link-response, the valid bit stays clear */
	pp = &pd->ports[pport];
	if (sim_lock(f, &f->hdr->link_lock) != 0)
		return;	/* logged: no link-response */
	lstat = (cfg_ld32(&pp->err_sts) & RTE_RIO_PORT_N_ERR_STS_INP_ES) ? CFG_LSTAT_INP_ES :
		CFG_LSTAT_OK;
	/* The partner leaves input-error-stopped on the link-request. */
	__atomic_fetch_and(&pp->err_sts, ~RTE_RIO_PORT_N_ERR_STS_INP_ES, __ATOMIC_RELAXED);
	astat = cfg_ld16(&pp->ack_in);
	/* ... and this port leaves output-error-stopped on the link-response. */
	__atomic_fetch_and(&p->err_sts, ~RTE_RIO_PORT_N_ERR_STS_OUT_ES, __ATOMIC_RELAXED);
	sim_unlock(f, &f->hdr->link_lock);
	astat = cfg_rmap(d) == 2 ? (astat & 0xfff) << 5 : (astat & 0x3f) << 5;
	__atomic_store_n(&p->lm_resp, RTE_RIO_PORT_N_MNT_RSP_RVAL | astat | lstat,
			 __ATOMIC_RELAXED);
	ev->route_changed = true;
}

/* Local ackID CSRs: map I one register, map II outbound (0x60) and inbound (0x64). */
static void
cfg_ackid_write(struct sim_fabric *f, struct sim_shm_device *d, unsigned int n, uint32_t r,
		uint32_t v, struct cfg_event *ev)
{
	struct sim_shm_port *p = &d->ports[n];
	uint16_t m = cfg_ack_mask(d);

	if (sim_lock(f, &f->hdr->link_lock) != 0)
		return;	/* logged: the ackIDs stay as they were */
	if (cfg_rmap(d) == 1) {
		__atomic_store_n(&p->ack_in, (uint16_t)((v >> 24) & m), __ATOMIC_RELAXED);
		__atomic_store_n(&p->ack_out, (uint16_t)(v & m), __ATOMIC_RELAXED);
		__atomic_store_n(&p->ack_outstanding, (uint16_t)(v & RTE_RIO_PORT_N_ACK_CLEAR ?
				 v & m : (v >> 8) & m), __ATOMIC_RELAXED);
	} else if (r == 0x60) {
		__atomic_store_n(&p->ack_out, (uint16_t)(v & m), __ATOMIC_RELAXED);
		__atomic_store_n(&p->ack_outstanding, (uint16_t)(v & RTE_RIO_PORT_N_OB_ACK_CLEAR ?
				 v & m : (v >> 12) & m), __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&p->ack_in, (uint16_t)(v & m), __ATOMIC_RELAXED);
	}
	sim_unlock(f, &f->hdr->link_lock);
	ev->route_changed = true;
}

static void
cfg_write_phys(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint32_t off,
	       uint32_t val, uint32_t mask, struct cfg_event *ev)
{
	bool sw = d->type == SIM_DEV_SWITCH;
	uint32_t stride = RTE_RIO_PORT_N_STRIDE(cfg_rmap(d)), n, r, v, cur;
	struct sim_shm_port *p;

	if (off == RTE_RIO_PORT_LINKTO_CTL_CSR) {
		d->link_to_ctl = cfg_merge(d->link_to_ctl, val, mask) & RTE_RIO_PORT_TIMEOUT_MASK;
		return;
	}
	if (off == RTE_RIO_PORT_RSPTO_CTL_CSR) {
		if (!sw)
			__atomic_store_n(&d->rsp_to_ctl, cfg_merge(d->rsp_to_ctl, val, mask) &
					 RTE_RIO_PORT_TIMEOUT_MASK, __ATOMIC_RELAXED);
		return;
	}
	if (off == RTE_RIO_PORT_GEN_CTL_CSR) {
		cur = d->gen_ctl;
		v = cfg_merge(cur, val, mask) & (sw ? RTE_RIO_PORT_GEN_DISCOVERED :
			(RTE_RIO_PORT_GEN_HOST | RTE_RIO_PORT_GEN_MASTER |
			 RTE_RIO_PORT_GEN_DISCOVERED));
		__atomic_store_n(&d->gen_ctl, v, __ATOMIC_RELAXED);
		/* Master Enable decides whether cached routes may be used. */
		if ((v ^ cur) & RTE_RIO_PORT_GEN_MASTER)
			ev->route_changed = true;
		return;
	}
	if (off < CFG_PHYS_PORT_BASE)
		return;
	n = (off - CFG_PHYS_PORT_BASE) / stride;
	r = (off - CFG_PHYS_PORT_BASE) % stride + CFG_PHYS_PORT_BASE;
	if (n >= cfg_nports(d))
		return;
	p = &d->ports[n];
	switch (r) {
	case 0x40:
		cfg_link_request(f, d, idx, n, val & mask & RTE_RIO_MNT_REQ_MASK, ev);
		break;
	case 0x48:
	case 0x60:
	case 0x64:
		/* Map I has its ackIDs at 0x48, map II at 0x60 (outbound) and 0x64. */
		if ((r == 0x48) == (cfg_rmap(d) == 1))
			cfg_ackid_write(f, d, n, r, cfg_merge(cfg_ackid_read(d, n, r), val, mask),
					ev);
		break;
	case 0x58:
		__atomic_fetch_and(&p->err_sts, ~(val & mask & RTE_RIO_PORT_N_ERR_STS_W1C),
				   __ATOMIC_RELAXED);
		break;
	case 0x5c:
		cur = p->ctl;
		v = (cfg_merge(cur, val, mask) & CFG_PORT_CTL_RW) | (cur & ~CFG_PORT_CTL_RW);
		if (v != cur) {
			ev->port = (int)n;
			ev->was_ok = sim_port_ok(f, idx, (uint8_t)n);
			__atomic_store_n(&p->ctl, v, __ATOMIC_RELAXED);
		}
		break;
	default:
		break;
	}
}

static void
cfg_write_em(struct sim_shm_device *d, uint32_t off, uint32_t val, uint32_t mask)
{
	unsigned int n;
	uint32_t r;

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
		d->ports[n].em_err_rate_en = cfg_merge(d->ports[n].em_err_rate_en, val, mask);
}

/* Vendor register write; the rxs2448 port soft reset restarts the port's ackIDs. */
static void
cfg_write_impl(struct sim_fabric *f, struct sim_shm_device *d, uint32_t reg, uint32_t val,
	       uint32_t mask, struct cfg_event *ev)
{
	uint32_t first, count, k;
	int slot;

	if (sim_impl_bcast(d->model, reg, &first, &count)) {
		for (k = 0; k < count && first + k < SIM_IMPL_REGS; k++)
			d->impl[first + k] = cfg_merge(d->impl[first + k], val, mask);
		return;
	}
	slot = sim_impl_slot(d->model, reg);
	if (slot < 0)
		return;
	d->impl[slot] = cfg_merge(d->impl[slot], val, mask);
	if (d->model == SIM_MODEL_RXS2448 && reg >= SIM_RXS_PLM_CTL(0) &&
	    reg < SIM_RXS_PLM_CTL(24) && reg % 0x100 == 0 &&
	    (d->impl[slot] & SIM_RXS_PLM_SOFT_RST)) {
		struct sim_shm_port *p = &d->ports[(reg - SIM_RXS_PLM_CTL(0)) / 0x100];

		if (sim_lock(f, &f->hdr->link_lock) != 0)
			return;	/* logged: no reset */
		__atomic_store_n(&p->ack_in, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->ack_out, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->ack_outstanding, 0, __ATOMIC_RELAXED);
		__atomic_fetch_and(&p->err_sts, ~(CFG_ES_BITS | RTE_RIO_PORT_N_ERR_STS_OUT_EE |
				   RTE_RIO_PORT_N_ERR_STS_INP_EE), __ATOMIC_RELAXED);
		sim_unlock(f, &f->hdr->link_lock);
		ev->route_changed = true;
	}
}

/*
 * Write @val to the byte lanes in @mask of register @reg. -EIO when the
 * device answers ERROR (a route table it does not let us write).
 */
static int
cfg_reg_write(struct sim_fabric *f, struct sim_shm_device *d, uint32_t idx, uint32_t reg,
	      uint32_t val, uint32_t mask, struct cfg_event *ev)
{
	bool sw = d->type == SIM_DEV_SWITCH;
	uint32_t v, cur, entry;
	bool bcast;
	int slot;

	if (reg >= SIM_PHYS_EFPTR && reg < SIM_EM_EFPTR) {
		cfg_write_phys(f, d, idx, reg - SIM_PHYS_EFPTR, val, mask, ev);
		return 0;
	}
	if (reg >= SIM_EM_EFPTR && reg < SIM_EM_EFPTR + 0x1000) {
		if (sw)
			cfg_write_em(d, reg - SIM_EM_EFPTR, val, mask);
		return 0;
	}
	if (cfg_table_reg(d, reg, &entry, &bcast) == 1) {
		/* Per-port tables are not modelled: refused rather than shared. */
		if (!bcast || sim_switch_table_write(f, d, entry, val & mask) != 0)
			return -EIO;
		ev->route_changed = true;
		return 0;
	}
	switch (reg) {
	case RTE_RIO_PELL_CTRL_CSR:
		if (!sw)
			d->pell_ctrl = cfg_merge(d->pell_ctrl, val, mask) &
				(RTE_RIO_PELL_ADDR_34 | RTE_RIO_PELL_ADDR_50 |
				 RTE_RIO_PELL_ADDR_66);
		return 0;
	case RTE_RIO_DID_CSR:
		if (sw)
			return 0;
		v = cfg_merge(d->base_devid, val, mask) & 0x00ffffffu;
		if (v != d->base_devid) {
			__atomic_store_n(&d->base_devid, v, __ATOMIC_RELAXED);
			ev->route_changed = true;
		}
		return 0;
	case RTE_RIO_HOST_DID_LOCK_CSR:
		cur = d->host_lock & RTE_RIO_HOST_DID_LOCK_MASK;
		v = cfg_merge(cur, val, mask) & RTE_RIO_HOST_DID_LOCK_MASK;
		if (cur == RTE_RIO_HOST_DID_UNLOCKED)
			d->host_lock = v;
		else if (v == cur)
			d->host_lock = RTE_RIO_HOST_DID_UNLOCKED;
		/* Locked and a different value: ignored. */
		return 0;
	case RTE_RIO_COMPONENT_TAG_CSR:
		d->comptag = cfg_merge(d->comptag, val, mask);
		return 0;
	case RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR:
		if (sw)
			d->rte_destid_sel = cfg_merge(d->rte_destid_sel, val, mask) &
				(RTE_RIO_STD_RTE_CONF_EXTCFGEN |
				 (f->devid_size == 16 ? 0xffffu : 0xffu));
		return 0;
	case RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR:
		if (!sw)
			return 0;
		slot = sim_impl_slot(d->model, SIM_CPS_RTE_PORT_SEL);
		if (d->model == SIM_MODEL_CPS1848 && slot >= 0 && d->impl[slot] != 0)
			return -EIO;
		sim_switch_rte_write(f, d, cfg_merge(sim_switch_rte_read(f, d), val, mask));
		ev->route_changed = true;
		return 0;
	case RTE_RIO_STD_RTE_DEFAULT_PORT:
		if (!sw)
			return 0;
		__atomic_store_n(&d->rte_default_port, cfg_merge(d->rte_default_port, val, mask) &
				 sim_switch_default_mask(d), __ATOMIC_RELAXED);
		ev->route_changed = true;
		return 0;
	}
	if (reg >= 0x10000)
		cfg_write_impl(f, d, reg, val, mask, ev);
	if (d->model == SIM_MODEL_RXS2448 && reg >= SIM_RT_EFPTR && reg < SIM_RT_EFPTR + 0x1000)
		cfg_write_impl(f, d, reg, val, mask, ev);
	/* CARs and reserved registers: ignored. */
	return 0;
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
	rc = cfg_reg_read(f, d, dev_index, ingress_port, offset & ~3u, &v);
	sim_unlock(f, &d->lock);
	if (rc != 0)
		return rc;
	*val = (v & mask) >> shift;
	return 0;
}

int
sim_config_write(struct sim_fabric *f, uint32_t dev_index, uint8_t ingress_port,
		 uint32_t offset, int len, uint32_t val)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	struct cfg_event ev = { .port = -1 };
	unsigned int shift;
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
	rc = cfg_reg_write(f, d, dev_index, offset & ~3u, val << shift, mask, &ev);
	sim_unlock(f, &d->lock);
	if (ev.route_changed)
		cfg_route_changed(f);
	if (ev.port >= 0) {
		uint8_t pport;
		struct sim_shm_device *pd = cfg_peer(f, d, (unsigned int)ev.port, &pport);

		/* The peer's Port OK follows ours (a disabled port takes the link down). */
		sim_fabric_port_event(f, dev_index, (uint8_t)ev.port, ev.was_ok);
		if (pd != NULL)
			sim_fabric_port_event(f, pd->index, pport, ev.was_ok);
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Routing                                                            */

enum cfg_pkt {
	CFG_PKT_DATA,		/* messages, doorbells: by destid to its endpoint */
	CFG_PKT_MAINT_REQ,	/* maintenance request: hop count, any endpoint */
	CFG_PKT_MAINT_RSP,	/* maintenance response: by destid, maintenance class */
	CFG_PKT_PW,		/* port-write: by destid, maintenance class, any endpoint */
	CFG_PKT_RSP,		/* message or doorbell response: by destid to its endpoint */
};

/* Messages, doorbells and their responses: not maintenance class. */
static inline bool
cfg_pkt_logical(enum cfg_pkt kind)
{
	return kind == CFG_PKT_DATA || kind == CFG_PKT_RSP;
}

static inline bool
cfg_port_passes(const struct sim_shm_port *p, bool out, enum cfg_pkt kind)
{
	uint32_t ctl = cfg_ld32(&p->ctl);

	if (ctl & (RTE_RIO_PORT_N_CTL_LOCKOUT | RTE_RIO_PORT_N_CTL_DISABLE))
		return false;
	/* With the enables clear only maintenance packets pass (Part 6, Port n Control). */
	if (!cfg_pkt_logical(kind))
		return true;
	return (ctl & (out ? RTE_RIO_PORT_N_CTL_EN_TX : RTE_RIO_PORT_N_CTL_EN_RX)) != 0;
}

/*
 * A packet crosses the link from port @p to its partner port @np: both
 * must agree on the ackID. On a mismatch the receiver stops its input
 * (input-error-stopped, it answers packet-not-accepted) and the sender its
 * output (output-error-stopped): no packet crosses in that direction until
 * software realigns the ackIDs and a link-request/input-status restarts the
 * ports. Otherwise both move to the next ackID.
 */
static bool
cfg_link_cross(struct sim_fabric *f, const struct sim_shm_device *d, struct sim_shm_port *p,
	       const struct sim_shm_device *nd, struct sim_shm_port *np)
{
	uint16_t m = cfg_ack_mask(d) & cfg_ack_mask(nd), next;
	bool ok;

	if (sim_lock(f, &f->hdr->link_lock) != 0)
		return false;	/* logged: the packet is lost, the ports keep their state */
	ok = !(cfg_ld32(&p->err_sts) & RTE_RIO_PORT_N_ERR_STS_OUT_ES) &&
		!(cfg_ld32(&np->err_sts) & RTE_RIO_PORT_N_ERR_STS_INP_ES) &&
		(cfg_ld16(&p->ack_out) & m) == (cfg_ld16(&np->ack_in) & m);
	if (ok) {
		next = (cfg_ld16(&p->ack_out) + 1) & cfg_ack_mask(d);
		__atomic_store_n(&p->ack_out, next, __ATOMIC_RELAXED);
		__atomic_store_n(&p->ack_outstanding, next, __ATOMIC_RELAXED);
		__atomic_store_n(&np->ack_in, (cfg_ld16(&np->ack_in) + 1) & cfg_ack_mask(nd),
				 __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_or(&p->err_sts, RTE_RIO_PORT_N_ERR_STS_OUT_ES |
				  RTE_RIO_PORT_N_ERR_STS_OUT_EE, __ATOMIC_RELAXED);
		__atomic_fetch_or(&np->err_sts, RTE_RIO_PORT_N_ERR_STS_INP_ES |
				  RTE_RIO_PORT_N_ERR_STS_INP_EE, __ATOMIC_RELAXED);
		cfg_count(&p->err_stopped);
	}
	sim_unlock(f, &f->hdr->link_lock);
	if (!ok) {
		/* Error management of the switches at either end reports it. */
		sim_fabric_port_error(f, d->index, (uint8_t)(p - d->ports), SIM_EM_PED_PNA_RX);
		sim_fabric_port_error(f, nd->index, (uint8_t)(np - nd->ports),
				      SIM_EM_PED_UNEXP_ACKID);
	}
	return ok;
}

/* Would a packet cross from @p to @np now (cfg_link_cross() without its effects)? */
static bool
cfg_link_would_cross(const struct sim_shm_device *d, const struct sim_shm_port *p,
		     const struct sim_shm_device *nd, const struct sim_shm_port *np)
{
	uint16_t m = cfg_ack_mask(d) & cfg_ack_mask(nd);

	return !(cfg_ld32(&p->err_sts) & RTE_RIO_PORT_N_ERR_STS_OUT_ES) &&
		!(cfg_ld32(&np->err_sts) & RTE_RIO_PORT_N_ERR_STS_INP_ES) &&
		(cfg_ld16(&p->ack_out) & m) == (cfg_ld16(&np->ack_in) & m);
}

/* Count a packet on a port counter, unless the walk only probes the path. */
static inline void
cfg_route_count(const struct sim_path_time *t, uint64_t *c)
{
	if (t == NULL || !t->probe)
		cfg_count(c);
}

/* Record the link leaving (@dev, @port) in the path being walked, if any. */
static inline void
cfg_route_record(struct sim_fabric *f, struct sim_path_time *t, uint32_t dev, unsigned int port)
{
	struct sim_path *rec = t != NULL ? t->rec : NULL;
	uint64_t bps;

	if (rec == NULL || rec->n >= SIM_PATH_MAX)
		return;
	bps = sim_port_rate_bps(f, dev, (uint8_t)port);
	rec->link[rec->n] = SIM_LINK(dev, port);
	/* Picoseconds per byte; a link without rate (cannot happen: it is up) takes none. */
	rec->ps_per_byte[rec->n] = bps != 0 ? (uint32_t)(8000000000000ull / bps) : 0;
	rec->n++;
}

/* Is the endpoint's Base Device ID set (not the reset ANY value)? */
static inline bool
cfg_did_set(const struct sim_fabric *f, uint32_t base)
{
	return RTE_RIO_GET_DID(f->devid_size, base) != RTE_RIO_ANY_DESTID(f->devid_size);
}

static int
cfg_route(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
	  uint8_t hopcount, enum cfg_pkt kind, uint32_t *dst_dev, uint8_t *ingress_port,
	  struct sim_path_time *t)
{
	uint32_t cur = src_dev, hops, dmask = f->devid_size == 16 ? 0xffff : 0xff, base;
	struct sim_shm_device *d, *nd;
	struct sim_shm_port *p, *np;
	unsigned int out = src_port;
	int32_t peer;
	uint8_t pport;
	int o;

	destid &= dmask;
	d = sim_fabric_dev(f, src_dev);
	if (d == NULL)
		return -EINVAL;
	/* Requests need Master Enable: without it an endpoint only responds. */
	if (d->type == SIM_DEV_ENDPOINT && (kind == CFG_PKT_DATA || kind == CFG_PKT_MAINT_REQ) &&
	    !(cfg_ld32(&d->gen_ctl) & RTE_RIO_PORT_GEN_MASTER))
		return -EACCES;
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
			cfg_route_count(t, &p->drops);
			return -ETIMEDOUT;
		}
		np = &nd->ports[pport];
		if (t != NULL && t->probe ? !cfg_link_would_cross(d, p, nd, np) :
		    !cfg_link_cross(f, d, p, nd, np))
			return -ETIMEDOUT;
		cfg_route_count(t, &p->tx_pkts);
		if (t != NULL)
			t->ns += sim_link_ns(f, cur, (uint8_t)out, t->bytes);
		cfg_route_record(f, t, cur, out);
		if (!cfg_port_passes(np, false, kind)) {
			cfg_route_count(t, &np->drops);
			return -ETIMEDOUT;
		}
		cfg_route_count(t, &np->rx_pkts);
		if (nd->type == SIM_DEV_ENDPOINT) {
			base = cfg_ld32(&nd->base_devid);
			/*
			 * Maintenance requests and port-writes are taken whatever
			 * the destination ID; everything else must be for the
			 * endpoint's Base Device ID, which must be set.
			 */
			if ((cfg_pkt_logical(kind) && !cfg_did_set(f, base)) ||
			    ((cfg_pkt_logical(kind) || kind == CFG_PKT_MAINT_RSP) &&
			     RTE_RIO_GET_DID(f->devid_size, base) != destid)) {
				cfg_route_count(t, &np->drops);
				cfg_route_count(t, &nd->drop_destid);
				return -ETIMEDOUT;
			}
			*dst_dev = (uint32_t)peer;
			*ingress_port = pport;
			return 0;
		}
		if (nd->type != SIM_DEV_SWITCH) {
			cfg_route_count(t, &np->drops);
			return -ETIMEDOUT;
		}
		if (t != NULL)
			t->ns += __atomic_load_n(&f->hdr->hop_ns, __ATOMIC_RELAXED);
		if (kind == CFG_PKT_MAINT_REQ) {
			if (hopcount == 0) {
				*dst_dev = (uint32_t)peer;
				*ingress_port = pport;
				return 0;
			}
			hopcount--;
		}
		o = sim_switch_route(f, nd, destid);
		if (o < 0) {
			cfg_route_count(t, &np->drops);
			return -ETIMEDOUT;
		}
		cur = (uint32_t)peer;
		out = (unsigned int)o;
	}
	/* Routing loop. */
	return -ETIMEDOUT;
}

uint8_t
sim_ep_tx_port(const struct sim_fabric *f, uint32_t dev_index)
{
	const struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	unsigned int p;

	/* A dual-port endpoint sends out of its first port whose link is OK. */
	if (d == NULL || d->nports < 2)
		return 0;
	for (p = 0; p < cfg_nports(d); p++)
		if (sim_port_ok(f, dev_index, (uint8_t)p))
			return (uint8_t)p;
	return 0;
}

int
sim_route(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
	  uint8_t hopcount, bool maint, uint32_t *dst_dev, uint8_t *ingress_port)
{
	if (f == NULL || dst_dev == NULL || ingress_port == NULL)
		return -EINVAL;
	return cfg_route(f, src_dev, src_port, destid, hopcount,
			 maint ? CFG_PKT_MAINT_REQ : CFG_PKT_DATA, dst_dev, ingress_port, NULL);
}

int
sim_path_probe(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, bool response,
	       uint32_t *dst_dev, struct sim_path *path)
{
	struct sim_path_time t = { .probe = true, .rec = path };
	uint8_t in;

	if (f == NULL || dst_dev == NULL || path == NULL)
		return -EINVAL;
	path->n = 0;
	return cfg_route(f, src_dev, sim_ep_tx_port(f, src_dev), destid, 0,
			 response ? CFG_PKT_RSP : CFG_PKT_DATA, dst_dev, &in, &t);
}

int
sim_pw_route(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint32_t *dst_dev,
	     uint8_t *ingress_port)
{
	struct sim_shm_device *d = sim_fabric_dev(f, src_dev);
	uint32_t route;
	int slot, port;

	if (d == NULL || dst_dev == NULL || ingress_port == NULL)
		return -EINVAL;
	if (destid >= RTE_RIO_MAX_DESTIDS(f->devid_size))
		return -ETIMEDOUT;
	if (d->type != SIM_DEV_SWITCH)
		return cfg_route(f, src_dev, sim_ep_tx_port(f, src_dev), destid, 0xff, CFG_PKT_PW,
				 dst_dev, ingress_port, NULL);
	/* rxs2448 sends port-writes out of the ports of its port-write route, if any. */
	slot = sim_impl_slot(d->model, SIM_RXS_PW_ROUTE);
	route = slot >= 0 ? __atomic_load_n(&d->impl[slot], __ATOMIC_RELAXED) : 0;
	if (route != 0)
		port = __builtin_ctz(route);
	else
		port = sim_switch_route(f, d, destid);
	if (port < 0 || (unsigned int)port >= cfg_nports(d))
		return -ETIMEDOUT;
	return cfg_route(f, src_dev, (uint8_t)port, destid, 0xff, CFG_PKT_PW, dst_dev,
			 ingress_port, NULL);
}

/* Requester @src_dev's mport issues maintenance of @len bytes? */
static int
cfg_maint_len_ok(const struct sim_shm_device *src, int len)
{
	if (len == 4)
		return 0;
	if (len != 8 && len != 16 && len != 32 && len != 64)
		return -EINVAL;
	return sim_model_get(src->model)->mport_4byte_only ? -EINVAL : 0;
}

/*
 * One maintenance transaction of @len bytes (4, or 8 to 64) from endpoint
 * @src_dev: route the request by hop count, execute it word by word in
 * register order at the target (so a write of 0x70-0x77 selects then
 * programs a route entry, and a write of 0x60-0x6f applies the lock
 * semantics to 0x68), route the response back by the requester's ID. The
 * call returns when the modelled transaction is over.
 */
static int
cfg_maint(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
	  bool write, uint32_t offset, int len, uint32_t *words)
{
	struct sim_shm_device *src = sim_fabric_dev(f, src_dev), *t;
	struct sim_path_time pt = { 0 };
	uint64_t start = sim_now_ns();
	bool timing = __atomic_load_n(&f->hdr->timing, __ATOMIC_RELAXED) != 0;
	uint32_t tdev, back, rsp_id;
	uint8_t in, bin;
	int rc, i, err = 0;

	if (src == NULL || words == NULL || src->type != SIM_DEV_ENDPOINT)
		return -EINVAL;
	rc = cfg_maint_len_ok(src, len);
	if (rc != 0)
		return rc;
	if ((offset & (len == 4 ? 3u : 7u)) != 0)
		return -EFAULT;
	if (offset > RTE_RIO_MAINT_SPACE_SZ - (uint32_t)len)
		return -ERANGE;
	pt.bytes = sim_pkt_wire_bytes(f->devid_size, SIM_MAINT_HDR(f->devid_size),
				      write ? RTE_MAX(len, 8) : 0);
	rc = cfg_route(f, src_dev, sim_ep_tx_port(f, src_dev), destid, hopcount,
		       CFG_PKT_MAINT_REQ, &tdev, &in, &pt);
	if (rc == -EACCES)
		return rc;	/* never left the requester */
	if (rc != 0)
		goto timeout;
	t = sim_fabric_dev(f, tdev);
	if (!(sim_model_get(t->model)->maint_sizes & (1u << rte_log2_u32((uint32_t)len)))) {
		err = -EIO;
	} else {
		for (i = 0; err == 0 && i < len / 4; i++) {
			if (write)
				err = sim_config_write(f, tdev, in, offset + 4 * i, 4, words[i]);
			else
				err = sim_config_read(f, tdev, in, offset + 4 * i, 4, &words[i]);
		}
	}
	cfg_count(&t->maint_rx);
	if (err != 0) {
		cfg_count(&t->maint_refused);
		err = -EIO;	/* an ERROR response */
	}
	pt.ns += __atomic_load_n(&f->hdr->proc_ns, __ATOMIC_RELAXED);
	/*
	 * The response leaves by the port the request came in on and then
	 * follows route tables to the requester's device ID (hop count 0xff).
	 */
	pt.bytes = sim_pkt_wire_bytes(f->devid_size, SIM_MAINT_HDR(f->devid_size),
				      !write && err == 0 ? RTE_MAX(len, 8) : 0);
	rsp_id = RTE_RIO_GET_DID(f->devid_size, cfg_ld32(&src->base_devid));
	rc = cfg_route(f, tdev, in, (uint16_t)rsp_id, 0xff, CFG_PKT_MAINT_RSP, &back, &bin, &pt);
	if (rc != 0 || back != src_dev)
		goto timeout;
	if (timing)
		sim_wait_until(start + pt.ns);
	if (err != 0 && !write)
		memset(words, 0xff, len);
	return err;
timeout:
	/* Nothing comes back: the requester learns it from its response timeout. */
	sim_wait_until(start + sim_resp_timeout_ns(f, src_dev));
	if (!write)
		memset(words, 0xff, len);
	return -ETIMEDOUT;
}

int
sim_maint(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
	  bool write, uint32_t offset, int len, uint32_t *val)
{
	/* 1- and 2-byte accesses are not RapidIO maintenance transactions. */
	if (len != 4)
		return -EINVAL;
	return cfg_maint(f, src_dev, destid, hopcount, write, offset, len, val);
}

int
sim_maint_block(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
		bool write, uint32_t offset, int len, uint32_t *words)
{
	if (len != 8 && len != 16 && len != 32 && len != 64)
		return -EINVAL;
	return cfg_maint(f, src_dev, destid, hopcount, write, offset, len, words);
}

/* ------------------------------------------------------------------ */
/* Static routes                                                      */

/* Program the route of @id on switch @sd to @port (a route CSR write, without a packet). */
static void
cfg_static_route(struct sim_fabric *f, struct sim_shm_device *sd, uint32_t id, uint8_t port)
{
	uint32_t sel = sd->rte_destid_sel;

	sd->rte_destid_sel = id;
	sim_switch_rte_write(f, sd, port);
	sd->rte_destid_sel = sel;
}

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

		if (sd->type != SIM_DEV_SWITCH)
			continue;
		if (sim_switch_rt(f, s) == NULL) {
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
				if (cfg_did_set(f, cd->base_devid))
					cfg_static_route(f, sd, RTE_RIO_GET_DID(f->devid_size,
							 cd->base_devid), first[c]);
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
