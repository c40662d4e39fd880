/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_PMD_RIO_SIM_FABRIC_H
#define RTE_PMD_RIO_SIM_FABRIC_H

/**
 * @file
 * Management of emulated RapidIO fabrics (rio_sim), for tools and tests.
 *
 * A fabric is a POSIX shared-memory object "/rio_sim.<name>" built from a
 * topology: an INI file, or "builtin:<shape>" with shape one of default, pair,
 * chain:<n>, tree:<fanout>:<levels>, star:<n> (see the rio_sim guide).
 *
 * Functions that take a fabric name use this process's mapping of it when it
 * has one (rawdev mports and fabrics created or attached here); otherwise they
 * attach for the duration of the call. A fabric lives while a live process is
 * attached; the last one to detach removes it.
 *
 * Device names are topology names, or "#<index>". Errors are negative errno
 * values; functions with an err buffer also write one line saying why.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Vendor ID of the std and generic models unless the topology sets vid. */
#define RTE_PMD_RIO_SIM_VID			0x5253
/** Default device IDs of the generic endpoint and std switch models. */
#define RTE_PMD_RIO_SIM_DID_ENDPOINT		0x0001
#define RTE_PMD_RIO_SIM_DID_SWITCH		0x0002

/** Longest model name, including the NUL. */
#define RTE_PMD_RIO_SIM_MODEL_LEN		16

/** Longest fabric or device name, including the NUL. */
#define RTE_PMD_RIO_SIM_FABRIC_NAME_LEN		32
/** Most ports of one device. */
#define RTE_PMD_RIO_SIM_FABRIC_MAX_PORTS	32

/** Device type. */
enum rte_pmd_rio_sim_dev_type {
	RTE_PMD_RIO_SIM_DEV_ENDPOINT = 1,
	RTE_PMD_RIO_SIM_DEV_SWITCH = 2,
};

/** One port of a device. */
struct rte_pmd_rio_sim_port_info {
	int32_t peer_dev;	/**< device index at the other end, -1: unconnected */
	uint8_t peer_port;	/**< port number at the other end */
	uint8_t link_up;	/**< physical link state (link_set) */
	uint8_t port_ok;	/**< Port OK as the Error/Status CSR reports it */
	uint8_t lockout;	/**< Port Control LOCKOUT set */
	uint32_t ctl;		/**< Port n Control CSR */
	uint8_t lanes;		/**< lanes of the port */
	uint8_t baud;		/**< lane rate of the link, Port n Control 2 baud code */
	uint16_t ack_in;	/**< inbound ackID (next expected) */
	uint16_t ack_out;	/**< outbound ackID (next to send) */
	uint16_t rsvd;
	uint64_t rate_bps;	/**< data rate of the link after line coding, 0: not OK */
	uint64_t tx_pkts;	/**< packets sent out of this port */
	uint64_t rx_pkts;	/**< packets received on this port */
	uint64_t drops;		/**< packets dropped at this port */
	uint64_t err_stopped;	/**< packets refused: the link's ackIDs disagreed */
};

/** One device of a fabric. */
struct rte_pmd_rio_sim_dev_info {
	char name[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];	/**< topology name */
	uint32_t index;		/**< device index */
	uint8_t type;		/**< enum rte_pmd_rio_sim_dev_type */
	char model[RTE_PMD_RIO_SIM_MODEL_LEN];	/**< std, cps1848, rxs2448, generic, tsi721 */
	uint8_t nports;		/**< number of ports */
	uint8_t is_host;	/**< endpoints: the topology makes it the host */
	uint16_t vid;		/**< vendor ID */
	uint16_t did;		/**< device ID */
	uint32_t base_devid;	/**< endpoints: Base Device ID CSR (0x60) */
	uint32_t comptag;	/**< Component Tag CSR */
	uint32_t ep_index;	/**< endpoints: endpoint index, else UINT32_MAX */
	int32_t owner_pid;	/**< endpoints: process that claimed it, 0: none */
	uint64_t maint_rx;	/**< maintenance requests it executed */
	uint64_t maint_refused;	/**< of which answered ERROR (size or register refused) */
	uint64_t drop_destid;	/**< endpoints: packets for another device ID, dropped */
	struct rte_pmd_rio_sim_port_info ports[RTE_PMD_RIO_SIM_FABRIC_MAX_PORTS];
};

/**
 * Create fabric @p name and keep it attached to this process until
 * rte_pmd_rio_sim_fabric_detach() or _destroy().
 *
 * @param topology
 *   INI file path, "builtin:<shape>", or NULL for "builtin:default".
 * @param name  fabric name: 1 to 31 characters of [A-Za-z0-9_-]
 * @param err  buffer for a message saying why it failed (may be NULL)
 * @param errlen  size of @p err
 * @return 0; -EEXIST if it exists; -EINVAL etc. on a bad name or topology
 *   (err says why).
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_create(const char *name, const char *topology,
				  char *err, size_t errlen);

/**
 * Attach this process to existing fabric @p name (kept until detach). With
 * @p topology non-NULL the fabric must have been built from the same one.
 * @param name  fabric name
 * @param topology  NULL, or the topology it must have been built from (as for _create())
 * @param err  buffer for a message saying why it failed (may be NULL)
 * @param errlen  size of @p err
 * @return 0, -ENOENT if it does not exist, -EEXIST on a different topology,
 *   other -errno when it cannot be used (err says why).
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_attach(const char *name, const char *topology,
				  char *err, size_t errlen);

/**
 * Drop one create/attach reference of this process.
 * @param name  fabric name
 * @return 0 or -ENOENT.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_detach(const char *name);

/**
 * Remove every shared-memory segment of fabric @p name now, whoever uses it,
 * and drop this process's create/attach references. Processes that still map
 * it keep their mapping until they detach.
 * @param name  fabric name
 * @return 0, or -ENOENT if nothing existed.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_destroy(const char *name);

/**
 * @param name  fabric name
 * @return 1 if fabric @p name exists, 0 if not.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_exists(const char *name);

/**
 * @param name  fabric name
 * @return number of devices of the fabric, or -errno.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_dev_count(const char *name);

/**
 * Describe device @p index.
 * @param name  fabric name
 * @param index  device index, below rte_pmd_rio_sim_fabric_dev_count()
 * @param[out] info  the device's description
 * @return 0, -ENOENT (fabric), -EINVAL (index).
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_dev_info(const char *name, uint32_t index,
				    struct rte_pmd_rio_sim_dev_info *info);

/**
 * @param name  fabric name
 * @param dev_name  device name in the topology
 * @return index of device @p dev_name, or -ENOENT.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_dev_find(const char *name, const char *dev_name);

/**
 * Bring the link of (@p dev_name, @p port) up or down (both ends, like
 * pulling a cable). Switches report the change by an error-management
 * port-write to their port-write target.
 * @param name  fabric name
 * @param dev_name  device name in the topology
 * @param port  port number of the device
 * @param up  true: link up; false: down
 * @return 0, -ENOENT (fabric or device), -EINVAL (port), -ENOTCONN.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_link_set(const char *name, const char *dev_name, uint8_t port,
				    bool up);

/**
 * Backdoor (JTAG-like) configuration read of any device: no routing, the
 * access comes from no port (SWP_INFO reports port 0xff).
 * @param len 1, 2 or 4 (big-endian byte lanes of the 32-bit register).
 * @param name  fabric name
 * @param dev_name  device name in the topology
 * @param offset  byte offset, aligned to @p len
 * @param[out] val  the value read, in the low @p len bytes
 * @return 0, -ENOENT, -EINVAL (len), -EFAULT (misaligned), -ERANGE (offset).
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_config_read(const char *name, const char *dev_name,
				       uint32_t offset, int len, uint32_t *val);

/**
 * Backdoor configuration write; same rules as _config_read().
 * @param name  fabric name
 * @param dev_name  device name in the topology
 * @param offset  byte offset, aligned to @p len
 * @param len  1, 2 or 4
 * @param val  value to write, in the low @p len bytes
 * @return as rte_pmd_rio_sim_fabric_config_read()
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_config_write(const char *name, const char *dev_name,
					uint32_t offset, int len, uint32_t val);

/**
 * Inject a maintenance read or write from endpoint @p from_ep as if its
 * processor had issued it: routed by hop count and route tables like any
 * maintenance transaction, response routed back to @p from_ep, and taking
 * the time the fabric's timing model gives it.
 * @param len 4 (1 and 2 bytes are not maintenance transactions: -EINVAL).
 * @param name  fabric name
 * @param from_ep  requesting endpoint (device name)
 * @param destid  destination device ID
 * @param hopcount  hop count of the request
 * @param write  true: write @p *val; false: read into @p *val
 * @param offset  byte offset, 4-byte aligned
 * @param val  value written, or [out] value read
 * @return 0; -ETIMEDOUT when the request or response is dropped (after the
 *   requester's response timeout); -EIO for an ERROR response; -EACCES when
 *   @p from_ep has no Master Enable; -ENOENT, -EINVAL, -EFAULT, -ERANGE.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_maint(const char *name, const char *from_ep, uint16_t destid,
				 uint8_t hopcount, bool write, uint32_t offset, int len,
				 uint32_t *val);

/*
 * Inspection for tools (rio_sim_tool_api.c): _stat() and _list() read
 * without attaching; _route_table() attaches like the functions above.
 */

/** Most processes reported by rte_pmd_rio_sim_fabric_stat(). */
#define RTE_PMD_RIO_SIM_FABRIC_MAX_ATTACH	64

/** A fabric as its shared-memory header describes it. */
struct rte_pmd_rio_sim_fabric_stat {
	char name[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN];	/**< fabric name */
	uint32_t n_devices;	/**< endpoints and switches */
	uint32_t n_endpoints;	/**< endpoints */
	uint32_t n_switches;	/**< switches */
	uint8_t devid_size;	/**< 8 or 16 bit device IDs */
	uint8_t ready;		/**< 1: built; 0: its creator is still building it */
	uint32_t owner_uid;	/**< owner of the shared-memory object */
	uint32_t mode;		/**< permission bits of the shared-memory object */
	uint32_t creator_uid;	/**< effective uid of the process that created it */
	int32_t creator_pid;	/**< process that created it */
	uint32_t n_attached;	/**< live processes attached (entries of attached[]) */
	int32_t attached[RTE_PMD_RIO_SIM_FABRIC_MAX_ATTACH];	/**< their pids */
	uint64_t size;		/**< bytes of the main segment */
	uint64_t seed;		/**< seed of the std route tables' reset contents */
	uint8_t timing;		/**< 1: latency modelled; 0: shared-memory transport */
	uint32_t hop_ns;	/**< switch crossing latency */
	uint32_t proc_ns;	/**< target processing time of a request */
	uint32_t resp_timeout_us;	/**< response timeout (reset value of the CSR) */
	uint32_t pw_repeat_us;	/**< port-write repeat period while pending */
	uint32_t mbox_entries;	/**< inbound mailbox ring slots ([fabric] mbox_entries) */
	uint32_t seg_bufs;	/**< inbound segment buffers per endpoint; 0: as many as needed */
};

/**
 * Describe fabric @p name from its header, without attaching to it: unlike
 * the functions above this never removes a fabric whose processes all died.
 * @param name  fabric name
 * @param[out] st  the fabric's description
 * @param err  buffer for a message saying why it failed (may be NULL)
 * @param errlen  size of @p err
 * @return 0, -ENOENT (no such fabric), -EACCES (cannot read it), -EINVAL (bad
 *   name), -EPROTO (not a fabric of this build's layout); err says why.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_stat(const char *name, struct rte_pmd_rio_sim_fabric_stat *st,
				char *err, size_t errlen);

/**
 * The directory of this user's fabrics: $XDG_RUNTIME_DIR/rio_sim when the
 * login session provides one, else /dev/shm/rio_sim-<euid> (see the rawdev
 * guide, Security). Fabric <name> is the object rio_sim.<name> in it, with
 * rio_sim.<name>.ep<N> for its claimed endpoints.
 * @param[out] buf  the directory path
 * @param len  size of @p buf
 * @return 0, -EINVAL, or -ENAMETOOLONG when the path does not fit @p len.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_dir(char *buf, size_t len);

/**
 * Names of the fabrics present in this user's directory, sorted.
 * @param names
 *   Filled with up to @p max names (may be NULL when @p max is 0).
 * @return the number of fabrics present (may exceed @p max), or -errno.
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_list(char (*names)[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN],
				unsigned int max);

/**
 * Where switch @p sw_name sends a packet for each device ID, as its model
 * decides (std: its entry, or the default port above the table limit;
 * cps1848 and rxs2448: domain then device table, their special values),
 * read without any maintenance transaction, so that nothing changes (not
 * even the route CSRs' selected entry).
 * @param ports
 *   ports[destid] = output port, RTE_RIO_INVALID_ROUTE (0xff) when the
 *   packet is dropped; filled for destid < @p n.
 * @param default_port
 *   If not NULL, the Route Default Port CSR (0x78) as the model holds it
 *   (its low byte).
 * @param name  fabric name
 * @param sw_name  switch name in the topology
 * @param n  entries of @p ports
 * @return number of entries of the table (256 or 65536), -ENOENT (fabric or
 *   device), -ENOTSUP (not a switch).
 */
__rte_experimental
int rte_pmd_rio_sim_fabric_route_table(const char *name, const char *sw_name, uint8_t *ports,
				       uint32_t n, uint8_t *default_port);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_RIO_SIM_FABRIC_H */
