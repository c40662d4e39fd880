/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * DPDK side of the shim master port (lr_bridge.h): every operation of
 * Linux's rio_ops becomes a call of librte_rio on one rio_sim mport.
 */

#include <errno.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_rio.h>

#include "rte_pmd_tsi721_model.h"
#include "../../drivers/raw/tsi721/tsi721_regs.h"

#include "lr_backend.h"
#include "lr_bridge.h"

int
lr_backend_init(struct lr_backend *be, struct rte_rio_mport *mport)
{
	memset(be, 0, sizeof(*be));
	be->mport = mport;
	return 0;
}

int
lrb_info_get(struct lr_backend *be, struct lrb_info *info)
{
	struct rte_rio_mport_info mi;
	int ret;

	ret = rte_rio_mport_info_get(be->mport, &mi);
	if (ret < 0)
		return ret;
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", mi.name);
	info->devid_size = mi.devid_size;
	info->phys_efptr = mi.phys_efptr;
	info->phys_rmap = mi.phys_rmap;
	info->port_index = mi.port_index;
	return 0;
}

int
lrb_lcread(struct lr_backend *be, uint32_t offset, int len, uint32_t *val)
{
	uint16_t v16;
	uint8_t v8;
	int ret;

	switch (len) {
	case 4:
		return rte_rio_local_read_config_32(be->mport, offset, val);
	case 2:
		ret = rte_rio_local_read_config_16(be->mport, offset, &v16);
		*val = v16;
		return ret;
	case 1:
		ret = rte_rio_local_read_config_8(be->mport, offset, &v8);
		*val = v8;
		return ret;
	}
	return -EINVAL;
}

int
lrb_lcwrite(struct lr_backend *be, uint32_t offset, int len, uint32_t val)
{
	switch (len) {
	case 4:
		return rte_rio_local_write_config_32(be->mport, offset, val);
	case 2:
		return rte_rio_local_write_config_16(be->mport, offset, (uint16_t)val);
	case 1:
		return rte_rio_local_write_config_8(be->mport, offset, (uint8_t)val);
	}
	return -EINVAL;
}

int
lrb_cread(struct lr_backend *be, uint16_t destid, uint8_t hopcount, uint32_t offset, int len,
	  uint32_t *val)
{
	uint16_t v16;
	uint8_t v8;
	int ret;

	switch (len) {
	case 4:
		return rte_rio_remote_read_config_32(be->mport, destid, hopcount, offset, val);
	case 2:
		ret = rte_rio_remote_read_config_16(be->mport, destid, hopcount, offset, &v16);
		*val = v16;
		return ret;
	case 1:
		ret = rte_rio_remote_read_config_8(be->mport, destid, hopcount, offset, &v8);
		*val = v8;
		return ret;
	}
	return -EINVAL;
}

int
lrb_cwrite(struct lr_backend *be, uint16_t destid, uint8_t hopcount, uint32_t offset, int len,
	   uint32_t val)
{
	switch (len) {
	case 4:
		return rte_rio_remote_write_config_32(be->mport, destid, hopcount, offset, val);
	case 2:
		return rte_rio_remote_write_config_16(be->mport, destid, hopcount, offset,
						      (uint16_t)val);
	case 1:
		return rte_rio_remote_write_config_8(be->mport, destid, hopcount, offset,
						     (uint8_t)val);
	}
	return -EINVAL;
}

int
lrb_dsend(struct lr_backend *be, uint16_t destid, uint16_t info)
{
	return rte_rio_send_doorbell(be->mport, destid, info);
}

static void
lrb_dbell_trampoline(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct lr_backend *be = arg;

	(void)mport;
	be->dbell_cb(be->dbell_arg, db->src, db->dst, db->info);
}

int
lrb_dbell_poll(struct lr_backend *be, unsigned int max,
	       void (*cb)(void *arg, uint16_t src, uint16_t dst, uint16_t info), void *arg)
{
	int ret;

	if (!be->dbell_claimed) {
		/* The controller takes every doorbell; Linux sorts them by its ranges. */
		ret = rte_rio_request_inb_dbell(be->mport, 0, 0xffff, lrb_dbell_trampoline, be);
		if (ret < 0)
			return ret;
		be->dbell_claimed = true;
	}
	be->dbell_cb = cb;
	be->dbell_arg = arg;
	return rte_rio_dbell_poll(be->mport, max);
}

int
lrb_pw_fetch(struct lr_backend *be, uint32_t raw[16])
{
	struct rte_rio_pw_msg msg;
	int ret;

	ret = rte_rio_pw_fetch(be->mport, &msg, 1);
	if (ret <= 0)
		return ret == -ENOTSUP ? 0 : ret;
	memset(raw, 0, 16 * sizeof(uint32_t));
	memcpy(raw, msg.raw, sizeof(msg.raw) < 64 ? sizeof(msg.raw) : 64);
	return 1;
}

int
lrb_open_inb_mbox(struct lr_backend *be, int mbox, int entries)
{
	return rte_rio_request_inb_mbox(be->mport, (uint8_t)mbox, (uint32_t)entries);
}

void
lrb_close_inb_mbox(struct lr_backend *be, int mbox)
{
	rte_rio_release_inb_mbox(be->mport, (uint8_t)mbox);
}

int
lrb_add_inb_buffer(struct lr_backend *be, int mbox, void *buf)
{
	return rte_rio_add_inb_buffer(be->mport, (uint8_t)mbox, buf);
}

void *
lrb_get_inb_message(struct lr_backend *be, int mbox, size_t *len, uint16_t *src)
{
	return rte_rio_get_inb_message(be->mport, (uint8_t)mbox, len, src);
}

int
lrb_open_outb_mbox(struct lr_backend *be, int mbox, int entries)
{
	return rte_rio_request_outb_mbox(be->mport, (uint8_t)mbox, (uint32_t)entries);
}

void
lrb_close_outb_mbox(struct lr_backend *be, int mbox)
{
	rte_rio_release_outb_mbox(be->mport, (uint8_t)mbox);
}

int
lrb_send_message(struct lr_backend *be, uint16_t destid, int mbox, const void *buf, size_t len)
{
	return rte_rio_add_outb_message(be->mport, destid, (uint8_t)mbox, 0, buf, len);
}

uint64_t
lrb_maint_count(struct lr_backend *be)
{
	return rte_rio_mport_maint_count(be->mport);
}

uint64_t
lrb_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void *
lrb_dma_alloc(size_t size, size_t align, uint64_t *iova)
{
	void *va = rte_zmalloc("linux_dma", size, (unsigned int)align);

	if (va != NULL)
		*iova = rte_malloc_virt2iova(va);
	return va;
}

void
lrb_dma_free(void *va)
{
	rte_free(va);
}

int
lrb_dma_iova(const void *va, uint64_t *iova)
{
	rte_iova_t i = rte_malloc_virt2iova(va);

	if (i == RTE_BAD_IOVA)
		return -EINVAL;
	*iova = i;
	return 0;
}

void *
lrb_dma_va(uint64_t iova)
{
	return rte_mem_iova2virt(iova);
}

int
lrb_map_inb(struct lr_backend *be, void *va, uint64_t rio_addr, uint64_t size)
{
	return rte_rio_map_inb_window(be->mport, va, rio_addr, size, 0);
}

int
lrb_unmap_inb(struct lr_backend *be, uint64_t rio_addr)
{
	return rte_rio_unmap_inb_window(be->mport, rio_addr);
}

int
lrb_mem_read(struct lr_backend *be, uint16_t destid, uint64_t rio_addr, void *buf, size_t len)
{
	return rte_rio_mem_read(be->mport, destid, rio_addr, buf, len);
}

int
lrb_mem_write(struct lr_backend *be, uint16_t destid, uint64_t rio_addr, const void *buf,
	      size_t len, int type)
{
	return rte_rio_mem_write(be->mport, destid, rio_addr, buf, len,
				 type == 1 ? RTE_RIO_MEM_NWRITE_R : RTE_RIO_MEM_NWRITE);
}

uint32_t
lrb_t7_read32(void *model, uint32_t off)
{
	return rte_pmd_tsi721_model_read32(model, off);
}

void
lrb_t7_write32(void *model, uint32_t off, uint32_t val)
{
	rte_pmd_tsi721_model_write32(model, off, val);
}

void
lrb_t7_db_write16(void *model, uint32_t off, uint16_t bus_val)
{
	rte_pmd_tsi721_model_db_write16(model, off, bus_val);
}

bool
lrb_t7_intx(void *model)
{
	return rte_pmd_tsi721_model_intx(model);
}

uint64_t
lrb_t7_errors(void *model)
{
	return rte_pmd_tsi721_model_errors(model);
}

bool
lrb_t7_has_inb_windows(void)
{
#ifdef TSI721_IBWIN_LB
	return true;
#else
	return false;
#endif
}

/*
 * Source ID of the message the driver takes next from inbound mailbox
 * @mbox (channel 4 + mbox, as Linux's driver uses them): read from the
 * descriptor at the queue's read pointer, as a bus analyzer would see it.
 */
int
lrb_t7_next_srcid(void *model, int mbox)
{
	unsigned int ch = TSI721_IMSG_CHAN(mbox);
	uint64_t base = ((uint64_t)rte_pmd_tsi721_model_read32(model, TSI721_IBDMAC_DQBH(ch)) << 32) |
		(rte_pmd_tsi721_model_read32(model, TSI721_IBDMAC_DQBL(ch)) & TSI721_IBDMAC_DQBL_MASK);
	uint32_t rp = rte_pmd_tsi721_model_read32(model, TSI721_IBDMAC_DQRP(ch));
	const struct tsi721_imsg_desc *d;

	d = rte_mem_iova2virt(base + (uint64_t)rp * sizeof(*d));
	if (d == NULL || !(rte_le_to_cpu_32(d->msg_info) & TSI721_IMD_HO))
		return -1;
	return (int)(rte_le_to_cpu_32(d->type_id) & TSI721_MD_DEVID);
}
