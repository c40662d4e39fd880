/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * tsi721_autotest: the tsi721 driver on the register-level model of the
 * part, against rio_sim mports on the same fabric:
 *
 *   sw0 (8 ports): ep0 (the Tsi721: IDT vid/did) ep1 ep2 (rio_sim)
 *
 * or, chosen by the seed, ep2 one switch further (sw0.2 = sw1.0, ep2 on
 * sw1.1), so that maintenance through the part also crosses a hop.
 *
 * Enumeration and discovery from the tsi721 master port, configuration and
 * maintenance, doorbells and messages both ways, port-write capture, the
 * model's rejection checks (bad descriptor, misalignment, overrun, DMA
 * outside host memory) each seen and counted, and faults: link down, ring
 * full, peer gone; the memory space (mem*): round trips both ways through
 * inbound windows, its errors and the model's window and data descriptor
 * checks. Each case builds a fabric of its own (8- or 16-bit IDs from a
 * seed that is printed, or both for the memory round trips) and checks
 * that nothing stays in /dev/shm.
 */

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_random.h>
#include <rte_rawdev.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rte_pmd_tsi721.h"
#include "rte_pmd_tsi721_model.h"
#include "../../drivers/raw/tsi721/tsi721_regs.h"

#include "test.h"

#define T7_WAIT_MS	3000
#define T7_MBOX_ENTRIES	64

struct t7_env {
	char fabric[32];
	char topo[64];
	char shm_prefix[64];
	char tsi[32];		/* tsi721_model vdev */
	char sim[2][32];	/* rio_sim vdevs of ep1, ep2 */
	bool tsi_up, sim_up[2];
	uint16_t tsi_dev;
	struct rte_rio_mport *t, *s[2];
	uint8_t devid_size;
	bool chain;		/* ep2 behind a second switch */
	unsigned int n_devs;	/* devices of the fabric */
};

static struct t7_env env;
/* Device ID size of the next fabric: 8 or 16; 0 from the seed. */
static uint8_t t7_force_ids;
/* A bare model (rte_pmd_tsi721_model.h) and its doorbell queue, released at teardown. */
static struct tsi721_model *t7_bare;
static uint8_t *t7_idq;
static unsigned int t7_counter;
static uint64_t t7_seed;

static int
t7_topo_write(uint8_t devid_size, unsigned int sim_entries)
{
	FILE *fp;
	int fd;

	snprintf(env.topo, sizeof(env.topo), "/tmp/tsi721_topo.XXXXXX");
	fd = mkstemp(env.topo);
	if (fd < 0)
		return -errno;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		return -EIO;
	}
	fprintf(fp,
		"[fabric]\n"
		"devid_size = %u\n"
		"mbox_entries = %u\n"
		"[switch sw0]\n"
		"ports = 8\n"
		"%s"
		"[endpoint ep0]\n"
		"host = 1\n"
		"vid = 0x%04x\n"
		"did = 0x%04x\n"
		"[endpoint ep1]\n"
		"[endpoint ep2]\n"
		"[links]\n"
		"sw0.0 = ep0.0\n"
		"sw0.1 = ep1.0\n"
		"%s",
		devid_size, sim_entries, env.chain ? "[switch sw1]\nports = 4\n" : "",
		TSI721_RIO_VENDOR_ID, TSI721_RIO_DEVICE_ID,
		env.chain ? "sw0.2 = sw1.0\nsw1.1 = ep2.0\n" : "sw0.2 = ep2.0\n");
	return fclose(fp) == 0 ? 0 : -EIO;
}

/* A case's fabric (IDs and shape from the seed), topology file and vdev names. */
static int
t7_env_init(bool tsi_host, unsigned int sim_entries)
{
	int ret, i;

	memset(&env, 0, sizeof(env));
	env.devid_size = (rte_rand() & 1) ? 16 : 8;
	if (t7_force_ids != 0)
		env.devid_size = t7_force_ids;
	env.chain = (rte_rand() & 1) != 0;
	env.n_devs = env.chain ? 5 : 4;
	if (rio_test_unique("t7", env.fabric, sizeof(env.fabric) - 2) == NULL)
		return -EINVAL;
	snprintf(env.fabric + strlen(env.fabric), 3, "%u", t7_counter % 10);
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	printf("  fabric %s, %u-bit device IDs, %s, tsi721 %s\n", env.fabric, env.devid_size,
	       env.chain ? "two switches" : "one switch", tsi_host ? "host" : "agent");
	ret = t7_topo_write(env.devid_size, sim_entries);
	if (ret < 0)
		return ret;
	snprintf(env.tsi, sizeof(env.tsi), "tsi721_model%u", t7_counter);
	for (i = 0; i < 2; i++)
		snprintf(env.sim[i], sizeof(env.sim[i]), "rio_sim_t7_%u_%d", t7_counter, i);
	t7_counter++;
	return 0;
}

/*
 * Fabric and mports: the tsi721 model on ep0 (host when tsi_host, else an
 * agent), rio_sim on ep1 (the other role) and ep2 (agent), then scans.
 */
static int
t7_setup(bool tsi_host, unsigned int sim_entries)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = 5000, .no_wait = false };
	char args[256];
	int ret, i;

	ret = t7_env_init(tsi_host, sim_entries);
	if (ret < 0)
		return ret;

	/* The host's mport first: agents find the fabric enumerated. */
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0,scan=0%s", env.fabric,
		 env.topo, tsi_host ? ",host=0" : "");
	ret = rte_vdev_init(env.tsi, args);
	if (ret < 0)
		return ret;
	env.tsi_up = true;
	ret = rte_rawdev_get_dev_id(env.tsi);	/* uint16_t: -ENODEV wraps */
	if (ret >= RTE_RAWDEV_MAX_DEVS)
		return -ENODEV;
	env.tsi_dev = (uint16_t)ret;
	env.t = rte_pmd_tsi721_mport(env.tsi_dev);
	for (i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "fabric=%s,endpoint=ep%d,scan=0%s", env.fabric, i + 1,
			 !tsi_host && i == 0 ? ",host=0" : "");
		ret = rte_vdev_init(env.sim[i], args);
		if (ret < 0)
			return ret;
		env.sim_up[i] = true;
		env.s[i] = rte_rio_mport_find(env.sim[i]);
		if (env.s[i] == NULL)
			return -ENODEV;
	}
	if (env.t == NULL)
		return -ENODEV;
	/* Host first, then the agents. */
	ret = rte_rio_mport_scan(tsi_host ? env.t : env.s[0], &sc);
	if (ret < 0)
		return ret;
	ret = rte_rio_mport_scan(tsi_host ? env.s[0] : env.t, &sc);
	if (ret < 0)
		return ret;
	return rte_rio_mport_scan(env.s[1], &sc);
}

static int
t7_teardown(void)
{
	int i, left = 0;

	for (i = 1; i >= 0; i--)
		if (env.sim_up[i])
			rte_vdev_uninit(env.sim[i]);
	rte_pmd_tsi721_model_close(t7_bare);
	t7_bare = NULL;
	rte_free(t7_idq);
	t7_idq = NULL;
	if (env.tsi_up)
		rte_vdev_uninit(env.tsi);
	env.tsi_up = env.sim_up[0] = env.sim_up[1] = false;
	if (env.topo[0] != '\0')
		unlink(env.topo);
	env.topo[0] = '\0';
	if (env.fabric[0] != '\0')
		left = rio_test_shm_count(env.shm_prefix);
	if (left != 0) {
		printf("  LEAK: %d shared-memory objects /%s* remain\n", left, env.shm_prefix);
		rio_test_shm_cleanup(env.shm_prefix);
	}
	return left;
}

static uint64_t
t7_xstat(const char *name)
{
	unsigned int id;

	return rte_rawdev_xstats_by_name_get(env.tsi_dev, name, &id);
}

static uint32_t
t7_reg(uint32_t off)
{
	uint32_t v = 0;

	rte_pmd_tsi721_reg_read(env.tsi_dev, off, &v);
	return v;
}

static int
t7_destid(struct rte_rio_mport *m)
{
	return rte_rio_mport_destid(m);
}

/* ------------------------------------------------------------------ */

static int
test_t7_enum_host(void)
{
	unsigned int n_t, n_s;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	n_t = rte_rio_dev_count(env.t);
	n_s = rte_rio_dev_count(env.s[0]);
	printf("  tsi721 enumerated %u devices, rio_sim agent discovered %u\n", n_t, n_s);
	/* sw0, ep0, ep1, ep2 (and sw1) */
	TEST_ASSERT_EQUAL(n_t, env.n_devs, "devices enumerated from the tsi721 host");
	TEST_ASSERT_EQUAL(n_s, env.n_devs, "devices discovered by the rio_sim agent");
	TEST_ASSERT_EQUAL(t7_destid(env.t), 0, "host ID of the tsi721");
	TEST_ASSERT(t7_destid(env.s[0]) > 0 && t7_destid(env.s[1]) > 0, "agents numbered");
	TEST_ASSERT(rte_rio_dev_find_by_destid(env.s[0], 0) != NULL, "agent sees the host");
	/* The model's SRIO side (a rio_sim mport) is hidden from every mport user. */
	TEST_ASSERT_EQUAL(rte_rio_mport_count(), 3, "mports seen: the tsi721 and two rio_sim");
	TEST_ASSERT(t7_xstat("maint") > 0, "enumeration went through the maintenance engine");
	TEST_ASSERT_EQUAL(t7_xstat("maint_errors"), 0, "no maintenance error");
	return TEST_SUCCESS;
}

static int
test_t7_enum_agent(void)
{
	TEST_ASSERT_SUCCESS(t7_setup(false, 512), "setup");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(env.s[0]), env.n_devs, "devices enumerated by rio_sim");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(env.t), env.n_devs, "devices discovered by the tsi721");
	TEST_ASSERT(t7_destid(env.t) > 0, "the tsi721 agent got a device ID");
	TEST_ASSERT(rte_rio_dev_find_by_destid(env.t, t7_destid(env.s[0])) != NULL,
		    "the tsi721 agent sees the host");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Scan at probe, host and agents in any order, in one process and two */

#define T7_DISC_MS	10000	/* agents' disc_timeout: a probe that waited would show */
#define T7_HELLO	0x7721
#define T7_REPLY	0x1277

struct t7_db {
	unsigned int n;
	struct rte_rio_dbell last;
};

static void
t7_db_cb(struct rte_rio_mport *mport __rte_unused, void *arg, const struct rte_rio_dbell *db)
{
	struct t7_db *d = arg;

	d->n++;
	d->last = *db;
}

static int
t7_db_wait_ms(struct rte_rio_mport *m, struct t7_db *d, unsigned int n, unsigned int wait_ms)
{
	unsigned int ms;

	for (ms = 0; ms < wait_ms && d->n < n; ms++)
		if (rte_rio_dbell_poll(m, 64) == 0)
			rte_delay_us_sleep(1000);
	return d->n >= n ? 0 : -ETIMEDOUT;
}

static int
t7_db_wait(struct rte_rio_mport *m, struct t7_db *d, unsigned int n)
{
	return t7_db_wait_ms(m, d, n, T7_WAIT_MS);
}

/* An agent's discovery goes on in the background: wait for it. */
static int
t7_wait_scanned(struct rte_rio_mport *m)
{
	unsigned int ms;

	for (ms = 0; ms < T7_DISC_MS && !rte_rio_mport_scanned(m); ms += 10)
		rte_delay_us_sleep(10000);
	return rte_rio_mport_scanned(m) ? 0 : -ETIMEDOUT;
}

/*
 * Once @m has its view of the fabric: an agent says hello to the host (ID 0)
 * and waits for the reply, the host answers the hello it gets. -errno, or
 * 0 with the peer's ID in *peer.
 */
static int
t7_hello(struct rte_rio_mport *m, uint16_t *peer)
{
	struct t7_db d = { 0 };
	int ret;

	ret = rte_rio_request_inb_dbell(m, T7_HELLO, T7_HELLO, t7_db_cb, &d);
	if (ret == 0)
		ret = rte_rio_request_inb_dbell(m, T7_REPLY, T7_REPLY, t7_db_cb, &d);
	if (ret == 0)
		ret = t7_wait_scanned(m);
	if (ret == 0 && rte_rio_mport_destid(m) != 0) {
		*peer = 0;
		ret = rte_rio_send_doorbell(m, 0, T7_HELLO);
		if (ret == 0)
			ret = t7_db_wait_ms(m, &d, 1, T7_DISC_MS);
		if (ret == 0 && (d.last.info != T7_REPLY || d.last.src != 0))
			ret = -EPROTO;
	} else if (ret == 0) {
		ret = t7_db_wait_ms(m, &d, 1, T7_DISC_MS);
		if (ret == 0 && d.last.info != T7_HELLO)
			ret = -EPROTO;
		if (ret == 0) {
			*peer = d.last.src;
			ret = rte_rio_send_doorbell(m, d.last.src, T7_REPLY);
		}
	}
	rte_rio_release_inb_dbell(m, T7_REPLY, T7_REPLY);
	rte_rio_release_inb_dbell(m, T7_HELLO, T7_HELLO);
	return ret;
}

/* rte_vdev_init() with scan at probe: it must not wait for a host (*ms). */
static int
t7_probe(const char *name, const char *args, uint64_t *ms)
{
	uint64_t t0 = rte_get_timer_cycles();
	int ret = rte_vdev_init(name, args);

	*ms = (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
	if (ret == 0 && *ms >= T7_DISC_MS / 2) {
		printf("  probe of %s took %" PRIu64 " ms: it waited for a host\n", name, *ms);
		return -ETIME;
	}
	return ret;
}

/*
 * One process: the tsi721 model (ep0) and rio_sim (ep1) as host and agent
 * (tsi_host says which), rio_sim on ep2 an agent, each scanning at probe;
 * the host probed first or last. Every mport ends with the whole fabric,
 * and the two ends exchange doorbells.
 */
static int
t7_probe_order(bool tsi_host, bool host_first)
{
	char args[3][256];
	const char *names[3] = { env.tsi, env.sim[0], env.sim[1] };
	bool *up[3] = { &env.tsi_up, &env.sim_up[0], &env.sim_up[1] };
	struct rte_rio_mport *m[3];
	unsigned int order[3], i, host = tsi_host ? 0 : 1;
	struct t7_db d = { 0 };
	uint64_t ms;

	TEST_ASSERT_SUCCESS(t7_env_init(tsi_host, 512), "fabric");
	printf("  %s host probed %s\n", tsi_host ? "tsi721" : "rio_sim",
	       host_first ? "first" : "last");
	for (i = 0; i < 3; i++)
		snprintf(args[i], sizeof(args[i]),
			 "fabric=%s,topology=%s,endpoint=ep%u,disc_timeout=%u%s", env.fabric,
			 env.topo, i, T7_DISC_MS, i == host ? ",host=0" : "");
	order[0] = host_first ? host : 1 - host;
	order[1] = host_first ? 1 - host : 2;
	order[2] = host_first ? 2 : host;
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(t7_probe(names[order[i]], args[order[i]], &ms), "probe %s",
				    names[order[i]]);
		*up[order[i]] = true;
		printf("    %s probed in %" PRIu64 " ms\n", names[order[i]], ms);
	}
	m[0] = rte_pmd_tsi721_mport(rte_rawdev_get_dev_id(env.tsi));
	m[1] = rte_rio_mport_find(env.sim[0]);
	m[2] = rte_rio_mport_find(env.sim[1]);
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_NOT_NULL(m[i], "mport of %s", names[i]);
		TEST_ASSERT_SUCCESS(t7_wait_scanned(m[i]), "%s has no view of the fabric",
				    names[i]);
		TEST_ASSERT_EQUAL(rte_rio_dev_count(m[i]), env.n_devs, "devices seen by %s",
				  names[i]);
	}
	TEST_ASSERT_EQUAL(t7_destid(m[host]), 0, "host ID");
	TEST_ASSERT(rte_rio_dev_find_by_destid(m[1 - host], 0) != NULL, "the agent sees the host");
	/* Doorbells both ways between the tsi721 and rio_sim on ep1. */
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(m[0], 0, 0xffff, t7_db_cb, &d), "claim");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(m[1], t7_destid(m[0]), 0x55), "rio_sim->tsi721");
	TEST_ASSERT_SUCCESS(t7_db_wait(m[0], &d, 1), "doorbell at the tsi721");
	TEST_ASSERT_EQUAL(d.last.src, t7_destid(m[1]), "its source");
	rte_rio_release_inb_dbell(m[0], 0, 0xffff);
	memset(&d, 0, sizeof(d));
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(m[1], 0, 0xffff, t7_db_cb, &d), "claim");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(m[0], t7_destid(m[1]), 0x66), "tsi721->rio_sim");
	TEST_ASSERT_SUCCESS(t7_db_wait(m[1], &d, 1), "doorbell at rio_sim");
	TEST_ASSERT_EQUAL(d.last.src, t7_destid(m[0]), "its source");
	rte_rio_release_inb_dbell(m[1], 0, 0xffff);
	return TEST_SUCCESS;
}

static int
test_t7_probe_scan(void)
{
	unsigned int k;
	int ret;

	for (k = 0; k < 4; k++) {
		ret = t7_probe_order((k & 1) != 0, (k & 2) != 0);
		if (t7_teardown() != 0 || ret != TEST_SUCCESS)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* Child: args <mport name>; its vdev (tsi721 model) is in the EAL args. */
static int
t7_child_peer(int argc, char **argv)
{
	struct rte_rio_mport *m;
	uint16_t peer;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 10;
	argc = rio_test_child_args(argc, argv, ret, &argv);
	if (argc < 1)
		return 11;
	ret = rte_rawdev_get_dev_id(argv[0]);
	m = ret >= 0 && ret < RTE_RAWDEV_MAX_DEVS ? rte_pmd_tsi721_mport((uint16_t)ret) : NULL;
	if (m == NULL)
		return 12;
	ret = t7_hello(m, &peer);
	if (ret < 0) {
		printf("  child %s: %s\n", argv[0], strerror(-ret));
		return 13;
	}
	printf("  child %s (ID %d) and %u exchanged doorbells\n", argv[0], t7_destid(m), peer);
	ret = rte_vdev_uninit(argv[0]) == 0 ? 0 : 14;
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(tsi721_peer, t7_child_peer);

/*
 * Two processes: this one runs rio_sim on ep1 and probes first, a child runs
 * the tsi721 model on ep0 (agent of our host, or host of our agent). The
 * tsi721 agent finds the fabric enumerated; our agent waits for the tsi721
 * host in the background.
 */
static int
t7_two_procs(bool tsi_host)
{
	char args[256], vdev[320], prefix[64], name[32];
	char *argv[12];
	struct rte_rio_mport *m;
	unsigned int i = 0;
	uint16_t peer;
	uint64_t ms;
	pid_t pid;
	int ret, status;

	TEST_ASSERT_SUCCESS(t7_env_init(tsi_host, 512), "fabric");
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep1,disc_timeout=%u%s",
		 env.fabric, env.topo, T7_DISC_MS, tsi_host ? "" : ",host=0");
	TEST_ASSERT_SUCCESS(t7_probe(env.sim[0], args, &ms), "probe %s", env.sim[0]);
	env.sim_up[0] = true;
	m = rte_rio_mport_find(env.sim[0]);
	TEST_ASSERT_NOT_NULL(m, "mport");
	snprintf(name, sizeof(name), "tsi721_model_c%u", t7_counter);
	snprintf(vdev, sizeof(vdev), "%s,fabric=%s,topology=%s,endpoint=ep0,disc_timeout=%u%s",
		 name, env.fabric, env.topo, T7_DISC_MS, tsi_host ? ",host=0" : "");
	snprintf(prefix, sizeof(prefix), "--file-prefix=%sc", env.fabric);
	argv[i++] = (char *)"--no-huge";
	argv[i++] = (char *)"-m";
	argv[i++] = (char *)"128";
	argv[i++] = (char *)"--no-pci";
	argv[i++] = prefix;
	argv[i++] = (char *)"--log-level=lib.eal:error";
	argv[i++] = (char *)"--vdev";
	argv[i++] = vdev;
	argv[i++] = (char *)"--";
	argv[i++] = name;
	argv[i] = NULL;
	printf("  rio_sim %s here, tsi721 %s in a child\n", tsi_host ? "agent" : "host",
	       tsi_host ? "host" : "agent");
	pid = rio_test_spawn("tsi721_peer", argv);
	TEST_ASSERT(pid > 0, "spawn: %d", (int)pid);
	ret = t7_hello(m, &peer);
	status = rio_test_wait(pid, 2 * T7_DISC_MS + 10000);
	snprintf(prefix, sizeof(prefix), "%sc", env.fabric);
	rio_test_runtime_dir_cleanup(prefix);
	TEST_ASSERT_SUCCESS(ret, "doorbells with the child: %s", strerror(-ret));
	TEST_ASSERT_EQUAL(status, 0, "child exit");
	TEST_ASSERT_EQUAL(rte_rio_dev_count(m), env.n_devs, "devices seen here");
	return TEST_SUCCESS;
}

static int
test_t7_two_processes(void)
{
	int ret;

	ret = t7_two_procs(false);
	if (t7_teardown() != 0 || ret != TEST_SUCCESS)
		return TEST_FAILED;
	ret = t7_two_procs(true);
	if (t7_teardown() != 0 || ret != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static int
test_t7_config(void)
{
	struct rte_rio_dev *sw;
	struct rte_rio_dev_info di;
	uint32_t v = 0;
	uint16_t v16 = 0;
	uint8_t v8 = 0;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(env.t, RTE_RIO_DEV_ID_CAR, &v), "lcread");
	TEST_ASSERT_EQUAL(v, ((uint32_t)TSI721_RIO_DEVICE_ID << 16) | TSI721_RIO_VENDOR_ID,
			  "Device Identity CAR of the part");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_16(env.t, RTE_RIO_DEV_ID_CAR, &v16), "16");
	TEST_ASSERT_EQUAL(v16, TSI721_RIO_DEVICE_ID, "16-bit lane 0");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_8(env.t, RTE_RIO_DEV_ID_CAR + 3, &v8), "8");
	TEST_ASSERT_EQUAL(v8, TSI721_RIO_VENDOR_ID & 0xff, "8-bit lane 3");
	/* The register as the driver reads BAR0 is the endpoint's as the fabric sees it. */
	TEST_ASSERT_EQUAL(t7_reg(RTE_RIO_DEV_ID_CAR), v, "BAR0 and config space agree");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(env.s[0], t7_destid(env.t),
							   RTE_RIO_HOPCOUNT_DIRECT,
							   RTE_RIO_DEV_ID_CAR, &v), "remote read");
	TEST_ASSERT_EQUAL(v >> 16, TSI721_RIO_DEVICE_ID, "remote view of the part");
	/* Maintenance to the switch, hop 0, and a 16-bit write through 4-byte requests. */
	sw = rte_rio_dev_next(env.t, NULL);
	while (sw != NULL && (rte_rio_dev_info_get(sw, &di) != 0 || di.type != RTE_RIO_DEV_SWITCH))
		sw = rte_rio_dev_next(env.t, sw);
	TEST_ASSERT_NOT_NULL(sw, "switch found");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(env.t, di.destid, di.hopcount,
							   RTE_RIO_PEF_CAR, &v), "switch PEF");
	TEST_ASSERT(v & RTE_RIO_PEF_SWITCH, "the switch says it is one");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_16(env.t, t7_destid(env.s[1]),
							    RTE_RIO_HOPCOUNT_DIRECT,
							    RTE_RIO_COMPONENT_TAG_CSR + 2, 0xbeef),
			    "16-bit remote write");
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(env.s[1], RTE_RIO_COMPONENT_TAG_CSR, &v),
			    "read back");
	TEST_ASSERT_EQUAL(v & 0xffff, 0xbeef, "lane written, the other kept");
	/* A dead link: no response, counted. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "ep0", 0, false), "down");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(env.t, t7_destid(env.s[1]),
							 RTE_RIO_HOPCOUNT_DIRECT,
							 RTE_RIO_DEV_ID_CAR, &v), -ETIMEDOUT,
			  "maintenance over a dead link times out");
	TEST_ASSERT_EQUAL(t7_xstat("maint_errors"), 1, "counted");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "ep0", 0, true), "up");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(env.t, t7_destid(env.s[1]),
							   RTE_RIO_HOPCOUNT_DIRECT,
							   RTE_RIO_DEV_ID_CAR, &v),
			    "the maintenance channel started over");
	TEST_ASSERT_EQUAL(t7_xstat("link_up"), 1, "link up");
	return TEST_SUCCESS;
}


static int
test_t7_doorbells(void)
{
	struct t7_db dt = { 0 }, ds = { 0 };
	unsigned int i;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(env.t, 0, 0xffff, t7_db_cb, &dt), "claim");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(env.s[0], 0, 0xffff, t7_db_cb, &ds), "claim");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.t, t7_destid(env.s[0]), 0x1234), "tsi->sim");
	TEST_ASSERT_SUCCESS(t7_db_wait(env.s[0], &ds, 1), "received by rio_sim");
	TEST_ASSERT_EQUAL(ds.last.info, 0x1234, "info");
	TEST_ASSERT_EQUAL(ds.last.src, t7_destid(env.t), "source");
	/*
	 * More than the part's queue holds go through it in order, polled on
	 * the way (bare_model fills the queue).
	 */
	for (i = 0; i < 700; i++) {
		TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.s[0], t7_destid(env.t), i),
				    "sim->tsi %u", i);
		if (i % 100 == 99)
			TEST_ASSERT_SUCCESS(t7_db_wait(env.t, &dt, i + 1), "received %u", i + 1);
	}
	TEST_ASSERT_SUCCESS(t7_db_wait(env.t, &dt, 700), "received by the tsi721");
	TEST_ASSERT_EQUAL(dt.last.info, 699, "last info");
	TEST_ASSERT_EQUAL(dt.last.src, t7_destid(env.s[0]), "source");
	TEST_ASSERT_EQUAL(dt.last.dst, t7_destid(env.t), "target");
	TEST_ASSERT_EQUAL(t7_xstat("dbell_rx"), 700, "counted by the driver");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(env.t, 0x77, 1), -ETIMEDOUT, "to nobody");
	rte_rio_release_inb_dbell(env.t, 0, 0xffff);
	rte_rio_release_inb_dbell(env.s[0], 0, 0xffff);
	return TEST_SUCCESS;
}

/* Open mailbox 0 both ways on a and b, post receive buffers on b. */
static int
t7_mbox_open(struct rte_rio_mport *a, struct rte_rio_mport *b, void *rx, unsigned int nbuf)
{
	unsigned int i;
	int ret;

	ret = rte_rio_request_outb_mbox(a, 0, T7_MBOX_ENTRIES);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(b, 0, T7_MBOX_ENTRIES);
	for (i = 0; ret == 0 && i < nbuf; i++)
		ret = rte_rio_add_inb_buffer(b, 0, RTE_PTR_ADD(rx, (size_t)i * RTE_RIO_MAX_MSG_SIZE));
	return ret;
}

static void
t7_mbox_close(struct rte_rio_mport *a, struct rte_rio_mport *b)
{
	rte_rio_release_outb_mbox(a, 0);
	rte_rio_release_inb_mbox(b, 0);
}

static void *
t7_recv(struct rte_rio_mport *m, size_t *len, uint16_t *src)
{
	unsigned int ms;
	void *buf = NULL;

	for (ms = 0; ms < T7_WAIT_MS && buf == NULL; ms++) {
		buf = rte_rio_get_inb_message(m, 0, len, src);
		if (buf == NULL)
			rte_delay_us_sleep(1000);
	}
	return buf;
}

/* Messages a -> b of several sizes; the tsi721 end sees whole double-words. */
static int
t7_msgs(struct rte_rio_mport *a, struct rte_rio_mport *b, uint8_t *tx, uint8_t *rx)
{
	static const uint16_t sizes[] = { 8, 61, 64, 1500, 1514, 4095, 4096 };
	unsigned int k, j, round;
	size_t len, want;
	uint16_t src;
	void *buf;

	TEST_ASSERT_SUCCESS(t7_mbox_open(a, b, rx, 8), "open mailboxes");
	/* Three rounds: the outbound ring of 64 wraps through its link descriptor. */
	for (round = 0; round < 30; round++) {
		for (k = 0; k < RTE_DIM(sizes); k++) {
			for (j = 0; j < sizes[k]; j++)
				tx[j] = (uint8_t)(j * 13 + k + round);
			TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(a, t7_destid(b), 0, k & 3, tx,
								     sizes[k]),
					    "send %u bytes", sizes[k]);
			buf = t7_recv(b, &len, &src);
			TEST_ASSERT_NOT_NULL(buf, "%u bytes not received", sizes[k]);
			want = RTE_ALIGN_CEIL(sizes[k], 8u);
			TEST_ASSERT_EQUAL(len, want, "length of a %u-byte message", sizes[k]);
			TEST_ASSERT_EQUAL(src, t7_destid(a), "source");
			TEST_ASSERT(memcmp(buf, tx, sizes[k]) == 0, "payload of %u bytes", sizes[k]);
			for (j = sizes[k]; j < want; j++)
				TEST_ASSERT_EQUAL(((uint8_t *)buf)[j], 0, "padding is zero");
			TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(b, 0, buf), "repost");
		}
	}
	rte_rio_outb_completions(a, 0);
	t7_mbox_close(a, b);
	return TEST_SUCCESS;
}

static int
test_t7_messages(void)
{
	uint8_t *tx = rte_malloc(NULL, RTE_RIO_MAX_MSG_SIZE, 8);
	uint8_t *rx = rte_malloc(NULL, 8 * RTE_RIO_MAX_MSG_SIZE, 8);
	int ret = TEST_FAILED;

	if (tx == NULL || rx == NULL)
		goto out;
	if (t7_setup(true, 512) != 0)
		goto out;
	printf("  tsi721 -> rio_sim\n");
	if (t7_msgs(env.t, env.s[0], tx, rx) != TEST_SUCCESS)
		goto out;
	printf("  rio_sim -> tsi721\n");
	if (t7_msgs(env.s[0], env.t, tx, rx) != TEST_SUCCESS)
		goto out;
	if (t7_xstat("mbox0_tx_msgs") != 210 || t7_xstat("mbox0_rx_msgs") != 210) {
		printf("  driver counted %" PRIu64 " sent, %" PRIu64 " received\n",
		       t7_xstat("mbox0_tx_msgs"), t7_xstat("mbox0_rx_msgs"));
		goto out;
	}
	ret = t7_xstat("model_desc_bad") == 0 && t7_xstat("model_misaligned") == 0 &&
		t7_xstat("model_overrun") == 0 && t7_xstat("model_dma_bad") == 0 ?
		TEST_SUCCESS : TEST_FAILED;
	if (ret != TEST_SUCCESS)
		printf("  the model rejected something the driver did\n");
out:
	rte_free(tx);
	rte_free(rx);
	return ret;
}

static int
test_t7_port_write(void)
{
	struct rte_rio_pw_msg pw[4];
	unsigned int ms;
	int n = 0;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	/* ep2's link goes down: the switch reports it to the host, the part captures it. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "sw0", 2, false),
			    "link down");
	for (ms = 0; ms < T7_WAIT_MS && n == 0; ms++) {
		n = rte_rio_pw_fetch(env.t, pw, RTE_DIM(pw));
		if (n == 0)
			rte_delay_us_sleep(1000);
	}
	TEST_ASSERT(n > 0, "port-write captured (%d)", n);
	TEST_ASSERT_EQUAL(pw[0].len, TSI721_PW_CAPT_SIZE, "the part keeps 16 bytes");
	TEST_ASSERT_EQUAL(pw[0].em.is_port & 0xff, 2, "port that changed");
	TEST_ASSERT(t7_xstat("pw_rx") >= 1, "counted");
	TEST_ASSERT_EQUAL(t7_reg(TSI721_RIO_PW_RX_STAT) & TSI721_RIO_PW_RX_STAT_PW_VAL, 0,
			  "capture released");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The model's checks: what the part rejects is seen and counted       */

static int
test_t7_model_checks(void)
{
	const struct rte_memzone *mz;
	struct tsi721_omsg_desc *d;
	struct tsi721_dma_desc *bd;
	uint64_t before, iova;
	uint32_t sts, wp;
	const unsigned int ch = 7;	/* a messaging channel the driver does not use */

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	mz = rte_memzone_reserve_aligned("t7_checks", 4096, SOCKET_ID_ANY,
					 RTE_MEMZONE_IOVA_CONTIG, 4096);
	TEST_ASSERT_NOT_NULL(mz, "memzone");
	memset(mz->addr, 0, 4096);
	iova = mz->iova;

	/* Misaligned descriptor base: the channel does not start. */
	before = t7_xstat("model_misaligned");
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DPTRH(ch), (uint32_t)(iova >> 32));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DPTRL(ch), (uint32_t)iova + 8);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DSBH(ch), (uint32_t)(iova >> 32));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DSBL(ch), (uint32_t)iova + 2048);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DSSZ(ch), 1);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_CTL(ch), TSI721_OBDMAC_CTL_INIT);
	TEST_ASSERT_EQUAL(t7_xstat("model_misaligned"), before + 1, "misaligned base counted");
	TEST_ASSERT(t7_reg(TSI721_OBDMAC_STS(ch)) & TSI721_OBDMAC_STS_ABORT, "channel stopped");

	/* Bad descriptor: a type the messaging engine does not know. */
	before = t7_xstat("model_desc_bad");
	d = mz->addr;
	d[0].type_id = rte_cpu_to_le_32(7u << TSI721_DTYPE_SHIFT);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DPTRL(ch), (uint32_t)iova);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_CTL(ch), TSI721_OBDMAC_CTL_INIT);
	TEST_ASSERT_EQUAL(t7_reg(TSI721_OBDMAC_STS(ch)) & TSI721_OBDMAC_STS_ABORT, 0, "started");
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DWRCNT(ch), 1);
	TEST_ASSERT_EQUAL(t7_xstat("model_desc_bad"), before + 1, "bad descriptor counted");
	sts = t7_reg(TSI721_OBDMAC_STS(ch));
	TEST_ASSERT(sts & TSI721_OBDMAC_STS_ABORT, "channel aborted");
	TEST_ASSERT(t7_reg(TSI721_OBDMAC_INT(ch)) & TSI721_OBDMAC_INT_ERROR, "error raised");

	/* A message whose buffer is outside host memory. */
	before = t7_xstat("model_dma_bad");
	d[0].type_id = rte_cpu_to_le_32((TSI721_DTYPE_OMSG << TSI721_DTYPE_SHIFT) | 1);
	d[0].msg_info = rte_cpu_to_le_32(((env.devid_size == 16 ? 1u : 0u) << 26) |
					 (TSI721_SSIZE_256 << 12) | 64);
	d[0].bufptr_lo = rte_cpu_to_le_32(0x1000);
	d[0].bufptr_hi = 0;
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_CTL(ch), TSI721_OBDMAC_CTL_INIT);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DWRCNT(ch), 1);
	TEST_ASSERT_EQUAL(t7_xstat("model_dma_bad"), before + 1, "bad DMA address counted");
	TEST_ASSERT(t7_reg(TSI721_OBDMAC_STS(ch)) & TSI721_OBDMAC_STS_ABORT, "aborted");

	/* Misaligned message buffer. */
	before = t7_xstat("model_misaligned");
	d[0].bufptr_lo = rte_cpu_to_le_32((uint32_t)iova + 1024 + 4);
	d[0].bufptr_hi = rte_cpu_to_le_32((uint32_t)(iova >> 32));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_CTL(ch), TSI721_OBDMAC_CTL_INIT);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_OBDMAC_DWRCNT(ch), 1);
	TEST_ASSERT_EQUAL(t7_xstat("model_misaligned"), before + 1, "misaligned buffer counted");

	/* Maintenance of 8 bytes: the part does 4-byte maintenance only. */
	before = t7_xstat("model_desc_bad");
	bd = RTE_PTR_ADD(mz->addr, 512);
	bd[0].type_id = rte_cpu_to_le_32((TSI721_DTYPE_IMM << TSI721_DTYPE_SHIFT) |
					 (TSI721_RTYPE_MAINT_RD << 19) | 1);
	bd[0].bcount = rte_cpu_to_le_32(((env.devid_size == 16 ? 1u : 0u) << 26) | 8);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DPTRH,
				 (uint32_t)(iova >> 32));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DPTRL,
				 (uint32_t)iova + 512);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DSBH,
				 (uint32_t)(iova >> 32));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DSBL,
				 (uint32_t)iova + 2048);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DSSZ, 1);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_CTL,
				 TSI721_DMAC_CTL_INIT);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DWRCNT, 1);
	TEST_ASSERT_EQUAL(t7_xstat("model_desc_bad"), before + 1, "8-byte maintenance refused");
	TEST_ASSERT(t7_reg(TSI721_DMAC_BASE(0) + TSI721_DMAC_STS) & TSI721_DMAC_STS_ABORT,
		    "maintenance channel aborted");

	/* Overrun: the doorbell queue's read pointer moved past its write pointer. */
	before = t7_xstat("model_overrun");
	wp = t7_reg(TSI721_IDQ_WP(0));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_IDQ_RP(0), (wp + 5) % TSI721_IDQ_SIZE_MIN);
	TEST_ASSERT_EQUAL(t7_xstat("model_overrun"), before + 1, "doorbell queue overrun counted");
	TEST_ASSERT_EQUAL(t7_reg(TSI721_IDQ_RP(0)), wp, "pointer write refused");
	/* Overrun: a write count taken back. */
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_CTL,
				 TSI721_DMAC_CTL_INIT);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DWRCNT, 0);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DMAC_BASE(0) + TSI721_DMAC_DWRCNT,
				 0xfffffff0);
	TEST_ASSERT_EQUAL(t7_xstat("model_overrun"), before + 2, "write count taken back");

	/* The driver's own engines are untouched: traffic still flows. */
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.t, t7_destid(env.s[0]), 7), "doorbell");
	TEST_ASSERT_EQUAL(t7_xstat("model_desc_bad") + t7_xstat("model_misaligned") +
			  t7_xstat("model_overrun") + t7_xstat("model_dma_bad"), 7,
			  "every rejection counted once");
	rte_memzone_free(mz);
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Faults                                                             */

static int
test_t7_link_down(void)
{
	uint8_t tx[64] = { 1 };
	uint64_t resets;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(env.t, 0, T7_MBOX_ENTRIES), "open");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "ep0", 0, false), "down");
	TEST_ASSERT_EQUAL(t7_xstat("link_up"), 0, "link down seen by the driver");
	resets = t7_xstat("mbox0_tx_resets");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.t, t7_destid(env.s[0]), 0, 0, tx,
						   sizeof(tx)), -ETIMEDOUT, "message on a dead link");
	TEST_ASSERT_EQUAL(t7_xstat("mbox0_tx_resets"), resets + 1, "channel started over");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(env.t, t7_destid(env.s[0]), 1), -ETIMEDOUT,
			  "doorbell on a dead link");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "ep0", 0, true), "up");
	TEST_ASSERT_EQUAL(t7_xstat("link_up"), 1, "link up again");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.t, t7_destid(env.s[0]), 2), "doorbell");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.s[0], 0, T7_MBOX_ENTRIES), "open rx");
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.t, t7_destid(env.s[0]), 0, 0, tx,
						     sizeof(tx)), "message after the link is back");
	rte_rio_release_inb_mbox(env.s[0], 0);
	rte_rio_release_outb_mbox(env.t, 0);
	return TEST_SUCCESS;
}

/*
 * The target's ring (8 slots in the fabric) fills: the part keeps the head
 * message and retries, the driver's ring fills behind it and back-pressures
 * with -EAGAIN; once the target drains, every accepted message arrives, in
 * order, none lost.
 */
static int
test_t7_ring_full(void)
{
	struct rte_rio_msg m;
	uint32_t seq, accepted = 0, got = 0, v;
	uint8_t *rx = rte_malloc(NULL, 8 * RTE_RIO_MAX_MSG_SIZE, 8);
	unsigned int ms;
	uint16_t src;
	size_t len;
	void *buf;
	int ret;

	TEST_ASSERT_NOT_NULL(rx, "memory");
	ret = t7_setup(true, 8);
	if (ret == 0)
		ret = rte_rio_request_outb_mbox(env.t, 0, 32);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(env.s[0], 0, 8);
	for (v = 0; ret == 0 && v < 8; v++)
		ret = rte_rio_add_inb_buffer(env.s[0], 0, rx + v * RTE_RIO_MAX_MSG_SIZE);
	if (ret != 0) {
		rte_free(rx);
		TEST_ASSERT_SUCCESS(ret, "setup");
	}
	for (seq = 0; seq < 200; seq++) {
		uint64_t payload = seq;	/* a message is at least one double-word */

		memset(&m, 0, sizeof(m));
		m.buf = &payload;
		m.len = sizeof(payload);
		m.destid = t7_destid(env.s[0]);
		if (rte_rio_send_messages(env.t, 0, &m, 1) != 1) {
			TEST_ASSERT_EQUAL(m.status, -EAGAIN, "back-pressure, not an error");
			break;
		}
		accepted++;
	}
	printf("  %u messages accepted before back-pressure\n", accepted);
	TEST_ASSERT(accepted >= 32 && accepted < 200, "the rings filled");
	TEST_ASSERT(t7_xstat("model_msg_tx_retry") > 0, "the part saw RETRY");
	TEST_ASSERT(t7_xstat("retry_rx_cnt") > 0, "and counts it");
	for (ms = 0; ms < T7_WAIT_MS && got < accepted; ms++) {
		buf = rte_rio_get_inb_message(env.s[0], 0, &len, &src);
		if (buf == NULL) {
			/* The part retries when the driver looks at it. */
			rte_rio_outb_completions(env.t, 0);
			rte_delay_us_sleep(1000);
			continue;
		}
		memcpy(&v, buf, sizeof(v));
		TEST_ASSERT_EQUAL(v, got, "in order, none lost");
		got++;
		rte_rio_add_inb_buffer(env.s[0], 0, buf);
	}
	TEST_ASSERT_EQUAL(got, accepted, "every accepted message arrived");
	TEST_ASSERT_EQUAL(t7_xstat("mbox0_tx_errors"), 0, "nothing lost");
	rte_rio_release_inb_mbox(env.s[0], 0);
	rte_rio_release_outb_mbox(env.t, 0);
	rte_free(rx);
	return TEST_SUCCESS;
}

/*
 * The part writes a message straight into a free buffer of the host, taken
 * at its first segment: a message that finds none gets RETRY. With 4 free
 * buffers posted and nothing received, the fifth message is refused
 * (-EAGAIN) and counted in RETRY_GEN_CNT; once the host received the four
 * and posted their buffers again, four more go in, all whole and in order.
 */
static int
test_t7_free_buffers(void)
{
	uint8_t *rx = rte_malloc(NULL, 4 * RTE_RIO_MAX_MSG_SIZE, 8);
	uint64_t retry_gen, payload;
	unsigned int i, round;
	struct rte_rio_msg m;
	uint16_t src;
	size_t len;
	void *buf;
	int ret;

	TEST_ASSERT_NOT_NULL(rx, "memory");
	ret = t7_setup(true, 512);
	if (ret == 0)
		ret = rte_rio_request_outb_mbox(env.s[0], 0, T7_MBOX_ENTRIES);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(env.t, 0, T7_MBOX_ENTRIES);
	for (i = 0; ret == 0 && i < 4; i++)
		ret = rte_rio_add_inb_buffer(env.t, 0, rx + i * RTE_RIO_MAX_MSG_SIZE);
	if (ret != 0) {
		rte_free(rx);
		TEST_ASSERT_SUCCESS(ret, "setup");
	}
	retry_gen = t7_xstat("retry_gen_cnt");
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 5; i++) {
			payload = round * 4 + i;
			m = (struct rte_rio_msg){ .buf = &payload, .len = sizeof(payload),
						  .destid = t7_destid(env.t) };
			if (rte_rio_send_messages(env.s[0], 0, &m, 1) != 1)
				break;
		}
		TEST_ASSERT_EQUAL(i, 4, "round %u: %u messages into 4 free buffers", round, i);
		TEST_ASSERT_EQUAL(m.status, -EAGAIN, "round %u: the fifth not RETRY", round);
		TEST_ASSERT(t7_xstat("retry_gen_cnt") > retry_gen, "round %u: RETRY_GEN_CNT",
			    round);
		retry_gen = t7_xstat("retry_gen_cnt");
		for (i = 0; i < 4; i++) {
			buf = t7_recv(env.t, &len, &src);
			TEST_ASSERT_NOT_NULL(buf, "round %u: message %u not received", round, i);
			memcpy(&payload, buf, sizeof(payload));
			TEST_ASSERT_EQUAL(payload, round * 4 + i, "in order, once");
			TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.t, 0, buf), "post again");
		}
		/* The sender's mailbox waits for the RETRY's response before it sends on. */
		rte_delay_us_sleep(10000);
	}
	rte_rio_release_inb_mbox(env.t, 0);
	rte_rio_release_outb_mbox(env.s[0], 0);
	rte_free(rx);
	return TEST_SUCCESS;
}

/*
 * A message the part takes needs a descriptor as well as a free buffer: with
 * the inbound descriptor queue cut to 16 entries (15 held) under 17 posted
 * buffers and nothing received, the sixteenth message gets RETRY (-EAGAIN),
 * counted in RETRY_GEN_CNT, though a free buffer is left; once the host
 * received one, it goes in, and all arrive whole and in order.
 */
static int
test_t7_dq_full(void)
{
	const unsigned int ch = TSI721_IMSG_CHAN(0), dq_held = 15, n_bufs = dq_held + 2;
	uint8_t *rx = rte_malloc(NULL, n_bufs * RTE_RIO_MAX_MSG_SIZE, 8);
	uint64_t retry_gen, payload;
	struct rte_rio_msg m;
	unsigned int i, ms;
	uint16_t src;
	size_t len;
	void *buf;
	int ret;

	TEST_ASSERT_NOT_NULL(rx, "memory");
	ret = t7_setup(true, 512);
	if (ret == 0)
		ret = rte_rio_request_outb_mbox(env.s[0], 0, T7_MBOX_ENTRIES);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(env.t, 0, 32);	/* queues of 64 */
	if (ret != 0) {
		rte_free(rx);
		TEST_ASSERT_SUCCESS(ret, "setup");
	}
	/* The descriptor queue shrinks to 16 entries; the driver reads it before any wrap. */
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_IBDMAC_DQSZ(ch),
				 TSI721_QSIZE_VAL(dq_held + 1));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_IBDMAC_CTL(ch), TSI721_IBDMAC_CTL_INIT);
	for (i = 0; i < n_bufs; i++)
		TEST_ASSERT_EQUAL(rte_rio_add_inb_buffers(env.t, 0,
					(void * const []){ rx + i * RTE_RIO_MAX_MSG_SIZE }, 1), 1,
				  "post buffer %u", i);
	retry_gen = t7_xstat("retry_gen_cnt");
	for (i = 0; i <= dq_held; i++) {
		payload = i;
		m = (struct rte_rio_msg){ .buf = &payload, .len = sizeof(payload),
					  .destid = t7_destid(env.t) };
		if (rte_rio_send_messages(env.s[0], 0, &m, 1) != 1)
			break;
	}
	TEST_ASSERT_EQUAL(i, dq_held, "%u messages taken with %u descriptors free", i, dq_held);
	TEST_ASSERT_EQUAL(m.status, -EAGAIN, "the next not RETRY: %d", m.status);
	TEST_ASSERT(t7_xstat("retry_gen_cnt") > retry_gen, "RETRY_GEN_CNT");
	buf = t7_recv(env.t, &len, &src);
	TEST_ASSERT_NOT_NULL(buf, "message 0 not received");
	memcpy(&payload, buf, sizeof(payload));
	TEST_ASSERT_EQUAL(payload, 0, "in order");
	/* The sender's mailbox waits for the RETRY's response before it sends on. */
	payload = dq_held;
	for (ms = 0; ms < T7_WAIT_MS; ms++) {
		m = (struct rte_rio_msg){ .buf = &payload, .len = sizeof(payload),
					  .destid = t7_destid(env.t) };
		if (rte_rio_send_messages(env.s[0], 0, &m, 1) == 1)
			break;
		TEST_ASSERT_EQUAL(m.status, -EAGAIN, "RETRY, not an error: %d", m.status);
		rte_delay_us_sleep(1000);
	}
	TEST_ASSERT(ms < T7_WAIT_MS, "a descriptor free: the message goes in");
	for (i = 1; i <= dq_held; i++) {
		buf = t7_recv(env.t, &len, &src);
		TEST_ASSERT_NOT_NULL(buf, "message %u not received", i);
		memcpy(&payload, buf, sizeof(payload));
		TEST_ASSERT_EQUAL(payload, i, "in order, once");
	}
	rte_rio_release_inb_mbox(env.t, 0);
	rte_rio_release_outb_mbox(env.s[0], 0);
	rte_free(rx);
	return TEST_SUCCESS;
}

static int
test_t7_peer_gone(void)
{
	uint8_t tx[64] = { 2 };
	uint8_t *rx = rte_malloc(NULL, 2 * RTE_RIO_MAX_MSG_SIZE, 8);
	int gone, ret;
	size_t len;
	uint16_t src;

	TEST_ASSERT_NOT_NULL(rx, "memory");
	ret = t7_setup(true, 512);
	if (ret == 0)
		ret = rte_rio_request_outb_mbox(env.t, 0, T7_MBOX_ENTRIES);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(env.s[1], 0, T7_MBOX_ENTRIES);
	if (ret == 0)
		ret = rte_rio_add_inb_buffer(env.s[1], 0, rx);
	if (ret != 0) {
		rte_free(rx);
		TEST_ASSERT_SUCCESS(ret, "setup");
	}
	gone = t7_destid(env.s[0]);
	rte_vdev_uninit(env.sim[0]);
	env.sim_up[0] = false;
	ret = rte_rio_add_outb_message(env.t, gone, 0, 0, tx, sizeof(tx));
	TEST_ASSERT(ret == -ETIMEDOUT || ret == -EIO, "message to a peer that is gone: %d", ret);
	TEST_ASSERT_EQUAL(t7_xstat("mbox0_tx_errors"), 1, "counted");
	/* The channel started over: the other peer is still served. */
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.t, t7_destid(env.s[1]), 0, 0, tx,
						     sizeof(tx)), "message to a live peer");
	TEST_ASSERT_NOT_NULL(t7_recv(env.s[1], &len, &src), "received");
	rte_rio_release_inb_mbox(env.s[1], 0);
	rte_rio_release_outb_mbox(env.t, 0);
	rte_free(rx);
	return TEST_SUCCESS;
}

static int
test_t7_devargs(void)
{
	static const char * const bad[] = {
		"fabric=x,bogus=1", "fabric=a/b", "fabric=x,host=0xffff", "fabric=x,scan=2",
		"fabric=x,disc_timeout=0", "fabric=x,fabric=y",
	};
	char name[32];
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(name, sizeof(name), "tsi721_model_bad%u", i);
		TEST_ASSERT(rte_vdev_init(name, bad[i]) < 0, "refused: %s", bad[i]);
		TEST_ASSERT(rte_rawdev_get_dev_id(name) >= RTE_RAWDEV_MAX_DEVS,
			    "nothing left: %s", bad[i]);
	}
	return TEST_SUCCESS;
}

/* Inbound doorbell queue 0 at @iova, every doorbell taken, its interrupt up to INTx. */
static void
t7_bare_idq_init(struct tsi721_model *m, uint64_t iova)
{
	rte_pmd_tsi721_model_write32(m, TSI721_IDQ_SIZE(0), TSI721_QSIZE_VAL(TSI721_IDQ_SIZE_MIN));
	rte_pmd_tsi721_model_write32(m, TSI721_IDQ_BASEU(0), (uint32_t)(iova >> 32));
	rte_pmd_tsi721_model_write32(m, TSI721_IDQ_BASEL(0), (uint32_t)iova);
	rte_pmd_tsi721_model_write32(m, TSI721_IDQ_MASK(0), 0);
	rte_pmd_tsi721_model_write32(m, TSI721_IDQ_CTL(0), TSI721_IDQ_CTL_INIT);
	rte_pmd_tsi721_model_write32(m, TSI721_SR_CHINTE(0), TSI721_SR_CHINT_IDBQRCV);
	rte_pmd_tsi721_model_write32(m, TSI721_DEV_CHAN_INTE, TSI721_INT_SR2PC_CHAN(0));
	rte_pmd_tsi721_model_write32(m, TSI721_DEV_INTE, TSI721_DEV_INT_SR2PC_CH);
}

/*
 * Interrupt summary: an inbound doorbell and a port-write show in DEV_CHAN_INT
 * and DEV_INT through their enables, without the host reading the queue's
 * write pointer first (a driver run by interrupts, as Linux's, never does);
 * RIO_EM_INT_STAT.PW_RX follows the capture, it is not latched.
 */
static int
test_t7_interrupts(void)
{
	uint32_t v;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	TEST_ASSERT_EQUAL(t7_reg(TSI721_DEV_INT), 0, "nothing pending at start");
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_SR_CHINT(0), TSI721_SR_CHINT_ALL);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_SR_CHINTE(0), TSI721_SR_CHINT_IDBQRCV);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DEV_CHAN_INTE, TSI721_INT_SR2PC_CHAN(0));
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DEV_INTE,
				 TSI721_DEV_INT_SR2PC_CH | TSI721_DEV_INT_SRIO);
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.s[0], t7_destid(env.t), 0x4242), "send");
	v = t7_reg(TSI721_DEV_INT);
	TEST_ASSERT_EQUAL(v, TSI721_DEV_INT_SR2PC_CH, "DEV_INT 0x%08x after a doorbell", v);
	v = t7_reg(TSI721_DEV_CHAN_INT);
	TEST_ASSERT_EQUAL(v, TSI721_INT_SR2PC_CHAN(0), "DEV_CHAN_INT 0x%08x", v);
	TEST_ASSERT(t7_reg(TSI721_SR_CHINT(0)) & TSI721_SR_CHINT_IDBQRCV, "IDBQRCV");
	/* Masked at the device level: still pending in the channel, not in DEV_INT. */
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_DEV_CHAN_INTE, 0);
	TEST_ASSERT_EQUAL(t7_reg(TSI721_DEV_INT), 0, "DEV_CHAN_INTE masks");
	TEST_ASSERT_EQUAL(t7_reg(TSI721_DEV_CHAN_INT), TSI721_INT_SR2PC_CHAN(0), "still pending");
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_SR_CHINT(0), TSI721_SR_CHINT_IDBQRCV);
	TEST_ASSERT_EQUAL(t7_reg(TSI721_DEV_CHAN_INT), 0, "cleared in the channel");

	/* Port-write: ep2's link goes down; the SRIO MAC's event reaches DEV_INT. */
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_RIO_EM_INT_ENABLE, TSI721_RIO_EM_INT_PW_RX);
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_RIO_EM_DEV_INT_EN,
				 TSI721_RIO_EM_DEV_INT_EN_INT);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "sw0", 2, false),
			    "link down");
	v = t7_reg(TSI721_DEV_INT);
	TEST_ASSERT_EQUAL(v, TSI721_DEV_INT_SRIO, "DEV_INT 0x%08x after a port-write", v);
	TEST_ASSERT(t7_reg(TSI721_RIO_EM_INT_STAT) & TSI721_RIO_EM_INT_PW_RX, "PW_RX");
	rte_pmd_tsi721_reg_write(env.tsi_dev, TSI721_RIO_PW_RX_STAT,
				 TSI721_RIO_PW_RX_STAT_PW_VAL | TSI721_RIO_PW_RX_STAT_PW_DISC);
	TEST_ASSERT_EQUAL(t7_reg(TSI721_RIO_EM_INT_STAT) & TSI721_RIO_EM_INT_PW_RX, 0,
			  "PW_RX follows PW_VAL");
	return TEST_SUCCESS;
}

/*
 * The model without this driver (rte_pmd_tsi721_model.h): the program drives
 * the BARs; a doorbell from the fabric lands in its queue and asserts INTx.
 */
static int
test_t7_bare_model(void)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = 5000 };
	const struct tsi721_idb_entry *e;
	uint32_t v, retry_gen;
	unsigned int i;
	uint8_t destid;
	char args[256];
	int ret = 0;

	memset(&env, 0, sizeof(env));
	env.devid_size = 8;
	TEST_ASSERT_NOT_NULL(rio_test_unique("t7b", env.fabric, sizeof(env.fabric) - 1), "name");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(t7_topo_write(8, 512), "topology");
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0,host=0", env.fabric,
		 env.topo);
	TEST_ASSERT_NULL(rte_pmd_tsi721_model_open("t7bare", args), "host is the driver's");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0", env.fabric, env.topo);
	t7_bare = rte_pmd_tsi721_model_open("t7bare", args);
	TEST_ASSERT_NOT_NULL(t7_bare, "open: %s", rte_strerror(rte_errno));
	snprintf(env.sim[0], sizeof(env.sim[0]), "rio_sim_t7b_%u", t7_counter++);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,scan=0,host=0", env.fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(env.sim[0], args), "host");
	env.sim_up[0] = true;
	env.s[0] = rte_rio_mport_find(env.sim[0]);
	TEST_ASSERT_NOT_NULL(env.s[0], "host mport");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(env.s[0], &sc), "enumerate");

	/* BAR0 below 0x10000 is the endpoint's configuration space. */
	v = rte_pmd_tsi721_model_read32(t7_bare, RTE_RIO_DEV_ID_CAR);
	TEST_ASSERT_EQUAL(v, (uint32_t)TSI721_RIO_DEVICE_ID << 16 | TSI721_RIO_VENDOR_ID,
			  "identity 0x%08x", v);
	destid = (uint8_t)(rte_pmd_tsi721_model_read32(t7_bare, RTE_RIO_DID_CSR) >> 16);
	TEST_ASSERT(destid != 0 && destid != 0xff, "device ID the host gave: %u", destid);

	t7_idq = rte_zmalloc("t7_idq", TSI721_IDQ_SIZE_MIN * TSI721_IDQ_ENTRY_SIZE, 64);
	TEST_ASSERT_NOT_NULL(t7_idq, "queue memory");
	t7_bare_idq_init(t7_bare, rte_malloc_virt2iova(t7_idq));
	TEST_ASSERT(!rte_pmd_tsi721_model_intx(t7_bare), "INTx idle");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.s[0], destid, 0xbeef), "doorbell");
	TEST_ASSERT(rte_pmd_tsi721_model_intx(t7_bare), "INTx asserted by the doorbell");
	e = (const void *)t7_idq;
	TEST_ASSERT(e->info[0] == 0xbe && e->info[1] == 0xef && e->srcid[1] == 0 &&
		    e->tgtid[1] == destid, "queue entry");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_read32(t7_bare, TSI721_IDQ_WP(0)), 1, "write ptr");
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IDQ_RP(0), 1);
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_SR_CHINT(0), TSI721_SR_CHINT_IDBQRCV);
	TEST_ASSERT(!rte_pmd_tsi721_model_intx(t7_bare), "INTx released");
	/*
	 * The part takes doorbells while its queue (512 entries: 511, the
	 * write pointer stops behind the read pointer) has room, then answers
	 * RETRY and counts it in RETRY_GEN_CNT. Sampling INTx after each lets
	 * the part take it in at once; the host does not consume.
	 */
	retry_gen = rte_pmd_tsi721_model_read32(t7_bare, TSI721_RETRY_GEN_CNT);
	for (i = 0; i < 1000; i++) {
		ret = rte_rio_send_doorbell(env.s[0], destid, (uint16_t)i);
		if (ret != 0)
			break;
		rte_pmd_tsi721_model_intx(t7_bare);
	}
	TEST_ASSERT_EQUAL(ret, -EAGAIN, "doorbell %u: not RETRY (%d)", i, ret);
	TEST_ASSERT_EQUAL(i, TSI721_IDQ_SIZE_MIN - 1, "the part took %u doorbells into a queue of "
			  "%u", i, TSI721_IDQ_SIZE_MIN);
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_read32(t7_bare, TSI721_RETRY_GEN_CNT),
			  retry_gen + 1, "RETRY_GEN_CNT");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_read32(t7_bare, TSI721_IDQ_WP(0)), 0,
			  "write pointer after a full lap");
	/* Two entries consumed: room for two. */
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IDQ_RP(0), 3);
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.s[0], destid, 1), "after the host read");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.s[0], destid, 2), "after the host read");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(env.s[0], destid, 3), -EAGAIN, "full again");
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_RETRY_GEN_CNT, 0);
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_read32(t7_bare, TSI721_RETRY_GEN_CNT), 0,
			  "RETRY_GEN_CNT cleared");
	/* BAR1: a doorbell out to the host. */
	rte_pmd_tsi721_model_db_write16(t7_bare, TSI721_TT_8 << TSI721_ODB_TT_SHIFT,
					rte_cpu_to_be_16(0x1111));
	v = rte_pmd_tsi721_model_read32(t7_bare, TSI721_SR_CHINT(0));
	TEST_ASSERT(v & TSI721_SR_CHINT_ODBOK, "doorbell out: 0x%08x", v);
	/* PC2SR zone lookup table: GO clears once the access is done; a read returns a write. */
	for (i = 0; i < 3; i++)
		rte_pmd_tsi721_model_write32(t7_bare, TSI721_LUT_DATA(i), 0x1000u * (i + 1) + 7);
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_ZONE_SEL, TSI721_ZONE_SEL_GO |
				     (3 << TSI721_ZONE_SEL_WIN_SHIFT) | 5);
	v = rte_pmd_tsi721_model_read32(t7_bare, TSI721_ZONE_SEL);
	TEST_ASSERT_EQUAL(v & TSI721_ZONE_SEL_GO, 0, "ZONE_SEL.GO still set: 0x%08x", v);
	for (i = 0; i < 3; i++)
		rte_pmd_tsi721_model_write32(t7_bare, TSI721_LUT_DATA(i), 0);
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_ZONE_SEL, TSI721_ZONE_SEL_GO |
				     TSI721_ZONE_SEL_RD_WRB | (3 << TSI721_ZONE_SEL_WIN_SHIFT) | 5);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_read32(t7_bare, TSI721_LUT_DATA(i)),
				  0x1000u * (i + 1) + 7, "zone LUT word %u", i);
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), 0, "nothing refused");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Memory space: inbound windows, NREAD / NWRITE / NWRITE_R            */

#define T7_WIN_SIZE	0x10000ull	/* 64 KiB windows */
#define T7_SIM_WIN	0x10000ull	/* rio_sim ep1's window */
#define T7_TSI_WIN	0x200000ull	/* the tsi721's window */
#define T7_NO_WIN	0x900000ull	/* no window there */

/* Transfers at these offsets into a window and of these lengths. */
static const struct {
	uint32_t off, len;
} t7_mem_xfers[] = {
	{ 0, 1 }, { 7, 1 }, { 1, 2 }, { 5, 3 }, { 3, 13 }, { 8, 8 }, { 0, 256 }, { 4, 260 },
	{ 3, 1000 }, { 0, 4096 }, { 4093, 9000 }, { 100, 30001 }, { 0, T7_WIN_SIZE },
};

static void
t7_fill(uint8_t *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)((i * 131 + seed * 7 + (i >> 8)) ^ seed);
}

/* The window of a rio_sim mport: memory of normal pages, as rio_sim needs. */
static uint8_t *
t7_sim_win_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The window of the tsi721: IOVA-contiguous DPDK memory aligned to the window size. */
static const struct rte_memzone *
t7_tsi_win_alloc(const char *name, size_t len, size_t align)
{
	const struct rte_memzone *mz;

	mz = rte_memzone_reserve_aligned(name, len, SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG,
					 align);
	if (mz != NULL)
		memset(mz->addr, 0, len);
	return mz;
}

/*
 * Round trips both ways, every offset and length of t7_mem_xfers: the
 * tsi721 writes (NWRITE, NWRITE_R) into rio_sim ep1's window and reads it
 * back (NREAD); ep1 writes into the window the tsi721 driver mapped and
 * reads it back. Each write is checked in the target's memory, with the
 * bytes around it untouched.
 */
static int
t7_mem_round_trips(void)
{
	static uint8_t src[T7_WIN_SIZE], dst[T7_WIN_SIZE], ref[T7_WIN_SIZE];
	const struct rte_memzone *mz;
	uint8_t *simw;
	uint16_t sim_id, tsi_id;
	enum rte_rio_mem_type wt;
	uint64_t mem0;
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	sim_id = (uint16_t)t7_destid(env.s[0]);
	tsi_id = (uint16_t)t7_destid(env.t);
	simw = t7_sim_win_alloc(T7_WIN_SIZE);
	TEST_ASSERT_NOT_NULL(simw, "rio_sim window memory");
	mz = t7_tsi_win_alloc("t7_mem_win", T7_WIN_SIZE, T7_WIN_SIZE);
	if (mz == NULL) {
		munmap(simw, T7_WIN_SIZE);
		TEST_ASSERT_NOT_NULL(mz, "tsi721 window memory");
	}
	ret = rte_rio_map_inb_window(env.s[0], simw, T7_SIM_WIN, T7_WIN_SIZE, 0);
	if (ret == 0)
		ret = rte_rio_map_inb_window(env.t, mz->addr, T7_TSI_WIN, T7_WIN_SIZE, 0);
	if (ret != 0)
		goto out;
	mem0 = t7_xstat("model_mem");
	for (i = 0; i < RTE_DIM(t7_mem_xfers) && ret == 0; i++) {
		uint32_t off = t7_mem_xfers[i].off, len = t7_mem_xfers[i].len;
		uint8_t *tsiw = mz->addr;

		if (off + len > T7_WIN_SIZE)
			len = T7_WIN_SIZE - off;
		wt = (i & 1) ? RTE_RIO_MEM_NWRITE_R : RTE_RIO_MEM_NWRITE;

		/* tsi721 -> rio_sim window, and back. */
		t7_fill(simw, T7_WIN_SIZE, 0xa5);
		memcpy(ref, simw, T7_WIN_SIZE);
		t7_fill(src, len, i);
		memcpy(ref + off, src, len);
		ret = rte_rio_mem_write(env.t, sim_id, T7_SIM_WIN + off, src, len, wt);
		if (ret != 0) {
			printf("  tsi721 write of %u at +%u: %d\n", len, off, ret);
			break;
		}
		if (memcmp(simw, ref, T7_WIN_SIZE) != 0) {
			printf("  tsi721 write of %u at +%u: wrong bytes in the rio_sim window\n",
			       len, off);
			ret = -EBADMSG;
			break;
		}
		memset(dst, 0, len);
		ret = rte_rio_mem_read(env.t, sim_id, T7_SIM_WIN + off, dst, len);
		if (ret != 0 || memcmp(dst, src, len) != 0) {
			printf("  tsi721 read of %u at +%u: %d or wrong bytes\n", len, off, ret);
			ret = ret != 0 ? ret : -EBADMSG;
			break;
		}

		/* rio_sim -> the tsi721's window, and back. */
		t7_fill(tsiw, T7_WIN_SIZE, 0x5a);
		memcpy(ref, tsiw, T7_WIN_SIZE);
		t7_fill(src, len, i + 1000);
		memcpy(ref + off, src, len);
		ret = rte_rio_mem_write(env.s[0], tsi_id, T7_TSI_WIN + off, src, len, wt);
		if (ret != 0) {
			printf("  rio_sim write of %u at +%u: %d\n", len, off, ret);
			break;
		}
		if (memcmp(tsiw, ref, T7_WIN_SIZE) != 0) {
			printf("  rio_sim write of %u at +%u: wrong bytes in the tsi721's window\n",
			       len, off);
			ret = -EBADMSG;
			break;
		}
		memset(dst, 0, len);
		ret = rte_rio_mem_read(env.s[0], tsi_id, T7_TSI_WIN + off, dst, len);
		if (ret != 0 || memcmp(dst, src, len) != 0) {
			printf("  rio_sim read of %u at +%u: %d or wrong bytes\n", len, off, ret);
			ret = ret != 0 ? ret : -EBADMSG;
			break;
		}
	}
	if (ret == 0 && t7_xstat("model_mem") <= mem0) {
		printf("  the model ran no data descriptor\n");
		ret = -EIO;
	}
	/* Packets that follow each other are one descriptor: the part cuts its own. */
	mem0 = t7_xstat("model_mem");
	if (ret == 0)
		ret = rte_rio_mem_write(env.t, sim_id, T7_SIM_WIN + 3, src, 1000,
					RTE_RIO_MEM_NWRITE_R);
	if (ret == 0 && t7_xstat("model_mem") != mem0 + 1) {
		printf("  1000 bytes in %" PRIu64 " descriptors\n", t7_xstat("model_mem") - mem0);
		ret = -EIO;
	}
	if (ret == 0 && (t7_xstat("mem_errors") != 0 || t7_xstat("mem") == 0)) {
		printf("  driver counters: mem %" PRIu64 ", mem_errors %" PRIu64 "\n",
		       t7_xstat("mem"), t7_xstat("mem_errors"));
		ret = -EIO;
	}
out:
	rte_rio_unmap_inb_window(env.t, T7_TSI_WIN);
	rte_rio_unmap_inb_window(env.s[0], T7_SIM_WIN);
	rte_memzone_free(mz);
	munmap(simw, T7_WIN_SIZE);
	TEST_ASSERT_SUCCESS(ret, "round trips (%u-bit IDs)", env.devid_size);
	return TEST_SUCCESS;
}

static int
test_t7_mem8(void)
{
	int ret;

	t7_force_ids = 8;
	ret = t7_mem_round_trips();
	t7_force_ids = 0;
	return ret;
}

static int
test_t7_mem16(void)
{
	int ret;

	t7_force_ids = 16;
	ret = t7_mem_round_trips();
	t7_force_ids = 0;
	return ret;
}

/*
 * Errors of the memory space on a tsi721 mport: no window at the target
 * (ERROR: -EIO for NREAD and NWRITE_R), a target gone or no route
 * (-ETIMEDOUT), SWRITE (not in the part's Source Operations), and windows
 * the driver or lib/rio refuses: memory that is not IOVA-contiguous DPDK
 * memory, an IOVA not aligned to the size, an overlap, a ninth window.
 */
static int
test_t7_mem_errors(void)
{
	const struct rte_memzone *mz = NULL;
	uint8_t buf[64] = { 1 }, *anon = NULL;
	uint16_t sim_id, gone_id;
	uint32_t ops = 0;
	unsigned int k;
	int ret;

	TEST_ASSERT_SUCCESS(t7_setup(true, 512), "setup");
	sim_id = (uint16_t)t7_destid(env.s[0]);
	gone_id = (uint16_t)t7_destid(env.s[1]);

	/* What the part issues: NREAD, NWRITE, NWRITE_R; no SWRITE. */
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(env.t, RTE_RIO_SRC_OPS_CAR, &ops), "CAR");
	TEST_ASSERT((ops & (RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | RTE_RIO_OPS_WRITE_RESPONSE)) ==
		    (RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | RTE_RIO_OPS_WRITE_RESPONSE) &&
		    !(ops & RTE_RIO_OPS_STREAM_WRITE), "Source Operations 0x%08x", ops);
	TEST_ASSERT_EQUAL(rte_rio_mem_write(env.t, sim_id, T7_NO_WIN, buf, 8, RTE_RIO_MEM_SWRITE),
			  -ENOTSUP, "SWRITE");

	/* No window at the target. */
	ret = rte_rio_mem_read(env.t, sim_id, T7_NO_WIN, buf, sizeof(buf));
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD without a window: %d", ret);
	ret = rte_rio_mem_write(env.t, sim_id, T7_NO_WIN + 3, buf, 5, RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_EQUAL(ret, -EIO, "NWRITE_R without a window: %d", ret);
	TEST_ASSERT_SUCCESS(rte_rio_mem_write(env.t, sim_id, T7_NO_WIN, buf, sizeof(buf),
					      RTE_RIO_MEM_NWRITE), "NWRITE has no response");
	TEST_ASSERT_EQUAL(t7_xstat("mem_errors"), 2, "driver's mem_errors");
	/* The channel started over: a transfer after the errors goes through. */
	anon = t7_sim_win_alloc(4096);
	TEST_ASSERT_NOT_NULL(anon, "memory");
	memset(anon, 0x77, 4096);
	ret = rte_rio_map_inb_window(env.s[0], anon, T7_SIM_WIN, 4096, 0);
	if (ret == 0) {
		ret = rte_rio_mem_read(env.t, sim_id, T7_SIM_WIN + 1, buf, 9);
		rte_rio_unmap_inb_window(env.s[0], T7_SIM_WIN);
	}
	munmap(anon, 4096);
	TEST_ASSERT(ret == 0 && buf[0] == 0x77 && buf[8] == 0x77, "NREAD after errors: %d", ret);
	/* Nothing mapped on the tsi721: a request for it is answered ERROR. */
	ret = rte_rio_mem_read(env.s[0], (uint16_t)t7_destid(env.t), T7_TSI_WIN, buf, 8);
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD of the tsi721 without a window: %d", ret);

	/* Target gone from the fabric (its link, or its switch's, down): no response. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "sw0", 2, false),
			    "link down");
	ret = rte_rio_mem_read(env.t, gone_id, 0, buf, 8);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NREAD of a target that is gone: %d", ret);
	ret = rte_rio_mem_write(env.t, gone_id, 0, buf, 8, RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NWRITE_R to a target that is gone: %d", ret);

	/* No route: a device ID nobody has. */
	ret = rte_rio_mem_read(env.t, 0x7e, 0, buf, 8);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NREAD with no route: %d", ret);

	/* Windows: memory the part cannot reach by one IOVA. */
	anon = t7_sim_win_alloc(4 * 4096);
	TEST_ASSERT_NOT_NULL(anon, "memory");
	ret = rte_rio_map_inb_window(env.t, anon, T7_TSI_WIN, 4096, 0);
	munmap(anon, 4 * 4096);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "window over memory that is not DPDK memory: %d", ret);
	mz = t7_tsi_win_alloc("t7_mem_err", 16 * 4096, 16 * 4096);
	TEST_ASSERT_NOT_NULL(mz, "memzone");
	ret = rte_rio_map_inb_window(env.t, RTE_PTR_ADD(mz->addr, 4096), T7_TSI_WIN, 8192, 0);
	if (ret != -EINVAL) {
		rte_memzone_free(mz);
		TEST_ASSERT_EQUAL(ret, -EINVAL, "IOVA not aligned to the window size: %d", ret);
	}
	/* Eight windows, then none left; an overlap is refused. */
	for (k = 0, ret = 0; k < TSI721_IBWIN_NUM && ret == 0; k++)
		ret = rte_rio_map_inb_window(env.t, RTE_PTR_ADD(mz->addr, k * 4096),
					     T7_TSI_WIN + k * 4096, 4096, 0);
	if (ret == 0)
		ret = rte_rio_map_inb_window(env.t, RTE_PTR_ADD(mz->addr, 8 * 4096),
					     T7_TSI_WIN + 4096, 4096, 0) == -EEXIST ? 0 : -1;
	if (ret == 0)
		ret = rte_rio_map_inb_window(env.t, RTE_PTR_ADD(mz->addr, 8 * 4096),
					     T7_TSI_WIN + 8 * 4096, 4096, 0) == -ENOSPC ? 0 : -2;
	/* Each window reaches its own page. */
	for (k = 0; k < TSI721_IBWIN_NUM && ret == 0; k++) {
		buf[0] = (uint8_t)(0x40 + k);
		ret = rte_rio_mem_write(env.s[0], (uint16_t)t7_destid(env.t),
					T7_TSI_WIN + k * 4096 + 17, buf, 1, RTE_RIO_MEM_NWRITE_R);
		if (ret == 0 && ((uint8_t *)mz->addr)[k * 4096 + 17] != 0x40 + k)
			ret = -3;
	}
	for (k = 0; k < TSI721_IBWIN_NUM; k++)
		rte_rio_unmap_inb_window(env.t, T7_TSI_WIN + k * 4096);
	/* Unmapped: ERROR again. */
	if (ret == 0 && rte_rio_mem_read(env.s[0], (uint16_t)t7_destid(env.t), T7_TSI_WIN, buf,
					 8) != -EIO)
		ret = -4;
	rte_memzone_free(mz);
	TEST_ASSERT_SUCCESS(ret, "eight windows, overlap, ninth, unmap (step %d)", -ret);
	return TEST_SUCCESS;
}

/* Write IBWIN @w of the bare model: LB last, as a driver does. */
static void
t7_bare_ibwin(unsigned int w, uint64_t base, uint32_t sz, uint64_t tla, bool enable)
{
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IBWIN_SZ(w), sz);
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IBWIN_TUA(w), (uint32_t)(tla >> 32));
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IBWIN_TLA(w), (uint32_t)tla);
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IBWIN_UB(w), (uint32_t)(base >> 32));
	rte_pmd_tsi721_model_write32(t7_bare, TSI721_IBWIN_LB(w),
				     (uint32_t)base | (enable ? TSI721_IBWIN_LB_WEN : 0));
}

static bool
t7_bare_ibwin_on(unsigned int w)
{
	return (rte_pmd_tsi721_model_read32(t7_bare, TSI721_IBWIN_LB(w)) &
		TSI721_IBWIN_LB_WEN) != 0;
}

/*
 * The model's inbound windows and data descriptors, driven through
 * rte_pmd_tsi721_model_write32(): a good window serves the fabric; a size
 * out of range, a misaligned base or translation, an overlap, a data
 * descriptor of an unknown request type or with a buffer outside host
 * memory are each refused and counted once.
 */
static int
test_t7_mem_model_checks(void)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = 5000 };
	const uint32_t sz64k = TSI721_IBWIN_SZ_VAL(T7_WIN_SIZE);
	const struct rte_memzone *mz;
	struct tsi721_dma_desc *bd;
	uint8_t buf[16] = "fabric to host", got[16];
	uint64_t errs, iova, sts_iova;
	uint32_t b = TSI721_DMAC_BASE(0), v;
	uint16_t destid;
	char args[256];

	memset(&env, 0, sizeof(env));
	env.devid_size = 8;
	TEST_ASSERT_NOT_NULL(rio_test_unique("t7m", env.fabric, sizeof(env.fabric) - 1), "name");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(t7_topo_write(8, 512), "topology");
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0", env.fabric, env.topo);
	t7_bare = rte_pmd_tsi721_model_open("t7mem", args);
	TEST_ASSERT_NOT_NULL(t7_bare, "open: %s", rte_strerror(rte_errno));
	snprintf(env.sim[0], sizeof(env.sim[0]), "rio_sim_t7m_%u", t7_counter++);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,scan=0,host=0", env.fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(env.sim[0], args), "host");
	env.sim_up[0] = true;
	env.s[0] = rte_rio_mport_find(env.sim[0]);
	TEST_ASSERT_NOT_NULL(env.s[0], "host mport");
	TEST_ASSERT_SUCCESS(rte_rio_mport_scan(env.s[0], &sc), "enumerate");
	destid = (uint8_t)(rte_pmd_tsi721_model_read32(t7_bare, RTE_RIO_DID_CSR) >> 16);

	/* 64 KiB of window, then a 4 KiB descriptor page and its status FIFO. */
	mz = t7_tsi_win_alloc("t7_mem_bare", 2 * T7_WIN_SIZE, T7_WIN_SIZE);
	TEST_ASSERT_NOT_NULL(mz, "memzone");
	iova = mz->iova;
	errs = rte_pmd_tsi721_model_errors(t7_bare);

	/* A good window: the host's NWRITE_R lands in host memory, NREAD returns it. */
	t7_bare_ibwin(0, T7_TSI_WIN, sz64k, iova, true);
	if (!t7_bare_ibwin_on(0) ||
	    rte_rio_mem_write(env.s[0], destid, T7_TSI_WIN + 9, buf, sizeof(buf),
			      RTE_RIO_MEM_NWRITE_R) != 0 ||
	    memcmp((uint8_t *)mz->addr + 9, buf, sizeof(buf)) != 0 ||
	    rte_rio_mem_read(env.s[0], destid, T7_TSI_WIN + 9, got, sizeof(got)) != 0 ||
	    memcmp(got, buf, sizeof(got)) != 0) {
		rte_memzone_free(mz);
		TEST_ASSERT(false, "a window enabled through IBWIN does not serve the fabric");
	}
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs, "nothing refused");

	/* Refused, each counted once, and the window stays off. */
	t7_bare_ibwin(1, T7_TSI_WIN + T7_WIN_SIZE * 4, 23u << TSI721_IBWIN_SZ_SHIFT, iova, true);
	TEST_ASSERT(!t7_bare_ibwin_on(1), "32 GiB window");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 1, "size counted");
	t7_bare_ibwin(1, T7_TSI_WIN + T7_WIN_SIZE * 4, sz64k | 1, iova, true);
	TEST_ASSERT(!t7_bare_ibwin_on(1), "bits outside the size field");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 2, "size counted");
	t7_bare_ibwin(1, T7_TSI_WIN + T7_WIN_SIZE * 4 + 0x1000, sz64k, iova, true);
	TEST_ASSERT(!t7_bare_ibwin_on(1), "base not aligned to the size");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 3, "base counted");
	t7_bare_ibwin(1, T7_TSI_WIN + T7_WIN_SIZE * 4, sz64k, iova + 0x1000, true);
	TEST_ASSERT(!t7_bare_ibwin_on(1), "translation not aligned to the size");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 4, "translation counted");
	t7_bare_ibwin(1, T7_TSI_WIN + 0x1000 * 0, TSI721_IBWIN_SZ_VAL(0x1000), iova + T7_WIN_SIZE,
		      true);
	TEST_ASSERT(!t7_bare_ibwin_on(1), "overlap with window 0");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 5, "overlap counted");
	t7_bare_ibwin(1, T7_TSI_WIN + T7_WIN_SIZE * 4, sz64k, 0x10000, true);
	TEST_ASSERT(!t7_bare_ibwin_on(1), "translation outside host memory");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 6, "DMA counted");
	/* Window 0 serves on, whatever was refused beside it. */
	TEST_ASSERT(rte_rio_mem_read(env.s[0], destid, T7_TSI_WIN + 9, got, sizeof(got)) == 0 &&
		    memcmp(got, buf, sizeof(got)) == 0, "window 0 after the refusals");

	/* Disabled: the fabric's request is answered ERROR. */
	t7_bare_ibwin(0, T7_TSI_WIN, sz64k, iova, false);
	TEST_ASSERT_EQUAL(rte_rio_mem_read(env.s[0], destid, T7_TSI_WIN, got, 8), -EIO,
			  "NREAD of a disabled window");

	/* Block DMA channel 0: data descriptors the part refuses. */
	bd = RTE_PTR_ADD(mz->addr, T7_WIN_SIZE);
	sts_iova = iova + T7_WIN_SIZE + 2048;
	memset(bd, 0, 4096);
	bd[0].type_id = rte_cpu_to_le_32((TSI721_DTYPE_DATA << TSI721_DTYPE_SHIFT) |
					 (6u << TSI721_DMAD_RTYPE_SHIFT) | 1);
	bd[0].bcount = rte_cpu_to_le_32(8);
	bd[0].t1.bufptr_lo = rte_cpu_to_le_32((uint32_t)(iova + 64));
	bd[0].t1.bufptr_hi = rte_cpu_to_le_32((uint32_t)((iova + 64) >> 32));
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DPTRH,
				     (uint32_t)((iova + T7_WIN_SIZE) >> 32));
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DPTRL,
				     (uint32_t)(iova + T7_WIN_SIZE));
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DSBH, (uint32_t)(sts_iova >> 32));
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DSBL, (uint32_t)sts_iova);
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DSSZ, 1);
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_CTL, TSI721_DMAC_CTL_INIT);
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DWRCNT, 1);
	v = rte_pmd_tsi721_model_read32(t7_bare, b + TSI721_DMAC_STS);
	TEST_ASSERT(v & TSI721_DMAC_STS_ABORT, "request type 6: channel aborted (0x%08x)", v);
	TEST_ASSERT(rte_pmd_tsi721_model_read32(t7_bare, b + TSI721_DMAC_INT) &
		    TSI721_DMAC_INT_ERR, "error raised");
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 7, "bad descriptor counted");
	/* An NREAD into memory outside the host's. */
	bd[0].type_id = rte_cpu_to_le_32((TSI721_DTYPE_DATA << TSI721_DTYPE_SHIFT) |
					 (TSI721_RTYPE_NREAD << TSI721_DMAD_RTYPE_SHIFT) | 0);
	bd[0].t1.bufptr_lo = rte_cpu_to_le_32(0x1000);
	bd[0].t1.bufptr_hi = 0;
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_CTL, TSI721_DMAC_CTL_INIT);
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DWRCNT, 1);
	v = rte_pmd_tsi721_model_read32(t7_bare, b + TSI721_DMAC_STS);
	TEST_ASSERT(v & TSI721_DMAC_STS_ABORT, "buffer outside host memory: aborted (0x%08x)", v);
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 8, "bad buffer counted");
	/* A good NREAD of the host's memory? The host (ID 0) has no window: ERROR, not counted. */
	bd[0].t1.bufptr_lo = rte_cpu_to_le_32((uint32_t)(iova + 64));
	bd[0].t1.bufptr_hi = rte_cpu_to_le_32((uint32_t)((iova + 64) >> 32));
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_CTL, TSI721_DMAC_CTL_INIT);
	rte_pmd_tsi721_model_write32(t7_bare, b + TSI721_DMAC_DWRCNT, 1);
	v = rte_pmd_tsi721_model_read32(t7_bare, b + TSI721_DMAC_STS);
	TEST_ASSERT(v & TSI721_DMAC_STS_ABORT, "NREAD without a window: aborted (0x%08x)", v);
	TEST_ASSERT_EQUAL(rte_pmd_tsi721_model_errors(t7_bare), errs + 8,
			  "an ERROR response is no rejection");
	rte_memzone_free(mz);
	return TEST_SUCCESS;
}

static int
t7_run(int (*fn)(void))
{
	int ret = fn();

	if (t7_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

#define T7_CASE(fn) static int fn ## _run(void) { return t7_run(fn); }
T7_CASE(test_t7_enum_host)
T7_CASE(test_t7_enum_agent)
T7_CASE(test_t7_config)
T7_CASE(test_t7_doorbells)
T7_CASE(test_t7_messages)
T7_CASE(test_t7_port_write)
T7_CASE(test_t7_model_checks)
T7_CASE(test_t7_link_down)
T7_CASE(test_t7_ring_full)
T7_CASE(test_t7_free_buffers)
T7_CASE(test_t7_dq_full)
T7_CASE(test_t7_peer_gone)
T7_CASE(test_t7_interrupts)
T7_CASE(test_t7_bare_model)
T7_CASE(test_t7_mem8)
T7_CASE(test_t7_mem16)
T7_CASE(test_t7_mem_errors)
T7_CASE(test_t7_mem_model_checks)

static int
t7_suite_setup(void)
{
	const char *s = getenv("RIO_TEST_SEED");

	t7_seed = s != NULL ? strtoull(s, NULL, 0) : rte_rdtsc();
	printf("tsi721: seed %" PRIu64 " (replay with RIO_TEST_SEED=%" PRIu64 ")\n", t7_seed,
	       t7_seed);
	rte_srand(t7_seed);
	return TEST_SUCCESS;
}

static struct unit_test_suite tsi721_suite = {
	.suite_name = "tsi721 autotest",
	.setup = t7_suite_setup,
	.unit_test_cases = {
		TEST_CASE_NAMED("enum_host", test_t7_enum_host_run),
		TEST_CASE_NAMED("enum_agent", test_t7_enum_agent_run),
		TEST_CASE_NAMED("config", test_t7_config_run),
		TEST_CASE_NAMED("doorbells", test_t7_doorbells_run),
		TEST_CASE_NAMED("messages", test_t7_messages_run),
		TEST_CASE_NAMED("port_write", test_t7_port_write_run),
		TEST_CASE_NAMED("model_checks", test_t7_model_checks_run),
		TEST_CASE_NAMED("link_down", test_t7_link_down_run),
		TEST_CASE_NAMED("ring_full", test_t7_ring_full_run),
		TEST_CASE_NAMED("free_buffers", test_t7_free_buffers_run),
		TEST_CASE_NAMED("dq_full", test_t7_dq_full_run),
		TEST_CASE_NAMED("peer_gone", test_t7_peer_gone_run),
		TEST_CASE_NAMED("interrupts", test_t7_interrupts_run),
		TEST_CASE_NAMED("bare_model", test_t7_bare_model_run),
		TEST_CASE_NAMED("mem8", test_t7_mem8_run),
		TEST_CASE_NAMED("mem16", test_t7_mem16_run),
		TEST_CASE_NAMED("mem_errors", test_t7_mem_errors_run),
		TEST_CASE_NAMED("mem_model_checks", test_t7_mem_model_checks_run),
		TEST_CASE(test_t7_devargs),
		TEST_CASE_NAMED("probe_scan", test_t7_probe_scan),
		TEST_CASE_NAMED("two_processes", test_t7_two_processes),
		TEST_CASES_END()
	},
};

static int
test_tsi721(void)
{
	return unit_test_suite_runner(&tsi721_suite);
}

REGISTER_TEST_COMMAND(tsi721_autotest, test_tsi721);
