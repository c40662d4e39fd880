/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_BUS_RIO_H
#define RTE_BUS_RIO_H

/**
 * @file
 * The DPDK bus "rio": RapidIO devices as rte_device. Application API.
 *
 * Every device lib/rio knows (an mport's own endpoint, remote endpoints,
 * switches) is published on the bus as a struct rte_rio_device, named as in
 * lib/rio (rte_rio_dev_name()). Devices appear at run time: when an mport
 * finishes enumeration or discovery, lib/rio reports each device and the bus
 * adds it and probes the matching drivers at once. A device is removed when
 * lib/rio forgets it (its mport goes away, or, on a host mport, a link to it
 * goes down): the bound driver's remove() is called, and the memory is freed
 * when the last reference (rte_rio_device_get()) is dropped. A device that
 * comes back (the link is up again) is a new rte_rio_device, usually with
 * the same name.
 *
 * EAL devargs: `-b <name>` keeps a device from ever being probed
 * implicitly; with any `-a <name>`, only allowed devices are probed (the
 * `rio:` bus prefix is optional). rte_dev_probe("<name>") probes one device
 * explicitly, and rte_dev_remove() detaches its driver (the device stays on
 * the bus).
 *
 * Locking: one recursive lock protects the bus. Bus callbacks run with it
 * held, in the thread that scanned or removed the mport; they may call any
 * function of this file. Device events arrive with lib/rio's device-list
 * lock held, so the order is lib/rio then bus.
 *
 * rio drivers use bus_rio_driver.h (driver SDK, internal API).
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include <rte_rio.h>
#include <rte_rio_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Name of the bus. */
#define RTE_RIO_BUS_NAME	"rio"

/** Wildcard for every ID of a search and of struct rte_rio_device_id. */
#define RTE_RIO_ANY_ID		0xffff

/** A RapidIO device on the rio bus (defined in bus_rio_driver.h). */
struct rte_rio_device;

/**
 * Take a reference on a device.
 * @param dev  the device, or NULL
 * @return @p dev.
 */
__rte_experimental
struct rte_rio_device *rte_rio_device_get(struct rte_rio_device *dev);

/**
 * Drop a reference. The device is freed when it was removed from lib/rio
 * and this was the last reference.
 * @param dev  the device, or NULL
 */
__rte_experimental
void rte_rio_device_put(struct rte_rio_device *dev);

/**
 * Reference count of a device (for tests and debugging).
 * @param dev  the device, or NULL
 * @return the count, 0 for NULL.
 */
__rte_experimental
unsigned int rte_rio_device_refcount(const struct rte_rio_device *dev);

/**
 * Name of a device, also its rte_device name and lib/rio name.
 * @param dev  the device
 * @return the name, NULL for a NULL device.
 */
__rte_experimental
const char *rte_rio_device_name(const struct rte_rio_device *dev);

/**
 * lib/rio device record of a bus device, to describe it with
 * rte_rio_dev_info_get() or access it with rte_rio_dev_read_config_32().
 * @param dev  the device
 * @return the record, NULL once the device was removed (or for NULL).
 */
__rte_experimental
struct rte_rio_dev *rte_rio_device_rdev(const struct rte_rio_device *dev);

/**
 * Begin or continue a search by IDs. Removed devices are skipped.
 * @param vid      Device Identity CAR vendor, or RTE_RIO_ANY_ID
 * @param did      Device Identity CAR device, or RTE_RIO_ANY_ID
 * @param asm_vid  Assembly Identity CAR vendor, or RTE_RIO_ANY_ID
 * @param asm_did  Assembly Identity CAR assembly, or RTE_RIO_ANY_ID
 * @param from     previous result, or NULL to start; its reference is dropped
 * @return the next matching device with a reference taken, or NULL.
 */
__rte_experimental
struct rte_rio_device *rte_rio_device_find_asm(uint16_t vid, uint16_t did, uint16_t asm_vid,
					       uint16_t asm_did, struct rte_rio_device *from);

/**
 * rte_rio_device_find_asm() for any assembly.
 * @param vid   Device Identity CAR vendor, or RTE_RIO_ANY_ID
 * @param did   Device Identity CAR device, or RTE_RIO_ANY_ID
 * @param from  previous result, or NULL to start; its reference is dropped
 * @return the next matching device with a reference taken, or NULL.
 */
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

/**
 * Look a present device up by name.
 * @param name  device name
 * @return the device, referenced, or NULL.
 */
__rte_experimental
struct rte_rio_device *rte_rio_device_find_by_name(const char *name);

/**
 * Number of present devices on the bus.
 * @return the number.
 */
__rte_experimental
unsigned int rte_rio_device_count(void);

/** Bus-level device events. */
enum rte_rio_bus_event {
	RTE_RIO_BUS_EVENT_ADD,      /**< device added (after its drivers were probed) */
	RTE_RIO_BUS_EVENT_REMOVE,   /**< device being removed (before its driver's remove) */
	/**
	 * device described anew (lib/rio's RTE_RIO_DEV_EVENT_UPDATE): an
	 * agent's own endpoint got its device ID
	 */
	RTE_RIO_BUS_EVENT_UPDATE,
};

/**
 * Bus event callback, called with the bus lock held. The device is valid
 * during the call; take a reference to keep it longer.
 * @param dev    the device
 * @param event  what happened to it
 * @param arg    the argument given at registration
 */
typedef void (rte_rio_bus_event_cb_t)(struct rte_rio_device *dev,
				      enum rte_rio_bus_event event, void *arg);

/**
 * Follow devices without claiming them. Present devices are reported as
 * ADD before this returns.
 * @param cb   the callback
 * @param arg  passed to every call of @p cb
 * @return 0, -EINVAL (NULL cb), -EEXIST (same cb and arg), -ENOMEM.
 */
__rte_experimental
int rte_rio_device_callback_register(rte_rio_bus_event_cb_t *cb, void *arg);

/**
 * Stop following.
 * @param cb   the callback given to rte_rio_device_callback_register()
 * @param arg  its argument
 * @return 0 or -ENOENT (not registered).
 */
__rte_experimental
int rte_rio_device_callback_unregister(rte_rio_bus_event_cb_t *cb, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* RTE_BUS_RIO_H */
