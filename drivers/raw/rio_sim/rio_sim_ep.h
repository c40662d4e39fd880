/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SIM_EP_H
#define RIO_SIM_EP_H

/*
 * Private interface of the endpoint files of rio_sim:
 *
 *   rio_sim_ep.c        claim, release, secondary processes, maintenance, statistics
 *   rio_sim_ep_tx.c     sender state, routes, peers' data segments
 *   rio_sim_ep_msg.c    messages: mailboxes, send, receive
 *   rio_sim_ep_dbell.c  doorbells and port-writes
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "rio_sim_fabric.h"
#include "rio_sim_ring.h"

/*
 * Empty polls between two looks at the shared producer head: reading it on
 * every empty poll keeps pulling its cache line away from the producers'
 * compare-and-swap, which costs every message a cache line transfer.
 */
#define SIM_EP_STALL_CHECK	64
/*
 * A slot claimed but not published for that long makes the receiver ask the
 * sender records (sim_sender_claiming()), and again every as long while it
 * stays so. While a live sender claims slots of the ring, the slot is
 * waited for, however long that sender is stopped: its slot is never given
 * to anyone else, and the full ring holds the other senders back. When none
 * does, whoever claimed the slot is gone (or someone moved the producer head)
 * and nobody will publish it: it is skipped.
 */
#define SIM_EP_STALL_SCAN_MS	1
/*
 * Calls that find the oldest message received in place still held before
 * looking whether its holder is alive (a syscall).
 */
#define SIM_EP_HELD_CHECK	1024

/* Watch over a ring whose consumer position stays claimed but unpublished. */
struct sim_ep_stall {
	uint64_t pos;		/* consumer position seen stalled */
	uint64_t since;		/* timer cycles of the last look; 0: no stall */
	uint32_t polls;		/* empty polls since the last look */
	bool waited;		/* a live sender was seen holding pos (counted) */
};

enum sim_ep_idle {
	SIM_EP_IDLE_OK = 0,		/* empty, nothing to do */
	SIM_EP_IDLE_REPAIRED = 1,	/* producer head was outside the ring, repaired */
	SIM_EP_IDLE_SKIP = 2,		/* skip the slot at the consumer position */
};

/* Cached route: destination ID -> target endpoint, valid for one route generation. */
struct sim_ep_route {
	uint32_t gen;		/* low bits of route_gen + 1; 0: empty */
	uint16_t ep_index;	/* < SIM_MAX_DEVICES */
	uint8_t in_port;	/* port the packets arrive on at the target */
	uint8_t rsvd;
};

/* This process's mapping of a target endpoint's data segment. */
struct sim_ep_peer {
	struct sim_shm_data_hdr *data;	/* NULL: not mapped */
	size_t size;
	uint32_t generation;
	struct sim_ring rings[RTE_RIO_MAX_MBOX];
	struct sim_shm_mbox_ring *ring_hdr[RTE_RIO_MAX_MBOX];
	uint64_t next_check;	/* timer cycles: next owner check while the ring is full */
	bool gone;		/* the owner of this generation died: messages time out */
};

/* Sender state: one per outbound mailbox plus one for doorbells (one thread each). */
struct sim_ep_tx {
	bool open;
	uint32_t sender;		/* sender record (sim_sender_get()) */
	struct sim_ep_route *routes;	/* RTE_RIO_MAX_DESTIDS(devid_size) entries */
	struct sim_ep_peer *peers;	/* n_endpoints entries; NULL for doorbells */
	struct sim_engine *eng;		/* timing model on: when its packets are on the wire */
	uint64_t accepted;
	uint64_t reported;
};

/*
 * A ring slot handed up in place (sim_ep_recv_inplace()): the mbuf shared
 * info of its message, and who holds the message: the token of the process
 * that received it, 0 once released. The release callback clears held (any
 * thread); the consumer gives the slots back to the senders, in ring order,
 * from the first one still held on, and takes back those of a holder that
 * is gone.
 */
struct sim_ep_held {
	struct rte_mbuf_ext_shared_info shinfo;	/* fcb_opaque: this entry */
	uint32_t held;
};

/* Receiver state of one inbound mailbox. */
struct sim_ep_rx {
	bool open;
	struct sim_ring ring;		/* own data segment */
	struct sim_shm_mbox_ring *ring_hdr;
	/*
	 * In-place receive: one entry per ring slot, allocated at the first
	 * in-place call; kept while the endpoint lives, so that a message
	 * released after the mailbox closed still finds its entry.
	 */
	struct sim_ep_held *held;
	uint64_t held_pos;		/* first position consumed, not yet given back */
	void **bufs;			/* FIFO of posted buffers */
	uint32_t buf_size;		/* power of two */
	uint32_t buf_len;		/* bytes per posted buffer (declared size) */
	uint32_t buf_head;		/* next to fill */
	uint32_t buf_tail;		/* next free place */
	struct sim_ep_stall stall;	/* consumer position claimed but unpublished */
	uint32_t held_polls;		/* calls stopped by the oldest held message */
	bool posted_only;		/* takes a message only into a posted buffer */
};

/* An inbound window of the owner: its buffer, whose pages are the window segment's. */
struct sim_ep_win {
	void *local;
	uint64_t rio_addr;
	uint64_t size;			/* 0: none */
};

/* An initiator's mapping of window k of a target endpoint. */
struct sim_ep_win_map {
	void *addr;			/* NULL: not mapped */
	uint64_t size;
	uint32_t seq;			/* the window entry's seq it was mapped for */
};

struct sim_ep {
	struct sim_fabric *f;
	bool owner;			/* false: a secondary process's view (sim_ep_attach) */
	struct sim_ep_shared *sh;	/* NULL: receive state is process-local */
	uint32_t ep_index;
	uint32_t dev_index;
	struct sim_shm_endpoint *shm;
	struct sim_shm_device *dev;
	int32_t pid;
	uint32_t generation;
	uint32_t entries;		/* inbound ring slots */
	char data_name[SIM_NAME_MAX + 32];
	struct sim_shm_data_hdr *data;
	size_t data_size;
	struct sim_ring dbell_ring;
	struct sim_ring pw_ring;
	struct sim_ep_stall dbell_stall;
	struct sim_ep_stall pw_stall;
	/*
	 * Receive state of each inbound mailbox: rx_local, or the shared copy
	 * in sh once the owner shared it (sim_ep_share()).
	 */
	struct sim_ep_rx *rx;
	struct sim_ep_tx tx[RTE_RIO_MAX_MBOX];
	struct sim_ep_tx dbell_tx;
	rte_spinlock_t dbell_lock;	/* doorbells may be sent from several threads */
	struct sim_ep_stats st;
	/* Memory space (rio_sim_ep_mem.c): windows, mappings and counters, never a wait. */
	rte_spinlock_t mem_lock;
	struct sim_ep_win win[SIM_INB_WINDOWS];
	struct sim_ep_win_map *win_maps;	/* n_endpoints x SIM_INB_WINDOWS; NULL: none yet */
	struct sim_ep_rx rx_local[RTE_RIO_MAX_MBOX];
};

/*
 * What the processes of one DPDK process group share about an endpoint the
 * primary claimed (in DPDK shared memory, at the same address everywhere):
 * the inbound mailboxes' receive state (ring consumer positions, FIFOs of
 * posted buffers) and where the owner mapped the data segment, so that the
 * ring views in rx[] are valid in every process that maps it there too.
 * Each inbound mailbox has one consumer at a time, in any of the processes.
 */
struct sim_ep_shared {
	char fabric[SIM_NAME_MAX];
	uint32_t ep_index;
	uint32_t generation;
	void *data;			/* the owner's mapping of the data segment */
	size_t data_size;
	struct sim_ep_rx rx[RTE_RIO_MAX_MBOX];
};

/* ------------------------------------------------------------------ */
/* Small atomic helpers for 32-bit shared words                       */

static __rte_always_inline uint32_t
sim_ep_load32_acquire(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static __rte_always_inline void
sim_ep_store32_release(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Is the endpoint @e owned by a live process? */
static inline bool
sim_ep_owner_alive(const struct sim_fabric *f, const struct sim_shm_endpoint *e)
{
	/* Pairs with the release store of owner in sim_ep_take(). */
	return sim_token_alive(f, __atomic_load_n(&e->owner, __ATOMIC_ACQUIRE));
}

/* ------------------------------------------------------------------ */
/* Data segment geometry (computed locally, never read back)          */

static inline size_t
sim_ep_data_hdr_size(void)
{
	return RTE_ALIGN_CEIL(sizeof(struct sim_shm_data_hdr), RTE_CACHE_LINE_SIZE);
}

static inline size_t
sim_ep_ring_off(uint32_t entries, unsigned int mbox)
{
	return sim_ep_data_hdr_size() + mbox * sim_shm_mbox_ring_bytes(entries);
}

static inline size_t
sim_ep_data_size(uint32_t entries)
{
	return sim_ep_ring_off(entries, RTE_RIO_MAX_MBOX);
}

static inline bool
sim_ep_entries_valid(uint32_t entries)
{
	return entries >= 2 && entries <= SIM_MBOX_ENTRIES_MAX && rte_is_power_of_2(entries);
}

/* Attach process-local ring views to a validated data segment. */
static inline void
sim_ep_data_rings(struct sim_shm_data_hdr *data, uint32_t entries,
		  struct sim_ring rings[RTE_RIO_MAX_MBOX],
		  struct sim_shm_mbox_ring *hdrs[RTE_RIO_MAX_MBOX])
{
	struct sim_shm_mbox_ring *rh;
	unsigned int m;

	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		rh = RTE_PTR_ADD(data, sim_ep_ring_off(entries, m));
		hdrs[m] = rh;
		sim_ring_attach(&rings[m], &rh->pos, rh + 1, sizeof(struct sim_shm_msg_slot),
				entries);
		sim_ring_attach_ovf(&rings[m], RTE_PTR_ADD(rh + 1, (size_t)entries * SIM_SLOT_SIZE),
				    SIM_SLOT_OVF_SIZE);
	}
}

/* Permission bits of the fabric's main segment (checked at attach), for the data segments. */
static inline mode_t
sim_ep_fabric_mode(const struct sim_fabric *f)
{
	return f->shm_mode == SIM_SHM_MODE_GROUP ? SIM_SHM_MODE_GROUP : SIM_SHM_MODE;
}

/*
 * The header senders validate when they map the segment (sim_ep_peer_map()).
 * Pairs with their acquire load of magic: every field is written first.
 */
static inline void
sim_ep_data_hdr_write(const struct sim_ep *ep, struct sim_shm_data_hdr *data, size_t size)
{
	unsigned int m;

	__atomic_store_n(&data->magic, 0, __ATOMIC_RELAXED);
	data->version = SIM_SHM_VERSION;
	data->ep_index = ep->ep_index;
	data->generation = ep->generation;
	data->entries = ep->entries;
	data->instance = ep->f->instance;
	data->total_size = size;
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		data->ring_off[m] = sim_ep_ring_off(ep->entries, m);
	__atomic_store_n(&data->magic, SIM_SHM_DATA_MAGIC, __ATOMIC_RELEASE);
}

/*
 * Whether @data is the header sim_ep_data_hdr_write() writes for endpoint
 * @ep_index, generation @gen and rings of @entries slots (a valid count):
 * the layout is derived from @entries, not taken from the header. The
 * acquire load of magic pairs with its release store there.
 */
static inline bool
sim_ep_data_hdr_ok(const struct sim_shm_data_hdr *data, uint32_t ep_index, uint32_t gen,
		   uint32_t entries)
{
	unsigned int m;

	if (__atomic_load_n(&data->magic, __ATOMIC_ACQUIRE) != SIM_SHM_DATA_MAGIC ||
	    data->version != SIM_SHM_VERSION || data->ep_index != ep_index ||
	    data->generation != gen || data->entries != entries ||
	    data->total_size != sim_ep_data_size(entries))
		return false;
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		if (data->ring_off[m] != sim_ep_ring_off(entries, m))
			return false;
	return true;
}

/* Own Base Device ID as the config space holds it. */
static __rte_always_inline uint16_t
sim_ep_own_destid(const struct sim_ep *ep)
{
	uint32_t v = __atomic_load_n(&ep->dev->base_devid, __ATOMIC_RELAXED);

	return RTE_RIO_GET_DID(ep->f->devid_size, v);
}

/* rio_sim_ep_msg.c */
enum sim_ep_idle sim_ep_ring_idle(const struct sim_fabric *f, struct sim_ring *r,
		uint32_t ring_id, struct sim_ep_stall *st, uint64_t *waits);
uint32_t sim_ep_rx_held_count(struct sim_ep_rx *rx, bool owner);
uint32_t sim_ep_rx_pending(const struct sim_ep_rx *rx);
uint64_t sim_ep_timeout_at(struct sim_ep *ep, const struct sim_engine *eng, uint64_t now);

/* rio_sim_ep_mem.c */
void sim_ep_mem_reset(struct sim_ep *ep);
void sim_ep_mem_free(struct sim_ep *ep);

/* rio_sim_ep_tx.c */
void sim_ep_count_path(struct sim_ep *ep, const struct sim_ep_route *r, uint32_t n);
int sim_ep_peer_full(struct sim_ep *ep, struct sim_ep_peer *p, uint32_t t);
int sim_ep_peer_get(struct sim_ep *ep, struct sim_ep_tx *tx, uint32_t t, uint8_t mbox,
		struct sim_ep_peer **out);
int sim_ep_resolve(struct sim_ep *ep, struct sim_ep_tx *tx, uint16_t destid,
		struct sim_ep_route **route, uint32_t *walked);
void sim_ep_tx_free(struct sim_ep *ep, struct sim_ep_tx *tx);
int sim_ep_tx_init(struct sim_ep *ep, struct sim_ep_tx *tx, bool with_peers, uint32_t entries);

#endif /* RIO_SIM_EP_H */
