/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_RIO_DEV_H
#define RTE_RIO_DEV_H

/**
 * @file
 * RapidIO devices, enumeration and discovery, switch routing.
 *
 * An mport's view of its fabric is a list of devices: its own endpoint
 * (local), remote endpoints and switches. A host mport builds it by
 * enumeration (it assigns device IDs and programs routes), an agent mport
 * by discovery (it waits until a host has enumerated, then reads the
 * fabric). Both give the same view. Device add/remove events let the rio
 * bus publish every device as an rte_device.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_compat.h>

#include "rte_rio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum ports of a switch the library models. */
#define RTE_RIO_MAX_SWITCH_PORTS	32
/** Default time an agent waits for a host to finish enumeration (seconds). */
#define RTE_RIO_DISC_TIMEOUT_DEFAULT	30
/** rte_rio_mport_scan_background(): an agent tries to discover this often (ms). */
#define RTE_RIO_DISC_POLL_MS		100
/** ...and says it still waits this often (ms). */
#define RTE_RIO_DISC_NOTE_MS		5000

/**
 * Device names, as Linux names RapidIO devices: an mport's own endpoint is
 * "rapidio<mport id>" (decimal); a remote endpoint "<mport id>:e:<device
 * ID>" and a switch "<mport id>:s:<component tag>" (hex, lower case: the
 * mport ID on 2 digits, the others on at least 4), e.g. "rapidio0",
 * "00:e:0001", "00:s:0002". The mport ID is its index in the process
 * (struct rte_rio_mport_info.id). DPDK's device-argument parsers take these
 * names as they are (`-a 00:e:0001`, `rio:00:e:0001`).
 */
#define RTE_RIO_DEV_NAME_LOCAL_FMT	RTE_RIO_DEV_NAME_LOCAL_PREFIX "%u"
/** What the name of every mport's own endpoint starts with. */
#define RTE_RIO_DEV_NAME_LOCAL_PREFIX	"rapidio"
/** Format of a remote endpoint's name: mport ID, device ID. */
#define RTE_RIO_DEV_NAME_ENDPOINT_FMT	"%02x:e:%04x"
/** Format of a switch's name: mport ID, component tag (RTE_RIO_CTAG_UDEVID bits). */
#define RTE_RIO_DEV_NAME_SWITCH_FMT	"%02x:s:%04x"

/** Device kinds. */
enum rte_rio_dev_type {
	RTE_RIO_DEV_ENDPOINT = 0,
	RTE_RIO_DEV_SWITCH = 1,
};

struct rte_rio_dev;

/** What a device looks like (a copy; stable while the device exists). */
struct rte_rio_dev_info {
	char name[RTE_RIO_NAME_MAX_LEN]; /**< see RTE_RIO_DEV_NAME_LOCAL_FMT */
	enum rte_rio_dev_type type;
	bool local;             /**< the mport's own endpoint */
	uint16_t vid;           /**< Device Identity CAR: vendor */
	uint16_t did;           /**< Device Identity CAR: device */
	uint32_t device_rev;    /**< Device Information CAR */
	uint16_t asm_vid;       /**< Assembly Identity CAR: vendor */
	uint16_t asm_did;       /**< Assembly Identity CAR: assembly */
	uint16_t asm_rev;       /**< Assembly Information CAR: revision */
	uint32_t pef;           /**< Processing Element Features CAR */
	uint32_t src_ops;       /**< Source Operations CAR */
	uint32_t dst_ops;       /**< Destination Operations CAR */
	uint16_t destid;        /**< endpoints: device ID; switches: access device ID */
	uint8_t hopcount;       /**< switches: hops from the mport; endpoints: 0xff */
	uint32_t comptag;       /**< Component Tag CSR */
	uint32_t phys_efptr;    /**< LP-Serial block offset */
	uint8_t phys_rmap;      /**< its register map */
	uint32_t em_efptr;      /**< Error Management block offset, 0 if none */
	uint8_t nports;         /**< switches: PortTotal; endpoints: 1 */
	uint8_t sw_inport;      /**< switches: port facing the mport */
	int32_t prev_comptag;   /**< upstream switch's component tag, -1 if none */
	uint8_t prev_port;      /**< port of the upstream switch leading here */
};

/** Device events. */
enum rte_rio_dev_event {
	RTE_RIO_DEV_EVENT_ADD,      /**< device found (after enumeration/discovery) */
	RTE_RIO_DEV_EVENT_REMOVE,   /**< device gone (mport removed, link down) */
	/**
	 * device described anew, same device and name: an agent's own
	 * endpoint, published while it waited for a host
	 * (rte_rio_scan_conf.publish_local), got its device ID
	 */
	RTE_RIO_DEV_EVENT_UPDATE,
};

/**
 * Device event callback. Called in the thread that scanned or removed; the
 * device is valid for the duration of the call (and after ADD until the
 * matching REMOVE returns).
 * @param dev    the device
 * @param event  what happened to it
 * @param arg    the argument given at registration
 */
typedef void (*rte_rio_dev_event_cb_t)(struct rte_rio_dev *dev, enum rte_rio_dev_event event,
				       void *arg);

/**
 * Subscribe to device events of every mport. Devices that already exist are
 * reported as ADD before this returns.
 * @param cb   the callback
 * @param arg  passed to every call of @p cb
 * @return 0, -EINVAL, -EEXIST (same cb and arg), -ENOMEM.
 */
__rte_experimental
int rte_rio_dev_event_register(rte_rio_dev_event_cb_t cb, void *arg);

/**
 * Unsubscribe.
 * @param cb   the callback given to rte_rio_dev_event_register()
 * @param arg  its argument
 * @return 0 or -ENOENT.
 */
__rte_experimental
int rte_rio_dev_event_unregister(rte_rio_dev_event_cb_t cb, void *arg);

/** Scan options. */
struct rte_rio_scan_conf {
	unsigned int disc_timeout_ms;   /**< agents: wait for Discovered; 0 = default 30 s */
	bool no_wait;                   /**< agents: fail at once with -EAGAIN if not discovered */
	/**
	 * with no_wait: when not discovered yet, publish the mport's own
	 * endpoint (ADD) before returning -EAGAIN, so that its drivers can
	 * start while the agent waits; call rte_rio_mport_scan() again until
	 * it returns something else. The scan that discovers keeps that
	 * device and reports it as UPDATE (its device ID is the host's
	 * choice), then the others as ADD.
	 */
	bool publish_local;
};

/**
 * Build the mport's view of the fabric: a host (host_destid >= 0) enumerates,
 * an agent discovers. When another host with a higher host ID holds the
 * fabric, a host backs off and discovers instead. Emits ADD events (and
 * UPDATE, see rte_rio_scan_conf.publish_local).
 * @param mport  the mport
 * @param conf   options, or NULL for the defaults
 * @return 0; -EALREADY scanned already (or a scan runs); -ETIMEDOUT agent
 *         gave up waiting; -EAGAIN not discovered yet (no_wait); -EBUSY lost
 *         to another host and its discovery failed; -EIO; -ENOMEM.
 */
__rte_experimental
int rte_rio_mport_scan(struct rte_rio_mport *mport, const struct rte_rio_scan_conf *conf);

/**
 * rte_rio_mport_scan() for a driver's probe, which must not hold EAL init up
 * (a host probed after its agents in one process enumerates them): a host
 * enumerates at once; an agent whose fabric no host has enumerated yet
 * publishes its own endpoint (as with rte_rio_scan_conf.publish_local) and
 * discovers again every RTE_RIO_DISC_POLL_MS from the EAL interrupt thread,
 * saying every RTE_RIO_DISC_NOTE_MS that it still waits, until a host has
 * (the fabric's devices are then published) or conf->disc_timeout_ms ran
 * out (an error is logged; rte_rio_mport_scan() may discover later).
 * rte_rio_mport_scan_cancel() (and rte_rio_mport_unregister()) stop it.
 * @param mport  the mport
 * @param conf   options (no_wait and publish_local are implied), or NULL
 * @return as rte_rio_mport_scan(), and -EINPROGRESS: an agent discovers in
 *         the background; -ENOTSUP no EAL alarm could be set.
 */
__rte_experimental
int rte_rio_mport_scan_background(struct rte_rio_mport *mport,
				  const struct rte_rio_scan_conf *conf);

/**
 * Stop the background discovery of rte_rio_mport_scan_background(), waiting
 * for an attempt that runs; what it published stays. Not from the EAL
 * interrupt thread. A driver calls it first when it removes its port.
 * @param mport  the mport (NULL, or one without discovery pending, is ignored)
 */
__rte_experimental
void rte_rio_mport_scan_cancel(struct rte_rio_mport *mport);

/**
 * @param mport  the mport
 * @return true once the mport's scan completed (not while only its own
 *         endpoint is published: rte_rio_scan_conf.publish_local).
 */
__rte_experimental
bool rte_rio_mport_scanned(const struct rte_rio_mport *mport);

/**
 * Forget the mport's devices (REMOVE events, local endpoint last).
 * Called by rte_rio_mport_unregister().
 * @param mport  the mport (NULL is ignored)
 */
__rte_experimental
void rte_rio_mport_devices_release(struct rte_rio_mport *mport);

/* ---------------------------------------------------------------------- */
/* Hot-plug (host mports)                                                 */

/** Default period of the automatic port-write poll of a host mport (us). */
#define RTE_RIO_PW_POLL_PERIOD_US	10000

/** What the port-write handler of a host mport did. */
struct rte_rio_hotplug_stats {
	uint64_t pw_rx;         /**< port-writes fetched */
	uint64_t pw_unknown;    /**< from a reporter or port the mport does not know */
	uint64_t pw_errors;     /**< the reporter did not answer the status reads */
	uint64_t link_down;     /**< links found down (extraction handled) */
	uint64_t link_up;       /**< links found up (insertion handled) */
	uint64_t dev_removed;   /**< devices removed (REMOVE events) */
	uint64_t dev_added;     /**< devices enumerated again (ADD events) */
	uint64_t enum_errors;   /**< re-enumerations that failed */
};

/**
 * Fetch and handle up to @p max port-writes of a host mport now (the
 * automatic poll does the same every period). For each error-management
 * port-write the reporting switch is found by component tag and its port's
 * Error/Status and EM Port Error Detect CSRs are read: a link that went down
 * is locked out and every device reachable only through it is removed
 * (REMOVE events, deepest first); a link that is up again, or a port that
 * came up, is unlocked and the subtree behind it is enumerated again,
 * with the device IDs and component tags it had where they are free (ADD
 * events). Then the CSRs are cleared (EM detect, L/T detect, Error/Status
 * write-1-to-clear bits such as Port-write Pending). Port-writes fetched
 * with rte_rio_pw_fetch() by the application are not handled.
 * @param mport  an enumerated host mport
 * @param max    port-writes to handle at most
 * @return number handled; -EINVAL NULL mport; -ENODEV not an enumerated
 *         host; -ENOTSUP the mport cannot receive port-writes.
 */
__rte_experimental
int rte_rio_pw_poll(struct rte_rio_mport *mport, unsigned int max);

/**
 * Set the period of the automatic port-write poll of an enumerated host
 * mport (an EAL alarm, started by rte_rio_mport_scan() with
 * RTE_RIO_PW_POLL_PERIOD_US and stopped when the devices are released).
 * 0 stops it; rte_rio_pw_poll() still works.
 * @param mport      an enumerated host mport
 * @param period_us  the period in microseconds, 0 to stop
 * @return 0; -EINVAL NULL mport; -ENODEV not an enumerated host;
 *         -ENOTSUP no port-write reception; or the EAL alarm's error.
 */
__rte_experimental
int rte_rio_pw_poll_period_set(struct rte_rio_mport *mport, unsigned int period_us);

/**
 * Read the hot-plug counters of an enumerated host mport.
 * @param mport  the mport
 * @param stats  filled in
 * @return 0, -EINVAL, -ENODEV (not an enumerated host).
 */
__rte_experimental
int rte_rio_hotplug_stats_get(const struct rte_rio_mport *mport,
			      struct rte_rio_hotplug_stats *stats);

/**
 * @param mport  the mport
 * @return number of devices the mport knows.
 */
__rte_experimental
unsigned int rte_rio_dev_count(const struct rte_rio_mport *mport);

/**
 * Iterate devices.
 * @param mport  the mport, or NULL for every mport's devices
 * @param prev   the previous device, or NULL to start
 * @return the next device, or NULL.
 */
__rte_experimental
struct rte_rio_dev *rte_rio_dev_next(const struct rte_rio_mport *mport,
				     const struct rte_rio_dev *prev);

/**
 * @param mport   the mport
 * @param destid  a device ID
 * @return the endpoint with device ID @p destid on @p mport, or NULL.
 */
__rte_experimental
struct rte_rio_dev *rte_rio_dev_find_by_destid(const struct rte_rio_mport *mport,
					       uint16_t destid);

/**
 * @param mport    the mport
 * @param comptag  a Component Tag CSR value
 * @return the device with component tag @p comptag on @p mport, or NULL.
 */
__rte_experimental
struct rte_rio_dev *rte_rio_dev_find_by_comptag(const struct rte_rio_mport *mport,
						uint32_t comptag);

/**
 * @param name  a device name (RTE_RIO_DEV_NAME_LOCAL_FMT and the others)
 * @return the device named @p name, or NULL.
 */
__rte_experimental
struct rte_rio_dev *rte_rio_dev_find_by_name(const char *name);

/**
 * Copy a device's description.
 * @param dev   the device
 * @param info  filled in
 * @return 0 or -EINVAL.
 */
__rte_experimental
int rte_rio_dev_info_get(const struct rte_rio_dev *dev, struct rte_rio_dev_info *info);

/**
 * @param dev  the device
 * @return the mport that knows @p dev.
 */
__rte_experimental
struct rte_rio_mport *rte_rio_dev_mport(const struct rte_rio_dev *dev);

/**
 * @param dev  the device
 * @return the device's name.
 */
__rte_experimental
const char *rte_rio_dev_name(const struct rte_rio_dev *dev);

/**
 * Config access to a device through its mport: local devices use local
 * config, remote ones maintenance with the device's (destid, hopcount).
 * @param dev     the device
 * @param offset  register offset, 4-byte aligned
 * @param val     the value read
 * @return 0, or the negative errno of rte_rio_remote_read_config_32().
 */
__rte_experimental
int rte_rio_dev_read_config_32(struct rte_rio_dev *dev, uint32_t offset, uint32_t *val);
/**
 * Write counterpart of rte_rio_dev_read_config_32().
 * @param dev     the device
 * @param offset  register offset, 4-byte aligned
 * @param val     the value to write
 * @return 0, or the negative errno of rte_rio_remote_write_config_32().
 */
__rte_experimental
int rte_rio_dev_write_config_32(struct rte_rio_dev *dev, uint32_t offset, uint32_t val);

/**
 * Route of a switch for @p destid from the library's shadow table: what the
 * mport programmed or read from the switch. Entries the mport never
 * programmed nor read (beyond the window of IDs in use of a 16-bit fabric)
 * read as RTE_RIO_INVALID_ROUTE, whatever the switch holds.
 * @param sw      a switch
 * @param destid  a device ID
 * @return output port, RTE_RIO_INVALID_ROUTE if none, -EINVAL not a switch.
 */
__rte_experimental
int rte_rio_switch_route_get(const struct rte_rio_dev *sw, uint16_t destid);

/**
 * Program a switch route (hardware and shadow table) through its route ops,
 * holding the switch's Host Base Device ID Lock for the select-then-write
 * sequence (taken and released here unless the mport holds it already).
 * @param sw      a switch
 * @param destid  a device ID
 * @param port    its output port
 * @return 0; -EINVAL bad switch, ID or port (or an ID the part's route ops
 *         cannot route); -EBUSY the switch stayed locked by somebody else
 *         (RTE_RIO_SWITCH_LOCK_WAIT_MS); or the maintenance error.
 */
__rte_experimental
int rte_rio_switch_route_set(struct rte_rio_dev *sw, uint16_t destid, uint8_t port);

/**
 * @param sw    a switch
 * @param port  one of its ports
 * @return the device that port @p port of switch @p sw leads to, or NULL
 *         (unconnected, inactive, or not known).
 */
__rte_experimental
struct rte_rio_dev *rte_rio_switch_port_peer(const struct rte_rio_dev *sw, uint8_t port);

/** How long route access waits for a switch somebody else holds locked (ms). */
#define RTE_RIO_SWITCH_LOCK_WAIT_MS	1000

/**
 * Switch route operations, keyed by vendor and device ID. The library calls
 * them with the switch's Host Base Device ID Lock held, so a select register
 * written by one op is not changed by another party before the access it
 * selects. Route values are ports, or RTE_RIO_INVALID_ROUTE for "no route":
 * add ops write the part's explicit "drop" value for it, get ops map the
 * part's "drop" and "default route" values to it.
 */
struct rte_rio_switch_ops {
	const char *name;
	uint16_t vid;
	uint16_t did;
	/** Program destid -> port. */
	int (*add_entry)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			 uint16_t table, uint16_t route_destid, uint8_t route_port);
	/** Read destid's port. */
	int (*get_entry)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			 uint16_t table, uint16_t route_destid, uint8_t *route_port);
	/** Clear every entry to "no route". */
	int (*clr_table)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			 uint16_t table);
	/**
	 * Set the default output port (optional). The enumerator never uses
	 * it: every ID it assigns is routed explicitly.
	 */
	int (*set_default)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			   uint8_t port);
	/** Read the default output port (optional, goes with set_default). */
	int (*get_default)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			   uint8_t *port);
	/**
	 * Program the @p n entries from @p first to @p ports[] with as few
	 * transactions as the part allows, and no other entry (optional:
	 * add_entry per entry without it).
	 */
	int (*add_entries)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			   uint16_t table, uint16_t first, uint16_t n, const uint8_t *ports);
	/** Read the @p n entries from @p first (optional, like add_entries). */
	int (*get_entries)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			   uint16_t table, uint16_t first, uint16_t n, uint8_t *ports);
	/**
	 * Aligned entries one access of add_entries programs (0 or 1: one). The
	 * library then writes whole groups where it knows the other entries.
	 */
	uint8_t route_group;
	/**
	 * Highest device ID the ops route one by one (0: every ID of the
	 * fabric). With 16-bit IDs, add_entry and get_entry of a higher ID may
	 * route the ID's domain (every ID with its most significant byte); the
	 * library does that for ANY_DESTID only.
	 */
	uint16_t max_destid;
	/**
	 * Prepare the switch when a host enumerates it, before routes are
	 * written (optional), e.g. turn a vendor default route into "drop" or
	 * direct port-writes towards @p inport, the port facing the host.
	 */
	int (*init)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		    uint8_t inport);
};

/**
 * Register route ops for switches with (vid, did). Switches without
 * registered ops use the standard route-table CSRs (0x70/0x74). The
 * library registers ops of its own for the IDT CPS Gen2 (CPS-1848, 1432,
 * 1616, SPS-1616, VPS-1616) and RXS Gen3 (RXS-1632, 2448) switches.
 * @param ops  the ops, with their vid and did
 * @return 0, -EEXIST (ops for that vid/did exist), -EINVAL.
 */
__rte_experimental
int rte_rio_switch_ops_register(const struct rte_rio_switch_ops *ops);

/**
 * Unregister route ops.
 * @param ops  registered ops
 * @return 0 or -ENOENT.
 */
__rte_experimental
int rte_rio_switch_ops_unregister(const struct rte_rio_switch_ops *ops);

/**
 * Route ops the library uses for switches with (vid, did): the registered
 * ones, else the standard ones. For drivers and tools that program a switch
 * the way the library does.
 * @param vid  the switch's vendor ID (Device Identity CSR)
 * @param did  its device ID
 * @return the ops (never NULL).
 */
__rte_experimental
const struct rte_rio_switch_ops *rte_rio_switch_ops_find(uint16_t vid, uint16_t did);

/**
 * The standard route ops (the fallback), for drivers that extend them.
 * @return the standard ops table (never NULL; it cannot fail).
 */
__rte_experimental
const struct rte_rio_switch_ops *rte_rio_switch_std_ops(void);

/**
 * Write the mport's view of the fabric as a Graphviz DOT graph.
 * @param mport  the mport
 * @param f      where to write
 * @return 0 or -errno.
 */
__rte_experimental
int rte_rio_topology_dot(const struct rte_rio_mport *mport, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* RTE_RIO_DEV_H */
