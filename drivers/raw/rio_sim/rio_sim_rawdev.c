/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim rawdev PMD: one vdev claims one endpoint of an emulated fabric and
 * registers it with lib/rio as an mport. This is the only file of the driver
 * that knows about rawdev and vdev; rio_sim_devargs.c parses its devargs.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bus_vdev_driver.h>
#include <rte_alarm.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_eal.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_rawdev.h>
#include <rte_rawdev_pmd.h>
#include <rte_ring.h>
#include <rte_string_fns.h>

#include "rio_driver.h"
#include "rte_rio_dev.h"
#include "rio_sim_devargs.h"
#include "rio_sim_fabric.h"
#include "rte_pmd_rio_sim.h"

#define RIO_SIM_DBELL_RING_SIZE	1024	/* raw doorbells waiting for dequeue */
#define RIO_SIM_RX_POST_MAX	64	/* receive buffers posted per raw mailbox */
#define RIO_SIM_BURST		32
/* Memzone by which secondary processes find what the primary shares of a device. */
/* Memzone of a device for secondary processes: CRC32C of the device name. */
#define RIO_SIM_MZ_FMT		"rio_sim_mp_%08x"

/*
 * Shared with secondary processes, at the start of the memzone; the
 * endpoint's shared receive state (sim_ep_share()) follows at
 * RIO_SIM_MP_EP_OFF.
 */
struct rio_sim_mp_info {
	int32_t host_destid;
	uint32_t rsvd;
	char name[RTE_RAWDEV_NAME_MAX_LEN];	/* the device's: two names, one CRC */
};
#define RIO_SIM_MP_EP_OFF	(2 * RTE_CACHE_LINE_SIZE)

/* Raw data path counters, per mailbox (single writer: the data path thread). */
struct rio_sim_mbox_stats {
	uint64_t tx_msgs;
	uint64_t tx_bytes;
	uint64_t tx_errors;
	uint64_t rx_msgs;
	uint64_t rx_bytes;
};

struct rio_sim_raw_mbox {
	void *pool;		/* RIO_SIM_RX_POST_MAX buffers of RTE_RIO_MAX_MSG_SIZE */
	unsigned int posted;
};

/* Device private data (dev_private of the rawdev). */
struct rio_sim_rawdev {
	struct rte_rawdev *rawdev;
	struct sim_fabric *fabric;
	struct sim_ep *ep;
	struct rte_rio_mport *mport;
	uint32_t ep_index;
	uint32_t dev_index;
	int32_t host_destid;
	bool secondary;			/* a secondary's view of the primary's endpoint */
	const struct rte_memzone *mz;	/* primary: what secondaries attach to, or NULL */

	struct rte_pmd_rio_sim_conf conf;
	uint32_t mbox_entries;		/* attribute: raw mailbox ring size at next start */
	bool started;
	uint8_t open_mask;		/* raw mailboxes opened by start */
	bool dbell_claimed;
	struct rte_ring *dbell_ring;	/* doorbells of the raw range, for dequeue */
	uint8_t next_mbox;		/* dequeue round robin */
	struct rio_sim_raw_mbox raw_mbox[RTE_RIO_MAX_MBOX];

	struct rio_sim_mbox_stats mbox_stats[RTE_RIO_MAX_MBOX];
	uint64_t raw_dbell_tx;
	uint64_t raw_dbell_tx_errors;
	uint64_t raw_dbell_rx;
	uint64_t raw_dbell_dropped;	/* written by the poller in the doorbell callback */
	uint64_t *xstats_base;		/* reset snapshots, one per xstat */

	/* An agent waiting for a host (rio_sim_disc_alarm()). */
	uint32_t disc_timeout_ms;
	uint64_t disc_start;		/* timer cycles */
	unsigned int disc_notes;	/* "still waiting" notes given */
};

static const struct rte_rawdev_ops rio_sim_rawdev_ops;

/* ------------------------------------------------------------------ */
/* Small helpers                                                      */

/* Relaxed 64-bit counter read: counters in shared memory are updated by
 * other processes with relaxed atomic adds; no ordering is implied.
 */
static inline uint64_t
rio_sim_counter_read(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * Is endpoint @ep_index owned by a live process (this one included)? Pairs
 * with the claim's release store of the owner token in sim_ep_claim().
 */
static inline bool
rio_sim_ep_owned(const struct sim_fabric *f, uint32_t ep_index)
{
	return sim_token_alive(f, __atomic_load_n(&f->eps[ep_index].owner, __ATOMIC_ACQUIRE));
}

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
	return sim_ep_lcread(rio_sim_mport_ep(mport), offset, len, data);
}

static int
rio_sim_lcwrite(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t data)
{
	return sim_ep_lcwrite(rio_sim_mport_ep(mport), offset, len, data);
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
	.set_inb_buf_size = rio_sim_set_inb_buf_size

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
static const struct rte_rio_mport_ops *
rio_sim_ops_of(const struct sim_fabric *f, uint32_t dev_index)
{
	return sim_model_get(f->devs[dev_index].model)->mport_4byte_only ?
		&rio_sim_tsi721_mport_ops : &rio_sim_mport_ops;
}

/* ------------------------------------------------------------------ */
/* Rawdev: info, configure, start/stop                                */

static struct rio_sim_rawdev *
rio_sim_priv(const struct rte_rawdev *dev)
{
	return dev->dev_private;
}

static bool
rio_sim_link_up(const struct rio_sim_rawdev *sd)
{
	const struct sim_shm_device *d = &sd->fabric->devs[sd->dev_index];

	return __atomic_load_n(&d->ports[0].link_up, __ATOMIC_RELAXED) != 0;
}

static int
rio_sim_dev_info_get(struct rte_rawdev *dev, rte_rawdev_obj_t dev_info,
		     size_t dev_private_size)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	struct rte_pmd_rio_sim_info *info = dev_info;
	const struct sim_shm_device *d;
	int destid;

	if (info == NULL || dev_private_size != sizeof(*info))
		return -EINVAL;
	d = &sd->fabric->devs[sd->dev_index];
	memset(info, 0, sizeof(*info));
	strlcpy(info->mport_name, dev->name, sizeof(info->mport_name));
	strlcpy(info->fabric, sd->fabric->name, sizeof(info->fabric));
	memcpy(info->endpoint, d->name, sizeof(info->endpoint) - 1);
	info->endpoint[sizeof(info->endpoint) - 1] = '\0';
	info->ep_index = sd->ep_index;
	info->dev_index = sd->dev_index;
	destid = rte_rio_mport_destid(sd->mport);
	info->destid = destid < 0 ? RTE_RIO_ANY_DESTID(sd->fabric->devid_size) : destid;
	info->host_destid = sd->host_destid;
	info->devid_size = sd->fabric->devid_size;
	info->link_up = rio_sim_link_up(sd);
	info->n_devices = sd->fabric->n_devices;
	info->n_endpoints = sd->fabric->n_endpoints;
	info->mbox_entries = sd->fabric->mbox_entries;
	info->raw_mbox_mask = sd->conf.mbox_mask;
	return 0;
}

static bool
rio_sim_entries_valid(uint32_t entries)
{
	return entries >= 2 && entries <= SIM_MBOX_ENTRIES_MAX && rte_is_power_of_2(entries);
}

static int
rio_sim_dev_configure(const struct rte_rawdev *dev, rte_rawdev_obj_t config,
		      size_t config_size)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	const struct rte_pmd_rio_sim_conf *conf = config;

	if (sd->secondary) {
		SIM_LOG(ERR, "%s: raw mailboxes and doorbells belong to the primary process",
			dev->name);
		return -ENOTSUP;
	}
	if (conf == NULL || config_size != sizeof(*conf)) {
		SIM_LOG(ERR, "%s: configure needs a struct rte_pmd_rio_sim_conf", dev->name);
		return -EINVAL;
	}
	if (conf->mbox_mask >= (1u << RTE_RIO_MAX_MBOX)) {
		SIM_LOG(ERR, "%s: mbox_mask 0x%x: mailboxes are 0..%u", dev->name,
			conf->mbox_mask, RTE_RIO_MAX_MBOX - 1);
		return -EINVAL;
	}
	if (conf->mbox_entries != 0 && !rio_sim_entries_valid(conf->mbox_entries)) {
		SIM_LOG(ERR, "%s: mbox_entries %u: power of two in 2..%u", dev->name,
			conf->mbox_entries, SIM_MBOX_ENTRIES_MAX);
		return -EINVAL;
	}
	if (conf->dbell_enable && conf->dbell_start > conf->dbell_end) {
		SIM_LOG(ERR, "%s: doorbell range 0x%x..0x%x is empty", dev->name,
			conf->dbell_start, conf->dbell_end);
		return -EINVAL;
	}
	sd->conf = *conf;
	if (conf->mbox_entries != 0)
		sd->mbox_entries = conf->mbox_entries;
	return 0;
}

/* Doorbell callback: runs in whichever thread polls the mport. */
static void
rio_sim_raw_dbell_cb(struct rte_rio_mport *mport __rte_unused, void *arg,
		     const struct rte_rio_dbell *db)
{
	struct rio_sim_rawdev *sd = arg;
	uint64_t v = (uint64_t)db->src | ((uint64_t)db->dst << 16) | ((uint64_t)db->info << 32);

	if (rte_ring_enqueue_elem(sd->dbell_ring, &v, sizeof(v)) != 0)
		__atomic_fetch_add(&sd->raw_dbell_dropped, 1, __ATOMIC_RELAXED);
}

static void
rio_sim_raw_close(struct rio_sim_rawdev *sd)
{
	unsigned int m;

	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		if (!(sd->open_mask & (1u << m)))
			continue;
		rte_rio_release_inb_mbox(sd->mport, m);
		rte_rio_release_outb_mbox(sd->mport, m);
		rte_free(sd->raw_mbox[m].pool);
		sd->raw_mbox[m].pool = NULL;
		sd->raw_mbox[m].posted = 0;
	}
	sd->open_mask = 0;
	if (sd->dbell_claimed)
		rte_rio_release_inb_dbell(sd->mport, sd->conf.dbell_start, sd->conf.dbell_end);
	sd->dbell_claimed = false;
	rte_ring_free(sd->dbell_ring);
	sd->dbell_ring = NULL;
}

static int
rio_sim_raw_open_mbox(struct rio_sim_rawdev *sd, uint8_t m)
{
	struct rio_sim_raw_mbox *rm = &sd->raw_mbox[m];
	void *bufs[RIO_SIM_RX_POST_MAX];
	unsigned int i, n;
	int ret;

	ret = rte_rio_request_inb_mbox(sd->mport, m, sd->mbox_entries);
	if (ret < 0) {
		SIM_LOG(ERR, "%s: cannot open inbound mailbox %u: %s", sd->rawdev->name, m,
			strerror(-ret));
		return ret;
	}
	ret = rte_rio_request_outb_mbox(sd->mport, m, sd->mbox_entries);
	if (ret < 0) {
		SIM_LOG(ERR, "%s: cannot open outbound mailbox %u: %s", sd->rawdev->name, m,
			strerror(-ret));
		rte_rio_release_inb_mbox(sd->mport, m);
		return ret;
	}
	sd->open_mask |= 1u << m;	/* rio_sim_raw_close() undoes from here */
	n = RTE_MIN(sd->mbox_entries, (uint32_t)RIO_SIM_RX_POST_MAX);
	rm->pool = rte_zmalloc_socket("rio_sim_rx", (size_t)n * RTE_RIO_MAX_MSG_SIZE,
				      RTE_CACHE_LINE_SIZE, sd->rawdev->socket_id);
	if (rm->pool == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		bufs[i] = RTE_PTR_ADD(rm->pool, (size_t)i * RTE_RIO_MAX_MSG_SIZE);
	rm->posted = rte_rio_add_inb_buffers(sd->mport, m, bufs, n);
	if (rm->posted == 0) {
		SIM_LOG(ERR, "%s: cannot post receive buffers on mailbox %u",
			sd->rawdev->name, m);
		return -ENOSPC;
	}
	return 0;
}

static int
rio_sim_dev_start(struct rte_rawdev *dev)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	char rname[RTE_RING_NAMESIZE];
	unsigned int m;
	int ret = 0;

	if (sd->secondary) {
		SIM_LOG(ERR, "%s: raw mailboxes and doorbells belong to the primary process",
			dev->name);
		return -ENOTSUP;
	}
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		if (!(sd->conf.mbox_mask & (1u << m)))
			continue;
		ret = rio_sim_raw_open_mbox(sd, m);
		if (ret < 0)
			goto fail;
	}
	if (sd->conf.dbell_enable) {
		snprintf(rname, sizeof(rname), "rio_sim_db%u", dev->dev_id);
		sd->dbell_ring = rte_ring_create_elem(rname, sizeof(uint64_t),
						      RIO_SIM_DBELL_RING_SIZE, dev->socket_id, 0);
		if (sd->dbell_ring == NULL) {
			ret = -rte_errno;
			SIM_LOG(ERR, "%s: cannot create doorbell ring: %s", dev->name,
				rte_strerror(rte_errno));
			goto fail;
		}
		ret = rte_rio_request_inb_dbell(sd->mport, sd->conf.dbell_start,
						sd->conf.dbell_end, rio_sim_raw_dbell_cb, sd);
		if (ret < 0) {
			SIM_LOG(ERR, "%s: cannot claim doorbells 0x%x..0x%x: %s", dev->name,
				sd->conf.dbell_start, sd->conf.dbell_end, strerror(-ret));
			goto fail;
		}
		sd->dbell_claimed = true;
	}
	sd->next_mbox = 0;
	sd->started = true;
	return 0;
fail:
	rio_sim_raw_close(sd);
	return ret;
}

static void
rio_sim_dev_stop(struct rte_rawdev *dev)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);

	sd->started = false;
	rio_sim_raw_close(sd);
}

static int
rio_sim_dev_close(struct rte_rawdev *dev)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);

	sd->started = false;
	rio_sim_raw_close(sd);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Raw operations                                                     */

static int
rio_sim_raw_send_msg(struct rio_sim_rawdev *sd, struct rte_pmd_rio_sim_op *op)
{
	struct rio_sim_mbox_stats *st;
	struct rte_rio_msg msg;
	int ret;

	if (op->mbox >= RTE_RIO_MAX_MBOX || !(sd->open_mask & (1u << op->mbox)))
		return -ENOTCONN;
	st = &sd->mbox_stats[op->mbox];
	if (op->data == NULL) {
		st->tx_errors++;
		return -EINVAL;
	}
	memset(&msg, 0, sizeof(msg));
	msg.buf = op->data;
	msg.len = op->len;
	msg.destid = op->destid;
	msg.mbox = op->mbox;
	msg.letter = op->letter;
	if (rte_rio_send_messages(sd->mport, op->mbox, &msg, 1) == 1) {
		ret = 0;
		st->tx_msgs++;
		st->tx_bytes += op->len;
	} else {
		ret = msg.status != 0 ? msg.status : -EIO;
		st->tx_errors++;
	}
	/* The emulator completes at once; collect so nothing stays pending. */
	rte_rio_outb_completions(sd->mport, op->mbox);
	return ret;
}

static int
rio_sim_enqueue_bufs(struct rte_rawdev *dev, struct rte_rawdev_buf **buffers,
		     unsigned int count, rte_rawdev_obj_t context __rte_unused)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	unsigned int i;
	int ret;

	if (buffers == NULL && count != 0)
		return -EINVAL;
	if (!sd->started)
		return -ENOTCONN;
	for (i = 0; i < count; i++) {
		struct rte_pmd_rio_sim_op *op;

		if (buffers[i] == NULL || buffers[i]->buf_addr == NULL)
			return i > 0 ? (int)i : -EINVAL;
		op = buffers[i]->buf_addr;
		switch (op->type) {
		case RTE_PMD_RIO_SIM_OP_MSG:
			ret = rio_sim_raw_send_msg(sd, op);
			break;
		case RTE_PMD_RIO_SIM_OP_DBELL:
			ret = rte_rio_send_doorbell(sd->mport, op->destid, op->info);
			if (ret == 0)
				sd->raw_dbell_tx++;
			else
				sd->raw_dbell_tx_errors++;
			break;
		default:
			ret = -EINVAL;
			break;
		}
		op->status = (int16_t)ret;
		/* Back-pressure: the caller enqueues this op and the rest again. */
		if (ret == -EAGAIN)
			return (int)i;
	}
	return (int)count;
}

static unsigned int
rio_sim_deq_dbells(struct rio_sim_rawdev *sd, struct rte_rawdev_buf **buffers,
		   unsigned int count)
{
	unsigned int n = 0;
	uint64_t v;

	if (!sd->dbell_claimed)
		return 0;
	/* Doorbells of other ranges are delivered to their owners' callbacks. */
	rte_rio_dbell_poll(sd->mport, count);
	while (n < count && rte_ring_dequeue_elem(sd->dbell_ring, &v, sizeof(v)) == 0) {
		struct rte_pmd_rio_sim_op *op = buffers[n]->buf_addr;

		memset(op, 0, offsetof(struct rte_pmd_rio_sim_op, data));
		op->type = RTE_PMD_RIO_SIM_OP_DBELL;
		op->srcid = (uint16_t)v;
		op->destid = (uint16_t)(v >> 16);
		op->info = (uint16_t)(v >> 32);
		n++;
	}
	sd->raw_dbell_rx += n;
	return n;
}

static unsigned int
rio_sim_deq_msgs(struct rio_sim_rawdev *sd, uint8_t m, struct rte_rawdev_buf **buffers,
		 unsigned int count)
{
	struct rio_sim_mbox_stats *st = &sd->mbox_stats[m];
	struct rte_rio_msg msgs[RIO_SIM_BURST];
	unsigned int want, n = 0;
	uint16_t got, i;

	while (n < count) {
		/* Only take as many as there are application buffers to copy into. */
		for (want = 0; want < RTE_MIN(count - n, (unsigned int)RIO_SIM_BURST); want++) {
			const struct rte_pmd_rio_sim_op *op = buffers[n + want]->buf_addr;

			if (op->data == NULL)
				break;
		}
		if (want == 0)
			break;
		got = rte_rio_recv_messages(sd->mport, m, msgs, want);
		for (i = 0; i < got; i++) {
			struct rte_pmd_rio_sim_op *op = buffers[n + i]->buf_addr;
			void *data = op->data;
			uint16_t len = RTE_MIN(msgs[i].len, (uint16_t)RTE_RIO_MAX_MSG_SIZE);

			memcpy(data, msgs[i].buf, len);
			memset(op, 0, sizeof(*op));
			op->type = RTE_PMD_RIO_SIM_OP_MSG;
			op->mbox = m;
			op->letter = msgs[i].letter;
			op->destid = msgs[i].destid;
			op->srcid = msgs[i].srcid;
			op->len = len;
			op->data = data;
			st->rx_msgs++;
			st->rx_bytes += len;
			/* Give the buffer back to the mailbox. */
			if (rte_rio_add_inb_buffer(sd->mport, m, msgs[i].buf) != 0)
				sd->raw_mbox[m].posted--;
		}
		n += got;
		if (got < want)
			break;
	}
	return n;
}

static int
rio_sim_dequeue_bufs(struct rte_rawdev *dev, struct rte_rawdev_buf **buffers,
		     unsigned int count, rte_rawdev_obj_t context __rte_unused)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	unsigned int i, n;

	if (buffers == NULL && count != 0)
		return -EINVAL;
	if (!sd->started)
		return -ENOTCONN;
	for (i = 0; i < count; i++)
		if (buffers[i] == NULL || buffers[i]->buf_addr == NULL)
			return -EINVAL;

	n = rio_sim_deq_dbells(sd, buffers, count);
	/* Round robin over the raw mailboxes so none starves. */
	for (i = 0; i < RTE_RIO_MAX_MBOX && n < count; i++) {
		uint8_t m = (sd->next_mbox + i) % RTE_RIO_MAX_MBOX;

		if (sd->open_mask & (1u << m))
			n += rio_sim_deq_msgs(sd, m, buffers + n, count - n);
	}
	sd->next_mbox = (sd->next_mbox + 1) % RTE_RIO_MAX_MBOX;
	return (int)n;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                         */

static int
rio_sim_attr_get(struct rte_rawdev *dev, const char *attr_name, uint64_t *attr_value)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	int ret;

	if (attr_name == NULL || attr_value == NULL)
		return -EINVAL;
	if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DESTID) == 0) {
		ret = rte_rio_mport_destid(sd->mport);
		if (ret < 0)
			return ret;
		*attr_value = (uint64_t)ret;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_HOST_DESTID) == 0) {
		*attr_value = (uint64_t)(int64_t)sd->host_destid;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DEVID_SIZE) == 0) {
		*attr_value = sd->fabric->devid_size;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_LINK) == 0) {
		*attr_value = rio_sim_link_up(sd);
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_MAINT_COUNT) == 0) {
		*attr_value = rte_rio_mport_maint_count(sd->mport);
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES) == 0) {
		*attr_value = sd->mbox_entries;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_EP_INDEX) == 0) {
		*attr_value = sd->ep_index;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DEV_INDEX) == 0) {
		*attr_value = sd->dev_index;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DBELL_UNCLAIMED) == 0) {
		*attr_value = rte_rio_dbell_unclaimed_count(sd->mport);
	} else {
		return -ENOENT;
	}
	return 0;
}

static int
rio_sim_attr_set(struct rte_rawdev *dev, const char *attr_name, const uint64_t attr_value)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	uint32_t did;

	if (attr_name == NULL)
		return -EINVAL;
	if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DESTID) == 0) {
		if (attr_value >= RTE_RIO_ANY_DESTID(sd->fabric->devid_size))
			return -ERANGE;
		did = sd->fabric->devid_size == 16 ? (uint32_t)attr_value :
			(uint32_t)attr_value << 16;
		return rte_rio_local_write_config_32(sd->mport, RTE_RIO_DID_CSR, did);
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_LINK) == 0) {
		if (attr_value > 1)
			return -EINVAL;
		return sim_fabric_link_set(sd->fabric, sd->dev_index, 0, attr_value != 0);
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_MAINT_COUNT) == 0) {
		if (attr_value != 0)
			return -EINVAL;
		rte_rio_mport_maint_count_reset(sd->mport);
		return 0;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES) == 0) {
		if (attr_value > UINT32_MAX || !rio_sim_entries_valid((uint32_t)attr_value))
			return -EINVAL;
		sd->mbox_entries = (uint32_t)attr_value;
		return 0;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_HOST_DESTID) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DEVID_SIZE) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_EP_INDEX) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DEV_INDEX) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DBELL_UNCLAIMED) == 0) {
		return -EPERM;	/* read-only */
	}
	return -ENOENT;
}

/* ------------------------------------------------------------------ */
/* Extended statistics                                                */

/* An xstat: its name and the offset of its counter in the structure of its table. */
struct rio_sim_xstat {
	const char *name;
	size_t off;
};

static const struct rio_sim_xstat rio_sim_ep_xstats[] = {
	{ "msg_tx", offsetof(struct sim_ep_stats, msg_tx) },
	{ "msg_tx_retry", offsetof(struct sim_ep_stats, msg_tx_retry) },
	{ "msg_tx_error", offsetof(struct sim_ep_stats, msg_tx_error) },
	{ "msg_tx_bytes", offsetof(struct sim_ep_stats, msg_tx_bytes) },
	{ "msg_tx_segs", offsetof(struct sim_ep_stats, msg_tx_segs) },
	{ "msg_tx_busy", offsetof(struct sim_ep_stats, msg_tx_busy) },
	{ "msg_rx", offsetof(struct sim_ep_stats, msg_rx) },
	{ "msg_rx_bytes", offsetof(struct sim_ep_stats, msg_rx_bytes) },
	{ "msg_rx_bad", offsetof(struct sim_ep_stats, msg_rx_bad) },
	{ "msg_rx_bad_index", offsetof(struct sim_ep_stats, msg_rx_bad_index) },
	{ "msg_rx_too_long", offsetof(struct sim_ep_stats, msg_rx_too_long) },
	{ "msg_rx_held_dead", offsetof(struct sim_ep_stats, msg_rx_held_dead) },
	{ "msg_rx_wait_sender", offsetof(struct sim_ep_stats, msg_rx_wait_sender) },
	{ "dbell_tx", offsetof(struct sim_ep_stats, dbell_tx) },
	{ "dbell_tx_retry", offsetof(struct sim_ep_stats, dbell_tx_retry) },
	{ "dbell_tx_error", offsetof(struct sim_ep_stats, dbell_tx_error) },
	{ "dbell_rx", offsetof(struct sim_ep_stats, dbell_rx) },
	{ "dbell_rx_bad", offsetof(struct sim_ep_stats, dbell_rx_bad) },
	{ "maint_tx", offsetof(struct sim_ep_stats, maint_tx) },
	{ "maint_error", offsetof(struct sim_ep_stats, maint_error) },
	{ "pw_rx", offsetof(struct sim_ep_stats, pw_rx) },
	{ "pw_rx_bad", offsetof(struct sim_ep_stats, pw_rx_bad) },
};

static const struct rio_sim_xstat rio_sim_port_xstats[] = {
	{ "port0_tx_pkts", offsetof(struct sim_shm_port, tx_pkts) },
	{ "port0_rx_pkts", offsetof(struct sim_shm_port, rx_pkts) },
	{ "port0_drops", offsetof(struct sim_shm_port, drops) },
};

static const struct rio_sim_xstat rio_sim_mbox_xstats[] = {
	{ "raw_tx_msgs", offsetof(struct rio_sim_mbox_stats, tx_msgs) },
	{ "raw_tx_bytes", offsetof(struct rio_sim_mbox_stats, tx_bytes) },
	{ "raw_tx_errors", offsetof(struct rio_sim_mbox_stats, tx_errors) },
	{ "raw_rx_msgs", offsetof(struct rio_sim_mbox_stats, rx_msgs) },
	{ "raw_rx_bytes", offsetof(struct rio_sim_mbox_stats, rx_bytes) },
};

static const struct rio_sim_xstat rio_sim_raw_xstats[] = {
	{ "raw_dbell_tx", offsetof(struct rio_sim_rawdev, raw_dbell_tx) },
	{ "raw_dbell_tx_errors", offsetof(struct rio_sim_rawdev, raw_dbell_tx_errors) },
	{ "raw_dbell_rx", offsetof(struct rio_sim_rawdev, raw_dbell_rx) },
	{ "raw_dbell_dropped", offsetof(struct rio_sim_rawdev, raw_dbell_dropped) },
};

#define RIO_SIM_XS_EP		0u
#define RIO_SIM_XS_PORT		(RIO_SIM_XS_EP + RTE_DIM(rio_sim_ep_xstats))
#define RIO_SIM_XS_MBOX		(RIO_SIM_XS_PORT + RTE_DIM(rio_sim_port_xstats))
#define RIO_SIM_XS_RAW		(RIO_SIM_XS_MBOX + \
				 RTE_RIO_MAX_MBOX * RTE_DIM(rio_sim_mbox_xstats))
#define RIO_SIM_XS_NUM		(RIO_SIM_XS_RAW + RTE_DIM(rio_sim_raw_xstats))

static void
rio_sim_xstat_name(unsigned int id, char *buf, size_t len)
{
	unsigned int m, k;

	if (id < RIO_SIM_XS_PORT) {
		strlcpy(buf, rio_sim_ep_xstats[id - RIO_SIM_XS_EP].name, len);
	} else if (id < RIO_SIM_XS_MBOX) {
		strlcpy(buf, rio_sim_port_xstats[id - RIO_SIM_XS_PORT].name, len);
	} else if (id < RIO_SIM_XS_RAW) {
		m = (id - RIO_SIM_XS_MBOX) / RTE_DIM(rio_sim_mbox_xstats);
		k = (id - RIO_SIM_XS_MBOX) % RTE_DIM(rio_sim_mbox_xstats);
		snprintf(buf, len, "mbox%u_%s", m, rio_sim_mbox_xstats[k].name);
	} else {
		strlcpy(buf, rio_sim_raw_xstats[id - RIO_SIM_XS_RAW].name, len);
	}
}

/* Value of an xstat before the reset baseline is subtracted. */
static uint64_t
rio_sim_xstat_raw(const struct rio_sim_rawdev *sd, const struct sim_ep_stats *st,
		  unsigned int id)
{
	const struct sim_shm_port *port = &sd->fabric->devs[sd->dev_index].ports[0];
	unsigned int m, k;

	if (id < RIO_SIM_XS_PORT)
		return *(const uint64_t *)RTE_PTR_ADD(st, rio_sim_ep_xstats[id].off);
	if (id < RIO_SIM_XS_MBOX) {
		/* Packet counters of port 0 include the endpoint's message lanes. */
		if (rio_sim_port_xstats[id - RIO_SIM_XS_PORT].off ==
		    offsetof(struct sim_shm_port, tx_pkts))
			return sim_port_pkts(sd->fabric, sd->dev_index, 0, true);
		if (rio_sim_port_xstats[id - RIO_SIM_XS_PORT].off ==
		    offsetof(struct sim_shm_port, rx_pkts))
			return sim_port_pkts(sd->fabric, sd->dev_index, 0, false);
		return rio_sim_counter_read(RTE_PTR_ADD(port,
				rio_sim_port_xstats[id - RIO_SIM_XS_PORT].off));
	}
	if (id < RIO_SIM_XS_RAW) {
		m = (id - RIO_SIM_XS_MBOX) / RTE_DIM(rio_sim_mbox_xstats);
		k = (id - RIO_SIM_XS_MBOX) % RTE_DIM(rio_sim_mbox_xstats);
		return *(const uint64_t *)RTE_PTR_ADD(&sd->mbox_stats[m],
						      rio_sim_mbox_xstats[k].off);
	}
	return rio_sim_counter_read(RTE_PTR_ADD(sd, rio_sim_raw_xstats[id - RIO_SIM_XS_RAW].off));
}

static int
rio_sim_xstats_get_names(const struct rte_rawdev *dev,
			 struct rte_rawdev_xstats_name *xstats_names, unsigned int size)
{
	unsigned int i;

	RTE_SET_USED(dev);
	if (xstats_names == NULL || size < RIO_SIM_XS_NUM)
		return RIO_SIM_XS_NUM;
	for (i = 0; i < RIO_SIM_XS_NUM; i++)
		rio_sim_xstat_name(i, xstats_names[i].name, sizeof(xstats_names[i].name));
	return RIO_SIM_XS_NUM;
}

static int
rio_sim_xstats_get(const struct rte_rawdev *dev, const unsigned int ids[],
		   uint64_t values[], unsigned int n)
{
	const struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	struct sim_ep_stats st;
	unsigned int i;

	if (ids == NULL || values == NULL)
		return -EINVAL;
	sim_ep_stats_get(sd->ep, &st);
	for (i = 0; i < n; i++) {
		if (ids[i] >= RIO_SIM_XS_NUM)
			return (int)i;
		values[i] = rio_sim_xstat_raw(sd, &st, ids[i]) - sd->xstats_base[ids[i]];
	}
	return (int)n;
}

static uint64_t
rio_sim_xstats_get_by_name(const struct rte_rawdev *dev, const char *name, unsigned int *id)
{
	const struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	char buf[RTE_RAW_DEV_XSTATS_NAME_SIZE];
	struct sim_ep_stats st;
	unsigned int i;

	if (name == NULL)
		return 0;
	for (i = 0; i < RIO_SIM_XS_NUM; i++) {
		rio_sim_xstat_name(i, buf, sizeof(buf));
		if (strcmp(buf, name) == 0) {
			*id = i;
			sim_ep_stats_get(sd->ep, &st);
			return rio_sim_xstat_raw(sd, &st, i) - sd->xstats_base[i];
		}
	}
	*id = (unsigned int)-1;
	return 0;
}

static int
rio_sim_xstats_reset(struct rte_rawdev *dev, const uint32_t ids[], uint32_t nb_ids)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	struct sim_ep_stats st;
	uint32_t i;

	/* Counters are shared with other users of the endpoint: keep a baseline. */
	sim_ep_stats_get(sd->ep, &st);
	if (ids == NULL) {
		for (i = 0; i < RIO_SIM_XS_NUM; i++)
			sd->xstats_base[i] = rio_sim_xstat_raw(sd, &st, i);
		return 0;
	}
	for (i = 0; i < nb_ids; i++)
		if (ids[i] >= RIO_SIM_XS_NUM)
			return -EINVAL;
	for (i = 0; i < nb_ids; i++)
		sd->xstats_base[ids[i]] = rio_sim_xstat_raw(sd, &st, ids[i]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Dump                                                               */

static int
rio_sim_dump(struct rte_rawdev *dev, FILE *f)
{
	struct rio_sim_rawdev *sd = rio_sim_priv(dev);
	const struct sim_shm_device *d = &sd->fabric->devs[sd->dev_index];
	const struct sim_shm_port *port = &d->ports[0];
	char name[RTE_RAW_DEV_XSTATS_NAME_SIZE];
	struct sim_ep_stats st;
	int32_t peer;
	unsigned int i;
	int destid;

	if (f == NULL)
		return -EINVAL;
	destid = rte_rio_mport_destid(sd->mport);
	fprintf(f, "rio_sim rawdev %s (id %u)\n", dev->name, dev->dev_id);
	fprintf(f, "  fabric: %s, %u devices, %u endpoints, %u-bit device IDs, %u mailbox slots\n",
		sd->fabric->name, sd->fabric->n_devices, sd->fabric->n_endpoints,
		sd->fabric->devid_size, sd->fabric->mbox_entries);
	fprintf(f, "  endpoint: %.*s (endpoint %u, device %u), destid %d, host destid %d\n",
		SIM_NAME_MAX, d->name, sd->ep_index, sd->dev_index, destid,
		sd->host_destid);
	peer = __atomic_load_n(&port->peer_dev, __ATOMIC_RELAXED);
	if (peer >= 0 && (uint32_t)peer < sd->fabric->n_devices)
		fprintf(f, "  port 0: link %s, peer %.*s port %u, err_sts 0x%08x, ctl 0x%08x\n",
			rio_sim_link_up(sd) ? "up" : "down", SIM_NAME_MAX,
			sd->fabric->devs[peer].name, port->peer_port,
			__atomic_load_n(&port->err_sts, __ATOMIC_RELAXED),
			__atomic_load_n(&port->ctl, __ATOMIC_RELAXED));
	else
		fprintf(f, "  port 0: unconnected\n");
	fprintf(f, "  raw data path: %s, mailboxes 0x%x, doorbells %s\n",
		sd->started ? "started" : "stopped", sd->open_mask,
		sd->dbell_claimed ? "claimed" : "off");
	if (sd->dbell_claimed)
		fprintf(f, "    doorbell range 0x%04x..0x%04x\n", sd->conf.dbell_start,
			sd->conf.dbell_end);
	fprintf(f, "  counters:\n");
	sim_ep_stats_get(sd->ep, &st);
	for (i = 0; i < RIO_SIM_XS_NUM; i++) {
		uint64_t v = rio_sim_xstat_raw(sd, &st, i) - sd->xstats_base[i];

		if (v == 0)
			continue;
		rio_sim_xstat_name(i, name, sizeof(name));
		fprintf(f, "    %-24s %" PRIu64 "\n", name, v);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Selftest                                                           */

#define RIO_SIM_ST_FAIL(...) do { \
	SIM_LOG(ERR, "selftest: " __VA_ARGS__); \
	ret = -1; \
	goto out; \
} while (0)

struct rio_sim_st_dbell {
	unsigned int count;
	struct rte_rio_dbell last;
};

static void
rio_sim_st_dbell_cb(struct rte_rio_mport *mport __rte_unused, void *arg,
		    const struct rte_rio_dbell *db)
{
	struct rio_sim_st_dbell *s = arg;

	s->count++;
	s->last = *db;
}

/* Check the device under test: it answers local config reads coherently. */
static int
rio_sim_st_check_dev(uint16_t dev_id)
{
	struct rte_pmd_rio_sim_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };
	struct rio_sim_rawdev *sd;
	struct rte_rawdev *dev;
	uint32_t v = 0;
	int ret;

	if (!rte_rawdev_pmd_is_valid_dev(dev_id) ||
	    rte_rawdevs[dev_id].dev_ops != &rio_sim_rawdev_ops) {
		SIM_LOG(ERR, "selftest: rawdev %u is not a rio_sim device", dev_id);
		return -1;
	}
	dev = &rte_rawdevs[dev_id];
	sd = rio_sim_priv(dev);
	ret = rte_rawdev_info_get(dev_id, &ri, sizeof(info));
	if (ret != 0) {
		SIM_LOG(ERR, "selftest: info_get: %d", ret);
		return -1;
	}
	ret = rte_rio_local_read_config_32(sd->mport, RTE_RIO_DEV_ID_CAR, &v);
	if (ret != 0 || v != sd->fabric->devs[sd->dev_index].dev_id) {
		SIM_LOG(ERR, "selftest: %s: Device Identity CAR read %d, 0x%08x", dev->name,
			ret, v);
		return -1;
	}
	ret = rte_rio_mport_destid(sd->mport);
	if (ret < 0 || ret != info.destid) {
		SIM_LOG(ERR, "selftest: %s: destid %d, info says %u", dev->name, ret,
			info.destid);
		return -1;
	}
	return 0;
}

static int
rio_sim_dev_selftest(uint16_t dev_id)
{
	static unsigned int st_seq;
	char fabric[SIM_NAME_MAX], name_a[RTE_RAWDEV_NAME_MAX_LEN];
	char name_b[RTE_RAWDEV_NAME_MAX_LEN], args[128];
	static const uint16_t sizes[] = { RTE_RIO_MIN_MSG_SIZE, RTE_RIO_MAX_MSG_SIZE };
	struct rio_sim_st_dbell dbs = { 0 };
	struct rte_rio_mport *a = NULL, *b = NULL;
	bool a_up = false, b_up = false;
	uint8_t *tx = NULL, *rx = NULL;
	void *buf;
	int destid_a, destid_b;
	unsigned int i, j, k;
	uint16_t src;
	size_t len;
	int ret = 0;

	if (!rte_rawdev_pmd_is_valid_dev(dev_id) ||
	    rte_rawdevs[dev_id].dev_ops != &rio_sim_rawdev_ops)
		return -EINVAL;
	if (rio_sim_st_check_dev(dev_id) != 0)
		return -1;

	snprintf(fabric, sizeof(fabric), "rio_st%d_%u", (int)getpid(), st_seq++);
	snprintf(name_a, sizeof(name_a), "rio_sim_%s_a", fabric);
	snprintf(name_b, sizeof(name_b), "rio_sim_%s_b", fabric);
	tx = malloc(RTE_RIO_MAX_MSG_SIZE);
	rx = malloc(2 * RTE_RIO_MAX_MSG_SIZE);
	if (tx == NULL || rx == NULL)
		RIO_SIM_ST_FAIL("out of memory");

	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=0", fabric,
		 RTE_PMD_RIO_SIM_DEFAULT_TOPOLOGY);
	if (rte_vdev_init(name_a, args) != 0)
		RIO_SIM_ST_FAIL("cannot create %s (%s)", name_a, args);
	a_up = true;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=1", fabric);
	if (rte_vdev_init(name_b, args) != 0)
		RIO_SIM_ST_FAIL("cannot create %s (%s)", name_b, args);
	b_up = true;
	a = rte_rio_mport_find(name_a);
	b = rte_rio_mport_find(name_b);
	if (a == NULL || b == NULL)
		RIO_SIM_ST_FAIL("mports not registered");
	if (rio_sim_st_check_dev(rte_rawdev_pmd_get_named_dev(name_a)->dev_id) != 0 ||
	    rio_sim_st_check_dev(rte_rawdev_pmd_get_named_dev(name_b)->dev_id) != 0)
		RIO_SIM_ST_FAIL("config reads of the private endpoints");
	destid_a = rte_rio_mport_destid(a);
	destid_b = rte_rio_mport_destid(b);
	if (destid_a < 0 || destid_b < 0 || destid_a == destid_b)
		RIO_SIM_ST_FAIL("device IDs %d and %d", destid_a, destid_b);

	/* Doorbell a -> b. */
	ret = rte_rio_request_inb_dbell(b, 0x0000, 0xffff, rio_sim_st_dbell_cb, &dbs);
	if (ret != 0)
		RIO_SIM_ST_FAIL("request_inb_dbell: %d", ret);
	ret = rte_rio_send_doorbell(a, destid_b, 0x5a5a);
	if (ret != 0)
		RIO_SIM_ST_FAIL("send_doorbell: %d", ret);
	for (i = 0; i < 1000 && dbs.count == 0; i++)
		if (rte_rio_dbell_poll(b, 16) == 0)
			rte_delay_us_sleep(100);
	if (dbs.count != 1 || dbs.last.info != 0x5a5a || dbs.last.src != destid_a)
		RIO_SIM_ST_FAIL("doorbell: %u received, info 0x%x src %u", dbs.count,
				dbs.last.info, dbs.last.src);

	/* Messages of 8 and 4096 bytes a -> b on mailbox 0. */
	ret = rte_rio_request_outb_mbox(a, 0, 8);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(b, 0, 8);
	if (ret != 0)
		RIO_SIM_ST_FAIL("request mailboxes: %d", ret);
	for (i = 0; i < 2; i++) {
		ret = rte_rio_add_inb_buffer(b, 0, rx + i * RTE_RIO_MAX_MSG_SIZE);
		if (ret != 0)
			RIO_SIM_ST_FAIL("add_inb_buffer: %d", ret);
	}
	for (k = 0; k < RTE_DIM(sizes); k++) {
		for (j = 0; j < sizes[k]; j++)
			tx[j] = (uint8_t)(j * 7 + k + 1);
		ret = rte_rio_add_outb_message(a, destid_b, 0, 0, tx, sizes[k]);
		if (ret != 0)
			RIO_SIM_ST_FAIL("send %u bytes: %d", sizes[k], ret);
		buf = NULL;
		for (i = 0; i < 1000 && buf == NULL; i++) {
			buf = rte_rio_get_inb_message(b, 0, &len, &src);
			if (buf == NULL)
				rte_delay_us_sleep(100);
		}
		if (buf == NULL)
			RIO_SIM_ST_FAIL("message of %u bytes not received", sizes[k]);
		if (len != sizes[k] || src != destid_a || memcmp(buf, tx, len) != 0)
			RIO_SIM_ST_FAIL("message of %u bytes: got %zu bytes from %u", sizes[k],
					len, src);
		ret = rte_rio_add_inb_buffer(b, 0, buf);
		if (ret != 0)
			RIO_SIM_ST_FAIL("repost buffer: %d", ret);
	}
	SIM_LOG(INFO, "selftest: %s: doorbell and messages of 8 and 4096 bytes OK",
		rte_rawdevs[dev_id].name);
	ret = 0;
out:
	if (b != NULL) {
		rte_rio_release_inb_mbox(b, 0);
		rte_rio_release_inb_dbell(b, 0x0000, 0xffff);
	}
	if (a != NULL)
		rte_rio_release_outb_mbox(a, 0);
	if (b_up && rte_vdev_uninit(name_b) != 0)
		ret = -1;
	if (a_up && rte_vdev_uninit(name_a) != 0)
		ret = -1;
	if (sim_fabric_objects(fabric, false) != 0) {
		SIM_LOG(ERR, "selftest: fabric %s left shared memory behind", fabric);
		sim_fabric_destroy(fabric);
		ret = -1;
	}
	free(tx);
	free(rx);
	return ret;
}

static const struct rte_rawdev_ops rio_sim_rawdev_ops = {
	.dev_info_get = rio_sim_dev_info_get,
	.dev_configure = rio_sim_dev_configure,
	.dev_start = rio_sim_dev_start,
	.dev_stop = rio_sim_dev_stop,
	.dev_close = rio_sim_dev_close,
	.enqueue_bufs = rio_sim_enqueue_bufs,
	.dequeue_bufs = rio_sim_dequeue_bufs,
	.dump = rio_sim_dump,
	.attr_get = rio_sim_attr_get,
	.attr_set = rio_sim_attr_set,
	.xstats_get = rio_sim_xstats_get,
	.xstats_get_names = rio_sim_xstats_get_names,
	.xstats_get_by_name = rio_sim_xstats_get_by_name,
	.xstats_reset = rio_sim_xstats_reset,
	.dev_selftest = rio_sim_dev_selftest,
};

struct rte_rio_mport *
rte_pmd_rio_sim_mport(uint16_t dev_id)
{
	if (!rte_rawdev_pmd_is_valid_dev(dev_id) ||
	    rte_rawdevs[dev_id].dev_ops != &rio_sim_rawdev_ops) {
		rte_errno = ENODEV;
		return NULL;
	}
	return rio_sim_priv(&rte_rawdevs[dev_id])->mport;
}

/* ------------------------------------------------------------------ */
/* Probe and remove                                                   */

static bool
rio_sim_all_digits(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Claim the endpoint the devargs name, or the first one nobody holds. */
static struct sim_ep *
rio_sim_claim_endpoint(const char *name, struct sim_fabric *f, const char *spec,
		       int *ret)
{
	char err[RIO_SIM_ERR_LEN] = "";
	const struct sim_shm_device *d;
	struct sim_ep *ep;
	unsigned long idx;
	uint32_t i;
	int di;

	if (spec[0] == '\0') {
		for (i = 0; i < f->n_endpoints; i++) {
			/* Skip live owners here: claiming would only log a refusal. */
			if (rio_sim_ep_owned(f, i))
				continue;
			ep = sim_ep_claim(f, i, err, sizeof(err));
			if (ep != NULL)
				return ep;
		}
		SIM_LOG(ERR, "%s: every endpoint of fabric %s (%u) is claimed by a live process",
			name, f->name, f->n_endpoints);
		*ret = -EBUSY;
		return NULL;
	}
	if (rio_sim_all_digits(spec)) {
		errno = 0;
		idx = strtoul(spec, NULL, 10);
		if (errno != 0 || idx >= f->n_endpoints) {
			SIM_LOG(ERR, "%s: endpoint=%s: fabric %s has endpoints 0..%u", name, spec,
				f->name, f->n_endpoints - 1);
			*ret = -EINVAL;
			return NULL;
		}
	} else {
		di = sim_fabric_find_device(f, spec);
		if (di < 0) {
			SIM_LOG(ERR, "%s: endpoint=%s: no such device in fabric %s", name, spec,
				f->name);
			*ret = -EINVAL;
			return NULL;
		}
		d = &f->devs[di];
		if (d->type != SIM_DEV_ENDPOINT || d->ep_index >= f->n_endpoints) {
			SIM_LOG(ERR, "%s: endpoint=%s: that device is a switch", name, spec);
			*ret = -EINVAL;
			return NULL;
		}
		idx = d->ep_index;
	}
	if (__atomic_load_n(&f->eps[idx].owner, __ATOMIC_ACQUIRE) == f->token) {
		SIM_LOG(ERR, "%s: endpoint=%s: already claimed by this process", name, spec);
		*ret = -EBUSY;
		return NULL;
	}
	ep = sim_ep_claim(f, idx, err, sizeof(err));
	if (ep == NULL) {
		SIM_LOG(ERR, "%s: endpoint=%s: %s", name, spec, err);
		*ret = rte_errno > 0 ? -rte_errno : -EBUSY;
	}
	return ep;
}

/* Host device ID: devargs first, then the topology's host flag. */
static int32_t
rio_sim_host_destid(const struct rio_sim_params *p, const struct sim_topology *topo,
		    const struct sim_shm_device *d)
{
	char dname[SIM_NAME_MAX];
	int ti;

	if (p->host >= 0)
		return p->host;
	if (topo != NULL) {
		memcpy(dname, d->name, sizeof(dname) - 1);
		dname[sizeof(dname) - 1] = '\0';
		ti = sim_topology_find(topo, dname);
		if (ti >= 0 && topo->devs[ti].is_host)
			return topo->devs[ti].host_destid >= 0 ? topo->devs[ti].host_destid : 0;
		if (ti >= 0)
			return RTE_RIO_NO_HOST;
	}
	return d->is_host ? 0 : RTE_RIO_NO_HOST;
}

static void
rio_sim_host_gen_ctl(struct rio_sim_rawdev *sd)
{
	uint32_t off = sd->mport->phys_efptr + RTE_RIO_PORT_GEN_CTL_CSR, v;

	if (rte_rio_local_read_config_32(sd->mport, off, &v) == 0)
		rte_rio_local_write_config_32(sd->mport, off,
					      v | RTE_RIO_PORT_GEN_HOST | RTE_RIO_PORT_GEN_MASTER);
}

/* Discovery of a waiting agent polls this often. */
#define RIO_SIM_DISC_POLL_US	(100 * 1000)
/* It says it still waits this often. */
#define RIO_SIM_DISC_NOTE_MS	5000

static void
rio_sim_scan_report(const char *name, struct rio_sim_rawdev *sd, int ret)
{
	if (ret < 0)
		SIM_LOG(ERR, "%s: %s of fabric %s failed: %s", name,
			sd->host_destid >= 0 ? "enumeration" : "discovery", sd->fabric->name,
			strerror(-ret));
	else
		SIM_LOG(INFO, "%s: %s fabric %s: %u devices, %" PRIu64 " maintenance transactions",
			name, sd->host_destid >= 0 ? "enumerated" : "discovered", sd->fabric->name,
			rte_rio_dev_count(sd->mport), rte_rio_mport_maint_count(sd->mport));
}

/*
 * An agent whose host has not enumerated yet: discover again every
 * RIO_SIM_DISC_POLL_US, from the EAL interrupt thread, until the host has
 * or disc_timeout ran out; its own endpoint is on the rio bus meanwhile.
 */
static void
rio_sim_disc_alarm(void *arg)
{
	struct rio_sim_rawdev *sd = arg;
	const struct rte_rio_scan_conf sc = { .no_wait = true, .publish_local = true };
	const char *name = sd->rawdev->name;
	uint64_t waited_ms;
	int ret;

	waited_ms = (rte_get_timer_cycles() - sd->disc_start) * 1000 / rte_get_timer_hz();
	if (waited_ms >= sd->disc_timeout_ms) {
		SIM_LOG(ERR, "%s: no host enumerated fabric %s within %u ms: its own endpoint has no peers (rte_rio_mport_scan() discovers later)",
			name, sd->fabric->name, sd->disc_timeout_ms);
		return;
	}
	ret = rte_rio_mport_scan(sd->mport, &sc);
	if (ret != -EAGAIN) {
		/* -EALREADY: the application scanned meanwhile. */
		if (ret != -EALREADY)
			rio_sim_scan_report(name, sd, ret);
		return;
	}
	if (waited_ms >= (uint64_t)(sd->disc_notes + 1) * RIO_SIM_DISC_NOTE_MS) {
		sd->disc_notes++;
		SIM_LOG(NOTICE, "%s: still waiting for a host to enumerate fabric %s (%" PRIu64 " of %u s)",
			name, sd->fabric->name, waited_ms / 1000, sd->disc_timeout_ms / 1000);
	}
	if (rte_eal_alarm_set(RIO_SIM_DISC_POLL_US, rio_sim_disc_alarm, sd) != 0)
		SIM_LOG(ERR, "%s: cannot poll for the host of fabric %s: %s", name,
			sd->fabric->name, rte_strerror(rte_errno));
}

/*
 * Enumerate (host) or discover (agent) so that the fabric's devices reach the
 * rio bus. An agent does not hold EAL init up: when no host has enumerated
 * yet, its own endpoint goes on the bus at once (its drivers start, e.g. a
 * rionet port whose link stays down) and discovery runs when the host has
 * enumerated (rio_sim_disc_alarm()). A failure leaves the port usable (raw
 * traffic, a later rte_rio_mport_scan()) and does not fail the probe.
 */
static void
rio_sim_scan(const char *name, struct rio_sim_rawdev *sd, const struct rio_sim_params *p)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = p->disc_timeout_ms };
	char local[RTE_RIO_NAME_MAX_LEN];
	int ret;

	if (sd->host_destid < 0) {
		sc.no_wait = true;
		sc.publish_local = true;
	}
	ret = rte_rio_mport_scan(sd->mport, &sc);
	if (ret != -EAGAIN) {
		rio_sim_scan_report(name, sd, ret);
		return;
	}
	snprintf(local, sizeof(local), RTE_RIO_DEV_NAME_LOCAL_FMT, sd->mport->id);
	SIM_LOG(NOTICE, "%s: waiting for a host to enumerate fabric %s (disc_timeout=%u ms); its own endpoint %s is on the rio bus meanwhile",
		name, sd->fabric->name, p->disc_timeout_ms, local);
	sd->disc_timeout_ms = p->disc_timeout_ms;
	sd->disc_start = rte_get_timer_cycles();
	sd->disc_notes = 0;
	if (rte_eal_alarm_set(RIO_SIM_DISC_POLL_US, rio_sim_disc_alarm, sd) != 0)
		SIM_LOG(ERR, "%s: cannot poll for the host of fabric %s: %s", name,
			sd->fabric->name, rte_strerror(rte_errno));
}

/*
 * Primary: publish what secondary processes need to attach to the endpoint
 * (best effort: without it the device works, secondaries cannot attach).
 */
/* Name of the memzone of device @name (any length) for secondary processes. */
static void
rio_sim_mz_name(const char *name, char mzname[RTE_MEMZONE_NAMESIZE])
{
	snprintf(mzname, RTE_MEMZONE_NAMESIZE, RIO_SIM_MZ_FMT,
		 rte_hash_crc(name, strlen(name), 0));
}

static const struct rte_memzone *
rio_sim_mp_share(const char *name, struct rio_sim_rawdev *sd)
{
	char mzname[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	struct rio_sim_mp_info *info;
	int ret;

	RTE_BUILD_BUG_ON(sizeof(struct rio_sim_mp_info) > RIO_SIM_MP_EP_OFF);
	rio_sim_mz_name(name, mzname);
	mz = rte_memzone_reserve(mzname, RIO_SIM_MP_EP_OFF + sim_ep_shared_size(),
				 SOCKET_ID_ANY, 0);
	if (mz == NULL) {
		SIM_LOG(NOTICE, "%s: secondary processes cannot attach: %s", name,
			rte_strerror(rte_errno));
		return NULL;
	}
	info = mz->addr;
	info->host_destid = sd->host_destid;
	rte_strscpy(info->name, name, sizeof(info->name));
	ret = sim_ep_share(sd->ep, RTE_PTR_ADD(mz->addr, RIO_SIM_MP_EP_OFF));
	if (ret < 0) {
		SIM_LOG(NOTICE, "%s: secondary processes cannot attach: %s", name,
			strerror(-ret));
		rte_memzone_free(mz);
		return NULL;
	}
	return mz;
}

/* Allocate the rawdev of @vdev; both probe paths fill in the rest. */
static struct rte_rawdev *
rio_sim_rawdev_alloc(struct rte_vdev_device *vdev, const char *name)
{
	struct rte_rawdev *rawdev;
	struct rio_sim_rawdev *sd;

	rawdev = rte_rawdev_pmd_allocate(name, sizeof(*sd), rte_socket_id());
	if (rawdev == NULL) {
		SIM_LOG(ERR, "%s: cannot allocate rawdev", name);
		return NULL;
	}
	rawdev->dev_ops = &rio_sim_rawdev_ops;
	rawdev->device = &vdev->device;
	rawdev->driver_name = RTE_PMD_RIO_SIM_DRIVER_NAME;
	sd = rawdev->dev_private;
	sd->rawdev = rawdev;
	return rawdev;
}

/* Register the endpoint of @sd with lib/rio. @return 0 or -errno (logged). */
static int
rio_sim_mport_register(const char *name, struct rio_sim_rawdev *sd, const struct sim_fabric *f)
{
	struct rte_rio_mport_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.name = name;
	conf.ops = rio_sim_ops_of(f, sd->dev_index);
	conf.priv = sd;
	conf.devid_size = f->devid_size;
	conf.host_destid = sd->host_destid;
	conf.port_index = 0;
	conf.inb_inplace_max = SIM_SLOT_INLINE;
	sd->mport = rte_rio_mport_register(&conf);
	if (sd->mport == NULL) {
		ret = -rte_errno;
		SIM_LOG(ERR, "%s: cannot register the mport: %s", name, rte_strerror(rte_errno));
		return ret;
	}
	return 0;
}

static int
rio_sim_create(struct rte_vdev_device *vdev, const char *name, const struct rio_sim_params *p)
{
	char err[RIO_SIM_ERR_LEN] = "";
	struct sim_topology *topo = NULL;
	struct sim_fabric *f = NULL;
	struct sim_ep *ep = NULL;
	struct rte_rawdev *rawdev = NULL;
	struct rio_sim_rawdev *sd;
	const struct rte_memzone *mz;
	int ret;

	if (p->topology[0] != '\0') {
		ret = rio_sim_load_topology(p->topology, &topo, err, sizeof(err));
		if (ret < 0 || topo == NULL) {
			SIM_LOG(ERR, "%s: topology=%s: %s", name, p->topology,
				err[0] != '\0' ? err : strerror(-ret));
			ret = -EINVAL;
			goto fail;
		}
	}
	f = sim_fabric_attach(p->fabric, topo, p->group, err, sizeof(err));
	if (f == NULL) {
		/* Most errors already name the fabric: do not name it twice. */
		if (strncmp(err, "fabric ", strlen("fabric ")) == 0)
			SIM_LOG(ERR, "%s: %s", name, err);
		else
			SIM_LOG(ERR, "%s: fabric %s: %s", name, p->fabric, err);
		ret = -EINVAL;
		goto fail;
	}
	if (p->devid_size != 0 && p->devid_size != f->devid_size) {
		SIM_LOG(ERR, "%s: devid_size=%u but fabric %s uses %u-bit device IDs", name,
			p->devid_size, f->name, f->devid_size);
		ret = -EINVAL;
		goto fail;
	}
	if (p->host >= RTE_RIO_ANY_DESTID(f->devid_size)) {
		SIM_LOG(ERR, "%s: host=%d out of range for %u-bit device IDs (0..%d)", name,
			p->host, f->devid_size, RTE_RIO_ANY_DESTID(f->devid_size) - 1);
		ret = -EINVAL;
		goto fail;
	}
	ep = rio_sim_claim_endpoint(name, f, p->endpoint, &ret);
	if (ep == NULL)
		goto fail;

	rawdev = rio_sim_rawdev_alloc(vdev, name);
	if (rawdev == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	sd = rawdev->dev_private;
	sd->fabric = f;
	sd->ep = ep;
	sd->dev_index = sim_ep_dev_index(ep);
	sd->ep_index = f->devs[sd->dev_index].ep_index;
	sd->host_destid = rio_sim_host_destid(p, topo, &f->devs[sd->dev_index]);
	sd->mbox_entries = f->mbox_entries;
	sd->xstats_base = rte_zmalloc_socket("rio_sim_xstats",
					     RIO_SIM_XS_NUM * sizeof(uint64_t), 0,
					     rawdev->socket_id);
	if (sd->xstats_base == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	sd->mz = rio_sim_mp_share(name, sd);

	ret = rio_sim_mport_register(name, sd, f);
	if (ret < 0)
		goto fail;
	sim_topology_free(topo);
	SIM_LOG(INFO, "%s: endpoint %u of fabric %s, %s", name, sd->ep_index, f->name,
		sd->host_destid >= 0 ? "host" : "agent");
	/*
	 * A host's mport may issue requests: Host and Master Enable in its own
	 * Port General Control, as Linux's tsi721 driver sets them at init
	 * (Discovered is the enumerator's to set, when it is done).
	 */
	if (sd->host_destid >= 0)
		rio_sim_host_gen_ctl(sd);
	if (p->scan)
		rio_sim_scan(name, sd, p);
	return 0;
fail:
	mz = NULL;
	if (rawdev != NULL) {
		mz = rio_sim_priv(rawdev)->mz;
		rte_free(rio_sim_priv(rawdev)->xstats_base);
		rte_rawdev_pmd_release(rawdev);
	}
	if (ep != NULL)
		sim_ep_release(ep);
	rte_memzone_free(mz);
	if (f != NULL)
		sim_fabric_detach(f);
	sim_topology_free(topo);
	return ret < 0 ? ret : -EINVAL;
}

/*
 * Secondary process: a view of the endpoint the primary claimed for this
 * device, registered as an mport of this process. Only the local endpoint
 * reaches this process's rio bus: the fabric view (enumeration, discovery,
 * hot-plug) and the endpoint's doorbells and port-writes stay with the
 * primary.
 */
static int
rio_sim_attach_secondary(struct rte_vdev_device *vdev, const char *name)
{
	char mzname[RTE_MEMZONE_NAMESIZE];
	char err[RIO_SIM_ERR_LEN] = "";
	const struct rio_sim_mp_info *info;
	const struct rte_memzone *mz;
	struct rte_rawdev *rawdev = NULL;
	struct sim_fabric *f = NULL;
	struct rio_sim_rawdev *sd;
	struct sim_ep *ep = NULL;
	void *area;
	int ret;

	rio_sim_mz_name(name, mzname);
	mz = rte_memzone_lookup(mzname);
	info = mz != NULL ? mz->addr : NULL;
	if (info == NULL || strncmp(info->name, name, sizeof(info->name)) != 0) {
		SIM_LOG(ERR, "%s: the primary process shares no endpoint for this device", name);
		return -ENODEV;
	}
	area = RTE_PTR_ADD(mz->addr, RIO_SIM_MP_EP_OFF);
	f = sim_fabric_open(sim_ep_shared_fabric(area), NULL, SIM_OPEN_ATTACH, false, err,
			    sizeof(err));
	if (f == NULL) {
		SIM_LOG(ERR, "%s: fabric %s: %s", name, sim_ep_shared_fabric(area), err);
		ret = -ENODEV;
		goto fail;
	}
	ep = sim_ep_attach(f, area, err, sizeof(err));
	if (ep == NULL) {
		SIM_LOG(ERR, "%s: %s", name, err);
		ret = rte_errno > 0 ? -rte_errno : -ENODEV;
		goto fail;
	}
	rawdev = rio_sim_rawdev_alloc(vdev, name);
	if (rawdev == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	sd = rawdev->dev_private;
	sd->secondary = true;
	sd->fabric = f;
	sd->ep = ep;
	sd->dev_index = sim_ep_dev_index(ep);
	sd->ep_index = f->devs[sd->dev_index].ep_index;
	sd->host_destid = info->host_destid;
	sd->mbox_entries = f->mbox_entries;
	sd->xstats_base = rte_zmalloc_socket("rio_sim_xstats",
					     RIO_SIM_XS_NUM * sizeof(uint64_t), 0,
					     rawdev->socket_id);
	if (sd->xstats_base == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = rio_sim_mport_register(name, sd, f);
	if (ret < 0)
		goto fail;
	SIM_LOG(INFO, "%s: secondary view of endpoint %u of fabric %s", name, sd->ep_index,
		f->name);
	ret = rte_rio_mport_scan_local(sd->mport);
	if (ret < 0)
		SIM_LOG(ERR, "%s: cannot publish the local endpoint: %s", name, strerror(-ret));
	return 0;
fail:
	if (rawdev != NULL) {
		rte_free(rio_sim_priv(rawdev)->xstats_base);
		rte_rawdev_pmd_release(rawdev);
	}
	if (ep != NULL)
		sim_ep_release(ep);
	if (f != NULL)
		sim_fabric_detach(f);
	return ret;
}

static int
rio_sim_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rio_sim_params p;
	int ret;

	if (strlen(name) >= (size_t)RTE_MIN(RTE_RAWDEV_NAME_MAX_LEN, RTE_RIO_NAME_MAX_LEN)) {
		SIM_LOG(ERR, "%s: device name longer than %d characters", name,
			RTE_MIN(RTE_RAWDEV_NAME_MAX_LEN, RTE_RIO_NAME_MAX_LEN) - 1);
		return -EINVAL;
	}
	ret = rio_sim_parse_args(name, rte_vdev_device_args(vdev), &p);
	if (ret < 0)
		return ret;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rio_sim_attach_secondary(vdev, name);
	return rio_sim_create(vdev, name, &p);
}

static int
rio_sim_remove(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	const struct rte_memzone *mz;
	struct rte_rawdev *rawdev;
	struct rio_sim_rawdev *sd;
	struct sim_fabric *f;
	struct sim_ep *ep;
	int ret;

	rawdev = rte_rawdev_pmd_get_named_dev(name);
	if (rawdev == NULL)
		return -ENODEV;
	sd = rio_sim_priv(rawdev);
	/* An agent may still wait for its host; waits for a running poll. */
	rte_eal_alarm_cancel(rio_sim_disc_alarm, sd);
	if (rawdev->started)
		rte_rawdev_stop(rawdev->dev_id);
	rio_sim_raw_close(sd);
	ret = rte_rio_mport_unregister(sd->mport);
	if (ret < 0) {
		/* Keep everything: the mport still points at the endpoint. */
		SIM_LOG(ERR, "%s: cannot unregister the mport: %s", name, strerror(-ret));
		return ret;
	}
	f = sd->fabric;
	ep = sd->ep;
	mz = sd->mz;
	rte_free(sd->xstats_base);
	ret = rte_rawdev_pmd_release(rawdev);
	if (ret < 0)
		SIM_LOG(ERR, "%s: cannot release the rawdev: %s", name, strerror(-ret));
	sim_ep_release(ep);
	/* Secondaries must have detached: what they poll is gone. */
	rte_memzone_free(mz);
	sim_fabric_detach(f);
	return 0;
}

static struct rte_vdev_driver rio_sim_pmd_drv = {
	.probe = rio_sim_probe,
	.remove = rio_sim_remove,
};

RTE_PMD_REGISTER_VDEV(rio_sim, rio_sim_pmd_drv);
RTE_PMD_REGISTER_PARAM_STRING(rio_sim,
	"fabric=<name> "
	"topology=<path|builtin:<shape>> "
	"endpoint=<name|index> "
	"host=<destid> "
	"devid_size=<8|16> "
	"group=<0|1> "
	"scan=<0|1> "
	"disc_timeout=<ms>");
RTE_LOG_REGISTER_DEFAULT(rio_sim_logtype, NOTICE);
