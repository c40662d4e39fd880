/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * tsi721 rawdev: the PCI driver of the part, and the probe both a PCI
 * function and the model go through (tsi721_probe_common()): rawdev,
 * bring-up of the part, mport registration, enumeration or discovery.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_pci_driver.h>
#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_io.h>
#include <rte_malloc.h>
#include <rte_rawdev.h>
#include <rte_rawdev_pmd.h>
#include <rte_string_fns.h>

#include "tsi721.h"
#include "rte_pmd_tsi721.h"

static const struct rte_rawdev_ops tsi721_rawdev_ops;

static struct tsi721_dev *
tsi721_priv(const struct rte_rawdev *dev)
{
	return dev->dev_private;
}

static struct tsi721_dev *
tsi721_by_id(uint16_t dev_id)
{
	if (!rte_rawdev_pmd_is_valid_dev(dev_id) ||
	    rte_rawdevs[dev_id].dev_ops != &tsi721_rawdev_ops)
		return NULL;
	return tsi721_priv(&rte_rawdevs[dev_id]);
}

struct rte_rio_mport *
rte_pmd_tsi721_mport(uint16_t dev_id)
{
	struct tsi721_dev *td = tsi721_by_id(dev_id);

	if (td == NULL) {
		rte_errno = ENODEV;
		return NULL;
	}
	return td->mport;
}

int
rte_pmd_tsi721_reg_read(uint16_t dev_id, uint32_t offset, uint32_t *val)
{
	struct tsi721_dev *td = tsi721_by_id(dev_id);

	if (td == NULL)
		return -ENODEV;
	if (val == NULL || (offset & 3) != 0 || offset >= TSI721_BAR0_SIZE)
		return -EINVAL;
	*val = tsi721_rd(td, offset);
	return 0;
}

int
rte_pmd_tsi721_reg_write(uint16_t dev_id, uint32_t offset, uint32_t val)
{
	struct tsi721_dev *td = tsi721_by_id(dev_id);

	if (td == NULL)
		return -ENODEV;
	if ((offset & 3) != 0 || offset >= TSI721_BAR0_SIZE)
		return -EINVAL;
	tsi721_wr(td, offset, val);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Extended statistics                                                */

enum tsi721_xs_src {
	TSI721_XS_DEV,		/* field of struct tsi721_dev */
	TSI721_XS_REG,		/* the part's counter register */
	TSI721_XS_LINK,
	TSI721_XS_OMSG,		/* per mailbox, field of struct tsi721_msg_stats */
	TSI721_XS_IMSG,
	TSI721_XS_MODEL,	/* field of struct tsi721_model_stats */
};

struct tsi721_xstat {
	const char *name;
	uint8_t src;
	uint8_t mbox;
	uint32_t off;		/* field offset or register */
};

#define XS_DEV(n, f) { n, TSI721_XS_DEV, 0, offsetof(struct tsi721_dev, f) }
#define XS_MSG(n, s, m, f) { "mbox" #m "_" n, s, m, offsetof(struct tsi721_msg_stats, f) }
#define XS_MBOX(m) \
	XS_MSG("tx_msgs", TSI721_XS_OMSG, m, msgs), XS_MSG("tx_bytes", TSI721_XS_OMSG, m, bytes), \
	XS_MSG("tx_errors", TSI721_XS_OMSG, m, errors), \
	XS_MSG("tx_resets", TSI721_XS_OMSG, m, resets), \
	XS_MSG("rx_msgs", TSI721_XS_IMSG, m, msgs), XS_MSG("rx_bytes", TSI721_XS_IMSG, m, bytes), \
	XS_MSG("rx_errors", TSI721_XS_IMSG, m, errors)
#define XS_MODEL(f) { "model_" #f, TSI721_XS_MODEL, 0, offsetof(struct tsi721_model_stats, f) }

static const struct tsi721_xstat tsi721_xstats[] = {
	{ "link_up", TSI721_XS_LINK, 0, 0 },
	{ "retry_gen_cnt", TSI721_XS_REG, 0, TSI721_RETRY_GEN_CNT },
	{ "retry_rx_cnt", TSI721_XS_REG, 0, TSI721_RETRY_RX_CNT },
	XS_DEV("maint", maint_ok),
	XS_DEV("maint_errors", maint_errors),
	XS_DEV("dbell_tx", dbell_tx),
	XS_DEV("dbell_tx_errors", dbell_tx_errors),
	XS_DEV("dbell_rx", dbell_rx),
	XS_DEV("pw_rx", pw_rx),
	XS_DEV("pw_discarded", pw_discarded),
	XS_DEV("mem", mem_ok),
	XS_DEV("mem_bytes", mem_bytes),
	XS_DEV("mem_errors", mem_errors),
	XS_MBOX(0), XS_MBOX(1), XS_MBOX(2), XS_MBOX(3),
	/* Only on a model: what the part would reject, counted. */
	XS_MODEL(desc_bad),
	XS_MODEL(misaligned),
	XS_MODEL(overrun),
	XS_MODEL(dma_bad),
	XS_MODEL(msg_tx),
	XS_MODEL(msg_tx_retry),
	XS_MODEL(msg_rx),
	XS_MODEL(dbell_tx),
	XS_MODEL(dbell_rx),
	XS_MODEL(dbell_filtered),
	XS_MODEL(maint),
	XS_MODEL(pw_rx),
	XS_MODEL(mem),
};

#define TSI721_XS_MODEL_FIRST	(RTE_DIM(tsi721_xstats) - \
				 sizeof(struct tsi721_model_stats) / sizeof(uint64_t))

static unsigned int
tsi721_xstats_count(const struct tsi721_dev *td)
{
	return td->model != NULL ? RTE_DIM(tsi721_xstats) : TSI721_XS_MODEL_FIRST;
}

static uint64_t
tsi721_xstat_raw(struct tsi721_dev *td, const struct tsi721_model_stats *ms, unsigned int id)
{
	const struct tsi721_xstat *x = &tsi721_xstats[id];

	switch (x->src) {
	case TSI721_XS_DEV:
		return *(const uint64_t *)RTE_PTR_ADD(td, x->off);
	case TSI721_XS_REG:
		return tsi721_rd(td, x->off);
	case TSI721_XS_LINK:
		return tsi721_link_up(td);
	case TSI721_XS_OMSG:
		return *(const uint64_t *)RTE_PTR_ADD(&td->omsg[x->mbox].st, x->off);
	case TSI721_XS_IMSG:
		return *(const uint64_t *)RTE_PTR_ADD(&td->imsg[x->mbox].st, x->off);
	default:
		return *(const uint64_t *)RTE_PTR_ADD(ms, x->off);
	}
}

static void
tsi721_model_stats(const struct tsi721_dev *td, struct tsi721_model_stats *ms)
{
	memset(ms, 0, sizeof(*ms));
	if (td->bar->model_stats != NULL)
		td->bar->model_stats(td->bar_ctx, ms);
}

static int
tsi721_xstats_get_names(const struct rte_rawdev *dev, struct rte_rawdev_xstats_name *names,
			unsigned int size)
{
	unsigned int i, n = tsi721_xstats_count(tsi721_priv(dev));

	if (names == NULL || size < n)
		return n;
	for (i = 0; i < n; i++)
		strlcpy(names[i].name, tsi721_xstats[i].name, sizeof(names[i].name));
	return n;
}

static int
tsi721_xstats_get(const struct rte_rawdev *dev, const unsigned int ids[], uint64_t values[],
		  unsigned int n)
{
	struct tsi721_dev *td = tsi721_priv(dev);
	struct tsi721_model_stats ms;
	unsigned int i;

	if (ids == NULL || values == NULL)
		return -EINVAL;
	tsi721_model_stats(td, &ms);
	for (i = 0; i < n; i++) {
		if (ids[i] >= tsi721_xstats_count(td))
			return (int)i;
		values[i] = tsi721_xstat_raw(td, &ms, ids[i]);
		if (tsi721_xstats[ids[i]].src != TSI721_XS_LINK)
			values[i] -= td->xstats_base[ids[i]];
	}
	return (int)n;
}

static uint64_t
tsi721_xstats_get_by_name(const struct rte_rawdev *dev, const char *name, unsigned int *id)
{
	struct tsi721_dev *td = tsi721_priv(dev);
	unsigned int i;
	uint64_t v;

	for (i = 0; name != NULL && i < tsi721_xstats_count(td); i++) {
		if (strcmp(tsi721_xstats[i].name, name) == 0) {
			if (id != NULL)
				*id = i;
			tsi721_xstats_get(dev, &i, &v, 1);
			return v;
		}
	}
	if (id != NULL)
		*id = (unsigned int)-1;
	return 0;
}

static int
tsi721_xstats_reset(struct rte_rawdev *dev, const uint32_t ids[], uint32_t nb_ids)
{
	struct tsi721_dev *td = tsi721_priv(dev);
	unsigned int i, n = tsi721_xstats_count(td);
	struct tsi721_model_stats ms;

	tsi721_model_stats(td, &ms);
	for (i = 0; ids != NULL && i < nb_ids; i++)
		if (ids[i] >= n)
			return -EINVAL;
	for (i = 0; i < (ids == NULL ? n : nb_ids); i++) {
		unsigned int id = ids == NULL ? i : ids[i];

		td->xstats_base[id] = tsi721_xstat_raw(td, &ms, id);
	}
	return 0;
}

static int
tsi721_dump(struct rte_rawdev *dev, FILE *f)
{
	struct tsi721_dev *td = tsi721_priv(dev);
	struct tsi721_model_stats ms;
	unsigned int i;
	uint64_t v;

	if (f == NULL)
		return -EINVAL;
	fprintf(f, "tsi721 rawdev %s (id %u): %s, %u-bit device IDs, %s, link %s\n", dev->name,
		dev->dev_id, td->model != NULL ? "model" : "PCI function", td->devid_size,
		td->host_destid >= 0 ? "host" : "agent", tsi721_link_up(td) ? "up" : "down");
	tsi721_model_stats(td, &ms);
	for (i = 0; i < tsi721_xstats_count(td); i++) {
		v = tsi721_xstat_raw(td, &ms, i);
		if (v != 0)
			fprintf(f, "    %-24s %" PRIu64 "\n", tsi721_xstats[i].name, v);
	}
	return 0;
}

/* Coherent local view: the part's identity, and its own ID as lib/rio reads it. */
static int
tsi721_selftest(uint16_t dev_id)
{
	struct tsi721_dev *td = tsi721_by_id(dev_id);
	uint32_t v = 0, w;
	int ret;

	if (td == NULL)
		return -EINVAL;
	ret = rte_rio_local_read_config_32(td->mport, RTE_RIO_DEV_ID_CAR, &v);
	w = tsi721_rd(td, RTE_RIO_DEV_ID_CAR);
	if (ret != 0 || v != w || v == 0xffffffff) {
		TSI_LOG(ERR, "selftest: %s: Device Identity CAR %d, 0x%08x / 0x%08x", td->name,
			ret, v, w);
		return -1;
	}
	if (rte_rio_mport_destid(td->mport) < 0) {
		TSI_LOG(ERR, "selftest: %s: cannot read the Base Device ID", td->name);
		return -1;
	}
	TSI_LOG(INFO, "selftest: %s: identity 0x%08x, link %s", td->name, v,
		tsi721_link_up(td) ? "up" : "down");
	return 0;
}

static const struct rte_rawdev_ops tsi721_rawdev_ops = {
	.dump = tsi721_dump,
	.xstats_get = tsi721_xstats_get,
	.xstats_get_names = tsi721_xstats_get_names,
	.xstats_get_by_name = tsi721_xstats_get_by_name,
	.xstats_reset = tsi721_xstats_reset,
	.dev_selftest = tsi721_selftest,
};

/* ------------------------------------------------------------------ */
/* Common probe                                                       */

/*
 * Enumerate (host) or discover (agent). An agent does not hold EAL init up
 * when no host has enumerated yet (the host may be another port of this
 * process, probed later): its own endpoint is published at once and lib/rio
 * discovers in the background.
 */
static void
tsi721_scan(struct tsi721_dev *td, const struct tsi721_probe_params *p)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = p->disc_timeout_ms };
	int ret;

	ret = rte_rio_mport_scan_background(td->mport, &sc);
	if (ret == -EINPROGRESS)
		TSI_LOG(NOTICE, "%s: waiting for a host to enumerate the fabric (disc_timeout=%u ms); its own endpoint is on the rio bus meanwhile",
			td->name, p->disc_timeout_ms);
	else if (ret < 0)
		TSI_LOG(ERR, "%s: %s failed: %s; the port has no peers", td->name,
			td->host_destid >= 0 ? "enumeration" : "discovery", strerror(-ret));
	else
		TSI_LOG(INFO, "%s: %s: %u devices", td->name,
			td->host_destid >= 0 ? "enumerated" : "discovered",
			rte_rio_dev_count(td->mport));
}

/*
 * Host or agent (Port General Control). Linux's driver writes
 * Host|Master|Discovered on a host and 0 on an agent. lib/rio reads
 * Discovered as "enumerated already" and sets it itself when enumeration
 * completes, so a host sets Host|Master only. An agent clears Host and
 * keeps the rest: Discovered and Master Enable are its host's to set (see
 * rio_clear_locks in Linux's rio-scan.c), and a host may have enumerated
 * this port before the driver came up (another port of the same process,
 * or a driver restarted); clearing them would hide that and leave the
 * agent waiting for an enumeration that is over.
 */
static void
tsi721_port_role(struct tsi721_dev *td, bool host)
{
	uint32_t off = td->mport->phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR, v = 0;

	if (host) {
		v = RTE_RIO_PORT_GEN_HOST | RTE_RIO_PORT_GEN_MASTER;
	} else if (rte_rio_local_read_config_32(td->mport, off, &v) == 0) {
		v &= ~RTE_RIO_PORT_GEN_HOST;
	}
	rte_rio_local_write_config_32(td->mport, off, v);
}

int
tsi721_probe_common(const struct tsi721_probe_params *p)
{
	struct rte_rio_mport_conf conf;
	struct rte_rawdev *rawdev;
	struct tsi721_dev *td;
	int ret;

	rawdev = rte_rawdev_pmd_allocate(p->name, sizeof(*td), rte_socket_id());
	if (rawdev == NULL) {
		TSI_LOG(ERR, "%s: cannot allocate rawdev", p->name);
		return -ENOMEM;
	}
	rawdev->dev_ops = &tsi721_rawdev_ops;
	rawdev->device = p->device;
	rawdev->driver_name = p->model != NULL ? RTE_PMD_TSI721_MODEL_NAME :
		RTE_PMD_TSI721_DRIVER_NAME;
	td = rawdev->dev_private;
	strlcpy(td->name, p->name, sizeof(td->name));
	td->dev_id = rawdev->dev_id;
	td->socket_id = rawdev->socket_id;
	td->bar = p->bar;
	td->bar_ctx = p->bar_ctx;
	td->model = p->model;
	td->devid_size = p->devid_size;
	td->host_destid = p->host_destid;
	td->xstats_base = rte_zmalloc_socket("tsi721_xstats",
					     RTE_DIM(tsi721_xstats) * sizeof(uint64_t), 0,
					     td->socket_id);
	if (td->xstats_base == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = tsi721_hw_init(td);
	if (ret < 0)
		goto fail;

	memset(&conf, 0, sizeof(conf));
	conf.name = p->name;
	conf.ops = &tsi721_mport_ops;
	conf.priv = td;
	conf.devid_size = p->devid_size;
	conf.host_destid = p->host_destid;
	conf.port_index = 0;
	td->mport = rte_rio_mport_register(&conf);
	if (td->mport == NULL) {
		ret = -rte_errno;
		TSI_LOG(ERR, "%s: cannot register the mport: %s", p->name,
			rte_strerror(rte_errno));
		tsi721_hw_fini(td);
		goto fail;
	}
	tsi721_port_role(td, p->host_destid >= 0);
	TSI_LOG(INFO, "%s: %s, %u-bit device IDs, %s, link %s", p->name,
		p->model != NULL ? "model" : "PCI function", p->devid_size,
		p->host_destid >= 0 ? "host" : "agent", tsi721_link_up(td) ? "up" : "down");
	if (p->scan)
		tsi721_scan(td, p);
	return 0;
fail:
	rte_free(td->xstats_base);
	rte_rawdev_pmd_release(rawdev);
	return ret;
}

int
tsi721_remove_common(const char *name, void **bar_ctx)
{
	struct rte_rawdev *rawdev = rte_rawdev_pmd_get_named_dev(name);
	struct tsi721_dev *td;
	int ret;

	if (rawdev == NULL || rawdev->dev_ops != &tsi721_rawdev_ops)
		return -ENODEV;
	td = tsi721_priv(rawdev);
	/* An agent may still wait for its host; waits for a running attempt. */
	rte_rio_mport_scan_cancel(td->mport);
	ret = rte_rio_mport_unregister(td->mport);
	if (ret < 0) {
		TSI_LOG(ERR, "%s: cannot unregister the mport: %s", name, strerror(-ret));
		return ret;
	}
	tsi721_hw_fini(td);
	*bar_ctx = td->bar_ctx;
	rte_free(td->xstats_base);
	rte_rawdev_pmd_release(rawdev);
	return 0;
}

/* ------------------------------------------------------------------ */
/* PCI function                                                       */

struct tsi721_pci_bars {
	uint8_t *bar0;
	uint8_t *bar1;
};

static uint32_t
tsi721_mmio_read32(void *ctx, uint32_t off)
{
	const struct tsi721_pci_bars *b = ctx;

	return rte_read32(b->bar0 + off);
}

static void
tsi721_mmio_write32(void *ctx, uint32_t off, uint32_t val)
{
	const struct tsi721_pci_bars *b = ctx;

	rte_write32(val, b->bar0 + off);
}

static void
tsi721_mmio_db_write16(void *ctx, uint32_t off, uint16_t be_val)
{
	const struct tsi721_pci_bars *b = ctx;

	rte_write16(be_val, b->bar1 + off);
}

static const struct tsi721_bar_ops tsi721_mmio_ops = {
	.read32 = tsi721_mmio_read32,
	.write32 = tsi721_mmio_write32,
	.db_write16 = tsi721_mmio_db_write16,
};

static int
tsi721_pci_probe(struct rte_pci_driver *drv __rte_unused, struct rte_pci_device *pdev)
{
	struct tsi721_probe_params p;
	struct tsi721_pci_bars *bars;
	struct tsi721_devargs da;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return -ENOTSUP;
	ret = tsi721_devargs_parse(pdev->device.name, pdev->device.devargs != NULL ?
				   pdev->device.devargs->args : NULL, TSI721_DEVARGS_PCI, &da);
	if (ret < 0)
		return ret;
	if (pdev->mem_resource[0].addr == NULL ||
	    pdev->mem_resource[0].len < TSI721_BAR0_SIZE ||
	    pdev->mem_resource[1].addr == NULL ||
	    pdev->mem_resource[1].len < TSI721_BAR1_SIZE) {
		TSI_LOG(ERR, "%s: BAR0 (512 KiB registers) or BAR1 (16 MiB doorbells) not mapped",
			pdev->device.name);
		return -ENODEV;
	}
	bars = rte_zmalloc("tsi721_bars", sizeof(*bars), 0);
	if (bars == NULL)
		return -ENOMEM;
	bars->bar0 = pdev->mem_resource[0].addr;
	bars->bar1 = pdev->mem_resource[1].addr;
	memset(&p, 0, sizeof(p));
	p.name = pdev->device.name;
	p.device = &pdev->device;
	p.bar = &tsi721_mmio_ops;
	p.bar_ctx = bars;
	p.devid_size = da.devid_size;
	p.host_destid = da.host_destid;
	p.scan = da.scan;
	p.disc_timeout_ms = da.disc_timeout_ms;
	/* DMA: the part masters PCIe reads and writes of the rings. */
	rte_pci_set_bus_master(pdev, true);
	ret = tsi721_probe_common(&p);
	if (ret < 0)
		rte_free(bars);
	return ret;
}

static int
tsi721_pci_remove(struct rte_pci_device *pdev)
{
	void *bars;
	int ret;

	ret = tsi721_remove_common(pdev->device.name, &bars);
	if (ret == 0)
		rte_free(bars);
	return ret;
}

static const struct rte_pci_id tsi721_pci_ids[] = {
	{ RTE_PCI_DEVICE(TSI721_PCI_VENDOR_ID, TSI721_PCI_DEVICE_ID) },
	{ .vendor_id = 0 },
};

static struct rte_pci_driver tsi721_pci_drv = {
	.id_table = tsi721_pci_ids,
	.drv_flags = RTE_PCI_DRV_NEED_MAPPING,
	.probe = tsi721_pci_probe,
	.remove = tsi721_pci_remove,
};

RTE_PMD_REGISTER_PCI(raw_tsi721, tsi721_pci_drv);
RTE_PMD_REGISTER_PCI_TABLE(raw_tsi721, tsi721_pci_ids);
RTE_PMD_REGISTER_KMOD_DEP(raw_tsi721, "vfio-pci | uio_pci_generic");
RTE_PMD_REGISTER_PARAM_STRING(raw_tsi721,
	"host=<destid> "
	"devid_size=<8|16> "
	"scan=<0|1> "
	"disc_timeout=<ms>");
RTE_LOG_REGISTER_DEFAULT(tsi721_logtype, NOTICE);
