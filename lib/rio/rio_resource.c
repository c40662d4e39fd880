/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Mport resources: inbound and outbound doorbell ranges, mailboxes, and the
 * message, doorbell and port-write wrappers that validate arguments before
 * calling the driver.
 *
 * Resource requests and releases run under mport->lib->res_lock. The message
 * fast paths take no lock: they only read the mailbox state (acquire) and
 * call the driver, one thread per mailbox direction.
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "rio_private.h"

/* Doorbells fetched from the driver per call in rte_rio_dbell_poll(). */
#define RIO_DBELL_BURST		32

void
rio_mport_res_init(struct rte_rio_mport *mport)
{
	rte_spinlock_init(&mport->lib->res_lock);
	TAILQ_INIT(&mport->lib->inb_dbells);
	TAILQ_INIT(&mport->lib->outb_dbells);
	rio_counter_store(&mport->lib->dbell_unclaimed, 0);
}

void
rio_mport_res_release(struct rte_rio_mport *mport)
{
	struct rte_rio_dbell_range *r;
	unsigned int mbox;

	rte_spinlock_lock(&mport->lib->res_lock);
	for (mbox = 0; mbox < RTE_RIO_MAX_MBOX; mbox++) {
		if (mport->lib->inb_mbox_entries[mbox] != 0) {
			rio_mbox_entries_store(&mport->lib->inb_mbox_entries[mbox], 0);
			mport->ops->close_inb_mbox(mport, mbox);
		}
		if (mport->lib->outb_mbox_entries[mbox] != 0) {
			rio_mbox_entries_store(&mport->lib->outb_mbox_entries[mbox], 0);
			mport->ops->close_outb_mbox(mport, mbox);
		}
	}
	while ((r = TAILQ_FIRST(&mport->lib->inb_dbells)) != NULL) {
		TAILQ_REMOVE(&mport->lib->inb_dbells, r, next);
		rte_free(r);
	}
	while ((r = TAILQ_FIRST(&mport->lib->outb_dbells)) != NULL) {
		TAILQ_REMOVE(&mport->lib->outb_dbells, r, next);
		rte_free(r);
	}
	rte_spinlock_unlock(&mport->lib->res_lock);
}

/* ---------------------------------------------------------------------- */
/* Doorbells                                                              */

/*
 * Caller holds res_lock. @return a range of @p list overlapping [start, end]
 * (for outbound lists, only ranges towards @p destid), or NULL.
 */
static struct rte_rio_dbell_range *
rio_dbell_overlap(struct rte_rio_dbell_range_list *list, bool outb, uint16_t destid,
		  uint16_t start, uint16_t end)
{
	struct rte_rio_dbell_range *r;

	TAILQ_FOREACH(r, list, next) {
		if (outb && r->destid != destid)
			continue;
		if (start <= r->end && r->start <= end)
			return r;
	}
	return NULL;
}

/* Caller holds res_lock. @return the range with exactly these bounds, or NULL. */
static struct rte_rio_dbell_range *
rio_dbell_exact(struct rte_rio_dbell_range_list *list, bool outb, uint16_t destid,
		uint16_t start, uint16_t end)
{
	struct rte_rio_dbell_range *r;

	TAILQ_FOREACH(r, list, next) {
		if (outb && r->destid != destid)
			continue;
		if (r->start == start && r->end == end)
			return r;
	}
	return NULL;
}

static int
rio_dbell_request(struct rte_rio_mport *mport, bool outb, uint16_t destid,
		  uint16_t start, uint16_t end, rte_rio_dbell_cb_t cb, void *arg)
{
	struct rte_rio_dbell_range_list *list;
	struct rte_rio_dbell_range *r;
	int ret = 0;

	if (mport == NULL || start > end || (!outb && cb == NULL))
		return -EINVAL;

	r = rte_zmalloc("rio_dbell_range", sizeof(*r), 0);
	if (r == NULL)
		return -ENOMEM;
	r->start = start;
	r->end = end;
	r->destid = destid;
	r->cb = cb;
	r->arg = arg;

	list = outb ? &mport->lib->outb_dbells : &mport->lib->inb_dbells;
	rte_spinlock_lock(&mport->lib->res_lock);
	if (rio_dbell_overlap(list, outb, destid, start, end) != NULL)
		ret = -EBUSY;
	else
		TAILQ_INSERT_TAIL(list, r, next);
	rte_spinlock_unlock(&mport->lib->res_lock);

	if (ret < 0) {
		RIO_LOG(DEBUG, "mport %s: %s doorbell range 0x%04x..0x%04x busy",
			mport->name, outb ? "outbound" : "inbound", start, end);
		rte_free(r);
	}
	return ret;
}

static int
rio_dbell_release(struct rte_rio_mport *mport, bool outb, uint16_t destid,
		  uint16_t start, uint16_t end)
{
	struct rte_rio_dbell_range_list *list;
	struct rte_rio_dbell_range *r;

	if (mport == NULL)
		return -EINVAL;

	list = outb ? &mport->lib->outb_dbells : &mport->lib->inb_dbells;
	rte_spinlock_lock(&mport->lib->res_lock);
	r = rio_dbell_exact(list, outb, destid, start, end);
	if (r != NULL)
		TAILQ_REMOVE(list, r, next);
	rte_spinlock_unlock(&mport->lib->res_lock);

	if (r == NULL)
		return -ENOENT;
	rte_free(r);
	return 0;
}

int
rte_rio_request_inb_dbell(struct rte_rio_mport *mport, uint16_t start, uint16_t end,
			  rte_rio_dbell_cb_t cb, void *arg)
{
	return rio_dbell_request(mport, false, 0, start, end, cb, arg);
}

int
rte_rio_release_inb_dbell(struct rte_rio_mport *mport, uint16_t start, uint16_t end)
{
	return rio_dbell_release(mport, false, 0, start, end);
}

int
rte_rio_request_outb_dbell(struct rte_rio_mport *mport, uint16_t destid,
			   uint16_t start, uint16_t end)
{
	return rio_dbell_request(mport, true, destid, start, end, NULL, NULL);
}

int
rte_rio_release_outb_dbell(struct rte_rio_mport *mport, uint16_t destid,
			   uint16_t start, uint16_t end)
{
	return rio_dbell_release(mport, true, destid, start, end);
}

int
rte_rio_dbell_poll(struct rte_rio_mport *mport, unsigned int max)
{
	struct rte_rio_dbell dbells[RIO_DBELL_BURST];
	struct rte_rio_dbell_range *r;
	rte_rio_dbell_cb_t cb;
	unsigned int total = 0;
	unsigned int want;
	uint64_t unclaimed;
	void *arg;
	int got;
	int i;

	if (mport == NULL)
		return -EINVAL;

	while (total < max) {
		want = RTE_MIN(max - total, (unsigned int)RIO_DBELL_BURST);
		got = mport->ops->dbell_fetch(mport, dbells, want);
		if (got < 0)
			return total > 0 ? (int)total : got;
		if (got == 0)
			break;
		if (unlikely((unsigned int)got > want))
			got = want; /* never trust a count beyond the array */

		unclaimed = 0;
		for (i = 0; i < got; i++) {
			cb = NULL;
			arg = NULL;
			/* Copy the owner out: the handler may claim or release ranges. */
			rte_spinlock_lock(&mport->lib->res_lock);
			TAILQ_FOREACH(r, &mport->lib->inb_dbells, next) {
				if (dbells[i].info >= r->start && dbells[i].info <= r->end) {
					cb = r->cb;
					arg = r->arg;
					break;
				}
			}
			rte_spinlock_unlock(&mport->lib->res_lock);
			if (cb != NULL)
				cb(mport, arg, &dbells[i]);
			else
				unclaimed++;
		}
		if (unclaimed != 0)
			rio_counter_add(&mport->lib->dbell_unclaimed, unclaimed);
		total += got;
		if ((unsigned int)got < want)
			break; /* drained */
	}
	return total;
}

uint64_t
rte_rio_dbell_unclaimed_count(const struct rte_rio_mport *mport)
{
	return mport != NULL ? rio_counter_load(&mport->lib->dbell_unclaimed) : 0;
}

int
rte_rio_send_doorbell(struct rte_rio_mport *mport, uint16_t destid, uint16_t info)
{
	if (mport == NULL)
		return -EINVAL;
	return mport->ops->dsend(mport, destid, info);
}

/* ---------------------------------------------------------------------- */
/* Mailboxes                                                              */

static int
rio_mbox_request(struct rte_rio_mport *mport, bool outb, uint8_t mbox, uint32_t entries)
{
	uint32_t *state;
	int ret;

	if (mport == NULL || mbox >= RTE_RIO_MAX_MBOX || entries < 2 ||
	    entries > RTE_RIO_MAX_MSG_SIZE || !rte_is_power_of_2(entries))
		return -EINVAL;

	state = outb ? &mport->lib->outb_mbox_entries[mbox] : &mport->lib->inb_mbox_entries[mbox];
	rte_spinlock_lock(&mport->lib->res_lock);
	if (*state != 0) {
		ret = -EBUSY;
	} else {
		ret = outb ? mport->ops->open_outb_mbox(mport, mbox, entries) :
			mport->ops->open_inb_mbox(mport, mbox, entries);
		if (ret == 0)
			rio_mbox_entries_store(state, entries);
	}
	rte_spinlock_unlock(&mport->lib->res_lock);
	if (ret < 0)
		RIO_LOG(DEBUG, "mport %s: %s mailbox %u not opened: %s", mport->name,
			outb ? "outbound" : "inbound", mbox, strerror(-ret));
	return ret;
}

static int
rio_mbox_release(struct rte_rio_mport *mport, bool outb, uint8_t mbox)
{
	uint32_t *state;
	int ret = 0;

	if (mport == NULL || mbox >= RTE_RIO_MAX_MBOX)
		return -EINVAL;

	state = outb ? &mport->lib->outb_mbox_entries[mbox] : &mport->lib->inb_mbox_entries[mbox];
	rte_spinlock_lock(&mport->lib->res_lock);
	if (*state == 0) {
		ret = -ENOENT;
	} else {
		rio_mbox_entries_store(state, 0);
		if (outb)
			mport->ops->close_outb_mbox(mport, mbox);
		else
			mport->ops->close_inb_mbox(mport, mbox);
	}
	rte_spinlock_unlock(&mport->lib->res_lock);
	return ret;
}

int
rte_rio_request_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	return rio_mbox_request(mport, false, mbox, entries);
}

int
rte_rio_release_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	return rio_mbox_release(mport, false, mbox);
}

int
rte_rio_request_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries)
{
	return rio_mbox_request(mport, true, mbox, entries);
}

int
rte_rio_release_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox)
{
	return rio_mbox_release(mport, true, mbox);
}

/* Fast-path check: the mport exists and the mailbox is open in that direction. */
static inline bool
rio_mbox_open(const struct rte_rio_mport *mport, bool outb, uint8_t mbox)
{
	if (unlikely(mport == NULL || mbox >= RTE_RIO_MAX_MBOX))
		return false;
	return rio_mbox_entries_load(outb ? &mport->lib->outb_mbox_entries[mbox] :
				     &mport->lib->inb_mbox_entries[mbox]) != 0;
}

static inline bool
rio_msg_valid(const struct rte_rio_msg *msg)
{
	/* One unsigned compare covers both length bounds. */
	return msg->buf != NULL &&
		(uint16_t)(msg->len - RTE_RIO_MIN_MSG_SIZE) <=
		RTE_RIO_MAX_MSG_SIZE - RTE_RIO_MIN_MSG_SIZE &&
		msg->letter < RTE_RIO_MAX_LETTER;
}

uint16_t
rte_rio_send_messages(struct rte_rio_mport *mport, uint8_t mbox,
		      struct rte_rio_msg *msgs, uint16_t n)
{
	uint16_t valid;
	uint16_t sent;

	if (unlikely(msgs == NULL || n == 0))
		return 0;
	if (unlikely(!rio_mbox_open(mport, true, mbox))) {
		msgs[0].status = -EINVAL;
		return 0;
	}

	/* The valid prefix goes to the driver; an invalid message stops the burst. */
	for (valid = 0; valid < n; valid++) {
		msgs[valid].mbox = mbox;
		if (unlikely(!rio_msg_valid(&msgs[valid])))
			break;
		msgs[valid].status = 0;
	}
	if (valid == 0) {
		msgs[0].status = -EINVAL;
		return 0;
	}

	sent = mport->ops->add_outb_messages(mport, mbox, msgs, valid);
	if (sent == valid && valid < n)
		msgs[valid].status = -EINVAL;
	return sent;
}

int
rte_rio_add_outb_message(struct rte_rio_mport *mport, uint16_t destid, uint8_t mbox,
			 uint8_t letter, const void *buf, size_t len)
{
	struct rte_rio_msg msg = {
		.buf = (void *)(uintptr_t)buf,
		.destid = destid,
		.letter = letter,
	};

	/* Check before narrowing to the 16-bit len field. */
	if (len < RTE_RIO_MIN_MSG_SIZE || len > RTE_RIO_MAX_MSG_SIZE)
		return -EINVAL;
	msg.len = (uint16_t)len;
	if (rte_rio_send_messages(mport, mbox, &msg, 1) == 1)
		return 0;
	return msg.status < 0 ? msg.status : -EIO;
}

int64_t
rte_rio_outb_completions(struct rte_rio_mport *mport, uint8_t mbox)
{
	if (unlikely(!rio_mbox_open(mport, true, mbox)))
		return -EINVAL;
	return mport->ops->outb_completion(mport, mbox);
}

int
rte_rio_set_inb_buf_size(struct rte_rio_mport *mport, uint8_t mbox, uint16_t size)
{
	if (!rio_mbox_open(mport, false, mbox) || size < RTE_RIO_MIN_MSG_SIZE ||
	    size > RTE_RIO_MAX_MSG_SIZE)
		return -EINVAL;
	if (mport->ops->set_inb_buf_size == NULL)
		return size == RTE_RIO_MAX_MSG_SIZE ? 0 : -ENOTSUP;
	return mport->ops->set_inb_buf_size(mport, mbox, size);
}

uint16_t
rte_rio_add_inb_buffers(struct rte_rio_mport *mport, uint8_t mbox,
			void * const *bufs, uint16_t n)
{
	uint16_t valid;

	if (unlikely(bufs == NULL || n == 0 || !rio_mbox_open(mport, false, mbox)))
		return 0;
	for (valid = 0; valid < n; valid++)
		if (unlikely(bufs[valid] == NULL))
			break;
	if (valid == 0)
		return 0;
	return mport->ops->add_inb_buffers(mport, mbox, bufs, valid);
}

int
rte_rio_add_inb_buffer(struct rte_rio_mport *mport, uint8_t mbox, void *buf)
{
	if (unlikely(buf == NULL || !rio_mbox_open(mport, false, mbox)))
		return -EINVAL;
	return mport->ops->add_inb_buffers(mport, mbox, &buf, 1) == 1 ? 0 : -ENOSPC;
}

uint16_t
rte_rio_recv_messages(struct rte_rio_mport *mport, uint8_t mbox,
		      struct rte_rio_msg *msgs, uint16_t n)
{
	if (unlikely(msgs == NULL || n == 0 || !rio_mbox_open(mport, false, mbox)))
		return 0;
	return mport->ops->get_inb_messages(mport, mbox, msgs, n);
}

uint16_t
rte_rio_recv_messages_inplace(struct rte_rio_mport *mport, uint8_t mbox,
			      struct rte_rio_msg *msgs, struct rte_mbuf_ext_shared_info **shinfo,
			      uint16_t n)
{
	if (unlikely(msgs == NULL || shinfo == NULL || n == 0 ||
		     !rio_mbox_open(mport, false, mbox) || mport->inb_inplace_max == 0))
		return 0;
	return mport->ops->get_inb_messages_inplace(mport, mbox, msgs, shinfo, n);
}

void *
rte_rio_get_inb_message(struct rte_rio_mport *mport, uint8_t mbox, size_t *len,
			uint16_t *src)
{
	struct rte_rio_msg msg = { .buf = NULL };

	if (unlikely(len == NULL))
		return NULL;
	if (rte_rio_recv_messages(mport, mbox, &msg, 1) != 1)
		return NULL;
	*len = msg.len;
	if (src != NULL)
		*src = msg.srcid;
	return msg.buf;
}

/* ---------------------------------------------------------------------- */
/* Port-writes                                                            */

int
rte_rio_pw_fetch(struct rte_rio_mport *mport, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	if (mport == NULL || (msgs == NULL && n != 0))
		return -EINVAL;
	if (mport->ops->pw_fetch == NULL)
		return -ENOTSUP;
	if (n == 0)
		return 0;
	return mport->ops->pw_fetch(mport, msgs, n);
}
