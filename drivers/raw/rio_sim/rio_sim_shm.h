/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SIM_SHM_H
#define RIO_SIM_SHM_H

/*
 * Shared-memory layout of an emulated RapidIO fabric. This file is the only
 * definition of what lives in shared memory; everything here is read by
 * several processes and nothing read from it is trusted: indices, lengths and
 * offsets are range-checked against process-local copies before use.
 *
 * Main segment "/rio_sim.<fabric>":
 *
 *   +---------------------------+ 0
 *   | struct sim_shm_hdr        |
 *   +---------------------------+ hdr.dev_off
 *   | struct sim_shm_device[n]  |  every endpoint and switch
 *   +---------------------------+ hdr.ep_off
 *   | struct sim_shm_endpoint[] |  ownership, doorbell and port-write rings
 *   +---------------------------+ hdr.rt_off
 *   | route tables              |  SIM_RT_ENTRIES(devid_size) uint16_t per switch
 *   +---------------------------+ hdr.total_size
 *
 * Data segment "/rio_sim.<fabric>.ep<index>", created by the endpoint's owner
 * when it claims the endpoint (so a large fabric costs nothing per idle
 * endpoint): struct sim_shm_data_hdr then RTE_RIO_MAX_MBOX inbound mailbox
 * rings of hdr.mbox_entries slots each. A mailbox ring is its header, the
 * slots (SIM_SLOT_SIZE bytes: message header and the first SIM_SLOT_INLINE
 * bytes of the message), then one overflow block per slot for the rest of a
 * longer message (SIM_SLOT_OVF_SIZE bytes each). A frame of a standard
 * Ethernet MTU thus lies in one contiguous run of lines, and a stream of
 * them in a dense array: 1024 slots are 1.6 MiB (a page per 2.5 messages),
 * where slots holding whole 4096-byte messages would take 4 MiB and a new
 * page per message.
 *
 * Window segment "/rio_sim.<fabric>.ep<index>.w<k>": the memory behind
 * inbound window k of the endpoint (struct sim_shm_window says where it
 * sits in RapidIO address space). Its owner maps it over the application's
 * buffer, so that what other processes write into the window is what the
 * application reads there; initiators map it to serve their NREAD, NWRITE,
 * NWRITE_R and SWRITE packets.
 *
 * Rings are bounded multi-producer single-consumer queues with a sequence
 * number per slot (producers claim slots by CAS on prod_head, fill them and
 * publish with a release store of the slot's seq; the consumer frees a slot
 * by storing seq + size). A full ring is a RETRY for the sender.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include "rte_rio.h"

#define SIM_OBJ_PREFIX		"rio_sim."	/* objects in the fabric's directory */
#define SIM_DIR_MAX		256	/* path of that directory */
#define SIM_SHM_MAGIC		0x52494f53494d4642ull	/* "RIOSIMFB" */
#define SIM_SHM_DATA_MAGIC	0x52494f53494d4450ull	/* "RIOSIMDP" */
/*
 * 4: messages up to SIM_SLOT_INLINE (1536) bytes inline in the slot;
 * 5: device models, two-level route tables, ackIDs, timing parameters;
 * 6: kernel-tracked attach slots and tokens instead of pids, sender records;
 *    message timing (link reservations, arrival times).
 * 8: inbound memory windows of the endpoints (struct sim_shm_window).
 */
#define SIM_SHM_VERSION		8
#define SIM_SHM_MODE		0600	/* every segment, by default */
#define SIM_SHM_MODE_GROUP	0660	/* group=1: the creator's group joins too */
#define SIM_NAME_MAX		32	/* fabric and device names, with NUL */
#define SIM_MAX_PORTS		32	/* ports per device */
#define SIM_MAX_DEVICES		16384
#define SIM_MAX_ATTACH		64	/* processes attached at once */
#define SIM_MAX_SENDERS		1024	/* sender records (struct sim_shm_sender) */
#define SIM_MAX_HOPS		64	/* longer paths are routing loops */
#define SIM_DBELL_RING_SIZE	256
#define SIM_PW_RING_SIZE	32
/* Inbound segment buffers of an endpoint at most ([fabric] seg_bufs). */
#define SIM_SEG_BUFS_MAX	16
/*
 * Inbound ring slots by default: as deep as net_memif's default ring. Two
 * testpmd processes streaming 1500-byte frames (devtools/bench.sh pair, 2
 * cores) received at most about 6.7 Mpps with 256 slots and 11 to 13.6 with
 * 1024: a deeper ring rides out the receiver's short stalls (a preempted
 * poll) without refusing the sender. Slots are
 * SIM_SLOT_SIZE bytes plus an overflow block, so an owned endpoint maps
 * 4 x 1024 x 4160 bytes (pages are touched as they are first used).
 */
#define SIM_MBOX_ENTRIES_DEF	1024
#define SIM_MBOX_ENTRIES_MAX	4096
/* Limits of the timing parameters ([fabric] keys of the topology). */
#define SIM_HOP_NS_MAX		1000000u	/* hop_latency */
#define SIM_PROC_NS_MAX		10000000u	/* response_latency */
#define SIM_RESP_TIMEOUT_US_MAX	60000000u	/* response_timeout, at least 1 */
#define SIM_PW_REPEAT_US_MAX	60000000u	/* pw_repeat, at least 1 */
#define SIM_SLOT_HDR_SIZE	64
/*
 * Message bytes kept in the slot itself: a 1518-byte Ethernet frame (MTU 1500
 * with a VLAN tag) fits, in one contiguous run of lines after its header. The
 * slot is then 25 cache lines, an odd stride that spreads the slots' header
 * lines over every cache set. A 1500-byte frame stream forwarded by one
 * testpmd went from a median 7.7 to 8.4 Mpps against 192 inline bytes and
 * the rest in the overflow block (doc/guides/perf).
 */
#define SIM_SLOT_INLINE		1536
#define SIM_SLOT_SIZE		(SIM_SLOT_HDR_SIZE + SIM_SLOT_INLINE)
#define SIM_SLOT_OVF_SIZE	(RTE_RIO_MAX_MSG_SIZE - SIM_SLOT_INLINE)

/* Offsets of the emulated extended-feature blocks. */
#define SIM_PHYS_EFPTR		0x0100	/* LP-Serial block, always first */
#define SIM_EM_EFPTR		0x1000	/* Error Management block (switches) */
#define SIM_RT_EFPTR		0x5000	/* Switch Routing Table block (rxs2448) */

/*
 * Route table entries per switch: std switches have one entry per device
 * ID; the IDT models have a device table (256 entries, indexed by the ID's
 * low byte) followed by a domain table (256 entries, the high byte).
 */
#define SIM_RT_DEV_TABLE	0
#define SIM_RT_DOM_TABLE	256
#define SIM_RT_ENTRIES(devid_size) RTE_MAX((uint32_t)RTE_RIO_MAX_DESTIDS(devid_size), 512u)
/* Implementation-specific registers of a model (rio_sim_switch.c maps offsets to slots). */
#define SIM_IMPL_REGS		192

enum sim_dev_type {
	SIM_DEV_ENDPOINT = 1,
	SIM_DEV_SWITCH = 2,
};

/* Device models (rio_sim_switch.c, doc/guides/rawdevs/rio_sim.rst). */
enum sim_model {
	SIM_MODEL_GENERIC = 0,	/* endpoint: the specification only */
	SIM_MODEL_TSI721 = 1,	/* endpoint: IDT Tsi721 PCIe to SRIO bridge */
	SIM_MODEL_STD = 2,	/* switch: the specification only */
	SIM_MODEL_CPS1848 = 3,	/* switch: IDT CPS-1848 (CPS Gen2) */
	SIM_MODEL_RXS2448 = 4,	/* switch: IDT RXS2448 (RXS Gen3) */
	SIM_MODEL_COUNT
};

enum sim_fabric_state {
	SIM_FABRIC_INIT = 0,	/* creator still building it */
	SIM_FABRIC_READY = 1,
};

/*
 * Who is who on a fabric. Every attached process holds an open file
 * description lock (F_OFD_SETLK) on one byte of the main segment, byte
 * SIM_OFD_ATTACH + i for attach slot i: the kernel drops it when the process
 * is gone, whatever its PID namespace, and a stopped process keeps it. The
 * process then writes the slot's entry below, bumping gen, and is known on
 * the fabric by its token (gen << 8 | (i + 1)): the owner of an endpoint,
 * the holder of a lock word and the writer of a sender record are tokens,
 * never pids. A token is alive while its slot's byte is locked and the
 * entry still carries its gen (sim_token_alive()).
 */
#define SIM_OFD_ATTACH_LOCK	(1ull << 40)	/* attach and detach: one at a time */
#define SIM_OFD_ATTACH		(SIM_OFD_ATTACH_LOCK + 1)	/* + attach slot */
#define SIM_TOKEN_SLOT_BITS	8

/* An attach slot: the process holding it (see above). */
struct sim_shm_attach {
	int32_t pid;		/* information only, as seen in its own PID namespace */
	uint32_t gen;		/* bumped by every process that takes the slot */
};

/*
 * Lock word for short critical sections (config space, claims): 0 free, else
 * the holder's token. Waits are bounded (sim_lock()).
 */
struct sim_shm_lock {
	uint32_t holder;
};

/*
 * A sender (an outbound mailbox, an endpoint's doorbells, a fabric handle's
 * port-writes of one process): before it claims slots of a ring it stores
 * that ring's id here, and clears it once its slots are published. A
 * receiver that finds a slot claimed but not published asks the records:
 * while a live sender may still publish it, the slot is waited for
 * (back-pressure); otherwise nobody will, and the slot is skipped.
 */
struct sim_shm_sender {
	uint32_t owner;		/* token of the process using the record, 0: free */
	uint32_t ring;		/* sim_ring_id() + 1 of the ring it claims in, 0: none */
} __rte_cache_aligned;

struct sim_shm_port {
	int32_t peer_dev;	/* device index at the other end, -1: unconnected */
	uint8_t peer_port;
	uint8_t link_up;	/* physical link state; fault injection sets it */
	uint8_t lanes;		/* lanes of the port (1, 2, 4, 8, 16) */
	uint8_t baud;		/* top lane rate, Port n Control 2 baud code (1..7) */
	/*
	 * Port n Error and Status: latched bits (W1C, error-stopped states,
	 * Port-write Pending); OK and UNINIT are derived from the link.
	 */
	uint32_t err_sts;
	uint32_t ctl;		/* Port n Control */
	uint16_t ack_in;	/* inbound ackID: next one expected from the partner */
	uint16_t ack_out;	/* outbound ackID: next one to send */
	uint16_t ack_outstanding;	/* oldest unacknowledged (equal to ack_out: all acked) */
	uint16_t rsvd;
	uint32_t lm_resp;	/* Port n Link Maintenance Response: latched link-response */
	uint32_t em_err_det;	/* EM Port n Error Detect */
	uint32_t em_err_rate_en;
	uint32_t rsvd2;
	uint64_t pw_next_ns;	/* CLOCK_MONOTONIC ns of the next port-write repeat; 0: none */
	uint64_t tx_pkts;	/* packets forwarded out of this port (relaxed atomics) */
	uint64_t rx_pkts;	/* packets received on this port */
	uint64_t drops;		/* packets dropped at this port (no route, lockout, link down) */
	uint64_t err_stopped;	/* packets refused because the link's ackIDs disagree */
	/*
	 * Timing model: CLOCK_MONOTONIC ns at which the port's transmitter is
	 * free again. Message and doorbell packets leaving by this port reserve
	 * their serialization time on it (rio_sim_timing.c).
	 */
	uint64_t tx_free_ns;
};

struct sim_shm_device {
	char name[SIM_NAME_MAX];
	uint32_t index;
	uint8_t type;		/* enum sim_dev_type */
	uint8_t model;		/* enum sim_model */
	uint8_t nports;
	uint8_t is_host;	/* topology says this endpoint enumerates */
	struct sim_shm_lock lock;
	uint32_t ep_index;	/* endpoints: index in the endpoint array */

	/* Capability registers, fixed at creation. */
	uint32_t dev_id;	/* 0x00 */
	uint32_t dev_info;	/* 0x04 */
	uint32_t asm_id;	/* 0x08 */
	uint32_t asm_info;	/* 0x0c */
	uint32_t pef;		/* 0x10 */
	uint32_t src_ops;	/* 0x18 */
	uint32_t dst_ops;	/* 0x1c */
	uint32_t rt_limit;	/* 0x34 (switches) */

	/* Command and status registers. */
	uint32_t base_devid;	/* 0x60 (endpoints) */
	uint32_t host_lock;	/* 0x68 */
	uint32_t comptag;	/* 0x6c */
	uint32_t rte_destid_sel;	/* 0x70 (switches) */
	uint32_t rte_default_port;	/* 0x78 (switches) */
	uint32_t pell_ctrl;	/* 0x4c */
	uint32_t gen_ctl;	/* phys + 0x3c */
	uint32_t link_to_ctl;	/* phys + 0x20 */
	uint32_t rsp_to_ctl;	/* phys + 0x24 (endpoints) */
	uint32_t em_ltl_err_det;	/* EM + 0x08 */
	uint32_t em_ltl_err_en;	/* EM + 0x0c */
	uint32_t em_pw_target;	/* EM + 0x28 */
	uint32_t em_pkt_ttl;	/* EM + 0x2c */
	uint32_t em_pw_tx_ctrl;	/* EM + 0x34 */
	uint32_t rsvd;

	uint64_t rt_off;	/* switches: offset of the route table in the segment */
	uint64_t maint_rx;	/* maintenance requests executed by this device */
	uint64_t drop_destid;	/* endpoints: packets for another device ID, dropped */
	uint64_t maint_refused;	/* maintenance requests answered ERROR (size, offset) */
	/* Implementation-specific registers of the model (values; see rio_sim_switch.c). */
	uint32_t impl[SIM_IMPL_REGS];
	struct sim_shm_port ports[SIM_MAX_PORTS];
};

/* Inbound memory windows per endpoint (as the Tsi721's 8 inbound windows). */
#define SIM_INB_WINDOWS		8
/* Largest inbound window of the emulator (a shared-memory segment each). */
#define SIM_INB_WIN_MAX		(1ull << 30)

/*
 * An inbound window of an endpoint, written by its owner only. seq is a
 * sequence lock: odd while the owner changes the entry, and every change
 * makes it new, so an initiator that read it even before and after the
 * fields saw a consistent entry, and knows its mapping of the segment is
 * still this window's when seq did not move. size 0: no window.
 */
struct sim_shm_window {
	uint32_t seq;
	uint32_t rsvd;
	uint64_t rio_addr;	/* aligned to size */
	uint64_t size;		/* power of two, 4 KiB .. SIM_INB_WIN_MAX; 0: none */
	uint64_t seg_dev;	/* identity of the window segment (st_dev, st_ino) */
	uint64_t seg_ino;
};

/* One slot of an inbound doorbell ring. */
struct sim_shm_dbell_slot {
	uint64_t seq;
	uint16_t src;
	uint16_t dst;
	uint16_t info;
	uint16_t rsvd;
};

/* One slot of a port-write ring. */
struct sim_shm_pw_slot {
	uint64_t seq;
	uint32_t len;
	uint32_t rsvd;
	uint32_t payload[RTE_RIO_PW_MSG_SIZE / sizeof(uint32_t)];
};

/*
 * Rings of an endpoint as sender records name them: sim_ring_id(). Kinds:
 * inbound mailboxes 0..RTE_RIO_MAX_MBOX - 1, then doorbells and port-writes.
 */
#define SIM_RING_DBELL		RTE_RIO_MAX_MBOX
#define SIM_RING_PW		(RTE_RIO_MAX_MBOX + 1)
#define SIM_RING_KINDS		8

static inline uint32_t
sim_ring_id(uint32_t ep_index, uint32_t kind)
{
	return ep_index * SIM_RING_KINDS + kind;
}

/* Producer and consumer positions, on separate cache lines. */
struct sim_shm_ring_pos {
	uint64_t prod_head __rte_cache_aligned;
	uint64_t prod_limit;	/* producers claim below it (consumer's; UINT64_MAX: none) */
	uint64_t cons_head __rte_cache_aligned;
} __rte_cache_aligned;

struct sim_shm_endpoint {
	uint32_t dev_index;
	int32_t owner_pid;	/* information only (the owner's PID namespace); 0: unclaimed */
	uint32_t owner;		/* token of the owner, 0: unclaimed */
	uint32_t rsvd0;
	uint32_t generation;	/* bumped at every claim; data segment carries it */
	uint32_t mbox_open;	/* bit m: inbound mailbox m accepts messages */
	uint32_t mbox_entries;	/* slots per inbound mailbox ring */
	uint32_t rsvd;
	uint64_t data_dev;	/* identity of the owner's data segment (st_dev, st_ino) */
	uint64_t data_ino;
	uint64_t dbell_rx;	/* counters, relaxed atomics */
	uint64_t dbell_retry;
	uint64_t pw_rx;
	uint64_t pw_dropped;
	struct sim_shm_ring_pos dbell_pos;
	struct sim_shm_dbell_slot dbell[SIM_DBELL_RING_SIZE];
	struct sim_shm_ring_pos pw_pos;
	struct sim_shm_pw_slot pw[SIM_PW_RING_SIZE];
	/*
	 * Messages counted on the endpoint's port 0 by cached routes (relaxed
	 * atomics), each on a line of its own: the owner counts what it
	 * sends, senders count what they deliver here. Port 0's tx_pkts and
	 * rx_pkts in its device are one line that both would otherwise pull
	 * from each other at every burst. Readers add these to them
	 * (sim_port_pkts()).
	 */
	uint64_t port_tx_pkts __rte_cache_aligned;
	uint64_t port_rx_pkts __rte_cache_aligned;
	/*
	 * Timing model, [fabric] seg_bufs: when each inbound segment buffer
	 * is free again (CLOCK_MONOTONIC ns; rio_sim_engine.c).
	 */
	uint64_t seg_free[SIM_SEG_BUFS_MAX] __rte_cache_aligned;
	/* Inbound memory windows, and the packets they took or refused (relaxed atomics). */
	struct sim_shm_window win[SIM_INB_WINDOWS] __rte_cache_aligned;
	uint64_t mem_rx_pkts;
	uint64_t mem_rx_refused;	/* no window, wrong address size, type not supported */
} __rte_cache_aligned;

struct sim_shm_hdr {
	uint64_t magic;
	uint32_t version;
	uint32_t state;		/* enum sim_fabric_state */
	uint64_t total_size;
	uint32_t hdr_size;
	uint32_t dev_size;	/* sizeof(struct sim_shm_device) */
	uint32_t ep_size;	/* sizeof(struct sim_shm_endpoint) */
	uint32_t devid_size;	/* 8 or 16 */
	uint32_t n_devices;
	uint32_t n_endpoints;
	uint32_t n_switches;
	uint32_t mbox_entries;	/* default inbound ring size */
	uint64_t dev_off;
	uint64_t ep_off;
	uint64_t rt_off;
	uint64_t topo_hash;	/* hash of the topology it was built from */
	uint32_t creator_uid;
	int32_t creator_pid;
	uint64_t route_gen;	/* bumped on any route, link or port-control change */
	/* Held while a packet crosses a link: both ends' ackIDs move together. */
	struct sim_shm_lock link_lock;
	uint32_t rsvd_l;
	uint64_t seed;		/* std route tables' reset contents (printed at creation) */
	/* Timing model (rio_sim_timing.c); timing 0: no latency (shared-memory transport). */
	uint32_t timing;
	uint32_t hop_ns;	/* latency of a switch crossing */
	uint32_t proc_ns;	/* a target's processing time before it responds */
	uint32_t resp_timeout_us;	/* response timeout: Port Response Timeout's reset value */
	uint32_t pw_repeat_us;	/* port-write repeat period while Port-write Pending */
	uint32_t seg_bufs;	/* inbound segment buffers per endpoint; 0: as many as needed */
	char name[SIM_NAME_MAX];
	uint64_t instance;	/* random at creation: names this fabric, not its name */
	struct sim_shm_attach attached[SIM_MAX_ATTACH];
	struct sim_shm_sender senders[SIM_MAX_SENDERS];
} __rte_cache_aligned;

struct sim_shm_msg_slot {
	uint64_t seq;
	uint16_t len;		/* length on the wire: whole double-words */
	uint16_t src;
	uint8_t mbox;
	uint8_t letter;
	uint16_t rsvd;
	/* Timing model: CLOCK_MONOTONIC ns at which its last segment arrives. */
	uint64_t arrival_ns;
	uint8_t pad[SIM_SLOT_HDR_SIZE - 24];
	uint8_t data[SIM_SLOT_INLINE];	/* the rest in the slot's overflow block */
};

struct sim_shm_mbox_ring {
	struct sim_shm_ring_pos pos;
	/*
	 * Counters (relaxed atomics), each on a line of its own: the owner
	 * counts every poll, senders count refusals under back-pressure, and
	 * neither should pull the other's line away.
	 */
	uint64_t rx_msgs __rte_cache_aligned;	/* written by the owner */
	uint64_t retries __rte_cache_aligned;	/* senders refused because the ring was full */
	/* then `entries` struct sim_shm_msg_slot, then `entries` overflow blocks */
} __rte_cache_aligned;

/*
 * Bytes of one mailbox ring of @entries slots (header, slots, overflow blocks).
 * The macro is a constant expression for build-time checks.
 */
#define SIM_SHM_MBOX_RING_BYTES(entries) \
	(sizeof(struct sim_shm_mbox_ring) + \
	 (size_t)(entries) * (SIM_SLOT_SIZE + SIM_SLOT_OVF_SIZE))

static inline size_t
sim_shm_mbox_ring_bytes(uint32_t entries)
{
	return SIM_SHM_MBOX_RING_BYTES(entries);
}

struct sim_shm_data_hdr {
	uint64_t magic;		/* SIM_SHM_DATA_MAGIC */
	uint32_t version;
	uint32_t ep_index;
	uint32_t generation;	/* must equal the endpoint's generation */
	uint32_t entries;	/* slots per mailbox ring (power of two) */
	uint64_t instance;	/* the fabric's (struct sim_shm_hdr) */
	uint64_t ring_off[RTE_RIO_MAX_MBOX];	/* offset of each struct sim_shm_mbox_ring */
	uint64_t total_size;
} __rte_cache_aligned;

#endif /* RIO_SIM_SHM_H */
