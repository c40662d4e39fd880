/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Register-level model of the Tsi721 (vdev tsi721_model<N>).
 *
 * BAR0 is a register file; the driver reaches it through accessors that
 * react to each access as the part does: a write of a descriptor count
 * runs that engine over the host's ring, a read of a write pointer or a
 * status register lets the engine catch up with what arrived. No thread
 * polls: the model advances only when the driver touches a register, as a
 * polled driver does on every burst, so it costs no core.
 *
 * The engines read and write host memory by IOVA (descriptor rings, free
 * buffer queues, status FIFOs) and check what the part rejects: bad
 * descriptors, misaligned bases and buffers, queue pointers moved past what
 * the queue holds, addresses outside host memory. Each is counted.
 *
 * The SRIO side is an endpoint of a rio_sim fabric, driven through lib/rio's
 * public API on a rio_sim mport that the model creates and hides from the
 * registry (rte_rio_mport_hide()): the model depends on nothing inside
 * rio_sim, only on what any mport user sees. The part's own configuration
 * registers (BAR0 below 0x10000) are that endpoint's configuration space, so
 * the local view and a remote host's maintenance view are one.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_driver.h>
#include <bus_vdev_driver.h>
#include <rte_alarm.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_rawdev.h>
#include <rte_string_fns.h>

#include <rte_pmd_rio_sim.h>

#include "tsi721.h"
#include "rte_pmd_tsi721.h"
#include "rte_pmd_tsi721_model.h"

#define MODEL_REGS		(TSI721_BAR0_SIZE / sizeof(uint32_t))
#define MODEL_BURST		32
#define MODEL_IB_ENTRIES	512	/* receive buffers lent to the SRIO side per mailbox */
/*
 * Messages the SRIO side of one outbound mailbox holds in flight. The
 * manual is not available here; Linux's driver gives an engine a ring of
 * 32 to 512 descriptors (TSI721_OMSGD_RING_SIZE): the largest ring.
 */
#define MODEL_OB_ENTRIES	512
/* Doorbells the SRIO side (a rio_sim endpoint) can hold: RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH. */
#define MODEL_SRIO_DBELLS	256
/*
 * RETRY responses in a row after which a channel with RETRY_THR set gives
 * up on a message. The part's threshold is not in the sources this model
 * follows; the value only has to be finite.
 */
#define MODEL_RETRY_LIMIT	1024
/* While a message waits for a busy target, the engine retries this often by itself. */
#define MODEL_RETRY_US		100
/* IOVA-contiguous ranges of host memory the engines remember. */
#define MODEL_XLAT_MAX		16

/*
 * Completion status (STS CS) the model reports on an abort. The part's own
 * encoding is not in the sources this model follows; the driver maps these
 * and treats any other value as an error response.
 */
#define MODEL_CS_BAD_DESC	0x01
#define MODEL_CS_TIMEOUT	0x02
#define MODEL_CS_ERROR		0x03
#define MODEL_CS_RETRY		0x04
#define MODEL_CS_DMA		0x05
#define MODEL_CS_MISALIGNED	0x06

/* Block DMA or outbound messaging channel: a descriptor walker. */
struct model_dma_chan {
	rte_spinlock_t lock;
	bool running;
	bool aborted;
	uint32_t wrcnt;		/* host's DWRCNT */
	uint32_t rdcnt;		/* descriptors processed (DRDCNT) */
	uint64_t cur;		/* IOVA of the next descriptor */
	uint32_t sts_wp;	/* status FIFO block being filled */
	uint32_t sts_idx;	/* entries in it */
	uint32_t sts_blocks;
	uint32_t retries;	/* RETRY responses in a row for the head message */
	uint32_t ring_len;	/* descriptors up to the link back to the base; 0: not seen */
	uint32_t since_base;	/* descriptors since the base */
};

/* Inbound messaging channel. */
struct model_ib_chan {
	rte_spinlock_t lock;
	bool running;
	uint32_t fq_size, dq_size;
	uint32_t fqrp, fqwp;	/* free queue pointers */
	uint32_t dqrp, dqwr;	/* descriptor queue pointers */
	bool srio_open;
	/* Host buffers lent to the SRIO side, in the order it fills them. */
	uint64_t lent_iova[MODEL_IB_ENTRIES];
	void *lent_va[MODEL_IB_ENTRIES];
	uint32_t lent_head, lent_count;
};

/* One IOVA-contiguous range of host memory. */
struct model_xlat {
	uint64_t iova;
	uint64_t len;
	uint8_t *va;
};

struct tsi721_model {
	char name[RTE_RIO_NAME_MAX_LEN];
	char srio_name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *srio;	/* hidden rio_sim mport: the SRIO side */
	struct rte_vdev_device *srio_dev;	/* its rio_sim vdev */
	uint16_t srio_raw;		/* and its rawdev */
	uint64_t retry_gen_base;	/* RETRY_GEN_CNT: RETRYs answered before its last write */
	uint8_t devid_size;
	uint32_t *regs;			/* BAR0 */

	rte_spinlock_t misc_lock;	/* doorbell queue, port-write capture */
	bool idq_running;
	uint32_t idq_size, idq_rp, idq_wp;
	uint64_t idq_base;
	uint32_t zone_lut[TSI721_PC2SR_WINDOWS * TSI721_PC2SR_ZONES][3];

	/* Inbound windows: what is mapped on the SRIO side (ibwin_lock). */
	rte_spinlock_t ibwin_lock;
	struct {
		bool on;
		uint64_t rio_addr;
		uint64_t size;
	} ibwin[TSI721_IBWIN_NUM];

	struct model_dma_chan bdma[8];
	struct model_dma_chan ob[TSI721_MSG_CHANNELS];
	struct model_ib_chan ib[TSI721_MSG_CHANNELS];
	rte_spinlock_t srio_send_lock[RTE_RIO_MAX_MBOX];
	uint32_t retry_armed;		/* a retry alarm is set */
	bool freeing;
	bool srio_outb_open[RTE_RIO_MAX_MBOX];

	/*
	 * Translations of host memory, append-only and read without a lock
	 * (published by n_xlat); emptied when DPDK frees memory.
	 */
	rte_spinlock_t xlat_lock;
	uint32_t n_xlat;
	bool mem_cb;
	struct model_xlat xlat[MODEL_XLAT_MAX];

	struct tsi721_model_stats st;	/* relaxed atomics: engines run in any thread */
};

static inline void
model_count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static inline uint32_t
model_reg(const struct tsi721_model *m, uint32_t off)
{
	return __atomic_load_n(&m->regs[off / 4], __ATOMIC_RELAXED);
}

static inline void
model_reg_set(struct tsi721_model *m, uint32_t off, uint32_t v)
{
	__atomic_store_n(&m->regs[off / 4], v, __ATOMIC_RELAXED);
}

static inline void
model_reg_or(struct tsi721_model *m, uint32_t off, uint32_t bits)
{
	__atomic_fetch_or(&m->regs[off / 4], bits, __ATOMIC_RELAXED);
}

static inline uint64_t
model_reg64(const struct tsi721_model *m, uint32_t off_lo, uint32_t off_hi, uint32_t mask)
{
	return ((uint64_t)model_reg(m, off_hi) << 32) | (model_reg(m, off_lo) & mask);
}

struct model_xlat_query {
	uint64_t iova;
	struct model_xlat found;
};

static int
model_xlat_walk(const struct rte_memseg_list *msl __rte_unused, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	struct model_xlat_query *q = arg;

	if (ms->iova == RTE_BAD_IOVA || q->iova < ms->iova || q->iova - ms->iova >= len)
		return 0;
	q->found.iova = ms->iova;
	q->found.len = len;
	q->found.va = ms->addr;
	return 1;
}

/* DPDK freed memory: forget every translation. */
static void
model_mem_event(enum rte_mem_event type, const void *addr __rte_unused, size_t len __rte_unused,
		void *arg)
{
	struct tsi721_model *m = arg;

	if (type != RTE_MEM_EVENT_FREE)
		return;
	rte_spinlock_lock(&m->xlat_lock);
	__atomic_store_n(&m->n_xlat, 0, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&m->xlat_lock);
}

/*
 * Host memory at @iova for @len bytes, as the part's DMA reaches it; NULL
 * when any of it is outside host memory (counted). The range must be
 * IOVA-contiguous.
 */
static void *
model_dma_lookup(struct tsi721_model *m, uint64_t iova, size_t len)
{
	uint32_t i, n = __atomic_load_n(&m->n_xlat, __ATOMIC_ACQUIRE);
	struct model_xlat_query q = { .iova = iova };

	for (i = 0; i < n; i++) {
		const struct model_xlat *e = &m->xlat[i];

		if (iova - e->iova < e->len && len <= e->len - (iova - e->iova))
			return e->va + (iova - e->iova);
	}
	if (iova == 0 || iova == RTE_BAD_IOVA || rte_memseg_contig_walk(model_xlat_walk, &q) != 1 ||
	    len > q.found.len - (iova - q.found.iova))
		return NULL;
	rte_spinlock_lock(&m->xlat_lock);
	n = m->n_xlat;
	if (n < MODEL_XLAT_MAX) {
		m->xlat[n] = q.found;
		__atomic_store_n(&m->n_xlat, n + 1, __ATOMIC_RELEASE);
	}
	rte_spinlock_unlock(&m->xlat_lock);
	return q.found.va + (iova - q.found.iova);
}

static void *
model_dma(struct tsi721_model *m, uint64_t iova, size_t len)
{
	void *va = model_dma_lookup(m, iova, len);

	if (va == NULL)
		model_count(&m->st.dma_bad);
	return va;
}

/* ------------------------------------------------------------------ */
/* Descriptor status FIFO (shared by block DMA and outbound messaging) */

/*
 * Room for @n more status entries? Blocks the host has not released stop
 * the engine.
 */
static bool
model_sts_room(const struct tsi721_model *m, const struct model_dma_chan *c, uint32_t dsrp_off,
	       uint32_t n)
{
	uint32_t rp = model_reg(m, dsrp_off) % c->sts_blocks;
	uint32_t used = (c->sts_wp - rp + c->sts_blocks) % c->sts_blocks;
	uint32_t need = (c->sts_idx + n + TSI721_STS_BLOCK_ENTRIES - 1) / TSI721_STS_BLOCK_ENTRIES;

	return used + need < c->sts_blocks;
}

static void
model_sts_put(struct tsi721_model *m, struct model_dma_chan *c, uint64_t sts_base,
	      uint32_t dswp_off, uint64_t desc_iova)
{
	uint64_t *blk = model_dma(m, sts_base + (uint64_t)c->sts_wp * TSI721_STS_BLOCK_SIZE,
				  TSI721_STS_BLOCK_SIZE);

	if (blk == NULL)
		return;
	blk[c->sts_idx] = rte_cpu_to_le_64(desc_iova);
	if (++c->sts_idx == TSI721_STS_BLOCK_ENTRIES) {
		c->sts_idx = 0;
		c->sts_wp = (c->sts_wp + 1) % c->sts_blocks;
		model_reg_set(m, dswp_off, c->sts_wp);
	}
}

/* End of a run: the next completion goes to a fresh block, as the host reads blocks whole. */
static void
model_sts_close(struct tsi721_model *m, struct model_dma_chan *c, uint32_t dswp_off)
{
	if (c->sts_idx == 0)
		return;
	c->sts_idx = 0;
	c->sts_wp = (c->sts_wp + 1) % c->sts_blocks;
	model_reg_set(m, dswp_off, c->sts_wp);
}

/* Channel registers of block DMA channel @ch or outbound messaging channel @ch. */
struct model_chan_regs {
	uint32_t dwrcnt, drdcnt, ctl, intr, sts, dptrl, dptrh, dsbl, dsbh, dssz, dsrp, dswp;
	uint32_t dptr_mask, link_dtype;
};

static void
model_bdma_regs(unsigned int ch, struct model_chan_regs *r)
{
	uint32_t b = TSI721_DMAC_BASE(ch);

	*r = (struct model_chan_regs){
		.dwrcnt = b + TSI721_DMAC_DWRCNT, .drdcnt = b + TSI721_DMAC_DRDCNT,
		.ctl = b + TSI721_DMAC_CTL, .intr = b + TSI721_DMAC_INT,
		.sts = b + TSI721_DMAC_STS, .dptrl = b + TSI721_DMAC_DPTRL,
		.dptrh = b + TSI721_DMAC_DPTRH, .dsbl = b + TSI721_DMAC_DSBL,
		.dsbh = b + TSI721_DMAC_DSBH, .dssz = b + TSI721_DMAC_DSSZ,
		.dsrp = b + TSI721_DMAC_DSRP, .dswp = b + TSI721_DMAC_DSWP,
		.dptr_mask = TSI721_DMAC_DPTRL_MASK, .link_dtype = TSI721_DTYPE_BDMA_LINK,
	};
}

static void
model_ob_regs(unsigned int ch, struct model_chan_regs *r)
{
	*r = (struct model_chan_regs){
		.dwrcnt = TSI721_OBDMAC_DWRCNT(ch), .drdcnt = TSI721_OBDMAC_DRDCNT(ch),
		.ctl = TSI721_OBDMAC_CTL(ch), .intr = TSI721_OBDMAC_INT(ch),
		.sts = TSI721_OBDMAC_STS(ch), .dptrl = TSI721_OBDMAC_DPTRL(ch),
		.dptrh = TSI721_OBDMAC_DPTRH(ch), .dsbl = TSI721_OBDMAC_DSBL(ch),
		.dsbh = TSI721_OBDMAC_DSBH(ch), .dssz = TSI721_OBDMAC_DSSZ(ch),
		.dsrp = TSI721_OBDMAC_DSRP(ch), .dswp = TSI721_OBDMAC_DSWP(ch),
		.dptr_mask = TSI721_OBDMAC_DPTRL_MASK, .link_dtype = TSI721_DTYPE_OMSG_LINK,
	};
}

static void
model_chan_abort(struct tsi721_model *m, struct model_dma_chan *c,
		 const struct model_chan_regs *r, uint32_t cs)
{
	c->aborted = true;
	c->running = false;
	model_reg_set(m, r->sts, TSI721_DMAC_STS_ABORT | (cs << TSI721_DMAC_STS_CS_SHIFT));
	model_reg_or(m, r->intr, TSI721_DMAC_INT_ERR);
}

/*
 * INIT: the channel restarts at its descriptor pointer with empty counts.
 * A base that is not aligned as the part requires keeps it stopped.
 */
static void
model_chan_init(struct tsi721_model *m, struct model_dma_chan *c, const struct model_chan_regs *r)
{
	uint32_t dptrl = model_reg(m, r->dptrl), dsbl = model_reg(m, r->dsbl);
	uint32_t dssz = model_reg(m, r->dssz) & TSI721_QSIZE_FIELD;

	memset(&c->wrcnt, 0, sizeof(*c) - offsetof(struct model_dma_chan, wrcnt));
	c->aborted = false;
	model_reg_set(m, r->dwrcnt, 0);
	model_reg_set(m, r->drdcnt, 0);
	model_reg_set(m, r->dsrp, 0);
	model_reg_set(m, r->dswp, 0);
	model_reg_set(m, r->sts, 0);
	if ((dptrl & ~r->dptr_mask) != 0 || (dsbl & ~TSI721_DMAC_DSBL_MASK) != 0) {
		model_count(&m->st.misaligned);
		model_chan_abort(m, c, r, MODEL_CS_BAD_DESC);
		return;
	}
	c->cur = model_reg64(m, r->dptrl, r->dptrh, r->dptr_mask);
	c->sts_blocks = TSI721_QSIZE_ENTRIES(dssz);
	c->running = true;
	model_reg_set(m, r->sts, TSI721_DMAC_STS_RUN);
}

static int
model_srio_outb(struct tsi721_model *m, uint8_t mbox)
{
	int ret;

	if (m->srio_outb_open[mbox])
		return 0;
	ret = rte_rio_request_outb_mbox(m->srio, mbox, MODEL_OB_ENTRIES);
	if (ret < 0 && ret != -EBUSY)
		return ret;
	m->srio_outb_open[mbox] = true;
	return 0;
}

static uint32_t
model_errno_cs(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return MODEL_CS_TIMEOUT;
	case -EINVAL:
		return MODEL_CS_BAD_DESC;
	case -EAGAIN:
		return MODEL_CS_RETRY;
	default:
		return MODEL_CS_ERROR;
	}
}

/*
 * Check one outbound message descriptor and fill @msg from it. Returns 0,
 * or the abort status; nothing is counted (the abort counts it once).
 */
static int
model_ob_prepare(struct tsi721_model *m, const struct tsi721_omsg_desc *d, struct rte_rio_msg *msg)
{
	uint32_t info = rte_le_to_cpu_32(d->msg_info), tid = rte_le_to_cpu_32(d->type_id);
	uint64_t buf = ((uint64_t)rte_le_to_cpu_32(d->bufptr_hi) << 32) |
		rte_le_to_cpu_32(d->bufptr_lo);
	uint32_t ssize = (info & TSI721_MD_SSIZE) >> TSI721_MD_SSIZE_SHIFT;
	uint32_t tt = (info >> TSI721_OMD_TT_SHIFT) & 0x3;
	uint32_t len;
	void *va;

	if ((tid >> TSI721_DTYPE_SHIFT) != TSI721_DTYPE_OMSG)
		return MODEL_CS_BAD_DESC;
	len = info & TSI721_MD_BCOUNT;
	if (len == 0)
		len = RTE_RIO_MAX_MSG_SIZE;
	if (ssize < TSI721_SSIZE_8 || ssize > TSI721_SSIZE_256 ||
	    tt != (m->devid_size == 16 ? TSI721_TT_16 : TSI721_TT_8) ||
	    (m->devid_size == 8 && (tid & TSI721_MD_DEVID) > 0xff))
		return MODEL_CS_BAD_DESC;
	if ((buf & 7) != 0)
		return MODEL_CS_MISALIGNED;
	va = model_dma_lookup(m, buf, len);
	if (va == NULL)
		return MODEL_CS_DMA;
	msg->buf = va;
	msg->len = (uint16_t)len;
	msg->destid = tid & TSI721_MD_DEVID;
	msg->letter = (info & TSI721_MD_LETTER) >> TSI721_MD_LETTER_SHIFT;
	msg->mbox = (info & TSI721_MD_MBOX) >> TSI721_MD_MBOX_SHIFT;
	msg->status = 0;
	return 0;
}

/* Count a rejected descriptor by its reason. */
static void
model_count_reject(struct tsi721_model *m, uint32_t cs)
{
	if (cs == MODEL_CS_MISALIGNED)
		model_count(&m->st.misaligned);
	else if (cs == MODEL_CS_DMA)
		model_count(&m->st.dma_bad);
	else if (cs == MODEL_CS_BAD_DESC)
		model_count(&m->st.desc_bad);
}

/* One maintenance descriptor: 0 done, else an abort status (not counted here). */
static int
model_bdma_maint(struct tsi721_model *m, struct tsi721_dma_desc *d)
{
	uint32_t tid = rte_le_to_cpu_32(d->type_id), bc = rte_le_to_cpu_32(d->bcount);
	uint32_t raddr = rte_le_to_cpu_32(d->raddr_lo);
	uint32_t rtype = (tid & TSI721_DMAD_RTYPE) >> TSI721_DMAD_RTYPE_SHIFT;
	uint32_t tt = (bc & TSI721_DMAD_TT) >> TSI721_DMAD_TT_SHIFT;
	uint32_t off = raddr & TSI721_DMAD_CFGOFF;
	uint8_t hop = raddr >> TSI721_DMAD_HOPCNT_SHIFT;
	uint16_t destid = tid & TSI721_DMAD_DEVID;
	uint32_t val;
	int ret;

	/* Maintenance through the part is one 4-byte word per request. */
	if ((rtype != TSI721_RTYPE_MAINT_RD && rtype != TSI721_RTYPE_MAINT_WR) ||
	    (bc & TSI721_DMAD_BCOUNT2) != 4 ||
	    tt != (m->devid_size == 16 ? TSI721_TT_16 : TSI721_TT_8))
		return MODEL_CS_BAD_DESC;
	if ((off & 3) != 0)
		return MODEL_CS_MISALIGNED;
	model_count(&m->st.maint);
	if (rtype == TSI721_RTYPE_MAINT_WR) {
		val = rte_be_to_cpu_32(d->data[0]);
		ret = rte_rio_remote_write_config_32(m->srio, destid, hop, off, val);
	} else {
		ret = rte_rio_remote_read_config_32(m->srio, destid, hop, off, &val);
		if (ret == 0)
			d->data[0] = rte_cpu_to_be_32(val);
	}
	return ret == 0 ? 0 : (int)model_errno_cs(ret);
}

/*
 * One data descriptor (DTYPE 1, as Linux's tsi721_desc_fill_init() builds
 * it): bcount bytes between host memory at bufptr and RapidIO address
 * (raddr << 2) | bcount[31:30] of destid. lib/rio cuts the packets. 0 done,
 * else an abort status (not counted here). The transfer waits for its
 * modelled time: only the channel's own lock is held meanwhile.
 */
static int
model_bdma_data(struct tsi721_model *m, const struct tsi721_dma_desc *d)
{
	uint32_t tid = rte_le_to_cpu_32(d->type_id), bc = rte_le_to_cpu_32(d->bcount);
	uint32_t rtype = (tid & TSI721_DMAD_RTYPE) >> TSI721_DMAD_RTYPE_SHIFT;
	uint32_t tt = (bc & TSI721_DMAD_TT) >> TSI721_DMAD_TT_SHIFT;
	uint64_t raddr = ((uint64_t)rte_le_to_cpu_32(d->raddr_hi) << 32) |
		rte_le_to_cpu_32(d->raddr_lo);
	uint64_t buf = ((uint64_t)rte_le_to_cpu_32(d->t1.bufptr_hi) << 32) |
		rte_le_to_cpu_32(d->t1.bufptr_lo);
	uint16_t destid = tid & TSI721_DMAD_DEVID;
	size_t len = bc & TSI721_DMAD_BCOUNT1, last;
	uint64_t addr;
	uint8_t *va;
	int ret;

	if (len == 0)
		len = TSI721_BDMA_MAX_BCOUNT;
	/*
	 * raddr's top two bits are address bits 65:64; the stride fields are
	 * 0 in every descriptor Linux writes, and their use is not in the
	 * sources: refused.
	 */
	if (rtype > TSI721_RTYPE_ALL_NWRITE_R ||
	    tt != (m->devid_size == 16 ? TSI721_TT_16 : TSI721_TT_8) ||
	    (m->devid_size == 8 && destid > 0xff) || (raddr >> 62) != 0 ||
	    d->t1.s_dist != 0 || d->t1.s_size != 0)
		return MODEL_CS_BAD_DESC;
	addr = (raddr << 2) | ((bc & TSI721_DMAD_RADDR0) >> TSI721_DMAD_RADDR0_SHIFT);
	va = model_dma_lookup(m, buf, len);
	if (va == NULL)
		return MODEL_CS_DMA;
	switch (rtype) {
	case TSI721_RTYPE_NREAD:
		ret = rte_rio_mem_read(m->srio, destid, addr, va, len);
		break;
	case TSI721_RTYPE_ALL_NWRITE:
		ret = rte_rio_mem_write(m->srio, destid, addr, va, len, RTE_RIO_MEM_NWRITE);
		break;
	case TSI721_RTYPE_ALL_NWRITE_R:
		ret = rte_rio_mem_write(m->srio, destid, addr, va, len, RTE_RIO_MEM_NWRITE_R);
		break;
	default:
		/*
		 * NWRITE, the last packet NWRITE_R: the model makes the bytes of
		 * the last double-word that packet (a tail from lane 0 is one
		 * packet; how the part cuts it is not in the sources).
		 */
		last = RTE_MIN(len, (size_t)(addr + len - RTE_ALIGN_FLOOR(addr + len - 1, 8)));
		ret = 0;
		if (len > last)
			ret = rte_rio_mem_write(m->srio, destid, addr, va, len - last,
						RTE_RIO_MEM_NWRITE);
		if (ret == 0)
			ret = rte_rio_mem_write(m->srio, destid, addr + len - last,
						va + len - last, last, RTE_RIO_MEM_NWRITE_R);
		break;
	}
	if (ret == 0)
		model_count(&m->st.mem);
	return ret == 0 ? 0 : (int)model_errno_cs(ret);
}

static void model_retry_arm(struct tsi721_model *m);

/*
 * A link descriptor at c->cur: follow it (its completion is reported too,
 * as the part does). Returns 0, or the abort status.
 */
static int
model_chan_link(struct tsi721_model *m, struct model_dma_chan *c,
		const struct model_chan_regs *r, uint64_t sts_base, const uint32_t *w)
{
	uint64_t next = ((uint64_t)rte_le_to_cpu_32(w[3]) << 32) | rte_le_to_cpu_32(w[2]);

	if ((next & ~(uint64_t)r->dptr_mask & 0xffffffffu) != 0)
		return MODEL_CS_MISALIGNED;
	model_sts_put(m, c, sts_base, r->dswp, c->cur);
	if (next == model_reg64(m, r->dptrl, r->dptrh, r->dptr_mask)) {
		c->ring_len = c->since_base + 1;
		c->since_base = 0;
	} else {
		c->since_base++;
	}
	c->cur = next;
	c->rdcnt++;
	return 0;
}

/* After a run: progress registers, DONE, RUN while something waits. */
static void
model_chan_end(struct tsi721_model *m, struct model_dma_chan *c,
	       const struct model_chan_regs *r, bool done)
{
	model_reg_set(m, r->drdcnt, c->rdcnt);
	if (done) {
		model_sts_close(m, c, r->dswp);
		model_reg_or(m, r->intr, TSI721_DMAC_INT_DONE);
	}
	if (c->running)
		model_reg_set(m, r->sts, c->rdcnt != c->wrcnt ? TSI721_DMAC_STS_RUN : 0);
}

/* Reject the descriptor at c->cur: counted once, the channel stops. */
static void
model_chan_reject(struct tsi721_model *m, struct model_dma_chan *c,
		  const struct model_chan_regs *r, uint32_t cs)
{
	model_count_reject(m, cs);
	model_sts_close(m, c, r->dswp);
	model_chan_abort(m, c, r, cs);
}

/*
 * Run the block DMA channel over the descriptors the host has written, up
 * to DWRCNT: maintenance requests and data transfers, one at a time.
 * Caller holds c->lock.
 */
static void
model_bdma_run(struct tsi721_model *m, struct model_dma_chan *c, const struct model_chan_regs *r)
{
	uint64_t sts_base = model_reg64(m, r->dsbl, r->dsbh, TSI721_DMAC_DSBL_MASK);
	bool done = false;
	int ret;

	while (c->running && c->rdcnt != c->wrcnt) {
		uint32_t *w, dtype;

		if (!model_sts_room(m, c, r->dsrp, 1)) {
			model_reg_or(m, r->intr, TSI721_DMAC_INT_STFULL);
			break;
		}
		w = model_dma_lookup(m, c->cur, sizeof(struct tsi721_dma_desc));
		if (w == NULL) {
			model_chan_reject(m, c, r, MODEL_CS_DMA);
			break;
		}
		dtype = rte_le_to_cpu_32(w[0]) >> TSI721_DTYPE_SHIFT;
		if (dtype == TSI721_DTYPE_BDMA_LINK) {
			ret = model_chan_link(m, c, r, sts_base, w);
		} else if (dtype == TSI721_DTYPE_IMM || dtype == TSI721_DTYPE_DATA) {
			ret = dtype == TSI721_DTYPE_IMM ? model_bdma_maint(m, (void *)w) :
				model_bdma_data(m, (const void *)w);
			if (ret == 0) {
				model_sts_put(m, c, sts_base, r->dswp, c->cur);
				c->cur += sizeof(struct tsi721_dma_desc);
				c->rdcnt++;
				c->since_base++;
				done = true;
			}
		} else {
			ret = MODEL_CS_BAD_DESC;
		}
		if (ret != 0) {
			model_chan_reject(m, c, r, (uint32_t)ret);
			break;
		}
	}
	model_chan_end(m, c, r, done);
}

/*
 * Send a batch of consecutive message descriptors from c->cur, all for one
 * mailbox; advance over what the target took. 0: all sent; -EAGAIN: the
 * target is busy (retry later); else the abort status of the first not sent.
 */
static int
model_ob_flush(struct tsi721_model *m, struct model_dma_chan *c, const struct model_chan_regs *r,
	       uint64_t sts_base, struct rte_rio_msg *batch, uint16_t nb)
{
	uint8_t mbox = batch[0].mbox;
	uint16_t n, i;

	rte_spinlock_lock(&m->srio_send_lock[mbox]);
	n = model_srio_outb(m, mbox) == 0 ? rte_rio_send_messages(m->srio, mbox, batch, nb) : 0;
	rte_spinlock_unlock(&m->srio_send_lock[mbox]);
	for (i = 0; i < n; i++) {
		model_sts_put(m, c, sts_base, r->dswp, c->cur);
		c->cur += sizeof(struct tsi721_omsg_desc);
		c->rdcnt++;
		c->since_base++;
	}
	if (n > 0) {
		c->retries = 0;
		__atomic_fetch_add(&m->st.msg_tx, n, __ATOMIC_RELAXED);
	}
	if (n == nb)
		return 0;
	if (batch[n].status == -EAGAIN) {
		model_count(&m->st.msg_tx_retry);
		model_reg_set(m, TSI721_RETRY_RX_CNT, model_reg(m, TSI721_RETRY_RX_CNT) + 1);
		if ((model_reg(m, r->ctl) & TSI721_OBDMAC_CTL_RETRY_THR) &&
		    ++c->retries >= MODEL_RETRY_LIMIT)
			return MODEL_CS_RETRY;
		return -EAGAIN;
	}
	return (int)model_errno_cs(batch[n].status != 0 ? batch[n].status : -EIO);
}

/*
 * Run an outbound messaging channel over the descriptors the host has
 * written, up to DWRCNT, sending runs of messages for one mailbox in one
 * burst. Caller holds c->lock.
 */
static void
model_ob_run(struct tsi721_model *m, struct model_dma_chan *c, const struct model_chan_regs *r)
{
	uint64_t sts_base = model_reg64(m, r->dsbl, r->dsbh, TSI721_DMAC_DSBL_MASK);
	struct rte_rio_msg batch[MODEL_BURST];
	bool done = false;
	int ret = 0, bad;

	while (c->running && c->rdcnt != c->wrcnt) {
		uint32_t avail = c->wrcnt - c->rdcnt;
		uint64_t scan = c->cur;
		const uint32_t *w;
		uint16_t nb = 0;

		if (!model_sts_room(m, c, r->dsrp, MODEL_BURST)) {
			model_reg_or(m, r->intr, TSI721_OBDMAC_INT_ST_FULL);
			break;
		}
		bad = 0;
		while (nb < MODEL_BURST && nb < avail) {
			w = model_dma_lookup(m, scan, sizeof(struct tsi721_omsg_desc));
			if (w == NULL) {
				bad = MODEL_CS_DMA;
				break;
			}
			if ((rte_le_to_cpu_32(w[0]) >> TSI721_DTYPE_SHIFT) ==
			    TSI721_DTYPE_OMSG_LINK)
				break;
			bad = model_ob_prepare(m, (const void *)w, &batch[nb]);
			if (bad != 0 || (nb > 0 && batch[nb].mbox != batch[0].mbox))
				break;
			nb++;
			scan += sizeof(struct tsi721_omsg_desc);
		}
		if (nb > 0) {
			uint32_t before = c->rdcnt;

			ret = model_ob_flush(m, c, r, sts_base, batch, nb);
			done = done || c->rdcnt != before;
			if (ret == 0)
				continue;
			if (ret != -EAGAIN)
				model_chan_reject(m, c, r, (uint32_t)ret);
			break;
		}
		if (bad != 0) {
			model_chan_reject(m, c, r, (uint32_t)bad);
			break;
		}
		/* A link descriptor: the ring goes on at its target. */
		ret = model_chan_link(m, c, r, sts_base, model_dma_lookup(m, c->cur, 16));
		if (ret != 0) {
			model_chan_reject(m, c, r, (uint32_t)ret);
			break;
		}
	}
	model_chan_end(m, c, r, done);
	/* The part retries a busy target on its own, whether the host looks or not. */
	if (ret == -EAGAIN && c->running)
		model_retry_arm(m);
}

/* Run a channel of either engine. */
static void
model_chan_run(struct tsi721_model *m, struct model_dma_chan *c,
	       const struct model_chan_regs *r, bool ob)
{
	if (ob)
		model_ob_run(m, c, r);
	else
		model_bdma_run(m, c, r);
}

/* EAL alarm: run the outbound channels that wait for a busy target. */
static void
model_retry_alarm(void *arg)
{
	struct tsi721_model *m = arg;
	struct model_chan_regs r;
	unsigned int ch;

	__atomic_store_n(&m->retry_armed, 0, __ATOMIC_RELEASE);
	for (ch = 0; ch < TSI721_MSG_CHANNELS; ch++) {
		struct model_dma_chan *c = &m->ob[ch];

		if (!rte_spinlock_trylock(&c->lock)) {
			model_retry_arm(m);	/* the host is at it: next time */
			continue;
		}
		if (c->running && c->rdcnt != c->wrcnt) {
			model_ob_regs(ch, &r);
			model_chan_run(m, c, &r, true);
		}
		rte_spinlock_unlock(&c->lock);
	}
}

/* Only while something waits: the model costs no thread time when idle. */
static void
model_retry_arm(struct tsi721_model *m)
{
	uint32_t off = 0;

	if (__atomic_load_n(&m->freeing, __ATOMIC_ACQUIRE))
		return;
	if (!__atomic_compare_exchange_n(&m->retry_armed, &off, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		return;
	if (rte_eal_alarm_set(MODEL_RETRY_US, model_retry_alarm, m) != 0)
		__atomic_store_n(&m->retry_armed, 0, __ATOMIC_RELEASE);
}

/* Writes and reads of a block DMA or outbound messaging channel register. */
static bool
model_chan_write(struct tsi721_model *m, struct model_dma_chan *c,
		 const struct model_chan_regs *r, bool ob, uint32_t off, uint32_t v)
{
	if (off == r->dwrcnt) {
		/*
		 * The host may add descriptors, never take back ones it gave, and
		 * never claim more than its ring holds: that overwrote some.
		 */
		if ((int32_t)(v - c->wrcnt) < 0 ||
		    (c->ring_len != 0 && v - c->rdcnt > c->ring_len)) {
			model_count(&m->st.overrun);
			return true;
		}
		model_reg_set(m, off, v);
		c->wrcnt = v;
		if (!c->running && !c->aborted && c->sts_blocks != 0)
			c->running = true;
		model_chan_run(m, c, r, ob);
	} else if (off == r->ctl) {
		model_reg_set(m, off, v);
		if (v & TSI721_DMAC_CTL_INIT) {
			model_chan_init(m, c, r);
		} else if (v & TSI721_DMAC_CTL_SUSP) {
			c->running = false;
			model_reg_set(m, r->sts, 0);
		}
	} else if (off == r->intr) {
		__atomic_fetch_and(&m->regs[off / 4], ~v, __ATOMIC_RELAXED);
	} else if (off == r->drdcnt) {
		/* Resynchronizing after INIT: the engine resumes at that slot. */
		if (!c->running || c->rdcnt == c->wrcnt) {
			uint64_t base = model_reg64(m, r->dptrl, r->dptrh, r->dptr_mask);
			size_t dsize = ob ? sizeof(struct tsi721_omsg_desc) :
				sizeof(struct tsi721_dma_desc);

			c->rdcnt = c->wrcnt = v;
			c->since_base = v;
			c->cur = base + (uint64_t)v * dsize;
			model_reg_set(m, r->dwrcnt, v);
			model_reg_set(m, off, v);
		}
	} else if (off == r->dsrp) {
		model_reg_set(m, off, v % RTE_MAX(c->sts_blocks, 1u));
		model_chan_run(m, c, r, ob);	/* a full status FIFO may have room now */
	} else {
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Inbound messaging                                                  */

static void
model_ib_close_srio(struct tsi721_model *m, unsigned int ch, struct model_ib_chan *c)
{
	if (c->srio_open)
		rte_rio_release_inb_mbox(m->srio, ch - TSI721_IMSG_CHAN(0));
	c->srio_open = false;
	c->lent_head = c->lent_count = 0;
}

static void
model_ib_init(struct tsi721_model *m, unsigned int ch, struct model_ib_chan *c)
{
	uint32_t fqbl = model_reg(m, TSI721_IBDMAC_FQBL(ch));
	uint32_t dqbl = model_reg(m, TSI721_IBDMAC_DQBL(ch));
	int ret;

	model_ib_close_srio(m, ch, c);
	c->running = false;
	c->fqrp = c->fqwp = c->dqrp = c->dqwr = 0;
	model_reg_set(m, TSI721_IBDMAC_FQRP(ch), 0);
	model_reg_set(m, TSI721_IBDMAC_FQWP(ch), 0);
	model_reg_set(m, TSI721_IBDMAC_DQRP(ch), 0);
	model_reg_set(m, TSI721_IBDMAC_DQWR(ch), 0);
	model_reg_set(m, TSI721_IBDMAC_STS(ch), 0);
	if ((fqbl & ~TSI721_IBDMAC_FQBL_MASK) != 0 || (dqbl & ~TSI721_IBDMAC_DQBL_MASK) != 0) {
		model_count(&m->st.misaligned);
		model_reg_set(m, TSI721_IBDMAC_STS(ch), TSI721_IBDMAC_STS_ABORT);
		return;
	}
	c->fq_size = TSI721_QSIZE_ENTRIES(model_reg(m, TSI721_IBDMAC_FQSZ(ch)) &
					  TSI721_QSIZE_FIELD);
	c->dq_size = TSI721_QSIZE_ENTRIES(model_reg(m, TSI721_IBDMAC_DQSZ(ch)) &
					  TSI721_QSIZE_FIELD);
	if (ch >= TSI721_IMSG_CHAN(0)) {
		/* Channels 4..7 take mailboxes 0..3 (as Linux uses them). */
		ret = rte_rio_request_inb_mbox(m->srio, ch - TSI721_IMSG_CHAN(0),
					       MODEL_IB_ENTRIES);
		c->srio_open = ret == 0;
	}
	c->running = true;
	model_reg_set(m, TSI721_IBDMAC_STS(ch), TSI721_IBDMAC_STS_RUN);
}

/*
 * Lend the host's free buffers to the SRIO side, which fills them in order.
 * Every message the part takes needs a descriptor slot as well as a buffer:
 * never more lent than the descriptor queue has room for, so that a message
 * that would find it full gets RETRY rather than waiting inside the part.
 */
static void
model_ib_lend(struct tsi721_model *m, unsigned int ch, struct model_ib_chan *c, uint64_t fq_base)
{
	uint32_t dq_room = c->dq_size - 1 - (c->dqwr - c->dqrp + c->dq_size) % c->dq_size;
	uint8_t mbox = ch - TSI721_IMSG_CHAN(0);

	while (c->fqrp != c->fqwp && c->lent_count < RTE_MIN(dq_room, MODEL_IB_ENTRIES)) {
		uint64_t *e = model_dma(m, fq_base + (uint64_t)c->fqrp * 8, 8);
		uint64_t iova;
		void *va;

		if (e == NULL)
			break;
		iova = rte_le_to_cpu_64(*e);
		c->fqrp = (c->fqrp + 1) % c->fq_size;
		if ((iova & 7) != 0) {
			model_count(&m->st.misaligned);
			model_reg_or(m, TSI721_IBDMAC_INT(ch), TSI721_IBDMAC_INT_PC_ERROR);
			continue;
		}
		va = model_dma(m, iova, RTE_RIO_MAX_MSG_SIZE);
		if (va == NULL) {
			model_reg_or(m, TSI721_IBDMAC_INT(ch), TSI721_IBDMAC_INT_PC_ERROR);
			continue;
		}
		if (rte_rio_add_inb_buffers(m->srio, mbox, &va, 1) != 1) {
			/* Put it back: the SRIO side is full. */
			c->fqrp = (c->fqrp + c->fq_size - 1) % c->fq_size;
			break;
		}
		c->lent_iova[(c->lent_head + c->lent_count) % MODEL_IB_ENTRIES] = iova;
		c->lent_va[(c->lent_head + c->lent_count) % MODEL_IB_ENTRIES] = va;
		c->lent_count++;
	}
	model_reg_set(m, TSI721_IBDMAC_FQRP(ch), c->fqrp);
}

/* Move what arrived into the host's descriptor queue. Caller holds c->lock. */
static void
model_ib_run(struct tsi721_model *m, unsigned int ch, struct model_ib_chan *c)
{
	uint64_t fq_base = model_reg64(m, TSI721_IBDMAC_FQBL(ch), TSI721_IBDMAC_FQBH(ch),
				       TSI721_IBDMAC_FQBL_MASK);
	uint64_t dq_base = model_reg64(m, TSI721_IBDMAC_DQBL(ch), TSI721_IBDMAC_DQBH(ch),
				       TSI721_IBDMAC_DQBL_MASK);
	struct rte_rio_msg msgs[MODEL_BURST];
	uint32_t room, want, i, tt;
	uint16_t got;

	if (!c->running || !c->srio_open)
		return;
	model_ib_lend(m, ch, c, fq_base);
	room = c->dq_size - 1 - (c->dqwr - c->dqrp + c->dq_size) % c->dq_size;
	want = RTE_MIN(RTE_MIN(room, c->lent_count), (uint32_t)MODEL_BURST);
	if (want == 0)
		return;
	got = rte_rio_recv_messages(m->srio, ch - TSI721_IMSG_CHAN(0), msgs, want);
	tt = m->devid_size == 16 ? TSI721_TT_16 : TSI721_TT_8;
	for (i = 0; i < got; i++) {
		struct tsi721_imsg_desc *d;
		uint64_t iova = c->lent_iova[c->lent_head];
		uint32_t len = RTE_ALIGN_CEIL((uint32_t)msgs[i].len, 8u);

		c->lent_head = (c->lent_head + 1) % MODEL_IB_ENTRIES;
		c->lent_count--;
		/* Payloads are whole double-words on the wire. */
		if (len > msgs[i].len)
			memset((uint8_t *)msgs[i].buf + msgs[i].len, 0, len - msgs[i].len);
		d = model_dma(m, dq_base + (uint64_t)c->dqwr * sizeof(*d), sizeof(*d));
		if (d == NULL)
			break;
		d->type_id = rte_cpu_to_le_32((TSI721_DTYPE_IMSG << TSI721_DTYPE_SHIFT) |
					      (tt << TSI721_IMD_TT_SHIFT) | msgs[i].srcid);
		d->bufptr_lo = rte_cpu_to_le_32((uint32_t)iova);
		d->bufptr_hi = rte_cpu_to_le_32((uint32_t)(iova >> 32));
		/* HO last: the descriptor is the host's once it is complete. */
		__atomic_store_n(&d->msg_info, rte_cpu_to_le_32(TSI721_IMD_HO |
				 ((uint32_t)msgs[i].mbox << TSI721_MD_MBOX_SHIFT) |
				 ((uint32_t)msgs[i].letter << TSI721_MD_LETTER_SHIFT) |
				 (TSI721_SSIZE_256 << TSI721_MD_SSIZE_SHIFT) |
				 (len & TSI721_MD_BCOUNT)), __ATOMIC_RELEASE);
		c->dqwr = (c->dqwr + 1) % c->dq_size;
		model_count(&m->st.msg_rx);
	}
	if (got > 0) {
		model_reg_set(m, TSI721_IBDMAC_DQWR(ch), c->dqwr);
		model_reg_or(m, TSI721_IBDMAC_INT(ch), TSI721_IBDMAC_INT_DQ_RCV);
	}
}

/* A host pointer write: it may move forward over at most what the queue holds. */
static bool
model_ptr_advance(struct tsi721_model *m, uint32_t *ptr, uint32_t v, uint32_t size,
		  uint32_t limit_dist)
{
	uint32_t dist;

	if (size == 0 || v >= size) {
		model_count(&m->st.overrun);
		return false;
	}
	dist = (v - *ptr + size) % size;
	if (dist > limit_dist) {
		model_count(&m->st.overrun);
		return false;
	}
	*ptr = v;
	return true;
}

static bool
model_ib_write(struct tsi721_model *m, unsigned int ch, uint32_t reg, uint32_t off, uint32_t v)
{
	struct model_ib_chan *c = &m->ib[ch];

	if (reg == TSI721_IBDMAC_CTL(0)) {
		model_reg_set(m, off, v);
		if (v & TSI721_IBDMAC_CTL_INIT) {
			model_ib_init(m, ch, c);
		} else if (v & TSI721_IBDMAC_CTL_SUSPEND) {
			c->running = false;
			model_ib_close_srio(m, ch, c);
			model_reg_set(m, TSI721_IBDMAC_STS(ch), 0);
		}
	} else if (reg == TSI721_IBDMAC_FQWP(0)) {
		/* Free entries: at most size - 1 given and not yet taken. */
		uint32_t given = (c->fqwp - c->fqrp + c->fq_size) % RTE_MAX(c->fq_size, 1u);

		if (model_ptr_advance(m, &c->fqwp, v, c->fq_size, c->fq_size - 1 - given))
			model_reg_set(m, off, v);
		model_ib_run(m, ch, c);
	} else if (reg == TSI721_IBDMAC_DQRP(0)) {
		uint32_t filled = (c->dqwr - c->dqrp + c->dq_size) % RTE_MAX(c->dq_size, 1u);

		if (model_ptr_advance(m, &c->dqrp, v, c->dq_size, filled))
			model_reg_set(m, off, v);
		model_ib_run(m, ch, c);	/* room for descriptors: lend what waits */
	} else if (reg == TSI721_IBDMAC_INT(0)) {
		__atomic_fetch_and(&m->regs[off / 4], ~v, __ATOMIC_RELAXED);
	} else {
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Inbound windows                                                    */

/*
 * Enable window @w from its registers: the host memory at the translated
 * address (an IOVA) answers the SRIO side's requests for [base, base +
 * size). What the part would not take (a size field out of 4 KiB..16 GiB,
 * bits outside it, a base or translation not aligned to the size, an
 * overlap) is refused and counted; the window stays off and LB reads back
 * without WEN. Caller holds ibwin_lock.
 */
static void
model_ibwin_enable(struct tsi721_model *m, unsigned int w)
{
	uint32_t sz = model_reg(m, TSI721_IBWIN_SZ(w));
	uint32_t field = (sz & TSI721_IBWIN_SZ_SIZE) >> TSI721_IBWIN_SZ_SHIFT;
	uint64_t base = model_reg64(m, TSI721_IBWIN_LB(w), TSI721_IBWIN_UB(w), TSI721_IBWIN_LB_BA);
	uint64_t tla = model_reg64(m, TSI721_IBWIN_TLA(w), TSI721_IBWIN_TUA(w),
				   TSI721_IBWIN_TLA_ADD);
	uint64_t size = TSI721_IBWIN_MIN_SIZE << field;
	unsigned int k;
	void *va;
	int ret;

	if ((sz & ~TSI721_IBWIN_SZ_SIZE) != 0 || size > TSI721_IBWIN_MAX_SIZE) {
		model_count(&m->st.desc_bad);
		goto refuse;
	}
	if ((base & (size - 1)) != 0 || (tla & (size - 1)) != 0) {
		model_count(&m->st.misaligned);
		goto refuse;
	}
	for (k = 0; k < TSI721_IBWIN_NUM; k++) {
		if (m->ibwin[k].on && base < m->ibwin[k].rio_addr + m->ibwin[k].size &&
		    m->ibwin[k].rio_addr < base + size) {
			model_count(&m->st.desc_bad);
			goto refuse;
		}
	}
	va = model_dma(m, tla, size);
	if (va == NULL)
		goto refuse;
	ret = rte_rio_map_inb_window(m->srio, va, base, size, 0);
	if (ret < 0) {
		/* Beyond the SRIO side's address space, or memory rio_sim cannot share. */
		TSI_LOG(ERR, "%s: inbound window %u (0x%" PRIx64 "+0x%" PRIx64 " at IOVA 0x%"
			PRIx64 "): %s", m->name, w, base, size, tla, strerror(-ret));
		model_count(&m->st.dma_bad);
		goto refuse;
	}
	m->ibwin[w].on = true;
	m->ibwin[w].rio_addr = base;
	m->ibwin[w].size = size;
	return;
refuse:
	model_reg_set(m, TSI721_IBWIN_LB(w), model_reg(m, TSI721_IBWIN_LB(w)) &
		      ~TSI721_IBWIN_LB_WEN);
}

static void
model_ibwin_disable(struct tsi721_model *m, unsigned int w)
{
	if (!m->ibwin[w].on)
		return;
	rte_rio_unmap_inb_window(m->srio, m->ibwin[w].rio_addr);
	m->ibwin[w].on = false;
}

/*
 * The window takes its registers when LB is written (Linux's
 * tsi721_rio_map_inb_mem() writes SZ, TUA, TLA, UB, then LB with WEN;
 * tsi721_rio_unmap_inb_mem() writes LB 0). Writes of the others are kept
 * for the next LB write.
 */
static bool
model_ibwin_write(struct tsi721_model *m, uint32_t off, uint32_t v)
{
	unsigned int w = (off - TSI721_IBWIN_LB(0)) / 0x20;

	if (off != TSI721_IBWIN_LB(w))
		return false;
	rte_spinlock_lock(&m->ibwin_lock);
	model_ibwin_disable(m, w);
	model_reg_set(m, off, v);
	if (v & TSI721_IBWIN_LB_WEN)
		model_ibwin_enable(m, w);
	rte_spinlock_unlock(&m->ibwin_lock);
	return true;
}

/* ------------------------------------------------------------------ */
/* Doorbells and port-writes                                          */

static void
model_idb_cb(struct rte_rio_mport *mport __rte_unused, void *arg, const struct rte_rio_dbell *db)
{
	struct tsi721_model *m = arg;
	uint32_t mask = model_reg(m, TSI721_IDQ_MASK(0));
	struct tsi721_idb_entry *e;

	if (((db->info ^ mask) & (mask >> 16)) != 0) {
		model_count(&m->st.dbell_filtered);
		return;
	}
	e = model_dma(m, m->idq_base + (uint64_t)m->idq_wp * TSI721_IDQ_ENTRY_SIZE, 8);
	if (e == NULL)
		return;
	e->info[0] = db->info >> 8;
	e->info[1] = db->info & 0xff;
	e->srcid[0] = db->src >> 8;
	e->srcid[1] = db->src & 0xff;
	e->tgtid[0] = db->dst >> 8;
	e->tgtid[1] = db->dst & 0xff;
	m->idq_wp = (m->idq_wp + 1) % m->idq_size;
	model_count(&m->st.dbell_rx);
}

/*
 * The part takes a doorbell while its inbound doorbell queue has room and
 * answers RETRY when it is full: the SRIO side holds no more doorbells than
 * the queue has room for. Caller holds misc_lock.
 */
static void
model_idq_depth(struct tsi721_model *m)
{
	uint32_t room;

	if (!m->idq_running)
		return;
	room = m->idq_size - 1 - (m->idq_wp - m->idq_rp + m->idq_size) % m->idq_size;
	if (rte_rawdev_set_attr(m->srio_raw, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH,
				RTE_MIN(room, (uint32_t)MODEL_SRIO_DBELLS)) != 0)
		model_count(&m->st.desc_bad);
}

/* Inbound doorbells into queue 0 while it has room. Caller holds misc_lock. */
static void
model_idq_run(struct tsi721_model *m)
{
	uint32_t room;

	if (!m->idq_running)
		return;
	room = m->idq_size - 1 - (m->idq_wp - m->idq_rp + m->idq_size) % m->idq_size;
	if (room > 0 && rte_rio_dbell_poll(m->srio, room) > 0) {
		model_reg_set(m, TSI721_IDQ_WP(0), m->idq_wp);
		model_reg_or(m, TSI721_SR_CHINT(0), TSI721_SR_CHINT_IDBQRCV);
	}
	model_idq_depth(m);
}

static void
model_idq_init(struct tsi721_model *m)
{
	uint32_t basel = model_reg(m, TSI721_IDQ_BASEL(0));
	uint32_t sz = model_reg(m, TSI721_IDQ_SIZE(0)) & TSI721_QSIZE_FIELD;

	m->idq_running = false;
	m->idq_rp = m->idq_wp = 0;
	model_reg_set(m, TSI721_IDQ_RP(0), 0);
	model_reg_set(m, TSI721_IDQ_WP(0), 0);
	model_reg_set(m, TSI721_IDQ_STS(0), 0);
	m->idq_size = TSI721_QSIZE_ENTRIES(sz);
	if ((basel & ~TSI721_IDQ_BASEL_ADDR) != 0) {
		model_count(&m->st.misaligned);
		return;
	}
	if (m->idq_size < TSI721_IDQ_SIZE_MIN || m->idq_size > TSI721_IDQ_SIZE_MAX) {
		model_count(&m->st.desc_bad);
		return;
	}
	m->idq_base = model_reg64(m, TSI721_IDQ_BASEL(0), TSI721_IDQ_BASEU(0),
				  TSI721_IDQ_BASEL_ADDR);
	m->idq_running = true;
	model_reg_set(m, TSI721_IDQ_STS(0), TSI721_IDQ_STS_RUN);
	model_idq_depth(m);
}

/* Reliable capture: the next port-write is taken only once the last one is read. */
static void
model_pw_run(struct tsi721_model *m)
{
	struct rte_rio_pw_msg pw;
	unsigned int i;

	if (model_reg(m, TSI721_RIO_PW_RX_STAT) & TSI721_RIO_PW_RX_STAT_PW_VAL)
		return;
	if (rte_rio_pw_fetch(m->srio, &pw, 1) != 1)
		return;
	for (i = 0; i < TSI721_PW_CAPT_SIZE / 4; i++)
		model_reg_set(m, TSI721_RIO_PW_RX_CAPT(i), pw.raw[i]);
	model_reg_or(m, TSI721_RIO_PW_RX_STAT, TSI721_RIO_PW_RX_STAT_PW_VAL |
		     (pw.len < TSI721_PW_CAPT_SIZE ? TSI721_RIO_PW_RX_STAT_PW_SHORT : 0) |
		     (pw.len > TSI721_PW_CAPT_SIZE ? TSI721_RIO_PW_RX_STAT_PW_TRUNC : 0));
	model_count(&m->st.pw_rx);
}

/* RETRY responses the part generated: its SRIO side answered them. */
static uint64_t
model_retries_answered(const struct tsi721_model *m)
{
	uint64_t n = 0;

	rte_rawdev_get_attr(m->srio_raw, RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED, &n);
	return n;
}

static bool
model_misc_write(struct tsi721_model *m, uint32_t off, uint32_t v)
{
	bool handled = true;

	rte_spinlock_lock(&m->misc_lock);
	if (off == TSI721_IDQ_CTL(0)) {
		model_reg_set(m, off, v);
		if (v & TSI721_IDQ_CTL_INIT)
			model_idq_init(m);
	} else if (off == TSI721_IDQ_RP(0)) {
		uint32_t filled = (m->idq_wp - m->idq_rp + m->idq_size) %
			RTE_MAX(m->idq_size, 1u);

		if (model_ptr_advance(m, &m->idq_rp, v, m->idq_size, filled)) {
			model_reg_set(m, off, v);
			model_idq_depth(m);
		}
	} else if (off == TSI721_SR_CHINT(0) || off == TSI721_RIO_EM_INT_STAT) {
		__atomic_fetch_and(&m->regs[off / 4], ~v, __ATOMIC_RELAXED);
	} else if (off == TSI721_ZONE_SEL) {
		uint32_t win = (v & TSI721_ZONE_SEL_WIN) >> TSI721_ZONE_SEL_WIN_SHIFT;
		uint32_t *zone = m->zone_lut[win * TSI721_PC2SR_ZONES +
					     (v & TSI721_ZONE_SEL_ZONE)];
		unsigned int i;

		/* The lookup is done at once: GO reads back clear. */
		for (i = 0; (v & TSI721_ZONE_SEL_GO) && i < 3; i++) {
			if (v & TSI721_ZONE_SEL_RD_WRB)
				model_reg_set(m, TSI721_LUT_DATA(i), zone[i]);
			else
				zone[i] = model_reg(m, TSI721_LUT_DATA(i));
		}
		model_reg_set(m, off, v & ~TSI721_ZONE_SEL_GO);
	} else if (off == TSI721_RETRY_GEN_CNT) {
		m->retry_gen_base = model_retries_answered(m) - v;
	} else if (off == TSI721_RIO_PW_RX_STAT) {
		__atomic_fetch_and(&m->regs[off / 4],
				   ~(v & (TSI721_RIO_PW_RX_STAT_PW_VAL |
					  TSI721_RIO_PW_RX_STAT_PW_DISC)), __ATOMIC_RELAXED);
	} else {
		handled = false;
	}
	rte_spinlock_unlock(&m->misc_lock);
	return handled;
}

/* ------------------------------------------------------------------ */
/* What the part does on its own, and its interrupt summary          */

/*
 * Take in what arrived from the fabric: inbound doorbells, a port-write,
 * messages of every running inbound channel. The part does this whether or
 * not the host reads a progress register; the model does it when the host
 * reads one, or the interrupt summary, or when its INTx line is sampled.
 */
static void
model_service(struct tsi721_model *m)
{
	unsigned int ch;

	rte_spinlock_lock(&m->misc_lock);
	model_idq_run(m);
	model_pw_run(m);
	rte_spinlock_unlock(&m->misc_lock);
	for (ch = 0; ch < TSI721_MSG_CHANNELS; ch++) {
		if (!__atomic_load_n(&m->ib[ch].running, __ATOMIC_RELAXED))
			continue;
		rte_spinlock_lock(&m->ib[ch].lock);
		model_ib_run(m, ch, &m->ib[ch]);
		rte_spinlock_unlock(&m->ib[ch].lock);
	}
}

/*
 * RIO_EM_INT_STAT: PW_RX follows PW_RX_STAT.PW_VAL, it is not latched. Linux's
 * driver clears only PW_RX_STAT after a port-write, and runs on INTx, which
 * would otherwise stay asserted.
 */
static uint32_t
model_em_int_stat(const struct tsi721_model *m)
{
	uint32_t v = model_reg(m, TSI721_RIO_EM_INT_STAT) & ~TSI721_RIO_EM_INT_PW_RX;

	if (model_reg(m, TSI721_RIO_PW_RX_STAT) & TSI721_RIO_PW_RX_STAT_PW_VAL)
		v |= TSI721_RIO_EM_INT_PW_RX;
	return v;
}

/* DEV_CHAN_INT: every channel with a status bit that its enables let through. */
static uint32_t
model_dev_chan_int(const struct tsi721_model *m)
{
	uint32_t v = 0;
	unsigned int ch;

	for (ch = 0; ch < TSI721_SRIO_CHANNELS; ch++)
		if (model_reg(m, TSI721_SR_CHINT(ch)) & model_reg(m, TSI721_SR_CHINTE(ch)))
			v |= TSI721_INT_SR2PC_CHAN(ch);
	for (ch = 0; ch < TSI721_MSG_CHANNELS; ch++) {
		if (model_reg(m, TSI721_IBDMAC_INT(ch)) & model_reg(m, TSI721_IBDMAC_INTE(ch)))
			v |= TSI721_INT_IMSG_CHAN(ch);
		if (model_reg(m, TSI721_OBDMAC_INT(ch)) & model_reg(m, TSI721_OBDMAC_INTE(ch)))
			v |= TSI721_INT_OMSG_CHAN(ch);
		if (model_reg(m, TSI721_DMAC_BASE(ch) + TSI721_DMAC_INT) &
		    model_reg(m, TSI721_DMAC_BASE(ch) + TSI721_DMAC_INTE))
			v |= TSI721_INT_BDMA_CHAN(ch);
	}
	return v;
}

/* DEV_INT: the blocks with an enabled channel interrupt, and SRIO MAC events. */
static uint32_t
model_dev_int(const struct tsi721_model *m)
{
	uint32_t ch = model_dev_chan_int(m) & model_reg(m, TSI721_DEV_CHAN_INTE);
	uint32_t v = 0;

	if (ch & TSI721_INT_SR2PC_CHAN_M)
		v |= TSI721_DEV_INT_SR2PC_CH;
	if (ch & (TSI721_INT_IMSG_CHAN_M | TSI721_INT_OMSG_CHAN_M))
		v |= TSI721_DEV_INT_SMSG_CH;
	if (ch & TSI721_INT_BDMA_CHAN_M)
		v |= TSI721_DEV_INT_BDMA_CH;
	if ((model_reg(m, TSI721_RIO_EM_DEV_INT_EN) & TSI721_RIO_EM_DEV_INT_EN_INT) &&
	    (model_em_int_stat(m) & model_reg(m, TSI721_RIO_EM_INT_ENABLE)))
		v |= TSI721_DEV_INT_SRIO;
	return v;
}

/* ------------------------------------------------------------------ */
/* BAR accessors                                                      */

static void
model_write32(void *ctx, uint32_t off, uint32_t v)
{
	struct tsi721_model *m = ctx;
	struct model_chan_regs r;
	unsigned int ch;
	uint32_t reg;

	if (off >= TSI721_BAR0_SIZE || (off & 3) != 0) {
		model_count(&m->st.misaligned);
		return;
	}
	if (off < TSI721_CFG_SPACE_END) {
		/* The part's configuration registers are the endpoint's. */
		rte_rio_local_write_config_32(m->srio, off, v);
		return;
	}
	if (off >= TSI721_DMAC_BASE(0) && off < TSI721_DMAC_BASE(8)) {
		ch = (off - TSI721_DMAC_BASE(0)) / 0x1000;
		model_bdma_regs(ch, &r);
		rte_spinlock_lock(&m->bdma[ch].lock);
		if (!model_chan_write(m, &m->bdma[ch], &r, false, off, v))
			model_reg_set(m, off, v);
		rte_spinlock_unlock(&m->bdma[ch].lock);
		return;
	}
	if (off >= TSI721_OBDMAC_DWRCNT(0) && off < TSI721_OBDMAC_DWRCNT(8) &&
	    (off & 0xfff) < 0x200) {
		ch = (off - TSI721_OBDMAC_DWRCNT(0)) / 0x1000;
		model_ob_regs(ch, &r);
		rte_spinlock_lock(&m->ob[ch].lock);
		if (!model_chan_write(m, &m->ob[ch], &r, true, off, v))
			model_reg_set(m, off, v);
		rte_spinlock_unlock(&m->ob[ch].lock);
		return;
	}
	if (off >= TSI721_IBDMAC_FQBL(0) && off < TSI721_IBDMAC_FQBL(0) + 8 * 0x1000 &&
	    (off & 0xfff) >= 0x200) {
		ch = (off - TSI721_OBDMAC_DWRCNT(0)) / 0x1000;
		reg = off - ch * 0x1000;
		rte_spinlock_lock(&m->ib[ch].lock);
		if (!model_ib_write(m, ch, reg, off, v))
			model_reg_set(m, off, v);
		rte_spinlock_unlock(&m->ib[ch].lock);
		return;
	}
	if (off >= TSI721_IBWIN_LB(0) && off < TSI721_IBWIN_LB(TSI721_IBWIN_NUM) &&
	    model_ibwin_write(m, off, v))
		return;
	if (!model_misc_write(m, off, v))
		model_reg_set(m, off, v);
}

static uint32_t
model_read32(void *ctx, uint32_t off)
{
	struct tsi721_model *m = ctx;
	struct model_chan_regs r;
	unsigned int ch;
	uint32_t v;

	if (off >= TSI721_BAR0_SIZE || (off & 3) != 0) {
		model_count(&m->st.misaligned);
		return 0xffffffff;	/* what a PCIe read of nothing returns */
	}
	if (off < TSI721_CFG_SPACE_END) {
		if (rte_rio_local_read_config_32(m->srio, off, &v) != 0)
			v = 0xffffffff;
		/*
		 * The block DMA engine has request types for NREAD and NWRITE(_R)
		 * only (enum dma_rtype of Linux's tsi721.h): no SWRITE, which
		 * the SRIO side's endpoint would list.
		 */
		if (off == RTE_RIO_SRC_OPS_CAR)
			v &= ~RTE_RIO_OPS_STREAM_WRITE;
		return v;
	}
	if (off == TSI721_RETRY_GEN_CNT) {
		rte_spinlock_lock(&m->misc_lock);
		v = (uint32_t)(model_retries_answered(m) - m->retry_gen_base);
		rte_spinlock_unlock(&m->misc_lock);
		return v;
	}
	/* Reads of progress registers let the engines catch up first. */
	if (off == TSI721_IDQ_WP(0)) {
		rte_spinlock_lock(&m->misc_lock);
		model_idq_run(m);
		rte_spinlock_unlock(&m->misc_lock);
	} else if (off == TSI721_RIO_PW_RX_STAT) {
		rte_spinlock_lock(&m->misc_lock);
		model_pw_run(m);
		rte_spinlock_unlock(&m->misc_lock);
	} else if (off >= TSI721_OBDMAC_DWRCNT(0) && off < TSI721_OBDMAC_DWRCNT(8) &&
		   ((off & 0xfff) == (TSI721_OBDMAC_STS(0) & 0xfff) ||
		    (off & 0xfff) == (TSI721_OBDMAC_DRDCNT(0) & 0xfff))) {
		ch = (off - TSI721_OBDMAC_DWRCNT(0)) / 0x1000;
		model_ob_regs(ch, &r);
		rte_spinlock_lock(&m->ob[ch].lock);
		model_chan_run(m, &m->ob[ch], &r, true);
		rte_spinlock_unlock(&m->ob[ch].lock);
	} else if (off >= TSI721_IBDMAC_FQBL(0) && off < TSI721_IBDMAC_FQBL(0) + 8 * 0x1000 &&
		   (off & 0xfff) == (TSI721_IBDMAC_DQWR(0) & 0xfff)) {
		ch = (off - TSI721_OBDMAC_DWRCNT(0)) / 0x1000;
		rte_spinlock_lock(&m->ib[ch].lock);
		model_ib_run(m, ch, &m->ib[ch]);
		rte_spinlock_unlock(&m->ib[ch].lock);
	} else if (off == TSI721_DEV_INT || off == TSI721_DEV_CHAN_INT) {
		model_service(m);
		return off == TSI721_DEV_INT ? model_dev_int(m) : model_dev_chan_int(m);
	} else if (off == TSI721_RIO_EM_INT_STAT) {
		return model_em_int_stat(m);
	}
	return model_reg(m, off);
}

static void
model_db_write16(void *ctx, uint32_t off, uint16_t be_val)
{
	struct tsi721_model *m = ctx;
	uint32_t tt = (off >> TSI721_ODB_TT_SHIFT) & 0x3;
	uint16_t destid = (off >> TSI721_ODB_DESTID_SHIFT) & 0xffff;
	uint32_t result;
	int ret;

	if (off >= TSI721_BAR1_SIZE || (off & 3) != 0 ||
	    tt != (m->devid_size == 16 ? TSI721_TT_16 : TSI721_TT_8) ||
	    (tt == TSI721_TT_8 && destid > 0xff)) {
		model_count(&m->st.desc_bad);
		ret = -EINVAL;
	} else {
		ret = rte_rio_send_doorbell(m->srio, destid, rte_be_to_cpu_16(be_val));
	}
	switch (ret) {
	case 0:
		result = TSI721_SR_CHINT_ODBOK;
		model_count(&m->st.dbell_tx);
		break;
	case -EAGAIN:
		result = TSI721_SR_CHINT_ODBRTRY;
		break;
	case -ETIMEDOUT:
		result = TSI721_SR_CHINT_ODBTO;
		break;
	default:
		result = TSI721_SR_CHINT_ODBERR;
		break;
	}
	rte_spinlock_lock(&m->misc_lock);
	model_reg_or(m, TSI721_SR_CHINT(0), result);
	rte_spinlock_unlock(&m->misc_lock);
}

static void
model_stats_get(const void *ctx, struct tsi721_model_stats *st)
{
	const struct tsi721_model *m = ctx;
	const uint64_t *src = (const uint64_t *)&m->st;
	uint64_t *dst = (uint64_t *)st;
	size_t i;

	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

const struct tsi721_bar_ops tsi721_model_bar_ops = {
	.read32 = model_read32,
	.write32 = model_write32,
	.db_write16 = model_db_write16,
	.model_stats = model_stats_get,
};

/* ------------------------------------------------------------------ */
/* Create and free                                                    */

/*
 * Remove the SRIO side's rio_sim vdev through its driver (which unregisters
 * the hidden mport), not with rte_vdev_uninit(): at EAL cleanup the vdev bus
 * removes its devices while walking a list whose entries it frees as it
 * goes, and a lookup by name would read freed entries. The model's rio_sim
 * vdev always comes after the model in that list, so it is still there. It
 * stays listed without a driver (the bus skips such a device); its name is
 * never used again in the process.
 */
static void
model_srio_remove(struct rte_vdev_device *dev)
{
	const struct rte_vdev_driver *drv;

	if (dev->device.driver == NULL)
		return;
	drv = container_of(dev->device.driver, const struct rte_vdev_driver, driver);
	if (drv->remove != NULL && drv->remove(dev) < 0)
		TSI_LOG(ERR, "%s: cannot remove", dev->device.name);
	dev->device.driver = NULL;
}

static int
model_dev_cmp(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

void
tsi721_model_free(struct tsi721_model *m)
{
	unsigned int i;

	if (m == NULL)
		return;
	__atomic_store_n(&m->freeing, true, __ATOMIC_RELEASE);
	if (m->mem_cb)
		rte_mem_event_callback_unregister(m->name, m);
	/* Waits for a running callback to finish. */
	rte_eal_alarm_cancel(model_retry_alarm, m);
	if (m->srio != NULL) {
		for (i = 0; i < TSI721_IBWIN_NUM; i++)
			model_ibwin_disable(m, i);
		for (i = 0; i < TSI721_MSG_CHANNELS; i++)
			model_ib_close_srio(m, i, &m->ib[i]);
		for (i = 0; i < RTE_RIO_MAX_MBOX; i++)
			if (m->srio_outb_open[i])
				rte_rio_release_outb_mbox(m->srio, i);
		rte_rio_release_inb_dbell(m->srio, 0, 0xffff);
	}
	if (m->srio_dev != NULL)
		model_srio_remove(m->srio_dev);
	rte_free(m->regs);
	rte_free(m);
}

/* Reset values of the implementation registers the driver reads. */
static void
model_reset(struct tsi721_model *m)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		rte_spinlock_init(&m->bdma[i].lock);
		rte_spinlock_init(&m->ob[i].lock);
		rte_spinlock_init(&m->ib[i].lock);
	}
	for (i = 0; i < RTE_RIO_MAX_MBOX; i++)
		rte_spinlock_init(&m->srio_send_lock[i]);
	rte_spinlock_init(&m->misc_lock);
	rte_spinlock_init(&m->xlat_lock);
	rte_spinlock_init(&m->ibwin_lock);
	model_reg_set(m, TSI721_IDQ_SIZE(0), TSI721_QSIZE_VAL(TSI721_IDQ_SIZE_MIN));
}

/* Names of the models' rio_sim vdevs, unique in the process. */
static uint32_t model_srio_seq;

static struct tsi721_model *
model_create(const char *name, const struct tsi721_devargs *p, int *err)
{
	struct rte_rio_mport_info info;
	struct rte_device *dev;
	struct rte_bus *vbus;
	char args[512];
	struct tsi721_model *m;
	int n, ret;

	m = rte_zmalloc("tsi721_model", sizeof(*m), RTE_CACHE_LINE_SIZE);
	if (m == NULL) {
		*err = -ENOMEM;
		return NULL;
	}
	m->regs = rte_zmalloc("tsi721_model_bar0", TSI721_BAR0_SIZE, RTE_CACHE_LINE_SIZE);
	if (m->regs == NULL) {
		*err = -ENOMEM;
		goto fail;
	}
	strlcpy(m->name, name, sizeof(m->name));
	model_reset(m);
	/* Legacy memory (--no-huge among others) is never freed: no events there. */
	m->mem_cb = rte_mem_event_callback_register(m->name, model_mem_event, m) == 0;

	/*
	 * The SRIO side: a rio_sim endpoint that only the model uses, named
	 * short enough for rio_sim's own bookkeeping.
	 */
	snprintf(m->srio_name, sizeof(m->srio_name), "rio_sim_t7s%u",
		 __atomic_fetch_add(&model_srio_seq, 1, __ATOMIC_RELAXED));
	n = snprintf(args, sizeof(args), "fabric=%s,scan=0", p->fabric);
	if (p->endpoint[0] != '\0')
		n += snprintf(args + n, sizeof(args) - n, ",endpoint=%s", p->endpoint);
	if (p->topology[0] != '\0')
		n += snprintf(args + n, sizeof(args) - n, ",topology=%s", p->topology);
	if (n >= (int)sizeof(args)) {
		*err = -E2BIG;
		goto fail;
	}
	ret = rte_vdev_init(m->srio_name, args);
	if (ret < 0) {
		TSI_LOG(ERR, "%s: cannot attach to fabric %s (%s): %s", name, p->fabric, args,
			strerror(-ret));
		*err = ret;
		goto fail;
	}
	vbus = rte_bus_find_by_name("vdev");
	dev = vbus != NULL ? vbus->find_device(NULL, model_dev_cmp, m->srio_name) : NULL;
	m->srio = rte_rio_mport_find(m->srio_name);
	if (dev == NULL || m->srio == NULL) {
		m->srio = NULL;
		rte_vdev_uninit(m->srio_name);
		*err = -ENODEV;
		goto fail;
	}
	m->srio_dev = RTE_DEV_TO_VDEV(dev);
	ret = rte_rawdev_get_dev_id(m->srio_name);
	if (ret < 0) {
		*err = -ENODEV;
		goto fail;
	}
	m->srio_raw = (uint16_t)ret;
	/* The part takes a free buffer of the host at a message's first segment. */
	ret = rte_rawdev_set_attr(m->srio_raw, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED,
				  RTE_LEN2MASK(RTE_RIO_MAX_MBOX, uint32_t));
	if (ret < 0) {
		*err = ret;
		goto fail;
	}
	rte_rio_mport_hide(m->srio);
	if (rte_rio_mport_info_get(m->srio, &info) < 0) {
		*err = -ENODEV;
		goto fail;
	}
	m->devid_size = info.devid_size;
	ret = rte_rio_request_inb_dbell(m->srio, 0, 0xffff, model_idb_cb, m);
	if (ret < 0) {
		*err = ret;
		goto fail;
	}
	return m;
fail:
	tsi721_model_free(m);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* vdev                                                               */

static int
model_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct tsi721_probe_params pp;
	struct tsi721_devargs p;
	struct tsi721_model *m;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		TSI_LOG(ERR, "%s: the model runs in the primary process only", name);
		return -ENOTSUP;
	}
	if (strlen(name) >= (size_t)RTE_MIN(RTE_RAWDEV_NAME_MAX_LEN, RTE_RIO_NAME_MAX_LEN)) {
		TSI_LOG(ERR, "%s: device name longer than %d characters", name,
			RTE_MIN(RTE_RAWDEV_NAME_MAX_LEN, RTE_RIO_NAME_MAX_LEN) - 1);
		return -EINVAL;
	}
	ret = tsi721_devargs_parse(name, rte_vdev_device_args(vdev), TSI721_DEVARGS_MODEL, &p);
	if (ret < 0)
		return ret;
	m = model_create(name, &p, &ret);
	if (m == NULL)
		return ret;
	if (p.host_destid >= RTE_RIO_ANY_DESTID(m->devid_size)) {
		TSI_LOG(ERR, "%s: host=%d out of range for %u-bit device IDs", name, p.host_destid,
			m->devid_size);
		tsi721_model_free(m);
		return -EINVAL;
	}
	memset(&pp, 0, sizeof(pp));
	pp.name = name;
	pp.device = &vdev->device;
	pp.bar = &tsi721_model_bar_ops;
	pp.bar_ctx = m;
	pp.model = m;
	pp.devid_size = m->devid_size;
	pp.host_destid = p.host_destid;
	pp.scan = p.scan;
	pp.disc_timeout_ms = p.disc_timeout_ms;
	/* From here the model is a part on a bus like any other: the PCI path's probe. */
	ret = tsi721_probe_common(&pp);
	if (ret < 0)
		tsi721_model_free(m);
	return ret;
}

static int
model_remove(struct rte_vdev_device *vdev)
{
	void *m;
	int ret;

	ret = tsi721_remove_common(rte_vdev_device_name(vdev), &m);
	if (ret == 0)
		tsi721_model_free(m);
	return ret;
}

static struct rte_vdev_driver tsi721_model_drv = {
	.probe = model_probe,
	.remove = model_remove,
};

RTE_PMD_REGISTER_VDEV(tsi721_model, tsi721_model_drv);
RTE_PMD_REGISTER_PARAM_STRING(tsi721_model,
	"fabric=<name> "
	"topology=<path|builtin:<shape>> "
	"endpoint=<name|index> "
	"host=<destid> "
	"scan=<0|1> "
	"disc_timeout=<ms>");

/* ------------------------------------------------------------------ */
/* The model without this driver (rte_pmd_tsi721_model.h)             */

struct tsi721_model *
rte_pmd_tsi721_model_open(const char *name, const char *args)
{
	struct tsi721_devargs da;
	struct tsi721_model *m;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		rte_errno = ENOTSUP;
		return NULL;
	}
	if (name == NULL || name[0] == '\0' || strlen(name) >= RTE_RIO_NAME_MAX_LEN) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = tsi721_devargs_parse(name, args, TSI721_DEVARGS_BARE_MODEL, &da);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	m = model_create(name, &da, &ret);
	if (m == NULL)
		rte_errno = -ret;
	return m;
}

void
rte_pmd_tsi721_model_close(struct tsi721_model *m)
{
	tsi721_model_free(m);
}

uint32_t
rte_pmd_tsi721_model_read32(struct tsi721_model *m, uint32_t off)
{
	return model_read32(m, off);
}

void
rte_pmd_tsi721_model_write32(struct tsi721_model *m, uint32_t off, uint32_t val)
{
	model_write32(m, off, val);
}

void
rte_pmd_tsi721_model_db_write16(struct tsi721_model *m, uint32_t off, uint16_t be_val)
{
	model_db_write16(m, off, be_val);
}

bool
rte_pmd_tsi721_model_intx(struct tsi721_model *m)
{
	model_service(m);
	return (model_dev_int(m) & model_reg(m, TSI721_DEV_INTE)) != 0;
}

uint64_t
rte_pmd_tsi721_model_errors(const struct tsi721_model *m)
{
	struct tsi721_model_stats st;

	model_stats_get(m, &st);
	return st.desc_bad + st.misaligned + st.overrun + st.dma_bad;
}
