/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_BUS_RIO_H
#define RTE_BUS_RIO_H

/**
 * @file
 * The DPDK bus "rio": RapidIO devices as rte_device, and rio drivers.
 *
 * Every device lib/rio knows (an mport's own endpoint, remote endpoints,
 * switches) is published on the bus as a struct rte_rio_device, named as in
 * lib/rio ("<mport>-e<destid>" or "<mport>-s<comptag>"). Devices appear at
 * run time: when an mport finishes enumeration or discovery, lib/rio reports
 * each device and the bus adds it and probes the matching drivers at once.
 * A device is removed when lib/rio forgets it (its mport goes away, or, on
 * a host mport, a link to it goes down): the bound driver's remove() is
 * called, and the memory is freed when the last reference
 * (rte_rio_device_get()) is dropped. A device that comes back (the link is up
 * again) is a new rte_rio_device, usually with the same name.
 *
 * Driver matching follows Linux rio_match_device(): the first entry of the
 * driver's ID table whose vid, did, asm_vid and asm_did each equal the
 * device's or RTE_RIO_ANY_ID matches; the table ends with an entry whose vid
 * and asm_vid are both 0.
 *
 * Probe results: 0 bound, > 0 "not my device" (the next driver is tried),
 * < 0 error. Drivers registered after a device appeared probe it when they
 * register and when the bus probe runs (rte_eal_init).
 *
 * EAL devargs: `-b rio:<name>` keeps a device from ever being probed
 * implicitly; with any `-a rio:<name>`, only allowed devices are probed.
 * rte_dev_probe("rio:<name>") probes one device explicitly, and
 * rte_dev_remove() detaches its driver (the device stays on the bus).
 *
 * Locking: one recursive lock protects the bus. Driver probe/remove and
 * bus callbacks run with it held, in the thread that scanned or removed the
 * mport (or that registered the driver); they may call any function of this
 * file. Device events arrive with lib/rio's device-list lock held, so the
 * order is lib/rio then bus: do not register drivers or probe devices in one
 * thread while another thread scans or removes an mport.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_common.h>
#include <dev_driver.h>

#include <rte_rio.h>
#include <rte_rio_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Name of the bus. */
#define RTE_RIO_BUS_NAME	"rio"

/** Wildcard for every field of struct rte_rio_device_id. */
#define RTE_RIO_ANY_ID		0xffff

/** One entry of a driver's ID table. */
struct rte_rio_device_id {
	uint16_t vid;       /**< Device Identity CAR vendor, or RTE_RIO_ANY_ID */
	uint16_t did;       /**< Device Identity CAR device, or RTE_RIO_ANY_ID */
	uint16_t asm_vid;   /**< Assembly Identity CAR vendor, or RTE_RIO_ANY_ID */
	uint16_t asm_did;   /**< Assembly Identity CAR assembly, or RTE_RIO_ANY_ID */
};

/** ID table entry for a vendor and device ID, any assembly. */
#define RTE_RIO_DEVICE(v, d) \
	.vid = (v), .did = (d), .asm_vid = RTE_RIO_ANY_ID, .asm_did = RTE_RIO_ANY_ID

/** ID table entry for an assembly of any device. */
#define RTE_RIO_DEVICE_ASM(av, ad) \
	.vid = RTE_RIO_ANY_ID, .did = RTE_RIO_ANY_ID, .asm_vid = (av), .asm_did = (ad)

/** A RapidIO device on the rio bus. */
struct rte_rio_device {
	struct rte_device device;       /**< generic device (name, driver, devargs) */
	struct rte_rio_dev *rdev;       /**< lib/rio device; NULL once it was removed */
	struct rte_rio_mport *mport;    /**< mport that found it; NULL once removed */
	struct rte_rio_driver *driver;  /**< bound driver, or NULL */
	void *driver_data;              /**< free for the bound driver */
	char name[RTE_RIO_NAME_MAX_LEN]; /**< lib/rio name, also device.name */
	enum rte_rio_dev_type type;     /**< endpoint or switch */
	bool local;                     /**< the mport's own endpoint */
	uint16_t vid;                   /**< Device Identity CAR: vendor */
	uint16_t did;                   /**< Device Identity CAR: device */
	uint32_t device_rev;            /**< Device Information CAR */
	uint16_t asm_vid;               /**< Assembly Identity CAR: vendor */
	uint16_t asm_did;               /**< Assembly Identity CAR: assembly */
	uint16_t asm_rev;               /**< Assembly Information CAR: revision */
	uint16_t destid;                /**< device ID (switches: access device ID) */
	uint8_t hopcount;               /**< switches: hops from the mport */
	uint32_t comptag;               /**< Component Tag CSR */
};

/** struct rte_rio_device of a struct rte_device on the rio bus. */
#define RTE_DEV_TO_RIO(ptr) container_of(ptr, struct rte_rio_device, device)
/** Const variant of RTE_DEV_TO_RIO(). */
#define RTE_DEV_TO_RIO_CONST(ptr) container_of(ptr, const struct rte_rio_device, device)

struct rte_rio_driver;

/**
 * Driver probe.
 * @param matched  the ID table entry that matched
 * @return 0 bound; > 0 not this driver's device (try the next one); < 0 error.
 */
typedef int (rte_rio_probe_t)(struct rte_rio_driver *drv, struct rte_rio_device *dev,
			      const struct rte_rio_device_id *matched);

/** Driver remove (unplug, device removal, driver unregistration). @return 0 or -errno. */
typedef int (rte_rio_remove_t)(struct rte_rio_device *dev);

/** A rio driver. */
struct rte_rio_driver {
	RTE_TAILQ_ENTRY(rte_rio_driver) next;  /**< next in the bus's list */
	struct rte_driver driver;               /**< generic driver (name) */
	const struct rte_rio_device_id *id_table; /**< IDs handled, zero-terminated */
	rte_rio_probe_t *probe;                 /**< bind a device */
	rte_rio_remove_t *remove;               /**< unbind a device */
};

/**
 * Register a driver, then probe every present device it matches that is not
 * bound yet (and not blocked).
 * @return 0, -EINVAL (NULL driver, name, id_table or probe), -EEXIST.
 */
__rte_experimental
int rte_rio_driver_register(struct rte_rio_driver *drv);

/**
 * Unregister a driver: its remove() is called for every device it holds.
 * @return 0, -EINVAL, -ENOENT (not registered).
 */
__rte_experimental
int rte_rio_driver_unregister(struct rte_rio_driver *drv);

/** Register a rio driver from a constructor. */
#define RTE_PMD_REGISTER_RIO(nm, rio_drv) \
	RTE_INIT(rio_initfn_ ##nm) \
	{ \
		(rio_drv).driver.name = RTE_STR(nm); \
		rte_rio_driver_register(&(rio_drv)); \
	} \
	RTE_PMD_EXPORT_NAME(nm, __COUNTER__)

/**
 * ID table entry of @p table that matches @p dev, or NULL.
 * Exposed so that drivers and tests use the bus's exact rule.
 */
__rte_experimental
const struct rte_rio_device_id *
rte_rio_device_match_id(const struct rte_rio_device_id *table, const struct rte_rio_device *dev);

/** Take a reference on @p dev (NULL allowed). @return @p dev. */
__rte_experimental
struct rte_rio_device *rte_rio_device_get(struct rte_rio_device *dev);

/**
 * Drop a reference (NULL allowed). The device is freed when it was removed
 * from lib/rio and this was the last reference.
 */
__rte_experimental
void rte_rio_device_put(struct rte_rio_device *dev);

/** @return the device's reference count (for tests and debugging). */
__rte_experimental
unsigned int rte_rio_device_refcount(const struct rte_rio_device *dev);

/**
 * Begin or continue a search by IDs (each may be RTE_RIO_ANY_ID).
 * Removed devices are skipped.
 * @param from  previous result, or NULL to start; its reference is dropped
 * @return the next matching device with a reference taken, or NULL.
 */
__rte_experimental
struct rte_rio_device *rte_rio_device_find_asm(uint16_t vid, uint16_t did, uint16_t asm_vid,
					       uint16_t asm_did, struct rte_rio_device *from);

/** rte_rio_device_find_asm() for any assembly. */
__rte_experimental
struct rte_rio_device *rte_rio_device_find(uint16_t vid, uint16_t did,
					   struct rte_rio_device *from);

/**
 * Visit every present device. Each iteration holds a reference on @p dev;
 * breaking out of the loop leaves it held: release it with rte_rio_device_put().
 */
#define RTE_RIO_FOREACH_DEVICE(dev) \
	for ((dev) = rte_rio_device_find(RTE_RIO_ANY_ID, RTE_RIO_ANY_ID, NULL); \
	     (dev) != NULL; \
	     (dev) = rte_rio_device_find(RTE_RIO_ANY_ID, RTE_RIO_ANY_ID, (dev)))

/** @return the present device named @p name, referenced, or NULL. */
__rte_experimental
struct rte_rio_device *rte_rio_device_find_by_name(const char *name);

/** @return number of present devices on the bus. */
__rte_experimental
unsigned int rte_rio_device_count(void);

/** Bus-level device events. */
enum rte_rio_bus_event {
	RTE_RIO_BUS_EVENT_ADD,      /**< device added (after its drivers were probed) */
	RTE_RIO_BUS_EVENT_REMOVE,   /**< device being removed (before its driver's remove) */
};

/**
 * Bus event callback, called with the bus lock held. The device is valid
 * during the call; take a reference to keep it longer.
 */
typedef void (rte_rio_bus_event_cb_t)(struct rte_rio_device *dev,
				      enum rte_rio_bus_event event, void *arg);

/**
 * Follow devices without claiming them. Present devices are reported as
 * ADD before this returns.
 * @return 0, -EINVAL, -EEXIST (same cb and arg), -ENOMEM.
 */
__rte_experimental
int rte_rio_device_callback_register(rte_rio_bus_event_cb_t *cb, void *arg);

/** Stop following. @return 0 or -ENOENT. */
__rte_experimental
int rte_rio_device_callback_unregister(rte_rio_bus_event_cb_t *cb, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* RTE_BUS_RIO_H */
