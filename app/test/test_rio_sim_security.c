/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim_security_autotest: what the emulated fabric trusts in shared
 * memory, and what it refuses.
 *
 *   modes     every segment (the fabric's and each endpoint's .ep<N> data
 *             segment) is created 0600, or 0660 with group=1, with the
 *             creator's uid and group, whatever the umask;
 *   attach    copies of a valid fabric with one thing wrong (magic, version,
 *             structure sizes, counts, offsets, file size, name, creator,
 *             mode, owner, group) are refused, each with one error line that
 *             names the fabric and the reason; group=1 accepts another uid
 *             of our group and nothing more;
 *   claims    an endpoint whose owner is a live process (stopped, or whose
 *             main thread exited) is refused; one owned by a dead or zombie
 *             process, by a token whose attach slot another process took
 *             since, or by garbage, is reclaimed;
 *   indexes   producer heads and sequence numbers written by someone else
 *             are detected, counted (msg_rx_bad, msg_rx_bad_index,
 *             dbell_rx_bad), skipped, and later messages and doorbells still
 *             arrive; a slot that a live sender's record claims is waited
 *             for, and skipped once that sender is gone;
 *   garbage   a second process writes garbage all over a mailbox ring and a
 *             doorbell ring while messages and doorbells flow; afterwards
 *             every new message and doorbell arrives intact and in order
 *             (run under ASan too: nothing outside the segments).
 *
 *   squat     another user's objects where fabric names once lay in
 *             /dev/shm deny nothing; with a session directory the fabric
 *             lives in it; a directory there that is not ours is refused;
 *
 * Every case uses fabrics of its own (rio_test_unique()) and checks that no
 * object of the fabric remains.
 */

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <rte_rawdev.h>
#include <rte_string_fns.h>

#include "rio_app_common.h"
#include "rte_rio.h"
#include "rte_pmd_rio_sim.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rio_sim_shm.h"

#include "test.h"
#include "test_rio_sim_shm.h"

#define SEC_ERR_LEN		512
#define SEC_NOBODY_UID		65534
#define SEC_RING_ENTRIES	8	/* small rings: many laps, short stalls */
#define SEC_BUFS		64	/* receive buffers posted */
#define SEC_MSG_LEN		48
#define SEC_GARBAGE_MS		1000	/* how long the garbage writer runs */
#define SEC_RECOVER_MS		30000	/* bound for the ring to work again */

static unsigned int sec_vdev_counter;

/* ------------------------------------------------------------------ */
/* Helpers                                                            */

static int
sec_fabric_name(char *buf, size_t len)
{
	if (rio_test_unique("rsec", buf, len - 1) == NULL)
		return -1;
	/* The trailing 'x' keeps fabric ..._1 from being a prefix of ..._10. */
	strcat(buf, "x");
	return 0;
}

/* Number of objects of fabric fab (rio_test_shm_count()). */
static int
sec_shm_count(const char *fab)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fab);
	return rio_test_shm_count(prefix);
}

static uint64_t
sec_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* rte_vdev_init() with the driver's log captured in *log (free it). */
static int
sec_vdev_init_logged(const char *name, const char *args, char **log)
{
	FILE *old = rte_log_get_stream(), *mem;
	size_t len = 0;
	int ret;

	*log = NULL;
	mem = open_memstream(log, &len);
	if (mem == NULL)
		return rte_vdev_init(name, args);
	rte_openlog_stream(mem);
	ret = rte_vdev_init(name, args);
	rte_openlog_stream(old);
	fclose(mem);
	return ret;
}

/* Probe a vdev; on failure expect all of want1 and want2 (NULL: none) in its log. */
static int
sec_vdev_refused(const char *args, const char *want1, const char *want2)
{
	char name[32], *log = NULL;
	int ret;

	snprintf(name, sizeof(name), "rio_sim_sec%u", sec_vdev_counter++);
	ret = sec_vdev_init_logged(name, args, &log);
	if (ret == 0) {
		rte_vdev_uninit(name);
		printf("  accepted: %s\n", args);
		free(log);
		return -1;
	}
	if ((want1 != NULL && (log == NULL || strstr(log, want1) == NULL)) ||
	    (want2 != NULL && (log == NULL || strstr(log, want2) == NULL))) {
		printf("  expected \"%s\" and \"%s\" in the log of %s, got: %s\n", want1,
		       want2 != NULL ? want2 : "", args, log != NULL ? log : "");
		free(log);
		return -1;
	}
	printf("  refused %s:\n    %s", args, log != NULL ? log : "\n");
	free(log);
	return 0;
}

/* Map a whole shared-memory object read-write; *size set. */
static void *
sec_map(const char *shm, size_t *size)
{
	struct stat st;
	void *p = MAP_FAILED;
	int fd;

	fd = rio_test_fabric_open(shm, O_RDWR, 0);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		*size = st.st_size;
		p = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* ------------------------------------------------------------------ */
/* Modes                                                              */

/* Directory of the group fabrics of our effective group. */
static void
sec_group_dir(char *buf, size_t len)
{
	snprintf(buf, len, "/dev/shm/rio_sim-g%u", (unsigned int)getegid());
}

/*
 * Path of fabric @fab's main object (@ep < 0) or of endpoint @ep's data
 * object, in this user's directory or (@group) our group's.
 */
static void
sec_obj_path(char *buf, size_t len, bool group, const char *fab, int ep)
{
	char obj[96], dir[256];

	if (ep < 0)
		snprintf(obj, sizeof(obj), "rio_sim.%s", fab);
	else
		snprintf(obj, sizeof(obj), "rio_sim.%s.ep%d", fab, ep);
	if (!group) {
		rio_test_fabric_path(buf, len, obj);
		return;
	}
	sec_group_dir(dir, sizeof(dir));
	snprintf(buf, len, "%s/%s", dir, obj);
}

/* Objects of fabric @fab in our group's directory. */
static int
sec_group_count(const char *fab)
{
	char path[PATH_MAX];
	int n = 0, ep;

	for (ep = -1; ep < 4; ep++) {
		sec_obj_path(path, sizeof(path), true, fab, ep);
		n += access(path, F_OK) == 0;
	}
	return n;
}

/* Mode, uid and gid of a segment as created. */
static int
sec_check_segment(const char *path, mode_t want)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		printf("  no %s\n", path);
		return -1;
	}
	if ((st.st_mode & 07777) != want || st.st_uid != geteuid() || st.st_gid != getegid()) {
		printf("  %s: mode 0%o uid %u gid %u, expected 0%o uid %u gid %u\n", path,
		       (unsigned int)(st.st_mode & 07777), (unsigned int)st.st_uid,
		       (unsigned int)st.st_gid, (unsigned int)want, (unsigned int)geteuid(),
		       (unsigned int)getegid());
		return -1;
	}
	return 0;
}

static int
sec_modes_one(mode_t mask, bool group)
{
	char fab[RTE_PMD_RIO_SIM_NAME_LEN], args[160], path[PATH_MAX], name[2][32];
	mode_t want = group ? 0660 : 0600, old;
	unsigned int i;
	int ret = -1, made = 0;

	if (sec_fabric_name(fab, sizeof(fab)) != 0)
		return -1;
	old = umask(mask);
	for (i = 0; i < 2; i++) {
		snprintf(name[i], sizeof(name[i]), "rio_sim_sec%u", sec_vdev_counter++);
		snprintf(args, sizeof(args), "fabric=%s,topology=builtin:pair,endpoint=ep%u,"
			 "scan=0,group=%d", fab, i, group ? 1 : 0);
		if (rte_vdev_init(name[i], args) != 0) {
			printf("  cannot probe %s\n", args);
			goto out;
		}
		made++;
	}
	sec_obj_path(path, sizeof(path), group, fab, -1);
	if (sec_check_segment(path, want) != 0)
		goto out;
	for (i = 0; i < 2; i++) {
		sec_obj_path(path, sizeof(path), group, fab, i);
		if (sec_check_segment(path, want) != 0)
			goto out;
	}
	printf("  umask 0%03o, group=%d: 3 segments 0%o\n", (unsigned int)mask, group ? 1 : 0,
	       (unsigned int)want);
	ret = 0;
out:
	umask(old);
	while (made > 0)
		rte_vdev_uninit(name[--made]);
	if (sec_shm_count(fab) != 0 || sec_group_count(fab) != 0) {
		printf("  shared memory of %s left behind\n", fab);
		ret = -1;
	}
	return ret;
}

static int
test_sec_modes(void)
{
	char fab[RTE_PMD_RIO_SIM_NAME_LEN], err[SEC_ERR_LEN] = "", path[PATH_MAX];
	mode_t old;
	int rc;

	TEST_ASSERT_SUCCESS(sec_modes_one(0, false), "umask 0, group=0");
	TEST_ASSERT_SUCCESS(sec_modes_one(0077, false), "umask 077, group=0");
	TEST_ASSERT_SUCCESS(sec_modes_one(0, true), "umask 0, group=1");
	TEST_ASSERT_SUCCESS(sec_modes_one(0077, true), "umask 077, group=1");
	TEST_ASSERT_SUCCESS(sec_modes_one(0022, true), "umask 022, group=1");

	/* The management API (fabric tool) creates 0600 as well. */
	TEST_ASSERT_SUCCESS(sec_fabric_name(fab, sizeof(fab)), "name");
	old = umask(0);
	rc = rte_pmd_rio_sim_fabric_create(fab, "builtin:pair", err, sizeof(err));
	umask(old);
	TEST_ASSERT_SUCCESS(rc, "create: %s", err);
	sec_obj_path(path, sizeof(path), false, fab, -1);
	rc = sec_check_segment(path, 0600);
	rte_pmd_rio_sim_fabric_destroy(fab);
	TEST_ASSERT_SUCCESS(rc, "mode of a created fabric");
	TEST_ASSERT_EQUAL(sec_shm_count(fab), 0, "shm left");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Attach checks                                                      */

enum sec_edit {
	SEC_E_NONE,
	SEC_E_MAGIC,
	SEC_E_VERSION,
	SEC_E_SIZES,
	SEC_E_DEVICES,
	SEC_E_SWITCHES,
	SEC_E_MBOX,
	SEC_E_DEVID,
	SEC_E_OFFSET,
	SEC_E_TOTAL,
	SEC_E_NAME,
	SEC_E_CREATOR,
	SEC_E_STATE,
	SEC_E_SHORTER,
	SEC_E_LONGER,
	SEC_E_TINY,
	SEC_E_MODE,		/* arg: mode */
	SEC_E_OWNER,		/* arg: uid (gid: ours), creator_uid too */
	SEC_E_OWNER_GROUP,	/* arg: gid; uid nobody, creator_uid too, mode 0660 */
	SEC_E_GROUP_0600,	/* the same with mode 0600 */
};

/*
 * Write a copy of fabric @src's main segment under fabric name @dst, with
 * one edit. Returns 0 or -1.
 */
static int
sec_copy_fabric(const char *src, const char *dst, enum sec_edit e, unsigned int arg)
{
	char shm[64], path[PATH_MAX];
	struct sim_shm_hdr *h;
	size_t size = 0, out;
	uint8_t *img = NULL, *m;
	int fd = -1, ret = -1;

	snprintf(shm, sizeof(shm), "rio_sim.%s", src);
	m = sec_map(shm, &size);
	if (m == NULL)
		return -1;
	img = malloc(size);
	if (img != NULL)
		memcpy(img, m, size);
	munmap(m, size);
	if (img == NULL)
		return -1;
	h = (struct sim_shm_hdr *)img;
	memset(h->name, 0, sizeof(h->name));
	strlcpy(h->name, dst, sizeof(h->name));
	out = size;
	switch (e) {
	case SEC_E_MAGIC:
		h->magic = 0x0123456789abcdefull;
		break;
	case SEC_E_VERSION:
		h->version = 4242;
		break;
	case SEC_E_SIZES:
		h->dev_size += 8;
		break;
	case SEC_E_DEVICES:
		h->n_devices = SIM_MAX_DEVICES + 1;
		break;
	case SEC_E_SWITCHES:
		h->n_switches += 1;
		break;
	case SEC_E_MBOX:
		h->mbox_entries = 3;
		break;
	case SEC_E_DEVID:
		h->devid_size = 12;
		break;
	case SEC_E_OFFSET:
		h->ep_off = 1ull << 40;
		break;
	case SEC_E_TOTAL:
		h->total_size *= 2;
		break;
	case SEC_E_NAME:
		strlcpy(h->name, "somebody_else", sizeof(h->name));
		break;
	case SEC_E_CREATOR:
		h->creator_uid = (uint32_t)geteuid() + 4242;
		break;
	case SEC_E_STATE:
		h->state = 7;
		break;
	case SEC_E_SHORTER:
		out = size - 4096;
		break;
	case SEC_E_LONGER:
		out = size + 4096;
		break;
	case SEC_E_TINY:
		out = 100;
		break;
	case SEC_E_OWNER:
	case SEC_E_OWNER_GROUP:
	case SEC_E_GROUP_0600:
		h->creator_uid = e == SEC_E_OWNER ? arg : SEC_NOBODY_UID;
		break;
	default:
		break;
	}
	/* Group fabrics are found in the directory of our group only. */
	sec_obj_path(path, sizeof(path), e == SEC_E_OWNER_GROUP || e == SEC_E_GROUP_0600, dst, -1);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		goto done;
	if (ftruncate(fd, out) != 0 || pwrite(fd, img, RTE_MIN(out, size), 0) < 0)
		goto done;
	if (e == SEC_E_MODE && fchmod(fd, arg) != 0)
		goto done;
	if (e == SEC_E_OWNER && fchown(fd, arg, -1) != 0)
		goto done;
	if ((e == SEC_E_OWNER_GROUP || e == SEC_E_GROUP_0600) &&
	    (fchown(fd, SEC_NOBODY_UID, arg) != 0 ||
	     fchmod(fd, e == SEC_E_GROUP_0600 ? 0600 : 0660) != 0))
		goto done;
	ret = 0;
done:
	if (fd >= 0)
		close(fd);
	if (ret != 0 && fd >= 0)
		unlink(path);
	free(img);
	return ret;
}

/* Remove the objects of fabric @fab, in our directory and in our group's. */
static void
sec_unlink_fabric(const char *fab)
{
	char path[PATH_MAX];
	int ep;

	for (ep = -1; ep < 2; ep++) {
		sec_obj_path(path, sizeof(path), false, fab, ep);
		unlink(path);
		sec_obj_path(path, sizeof(path), true, fab, ep);
		unlink(path);
	}
}

struct sec_attach_case {
	const char *what;
	enum sec_edit edit;
	unsigned int arg;
	const char *want;	/* in the error line */
	bool root_only;		/* needs fchown */
};

static const struct sec_attach_case sec_attach_cases[] = {
	{ "bad magic", SEC_E_MAGIC, 0, "bad magic 0x123456789abcdef", false },
	{ "other layout version", SEC_E_VERSION, 0, "layout version 4242", false },
	{ "other structure size", SEC_E_SIZES, 0, "structure sizes", false },
	{ "too many devices", SEC_E_DEVICES, 0, "16385 devices", false },
	{ "counts disagree", SEC_E_SWITCHES, 0,
	  "corrupt header (2 devices, 2 endpoints, 1 switches", false },
	{ "ring size", SEC_E_MBOX, 0, "mbox_entries 3", false },
	{ "device ID size", SEC_E_DEVID, 0, "devid_size 12", false },
	{ "offset outside", SEC_E_OFFSET, 0, "corrupt header (offsets", false },
	{ "total size", SEC_E_TOTAL, 0, "corrupt header (offsets", false },
	{ "other fabric's header", SEC_E_NAME, 0, "another fabric ('somebody_else')", false },
	{ "creator is not the owner", SEC_E_CREATOR, 0, "but owned by uid", false },
	{ "bad state", SEC_E_STATE, 0, "corrupt header (state 7)", false },
	{ "truncated", SEC_E_SHORTER, 0, "truncated or resized shared memory", false },
	{ "grown", SEC_E_LONGER, 0, "truncated or resized shared memory", false },
	{ "shorter than a header", SEC_E_TINY, 0, "truncated shared memory (100 bytes", false },
	{ "world-writable", SEC_E_MODE, 0666, "mode 0666 refused", false },
	{ "world-readable", SEC_E_MODE, 0604, "mode 0604 refused", false },
	{ "group-readable", SEC_E_MODE, 0640, "mode 0640 refused", false },
	{ "executable", SEC_E_MODE, 0700, "mode 0700 refused", false },
	{ "set-gid", SEC_E_MODE, 02660, "mode 02660 refused", false },
	{ "other owner", SEC_E_OWNER, SEC_NOBODY_UID, "owned by uid 65534, not by us", true },
};

/*
 * Make the directory of group @gid's fabrics with @mode if it is not there
 * (as the first group=1 process does). 0, or -1 when something else is there.
 */
static int
sec_group_dir_make(gid_t gid, mode_t mode)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "/dev/shm/rio_sim-g%u", (unsigned int)gid);
	if (mkdir(dir, 0700) == 0 && (chown(dir, (uid_t)-1, gid) != 0 || chmod(dir, mode) != 0))
		return -1;
	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_gid == gid &&
		(st.st_mode & 07777) == mode ? 0 : -1;
}

/* Every case against copies of fabric src (which the caller removes). */
static int
sec_attach_all(const char *src)
{
	char dst[RTE_PMD_RIO_SIM_NAME_LEN];
	char err[SEC_ERR_LEN], args[160], want[160], name[32];
	bool root = geteuid() == 0;
	unsigned int i;
	int rc;

	/* The unedited copy is accepted: the copies are valid fabrics but for the edit. */
	TEST_ASSERT_SUCCESS(sec_fabric_name(dst, sizeof(dst)), "name");
	TEST_ASSERT_SUCCESS(sec_copy_fabric(src, dst, SEC_E_NONE, 0), "copy");
	rc = rte_pmd_rio_sim_fabric_attach(dst, NULL, err, sizeof(err));
	if (rc != 0)
		sec_unlink_fabric(dst);
	TEST_ASSERT_SUCCESS(rc, "valid copy refused: %s", err);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_detach(dst), "detach");
	TEST_ASSERT_EQUAL(sec_shm_count(dst), 0, "copy left behind");

	for (i = 0; i < RTE_DIM(sec_attach_cases); i++) {
		const struct sec_attach_case *c = &sec_attach_cases[i];

		if (c->root_only && !root) {
			printf("  %s: not root, skipped\n", c->what);
			continue;
		}
		TEST_ASSERT_SUCCESS(sec_fabric_name(dst, sizeof(dst)), "name");
		TEST_ASSERT_SUCCESS(sec_copy_fabric(src, dst, c->edit, c->arg), "copy (%s)",
				    c->what);
		err[0] = '\0';
		rc = rte_pmd_rio_sim_fabric_attach(dst, NULL, err, sizeof(err));
		if (rc == 0)
			rte_pmd_rio_sim_fabric_detach(dst);
		sec_unlink_fabric(dst);
		printf("  %s: %s\n", c->what, err);
		TEST_ASSERT(rc < 0, "%s: accepted", c->what);
		snprintf(want, sizeof(want), "fabric %s: ", dst);
		TEST_ASSERT(strncmp(err, want, strlen(want)) == 0, "%s: fabric not named: %s",
			    c->what, err);
		TEST_ASSERT(strstr(err, c->want) != NULL, "%s: expected \"%s\"", c->what, c->want);
		TEST_ASSERT(strchr(err, '\n') == NULL, "%s: more than one line", c->what);
		TEST_ASSERT_EQUAL(sec_shm_count(dst), 0, "%s: copy left behind", c->what);
	}

	if (!root) {
		printf("  group cases need fchown: not root, skipped\n");
		goto out;
	}
	/*
	 * Group fabrics live in our group's directory (the first group=1
	 * fabric made it). Another uid of our group, 0660: group=1 joins it.
	 */
	rc = sec_group_dir_make(getegid(), 03770);
	TEST_ASSERT_SUCCESS(rc, "group directory");
	TEST_ASSERT_SUCCESS(sec_fabric_name(dst, sizeof(dst)), "name");
	TEST_ASSERT_SUCCESS(sec_copy_fabric(src, dst, SEC_E_OWNER_GROUP, getegid()), "copy");
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0,group=1", dst);
	snprintf(name, sizeof(name), "rio_sim_sec%u", sec_vdev_counter++);
	rc = rte_vdev_init(name, args);
	if (rc == 0) {
		char path[PATH_MAX];

		/* Our endpoint's data segment follows the fabric's mode. */
		sec_obj_path(path, sizeof(path), true, dst, 0);
		rc = sec_check_segment(path, 0660);
		printf("  accepted with group=1: uid 65534, our group, 0660\n");
		rte_vdev_uninit(name);
	} else {
		printf("  group=1 refused a fabric of our group\n");
	}
	sec_unlink_fabric(dst);
	TEST_ASSERT_SUCCESS(rc, "group access");
	TEST_ASSERT_EQUAL(sec_group_count(dst), 0, "copy left behind");

	/* Another uid, 0660, in our group's directory, but not of our group: refused. */
	TEST_ASSERT_SUCCESS(sec_fabric_name(dst, sizeof(dst)), "name");
	TEST_ASSERT_SUCCESS(sec_copy_fabric(src, dst, SEC_E_OWNER_GROUP, getegid() + 4242),
			    "copy");
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0,group=1", dst);
	rc = sec_vdev_refused(args, dst, "we (uid 0) are not in that group");
	sec_unlink_fabric(dst);
	TEST_ASSERT_SUCCESS(rc, "foreign group");

	/* Another uid, 0600: not shared with the group, refused with group=1. */
	TEST_ASSERT_SUCCESS(sec_fabric_name(dst, sizeof(dst)), "name");
	TEST_ASSERT_SUCCESS(sec_copy_fabric(src, dst, SEC_E_GROUP_0600, getegid()), "copy");
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0,group=1", dst);
	rc = sec_vdev_refused(args, dst, "not shared with its group (mode 0600)");
	sec_unlink_fabric(dst);
	TEST_ASSERT_SUCCESS(rc, "other uid, 0600, group=1");
out:
	return TEST_SUCCESS;
}

static int
test_sec_attach(void)
{
	char src[RTE_PMD_RIO_SIM_NAME_LEN], err[SEC_ERR_LEN];
	int ret;

	TEST_ASSERT_SUCCESS(sec_fabric_name(src, sizeof(src)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(src, "builtin:pair", err, sizeof(err)),
			    "%s", err);
	ret = sec_attach_all(src);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(src), "destroy");
	TEST_ASSERT_EQUAL(sec_shm_count(src), 0, "shm left");
	return ret;
}

/* ------------------------------------------------------------------ */
/* Names nobody else can take                                         */

/* An object of another user (nobody, mode 0600) at @path; 0 or -1. */
static int
sec_squat_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	int ret;

	if (fd < 0)
		return -1;
	ret = fchown(fd, SEC_NOBODY_UID, SEC_NOBODY_UID) == 0 ? 0 : -1;
	close(fd);
	return ret;
}

/* Create fabric @fab, claim its ep0 through a vdev, release both: 0 or -1. */
static int
sec_use_fabric(const char *fab, char *err, size_t errlen)
{
	char args[128], name[32];
	int rc;

	rc = rte_pmd_rio_sim_fabric_create(fab, "builtin:pair", err, errlen);
	if (rc != 0)
		return -1;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0", fab);
	snprintf(name, sizeof(name), "rio_sim_sec%u", sec_vdev_counter++);
	rc = rte_vdev_init(name, args);
	if (rc == 0)
		rte_vdev_uninit(name);
	else
		snprintf(err, errlen, "cannot claim ep0 of fabric %s", fab);
	rte_pmd_rio_sim_fabric_destroy(fab);
	return rc == 0 ? 0 : -1;
}

/*
 * Another local user cannot take our names: the objects of a fabric live in
 * a directory only we can write. Objects another user made where fabrics
 * were once named (/dev/shm/rio_sim.<fabric>, .ep0) are not ours and change
 * nothing (the previous naming refused to create or claim then: "owned by
 * uid 65534, not by us"). With a session directory (XDG_RUNTIME_DIR) the
 * fabric lives there, out of others' reach; a path in it that is not ours
 * is refused with a line that names it.
 */
static int
test_sec_squat(void)
{
	char fab[RTE_PMD_RIO_SIM_NAME_LEN], err[SEC_ERR_LEN] = "", path[PATH_MAX], obj[96];
	char xdg[64], own[PATH_MAX];
	const char *old_xdg = getenv("XDG_RUNTIME_DIR");
	char *saved = old_xdg != NULL ? strdup(old_xdg) : NULL;
	struct stat st;
	int ret = TEST_FAILED;

	if (geteuid() != 0) {
		printf("  needs root (fchown): skipped\n");
		free(saved);
		return TEST_SKIPPED;
	}
	snprintf(xdg, sizeof(xdg), "/tmp/rio_sec_xdg_%d.XXXXXX", (int)getpid());
	if (sec_fabric_name(fab, sizeof(fab)) != 0 || mkdtemp(xdg) == NULL) {
		free(saved);
		return TEST_FAILED;
	}
	/* Names once used in /dev/shm, taken by another user first. */
	snprintf(path, sizeof(path), "/dev/shm/rio_sim.%s", fab);
	if (sec_squat_file(path) != 0)
		goto out;
	snprintf(path, sizeof(path), "/dev/shm/rio_sim.%s.ep0", fab);
	if (sec_squat_file(path) != 0)
		goto out;
	if (sec_use_fabric(fab, err, sizeof(err)) != 0) {
		printf("  denied by another user's objects: %s\n", err);
		goto out;
	}
	printf("  another user's /dev/shm/rio_sim.%s* change nothing\n", fab);

	/* The session's directory: the fabric's objects are there. */
	setenv("XDG_RUNTIME_DIR", xdg, 1);
	if (rte_pmd_rio_sim_fabric_create(fab, "builtin:pair", err, sizeof(err)) != 0) {
		printf("  create with XDG_RUNTIME_DIR: %s\n", err);
		goto out_env;
	}
	snprintf(obj, sizeof(obj), "rio_sim.%s", fab);
	snprintf(path, sizeof(path), "%s/rio_sim/%s", xdg, obj);
	ret = rio_test_fabric_path(own, sizeof(own), obj) == 0 && strcmp(own, path) == 0 &&
		stat(path, &st) == 0 && st.st_uid == geteuid() ? TEST_SUCCESS : TEST_FAILED;
	rte_pmd_rio_sim_fabric_destroy(fab);
	if (ret != TEST_SUCCESS) {
		printf("  the fabric is not in %s/rio_sim\n", xdg);
		goto out_env;
	}
	ret = TEST_FAILED;
	printf("  with XDG_RUNTIME_DIR=%s: in %s/rio_sim\n", xdg, xdg);
	/* A directory there that is not ours: refused, named. */
	snprintf(path, sizeof(path), "%s/rio_sim", xdg);
	if (rmdir(path) != 0 || mkdir(path, 0700) != 0 ||
	    chown(path, SEC_NOBODY_UID, SEC_NOBODY_UID) != 0)
		goto out_env;
	err[0] = '\0';
	if (rte_pmd_rio_sim_fabric_create(fab, "builtin:pair", err, sizeof(err)) == 0) {
		rte_pmd_rio_sim_fabric_destroy(fab);
		printf("  a directory of another user was used\n");
		goto out_env;
	}
	printf("  refused: %s\n", err);
	if (strstr(err, path) == NULL || strstr(err, "not ours") == NULL)
		goto out_env;
	ret = TEST_SUCCESS;
out_env:
	if (saved != NULL)
		setenv("XDG_RUNTIME_DIR", saved, 1);
	else
		unsetenv("XDG_RUNTIME_DIR");
	snprintf(path, sizeof(path), "%s/rio_sim", xdg);
	rmdir(path);
out:
	snprintf(path, sizeof(path), "/dev/shm/rio_sim.%s", fab);
	unlink(path);
	snprintf(path, sizeof(path), "/dev/shm/rio_sim.%s.ep0", fab);
	unlink(path);
	rmdir(xdg);
	free(saved);
	if (sec_shm_count(fab) != 0) {
		printf("  shared memory of %s left behind\n", fab);
		ret = TEST_FAILED;
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* Endpoint claims                                                    */

static void *
sec_sleeper(void *arg)
{
	RTE_SET_USED(arg);
	for (;;)
		pause();
	return NULL;
}

/*
 * A child process attached to fabric @fab the way the driver attaches: an
 * open file description lock on a free attach slot, whose entry it updates.
 * With @headless its main thread exits while another thread keeps running.
 * Its token goes to *token. @return its pid, or -1.
 */
static pid_t
sec_holder_spawn(const char *fab, bool headless, uint32_t *token)
{
	char shm[96];
	int pfd[2];
	pid_t pid;

	snprintf(shm, sizeof(shm), "rio_sim.%s", fab);
	if (pipe(pfd) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct sim_shm_hdr *h;
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };
		pthread_t th;
		uint32_t t = 0, i, gen;
		int fd;

		fd = rio_test_fabric_open(shm, O_RDWR, 0);
		h = fd < 0 ? MAP_FAILED : mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE,
					       MAP_SHARED, fd, 0);
		for (i = SIM_MAX_ATTACH; h != MAP_FAILED && i > 0; i--) {
			fl.l_start = (off_t)(SIM_OFD_ATTACH + i - 1);
			if (fcntl(fd, F_OFD_SETLK, &fl) != 0)
				continue;
			gen = (h->attached[i - 1].gen + 1) & 0xffffff;
			h->attached[i - 1].pid = getpid();
			__atomic_store_n(&h->attached[i - 1].gen, gen, __ATOMIC_RELEASE);
			t = gen << SIM_TOKEN_SLOT_BITS | i;
			break;
		}
		if (write(pfd[1], &t, sizeof(t)) != sizeof(t) || t == 0)
			_exit(1);
		if (headless) {
			if (pthread_create(&th, NULL, sec_sleeper, NULL) != 0)
				_exit(1);
			pthread_exit(NULL);
		}
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (pid > 0 && (read(pfd[0], token, sizeof(*token)) != sizeof(*token) || *token == 0)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(pfd[0]);
	return pid;
}

/* Make @owner the owner of endpoint 0 as a claimer would; probe ep0; expect ok or a refusal. */
static int
sec_claim_as(const char *fab, struct sim_shm_endpoint *e, uint32_t owner, pid_t pid,
	     bool want_ok, const char *why)
{
	char args[128], name[32], want[160], *log = NULL;
	uint32_t mine;
	int ret;

	__atomic_store_n(&e->owner_pid, (int32_t)pid, __ATOMIC_RELAXED);
	__atomic_store_n(&e->owner, owner, __ATOMIC_RELEASE);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0", fab);
	if (!want_ok) {
		snprintf(want, sizeof(want),
			 "endpoint ep0 of fabric %s is owned by live process %d", fab, (int)pid);
		ret = sec_vdev_refused(args, want, NULL);
		if (ret == 0)
			printf("  %s: refused\n", why);
		return ret;
	}
	snprintf(name, sizeof(name), "rio_sim_sec%u", sec_vdev_counter++);
	ret = sec_vdev_init_logged(name, args, &log);
	if (ret != 0) {
		printf("  %s: owner %d not reclaimed: %s\n", why, (int)pid, log ? log : "");
		free(log);
		return -1;
	}
	free(log);
	/* Ours now; release gives it up. */
	mine = __atomic_load_n(&e->owner, __ATOMIC_ACQUIRE);
	ret = mine != 0 && mine != owner &&
		__atomic_load_n(&e->owner_pid, __ATOMIC_RELAXED) == getpid() ? 0 : -1;
	rte_vdev_uninit(name);
	if (ret != 0 || __atomic_load_n(&e->owner, __ATOMIC_ACQUIRE) != 0) {
		printf("  %s: ownership not taken or not given back\n", why);
		return -1;
	}
	printf("  %s: reclaimed from pid %d\n", why, (int)pid);
	return 0;
}

/* Wait until @pid shows state @want in /proc (10 s at most). */
static bool
sec_wait_state(pid_t pid, char want)
{
	uint64_t t0 = sec_now_ms();
	char state = '?';

	do {
		state = rio_app_proc_state(pid);
		if (state != want)
			usleep(1000);
	} while (state != want && sec_now_ms() - t0 < 10000);
	return state == want;
}

static int
test_sec_claims(void)
{
	char fab[RTE_PMD_RIO_SIM_NAME_LEN], err[SEC_ERR_LEN], shm[64];
	uint32_t token = 0, token2 = 0, old;
	struct sim_shm_endpoint *e;
	struct sim_shm_hdr *h;
	size_t size = 0;
	pid_t child, child2;
	int ret = TEST_FAILED;

	TEST_ASSERT_SUCCESS(sec_fabric_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:pair", err, sizeof(err)),
			    "%s", err);
	snprintf(shm, sizeof(shm), "rio_sim.%s", fab);
	h = sec_map(shm, &size);
	if (h == NULL) {
		rte_pmd_rio_sim_fabric_destroy(fab);
		TEST_ASSERT(0, "cannot map %s", shm);
	}
	e = (struct sim_shm_endpoint *)((uint8_t *)h + h->ep_off);

	/* A live owner (a child attached to the fabric): refused. */
	child = sec_holder_spawn(fab, false, &token);
	if (child < 0)
		goto out_unmap;
	if (sec_claim_as(fab, e, token, child, false, "live owner") != 0)
		goto out_child;
	/* Stopped (SIGSTOP, a debugger) is alive: still refused. */
	kill(child, SIGSTOP);
	ret = sec_wait_state(child, 'T') ? 0 : -1;
	if (ret == 0)
		ret = sec_claim_as(fab, e, token, child, false, "stopped owner");
	kill(child, SIGCONT);
	if (ret != 0) {
		ret = TEST_FAILED;
		goto out_child;
	}
	ret = TEST_FAILED;
	/* Killed and not reaped (a zombie has closed its files): reclaimed. */
	kill(child, SIGKILL);
	if (!sec_wait_state(child, 'Z') ||
	    sec_claim_as(fab, e, token, child, true, "zombie owner") != 0)
		goto out_child;
	waitpid(child, NULL, 0);
	/* Gone for good. */
	if (sec_claim_as(fab, e, token, child, true, "dead owner") != 0)
		goto out_unmap;
	/*
	 * Its attach slot taken again by another process: the token of the
	 * first one is not the second one's (a reused pid would be).
	 */
	old = token;
	child = sec_holder_spawn(fab, false, &token);
	if (child < 0)
		goto out_unmap;
	if ((old & 0xff) != (token & 0xff)) {
		printf("  the slot was not reused (token 0x%x, then 0x%x)\n", old, token);
		goto out_child;
	}
	if (sec_claim_as(fab, e, old, child, true, "owner's slot reused") != 0)
		goto out_child;
	/* A lock word that names no slot: nobody. */
	if (sec_claim_as(fab, e, 0xffffff00u, child, true, "garbage owner") != 0)
		goto out_child;
	/* A live process whose main thread exited shows 'Z' too: still the owner. */
	child2 = sec_holder_spawn(fab, true, &token2);
	if (child2 < 0)
		goto out_child;
	ret = sec_wait_state(child2, 'Z') ? 0 : -1;
	if (ret != 0)
		printf("  main thread of child %d never exited\n", (int)child2);
	else
		ret = sec_claim_as(fab, e, token2, child2, false, "live owner, main thread gone");
	kill(child2, SIGKILL);
	waitpid(child2, NULL, 0);
	if (ret != 0) {
		ret = TEST_FAILED;
		goto out_child;
	}
	ret = TEST_SUCCESS;
out_child:
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
out_unmap:
	__atomic_store_n(&e->owner, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&e->owner_pid, 0, __ATOMIC_RELEASE);
	munmap(h, size);
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(sec_shm_count(fab), 0, "shm left");
	return ret;
}

/* ------------------------------------------------------------------ */
/* Receive ring written by someone else                               */

/* Two mports on a fabric of two endpoints with SEC_RING_ENTRIES-slot rings. */
struct sec_env {
	char fab[RTE_PMD_RIO_SIM_NAME_LEN];
	char topo[64];
	char name[2][32];
	bool created[2];
	struct rte_rio_mport *mp[2];
	uint8_t *bufs;
	struct sim_shm_data_hdr *data;	/* ep1's data segment, mapped here */
	size_t data_size;
	struct sim_shm_mbox_ring *ring;	/* its mailbox 0 */
	struct sim_shm_msg_slot *slots;
	struct sim_shm_hdr *hdr;	/* the fabric's main segment, mapped here */
	size_t hdr_size;
	struct sim_shm_endpoint *ep1;	/* ep1's doorbell ring is in it */
};

static struct sec_env senv;

static void
sec_env_teardown(void)
{
	unsigned int i;

	if (senv.data != NULL)
		munmap(senv.data, senv.data_size);
	if (senv.hdr != NULL)
		munmap(senv.hdr, senv.hdr_size);
	if (senv.mp[1] != NULL)
		rte_rio_release_inb_dbell(senv.mp[1], 0, 0xffff);	/* if taken */
	for (i = 0; i < 2; i++)
		if (senv.created[i])
			rte_vdev_uninit(senv.name[i]);
	if (senv.topo[0] != '\0')
		unlink(senv.topo);
	free(senv.bufs);
	memset(&senv, 0, sizeof(senv));
}

static int
sec_env_setup(void)
{
	char args[256], shm[64];
	unsigned int i, k;
	FILE *fp;
	int fd;

	memset(&senv, 0, sizeof(senv));
	if (sec_fabric_name(senv.fab, sizeof(senv.fab)) != 0)
		return -1;
	snprintf(senv.topo, sizeof(senv.topo), "/tmp/rio_sim_sec_topo.XXXXXX");
	fd = mkstemp(senv.topo);
	if (fd < 0) {
		senv.topo[0] = '\0';
		return -1;
	}
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		return -1;
	}
	fprintf(fp, "[fabric]\nmbox_entries = %u\nstatic_routes = 1\n"
		"[endpoint ep0]\ndestid = 1\n[endpoint ep1]\ndestid = 2\n"
		"[links]\nep0.0 = ep1.0\n", SEC_RING_ENTRIES);
	if (fclose(fp) != 0)
		return -1;
	senv.bufs = calloc(SEC_BUFS, RTE_RIO_MAX_MSG_SIZE);
	if (senv.bufs == NULL)
		return -1;
	for (i = 0; i < 2; i++) {
		snprintf(senv.name[i], sizeof(senv.name[i]), "rio_sim_sec%u", sec_vdev_counter++);
		snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep%u,scan=0",
			 senv.fab, senv.topo, i);
		if (rte_vdev_init(senv.name[i], args) != 0)
			return -1;
		senv.created[i] = true;
		senv.mp[i] = rte_rio_mport_find(senv.name[i]);
		if (senv.mp[i] == NULL)
			return -1;
	}
	if (rte_rio_request_outb_mbox(senv.mp[0], 0, SEC_RING_ENTRIES) != 0 ||
	    rte_rio_request_inb_mbox(senv.mp[1], 0, SEC_BUFS) != 0)
		return -1;
	for (k = 0; k < SEC_BUFS; k++)
		if (rte_rio_add_inb_buffer(senv.mp[1], 0,
					   senv.bufs + (size_t)k * RTE_RIO_MAX_MSG_SIZE) != 0)
			return -1;
	snprintf(shm, sizeof(shm), "rio_sim.%s.ep1", senv.fab);
	senv.data = sec_map(shm, &senv.data_size);
	if (senv.data == NULL || senv.data->entries != SEC_RING_ENTRIES ||
	    senv.data->ring_off[0] + sizeof(struct sim_shm_mbox_ring) +
	    SEC_RING_ENTRIES * sizeof(struct sim_shm_msg_slot) > senv.data_size)
		return -1;
	senv.ring = RTE_PTR_ADD(senv.data, senv.data->ring_off[0]);
	senv.slots = (struct sim_shm_msg_slot *)(senv.ring + 1);
	snprintf(shm, sizeof(shm), "rio_sim.%s", senv.fab);
	senv.hdr = sec_map(shm, &senv.hdr_size);
	if (senv.hdr == NULL || senv.hdr->ep_off + 2 * sizeof(struct sim_shm_endpoint) >
	    senv.hdr_size)
		return -1;
	senv.ep1 = (struct sim_shm_endpoint *)((uint8_t *)senv.hdr + senv.hdr->ep_off) + 1;
	return 0;
}

static uint64_t
sec_xstat(const char *name)
{
	unsigned int id;
	int dev_id = rte_rawdev_get_dev_id(senv.name[1]);
	uint64_t v;

	if (dev_id < 0)
		return UINT64_MAX;
	v = rte_rawdev_xstats_by_name_get(dev_id, name, &id);
	return id == (unsigned int)-1 ? UINT64_MAX : v;
}

static void
sec_fill(uint8_t *buf, uint32_t seq)
{
	unsigned int i;

	memcpy(buf, "SECM", 4);
	memcpy(buf + 4, &seq, sizeof(seq));
	for (i = 8; i < SEC_MSG_LEN; i++)
		buf[i] = (uint8_t)(seq * 7 + i);
}

/* Sequence number of a marked message, or -1 if buf is not one (intact). */
static int64_t
sec_marked(const uint8_t *buf, uint16_t len)
{
	uint32_t seq;
	unsigned int i;

	if (len != SEC_MSG_LEN || memcmp(buf, "SECM", 4) != 0)
		return -1;
	memcpy(&seq, buf + 4, sizeof(seq));
	for (i = 8; i < SEC_MSG_LEN; i++)
		if (buf[i] != (uint8_t)(seq * 7 + i))
			return -1;
	return seq;
}

/* Receive what is there, repost buffers; count marked messages in order from *next. */
static int
sec_poll(uint32_t *next, unsigned int *stale, bool strict)
{
	struct rte_rio_msg rx[16];
	uint16_t r, k;
	int64_t seq;

	r = rte_rio_recv_messages(senv.mp[1], 0, rx, RTE_DIM(rx));
	for (k = 0; k < r; k++) {
		if (rx[k].len < RTE_RIO_MIN_MSG_SIZE || rx[k].len > RTE_RIO_MAX_MSG_SIZE ||
		    rx[k].mbox != 0 || rx[k].letter >= RTE_RIO_MAX_LETTER) {
			printf("  delivered an invalid message (len %u)\n", rx[k].len);
			return -1;
		}
		seq = sec_marked(rx[k].buf, rx[k].len);
		if (seq < 0 || !strict) {
			(*stale)++;
		} else if ((uint32_t)seq != *next) {
			printf("  message %" PRId64 " received, expected %u\n", seq, *next);
			return -1;
		} else {
			(*next)++;
		}
		if (rte_rio_add_inb_buffer(senv.mp[1], 0, rx[k].buf) != 0) {
			printf("  cannot repost a buffer\n");
			return -1;
		}
	}
	return 0;
}

/*
 * Send marked messages first..first+n-1 one by one (retrying while the
 * sender is refused) and receive them in order, within timeout_ms.
 */
static int
sec_flow(uint32_t first, uint32_t n, uint64_t timeout_ms, unsigned int *stale)
{
	uint8_t buf[SEC_MSG_LEN];
	uint32_t sent = first, next = first;
	uint64_t t0 = sec_now_ms();
	int rc;

	while (next < first + n) {
		if (sec_now_ms() - t0 > timeout_ms) {
			printf("  %u of %u messages received within %" PRIu64 " ms (sent %u)\n",
			       next - first, n, timeout_ms, sent - first);
			return -1;
		}
		if (sent < first + n && sent == next) {
			sec_fill(buf, sent);
			rc = rte_rio_add_outb_message(senv.mp[0], 2, 0, 0, buf, sizeof(buf));
			if (rc == 0)
				sent++;
			else if (rc != -EAGAIN && rc != -EBUSY) {
				printf("  send failed: %d\n", rc);
				return -1;
			}
		}
		if (sec_poll(&next, stale, true) != 0)
			return -1;
	}
	return 0;
}

static uint64_t
sec_prod_head(void)
{
	return __atomic_load_n(&senv.ring->pos.prod_head, __ATOMIC_ACQUIRE);
}

static void
sec_set_prod_head(uint64_t v)
{
	__atomic_store_n(&senv.ring->pos.prod_head, v, __ATOMIC_RELEASE);
}

static int
sec_case_indexes(void)
{
	struct sim_shm_sender *stalled;
	unsigned int stale = 0;
	uint64_t bad0, idx0, head, t0;
	uint32_t seq = 0, next;
	uint8_t buf[SEC_MSG_LEN];
	int rc;

	if (sec_env_setup() != 0) {
		printf("  set-up failed\n");
		return -1;
	}
	bad0 = sec_xstat("msg_rx_bad");
	idx0 = sec_xstat("msg_rx_bad_index");
	if (bad0 == UINT64_MAX || idx0 == UINT64_MAX) {
		printf("  no msg_rx_bad / msg_rx_bad_index xstat\n");
		return -1;
	}
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;

	/* Producer head far beyond the ring, then behind the consumer. */
	head = sec_prod_head();
	sec_set_prod_head(head + (1ull << 40));
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;
	head = sec_prod_head();
	sec_set_prod_head(head - 3);
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;
	sec_set_prod_head(UINT64_MAX);
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;
	if (sec_xstat("msg_rx_bad_index") - idx0 != 3) {
		printf("  msg_rx_bad_index grew by %" PRIu64 ", expected 3\n",
		       sec_xstat("msg_rx_bad_index") - idx0);
		return -1;
	}

	/* The consumer head is informational: garbage there changes nothing. */
	__atomic_store_n(&senv.ring->pos.cons_head, 0xdeadbeefcafeull, __ATOMIC_RELEASE);
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;

	/* A garbage sequence number in the empty slot at the consumer position. */
	head = sec_prod_head();
	__atomic_store_n(&senv.slots[head % SEC_RING_ENTRIES].seq, head + 12345,
			 __ATOMIC_RELEASE);
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;
	/* A slot that looks published but was never written by a sender. */
	head = sec_prod_head();
	senv.slots[head % SEC_RING_ENTRIES].len = 60000;
	__atomic_store_n(&senv.slots[head % SEC_RING_ENTRIES].seq, head + 1, __ATOMIC_RELEASE);
	if (sec_flow(seq, 20, 5000, &stale) != 0)
		return -1;
	seq += 20;
	if (sec_xstat("msg_rx_bad") - bad0 != 2 || sec_xstat("msg_rx_bad_index") - idx0 != 5) {
		printf("  msg_rx_bad grew by %" PRIu64 " (expected 2), msg_rx_bad_index by %"
		       PRIu64 " (expected 5)\n", sec_xstat("msg_rx_bad") - bad0,
		       sec_xstat("msg_rx_bad_index") - idx0);
		return -1;
	}

	/*
	 * Producer head one slot ahead, inside the ring, and no sender
	 * claiming in it: nobody will ever publish that slot, it is skipped.
	 */
	head = sec_prod_head();
	sec_set_prod_head(head + 1);
	if (sec_flow(seq, 20, 10000, &stale) != 0)
		return -1;
	seq += 20;
	/*
	 * The same with a live sender claiming in the ring (a sender stopped
	 * between claim and publish): the slot is waited for, however long;
	 * once that sender is gone, it is skipped.
	 */
	stalled = test_shm_stalled_sender(senv.hdr, test_shm_own_token(senv.hdr), 1, 0);
	if (stalled == NULL || test_shm_dead_token(senv.hdr) == 0) {
		printf("  no sender record or dead token\n");
		return -1;
	}
	head = sec_prod_head();
	sec_set_prod_head(head + 1);
	sec_fill(buf, seq);
	rc = rte_rio_add_outb_message(senv.mp[0], 2, 0, 0, buf, sizeof(buf));
	next = seq;
	t0 = sec_now_ms();
	while (rc == 0 && next == seq && sec_now_ms() - t0 < 1500)
		rc = sec_poll(&next, &stale, true);
	if (rc != 0 || next != seq) {
		printf("  a slot that a live sender claimed was skipped\n");
		test_shm_sender_free(stalled);
		return -1;
	}
	__atomic_store_n(&stalled->owner, test_shm_dead_token(senv.hdr), __ATOMIC_RELEASE);
	t0 = sec_now_ms();
	while (rc == 0 && next == seq && sec_now_ms() - t0 < 10000)
		rc = sec_poll(&next, &stale, true);
	test_shm_sender_free(stalled);
	if (rc != 0 || next != seq + 1) {
		printf("  the slot of a sender that is gone was not skipped\n");
		return -1;
	}
	printf("  slot of a live sender waited for 1.5 s, then skipped once it was gone\n");
	seq++;
	if (sec_xstat("msg_rx_bad") - bad0 != 4) {
		printf("  msg_rx_bad grew by %" PRIu64 ", expected 4\n",
		       sec_xstat("msg_rx_bad") - bad0);
		return -1;
	}
	if (stale != 0) {
		printf("  %u unexpected messages delivered\n", stale);
		return -1;
	}
	printf("  %u messages through 9 corrupted indexes and slots; msg_rx_bad +%" PRIu64
	       ", msg_rx_bad_index +%" PRIu64 "\n", seq, sec_xstat("msg_rx_bad") - bad0,
	       sec_xstat("msg_rx_bad_index") - idx0);
	return 0;
}

/* Doorbells seen by the handler of the receiving mport. */
struct sec_dbell_log {
	unsigned int n;
	uint16_t next;		/* info of the next expected doorbell */
	bool out_of_order;
	bool loose;		/* only count doorbells of info SEC_DBELL_DRAIN from ep0 */
	unsigned int drained;
};

#define SEC_DBELL_DRAIN		0xaaaa

static void
sec_dbell_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *dbell)
{
	struct sec_dbell_log *log = arg;

	RTE_SET_USED(mport);
	if (log->loose) {
		if (dbell->info == SEC_DBELL_DRAIN && dbell->src == 1)
			log->drained++;
		return;
	}
	if (dbell->info != log->next || dbell->src != 1)
		log->out_of_order = true;
	log->next++;
	log->n++;
}

/* Send doorbells first..first+n-1 (retrying while refused) and poll them in, in order. */
static int
sec_dbell_flow(struct sec_dbell_log *log, uint16_t first, uint16_t n)
{
	uint64_t t0 = sec_now_ms();
	uint16_t sent = first;
	int rc;

	log->next = first;
	log->n = 0;
	while (log->n < n) {
		if (sec_now_ms() - t0 > 10000) {
			printf("  %u of %u doorbells within 10 s\n", log->n, n);
			return -1;
		}
		if (sent < first + n && sent == log->next) {
			rc = rte_rio_send_doorbell(senv.mp[0], 2, sent);
			if (rc == 0)
				sent++;
			else if (rc != -EAGAIN) {
				printf("  doorbell refused: %d\n", rc);
				return -1;
			}
		}
		if (rte_rio_dbell_poll(senv.mp[1], 16) < 0 || log->out_of_order) {
			printf("  doorbells lost or out of order\n");
			return -1;
		}
	}
	return 0;
}

/* The same for the doorbell ring, which lives in the fabric's main segment. */
static int
sec_case_dbell(void)
{
	struct sec_dbell_log log = { 0 };
	struct sim_shm_sender *stalled = NULL;
	struct sim_shm_endpoint *e;
	struct sim_shm_hdr *h;
	char shm[64];
	size_t size = 0;
	uint64_t bad0, head, t0;
	int ret = -1;

	if (sec_env_setup() != 0) {
		printf("  set-up failed\n");
		return -1;
	}
	ret = rte_rio_request_inb_dbell(senv.mp[1], 0, 0xffff, sec_dbell_cb, &log);
	if (ret != 0) {
		printf("  cannot take the doorbell range: %d\n", ret);
		return -1;
	}
	ret = -1;
	snprintf(shm, sizeof(shm), "rio_sim.%s", senv.fab);
	h = sec_map(shm, &size);
	if (h == NULL) {
		printf("  cannot map %s\n", shm);
		return -1;
	}
	e = (struct sim_shm_endpoint *)((uint8_t *)h + h->ep_off) + 1;
	bad0 = sec_xstat("dbell_rx_bad");
	if (bad0 == UINT64_MAX) {
		printf("  no dbell_rx_bad xstat\n");
		goto out;
	}
	if (sec_dbell_flow(&log, 0, 300) != 0)
		goto out;
	/* Head beyond the ring, behind the consumer, garbage seq, fake publish. */
	head = __atomic_load_n(&e->dbell_pos.prod_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&e->dbell_pos.prod_head, head + (1ull << 33), __ATOMIC_RELEASE);
	if (sec_dbell_flow(&log, 1000, 10) != 0)
		goto out;
	head = __atomic_load_n(&e->dbell_pos.prod_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&e->dbell_pos.prod_head, head - 100, __ATOMIC_RELEASE);
	if (sec_dbell_flow(&log, 2000, 10) != 0)
		goto out;
	head = __atomic_load_n(&e->dbell_pos.prod_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&e->dbell[head % SIM_DBELL_RING_SIZE].seq, ~head, __ATOMIC_RELEASE);
	if (sec_dbell_flow(&log, 3000, 10) != 0)
		goto out;
	/* Head one ahead inside the ring, no sender claiming: nobody fills it, skipped. */
	head = __atomic_load_n(&e->dbell_pos.prod_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&e->dbell_pos.prod_head, head + 1, __ATOMIC_RELEASE);
	if (sec_dbell_flow(&log, 4000, 10) != 0)
		goto out;
	/*
	 * The same while a live sender claims in the ring (stopped between
	 * claim and publish): waited for, then skipped once it is gone.
	 */
	stalled = test_shm_stalled_sender(h, test_shm_own_token(h), 1, SIM_RING_DBELL);
	if (stalled == NULL || test_shm_dead_token(h) == 0) {
		printf("  no sender record or dead token\n");
		goto out;
	}
	head = __atomic_load_n(&e->dbell_pos.prod_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&e->dbell_pos.prod_head, head + 1, __ATOMIC_RELEASE);
	log.next = 5000;
	log.n = 0;
	if (rte_rio_send_doorbell(senv.mp[0], 2, 5000) != 0)
		goto out;
	t0 = sec_now_ms();
	while (sec_now_ms() - t0 < 1500 && log.n == 0 && rte_rio_dbell_poll(senv.mp[1], 16) >= 0)
		;
	if (log.n != 0) {
		printf("  a doorbell slot that a live sender claimed was skipped\n");
		goto out;
	}
	__atomic_store_n(&stalled->owner, test_shm_dead_token(h), __ATOMIC_RELEASE);
	t0 = sec_now_ms();
	while (sec_now_ms() - t0 < 10000 && log.n == 0 && rte_rio_dbell_poll(senv.mp[1], 16) >= 0)
		;
	if (log.n != 1 || log.out_of_order) {
		printf("  the doorbell slot of a sender that is gone was not skipped\n");
		goto out;
	}
	if (sec_xstat("dbell_rx_bad") - bad0 != 6) {
		printf("  dbell_rx_bad grew by %" PRIu64 ", expected 6\n",
		       sec_xstat("dbell_rx_bad") - bad0);
		goto out;
	}
	printf("  doorbells through 4 corrupted heads and slots and a stopped sender's slot; "
	       "dbell_rx_bad +6\n");
	ret = 0;
out:
	test_shm_sender_free(stalled);
	munmap(h, size);
	rte_rio_release_inb_dbell(senv.mp[1], 0, 0xffff);
	return ret;
}

static int
sec_run_case(int (*fn)(void))
{
	char fab[RTE_PMD_RIO_SIM_NAME_LEN];
	int ret = fn();

	strlcpy(fab, senv.fab, sizeof(fab));
	sec_env_teardown();
	if (fab[0] != '\0' && sec_shm_count(fab) != 0) {
		printf("  shared memory of %s left behind\n", fab);
		return TEST_FAILED;
	}
	return ret == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_sec_indexes(void)
{
	return sec_run_case(sec_case_indexes);
}

static int
test_sec_dbell(void)
{
	return sec_run_case(sec_case_dbell);
}

/*
 * Poll the receiver (nothing sent) until the header of its data segment is
 * @want again, within SEC_RECOVER_MS; a message still in the ring counts
 * as stale.
 */
static int
sec_hdr_wait_repaired(const struct sim_shm_data_hdr *want, unsigned int *stale)
{
	uint64_t t0 = sec_now_ms();
	uint32_t next = 0;

	while (memcmp(senv.data, want, sizeof(*want)) != 0) {
		if (sec_now_ms() - t0 > SEC_RECOVER_MS) {
			printf("  the data segment's header was not repaired within %u ms\n",
			       SEC_RECOVER_MS);
			return -1;
		}
		if (sec_poll(&next, stale, false) != 0)
			return -1;
	}
	return 0;
}

/* One field of the data segment's header written over, before any sender mapped it. */
enum sec_hdr_damage {
	SEC_HDR_MAGIC,
	SEC_HDR_ENTRIES,
	SEC_HDR_RING_OFF,
	SEC_HDR_GENERATION,
	SEC_HDR_SIZE,
	SEC_HDR_DAMAGES
};

static int
sec_hdr_damaged_once(enum sec_hdr_damage what)
{
	struct sim_shm_data_hdr hdr0;
	uint8_t buf[SEC_MSG_LEN];
	unsigned int stale = 0;
	uint64_t idx0;
	int rc;

	if (sec_env_setup() != 0) {
		printf("  set-up failed\n");
		return -1;
	}
	hdr0 = *senv.data;
	idx0 = sec_xstat("msg_rx_bad_index");
	switch (what) {
	case SEC_HDR_MAGIC:
		senv.data->magic ^= 1;
		break;
	case SEC_HDR_ENTRIES:
		senv.data->entries = SEC_RING_ENTRIES * 2;
		break;
	case SEC_HDR_RING_OFF:
		senv.data->ring_off[RTE_RIO_MAX_MBOX - 1] += RTE_CACHE_LINE_SIZE;
		break;
	case SEC_HDR_GENERATION:
		senv.data->generation++;
		break;
	default:
		senv.data->total_size = senv.data_size * 2;
		break;
	}
	sec_fill(buf, 0);
	rc = rte_rio_add_outb_message(senv.mp[0], 2, 0, 0, buf, sizeof(buf));
	if (rc != -EIO) {
		printf("  damage %d: a send to the damaged segment gave %d, not -EIO\n",
		       what, rc);
		return -1;
	}
	if (sec_hdr_wait_repaired(&hdr0, &stale) != 0)
		return -1;
	if (sec_xstat("msg_rx_bad_index") != idx0 + 1) {
		printf("  damage %d: msg_rx_bad_index +%" PRIu64 ", not +1\n", what,
		       sec_xstat("msg_rx_bad_index") - idx0);
		return -1;
	}
	if (stale != 0 || sec_flow(0, 16, SEC_RECOVER_MS, &stale) != 0 || stale != 0) {
		printf("  damage %d: no clean flow after the repair (%u stale)\n", what, stale);
		return -1;
	}
	return 0;
}

/*
 * The header of a receiver's data segment written over by another member
 * of the fabric: a sender that maps it then is refused (ERROR), the
 * receiver puts it back within its periodic checks, and senders get through.
 */
static int
sec_case_data_hdr(void)
{
	char fab[RTE_PMD_RIO_SIM_NAME_LEN];
	unsigned int what;

	for (what = 0; what < SEC_HDR_DAMAGES; what++) {
		if (what > 0) {
			strlcpy(fab, senv.fab, sizeof(fab));
			sec_env_teardown();
			if (sec_shm_count(fab) != 0) {
				printf("  shared memory of %s left behind\n", fab);
				return -1;
			}
		}
		if (sec_hdr_damaged_once(what) != 0)
			return -1;
	}
	printf("  %u kinds of damaged header: refused, repaired, then delivered\n",
	       (unsigned int)SEC_HDR_DAMAGES);
	return 0;
}

static int
test_sec_data_hdr(void)
{
	return sec_run_case(sec_case_data_hdr);
}

/*
 * The garbage writer: another process (a fork, sharing the mapping) writing
 * sequence numbers, slot headers, payload, ring heads, the data segment
 * header and free sender records at random for SEC_GARBAGE_MS. The sender
 * records it fills name @dead, the token of nobody alive (a live sender
 * that never publishes holds its slot: that is waiting for a sender, not
 * garbage).
 */
static void
sec_garbage_child(uint32_t dead)
{
	uint64_t t0 = sec_now_ms(), head, v;
	unsigned int seed = (unsigned int)getpid(), i;
	struct sim_shm_msg_slot *s;
	struct sim_shm_sender *snd;
	struct sim_shm_dbell_slot *d;
	uint64_t dhead;

	while (sec_now_ms() - t0 < SEC_GARBAGE_MS) {
		s = &senv.slots[rand_r(&seed) % SEC_RING_ENTRIES];
		d = &senv.ep1->dbell[rand_r(&seed) % SIM_DBELL_RING_SIZE];
		head = __atomic_load_n(&senv.ring->pos.prod_head, __ATOMIC_RELAXED);
		dhead = __atomic_load_n(&senv.ep1->dbell_pos.prod_head, __ATOMIC_RELAXED);
		v = ((uint64_t)rand_r(&seed) << 32) | (uint64_t)rand_r(&seed);
		switch (rand_r(&seed) % 13) {
		case 10:	/* doorbell slot: garbage or plausible sequence, any content */
			d->info = (uint16_t)v;
			d->src = (uint16_t)(v >> 16);
			__atomic_store_n(&d->seq, v % 2 ? v : dhead + (v >> 8) % 3,
					 __ATOMIC_RELEASE);
			break;
		case 11:	/* doorbell producer head */
			__atomic_store_n(&senv.ep1->dbell_pos.prod_head, v % 3 == 0 ? v :
					 dhead + (v % 7) - 3, __ATOMIC_RELAXED);
			break;
		case 12:
			__atomic_store_n(&senv.ep1->dbell_pos.cons_head, v, __ATOMIC_RELAXED);
			break;
		case 0:
			__atomic_store_n(&s->seq, v, __ATOMIC_RELEASE);
			break;
		case 1:	/* plausible: free, published or freed around the head */
			__atomic_store_n(&s->seq, head + (v % 3 == 0 ? 0 :
				v % 3 == 1 ? 1 : SEC_RING_ENTRIES), __ATOMIC_RELEASE);
			break;
		case 2:
			s->len = (uint16_t)v;
			s->mbox = (uint8_t)(v >> 16);
			s->letter = (uint8_t)(v >> 24);
			s->src = (uint16_t)(v >> 32);
			break;
		case 3:	/* a sender record of nobody alive, claiming in any ring */
			snd = &senv.hdr->senders[v % SIM_MAX_SENDERS];
			if (__atomic_load_n(&snd->owner, __ATOMIC_RELAXED) == 0) {
				__atomic_store_n(&snd->ring, (uint32_t)(v >> 8) % 16,
						 __ATOMIC_RELAXED);
				__atomic_store_n(&snd->owner, dead, __ATOMIC_RELAXED);
			}
			break;
		case 4:
			for (i = 0; i < 64; i++)
				s->data[(v + i * 61) % RTE_RIO_MAX_MSG_SIZE] = (uint8_t)(v >> i);
			break;
		case 5:
			__atomic_store_n(&senv.ring->pos.prod_head, v % 5 == 0 ? v :
					 head + (v % 7) - 3, __ATOMIC_RELAXED);
			break;
		case 6:
			__atomic_store_n(&senv.ring->pos.cons_head, v, __ATOMIC_RELAXED);
			break;
		case 7:
			senv.data->entries = (uint32_t)v;
			senv.data->ring_off[v % RTE_RIO_MAX_MBOX] = v;
			senv.data->magic = v;
			senv.data->total_size = v;
			break;
		default:
			s->len = SEC_MSG_LEN;
			s->mbox = 0;
			s->letter = 0;
			__atomic_store_n(&s->seq, head + 1, __ATOMIC_RELEASE);
			break;
		}
		usleep(20);
	}
}

static int
sec_case_garbage(void)
{
	struct sec_dbell_log log = { .loose = true };
	struct rte_rio_msg tx;
	uint8_t buf[SEC_MSG_LEN];
	uint64_t bad0, idx0, dbad0, sent = 0, got = 0, t0, dsent = 0;
	struct sim_shm_data_hdr hdr0;
	unsigned int stale = 0;
	uint32_t next = 0, dead;
	pid_t child;
	int status = -1;

	if (sec_env_setup() != 0) {
		printf("  set-up failed\n");
		return -1;
	}
	if (rte_rio_request_inb_dbell(senv.mp[1], 0, 0xffff, sec_dbell_cb, &log) != 0) {
		printf("  cannot take the doorbell range\n");
		return -1;
	}
	bad0 = sec_xstat("msg_rx_bad");
	idx0 = sec_xstat("msg_rx_bad_index");
	dbad0 = sec_xstat("dbell_rx_bad");
	hdr0 = *senv.data;
	dead = test_shm_dead_token(senv.hdr);
	if (dead == 0)
		return -1;
	child = fork();
	if (child == 0) {
		sec_garbage_child(dead);
		_exit(0);
	}
	if (child < 0)
		return -1;
	/* Traffic while the garbage flies: nothing asserted but validity. */
	t0 = sec_now_ms();
	while (waitpid(child, &status, WNOHANG) == 0) {
		memset(buf, 0x5a, sizeof(buf));	/* not marked: a leftover if it stays */
		memset(&tx, 0, sizeof(tx));
		tx.destid = 2;
		tx.buf = buf;
		tx.len = sizeof(buf);
		sent += rte_rio_send_messages(senv.mp[0], 0, &tx, 1);
		dsent += rte_rio_send_doorbell(senv.mp[0], 2, SEC_DBELL_DRAIN) == 0;
		if (rte_rio_dbell_poll(senv.mp[1], 16) < 0 ||
		    sec_poll(&next, &stale, false) != 0) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			return -1;
		}
		if (sec_now_ms() - t0 > SEC_GARBAGE_MS + 20000) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			printf("  garbage writer did not stop\n");
			return -1;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("  garbage writer failed (status 0x%x)\n", status);
		return -1;
	}
	got = stale;
	stale = 0;
	t0 = sec_now_ms();
	/*
	 * A sender that maps the segment while its header is garbage gets
	 * ERROR: the receiver must have put the header back before the flow.
	 */
	if (sec_hdr_wait_repaired(&hdr0, &stale) != 0)
		return -1;
	/* Then a clean flow must get through, in order and intact. */
	if (sec_flow(1000, 200, SEC_RECOVER_MS, &stale) != 0)
		return -1;
	/*
	 * Doorbells: once the consumer has gone twice round the ring after the
	 * writer stopped, every slot was rewritten by the fabric; then a flow
	 * in order. Accepted doorbells are never lost, garbage ones ignored.
	 */
	log.drained = 0;
	dsent = 0;
	while (log.drained < 2 * SIM_DBELL_RING_SIZE) {
		if (sec_now_ms() - t0 > SEC_RECOVER_MS) {
			printf("  %u of %" PRIu64 " doorbells drained\n", log.drained, dsent);
			return -1;
		}
		if (dsent < 2 * SIM_DBELL_RING_SIZE &&
		    rte_rio_send_doorbell(senv.mp[0], 2, SEC_DBELL_DRAIN) == 0)
			dsent++;
		if (rte_rio_dbell_poll(senv.mp[1], 16) < 0)
			return -1;
	}
	log.loose = false;
	if (sec_dbell_flow(&log, 0, 100) != 0)
		return -1;
	printf("  during garbage: %" PRIu64 " sent, %" PRIu64 " delivered; then 200 in order "
	       "after %" PRIu64 " ms and %u leftovers; msg_rx_bad +%" PRIu64
	       ", msg_rx_bad_index +%" PRIu64 "\n", sent, got, sec_now_ms() - t0, stale,
	       sec_xstat("msg_rx_bad") - bad0, sec_xstat("msg_rx_bad_index") - idx0);
	printf("  doorbells: dbell_rx_bad +%" PRIu64 ", then 100 in order\n",
	       sec_xstat("dbell_rx_bad") - dbad0);
	if (sec_xstat("msg_rx_bad") == bad0 || sec_xstat("msg_rx_bad_index") == idx0 ||
	    sec_xstat("dbell_rx_bad") == dbad0) {
		printf("  garbage not detected\n");
		return -1;
	}
	/*
	 * Leftovers: messages sent during the garbage still in the ring, and
	 * slots the writer made look published; each position holds one.
	 */
	if (stale > 2 * SEC_RING_ENTRIES) {
		printf("  %u leftovers, more than two rings\n", stale);
		return -1;
	}
	return 0;
}

static int
test_sec_garbage(void)
{
	return sec_run_case(sec_case_garbage);
}

/* ------------------------------------------------------------------ */
/* PID namespaces                                                     */

#define SEC_NS_MSGS	64
#define SEC_NS_WAIT_MS	20000

/*
 * In a PID namespace of its own (pid 1 there): args <fabric>. Claims ep1 and
 * sends every message it gets back to where it came from, until killed.
 */
static int
sec_ns_echo_child(int argc, char **argv)
{
	static uint8_t bufs[SEC_BUFS][RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_mport *mp;
	struct rte_rio_msg rx[16];
	uint64_t end;
	uint16_t n, k;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 2;
	argc = rio_test_child_args(argc, argv, ret, &argv);
	mp = rte_rio_mport_find("rio_sim_secns");
	if (argc < 1 || mp == NULL || rte_rio_request_inb_mbox(mp, 0, SEC_BUFS) != 0 ||
	    rte_rio_request_outb_mbox(mp, 0, SEC_BUFS) != 0) {
		printf("pid namespace child: no mport or mailboxes\n");
		return 1;
	}
	for (k = 0; k < SEC_BUFS; k++)
		if (rte_rio_add_inb_buffer(mp, 0, bufs[k]) != 0)
			return 1;
	printf("pid namespace child: pid %d, ep1 claimed\n", (int)getpid());
	fflush(stdout);
	end = sec_now_ms() + 2 * SEC_NS_WAIT_MS;
	while (sec_now_ms() < end) {
		n = rte_rio_recv_messages(mp, 0, rx, RTE_DIM(rx));
		for (k = 0; k < n; k++) {
			while (rte_rio_add_outb_message(mp, rx[k].srcid, 0, 0, rx[k].buf,
							rx[k].len) == -EAGAIN)
				;
			rte_rio_add_inb_buffer(mp, 0, rx[k].buf);
		}
	}
	return 0;
}
REGISTER_TEST_CHILD(rio_sim_sec_ns_echo, sec_ns_echo_child);

/* Messages to the echo process of ep1 (destid 1) from ep0: every one back, intact. */
static int
sec_ns_exchange(struct rte_rio_mport *mp)
{
	static uint8_t bufs[SEC_BUFS][RTE_RIO_MAX_MSG_SIZE];
	uint8_t buf[SEC_MSG_LEN];
	struct rte_rio_msg rx[16];
	uint32_t sent = 0, got = 0;
	uint64_t end = sec_now_ms() + SEC_NS_WAIT_MS;
	uint16_t n, k;
	int rc;

	if (rte_rio_request_inb_mbox(mp, 0, SEC_BUFS) != 0 ||
	    rte_rio_request_outb_mbox(mp, 0, SEC_BUFS) != 0) {
		printf("  no mailbox on ep0\n");
		return -1;
	}
	for (k = 0; k < SEC_BUFS; k++)
		if (rte_rio_add_inb_buffer(mp, 0, bufs[k]) != 0)
			return -1;
	while (got < SEC_NS_MSGS && sec_now_ms() < end) {
		if (sent < SEC_NS_MSGS && sent == got) {
			sec_fill(buf, sent);
			rc = rte_rio_add_outb_message(mp, 1, 0, 0, buf, sizeof(buf));
			if (rc == 0)
				sent++;
			else if (rc == -EIO && sent == 0)
				/* It claims ep1 first, then opens its mailbox. */
				usleep(1000);
			else if (rc != -EAGAIN) {
				printf("  message %u refused: %d\n", sent, rc);
				return -1;
			}
		}
		n = rte_rio_recv_messages(mp, 0, rx, RTE_DIM(rx));
		for (k = 0; k < n; k++) {
			if (sec_marked(rx[k].buf, rx[k].len) != (int64_t)got || rx[k].srcid != 1) {
				printf("  echo %u is not message %u from ep1\n", k, got);
				return -1;
			}
			got++;
			rte_rio_add_inb_buffer(mp, 0, rx[k].buf);
		}
	}
	printf("  %u of %u messages echoed by the process in the other namespace\n", got,
	       SEC_NS_MSGS);
	return got == SEC_NS_MSGS ? 0 : -1;
}

/*
 * An endpoint owned by a live process in another PID namespace (pid 1
 * there, like a container's main process) is not reclaimed from here, and
 * the two processes exchange messages; once that process is gone, the
 * endpoint is reclaimed.
 */
static int
test_sec_pidns(void)
{
	static const char *const via[] = { "/usr/bin/unshare", "--pid", "--mount-proc",
					   "--kill-child", NULL };
	char fab[RTE_PMD_RIO_SIM_NAME_LEN], err[SEC_ERR_LEN], args[128], fp[64], vdev[128];
	char *argv[] = { "--no-huge", "-m", "64", "--no-pci", fp, "--log-level=lib.eal:error",
			 "--vdev", vdev, "--", fab, NULL };
	struct rte_pmd_rio_sim_dev_info info;
	struct rte_rio_mport *mp;
	uint64_t end;
	pid_t child;
	int idx, ret = TEST_FAILED;

	if (geteuid() != 0 || access(via[0], X_OK) != 0) {
		printf("  needs root and %s: skipped\n", via[0]);
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(sec_fabric_name(fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:default", err,
							  sizeof(err)), "%s", err);
	snprintf(fp, sizeof(fp), "--file-prefix=%s_ns", fab);
	snprintf(vdev, sizeof(vdev), "rio_sim_secns,fabric=%s,endpoint=ep1,scan=0", fab);
	child = rio_test_spawn_via(via, "rio_sim_sec_ns_echo", argv);
	if (child <= 0)
		goto out;
	idx = rte_pmd_rio_sim_fabric_dev_find(fab, "ep1");
	end = sec_now_ms() + SEC_NS_WAIT_MS;
	do {
		usleep(10000);
		if (rte_pmd_rio_sim_fabric_dev_info(fab, idx, &info) != 0)
			goto out_child;
	} while (info.owner_pid == 0 && sec_now_ms() < end);
	if (info.owner_pid == 0) {
		printf("  the child never claimed ep1\n");
		goto out_child;
	}
	/* Its pid in its own namespace means nothing here: it is alive. */
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,scan=0", fab);
	if (sec_vdev_refused(args, "endpoint ep1 of fabric", "is owned by live process") != 0)
		goto out_child;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0,scan=0", fab);
	if (rte_vdev_init("rio_sim_secns0", args) != 0) {
		printf("  cannot claim ep0\n");
		goto out_child;
	}
	mp = rte_rio_mport_find("rio_sim_secns0");
	ret = mp != NULL && sec_ns_exchange(mp) == 0 ? TEST_SUCCESS : TEST_FAILED;
	rte_vdev_uninit("rio_sim_secns0");
	if (ret != TEST_SUCCESS)
		goto out_child;
	/*
	 * Gone (unshare's child gets SIGKILL when unshare dies, a moment
	 * later): reclaimed.
	 */
	kill(child, SIGKILL);
	rio_test_wait(child, 5000);
	child = -1;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,scan=0", fab);
	end = sec_now_ms() + SEC_NS_WAIT_MS;
	do {
		ret = rte_vdev_init("rio_sim_secns1", args) == 0 ? TEST_SUCCESS : TEST_FAILED;
		if (ret != TEST_SUCCESS)
			usleep(50000);
	} while (ret != TEST_SUCCESS && sec_now_ms() < end);
	if (ret == TEST_SUCCESS)
		rte_vdev_uninit("rio_sim_secns1");
	else
		printf("  ep1 not reclaimed once its owner was gone\n");
out_child:
	if (child > 0) {
		kill(child, SIGKILL);
		rio_test_wait(child, 5000);
	}
out:
	rio_test_runtime_dir_cleanup(fp + strlen("--file-prefix="));
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_destroy(fab), "destroy");
	TEST_ASSERT_EQUAL(sec_shm_count(fab), 0, "shm left");
	return ret;
}

static struct unit_test_suite rio_sim_security_suite = {
	.suite_name = "rio_sim shared-memory security",
	.unit_test_cases = {
		TEST_CASE(test_sec_modes),
		TEST_CASE(test_sec_attach),
		TEST_CASE(test_sec_squat),
		TEST_CASE(test_sec_claims),
		TEST_CASE(test_sec_pidns),
		TEST_CASE(test_sec_indexes),
		TEST_CASE(test_sec_dbell),
		TEST_CASE(test_sec_data_hdr),
		TEST_CASE(test_sec_garbage),
		TEST_CASES_END()
	},
};

static int
test_rio_sim_security(void)
{
	return unit_test_suite_runner(&rio_sim_security_suite);
}

REGISTER_TEST_COMMAND(rio_sim_security_autotest, test_rio_sim_security);
