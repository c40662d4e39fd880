/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef BUS_RIO_DRIVER_H
#define BUS_RIO_DRIVER_H

/**
 * @file
 * The DPDK bus "rio": driver API (driver SDK, not application API).
 *
 * struct rte_rio_device embeds DPDK's struct rte_device (dev_driver.h,
 * itself driver SDK), and rio drivers register here.
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
 * Driver probe/remove run with the bus lock held, in the thread that scanned
 * or removed the mport (or that registered the driver); they may call any
 * function of the bus. Do not register drivers or probe devices in one
 * thread while another thread scans or removes an mport.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_common.h>
#include <dev_driver.h>

#include <rte_rio.h>
#include <rte_rio_dev.h>
#include <rte_bus_rio.h>

#ifdef __cplusplus
extern "C" {
#endif

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
 * @param drv      the driver
 * @param dev      the device
 * @param matched  the ID table entry that matched
 * @return 0 bound; > 0 not this driver's device (try the next one); < 0 error.
 */
typedef int (rte_rio_probe_t)(struct rte_rio_driver *drv, struct rte_rio_device *dev,
			      const struct rte_rio_device_id *matched);

/**
 * Driver remove (unplug, device removal, driver unregistration).
 * @param dev  the device the driver holds
 * @return 0 or -errno.
 */
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
 * @param drv  the driver, with name, id_table and probe set
 * @return 0, -EINVAL (NULL driver, name, id_table or probe), -EEXIST.
 */
__rte_internal
int rte_rio_driver_register(struct rte_rio_driver *drv);

/**
 * Unregister a driver: its remove() is called for every device it holds.
 * @param drv  a registered driver
 * @return 0, -EINVAL, -ENOENT (not registered).
 */
__rte_internal
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
 * The bus's matching rule, for drivers and tests.
 * @param table  a driver's ID table
 * @param dev    a device
 * @return the first entry of @p table that matches @p dev, or NULL.
 */
__rte_internal
const struct rte_rio_device_id *
rte_rio_device_match_id(const struct rte_rio_device_id *table, const struct rte_rio_device *dev);

#ifdef __cplusplus
}
#endif

#endif /* BUS_RIO_DRIVER_H */
