/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dma_rio: a dmadev over the memory space of any RapidIO master port.
 *
 * One device moves data between local memory and the RapidIO memory space
 * of one target (destid= devarg) through the mport's I/O logical
 * transactions (lib/rio: rte_rio_mem_read() / rte_rio_mem_write()):
 *
 *   MEM_TO_DEV vchan: src local IOVA, dst RapidIO address (NWRITE, NWRITE_R
 *                     or SWRITE, write= devarg), fill as well;
 *   DEV_TO_MEM vchan: src RapidIO address, dst local IOVA (NREAD).
 *
 * The dmadev API knows PCIe ports only, so the device side of a vchan is
 * given as RTE_DMA_PORT_PCIE and its fields have no meaning here.
 *
 * rte_dma_submit() is the doorbell: the submitted operations run in order,
 * in the calling thread, before it returns (lib/rio's transactions are
 * synchronous; the mport pipelines the packets of one operation). No thread
 * of its own, so the device costs no core when idle. rte_dma_completed()
 * then reports them with the status each transaction ended in.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <rte_common.h>
#include <rte_dmadev_pmd.h>
#include <rte_eal.h>
#include <rte_kvargs.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "rte_rio.h"

RTE_LOG_REGISTER_DEFAULT(rio_dma_logtype, NOTICE);
#define RIO_DMA_LOG(level, ...) \
	rte_log(RTE_LOG_ ## level, rio_dma_logtype, \
		RTE_FMT("dma_rio: " RTE_FMT_HEAD(__VA_ARGS__, ) "\n", RTE_FMT_TAIL(__VA_ARGS__, )))

#define RIO_DMA_DEVARG_MPORT	"mport"
#define RIO_DMA_DEVARG_DESTID	"destid"
#define RIO_DMA_DEVARG_WRITE	"write"

#define RIO_DMA_MAX_VCHANS	8
#define RIO_DMA_MIN_DESC	32
#define RIO_DMA_MAX_DESC	4096
/* Copies run as one vectored transaction (rte_rio_mem_writev/readv) at most. */
#define RIO_DMA_BATCH		64
/* A fill is written from a local buffer of the pattern of this many bytes at a time. */
#define RIO_DMA_FILL_CHUNK	4096

static const char * const rio_dma_valid_args[] = {
	RIO_DMA_DEVARG_MPORT,
	RIO_DMA_DEVARG_DESTID,
	RIO_DMA_DEVARG_WRITE,
	NULL,
};

enum rio_dma_op {
	RIO_DMA_OP_COPY,
	RIO_DMA_OP_FILL,
};

/* One operation in a vchan's ring. */
struct rio_dma_job {
	uint64_t src;		/* IOVA or RapidIO address; the pattern of a fill */
	uint64_t dst;
	uint32_t len;
	uint8_t op;		/* enum rio_dma_op */
	uint16_t status;	/* enum rte_dma_status_code, once run */
};

struct rio_dma_vchan {
	struct rio_dma_job *ring;
	uint16_t nb_desc;	/* power of two */
	uint16_t mask;
	enum rte_dma_direction dir;
	/*
	 * Ring indexes as rte_dma_copy() returns them, wrapping at 2^16 (a
	 * multiple of nb_desc, so index & mask is always the slot):
	 * [reported, submitted) ran and wait for rte_dma_completed*(),
	 * [submitted, next) are enqueued and wait for rte_dma_submit().
	 */
	uint16_t next;
	uint16_t submitted;
	uint16_t reported;
	struct rte_dma_stats stats;
};

struct rio_dma_dev {
	char mport_name[RTE_DEV_NAME_MAX_LEN];
	struct rte_rio_mport *mport;	/* resolved when the device starts */
	uint16_t destid;
	enum rte_rio_mem_type write_type;
	bool va_iova;			/* IOVA as VA: no translation */
	bool started;
	uint16_t nb_vchans;
	struct rio_dma_vchan vchan[RIO_DMA_MAX_VCHANS];
};

/* ------------------------------------------------------------------ */
/* Data path                                                          */

/* Local memory of @len bytes at @iova, or NULL: not all of it DPDK memory. */
static inline void *
rio_dma_local(const struct rio_dma_dev *rd, rte_iova_t iova, uint32_t len)
{
	const struct rte_memseg_list *msl;
	void *va;

	if (!rd->va_iova)
		return rte_mem_iova2virt(iova);
	/* A device would fault on memory the IOMMU does not map; this one would crash. */
	va = (void *)(uintptr_t)iova;
	msl = rte_mem_virt2memseg_list(va);
	if (msl == NULL || RTE_PTR_DIFF(RTE_PTR_ADD(va, len), msl->base_va) > msl->len)
		return NULL;
	return va;
}

/* Status of an operation from what lib/rio returned for it. */
static uint16_t
rio_dma_status(int err, bool read)
{
	switch (err) {
	case 0:
		return RTE_DMA_STATUS_SUCCESSFUL;
	case -EIO:		/* ERROR response: no window at the target, or not all in one */
		return read ? RTE_DMA_STATUS_BUS_READ_ERROR : RTE_DMA_STATUS_BUS_WRITE_ERROR;
	case -ETIMEDOUT:	/* no response: no route, link down, target gone */
		return RTE_DMA_STATUS_DEV_LINK_ERROR;
	case -EAGAIN:		/* RETRY: the target was busy */
		return RTE_DMA_STATUS_BUS_ERROR;
	case -ERANGE:		/* beyond the mport's RapidIO address space */
		return RTE_DMA_STATUS_INVALID_ADDR;
	case -EINVAL:
		return RTE_DMA_STATUS_INVALID_LENGTH;
	default:		/* -EACCES Master Enable clear, -ENOTSUP, -ENODEV */
		return RTE_DMA_STATUS_ERROR_UNKNOWN;
	}
}

static int
rio_dma_fill(const struct rio_dma_dev *rd, uint64_t rio_addr, uint64_t pattern, uint32_t len)
{
	uint64_t chunk[RIO_DMA_FILL_CHUNK / sizeof(uint64_t)];
	uint32_t n;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(chunk); i++)
		chunk[i] = pattern;
	while (len > 0) {
		n = RTE_MIN(len, (uint32_t)sizeof(chunk));
		ret = rte_rio_mem_write(rd->mport, rd->destid, rio_addr, chunk, n, rd->write_type);
		if (ret < 0)
			return ret;
		rio_addr += n;
		len -= n;
	}
	return 0;
}

static uint16_t
rio_dma_run(const struct rio_dma_dev *rd, enum rte_dma_direction dir,
	    const struct rio_dma_job *j)
{
	bool read = dir == RTE_DMA_DIR_DEV_TO_MEM;
	void *local;

	if (rd->mport == NULL)
		return RTE_DMA_STATUS_ERROR_UNKNOWN;
	if (j->op == RIO_DMA_OP_FILL)
		return rio_dma_status(rio_dma_fill(rd, j->dst, j->src, j->len), false);
	local = rio_dma_local(rd, read ? j->dst : j->src, j->len);
	if (local == NULL)
		return read ? RTE_DMA_STATUS_INVALID_DST_ADDR : RTE_DMA_STATUS_INVALID_SRC_ADDR;
	if (read)
		return rio_dma_status(rte_rio_mem_read(rd->mport, rd->destid, j->src, local,
						       j->len), true);
	return rio_dma_status(rte_rio_mem_write(rd->mport, rd->destid, j->dst, local, j->len,
						rd->write_type), false);
}

static void
rio_dma_account(struct rio_dma_vchan *vc, struct rio_dma_job *j, uint16_t status)
{
	j->status = status;
	vc->stats.submitted++;
	vc->stats.completed++;
	if (status != RTE_DMA_STATUS_SUCCESSFUL)
		vc->stats.errors++;
}

/*
 * Run the copies from vc->submitted on as one vectored transaction, so that
 * their packets stream back to back as through a DMA engine's descriptor
 * chain; stop before a fill or a local address without memory. Returns how
 * many copies it ran, or -k: the next k operations must run one by one (a
 * fill, a lone copy, a bad address, or a batch that failed: memory writes
 * and reads can be repeated, and alone each gets its own status).
 */
static int
rio_dma_run_copies(const struct rio_dma_dev *rd, struct rio_dma_vchan *vc)
{
	struct rte_rio_mem_seg segs[RIO_DMA_BATCH];
	bool read = vc->dir == RTE_DMA_DIR_DEV_TO_MEM;
	const struct rio_dma_job *j;
	uint16_t n, idx = vc->submitted;
	int ret;

	for (n = 0; n < RIO_DMA_BATCH && idx != vc->next; n++, idx++) {
		j = &vc->ring[idx & vc->mask];
		if (j->op != RIO_DMA_OP_COPY)
			break;
		segs[n].buf = rio_dma_local(rd, read ? j->dst : j->src, j->len);
		if (segs[n].buf == NULL)
			break;
		segs[n].rio_addr = read ? j->src : j->dst;
		segs[n].len = j->len;
	}
	if (n < 2)
		return -1;
	ret = read ? rte_rio_mem_readv(rd->mport, rd->destid, segs, n) :
		rte_rio_mem_writev(rd->mport, rd->destid, segs, n, rd->write_type);
	if (ret < 0)
		return -(int)n;
	for (idx = 0; idx < n; idx++)
		rio_dma_account(vc, &vc->ring[(vc->submitted + idx) & vc->mask],
				RTE_DMA_STATUS_SUCCESSFUL);
	return n;
}

static int
rio_dma_submit(void *dev_private, uint16_t vchan)
{
	struct rio_dma_dev *rd = dev_private;
	struct rio_dma_vchan *vc = &rd->vchan[vchan];
	struct rio_dma_job *j;
	int n;

	while (vc->submitted != vc->next) {
		n = rd->mport != NULL ? rio_dma_run_copies(rd, vc) : -1;
		if (n > 0) {
			vc->submitted += n;
			continue;
		}
		for (; n < 0; n++, vc->submitted++) {
			j = &vc->ring[vc->submitted & vc->mask];
			rio_dma_account(vc, j, rio_dma_run(rd, vc->dir, j));
		}
	}
	return 0;
}

static inline int
rio_dma_enqueue(struct rio_dma_dev *rd, uint16_t vchan, uint8_t op, uint64_t src, uint64_t dst,
		uint32_t len, uint64_t flags)
{
	struct rio_dma_vchan *vc = &rd->vchan[vchan];
	struct rio_dma_job *j;
	uint16_t idx;

	if (len == 0)
		return -EINVAL;
	if ((uint16_t)(vc->next - vc->reported) == vc->nb_desc)
		return -ENOSPC;
	idx = vc->next++;
	j = &vc->ring[idx & vc->mask];
	j->op = op;
	j->src = src;
	j->dst = dst;
	j->len = len;
	/* Fences need nothing: operations run one after the other. */
	if (flags & RTE_DMA_OP_FLAG_SUBMIT)
		rio_dma_submit(rd, vchan);
	return idx;
}

static int
rio_dma_copy(void *dev_private, uint16_t vchan, rte_iova_t src, rte_iova_t dst, uint32_t length,
	     uint64_t flags)
{
	struct rio_dma_dev *rd = dev_private;

	/* SWRITE carries whole double-words only (RapidIO Part 1). */
	if (rd->vchan[vchan].dir == RTE_DMA_DIR_MEM_TO_DEV &&
	    rd->write_type == RTE_RIO_MEM_SWRITE && ((dst | length) & 7) != 0)
		return -EINVAL;
	return rio_dma_enqueue(rd, vchan, RIO_DMA_OP_COPY, src, dst, length, flags);
}

static int
rio_dma_fill_op(void *dev_private, uint16_t vchan, uint64_t pattern, rte_iova_t dst,
		uint32_t length, uint64_t flags)
{
	struct rio_dma_dev *rd = dev_private;

	/* A fill writes the RapidIO side; local memory is the CPU's to fill. */
	if (rd->vchan[vchan].dir != RTE_DMA_DIR_MEM_TO_DEV)
		return -ENOTSUP;
	if (rd->write_type == RTE_RIO_MEM_SWRITE && ((dst | length) & 7) != 0)
		return -EINVAL;
	return rio_dma_enqueue(rd, vchan, RIO_DMA_OP_FILL, pattern, dst, length, flags);
}

static uint16_t
rio_dma_completed(void *dev_private, uint16_t vchan, const uint16_t nb_cpls, uint16_t *last_idx,
		  bool *has_error)
{
	struct rio_dma_vchan *vc = &((struct rio_dma_dev *)dev_private)->vchan[vchan];
	uint16_t n = 0;

	*has_error = false;
	while (n < nb_cpls && vc->reported != vc->submitted) {
		if (vc->ring[vc->reported & vc->mask].status != RTE_DMA_STATUS_SUCCESSFUL) {
			/* Stop before it: rte_dma_completed_status() reports it. */
			*has_error = true;
			break;
		}
		vc->reported++;
		n++;
	}
	*last_idx = (uint16_t)(vc->reported - 1);
	return n;
}

static uint16_t
rio_dma_completed_status(void *dev_private, uint16_t vchan, const uint16_t nb_cpls,
			 uint16_t *last_idx, enum rte_dma_status_code *status)
{
	struct rio_dma_vchan *vc = &((struct rio_dma_dev *)dev_private)->vchan[vchan];
	uint16_t n = 0;

	while (n < nb_cpls && vc->reported != vc->submitted) {
		status[n++] = vc->ring[vc->reported & vc->mask].status;
		vc->reported++;
	}
	*last_idx = (uint16_t)(vc->reported - 1);
	return n;
}

static uint16_t
rio_dma_burst_capacity(const void *dev_private, uint16_t vchan)
{
	const struct rio_dma_vchan *vc = &((const struct rio_dma_dev *)dev_private)->vchan[vchan];

	return vc->nb_desc - (uint16_t)(vc->next - vc->reported);
}

/* ------------------------------------------------------------------ */
/* Control path                                                       */

static int
rio_dma_info_get(const struct rte_dma_dev *dev, struct rte_dma_info *info, uint32_t info_sz)
{
	const struct rio_dma_dev *rd = dev->data->dev_private;

	RTE_SET_USED(info_sz);
	info->dev_capa = RTE_DMA_CAPA_MEM_TO_DEV | RTE_DMA_CAPA_DEV_TO_MEM |
		RTE_DMA_CAPA_OPS_COPY | RTE_DMA_CAPA_OPS_FILL;
	info->max_vchans = RIO_DMA_MAX_VCHANS;
	info->max_desc = RIO_DMA_MAX_DESC;
	info->min_desc = RIO_DMA_MIN_DESC;
	info->max_sges = 0;
	info->nb_vchans = rd->nb_vchans;
	return 0;
}

static void
rio_dma_vchans_free(struct rio_dma_dev *rd)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rd->vchan); i++) {
		rte_free(rd->vchan[i].ring);
		memset(&rd->vchan[i], 0, sizeof(rd->vchan[i]));
	}
	rd->nb_vchans = 0;
}

static int
rio_dma_configure(struct rte_dma_dev *dev, const struct rte_dma_conf *conf, uint32_t conf_sz)
{
	struct rio_dma_dev *rd = dev->data->dev_private;

	RTE_SET_USED(conf_sz);
	if (conf->enable_silent) {
		RIO_DMA_LOG(ERR, "%s: silent mode is not supported", dev->data->dev_name);
		return -EINVAL;
	}
	rio_dma_vchans_free(rd);
	rd->nb_vchans = conf->nb_vchans;
	return 0;
}

static int
rio_dma_vchan_setup(struct rte_dma_dev *dev, uint16_t vchan, const struct rte_dma_vchan_conf *conf,
		    uint32_t conf_sz)
{
	struct rio_dma_dev *rd = dev->data->dev_private;
	struct rio_dma_vchan *vc = &rd->vchan[vchan];
	const struct rte_dma_port_param *dev_port, *mem_port;
	struct rio_dma_job *ring;

	RTE_SET_USED(conf_sz);
	if (!rte_is_power_of_2(conf->nb_desc)) {
		RIO_DMA_LOG(ERR, "%s: nb_desc %u is not a power of two", dev->data->dev_name,
			    conf->nb_desc);
		return -EINVAL;
	}
	if (conf->direction == RTE_DMA_DIR_MEM_TO_DEV) {
		dev_port = &conf->dst_port;
		mem_port = &conf->src_port;
	} else {
		dev_port = &conf->src_port;
		mem_port = &conf->dst_port;
	}
	/* The framework allowed only the directions of dev_capa. */
	if (dev_port->port_type != RTE_DMA_PORT_PCIE || mem_port->port_type != RTE_DMA_PORT_NONE) {
		RIO_DMA_LOG(ERR, "%s: vchan %u: the RapidIO side is given as a PCIe port and the "
			    "memory side as none", dev->data->dev_name, vchan);
		return -EINVAL;
	}
	ring = rte_zmalloc_socket(dev->data->dev_name, sizeof(*ring) * conf->nb_desc,
				  RTE_CACHE_LINE_SIZE, dev->device->numa_node);
	if (ring == NULL)
		return -ENOMEM;
	rte_free(vc->ring);
	memset(vc, 0, sizeof(*vc));
	vc->ring = ring;
	vc->nb_desc = conf->nb_desc;
	vc->mask = conf->nb_desc - 1;
	vc->dir = conf->direction;
	return 0;
}

static int
rio_dma_start(struct rte_dma_dev *dev)
{
	struct rio_dma_dev *rd = dev->data->dev_private;
	struct rte_rio_mport_info info;
	struct rte_rio_mport *mport;

	/* Found again at each start: the mport may have been re-created meanwhile. */
	mport = rte_rio_mport_find(rd->mport_name);
	if (mport == NULL || rte_rio_mport_info_get(mport, &info) < 0) {
		RIO_DMA_LOG(ERR, "%s: no RapidIO master port %s", dev->data->dev_name,
			    rd->mport_name);
		return -ENODEV;
	}
	if (rd->destid >= RTE_RIO_MAX_DESTIDS(info.devid_size)) {
		RIO_DMA_LOG(ERR, "%s: destid 0x%x too large for the %u-bit IDs of %s",
			    dev->data->dev_name, rd->destid, info.devid_size, rd->mport_name);
		return -EINVAL;
	}
	rd->mport = mport;
	rd->started = true;
	return 0;
}

static int
rio_dma_stop(struct rte_dma_dev *dev)
{
	struct rio_dma_dev *rd = dev->data->dev_private;

	/* Submitted operations already ran; nothing is in flight. */
	rd->mport = NULL;
	rd->started = false;
	return 0;
}

static int
rio_dma_close(struct rte_dma_dev *dev)
{
	rio_dma_vchans_free(dev->data->dev_private);
	return 0;
}

static int
rio_dma_stats_get(const struct rte_dma_dev *dev, uint16_t vchan, struct rte_dma_stats *stats,
		  uint32_t stats_sz)
{
	const struct rio_dma_dev *rd = dev->data->dev_private;
	unsigned int i;

	RTE_SET_USED(stats_sz);
	if (vchan != RTE_DMA_ALL_VCHAN) {
		*stats = rd->vchan[vchan].stats;
		return 0;
	}
	memset(stats, 0, sizeof(*stats));
	for (i = 0; i < rd->nb_vchans; i++) {
		stats->submitted += rd->vchan[i].stats.submitted;
		stats->completed += rd->vchan[i].stats.completed;
		stats->errors += rd->vchan[i].stats.errors;
	}
	return 0;
}

static int
rio_dma_stats_reset(struct rte_dma_dev *dev, uint16_t vchan)
{
	struct rio_dma_dev *rd = dev->data->dev_private;
	unsigned int i;

	for (i = 0; i < rd->nb_vchans; i++)
		if (vchan == RTE_DMA_ALL_VCHAN || vchan == i)
			memset(&rd->vchan[i].stats, 0, sizeof(rd->vchan[i].stats));
	return 0;
}

static int
rio_dma_vchan_status(const struct rte_dma_dev *dev, uint16_t vchan,
		     enum rte_dma_vchan_status *status)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(vchan);
	/* Operations run inside rte_dma_submit(): between calls nothing is active. */
	*status = RTE_DMA_VCHAN_IDLE;
	return 0;
}

static const char *
rio_dma_write_name(enum rte_rio_mem_type t)
{
	switch (t) {
	case RTE_RIO_MEM_NWRITE_R:
		return "nwrite_r";
	case RTE_RIO_MEM_SWRITE:
		return "swrite";
	default:
		return "nwrite";
	}
}

static int
rio_dma_dump(const struct rte_dma_dev *dev, FILE *f)
{
	const struct rio_dma_dev *rd = dev->data->dev_private;
	const struct rio_dma_vchan *vc;
	unsigned int i;

	fprintf(f, "  mport: %s, destid: 0x%x, writes: %s\n", rd->mport_name, rd->destid,
		rio_dma_write_name(rd->write_type));
	for (i = 0; i < rd->nb_vchans; i++) {
		vc = &rd->vchan[i];
		fprintf(f, "  vchan %u: %s, %u descriptors, %u waiting for submit, "
			"%u for completion\n", i,
			vc->dir == RTE_DMA_DIR_DEV_TO_MEM ? "dev_to_mem (NREAD)" : "mem_to_dev",
			vc->nb_desc, (uint16_t)(vc->next - vc->submitted),
			(uint16_t)(vc->submitted - vc->reported));
	}
	return 0;
}

static const struct rte_dma_dev_ops rio_dma_ops = {
	.dev_info_get = rio_dma_info_get,
	.dev_configure = rio_dma_configure,
	.dev_start = rio_dma_start,
	.dev_stop = rio_dma_stop,
	.dev_close = rio_dma_close,
	.vchan_setup = rio_dma_vchan_setup,
	.stats_get = rio_dma_stats_get,
	.stats_reset = rio_dma_stats_reset,
	.vchan_status = rio_dma_vchan_status,
	.dev_dump = rio_dma_dump,
};

/* ------------------------------------------------------------------ */
/* Probe                                                              */

static int
rio_dma_parse_mport(const char *key __rte_unused, const char *value, void *opaque)
{
	struct rio_dma_dev *rd = opaque;

	if (value[0] == '\0' || strlen(value) >= sizeof(rd->mport_name))
		return -EINVAL;
	strcpy(rd->mport_name, value);
	return 0;
}

static int
rio_dma_parse_destid(const char *key __rte_unused, const char *value, void *opaque)
{
	struct rio_dma_dev *rd = opaque;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 0);
	if (errno != 0 || end == value || *end != '\0' || value[0] == '-' || v > UINT16_MAX)
		return -EINVAL;
	rd->destid = (uint16_t)v;
	return 0;
}

static int
rio_dma_parse_write(const char *key __rte_unused, const char *value, void *opaque)
{
	static const enum rte_rio_mem_type types[] = {
		RTE_RIO_MEM_NWRITE, RTE_RIO_MEM_NWRITE_R, RTE_RIO_MEM_SWRITE,
	};
	struct rio_dma_dev *rd = opaque;
	unsigned int i;

	for (i = 0; i < RTE_DIM(types); i++) {
		if (strcmp(value, rio_dma_write_name(types[i])) == 0) {
			rd->write_type = types[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int
rio_dma_parse_args(const char *name, const char *args, struct rio_dma_dev *rd)
{
	struct rte_kvargs *kvlist;
	int ret = -EINVAL;

	rd->write_type = RTE_RIO_MEM_NWRITE;
	kvlist = rte_kvargs_parse(args != NULL ? args : "", rio_dma_valid_args);
	if (kvlist == NULL) {
		RIO_DMA_LOG(ERR, "%s: bad devargs \"%s\" (known: mport, destid, write)", name,
			    args);
		return -EINVAL;
	}
	if (rte_kvargs_count(kvlist, RIO_DMA_DEVARG_DESTID) != 1) {
		RIO_DMA_LOG(ERR, "%s: destid=<target device ID> is required, once", name);
		goto out;
	}
	if (rte_kvargs_count(kvlist, RIO_DMA_DEVARG_MPORT) > 1 ||
	    rte_kvargs_count(kvlist, RIO_DMA_DEVARG_WRITE) > 1) {
		RIO_DMA_LOG(ERR, "%s: mport and write may be given once", name);
		goto out;
	}
	if (rte_kvargs_process(kvlist, RIO_DMA_DEVARG_DESTID, rio_dma_parse_destid, rd) < 0) {
		RIO_DMA_LOG(ERR, "%s: destid: a device ID of 0 to 0xffff", name);
		goto out;
	}
	if (rte_kvargs_process(kvlist, RIO_DMA_DEVARG_WRITE, rio_dma_parse_write, rd) < 0) {
		RIO_DMA_LOG(ERR, "%s: write: nwrite, nwrite_r or swrite", name);
		goto out;
	}
	if (rte_kvargs_process(kvlist, RIO_DMA_DEVARG_MPORT, rio_dma_parse_mport, rd) < 0) {
		RIO_DMA_LOG(ERR, "%s: mport: the name of a RapidIO master port", name);
		goto out;
	}
	ret = 0;
out:
	rte_kvargs_free(kvlist);
	return ret;
}

static int
rio_dma_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_rio_mport *mport;
	struct rio_dma_dev cfg;
	struct rte_dma_dev *dev;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		RIO_DMA_LOG(ERR, "%s: only a primary process can create the device", name);
		return -ENOTSUP;
	}
	memset(&cfg, 0, sizeof(cfg));
	ret = rio_dma_parse_args(name, rte_vdev_device_args(vdev), &cfg);
	if (ret < 0)
		return ret;
	if (cfg.mport_name[0] == '\0') {
		if (rte_rio_mport_count() != 1) {
			RIO_DMA_LOG(ERR, "%s: %u master ports: name one with mport=", name,
				    rte_rio_mport_count());
			return -EINVAL;
		}
		mport = rte_rio_mport_get(0);
		if (mport == NULL)
			return -ENODEV;
		strlcpy(cfg.mport_name, rte_rio_mport_name(mport), sizeof(cfg.mport_name));
	} else if (rte_rio_mport_find(cfg.mport_name) == NULL) {
		RIO_DMA_LOG(ERR, "%s: no RapidIO master port %s (its --vdev comes before %s's)",
			    name, cfg.mport_name, name);
		return -ENODEV;
	}
	cfg.va_iova = rte_eal_iova_mode() == RTE_IOVA_VA;

	dev = rte_dma_pmd_allocate(name, rte_socket_id(), sizeof(struct rio_dma_dev));
	if (dev == NULL)
		return -ENOMEM;
	memcpy(dev->data->dev_private, &cfg, sizeof(cfg));
	dev->device = &vdev->device;
	dev->dev_ops = &rio_dma_ops;
	dev->fp_obj->dev_private = dev->data->dev_private;
	dev->fp_obj->copy = rio_dma_copy;
	dev->fp_obj->fill = rio_dma_fill_op;
	dev->fp_obj->submit = rio_dma_submit;
	dev->fp_obj->completed = rio_dma_completed;
	dev->fp_obj->completed_status = rio_dma_completed_status;
	dev->fp_obj->burst_capacity = rio_dma_burst_capacity;
	dev->state = RTE_DMA_DEV_READY;
	RIO_DMA_LOG(INFO, "%s: mport %s, destid 0x%x, writes %s", name, cfg.mport_name,
		    cfg.destid, rio_dma_write_name(cfg.write_type));
	return 0;
}

static int
rio_dma_remove(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	int dev_id = rte_dma_get_dev_id_by_name(name);

	const struct rio_dma_dev *rd;

	if (dev_id < 0)
		return -ENODEV;
	rd = rte_dma_fp_objs[dev_id].dev_private;
	/* rte_dma_close() refuses a started device. */
	if (rd->started)
		rte_dma_stop((int16_t)dev_id);
	return rte_dma_pmd_release(name);
}

static struct rte_vdev_driver rio_dma_driver = {
	.probe = rio_dma_probe,
	.remove = rio_dma_remove,
};

RTE_PMD_REGISTER_VDEV(dma_rio, rio_dma_driver);
RTE_PMD_REGISTER_PARAM_STRING(dma_rio,
	RIO_DMA_DEVARG_DESTID "=<target device ID> "
	RIO_DMA_DEVARG_MPORT "=<master port name> "
	RIO_DMA_DEVARG_WRITE "=nwrite|nwrite_r|swrite");
