/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef LR_DMAENGINE_H
#define LR_DMAENGINE_H

/*
 * The part of the dmaengine client and provider API that rio.c's
 * CONFIG_RAPIDIO_DMA_ENGINE code (rio_request_mport_dma(),
 * rio_dma_prep_xfer()) and a RapidIO DMA client use: private channels
 * found by a filter, slave scatter-gather descriptors with a context
 * (struct rio_dma_ext), cookies, issue_pending and tx_status. The
 * provider is the shim master port's DMA device (lr_mport.c); the channel
 * registry is in kernel.c.
 */

#include <linux/scatterlist.h>

struct device_node;

typedef s32 dma_cookie_t;
#define DMA_MIN_COOKIE 1

enum dma_status {
	DMA_COMPLETE,
	DMA_IN_PROGRESS,
	DMA_PAUSED,
	DMA_ERROR,
	DMA_OUT_OF_ORDER,
};

enum dma_transaction_type {
	DMA_MEMCPY,
	DMA_XOR,
	DMA_PQ,
	DMA_XOR_VAL,
	DMA_PQ_VAL,
	DMA_MEMSET,
	DMA_MEMSET_SG,
	DMA_INTERRUPT,
	DMA_PRIVATE,
	DMA_ASYNC_TX,
	DMA_SLAVE,
	DMA_CYCLIC,
	DMA_INTERLEAVE,
	DMA_COMPLETION_NO_ORDER,
	DMA_REPEAT,
	DMA_LOAD_EOT,
	DMA_TX_TYPE_END,
};

enum dma_transfer_direction {
	DMA_MEM_TO_MEM,
	DMA_MEM_TO_DEV,
	DMA_DEV_TO_MEM,
	DMA_DEV_TO_DEV,
	DMA_TRANS_NONE,
};

enum dma_ctrl_flags {
	DMA_PREP_INTERRUPT = (1 << 0),
	DMA_CTRL_ACK = (1 << 1),
};

typedef struct { unsigned long bits[1]; } dma_cap_mask_t;

#define dma_cap_zero(mask) memset(&(mask), 0, sizeof(mask))
#define dma_cap_set(tx, mask) ((mask).bits[0] |= 1UL << (tx))
#define dma_has_cap(tx, mask) (((mask).bits[0] & (1UL << (tx))) != 0)

struct dma_chan {
	struct dma_device *device;
	struct list_head device_node;
	dma_cookie_t cookie;		/* last cookie given */
	dma_cookie_t completed_cookie;	/* last cookie completed */
	int chan_id;
	int client_count;		/* 1 while a client holds it (private channels) */
	void *private;
};

struct dma_async_tx_descriptor {
	dma_cookie_t cookie;
	enum dma_ctrl_flags flags;
	struct dma_chan *chan;
	dma_cookie_t (*tx_submit)(struct dma_async_tx_descriptor *tx);
	void (*callback)(void *dma_async_param);
	void *callback_param;
};

struct dma_tx_state {
	dma_cookie_t last;
	dma_cookie_t used;
	u32 residue;
};

struct dma_device {
	unsigned int chancnt;
	struct list_head channels;
	struct list_head global_node;
	dma_cap_mask_t cap_mask;
	struct device *dev;
	u32 directions;
	int (*device_alloc_chan_resources)(struct dma_chan *chan);
	void (*device_free_chan_resources)(struct dma_chan *chan);
	struct dma_async_tx_descriptor *(*device_prep_slave_sg)(struct dma_chan *chan,
		struct scatterlist *sgl, unsigned int sg_len,
		enum dma_transfer_direction direction, unsigned long flags, void *context);
	int (*device_terminate_all)(struct dma_chan *chan);
	enum dma_status (*device_tx_status)(struct dma_chan *chan, dma_cookie_t cookie,
					    struct dma_tx_state *txstate);
	void (*device_issue_pending)(struct dma_chan *chan);
};

typedef bool (*dma_filter_fn)(struct dma_chan *chan, void *filter_param);

int dma_async_device_register(struct dma_device *device);
void dma_async_device_unregister(struct dma_device *device);
struct dma_chan *__dma_request_channel(const dma_cap_mask_t *mask, dma_filter_fn fn,
				       void *fn_param, struct device_node *np);
#define dma_request_channel(mask, x, y) __dma_request_channel(&(mask), x, y, NULL)
void dma_release_channel(struct dma_chan *chan);
/* Issue pending work, then wait (bounded) until @cookie completes. */
enum dma_status dma_sync_wait(struct dma_chan *chan, dma_cookie_t cookie);

struct rio_dma_ext;

static inline struct dma_async_tx_descriptor *
dmaengine_prep_rio_sg(struct dma_chan *chan, struct scatterlist *sgl, unsigned int sg_len,
		      enum dma_transfer_direction dir, unsigned long flags,
		      struct rio_dma_ext *rio_ext)
{
	if (chan == NULL || chan->device == NULL || chan->device->device_prep_slave_sg == NULL)
		return NULL;
	return chan->device->device_prep_slave_sg(chan, sgl, sg_len, dir, flags, rio_ext);
}

static inline dma_cookie_t
dmaengine_submit(struct dma_async_tx_descriptor *desc)
{
	return desc->tx_submit(desc);
}

static inline int
dma_submit_error(dma_cookie_t cookie)
{
	return cookie < 0 ? cookie : 0;
}

static inline void
dma_async_issue_pending(struct dma_chan *chan)
{
	chan->device->device_issue_pending(chan);
}

static inline enum dma_status
dma_async_is_tx_complete(struct dma_chan *chan, dma_cookie_t cookie, dma_cookie_t *last,
			 dma_cookie_t *used)
{
	struct dma_tx_state state = { 0 };
	enum dma_status status = chan->device->device_tx_status(chan, cookie, &state);

	if (last != NULL)
		*last = state.last;
	if (used != NULL)
		*used = state.used;
	return status;
}

static inline int
dmaengine_terminate_all(struct dma_chan *chan)
{
	return chan->device->device_terminate_all != NULL ?
		chan->device->device_terminate_all(chan) : -ENOSYS;
}

#endif /* LR_DMAENGINE_H */
