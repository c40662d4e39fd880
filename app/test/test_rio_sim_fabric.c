/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim fabric model: topology files and shapes, shared-memory lifetime,
 * the configuration space of every device (backdoor), links, and
 * maintenance routing (injected, and end-to-end through lib/rio).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_string_fns.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rio_sim_shm.h"
#include "test.h"
#include "test_rio_sim_shm.h"

#define FT_ERR_LEN	256

static char ft_dir[64];

/* Unique fabric name; the trailing 'f' keeps names prefix-free of each other. */
static const char *
ft_name(char *buf, size_t len)
{
	char tmp[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN - 1];

	if (rio_test_unique("rfab", tmp, sizeof(tmp)) == NULL)
		return NULL;
	snprintf(buf, len, "%sf", tmp);
	return buf;
}

static int
ft_shm_count(const char *name)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", name);
	return rio_test_shm_count(prefix);
}

static int
ft_write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL)
		return -errno;
	if (fwrite(text, 1, len, fp) != len) {
		fclose(fp);
		return -EIO;
	}
	return fclose(fp) == 0 ? 0 : -EIO;
}

static int
ft_setup(void)
{
	if (ft_dir[0] != '\0')
		return 0;
	snprintf(ft_dir, sizeof(ft_dir), "/tmp/rio_fabric_test.XXXXXX");
	if (mkdtemp(ft_dir) == NULL) {
		ft_dir[0] = '\0';
		return TEST_FAILED;
	}
	return 0;
}

static void
ft_teardown(void)
{
	char cmd[128];

	/* Fabrics a failed case could not destroy. */
	snprintf(cmd, sizeof(cmd), "rio_sim.rfab_%d_", (int)getpid());
	rio_test_shm_cleanup(cmd);
	if (ft_dir[0] == '\0')
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", ft_dir);
	if (system(cmd) != 0)
		printf("cannot remove %s\n", ft_dir);
	ft_dir[0] = '\0';
}

static uint32_t
ft_rd(const char *fab, const char *dev, uint32_t off)
{
	uint32_t v = 0xdeadbeef;

	if (rte_pmd_rio_sim_fabric_config_read(fab, dev, off, 4, &v) != 0)
		return 0xdeadbeef;
	return v;
}

static int
ft_wr(const char *fab, const char *dev, uint32_t off, uint32_t v)
{
	return rte_pmd_rio_sim_fabric_config_write(fab, dev, off, 4, v);
}

/* ------------------------------------------------------------------ */
/* Malformed topologies                                               */

struct ft_bad {
	const char *what;
	const char *text;	/* NULL: special case handled by path */
	const char *expect;	/* substring of the error */
};

#define FT_SW "[switch sw0]\nports = 4\n"
#define FT_EP "[endpoint ep0]\n[endpoint ep1]\n"

static const struct ft_bad ft_bad_cases[] = {
	{ "unknown section type", FT_SW "[router r0]\nports = 2\n", "unknown section" },
	{ "duplicate device", FT_SW "[switch sw0]\nports = 4\n", "duplicate device name" },
	{ "ports not a number", "[switch sw0]\nports = abc\n" FT_EP, "not a number" },
	{ "ports too small", "[switch sw0]\nports = 1\n" FT_EP, "out of range" },
	{ "ports too large", "[switch sw0]\nports = 33\n" FT_EP, "out of range" },
	{ "switch without ports", "[switch sw0]\nvid = 1\n" FT_EP, "missing ports" },
	{ "unknown key", FT_SW "speed = 5\n" FT_EP, "unknown key 'speed'" },
	{ "endpoint key on switch", FT_SW "destid = 5\n" FT_EP, "unknown key 'destid'" },
	{ "link to unknown device", FT_SW FT_EP "[links]\nsw0.0 = ep9.0\n",
	  "unknown device 'ep9'" },
	{ "link port out of range", FT_SW FT_EP "[links]\nsw0.4 = ep0.0\n", "out of range" },
	{ "endpoint port not 0", FT_SW FT_EP "[links]\nsw0.0 = ep0.1\n", "out of range" },
	{ "port linked twice", FT_SW FT_EP "[links]\nsw0.0 = ep0.0\nsw0.0 = ep1.0\n",
	  "linked twice" },
	{ "self link", FT_SW FT_EP "[links]\nsw0.0 = sw0.1\n", "linked to itself" },
	{ "link without port", FT_SW FT_EP "[links]\nsw0 = ep0.0\n", "<device>.<port>" },
	{ "devid_size 12", "[fabric]\ndevid_size = 12\n" FT_SW FT_EP, "devid_size" },
	{ "destid out of range 8-bit", FT_SW "[endpoint ep0]\ndestid = 255\n", "destid 255" },
	{ "destid out of range 16-bit", "[fabric]\ndevid_size = 16\n[endpoint ep0]\ndestid = 70000\n",
	  "out of range" },
	{ "destid duplicated", "[endpoint ep0]\ndestid = 3\n[endpoint ep1]\ndestid = 3\n",
	  "used twice" },
	{ "no endpoints", FT_SW, "no endpoints" },
	{ "bad name chars", "[switch sw.0]\nports = 4\n" FT_EP, "bad device name" },
	{ "name too long", "[endpoint abcdefghijklmnopqrstuvwxyz0123456789]\n",
	  "bad device name" },
	{ "mbox_entries not a power of two", "[fabric]\nmbox_entries = 100\n" FT_EP,
	  "power of two" },
	{ "mbox_entries too large", "[fabric]\nmbox_entries = 8192\n" FT_EP, "power of two" },
	{ "line without =", FT_SW "this is junk\n" FT_EP, "line 3" },
	{ "key outside section", "ports = 4\n" FT_EP, "outside of any section" },
	{ "duplicate fabric section", "[fabric]\n[fabric]\n" FT_EP, "duplicate [fabric]" },
	{ "empty value", "[switch sw0]\nports =\n" FT_EP, "empty value" },
	{ "unterminated section", "[switch sw0\nports = 4\n" FT_EP, "malformed section" },
	{ "section without name", "[switch]\nports = 4\n" FT_EP, "needs a device name" },
	{ "static_routes 2", "[fabric]\nstatic_routes = 2\n" FT_EP, "static_routes" },
	{ "host 2", "[endpoint ep0]\nhost = 2\n", "out of range" },
	{ "negative destid", "[endpoint ep0]\ndestid = -1\n", "not a number" },
	{ "model fancy", "[switch sw0]\nports = 4\nmodel = fancy\n" FT_EP,
	  "unknown switch model 'fancy'" },
	{ "switch model on endpoint", "[endpoint ep0]\nmodel = cps1848\n",
	  "unknown endpoint model 'cps1848'" },
	{ "cps1848 with 8 ports", "[switch sw0]\nmodel = cps1848\nports = 8\n" FT_EP,
	  "model cps1848 has 18 ports" },
	{ "rxs2448 with a vid", "[switch sw0]\nmodel = rxs2448\nvid = 1\n" FT_EP,
	  "the part's own" },
	{ "rt_limit on cps1848", "[switch sw0]\nmodel = cps1848\nrt_limit = 9\n" FT_EP,
	  "key rt_limit" },
	{ "tsi721 with two ports", "[endpoint ep0]\nmodel = tsi721\nports = 2\n",
	  "model tsi721 has 1 port" },
	{ "three ports on an endpoint", "[endpoint ep0]\nports = 3\n", "out of range" },
	{ "lanes 3", FT_SW "lanes = 3\n" FT_EP, "key lanes" },
	{ "baud 4", "[fabric]\nbaud = 4\n" FT_EP, "not a lane rate" },
	{ "tsi721 at 6.25 Gbaud", "[endpoint ep0]\nmodel = tsi721\nbaud = 6.25\n",
	  "model tsi721 has ports of up to 4 lanes at 5 Gbaud" },
	{ "response timeout 0", "[fabric]\nresponse_timeout = 0\n" FT_EP,
	  "key response_timeout" },
	{ "unknown fabric key", "[fabric]\nspeed = 5\n" FT_EP, "[fabric]: unknown key 'speed'" },
	{ "timing 2", "[fabric]\ntiming = 2\n" FT_EP, "key timing" },
	{ "too many devices", NULL, "too many devices" },
	{ "binary garbage", NULL, "line" },
	{ "directory", NULL, "not a regular file" },
	{ "missing file", NULL, "cannot open" },
};

static int
ft_check_refused(const char *fab, const char *topo, const char *what, const char *expect)
{
	char err[FT_ERR_LEN] = "";
	int rc;

	rc = rte_pmd_rio_sim_fabric_create(fab, topo, err, sizeof(err));
	TEST_ASSERT(rc < 0, "case '%s': accepted", what);
	TEST_ASSERT(err[0] != '\0', "case '%s': no error message", what);
	TEST_ASSERT(strchr(err, '\n') == NULL, "case '%s': error is not one line", what);
	TEST_ASSERT(strstr(err, expect) != NULL, "case '%s': error '%s' lacks '%s'",
		    what, err, expect);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_exists(fab), 0, "case '%s': fabric left", what);
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "case '%s': shm left behind", what);
	printf("  refused %-32s %s\n", what, err);
	return TEST_SUCCESS;
}

/*
 * Child: args <fabric> <topology path> <expected error part>. Exit 0 when
 * creating the fabric from that path is refused at once with that error.
 */
static int
ft_topo_child(int argc, char **argv)
{
	if (argc != 4)
		return 100;
	return ft_check_refused(argv[1], argv[2], argv[2], argv[3]) == TEST_SUCCESS ? 0 : 1;
}
REGISTER_TEST_CHILD(rio_fabric_topo_child, ft_topo_child)

/*
 * A topology path that names a FIFO, a device, a directory or a socket is
 * refused at once, from the tool API (dpdk-rio-fabric --topology) and the
 * devargs (topology=). Opening a FIFO waited for a writer forever: each
 * probe runs in a child with a time bound.
 */
static int
test_fabric_topology_not_file(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], dir[64], fifo[96], sock[96], args[256];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const struct {
		const char *path;
		const char *want;
	} cases[] = {
		{ fifo, "a FIFO, not a regular file" },
		{ "/dev/zero", "a character device, not a regular file" },
		{ dir, "a directory, not a regular file" },
		{ sock, "a socket, not a regular file" },
	};
	char *argv[] = { fab, NULL, NULL, NULL };
	unsigned int i;
	pid_t pid;
	int fd = -1, ret = TEST_FAILED;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	snprintf(dir, sizeof(dir), "/tmp/rio_topo_%d.XXXXXX", (int)getpid());
	TEST_ASSERT_NOT_NULL(mkdtemp(dir), "mkdtemp");
	snprintf(fifo, sizeof(fifo), "%s/fifo.ini", dir);
	snprintf(sock, sizeof(sock), "%s/sock.ini", dir);
	strlcpy(sa.sun_path, sock, sizeof(sa.sun_path));
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (mkfifo(fifo, 0600) != 0 || fd < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		printf("  cannot make the FIFO or the socket\n");
		goto out;
	}
	for (i = 0; i < RTE_DIM(cases); i++) {
		argv[1] = (char *)(uintptr_t)cases[i].path;
		argv[2] = (char *)(uintptr_t)cases[i].want;
		pid = rio_test_spawn("rio_fabric_topo_child", argv);
		if (pid <= 0 || rio_test_wait(pid, 10000) != 0) {
			printf("  %s: not refused at once\n", cases[i].path);
			goto out;
		}
		/* Known to return now: the devargs of a probe here. */
		snprintf(args, sizeof(args), "fabric=%s,topology=%s", fab, cases[i].path);
		if (rte_vdev_init("rio_sim_topo_special", args) == 0) {
			rte_vdev_uninit("rio_sim_topo_special");
			printf("  topology=%s accepted\n", cases[i].path);
			goto out;
		}
	}
	ret = TEST_SUCCESS;
out:
	if (fd >= 0)
		close(fd);
	unlink(sock);
	unlink(fifo);
	rmdir(dir);
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left behind");
	return ret;
}

static int
test_fabric_bad_topologies(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], path[128];
	unsigned int i;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	for (i = 0; i < RTE_DIM(ft_bad_cases); i++) {
		const struct ft_bad *c = &ft_bad_cases[i];

		snprintf(path, sizeof(path), "%s/bad%u.ini", ft_dir, i);
		if (c->text != NULL) {
			TEST_ASSERT_SUCCESS(ft_write_file(path, c->text, strlen(c->text)), "write");
		} else if (strcmp(c->what, "too many devices") == 0) {
			size_t cap = 16500 * 20, n = 0;
			char *big = malloc(cap);
			unsigned int k;
			int rc;

			TEST_ASSERT_NOT_NULL(big, "malloc");
			for (k = 0; k <= 16384; k++)
				n += snprintf(big + n, cap - n, "[endpoint e%u]\n", k);
			rc = ft_write_file(path, big, n);
			free(big);
			TEST_ASSERT_SUCCESS(rc, "write");
		} else if (strcmp(c->what, "binary garbage") == 0) {
			static const char junk[] =
				"\x7f" "ELF\x02\x01\x01\x00\x00\x00\xff\xfe[\x01=";

			TEST_ASSERT_SUCCESS(ft_write_file(path, junk, sizeof(junk) - 1), "write");
		} else if (strcmp(c->what, "directory") == 0) {
			snprintf(path, sizeof(path), "%s", ft_dir);
		} else {
			snprintf(path, sizeof(path), "%s/does-not-exist.ini", ft_dir);
		}
		if (ft_check_refused(fab, path, c->what, c->expect) != TEST_SUCCESS)
			return TEST_FAILED;
	}
	/* Bad built-in shapes and bad fabric names. */
	if (ft_check_refused(fab, "builtin:nosuch", "unknown shape", "unknown shape") ||
	    ft_check_refused(fab, "builtin:chain:0", "chain:0", "out of range") ||
	    ft_check_refused(fab, "builtin:chain:x", "chain:x", "unknown shape") ||
	    ft_check_refused(fab, "builtin:tree:40:2", "tree:40:2", "fanout") ||
	    ft_check_refused(fab, "builtin:tree:31:16", "tree:31:16", "too many devices") ||
	    ft_check_refused(fab, "builtin:star:1", "star:1", "out of range") ||
	    ft_check_refused(fab, "builtin:", "empty shape", "unknown shape") ||
	    ft_check_refused(fab, "builtin:chain:2/fancy", "unknown option", "unknown option") ||
	    ft_check_refused(fab, "builtin:tree:20:1/cps1848", "20-port CPS",
			     "sw0 needs 21 ports, model cps1848 has 18"))
		return TEST_FAILED;
	{
		char err[FT_ERR_LEN] = "";

		TEST_ASSERT(rte_pmd_rio_sim_fabric_create("bad.name", NULL, err, sizeof(err)) < 0,
			    "bad fabric name accepted");
		TEST_ASSERT(strstr(err, "only [A-Za-z0-9_-]") != NULL, "error: %s", err);
		TEST_ASSERT(rte_pmd_rio_sim_fabric_create("", NULL, err, sizeof(err)) < 0,
			    "empty fabric name accepted");
		TEST_ASSERT(rte_pmd_rio_sim_fabric_create(
			"a_fabric_name_that_is_much_too_long_for_shm", NULL, err, sizeof(err)) < 0,
			"long fabric name accepted");
	}
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Built-in shapes and a good file                                    */

static int
ft_shape(const char *topo, int ndev, int nsw, uint32_t pef_dev16)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	struct rte_pmd_rio_sim_dev_info info;
	int i, n, sw = 0, hosts = 0;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, topo, err, sizeof(err)),
			    "%s: %s", topo, err);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_exists(fab), 1, "%s: not there", topo);
	n = rte_pmd_rio_sim_fabric_dev_count(fab);
	TEST_ASSERT_EQUAL(n, ndev, "%s: device count", topo);
	for (i = 0; i < n; i++) {
		unsigned int p;

		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab, i, &info), "info");
		if (info.type == RTE_PMD_RIO_SIM_DEV_SWITCH)
			sw++;
		hosts += info.is_host;
		/* The specification models show the fabric's ID size; the parts both. */
		if (strcmp(info.model, "std") == 0 || strcmp(info.model, "generic") == 0)
			TEST_ASSERT_EQUAL(ft_rd(fab, info.name, RTE_RIO_PEF_CAR) &
					  RTE_RIO_PEF_DEV16, pef_dev16, "%s: %s PEF DEV16",
					  topo, info.name);
		/* Every linked port is OK and its peer points back. */
		for (p = 0; p < info.nports; p++) {
			struct rte_pmd_rio_sim_dev_info peer;
			const struct rte_pmd_rio_sim_port_info *pi = &info.ports[p];

			if (pi->peer_dev < 0) {
				TEST_ASSERT_EQUAL(pi->port_ok, 0, "unlinked port OK");
				continue;
			}
			TEST_ASSERT_EQUAL(pi->port_ok, 1, "%s: %s.%u not OK", topo, info.name, p);
			TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab, pi->peer_dev,
									    &peer), "peer");
			TEST_ASSERT_EQUAL(peer.ports[pi->peer_port].peer_dev, i, "%s: asymmetric",
					  topo);
		}
	}
	TEST_ASSERT_EQUAL(sw, nsw, "%s: switches", topo);
	TEST_ASSERT_EQUAL(hosts, 1, "%s: hosts", topo);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_dev_info(fab, n, &info), -EINVAL, "index n");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "%s: shm left", topo);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_destroy(fab), -ENOENT, "destroy twice");
	return TEST_SUCCESS;
}

static int
test_fabric_shapes(void)
{
	if (ft_shape(NULL, 3, 1, 0) || ft_shape("builtin:default", 3, 1, 0) ||
	    ft_shape("builtin:pair", 2, 0, 0) || ft_shape("builtin:chain:3", 7, 3, 0) ||
	    ft_shape("builtin:chain:60", 121, 60, 0) ||
	    ft_shape("builtin:tree:2:3", 16, 7, 0) || ft_shape("builtin:tree:1:1", 3, 1, 0) ||
	    ft_shape("builtin:star:16", 17, 1, 0) || ft_shape("builtin:star:20", 23, 3, 0) ||
	    ft_shape("builtin:star:300", 323, 23, RTE_RIO_PEF_DEV16))
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static const char ft_good_topo[] =
	"; a commented topology\n"
	"[fabric]\n"
	"devid_size = 16   ; large system\n"
	"mbox_entries = 64\n"
	"static_routes = 1\n"
	"\n"
	"[switch core]\n"
	"ports = 4\n"
	"vid = 0x1234\n"
	"did = 0x5678\n"
	"dev_rev = 7\n"
	"asm_vid = 0x11\n"
	"asm_did = 0x22\n"
	"asm_rev = 0x33\n"
	"[switch vsw]\n"
	"model = cps1848\n"
	"[endpoint host-0]\n"
	"host = 1\n"
	"host_destid = 0x10\n"
	"destid = 0x10\n"
	"[endpoint ep_a]\n"
	"destid = 0x1234\n"
	"[endpoint ep_b]\n"
	"model = generic\n"
	"[links]\n"
	"core.0 = host-0.0\n"
	"core.1 = vsw.0\n"
	"vsw.1 = ep_a.0\n"
	"vsw.2 = ep_b.0\n";

static int
test_fabric_good_file(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], path[128], err[FT_ERR_LEN] = "";
	struct rte_pmd_rio_sim_dev_info info;
	uint32_t v;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	snprintf(path, sizeof(path), "%s/good.ini", ft_dir);
	TEST_ASSERT_SUCCESS(ft_write_file(path, ft_good_topo, strlen(ft_good_topo)), "write");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, path, err, sizeof(err)), "%s", err);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_dev_count(fab), 5, "count");
	TEST_ASSERT_EQUAL(ft_rd(fab, "core", RTE_RIO_DEV_ID_CAR), 0x56781234, "core DEV_ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "core", RTE_RIO_DEV_INFO_CAR), 7, "core DEV_INFO");
	TEST_ASSERT_EQUAL(ft_rd(fab, "core", RTE_RIO_ASM_ID_CAR), 0x00220011, "ASM_ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "core", RTE_RIO_ASM_INFO_CAR), 0x00330100, "ASM_INFO");
	TEST_ASSERT_EQUAL(ft_rd(fab, "core", RTE_RIO_SWITCH_RT_LIMIT), 0xffff, "RT limit 16");
	TEST_ASSERT_EQUAL(ft_rd(fab, "host-0", RTE_RIO_DID_CSR), 0x10, "host base ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep_a", RTE_RIO_DID_CSR), 0x1234, "ep_a base ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep_b", RTE_RIO_DID_CSR), 0x00ffffff, "ep_b unset");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep_b", RTE_RIO_PEF_CAR),
			  RTE_RIO_PEF_PROCESSOR | RTE_RIO_PEF_EXT_FEATURES | RTE_RIO_PEF_ADDR_34 |
			  RTE_RIO_PEF_DEV16, "ep PEF 16");
	/* cps1848: the part's identity, and its two-level table behind the standard CSRs. */
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_DEV_ID_CAR), 0x03740038, "CPS-1848 DEV_ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_PEF_CAR),
			  RTE_RIO_PEF_SWITCH | RTE_RIO_PEF_EXT_FEATURES | RTE_RIO_PEF_STD_RT |
			  RTE_RIO_PEF_EXT_RT | RTE_RIO_PEF_DEV16, "CPS-1848 PEF");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_SWP_INFO_CAR) >> 8, 18, "18 ports");
	/* Static routes: core 0x1234 -> port 1; vsw domain 0x12 -> 1, device 0x10 -> 0. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "core", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x1234), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "core", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 1, "core route");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "vsw", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x1234), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 1, "domain 0x12");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", 0xe00400 + 4 * 0x12), 1, "domain table entry");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "vsw", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x10), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0, "device 0x10");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "vsw", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x77), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0xde,
			  "reset entry: use the default port");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", RTE_RIO_STD_RTE_DEFAULT_PORT), 0xdf,
			  "reset default port: no route");
	TEST_ASSERT_EQUAL(ft_rd(fab, "vsw", 0xe00000 + 4 * 0x10), 0, "device table entry");
	/* Routed maintenance through both models, 16-bit IDs. */
	v = 0;
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "host-0", 0x1234, 0xff, false,
							 RTE_RIO_DID_CSR, 4, &v), "maint ep_a");
	TEST_ASSERT_EQUAL(v, 0x1234, "ep_a answered");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "host-0", 0x1234, 1, false,
							 RTE_RIO_SWP_INFO_CAR, 4, &v), "maint vsw");
	TEST_ASSERT_EQUAL(v, (18 << 8) | 0, "vsw SWP_INFO");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab, 2, &info), "info");
	TEST_ASSERT_EQUAL(strcmp(info.name, "host-0"), 0, "device order");
	TEST_ASSERT_EQUAL(info.ep_index, 0, "ep index");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Config space through the backdoor                                  */

static int
test_fabric_config_space(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	const uint32_t ph = 0x100, em = 0x1000;
	uint32_t v;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:default/std/generic", err,
							  sizeof(err)), "%s", err);
	/* Switch CARs. */
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_DEV_ID_CAR),
			  ((uint32_t)RTE_PMD_RIO_SIM_DID_SWITCH << 16) | RTE_PMD_RIO_SIM_VID,
			  "DEV_ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_ASM_INFO_CAR) & 0xffff, 0x100, "EF ptr");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_PEF_CAR),
			  RTE_RIO_PEF_SWITCH | RTE_RIO_PEF_STD_RT | RTE_RIO_PEF_EXT_RT |
			  RTE_RIO_PEF_EXT_FEATURES, "PEF");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_SWP_INFO_CAR), (8 << 8) | 0xff, "SWP_INFO");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_SRC_OPS_CAR), RTE_RIO_OPS_PORT_WRITE, "SRC");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_DST_OPS_CAR), 0, "DST");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_SWITCH_RT_LIMIT), 0xff, "RT limit");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_DEV_ID_CAR, 0), "write CAR");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_DEV_ID_CAR) >> 16, RTE_PMD_RIO_SIM_DID_SWITCH,
			  "CAR write not ignored");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_DID_CSR), 0, "switch base ID");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_DID_CSR, 0x00050000), "switch base ID write");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_DID_CSR), 0, "switch base ID stored");
	/* Endpoint CARs. */
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_DEV_ID_CAR),
			  ((uint32_t)RTE_PMD_RIO_SIM_DID_ENDPOINT << 16) | RTE_PMD_RIO_SIM_VID,
			  "ep ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_PEF_CAR),
			  RTE_RIO_PEF_PROCESSOR | RTE_RIO_PEF_EXT_FEATURES | RTE_RIO_PEF_ADDR_34,
			  "ep PEF");
	v = RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | RTE_RIO_OPS_STREAM_WRITE |
		RTE_RIO_OPS_WRITE_RESPONSE | RTE_RIO_OPS_DATA_MSG | RTE_RIO_OPS_DOORBELL |
		RTE_RIO_OPS_PORT_WRITE;
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_SRC_OPS_CAR), v, "ep SRC");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_DST_OPS_CAR), v, "ep DST");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_DID_CSR), RTE_RIO_SET_DID(8, 1), "preset ID");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep1", RTE_RIO_DID_CSR, RTE_RIO_SET_DID(8, 9)), "set ID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_DID_CSR), RTE_RIO_SET_DID(8, 9), "ID");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep1", RTE_RIO_DID_CSR, RTE_RIO_SET_DID(8, 1)), "restore");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", RTE_RIO_SWITCH_RT_LIMIT), 0, "ep RT limit");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", 0x2000), 0, "reserved");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", 0xfffffc), 0, "top of space");

	/* Host Base Device ID Lock on both kinds. */
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR), 0xffff, "lock reset");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR, 5), "take");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR), 5, "taken");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR, 7), "other host");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR), 5, "other host took it");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR, 5), "release");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR), 0xffff, "released");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep0", RTE_RIO_HOST_DID_LOCK_CSR, 0xabcd0007), "take hi");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", RTE_RIO_HOST_DID_LOCK_CSR), 7, "bits 0-15 read 0");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep0", RTE_RIO_HOST_DID_LOCK_CSR, 7), "release");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", RTE_RIO_HOST_DID_LOCK_CSR), 0xffff, "released");

	/* Component tag. */
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_COMPONENT_TAG_CSR), 0, "tag reset");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_COMPONENT_TAG_CSR, 0x12345678), "tag");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_COMPONENT_TAG_CSR), 0x12345678, "tag");

	/* Route CSRs: static routes of the default shape, then program one. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 1), "sel 1");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 1, "static 1");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0), "sel 0");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0, "static 0");
	/* Entries reset to unpredictable contents (seeded): program 0x40-0x43 first. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
				  RTE_RIO_STD_RTE_CONF_EXTCFGEN | 0x40), "ext sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xffffffff),
			    "no routes 0x40-0x43");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x42), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR), 0x42, "sel rb");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0xff, "no route");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 3), "route");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 3, "route rb");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x43), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0xff, "neighbour");
	/* Extended route configuration: the aligned group of 4, ID n in byte n. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
				  RTE_RIO_STD_RTE_CONF_EXTCFGEN | 0x41), "ext sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR),
			  RTE_RIO_STD_RTE_CONF_EXTCFGEN | 0x41, "ext sel rb");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0xff03ffff,
			  "ext read 0x40-0x43");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0x04ff0201),
			    "ext write");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0x04ff0201,
			  "ext write rb");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x43), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 4, "ID + 3");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0x41), "sel");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 2, "ID + 1");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
				  RTE_RIO_STD_RTE_CONF_EXTCFGEN | 0xfc), "ext sel top");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0x01020304),
			    "ext write top");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0x01020304,
			  "ext top rb");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xffffffff),
			    "ext clear top");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR,
				  RTE_RIO_STD_RTE_CONF_EXTCFGEN | 0x40), "ext sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xff03ffff),
			    "ext restore");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0xff03ffff,
			  "ext restored");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_DEFAULT_PORT, 0x102), "default");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_STD_RTE_DEFAULT_PORT), 2, "default rb");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR), 0, "ep no routes");

	/* LP-Serial and EM blocks. */
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph), (0x1000u << 16) | RTE_RIO_EFB_SER_EPF_SW_M1_ID,
			  "switch phys header");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", ph), RTE_RIO_EFB_SER_EP_SW_M1_ID, "ep phys header");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em), RTE_RIO_EFB_ERR_MGMNT, "EM header, last");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", em), 0, "no EM on endpoints");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_LINKTO_CTL_CSR), 0xffffff00, "LTO");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", ph + RTE_RIO_PORT_RSPTO_CTL_CSR), 0xffffff00, "RTO");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep0", ph + RTE_RIO_PORT_RSPTO_CTL_CSR, 0x123456ff), "RTO");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep0", ph + RTE_RIO_PORT_RSPTO_CTL_CSR), 0x12345600, "RTO");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_GEN_CTL_CSR, 0xe0000000), "gen");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_GEN_CTL_CSR),
			  RTE_RIO_PORT_GEN_DISCOVERED, "switch keeps only Discovered");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep1", ph + RTE_RIO_PORT_GEN_CTL_CSR, 0xe0000000), "gen");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", ph + RTE_RIO_PORT_GEN_CTL_CSR), 0xe0000000, "ep gen");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_OK, "port 0 OK");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(5, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT, "port 5 uninit");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(8, 1)), 0,
			  "port 8 does not exist");
	/* 2x and 4x supported (Gen2 x4 default); enables set: static routes configured it. */
	v = ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(5, 1));
	TEST_ASSERT_EQUAL(v, RTE_RIO_PORT_N_CTL_P_TYP_SER | RTE_RIO_PORT_N_CTL_PWIDTH |
			  RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX, "ctl reset");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(5, 1),
				  RTE_RIO_PORT_N_CTL_LOCKOUT), "lockout");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(5, 1)),
			  RTE_RIO_PORT_N_CTL_P_TYP_SER | RTE_RIO_PORT_N_CTL_PWIDTH |
			  RTE_RIO_PORT_N_CTL_LOCKOUT, "ctl RO bits kept, enables cleared");
	/* An OK port reports its initialized width (4x) and lane rate (5 Gbaud). */
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(0, 1)) &
			  RTE_RIO_PORT_N_CTL_IPW, 2u << 27, "IPW 4x");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_CTL2_CSR(0, 1)) >> 28,
			  4, "5 Gbaud");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_CTL2_CSR(5, 1)) >> 28,
			  0, "no rate on a port that is not OK");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_N_ACK_STS_CSR(5),
				  0x05000307), "ackID");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ACK_STS_CSR(5)), 0x05000307,
			  "ackID readback");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_N_ACK_STS_CSR(5),
				  RTE_RIO_PORT_N_ACK_CLEAR | 0x05000307), "clear outstanding");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ACK_STS_CSR(5)), 0x05000707,
			  "outstanding = outbound");

	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_PW_TGT_DEVID), 0x00ff0000,
			  "pw target unset");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", em + RTE_RIO_EM_PW_TGT_DEVID, 0xffffffff), "pw");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_PW_TGT_DEVID), 0xffff8000, "pw mask");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", em + RTE_RIO_EM_LTL_ERR_DETECT, 0x80000000), "ltl");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_LTL_ERR_DETECT), 0x80000000, "ltl");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", em + RTE_RIO_EM_LTL_ERR_DETECT, 0), "ltl clear");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_LTL_ERR_DETECT), 0, "ltl cleared");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", em + RTE_RIO_EM_PKT_TTL, 0x1234ffff), "ttl");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_PKT_TTL), 0x12340000, "ttl");

	/* Byte lanes: the byte at 4k is bits 31..24 of the register at 4k. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 0, 1, &v), "b0");
	TEST_ASSERT_EQUAL(v, 0x00, "lane 0");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 1, 1, &v), "b1");
	TEST_ASSERT_EQUAL(v, 0x02, "lane 1");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 3, 1, &v), "b3");
	TEST_ASSERT_EQUAL(v, 0x53, "lane 3");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 2, 2, &v), "h2");
	TEST_ASSERT_EQUAL(v, 0x5253, "half 2");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_write(fab, "sw0",
		RTE_RIO_COMPONENT_TAG_CSR + 3, 1, 0xab), "byte write");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_COMPONENT_TAG_CSR), 0x123456ab, "byte RMW");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_write(fab, "sw0",
		RTE_RIO_COMPONENT_TAG_CSR, 2, 0xcafe), "half write");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_COMPONENT_TAG_CSR), 0xcafe56ab, "half RMW");
	/* Lock through its low half (bits 16-31 of the register). */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_write(fab, "sw0",
		RTE_RIO_HOST_DID_LOCK_CSR + 2, 2, 0x0003), "lock by half");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR), 3, "locked by half");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR, 3), "unlock");
	/* Bad accesses. */
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 1, 2, &v), -EFAULT,
			  "misaligned 16");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 2, 4, &v), -EFAULT,
			  "misaligned 32");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 0, 3, &v), -EINVAL,
			  "len 3");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", 0x1000000, 4, &v),
			  -ERANGE, "beyond 16 MiB");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "nosuch", 0, 4, &v), -ENOENT,
			  "unknown device");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "#2", 0, 4, &v), 0, "#index");
	TEST_ASSERT_EQUAL(v >> 16, RTE_PMD_RIO_SIM_DID_ENDPOINT, "#2 is ep1");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_config_read(fab, "#3", 0, 4, &v), -ENOENT,
			  "#3 out of range");

	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Links                                                              */

static int
test_fabric_links(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	const uint32_t ph = 0x100, em = 0x1000;
	struct rte_pmd_rio_sim_dev_info info;
	uint32_t v;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:default/std", err,
							  sizeof(err)), "%s", err);
	/* Port-write target: host ID 0, 8-bit (what Linux writes). */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", em + RTE_RIO_EM_PW_TGT_DEVID, 0), "pw target");

	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "ep1", 0, false), "down");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(1, 1)) &
			  (RTE_RIO_PORT_N_ERR_STS_PORT_OK | RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT),
			  RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT, "switch side uninit");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", ph + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT, "endpoint side uninit");
	TEST_ASSERT(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(1, 1)) &
		    RTE_RIO_PORT_N_ERR_STS_PW_PEND, "port-write pending not set");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_PN_ERR_DETECT(1)),
			  RTE_RIO_EM_PED_LINK_OK2U, "EM OK->uninit");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab, 0, &info), "info");
	TEST_ASSERT(info.ports[1].link_up == 0 && info.ports[1].port_ok == 0, "info says up");
	/* Bring it back from the switch side. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "sw0", 1, true), "up");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", ph + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_OK, "endpoint side OK");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_PN_ERR_DETECT(1)),
			  RTE_RIO_EM_PED_LINK_OK2U | RTE_RIO_EM_PED_LINK_U2OK, "EM uninit->OK");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", em + RTE_RIO_EM_PN_ERR_DETECT(1), 0), "clear");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", em + RTE_RIO_EM_PN_ERR_DETECT(1)), 0, "cleared");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(1, 1),
				  RTE_RIO_PORT_N_ERR_STS_PW_PEND), "W1C");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_ERR_STS_CSR(1, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_OK, "W1C cleared");
	/* Port disable takes the link down; enabling brings it back. */
	v = ft_rd(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(1, 1));
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(1, 1),
				  v | RTE_RIO_PORT_N_CTL_DISABLE), "disable");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", ph + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT, "disabled peer uninit");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", ph + RTE_RIO_PORT_N_CTL_CSR(1, 1), v), "enable");
	TEST_ASSERT_EQUAL(ft_rd(fab, "ep1", ph + RTE_RIO_PORT_N_ERR_STS_CSR(0, 1)),
			  RTE_RIO_PORT_N_ERR_STS_PORT_OK, "re-enabled");
	/* Bad arguments. */
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_link_set(fab, "sw0", 5, false), -ENOTCONN,
			  "unconnected port");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_link_set(fab, "sw0", 8, false), -EINVAL,
			  "port out of range");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_link_set(fab, "swX", 0, false), -ENOENT,
			  "unknown device");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_link_set("nosuchfabricf", "sw0", 0, false),
			  -ENOENT, "unknown fabric");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Maintenance routing (injected from an endpoint)                    */

/* chain:3 = ep0 - sw0 - sw1 - sw2, with ep1/ep2/ep3 on port 1 of each switch. */
static int
ft_chain_routes(const char *fab, uint32_t destid)
{
	static const char * const sws[] = { "sw0", "sw1" };
	unsigned int i;

	/* Host ID 0 for ep0; destid -> port 2 (onwards), 0 -> port 0 (back). */
	if (ft_wr(fab, "ep0", RTE_RIO_DID_CSR, RTE_RIO_SET_DID(8, 0)) != 0)
		return -1;
	for (i = 0; i < RTE_DIM(sws); i++) {
		if (ft_wr(fab, sws[i], RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, destid) ||
		    ft_wr(fab, sws[i], RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 2) ||
		    ft_wr(fab, sws[i], RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0) ||
		    ft_wr(fab, sws[i], RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0))
			return -1;
	}
	return 0;
}

static uint64_t
ft_maint_rx(const char *fab, const char *dev)
{
	struct rte_pmd_rio_sim_dev_info info;
	int idx = rte_pmd_rio_sim_fabric_dev_find(fab, dev);

	if (idx < 0 || rte_pmd_rio_sim_fabric_dev_info(fab, idx, &info) != 0)
		return UINT64_MAX;
	return info.maint_rx;
}

static int
test_fabric_maint_routing(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	const uint32_t ph = 0x100;
	struct rte_pmd_rio_sim_dev_info info;
	uint64_t rx0, rx1, rx2, drops;
	uint32_t v, ctl;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab,
		"builtin:chain:3/std/response_timeout=20000", err, sizeof(err)), "%s", err);
	/* No request leaves an endpoint without Master Enable. */
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 0xff, 0, false,
						       RTE_RIO_SWP_INFO_CAR, 4, &v), -EACCES,
			  "request without Master Enable");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw0"), 0, "it reached sw0");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep0", ph + RTE_RIO_PORT_GEN_CTL_CSR,
				  RTE_RIO_PORT_GEN_MASTER), "ep0 Master Enable");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "ep1", ph + RTE_RIO_PORT_GEN_CTL_CSR,
				  RTE_RIO_PORT_GEN_MASTER), "ep1 Master Enable");
	/* Before any route: hop 0 works (sw0 is adjacent), hop 1 does not. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 0xff, 0, false,
							 RTE_RIO_SWP_INFO_CAR, 4, &v), "sw0");
	TEST_ASSERT_EQUAL(v, (4 << 8) | 0, "sw0 SWP_INFO from ep0: port 0");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep1", 0xff, 0, false,
							 RTE_RIO_SWP_INFO_CAR, 4, &v), "sw0");
	TEST_ASSERT_EQUAL(v, (4 << 8) | 1, "sw0 SWP_INFO from ep1: port 1");
	/* std entries reset to anything (seeded): make sw0's entry for 0xff lead nowhere. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0xff), "sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xff), "none");
	v = 0;
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 0xff, 1, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "no route yet");
	TEST_ASSERT_EQUAL(v, 0xffffffff, "failed read data");

	TEST_ASSERT_SUCCESS(ft_chain_routes(fab, 5), "routes");
	rx0 = ft_maint_rx(fab, "sw0");
	rx1 = ft_maint_rx(fab, "sw1");
	rx2 = ft_maint_rx(fab, "sw2");
	/* sw2 is two hops away: hop count 2 passes sw0 and sw1. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
							 RTE_RIO_SWP_INFO_CAR, 4, &v), "sw2");
	TEST_ASSERT_EQUAL(v, (4 << 8) | 0, "sw2 SWP_INFO");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, true,
							 RTE_RIO_COMPONENT_TAG_CSR, 4,
							 &(uint32_t){ 0x77 }), "sw2 write");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw2", RTE_RIO_COMPONENT_TAG_CSR), 0x77, "written at sw2");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw1", RTE_RIO_COMPONENT_TAG_CSR), 0, "not at sw1");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw2"), rx2 + 2, "sw2 executed");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw1"), rx1, "sw1 only forwarded");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw0"), rx0, "sw0 only forwarded");
	/* Hop count 1 stops at sw1. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 1, false,
							 RTE_RIO_COMPONENT_TAG_CSR, 4, &v), "sw1");
	TEST_ASSERT_EQUAL(v, 0, "sw1 tag");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw1"), rx1 + 1, "sw1 executed");
	/* Endpoints answer whatever the destination ID: ep2 hangs on sw1.1. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 9), "sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 1), "ep2");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 9), "sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 2), "to sw1");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 9, 0xff, false,
							 RTE_RIO_DID_CSR, 4, &v), "ep2");
	TEST_ASSERT_EQUAL(v, 0x00ffffff, "ep2 unset base ID answered");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "ep2"), 1, "ep2 executed");

	/* Wrong route: sw1 drops the request; nothing reaches sw2. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 5), "sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xff), "clear");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab,
		rte_pmd_rio_sim_fabric_dev_find(fab, "sw1"), &info), "info");
	drops = info.ports[0].drops;
	rx2 = ft_maint_rx(fab, "sw2");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "wrong route delivered");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw2"), rx2, "sw2 reached");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab,
		rte_pmd_rio_sim_fabric_dev_find(fab, "sw1"), &info), "info");
	TEST_ASSERT_EQUAL(info.ports[0].drops, drops + 1, "drop counted at sw1 ingress");
	/* The default port serves IDs past the table limit only: 5 is inside, dropped. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_DEFAULT_PORT, 2), "default");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "default port used inside the table");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_DEFAULT_PORT, 0xff), "no default");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 2), "restore");

	/* A route to a port beyond the switch's ports is dropped too. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 9), "bad port");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "port 9 of 4");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 2), "restore");

	/* The response needs a route back: executed, but the requester times out. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 0), "sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xff), "clr");
	rx2 = ft_maint_rx(fab, "sw2");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "response without route");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw2"), rx2 + 1, "request executed");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0), "restore");

	/* Link down and port lockout stop maintenance. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "sw1", 2, false), "down");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "link down");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "sw1", 2, true), "up");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
							 RTE_RIO_DEV_ID_CAR, 4, &v), "up again");
	ctl = ft_rd(fab, "sw2", ph + RTE_RIO_PORT_N_CTL_CSR(0, 1));
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw2", ph + RTE_RIO_PORT_N_CTL_CSR(0, 1),
				  ctl | RTE_RIO_PORT_N_CTL_LOCKOUT), "lockout");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -ETIMEDOUT,
			  "locked out");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw2", ph + RTE_RIO_PORT_N_CTL_CSR(0, 1),
				  ctl & ~RTE_RIO_PORT_N_CTL_LOCKOUT), "unlock");
	/* Input/output enables off still pass maintenance. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw2", ph + RTE_RIO_PORT_N_CTL_CSR(0, 1),
				  ctl & ~(RTE_RIO_PORT_N_CTL_EN_TX | RTE_RIO_PORT_N_CTL_EN_RX)),
			    "enables off");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", 5, 2, false,
							 RTE_RIO_DEV_ID_CAR, 4, &v),
			    "maintenance with enables off");
	/* A switch as source is refused. */
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_maint(fab, "sw0", 5, 0, false,
						       RTE_RIO_DEV_ID_CAR, 4, &v), -EINVAL,
			  "switch source");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Lifetime and attach validation                                     */

static int
ft_attach_child(int argc, char **argv)
{
	char err[FT_ERR_LEN] = "";
	const char *topo;
	int rc, want;

	if (argc != 4)
		return 100;
	topo = strcmp(argv[2], "-") == 0 ? NULL : argv[2];
	want = atoi(argv[3]);
	rc = rte_pmd_rio_sim_fabric_attach(argv[1], topo, err, sizeof(err));
	if (rc == 0) {
		/* Sees the creator's devices and changes. */
		if (rte_pmd_rio_sim_fabric_dev_count(argv[1]) != 3 ||
		    ft_rd(argv[1], "sw0", RTE_RIO_COMPONENT_TAG_CSR) != 0x5a5a)
			rc = 50;
		rte_pmd_rio_sim_fabric_detach(argv[1]);
	} else {
		printf("  child: %s\n", err);
	}
	return rc == want ? 0 : (rc == 50 ? 50 : 1);
}
REGISTER_TEST_CHILD(rio_fabric_attach_child, ft_attach_child)

static int
ft_spawn_attach(const char *fab, const char *topo, int want)
{
	char w[16];
	char *argv[4];
	pid_t pid;

	snprintf(w, sizeof(w), "%d", want);
	argv[0] = (char *)(uintptr_t)fab;
	argv[1] = (char *)(uintptr_t)(topo != NULL ? topo : "-");
	argv[2] = w;
	argv[3] = NULL;
	pid = rio_test_spawn("rio_fabric_attach_child", argv);
	if (pid < 0)
		return -1;
	return rio_test_wait(pid, 20000);
}

/*
 * A data segment header at endpoint @ep of fabric @fab, as its owner would
 * create it, of this fabric or (@foreign) of another one of the same name.
 */
static int
ft_data_segment(const char *fab, uint32_t ep, bool foreign)
{
	struct sim_shm_data_hdr dh = { .magic = SIM_SHM_DATA_MAGIC };
	struct sim_shm_hdr *h;
	char shm[64];
	size_t size;
	int fd, ret;

	h = test_shm_map_fabric(fab, &size);
	if (h == NULL)
		return -1;
	dh.version = h->version;
	dh.ep_index = ep;
	dh.instance = foreign ? ~h->instance : h->instance;
	munmap(h, size);
	snprintf(shm, sizeof(shm), "rio_sim.%s.ep%u", fab, ep);
	fd = rio_test_fabric_open(shm, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	ret = write(fd, &dh, sizeof(dh)) == (ssize_t)sizeof(dh) ? 0 : -1;
	close(fd);
	return ret;
}

static int
test_fabric_lifetime(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "", shm[64], path[512];
	struct stat st;
	int fd;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_attach(fab, NULL, err, sizeof(err)), -ENOENT,
			  "attach before create");
	TEST_ASSERT(strstr(err, "does not exist") != NULL, "error: %s", err);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:default", err,
							  sizeof(err)), "%s", err);
	snprintf(shm, sizeof(shm), "rio_sim.%s", fab);
	TEST_ASSERT_SUCCESS(rio_test_fabric_path(path, sizeof(path), shm), "path");
	TEST_ASSERT_SUCCESS(stat(path, &st), "no %s", path);
	TEST_ASSERT_EQUAL(st.st_mode & 0777, 0600, "mode");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_create(fab, "builtin:default", err, sizeof(err)),
			  -EEXIST, "created twice");
	/* Same process: same mapping, topology still checked. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_attach(fab, "builtin:default", err,
							  sizeof(err)), "%s", err);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_attach(fab, "builtin:pair", err, sizeof(err)),
			  -EEXIST, "different topology accepted");
	TEST_ASSERT(strstr(err, "different topology") != NULL, "error: %s", err);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_detach(fab), "detach");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_exists(fab), 1, "gone after one detach");

	/* Another process validates the segment and sees our writes. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", RTE_RIO_COMPONENT_TAG_CSR, 0x5a5a), "tag");
	TEST_ASSERT_EQUAL(ft_spawn_attach(fab, NULL, 0), 0, "child attach");
	TEST_ASSERT_EQUAL(ft_spawn_attach(fab, "builtin:default", 0), 0, "child same topology");
	TEST_ASSERT_EQUAL(ft_spawn_attach(fab, "builtin:pair", -EEXIST), 0,
			  "child different topology");
	TEST_ASSERT_EQUAL(ft_spawn_attach(fab, "builtin:chain:2", -EEXIST), 0,
			  "child different topology 2");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_exists(fab), 1, "child removed it");

	/*
	 * Last detach removes it, with the data segments of its endpoints
	 * (one left by an owner that is gone), and only those: a segment of
	 * another fabric that had the name, or of nobody, is left alone.
	 */
	TEST_ASSERT_SUCCESS(ft_data_segment(fab, 0, false), "data segment");
	TEST_ASSERT_SUCCESS(ft_data_segment(fab, 1, true), "foreign data segment");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 3, "three segments");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_detach(fab), "last detach");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_exists(fab), 0, "still there");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 1, "the foreign segment removed, or ours left");
	snprintf(shm, sizeof(shm), "rio_sim.%s.ep1", fab);
	TEST_ASSERT_SUCCESS(rio_test_fabric_unlink(shm), "the foreign segment is not the one left");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_detach(fab), -ENOENT, "detach unknown");

	/* A foreign or corrupt object under the name is refused, not trusted. */
	snprintf(shm, sizeof(shm), "rio_sim.%s", fab);
	fd = rio_test_fabric_open(shm, O_RDWR | O_CREAT | O_EXCL, 0600);
	TEST_ASSERT(fd >= 0, "shm_open");
	TEST_ASSERT_SUCCESS(ftruncate(fd, 1 << 20), "ftruncate");
	{
		uint32_t *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		TEST_ASSERT(p != MAP_FAILED, "mmap");
		memset(p, 0x5a, 1 << 20);
		p[3] = 1;	/* state READY, magic garbage */
		munmap(p, 1 << 20);
	}
	close(fd);
	TEST_ASSERT(rte_pmd_rio_sim_fabric_attach(fab, NULL, err, sizeof(err)) < 0,
		    "garbage accepted");
	TEST_ASSERT(strstr(err, "magic") != NULL, "error: %s", err);
	printf("  refused garbage segment: %s\n", err);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy garbage");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");

	/* Destroy removes a fabric in use, with its endpoint data segments. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, NULL, err, sizeof(err)), "%s", err);
	snprintf(shm, sizeof(shm), "rio_sim.%s.ep1", fab);
	fd = rio_test_fabric_open(shm, O_RDWR | O_CREAT, 0600);
	TEST_ASSERT(fd >= 0, "data segment");
	close(fd);
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 2, "two segments");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	/* Re-create under the same name right away. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:pair", err, sizeof(err)),
			    "%s", err);
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_dev_count(fab), 2, "new topology");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* A creator that died while building (state INIT) is waited for, then refused. */
static int
test_fabric_stale_creator(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "", shm[64];
	struct sim_shm_hdr *h;
	int fd;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	snprintf(shm, sizeof(shm), "rio_sim.%s", fab);
	fd = rio_test_fabric_open(shm, O_RDWR | O_CREAT | O_EXCL, 0600);
	TEST_ASSERT(fd >= 0, "shm_open");
	TEST_ASSERT_SUCCESS(ftruncate(fd, 1 << 20), "ftruncate");
	h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	TEST_ASSERT(h != MAP_FAILED, "mmap");
	h->magic = SIM_SHM_MAGIC;
	h->state = SIM_FABRIC_INIT;
	h->creator_pid = 1;
	munmap(h, sizeof(*h));
	close(fd);
	TEST_ASSERT(rte_pmd_rio_sim_fabric_attach(fab, NULL, err, sizeof(err)) < 0,
		    "half-built fabric accepted");
	TEST_ASSERT(strstr(err, "did not finish") != NULL, "error: %s", err);
	printf("  refused half-built segment: %s\n", err);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* A process that died holding a device lock does not block the fabric. */
static int
test_fabric_dead_lock_holder(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "", shm[64];
	struct sim_shm_device *d;
	struct sim_shm_hdr *h;
	struct stat st;
	pid_t dead;
	uint32_t v = 0;
	int fd;

	/* A pid that surely is gone: a child that exited and was reaped. */
	dead = fork();
	if (dead == 0)
		_exit(0);
	TEST_ASSERT(dead > 0, "fork");
	TEST_ASSERT_EQUAL(waitpid(dead, NULL, 0), dead, "reap");

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:default/std", err,
							  sizeof(err)), "%s", err);
	snprintf(shm, sizeof(shm), "rio_sim.%s", fab);
	fd = rio_test_fabric_open(shm, O_RDWR, 0);
	TEST_ASSERT(fd >= 0 && fstat(fd, &st) == 0, "open");
	h = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	TEST_ASSERT(h != MAP_FAILED, "mmap");
	d = (struct sim_shm_device *)((uint8_t *)h + h->dev_off);
	TEST_ASSERT_EQUAL(strcmp(d[0].name, "sw0"), 0, "device 0");
	__atomic_store_n(&d[0].lock.holder, (uint32_t)dead, __ATOMIC_RELEASE);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_config_read(fab, "sw0", RTE_RIO_DEV_ID_CAR,
							       4, &v), "read past a dead holder");
	TEST_ASSERT_EQUAL(v >> 16, RTE_PMD_RIO_SIM_DID_SWITCH, "DEV_ID");
	TEST_ASSERT_EQUAL(__atomic_load_n(&d[0].lock.holder, __ATOMIC_ACQUIRE), 0, "lock held");
	munmap(h, st.st_size);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* End to end through lib/rio and the rio_sim rawdev                  */

static int
test_fabric_maint_lib_rio(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	char vname[64], args[160];
	struct rte_pmd_rio_sim_dev_info info;
	struct rte_rio_mport *mp;
	uint64_t rx1, rx2;
	uint32_t v = 0;
	int rc;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:chain:3/std/generic", err,
							  sizeof(err)), "%s", err);
	TEST_ASSERT_SUCCESS(ft_chain_routes(fab, 5), "routes");
	snprintf(vname, sizeof(vname), "rio_sim_%s", fab);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0", fab);
	rc = rte_vdev_init(vname, args);
	if (rc != 0) {
		/* The driver is linked in: a probe that fails is a failure. */
		rte_pmd_rio_sim_fabric_destroy(fab);
		TEST_ASSERT_SUCCESS(rc, "rte_vdev_init(%s, %s)", vname, args);
	}
	mp = rte_rio_mport_find(vname);
	TEST_ASSERT_NOT_NULL(mp, "no mport %s", vname);
	rx1 = ft_maint_rx(fab, "sw1");
	rx2 = ft_maint_rx(fab, "sw2");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(mp, 5, 2, RTE_RIO_DEV_ID_CAR, &v),
			    "read sw2");
	TEST_ASSERT_EQUAL(v, ((uint32_t)RTE_PMD_RIO_SIM_DID_SWITCH << 16) | RTE_PMD_RIO_SIM_VID,
			  "sw2 DEV_ID");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(mp, 5, 2, RTE_RIO_SWP_INFO_CAR, &v),
			    "read sw2");
	TEST_ASSERT_EQUAL(v, (4 << 8) | 0, "sw2 SWP_INFO");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw2"), rx2 + 2, "sw2 executed");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw1"), rx1, "sw1 executed a hop-2 request");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(mp, 5, 1, RTE_RIO_COMPONENT_TAG_CSR,
							   0x99), "write sw1");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw1", RTE_RIO_COMPONENT_TAG_CSR), 0x99, "sw1 tag");
	/* Wrong route: -ETIMEDOUT and no delivery. */
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, 5), "sel");
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw1", RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 0xff), "clr");
	rx2 = ft_maint_rx(fab, "sw2");
	TEST_ASSERT_EQUAL(rte_rio_remote_read_config_32(mp, 5, 2, RTE_RIO_DEV_ID_CAR, &v),
			  -ETIMEDOUT, "wrong route");
	TEST_ASSERT_EQUAL(ft_maint_rx(fab, "sw2"), rx2, "delivered anyway");
	/* Local access: SWP_INFO of an endpoint from its own processor. */
	TEST_ASSERT_SUCCESS(rte_rio_local_read_config_32(mp, RTE_RIO_DEV_ID_CAR, &v), "local");
	TEST_ASSERT_EQUAL(v >> 16, RTE_PMD_RIO_SIM_DID_ENDPOINT, "local DEV_ID");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab,
		rte_pmd_rio_sim_fabric_dev_find(fab, "ep0"), &info), "info");
	TEST_ASSERT_EQUAL(info.owner_pid, (int32_t)getpid(), "ep0 owner");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(vname), "uninit");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* Port-write of a switch reaches the host's mport through lib/rio. */
static int
test_fabric_port_write(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	char vname[64], args[160];
	struct rte_rio_pw_msg pw[4];
	struct rte_rio_mport *mp;
	int rc, n, i;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, NULL, err, sizeof(err)), "%s", err);
	snprintf(vname, sizeof(vname), "rio_sim_%s", fab);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0", fab);
	rc = rte_vdev_init(vname, args);
	if (rc != 0) {
		/* The driver is linked in: a probe that fails is a failure. */
		rte_pmd_rio_sim_fabric_destroy(fab);
		TEST_ASSERT_SUCCESS(rc, "rte_vdev_init(%s, %s)", vname, args);
	}
	mp = rte_rio_mport_find(vname);
	TEST_ASSERT_NOT_NULL(mp, "no mport");
	/* What an enumerator does: tag the switch, aim its port-writes at host 0. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(mp, 0xff, 0, RTE_RIO_COMPONENT_TAG_CSR,
							   0x2a), "tag");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(mp, 0xff, 0,
		0x1000 + RTE_RIO_EM_PW_TGT_DEVID, 0), "pw target");
	/* Drain anything earlier. */
	while (rte_rio_pw_fetch(mp, pw, RTE_DIM(pw)) > 0)
		;
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "ep1", 0, false), "down");
	n = 0;
	for (i = 0; i < 100 && n == 0; i++) {
		n = rte_rio_pw_fetch(mp, pw, RTE_DIM(pw));
		if (n == 0)
			usleep(1000);
	}
	TEST_ASSERT_EQUAL(n, 1, "port-writes after link down");
	TEST_ASSERT_EQUAL(pw[0].len, 16, "payload length");
	TEST_ASSERT_EQUAL(pw[0].em.comptag, 0x2a, "comptag");
	TEST_ASSERT_EQUAL(pw[0].em.errdetect, RTE_RIO_EM_PED_LINK_OK2U, "errdetect");
	TEST_ASSERT_EQUAL(pw[0].em.is_port & 0xff, 1, "port");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "ep1", 0, true), "up");
	n = rte_rio_pw_fetch(mp, pw, RTE_DIM(pw));
	TEST_ASSERT_EQUAL(n, 1, "port-writes after link up");
	TEST_ASSERT(pw[0].em.errdetect & RTE_RIO_EM_PED_LINK_U2OK, "U2OK");
	/* Disabled port-writes: nothing is sent. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(mp, 0xff, 0,
		0x1000 + RTE_RIO_EM_PW_TX_CTRL, RTE_RIO_EM_PW_TX_CTRL_PW_DIS), "pw off");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(fab, "ep1", 0, false), "down");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(mp, pw, RTE_DIM(pw)), 0, "port-write while disabled");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(vname), "uninit");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

#define FT_LOCK_ITERS	20000
#define FT_LOCK_INCS	2000
#define FT_LOCK_PROCS	4

/* Byte lane argv[2] of sw0's component tag: write then read back, many times. */
static int
ft_lock_child(int argc, char **argv)
{
	char err[FT_ERR_LEN] = "";
	uint32_t lane, v;
	int i, bad = 0;

	if (argc != 3)
		return 100;
	lane = (uint32_t)atoi(argv[2]);
	if (rte_pmd_rio_sim_fabric_attach(argv[1], NULL, err, sizeof(err)) != 0) {
		printf("  lock child: %s\n", err);
		return 101;
	}
	/* Start together: the parent sets sw0's L/T error enable when all run. */
	for (i = 0; i < 20000; i++) {
		if (rte_pmd_rio_sim_fabric_config_read(argv[1], "sw0",
				0x1000 + RTE_RIO_EM_LTL_ERR_EN, 4, &v) != 0 || v != 0)
			break;
		usleep(500);
	}
	for (i = 0; i < FT_LOCK_ITERS; i++) {
		uint8_t want = (uint8_t)(i * 7 + lane);

		if (rte_pmd_rio_sim_fabric_config_write(argv[1], "sw0",
				RTE_RIO_COMPONENT_TAG_CSR + lane, 1, want) != 0 ||
		    rte_pmd_rio_sim_fabric_config_read(argv[1], "sw0",
				RTE_RIO_COMPONENT_TAG_CSR + lane, 1, &v) != 0 || v != want)
			bad++;
	}
	/*
	 * Host Base Device ID Lock as a mutex between processes (what several
	 * enumerating hosts do): take it with our ID, increment L/T error
	 * detect by read then write, release it by writing our ID again.
	 */
	for (i = 0; i < FT_LOCK_INCS && bad == 0; i++) {
		unsigned int spins = 0;

		for (;;) {
			if (ft_wr(argv[1], "sw0", RTE_RIO_HOST_DID_LOCK_CSR, lane + 1) != 0) {
				bad++;
				break;
			}
			if (ft_rd(argv[1], "sw0", RTE_RIO_HOST_DID_LOCK_CSR) == lane + 1)
				break;
			if (++spins > 10000000) {
				bad++;
				break;
			}
		}
		v = ft_rd(argv[1], "sw0", 0x1000 + RTE_RIO_EM_LTL_ERR_DETECT);
		if (ft_wr(argv[1], "sw0", 0x1000 + RTE_RIO_EM_LTL_ERR_DETECT, v + 1) != 0 ||
		    ft_wr(argv[1], "sw0", RTE_RIO_HOST_DID_LOCK_CSR, lane + 1) != 0)
			bad++;
	}
	rte_pmd_rio_sim_fabric_detach(argv[1]);
	return bad == 0 ? 0 : 1;
}
REGISTER_TEST_CHILD(rio_fabric_lock_child, ft_lock_child)

/*
 * Several processes: read-modify-writes of different byte lanes never
 * clobber each other, and the Host Base Device ID Lock CSR excludes them.
 */
static int
test_fabric_lock_processes(void)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "", lane[FT_LOCK_PROCS][4];
	pid_t pids[FT_LOCK_PROCS];
	char *argv[3];
	int i, rc, fails = 0;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, NULL, err, sizeof(err)), "%s", err);
	for (i = 0; i < FT_LOCK_PROCS; i++) {
		snprintf(lane[i], sizeof(lane[i]), "%d", i);
		argv[0] = fab;
		argv[1] = lane[i];
		argv[2] = NULL;
		pids[i] = rio_test_spawn("rio_fabric_lock_child", argv);
		TEST_ASSERT(pids[i] > 0, "spawn");
	}
	usleep(200000);
	TEST_ASSERT_SUCCESS(ft_wr(fab, "sw0", 0x1000 + RTE_RIO_EM_LTL_ERR_EN, 1), "go");
	for (i = 0; i < FT_LOCK_PROCS; i++) {
		rc = rio_test_wait(pids[i], 60000);
		if (rc != 0) {
			printf("  lock child %d: status %d\n", i, rc);
			fails++;
		}
	}
	TEST_ASSERT_EQUAL(fails, 0, "lost updates across processes");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", 0x1000 + RTE_RIO_EM_LTL_ERR_DETECT),
			  FT_LOCK_PROCS * FT_LOCK_INCS, "increments under the host lock lost");
	TEST_ASSERT_EQUAL(ft_rd(fab, "sw0", RTE_RIO_HOST_DID_LOCK_CSR), 0xffff, "left locked");
	TEST_ASSERT_EQUAL(rte_pmd_rio_sim_fabric_exists(fab), 1, "children removed it");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/*
 * The lib/rio enumerator on the generated shapes: every device found, every
 * endpoint numbered uniquely, routes that carry maintenance to each of them.
 */
static int
ft_enumerate(const char *topo)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "";
	char vname[64], args[160];
	struct rte_pmd_rio_sim_fabric_stat st;
	struct rte_pmd_rio_sim_dev_info info;
	static uint8_t seen[65536];
	struct rte_rio_mport *mp;
	int i, n, rc, n_ep = 0;
	uint8_t size;
	uint32_t v;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, topo, err, sizeof(err)),
			    "%s: %s", topo, err);
	snprintf(vname, sizeof(vname), "rio_sim_%s", fab);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0", fab);
	rc = rte_vdev_init(vname, args);
	if (rc != 0) {
		/* The driver is linked in: a probe that fails is a failure. */
		rte_pmd_rio_sim_fabric_destroy(fab);
		TEST_ASSERT_SUCCESS(rc, "rte_vdev_init(%s, %s)", vname, args);
	}
	mp = rte_rio_mport_find(vname);
	TEST_ASSERT_NOT_NULL(mp, "no mport");
	rc = rte_rio_mport_scan(mp, NULL);
	TEST_ASSERT_SUCCESS(rc, "%s: enumeration failed", topo);
	/* The fabric's ID size: a vendor part's PEF shows both it supports. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_stat(fab, &st, err, sizeof(err)), "%s", err);
	size = st.devid_size;
	memset(seen, 0, sizeof(seen));
	n = rte_pmd_rio_sim_fabric_dev_count(fab);
	TEST_ASSERT_EQUAL(rte_rio_dev_count(mp), (unsigned int)n, "%s: devices found", topo);
	for (i = 0; i < n; i++) {
		uint32_t id;

		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_dev_info(fab, i, &info), "info");
		TEST_ASSERT(info.comptag != 0, "%s: %s has no component tag", topo, info.name);
		TEST_ASSERT_EQUAL(ft_rd(fab, info.name, RTE_RIO_HOST_DID_LOCK_CSR), 0xffff,
				  "%s: %s left locked", topo, info.name);
		if (info.type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
			continue;
		n_ep++;
		id = RTE_RIO_GET_DID(size, info.base_devid);
		TEST_ASSERT(id < (uint32_t)RTE_RIO_ANY_DESTID(size), "%s: %s not numbered",
			    topo, info.name);
		TEST_ASSERT_EQUAL(seen[id], 0, "%s: destid %u twice", topo, id);
		seen[id] = 1;
		/* Reachable by its destid from the host (the host itself is local). */
		if (strcmp(info.name, "ep0") == 0)
			continue;
		TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_maint(fab, "ep0", (uint16_t)id, 0xff,
								 false, RTE_RIO_DID_CSR, 4, &v),
				    "%s: %s unreachable by destid %u", topo, info.name, id);
		TEST_ASSERT_EQUAL(v, info.base_devid, "%s: wrong endpoint answered", topo);
	}
	printf("  %s: %d devices, %d endpoints enumerated\n", topo, n, n_ep);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(vname), "uninit");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

static int
test_fabric_enumeration(void)
{
	static const char * const shapes[] = {
		"builtin:pair", "builtin:chain:1", "builtin:chain:6", "builtin:tree:2:3",
		"builtin:tree:3:2", "builtin:star:40",
		/*
		 * 300 IDs numbered in turn: beyond 0xff only flat 16-bit tables
		 * route them apart (the IDT parts route a whole domain one way).
		 */
		"builtin:star:300/std",
	};
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(shapes); i++) {
		rc = ft_enumerate(shapes[i]);
		if (rc != TEST_SUCCESS)
			return rc;
	}
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Run-wide default models (RIO_SIM_MODELS)                           */

/* Model and port count of device @dev of fabric @fab, as "model/ports". */
static const char *
ft_model_of(const char *fab, const char *dev, char *buf, size_t len)
{
	struct rte_pmd_rio_sim_dev_info info;
	int i, n = rte_pmd_rio_sim_fabric_dev_count(fab);

	snprintf(buf, len, "(no device %s)", dev);
	for (i = 0; i < n; i++)
		if (rte_pmd_rio_sim_fabric_dev_info(fab, (uint32_t)i, &info) == 0 &&
		    strcmp(info.name, dev) == 0)
			snprintf(buf, len, "%s/%u", info.model, info.nports);
	return buf;
}

/* Creates @topo under RIO_SIM_MODELS=@models; every @expect[i] is "dev=model/ports". */
static int
ft_models_case(const char *models, const char *topo, const char * const *expect, unsigned int n)
{
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN] = "", got[64], dev[40];
	unsigned int i;

	TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(setenv("RIO_SIM_MODELS", models, 1), "setenv");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, topo, err, sizeof(err)),
			    "RIO_SIM_MODELS=%s %s: %s", models, topo, err);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(expect[i], '=');

		snprintf(dev, sizeof(dev), "%.*s", (int)(eq - expect[i]), expect[i]);
		ft_model_of(fab, dev, got, sizeof(got));
		if (strcmp(got, eq + 1) != 0) {
			rte_pmd_rio_sim_fabric_destroy(fab);
			TEST_ASSERT(0, "RIO_SIM_MODELS=%s %s: %s is %s, expected %s", models,
				    topo, dev, got, eq + 1);
		}
	}
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(ft_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/*
 * Devices a topology gives no model take the run-wide default; those whose
 * own keys the part cannot have keep std or generic.
 */
static const char ft_models_topo[] =
	"[switch small]\n"	/* fewer ports than the parts: the part's count */
	"ports = 4\n"
	"[switch wide]\n"	/* more ports than any part: std */
	"ports = 32\n"
	"[switch limited]\n"	/* rt_limit is std's alone */
	"ports = 4\n"
	"rt_limit = 0x10\n"
	"[switch named]\n"	/* the topology's own model stays */
	"model = std\n"
	"ports = 4\n"
	"[switch own_id]\n"	/* an identity of its own: std */
	"ports = 4\n"
	"vid = 0x1234\n"
	"[endpoint host]\n"
	"host = 1\n"
	"[endpoint dual]\n"	/* two ports: generic (a Tsi721 has one) */
	"ports = 2\n"
	"[endpoint fast]\n"	/* 8 lanes: generic (a Tsi721 has 4) */
	"lanes = 8\n"
	"[endpoint plain]\n"
	"[endpoint gen]\n"
	"model = generic\n"
	"[links]\n"
	"small.0 = host.0\n"
	"small.1 = wide.0\n"
	"small.2 = limited.0\n"
	"small.3 = named.0\n"
	"wide.1 = own_id.0\n"
	"wide.2 = dual.0\n"
	"wide.3 = dual.1\n"
	"wide.4 = fast.0\n"
	"wide.5 = plain.0\n"
	"wide.6 = gen.0\n";

static int
test_fabric_default_models(void)
{
	static const char * const bad[] = {
		"cps1848,bogus", "bogus", "tsi721,generic", "std,rxs2448", "std,tsi721,generic",
	};
	static const char * const sw_only[] = { "sw0=cps1848/18", "ep0=generic/1", "ep1=generic/1" };
	static const char * const ep_only[] = { "sw0=std/8", "ep0=tsi721/1", "ep1=tsi721/1" };
	static const char * const both[] = { "sw0=rxs2448/24", "ep0=tsi721/1" };
	static const char * const named[] = { "sw0=std/4", "sw1=std/4", "ep1=tsi721/1" };
	static const char * const too_wide[] = { "sw0=std/21", "ep1=tsi721/1" };
	static const char * const fallback[] = {
		"small=cps1848/18", "wide=std/32", "limited=std/4", "named=std/4",
		"own_id=std/4", "host=tsi721/1", "dual=generic/2", "fast=generic/1",
		"plain=tsi721/1", "gen=generic/1",
	};
	char fab[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], err[FT_ERR_LEN], path[128];
	const char *saved = getenv("RIO_SIM_MODELS");
	char *old = saved != NULL ? strdup(saved) : NULL;
	unsigned int i;
	int rc = TEST_FAILED;

	/* An unknown or doubled name is an error naming the variable; no fabric. */
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_NOT_NULL(ft_name(fab, sizeof(fab)), "name");
		err[0] = '\0';
		if (setenv("RIO_SIM_MODELS", bad[i], 1) != 0 ||
		    rte_pmd_rio_sim_fabric_create(fab, "builtin:default", err, sizeof(err)) !=
		    -EINVAL || strstr(err, "RIO_SIM_MODELS") == NULL || ft_shm_count(fab) != 0) {
			printf("RIO_SIM_MODELS=%s: not refused with an error naming it: '%s'\n",
			       bad[i], err);
			rte_pmd_rio_sim_fabric_destroy(fab);
			goto out;
		}
	}
	snprintf(path, sizeof(path), "%s/models.ini", ft_dir);
	if (ft_write_file(path, ft_models_topo, strlen(ft_models_topo)) != 0 ||
	    ft_models_case("cps1848", "builtin:default", sw_only, RTE_DIM(sw_only)) ||
	    ft_models_case("cps1848,", "builtin:default", sw_only, RTE_DIM(sw_only)) ||
	    ft_models_case(",tsi721", "builtin:default", ep_only, RTE_DIM(ep_only)) ||
	    ft_models_case("tsi721", "builtin:default", ep_only, RTE_DIM(ep_only)) ||
	    ft_models_case("rxs2448,tsi721", "builtin:chain:2", both, RTE_DIM(both)) ||
	    ft_models_case("cps1848,tsi721", "builtin:chain:2/std", named, RTE_DIM(named)) ||
	    ft_models_case("cps1848,tsi721", "builtin:tree:20:1", too_wide, RTE_DIM(too_wide)) ||
	    ft_models_case("cps1848,tsi721", path, fallback, RTE_DIM(fallback)))
		goto out;
	rc = TEST_SUCCESS;
out:
	if (old != NULL)
		setenv("RIO_SIM_MODELS", old, 1);
	else
		unsetenv("RIO_SIM_MODELS");
	free(old);
	return rc;
}

static struct unit_test_suite rio_sim_fabric_suite = {
	.suite_name = "rio_sim fabric model",
	.setup = ft_setup,
	.teardown = ft_teardown,
	.unit_test_cases = {
		TEST_CASE(test_fabric_bad_topologies),
		TEST_CASE(test_fabric_topology_not_file),
		TEST_CASE(test_fabric_shapes),
		TEST_CASE(test_fabric_default_models),
		TEST_CASE(test_fabric_good_file),
		TEST_CASE(test_fabric_config_space),
		TEST_CASE(test_fabric_links),
		TEST_CASE(test_fabric_maint_routing),
		TEST_CASE(test_fabric_lifetime),
		TEST_CASE(test_fabric_stale_creator),
		TEST_CASE(test_fabric_dead_lock_holder),
		TEST_CASE(test_fabric_maint_lib_rio),
		TEST_CASE(test_fabric_port_write),
		TEST_CASE(test_fabric_lock_processes),
		TEST_CASE(test_fabric_enumeration),
		TEST_CASES_END()
	}
};

static int
test_rio_sim_fabric(void)
{
	return unit_test_suite_runner(&rio_sim_fabric_suite);
}

REGISTER_TEST_COMMAND(rio_sim_fabric_autotest, test_rio_sim_fabric);
