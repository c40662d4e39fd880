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
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_string_fns.h>

#include "rio_sim_fabric.h"

#define FAB_STATE_GONE		2	/* last user left; segments are being removed */
#define FAB_READY_TIMEOUT_MS	5000
#define FAB_LOCK_CHECK_SPINS	(1u << 16)
#define FAB_SHM_DIR		"/dev/shm"

/* Process-local part of a mapping, around the shared struct sim_fabric. */
struct fab_priv {
	struct sim_fabric f;
	dev_t shm_dev;		/* identity of the main segment we mapped */
	ino_t shm_ino;
	bool listed;		/* still in the registry (not destroyed by name) */
};

static TAILQ_HEAD(, sim_fabric) fab_list = TAILQ_HEAD_INITIALIZER(fab_list);
static pthread_mutex_t fab_list_lock = PTHREAD_MUTEX_INITIALIZER;

static void __rte_format_printf(3, 4)
fab_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

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

static uint64_t
fab_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
fab_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------------ */
/* Processes and the shared lock                                      */

/* State letter and starttime of a pid from /proc/<pid>/stat; 0 if unreadable. */
static uint64_t
fab_process_stat(int32_t pid, char *state)
{
	char path[64], buf[1024], *p, *save = NULL, *tok;
	uint64_t st = 0;
	FILE *fp;
	size_t n;
	int field;

	*state = '?';
	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fp = fopen(path, "r");
	if (fp == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	/* The command name may hold spaces and ')': start after the last ')'. */
	p = strrchr(buf, ')');
	if (p == NULL)
		return 0;
	/* Field 3 (state) is the first token after ")"; starttime is field 22. */
	for (field = 3, tok = strtok_r(p + 1, " ", &save); tok != NULL;
	     tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3)
			*state = tok[0];
		if (field == 22) {
			st = strtoull(tok, NULL, 10);
			break;
		}
	}
	return st;
}

uint64_t
sim_process_start_time(int32_t pid)
{
	char state;

	return fab_process_stat(pid, &state);
}

/*
 * A zombie leader with other threads still running is a live process whose
 * main thread exited: count the process's threads (/proc/<pid>/status).
 */
static bool
fab_process_zombie(int32_t pid)
{
	char path[64], line[128];
	unsigned long threads = 1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fp = fopen(path, "r");
	if (fp == NULL)
		return true;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "Threads: %lu", &threads) == 1)
			break;
	fclose(fp);
	return threads <= 1;
}

bool
sim_process_alive(int32_t pid, uint64_t start_time)
{
	uint64_t now;
	char state;

	if (pid <= 0)
		return false;
	if (kill(pid, 0) != 0 && errno != EPERM)
		return false;
	now = fab_process_stat(pid, &state);
	/* A zombie (or a dying task) runs no code: it owns nothing any more. */
	if ((state == 'Z' || state == 'X' || state == 'x') && fab_process_zombie(pid))
		return false;
	if (start_time == 0)
		return true;
	/* Unreadable /proc entry: the pid exists, trust it. */
	return now == 0 || now == start_time;
}

void
sim_lock(struct sim_shm_lock *l)
{
	uint32_t me = (uint32_t)getpid();
	unsigned int spins = 0;
	uint32_t exp;

	for (;;) {
		exp = 0;
		/* Acquire pairs with the release store in sim_unlock(). */
		if (__atomic_compare_exchange_n(&l->holder, &exp, me, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		if (++spins % FAB_LOCK_CHECK_SPINS == 0 && exp != me &&
		    !sim_process_alive((int32_t)exp, 0)) {
			/* Holder died inside its critical section: take over. */
			if (__atomic_compare_exchange_n(&l->holder, &exp, me, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
				SIM_LOG(WARNING, "lock of dead process %u taken over", exp);
				return;
			}
		}
		rte_pause();
	}
}

void
sim_unlock(struct sim_shm_lock *l)
{
	/* Release pairs with the acquire CAS in sim_lock(). */
	__atomic_store_n(&l->holder, 0, __ATOMIC_RELEASE);
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
		fab_err(err, errlen, "fabric name is empty");
		return -EINVAL;
	}
	n = strnlen(name, SIM_NAME_MAX);
	if (n >= SIM_NAME_MAX) {
		fab_err(err, errlen, "fabric name '%.40s...' longer than %d characters",
			name, SIM_NAME_MAX - 1);
		return -ENAMETOOLONG;
	}
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-')) {
			fab_err(err, errlen, "fabric name '%s': only [A-Za-z0-9_-] allowed", name);
			return -EINVAL;
		}
	}
	return 0;
}

static void
fab_shm_name(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s%s", SIM_SHM_PREFIX, name);
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
/* Attach table                                                       */

static void
fab_attach_prune(struct sim_shm_hdr *h)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_ATTACH; i++) {
		struct sim_shm_attach *a = &h->attached[i];

		if (a->pid != 0 && !sim_process_alive(a->pid, a->start_time)) {
			a->pid = 0;
			a->start_time = 0;
		}
	}
}

/* Called with attach_lock held. */
static int
fab_attach_add(struct sim_shm_hdr *h)
{
	int32_t me = (int32_t)getpid();
	uint64_t st = sim_process_start_time(me);
	int i, free_slot = -1;

	fab_attach_prune(h);
	for (i = 0; i < SIM_MAX_ATTACH; i++) {
		if (h->attached[i].pid == me) {
			h->attached[i].start_time = st;
			return 0;
		}
		if (h->attached[i].pid == 0 && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return -EUSERS;
	h->attached[free_slot].pid = me;
	h->attached[free_slot].start_time = st;
	return 0;
}

/* Called with attach_lock held; returns the number of live processes left. */
static unsigned int
fab_attach_remove(struct sim_shm_hdr *h)
{
	int32_t me = (int32_t)getpid();
	unsigned int i, live = 0;

	fab_attach_prune(h);
	for (i = 0; i < SIM_MAX_ATTACH; i++) {
		if (h->attached[i].pid == me) {
			h->attached[i].pid = 0;
			h->attached[i].start_time = 0;
		}
		if (h->attached[i].pid != 0)
			live++;
	}
	return live;
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
		seed = (uint32_t)(fab_now_ms() ^ ((uint64_t)getpid() << 16));
	return seed;
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
		fab_err(err, errlen, "fabric %s: cannot size shared memory to %" PRIu64 " bytes: %s",
			name, lo.total, strerror(errno));
		return NULL;
	}
	m = mmap(NULL, lo.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		fab_err(err, errlen, "fabric %s: cannot map %" PRIu64 " bytes: %s",
			name, lo.total, strerror(errno));
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		fab_err(err, errlen, "out of memory");
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
	f->creator = true;
	f->group_access = f->shm_mode == SIM_SHM_MODE_GROUP;
	f->refcnt = 1;
	fab_fill_local(f, &lo, topo->devid_size, topo->mbox_entries);

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
	h->creator_uid = (uint32_t)geteuid();
	h->creator_pid = (int32_t)getpid();
	strlcpy(h->name, name, sizeof(h->name));

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
	if (n_std > 0)
		SIM_LOG(NOTICE, "fabric %s: std route tables from seed %" PRIu64 "%s", name,
			h->seed, topo->seed_set ? "" :
			" (replay: [fabric] seed, builtin:<shape>/seed=<n> or RIO_SIM_SEED)");
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
			fab_err(err, errlen, "fabric %s: cannot program static routes (%d)",
				name, rc);
			goto fail;
		}
	}
	rc = fab_attach_add(h);
	if (rc != 0) {
		fab_err(err, errlen, "fabric %s: attach table full", name);
		goto fail;
	}
	/* Everything above is visible before READY: pairs with fab_state_load(). */
	fab_state_store(h, SIM_FABRIC_READY);
	return p;
fail:
	munmap(m, lo.total);
	free(p);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Attach to an existing segment                                      */

/* Returns the handle, NULL with *again set to retry from shm_open, or NULL with err. */
static struct fab_priv *
fab_attach_existing(const char *name, const struct sim_topology *topo, int fd,
		    bool group_access, bool *again, char *err, size_t errlen)
{
	size_t hsz = RTE_ALIGN_CEIL(sizeof(struct sim_shm_hdr), 4096);
	uint64_t deadline = fab_now_ms() + FAB_READY_TIMEOUT_MS;
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
			fab_err(err, errlen, "fabric %s: fstat: %s", name, strerror(errno));
			return NULL;
		}
		/* Who owns it comes first: nothing of a foreign object is read. */
		if (sim_shm_check_access(&st, group_access, why, sizeof(why)) != 0) {
			fab_err(err, errlen, "fabric %s: %s", name, why);
			return NULL;
		}
		if ((uint64_t)st.st_size >= hsz)
			break;
		/* The creator sizes it in one ftruncate(): from 0 to the whole fabric. */
		if (st.st_size != 0) {
			fab_err(err, errlen,
				"fabric %s: truncated shared memory (%lld bytes, shorter than the %zu-byte header)",
				name, (long long)st.st_size, hsz);
			return NULL;
		}
		if (fab_now_ms() > deadline) {
			fab_err(err, errlen,
				"fabric %s: shared memory never initialized by its creator (remove it with destroy)",
				name);
			return NULL;
		}
		fab_sleep_ms(1);
	}
	h = mmap(NULL, hsz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		fab_err(err, errlen, "fabric %s: cannot map header: %s", name, strerror(errno));
		return NULL;
	}
	for (;;) {
		state = fab_state_load(h);
		/* The creator stores magic before READY; 0 only while it builds. */
		magic = __atomic_load_n(&h->magic, __ATOMIC_RELAXED);
		if (magic != SIM_SHM_MAGIC && (magic != 0 || state != SIM_FABRIC_INIT)) {
			fab_err(err, errlen,
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
			fab_err(err, errlen, "fabric %s: corrupt header (state %u)", name, state);
			goto fail;
		}
		if (fab_now_ms() > deadline) {
			fab_err(err, errlen,
				"fabric %s: creator (pid %d) did not finish building it (remove it with destroy)",
				name, (int)h->creator_pid);
			goto fail;
		}
		fab_sleep_ms(1);
	}
	if (h->version != SIM_SHM_VERSION) {
		fab_err(err, errlen, "fabric %s: layout version %u, this build uses %u",
			name, h->version, SIM_SHM_VERSION);
		goto fail;
	}
	if (h->hdr_size != sizeof(struct sim_shm_hdr) ||
	    h->dev_size != sizeof(struct sim_shm_device) ||
	    h->ep_size != sizeof(struct sim_shm_endpoint)) {
		fab_err(err, errlen,
			"fabric %s: structure sizes %u/%u/%u differ from this build's %zu/%zu/%zu",
			name, h->hdr_size, h->dev_size, h->ep_size, sizeof(struct sim_shm_hdr),
			sizeof(struct sim_shm_device), sizeof(struct sim_shm_endpoint));
		goto fail;
	}
	/* The object's owner is its creator; anything else was not made by this driver. */
	if (h->creator_uid != (uint32_t)st.st_uid) {
		fab_err(err, errlen, "fabric %s: created by uid %u but owned by uid %u",
			name, h->creator_uid, (unsigned int)st.st_uid);
		goto fail;
	}
	devid_size = h->devid_size;
	n_dev = h->n_devices;
	n_ep = h->n_endpoints;
	mbox = h->mbox_entries;
	if (devid_size != 8 && devid_size != 16) {
		fab_err(err, errlen, "fabric %s: corrupt header (devid_size %u, not 8 or 16)",
			name, devid_size);
		goto fail;
	}
	if (n_dev == 0 || n_dev > SIM_MAX_DEVICES || n_ep == 0 || n_ep > n_dev ||
	    h->n_switches != n_dev - n_ep) {
		fab_err(err, errlen,
			"fabric %s: corrupt header (%u devices, %u endpoints, %u switches; at most %u devices)",
			name, n_dev, n_ep, h->n_switches, SIM_MAX_DEVICES);
		goto fail;
	}
	if (mbox < 2 || mbox > SIM_MBOX_ENTRIES_MAX || !rte_is_power_of_2(mbox)) {
		fab_err(err, errlen,
			"fabric %s: corrupt header (mbox_entries %u, not a power of two in 2..%u)",
			name, mbox, SIM_MBOX_ENTRIES_MAX);
		goto fail;
	}
	fab_layout(n_dev, n_ep, (uint8_t)devid_size, &lo);
	if (h->dev_off != lo.dev_off || h->ep_off != lo.ep_off || h->rt_off != lo.rt_off ||
	    h->total_size != lo.total) {
		fab_err(err, errlen,
			"fabric %s: corrupt header (offsets 0x%" PRIx64 "/0x%" PRIx64
			"/0x%" PRIx64 " and size %" PRIu64 " do not match its %u devices)",
			name, h->dev_off, h->ep_off, h->rt_off, h->total_size, n_dev);
		goto fail;
	}
	if (fstat(fd, &st) != 0 || (uint64_t)st.st_size != lo.total) {
		fab_err(err, errlen,
			"fabric %s: truncated or resized shared memory (%lld bytes, the header says %" PRIu64 ")",
			name, (long long)st.st_size, lo.total);
		goto fail;
	}
	if (strncmp(h->name, name, SIM_NAME_MAX) != 0) {
		fab_err(err, errlen, "fabric %s: its header is of another fabric ('%.*s')",
			name, SIM_NAME_MAX - 1, h->name);
		goto fail;
	}
	if (topo != NULL && h->topo_hash != sim_topology_hash(topo)) {
		fab_err(err, errlen,
			"fabric %s already exists with a different topology (destroy it first or omit the topology)",
			name);
		goto fail;
	}
	m = mmap(NULL, lo.total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		fab_err(err, errlen, "fabric %s: cannot map %" PRIu64 " bytes: %s",
			name, lo.total, strerror(errno));
		goto fail;
	}
	munmap(h, hsz);
	h = MAP_FAILED;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		fab_err(err, errlen, "out of memory");
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

	sim_lock(&p->f.hdr->attach_lock);
	if (fab_state_load(p->f.hdr) != SIM_FABRIC_READY) {
		sim_unlock(&p->f.hdr->attach_lock);
		*again = true;
		goto fail;
	}
	rc = fab_attach_add(p->f.hdr);
	sim_unlock(&p->f.hdr->attach_lock);
	/* Set before the fabric was READY, never changed after. */
	p->f.timing = __atomic_load_n(&p->f.hdr->timing, __ATOMIC_RELAXED) != 0;
	if (rc != 0) {
		fab_err(err, errlen, "fabric %s: %d processes already attached", name,
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
	char shm[SIM_NAME_MAX + sizeof(SIM_SHM_PREFIX)];
	mode_t perm = group_access ? SIM_SHM_MODE_GROUP : SIM_SHM_MODE;
	bool again;
	int tries, fd;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (fab_name_check(name, err, errlen) != 0)
		return NULL;
	fab_shm_name(shm, sizeof(shm), name);

	pthread_mutex_lock(&fab_list_lock);
	f = fab_lookup(name);
	if (f != NULL) {
		if (mode == SIM_OPEN_CREATE) {
			fab_err(err, errlen, "fabric %s already exists", name);
			f = NULL;
		} else if (topo != NULL && f->hdr->topo_hash != sim_topology_hash(topo)) {
			fab_err(err, errlen,
				"fabric %s already exists with a different topology (destroy it first or omit the topology)",
				name);
			f = NULL;
		} else {
			f->refcnt++;
		}
		pthread_mutex_unlock(&fab_list_lock);
		return f;
	}

	for (tries = 0; tries < 100 && p == NULL; tries++) {
		again = false;
		if (mode != SIM_OPEN_ATTACH) {
			fd = shm_open(shm, O_RDWR | O_CREAT | O_EXCL, perm);
			if (fd >= 0) {
				/* umask may have removed bits: set exactly what was asked. */
				if (fchmod(fd, perm) != 0) {
					fab_err(err, errlen, "fabric %s: fchmod: %s", name,
						strerror(errno));
					close(fd);
					shm_unlink(shm);
					break;
				}
				if (topo == NULL) {
					if (sim_topology_builtin("default", &deftopo, err,
								 errlen) != 0) {
						close(fd);
						shm_unlink(shm);
						break;
					}
					topo = deftopo;
				}
				p = fab_create(name, topo, fd, err, errlen);
				close(fd);
				if (p == NULL)
					shm_unlink(shm);
				break;
			}
			if (errno != EEXIST) {
				fab_err(err, errlen, "fabric %s: cannot create %s: %s", name, shm,
					strerror(errno));
				break;
			}
			if (mode == SIM_OPEN_CREATE) {
				fab_err(err, errlen, "fabric %s already exists", name);
				break;
			}
		}
		fd = shm_open(shm, O_RDWR, 0);
		if (fd < 0) {
			if (errno == ENOENT && mode != SIM_OPEN_ATTACH)
				continue;	/* removed meanwhile: create it */
			if (errno == ENOENT)
				fab_err(err, errlen, "fabric %s does not exist", name);
			else
				fab_err(err, errlen, "fabric %s: cannot open %s: %s", name, shm,
					strerror(errno));
			break;
		}
		p = fab_attach_existing(name, topo, fd, group_access, &again, err, errlen);
		close(fd);
		if (p == NULL && !again)
			break;
		if (again)
			fab_sleep_ms(1);
	}
	if (p == NULL && err != NULL && errlen > 0 && err[0] == '\0')
		fab_err(err, errlen, "fabric %s: could not attach (removed repeatedly)", name);
	if (p != NULL) {
		p->listed = true;
		TAILQ_INSERT_TAIL(&fab_list, &p->f, next);
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
	char shm[SIM_NAME_MAX + sizeof(SIM_SHM_PREFIX)];
	int fd;

	if (fab_name_check(name, NULL, 0) != 0)
		return false;
	fab_shm_name(shm, sizeof(shm), name);
	fd = shm_open(shm, O_RDONLY, 0);
	if (fd < 0)
		return errno != ENOENT;
	close(fd);
	return true;
}

/* Unlink the main segment only if it still is the one we mapped. */
static bool
fab_unlink_if_ours(const struct fab_priv *p, const char *shm)
{
	struct stat st;
	bool ours = false;
	int fd;

	fd = shm_open(shm, O_RDONLY, 0);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_dev == p->shm_dev && st.st_ino == p->shm_ino)
		ours = true;
	close(fd);
	if (ours)
		shm_unlink(shm);
	return ours;
}

void
sim_fabric_detach(struct sim_fabric *f)
{
	struct fab_priv *p;
	char shm[SIM_NAME_MAX + sizeof(SIM_SHM_PREFIX) + 16];
	unsigned int live;
	uint32_t i;

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

	sim_lock(&f->hdr->attach_lock);
	live = fab_attach_remove(f->hdr);
	if (live == 0)
		fab_state_store(f->hdr, FAB_STATE_GONE);
	sim_unlock(&f->hdr->attach_lock);

	if (live == 0) {
		fab_shm_name(shm, sizeof(shm), f->name);
		if (fab_unlink_if_ours(p, shm)) {
			for (i = 0; i < f->n_endpoints; i++) {
				snprintf(shm, sizeof(shm), "%s%s.ep%u", SIM_SHM_PREFIX,
					 f->name, i);
				shm_unlink(shm);
			}
		}
	}
	munmap(f->hdr, f->size);
	free(p);
}

/* Is @ent "rio_sim.<name>" or "rio_sim.<name>.ep<digits>"? */
static bool
fab_is_segment_of(const char *ent, const char *name)
{
	size_t plen = strlen(SIM_SHM_PREFIX) - 1, nlen = strlen(name);
	const char *r;

	if (strncmp(ent, SIM_SHM_PREFIX + 1, plen) != 0 || strncmp(ent + plen, name, nlen) != 0)
		return false;
	r = ent + plen + nlen;
	if (*r == '\0')
		return true;
	if (strncmp(r, ".ep", 3) != 0 || r[3] == '\0')
		return false;
	for (r += 3; *r != '\0'; r++)
		if (*r < '0' || *r > '9')
			return false;
	return true;
}

int
sim_fabric_destroy(const char *name)
{
	char shm[SIM_NAME_MAX + sizeof(SIM_SHM_PREFIX) + 16];
	struct sim_fabric *f;
	struct dirent *de;
	int removed = 0, fd;
	DIR *dir;

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
	fd = shm_open(shm, O_RDWR, 0);
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
	if (shm_unlink(shm) == 0)
		removed++;
	dir = opendir(FAB_SHM_DIR);
	if (dir != NULL) {
		while ((de = readdir(dir)) != NULL) {
			if (!fab_is_segment_of(de->d_name, name))
				continue;
			char path[sizeof(de->d_name) + 2];

			snprintf(path, sizeof(path), "/%s", de->d_name);
			if (shm_unlink(path) == 0)
				removed++;
		}
		closedir(dir);
	}
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

struct sim_shm_device *
sim_fabric_dev(const struct sim_fabric *f, uint32_t index)
{
	if (f == NULL || index >= f->n_devices)
		return NULL;
	return &f->devs[index];
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

/* ------------------------------------------------------------------ */
/* Links and port events                                              */

/* Port-write target device ID from EM+0x28, or -1 when unset. */
static int
fab_pw_target(const struct sim_fabric *f, uint32_t v)
{
	uint32_t id;

	if (v & RTE_RIO_EM_PW_TGT_DEVID_DEV16)
		id = ((v >> 24) << 8) | ((v >> 16) & 0xff);
	else
		id = (v >> 16) & 0xff;
	if (f->devid_size == 8 && (v & RTE_RIO_EM_PW_TGT_DEVID_DEV16))
		return -1;
	if (id == RTE_RIO_ANY_DESTID(f->devid_size))
		return -1;
	return (int)id;
}

/*
 * May switch @d send a port-write for @port's event (now OK or not)?
 * The error-management block's transmission disable and the port's
 * Port-write Disable stop it; the rxs2448 also needs its port's PW_EN for
 * the event (link initialized, OK to uninitialized).
 */
static bool
fab_pw_enabled(const struct sim_shm_device *d, uint8_t port, bool now_ok)
{
	int slot;

	if ((d->em_pw_tx_ctrl & RTE_RIO_EM_PW_TX_CTRL_PW_DIS) ||
	    (d->ports[port].err_sts & RTE_RIO_PORT_N_ERR_STS_PW_DIS))
		return false;
	if (d->model != SIM_MODEL_RXS2448)
		return true;
	slot = sim_impl_slot(d->model, SIM_RXS_PLM_PW_EN(port));
	return slot >= 0 && (d->impl[slot] & (now_ok ? SIM_RXS_PW_EN_LINIT : SIM_RXS_PW_EN_OK2U));
}

/*
 * The error-management port-write of (@d, @port) with the current state
 * (device lock held). @return the target device ID, -1 for none.
 */
static int
fab_pw_build(const struct sim_fabric *f, struct sim_shm_device *d, uint8_t port,
	     uint32_t payload[4])
{
	int target = fab_pw_target(f, d->em_pw_target);

	if (target < 0)
		return -1;
	payload[0] = d->comptag;
	payload[1] = d->ports[port].em_err_det;
	payload[2] = port;
	payload[3] = d->em_ltl_err_det;
	return target;
}

/*
 * Latch @bits in the EM Port n Error Detect CSR of switch @d and send its
 * error-management port-write, unless one of this port is still pending
 * (then the repeats carry the news).
 */
static void
fab_pw_event(struct sim_fabric *f, struct sim_shm_device *d, uint8_t port, uint32_t bits,
	     bool now_ok)
{
	uint64_t period;
	uint32_t payload[4];
	int target = -1;

	period = (uint64_t)__atomic_load_n(&f->hdr->pw_repeat_us, __ATOMIC_RELAXED) * 1000;
	sim_lock(&d->lock);
	d->ports[port].em_err_det |= bits;
	if (!(d->ports[port].err_sts & RTE_RIO_PORT_N_ERR_STS_PW_PEND) ||
	    (bits & (RTE_RIO_EM_PED_LINK_U2OK | RTE_RIO_EM_PED_LINK_OK2U)))
		if (fab_pw_enabled(d, port, now_ok))
			target = fab_pw_build(f, d, port, payload);
	if (target >= 0) {
		/* Pending until software clears it; repeated meanwhile (sim_fabric_pw_tick). */
		__atomic_fetch_or(&d->ports[port].err_sts, RTE_RIO_PORT_N_ERR_STS_PW_PEND,
				  __ATOMIC_RELAXED);
		__atomic_store_n(&d->ports[port].pw_next_ns, sim_now_ns() + RTE_MAX(period, 1ull),
				 __ATOMIC_RELAXED);
	}
	sim_unlock(&d->lock);
	if (target >= 0)
		sim_pw_deliver(f, d->index, (uint16_t)target, payload, sizeof(payload));
}

void
sim_fabric_port_event(struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool was_ok)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	bool now;

	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS))
		return;
	__atomic_fetch_add(&f->hdr->route_gen, 1, __ATOMIC_RELEASE);
	now = sim_port_ok(f, dev_index, port);
	if (now == was_ok || d->type != SIM_DEV_SWITCH)
		return;
	fab_pw_event(f, d, port, now ? RTE_RIO_EM_PED_LINK_U2OK : RTE_RIO_EM_PED_LINK_OK2U, now);
}

void
sim_fabric_port_error(struct sim_fabric *f, uint32_t dev_index, uint8_t port, uint32_t bits)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index);

	__atomic_fetch_add(&f->hdr->route_gen, 1, __ATOMIC_RELEASE);
	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS) || d->type != SIM_DEV_SWITCH)
		return;
	fab_pw_event(f, d, port, bits, true);
}

void
sim_fabric_pw_tick(struct sim_fabric *f)
{
	uint64_t now = 0, period, next;
	struct sim_shm_device *d;
	uint32_t payload[4], i;
	unsigned int p;
	int target;

	for (i = 0; i < f->n_devices; i++) {
		d = &f->devs[i];
		if (d->type != SIM_DEV_SWITCH)
			continue;
		for (p = 0; p < RTE_MIN(d->nports, (unsigned int)SIM_MAX_PORTS); p++) {
			next = __atomic_load_n(&d->ports[p].pw_next_ns, __ATOMIC_RELAXED);
			if (next == 0)
				continue;
			if (now == 0)
				now = sim_now_ns();
			if (now < next)
				continue;
			target = -1;
			sim_lock(&d->lock);
			period = (uint64_t)f->hdr->pw_repeat_us * 1000;
			if (!(d->ports[p].err_sts & RTE_RIO_PORT_N_ERR_STS_PW_PEND)) {
				d->ports[p].pw_next_ns = 0;	/* acknowledged: stop */
			} else {
				d->ports[p].pw_next_ns = now + RTE_MAX(period, 1ull);
				target = fab_pw_build(f, d, (uint8_t)p, payload);
			}
			sim_unlock(&d->lock);
			if (target >= 0)
				sim_pw_deliver(f, i, (uint16_t)target, payload, sizeof(payload));
		}
	}
}

int
sim_fabric_link_set(struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool up)
{
	struct sim_shm_device *d = sim_fabric_dev(f, dev_index), *pd;
	bool was_a, was_b;
	int32_t peer;
	uint8_t pport;

	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS))
		return -EINVAL;
	peer = d->ports[port].peer_dev;
	pd = peer >= 0 ? sim_fabric_dev(f, (uint32_t)peer) : NULL;
	if (pd == NULL)
		return -ENOTCONN;
	pport = d->ports[port].peer_port;
	if (pport >= RTE_MIN(pd->nports, SIM_MAX_PORTS))
		return -ENOTCONN;
	was_a = sim_port_ok(f, dev_index, port);
	was_b = sim_port_ok(f, (uint32_t)peer, pport);
	__atomic_store_n(&d->ports[port].link_up, up ? 1 : 0, __ATOMIC_RELEASE);
	__atomic_store_n(&pd->ports[pport].link_up, up ? 1 : 0, __ATOMIC_RELEASE);
	sim_fabric_port_event(f, dev_index, port, was_a);
	sim_fabric_port_event(f, (uint32_t)peer, pport, was_b);
	return 0;
}
