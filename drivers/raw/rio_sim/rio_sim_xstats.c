/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Extended statistics of a rio_sim rawdev (the endpoint's counters, its
 * port's, the raw mailboxes' and doorbells') and its dump.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_rawdev.h"

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
	{ "msg_tx_seg_retry", offsetof(struct sim_ep_stats, msg_tx_seg_retry) },
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
	{ "mem_tx_pkts", offsetof(struct sim_ep_stats, mem_tx_pkts) },
	{ "mem_tx_bytes", offsetof(struct sim_ep_stats, mem_tx_bytes) },
	{ "mem_tx_error", offsetof(struct sim_ep_stats, mem_tx_error) },
	{ "mem_rx_pkts", offsetof(struct sim_ep_stats, mem_rx_pkts) },
	{ "mem_rx_refused", offsetof(struct sim_ep_stats, mem_rx_refused) },
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

const unsigned int rio_sim_xstats_num = RIO_SIM_XS_NUM;

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

int
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

int
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

uint64_t
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

int
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

int
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
