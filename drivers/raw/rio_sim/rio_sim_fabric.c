/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * The shared-memory fabric: creation, attach/detach by several processes,
 * the attach table, links and the shared lock.
 *
 * Creation: the creator opens "/rio_sim.<fabric>" with O_CREAT | O_EXCL, sizes
 * and fills it, registers itself in the attach table and stores state READY
 * last (release). Attachers wait (bounded) for READY (acquire), then validate
 * the header against what this build expects before mapping the whole size.
 * The last live process to detach marks the fabric GONE and removes every
 * segment; an attacher that finds GONE starts again from shm_open.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_string_fns.h>

#include "rio_sim_fabric.h"

#define FAB_STATE_GONE		2	/* last user left; segments are being removed */
#define FAB_READY_TIMEOUT_MS	5000
#define FAB_DIR_MODE		0700	/* a user's directory of fabrics */
#define FAB_DIR_MODE_GROUP	03770	/* a group's: set-gid (objects take its group), sticky */
#define FAB_DIR_TRIES		100	/* another process may be setting one up */
#define FAB_DIR_FLAGS		(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Process-local part of a mapping, around the shared struct sim_fabric. */
struct fab_priv {
	struct sim_fabric f;
	dev_t shm_dev;		/* identity of the main segment we mapped */
	ino_t shm_ino;
	bool listed;		/* still in the registry (not destroyed by name) */
};

static TAILQ_HEAD(, sim_fabric) fab_list = TAILQ_HEAD_INITIALIZER(fab_list);
static pthread_mutex_t fab_list_lock = PTHREAD_MUTEX_INITIALIZER;

/* Fabric state: the creator's release store pairs with attachers' acquire load. */
static inline uint32_t
fab_state_load(const struct sim_shm_hdr *h)
{
	return __atomic_load_n(&h->state, __ATOMIC_ACQUIRE);
}

static inline void
fab_state_store(struct sim_shm_hdr *h, uint32_t s)
{
	__atomic_store_n(&h->state, s, __ATOMIC_RELEASE);
}


/* A number that tells this fabric from every other one that had its name. */
static uint64_t
fab_instance_new(void)
{
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		v = (sim_now_us() << 20) ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)&v;
	return v != 0 ? v : 1;
}

/* ------------------------------------------------------------------ */
/* Who may use a segment                                              */

/* Is gid our effective group or one of our supplementary groups? */
static bool
fab_in_group(gid_t gid)
{
	gid_t *groups;
	bool found = gid == getegid();
	int i, n;

	if (found)
		return true;
	n = getgroups(0, NULL);
	if (n <= 0)
		return false;
	groups = calloc(n, sizeof(*groups));
	if (groups == NULL)
		return false;
	n = getgroups(n, groups);
	for (i = 0; i < n && !found; i++)
		found = groups[i] == gid;
	free(groups);
	return found;
}

int
sim_shm_check_access(const struct stat *st, bool group_access, char *why, size_t len)
{
	unsigned int mode = st->st_mode & 07777;
	uid_t me = geteuid();

	if (mode != SIM_SHM_MODE && mode != SIM_SHM_MODE_GROUP) {
		snprintf(why, len, "mode 0%o refused (this driver uses 0%o, or 0%o with group=1)",
			 mode, SIM_SHM_MODE, SIM_SHM_MODE_GROUP);
		return -EACCES;
	}
	if (st->st_uid == me)
		return 0;
	if (!group_access) {
		snprintf(why, len, "owned by uid %u, not by us (uid %u); group=1 allows a group",
			 (unsigned int)st->st_uid, (unsigned int)me);
		return -EACCES;
	}
	if (mode != SIM_SHM_MODE_GROUP) {
		snprintf(why, len, "owned by uid %u, not by us (uid %u), and not shared with its group (mode 0%o)",
			 (unsigned int)st->st_uid, (unsigned int)me, mode);
		return -EACCES;
	}
	if (!fab_in_group(st->st_gid)) {
		snprintf(why, len, "owned by uid %u and group %u, and we (uid %u) are not in that group",
			 (unsigned int)st->st_uid, (unsigned int)st->st_gid, (unsigned int)me);
		return -EACCES;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Names and layout                                                   */

static int
fab_name_check(const char *name, char *err, size_t errlen)
{
	size_t i, n;

	if (name == NULL || name[0] == '\0') {
		sim_err(err, errlen, "fabric name is empty");
		return -EINVAL;
	}
	n = strnlen(name, SIM_NAME_MAX);
	if (n >= SIM_NAME_MAX) {
		sim_err(err, errlen, "fabric name '%.40s...' longer than %d characters",
			name, SIM_NAME_MAX - 1);
		return -ENAMETOOLONG;
	}
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-')) {
			sim_err(err, errlen, "fabric name '%s': only [A-Za-z0-9_-] allowed", name);
			return -EINVAL;
		}
	}
	return 0;
}

static void
fab_shm_name(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s%s", SIM_OBJ_PREFIX, name);
}

/* ------------------------------------------------------------------ */
/* Where fabrics live                                                 */

void
sim_fabric_user_dir(char *buf, size_t len)
{
	const char *x = secure_getenv("XDG_RUNTIME_DIR");
	struct stat st;

	/* The login session's own directory (systemd: /run/user/<uid>, 0700). */
	if (x != NULL && x[0] == '/' && lstat(x, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && (st.st_mode & 022) == 0)
		snprintf(buf, len, "%s/rio_sim", x);
	else
		snprintf(buf, len, "/dev/shm/rio_sim-%u", (unsigned int)geteuid());
}

static void
fab_group_dir(char *buf, size_t len, gid_t gid)
{
	snprintf(buf, len, "/dev/shm/rio_sim-g%u", (unsigned int)gid);
}

/* Is the directory of fd what ours must be: @group's (or ours), with mode @want? */
static bool
fab_dir_ok(int fd, bool group, gid_t gid, struct stat *st)
{
	mode_t want = group ? FAB_DIR_MODE_GROUP : FAB_DIR_MODE;

	if (fstat(fd, st) != 0 || !S_ISDIR(st->st_mode) || (st->st_mode & 07777) != want)
		return false;
	return group ? st->st_gid == gid : st->st_uid == geteuid();
}

/*
 * Open directory @path of fabrics, creating it when @create: a user's (ours,
 * mode 0700) or, with @group, group @gid's (that group, mode 03770; only a
 * member can give it that group). Anything else at that path is refused:
 * someone else made it. An fd, or -errno with err filled.
 */
static int
fab_dir_open(const char *path, bool group, gid_t gid, bool create, char *err, size_t errlen)
{
	mode_t want = group ? FAB_DIR_MODE_GROUP : FAB_DIR_MODE;
	unsigned int tries;
	struct stat st;
	int fd, ret;

	for (tries = 0; tries < FAB_DIR_TRIES; tries++) {
		fd = open(path, FAB_DIR_FLAGS);
		if (fd < 0 && errno == ENOENT && create) {
			if (mkdir(path, 0700) != 0 && errno != EEXIST) {
				ret = -errno;
				sim_err(err, errlen, "cannot create directory %s: %s", path,
					strerror(errno));
				return ret;
			}
			fd = open(path, FAB_DIR_FLAGS);
			/* Ours (mode 0700): set it up; someone else's is checked below. */
			if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
			    (st.st_mode & 07777) == 0700 && want != 0700 &&
			    ((group && fchown(fd, (uid_t)-1, gid) != 0) || fchmod(fd, want) != 0)) {
				ret = -errno;
				sim_err(err, errlen, "cannot set up directory %s: %s", path,
					strerror(errno));
				close(fd);
				return ret;
			}
		}
		if (fd < 0) {
			ret = -errno;
			if (errno == ENOTDIR || errno == ELOOP)
				sim_err(err, errlen, "%s is not a directory (someone else made it: remove it)",
					path);
			else
				sim_err(err, errlen, "cannot open directory %s: %s", path,
					strerror(errno));
			return ret;
		}
		if (fab_dir_ok(fd, group, gid, &st))
			return fd;
		close(fd);
		/* A member of the group may be setting it up right now. */
		if (group && st.st_uid != geteuid() && (st.st_mode & 07777) == 0700)
			sim_sleep_us(1000);
		else
			break;
	}
	if (group)
		sim_err(err, errlen,
			"directory %s: group %u and mode 0%o, not group %u and mode 0%o (made by uid %u: remove it)",
			path, (unsigned int)st.st_gid, (unsigned int)(st.st_mode & 07777),
			(unsigned int)gid, want, (unsigned int)st.st_uid);
	else
		sim_err(err, errlen,
			"directory %s: owned by uid %u with mode 0%o, not ours (uid %u) with mode 0%o: remove it%s",
			path, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777),
			(unsigned int)geteuid(), want,
			strncmp(path, "/dev/shm/", 9) == 0 ?
			", or set XDG_RUNTIME_DIR to a directory only you can write" : "");
	return -EACCES;
}

/*
 * The directory that holds fabric @name, or where it is to be created
 * (@create): this user's; with @group_access, the directory of the first of
 * our groups (effective, then supplementary) that holds it, else our
 * effective group's. An fd and its path, or -errno with err filled
 * (-ENOENT: nowhere).
 */
int
sim_fabric_dir_find(const char *name, bool group_access, bool create, char *path, size_t plen,
	     char *err, size_t errlen)
{
	char obj[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX)];
	gid_t *groups = NULL;
	struct stat st;
	int i, n, fd = -ENOENT;

	if (!group_access) {
		sim_fabric_user_dir(path, plen);
		return fab_dir_open(path, false, 0, create, err, errlen);
	}
	fab_shm_name(obj, sizeof(obj), name);
	n = getgroups(0, NULL);
	groups = calloc(RTE_MAX(n, 0) + 1, sizeof(*groups));
	if (groups == NULL) {
		sim_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	groups[0] = getegid();
	n = getgroups(RTE_MAX(n, 0), groups + 1);
	for (i = 0; i <= RTE_MAX(n, 0); i++) {
		fab_group_dir(path, plen, groups[i]);
		fd = fab_dir_open(path, true, groups[i], false, NULL, 0);
		if (fd >= 0 && fstatat(fd, obj, &st, AT_SYMLINK_NOFOLLOW) == 0)
			break;
		if (fd >= 0)
			close(fd);
		fd = -ENOENT;
	}
	free(groups);
	if (fd >= 0)
		return fd;
	if (!create) {
		sim_err(err, errlen, "fabric %s does not exist in any directory of our groups",
			name);
		return -ENOENT;
	}
	fab_group_dir(path, plen, getegid());
	return fab_dir_open(path, true, getegid(), true, err, errlen);
}

int
sim_fabric_obj_open(const struct sim_fabric *f, const char *obj, int flags, mode_t mode)
{
	return openat(f->dir_fd, obj, flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

int
sim_fabric_obj_unlink(const struct sim_fabric *f, const char *obj)
{
	return unlinkat(f->dir_fd, obj, 0);
}

struct fab_layout {
	uint32_t n_devices, n_endpoints, n_switches;
	uint64_t dev_off, ep_off, rt_off, rt_size, total;
};

static void
fab_layout(uint32_t n_dev, uint32_t n_ep, uint8_t devid_size, struct fab_layout *lo)
{
	lo->n_devices = n_dev;
	lo->n_endpoints = n_ep;
	lo->n_switches = n_dev - n_ep;
	lo->dev_off = RTE_ALIGN_CEIL(sizeof(struct sim_shm_hdr), RTE_CACHE_LINE_SIZE);
	lo->ep_off = RTE_ALIGN_CEIL(lo->dev_off + (uint64_t)n_dev * sizeof(struct sim_shm_device),
				    RTE_CACHE_LINE_SIZE);
	lo->rt_off = RTE_ALIGN_CEIL(lo->ep_off +
				    (uint64_t)n_ep * sizeof(struct sim_shm_endpoint), 4096);
	lo->rt_size = SIM_RT_ENTRIES(devid_size) * sizeof(uint16_t);
	lo->total = RTE_ALIGN_CEIL(lo->rt_off + lo->n_switches * lo->rt_size, 4096);
}

static void
fab_fill_local(struct sim_fabric *f, const struct fab_layout *lo, uint8_t devid_size,
	       uint32_t mbox_entries)
{
	uint8_t *base = (uint8_t *)f->hdr;

	f->n_devices = lo->n_devices;
	f->n_endpoints = lo->n_endpoints;
	f->devid_size = devid_size;
	f->mbox_entries = mbox_entries;
	f->devs = (struct sim_shm_device *)(base + lo->dev_off);
	f->eps = (struct sim_shm_endpoint *)(base + lo->ep_off);
	f->rt_base = base + lo->rt_off;
	f->size = lo->total;
}

/* ------------------------------------------------------------------ */
/* Create                                                             */

/*
 * A seed the topology did not choose: random, printed, so that a failure
 * can be replayed with it, in the topology or for every fabric a run
 * creates with RIO_SIM_SEED=<n> in the environment.
 */
static uint32_t
fab_random_seed(void)
{
	const char *env = getenv("RIO_SIM_SEED");
	uint32_t seed = 0;
	char *end;
	int fd;

	if (env != NULL && env[0] != '\0') {
		errno = 0;
		seed = (uint32_t)strtoul(env, &end, 0);
		if (errno == 0 && *end == '\0')
			return seed;
		SIM_LOG(WARNING, "RIO_SIM_SEED=%s is not a number: ignored", env);
		seed = 0;
	}

	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &seed, sizeof(seed)) != (ssize_t)sizeof(seed))
			seed = 0;
		close(fd);
	}
	if (seed == 0)
		seed = (uint32_t)(sim_now_us() ^ ((uint64_t)getpid() << 16));
	return seed;
}

/*
 * The seed and, under SIM_MODELS_ENV, the models in effect: what a failed run
 * needs to be replayed. Said when std switches draw on the seed or a
 * run-wide default model applies.
 */
static void
fab_log_models(const char *name, const struct sim_topology *topo, uint64_t seed, uint32_t n_std)
{
	const char *env = getenv(SIM_MODELS_ENV);
	uint32_t count[SIM_MODEL_COUNT] = { 0 };
	char models[160] = "";
	size_t len = 0;
	uint32_t i;

	if (env != NULL && env[0] != '\0') {
		for (i = 0; i < topo->n_devs; i++)
			count[topo->devs[i].model]++;
		len = snprintf(models, sizeof(models), "%s=%s (", SIM_MODELS_ENV, env);
		for (i = 0; i < SIM_MODEL_COUNT && len < sizeof(models); i++)
			if (count[i] != 0)
				len += snprintf(models + len, sizeof(models) - len, "%s%u %s",
						models[len - 1] == '(' ? "" : ", ", count[i],
						sim_model_get((uint8_t)i)->name);
		if (len < sizeof(models))
			snprintf(models + len, sizeof(models) - len, "); ");
	} else if (n_std == 0) {
		return;
	}
	SIM_LOG(NOTICE, "fabric %s: %sstd route tables from seed %" PRIu64 "%s", name, models,
		seed, topo->seed_set ? "" :
		" (replay: [fabric] seed, builtin:<shape>/seed=<n> or RIO_SIM_SEED)");
}

/* The link's rate: the fastest lane rate both ends have. */
static void
fab_link_rate(struct sim_shm_port *a, struct sim_shm_port *b)
{
	uint8_t baud = RTE_MIN(a->baud, b->baud);

	a->baud = baud;
	b->baud = baud;
}

static struct fab_priv *
fab_create(const char *name, const struct sim_topology *topo, int fd, char *err, size_t errlen)
{
	struct fab_layout lo;
	struct sim_shm_hdr *h;
	struct fab_priv *p = NULL;
	struct sim_fabric *f;
	uint32_t i, n_ep = 0, ep_i = 0, sw_i = 0, n_std = 0;
	struct stat st;
	void *m;
	int rc;

	for (i = 0; i < topo->n_devs; i++)
		if (topo->devs[i].type == SIM_DEV_ENDPOINT)
			n_ep++;
	fab_layout(topo->n_devs, n_ep, topo->devid_size, &lo);
	if (ftruncate(fd, (off_t)lo.total) != 0) {
		sim_err(err, errlen, "fabric %s: cannot size shared memory to %" PRIu64 " bytes: %s",
			name, lo.total, strerror(errno));
		return NULL;
	}
	m = mmap(NULL, lo.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		sim_err(err, errlen, "fabric %s: cannot map %" PRIu64 " bytes: %s",
			name, lo.total, strerror(errno));
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		sim_err(err, errlen, "out of memory");
		munmap(m, lo.total);
		return NULL;
	}
	if (fstat(fd, &st) == 0) {
		p->shm_dev = st.st_dev;
		p->shm_ino = st.st_ino;
		p->f.shm_mode = st.st_mode & 0777;
		p->f.shm_gid = st.st_gid;
	}
	f = &p->f;
	strlcpy(f->name, name, sizeof(f->name));
	f->hdr = h = m;
	f->fd = fd;
	f->creator = true;
	f->group_access = f->shm_mode == SIM_SHM_MODE_GROUP;
	f->refcnt = 1;
	rte_spinlock_init(&f->pw_lock);
	fab_fill_local(f, &lo, topo->devid_size, topo->mbox_entries);
	f->instance = fab_instance_new();

	/* The segment is zero-filled by ftruncate; state stays INIT until the end. */
	h->magic = SIM_SHM_MAGIC;
	h->version = SIM_SHM_VERSION;
	h->total_size = lo.total;
	h->hdr_size = sizeof(struct sim_shm_hdr);
	h->dev_size = sizeof(struct sim_shm_device);
	h->ep_size = sizeof(struct sim_shm_endpoint);
	h->devid_size = topo->devid_size;
	h->n_devices = lo.n_devices;
	h->n_endpoints = lo.n_endpoints;
	h->n_switches = lo.n_switches;
	h->mbox_entries = topo->mbox_entries;
	h->dev_off = lo.dev_off;
	h->ep_off = lo.ep_off;
	h->rt_off = lo.rt_off;
	h->topo_hash = sim_topology_hash(topo);
	h->seed = topo->seed_set ? topo->seed : fab_random_seed();
	h->timing = topo->timing;
	f->timing = topo->timing;
	h->hop_ns = topo->hop_ns;
	h->proc_ns = topo->proc_ns;
	h->resp_timeout_us = topo->resp_timeout_us;
	h->pw_repeat_us = topo->pw_repeat_us;
	h->seg_bufs = topo->seg_bufs;
	h->creator_uid = (uint32_t)geteuid();
	h->creator_pid = (int32_t)getpid();
	h->instance = f->instance;
	strlcpy(h->name, name, sizeof(h->name));
	/* Nobody else attaches before READY: no attach lock needed yet. */
	if (sim_attach_take(f) != 0) {
		sim_err(err, errlen, "fabric %s: cannot lock its attach slot", name);
		goto fail;
	}

	for (i = 0; i < topo->n_devs; i++) {
		const struct sim_topo_dev *td = &topo->devs[i];
		struct sim_shm_device *d = &f->devs[i];
		unsigned int pn;

		strlcpy(d->name, td->name, sizeof(d->name));
		d->index = i;
		d->type = td->type;
		d->model = td->model;
		d->nports = td->nports;
		d->is_host = td->is_host;
		for (pn = 0; pn < SIM_MAX_PORTS; pn++)
			d->ports[pn].peer_dev = -1;
		if (td->type == SIM_DEV_ENDPOINT) {
			struct sim_shm_endpoint *e = &f->eps[ep_i];

			d->ep_index = ep_i;
			e->dev_index = i;
			e->mbox_entries = topo->mbox_entries;
			ep_i++;
		} else {
			d->ep_index = UINT32_MAX;
			d->rt_off = lo.rt_off + (uint64_t)sw_i * lo.rt_size;
			sw_i++;
			if (td->model == SIM_MODEL_STD)
				n_std++;
		}
		sim_config_init_device(f, d, td, topo);
	}
	fab_log_models(name, topo, h->seed, n_std);
	for (i = 0; i < topo->n_links; i++) {
		const struct sim_topo_link *l = &topo->links[i];
		struct sim_shm_port *a = &f->devs[l->dev_a].ports[l->port_a];
		struct sim_shm_port *b = &f->devs[l->dev_b].ports[l->port_b];

		a->peer_dev = (int32_t)l->dev_b;
		a->peer_port = l->port_b;
		a->link_up = 1;
		b->peer_dev = (int32_t)l->dev_a;
		b->peer_port = l->port_a;
		b->link_up = 1;
		fab_link_rate(a, b);
	}
	if (topo->static_routes) {
		rc = sim_config_static_routes(f);
		if (rc != 0) {
			sim_err(err, errlen, "fabric %s: cannot program static routes (%d)",
				name, rc);
			goto fail;
		}
	}
	/* Everything above is visible before READY: pairs with fab_state_load(). */
	fab_state_store(h, SIM_FABRIC_READY);
	return p;
fail:
	sim_attach_release(f);
	munmap(m, lo.total);
	free(p);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Attach to an existing segment                                      */

void
sim_shm_name_print(char *dst, size_t len, const char *src)
{
	size_t i;

	if (len == 0)
		return;
	for (i = 0; i + 1 < len && i < SIM_NAME_MAX - 1 && src[i] != '\0'; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[i] = '\0';
}

static bool fab_unlink_if_ours(const struct fab_priv *p, const char *shm);
static void fab_unlink_segments(const struct fab_priv *p);

/*
 * Returns the handle, NULL with *again set to retry from shm_open, or NULL
 * with err. @reclaim: a fabric that no live process is attached to is
 * removed (*again set), so that the caller creates it anew.
 */
static struct fab_priv *
fab_attach_existing(const char *name, const struct sim_topology *topo, int fd, int dfd,
		    bool group_access, bool reclaim, bool *again, char *err, size_t errlen)
{
	size_t hsz = RTE_ALIGN_CEIL(sizeof(struct sim_shm_hdr), 4096);
	uint64_t deadline = sim_now_us() + sim_wait_ms(FAB_READY_TIMEOUT_MS) * 1000ull;
	struct sim_shm_hdr *h = MAP_FAILED;
	struct fab_priv *p = NULL;
	struct fab_layout lo;
	uint32_t state, n_dev, n_ep, devid_size, mbox;
	void *m = MAP_FAILED;
	char why[160];
	uint64_t magic;
	struct stat st;
	int rc;

	*again = false;
	/* Wait until the creator has sized it. */
	for (;;) {
		if (fstat(fd, &st) != 0) {
			sim_err(err, errlen, "fabric %s: fstat: %s", name, strerror(errno));
			return NULL;
		}
		/* Who owns it comes first: nothing of a foreign object is read. */
		if (sim_shm_check_access(&st, group_access, why, sizeof(why)) != 0) {
			sim_err(err, errlen, "fabric %s: %s", name, why);
			return NULL;
		}
		if ((uint64_t)st.st_size >= hsz)
			break;
		/* The creator sizes it in one ftruncate(): from 0 to the whole fabric. */
		if (st.st_size != 0) {
			sim_err(err, errlen,
				"fabric %s: truncated shared memory (%lld bytes, shorter than the %zu-byte header)",
				name, (long long)st.st_size, hsz);
			return NULL;
		}
		if (sim_now_us() > deadline) {
			sim_err(err, errlen,
				"fabric %s: shared memory never initialized by its creator (remove it with destroy)",
				name);
			return NULL;
		}
		sim_sleep_us(1000);
	}
	h = mmap(NULL, hsz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		sim_err(err, errlen, "fabric %s: cannot map header: %s", name, strerror(errno));
		return NULL;
	}
	for (;;) {
		state = fab_state_load(h);
		/* The creator stores magic before READY; 0 only while it builds. */
		magic = __atomic_load_n(&h->magic, __ATOMIC_RELAXED);
		if (magic != SIM_SHM_MAGIC && (magic != 0 || state != SIM_FABRIC_INIT)) {
			sim_err(err, errlen,
				"fabric %s: not a rio_sim fabric (bad magic 0x%" PRIx64 ")",
				name, magic);
			goto fail;
		}
		if (state == SIM_FABRIC_READY)
			break;
		if (state == FAB_STATE_GONE) {
			*again = true;
			goto fail;
		}
		if (state != SIM_FABRIC_INIT) {
			sim_err(err, errlen, "fabric %s: corrupt header (state %u)", name, state);
			goto fail;
		}
		if (sim_now_us() > deadline) {
			sim_err(err, errlen,
				"fabric %s: creator (pid %d) did not finish building it (remove it with destroy)",
				name, (int)h->creator_pid);
			goto fail;
		}
		sim_sleep_us(1000);
	}
	if (h->version != SIM_SHM_VERSION) {
		sim_err(err, errlen, "fabric %s: layout version %u, this build uses %u",
			name, h->version, SIM_SHM_VERSION);
		goto fail;
	}
	if (h->hdr_size != sizeof(struct sim_shm_hdr) ||
	    h->dev_size != sizeof(struct sim_shm_device) ||
	    h->ep_size != sizeof(struct sim_shm_endpoint)) {
		sim_err(err, errlen,
			"fabric %s: structure sizes %u/%u/%u differ from this build's %zu/%zu/%zu",
			name, h->hdr_size, h->dev_size, h->ep_size, sizeof(struct sim_shm_hdr),
			sizeof(struct sim_shm_device), sizeof(struct sim_shm_endpoint));
		goto fail;
	}
	/* The object's owner is its creator; anything else was not made by this driver. */
	if (h->creator_uid != (uint32_t)st.st_uid) {
		sim_err(err, errlen, "fabric %s: created by uid %u but owned by uid %u",
			name, h->creator_uid, (unsigned int)st.st_uid);
		goto fail;
	}
	devid_size = h->devid_size;
	n_dev = h->n_devices;
	n_ep = h->n_endpoints;
	mbox = h->mbox_entries;
	if (devid_size != 8 && devid_size != 16) {
		sim_err(err, errlen, "fabric %s: corrupt header (devid_size %u, not 8 or 16)",
			name, devid_size);
		goto fail;
	}
	if (n_dev == 0 || n_dev > SIM_MAX_DEVICES || n_ep == 0 || n_ep > n_dev ||
	    h->n_switches != n_dev - n_ep) {
		sim_err(err, errlen,
			"fabric %s: corrupt header (%u devices, %u endpoints, %u switches; at most %u devices)",
			name, n_dev, n_ep, h->n_switches, SIM_MAX_DEVICES);
		goto fail;
	}
	if (mbox < 2 || mbox > SIM_MBOX_ENTRIES_MAX || !rte_is_power_of_2(mbox)) {
		sim_err(err, errlen,
			"fabric %s: corrupt header (mbox_entries %u, not a power of two in 2..%u)",
			name, mbox, SIM_MBOX_ENTRIES_MAX);
		goto fail;
	}
	/* Out of range, a timing parameter would stall every sender for good. */
	if (h->timing > 1 || h->hop_ns > SIM_HOP_NS_MAX || h->proc_ns > SIM_PROC_NS_MAX ||
	    h->resp_timeout_us < 1 || h->resp_timeout_us > SIM_RESP_TIMEOUT_US_MAX ||
	    h->pw_repeat_us < 1 || h->pw_repeat_us > SIM_PW_REPEAT_US_MAX ||
	    h->seg_bufs > SIM_SEG_BUFS_MAX) {
		sim_err(err, errlen,
			"fabric %s: corrupt header (timing %u, hop %u ns, response %u ns, timeout %u us, port-write repeat %u us, segment buffers %u)",
			name, h->timing, h->hop_ns, h->proc_ns, h->resp_timeout_us,
			h->pw_repeat_us, h->seg_bufs);
		goto fail;
	}
	fab_layout(n_dev, n_ep, (uint8_t)devid_size, &lo);
	if (h->dev_off != lo.dev_off || h->ep_off != lo.ep_off || h->rt_off != lo.rt_off ||
	    h->total_size != lo.total) {
		sim_err(err, errlen,
			"fabric %s: corrupt header (offsets 0x%" PRIx64 "/0x%" PRIx64
			"/0x%" PRIx64 " and size %" PRIu64 " do not match its %u devices)",
			name, h->dev_off, h->ep_off, h->rt_off, h->total_size, n_dev);
		goto fail;
	}
	if (fstat(fd, &st) != 0 || (uint64_t)st.st_size != lo.total) {
		sim_err(err, errlen,
			"fabric %s: truncated or resized shared memory (%lld bytes, the header says %" PRIu64 ")",
			name, (long long)st.st_size, lo.total);
		goto fail;
	}
	if (strncmp(h->name, name, SIM_NAME_MAX) != 0) {
		char other[SIM_NAME_MAX];

		sim_shm_name_print(other, sizeof(other), h->name);
		sim_err(err, errlen, "fabric %s: its header is of another fabric ('%s')",
			name, other);
		goto fail;
	}
	if (topo != NULL && h->topo_hash != sim_topology_hash(topo)) {
		sim_err(err, errlen,
			"fabric %s already exists with a different topology (destroy it first or omit the topology)",
			name);
		goto fail;
	}
	m = mmap(NULL, lo.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		sim_err(err, errlen, "fabric %s: cannot map %" PRIu64 " bytes: %s",
			name, lo.total, strerror(errno));
		goto fail;
	}
	munmap(h, hsz);
	h = MAP_FAILED;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		sim_err(err, errlen, "out of memory");
		goto fail;
	}
	p->shm_dev = st.st_dev;
	p->shm_ino = st.st_ino;
	p->f.shm_mode = st.st_mode & 0777;
	p->f.shm_gid = st.st_gid;
	p->f.group_access = group_access;
	strlcpy(p->f.name, name, sizeof(p->f.name));
	p->f.hdr = m;
	p->f.refcnt = 1;
	fab_fill_local(&p->f, &lo, (uint8_t)devid_size, mbox);

	p->f.fd = fd;
	p->f.dir_fd = dfd;
	p->f.instance = p->f.hdr->instance;
	rte_spinlock_init(&p->f.pw_lock);

	rc = sim_fabric_table_lock(fd, name);
	if (rc != 0) {
		sim_err(err, errlen, "fabric %s: cannot take its attach lock: %s", name,
			strerror(-rc));
		goto fail;
	}
	if (fab_state_load(p->f.hdr) != SIM_FABRIC_READY) {
		sim_fabric_table_unlock(fd);
		*again = true;
		goto fail;
	}
	/*
	 * Left by processes that are all gone (killed, or stopped with Ctrl-C
	 * before they detached): the last one would have removed it, and its
	 * state (host locks, IDs, routes, rings) is theirs. A fabric in use
	 * always has a live process attached (dpdk-rio-fabric create leaves a
	 * keeper). Remove it as that process would have, and start over.
	 */
	if (reclaim && sim_attach_count(&p->f, fd, NULL, 0) == 0) {
		fab_state_store(p->f.hdr, FAB_STATE_GONE);
		sim_fabric_table_unlock(fd);
		SIM_LOG(NOTICE, "fabric %s: every process that used it is gone (its creator was pid %d); creating it anew",
			name, (int)p->f.hdr->creator_pid);
		fab_unlink_segments(p);
		*again = true;
		goto fail;
	}
	rc = sim_attach_take(&p->f);
	sim_fabric_table_unlock(fd);
	/* Set before the fabric was READY, never changed after. */
	p->f.timing = __atomic_load_n(&p->f.hdr->timing, __ATOMIC_RELAXED) != 0;
	if (rc != 0) {
		sim_err(err, errlen, "fabric %s: %d processes already attached", name,
			SIM_MAX_ATTACH);
		goto fail;
	}
	return p;
fail:
	if (h != MAP_FAILED)
		munmap(h, hsz);
	if (m != MAP_FAILED)
		munmap(m, lo.total);
	free(p);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Registry and public internal API                                   */

static struct sim_fabric *
fab_lookup(const char *name)
{
	struct sim_fabric *f;

	TAILQ_FOREACH(f, &fab_list, next)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

struct sim_fabric *
sim_fabric_open(const char *name, const struct sim_topology *topo, enum sim_open_mode mode,
		bool group_access, char *err, size_t errlen)
{
	struct sim_topology *deftopo = NULL;
	struct fab_priv *p = NULL;
	struct sim_fabric *f;
	char shm[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX)], dir[SIM_DIR_MAX];
	mode_t perm = group_access ? SIM_SHM_MODE_GROUP : SIM_SHM_MODE;
	bool again;
	int tries, fd, dfd;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (fab_name_check(name, err, errlen) != 0)
		return NULL;
	fab_shm_name(shm, sizeof(shm), name);

	pthread_mutex_lock(&fab_list_lock);
	f = fab_lookup(name);
	if (f != NULL) {
		if (mode == SIM_OPEN_CREATE) {
			sim_err(err, errlen, "fabric %s already exists", name);
			f = NULL;
		} else if (topo != NULL && f->hdr->topo_hash != sim_topology_hash(topo)) {
			sim_err(err, errlen,
				"fabric %s already exists with a different topology (destroy it first or omit the topology)",
				name);
			f = NULL;
		} else {
			f->refcnt++;
		}
		pthread_mutex_unlock(&fab_list_lock);
		return f;
	}

	/* Only we (our group) can have made the directory: nobody else named its objects. */
	dfd = sim_fabric_dir_find(name, group_access, mode != SIM_OPEN_ATTACH, dir, sizeof(dir),
				  err, errlen);
	if (dfd == -ENOENT && mode == SIM_OPEN_ATTACH)
		sim_err(err, errlen, "fabric %s does not exist", name);
	for (tries = 0; dfd >= 0 && tries < 100 && p == NULL; tries++) {
		again = false;
		if (mode != SIM_OPEN_ATTACH) {
			fd = openat(dfd, shm, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    perm);
			if (fd >= 0) {
				/* umask may have removed bits: set exactly what was asked. */
				if (fchmod(fd, perm) != 0) {
					sim_err(err, errlen, "fabric %s: fchmod: %s", name,
						strerror(errno));
					close(fd);
					unlinkat(dfd, shm, 0);
					break;
				}
				if (topo == NULL) {
					if (sim_topology_builtin("default", &deftopo, err,
								 errlen) != 0) {
						close(fd);
						unlinkat(dfd, shm, 0);
						break;
					}
					topo = deftopo;
				}
				/* The handle keeps the fd: it holds our attach slot. */
				p = fab_create(name, topo, fd, err, errlen);
				if (p == NULL) {
					close(fd);
					unlinkat(dfd, shm, 0);
				}
				break;
			}
			if (errno != EEXIST) {
				sim_err(err, errlen, "fabric %s: cannot create %s/%s: %s", name, dir,
					shm, strerror(errno));
				break;
			}
			if (mode == SIM_OPEN_CREATE) {
				sim_err(err, errlen, "fabric %s already exists", name);
				break;
			}
		}
		fd = openat(dfd, shm, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT && mode != SIM_OPEN_ATTACH)
				continue;	/* removed meanwhile: create it */
			if (errno == ENOENT)
				sim_err(err, errlen, "fabric %s does not exist", name);
			else
				sim_err(err, errlen, "fabric %s: cannot open %s/%s: %s", name, dir,
					shm, strerror(errno));
			break;
		}
		p = fab_attach_existing(name, topo, fd, dfd, group_access, mode != SIM_OPEN_ATTACH,
					&again, err, errlen);
		if (p == NULL)
			close(fd);
		if (p == NULL && !again)
			break;
		if (again)
			sim_sleep_us(1000);
	}
	if (p == NULL && err != NULL && errlen > 0 && err[0] == '\0')
		sim_err(err, errlen, "fabric %s: could not attach (removed repeatedly)", name);
	if (p != NULL) {
		p->f.dir_fd = dfd;
		strlcpy(p->f.dir, dir, sizeof(p->f.dir));
		p->listed = true;
		TAILQ_INSERT_TAIL(&fab_list, &p->f, next);
	} else if (dfd >= 0) {
		close(dfd);
	}
	pthread_mutex_unlock(&fab_list_lock);
	sim_topology_free(deftopo);
	return p != NULL ? &p->f : NULL;
}

struct sim_fabric *
sim_fabric_attach(const char *name, const struct sim_topology *topo, bool group_access,
		  char *err, size_t errlen)
{
	return sim_fabric_open(name, topo, SIM_OPEN_ANY, group_access, err, errlen);
}

bool
sim_fabric_exists(const char *name)
{
	char shm[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX)], dir[SIM_DIR_MAX];
	struct stat st;
	bool ret;
	int dfd;

	if (fab_name_check(name, NULL, 0) != 0)
		return false;
	dfd = sim_fabric_dir_find(name, false, false, dir, sizeof(dir), NULL, 0);
	if (dfd < 0)
		return dfd != -ENOENT;
	fab_shm_name(shm, sizeof(shm), name);
	ret = fstatat(dfd, shm, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
	close(dfd);
	return ret;
}

/* Is the main segment at @f's name still the one we mapped? */
static bool
fab_still_named(const struct fab_priv *p)
{
	char shm[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX)];
	struct stat st;

	fab_shm_name(shm, sizeof(shm), p->f.name);
	return fstatat(p->f.dir_fd, shm, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		st.st_dev == p->shm_dev && st.st_ino == p->shm_ino;
}

/* Unlink the main segment only if it still is the one we mapped. */
static bool
fab_unlink_if_ours(const struct fab_priv *p, const char *shm)
{
	if (!fab_still_named(p))
		return false;
	sim_fabric_obj_unlink(&p->f, shm);
	return true;
}

void
sim_fabric_data_name(const struct sim_fabric *f, uint32_t ep_index, char *buf, size_t len)
{
	snprintf(buf, len, SIM_OBJ_PREFIX "%s.ep%u", f->name, ep_index);
}

void
sim_fabric_win_name(const struct sim_fabric *f, uint32_t ep_index, uint32_t k, char *buf,
		    size_t len)
{
	snprintf(buf, len, SIM_OBJ_PREFIX "%s.ep%u.w%u", f->name, ep_index, k);
}

void
sim_fabric_win_unlink(const struct sim_fabric *f, uint32_t ep_index)
{
	char name[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX) + 32];
	const struct sim_shm_window *w;
	struct stat st;
	uint32_t k;
	int fd;

	for (k = 0; k < SIM_INB_WINDOWS; k++) {
		w = &f->eps[ep_index].win[k];
		sim_fabric_win_name(f, ep_index, k, name, sizeof(name));
		fd = sim_fabric_obj_open(f, name, O_RDONLY, 0);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 &&
		    (uint64_t)st.st_ino == __atomic_load_n(&w->seg_ino, __ATOMIC_RELAXED) &&
		    (uint64_t)st.st_dev == __atomic_load_n(&w->seg_dev, __ATOMIC_RELAXED))
			sim_fabric_obj_unlink(f, name);
		close(fd);
	}
}

bool
sim_fabric_data_unlink(const struct sim_fabric *f, uint32_t ep_index, bool only_ours)
{
	const struct fab_priv *p = container_of(f, const struct fab_priv, f);
	const struct sim_shm_endpoint *e = &f->eps[ep_index];
	char name[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX) + 16];
	struct sim_shm_data_hdr dh;
	bool remove = false;
	struct stat st;
	int fd;

	sim_fabric_data_name(f, ep_index, name, sizeof(name));
	fd = sim_fabric_obj_open(f, name, O_RDONLY, 0);
	if (fd < 0)
		return errno == ENOENT;
	if (fstat(fd, &st) == 0 && st.st_ino != 0 &&
	    (uint64_t)st.st_ino == __atomic_load_n(&e->data_ino, __ATOMIC_RELAXED) &&
	    (uint64_t)st.st_dev == __atomic_load_n(&e->data_dev, __ATOMIC_RELAXED))
		remove = true;
	else if (pread(fd, &dh, sizeof(dh), 0) == (ssize_t)sizeof(dh) &&
		 dh.magic == SIM_SHM_DATA_MAGIC && dh.instance == f->instance)
		remove = true;
	close(fd);
	/* Another fabric's, if any is still at our name: not ours to remove. */
	if (!remove && !only_ours)
		remove = fab_still_named(p);
	if (!remove) {
		SIM_LOG(DEBUG, "%s: left alone (not a segment of this fabric %s)", name, f->name);
		return false;
	}
	return sim_fabric_obj_unlink(f, name) == 0 || errno == ENOENT;
}

/* Remove the fabric's segments, if its name still is the segment @p mapped. */
static void
fab_unlink_segments(const struct fab_priv *p)
{
	char shm[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX) + 16];
	uint32_t i;

	/* Only what belongs to the fabric we attached to: its name may be reused. */
	fab_shm_name(shm, sizeof(shm), p->f.name);
	if (!fab_unlink_if_ours(p, shm))
		return;
	for (i = 0; i < p->f.n_endpoints; i++) {
		sim_fabric_data_unlink(&p->f, i, true);
		sim_fabric_win_unlink(&p->f, i);
	}
}

void
sim_fabric_detach(struct sim_fabric *f)
{
	struct fab_priv *p;
	unsigned int live = 1;
	int rc;

	if (f == NULL)
		return;
	p = container_of(f, struct fab_priv, f);
	pthread_mutex_lock(&fab_list_lock);
	if (f->refcnt == 0 || --f->refcnt > 0) {
		pthread_mutex_unlock(&fab_list_lock);
		return;
	}
	if (p->listed)
		TAILQ_REMOVE(&fab_list, f, next);
	p->listed = false;
	pthread_mutex_unlock(&fab_list_lock);

	/*
	 * Without the attach lock (a stopped process holds it), leave the
	 * fabric in place for whoever detaches last after us.
	 */
	sim_sender_put(f, f->pw_sender);
	f->pw_sender = 0;
	rc = sim_fabric_table_lock(f->fd, f->name);
	sim_attach_release(f);
	if (rc == 0) {
		live = sim_attach_count(f, f->fd, NULL, 0);
		if (live == 0)
			fab_state_store(f->hdr, FAB_STATE_GONE);
		sim_fabric_table_unlock(f->fd);
	}

	if (live == 0)
		fab_unlink_segments(p);
	munmap(f->hdr, f->size);
	close(f->fd);
	close(f->dir_fd);
	free(p);
}

/* Is @ent "rio_sim.<name>" or "rio_sim.<name>.ep<digits>"? */
static bool
fab_is_segment_of(const char *ent, const char *name)
{
	size_t plen = strlen(SIM_OBJ_PREFIX), nlen = strlen(name);
	const char *r;

	if (strncmp(ent, SIM_OBJ_PREFIX, plen) != 0 || strncmp(ent + plen, name, nlen) != 0)
		return false;
	r = ent + plen + nlen;
	if (*r == '\0')
		return true;
	if (strncmp(r, ".ep", 3) != 0 || r[3] < '0' || r[3] > '9')
		return false;
	for (r += 3; *r >= '0' && *r <= '9'; r++)
		;
	/* A data segment ".ep<N>", or a window segment ".ep<N>.w<K>". */
	if (*r == '\0')
		return true;
	if (strncmp(r, ".w", 2) != 0 || r[2] < '0' || r[2] > '9')
		return false;
	for (r += 2; *r >= '0' && *r <= '9'; r++)
		;
	return *r == '\0';
}

int
sim_fabric_objects(const char *name, bool remove)
{
	char dir[SIM_DIR_MAX];
	struct dirent *de;
	int n = 0, dfd;
	DIR *d;

	if (fab_name_check(name, NULL, 0) != 0)
		return -EINVAL;
	dfd = sim_fabric_dir_find(name, false, false, dir, sizeof(dir), NULL, 0);
	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd;
	d = fdopendir(dfd);
	if (d == NULL) {
		close(dfd);
		return -errno;
	}
	while ((de = readdir(d)) != NULL)
		if (fab_is_segment_of(de->d_name, name) &&
		    (!remove || unlinkat(dirfd(d), de->d_name, 0) == 0))
			n++;
	closedir(d);
	return n;
}

int
sim_fabric_destroy(const char *name)
{
	char shm[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX) + 16], dir[SIM_DIR_MAX];
	struct sim_fabric *f;
	int fd, dfd, removed;

	if (fab_name_check(name, NULL, 0) != 0)
		return -EINVAL;
	fab_shm_name(shm, sizeof(shm), name);

	/* Local handles stay mapped for their users but are no longer found by name. */
	pthread_mutex_lock(&fab_list_lock);
	f = fab_lookup(name);
	if (f != NULL) {
		TAILQ_REMOVE(&fab_list, f, next);
		container_of(f, struct fab_priv, f)->listed = false;
	}
	pthread_mutex_unlock(&fab_list_lock);

	/* Tell attachers that map it right now to start over. */
	dfd = sim_fabric_dir_find(name, false, false, dir, sizeof(dir), NULL, 0);
	if (dfd < 0)
		return -ENOENT;
	fd = openat(dfd, shm, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd >= 0) {
		struct stat st;

		if (fstat(fd, &st) == 0 && (uint64_t)st.st_size >= sizeof(struct sim_shm_hdr)) {
			struct sim_shm_hdr *h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE,
						     MAP_SHARED, fd, 0);

			if (h != MAP_FAILED) {
				if (h->magic == SIM_SHM_MAGIC)
					fab_state_store(h, FAB_STATE_GONE);
				munmap(h, sizeof(*h));
			}
		}
		close(fd);
	}
	removed = sim_fabric_objects(name, true);
	return removed > 0 ? 0 : -ENOENT;
}

int
sim_fabric_find_device(const struct sim_fabric *f, const char *name)
{
	uint32_t i;
	char *end;

	if (f == NULL || name == NULL)
		return -ENOENT;
	if (name[0] == '#' && name[1] != '\0') {
		unsigned long v;

		errno = 0;
		v = strtoul(name + 1, &end, 10);
		if (errno != 0 || *end != '\0' || v >= f->n_devices)
			return -ENOENT;
		return (int)v;
	}
	for (i = 0; i < f->n_devices; i++) {
		const char *dn = f->devs[i].name;

		if (memchr(dn, '\0', SIM_NAME_MAX) != NULL && strcmp(dn, name) == 0)
			return (int)i;
	}
	return -ENOENT;
}

uint64_t
sim_port_pkts(const struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool tx)
{
	const struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	const struct sim_shm_endpoint *e;
	uint64_t v;

	if (d == NULL || port >= SIM_MAX_PORTS)
		return 0;
	v = __atomic_load_n(tx ? &d->ports[port].tx_pkts : &d->ports[port].rx_pkts,
			    __ATOMIC_RELAXED);
	if (port == 0 && d->type == SIM_DEV_ENDPOINT && d->ep_index < f->n_endpoints) {
		e = &f->eps[d->ep_index];
		v += __atomic_load_n(tx ? &e->port_tx_pkts : &e->port_rx_pkts,
				     __ATOMIC_RELAXED);
	}
	return v;
}
