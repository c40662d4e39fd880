/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Fabric inspection for tools (rte_pmd_rio_sim_fabric.h): read a fabric's
 * header without attaching, list the fabrics of this user, dump a switch's
 * route table.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "rio_sim_fabric.h"
#include "rte_pmd_rio_sim_fabric.h"

/* Is @s a valid fabric name: 1..31 characters of [A-Za-z0-9_-]? */
static bool
tool_name_ok(const char *s)
{
	size_t i, n;

	if (s == NULL)
		return false;
	n = strnlen(s, SIM_NAME_MAX);
	if (n == 0 || n >= SIM_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

/* Fabric state: pairs with the creator's release store of READY. */
static inline uint32_t
tool_state_load(const struct sim_shm_hdr *h)
{
	return __atomic_load_n(&h->state, __ATOMIC_ACQUIRE);
}

int
rte_pmd_rio_sim_fabric_stat(const char *name, struct rte_pmd_rio_sim_fabric_stat *st,
			    char *err, size_t errlen)
{
	char shm[SIM_NAME_MAX + sizeof(SIM_OBJ_PREFIX)], dir[SIM_DIR_MAX];
	const struct sim_shm_hdr *h = MAP_FAILED;
	struct sim_fabric view = { .fd = -1 };
	struct stat sb;
	int fd = -1, dfd, rc;

	if (st == NULL)
		return -EINVAL;
	if (!tool_name_ok(name)) {
		sim_err(err, errlen, "bad fabric name '%.40s': 1 to %d characters of [A-Za-z0-9_-]",
			name != NULL ? name : "", SIM_NAME_MAX - 1);
		return -EINVAL;
	}
	snprintf(shm, sizeof(shm), "%s%s", SIM_OBJ_PREFIX, name);
	dfd = sim_fabric_dir_find(name, false, false, dir, sizeof(dir), err, errlen);
	if (dfd < 0) {
		rc = dfd;
		if (rc == -ENOENT)
			sim_err(err, errlen, "fabric %s does not exist", name);
		goto out;
	}
	fd = openat(dfd, shm, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	rc = -errno;
	close(dfd);
	if (fd < 0) {
		if (rc == -ENOENT)
			sim_err(err, errlen, "fabric %s does not exist", name);
		else if (rc == -EACCES)
			sim_err(err, errlen, "fabric %s: permission denied on %s/%s", name,
				dir, shm);
		else
			sim_err(err, errlen, "fabric %s: cannot open %s/%s: %s", name,
				dir, shm, strerror(-rc));
		goto out;
	}
	if (fstat(fd, &sb) != 0) {
		rc = -errno;
		sim_err(err, errlen, "fabric %s: fstat: %s", name, strerror(-rc));
		goto out;
	}
	if ((uint64_t)sb.st_size < sizeof(*h)) {
		rc = -EPROTO;
		sim_err(err, errlen, "fabric %s: not initialized (%lld bytes)", name,
			(long long)sb.st_size);
		goto out;
	}
	h = mmap(NULL, sizeof(*h), PROT_READ, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		rc = -errno;
		sim_err(err, errlen, "fabric %s: cannot map its header: %s", name,
			strerror(-rc));
		goto out;
	}
	if (h->magic != SIM_SHM_MAGIC || h->version != SIM_SHM_VERSION ||
	    h->hdr_size != sizeof(*h)) {
		rc = -EPROTO;
		sim_err(err, errlen, "fabric %s: not a rio_sim fabric of this build's layout",
			name);
		goto out;
	}
	memset(st, 0, sizeof(*st));
	strlcpy(st->name, name, sizeof(st->name));
	st->ready = tool_state_load(h) == SIM_FABRIC_READY;
	st->n_devices = h->n_devices;
	st->n_endpoints = h->n_endpoints;
	st->n_switches = h->n_switches;
	st->devid_size = (uint8_t)h->devid_size;
	st->owner_uid = (uint32_t)sb.st_uid;
	st->mode = (uint32_t)(sb.st_mode & 07777);
	st->creator_uid = h->creator_uid;
	st->creator_pid = h->creator_pid;
	st->size = (uint64_t)sb.st_size;
	st->seed = h->seed;
	st->timing = (uint8_t)h->timing;
	st->hop_ns = h->hop_ns;
	st->proc_ns = h->proc_ns;
	st->resp_timeout_us = h->resp_timeout_us;
	st->pw_repeat_us = h->pw_repeat_us;
	st->mbox_entries = h->mbox_entries;
	st->seg_bufs = h->seg_bufs;
	/* Attached processes hold a lock on the object: ask the kernel (rio_sim_lock.c). */
	view.hdr = (struct sim_shm_hdr *)(uintptr_t)h;
	st->n_attached = sim_attach_count(&view, fd, st->attached,
					  RTE_PMD_RIO_SIM_FABRIC_MAX_ATTACH);
	st->n_attached = RTE_MIN(st->n_attached, (uint32_t)RTE_PMD_RIO_SIM_FABRIC_MAX_ATTACH);
	rc = 0;
out:
	if (h != MAP_FAILED)
		munmap((void *)(uintptr_t)h, sizeof(*h));
	if (fd >= 0)
		close(fd);
	return rc;
}

static int
tool_name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

int
rte_pmd_rio_sim_fabric_dir(char *buf, size_t len)
{
	if (buf == NULL || len == 0)
		return -EINVAL;
	sim_fabric_user_dir(buf, len);
	return strnlen(buf, len) < len ? 0 : -ENAMETOOLONG;
}

int
rte_pmd_rio_sim_fabric_list(char (*names)[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], unsigned int max)
{
	size_t plen = strlen(SIM_OBJ_PREFIX);
	char path[SIM_DIR_MAX];
	unsigned int n = 0;
	struct dirent *de;
	DIR *dir;
	int dfd;

	if (names == NULL && max > 0)
		return -EINVAL;
	/* Any name: only the directory matters, which holds no other object. */
	dfd = sim_fabric_dir_find("x", false, false, path, sizeof(path), NULL, 0);
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	dir = fdopendir(dfd);
	if (dir == NULL) {
		close(dfd);
		return -errno;
	}
	while ((de = readdir(dir)) != NULL) {
		const char *fab = de->d_name + plen;

		/* "rio_sim.<name>" only: data segments "<name>.ep<n>" fail the name check. */
		if (strncmp(de->d_name, SIM_OBJ_PREFIX, plen) != 0 || !tool_name_ok(fab))
			continue;
		if (n < max)
			strlcpy(names[n], fab, RTE_PMD_RIO_SIM_FABRIC_NAME_LEN);
		n++;
	}
	closedir(dir);
	if (names != NULL)
		qsort(names, RTE_MIN(n, max), RTE_PMD_RIO_SIM_FABRIC_NAME_LEN, tool_name_cmp);
	return (int)n;
}

int
rte_pmd_rio_sim_fabric_route_table(const char *name, const char *sw_name, uint8_t *ports,
				   uint32_t n, uint8_t *default_port)
{
	struct sim_shm_device *d;
	struct sim_fabric *f;
	uint32_t i, size;
	int idx, rc, port;

	if (ports == NULL && n > 0)
		return -EINVAL;
	f = sim_fabric_open(name, NULL, SIM_OPEN_ATTACH, false, NULL, 0);
	if (f == NULL)
		return -ENOENT;
	idx = sim_fabric_find_device(f, sw_name);
	if (idx < 0) {
		rc = -ENOENT;
		goto out;
	}
	d = sim_fabric_dev(f, (uint32_t)idx);
	if (d == NULL || d->type != SIM_DEV_SWITCH || sim_switch_rt(f, (uint32_t)idx) == NULL) {
		rc = -ENOTSUP;
		goto out;
	}
	size = RTE_RIO_MAX_DESTIDS(f->devid_size);
	for (i = 0; i < RTE_MIN(n, size); i++) {
		port = sim_switch_route(f, d, (uint16_t)i);
		ports[i] = port < 0 ? RTE_RIO_INVALID_ROUTE : (uint8_t)port;
	}
	if (default_port != NULL)
		*default_port = (uint8_t)(__atomic_load_n(&d->rte_default_port,
							  __ATOMIC_RELAXED) & 0xff);
	rc = (int)size;
out:
	sim_fabric_detach(f);
	return rc;
}
