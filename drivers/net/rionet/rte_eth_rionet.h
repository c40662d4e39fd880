/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_ETH_RIONET_H
#define RTE_ETH_RIONET_H

/* Private definitions of the rionet PMD (not installed). */

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include <rte_rio.h>
#include <rte_rio_dev.h>
#include <bus_rio_driver.h>

#include "rionet.h"

extern int rionet_logtype;
#define RIONET_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, rionet_logtype, "rionet: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/** Mailboxes of a peer that never advertised any: Linux rionet's one. */
#define RIONET_LINUX_MBOXES	(1u << RIONET_DEFAULT_MBOX)
/** Queue pairs: one mailbox each. */
#define RIONET_MAX_QUEUES	RTE_RIO_MAX_MBOX
/** Peers a port follows (capable remote endpoints of its fabric). */
#define RIONET_MAX_PEERS	256
/* Per-queue counters of frames to and from the port itself (lpbk_mode=1). */
#define RIONET_SELF_SLOT	RIONET_MAX_PEERS
/** Descriptor limits (inbound ring entries are rounded up to a power of two). */
#define RIONET_MIN_DESC		2
#define RIONET_MAX_DESC		4096
#define RIONET_DEFAULT_DESC	512
/*
 * Default Rx descriptors (posted receive buffers). Arriving messages wait
 * in the fabric's inbound ring, not in posted buffers, and a queue reposts
 * after every burst: more buffers add no capacity, only cache footprint
 * (each posted mbuf is touched again only after all the others). Two
 * bursts' worth.
 */
#define RIONET_DEFAULT_RX_DESC	64
/** Frames handled per internal step of a burst. */
#define RIONET_BURST		32
/** Messages per rte_rio_send_messages() call (multicast fans out). */
#define RIONET_TX_MSGS		64
/** Linearization buffers of a Tx queue (multi-segment frames). */
#define RIONET_TX_LIN_BUFS	8
/** Doorbell poll period while a peer joins or doorbells arrive. */
#define RIONET_DBELL_PERIOD_US	1000
/** Doorbell poll period once every peer on the bus is active. */
#define RIONET_DBELL_IDLE_PERIOD_US	10000
/** Period of the JOINs sent to a lost or returning peer until it answers (ms). */
#define RIONET_REJOIN_MS	100
/** How many such JOINs at most (then it has to JOIN itself). */
#define RIONET_REJOIN_TRIES	30
/** Tries for a JOIN/LEAVE doorbell answered with RETRY. */
#define RIONET_DBELL_TRIES	16
/** A JOIN from a peer held active is answered if our last JOIN to it is older (ms). */
#define RIONET_JOIN_HOLDOFF_MS	100

/* Per-peer counters of one queue (single writer: the queue's lcore). */
struct rionet_peer_qstats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;	/* Tx: send ERROR/no response */
	uint64_t ring_full;	/* Tx: RETRY (back-pressure or dropped multicast copy) */
	uint64_t timeouts;	/* Tx: no response, part of errors (peer liveness) */
};

struct rionet_port;

struct rionet_rx_queue {
	struct rionet_port *port;
	struct rte_mempool *mp;
	uint16_t qid;
	uint8_t mbox;
	bool inplace;		/* rx_zero_copy: frames attached where they arrived (at start) */
	bool direct;		/* mbuf data areas posted, else bounce buffers (at start) */
	uint16_t nb_desc;	/* as configured */
	uint16_t mbuf_room;	/* mbuf data room after the headroom, at most 4096 */
	int socket_id;
	uint32_t entries;	/* power of two: posted buffers */
	uint32_t head;		/* oldest posted slot (direct mode) */
	uint32_t tail;		/* next slot to post (direct mode) */
	struct rte_mbuf **sw_ring;	/* direct mode: posted mbufs, FIFO */
	uint8_t *bounce;	/* bounce mode: entries x RIONET_MAX_FRAME, at first start */
	/* bounce mode: mbufs allocated ahead, kept across empty polls */
	uint16_t nb_stash;
	struct rte_mbuf *stash[RIONET_BURST];
	struct rte_rio_msg msgs[RIONET_BURST];
	/* counters, single writer */
	uint64_t packets;
	uint64_t bytes;
	uint64_t nombuf;
	uint64_t runts;
	uint64_t oversize;
	uint64_t filtered;
	uint64_t unknown_src;
	struct rionet_peer_qstats peer[RIONET_MAX_PEERS + 1];	/* + RIONET_SELF_SLOT */
};

struct rionet_tx_queue {
	struct rionet_port *port;
	uint16_t qid;
	uint16_t nb_desc;
	uint64_t offloads;			/* RTE_ETH_TX_OFFLOAD_*: queue's and port's */
	bool fast_free;				/* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE */
	uint8_t nb_mbox;			/* outbound mailboxes owned */
	uint8_t mbox[RIONET_MAX_QUEUES];	/* their numbers */
	uint8_t mbox_bits;			/* bit m: mailbox m is one of them */
	/* by a peer's mask of mailboxes: the owned ones it receives on */
	struct {
		uint8_t n;
		uint8_t mbox[RIONET_MAX_QUEUES];
	} mbox_sel[1u << RTE_RIO_MAX_MBOX];
	uint8_t letters;			/* rotated toward each peer: 1..4 */
	uint8_t next_letter[RIONET_MAX_PEERS + 1];	/* by peer slot, + RIONET_SELF_SLOT */
	struct rte_rio_msg msgs[RIONET_TX_MSGS];
	uint16_t msg_frame[RIONET_TX_MSGS];	/* frame index in the step */
	uint16_t msg_peer[RIONET_TX_MSGS];	/* peer slot */
	uint8_t lin[RIONET_TX_LIN_BUFS][RIONET_MAX_FRAME];
	/* counters, single writer */
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;	/* frames not delivered to any peer */
	uint64_t ring_full;	/* bursts cut short by back-pressure */
	uint64_t unknown_dst;
	uint64_t oversize;
	uint64_t runts;
	uint64_t linearized;
	uint64_t mcast_copies;
	uint64_t no_mbox;	/* copies for a peer on none of the queue's mailboxes */
	struct rionet_peer_qstats peer[RIONET_MAX_PEERS + 1];	/* + RIONET_SELF_SLOT */
};

/* A capable remote endpoint. A slot keeps its device ID for the port's life. */
struct rionet_peer {
	uint16_t destid;
	uint8_t present;	/* known on the bus (written under port lock) */
	uint8_t active;		/* JOINed: atomic, read by Tx lcores */
	uint8_t mbox_mask;	/* mailboxes it receives on: atomic, read by Tx lcores */
	uint8_t join_sent;	/* we sent JOIN since start */
	uint64_t join_tsc;	/* when we last sent it a JOIN (timer cycles) */
	uint64_t join_rx;
	uint64_t leave_rx;
	uint64_t join_tx;
	uint64_t leave_tx;
	uint8_t rejoin;		/* JOINs left to send every RIONET_REJOIN_MS until it answers */
	uint64_t rejoin_tsc;	/* timer cycles: next JOIN to the lost peer */
	uint64_t lost;		/* deactivated because sends to it got no response */
	uint64_t tx_timeouts_seen;	/* Tx timeouts to it at the last liveness check */
};

/*
 * The port lives in DPDK shared memory (dev_private) and is seen by every
 * process of the group. rdev and eth_dev are the primary's own objects:
 * only the primary's control path (start/stop, peers, doorbells) uses
 * them. Every process reaches the mport of its own with
 * rionet_port_mport(), and the ethdev data (shared) through data.
 */
struct rionet_port {
	struct rte_rio_device *rdev;	/* local endpoint on the bus */
	struct rte_eth_dev *eth_dev;
	struct rte_eth_dev_data *data;	/* shared: valid in every process */
	uint16_t port_id;
	char name[RTE_ETH_NAME_MAX_LEN];
	uint16_t destid;
	uint32_t max_destids;		/* 256 or 65536 */
	uint8_t mbox_base;
	uint8_t max_queues;
	bool rx_zero_copy;		/* devarg: rte_rio_recv_messages_inplace() */
	uint8_t letters;		/* devarg: letters in flight toward each peer */
	bool loopback;			/* lpbk_mode=1: every frame to the own device ID */
	uint16_t inplace_max;		/* longest frame the mport receives in place */
	struct rte_ether_addr mac;

	rte_spinlock_t lock;		/* peer table, start/stop, doorbell handling */
	bool started;
	bool local_link_up;		/* Port OK of the mport's port, as last read */
	bool dbell_claimed;
	bool alarm_set;
	uint32_t max_frame;		/* MTU + Ethernet header, read by Rx/Tx */
	uint8_t in_mbox_open;		/* bit m: inbound mailbox m open */
	uint8_t out_mbox_open;		/* bit m: outbound mailbox m open */

	uint16_t nb_peers;		/* slots used */
	uint32_t nb_active;		/* atomic */
	struct rionet_peer peers[RIONET_MAX_PEERS];
	uint16_t *peer_map;		/* destid -> slot + 1, 0: none */

	/* control counters, under lock */
	uint64_t dbell_rx;
	uint64_t dbell_tx;
	uint64_t dbell_tx_errors;
	uint64_t dbell_unknown;		/* JOIN/LEAVE from unknown device */
	uint64_t join_rx, leave_rx, join_tx, leave_tx;
	uint64_t peers_lost;		/* peers deactivated without LEAVE */

	/* base values for stats_reset of the control counters */
	uint64_t base_dbell[8];
};

/*
 * The mport through which this process reaches the port's endpoint (its
 * own rio_sim view in a secondary): the ethdev's process_private, set at
 * probe before the port's burst functions can be called.
 */
static inline struct rte_rio_mport *
rionet_port_mport(const struct rionet_port *port)
{
	return rte_eth_devices[port->port_id].process_private;
}

/* Relaxed/acquire/release helpers for fields shared with Rx/Tx lcores. */

/* Pairs with rionet_peer_active() in the Tx lcore. */
static inline void
rionet_peer_set_active(struct rionet_peer *p, uint8_t v)
{
	__atomic_store_n(&p->active, v, __ATOMIC_RELEASE);
}

/* Pairs with rionet_peer_set_active() in the control thread. */
static inline uint8_t
rionet_peer_active(const struct rionet_peer *p)
{
	return __atomic_load_n(&p->active, __ATOMIC_ACQUIRE);
}

/* Mailboxes the peer receives on (RIONET_DBELL_MBOXES); any value is valid. */
static inline uint8_t
rionet_peer_mbox_mask(const struct rionet_peer *p)
{
	return __atomic_load_n(&p->mbox_mask, __ATOMIC_RELAXED);
}

static inline void
rionet_peer_set_mbox_mask(struct rionet_peer *p, uint8_t mask)
{
	__atomic_store_n(&p->mbox_mask, mask, __ATOMIC_RELAXED);
}

/* Slot of @destid + 1, or 0; pairs with rionet_map_set(). */
static inline uint16_t
rionet_map_get(const struct rionet_port *port, uint16_t destid)
{
	return __atomic_load_n(&port->peer_map[destid], __ATOMIC_ACQUIRE);
}

/* Publish a slot after its destid is written; pairs with rionet_map_get(). */
static inline void
rionet_map_set(struct rionet_port *port, uint16_t destid, uint16_t v)
{
	__atomic_store_n(&port->peer_map[destid], v, __ATOMIC_RELEASE);
}

/* Frame limit changed by mtu_set while running: relaxed, any value is valid. */
static inline uint32_t
rionet_max_frame(const struct rionet_port *port)
{
	return __atomic_load_n(&port->max_frame, __ATOMIC_RELAXED);
}

/*
 * Longest message accepted as a frame: MTU + Ethernet header, rounded up
 * to a double-word, because RapidIO payloads are whole double-words and a
 * sender (Linux rionet on Tsi721) pads the frame to the next one.
 */
static inline uint32_t
rionet_max_wire_frame(const struct rionet_port *port)
{
	return RTE_ALIGN_CEIL(rionet_max_frame(port), RTE_RIO_MIN_MSG_SIZE);
}

static inline void
rionet_set_max_frame(struct rionet_port *port, uint32_t v)
{
	__atomic_store_n(&port->max_frame, v, __ATOMIC_RELAXED);
}

/* Number of active peers; the link is up when it is not zero. */
static inline uint32_t
rionet_nb_active(const struct rionet_port *port)
{
	return __atomic_load_n(&port->nb_active, __ATOMIC_RELAXED);
}

/* rionet_peer.c */
int rionet_peers_init(struct rionet_port *port);
void rionet_peers_fini(struct rionet_port *port);
int rionet_peers_start(struct rionet_port *port);
void rionet_peers_stop(struct rionet_port *port);
void rionet_peer_event(struct rionet_port *port, struct rte_rio_device *dev, bool add);
int rionet_peer_lost(struct rionet_port *port, uint16_t destid);
bool rionet_dev_capable(const struct rte_rio_dev_info *info);
int rionet_link_refresh(struct rionet_port *port);
void rionet_local_link_check(struct rionet_port *port);

#endif /* RTE_ETH_RIONET_H */
