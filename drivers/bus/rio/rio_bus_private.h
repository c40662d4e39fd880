/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_BUS_PRIVATE_H
#define RIO_BUS_PRIVATE_H

#include <stdint.h>
#include <sys/queue.h>

#include <rte_log.h>

#include "bus_rio_driver.h"

extern int rio_bus_logtype;
#define RTE_LOGTYPE_RIO_BUS rio_bus_logtype

#define RIO_BUS_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, rio_bus_logtype, "%s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

/* Longest bus_info string: "vendor_id=xxxx, device_id=xxxx". */
#define RIO_BUS_INFO_LEN	40

/*
 * Bus-private state of a device. Removed devices stay in the bus list
 * (skipped by every lookup) until their last reference is dropped, so that
 * a search can continue from a removed device it still holds.
 */
struct rio_bus_device {
	TAILQ_ENTRY(rio_bus_device) next;
	struct rte_rio_device pub;
	uint32_t refcnt;        /* atomic: the bus holds 1 while lib/rio has the device */
	bool removed;           /* lib/rio reported REMOVE (bus lock) */
	bool announced;         /* ADD sent to the bus callbacks (bus lock) */
	char bus_info[RIO_BUS_INFO_LEN];
};

#define RIO_BUS_DEV(d) container_of(d, struct rio_bus_device, pub)

/* A bus event subscriber. */
struct rio_bus_callback {
	TAILQ_ENTRY(rio_bus_callback) next;
	rte_rio_bus_event_cb_t *cb;
	void *arg;
};

#endif /* RIO_BUS_PRIVATE_H */
