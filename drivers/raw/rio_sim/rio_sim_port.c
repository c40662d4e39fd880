/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Links and port events of the emulated fabric: a link going up or down, a
 * port whose Port OK state changes, a link-level error. A switch with an
 * error-management block latches the event and sends its port-write; the
 * endpoint layer, above this one, registers how a port-write reaches its
 * target (sim_port_write_handler_set()), so that events raised below it
 * (config writes, the fabric-management API) never call up into it.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "rio_sim_fabric.h"

static sim_port_write_handler_t port_pw_handler;

void
sim_port_write_handler_set(sim_port_write_handler_t handler)
{
	port_pw_handler = handler;
}

static void
port_pw_send(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, const uint32_t *payload,
	     uint32_t len)
{
	if (port_pw_handler != NULL)
		port_pw_handler(f, src_dev, destid, payload, len);
}

/* Port-write target device ID from EM+0x28, or -1 when unset. */
static int
port_pw_target(const struct sim_fabric *f, uint32_t v)
{
	uint32_t id;

	if (v & RTE_RIO_EM_PW_TGT_DEVID_DEV16)
		id = ((v >> 24) << 8) | ((v >> 16) & 0xff);
	else
		id = (v >> 16) & 0xff;
	if (f->devid_size == 8 && (v & RTE_RIO_EM_PW_TGT_DEVID_DEV16))
		return -1;
	if (id == RTE_RIO_ANY_DESTID(f->devid_size))
		return -1;
	return (int)id;
}

/*
 * May switch @d send a port-write for @port's event (now OK or not)?
 * The error-management block's transmission disable and the port's
 * Port-write Disable stop it; the rxs2448 also needs its port's PW_EN for
 * the event (link initialized, OK to uninitialized).
 */
static bool
port_pw_enabled(const struct sim_shm_device *d, uint8_t port, bool now_ok)
{
	int slot;

	if ((d->em_pw_tx_ctrl & RTE_RIO_EM_PW_TX_CTRL_PW_DIS) ||
	    (d->ports[port].err_sts & RTE_RIO_PORT_N_ERR_STS_PW_DIS))
		return false;
	if (d->model != SIM_MODEL_RXS2448)
		return true;
	slot = sim_impl_slot(d->model, SIM_RXS_PLM_PW_EN(port));
	return slot >= 0 && (d->impl[slot] & (now_ok ? SIM_RXS_PW_EN_LINIT : SIM_RXS_PW_EN_OK2U));
}

/*
 * The error-management port-write of (@d, @port) with the current state
 * (device lock held). @return the target device ID, -1 for none.
 */
static int
port_pw_build(const struct sim_fabric *f, struct sim_shm_device *d, uint8_t port,
	     uint32_t payload[4])
{
	int target = port_pw_target(f, d->em_pw_target);

	if (target < 0)
		return -1;
	payload[0] = d->comptag;
	payload[1] = d->ports[port].em_err_det;
	payload[2] = port;
	payload[3] = d->em_ltl_err_det;
	return target;
}

/*
 * Latch @bits in the EM Port n Error Detect CSR of switch @d and send its
 * error-management port-write, unless one of this port is still pending
 * (then the repeats carry the news).
 */
static void
port_pw_event(struct sim_fabric *f, struct sim_shm_device *d, uint8_t port, uint32_t bits,
	     bool now_ok)
{
	uint64_t period;
	uint32_t payload[4];
	int target = -1;

	period = (uint64_t)__atomic_load_n(&f->hdr->pw_repeat_us, __ATOMIC_RELAXED) * 1000;
	if (sim_lock(f, &d->lock) != 0)
		return;	/* logged: no port-write */
	d->ports[port].em_err_det |= bits;
	if (!(d->ports[port].err_sts & RTE_RIO_PORT_N_ERR_STS_PW_PEND) ||
	    (bits & (RTE_RIO_EM_PED_LINK_U2OK | RTE_RIO_EM_PED_LINK_OK2U)))
		if (port_pw_enabled(d, port, now_ok))
			target = port_pw_build(f, d, port, payload);
	if (target >= 0) {
		/* Pending until software clears it; repeated meanwhile (sim_fabric_pw_tick). */
		__atomic_fetch_or(&d->ports[port].err_sts, RTE_RIO_PORT_N_ERR_STS_PW_PEND,
				  __ATOMIC_RELAXED);
		__atomic_store_n(&d->ports[port].pw_next_ns, sim_now_ns() + RTE_MAX(period, 1ull),
				 __ATOMIC_RELAXED);
	}
	sim_unlock(f, &d->lock);
	if (target >= 0)
		port_pw_send(f, d->index, (uint16_t)target, payload, sizeof(payload));
}

void
sim_fabric_port_event(struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool was_ok)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	bool now;

	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS))
		return;
	__atomic_fetch_add(&f->hdr->route_gen, 1, __ATOMIC_RELEASE);
	now = sim_port_ok(f, dev_index, port);
	if (now == was_ok || d->type != SIM_DEV_SWITCH)
		return;
	port_pw_event(f, d, port, now ? RTE_RIO_EM_PED_LINK_U2OK : RTE_RIO_EM_PED_LINK_OK2U, now);
}

void
sim_fabric_port_error(struct sim_fabric *f, uint32_t dev_index, uint8_t port, uint32_t bits)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);

	__atomic_fetch_add(&f->hdr->route_gen, 1, __ATOMIC_RELEASE);
	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS) || d->type != SIM_DEV_SWITCH)
		return;
	port_pw_event(f, d, port, bits, true);
}

void
sim_fabric_pw_tick(struct sim_fabric *f)
{
	uint64_t now = 0, period, next;
	struct sim_shm_device *d;
	uint32_t payload[4], i;
	unsigned int p;
	int target;

	for (i = 0; i < f->n_devices; i++) {
		d = &f->devs[i];
		if (d->type != SIM_DEV_SWITCH)
			continue;
		for (p = 0; p < RTE_MIN(d->nports, (unsigned int)SIM_MAX_PORTS); p++) {
			next = __atomic_load_n(&d->ports[p].pw_next_ns, __ATOMIC_RELAXED);
			if (next == 0)
				continue;
			if (now == 0)
				now = sim_now_ns();
			if (now < next)
				continue;
			target = -1;
			if (sim_lock(f, &d->lock) != 0)
				continue;	/* logged: repeated at the next tick */
			period = (uint64_t)f->hdr->pw_repeat_us * 1000;
			if (!(d->ports[p].err_sts & RTE_RIO_PORT_N_ERR_STS_PW_PEND)) {
				d->ports[p].pw_next_ns = 0;	/* acknowledged: stop */
			} else {
				d->ports[p].pw_next_ns = now + RTE_MAX(period, 1ull);
				target = port_pw_build(f, d, (uint8_t)p, payload);
			}
			sim_unlock(f, &d->lock);
			if (target >= 0)
				port_pw_send(f, i, (uint16_t)target, payload, sizeof(payload));
		}
	}
}

int
sim_fabric_link_set(struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool up)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index), *pd;
	bool was_a, was_b;
	int32_t peer;
	uint8_t pport;

	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS))
		return -EINVAL;
	peer = d->ports[port].peer_dev;
	pd = peer >= 0 ? sim_fabric_dev(f, (uint32_t)peer) : NULL;
	if (pd == NULL)
		return -ENOTCONN;
	pport = d->ports[port].peer_port;
	if (pport >= RTE_MIN(pd->nports, SIM_MAX_PORTS))
		return -ENOTCONN;
	was_a = sim_port_ok(f, dev_index, port);
	was_b = sim_port_ok(f, (uint32_t)peer, pport);
	__atomic_store_n(&d->ports[port].link_up, up ? 1 : 0, __ATOMIC_RELEASE);
	__atomic_store_n(&pd->ports[pport].link_up, up ? 1 : 0, __ATOMIC_RELEASE);
	sim_fabric_port_event(f, dev_index, port, was_a);
	sim_fabric_port_event(f, (uint32_t)peer, pport, was_b);
	return 0;
}
