/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/* Public fabric-management API (rte_pmd_rio_sim_fabric.h). */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "rio_sim_fabric.h"
#include "rte_pmd_rio_sim_fabric.h"

#define MGMT_BUILTIN_PREFIX	"builtin:"

/* References taken by rte_pmd_rio_sim_fabric_create/attach in this process. */
struct mgmt_ref {
	TAILQ_ENTRY(mgmt_ref) next;
	char name[SIM_NAME_MAX];
	struct sim_fabric *f;
};

static TAILQ_HEAD(, mgmt_ref) mgmt_refs = TAILQ_HEAD_INITIALIZER(mgmt_refs);
static pthread_mutex_t mgmt_lock = PTHREAD_MUTEX_INITIALIZER;

static int
mgmt_topology(const char *spec, struct sim_topology **t, char *err, size_t errlen)
{
	if (spec == NULL)
		return sim_topology_builtin("default", t, err, errlen);
	if (strncmp(spec, MGMT_BUILTIN_PREFIX, strlen(MGMT_BUILTIN_PREFIX)) == 0)
		return sim_topology_builtin(spec + strlen(MGMT_BUILTIN_PREFIX), t, err, errlen);
	return sim_topology_parse_file(spec, t, err, errlen);
}

static int
mgmt_open(const char *name, const char *topology, enum sim_open_mode mode,
	  char *err, size_t errlen)
{
	struct sim_topology *t = NULL;
	struct mgmt_ref *r = NULL;
	struct sim_fabric *f;
	char e2[256] = "";
	int rc;

	if (name == NULL) {
		if (err != NULL && errlen > 0)
			strlcpy(err, "no fabric name", errlen);
		return -EINVAL;
	}
	if (topology != NULL || mode == SIM_OPEN_CREATE) {
		rc = mgmt_topology(topology, &t, err, errlen);
		if (rc != 0)
			return rc;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		sim_topology_free(t);
		return -ENOMEM;
	}
	f = sim_fabric_open(name, t, mode, false, e2, sizeof(e2));
	sim_topology_free(t);
	if (f == NULL) {
		free(r);
		if (err != NULL && errlen > 0)
			strlcpy(err, e2, errlen);
		if (strstr(e2, "already exists") != NULL)
			return -EEXIST;
		if (strstr(e2, "does not exist") != NULL)
			return -ENOENT;
		return strstr(e2, "name") != NULL ? -EINVAL : -EIO;
	}
	strlcpy(r->name, name, sizeof(r->name));
	r->f = f;
	pthread_mutex_lock(&mgmt_lock);
	TAILQ_INSERT_TAIL(&mgmt_refs, r, next);
	pthread_mutex_unlock(&mgmt_lock);
	return 0;
}

int
rte_pmd_rio_sim_fabric_create(const char *name, const char *topology, char *err, size_t errlen)
{
	return mgmt_open(name, topology, SIM_OPEN_CREATE, err, errlen);
}

int
rte_pmd_rio_sim_fabric_attach(const char *name, const char *topology, char *err, size_t errlen)
{
	return mgmt_open(name, topology, SIM_OPEN_ATTACH, err, errlen);
}

/* Drop one (or every, @all) reference; returns how many were dropped. */
static int
mgmt_drop(const char *name, bool all)
{
	struct mgmt_ref *r, *tmp;
	int n = 0;

	pthread_mutex_lock(&mgmt_lock);
	for (r = TAILQ_FIRST(&mgmt_refs); r != NULL; r = tmp) {
		tmp = TAILQ_NEXT(r, next);
		if (strcmp(r->name, name) != 0)
			continue;
		TAILQ_REMOVE(&mgmt_refs, r, next);
		sim_fabric_detach(r->f);
		free(r);
		n++;
		if (!all)
			break;
	}
	pthread_mutex_unlock(&mgmt_lock);
	return n;
}

int
rte_pmd_rio_sim_fabric_detach(const char *name)
{
	if (name == NULL)
		return -EINVAL;
	return mgmt_drop(name, false) > 0 ? 0 : -ENOENT;
}

int
rte_pmd_rio_sim_fabric_destroy(const char *name)
{
	bool existed;
	int rc;

	if (name == NULL)
		return -EINVAL;
	existed = sim_fabric_exists(name);
	mgmt_drop(name, true);
	rc = sim_fabric_destroy(name);
	return existed ? 0 : rc;
}

int
rte_pmd_rio_sim_fabric_exists(const char *name)
{
	return name != NULL && sim_fabric_exists(name) ? 1 : 0;
}

/* This process's mapping for the duration of one call; sim_fabric_detach() after. */
static struct sim_fabric *
mgmt_get(const char *name)
{
	if (name == NULL)
		return NULL;
	return sim_fabric_open(name, NULL, SIM_OPEN_ATTACH, false, NULL, 0);
}

int
rte_pmd_rio_sim_fabric_dev_count(const char *name)
{
	struct sim_fabric *f = mgmt_get(name);
	int n;

	if (f == NULL)
		return -ENOENT;
	n = (int)f->n_devices;
	sim_fabric_detach(f);
	return n;
}

int
rte_pmd_rio_sim_fabric_dev_find(const char *name, const char *dev_name)
{
	struct sim_fabric *f = mgmt_get(name);
	int idx;

	if (f == NULL)
		return -ENOENT;
	idx = sim_fabric_find_device(f, dev_name);
	sim_fabric_detach(f);
	return idx;
}

int
rte_pmd_rio_sim_fabric_dev_info(const char *name, uint32_t index,
				struct rte_pmd_rio_sim_dev_info *info)
{
	struct sim_fabric *f;
	struct sim_shm_device *d;
	unsigned int i, np;

	if (info == NULL)
		return -EINVAL;
	f = mgmt_get(name);
	if (f == NULL)
		return -ENOENT;
	d = sim_fabric_dev(f, index);
	if (d == NULL) {
		sim_fabric_detach(f);
		return -EINVAL;
	}
	memset(info, 0, sizeof(*info));
	memcpy(info->name, d->name, sizeof(info->name));
	info->name[sizeof(info->name) - 1] = '\0';
	info->index = index;
	info->type = d->type;
	strlcpy(info->model, sim_model_get(d->model)->name, sizeof(info->model));
	np = RTE_MIN(d->nports, SIM_MAX_PORTS);
	info->nports = (uint8_t)np;
	info->is_host = d->is_host;
	info->vid = d->dev_id & 0xffff;
	info->did = d->dev_id >> 16;
	info->base_devid = d->type == SIM_DEV_ENDPOINT ? d->base_devid : 0;
	info->comptag = d->comptag;
	info->ep_index = UINT32_MAX;
	if (d->type == SIM_DEV_ENDPOINT && d->ep_index < f->n_endpoints) {
		info->ep_index = d->ep_index;
		info->owner_pid = __atomic_load_n(&f->eps[d->ep_index].owner_pid,
						  __ATOMIC_RELAXED);
	}
	info->maint_rx = __atomic_load_n(&d->maint_rx, __ATOMIC_RELAXED);
	info->maint_refused = __atomic_load_n(&d->maint_refused, __ATOMIC_RELAXED);
	info->drop_destid = __atomic_load_n(&d->drop_destid, __ATOMIC_RELAXED);
	for (i = 0; i < np; i++) {
		const struct sim_shm_port *p = &d->ports[i];
		struct rte_pmd_rio_sim_port_info *pi = &info->ports[i];

		pi->peer_dev = p->peer_dev;
		pi->peer_port = p->peer_port;
		pi->link_up = p->link_up;
		pi->port_ok = sim_port_ok(f, index, (uint8_t)i);
		pi->ctl = p->ctl;
		pi->lockout = (p->ctl & RTE_RIO_PORT_N_CTL_LOCKOUT) != 0;
		pi->tx_pkts = sim_port_pkts(f, index, (uint8_t)i, true);
		pi->rx_pkts = sim_port_pkts(f, index, (uint8_t)i, false);
		pi->drops = __atomic_load_n(&p->drops, __ATOMIC_RELAXED);
		pi->err_stopped = __atomic_load_n(&p->err_stopped, __ATOMIC_RELAXED);
		pi->lanes = p->lanes;
		pi->baud = p->baud;
		pi->ack_in = __atomic_load_n(&p->ack_in, __ATOMIC_RELAXED);
		pi->ack_out = __atomic_load_n(&p->ack_out, __ATOMIC_RELAXED);
		pi->rate_bps = sim_port_rate_bps(f, index, (uint8_t)i);
	}
	sim_fabric_detach(f);
	return 0;
}

int
rte_pmd_rio_sim_fabric_link_set(const char *name, const char *dev_name, uint8_t port, bool up)
{
	struct sim_fabric *f = mgmt_get(name);
	int idx, rc;

	if (f == NULL)
		return -ENOENT;
	idx = sim_fabric_find_device(f, dev_name);
	rc = idx < 0 ? -ENOENT : sim_fabric_link_set(f, (uint32_t)idx, port, up);
	sim_fabric_detach(f);
	return rc;
}

/* Local configuration access of device @dev_name (@val: read into, or the value to write). */
static int
mgmt_config(const char *name, const char *dev_name, uint32_t offset, int len, bool write,
	    uint32_t *val)
{
	struct sim_fabric *f = mgmt_get(name);
	int idx, rc;

	if (f == NULL)
		return -ENOENT;
	idx = sim_fabric_find_device(f, dev_name);
	if (idx < 0)
		rc = -ENOENT;
	else if (write)
		rc = sim_config_write(f, (uint32_t)idx, SIM_PORT_LOCAL, offset, len, *val);
	else
		rc = sim_config_read(f, (uint32_t)idx, SIM_PORT_LOCAL, offset, len, val);
	sim_fabric_detach(f);
	return rc;
}

int
rte_pmd_rio_sim_fabric_config_read(const char *name, const char *dev_name, uint32_t offset,
				   int len, uint32_t *val)
{
	return mgmt_config(name, dev_name, offset, len, false, val);
}

int
rte_pmd_rio_sim_fabric_config_write(const char *name, const char *dev_name, uint32_t offset,
				    int len, uint32_t val)
{
	return mgmt_config(name, dev_name, offset, len, true, &val);
}

int
rte_pmd_rio_sim_fabric_maint(const char *name, const char *from_ep, uint16_t destid,
			     uint8_t hopcount, bool write, uint32_t offset, int len,
			     uint32_t *val)
{
	struct sim_fabric *f = mgmt_get(name);
	int idx, rc;

	if (f == NULL)
		return -ENOENT;
	idx = sim_fabric_find_device(f, from_ep);
	rc = idx < 0 ? -ENOENT :
		sim_maint(f, (uint32_t)idx, destid, hopcount, write, offset, len, val);
	sim_fabric_detach(f);
	return rc;
}
