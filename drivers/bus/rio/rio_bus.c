/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * The rio bus: publishes every device lib/rio knows as an rte_device and
 * binds rio drivers to them.
 *
 * Devices are not found by the bus scan itself: the scan subscribes to
 * lib/rio's device events, and devices come and go as mports enumerate,
 * discover and leave (the way DPDK's ifpga rawdev publishes AFUs on its
 * bus). An ADD event creates the device, applies the EAL devargs and probes
 * the drivers at once; a REMOVE event calls the bound driver's remove() and
 * drops the bus's reference.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_driver.h>
#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_log.h>
#include <rte_memory.h>
#include <rte_string_fns.h>

#include "rio_bus_private.h"

RTE_LOG_REGISTER_DEFAULT(rio_bus_logtype, NOTICE);

TAILQ_HEAD(rio_bus_dev_list, rio_bus_device);
TAILQ_HEAD(rio_bus_drv_list, rte_rio_driver);
TAILQ_HEAD(rio_bus_cb_list, rio_bus_callback);

static struct rio_bus_dev_list rio_bus_devices = TAILQ_HEAD_INITIALIZER(rio_bus_devices);
static struct rio_bus_drv_list rio_bus_drivers = TAILQ_HEAD_INITIALIZER(rio_bus_drivers);
static struct rio_bus_cb_list rio_bus_callbacks = TAILQ_HEAD_INITIALIZER(rio_bus_callbacks);

/*
 * One recursive lock for the whole bus, so that driver probe/remove and
 * bus callbacks (called with it held) may call back into the bus.
 */
static pthread_mutex_t rio_bus_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static struct rte_bus rio_bus;

static inline void
rio_bus_lock_take(void)
{
	pthread_mutex_lock(&rio_bus_lock);
}

static inline void
rio_bus_lock_release(void)
{
	pthread_mutex_unlock(&rio_bus_lock);
}

/*
 * Reference counting. A new reference is only taken from one already held
 * or under the bus lock (lookups skip removed devices, whose count may be
 * dropping to zero), so the increment is relaxed. The decrement is done
 * under the bus lock and is acq_rel: its release half pairs with the acquire
 * half of the decrement that reaches zero, so the thread that frees the
 * device sees every access made under the references dropped before.
 */
static inline void
rio_bus_ref_inc(struct rio_bus_device *bd)
{
	__atomic_fetch_add(&bd->refcnt, 1, __ATOMIC_RELAXED);
}

static inline uint32_t
rio_bus_ref_dec(struct rio_bus_device *bd)
{
	return __atomic_sub_fetch(&bd->refcnt, 1, __ATOMIC_ACQ_REL);
}

static inline uint32_t
rio_bus_ref_read(const struct rio_bus_device *bd)
{
	return __atomic_load_n(&bd->refcnt, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------- */
/* Matching                                                               */

static inline bool
rio_bus_id_field_match(uint16_t want, uint16_t have)
{
	return want == RTE_RIO_ANY_ID || want == have;
}

const struct rte_rio_device_id *
rte_rio_device_match_id(const struct rte_rio_device_id *id, const struct rte_rio_device *dev)
{
	if (id == NULL || dev == NULL)
		return NULL;
	for (; id->vid != 0 || id->asm_vid != 0; id++) {
		if (rio_bus_id_field_match(id->vid, dev->vid) &&
		    rio_bus_id_field_match(id->did, dev->did) &&
		    rio_bus_id_field_match(id->asm_vid, dev->asm_vid) &&
		    rio_bus_id_field_match(id->asm_did, dev->asm_did))
			return id;
	}
	return NULL;
}

static bool
rio_bus_search_match(const struct rte_rio_device *dev, uint16_t vid, uint16_t did,
		     uint16_t asm_vid, uint16_t asm_did)
{
	return rio_bus_id_field_match(vid, dev->vid) &&
	       rio_bus_id_field_match(did, dev->did) &&
	       rio_bus_id_field_match(asm_vid, dev->asm_vid) &&
	       rio_bus_id_field_match(asm_did, dev->asm_did);
}

/* ---------------------------------------------------------------------- */
/* Devargs                                                                */

static struct rte_devargs *
rio_bus_devargs_lookup(const char *name)
{
	struct rte_devargs *da;

	RTE_EAL_DEVARGS_FOREACH(RTE_RIO_BUS_NAME, da) {
		if (strcmp(da->name, name) == 0)
			return da;
	}
	return NULL;
}

/* May @p dev be probed without being asked for by name? (lock held) */
static bool
rio_bus_dev_allowed(struct rte_rio_device *dev)
{
	const struct rte_devargs *da;

	dev->device.devargs = rio_bus_devargs_lookup(dev->name);
	da = dev->device.devargs;
	if (da != NULL && da->policy == RTE_DEV_BLOCKED)
		return false;
	if (rio_bus.conf.scan_mode == RTE_BUS_SCAN_ALLOWLIST &&
	    (da == NULL || da->policy != RTE_DEV_ALLOWED))
		return false;
	return true;
}

/* ---------------------------------------------------------------------- */
/* Probe and remove                                                       */

/* @return 0 bound, > 0 no match or declined, < 0 error. (lock held) */
static int
rio_bus_probe_one_driver(struct rte_rio_driver *drv, struct rio_bus_device *bd)
{
	struct rte_rio_device *dev = &bd->pub;
	const struct rte_rio_device_id *id;
	int ret;

	id = rte_rio_device_match_id(drv->id_table, dev);
	if (id == NULL)
		return 1;
	RIO_BUS_LOG(DEBUG, "probing %s with %s", dev->name, drv->driver.name);
	ret = drv->probe(drv, dev, id);
	if (ret == 0) {
		dev->driver = drv;
		dev->device.driver = &drv->driver;
		RIO_BUS_LOG(INFO, "%s bound to %s", dev->name, drv->driver.name);
	} else if (ret < 0) {
		RIO_BUS_LOG(ERR, "driver %s failed to probe %s: %s", drv->driver.name,
			    dev->name, strerror(-ret));
	}
	return ret;
}

/*
 * Try every driver in registration order until one binds.
 * @return 0 bound, 1 no driver took it, -EEXIST already bound, -ENODEV
 *         removed, or the first driver error. (lock held)
 */
static int
rio_bus_probe_device(struct rio_bus_device *bd)
{
	struct rte_rio_driver *drv;
	int ret = 1;

	if (bd->removed)
		return -ENODEV;
	if (bd->pub.driver != NULL)
		return -EEXIST;
	rio_bus_ref_inc(bd);
	TAILQ_FOREACH(drv, &rio_bus_drivers, next) {
		ret = rio_bus_probe_one_driver(drv, bd);
		if (ret <= 0)
			break;
	}
	rte_rio_device_put(&bd->pub);
	return ret > 0 ? 1 : ret;
}

/* Detach the bound driver, if any. @return 0 or the driver's error. (lock held) */
static int
rio_bus_detach(struct rte_rio_device *dev)
{
	struct rte_rio_driver *drv = dev->driver;
	int ret = 0;

	if (drv == NULL)
		return 0;
	if (drv->remove != NULL)
		ret = drv->remove(dev);
	if (ret < 0) {
		RIO_BUS_LOG(ERR, "driver %s failed to remove %s: %s", drv->driver.name,
			    dev->name, strerror(-ret));
		return ret;
	}
	dev->driver = NULL;
	dev->device.driver = NULL;
	dev->driver_data = NULL;
	return 0;
}

static void
rio_bus_notify(struct rte_rio_device *dev, enum rte_rio_bus_event event)
{
	struct rio_bus_callback *cb, *tmp;

	RTE_TAILQ_FOREACH_SAFE(cb, &rio_bus_callbacks, next, tmp)
		cb->cb(dev, event, cb->arg);
}

/* ---------------------------------------------------------------------- */
/* lib/rio events                                                         */

static struct rio_bus_device *
rio_bus_find_by_rdev(const struct rte_rio_dev *rdev)
{
	struct rio_bus_device *bd;

	TAILQ_FOREACH(bd, &rio_bus_devices, next) {
		if (!bd->removed && bd->pub.rdev == rdev)
			return bd;
	}
	return NULL;
}

static struct rio_bus_device *
rio_bus_find_by_name(const char *name)
{
	struct rio_bus_device *bd;

	TAILQ_FOREACH(bd, &rio_bus_devices, next) {
		if (!bd->removed && strcmp(bd->pub.name, name) == 0)
			return bd;
	}
	return NULL;
}

/* The bus's copy of lib/rio's description. (lock held) */
static void
rio_bus_dev_describe(struct rio_bus_device *bd, const struct rte_rio_dev_info *info)
{
	struct rte_rio_device *dev = &bd->pub;

	dev->type = info->type;
	dev->local = info->local;
	dev->vid = info->vid;
	dev->did = info->did;
	dev->device_rev = info->device_rev;
	dev->asm_vid = info->asm_vid;
	dev->asm_did = info->asm_did;
	dev->asm_rev = info->asm_rev;
	dev->destid = info->destid;
	dev->hopcount = info->hopcount;
	dev->comptag = info->comptag;
	snprintf(bd->bus_info, sizeof(bd->bus_info), "vendor_id=%04x, device_id=%04x",
		 info->vid, info->did);
}

static void
rio_bus_dev_add(struct rte_rio_dev *rdev)
{
	struct rte_rio_dev_info info;
	struct rio_bus_device *bd;
	struct rte_rio_device *dev;
	int ret;

	if (rio_bus_find_by_rdev(rdev) != NULL)
		return;
	ret = rte_rio_dev_info_get(rdev, &info);
	if (ret < 0) {
		RIO_BUS_LOG(ERR, "cannot describe a new device: %s", strerror(-ret));
		return;
	}
	if (rio_bus_find_by_name(info.name) != NULL) {
		RIO_BUS_LOG(ERR, "device %s is already on the bus", info.name);
		return;
	}
	bd = calloc(1, sizeof(*bd));
	if (bd == NULL) {
		RIO_BUS_LOG(ERR, "no memory for device %s", info.name);
		return;
	}
	dev = &bd->pub;
	bd->refcnt = 1;
	dev->rdev = rdev;
	dev->mport = rte_rio_dev_mport(rdev);
	rte_strscpy(dev->name, info.name, sizeof(dev->name));
	rio_bus_dev_describe(bd, &info);
	dev->device.name = dev->name;
	dev->device.bus_info = bd->bus_info;
	dev->device.bus = &rio_bus;
	dev->device.numa_node = SOCKET_ID_ANY;
	TAILQ_INSERT_TAIL(&rio_bus_devices, bd, next);
	RIO_BUS_LOG(DEBUG, "added %s (vid %04x did %04x)", dev->name, dev->vid, dev->did);

	if (rio_bus_dev_allowed(dev))
		rio_bus_probe_device(bd);
	else
		RIO_BUS_LOG(INFO, "%s not probed (devargs)", dev->name);
	/*
	 * A callback registered by a probe above must not see this device
	 * twice: registration replays only announced devices.
	 */
	bd->announced = true;
	rio_bus_notify(dev, RTE_RIO_BUS_EVENT_ADD);
}

static void
rio_bus_dev_remove(struct rte_rio_dev *rdev)
{
	struct rio_bus_device *bd = rio_bus_find_by_rdev(rdev);
	struct rte_rio_device *dev;

	if (bd == NULL)
		return;
	dev = &bd->pub;
	rio_bus_notify(dev, RTE_RIO_BUS_EVENT_REMOVE);
	/* The device is going: a driver refusing to let go is detached anyway. */
	if (rio_bus_detach(dev) < 0) {
		dev->driver = NULL;
		dev->device.driver = NULL;
	}
	bd->removed = true;
	dev->rdev = NULL;
	dev->mport = NULL;
	dev->device.devargs = NULL;
	RIO_BUS_LOG(DEBUG, "removed %s", dev->name);
	rte_rio_device_put(dev);
}

/* Same device, same name, new description (its device ID): tell the callbacks. */
static void
rio_bus_dev_update(struct rte_rio_dev *rdev)
{
	struct rio_bus_device *bd = rio_bus_find_by_rdev(rdev);
	struct rte_rio_dev_info info;

	if (bd == NULL || rte_rio_dev_info_get(rdev, &info) < 0)
		return;
	rio_bus_dev_describe(bd, &info);
	RIO_BUS_LOG(DEBUG, "updated %s (destid 0x%x)", bd->pub.name, info.destid);
	if (bd->announced)
		rio_bus_notify(&bd->pub, RTE_RIO_BUS_EVENT_UPDATE);
}

static void
rio_bus_lib_event(struct rte_rio_dev *rdev, enum rte_rio_dev_event event, void *arg)
{
	RTE_SET_USED(arg);
	rio_bus_lock_take();
	if (event == RTE_RIO_DEV_EVENT_ADD)
		rio_bus_dev_add(rdev);
	else if (event == RTE_RIO_DEV_EVENT_REMOVE)
		rio_bus_dev_remove(rdev);
	else if (event == RTE_RIO_DEV_EVENT_UPDATE)
		rio_bus_dev_update(rdev);
	rio_bus_lock_release();
}

/* ---------------------------------------------------------------------- */
/* Public device API                                                      */

struct rte_rio_device *
rte_rio_device_get(struct rte_rio_device *dev)
{
	if (dev != NULL)
		rio_bus_ref_inc(RIO_BUS_DEV(dev));
	return dev;
}

void
rte_rio_device_put(struct rte_rio_device *dev)
{
	struct rio_bus_device *bd;

	if (dev == NULL)
		return;
	bd = RIO_BUS_DEV(dev);
	rio_bus_lock_take();
	if (rio_bus_ref_dec(bd) == 0) {
		TAILQ_REMOVE(&rio_bus_devices, bd, next);
		RIO_BUS_LOG(DEBUG, "freed %s", dev->name);
		free(bd);
	}
	rio_bus_lock_release();
}

unsigned int
rte_rio_device_refcount(const struct rte_rio_device *dev)
{
	if (dev == NULL)
		return 0;
	return rio_bus_ref_read(RIO_BUS_DEV(dev));
}

const char *
rte_rio_device_name(const struct rte_rio_device *dev)
{
	return dev != NULL ? dev->name : NULL;
}

struct rte_rio_dev *
rte_rio_device_rdev(const struct rte_rio_device *dev)
{
	struct rte_rio_dev *rdev;

	if (dev == NULL)
		return NULL;
	/* Cleared under the bus lock when lib/rio removes the device. */
	rio_bus_lock_take();
	rdev = dev->rdev;
	rio_bus_lock_release();
	return rdev;
}

struct rte_rio_device *
rte_rio_device_find_asm(uint16_t vid, uint16_t did, uint16_t asm_vid, uint16_t asm_did,
			struct rte_rio_device *from)
{
	struct rio_bus_device *bd;
	struct rte_rio_device *found = NULL;

	rio_bus_lock_take();
	/* A held device stays in the list even once removed: its next is valid. */
	bd = from != NULL ? TAILQ_NEXT(RIO_BUS_DEV(from), next) : TAILQ_FIRST(&rio_bus_devices);
	for (; bd != NULL; bd = TAILQ_NEXT(bd, next)) {
		if (!bd->removed && rio_bus_search_match(&bd->pub, vid, did, asm_vid, asm_did)) {
			found = rte_rio_device_get(&bd->pub);
			break;
		}
	}
	rte_rio_device_put(from);
	rio_bus_lock_release();
	return found;
}

struct rte_rio_device *
rte_rio_device_find(uint16_t vid, uint16_t did, struct rte_rio_device *from)
{
	return rte_rio_device_find_asm(vid, did, RTE_RIO_ANY_ID, RTE_RIO_ANY_ID, from);
}

struct rte_rio_device *
rte_rio_device_find_by_name(const char *name)
{
	struct rio_bus_device *bd;
	struct rte_rio_device *dev = NULL;

	if (name == NULL)
		return NULL;
	rio_bus_lock_take();
	bd = rio_bus_find_by_name(name);
	if (bd != NULL)
		dev = rte_rio_device_get(&bd->pub);
	rio_bus_lock_release();
	return dev;
}

unsigned int
rte_rio_device_count(void)
{
	struct rio_bus_device *bd;
	unsigned int n = 0;

	rio_bus_lock_take();
	TAILQ_FOREACH(bd, &rio_bus_devices, next) {
		if (!bd->removed)
			n++;
	}
	rio_bus_lock_release();
	return n;
}

/* ---------------------------------------------------------------------- */
/* Drivers                                                                */

int
rte_rio_driver_register(struct rte_rio_driver *drv)
{
	struct rio_bus_device *bd, *tmp;
	struct rte_rio_driver *d;
	int ret = 0;

	if (drv == NULL || drv->driver.name == NULL || drv->id_table == NULL ||
	    drv->probe == NULL)
		return -EINVAL;
	rio_bus_lock_take();
	TAILQ_FOREACH(d, &rio_bus_drivers, next) {
		if (d == drv || strcmp(d->driver.name, drv->driver.name) == 0) {
			ret = -EEXIST;
			goto out;
		}
	}
	TAILQ_INSERT_TAIL(&rio_bus_drivers, drv, next);
	/* Devices that appeared before the driver: offer them now. */
	RTE_TAILQ_FOREACH_SAFE(bd, &rio_bus_devices, next, tmp) {
		if (bd->removed || bd->pub.driver != NULL || !rio_bus_dev_allowed(&bd->pub))
			continue;
		rio_bus_ref_inc(bd);
		rio_bus_probe_one_driver(drv, bd);
		rte_rio_device_put(&bd->pub);
	}
out:
	rio_bus_lock_release();
	return ret;
}

int
rte_rio_driver_unregister(struct rte_rio_driver *drv)
{
	struct rio_bus_device *bd;
	struct rte_rio_driver *d;
	int ret = -ENOENT;

	if (drv == NULL)
		return -EINVAL;
	rio_bus_lock_take();
	TAILQ_FOREACH(d, &rio_bus_drivers, next) {
		if (d == drv)
			break;
	}
	if (d == NULL)
		goto out;
	TAILQ_FOREACH(bd, &rio_bus_devices, next) {
		if (bd->pub.driver != drv)
			continue;
		if (rio_bus_detach(&bd->pub) < 0) {
			/* The driver goes away: nothing may point at it. */
			bd->pub.driver = NULL;
			bd->pub.device.driver = NULL;
		}
	}
	TAILQ_REMOVE(&rio_bus_drivers, drv, next);
	ret = 0;
out:
	rio_bus_lock_release();
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Callbacks                                                              */

int
rte_rio_device_callback_register(rte_rio_bus_event_cb_t *cb, void *arg)
{
	struct rio_bus_callback *c;
	struct rio_bus_device *bd, *tmp;
	int ret = 0;

	if (cb == NULL)
		return -EINVAL;
	rio_bus_lock_take();
	TAILQ_FOREACH(c, &rio_bus_callbacks, next) {
		if (c->cb == cb && c->arg == arg) {
			ret = -EEXIST;
			goto out;
		}
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	c->cb = cb;
	c->arg = arg;
	TAILQ_INSERT_TAIL(&rio_bus_callbacks, c, next);
	RTE_TAILQ_FOREACH_SAFE(bd, &rio_bus_devices, next, tmp) {
		if (!bd->removed && bd->announced)
			cb(&bd->pub, RTE_RIO_BUS_EVENT_ADD, arg);
	}
out:
	rio_bus_lock_release();
	return ret;
}

int
rte_rio_device_callback_unregister(rte_rio_bus_event_cb_t *cb, void *arg)
{
	struct rio_bus_callback *c;
	int ret = -ENOENT;

	rio_bus_lock_take();
	TAILQ_FOREACH(c, &rio_bus_callbacks, next) {
		if (c->cb == cb && c->arg == arg) {
			TAILQ_REMOVE(&rio_bus_callbacks, c, next);
			free(c);
			ret = 0;
			break;
		}
	}
	rio_bus_lock_release();
	return ret;
}

/* ---------------------------------------------------------------------- */
/* rte_bus operations                                                     */

/* Subscribe to lib/rio's device events; present devices are added from inside. */
static int
rio_bus_scan(void)
{
	int ret = rte_rio_dev_event_register(rio_bus_lib_event, NULL);

	/* -EEXIST: subscribed by an earlier scan. */
	if (ret < 0 && ret != -EEXIST) {
		RIO_BUS_LOG(ERR, "cannot follow lib/rio devices: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static int
rio_bus_probe(void)
{
	struct rio_bus_device *bd, *tmp;
	int ret, first_err = 0;

	rio_bus_lock_take();
	RTE_TAILQ_FOREACH_SAFE(bd, &rio_bus_devices, next, tmp) {
		if (bd->removed || bd->pub.driver != NULL || !rio_bus_dev_allowed(&bd->pub))
			continue;
		ret = rio_bus_probe_device(bd);
		if (ret < 0 && first_err == 0)
			first_err = ret;
	}
	rio_bus_lock_release();
	return first_err;
}

static struct rte_device *
rio_bus_find_device(const struct rte_device *start, rte_dev_cmp_t cmp, const void *data)
{
	struct rio_bus_device *bd;
	struct rte_device *found = NULL;

	rio_bus_lock_take();
	bd = start != NULL ? TAILQ_NEXT(RIO_BUS_DEV(RTE_DEV_TO_RIO_CONST(start)), next) :
			     TAILQ_FIRST(&rio_bus_devices);
	for (; bd != NULL; bd = TAILQ_NEXT(bd, next)) {
		if (!bd->removed && cmp(&bd->pub.device, data) == 0) {
			found = &bd->pub.device;
			break;
		}
	}
	rio_bus_lock_release();
	return found;
}

/* Explicit probe (rte_dev_probe): devargs policy does not apply. */
static int
rio_bus_plug(struct rte_device *device)
{
	struct rte_rio_device *dev = RTE_DEV_TO_RIO(device);
	int ret;

	rio_bus_lock_take();
	dev->device.devargs = rio_bus_devargs_lookup(dev->name);
	ret = rio_bus_probe_device(RIO_BUS_DEV(dev));
	rio_bus_lock_release();
	return ret;
}

/* Explicit remove (rte_dev_remove): the driver lets go, the device stays. */
static int
rio_bus_unplug(struct rte_device *device)
{
	struct rte_rio_device *dev = RTE_DEV_TO_RIO(device);
	int ret;

	rio_bus_lock_take();
	ret = dev->driver == NULL ? -ENOENT : rio_bus_detach(dev);
	rio_bus_lock_release();
	return ret;
}

/* Lower-case hex digits: names are made with %x. */
#define RIO_BUS_HEX	"0123456789abcdef"

/* Is @name "rapidio<mport id>", as made with RTE_RIO_DEV_NAME_LOCAL_FMT? */
static bool
rio_bus_name_local(const char *name, size_t len)
{
	const size_t plen = strlen(RTE_RIO_DEV_NAME_LOCAL_PREFIX);
	size_t n;

	if (len <= plen || strncmp(name, RTE_RIO_DEV_NAME_LOCAL_PREFIX, plen) != 0)
		return false;
	n = strspn(name + plen, "0123456789");
	/* %u of an mport ID: no leading zero. */
	return plen + n == len && n <= 3 && (n == 1 || name[plen] != '0');
}

/*
 * Is @name "<mport id>:e:<device ID>" or "<mport id>:s:<component tag>",
 * as made with RTE_RIO_DEV_NAME_ENDPOINT_FMT / _SWITCH_FMT? (2 hex digits,
 * then 4, or 5 for a component tag.)
 */
static bool
rio_bus_name_remote(const char *name, size_t len)
{
	return (len == 9 || (len == 10 && name[3] == 's')) &&
		strspn(name, RIO_BUS_HEX) == 2 && name[2] == ':' &&
		(name[3] == 'e' || name[3] == 's') && name[4] == ':' &&
		strspn(name + 5, RIO_BUS_HEX) == len - 5;
}

/*
 * Device names are those lib/rio makes (rte_rio_dev.h,
 * RTE_RIO_DEV_NAME_*_FMT); anything else belongs to another bus. No bus
 * name and no vdev driver name starts them, so EAL gives `-a <name>`, as
 * well as `-a rio:<name>`, to this bus. @p addr, if not NULL, is a
 * char[RTE_RIO_NAME_MAX_LEN] that receives the name.
 */
static int
rio_bus_parse(const char *name, void *addr)
{
	size_t len;

	if (name == NULL)
		return -EINVAL;
	len = strnlen(name, RTE_RIO_NAME_MAX_LEN);
	if (len == RTE_RIO_NAME_MAX_LEN ||
	    !(rio_bus_name_local(name, len) || rio_bus_name_remote(name, len)))
		return 1;
	if (addr != NULL)
		rte_strscpy(addr, name, RTE_RIO_NAME_MAX_LEN);
	return 0;
}

static int
rio_bus_cmp_name(const struct rte_device *dev, const void *name)
{
	return strcmp(dev->name, name);
}

static int
rio_bus_cmp_any(const struct rte_device *dev, const void *data)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(data);
	return 0;
}

/* Iterate devices by the bus layer of a devargs string: "name=<device>". */
static void *
rio_bus_dev_iterate(const void *start, const char *str, const struct rte_dev_iterator *it)
{
	static const char * const keys[] = { "name", NULL };
	struct rte_kvargs *kvargs = NULL;
	struct rte_device *dev = NULL;
	const char *name = NULL;

	RTE_SET_USED(it);
	if (str != NULL) {
		kvargs = rte_kvargs_parse(str, keys);
		if (kvargs == NULL) {
			RIO_BUS_LOG(ERR, "cannot parse \"%s\"", str);
			rte_errno = EINVAL;
			return NULL;
		}
		name = rte_kvargs_get(kvargs, "name");
	}
	if (name != NULL)
		dev = rio_bus_find_device(start, rio_bus_cmp_name, name);
	else
		dev = rio_bus_find_device(start, rio_bus_cmp_any, NULL);
	rte_kvargs_free(kvargs);
	return dev;
}

/*
 * EAL cleanup: detach every driver, top-down, before the mports go. The bus
 * keeps following lib/rio, so that the REMOVE events of the mports removed
 * later (vdev cleanup) free the devices.
 */
static int
rio_bus_cleanup(void)
{
	struct rio_bus_device *bd;
	int ret = 0;

	rio_bus_lock_take();
	TAILQ_FOREACH(bd, &rio_bus_devices, next) {
		if (bd->pub.driver != NULL && rio_bus_detach(&bd->pub) < 0)
			ret = -1;
	}
	rio_bus_lock_release();
	return ret;
}

static struct rte_bus rio_bus = {
	.scan = rio_bus_scan,
	.probe = rio_bus_probe,
	.find_device = rio_bus_find_device,
	.plug = rio_bus_plug,
	.unplug = rio_bus_unplug,
	.parse = rio_bus_parse,
	.dev_iterate = rio_bus_dev_iterate,
	.cleanup = rio_bus_cleanup,
};

RTE_REGISTER_BUS(rio, rio_bus);
