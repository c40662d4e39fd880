/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef LR_SCATTERLIST_H
#define LR_SCATTERLIST_H

/*
 * Scatter lists of kernel virtual memory, as rio.c's struct rio_dma_data
 * carries them: an entry is a virtual range; dma_map_sg() gives it the
 * IOVA a device uses (only DPDK memory, such as dma_alloc_coherent()'s,
 * has one). No page links and no chaining: an array of sg_len entries.
 */

struct scatterlist {
	void *lr_virt;
	unsigned int length;
	dma_addr_t dma_address;
	unsigned int dma_length;
};

#define sg_dma_address(sg) ((sg)->dma_address)
#define sg_dma_len(sg) ((sg)->dma_length)
#define sg_virt(sg) ((sg)->lr_virt)
#define sg_next(sg) ((sg) + 1)
#define for_each_sg(sglist, sg, nr, __i) \
	for (__i = 0, sg = (sglist); __i < (nr); __i++, sg = sg_next(sg))

static inline void
sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
}

static inline void
sg_set_buf(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg->lr_virt = (void *)(uintptr_t)buf;
	sg->length = buflen;
}

static inline void
sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}

#endif /* LR_SCATTERLIST_H */
