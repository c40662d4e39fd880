/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_scan_autotest: enumeration (host) and discovery (agent) of emulated
 * fabrics, checked against the fabric itself (backdoor reads of the
 * emulator): every device found once, endpoints with unique IDs that match
 * their Base Device ID CSR, links, locks released, unused ports locked out,
 * Discovered set, shadow route tables equal to the hardware tables and
 * leading every endpoint to every other one, messages between every pair of
 * claimed endpoints, and every agent's view equal to the host's.
 *
 * rio_scan_large_autotest: a 16-bit fabric of 1000 endpoints; prints the
 * maintenance-transaction count of the host and of agents.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>

#include "rio_driver.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim.h"
#include "rte_pmd_rio_sim_fabric.h"

#include "test.h"

#define ST_MAX_MP	16
#define ST_MAX_HOPS	64
#define ST_PHYS		0x100	/* LP-Serial block of every emulated device */

struct st_env {
	char fabric[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];
	char topo[256];
	char dir[64];			/* temp dir of topology files */
	char vdev[ST_MAX_MP][RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *mp[ST_MAX_MP];
	struct rte_rio_mport *wrapped[ST_MAX_MP];	/* block wrappers: the rio_sim mport */
	unsigned int nmp;
	int ndev;
	struct rte_pmd_rio_sim_dev_info *info;
	struct rte_rio_dev **view;	/* fabric index -> device of mp[0]'s view */
	/* Switches: where each ID goes (route_table()), before and after enumeration. */
	uint8_t **rt0;
	uint8_t **hw;
};

static struct st_env st;
/* While set, the block wrappers hide PEF EXT_RT: switches take one route entry per access. */
static bool st_no_ext_rt;

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
	snprintf(e->topo, sizeof(e->topo), "%s", path);
	return 0;
}

/* Claim @endpoint as a new mport; @host >= 0 overrides the host ID. */
static struct rte_rio_mport *
st_add_mport(struct st_env *e, const char *endpoint, int host)
{
	char args[512];
	unsigned int i = e->nmp;
	char fabric[sizeof(e->fabric)];
	int n;

	if (i >= ST_MAX_MP)
		return NULL;
	memcpy(fabric, e->fabric, sizeof(fabric));
	snprintf(e->vdev[i], sizeof(e->vdev[i]), "rio_sim_%s_%u", fabric, i);
	n = snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=%s,scan=0", e->fabric,
		     e->topo, endpoint);
	if (host >= 0)
		snprintf(args + n, sizeof(args) - n, ",host=%d", host);
	if (rte_vdev_init(e->vdev[i], args) != 0) {
		printf("rte_vdev_init(%s, %s) failed\n", e->vdev[i], args);
		return NULL;
	}
	e->mp[i] = rte_rio_mport_find(e->vdev[i]);
	if (e->mp[i] == NULL) {
		rte_vdev_uninit(e->vdev[i]);
		return NULL;
	}
	e->nmp++;
	return e->mp[i];
}

static void
st_free_tables(uint8_t **t, int n)
{
	int i;

	if (t == NULL)
		return;
	for (i = 0; i < n; i++)
		free(t[i]);
	free(t);
}

/* Where every switch sends each ID, as the fabric decides (no maintenance). */
static uint8_t **
st_read_tables(const struct st_env *e, const struct rte_pmd_rio_sim_dev_info *info, int ndev)
{
	uint32_t nids = RTE_RIO_MAX_DESTIDS(e->mp[0]->devid_size);
	uint8_t **t = calloc(ndev, sizeof(*t));
	int i;

	if (t == NULL)
		return NULL;
	for (i = 0; i < ndev; i++) {
		if (info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		t[i] = malloc(nids);
		if (t[i] == NULL || rte_pmd_rio_sim_fabric_route_table(e->fabric, info[i].name,
			t[i], nids, NULL) != (int)nids) {
			st_free_tables(t, ndev);
			return NULL;
		}
	}
	return t;
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

	for (i = e->nmp; i-- > 0;) {
		rte_rio_mport_devices_release(e->mp[i]);
		if (e->wrapped[i] != NULL) {
			rte_rio_mport_unregister(e->mp[i]);
			e->wrapped[i] = NULL;
		}
		rte_vdev_uninit(e->vdev[i]);
	}
	e->nmp = 0;
	st_free_tables(e->rt0, e->ndev);
	st_free_tables(e->hw, e->ndev);
	e->rt0 = NULL;
	e->hw = NULL;
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
	st_free_tables(e->hw, e->ndev);
	e->hw = st_read_tables(e, e->info, e->ndev);
	TEST_ASSERT_NOT_NULL(e->hw, "route tables");
	return TEST_SUCCESS;
}

static uint16_t
st_did(const struct st_env *e, const struct rte_pmd_rio_sim_dev_info *in)
{
	return RTE_RIO_GET_DID(e->mp[0]->devid_size, in->base_devid);
}

static int
st_cfg(const struct st_env *e, int idx, uint32_t off, uint32_t *val)
{
	return rte_pmd_rio_sim_fabric_config_read(e->fabric, e->info[idx].name, off, 4, val);
}

/* Where switch @idx sends @destid (0xff: dropped). */
static int
st_hw_route(const struct st_env *e, int idx, uint16_t destid)
{
	return e->hw[idx][destid];
}

/*
 * Agents walk the IDs from theirs up, skipping the host's, until one leads
 * nowhere: on every switch, the first ID past those in use (the host's
 * aside) must lead nowhere, whatever the entry held at reset (std: seeded
 * garbage).
 */
static int
st_check_walk_end(const struct st_env *e)
{
	int32_t host = rte_rio_mport_destid(e->mp[0]), end = 0;
	struct rte_rio_dev_info di;
	int i;

	for (i = 0; i < e->ndev; i++)
		if (rte_rio_dev_info_get(e->view[i], &di) == 0 && di.destid != host)
			end = RTE_MAX(end, (int32_t)di.destid + 1);
	if (end == host)
		end++;
	if (end >= (int32_t)RTE_RIO_ANY_DESTID(e->mp[0]->devid_size))
		return TEST_SUCCESS;
	for (i = 0; i < e->ndev; i++)
		if (e->info[i].type == RTE_PMD_RIO_SIM_DEV_SWITCH)
			TEST_ASSERT_EQUAL(e->hw[i][end], RTE_RIO_INVALID_ROUTE,
					  "%s: 0x%x, where the agents' walk ends, leads to port %u",
					  e->info[i].name, end, e->hw[i][end]);
	return TEST_SUCCESS;
}

/*
 * The enumerator leaves no route of its own for an ID no device has, near
 * the IDs in use (where guessed routes of whole entry groups could be left),
 * on any switch: such an ID goes where the switch sent it before the
 * enumeration (reset contents), or nowhere.
 */
static int
st_check_free_ids(const struct st_env *e)
{
	uint32_t nids = RTE_RIO_MAX_DESTIDS(e->mp[0]->devid_size), top = 0, id;
	struct rte_rio_dev_info di;
	uint8_t *inuse;
	int i;

	if (e->rt0 == NULL)
		return TEST_SUCCESS;
	inuse = calloc(nids, 1);
	TEST_ASSERT_NOT_NULL(inuse, "no memory");
	for (i = 0; i < e->ndev; i++) {
		if (rte_rio_dev_info_get(e->view[i], &di) != 0)
			continue;
		inuse[di.destid] = 1;
		top = RTE_MAX(top, (uint32_t)di.destid);
	}
	inuse[rte_rio_mport_destid(e->mp[0])] = 1;
	top = RTE_MIN(top + 16, nids - 1);
	for (i = 0; i < e->ndev; i++) {
		if (e->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		uint8_t def = RTE_RIO_INVALID_ROUTE;

		if (rte_pmd_rio_sim_fabric_route_table(e->fabric, e->info[i].name, NULL, 0,
						       &def) < 0) {
			free(inuse);
			return TEST_FAILED;
		}
		for (id = 0; id <= top; id++) {
			/* Reset contents, no route, or the default port (cps1848: 0xde). */
			if (inuse[id] || e->hw[i][id] == RTE_RIO_INVALID_ROUTE ||
			    e->hw[i][id] == e->rt0[i][id] || e->hw[i][id] == def)
				continue;
			printf("  %s: route 0x%x -> %u for free ID (was %u)\n", e->info[i].name,
			       id, e->hw[i][id], e->rt0[i][id]);
			free(inuse);
			return TEST_FAILED;
		}
	}
	free(inuse);
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Checks                                                                 */

/* Follow the shadow routes of mp[0]'s view over the real links. */
static int
st_walk(const struct st_env *e, int src, uint16_t dst)
{
	int cur = src, hops;
	uint8_t port = 0;

	for (hops = 0; hops < ST_MAX_HOPS; hops++) {
		const struct rte_pmd_rio_sim_port_info *pi = &e->info[cur].ports[port];
		int r;

		if (pi->peer_dev < 0 || !pi->port_ok)
			return -1;
		cur = pi->peer_dev;
		if (e->info[cur].type == RTE_PMD_RIO_SIM_DEV_ENDPOINT)
			return st_did(e, &e->info[cur]) == dst ? 0 : -1;
		if (e->view[cur] == NULL)
			return -1;
		r = rte_rio_switch_route_get(e->view[cur], dst);
		if (r < 0 || r >= e->info[cur].nports)
			return -1;
		port = (uint8_t)r;
	}
	return -1;
}

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
 * The host's view (mp[0]) against the fabric. @pair_stride: check routes
 * from every endpoint to every @pair_stride-th endpoint.
 */
static int
st_check_host(struct st_env *e, int pair_stride)
{
	char name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport *mp = e->mp[0];
	int i, j, nsw = 0, nep = 0;
	uint8_t *seen;
	unsigned int p;
	uint32_t v;

	TEST_ASSERT_SUCCESS(st_load(e), "load fabric");
	TEST_ASSERT(rte_rio_mport_scanned(mp), "not scanned");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(mp), (unsigned int)e->ndev, "devices found");
	seen = calloc(RTE_RIO_MAX_DESTIDS(mp->devid_size), 1);
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
		if (in->type == RTE_PMD_RIO_SIM_DEV_ENDPOINT) {
			uint16_t did = st_did(e, in);

			nep++;
			TEST_ASSERT_EQUAL(di.type, RTE_RIO_DEV_ENDPOINT, "%s type", in->name);
			TEST_ASSERT_EQUAL(di.destid, did, "%s destid", in->name);
			TEST_ASSERT(did != RTE_RIO_ANY_DESTID(mp->devid_size), "%s unnumbered",
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
				TEST_ASSERT(pi->lockout, "%s.%u unused but not locked out",
					    in->name, p);
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
	printf("  %s: %d endpoints, %d switches\n", mp->name, nep, nsw);

	/* Shadow tables = hardware tables, for every ID in use. */
	for (i = 0; i < e->ndev; i++) {
		if (e->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		for (j = 0; j < e->ndev; j++) {
			uint16_t did;

			if (e->info[j].type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
				continue;
			did = st_did(e, &e->info[j]);
			TEST_ASSERT_EQUAL(rte_rio_switch_route_get(e->view[i], did),
					  st_hw_route(e, i, did), "%s route for 0x%x",
					  e->info[i].name, did);
		}
	}
	TEST_ASSERT_SUCCESS(st_check_free_ids(e), "route entries of free IDs");
	TEST_ASSERT_SUCCESS(st_check_walk_end(e), "end of the IDs");
	/* Every endpoint reaches the others over the programmed routes. */
	for (i = 0; i < e->ndev; i++) {
		if (e->info[i].type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
			continue;
		for (j = 0; j < e->ndev; j += pair_stride) {
			if (j == i || e->info[j].type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
				continue;
			TEST_ASSERT_SUCCESS(st_walk(e, i, st_did(e, &e->info[j])),
					    "no route %s -> %s", e->info[i].name, e->info[j].name);
		}
	}
	return TEST_SUCCESS;
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
 * Agent view equals the host view: same devices (by component tag), same
 * IDs, same routes for every ID, same links except the @redundant ones,
 * which an agent that never writes routes cannot see.
 */
static int
st_compare_views(struct rte_rio_mport *host, struct rte_rio_mport *agent, int redundant)
{
	struct rte_rio_dev *h = NULL, *a;
	struct rte_rio_dev_info hi, ai, pi, qi;
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
		for (id = 0; id < nids; id++)
			if (rte_rio_switch_route_get(a, id) != rte_rio_switch_route_get(h, id))
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
	TEST_ASSERT_EQUAL(st_links(agent), st_links(host) - 2 * redundant, "%s links",
			  agent->name);
	return TEST_SUCCESS;
}

/* Every pair of mports exchanges one message. */
static int
st_messages(struct st_env *e)
{
	static uint8_t bufs[ST_MAX_MP][ST_MAX_MP][RTE_RIO_MAX_MSG_SIZE];
	uint8_t tx[64];
	unsigned int i, j, got;
	int ret = TEST_SUCCESS;

	for (i = 0; i < e->nmp; i++) {
		TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(e->mp[i], 0, 32), "inb");
		TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(e->mp[i], 0, 32), "outb");
		for (j = 0; j < e->nmp; j++)
			TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(e->mp[i], 0, bufs[i][j]),
					    "buffer");
	}
	for (i = 0; i < e->nmp && ret == TEST_SUCCESS; i++) {
		for (j = 0; j < e->nmp; j++) {
			int dst = rte_rio_mport_destid(e->mp[j]);

			if (i == j)
				continue;
			memset(tx, (int)(i * 16 + j), sizeof(tx));
			if (rte_rio_add_outb_message(e->mp[i], (uint16_t)dst, 0, 0, tx,
						     sizeof(tx)) != 0) {
				printf("message %s -> %s (0x%x) not delivered\n", e->mp[i]->name,
				       e->mp[j]->name, dst);
				ret = TEST_FAILED;
				break;
			}
		}
	}
	for (j = 0; j < e->nmp && ret == TEST_SUCCESS; j++) {
		for (got = 0; got < e->nmp - 1; got++) {
			size_t len;
			uint16_t src;
			uint8_t *b = rte_rio_get_inb_message(e->mp[j], 0, &len, &src);

			if (b == NULL || len != sizeof(tx)) {
				printf("%s: message %u missing\n", e->mp[j]->name, got);
				ret = TEST_FAILED;
				break;
			}
		}
	}
	for (i = 0; i < e->nmp; i++) {
		rte_rio_release_inb_mbox(e->mp[i], 0);
		rte_rio_release_outb_mbox(e->mp[i], 0);
	}
	return ret;
}

/*
 * Claim @eps (NULL-terminated; the first is the host), enumerate, check,
 * discover with every other one, compare, exchange messages.
 */
static int
st_wrap_block(struct st_env *e);

static int
st_run(struct st_env *e, const char * const *eps, int redundant, int pair_stride, bool wrap)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 5000 };
	uint64_t cnt;
	unsigned int i;

	for (i = 0; eps[i] != NULL; i++)
		TEST_ASSERT_NOT_NULL(st_add_mport(e, eps[i], -1), "claim %s", eps[i]);
	if (wrap)
		TEST_ASSERT_SUCCESS(st_wrap_block(e), "block maintenance wrappers");
	TEST_ASSERT(e->mp[0]->host_destid >= 0, "%s is not a host", eps[0]);
	/* Where the switches send each ID before anyone programmed them. */
	TEST_ASSERT_SUCCESS(st_load_info(e), "devices");
	e->rt0 = st_read_tables(e, e->info, e->ndev);
	TEST_ASSERT_NOT_NULL(e->rt0, "route tables at reset");
	rte_rio_mport_maint_count_reset(e->mp[0]);
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(e->mp[0], NULL), "enumerate %s", e->topo);
	cnt = rte_rio_mport_maint_count(e->mp[0]);
	TEST_ASSERT_EQUAL(rte_rio_mport_scan(e->mp[0], NULL), -EALREADY, "scan twice");
	TEST_ASSERT_SUCCESS(st_check_host(e, pair_stride), "host view");
	printf("  host: %" PRIu64 " maintenance transactions\n", cnt);
	for (i = 1; i < e->nmp; i++) {
		rte_rio_mport_maint_count_reset(e->mp[i]);
		TEST_ASSERT_SUCCESS(rte_rio_mport_scan(e->mp[i], &conf), "discover %s",
				    e->mp[i]->name);
		printf("  agent %s: %" PRIu64 " maintenance transactions\n", e->mp[i]->name,
		       rte_rio_mport_maint_count(e->mp[i]));
		TEST_ASSERT_SUCCESS(st_compare_views(e->mp[0], e->mp[i], redundant), "views");
	}
	TEST_ASSERT_SUCCESS(st_messages(e), "messages");
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Fabrics                                                                */

/*
 * Run a fabric three times: plain rio_sim mports, with block maintenance,
 * then with switches that hide extended route configuration (one route
 * entry per access).
 */
static int
st_run_both(const char *builtin, const char *file_text, const char * const *eps,
	    int redundant)
{
	int wrap, ret;

	for (wrap = 0; wrap < 3; wrap++) {
		if (builtin != NULL)
			TEST_ASSERT_SUCCESS(st_new_fabric(&st, builtin), "name");
		else
			TEST_ASSERT_SUCCESS(st_new_fabric_file(&st, file_text), "topology");
		st_no_ext_rt = wrap == 2;
		ret = st_run(&st, eps, redundant, 1, wrap != 0);
		st_no_ext_rt = false;
		if (ret != TEST_SUCCESS) {
			printf("  failed with%s block maintenance%s\n", wrap ? "" : "out",
			       wrap == 2 ? ", without extended route configuration" : "");
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

	return st_run_both("builtin:pair", NULL, eps, 0);
}

static int
test_scan_chain(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep2", "ep3", "ep4", NULL };

	return st_run_both("builtin:chain:4", NULL, eps, 0);
}

static int
test_scan_tree(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep4", "ep9", NULL };

	return st_run_both("builtin:tree:3:2", NULL, eps, 0);
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

	return st_run_both(NULL, st_ring_topo, eps, 1);
}

/* Two parallel links between two switches; a switch with no endpoint. */
static const char st_parallel_topo[] =
	"[switch sw0]\nports = 6\n[switch sw1]\nports = 6\n[switch sw2]\nports = 4\n"
	"[endpoint ep0]\nhost = 1\n[endpoint ep1]\n[endpoint ep2]\n[endpoint ep3]\n"
	"[links]\n"
	"sw0.1 = sw1.1\nsw0.2 = sw1.2\n"
	"sw0.0 = ep0.0\nsw0.3 = ep1.0\nsw1.0 = ep2.0\nsw1.3 = ep3.0\nsw1.4 = sw2.0\n";

static int
test_scan_parallel(void)
{
	static const char * const eps[] = { "ep0", "ep1", "ep2", "ep3", NULL };

	return st_run_both(NULL, st_parallel_topo, eps, 1);
}

/*
 * The IDT switch models (their own identity, reset contents and special
 * route values) next to a std switch, under the standard route ops.
 */
static const char st_models_topo[] =
	"[switch sw0]\nports = 4\n"
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
	"[switch sw0]\nports = 4\n"
	"[switch sw1]\nmodel = rxs2448\n"
	"[switch sw2]\nmodel = cps1848\n"
	"[endpoint ep0]\nhost = 1\nhost_destid = 0x10\nmodel = tsi721\n"
	"[endpoint ep1]\n[endpoint ep2]\nmodel = tsi721\n[endpoint ep3]\n[endpoint ep4]\n"
	"[links]\n"
	"sw0.0 = ep0.0\nsw0.1 = sw1.0\nsw0.2 = ep1.0\n"
	"sw1.1 = ep2.0\nsw1.2 = sw2.3\nsw2.0 = ep3.0\nsw2.17 = ep4.0\n";

static int
st_models(bool wrap, bool dev16)
{
	static const char * const eps[] = { "ep0", "ep1", "ep2", "ep3", "ep4", NULL };
	struct rte_rio_dev *d = NULL;
	struct rte_rio_dev_info di;
	int cps = 0, rxs = 0;

	TEST_ASSERT_SUCCESS(st_new_fabric_file(&st, dev16 ? st_models16_topo : st_models_topo),
			    "topology");
	TEST_ASSERT_SUCCESS(st_run(&st, eps, 0, 1, wrap), "IDT switch models");
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
	int wrap;

	for (wrap = 0; wrap < 4; wrap++) {
		if (st_models(wrap & 1, wrap & 2) != TEST_SUCCESS) {
			printf("  failed with %u-bit IDs%s\n", wrap & 2 ? 16 : 8,
			       wrap & 1 ? ", block maintenance" : "");
			st_teardown_env(&st);
			return TEST_FAILED;
		}
		if (st_finish(&st) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	/* Whole shapes of one model: IDT switches, Tsi721 master ports (4-byte only). */
	if (st_run_both("builtin:chain:3/cps1848/tsi721", NULL, chain_eps, 0) != TEST_SUCCESS ||
	    st_run_both("builtin:tree:3:2/rxs2448", NULL, tree_eps, 0) != TEST_SUCCESS ||
	    st_run_both("builtin:tree:3:2/rxs2448/tsi721", NULL, tree_eps, 0) != TEST_SUCCESS)
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
	TEST_ASSERT_EQUAL(st.mp[0]->host_destid, hi, "host ID of ep9");
	TEST_ASSERT_EQUAL(st.mp[1]->host_destid, 0, "host ID of ep0");
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
	/* mp[0] must be the enumerator for the checks. */
	st.mp[0] = win;
	st.mp[1] = lose;
	TEST_ASSERT_SUCCESS(st_check_host(&st, 1), "winner view");
	TEST_ASSERT_SUCCESS(st_compare_views(win, lose, 0), "loser view");
	TEST_ASSERT_SUCCESS(st_messages(&st), "messages");
	return TEST_SUCCESS;
}

static int
test_scan_race(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (st_race(i == 0, 7) != TEST_SUCCESS) {
			st_teardown_env(&st);
			return TEST_FAILED;
		}
		if (st_finish(&st) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
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
	if (st_link_down() != TEST_SUCCESS) {
		st_teardown_env(&st);
		return TEST_FAILED;
	}
	return st_finish(&st);
}

/* ---------------------------------------------------------------------- */
/* Discovery timeout, determinism, events, DOT, registry                  */

static int
st_timeout(void)
{
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 300 };
	struct rte_rio_mport *mp;
	uint64_t t0, ms;
	int ret;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:chain:2"), "name");
	mp = st_add_mport(&st, "ep1", -1);
	TEST_ASSERT_NOT_NULL(mp, "claim ep1");
	TEST_ASSERT(mp->host_destid < 0, "ep1 is an agent");
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
	if (st_timeout() != TEST_SUCCESS) {
		st_teardown_env(&st);
		return TEST_FAILED;
	}
	return st_finish(&st);
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
	if (st_determinism() != TEST_SUCCESS) {
		st_teardown_env(&st);
		return TEST_FAILED;
	}
	return st_finish(&st);
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
	TEST_ASSERT_EQUAL(port, di.sw_inport, "unused ID goes to the default (host) port");
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

static struct unit_test_suite rio_scan_suite = {
	.suite_name = "rio_scan_autotest",
	.unit_test_cases = {
		TEST_CASE(test_scan_registry),
		TEST_CASE(test_scan_pair),
		TEST_CASE(test_scan_chain),
		TEST_CASE(test_scan_tree),
		TEST_CASE(test_scan_ring),
		TEST_CASE(test_scan_parallel),
		TEST_CASE(test_scan_models),
		TEST_CASE(test_scan_race),
		TEST_CASE(test_scan_link_down),
		TEST_CASE(test_scan_timeout),
		TEST_CASE(test_scan_determinism),
		TEST_CASE(test_scan_events),
		TEST_CASES_END()
	}
};

static int
test_rio_scan(void)
{
	return unit_test_suite_runner(&rio_scan_suite);
}

REGISTER_TEST_COMMAND(rio_scan_autotest, test_rio_scan);

/* ---------------------------------------------------------------------- */
/* An mport with block maintenance over a rio_sim mport                   */

/*
 * The wrapper forwards every op to the rio_sim mport it stands for and adds
 * cread_block/cwrite_block as bursts of 4-byte accesses executed back to
 * back (what one multi-word maintenance transaction does), so the cost of
 * enumeration with block maintenance can be measured on the emulator.
 */
static inline struct rte_rio_mport *
st_lower(struct rte_rio_mport *m)
{
	return rte_rio_mport_priv(m);
}

static int
st_w_lcread(struct rte_rio_mport *m, uint32_t off, int len, uint32_t *data)
{
	return st_lower(m)->ops->lcread(st_lower(m), off, len, data);
}

static int
st_w_lcwrite(struct rte_rio_mport *m, uint32_t off, int len, uint32_t data)
{
	return st_lower(m)->ops->lcwrite(st_lower(m), off, len, data);
}

static int
st_w_cread(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
	   uint32_t *data)
{
	int ret = st_lower(m)->ops->cread(st_lower(m), destid, hop, off, len, data);

	if (ret == 0 && off == RTE_RIO_PEF_CAR && len == 4 && st_no_ext_rt)
		*data &= ~RTE_RIO_PEF_EXT_RT;
	return ret;
}

static int
st_w_cwrite(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off, int len,
	    uint32_t data)
{
	return st_lower(m)->ops->cwrite(st_lower(m), destid, hop, off, len, data);
}

static int
st_w_cread_block(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off,
		 int len, uint32_t *words)
{
	int i, ret = 0;

	for (i = 0; ret == 0 && i < len / 4; i++)
		ret = st_w_cread(m, destid, hop, off + 4 * i, 4, &words[i]);
	return ret;
}

static int
st_w_cwrite_block(struct rte_rio_mport *m, uint16_t destid, uint8_t hop, uint32_t off,
		  int len, const uint32_t *words)
{
	int i, ret = 0;

	for (i = 0; ret == 0 && i < len / 4; i++)
		ret = st_w_cwrite(m, destid, hop, off + 4 * i, 4, words[i]);
	return ret;
}

static int
st_w_dsend(struct rte_rio_mport *m, uint16_t destid, uint16_t info)
{
	return st_lower(m)->ops->dsend(st_lower(m), destid, info);
}

static int
st_w_dbell_fetch(struct rte_rio_mport *m, struct rte_rio_dbell *d, uint16_t n)
{
	return st_lower(m)->ops->dbell_fetch(st_lower(m), d, n);
}

static int
st_w_open_outb(struct rte_rio_mport *m, uint8_t mbox, uint32_t entries)
{
	return st_lower(m)->ops->open_outb_mbox(st_lower(m), mbox, entries);
}

static void
st_w_close_outb(struct rte_rio_mport *m, uint8_t mbox)
{
	st_lower(m)->ops->close_outb_mbox(st_lower(m), mbox);
}

static int
st_w_open_inb(struct rte_rio_mport *m, uint8_t mbox, uint32_t entries)
{
	return st_lower(m)->ops->open_inb_mbox(st_lower(m), mbox, entries);
}

static void
st_w_close_inb(struct rte_rio_mport *m, uint8_t mbox)
{
	st_lower(m)->ops->close_inb_mbox(st_lower(m), mbox);
}

static uint16_t
st_w_add_outb(struct rte_rio_mport *m, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	return st_lower(m)->ops->add_outb_messages(st_lower(m), mbox, msgs, n);
}

static int64_t
st_w_outb_compl(struct rte_rio_mport *m, uint8_t mbox)
{
	return st_lower(m)->ops->outb_completion(st_lower(m), mbox);
}

static uint16_t
st_w_add_inb_bufs(struct rte_rio_mport *m, uint8_t mbox, void * const *bufs, uint16_t n)
{
	return st_lower(m)->ops->add_inb_buffers(st_lower(m), mbox, bufs, n);
}

static uint16_t
st_w_get_inb(struct rte_rio_mport *m, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	return st_lower(m)->ops->get_inb_messages(st_lower(m), mbox, msgs, n);
}

static const struct rte_rio_mport_ops st_block_ops = {
	.lcread = st_w_lcread,
	.lcwrite = st_w_lcwrite,
	.cread = st_w_cread,
	.cwrite = st_w_cwrite,
	.dsend = st_w_dsend,
	.dbell_fetch = st_w_dbell_fetch,
	.open_outb_mbox = st_w_open_outb,
	.close_outb_mbox = st_w_close_outb,
	.open_inb_mbox = st_w_open_inb,
	.close_inb_mbox = st_w_close_inb,
	.add_outb_messages = st_w_add_outb,
	.outb_completion = st_w_outb_compl,
	.add_inb_buffers = st_w_add_inb_bufs,
	.get_inb_messages = st_w_get_inb,
	.cread_block = st_w_cread_block,
	.cwrite_block = st_w_cwrite_block,
};

/*
 * Replace every mport of @e by a block-capable wrapper (unless it has block
 * ops and st_no_ext_rt is not set).
 */
static int
st_wrap_block(struct st_env *e)
{
	unsigned int i;

	for (i = 0; i < e->nmp; i++) {
		struct rte_rio_mport *l = e->mp[i];
		struct rte_rio_mport_conf c;
		char name[RTE_RIO_NAME_MAX_LEN];

		if (l->ops->cread_block != NULL && !st_no_ext_rt)
			continue;
		snprintf(name, sizeof(name), "%.50s_b", l->name);
		memset(&c, 0, sizeof(c));
		c.name = name;
		c.ops = &st_block_ops;
		c.priv = l;
		c.devid_size = l->devid_size;
		c.host_destid = l->host_destid;
		c.port_index = l->port_index;
		e->wrapped[i] = l;
		e->mp[i] = rte_rio_mport_register(&c);
		TEST_ASSERT_NOT_NULL(e->mp[i], "wrap %s", l->name);
	}
	return TEST_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* 1000 endpoints, 16-bit IDs                                             */

/*
 * Route entries of endpoint IDs the host view holds: towards the endpoint
 * (@down), and towards the host (@up, the switch's host-facing port).
 */
static void
st_route_entries(const struct st_env *e, unsigned int *down, unsigned int *up)
{
	int i, j;

	*down = 0;
	*up = 0;
	for (i = 0; i < e->ndev; i++) {
		struct rte_rio_dev_info di;

		if (e->view[i] == NULL || e->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		rte_rio_dev_info_get(e->view[i], &di);
		for (j = 0; j < e->ndev; j++) {
			if (e->info[j].type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
				continue;
			if (rte_rio_switch_route_get(e->view[i], st_did(e, &e->info[j])) ==
			    di.sw_inport)
				(*up)++;
			else
				(*down)++;
		}
	}
}

static int
st_large(bool wrap)
{
	static const char * const eps[] = { "ep0", "ep1", "ep500", "ep999", NULL };
	struct rte_rio_scan_conf conf = { .disc_timeout_ms = 5000 };
	uint64_t budget, host_cnt, cnt, extra;
	unsigned int i, ports = 0, nsw = 0, routes, upstream;
	int k;
	bool block;

	TEST_ASSERT_SUCCESS(st_new_fabric(&st, "builtin:star:1000"), "name");
	for (i = 0; eps[i] != NULL; i++)
		TEST_ASSERT_NOT_NULL(st_add_mport(&st, eps[i], -1), "claim %s", eps[i]);
	if (wrap)
		TEST_ASSERT_SUCCESS(st_wrap_block(&st), "block wrappers");
	TEST_ASSERT_EQUAL(st.mp[0]->devid_size, 16, "16-bit fabric");
	block = st.mp[0]->ops->cread_block != NULL;
	rte_rio_mport_maint_count_reset(st.mp[0]);
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[0], NULL), "enumerate");
	host_cnt = rte_rio_mport_maint_count(st.mp[0]);
	TEST_ASSERT_SUCCESS(st_check_host(&st, 97), "host view");
	for (k = 0; k < st.ndev; k++) {
		if (st.info[k].type == RTE_PMD_RIO_SIM_DEV_SWITCH) {
			ports += st.info[k].nports;
			nsw++;
		}
	}
	budget = 4 * ((uint64_t)st.ndev + ports);
	printf("  %d devices, %u switch ports: budget 4 x %u = %" PRIu64
	       " (block maintenance: %s)\n", st.ndev, ports, st.ndev + ports, budget,
	       block ? (st.wrapped[0] != NULL ? "yes, test wrapper" : "yes") :
	       "no, 4-byte accesses");
	printf("  host %s: %" PRIu64 " maintenance transactions\n", st.mp[0]->name, host_cnt);
	for (i = 1; i < st.nmp; i++) {
		rte_rio_mport_maint_count_reset(st.mp[i]);
		TEST_ASSERT_SUCCESS(rte_rio_mport_scan(st.mp[i], &conf), "discover");
		cnt = rte_rio_mport_maint_count(st.mp[i]);
		printf("  agent %s: %" PRIu64 " maintenance transactions\n", st.mp[i]->name, cnt);
		TEST_ASSERT_SUCCESS(st_compare_views(st.mp[0], st.mp[i], 0), "views");
		if (block)
			TEST_ASSERT(cnt <= budget, "agent over budget");
	}
	/*
	 * Every endpoint costs 6 transactions with correct locking (CARs, lock
	 * write and read-back, LP-Serial block, release, Discovered), 2 to set
	 * its port enables (Port 0 Control read and write), one route entry on
	 * every switch between it and the host (routes) and one towards the
	 * host on every other switch (upstream, as Linux's
	 * rio_update_route_tables(): the default port only serves IDs past the
	 * table, and entries reset to anything). Every switch port costs one
	 * more write to set its enables. The emulator's standard switches take
	 * 4 entries per access (extended route configuration). The budget of 4
	 * x (devices + ports) was set before port enables and upstream entries
	 * were written; these grow with switches x endpoints on a flat table.
	 */
	st_route_entries(&st, &routes, &upstream);
	extra = 2ull * (st.ndev - nsw) + ports + upstream / 4 + 3ull * nsw;
	printf("  host: %s budget + %" PRIu64 " (port enables, %u upstream route entries); "
	       "%u explicit route entries\n", host_cnt <= budget + extra ? "within" : "over",
	       extra, upstream, routes);
	/*
	 * Cost model (rio_enum.rst): 8 per endpoint, 1 per 4 route entries
	 * and 1 per port interval boundary (at most one per port), 1 per two
	 * ports and 1 per port for its enables, at most 12 per switch (reads,
	 * lock, tag, default port, port-write target, release, lockouts and
	 * the clear of guessed routes), 1 per 4 upstream entries and 3 per
	 * switch for the groups that its subtree, the switch IDs and the end
	 * of the IDs cut.
	 */
	if (block) {
		TEST_ASSERT(host_cnt <= 8ull * (st.ndev - nsw) + routes / 4 + 2ull * ports +
			    ports / 2 + 12ull * nsw + upstream / 4 + 3ull * nsw,
			    "host above its cost model");
		TEST_ASSERT(host_cnt <= budget + extra, "host over budget");
	}
	TEST_ASSERT_SUCCESS(st_messages(&st), "messages");
	return TEST_SUCCESS;
}

static int
test_rio_scan_large(void)
{
	int wrap;

	/* The mport as the emulator gives it, then with block maintenance. */
	for (wrap = 0; wrap < 2; wrap++) {
		if (st_large(wrap != 0) != TEST_SUCCESS) {
			st_teardown_env(&st);
			return TEST_FAILED;
		}
		if (st_finish(&st) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

REGISTER_TEST_COMMAND(rio_scan_large_autotest, test_rio_scan_large);
