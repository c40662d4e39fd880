/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_hotplug_autotest: port-write handling of a host mport (lib/rio
 * rio_hotplug.c) on builtin:chain:3
 *
 *   ep0 (host) - sw0 -1- ep1
 *                 2
 *                 sw1 -1- ep2
 *                 2
 *                 sw2 -1- ep3
 *
 * A link taken down with the fabric API makes the switch send a port-write
 * to the host; handling it removes the devices behind the link, deepest
 * first (lib/rio REMOVE events, the devices leave the rio bus), and locks
 * the port out. Up again, the subtree is enumerated anew and the devices
 * come back with the same component tags and device IDs (ADD events), and
 * maintenance reaches them again; every switch then holds an explicit,
 * correct route for every device ID. Checked with explicit rte_rio_pw_poll()
 * and with the automatic poll (EAL alarm), for a link in the middle of the
 * chain, for a leaf link, for a flap that ends before the host looks, for a
 * port down at enumeration, for 40 rapid flaps, on a 16-bit fabric
 * (builtin:star:201), through a master port with 4-byte maintenance only
 * (every route access under the switch's lock), on the cps1848 (with
 * tsi721 endpoints) and rxs2448 switch models, and for the ackID
 * alignment of a returning link (link-request/input-status) with either
 * end's outbound ackID off, both, neither, a reset partner, and random
 * ackIDs (seed printed, RIO_TEST_SEED replays it).
 *
 * rionet_hotplug_autotest: rionet traffic across a flapped link between
 * this process (host, ep0) and a child process (agent, ep2): during the
 * flap sends fail with counted errors (no hang), the host's rionet drops
 * the agent as a peer, and after the link returns the peers join again and
 * frames flow both ways. Every frame carries a sequence number and a CRC
 * and is sent alone, so that each is known accepted or dropped: every
 * accepted one, from the first (before the flap) to the last, must arrive
 * once, in order and intact, and no dropped one.
 */

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_hash_crc.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rio_driver.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_rio_regs.h"
#include "bus_rio_driver.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rionet.h"
#include "test_rio_routes.h"
#include "test_rio_wrap.h"

#include "rio_app_common.h"
#include "test.h"

#define HP_PHYS		0x100	/* LP-Serial block of every emulated device */
#define HP_MAX_EV	64
#define HP_NDEV		7	/* chain:3: 3 switches, 4 endpoints */
#define HP_WAIT_MS	5000
#define HP_PORT_EN	(RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX)

struct hp_event {
	char name[RTE_RIO_NAME_MAX_LEN];
	enum rte_rio_dev_event ev;
	uint32_t comptag;
	uint16_t destid;
};

static struct {
	char fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	char vdev[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *mp;
	struct hp_event ev[HP_MAX_EV];
	unsigned int nev;	/* written by the alarm thread under the lib's list lock */
	bool created;
	struct rte_rio_mport *lower;	/* the rio_sim mport under a word-access wrapper */
} hp;

static void
hp_event_cb(struct rte_rio_dev *dev, enum rte_rio_dev_event event, void *arg)
{
	struct rte_rio_dev_info in;
	struct hp_event *e;
	unsigned int n;

	RTE_SET_USED(arg);
	if (rte_rio_dev_mport(dev) != hp.mp || rte_rio_dev_info_get(dev, &in) != 0)
		return;
	n = __atomic_load_n(&hp.nev, __ATOMIC_RELAXED);
	if (n >= HP_MAX_EV)
		return;
	e = &hp.ev[n];
	snprintf(e->name, sizeof(e->name), "%s", in.name);
	e->ev = event;
	e->comptag = in.comptag;
	e->destid = in.destid;
	/* Release: the test thread reads the entry after acquiring the count. */
	__atomic_store_n(&hp.nev, n + 1, __ATOMIC_RELEASE);
}

static unsigned int
hp_nev(void)
{
	return __atomic_load_n(&hp.nev, __ATOMIC_ACQUIRE);
}

/* Wait until @n events were seen (or the deadline); @return the count. */
static unsigned int
hp_wait_events(unsigned int n, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000;

	while (hp_nev() < n && rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	return hp_nev();
}

static uint32_t
hp_fab_rd(const char *dev, uint32_t off)
{
	uint32_t v = 0xdeadbeef;

	rte_pmd_rio_sim_fabric_config_read(hp.fabric, dev, off, 4, &v);
	return v;
}

/* Register map of @dev's LP-Serial block (map II on the rxs2448 model). */
static int
hp_fab_rmap(const char *dev)
{
	return rte_rio_efb_phys_rmap(hp_fab_rd(dev, HP_PHYS) & 0xffff);
}

/* Offset of @dev's Port @port Control CSR, in its register map. */
static uint32_t
hp_port_ctl(const char *dev, uint8_t port)
{
	return HP_PHYS + RTE_RIO_PORT_N_CTL_CSR(port, hp_fab_rmap(dev));
}

/* Port-write pending bit of @dev's Port @port Error and Status CSR. */
static uint32_t
hp_fab_pw_pend(const char *dev, uint8_t port)
{
	return hp_fab_rd(dev, HP_PHYS + RTE_RIO_PORT_N_ERR_STS_CSR(port, hp_fab_rmap(dev))) &
	       RTE_RIO_PORT_N_ERR_STS_PW_PEND;
}

static int
hp_fab_wr(const char *dev, uint32_t off, uint32_t v)
{
	return rte_pmd_rio_sim_fabric_config_write(hp.fabric, dev, off, 4, v);
}

static int
hp_fab_lockout(const char *dev, uint8_t port)
{
	return (hp_fab_rd(dev, hp_port_ctl(dev, port)) & RTE_RIO_PORT_N_CTL_LOCKOUT) != 0;
}

/* The fabric device @name: component tag as the host wrote it. */
static uint32_t
hp_fab_tag(const char *name)
{
	return hp_fab_rd(name, RTE_RIO_COMPONENT_TAG_CSR);
}

/* Name, tag and ID of every device of the host's view. */
struct hp_snap {
	unsigned int n;
	struct rte_rio_dev_info in[256];
};

static void
hp_snapshot(struct hp_snap *s)
{
	struct rte_rio_dev *d = NULL;

	s->n = 0;
	while ((d = rte_rio_dev_next(hp.mp, d)) != NULL && s->n < RTE_DIM(s->in))
		rte_rio_dev_info_get(d, &s->in[s->n++]);
}

static const struct rte_rio_dev_info *
hp_snap_find(const struct hp_snap *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->in[i].name, name) == 0)
			return &s->in[i];
	return NULL;
}

/* Every device of @a is in @b with the same tag, ID and hop count, and back. */
static int
hp_snap_same(const struct hp_snap *a, const struct hp_snap *b)
{
	unsigned int i;

	TEST_ASSERT_EQUAL(a->n, b->n, "device count");
	for (i = 0; i < a->n; i++) {
		const struct rte_rio_dev_info *x = &a->in[i], *y = hp_snap_find(b, x->name);

		TEST_ASSERT_NOT_NULL(y, "%s did not come back", x->name);
		TEST_ASSERT_EQUAL(x->comptag, y->comptag, "%s tag", x->name);
		TEST_ASSERT_EQUAL(x->destid, y->destid, "%s destid", x->name);
		TEST_ASSERT_EQUAL(x->hopcount, y->hopcount, "%s hop count", x->name);
		TEST_ASSERT_EQUAL(x->prev_comptag, y->prev_comptag, "%s upstream", x->name);
	}
	return TEST_SUCCESS;
}

/* A maintenance read of every device of the view answers with its identity. */
static int
hp_check_reach(void)
{
	struct rte_rio_dev *d = NULL;
	uint32_t v;

	while ((d = rte_rio_dev_next(hp.mp, d)) != NULL) {
		TEST_ASSERT_SUCCESS(rte_rio_dev_read_config_32(d, RTE_RIO_DEV_ID_CAR, &v),
				    "maintenance read of %s", rte_rio_dev_name(d));
		TEST_ASSERT(v != 0 && v != 0xffffffffu, "%s identity 0x%x", rte_rio_dev_name(d),
			    v);
	}
	return TEST_SUCCESS;
}

/*
 * Every switch holds an explicit, correct route for every device ID of the
 * view, equal to its shadow entry (test_rio_routes.h).
 */
static int
hp_check_routes(void)
{
	TEST_ASSERT_EQUAL(rio_test_check_routes(hp.fabric, hp.mp), 0, "routes of %s",
			  hp.fabric);
	return TEST_SUCCESS;
}

/* Topology of the next hp_setup() (builtin:chain:3 when NULL). */
static const char *hp_topology;

static int
hp_setup(void)
{
	char args[256], tmp[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN - 1];
	const char *topo = hp_topology != NULL ? hp_topology : "builtin:chain:3";

	memset(&hp, 0, sizeof(hp));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rhp", tmp, sizeof(tmp)), "name");
	snprintf(hp.fabric, sizeof(hp.fabric), "%sf", tmp);
	snprintf(hp.vdev, sizeof(hp.vdev), "rio_sim_%s", tmp);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0,scan=0", hp.fabric,
		 topo);
	hp_topology = NULL;
	TEST_ASSERT_SUCCESS(rte_vdev_init(hp.vdev, args), "vdev %s", args);
	hp.created = true;
	hp.mp = rte_rio_mport_find(hp.vdev);
	TEST_ASSERT_NOT_NULL(hp.mp, "mport");
	TEST_ASSERT_SUCCESS(rte_rio_dev_event_register(hp_event_cb, NULL), "events");
	return TEST_SUCCESS;
}

/* Fabrics whose shared memory outlived their teardown (checked by the last case). */
static unsigned int hp_shm_leaks;

static void
hp_teardown(void)
{
	char prefix[64];

	rte_rio_dev_event_unregister(hp_event_cb, NULL);
	if (hp.lower != NULL) {
		rte_rio_mport_devices_release(hp.mp);
		rio_test_unwrap(hp.mp);
		hp.mp = hp.lower;
		hp.lower = NULL;
	}
	if (hp.created)
		rte_vdev_uninit(hp.vdev);
	hp.created = false;
	snprintf(prefix, sizeof(prefix), "rio_sim.%s", hp.fabric);
	if (rio_test_shm_count(prefix) != 0) {
		printf("shared memory left by %s\n", hp.fabric);
		hp_shm_leaks++;
		rio_test_shm_cleanup(prefix);
	}
}

static int
test_hp_no_leak(void)
{
	TEST_ASSERT_EQUAL(hp_shm_leaks, 0, "fabrics left shared memory");
	return TEST_SUCCESS;
}

/* Removal and return of sw1's subtree, with explicit polls. */
static int
test_hp_middle_link(void)
{
	struct rte_rio_hotplug_stats st;
	struct hp_snap before, mid, after;
	struct rte_rio_device *bd;
	const char *order[] = { "ep3", "sw2", "ep2", "sw1" };
	unsigned int i, base;
	uint32_t v;

	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(hp.mp), HP_NDEV, "devices");
	/* Deterministic: no alarm, this thread polls. */
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 0), "stop the poll");
	TEST_ASSERT_EQUAL(rte_rio_pw_poll(hp.mp, 16), 0, "port-writes before any event");
	hp_snapshot(&before);
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	base = hp_nev();

	/* Down: sw0 reports port 2; sw1's port-write has no way to the host. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw0", 2, false),
			    "link down");
	TEST_ASSERT(hp_fab_pw_pend("sw0", 2), "port-write pending");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 1, "no port-write received");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	TEST_ASSERT(st.pw_rx >= 1 && st.link_down == 1 && st.link_up == 0, "stats %" PRIu64
		    " pw, %" PRIu64 " down, %" PRIu64 " up", st.pw_rx, st.link_down, st.link_up);
	TEST_ASSERT_EQUAL(st.dev_removed, 4, "removed");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(hp.mp), HP_NDEV - 4, "devices after link down");
	TEST_ASSERT_EQUAL(hp_nev() - base, 4, "REMOVE events");
	/* Deepest first. */
	for (i = 0; i < RTE_DIM(order); i++) {
		const struct hp_event *e = &hp.ev[base + i];

		TEST_ASSERT_EQUAL(e->ev, RTE_RIO_DEV_EVENT_REMOVE, "event %u not REMOVE", i);
		TEST_ASSERT_EQUAL(e->comptag, hp_fab_tag(order[i]), "event %u is %s, not %s", i,
				  e->name, order[i]);
	}
	/* Gone from the bus too. */
	for (i = 0; i < 4; i++) {
		bd = rte_rio_device_find_by_name(hp.ev[base + i].name);
		TEST_ASSERT_NULL(bd, "%s still on the rio bus", hp.ev[base + i].name);
	}
	hp_snapshot(&mid);
	TEST_ASSERT_NOT_NULL(hp_snap_find(&mid, before.in[0].name), "local endpoint");
	TEST_ASSERT(hp_fab_lockout("sw0", 2), "dead port not locked out");
	TEST_ASSERT_EQUAL(hp_fab_pw_pend("sw0", 2), 0, "port-write pending not cleared");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "the rest is reachable");
	/* Traffic to a removed device fails with an error, it does not hang. */
	TEST_ASSERT(rte_rio_remote_read_config_32(hp.mp, hp.ev[base].destid, 0xff,
						  RTE_RIO_DEV_ID_CAR, &v) < 0,
		    "%s answers behind a dead link", hp.ev[base].name);

	/* Up: re-enumerated with the same tags and IDs. */
	base = hp_nev();
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw0", 2, true),
			    "link up");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 1, "no port-write received");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	TEST_ASSERT(st.link_up == 1 && st.dev_added == 4 && st.enum_errors == 0,
		    "stats %" PRIu64 " up, %" PRIu64 " added, %" PRIu64 " errors", st.link_up,
		    st.dev_added, st.enum_errors);
	TEST_ASSERT_EQUAL(hp_nev() - base, 4, "ADD events");
	for (i = 0; i < 4; i++) {
		const struct hp_event *e = &hp.ev[base + i];

		TEST_ASSERT_EQUAL(e->ev, RTE_RIO_DEV_EVENT_ADD, "event %u not ADD", i);
		/* Upstream first: the reverse of the removal. */
		TEST_ASSERT_EQUAL(e->comptag, hp_fab_tag(order[3 - i]), "ADD %u is %s", i,
				  e->name);
		bd = rte_rio_device_find_by_name(e->name);
		TEST_ASSERT_NOT_NULL(bd, "%s not back on the rio bus", e->name);
		rte_rio_device_put(bd);
	}
	hp_snapshot(&after);
	TEST_ASSERT_SUCCESS(hp_snap_same(&before, &after), "view after the flap");
	TEST_ASSERT(!hp_fab_lockout("sw0", 2), "port still locked out");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "routes to the returned devices");
	TEST_ASSERT_SUCCESS(hp_check_routes(), "routes");
	TEST_ASSERT_EQUAL(rte_rio_pw_poll(hp.mp, 16), 0, "port-writes left");
	return TEST_SUCCESS;
}

/* The automatic poll (EAL alarm): a leaf link, then a flap shorter than a poll. */
static int
test_hp_auto_poll(void)
{
	struct rte_rio_hotplug_stats st;
	struct hp_snap before, after;
	unsigned int base;
	uint64_t t0, dt_ms;

	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	hp_snapshot(&before);
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 2000), "period");

	/* ep2 hangs on sw1 port 1. */
	base = hp_nev();
	t0 = rte_get_timer_cycles();
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "ep2", 0, false),
			    "link down");
	TEST_ASSERT_EQUAL(hp_wait_events(base + 1, HP_WAIT_MS), base + 1, "no REMOVE event");
	dt_ms = (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
	printf("ep2 removed %" PRIu64 " ms after its link went down\n", dt_ms);
	TEST_ASSERT_EQUAL(hp.ev[base].ev, RTE_RIO_DEV_EVENT_REMOVE, "not REMOVE");
	TEST_ASSERT_EQUAL(hp.ev[base].comptag, hp_fab_tag("ep2"), "not ep2: %s",
			  hp.ev[base].name);
	TEST_ASSERT_EQUAL(rte_rio_dev_count(hp.mp), HP_NDEV - 1, "devices");
	TEST_ASSERT(hp_fab_lockout("sw1", 1), "dead port not locked out");

	base = hp_nev();
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "ep2", 0, true),
			    "link up");
	TEST_ASSERT_EQUAL(hp_wait_events(base + 1, HP_WAIT_MS), base + 1, "no ADD event");
	TEST_ASSERT_EQUAL(hp.ev[base].ev, RTE_RIO_DEV_EVENT_ADD, "not ADD");
	hp_snapshot(&after);
	TEST_ASSERT_SUCCESS(hp_snap_same(&before, &after), "view after the flap");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");

	/* Down and up between two polls: still seen (EM "OK to uninit" latched). */
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 0), "stop the poll");
	base = hp_nev();
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw1", 2, false),
			    "link down");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw1", 2, true),
			    "link up");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 2, "port-writes");
	TEST_ASSERT_EQUAL(hp_nev() - base, 4, "sw2 and ep3 removed and added");
	TEST_ASSERT_EQUAL(hp.ev[base].ev, RTE_RIO_DEV_EVENT_REMOVE, "first REMOVE");
	TEST_ASSERT_EQUAL(hp.ev[base + 3].ev, RTE_RIO_DEV_EVENT_ADD, "last ADD");
	hp_snapshot(&after);
	TEST_ASSERT_SUCCESS(hp_snap_same(&before, &after), "view after the short flap");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	TEST_ASSERT(st.link_down == 2 && st.link_up == 2 && st.enum_errors == 0,
		    "stats %" PRIu64 " down %" PRIu64 " up %" PRIu64 " errors", st.link_down,
		    st.link_up, st.enum_errors);
	TEST_ASSERT_SUCCESS(hp_check_routes(), "routes");

	/* Automatic poll on again, released with the mport (alarm cancelled). */
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 1000), "period");
	return TEST_SUCCESS;
}

/* Rapid flaps with the automatic poll: the view settles to the original one. */
static int
test_hp_rapid_flaps(void)
{
	struct rte_rio_hotplug_stats st;
	struct hp_snap before, after;
	uint64_t end;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	hp_snapshot(&before);
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 500), "period");
	for (i = 0; i < 40; i++) {
		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw0", 2,
								    i % 2 != 0), "flap %u", i);
		rte_delay_us_sleep(rand() % 3000);
	}
	/* Up again: wait until the host has it all back. */
	end = rte_get_timer_cycles() + rte_get_timer_hz() * HP_WAIT_MS / 1000;
	do {
		rte_delay_us_sleep(20000);
		hp_snapshot(&after);
	} while (after.n != before.n && rte_get_timer_cycles() < end);
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 0), "stop the poll");
	rte_rio_pw_poll(hp.mp, 64);
	hp_snapshot(&after);
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	printf("40 flaps: %" PRIu64 " port-writes, %" PRIu64 " links down, %" PRIu64
	       " up, %" PRIu64 " re-enumeration errors\n", st.pw_rx, st.link_down,
	       st.link_up, st.enum_errors);
	TEST_ASSERT_SUCCESS(hp_snap_same(&before, &after), "view after the flaps");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	TEST_ASSERT_SUCCESS(hp_check_routes(), "routes");
	TEST_ASSERT(!hp_fab_lockout("sw0", 2), "port still locked out");
	return TEST_SUCCESS;
}

/* A port whose link was down at enumeration comes up: a new device, new ID. */
static int
test_hp_late_insertion(void)
{
	struct rte_rio_hotplug_stats st;
	struct rte_rio_dev_info in;
	struct rte_rio_dev *d;
	unsigned int base;
	uint32_t did;

	/* ep3 hangs on sw2 port 1. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "ep3", 0, false),
			    "link down");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 0), "stop the poll");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(hp.mp), HP_NDEV - 1, "devices");
	TEST_ASSERT(hp_fab_lockout("sw2", 1), "dead port not locked out");
	/* Nobody was told before the port-write target was set. */
	TEST_ASSERT_EQUAL(rte_rio_pw_poll(hp.mp, 16), 0, "port-writes before enumeration");

	/* Both ends of the new link pass maintenance only until enabled. */
	TEST_ASSERT_SUCCESS(hp_fab_wr("sw2", hp_port_ctl("sw2", 1),
				      hp_fab_rd("sw2", hp_port_ctl("sw2", 1)) & ~HP_PORT_EN),
			    "disable sw2.1");
	TEST_ASSERT_SUCCESS(hp_fab_wr("ep3", hp_port_ctl("ep3", 0),
				      hp_fab_rd("ep3", hp_port_ctl("ep3", 0)) & ~HP_PORT_EN),
			    "disable ep3.0");
	base = hp_nev();
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "ep3", 0, true),
			    "link up");
	TEST_ASSERT_EQUAL(rte_rio_pw_poll(hp.mp, 16), 1, "port-write");
	TEST_ASSERT_EQUAL(hp_fab_rd("sw2", hp_port_ctl("sw2", 1)) & HP_PORT_EN,
			  HP_PORT_EN, "sw2.1 not enabled");
	TEST_ASSERT_EQUAL(hp_fab_rd("ep3", hp_port_ctl("ep3", 0)) & HP_PORT_EN,
			  HP_PORT_EN, "ep3.0 not enabled");
	TEST_ASSERT_EQUAL(hp_nev() - base, 1, "ADD event");
	TEST_ASSERT_EQUAL(hp.ev[base].ev, RTE_RIO_DEV_EVENT_ADD, "not ADD");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(hp.mp), HP_NDEV, "devices");
	d = rte_rio_dev_find_by_comptag(hp.mp, hp_fab_tag("ep3"));
	TEST_ASSERT_NOT_NULL(d, "ep3 not found by its tag");
	TEST_ASSERT_SUCCESS(rte_rio_dev_info_get(d, &in), "info");
	did = hp_fab_rd("ep3", RTE_RIO_DID_CSR);
	TEST_ASSERT_EQUAL(in.destid, RTE_RIO_GET_DID(8, did), "ID in the view and the CSR");
	TEST_ASSERT(rte_rio_dev_find_by_destid(hp.mp, in.destid) == d, "lookup by ID");
	TEST_ASSERT(!hp_fab_lockout("sw2", 1), "port still locked out");
	TEST_ASSERT(hp_fab_rd("ep3", HP_PHYS + RTE_RIO_PORT_GEN_CTL_CSR) &
		    RTE_RIO_PORT_GEN_DISCOVERED, "ep3 not marked Discovered");
	TEST_ASSERT_EQUAL(hp_fab_rd("ep3", RTE_RIO_HOST_DID_LOCK_CSR) & 0xffff, 0xffff,
			  "ep3 left locked");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	TEST_ASSERT_SUCCESS(hp_check_routes(), "routes");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	TEST_ASSERT(st.link_down == 0 && st.link_up == 1 && st.dev_added == 1,
		    "stats %" PRIu64 " down %" PRIu64 " up %" PRIu64 " added", st.link_down,
		    st.link_up, st.dev_added);
	return TEST_SUCCESS;
}

/* 16-bit device IDs: a leaf switch of builtin:star:201 and its endpoints. */
static int
hp_setup_star(void)
{
	hp_topology = "builtin:star:201";
	return hp_setup();
}

/* The IDT switch models, with Tsi721 master ports (4-byte maintenance) on one. */
static int
hp_setup_cps1848(void)
{
	hp_topology = "builtin:chain:3/cps1848/tsi721";
	return hp_setup();
}

static int
hp_setup_rxs2448(void)
{
	hp_topology = "builtin:chain:3/rxs2448";
	return hp_setup();
}

static int
test_hp_16bit(void)
{
	static struct hp_snap before, mid, after;
	struct rte_pmd_rio_sim_dev_info fi, pi;
	struct rte_rio_mport_info mi;
	struct rte_rio_hotplug_stats st;
	char leaf[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN] = "";
	int i, p, n, up = -1, below = 0;

	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	TEST_ASSERT(rte_rio_mport_info_get(hp.mp, &mi) == 0 && mi.devid_size == 16, "ID size");
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 0), "stop the poll");
	hp_snapshot(&before);
	TEST_ASSERT(before.n < RTE_DIM(before.in), "view larger than the snapshot");
	/* The last leaf switch: its uplink (port 15) leads to another switch. */
	n = rte_pmd_rio_sim_fabric_dev_count(hp.fabric);
	for (i = n - 1; i >= 0 && leaf[0] == '\0'; i--) {
		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(hp.fabric, i, &fi), "info");
		if (fi.type != RTE_PMD_RIO_SIM_DEV_SWITCH || fi.nports < 16 ||
		    fi.ports[15].peer_dev < 0 || fi.ports[0].peer_dev < 0)
			continue;
		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(hp.fabric,
				fi.ports[15].peer_dev, &pi), "info");
		if (pi.type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		snprintf(leaf, sizeof(leaf), "%s", fi.name);
		up = fi.ports[15].peer_dev;
		for (p = 0; p < 15; p++)
			below += fi.ports[p].peer_dev >= 0;
	}
	TEST_ASSERT(leaf[0] != '\0' && up >= 0, "no leaf switch");

	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, leaf, 15, false),
			    "link down");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 1, "port-write");
	hp_snapshot(&mid);
	TEST_ASSERT_EQUAL(mid.n, before.n - 1 - below, "%s and its %d endpoints removed", leaf,
			  below);
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, leaf, 15, true),
			    "link up");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 1, "port-write");
	hp_snapshot(&after);
	TEST_ASSERT_SUCCESS(hp_snap_same(&before, &after), "view after the flap");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	TEST_ASSERT_SUCCESS(hp_check_routes(), "routes");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	TEST_ASSERT(st.dev_removed == (uint64_t)below + 1 && st.dev_added == st.dev_removed &&
		    st.enum_errors == 0,
		    "stats %" PRIu64 " removed %" PRIu64 " added %" PRIu64 " errors",
		    st.dev_removed, st.dev_added, st.enum_errors);
	return TEST_SUCCESS;
}

/* The middle-link flap through a master port with 4-byte maintenance only. */
static int
test_hp_word_access(void)
{
	struct rio_test_wrap_stats ws;
	char name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *w;

	snprintf(name, sizeof(name), "%.50s_w", hp.vdev);
	w = rio_test_wrap(hp.mp, name, RIO_TEST_WRAP_WORD);
	TEST_ASSERT_NOT_NULL(w, "wrapper mport");
	hp.lower = hp.mp;
	hp.mp = w;
	TEST_ASSERT_SUCCESS(test_hp_middle_link(), "middle link");
	rio_test_wrap_stats(w, &ws);
	TEST_ASSERT_EQUAL(ws.size_violations, 0, "accesses other than 4 bytes");
	TEST_ASSERT_EQUAL(ws.lock_violations, 0, "route accesses without the switch's lock");
	TEST_ASSERT(ws.route_accesses > 0, "no route access checked");
	return TEST_SUCCESS;
}

/* ackIDs of @dev's @port, in either register map. */
struct hp_ack {
	uint32_t in;		/* inbound: next one expected from the partner */
	uint32_t out;		/* outbound: next one to send */
	uint32_t outstanding;	/* oldest not acknowledged */
};

static struct hp_ack
hp_ack_get(const char *dev, uint8_t port)
{
	struct hp_ack a;
	uint32_t v;

	if (hp_fab_rmap(dev) == 1) {
		v = hp_fab_rd(dev, HP_PHYS + RTE_RIO_PORT_N_ACK_STS_CSR(port));
		a.in = (v & RTE_RIO_PORT_N_ACK_INBOUND) >> 24;
		a.outstanding = (v & RTE_RIO_PORT_N_ACK_OUTSTAND) >> 8;
		a.out = v & RTE_RIO_PORT_N_ACK_OUTBOUND;
		return a;
	}
	v = hp_fab_rd(dev, HP_PHYS + RTE_RIO_PORT_N_OB_ACK_CSR(port));
	a.outstanding = (v & RTE_RIO_PORT_N_OB_ACK_OUTSTD) >> 12;
	a.out = v & RTE_RIO_PORT_N_OB_ACK_OUTBND;
	a.in = hp_fab_rd(dev, HP_PHYS + RTE_RIO_PORT_N_IB_ACK_CSR(port)) &
		RTE_RIO_PORT_N_IB_ACK_INBND;
	return a;
}

/* Set @dev's @port ackIDs (no packet outstanding) through the backdoor. */
static int
hp_ack_set(const char *dev, uint8_t port, uint32_t in, uint32_t out)
{
	int ret;

	if (hp_fab_rmap(dev) == 1)
		return hp_fab_wr(dev, HP_PHYS + RTE_RIO_PORT_N_ACK_STS_CSR(port),
				 ((in & 0x3f) << 24) | ((out & 0x3f) << 8) | (out & 0x3f));
	ret = hp_fab_wr(dev, HP_PHYS + RTE_RIO_PORT_N_OB_ACK_CSR(port),
			((out & 0xfff) << 12) | (out & 0xfff));
	if (ret == 0)
		ret = hp_fab_wr(dev, HP_PHYS + RTE_RIO_PORT_N_IB_ACK_CSR(port), in & 0xfff);
	return ret;
}

/*
 * Link recovery before a returning link is used: a link that went down has
 * its ackIDs cleared; when it is back, the host asks the link partner for
 * the ackID it expects (link-request/input-status), aligns the port's
 * outbound and outstanding ackIDs with it, and makes the partner's outbound
 * ackID follow the port's inbound one. Then maintenance crosses the link
 * again, both ways. While the inter-switch link sw0 port 2 = sw1 port 0 is
 * down, its ends drift apart: sw0 takes @near_in/@near_out, sw1 (the same
 * device, not reset, or reset to 0) takes @far_in/@far_out. Either
 * direction may be off alone, both, or neither.
 */
static int
hp_link_recovery(uint32_t near_in, uint32_t near_out, uint32_t far_in, uint32_t far_out)
{
	struct hp_ack n, f;

	printf("sw0 port 2 ackIDs in %u out %u, sw1 port 0 in %u out %u (%s off)\n",
	       near_in, near_out, far_in, far_out,
	       near_out != far_in ? (far_out != near_in ? "both ways" : "sw0 to sw1") :
	       far_out != near_in ? "sw1 to sw0" : "no way");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(hp.mp, 0), "stop the poll");
	TEST_ASSERT_SUCCESS(hp_ack_set("sw0", 2, 5, 9), "ackIDs");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw0", 2, false),
			    "link down");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 1, "no port-write received");
	n = hp_ack_get("sw0", 2);
	TEST_ASSERT(n.out == 0 && n.outstanding == 0,
		    "outstanding ackIDs of a dead link not cleared (out %u outstanding %u)",
		    n.out, n.outstanding);
	TEST_ASSERT_SUCCESS(hp_ack_set("sw0", 2, near_in, near_out), "ackIDs");
	TEST_ASSERT_SUCCESS(hp_ack_set("sw1", 0, far_in, far_out), "partner ackIDs");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(hp.fabric, "sw0", 2, true),
			    "link up");
	TEST_ASSERT(rte_rio_pw_poll(hp.mp, 16) >= 1, "no port-write received");
	n = hp_ack_get("sw0", 2);
	f = hp_ack_get("sw1", 0);
	TEST_ASSERT_EQUAL(n.out, n.outstanding, "outstanding ackID %u, outbound %u",
			  n.outstanding, n.out);
	TEST_ASSERT_EQUAL(n.out, f.in, "sw0 sends ackID %u, sw1 expects %u", n.out, f.in);
	TEST_ASSERT_EQUAL(f.out, n.in, "sw1 sends ackID %u, sw0 expects %u", f.out, n.in);
	TEST_ASSERT_EQUAL(rte_rio_dev_count(hp.mp), HP_NDEV, "devices back");
	TEST_ASSERT_SUCCESS(hp_check_reach(), "reach");
	return hp_check_routes();
}

/* Only sw0's outbound ackID is off. */
static int
test_hp_link_recovery(void)
{
	return hp_link_recovery(3, 7, 12, 3);
}

/* Only sw1's outbound ackID is off: nothing on sw0's side shows it. */
static int
test_hp_link_recovery_far(void)
{
	return hp_link_recovery(3, 7, 7, 12);
}

/* Both outbound ackIDs are off. */
static int
test_hp_link_recovery_both(void)
{
	return hp_link_recovery(3, 7, 12, 9);
}

/* Both agree already: realigning them must not break them. */
static int
test_hp_link_recovery_none(void)
{
	return hp_link_recovery(3, 7, 7, 3);
}

/* sw1 was reset (ackIDs 0) while sw0 kept its own. */
static int
test_hp_link_recovery_reset(void)
{
	return hp_link_recovery(3, 7, 0, 0);
}

/* Random ackIDs each way (RIO_TEST_SEED replays): over the runs, each case of the four. */
static int
test_hp_link_recovery_random(void)
{
	const char *env_seed = getenv("RIO_TEST_SEED");
	unsigned int seed, m = hp_fab_rmap("sw0") == 1 ? 0x3f : 0xfff, r[4], i;

	seed = env_seed != NULL ? (unsigned int)strtoul(env_seed, NULL, 0) :
		(unsigned int)rte_rdtsc();
	printf("  seed %u (RIO_TEST_SEED=%u replays it)\n", seed, seed);
	for (i = 0; i < RTE_DIM(r); i++)
		r[i] = (unsigned int)rand_r(&seed) & m;
	/* A coin each way: that direction agrees, or (most likely) not. */
	if (rand_r(&seed) & 1)
		r[2] = r[1];
	if (rand_r(&seed) & 1)
		r[3] = r[0];
	return hp_link_recovery(r[0], r[1], r[2], r[3]);
}

/* Argument checks. */
static int
test_hp_errors(void)
{
	struct rte_rio_hotplug_stats st;

	TEST_ASSERT_EQUAL(rte_rio_pw_poll(NULL, 1), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_pw_poll_period_set(NULL, 1), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_hotplug_stats_get(NULL, &st), -EINVAL, "NULL mport");
	TEST_ASSERT_EQUAL(rte_rio_pw_poll_period_set(hp.mp, 1), -ENODEV, "not scanned");
	TEST_ASSERT_EQUAL(rte_rio_pw_poll(hp.mp, 1), -ENODEV, "not scanned");
	TEST_ASSERT_EQUAL(rte_rio_hotplug_stats_get(hp.mp, &st), -ENODEV, "not scanned");
	TEST_ASSERT_EQUAL(rte_rio_hotplug_stats_get(hp.mp, NULL), -EINVAL, "NULL stats");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(hp.mp, NULL), "enumerate");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(hp.mp, &st), "stats");
	TEST_ASSERT_EQUAL(st.pw_rx, 0, "port-writes");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* rionet across a flapped link (two processes)                           */

#define RH_ETH_DATA	0x88b5	/* frames of the exchange */
#define RH_ETH_STOP	0x88b6	/* host to agent: finish */
#define RH_FRAME	128
#define RH_NB_MBUF	2048
#define RH_DESC		256
#define RH_CHILD_MS	60000	/* the agent gives up after this */
#define RH_MAX_SEQ	(1u << 16)	/* frames per direction at most */
#define RH_HDR		(RTE_ETHER_HDR_LEN + 12)	/* sequence (8), CRC (4) */

enum rh_dir { RH_H2A = 0, RH_A2H = 1 };	/* host to agent, agent to host */

/*
 * What both processes record, in a file they map: per direction, which
 * frames tx_burst consumed and counted as sent (accepted), which arrived,
 * and the bad ones (corrupted, duplicated, reordered). The host compares.
 */
struct rh_ctl {
	uint64_t next[2];		/* sequence of the next frame to send */
	uint64_t last[2];		/* last sequence received + 1, 0: none yet */
	uint64_t bad[2];
	uint8_t accepted[2][RH_MAX_SEQ];
	uint8_t received[2][RH_MAX_SEQ];
};

static struct rh_ctl *rh_ctl;

/* rionet port of the rio_sim mport @vdev, configured and started. */
static int
rh_port_start(const char *vdev, struct rte_mempool *mp, uint16_t *port_id)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	snprintf(name, sizeof(name), "rionet_%s", vdev);
	ret = rte_eth_dev_get_port_by_name(name, port_id);
	if (ret == 0)
		ret = rte_eth_dev_configure(*port_id, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(*port_id, 0, RH_DESC, SOCKET_ID_ANY, NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(*port_id, 0, RH_DESC, SOCKET_ID_ANY, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(*port_id);
	return ret;
}

static void
rh_port_close(uint16_t port_id)
{
	rte_eth_dev_stop(port_id);
	rte_eth_dev_close(port_id);
}

/* CRC of a frame's payload (after the header), seeded with its sequence. */
static uint32_t
rh_crc(const uint8_t *p, uint64_t seq)
{
	return rio_app_crc32c(p + RH_HDR, RH_FRAME - RH_HDR, (uint32_t)seq);
}

/*
 * Send up to @n frames of @type to device @destid, one per tx_burst so
 * that each is known accepted (opackets counts it) or dropped (oerrors).
 * DATA frames carry the next sequence number of direction @dir, a payload
 * that depends on it, and a CRC; tx_burst's accepted ones are recorded.
 * @return frames accepted.
 */
static uint16_t
rh_send(uint16_t port_id, struct rte_mempool *mp, uint16_t destid, uint16_t type,
	unsigned int n, enum rh_dir dir)
{
	struct rte_eth_stats st0, st1;
	struct rte_ether_hdr *eh;
	uint16_t sent = 0, k;
	struct rte_mbuf *m;
	uint64_t seq;
	uint32_t crc;
	uint8_t *p;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		seq = rh_ctl->next[dir];
		if (type == RH_ETH_DATA && seq >= RH_MAX_SEQ)
			break;
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			break;
		p = (uint8_t *)rte_pktmbuf_append(m, RH_FRAME);
		eh = (struct rte_ether_hdr *)p;
		rionet_mac_from_destid(destid, &eh->dst_addr);
		rte_eth_macaddr_get(port_id, &eh->src_addr);
		eh->ether_type = rte_cpu_to_be_16(type);
		for (j = RH_HDR; j < RH_FRAME; j++)
			p[j] = (uint8_t)(seq * 7 + j * 13 + dir);
		crc = rh_crc(p, seq);
		memcpy(p + RTE_ETHER_HDR_LEN, &seq, 8);
		memcpy(p + RTE_ETHER_HDR_LEN + 8, &crc, 4);
		rte_eth_stats_get(port_id, &st0);
		k = rte_eth_tx_burst(port_id, 0, &m, 1);
		if (k == 0) {
			rte_pktmbuf_free(m);
			break;	/* back-pressure: the same sequence next time */
		}
		rte_eth_stats_get(port_id, &st1);
		if (type != RH_ETH_DATA)
			continue;
		rh_ctl->next[dir]++;
		if (st1.opackets == st0.opackets + 1) {
			rh_ctl->accepted[dir][seq] = 1;
			sent++;
		}
	}
	return sent;
}

/*
 * Receive everything pending, checking the DATA frames of direction @dir:
 * intact (CRC), and each after the previous one (a duplicate or a frame out
 * of order is bad). @return DATA frames; *stop when a STOP came.
 */
static unsigned int
rh_recv(uint16_t port_id, enum rh_dir dir, bool *stop)
{
	struct rte_mbuf *m[32];
	unsigned int got = 0;
	uint64_t seq;
	uint32_t crc;
	uint16_t n, i, t;
	uint8_t *p;

	while ((n = rte_eth_rx_burst(port_id, 0, m, RTE_DIM(m))) > 0) {
		for (i = 0; i < n; i++) {
			p = rte_pktmbuf_mtod(m[i], uint8_t *);
			t = rte_be_to_cpu_16(((struct rte_ether_hdr *)p)->ether_type);
			if (t == RH_ETH_STOP && stop != NULL)
				*stop = true;
			if (t != RH_ETH_DATA)
				continue;
			got++;
			memcpy(&seq, p + RTE_ETHER_HDR_LEN, 8);
			memcpy(&crc, p + RTE_ETHER_HDR_LEN + 8, 4);
			if (m[i]->pkt_len != RH_FRAME || m[i]->nb_segs != 1 ||
			    seq >= RH_MAX_SEQ || crc != rh_crc(p, seq) ||
			    seq < rh_ctl->last[dir]) {
				if (rh_ctl->bad[dir]++ < 5)
					printf("%s: bad frame %" PRIu64 " (%u bytes) after %" PRIu64
					       "\n", dir == RH_H2A ? "agent" : "host", seq,
					       m[i]->pkt_len, rh_ctl->last[dir]);
				continue;
			}
			rh_ctl->received[dir][seq] = 1;
			rh_ctl->last[dir] = seq + 1;
		}
		rte_pktmbuf_free_bulk(m, n);
	}
	return got;
}

/*
 * Every frame accepted in direction @dir arrived once, and only those
 * (a frame counted as dropped never arrives). @return bad frames.
 */
static uint64_t
rh_account(enum rh_dir dir, const char *what)
{
	uint64_t s, accepted = 0, lost = 0, extra = 0;

	for (s = 0; s < rh_ctl->next[dir]; s++) {
		accepted += rh_ctl->accepted[dir][s];
		lost += rh_ctl->accepted[dir][s] && !rh_ctl->received[dir][s];
		extra += !rh_ctl->accepted[dir][s] && rh_ctl->received[dir][s];
	}
	printf("%s: %" PRIu64 " frames, %" PRIu64 " accepted, %" PRIu64 " of those lost, %"
	       PRIu64 " dropped ones received, %" PRIu64 " bad\n", what, rh_ctl->next[dir],
	       accepted, lost, extra, rh_ctl->bad[dir]);
	return lost + extra + rh_ctl->bad[dir];
}

/*
 * Agent (ep2): send frames to the host and receive until the host says
 * STOP (it does after the flap, so a STOP proves that host-to-agent traffic
 * came back). Exit 0 when sends across the dead link failed with counted
 * errors and the STOP arrived.
 */
static int
rh_agent_child(int argc, char **argv)
{
	char vdev[RTE_RIO_NAME_MAX_LEN], args[256];
	struct rte_mempool *mp = NULL;
	struct rte_eth_stats st;
	uint64_t end, tx = 0, rx = 0;
	uint16_t port_id = RTE_MAX_ETHPORTS;
	bool stop = false, created = false;
	int ret, rc = 1;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("agent: rte_eal_init failed\n");
		return 2;
	}
	argc -= ret;
	argv += ret;
	if (argc > 1 && strcmp(argv[1], "--") == 0) {
		argc--;
		argv[1] = argv[0];
		argv++;
	}
	if (argc < 3 || (rh_ctl = rio_test_map_file(argv[2], sizeof(*rh_ctl), false)) == NULL) {
		printf("agent: missing fabric name or control file\n");
		goto out;
	}
	/* argv[0] is the program name again, then the fabric. */
	snprintf(vdev, sizeof(vdev), "rio_sim_%s_a", argv[1]);
	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:chain:2,endpoint=ep2,"
		 "disc_timeout=20000", argv[1]);
	mp = rte_pktmbuf_pool_create("rh_agent", RH_NB_MBUF, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL || rte_vdev_init(vdev, args) != 0) {
		printf("agent: cannot create %s\n", vdev);
		goto out;
	}
	created = true;
	if (rh_port_start(vdev, mp, &port_id) != 0) {
		printf("agent: no rionet port\n");
		goto out;
	}
	end = rte_get_timer_cycles() + rte_get_timer_hz() * (RH_CHILD_MS / 1000);
	while (!stop && rte_get_timer_cycles() < end) {
		tx += rh_send(port_id, mp, 0, RH_ETH_DATA, 4, RH_A2H);
		rx += rh_recv(port_id, RH_H2A, &stop);
		rte_delay_us_sleep(500);
	}
	rte_eth_stats_get(port_id, &st);
	printf("agent: sent %" PRIu64 ", send errors %" PRIu64 ", received %" PRIu64 ", %s\n",
	       tx, st.oerrors, rx, stop ? "stopped by the host" : "timed out");
	rc = stop && st.oerrors > 0 && rx > 0 ? 0 : 1;
out:
	if (port_id < RTE_MAX_ETHPORTS)
		rh_port_close(port_id);
	if (created)
		rte_vdev_uninit(vdev);
	rte_mempool_free(mp);
	if (rh_ctl != NULL)
		munmap(rh_ctl, sizeof(*rh_ctl));
	rte_eal_cleanup();
	return rc;
}
REGISTER_TEST_CHILD(rionet_hotplug_agent, rh_agent_child);

static int
rh_link_wait(uint16_t port_id, int want, unsigned int ms)
{
	struct rte_eth_link link;
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000;

	do {
		if (rte_eth_link_get_nowait(port_id, &link) == 0 && link.link_status == want)
			return 0;
		rte_delay_us_sleep(2000);
	} while (rte_get_timer_cycles() < end);
	return -ETIMEDOUT;
}

/*
 * Exchange frames until @want arrived from the agent (or @ms passed);
 * @return frames received. *max_tx_us gets the longest rte_eth_tx_burst().
 */
static unsigned int
rh_exchange(uint16_t port_id, struct rte_mempool *mp, uint16_t peer, unsigned int want,
	    unsigned int ms, uint64_t *max_tx_us)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000, t, us;
	unsigned int rx = 0;

	while (rx < want && rte_get_timer_cycles() < end) {
		t = rte_get_timer_cycles();
		rh_send(port_id, mp, peer, RH_ETH_DATA, 4, RH_H2A);
		us = (rte_get_timer_cycles() - t) * 1000000 / rte_get_timer_hz();
		*max_tx_us = RTE_MAX(*max_tx_us, us);
		rx += rh_recv(port_id, RH_A2H, NULL);
		rte_delay_us_sleep(500);
	}
	return rx;
}

static int
test_rionet_hotplug(void)
{
	char tmp[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN - 4], fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	char vdev[RTE_RIO_NAME_MAX_LEN], args[256], prefix[64], fp[96], shm[64], ctl[96];
	const char *drv = NULL;
	struct rte_rio_hotplug_stats hs;
	struct rte_mempool *mp = NULL;
	struct rte_rio_mport *mport;
	struct rte_eth_stats st0, st1;
	uint64_t max_tx_us = 0, t0;
	uint16_t port_id = RTE_MAX_ETHPORTS, ep2;
	uint32_t did = 0;
	unsigned int rx;
	pid_t pid = -1;
	int i, ret = TEST_FAILED, status;

	for (i = 1; i + 1 < rio_test_eal_argc; i++)
		if (strcmp(rio_test_eal_argv[i], "-d") == 0)
			drv = rio_test_eal_argv[i + 1];
	if (drv == NULL) {
		printf("rionet_hotplug_autotest needs -d <librte_net_rionet.so>\n");
		return TEST_SKIPPED;
	}
	if (rio_test_unique("rhn", tmp, sizeof(tmp)) == NULL ||
	    rio_test_unique("rhn_agent", prefix, sizeof(prefix)) == NULL)
		return TEST_FAILED;
	snprintf(fabric, sizeof(fabric), "%sf", tmp);
	snprintf(shm, sizeof(shm), "rio_sim.%s", fabric);
	snprintf(ctl, sizeof(ctl), "/tmp/%s.ctl", fabric);
	rh_ctl = rio_test_map_file(ctl, sizeof(*rh_ctl), true);
	if (rh_ctl == NULL)
		return TEST_FAILED;
	snprintf(vdev, sizeof(vdev), "rio_sim_%s_h", tmp);
	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:chain:2,endpoint=ep0", fabric);
	mp = rte_pktmbuf_pool_create("rh_host", RH_NB_MBUF, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	if (mp == NULL || rte_vdev_init(vdev, args) != 0) {
		printf("cannot create the host mport %s\n", vdev);
		goto out;
	}
	mport = rte_rio_mport_find(vdev);
	if (mport == NULL || !rte_rio_mport_scanned(mport) ||
	    rh_port_start(vdev, mp, &port_id) != 0) {
		printf("host mport or its rionet port not ready\n");
		goto out;
	}
	rte_pmd_rio_sim_fabric_config_read(fabric, "ep2", RTE_RIO_DID_CSR, 4, &did);
	ep2 = RTE_RIO_GET_DID(8, did);
	{
		char *argv[] = { "--no-huge", "-m", "256", "--no-pci", fp,
				 "--log-level=lib.eal:error", "-d", (char *)(uintptr_t)drv, "--",
				 fabric, ctl, NULL };

		snprintf(fp, sizeof(fp), "--file-prefix=%s", prefix);
		pid = rio_test_spawn("rionet_hotplug_agent", argv);
	}
	if (pid <= 0) {
		printf("cannot start the agent\n");
		goto out;
	}
	/* The agent's JOIN makes our link up. */
	if (rh_link_wait(port_id, RTE_ETH_LINK_UP, 30000) != 0) {
		printf("the agent never joined\n");
		goto out;
	}
	rx = rh_exchange(port_id, mp, ep2, 100, 10000, &max_tx_us);
	if (rx < 100) {
		printf("before the flap: %u frames from the agent\n", rx);
		goto out;
	}

	/* Down: the agent leaves the bus, rionet drops it, sends fail and are counted. */
	rte_eth_stats_get(port_id, &st0);
	t0 = rte_get_timer_cycles();
	if (rte_pmd_rio_sim_fabric_link_set(fabric, "sw0", 2, false) != 0 ||
	    rh_link_wait(port_id, RTE_ETH_LINK_DOWN, 5000) != 0) {
		printf("the link went down but rionet kept the agent as a peer\n");
		goto out;
	}
	printf("agent dropped as a peer %" PRIu64 " ms after the link went down\n",
	       (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz());
	if (rte_rio_dev_find_by_destid(mport, ep2) != NULL) {
		printf("ep2 still known behind a dead link\n");
		goto out;
	}
	rh_exchange(port_id, mp, ep2, UINT32_MAX, 300, &max_tx_us);
	rte_eth_stats_get(port_id, &st1);
	printf("during the flap: %" PRIu64 " frames failed, %" PRIu64 " sent\n",
	       st1.oerrors - st0.oerrors, st1.opackets - st0.opackets);
	if (st1.oerrors <= st0.oerrors) {
		printf("no send error counted during the flap\n");
		goto out;
	}

	/* Up: enumerated again, JOIN again, traffic resumes both ways. */
	t0 = rte_get_timer_cycles();
	if (rte_pmd_rio_sim_fabric_link_set(fabric, "sw0", 2, true) != 0 ||
	    rh_link_wait(port_id, RTE_ETH_LINK_UP, 5000) != 0) {
		printf("the agent did not join again after the link came back\n");
		goto out;
	}
	printf("agent joined again %" PRIu64 " ms after the link came back\n",
	       (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz());
	if (rte_rio_dev_find_by_destid(mport, ep2) == NULL) {
		printf("ep2 did not come back with device ID 0x%x\n", ep2);
		goto out;
	}
	rte_eth_stats_get(port_id, &st0);
	rx = rh_exchange(port_id, mp, ep2, 100, 10000, &max_tx_us);
	rte_eth_stats_get(port_id, &st1);
	if (rx < 100 || st1.opackets == st0.opackets) {
		printf("after the flap: %u frames from the agent, %" PRIu64 " sent\n", rx,
		       st1.opackets - st0.opackets);
		goto out;
	}
	printf("longest rte_eth_tx_burst: %" PRIu64 " us\n", max_tx_us);
	if (max_tx_us > 1000000) {
		printf("a send blocked for more than 1 s\n");
		goto out;
	}
	if (rte_rio_hotplug_stats_get(mport, &hs) != 0 || hs.link_down != 1 ||
	    hs.link_up != 1 || hs.dev_removed != 2 || hs.dev_added != 2) {
		printf("hot-plug stats: %" PRIu64 " down, %" PRIu64 " up, %" PRIu64
		       " removed, %" PRIu64 " added\n", hs.link_down, hs.link_up,
		       hs.dev_removed, hs.dev_added);
		goto out;
	}
	/* What the agent sent last, after what it sent before and during the flap. */
	rte_delay_us_sleep(20000);
	rh_recv(port_id, RH_A2H, NULL);
	for (i = 0; i < 20; i++) {
		rh_send(port_id, mp, ep2, RH_ETH_STOP, 1, RH_H2A);
		rte_delay_us_sleep(5000);
		rh_recv(port_id, RH_A2H, NULL);
	}
	status = rio_test_wait(pid, 20000);
	pid = -1;
	if (status != 0) {
		printf("agent exit status %d\n", status);
		goto out;
	}
	rte_delay_us_sleep(20000);
	rh_recv(port_id, RH_A2H, NULL);
	/* Every frame, from the first on: before, during and after the flap. */
	if (rh_account(RH_H2A, "host to agent") + rh_account(RH_A2H, "agent to host") != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		rio_test_wait(pid, 5000);
	}
	if (port_id < RTE_MAX_ETHPORTS)
		rh_port_close(port_id);
	rte_vdev_uninit(vdev);
	rte_mempool_free(mp);
	rio_test_runtime_dir_cleanup(prefix);
	if (rio_test_shm_count(shm) != 0) {
		printf("shared memory left by %s\n", fabric);
		rio_test_shm_cleanup(shm);
		ret = TEST_FAILED;
	}
	munmap(rh_ctl, sizeof(*rh_ctl));
	rh_ctl = NULL;
	unlink(ctl);
	return ret;
}

REGISTER_TEST_COMMAND(rionet_hotplug_autotest, test_rionet_hotplug);

static struct unit_test_suite rio_hotplug_suite = {
	.suite_name = "rio hot-plug",
	.unit_test_cases = {
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_errors),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_middle_link),
		{ hp_setup_cps1848, hp_teardown, test_hp_middle_link,
		  "test_hp_middle_link on cps1848 and tsi721", 1 },
		{ hp_setup_rxs2448, hp_teardown, test_hp_middle_link,
		  "test_hp_middle_link on rxs2448", 1 },
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_auto_poll),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_late_insertion),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_rapid_flaps),
		TEST_CASE_ST(hp_setup_star, hp_teardown, test_hp_16bit),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_word_access),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_link_recovery),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_link_recovery_far),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_link_recovery_both),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_link_recovery_none),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_link_recovery_reset),
		TEST_CASE_ST(hp_setup, hp_teardown, test_hp_link_recovery_random),
		{ hp_setup_cps1848, hp_teardown, test_hp_link_recovery_far,
		  "test_hp_link_recovery_far on cps1848 and tsi721", 1 },
		{ hp_setup_rxs2448, hp_teardown, test_hp_link_recovery_far,
		  "test_hp_link_recovery_far on rxs2448", 1 },
		{ hp_setup_rxs2448, hp_teardown, test_hp_link_recovery_both,
		  "test_hp_link_recovery_both on rxs2448", 1 },
		{ hp_setup_rxs2448, hp_teardown, test_hp_link_recovery_random,
		  "test_hp_link_recovery_random on rxs2448", 1 },
		TEST_CASE(test_hp_no_leak),
		TEST_CASES_END()
	}
};

static int
test_rio_hotplug(void)
{
	return unit_test_suite_runner(&rio_hotplug_suite);
}

REGISTER_TEST_COMMAND(rio_hotplug_autotest, test_rio_hotplug);
