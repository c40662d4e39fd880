/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim_mem_autotest: RapidIO memory space on the emulated fabric through
 * the public lib/rio API: inbound windows (map rules, unmap), NREAD, NWRITE,
 * NWRITE_R and SWRITE of 1 to 4096 bytes at every byte offset of a
 * double-word, write-then-read round trips, vectored ones, the errors (no window, out of
 * window, no route, unclaimed target, address space, SWRITE alignment), a
 * target in another process, one that dies with its window mapped (no
 * response, no object left), threads that wait side by side, a link that
 * goes down in the middle of a transfer, and 8- and 16-bit device IDs. Topology:
 *
 *   ep0 (A) -- sw0 -- sw1 -- ep1 (B)     static_routes = 1, timing on
 *                |
 *               ep2 (C: unclaimed, or a child process's)
 *
 * Every case builds its own fabric and checks at teardown that no
 * rio_sim.<fabric>* object remains.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_rawdev.h>

#include "rte_rio.h"
#include "rte_pmd_rio_sim.h"
#include "rte_pmd_rio_sim_fabric.h"

#include "test.h"

#define MEM_WIN_ADDR		0x10000ull	/* B's window */
#define MEM_WIN_SIZE		8192u
#define MEM_NO_WIN_ADDR		0x900000ull	/* no window there */
#define MEM_DESTID_NOBODY_8	7
#define MEM_CHILD_WAIT_MS	30000
#define MEM_READY_MS		20000

static const uint16_t mem_ids8[3] = { 1, 2, 3 };
static const uint16_t mem_ids16[3] = { 0x1234, 0x5678, 0x9abc };

struct mem_env {
	char fabric[RTE_PMD_RIO_SIM_NAME_LEN];
	char topo[64];
	char shm_prefix[64];
	char name[2][32];
	bool created[2];
	struct rte_rio_mport *mp[2];
	const uint16_t *ids;
	uint8_t *win;			/* B's window buffer */
};

static struct mem_env env;
static unsigned int mem_vdev_counter;
/* [fabric] response_timeout of the next environment, us; 0: rio_sim's default. */
static unsigned int mem_resp_timeout_us;
/* [fabric] keys of the links of the next environment; "": rio_sim's default. */
static const char *mem_link_keys = "";

static int
mem_topo_write(unsigned int devid_size, const uint16_t *ids)
{
	char content[600], timeout[48] = "";

	if (mem_resp_timeout_us != 0)
		snprintf(timeout, sizeof(timeout), "response_timeout = %u\n", mem_resp_timeout_us);
	snprintf(content, sizeof(content),
		 "[fabric]\n"
		 "devid_size = %u\n"
		 "%s%s"
		 "static_routes = 1\n"
		 "[switch sw0]\n"
		 "ports = 4\n"
		 "[switch sw1]\n"
		 "ports = 4\n"
		 "[endpoint ep0]\n"
		 "destid = %u\n"
		 "[endpoint ep1]\n"
		 "destid = %u\n"
		 "[endpoint ep2]\n"
		 "destid = %u\n"
		 "[links]\n"
		 "sw0.0 = ep0.0\n"
		 "sw0.1 = sw1.1\n"
		 "sw1.0 = ep1.0\n"
		 "sw0.2 = ep2.0\n",
		 devid_size, timeout, mem_link_keys, ids[0], ids[1], ids[2]);
	return rio_test_temp_file(env.topo, sizeof(env.topo), "rio_sim_mem_topo", content);
}

static int
mem_mport_create(unsigned int i)
{
	char args[256];
	int ret;

	snprintf(env.name[i], sizeof(env.name[i]), "rio_sim_mem%u", mem_vdev_counter++);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep%u,scan=0",
		 env.fabric, env.topo, i);
	ret = rte_vdev_init(env.name[i], args);
	if (ret < 0)
		return ret;
	env.created[i] = true;
	env.mp[i] = rte_rio_mport_find(env.name[i]);
	return env.mp[i] == NULL ? -ENODEV : 0;
}

static void
mem_mport_destroy(unsigned int i)
{
	if (env.created[i])
		rte_vdev_uninit(env.name[i]);
	env.created[i] = false;
	env.mp[i] = NULL;
}

static int
mem_env_setup(unsigned int devid_size)
{
	memset(&env, 0, sizeof(env));
	env.ids = devid_size == 16 ? mem_ids16 : mem_ids8;
	if (rio_test_unique("rmem", env.fabric, sizeof(env.fabric) - 1) == NULL)
		return TEST_FAILED;
	strcat(env.fabric, "x");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(mem_topo_write(devid_size, env.ids), "cannot write topology");
	TEST_ASSERT_SUCCESS(mem_mport_create(0), "cannot create mport for ep0");
	TEST_ASSERT_SUCCESS(mem_mport_create(1), "cannot create mport for ep1");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(env.mp[1]), env.ids[1], "destid of ep1");
	env.win = aligned_alloc(4096, MEM_WIN_SIZE);
	TEST_ASSERT(env.win != NULL, "out of memory");
	memset(env.win, 0x5a, MEM_WIN_SIZE);
	return TEST_SUCCESS;
}

static int
mem_env_teardown(void)
{
	int left = 0;

	mem_mport_destroy(1);
	mem_mport_destroy(0);
	/* Unregistering B gave the buffer its own pages back. */
	free(env.win);
	env.win = NULL;
	if (env.topo[0] != '\0')
		unlink(env.topo);
	env.topo[0] = '\0';
	if (env.fabric[0] != '\0')
		left = rio_test_shm_count(env.shm_prefix);
	if (left != 0) {
		printf("  LEAK: %d objects %s* remain after the test\n", left, env.shm_prefix);
		rio_test_shm_cleanup(env.shm_prefix);
	}
	return left;
}

static int
mem_run(int (*fn)(void), unsigned int devid_size)
{
	int ret = mem_env_setup(devid_size);

	if (ret == TEST_SUCCESS)
		ret = fn();
	if (mem_env_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

/* Counter @name of the rawdev of mport i. */
static uint64_t
mem_xstat(unsigned int i, const char *name)
{
	unsigned int id;

	return rte_rawdev_xstats_by_name_get((uint16_t)rte_rawdev_get_dev_id(env.name[i]), name,
					     &id);
}

static void
mem_pattern(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

/* ------------------------------------------------------------------ */
/* Cases                                                              */

static int
mem_case_window_rules(void)
{
	struct rte_rio_mport *b = env.mp[1];
	uint8_t *bufs[8];
	unsigned int k;
	int ret;

	TEST_ASSERT_EQUAL(rte_rio_mem_addr_bits(b), 34, "reset addressing is 34-bit");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, NULL, 0, 4096, 0), -EINVAL, "NULL buffer");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win, 0, 4096, 1), -EINVAL, "flags");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win, 0, 2048, 0), -EINVAL, "< 4 KiB");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win, 0, 6144, 0), -EINVAL,
			  "not a power of two");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win, 0x1000, 8192, 0), -EINVAL,
			  "not aligned to its size");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win, 1ull << 34, 4096, 0), -ERANGE,
			  "beyond 34-bit addresses");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win + 8, 0, 4096, 0), -EINVAL,
			  "buffer not page-aligned (rio_sim)");
	TEST_ASSERT_EQUAL(rte_rio_unmap_inb_window(b, 0), -ENOENT, "unmap of nothing");
	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(b, env.win, MEM_WIN_ADDR, MEM_WIN_SIZE, 0),
			    "map");
	TEST_ASSERT_EQUAL(rte_rio_map_inb_window(b, env.win, MEM_WIN_ADDR + 4096, 4096, 0),
			  -EEXIST, "overlap");
	/* The buffer kept what it held. */
	TEST_ASSERT(env.win[0] == 0x5a && env.win[MEM_WIN_SIZE - 1] == 0x5a, "contents kept");
	/* rio_sim has 8 windows. */
	for (k = 0; k < 8; k++)
		bufs[k] = aligned_alloc(4096, 4096);
	for (k = 0; k < 7; k++) {
		ret = rte_rio_map_inb_window(b, bufs[k], 0x100000 + k * 4096, 4096, 0);
		TEST_ASSERT_SUCCESS(ret, "window %u: %d", k + 1, ret);
	}
	ret = rte_rio_map_inb_window(b, bufs[7], 0x200000, 4096, 0);
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "ninth window: %d", ret);
	for (k = 0; k < 7; k++)
		TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(b, 0x100000 + k * 4096), "unmap");
	for (k = 0; k < 8; k++)
		free(bufs[k]);
	TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(b, MEM_WIN_ADDR), "unmap");
	TEST_ASSERT_EQUAL(rte_rio_unmap_inb_window(b, MEM_WIN_ADDR), -ENOENT, "unmap twice");
	return TEST_SUCCESS;
}

/* Write @len bytes at window offset @off with @type, check B's buffer, read them back. */
static int
mem_roundtrip(enum rte_rio_mem_type type, uint32_t off, uint32_t len, unsigned int seed)
{
	static uint8_t src[MEM_WIN_SIZE], dst[MEM_WIN_SIZE];
	uint16_t destid = env.ids[1];
	int ret;

	mem_pattern(src, len, seed);
	ret = rte_rio_mem_write(env.mp[0], destid, MEM_WIN_ADDR + off, src, len, type);
	TEST_ASSERT_SUCCESS(ret, "write type %d of %u at +%u: %d", type, len, off, ret);
	TEST_ASSERT(memcmp(env.win + off, src, len) == 0,
		    "type %d of %u at +%u: not in the target's buffer", type, len, off);
	memset(dst, 0, len);
	ret = rte_rio_mem_read(env.mp[0], destid, MEM_WIN_ADDR + off, dst, len);
	TEST_ASSERT_SUCCESS(ret, "NREAD of %u at +%u: %d", len, off, ret);
	TEST_ASSERT(memcmp(dst, src, len) == 0, "NREAD of %u at +%u: wrong data", len, off);
	return TEST_SUCCESS;
}

static int
mem_case_roundtrips(void)
{
	static const uint32_t big[] = { 255, 256, 257, 264, 511, 1000, 2048, 4095, 4096 };
	static const enum rte_rio_mem_type types[] = {
		RTE_RIO_MEM_NWRITE, RTE_RIO_MEM_NWRITE_R, RTE_RIO_MEM_SWRITE,
	};
	uint8_t guard[16];
	unsigned int t, seed = 0;
	uint32_t off, len, i;
	int ret;

	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(env.mp[1], env.win, MEM_WIN_ADDR,
						   MEM_WIN_SIZE, 0), "map");
	for (t = 0; t < RTE_DIM(types); t++) {
		for (len = 1; len <= 80; len++) {
			for (off = 0; off < 8; off++) {
				if (types[t] == RTE_RIO_MEM_SWRITE && ((len | off) & 7) != 0)
					continue;
				ret = mem_roundtrip(types[t], 64 + off, len, seed++);
				if (ret != TEST_SUCCESS)
					return ret;
			}
		}
		for (i = 0; i < RTE_DIM(big); i++) {
			for (off = 0; off < 8; off += 3) {
				if (types[t] == RTE_RIO_MEM_SWRITE && ((big[i] | off) & 7) != 0)
					continue;
				ret = mem_roundtrip(types[t], off, big[i], seed++);
				if (ret != TEST_SUCCESS)
					return ret;
			}
		}
	}
	/* Bytes next to a small write stay as they were. */
	memset(env.win, 0x11, 64);
	memset(guard, 0x22, sizeof(guard));
	TEST_ASSERT_SUCCESS(rte_rio_mem_write(env.mp[0], env.ids[1], MEM_WIN_ADDR + 3, guard, 2,
					      RTE_RIO_MEM_NWRITE_R), "2 bytes at lane 3");
	TEST_ASSERT(env.win[2] == 0x11 && env.win[3] == 0x22 && env.win[4] == 0x22 &&
		    env.win[5] == 0x11, "bytes around a 2-byte write");
	/* What the owner writes into its buffer, an NREAD returns. */
	memset(env.win + 4096, 0xc3, 4096);
	memset(guard, 0, sizeof(guard));
	TEST_ASSERT_SUCCESS(rte_rio_mem_read(env.mp[0], env.ids[1], MEM_WIN_ADDR + 8191 - 15,
					     guard, 16), "NREAD of the last 16 bytes");
	for (i = 0; i < 16; i++)
		TEST_ASSERT_EQUAL(guard[i], 0xc3, "owner's write seen by NREAD");
	TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(env.mp[1], MEM_WIN_ADDR), "unmap");
	return TEST_SUCCESS;
}

static int
mem_case_errors(void)
{
	struct rte_rio_mport *a = env.mp[0];
	uint16_t b = env.ids[1];
	uint8_t buf[64], saved[16];
	uint64_t refused;
	int ret;

	memset(buf, 0x77, sizeof(buf));
	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(env.mp[1], env.win, MEM_WIN_ADDR,
						   MEM_WIN_SIZE, 0), "map");
	/* Bad arguments. */
	TEST_ASSERT_EQUAL(rte_rio_mem_read(a, b, MEM_WIN_ADDR, buf, 0), -EINVAL, "len 0");
	TEST_ASSERT_EQUAL(rte_rio_mem_read(a, b, MEM_WIN_ADDR, NULL, 8), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(rte_rio_mem_write(a, b, MEM_WIN_ADDR, buf, 8, RTE_RIO_MEM_NREAD),
			  -EINVAL, "NREAD as a write type");
	TEST_ASSERT_EQUAL(rte_rio_mem_write(a, b, MEM_WIN_ADDR, buf, 8,
					    (enum rte_rio_mem_type)9), -EINVAL, "bad type");
	TEST_ASSERT_EQUAL(rte_rio_mem_write(a, b, MEM_WIN_ADDR + 4, buf, 8, RTE_RIO_MEM_SWRITE),
			  -EINVAL, "SWRITE not double-word aligned");
	TEST_ASSERT_EQUAL(rte_rio_mem_write(a, b, MEM_WIN_ADDR, buf, 12, RTE_RIO_MEM_SWRITE),
			  -EINVAL, "SWRITE of a part of a double-word");
	if (env.ids == mem_ids8)
		TEST_ASSERT_EQUAL(rte_rio_mem_read(a, 0x100, MEM_WIN_ADDR, buf, 8), -EINVAL,
				  "destid beyond 8 bits");
	TEST_ASSERT_EQUAL(rte_rio_mem_read(a, b, (1ull << 34) - 4, buf, 8), -ERANGE,
			  "beyond 34-bit addresses");
	/* No window there: ERROR for requests with a response, silence for the others. */
	ret = rte_rio_mem_read(a, b, MEM_NO_WIN_ADDR, buf, 8);
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD without a window: %d", ret);
	ret = rte_rio_mem_write(a, b, MEM_NO_WIN_ADDR, buf, 8, RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_EQUAL(ret, -EIO, "NWRITE_R without a window: %d", ret);
	refused = mem_xstat(1, "mem_rx_refused");
	TEST_ASSERT_SUCCESS(rte_rio_mem_write(a, b, MEM_NO_WIN_ADDR, buf, 8, RTE_RIO_MEM_NWRITE),
			    "NWRITE has no response");
	TEST_ASSERT_EQUAL(mem_xstat(1, "mem_rx_refused"), refused + 1,
			  "the target counts the NWRITE it refused");
	TEST_ASSERT_SUCCESS(rte_rio_mem_write(a, b, MEM_NO_WIN_ADDR, buf, 8, RTE_RIO_MEM_SWRITE),
			    "SWRITE has no response");
	/* Out of the window: the packet that crosses its end is refused. */
	ret = rte_rio_mem_read(a, b, MEM_WIN_ADDR + MEM_WIN_SIZE - 8, buf, 16);
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD across the end of the window: %d", ret);
	ret = rte_rio_mem_write(a, b, MEM_WIN_ADDR - 8, buf, 16, RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_EQUAL(ret, -EIO, "NWRITE_R across the start of the window: %d", ret);
	/* No route: no response comes back. */
	if (env.ids == mem_ids8) {
		ret = rte_rio_mem_read(a, MEM_DESTID_NOBODY_8, MEM_WIN_ADDR, buf, 8);
		TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NREAD to nobody: %d", ret);
		ret = rte_rio_mem_write(a, MEM_DESTID_NOBODY_8, MEM_WIN_ADDR, buf, 8,
					RTE_RIO_MEM_NWRITE);
		TEST_ASSERT_SUCCESS(ret, "NWRITE to nobody: lost without a word");
	}
	/* A target whose endpoint nobody runs has no window. */
	ret = rte_rio_mem_read(a, env.ids[2], MEM_WIN_ADDR, buf, 8);
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD of an unclaimed endpoint: %d", ret);
	/* Removed: ERROR again, and the buffer keeps its bytes, private once more. */
	TEST_ASSERT_SUCCESS(rte_rio_mem_write(a, b, MEM_WIN_ADDR, buf, 16, RTE_RIO_MEM_NWRITE_R),
			    "write before unmap");
	TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(env.mp[1], MEM_WIN_ADDR), "unmap");
	memcpy(saved, env.win, sizeof(saved));
	TEST_ASSERT(memcmp(saved, buf, 16) == 0, "buffer kept the window's bytes");
	ret = rte_rio_mem_read(a, b, MEM_WIN_ADDR, buf, 8);
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD after unmap: %d", ret);
	memset(buf, 0x99, sizeof(buf));
	rte_rio_mem_write(a, b, MEM_WIN_ADDR, buf, 16, RTE_RIO_MEM_NWRITE);
	TEST_ASSERT(memcmp(env.win, saved, sizeof(saved)) == 0, "unmapped buffer changed");
	return TEST_SUCCESS;
}

/* Child: claim ep2, map a window with a pattern, tell the parent, wait for its write. */
static int
mem_child(int argc, char **argv)
{
	char args[256], **av;
	struct rte_rio_mport *mp;
	uint8_t *win, want[256];
	uint64_t deadline;
	int ret, n, fd;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 10;
	n = rio_test_child_args(argc, argv, ret, &av);
	if (n < 3)
		return 11;
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep2,scan=0", av[0], av[1]);
	fd = atoi(av[2]);
	if (rte_vdev_init("rio_sim_memchild", args) < 0)
		return 12;
	mp = rte_rio_mport_find("rio_sim_memchild");
	win = aligned_alloc(4096, 4096);
	if (mp == NULL || win == NULL)
		return 13;
	mem_pattern(win, 4096, 1);
	if (rte_rio_map_inb_window(mp, win, MEM_WIN_ADDR, 4096, 0) != 0)
		return 14;
	if (write(fd, "R", 1) != 1)
		return 15;
	/* "hold": keep the window until killed (a target that dies). */
	if (n > 3 && strcmp(av[3], "hold") == 0)
		for (;;)
			pause();
	/* The parent writes pattern 2 into the first 256 bytes: our buffer changes. */
	mem_pattern(want, sizeof(want), 2);
	ret = 16;
	for (deadline = rte_get_timer_cycles() + rte_get_timer_hz() * 20;
	     rte_get_timer_cycles() < deadline; usleep(1000)) {
		if (memcmp(win, want, sizeof(want)) == 0) {
			ret = 0;
			break;
		}
	}
	rte_vdev_uninit("rio_sim_memchild");
	free(win);
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(rio_sim_mem_child, mem_child)

/* Spawn the child in @mode; wait for its window. 0 with *pid, or -1. */
static int
mem_spawn(const char *mode, char *prefix, size_t plen, pid_t *pid)
{
	char prefix_arg[80], fdstr[16];
	struct pollfd pfd;
	char *argv[16], c;
	int pfds[2], n = 0, ret;

	if (pipe(pfds) != 0)
		return -1;
	rio_test_unique("rmemc", prefix, plen);
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", prefix);
	snprintf(fdstr, sizeof(fdstr), "%d", pfds[1]);
	argv[n++] = (char *)(uintptr_t)"--no-huge";
	argv[n++] = (char *)(uintptr_t)"-m";
	argv[n++] = (char *)(uintptr_t)"64";
	argv[n++] = (char *)(uintptr_t)"--no-pci";
	argv[n++] = prefix_arg;
	argv[n++] = (char *)(uintptr_t)"--log-level=lib.eal:error";
	argv[n++] = (char *)(uintptr_t)"--";
	argv[n++] = env.fabric;
	argv[n++] = env.topo;
	argv[n++] = fdstr;
	argv[n++] = (char *)(uintptr_t)mode;
	argv[n] = NULL;
	*pid = rio_test_spawn("rio_sim_mem_child", argv);
	close(pfds[1]);
	if (*pid <= 0) {
		close(pfds[0]);
		return -1;
	}
	pfd.fd = pfds[0];
	pfd.events = POLLIN;
	ret = poll(&pfd, 1, MEM_READY_MS) == 1 && read(pfds[0], &c, 1) == 1 ? 0 : -1;
	close(pfds[0]);
	return ret;
}

/* The target's process dies with its window mapped: no response any more, nothing left over. */
static int
mem_case_target_dies(void)
{
	uint8_t buf[64], want[64];
	char prefix[64];
	int ret, status;
	pid_t pid = 0;

	ret = mem_spawn("hold", prefix, sizeof(prefix), &pid);
	if (ret == 0) {
		mem_pattern(want, sizeof(want), 1);
		ret = rte_rio_mem_read(env.mp[0], env.ids[2], MEM_WIN_ADDR, buf, sizeof(buf));
		if (ret == 0 && memcmp(buf, want, sizeof(buf)) != 0)
			ret = -EBADMSG;
	}
	if (pid > 0)
		kill(pid, SIGKILL);
	status = pid > 0 ? rio_test_wait(pid, MEM_CHILD_WAIT_MS) : -1;
	rio_test_runtime_dir_cleanup(prefix);
	TEST_ASSERT_SUCCESS(ret, "NREAD of the child's window: %d", ret);
	TEST_ASSERT_EQUAL(status, 128 + SIGKILL, "child status %d", status);
	ret = rte_rio_mem_read(env.mp[0], env.ids[2], MEM_WIN_ADDR, buf, 8);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NREAD of a dead target: %d", ret);
	ret = rte_rio_mem_write(env.mp[0], env.ids[2], MEM_WIN_ADDR, buf, 8,
				RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NWRITE_R to a dead target: %d", ret);
	/* Teardown checks that its window segment went with the fabric. */
	return TEST_SUCCESS;
}

static int
mem_case_other_process(void)
{
	uint8_t buf[4096], want[4096];
	char prefix[64];
	int status, ret;
	pid_t pid = 0;

	ret = mem_spawn("write", prefix, sizeof(prefix), &pid);
	if (pid <= 0)
		TEST_ASSERT(0, "cannot spawn the child");
	if (ret == 0) {
		/* The child's buffer, through its window. */
		mem_pattern(want, sizeof(want), 1);
		ret = rte_rio_mem_read(env.mp[0], env.ids[2], MEM_WIN_ADDR, buf, sizeof(buf));
		if (ret == 0 && memcmp(buf, want, sizeof(buf)) != 0)
			ret = -EBADMSG;
		mem_pattern(want, 256, 2);
		if (ret == 0)
			ret = rte_rio_mem_write(env.mp[0], env.ids[2], MEM_WIN_ADDR, want, 256,
						RTE_RIO_MEM_NWRITE_R);
	}
	status = rio_test_wait(pid, MEM_CHILD_WAIT_MS);
	rio_test_runtime_dir_cleanup(prefix);
	TEST_ASSERT_SUCCESS(ret, "transactions with the child's window: %d", ret);
	TEST_ASSERT_EQUAL(status, 0, "child failed: %d", status);
	/* Gone with its process: the endpoint has no window any more. */
	ret = rte_rio_mem_read(env.mp[0], env.ids[2], MEM_WIN_ADDR, buf, 8);
	TEST_ASSERT_EQUAL(ret, -EIO, "NREAD after the child left: %d", ret);
	return TEST_SUCCESS;
}

/* A transaction that waits for its response timeout, in a thread of its own. */
struct mem_waiter {
	int ret;
	volatile int started;
};

static void *
mem_waiter_main(void *arg)
{
	struct mem_waiter *w = arg;
	uint8_t buf[8];

	w->started = 1;
	w->ret = rte_rio_mem_read(env.mp[0], MEM_DESTID_NOBODY_8, MEM_WIN_ADDR, buf, sizeof(buf));
	return NULL;
}

/*
 * Threads of one process do not wait for each other's modelled time: while
 * one thread's NREAD waits out the response timeout (no route: 5 s here),
 * another thread's NREAD of a live window completes. The bound checked,
 * half the timeout, is only crossed when the second waited for the first.
 */
static int
mem_case_concurrent(void)
{
	struct mem_waiter w = { .ret = 1 };
	uint8_t buf[64];
	uint64_t t0, took_ms;
	pthread_t th;

	mem_pattern(env.win, MEM_WIN_SIZE, 3);
	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(env.mp[1], env.win, MEM_WIN_ADDR,
						   MEM_WIN_SIZE, 0), "map");
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, mem_waiter_main, &w), "thread");
	while (!w.started)
		rte_delay_us_sleep(1000);
	/* Let it enter its wait; if it has not yet, nothing is proven, nothing fails. */
	rte_delay_us_sleep(20000);
	t0 = rte_get_timer_cycles();
	TEST_ASSERT_SUCCESS(rte_rio_mem_read(env.mp[0], env.ids[1], MEM_WIN_ADDR, buf,
					     sizeof(buf)), "NREAD beside a waiting one");
	took_ms = (rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
	TEST_ASSERT(memcmp(buf, env.win, sizeof(buf)) == 0, "NREAD data");
	TEST_ASSERT(took_ms < mem_resp_timeout_us / 2000,
		    "NREAD waited %" PRIu64 " ms for another thread's timeout", took_ms);
	TEST_ASSERT_SUCCESS(pthread_join(th, NULL), "join");
	TEST_ASSERT_EQUAL(w.ret, -ETIMEDOUT, "the waiting NREAD");
	TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(env.mp[1], MEM_WIN_ADDR), "unmap");
	return TEST_SUCCESS;
}

static int
test_mem_concurrent(void)
{
	int ret;

	mem_resp_timeout_us = 5000000;
	ret = mem_run(mem_case_concurrent, 8);
	mem_resp_timeout_us = 0;
	return ret;
}

/*
 * Vectored transactions: pieces of every alignment whose packets share
 * bursts (more than one burst in all), written and read back in one call
 * each; and the checks that refuse the whole vector before anything is sent.
 */
static int
mem_case_vectored(void)
{
	static uint8_t src[MEM_WIN_SIZE], dst[MEM_WIN_SIZE];
	struct rte_rio_mem_seg w[80], r[80];
	uint16_t b = env.ids[1];
	uint64_t sent;
	uint32_t at = 0, len;
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(env.mp[1], env.win, MEM_WIN_ADDR,
						   MEM_WIN_SIZE, 0), "map");
	mem_pattern(src, sizeof(src), 11);
	memset(dst, 0, sizeof(dst));
	for (i = 0; i < RTE_DIM(w); i++) {
		len = 1 + (i * 37) % 100;
		at += i % 5;
		w[i] = (struct rte_rio_mem_seg){ MEM_WIN_ADDR + at, src + at, len };
		r[i] = (struct rte_rio_mem_seg){ MEM_WIN_ADDR + at, dst + at, len };
		at += len;
	}
	TEST_ASSERT(at <= MEM_WIN_SIZE, "pieces beyond the window");
	sent = mem_xstat(0, "mem_tx_pkts");
	ret = rte_rio_mem_writev(env.mp[0], b, w, RTE_DIM(w), RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_SUCCESS(ret, "writev: %d", ret);
	TEST_ASSERT(mem_xstat(0, "mem_tx_pkts") - sent > 128, "fewer packets than two bursts");
	for (i = 0; i < RTE_DIM(w); i++)
		TEST_ASSERT(memcmp(env.win + (w[i].rio_addr - MEM_WIN_ADDR), w[i].buf,
				   w[i].len) == 0, "piece %u not in the window", i);
	ret = rte_rio_mem_readv(env.mp[0], b, r, RTE_DIM(r));
	TEST_ASSERT_SUCCESS(ret, "readv: %d", ret);
	for (i = 0; i < RTE_DIM(r); i++)
		TEST_ASSERT(memcmp(r[i].buf, w[i].buf, r[i].len) == 0, "piece %u read back", i);

	/* Refused as a whole: nothing leaves. */
	sent = mem_xstat(0, "mem_tx_pkts");
	TEST_ASSERT_EQUAL(rte_rio_mem_readv(env.mp[0], b, r, 0), -EINVAL, "no pieces");
	r[3].len = 0;
	TEST_ASSERT_EQUAL(rte_rio_mem_readv(env.mp[0], b, r, RTE_DIM(r)), -EINVAL,
			  "a piece of 0 bytes");
	r[3].len = 8;
	TEST_ASSERT_EQUAL(rte_rio_mem_writev(env.mp[0], b, w, RTE_DIM(w), RTE_RIO_MEM_SWRITE),
			  -EINVAL, "SWRITE of pieces not in double-words");
	TEST_ASSERT_EQUAL(rte_rio_mem_writev(env.mp[0], b, w, RTE_DIM(w), RTE_RIO_MEM_NREAD),
			  -EINVAL, "NREAD as a write type");
	w[7].rio_addr = (1ull << 34) - 4;
	TEST_ASSERT_EQUAL(rte_rio_mem_writev(env.mp[0], b, w, RTE_DIM(w), RTE_RIO_MEM_NWRITE_R),
			  -ERANGE, "a piece beyond 34-bit addresses");
	TEST_ASSERT_EQUAL(mem_xstat(0, "mem_tx_pkts"), sent, "packets sent for a refused vector");
	/* A piece outside the window: the target's ERROR (which others landed is not said). */
	w[7].rio_addr = MEM_NO_WIN_ADDR;
	ret = rte_rio_mem_writev(env.mp[0], b, w, RTE_DIM(w), RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_EQUAL(ret, -EIO, "writev with a piece outside the window: %d", ret);
	r[7].rio_addr = MEM_NO_WIN_ADDR;
	ret = rte_rio_mem_readv(env.mp[0], b, r, RTE_DIM(r));
	TEST_ASSERT_EQUAL(ret, -EIO, "readv with a piece outside the window: %d", ret);
	TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(env.mp[1], MEM_WIN_ADDR), "unmap");
	return TEST_SUCCESS;
}

/*
 * A link between the switches goes down in the middle of a transfer of
 * many bursts: the transfer fails (no response: -ETIMEDOUT), the bursts
 * that were complete are in the target's window and nothing after the loss is;
 * with the link up again the same transfers succeed. And a burst on its way
 * when the link goes down is lost, not delivered. Links of 1.25 Gbaud x1 and
 * switches of 1 ms crossing latency make a 1 MiB transfer last ~140 ms (32
 * bursts of 128 packets, each waiting for its responses), and put a packet
 * on its way for 2 ms; an attempt that ended too early to say is repeated.
 */
#define MEM_HOP_NS	1000000
#define MEM_BIG_ADDR	0x1000000ull
#define MEM_BIG_SIZE	(1u << 20)
#define MEM_BIG_PKTS	(MEM_BIG_SIZE / 256)
#define MEM_LINK_TRIES	5

struct mem_transfer {
	enum rte_rio_mem_type type;
	uint8_t *buf;
	size_t len;
	int ret;
	uint64_t start_ns;		/* CLOCK_MONOTONIC before the call */
	volatile int started;
	volatile int done;
};

static uint64_t
mem_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *
mem_transfer_main(void *arg)
{
	struct mem_transfer *x = arg;

	x->start_ns = mem_now_ns();
	x->started = 1;
	if (x->type == RTE_RIO_MEM_NREAD)
		x->ret = rte_rio_mem_read(env.mp[0], env.ids[1], MEM_BIG_ADDR, x->buf, x->len);
	else
		x->ret = rte_rio_mem_write(env.mp[0], env.ids[1], MEM_BIG_ADDR, x->buf, x->len,
					   x->type);
	x->done = 1;
	return NULL;
}

/*
 * Run one transfer of @type and pull the sw0-sw1 link once its third burst
 * is out (bursts of a transfer with responses follow each other: the first
 * two are complete). 1: the link went down with at least two bursts not yet sent (the
 * loss is certain), 0: too late to say, -1: the thread or the link failed.
 * *ret is the transfer's result; the link is down on return (unless -1).
 */
static int
mem_transfer_cut(enum rte_rio_mem_type type, uint8_t *buf, int *ret)
{
	struct mem_transfer x = { .type = type, .buf = buf, .len = MEM_BIG_SIZE, .ret = 1 };
	uint64_t sent0, sent, deadline;
	pthread_t th;
	bool early;

	sent0 = mem_xstat(0, "mem_tx_pkts");
	if (pthread_create(&th, NULL, mem_transfer_main, &x) != 0)
		return -1;
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() * 10;
	while (mem_xstat(0, "mem_tx_pkts") - sent0 < 3 * 128 && !x.done &&
	       rte_get_timer_cycles() < deadline)
		rte_delay_us_sleep(100);
	early = x.done != 0;
	if (rte_pmd_rio_sim_fabric_link_set(env.fabric, "sw0", 1, false) != 0) {
		pthread_join(th, NULL);
		return -1;
	}
	/* Bursts counted after this were sent after the link went down. */
	sent = mem_xstat(0, "mem_tx_pkts") - sent0;
	pthread_join(th, NULL);
	*ret = x.ret;
	return !early && sent + 2 * 128 <= MEM_BIG_PKTS ? 1 : 0;
}

/*
 * One burst of NWRITE_R (16 packets) whose link goes down while it crosses
 * the switches: 1 and *ret when the link was down within 2 * MEM_HOP_NS of
 * the call (before any packet could arrive), 0: too late to say, -1: error.
 */
static int
mem_burst_cut(uint8_t *buf, int *ret)
{
	struct mem_transfer x = { .type = RTE_RIO_MEM_NWRITE_R, .buf = buf, .len = 4096,
				  .ret = 1 };
	uint64_t cut_ns;
	pthread_t th;

	if (pthread_create(&th, NULL, mem_transfer_main, &x) != 0)
		return -1;
	while (!x.started)
		;
	if (rte_pmd_rio_sim_fabric_link_set(env.fabric, "sw0", 1, false) != 0) {
		pthread_join(th, NULL);
		return -1;
	}
	cut_ns = mem_now_ns();
	pthread_join(th, NULL);
	*ret = x.ret;
	return cut_ns < x.start_ns + 2ull * MEM_HOP_NS ? 1 : 0;
}

static uint8_t mem_big_win[MEM_BIG_SIZE] __rte_aligned(4096);
static uint8_t mem_big_buf[MEM_BIG_SIZE];

/*
 * Cut a transfer of @type (@one_burst: a single NWRITE_R burst) from a fresh
 * window (pattern 5) until the cut is certain, MEM_LINK_TRIES times at
 * most; the link is up again after each. 1 with *ret, 0: never certain,
 * -1: a thread or the link failed.
 */
static int
mem_cut_tries(enum rte_rio_mem_type type, bool one_burst, int *ret)
{
	unsigned int tries;
	int cut;

	for (tries = 0; tries < MEM_LINK_TRIES; tries++) {
		mem_pattern(mem_big_win, MEM_BIG_SIZE, 5);
		cut = one_burst ? mem_burst_cut(mem_big_buf, ret) :
			mem_transfer_cut(type, mem_big_buf, ret);
		if (rte_pmd_rio_sim_fabric_link_set(env.fabric, "sw0", 1, true) != 0)
			return -1;
		if (cut != 0)
			return cut;
	}
	return 0;
}

static int
mem_case_link_down(void)
{
	uint8_t *win = mem_big_win, *buf = mem_big_buf;
	int ret = 0, cut;
	size_t at;

	mem_pattern(win, MEM_BIG_SIZE, 5);
	TEST_ASSERT_SUCCESS(rte_rio_map_inb_window(env.mp[1], win, MEM_BIG_ADDR, MEM_BIG_SIZE, 0),
			    "map");
	cut = mem_cut_tries(RTE_RIO_MEM_NREAD, false, &ret);
	TEST_ASSERT_EQUAL(cut, 1, "NREAD not cut for certain in %d tries (%d)", MEM_LINK_TRIES,
			  cut);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NREAD cut by the link: %d", ret);
	ret = rte_rio_mem_read(env.mp[0], env.ids[1], MEM_BIG_ADDR, buf, MEM_BIG_SIZE);
	TEST_ASSERT_SUCCESS(ret, "NREAD with the link up again: %d", ret);
	TEST_ASSERT(memcmp(buf, win, MEM_BIG_SIZE) == 0, "NREAD data after link up");

	/* NWRITE_R: the window holds a start of the new bytes and the old ones after. */
	mem_pattern(buf, MEM_BIG_SIZE, 6);
	cut = mem_cut_tries(RTE_RIO_MEM_NWRITE_R, false, &ret);
	TEST_ASSERT_EQUAL(cut, 1, "NWRITE_R not cut for certain in %d tries (%d)",
			  MEM_LINK_TRIES, cut);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NWRITE_R cut by the link: %d", ret);
	for (at = 0; at < MEM_BIG_SIZE && win[at] == buf[at]; at++)
		;
	TEST_ASSERT(at >= 2 * 128 * 256 && at % 256 == 0 && at + 2 * 128 * 256 <= MEM_BIG_SIZE,
		    "NWRITE_R landed up to byte %zu", at);
	mem_pattern(buf, MEM_BIG_SIZE, 5);
	TEST_ASSERT(memcmp(win + at, buf + at, MEM_BIG_SIZE - at) == 0,
		    "bytes after the loss at %zu changed", at);
	mem_pattern(buf, MEM_BIG_SIZE, 6);
	ret = rte_rio_mem_write(env.mp[0], env.ids[1], MEM_BIG_ADDR, buf, MEM_BIG_SIZE,
				RTE_RIO_MEM_NWRITE_R);
	TEST_ASSERT_SUCCESS(ret, "NWRITE_R with the link up again: %d", ret);
	TEST_ASSERT(memcmp(buf, win, MEM_BIG_SIZE) == 0, "NWRITE_R data after link up");

	/* The burst on its way is lost: an error, and the window keeps its bytes. */
	cut = mem_cut_tries(RTE_RIO_MEM_NWRITE_R, true, &ret);
	TEST_ASSERT_EQUAL(cut, 1, "burst not cut on its way in %d tries (%d)", MEM_LINK_TRIES,
			  cut);
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "NWRITE_R burst on a link that went down: %d", ret);
	mem_pattern(buf, 4096, 5);
	TEST_ASSERT(memcmp(win, buf, 4096) == 0, "a burst lost on the way was written");
	TEST_ASSERT_SUCCESS(rte_rio_unmap_inb_window(env.mp[1], MEM_BIG_ADDR), "unmap");
	return TEST_SUCCESS;
}

static int
test_mem_link_down(void)
{
	int ret;

	mem_resp_timeout_us = 50000;
	mem_link_keys = "lanes = 1\nbaud = 1.25\nhop_latency = " RTE_STR(MEM_HOP_NS) "\n";
	ret = mem_run(mem_case_link_down, 8);
	mem_link_keys = "";
	mem_resp_timeout_us = 0;
	return ret;
}

static int test_mem_rules(void) { return mem_run(mem_case_window_rules, 8); }
static int test_mem_roundtrips8(void) { return mem_run(mem_case_roundtrips, 8); }
static int test_mem_roundtrips16(void) { return mem_run(mem_case_roundtrips, 16); }
static int test_mem_errors8(void) { return mem_run(mem_case_errors, 8); }
static int test_mem_errors16(void) { return mem_run(mem_case_errors, 16); }
static int test_mem_vectored8(void) { return mem_run(mem_case_vectored, 8); }
static int test_mem_vectored16(void) { return mem_run(mem_case_vectored, 16); }
static int test_mem_other_process(void) { return mem_run(mem_case_other_process, 8); }
static int test_mem_target_dies(void) { return mem_run(mem_case_target_dies, 8); }

static struct unit_test_suite rio_sim_mem_suite = {
	.suite_name = "rio_sim memory space",
	.unit_test_cases = {
		TEST_CASE(test_mem_rules),
		TEST_CASE(test_mem_roundtrips8),
		TEST_CASE(test_mem_roundtrips16),
		TEST_CASE(test_mem_errors8),
		TEST_CASE(test_mem_errors16),
		TEST_CASE(test_mem_vectored8),
		TEST_CASE(test_mem_vectored16),
		TEST_CASE(test_mem_other_process),
		TEST_CASE(test_mem_target_dies),
		TEST_CASE(test_mem_concurrent),
		TEST_CASE(test_mem_link_down),
		TEST_CASES_END()
	},
};

static int
test_rio_sim_mem(void)
{
	return unit_test_suite_runner(&rio_sim_mem_suite);
}

REGISTER_TEST_COMMAND(rio_sim_mem_autotest, test_rio_sim_mem);
