/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Autotests of the rio bus (drivers/bus/rio) and of the /rio/ telemetry
 * commands (lib/rio/rio_telemetry.c).
 *
 * bus_rio_autotest brings up an emulated fabric (builtin:default: switch sw0,
 * host ep0 and agent ep1) as two rio_sim mports of this process, so the bus
 * holds 6 devices: each mport's two endpoints and the switch. Three test
 * drivers are registered before the fabric exists, in this order:
 * "decline" (wildcard table, probe returns > 0), "exact" (the emulator's
 * endpoint vid/did) and "any" (wildcard). The checks: who got probed for
 * what, refcounting, searches, callbacks, unplug/replug, removal of a whole
 * mport, -b at run time and -a through EAL in a child process.
 *
 * bus_rio_telemetry_autotest starts a child that brings up the fabric and
 * waits, and queries it with the stock /usr/bin/dpdk-telemetry.py.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <bus_driver.h>
#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_memory.h>

#include <bus_rio_driver.h>
#include <rio_driver.h>
#include <rte_rio.h>
#include <rte_rio_dev.h>

#include "test.h"

/* IDs the emulator gives its devices (drivers/raw/rio_sim/rio_sim_topology.c). */
#define BR_SIM_VID		0x5253
#define BR_SIM_DID_EP		0x0001
#define BR_SIM_DID_SW		0x0002

#define BR_HOST			"rio_sim_brh"
#define BR_AGENT		"rio_sim_bra"
#define BR_WAITER		"rio_sim_brw"
#define BR_WAITER_HOST		"rio_sim_brwh"
#define BR_NDEV			6	/* 2 mports x (2 endpoints + 1 switch) */
#define BR_MAX_NAMES		16
#define BR_DISC_MS		10000
#define BR_TELEMETRY_PY		"/usr/bin/dpdk-telemetry.py"

struct br_drv_stats {
	unsigned int probes;
	unsigned int binds;
	unsigned int removes;
	char bound[BR_MAX_NAMES][RTE_RIO_NAME_MAX_LEN];
};

struct br_cb_stats {
	unsigned int adds;
	unsigned int removes;
	unsigned int updates;
	char added[BR_MAX_NAMES][RTE_RIO_NAME_MAX_LEN];
	char removed[BR_MAX_NAMES][RTE_RIO_NAME_MAX_LEN];
};

static char br_fabric[48];
static bool br_host_up, br_agent_up;
static uint16_t br_agent_id;	/* the agent's mport ID */
static struct br_drv_stats br_st_decline, br_st_exact, br_st_any, br_st_late;
static struct br_cb_stats br_cb_a, br_cb_b, br_cb_c;

/* ------------------------------------------------------------------ */
/* Test drivers                                                       */

static int
br_probe_decline(struct rte_rio_driver *drv, struct rte_rio_device *dev,
		 const struct rte_rio_device_id *id)
{
	RTE_SET_USED(drv);
	RTE_SET_USED(dev);
	RTE_SET_USED(id);
	br_st_decline.probes++;
	return 1;
}

static void
br_record_bind(struct br_drv_stats *st, struct rte_rio_device *dev)
{
	st->probes++;
	if (st->binds < BR_MAX_NAMES)
		snprintf(st->bound[st->binds], RTE_RIO_NAME_MAX_LEN, "%s", dev->name);
	st->binds++;
}

static int
br_probe_exact(struct rte_rio_driver *drv, struct rte_rio_device *dev,
	       const struct rte_rio_device_id *id)
{
	RTE_SET_USED(drv);
	if (id == NULL || id->vid != BR_SIM_VID || id->did != BR_SIM_DID_EP)
		return -EINVAL;
	br_record_bind(&br_st_exact, dev);
	return 0;
}

static int
br_remove_exact(struct rte_rio_device *dev)
{
	RTE_SET_USED(dev);
	br_st_exact.removes++;
	return 0;
}

static int
br_probe_any(struct rte_rio_driver *drv, struct rte_rio_device *dev,
	     const struct rte_rio_device_id *id)
{
	RTE_SET_USED(drv);
	RTE_SET_USED(id);
	br_record_bind(&br_st_any, dev);
	return 0;
}

static int
br_remove_any(struct rte_rio_device *dev)
{
	RTE_SET_USED(dev);
	br_st_any.removes++;
	return 0;
}

static int
br_probe_late(struct rte_rio_driver *drv, struct rte_rio_device *dev,
	      const struct rte_rio_device_id *id)
{
	RTE_SET_USED(drv);
	RTE_SET_USED(id);
	br_record_bind(&br_st_late, dev);
	return 0;
}

static int
br_remove_late(struct rte_rio_device *dev)
{
	RTE_SET_USED(dev);
	br_st_late.removes++;
	return 0;
}

static void br_cb(struct rte_rio_device *dev, enum rte_rio_bus_event ev, void *arg);

static bool br_cbreg_armed;

/* Once armed, registers callback C from a probe (as rionet does); always declines. */
static int
br_probe_cbreg(struct rte_rio_driver *drv, struct rte_rio_device *dev,
	       const struct rte_rio_device_id *id)
{
	RTE_SET_USED(drv);
	RTE_SET_USED(dev);
	RTE_SET_USED(id);
	if (br_cbreg_armed)
		rte_rio_device_callback_register(br_cb, &br_cb_c);
	return 1;
}

static const struct rte_rio_device_id br_ids_any[] = {
	{ .vid = RTE_RIO_ANY_ID, .did = RTE_RIO_ANY_ID,
	  .asm_vid = RTE_RIO_ANY_ID, .asm_did = RTE_RIO_ANY_ID },
	{ 0 },
};

static const struct rte_rio_device_id br_ids_exact[] = {
	{ RTE_RIO_DEVICE(BR_SIM_VID, BR_SIM_DID_EP) },
	{ 0 },
};

static struct rte_rio_driver br_drv_decline = {
	.driver = { .name = "br_decline" },
	.id_table = br_ids_any,
	.probe = br_probe_decline,
};

static struct rte_rio_driver br_drv_exact = {
	.driver = { .name = "br_exact" },
	.id_table = br_ids_exact,
	.probe = br_probe_exact,
	.remove = br_remove_exact,
};

static struct rte_rio_driver br_drv_any = {
	.driver = { .name = "br_any" },
	.id_table = br_ids_any,
	.probe = br_probe_any,
	.remove = br_remove_any,
};

static struct rte_rio_driver br_drv_cbreg = {
	.driver = { .name = "br_cbreg" },
	.id_table = br_ids_any,
	.probe = br_probe_cbreg,
};

static struct rte_rio_driver br_drv_late = {
	.driver = { .name = "br_late" },
	.id_table = br_ids_exact,
	.probe = br_probe_late,
	.remove = br_remove_late,
};

static void
br_cb(struct rte_rio_device *dev, enum rte_rio_bus_event ev, void *arg)
{
	struct br_cb_stats *st = arg;

	if (ev == RTE_RIO_BUS_EVENT_ADD) {
		if (st->adds < BR_MAX_NAMES)
			snprintf(st->added[st->adds], RTE_RIO_NAME_MAX_LEN, "%s", dev->name);
		st->adds++;
	} else if (ev == RTE_RIO_BUS_EVENT_UPDATE) {
		st->updates++;
	} else {
		if (st->removes < BR_MAX_NAMES)
			snprintf(st->removed[st->removes], RTE_RIO_NAME_MAX_LEN, "%s",
				 dev->name);
		st->removes++;
	}
}

/* ------------------------------------------------------------------ */
/* Fabric helpers                                                     */

static const char *
br_unique_fabric(const char *base, char *buf, size_t len)
{
	char tmp[32];

	if (rio_test_unique(base, tmp, sizeof(tmp)) == NULL)
		return NULL;
	/* Trailing 'f': no fabric name is a prefix of another one. */
	snprintf(buf, len, "%sf", tmp);
	return buf;
}

static int
br_shm_count(const char *fabric)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	return rio_test_shm_count(prefix);
}

static void
br_shm_cleanup(const char *fabric)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	rio_test_shm_cleanup(prefix);
}

/* Create mport @name on endpoint @ep of @fabric (@topo) and scan it. */
static int
br_mport_up_topo(const char *name, const char *fabric, const char *topo, const char *ep)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = BR_DISC_MS };
	struct rte_rio_mport *mport;
	char args[160];
	int ret;

	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=%s", fabric, topo, ep);
	ret = rte_vdev_init(name, args);
	if (ret != 0) {
		printf("rte_vdev_init(%s, %s): %d\n", name, args, ret);
		return ret < 0 ? ret : -EIO;
	}
	mport = rte_rio_mport_find(name);
	if (mport == NULL) {
		printf("no mport %s\n", name);
		return -ENODEV;
	}
	ret = rte_rio_mport_scan(mport, &conf);
	if (ret == -EALREADY)
		ret = 0;
	if (ret < 0)
		printf("rte_rio_mport_scan(%s): %d\n", name, ret);
	return ret;
}

static int
br_mport_up(const char *name, const char *fabric, const char *ep)
{
	/* The drivers match the emulator's own IDs: the specification models'. */
	return br_mport_up_topo(name, fabric, "builtin:default/std/generic", ep);
}

/* Name of the device of @mport_name with (type, local), from lib/rio. */
static int
br_lib_name(const char *mport_name, enum rte_rio_dev_type type, bool local, char *buf)
{
	struct rte_rio_mport *mport = rte_rio_mport_find(mport_name);
	struct rte_rio_dev_info info;
	struct rte_rio_dev *d = NULL;

	if (mport == NULL)
		return -ENODEV;
	while ((d = rte_rio_dev_next(mport, d)) != NULL) {
		if (rte_rio_dev_info_get(d, &info) == 0 && info.type == type &&
		    info.local == local) {
			snprintf(buf, RTE_RIO_NAME_MAX_LEN, "%s", info.name);
			return 0;
		}
	}
	return -ENOENT;
}

static bool
br_in(char names[][RTE_RIO_NAME_MAX_LEN], unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n && i < BR_MAX_NAMES; i++) {
		if (strcmp(names[i], name) == 0)
			return true;
	}
	return false;
}

/*
 * After rte_eal_init() returned @p ret: the application arguments (after
 * the program name and an optional "--"). @return their count.
 */
static int
br_child_args(int argc, char **argv, int ret, char ***out)
{
	argc -= ret;
	argv += ret;
	/* argv[0] is the program name again. */
	if (argc > 0) {
		argc--;
		argv++;
	}
	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	*out = argv;
	return argc;
}

/* ------------------------------------------------------------------ */
/* Suite setup                                                        */

static int
br_setup(void)
{
	struct rte_rio_mport_info minfo;

	if (br_unique_fabric("brs", br_fabric, sizeof(br_fabric)) == NULL)
		return TEST_FAILED;
	memset(&br_st_decline, 0, sizeof(br_st_decline));
	memset(&br_st_exact, 0, sizeof(br_st_exact));
	memset(&br_st_any, 0, sizeof(br_st_any));
	memset(&br_cb_a, 0, sizeof(br_cb_a));
	/* Drivers and a callback first: devices are probed as they appear. */
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_decline), "register decline");
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_exact), "register exact");
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_any), "register any");
	TEST_ASSERT_SUCCESS(rte_rio_device_callback_register(br_cb, &br_cb_a), "callback A");
	TEST_ASSERT_SUCCESS(br_mport_up(BR_HOST, br_fabric, "ep0"), "host mport");
	br_host_up = true;
	TEST_ASSERT_SUCCESS(br_mport_up(BR_AGENT, br_fabric, "ep1"), "agent mport");
	br_agent_up = true;
	TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(rte_rio_mport_find(BR_AGENT), &minfo),
			    "agent mport info");
	br_agent_id = minfo.id;
	return TEST_SUCCESS;
}

static void
br_teardown(void)
{
	rte_rio_device_callback_unregister(br_cb, &br_cb_a);
	rte_rio_device_callback_unregister(br_cb, &br_cb_b);
	rte_rio_device_callback_unregister(br_cb, &br_cb_c);
	rte_rio_driver_unregister(&br_drv_cbreg);
	if (br_agent_up)
		rte_vdev_uninit(BR_AGENT);
	if (br_host_up)
		rte_vdev_uninit(BR_HOST);
	br_agent_up = false;
	br_host_up = false;
	rte_rio_driver_unregister(&br_drv_late);
	rte_rio_driver_unregister(&br_drv_any);
	rte_rio_driver_unregister(&br_drv_exact);
	rte_rio_driver_unregister(&br_drv_decline);
	br_shm_cleanup(br_fabric);
}

/* ------------------------------------------------------------------ */
/* Cases                                                              */

static int
test_br_registration_errors(void)
{
	struct rte_rio_driver nameless = { .id_table = br_ids_any, .probe = br_probe_any };
	struct rte_rio_driver notable = { .driver = { .name = "x" }, .probe = br_probe_any };

	TEST_ASSERT_EQUAL(rte_rio_driver_register(NULL), -EINVAL, "NULL driver");
	TEST_ASSERT_EQUAL(rte_rio_driver_register(&nameless), -EINVAL, "no name");
	TEST_ASSERT_EQUAL(rte_rio_driver_register(&notable), -EINVAL, "no id table");
	TEST_ASSERT_EQUAL(rte_rio_driver_register(&br_drv_exact), -EEXIST, "twice");
	TEST_ASSERT_EQUAL(rte_rio_driver_unregister(&notable), -ENOENT, "not registered");
	TEST_ASSERT_EQUAL(rte_rio_device_callback_register(NULL, NULL), -EINVAL, "NULL cb");
	TEST_ASSERT_EQUAL(rte_rio_device_callback_register(br_cb, &br_cb_a), -EEXIST, "cb twice");
	TEST_ASSERT_EQUAL(rte_rio_device_callback_unregister(br_cb, &br_st_any), -ENOENT,
			  "unknown cb");
	TEST_ASSERT_NULL(rte_rio_device_name(NULL), "name of NULL");
	TEST_ASSERT_NULL(rte_rio_device_rdev(NULL), "rdev of NULL");
	return TEST_SUCCESS;
}

/*
 * Device names the bus accepts, and EAL's parsing of them: without the bus
 * prefix, with "rio:", with "bus=rio,name=", and with driver arguments.
 */
static int
test_br_parse(void)
{
	struct rte_bus *bus = rte_bus_find_by_name(RTE_RIO_BUS_NAME);
	static const char * const good[] = {
		"rapidio0", "rapidio9", "rapidio31", "00:e:0001", "1f:e:ffff", "00:s:0002",
		"00:s:1ffff",
	};
	static const char * const bad[] = {
		"rapidio", "rapidio01", "rapidio1234", "rapidio0x", "Rapidio0", "00:e:001",
		"00:e:00001", "00:x:0001", "0:e:0001", "000:e:0001", "00:E:0001",
		"00:e:000g", "00-e-0001", "00:e:0001:", "rio_sim0-e0001", "rio_sim0",
		"net_ring0", "sim0-e0000", "",
	};
	/* Legacy strings: name, then what EAL must keep as driver arguments. */
	static const char * const legacy[][3] = {
		{ "00:e:0001", "00:e:0001", "" },
		{ "rapidio0,mbox=1", "rapidio0", "mbox=1" },
		{ "rio:rapidio1,mbox=2,rx_zero_copy=1", "rapidio1", "mbox=2,rx_zero_copy=1" },
		{ "rio:00:s:0002", "00:s:0002", "" },
		{ "0a:e:00ff,x=y", "0a:e:00ff", "x=y" },
	};
	char name[RTE_RIO_NAME_MAX_LEN], longname[RTE_RIO_NAME_MAX_LEN + 8];
	struct rte_devargs da;
	unsigned int i;

	TEST_ASSERT_NOT_NULL(bus, "bus registered");
	for (i = 0; i < RTE_DIM(good); i++) {
		TEST_ASSERT_SUCCESS(bus->parse(good[i], name), "\"%s\" refused", good[i]);
		TEST_ASSERT(strcmp(name, good[i]) == 0, "parsed %s as %s", good[i], name);
	}
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT(bus->parse(bad[i], NULL) != 0, "\"%s\" accepted", bad[i]);
	memset(longname, '0', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memcpy(longname, "rapidio1", 8);
	TEST_ASSERT(bus->parse(longname, NULL) != 0, "name too long accepted");

	/*
	 * EAL's legacy syntax gives a name to the first bus whose name starts
	 * it, else to the first bus whose parser takes it (vdev takes any name
	 * that starts with a vdev driver's name): every rio name must reach the
	 * rio bus whole, with or without "rio:".
	 */
	for (i = 0; i < RTE_DIM(legacy); i++) {
		TEST_ASSERT_SUCCESS(rte_devargs_parse(&da, legacy[i][0]), "parse %s",
				    legacy[i][0]);
		TEST_ASSERT(da.bus == bus, "%s went to bus %s", legacy[i][0],
			    da.bus != NULL ? rte_bus_name(da.bus) : "none");
		TEST_ASSERT(strcmp(da.name, legacy[i][1]) == 0, "%s: name %s", legacy[i][0],
			    da.name);
		TEST_ASSERT(strcmp(da.args, legacy[i][2]) == 0, "%s: arguments \"%s\"",
			    legacy[i][0], da.args);
		rte_devargs_reset(&da);
	}
	TEST_ASSERT_SUCCESS(rte_devargs_parse(&da, "bus=rio,name=00:s:0002"), "bus= syntax");
	TEST_ASSERT(da.bus == bus && strcmp(da.name, "00:s:0002") == 0, "bus= syntax");
	rte_devargs_reset(&da);
	/* The mport's own name stays the vdev bus's. */
	TEST_ASSERT_SUCCESS(rte_devargs_parse(&da, BR_HOST), "parse %s", BR_HOST);
	TEST_ASSERT(da.bus == rte_bus_find_by_name("vdev"), "%s left the vdev bus", BR_HOST);
	rte_devargs_reset(&da);
	if (rte_devargs_parse(&da, "rio:00:x:0001") == 0)
		TEST_ASSERT(da.bus != bus, "bad name went to the rio bus");
	rte_devargs_reset(&da);
	return TEST_SUCCESS;
}

/* The seed's rio_match_device rule on hand-made devices. */
static int
test_br_match_rules(void)
{
	static const struct rte_rio_device_id tbl[] = {
		{ .vid = 0x1111, .did = 0x2222, .asm_vid = RTE_RIO_ANY_ID,
		  .asm_did = RTE_RIO_ANY_ID },
		/* vid 0 but asm_vid set: a valid entry, not the end. */
		{ .vid = 0, .did = RTE_RIO_ANY_ID, .asm_vid = 0x3333, .asm_did = 0x4444 },
		{ .vid = RTE_RIO_ANY_ID, .did = 0x5555, .asm_vid = RTE_RIO_ANY_ID,
		  .asm_did = RTE_RIO_ANY_ID },
		{ 0 },
		/* After the end: never looked at. */
		{ .vid = RTE_RIO_ANY_ID, .did = RTE_RIO_ANY_ID, .asm_vid = RTE_RIO_ANY_ID,
		  .asm_did = RTE_RIO_ANY_ID },
	};
	struct rte_rio_device d;

	memset(&d, 0, sizeof(d));
	d.vid = 0x1111;
	d.did = 0x2222;
	TEST_ASSERT(rte_rio_device_match_id(tbl, &d) == &tbl[0], "exact vid/did");
	d.did = 0x2223;
	TEST_ASSERT_NULL(rte_rio_device_match_id(tbl, &d), "did differs, nothing after the end");
	d.vid = 0;
	d.asm_vid = 0x3333;
	d.asm_did = 0x4444;
	TEST_ASSERT(rte_rio_device_match_id(tbl, &d) == &tbl[1], "vid 0 entry with asm ids");
	d.asm_did = 0x4445;
	TEST_ASSERT_NULL(rte_rio_device_match_id(tbl, &d), "asm_did differs");
	d.vid = 0x9999;
	d.did = 0x5555;
	TEST_ASSERT(rte_rio_device_match_id(tbl, &d) == &tbl[2], "wildcard vid");
	d.vid = 0x1111;
	d.did = 0x2222;
	TEST_ASSERT(rte_rio_device_match_id(tbl, &d) == &tbl[0], "first match wins");
	TEST_ASSERT_NULL(rte_rio_device_match_id(&tbl[3], &d), "empty table");
	TEST_ASSERT_NULL(rte_rio_device_match_id(NULL, &d), "NULL table");
	return TEST_SUCCESS;
}

/* Every lib device is on the bus, with its IDs, probed by exactly the right driver. */
static int
test_br_probe_at_add(void)
{
	struct rte_rio_dev_info info;
	struct rte_rio_device *dev;
	struct rte_rio_dev *d = NULL;
	unsigned int n_lib = 0, n_ep = 0, n_sw = 0, i;

	while ((d = rte_rio_dev_next(NULL, d)) != NULL) {
		TEST_ASSERT_SUCCESS(rte_rio_dev_info_get(d, &info), "lib info");
		n_lib++;
		dev = rte_rio_device_find_by_name(info.name);
		TEST_ASSERT_NOT_NULL(dev, "%s not on the bus", info.name);
		TEST_ASSERT(dev->rdev == d, "%s: lib device pointer", info.name);
		TEST_ASSERT(rte_rio_device_rdev(dev) == d, "%s: rte_rio_device_rdev()", info.name);
		TEST_ASSERT(strcmp(rte_rio_device_name(dev), info.name) == 0,
			    "%s: rte_rio_device_name()", info.name);
		TEST_ASSERT(strcmp(dev->device.name, info.name) == 0, "%s: rte_device name",
			    info.name);
		TEST_ASSERT(RTE_DEV_TO_RIO(&dev->device) == dev, "container_of");
		TEST_ASSERT(dev->device.numa_node == SOCKET_ID_ANY, "numa");
		TEST_ASSERT(dev->vid == info.vid && dev->did == info.did &&
			    dev->asm_vid == info.asm_vid && dev->asm_did == info.asm_did &&
			    dev->asm_rev == info.asm_rev && dev->device_rev == info.device_rev &&
			    dev->destid == info.destid && dev->comptag == info.comptag &&
			    dev->type == info.type && dev->local == info.local &&
			    dev->hopcount == info.hopcount,
			    "%s: cached IDs differ from lib/rio", info.name);
		TEST_ASSERT(dev->mport == rte_rio_dev_mport(d), "%s: mport", info.name);
		TEST_ASSERT_EQUAL(dev->vid, BR_SIM_VID, "%s: emulator vid", info.name);
		if (info.type == RTE_RIO_DEV_ENDPOINT) {
			n_ep++;
			TEST_ASSERT_EQUAL(dev->did, BR_SIM_DID_EP, "%s: did", info.name);
			TEST_ASSERT(dev->driver == &br_drv_exact, "%s: not bound to exact",
				    info.name);
			TEST_ASSERT(br_in(br_st_exact.bound, br_st_exact.binds, info.name),
				    "%s: exact probe did not see it", info.name);
		} else {
			n_sw++;
			TEST_ASSERT_EQUAL(dev->did, BR_SIM_DID_SW, "%s: did", info.name);
			TEST_ASSERT(dev->driver == &br_drv_any, "%s: not bound to any",
				    info.name);
			TEST_ASSERT(br_in(br_st_any.bound, br_st_any.binds, info.name),
				    "%s: any probe did not see it", info.name);
		}
		TEST_ASSERT(dev->device.driver == &dev->driver->driver, "%s: rte_driver",
			    info.name);
		rte_rio_device_put(dev);
	}
	TEST_ASSERT_EQUAL(n_lib, BR_NDEV, "lib/rio devices");
	TEST_ASSERT_EQUAL(n_ep, 4, "endpoints");
	TEST_ASSERT_EQUAL(n_sw, 2, "switches");
	TEST_ASSERT_EQUAL(rte_rio_device_count(), BR_NDEV, "bus devices");
	/* decline saw all 6 and left them free; exact took the 4 endpoints, any the rest. */
	TEST_ASSERT_EQUAL(br_st_decline.probes, BR_NDEV, "decline probes");
	TEST_ASSERT_EQUAL(br_st_exact.binds, 4, "exact binds");
	TEST_ASSERT_EQUAL(br_st_exact.probes, 4, "exact probed only for matches");
	TEST_ASSERT_EQUAL(br_st_any.binds, 2, "any binds");
	for (i = 0; i < br_st_any.binds; i++)
		TEST_ASSERT_NOT_NULL(strstr(br_st_any.bound[i], ":s:"), "any bound %s",
				     br_st_any.bound[i]);
	TEST_ASSERT_EQUAL(br_cb_a.adds, BR_NDEV, "ADD callbacks");
	TEST_ASSERT_EQUAL(br_cb_a.removes, 0, "REMOVE callbacks");
	/* The bus is found by name, and EAL finds its devices. */
	TEST_ASSERT_NOT_NULL(rte_bus_find_by_name(RTE_RIO_BUS_NAME), "bus registered");
	return TEST_SUCCESS;
}

#define BR_REF_LOOPS	200000

static void *
br_ref_worker(void *arg)
{
	struct rte_rio_device *dev = arg;
	unsigned int i;

	for (i = 0; i < BR_REF_LOOPS; i++) {
		rte_rio_device_get(dev);
		rte_rio_device_put(dev);
	}
	return NULL;
}

/* Two threads taking and dropping references: the count ends where it began. */
static int
test_br_get_put_threads(void)
{
	char name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_device *dev;
	pthread_t t[2];
	unsigned int i;

	TEST_ASSERT_SUCCESS(br_lib_name(BR_HOST, RTE_RIO_DEV_ENDPOINT, false, name), "peer");
	dev = rte_rio_device_find_by_name(name);
	TEST_ASSERT_NOT_NULL(dev, "find %s", name);
	for (i = 0; i < RTE_DIM(t); i++)
		TEST_ASSERT_SUCCESS(pthread_create(&t[i], NULL, br_ref_worker, dev), "thread");
	for (i = 0; i < RTE_DIM(t); i++)
		pthread_join(t[i], NULL);
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(dev), 2, "bus + find after %u get/put pairs",
			  2 * BR_REF_LOOPS);
	rte_rio_device_put(dev);
	return TEST_SUCCESS;
}

/* EAL's device iterator over the bus (dev_iterate). */
static int
test_br_dev_iterate(void)
{
	char name[RTE_RIO_NAME_MAX_LEN], filter[RTE_RIO_NAME_MAX_LEN + 16];
	struct rte_dev_iterator it;
	struct rte_device *dev;
	unsigned int n = 0;

	RTE_DEV_FOREACH(dev, "bus=rio", &it) {
		TEST_ASSERT(strcmp(rte_bus_name(rte_dev_bus(dev)), RTE_RIO_BUS_NAME) == 0,
			    "%s is not on the rio bus", rte_dev_name(dev));
		n++;
	}
	TEST_ASSERT_EQUAL(n, rte_rio_device_count(), "devices iterated");
	TEST_ASSERT_SUCCESS(br_lib_name(BR_AGENT, RTE_RIO_DEV_SWITCH, false, name), "switch");
	snprintf(filter, sizeof(filter), "bus=rio,name=%s", name);
	n = 0;
	RTE_DEV_FOREACH(dev, filter, &it) {
		TEST_ASSERT(strcmp(rte_dev_name(dev), name) == 0, "%s iterated for %s",
			    rte_dev_name(dev), filter);
		n++;
	}
	TEST_ASSERT_EQUAL(n, 1, "devices iterated for %s", filter);
	return TEST_SUCCESS;
}

static int
test_br_get_put(void)
{
	char name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_device *dev;

	TEST_ASSERT_SUCCESS(br_lib_name(BR_HOST, RTE_RIO_DEV_SWITCH, false, name), "switch");
	dev = rte_rio_device_find_by_name(name);
	TEST_ASSERT_NOT_NULL(dev, "find %s", name);
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(dev), 2, "bus + find");
	TEST_ASSERT(rte_rio_device_get(dev) == dev, "get returns the device");
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(dev), 3, "after get");
	rte_rio_device_put(dev);
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(dev), 2, "after put");
	rte_rio_device_put(dev);
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(dev), 1, "bus only");
	TEST_ASSERT_NULL(rte_rio_device_get(NULL), "get NULL");
	rte_rio_device_put(NULL);
	TEST_ASSERT_NULL(rte_rio_device_find_by_name("1f:e:0001"), "unknown name");
	TEST_ASSERT_NULL(rte_rio_device_find_by_name(NULL), "NULL name");
	return TEST_SUCCESS;
}

static int
test_br_search(void)
{
	struct rte_rio_device *dev, *first, *seen[BR_NDEV];
	unsigned int n = 0, i, j;

	/* Endpoints by vid/did, each search continuing from the previous device. */
	first = rte_rio_device_find(BR_SIM_VID, BR_SIM_DID_EP, NULL);
	TEST_ASSERT_NOT_NULL(first, "first endpoint");
	rte_rio_device_get(first);	/* keep it for the refcount check below */
	for (dev = first; dev != NULL; dev = rte_rio_device_find(BR_SIM_VID, BR_SIM_DID_EP, dev)) {
		TEST_ASSERT(n < BR_NDEV, "search does not end");
		TEST_ASSERT_EQUAL(dev->did, BR_SIM_DID_EP, "%s did", dev->name);
		TEST_ASSERT(rte_rio_device_refcount(dev) >= 2, "%s returned unreferenced",
			    dev->name);
		for (j = 0; j < n; j++)
			TEST_ASSERT(seen[j] != dev, "%s returned twice", dev->name);
		seen[n++] = dev;
	}
	TEST_ASSERT_EQUAL(n, 4, "endpoints found");
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(first), 2, "from was put");
	/* Continue from the first one: the other three. */
	n = 0;
	dev = first;
	while ((dev = rte_rio_device_find(RTE_RIO_ANY_ID, BR_SIM_DID_EP, dev)) != NULL)
		n++;
	TEST_ASSERT_EQUAL(n, 3, "continued from the first endpoint");
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(seen[1]), 1, "refs dropped");

	/* Switches by assembly wildcard search. */
	n = 0;
	dev = NULL;
	while ((dev = rte_rio_device_find_asm(BR_SIM_VID, BR_SIM_DID_SW, RTE_RIO_ANY_ID,
					      RTE_RIO_ANY_ID, dev)) != NULL) {
		TEST_ASSERT_EQUAL(dev->type, RTE_RIO_DEV_SWITCH, "%s type", dev->name);
		n++;
	}
	TEST_ASSERT_EQUAL(n, 2, "switches found");
	/* Exact assembly IDs of one switch find the switches with those IDs. */
	dev = rte_rio_device_find(BR_SIM_VID, BR_SIM_DID_SW, NULL);
	TEST_ASSERT_NOT_NULL(dev, "a switch");
	first = rte_rio_device_find_asm(RTE_RIO_ANY_ID, RTE_RIO_ANY_ID, dev->asm_vid,
					dev->asm_did, NULL);
	TEST_ASSERT_NOT_NULL(first, "by assembly");
	TEST_ASSERT(first->asm_vid == dev->asm_vid && first->asm_did == dev->asm_did, "asm ids");
	rte_rio_device_put(first);
	rte_rio_device_put(dev);
	TEST_ASSERT_NULL(rte_rio_device_find(0x0bad, RTE_RIO_ANY_ID, NULL), "unknown vendor");

	/* FOREACH visits all 6 and leaves no reference behind. */
	n = 0;
	RTE_RIO_FOREACH_DEVICE(dev) {
		TEST_ASSERT(n < BR_NDEV, "foreach does not end");
		seen[n++] = dev;
	}
	TEST_ASSERT_EQUAL(n, BR_NDEV, "foreach count");
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(rte_rio_device_refcount(seen[i]), 1, "%s leaked a ref",
				  seen[i]->name);
	return TEST_SUCCESS;
}

static int
test_br_callbacks(void)
{
	memset(&br_cb_b, 0, sizeof(br_cb_b));
	TEST_ASSERT_SUCCESS(rte_rio_device_callback_register(br_cb, &br_cb_b), "register B");
	TEST_ASSERT_EQUAL(br_cb_b.adds, BR_NDEV, "present devices reported as ADD");
	TEST_ASSERT_SUCCESS(rte_rio_device_callback_unregister(br_cb, &br_cb_b), "unregister B");
	TEST_ASSERT_EQUAL(rte_rio_device_callback_unregister(br_cb, &br_cb_b), -ENOENT, "twice");
	return TEST_SUCCESS;
}

/*
 * rte_dev_remove() unbinds (remove called), a driver registered later binds
 * at its registration, rte_dev_probe() binds again.
 */
static int
test_br_unplug_replug(void)
{
	char name[RTE_RIO_NAME_MAX_LEN], devstr[RTE_RIO_NAME_MAX_LEN + 8];
	unsigned int removes = br_st_exact.removes, probes = br_st_decline.probes;
	struct rte_rio_device *dev;
	int ret;

	TEST_ASSERT_SUCCESS(br_lib_name(BR_HOST, RTE_RIO_DEV_ENDPOINT, true, name), "local ep");
	dev = rte_rio_device_find_by_name(name);
	TEST_ASSERT_NOT_NULL(dev, "find %s", name);
	TEST_ASSERT(dev->driver == &br_drv_exact, "bound to exact");
	TEST_ASSERT_SUCCESS(rte_dev_remove(&dev->device), "rte_dev_remove");
	TEST_ASSERT_EQUAL(br_st_exact.removes, removes + 1, "remove called");
	TEST_ASSERT_NULL(dev->driver, "still bound");
	TEST_ASSERT_NULL(dev->device.driver, "rte_device still bound");
	TEST_ASSERT_EQUAL(rte_rio_device_count(), BR_NDEV, "device left the bus");

	/* A driver registered now is offered the free device at once. */
	memset(&br_st_late, 0, sizeof(br_st_late));
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_late), "register late");
	TEST_ASSERT_EQUAL(br_st_late.binds, 1, "late driver bound");
	TEST_ASSERT(strcmp(br_st_late.bound[0], name) == 0, "late bound %s", br_st_late.bound[0]);
	TEST_ASSERT(dev->driver == &br_drv_late, "bound to late");
	TEST_ASSERT_SUCCESS(rte_rio_driver_unregister(&br_drv_late), "unregister late");
	TEST_ASSERT_EQUAL(br_st_late.removes, 1, "unregistering removed it");
	TEST_ASSERT_NULL(dev->driver, "bound after unregister");

	/* Explicit probe through EAL (legacy "rio:" syntax): first matching driver. */
	snprintf(devstr, sizeof(devstr), "rio:%s", name);
	ret = rte_dev_probe(devstr);
	TEST_ASSERT_SUCCESS(ret, "rte_dev_probe(%s)", devstr);
	TEST_ASSERT(dev->driver == &br_drv_exact, "rebound to exact");
	TEST_ASSERT_EQUAL(br_st_decline.probes, probes + 1, "decline asked first");
	/* EAL's rte_dev_probe() hides -EEXIST; the bus plug reports it. */
	TEST_ASSERT_EQUAL(rte_bus_find_by_name(RTE_RIO_BUS_NAME)->plug(&dev->device), -EEXIST,
			  "plug of a bound device");
	TEST_ASSERT(rte_dev_probe("rio:1f:e:0fff") != 0, "unknown device probed");
	rte_rio_device_put(dev);
	return TEST_SUCCESS;
}

/* Removing an mport: REMOVE events, remove() for bound devices, held device survives. */
static int
test_br_mport_removal(void)
{
	char name[RTE_RIO_NAME_MAX_LEN], saved[RTE_RIO_NAME_MAX_LEN];
	unsigned int ex = br_st_exact.removes, an = br_st_any.removes, cb = br_cb_a.removes;
	struct rte_rio_device *held, *next;

	TEST_ASSERT_SUCCESS(br_lib_name(BR_AGENT, RTE_RIO_DEV_ENDPOINT, false, name), "peer");
	held = rte_rio_device_find_by_name(name);
	TEST_ASSERT_NOT_NULL(held, "find %s", name);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(BR_AGENT), "remove agent mport");
	br_agent_up = false;
	TEST_ASSERT_EQUAL(br_cb_a.removes, cb + 3, "REMOVE callbacks");
	TEST_ASSERT(br_in(br_cb_a.removed, br_cb_a.removes, name), "%s not reported", name);
	TEST_ASSERT_EQUAL(br_st_exact.removes, ex + 2, "exact remove() calls");
	TEST_ASSERT_EQUAL(br_st_any.removes, an + 1, "any remove() calls");
	TEST_ASSERT_EQUAL(rte_rio_device_count(), BR_NDEV - 3, "bus devices");
	/* Held: still readable, detached from lib/rio, gone from lookups. */
	TEST_ASSERT_NULL(held->rdev, "lib pointer kept");
	TEST_ASSERT_NULL(rte_rio_device_rdev(held), "rte_rio_device_rdev() of a removed device");
	TEST_ASSERT(strcmp(rte_rio_device_name(held), name) == 0, "name of a removed device");
	TEST_ASSERT_NULL(held->driver, "driver kept");
	TEST_ASSERT(strcmp(held->name, name) == 0, "name");
	TEST_ASSERT_EQUAL(rte_rio_device_refcount(held), 1, "only our reference");
	TEST_ASSERT_NULL(rte_rio_device_find_by_name(name), "removed device found");
	/* A search continues from it (and frees it). */
	snprintf(saved, sizeof(saved), "%s", held->name);
	next = rte_rio_device_find(RTE_RIO_ANY_ID, RTE_RIO_ANY_ID, held);
	if (next != NULL) {
		TEST_ASSERT_NOT_NULL(next->rdev, "search returned a removed device");
		TEST_ASSERT(strncmp(next->name, BR_HOST, strlen(BR_HOST)) == 0,
			    "search after %s returned %s", saved, next->name);
		rte_rio_device_put(next);
	}
	return TEST_SUCCESS;
}

/* -b at run time (rte_devargs_add): the blocked device is never probed implicitly. */
static int
test_br_blocklist(void)
{
	char devstr[RTE_RIO_NAME_MAX_LEN + 8];
	unsigned int decline = br_st_decline.probes, binds;
	struct rte_rio_device *dev;

	/*
	 * The agent comes back as the same mport ID (the lowest free one, which
	 * it left), so its own endpoint has the same name.
	 */
	snprintf(devstr, sizeof(devstr), "rio:" RTE_RIO_DEV_NAME_LOCAL_FMT, br_agent_id);
	TEST_ASSERT_SUCCESS(rte_devargs_add(RTE_DEVTYPE_BLOCKED, devstr), "block %s", devstr);

	binds = br_st_exact.binds + br_st_any.binds;
	TEST_ASSERT_SUCCESS(br_mport_up(BR_AGENT, br_fabric, "ep1"), "agent again");
	br_agent_up = true;
	dev = rte_rio_device_find_by_name(devstr + 4);
	TEST_ASSERT_NOT_NULL(dev, "blocked device %s is on the bus", devstr + 4);
	TEST_ASSERT(dev->local, "%s is the agent's own endpoint", dev->name);
	TEST_ASSERT_NULL(dev->driver, "blocked device bound");
	TEST_ASSERT_EQUAL(br_st_decline.probes, decline + 2, "only 2 of 3 probed");
	TEST_ASSERT_EQUAL(br_st_exact.binds + br_st_any.binds, binds + 2, "others bound");
	/* Neither the bus probe nor a new driver takes it. */
	rte_bus_probe();
	TEST_ASSERT_NULL(dev->driver, "bus probe bound a blocked device");
	memset(&br_st_late, 0, sizeof(br_st_late));
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_late), "register late");
	TEST_ASSERT_EQUAL(br_st_late.binds, 0, "late driver took a blocked device");
	TEST_ASSERT_SUCCESS(rte_rio_driver_unregister(&br_drv_late), "unregister late");
	rte_rio_device_put(dev);
	return TEST_SUCCESS;
}

/*
 * A callback registered from a driver's probe while a device is being
 * added sees every device exactly once.
 */
static int
test_br_callback_from_probe(void)
{
	unsigned int i, j;

	TEST_ASSERT_SUCCESS(rte_vdev_uninit(BR_AGENT), "remove agent mport");
	br_agent_up = false;
	memset(&br_cb_c, 0, sizeof(br_cb_c));
	/* cbreg goes before exact and any, so that it is asked for every device. */
	TEST_ASSERT_SUCCESS(rte_rio_driver_unregister(&br_drv_exact), "unregister exact");
	TEST_ASSERT_SUCCESS(rte_rio_driver_unregister(&br_drv_any), "unregister any");
	br_cbreg_armed = false;
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_cbreg), "register cbreg");
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_exact), "register exact");
	TEST_ASSERT_SUCCESS(rte_rio_driver_register(&br_drv_any), "register any");
	/* Re-registered drivers took the host's devices back. */
	TEST_ASSERT_EQUAL(rte_rio_device_count(), 3, "host devices only");
	{
		struct rte_rio_device *dev;

		RTE_RIO_FOREACH_DEVICE(dev)
			TEST_ASSERT_NOT_NULL(dev->driver, "%s not bound again", dev->name);
	}
	TEST_ASSERT_EQUAL(br_cb_c.adds, 0, "callback registered too early");
	br_cbreg_armed = true;
	TEST_ASSERT_SUCCESS(br_mport_up(BR_AGENT, br_fabric, "ep1"), "agent again");
	br_agent_up = true;
	TEST_ASSERT_EQUAL(br_cb_c.adds, BR_NDEV, "ADD events seen by the late callback");
	for (i = 0; i < BR_NDEV; i++)
		for (j = i + 1; j < BR_NDEV; j++)
			TEST_ASSERT(strcmp(br_cb_c.added[i], br_cb_c.added[j]) != 0,
				    "%s reported twice", br_cb_c.added[i]);
	TEST_ASSERT_SUCCESS(rte_rio_device_callback_unregister(br_cb, &br_cb_c), "unregister C");
	TEST_ASSERT_SUCCESS(rte_rio_driver_unregister(&br_drv_cbreg), "unregister cbreg");
	return TEST_SUCCESS;
}

/*
 * -a through EAL, in a child: argv = EAL args, "--", fabric, allowed name,
 * its expected driver arguments. Only the allowed device may be bound, with
 * those arguments.
 */
static int
br_allow_child(int argc, char **argv)
{
	struct rte_rio_device *dev;
	unsigned int n = 0;
	int ret, rc = 1;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("allow child: rte_eal_init failed\n");
		return 2;
	}
	argc = br_child_args(argc, argv, ret, &argv);
	if (argc < 3) {
		printf("allow child: missing fabric, name and arguments (%d)\n", argc);
		goto out;
	}
	if (rte_rio_driver_register(&br_drv_any) < 0)
		goto out;
	if (br_mport_up(BR_HOST, argv[0], "ep0") < 0 || br_mport_up(BR_AGENT, argv[0], "ep1") < 0)
		goto out;
	RTE_RIO_FOREACH_DEVICE(dev) {
		n++;
		if ((dev->driver != NULL) != (strcmp(dev->name, argv[1]) == 0)) {
			printf("allow child: %s %sbound\n", dev->name,
			       dev->driver != NULL ? "" : "not ");
			rte_rio_device_put(dev);
			goto out;
		}
		if (dev->driver != NULL && (dev->device.devargs == NULL ||
					    strcmp(dev->device.devargs->args, argv[2]) != 0)) {
			printf("allow child: %s bound with arguments \"%s\", not \"%s\"\n",
			       dev->name, dev->device.devargs != NULL ?
			       dev->device.devargs->args : "(no devargs)", argv[2]);
			rte_rio_device_put(dev);
			goto out;
		}
	}
	if (n != BR_NDEV || br_st_any.binds != 1) {
		printf("allow child: %u devices, %u bound\n", n, br_st_any.binds);
		goto out;
	}
	rc = 0;
out:
	rte_vdev_uninit(BR_AGENT);
	rte_vdev_uninit(BR_HOST);
	rte_rio_driver_unregister(&br_drv_any);
	br_shm_cleanup(argc >= 1 ? argv[0] : "");
	rte_eal_cleanup();
	return rc;
}
REGISTER_TEST_CHILD(bus_rio_allow_child, br_allow_child);

/* Run the allow child with -a @p allow; the device must be bound with @p args. */
static int
br_allow_run(const char *allow, const char *name, const char *args)
{
	char fabric[48], prefix[48], fp[64];
	char *argv[] = { "--no-huge", "-m", "256", "--no-pci", fp, "--log-level=lib.eal:error",
			 "-a", (char *)(uintptr_t)allow, "--", fabric, (char *)(uintptr_t)name,
			 (char *)(uintptr_t)args, NULL };
	pid_t pid;
	int ret;

	TEST_ASSERT_NOT_NULL(br_unique_fabric("bra", fabric, sizeof(fabric)), "fabric");
	TEST_ASSERT_NOT_NULL(rio_test_unique("br_allow", prefix, sizeof(prefix)), "prefix");
	snprintf(fp, sizeof(fp), "--file-prefix=%s", prefix);
	pid = rio_test_spawn("bus_rio_allow_child", argv);
	TEST_ASSERT(pid > 0, "spawn: %d", (int)pid);
	ret = rio_test_wait(pid, 30000);
	br_shm_cleanup(fabric);
	rio_test_runtime_dir_cleanup(prefix);
	TEST_ASSERT_EQUAL(ret, 0, "child with -a %s", allow);
	return TEST_SUCCESS;
}

/*
 * -a <name>[,<args>] and -a rio:<name>: the named device, and only it, is
 * probed, with its arguments (a name that started with the bus name was
 * cut to its tail and probed nothing).
 */
static int
test_br_allowlist_eal(void)
{
	char name[RTE_RIO_NAME_MAX_LEN], local[RTE_RIO_NAME_MAX_LEN];
	char allow[RTE_RIO_NAME_MAX_LEN + 32];

	TEST_ASSERT_SUCCESS(br_lib_name(BR_HOST, RTE_RIO_DEV_ENDPOINT, false, name), "peer");
	TEST_ASSERT_SUCCESS(br_lib_name(BR_HOST, RTE_RIO_DEV_ENDPOINT, true, local), "local");
	snprintf(allow, sizeof(allow), "rio:%s", name);
	TEST_ASSERT_SUCCESS(br_allow_run(allow, name, ""), "-a rio:<peer>");
	snprintf(allow, sizeof(allow), "%s,key=value", name);
	TEST_ASSERT_SUCCESS(br_allow_run(allow, name, "key=value"), "-a <peer>,key=value");
	snprintf(allow, sizeof(allow), "%s,mbox=1", local);
	TEST_ASSERT_SUCCESS(br_allow_run(allow, local, "mbox=1"), "-a <local>,mbox=1");
	return TEST_SUCCESS;
}

/*
 * An agent that waits for its host with its own endpoint published
 * (publish_local): the endpoint is on the bus, described with the reset
 * device ID; the scan that discovers keeps the same device, reports it as
 * UPDATE with the device ID the host assigned, and adds the others.
 */
static int
test_br_agent_waits(void)
{
	struct rte_rio_scan_conf wait = { .no_wait = true, .publish_local = true };
	char fabric[48], args[160], local[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport_info minfo;
	struct rte_rio_device *dev;
	struct rte_rio_mport *mp;
	struct br_cb_stats st;
	unsigned int present;
	int ret = TEST_FAILED;

	memset(&st, 0, sizeof(st));
	TEST_ASSERT_NOT_NULL(br_unique_fabric("brw", fabric, sizeof(fabric)), "fabric");
	/* Devices already present are reported at registration. */
	TEST_ASSERT_SUCCESS(rte_rio_device_callback_register(br_cb, &st), "callback");
	present = st.adds;
	/* Generated shape: no preset IDs, the host assigns them. */
	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:chain:1,endpoint=ep1,scan=0",
		 fabric);
	if (rte_vdev_init(BR_WAITER, args) != 0)
		goto out;
	mp = rte_rio_mport_find(BR_WAITER);
	if (mp == NULL || rte_rio_mport_info_get(mp, &minfo) != 0)
		goto out;
	snprintf(local, sizeof(local), RTE_RIO_DEV_NAME_LOCAL_FMT, minfo.id);
	if (rte_rio_mport_scan(mp, &wait) != -EAGAIN) {
		printf("  an agent without a host did not wait\n");
		goto out;
	}
	dev = rte_rio_device_find_by_name(local);
	if (dev == NULL || !dev->local || dev->destid != RTE_RIO_ANY_DESTID(8) ||
	    st.adds != present + 1 || rte_rio_mport_scanned(mp) ||
	    rte_rio_mport_scan(mp, &wait) != -EAGAIN || st.adds != present + 1 ||
	    rte_rio_mport_scan_local(mp) != -EALREADY) {
		printf("  waiting: %s %s, %u ADD\n", local, dev != NULL ? "on the bus" : "missing",
		       st.adds - present);
		rte_rio_device_put(dev);
		goto out;
	}
	/* The host enumerates; the agent's next try discovers. */
	if (br_mport_up_topo(BR_WAITER_HOST, fabric, "builtin:chain:1", "ep0") != 0 ||
	    rte_rio_mport_scan(mp, &wait) != 0 || rte_rio_mport_info_get(mp, &minfo) != 0) {
		printf("  the agent did not discover after its host enumerated\n");
		rte_rio_device_put(dev);
		goto out;
	}
	if (st.updates != 1 || dev->rdev == NULL || dev->destid != minfo.destid ||
	    dev->destid == RTE_RIO_ANY_DESTID(8) || rte_rio_device_find_by_name(local) != dev ||
	    !rte_rio_mport_scanned(mp) || rte_rio_dev_count(mp) != 3) {
		printf("  after discovery: %u UPDATE, destid 0x%x (mport 0x%x), %u devices\n",
		       st.updates, dev->destid, minfo.destid, rte_rio_dev_count(mp));
		rte_rio_device_put(dev);
		goto out;
	}
	rte_rio_device_put(dev);	/* of find_by_name() above */
	rte_rio_device_put(dev);
	ret = TEST_SUCCESS;
out:
	rte_vdev_uninit(BR_WAITER);
	rte_vdev_uninit(BR_WAITER_HOST);
	rte_rio_device_callback_unregister(br_cb, &st);
	br_shm_cleanup(fabric);
	/* Agent: its own endpoint and 2 others; host: 3; each added and removed. */
	if (ret == TEST_SUCCESS)
		TEST_ASSERT(st.adds == present + 6 && st.removes == 6, "%u ADD, %u REMOVE",
			    st.adds - present, st.removes);
	return ret;
}

static struct unit_test_suite bus_rio_suite = {
	.suite_name = "rio bus",
	.setup = br_setup,
	.teardown = br_teardown,
	.unit_test_cases = {
		TEST_CASE(test_br_registration_errors),
		TEST_CASE(test_br_parse),
		TEST_CASE(test_br_match_rules),
		TEST_CASE(test_br_probe_at_add),
		TEST_CASE(test_br_get_put),
		TEST_CASE(test_br_get_put_threads),
		TEST_CASE(test_br_dev_iterate),
		TEST_CASE(test_br_search),
		TEST_CASE(test_br_callbacks),
		TEST_CASE(test_br_unplug_replug),
		TEST_CASE(test_br_mport_removal),
		TEST_CASE(test_br_blocklist),
		TEST_CASE(test_br_callback_from_probe),
		TEST_CASE(test_br_allowlist_eal),
		TEST_CASE(test_br_agent_waits),
		TEST_CASES_END()
	}
};

static int
test_bus_rio(void)
{
	int ret = unit_test_suite_runner(&bus_rio_suite);

	TEST_ASSERT_EQUAL(br_shm_count(br_fabric), 0, "fabric shared memory left");
	return ret;
}
REGISTER_TEST_COMMAND(bus_rio_autotest, test_bus_rio);

/* ------------------------------------------------------------------ */
/* Telemetry through the stock dpdk-telemetry.py                      */

/*
 * Child: argv = EAL args, "--", fabric, ready file, stop file [, topology].
 * Brings up the fabric (builtin:default with host and agent mports, or the
 * given topology with the host mport only on ep0), creates the ready file
 * and waits (at most 60 s) for the stop file.
 */
static int
br_tel_child(int argc, char **argv)
{
	int ret, rc = 1, i, fd;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 2;
	argc = br_child_args(argc, argv, ret, &argv);
	if (argc < 3)
		goto out;
	if (argc >= 4) {
		if (br_mport_up_topo(BR_HOST, argv[0], argv[3], "ep0") < 0)
			goto out;
	} else if (br_mport_up(BR_HOST, argv[0], "ep0") < 0 ||
		   br_mport_up(BR_AGENT, argv[0], "ep1") < 0) {
		goto out;
	}
	fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0)
		goto out;
	close(fd);
	for (i = 0; i < 6000 && access(argv[2], F_OK) != 0; i++)
		usleep(10000);
	rc = 0;
out:
	rte_vdev_uninit(BR_AGENT);
	rte_vdev_uninit(BR_HOST);
	if (argc >= 1)
		br_shm_cleanup(argv[0]);
	rte_eal_cleanup();
	return rc;
}
REGISTER_TEST_CHILD(bus_rio_tel_child, br_tel_child);

/*
 * Flatten the i-th JSON reply into lines "<i><command> <key> <value>" (lists:
 * key "item"). Replies are keyed by the command without its parameters,
 * so the index tells the queries apart.
 */
static const char br_tel_flatten[] =
	"import json, sys\n"
	"i = 0\n"
	"for line in sys.stdin:\n"
	"    line = line.strip()\n"
	"    if not line.startswith('{'):\n"
	"        print('RAW', '_'.join(line.split()), 0)\n"
	"        continue\n"
	"    for cmd, val in json.loads(line).items():\n"
	"        cmd = '%d%s' % (i, cmd)\n"
	"        if isinstance(val, list):\n"
	"            for x in val: print(cmd, 'item', x)\n"
	"        elif isinstance(val, dict):\n"
	"            for k, v in val.items(): print(cmd, k, '_'.join(str(v).split()))\n"
	"        else:\n"
	"            print(cmd, 'value', '_'.join(str(val).split()))\n"
	"    i += 1\n";

#define BR_TEL_LINES	1024

struct br_tel_line {
	char cmd[160];
	char key[64];
	char val[256];
};

/* Run dpdk-telemetry.py with @cmds (one per line) and flatten its replies. */
static int
br_tel_query(const char *prefix, const char *cmds, struct br_tel_line *out, int max)
{
	static char line[16384];
	char script[64], cmdfile[64], shell[512];
	int n = 0;
	FILE *f, *p;

	snprintf(script, sizeof(script), "/tmp/%s.py", prefix);
	snprintf(cmdfile, sizeof(cmdfile), "/tmp/%s.cmd", prefix);
	f = fopen(script, "w");
	if (f == NULL)
		return -errno;
	fputs(br_tel_flatten, f);
	fclose(f);
	f = fopen(cmdfile, "w");
	if (f == NULL)
		return -errno;
	fputs(cmds, f);
	fclose(f);
	snprintf(shell, sizeof(shell), "%s -f %s < %s | python3 %s", BR_TELEMETRY_PY, prefix,
		 cmdfile, script);
	p = popen(shell, "r");
	if (p == NULL)
		return -errno;
	while (fgets(line, sizeof(line), p) != NULL) {
		printf("  telemetry: %s", line);
		if (n < max && sscanf(line, "%159s %63s %255s", out[n].cmd, out[n].key,
				      out[n].val) == 3)
			n++;
	}
	pclose(p);
	unlink(script);
	unlink(cmdfile);
	return n;
}

static const char *
br_tel_get(const struct br_tel_line *l, int n, const char *cmd, const char *key)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(l[i].cmd, cmd) == 0 && strcmp(l[i].key, key) == 0)
			return l[i].val;
	}
	return NULL;
}

static int
br_tel_count(const struct br_tel_line *l, int n, const char *cmd, const char *skip_key)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += strcmp(l[i].cmd, cmd) == 0 &&
		     (skip_key == NULL || strcmp(l[i].key, skip_key) != 0);
	return c;
}

/* Does reply @cmd list @item? */
static bool
br_tel_has(const struct br_tel_line *l, int n, const char *cmd, const char *item)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(l[i].cmd, cmd) == 0 && strcmp(l[i].key, "item") == 0 &&
		    strcmp(l[i].val, item) == 0)
			return true;
	}
	return false;
}

static int
br_tel_checks(const char *prefix)
{
	static struct br_tel_line l[BR_TEL_LINES];
	char ep[RTE_RIO_NAME_MAX_LEN] = "", sw[RTE_RIO_NAME_MAX_LEN] = "";
	char cmds[1024], key[16];
	unsigned long ep_destid;
	int n, i, n_host = 0;
	const char *v;

	n = br_tel_query(prefix, "/rio/devices\n/rio/mports\n/rio/devices," BR_HOST "\n"
			 "/rio/devices," BR_HOST ",2\n/rio/devices,nosuch\n", l, BR_TEL_LINES);
	TEST_ASSERT(n > 0, "no reply from dpdk-telemetry.py (%d)", n);
	/* The host's devices (reply 2), each also in the list of all devices (reply 0). */
	for (i = 0; i < n; i++) {
		if (strcmp(l[i].cmd, "2/rio/devices") != 0 || strcmp(l[i].key, "item") != 0)
			continue;
		n_host += br_tel_has(l, n, "0/rio/devices", l[i].val);
		if (strstr(l[i].val, ":s:") != NULL)
			snprintf(sw, sizeof(sw), "%s", l[i].val);
		else if (strstr(l[i].val, ":e:") != NULL)
			snprintf(ep, sizeof(ep), "%s", l[i].val);
	}
	TEST_ASSERT_EQUAL(n_host, 3, "host mport devices listed");
	TEST_ASSERT(sw[0] != '\0' && ep[0] != '\0', "a switch and an endpoint listed");
	TEST_ASSERT(br_tel_get(l, n, "1/rio/mports", "item") != NULL, "mports listed");
	TEST_ASSERT_EQUAL(br_tel_count(l, n, "2/rio/devices", NULL), 3, "devices of one mport");
	TEST_ASSERT_EQUAL(br_tel_count(l, n, "3/rio/devices", NULL), 1, "devices from index 2");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "4/rio/devices", "error"), "unknown mport");

	/* Replies 0..7, in this order. */
	snprintf(cmds, sizeof(cmds),
		 "/rio/device,%s\n/rio/routes,%s\n/rio/config_read,%s,0x0\n"
		 "/rio/config_read,%s,0x2\n/rio/config_read,%s,0x1000000\n"
		 "/rio/mport,%s\n/rio/topology,%s\n/rio/device,1f:e:0001\n",
		 ep, sw, ep, ep, ep, BR_HOST, BR_HOST);
	n = br_tel_query(prefix, cmds, l, BR_TEL_LINES);
	TEST_ASSERT(n > 0, "no reply (%d)", n);

	v = br_tel_get(l, n, "0/rio/device", "name");
	TEST_ASSERT(v != NULL && strcmp(v, ep) == 0, "device name %s", v ? v : "-");
	v = br_tel_get(l, n, "0/rio/device", "vid");
	TEST_ASSERT(v != NULL && strtoul(v, NULL, 0) == BR_SIM_VID, "vid %s", v ? v : "-");
	v = br_tel_get(l, n, "0/rio/device", "did");
	TEST_ASSERT(v != NULL && strtoul(v, NULL, 0) == BR_SIM_DID_EP, "did %s", v ? v : "-");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "0/rio/device", "asm_vid"), "asm_vid");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "0/rio/device", "asm_did"), "asm_did");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "0/rio/device", "asm_rev"), "asm_rev");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "0/rio/device", "device_rev"), "device_rev");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "0/rio/device", "comptag"), "comptag");
	v = br_tel_get(l, n, "0/rio/device", "type");
	TEST_ASSERT(v != NULL && strcmp(v, "endpoint") == 0, "type %s", v ? v : "-");
	v = br_tel_get(l, n, "0/rio/device", "destid");
	TEST_ASSERT_NOT_NULL(v, "destid");
	ep_destid = strtoul(v, NULL, 0);

	/* builtin:default: ep0 on sw0 port 0, ep1 on port 1; one route per endpoint. */
	for (i = 0, n_host = 0; i < n; i++)
		n_host += strcmp(l[i].cmd, "1/rio/routes") == 0;
	TEST_ASSERT_EQUAL(n_host, 2, "routes of %s", sw);
	snprintf(key, sizeof(key), "%lu", ep_destid);
	v = br_tel_get(l, n, "1/rio/routes", key);
	TEST_ASSERT(v != NULL && strcmp(v, "1") == 0, "route to the remote endpoint %s: %s",
		    key, v ? v : "-");

	v = br_tel_get(l, n, "2/rio/config_read", "value");
	TEST_ASSERT(v != NULL &&
		    strtoul(v, NULL, 0) == ((unsigned long)BR_SIM_DID_EP << 16 | BR_SIM_VID),
		    "Device Identity CAR %s", v ? v : "-");
	v = br_tel_get(l, n, "3/rio/config_read", "errno");
	TEST_ASSERT(v != NULL && atoi(v) == -EFAULT, "misaligned read: %s", v ? v : "-");
	TEST_ASSERT_NULL(br_tel_get(l, n, "3/rio/config_read", "value"), "misaligned value");
	v = br_tel_get(l, n, "4/rio/config_read", "errno");
	TEST_ASSERT(v != NULL && atoi(v) == -ERANGE, "out-of-range read: %s", v ? v : "-");
	v = br_tel_get(l, n, "5/rio/mport", "maint_count");
	TEST_ASSERT(v != NULL && strtoul(v, NULL, 0) > 0, "maint_count %s", v ? v : "-");
	v = br_tel_get(l, n, "5/rio/mport", "hp_link_down");
	TEST_ASSERT(v != NULL && strcmp(v, "0") == 0, "hot-plug counters of the host: %s",
		    v ? v : "-");
	v = br_tel_get(l, n, "6/rio/topology", "value");
	TEST_ASSERT(v != NULL && strstr(v, "graph") != NULL && strstr(v, ep) != NULL,
		    "DOT text: %s", v ? v : "-");
	TEST_ASSERT_NOT_NULL(br_tel_get(l, n, "7/rio/device", "error"),
			     "unknown device gives an error");
	return TEST_SUCCESS;
}

/* Fabric of the large phase: 16-bit IDs (over 200 endpoints), more routes than one reply. */
#define BR_BIG_TOPOLOGY		"builtin:star:300/std"	/* flat 16-bit tables: 300 IDs */
#define BR_BIG_ENDPOINTS	300
#define BR_ROUTES_PER_REPLY	240

/* A 300-endpoint fabric: routes come in pages, the DOT text is too large. */
static int
br_tel_checks_big(const char *prefix)
{
	static struct br_tel_line l[BR_TEL_LINES];
	char sw[RTE_RIO_NAME_MAX_LEN] = "", cmds[256];
	int n, i, n_dev = 0, n_ep = 0, first, second;
	unsigned long next, lowest = ULONG_MAX;
	const char *v;

	n = br_tel_query(prefix, "/rio/devices\n/rio/mport," BR_HOST "\n", l, BR_TEL_LINES);
	TEST_ASSERT(n > 0, "no reply from dpdk-telemetry.py (%d)", n);
	for (i = 0; i < n; i++) {
		if (strcmp(l[i].cmd, "0/rio/devices") != 0)
			continue;
		n_dev++;
		if (strstr(l[i].val, ":s:") != NULL)
			snprintf(sw, sizeof(sw), "%s", l[i].val);
		else
			n_ep++;
	}
	TEST_ASSERT_EQUAL(n_ep, BR_BIG_ENDPOINTS, "endpoints listed");
	v = br_tel_get(l, n, "1/rio/mport", "devices");
	TEST_ASSERT(v != NULL && atoi(v) == n_dev, "device count %s vs %d listed", v ? v : "-",
		    n_dev);
	v = br_tel_get(l, n, "1/rio/mport", "devid_size");
	TEST_ASSERT(v != NULL && atoi(v) == 16, "devid_size %s", v ? v : "-");
	TEST_ASSERT(sw[0] != '\0', "a switch listed");

	snprintf(cmds, sizeof(cmds), "/rio/routes,%s\n/rio/topology,%s\n", sw, BR_HOST);
	n = br_tel_query(prefix, cmds, l, BR_TEL_LINES);
	first = br_tel_count(l, n, "0/rio/routes", "next");
	TEST_ASSERT_EQUAL(first, BR_ROUTES_PER_REPLY, "routes in the first reply");
	v = br_tel_get(l, n, "0/rio/routes", "next");
	TEST_ASSERT_NOT_NULL(v, "no \"next\" in a full reply");
	next = strtoul(v, NULL, 0);
	v = br_tel_get(l, n, "1/rio/topology", "errno");
	TEST_ASSERT(v != NULL && atoi(v) == -E2BIG, "oversized DOT: %s", v ? v : "-");

	snprintf(cmds, sizeof(cmds), "/rio/routes,%s,%lu\n", sw, next);
	n = br_tel_query(prefix, cmds, l, BR_TEL_LINES);
	second = br_tel_count(l, n, "0/rio/routes", "next");
	TEST_ASSERT_EQUAL(first + second, BR_BIG_ENDPOINTS, "routes over both replies");
	TEST_ASSERT_NULL(br_tel_get(l, n, "0/rio/routes", "next"), "\"next\" in the last reply");
	for (i = 0; i < n; i++) {
		if (strcmp(l[i].cmd, "0/rio/routes") == 0 && strtoul(l[i].key, NULL, 0) < lowest)
			lowest = strtoul(l[i].key, NULL, 0);
	}
	TEST_ASSERT_EQUAL(lowest, next, "second reply starts at \"next\"");
	return TEST_SUCCESS;
}

/* Start the child on @topology (NULL: default), run @checks against it, stop it. */
static int
br_tel_run(const char *topology, int (*checks)(const char *prefix))
{
	char fabric[48], prefix[48], fp[64], ready[96], stop[96], topo[64];
	char *argv[] = { "--no-huge", "-m", "256", "--no-pci", fp, "--log-level=lib.eal:error",
			 "--", fabric, ready, stop, topology != NULL ? topo : NULL, NULL };
	int ret, i, status, fd;
	pid_t pid;

	TEST_ASSERT_NOT_NULL(br_unique_fabric("brt", fabric, sizeof(fabric)), "fabric");
	TEST_ASSERT_NOT_NULL(rio_test_unique("br_tel", prefix, sizeof(prefix)), "prefix");
	snprintf(fp, sizeof(fp), "--file-prefix=%s", prefix);
	snprintf(ready, sizeof(ready), "/tmp/%s.ready", prefix);
	snprintf(stop, sizeof(stop), "/tmp/%s.stop", prefix);
	snprintf(topo, sizeof(topo), "%s", topology != NULL ? topology : "");
	unlink(ready);
	unlink(stop);

	pid = rio_test_spawn("bus_rio_tel_child", argv);
	TEST_ASSERT(pid > 0, "spawn: %d", (int)pid);
	for (i = 0; i < 3000 && access(ready, F_OK) != 0; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			br_shm_cleanup(fabric);
			rio_test_runtime_dir_cleanup(prefix);
			TEST_ASSERT(false, "child exited early (status 0x%x)", status);
		}
		usleep(10000);
	}
	if (access(ready, F_OK) == 0) {
		ret = checks(prefix);
	} else {
		printf("child not ready after 30 s\n");
		ret = TEST_FAILED;
	}

	fd = open(stop, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd >= 0)
		close(fd);
	status = rio_test_wait(pid, 20000);
	unlink(ready);
	unlink(stop);
	rio_test_runtime_dir_cleanup(prefix);
	if (status != 0)
		br_shm_cleanup(fabric);
	TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "telemetry checks (%s)",
			  topology != NULL ? topology : "builtin:default");
	TEST_ASSERT_EQUAL(status, 0, "child exit status");
	TEST_ASSERT_EQUAL(br_shm_count(fabric), 0, "fabric shared memory left");
	return TEST_SUCCESS;
}

static int
test_bus_rio_telemetry(void)
{
	if (access(BR_TELEMETRY_PY, X_OK) != 0) {
		printf("%s not installed (Debian package dpdk)\n", BR_TELEMETRY_PY);
		return TEST_SKIPPED;
	}
	if (br_tel_run("builtin:default/std/generic", br_tel_checks) != TEST_SUCCESS)
		return TEST_FAILED;
	return br_tel_run(BR_BIG_TOPOLOGY, br_tel_checks_big);
}
REGISTER_TEST_COMMAND(bus_rio_telemetry_autotest, test_bus_rio_telemetry);
