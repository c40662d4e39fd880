/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef LR_FRAME_H
#define LR_FRAME_H

/*
 * The test frames of dpdk-rio-linux-ref (--send, --echo), for the node and
 * for tests that talk to it: an Ethernet header (IEEE 802 local
 * experimental ethertype), then a header that carries the frame's own
 * length, a sequence number and a checksum of the payload, so that the
 * receiver tells the sender's length from padding a master port added.
 */

#include <stdint.h>
#include <string.h>

#define LR_ETHERTYPE 0x88b5
#define LR_MAGIC 0x4c525431	/* "LRT1" */
#define LR_HDR_LEN (14 + 16)	/* Ethernet header, then struct lr_hdr */

enum lr_kind { LR_REQ = 1, LR_REP = 2, LR_PING = 3 };

struct lr_hdr {
	uint32_t magic;
	uint8_t kind;
	uint8_t rsvd;
	uint16_t len;		/* of the whole frame, as sent */
	uint32_t seq;
	uint32_t csum;
} __attribute__((packed));

static inline uint32_t
lr_frame_csum(const struct lr_hdr *h, const uint8_t *payload, unsigned int n)
{
	uint32_t c = 2166136261u;
	unsigned int i;

	c = (c ^ h->seq) * 16777619u;
	c = (c ^ h->len) * 16777619u;
	for (i = 0; i < n; i++)
		c = (c ^ payload[i]) * 16777619u;
	return c;
}

/* Build a frame of @len bytes (LR_HDR_LEN..) into @f. @return len. */
static inline unsigned int
lr_frame_build(uint8_t *f, const uint8_t dst[6], const uint8_t src[6], enum lr_kind kind,
	       uint32_t seq, unsigned int len)
{
	struct lr_hdr h;
	unsigned int i;

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = LR_ETHERTYPE >> 8;
	f[13] = LR_ETHERTYPE & 0xff;
	for (i = LR_HDR_LEN; i < len; i++)
		f[i] = (uint8_t)(seq * 31u + i);
	h.magic = LR_MAGIC;
	h.kind = (uint8_t)kind;
	h.rsvd = 0;
	h.len = (uint16_t)len;
	h.seq = seq;
	h.csum = lr_frame_csum(&h, f + LR_HDR_LEN, len - LR_HDR_LEN);
	memcpy(f + 14, &h, sizeof(h));
	return len;
}

/* Is the @len bytes at @f a test frame whose own length fits and whose payload is intact? */
static inline int
lr_frame_parse(const uint8_t *f, unsigned int len, struct lr_hdr *h)
{
	if (len < LR_HDR_LEN || f[12] != (LR_ETHERTYPE >> 8) || f[13] != (LR_ETHERTYPE & 0xff))
		return -1;
	memcpy(h, f + 14, sizeof(*h));
	if (h->magic != LR_MAGIC || h->len < LR_HDR_LEN || h->len > len ||
	    h->csum != lr_frame_csum(h, f + LR_HDR_LEN, h->len - LR_HDR_LEN))
		return -2;
	return 0;
}

#endif /* LR_FRAME_H */
