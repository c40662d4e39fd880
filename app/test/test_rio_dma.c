/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_dma_autotest: the dma_rio dmadev (loaded with -d like any PMD) over a
 * rio_sim master port, through the public rte_dma API only: devargs and
 * configuration refused as they should be, copies to and from an inbound
 * window of another endpoint at odd offsets and lengths (checked in the
 * target's buffer and read back), fills, ring indexes across their 2^16
 * wrap, a full ring, the status of each failed transaction (ERROR response,
 * no response, outside the address space, bad local address) and the
 * operations around it, stats, and 8- and 16-bit device IDs.
 *
 *   ep0 (A: the dmadev's mport) -- sw0 -- ep1 (B: window at WIN_ADDR)
 *                                   |
 *                                  ep2 (nobody claims it)
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_dmadev.h>
#include <rte_malloc.h>

#include "rte_rio.h"
#include "rte_pmd_rio_sim.h"

#include "test.h"

#define DMA_WIN_ADDR		0x40000ull
#define DMA_WIN_SIZE		65536u
#define DMA_NO_WIN_ADDR		0x800000ull
#define DMA_RING		64
#define DMA_BUF_SIZE		(2 * DMA_WIN_SIZE)

/* A, B, C, and an ID no route leads to */
static const uint16_t dma_ids8[4] = { 0x11, 0x22, 0x33, 0x44 };
static const uint16_t dma_ids16[4] = { 0x1111, 0xa222, 0x3333, 0x4444 };

static struct {
	char fabric[RTE_PMD_RIO_SIM_NAME_LEN];
	char topo[64];
	char shm_prefix[64];
	char mport[2][32];
	bool created[2];
	struct rte_rio_mport *mp[2];
	const uint16_t *ids;
	uint8_t *win;		/* B's window buffer */
	uint8_t *local;		/* A's DMA memory (rte_malloc: has an IOVA) */
	char dma[32];		/* the dmadev's vdev name, "" when none */
	int16_t dev_id;
} env;

static unsigned int dma_counter;

static int
dma_topo_write(unsigned int devid_size)
{
	char content[512];

	snprintf(content, sizeof(content),
		 "[fabric]\n"
		 "devid_size = %u\n"
		 "static_routes = 1\n"
		 "response_timeout = 20000\n"
		 "[switch sw0]\n"
		 "ports = 4\n"
		 "[endpoint ep0]\n"
		 "destid = %u\n"
		 "[endpoint ep1]\n"
		 "destid = %u\n"
		 "[endpoint ep2]\n"
		 "destid = %u\n"
		 "[links]\n"
		 "sw0.0 = ep0.0\n"
		 "sw0.1 = ep1.0\n"
		 "sw0.2 = ep2.0\n",
		 devid_size, env.ids[0], env.ids[1], env.ids[2]);
	return rio_test_temp_file(env.topo, sizeof(env.topo), "rio_dma_topo", content);
}

static int
dma_mport_create(unsigned int i)
{
	char args[256];
	int ret;

	snprintf(env.mport[i], sizeof(env.mport[i]), "rio_sim_dma%u", dma_counter++);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep%u,scan=0", env.fabric,
		 env.topo, i);
	ret = rte_vdev_init(env.mport[i], args);
	if (ret < 0)
		return ret;
	env.created[i] = true;
	env.mp[i] = rte_rio_mport_find(env.mport[i]);
	return env.mp[i] == NULL ? -ENODEV : 0;
}

/* Create dmadev dma_rio_t<N> with devargs @args; its dev_id, or -errno. */
static int
dma_create(const char *args)
{
	int ret;

	snprintf(env.dma, sizeof(env.dma), "dma_rio_t%u", dma_counter++);
	ret = rte_vdev_init(env.dma, args);
	if (ret < 0) {
		env.dma[0] = '\0';
		return ret;
	}
	env.dev_id = (int16_t)rte_dma_get_dev_id_by_name(env.dma);
	return env.dev_id;
}

static void
dma_destroy(void)
{
	if (env.dma[0] != '\0')
		rte_vdev_uninit(env.dma);
	env.dma[0] = '\0';
}

/* Configure and start the dmadev with one vchan of direction @dir and @nb_desc entries. */
static int
dma_start(enum rte_dma_direction dir, uint16_t nb_desc)
{
	struct rte_dma_conf conf = { .nb_vchans = 1 };
	struct rte_dma_vchan_conf vc = { .direction = dir, .nb_desc = nb_desc };
	int ret;

	if (dir == RTE_DMA_DIR_MEM_TO_DEV)
		vc.dst_port.port_type = RTE_DMA_PORT_PCIE;
	else
		vc.src_port.port_type = RTE_DMA_PORT_PCIE;
	ret = rte_dma_configure(env.dev_id, &conf);
	if (ret == 0)
		ret = rte_dma_vchan_setup(env.dev_id, 0, &vc);
	if (ret == 0)
		ret = rte_dma_start(env.dev_id);
	return ret;
}

/* A dmadev towards B writing with @write ("" for the default), started with @dir. */
static int
dma_open(const char *write, enum rte_dma_direction dir)
{
	char args[128];
	int ret;

	snprintf(args, sizeof(args), "mport=%s,destid=0x%x%s%s", env.mport[0], env.ids[1],
		 write[0] != '\0' ? ",write=" : "", write);
	ret = dma_create(args);
	if (ret < 0)
		return ret;
	return dma_start(dir, DMA_RING);
}

static int
dma_env_setup(unsigned int devid_size)
{
	memset(&env, 0, sizeof(env));
	env.ids = devid_size == 16 ? dma_ids16 : dma_ids8;
	if (rio_test_unique("rdma", env.fabric, sizeof(env.fabric) - 1) == NULL)
		return TEST_FAILED;
	strcat(env.fabric, "x");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(dma_topo_write(devid_size), "cannot write topology");
	TEST_ASSERT_SUCCESS(dma_mport_create(0), "cannot create mport for ep0");
	TEST_ASSERT_SUCCESS(dma_mport_create(1), "cannot create mport for ep1");
	env.win = aligned_alloc(4096, DMA_WIN_SIZE);
	env.local = rte_malloc("rio_dma_test", DMA_BUF_SIZE, 4096);
	TEST_ASSERT(env.win != NULL && env.local != NULL, "out of memory");
	memset(env.win, 0x5a, DMA_WIN_SIZE);
	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(env.mp[1], env.win, DMA_WIN_ADDR,
						   DMA_WIN_SIZE, 0), "map B's window");
	return TEST_SUCCESS;
}

static int
dma_env_teardown(void)
{
	int left = 0;
	int i;

	dma_destroy();
	for (i = 1; i >= 0; i--) {
		if (env.created[i])
			rte_vdev_uninit(env.mport[i]);
		env.created[i] = false;
	}
	free(env.win);
	rte_free(env.local);
	if (env.topo[0] != '\0')
		unlink(env.topo);
	if (env.fabric[0] != '\0')
		left = rio_test_shm_count(env.shm_prefix);
	if (left != 0) {
		printf("  LEAK: %d objects %s* remain after the test\n", left, env.shm_prefix);
		rio_test_shm_cleanup(env.shm_prefix);
	}
	return left;
}

static int
dma_run(int (*fn)(void), unsigned int devid_size)
{
	int ret = dma_env_setup(devid_size);

	if (ret == TEST_SUCCESS)
		ret = fn();
	if (dma_env_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

static void
dma_pattern(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 151 + i * 13 + (i >> 8));
}

static rte_iova_t
dma_iova(const void *p)
{
	return rte_mem_virt2iova(p);
}

/*
 * Wait for @n more operations with rte_dma_completed(); they must all end
 * well and the last be @last. Operations ran inside submit, so one call is
 * enough: a second finds nothing.
 */
static int
dma_expect_done(uint16_t n, uint16_t last)
{
	uint16_t got, last_idx = 0;
	bool err = true;

	got = rte_dma_completed(env.dev_id, 0, UINT16_MAX, &last_idx, &err);
	TEST_ASSERT(!err, "an operation failed");
	TEST_ASSERT_EQUAL(got, n, "%u completed, expected %u", got, n);
	TEST_ASSERT_EQUAL(last_idx, last, "last index %u, expected %u", last_idx, last);
	got = rte_dma_completed(env.dev_id, 0, UINT16_MAX, &last_idx, &err);
	TEST_ASSERT(got == 0 && !err, "more completions than operations");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Cases                                                              */

static int
dma_case_devargs(void)
{
	char args[160];
	struct rte_dma_info info;
	struct rte_dma_conf conf = { .nb_vchans = 1 };
	struct rte_dma_vchan_conf vc = { .direction = RTE_DMA_DIR_MEM_TO_DEV, .nb_desc = 64 };
	int ret;

	TEST_ASSERT(dma_create("") < 0, "no destid accepted");
	snprintf(args, sizeof(args), "mport=%s", env.mport[0]);
	TEST_ASSERT(dma_create(args) < 0, "no destid accepted");
	TEST_ASSERT(dma_create("destid=2") < 0, "two mports and no mport= accepted");
	snprintf(args, sizeof(args), "mport=%s,destid=0x10000", env.mport[0]);
	TEST_ASSERT(dma_create(args) < 0, "destid 0x10000 accepted");
	snprintf(args, sizeof(args), "mport=%s,destid=-1", env.mport[0]);
	TEST_ASSERT(dma_create(args) < 0, "destid -1 accepted");
	snprintf(args, sizeof(args), "mport=%s,destid=2,write=nread", env.mport[0]);
	TEST_ASSERT(dma_create(args) < 0, "write=nread accepted");
	snprintf(args, sizeof(args), "mport=%s,destid=2,bogus=1", env.mport[0]);
	TEST_ASSERT(dma_create(args) < 0, "unknown devarg accepted");
	TEST_ASSERT(dma_create("mport=rio_sim_nobody,destid=2") < 0, "unknown mport accepted");

	/* A 16-bit ID towards an 8-bit mport: refused when the device starts. */
	snprintf(args, sizeof(args), "mport=%s,destid=0x1234", env.mport[0]);
	if (env.ids[0] <= 0xff) {
		TEST_ASSERT(dma_create(args) >= 0, "create");
		ret = dma_start(RTE_DMA_DIR_MEM_TO_DEV, 64);
		TEST_ASSERT_EQUAL(ret, -EINVAL, "16-bit destid on 8-bit IDs started: %d", ret);
		dma_destroy();
	}

	snprintf(args, sizeof(args), "mport=%s,destid=%u", env.mport[0], env.ids[1]);
	TEST_ASSERT(dma_create(args) >= 0, "create");
	TEST_ASSERT_SUCCESS(rte_dma_info_get(env.dev_id, &info), "info");
	TEST_ASSERT(info.dev_capa & RTE_DMA_CAPA_MEM_TO_DEV, "no MEM_TO_DEV");
	TEST_ASSERT(info.dev_capa & RTE_DMA_CAPA_DEV_TO_MEM, "no DEV_TO_MEM");
	TEST_ASSERT(info.dev_capa & RTE_DMA_CAPA_OPS_COPY, "no copy");
	TEST_ASSERT(info.dev_capa & RTE_DMA_CAPA_OPS_FILL, "no fill");
	TEST_ASSERT(!(info.dev_capa & RTE_DMA_CAPA_MEM_TO_MEM), "claims MEM_TO_MEM");
	TEST_ASSERT_SUCCESS(rte_dma_configure(env.dev_id, &conf), "configure");
	/* The device side must be a (PCIe: the only type dmadev has) port. */
	ret = rte_dma_vchan_setup(env.dev_id, 0, &vc);
	TEST_ASSERT(ret < 0, "MEM_TO_DEV without a device port accepted");
	vc.dst_port.port_type = RTE_DMA_PORT_PCIE;
	vc.nb_desc = 48;
	TEST_ASSERT(rte_dma_vchan_setup(env.dev_id, 0, &vc) < 0, "48 descriptors accepted");
	vc.nb_desc = 64;
	vc.direction = RTE_DMA_DIR_MEM_TO_MEM;
	TEST_ASSERT(rte_dma_vchan_setup(env.dev_id, 0, &vc) < 0, "MEM_TO_MEM accepted");
	vc.direction = RTE_DMA_DIR_MEM_TO_DEV;
	TEST_ASSERT_SUCCESS(rte_dma_vchan_setup(env.dev_id, 0, &vc), "vchan setup");
	TEST_ASSERT_SUCCESS(rte_dma_start(env.dev_id), "start");
	TEST_ASSERT_EQUAL(rte_dma_fill(env.dev_id, 0, 0, DMA_WIN_ADDR, 0, 0), -EINVAL,
			  "length 0 accepted");
	TEST_ASSERT_SUCCESS(rte_dma_stop(env.dev_id), "stop");
	dma_destroy();

	/* The mport may be left out when it is the only one. */
	if (env.created[1]) {
		rte_vdev_uninit(env.mport[1]);
		env.created[1] = false;
	}
	snprintf(args, sizeof(args), "destid=%u", env.ids[1]);
	TEST_ASSERT(dma_create(args) >= 0, "one mport and no mport= refused");
	dma_destroy();
	return TEST_SUCCESS;
}

/*
 * Copies to B's window at odd offsets and lengths, several per submit,
 * checked in the window, then read back into other local memory.
 */
static int
dma_copies(const char *write)
{
	static const uint32_t lens[] = { 1, 3, 7, 8, 9, 255, 256, 257, 1000, 4093, 8192, 20001 };
	uint8_t *src = env.local, *back = env.local + DMA_WIN_SIZE;
	uint32_t off[RTE_DIM(lens)], at = 0;
	struct rte_dma_stats st;
	unsigned int i;
	int idx;

	dma_pattern(src, DMA_WIN_SIZE, 3);
	memset(env.win, 0x5a, DMA_WIN_SIZE);
	for (i = 0; i < RTE_DIM(lens); i++) {
		off[i] = at + (i % 8);
		at = RTE_ALIGN_CEIL(off[i] + lens[i], 64);
	}
	TEST_ASSERT(at <= DMA_WIN_SIZE, "test too large for the window");
	TEST_ASSERT_SUCCESS(dma_open(write, RTE_DMA_DIR_MEM_TO_DEV), "open %s", write);
	for (i = 0; i < RTE_DIM(lens); i++) {
		idx = rte_dma_copy(env.dev_id, 0, dma_iova(src + off[i]), DMA_WIN_ADDR + off[i],
				   lens[i], i == 5 ? RTE_DMA_OP_FLAG_SUBMIT : 0);
		TEST_ASSERT_EQUAL(idx, (int)i, "copy %u: index %d", i, idx);
	}
	/* The first six ran with the flag; the rest wait for submit. */
	TEST_ASSERT_SUCCESS(dma_expect_done(6, 5), "after the SUBMIT flag");
	TEST_ASSERT(memcmp(env.win + off[6], src + off[6], lens[6]) != 0,
		    "an operation ran before its submit");
	TEST_ASSERT_SUCCESS(rte_dma_submit(env.dev_id, 0), "submit");
	TEST_ASSERT_SUCCESS(dma_expect_done(RTE_DIM(lens) - 6, RTE_DIM(lens) - 1), "submit");
	for (i = 0; i < RTE_DIM(lens); i++) {
		TEST_ASSERT(memcmp(env.win + off[i], src + off[i], lens[i]) == 0,
			    "%s of %u bytes at +%u not in B's window", write, lens[i], off[i]);
		/* Bytes around it untouched. */
		TEST_ASSERT(env.win[off[i] + lens[i]] == 0x5a, "byte after +%u written",
			    off[i] + lens[i]);
	}
	TEST_ASSERT_SUCCESS(rte_dma_stats_get(env.dev_id, 0, &st), "stats");
	TEST_ASSERT(st.submitted == RTE_DIM(lens) && st.completed == RTE_DIM(lens) &&
		    st.errors == 0, "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64, st.submitted,
		    st.completed, st.errors);
	rte_dma_stop(env.dev_id);
	dma_destroy();

	TEST_ASSERT_SUCCESS(dma_open("", RTE_DMA_DIR_DEV_TO_MEM), "open NREAD");
	memset(back, 0, DMA_WIN_SIZE);
	for (i = 0; i < RTE_DIM(lens); i++) {
		idx = rte_dma_copy(env.dev_id, 0, DMA_WIN_ADDR + off[i], dma_iova(back + off[i]),
				   lens[i], 0);
		TEST_ASSERT_EQUAL(idx, (int)i, "read %u: index %d", i, idx);
	}
	TEST_ASSERT_SUCCESS(rte_dma_submit(env.dev_id, 0), "submit");
	TEST_ASSERT_SUCCESS(dma_expect_done(RTE_DIM(lens), RTE_DIM(lens) - 1), "reads");
	for (i = 0; i < RTE_DIM(lens); i++)
		TEST_ASSERT(memcmp(back + off[i], src + off[i], lens[i]) == 0,
			    "NREAD of %u bytes at +%u", lens[i], off[i]);
	TEST_ASSERT_EQUAL(rte_dma_fill(env.dev_id, 0, 0, dma_iova(back), 8, 0), -ENOTSUP,
			  "fill on a DEV_TO_MEM vchan accepted");
	rte_dma_stop(env.dev_id);
	dma_destroy();
	return TEST_SUCCESS;
}

static int
dma_case_copies(void)
{
	int ret = dma_copies("");

	if (ret == TEST_SUCCESS)
		ret = dma_copies("nwrite_r");
	return ret;
}

static int
dma_case_swrite_fill(void)
{
	const uint64_t pattern = 0x0123456789abcdefull;
	uint8_t *src = env.local;
	uint64_t want;
	uint32_t i;
	int idx;

	TEST_ASSERT_SUCCESS(dma_open("swrite", RTE_DMA_DIR_MEM_TO_DEV), "open swrite");
	dma_pattern(src, 4096, 9);
	TEST_ASSERT_EQUAL(rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR + 4, 64, 0),
			  -EINVAL, "SWRITE to an address not double-word aligned");
	TEST_ASSERT_EQUAL(rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR, 60, 0),
			  -EINVAL, "SWRITE of a length not whole double-words");
	idx = rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR + 8, 4096,
			   RTE_DMA_OP_FLAG_SUBMIT);
	TEST_ASSERT_EQUAL(idx, 0, "SWRITE: %d", idx);
	TEST_ASSERT_SUCCESS(dma_expect_done(1, 0), "SWRITE");
	TEST_ASSERT(memcmp(env.win + 8, src, 4096) == 0, "SWRITE not in B's window");
	rte_dma_stop(env.dev_id);
	dma_destroy();

	TEST_ASSERT_SUCCESS(dma_open("nwrite_r", RTE_DMA_DIR_MEM_TO_DEV), "open");
	/* 10000 bytes from +8195: the pattern is laid from the first byte. */
	idx = rte_dma_fill(env.dev_id, 0, pattern, DMA_WIN_ADDR + 8195, 10000,
			   RTE_DMA_OP_FLAG_SUBMIT);
	TEST_ASSERT_EQUAL(idx, 0, "fill: %d", idx);
	TEST_ASSERT_SUCCESS(dma_expect_done(1, 0), "fill");
	for (i = 0; i < 10000; i++) {
		want = (pattern >> (8 * (i % 8))) & 0xff;
		TEST_ASSERT_EQUAL(env.win[8195 + i], want, "fill byte %u", i);
	}
	TEST_ASSERT(env.win[8194] == 0x5a && env.win[8195 + 10000] == 0x5a,
		    "fill wrote outside its range");
	rte_dma_stop(env.dev_id);
	dma_destroy();
	return TEST_SUCCESS;
}

/* The ring: capacity, full, and indexes that wrap at 2^16 with the ring size. */
static int
dma_case_ring(void)
{
	uint8_t *src = env.local;
	uint16_t last = 0, n, got;
	enum rte_dma_status_code status[DMA_RING];
	unsigned int i, round;
	bool err;
	int idx;

	TEST_ASSERT_SUCCESS(dma_open("", RTE_DMA_DIR_MEM_TO_DEV), "open");
	TEST_ASSERT_EQUAL(rte_dma_burst_capacity(env.dev_id, 0), DMA_RING, "empty ring");
	for (i = 0; i < DMA_RING; i++) {
		idx = rte_dma_copy(env.dev_id, 0, dma_iova(src + 8 * i), DMA_WIN_ADDR + 8 * i, 8,
				   0);
		TEST_ASSERT_EQUAL(idx, (int)i, "copy %u: %d", i, idx);
	}
	TEST_ASSERT_EQUAL(rte_dma_burst_capacity(env.dev_id, 0), 0, "full ring");
	idx = rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR, 8, 0);
	TEST_ASSERT_EQUAL(idx, -ENOSPC, "copy into a full ring: %d", idx);
	TEST_ASSERT_SUCCESS(rte_dma_submit(env.dev_id, 0), "submit");
	/* Ran, but not yet reported: the slots are still taken. */
	TEST_ASSERT_EQUAL(rte_dma_burst_capacity(env.dev_id, 0), 0, "unreported ops freed");
	got = rte_dma_completed(env.dev_id, 0, 10, &last, &err);
	TEST_ASSERT(got == 10 && last == 9 && !err, "first 10: %u, last %u", got, last);
	TEST_ASSERT_EQUAL(rte_dma_burst_capacity(env.dev_id, 0), 10, "capacity after 10");
	got = rte_dma_completed_status(env.dev_id, 0, DMA_RING, &last, status);
	TEST_ASSERT(got == DMA_RING - 10 && last == DMA_RING - 1, "rest: %u, last %u", got, last);
	for (i = 0; i < got; i++)
		TEST_ASSERT_EQUAL(status[i], RTE_DMA_STATUS_SUCCESSFUL, "status %u", i);

	/* Past the 16-bit wrap of the indexes, in rounds of a whole ring. */
	n = DMA_RING;
	for (round = 0; round < 65536 / DMA_RING + 2; round++) {
		for (i = 0; i < DMA_RING; i++, n++) {
			idx = rte_dma_copy(env.dev_id, 0, dma_iova(src + 8 * i),
					   DMA_WIN_ADDR + 8 * i, 8, 0);
			TEST_ASSERT_EQUAL(idx, (int)n, "round %u copy %u: %d", round, i, idx);
		}
		rte_dma_submit(env.dev_id, 0);
		got = rte_dma_completed(env.dev_id, 0, DMA_RING, &last, &err);
		TEST_ASSERT(got == DMA_RING && !err && last == (uint16_t)(n - 1),
			    "round %u: %u done, last %u", round, got, last);
	}
	rte_dma_stop(env.dev_id);
	dma_destroy();
	return TEST_SUCCESS;
}

/*
 * Failed transactions: each ends with its own status, rte_dma_completed()
 * stops before it, and the operations after it still run.
 */
static int
dma_case_errors(void)
{
	uint8_t *src = env.local, *stack_buf = env.local + 8192;
	enum rte_dma_status_code status[8];
	uint16_t last = 0, got;
	char args[128];
	bool err = false;

	dma_pattern(src, 4096, 5);
	TEST_ASSERT_SUCCESS(dma_open("nwrite_r", RTE_DMA_DIR_MEM_TO_DEV), "open");
	rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR, 64, 0);
	/* Straddling the end of the window: B answers ERROR. */
	rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR + DMA_WIN_SIZE - 32, 64, 0);
	rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_NO_WIN_ADDR, 64, 0);
	/* Beyond 34-bit addresses. */
	rte_dma_copy(env.dev_id, 0, dma_iova(src), 1ull << 34, 64, 0);
	rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR + 128, 64, RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed(env.dev_id, 0, 8, &last, &err);
	TEST_ASSERT(got == 1 && last == 0 && err, "completed %u (last %u, error %d)", got, last,
		    err);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 4 && last == 4, "statuses %u, last %u", got, last);
	TEST_ASSERT_EQUAL(status[0], RTE_DMA_STATUS_BUS_WRITE_ERROR, "straddling: %d", status[0]);
	TEST_ASSERT_EQUAL(status[1], RTE_DMA_STATUS_BUS_WRITE_ERROR, "no window: %d", status[1]);
	TEST_ASSERT_EQUAL(status[2], RTE_DMA_STATUS_INVALID_ADDR, "beyond 34 bits: %d",
			  status[2]);
	TEST_ASSERT_EQUAL(status[3], RTE_DMA_STATUS_SUCCESSFUL, "after the errors: %d",
			  status[3]);
	TEST_ASSERT(memcmp(env.win + 128, src, 64) == 0, "the last copy did not land");
	/* A local address that is not DPDK memory has no IOVA. */
	rte_dma_copy(env.dev_id, 0, (rte_iova_t)(uintptr_t)args, DMA_WIN_ADDR, 8,
		     RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 1 && status[0] == RTE_DMA_STATUS_INVALID_SRC_ADDR,
		    "local address without IOVA: %u, status %d", got, status[0]);
	rte_dma_stop(env.dev_id);
	dma_destroy();

	TEST_ASSERT_SUCCESS(dma_open("", RTE_DMA_DIR_DEV_TO_MEM), "open NREAD");
	rte_dma_copy(env.dev_id, 0, DMA_NO_WIN_ADDR, dma_iova(stack_buf), 16,
		     RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 1 && status[0] == RTE_DMA_STATUS_BUS_READ_ERROR,
		    "NREAD without window: %u, status %d", got, status[0]);
	rte_dma_stop(env.dev_id);
	dma_destroy();

	/* ep2 has no window: ERROR, though nobody claims it (the part answers). */
	snprintf(args, sizeof(args), "mport=%s,destid=%u", env.mport[0], env.ids[2]);
	TEST_ASSERT(dma_create(args) >= 0, "create towards ep2");
	TEST_ASSERT_SUCCESS(dma_start(RTE_DMA_DIR_DEV_TO_MEM, DMA_RING), "start");
	rte_dma_copy(env.dev_id, 0, DMA_WIN_ADDR, dma_iova(stack_buf), 16,
		     RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 1 && status[0] == RTE_DMA_STATUS_BUS_READ_ERROR,
		    "NREAD of an unclaimed endpoint: %u, status %d", got, status[0]);
	rte_dma_stop(env.dev_id);
	dma_destroy();

	/* No route to the fourth ID: no response. */
	snprintf(args, sizeof(args), "mport=%s,destid=%u", env.mport[0], env.ids[3]);
	TEST_ASSERT(dma_create(args) >= 0, "create towards nobody");
	TEST_ASSERT_SUCCESS(dma_start(RTE_DMA_DIR_DEV_TO_MEM, DMA_RING), "start");
	rte_dma_copy(env.dev_id, 0, DMA_WIN_ADDR, dma_iova(stack_buf), 16,
		     RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 1 && status[0] == RTE_DMA_STATUS_DEV_LINK_ERROR,
		    "NREAD of nobody: %u, status %d", got, status[0]);
	rte_dma_stop(env.dev_id);
	dma_destroy();

	/* NWRITE_R to nobody times out; an NWRITE is lost and nobody can tell. */
	snprintf(args, sizeof(args), "mport=%s,destid=%u,write=nwrite_r", env.mport[0],
		 env.ids[3]);
	TEST_ASSERT(dma_create(args) >= 0, "create towards nobody");
	TEST_ASSERT_SUCCESS(dma_start(RTE_DMA_DIR_MEM_TO_DEV, DMA_RING), "start");
	rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR, 16, RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 1 && status[0] == RTE_DMA_STATUS_DEV_LINK_ERROR,
		    "NWRITE_R to nobody: %u, status %d", got, status[0]);
	rte_dma_stop(env.dev_id);
	dma_destroy();
	snprintf(args, sizeof(args), "mport=%s,destid=%u", env.mport[0], env.ids[3]);
	TEST_ASSERT(dma_create(args) >= 0, "create towards nobody");
	TEST_ASSERT_SUCCESS(dma_start(RTE_DMA_DIR_MEM_TO_DEV, DMA_RING), "start");
	rte_dma_copy(env.dev_id, 0, dma_iova(src), DMA_WIN_ADDR, 16, RTE_DMA_OP_FLAG_SUBMIT);
	got = rte_dma_completed_status(env.dev_id, 0, 8, &last, status);
	TEST_ASSERT(got == 1 && status[0] == RTE_DMA_STATUS_SUCCESSFUL,
		    "NWRITE to nobody: %u, status %d", got, status[0]);
	rte_dma_stop(env.dev_id);
	dma_destroy();
	return TEST_SUCCESS;
}

static int test_dma_devargs8(void) { return dma_run(dma_case_devargs, 8); }
static int test_dma_devargs16(void) { return dma_run(dma_case_devargs, 16); }
static int test_dma_copies8(void) { return dma_run(dma_case_copies, 8); }
static int test_dma_copies16(void) { return dma_run(dma_case_copies, 16); }
static int test_dma_swrite_fill(void) { return dma_run(dma_case_swrite_fill, 8); }
static int test_dma_ring(void) { return dma_run(dma_case_ring, 8); }
static int test_dma_errors8(void) { return dma_run(dma_case_errors, 8); }
static int test_dma_errors16(void) { return dma_run(dma_case_errors, 16); }

static struct unit_test_suite rio_dma_suite = {
	.suite_name = "dma_rio dmadev",
	.unit_test_cases = {
		TEST_CASE(test_dma_devargs8),
		TEST_CASE(test_dma_devargs16),
		TEST_CASE(test_dma_copies8),
		TEST_CASE(test_dma_copies16),
		TEST_CASE(test_dma_swrite_fill),
		TEST_CASE(test_dma_ring),
		TEST_CASE(test_dma_errors8),
		TEST_CASE(test_dma_errors16),
		TEST_CASES_END()
	},
};

static int
test_rio_dma(void)
{
	return unit_test_suite_runner(&rio_dma_suite);
}

REGISTER_TEST_COMMAND(rio_dma_autotest, test_rio_dma);
