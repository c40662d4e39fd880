/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef TSI721_H
#define TSI721_H

/*
 * Internal interface of the tsi721 driver:
 *
 *   tsi721_regs.h    the part's registers and descriptor formats
 *   tsi721_mport.c   the mport ops on the part's engines (the driver proper)
 *   tsi721_rawdev.c  rawdev, xstats, devargs, PCI probe and the common probe
 *   tsi721_model.c   the register-level model (vdev tsi721_model<N>)
 *
 * The driver reaches the part only through struct tsi721_bar_ops: MMIO on
 * the BARs of a PCI function, or the model's accessors, which react to a
 * register access as the part does. Everything else (probe, rings, mport)
 * is one code path for both.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_log.h>
#include <rte_memzone.h>
#include <rte_spinlock.h>

#include "rio_driver.h"
#include "rte_rio_dev.h"
#include "tsi721_regs.h"

extern int tsi721_logtype;
#define TSI_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, tsi721_logtype, "tsi721: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/* Register access to the part's BAR0 and its doorbell BAR1. */
struct tsi721_model_stats;

struct tsi721_bar_ops {
	uint32_t (*read32)(void *ctx, uint32_t off);
	void (*write32)(void *ctx, uint32_t off, uint32_t val);
	/* BAR1: one 16-bit write of a big-endian value. */
	void (*db_write16)(void *ctx, uint32_t off, uint16_t be_val);
	/* The model's counters of what the part would reject (NULL on a PCI function). */
	void (*model_stats)(const void *ctx, struct tsi721_model_stats *st);
};

/* The model behind a device (tsi721_model.c); NULL on a PCI function. */
struct tsi721_model;

/* Counters of one messaging channel, single writer (its data path thread). */
struct tsi721_msg_stats {
	uint64_t msgs;
	uint64_t bytes;
	uint64_t errors;	/* tx: lost after acceptance or refused; rx: bad descriptors */
	uint64_t resets;	/* channel re-initialized after an abort */
};

/* Outbound mailbox: descriptor ring, one DMA buffer per slot, status FIFO. */
struct tsi721_omsg_ring {
	const struct rte_memzone *mz;	/* descriptors, then buffers, then status */
	struct tsi721_omsg_desc *desc;	/* size + 1: the last one links to the first */
	uint64_t desc_iova;
	uint8_t *bufs;			/* size * RTE_RIO_MAX_MSG_SIZE */
	uint64_t bufs_iova;
	uint64_t *sts;			/* sts_blocks * 8 entries */
	uint32_t sts_blocks;
	uint32_t sts_rdptr;		/* next status block to read */
	uint32_t size;			/* message slots, power of two */
	uint32_t head;			/* next slot to fill */
	uint32_t tail;			/* oldest slot not yet completed */
	uint32_t inflight;
	uint32_t wr_count;		/* value of DWRCNT: descriptors incl. links */
	uint64_t completed;		/* since the last outb_completion */
	struct tsi721_msg_stats st;
};

/* Inbound mailbox: free buffer queue and descriptor queue of channel 4 + mbox. */
struct tsi721_imsg_ring {
	const struct rte_memzone *mz;	/* free queue, then descriptor queue */
	uint64_t *fq;			/* size entries: buffer IOVAs */
	struct tsi721_imsg_desc *dq;	/* size entries */
	void **fq_va;			/* the caller's buffer of each free queue entry */
	uint32_t entries;		/* buffers the mailbox takes (lib/rio's ring size) */
	uint32_t size;			/* queue entries: a power of two above entries */
	uint32_t fq_wrptr;		/* next free queue entry to fill */
	uint32_t dq_rdptr;		/* next descriptor to read */
	uint32_t posted;		/* buffers in the free queue or being filled */
	uint16_t own_destid;
	struct tsi721_msg_stats st;
};

/* One device: a PCI function or a model. dev_private of its rawdev. */
struct tsi721_dev {
	char name[RTE_RIO_NAME_MAX_LEN];
	uint16_t dev_id;			/* rawdev */
	int socket_id;
	const struct tsi721_bar_ops *bar;
	void *bar_ctx;
	struct tsi721_model *model;		/* NULL: real part */
	struct rte_rio_mport *mport;
	uint8_t devid_size;
	uint8_t tt;				/* TSI721_TT_8 or TSI721_TT_16 */
	int32_t host_destid;

	rte_spinlock_t maint_lock;		/* serializes the maintenance channel */
	const struct rte_memzone *maint_mz;	/* 2 descriptors, then the status FIFO */
	struct tsi721_dma_desc *maint_desc;
	uint64_t maint_iova;
	uint64_t maint_ok;
	uint64_t maint_errors;

	rte_spinlock_t mem_lock;		/* serializes the data channel */
	const struct rte_memzone *mem_mz;	/* descriptor ring, status FIFO, bounce buffer */
	struct tsi721_dma_desc *mem_desc;	/* TSI721_MEM_DESCS + 1: the last one links */
	uint64_t mem_desc_iova;
	uint8_t *mem_buf;			/* what the part reads or writes */
	uint64_t mem_buf_iova;
	uint32_t mem_wr_count;			/* value of DWRCNT: descriptors incl. links */
	uint64_t mem_ok;			/* transfers */
	uint64_t mem_bytes;
	uint64_t mem_errors;
	/* Inbound windows: RapidIO base of each enabled one (size 0: free). */
	struct {
		uint64_t rio_addr;
		uint64_t size;
	} ibwin[TSI721_IBWIN_NUM];

	rte_spinlock_t odb_lock;		/* outbound doorbell result register */
	uint64_t dbell_tx;
	uint64_t dbell_tx_errors;
	const struct rte_memzone *idb_mz;
	struct tsi721_idb_entry *idb;
	uint32_t idb_size;
	uint32_t idb_rdptr;
	uint64_t dbell_rx;

	uint64_t pw_rx;
	uint64_t pw_discarded;			/* PW_DISC seen: the part dropped some */

	struct tsi721_omsg_ring omsg[RTE_RIO_MAX_MBOX];
	struct tsi721_imsg_ring imsg[RTE_RIO_MAX_MBOX];

	uint64_t *xstats_base;
};

static inline uint32_t
tsi721_rd(const struct tsi721_dev *td, uint32_t off)
{
	return td->bar->read32(td->bar_ctx, off);
}

static inline void
tsi721_wr(const struct tsi721_dev *td, uint32_t off, uint32_t val)
{
	td->bar->write32(td->bar_ctx, off, val);
}

/* tsi721_mport.c */
extern const struct rte_rio_mport_ops tsi721_mport_ops;
/* Put the part in a known state and set up maintenance and doorbells. */
int tsi721_hw_init(struct tsi721_dev *td);
void tsi721_hw_fini(struct tsi721_dev *td);
bool tsi721_link_up(struct tsi721_dev *td);

/* What the common probe needs: a PCI function or a model fills it. */
struct tsi721_probe_params {
	const char *name;
	struct rte_device *device;
	const struct tsi721_bar_ops *bar;
	void *bar_ctx;
	struct tsi721_model *model;
	uint8_t devid_size;
	int32_t host_destid;		/* RTE_RIO_NO_HOST: discover */
	bool scan;
	uint32_t disc_timeout_ms;
};

/* tsi721_devargs.c: devargs of a PCI function (model false) or of the model. */
#define TSI721_NAME_LEN		32
struct tsi721_devargs {
	char fabric[TSI721_NAME_LEN];	/* model: rio_sim fabric */
	char topology[256];		/* model: topology file or builtin:<shape> */
	char endpoint[TSI721_NAME_LEN];	/* model: endpoint name or index */
	int32_t host_destid;		/* RTE_RIO_NO_HOST: agent */
	uint8_t devid_size;		/* PCI function: 8 or 16 */
	bool scan;
	uint32_t disc_timeout_ms;
};
enum tsi721_devargs_kind {
	TSI721_DEVARGS_PCI = 1,		/* a PCI function */
	TSI721_DEVARGS_MODEL = 2,	/* vdev tsi721_model<N>: the model and this driver */
	TSI721_DEVARGS_BARE_MODEL = 4,	/* the model alone (rte_pmd_tsi721_model_open()) */
};
int tsi721_devargs_parse(const char *name, const char *args, enum tsi721_devargs_kind kind,
			 struct tsi721_devargs *da);

/* tsi721_rawdev.c */
int tsi721_probe_common(const struct tsi721_probe_params *p);
/* On success *bar_ctx is the probe's bar_ctx, for the caller to release. */
int tsi721_remove_common(const char *name, void **bar_ctx);

/* tsi721_model.c */
extern const struct tsi721_bar_ops tsi721_model_bar_ops;
struct tsi721_model_stats {
	uint64_t desc_bad;	/* descriptors the part refuses (type, size, fields) */
	uint64_t misaligned;	/* base addresses or buffers off their alignment */
	uint64_t overrun;	/* queue pointers written past what the queue holds */
	uint64_t dma_bad;	/* addresses outside host memory */
	uint64_t msg_tx;
	uint64_t msg_tx_retry;	/* RETRY responses received */
	uint64_t msg_rx;
	uint64_t dbell_tx;
	uint64_t dbell_rx;
	uint64_t dbell_filtered;
	uint64_t maint;
	uint64_t pw_rx;
	uint64_t mem;		/* data descriptors done */
};
void tsi721_model_free(struct tsi721_model *m);

#endif /* TSI721_H */
