/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Memory space: inbound windows and synchronous I/O logical transactions
 * (NREAD, NWRITE, NWRITE_R, SWRITE; RapidIO Part 1).
 *
 * The library checks the window rules (power-of-two size of at least 4 KiB,
 * aligned to its size, no overlap: Linux rio_map_inb_region() and the
 * Tsi721 inbound windows) and the address space, and cuts a transfer into
 * packets the specification allows before calling the driver:
 *
 *  - bytes within one double-word go in the byte-lane combinations of the
 *    rdsize/wrsize and wdptr encodings (1 byte in any lane; 2 in lanes 0-1,
 *    2-3, 4-5, 6-7; 3 in 0-2 or 5-7; 4 in 0-3 or 4-7; 5 in 0-4 or 3-7; 6 in
 *    0-5 or 2-7; 7 in 0-6 or 1-7), so a transfer's head (up to lane 7) and
 *    tail (from lane 0) are always one packet each;
 *  - whole double-words go in packets of up to 256 bytes: any number of
 *    double-words for writes (wrsize is the largest payload), and the read
 *    sizes of rdsize (8, 16, 32, 64, 96, 128, 160, 192, 224, 256) for reads;
 *  - SWRITE carries whole double-words only: no head or tail.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "rio_private.h"

/*
 * Packets handed to the driver per mem_xfer call (32 KiB of writes): the
 * driver may pipeline them, so a larger burst leaves fewer gaps between
 * the packets of a long transfer.
 */
#define RIO_MEM_BURST		128

void
rio_mport_mem_init(struct rte_rio_mport *mport)
{
	rte_spinlock_init(&mport->lib->mem_lock);
	memset(mport->lib->inb_win, 0, sizeof(mport->lib->inb_win));
}

void
rio_mport_mem_release(struct rte_rio_mport *mport)
{
	struct rio_inb_win *w;
	unsigned int i;

	rte_spinlock_lock(&mport->lib->mem_lock);
	for (i = 0; i < RIO_INB_WIN_MAX; i++) {
		w = &mport->lib->inb_win[i];
		if (w->size == 0)
			continue;
		if (mport->ops->unmap_inb_window != NULL)
			mport->ops->unmap_inb_window(mport, w->rio_addr);
		memset(w, 0, sizeof(*w));
	}
	rte_spinlock_unlock(&mport->lib->mem_lock);
}

static bool
rio_mem_supported(const struct rte_rio_mport *mport)
{
	return mport->ops->map_inb_window != NULL && mport->ops->unmap_inb_window != NULL &&
		mport->ops->mem_xfer != NULL;
}

int
rte_rio_mem_addr_bits(struct rte_rio_mport *mport)
{
	uint32_t pell;
	int ret;

	if (mport == NULL)
		return -EINVAL;
	ret = rte_rio_local_read_config_32(mport, RTE_RIO_PELL_CTRL_CSR, &pell);
	if (ret < 0)
		return ret;
	if (pell & RTE_RIO_PELL_ADDR_66)
		return 66;
	if (pell & RTE_RIO_PELL_ADDR_50)
		return 50;
	/* 34-bit addressing is the reset value and the one every device has. */
	return 34;
}

/* Is [addr, addr + len) inside the mport's address space? 0, -ERANGE or the read's error. */
static int
rio_mem_range_check(struct rte_rio_mport *mport, uint64_t addr, uint64_t len)
{
	int bits = rte_rio_mem_addr_bits(mport);
	uint64_t last;

	if (bits < 0)
		return bits;
	if (len == 0 || addr + (len - 1) < addr)
		return -ERANGE;
	last = addr + (len - 1);
	if (bits < 64 && (last >> bits) != 0)
		return -ERANGE;
	return 0;
}

/* Does the CAR at @car (Source or Destination Operations) have any of @bits? */
static int
rio_mem_ops_check(struct rte_rio_mport *mport, uint32_t car, uint32_t bits)
{
	uint32_t ops;
	int ret;

	ret = rte_rio_local_read_config_32(mport, car, &ops);
	if (ret < 0)
		return ret;
	return (ops & bits) != 0 ? 0 : -ENOTSUP;
}

int
rte_rio_map_inb_window(struct rte_rio_mport *mport, void *local_addr, uint64_t rio_addr,
		       uint64_t size, uint32_t flags)
{
	struct rio_inb_win *w, *free_w = NULL;
	unsigned int i;
	int ret;

	if (mport == NULL || local_addr == NULL || flags != 0)
		return -EINVAL;
	if (!rio_mem_supported(mport))
		return -ENOTSUP;
	if (size < RTE_RIO_INB_WIN_MIN || !rte_is_power_of_2(size) || (rio_addr & (size - 1)))
		return -EINVAL;
	ret = rio_mem_range_check(mport, rio_addr, size);
	if (ret < 0)
		return ret;
	ret = rio_mem_ops_check(mport, RTE_RIO_DST_OPS_CAR,
				RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | RTE_RIO_OPS_STREAM_WRITE |
				RTE_RIO_OPS_WRITE_RESPONSE);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->mem_lock);
	for (i = 0; i < RIO_INB_WIN_MAX; i++) {
		w = &mport->lib->inb_win[i];
		if (w->size == 0) {
			if (free_w == NULL)
				free_w = w;
			continue;
		}
		/* Aligned power-of-two ranges: overlapping, one holds the other. */
		if (rio_addr < w->rio_addr + w->size && w->rio_addr < rio_addr + size) {
			ret = -EEXIST;
			goto out;
		}
	}
	if (free_w == NULL) {
		ret = -ENOSPC;
		goto out;
	}
	ret = mport->ops->map_inb_window(mport, local_addr, rio_addr, size, flags);
	if (ret < 0)
		goto out;
	free_w->rio_addr = rio_addr;
	free_w->size = size;
	free_w->local = local_addr;
	RIO_LOG(DEBUG, "mport %s: inbound window 0x%" PRIx64 "+0x%" PRIx64 " at %p", mport->name,
		rio_addr, size, local_addr);
out:
	rte_spinlock_unlock(&mport->lib->mem_lock);
	return ret;
}

int
rte_rio_unmap_inb_window(struct rte_rio_mport *mport, uint64_t rio_addr)
{
	struct rio_inb_win *w;
	unsigned int i;
	int ret = -ENOENT;

	if (mport == NULL)
		return -EINVAL;
	if (!rio_mem_supported(mport))
		return -ENOENT;
	rte_spinlock_lock(&mport->lib->mem_lock);
	for (i = 0; i < RIO_INB_WIN_MAX; i++) {
		w = &mport->lib->inb_win[i];
		if (w->size == 0 || w->rio_addr != rio_addr)
			continue;
		ret = mport->ops->unmap_inb_window(mport, rio_addr);
		memset(w, 0, sizeof(*w));
		break;
	}
	rte_spinlock_unlock(&mport->lib->mem_lock);
	return ret;
}

/* May @n bytes at lane @o of a double-word be one packet (rdsize/wrsize and wdptr)? */
static bool
rio_mem_lanes_ok(unsigned int o, unsigned int n)
{
	switch (n) {
	case 1:
		return true;
	case 2:
		return (o & 1) == 0;
	case 3:
		return o == 0 || o == 5;
	case 4:
		return o == 0 || o == 4;
	case 5:
		return o == 0 || o == 3;
	case 6:
		return o == 0 || o == 2;
	case 7:
		return o == 0 || o == 1;
	case 8:
		return o == 0;
	default:
		return false;
	}
}

/* Largest read size of rdsize not above @n (a multiple of 8 of at least 8). */
static uint32_t
rio_mem_read_size(uint32_t n)
{
	if (n >= 96)
		return RTE_MIN(n / 32 * 32, (uint32_t)RTE_RIO_MEM_MAX_PKT);
	if (n >= 64)
		return 64;
	if (n >= 32)
		return 32;
	if (n >= 16)
		return 16;
	return 8;
}

/* Bytes of the next packet of a transfer at @addr with @len bytes left. */
static uint32_t
rio_mem_pkt_len(enum rte_rio_mem_type type, uint64_t addr, size_t len)
{
	unsigned int o = addr & 7, n;
	uint32_t dw;

	if (o != 0 || len < 8) {
		n = RTE_MIN(8 - o, (unsigned int)RTE_MIN(len, (size_t)8));
		while (!rio_mem_lanes_ok(o, n))
			n--;
		return n;
	}
	dw = (uint32_t)RTE_MIN(len & ~(size_t)7, (size_t)RTE_RIO_MEM_MAX_PKT);
	return type == RTE_RIO_MEM_NREAD ? rio_mem_read_size(dw) : dw;
}

static int
rio_mem_xfer(struct rte_rio_mport *mport, enum rte_rio_mem_type type, uint16_t destid,
	     const struct rte_rio_mem_seg *segs, uint16_t nb_segs)
{
	static const uint32_t need[] = {
		[RTE_RIO_MEM_NREAD] = RTE_RIO_OPS_READ,
		[RTE_RIO_MEM_NWRITE] = RTE_RIO_OPS_WRITE,
		[RTE_RIO_MEM_NWRITE_R] = RTE_RIO_OPS_WRITE_RESPONSE,
		[RTE_RIO_MEM_SWRITE] = RTE_RIO_OPS_STREAM_WRITE,
	};
	struct rte_rio_mem_pkt pkts[RIO_MEM_BURST];
	uint64_t rio_addr;
	uint16_t i, n = 0;
	uint8_t *p;
	size_t len;
	int ret;

	if (mport == NULL || segs == NULL || nb_segs == 0 || (unsigned int)type >= RTE_DIM(need) ||
	    destid >= RTE_RIO_MAX_DESTIDS(mport->devid_size))
		return -EINVAL;
	for (i = 0; i < nb_segs; i++) {
		if (segs[i].buf == NULL || segs[i].len == 0)
			return -EINVAL;
		if (type == RTE_RIO_MEM_SWRITE && ((segs[i].rio_addr | segs[i].len) & 7) != 0)
			return -EINVAL;
	}
	if (!rio_mem_supported(mport))
		return -ENOTSUP;
	for (i = 0; i < nb_segs; i++) {
		ret = rio_mem_range_check(mport, segs[i].rio_addr, segs[i].len);
		if (ret < 0)
			return ret;
	}
	ret = rio_mem_ops_check(mport, RTE_RIO_SRC_OPS_CAR, need[type]);
	if (ret < 0)
		return ret;
	/* Packets of consecutive segments share a burst: they go out back to back. */
	for (i = 0; i < nb_segs; i++) {
		rio_addr = segs[i].rio_addr;
		p = segs[i].buf;
		len = segs[i].len;
		while (len > 0) {
			pkts[n].rio_addr = rio_addr;
			pkts[n].buf = p;
			pkts[n].len = (uint16_t)rio_mem_pkt_len(type, rio_addr, len);
			rio_addr += pkts[n].len;
			p += pkts[n].len;
			len -= pkts[n].len;
			if (++n == RIO_MEM_BURST) {
				ret = mport->ops->mem_xfer(mport, type, destid, pkts, n);
				if (ret < 0)
					return ret;
				n = 0;
			}
		}
	}
	return n == 0 ? 0 : mport->ops->mem_xfer(mport, type, destid, pkts, n);
}

int
rte_rio_mem_read(struct rte_rio_mport *mport, uint16_t destid, uint64_t rio_addr, void *buf,
		 size_t len)
{
	struct rte_rio_mem_seg seg = { .rio_addr = rio_addr, .buf = buf, .len = len };

	return rio_mem_xfer(mport, RTE_RIO_MEM_NREAD, destid, &seg, 1);
}

int
rte_rio_mem_write(struct rte_rio_mport *mport, uint16_t destid, uint64_t rio_addr,
		  const void *buf, size_t len, enum rte_rio_mem_type type)
{
	/* The driver only reads the bytes of a write. */
	struct rte_rio_mem_seg seg = {
		.rio_addr = rio_addr, .buf = (void *)(uintptr_t)buf, .len = len,
	};

	if (type == RTE_RIO_MEM_NREAD)
		return -EINVAL;
	return rio_mem_xfer(mport, type, destid, &seg, 1);
}

int
rte_rio_mem_readv(struct rte_rio_mport *mport, uint16_t destid,
		  const struct rte_rio_mem_seg *segs, uint16_t nb_segs)
{
	return rio_mem_xfer(mport, RTE_RIO_MEM_NREAD, destid, segs, nb_segs);
}

int
rte_rio_mem_writev(struct rte_rio_mport *mport, uint16_t destid,
		   const struct rte_rio_mem_seg *segs, uint16_t nb_segs, enum rte_rio_mem_type type)
{
	if (type == RTE_RIO_MEM_NREAD)
		return -EINVAL;
	return rio_mem_xfer(mport, type, destid, segs, nb_segs);
}
