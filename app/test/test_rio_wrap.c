/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Test master ports over a rio_sim mport: see test_rio_wrap.h. Every op is
 * forwarded to the rio_sim mport's own op; the checks read the target
 * through it too, so they cost no transaction lib/rio counts.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rte_rio_regs.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "test_rio_wrap.h"

/* IDT CPS Gen2 route-table select (implementation-specific). */
#define WRAP_IDT_RTE_TABLE_SEL	0x10070
#define WRAP_RXS_BC_L1_TABLE	0x30400	/* IDT RXS Gen3 broadcast route tables */
#define WRAP_RXS_BC_L2_TABLE	0x31000

struct rio_wrap {
	struct rte_rio_mport *lower;
	unsigned int flags;
	struct rio_test_wrap_stats stats;
	/* rio_test_wrap_fail_write(): the write that fails next, if armed. */
	bool fail_armed;
	uint8_t fail_hop;
	uint32_t fail_off;
	/* rio_test_wrap_before_local_write(): called once, then disarmed. */
	void (*before_fn)(void *arg);
	void *before_arg;
	uint32_t before_off;
};

static inline struct rio_wrap *
wrap_of(struct rte_rio_mport *m)
{
	return rte_rio_mport_priv(m);
}

static inline struct rte_rio_mport *
wrap_lower(struct rte_rio_mport *m)
{
	return wrap_of(m)->lower;
}

static bool
wrap_size_ok(struct rio_wrap *w, int len)
{
	if (!(w->flags & RIO_TEST_WRAP_WORD) || len == 4)
		return true;
	__atomic_fetch_add(&w->stats.size_violations, 1, __ATOMIC_RELAXED);
	return false;
}

static bool
wrap_is_route_reg(uint32_t off)
{
	/* The RXS Gen3 broadcast tables, level 1 and level 2 group 0: 256 entries each. */
	if ((off >= WRAP_RXS_BC_L1_TABLE && off < WRAP_RXS_BC_L1_TABLE + 0x400) ||
	    (off >= WRAP_RXS_BC_L2_TABLE && off < WRAP_RXS_BC_L2_TABLE + 0x400))
		return true;
	switch (off & ~3u) {
	case RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR:
	case RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR:
	case WRAP_IDT_RTE_TABLE_SEL:
		return true;
	default:
		return false;
	}
}

/* A route-table access must find the target locked with our Base Device ID. */
static void
wrap_check_lock(struct rio_wrap *w, uint16_t destid, uint8_t hop, uint32_t off)
{
	struct rte_rio_mport *l = w->lower;
	uint32_t did, lock;

	if (!wrap_is_route_reg(off))
		return;
	__atomic_fetch_add(&w->stats.route_accesses, 1, __ATOMIC_RELAXED);
	if (l->ops->lcread(l, RTE_RIO_DID_CSR, 4, &did) != 0 ||
	    l->ops->cread(l, destid, hop, RTE_RIO_HOST_DID_LOCK_CSR, 4, &lock) != 0 ||
	    (lock & RTE_RIO_HOST_DID_LOCK_MASK) != RTE_RIO_GET_DID(l->devid_size, did)) {
		__atomic_fetch_add(&w->stats.lock_violations, 1, __ATOMIC_RELAXED);
		printf("  %s: route register 0x%x of (0x%x, %u) accessed without its lock\n",
		       l->name, off, destid, hop);
	}
}

static bool
wrap_is_em(uint32_t hdr)
{
	uint16_t id = RTE_RIO_GET_BLOCK_ID(hdr);

	return id == RTE_RIO_EFB_ERR_MGMNT || id == RTE_RIO_EFB_ERR_MGMNT_HS;
}

/* Pointer @ptr with Error Management blocks skipped (read through the lower mport). */
static uint32_t
wrap_skip_em(struct rte_rio_mport *l, uint16_t destid, uint8_t hop, uint32_t ptr)
{
	uint32_t hdr;
	int n;

	for (n = 0; n < 16 && ptr >= RTE_RIO_EF_PTR_MIN && ptr <= RTE_RIO_EF_PTR_MAX; n++) {
		if (l->ops->cread(l, destid, hop, ptr, 4, &hdr) != 0 || !wrap_is_em(hdr))
			break;
		ptr = RTE_RIO_GET_BLOCK_PTR(hdr);
	}
	return ptr;
}

/* Is @off the header of a block of the target's extended-feature list? */
static bool
wrap_is_efb_header(struct rte_rio_mport *l, uint16_t destid, uint8_t hop, uint32_t off)
{
	uint32_t v, ptr;
	int n;

	if (l->ops->cread(l, destid, hop, RTE_RIO_ASM_INFO_CAR, 4, &v) != 0)
		return false;
	ptr = v & RTE_RIO_EXT_FTR_PTR_MASK;
	for (n = 0; n < 16 && ptr >= RTE_RIO_EF_PTR_MIN && ptr <= RTE_RIO_EF_PTR_MAX; n++) {
		if (ptr == off)
			return true;
		if (l->ops->cread(l, destid, hop, ptr, 4, &v) != 0)
			return false;
		ptr = RTE_RIO_GET_BLOCK_PTR(v);
	}
	return false;
}

static void
wrap_filter_read(struct rio_wrap *w, uint16_t destid, uint8_t hop, uint32_t off,
		 uint32_t *data)
{
	struct rte_rio_mport *l = w->lower;
	uint32_t ptr;

	if (off == RTE_RIO_PEF_CAR && (w->flags & RIO_TEST_WRAP_NO_EXT_RT))
		*data &= ~RTE_RIO_PEF_EXT_RT;
	if (!(w->flags & RIO_TEST_WRAP_NO_EM))
		return;
	if (off == RTE_RIO_ASM_INFO_CAR) {
		ptr = wrap_skip_em(l, destid, hop, *data & RTE_RIO_EXT_FTR_PTR_MASK);
		*data = (*data & ~RTE_RIO_EXT_FTR_PTR_MASK) | ptr;
	} else if (off >= RTE_RIO_EF_PTR_MIN && off <= RTE_RIO_EF_PTR_MAX &&
		   wrap_is_efb_header(l, destid, hop, off)) {
		ptr = wrap_skip_em(l, destid, hop, RTE_RIO_GET_BLOCK_PTR(*data));
		*data = (*data & ~RTE_RIO_EFB_PTR_MASK) | (ptr << 16);
	}
}

static int
wrap_lcread(struct rte_rio_mport *m, uint32_t off, int len, uint32_t *data)
{
	if (!wrap_size_ok(wrap_of(m), len))
		return -EINVAL;
	return wrap_lower(m)->ops->lcread(wrap_lower(m), off, len, data);
}

static int
wrap_lcwrite(struct rte_rio_mport *m, uint32_t off, int len, uint32_t data)
{
	struct rio_wrap *w = wrap_of(m);
	void (*fn)(void *arg) = w->before_fn;

	if (!wrap_size_ok(w, len))
		return -EINVAL;
	if (fn != NULL && off == w->before_off) {
		w->before_fn = NULL;
		fn(w->before_arg);
	}
	return wrap_lower(m)->ops->lcwrite(wrap_lower(m), off, len, data);
}

static int
wrap_cread(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
	   uint32_t *data)
{
	struct rio_wrap *w = wrap_of(m);
	int ret;

	if (!wrap_size_ok(w, len))
		return -EINVAL;
	wrap_check_lock(w, destid, hop, off);
	ret = w->lower->ops->cread(w->lower, destid, hop, off, len, data);
	if (ret == 0 && len == 4)
		wrap_filter_read(w, destid, hop, off, data);
	return ret;
}

static int
wrap_cwrite(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
	    uint32_t data)
{
	struct rio_wrap *w = wrap_of(m);

	if (!wrap_size_ok(w, len))
		return -EINVAL;
	if (w->fail_armed && hop == w->fail_hop && off == w->fail_off) {
		w->fail_armed = false;
		return -EIO;
	}
	wrap_check_lock(w, destid, hop, off);
	return w->lower->ops->cwrite(w->lower, destid, hop, off, len, data);
}

static int
wrap_cread_block(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
		 uint32_t *words)
{
	int i, ret = 0;

	for (i = 0; ret == 0 && i < len / 4; i++)
		ret = wrap_cread(m, destid, hop, off + 4 * i, 4, &words[i]);
	return ret;
}

static int
wrap_cwrite_block(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off,
		  int len, const uint32_t *words)
{
	int i, ret = 0;

	for (i = 0; ret == 0 && i < len / 4; i++)
		ret = wrap_cwrite(m, destid, hop, off + 4 * i, 4, words[i]);
	return ret;
}

static int
wrap_dsend(struct rte_rio_mport *m, uint16_t destid, uint16_t info)
{
	return wrap_lower(m)->ops->dsend(wrap_lower(m), destid, info);
}

static int
wrap_dbell_fetch(struct rte_rio_mport *m, struct rte_rio_dbell *d, uint16_t n)
{
	return wrap_lower(m)->ops->dbell_fetch(wrap_lower(m), d, n);
}

static int
wrap_open_outb(struct rte_rio_mport *m, uint8_t mbox, uint32_t entries)
{
	return wrap_lower(m)->ops->open_outb_mbox(wrap_lower(m), mbox, entries);
}

static void
wrap_close_outb(struct rte_rio_mport *m, uint8_t mbox)
{
	wrap_lower(m)->ops->close_outb_mbox(wrap_lower(m), mbox);
}

static int
wrap_open_inb(struct rte_rio_mport *m, uint8_t mbox, uint32_t entries)
{
	return wrap_lower(m)->ops->open_inb_mbox(wrap_lower(m), mbox, entries);
}

static void
wrap_close_inb(struct rte_rio_mport *m, uint8_t mbox)
{
	wrap_lower(m)->ops->close_inb_mbox(wrap_lower(m), mbox);
}

static uint16_t
wrap_add_outb(struct rte_rio_mport *m, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	return wrap_lower(m)->ops->add_outb_messages(wrap_lower(m), mbox, msgs, n);
}

static int64_t
wrap_outb_compl(struct rte_rio_mport *m, uint8_t mbox)
{
	return wrap_lower(m)->ops->outb_completion(wrap_lower(m), mbox);
}

static uint16_t
wrap_add_inb_bufs(struct rte_rio_mport *m, uint8_t mbox, void * const *bufs, uint16_t n)
{
	return wrap_lower(m)->ops->add_inb_buffers(wrap_lower(m), mbox, bufs, n);
}

static uint16_t
wrap_get_inb(struct rte_rio_mport *m, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	return wrap_lower(m)->ops->get_inb_messages(wrap_lower(m), mbox, msgs, n);
}

static int
wrap_pw_fetch(struct rte_rio_mport *m, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	struct rte_rio_mport *l = wrap_lower(m);

	return l->ops->pw_fetch != NULL ? l->ops->pw_fetch(l, msgs, n) : -ENOTSUP;
}

#define WRAP_COMMON_OPS \
	.lcread = wrap_lcread, \
	.lcwrite = wrap_lcwrite, \
	.cread = wrap_cread, \
	.cwrite = wrap_cwrite, \
	.dsend = wrap_dsend, \
	.dbell_fetch = wrap_dbell_fetch, \
	.open_outb_mbox = wrap_open_outb, \
	.close_outb_mbox = wrap_close_outb, \
	.open_inb_mbox = wrap_open_inb, \
	.close_inb_mbox = wrap_close_inb, \
	.add_outb_messages = wrap_add_outb, \
	.outb_completion = wrap_outb_compl, \
	.add_inb_buffers = wrap_add_inb_bufs, \
	.get_inb_messages = wrap_get_inb, \
	.pw_fetch = wrap_pw_fetch

static const struct rte_rio_mport_ops wrap_word_ops = {
	WRAP_COMMON_OPS,
};

static const struct rte_rio_mport_ops wrap_block_ops = {
	WRAP_COMMON_OPS,
	.cread_block = wrap_cread_block,
	.cwrite_block = wrap_cwrite_block,
};

static bool
wrap_is(const struct rte_rio_mport *m)
{
	return m != NULL && (m->ops == &wrap_word_ops || m->ops == &wrap_block_ops);
}

struct rte_rio_mport *
rio_test_wrap(struct rte_rio_mport *lower, const char *name, unsigned int flags)
{
	struct rte_rio_mport_conf c;
	struct rte_rio_mport *m;
	struct rio_wrap *w;

	if ((flags & RIO_TEST_WRAP_WORD) && (flags & RIO_TEST_WRAP_BLOCK)) {
		printf("wrapper %s: word-only and block at once\n", name);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return NULL;
	w->lower = lower;
	w->flags = flags;
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.ops = flags & RIO_TEST_WRAP_BLOCK ? &wrap_block_ops : &wrap_word_ops;
	c.priv = w;
	c.devid_size = lower->devid_size;
	c.host_destid = lower->host_destid;
	c.port_index = lower->port_index;
	m = rte_rio_mport_register(&c);
	if (m == NULL) {
		printf("wrapper %s over %s: cannot register\n", name, lower->name);
		free(w);
	}
	return m;
}

struct rte_rio_mport *
rio_test_wrap_lower(struct rte_rio_mport *mport)
{
	return wrap_is(mport) ? wrap_lower(mport) : NULL;
}

void
rio_test_wrap_stats(struct rte_rio_mport *mport, struct rio_test_wrap_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (!wrap_is(mport))
		return;
	stats->size_violations = __atomic_load_n(&wrap_of(mport)->stats.size_violations,
						 __ATOMIC_RELAXED);
	stats->lock_violations = __atomic_load_n(&wrap_of(mport)->stats.lock_violations,
						 __ATOMIC_RELAXED);
	stats->route_accesses = __atomic_load_n(&wrap_of(mport)->stats.route_accesses,
						__ATOMIC_RELAXED);
}

void
rio_test_wrap_fail_write(struct rte_rio_mport *mport, uint8_t hop, uint32_t offset)
{
	struct rio_wrap *w;

	if (!wrap_is(mport))
		return;
	w = wrap_of(mport);
	w->fail_hop = hop;
	w->fail_off = offset;
	w->fail_armed = true;
}

void
rio_test_wrap_before_local_write(struct rte_rio_mport *mport, uint32_t offset,
				 void (*fn)(void *arg), void *arg)
{
	struct rio_wrap *w;

	if (!wrap_is(mport))
		return;
	w = wrap_of(mport);
	w->before_off = offset;
	w->before_arg = arg;
	w->before_fn = fn;
}

void
rio_test_unwrap(struct rte_rio_mport *mport)
{
	struct rio_wrap *w;

	if (!wrap_is(mport))
		return;
	w = wrap_of(mport);
	rte_rio_mport_unregister(mport);
	free(w);
}
