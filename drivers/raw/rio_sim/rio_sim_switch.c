/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Device models: what each emulated part is (identity, ports, register map)
 * and the switches' route tables.
 *
 * Facts and where they come from (doc/guides/rawdevs/rio_sim.rst has the
 * table of behaviours):
 *  - std: the RapidIO specification 3.x only. Route entries reset to
 *    unpredictable values (pseudo-random from the fabric's seed); an entry
 *    that names no port drops the packet; the default port CSR (0x78) is used
 *    for device IDs above the route table limit (0x34) only.
 *  - cps1848: IDT CPS-1848, as Linux's drivers/rapidio/switches/idt_gen2.c
 *    drives it (VID 0x0038, DID 0x0374, 18 ports): route values 0xDE "use the
 *    default port" and 0xDF "no route" (the driver's IDT_DEFAULT_ROUTE and
 *    IDT_NO_ROUTE), 0xDD "use the device table" in the domain table, a device
 *    table (destID low byte) and a domain table (high byte, 16-bit IDs) also
 *    reachable at 0xE00000/0xE00400 (RapidIO RRMAP's CPS1848 register
 *    header), the table select register 0x10070 and the error-management
 *    registers the driver's em_init/em_handle touch.
 *  - rxs2448: IDT RXS2448, as Linux's idt_gen3.c drives it (DID 0x80E6, 24
 *    ports, register map II): 10-bit route values (0x300 drop, 0x301 default
 *    port, 0x200 "level 2 group 0"), the level 1 (domain) and level 2
 *    (device) broadcast tables at 0x30400/0x31000, per-port tables at
 *    0x50400/0x51000 + 0x2000 n, the routing table block at 0x5000, the
 *    port-write route 0x40208 and the port soft reset (0x10100 + 0x100 n).
 *  - generic: an endpoint of the specification only.
 *  - tsi721: IDT Tsi721 (VID 0x0038, DID 0x80AB, one x4 port): its mport does
 *    4-byte maintenance and 4-byte local accesses only, as Linux's tsi721
 *    driver (tsi721_maint_dma, tsi721_lcread).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_fabric.h"

/* Vendor and device IDs (Linux include/linux/rio_ids.h). */
#define SW_VID_IDT		0x0038
#define SW_DID_CPS1848		0x0374
#define SW_DID_RXS2448		0x80e6
#define SW_DID_TSI721		0x80ab

static const struct sim_model_info sim_models[SIM_MODEL_COUNT] = {
	[SIM_MODEL_GENERIC] = {
		.name = "generic", .type = SIM_DEV_ENDPOINT,
		.vid = RTE_PMD_RIO_SIM_VID, .did = RTE_PMD_RIO_SIM_DID_ENDPOINT, .dev_rev = 1,
		.max_ports = 2, .rmap = 1, .phys_id = RTE_RIO_EFB_SER_EP_SW_M1_ID,
		.max_lanes = 16, .max_baud = SIM_BAUD_12_5, .maint_sizes = SIM_MAINT_ALL,
		.ports_enabled = false,
	},
	[SIM_MODEL_TSI721] = {
		.name = "tsi721", .type = SIM_DEV_ENDPOINT,
		.vid = SW_VID_IDT, .did = SW_DID_TSI721, .dev_rev = 0,
		.fixed_ports = 1, .max_ports = 1, .rmap = 1, .phys_id = RTE_RIO_EFB_SER_EP_SW_M1_ID,
		.max_lanes = 4, .max_baud = SIM_BAUD_5_0, .maint_sizes = SIM_MAINT_ALL,
		.ports_enabled = true, .mport_4byte_only = true,
	},
	[SIM_MODEL_STD] = {
		.name = "std", .type = SIM_DEV_SWITCH,
		.vid = RTE_PMD_RIO_SIM_VID, .did = RTE_PMD_RIO_SIM_DID_SWITCH, .dev_rev = 1,
		.max_ports = SIM_MAX_PORTS, .rmap = 1, .phys_id = RTE_RIO_EFB_SER_EPF_SW_M1_ID,
		.max_lanes = 16, .max_baud = SIM_BAUD_12_5, .maint_sizes = SIM_MAINT_ALL,
		.ports_enabled = false,
	},
	[SIM_MODEL_CPS1848] = {
		.name = "cps1848", .type = SIM_DEV_SWITCH,
		.vid = SW_VID_IDT, .did = SW_DID_CPS1848, .dev_rev = 0,
		.fixed_ports = 18, .max_ports = 18, .rmap = 1,
		.phys_id = RTE_RIO_EFB_SER_EPF_SW_M1_ID,
		.max_lanes = 4, .max_baud = SIM_BAUD_6_25, .maint_sizes = SIM_MAINT_ALL,
		.ports_enabled = true,
	},
	[SIM_MODEL_RXS2448] = {
		.name = "rxs2448", .type = SIM_DEV_SWITCH,
		.vid = SW_VID_IDT, .did = SW_DID_RXS2448, .dev_rev = 0,
		.fixed_ports = 24, .max_ports = 24, .rmap = 2,
		.phys_id = RTE_RIO_EFB_SER_EPF_SW_M2_ID,
		.max_lanes = 4, .max_baud = SIM_BAUD_12_5, .maint_sizes = SIM_MAINT_ALL,
		.ports_enabled = true,
	},
};

const struct sim_model_info *
sim_model_get(uint8_t model)
{
	return model < SIM_MODEL_COUNT ? &sim_models[model] : &sim_models[SIM_MODEL_GENERIC];
}

int
sim_model_find(const char *name, uint8_t type)
{
	unsigned int m;

	for (m = 0; m < SIM_MODEL_COUNT; m++)
		if (sim_models[m].type == type && strcmp(sim_models[m].name, name) == 0)
			return (int)m;
	return -ENOENT;
}

const char *
sim_model_names(uint8_t type)
{
	return type == SIM_DEV_SWITCH ? "std, cps1848, rxs2448" : "generic, tsi721";
}

/* ------------------------------------------------------------------ */
/* Route tables                                                       */

/* Route values of the IDT parts (see the file header). */
#define CPS_RTE_USE_DEV		0xdd
#define CPS_RTE_DEFAULT		0xde
#define CPS_RTE_DROP		0xdf
#define RXS_RTE_LVL_G0		0x200
#define RXS_RTE_DROP		0x300
#define RXS_RTE_DEFAULT		0x301
#define RXS_RTE_MASK		0x3ff

uint16_t *
sim_switch_rt(const struct sim_fabric *f, uint32_t dev_index)
{
	uint64_t rt_size, off, base;
	struct sim_shm_device *d;

	d = sim_fabric_dev(f, dev_index);
	if (d == NULL || d->type != SIM_DEV_SWITCH)
		return NULL;
	rt_size = SIM_RT_ENTRIES(f->devid_size) * sizeof(uint16_t);
	base = (uint64_t)(f->rt_base - (uint8_t *)f->hdr);
	off = d->rt_off;	/* untrusted: must name one table slot */
	if (off < base || (off - base) % rt_size != 0 || off + rt_size > f->size)
		return NULL;
	return (uint16_t *)((uint8_t *)f->hdr + off);
}

/* splitmix64: the std tables' reset contents, reproducible from the seed. */
static uint64_t
sw_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void
sim_switch_reset_routes(struct sim_fabric *f, struct sim_shm_device *d, uint64_t seed)
{
	uint16_t *rt = sim_switch_rt(f, d->index);
	uint32_t n = SIM_RT_ENTRIES(f->devid_size), i;
	uint64_t st = seed ^ ((uint64_t)d->index * 0xd1342543de82ef95ull);

	if (rt == NULL)
		return;
	switch (d->model) {
	case SIM_MODEL_CPS1848:
		/* Every entry "use the default port", domain 0 "use the device table". */
		for (i = 0; i < n; i++)
			rt[i] = CPS_RTE_DEFAULT;
		rt[SIM_RT_DOM_TABLE] = CPS_RTE_USE_DEV;
		d->rte_default_port = CPS_RTE_DROP;
		break;
	case SIM_MODEL_RXS2448:
		for (i = 0; i < n; i++)
			rt[i] = RXS_RTE_DROP;
		rt[SIM_RT_DOM_TABLE] = RXS_RTE_LVL_G0;
		d->rte_default_port = RXS_RTE_DROP;
		break;
	default:
		/*
		 * Implementation-defined reset contents: a port of the switch
		 * or no port at all, so that relying on either misroutes or
		 * drops.
		 */
		for (i = 0; i < n; i++) {
			uint32_t v = (uint32_t)(sw_rand(&st) % (d->nports + 1u));

			rt[i] = v < d->nports ? v : RTE_RIO_INVALID_ROUTE;
		}
		d->rte_default_port = (uint32_t)(sw_rand(&st) % (d->nports + 1u));
		if (d->rte_default_port >= d->nports)
			d->rte_default_port = RTE_RIO_INVALID_ROUTE;
		break;
	}
}

static inline uint16_t
sw_ld(const uint16_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* A route value of model @m resolved to a port, -1 drop, -2 the default port. */
static int
sw_value_port(const struct sim_shm_device *d, uint32_t v)
{
	switch (d->model) {
	case SIM_MODEL_CPS1848:
		if (v == CPS_RTE_DEFAULT)
			return -2;
		return v < d->nports ? (int)v : -1;
	case SIM_MODEL_RXS2448:
		v &= RXS_RTE_MASK;
		if (v == RXS_RTE_DEFAULT)
			return -2;
		return v < d->nports ? (int)v : -1;
	default:
		return v < d->nports ? (int)v : -1;
	}
}

int
sim_switch_route(const struct sim_fabric *f, const struct sim_shm_device *d,
		 uint16_t destid)
{
	const uint16_t *rt = sim_switch_rt(f, d->index);
	uint32_t v, def;
	int port;

	if (rt == NULL)
		return -1;
	if (d->model == SIM_MODEL_STD) {
		if (destid > __atomic_load_n(&d->rt_limit, __ATOMIC_RELAXED))
			port = -2;
		else
			port = sw_value_port(d, sw_ld(&rt[destid]));
	} else {
		/* Dev16 packets look at the domain table first. */
		v = f->devid_size == 16 ? sw_ld(&rt[SIM_RT_DOM_TABLE + (destid >> 8)]) :
			(d->model == SIM_MODEL_CPS1848 ? CPS_RTE_USE_DEV : RXS_RTE_LVL_G0);
		if ((d->model == SIM_MODEL_CPS1848 && v == CPS_RTE_USE_DEV) ||
		    (d->model == SIM_MODEL_RXS2448 && (v & RXS_RTE_MASK) == RXS_RTE_LVL_G0))
			v = sw_ld(&rt[SIM_RT_DEV_TABLE + (destid & 0xff)]);
		port = sw_value_port(d, v);
	}
	if (port != -2)
		return port;
	def = __atomic_load_n(&d->rte_default_port, __ATOMIC_RELAXED);
	/* The default port cannot refer to itself: anything but a port drops. */
	if (d->model == SIM_MODEL_RXS2448)
		def &= RXS_RTE_MASK;
	return def < d->nports ? (int)def : -1;
}

/*
 * Table entry selected by the route CSR 0x70 (@sel) for one ID: std by the
 * ID itself, IDT by the low byte in the device table, or (16-bit IDs with a
 * non-zero high byte) by the high byte in the domain table. -1: none.
 */
static int32_t
sw_sel_entry(const struct sim_fabric *f, const struct sim_shm_device *d, uint32_t id)
{
	if (d->model == SIM_MODEL_STD)
		return id <= d->rt_limit && id < RTE_RIO_MAX_DESTIDS(f->devid_size) ?
			(int32_t)id : -1;
	if (f->devid_size == 16 && (id >> 8) != 0)
		return SIM_RT_DOM_TABLE + (int32_t)(id >> 8);
	return SIM_RT_DEV_TABLE + (int32_t)(id & 0xff);
}

/* What the route CSRs read for an entry that does not exist. */
static uint32_t
sw_none(const struct sim_shm_device *d)
{
	switch (d->model) {
	case SIM_MODEL_CPS1848:
		return CPS_RTE_DROP;
	case SIM_MODEL_RXS2448:
		return RXS_RTE_DROP;
	default:
		return RTE_RIO_INVALID_ROUTE;
	}
}

static uint32_t
sw_value_mask(const struct sim_shm_device *d)
{
	return d->model == SIM_MODEL_RXS2448 ? RXS_RTE_MASK : 0xff;
}

uint32_t
sim_switch_rte_read(struct sim_fabric *f, struct sim_shm_device *d)
{
	uint16_t *rt = sim_switch_rt(f, d->index);
	uint32_t sel = d->rte_destid_sel, id, k, v = 0;
	uint32_t dmask = f->devid_size == 16 ? 0xffff : 0xff;
	int32_t e;

	id = sel & dmask;
	if (!(sel & RTE_RIO_STD_RTE_CONF_EXTCFGEN) || d->model == SIM_MODEL_RXS2448) {
		e = sw_sel_entry(f, d, id);
		return rt == NULL || e < 0 ? sw_none(d) : sw_ld(&rt[e]);
	}
	/* Extended configuration: the aligned group of four, first ID in the low byte. */
	id &= ~3u;
	for (k = 0; k < 4; k++) {
		e = sw_sel_entry(f, d, id + k);
		v |= ((rt == NULL || e < 0 ? sw_none(d) : sw_ld(&rt[e])) & 0xff) << (8 * k);
	}
	return v;
}

void
sim_switch_rte_write(struct sim_fabric *f, struct sim_shm_device *d, uint32_t val)
{
	uint16_t *rt = sim_switch_rt(f, d->index);
	uint32_t sel = d->rte_destid_sel, id, k;
	uint32_t dmask = f->devid_size == 16 ? 0xffff : 0xff;
	int32_t e;

	if (rt == NULL)
		return;
	id = sel & dmask;
	if (!(sel & RTE_RIO_STD_RTE_CONF_EXTCFGEN) || d->model == SIM_MODEL_RXS2448) {
		e = sw_sel_entry(f, d, id);
		if (e >= 0)
			__atomic_store_n(&rt[e], (uint16_t)(val & sw_value_mask(d)),
					 __ATOMIC_RELAXED);
		return;
	}
	id &= ~3u;
	for (k = 0; k < 4; k++) {
		e = sw_sel_entry(f, d, id + k);
		if (e >= 0)
			__atomic_store_n(&rt[e], (uint16_t)((val >> (8 * k)) & 0xff),
					 __ATOMIC_RELAXED);
	}
}

uint32_t
sim_switch_default_mask(const struct sim_shm_device *d)
{
	return sw_value_mask(d);
}

int
sim_switch_table_read(const struct sim_fabric *f, const struct sim_shm_device *d,
		      uint32_t entry, uint32_t *val)
{
	const uint16_t *rt = sim_switch_rt(f, d->index);

	if (rt == NULL || entry >= SIM_RT_ENTRIES(f->devid_size))
		return -EINVAL;
	*val = sw_ld(&rt[entry]);
	return 0;
}

int
sim_switch_table_write(struct sim_fabric *f, const struct sim_shm_device *d, uint32_t entry,
		       uint32_t val)
{
	uint16_t *rt = sim_switch_rt(f, d->index);

	if (rt == NULL || entry >= SIM_RT_ENTRIES(f->devid_size))
		return -EINVAL;
	__atomic_store_n(&rt[entry], (uint16_t)(val & sw_value_mask(d)), __ATOMIC_RELAXED);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Implementation-specific registers                                  */

/*
 * A run of registers: @count registers from @off, @stride apart, each one
 * value slot from @slot; @bcast: a broadcast register that writes them all
 * (reads return 0). Registers not listed read 0 and ignore writes.
 */
struct sw_impl_run {
	uint32_t off;
	uint16_t count;
	uint16_t stride;
	uint16_t slot;
	uint32_t bcast;
	uint32_t reset;
};

/*
 * CPS-1848: the registers Linux's idt_gen2.c programs in em_init() and
 * reads in em_handle(), set_domain() and the errlog attribute.
 */
static const struct sw_impl_run sw_cps_regs[] = {
	{ SIM_CPS_RTE_PORT_SEL, 1, 4, 0, 0, 0 },
	{ 0x020000, 1, 4, 1, 0, 0 },		/* AUX port error capture enable */
	{ 0x020008, 1, 4, 2, 0, 0 },		/* config block error capture enable */
	{ 0x021014, 1, 4, 3, 0, 0 },		/* impl-specific L/T address capture */
	{ 0x03100c, 1, 4, 4, 0, 0 },		/* L/T error report enable */
	{ 0xf2000c, 1, 4, 5, 0, 0 },		/* device control 1 */
	{ 0xf20014, 1, 4, 6, 0, 0 },		/* config block error report */
	{ 0xf20018, 1, 4, 7, 0, 0 },		/* AUX error report enable */
	{ SIM_CPS_RIO_DOMAIN, 1, 4, 8, 0, 0 },
	{ 0xf20024, 1, 4, 9, 0, 0 },		/* port-write info */
	{ 0xf20050, 1, 4, 10, 0, 0 },		/* I2C master control */
	{ 0xf2005c, 1, 4, 11, 0, 0 },		/* JTAG control */
	{ 0xfd0000, 1, 4, 12, 0, 0 },		/* error log control */
	{ 0xfd0004, 1, 4, 13, 0, 0 },		/* error log data: 0, empty */
	{ 0x031044, 18, 0x40, 14, 0x03ff04, 0 },	/* port n error report enable */
	{ 0x03104c, 18, 0x40, 32, 0x03ff0c, 0 },	/* impl-specific error report enable */
	{ 0xf40004, 18, 0x100, 50, 0xf4ff04, 0 },	/* port n operations */
	{ 0xf40008, 18, 0x100, 68, 0xf4ff08, 0 },	/* impl-specific error detect */
	{ 0x038010, 48, 0x100, 86, 0x03ff10, 0 },	/* lane n error report enable */
	{ 0xff8000, 48, 0x100, 134, 0xffff00, 0 },	/* lane n control */
};

/*
 * RXS2448: the registers Linux's idt_gen3.c programs. The port-write enable
 * of every port resets with the link events on (OK to uninitialized, link
 * initialized) and the port-write route to no port (the route table is used).
 */
static const struct sw_impl_run sw_rxs_regs[] = {
	{ 0x40020, 1, 4, 0, 0, 0 },		/* EM port-write status */
	{ 0x40030, 1, 4, 1, 0, 0 },		/* EM device interrupt enable */
	{ 0x40204, 1, 4, 2, 0, 0 },		/* port-write control */
	{ SIM_RXS_PW_ROUTE, 1, 4, 3, 0, 0 },
	{ SIM_RT_EFPTR + 0x20, 1, 4, 4, 0, 0 },	/* broadcast routing table control */
	{ SIM_RXS_PLM_CTL(0), 24, 0x100, 8, 0, 0 },
	{ SIM_RXS_PLM_PW_EN(0), 24, 0x100, 32, 0, SIM_RXS_PW_EN_OK2U | SIM_RXS_PW_EN_LINIT },
};

static void
sw_impl_runs(uint8_t model, const struct sw_impl_run **runs, unsigned int *n)
{
	switch (model) {
	case SIM_MODEL_CPS1848:
		*runs = sw_cps_regs;
		*n = RTE_DIM(sw_cps_regs);
		break;
	case SIM_MODEL_RXS2448:
		*runs = sw_rxs_regs;
		*n = RTE_DIM(sw_rxs_regs);
		break;
	default:
		*runs = NULL;
		*n = 0;
		break;
	}
}

int
sim_impl_slot(uint8_t model, uint32_t off)
{
	const struct sw_impl_run *r;
	unsigned int i, n;

	sw_impl_runs(model, &r, &n);
	for (i = 0; i < n; i++) {
		if (off >= r[i].off && off < r[i].off + (uint32_t)r[i].count * r[i].stride &&
		    (off - r[i].off) % r[i].stride == 0)
			return r[i].slot + (int)((off - r[i].off) / r[i].stride);
	}
	return -1;
}

bool
sim_impl_bcast(uint8_t model, uint32_t off, uint32_t *first, uint32_t *count)
{
	const struct sw_impl_run *r;
	unsigned int i, n;

	sw_impl_runs(model, &r, &n);
	for (i = 0; i < n; i++) {
		if (r[i].bcast != 0 && r[i].bcast == off) {
			*first = r[i].slot;
			*count = r[i].count;
			return true;
		}
	}
	return false;
}

void
sim_impl_reset(struct sim_shm_device *d)
{
	const struct sw_impl_run *r;
	unsigned int i, k, n;

	memset(d->impl, 0, sizeof(d->impl));
	sw_impl_runs(d->model, &r, &n);
	for (i = 0; i < n; i++)
		for (k = 0; k < r[i].count && r[i].slot + k < SIM_IMPL_REGS; k++)
			d->impl[r[i].slot + k] = r[i].reset;
}

/* Every run must fit the slots: checked once per process, at the first use. */
RTE_INIT(sim_impl_check)
{
	const struct sw_impl_run *r;
	unsigned int m, i, n;

	for (m = 0; m < SIM_MODEL_COUNT; m++) {
		sw_impl_runs((uint8_t)m, &r, &n);
		for (i = 0; i < n; i++)
			RTE_VERIFY(r[i].slot + r[i].count <= SIM_IMPL_REGS);
	}
}
