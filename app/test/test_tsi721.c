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
 * full, peer gone. Each case builds a fabric of its own (8- or 16-bit IDs
 * from a seed that is printed) and checks that nothing stays in /dev/shm.
 */

#include <stdlib.h>
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
