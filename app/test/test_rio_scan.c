/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_scan_autotest: enumeration (host) and discovery (agent) of emulated
 * fabrics, checked against what the RapidIO specification requires of the
 * result, read back from the fabric itself (backdoor reads of the
 * emulator), not against traffic getting through:
 *  - every device found once, endpoints with unique IDs equal to their Base
 *    Device ID CSR, links, locks released, unused ports locked out,
 *    Discovered set;
 *  - every switch holds an explicit, correct route-table entry for every
 *    device ID the host assigned (the host's included): following the
 *    entries, never the default-port CSR, leads to the device; entries of
 *    free IDs next to them say "no route"; shadow tables equal the
 *    hardware;
 *  - route tables are filled with seeded random values and the default
 *    ports set to a wrong port before each enumeration (a part's reset
 *    contents are implementation-defined), so nothing may rely on them;
 *    the seed is printed (RIO_TEST_SEED=<seed> replays it);
 *  - every run goes through five master ports: rio_sim's own, one with
 *    block maintenance, one with 4-byte maintenance only (as a Tsi721), one
 *    with 4-byte maintenance whose switches show neither extended route
 *    configuration nor an Error Management block, and the host on the
 *    tsi721 driver over its model of the part; the wrappers check that no
 *    access of another size is made and that every route-table access
 *    happens under the target's host lock (test_rio_wrap.h);
 *  - messages between every pair of claimed endpoints, and every agent's
 *    view equal to the host's.
 * Plus races between hosts, abort (also half-way through a device),
 * restarted and crashed hosts, a Discovered bit set at reset, a fabric
 * enumerated the way Linux does it, route access against a switch somebody
 * else holds.
 *
 * rio_scan_large_autotest: a 16-bit fabric of 1000 endpoints; prints the
 * maintenance-transaction count of the host and of agents for both kinds of
 * master port and checks them against a cost linear in devices and IDs.
 */

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include "rio_driver.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rte_pmd_tsi721.h"

#include "test.h"
#include "test_rio_routes.h"
#include "test_rio_wrap.h"

#define ST_MAX_MP	16
#define ST_MAX_HOPS	64
#define ST_PHYS		0x100	/* LP-Serial block of every emulated device */
#define ST_MSG_WAIT_MS	5000	/* a message not there by then is lost */

/* Master ports a fabric is enumerated and discovered through. */
enum st_mode {
	ST_NATIVE,		/* the rio_sim mport itself */
	ST_BLOCK,		/* block maintenance */
	ST_WORD,		/* 4-byte maintenance only */
	ST_WORD_PLAIN,		/* 4-byte, switches without EXT_RT and EM block */
	ST_TSI721,		/* the host on raw/tsi721's model of the part (4-byte) */
	ST_NMODES
};

static const char * const st_mode_name[ST_NMODES] = {
	"rio_sim mport", "block maintenance", "4-byte maintenance",
	"4-byte maintenance, switches without EXT_RT and EM block",
	"tsi721 master port (the driver on its model; 4-byte maintenance)",
};

static const unsigned int st_mode_flags[ST_NMODES] = {
	0, RIO_TEST_WRAP_BLOCK, RIO_TEST_WRAP_WORD,
	RIO_TEST_WRAP_WORD | RIO_TEST_WRAP_NO_EXT_RT | RIO_TEST_WRAP_NO_EM, 0,
};

struct st_env {
	char fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	char topo[256];
	char dir[64];			/* temp dir of topology files */
	char vdev[ST_MAX_MP][RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *mp[ST_MAX_MP];
	struct rte_rio_mport *lower[ST_MAX_MP];	/* rio_sim mports under wrappers */
	unsigned int nmp;
	int ndev;
	struct rte_pmd_rio_sim_dev_info *info;
	struct rte_rio_dev **view;	/* fabric index -> device of mp[0]'s view */
	enum st_mode mode;
	int host_id;			/* host_destid of the topology's host */
};

static struct st_env st;
static unsigned int st_seed;

/* What an application sees of an mport: its public information. */
static struct rte_rio_mport_info
st_mp_info(struct rte_rio_mport *mp)
{
	struct rte_rio_mport_info info = { .devid_size = 0 };

	if (rte_rio_mport_info_get(mp, &info) != 0)
		printf("  no information on mport %p\n", (void *)mp);
	return info;
}

static uint8_t
st_mp_devid_size(struct rte_rio_mport *mp)
{
	return st_mp_info(mp).devid_size;
}

static int32_t
st_mp_host_destid(struct rte_rio_mport *mp)
{
	return st_mp_info(mp).host_destid;
}

/* ---------------------------------------------------------------------- */
/* Fabric and mports                                                      */

static int
st_shm_count(const char *fabric)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	return rio_test_shm_count(prefix);
}

static int
st_new_fabric(struct st_env *e, const char *topology)
{
	char tmp[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN - 1];

	memset(e, 0, sizeof(*e));
	if (rio_test_unique("rscan", tmp, sizeof(tmp)) == NULL)
		return -1;
	snprintf(e->fabric, sizeof(e->fabric), "%sf", tmp);
	snprintf(e->topo, sizeof(e->topo), "%s", topology);
	return 0;
}

/* Same fabric name, fresh state (the caller tore the previous one down). */
static void
st_reuse_fabric(struct st_env *e)
{
	char fabric[sizeof(e->fabric)], topo[sizeof(e->topo)], dir[sizeof(e->dir)];

	memcpy(fabric, e->fabric, sizeof(fabric));
	memcpy(topo, e->topo, sizeof(topo));
	memcpy(dir, e->dir, sizeof(dir));
	memset(e, 0, sizeof(*e));
	memcpy(e->fabric, fabric, sizeof(fabric));
	memcpy(e->topo, topo, sizeof(topo));
	memcpy(e->dir, dir, sizeof(dir));
}

/* Write a topology file into a temp dir and use it. */
static int
st_new_fabric_file(struct st_env *e, const char *text)
{
	const char *host;
	char path[128];
	FILE *f;

	if (st_new_fabric(e, "") < 0)
		return -1;
	snprintf(e->dir, sizeof(e->dir), "/tmp/rio_scan_XXXXXX");
	if (mkdtemp(e->dir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/topo.ini", e->dir);
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs(text, f);
	fclose(f);
	host = strstr(text, "host_destid = ");
	e->host_id = host != NULL ? (int)strtol(host + strlen("host_destid = "), NULL, 0) : 0;
	snprintf(e->topo, sizeof(e->topo), "%s", path);
	return 0;
}

/* Claim @endpoint as mport @i (a new one when @i is e->nmp); @host >= 0 overrides the host ID. */
static struct rte_rio_mport *
st_claim(struct st_env *e, unsigned int i, const char *endpoint, int host)
{
	char args[512];
	char fabric[sizeof(e->fabric)];
	int n;

	if (i >= ST_MAX_MP)
		return NULL;
	memcpy(fabric, e->fabric, sizeof(fabric));
	/* ST_TSI721: the host's master port is the tsi721 driver on its model. */
	snprintf(e->vdev[i], sizeof(e->vdev[i]), "%s_%s_%u",
		 e->mode == ST_TSI721 && i == 0 ? RTE_PMD_TSI721_MODEL_NAME : "rio_sim",
		 fabric, i);
	n = snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=%s,scan=0", e->fabric,
		     e->topo, endpoint);
	/* The tsi721 driver takes its role from its devargs only. */
	if (e->mode == ST_TSI721 && i == 0 && host < 0)
		host = e->host_id;
	if (host >= 0)
		snprintf(args + n, sizeof(args) - n, ",host=%d", host);
	if (rte_vdev_init(e->vdev[i], args) != 0) {
		printf("rte_vdev_init(%s, %s) failed\n", e->vdev[i], args);
		return NULL;
	}
	e->mp[i] = rte_rio_mport_find(e->vdev[i]);
	e->lower[i] = NULL;
	if (e->mp[i] == NULL) {
		rte_vdev_uninit(e->vdev[i]);
		return NULL;
	}
	if (i == e->nmp)
		e->nmp++;
	return e->mp[i];
}

static struct rte_rio_mport *
st_add_mport(struct st_env *e, const char *endpoint, int host)
{
	return st_claim(e, e->nmp, endpoint, host);
}

/* Put mport @i behind a wrapper master port of @mode. */
static int
st_wrap(struct st_env *e, unsigned int i, enum st_mode mode)
{
	char name[RTE_RIO_NAME_MAX_LEN];

	if (st_mode_flags[mode] == 0)
		return TEST_SUCCESS;
	snprintf(name, sizeof(name), "%.50s_w", rte_rio_mport_name(e->mp[i]));
	e->lower[i] = e->mp[i];
	e->mp[i] = rio_test_wrap(e->lower[i], name, st_mode_flags[mode]);
	TEST_ASSERT_NOT_NULL(e->mp[i], "wrap %s", name);
	return TEST_SUCCESS;
}

/* Make mport 1 the first (the enumerator the checks take mp[0] for). */
static void
st_swap_mports(struct st_env *e)
{
	struct rte_rio_mport *mp = e->mp[0], *lower = e->lower[0];
	char vdev[sizeof(e->vdev[0])];

	e->mp[0] = e->mp[1];
	e->mp[1] = mp;
	e->lower[0] = e->lower[1];
	e->lower[1] = lower;
	memcpy(vdev, e->vdev[0], sizeof(vdev));
	memcpy(e->vdev[0], e->vdev[1], sizeof(vdev));
	memcpy(e->vdev[1], vdev, sizeof(vdev));
}

/* Release mport @i's devices, its wrapper and its vdev. */
static void
st_drop_mport(struct st_env *e, unsigned int i)
{
	rte_rio_mport_devices_release(e->mp[i]);
	if (e->lower[i] != NULL) {
		rio_test_unwrap(e->mp[i]);
		e->mp[i] = e->lower[i];
		e->lower[i] = NULL;
	}
	rte_vdev_uninit(e->vdev[i]);
	e->mp[i] = NULL;
}

/* Device info of the fabric's devices, into e->info (e->ndev of them). */
static int
st_load_info(struct st_env *e)
{
	int i;

	e->ndev = rte_pmd_rio_sim_fabric_dev_count(e->fabric);
	TEST_ASSERT(e->ndev > 0, "fabric %s devices: %d", e->fabric, e->ndev);
	free(e->info);
	e->info = calloc(e->ndev, sizeof(*e->info));
	TEST_ASSERT(e->info != NULL, "no memory");
	for (i = 0; i < e->ndev; i++)
		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(e->fabric, i, &e->info[i]),
				    "dev_info %d", i);
	return TEST_SUCCESS;
}

static void
st_teardown_env(struct st_env *e)
{
	char path[128];
	unsigned int i;

	for (i = e->nmp; i-- > 0;)
		if (e->mp[i] != NULL)
			st_drop_mport(e, i);
	e->nmp = 0;
	free(e->info);
	free(e->view);
	e->info = NULL;
	e->view = NULL;
	if (e->dir[0] != '\0') {
		snprintf(path, sizeof(path), "%s/topo.ini", e->dir);
		unlink(path);
		rmdir(e->dir);
		e->dir[0] = '\0';
	}
}

/* Tear down and check that the fabric left nothing in /dev/shm. */
static int
st_finish(struct st_env *e)
{
	char fabric[sizeof(e->fabric)];

	memcpy(fabric, e->fabric, sizeof(fabric));
	st_teardown_env(e);
	TEST_ASSERT_EQUAL(st_shm_count(fabric), 0, "shared memory left by %s", fabric);
	return TEST_SUCCESS;
}

/* End a run of the global environment that returned @ret: tear it down whatever the outcome. */
static int
st_end(int ret)
{
	if (ret != TEST_SUCCESS) {
		st_teardown_env(&st);
		return TEST_FAILED;
	}
	return st_finish(&st);
}

static int
st_case(int (*body)(void))
{
	return st_end(body());
}

/* Wrappers saw no access of a size their master port cannot do, none without its lock. */
static int
st_check_wrappers(const struct st_env *e)
{
	struct rio_test_wrap_stats ws;
	unsigned int i;

	for (i = 0; i < e->nmp; i++) {
		if (e->mp[i] == NULL)
			continue;
		rio_test_wrap_stats(e->mp[i], &ws);
		TEST_ASSERT_EQUAL(ws.size_violations, 0, "%s: accesses its master port cannot do",
				  rte_rio_mport_name(e->mp[i]));
		TEST_ASSERT_EQUAL(ws.lock_violations, 0, "%s: route accesses without the lock",
				  rte_rio_mport_name(e->mp[i]));
	}
	return TEST_SUCCESS;
}

/* Snapshot of the fabric (after enumeration) and the map to mp[0]'s view. */
static int
st_load(struct st_env *e)
{
	int i;

	TEST_ASSERT_SUCCESS(st_load_info(e), "devices");
	free(e->view);
	e->view = calloc(e->ndev, sizeof(*e->view));
	TEST_ASSERT(e->view != NULL, "no memory");
	for (i = 0; i < e->ndev; i++)
		e->view[i] = rte_rio_dev_find_by_comptag(e->mp[0], e->info[i].comptag);
	return TEST_SUCCESS;
}

static uint16_t
st_did(const struct st_env *e, const struct rte_pmd_rio_sim_dev_info *in)
{
	return RTE_RIO_GET_DID(st_mp_devid_size(e->mp[0]), in->base_devid);
}

static int
st_cfg(const struct st_env *e, int idx, uint32_t off, uint32_t *val)
{
	return rte_pmd_rio_sim_fabric_config_read(e->fabric, e->info[idx].name, off, 4, val);
}

static int
st_cfg_write(const struct st_env *e, int idx, uint32_t off, uint32_t val)
{
	return rte_pmd_rio_sim_fabric_config_write(e->fabric, e->info[idx].name, off, 4, val);
}

/* Register map of device @idx's LP-Serial block (map II on the rxs2448 model). */
static int
st_rmap(const struct st_env *e, int idx)
{
	uint32_t hdr = 0;

	st_cfg(e, idx, ST_PHYS, &hdr);
	return rte_rio_efb_phys_rmap(hdr & 0xffff);
}

static uint32_t
st_rand(uint32_t *s)
{
	/* xorshift32: the sequence depends on the printed seed only. */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Where switch @idx sends @destid (RTE_RIO_INVALID_ROUTE: dropped). */
static int
st_hw_entry(const struct st_env *e, int idx, uint32_t destid)
{
	return rio_test_hw_route(e->fabric, e->info[idx].name, destid);
}

/*
 * Clear every port's input and output enables (Port n Control): only
 * maintenance passes until an enumerator enables them, and the
 * specification recommends they reset clear.
 */
static int
st_disable_ports(const struct st_env *e)
{
	const uint32_t en = RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX;
	unsigned int p;
	int i;

	for (i = 0; i < e->ndev; i++)
		for (p = 0; p < e->info[i].nports; p++)
			TEST_ASSERT_SUCCESS(st_cfg_write(e, i, ST_PHYS +
							 RTE_RIO_PORT_N_CTL_CSR(p, st_rmap(e, i)),
							 e->info[i].ports[p].ctl & ~en),
					    "%s.%u control", e->info[i].name, p);
	return TEST_SUCCESS;
}

/*
 * Fill every switch's route table with random values (mostly real ports,
 * so a forgotten entry misroutes) and point its default-port CSR at a
 * random port: what a switch may hold after reset, or after another host.
 * Through the standard route CSRs, which every model has: four entries an
 * access on std switches (extended configuration); one an access on the
 * IDT parts, whose device table holds the IDs' low bytes and, with 16-bit
 * IDs, whose domain table is selected by an ID with a high byte.
 */
static int
st_poison(const struct st_env *e)
{
	uint32_t nids = RTE_RIO_MAX_DESTIDS(st_mp_devid_size(e->mp[0])), s = st_seed | 1, id, v;
	int i, k;

	for (i = 0; i < e->ndev; i++) {
		const struct rte_pmd_rio_sim_dev_info *in = &e->info[i];
		bool std = strcmp(in->model, "std") == 0;

		if (in->type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		for (id = 0; id < nids; id += std ? 4 : (id < 256 ? 1 : 256)) {
			uint32_t sel = (std ? RTE_RIO_STD_RTE_CONF_EXTCFGEN : 0) | id;

			for (v = 0, k = 0; k < (std ? 4 : 1); k++)
				v |= (st_rand(&s) % (in->nports + 1u)) << (8 * k);
			TEST_ASSERT(st_cfg_write(e, i, RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, sel) == 0 &&
				    st_cfg_write(e, i, RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, v) == 0,
				    "poison %s", in->name);
		}
		TEST_ASSERT_SUCCESS(st_cfg_write(e, i, RTE_RIO_STD_RTE_DEFAULT_PORT,
						 st_rand(&s) % in->nports), "poison %s", in->name);
		TEST_ASSERT_SUCCESS(st_cfg_write(e, i, RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0),
				    "select");
	}
	return st_disable_ports(e);
}

/* Load the fabric as created (before any scan) and poison its route tables. */
static int
st_poison_fabric(struct st_env *e)
{
	TEST_ASSERT_SUCCESS(st_load(e), "load");
	return st_poison(e);
}

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */

/* The name lib/rio gives a device (rte_rio_dev.h), into @buf. */
static const char *
st_dev_name(struct rte_rio_mport *mp, const struct rte_rio_dev_info *di,
	    char buf[RTE_RIO_NAME_MAX_LEN])
{
	struct rte_rio_mport_info mi;

	if (rte_rio_mport_info_get(mp, &mi) != 0)
		snprintf(buf, RTE_RIO_NAME_MAX_LEN, "(no mport info)");
	else if (di->local)
		snprintf(buf, RTE_RIO_NAME_MAX_LEN, RTE_RIO_DEV_NAME_LOCAL_FMT, mi.id);
	else if (di->type == RTE_RIO_DEV_SWITCH)
		snprintf(buf, RTE_RIO_NAME_MAX_LEN, RTE_RIO_DEV_NAME_SWITCH_FMT, mi.id,
			 di->comptag & RTE_RIO_CTAG_UDEVID);
	else
		snprintf(buf, RTE_RIO_NAME_MAX_LEN, RTE_RIO_DEV_NAME_ENDPOINT_FMT, mi.id,
			 di->destid);
	return buf;
}

/*
 * Every switch holds an explicit entry for every assigned ID that leads to
 * its owner, equal to the shadow entry; free IDs next to them have none.
 */
static int
st_check_routes(const struct st_env *e)
{
	int faults = rio_test_check_routes(e->fabric, e->mp[0]);

	TEST_ASSERT(faults >= 0, "cannot read the route tables of %s", e->fabric);
	TEST_ASSERT_EQUAL(faults, 0, "switches rely on reset contents or the default port");
	return TEST_SUCCESS;
}

/* The host's view (mp[0]) against the fabric. */
static int
st_check_host(struct st_env *e)
{
	char name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *mp = e->mp[0];
	struct rte_rio_mport_info mi;
	int i, nsw = 0, nep = 0;
	uint8_t *seen;
	unsigned int p;
	uint32_t v;

	TEST_ASSERT_SUCCESS(st_load(e), "load fabric");
	TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(mp, &mi), "mport info");
	TEST_ASSERT(rte_rio_mport_scanned(mp), "not scanned");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(mp), (unsigned int)e->ndev, "devices found");
	seen = calloc(RTE_RIO_MAX_DESTIDS(mi.devid_size), 1);
	TEST_ASSERT_NOT_NULL(seen, "no memory");
	for (i = 0; i < e->ndev; i++) {
		const struct rte_pmd_rio_sim_dev_info *in = &e->info[i];
		struct rte_rio_dev_info di;
		struct rte_rio_dev *d = e->view[i];

		if (d == NULL)
			free(seen);
		TEST_ASSERT_NOT_NULL(d, "%s (comptag 0x%x) not in the view", in->name, in->comptag);
		TEST_ASSERT_SUCCESS(rte_rio_dev_info_get(d, &di), "info");
		TEST_ASSERT_EQUAL(di.vid, in->vid, "%s vid", in->name);
		TEST_ASSERT_EQUAL(di.did, in->did, "%s did", in->name);
		TEST_ASSERT(strcmp(di.name, st_dev_name(mp, &di, name)) == 0,
			    "name %s, expected %s", di.name, name);
		TEST_ASSERT(rte_rio_dev_find_by_name(di.name) == d, "find %s", di.name);
		/* Every lock released. */
		TEST_ASSERT_SUCCESS(st_cfg(e, i, RTE_RIO_HOST_DID_LOCK_CSR, &v), "lock");
		TEST_ASSERT_EQUAL(v & 0xffff, RTE_RIO_HOST_DID_UNLOCKED, "%s still locked",
				  in->name);
		/* Every live port passes more than maintenance. */
		for (p = 0; p < in->nports; p++)
			TEST_ASSERT(!in->ports[p].port_ok ||
				    (in->ports[p].ctl & (RTE_RIO_PORT_N_CTL_EN_TX |
							 RTE_RIO_PORT_N_CTL_EN_RX)) ==
				    (RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX),
				    "%s.%u not enabled (control 0x%x)", in->name, p, in->ports[p].ctl);
		if (in->type == RTE_PMD_RIO_SIM_DEV_ENDPOINT) {
			uint16_t did = st_did(e, in);

			nep++;
			TEST_ASSERT_EQUAL(di.type, RTE_RIO_DEV_ENDPOINT, "%s type", in->name);
			TEST_ASSERT_EQUAL(di.destid, did, "%s destid", in->name);
			TEST_ASSERT(did != RTE_RIO_ANY_DESTID(mi.devid_size), "%s unnumbered",
				    in->name);
			TEST_ASSERT(!seen[did], "%s: destid 0x%x twice", in->name, did);
			seen[did] = 1;
			TEST_ASSERT(rte_rio_dev_find_by_destid(mp, did) == d, "by destid");
			TEST_ASSERT_SUCCESS(st_cfg(e, i, ST_PHYS + RTE_RIO_PORT_GEN_CTL_CSR, &v),
					    "gen ctl");
			TEST_ASSERT(v & RTE_RIO_PORT_GEN_DISCOVERED, "%s not Discovered", in->name);
			continue;
		}
		nsw++;
		TEST_ASSERT_EQUAL(di.type, RTE_RIO_DEV_SWITCH, "%s type", in->name);
		TEST_ASSERT_EQUAL(di.nports, in->nports, "%s ports", in->name);
		for (p = 0; p < in->nports; p++) {
			const struct rte_pmd_rio_sim_port_info *pi = &in->ports[p];
			struct rte_rio_dev *peer = rte_rio_switch_port_peer(d, p);

			if (pi->peer_dev < 0) {
				/* Lockout is an Error Management feature. */
				TEST_ASSERT(pi->lockout || e->mode == ST_WORD_PLAIN,
					    "%s.%u unused but not locked out", in->name, p);
				TEST_ASSERT_NULL(peer, "%s.%u peer", in->name, p);
				continue;
			}
			TEST_ASSERT_NOT_NULL(peer, "%s.%u: no peer", in->name, p);
			TEST_ASSERT_EQUAL(rte_rio_dev_info_get(peer, &di), 0, "peer info");
			TEST_ASSERT_EQUAL(di.comptag, e->info[pi->peer_dev].comptag,
					  "%s.%u leads to the wrong device", in->name, p);
		}
	}
	free(seen);
	printf("  %s: %d endpoints, %d switches\n", rte_rio_mport_name(mp), nep, nsw);
	return st_check_routes(e);
}

static int
st_links(struct rte_rio_mport *mp)
{
	struct rte_rio_dev *d = NULL;
	struct rte_rio_dev_info di;
	int n = 0;
	unsigned int p;

	while ((d = rte_rio_dev_next(mp, d)) != NULL) {
		rte_rio_dev_info_get(d, &di);
		if (di.type != RTE_RIO_DEV_SWITCH)
			continue;
		for (p = 0; p < di.nports; p++)
			n += rte_rio_switch_port_peer(d, p) != NULL;
	}
	return n;
}

/*
 * The routes of @mp's view lead from its own endpoint to every other one:
 * the walk reads the entries that lead away from it on every switch.
 */
static int
st_view_routes(struct rte_rio_mport *mp)
{
	struct rte_rio_dev *first = NULL, *d = NULL, *ep = NULL, *cur, *local;
	struct rte_rio_dev_info di, ei;
	unsigned int p, hops;
	int r;

	local = rte_rio_dev_next(mp, NULL);
	/* The switch on the other end of the mport's link (none back to back). */
	while ((d = rte_rio_dev_next(mp, d)) != NULL && first == NULL) {
		rte_rio_dev_info_get(d, &di);
		for (p = 0; di.type == RTE_RIO_DEV_SWITCH && p < di.nports; p++)
			if (rte_rio_switch_port_peer(d, p) == local)
				first = d;
	}
	if (first == NULL)
		return TEST_SUCCESS;
	while ((ep = rte_rio_dev_next(mp, ep)) != NULL) {
		rte_rio_dev_info_get(ep, &ei);
		if (ei.type != RTE_RIO_DEV_ENDPOINT || ei.local)
			continue;
		for (cur = first, hops = 0; cur != ep && hops < ST_MAX_HOPS; hops++) {
			TEST_ASSERT_NOT_NULL(cur, "%s: no way to %s", rte_rio_mport_name(mp), ei.name);
			rte_rio_dev_info_get(cur, &di);
			TEST_ASSERT_EQUAL(di.type, RTE_RIO_DEV_SWITCH, "%s: route to %s ends at %s",
					  rte_rio_mport_name(mp), ei.name, di.name);
			r = rte_rio_switch_route_get(cur, ei.destid);
			TEST_ASSERT(r >= 0 && r < di.nports, "%s: %s has no route to %s (%d)",
				    rte_rio_mport_name(mp), di.name, ei.name, r);
			cur = rte_rio_switch_port_peer(cur, (uint8_t)r);
		}
		TEST_ASSERT(cur == ep, "%s: routes to %s loop", rte_rio_mport_name(mp), ei.name);
	}
	return TEST_SUCCESS;
}

static bool
st_local_multiport(struct rte_rio_mport *mp)
{
	uint32_t pef;

	return rte_rio_local_read_config_32(mp, RTE_RIO_PEF_CAR, &pef) == 0 &&
	       (pef & RTE_RIO_PEF_MULTIPORT) != 0;
}

/*
 * Agent view equals the host view: same devices (by component tag), same
 * IDs, the routes the agent read equal to the host's and leading from the
 * agent to every endpoint, same links except the @redundant ones, which an
 * agent that never writes routes cannot see (< 0: some it may see).
 */
static int
st_compare_views(struct rte_rio_mport *host, struct rte_rio_mport *agent, int redundant)
{
	struct rte_rio_dev *h = NULL, *a;
	struct rte_rio_dev_info hi, ai, pi, qi;
	struct rte_rio_hotplug_stats hs;
	bool host_role = rte_rio_hotplug_stats_get(host, &hs) == 0;
	unsigned int p;
	uint32_t id, nids = RTE_RIO_MAX_DESTIDS(host->devid_size);

	TEST_ASSERT_EQUAL(rte_rio_dev_count(agent), rte_rio_dev_count(host), "%s devices",
			  agent->name);
	while ((h = rte_rio_dev_next(host, h)) != NULL) {
		rte_rio_dev_info_get(h, &hi);
		a = rte_rio_dev_find_by_comptag(agent, hi.comptag);
		TEST_ASSERT_NOT_NULL(a, "%s: %s missing", agent->name, hi.name);
		rte_rio_dev_info_get(a, &ai);
		TEST_ASSERT_EQUAL(ai.type, hi.type, "%s type", hi.name);
		TEST_ASSERT_EQUAL(ai.vid, hi.vid, "%s vid", hi.name);
		TEST_ASSERT_EQUAL(ai.did, hi.did, "%s did", hi.name);
		TEST_ASSERT_EQUAL(ai.phys_efptr, hi.phys_efptr, "%s phys", hi.name);
		TEST_ASSERT_EQUAL(ai.em_efptr, hi.em_efptr, "%s em", hi.name);
		if (hi.type == RTE_RIO_DEV_ENDPOINT) {
			TEST_ASSERT_EQUAL(ai.destid, hi.destid, "%s destid", hi.name);
			TEST_ASSERT_EQUAL(ai.local, ai.destid ==
					  (uint16_t)rte_rio_mport_destid(agent), "%s local flag",
					  hi.name);
			continue;
		}
		/*
		 * Entries an agent's walk did not read (leading back its way) are
		 * unknown; a host knows every entry it routes.
		 */
		for (id = 0; id < nids; id++)
			if (rte_rio_switch_route_get(a, id) != RTE_RIO_INVALID_ROUTE &&
			    (host_role || rte_rio_switch_route_get(h, id) != RTE_RIO_INVALID_ROUTE) &&
			    rte_rio_switch_route_get(a, id) != rte_rio_switch_route_get(h, id))
				break;
		TEST_ASSERT_EQUAL(id, nids, "%s: route for 0x%x differs (%d vs %d)", hi.name, id,
				  rte_rio_switch_route_get(a, id), rte_rio_switch_route_get(h, id));
		for (p = 0; p < hi.nports; p++) {
			struct rte_rio_dev *hp = rte_rio_switch_port_peer(h, p);
			struct rte_rio_dev *ap = rte_rio_switch_port_peer(a, p);

			if (ap == NULL)
				continue;
			TEST_ASSERT_NOT_NULL(hp, "%s.%u: agent-only link", hi.name, p);
			rte_rio_dev_info_get(hp, &pi);
			rte_rio_dev_info_get(ap, &qi);
			TEST_ASSERT_EQUAL(pi.comptag, qi.comptag, "%s.%u peer", hi.name, p);
		}
	}
	/*
	 * An agent on a multi-port endpoint also sees the links of its other
	 * ports that routes lead to (its own ID routed there): no other view
	 * has them. @redundant < 0: whether an agent sees a redundant link
	 * depends on the routes (a link of a multi-port endpoint).
	 */
	if (redundant >= 0 && !st_local_multiport(host) && !st_local_multiport(agent))
		TEST_ASSERT_EQUAL(st_links(agent), st_links(host) - 2 * redundant, "%s links",
				  agent->name);
	return st_view_routes(agent);
}

/* Every pair of mports exchanges one message. */
static int
st_messages(struct st_env *e)
{
	enum { TX_LEN = 64 };
	unsigned int i, j, got;
	int ret = TEST_SUCCESS;
	uint8_t *bufs, *tx;

	/* DMA-able memory: a master port such as the tsi721 reads and writes it itself. */
	bufs = rte_malloc(NULL, (size_t)e->nmp * e->nmp * RTE_RIO_MAX_MSG_SIZE, 8);
	tx = rte_malloc(NULL, TX_LEN, 8);
	if (bufs == NULL || tx == NULL) {
		rte_free(bufs);
		rte_free(tx);
		TEST_ASSERT(false, "no memory for messages");
	}
	for (i = 0; i < e->nmp && ret == TEST_SUCCESS; i++) {
		if (rte_rio_request_inb_mbox(e->mp[i], 0, 32) != 0 ||
		    rte_rio_request_outb_mbox(e->mp[i], 0, 32) != 0)
			ret = TEST_FAILED;
		for (j = 0; j < e->nmp && ret == TEST_SUCCESS; j++)
			if (rte_rio_add_inb_buffer(e->mp[i], 0, bufs + ((size_t)i * e->nmp + j) *
						   RTE_RIO_MAX_MSG_SIZE) != 0)
				ret = TEST_FAILED;
		if (ret != TEST_SUCCESS)
			printf("%s: cannot open mailbox 0\n", rte_rio_mport_name(e->mp[i]));
	}
	for (i = 0; i < e->nmp && ret == TEST_SUCCESS; i++) {
		for (j = 0; j < e->nmp; j++) {
			int dst = rte_rio_mport_destid(e->mp[j]);

			if (i == j)
				continue;
			memset(tx, (int)(i * 16 + j), TX_LEN);
			if (rte_rio_add_outb_message(e->mp[i], (uint16_t)dst, 0, 0, tx,
						     TX_LEN) != 0) {
				printf("message %s -> %s (0x%x) not delivered\n", rte_rio_mport_name(e->mp[i]),
				       rte_rio_mport_name(e->mp[j]), dst);
				ret = TEST_FAILED;
				break;
			}
		}
	}
	for (j = 0; j < e->nmp && ret == TEST_SUCCESS; j++) {
		for (got = 0; got < e->nmp - 1; got++) {
			unsigned int wait_ms = 0;
			size_t len = 0;
			uint16_t src;
			uint8_t *b;

			/* A master port with a DMA engine (tsi721) delivers a little later. */
			while ((b = rte_rio_get_inb_message(e->mp[j], 0, &len, &src)) == NULL &&
			       wait_ms++ < ST_MSG_WAIT_MS)
				rte_delay_us_sleep(1000);
			if (b == NULL || len != TX_LEN) {
				printf("%s: message %u missing\n", rte_rio_mport_name(e->mp[j]), got);
				ret = TEST_FAILED;
				break;
			}
		}
	}
	for (i = 0; i < e->nmp; i++) {
		rte_rio_release_inb_mbox(e->mp[i], 0);
		rte_rio_release_outb_mbox(e->mp[i], 0);
	}
	rte_free(bufs);
	rte_free(tx);
	return ret;
}

/*
 * Claim @eps (NULL-terminated; the first is the host) through master ports
 * of @mode, poison the route tables, enumerate, check, discover with every
 * other one, compare, exchange messages.
 */
static int
st_run(struct st_env *e, const char * const *eps, int redundant, enum st_mode mode)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 5000 };
	uint64_t cnt;
	unsigned int i;

	e->mode = mode;
	for (i = 0; eps[i] != NULL; i++) {
		TEST_ASSERT_NOT_NULL(st_add_mport(e, eps[i], -1), "claim %s", eps[i]);
		TEST_ASSERT_SUCCESS(st_wrap(e, i, mode), "wrap");
	}
	TEST_ASSERT(st_mp_host_destid(e->mp[0]) >= 0, "%s is not a host", eps[0]);
	TEST_ASSERT_SUCCESS(st_poison_fabric(e), "poison route tables");
	rte_rio_mport_maint_count_reset(e->mp[0]);
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(e->mp[0], NULL), "enumerate %s", e->topo);
	cnt = rte_rio_mport_maint_count(e->mp[0]);
	TEST_ASSERT_EQUAL(rte_rio_mport_scan(e->mp[0], NULL), -EALREADY, "scan twice");
	TEST_ASSERT_SUCCESS(st_check_host(e), "host view");
	printf("  host: %" PRIu64 " maintenance transactions\n", cnt);
	for (i = 1; i < e->nmp; i++) {
		rte_rio_mport_maint_count_reset(e->mp[i]);
		TEST_ASSERT_SUCCESS(rte_rio_mport_scan(e->mp[i], &conf), "discover %s",
				    rte_rio_mport_name(e->mp[i]));
		printf("  agent %s: %" PRIu64 " maintenance transactions\n", rte_rio_mport_name(e->mp[i]),
		       rte_rio_mport_maint_count(e->mp[i]));
		TEST_ASSERT_SUCCESS(st_compare_views(e->mp[0], e->mp[i], redundant), "views");
	}
	TEST_ASSERT_SUCCESS(st_messages(e), "messages");
	return st_check_wrappers(e);
}

/* ---------------------------------------------------------------------- */
/* Fabrics                                                                */

/* Run a fabric through every kind of master port. */
static int
st_run_modes(const char *builtin, const char *file_text, const char * const *eps,
	     int redundant)
{
	int mode;

	for (mode = 0; mode < ST_NMODES; mode++) {
		if (builtin != NULL)
			TEST_ASSERT_SUCCESS(st_new_fabric(&st, builtin), "name");
		else
			TEST_ASSERT_SUCCESS(st_new_fabric_file(&st, file_text), "topology");
		printf(" %s, %s:\n", builtin != NULL ? builtin : "topology file",
		       st_mode_name[mode]);
		if (st_run(&st, eps, redundant, mode) != TEST_SUCCESS) {
			printf("  failed with %s\n", st_mode_name[mode]);
			st_teardown_env(&st);
			return TEST_FAILED;
		}
		if (st_finish(&st) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static int
test_scan_pair(void)
{
	static const char * const eps[] = { "ep0", "ep1", NULL };

	return st_run_modes("builtin:pair", NULL, eps, 0);
}

static int
test_scan_chain(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep3", "ep5", NULL };

	return st_run_modes("builtin:chain:5", NULL, eps, 0);
}

static int
test_scan_tree(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep4", "ep9", NULL };

	return st_run_modes("builtin:tree:3:2", NULL, eps, 0);
}

/* Four switches in a ring (a loop), 16-bit IDs, host ID 5 in the middle of the range. */
static const char st_ring_topo[] =
	"[fabric]\ndevid_size = 16\n"
	"[switch sw0]\nports = 6\n[switch sw1]\nports = 6\n"
	"[switch sw2]\nports = 6\n[switch sw3]\nports = 6\n"
	"[endpoint ep0]\nhost = 1\nhost_destid = 5\n"
	"[endpoint ep1]\n[endpoint ep2]\n[endpoint ep3]\n[endpoint ep4]\n"
	"[endpoint ep5]\n[endpoint ep6]\n[endpoint ep7]\n"
	"[links]\n"
	"sw0.1 = sw1.0\nsw1.1 = sw2.0\nsw2.1 = sw3.0\nsw3.1 = sw0.0\n"
	"sw0.2 = ep0.0\nsw0.3 = ep1.0\nsw1.2 = ep2.0\nsw1.3 = ep3.0\n"
	"sw2.2 = ep4.0\nsw2.4 = ep5.0\nsw3.2 = ep6.0\nsw3.5 = ep7.0\n";

static int
test_scan_ring(void)
{
	static const char * const eps[] = { "ep0", "ep3", "ep5", "ep7", NULL };

	return st_run_modes(NULL, st_ring_topo, eps, 1);
}

/* The same ring with 8-bit IDs. */
static int
test_scan_ring8(void)
{
	static const char * const eps[] = { "ep0", "ep3", "ep5", "ep7", NULL };
	char topo[sizeof(st_ring_topo)];

	snprintf(topo, sizeof(topo), "%s", st_ring_topo);
	memcpy(strstr(topo, "devid_size = 16"), "devid_size =  8", 15);
	return st_run_modes(NULL, topo, eps, 1);
}

/* Two parallel links between two switches; a switch with no endpoint. */
static const char st_parallel_topo[] =
	"[switch sw0]\nports = 6\n[switch sw1]\nports = 6\n[switch sw2]\nports = 4\n"
	"[endpoint ep0]\nhost = 1\n[endpoint ep1]\n[endpoint ep2]\n[endpoint ep3]\n"
	"[links]\n"
	"sw0.1 = sw1.1\nsw0.2 = sw1.2\n"
	"sw0.0 = ep0.0\nsw0.3 = ep1.0\nsw1.0 = ep2.0\nsw1.3 = ep3.0\nsw1.4 = sw2.0\n";

/*
 * A dual-port endpoint (ep1) whose ID the depth-first walk routes to its
 * second port (found through sw1 first), while it sends by its first.
 */
static const char st_dual_topo[] =
	"[switch sw0]\nports = 6\n[switch sw1]\nports = 6\n"
	"[endpoint ep0]\nhost = 1\n[endpoint ep1]\nports = 2\n[endpoint ep2]\n[endpoint ep3]\n"
	"[links]\n"
	"sw0.0 = ep0.0\nsw0.1 = sw1.0\nsw0.2 = ep1.0\nsw1.2 = ep1.1\n"
	"sw1.3 = ep2.0\nsw0.4 = ep3.0\n";

static int
test_scan_parallel(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep2", "ep3", NULL };

	return st_run_modes(NULL, st_parallel_topo, eps, 1);
}

/*
 * A dual-port endpoint reached by both its ports: found once, by its tag,
 * the second link recorded as redundant, and both its ports enabled, so
 * that it sends by one (rio_sim: the first whose link is OK) and receives
 * by the other (its ID is routed to where the walk found it first).
 */
static int
test_scan_dual(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep2", "ep3", NULL };

	return st_run_modes(NULL, st_dual_topo, eps, -1);
}

/*
 * The IDT switch models (their own identity, reset contents and special
 * route values) next to a std switch, under the standard route ops.
 */
static const char st_models_topo[] =
	"[switch sw0]\nmodel = std\nports = 4\n"
	"[switch sw1]\nmodel = cps1848\n"
	"[switch sw2]\nmodel = rxs2448\n"
	"[endpoint ep0]\nhost = 1\nhost_destid = 1\n"
	"[endpoint ep1]\n[endpoint ep2]\nmodel = tsi721\n[endpoint ep3]\n[endpoint ep4]\n"
	"[links]\n"
	"sw0.0 = ep0.0\nsw0.1 = sw1.0\nsw0.2 = ep1.0\n"
	"sw1.1 = ep2.0\nsw1.2 = sw2.3\nsw2.0 = ep3.0\nsw2.17 = ep4.0\n";

/* The same with 16-bit device IDs (all below 256: the IDT parts' domain 0). */
static const char st_models16_topo[] =
	"[fabric]\ndevid_size = 16\n"
	"[switch sw0]\nmodel = std\nports = 4\n"
	"[switch sw1]\nmodel = rxs2448\n"
	"[switch sw2]\nmodel = cps1848\n"
	"[endpoint ep0]\nhost = 1\nhost_destid = 0x10\nmodel = tsi721\n"
	"[endpoint ep1]\n[endpoint ep2]\nmodel = tsi721\n[endpoint ep3]\n[endpoint ep4]\n"
	"[links]\n"
	"sw0.0 = ep0.0\nsw0.1 = sw1.0\nsw0.2 = ep1.0\n"
	"sw1.1 = ep2.0\nsw1.2 = sw2.3\nsw2.0 = ep3.0\nsw2.17 = ep4.0\n";

static int
st_models(enum st_mode mode, bool dev16)
{
	static const char * const eps[] = { "ep0", "ep1", "ep2", "ep3", "ep4", NULL };
	struct rte_rio_dev *d = NULL;
	struct rte_rio_dev_info di;
	int cps = 0, rxs = 0;

	TEST_ASSERT_SUCCESS(st_new_fabric_file(&st, dev16 ? st_models16_topo : st_models_topo),
			    "topology");
	printf(" IDT switch models, %u-bit IDs, %s:\n", dev16 ? 16 : 8, st_mode_name[mode]);
	TEST_ASSERT_SUCCESS(st_run(&st, eps, 0, mode), "IDT switch models");
	while ((d = rte_rio_dev_next(st.mp[0], d)) != NULL) {
		rte_rio_dev_info_get(d, &di);
		if (di.type != RTE_RIO_DEV_SWITCH || di.vid != 0x0038)
			continue;
		cps += di.did == 0x0374 && di.nports == 18;
		rxs += di.did == 0x80e6 && di.nports == 24;
	}
	TEST_ASSERT(cps == 1 && rxs == 1, "CPS-1848 %d, RXS2448 %d", cps, rxs);
	return TEST_SUCCESS;
}

static int
test_scan_models(void)
{
	static const char * const chain_eps[] = { "ep0", "ep1", "ep2", "ep3", NULL };
	static const char * const tree_eps[] = { "ep0", "ep1", "ep4", "ep9", NULL };
	int mode, dev16;

	for (dev16 = 0; dev16 < 2; dev16++)
		for (mode = 0; mode < ST_NMODES; mode++)
			if (st_end(st_models(mode, dev16)) != TEST_SUCCESS)
				return TEST_FAILED;
	/* Whole shapes of one model: IDT switches, Tsi721 master ports (4-byte only). */
	if (st_run_modes("builtin:chain:3/cps1848/tsi721", NULL, chain_eps, 0) != TEST_SUCCESS ||
	    st_run_modes("builtin:tree:3:2/rxs2448", NULL, tree_eps, 0) != TEST_SUCCESS ||
	    st_run_modes("builtin:tree:3:2/rxs2448/tsi721", NULL, tree_eps, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Several hosts                                                          */

struct st_racer {
	struct rte_rio_mport *mp;
	pthread_barrier_t *barrier;
	int ret;
};

static void *
st_racer_main(void *arg)
{
	struct st_racer *r = arg;
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 20000 };

	pthread_barrier_wait(r->barrier);
	r->ret = rte_rio_mport_scan(r->mp, &conf);
	return NULL;
}

static int
st_local_comptag(struct rte_rio_mport *mp)
{
	uint32_t v;

	if (rte_rio_local_read_config_32(mp, RTE_RIO_COMPONENT_TAG_CSR, &v) != 0)
		return -1;
	return (int)v;
}

/*
 * Two hosts (ID 0 from the topology and ID @hi) race. @prelock: the higher
 * one holds its own port before the race, so it must win.
 */
static int
st_race(bool prelock, int hi)
{
	pthread_barrier_t barrier;
	struct st_racer r[2];
	pthread_t th[2];
	struct rte_rio_mport *win, *lose;
	int i;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep9", hi), "claim ep9");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	TEST_ASSERT_EQUAL(st_mp_host_destid(st.mp[0]), hi, "host ID of ep9");
	TEST_ASSERT_EQUAL(st_mp_host_destid(st.mp[1]), 0, "host ID of ep0");
	TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison route tables");
	if (prelock)
		TEST_ASSERT_SUCCESS(rte_rio_local_write_config_32(st.mp[0],
				    RTE_RIO_HOST_DID_LOCK_CSR, hi), "prelock");
	pthread_barrier_init(&barrier, NULL, 2);
	for (i = 0; i < 2; i++) {
		r[i].mp = st.mp[i];
		r[i].barrier = &barrier;
		r[i].ret = -1;
		TEST_ASSERT_SUCCESS(pthread_create(&th[i], NULL, st_racer_main, &r[i]), "thread");
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&barrier);
	TEST_ASSERT_SUCCESS(r[0].ret, "host %d scan", hi);
	TEST_ASSERT_SUCCESS(r[1].ret, "host 0 scan");
	/* The enumerator gives its own port component tag 1. */
	if (st_local_comptag(st.mp[0]) == 1) {
		win = st.mp[0];
		lose = st.mp[1];
	} else {
		win = st.mp[1];
		lose = st.mp[0];
	}
	TEST_ASSERT(st_local_comptag(lose) != 1, "both enumerated");
	printf("  race (prelock %d): host %d won\n", prelock, win->host_destid);
	if (prelock)
		TEST_ASSERT(win == st.mp[0], "the higher host ID lost");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(win), win->host_destid, "winner ID");
	/* mp[0] must be the enumerator for the checks (with its vdev, for the teardown). */
	if (win != st.mp[0])
		st_swap_mports(&st);
	TEST_ASSERT_SUCCESS(st_check_host(&st), "winner view");
	TEST_ASSERT_SUCCESS(st_compare_views(win, lose, 0), "loser view");
	TEST_ASSERT_SUCCESS(st_messages(&st), "messages");
	return TEST_SUCCESS;
}

struct st_rival {
	struct rte_rio_mport *mp;
	int ret;
	bool ran;
};

static void
st_rival_scan(void *arg)
{
	struct st_rival *r = arg;

	r->ran = true;
	r->ret = rte_rio_mport_scan(r->mp, NULL);
}

/*
 * The race at its worst, made deterministic: a rival host (ID 0) enumerates
 * the whole fabric, the host's port included, right before the host (ID 7)
 * writes its own port's lock. The host must see that enumeration and join
 * as an agent, not enumerate a second time.
 */
static int
st_race_between(void)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 5000 };
	struct st_rival rival = { .ret = -1 };

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep9", 7), "claim ep9");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	TEST_ASSERT_SUCCESS(st_wrap(&st, 0, ST_BLOCK), "wrap");
	TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison route tables");
	rival.mp = st.mp[1];
	rio_test_wrap_before_local_write(st.mp[0], RTE_RIO_HOST_DID_LOCK_CSR, st_rival_scan,
					 &rival);
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], &conf), "host 7 scan");
	TEST_ASSERT(rival.ran, "the host never wrote its own lock");
	TEST_ASSERT_SUCCESS(rival.ret, "rival scan");
	TEST_ASSERT(st_local_comptag(st.mp[0]) != 1, "both enumerated");
	TEST_ASSERT_EQUAL(st_local_comptag(st.mp[1]), 1, "the rival's enumeration was undone");
	TEST_ASSERT_EQUAL(st_mp_host_destid(st.mp[0]), 7, "host ID");
	TEST_ASSERT(rte_rio_mport_destid(st.mp[0]) != 7, "the host kept its own ID");
	st_swap_mports(&st);
	TEST_ASSERT_SUCCESS(st_check_host(&st), "rival view");
	TEST_ASSERT_SUCCESS(st_compare_views(st.mp[0], st.mp[1], 0), "host view");
	return st_check_wrappers(&st);
}

static int
test_scan_race(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (st_end(st_race(i == 0, 7)) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return st_end(st_race_between());
}

/* A link down before enumeration: its port is locked out, its endpoint not found. */
static int
st_link_down(void)
{
	struct rte_rio_dev *sw;
	struct rte_rio_dev_info di;
	int i, sw3 = -1;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison route tables");
	/* ep9 hangs on sw3 port 3. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(st.fabric, "sw3", 3, false),
			    "link down");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], NULL), "enumerate");
	TEST_ASSERT_SUCCESS(st_load(&st), "load");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(st.mp[0]), (unsigned int)st.ndev - 1, "devices");
	for (i = 0; i < st.ndev; i++) {
		if (strcmp(st.info[i].name, "sw3") == 0)
			sw3 = i;
		if (strcmp(st.info[i].name, "ep9") == 0)
			TEST_ASSERT_NULL(st.view[i], "ep9 found over a dead link");
		else
			TEST_ASSERT_NOT_NULL(st.view[i], "%s not found", st.info[i].name);
	}
	TEST_ASSERT(sw3 >= 0, "sw3");
	sw = st.view[sw3];
	rte_rio_dev_info_get(sw, &di);
	TEST_ASSERT(st.info[sw3].ports[3].lockout, "dead port not locked out");
	TEST_ASSERT_NULL(rte_rio_switch_port_peer(sw, 3), "dead port has a peer");
	TEST_ASSERT_NOT_NULL(rte_rio_switch_port_peer(sw, 2), "live port has no peer");
	return TEST_SUCCESS;
}

static int
test_scan_link_down(void)
{
	return st_case(st_link_down);
}

/* ---------------------------------------------------------------------- */
/* Discovery timeout, determinism, events, DOT, registry                  */

static int
st_timeout(void)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 300 };
	struct rte_rio_mport_info mi;
	struct rte_rio_mport *mp;
	uint64_t t0, ms;
	int ret;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:2"), "name");
	mp = st_add_mport(&st, "ep1", -1);
	TEST_ASSERT_NOT_NULL(mp, "claim ep1");
	TEST_ASSERT(rte_rio_mport_info_get(mp, &mi) == 0 && mi.host_destid < 0,
		    "ep1 is an agent");
	conf.no_wait = true;
	TEST_ASSERT_EQUAL(rte_rio_mport_scan(mp, &conf), -EAGAIN, "no_wait");
	conf.no_wait = false;
	t0 = rte_get_timer_cycles();
	ret = rte_rio_mport_scan(mp, &conf);
	ms = (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "agent without host");
	TEST_ASSERT(ms >= 290 && ms < 5000, "gave up after %" PRIu64 " ms", ms);
	TEST_ASSERT(!rte_rio_mport_scanned(mp), "scanned after timeout");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(mp), 0, "devices after timeout");
	return TEST_SUCCESS;
}

static int
test_scan_timeout(void)
{
	return st_case(st_timeout);
}

struct st_events {
	unsigned int add, remove;
	bool local_first, local_last;
	struct rte_rio_mport *mp;
};

static void
st_event_cb(struct rte_rio_dev *dev, enum rte_rio_dev_event ev, void *arg)
{
	struct st_events *s = arg;
	struct rte_rio_dev_info di;

	if (rte_rio_dev_mport(dev) != s->mp)
		return;
	rte_rio_dev_info_get(dev, &di);
	if (ev == RTE_RIO_DEV_EVENT_ADD) {
		if (s->add++ == 0)
			s->local_first = di.local;
	} else {
		s->remove++;
		s->local_last = di.local;
	}
}

/* Enumerate @topo; record endpoint IDs by fabric name, DOT and count. */
static int
st_det_run(uint16_t *ids, char **dot, size_t *dot_len, uint64_t *cnt)
{
	int i;

	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	rte_rio_mport_maint_count_reset(st.mp[0]);
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], NULL), "enumerate");
	*cnt = rte_rio_mport_maint_count(st.mp[0]);
	TEST_ASSERT_SUCCESS(st_load(&st), "load");
	for (i = 0; i < st.ndev; i++)
		ids[i] = st.info[i].type == RTE_PMD_RIO_SIM_DEV_ENDPOINT ?
			st_did(&st, &st.info[i]) : (uint16_t)st.info[i].comptag;
	{
		FILE *f = open_memstream(dot, dot_len);

		TEST_ASSERT_NOT_NULL(f, "memstream");
		TEST_ASSERT_SUCCESS(rte_rio_topology_dot(st.mp[0], f), "dot");
		fclose(f);
	}
	return TEST_SUCCESS;
}

static int
st_determinism(void)
{
	uint16_t ids[2][64];
	char *dot[2] = { NULL, NULL };
	size_t dot_len[2];
	uint64_t cnt[2];
	int n, k, ret = TEST_FAILED;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	for (k = 0; k < 2; k++) {
		if (k == 1) {
			/* Recreate the fabric from scratch under the same name. */
			st_teardown_env(&st);
			if (st_shm_count(st.fabric) != 0)
				goto out;
			st_reuse_fabric(&st);
		}
		if (st_det_run(ids[k], &dot[k], &dot_len[k], &cnt[k]) != TEST_SUCCESS)
			goto out;
		n = st.ndev;
	}
	if (memcmp(ids[0], ids[1], sizeof(ids[0][0]) * n) != 0) {
		printf("IDs differ between two enumerations of one fabric\n");
		goto out;
	}
	if (dot_len[0] != dot_len[1] || strcmp(dot[0], dot[1]) != 0) {
		printf("DOT output differs:\n%s\n%s\n", dot[0], dot[1]);
		goto out;
	}
	if (cnt[0] != cnt[1]) {
		printf("maintenance counts differ: %" PRIu64 " %" PRIu64 "\n", cnt[0], cnt[1]);
		goto out;
	}
	/* Nodes and links: 10 endpoints, 4 switches, 13 links. */
	{
		int nodes = 0, edges = 0;
		const char *s;

		for (s = dot[0]; (s = strstr(s, "shape=")) != NULL; s++)
			nodes++;
		for (s = dot[0]; (s = strstr(s, " -- ")) != NULL; s++)
			edges++;
		if (nodes != 14 || edges != 13 || strncmp(dot[0], "graph ", 6) != 0) {
			printf("DOT: %d nodes, %d edges:\n%s", nodes, edges, dot[0]);
			goto out;
		}
	}
	ret = TEST_SUCCESS;
out:
	free(dot[0]);
	free(dot[1]);
	return ret;
}

static int
test_scan_determinism(void)
{
	return st_case(st_determinism);
}

static int
st_events_api(void)
{
	struct st_events ev = { 0 };
	struct rte_rio_dev *d = NULL, *sw = NULL;
	struct rte_rio_dev_info di;
	unsigned int n;
	uint32_t v;
	int port;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:2"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	ev.mp = st.mp[0];
	TEST_ASSERT_SUCCESS(rte_rio_dev_event_register(st_event_cb, &ev), "register");
	TEST_ASSERT_EQUAL(rte_rio_dev_event_register(st_event_cb, &ev), -EEXIST, "twice");
	TEST_ASSERT_EQUAL(rte_rio_dev_event_register(NULL, NULL), -EINVAL, "NULL");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], NULL), "enumerate");
	n = rte_rio_dev_count(st.mp[0]);
	TEST_ASSERT_EQUAL(n, 5, "chain:2 has 3 endpoints and 2 switches");
	TEST_ASSERT_EQUAL(ev.add, n, "ADD events");
	TEST_ASSERT(ev.local_first, "local endpoint not first");

	/* Iteration over every mport reaches the same devices. */
	n = 0;
	while ((d = rte_rio_dev_next(NULL, d)) != NULL) {
		if (rte_rio_dev_mport(d) != st.mp[0])
			continue;
		n++;
		rte_rio_dev_info_get(d, &di);
		if (di.type == RTE_RIO_DEV_SWITCH && sw == NULL)
			sw = d;
	}
	TEST_ASSERT_EQUAL(n, 5, "global iteration");
	TEST_ASSERT_NOT_NULL(sw, "switch");
	rte_rio_dev_info_get(sw, &di);
	TEST_ASSERT_SUCCESS(rte_rio_dev_read_config_32(sw, RTE_RIO_DEV_ID_CAR, &v), "read");
	TEST_ASSERT_EQUAL(v, ((uint32_t)di.did << 16) | di.vid, "DEV_ID through the device");
	TEST_ASSERT_SUCCESS(rte_rio_dev_write_config_32(sw, RTE_RIO_COMPONENT_TAG_CSR,
							di.comptag), "write");
	TEST_ASSERT(strstr(rte_rio_dev_name(sw), ":s:") != NULL, "switch name %s",
		    rte_rio_dev_name(sw));
	/* Route set/get through the ops. */
	port = rte_rio_switch_route_get(sw, 0x42);
	TEST_ASSERT_EQUAL(port, RTE_RIO_INVALID_ROUTE, "unused ID has no route");
	TEST_ASSERT_SUCCESS(rte_rio_switch_route_set(sw, 0x42, 3), "set");
	TEST_ASSERT_EQUAL(rte_rio_switch_route_get(sw, 0x42), 3, "get");
	TEST_ASSERT_SUCCESS(rte_rio_switch_route_set(sw, 0x42, RTE_RIO_INVALID_ROUTE), "clear");
	TEST_ASSERT_EQUAL(rte_rio_switch_route_set(sw, 0x42, 40), -EINVAL, "bad port");
	TEST_ASSERT_EQUAL(rte_rio_switch_route_get(NULL, 0), -EINVAL, "NULL switch");
	TEST_ASSERT_NULL(rte_rio_dev_find_by_destid(st.mp[0], 0x42), "no such ID");

	/* A late subscriber gets ADD for the devices that exist. */
	{
		struct st_events late = { .mp = st.mp[0] };

		TEST_ASSERT_SUCCESS(rte_rio_dev_event_register(st_event_cb, &late), "late");
		TEST_ASSERT_EQUAL(late.add, 5, "replayed ADD events");
		TEST_ASSERT_SUCCESS(rte_rio_dev_event_unregister(st_event_cb, &late), "late");
	}
	TEST_ASSERT_EQUAL(rte_rio_mport_scan(NULL, NULL), -EINVAL, "NULL mport");
	rte_rio_mport_devices_release(st.mp[0]);
	TEST_ASSERT_EQUAL(ev.remove, 5, "REMOVE events");
	TEST_ASSERT(ev.local_last, "local endpoint not last");
	TEST_ASSERT(!rte_rio_mport_scanned(st.mp[0]), "scanned after release");
	TEST_ASSERT_SUCCESS(rte_rio_dev_event_unregister(st_event_cb, &ev), "unregister");
	TEST_ASSERT_EQUAL(rte_rio_dev_event_unregister(st_event_cb, &ev), -ENOENT, "again");
	return TEST_SUCCESS;
}

static int
test_scan_events(void)
{
	int ret = st_events_api();

	rte_rio_dev_event_unregister(st_event_cb, NULL);
	if (ret != TEST_SUCCESS) {
		st_teardown_env(&st);
		return TEST_FAILED;
	}
	return st_finish(&st);
}

static int
st_dummy_add(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount, uint16_t table,
	     uint16_t route_destid, uint8_t route_port)
{
	RTE_SET_USED(mport);
	RTE_SET_USED(destid);
	RTE_SET_USED(hopcount);
	RTE_SET_USED(table);
	RTE_SET_USED(route_destid);
	RTE_SET_USED(route_port);
	return 0;
}

static int
st_dummy_get(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount, uint16_t table,
	     uint16_t route_destid, uint8_t *route_port)
{
	RTE_SET_USED(mport);
	RTE_SET_USED(destid);
	RTE_SET_USED(hopcount);
	RTE_SET_USED(table);
	RTE_SET_USED(route_destid);
	*route_port = 0;
	return 0;
}

static int
test_scan_registry(void)
{
	static const struct rte_rio_switch_ops other = {
		.name = "other", .vid = 0x1234, .did = 0x5678,
		.add_entry = st_dummy_add, .get_entry = st_dummy_get,
	};
	static const struct rte_rio_switch_ops bad = {
		.name = "bad", .vid = 1, .did = 1, .add_entry = st_dummy_add,
	};
	const struct rte_rio_switch_ops *std = rte_rio_switch_std_ops();

	TEST_ASSERT(std != NULL && std->add_entry != NULL && std->get_entry != NULL &&
		    std->set_default != NULL, "standard ops");
	TEST_ASSERT_EQUAL(rte_rio_switch_ops_register(NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(rte_rio_switch_ops_register(&bad), -EINVAL, "no get_entry");
	TEST_ASSERT_SUCCESS(rte_rio_switch_ops_register(&other), "register");
	TEST_ASSERT_EQUAL(rte_rio_switch_ops_register(&other), -EEXIST, "twice");
	TEST_ASSERT_SUCCESS(rte_rio_switch_ops_unregister(&other), "unregister");
	TEST_ASSERT_EQUAL(rte_rio_switch_ops_unregister(&other), -ENOENT, "again");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Abort, reset state, restarts, foreign enumerators, locks               */

/* Raw value of a switch's route entry (no interpretation; RXS values are 10 bits). */
static int
st_hw_raw(const struct st_env *e, int idx, uint32_t destid)
{
	uint32_t v;

	if (st_cfg_write(e, idx, RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, destid) != 0 ||
	    st_cfg(e, idx, RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &v) != 0)
		return -1;
	return v & 0x3ff;
}

/* The raw "no route" of a switch's model: the IDT parts have their own drop values. */
static int
st_hw_no_route(const struct st_env *e, int idx)
{
	if (strcmp(e->info[idx].model, "cps1848") == 0)
		return 0xdf;
	if (strcmp(e->info[idx].model, "rxs2448") == 0)
		return 0x300;
	return RTE_RIO_INVALID_ROUTE;
}

static int
st_find(const struct st_env *e, const char *name)
{
	int i;

	for (i = 0; i < e->ndev; i++)
		if (strcmp(e->info[i].name, name) == 0)
			return i;
	return -1;
}

/*
 * A host that backs off (a higher host holds a switch deep in the fabric)
 * releases every lock it took and leaves no route of its own: each entry
 * holds what it held before or "no route".
 */
/* Every switch's route entries, to compare with after an abort. */
static uint16_t *
st_abort_snapshot(struct st_env *e)
{
	uint32_t nids = RTE_RIO_MAX_DESTIDS(st_mp_devid_size(e->mp[0])), id;
	uint16_t *before;
	int i;

	before = malloc((size_t)e->ndev * nids * sizeof(*before));
	for (i = 0; before != NULL && i < e->ndev; i++)
		for (id = 0; id < nids && e->info[i].type == RTE_PMD_RIO_SIM_DEV_SWITCH; id++)
			before[(size_t)i * nids + id] = (uint16_t)st_hw_raw(e, i, id);
	return before;
}

/*
 * After a failed enumeration: every lock released but @held's (held by
 * @holder), every route entry what it was before or "no route", the host's
 * own port unlocked. Frees @before.
 */
static int
st_abort_check(struct st_env *e, uint16_t *before, int held, uint32_t holder)
{
	uint32_t nids = RTE_RIO_MAX_DESTIDS(st_mp_devid_size(e->mp[0])), id, v;
	unsigned int was;
	int i, hw;

	TEST_ASSERT(!rte_rio_mport_scanned(e->mp[0]), "scanned");
	for (i = 0; i < e->ndev; i++) {
		TEST_ASSERT_SUCCESS(st_cfg(e, i, RTE_RIO_HOST_DID_LOCK_CSR, &v), "lock");
		TEST_ASSERT_EQUAL(v & 0xffff, i == held ? holder : RTE_RIO_HOST_DID_UNLOCKED,
				  "%s lock 0x%x after the failure", e->info[i].name, v);
		if (e->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		for (id = 0; id < nids; id++) {
			hw = st_hw_raw(e, i, id);
			was = before[(size_t)i * nids + id];
			if (hw != (int)was && hw != st_hw_no_route(e, i)) {
				free(before);
				TEST_ASSERT(false, "%s: entry 0x%x left at %d (was %u)",
					    e->info[i].name, id, hw, was);
			}
		}
	}
	free(before);
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(e->mp[0], RTE_RIO_HOST_DID_LOCK_CSR, &v),
			    "local lock");
	TEST_ASSERT_EQUAL(v & 0xffff, RTE_RIO_HOST_DID_UNLOCKED, "own port still locked");
	return TEST_SUCCESS;
}

static int
st_abort(void)
{
	struct rte_rio_scan_conf conf = { .no_wait = true };
	uint16_t *before;
	int sw2;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:4"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison route tables");
	before = st_abort_snapshot(&st);
	TEST_ASSERT_NOT_NULL(before, "no memory");
	sw2 = st_find(&st, "sw2");
	TEST_ASSERT(sw2 >= 0, "sw2");
	TEST_ASSERT_SUCCESS(st_cfg_write(&st, sw2, RTE_RIO_HOST_DID_LOCK_CSR, 7), "lock sw2");
	/* It backs off and discovers; host 7 has not finished: no_wait says so. */
	TEST_ASSERT_EQUAL(rte_rio_mport_scan(st.mp[0], &conf), -EAGAIN, "lost to host 7");
	return st_abort_check(&st, before, sw2, 7);
}

static int
test_scan_abort(void)
{
	return st_case(st_abort);
}

/*
 * A walk that fails half-way through a device (its component tag write
 * lost: at hop 0 that is the first switch, freshly locked and listed) backs
 * out the same way, and the next enumeration succeeds.
 */
static int
st_abort_half_read(void)
{
	static const char * const eps[] = { "ep0", NULL };
	uint16_t *before;
	uint8_t hop;

	for (hop = 0; hop < 3; hop++) {
		TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:4"), "name");
		TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
		TEST_ASSERT_SUCCESS(st_wrap(&st, 0, ST_WORD), "wrap");
		TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison route tables");
		before = st_abort_snapshot(&st);
		TEST_ASSERT_NOT_NULL(before, "no memory");
		rio_test_wrap_fail_write(st.mp[0], hop, RTE_RIO_COMPONENT_TAG_CSR);
		TEST_ASSERT(rte_rio_mport_scan(st.mp[0], NULL) < 0, "tag write at hop %u lost",
			    hop);
		TEST_ASSERT_SUCCESS(st_abort_check(&st, before, -1, 0), "hop %u", hop);
		st_drop_mport(&st, 0);
		st.nmp = 0;
		TEST_ASSERT_SUCCESS(st_run(&st, eps, 0, ST_WORD), "enumerate again");
		TEST_ASSERT_SUCCESS(st_finish(&st), "finish");
	}
	return TEST_SUCCESS;
}

static int
test_scan_abort_half_read(void)
{
	return st_case(st_abort_half_read);
}

/* Collect the log of a call into a string: the decisions logged at NOTICE. */
struct st_log {
	char *buf;
	size_t len;
	FILE *f;
};

static int
st_log_start(struct st_log *l)
{
	memset(l, 0, sizeof(*l));
	l->f = open_memstream(&l->buf, &l->len);
	TEST_ASSERT_NOT_NULL(l->f, "memstream");
	TEST_ASSERT_SUCCESS(rte_openlog_stream(l->f), "log stream");
	return TEST_SUCCESS;
}

/* Stop collecting; echo what was logged. The caller frees l->buf. */
static void
st_log_stop(struct st_log *l)
{
	rte_openlog_stream(NULL);
	fclose(l->f);
	if (l->buf != NULL)
		fputs(l->buf, stdout);
}

/*
 * A part may come out of reset with Discovered set in its own Port General
 * Control (RapidIO Part 7 suggests it for a host): that is not a fabric
 * enumerated by somebody else.
 */
static int
st_reset_discovered(void)
{
	static const char * const eps[] = { "ep0", "ep2", NULL };
	uint32_t v;
	int ep0;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:3"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, eps[0], -1), "claim ep0");
	TEST_ASSERT_SUCCESS(st_load(&st), "load");
	ep0 = st_find(&st, "ep0");
	TEST_ASSERT_SUCCESS(st_cfg(&st, ep0, ST_PHYS + RTE_RIO_PORT_GEN_CTL_CSR, &v), "read");
	TEST_ASSERT_SUCCESS(st_cfg_write(&st, ep0, ST_PHYS + RTE_RIO_PORT_GEN_CTL_CSR,
					 v | RTE_RIO_PORT_GEN_DISCOVERED | RTE_RIO_PORT_GEN_MASTER),
			    "Discovered at reset");
	st_drop_mport(&st, 0);
	st.nmp = 0;
	TEST_ASSERT_SUCCESS(st_run(&st, eps, 0, ST_NATIVE), "enumerate");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(st.mp[0], RTE_RIO_COMPONENT_TAG_CSR, &v),
			    "tag");
	TEST_ASSERT_EQUAL(v, 1, "the host did not enumerate (own component tag %u)", v);
	return TEST_SUCCESS;
}

static int
test_scan_reset_discovered(void)
{
	return st_case(st_reset_discovered);
}

/* mp[0] joined a running fabric: check it against the fabric and the agents. */
static int
st_check_joined(struct st_env *e, bool host_role)
{
	struct rte_rio_hotplug_stats hs;
	unsigned int i;

	TEST_ASSERT_SUCCESS(st_check_host(e), "view of %s", rte_rio_mport_name(e->mp[0]));
	TEST_ASSERT_EQUAL(rte_rio_hotplug_stats_get(e->mp[0], &hs) == 0, host_role,
			  "%s has%s the host role", rte_rio_mport_name(e->mp[0]), host_role ? " not" : "");
	for (i = 1; i < e->nmp; i++)
		TEST_ASSERT_SUCCESS(st_compare_views(e->mp[i], e->mp[0], 0), "views");
	TEST_ASSERT_SUCCESS(st_messages(e), "messages");
	return st_check_wrappers(e);
}

/*
 * The host process goes away (its vdev removed) while agents keep running,
 * and comes back on the same endpoint: it takes the host role back, says
 * so, and handles hot-plug again.
 */
static int
st_restart(enum st_mode mode)
{
	static const char * const eps[] = { "ep0", "ep4", "ep9", NULL };
	struct rte_rio_hotplug_stats hs;
	struct st_log log;
	int ret;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	printf(" restart, %s:\n", st_mode_name[mode]);
	TEST_ASSERT_SUCCESS(st_run(&st, eps, 0, mode), "first enumeration");
	st_drop_mport(&st, 0);
	TEST_ASSERT_NOT_NULL(st_claim(&st, 0, "ep0", -1), "claim ep0 again");
	TEST_ASSERT_SUCCESS(st_wrap(&st, 0, mode), "wrap");
	TEST_ASSERT_SUCCESS(st_log_start(&log), "log");
	ret = rte_rio_mport_scan(st.mp[0], NULL);
	st_log_stop(&log);
	TEST_ASSERT(log.buf != NULL && strstr(log.buf, "taking the host role back") != NULL,
		    "no log line says what the restarted host does");
	free(log.buf);
	TEST_ASSERT_SUCCESS(ret, "restarted host");
	TEST_ASSERT_SUCCESS(st_check_joined(&st, true), "restarted host");
	/* The host role: a link flap is handled. */
	TEST_ASSERT_SUCCESS(rte_rio_pw_poll_period_set(st.mp[0], 0), "manual poll");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(st.fabric, "sw1", 1, false), "down");
	TEST_ASSERT(rte_rio_pw_poll(st.mp[0], 16) > 0, "port-write");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(st.fabric, "sw1", 1, true), "up");
	TEST_ASSERT(rte_rio_pw_poll(st.mp[0], 16) > 0, "port-write");
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(st.mp[0], &hs), "stats");
	TEST_ASSERT(hs.dev_removed == 1 && hs.dev_added == 1 && hs.enum_errors == 0,
		    "hot-plug after the restart: %" PRIu64 " removed, %" PRIu64 " added",
		    hs.dev_removed, hs.dev_added);
	return st_check_joined(&st, true);
}

static int
test_scan_restart(void)
{
	/* Port-writes need the switches' Error Management blocks. */
	enum st_mode modes[] = { ST_NATIVE, ST_WORD };
	unsigned int i;

	for (i = 0; i < RTE_DIM(modes); i++) {
		if (st_end(st_restart(modes[i])) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/*
 * A host-configured mport that starts on a fabric another host enumerated
 * joins it as an agent, and says so.
 */
static int
st_join_other(void)
{
	static const char * const eps[] = { "ep0", "ep4", NULL };
	struct st_log log;
	struct rte_rio_mport *mp;
	int ret;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	TEST_ASSERT_SUCCESS(st_run(&st, eps, 0, ST_NATIVE), "enumeration");
	mp = st_add_mport(&st, "ep9", 7);
	TEST_ASSERT_NOT_NULL(mp, "claim ep9 as host 7");
	TEST_ASSERT_SUCCESS(st_log_start(&log), "log");
	ret = rte_rio_mport_scan(mp, NULL);
	st_log_stop(&log);
	TEST_ASSERT(log.buf != NULL && strstr(log.buf, "joining as an agent") != NULL,
		    "no log line says what the host does");
	free(log.buf);
	TEST_ASSERT_SUCCESS(ret, "host 7 joins");
	TEST_ASSERT(rte_rio_mport_destid(mp) != 7, "host 7 kept its own ID");
	TEST_ASSERT_SUCCESS(st_compare_views(st.mp[0], mp, 0), "views");
	return TEST_SUCCESS;
}

static int
test_scan_join_other(void)
{
	return st_case(st_join_other);
}

/*
 * Crash: a child process enumerates as host and is killed while an agent
 * (this process) keeps the fabric, with the host's state in its shared
 * memory; a new host on the same endpoint takes the host role back. (A
 * fabric that no live process uses any more is created anew instead: see
 * the rio_sim guide.) argv: EAL arguments, "--", fabric, topology.
 */
static int
st_crash_child(int argc, char **argv)
{
	char args[512];
	struct rte_rio_mport *mp;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 2;
	/* After EAL's arguments: the program name again, then "--". */
	argc -= ret + 1;
	argv += ret + 1;
	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	if (argc < 2)
		return 3;
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0,scan=0", argv[0],
		 argv[1]);
	if (rte_vdev_init("rio_sim_crash", args) != 0)
		return 4;
	mp = rte_rio_mport_find("rio_sim_crash");
	if (mp == NULL || rte_rio_mport_scan(mp, NULL) != 0)
		return 5;
	fflush(stdout);
	raise(SIGKILL);
	return 6;
}
REGISTER_TEST_CHILD(rio_scan_crash_child, st_crash_child);

static int
st_crash(void)
{
	static const char * const eps[] = { "ep0", "ep4", NULL };
	char prefix[48], fp[64];
	struct st_log log;
	pid_t pid;
	int ret;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:tree:3:2"), "name");
	TEST_ASSERT_NOT_NULL(rio_test_unique("rscan_crash", prefix, sizeof(prefix)), "prefix");
	snprintf(fp, sizeof(fp), "--file-prefix=%s", prefix);
	/* The agent keeps running while the host crashes. */
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, eps[1], -1), "claim ep4");
	{
		char *argv[] = { "--no-huge", "-m", "128", "--no-pci", fp,
				 "--log-level=lib.eal:error", "--", st.fabric, st.topo, NULL };

		pid = rio_test_spawn("rio_scan_crash_child", argv);
	}
	TEST_ASSERT(pid > 0, "spawn: %d", (int)pid);
	ret = rio_test_wait(pid, 30000);
	rio_test_runtime_dir_cleanup(prefix);
	TEST_ASSERT_EQUAL(ret, 128 + SIGKILL, "child enumerated and was killed (status %d)", ret);
	TEST_ASSERT(st_shm_count(st.fabric) > 0, "the killed host left no fabric behind");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, eps[0], -1), "claim ep0 after the crash");
	st_swap_mports(&st);
	TEST_ASSERT_SUCCESS(st_log_start(&log), "log");
	ret = rte_rio_mport_scan(st.mp[0], NULL);
	st_log_stop(&log);
	TEST_ASSERT(log.buf != NULL && strstr(log.buf, "taking the host role back") != NULL,
		    "no log line says what the restarted host does");
	free(log.buf);
	TEST_ASSERT_SUCCESS(ret, "host after the crash");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[1], NULL), "agent");
	return st_check_joined(&st, true);
}

static int
test_scan_crash(void)
{
	return st_case(st_crash);
}

/*
 * A fabric enumerated the way Linux's rio-scan.c does it (reference section
 * 4.3-4.5), written through the backdoor: host ID 0 on the topology's host
 * endpoint, component tags from 1 in walk order, device IDs lowest free
 * first, ports enabled (CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS), every route
 * table cleared then routed explicitly, the ANY_DESTID entries left where
 * the walk last pointed them, no default port written, locks released,
 * Discovered and Master Enable set.
 */
struct st_linux {
	struct st_env *e;
	uint32_t nids, any, next_id, tag;
	uint8_t *used;
	int32_t *sw_id;		/* switch index -> its destID */
	uint8_t *rt;		/* shadow tables, nids per device */
	uint8_t *seen;
	bool enable_rx_tx;	/* CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS */
};

static uint32_t
st_linux_alloc(struct st_linux *l)
{
	uint32_t id;

	for (id = 0; id < l->any; id++)
		if (!l->used[id]) {
			l->used[id] = 1;
			return id;
		}
	return l->any;
}

static int
st_linux_route(struct st_linux *l, int sw, uint32_t id, uint8_t port)
{
	l->rt[(size_t)sw * l->nids + id] = port;
	TEST_ASSERT(st_cfg_write(l->e, sw, RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, id) == 0 &&
		    st_cfg_write(l->e, sw, RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, port) == 0,
		    "route");
	return TEST_SUCCESS;
}

static int
st_linux_peer(struct st_linux *l, int dev, uint8_t inport)
{
	const struct rte_pmd_rio_sim_dev_info *in = &l->e->info[dev];
	uint32_t id, cur, sw_id;
	unsigned int p;

	if (l->seen[dev])
		return TEST_SUCCESS;	/* redundant path */
	l->seen[dev] = 1;
	TEST_ASSERT_SUCCESS(st_cfg_write(l->e, dev, RTE_RIO_COMPONENT_TAG_CSR, l->tag++), "tag");
	/*
	 * CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS: the ports the walk uses pass more
	 * than maintenance; on an endpoint port 0 only, whichever port the walk
	 * came in by (rio_enable_rx_tx_port(..., 0)). Without it, Linux relies
	 * on parts that reset with their ports enabled: here the switches, as
	 * an IDT CPS or RXS does, not the endpoints.
	 */
	for (p = 0; p < in->nports; p++)
		if (in->type == RTE_PMD_RIO_SIM_DEV_SWITCH ?
		    p == inport || in->ports[p].port_ok : l->enable_rx_tx && p == 0)
			TEST_ASSERT_SUCCESS(st_cfg_write(l->e, dev, ST_PHYS +
					RTE_RIO_PORT_N_CTL_CSR(p, st_rmap(l->e, dev)),
					in->ports[p].ctl | RTE_RIO_PORT_N_CTL_EN_TX |
					RTE_RIO_PORT_N_CTL_EN_RX), "enable");
	if (in->type == RTE_PMD_RIO_SIM_DEV_ENDPOINT) {
		TEST_ASSERT_SUCCESS(st_cfg_write(l->e, dev, RTE_RIO_DID_CSR,
				    RTE_RIO_SET_DID(st_mp_devid_size(l->e->mp[0]), l->next_id)), "did");
		l->next_id = st_linux_alloc(l);
		return TEST_SUCCESS;
	}
	for (id = 0; id < l->nids; id++)
		TEST_ASSERT_SUCCESS(st_linux_route(l, dev, id, RTE_RIO_INVALID_ROUTE), "clear");
	TEST_ASSERT_SUCCESS(st_linux_route(l, dev, 0, inport), "host route");
	for (id = 1; id < l->next_id; id++)
		if (l->used[id])
			TEST_ASSERT_SUCCESS(st_linux_route(l, dev, id, inport), "route");
	sw_id = l->next_id;
	for (p = 0; p < in->nports; p++) {
		const struct rte_pmd_rio_sim_port_info *pi = &in->ports[p];

		if (p == inport || pi->peer_dev < 0 || !pi->port_ok)
			continue;
		cur = l->next_id;
		TEST_ASSERT_SUCCESS(st_linux_route(l, dev, l->any, p), "ANY route");
		TEST_ASSERT_SUCCESS(st_linux_peer(l, pi->peer_dev, pi->peer_port), "peer");
		for (id = cur; id < l->next_id; id++)
			if (l->used[id])
				TEST_ASSERT_SUCCESS(st_linux_route(l, dev, id, p), "route");
	}
	if (l->next_id == sw_id)
		l->next_id = st_linux_alloc(l);
	l->sw_id[dev] = (int32_t)sw_id;
	return TEST_SUCCESS;
}

static int
st_linux_enumerate(struct st_env *e, const char *host_ep, bool enable_rx_tx)
{
	struct st_linux l;
	uint32_t id, v;
	int host, i, j, ret = TEST_FAILED;

	TEST_ASSERT_SUCCESS(st_load(e), "load");
	memset(&l, 0, sizeof(l));
	l.e = e;
	l.enable_rx_tx = enable_rx_tx;
	l.nids = RTE_RIO_MAX_DESTIDS(st_mp_devid_size(e->mp[0]));
	l.any = RTE_RIO_ANY_DESTID(st_mp_devid_size(e->mp[0]));
	l.used = calloc(l.nids, 1);
	l.sw_id = calloc(e->ndev, sizeof(*l.sw_id));
	l.rt = malloc((size_t)e->ndev * l.nids);
	l.seen = calloc(e->ndev, 1);
	host = st_find(e, host_ep);
	if (l.used == NULL || l.sw_id == NULL || l.rt == NULL || l.seen == NULL || host < 0)
		goto out;
	memset(l.rt, RTE_RIO_INVALID_ROUTE, (size_t)e->ndev * l.nids);
	l.used[0] = 1;
	l.seen[host] = 1;
	if (st_cfg_write(e, host, RTE_RIO_DID_CSR, RTE_RIO_SET_DID(st_mp_devid_size(e->mp[0]), 0)) ||
	    st_cfg_write(e, host, RTE_RIO_COMPONENT_TAG_CSR, 1) != 0)
		goto out;
	l.tag = 2;
	l.next_id = st_linux_alloc(&l);
	if (st_linux_peer(&l, e->info[host].ports[0].peer_dev,
			  e->info[host].ports[0].peer_port) != TEST_SUCCESS)
		goto out;
	/* rio_update_route_tables: IDs a switch has no entry for go to its ingress port. */
	TEST_ASSERT_SUCCESS(st_load(e), "load");
	for (i = 0; i < e->ndev; i++) {
		int sw_in = -1;
		unsigned int p;

		if (e->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH || !l.seen[i])
			continue;
		/* The ingress port: the one routing the host's ID. */
		sw_in = l.rt[(size_t)i * l.nids];
		for (j = 0; j < e->ndev; j++) {
			if (!l.seen[j])
				continue;
			id = e->info[j].type == RTE_PMD_RIO_SIM_DEV_ENDPOINT ?
				RTE_RIO_GET_DID(st_mp_devid_size(e->mp[0]), e->info[j].base_devid) :
				(uint32_t)l.sw_id[j];
			if (j == i || l.rt[(size_t)i * l.nids + id] != RTE_RIO_INVALID_ROUTE ||
			    (uint32_t)l.sw_id[i] == id)
				continue;
			if (st_linux_route(&l, i, id, (uint8_t)sw_in) != TEST_SUCCESS)
				goto out;
		}
		for (p = 0; p < e->info[i].nports; p++)
			if (e->info[i].ports[p].peer_dev < 0)
				st_cfg_write(e, i, ST_PHYS +
					     RTE_RIO_PORT_N_CTL_CSR(p, st_rmap(e, i)),
					     e->info[i].ports[p].ctl | RTE_RIO_PORT_N_CTL_LOCKOUT);
	}
	/* Port-writes to the host (rio_enum_peer), then rio_clear_locks. */
	for (i = 0; i < e->ndev; i++) {
		uint32_t hdr;

		if (e->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH || !l.seen[i])
			continue;
		if (st_cfg(e, i, ST_PHYS, &hdr) != 0)
			goto out;
		id = RTE_RIO_GET_BLOCK_PTR(hdr);
		if (id != 0 && st_cfg(e, i, id, &v) == 0 &&
		    RTE_RIO_GET_BLOCK_ID(v) == RTE_RIO_EFB_ERR_MGMNT &&
		    st_cfg_write(e, i, id + RTE_RIO_EM_PW_TGT_DEVID,
				 st_mp_devid_size(e->mp[0]) == 16 ? RTE_RIO_EM_PW_TGT_DEVID_DEV16 : 0) != 0)
			goto out;
	}
	for (i = 0; i < e->ndev; i++) {
		if (!l.seen[i] || st_cfg(e, i, ST_PHYS + RTE_RIO_PORT_GEN_CTL_CSR, &v) != 0 ||
		    st_cfg_write(e, i, ST_PHYS + RTE_RIO_PORT_GEN_CTL_CSR,
				 v | RTE_RIO_PORT_GEN_DISCOVERED | RTE_RIO_PORT_GEN_MASTER) != 0)
			goto out;
	}
	ret = TEST_SUCCESS;
out:
	free(l.used);
	free(l.sw_id);
	free(l.rt);
	free(l.seen);
	return ret;
}

/*
 * Our agents on a fabric Linux enumerated: every device with the IDs Linux
 * gave; with @enable_rx_tx false the agents enable their own ports.
 */
static int
st_linux_fabric(const char *builtin, const char *file_text, enum st_mode mode,
		bool enable_rx_tx)
{
	static const char * const eps[] = { "ep1", "ep2", "ep3", NULL };
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 5000 };
	unsigned int i, found;
	int k;

	if (builtin != NULL)
		TEST_ASSERT_SUCCESS(st_new_fabric(&st, builtin), "name");
	else
		TEST_ASSERT_SUCCESS(st_new_fabric_file(&st, file_text), "topology");
	printf(" %s enumerated as Linux does%s, %s:\n",
	       builtin != NULL ? builtin : "topology file",
	       enable_rx_tx ? "" : " without CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS", st_mode_name[mode]);
	st.mode = mode;
	for (i = 0; eps[i] != NULL; i++) {
		TEST_ASSERT_NOT_NULL(st_add_mport(&st, eps[i], -1), "claim %s", eps[i]);
		TEST_ASSERT(st_mp_host_destid(st.mp[i]) < 0, "%s is a host", eps[i]);
		TEST_ASSERT_SUCCESS(st_wrap(&st, i, mode), "wrap");
	}
	TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison");
	TEST_ASSERT_SUCCESS(st_linux_enumerate(&st, "ep0", enable_rx_tx),
			    "Linux-style enumeration");
	for (i = 0; i < st.nmp; i++) {
		rte_rio_mport_maint_count_reset(st.mp[i]);
		TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[i], &conf), "discover %s",
				    rte_rio_mport_name(st.mp[i]));
		printf("  agent %s: %" PRIu64 " maintenance transactions\n", rte_rio_mport_name(st.mp[i]),
		       rte_rio_mport_maint_count(st.mp[i]));
	}
	TEST_ASSERT_SUCCESS(st_load(&st), "load");
	for (found = 0, k = 0; k < st.ndev; k++) {
		struct rte_rio_dev_info di;

		if (st.view[k] == NULL)
			continue;
		found++;
		rte_rio_dev_info_get(st.view[k], &di);
		if (st.info[k].type == RTE_PMD_RIO_SIM_DEV_ENDPOINT)
			TEST_ASSERT_EQUAL(di.destid, st_did(&st, &st.info[k]), "%s ID",
					  st.info[k].name);
	}
	TEST_ASSERT_EQUAL(found, (unsigned int)st.ndev, "devices found");
	for (i = 0; i < st.nmp; i++) {
		unsigned int p;

		k = st_find(&st, eps[i]);
		for (p = 0; p < st.info[k].nports; p++)
			TEST_ASSERT(!st.info[k].ports[p].port_ok ||
				    (st.info[k].ports[p].ctl & (RTE_RIO_PORT_N_CTL_EN_TX |
								RTE_RIO_PORT_N_CTL_EN_RX)) ==
				    (RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX),
				    "%s: own port %u passes maintenance only", eps[i], p);
	}
	for (i = 1; i < st.nmp; i++)
		TEST_ASSERT_SUCCESS(st_compare_views(st.mp[0], st.mp[i], 0), "views");
	TEST_ASSERT_SUCCESS(st_messages(&st), "messages");
	return st_check_wrappers(&st);
}

static int
test_scan_linux_fabric(void)
{
	enum st_mode modes[] = { ST_NATIVE, ST_WORD_PLAIN };
	unsigned int i, k;
	const char *builtin[] = { "builtin:tree:3:2", NULL, NULL, NULL };
	const char *files[] = { NULL, st_ring_topo, st_parallel_topo, st_dual_topo };

	for (k = 0; k < RTE_DIM(builtin); k++) {
		for (i = 0; i < RTE_DIM(modes); i++) {
			/* With and without CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS on each fabric. */
			if (st_end(st_linux_fabric(builtin[k], files[k], modes[i], i == 0)) !=
			    TEST_SUCCESS)
				return TEST_FAILED;
		}
	}
	return TEST_SUCCESS;
}

/*
 * Route access on a switch somebody else holds (its Host Base Device ID
 * Lock): rte_rio_switch_route_set() waits, then fails without touching the
 * table; once released it programs the entry and lets the lock go.
 */
static int
st_route_lock(void)
{
	struct rte_rio_dev *sw;
	uint32_t v;
	int i;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:2"), "name");
	TEST_ASSERT_NOT_NULL(st_add_mport(&st, "ep0", -1), "claim ep0");
	TEST_ASSERT_SUCCESS(st_wrap(&st, 0, ST_WORD), "wrap");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], NULL), "enumerate");
	TEST_ASSERT_SUCCESS(st_load(&st), "load");
	i = st_find(&st, "sw1");
	TEST_ASSERT(i >= 0 && st.view[i] != NULL, "sw1");
	sw = st.view[i];
	TEST_ASSERT_SUCCESS(st_cfg_write(&st, i, RTE_RIO_HOST_DID_LOCK_CSR, 0x33), "hold sw1");
	TEST_ASSERT_EQUAL(rte_rio_switch_route_set(sw, 0x42, 1), -EBUSY, "route set on a held switch");
	TEST_ASSERT_EQUAL(st_hw_entry(&st, i, 0x42), RTE_RIO_INVALID_ROUTE, "entry written");
	TEST_ASSERT_SUCCESS(st_cfg_write(&st, i, RTE_RIO_HOST_DID_LOCK_CSR, 0x33), "release sw1");
	TEST_ASSERT_SUCCESS(rte_rio_switch_route_set(sw, 0x42, 1), "route set");
	TEST_ASSERT_EQUAL(st_hw_entry(&st, i, 0x42), 1, "entry");
	TEST_ASSERT_EQUAL(rte_rio_switch_route_get(sw, 0x42), 1, "shadow");
	TEST_ASSERT_SUCCESS(st_cfg(&st, i, RTE_RIO_HOST_DID_LOCK_CSR, &v), "lock");
	TEST_ASSERT_EQUAL(v & 0xffff, RTE_RIO_HOST_DID_UNLOCKED, "lock kept");
	TEST_ASSERT_SUCCESS(rte_rio_switch_route_set(sw, 0x42, RTE_RIO_INVALID_ROUTE), "clear");
	return st_check_wrappers(&st);
}

static int
test_scan_route_lock(void)
{
	return st_case(st_route_lock);
}

static struct unit_test_suite rio_scan_suite = {
	.suite_name = "rio_scan_autotest",
	.unit_test_cases = {
		TEST_CASE(test_scan_registry),
		TEST_CASE(test_scan_pair),
		TEST_CASE(test_scan_chain),
		TEST_CASE(test_scan_tree),
		TEST_CASE(test_scan_ring),
		TEST_CASE(test_scan_ring8),
		TEST_CASE(test_scan_parallel),
		TEST_CASE(test_scan_dual),
		TEST_CASE(test_scan_models),
		TEST_CASE(test_scan_race),
		TEST_CASE(test_scan_abort),
		TEST_CASE(test_scan_abort_half_read),
		TEST_CASE(test_scan_link_down),
		TEST_CASE(test_scan_reset_discovered),
		TEST_CASE(test_scan_restart),
		TEST_CASE(test_scan_join_other),
		TEST_CASE(test_scan_crash),
		TEST_CASE(test_scan_linux_fabric),
		TEST_CASE(test_scan_route_lock),
		TEST_CASE(test_scan_timeout),
		TEST_CASE(test_scan_determinism),
		TEST_CASE(test_scan_events),
		TEST_CASES_END()
	}
};

/* Seed of the route-table contents before enumeration: RIO_TEST_SEED or the clock. */
static void
st_seed_init(void)
{
	const char *s = getenv("RIO_TEST_SEED");

	st_seed = s != NULL ? (unsigned int)strtoul(s, NULL, 0) : (unsigned int)rte_rdtsc();
	if (st_seed == 0)
		st_seed = 1;
	printf("route tables filled with seed %u (RIO_TEST_SEED=%u replays it)\n", st_seed,
	       st_seed);
}

static int
test_rio_scan(void)
{
	st_seed_init();
	return unit_test_suite_runner(&rio_scan_suite);
}

REGISTER_TEST_COMMAND(rio_scan_autotest, test_rio_scan);

/* ---------------------------------------------------------------------- */
/* 1000 endpoints, 16-bit IDs                                             */

static int
st_large(enum st_mode mode)
{
	static const char * const eps[] = { "ep0", "ep1", "ep500", "ep999", NULL };
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 5000 };
	uint64_t budget, host_cnt, cnt;
	unsigned int i, ports = 0, nsw = 0, window;
	uint32_t top = 0;
	bool word = mode == ST_WORD || mode == ST_WORD_PLAIN;
	int k;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:star:1000"), "name");
	st.mode = mode;
	for (i = 0; eps[i] != NULL; i++) {
		TEST_ASSERT_NOT_NULL(st_add_mport(&st, eps[i], -1), "claim %s", eps[i]);
		TEST_ASSERT_SUCCESS(st_wrap(&st, i, mode), "wrap");
	}
	TEST_ASSERT_EQUAL(st_mp_devid_size(st.mp[0]), 16, "16-bit fabric");
	TEST_ASSERT_SUCCESS(st_poison_fabric(&st), "poison route tables");
	rte_rio_mport_maint_count_reset(st.mp[0]);
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], NULL), "enumerate");
	host_cnt = rte_rio_mport_maint_count(st.mp[0]);
	TEST_ASSERT_SUCCESS(st_check_host(&st), "host view");
	for (k = 0; k < st.ndev; k++) {
		if (st.info[k].type == RTE_PMD_RIO_SIM_DEV_SWITCH) {
			ports += st.info[k].nports;
			nsw++;
		} else {
			top = RTE_MAX(top, (uint32_t)st_did(&st, &st.info[k]));
		}
	}
	/*
	 * The cost model of rio_enum.rst: per device and per switch port a
	 * constant, plus the route tables: every switch holds an explicit
	 * entry for every ID of the window (the IDs in use and 256 beyond),
	 * four per access with extended route configuration, an access being
	 * two 4-byte writes or one 8-byte one. Linear in the devices: the
	 * window grows with the IDs handed out.
	 */
	window = RTE_ALIGN_CEIL(top + 1 + 256, 4);
	budget = 24ull * st.ndev + 4ull * ports + (uint64_t)nsw * (window / 4) * (word ? 2 : 1);
	printf("  %d devices, %u switches, %u switch ports, IDs up to 0x%x, %s: budget %" PRIu64
	       "\n", st.ndev, nsw, ports, top, st_mode_name[mode], budget);
	printf("  host %s: %" PRIu64 " maintenance transactions\n", rte_rio_mport_name(st.mp[0]),
	       host_cnt);
	TEST_ASSERT(host_cnt <= budget, "host over budget");
	for (i = 1; i < st.nmp; i++) {
		rte_rio_mport_maint_count_reset(st.mp[i]);
		TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[i], &conf), "discover");
		cnt = rte_rio_mport_maint_count(st.mp[i]);
		printf("  agent %s: %" PRIu64 " maintenance transactions\n", rte_rio_mport_name(st.mp[i]), cnt);
		TEST_ASSERT_SUCCESS(st_compare_views(st.mp[0], st.mp[i], 0), "views");
		/* Agents read the window: a select write and a read per four entries. */
		TEST_ASSERT(cnt <= 24ull * st.ndev + 4ull * ports + (uint64_t)nsw * (window / 4) * 2,
			    "agent over budget");
	}
	TEST_ASSERT_SUCCESS(st_messages(&st), "messages");
	return st_check_wrappers(&st);
}

static int
test_rio_scan_large(void)
{
	enum st_mode modes[] = { ST_NATIVE, ST_WORD };
	unsigned int i;

	st_seed_init();
	/* Block maintenance (the rio_sim mport), then 4-byte maintenance only. */
	for (i = 0; i < RTE_DIM(modes); i++) {
		if (st_end(st_large(modes[i])) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

REGISTER_TEST_COMMAND(rio_scan_large_autotest, test_rio_scan_large);
