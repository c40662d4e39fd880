/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * lib/rio core autotest: registry, configuration access, extended features,
 * doorbells, mailboxes, messages and port-writes, against a mock mport
 * driver defined here (RAM config spaces, op call counters, loopback of
 * doorbells and messages).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_pause.h>

#include <rio_driver.h>
#include <rte_rio.h>
#include <rte_rio_dev.h>

#include "test.h"

#define MOCK_CFG_SIZE		(64 * 1024)
#define MOCK_CFG_WORDS		(MOCK_CFG_SIZE / 4)
#define MOCK_DESTID		0x0042	/* own device ID */
#define MOCK_DEAD_DESTID	0x0dea	/* remote ID that never answers */
#define MOCK_REMOTE_DESTID	0x0005
#define MOCK_REMOTE_HOP		1
#define MOCK_DBELL_RING		64
#define MOCK_MSG_RING		8	/* inbound messages queued per mailbox */
#define MOCK_BUF_RING		8	/* posted receive buffers per mailbox */
#define MOCK_SCRATCH		0x1000	/* free RAM register for lane tests */

struct mock_msg {
	uint16_t len;
	uint16_t src;
	uint16_t dst;
	uint8_t letter;
	uint8_t data[RTE_RIO_MAX_MSG_SIZE];
};

struct mock_port {
	uint32_t lcfg[MOCK_CFG_WORDS];  /* register values, host order */
	uint32_t rcfg[MOCK_CFG_WORDS];

	/* Op call counters (atomic: they must stay exact even if locking broke). */
	uint64_t lcread_calls;
	uint64_t lcwrite_calls;
	uint64_t cread_calls;
	uint64_t cwrite_calls;
	uint64_t dsend_calls;
	uint64_t add_outb_calls;
	uint64_t add_outb_last_n;
	uint64_t get_inb_calls;
	uint64_t add_inb_calls;
	uint64_t pw_calls;
	uint64_t cread_block_calls;
	uint64_t cwrite_block_calls;
	unsigned int open_inb[RTE_RIO_MAX_MBOX];
	unsigned int close_inb[RTE_RIO_MAX_MBOX];
	unsigned int open_outb[RTE_RIO_MAX_MBOX];
	unsigned int close_outb[RTE_RIO_MAX_MBOX];
	uint32_t open_entries;
	int open_fail;          /* next open op returns this */
	unsigned int bad_calls; /* op called with a misaligned or bad length */

	uint16_t last_destid;
	uint8_t last_hop;

	/* Re-entry detection inside config ops. */
	int in_op;
	int overlap;
	unsigned int op_spin;

	/* Doorbell loopback. */
	struct rte_rio_dbell dbells[MOCK_DBELL_RING];
	unsigned int db_head;
	unsigned int db_tail;

	/* Message loopback, per mailbox. */
	bool inb_open[RTE_RIO_MAX_MBOX];
	struct mock_msg msgs[RTE_RIO_MAX_MBOX][MOCK_MSG_RING];
	unsigned int msg_head[RTE_RIO_MAX_MBOX];
	unsigned int msg_tail[RTE_RIO_MAX_MBOX];
	void *bufs[RTE_RIO_MAX_MBOX][MOCK_BUF_RING];
	unsigned int buf_head[RTE_RIO_MAX_MBOX];
	unsigned int buf_tail[RTE_RIO_MAX_MBOX];
	int64_t completions[RTE_RIO_MAX_MBOX];

	struct rte_rio_mport *mport;
};

static inline void
mock_inc(uint64_t *cnt)
{
	__atomic_fetch_add(cnt, 1, __ATOMIC_RELAXED);
}

static inline uint64_t
mock_get(const uint64_t *cnt)
{
	return __atomic_load_n(cnt, __ATOMIC_RELAXED);
}

static struct mock_port *
mock_of(struct rte_rio_mport *mport)
{
	return rte_rio_mport_priv(mport);
}

/* Enter/leave a config op; flags any overlap of two ops on one mport. */
static void
mock_op_enter(struct mock_port *m)
{
	unsigned int i;

	if (__atomic_fetch_add(&m->in_op, 1, __ATOMIC_ACQUIRE) != 0)
		__atomic_store_n(&m->overlap, 1, __ATOMIC_RELAXED);
	for (i = 0; i < m->op_spin; i++)
		rte_pause();
}

static void
mock_op_leave(struct mock_port *m)
{
	__atomic_fetch_sub(&m->in_op, 1, __ATOMIC_RELEASE);
}

/* RapidIO byte lanes: byte 4k is bits 31..24 of the register at 4k. */
static int
mock_cfg_read(struct mock_port *m, uint32_t *space, uint32_t offset, int len, uint32_t *data)
{
	uint64_t mask = (1ull << (len * 8)) - 1;
	unsigned int shift;

	if ((len != 1 && len != 2 && len != 4) || (offset & (len - 1)) != 0) {
		m->bad_calls++;
		return -EINVAL;
	}
	if (offset >= MOCK_CFG_SIZE)
		return -EIO;
	shift = (4 - len - (offset & 3)) * 8;
	*data = (space[offset / 4] >> shift) & mask;
	return 0;
}

static int
mock_cfg_write(struct mock_port *m, uint32_t *space, uint32_t offset, int len, uint32_t data)
{
	uint64_t mask = (1ull << (len * 8)) - 1;
	unsigned int shift;

	if ((len != 1 && len != 2 && len != 4) || (offset & (len - 1)) != 0) {
		m->bad_calls++;
		return -EINVAL;
	}
	if (offset >= MOCK_CFG_SIZE)
		return -EIO;
	shift = (4 - len - (offset & 3)) * 8;
	space[offset / 4] = (space[offset / 4] & ~(uint32_t)(mask << shift)) |
		(uint32_t)((data & mask) << shift);
	return 0;
}

static int
mock_lcread(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t *data)
{
	struct mock_port *m = mock_of(mport);
	int ret;

	mock_op_enter(m);
	mock_inc(&m->lcread_calls);
	ret = mock_cfg_read(m, m->lcfg, offset, len, data);
	mock_op_leave(m);
	return ret;
}

static int
mock_lcwrite(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t data)
{
	struct mock_port *m = mock_of(mport);
	int ret;

	mock_op_enter(m);
	mock_inc(&m->lcwrite_calls);
	ret = mock_cfg_write(m, m->lcfg, offset, len, data);
	mock_op_leave(m);
	return ret;
}

static int
mock_cread(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
	   uint32_t offset, int len, uint32_t *data)
{
	struct mock_port *m = mock_of(mport);
	int ret;

	mock_op_enter(m);
	mock_inc(&m->cread_calls);
	m->last_destid = destid;
	m->last_hop = hopcount;
	if (destid == MOCK_DEAD_DESTID)
		ret = -ETIMEDOUT;
	else
		ret = mock_cfg_read(m, m->rcfg, offset, len, data);
	mock_op_leave(m);
	return ret;
}

static int
mock_cwrite(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
	    uint32_t offset, int len, uint32_t data)
{
	struct mock_port *m = mock_of(mport);
	int ret;

	mock_op_enter(m);
	mock_inc(&m->cwrite_calls);
	m->last_destid = destid;
	m->last_hop = hopcount;
	if (destid == MOCK_DEAD_DESTID)
		ret = -ETIMEDOUT;
	else
		ret = mock_cfg_write(m, m->rcfg, offset, len, data);
	mock_op_leave(m);
	return ret;
}

/* Block maintenance: len 8..64, 8-byte aligned, words in register order. */
static int
mock_block_check(struct mock_port *m, uint16_t destid, uint32_t offset, int len)
{
	if ((len != 8 && len != 16 && len != 32 && len != 64) || (offset & 7) != 0) {
		m->bad_calls++;
		return -EINVAL;
	}
	if (destid == MOCK_DEAD_DESTID)
		return -ETIMEDOUT;
	if (offset + len > MOCK_CFG_SIZE)
		return -EIO;
	return 0;
}

static int
mock_cread_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		 uint32_t offset, int len, uint32_t *words)
{
	struct mock_port *m = mock_of(mport);
	int ret;

	mock_op_enter(m);
	mock_inc(&m->cread_block_calls);
	m->last_destid = destid;
	m->last_hop = hopcount;
	ret = mock_block_check(m, destid, offset, len);
	if (ret == 0)
		memcpy(words, &m->rcfg[offset / 4], len);
	mock_op_leave(m);
	return ret;
}

static int
mock_cwrite_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		  uint32_t offset, int len, const uint32_t *words)
{
	struct mock_port *m = mock_of(mport);
	int ret;

	mock_op_enter(m);
	mock_inc(&m->cwrite_block_calls);
	m->last_destid = destid;
	m->last_hop = hopcount;
	ret = mock_block_check(m, destid, offset, len);
	if (ret == 0)
		memcpy(&m->rcfg[offset / 4], words, len);
	mock_op_leave(m);
	return ret;
}

static int
mock_dsend(struct rte_rio_mport *mport, uint16_t destid, uint16_t info)
{
	struct mock_port *m = mock_of(mport);
	struct rte_rio_dbell *db;

	mock_inc(&m->dsend_calls);
	if (destid == MOCK_DEAD_DESTID)
		return -ETIMEDOUT;
	if (m->db_tail - m->db_head == MOCK_DBELL_RING)
		return -EAGAIN;
	db = &m->dbells[m->db_tail++ % MOCK_DBELL_RING];
	db->src = MOCK_DESTID;
	db->dst = destid;
	db->info = info;
	return 0;
}

static int
mock_dbell_fetch(struct rte_rio_mport *mport, struct rte_rio_dbell *dbells, uint16_t n)
{
	struct mock_port *m = mock_of(mport);
	int i = 0;

	while (i < n && m->db_head != m->db_tail)
		dbells[i++] = m->dbells[m->db_head++ % MOCK_DBELL_RING];
	return i;
}

static int
mock_open_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	struct mock_port *m = mock_of(mport);
	int ret = m->open_fail;

	m->open_fail = 0;
	if (ret != 0)
		return ret;
	m->open_outb[mbox]++;
	m->open_entries = entries;
	return 0;
}

static void
mock_close_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	mock_of(mport)->close_outb[mbox]++;
}

static int
mock_open_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	struct mock_port *m = mock_of(mport);
	int ret = m->open_fail;

	m->open_fail = 0;
	if (ret != 0)
		return ret;
	m->open_inb[mbox]++;
	m->open_entries = entries;
	m->inb_open[mbox] = true;
	return 0;
}

static void
mock_close_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	struct mock_port *m = mock_of(mport);

	m->close_inb[mbox]++;
	m->inb_open[mbox] = false;
}

/* Loopback: every message lands in our own inbound mailbox of the same number. */
static uint16_t
mock_add_outb_messages(struct rte_rio_mport *mport, uint8_t mbox,
		       struct rte_rio_msg *msgs, uint16_t n)
{
	struct mock_port *m = mock_of(mport);
	struct mock_msg *slot;
	uint16_t i;

	mock_inc(&m->add_outb_calls);
	m->add_outb_last_n = n;
	for (i = 0; i < n; i++) {
		if (msgs[i].len < RTE_RIO_MIN_MSG_SIZE || msgs[i].len > RTE_RIO_MAX_MSG_SIZE ||
		    msgs[i].letter >= RTE_RIO_MAX_LETTER || msgs[i].mbox != mbox) {
			m->bad_calls++;
			msgs[i].status = -EINVAL;
			break;
		}
		if (msgs[i].destid == MOCK_DEAD_DESTID) {
			msgs[i].status = -ETIMEDOUT;
			break;
		}
		if (!m->inb_open[mbox]) {
			msgs[i].status = -EIO;
			break;
		}
		if (m->msg_tail[mbox] - m->msg_head[mbox] == MOCK_MSG_RING) {
			msgs[i].status = -EAGAIN;
			break;
		}
		slot = &m->msgs[mbox][m->msg_tail[mbox]++ % MOCK_MSG_RING];
		slot->len = msgs[i].len;
		slot->src = MOCK_DESTID;
		slot->dst = msgs[i].destid;
		slot->letter = msgs[i].letter;
		memcpy(slot->data, msgs[i].buf, msgs[i].len);
		msgs[i].status = 0;
		m->completions[mbox]++;
	}
	return i;
}

static int64_t
mock_outb_completion(struct rte_rio_mport *mport, uint8_t mbox)
{
	struct mock_port *m = mock_of(mport);
	int64_t done = m->completions[mbox];

	m->completions[mbox] = 0;
	return done;
}

static uint16_t
mock_add_inb_buffers(struct rte_rio_mport *mport, uint8_t mbox, void * const *bufs, uint16_t n)
{
	struct mock_port *m = mock_of(mport);
	uint16_t i;

	mock_inc(&m->add_inb_calls);
	for (i = 0; i < n; i++) {
		if (m->buf_tail[mbox] - m->buf_head[mbox] == MOCK_BUF_RING)
			break;
		m->bufs[mbox][m->buf_tail[mbox]++ % MOCK_BUF_RING] = bufs[i];
	}
	return i;
}

static uint16_t
mock_get_inb_messages(struct rte_rio_mport *mport, uint8_t mbox,
		      struct rte_rio_msg *msgs, uint16_t n)
{
	struct mock_port *m = mock_of(mport);
	struct mock_msg *slot;
	uint16_t i;

	mock_inc(&m->get_inb_calls);
	for (i = 0; i < n; i++) {
		if (m->msg_head[mbox] == m->msg_tail[mbox] ||
		    m->buf_head[mbox] == m->buf_tail[mbox])
			break;
		slot = &m->msgs[mbox][m->msg_head[mbox]++ % MOCK_MSG_RING];
		msgs[i].buf = m->bufs[mbox][m->buf_head[mbox]++ % MOCK_BUF_RING];
		memcpy(msgs[i].buf, slot->data, slot->len);
		msgs[i].len = slot->len;
		msgs[i].srcid = slot->src;
		msgs[i].destid = slot->dst;
		msgs[i].mbox = mbox;
		msgs[i].letter = slot->letter;
		msgs[i].status = 0;
	}
	return i;
}

static int
mock_pw_fetch(struct rte_rio_mport *mport, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	struct mock_port *m = mock_of(mport);

	mock_inc(&m->pw_calls);
	memset(&msgs[0], 0, sizeof(msgs[0]));
	msgs[0].em.comptag = 0x77;
	msgs[0].len = 16;
	return 1;
}

static const struct rte_rio_mport_ops mock_ops = {
	.lcread = mock_lcread,
	.lcwrite = mock_lcwrite,
	.cread = mock_cread,
	.cwrite = mock_cwrite,
	.dsend = mock_dsend,
	.dbell_fetch = mock_dbell_fetch,
	.open_outb_mbox = mock_open_outb_mbox,
	.close_outb_mbox = mock_close_outb_mbox,
	.open_inb_mbox = mock_open_inb_mbox,
	.close_inb_mbox = mock_close_inb_mbox,
	.add_outb_messages = mock_add_outb_messages,
	.outb_completion = mock_outb_completion,
	.add_inb_buffers = mock_add_inb_buffers,
	.get_inb_messages = mock_get_inb_messages,
	.pw_fetch = NULL,
};

/* Every op, optional ones included. */
static const struct rte_rio_mport_ops mock_ops_full = {
	.lcread = mock_lcread,
	.lcwrite = mock_lcwrite,
	.cread = mock_cread,
	.cwrite = mock_cwrite,
	.dsend = mock_dsend,
	.dbell_fetch = mock_dbell_fetch,
	.open_outb_mbox = mock_open_outb_mbox,
	.close_outb_mbox = mock_close_outb_mbox,
	.open_inb_mbox = mock_open_inb_mbox,
	.close_inb_mbox = mock_close_inb_mbox,
	.add_outb_messages = mock_add_outb_messages,
	.outb_completion = mock_outb_completion,
	.add_inb_buffers = mock_add_inb_buffers,
	.get_inb_messages = mock_get_inb_messages,
	.pw_fetch = mock_pw_fetch,
	.cread_block = mock_cread_block,
	.cwrite_block = mock_cwrite_block,
};

/* Mock config space layouts. */
#define MOCK_FLAG_NO_PHYS	0x1	/* no LP-Serial block in the local list */
#define MOCK_FLAG_NO_EF		0x2	/* PEF says no extended features */
#define MOCK_FLAG_EP_PEER	0x4	/* remote device: an endpoint, not a switch */

#define MOCK_EFB(next, id)	(((uint32_t)(next) << 16) | (id))
#define MOCK_LOCAL_PHYS		0x400

static void
mock_cfg_init(struct mock_port *m, unsigned int flags)
{
	uint32_t *l = m->lcfg;
	uint32_t *r = m->rcfg;

	/*
	 * Local: EM (0x100) -> lane status (0x180) -> LP-Serial RM-II (0x400),
	 * so the LP-Serial block is last, not first.
	 */
	l[RTE_RIO_DEV_ID_CAR / 4] = 0x80001234;
	l[RTE_RIO_PEF_CAR / 4] = RTE_RIO_PEF_PROCESSOR | RTE_RIO_PEF_CTLS |
		((flags & MOCK_FLAG_NO_EF) ? 0 : RTE_RIO_PEF_EXT_FEATURES);
	l[RTE_RIO_ASM_INFO_CAR / 4] = 0x00010100;
	l[0x100 / 4] = MOCK_EFB(0x180, RTE_RIO_EFB_ERR_MGMNT);
	l[0x180 / 4] = MOCK_EFB(MOCK_LOCAL_PHYS, RTE_RIO_EFB_LANE_STS);
	l[MOCK_LOCAL_PHYS / 4] = MOCK_EFB(0, (flags & MOCK_FLAG_NO_PHYS) ?
					  RTE_RIO_EFB_TIMESTAMP : RTE_RIO_EFB_SER_EP_M2_ID);
	l[RTE_RIO_DID_CSR / 4] = RTE_RIO_SET_DID(16, MOCK_DESTID);
	l[(MOCK_LOCAL_PHYS + RTE_RIO_PORT_N_ERR_STS_CSR(0, 2)) / 4] =
		RTE_RIO_PORT_N_ERR_STS_PORT_OK;

	/* Remote: EM (0x100) -> LP-Serial RM-I (0x200) -> VC (0x300). */
	if (flags & MOCK_FLAG_EP_PEER) {
		/* One endpoint behind the link, answering any device ID. */
		r[RTE_RIO_DEV_ID_CAR / 4] = 0x56780039;
		r[RTE_RIO_PEF_CAR / 4] = RTE_RIO_PEF_PROCESSOR | RTE_RIO_PEF_EXT_FEATURES |
			RTE_RIO_PEF_CTLS;
		r[RTE_RIO_SRC_OPS_CAR / 4] = RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE |
			RTE_RIO_OPS_DATA_MSG | RTE_RIO_OPS_DOORBELL;
		r[RTE_RIO_DST_OPS_CAR / 4] = r[RTE_RIO_SRC_OPS_CAR / 4];
		r[RTE_RIO_ASM_INFO_CAR / 4] = 0x00010100;
		r[RTE_RIO_HOST_DID_LOCK_CSR / 4] = RTE_RIO_HOST_DID_UNLOCKED;
		r[0x100 / 4] = MOCK_EFB(0x200, RTE_RIO_EFB_ERR_MGMNT);
		r[0x200 / 4] = MOCK_EFB(0, RTE_RIO_EFB_SER_EP_M1_ID);
		r[(0x200 + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)) / 4] = RTE_RIO_PORT_N_ERR_STS_PORT_OK;
		l[RTE_RIO_HOST_DID_LOCK_CSR / 4] = RTE_RIO_HOST_DID_UNLOCKED;
		return;
	}
	r[RTE_RIO_DEV_ID_CAR / 4] = 0x56780038;
	r[RTE_RIO_PEF_CAR / 4] = RTE_RIO_PEF_SWITCH | RTE_RIO_PEF_EXT_FEATURES;
	r[RTE_RIO_ASM_INFO_CAR / 4] = 0x00010100;
	r[0x100 / 4] = MOCK_EFB(0x200, RTE_RIO_EFB_ERR_MGMNT);
	r[0x200 / 4] = MOCK_EFB(0x300, RTE_RIO_EFB_SER_EPF_M1_ID);
	r[0x300 / 4] = MOCK_EFB(0, RTE_RIO_EFB_VC);
}

static struct mock_port *
mock_create(const char *name, unsigned int flags, const struct rte_rio_mport_ops *ops)
{
	struct rte_rio_mport_conf conf = {
		.name = name,
		.ops = ops,
		.devid_size = 16,
		.host_destid = 0,
		.port_index = 0,
	};
	struct mock_port *m;

	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return NULL;
	mock_cfg_init(m, flags);
	conf.priv = m;
	m->mport = rte_rio_mport_register(&conf);
	if (m->mport == NULL) {
		free(m);
		return NULL;
	}
	return m;
}

static void
mock_destroy(struct mock_port *m)
{
	if (m == NULL)
		return;
	if (m->mport != NULL)
		rte_rio_mport_unregister(m->mport);
	free(m);
}

/* The mock of the current test case (setup/teardown). */
static struct mock_port *mock;

/* The id an application sees: the mport's public information. */
static uint16_t
mock_mport_id(struct rte_rio_mport *mp)
{
	struct rte_rio_mport_info info = { .id = UINT16_MAX };

	rte_rio_mport_info_get(mp, &info);
	return info.id;
}

static int
rio_core_setup(void)
{
	mock = mock_create("rio_core_mock", 0, &mock_ops);
	if (mock == NULL) {
		printf("cannot register the mock mport: %s\n", rte_strerror(rte_errno));
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static void
rio_core_teardown(void)
{
	mock_destroy(mock);
	mock = NULL;
}

/* ---------------------------------------------------------------------- */
/* Registry                                                               */

static int
test_registry(void)
{
	struct rte_rio_mport_conf conf = {
		.ops = &mock_ops,
		.devid_size = 16,
		.host_destid = RTE_RIO_NO_HOST,
	};
	struct rte_rio_mport_ops bad_ops = mock_ops;
	struct mock_port *m2 = NULL;
	struct mock_port *m3;
	struct rte_rio_mport_info info;
	uint16_t count0;
	uint16_t id;

	count0 = rte_rio_mport_count();
	m2 = mock_create("rio_core_mock_b", 0, &mock_ops);
	TEST_ASSERT_NOT_NULL(m2, "second mock not registered: %s", rte_strerror(rte_errno));
	m3 = mock_create("rio_core_mock_c", 0, &mock_ops);
	if (m3 == NULL)
		mock_destroy(m2);
	TEST_ASSERT_NOT_NULL(m3, "third mock not registered");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), count0 + 2, "count after register");

	TEST_ASSERT(rte_rio_mport_get(mock_mport_id(mock->mport)) == mock->mport, "get by id");
	TEST_ASSERT(rte_rio_mport_get(mock_mport_id(m2->mport)) == m2->mport, "get by id (b)");
	TEST_ASSERT(mock_mport_id(m2->mport) != mock_mport_id(m3->mport) &&
		    mock_mport_id(m2->mport) != mock_mport_id(mock->mport),
		    "ids are distinct");
	TEST_ASSERT(rte_rio_mport_find("rio_core_mock_b") == m2->mport, "find by name");
	TEST_ASSERT(strcmp(rte_rio_mport_name(m3->mport), "rio_core_mock_c") == 0, "name");
	TEST_ASSERT_NULL(rte_rio_mport_name(NULL), "name of NULL");
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rio_mport_find("rio_core_nope"), "find unknown");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "find unknown errno");
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rio_mport_get(RTE_RIO_MAX_MPORTS), "get out of range");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "get out of range errno");

	/* Info: LP-Serial found behind two other blocks, map II. */
	TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(mock->mport, &info), "info_get");
	TEST_ASSERT(strcmp(info.name, "rio_core_mock") == 0, "info name");
	TEST_ASSERT_EQUAL(info.id, mock->mport->id, "info id");
	TEST_ASSERT_EQUAL(info.phys_efptr, MOCK_LOCAL_PHYS, "info phys_efptr");
	TEST_ASSERT_EQUAL(info.phys_rmap, 2, "info phys_rmap");
	TEST_ASSERT_EQUAL(info.devid_size, 16, "info devid_size");
	TEST_ASSERT_EQUAL(info.host_destid, 0, "info host_destid");
	TEST_ASSERT_EQUAL(info.destid, MOCK_DESTID, "info destid");
	TEST_ASSERT(info.link_up, "info link_up");
	TEST_ASSERT_EQUAL(info.maint_count, 0, "no maintenance at registration");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(mock->mport), MOCK_DESTID, "destid");
	TEST_ASSERT_EQUAL(rte_rio_mport_info_get(NULL, &info), -EINVAL, "info NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_mport_info_get(mock->mport, NULL), -EINVAL, "info NULL");
	mock->lcfg[(MOCK_LOCAL_PHYS + RTE_RIO_PORT_N_ERR_STS_CSR(0, 2)) / 4] = 0;
	TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(mock->mport, &info), "info_get");
	TEST_ASSERT(!info.link_up, "link down follows Port OK");

	/* Refusals leave the registry as it was. */
	conf.priv = m2;
	conf.name = "rio_core_mock_b";
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rio_mport_register(&conf), "duplicate name accepted");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "duplicate name errno");
	conf.name = "rio_core_mock_d";
	bad_ops.dsend = NULL;
	conf.ops = &bad_ops;
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_rio_mport_register(&conf), "missing op accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "missing op errno");
	conf.ops = NULL;
	TEST_ASSERT_NULL(rte_rio_mport_register(&conf), "NULL ops accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL ops errno");
	conf.ops = &mock_ops;
	conf.devid_size = 32;
	TEST_ASSERT_NULL(rte_rio_mport_register(&conf), "devid_size 32 accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "devid_size errno");
	conf.devid_size = 8;
	conf.host_destid = 256;
	TEST_ASSERT_NULL(rte_rio_mport_register(&conf), "8-bit host ID 256 accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "host_destid errno");
	conf.host_destid = 0;
	conf.name = "";
	TEST_ASSERT_NULL(rte_rio_mport_register(&conf), "empty name accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "empty name errno");
	TEST_ASSERT_NULL(rte_rio_mport_register(NULL), "NULL conf accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL conf errno");
	TEST_ASSERT_NULL(mock_create("rio_core_nophys", MOCK_FLAG_NO_PHYS, &mock_ops),
			 "mport without LP-Serial block accepted");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "no LP-Serial errno");
	TEST_ASSERT_NULL(mock_create("rio_core_noef", MOCK_FLAG_NO_EF, &mock_ops),
			 "mport without extended features accepted");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "no extended features errno");
	TEST_ASSERT_NULL(rte_rio_mport_find("rio_core_nophys"), "refused mport findable");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), count0 + 2, "count after refusals");

	/* Unregister: gone from find/get/count; its id is reused. */
	id = mock_mport_id(m2->mport);
	TEST_ASSERT_SUCCESS(rte_rio_mport_unregister(m2->mport), "unregister");
	m2->mport = NULL;
	mock_destroy(m2);
	TEST_ASSERT_NULL(rte_rio_mport_find("rio_core_mock_b"), "find after unregister");
	TEST_ASSERT_NULL(rte_rio_mport_get(id), "get after unregister");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), count0 + 1, "count after unregister");
	TEST_ASSERT_EQUAL(rte_rio_mport_unregister(NULL), -EINVAL, "unregister NULL");
	m2 = mock_create("rio_core_mock_b", 0, &mock_ops);
	TEST_ASSERT_NOT_NULL(m2, "re-register after unregister");
	TEST_ASSERT_EQUAL(mock_mport_id(m2->mport), id, "lowest free id reused");
	mock_destroy(m3);
	mock_destroy(m2);
	TEST_ASSERT_NULL(rte_rio_mport_find("rio_core_mock_c"), "find after destroy");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), count0, "count restored");
	return TEST_SUCCESS;
}

/* RTE_RIO_MAX_MPORTS mports, then ENOSPC; all share one mock. */
static int
test_registry_full(void)
{
	struct rte_rio_mport *mports[RTE_RIO_MAX_MPORTS];
	struct rte_rio_mport_conf conf = {
		.ops = &mock_ops,
		.priv = mock,
		.devid_size = 8,
		.host_destid = RTE_RIO_NO_HOST,
	};
	char name[RTE_RIO_NAME_MAX_LEN];
	unsigned int n = 0;
	unsigned int i;
	int err = 0;

	while (n < RTE_RIO_MAX_MPORTS) {
		snprintf(name, sizeof(name), "rio_core_full_%u", n);
		conf.name = name;
		mports[n] = rte_rio_mport_register(&conf);
		if (mports[n] == NULL) {
			err = rte_errno;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		rte_rio_mport_unregister(mports[i]);
	TEST_ASSERT_EQUAL(err, ENOSPC, "errno when the registry is full");
	TEST_ASSERT_EQUAL(n + rte_rio_mport_count(), RTE_RIO_MAX_MPORTS,
			  "registered until full");
	TEST_ASSERT_NULL(rte_rio_mport_find("rio_core_full_0"), "left registered");
	return TEST_SUCCESS;
}

/* Unregister closes open mailboxes through the ops and frees doorbell ranges. */
static void
test_dbell_nop(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	RTE_SET_USED(mport);
	RTE_SET_USED(arg);
	RTE_SET_USED(db);
}

static int
test_unregister_releases(void)
{
	struct mock_port *m = mock_create("rio_core_mock_u", 0, &mock_ops);

	TEST_ASSERT_NOT_NULL(m, "mock not registered");
	if (rte_rio_request_inb_mbox(m->mport, 2, 8) != 0 ||
	    rte_rio_request_outb_mbox(m->mport, 3, 16) != 0 ||
	    rte_rio_request_outb_mbox(m->mport, 0, 2) != 0 ||
	    rte_rio_request_inb_dbell(m->mport, 0, 0xff, test_dbell_nop, NULL) != 0 ||
	    rte_rio_request_outb_dbell(m->mport, 7, 0, 0xff) != 0) {
		mock_destroy(m);
		TEST_ASSERT(0, "resource requests failed");
	}
	TEST_ASSERT_SUCCESS(rte_rio_release_outb_mbox(m->mport, 0), "release outb 0");
	TEST_ASSERT_SUCCESS(rte_rio_mport_unregister(m->mport), "unregister");
	m->mport = NULL;
	TEST_ASSERT_EQUAL(m->close_inb[2], 1, "inbound mailbox 2 closed once");
	TEST_ASSERT_EQUAL(m->close_outb[3], 1, "outbound mailbox 3 closed once");
	TEST_ASSERT_EQUAL(m->close_outb[0], 1, "released mailbox not closed twice");
	TEST_ASSERT_EQUAL(m->close_inb[0] + m->close_inb[1] + m->close_inb[3], 0,
			  "closed mailboxes that were never open");
	mock_destroy(m);
	return TEST_SUCCESS;
}

struct scan_events {
	unsigned int add;
	unsigned int remove;
};

static void
scan_event_cb(struct rte_rio_dev *dev, enum rte_rio_dev_event event, void *arg)
{
	struct scan_events *ev = arg;

	RTE_SET_USED(dev);
	if (event == RTE_RIO_DEV_EVENT_ADD)
		ev->add++;
	else
		ev->remove++;
}

/* Unregister forgets the devices a scan found (REMOVE events) before freeing. */
static int
test_unregister_devices(void)
{
	struct rte_rio_mport_conf conf = {
		.name = "rio_core_mock_scan",
		.ops = &mock_ops,
		.devid_size = 16,
		.host_destid = 1,
	};
	struct scan_events ev = { 0 };
	struct mock_port *m;
	int ret = TEST_FAILED;
	int err;

	m = calloc(1, sizeof(*m));
	TEST_ASSERT_NOT_NULL(m, "no memory");
	mock_cfg_init(m, MOCK_FLAG_EP_PEER);
	conf.priv = m;
	m->mport = rte_rio_mport_register(&conf);
	if (m->mport == NULL) {
		free(m);
		TEST_ASSERT(0, "mock not registered");
	}
	if (rte_rio_dev_event_register(scan_event_cb, &ev) != 0) {
		printf("cannot subscribe to device events\n");
		goto out;
	}
	err = rte_rio_mport_scan(m->mport, NULL);
	if (err != 0 || !rte_rio_mport_scanned(m->mport) ||
	    rte_rio_dev_count(m->mport) != 2 || ev.add != 2) {
		printf("scan of the mock: %d, %u devices, %u ADD events\n", err,
		       rte_rio_dev_count(m->mport), ev.add);
		goto out;
	}
	if (rte_rio_mport_unregister(m->mport) != 0) {
		printf("unregister failed\n");
		goto out;
	}
	m->mport = NULL;
	if (ev.remove != 2) {
		printf("unregister emitted %u REMOVE events, expected 2\n", ev.remove);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	rte_rio_dev_event_unregister(scan_event_cb, &ev);
	mock_destroy(m);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Configuration access                                                   */

static int
test_config_lanes(void)
{
	struct rte_rio_mport *mp = mock->mport;
	uint32_t v32;
	uint16_t v16;
	uint8_t v8;
	unsigned int i;
	static const uint8_t bytes[4] = { 0x12, 0x34, 0x56, 0x78 };

	/* Local. */
	TEST_ASSERT_SUCCESS(rte_rio_local_write_config_32(mp, MOCK_SCRATCH, 0x12345678), "w32");
	TEST_ASSERT_EQUAL(mock->lcfg[MOCK_SCRATCH / 4], 0x12345678, "register value");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_SUCCESS(rte_rio_local_read_config_8(mp, MOCK_SCRATCH + i, &v8), "r8");
		TEST_ASSERT_EQUAL(v8, bytes[i], "local byte lane %u", i);
	}
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_16(mp, MOCK_SCRATCH, &v16), "r16");
	TEST_ASSERT_EQUAL(v16, 0x1234, "local half-word at 4k is bits 31..16");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_16(mp, MOCK_SCRATCH + 2, &v16), "r16");
	TEST_ASSERT_EQUAL(v16, 0x5678, "local half-word at 4k+2 is bits 15..0");
	TEST_ASSERT_SUCCESS(rte_rio_local_write_config_8(mp, MOCK_SCRATCH + 1, 0xab), "w8");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(mp, MOCK_SCRATCH, &v32), "r32");
	TEST_ASSERT_EQUAL(v32, 0x12ab5678, "byte write lands in bits 23..16");
	TEST_ASSERT_SUCCESS(rte_rio_local_write_config_16(mp, MOCK_SCRATCH + 2, 0xcdef), "w16");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(mp, MOCK_SCRATCH, &v32), "r32");
	TEST_ASSERT_EQUAL(v32, 0x12abcdef, "half-word write lands in bits 15..0");
	TEST_ASSERT_SUCCESS(rte_rio_local_write_config_16(mp, MOCK_SCRATCH, 0x0102), "w16");
	TEST_ASSERT_EQUAL(mock->lcfg[MOCK_SCRATCH / 4], 0x0102cdef, "half-word at 4k");
	TEST_ASSERT_EQUAL(mock->cread_calls + mock->cwrite_calls, 0, "local went remote");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 0, "local accesses counted");

	/* Remote: same lanes, destid and hop count passed through. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(mp, MOCK_REMOTE_DESTID,
			    MOCK_REMOTE_HOP, MOCK_SCRATCH, 0x12345678), "remote w32");
	TEST_ASSERT_EQUAL(mock->last_destid, MOCK_REMOTE_DESTID, "destid passed");
	TEST_ASSERT_EQUAL(mock->last_hop, MOCK_REMOTE_HOP, "hopcount passed");
	TEST_ASSERT_EQUAL(mock->rcfg[MOCK_SCRATCH / 4], 0x12345678, "remote register value");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_8(mp, MOCK_REMOTE_DESTID,
				    RTE_RIO_HOPCOUNT_DIRECT, MOCK_SCRATCH + i, &v8), "remote r8");
		TEST_ASSERT_EQUAL(v8, bytes[i], "remote byte lane %u", i);
	}
	TEST_ASSERT_EQUAL(mock->last_hop, RTE_RIO_HOPCOUNT_DIRECT, "direct hopcount passed");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_16(mp, MOCK_REMOTE_DESTID, 0,
			    MOCK_SCRATCH + 2, &v16), "remote r16");
	TEST_ASSERT_EQUAL(v16, 0x5678, "remote half-word lane");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_8(mp, MOCK_REMOTE_DESTID, 0,
			    MOCK_SCRATCH + 3, 0x99), "remote w8");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_16(mp, MOCK_REMOTE_DESTID, 0,
			    MOCK_SCRATCH, 0xfedc), "remote w16");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(mp, MOCK_REMOTE_DESTID, 0,
			    MOCK_SCRATCH, &v32), "remote r32");
	TEST_ASSERT_EQUAL(v32, 0xfedc5699, "remote sub-word writes");
	TEST_ASSERT_EQUAL(mock->bad_calls, 0, "op saw a bad offset or length");
	return TEST_SUCCESS;
}

static int
test_config_errors(void)
{
	struct rte_rio_mport *mp = mock->mport;
	uint32_t v32 = 0xdeadbeef;
	uint16_t v16 = 0xbeef;
	uint8_t v8 = 0xee;
	uint64_t calls;
	uint32_t off;

	calls = mock->lcread_calls + mock->lcwrite_calls + mock->cread_calls + mock->cwrite_calls;

	/* Misaligned: -EFAULT, no op call, output untouched. */
	for (off = MOCK_SCRATCH + 1; off < MOCK_SCRATCH + 4; off++) {
		TEST_ASSERT_EQUAL(rte_rio_local_read_config_32(mp, off, &v32), -EFAULT,
				  "local r32 at +%u", off & 3);
		TEST_ASSERT_EQUAL(rte_rio_local_write_config_32(mp, off, 1), -EFAULT, "lw32");
		TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(mp, 1, 0, off, &v32), -EFAULT,
				  "remote r32 at +%u", off & 3);
		TEST_ASSERT_EQUAL(rte_rio_remote_write_config_32(mp, 1, 0, off, 1), -EFAULT,
				  "rw32");
	}
	for (off = MOCK_SCRATCH + 1; off < MOCK_SCRATCH + 4; off += 2) {
		TEST_ASSERT_EQUAL(rte_rio_local_read_config_16(mp, off, &v16), -EFAULT, "lr16");
		TEST_ASSERT_EQUAL(rte_rio_local_write_config_16(mp, off, 1), -EFAULT, "lw16");
		TEST_ASSERT_EQUAL(rte_rio_remote_read_config_16(mp, 1, 0, off, &v16), -EFAULT,
				  "rr16");
		TEST_ASSERT_EQUAL(rte_rio_remote_write_config_16(mp, 1, 0, off, 1), -EFAULT,
				  "rw16");
	}
	TEST_ASSERT_EQUAL(v32, 0xdeadbeef, "32-bit output written on error");
	TEST_ASSERT_EQUAL(v16, 0xbeef, "16-bit output written on error");
	TEST_ASSERT_EQUAL(mock->lcread_calls + mock->lcwrite_calls + mock->cread_calls +
			  mock->cwrite_calls, calls, "op called for a misaligned access");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 0, "misaligned access counted");

	/* End of the 16 MiB space: last unit in range, next one -ERANGE. */
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_32(mp, RTE_RIO_MAINT_SPACE_SZ, &v32),
			  -ERANGE, "r32 at 16 MiB");
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_16(mp, RTE_RIO_MAINT_SPACE_SZ, &v16),
			  -ERANGE, "r16 at 16 MiB");
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_8(mp, RTE_RIO_MAINT_SPACE_SZ, &v8),
			  -ERANGE, "r8 at 16 MiB");
	TEST_ASSERT_EQUAL(rte_rio_local_write_config_8(mp, UINT32_MAX, 0), -ERANGE,
			  "w8 at 4 GiB - 1");
	TEST_ASSERT_EQUAL(rte_rio_remote_write_config_32(mp, 1, 0, UINT32_MAX - 3, 0), -ERANGE,
			  "remote w32 at 4 GiB - 4");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_16(mp, 1, 0, RTE_RIO_MAINT_SPACE_SZ + 2,
			  &v16), -ERANGE, "remote r16 beyond space");
	TEST_ASSERT_EQUAL(mock->lcread_calls + mock->lcwrite_calls + mock->cread_calls +
			  mock->cwrite_calls, calls, "op called for an out-of-space access");
	/* In space but not backed by the mock RAM: the driver's -EIO comes through. */
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_32(mp, RTE_RIO_MAINT_SPACE_SZ - 4, &v32),
			  -EIO, "r32 at the last register reaches the driver");
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_8(mp, RTE_RIO_MAINT_SPACE_SZ - 1, &v8),
			  -EIO, "r8 at the last byte reaches the driver");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_16(mp, 1, 0, RTE_RIO_MAINT_SPACE_SZ - 2,
			  &v16), -EIO, "remote r16 at the last half-word reaches the driver");
	TEST_ASSERT_EQUAL(mock->lcread_calls + mock->lcwrite_calls + mock->cread_calls +
			  mock->cwrite_calls, calls + 3, "in-space accesses not passed on");
	TEST_ASSERT_EQUAL(v32, 0xdeadbeef, "32-bit output written on driver error");
	TEST_ASSERT_EQUAL(v16, 0xbeef, "16-bit output written on driver error");
	TEST_ASSERT_EQUAL(v8, 0xee, "8-bit output written on driver error");

	/* No response. */
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(mp, MOCK_DEAD_DESTID, 0, 0, &v32),
			  -ETIMEDOUT, "no response");
	TEST_ASSERT_EQUAL(v32, 0xdeadbeef, "output written on timeout");

	/* Bad arguments. */
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_32(NULL, 0, &v32), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_local_write_config_32(NULL, 0, 0), -EINVAL, "NULL mport w");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_8(NULL, 0, 0, 0, &v8), -EINVAL,
			  "NULL mport remote");
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_32(mp, 0, NULL), -EINVAL, "NULL value");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_16(mp, 1, 0, 0, NULL), -EINVAL,
			  "NULL value remote");
	TEST_ASSERT_EQUAL(mock->bad_calls, 0, "op saw a bad offset or length");
	return TEST_SUCCESS;
}

static int
test_maint_count(void)
{
	struct rte_rio_mport *mp = mock->mport;
	struct rte_rio_mport_info info;
	uint32_t v32;
	uint8_t v8;

	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(mp, 0, &v32), "local read");
	TEST_ASSERT_SUCCESS(rte_rio_local_write_config_32(mp, MOCK_SCRATCH, 1), "local write");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_8(mp, 1, &v8), "local read 8");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 0, "local accesses counted");

	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(mp, 1, 0, 0, &v32), "remote read");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_8(mp, 1, 0, 3, &v8), "remote read 8");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_16(mp, 1, 0, MOCK_SCRATCH, 1), "rw16");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 3, "remote accesses");
	/* A transaction without response was still issued. */
	TEST_ASSERT_EQUAL(rte_rio_remote_write_config_32(mp, MOCK_DEAD_DESTID, 0, 0, 0),
			  -ETIMEDOUT, "dead destid");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 4, "timed-out access");
	/* A refused one was not. */
	TEST_ASSERT_EQUAL(rte_rio_remote_write_config_32(mp, 1, 0, 2, 0), -EFAULT, "misaligned");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 4, "refused access counted");
	TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(mp, &info), "info");
	TEST_ASSERT_EQUAL(info.maint_count, 4, "info.maint_count");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 4, "info_get issued maintenance");
	rte_rio_mport_maint_count_reset(mp);
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mp), 0, "reset");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(NULL), 0, "NULL mport");
	return TEST_SUCCESS;
}

#define CONC_ITERS	20000

struct conc_arg {
	struct rte_rio_mport *mport;
	unsigned int idx;
	int err;
};

static void *
conc_worker(void *p)
{
	struct conc_arg *a = p;
	uint32_t off = MOCK_SCRATCH + 0x100 + 8 * a->idx;
	unsigned int i;
	uint32_t v;
	int ret;

	for (i = 0; i < CONC_ITERS && a->err == 0; i++) {
		switch (i % 4) {
		case 0:
			ret = rte_rio_local_write_config_32(a->mport, off, i);
			break;
		case 1:
			ret = rte_rio_local_read_config_32(a->mport, off, &v);
			if (ret == 0 && v != i - 1)
				ret = -EPROTO;
			break;
		case 2:
			ret = rte_rio_remote_write_config_32(a->mport, 1, 0, off, i);
			break;
		default:
			ret = rte_rio_remote_read_config_32(a->mport, 1, 0, off, &v);
			if (ret == 0 && v != i - 1)
				ret = -EPROTO;
			break;
		}
		if (ret != 0)
			a->err = ret;
	}
	return NULL;
}

static int
test_config_concurrent(void)
{
	struct conc_arg args[2];
	pthread_t th[2];
	unsigned int i;
	uint32_t v;

	/* The detector works: an op entered while another is "inside" is flagged. */
	mock->in_op = 1;
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(mock->mport, 0, &v), "read");
	mock->in_op = 0;
	TEST_ASSERT_EQUAL(mock->overlap, 1, "overlap detector did not fire");
	mock->overlap = 0;

	mock->op_spin = 50;
	rte_rio_mport_maint_count_reset(mock->mport);
	mock->lcread_calls = mock->lcwrite_calls = mock->cread_calls = mock->cwrite_calls = 0;
	for (i = 0; i < 2; i++) {
		args[i].mport = mock->mport;
		args[i].idx = i;
		args[i].err = 0;
		TEST_ASSERT_SUCCESS(pthread_create(&th[i], NULL, conc_worker, &args[i]),
				    "pthread_create");
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	mock->op_spin = 0;

	TEST_ASSERT_SUCCESS(args[0].err, "worker 0 access failed");
	TEST_ASSERT_SUCCESS(args[1].err, "worker 1 access failed");
	TEST_ASSERT_EQUAL(mock->overlap, 0, "two config ops ran at once on one mport");
	TEST_ASSERT_EQUAL(mock_get(&mock->lcread_calls) + mock_get(&mock->lcwrite_calls),
			  CONC_ITERS, "local op calls");
	TEST_ASSERT_EQUAL(mock_get(&mock->cread_calls) + mock_get(&mock->cwrite_calls),
			  CONC_ITERS, "remote op calls");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mock->mport), CONC_ITERS,
			  "maint_count lost updates");
	return TEST_SUCCESS;
}

static int
test_block_access(void)
{
	struct mock_port *full;
	uint32_t words[16];
	uint32_t back[16];
	unsigned int i;
	int ret = TEST_FAILED;

	for (i = 0; i < RTE_DIM(words); i++)
		words[i] = 0x01020304u * (i + 1);

	/* Without block ops: len / 4 single-word transactions, all counted. */
	rte_rio_mport_maint_count_reset(mock->mport);
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_block(mock->mport, 3, 2, 0x2000, 32, words),
			    "write block by words");
	TEST_ASSERT_EQUAL(mock->cwrite_calls, 8, "single-word writes");
	TEST_ASSERT(memcmp(&mock->rcfg[0x2000 / 4], words, 32) == 0, "written words");
	memset(back, 0, sizeof(back));
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_block(mock->mport, 3, 2, 0x2008, 16, back),
			    "read block by words");
	TEST_ASSERT(memcmp(back, &words[2], 16) == 0, "read words");
	TEST_ASSERT_EQUAL(mock->last_destid, 3, "destid");
	TEST_ASSERT_EQUAL(mock->last_hop, 2, "hopcount");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mock->mport), 12, "transactions counted");

	/* Refused before any op call. */
	TEST_ASSERT_EQUAL(rte_rio_remote_read_block(mock->mport, 3, 2, 0x2004, 8, back), -EFAULT,
			  "offset not 8-byte aligned");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_block(mock->mport, 3, 2, 0x2000, 12, back),
			  -EINVAL, "length 12");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_block(mock->mport, 3, 2, 0x2000, 128, back),
			  -EINVAL, "length 128");
	TEST_ASSERT_EQUAL(rte_rio_remote_write_block(mock->mport, 3, 2,
			  RTE_RIO_MAINT_SPACE_SZ - 8, 16, words), -ERANGE, "beyond the space");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_block(mock->mport, 3, 2, 0x2000, 8, NULL), -EINVAL,
			  "NULL words");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_block(NULL, 3, 2, 0x2000, 8, back), -EINVAL,
			  "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(mock->mport), 12, "refused access counted");
	/* A failing word leaves the output untouched. */
	memset(back, 0xa5, sizeof(back));
	TEST_ASSERT_EQUAL(rte_rio_remote_read_block(mock->mport, MOCK_DEAD_DESTID, 0, 0x2000, 8,
			  back), -ETIMEDOUT, "no response");
	TEST_ASSERT_EQUAL(back[0], 0xa5a5a5a5, "output written on error");

	/* With block ops: one transaction. */
	full = mock_create("rio_core_mock_blk", 0, &mock_ops_full);
	TEST_ASSERT_NOT_NULL(full, "mock with block ops not registered");
	if (rte_rio_remote_write_block(full->mport, 3, 0, 0x3000, 64, words) != 0 ||
	    full->cwrite_block_calls != 1 || full->cwrite_calls != 0 ||
	    memcmp(&full->rcfg[0x3000 / 4], words, 64) != 0) {
		printf("block write through cwrite_block failed\n");
		goto out;
	}
	memset(back, 0, sizeof(back));
	if (rte_rio_remote_read_block(full->mport, 3, 0, 0x3010, 16, back) != 0 ||
	    full->cread_block_calls != 1 || full->cread_calls != 0 ||
	    memcmp(back, &words[4], 16) != 0) {
		printf("block read through cread_block failed\n");
		goto out;
	}
	if (rte_rio_mport_maint_count(full->mport) != 2 || full->bad_calls != 0) {
		printf("block transactions: count %" PRIu64 ", bad calls %u\n",
		       rte_rio_mport_maint_count(full->mport), full->bad_calls);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	mock_destroy(full);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Extended features                                                      */

static int
test_efb_walk(void)
{
	struct rte_rio_mport *mp = mock->mport;
	const uint16_t d = MOCK_REMOTE_DESTID;
	const uint8_t h = MOCK_REMOTE_HOP;
	uint8_t rmap = 0;
	uint16_t id = 0;
	uint64_t reads;
	int32_t ptr;

	/* Iterate the remote list: EM, LP-Serial RM-I, VC, end. */
	ptr = rte_rio_next_efb(mp, false, d, h, 0, &id);
	TEST_ASSERT_EQUAL(ptr, 0x100, "first block");
	TEST_ASSERT_EQUAL(id, RTE_RIO_EFB_ERR_MGMNT, "first id");
	ptr = rte_rio_next_efb(mp, false, d, h, ptr, &id);
	TEST_ASSERT_EQUAL(ptr, 0x200, "second block");
	TEST_ASSERT_EQUAL(id, RTE_RIO_EFB_SER_EPF_M1_ID, "second id");
	ptr = rte_rio_next_efb(mp, false, d, h, ptr, &id);
	TEST_ASSERT_EQUAL(ptr, 0x300, "third block");
	TEST_ASSERT_EQUAL(id, RTE_RIO_EFB_VC, "third id");
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, ptr, &id), 0, "end of list");
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0x200, NULL), 0x300, "id optional");
	TEST_ASSERT_EQUAL(mock->last_destid, d, "walk destid");
	TEST_ASSERT_EQUAL(mock->last_hop, h, "walk hopcount");
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0x104, &id), -EINVAL,
			  "misaligned from");
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0x80, &id), -EINVAL,
			  "from below 0x100");

	/* Features are found wherever they are; the walk follows NEXT pointers. */
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_ERR_MGMNT), 0x100,
			  "EM block");
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_VC), 0x300,
			  "VC block (last)");
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_TIMESTAMP), 0,
			  "absent block");
	TEST_ASSERT_EQUAL(rte_rio_get_physefb(mp, false, d, h, &rmap), 0x200, "remote phys");
	TEST_ASSERT_EQUAL(rmap, 1, "remote rmap");
	rmap = 0;
	TEST_ASSERT_EQUAL(rte_rio_get_physefb(mp, true, 0, 0, &rmap), MOCK_LOCAL_PHYS,
			  "local phys is the third block");
	TEST_ASSERT_EQUAL(rmap, 2, "local rmap");
	TEST_ASSERT_EQUAL(rte_rio_get_physefb(mp, true, 0, 0, NULL), MOCK_LOCAL_PHYS,
			  "rmap optional");
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, true, 0, 0, RTE_RIO_EFB_LANE_STS), 0x180,
			  "local lane status block");

	/* Errors propagate. */
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, MOCK_DEAD_DESTID, 0, 7), -ETIMEDOUT,
			  "walk on a dead device");
	TEST_ASSERT_EQUAL(rte_rio_get_feature(NULL, true, 0, 0, 7), -EINVAL, "NULL mport");

	/* Bad pointers end the walk: not 8-byte aligned, below 0x100. */
	mock->rcfg[0x200 / 4] = MOCK_EFB(0x304, RTE_RIO_EFB_SER_EPF_M1_ID);
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_VC), 0,
			  "walk went through a misaligned pointer");
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0x200, &id), 0,
			  "next_efb returned a misaligned pointer");
	mock->rcfg[0x200 / 4] = MOCK_EFB(0x0f8, RTE_RIO_EFB_SER_EPF_M1_ID);
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0x200, &id), 0,
			  "next_efb returned a pointer into the CSR space");
	mock->rcfg[0x0f8 / 4] = MOCK_EFB(0, RTE_RIO_EFB_VOQ);
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_VOQ), 0,
			  "walk entered the CSR space");
	mock->rcfg[RTE_RIO_ASM_INFO_CAR / 4] = 0x00010104;
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0, &id), 0, "bad list head");
	mock->rcfg[RTE_RIO_ASM_INFO_CAR / 4] = 0x00010100;

	/* Self-loop and two-block loop terminate after a bounded number of reads. */
	mock->rcfg[0x200 / 4] = MOCK_EFB(0x200, RTE_RIO_EFB_SER_EPF_M1_ID);
	reads = mock_get(&mock->cread_calls);
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_VC), 0, "self-loop");
	reads = mock_get(&mock->cread_calls) - reads;
	TEST_ASSERT(reads >= 256 && reads <= 2 + 256, "self-loop walk read %" PRIu64
		    " headers", reads);
	TEST_ASSERT_EQUAL(rte_rio_get_physefb(mp, false, d, h, &rmap), 0x200,
			  "phys block in a loop still found");
	mock->rcfg[0x200 / 4] = MOCK_EFB(0x100, RTE_RIO_EFB_SER_EPF_M1_ID);
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_VC), 0,
			  "two-block loop");

	/* No extended features: PEF bit clear means no list even if the pointer is set. */
	mock->rcfg[RTE_RIO_PEF_CAR / 4] &= ~RTE_RIO_PEF_EXT_FEATURES;
	TEST_ASSERT_EQUAL(rte_rio_next_efb(mp, false, d, h, 0, &id), 0, "list without PEF bit");
	TEST_ASSERT_EQUAL(rte_rio_get_feature(mp, false, d, h, RTE_RIO_EFB_ERR_MGMNT), 0,
			  "feature without PEF bit");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Doorbells                                                              */

#define DB_LOG_MAX	16

struct db_log {
	unsigned int n;
	struct rte_rio_dbell db[DB_LOG_MAX];
	struct rte_rio_mport *mport;
};

static void
db_log_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct db_log *log = arg;

	log->mport = mport;
	if (log->n < DB_LOG_MAX)
		log->db[log->n] = *db;
	log->n++;
}

/* A handler that releases its own range on its first doorbell. */
static void
db_release_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	unsigned int *calls = arg;

	RTE_SET_USED(db);
	if ((*calls)++ == 0)
		rte_rio_release_inb_dbell(mport, 0x8000, 0x8fff);
}

static int
test_inb_dbell(void)
{
	struct rte_rio_mport *mp = mock->mport;
	struct db_log a = { 0 };
	struct db_log b = { 0 };
	static const uint16_t infos[] = { 0x1000, 0x1100, 0x10ff, 0x2000, 0x11ff };
	unsigned int calls = 0;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(mp, 0x1000, 0x10ff, db_log_cb, &a), "A");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0x10ff, 0x1100, db_log_cb, &b), -EBUSY,
			  "overlap at the end");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0x0f00, 0x1000, db_log_cb, &b), -EBUSY,
			  "overlap at the start");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0x1010, 0x1020, db_log_cb, &b), -EBUSY,
			  "inside");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0, 0xffff, db_log_cb, &b), -EBUSY,
			  "around");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0x1000, 0x10ff, db_log_cb, &b), -EBUSY,
			  "same");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(mp, 0x1100, 0x11ff, db_log_cb, &b),
			    "adjacent range refused");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0x3001, 0x3000, db_log_cb, &b), -EINVAL,
			  "start > end");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(mp, 0x3000, 0x3000, NULL, &b), -EINVAL,
			  "NULL handler");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_dbell(NULL, 0x3000, 0x3000, db_log_cb, &b),
			  -EINVAL, "NULL mport");

	/* Loopback: each doorbell goes to the owner of the range holding its info. */
	for (i = 0; i < RTE_DIM(infos); i++)
		TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(mp, 0x77, infos[i]), "send %u", i);
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 64), (int)RTE_DIM(infos), "poll");
	TEST_ASSERT_EQUAL(a.n, 2, "A deliveries");
	TEST_ASSERT_EQUAL(b.n, 2, "B deliveries");
	TEST_ASSERT(a.mport == mp && b.mport == mp, "handler got the mport");
	TEST_ASSERT_EQUAL(a.db[0].info, 0x1000, "A first info");
	TEST_ASSERT_EQUAL(a.db[1].info, 0x10ff, "A second info");
	TEST_ASSERT_EQUAL(b.db[0].info, 0x1100, "B first info");
	TEST_ASSERT_EQUAL(b.db[1].info, 0x11ff, "B second info");
	TEST_ASSERT_EQUAL(a.db[0].src, MOCK_DESTID, "src");
	TEST_ASSERT_EQUAL(a.db[0].dst, 0x77, "dst");
	TEST_ASSERT_EQUAL(rte_rio_dbell_unclaimed_count(mp), 1, "unclaimed count");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 64), 0, "poll empty");

	/* max bounds one poll; more than one driver burst is drained. */
	for (i = 0; i < 40; i++)
		TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(mp, 0x77, 0x1001), "send");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 3), 3, "poll max 3");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 0), 0, "poll max 0");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 100), 37, "poll the rest");
	TEST_ASSERT_EQUAL(a.n, 42, "A deliveries after bursts");

	/* Release: exact bounds only. */
	TEST_ASSERT_EQUAL(rte_rio_release_inb_dbell(mp, 0x1000, 0x1000), -ENOENT, "not exact");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_dbell(mp, 0x5000, 0x50ff), -ENOENT, "unknown");
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_dbell(mp, 0x1000, 0x10ff), "release A");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_dbell(mp, 0x1000, 0x10ff), -ENOENT, "twice");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(mp, 0x77, 0x1000), "send");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 8), 1, "poll after release");
	TEST_ASSERT_EQUAL(a.n, 42, "released handler called");
	TEST_ASSERT_EQUAL(rte_rio_dbell_unclaimed_count(mp), 2, "released range unclaimed");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(mp, 0x0f00, 0x10ff, db_log_cb, &a),
			    "reclaim released space");

	/* A handler may release its range: later doorbells of the same poll are unclaimed. */
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(mp, 0x8000, 0x8fff, db_release_cb, &calls),
			    "self-releasing range");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(mp, 0x77, 0x8001), "send");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mp, 8), 3, "poll");
	TEST_ASSERT_EQUAL(calls, 1, "handler called after releasing its range");
	TEST_ASSERT_EQUAL(rte_rio_dbell_unclaimed_count(mp), 4, "unclaimed after release");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_dbell(mp, 0x8000, 0x8fff), -ENOENT,
			  "range still claimed");

	/* Driver results come through. */
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(mp, MOCK_DEAD_DESTID, 1), -ETIMEDOUT, "timeout");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(NULL, 1, 1), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(NULL, 1), -EINVAL, "poll NULL mport");
	return TEST_SUCCESS;
}

static int
test_outb_dbell(void)
{
	struct rte_rio_mport *mp = mock->mport;

	TEST_ASSERT_SUCCESS(rte_rio_request_outb_dbell(mp, 1, 0, 0xff), "dest 1");
	TEST_ASSERT_EQUAL(rte_rio_request_outb_dbell(mp, 1, 0x80, 0x180), -EBUSY,
			  "overlap on dest 1");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_dbell(mp, 2, 0, 0xff), "same range, dest 2");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_dbell(mp, 1, 0x100, 0x1ff), "adjacent dest 1");
	TEST_ASSERT_EQUAL(rte_rio_request_outb_dbell(mp, 1, 2, 1), -EINVAL, "start > end");
	TEST_ASSERT_EQUAL(rte_rio_release_outb_dbell(mp, 3, 0, 0xff), -ENOENT, "other dest");
	TEST_ASSERT_EQUAL(rte_rio_release_outb_dbell(mp, 1, 0, 0x1ff), -ENOENT, "not exact");
	TEST_ASSERT_SUCCESS(rte_rio_release_outb_dbell(mp, 1, 0, 0xff), "release");
	TEST_ASSERT_EQUAL(rte_rio_release_outb_dbell(mp, 1, 0, 0xff), -ENOENT, "twice");
	TEST_ASSERT_SUCCESS(rte_rio_release_outb_dbell(mp, 2, 0, 0xff), "release dest 2");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_dbell(mp, 1, 0x80, 0xff), "reclaim");
	/* Outbound and inbound ranges are independent. */
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(mp, 0x80, 0xff, db_log_cb, NULL),
			    "inbound range beside outbound");
	TEST_ASSERT_EQUAL(rte_rio_request_outb_dbell(NULL, 1, 0, 1), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_release_outb_dbell(NULL, 1, 0, 1), -EINVAL, "NULL mport");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Mailboxes and messages                                                 */

static int
test_mbox_claim(void)
{
	struct rte_rio_mport *mp = mock->mport;
	static const uint32_t bad_entries[] = { 0, 1, 3, 6, 4097, 8192, 1u << 31 };
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad_entries); i++) {
		TEST_ASSERT_EQUAL(rte_rio_request_inb_mbox(mp, 0, bad_entries[i]), -EINVAL,
				  "inbound entries %u", bad_entries[i]);
		TEST_ASSERT_EQUAL(rte_rio_request_outb_mbox(mp, 0, bad_entries[i]), -EINVAL,
				  "outbound entries %u", bad_entries[i]);
	}
	TEST_ASSERT_EQUAL(rte_rio_request_inb_mbox(mp, RTE_RIO_MAX_MBOX, 8), -EINVAL, "mbox 4");
	TEST_ASSERT_EQUAL(rte_rio_request_outb_mbox(mp, RTE_RIO_MAX_MBOX, 8), -EINVAL, "mbox 4");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_mbox(NULL, 0, 8), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(mock->open_inb[0] + mock->open_outb[0], 0, "open op called");

	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mp, 0, 2), "inbound 0, 2 entries");
	TEST_ASSERT_EQUAL(mock->open_entries, 2, "entries passed");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mp, 3, 4096), "inbound 3, 4096 entries");
	TEST_ASSERT_EQUAL(mock->open_entries, 4096, "entries passed");
	TEST_ASSERT_EQUAL(rte_rio_request_inb_mbox(mp, 0, 8), -EBUSY, "second claim");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(mp, 0, 64), "outbound 0 beside inbound 0");
	TEST_ASSERT_EQUAL(rte_rio_request_outb_mbox(mp, 0, 64), -EBUSY, "second outb claim");
	TEST_ASSERT_EQUAL(mock->open_inb[0], 1, "inbound open op calls");
	TEST_ASSERT_EQUAL(mock->open_outb[0], 1, "outbound open op calls");

	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(mp, 0), "release inbound 0");
	TEST_ASSERT_EQUAL(mock->close_inb[0], 1, "close op called");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_mbox(mp, 0), -ENOENT, "release closed");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_mbox(mp, 1), -ENOENT, "release never opened");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_mbox(mp, RTE_RIO_MAX_MBOX), -EINVAL, "mbox 4");
	TEST_ASSERT_EQUAL(rte_rio_release_outb_mbox(mp, RTE_RIO_MAX_MBOX), -EINVAL, "mbox 4");
	TEST_ASSERT_EQUAL(rte_rio_release_outb_mbox(mp, 2), -ENOENT, "outbound never opened");
	TEST_ASSERT_EQUAL(mock->close_inb[0] + mock->close_inb[1], 1, "close op on closed");
	TEST_ASSERT_SUCCESS(rte_rio_release_outb_mbox(mp, 0), "release outbound 0");
	TEST_ASSERT_EQUAL(mock->close_outb[0], 1, "outbound close op");

	/* A failing open leaves the mailbox closed. */
	mock->open_fail = -ENOMEM;
	TEST_ASSERT_EQUAL(rte_rio_request_inb_mbox(mp, 1, 8), -ENOMEM, "driver error");
	TEST_ASSERT_EQUAL(rte_rio_release_inb_mbox(mp, 1), -ENOENT, "failed open is open");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mp, 1, 8), "open after failure");
	return TEST_SUCCESS;
}

static void
fill_pattern(uint8_t *buf, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 7);
}

static uint8_t tx_buf[RTE_RIO_MAX_MSG_SIZE + 16];
static uint8_t rx_bufs[MOCK_BUF_RING][RTE_RIO_MAX_MSG_SIZE];

static int
test_msg_lengths(void)
{
	struct rte_rio_mport *mp = mock->mport;
	static const size_t bad_len[] = { 0, 7, 4097, 65536 + 8, SIZE_MAX };
	static const size_t good_len[] = { 8, 4096 };
	uint16_t src = 0;
	size_t len = 0;
	unsigned int i;
	uint8_t *rx;

	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(mp, 0, 8), "outbound");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mp, 0, 8), "inbound");
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(mp, 0, rx_bufs[0]), "post buffer");
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffers(mp, 0, (void * const[]){ rx_bufs[1] }, 1), 1,
			  "post buffers");
	fill_pattern(tx_buf, sizeof(tx_buf), 3);

	for (i = 0; i < RTE_DIM(bad_len); i++)
		TEST_ASSERT_EQUAL(rte_rio_add_outb_message(mp, 9, 0, 0, tx_buf, bad_len[i]),
				  -EINVAL, "length %zu", bad_len[i]);
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(mp, 9, 0, RTE_RIO_MAX_LETTER, tx_buf, 8),
			  -EINVAL, "letter 4");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(mp, 9, 1, 0, tx_buf, 8), -EINVAL,
			  "mailbox not open");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(mp, 9, RTE_RIO_MAX_MBOX, 0, tx_buf, 8),
			  -EINVAL, "mailbox 4");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(mp, 9, 0, 0, NULL, 8), -EINVAL, "NULL buf");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(NULL, 9, 0, 0, tx_buf, 8), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mock->add_outb_calls, 0, "op called for an invalid message");

	for (i = 0; i < RTE_DIM(good_len); i++) {
		TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(mp, 9, 0, 3, tx_buf + i,
				    good_len[i]), "length %zu", good_len[i]);
		rx = rte_rio_get_inb_message(mp, 0, &len, &src);
		TEST_ASSERT(rx == rx_bufs[i], "message not in the oldest posted buffer");
		TEST_ASSERT_EQUAL(len, good_len[i], "received length");
		TEST_ASSERT_EQUAL(src, MOCK_DESTID, "source");
		TEST_ASSERT(memcmp(rx, tx_buf + i, len) == 0, "payload of %zu bytes", len);
	}
	TEST_ASSERT_EQUAL(mock->add_outb_calls, 2, "op calls for valid messages");
	TEST_ASSERT_NULL(rte_rio_get_inb_message(mp, 0, &len, NULL), "nothing arrived");
	TEST_ASSERT_EQUAL(rte_rio_outb_completions(mp, 0), 2, "completions");
	TEST_ASSERT_EQUAL(rte_rio_outb_completions(mp, 0), 0, "completions since last");
	TEST_ASSERT_EQUAL(rte_rio_outb_completions(mp, 1), -EINVAL, "completions closed");

	/* Driver errors come through the single-message wrapper. */
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(mp, MOCK_DEAD_DESTID, 0, 0, tx_buf, 8),
			  -ETIMEDOUT, "no response");

	/* Receive side checks. */
	TEST_ASSERT_NULL(rte_rio_get_inb_message(mp, 1, &len, NULL), "closed inbound mailbox");
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffer(mp, 1, rx_bufs[0]), -EINVAL, "closed mbox");
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffer(mp, 0, NULL), -EINVAL, "NULL buffer");
	for (i = 0; i < MOCK_BUF_RING; i++)
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(mp, 0, rx_bufs[i]), "post %u", i);
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffer(mp, 0, rx_bufs[0]), -ENOSPC, "ring full");
	return TEST_SUCCESS;
}

static int
test_msg_burst(void)
{
	struct rte_rio_mport *mp = mock->mport;
	struct rte_rio_msg tx[MOCK_MSG_RING + 2];
	struct rte_rio_msg rx[MOCK_MSG_RING + 2];
	void *bufs[MOCK_BUF_RING];
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(mp, 2, 16), "outbound");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mp, 2, 16), "inbound");
	fill_pattern(tx_buf, sizeof(tx_buf), 11);
	memset(tx, 0, sizeof(tx));
	for (i = 0; i < RTE_DIM(tx); i++) {
		tx[i].buf = tx_buf + i;
		tx[i].len = 8 + 100 * i;
		tx[i].destid = 9;
		tx[i].letter = i % RTE_RIO_MAX_LETTER;
		tx[i].mbox = 0xff;      /* overwritten from the mbox argument */
		tx[i].status = 1;
	}

	/* The burst stops at the invalid message; the valid prefix is one op call. */
	tx[2].len = 7;
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 2, tx, 4), 2, "accepted before invalid");
	TEST_ASSERT_EQUAL(tx[2].status, -EINVAL, "status of the invalid message");
	TEST_ASSERT_EQUAL(tx[0].status, 0, "status of an accepted message");
	TEST_ASSERT_EQUAL(tx[0].mbox, 2, "mbox set from the argument");
	TEST_ASSERT_EQUAL(tx[3].status, 1, "message after the invalid one touched");
	TEST_ASSERT_EQUAL(mock->add_outb_calls, 1, "op calls");
	TEST_ASSERT_EQUAL(mock->add_outb_last_n, 2, "op got the valid prefix only");
	/* Invalid first: nothing reaches the op. */
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 2, &tx[2], 2), 0, "invalid first");
	TEST_ASSERT_EQUAL(mock->add_outb_calls, 1, "op called for an invalid first message");
	tx[2].len = 8 + 200;
	tx[3].letter = RTE_RIO_MAX_LETTER;
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 2, &tx[2], 2), 1, "bad letter stops");
	TEST_ASSERT_EQUAL(tx[3].status, -EINVAL, "bad letter status");
	tx[3].letter = 3;
	tx[3].buf = NULL;
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 2, &tx[3], 1), 0, "NULL buffer");
	TEST_ASSERT_EQUAL(tx[3].status, -EINVAL, "NULL buffer status");
	tx[3].buf = tx_buf + 3;
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 1, tx, 1), 0, "closed mailbox");
	TEST_ASSERT_EQUAL(tx[0].status, -EINVAL, "closed mailbox status");
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 2, tx, 0), 0, "empty burst");

	/* Back-pressure: the mock inbound ring holds MOCK_MSG_RING messages. */
	TEST_ASSERT_EQUAL(rte_rio_send_messages(mp, 2, &tx[3], RTE_DIM(tx) - 3), MOCK_MSG_RING - 3,
			  "accepted up to the full ring");
	TEST_ASSERT_EQUAL(tx[3 + MOCK_MSG_RING - 3].status, -EAGAIN, "back-pressure status");

	/* Receive the burst: exact lengths, in order. */
	for (i = 0; i < MOCK_BUF_RING; i++)
		bufs[i] = rx_bufs[i];
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffers(mp, 2, bufs, MOCK_BUF_RING), MOCK_BUF_RING,
			  "post");
	memset(rx, 0, sizeof(rx));
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(mp, 2, rx, RTE_DIM(rx)), MOCK_MSG_RING,
			  "received");
	for (i = 0; i < MOCK_MSG_RING; i++) {
		TEST_ASSERT_EQUAL(rx[i].len, tx[i].len, "length of message %u", i);
		TEST_ASSERT_EQUAL(rx[i].letter, tx[i].letter, "letter of message %u", i);
		TEST_ASSERT_EQUAL(rx[i].srcid, MOCK_DESTID, "source of message %u", i);
		TEST_ASSERT_EQUAL(rx[i].mbox, 2, "mbox of message %u", i);
		TEST_ASSERT(memcmp(rx[i].buf, tx[i].buf, rx[i].len) == 0, "payload %u", i);
	}
	TEST_ASSERT_EQUAL(rte_rio_outb_completions(mp, 2), MOCK_MSG_RING, "completions");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(mp, 2, rx, 4), 0, "empty");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(mp, 0, rx, 4), 0, "closed inbound mailbox");
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffers(mp, 2, (void * const[]){ NULL }, 1), 0,
			  "NULL buffer posted");
	TEST_ASSERT_EQUAL(mock->bad_calls, 0, "op got an invalid message");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Port-writes                                                            */

static int
test_pw_fetch(void)
{
	struct rte_rio_pw_msg pw[2];
	struct mock_port *m;

	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(mock->mport, pw, 2), -ENOTSUP, "no pw_fetch op");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(NULL, pw, 2), -EINVAL, "NULL mport");

	m = mock_create("rio_core_mock_pw", 0, &mock_ops_full);
	TEST_ASSERT_NOT_NULL(m, "mock with pw_fetch not registered");
	if (rte_rio_pw_fetch(m->mport, pw, 2) != 1 || pw[0].em.comptag != 0x77 ||
	    rte_rio_pw_fetch(m->mport, pw, 0) != 0 || m->pw_calls != 1 ||
	    rte_rio_pw_fetch(m->mport, NULL, 2) != -EINVAL) {
		mock_destroy(m);
		TEST_ASSERT(0, "pw_fetch through the op");
	}
	mock_destroy(m);
	return TEST_SUCCESS;
}

/*
 * A hidden mport leaves the registry (get, find, count) but keeps working,
 * its name is free again, and unregister still frees it.
 */
static int
test_mport_hide(void)
{
	struct mock_port *h, *again;
	uint16_t count0 = rte_rio_mport_count();
	uint32_t v = 0;
	uint16_t id;

	h = mock_create("rio_core_hidden", 0, &mock_ops);
	TEST_ASSERT_NOT_NULL(h, "mock not registered");
	id = mock_mport_id(h->mport);
	TEST_ASSERT_SUCCESS(rte_rio_mport_hide(h->mport), "hide");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), count0, "count without the hidden mport");
	TEST_ASSERT_NULL(rte_rio_mport_find("rio_core_hidden"), "not found by name");
	TEST_ASSERT(rte_rio_mport_get(id) != h->mport, "not found by id");
	TEST_ASSERT_EQUAL(rte_rio_mport_hide(h->mport), -EINVAL, "hidden twice");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(h->mport, RTE_RIO_DEV_ID_CAR, &v),
			    "still usable");
	again = mock_create("rio_core_hidden", 0, &mock_ops);
	TEST_ASSERT_NOT_NULL(again, "the name is free again");
	mock_destroy(again);
	TEST_ASSERT_SUCCESS(rte_rio_mport_unregister(h->mport), "unregister a hidden mport");
	h->mport = NULL;
	mock_destroy(h);
	TEST_ASSERT_EQUAL(rte_rio_mport_hide(NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), count0, "count restored");
	return TEST_SUCCESS;
}

static struct unit_test_suite rio_core_suite = {
	.suite_name = "lib/rio core",
	.unit_test_cases = {
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_registry),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_registry_full),
		TEST_CASE(test_unregister_releases),
		TEST_CASE(test_mport_hide),
		TEST_CASE(test_unregister_devices),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_config_lanes),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_config_errors),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_maint_count),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_config_concurrent),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_block_access),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_efb_walk),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_inb_dbell),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_outb_dbell),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_mbox_claim),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_msg_lengths),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_msg_burst),
		TEST_CASE_ST(rio_core_setup, rio_core_teardown, test_pw_fetch),
		TEST_CASES_END()
	}
};

static int
test_rio_core(void)
{
	return unit_test_suite_runner(&rio_core_suite);
}

REGISTER_TEST_COMMAND(rio_core_autotest, test_rio_core);
