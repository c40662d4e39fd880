/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * The mport ops of a rio_sim endpoint: lib/rio calls them after its own
 * checks; they reach the endpoint (rio_sim_ep.c) of the device.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_rawdev.h"

/* ------------------------------------------------------------------ */
/* Mport ops: lib/rio calls them after its own checks                 */

static inline struct sim_ep *
rio_sim_mport_ep(const struct rte_rio_mport *mport)
{
	const struct rio_sim_rawdev *sd = rte_rio_mport_priv(mport);

	return sd->ep;
}

static int
rio_sim_lcread(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t *data)
{
	const struct rio_sim_rawdev *sd = rte_rio_mport_priv(mport);

	return sim_config_read(sd->fabric, sd->dev_index, SIM_PORT_LOCAL, offset, len, data);
}

static int
rio_sim_lcwrite(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t data)
{
	const struct rio_sim_rawdev *sd = rte_rio_mport_priv(mport);

	return sim_config_write(sd->fabric, sd->dev_index, SIM_PORT_LOCAL, offset, len, data);
}

/*
 * Maintenance reads are 4 bytes: a 1- or 2-byte read is one 4-byte read of
 * the register holding it, of which the byte lanes asked for are returned
 * (a write of 1 or 2 bytes has no such equivalent and is refused).
 */
static int
rio_sim_cread(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
	      uint32_t offset, int len, uint32_t *data)
{
	unsigned int shift;
	uint32_t word;
	int ret;

	if (len == 4)
		return sim_ep_maint(rio_sim_mport_ep(mport), destid, hopcount, false, offset, len,
				    data);
	if (len != 1 && len != 2)
		return -EINVAL;
	ret = sim_ep_maint(rio_sim_mport_ep(mport), destid, hopcount, false, offset & ~3u, 4,
			   &word);
	if (ret < 0)
		return ret;
	shift = (4 - len - (offset & 3)) * 8;
	*data = (word >> shift) & ((1u << (8 * len)) - 1);
	return 0;
}

/* A Tsi721 does 4-byte maintenance only (Linux tsi721_maint_dma()). */
static int
rio_sim_cread32(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		uint32_t offset, int len, uint32_t *data)
{
	if (len != 4)
		return -EINVAL;
	return sim_ep_maint(rio_sim_mport_ep(mport), destid, hopcount, false, offset, len, data);
}

static int
rio_sim_cwrite(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
	       uint32_t offset, int len, uint32_t data)
{
	return sim_ep_maint(rio_sim_mport_ep(mport), destid, hopcount, true, offset, len, &data);
}

static int
rio_sim_cread_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		    uint32_t offset, int len, uint32_t *words)
{
	return sim_ep_maint_block(rio_sim_mport_ep(mport), destid, hopcount, false, offset, len,
				  words);
}

static int
rio_sim_cwrite_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		     uint32_t offset, int len, const uint32_t *words)
{
	uint32_t tmp[16];

	/* sim_maint_block() takes one buffer for both directions; lib/rio checked len. */
	if (len < 0 || len > (int)sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, words, len);
	return sim_ep_maint_block(rio_sim_mport_ep(mport), destid, hopcount, true, offset, len,
				  tmp);
}

static int
rio_sim_dsend(struct rte_rio_mport *mport, uint16_t destid, uint16_t info)
{
	return sim_ep_dsend(rio_sim_mport_ep(mport), destid, info);
}

static int
rio_sim_dbell_fetch(struct rte_rio_mport *mport, struct rte_rio_dbell *dbells, uint16_t n)
{
	return sim_ep_dbell_fetch(rio_sim_mport_ep(mport), dbells, n);
}

static int
rio_sim_open_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	return sim_ep_open_outb_mbox(rio_sim_mport_ep(mport), mbox, entries);
}

static void
rio_sim_close_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	sim_ep_close_outb_mbox(rio_sim_mport_ep(mport), mbox);
}

static int
rio_sim_open_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	return sim_ep_open_inb_mbox(rio_sim_mport_ep(mport), mbox, entries);
}

static void
rio_sim_close_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	sim_ep_close_inb_mbox(rio_sim_mport_ep(mport), mbox);
}

static uint16_t
rio_sim_add_outb_messages(struct rte_rio_mport *mport, uint8_t mbox,
			  struct rte_rio_msg *msgs, uint16_t n)
{
	return sim_ep_send(rio_sim_mport_ep(mport), mbox, msgs, n);
}

static int64_t
rio_sim_outb_completion(struct rte_rio_mport *mport, uint8_t mbox)
{
	return sim_ep_outb_completion(rio_sim_mport_ep(mport), mbox);
}

static uint16_t
rio_sim_add_inb_buffers(struct rte_rio_mport *mport, uint8_t mbox, void * const *bufs,
			uint16_t n)
{
	return sim_ep_add_inb_buffers(rio_sim_mport_ep(mport), mbox, bufs, n);
}

static int
rio_sim_set_inb_buf_size(struct rte_rio_mport *mport, uint8_t mbox, uint16_t size)
{
	return sim_ep_set_inb_buf_size(rio_sim_mport_ep(mport), mbox, size);
}

static uint16_t
rio_sim_get_inb_messages(struct rte_rio_mport *mport, uint8_t mbox,
			 struct rte_rio_msg *msgs, uint16_t n)
{
	return sim_ep_recv(rio_sim_mport_ep(mport), mbox, msgs, n);
}

static uint16_t
rio_sim_get_inb_messages_inplace(struct rte_rio_mport *mport, uint8_t mbox,
				 struct rte_rio_msg *msgs,
				 struct rte_mbuf_ext_shared_info **shinfo, uint16_t n)
{
	return sim_ep_recv_inplace(rio_sim_mport_ep(mport), mbox, msgs, shinfo, n);
}

static int
rio_sim_pw_fetch(struct rte_rio_mport *mport, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	return sim_ep_pw_fetch(rio_sim_mport_ep(mport), msgs, n);
}

/* The ops every endpoint model shares: messages, doorbells, port-writes. */
static int
rio_sim_map_inb_window(struct rte_rio_mport *mport, void *local, uint64_t rio_addr,
		       uint64_t size, uint32_t flags)
{
	RTE_SET_USED(flags);
	return sim_ep_map_inb_window(rio_sim_mport_ep(mport), local, rio_addr, size);
}

static int
rio_sim_unmap_inb_window(struct rte_rio_mport *mport, uint64_t rio_addr)
{
	return sim_ep_unmap_inb_window(rio_sim_mport_ep(mport), rio_addr);
}

static int
rio_sim_mem_xfer(struct rte_rio_mport *mport, enum rte_rio_mem_type type, uint16_t destid,
		 const struct rte_rio_mem_pkt *pkts, uint16_t n)
{
	return sim_ep_mem_xfer(rio_sim_mport_ep(mport), type, destid, pkts, n);
}

#define RIO_SIM_MPORT_DATA_OPS \
	.cwrite = rio_sim_cwrite, \
	.dsend = rio_sim_dsend, \
	.dbell_fetch = rio_sim_dbell_fetch, \
	.open_outb_mbox = rio_sim_open_outb_mbox, \
	.close_outb_mbox = rio_sim_close_outb_mbox, \
	.open_inb_mbox = rio_sim_open_inb_mbox, \
	.close_inb_mbox = rio_sim_close_inb_mbox, \
	.add_outb_messages = rio_sim_add_outb_messages, \
	.outb_completion = rio_sim_outb_completion, \
	.add_inb_buffers = rio_sim_add_inb_buffers, \
	.get_inb_messages = rio_sim_get_inb_messages, \
	.get_inb_messages_inplace = rio_sim_get_inb_messages_inplace, \
	.pw_fetch = rio_sim_pw_fetch, \
	.set_inb_buf_size = rio_sim_set_inb_buf_size, \
	.map_inb_window = rio_sim_map_inb_window, \
	.unmap_inb_window = rio_sim_unmap_inb_window, \
	.mem_xfer = rio_sim_mem_xfer

static const struct rte_rio_mport_ops rio_sim_mport_ops = {
	.lcread = rio_sim_lcread,
	.lcwrite = rio_sim_lcwrite,
	.cread = rio_sim_cread,
	.cread_block = rio_sim_cread_block,
	.cwrite_block = rio_sim_cwrite_block,
	RIO_SIM_MPORT_DATA_OPS,
};

/* Local registers of a Tsi721 are 32-bit only (Linux tsi721_lcread/lcwrite). */
static int
rio_sim_lcread32(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t *data)
{
	if (len != 4)
		return -EINVAL;
	return rio_sim_lcread(mport, offset, len, data);
}

static int
rio_sim_lcwrite32(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t data)
{
	if (len != 4)
		return -EINVAL;
	return rio_sim_lcwrite(mport, offset, len, data);
}

/*
 * The mport of a tsi721 endpoint: 4-byte local accesses and 4-byte
 * maintenance only (the fabric refuses other maintenance sizes from it),
 * so no block maintenance ops.
 */
static const struct rte_rio_mport_ops rio_sim_tsi721_mport_ops = {
	.lcread = rio_sim_lcread32,
	.lcwrite = rio_sim_lcwrite32,
	.cread = rio_sim_cread32,
	RIO_SIM_MPORT_DATA_OPS,
};

/* The mport ops of the endpoint's model. */
const struct rte_rio_mport_ops *
rio_sim_ops_of(const struct sim_fabric *f, uint32_t dev_index)
{
	return sim_model_get(f->devs[dev_index].model)->mport_4byte_only ?
		&rio_sim_tsi721_mport_ops : &rio_sim_mport_ops;
}
