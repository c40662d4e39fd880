/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim_models_autotest: the behaviours of the device models that a
 * lenient fabric would not have (doc/guides/rawdevs/rio_sim.rst, "Device
 * models"), one case each:
 *  - std route tables reset to seeded unpredictable contents, and the
 *    default port CSR serves IDs past the table limit only;
 *  - cps1848 and rxs2448: reset contents, special route values, device and
 *    domain tables, broadcast and per-port tables, vendor registers and
 *    the accesses Linux's idt_gen2.c and idt_gen3.c make;
 *  - endpoints filter destination IDs (and count the drops), take
 *    maintenance requests and port-writes whatever their destination ID,
 *    and nothing else before their Base Device ID is set;
 *  - port enables and Master Enable;
 *  - maintenance sizes: 4 bytes (or double-words), tsi721 4 bytes only;
 *  - ackIDs: a mismatch stops the link until it is recovered as Linux's
 *    rio_clr_err_stopped() does;
 *  - port-writes repeated while Port-write Pending;
 *  - the timing model: a dropped transaction (maintenance, message,
 *    doorbell) fails after the response timeout (a lower bound only: the
 *    machine is shared), messages arrive after their hops and complete
 *    after their responses, link rates;
 *  - dual-port endpoints;
 *  - message payloads arrive as whole double-words, zero-padded;
 *  - messages are segments of 256 bytes that queue on the links; one
 *    message in flight per letter, four per mailbox; a sender refused with
 *    RETRY waits for that response. These read the arrival times the model
 *    gives the messages in the target's ring: deterministic, where the
 *    wall clock of a shared machine is not.
 * Fabrics are unique per process; the std seeds are printed by the driver.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_rawdev.h>

#include "rio_driver.h"
#include "rio_sim_shm.h"
#include "rte_rio.h"
#include "rte_rio_regs.h"
#include "rte_pmd_rio_sim.h"
#include "rte_pmd_rio_sim_fabric.h"

#include "test.h"

#define SM_PH		0x100	/* LP-Serial block */
#define SM_EM		0x1000	/* Error Management block */
#define SM_ERR_LEN	256
#define SM_MAX_MP	4

struct sm_env {
	char fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	char path[128];
	char vdev[SM_MAX_MP][RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *mp[SM_MAX_MP];
	unsigned int nmp;
};

static struct sm_env sm;
static char sm_dir[64];

static int
sm_setup(void)
{
	snprintf(sm_dir, sizeof(sm_dir), "/tmp/rio_models_test.XXXXXX");
	if (mkdtemp(sm_dir) == NULL)
		return TEST_FAILED;
	return 0;
}

static void
sm_teardown(void)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "rio_sim.rmod_%d_", (int)getpid());
	rio_test_shm_cleanup(buf);
	rio_test_rmdir_files(sm_dir);
}

/* A fabric from @text (NULL: none written) named uniquely; no mport yet. */
static int
sm_new(struct sm_env *e, const char *text)
{
	char tmp[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN - 1];
	FILE *f;

	memset(e, 0, sizeof(*e));
	if (rio_test_unique("rmod", tmp, sizeof(tmp)) == NULL)
		return -1;
	snprintf(e->fabric, sizeof(e->fabric), "%sf", tmp);
	snprintf(e->path, sizeof(e->path), "%s/%s.ini", sm_dir, e->fabric);
	f = fopen(e->path, "w");
	if (f == NULL)
		return -1;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -1;
}

static int
sm_create(struct sm_env *e, const char *text)
{
	char err[SM_ERR_LEN] = "";

	if (sm_new(e, text) != 0)
		return -1;
	if (rte_pmd_rio_sim_fabric_create(e->fabric, e->path, err, sizeof(err)) != 0) {
		printf("  cannot create %s: %s\n", e->fabric, err);
		return -1;
	}
	return 0;
}

/* Claim @ep as an mport (no scan). */
static struct rte_rio_mport *
sm_mport(struct sm_env *e, const char *ep)
{
	char args[256], fabric[sizeof(e->fabric)];
	unsigned int i = e->nmp;

	if (i >= SM_MAX_MP)
		return NULL;
	memcpy(fabric, e->fabric, sizeof(fabric));
	snprintf(e->vdev[i], sizeof(e->vdev[i]), "rio_sim_%s_%u", fabric, i);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=%s,scan=0", fabric, ep);
	if (rte_vdev_init(e->vdev[i], args) != 0)
		return NULL;
	e->mp[i] = rte_rio_mport_find(e->vdev[i]);
	if (e->mp[i] == NULL) {
		rte_vdev_uninit(e->vdev[i]);
		return NULL;
	}
	e->nmp++;
	return e->mp[i];
}

static int
sm_finish(struct sm_env *e)
{
	char prefix[64];
	unsigned int i;

	for (i = e->nmp; i-- > 0;)
		rte_vdev_uninit(e->vdev[i]);
	e->nmp = 0;
	rte_pmd_rio_sim_fabric_destroy(e->fabric);
	unlink(e->path);
	snprintf(prefix, sizeof(prefix), "rio_sim.%s", e->fabric);
	TEST_ASSERT_EQUAL(rio_test_shm_count(prefix), 0, "shared memory left by %s", e->fabric);
	return TEST_SUCCESS;
}

static uint32_t
sm_rd(const struct sm_env *e, const char *dev, uint32_t off)
{
	uint32_t v = 0xdeadbeef;

	if (rte_pmd_rio_sim_fabric_config_read(e->fabric, dev, off, 4, &v) != 0)
		return 0xdeadbeef;
	return v;
}

static int
sm_wr(const struct sm_env *e, const char *dev, uint32_t off, uint32_t v)
{
	return rte_pmd_rio_sim_fabric_config_write(e->fabric, dev, off, 4, v);
}

/* Where @sw sends each ID (route_table()); 0xff: dropped. */
static int
sm_routes(const struct sm_env *e, const char *sw, uint8_t *ports, uint32_t n, uint8_t *def)
{
	return rte_pmd_rio_sim_fabric_route_table(e->fabric, sw, ports, n, def);
}

static int
sm_dev(const struct sm_env *e, const char *name, struct rte_pmd_rio_sim_dev_info *info)
{
	int idx = rte_pmd_rio_sim_fabric_dev_find(e->fabric, name);

	if (idx < 0)
		return idx;
	return rte_pmd_rio_sim_fabric_dev_info(e->fabric, (uint32_t)idx, info);
}

static uint64_t
sm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* std: seeded reset contents, default port past the limit only       */

static const char sm_std_topo[] =
	"[fabric]\nseed = %u\n[switch sw0]\nports = 8\nrt_limit = %u\n"
	"[endpoint ep0]\n[links]\nsw0.0 = ep0.0\n";

static int
sm_std_table(uint32_t seed, uint32_t limit, uint8_t *ports, uint8_t *def)
{
	char text[256];
	int n;

	snprintf(text, sizeof(text), sm_std_topo, seed, limit);
	TEST_ASSERT_SUCCESS(sm_create(&sm, text), "fabric");
	n = sm_routes(&sm, "sw0", ports, 256, def);
	TEST_ASSERT_EQUAL(n, 256, "route table");
	return sm_finish(&sm);
}

static int
test_models_std_reset(void)
{
	uint8_t a[256], b[256], c[256], def = 0;
	unsigned int i, routed = 0, dropped = 0;

	TEST_ASSERT_SUCCESS(sm_std_table(7, 0xff, a, &def), "seed 7");
	TEST_ASSERT_SUCCESS(sm_std_table(7, 0xff, b, &def), "seed 7 again");
	TEST_ASSERT_SUCCESS(sm_std_table(8, 0xff, c, &def), "seed 8");
	TEST_ASSERT(memcmp(a, b, sizeof(a)) == 0, "same seed, other reset contents");
	TEST_ASSERT(memcmp(a, c, sizeof(a)) != 0, "other seed, same reset contents");
	for (i = 0; i < 256; i++) {
		routed += a[i] < 8;
		dropped += a[i] == RTE_RIO_INVALID_ROUTE;
	}
	/* Neither "no route" nor any one port may be relied on. */
	printf("  seed 7: %u IDs routed to a port at reset, %u dropped\n", routed, dropped);
	TEST_ASSERT(routed > 128 && dropped > 0, "reset contents look predictable");

	/* The default port serves the IDs past the table limit only. */
	TEST_ASSERT_SUCCESS(sm_create(&sm, "[switch sw0]\nports = 8\nrt_limit = 0x3f\n"
				      "[endpoint ep0]\n[links]\nsw0.0 = ep0.0\n"), "fabric");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_SWITCH_RT_LIMIT), 0x3f, "limit CAR");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x10), "sel");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xff), "drop");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_DEFAULT_PORT, 3), "default 3");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", a, 256, &def), 256, "routes");
	TEST_ASSERT_EQUAL(a[0x10], RTE_RIO_INVALID_ROUTE, "no route inside the table: dropped");
	for (i = 0x40; i < 256; i++)
		TEST_ASSERT_EQUAL(a[i], 3, "ID 0x%x past the limit", i);
	/* Entries past the limit do not exist. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x80), "sel");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 1), "write");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0xff, "no entry");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* cps1848                                                            */

#define CPS_DEFAULT	0xde
#define CPS_DROP	0xdf
#define CPS_USE_DEV	0xdd

static int
test_models_cps1848(void)
{
	uint8_t rt[65536], def;
	unsigned int i;

	TEST_ASSERT_SUCCESS(sm_create(&sm, "[switch sw0]\nmodel = cps1848\n"
				      "[endpoint ep0]\n[links]\nsw0.0 = ep0.0\n"), "fabric");
	/* The part, as Linux's idt_gen2.c binds to it. */
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_DEV_ID_CAR), 0x03740038, "VID/DID");
	TEST_ASSERT_EQUAL(RTE_RIO_GET_TOTAL_PORTS(sm_rd(&sm, "sw0", RTE_RIO_SWP_INFO_CAR)), 18,
			  "ports");
	/* Reset: every entry "use the default port", which drops. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x42), "sel");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), CPS_DEFAULT,
			  "reset entry");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_STD_RTE_DEFAULT_PORT), CPS_DROP,
			  "reset default port");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", rt, 256, &def), 256, "routes");
	for (i = 0; i < 256; i++)
		TEST_ASSERT_EQUAL(rt[i], RTE_RIO_INVALID_ROUTE, "ID 0x%x routed at reset", i);
	/* A default port: every "use the default port" entry follows it. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_DEFAULT_PORT, 2), "default 2");
	/* Linux idtg2_route_add_entry(): table select 0, destID, port. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x10070, 0), "global table");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 5), "sel");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 1), "route");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 6), "sel");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, CPS_DROP), "drop");
	/* The broadcast device table is the same table. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0xe00000 + 4 * 7, 3), "device table write");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0xe00000 + 4 * 5), 1, "device table read");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", rt, 256, &def), 256, "routes");
	TEST_ASSERT(rt[5] == 1 && rt[6] == RTE_RIO_INVALID_ROUTE && rt[7] == 3 && rt[8] == 2 &&
		    def == 2, "routes 5 %u, 6 %u, 7 %u, 8 %u, default %u", rt[5], rt[6], rt[7],
		    rt[8], def);
	/* Per-port tables are not modelled: reads show the table, writes are refused. */
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0xe10000 + 0x1000 * 2 + 4 * 5), 1, "port table");
	TEST_ASSERT_EQUAL(sm_wr(&sm, "sw0", 0xe10000 + 0x1000 * 2 + 4 * 5, 4), -EIO,
			  "port table write");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x10070, 3), "port 2's table");
	TEST_ASSERT_EQUAL(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 4), -EIO,
			  "route through a port table");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x10070, 0), "global table");
	/* Linux idtg2_em_init(): broadcast and per-port registers. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x03ff04, 0x807e8037), "port error report BC");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0x031044 + 0x40 * 17), 0x807e8037, "port 17");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0xf40004 + 0x100 * 3, 0x08000070), "port ops");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0xf40004 + 0x100 * 3), 0x08000070, "port ops");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0xff8000 + 0x100 * 47, 0x00200000), "lane 47");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0xff8000 + 0x100 * 47), 0x00200000, "lane 47");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0xfd0004), 0, "error log empty");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0xf20020, 0x12), "set domain");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0xf20020), 0x12, "get domain");
	TEST_ASSERT_SUCCESS(sm_finish(&sm), "finish");

	/* 16-bit IDs: the domain table (high byte) first, 0xdd for the device table. */
	TEST_ASSERT_SUCCESS(sm_create(&sm, "[fabric]\ndevid_size = 16\n"
				      "[switch sw0]\nmodel = cps1848\n"
				      "[endpoint ep0]\n[links]\nsw0.0 = ep0.0\n"), "fabric 16");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x0005), "sel");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 1), "device 5");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x0305), "sel");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 4), "domain 3");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", rt, 65536, &def), 65536, "routes");
	TEST_ASSERT(rt[0x0005] == 1 && rt[0x0305] == 4 && rt[0x03ff] == 4 &&
		    rt[0x0405] == RTE_RIO_INVALID_ROUTE, "domain routing: %u %u %u %u",
		    rt[0x0005], rt[0x0305], rt[0x03ff], rt[0x0405]);
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0xe00400 + 4 * 3, CPS_USE_DEV), "use device table");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", rt, 65536, &def), 65536, "routes");
	TEST_ASSERT(rt[0x0305] == 1 && rt[0x0306] == RTE_RIO_INVALID_ROUTE,
		    "domain 3 by the device table: %u %u", rt[0x0305], rt[0x0306]);
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* rxs2448                                                            */

#define RXS_DROP	0x300
#define RXS_DEFAULT	0x301
#define RXS_L2(id)	(0x31000 + 4 * (id))
#define RXS_PORT_L2(p, id) (0x51000 + 0x2000 * (p) + 4 * (id))

static int
test_models_rxs2448(void)
{
	uint8_t rt[256], def;
	uint32_t v;

	TEST_ASSERT_SUCCESS(sm_create(&sm, "[switch sw0]\nmodel = rxs2448\n"
				      "[endpoint ep0]\n[links]\nsw0.0 = ep0.0\n"), "fabric");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_DEV_ID_CAR), 0x80e60038, "VID/DID");
	TEST_ASSERT_EQUAL(RTE_RIO_GET_TOTAL_PORTS(sm_rd(&sm, "sw0", RTE_RIO_SWP_INFO_CAR)), 24,
			  "ports");
	TEST_ASSERT(!(sm_rd(&sm, "sw0", RTE_RIO_PEF_CAR) & RTE_RIO_PEF_EXT_RT),
		    "extended route configuration with 10-bit values");
	/* Register map II, then EM, then the routing table block. */
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH), 0x10000000u | RTE_RIO_EFB_SER_EPF_SW_M2_ID,
			  "LP-Serial header");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_EM), 0x50000000u | RTE_RIO_EFB_ERR_MGMNT, "EM");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0x5000), RTE_RIO_EFB_SW_ROUTING_TBL, "RT block");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", 0x5038), (1u << 24) | 0x31000, "level 2 group");
	/* Reset: drop. */
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RXS_L2(5)), RXS_DROP, "reset entry");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", rt, 256, &def), 256, "routes");
	TEST_ASSERT_EQUAL(rt[5], RTE_RIO_INVALID_ROUTE, "routed at reset");
	/* Linux idtg3_probe() and idtg3_route_add_entry(): broadcast level 2 group 0. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x5020, 0), "flat routing");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RXS_L2(5), 1), "route 5");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RXS_L2(6), RXS_DEFAULT), "6 to the default port");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_DEFAULT_PORT, 2), "default 2");
	/* idtg3_route_get_entry(): the table of the port the request came in on. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_read(sm.fabric, "sw0",
			    RXS_PORT_L2(0, 5), 4, &v), "port 0 table");
	TEST_ASSERT_EQUAL(v, 1, "port table shows the route");
	TEST_ASSERT_EQUAL(sm_wr(&sm, "sw0", RXS_PORT_L2(0, 5), 3), -EIO, "port table write");
	TEST_ASSERT_EQUAL(sm_routes(&sm, "sw0", rt, 256, &def), 256, "routes");
	TEST_ASSERT(rt[5] == 1 && rt[6] == 2 && rt[7] == RTE_RIO_INVALID_ROUTE,
		    "routes 5 %u, 6 %u, 7 %u", rt[5], rt[6], rt[7]);
	/* The standard CSRs reach the same entries, 10-bit values included. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 6), "sel");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), RXS_DEFAULT,
			  "0x74");
	/* The port soft reset (idtg3_em_handler) restarts the port's ackIDs. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_PH + 0x60 + 0x40 * 1, 0x8000002a), "outbound");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_PH + 0x64 + 0x40 * 1, 0x00015), "inbound");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + 0x60 + 0x40 * 1), 0x0002a02a, "ackIDs set");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x10100 + 0x100 * 1, 0x02000000), "soft reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + 0x60 + 0x40 * 1), 0, "outbound reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + 0x64 + 0x40 * 1), 0, "inbound reset");
	return sm_finish(&sm);
}

/* rxs2448 sends port-writes out of the ports of its port-write route. */
static int
test_models_rxs2448_pw_route(void)
{
	struct rte_rio_pw_msg pw[8];
	struct rte_rio_mport *m0;

	TEST_ASSERT_SUCCESS(sm_create(&sm, "[switch sw0]\nmodel = rxs2448\n"
				      "[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
				      "[links]\nsw0.3 = ep0.0\nsw0.5 = ep1.0\n"), "fabric");
	m0 = sm_mport(&sm, "ep0");
	TEST_ASSERT_NOT_NULL(m0, "mport");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_EM + RTE_RIO_EM_PW_TGT_DEVID, 0), "target 0");
	/* The route table drops ID 0 (reset): the port-write is lost. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "ep1", 0, false), "down");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(m0, pw, RTE_DIM(pw)), 0, "port-write by the table");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "ep1", 0, true), "up");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", 0x40208, 1u << 3), "port-write route: port 3");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_ERR_STS_CSR(5, 2),
				  RTE_RIO_PORT_N_ERR_STS_PW_PEND), "acknowledge");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "ep1", 0, false), "down");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(m0, pw, RTE_DIM(pw)), 1, "port-write by its route");
	TEST_ASSERT_EQUAL(pw[0].em.is_port & 0xff, 5, "reporting port");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* Endpoints: destination IDs, port enables, Master Enable            */

/* sw0 with ep0 (ID 0), ep1 (ID 1), ep2 (no ID yet); static routes for 0 and 1. */
static const char sm_three_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_timeout = 10000\n"
	"[switch sw0]\nmodel = std\nports = 4\n"
	"[endpoint ep0]\nhost = 1\ndestid = 0\n[endpoint ep1]\ndestid = 1\n[endpoint ep2]\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\nsw0.2 = ep2.0\n";

/* The same with generic endpoints: their mports' own maintenance sizes. */
static const char sm_three_generic_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_timeout = 10000\n"
	"[switch sw0]\nmodel = std\nports = 4\n"
	"[endpoint ep0]\nmodel = generic\nhost = 1\ndestid = 0\n"
	"[endpoint ep1]\nmodel = generic\ndestid = 1\n[endpoint ep2]\nmodel = generic\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\nsw0.2 = ep2.0\n";

static uint8_t sm_bufs[SM_MAX_MP][8][RTE_RIO_MAX_MSG_SIZE];

/* Mailbox 0 each way on mport @m (the @i-th), with receive buffers. */
static int
sm_mailbox_open(struct rte_rio_mport *m, unsigned int i)
{
	unsigned int b;

	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(m, 0, 32), "inb");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(m, 0, 32), "outb");
	for (b = 0; b < RTE_DIM(sm_bufs[i]); b++)
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(m, 0, sm_bufs[i][b]), "buffer");
	return TEST_SUCCESS;
}

/* Mailbox 0 each way on every mport, with receive buffers. */
static int
sm_mailboxes(struct sm_env *e)
{
	unsigned int i;

	for (i = 0; i < e->nmp; i++)
		TEST_ASSERT_SUCCESS(sm_mailbox_open(e->mp[i], i), "mailboxes of mport %u", i);
	return TEST_SUCCESS;
}

#define SM_WAIT_MS	5000	/* deadline for what the fabric delivers in microseconds */

/* A message on mport @m's mailbox 0, waited for (SM_WAIT_MS); NULL if none came. */
static void *
sm_get_wait(struct rte_rio_mport *m, size_t *len)
{
	uint64_t deadline = sm_now_ns() + SM_WAIT_MS * 1000000ull;
	void *b;

	do {
		b = rte_rio_get_inb_message(m, 0, len, NULL);
	} while (b == NULL && sm_now_ns() < deadline);
	return b;
}

/* Completions of mport @m's mailbox 0 until @want (SM_WAIT_MS). @return their sum. */
static int64_t
sm_completions_wait(struct rte_rio_mport *m, int64_t want)
{
	uint64_t deadline = sm_now_ns() + SM_WAIT_MS * 1000000ull;
	int64_t done = 0, d;

	do {
		d = rte_rio_outb_completions(m, 0);
		if (d < 0)
			return d;
		done += d;
	} while (done < want && sm_now_ns() < deadline);
	return done;
}

static int
sm_send(struct rte_rio_mport *m, uint16_t destid)
{
	static const uint8_t msg[64] = { 0x5a };

	return rte_rio_add_outb_message(m, destid, 0, 0, msg, sizeof(msg));
}

/* 1 if sm_send()'s message is waiting on @m, else 0 (nothing is in flight then). */
static int
sm_recv(struct rte_rio_mport *m)
{
	size_t len = 0;

	return rte_rio_get_inb_message(m, 0, &len, NULL) != NULL && len == 64 ? 1 : 0;
}

/* A message arrives on @m (waited for); its buffer goes back to the mailbox. */
static int
sm_recv_repost(struct rte_rio_mport *m)
{
	size_t len = 0;
	void *b = sm_get_wait(m, &len);

	return b != NULL ? rte_rio_add_inb_buffer(m, 0, b) : -ETIMEDOUT;
}

/* 1 if sm_send()'s message arrives on @m (waited for: it takes its time), else 0. */
static int
sm_recv_wait(struct rte_rio_mport *m)
{
	size_t len = 0;

	return sm_get_wait(m, &len) != NULL && len == 64 ? 1 : 0;
}

static uint64_t
sm_drop_destid(const struct sm_env *e, const char *dev)
{
	struct rte_pmd_rio_sim_dev_info info;

	return sm_dev(e, dev, &info) == 0 ? info.drop_destid : UINT64_MAX;
}

static int
sm_route(const struct sm_env *e, const char *sw, uint32_t id, uint32_t port)
{
	if (sm_wr(e, sw, RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, id) != 0)
		return -1;
	return sm_wr(e, sw, RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, port);
}

static int
test_models_destid_filter(void)
{
	struct rte_rio_pw_msg pw[8];
	struct rte_rio_mport *m0, *m1, *m2;
	uint32_t v = 0;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_three_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	m2 = sm_mport(&sm, "ep2");
	TEST_ASSERT(m0 != NULL && m1 != NULL && m2 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message to ep1");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "ep1 got it");
	/* ID 9 routed to ep1: the message is not for it, dropped and counted. */
	TEST_ASSERT_SUCCESS(sm_route(&sm, "sw0", 9, 1), "route 9");
	TEST_ASSERT_EQUAL(sm_send(m0, 9), -ETIMEDOUT, "message for 9 at ep1");
	TEST_ASSERT_EQUAL(sm_recv(m1), 0, "ep1 took a message for 9");
	TEST_ASSERT_EQUAL(sm_drop_destid(&sm, "ep1"), 1, "drop not counted");
	/* Maintenance requests are taken whatever the destination ID. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 9, 0xff, RTE_RIO_DID_CSR, &v),
			    "maintenance for 9 at ep1");
	TEST_ASSERT_EQUAL(v, RTE_RIO_SET_DID(8, 1), "ep1 answered");
	/* So are port-writes: sw0 reports to ID 9, ep1 takes it. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_EM + RTE_RIO_EM_PW_TGT_DEVID, 9 << 16), "target");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "sw0", 3, false) ==
			    -ENOTCONN ? 0 : -1, "port 3 is unconnected");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "ep2", 0, false), "down");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "ep2", 0, true), "up");
	TEST_ASSERT(rte_rio_pw_fetch(m1, pw, RTE_DIM(pw)) >= 1, "port-write for 9 at ep1");
	/* An endpoint without Base Device ID takes nothing but maintenance, not even for ANY. */
	TEST_ASSERT_SUCCESS(sm_route(&sm, "sw0", 0xff, 2), "route 0xff");
	TEST_ASSERT_EQUAL(sm_send(m0, 0xff), -ETIMEDOUT, "message for 0xff at ep2");
	TEST_ASSERT_EQUAL(sm_recv(m2), 0, "ep2 took a message before its ID was set");
	TEST_ASSERT_EQUAL(sm_drop_destid(&sm, "ep2"), 1, "drop not counted");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 0xff, 0xff, RTE_RIO_DID_CSR, &v),
			    "maintenance for 0xff at ep2");
	TEST_ASSERT_EQUAL(v, 0x00ffffff, "ep2 answered");
	/* Once set, its ID reaches it. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(m0, 0xff, 0xff, RTE_RIO_DID_CSR,
			    RTE_RIO_SET_DID(8, 2)), "set ep2's ID");
	TEST_ASSERT_SUCCESS(sm_route(&sm, "sw0", 2, 2), "route 2");
	TEST_ASSERT_SUCCESS(sm_send(m0, 2), "message for 2");
	TEST_ASSERT_EQUAL(sm_recv_wait(m2), 1, "ep2 got it");
	return sm_finish(&sm);
}

static int
test_models_enables_master(void)
{
	const uint32_t en = RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX;
	struct rte_rio_mport *m0, *m1;
	uint32_t ctl, v;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_three_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	/* Output port enable clear: only maintenance leaves sw0.1. */
	ctl = sm_rd(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(1, 1));
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(1, 1),
				  ctl & ~RTE_RIO_PORT_N_CTL_EN_TX), "output enable off");
	TEST_ASSERT_EQUAL(sm_send(m0, 1), -ETIMEDOUT, "message out of a disabled output");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_DID_CSR, &v),
			    "maintenance out of a disabled output");
	/* Input port enable clear at ep1 itself. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(1, 1), ctl), "on");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "ep1", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1),
				  ctl & ~RTE_RIO_PORT_N_CTL_EN_RX), "input enable off");
	TEST_ASSERT_EQUAL(sm_send(m0, 1), -ETIMEDOUT, "message into a disabled input");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "ep1", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1), ctl), "on");
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message with the enables set");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "received");
	/* Master Enable clear: ep0 issues no request at all. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "ep0", SM_PH + RTE_RIO_PORT_GEN_CTL_CSR, 0), "no master");
	TEST_ASSERT_EQUAL(sm_send(m0, 1), -EACCES, "message without Master Enable");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(m0, 1, 0x1234), -EACCES, "doorbell");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_DID_CSR, &v),
			  -EACCES, "maintenance without Master Enable");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "ep0", SM_PH + RTE_RIO_PORT_GEN_CTL_CSR,
				  RTE_RIO_PORT_GEN_MASTER), "master again");
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message with Master Enable");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "received");
	TEST_ASSERT_SUCCESS(sm_finish(&sm), "finish");

	/*
	 * Reset values: the specification recommends the enables clear (std,
	 * generic), the IDT parts come out of reset forwarding; nobody has
	 * Master Enable but a device whose ID the topology presets.
	 */
	TEST_ASSERT_SUCCESS(sm_create(&sm, "[switch sw0]\nmodel = std\nports = 4\n[switch sw1]\n"
				      "model = cps1848\n[endpoint ep0]\nmodel = generic\n[endpoint ep1]\n"
				      "model = tsi721\n[endpoint ep2]\ndestid = 2\n"
				      "[links]\nsw0.0 = ep0.0\nsw0.1 = sw1.0\nsw1.1 = ep1.0\n"
				      "sw1.2 = ep2.0\n"), "fabric");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1)) & en, 0,
			  "std enables at reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1)) & en, 0,
			  "generic enables at reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw1", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1)) & en, en,
			  "cps1848 enables at reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep1", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1)) & en, en,
			  "tsi721 enables at reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep0", SM_PH + RTE_RIO_PORT_GEN_CTL_CSR), 0,
			  "Master Enable at reset");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep2", SM_PH + RTE_RIO_PORT_GEN_CTL_CSR),
			  RTE_RIO_PORT_GEN_MASTER, "preset ID without Master Enable");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* Maintenance sizes                                                  */

static int
test_models_maint_sizes(void)
{
	struct rte_rio_mport *m0;
	uint16_t v16 = 0;
	uint32_t v = 0, w[2];
	uint64_t cnt;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_three_generic_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	TEST_ASSERT_NOT_NULL(m0, "mport");
	/* 1- and 2-byte accesses are no maintenance transaction. */
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(sm.fabric, "ep0", 1, 0xff, false,
			  RTE_RIO_DID_CSR, 2, &v), -EINVAL, "2-byte maintenance");
	TEST_ASSERT_EQUAL(rte_rio_remote_write_config_16(m0, 1, 0xff, RTE_RIO_COMPONENT_TAG_CSR,
			  1), -EINVAL, "2-byte maintenance write");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep1", RTE_RIO_COMPONENT_TAG_CSR), 0, "written anyway");
	/* A generic mport reads them as one 4-byte read. */
	rte_rio_mport_maint_count_reset(m0);
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_16(m0, 1, 0xff, RTE_RIO_DID_CSR, &v16),
			    "2-byte read");
	TEST_ASSERT_EQUAL(v16, 1, "upper half of the Base Device ID CSR");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(m0), 1, "one transaction");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_block(m0, 1, 0xff, RTE_RIO_DID_CSR, 8, w),
			    "double-word read");
	TEST_ASSERT_EQUAL(rte_rio_mport_maint_count(m0), 2, "one more transaction");
	TEST_ASSERT_SUCCESS(sm_finish(&sm), "finish");

	/* A tsi721's mport: 4 bytes, local and remote; no block maintenance. */
	TEST_ASSERT_SUCCESS(sm_create(&sm, "[fabric]\nstatic_routes = 1\n[switch sw0]\nports = 4\n"
				      "[endpoint t0]\nmodel = tsi721\ndestid = 0\nhost = 1\n"
				      "[endpoint ep1]\ndestid = 1\n"
				      "[links]\nsw0.0 = t0.0\nsw0.1 = ep1.0\n"), "fabric");
	m0 = sm_mport(&sm, "t0");
	TEST_ASSERT_NOT_NULL(m0, "mport");
	TEST_ASSERT(m0->ops->cread_block == NULL && m0->ops->cwrite_block == NULL,
		    "a tsi721 mport with block maintenance");
	TEST_ASSERT_EQUAL(rte_rio_local_read_config_16(m0, RTE_RIO_DID_CSR, &v16), -EINVAL,
			  "2-byte local read");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_16(m0, 1, 0xff, RTE_RIO_DID_CSR, &v16),
			  -EINVAL, "2-byte maintenance read");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(m0, RTE_RIO_DEV_ID_CAR, &v), "local");
	TEST_ASSERT_EQUAL(v, 0x80ab0038, "Tsi721 VID/DID");
	rte_rio_mport_maint_count_reset(m0);
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_block(m0, 1, 0xff, RTE_RIO_DID_CSR, 8, w),
			    "block read as words");
	cnt = rte_rio_mport_maint_count(m0);
	TEST_ASSERT_EQUAL(cnt, 2, "two 4-byte transactions");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(sm.fabric, "t0", 1, 0xff, false,
			  RTE_RIO_DID_CSR, 4, &v), 0, "4-byte maintenance");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* ackIDs                                                             */

#define SM_ACK(n)	(SM_PH + RTE_RIO_PORT_N_ACK_STS_CSR(n))
#define SM_LM_REQ(n)	(SM_PH + RTE_RIO_PORT_N_MNT_REQ_CSR(n, 1))
#define SM_LM_RSP(n)	(SM_PH + RTE_RIO_PORT_N_MNT_RSP_CSR(n, 1))
#define SM_ERR_STS(n)	(SM_PH + RTE_RIO_PORT_N_ERR_STS_CSR(n, 1))

static int
test_models_ackid_recovery(void)
{
	const uint32_t es = RTE_RIO_PORT_N_ERR_STS_OUT_ES | RTE_RIO_PORT_N_ERR_STS_INP_ES;
	struct rte_pmd_rio_sim_dev_info info;
	struct rte_rio_pw_msg pw[8];
	struct rte_rio_mport *m0, *m1;
	uint32_t v, far, near, lstat;
	int n;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_three_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_EM + RTE_RIO_EM_PW_TGT_DEVID, 0), "pw target");
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "received");
	/* Packets that crossed the link moved both ends' ackIDs together. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_DID_CSR, &v),
			    "maintenance");
	v = sm_rd(&sm, "sw0", SM_ACK(1));
	TEST_ASSERT((v & RTE_RIO_PORT_N_ACK_OUTBOUND) ==
		    (sm_rd(&sm, "ep1", SM_ACK(0)) & RTE_RIO_PORT_N_ACK_INBOUND) >> 24 &&
		    (v & RTE_RIO_PORT_N_ACK_OUTBOUND) != 0, "ackIDs out of step: 0x%x 0x%x", v,
		    sm_rd(&sm, "ep1", SM_ACK(0)));

	/* ep1 restarts its ackIDs at 40 (as if it had reset): the link stops. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "ep1", SM_ACK(0), (40u << 24) | (40u << 8) | 40u), "ep1");
	TEST_ASSERT_EQUAL(sm_send(m0, 1), -ETIMEDOUT, "message over mismatched ackIDs");
	TEST_ASSERT_EQUAL(sm_recv(m1), 0, "received over mismatched ackIDs");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_ERR_STS(1)) & es, RTE_RIO_PORT_N_ERR_STS_OUT_ES,
			  "sw0.1 not output-error-stopped");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep1", SM_ERR_STS(0)) & es, RTE_RIO_PORT_N_ERR_STS_INP_ES,
			  "ep1 not input-error-stopped");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_DID_CSR, &v),
			  -ETIMEDOUT, "maintenance over a stopped link");
	TEST_ASSERT_SUCCESS(sm_dev(&sm, "sw0", &info), "info");
	TEST_ASSERT(info.ports[1].err_stopped >= 1, "not counted");
	/* sw0 reports it: packet-not-accepted on port 1. */
	n = rte_rio_pw_fetch(m0, pw, RTE_DIM(pw));
	TEST_ASSERT(n >= 1 && (pw[0].em.is_port & 0xff) == 1 &&
		    (pw[0].em.errdetect & 0x00100000), "no port-write: %d", n);

	/*
	 * Recovery from ep0, as Linux's rio_clr_err_stopped(): input-status
	 * on sw0.1, align sw0.1's outbound with ep1's inbound, then ep1's
	 * outbound with sw0.1's inbound (that write consumes one ackID).
	 */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(m0, 0, 0, SM_LM_REQ(1),
			    RTE_RIO_MNT_REQ_CMD_IS), "input-status");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 0, 0, SM_LM_RSP(1), &v), "resp");
	TEST_ASSERT(v & RTE_RIO_PORT_N_MNT_RSP_RVAL, "no link-response");
	far = (v & RTE_RIO_PORT_N_MNT_RSP_ASTAT) >> 5;
	lstat = v & RTE_RIO_PORT_N_MNT_RSP_LSTAT;
	TEST_ASSERT_EQUAL(far, 40, "ep1's inbound ackID");
	TEST_ASSERT_EQUAL(lstat, 0x05, "ep1's input state: error-stopped");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 0, 0, SM_LM_RSP(1), &v), "resp");
	TEST_ASSERT(!(v & RTE_RIO_PORT_N_MNT_RSP_RVAL), "valid bit not cleared on read");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 0, 0, SM_ACK(1), &v), "near");
	near = (v & RTE_RIO_PORT_N_ACK_INBOUND) >> 24;
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(m0, 0, 0, SM_ACK(1),
			    (near << 24) | (far << 8) | far), "near ackIDs");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(m0, 1, 0xff, SM_ACK(0),
			    ((far + 1) << 24) | (near << 8) | near), "far ackIDs");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_ERR_STS(1)) & es, 0, "sw0.1 still stopped");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "ep1", SM_ERR_STS(0)) & es, 0, "ep1 still stopped");
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message after recovery");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "received after recovery");
	TEST_ASSERT_SUCCESS(sm_send(m1, 0), "message back");
	TEST_ASSERT_EQUAL(sm_recv_wait(m0), 1, "received back");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* Port-writes repeated while pending                                 */

static int
test_models_pw_repeat(void)
{
	struct rte_rio_pw_msg pw[8];
	struct rte_rio_mport *m0;
	unsigned int i;
	int n = 0;

	TEST_ASSERT_SUCCESS(sm_create(&sm, "[fabric]\nstatic_routes = 1\npw_repeat = 20000\n"
				      "[switch sw0]\nmodel = std\nports = 4\n"
				      "[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
				      "[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n"), "fabric");
	m0 = sm_mport(&sm, "ep0");
	TEST_ASSERT_NOT_NULL(m0, "mport");
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_EM + RTE_RIO_EM_PW_TGT_DEVID, 0), "pw target");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "ep1", 0, false), "down");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(m0, pw, RTE_DIM(pw)), 1, "port-write");
	TEST_ASSERT(sm_rd(&sm, "sw0", SM_ERR_STS(1)) & RTE_RIO_PORT_N_ERR_STS_PW_PEND,
		    "Port-write Pending");
	/* Not acknowledged: the switch sends it again (every 20 ms here). */
	for (i = 0; i < 100 && n == 0; i++) {
		usleep(10000);
		n = rte_rio_pw_fetch(m0, pw, RTE_DIM(pw));
	}
	TEST_ASSERT(n >= 1, "no repeat while pending");
	TEST_ASSERT(pw[0].em.errdetect & RTE_RIO_EM_PED_LINK_OK2U, "repeat of another event");
	/* Acknowledged (Port-write Pending cleared): no more. */
	TEST_ASSERT_SUCCESS(sm_wr(&sm, "sw0", SM_ERR_STS(1), RTE_RIO_PORT_N_ERR_STS_PW_PEND),
			    "acknowledge");
	rte_rio_pw_fetch(m0, pw, RTE_DIM(pw));
	usleep(60000);
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(m0, pw, RTE_DIM(pw)), 0, "repeat after acknowledge");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* Timing                                                             */

/* ep0 - sw0 - sw1 - ep1, 1 ms a switch, 30 ms response timeout. */
static const char sm_timing_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_timeout = 30000\nhop_latency = 1000000\n"
	"[switch sw0]\nports = 4\n[switch sw1]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = sw1.0\nsw1.1 = ep1.0\n";

static int
test_models_timing(void)
{
	struct rte_pmd_rio_sim_dev_info info;
	struct rte_rio_mport *m0, *m1;
	uint64_t t0, dt;
	size_t len = 0;
	uint32_t v;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_timing_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	TEST_ASSERT_NOT_NULL(m0, "mport");
	/*
	 * A read of ep1 crosses sw0 and sw1 each way: four switch crossings.
	 * Only lower bounds are checked: the machine is shared.
	 */
	t0 = sm_now_ns();
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_DID_CSR, &v),
			    "read");
	dt = sm_now_ns() - t0;
	printf("  read over 4 switch crossings of 1 ms: %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 4000000, "took %" PRIu64 " ns", dt);
	/* Nothing comes back: the failure comes after the response timeout, not at once. */
	TEST_ASSERT_SUCCESS(sm_route(&sm, "sw1", 9, 0xff), "drop 9");
	TEST_ASSERT_SUCCESS(sm_route(&sm, "sw0", 9, 1), "9 to sw1");
	t0 = sm_now_ns();
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(m0, 9, 0xff, RTE_RIO_DID_CSR, &v),
			  -ETIMEDOUT, "unreachable");
	dt = sm_now_ns() - t0;
	printf("  unreachable target: -ETIMEDOUT after %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 30000000, "failed after %" PRIu64 " ns", dt);
	/* So do a message and a doorbell to it. */
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	t0 = sm_now_ns();
	TEST_ASSERT_EQUAL(sm_send(m0, 9), -ETIMEDOUT, "message to an unreachable target");
	dt = sm_now_ns() - t0;
	printf("  message: -ETIMEDOUT after %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 30000000, "message failed after %" PRIu64 " ns", dt);
	t0 = sm_now_ns();
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(m0, 9, 0x42), -ETIMEDOUT,
			  "doorbell to an unreachable target");
	dt = sm_now_ns() - t0;
	printf("  doorbell: -ETIMEDOUT after %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 30000000, "doorbell failed after %" PRIu64 " ns", dt);
	/*
	 * ep1 gets a message once it crossed both switches, and the sender
	 * sees it complete once the response came back across them too.
	 */
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT_NOT_NULL(m1, "mport ep1");
	TEST_ASSERT_SUCCESS(sm_mailbox_open(m1, 1), "ep1 mailbox");
	t0 = sm_now_ns();
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message to ep1");
	TEST_ASSERT_NOT_NULL(sm_get_wait(m1, &len), "not received");
	dt = sm_now_ns() - t0;
	printf("  message over 2 switch crossings of 1 ms: received after %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 2000000, "received after %" PRIu64 " ns", dt);
	TEST_ASSERT_EQUAL(sm_completions_wait(m0, 1), 1, "completion");
	dt = sm_now_ns() - t0;
	printf("  and complete after %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 4000000, "complete after %" PRIu64 " ns", dt);
	/* A doorbell's call returns with its response: four crossings too. */
	t0 = sm_now_ns();
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(m0, 1, 0x43), "doorbell to ep1");
	dt = sm_now_ns() - t0;
	printf("  doorbell answered after %.2f ms\n", dt / 1e6);
	TEST_ASSERT(dt >= 4000000, "doorbell answered after %" PRIu64 " ns", dt);
	/* Link rate: Gen2 x4 by default, 16 Gbit/s after 8b/10b. */
	TEST_ASSERT_SUCCESS(sm_dev(&sm, "sw0", &info), "info");
	TEST_ASSERT_EQUAL(info.ports[1].rate_bps, 16000000000ull, "default link rate");
	TEST_ASSERT_SUCCESS(sm_finish(&sm), "finish");

	/* A link trains to what both ends have: 1x at 2.5 Gbaud here. */
	TEST_ASSERT_SUCCESS(sm_create(&sm, "[fabric]\nlanes = 1\nbaud = 2.5\n"
				      "[switch sw0]\nports = 4\nlanes = 4\nbaud = 6.25\n"
				      "[endpoint ep0]\n[endpoint ep1]\nmodel = tsi721\n"
				      "[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n"), "fabric");
	TEST_ASSERT_SUCCESS(sm_dev(&sm, "sw0", &info), "info");
	TEST_ASSERT_EQUAL(info.ports[0].rate_bps, 2000000000ull, "1x at 2.5 Gbaud");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL2_CSR(0, 1)) >> 28, 2,
			  "selected baud rate");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1)) &
			  RTE_RIO_PORT_N_CTL_IPW, 0, "initialized width 1x");
	TEST_ASSERT_EQUAL(sm_rd(&sm, "sw0", SM_PH + RTE_RIO_PORT_N_CTL_CSR(0, 1)) &
			  RTE_RIO_PORT_N_CTL_PWIDTH, RTE_RIO_PORT_N_CTL_PWIDTH,
			  "the switch port supports 2x and 4x");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* Dual-port endpoints                                                */

static const char sm_dual_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_timeout = 10000\n"
	"[switch sw0]\nports = 4\n[switch sw1]\nports = 4\n"
	"[endpoint ep0]\nhost = 1\ndestid = 0\n[endpoint d1]\nports = 2\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = d1.0\nsw1.1 = d1.1\nsw0.2 = sw1.0\n";

static int
test_models_dual_port(void)
{
	struct rte_rio_mport *m0, *m1;
	uint32_t v = 0;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_dual_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "d1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT(sm_rd(&sm, "d1", RTE_RIO_PEF_CAR) & RTE_RIO_PEF_MULTIPORT, "not multiport");
	/* Reached over port 0 (sw0's route), then over port 1 (through sw1). */
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_SWP_INFO_CAR,
			    &v), "read over port 0");
	TEST_ASSERT_EQUAL(v, (2 << 8) | 0, "SWP_INFO over port 0");
	TEST_ASSERT_SUCCESS(sm_route(&sm, "sw0", 1, 2), "1 through sw1");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m0, 1, 0xff, RTE_RIO_SWP_INFO_CAR,
			    &v), "read over port 1");
	TEST_ASSERT_EQUAL(v, (2 << 8) | 1, "SWP_INFO over port 1");
	/* d1 sends out of its first port whose link is OK. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m1, 0, 0, RTE_RIO_SWP_INFO_CAR, &v),
			    "d1 reads the switch next to it");
	TEST_ASSERT_EQUAL(RTE_RIO_GET_PORT_NUM(v), 1, "sw0, in by port 1");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(sm.fabric, "d1", 0, false), "down");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(m1, 0, 0, RTE_RIO_SWP_INFO_CAR, &v),
			    "d1 reads the switch next to it");
	TEST_ASSERT_EQUAL(RTE_RIO_GET_PORT_NUM(v), 1, "sw1, in by port 1");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	TEST_ASSERT_SUCCESS(sm_send(m1, 0), "message over port 1");
	TEST_ASSERT_EQUAL(sm_recv_wait(m0), 1, "received");
	TEST_ASSERT_SUCCESS(sm_send(m0, 1), "message to d1 over sw1");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "received");
	return sm_finish(&sm);
}

/* ------------------------------------------------------------------ */
/* Messages                                                           */

/* ep0 (ID 0), ep1 (ID 1, generic) and ep2 (ID 2, tsi721) on sw0. */
static const char sm_msg_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_timeout = 10000\n"
	"[switch sw0]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[endpoint ep2]\nmodel = tsi721\ndestid = 2\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\nsw0.2 = ep2.0\n";

/*
 * RapidIO payloads are whole double-words (Part 2, type 11; Linux tsi721.c
 * rounds the length up): a message of n bytes arrives as n rounded up to 8,
 * padded with zeros, on every endpoint model.
 */
static int
test_models_msg_padding(void)
{
	static const uint16_t lens[] = { 8, 13, 60, 1514, 4095 };
	static uint8_t tx[RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_mport *m[3];
	unsigned int i, d, k;
	uint8_t *b;
	size_t len;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_msg_topo), "fabric");
	m[0] = sm_mport(&sm, "ep0");
	m[1] = sm_mport(&sm, "ep1");
	m[2] = sm_mport(&sm, "ep2");
	TEST_ASSERT(m[0] != NULL && m[1] != NULL && m[2] != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	memset(tx, 0x5a, sizeof(tx));
	for (d = 1; d < 3; d++) {
		for (i = 0; i < RTE_DIM(lens); i++) {
			for (k = 0; k < lens[i]; k++)
				tx[k] = (uint8_t)(k * 3 + i + d);
			TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(m[0], d, 0, 0, tx, lens[i]),
					    "send %u bytes to ep%u", lens[i], d);
			b = sm_get_wait(m[d], &len);
			TEST_ASSERT_NOT_NULL(b, "%u bytes not received by ep%u", lens[i], d);
			TEST_ASSERT_EQUAL(len, (size_t)RTE_ALIGN_CEIL(lens[i], 8u),
					  "ep%u: %u bytes arrived as %zu", d, lens[i], len);
			TEST_ASSERT_SUCCESS(memcmp(b, tx, lens[i]), "ep%u: content of %u bytes", d,
					    lens[i]);
			for (k = lens[i]; k < len; k++)
				TEST_ASSERT_EQUAL(b[k], 0, "ep%u: padding byte %u of %u bytes", d, k,
						  lens[i]);
			TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(m[d], 0, b), "repost");
		}
	}
	return sm_finish(&sm);
}

/*
 * The inbound ring of mailbox 0 of the endpoint under mport e->mp[i],
 * mapped read-only: where the model put the arrival time of each message.
 */
struct sm_ring_view {
	void *map;
	size_t size;
	const struct sim_shm_mbox_ring *ring;
	const struct sim_shm_msg_slot *slots;
	uint32_t entries;
};

static int
sm_ring_map(const struct sm_env *e, unsigned int i, struct sm_ring_view *v)
{
	const struct sim_shm_data_hdr *data;
	uint64_t ep_index = 0;
	char name[128];
	struct stat st;
	int fd, dev_id;

	memset(v, 0, sizeof(*v));
	dev_id = rte_rawdev_get_dev_id(e->vdev[i]);
	if (dev_id < 0 ||
	    rte_rawdev_get_attr(dev_id, RTE_PMD_RIO_SIM_ATTR_EP_INDEX, &ep_index) != 0)
		return -1;
	snprintf(name, sizeof(name), "rio_sim.%s.ep%" PRIu64, e->fabric, ep_index);
	fd = rio_test_fabric_open(name, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0) {
		v->size = st.st_size;
		v->map = mmap(NULL, v->size, PROT_READ, MAP_SHARED, fd, 0);
	}
	close(fd);
	if (v->map == NULL || v->map == MAP_FAILED) {
		v->map = NULL;
		return -1;
	}
	data = v->map;
	v->entries = data->entries;
	if (v->entries == 0 || (v->entries & (v->entries - 1)) != 0 ||
	    data->ring_off[0] + sizeof(*v->ring) + (size_t)v->entries * SIM_SLOT_SIZE > v->size) {
		munmap(v->map, v->size);
		v->map = NULL;
		return -1;
	}
	v->ring = RTE_PTR_ADD(v->map, data->ring_off[0]);
	v->slots = (const void *)(v->ring + 1);
	return 0;
}

static void
sm_ring_unmap(struct sm_ring_view *v)
{
	if (v->map != NULL)
		munmap(v->map, v->size);
	v->map = NULL;
}

/* Ring position the next message will take. */
static uint64_t
sm_ring_head(const struct sm_ring_view *v)
{
	return __atomic_load_n(&v->ring->pos.prod_head, __ATOMIC_ACQUIRE);
}

/* Arrival time of the message at ring position @pos (published by its sender). */
static uint64_t
sm_ring_arrival(const struct sm_ring_view *v, uint64_t pos)
{
	return v->slots[pos & (v->entries - 1)].arrival_ns;
}

/* Send one burst of @n messages of @len bytes from @m to @destid, letters @letters[]. */
static uint16_t
sm_send_burst(struct rte_rio_mport *m, uint16_t destid, uint16_t n, uint16_t len,
	      const uint8_t *letters)
{
	static uint8_t buf[RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_msg msgs[32];
	uint16_t i;

	for (i = 0; i < n && i < RTE_DIM(msgs); i++)
		msgs[i] = (struct rte_rio_msg){ .buf = buf, .len = len, .destid = destid,
						 .letter = letters[i] };
	return rte_rio_send_messages(m, 0, msgs, RTE_MIN(n, (uint16_t)RTE_DIM(msgs)));
}

/* ep0 - sw0 - ep1; a target answers 2 ms after a segment arrived. */
static const char sm_letters_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_latency = 2000000\n"
	"[switch sw0]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n";

/*
 * (letter, mailbox, segment) names a segment a sender has outstanding
 * (Part 2): a message waits for the last one with its letter to complete,
 * so one message is in flight per letter and four per mailbox. The model's
 * arrival times show it: messages on one letter are a response time
 * apart, on four letters they follow each other on the link.
 */
static int
test_models_msg_letters(void)
{
	static const uint8_t one[4] = { 0, 0, 0, 0 }, four[5] = { 0, 1, 2, 3, 0 };
	const uint64_t rtt = 2000000;	/* response_latency: the least a response takes */
	struct rte_rio_mport *m0, *m1;
	struct sm_ring_view v;
	uint64_t p, a[5], gap;
	unsigned int k;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_letters_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	TEST_ASSERT_SUCCESS(sm_ring_map(&sm, 1, &v), "ep1's ring");

	/* Four messages on letter 0: each starts when the one before completed. */
	p = sm_ring_head(&v);
	TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 4, 64, one), 4, "letter 0 burst");
	for (k = 0; k < 4; k++)
		a[k] = sm_ring_arrival(&v, p + k);
	for (k = 1; k < 4; k++)
		TEST_ASSERT(a[k] - a[k - 1] >= rtt, "letter 0: message %u arrives %" PRIu64
			    " ns after the one before, within its response time", k,
			    a[k] - a[k - 1]);
	gap = a[1] - a[0];
	TEST_ASSERT_EQUAL(sm_completions_wait(m0, 4), 4, "letter 0 burst complete");
	for (k = 0; k < 4; k++)
		TEST_ASSERT_SUCCESS(sm_recv_repost(m1), "letter 0: message %u received", k);

	/* Letters 0..3 and 0 again: four in flight, the fifth waits for the first. */
	p = sm_ring_head(&v);
	TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 5, 64, four), 5, "four letters");
	for (k = 0; k < 5; k++)
		a[k] = sm_ring_arrival(&v, p + k);
	TEST_ASSERT(a[3] - a[0] < rtt, "letters 1..3 waited for letter 0 (%" PRIu64 " ns)",
		    a[3] - a[0]);
	TEST_ASSERT(a[4] - a[0] >= rtt, "a fifth message in flight (%" PRIu64 " ns)",
		    a[4] - a[0]);
	printf("  letter 0 only: %.2f ms apart; letters 0..3: %.0f ns apart, letter 0 again "
	       "after %.2f ms\n", gap / 1e6, (double)(a[1] - a[0]), (a[4] - a[0]) / 1e6);
	sm_ring_unmap(&v);
	TEST_ASSERT_EQUAL(sm_completions_wait(m0, 5), 5, "complete");
	for (k = 0; k < 5; k++)
		TEST_ASSERT_SUCCESS(sm_recv_repost(m1), "four letters: message %u received", k);
	return sm_finish(&sm);
}

/* ep0 - sw0 - ep1 over 1x links at 1.25 Gbaud: 1 Gbit/s, 8 ns a byte. */
static const char sm_slow_topo[] =
	"[fabric]\nstatic_routes = 1\nlanes = 1\nbaud = 1.25\n"
	"[switch sw0]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n";

/*
 * Messages are segments of 256 bytes (16 at most), each a packet with its
 * header, CRC and delimiters, and they queue on the links: a stream does
 * not go faster than the link. A 4096-byte message is 16 packets of 276
 * bytes (8-bit IDs), 35328 ns at 1 Gbit/s.
 */
static int
test_models_msg_segments(void)
{
	static const uint16_t lens[] = { 8, 256, 257, 1514, 4096 };
	static const uint8_t letters[32] = {
		0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
		0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
	const uint64_t seg4096_ns = 16 * 276 * 8;
	uint64_t segs0, segs1, p, first, last;
	struct rte_rio_mport *m0, *m1;
	struct sm_ring_view v;
	unsigned int dev_id, id, k;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_slow_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	dev_id = (unsigned int)rte_rawdev_get_dev_id(sm.vdev[0]);
	segs0 = rte_rawdev_xstats_by_name_get(dev_id, "msg_tx_segs", &id);
	TEST_ASSERT(id != (unsigned int)-1, "no msg_tx_segs");
	for (k = 0; k < RTE_DIM(lens); k++)
		TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 1, lens[k], letters), 1, "%u bytes",
				  lens[k]);
	segs1 = rte_rawdev_xstats_by_name_get(dev_id, "msg_tx_segs", &id);
	TEST_ASSERT_EQUAL(segs1 - segs0, 1 + 1 + 2 + 6 + 16, "segments of 8, 256, 257, "
			  "1514 and 4096 bytes");
	TEST_ASSERT_EQUAL(sm_completions_wait(m0, RTE_DIM(lens)), RTE_DIM(lens), "complete");
	for (k = 0; k < RTE_DIM(lens); k++)
		TEST_ASSERT_NOT_NULL(sm_get_wait(m1, &(size_t){ 0 }), "received");

	/* A stream of 32 such messages on four letters: the link's rate. */
	TEST_ASSERT_SUCCESS(sm_ring_map(&sm, 1, &v), "ep1's ring");
	p = sm_ring_head(&v);
	TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 32, 4096, letters), 32, "stream");
	first = sm_ring_arrival(&v, p);
	last = sm_ring_arrival(&v, p + 31);
	sm_ring_unmap(&v);
	printf("  32 messages of 4096 bytes at 1 Gbit/s: %.2f ms from the first arrival "
	       "to the last (%.2f ms of serialization)\n", (last - first) / 1e6,
	       31 * seg4096_ns / 1e6);
	TEST_ASSERT(last - first >= 31 * seg4096_ns, "stream faster than the link: %" PRIu64
		    " ns", last - first);
	TEST_ASSERT_EQUAL(sm_completions_wait(m0, 32), 32, "stream complete");
	return sm_finish(&sm);
}

/* ep0 - sw0 - ep1, rings of 2 slots, a target answering 10 ms after arrival. */
static const char sm_retry_topo[] =
	"[fabric]\nstatic_routes = 1\nmbox_entries = 2\nresponse_latency = 10000000\n"
	"[switch sw0]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n";

static uint64_t
sm_xstat(const struct sm_env *e, unsigned int i, const char *name)
{
	unsigned int id;
	uint64_t v = rte_rawdev_xstats_by_name_get(rte_rawdev_get_dev_id(e->vdev[i]), name, &id);

	return id == (unsigned int)-1 ? UINT64_MAX : v;
}

/*
 * A full mailbox answers RETRY to a message's first segment: the message
 * is refused (-EAGAIN) and the sender's mailbox sends nothing until that
 * response is back (a response time, 10 ms here): what is posted before is
 * refused by the sender itself (msg_tx_busy) and does not reach the target.
 */
static int
test_models_msg_retry(void)
{
	static const uint8_t letters[3] = { 0, 1, 2 };
	uint64_t retry0, busy0, tgt0, t_refused, t_resend;
	struct rte_rio_mport *m0, *m1;
	struct sm_ring_view v;
	unsigned int tries, k;
	bool seen = false;
	size_t len;
	void *b;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_retry_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	TEST_ASSERT_SUCCESS(sm_ring_map(&sm, 1, &v), "ep1's ring");
	for (tries = 0; tries < 5 && !seen; tries++) {
		retry0 = sm_xstat(&sm, 0, "msg_tx_retry");
		busy0 = sm_xstat(&sm, 0, "msg_tx_busy");
		/* Two slots taken, the third message is refused by the target. */
		TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 3, 64, letters), 2, "into 2 slots");
		t_refused = sm_now_ns();
		tgt0 = __atomic_load_n(&v.ring->retries, __ATOMIC_RELAXED);
		TEST_ASSERT_EQUAL(sm_xstat(&sm, 0, "msg_tx_retry"), retry0 + 1, "RETRY counted");
		t_resend = sm_now_ns();
		TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 1, 64, letters), 0, "resent at once");
		/* Only a resend within the response time says something. */
		if (sm_now_ns() - t_refused < 10000000) {
			TEST_ASSERT_EQUAL(sm_xstat(&sm, 0, "msg_tx_busy"), busy0 + 1,
					  "resend %.2f ms after RETRY not held by the sender",
					  (t_resend - t_refused) / 1e6);
			TEST_ASSERT_EQUAL(__atomic_load_n(&v.ring->retries, __ATOMIC_RELAXED),
					  tgt0, "the held resend reached the target");
			seen = true;
		}
		/* Drain the two, and let the response come back before the next round. */
		for (k = 0; k < 2; k++) {
			b = sm_get_wait(m1, &len);
			TEST_ASSERT_NOT_NULL(b, "accepted message %u not received", k);
			TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(m1, 0, b), "repost");
		}
		usleep(25000);
	}
	sm_ring_unmap(&v);
	TEST_ASSERT(seen, "never resent within 10 ms of a RETRY in %u tries", tries);
	/* Once the response is back, the resend goes through. */
	TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 1, 64, letters), 1, "resent after the response");
	TEST_ASSERT_EQUAL(sm_recv_wait(m1), 1, "received");
	return sm_finish(&sm);
}

/* ep0 - sw0 - ep1; ep1 has 2 inbound segment buffers, each held 100 us. */
static const char sm_segbuf_topo[] =
	"[fabric]\ndevid_size = %u\nstatic_routes = 1\nseg_bufs = 2\nresponse_latency = 100000\n"
	"[switch sw0]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n";

/*
 * A target that cannot take a later segment answers RETRY for that
 * segment, and the sender resends that segment, not the message. Two
 * messages of 16 segments arrive back to back (2 us) at a target whose 2
 * segment buffers are each held 100 us: segments 2..15 of the first and
 * all of the second are refused at least once. Both are accepted
 * (nothing refused to the caller), arrive whole, once and in order, the
 * first no sooner than 7 response times after it was posted (two segments
 * taken per response time), and msg_tx_seg_retry counts the resends.
 * With 8- and 16-bit device IDs.
 */
static int
sm_msg_seg_retry(unsigned int devid_size)
{
	static uint8_t buf[2][RTE_RIO_MAX_MSG_SIZE];
	const uint64_t proc = 100000;
	uint64_t seg0, retry0, p, t0, a0, a1;
	struct rte_rio_mport *m0, *m1;
	struct rte_rio_msg msgs[2];
	struct sm_ring_view v;
	unsigned int k, i;
	size_t len = 0;
	uint8_t *b;
	char text[256];

	snprintf(text, sizeof(text), sm_segbuf_topo, devid_size);
	TEST_ASSERT_SUCCESS(sm_create(&sm, text), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	TEST_ASSERT_SUCCESS(sm_ring_map(&sm, 1, &v), "ep1's ring");
	for (k = 0; k < 2; k++) {
		for (i = 0; i < RTE_RIO_MAX_MSG_SIZE; i++)
			buf[k][i] = (uint8_t)(i * 7 + k * 101 + i / 256);
		msgs[k] = (struct rte_rio_msg){ .buf = buf[k], .len = RTE_RIO_MAX_MSG_SIZE,
						 .destid = 1, .letter = k };
	}
	seg0 = sm_xstat(&sm, 0, "msg_tx_seg_retry");
	TEST_ASSERT(seg0 != UINT64_MAX, "no xstat msg_tx_seg_retry");
	retry0 = sm_xstat(&sm, 0, "msg_tx_retry");
	p = sm_ring_head(&v);
	t0 = sm_now_ns();
	TEST_ASSERT_EQUAL(rte_rio_send_messages(m0, 0, msgs, 2), 2,
			  "segment RETRY refused a message (status %d)", msgs[0].status);
	a0 = sm_ring_arrival(&v, p);
	a1 = sm_ring_arrival(&v, p + 1);
	sm_ring_unmap(&v);
	printf("  %u-bit IDs, 2 x 16 segments into 2 buffers: %" PRIu64 " segments resent; arrivals "
	       "%.2f and %.2f ms after posting\n", devid_size, sm_xstat(&sm, 0, "msg_tx_seg_retry") - seg0,
	       (a0 - t0) / 1e6, (a1 - t0) / 1e6);
	TEST_ASSERT(sm_xstat(&sm, 0, "msg_tx_seg_retry") - seg0 >= 14 + 16,
		    "%" PRIu64 " segments resent, want 30 at least",
		    sm_xstat(&sm, 0, "msg_tx_seg_retry") - seg0);
	TEST_ASSERT_EQUAL(sm_xstat(&sm, 0, "msg_tx_retry"), retry0, "a message was refused");
	TEST_ASSERT(a0 >= t0 + 7 * proc, "first message arrived %" PRIu64 " ns after posting, "
		    "sooner than its segments could be taken", a0 - t0);
	TEST_ASSERT_EQUAL(sm_completions_wait(m0, 2), 2, "complete");
	for (k = 0; k < 2; k++) {
		b = sm_get_wait(m1, &len);
		TEST_ASSERT_NOT_NULL(b, "message %u not received", k);
		TEST_ASSERT_EQUAL(len, RTE_RIO_MAX_MSG_SIZE, "message %u: length", k);
		TEST_ASSERT(memcmp(b, buf[k], len) == 0, "message %u: contents (order)", k);
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(m1, 0, b), "repost");
	}
	TEST_ASSERT_NULL(rte_rio_get_inb_message(m1, 0, &len, NULL), "a message twice");
	return sm_finish(&sm);
}

static int
test_models_msg_seg_retry(void)
{
	TEST_ASSERT_SUCCESS(sm_msg_seg_retry(8), "8-bit IDs");
	return sm_msg_seg_retry(16);
}

/* ep0 - sw0 - ep1, a target answering 10 ms after arrival, rings of 1024 slots. */
static const char sm_desc_topo[] =
	"[fabric]\nstatic_routes = 1\nresponse_latency = 10000000\n"
	"[switch sw0]\nports = 4\n"
	"[endpoint ep0]\ndestid = 0\n[endpoint ep1]\ndestid = 1\n"
	"[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\n";

/*
 * An outbound mailbox opened with 32 entries holds 32 messages in flight:
 * until the first of them completes (its response comes 10 ms after it
 * arrived), a 33rd is refused by the sender itself (-EAGAIN, msg_tx_busy)
 * although the target's ring has room, and reaches no one.
 */
static int
test_models_msg_descriptors(void)
{
	static const uint8_t letters[32] = {
		0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
		0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
	static uint8_t payload[64];
	const uint64_t rsp_ns = 10000000;
	struct rte_rio_msg extra;
	struct rte_rio_mport *m0, *m1;
	uint64_t busy0, t0, got = 0, sent = 0;
	unsigned int tries;
	bool seen = false;

	TEST_ASSERT_SUCCESS(sm_create(&sm, sm_desc_topo), "fabric");
	m0 = sm_mport(&sm, "ep0");
	m1 = sm_mport(&sm, "ep1");
	TEST_ASSERT(m0 != NULL && m1 != NULL, "mports");
	TEST_ASSERT_SUCCESS(sm_mailboxes(&sm), "mailboxes");
	for (tries = 0; tries < 5 && !seen; tries++) {
		busy0 = sm_xstat(&sm, 0, "msg_tx_busy");
		t0 = sm_now_ns();
		TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 32, 64, letters), 32, "32 descriptors");
		sent += 32;
		extra = (struct rte_rio_msg){ .buf = payload, .len = 64, .destid = 1 };
		if (rte_rio_send_messages(m0, 0, &extra, 1) == 1)
			sent++;
		/* Only an attempt within the first response time says something. */
		else if (sm_now_ns() - t0 < rsp_ns) {
			TEST_ASSERT_EQUAL(extra.status, -EAGAIN, "status of the 33rd");
			TEST_ASSERT_EQUAL(sm_xstat(&sm, 0, "msg_tx_busy"), busy0 + 1,
					  "33rd not refused by the sender's mailbox");
			seen = true;
		}
		if (!seen && sm_now_ns() - t0 < rsp_ns)
			TEST_ASSERT(false, "a 33rd message in flight %.2f ms after the burst",
				    (sm_now_ns() - t0) / 1e6);
		TEST_ASSERT_EQUAL(sm_completions_wait(m0, (int64_t)(sent - got)),
				  (int64_t)(sent - got), "completions");
		for (; got < sent; got++)
			TEST_ASSERT_SUCCESS(sm_recv_repost(m1), "message %" PRIu64, got);
	}
	TEST_ASSERT(seen, "never tried a 33rd within 10 ms of the burst in %u tries", tries);
	/* Once they completed, the mailbox takes messages again. */
	TEST_ASSERT_EQUAL(sm_send_burst(m0, 1, 1, 64, letters), 1, "after the completions");
	TEST_ASSERT_SUCCESS(sm_recv_repost(m1), "received");
	return sm_finish(&sm);
}

static struct unit_test_suite rio_sim_models_suite = {
	.suite_name = "rio_sim_models_autotest",
	.setup = sm_setup,
	.teardown = sm_teardown,
	.unit_test_cases = {
		TEST_CASE(test_models_std_reset),
		TEST_CASE(test_models_cps1848),
		TEST_CASE(test_models_rxs2448),
		TEST_CASE(test_models_rxs2448_pw_route),
		TEST_CASE(test_models_destid_filter),
		TEST_CASE(test_models_enables_master),
		TEST_CASE(test_models_maint_sizes),
		TEST_CASE(test_models_ackid_recovery),
		TEST_CASE(test_models_pw_repeat),
		TEST_CASE(test_models_timing),
		TEST_CASE(test_models_dual_port),
		TEST_CASE(test_models_msg_padding),
		TEST_CASE(test_models_msg_letters),
		TEST_CASE(test_models_msg_segments),
		TEST_CASE(test_models_msg_retry),
		TEST_CASE(test_models_msg_seg_retry),
		TEST_CASE(test_models_msg_descriptors),
		TEST_CASES_END()
	}
};

static int
test_rio_sim_models(void)
{
	return unit_test_suite_runner(&rio_sim_models_suite);
}

REGISTER_TEST_COMMAND(rio_sim_models_autotest, test_rio_sim_models);
