/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rionet peers: the capable remote endpoints of the port's fabric, their
 * JOIN/LEAVE doorbell handshake, and the link state derived from it.
 *
 * Threads: peers are added and removed by device events (the thread that
 * scans or removes an mport), doorbells are polled by an EAL alarm (period:
 * see rionet_alarm_cb(); so the handshake also runs when no lcore calls
 * rx_burst, e.g. a Tx-only application), start/stop run in the control
 * thread. All of them take port->lock; the Rx/Tx lcores only read the peer
 * map and the active flags through the atomic helpers of rte_eth_rionet.h.
 * A slot keeps its device ID for the life of the port, so an lcore that read
 * a slot number can never send to another device through it.
 *
 * Liveness: a peer that dies sends no LEAVE. The fabric stops answering
 * messages to it (-ETIMEDOUT; rio_sim: once its owner process is gone, see the
 * rio_sim guide), which the Tx path counts per peer. The doorbell alarm
 * compares those counters with their value at the previous tick: a peer whose
 * sends timed out meanwhile is lost (rionet_peer_lost()), as if it had sent
 * LEAVE; its JOIN makes it active again when it comes back. An ERROR answer
 * (e.g. a mailbox the peer did not open) comes from a live peer: counted, the
 * peer stays.
 *
 * A lost peer may be alive (a link flap) and still count us as active, so it
 * would never JOIN again: the alarm sends it JOIN every RIONET_REJOIN_MS
 * while it is present and inactive, RIONET_REJOIN_TRIES times at most (a
 * dead peer JOINs itself when it comes back). So does a peer that returns
 * to the bus while the port runs. A JOIN from a peer that is already
 * active is answered as well (Linux rionet answers only inactive peers), so
 * that such a peer reactivates us, unless we sent it JOIN less than
 * RIONET_JOIN_HOLDOFF_MS before: then it answers ours, and answering it
 * would make the two ends answer each other forever.
 *
 * Mailboxes: every JOIN we send follows a RIONET_DBELL_MBOXES doorbell
 * with the mask of our open inbound mailboxes; a peer's own mask (Linux's
 * is implicit: mailbox 0) is kept in its slot, reset when it LEAVEs or
 * comes to the bus anew, and read by the Tx lcores to pick a mailbox.
 *
 * Link: up while the port is started, the mport's own RapidIO link is up
 * (Port OK of its port) and at least one peer is active (Linux rionet's
 * carrier; in loopback mode the port is its own peer), with an
 * RTE_ETH_EVENT_INTR_LSC callback at every change when the application
 * asked for it (intr_conf.lsc). The callback runs in the EAL interrupt
 * thread from an alarm, never under port->lock. The doorbell alarm
 * and link_update read the local link; while it is down the peers keep
 * their state (nothing was said), and when it is up again the port JOINs
 * every peer on the bus: a peer that lost us meanwhile (its sends got no
 * response) waits for that JOIN, however long the link was down.
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

/* Link status change callbacks, from the interrupt thread. */
static void
rionet_lsc_alarm_cb(void *arg)
{
	struct rionet_port *port = arg;

	rte_eth_dev_callback_process(port->eth_dev, RTE_ETH_EVENT_INTR_LSC, NULL);
}

/* Port OK of the mport's own port; a failed read counts as down. */
static bool
rionet_local_link_read(struct rionet_port *port)
{
	struct rte_rio_mport_info info;

	return rte_rio_mport_info_get(rionet_port_mport(port), &info) == 0 && info.link_up;
}

int
rionet_link_refresh(struct rionet_port *port)
{
	struct rte_eth_dev *dev = port->eth_dev;
	struct rte_eth_link link = {
		.link_speed = RTE_ETH_SPEED_NUM_20G,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
	};
	int ret;

	/* In loopback mode (lpbk_mode=1) frames return to the port itself. */
	link.link_status = port->started && port->local_link_up &&
		(port->loopback || rionet_nb_active(port) > 0) ?
		RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	/* 0 when the status changed, -1 otherwise. */
	ret = rte_eth_linkstatus_set(dev, &link);
	/*
	 * The caller may hold port->lock or the bus lock: the application's
	 * callback runs later, from the interrupt thread. It reads the status
	 * then, so two quick changes may reach it as two events of the last one.
	 */
	if (ret == 0 && dev->data->dev_conf.intr_conf.lsc &&
	    rte_eal_alarm_set(1, rionet_lsc_alarm_cb, port) != 0)
		RIONET_LOG(ERR, "%s: cannot schedule the link status event", port->name);
	return ret;
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

/* Sends to peer slot s that got no response, on every Tx queue (alarm thread). */
static uint64_t
rionet_peer_tx_timeouts(struct rionet_port *port, uint16_t s)
{
	const struct rte_eth_dev_data *data = port->eth_dev->data;
	const struct rionet_tx_queue *txq;
	uint64_t sum = 0;
	uint16_t q;

	for (q = 0; q < data->nb_tx_queues; q++) {
		txq = data->tx_queues[q];
		/* Single writer (the queue's lcore), aligned 64-bit: a torn value is impossible. */
		if (txq != NULL)
			sum += __atomic_load_n(&txq->peer[s].timeouts, __ATOMIC_RELAXED);
	}
	return sum;
}

/* JOIN the peer again from the alarm until it answers. Under lock. */
static void
rionet_peer_rejoin_arm(struct rionet_peer *p)
{
	p->rejoin = RIONET_REJOIN_TRIES;
	p->rejoin_tsc = rte_get_timer_cycles() + rte_get_timer_hz() * RIONET_REJOIN_MS / 1000;
}

/* Deactivate a peer that left without LEAVE. Under lock. */
static void
rionet_peer_lose(struct rionet_port *port, struct rionet_peer *p)
{
	if (!rionet_peer_active(p))
		return;
	rionet_peer_activate(port, p, false);
	p->join_sent = 0;
	rionet_peer_rejoin_arm(p);
	p->lost++;
	port->peers_lost++;
	RIONET_LOG(NOTICE, "%s: peer 0x%x lost (no LEAVE, sends to it get no response)",
		   port->name, p->destid);
	rionet_link_refresh(port);
}

/* Send a doorbell, retrying while the peer answers RETRY. Under lock. */
static int
rionet_dbell_ring(struct rionet_port *port, struct rionet_peer *p, uint16_t info)
{
	int ret = -EAGAIN;
	int i;

	for (i = 0; i < RIONET_DBELL_TRIES && ret == -EAGAIN; i++) {
		if (i > 0)
			rte_delay_us_block(10);
		ret = rte_rio_send_doorbell(rionet_port_mport(port), p->destid, info);
	}
	if (ret < 0)
		port->dbell_tx_errors++;
	else
		port->dbell_tx++;
	return ret;
}

/*
 * Send a JOIN or LEAVE doorbell. A JOIN follows the mailboxes the port
 * receives on (RIONET_DBELL_MBOXES), so that the peer knows them by the
 * time it activates us; doorbells from one source to one target arrive in
 * order. Under lock.
 */
static int
rionet_dbell_send(struct rionet_port *port, struct rionet_peer *p, uint16_t info)
{
	int ret;

	if (info == RIONET_DBELL_JOIN && port->in_mbox_open != 0)
		rionet_dbell_ring(port, p, RIONET_DBELL_MBOXES | port->in_mbox_open);
	ret = rionet_dbell_ring(port, p, info);
	if (ret < 0)
		return ret;
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

/*
 * Follow the mport's own link: at a change, log it and refresh the link
 * status; when it comes up on a started port, JOIN every peer on the bus
 * (again every RIONET_REJOIN_MS until an inactive one answers). Under lock.
 */
void
rionet_local_link_check(struct rionet_port *port)
{
	bool up = rionet_local_link_read(port);
	struct rionet_peer *p;
	uint16_t i;

	if (up == port->local_link_up)
		return;
	port->local_link_up = up;
	RIONET_LOG(NOTICE, "%s: RapidIO link of the mport %s", port->name, up ? "up" : "down");
	for (i = 0; up && port->started && i < port->nb_peers; i++) {
		p = &port->peers[i];
		if (!p->present)
			continue;
		if (rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
			p->join_sent = 1;
		if (!rionet_peer_active(p))
			rionet_peer_rejoin_arm(p);
	}
	rionet_link_refresh(port);
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

	if (dev->mport != rionet_port_mport(port) || dev->local ||
	    dev->type != RTE_RIO_DEV_ENDPOINT || dev->destid >= port->max_destids ||
	    dev->destid == port->destid)
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
		/* A device new on the bus says again which mailboxes it takes. */
		if (!p->present)
			rionet_peer_set_mbox_mask(p, RIONET_LINUX_MBOXES);
		p->present = 1;
		rionet_map_set(port, p->destid, (uint16_t)(p - port->peers) + 1);
		if (port->started && rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
			p->join_sent = 1;
		/* It may hold us active and ignore that JOIN (hold-off): repeat it. */
		if (port->started && !rionet_peer_active(p))
			rionet_peer_rejoin_arm(p);
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
		p->rejoin = 0;
		rionet_peer_activate(port, p, false);
		rionet_map_set(port, p->destid, 0);
	}
	rionet_link_refresh(port);
out:
	rte_spinlock_unlock(&port->lock);
}

/* Inbound JOIN/LEAVE/MBOXES, from rte_rio_dbell_poll() in the alarm thread. */
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
			/* Errors before it came back do not count against it. */
			p->tx_timeouts_seen = rionet_peer_tx_timeouts(port,
								  (uint16_t)(p - port->peers));
			p->rejoin = 0;
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
		p->rejoin = 0;
		rionet_peer_activate(port, p, false);
		/* Whatever JOINs from there next says its mailboxes first, or has one. */
		rionet_peer_set_mbox_mask(p, RIONET_LINUX_MBOXES);
	} else if (db->info >= RIONET_DBELL_MBOXES && db->info <= RIONET_DBELL_MBOXES_LAST) {
		rionet_peer_set_mbox_mask(p, db->info & (RIONET_DBELL_MBOXES_LAST -
							 RIONET_DBELL_MBOXES));
	}
	rionet_link_refresh(port);
out:
	rte_spinlock_unlock(&port->lock);
}

/*
 * Mark peer @destid inactive as if it had sent LEAVE (it died, or its link
 * is gone); it becomes active again with its next JOIN. Counted in the
 * peers_lost and peer_<destid>_lost xstats when it was active.
 * @return 0, or -ENOENT when destid is not a peer of the port.
 */
int
rionet_peer_lost(struct rionet_port *port, uint16_t destid)
{
	struct rionet_peer *p;
	int ret = 0;

	rte_spinlock_lock(&port->lock);
	p = rionet_peer_lookup(port, destid);
	if (p == NULL)
		ret = -ENOENT;
	else
		rionet_peer_lose(port, p);
	rte_spinlock_unlock(&port->lock);
	return ret;
}

/*
 * Peers whose sends timed out since the last tick are lost; lost peers that
 * are still on the bus are sent JOIN again every RIONET_REJOIN_MS. Under lock.
 * @return true while a peer on the bus is not active (a handshake may be
 * under way).
 */
static bool
rionet_liveness_check(struct rionet_port *port)
{
	bool joining = false;
	uint64_t now = rte_get_timer_cycles();
	struct rionet_peer *p;
	uint64_t timeouts;
	uint16_t s;

	for (s = 0; s < port->nb_peers; s++) {
		p = &port->peers[s];
		timeouts = rionet_peer_tx_timeouts(port, s);
		/* Lower after a stats reset: only growth counts. */
		if (timeouts > p->tx_timeouts_seen && rionet_peer_active(p))
			rionet_peer_lose(port, p);
		p->tx_timeouts_seen = timeouts;
		if (p->rejoin > 0 && p->present && !rionet_peer_active(p) &&
		    now >= p->rejoin_tsc) {
			p->rejoin--;
			p->rejoin_tsc = now + rte_get_timer_hz() * RIONET_REJOIN_MS / 1000;
			if (rionet_dbell_send(port, p, RIONET_DBELL_JOIN) == 0)
				p->join_sent = 1;
		}
		joining |= p->present && !rionet_peer_active(p);
	}
	return joining;
}

/*
 * The doorbell poll: every RIONET_DBELL_PERIOD_US while doorbells arrive or
 * a peer on the bus is not active, every RIONET_DBELL_IDLE_PERIOD_US once
 * every peer is settled. Each tick wakes the EAL interrupt thread, which
 * preempts whatever lcore shares its core.
 */
static void
rionet_alarm_cb(void *arg)
{
	struct rionet_port *port = arg;
	bool again, busy;

	busy = rte_rio_dbell_poll(rionet_port_mport(port), 256) > 0;
	rte_spinlock_lock(&port->lock);
	again = port->started;
	if (again) {
		rionet_local_link_check(port);
		busy |= rionet_liveness_check(port);
	}
	rte_spinlock_unlock(&port->lock);
	if (again && rte_eal_alarm_set(busy ? RIONET_DBELL_PERIOD_US : RIONET_DBELL_IDLE_PERIOD_US,
				       rionet_alarm_cb, port) != 0)
		RIONET_LOG(ERR, "%s: cannot re-arm the doorbell poll", port->name);
}

/*
 * The port's own endpoint was published while its agent waited for a host
 * (rio_sim does so): now the host assigned its device ID, hence its MAC.
 */
static void
rionet_local_update(struct rionet_port *port, struct rte_rio_device *dev)
{
	struct rte_eth_dev_data *data = port->data;
	struct rte_ether_addr old = port->mac;

	rte_spinlock_lock(&port->lock);
	if (dev->destid != port->destid && dev->destid < port->max_destids) {
		port->destid = dev->destid;
		rionet_mac_from_destid(port->destid, &port->mac);
		/* Unless the application set another address. */
		if (rte_is_same_ether_addr(&data->mac_addrs[0], &old))
			rte_ether_addr_copy(&port->mac, &data->mac_addrs[0]);
		RIONET_LOG(NOTICE, "%s: device ID 0x%x from the host, MAC " RTE_ETHER_ADDR_PRT_FMT,
			   port->name, port->destid, RTE_ETHER_ADDR_BYTES(&port->mac));
	}
	rte_spinlock_unlock(&port->lock);
}

/* Bus events, called with the bus lock held (see bus_rio_driver.h). */
static void
rionet_bus_event_cb(struct rte_rio_device *dev, enum rte_rio_bus_event event, void *arg)
{
	struct rionet_port *port = arg;

	if (event == RTE_RIO_BUS_EVENT_UPDATE) {
		if (dev == port->rdev)
			rionet_local_update(port, dev);
		return;
	}
	rionet_peer_event(port, dev, event == RTE_RIO_BUS_EVENT_ADD);
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
	ret = rte_rio_device_callback_register(rionet_bus_event_cb, port);
	if (ret < 0) {
		rte_free(port->peer_map);
		port->peer_map = NULL;
	}
	return ret;
}

void
rionet_peers_fini(struct rionet_port *port)
{
	rte_rio_device_callback_unregister(rionet_bus_event_cb, port);
	/* A link change of the last stop may still be pending. */
	rte_eal_alarm_cancel(rionet_lsc_alarm_cb, port);
	rte_free(port->peer_map);
	port->peer_map = NULL;
}

int
rionet_peers_start(struct rionet_port *port)
{
	struct rionet_peer *p;
	uint16_t i;
	int ret;

	ret = rte_rio_request_inb_dbell(rionet_port_mport(port), RIONET_DBELL_JOIN,
					RIONET_DBELL_LEAVE, rionet_dbell_cb, port);
	if (ret < 0) {
		RIONET_LOG(ERR, "%s: doorbells 0x%x-0x%x are taken (%d)", port->name,
			   RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE, ret);
		return ret;
	}
	ret = rte_rio_request_inb_dbell(rionet_port_mport(port), RIONET_DBELL_MBOXES,
					RIONET_DBELL_MBOXES_LAST, rionet_dbell_cb, port);
	if (ret < 0) {
		RIONET_LOG(ERR, "%s: doorbells 0x%x-0x%x are taken (%d)", port->name,
			   RIONET_DBELL_MBOXES, RIONET_DBELL_MBOXES_LAST, ret);
		rte_rio_release_inb_dbell(rionet_port_mport(port), RIONET_DBELL_JOIN,
					  RIONET_DBELL_LEAVE);
		return ret;
	}
	rte_spinlock_lock(&port->lock);
	port->dbell_claimed = true;
	port->started = true;
	port->local_link_up = rionet_local_link_read(port);
	for (i = 0; i < port->nb_peers; i++) {
		p = &port->peers[i];
		p->tx_timeouts_seen = rionet_peer_tx_timeouts(port, i);
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
		p->rejoin = 0;
		rionet_peer_activate(port, p, false);
	}
	if (port->dbell_claimed) {
		rte_rio_release_inb_dbell(rionet_port_mport(port), RIONET_DBELL_JOIN,
					  RIONET_DBELL_LEAVE);
		rte_rio_release_inb_dbell(rionet_port_mport(port), RIONET_DBELL_MBOXES,
					  RIONET_DBELL_MBOXES_LAST);
		port->dbell_claimed = false;
	}
	rionet_link_refresh(port);
	rte_spinlock_unlock(&port->lock);
}
