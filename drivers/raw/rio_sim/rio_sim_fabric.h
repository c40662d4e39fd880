/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SIM_FABRIC_H
#define RIO_SIM_FABRIC_H

/*
 * Internal interface of the emulated fabric, shared by the files of the
 * rio_sim driver:
 *
 *   rio_sim_topology.c  topology files (rte_cfgfile) and built-in shapes
 *   rio_sim_fabric.c    shared-memory fabric: create, attach, detach
 *   rio_sim_port.c      links and port events: Port OK changes, EM port-writes
 *   rio_sim_lock.c      who is alive: attach slots, tokens, lock words, senders
 *   rio_sim_switch.c    device models, switch route tables, vendor registers
 *   rio_sim_config.c    per-device config space, maintenance routing, ackIDs
 *   rio_sim_timing.c    timing model: link rates, latency, response timeout
 *   rio_sim_engine.c    timing model: outbound messaging engines, segments, RETRY
 *   rio_sim_ep.c        claimed endpoints: claim, release, maintenance, statistics
 *   rio_sim_ep_tx.c     their senders: routes, peers' data segments (rio_sim_ep.h)
 *   rio_sim_ep_msg.c    their messages: mailboxes, send, receive
 *   rio_sim_ep_dbell.c  their doorbells and port-writes
 *   rio_sim_mgmt.c      public fabric-management API (rte_pmd_rio_sim_fabric.h)
 *   rio_sim_tool_api.c  inspection for tools: stat, list, route tables
 *   rio_sim_devargs.c   devargs of the vdev (rio_sim_devargs.h)
 *   rio_sim_rawdev.c    rawdev PMD: probe, remove, rawdev ops
 *   rio_sim_mport.c     the mport ops lib/rio calls
 *   rio_sim_xstats.c    the rawdev's xstats and dump
 *   rio_sim_selftest.c  the rawdev's selftest
 *
 * The last four (rio_sim_rawdev.h) are the only files that know DPDK rawdev.
 *
 * Errors are negative errno values; functions that can fail for a reason a
 * user must read also fill err[errlen] with one clear line.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "rte_rio.h"
#include "rio_driver.h"
#include "rio_sim_shm.h"
#include "rte_pmd_rio_sim_fabric.h"

/* Fill err[errlen] (if err is not NULL and errlen > 0); in rio_sim_topology.c. */
void sim_err(char *err, size_t errlen, const char *fmt, ...) __rte_format_printf(3, 4);

extern int rio_sim_logtype;
#define SIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, rio_sim_logtype, "rio_sim: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Topology (process-local, parsed)                                   */

struct sim_topo_dev {
	char name[SIM_NAME_MAX];
	uint8_t type;		/* enum sim_dev_type */
	uint8_t model;		/* enum sim_model */
	uint8_t model_set;	/* model named by the topology: no run-wide default */
	uint8_t nports;		/* endpoints: 1 or 2 */
	uint8_t is_host;	/* endpoint that enumerates */
	int32_t destid;		/* preset Base Device ID, -1: unset (reset value) */
	int32_t host_destid;	/* host endpoints: host device ID to use (default 0) */
	uint16_t vid, did, asm_vid, asm_did;
	uint32_t dev_rev;
	uint16_t asm_rev;
	uint8_t ids_set;	/* vid, did or dev_rev given in the topology */
	uint8_t lanes;		/* lanes per port, 0: the fabric's */
	uint8_t baud;		/* top lane rate (baud code), 0: the fabric's */
	int32_t rt_limit;	/* std switches: highest route table ID, -1: every ID */
};

struct sim_topo_link {
	uint32_t dev_a;
	uint8_t port_a;
	uint32_t dev_b;
	uint8_t port_b;
};

struct sim_topology {
	uint8_t devid_size;		/* 8 or 16 */
	uint32_t mbox_entries;		/* inbound ring slots, power of two */
	bool static_routes;		/* program routes from preset destids at creation */
	bool seed_set;			/* seed given: std route tables' reset contents */
	uint32_t seed;
	bool timing;			/* latency modelled (false: shared-memory transport) */
	uint32_t hop_ns;		/* switch crossing latency */
	uint32_t proc_ns;		/* target processing time of a request */
	uint32_t resp_timeout_us;	/* response timeout (Port Response Timeout reset value) */
	uint32_t pw_repeat_us;		/* port-write repeat period while pending */
	uint32_t seg_bufs;		/* inbound segment buffers per endpoint; 0: enough */
	uint8_t lanes;			/* default lanes per port */
	uint8_t baud;			/* default top lane rate (baud code) */
	uint32_t n_devs;
	uint32_t n_links;
	struct sim_topo_dev *devs;
	struct sim_topo_link *links;
	/* Name index (rio_sim_topology.c): device index + 1 per slot, 0 free; NULL: none. */
	uint32_t *name_index;
	uint32_t name_index_size;	/* slots, power of two */
};

/*
 * Run-wide default models: RIO_SIM_MODELS=<switch model>,<endpoint model>
 * (either may be omitted) gives every device whose topology names no model
 * that model instead of std or generic.
 */
#define SIM_MODELS_ENV	"RIO_SIM_MODELS"

/* Parse an INI topology file; on error *out is NULL and err says why. */
int sim_topology_parse_file(const char *path, struct sim_topology **out,
			    char *err, size_t errlen);
/* A built-in shape by name (see rio_sim_topology.c and the rawdev guide). */
int sim_topology_builtin(const char *shape, struct sim_topology **out,
			 char *err, size_t errlen);
void sim_topology_free(struct sim_topology *topo);
/* Stable hash of what the topology builds, to compare with a live fabric. */
uint64_t sim_topology_hash(const struct sim_topology *topo);
/* Index of a device by name, or -ENOENT. */
int sim_topology_find(const struct sim_topology *topo, const char *name);

/* ------------------------------------------------------------------ */
/* Device models and route tables (rio_sim_switch.c)                  */

struct sim_fabric;

/* Lane rates: Port n Control 2 baud codes (RapidIO 3.x Part 6). */
enum sim_baud {
	SIM_BAUD_1_25 = 1,
	SIM_BAUD_2_5 = 2,
	SIM_BAUD_3_125 = 3,
	SIM_BAUD_5_0 = 4,
	SIM_BAUD_6_25 = 5,
	SIM_BAUD_10_3125 = 6,
	SIM_BAUD_12_5 = 7,
};

/* Maintenance request sizes a device executes as a target (bit: 4, 8, 16, 32, 64 bytes). */
#define SIM_MAINT_4		(1u << 2)
#define SIM_MAINT_ALL		((1u << 2) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6))

struct sim_model_info {
	const char *name;
	uint8_t type;		/* enum sim_dev_type */
	uint16_t vid, did;	/* Device Identity CAR */
	uint32_t dev_rev;
	uint8_t fixed_ports;	/* ports of the part; 0: from the topology */
	uint8_t max_ports;
	uint8_t rmap;		/* LP-Serial register map (1, 2) */
	uint16_t phys_id;	/* extended feature ID of the LP-Serial block */
	uint8_t max_lanes;
	uint8_t max_baud;	/* enum sim_baud */
	uint8_t maint_sizes;	/* SIM_MAINT_* accepted as a target */
	bool ports_enabled;	/* input and output port enables set at reset */
	bool mport_4byte_only;	/* its mport issues 4-byte maintenance only */
};

/* Vendor registers the models give a value to (offsets). */
#define SIM_CPS_RTE_PORT_SEL	0x010070	/* 0: broadcast table, n + 1: port n's table */
#define SIM_CPS_RIO_DOMAIN	0xf20020
#define SIM_CPS_BC_DEV_TABLE	0xe00000
#define SIM_CPS_BC_DOM_TABLE	0xe00400
#define SIM_CPS_PORT_TABLES	0xe10000	/* + 0x1000 n: device, then domain table */
#define SIM_RXS_BC_L1_TABLE	0x30400
#define SIM_RXS_BC_L2_TABLE	0x31000
#define SIM_RXS_PORT_TABLES	0x50000	/* + 0x2000 n: L0, L1 at 0x400, L2 at 0x1000 */
#define SIM_RXS_PW_ROUTE	0x40208
#define SIM_RXS_PLM_CTL(n)	(0x10100 + 0x100 * (n))
#define  SIM_RXS_PLM_SOFT_RST	0x02000000u
#define SIM_RXS_PLM_PW_EN(n)	(0x10118 + 0x100 * (n))
#define  SIM_RXS_PW_EN_OK2U	0x40000000u
#define  SIM_RXS_PW_EN_LINIT	0x10000000u

const struct sim_model_info *sim_model_get(uint8_t model);
/* Model index of name @name for devices of @type, or -ENOENT. */
int sim_model_find(const char *name, uint8_t type);
/* The model names of a device type, for error messages. */
const char *sim_model_names(uint8_t type);

/* Route table of a switch (SIM_RT_ENTRIES(devid_size) entries), or NULL. */
uint16_t *sim_switch_rt(const struct sim_fabric *f, uint32_t dev_index);
/* Reset contents of a switch's route table and default port (std: from @seed). */
void sim_switch_reset_routes(struct sim_fabric *f, struct sim_shm_device *d, uint64_t seed);
/* Output port of switch @d for a packet to @destid, or -1: dropped. */
int sim_switch_route(const struct sim_fabric *f, const struct sim_shm_device *d,
		     uint16_t destid);
/* Route CSR 0x74 of @d for the ID selected in 0x70 (read, write). */
uint32_t sim_switch_rte_read(struct sim_fabric *f, struct sim_shm_device *d);
void sim_switch_rte_write(struct sim_fabric *f, struct sim_shm_device *d, uint32_t val);
/* Bits of a route value (default port CSR included) of the model. */
uint32_t sim_switch_default_mask(const struct sim_shm_device *d);
/* Raw table entry (SIM_RT_DEV_TABLE/SIM_RT_DOM_TABLE + index, or the ID on std). */
int sim_switch_table_read(const struct sim_fabric *f, const struct sim_shm_device *d,
			  uint32_t entry, uint32_t *val);
int sim_switch_table_write(struct sim_fabric *f, const struct sim_shm_device *d,
			   uint32_t entry, uint32_t val);
/* Slot in impl[] of a vendor register of @model, or -1. */
int sim_impl_slot(uint8_t model, uint32_t off);
/* Is @off a broadcast register of @model? Then the slots it writes. */
bool sim_impl_bcast(uint8_t model, uint32_t off, uint32_t *first, uint32_t *count);
/* Reset values of the vendor registers of @d's model. */
void sim_impl_reset(struct sim_shm_device *d);

/* ------------------------------------------------------------------ */
/* Timing model (rio_sim_timing.c)                                    */

/*
 * The links a packet crosses, in order: each named by its transmitting port
 * (SIM_LINK()), with the serialization time of a byte on it.
 */
#define SIM_PATH_MAX		(SIM_MAX_HOPS + 1)
#define SIM_LINK(dev, port)	((uint32_t)(dev) << 5 | (uint32_t)(port))
#define SIM_LINK_DEV(link)	((link) >> 5)
#define SIM_LINK_PORT(link)	((link) & 31u)
struct sim_path {
	uint32_t n;				/* links */
	uint32_t link[SIM_PATH_MAX];
	uint32_t ps_per_byte[SIM_PATH_MAX];	/* picoseconds per byte on each link */
};

/*
 * What a transaction costs in time. A path accumulates, for every link a
 * packet crosses, its serialization at the link's rate and, for every
 * switch, the crossing latency; the target adds its processing time.
 * Messages and doorbells record the links instead (rec) and reserve them
 * (sim_path_carry()).
 */
struct sim_path_time {
	uint64_t ns;
	uint32_t bytes;		/* wire bytes of the packet being routed */
	bool probe;		/* look only: no packet counted, no ackID moved */
	struct sim_path *rec;	/* if set, the links crossed are recorded */
};

/* Bytes on the wire of a packet: @hdr header bytes (transport and logical), @payload. */
uint32_t sim_pkt_wire_bytes(uint8_t devid_size, uint32_t hdr, uint32_t payload);
/* Bytes of the device IDs of a packet's transport header (destination and source). */
#define SIM_IDS_BYTES(devid_size)	(2u * ((devid_size) == 16 ? 2u : 1u))
/*
 * Header bytes of packets (their physical, transport and logical fields):
 * maintenance requests and responses, type 11 message segments, type 10
 * doorbells and type 13 responses (RapidIO Part 1, Part 2, Part 3).
 */
#define SIM_MAINT_HDR(devid_size)	(8u + SIM_IDS_BYTES(devid_size))
#define SIM_MSG_HDR(devid_size)		(4u + SIM_IDS_BYTES(devid_size))
#define SIM_DBELL_HDR(devid_size)	(6u + SIM_IDS_BYTES(devid_size))
#define SIM_RSP_HDR(devid_size)		(4u + SIM_IDS_BYTES(devid_size))
/* Message segments: ssize 256, so a message of up to 4096 bytes is 1 to 16 of them. */
#define SIM_MSG_SEG_SIZE	256u
#define SIM_MSG_MAX_SEGS	(RTE_RIO_MAX_MSG_SIZE / SIM_MSG_SEG_SIZE)

/*
 * Packets carried back to back: n of @bytes wire bytes each, the last one
 * of @last_bytes (a message's segments, or their responses).
 */
struct sim_burst {
	uint32_t n;
	uint32_t bytes;
	uint32_t last_bytes;
};
/* The segments of a message of @len payload bytes (a multiple of 8), and their responses. */
void sim_msg_bursts(uint8_t devid_size, uint32_t len, struct sim_burst *req,
		    struct sim_burst *rsp);
/*
 * Carry burst @b along @p, its first packet ready at @t (@now or later):
 * every link's transmitter is charged with the burst's serialization
 * (shared with every other sender: no stream exceeds a link's rate) and a
 * switch forwards a packet @hop_ns after it has received it. @return when
 * the last packet has arrived at the end of the path.
 */
uint64_t sim_path_carry(struct sim_fabric *f, const struct sim_path *p, uint64_t hop_ns,
			uint64_t now, uint64_t t, const struct sim_burst *b);
/* Data rate of a port after line coding, bits per second (0: link down). */
uint64_t sim_port_rate_bps(const struct sim_fabric *f, uint32_t dev_index, uint8_t port);
/* Time for @bytes to cross the link of (dev, port). */
uint64_t sim_link_ns(const struct sim_fabric *f, uint32_t dev_index, uint8_t port,
		     uint32_t bytes);
/* Response timeout of a request from endpoint @dev_index (its Port Response Timeout CSR). */
uint64_t sim_resp_timeout_ns(const struct sim_fabric *f, uint32_t dev_index);
/* CLOCK_MONOTONIC now, in ns. */
uint64_t sim_now_ns(void);
/* Wait until CLOCK_MONOTONIC reaches @deadline_ns. */
void sim_wait_until(uint64_t deadline_ns);
/* Baud code of a lane rate in Gbaud ("5", "6.25", ...), or -EINVAL. */
int sim_baud_parse(const char *s);
/* "5.0", "10.3125", ... for a baud code. */
const char *sim_baud_name(uint8_t baud);

/* ------------------------------------------------------------------ */
/* Outbound messaging engines (rio_sim_engine.c)                      */

/*
 * The timing of what an outbound mailbox (or an endpoint's doorbell
 * sender) puts on the fabric: segments, responses, letters and descriptors
 * in flight. Used only when the fabric's timing model is on; one thread per
 * engine.
 */
struct sim_engine;
struct sim_engine_peer;

/*
 * An engine of endpoint device @dev_index with @entries descriptors; it
 * counts the segments it resends after RETRY in *@seg_retries.
 */
struct sim_engine *sim_engine_create(struct sim_fabric *f, uint32_t dev_index,
				     uint32_t entries, uint64_t *seg_retries);
void sim_engine_free(struct sim_engine *e);
/*
 * Descriptors free at @now (completed messages give theirs back); 0 while
 * the response to a refused message is awaited.
 */
uint32_t sim_engine_admit(struct sim_engine *e, uint64_t now);
/* Messages completed (response to their last segment back) since the last call. */
uint64_t sim_engine_completions(struct sim_engine *e, uint64_t now);
/*
 * State towards target endpoint @t that answers to @destid, its paths
 * current (our device ID @own receives the responses); NULL when no path
 * leads there.
 */
struct sim_engine_peer *sim_engine_peer(struct sim_engine *e, uint32_t t, uint16_t destid,
					uint16_t own);
/* Does a response from peer @p find its way back to us? */
bool sim_engine_peer_answers(const struct sim_engine_peer *p);
/*
 * A message of @len bytes (multiple of 8) with @letter, posted at @now:
 * accepted, it takes a descriptor until its last response is back (the
 * caller checked that one is free); when no response can come back
 * (sim_engine_peer_answers()), it takes none and the caller fails it at
 * sim_engine_timeout_at(), taken before. @return when its last segment
 * arrives at the target.
 */
uint64_t sim_engine_send(struct sim_engine *e, struct sim_engine_peer *p, uint64_t now,
			 uint8_t letter, uint32_t len);
/* A message refused with RETRY or ERROR: the engine waits for that response. */
void sim_engine_refused(struct sim_engine *e, struct sim_engine_peer *p, uint64_t now,
			uint8_t letter, uint32_t len);
/* When a request posted at @now and never answered fails: its response timeout. */
uint64_t sim_engine_timeout_at(const struct sim_engine *e, uint64_t now);
/*
 * A doorbell posted at @now: when it arrives, and when its response is back
 * (0: none comes back).
 */
void sim_engine_doorbell(struct sim_engine *e, struct sim_engine_peer *p, uint64_t now,
			 uint64_t *arrival, uint64_t *done);

/* ------------------------------------------------------------------ */
/* Fabric (rio_sim_fabric.c)                                          */

struct sim_ep;

/* This process's mapping of one fabric; shared by every mport on it. */
struct sim_fabric {
	TAILQ_ENTRY(sim_fabric) next;
	char name[SIM_NAME_MAX];
	unsigned int refcnt;		/* process-local users (mports, tools) */
	struct sim_shm_hdr *hdr;
	size_t size;
	/* Validated local copies: never re-read sizes from shared memory. */
	uint32_t n_devices;
	uint32_t n_endpoints;
	uint8_t devid_size;
	uint32_t mbox_entries;
	struct sim_shm_device *devs;
	struct sim_shm_endpoint *eps;
	uint8_t *rt_base;
	bool timing;			/* the timing model is on (hdr->timing, fixed at creation) */
	bool creator;
	/* Permissions of the main segment, given to the endpoints' data segments too. */
	uint32_t shm_mode;		/* SIM_SHM_MODE or SIM_SHM_MODE_GROUP */
	uint32_t shm_gid;
	bool group_access;		/* segments of other uids of shm_gid are accepted */
	int fd;				/* main segment, open while mapped: holds our attach slot */
	int dir_fd;			/* the directory of its objects (sim_fabric_user_dir()) */
	char dir[SIM_DIR_MAX];
	uint32_t token;			/* ours on this fabric (rio_sim_shm.h), 0: none */
	uint64_t instance;		/* the fabric's, read once when it was READY */
	uint32_t pw_sender;		/* sender record of our port-writes, 0: none yet */
	rte_spinlock_t pw_lock;		/* one port-write at a time through that record */
};

/*
 * Attach to fabric @name, creating it from @topo if it does not exist
 * (@topo NULL: the built-in "default" shape). If it exists and @topo is
 * given, the topology must match. Mode is 0600 unless @group_access.
 * Attaching twice in one process returns the same handle (refcounted).
 */
struct sim_fabric *sim_fabric_attach(const char *name, const struct sim_topology *topo,
				     bool group_access, char *err, size_t errlen);
/* Drop a reference; the last live process to detach removes every segment. */
void sim_fabric_detach(struct sim_fabric *f);
/*
 * Where fabrics live: the objects of a fabric are "rio_sim.<fabric>" and
 * "rio_sim.<fabric>.ep<N>" in a directory only its user can write,
 * $XDG_RUNTIME_DIR/rio_sim when the login session provides one, else
 * /dev/shm/rio_sim-<euid> (sim_fabric_user_dir()), made 0700 by the first
 * user of it; with group access, /dev/shm/rio_sim-g<gid> (03770) of the
 * group. A path there that is not what it must be is refused: so nobody
 * else can choose our objects, or make them before we do.
 */
void sim_fabric_user_dir(char *buf, size_t len);
/*
 * Open the directory that holds fabric @name, or where it is to be created
 * (@create, which creates the directory too): the user's, or with
 * @group_access the first of our groups' that holds it, else our effective
 * group's. An fd with its path in path[plen], or -errno with err filled
 * (-ENOENT: not there).
 */
int sim_fabric_dir_find(const char *name, bool group_access, bool create, char *path,
			size_t plen, char *err, size_t errlen);
/* Open or remove object @obj of f's directory (openat()/unlinkat() flags). */
int sim_fabric_obj_open(const struct sim_fabric *f, const char *obj, int flags, mode_t mode);
int sim_fabric_obj_unlink(const struct sim_fabric *f, const char *obj);
/* Objects of this user's fabric @name in its directory: count, or remove (@remove). */
int sim_fabric_objects(const char *name, bool remove);
/* Name of the data segment of endpoint @ep_index in the fabric's directory. */
void sim_fabric_data_name(const struct sim_fabric *f, uint32_t ep_index, char *buf, size_t len);
/*
 * Remove the data segment of endpoint @ep_index if it belongs to this
 * fabric: the object its owner recorded in the endpoint (device and inode),
 * or one whose header carries this fabric's instance. Unless @only_ours,
 * also when it belongs to no fabric we could still meet (garbage, or a
 * leftover of an earlier fabric of the same name while the main segment at
 * the name is still ours). true when it was removed or did not exist.
 */
bool sim_fabric_data_unlink(const struct sim_fabric *f, uint32_t ep_index, bool only_ours);
/* Remove all segments of a fabric by name whoever uses it (tools, tests). */
int sim_fabric_destroy(const char *name);
/* Index of a device by name (or "#<index>"), or -ENOENT. */
int sim_fabric_find_device(const struct sim_fabric *f, const char *name);
/* Device by index, or NULL if out of range. */
static inline struct sim_shm_device *
sim_fabric_dev(const struct sim_fabric *f, uint32_t index)
{
	if (f == NULL || index >= f->n_devices)
		return NULL;
	return &f->devs[index];
}
/*
 * Packets sent (tx) or received on port @port of device @dev_index: the
 * port's counters plus, for port 0 of an endpoint, the message counters of
 * its endpoint (struct sim_shm_endpoint). 0 for a bad index.
 */
uint64_t sim_port_pkts(const struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool tx);
/*
 * May this process use a shared-memory object (fstat of it)? Its mode must be
 * SIM_SHM_MODE or SIM_SHM_MODE_GROUP and its owner our euid or, when
 * @group_access, any uid if the mode is SIM_SHM_MODE_GROUP and its group one
 * of ours. 0, or -EACCES with the reason in why[len] (no fabric name).
 */
struct stat;
int sim_shm_check_access(const struct stat *st, bool group_access, char *why, size_t len);

/*
 * Open a fabric: SIM_OPEN_ANY attaches or creates it (as sim_fabric_attach),
 * SIM_OPEN_CREATE fails with -EEXIST if it exists, SIM_OPEN_ATTACH fails with
 * -ENOENT if it does not.
 */
enum sim_open_mode {
	SIM_OPEN_ANY = 0,
	SIM_OPEN_CREATE = 1,
	SIM_OPEN_ATTACH = 2,
};
struct sim_fabric *sim_fabric_open(const char *name, const struct sim_topology *topo,
				   enum sim_open_mode mode, bool group_access,
				   char *err, size_t errlen);
/* Does a fabric of that name exist (its main segment)? */
bool sim_fabric_exists(const char *name);

/* ------------------------------------------------------------------ */
/* Links and port events (rio_sim_port.c)                             */

/* Port OK: physical link up, peer present, neither end disabled. */
static inline bool
sim_port_ok(const struct sim_fabric *f, uint32_t dev_index, uint8_t port)
{
	const struct sim_shm_device *d = sim_fabric_dev(f, dev_index), *pd;
	const struct sim_shm_port *p;
	int32_t peer;

	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS))
		return false;
	p = &d->ports[port];
	peer = p->peer_dev;
	pd = peer >= 0 ? sim_fabric_dev(f, (uint32_t)peer) : NULL;
	if (pd == NULL || p->peer_port >= RTE_MIN(pd->nports, SIM_MAX_PORTS))
		return false;
	if (!__atomic_load_n(&p->link_up, __ATOMIC_RELAXED) ||
	    !__atomic_load_n(&pd->ports[p->peer_port].link_up, __ATOMIC_RELAXED))
		return false;
	if ((__atomic_load_n(&p->ctl, __ATOMIC_RELAXED) |
	     __atomic_load_n(&pd->ports[p->peer_port].ctl, __ATOMIC_RELAXED)) &
	    RTE_RIO_PORT_N_CTL_DISABLE)
		return false;
	return true;
}

/*
 * Physical link of (dev, port) up or down, both ends. Switches with an error
 * management block send a port-write to their port-write target.
 */
int sim_fabric_link_set(struct sim_fabric *f, uint32_t dev_index, uint8_t port, bool up);
/*
 * A port's Port OK state changed or may have changed (link, disable): bump
 * route_gen and, if it did change, latch the EM event and send the switch's
 * error-management port-write. @was_ok: sim_port_ok() before the change.
 */
void sim_fabric_port_event(struct sim_fabric *f, uint32_t dev_index, uint8_t port,
			   bool was_ok);
/*
 * A link-level error at (dev, port): latch @bits in its EM Port n Error
 * Detect CSR and, on a switch, send its port-write (the ackID mismatch of
 * an error-stopped port: software must recover the link).
 */
void sim_fabric_port_error(struct sim_fabric *f, uint32_t dev_index, uint8_t port,
			   uint32_t bits);
/* EM Port n Error Detect bits of an ackID mismatch (RapidIO Part 8). */
#define SIM_EM_PED_PNA_RX	0x00100000u	/* packet-not-accepted received */
#define SIM_EM_PED_UNEXP_ACKID	0x00080000u	/* packet with unexpected ackID */
/*
 * Send again the port-writes of ports whose Port-write Pending is still set
 * once their repeat period is over (called by the endpoints that fetch
 * port-writes: the fabric has no clock of its own).
 */
void sim_fabric_pw_tick(struct sim_fabric *f);
/*
 * How a switch's port-write reaches the endpoint with Base Device ID
 * @destid: set by the endpoint layer (sim_pw_deliver()); until then, and
 * in a process without it, port-writes are dropped as on a fabric without
 * the target.
 */
typedef int (*sim_port_write_handler_t)(struct sim_fabric *f, uint32_t src_dev, uint16_t destid,
					 const uint32_t *payload, uint32_t len);
void sim_port_write_handler_set(sim_port_write_handler_t handler);

/* ------------------------------------------------------------------ */
/* Who is alive (rio_sim_lock.c)                                      */

/*
 * A name read from shared memory (a fabric's header, a device), for a
 * message: at most SIM_NAME_MAX - 1 characters, each one that is not
 * printable ASCII shown as '?' (anyone who can write the fabric wrote it).
 */
void sim_shm_name_print(char *dst, size_t len, const char *src);

/* CLOCK_MONOTONIC in microseconds (no EAL needed: tools use the fabric too). */
static inline uint64_t
sim_now_us(void)
{
	return sim_now_ns() / 1000;
}
void sim_sleep_us(unsigned int us);

/*
 * Every bounded wait of the driver (a lock, a creator finishing a fabric, a
 * sender leaving a ring) lasts sim_wait_ms(its limit): at most
 * sim_wait_cap_ms. Only the fuzz targets lower the cap (UINT_MAX): an image
 * whose lock word names a live holder would cost them a second an input.
 */
extern unsigned int sim_wait_cap_ms;
unsigned int sim_wait_ms(unsigned int ms);

/*
 * Short shared lock (config space, claims). 0, or -ETIMEDOUT (logged) when
 * another live process held it for a second: a stopped holder, or
 * a lock word that someone scribbled over. A holder that is gone is taken
 * over at once.
 */
int sim_lock(struct sim_fabric *f, struct sim_shm_lock *l) __rte_warn_unused_result;
void sim_unlock(struct sim_fabric *f, struct sim_shm_lock *l);
/* The attach lock (attach table, fabric state), on the main segment's fd. */
int sim_fabric_table_lock(int fd, const char *name);
void sim_fabric_table_unlock(int fd);
/* Take a free attach slot (attach lock held): sets f->token. 0 or -EUSERS. */
int sim_attach_take(struct sim_fabric *f);
void sim_attach_release(struct sim_fabric *f);
/*
 * Processes attached to the fabric of @f through @fd (any open fd of its
 * main segment; f->fd may be unset): how many, and the pids they recorded
 * (up to max, information only).
 */
unsigned int sim_attach_count(const struct sim_fabric *f, int fd, int32_t *pids,
			      unsigned int max);
/* Is the process known by @token still attached? Ours always is. */
bool sim_token_alive(const struct sim_fabric *f, uint32_t token);
/* The pid the process of @token recorded (in its own PID namespace), 0 if none. */
int32_t sim_token_pid(const struct sim_fabric *f, uint32_t token);
/* A sender record for this process (index + 1), or 0 when none is free (logged). */
uint32_t sim_sender_get(struct sim_fabric *f);
void sim_sender_put(struct sim_fabric *f, uint32_t id);
/* Does a live sender claim slots of ring @ring (sim_ring_id()) right now? */
bool sim_sender_claiming(const struct sim_fabric *f, uint32_t ring);

static __rte_always_inline struct sim_shm_sender *
sim_sender(const struct sim_fabric *f, uint32_t id)
{
	return &f->hdr->senders[id - 1];
}

/* About to claim slots of ring @ring: the release CAS of the claim orders this first. */
static __rte_always_inline void
sim_sender_start(struct sim_shm_sender *s, uint32_t ring)
{
	__atomic_store_n(&s->ring, ring + 1, __ATOMIC_RELAXED);
}

/* Every slot claimed is published: pairs with the acquire in sim_sender_claiming(). */
static __rte_always_inline void
sim_sender_done(struct sim_shm_sender *s)
{
	__atomic_store_n(&s->ring, 0, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------ */
/* Config space and maintenance routing (rio_sim_config.c)            */

/* Ingress port value for an access from the device's own processor. */
#define SIM_PORT_LOCAL	0xff

/* Execute a config read/write on a device as the target of maintenance. */
int sim_config_read(struct sim_fabric *f, uint32_t dev_index, uint8_t ingress_port,
		    uint32_t offset, int len, uint32_t *val);
int sim_config_write(struct sim_fabric *f, uint32_t dev_index, uint8_t ingress_port,
		     uint32_t offset, int len, uint32_t val);

/*
 * Route a packet leaving (src_dev, src_port) for destid. Maintenance
 * (maint = true) is consumed at the first switch where hopcount is 0, or at
 * the first endpoint; other packets follow route tables to the endpoint whose
 * Base Device ID equals destid. Returns 0 with the target device and the port
 * it arrived on, or -ETIMEDOUT when the packet is dropped (no route, link
 * down, port locked out or disabled, wrong destination, routing loop).
 */
int sim_route(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
	      uint8_t hopcount, bool maint, uint32_t *dst_dev, uint8_t *ingress_port);

/*
 * The path of a message or doorbell (@response false) or of a response to
 * one (true) from endpoint @src_dev to @destid, looked up without sending
 * anything: 0 with the endpoint reached and the links in @path, or
 * -ETIMEDOUT (-EACCES: no Master Enable for a request).
 */
int sim_path_probe(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, bool response,
		   uint32_t *dst_dev, struct sim_path *path);

/* Maintenance transaction from an endpoint: route then read or write. */
int sim_maint(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
	      bool write, uint32_t offset, int len, uint32_t *val);


/*
 * Multi-word maintenance (len 8..64, offset 8-byte aligned): one transaction.
 * Both maintenance calls return when the modelled transaction is over: 0,
 * -EIO (ERROR response: a size or register the target refuses), -ETIMEDOUT
 * (request or response dropped, after the requester's response timeout),
 * -EACCES (the requester has no Master Enable: nothing is sent), -EINVAL (a
 * size its mport cannot issue: 1 and 2 bytes, or not 4 on a tsi721).
 */
int sim_maint_block(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint8_t hopcount,
		    bool write, uint32_t offset, int len, uint32_t *words);

/* Port a (dual-port) endpoint sends out of: its first port whose link is OK. */
uint8_t sim_ep_tx_port(const struct sim_fabric *f, uint32_t dev_index);

/*
 * Route a port-write from device @src_dev to @destid (maintenance class:
 * any endpoint takes it). 0 with the target endpoint device and its
 * ingress port, or -ETIMEDOUT.
 */
int sim_pw_route(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, uint32_t *dst_dev,
		 uint8_t *ingress_port);

/* Program standard routes for preset device IDs (static_routes topologies). */
int sim_config_static_routes(struct sim_fabric *f);

/* Reset values of a device's config space from its topology entry. */
void sim_config_init_device(struct sim_fabric *f, struct sim_shm_device *dev,
			    const struct sim_topo_dev *td, const struct sim_topology *topo);

/* ------------------------------------------------------------------ */
/* Endpoints (rio_sim_ep.c)                                           */

struct sim_ep_stats {
	uint64_t msg_tx, msg_tx_retry, msg_tx_error, msg_tx_bytes;
	uint64_t msg_tx_segs;		/* segments of the messages sent (16 at most each) */
	uint64_t msg_tx_busy;		/* timing model: refused, every descriptor in flight */
	uint64_t msg_tx_seg_retry;	/* timing model: segments resent after RETRY */
	uint64_t msg_rx, msg_rx_bytes, msg_rx_bad;
	uint64_t msg_rx_too_long;	/* longer than the declared receive buffer size */
	uint64_t dbell_tx, dbell_tx_retry, dbell_tx_error, dbell_rx;
	uint64_t maint_tx, maint_error;
	uint64_t pw_rx;
	uint64_t msg_rx_bad_index;	/* producer heads found outside the ring, repaired */
	uint64_t dbell_rx_bad;		/* bad doorbell slots skipped, heads repaired */
	uint64_t pw_rx_bad;		/* same for port-writes */
	uint64_t msg_rx_held_dead;	/* received in place by a process that is gone, taken back */
	/* Next message written by a live sender that stopped half way (> 1 ms), waited for. */
	uint64_t msg_rx_wait_sender;
	/* Memory transactions: packets sent, their payload bytes, failed transfers. */
	uint64_t mem_tx_pkts, mem_tx_bytes, mem_tx_error;
	/* Memory packets received into the inbound windows, and refused (owner only). */
	uint64_t mem_rx_pkts, mem_rx_refused;
};

/* Claim endpoint @ep_index for this process (reclaims one whose owner died). */
struct sim_ep *sim_ep_claim(struct sim_fabric *f, uint32_t ep_index, char *err, size_t errlen);
/* Close its mailboxes, remove its data segment, give up ownership. */
void sim_ep_release(struct sim_ep *ep);
uint32_t sim_ep_dev_index(const struct sim_ep *ep);

/*
 * DPDK multi-process. The primary claims the endpoint and shares its
 * receive state with sim_ep_share() (area: sim_ep_shared_size() bytes of
 * DPDK shared memory, before any inbound mailbox opens). A secondary makes
 * its own view with sim_ep_attach(): it maps the endpoint's data segment at
 * the primary's address, polls the inbound mailboxes the primary opened
 * (one consumer per mailbox at a time, in any process), sends with state
 * of its own, and leaves doorbells and port-writes to the primary. Its
 * sim_ep_release() only unmaps.
 */
size_t sim_ep_shared_size(void);
int sim_ep_share(struct sim_ep *ep, void *area);
const char *sim_ep_shared_fabric(const void *area);
struct sim_ep *sim_ep_attach(struct sim_fabric *f, void *area, char *err, size_t errlen);
bool sim_ep_is_owner(const struct sim_ep *ep);
struct sim_fabric *sim_ep_fabric(const struct sim_ep *ep);

/* Maintenance from @ep, counted in its statistics: one word, or 8 to 64 bytes. */
int sim_ep_maint(struct sim_ep *ep, uint16_t destid, uint8_t hopcount, bool write,
		 uint32_t offset, int len, uint32_t *val);
int sim_ep_maint_block(struct sim_ep *ep, uint16_t destid, uint8_t hopcount, bool write,
		       uint32_t offset, int len, uint32_t *words);

int sim_ep_dsend(struct sim_ep *ep, uint16_t destid, uint16_t info);
int sim_ep_dbell_fetch(struct sim_ep *ep, struct rte_rio_dbell *dbells, uint16_t n);
/*
 * The endpoint takes @depth more doorbells than it has fetched now, and
 * answers RETRY past them; fetching does not move that limit (a device
 * that queues doorbells elsewhere sets it again when its queue has room).
 * SIM_DBELL_RING_SIZE (the default): no limit but the ring. Owner only.
 */
int sim_ep_set_dbell_depth(struct sim_ep *ep, uint32_t depth);
/*
 * Inbound mailboxes (bit m of @mask) that take a message only into a
 * buffer posted for it, and answer RETRY when none is left (a message in
 * the ring holds one already). Owner only.
 */
int sim_ep_set_mbox_posted(struct sim_ep *ep, uint32_t mask);
uint32_t sim_ep_mbox_posted(const struct sim_ep *ep);
/* RETRY responses the endpoint answered: doorbells and messages (shared counters). */
uint64_t sim_ep_retries_answered(const struct sim_ep *ep);

int sim_ep_open_inb_mbox(struct sim_ep *ep, uint8_t mbox, uint32_t entries);
void sim_ep_close_inb_mbox(struct sim_ep *ep, uint8_t mbox);
int sim_ep_open_outb_mbox(struct sim_ep *ep, uint8_t mbox, uint32_t entries);
void sim_ep_close_outb_mbox(struct sim_ep *ep, uint8_t mbox);
uint16_t sim_ep_send(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n);
int64_t sim_ep_outb_completion(struct sim_ep *ep, uint8_t mbox);
int sim_ep_set_inb_buf_size(struct sim_ep *ep, uint8_t mbox, uint16_t size);
uint16_t sim_ep_add_inb_buffers(struct sim_ep *ep, uint8_t mbox, void * const *bufs,
				uint16_t n);
uint16_t sim_ep_recv(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n);
uint16_t sim_ep_recv_inplace(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs,
			     struct rte_mbuf_ext_shared_info **shinfo, uint16_t n);

int sim_ep_pw_fetch(struct sim_ep *ep, struct rte_rio_pw_msg *msgs, uint16_t n);
/* Deliver a port-write to the endpoint with Base Device ID @destid (used by switches). */
int sim_pw_deliver(struct sim_fabric *f, uint32_t src_dev, uint16_t destid,
		   const uint32_t *payload, uint32_t len);

/*
 * Memory space (rio_sim_ep_mem.c). An inbound window adopts the pages of
 * the owner's buffer: @local page-aligned, @size a multiple of the page.
 * sim_ep_mem_xfer() runs the packets of one transaction (legal packets,
 * lib/rio checked them) and returns when it is over.
 */
int sim_ep_map_inb_window(struct sim_ep *ep, void *local, uint64_t rio_addr, uint64_t size);
int sim_ep_unmap_inb_window(struct sim_ep *ep, uint64_t rio_addr);
int sim_ep_mem_xfer(struct sim_ep *ep, enum rte_rio_mem_type type, uint16_t destid,
		    const struct rte_rio_mem_pkt *pkts, uint16_t n);
/* Name of the segment of window @k of endpoint @ep_index. */
void sim_fabric_win_name(const struct sim_fabric *f, uint32_t ep_index, uint32_t k, char *buf,
			 size_t len);
/* Remove the window segments of endpoint @ep_index its entries name (device and inode). */
void sim_fabric_win_unlink(const struct sim_fabric *f, uint32_t ep_index);

void sim_ep_stats_get(const struct sim_ep *ep, struct sim_ep_stats *st);
void sim_ep_stats_reset(struct sim_ep *ep);

#endif /* RIO_SIM_FABRIC_H */
