/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * The node's master port and its kernel-side entry points, compiled on the
 * kernel side (lr_kernel.h force-included, Linux's <linux/rio*.h>). The
 * master port is either
 * - Linux's own tsi721 driver (drivers/rapidio/devices/tsi721.c, built
 *   unmodified) on a register-level model of the part, plugged in as a PCI
 *   function: its interrupt handler runs when the model's INTx line is
 *   asserted (lr_node_poll()), or
 * - the shim master port below: Linux's struct rio_ops over one rio_sim
 *   endpoint (lr_bridge.h).
 *
 * The shim master port
 * It behaves as a simple controller would:
 * - maintenance and doorbells complete before the call returns (Tsi721
 *   waits for them too); a failed read returns an error and 0xffffffff;
 * - an outbound mailbox is a ring of @entries descriptors: add_outb_message
 *   copies the message (its length rounded up to a double-word, the padding
 *   zeroed, 8..4096 bytes as on Tsi721) and returns; lr_node_poll() sends
 *   the ring in order, keeps resending a message answered RETRY (as the
 *   controller's retry logic would) for up to LR_TX_RETRY_MS, and reports
 *   every completed descriptor to the mailbox's callback;
 * - inbound doorbells, messages and port-writes are noticed by
 *   lr_node_poll(), which calls the handlers Linux registered, as the
 *   interrupt handler of a controller does;
 * - map_inb maps the coherent DMA memory Linux gives by its bus address
 *   (DPDK memory, by IOVA: page-aligned, of normal pages under --no-huge)
 *   as an inbound window of the rio_sim endpoint;
 * - its DMA device (mport->dma, CONFIG_RAPIDIO_DMA_ENGINE) has one channel
 *   that moves the scatter lists of rio_dma_prep_xfer() with NREAD and
 *   NWRITE/NWRITE_R, as the wr_type of struct rio_dma_ext asks (default
 *   NWRITE, as Tsi721's engine), when the client issues pending work:
 *   one descriptor after the other, synchronously.
 */

#include <linux/rio.h>
#include <linux/rio_drv.h>
#include <linux/rio_regs.h>

#include "lr_bridge.h"

/* Declared in drivers/rapidio/rio.h, the core's private header. */
struct rio_mport *rio_find_mport(int mport_id);

/* rio-sysfs.c is not built: its attribute groups are empty. */
const struct attribute_group *rio_dev_groups[] = { NULL };
const struct attribute_group *rio_bus_groups[] = { NULL };
const struct attribute_group *rio_mport_groups[] = { NULL };


#define LR_TX_RETRY_MS 2000
#define LR_MAX_MSG 4096

struct lr_tx_desc {
	u16 destid;
	u16 len;
	u8 data[LR_MAX_MSG];
};

struct lr_outb {
	bool open;
	void *dev_id;
	u32 entries;
	u64 head;		/* descriptors added */
	u64 tail;		/* descriptors completed */
	u64 retry_since;	/* ms: first RETRY of the descriptor at tail, 0 if none */
	struct lr_tx_desc *ring;
	u64 sent, errors, retries;
};

struct lr_inb {
	bool open;
	void *dev_id;
	u64 received;
};

/* Inbound windows Linux mapped: rio_sim unmaps by RapidIO address, Linux by local address. */
#define LR_INB_WINDOWS 8

struct lr_inb_win {
	dma_addr_t lstart;
	u64 rstart;
	bool used;
};

#define LR_DMA_DESCS 16
/* Largest data payload of one NWRITE_R packet, bytes (RTE_RIO_MEM_MAX_PKT). */
#define LR_MEM_MAX_PKT 256

struct lr_dma_desc {
	struct dma_async_tx_descriptor txd;
	bool used;
	bool submitted;
	struct rio_dma_ext ext;
	struct scatterlist *sgl;
	unsigned int sg_len;
	enum dma_transfer_direction dir;
};

struct lr_dma {
	struct dma_chan chan;
	struct lr_dma_desc desc[LR_DMA_DESCS];
	/* Status of the last LR_DMA_DESCS cookies completed, by cookie. */
	struct {
		dma_cookie_t cookie;
		enum dma_status status;
	} done[LR_DMA_DESCS];
	u64 xfers, errors, bytes;
	int last_error;		/* of the backend, for the report: DMA_ERROR says no more */
};

struct lr_mport {
	struct rio_mport mport;
	struct lr_backend *be;
	bool pw_enabled;
	struct lr_outb outb[RIO_MAX_MBOX];
	struct lr_inb inb[RIO_MAX_MBOX];
	u64 dbells_rx, dbells_tx, dbells_unclaimed, pw_rx;
	u64 route_writes;
	u16 last_rx_src;	/* of the message get_inb_message returned last */
	struct lr_inb_win win[LR_INB_WINDOWS];
	struct lr_dma dma;
};

static struct lr_mport *lr_port;	/* the shim master port, when it runs */
static struct rio_mport *lr_mp;		/* the master port that runs */
static int lr_scan_result = -ENODEV;
static void *lr_t7_model;		/* the Tsi721 model, when Linux's driver runs */
static struct pci_dev lr_t7_pdev;
static u16 lr_t7_last_rx_src;
static struct rio_ops lr_t7_ops;	/* tsi721's, with a tap on get_inb_message */
static void *(*lr_t7_get_inb_message)(struct rio_mport *mport, int mbox);
static void (*lr_rx_cb)(const uint8_t *frame, unsigned int len, uint16_t srcid, void *arg);
static void *lr_rx_arg;

static struct lr_mport *
to_lr(struct rio_mport *mport)
{
	return container_of(mport, struct lr_mport, mport);
}

static int
lr_lcread(struct rio_mport *mport, int index, u32 offset, int len, u32 *data)
{
	int ret = lrb_lcread(to_lr(mport)->be, offset, len, data);

	if (ret < 0)
		*data = 0xffffffff;
	return ret;
}

static int
lr_lcwrite(struct rio_mport *mport, int index, u32 offset, int len, u32 data)
{
	return lrb_lcwrite(to_lr(mport)->be, offset, len, data);
}

static int
lr_cread(struct rio_mport *mport, int index, u16 destid, u8 hopcount, u32 offset, int len,
	 u32 *data)
{
	int ret = lrb_cread(to_lr(mport)->be, destid, hopcount, offset, len, data);

	if (ret < 0)
		*data = 0xffffffff;
	return ret;
}

static int
lr_cwrite(struct rio_mport *mport, int index, u16 destid, u8 hopcount, u32 offset, int len,
	  u32 data)
{
	struct lr_mport *lp = to_lr(mport);

	if (offset == RIO_STD_RTE_CONF_PORT_SEL_CSR)
		lp->route_writes++;
	return lrb_cwrite(lp->be, destid, hopcount, offset, len, data);
}

static int
lr_dsend(struct rio_mport *mport, int index, u16 destid, u16 data)
{
	struct lr_mport *lp = to_lr(mport);
	int ret = lrb_dsend(lp->be, destid, data);

	if (ret == 0)
		lp->dbells_tx++;
	return ret;
}

static int
lr_pwenable(struct rio_mport *mport, int enable)
{
	to_lr(mport)->pw_enabled = enable != 0;
	return 0;
}

static int
lr_open_outb_mbox(struct rio_mport *mport, void *dev_id, int mbox, int entries)
{
	struct lr_mport *lp = to_lr(mport);
	struct lr_outb *ob;
	int ret;

	if (mbox < 0 || mbox >= RIO_MAX_MBOX || entries < 2 || entries > 4096)
		return -EINVAL;
	ob = &lp->outb[mbox];
	if (ob->open)
		return -EBUSY;
	ob->ring = calloc((size_t)entries, sizeof(*ob->ring));
	if (ob->ring == NULL)
		return -ENOMEM;
	ret = lrb_open_outb_mbox(lp->be, mbox, entries);
	if (ret < 0) {
		free(ob->ring);
		ob->ring = NULL;
		return ret;
	}
	ob->open = true;
	ob->dev_id = dev_id;
	ob->entries = (u32)entries;
	ob->head = 0;
	ob->tail = 0;
	ob->retry_since = 0;
	return 0;
}

static void
lr_close_outb_mbox(struct rio_mport *mport, int mbox)
{
	struct lr_mport *lp = to_lr(mport);
	struct lr_outb *ob = &lp->outb[mbox];

	if (!ob->open)
		return;
	lrb_close_outb_mbox(lp->be, mbox);
	free(ob->ring);
	ob->ring = NULL;
	ob->open = false;
}

static int
lr_open_inb_mbox(struct rio_mport *mport, void *dev_id, int mbox, int entries)
{
	struct lr_mport *lp = to_lr(mport);
	int ret;

	if (mbox < 0 || mbox >= RIO_MAX_MBOX)
		return -EINVAL;
	if (lp->inb[mbox].open)
		return -EBUSY;
	ret = lrb_open_inb_mbox(lp->be, mbox, entries);
	if (ret < 0)
		return ret;
	lp->inb[mbox].open = true;
	lp->inb[mbox].dev_id = dev_id;
	return 0;
}

static void
lr_close_inb_mbox(struct rio_mport *mport, int mbox)
{
	struct lr_mport *lp = to_lr(mport);

	if (!lp->inb[mbox].open)
		return;
	lrb_close_inb_mbox(lp->be, mbox);
	lp->inb[mbox].open = false;
}

static int
lr_add_outb_message(struct rio_mport *mport, struct rio_dev *rdev, int mbox, void *buffer,
		    size_t len)
{
	struct lr_mport *lp = to_lr(mport);
	struct lr_outb *ob;
	struct lr_tx_desc *d;
	size_t padded;

	if (mbox < 0 || mbox >= RIO_MAX_MBOX || !lp->outb[mbox].open || len < 8 ||
	    len > LR_MAX_MSG)
		return -EINVAL;
	ob = &lp->outb[mbox];
	if (ob->head - ob->tail == ob->entries)
		return -EBUSY;
	d = &ob->ring[ob->head % ob->entries];
	padded = (len + 7) & ~(size_t)7;
	memcpy(d->data, buffer, len);
	memset(d->data + len, 0, padded - len);
	d->len = (u16)padded;
	d->destid = rdev->destid;
	ob->head++;
	return 0;
}

static int
lr_add_inb_buffer(struct rio_mport *mport, int mbox, void *buf)
{
	return lrb_add_inb_buffer(to_lr(mport)->be, mbox, buf);
}

static void *
lr_get_inb_message(struct rio_mport *mport, int mbox)
{
	struct lr_mport *lp = to_lr(mport);
	size_t len;
	u16 src;
	void *buf;

	buf = lrb_get_inb_message(lp->be, mbox, &len, &src);
	if (buf != NULL) {
		lp->inb[mbox].received++;
		lp->last_rx_src = src;
	}
	return buf;
}

static int
lr_map_inb(struct rio_mport *mport, dma_addr_t lstart, u64 rstart, u64 size, u32 flags)
{
	struct lr_mport *lp = to_lr(mport);
	void *va = lrb_dma_va(lstart);
	int i, ret;

	/* No flag of Linux's (RIO_MAP_INB_* are not defined) is known here. */
	if (va == NULL || flags != 0)
		return -EINVAL;
	for (i = 0; i < LR_INB_WINDOWS; i++)
		if (!lp->win[i].used)
			break;
	if (i == LR_INB_WINDOWS)
		return -ENOSPC;
	ret = lrb_map_inb(lp->be, va, rstart, size);
	if (ret < 0)
		return ret;
	lp->win[i].lstart = lstart;
	lp->win[i].rstart = rstart;
	lp->win[i].used = true;
	return 0;
}

static void
lr_unmap_inb(struct rio_mport *mport, dma_addr_t lstart)
{
	struct lr_mport *lp = to_lr(mport);
	int i;

	for (i = 0; i < LR_INB_WINDOWS; i++) {
		if (lp->win[i].used && lp->win[i].lstart == lstart) {
			lrb_unmap_inb(lp->be, lp->win[i].rstart);
			lp->win[i].used = false;
			return;
		}
	}
}

static struct rio_ops lr_rio_ops = {
	.lcread = lr_lcread,
	.lcwrite = lr_lcwrite,
	.cread = lr_cread,
	.cwrite = lr_cwrite,
	.dsend = lr_dsend,
	.pwenable = lr_pwenable,
	.open_outb_mbox = lr_open_outb_mbox,
	.close_outb_mbox = lr_close_outb_mbox,
	.open_inb_mbox = lr_open_inb_mbox,
	.close_inb_mbox = lr_close_inb_mbox,
	.add_outb_message = lr_add_outb_message,
	.add_inb_buffer = lr_add_inb_buffer,
	.get_inb_message = lr_get_inb_message,
	.map_inb = lr_map_inb,
	.unmap_inb = lr_unmap_inb,
};

/* ---------------------------------------------------------------- DMA device */

static struct lr_mport *
chan_to_lr(struct dma_chan *chan)
{
	return to_lr(dma_to_mport(chan->device));
}

static dma_cookie_t
lr_dma_tx_submit(struct dma_async_tx_descriptor *txd)
{
	struct lr_dma_desc *d = container_of(txd, struct lr_dma_desc, txd);
	struct dma_chan *chan = txd->chan;

	if (!d->used || d->submitted)
		return -EINVAL;
	if (++chan->cookie < DMA_MIN_COOKIE)
		chan->cookie = DMA_MIN_COOKIE;
	txd->cookie = chan->cookie;
	d->submitted = true;
	return txd->cookie;
}

static struct dma_async_tx_descriptor *
lr_dma_prep_slave_sg(struct dma_chan *chan, struct scatterlist *sgl, unsigned int sg_len,
		     enum dma_transfer_direction dir, unsigned long flags, void *context)
{
	struct lr_dma *dma = &chan_to_lr(chan)->dma;
	struct rio_dma_ext *ext = context;
	struct lr_dma_desc *d;
	unsigned int i;

	if (ext == NULL || sgl == NULL || sg_len == 0 ||
	    (dir != DMA_MEM_TO_DEV && dir != DMA_DEV_TO_MEM))
		return ERR_PTR(-EINVAL);
	/* rio_sim's addresses are 64-bit: the upper bits of a 66-bit address must be 0. */
	if (ext->rio_addr_u != 0)
		return ERR_PTR(-EINVAL);
	for (i = 0; i < LR_DMA_DESCS; i++)
		if (!dma->desc[i].used)
			break;
	if (i == LR_DMA_DESCS)
		return ERR_PTR(-EBUSY);
	d = &dma->desc[i];
	memset(d, 0, sizeof(*d));
	d->used = true;
	d->ext = *ext;
	d->sgl = sgl;
	d->sg_len = sg_len;
	d->dir = dir;
	d->txd.chan = chan;
	d->txd.flags = (enum dma_ctrl_flags)flags;
	d->txd.cookie = -EBUSY;
	d->txd.tx_submit = lr_dma_tx_submit;
	return &d->txd;
}

/* One scatter-gather entry at @addr: NREAD, or the writes wr_type asks for. */
static int
lr_dma_move(struct lr_mport *lp, const struct lr_dma_desc *d, u64 addr, void *va, size_t len,
	    bool last)
{
	size_t head;
	int ret;

	if (d->dir == DMA_DEV_TO_MEM)
		return lrb_mem_read(lp->be, d->ext.destid, addr, va, len);
	switch (d->ext.wr_type) {
	case RDW_ALL_NWRITE_R:
		return lrb_mem_write(lp->be, d->ext.destid, addr, va, len, 1);
	case RDW_LAST_NWRITE_R:
		if (!last)
			return lrb_mem_write(lp->be, d->ext.destid, addr, va, len, 0);
		/* The transfer's last packet: from the last 256-byte boundary on. */
		head = (size_t)(((addr + len - 1) & ~(u64)(LR_MEM_MAX_PKT - 1)) - addr);
		if (head > len)
			head = 0;
		if (head > 0) {
			ret = lrb_mem_write(lp->be, d->ext.destid, addr, va, head, 0);
			if (ret < 0)
				return ret;
		}
		return lrb_mem_write(lp->be, d->ext.destid, addr + head, (u8 *)va + head,
				     len - head, 1);
	default:
		return lrb_mem_write(lp->be, d->ext.destid, addr, va, len, 0);
	}
}

static enum dma_status
lr_dma_run(struct lr_mport *lp, struct lr_dma_desc *d)
{
	struct lr_dma *dma = &lp->dma;
	struct scatterlist *sg;
	u64 addr = d->ext.rio_addr;
	unsigned int i;
	void *va;
	int ret = 0;

	for_each_sg(d->sgl, sg, d->sg_len, i) {
		va = lrb_dma_va(sg_dma_address(sg));
		/* As an engine's bus error on a descriptor: a buffer the bus does not reach. */
		if (va == NULL || sg_dma_len(sg) == 0) {
			ret = -EFAULT;
			break;
		}
		ret = lr_dma_move(lp, d, addr, va, sg_dma_len(sg), i + 1 == d->sg_len);
		if (ret < 0)
			break;
		addr += sg_dma_len(sg);
		dma->bytes += sg_dma_len(sg);
	}
	dma->xfers++;
	if (ret < 0) {
		dma->errors++;
		dma->last_error = ret;
		return DMA_ERROR;
	}
	return DMA_COMPLETE;
}

static void
lr_dma_issue_pending(struct dma_chan *chan)
{
	struct lr_mport *lp = chan_to_lr(chan);
	struct lr_dma *dma = &lp->dma;
	struct lr_dma_desc *d;
	enum dma_status st;
	dma_cookie_t next;
	unsigned int i;

	/* In cookie order: the next cookie after the last completed. */
	for (;;) {
		next = chan->completed_cookie + 1 < DMA_MIN_COOKIE ? DMA_MIN_COOKIE :
			chan->completed_cookie + 1;
		d = NULL;
		for (i = 0; i < LR_DMA_DESCS; i++) {
			if (dma->desc[i].used && dma->desc[i].submitted &&
			    dma->desc[i].txd.cookie == next) {
				d = &dma->desc[i];
				break;
			}
		}
		if (d == NULL)
			return;
		st = lr_dma_run(lp, d);
		dma->done[d->txd.cookie % LR_DMA_DESCS].cookie = d->txd.cookie;
		dma->done[d->txd.cookie % LR_DMA_DESCS].status = st;
		chan->completed_cookie = d->txd.cookie;
		d->used = false;
		if ((d->txd.flags & DMA_PREP_INTERRUPT) && d->txd.callback != NULL)
			d->txd.callback(d->txd.callback_param);
	}
}

static enum dma_status
lr_dma_tx_status(struct dma_chan *chan, dma_cookie_t cookie, struct dma_tx_state *state)
{
	struct lr_dma *dma = &chan_to_lr(chan)->dma;
	unsigned int k = (unsigned int)cookie % LR_DMA_DESCS;

	if (state != NULL) {
		state->last = chan->completed_cookie;
		state->used = chan->cookie;
		state->residue = 0;
	}
	if (cookie <= 0)
		return DMA_ERROR;
	if (cookie > chan->completed_cookie)
		return DMA_IN_PROGRESS;
	if (dma->done[k].cookie == cookie)
		return dma->done[k].status;
	return DMA_COMPLETE;
}

static int
lr_dma_terminate_all(struct dma_chan *chan)
{
	struct lr_dma *dma = &chan_to_lr(chan)->dma;
	unsigned int i;

	for (i = 0; i < LR_DMA_DESCS; i++)
		dma->desc[i].used = false;
	return 0;
}

static void
lr_dma_free_chan_resources(struct dma_chan *chan)
{
	lr_dma_terminate_all(chan);
}

static int
lr_dma_register(struct lr_mport *lp)
{
	struct dma_device *dd = &lp->mport.dma;

	INIT_LIST_HEAD(&dd->channels);
	list_add_tail(&lp->dma.chan.device_node, &dd->channels);
	dma_cap_zero(dd->cap_mask);
	dma_cap_set(DMA_SLAVE, dd->cap_mask);
	dma_cap_set(DMA_PRIVATE, dd->cap_mask);
	dd->dev = &lp->mport.dev;
	dd->directions = (1u << DMA_MEM_TO_DEV) | (1u << DMA_DEV_TO_MEM);
	dd->device_prep_slave_sg = lr_dma_prep_slave_sg;
	dd->device_tx_status = lr_dma_tx_status;
	dd->device_issue_pending = lr_dma_issue_pending;
	dd->device_terminate_all = lr_dma_terminate_all;
	dd->device_free_chan_resources = lr_dma_free_chan_resources;
	return dma_async_device_register(dd);
}

/* ---------------------------------------------------------------- "interrupts" */

static void
lr_dbell_dispatch(void *arg, uint16_t src, uint16_t dst, uint16_t info)
{
	struct lr_mport *lp = arg;
	struct rio_mport *mport = &lp->mport;
	struct rio_dbell *dbell;

	lp->dbells_rx++;
	list_for_each_entry(dbell, &mport->dbells, node) {
		if (dbell->res->start <= info && dbell->res->end >= info) {
			dbell->dinb(mport, dbell->dev_id, src, dst, info);
			return;
		}
	}
	lp->dbells_unclaimed++;
}

static void
lr_outb_service(struct lr_mport *lp, int mbox)
{
	struct lr_outb *ob = &lp->outb[mbox];
	struct lr_tx_desc *d;
	u64 now;
	int ret;

	while (ob->open && ob->tail != ob->head) {
		d = &ob->ring[ob->tail % ob->entries];
		ret = lrb_send_message(lp->be, d->destid, mbox, d->data, d->len);
		if (ret == -EAGAIN) {
			now = lrb_monotonic_ms();
			ob->retries++;
			if (ob->retry_since == 0)
				ob->retry_since = now;
			if (now - ob->retry_since < LR_TX_RETRY_MS)
				return;
		}
		ob->retry_since = 0;
		if (ret == 0)
			ob->sent++;
		else
			ob->errors++;
		ob->tail++;
		if (lp->mport.outb_msg[mbox].mcback != NULL)
			lp->mport.outb_msg[mbox].mcback(&lp->mport, ob->dev_id, mbox,
							(int)(ob->tail % ob->entries));
	}
}

void
lr_node_poll(void)
{
	struct lr_mport *lp = lr_port;
	union rio_pw_msg pw;
	int mbox;

	if (lr_t7_model != NULL) {
		lr_pci_poll_intx();
		lr_kernel_poll();
		return;
	}
	if (lp == NULL)
		return;
	while (lrb_dbell_poll(lp->be, 32, lr_dbell_dispatch, lp) > 0)
		;
	while (lrb_pw_fetch(lp->be, pw.raw) > 0) {
		lp->pw_rx++;
		if (lp->pw_enabled)
			rio_inb_pwrite_handler(&lp->mport, &pw);
	}
	for (mbox = 0; mbox < RIO_MAX_MBOX; mbox++) {
		if (lp->inb[mbox].open && lp->mport.inb_msg[mbox].mcback != NULL)
			lp->mport.inb_msg[mbox].mcback(&lp->mport, lp->inb[mbox].dev_id, mbox, -1);
		lr_outb_service(lp, mbox);
	}
	lr_kernel_poll();
}

/* ---------------------------------------------------------------- boot */

static void
lr_mport_release(struct device *dev)
{
	(void)dev;
}

static void
lr_rx_hook(struct net_device *dev, const u8 *frame, unsigned int len, void *arg)
{
	(void)dev;
	(void)arg;
	/* rionet passes each message up right after get_inb_message() returned it. */
	if (lr_rx_cb != NULL)
		lr_rx_cb(frame, len, lr_t7_model != NULL ? lr_t7_last_rx_src : lr_port->last_rx_src,
			 lr_rx_arg);
}

void
lr_node_set_rx(void (*cb)(const uint8_t *frame, unsigned int len, uint16_t srcid, void *arg),
	       void *arg)
{
	lr_rx_cb = cb;
	lr_rx_arg = arg;
}

/*
 * What rio_init_mports() ("rio_scan.scan=1") does, keeping the result it
 * drops: enumerate with hdid, else discover and wait for the host
 * (CONFIG_RAPIDIO_DISC_TIMEOUT).
 */
static int
lr_scan(struct rio_mport *mport)
{
	if (mport->nscan == NULL)
		return -ENODEV;
	if (mport->host_deviceid >= 0)
		lr_scan_result = mport->nscan->enumerate(mport, 0);
	else
		lr_scan_result = mport->nscan->discover(mport, 0);
	return 0;
}

/* ---------------------------------------------------------------- Linux's tsi721 */

/* The part's BARs: 512 KiB of registers, 16 MiB of outbound doorbell window. */
#define LR_T7_BAR0_LEN (512u * 1024)
#define LR_T7_BAR1_LEN (16u * 1024 * 1024)
#define LR_T7_PCI_VENDOR 0x111d
#define LR_T7_PCI_DEVICE 0x80ab

static u32
lr_t7_bar1_read32(void *ctx, u32 off)
{
	(void)ctx;
	WARN(1, "tsi721: read of the doorbell window at 0x%x\n", off);
	return 0xffffffff;
}

static void
lr_t7_bar1_write32(void *ctx, u32 off, u32 val)
{
	(void)ctx;
	WARN(1, "tsi721: 32-bit write 0x%x to the doorbell window at 0x%x\n", val, off);
}

static bool
lr_t7_intx(void *ctx)
{
	return lrb_t7_intx(ctx);
}

/* The source ID of each message, for the node's counters, before the driver takes it. */
static void *
lr_t7_get_inb_message_tap(struct rio_mport *mport, int mbox)
{
	int src = lrb_t7_next_srcid(lr_t7_model, mbox);
	void *buf = lr_t7_get_inb_message(mport, mbox);

	if (buf != NULL && src >= 0)
		lr_t7_last_rx_src = (u16)src;
	return buf;
}

static int
lr_t7_boot(const struct lr_node_opts *opts)
{
	static const struct lr_pci_bar bars[2] = {
		{ LR_T7_BAR0_LEN, lrb_t7_read32, lrb_t7_write32, NULL },
		{ LR_T7_BAR1_LEN, lr_t7_bar1_read32, lr_t7_bar1_write32, lrb_t7_db_write16 },
	};
	struct rio_mport *mport;
	int ret;

	lr_t7_model = opts->tsi721_model;
	lr_netif_rx_hook_set(lr_rx_hook, NULL);
	/* The part is on the bus before its driver registers, as at boot. */
	ret = lr_pci_add_device(&lr_t7_pdev, "0000:01:00.0", LR_T7_PCI_VENDOR, LR_T7_PCI_DEVICE,
				bars, ARRAY_SIZE(bars), lr_t7_intx, lr_t7_model);
	if (ret < 0)
		return ret;
	/* tsi721 (module_pci_driver) probes at device level, then rio-scan and rionet attach. */
	ret = lr_kernel_init_upto(7);
	if (ret < 0)
		return ret;
	mport = rio_find_mport(0);
	if (mport == NULL || lr_t7_pdev.lr_driver == NULL)
		return -ENODEV;
	lr_t7_ops = *mport->ops;
	lr_t7_get_inb_message = lr_t7_ops.get_inb_message;
	lr_t7_ops.get_inb_message = lr_t7_get_inb_message_tap;
	mport->ops = &lr_t7_ops;
	lr_mp = mport;
	return lr_scan(mport);
}

int
lr_node_boot(struct lr_backend *be, const struct lr_node_opts *opts)
{
	struct lr_mport *lp;
	struct rio_mport *mport;
	struct lrb_info info;
	char hdid[16];
	int ret;

	lr_kernel_set_loglevel(opts->loglevel);
	/* As "rapidio.hdid=<id>" on the kernel command line. */
	snprintf(hdid, sizeof(hdid), "%d", opts->hdid < 0 ? -1 : opts->hdid);
	if (lr_param_set("rapidio.hdid", hdid) < 0)
		return -EINVAL;
	if (opts->tsi721_model != NULL)
		return lr_t7_boot(opts);
	ret = lrb_info_get(be, &info);
	if (ret < 0)
		return ret;

	lp = kzalloc(sizeof(*lp), GFP_KERNEL);
	if (lp == NULL)
		return -ENOMEM;
	lp->be = be;
	mport = &lp->mport;
	mport->ops = &lr_rio_ops;
	INIT_LIST_HEAD(&mport->dbells);
	lr_port = lp;
	lr_netif_rx_hook_set(lr_rx_hook, NULL);

	/*
	 * The kernel registers a controller's mport from its probe, at
	 * device_initcall time (after the rio bus and the switch drivers),
	 * and attaches the enumerator at late_initcall.
	 */
	ret = lr_kernel_init_upto(6);
	if (ret < 0)
		return ret;
	ret = rio_mport_initialize(mport);
	if (ret < 0)
		return ret;
	rio_init_dbell_res(&mport->riores[RIO_DOORBELL_RESOURCE], 0, 0xffff);
	rio_init_mbox_res(&mport->riores[RIO_INB_MBOX_RESOURCE], 0, RIO_MAX_MBOX - 1);
	rio_init_mbox_res(&mport->riores[RIO_OUTB_MBOX_RESOURCE], 0, RIO_MAX_MBOX - 1);
	snprintf((char *)mport->name, RIO_MAX_MPORT_NAME, "%.39s", info.name);
	mport->sys_size = info.devid_size == 16 ? 1 : 0;
	mport->phys_efptr = info.phys_efptr;
	mport->phys_rmap = info.phys_rmap;
	mport->index = info.port_index;
	mport->dev.release = lr_mport_release;
	/*
	 * A host's port is Host, Master Enable and Discovered from the start,
	 * as the Tsi721 driver sets it before registering its mport. Tsi721
	 * also clears the register on an agent, which would undo a host that
	 * enumerated before this node started: a generic controller leaves
	 * an agent's port as it is.
	 */
	if (mport->host_deviceid >= 0)
		rio_local_write_config_32(mport, mport->phys_efptr + RIO_PORT_GEN_CTL_CSR,
					  RIO_PORT_GEN_HOST | RIO_PORT_GEN_MASTER |
					  RIO_PORT_GEN_DISCOVERED);
	ret = rio_register_mport(mport);
	if (ret < 0)
		return ret;
	/* As a controller's probe registers its DMA engine (tsi721_register_dma()). */
	ret = lr_dma_register(lp);
	if (ret < 0)
		return ret;
	ret = lr_kernel_init_upto(7);
	if (ret < 0)
		return ret;
	lr_mp = mport;
	return lr_scan(mport);
}

int
lr_node_scan_result(void)
{
	return lr_scan_result;
}

/* ---------------------------------------------------------------- reports */

struct lr_walk {
	FILE *f;
	bool first;
	uint16_t *destids;
	unsigned int max, n;
};

static int
lr_json_dev(struct device *dev, void *data)
{
	struct lr_walk *w = data;
	struct rio_dev *rdev = to_rio_dev(dev);
	bool sw = (rdev->pef & RIO_PEF_SWITCH) != 0;
	bool first = true;
	u32 i;

	fprintf(w->f, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"vid\": %u, \"did\": %u, "
		"\"destid\": %u, \"hopcount\": %u, \"comptag\": %u",
		w->first ? "" : ",", rio_name(rdev), sw ? "switch" : "endpoint", rdev->vid,
		rdev->did, rdev->destid, rdev->hopcount, rdev->comp_tag);
	w->first = false;
	if (sw) {
		fprintf(w->f, ", \"ports\": %u, \"inport\": %u, \"port_ok\": %u, \"driver\": \"%s\", "
			"\"routes\": [", RIO_GET_TOTAL_PORTS(rdev->swpinfo),
			RIO_GET_PORT_NUM(rdev->swpinfo), rdev->rswitch->port_ok,
			rdev->driver != NULL ? rdev->driver->name : "");
		for (i = 0; i < RIO_MAX_ROUTE_ENTRIES(lr_mp->sys_size); i++) {
			if (rdev->rswitch->route_table[i] == RIO_INVALID_ROUTE)
				continue;
			fprintf(w->f, "%s[%u, %u]", first ? "" : ", ", i,
				rdev->rswitch->route_table[i]);
			first = false;
		}
		fputc(']', w->f);
	}
	fputc('}', w->f);
	return 0;
}

void
lr_node_json(FILE *f)
{
	struct lr_mport *lp = lr_port;
	struct lr_walk w = { .f = f, .first = true };
	u64 tx = 0, tx_err = 0, retries = 0, rx = 0;
	int mbox;

	if (lr_mp == NULL)
		return;
	fprintf(f, "  \"stack\": \"linux\",\n  \"mport\": \"%s\",\n  \"mport_driver\": \"%s\",\n"
		"  \"devid_size\": %u,\n  \"host_destid\": %d,\n  \"destid\": %u,\n"
		"  \"scan_result\": %d,\n  \"warnings\": %u,\n", lr_mp->name,
		lp != NULL ? "shim" : "tsi721", lr_mp->sys_size ? 16 : 8, lr_mp->host_deviceid,
		rio_local_get_device_id(lr_mp), lr_scan_result, lr_kernel_warnings());
	if (lp != NULL) {
		for (mbox = 0; mbox < RIO_MAX_MBOX; mbox++) {
			tx += lp->outb[mbox].sent;
			tx_err += lp->outb[mbox].errors;
			retries += lp->outb[mbox].retries;
			rx += lp->inb[mbox].received;
		}
		fprintf(f, "  \"maint_count\": %llu,\n  \"route_select_writes\": %llu,\n"
			"  \"msgs_tx\": %llu,\n  \"msgs_tx_errors\": %llu,\n"
			"  \"msgs_tx_retries\": %llu,\n  \"msgs_rx\": %llu,\n  \"dbells_rx\": %llu,\n"
			"  \"dbells_tx\": %llu,\n  \"port_writes_rx\": %llu,\n",
			(unsigned long long)lrb_maint_count(lp->be),
			(unsigned long long)lp->route_writes, (unsigned long long)tx,
			(unsigned long long)tx_err, (unsigned long long)retries,
			(unsigned long long)rx, (unsigned long long)lp->dbells_rx,
			(unsigned long long)lp->dbells_tx, (unsigned long long)lp->pw_rx);
	} else {
		/* What the model refused of Linux's driver: 0 unless the model or the driver is wrong. */
		fprintf(f, "  \"model_errors\": %llu,\n  \"model_inb_windows\": %s,\n",
			(unsigned long long)lrb_t7_errors(lr_t7_model),
			lrb_t7_has_inb_windows() ? "true" : "false");
	}
	fprintf(f, "  \"devices\": [");
	bus_for_each_dev(&rio_bus_type, NULL, &w, lr_json_dev);
	fprintf(f, "\n  ]");
}

static int
lr_endpoint_dev(struct device *dev, void *data)
{
	struct lr_walk *w = data;
	struct rio_dev *rdev = to_rio_dev(dev);

	if ((rdev->pef & RIO_PEF_SWITCH) == 0 && w->n < w->max)
		w->destids[w->n++] = rdev->destid;
	return 0;
}

unsigned int
lr_node_endpoints(uint16_t *destids, unsigned int max)
{
	struct lr_walk w = { .destids = destids, .max = max };

	bus_for_each_dev(&rio_bus_type, NULL, &w, lr_endpoint_dev);
	return w.n;
}

/* ---------------------------------------------------------------- memory space */

/* The window of lr_node_inb_window(), one at a time. */
static void *lr_win_buf;
static dma_addr_t lr_win_handle;
static size_t lr_win_size;

int
lr_node_inb_window(uint64_t rio_addr, uint64_t size, uint8_t **va)
{
	dma_addr_t handle;
	void *buf;
	int ret;

	if (lr_mp == NULL)
		return -ENODEV;
	if (lr_win_buf != NULL)
		return -EBUSY;
	/* As a driver lends memory to a window: coherent DMA memory, by its bus address. */
	buf = dma_alloc_coherent(lr_mp->dev.parent, size, &handle, GFP_KERNEL);
	if (buf == NULL)
		return -ENOMEM;
	ret = rio_map_inb_region(lr_mp, handle, rio_addr, (u32)size, 0);
	if (ret < 0) {
		dma_free_coherent(lr_mp->dev.parent, size, buf, handle);
		return ret;
	}
	lr_win_buf = buf;
	lr_win_handle = handle;
	lr_win_size = size;
	*va = buf;
	return 0;
}

void
lr_node_inb_window_free(void)
{
	if (lr_win_buf == NULL)
		return;
	rio_unmap_inb_region(lr_mp, lr_win_handle);
	dma_free_coherent(lr_mp->dev.parent, lr_win_size, lr_win_buf, lr_win_handle);
	lr_win_buf = NULL;
}

static struct dma_chan *lr_dma_chan;	/* of the client below, requested once */

static void
lr_dma_callback(void *arg)
{
	*(bool *)arg = true;
}

/*
 * What a RapidIO DMA client does (as rio_mport_cdev's do_dma_request()
 * for a kernel buffer): a coherent bounce buffer, a one-entry scatter list
 * mapped for the device, rio_dma_prep_xfer(), submit, issue, wait.
 */
int
lr_node_dma_xfer(uint16_t destid, uint64_t rio_addr, void *buf, size_t len, bool write,
		 int wr_type)
{
	enum dma_data_direction ddir = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	struct dma_async_tx_descriptor *tx;
	struct rio_dma_data data;
	struct scatterlist sg;
	enum dma_status status;
	dma_addr_t handle;
	dma_cookie_t cookie;
	bool done = false;
	void *bounce;
	int ret = 0;

	if (lr_mp == NULL)
		return -ENODEV;
	if (lr_dma_chan == NULL)
		lr_dma_chan = rio_request_mport_dma(lr_mp);
	if (lr_dma_chan == NULL)
		return -ENODEV;
	bounce = dma_alloc_coherent(lr_mp->dev.parent, len, &handle, GFP_KERNEL);
	if (bounce == NULL)
		return -ENOMEM;
	if (write)
		memcpy(bounce, buf, len);
	sg_init_one(&sg, bounce, (unsigned int)len);
	if (dma_map_sg(lr_dma_chan->device->dev, &sg, 1, ddir) != 1) {
		ret = -EFAULT;
		goto out;
	}
	memset(&data, 0, sizeof(data));
	data.sg = &sg;
	data.sg_len = 1;
	data.rio_addr = rio_addr;
	data.rio_addr_u = 0;
	data.wr_type = (enum rio_write_type)wr_type;
	tx = rio_dma_prep_xfer(lr_dma_chan, destid, &data, write ? DMA_MEM_TO_DEV : DMA_DEV_TO_MEM,
			       DMA_CTRL_ACK | DMA_PREP_INTERRUPT);
	if (IS_ERR_OR_NULL(tx)) {
		ret = tx == NULL ? -EIO : (int)PTR_ERR(tx);
		goto unmap;
	}
	tx->callback = lr_dma_callback;
	tx->callback_param = &done;
	cookie = dmaengine_submit(tx);
	if (dma_submit_error(cookie)) {
		ret = dma_submit_error(cookie);
		goto unmap;
	}
	status = dma_sync_wait(lr_dma_chan, cookie);
	if (status != DMA_COMPLETE || !done)
		ret = -EIO;
	else if (!write)
		memcpy(buf, bounce, len);
unmap:
	dma_unmap_sg(lr_dma_chan->device->dev, &sg, 1, ddir);
out:
	dma_free_coherent(lr_mp->dev.parent, len, bounce, handle);
	return ret;
}

void
lr_node_dma_json(FILE *f)
{
	struct lr_dma *dma;

	if (lr_port == NULL)
		return;
	dma = &lr_port->dma;
	fprintf(f, ",\n  \"dma\": {\"xfers\": %llu, \"errors\": %llu, \"bytes\": %llu, "
		"\"last_error\": %d}", (unsigned long long)dma->xfers,
		(unsigned long long)dma->errors, (unsigned long long)dma->bytes, dma->last_error);
}

struct rio_mport *lr_node_mport(void);

struct rio_mport *
lr_node_mport(void)
{
	return lr_mp;
}

void
lr_node_shutdown(void)
{
	int mbox;

	if (lr_mp == NULL)
		return;
	/* As at reboot: rionet's notifier sends LEAVE to its active peers. */
	lr_kernel_reboot();
	if (lr_port == NULL)
		return;
	for (mbox = 0; mbox < RIO_MAX_MBOX; mbox++)
		lr_outb_service(lr_port, mbox);
}
