/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Configuration space access (local and maintenance) and the
 * extended-feature list walk.
 *
 * Sub-word accesses use RapidIO big-endian byte lanes: the byte at offset
 * 4k is bits 31..24 of the register at 4k. The library passes (offset, len)
 * unchanged to the driver, which selects the lanes; values travel in the
 * low bits of the op's 32-bit data.
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "rio_private.h"

/* Loop protection: an extended-feature list never has more blocks. */
#define RIO_EFB_MAX_BLOCKS	256

static inline int
rio_config_check(const struct rte_rio_mport *mport, uint32_t offset, int len)
{
	if (mport == NULL)
		return -EINVAL;
	if ((offset & (uint32_t)(len - 1)) != 0)
		return -EFAULT;
	if (offset > RTE_RIO_MAINT_SPACE_SZ - (uint32_t)len)
		return -ERANGE;
	return 0;
}

static int
rio_local_read(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t *val)
{
	uint32_t data = 0;
	int ret;

	if (val == NULL)
		return -EINVAL;
	ret = rio_config_check(mport, offset, len);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->config_lock);
	ret = mport->ops->lcread(mport, offset, len, &data);
	rte_spinlock_unlock(&mport->lib->config_lock);
	if (ret == 0)
		*val = data;
	return ret;
}

static int
rio_local_write(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t val)
{
	int ret;

	ret = rio_config_check(mport, offset, len);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->config_lock);
	ret = mport->ops->lcwrite(mport, offset, len, val);
	rte_spinlock_unlock(&mport->lib->config_lock);
	return ret;
}

static int
rio_remote_read(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		uint32_t offset, int len, uint32_t *val)
{
	uint32_t data = 0;
	int ret;

	if (val == NULL)
		return -EINVAL;
	ret = rio_config_check(mport, offset, len);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->config_lock);
	rio_maint_count_inc(mport);
	ret = mport->ops->cread(mport, destid, hopcount, offset, len, &data);
	rte_spinlock_unlock(&mport->lib->config_lock);
	if (ret == 0)
		*val = data;
	return ret;
}

static int
rio_remote_write(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		 uint32_t offset, int len, uint32_t val)
{
	int ret;

	ret = rio_config_check(mport, offset, len);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->config_lock);
	rio_maint_count_inc(mport);
	ret = mport->ops->cwrite(mport, destid, hopcount, offset, len, val);
	rte_spinlock_unlock(&mport->lib->config_lock);
	return ret;
}

int
rte_rio_local_read_config_32(struct rte_rio_mport *mport, uint32_t offset, uint32_t *val)
{
	return rio_local_read(mport, offset, 4, val);
}

int
rte_rio_local_read_config_16(struct rte_rio_mport *mport, uint32_t offset, uint16_t *val)
{
	uint32_t data;
	int ret;

	if (val == NULL)
		return -EINVAL;
	ret = rio_local_read(mport, offset, 2, &data);
	if (ret == 0)
		*val = (uint16_t)data;
	return ret;
}

int
rte_rio_local_read_config_8(struct rte_rio_mport *mport, uint32_t offset, uint8_t *val)
{
	uint32_t data;
	int ret;

	if (val == NULL)
		return -EINVAL;
	ret = rio_local_read(mport, offset, 1, &data);
	if (ret == 0)
		*val = (uint8_t)data;
	return ret;
}

int
rte_rio_local_write_config_32(struct rte_rio_mport *mport, uint32_t offset, uint32_t val)
{
	return rio_local_write(mport, offset, 4, val);
}

int
rte_rio_local_write_config_16(struct rte_rio_mport *mport, uint32_t offset, uint16_t val)
{
	return rio_local_write(mport, offset, 2, val);
}

int
rte_rio_local_write_config_8(struct rte_rio_mport *mport, uint32_t offset, uint8_t val)
{
	return rio_local_write(mport, offset, 1, val);
}

int
rte_rio_remote_read_config_32(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			      uint32_t offset, uint32_t *val)
{
	return rio_remote_read(mport, destid, hopcount, offset, 4, val);
}

int
rte_rio_remote_read_config_16(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			      uint32_t offset, uint16_t *val)
{
	uint32_t data;
	int ret;

	if (val == NULL)
		return -EINVAL;
	ret = rio_remote_read(mport, destid, hopcount, offset, 2, &data);
	if (ret == 0)
		*val = (uint16_t)data;
	return ret;
}

int
rte_rio_remote_read_config_8(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			     uint32_t offset, uint8_t *val)
{
	uint32_t data;
	int ret;

	if (val == NULL)
		return -EINVAL;
	ret = rio_remote_read(mport, destid, hopcount, offset, 1, &data);
	if (ret == 0)
		*val = (uint8_t)data;
	return ret;
}

int
rte_rio_remote_write_config_32(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			       uint32_t offset, uint32_t val)
{
	return rio_remote_write(mport, destid, hopcount, offset, 4, val);
}

int
rte_rio_remote_write_config_16(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			       uint32_t offset, uint16_t val)
{
	return rio_remote_write(mport, destid, hopcount, offset, 2, val);
}

int
rte_rio_remote_write_config_8(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			      uint32_t offset, uint8_t val)
{
	return rio_remote_write(mport, destid, hopcount, offset, 1, val);
}

static int
rio_block_check(const struct rte_rio_mport *mport, uint32_t offset, int len, const void *words)
{
	if (mport == NULL || words == NULL ||
	    (len != 8 && len != 16 && len != 32 && len != 64))
		return -EINVAL;
	if ((offset & 7) != 0)
		return -EFAULT;
	if (offset > RTE_RIO_MAINT_SPACE_SZ - (uint32_t)len)
		return -ERANGE;
	return 0;
}

int
rte_rio_remote_read_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			  uint32_t offset, int len, uint32_t *words)
{
	uint32_t tmp[64 / sizeof(uint32_t)];
	int ret;
	int i;

	ret = rio_block_check(mport, offset, len, words);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->config_lock);
	if (mport->ops->cread_block != NULL) {
		rio_maint_count_inc(mport);
		ret = mport->ops->cread_block(mport, destid, hopcount, offset, len, tmp);
	} else {
		for (i = 0; ret == 0 && i < len / 4; i++) {
			rio_maint_count_inc(mport);
			ret = mport->ops->cread(mport, destid, hopcount, offset + 4 * i, 4,
						&tmp[i]);
		}
	}
	rte_spinlock_unlock(&mport->lib->config_lock);
	if (ret == 0)
		memcpy(words, tmp, len);
	return ret;
}

int
rte_rio_remote_write_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			   uint32_t offset, int len, const uint32_t *words)
{
	int ret;
	int i;

	ret = rio_block_check(mport, offset, len, words);
	if (ret < 0)
		return ret;

	rte_spinlock_lock(&mport->lib->config_lock);
	if (mport->ops->cwrite_block != NULL) {
		rio_maint_count_inc(mport);
		ret = mport->ops->cwrite_block(mport, destid, hopcount, offset, len, words);
	} else {
		for (i = 0; ret == 0 && i < len / 4; i++) {
			rio_maint_count_inc(mport);
			ret = mport->ops->cwrite(mport, destid, hopcount, offset + 4 * i, 4,
						 words[i]);
		}
	}
	rte_spinlock_unlock(&mport->lib->config_lock);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Extended features                                                      */

static inline int
rio_cfg_read32(struct rte_rio_mport *mport, bool local, uint16_t destid, uint8_t hopcount,
	       uint32_t offset, uint32_t *val)
{
	if (local)
		return rte_rio_local_read_config_32(mport, offset, val);
	return rte_rio_remote_read_config_32(mport, destid, hopcount, offset, val);
}

/* A usable block pointer: inside the extended-features space, 8-byte aligned. */
static inline bool
rio_efb_ptr_valid(uint32_t ptr)
{
	return ptr >= RTE_RIO_EF_PTR_MIN && ptr <= RTE_RIO_EF_PTR_MAX && (ptr & 7) == 0;
}

/*
 * Next pointer after @p from (0: the list head in the Assembly Information
 * CAR, valid only when the PEF CAR says extended features exist).
 * @return the pointer, 0 at the end of the list (an invalid pointer ends
 *         it too), or -errno.
 */
static int32_t
rio_efb_next_ptr(struct rte_rio_mport *mport, bool local, uint16_t destid,
		 uint8_t hopcount, uint32_t from)
{
	uint32_t val;
	uint32_t ptr;
	int ret;

	if (from == 0) {
		ret = rio_cfg_read32(mport, local, destid, hopcount, RTE_RIO_PEF_CAR, &val);
		if (ret < 0)
			return ret;
		if ((val & RTE_RIO_PEF_EXT_FEATURES) == 0)
			return 0;
		ret = rio_cfg_read32(mport, local, destid, hopcount, RTE_RIO_ASM_INFO_CAR, &val);
		if (ret < 0)
			return ret;
		ptr = val & RTE_RIO_EXT_FTR_PTR_MASK;
	} else {
		ret = rio_cfg_read32(mport, local, destid, hopcount, from, &val);
		if (ret < 0)
			return ret;
		ptr = RTE_RIO_GET_BLOCK_PTR(val);
	}
	if (ptr != 0 && !rio_efb_ptr_valid(ptr)) {
		RIO_LOG(DEBUG, "%s %u: invalid extended feature pointer 0x%x after 0x%x",
			local ? "local" : "device", local ? 0 : destid, ptr, from);
		ptr = 0;
	}
	return ptr;
}

int32_t
rte_rio_next_efb(struct rte_rio_mport *mport, bool local, uint16_t destid,
		 uint8_t hopcount, uint32_t from, uint16_t *id)
{
	uint32_t hdr;
	int32_t ptr;
	int ret;

	if (mport == NULL || (from != 0 && !rio_efb_ptr_valid(from)))
		return -EINVAL;

	ptr = rio_efb_next_ptr(mport, local, destid, hopcount, from);
	if (ptr <= 0 || id == NULL)
		return ptr;
	ret = rio_cfg_read32(mport, local, destid, hopcount, ptr, &hdr);
	if (ret < 0)
		return ret;
	*id = RTE_RIO_GET_BLOCK_ID(hdr);
	return ptr;
}

/*
 * Walk the list reading each header once, following its NEXT pointer.
 * phys: look for any LP-Serial block (report its map in *rmap), else for
 * EF_ID @p ftr.
 */
static int32_t
rio_efb_find(struct rte_rio_mport *mport, bool local, uint16_t destid, uint8_t hopcount,
	     bool phys, uint16_t ftr, uint8_t *rmap)
{
	unsigned int blocks;
	uint32_t hdr;
	int32_t ptr;
	uint16_t id;
	int ret;

	if (mport == NULL)
		return -EINVAL;

	ptr = rio_efb_next_ptr(mport, local, destid, hopcount, 0);
	for (blocks = 0; ptr > 0 && blocks < RIO_EFB_MAX_BLOCKS; blocks++) {
		ret = rio_cfg_read32(mport, local, destid, hopcount, ptr, &hdr);
		if (ret < 0)
			return ret;
		id = RTE_RIO_GET_BLOCK_ID(hdr);
		if (phys) {
			int map = rte_rio_efb_phys_rmap(id);

			if (map != 0) {
				if (rmap != NULL)
					*rmap = map;
				return ptr;
			}
		} else if (id == ftr) {
			return ptr;
		}
		ptr = RTE_RIO_GET_BLOCK_PTR(hdr);
		if (ptr != 0 && !rio_efb_ptr_valid(ptr)) {
			RIO_LOG(DEBUG, "%s %u: invalid extended feature pointer 0x%x",
				local ? "local" : "device", local ? 0 : destid, ptr);
			ptr = 0;
		}
	}
	if (ptr > 0)
		RIO_LOG(WARNING, "%s %u: extended feature list longer than %u blocks (loop?)",
			local ? "local" : "device", local ? 0 : destid, RIO_EFB_MAX_BLOCKS);
	return ptr < 0 ? ptr : 0;
}

int32_t
rte_rio_get_feature(struct rte_rio_mport *mport, bool local, uint16_t destid,
		    uint8_t hopcount, uint16_t ftr)
{
	return rio_efb_find(mport, local, destid, hopcount, false, ftr, NULL);
}

int32_t
rte_rio_get_physefb(struct rte_rio_mport *mport, bool local, uint16_t destid,
		    uint8_t hopcount, uint8_t *rmap)
{
	return rio_efb_find(mport, local, destid, hopcount, true, 0, rmap);
}

int32_t
rio_local_physefb(struct rte_rio_mport *mport, uint8_t *rmap)
{
	return rio_efb_find(mport, true, 0, 0, true, 0, rmap);
}
