/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim rawdev: devargs refused cleanly, two vdevs on one fabric driven
 * through the rawdev API (info, attributes, raw doorbells and messages,
 * xstats, dump), the selftest, and removal leaving no shared memory.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_rawdev.h>
#include <rte_rawdev_pmd.h>

#include "rte_pmd_rio_sim.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "test.h"

#define RS_POLL_TRIES	20000	/* x 100 us at least */
#define RS_NB_OPS	8
#define RS_FLOOD	1100	/* more than the default mailbox ring (1024 slots) */
#define RS_SEND_TIMEOUT_S	10	/* a flood's send loop gives up */

static char rs_fabric[40];
static char rs_name_a[64];
static char rs_name_b[64];
static uint16_t rs_id_a, rs_id_b;
static bool rs_a_up, rs_b_up;

/* A fabric name no other fabric name starts with ("..._1f" vs "..._10f"). */
static const char *
rs_unique_fabric(char *buf, size_t len)
{
	char tmp[32];

	if (rio_test_unique("rsr", tmp, sizeof(tmp)) == NULL)
		return NULL;
	snprintf(buf, len, "%sf", tmp);
	return buf;
}

static int
rs_shm_count(const char *fabric)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	return rio_test_shm_count(prefix);
}

static void
rs_shm_cleanup(const char *fabric)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	rio_test_shm_cleanup(prefix);
}

static int
rs_dev_id(const char *name, uint16_t *id)
{
	struct rte_rawdev *dev = rte_rawdev_pmd_get_named_dev(name);

	if (dev == NULL)
		return -ENODEV;
	*id = dev->dev_id;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Bad devargs                                                        */

struct rs_bad_case {
	const char *what;
	const char *args;	/* "%s" is replaced by the unique fabric name */
	bool pre_claim;		/* claim endpoint 0 of the fabric first */
};

static const struct rs_bad_case rs_bad_cases[] = {
	{ "unknown key", "fabric=%s,bogus=1", false },
	{ "empty fabric", "fabric=", false },
	{ "empty endpoint", "fabric=%s,endpoint=", false },
	{ "key without value", "fabric=%s,endpoint", false },
	{ "bad fabric name", "fabric=bad.name", false },
	{ "duplicate key", "fabric=%s,fabric=%s", false },
	{ "devid_size 12", "fabric=%s,devid_size=12", false },
	{ "devid_size junk", "fabric=%s,devid_size=8x", false },
	{ "devid_size mismatch", "fabric=%s,devid_size=16", false },
	{ "endpoint unknown", "fabric=%s,endpoint=nosuch", false },
	{ "endpoint out of range", "fabric=%s,endpoint=7", false },
	{ "endpoint is a switch", "fabric=%s,endpoint=sw0", false },
	{ "host out of range", "fabric=%s,host=70000", false },
	{ "host is any-ID for 8 bits", "fabric=%s,host=255", false },
	{ "host negative", "fabric=%s,host=-1", false },
	{ "host not a number", "fabric=%s,host=abc", false },
	{ "group 2", "fabric=%s,group=2", false },
	{ "scan 2", "fabric=%s,scan=2", false },
	{ "scan junk", "fabric=%s,scan=yes", false },
	{ "disc_timeout 0", "fabric=%s,disc_timeout=0", false },
	{ "disc_timeout too large", "fabric=%s,disc_timeout=3600001", false },
	{ "disc_timeout junk", "fabric=%s,disc_timeout=1s", false },
	{ "topology file missing", "fabric=%s,topology=/nonexistent/rio_topo.ini", false },
	{ "unknown built-in shape", "fabric=%s,topology=builtin:nosuch", false },
	{ "builtin without shape", "fabric=%s,topology=builtin:", false },
	{ "name too long", "fabric=%s", false },
	{ "endpoint already claimed here", "fabric=%s,endpoint=0", true },
	{ "endpoint already claimed by name", "fabric=%s,endpoint=ep0", true },
};

static int
rs_one_bad_case(const struct rs_bad_case *c, unsigned int idx)
{
	char fabric[40], args[160], name[128], holder[64];
	uint16_t mports_before;
	int shm_before, rawdevs_before, ret;

	TEST_ASSERT_NOT_NULL(rs_unique_fabric(fabric, sizeof(fabric)), "unique name");
	if (strcmp(c->what, "name too long") == 0)
		snprintf(name, sizeof(name), "rio_sim_bad%u_%s_%s", idx, fabric,
			 "0123456789012345678901234567890123456789");
	else
		snprintf(name, sizeof(name), "rio_sim_bad%u_%s", idx, fabric);
	snprintf(args, sizeof(args), c->args, fabric, fabric);
	holder[0] = '\0';
	if (c->pre_claim) {
		char hargs[80];

		snprintf(holder, sizeof(holder), "rio_sim_hold_%s", fabric);
		snprintf(hargs, sizeof(hargs), "fabric=%s,endpoint=0", fabric);
		TEST_ASSERT_SUCCESS(rte_vdev_init(holder, hargs), "holder %s", hargs);
	}
	shm_before = rs_shm_count(fabric);
	mports_before = rte_rio_mport_count();
	rawdevs_before = rte_rawdev_count();

	ret = rte_vdev_init(name, args);
	if (ret == 0)
		rte_vdev_uninit(name);
	TEST_ASSERT(ret != 0, "case '%s' (%s) was accepted", c->what, args);
	TEST_ASSERT_NULL(rte_rio_mport_find(name), "case '%s': mport left behind", c->what);
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), mports_before,
			  "case '%s': mport count changed", c->what);
	TEST_ASSERT_EQUAL(rte_rawdev_count(), rawdevs_before,
			  "case '%s': rawdev left behind", c->what);
	TEST_ASSERT_NULL(rte_rawdev_pmd_get_named_dev(name), "case '%s': rawdev %s exists",
			 c->what, name);
	TEST_ASSERT_EQUAL(rs_shm_count(fabric), shm_before,
			  "case '%s': shared memory left behind", c->what);
	if (holder[0] != '\0')
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(holder), "remove holder");
	TEST_ASSERT_EQUAL(rs_shm_count(fabric), 0, "case '%s': fabric not removed", c->what);
	return TEST_SUCCESS;
}

static int
test_rio_sim_bad_devargs(void)
{
	unsigned int i;

	RTE_BUILD_BUG_ON(RTE_DIM(rs_bad_cases) < 12);
	for (i = 0; i < RTE_DIM(rs_bad_cases); i++) {
		printf("  bad devargs %u: %s\n", i, rs_bad_cases[i].what);
		if (rs_one_bad_case(&rs_bad_cases[i], i) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/*
 * scan=1 (the default) at probe: the host enumerates, the agent discovers,
 * and both mports know every device of the default fabric.
 */
static int
test_rio_sim_scan_at_probe(void)
{
	char fabric[40], host[64], agent[64], args[128];
	struct rte_rio_mport *mh, *ma;
	struct rte_rio_dev *d;

	TEST_ASSERT_NOT_NULL(rs_unique_fabric(fabric, sizeof(fabric)), "unique name");
	snprintf(host, sizeof(host), "rio_sim_sh_%s", fabric);
	snprintf(agent, sizeof(agent), "rio_sim_sa_%s", fabric);
	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:default,endpoint=ep0", fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(host, args), "host %s", args);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,disc_timeout=5000", fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(agent, args), "agent %s", args);
	mh = rte_rio_mport_find(host);
	ma = rte_rio_mport_find(agent);
	TEST_ASSERT(mh != NULL && ma != NULL, "mports");
	TEST_ASSERT(rte_rio_mport_scanned(mh) && rte_rio_mport_scanned(ma), "not scanned");
	/* ep0, ep1 and sw0, seen alike from both sides. */
	TEST_ASSERT_EQUAL(rte_rio_dev_count(mh), 3, "host devices");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(ma), 3, "agent devices");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(mh), 0, "host destid");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(ma), 1, "agent destid");
	d = rte_rio_dev_find_by_destid(ma, 0);
	TEST_ASSERT_NOT_NULL(d, "agent does not know the host endpoint");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(ma, 0, 0x1234), "doorbell to host");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(agent), "remove agent");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(host), "remove host");
	TEST_ASSERT_EQUAL(rs_shm_count(fabric), 0, "fabric not removed");
	return TEST_SUCCESS;
}

/*
 * An agent alone on a fabric does not hold the probe up: its own endpoint
 * is published at once and it waits for a host in the background, giving
 * up after disc_timeout (a host that comes later is only discovered by an
 * explicit scan); scan=0 does not wait.
 */
static int
test_rio_sim_disc_timeout(void)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = 1000 };
	char fabric[40], name[64], host[64], args[160];
	struct rte_rio_dev_info info;
	struct rte_rio_mport *m;
	uint64_t t0, ms;

	TEST_ASSERT_NOT_NULL(rs_unique_fabric(fabric, sizeof(fabric)), "unique name");
	snprintf(name, sizeof(name), "rio_sim_to_%s", fabric);
	snprintf(host, sizeof(host), "rio_sim_toh_%s", fabric);
	snprintf(args, sizeof(args),
		 "fabric=%s,topology=builtin:default,endpoint=ep1,disc_timeout=300", fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(name, args), "probe must succeed: %s", args);
	m = rte_rio_mport_find(name);
	TEST_ASSERT_NOT_NULL(m, "mport");
	TEST_ASSERT(!rte_rio_mport_scanned(m), "scanned without a host");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(m), 1, "own endpoint not published while waiting");
	TEST_ASSERT_SUCCESS(rte_rio_dev_info_get(rte_rio_dev_next(m, NULL), &info), "info");
	TEST_ASSERT(info.local, "the published device is not the own endpoint");
	/* Past disc_timeout it has given up: a host that comes now is not discovered. */
	rte_delay_ms(600);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0", fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(host, args), "host %s", args);
	rte_delay_ms(300);
	TEST_ASSERT(!rte_rio_mport_scanned(m), "discovered after disc_timeout");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(m, &sc), "explicit scan after the timeout");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(m), 3, "devices after the explicit scan");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(name), "remove");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(host), "remove host");

	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:default,endpoint=ep1,scan=0",
		 fabric);
	t0 = rte_get_timer_cycles();
	TEST_ASSERT_SUCCESS(rte_vdev_init(name, args), "create %s", args);
	ms = (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
	TEST_ASSERT(!rte_rio_mport_scanned(rte_rio_mport_find(name)), "scan=0 scanned");
	TEST_ASSERT(ms < 300, "scan=0 waited %" PRIu64 " ms", ms);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(name), "remove");
	TEST_ASSERT_EQUAL(rs_shm_count(fabric), 0, "fabric not removed");
	return TEST_SUCCESS;
}

/*
 * Child: rte_eal_init() with an agent vdev alone on its fabric. Exit 0 when
 * EAL init completed, the port exists and it is not scanned.
 */
static int
rs_child_lonely_agent(int argc, char **argv)
{
	int ret;

	if (rte_eal_init(argc, argv) < 0) {
		printf("  child: EAL init failed after the discovery timeout\n");
		return 20;
	}
	ret = rte_rawdev_count() == 1 && rte_rio_mport_count() == 1 &&
	      !rte_rio_mport_scanned(rte_rio_mport_get(0)) ? 0 : 21;
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(rio_sim_lonely_agent, rs_child_lonely_agent)

static int
test_rio_sim_disc_timeout_eal(void)
{
	char fabric[40], prefix[64], vdev[160];
	char *child_args[10];
	pid_t pid;
	int i = 0, status;

	TEST_ASSERT_NOT_NULL(rs_unique_fabric(fabric, sizeof(fabric)), "unique name");
	snprintf(prefix, sizeof(prefix), "--file-prefix=%sl", fabric);
	snprintf(vdev, sizeof(vdev),
		 "rio_sim_lonely,fabric=%s,topology=builtin:default,endpoint=ep1,disc_timeout=200",
		 fabric);
	child_args[i++] = (char *)"--no-huge";
	child_args[i++] = (char *)"-m";
	child_args[i++] = (char *)"128";
	child_args[i++] = (char *)"--no-pci";
	child_args[i++] = prefix;
	child_args[i++] = (char *)"--log-level=lib.eal:error";
	child_args[i++] = (char *)"--vdev";
	child_args[i++] = vdev;
	child_args[i] = NULL;
	pid = rio_test_spawn("rio_sim_lonely_agent", child_args);
	TEST_ASSERT(pid > 0, "spawn failed: %d", (int)pid);
	status = rio_test_wait(pid, 20000);
	TEST_ASSERT_EQUAL(status, 0, "child exit status");
	TEST_ASSERT_EQUAL(rs_shm_count(fabric), 0, "child left shared memory");
	return TEST_SUCCESS;
}

/* Both endpoints claimed: a third vdev without endpoint= is refused. */
static int
test_rio_sim_no_free_endpoint(void)
{
	char name[64];
	char args[80];
	uint16_t n = rte_rio_mport_count();

	snprintf(name, sizeof(name), "rio_sim_third_%s", rs_fabric);
	snprintf(args, sizeof(args), "fabric=%s", rs_fabric);
	TEST_ASSERT(rte_vdev_init(name, args) != 0, "third vdev accepted on 2 endpoints");
	TEST_ASSERT_NULL(rte_rio_mport_find(name), "mport left behind");
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), n, "mport count changed");
	TEST_ASSERT_EQUAL(rs_shm_count(rs_fabric), 3, "fabric segments changed");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Two vdevs on one fabric                                            */

static int
rs_setup(void)
{
	char args[128];

	TEST_ASSERT_NOT_NULL(rs_unique_fabric(rs_fabric, sizeof(rs_fabric)), "unique name");
	snprintf(rs_name_a, sizeof(rs_name_a), "rio_sim_a_%s", rs_fabric);
	snprintf(rs_name_b, sizeof(rs_name_b), "rio_sim_b_%s", rs_fabric);
	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:default,endpoint=ep0",
		 rs_fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(rs_name_a, args), "create %s", args);
	rs_a_up = true;
	/* No endpoint=: the first one not claimed, i.e. ep1. */
	snprintf(args, sizeof(args), "fabric=%s,devid_size=8,group=0", rs_fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(rs_name_b, args), "create %s", args);
	rs_b_up = true;
	TEST_ASSERT_SUCCESS(rs_dev_id(rs_name_a, &rs_id_a), "rawdev A");
	TEST_ASSERT_SUCCESS(rs_dev_id(rs_name_b, &rs_id_b), "rawdev B");
	return TEST_SUCCESS;
}

static void
rs_teardown(void)
{
	if (rs_b_up)
		rte_vdev_uninit(rs_name_b);
	if (rs_a_up)
		rte_vdev_uninit(rs_name_a);
	rs_a_up = rs_b_up = false;
	if (rs_fabric[0] != '\0' && rs_shm_count(rs_fabric) != 0) {
		printf("  teardown: fabric %s left shared memory, cleaning\n", rs_fabric);
		rs_shm_cleanup(rs_fabric);
	}
}

static int
rs_info(uint16_t id, struct rte_pmd_rio_sim_info *info)
{
	struct rte_rawdev_info ri = { .dev_private = info };

	return rte_rawdev_info_get(id, &ri, sizeof(*info));
}

static int
test_rio_sim_info(void)
{
	struct rte_pmd_rio_sim_info ia, ib;
	struct rte_rawdev_info ri = { .dev_private = &ia };

	TEST_ASSERT_SUCCESS(rs_info(rs_id_a, &ia), "info A");
	TEST_ASSERT_SUCCESS(rs_info(rs_id_b, &ib), "info B");
	TEST_ASSERT(rte_rawdev_info_get(rs_id_a, &ri, sizeof(ia) - 1) != 0,
		    "wrong private size accepted");
	TEST_ASSERT(strcmp(ri.driver_name, RTE_PMD_RIO_SIM_DRIVER_NAME) == 0,
		    "driver name %s", ri.driver_name);
	TEST_ASSERT(strcmp(ia.mport_name, rs_name_a) == 0, "mport name %s", ia.mport_name);
	TEST_ASSERT(strcmp(ia.fabric, rs_fabric) == 0, "fabric %s", ia.fabric);
	TEST_ASSERT(strcmp(ia.endpoint, "ep0") == 0, "A endpoint %s", ia.endpoint);
	TEST_ASSERT(strcmp(ib.endpoint, "ep1") == 0, "B endpoint %s", ib.endpoint);
	TEST_ASSERT_EQUAL(ia.ep_index, 0, "A ep index");
	TEST_ASSERT_EQUAL(ib.ep_index, 1, "B ep index");
	TEST_ASSERT_EQUAL(ia.destid, 0, "A destid");
	TEST_ASSERT_EQUAL(ib.destid, 1, "B destid");
	TEST_ASSERT_EQUAL(ia.host_destid, 0, "A is the host (builtin:default)");
	TEST_ASSERT_EQUAL(ib.host_destid, RTE_RIO_NO_HOST, "B is an agent");
	TEST_ASSERT_EQUAL(ia.devid_size, 8, "devid size");
	TEST_ASSERT(ia.link_up && ib.link_up, "links up");
	TEST_ASSERT_EQUAL(ia.n_endpoints, 2, "endpoints");
	TEST_ASSERT_EQUAL(ia.n_devices, 3, "devices");
	TEST_ASSERT(ia.mbox_entries >= 2, "mbox entries %u", ia.mbox_entries);
	TEST_ASSERT_NOT_NULL(rte_rio_mport_find(rs_name_a), "mport A registered");
	TEST_ASSERT(rte_pmd_rio_sim_mport(rs_id_a) == rte_rio_mport_find(rs_name_a),
		    "rte_pmd_rio_sim_mport");
	return TEST_SUCCESS;
}

static int
test_rio_sim_attrs(void)
{
	struct rte_rio_mport *ma = rte_pmd_rio_sim_mport(rs_id_a);
	struct rte_rio_mport *mb = rte_pmd_rio_sim_mport(rs_id_b);
	uint64_t v, retries;
	uint32_t reg;

	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DESTID, &v),
			    "destid");
	TEST_ASSERT_EQUAL(v, 1, "B destid");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_DEVID_SIZE, &v),
			    "devid_size");
	TEST_ASSERT_EQUAL(v, 8, "devid size");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_HOST_DESTID, &v),
			    "host_destid");
	TEST_ASSERT_EQUAL(v, 0, "A host destid");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_HOST_DESTID, &v),
			    "host_destid");
	TEST_ASSERT_EQUAL((int64_t)v, RTE_RIO_NO_HOST, "B host destid");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_EP_INDEX, &v),
			    "ep_index");
	TEST_ASSERT_EQUAL(v, 1, "B ep index");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_LINK, &v), "link");
	TEST_ASSERT_EQUAL(v, 1, "link up");

	/* maint_count follows maintenance traffic and resets on set 0. */
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MAINT_COUNT, 0),
			    "reset maint_count");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(ma, 1, RTE_RIO_HOPCOUNT_DIRECT,
							   RTE_RIO_DEV_ID_CAR, &reg),
			    "maintenance read of B");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MAINT_COUNT, &v),
			    "maint_count");
	TEST_ASSERT_EQUAL(v, 1, "maint count after one read");
	TEST_ASSERT(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MAINT_COUNT, 5) != 0,
		    "maint_count set to non-zero");

	/* destid: written through the Base Device ID CSR. */
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DESTID, 0x42),
			    "set destid");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DESTID, &v),
			    "destid");
	TEST_ASSERT_EQUAL(v, 0x42, "destid after set");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DESTID, 1),
			    "restore destid");
	TEST_ASSERT(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DESTID, 0xff) != 0,
		    "destid 0xff (any ID) accepted on 8-bit fabric");

	/* mbox_entries: power of two in 2..4096. */
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES, 64),
			    "mbox_entries 64");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES, &v),
			    "mbox_entries");
	TEST_ASSERT_EQUAL(v, 64, "mbox_entries after set");
	TEST_ASSERT(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES, 100) != 0,
		    "mbox_entries 100 accepted");
	TEST_ASSERT(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES, 8192) != 0,
		    "mbox_entries 8192 accepted");

	/* dbell_depth: b takes that many doorbells more than it fetched, then RETRY. */
	while (rte_rio_dbell_poll(mb, 64) > 0)
		;
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED,
						&retries), "retries_answered");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH, 2),
			    "dbell_depth 2");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(ma, 1, 0x21), "first doorbell");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(ma, 1, 0x22), "second doorbell");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(ma, 1, 0x23), -EAGAIN, "third: not RETRY");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED,
						&v), "retries_answered");
	TEST_ASSERT_EQUAL(v, retries + 1, "RETRY answered");
	/* Fetching does not move the limit: the owner sets it again. */
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mb, 64), 2, "two fetched");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(ma, 1, 0x24), -EAGAIN, "limit moved by a fetch");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH, 256),
			    "dbell_depth 256");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(ma, 1, 0x25), "no limit but the ring");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(mb, 64), 1, "fetched");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH, &v),
			    "dbell_depth");
	TEST_ASSERT_EQUAL(v, 256, "dbell_depth after set");
	TEST_ASSERT_EQUAL(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH, 257),
			  -EINVAL, "dbell_depth 257");
	TEST_ASSERT_EQUAL(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED, 0),
			  -EPERM, "retries_answered set");
	/* mbox_posted: a mask of the four mailboxes (tsi721_autotest free_buffers uses it). */
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED, 0x5),
			    "mbox_posted");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED, &v),
			    "mbox_posted");
	TEST_ASSERT_EQUAL(v, 0x5, "mbox_posted after set");
	TEST_ASSERT_EQUAL(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED, 0x10),
			  -EINVAL, "mbox_posted of a fifth mailbox");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED, 0),
			    "mbox_posted off");

	/* Unknown and read-only attributes. */
	TEST_ASSERT_EQUAL(rte_rawdev_get_attr(rs_id_a, "nosuch", &v), -ENOENT, "unknown get");
	TEST_ASSERT_EQUAL(rte_rawdev_set_attr(rs_id_a, "nosuch", 1), -ENOENT, "unknown set");
	TEST_ASSERT_EQUAL(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_EP_INDEX, 1), -EPERM,
			  "read-only set");
	return TEST_SUCCESS;
}

static int
test_rio_sim_link_attr(void)
{
	struct rte_rio_mport *ma = rte_pmd_rio_sim_mport(rs_id_a);
	uint64_t v;
	int ret;

	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_LINK, 0),
			    "link down");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_LINK, &v), "link");
	TEST_ASSERT_EQUAL(v, 0, "link after down");
	ret = rte_rio_send_doorbell(ma, 1, 0x7);
	TEST_ASSERT(ret == -ETIMEDOUT || ret == -EIO, "doorbell over a down link: %d", ret);
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_LINK, 1),
			    "link up");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_LINK, &v), "link");
	TEST_ASSERT_EQUAL(v, 1, "link after up");
	TEST_ASSERT(rte_rawdev_set_attr(rs_id_a, RTE_PMD_RIO_SIM_ATTR_LINK, 2) != 0,
		    "link 2 accepted");
	return TEST_SUCCESS;
}

static int
rs_configure(uint16_t id, uint8_t mask, bool dbell)
{
	struct rte_pmd_rio_sim_conf conf = {
		.mbox_mask = mask,
		.mbox_entries = 0,
		.dbell_enable = dbell,
		.dbell_start = 0x100,
		.dbell_end = 0x1ff,
	};
	struct rte_rawdev_info ri = { .dev_private = &conf };

	return rte_rawdev_configure(id, &ri, sizeof(conf));
}

static int
test_rio_sim_configure(void)
{
	struct rte_pmd_rio_sim_conf conf = { .mbox_mask = 0x10 };
	struct rte_rawdev_info ri = { .dev_private = &conf };
	struct rte_pmd_rio_sim_op op = { .type = RTE_PMD_RIO_SIM_OP_DBELL, .destid = 1 };
	struct rte_rawdev_buf b = { .buf_addr = &op };
	struct rte_rawdev_buf *bp = &b;

	TEST_ASSERT(rte_rawdev_configure(rs_id_a, &ri, sizeof(conf)) != 0, "mask 0x10");
	conf.mbox_mask = 1;
	TEST_ASSERT(rte_rawdev_configure(rs_id_a, &ri, sizeof(conf) - 1) != 0, "short conf");
	conf.mbox_entries = 3;
	TEST_ASSERT(rte_rawdev_configure(rs_id_a, &ri, sizeof(conf)) != 0, "entries 3");
	conf.mbox_entries = 0;
	conf.dbell_enable = true;
	conf.dbell_start = 9;
	conf.dbell_end = 8;
	TEST_ASSERT(rte_rawdev_configure(rs_id_a, &ri, sizeof(conf)) != 0, "empty range");
	TEST_ASSERT_EQUAL(rte_rawdev_enqueue_buffers(rs_id_a, &bp, 1, NULL), -ENOTCONN,
			  "enqueue before start");
	TEST_ASSERT_EQUAL(rte_rawdev_dequeue_buffers(rs_id_a, &bp, 1, NULL), -ENOTCONN,
			  "dequeue before start");
	return TEST_SUCCESS;
}

/* Dequeue until @want ops arrived (or the tries run out). */
static int
rs_dequeue_all(uint16_t id, struct rte_pmd_rio_sim_op *ops, uint8_t (*data)[RTE_RIO_MAX_MSG_SIZE],
	       unsigned int n, unsigned int want)
{
	struct rte_rawdev_buf bufs[RS_FLOOD], *bp[RS_FLOOD];
	unsigned int got = 0, i, tries;
	int ret;

	for (i = 0; i < n; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].data = data != NULL ? data[i] : NULL;
		bufs[i].buf_addr = &ops[i];
		bp[i] = &bufs[i];
	}
	/* With want == 0, poll a few times to see that nothing comes. */
	for (tries = 0; tries < RS_POLL_TRIES && got < n; tries++) {
		if (got >= want && (want > 0 || tries >= 10))
			break;
		ret = rte_rawdev_dequeue_buffers(id, bp + got, n - got, NULL);
		if (ret < 0)
			return ret;
		got += ret;
		if (ret == 0)
			rte_delay_us_sleep(100);
	}
	return got;
}

static int
test_rio_sim_raw_ops(void)
{
	static uint8_t tx8[8], tx4k[RTE_RIO_MAX_MSG_SIZE], rx[RS_NB_OPS][RTE_RIO_MAX_MSG_SIZE];
	struct rte_pmd_rio_sim_op ops[RS_NB_OPS], rops[RS_NB_OPS];
	struct rte_rawdev_buf bufs[RS_NB_OPS], *bp[RS_NB_OPS];
	unsigned int i, n_db = 0, n_msg = 0;
	uint64_t unclaimed, v;
	int ret;

	for (i = 0; i < sizeof(tx8); i++)
		tx8[i] = (uint8_t)(0xa0 + i);
	for (i = 0; i < sizeof(tx4k); i++)
		tx4k[i] = (uint8_t)(i * 13);

	TEST_ASSERT_SUCCESS(rs_configure(rs_id_a, 0x3, true), "configure A");
	TEST_ASSERT_SUCCESS(rs_configure(rs_id_b, 0x3, true), "configure B");
	TEST_ASSERT_SUCCESS(rte_rawdev_start(rs_id_a), "start A");
	TEST_ASSERT_SUCCESS(rte_rawdev_start(rs_id_b), "start B");
	TEST_ASSERT_SUCCESS(rte_rawdev_xstats_reset(rs_id_a, NULL, 0), "xstats reset A");
	TEST_ASSERT_SUCCESS(rte_rawdev_xstats_reset(rs_id_b, NULL, 0), "xstats reset B");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DBELL_UNCLAIMED,
						&unclaimed), "dbell_unclaimed");

	memset(ops, 0, sizeof(ops));
	ops[0] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_DBELL, .destid = 1,
					      .info = 0x123 };
	ops[1] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG, .destid = 1,
					      .mbox = 0, .letter = 2, .len = 8, .data = tx8 };
	ops[2] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG, .destid = 1,
					      .mbox = 1, .len = RTE_RIO_MAX_MSG_SIZE,
					      .data = tx4k };
	/* Refused ops get a status and do not stop the burst. */
	ops[3] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG, .destid = 1,
					      .mbox = 0, .len = 3, .data = tx8 };
	ops[4] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG, .destid = 1,
					      .mbox = 2, .len = 8, .data = tx8 };
	ops[5] = (struct rte_pmd_rio_sim_op){ .type = 99, .destid = 1 };
	/* Outside B's raw range: dropped as unclaimed. */
	ops[6] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_DBELL, .destid = 1,
					      .info = 0x050 };
	for (i = 0; i < 7; i++) {
		ops[i].status = 1;
		bufs[i].buf_addr = &ops[i];
		bp[i] = &bufs[i];
	}
	ret = rte_rawdev_enqueue_buffers(rs_id_a, bp, 7, NULL);
	TEST_ASSERT_EQUAL(ret, 7, "enqueue");
	TEST_ASSERT_EQUAL(ops[0].status, 0, "doorbell status");
	TEST_ASSERT_EQUAL(ops[1].status, 0, "8-byte message status");
	TEST_ASSERT_EQUAL(ops[2].status, 0, "4096-byte message status");
	TEST_ASSERT_EQUAL(ops[3].status, -EINVAL, "3-byte message status");
	TEST_ASSERT_EQUAL(ops[4].status, -ENOTCONN, "closed mailbox status");
	TEST_ASSERT_EQUAL(ops[5].status, -EINVAL, "bad type status");
	TEST_ASSERT_EQUAL(ops[6].status, 0, "second doorbell status");

	ret = rs_dequeue_all(rs_id_b, rops, rx, RS_NB_OPS, 3);
	TEST_ASSERT_EQUAL(ret, 3, "dequeue: doorbell and two messages");
	for (i = 0; i < 3; i++) {
		if (rops[i].type == RTE_PMD_RIO_SIM_OP_DBELL) {
			n_db++;
			TEST_ASSERT_EQUAL(rops[i].info, 0x123, "doorbell info");
			TEST_ASSERT_EQUAL(rops[i].srcid, 0, "doorbell source");
			TEST_ASSERT_EQUAL(rops[i].destid, 1, "doorbell destination");
		} else {
			TEST_ASSERT_EQUAL(rops[i].type, RTE_PMD_RIO_SIM_OP_MSG, "op type");
			TEST_ASSERT_EQUAL(rops[i].srcid, 0, "message source");
			TEST_ASSERT_EQUAL(rops[i].status, 0, "message status");
			n_msg++;
			if (rops[i].mbox == 0) {
				TEST_ASSERT_EQUAL(rops[i].len, 8, "mbox 0 length");
				TEST_ASSERT_EQUAL(rops[i].letter, 2, "mbox 0 letter");
				TEST_ASSERT(memcmp(rops[i].data, tx8, 8) == 0, "mbox 0 data");
			} else {
				TEST_ASSERT_EQUAL(rops[i].mbox, 1, "mailbox");
				TEST_ASSERT_EQUAL(rops[i].len, RTE_RIO_MAX_MSG_SIZE,
						  "mbox 1 length");
				TEST_ASSERT(memcmp(rops[i].data, tx4k, sizeof(tx4k)) == 0,
					    "mbox 1 data");
			}
		}
	}
	TEST_ASSERT_EQUAL(n_db, 1, "one doorbell");
	TEST_ASSERT_EQUAL(n_msg, 2, "two messages");
	/* Nothing else: the 0x050 doorbell went to nobody. */
	ret = rs_dequeue_all(rs_id_b, rops, rx, RS_NB_OPS, 0);
	TEST_ASSERT_EQUAL(ret, 0, "nothing more");
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(rs_id_b, RTE_PMD_RIO_SIM_ATTR_DBELL_UNCLAIMED,
						&v), "dbell_unclaimed");
	TEST_ASSERT_EQUAL(v, unclaimed + 1, "unclaimed doorbell counted");
	return TEST_SUCCESS;
}

static int
rs_xstat(uint16_t id, const char *name, uint64_t *val)
{
	unsigned int xid;

	*val = rte_rawdev_xstats_by_name_get(id, name, &xid);
	return xid == (unsigned int)-1 ? -ENOENT : 0;
}

/*
 * Enqueue ops[from..n-1] of A until all are taken or B's reply is RETRY.
 * A short enqueue with -EAGAIN is back-pressure of one of two kinds: A's own
 * (every outbound descriptor in flight, or a RETRY response awaited:
 * msg_tx_busy) passes once responses are back, so wait and go on; B's (its
 * ring is full: RETRY, msg_tx_retry) ends it. Which one comes first depends
 * on how fast this CPU sends against the modelled link, so both are taken.
 * Returns 1 at RETRY, 0 when all were taken, a negative errno otherwise.
 */
static int
rs_send_until_retry(uint16_t a, struct rte_pmd_rio_sim_op *ops, struct rte_rawdev_buf **bp,
		    unsigned int from, unsigned int n, unsigned int *taken)
{
	uint64_t deadline = rte_get_timer_cycles() + RS_SEND_TIMEOUT_S * rte_get_timer_hz();
	uint64_t retry0, retry;
	int ret;

	*taken = 0;
	if (rs_xstat(a, "msg_tx_retry", &retry0) != 0)
		return -ENOENT;
	while (from + *taken < n) {
		ret = rte_rawdev_enqueue_buffers(a, bp + from + *taken, n - from - *taken, NULL);
		if (ret < 0)
			return ret;
		*taken += ret;
		if (from + *taken == n)
			break;
		if (ops[from + *taken].status != -EAGAIN)
			return ops[from + *taken].status;
		if (rs_xstat(a, "msg_tx_retry", &retry) != 0)
			return -ENOENT;
		if (retry != retry0)
			return 1;
		if (rte_get_timer_cycles() > deadline)
			return -ETIMEDOUT;
		rte_delay_us_sleep(20);
	}
	return 0;
}

/*
 * Fill B's mailbox ring from A: A gets RETRY exactly when B's ring is full,
 * everything taken arrives once and in order, and after B read its ring the
 * rest goes through without another RETRY.
 */
static int
rs_flood(uint16_t a, uint16_t b)
{
	static struct rte_pmd_rio_sim_op ops[RS_FLOOD], rops[RS_FLOOD];
	static uint8_t rx[RS_FLOOD][RTE_RIO_MAX_MSG_SIZE];
	static struct rte_rawdev_buf bufs[RS_FLOOD];
	static struct rte_rawdev_buf *bp[RS_FLOOD];
	static uint64_t payload[RS_FLOOD];
	uint64_t ring, busy;
	unsigned int i, sent, rest;
	int ret, got;

	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(b, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES, &ring),
			    "B's ring size");
	TEST_ASSERT(ring < RS_FLOOD, "B's ring (%" PRIu64 ") takes the whole flood", ring);
	for (i = 0; i < RS_FLOOD; i++) {
		payload[i] = i;
		ops[i] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG,
			.destid = 1, .mbox = 0, .len = 8, .data = &payload[i] };
		bufs[i].buf_addr = &ops[i];
		bp[i] = &bufs[i];
	}
	ret = rs_send_until_retry(a, ops, bp, 0, RS_FLOOD, &sent);
	TEST_ASSERT_EQUAL(ret, 1, "flood of %d: RETRY after %u taken (%d)", RS_FLOOD, sent, ret);
	TEST_ASSERT_EQUAL(sent, ring, "B's ring full when RETRY came");
	TEST_ASSERT_SUCCESS(rs_xstat(a, "msg_tx_busy", &busy), "msg_tx_busy");
	printf("  flood: %u taken, then RETRY; %" PRIu64 " local back-pressure so far\n", sent,
	       busy);
	got = rs_dequeue_all(b, rops, rx, RS_FLOOD, sent);
	TEST_ASSERT_EQUAL(got, (int)sent, "every accepted message arrives");
	for (i = 0; i < sent; i++) {
		TEST_ASSERT_EQUAL(rops[i].len, 8, "length");
		TEST_ASSERT_EQUAL(*(uint64_t *)rops[i].data, i, "order and data of message %u", i);
	}
	got = rs_dequeue_all(b, rops, rx, RS_FLOOD, 0);
	TEST_ASSERT_EQUAL(got, 0, "a refused message arrived");
	/* The rest goes through now: B's ring has room for it. */
	ret = rs_send_until_retry(a, ops, bp, sent, RS_FLOOD, &rest);
	TEST_ASSERT_EQUAL(ret, 0, "resend the refused ones: %d after %u taken", ret, rest);
	got = rs_dequeue_all(b, rops, rx, RS_FLOOD, RS_FLOOD - sent);
	TEST_ASSERT_EQUAL(got, (int)(RS_FLOOD - sent), "the rest arrives");
	for (i = 0; i < RS_FLOOD - sent; i++)
		TEST_ASSERT_EQUAL(*(uint64_t *)rops[i].data, (uint64_t)sent + i,
				  "resumes in order at %u", i);
	return TEST_SUCCESS;
}

static int
test_rio_sim_backpressure(void)
{
	return rs_flood(rs_id_a, rs_id_b);
}

/*
 * The same flood where B answers every message only after 200 us: A's 64
 * descriptors are all in flight long before B's ring is full, on any CPU,
 * so local back-pressure is sure to come first and must not pass for RETRY.
 */
static int
test_rio_sim_backpressure_slow_target(void)
{
	static const char topo[] =
		"[fabric]\n"
		"devid_size = 8\n"
		"static_routes = 1\n"
		"response_latency = 200000\n"
		"[switch sw0]\n"
		"ports = 4\n"
		"[endpoint ep0]\n"
		"destid = 0\n"
		"[endpoint ep1]\n"
		"destid = 1\n"
		"[links]\n"
		"sw0.0 = ep0.0\n"
		"sw0.1 = ep1.0\n";
	char fabric[40], path[64], args[192], name_a[64], name_b[64];
	bool a_up = false, b_up = false, started = false;
	uint16_t a = 0, b = 0;
	uint64_t busy;
	int ret = TEST_FAILED;

	if (rs_unique_fabric(fabric, sizeof(fabric)) == NULL ||
	    rio_test_temp_file(path, sizeof(path), "rio_sim_slow", topo) != 0)
		return TEST_FAILED;
	snprintf(name_a, sizeof(name_a), "rio_sim_sa_%s", fabric);
	snprintf(name_b, sizeof(name_b), "rio_sim_sb_%s", fabric);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0", fabric, path);
	a_up = rte_vdev_init(name_a, args) == 0;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1", fabric);
	b_up = a_up && rte_vdev_init(name_b, args) == 0;
	if (!b_up || rs_dev_id(name_a, &a) != 0 || rs_dev_id(name_b, &b) != 0) {
		printf("  cannot create the slow fabric %s\n", path);
		goto out;
	}
	if (rte_rawdev_set_attr(a, RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES, 64) != 0 ||
	    rs_configure(a, 0x1, false) != 0 || rs_configure(b, 0x1, false) != 0 ||
	    rte_rawdev_start(a) != 0 || rte_rawdev_start(b) != 0) {
		printf("  cannot start the slow fabric\n");
		goto out;
	}
	started = true;
	ret = rs_flood(a, b);
	if (ret == TEST_SUCCESS && (rs_xstat(a, "msg_tx_busy", &busy) != 0 || busy == 0)) {
		printf("  no local back-pressure: the case tests nothing\n");
		ret = TEST_FAILED;
	}
out:
	if (started) {
		rte_rawdev_stop(b);
		rte_rawdev_stop(a);
	}
	if (b_up)
		rte_vdev_uninit(name_b);
	if (a_up)
		rte_vdev_uninit(name_a);
	unlink(path);
	if (rs_shm_count(fabric) != 0) {
		printf("  fabric %s left shared memory\n", fabric);
		rs_shm_cleanup(fabric);
		ret = TEST_FAILED;
	}
	return ret;
}

static int
test_rio_sim_xstats(void)
{
	struct rte_rawdev_xstats_name *names;
	unsigned int *ids;
	uint64_t *vals;
	uint64_t v;
	int n, i, j;

	n = rte_rawdev_xstats_names_get(rs_id_a, NULL, 0);
	TEST_ASSERT(n > 20, "xstats count %d", n);
	names = calloc(n, sizeof(*names));
	ids = calloc(n, sizeof(*ids));
	vals = calloc(n, sizeof(*vals));
	TEST_ASSERT(names != NULL && ids != NULL && vals != NULL, "alloc");
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_names_get(rs_id_a, names, n), n, "names");
	for (i = 0; i < n; i++) {
		ids[i] = i;
		TEST_ASSERT(names[i].name[0] != '\0', "empty name %d", i);
		for (j = 0; j < i; j++)
			TEST_ASSERT(strcmp(names[i].name, names[j].name) != 0, "duplicate %s",
				    names[i].name);
	}
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_get(rs_id_a, ids, vals, n), n, "values");
	for (i = 0; i < n; i++) {
		TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, names[i].name, &v), "by name %s",
				    names[i].name);
		TEST_ASSERT_EQUAL(v, vals[i], "by name and by id agree for %s", names[i].name);
	}
	free(names);
	free(ids);
	free(vals);

	/* Traffic of test_rio_sim_raw_ops (after its reset) and the flood. */
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "dbell_tx", &v), "dbell_tx");
	TEST_ASSERT_EQUAL(v, 2, "A sent two doorbells");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "raw_dbell_tx", &v), "raw_dbell_tx");
	TEST_ASSERT_EQUAL(v, 2, "A raw doorbells");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "dbell_rx", &v), "dbell_rx");
	TEST_ASSERT_EQUAL(v, 2, "B received two doorbells");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "raw_dbell_rx", &v), "raw_dbell_rx");
	TEST_ASSERT_EQUAL(v, 1, "B raw doorbells (one in range)");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "mbox1_raw_tx_msgs", &v), "mbox1_raw_tx_msgs");
	TEST_ASSERT_EQUAL(v, 1, "A mbox 1 messages");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "mbox1_raw_tx_bytes", &v), "mbox1_raw_tx_bytes");
	TEST_ASSERT_EQUAL(v, RTE_RIO_MAX_MSG_SIZE, "A mbox 1 bytes");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "mbox0_raw_tx_msgs", &v), "mbox0_raw_tx_msgs");
	TEST_ASSERT_EQUAL(v, 1 + RS_FLOOD, "A mbox 0 messages");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "mbox0_raw_tx_errors", &v), "mbox0_raw_tx_errors");
	TEST_ASSERT(v >= 2, "A mbox 0 errors (bad length, RETRY): %" PRIu64, v);
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "msg_tx", &v), "msg_tx");
	TEST_ASSERT_EQUAL(v, 2 + RS_FLOOD, "A endpoint messages sent");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_a, "msg_tx_retry", &v), "msg_tx_retry");
	TEST_ASSERT(v >= 1, "A saw RETRY");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "msg_rx", &v), "msg_rx");
	TEST_ASSERT_EQUAL(v, 2 + RS_FLOOD, "B endpoint messages received");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "mbox1_raw_rx_bytes", &v), "mbox1_raw_rx_bytes");
	TEST_ASSERT_EQUAL(v, RTE_RIO_MAX_MSG_SIZE, "B mbox 1 bytes");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "mbox0_raw_rx_msgs", &v), "mbox0_raw_rx_msgs");
	TEST_ASSERT_EQUAL(v, 1 + RS_FLOOD, "B mbox 0 messages");
	TEST_ASSERT(rs_xstat(rs_id_b, "nosuch", &v) != 0, "unknown xstat found");

	/* Reset of one id, then of all. */
	{
		unsigned int id_rx, id_bytes, bad = 100000;
		uint64_t before_bytes, vv[2];
		uint32_t rid;

		rte_rawdev_xstats_by_name_get(rs_id_b, "msg_rx", &id_rx);
		before_bytes = rte_rawdev_xstats_by_name_get(rs_id_b, "msg_rx_bytes", &id_bytes);
		rid = id_rx;
		TEST_ASSERT_SUCCESS(rte_rawdev_xstats_reset(rs_id_b, &rid, 1), "reset one id");
		TEST_ASSERT_EQUAL(rte_rawdev_xstats_by_name_get(rs_id_b, "msg_rx", NULL), 0,
				  "reset id is 0");
		TEST_ASSERT_EQUAL(rte_rawdev_xstats_by_name_get(rs_id_b, "msg_rx_bytes", NULL),
				  before_bytes, "other ids untouched");
		rid = bad;
		TEST_ASSERT(rte_rawdev_xstats_reset(rs_id_b, &rid, 1) != 0, "bad id reset");
		TEST_ASSERT_EQUAL(rte_rawdev_xstats_get(rs_id_b, &id_bytes, vv, 1), 1, "one value");
		TEST_ASSERT_EQUAL(rte_rawdev_xstats_get(rs_id_b, &bad, vv, 1), 0,
				  "an invalid id stops the fill");
	}
	TEST_ASSERT_SUCCESS(rte_rawdev_xstats_reset(rs_id_b, NULL, 0), "reset B");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "msg_rx", &v), "msg_rx");
	TEST_ASSERT_EQUAL(v, 0, "msg_rx after reset");
	TEST_ASSERT_SUCCESS(rs_xstat(rs_id_b, "mbox0_raw_rx_msgs", &v), "mbox0_raw_rx_msgs");
	TEST_ASSERT_EQUAL(v, 0, "mbox0_raw_rx_msgs after reset");
	return TEST_SUCCESS;
}

static int
test_rio_sim_dump(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(f, "memstream");
	TEST_ASSERT_SUCCESS(rte_rawdev_dump(rs_id_a, f), "dump A");
	TEST_ASSERT_SUCCESS(rte_rawdev_dump(rs_id_b, f), "dump B");
	fclose(f);
	TEST_ASSERT(buf != NULL && strstr(buf, rs_fabric) != NULL, "dump names the fabric");
	TEST_ASSERT(strstr(buf, "ep0") != NULL && strstr(buf, "ep1") != NULL,
		    "dump names the endpoints");
	TEST_ASSERT(strstr(buf, "link up") != NULL, "dump shows the port");
	free(buf);
	return TEST_SUCCESS;
}

static int
test_rio_sim_stop(void)
{
	struct rte_pmd_rio_sim_op op = { .type = RTE_PMD_RIO_SIM_OP_DBELL, .destid = 1 };
	struct rte_rawdev_buf b = { .buf_addr = &op };
	struct rte_rawdev_buf *bp = &b;
	struct rte_rio_mport *mb = rte_pmd_rio_sim_mport(rs_id_b);

	rte_rawdev_stop(rs_id_a);
	rte_rawdev_stop(rs_id_b);
	TEST_ASSERT_EQUAL(rte_rawdev_enqueue_buffers(rs_id_a, &bp, 1, NULL), -ENOTCONN,
			  "enqueue after stop");
	/* Stop gave the mailboxes back to lib/rio users. */
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mb, 0, 8), "mailbox 0 free again");
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(mb, 0), "release");
	/* Restart works and stop/close leave the device usable. */
	TEST_ASSERT_SUCCESS(rte_rawdev_start(rs_id_b), "restart B");
	rte_rawdev_stop(rs_id_b);
	TEST_ASSERT_SUCCESS(rte_rawdev_close(rs_id_b), "close B");
	return TEST_SUCCESS;
}

static int
test_rio_sim_selftest(void)
{
	int before = rte_rawdev_count();

	TEST_ASSERT_SUCCESS(rte_rawdev_selftest(rs_id_a), "selftest");
	TEST_ASSERT_EQUAL(rte_rawdev_count(), before, "selftest left rawdevs behind");
	return TEST_SUCCESS;
}

static int
test_rio_sim_remove(void)
{
	TEST_ASSERT_EQUAL(rs_shm_count(rs_fabric), 3, "main segment and two endpoint segments");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(rs_name_b), "remove B");
	rs_b_up = false;
	TEST_ASSERT_NULL(rte_rio_mport_find(rs_name_b), "mport B gone");
	TEST_ASSERT_EQUAL(rs_shm_count(rs_fabric), 2, "B's segment gone, fabric stays");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(rs_name_a), "remove A");
	rs_a_up = false;
	TEST_ASSERT_NULL(rte_rio_mport_find(rs_name_a), "mport A gone");
	TEST_ASSERT_EQUAL(rs_shm_count(rs_fabric), 0, "no /dev/shm/rio_sim.%s* left", rs_fabric);
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Two processes on one fabric                                        */

#define RS_MP_DBELL	0x111
#define RS_MP_HELLO	64

static void
rs_mp_pattern(uint8_t *buf, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 3);
}

/*
 * Child: one vdev without endpoint= on the parent's fabric (so it must skip
 * ep0, held by the live parent), raw doorbell and message to the parent, then
 * wait for the parent's 4096-byte answer.
 */
static int
rs_child_peer(int argc, char **argv)
{
	static uint8_t tx[RS_MP_HELLO], rx[RS_NB_OPS][RTE_RIO_MAX_MSG_SIZE];
	static uint8_t want[RTE_RIO_MAX_MSG_SIZE];
	struct rte_pmd_rio_sim_op ops[2], rops[RS_NB_OPS];
	struct rte_rawdev_buf bufs[2], *bp[2];
	struct rte_pmd_rio_sim_info info;
	int ret, got, i;

	if (rte_eal_init(argc, argv) < 0)
		return 10;
	ret = 0;
	if (rte_rawdev_count() != 1 || rs_info(0, &info) != 0 || info.ep_index != 1) {
		printf("  child: expected one rio_sim rawdev on endpoint 1\n");
		ret = 11;
		goto out;
	}
	if (rs_configure(0, 0x1, true) != 0 || rte_rawdev_start(0) != 0) {
		ret = 12;
		goto out;
	}
	rs_mp_pattern(tx, sizeof(tx), 7);
	ops[0] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_DBELL, .destid = 0,
					      .info = RS_MP_DBELL };
	ops[1] = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG, .destid = 0,
					      .mbox = 0, .len = sizeof(tx), .data = tx };
	for (i = 0; i < 2; i++) {
		bufs[i].buf_addr = &ops[i];
		bp[i] = &bufs[i];
	}
	if (rte_rawdev_enqueue_buffers(0, bp, 2, NULL) != 2 || ops[0].status != 0 ||
	    ops[1].status != 0) {
		printf("  child: send failed: %d %d\n", ops[0].status, ops[1].status);
		ret = 13;
		goto stop;
	}
	got = rs_dequeue_all(0, rops, rx, RS_NB_OPS, 1);
	rs_mp_pattern(want, sizeof(want), 9);
	if (got != 1 || rops[0].type != RTE_PMD_RIO_SIM_OP_MSG || rops[0].srcid != 0 ||
	    rops[0].len != RTE_RIO_MAX_MSG_SIZE || memcmp(rops[0].data, want, sizeof(want)) != 0) {
		printf("  child: answer not received (%d)\n", got);
		ret = 14;
	}
stop:
	rte_rawdev_stop(0);
out:
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(rio_sim_rawdev_peer, rs_child_peer)

static int
test_rio_sim_two_processes(void)
{
	static uint8_t rx[RS_NB_OPS][RTE_RIO_MAX_MSG_SIZE], hello[RS_MP_HELLO];
	static uint8_t answer[RTE_RIO_MAX_MSG_SIZE];
	char fabric[40], name[64], args[96], prefix[64], vdev[128];
	struct rte_pmd_rio_sim_op rops[RS_NB_OPS], op;
	struct rte_rawdev_buf b = { .buf_addr = &op };
	struct rte_rawdev_buf *bp = &b;
	unsigned int n_db = 0, n_msg = 0, tries;
	bool up = false, started = false;
	char *child_args[10];
	pid_t pid = -1;
	uint16_t id;
	int ret = TEST_FAILED, got, i, status;

	if (rs_unique_fabric(fabric, sizeof(fabric)) == NULL)
		return TEST_FAILED;
	snprintf(name, sizeof(name), "rio_sim_mp_%s", fabric);
	snprintf(args, sizeof(args), "fabric=%s,topology=builtin:default,endpoint=ep0", fabric);
	if (rte_vdev_init(name, args) != 0 || rs_dev_id(name, &id) != 0) {
		printf("  cannot create %s\n", name);
		goto out;
	}
	up = true;
	if (rs_configure(id, 0x1, true) != 0 || rte_rawdev_start(id) != 0)
		goto out;
	started = true;

	snprintf(prefix, sizeof(prefix), "--file-prefix=%sc", fabric);
	snprintf(vdev, sizeof(vdev), "rio_sim_peer_%s,fabric=%s", fabric, fabric);
	i = 0;
	child_args[i++] = (char *)"--no-huge";
	child_args[i++] = (char *)"-m";
	child_args[i++] = (char *)"128";
	child_args[i++] = (char *)"--no-pci";
	child_args[i++] = prefix;
	child_args[i++] = (char *)"--log-level=lib.eal:error";
	child_args[i++] = (char *)"--vdev";
	child_args[i++] = vdev;
	child_args[i] = NULL;
	pid = rio_test_spawn("rio_sim_rawdev_peer", child_args);
	if (pid <= 0) {
		printf("  spawn failed: %d\n", (int)pid);
		goto out;
	}

	/* The child's doorbell and hello message. */
	for (tries = 0; tries < 10 && n_db + n_msg < 2; tries++) {
		got = rs_dequeue_all(id, rops, rx, RS_NB_OPS, 2 - (n_db + n_msg));
		for (i = 0; i < got; i++) {
			if (rops[i].type == RTE_PMD_RIO_SIM_OP_DBELL && rops[i].srcid == 1 &&
			    rops[i].info == RS_MP_DBELL)
				n_db++;
			rs_mp_pattern(hello, sizeof(hello), 7);
			if (rops[i].type == RTE_PMD_RIO_SIM_OP_MSG && rops[i].srcid == 1 &&
			    rops[i].len == sizeof(hello) &&
			    memcmp(rops[i].data, hello, sizeof(hello)) == 0)
				n_msg++;
		}
	}
	if (n_db != 1 || n_msg != 1) {
		printf("  from the child: %u doorbells, %u messages\n", n_db, n_msg);
		goto out;
	}
	rs_mp_pattern(answer, sizeof(answer), 9);
	op = (struct rte_pmd_rio_sim_op){ .type = RTE_PMD_RIO_SIM_OP_MSG, .destid = 1,
					  .mbox = 0, .len = sizeof(answer), .data = answer };
	if (rte_rawdev_enqueue_buffers(id, &bp, 1, NULL) != 1 || op.status != 0) {
		printf("  answer not sent: %d\n", op.status);
		goto out;
	}
	status = rio_test_wait(pid, 20000);
	pid = -1;
	if (status != 0) {
		printf("  child exit status %d\n", status);
		goto out;
	}
	/* The child removed its endpoint segment; ours and the fabric stay. */
	if (rs_shm_count(fabric) != 2) {
		printf("  %d segments after the child left, expected 2\n", rs_shm_count(fabric));
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (pid > 0)
		rio_test_wait(pid, 1);
	if (started)
		rte_rawdev_stop(id);
	if (up && rte_vdev_uninit(name) != 0)
		ret = TEST_FAILED;
	if (rs_shm_count(fabric) != 0) {
		printf("  fabric %s left shared memory\n", fabric);
		rs_shm_cleanup(fabric);
		ret = TEST_FAILED;
	}
	return ret;
}

static struct unit_test_suite rio_sim_rawdev_suite = {
	.suite_name = "rio_sim rawdev",
	.setup = rs_setup,
	.teardown = rs_teardown,
	.unit_test_cases = {
		TEST_CASE(test_rio_sim_bad_devargs),
		TEST_CASE(test_rio_sim_no_free_endpoint),
		TEST_CASE(test_rio_sim_scan_at_probe),
		TEST_CASE(test_rio_sim_disc_timeout),
		TEST_CASE(test_rio_sim_disc_timeout_eal),
		TEST_CASE(test_rio_sim_info),
		TEST_CASE(test_rio_sim_attrs),
		TEST_CASE(test_rio_sim_link_attr),
		TEST_CASE(test_rio_sim_configure),
		TEST_CASE(test_rio_sim_raw_ops),
		TEST_CASE(test_rio_sim_backpressure),
		TEST_CASE(test_rio_sim_backpressure_slow_target),
		TEST_CASE(test_rio_sim_xstats),
		TEST_CASE(test_rio_sim_dump),
		TEST_CASE(test_rio_sim_stop),
		TEST_CASE(test_rio_sim_selftest),
		TEST_CASE(test_rio_sim_two_processes),
		TEST_CASE(test_rio_sim_remove),
		TEST_CASES_END()
	}
};

static int
test_rio_sim_rawdev(void)
{
	return unit_test_suite_runner(&rio_sim_rawdev_suite);
}

REGISTER_TEST_COMMAND(rio_sim_rawdev_autotest, test_rio_sim_rawdev);
