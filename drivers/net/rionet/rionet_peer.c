/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rionet peers: the capable remote endpoints of the port's fabric, their
 * JOIN/LEAVE doorbell handshake, and the link state derived from it.
 *
 * Threads: peers are added and removed by device events (the thread that
 * scans or removes an mport), doorbells are polled by an EAL alarm every
 * RIONET_DBELL_PERIOD_US (so the handshake also runs when no lcore calls
 * rx_burst, e.g. a Tx-only application), start/stop run in the control
 * thread. All of them take port->lock; the Rx/Tx lcores only read the peer
 * map and the active flags through the atomic helpers of rte_eth_rionet.h.
 * A slot keeps its device ID for the life of the port, so an lcore that read
 * a slot number can never send to another device through it.
 */

#include <errno.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "rte_eth_rionet.h"

bool
rionet_dev_capable(const struct rte_rio_dev_info *info)
{
	const uint32_t ops = RTE_RIO_OPS_DATA_MSG | RTE_RIO_OPS_DOORBELL;

	return info->type == RTE_RIO_DEV_ENDPOINT &&
		(info->src_ops & ops) == ops && (info->dst_ops & ops) == ops;
}

int
rionet_link_refresh(struct rionet_port *port)
{
	struct rte_eth_link link = {
		.link_speed = RTE_ETH_SPEED_NUM_20G,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
	};

	link.link_status = port->started && rionet_nb_active(port) > 0 ?
		RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	/* 0 when the status changed, -1 otherwise. */
	return rte_eth_linkstatus_set(port->eth_dev, &link);
}

/* Under lock. */
static void
rionet_peer_activate(struct rionet_port *port, struct rionet_peer *p, bool on)
{
	if (!!rionet_peer_active(p) == on)
		return;
	rionet_peer_set_active(p, on);
	if (on)
		__atomic_fetch_add(&port->nb_active, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_sub(&port->nb_active, 1, __ATOMIC_RELAXED);
	RIONET_LOG(DEBUG, "%s: peer 0x%x %s", port->name, p->destid,
		   on ? "active" : "inactive");
}

/* Send a JOIN or LEAVE doorbell, retrying while the peer answers RETRY. Under lock. */
static int
rionet_dbell_send(struct rionet_port *port, struct rionet_peer *p, uint16_t info)
{
	int ret = -EAGAIN;
	int i;

	for (i = 0; i < RIONET_DBELL_TRIES && ret == -EAGAIN; i++) {
		if (i > 0)
			rte_delay_us_block(10);
		ret = rte_rio_send_doorbell(port->mport, p->destid, info);
	}
	if (ret < 0) {
		port->dbell_tx_errors++;
		return ret;
	}
	port->dbell_tx++;
	if (info == RIONET_DBELL_JOIN) {
		port->join_tx++;
		p->join_tx++;
		p->join_tsc = rte_get_timer_cycles();
	} else {
		port->leave_tx++;
		p->leave_tx++;
	}
	return 0;
}

static struct rionet_peer *
rionet_peer_lookup(struct rionet_port *port, uint16_t destid)
{
	uint16_t s;

	if (destid >= port->max_destids)
		return NULL;
	s = rionet_map_get(port, destid);
	return s == 0 ? NULL : &port->peers[s - 1];
}

/* Slot of destid, reused if it was known before; NULL when the table is full. */
static struct rionet_peer *
rionet_peer_slot(struct rionet_port *port, uint16_t destid)
{
	struct rionet_peer *p;
	uint16_t i;

	for (i = 0; i < port->nb_peers; i++)
		if (port->peers[i].destid == destid)
			return &port->peers[i];
	if (port->nb_peers == RIONET_MAX_PEERS)
		return NULL;
	p = &port->peers[port->nb_peers];
	memset(p, 0, sizeof(*p));
	p->destid = destid;
	port->nb_peers++;
	return p;
}

void
rionet_peer_event(struct rionet_port *port, struct rte_rio_device *dev, bool add)
{
	struct rte_rio_dev_info info;
	struct rionet_peer *p;

	if (dev->mport != port->mport || dev->local || dev->type != RTE_RIO_DEV_ENDPOINT ||
	    dev->destid >= port->max_destids || dev->destid == port->destid)
		return;
	/* A removed device cannot be described any more: forget it by destid. */
	if (add && (dev->rdev == NULL || rte_rio_dev_info_get(dev->rdev, &info) != 0 ||
		    !rionet_dev_capable(&info)))
		return;
	info.destid = dev->destid;

	rte_spinlock_lock(&port->lock);
	if (add) {
		p = rionet_peer_slot(port, info.destid);
		if (p == NULL) {
			RIONET_LOG(WARNING, "%s: more than %d peers, 0x%x ignored",
				   port->name, RIONET_MAX_PEERS, info.destid);
			goto out;
		}
		p->present = 1;
		rionet_map_set(port, p->destid, (uint16_t)(p - port->peers) + 1);
		if (port->started && rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
			p->join_sent = 1;
	} else {
		p = rionet_peer_lookup(port, info.destid);
		if (p == NULL)
			goto out;
		/*
		 * Forgotten (the peer or our own mport goes away; the local
		 * endpoint is removed last): tell it to stop sending to us.
		 */
		if (port->started && (rionet_peer_active(p) || p->join_sent))
			rionet_dbell_send(port, p, RIONET_DBELL_LEAVE);
		p->present = 0;
		p->join_sent = 0;
		rionet_peer_activate(port, p, false);
		rionet_map_set(port, p->destid, 0);
	}
	rionet_link_refresh(port);
out:
	rte_spinlock_unlock(&port->lock);
}

/* Inbound JOIN/LEAVE, from rte_rio_dbell_poll() in the alarm thread. */
static void
rionet_dbell_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct rionet_port *port = arg;
	struct rionet_peer *p;

	RTE_SET_USED(mport);
	rte_spinlock_lock(&port->lock);
	port->dbell_rx++;
	p = rionet_peer_lookup(port, db->src);
	if (p == NULL) {
		port->dbell_unknown++;
		goto out;
	}
	if (db->info == RIONET_DBELL_JOIN) {
		port->join_rx++;
		p->join_rx++;
		if (!rionet_peer_active(p)) {
			rionet_peer_activate(port, p, true);
			/* Answer so that the peer activates us too. */
			if (port->started && rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
				p->join_sent = 1;
		} else if (port->started && rte_get_timer_cycles() - p->join_tsc >
			   rte_get_timer_hz() * RIONET_JOIN_HOLDOFF_MS / 1000) {
			/*
			 * A peer we hold active JOINs: it lost us (its host removed
			 * us when a link went down, or it restarted) and waits for
			 * our JOIN. A JOIN that answers ours comes within the
			 * hold-off and is not answered, so answers never ping-pong.
			 */
			if (rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
				p->join_sent = 1;
		}
	} else if (db->info == RIONET_DBELL_LEAVE) {
		port->leave_rx++;
		p->leave_rx++;
		rionet_peer_activate(port, p, false);
	}
	rionet_link_refresh(port);
out:
	rte_spinlock_unlock(&port->lock);
}

static void
rionet_alarm_cb(void *arg)
{
	struct rionet_port *port = arg;
	bool again;

	rte_rio_dbell_poll(port->mport, 256);
	rte_spinlock_lock(&port->lock);
	again = port->started;
	rte_spinlock_unlock(&port->lock);
	if (again && rte_eal_alarm_set(RIONET_DBELL_PERIOD_US, rionet_alarm_cb, port) != 0)
		RIONET_LOG(ERR, "%s: cannot re-arm the doorbell poll", port->name);
}

/* Bus events, called with the bus lock held (see rte_bus_rio.h). */
static void
rionet_bus_event_cb(struct rte_rio_device *dev, enum rte_rio_bus_event event, void *arg)
{
	rionet_peer_event(arg, dev, event == RTE_RIO_BUS_EVENT_ADD);
}

int
rionet_peers_init(struct rionet_port *port)
{
	int ret;

	port->peer_map = rte_zmalloc("rionet_peer_map",
				     sizeof(port->peer_map[0]) * port->max_destids, 0);
	if (port->peer_map == NULL)
		return -ENOMEM;
	/* Reports the devices already present as ADD events before it returns. */
	ret = rte_rio_dev_callback_register(rionet_bus_event_cb, port);
	if (ret < 0) {
		rte_free(port->peer_map);
		port->peer_map = NULL;
	}
	return ret;
}

void
rionet_peers_fini(struct rionet_port *port)
{
	rte_rio_dev_callback_unregister(rionet_bus_event_cb, port);
	rte_free(port->peer_map);
	port->peer_map = NULL;
}

int
rionet_peers_start(struct rionet_port *port)
{
	struct rionet_peer *p;
	uint16_t i;
	int ret;

	ret = rte_rio_request_inb_dbell(port->mport, RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE,
					rionet_dbell_cb, port);
	if (ret < 0) {
		RIONET_LOG(ERR, "%s: doorbells 0x%x-0x%x are taken (%d)", port->name,
			   RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE, ret);
		return ret;
	}
	rte_spinlock_lock(&port->lock);
	port->dbell_claimed = true;
	port->started = true;
	for (i = 0; i < port->nb_peers; i++) {
		p = &port->peers[i];
		p->join_sent = 0;
		if (p->present && rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
			p->join_sent = 1;
	}
	rionet_link_refresh(port);
	rte_spinlock_unlock(&port->lock);

	ret = rte_eal_alarm_set(RIONET_DBELL_PERIOD_US, rionet_alarm_cb, port);
	if (ret < 0) {
		RIONET_LOG(ERR, "%s: cannot start the doorbell poll (%d)", port->name, ret);
		rionet_peers_stop(port);
		return ret;
	}
	return 0;
}

void
rionet_peers_stop(struct rionet_port *port)
{
	struct rionet_peer *p;
	uint16_t i;

	rte_spinlock_lock(&port->lock);
	port->started = false;
	rte_spinlock_unlock(&port->lock);
	/* Waits for a running callback; it does not re-arm once started is false. */
	rte_eal_alarm_cancel(rionet_alarm_cb, port);

	rte_spinlock_lock(&port->lock);
	for (i = 0; i < port->nb_peers; i++) {
		p = &port->peers[i];
		if (p->present && (rionet_peer_active(p) || p->join_sent))
			rionet_dbell_send(port, p, RIONET_DBELL_LEAVE);
		p->join_sent = 0;
		rionet_peer_activate(port, p, false);
	}
	if (port->dbell_claimed) {
		rte_rio_release_inb_dbell(port->mport, RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE);
		port->dbell_claimed = false;
	}
	rionet_link_refresh(port);
	rte_spinlock_unlock(&port->lock);
}
