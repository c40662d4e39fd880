/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_PMD_RIO_SIM_H
#define RTE_PMD_RIO_SIM_H

/**
 * @file
 * rio_sim rawdev: the emulated RapidIO (SRIO) master port.
 *
 * Each vdev `rio_sim<N>` claims one endpoint of a shared-memory fabric and
 * registers it as an mport of lib/rio under the rawdev's name, so the
 * rte_rio_* API (rte_rio.h) works on it. The rawdev API adds:
 *
 *  - rte_rawdev_info_get() with dev_private pointing at a
 *    struct rte_pmd_rio_sim_info (dev_private_size = its size);
 *  - rte_rawdev_configure() with dev_private pointing at a
 *    struct rte_pmd_rio_sim_conf: which mailboxes and which inbound doorbell
 *    range the raw data path owns (nothing by default, so lib/rio users such
 *    as rionet keep every mailbox);
 *  - rte_rawdev_start()/rte_rawdev_stop(): open/close those resources;
 *  - raw operations through rte_rawdev_enqueue_buffers() and
 *    rte_rawdev_dequeue_buffers(): each struct rte_rawdev_buf's buf_addr
 *    points at a struct rte_pmd_rio_sim_op;
 *  - named attributes (RTE_PMD_RIO_SIM_ATTR_*), xstats, dump and a selftest
 *    run by the stock `dpdk-test rawdev_autotest`.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include "rte_rio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Driver name, and prefix of every rio_sim vdev name. */
#define RTE_PMD_RIO_SIM_DRIVER_NAME	"rio_sim"
/** Fabric joined when the devargs do not name one. */
#define RTE_PMD_RIO_SIM_DEFAULT_FABRIC	"default"
/** Topology used when a fabric is created without topology= devarg. */
#define RTE_PMD_RIO_SIM_DEFAULT_TOPOLOGY	"builtin:default"
/** Longest fabric or device name, including the terminating NUL. */
#define RTE_PMD_RIO_SIM_NAME_LEN	32

/** Device description, filled by rte_rawdev_info_get(). */
struct rte_pmd_rio_sim_info {
	char mport_name[RTE_RIO_NAME_MAX_LEN];	/**< lib/rio mport name (= rawdev name) */
	char fabric[RTE_PMD_RIO_SIM_NAME_LEN];	/**< fabric (shared-memory) name */
	char endpoint[RTE_PMD_RIO_SIM_NAME_LEN];	/**< claimed endpoint's name */
	uint32_t ep_index;	/**< endpoint index in the fabric */
	uint32_t dev_index;	/**< device index in the fabric */
	uint16_t destid;	/**< own device ID (Base Device ID CSR) */
	int32_t host_destid;	/**< host device ID, or RTE_RIO_NO_HOST (agent) */
	uint8_t devid_size;	/**< 8 or 16 */
	bool link_up;		/**< own port 0 link state */
	uint32_t n_devices;	/**< devices (endpoints and switches) in the fabric */
	uint32_t n_endpoints;	/**< endpoints in the fabric */
	uint32_t mbox_entries;	/**< inbound ring slots per mailbox */
	uint8_t raw_mbox_mask;	/**< mailboxes owned by the raw data path (configured) */
};

/** Raw data path configuration, given to rte_rawdev_configure(). */
struct rte_pmd_rio_sim_conf {
	/**
	 * Bit m set: rte_rawdev_start() opens inbound and outbound mailbox m
	 * for raw operations (bits 0..RTE_RIO_MAX_MBOX-1; others refused).
	 * 0: raw messages are refused with -ENOTCONN.
	 */
	uint8_t mbox_mask;
	/** Ring size of those mailboxes: power of two in [2, 4096]; 0: fabric default. */
	uint32_t mbox_entries;
	/**
	 * Inbound doorbell info range [dbell_start, dbell_end] received by
	 * dequeue (claimed at start with rte_rio_request_inb_dbell()).
	 * Ignored unless dbell_enable is true.
	 */
	bool dbell_enable;
	uint16_t dbell_start;
	uint16_t dbell_end;
};

/** Type of a raw operation. */
enum rte_pmd_rio_sim_op_type {
	RTE_PMD_RIO_SIM_OP_MSG = 1,	/**< mailbox (type 11) message */
	RTE_PMD_RIO_SIM_OP_DBELL = 2,	/**< doorbell */
};

/**
 * One raw operation, pointed at by rte_rawdev_buf.buf_addr.
 *
 * Ownership: the application owns the op and its data buffer in both
 * directions; the driver never keeps a pointer to either after the call.
 *
 * Enqueue (send): set type, destid and, for MSG, mbox, letter, len and data
 * (len bytes, RTE_RIO_MIN_MSG_SIZE..RTE_RIO_MAX_MSG_SIZE); for DBELL, info.
 * The driver sends the ops in order and writes each one's status.
 *
 * Dequeue (receive): set data to a buffer of RTE_RIO_MAX_MSG_SIZE bytes (it
 * may be NULL if only doorbells are expected: a message is then not taken).
 * The driver fills type, srcid, destid, info (DBELL) or mbox, letter, len and
 * the data bytes (MSG), and status 0.
 *
 * Threads: enqueue and dequeue of one device may run in two different
 * threads, but neither may run in two threads at once, and neither while the
 * device is being configured, started or stopped.
 */
struct rte_pmd_rio_sim_op {
	uint8_t type;		/**< enum rte_pmd_rio_sim_op_type */
	uint8_t mbox;		/**< MSG: mailbox 0..RTE_RIO_MAX_MBOX-1 */
	uint8_t letter;		/**< MSG: letter 0..RTE_RIO_MAX_LETTER-1 */
	uint16_t destid;	/**< destination device ID */
	uint16_t srcid;		/**< dequeue: source device ID */
	uint16_t info;		/**< DBELL: 16-bit information */
	uint16_t len;		/**< MSG: exact payload length in bytes */
	int16_t status;		/**< 0, or -EAGAIN, -EIO, -ETIMEDOUT, -EINVAL, -ENOTCONN */
	void *data;		/**< MSG: payload */
};

/**
 * @name Attributes (rte_rawdev_get_attr() / rte_rawdev_set_attr())
 * @{
 */
/** get/set: own device ID (Base Device ID CSR; set writes it). */
#define RTE_PMD_RIO_SIM_ATTR_DESTID		"destid"
/** get: host device ID (RTE_RIO_NO_HOST as (uint64_t)-1 for an agent). */
#define RTE_PMD_RIO_SIM_ATTR_HOST_DESTID	"host_destid"
/** get: 8 or 16. */
#define RTE_PMD_RIO_SIM_ATTR_DEVID_SIZE		"devid_size"
/** get/set: physical link of own port 0, 1 up, 0 down (both ends). */
#define RTE_PMD_RIO_SIM_ATTR_LINK		"link"
/** get: maintenance transactions issued; set 0: reset the counter. */
#define RTE_PMD_RIO_SIM_ATTR_MAINT_COUNT	"maint_count"
/** get/set: ring size used for raw mailboxes at the next start (power of two). */
#define RTE_PMD_RIO_SIM_ATTR_MBOX_ENTRIES	"mbox_entries"
/** get: endpoint index in the fabric. */
#define RTE_PMD_RIO_SIM_ATTR_EP_INDEX		"ep_index"
/** get: device index in the fabric. */
#define RTE_PMD_RIO_SIM_ATTR_DEV_INDEX		"dev_index"
/** get: doorbells received outside every claimed range. */
#define RTE_PMD_RIO_SIM_ATTR_DBELL_UNCLAIMED	"dbell_unclaimed"
/**
 * get/set: the endpoint takes this many more doorbells than it has fetched
 * when it is set, and answers RETRY past them; fetching does not move that
 * limit. A device that models its own doorbell queue sets it to the room
 * left in that queue whenever that changes. 256 (the default): no limit
 * but the endpoint's ring of 256. get: the value last set.
 */
#define RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH	"dbell_depth"
/**
 * get/set: inbound mailboxes (bit m: mailbox m) that take a message only
 * into a buffer posted for it (rte_rio_add_inb_buffers()), as a controller
 * that writes each message straight into a free buffer of the host: a
 * message that finds none left (the messages in the ring hold theirs) gets
 * RETRY. Such a mailbox is received with rte_rio_recv_messages() or
 * rte_rio_get_inb_message(), not in place. Default 0.
 */
#define RTE_PMD_RIO_SIM_ATTR_MBOX_POSTED	"mbox_posted"
/** get: RETRY responses the endpoint answered (doorbells and messages). */
#define RTE_PMD_RIO_SIM_ATTR_RETRIES_ANSWERED	"retries_answered"
/** @} */

/**
 * The lib/rio mport of a rio_sim rawdev.
 *
 * @param dev_id  rawdev identifier
 * @return the mport, or NULL (rte_errno ENODEV: not a rio_sim rawdev)
 */
__rte_experimental
struct rte_rio_mport *rte_pmd_rio_sim_mport(uint16_t dev_id);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_RIO_SIM_H */
