/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Enumeration (host, rio_enum.c) and discovery (agent, rio_disc.c) of a
 * RapidIO fabric: what both read of a device, and the entry points.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "rio_scan_private.h"

int
rio_scan_read(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint32_t off,
	      unsigned int nwords, uint32_t *w)
{
	if (nwords == 1)
		return rte_rio_remote_read_config_32(mport, destid, hop, off, w);
	return rte_rio_remote_read_block(mport, destid, hop, off, (int)nwords * 4, w);
}

void
rio_scan_fill_info(struct rte_rio_dev *dev, const struct rio_scan_raw *raw)
{
	struct rte_rio_dev_info *in = &dev->info;

	in->vid = raw->car[0] & RTE_RIO_DEV_ID_VID_MASK;
	in->did = raw->car[0] >> 16;
	in->device_rev = raw->car[1];
	in->asm_vid = raw->car[2] & RTE_RIO_ASM_VEN_ID_MASK;
	in->asm_did = raw->car[2] >> 16;
	in->asm_rev = raw->car[3] >> 16;
	in->pef = raw->car[4];
	in->src_ops = raw->car[6];
	in->dst_ops = raw->car[7];
	in->nports = 1;
	if (rio_is_multiport(in->pef)) {
		in->nports = RTE_MIN(RTE_RIO_GET_TOTAL_PORTS(raw->car[5]),
				     (uint32_t)RTE_RIO_MAX_SWITCH_PORTS);
		in->sw_inport = RTE_RIO_GET_PORT_NUM(raw->car[5]);
	}
	dev->did32 = raw->csr[1];
	/* From the start: a walk that fails on a half-read switch cleans up with them. */
	if (in->type == RTE_RIO_DEV_SWITCH)
		dev->ops = rio_switch_ops_find(in->vid, in->did);
}

/*
 * Walk a remote device's extended features: LP-Serial block (and its
 * General Control) and Error Management block (and its port-write target).
 * With block maintenance each block costs one 64-byte read.
 */
int
rio_scan_efb(struct rte_rio_mport *mport, bool block, uint16_t destid, uint8_t hop,
	     struct rte_rio_dev *dev, struct rio_scan_raw *raw)
{
	uint32_t ptr = 0, w[16];
	unsigned int n;
	int ret;

	if (dev->info.pef & RTE_RIO_PEF_EXT_FEATURES)
		ptr = raw->car[3] & RTE_RIO_EXT_FTR_PTR_MASK;
	for (n = 0; rio_efb_ptr_ok(ptr) && n < RIO_SCAN_MAX_EFB; n++) {
		uint16_t id;
		int rmap;

		ret = rio_scan_read(mport, destid, hop, ptr, block ? 16 : 1, w);
		if (ret < 0)
			return ret;
		id = RTE_RIO_GET_BLOCK_ID(w[0]);
		rmap = rte_rio_efb_phys_rmap(id);
		if (rmap != 0 && dev->info.phys_efptr == 0) {
			dev->info.phys_efptr = ptr;
			dev->info.phys_rmap = rmap;
			dev->phys_efb_id = id;
			if (block)
				dev->gen_ctl = w[RTE_RIO_PORT_GEN_CTL_CSR / 4];
		} else if ((id == RTE_RIO_EFB_ERR_MGMNT || id == RTE_RIO_EFB_ERR_MGMNT_HS) &&
			   dev->info.em_efptr == 0) {
			dev->info.em_efptr = ptr;
			if (block) {
				raw->pw_target = w[RTE_RIO_EM_PW_TGT_DEVID / 4];
				raw->pw_target_valid = true;
			}
		}
		if (dev->info.phys_efptr != 0 && dev->info.em_efptr != 0)
			break;
		ptr = RTE_RIO_GET_BLOCK_PTR(w[0]);
	}
	return 0;
}

/* The mport's own endpoint, from local config space. */
int
rio_scan_local_dev(struct rte_rio_mport *mport, struct rte_rio_dev **out)
{
	struct rio_scan_raw raw;
	struct rte_rio_dev *dev;
	unsigned int i;
	int32_t em;
	int ret;

	memset(&raw, 0, sizeof(raw));
	for (i = 0; i < RTE_DIM(raw.car); i++) {
		ret = rte_rio_local_read_config_32(mport, i * 4, &raw.car[i]);
		if (ret < 0)
			return ret;
	}
	dev = rio_dev_alloc(mport, false);
	if (dev == NULL)
		return -ENOMEM;
	rio_scan_fill_info(dev, &raw);
	dev->info.local = true;
	dev->info.nports = 1;
	dev->info.sw_inport = 0;
	dev->info.phys_efptr = mport->phys_efptr;
	dev->info.phys_rmap = mport->phys_rmap;
	em = rte_rio_get_feature(mport, true, 0, 0, RTE_RIO_EFB_ERR_MGMNT);
	dev->info.em_efptr = em > 0 ? (uint32_t)em : 0;
	*out = dev;
	return 0;
}

int
rio_scan_local_port_ok(struct rte_rio_mport *mport)
{
	uint32_t sts;
	int ret;

	ret = rte_rio_local_read_config_32(mport, mport->phys_efptr +
		RTE_RIO_PORT_N_ERR_STS_CSR(mport->port_index, mport->phys_rmap), &sts);
	if (ret < 0)
		return ret;
	if (!(sts & RTE_RIO_PORT_N_ERR_STS_PORT_OK)) {
		RIO_LOG(ERR, "%s: local port %u link is down", mport->name, mport->port_index);
		return -EIO;
	}
	return 0;
}

/*
 * Input and output enables of the own port (more than maintenance passes),
 * as an mport driver leaves them (Linux's tsi721: the part resets with them
 * set) and Linux's rio_enable_rx_tx_port(local) sets them for a host: the
 * specification recommends they reset clear, and a host enumerating the
 * fabric (Linux's without CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS) need not set
 * them on the agents. A multi-port endpoint enables every port whose link
 * is OK too: the enumerator may route its ID to any of them (Linux's enables
 * port 0 of an endpoint only, whichever port it came in by).
 */
static int
rio_scan_port_enable(struct rte_rio_mport *mport, uint8_t port)
{
	const uint32_t en = RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX;
	uint32_t off = mport->phys_efptr + RTE_RIO_PORT_N_CTL_CSR(port, mport->phys_rmap);
	uint32_t v;
	int ret;

	ret = rte_rio_local_read_config_32(mport, off, &v);
	if (ret == 0 && (v & en) != en)
		ret = rte_rio_local_write_config_32(mport, off, v | en);
	return ret;
}

int
rio_scan_local_port_enable(struct rte_rio_mport *mport)
{
	uint32_t pef, swp, sts;
	unsigned int p, n;
	int ret;

	ret = rio_scan_port_enable(mport, mport->port_index);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, RTE_RIO_PEF_CAR, &pef);
	if (ret < 0 || !(pef & RTE_RIO_PEF_MULTIPORT) || (pef & RTE_RIO_PEF_SWITCH))
		return ret;
	ret = rte_rio_local_read_config_32(mport, RTE_RIO_SWP_INFO_CAR, &swp);
	n = ret == 0 ? RTE_RIO_GET_TOTAL_PORTS(swp) : 0;
	for (p = 0; ret == 0 && p < n; p++) {
		if (p == mport->port_index)
			continue;
		ret = rte_rio_local_read_config_32(mport, mport->phys_efptr +
			RTE_RIO_PORT_N_ERR_STS_CSR(p, mport->phys_rmap), &sts);
		if (ret == 0 && (sts & RTE_RIO_PORT_N_ERR_STS_PORT_OK))
			ret = rio_scan_port_enable(mport, (uint8_t)p);
	}
	return ret;
}

void
rio_scan_link(struct rte_rio_dev *a, uint8_t pa, struct rte_rio_dev *b, uint8_t pb,
	      bool redundant)
{
	if (pa < RTE_RIO_MAX_SWITCH_PORTS) {
		a->peer[pa] = b;
		a->peer_port[pa] = pb;
		if (redundant)
			a->redundant |= 1u << pa;
	}
	if (pb < RTE_RIO_MAX_SWITCH_PORTS) {
		b->peer[pb] = a;
		b->peer_port[pb] = pa;
		if (redundant)
			b->redundant |= 1u << pb;
	}
}

void
rio_scan_append(struct rio_scan_data *sd, struct rte_rio_dev *dev)
{
	TAILQ_INSERT_TAIL(&sd->devs, dev, next);
	sd->ndevs++;
}

/* ---------------------------------------------------------------------- */
/* Entry point                                                            */

/* Only the mport's own endpoint, from local config space, into @sd. */
static int
rio_scan_local_only(struct rte_rio_mport *mport, struct rio_scan_data *sd)
{
	struct rte_rio_dev *local = NULL;
	uint32_t v;
	int ret;

	/* No maintenance transaction leaves the mport. */
	ret = rio_scan_local_dev(mport, &local);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, RTE_RIO_DID_CSR, &v);
	if (ret == 0)
		ret = rte_rio_local_read_config_32(mport, RTE_RIO_COMPONENT_TAG_CSR,
						   &local->info.comptag);
	if (ret < 0) {
		rio_dev_free(local);
		return ret;
	}
	local->info.destid = RTE_RIO_GET_DID(mport->devid_size, v);
	rio_dev_set_name(local);
	rio_scan_append(sd, local);
	return 0;
}

int
rte_rio_mport_scan(struct rte_rio_mport *mport, const struct rte_rio_scan_conf *conf)
{
	struct rio_scan_data *sd, *waiting;
	int ret;

	if (mport == NULL)
		return -EINVAL;
	sd = rte_zmalloc("rio_scan", sizeof(*sd), 0);
	if (sd == NULL)
		return -ENOMEM;
	TAILQ_INIT(&sd->devs);
	sd->fabric_host = RTE_RIO_NO_HOST;

	rio_dev_list_lock();
	/* Only an mport that waits with its own endpoint published scans again. */
	waiting = mport->lib->scan_data;
	if (waiting != NULL && (!waiting->waiting || waiting->claimed)) {
		rio_dev_list_unlock();
		rte_free(sd);
		return -EALREADY;
	}
	/* Claims the mport: a second scan gets -EALREADY. */
	if (waiting != NULL)
		waiting->claimed = true;
	else
		mport->lib->scan_data = sd;
	rio_dev_list_unlock();

	if (mport->host_destid >= 0) {
		ret = rio_enum_mport(mport, sd);
		if (ret == RIO_SCAN_BACKOFF) {
			ret = rio_disc_mport(mport, sd, conf);
			if (ret < 0 && ret != -EAGAIN) {
				RIO_LOG(ERR, "%s: lost to another host, then discovery failed (%d)",
					mport->name, ret);
				ret = -EBUSY;
			}
		}
	} else {
		ret = rio_disc_mport(mport, sd, conf);
	}

	if (ret == -EAGAIN && waiting == NULL && conf != NULL && conf->publish_local) {
		ret = rio_scan_local_only(mport, sd);
		if (ret == 0) {
			sd->waiting = true;
			rio_dev_publish(mport);
			return -EAGAIN;
		}
	}
	if (ret < 0) {
		rio_dev_list_lock();
		if (waiting != NULL)
			waiting->claimed = false;
		else
			mport->lib->scan_data = NULL;
		rio_dev_list_unlock();
		rio_dev_list_free(&sd->devs);
		rte_free(sd);
		return ret;
	}
	if (waiting != NULL)
		rio_dev_adopt_local(mport, waiting, sd);
	rio_dev_publish(mport);
	if (sd->enumerated)
		rio_hotplug_start(mport);
	return 0;
}

static void
rio_scan_background_report(struct rte_rio_mport *mport, int ret)
{
	if (ret < 0)
		RIO_LOG(ERR, "%s: discovery failed: %s; the port has no peers", mport->name,
			strerror(-ret));
	else
		RIO_LOG(INFO, "%s: discovered %u devices in the background", mport->name,
			rte_rio_dev_count(mport));
}

static void
rio_scan_background_alarm(void *arg)
{
	const struct rte_rio_scan_conf sc = { .no_wait = true, .publish_local = true };
	struct rte_rio_mport *mport = arg;
	struct rio_mport_state *st = mport->lib;
	uint64_t waited_ms;
	int ret;

	waited_ms = (rte_get_timer_cycles() - st->bg_start) * 1000 / rte_get_timer_hz();
	if (waited_ms >= st->bg_timeout_ms) {
		RIO_LOG(ERR, "%s: no host enumerated the fabric within %u ms: its own endpoint has no peers (rte_rio_mport_scan() discovers later)",
			mport->name, st->bg_timeout_ms);
		return;
	}
	ret = rte_rio_mport_scan(mport, &sc);
	if (ret != -EAGAIN) {
		/* -EALREADY: the application scanned meanwhile. */
		if (ret != -EALREADY)
			rio_scan_background_report(mport, ret);
		return;
	}
	if (waited_ms >= (uint64_t)(st->bg_notes + 1) * RTE_RIO_DISC_NOTE_MS) {
		st->bg_notes++;
		RIO_LOG(NOTICE, "%s: still waiting for a host to enumerate the fabric (%" PRIu64
			" of %u s)", mport->name, waited_ms / 1000, st->bg_timeout_ms / 1000);
	}
	if (rte_eal_alarm_set(RTE_RIO_DISC_POLL_MS * 1000, rio_scan_background_alarm, mport) != 0)
		RIO_LOG(ERR, "%s: cannot poll for the fabric's host: %s", mport->name,
			rte_strerror(rte_errno));
}

int
rte_rio_mport_scan_background(struct rte_rio_mport *mport, const struct rte_rio_scan_conf *conf)
{
	struct rte_rio_scan_conf sc = { .no_wait = true, .publish_local = true };
	int ret;

	if (mport == NULL)
		return -EINVAL;
	if (conf != NULL)
		sc.disc_timeout_ms = conf->disc_timeout_ms;
	ret = rte_rio_mport_scan(mport, &sc);
	if (ret != -EAGAIN)
		return ret;
	mport->lib->bg_timeout_ms = rio_disc_timeout_ms(&sc);
	mport->lib->bg_start = rte_get_timer_cycles();
	mport->lib->bg_notes = 0;
	if (rte_eal_alarm_set(RTE_RIO_DISC_POLL_MS * 1000, rio_scan_background_alarm,
			      mport) != 0) {
		RIO_LOG(ERR, "%s: cannot poll for the fabric's host: %s", mport->name,
			rte_strerror(rte_errno));
		return -ENOTSUP;
	}
	return -EINPROGRESS;
}

void
rte_rio_mport_scan_cancel(struct rte_rio_mport *mport)
{
	if (mport != NULL)
		rte_eal_alarm_cancel(rio_scan_background_alarm, mport);
}

int
rte_rio_mport_scan_local(struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;
	int ret;

	if (mport == NULL)
		return -EINVAL;
	sd = rte_zmalloc("rio_scan", sizeof(*sd), 0);
	if (sd == NULL)
		return -ENOMEM;
	TAILQ_INIT(&sd->devs);
	sd->fabric_host = RTE_RIO_NO_HOST;

	rio_dev_list_lock();
	if (mport->lib->scan_data != NULL) {
		rio_dev_list_unlock();
		rte_free(sd);
		return -EALREADY;
	}
	mport->lib->scan_data = sd;
	rio_dev_list_unlock();

	ret = rio_scan_local_only(mport, sd);
	if (ret < 0) {
		rio_dev_list_lock();
		mport->lib->scan_data = NULL;
		rio_dev_list_unlock();
		rte_free(sd);
		return ret;
	}
	rio_dev_publish(mport);
	return 0;
}
