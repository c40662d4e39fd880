/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim rawdev PMD: one vdev claims one endpoint of an emulated fabric and
 * registers it with lib/rio as an mport. The rawdev's files (rio_sim_rawdev.h)
 * are the only ones of the driver that know about rawdev and vdev;
 * rio_sim_devargs.c parses its devargs.
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
#include "rio_sim_rawdev.h"

/* ------------------------------------------------------------------ */
/* Rawdev: info, configure, start/stop                                */

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
	/*
	 * The raw path has no completion queue: reap here so that the
	 * descriptors whose responses are back are free for the next op.
	 */
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
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH) == 0) {
		*attr_value = sd->dbell_depth;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED) == 0) {
		*attr_value = sim_ep_retries_answered(sd->ep);
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED) == 0) {
		*attr_value = sim_ep_mbox_posted(sd->ep);
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
	int ret;

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
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED) == 0) {
		if (attr_value >= 1u << RTE_RIO_MAX_MBOX)
			return -EINVAL;
		return sim_ep_set_mbox_posted(sd->ep, (uint32_t)attr_value);
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH) == 0) {
		if (attr_value > SIM_DBELL_RING_SIZE)
			return -EINVAL;
		ret = sim_ep_set_dbell_depth(sd->ep, (uint32_t)attr_value);
		if (ret == 0)
			sd->dbell_depth = (uint32_t)attr_value;
		return ret;
	} else if (strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_HOST_DESTID) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DEVID_SIZE) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_EP_INDEX) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DEV_INDEX) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_DBELL_UNCLAIMED) == 0 ||
		   strcmp(attr_name, RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED) == 0) {
		return -EPERM;	/* read-only */
	}
	return -ENOENT;
}


const struct rte_rawdev_ops rio_sim_rawdev_ops = {
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
 * Enumerate (host) or discover (agent) so that the fabric's devices reach the
 * rio bus. An agent does not hold EAL init up: when no host has enumerated
 * yet, its own endpoint goes on the bus at once (its drivers start, e.g. a
 * rionet port whose link stays down) and lib/rio discovers in the background
 * once the host has enumerated (rte_rio_mport_scan_background()). A failure
 * leaves the port usable (raw traffic, a later rte_rio_mport_scan()) and does
 * not fail the probe.
 */
static void
rio_sim_scan(const char *name, struct rio_sim_rawdev *sd, const struct rio_sim_params *p)
{
	const struct rte_rio_scan_conf sc = { .disc_timeout_ms = p->disc_timeout_ms };
	char local[RTE_RIO_NAME_MAX_LEN];
	int ret;

	ret = rte_rio_mport_scan_background(sd->mport, &sc);
	if (ret != -EINPROGRESS) {
		rio_sim_scan_report(name, sd, ret);
		return;
	}
	snprintf(local, sizeof(local), RTE_RIO_DEV_NAME_LOCAL_FMT, sd->mport->id);
	SIM_LOG(NOTICE, "%s: waiting for a host to enumerate fabric %s (disc_timeout=%u ms); its own endpoint %s is on the rio bus meanwhile",
		name, sd->fabric->name, p->disc_timeout_ms, local);
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
	sd->dbell_depth = SIM_DBELL_RING_SIZE;
	sd->xstats_base = rte_zmalloc_socket("rio_sim_xstats",
					     rio_sim_xstats_num * sizeof(uint64_t), 0,
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
					     rio_sim_xstats_num * sizeof(uint64_t), 0,
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
	/* An agent may still wait for its host; waits for a running attempt. */
	rte_rio_mport_scan_cancel(sd->mport);
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
