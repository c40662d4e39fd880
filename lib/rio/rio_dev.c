/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Device model: the devices an mport knows, lookups, device events, config
 * access through a device, and the Graphviz export of a fabric view.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "rio_scan_private.h"

struct rio_dev_event_cb {
	TAILQ_ENTRY(rio_dev_event_cb) next;
	rte_rio_dev_event_cb_t cb;
	void *arg;
};
TAILQ_HEAD(rio_dev_event_cb_list, rio_dev_event_cb);

static pthread_mutex_t rio_dev_mutex;
static struct rio_dev_event_cb_list rio_dev_cbs = TAILQ_HEAD_INITIALIZER(rio_dev_cbs);

RTE_INIT(rio_dev_init)
{
	pthread_mutexattr_t attr;

	/* Recursive: event callbacks may look devices up. */
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&rio_dev_mutex, &attr);
	pthread_mutexattr_destroy(&attr);
}

void
rio_dev_list_lock(void)
{
	pthread_mutex_lock(&rio_dev_mutex);
}

void
rio_dev_list_unlock(void)
{
	pthread_mutex_unlock(&rio_dev_mutex);
}

/* Scan data of a published mport, or NULL. Caller holds the list lock. */
static struct rio_scan_data *
rio_dev_scan_data(const struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;

	if (mport == NULL)
		return NULL;
	sd = mport->lib->scan_data;
	if (sd == NULL || !sd->scanned)
		return NULL;
	return sd;
}

struct rte_rio_dev *
rio_dev_alloc(struct rte_rio_mport *mport, bool is_switch)
{
	struct rte_rio_dev *dev;
	unsigned int i;

	dev = rte_zmalloc("rio_dev", sizeof(*dev), 0);
	if (dev == NULL)
		return NULL;
	dev->mport = mport;
	dev->info.type = is_switch ? RTE_RIO_DEV_SWITCH : RTE_RIO_DEV_ENDPOINT;
	dev->info.prev_comptag = -1;
	dev->info.hopcount = RTE_RIO_HOPCOUNT_DIRECT;
	dev->access_id = -1;
	for (i = 0; i < RTE_RIO_MAX_SWITCH_PORTS; i++) {
		dev->hp_id_lo[i] = -1;
		dev->hp_id_hi[i] = -1;
		dev->hp_tag_lo[i] = -1;
		dev->hp_tag_hi[i] = -1;
	}
	if (is_switch) {
		size_t n = RTE_RIO_MAX_DESTIDS(mport->devid_size);

		dev->rt = malloc(n);
		dev->rt_known = calloc(n / 64, sizeof(*dev->rt_known));
		if (dev->rt == NULL || dev->rt_known == NULL) {
			free(dev->rt);
			free(dev->rt_known);
			rte_free(dev);
			return NULL;
		}
		memset(dev->rt, RTE_RIO_INVALID_ROUTE, n);
	}
	return dev;
}

void
rio_dev_free(struct rte_rio_dev *dev)
{
	if (dev == NULL)
		return;
	free(dev->rt);
	free(dev->rt_known);
	rte_free(dev);
}

/*
 * Linux's names (rio-scan.c, rio.c), which DPDK's device-argument parsers
 * take as they are: they start with no bus or vdev driver name, and no
 * other bus takes them. The local endpoint is named after its mport alone,
 * so that an agent's keeps its name when the host assigns its device ID.
 */
void
rio_dev_set_name(struct rte_rio_dev *dev)
{
	struct rte_rio_dev_info *info = &dev->info;
	uint16_t id = dev->mport->id;

	if (info->local)
		snprintf(info->name, sizeof(info->name), RTE_RIO_DEV_NAME_LOCAL_FMT, id);
	else if (info->type == RTE_RIO_DEV_SWITCH)
		snprintf(info->name, sizeof(info->name), RTE_RIO_DEV_NAME_SWITCH_FMT, id,
			 info->comptag & RTE_RIO_CTAG_UDEVID);
	else
		snprintf(info->name, sizeof(info->name), RTE_RIO_DEV_NAME_ENDPOINT_FMT, id,
			 info->destid);
}

void
rio_dev_list_free(struct rio_dev_list *list)
{
	struct rte_rio_dev *dev;

	while ((dev = TAILQ_FIRST(list)) != NULL) {
		TAILQ_REMOVE(list, dev, next);
		rio_dev_free(dev);
	}
}

struct rte_rio_dev *
rio_dev_list_find_comptag(struct rio_dev_list *list, uint32_t comptag)
{
	struct rte_rio_dev *dev;

	TAILQ_FOREACH(dev, list, next)
		if (dev->info.comptag == comptag)
			return dev;
	return NULL;
}

/* Caller holds the list lock. */
void
rio_dev_event_emit(struct rte_rio_dev *dev, enum rte_rio_dev_event event)
{
	struct rio_dev_event_cb *c;

	TAILQ_FOREACH(c, &rio_dev_cbs, next)
		c->cb(dev, event, c->arg);
}

void
rio_dev_publish(struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd = mport->lib->scan_data;
	struct rte_rio_dev *dev;

	rio_dev_list_lock();
	sd->scanned = true;
	TAILQ_FOREACH(dev, &sd->devs, next) {
		if (dev->announced)
			continue;
		dev->announced = true;
		rio_dev_event_emit(dev, RTE_RIO_DEV_EVENT_ADD);
	}
	rio_dev_list_unlock();
}

void
rio_dev_adopt_local(struct rte_rio_mport *mport, struct rio_scan_data *waiting,
		    struct rio_scan_data *sd)
{
	struct rte_rio_dev *keep, *made, *d;
	unsigned int p;

	rio_dev_list_lock();
	keep = TAILQ_FIRST(&waiting->devs);
	made = TAILQ_FIRST(&sd->devs);
	TAILQ_REMOVE(&waiting->devs, keep, next);
	/* The scan's description and links; drivers keep their pointer. */
	*keep = *made;
	keep->announced = true;
	TAILQ_INSERT_BEFORE(made, keep, next);
	TAILQ_REMOVE(&sd->devs, made, next);
	TAILQ_FOREACH(d, &sd->devs, next) {
		for (p = 0; p < RTE_DIM(d->peer); p++) {
			if (d->peer[p] == made)
				d->peer[p] = keep;
		}
	}
	sd->scanned = true;
	mport->lib->scan_data = sd;
	rio_dev_event_emit(keep, RTE_RIO_DEV_EVENT_UPDATE);
	rio_dev_list_unlock();
	/* Its own fields went to keep (an endpoint has no route table). */
	rte_free(made);
	rte_free(waiting);
}

void
rte_rio_mport_devices_release(struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;
	struct rte_rio_dev *dev;

	if (mport == NULL)
		return;
	/* Before the lock: the poll takes it, and stopping waits for a running poll. */
	rio_hotplug_stop(mport);
	rio_dev_list_lock();
	sd = mport->lib->scan_data;
	if (sd == NULL || !sd->scanned || sd->claimed) {
		/* Nothing published (or a scan is running: leave it alone). */
		rio_dev_list_unlock();
		return;
	}
	/* REMOVE in reverse order: the local endpoint (first) goes last. */
	TAILQ_FOREACH_REVERSE(dev, &sd->devs, rio_dev_list, next)
		rio_dev_event_emit(dev, RTE_RIO_DEV_EVENT_REMOVE);
	mport->lib->scan_data = NULL;
	rio_dev_list_unlock();
	rio_dev_list_free(&sd->devs);
	rte_free(sd);
}

/* ---------------------------------------------------------------------- */
/* Events                                                                 */

int
rte_rio_dev_event_register(rte_rio_dev_event_cb_t cb, void *arg)
{
	struct rio_dev_event_cb *c;
	uint16_t i;

	if (cb == NULL)
		return -EINVAL;
	rio_dev_list_lock();
	TAILQ_FOREACH(c, &rio_dev_cbs, next) {
		if (c->cb == cb && c->arg == arg) {
			rio_dev_list_unlock();
			return -EEXIST;
		}
	}
	c = malloc(sizeof(*c));
	if (c == NULL) {
		rio_dev_list_unlock();
		return -ENOMEM;
	}
	c->cb = cb;
	c->arg = arg;
	TAILQ_INSERT_TAIL(&rio_dev_cbs, c, next);
	/* Replay the devices that exist already. */
	for (i = 0; i < RTE_RIO_MAX_MPORTS; i++) {
		struct rte_rio_mport *mport = rte_rio_mport_get(i);
		struct rio_scan_data *sd = rio_dev_scan_data(mport);
		struct rte_rio_dev *dev;

		if (sd == NULL)
			continue;
		TAILQ_FOREACH(dev, &sd->devs, next)
			cb(dev, RTE_RIO_DEV_EVENT_ADD, arg);
	}
	rio_dev_list_unlock();
	return 0;
}

int
rte_rio_dev_event_unregister(rte_rio_dev_event_cb_t cb, void *arg)
{
	struct rio_dev_event_cb *c;

	rio_dev_list_lock();
	TAILQ_FOREACH(c, &rio_dev_cbs, next) {
		if (c->cb == cb && c->arg == arg) {
			TAILQ_REMOVE(&rio_dev_cbs, c, next);
			rio_dev_list_unlock();
			free(c);
			return 0;
		}
	}
	rio_dev_list_unlock();
	return -ENOENT;
}

/* ---------------------------------------------------------------------- */
/* Lookups                                                                */

bool
rte_rio_mport_scanned(const struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;
	bool ret;

	rio_dev_list_lock();
	sd = rio_dev_scan_data(mport);
	ret = sd != NULL && !sd->waiting;
	rio_dev_list_unlock();
	return ret;
}

unsigned int
rte_rio_dev_count(const struct rte_rio_mport *mport)
{
	struct rio_scan_data *sd;
	unsigned int n;

	rio_dev_list_lock();
	sd = rio_dev_scan_data(mport);
	n = sd != NULL ? sd->ndevs : 0;
	rio_dev_list_unlock();
	return n;
}

/* First device of the first scanned mport with id >= @from. Lock held. */
static struct rte_rio_dev *
rio_dev_first_from(uint16_t from)
{
	uint16_t i;

	for (i = from; i < RTE_RIO_MAX_MPORTS; i++) {
		struct rio_scan_data *sd = rio_dev_scan_data(rte_rio_mport_get(i));

		if (sd != NULL && !TAILQ_EMPTY(&sd->devs))
			return TAILQ_FIRST(&sd->devs);
	}
	return NULL;
}

struct rte_rio_dev *
rte_rio_dev_next(const struct rte_rio_mport *mport, const struct rte_rio_dev *prev)
{
	struct rte_rio_dev *dev = NULL;
	struct rio_scan_data *sd;

	rio_dev_list_lock();
	if (mport != NULL) {
		sd = rio_dev_scan_data(mport);
		if (sd != NULL)
			dev = prev == NULL ? TAILQ_FIRST(&sd->devs) : TAILQ_NEXT(prev, next);
	} else if (prev == NULL) {
		dev = rio_dev_first_from(0);
	} else {
		dev = TAILQ_NEXT(prev, next);
		if (dev == NULL)
			dev = rio_dev_first_from(prev->mport->id + 1);
	}
	rio_dev_list_unlock();
	return dev;
}

struct rte_rio_dev *
rte_rio_dev_find_by_destid(const struct rte_rio_mport *mport, uint16_t destid)
{
	struct rte_rio_dev *dev, *found = NULL;
	struct rio_scan_data *sd;

	rio_dev_list_lock();
	sd = rio_dev_scan_data(mport);
	if (sd != NULL) {
		TAILQ_FOREACH(dev, &sd->devs, next) {
			if (dev->info.type == RTE_RIO_DEV_ENDPOINT && dev->info.destid == destid) {
				found = dev;
				break;
			}
		}
	}
	rio_dev_list_unlock();
	return found;
}

struct rte_rio_dev *
rte_rio_dev_find_by_comptag(const struct rte_rio_mport *mport, uint32_t comptag)
{
	struct rte_rio_dev *found = NULL;
	struct rio_scan_data *sd;

	rio_dev_list_lock();
	sd = rio_dev_scan_data(mport);
	if (sd != NULL)
		found = rio_dev_list_find_comptag(&sd->devs, comptag);
	rio_dev_list_unlock();
	return found;
}

struct rte_rio_dev *
rte_rio_dev_find_by_name(const char *name)
{
	struct rte_rio_dev *dev, *found = NULL;
	uint16_t i;

	if (name == NULL)
		return NULL;
	rio_dev_list_lock();
	for (i = 0; i < RTE_RIO_MAX_MPORTS && found == NULL; i++) {
		struct rio_scan_data *sd = rio_dev_scan_data(rte_rio_mport_get(i));

		if (sd == NULL)
			continue;
		TAILQ_FOREACH(dev, &sd->devs, next) {
			if (strcmp(dev->info.name, name) == 0) {
				found = dev;
				break;
			}
		}
	}
	rio_dev_list_unlock();
	return found;
}

int
rte_rio_dev_info_get(const struct rte_rio_dev *dev, struct rte_rio_dev_info *info)
{
	if (dev == NULL || info == NULL)
		return -EINVAL;
	*info = dev->info;
	return 0;
}

struct rte_rio_mport *
rte_rio_dev_mport(const struct rte_rio_dev *dev)
{
	return dev != NULL ? dev->mport : NULL;
}

const char *
rte_rio_dev_name(const struct rte_rio_dev *dev)
{
	return dev != NULL ? dev->info.name : NULL;
}

int
rte_rio_dev_read_config_32(struct rte_rio_dev *dev, uint32_t offset, uint32_t *val)
{
	if (dev == NULL)
		return -EINVAL;
	if (dev->info.local)
		return rte_rio_local_read_config_32(dev->mport, offset, val);
	return rte_rio_remote_read_config_32(dev->mport, dev->info.destid, dev->info.hopcount,
					     offset, val);
}

int
rte_rio_dev_write_config_32(struct rte_rio_dev *dev, uint32_t offset, uint32_t val)
{
	if (dev == NULL)
		return -EINVAL;
	if (dev->info.local)
		return rte_rio_local_write_config_32(dev->mport, offset, val);
	return rte_rio_remote_write_config_32(dev->mport, dev->info.destid, dev->info.hopcount,
					      offset, val);
}

/* ---------------------------------------------------------------------- */
/* Graphviz export                                                        */

/* Order: endpoints by destid, then switches by component tag. */
static int
rio_dev_cmp(const void *a, const void *b)
{
	const struct rte_rio_dev *da = *(const struct rte_rio_dev * const *)a;
	const struct rte_rio_dev *db = *(const struct rte_rio_dev * const *)b;
	uint32_t ka, kb;

	if (da->info.type != db->info.type)
		return da->info.type == RTE_RIO_DEV_ENDPOINT ? -1 : 1;
	ka = da->info.type == RTE_RIO_DEV_ENDPOINT ? da->info.destid : da->info.comptag;
	kb = db->info.type == RTE_RIO_DEV_ENDPOINT ? db->info.destid : db->info.comptag;
	return ka < kb ? -1 : ka > kb;
}

/* Is (a, pa) -- (b, pb) emitted from a's side? Each link once. */
static bool
rio_dot_link_owner(const struct rte_rio_dev *a, uint8_t pa, const struct rte_rio_dev *b,
		   uint8_t pb)
{
	if (a->info.type != b->info.type)
		return a->info.type == RTE_RIO_DEV_SWITCH;
	if (a != b)
		return rio_dev_cmp(&a, &b) < 0;
	return pa < pb;
}

int
rte_rio_topology_dot(const struct rte_rio_mport *mport, FILE *f)
{
	struct rte_rio_dev **v = NULL;
	struct rio_scan_data *sd;
	struct rte_rio_dev *dev;
	unsigned int n = 0, i, p;
	int ret = 0;

	if (mport == NULL || f == NULL)
		return -EINVAL;
	rio_dev_list_lock();
	sd = rio_dev_scan_data(mport);
	if (sd == NULL) {
		ret = -ENODEV;
		goto out;
	}
	v = malloc(sizeof(*v) * (sd->ndevs + 1));
	if (v == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	TAILQ_FOREACH(dev, &sd->devs, next)
		v[n++] = dev;
	qsort(v, n, sizeof(*v), rio_dev_cmp);

	fprintf(f, "graph \"%s\" {\n", mport->name);
	for (i = 0; i < n; i++) {
		const struct rte_rio_dev_info *in = &v[i]->info;

		if (in->type == RTE_RIO_DEV_ENDPOINT)
			fprintf(f, "\t\"%s\" [shape=box%s, "
				"label=\"%s\\ndestid 0x%04x\\n%04x:%04x\"];\n",
				in->name, in->local ? ", style=bold" : "", in->name, in->destid,
				in->vid, in->did);
		else
			fprintf(f, "\t\"%s\" [shape=ellipse, "
				"label=\"%s\\ncomptag 0x%x\\n%04x:%04x, %u ports\"];\n",
				in->name, in->name, in->comptag, in->vid, in->did, in->nports);
	}
	for (i = 0; i < n; i++) {
		const struct rte_rio_dev *a = v[i];
		unsigned int np = a->info.type == RTE_RIO_DEV_SWITCH ? a->info.nports : 1;

		for (p = 0; p < np && p < RTE_RIO_MAX_SWITCH_PORTS; p++) {
			const struct rte_rio_dev *b = a->peer[p];

			if (b == NULL || !rio_dot_link_owner(a, p, b, a->peer_port[p]))
				continue;
			fprintf(f, "\t\"%s\" -- \"%s\" [taillabel=\"%u\", headlabel=\"%u\"%s];\n",
				a->info.name, b->info.name, p, a->peer_port[p],
				(a->redundant & (1u << p)) ? ", style=dashed" : "");
		}
	}
	fprintf(f, "}\n");
	if (ferror(f))
		ret = -EIO;
out:
	rio_dev_list_unlock();
	free(v);
	return ret;
}
