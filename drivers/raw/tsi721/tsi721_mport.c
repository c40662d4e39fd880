/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * The mport ops of the Tsi721: configuration access, maintenance through
 * the block DMA engine, doorbells through BAR1 and the inbound doorbell
 * queue, mailboxes through the messaging engines, port-write capture, and
 * the memory space (inbound windows, NREAD/NWRITE/NWRITE_R through a block
 * DMA channel of its own). Rings
 * live in IOVA-contiguous DPDK memory and every engine is polled: no
 * interrupt is enabled.
 *
 * Polling reads one progress register per call (the inbound descriptor
 * queue's write pointer, the doorbell queue's write pointer, an outbound
 * channel's status), then walks host memory.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>

#include "tsi721.h"

/* Inbound doorbell queue: the part's smallest. */
#define TSI721_IDB_ENTRIES		TSI721_IDQ_SIZE_MIN
/* A maintenance transaction or doorbell answers within the response timeout. */
#define TSI721_WAIT_US			(3 * 1000 * 1000)

static inline struct tsi721_dev *
tsi721_mport_dev(const struct rte_rio_mport *mport)
{
	return rte_rio_mport_priv(mport);
}

static const struct rte_memzone *
tsi721_dma_alloc(struct tsi721_dev *td, const char *what, unsigned int idx, size_t len)
{
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;

	snprintf(name, sizeof(name), "tsi721_%u_%s%u", td->dev_id, what, idx);
	mz = rte_memzone_reserve_aligned(name, len, td->socket_id, RTE_MEMZONE_IOVA_CONTIG,
					 RTE_CACHE_LINE_SIZE);
	if (mz == NULL) {
		TSI_LOG(ERR, "%s: no IOVA-contiguous memory for %s (%zu bytes): %s", td->name,
			name, len, rte_strerror(rte_errno));
		return NULL;
	}
	if (mz->iova == RTE_BAD_IOVA) {
		TSI_LOG(ERR, "%s: %s has no IOVA: the part cannot reach it", td->name, name);
		rte_memzone_free(mz);
		return NULL;
	}
	memset(mz->addr, 0, len);
	return mz;
}

/* ------------------------------------------------------------------ */
/* Configuration space                                                */

/*
 * Registers are 32-bit: a 1- or 2-byte access is a lane of the word, in
 * RapidIO byte order (offset 0 is the most significant byte).
 */
static int
tsi721_lcread(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t *data)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t w, shift;

	if (offset + len > TSI721_BAR0_SIZE)
		return -ERANGE;
	w = tsi721_rd(td, offset & ~3u);
	if (len == 4) {
		*data = w;
		return 0;
	}
	shift = (4 - (offset & 3) - len) * 8;
	*data = (w >> shift) & (len == 1 ? 0xff : 0xffff);
	return 0;
}

static int
tsi721_lcwrite(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t data)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t w, shift, mask;

	if (offset + len > TSI721_BAR0_SIZE)
		return -ERANGE;
	if (len == 4) {
		tsi721_wr(td, offset, data);
		return 0;
	}
	shift = (4 - (offset & 3) - len) * 8;
	mask = (len == 1 ? 0xffu : 0xffffu) << shift;
	w = tsi721_rd(td, offset & ~3u);
	tsi721_wr(td, offset & ~3u, (w & ~mask) | ((data << shift) & mask));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Maintenance: block DMA channel 7, one immediate-data descriptor     */

#define MAINT_REG(r)	(TSI721_DMAC_BASE(TSI721_DMACH_MAINT) + (r))
#define MAINT_STS_BLOCKS	TSI721_DSSZ_MIN_BLOCKS

static int
tsi721_maint_init(struct tsi721_dev *td)
{
	struct tsi721_dma_desc *link;
	uint64_t sts_iova;

	/* Descriptor 0 carries the request, 1 links back to it. */
	td->maint_mz = tsi721_dma_alloc(td, "maint", 0, 2 * sizeof(struct tsi721_dma_desc) +
					MAINT_STS_BLOCKS * TSI721_STS_BLOCK_SIZE);
	if (td->maint_mz == NULL)
		return -ENOMEM;
	td->maint_desc = td->maint_mz->addr;
	td->maint_iova = td->maint_mz->iova;
	sts_iova = td->maint_iova + 2 * sizeof(struct tsi721_dma_desc);
	link = &td->maint_desc[1];
	link->type_id = rte_cpu_to_le_32(TSI721_DTYPE_BDMA_LINK << TSI721_DTYPE_SHIFT);
	link->raddr_lo = rte_cpu_to_le_32((uint32_t)td->maint_iova);
	link->raddr_hi = rte_cpu_to_le_32((uint32_t)(td->maint_iova >> 32));
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_DPTRH), (uint32_t)(td->maint_iova >> 32));
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_DPTRL), (uint32_t)td->maint_iova);
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_DSBH), (uint32_t)(sts_iova >> 32));
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_DSBL), (uint32_t)sts_iova);
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_DSSZ), TSI721_QSIZE_VAL(MAINT_STS_BLOCKS));
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_INT), TSI721_DMAC_INT_ALL);
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_CTL), TSI721_DMAC_CTL_INIT);
	return 0;
}

/* Map a channel's completion status to an errno (see the model's codes). */
static int
tsi721_cs_errno(uint32_t sts)
{
	switch ((sts & TSI721_DMAC_STS_CS) >> TSI721_DMAC_STS_CS_SHIFT) {
	case 0x02:
		return -ETIMEDOUT;
	case 0x01:
	case 0x05:
	case 0x06:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static int
tsi721_maint(struct tsi721_dev *td, uint16_t destid, uint8_t hopcount, uint32_t offset,
	     bool write, uint32_t *val)
{
	struct tsi721_dma_desc *d = &td->maint_desc[0];
	uint32_t rd, sts;
	uint64_t deadline;
	int ret = 0;

	rte_spinlock_lock(&td->maint_lock);
	d->type_id = rte_cpu_to_le_32((TSI721_DTYPE_IMM << TSI721_DTYPE_SHIFT) |
		((write ? TSI721_RTYPE_MAINT_WR : TSI721_RTYPE_MAINT_RD) <<
		 TSI721_DMAD_RTYPE_SHIFT) | destid);
	d->bcount = rte_cpu_to_le_32(((uint32_t)td->tt << TSI721_DMAD_TT_SHIFT) | 4);
	d->raddr_lo = rte_cpu_to_le_32(((uint32_t)hopcount << TSI721_DMAD_HOPCNT_SHIFT) | offset);
	d->raddr_hi = 0;
	d->data[0] = write ? rte_cpu_to_be_32(*val) : 0xffffffff;
	rte_io_wmb();
	rd = tsi721_rd(td, MAINT_REG(TSI721_DMAC_DRDCNT));
	/* The request and the link back: two descriptors per transaction. */
	tsi721_wr(td, MAINT_REG(TSI721_DMAC_DWRCNT), rd + 2);
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000000 * TSI721_WAIT_US;
	while ((sts = tsi721_rd(td, MAINT_REG(TSI721_DMAC_STS))) & TSI721_DMAC_STS_RUN) {
		if (rte_get_timer_cycles() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		rte_pause();
	}
	if (ret == 0 && (sts & TSI721_DMAC_STS_ABORT))
		ret = tsi721_cs_errno(sts);
	if (ret < 0) {
		/* Aborted or stuck: start the channel over. */
		tsi721_wr(td, MAINT_REG(TSI721_DMAC_INT), TSI721_DMAC_INT_ALL);
		tsi721_wr(td, MAINT_REG(TSI721_DMAC_CTL), TSI721_DMAC_CTL_INIT);
		td->maint_errors++;
	} else {
		rte_io_rmb();
		if (!write)
			*val = rte_be_to_cpu_32(d->data[0]);
		/* Status entries are not needed: release them all. */
		tsi721_wr(td, MAINT_REG(TSI721_DMAC_DSRP), tsi721_rd(td, MAINT_REG(TSI721_DMAC_DSWP)));
		td->maint_ok++;
	}
	rte_spinlock_unlock(&td->maint_lock);
	return ret;
}

/*
 * lib/rio splits 1- and 2-byte accesses into lanes of the aligned word:
 * maintenance through the part is 4 bytes only.
 */
static int
tsi721_cread(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount, uint32_t offset,
	     int len, uint32_t *data)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t w = 0, shift;
	int ret;

	ret = tsi721_maint(td, destid, hopcount, offset & ~3u, false, &w);
	if (ret < 0)
		return ret;
	if (len == 4) {
		*data = w;
		return 0;
	}
	shift = (4 - (offset & 3) - len) * 8;
	*data = (w >> shift) & (len == 1 ? 0xff : 0xffff);
	return 0;
}

static int
tsi721_cwrite(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount, uint32_t offset,
	      int len, uint32_t data)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t w, shift, mask;
	int ret;

	if (len == 4)
		return tsi721_maint(td, destid, hopcount, offset, true, &data);
	ret = tsi721_maint(td, destid, hopcount, offset & ~3u, false, &w);
	if (ret < 0)
		return ret;
	shift = (4 - (offset & 3) - len) * 8;
	mask = (len == 1 ? 0xffu : 0xffffu) << shift;
	w = (w & ~mask) | ((data << shift) & mask);
	return tsi721_maint(td, destid, hopcount, offset & ~3u, true, &w);
}

/* ------------------------------------------------------------------ */
/* Doorbells                                                          */

/*
 * Outbound: a write into BAR1; the result shows in SR_CHINT(0) as OK,
 * RETRY, timeout or error.
 */
static int
tsi721_dsend(struct rte_rio_mport *mport, uint16_t destid, uint16_t info)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t off = ((uint32_t)td->tt << TSI721_ODB_TT_SHIFT) |
		((uint32_t)destid << TSI721_ODB_DESTID_SHIFT);
	uint64_t deadline;
	uint32_t res;
	int ret;

	rte_spinlock_lock(&td->odb_lock);
	tsi721_wr(td, TSI721_SR_CHINT(0), TSI721_SR_CHINT_ODB_ALL);
	td->bar->db_write16(td->bar_ctx, off, rte_cpu_to_be_16(info));
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000000 * TSI721_WAIT_US;
	while (((res = tsi721_rd(td, TSI721_SR_CHINT(0))) & TSI721_SR_CHINT_ODB_ALL) == 0 &&
	       rte_get_timer_cycles() < deadline)
		rte_pause();
	tsi721_wr(td, TSI721_SR_CHINT(0), res & TSI721_SR_CHINT_ODB_ALL);
	rte_spinlock_unlock(&td->odb_lock);
	if (res & TSI721_SR_CHINT_ODBOK)
		ret = 0;
	else if (res & TSI721_SR_CHINT_ODBRTRY)
		ret = -EAGAIN;
	else if (res & TSI721_SR_CHINT_ODBERR)
		ret = -EIO;
	else
		ret = -ETIMEDOUT;
	if (ret == 0)
		td->dbell_tx++;
	else
		td->dbell_tx_errors++;
	return ret;
}

static int
tsi721_idb_init(struct tsi721_dev *td)
{
	td->idb_size = TSI721_IDB_ENTRIES;
	td->idb_mz = tsi721_dma_alloc(td, "idb", 0, (size_t)td->idb_size * TSI721_IDQ_ENTRY_SIZE);
	if (td->idb_mz == NULL)
		return -ENOMEM;
	td->idb = td->idb_mz->addr;
	td->idb_rdptr = 0;
	tsi721_wr(td, TSI721_IDQ_SIZE(0), TSI721_QSIZE_VAL(td->idb_size));
	tsi721_wr(td, TSI721_IDQ_BASEU(0), (uint32_t)(td->idb_mz->iova >> 32));
	tsi721_wr(td, TSI721_IDQ_BASEL(0), (uint32_t)td->idb_mz->iova);
	tsi721_wr(td, TSI721_IDQ_MASK(0), 0);	/* every doorbell */
	tsi721_wr(td, TSI721_IDQ_CTL(0), TSI721_IDQ_CTL_INIT);
	tsi721_wr(td, TSI721_IDQ_RP(0), 0);
	return 0;
}

static int
tsi721_dbell_fetch(struct rte_rio_mport *mport, struct rte_rio_dbell *dbells, uint16_t n)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t wp, rp = td->idb_rdptr;
	uint16_t i = 0;

	wp = tsi721_rd(td, TSI721_IDQ_WP(0)) % td->idb_size;
	rte_io_rmb();
	while (rp != wp && i < n) {
		struct tsi721_idb_entry *e = &td->idb[rp];

		dbells[i].info = ((uint16_t)e->info[0] << 8) | e->info[1];
		dbells[i].src = ((uint16_t)e->srcid[0] << 8) | e->srcid[1];
		dbells[i].dst = ((uint16_t)e->tgtid[0] << 8) | e->tgtid[1];
		i++;
		rp = (rp + 1) % td->idb_size;
	}
	if (i > 0) {
		td->idb_rdptr = rp;
		tsi721_wr(td, TSI721_IDQ_RP(0), rp);
		td->dbell_rx += i;
	}
	return i;
}

/* ------------------------------------------------------------------ */
/* Outbound messaging: channel = mailbox                              */

static uint32_t
tsi721_sts_blocks(uint32_t entries)
{
	return rte_align32pow2(RTE_MAX(entries + 1, (uint32_t)TSI721_DSSZ_MIN_BLOCKS));
}

static void
tsi721_omsg_start(struct tsi721_dev *td, uint8_t mbox)
{
	struct tsi721_omsg_ring *r = &td->omsg[mbox];
	uint64_t sts_iova = r->mz->iova;

	tsi721_wr(td, TSI721_OBDMAC_DPTRH(mbox), (uint32_t)(r->desc_iova >> 32));
	tsi721_wr(td, TSI721_OBDMAC_DPTRL(mbox), (uint32_t)r->desc_iova);
	tsi721_wr(td, TSI721_OBDMAC_DSBH(mbox), (uint32_t)(sts_iova >> 32));
	tsi721_wr(td, TSI721_OBDMAC_DSBL(mbox), (uint32_t)sts_iova);
	tsi721_wr(td, TSI721_OBDMAC_DSSZ(mbox), TSI721_QSIZE_VAL(r->sts_blocks));
	tsi721_wr(td, TSI721_OBDMAC_INT(mbox), TSI721_OBDMAC_INT_ALL);
	/* No RETRY threshold: a busy target back-pressures, nothing is dropped. */
	tsi721_wr(td, TSI721_OBDMAC_CTL(mbox), TSI721_OBDMAC_CTL_INIT);
	memset(r->sts, 0, (size_t)r->sts_blocks * TSI721_STS_BLOCK_SIZE);
	r->sts_rdptr = 0;
	/* The engine resumes at the next free slot. */
	tsi721_wr(td, TSI721_OBDMAC_DRDCNT(mbox), r->head);
	r->wr_count = r->head;
	r->tail = r->head;
	r->inflight = 0;
}

static int
tsi721_open_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_omsg_ring *r = &td->omsg[mbox];
	struct tsi721_omsg_desc *link;
	size_t len;

	size_t sts_len, desc_len;

	memset(r, 0, sizeof(*r));
	r->size = entries;
	r->sts_blocks = tsi721_sts_blocks(entries);
	/* Status FIFO and descriptors on 64 bytes, buffers on a cache line. */
	sts_len = (size_t)r->sts_blocks * TSI721_STS_BLOCK_SIZE;
	desc_len = RTE_ALIGN_CEIL((size_t)(entries + 1) * sizeof(*r->desc), RTE_CACHE_LINE_SIZE);
	len = sts_len + desc_len + (size_t)entries * RTE_RIO_MAX_MSG_SIZE;
	r->mz = tsi721_dma_alloc(td, "om", mbox, len);
	if (r->mz == NULL)
		return -ENOMEM;
	r->sts = r->mz->addr;
	r->desc = RTE_PTR_ADD(r->sts, sts_len);
	r->desc_iova = r->mz->iova + sts_len;
	r->bufs = RTE_PTR_ADD(r->desc, desc_len);
	r->bufs_iova = r->desc_iova + desc_len;
	link = &r->desc[entries];
	link->type_id = rte_cpu_to_le_32(TSI721_DTYPE_OMSG_LINK << TSI721_DTYPE_SHIFT);
	link->bufptr_lo = rte_cpu_to_le_32((uint32_t)r->desc_iova);
	link->bufptr_hi = rte_cpu_to_le_32((uint32_t)(r->desc_iova >> 32));
	tsi721_omsg_start(td, mbox);
	return 0;
}

static void
tsi721_close_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_omsg_ring *r = &td->omsg[mbox];

	tsi721_wr(td, TSI721_OBDMAC_CTL(mbox), TSI721_OBDMAC_CTL_SUSPEND);
	rte_memzone_free(r->mz);
	r->mz = NULL;
	r->size = 0;
}

/* Completions from the status FIFO: every descriptor up to the last one reported. */
static void
tsi721_omsg_reclaim(struct tsi721_omsg_ring *r)
{
	uint64_t last = 0, iova;
	uint32_t blk = r->sts_rdptr, i, slot, n;
	uint64_t *e;

	for (;;) {
		e = &r->sts[(size_t)blk * TSI721_STS_BLOCK_ENTRIES];
		if (__atomic_load_n(&e[0], __ATOMIC_ACQUIRE) == 0)
			break;
		for (i = 0; i < TSI721_STS_BLOCK_ENTRIES && e[i] != 0; i++) {
			iova = rte_le_to_cpu_64(e[i]);
			/* The link descriptor completes nothing of its own. */
			if (iova != r->desc_iova + (uint64_t)r->size * sizeof(*r->desc))
				last = iova;
			e[i] = 0;
		}
		blk = (blk + 1) % r->sts_blocks;
	}
	if (blk == r->sts_rdptr)
		return;
	r->sts_rdptr = blk;
	if (last == 0 || last < r->desc_iova)
		return;
	slot = (uint32_t)((last - r->desc_iova) / sizeof(*r->desc));
	if (slot >= r->size)
		return;
	n = (slot - r->tail + r->size) % r->size + 1;
	if (n > r->inflight)
		return;
	r->tail = (slot + 1) % r->size;
	r->inflight -= n;
	r->completed += n;
}

/*
 * Check the channel after posting: an abort means the message at the tail
 * failed; it and everything posted after it is dropped, the channel starts
 * over at the next free slot. Returns the tail slot's error, 0 if running.
 */
static int
tsi721_omsg_check(struct tsi721_dev *td, uint8_t mbox, uint32_t *failed_slot, uint32_t *lost)
{
	struct tsi721_omsg_ring *r = &td->omsg[mbox];
	uint32_t sts = tsi721_rd(td, TSI721_OBDMAC_STS(mbox));
	uint32_t rdptr = r->sts_rdptr;
	int err;

	tsi721_omsg_reclaim(r);
	if (r->sts_rdptr != rdptr)
		tsi721_wr(td, TSI721_OBDMAC_DSRP(mbox), r->sts_rdptr);
	if (!(sts & TSI721_OBDMAC_STS_ABORT))
		return 0;
	err = tsi721_cs_errno(sts);
	*failed_slot = r->tail;
	*lost = r->inflight;
	tsi721_omsg_start(td, mbox);
	r->st.resets++;
	return err;
}

static uint16_t
tsi721_add_outb_messages(struct rte_rio_mport *mport, uint8_t mbox, struct rte_rio_msg *msgs,
			 uint16_t n)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_omsg_ring *r = &td->omsg[mbox];
	uint32_t first = r->head, failed = 0, lost = 0, k;
	uint16_t i;
	int err;

	if (r->inflight + n > r->size) {
		/* Make room: this read also lets a stalled engine go on. */
		err = tsi721_omsg_check(td, mbox, &failed, &lost);
		if (err != 0) {
			r->st.errors += lost;
			first = r->head;
		}
	}
	for (i = 0; i < n; i++) {
		struct rte_rio_msg *m = &msgs[i];
		struct tsi721_omsg_desc *d = &r->desc[r->head];
		uint32_t len = RTE_ALIGN_CEIL((uint32_t)m->len, 8u);
		uint64_t buf = r->bufs_iova + (uint64_t)r->head * RTE_RIO_MAX_MSG_SIZE;

		if (r->inflight == r->size) {
			m->status = -EAGAIN;
			break;
		}
		if (td->devid_size == 8 && m->destid > 0xff) {
			m->status = -EINVAL;
			break;
		}
		/* The part sends whole double-words: the padding goes out as zeroes. */
		memcpy(r->bufs + (size_t)r->head * RTE_RIO_MAX_MSG_SIZE, m->buf, m->len);
		if (len > m->len)
			memset(r->bufs + (size_t)r->head * RTE_RIO_MAX_MSG_SIZE + m->len, 0,
			       len - m->len);
		d->type_id = rte_cpu_to_le_32((TSI721_DTYPE_OMSG << TSI721_DTYPE_SHIFT) |
					      m->destid);
		d->msg_info = rte_cpu_to_le_32(((uint32_t)td->tt << TSI721_OMD_TT_SHIFT) |
			((uint32_t)mbox << TSI721_MD_MBOX_SHIFT) |
			((uint32_t)m->letter << TSI721_MD_LETTER_SHIFT) |
			(TSI721_SSIZE_256 << TSI721_MD_SSIZE_SHIFT) | (len & TSI721_MD_BCOUNT));
		d->bufptr_lo = rte_cpu_to_le_32((uint32_t)buf);
		d->bufptr_hi = rte_cpu_to_le_32((uint32_t)(buf >> 32));
		m->status = 0;
		r->wr_count++;
		if (++r->head == r->size) {
			r->head = 0;
			r->wr_count++;	/* through the link descriptor */
		}
		r->inflight++;
	}
	if (i == 0)
		return 0;
	rte_io_wmb();
	tsi721_wr(td, TSI721_OBDMAC_DWRCNT(mbox), r->wr_count);
	err = tsi721_omsg_check(td, mbox, &failed, &lost);
	if (err == 0) {
		r->st.msgs += i;
		for (k = 0; k < i; k++)
			r->st.bytes += msgs[k].len;
		return i;
	}
	/* The failed message is in this burst: report it, drop what followed it. */
	k = (failed - first + r->size) % r->size;
	if (k < i) {
		r->st.errors += lost - (i - k);
		r->st.errors++;
		msgs[k].status = (int16_t)err;
		r->st.msgs += k;
		for (i = 0; i < k; i++)
			r->st.bytes += msgs[i].len;
		/* Not sent: the caller may give them again. */
		r->head = (first + k) % r->size;
		tsi721_omsg_start(td, mbox);
		return (uint16_t)k;
	}
	r->st.errors += lost;
	r->st.msgs += i;
	return i;
}

static int64_t
tsi721_outb_completion(struct rte_rio_mport *mport, uint8_t mbox)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_omsg_ring *r = &td->omsg[mbox];
	uint32_t failed, lost;
	int64_t n;

	if (r->inflight > 0 && tsi721_omsg_check(td, mbox, &failed, &lost) != 0)
		r->st.errors += lost;
	n = (int64_t)r->completed;
	r->completed = 0;
	return n;
}

/* ------------------------------------------------------------------ */
/* Inbound messaging: channel 4 + mailbox                             */

static int
tsi721_open_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_imsg_ring *r = &td->imsg[mbox];
	unsigned int ch = TSI721_IMSG_CHAN(mbox);
	uint64_t dq_iova;
	int destid;

	/*
	 * A queue of n entries holds n - 1 (equal pointers mean empty), and
	 * sizes are 2^(v + 4): the next power of two above entries holds them.
	 */
	memset(r, 0, sizeof(*r));
	r->entries = entries;
	entries = RTE_MAX(rte_align32pow2(entries + 1), 16u);
	r->size = entries;
	r->fq_va = rte_zmalloc_socket("tsi721_fq_va", entries * sizeof(void *), 0,
				      td->socket_id);
	if (r->fq_va == NULL)
		return -ENOMEM;
	r->mz = tsi721_dma_alloc(td, "im", mbox, (size_t)entries * 8 +
				 (size_t)entries * sizeof(struct tsi721_imsg_desc));
	if (r->mz == NULL) {
		rte_free(r->fq_va);
		r->fq_va = NULL;
		return -ENOMEM;
	}
	r->fq = r->mz->addr;
	r->dq = RTE_PTR_ALIGN_CEIL(RTE_PTR_ADD(r->fq, (size_t)entries * 8), 64);
	dq_iova = r->mz->iova + RTE_PTR_DIFF(r->dq, r->fq);
	destid = rte_rio_mport_destid(mport);
	r->own_destid = destid < 0 ? RTE_RIO_ANY_DESTID(td->devid_size) : (uint16_t)destid;
	tsi721_wr(td, TSI721_IB_DEVID, r->own_destid);
	tsi721_wr(td, TSI721_IBDMAC_FQBH(ch), (uint32_t)(r->mz->iova >> 32));
	tsi721_wr(td, TSI721_IBDMAC_FQBL(ch), (uint32_t)r->mz->iova);
	tsi721_wr(td, TSI721_IBDMAC_FQSZ(ch), TSI721_QSIZE_VAL(entries));
	tsi721_wr(td, TSI721_IBDMAC_DQBH(ch), (uint32_t)(dq_iova >> 32));
	tsi721_wr(td, TSI721_IBDMAC_DQBL(ch), (uint32_t)dq_iova);
	tsi721_wr(td, TSI721_IBDMAC_DQSZ(ch), TSI721_QSIZE_VAL(entries));
	tsi721_wr(td, TSI721_IBDMAC_INT(ch), TSI721_IBDMAC_INT_ALL);
	tsi721_wr(td, TSI721_IBDMAC_CTL(ch), TSI721_IBDMAC_CTL_INIT);
	return 0;
}

static void
tsi721_close_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_imsg_ring *r = &td->imsg[mbox];

	tsi721_wr(td, TSI721_IBDMAC_CTL(TSI721_IMSG_CHAN(mbox)), TSI721_IBDMAC_CTL_SUSPEND);
	rte_memzone_free(r->mz);
	rte_free(r->fq_va);
	r->mz = NULL;
	r->fq_va = NULL;
	r->size = 0;
}

/*
 * Receive buffers go into the free queue by IOVA: the part writes each
 * message straight into one.
 */
static uint16_t
tsi721_add_inb_buffers(struct rte_rio_mport *mport, uint8_t mbox, void * const *bufs,
		       uint16_t n)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_imsg_ring *r = &td->imsg[mbox];
	uint16_t i;

	for (i = 0; i < n && r->posted < r->entries; i++) {
		rte_iova_t iova = rte_mem_virt2iova(bufs[i]);

		if (iova == RTE_BAD_IOVA || (iova & 7) != 0) {
			TSI_LOG(DEBUG, "%s: receive buffer %p is not DMA memory on 8 bytes",
				td->name, bufs[i]);
			break;
		}
		r->fq[r->fq_wrptr] = rte_cpu_to_le_64(iova);
		r->fq_va[r->fq_wrptr] = bufs[i];
		r->fq_wrptr = (r->fq_wrptr + 1) % r->size;
		r->posted++;
	}
	if (i > 0) {
		rte_io_wmb();
		tsi721_wr(td, TSI721_IBDMAC_FQWP(TSI721_IMSG_CHAN(mbox)), r->fq_wrptr);
	}
	return i;
}

static uint16_t
tsi721_get_inb_messages(struct rte_rio_mport *mport, uint8_t mbox, struct rte_rio_msg *msgs,
			uint16_t n)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_imsg_ring *r = &td->imsg[mbox];
	unsigned int ch = TSI721_IMSG_CHAN(mbox);
	uint32_t wr, rp = r->dq_rdptr;
	uint16_t i = 0;

	wr = tsi721_rd(td, TSI721_IBDMAC_DQWR(ch)) % r->size;
	while (rp != wr && i < n) {
		struct tsi721_imsg_desc *d = &r->dq[rp];
		uint32_t info = rte_le_to_cpu_32(__atomic_load_n(&d->msg_info, __ATOMIC_ACQUIRE));
		uint32_t tid = rte_le_to_cpu_32(d->type_id);
		uint32_t slot = (r->fq_wrptr - r->posted + r->size) % r->size;
		uint64_t iova = ((uint64_t)rte_le_to_cpu_32(d->bufptr_hi) << 32) |
			rte_le_to_cpu_32(d->bufptr_lo);
		uint32_t len;

		if (!(info & TSI721_IMD_HO))
			break;
		d->msg_info = 0;
		rp = (rp + 1) % r->size;
		/* The part fills free buffers in the order they were given. */
		if (r->posted == 0 || iova != rte_le_to_cpu_64(r->fq[slot])) {
			r->st.errors++;
			continue;
		}
		r->posted--;
		len = info & TSI721_MD_BCOUNT;
		msgs[i].buf = r->fq_va[slot];
		msgs[i].len = len == 0 ? RTE_RIO_MAX_MSG_SIZE : len;
		msgs[i].srcid = tid & TSI721_MD_DEVID;
		msgs[i].destid = r->own_destid;
		msgs[i].mbox = mbox;
		msgs[i].letter = (info & TSI721_MD_LETTER) >> TSI721_MD_LETTER_SHIFT;
		msgs[i].status = 0;
		r->st.msgs++;
		r->st.bytes += msgs[i].len;
		i++;
	}
	if (rp != r->dq_rdptr) {
		r->dq_rdptr = rp;
		tsi721_wr(td, TSI721_IBDMAC_DQRP(ch), rp);
	}
	return i;
}

/* ------------------------------------------------------------------ */
/* Memory space: inbound windows, data transfers on block DMA channel 0 */

#define MEM_REG(r)		(TSI721_DMAC_BASE(TSI721_DMACH_DATA) + (r))
/* Descriptors of the data ring, and the bounce buffer they move. */
#define TSI721_MEM_DESCS	32
#define TSI721_MEM_STS_BLOCKS	TSI721_DSSZ_MIN_BLOCKS
#define TSI721_MEM_BUF_SIZE	(TSI721_MEM_DESCS * RTE_RIO_MEM_MAX_PKT)

static size_t
tsi721_mem_desc_len(void)
{
	return RTE_ALIGN_CEIL((TSI721_MEM_DESCS + 1) * sizeof(struct tsi721_dma_desc),
			      (size_t)TSI721_STS_BLOCK_SIZE);
}

/* (Re)start the data channel at the base of its ring with an empty status FIFO. */
static void
tsi721_mem_start(struct tsi721_dev *td)
{
	uint64_t sts_iova = td->mem_desc_iova + tsi721_mem_desc_len();

	tsi721_wr(td, MEM_REG(TSI721_DMAC_DPTRH), (uint32_t)(td->mem_desc_iova >> 32));
	tsi721_wr(td, MEM_REG(TSI721_DMAC_DPTRL), (uint32_t)td->mem_desc_iova);
	tsi721_wr(td, MEM_REG(TSI721_DMAC_DSBH), (uint32_t)(sts_iova >> 32));
	tsi721_wr(td, MEM_REG(TSI721_DMAC_DSBL), (uint32_t)sts_iova);
	tsi721_wr(td, MEM_REG(TSI721_DMAC_DSSZ), TSI721_QSIZE_VAL(TSI721_MEM_STS_BLOCKS));
	tsi721_wr(td, MEM_REG(TSI721_DMAC_INT), TSI721_DMAC_INT_ALL);
	tsi721_wr(td, MEM_REG(TSI721_DMAC_CTL), TSI721_DMAC_CTL_INIT);
	td->mem_wr_count = 0;
}

static int
tsi721_mem_init(struct tsi721_dev *td)
{
	size_t desc_len = tsi721_mem_desc_len();
	size_t sts_len = TSI721_MEM_STS_BLOCKS * TSI721_STS_BLOCK_SIZE;
	struct tsi721_dma_desc *link;
	unsigned int w;

	/* No window until one is mapped (Linux: tsi721_init_sr2pc_mapping()). */
	for (w = 0; w < TSI721_IBWIN_NUM; w++)
		tsi721_wr(td, TSI721_IBWIN_LB(w), 0);
	memset(td->ibwin, 0, sizeof(td->ibwin));
	td->mem_mz = tsi721_dma_alloc(td, "mem", 0, desc_len + sts_len + TSI721_MEM_BUF_SIZE);
	if (td->mem_mz == NULL)
		return -ENOMEM;
	td->mem_desc = td->mem_mz->addr;
	td->mem_desc_iova = td->mem_mz->iova;
	td->mem_buf = RTE_PTR_ADD(td->mem_desc, desc_len + sts_len);
	td->mem_buf_iova = td->mem_desc_iova + desc_len + sts_len;
	link = &td->mem_desc[TSI721_MEM_DESCS];
	link->type_id = rte_cpu_to_le_32(TSI721_DTYPE_BDMA_LINK << TSI721_DTYPE_SHIFT);
	link->raddr_lo = rte_cpu_to_le_32((uint32_t)td->mem_desc_iova);
	link->raddr_hi = rte_cpu_to_le_32((uint32_t)(td->mem_desc_iova >> 32));
	tsi721_mem_start(td);
	return 0;
}

struct tsi721_contig_query {
	const uint8_t *va;
	size_t len;
	rte_iova_t iova;
};

static int
tsi721_contig_walk(const struct rte_memseg_list *msl __rte_unused, const struct rte_memseg *ms,
		   size_t len, void *arg)
{
	struct tsi721_contig_query *q = arg;
	const uint8_t *start = ms->addr;

	if (q->va < start || q->va >= start + len)
		return 0;
	if (ms->iova != RTE_BAD_IOVA && q->len <= len - (size_t)(q->va - start))
		q->iova = ms->iova + (q->va - start);
	return 1;
}

/* IOVA of [va, va + len) when all of it is IOVA-contiguous DPDK memory, else RTE_BAD_IOVA. */
static rte_iova_t
tsi721_iova_contig(const void *va, size_t len)
{
	struct tsi721_contig_query q = { .va = va, .len = len, .iova = RTE_BAD_IOVA };

	rte_memseg_contig_walk(tsi721_contig_walk, &q);
	return q.iova;
}

/*
 * An inbound window translates to one host address: the window's memory
 * must be IOVA-contiguous, and (translated windows, as Linux's
 * tsi721_rio_map_inb_mem() has them) its IOVA aligned to the window size.
 */
static int
tsi721_map_inb_window(struct rte_rio_mport *mport, void *local, uint64_t rio_addr, uint64_t size,
		      uint32_t flags __rte_unused)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	rte_iova_t iova;
	unsigned int w;

	if (size > TSI721_IBWIN_MAX_SIZE) {
		TSI_LOG(ERR, "%s: window of 0x%" PRIx64 " bytes: the part's largest is 16 GiB",
			td->name, size);
		return -EINVAL;
	}
	iova = tsi721_iova_contig(local, size);
	if (iova == RTE_BAD_IOVA) {
		TSI_LOG(ERR, "%s: window memory %p (0x%" PRIx64 " bytes) is not IOVA-contiguous "
			"DPDK memory", td->name, local, size);
		return -EINVAL;
	}
	if ((iova & (size - 1)) != 0) {
		TSI_LOG(ERR, "%s: window memory at IOVA 0x%" PRIx64
			" is not aligned to its size 0x%" PRIx64, td->name, (uint64_t)iova, size);
		return -EINVAL;
	}
	for (w = 0; w < TSI721_IBWIN_NUM; w++)
		if (td->ibwin[w].size == 0)
			break;
	if (w == TSI721_IBWIN_NUM)
		return -ENOSPC;
	tsi721_wr(td, TSI721_IBWIN_SZ(w), TSI721_IBWIN_SZ_VAL(size));
	tsi721_wr(td, TSI721_IBWIN_TUA(w), (uint32_t)(iova >> 32));
	tsi721_wr(td, TSI721_IBWIN_TLA(w), (uint32_t)iova & TSI721_IBWIN_TLA_ADD);
	tsi721_wr(td, TSI721_IBWIN_UB(w), (uint32_t)(rio_addr >> 32));
	tsi721_wr(td, TSI721_IBWIN_LB(w), ((uint32_t)rio_addr & TSI721_IBWIN_LB_BA) |
		  TSI721_IBWIN_LB_WEN);
	/* A window the part (or the model) did not take reads back disabled. */
	if (!(tsi721_rd(td, TSI721_IBWIN_LB(w)) & TSI721_IBWIN_LB_WEN)) {
		TSI_LOG(ERR, "%s: inbound window %u (0x%" PRIx64 "+0x%" PRIx64 ") not enabled",
			td->name, w, rio_addr, size);
		tsi721_wr(td, TSI721_IBWIN_LB(w), 0);
		return -EINVAL;
	}
	td->ibwin[w].rio_addr = rio_addr;
	td->ibwin[w].size = size;
	return 0;
}

static int
tsi721_unmap_inb_window(struct rte_rio_mport *mport, uint64_t rio_addr)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	unsigned int w;

	for (w = 0; w < TSI721_IBWIN_NUM; w++) {
		if (td->ibwin[w].size != 0 && td->ibwin[w].rio_addr == rio_addr) {
			tsi721_wr(td, TSI721_IBWIN_LB(w), 0);
			td->ibwin[w].size = 0;
			return 0;
		}
	}
	return -ENOENT;
}

/* One run of data descriptors. */
struct tsi721_mem_run {
	uint64_t rio_addr;
	uint32_t len;
	uint32_t buf_off;	/* in the bounce buffer */
};

/* Errno of an aborted data transfer (see the model's status codes). */
static int
tsi721_mem_errno(struct tsi721_dev *td, uint32_t sts)
{
	uint32_t cs = (sts & TSI721_DMAC_STS_CS) >> TSI721_DMAC_STS_CS_SHIFT;

	switch (cs) {
	case 0x02:
		return -ETIMEDOUT;
	case 0x04:
		return -EAGAIN;
	case 0x01:
	case 0x05:
	case 0x06:
		/* Our descriptor or buffer refused: a driver bug, not the target's answer. */
		TSI_LOG(ERR, "%s: data descriptor refused by the part (status 0x%x)", td->name, cs);
		return -EIO;
	default:
		return -EIO;
	}
}

/* Hand @nd descriptors to the data channel and wait until they are done. */
static int
tsi721_mem_run(struct tsi721_dev *td, uint32_t rtype, uint16_t destid,
	       const struct tsi721_mem_run *runs, unsigned int nd)
{
	uint64_t deadline, raddr, buf;
	uint32_t idx, sts;
	unsigned int k;
	int ret = 0;

	for (k = 0; k < nd; k++) {
		struct tsi721_dma_desc *d;

		idx = td->mem_wr_count % (TSI721_MEM_DESCS + 1);
		if (idx == TSI721_MEM_DESCS) {
			td->mem_wr_count++;	/* through the link descriptor */
			idx = 0;
		}
		d = &td->mem_desc[idx];
		raddr = runs[k].rio_addr >> 2;
		buf = td->mem_buf_iova + runs[k].buf_off;
		/* As Linux's tsi721_desc_fill_init() and tsi721_desc_fill_end() lay it out. */
		d->type_id = rte_cpu_to_le_32((TSI721_DTYPE_DATA << TSI721_DTYPE_SHIFT) |
					      (rtype << TSI721_DMAD_RTYPE_SHIFT) | destid);
		d->bcount = rte_cpu_to_le_32(((uint32_t)(runs[k].rio_addr & 3) <<
					      TSI721_DMAD_RADDR0_SHIFT) |
					     ((uint32_t)td->tt << TSI721_DMAD_TT_SHIFT) |
					     (runs[k].len & TSI721_DMAD_BCOUNT1));
		d->raddr_lo = rte_cpu_to_le_32((uint32_t)raddr);
		d->raddr_hi = rte_cpu_to_le_32((uint32_t)(raddr >> 32));
		d->t1.bufptr_lo = rte_cpu_to_le_32((uint32_t)buf);
		d->t1.bufptr_hi = rte_cpu_to_le_32((uint32_t)(buf >> 32));
		d->t1.s_dist = 0;
		d->t1.s_size = 0;
		td->mem_wr_count++;
	}
	rte_io_wmb();
	tsi721_wr(td, MEM_REG(TSI721_DMAC_DWRCNT), td->mem_wr_count);
	/*
	 * Done when the engine has read every descriptor and stopped: RUN
	 * alone could read clear before the engine took up the new count
	 * (when it sets RUN is not in the available sources).
	 */
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000000 * TSI721_WAIT_US;
	for (;;) {
		sts = tsi721_rd(td, MEM_REG(TSI721_DMAC_STS));
		if (sts & TSI721_DMAC_STS_ABORT) {
			ret = tsi721_mem_errno(td, sts);
			break;
		}
		if (!(sts & TSI721_DMAC_STS_RUN) &&
		    tsi721_rd(td, MEM_REG(TSI721_DMAC_DRDCNT)) == td->mem_wr_count)
			break;
		if (rte_get_timer_cycles() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		rte_pause();
	}
	if (ret < 0) {
		/* Aborted or stuck: start the channel over at the base of its ring. */
		tsi721_mem_start(td);
		return ret;
	}
	rte_io_rmb();
	/* Status entries are not needed: release them all. */
	tsi721_wr(td, MEM_REG(TSI721_DMAC_DSRP), tsi721_rd(td, MEM_REG(TSI721_DMAC_DSWP)));
	return 0;
}

/*
 * lib/rio hands packets of one transfer; the part cuts a descriptor into
 * packets itself, so packets that follow each other in RapidIO address
 * space become one descriptor. Bytes go through the bounce buffer (the
 * caller's buffer need not be DMA memory), up to TSI721_MEM_BUF_SIZE per
 * run. SWRITE has no request type in the block DMA engine.
 */
static int
tsi721_mem_xfer(struct rte_rio_mport *mport, enum rte_rio_mem_type type, uint16_t destid,
		const struct rte_rio_mem_pkt *pkts, uint16_t n)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	struct tsi721_mem_run runs[TSI721_MEM_DESCS];
	uint16_t i = 0, first, k;
	uint32_t rtype, off;
	unsigned int nd;
	int ret = 0;

	switch (type) {
	case RTE_RIO_MEM_NREAD:
		rtype = TSI721_RTYPE_NREAD;
		break;
	case RTE_RIO_MEM_NWRITE:
		rtype = TSI721_RTYPE_ALL_NWRITE;
		break;
	case RTE_RIO_MEM_NWRITE_R:
		rtype = TSI721_RTYPE_ALL_NWRITE_R;
		break;
	default:
		return -ENOTSUP;
	}
	rte_spinlock_lock(&td->mem_lock);
	while (i < n && ret == 0) {
		first = i;
		nd = 0;
		off = 0;
		for (; i < n && off + pkts[i].len <= TSI721_MEM_BUF_SIZE; i++) {
			const struct rte_rio_mem_pkt *p = &pkts[i];
			struct tsi721_mem_run *r = nd > 0 ? &runs[nd - 1] : NULL;

			if (r == NULL || r->rio_addr + r->len != p->rio_addr ||
			    r->len + p->len > TSI721_DMAD_BCOUNT1) {
				if (nd == TSI721_MEM_DESCS)
					break;
				r = &runs[nd++];
				r->rio_addr = p->rio_addr;
				r->len = 0;
				r->buf_off = off;
			}
			r->len += p->len;
			if (type != RTE_RIO_MEM_NREAD)
				memcpy(td->mem_buf + off, p->buf, p->len);
			off += p->len;
		}
		ret = tsi721_mem_run(td, rtype, destid, runs, nd);
		if (ret < 0)
			break;
		for (k = first, off = 0; type == RTE_RIO_MEM_NREAD && k < i; k++) {
			memcpy(pkts[k].buf, td->mem_buf + off, pkts[k].len);
			off += pkts[k].len;
		}
		td->mem_bytes += off;
	}
	if (ret == 0)
		td->mem_ok++;
	else
		td->mem_errors++;
	rte_spinlock_unlock(&td->mem_lock);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Port-writes                                                        */

static int
tsi721_pw_fetch(struct rte_rio_mport *mport, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	struct tsi721_dev *td = tsi721_mport_dev(mport);
	uint32_t st;
	uint16_t i, k;

	for (i = 0; i < n; i++) {
		st = tsi721_rd(td, TSI721_RIO_PW_RX_STAT);
		if (st & TSI721_RIO_PW_RX_STAT_PW_DISC)
			td->pw_discarded++;
		if (!(st & TSI721_RIO_PW_RX_STAT_PW_VAL))
			break;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		for (k = 0; k < TSI721_PW_CAPT_SIZE / 4; k++)
			msgs[i].raw[k] = tsi721_rd(td, TSI721_RIO_PW_RX_CAPT(k));
		msgs[i].len = TSI721_PW_CAPT_SIZE;
		tsi721_wr(td, TSI721_RIO_PW_RX_STAT,
			  TSI721_RIO_PW_RX_STAT_PW_VAL | TSI721_RIO_PW_RX_STAT_PW_DISC);
		td->pw_rx++;
	}
	return i;
}

const struct rte_rio_mport_ops tsi721_mport_ops = {
	.lcread = tsi721_lcread,
	.lcwrite = tsi721_lcwrite,
	.cread = tsi721_cread,
	.cwrite = tsi721_cwrite,
	.dsend = tsi721_dsend,
	.dbell_fetch = tsi721_dbell_fetch,
	.open_outb_mbox = tsi721_open_outb_mbox,
	.close_outb_mbox = tsi721_close_outb_mbox,
	.open_inb_mbox = tsi721_open_inb_mbox,
	.close_inb_mbox = tsi721_close_inb_mbox,
	.add_outb_messages = tsi721_add_outb_messages,
	.outb_completion = tsi721_outb_completion,
	.add_inb_buffers = tsi721_add_inb_buffers,
	.get_inb_messages = tsi721_get_inb_messages,
	.pw_fetch = tsi721_pw_fetch,
	.map_inb_window = tsi721_map_inb_window,
	.unmap_inb_window = tsi721_unmap_inb_window,
	.mem_xfer = tsi721_mem_xfer,
};

/* ------------------------------------------------------------------ */
/* Bring-up                                                           */

bool
tsi721_link_up(struct tsi721_dev *td)
{
	return (tsi721_rd(td, 0x100 + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)) &
		RTE_RIO_PORT_N_ERR_STS_PORT_OK) != 0;
}

int
tsi721_hw_init(struct tsi721_dev *td)
{
	unsigned int ch;
	int ret;

	rte_spinlock_init(&td->maint_lock);
	rte_spinlock_init(&td->odb_lock);
	rte_spinlock_init(&td->mem_lock);
	td->tt = td->devid_size == 16 ? TSI721_TT_16 : TSI721_TT_8;
	/* Polled: no interrupt at any level. */
	tsi721_wr(td, TSI721_DEV_INTE, 0);
	tsi721_wr(td, TSI721_DEV_CHAN_INTE, 0);
	tsi721_wr(td, TSI721_SMSG_INTE, 0);
	tsi721_wr(td, TSI721_RIO_EM_INT_ENABLE, 0);
	tsi721_wr(td, TSI721_RIO_EM_DEV_INT_EN, 0);
	for (ch = 0; ch < TSI721_MSG_CHANNELS; ch++) {
		tsi721_wr(td, TSI721_OBDMAC_INTE(ch), 0);
		tsi721_wr(td, TSI721_IBDMAC_INTE(ch), 0);
		tsi721_wr(td, TSI721_SR_CHINTE(ch), 0);
	}
	tsi721_wr(td, TSI721_RETRY_GEN_CNT, 0);
	tsi721_wr(td, TSI721_RETRY_RX_CNT, 0);
	tsi721_wr(td, TSI721_RIO_PW_CTL, TSI721_RIO_PW_CTL_PWC_REL);
	tsi721_wr(td, TSI721_RIO_PW_RX_STAT,
		  TSI721_RIO_PW_RX_STAT_PW_VAL | TSI721_RIO_PW_RX_STAT_PW_DISC);
	ret = tsi721_maint_init(td);
	if (ret == 0)
		ret = tsi721_idb_init(td);
	if (ret == 0)
		ret = tsi721_mem_init(td);
	if (ret < 0) {
		tsi721_hw_fini(td);
		return ret;
	}
	/* The SRIO link may train now. */
	tsi721_wr(td, TSI721_DEVCTL, tsi721_rd(td, TSI721_DEVCTL) | TSI721_DEVCTL_SRBOOT_CMPL);
	return 0;
}

void
tsi721_hw_fini(struct tsi721_dev *td)
{
	if (td->idb_mz != NULL)
		tsi721_wr(td, TSI721_IDQ_CTL(0), TSI721_IDQ_CTL_SUSPEND);
	if (td->maint_mz != NULL)
		tsi721_wr(td, MAINT_REG(TSI721_DMAC_CTL), TSI721_DMAC_CTL_SUSP);
	if (td->mem_mz != NULL) {
		unsigned int w;

		for (w = 0; w < TSI721_IBWIN_NUM; w++)
			tsi721_wr(td, TSI721_IBWIN_LB(w), 0);
		memset(td->ibwin, 0, sizeof(td->ibwin));
		tsi721_wr(td, MEM_REG(TSI721_DMAC_CTL), TSI721_DMAC_CTL_SUSP);
	}
	rte_memzone_free(td->idb_mz);
	rte_memzone_free(td->maint_mz);
	rte_memzone_free(td->mem_mz);
	td->idb_mz = NULL;
	td->maint_mz = NULL;
	td->mem_mz = NULL;
}
