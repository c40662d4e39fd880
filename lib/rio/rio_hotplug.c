/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Host hot-plug: port-write handling of an enumerated host mport.
 *
 * Switches send an error-management port-write to their port-write target
 * (the host, programmed at enumeration) when a port's link changes. The host
 * polls them (an EAL alarm every pw_period_us, or rte_rio_pw_poll()) and,
 * as Linux rio_inb_pwrite_handler() does (reference section 4.7), finds the
 * reporter by component tag and reads the port's Error/Status and EM Port
 * Error Detect CSRs:
 *  - the link was OK and went down (Port OK clear, or "OK to uninitialized"
 *    latched): the port is locked out, its outstanding ackIDs are cleared
 *    (as Linux does on extraction), and every device no longer reachable
 *    from the mport (walking the known links) is removed, deepest first, with
 *    REMOVE events; their device IDs and tags are kept on the port;
 *  - the port is OK and was not (or went down meanwhile): the link is
 *    recovered as the specification's software-assisted error recovery
 *    does (Part 6; Linux rio_clr_err_stopped()): a link-request/input-status
 *    asks the link partner which ackID it expects next, and the port's
 *    outbound and outstanding ackIDs are aligned with it, and the partner's
 *    outbound ackID with the port's inbound one; then the lockout is
 *    cleared, the port enabled, and the subtree behind it enumerated again
 *    with the enumeration code (rio_enum_subtree), taking the kept IDs and
 *    tags back, and the new devices are announced with ADD events;
 * then the CSRs are cleared (EM detect, L/T detect, W1C Error/Status bits
 * including Port-write Pending, which a failed insertion leaves set: parts
 * repeat a port-write while it is pending, and the insertion is tried again).
 *
 * Everything runs under the device-list lock, so lookups and events of
 * other threads see the view before or after a change, never during it.
 * Routes of removed IDs stay in place (traffic to them fails at the dead
 * link, counted by the sender) until their subtree returns.
 * Only the host handles port-writes: agents keep the view they discovered.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "rio_scan_private.h"

/* Port-writes fetched per driver call. */
#define RIO_HP_BURST	16
/* Port-writes one alarm handles at most. */
#define RIO_HP_ALARM_BUDGET	64
/* Link-response polls after a link-request, and their interval (Linux: 3, 50 us). */
#define RIO_HP_LINK_RSP_TRIES	3
#define RIO_HP_LINK_RSP_US	50

/* Scan data of an enumerated host mport, or NULL. List lock held. */
static struct rio_scan_data *
rio_hp_data(const struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd = mport->lib->scan_data;

	if (sd == NULL || !sd->scanned || !sd->enumerated)
		return NULL;
	return sd;
}

/* Switch with component tag @tag (the reporter), or NULL. */
static struct rte_rio_dev *
rio_hp_reporter(struct rio_scan_data *sd, uint32_t tag)
{
	struct rte_rio_dev *dev;

	TAILQ_FOREACH(dev, &sd->devs, next)
		if ((dev->info.comptag & RTE_RIO_CTAG_UDEVID) == tag)
			return dev->info.type == RTE_RIO_DEV_SWITCH ? dev : NULL;
	return NULL;
}

static void
rio_hp_range_add(int32_t *lo, int32_t *hi, int32_t a, int32_t b)
{
	if (a < 0)
		return;
	if (*lo < 0 || a < *lo)
		*lo = a;
	if (*hi < b)
		*hi = b;
}

/*
 * Port n Control of @sw's @port for a link that went down (@up false: Port
 * Lockout, with an EM block as Linux does) or came back (lockout cleared,
 * input and output enabled, as enumeration leaves a live port).
 */
static int
rio_hp_port_ctl(struct rte_rio_dev *sw, uint8_t port, bool up)
{
	uint32_t off = sw->info.phys_efptr + RTE_RIO_PORT_N_CTL_CSR(port, sw->info.phys_rmap);
	uint32_t lockout = sw->info.em_efptr != 0 ? RTE_RIO_PORT_N_CTL_LOCKOUT : 0;
	uint32_t ctl, want;
	int ret;

	ret = rte_rio_dev_read_config_32(sw, off, &ctl);
	if (ret < 0)
		return ret;
	if (up)
		want = (ctl & ~lockout) | RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX;
	else
		want = ctl | lockout;
	if (want == ctl)
		return 0;
	return rte_rio_dev_write_config_32(sw, off, want);
}

/* Does the LP-Serial block have the link maintenance and ackID CSRs (SW-assisted recovery)? */
static bool
rio_hp_sw_recovery(uint16_t efb_id)
{
	switch (efb_id) {
	case RTE_RIO_EFB_SER_EP_SW_M1_ID:
	case RTE_RIO_EFB_SER_EP_REC_ID:
	case RTE_RIO_EFB_SER_EPF_SW_M1_ID:
	case RTE_RIO_EFB_SER_EP_SW_M2_ID:
	case RTE_RIO_EFB_SER_EPF_SW_M2_ID:
		return true;
	default:
		return false;
	}
}

/* Link down: no packet is outstanding on it any more (Linux does the same). */
static int
rio_hp_ackid_clear(struct rte_rio_dev *sw, uint8_t port)
{
	uint32_t phys = sw->info.phys_efptr;
	int ret;

	if (!rio_hp_sw_recovery(sw->phys_efb_id))
		return 0;
	if (sw->info.phys_rmap == 1)
		return rte_rio_dev_write_config_32(sw, phys + RTE_RIO_PORT_N_ACK_STS_CSR(port),
						   RTE_RIO_PORT_N_ACK_CLEAR);
	ret = rte_rio_dev_write_config_32(sw, phys + RTE_RIO_PORT_N_OB_ACK_CSR(port),
					  RTE_RIO_PORT_N_OB_ACK_CLEAR);
	if (ret == 0)
		ret = rte_rio_dev_write_config_32(sw, phys + RTE_RIO_PORT_N_IB_ACK_CSR(port), 0);
	return ret;
}

/*
 * The link came back: before anything is sent over it, ask the link partner
 * with a link-request/input-status control symbol which ackID it expects
 * next (Port n Link Maintenance Request/Response CSRs) and align the port's
 * outbound and outstanding ackIDs with it (Local ackID CSR, or the outbound
 * ackID CSR with register map II), so the first packet is not refused for a
 * stale ackID. The other direction cannot be checked from this end: the
 * partner's outbound ackID must follow this port's inbound one, and nothing
 * tells whether it does (this end moving or not says nothing about it: only
 * the partner's inbound ackID is seen), while a response sent with a stale
 * one stops the link until software realigns it. So whenever the partner is
 * known, @w gets the writes that set it (@nw of them, 0 when the partner is
 * not known), done when the partner is reachable (rio_enum_subtree_fix()).
 * Linux rio_clr_err_stopped() writes the partner only when this end moved,
 * and stays stopped when only the partner's outbound ackID is off. Parts
 * without software-assisted recovery registers recover by themselves.
 */
static int
rio_hp_link_recover(struct rte_rio_mport *mport, struct rte_rio_dev *sw, uint8_t port,
		    struct rio_partner_write *w, unsigned int *nw)
{
	struct rio_link_partner *lp = &sw->hp_partner[port];
	uint32_t phys = sw->info.phys_efptr, rsp = 0, v, far, near_in, m;
	uint8_t rmap = sw->info.phys_rmap;
	bool moved = false;
	unsigned int i;
	int ret;

	*nw = 0;
	if (!rio_hp_sw_recovery(sw->phys_efb_id))
		return 0;
	/* A response of an earlier request must not be taken for ours: reading clears it. */
	ret = rte_rio_dev_read_config_32(sw, phys + RTE_RIO_PORT_N_MNT_RSP_CSR(port, rmap), &v);
	if (ret == 0)
		ret = rte_rio_dev_write_config_32(sw, phys + RTE_RIO_PORT_N_MNT_REQ_CSR(port, rmap),
						  RTE_RIO_MNT_REQ_CMD_IS);
	for (i = 0; ret == 0 && i < RIO_HP_LINK_RSP_TRIES; i++) {
		rte_delay_us_sleep(RIO_HP_LINK_RSP_US);
		ret = rte_rio_dev_read_config_32(sw, phys + RTE_RIO_PORT_N_MNT_RSP_CSR(port, rmap),
						 &rsp);
		if (ret == 0 && (rsp & RTE_RIO_PORT_N_MNT_RSP_RVAL))
			break;
	}
	if (ret < 0)
		return ret;
	if (!(rsp & RTE_RIO_PORT_N_MNT_RSP_RVAL)) {
		RIO_LOG(WARNING, "%s: %s port %u: no link-response to input-status", mport->name,
			sw->info.name, port);
		return -EIO;
	}
	/* 6-bit ackIDs with register map I (control symbol 48), 12-bit with map II. */
	m = rmap == 1 ? 0x3f : 0xfff;
	far = (rsp >> 5) & m;
	if (rmap == 1) {
		ret = rte_rio_dev_read_config_32(sw, phys + RTE_RIO_PORT_N_ACK_STS_CSR(port), &v);
		near_in = (v & RTE_RIO_PORT_N_ACK_INBOUND) >> 24;
		if (ret == 0 && (((v & RTE_RIO_PORT_N_ACK_OUTSTAND) >> 8) != far ||
				 (v & RTE_RIO_PORT_N_ACK_OUTBOUND) != far)) {
			ret = rte_rio_dev_write_config_32(sw,
				phys + RTE_RIO_PORT_N_ACK_STS_CSR(port),
				(v & RTE_RIO_PORT_N_ACK_INBOUND) | (far << 8) | far);
			moved = true;
		}
	} else {
		ret = rte_rio_dev_read_config_32(sw, phys + RTE_RIO_PORT_N_OB_ACK_CSR(port), &v);
		if (ret == 0)
			ret = rte_rio_dev_read_config_32(sw, phys + RTE_RIO_PORT_N_IB_ACK_CSR(port),
							 &near_in);
		near_in &= RTE_RIO_PORT_N_IB_ACK_INBND;
		if (ret == 0 && (((v & RTE_RIO_PORT_N_OB_ACK_OUTSTD) >> 12) != far ||
				 (v & RTE_RIO_PORT_N_OB_ACK_OUTBND) != far)) {
			ret = rte_rio_dev_write_config_32(sw,
				phys + RTE_RIO_PORT_N_OB_ACK_CSR(port), (far << 12) | far);
			moved = true;
		}
	}
	if (ret < 0)
		return ret;
	if (moved)
		RIO_LOG(NOTICE, "%s: %s port %u: outbound ackID aligned to 0x%x", mport->name,
			sw->info.name, port, far);
	if (!lp->valid || !rio_hp_sw_recovery(lp->efb_id))
		return 0;
	/*
	 * The partner's outbound ackID to our inbound one. The write itself
	 * uses ackID @far: a map I partner expects the next one after it. Its
	 * response may meet an output the partner stopped on an earlier
	 * mismatch: its own input-status request (link-request to us) restarts
	 * it, and that write's response must come back.
	 */
	if (lp->rmap == 1) {
		w[0].offset = lp->phys_efptr + RTE_RIO_PORT_N_ACK_STS_CSR(lp->port);
		w[0].value = (((far + 1) & 0x3f) << 24) | ((near_in & 0x3f) << 8) |
			(near_in & 0x3f);
	} else {
		w[0].offset = lp->phys_efptr + RTE_RIO_PORT_N_OB_ACK_CSR(lp->port);
		w[0].value = ((near_in & 0xfff) << 12) | (near_in & 0xfff);
	}
	w[0].answered = false;
	w[1].offset = lp->phys_efptr + RTE_RIO_PORT_N_MNT_REQ_CSR(lp->port, lp->rmap);
	w[1].value = RTE_RIO_MNT_REQ_CMD_IS;
	w[1].answered = true;
	*nw = 2;
	return 0;
}

/* Mark every device reachable from the local endpoint over known links. */
static int
rio_hp_mark_reachable(struct rio_scan_data *sd)
{
	struct rte_rio_dev **stack, *dev, *local = TAILQ_FIRST(&sd->devs);
	unsigned int top = 0, p;

	stack = malloc(sizeof(*stack) * (sd->ndevs + 1));
	if (stack == NULL)
		return -ENOMEM;
	TAILQ_FOREACH(dev, &sd->devs, next)
		dev->hp_reach = false;
	local->hp_reach = true;
	stack[top++] = local;
	while (top > 0) {
		dev = stack[--top];
		for (p = 0; p < RTE_RIO_MAX_SWITCH_PORTS; p++) {
			struct rte_rio_dev *n = dev->peer[p];

			/* Each device is pushed once: at most ndevs entries. */
			if (n == NULL || n->hp_reach)
				continue;
			n->hp_reach = true;
			stack[top++] = n;
		}
	}
	free(stack);
	return 0;
}

/* The link behind @sw's @port is gone: remove what it isolated. */
static void
rio_hp_extract(struct rte_rio_mport *mport, struct rio_scan_data *sd, struct rte_rio_dev *sw,
	       uint8_t port)
{
	struct rte_rio_dev *peer = sw->peer[port], *dev, *prev;
	unsigned int p, removed = 0;
	int ret;

	sd->hp_stats.link_down++;
	sw->port_ok &= ~(1u << port);
	ret = rio_hp_port_ctl(sw, port, false);
	if (ret == 0)
		ret = rio_hp_ackid_clear(sw, port);
	if (ret < 0)
		RIO_LOG(WARNING, "%s: cannot lock out %s port %u (%d)", mport->name,
			sw->info.name, port, ret);
	if (peer == NULL)
		return;
	/* Where the partner keeps its ackIDs, should it come back as it was. */
	sw->hp_partner[port] = (struct rio_link_partner){
		.phys_efptr = peer->info.phys_efptr, .efb_id = peer->phys_efb_id,
		.rmap = peer->info.phys_rmap, .port = sw->peer_port[port],
		.valid = peer->info.phys_efptr != 0,
	};
	sw->peer[port] = NULL;
	sw->redundant &= ~(1u << port);
	if (peer->peer[sw->peer_port[port]] == sw) {
		peer->peer[sw->peer_port[port]] = NULL;
		peer->redundant &= ~(1u << sw->peer_port[port]);
	}
	if (rio_hp_mark_reachable(sd) < 0) {
		RIO_LOG(ERR, "%s: no memory to find the devices behind %s port %u",
			mport->name, sw->info.name, port);
		return;
	}

	/* Deepest first: the list is in enumeration (DFS) order. */
	TAILQ_FOREACH_REVERSE(dev, &sd->devs, rio_dev_list, next) {
		if (dev->hp_reach)
			continue;
		rio_dev_event_emit(dev, RTE_RIO_DEV_EVENT_REMOVE);
		rio_hp_range_add(&sw->hp_id_lo[port], &sw->hp_id_hi[port], dev->info.destid,
				 dev->info.destid);
		rio_hp_range_add(&sw->hp_tag_lo[port], &sw->hp_tag_hi[port],
				 (int32_t)dev->info.comptag, (int32_t)dev->info.comptag);
		/* Ranges it kept for its own dead ports are the subtree's too. */
		for (p = 0; p < RTE_RIO_MAX_SWITCH_PORTS; p++) {
			rio_hp_range_add(&sw->hp_id_lo[port], &sw->hp_id_hi[port],
					 dev->hp_id_lo[p], dev->hp_id_hi[p]);
			rio_hp_range_add(&sw->hp_tag_lo[port], &sw->hp_tag_hi[port],
					 dev->hp_tag_lo[p], dev->hp_tag_hi[p]);
		}
	}
	for (dev = TAILQ_FIRST(&sd->devs); dev != NULL; dev = prev) {
		prev = TAILQ_NEXT(dev, next);
		if (dev->hp_reach)
			continue;
		for (p = 0; p < RTE_RIO_MAX_SWITCH_PORTS; p++) {
			struct rte_rio_dev *n = dev->peer[p];

			if (n != NULL && n->hp_reach && n->peer[dev->peer_port[p]] == dev)
				n->peer[dev->peer_port[p]] = NULL;
		}
		TAILQ_REMOVE(&sd->devs, dev, next);
		sd->ndevs--;
		rio_dev_free(dev);
		removed++;
	}
	sd->hp_stats.dev_removed += removed;
	RIO_LOG(NOTICE, "%s: link %s port %u down, %u devices removed", mport->name,
		sw->info.name, port, removed);
}

/* @sw's @port is up: enumerate what is behind it and announce it. false: to try again. */
static bool
rio_hp_insert(struct rte_rio_mport *mport, struct rio_scan_data *sd, struct rte_rio_dev *sw,
	      uint8_t port)
{
	struct rte_rio_dev *first = NULL, *dev;
	struct rio_partner_write pw[2];
	unsigned int npw;
	int ret, n;

	sd->hp_stats.link_up++;
	ret = rio_hp_link_recover(mport, sw, port, pw, &npw);
	if (ret == 0)
		ret = rio_hp_port_ctl(sw, port, true);
	if (ret < 0) {
		/* Not OK in our view: the next port-write of this port tries again. */
		RIO_LOG(ERR, "%s: cannot bring %s port %u back (%d)", mport->name,
			sw->info.name, port, ret);
		sd->hp_stats.enum_errors++;
		return false;
	}
	sw->port_ok |= 1u << port;
	if (sw->peer[port] != NULL)
		return true; /* still known (a redundant link came back) */
	n = rio_enum_subtree_fix(mport, sw, port, pw, npw, &first);
	if (n <= 0) {
		/* Not OK in our view: the next port-write of this port tries again. */
		sw->port_ok &= ~(1u << port);
		sd->hp_stats.enum_errors++;
		RIO_LOG(ERR, "%s: cannot enumerate behind %s port %u (%s)", mport->name,
			sw->info.name, port, n < 0 ? strerror(-n) : "nothing answered");
		return false;
	}
	sw->hp_partner[port].valid = false;
	for (dev = first; dev != NULL; dev = TAILQ_NEXT(dev, next))
		rio_dev_event_emit(dev, RTE_RIO_DEV_EVENT_ADD);
	sd->hp_stats.dev_added += n;
	RIO_LOG(NOTICE, "%s: link %s port %u up, %d devices added", mport->name,
		sw->info.name, port, n);
	return true;
}

/* One port-write. List lock held. */
static void
rio_hp_handle(struct rte_rio_mport *mport, struct rio_scan_data *sd,
	      const struct rte_rio_pw_msg *pw)
{
	struct rte_rio_dev *sw;
	uint8_t port = pw->em.is_port & 0xff;
	uint32_t sts_off, sts, det = 0, ack = RTE_RIO_PORT_N_ERR_STS_W1C;
	bool was_ok, now_ok, went_down;
	int ret;

	sd->hp_stats.pw_rx++;
	sw = rio_hp_reporter(sd, pw->em.comptag & RTE_RIO_CTAG_UDEVID);
	if (sw == NULL || port >= sw->info.nports || sw->info.phys_efptr == 0) {
		sd->hp_stats.pw_unknown++;
		RIO_LOG(DEBUG, "%s: port-write of unknown reporter 0x%x port %u", mport->name,
			pw->em.comptag, port);
		return;
	}
	sts_off = sw->info.phys_efptr + RTE_RIO_PORT_N_ERR_STS_CSR(port, sw->info.phys_rmap);
	ret = rte_rio_dev_read_config_32(sw, sts_off, &sts);
	if (ret == 0 && sw->info.em_efptr != 0)
		ret = rte_rio_dev_read_config_32(sw, sw->info.em_efptr +
						 RTE_RIO_EM_PN_ERR_DETECT(port), &det);
	if (ret < 0) {
		sd->hp_stats.pw_errors++;
		RIO_LOG(WARNING, "%s: %s does not answer (%d)", mport->name, sw->info.name, ret);
		return;
	}
	now_ok = (sts & RTE_RIO_PORT_N_ERR_STS_PORT_OK) != 0;
	was_ok = (sw->port_ok & (1u << port)) != 0;
	/* Down and up again before we looked: the devices behind may have been reset. */
	went_down = !now_ok || (det & RTE_RIO_EM_PED_LINK_OK2U) != 0;
	if (port != sw->info.sw_inport) {
		if (was_ok && went_down)
			rio_hp_extract(mport, sd, sw, port);
		/* Port-write Pending stays set: a part that repeats it makes us try again. */
		if (now_ok && (!was_ok || went_down) && !rio_hp_insert(mport, sd, sw, port))
			ack &= ~RTE_RIO_PORT_N_ERR_STS_PW_PEND;
	}
	/* Acknowledge: clear what was latched, then Port-write Pending (W1C). */
	if (sw->info.em_efptr != 0) {
		rte_rio_dev_write_config_32(sw, sw->info.em_efptr +
					    RTE_RIO_EM_PN_ERR_DETECT(port), 0);
		rte_rio_dev_write_config_32(sw, sw->info.em_efptr + RTE_RIO_EM_LTL_ERR_DETECT, 0);
	}
	rte_rio_dev_write_config_32(sw, sts_off, sts & ack);
}

/* Fetch and handle up to @max port-writes. List lock held. */
static int
rio_hp_poll(struct rte_rio_mport *mport, struct rio_scan_data *sd, unsigned int max)
{
	struct rte_rio_pw_msg pw[RIO_HP_BURST];
	unsigned int done = 0;
	int n, i;

	while (done < max) {
		n = rte_rio_pw_fetch(mport, pw, RTE_MIN(max - done, (unsigned int)RIO_HP_BURST));
		if (n <= 0)
			return done > 0 || n == 0 ? (int)done : n;
		for (i = 0; i < n; i++)
			rio_hp_handle(mport, sd, &pw[i]);
		done += n;
	}
	return (int)done;
}

static void rio_hp_alarm(void *arg);

/* Arm the poll alarm. List lock held. */
static int
rio_hp_arm(struct rte_rio_mport *mport, struct rio_scan_data *sd)
{
	int ret;

	ret = rte_eal_alarm_set(sd->pw_period_us, rio_hp_alarm, mport);
	sd->pw_armed = ret == 0;
	if (ret < 0)
		RIO_LOG(ERR, "%s: cannot arm the port-write poll (%d)", mport->name, ret);
	return ret;
}

static void
rio_hp_alarm(void *arg)
{
	struct rte_rio_mport *mport = arg;
	struct rio_scan_data *sd;

	rio_dev_list_lock();
	sd = rio_hp_data(mport);
	if (sd != NULL && sd->pw_armed) {
		sd->pw_armed = false;
		rio_hp_poll(mport, sd, RIO_HP_ALARM_BUDGET);
		/* Stopped meanwhile (period 0): do not re-arm. */
		if (sd->pw_period_us != 0)
			rio_hp_arm(mport, sd);
	}
	rio_dev_list_unlock();
}

void
rio_hotplug_start(struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;

	if (mport->ops->pw_fetch == NULL)
		return;
	rio_dev_list_lock();
	sd = rio_hp_data(mport);
	if (sd != NULL && !sd->pw_armed) {
		sd->pw_period_us = RTE_RIO_PW_POLL_PERIOD_US;
		rio_hp_arm(mport, sd);
	}
	rio_dev_list_unlock();
}

void
rio_hotplug_stop(struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;
	bool armed = false;

	rio_dev_list_lock();
	sd = mport->lib->scan_data;
	if (sd != NULL && sd->scanned) {
		sd->pw_period_us = 0;
		armed = sd->pw_armed;
		sd->pw_armed = false;
	}
	rio_dev_list_unlock();
	/* Outside the lock: cancel waits for a running callback, which takes it. */
	if (armed)
		rte_eal_alarm_cancel(rio_hp_alarm, mport);
}

int
rte_rio_pw_poll(struct rte_rio_mport *mport, unsigned int max)
{
	struct rio_scan_data *sd;
	int ret;

	if (mport == NULL)
		return -EINVAL;
	if (mport->ops->pw_fetch == NULL)
		return -ENOTSUP;
	rio_dev_list_lock();
	sd = rio_hp_data(mport);
	ret = sd == NULL ? -ENODEV : rio_hp_poll(mport, sd, max);
	rio_dev_list_unlock();
	return ret;
}

int
rte_rio_pw_poll_period_set(struct rte_rio_mport *mport, unsigned int period_us)
{
	struct rio_scan_data *sd;
	bool cancel = false;
	int ret = 0;

	if (mport == NULL)
		return -EINVAL;
	if (mport->ops->pw_fetch == NULL)
		return -ENOTSUP;
	rio_dev_list_lock();
	sd = rio_hp_data(mport);
	if (sd == NULL) {
		ret = -ENODEV;
	} else {
		sd->pw_period_us = period_us;
		if (period_us == 0) {
			cancel = sd->pw_armed;
			sd->pw_armed = false;
		} else if (!sd->pw_armed) {
			ret = rio_hp_arm(mport, sd);
		}
	}
	rio_dev_list_unlock();
	if (cancel)
		rte_eal_alarm_cancel(rio_hp_alarm, mport);
	return ret;
}

int
rte_rio_hotplug_stats_get(const struct rte_rio_mport *mport, struct rte_rio_hotplug_stats *stats)
{
	struct rio_scan_data *sd;
	int ret = 0;

	if (mport == NULL || stats == NULL)
		return -EINVAL;
	rio_dev_list_lock();
	sd = rio_hp_data(mport);
	if (sd == NULL)
		ret = -ENODEV;
	else
		*stats = sd->hp_stats;
	rio_dev_list_unlock();
	return ret;
}
