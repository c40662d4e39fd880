/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Claimed endpoints of an emulated fabric: ownership, inbound mailbox rings
 * in the endpoint's data segment, messages, doorbells and port-writes.
 *
 * Senders resolve a destination ID to a target endpoint once per route
 * generation (sim_route() walks the switches) and map the target's data
 * segment once per target generation; the per-message path is a CAS on the
 * target ring, copies and release stores.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memcpy.h>

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

static uint32_t sim_ep_rx_held_count(struct sim_ep_rx *rx, bool owner);
static uint32_t sim_ep_rx_pending(const struct sim_ep_rx *rx);

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
static bool
sim_ep_owner_alive(const struct sim_fabric *f, const struct sim_shm_endpoint *e)
{
	/* Pairs with the release store of owner in sim_ep_take(). */
	return sim_token_alive(f, __atomic_load_n(&e->owner, __ATOMIC_ACQUIRE));
}

/* ------------------------------------------------------------------ */
/* Data segment geometry (computed locally, never read back)          */

static size_t
sim_ep_data_hdr_size(void)
{
	return RTE_ALIGN_CEIL(sizeof(struct sim_shm_data_hdr), RTE_CACHE_LINE_SIZE);
}

static size_t
sim_ep_ring_off(uint32_t entries, unsigned int mbox)
{
	return sim_ep_data_hdr_size() + mbox * sim_shm_mbox_ring_bytes(entries);
}

static size_t
sim_ep_data_size(uint32_t entries)
{
	return sim_ep_ring_off(entries, RTE_RIO_MAX_MBOX);
}

static bool
sim_ep_entries_valid(uint32_t entries)
{
	return entries >= 2 && entries <= SIM_MBOX_ENTRIES_MAX && rte_is_power_of_2(entries);
}

/* Attach process-local ring views to a validated data segment. */
static void
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
static mode_t
sim_ep_fabric_mode(const struct sim_fabric *f)
{
	return f->shm_mode == SIM_SHM_MODE_GROUP ? SIM_SHM_MODE_GROUP : SIM_SHM_MODE;
}

/* Own Base Device ID as the config space holds it. */
static __rte_always_inline uint16_t
sim_ep_own_destid(const struct sim_ep *ep)
{
	uint32_t v = __atomic_load_n(&ep->dev->base_devid, __ATOMIC_RELAXED);

	return RTE_RIO_GET_DID(ep->f->devid_size, v);
}

/* ------------------------------------------------------------------ */
/* Claim and release                                                  */

/*
 * Where the owner asks the kernel to map its data segment (a hint: any
 * address will do). A secondary process must map the segment at the same
 * address; a range far above where libraries, heaps and DPDK's own memory
 * go, and above ASan's shadow, is almost always free there.
 */
#define SIM_EP_DATA_HINT_BASE	0x300000000000ull
#define SIM_EP_DATA_HINT_STRIDE	(128ull << 20)	/* > the largest data segment */

static int
sim_ep_data_create(struct sim_ep *ep, char *err, size_t errlen)
{
	struct sim_shm_mbox_ring *hdrs[RTE_RIO_MAX_MBOX];
	struct sim_ring rings[RTE_RIO_MAX_MBOX];
	struct sim_shm_data_hdr *data = NULL;
	size_t size = sim_ep_data_size(ep->entries);
	struct stat st;
	unsigned int m;
	int fd, ret = 0;

	fd = sim_fabric_obj_open(ep->f, ep->data_name, O_RDWR | O_CREAT | O_EXCL,
				 sim_ep_fabric_mode(ep->f));
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", ep->data_name, strerror(errno));
		goto out;
	}
	/* The umask may have removed bits (or a group=1 fabric needs them): set them exactly. */
	if (fchmod(fd, sim_ep_fabric_mode(ep->f)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot set the mode of %s: %s", ep->data_name,
			 strerror(errno));
		goto out;
	}
	if (ftruncate(fd, size) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot size %s: %s", ep->data_name, strerror(errno));
		goto out;
	}
	/* Who may remove it later checks that it is this object (sim_fabric_data_unlink()). */
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot stat %s: %s", ep->data_name, strerror(errno));
		goto out;
	}
	__atomic_store_n(&ep->shm->data_dev, (uint64_t)st.st_dev, __ATOMIC_RELAXED);
	__atomic_store_n(&ep->shm->data_ino, (uint64_t)st.st_ino, __ATOMIC_RELAXED);
	RTE_BUILD_BUG_ON(SIM_EP_DATA_HINT_STRIDE <
			 RTE_RIO_MAX_MBOX * SIM_SHM_MBOX_RING_BYTES(SIM_MBOX_ENTRIES_MAX + 1));
	data = mmap((void *)(uintptr_t)(SIM_EP_DATA_HINT_BASE +
					ep->ep_index * SIM_EP_DATA_HINT_STRIDE),
		    size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		data = NULL;
		ret = -errno;
		snprintf(err, errlen, "cannot map %s: %s", ep->data_name, strerror(errno));
		goto out;
	}
	data->version = SIM_SHM_VERSION;
	data->ep_index = ep->ep_index;
	data->generation = ep->generation;
	data->entries = ep->entries;
	data->instance = ep->f->instance;
	data->total_size = size;
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		data->ring_off[m] = sim_ep_ring_off(ep->entries, m);
	sim_ep_data_rings(data, ep->entries, rings, hdrs);
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		sim_ring_reset(&rings[m]);
		ep->rx[m].ring = rings[m];
		ep->rx[m].ring_hdr = hdrs[m];
	}
	/* Pairs with the acquire load of magic in sim_ep_peer_map(): all of the above first. */
	__atomic_store_n(&data->magic, SIM_SHM_DATA_MAGIC, __ATOMIC_RELEASE);
	ep->data = data;
	ep->data_size = size;
	data = NULL;
out:
	if (data != NULL)
		munmap(data, size);
	if (fd >= 0)
		close(fd);
	if (ret < 0 && fd >= 0)
		sim_fabric_obj_unlink(ep->f, ep->data_name);
	return ret;
}

/* How long a claim waits for a sender still writing into the previous owner's rings. */
#define SIM_EP_CLAIM_WAIT_MS	1000

/* Wait until no live sender claims slots of ring @kind of the endpoint; 0 or -EBUSY. */
static int
sim_ep_wait_senders(struct sim_ep *ep, uint32_t kind)
{
	uint64_t deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() / 1000 * sim_wait_ms(SIM_EP_CLAIM_WAIT_MS);

	while (sim_sender_claiming(ep->f, sim_ring_id(ep->ep_index, kind))) {
		if (rte_get_timer_cycles() > deadline)
			return -EBUSY;
		rte_delay_us_sleep(100);
	}
	return 0;
}

/*
 * Take ownership: the owner token goes from 0, or from a token that is no
 * longer alive (rio_sim_lock.c), to ours. The device lock serializes
 * claimers. 0, or -EBUSY (-ETIMEDOUT: the lock) with err filled.
 */
static int
sim_ep_take(struct sim_ep *ep, const char *devname, char *err, size_t errlen)
{
	struct sim_shm_endpoint *shm = ep->shm;
	uint32_t owner;
	int ret;

	ret = sim_lock(ep->f, &ep->dev->lock);
	if (ret != 0) {
		snprintf(err, errlen, "endpoint %s of fabric %s: its lock is held by another process",
			 devname, ep->f->name);
		return ret;
	}
	owner = __atomic_load_n(&shm->owner, __ATOMIC_ACQUIRE);
	if (owner != 0 && owner == ep->f->token) {
		snprintf(err, errlen, "endpoint %s of fabric %s is already claimed by this process",
			 devname, ep->f->name);
		ret = -EBUSY;
		goto out;
	}
	if (sim_token_alive(ep->f, owner)) {
		snprintf(err, errlen,
			 "endpoint %s of fabric %s is owned by live process %d (pid in its namespace)",
			 devname, ep->f->name, (int)sim_token_pid(ep->f, owner));
		ret = -EBUSY;
		goto out;
	}
	if (owner != 0)
		SIM_LOG(NOTICE, "reclaiming endpoint %s of fabric %s from process %d, which is gone",
			devname, ep->f->name,
			(int)__atomic_load_n(&shm->owner_pid, __ATOMIC_RELAXED));
	/*
	 * Nobody else can claim it now (lock held) and nobody consumes its
	 * doorbells and port-writes: start them empty, once no sender that
	 * began before the previous owner left is still writing into them
	 * (senders refuse an owner that is gone). Whatever a sender enqueues
	 * once we own it is kept.
	 */
	ret = sim_ep_wait_senders(ep, SIM_RING_DBELL);
	if (ret == 0)
		ret = sim_ep_wait_senders(ep, SIM_RING_PW);
	if (ret != 0) {
		snprintf(err, errlen,
			 "endpoint %s of fabric %s: a stopped sender still writes into its doorbell or port-write ring",
			 devname, ep->f->name);
		goto out;
	}
	sim_ring_attach(&ep->dbell_ring, &shm->dbell_pos, shm->dbell, sizeof(shm->dbell[0]),
			SIM_DBELL_RING_SIZE);
	sim_ring_reset(&ep->dbell_ring);
	sim_ring_attach(&ep->pw_ring, &shm->pw_pos, shm->pw, sizeof(shm->pw[0]),
			SIM_PW_RING_SIZE);
	sim_ring_reset(&ep->pw_ring);
	/* Pairs with the acquire loads of owner (sim_ep_owner_alive()). */
	__atomic_store_n(&shm->owner_pid, ep->pid, __ATOMIC_RELAXED);
	__atomic_store_n(&shm->owner, ep->f->token, __ATOMIC_RELEASE);
	/* Nobody may enqueue into the previous owner's segment from now on. */
	sim_ep_store32_release(&shm->mbox_open, 0);
	ep->generation = __atomic_load_n(&shm->generation, __ATOMIC_RELAXED) + 1;
	/* Pairs with the senders' acquire load of generation in sim_ep_peer_get(). */
	sim_ep_store32_release(&shm->generation, ep->generation);
out:
	sim_unlock(ep->f, &ep->dev->lock);
	return ret;
}

/*
 * Give up ownership. Without the device lock (a stopped process holds it)
 * the endpoint is left as it is: it looks owned until we detach from the
 * fabric, then it is reclaimed like the endpoint of a process that is gone.
 */
static void
sim_ep_give_up(struct sim_ep *ep)
{
	struct sim_shm_endpoint *shm = ep->shm;

	sim_ep_store32_release(&shm->mbox_open, 0);
	if (sim_lock(ep->f, &ep->dev->lock) != 0)
		return;
	if (__atomic_load_n(&shm->owner, __ATOMIC_ACQUIRE) == ep->f->token) {
		sim_fabric_data_unlink(ep->f, ep->ep_index, true);
		__atomic_store_n(&shm->owner_pid, 0, __ATOMIC_RELAXED);
		/* Pairs with the acquire loads of owner. */
		__atomic_store_n(&shm->owner, 0, __ATOMIC_RELEASE);
	}
	sim_unlock(ep->f, &ep->dev->lock);
}

static void
sim_ep_tx_free(struct sim_ep *ep, struct sim_ep_tx *tx)
{
	uint32_t i;

	sim_sender_put(ep->f, tx->sender);
	if (tx->peers != NULL) {
		for (i = 0; i < ep->f->n_endpoints; i++)
			if (tx->peers[i].data != NULL)
				munmap(tx->peers[i].data, tx->peers[i].size);
		free(tx->peers);
	}
	free(tx->routes);
	sim_engine_free(tx->eng);
	memset(tx, 0, sizeof(*tx));
}

/* Sender state with @entries descriptors (doorbells: 1), its engine when timing is on. */
static int
sim_ep_tx_init(struct sim_ep *ep, struct sim_ep_tx *tx, bool with_peers, uint32_t entries)
{
	tx->routes = calloc(RTE_RIO_MAX_DESTIDS(ep->f->devid_size), sizeof(tx->routes[0]));
	if (tx->routes == NULL)
		return -ENOMEM;
	if (with_peers) {
		tx->peers = calloc(ep->f->n_endpoints, sizeof(tx->peers[0]));
		if (tx->peers == NULL) {
			sim_ep_tx_free(ep, tx);
			return -ENOMEM;
		}
	}
	tx->sender = sim_sender_get(ep->f);
	if (tx->sender == 0) {
		sim_ep_tx_free(ep, tx);
		return -ENOSPC;
	}
	if (ep->f->timing) {
		tx->eng = sim_engine_create(ep->f, ep->dev_index, entries);
		if (tx->eng == NULL) {
			sim_ep_tx_free(ep, tx);
			return -ENOMEM;
		}
	}
	tx->open = true;
	tx->accepted = 0;
	tx->reported = 0;
	return 0;
}

/* The doorbell sender of a claimed or attached endpoint; err says why it failed. */
static int
sim_ep_dbell_tx_init(struct sim_ep *ep, char *err, size_t errlen)
{
	int ret = sim_ep_tx_init(ep, &ep->dbell_tx, false, 1);

	if (ret < 0)
		snprintf(err, errlen, "%s", ret == -ENOSPC ? "no sender record left" :
			 "out of memory");
	return ret;
}

struct sim_ep *
sim_ep_claim(struct sim_fabric *f, uint32_t ep_index, char *err, size_t errlen)
{
	char devname[SIM_NAME_MAX];
	struct sim_ep *ep = NULL;
	struct sim_shm_device *dev;
	bool owned = false;
	uint32_t dev_index;
	int ret;

	RTE_BUILD_BUG_ON(offsetof(struct sim_shm_msg_slot, seq) != 0);
	RTE_BUILD_BUG_ON(offsetof(struct sim_shm_dbell_slot, seq) != 0);
	RTE_BUILD_BUG_ON(offsetof(struct sim_shm_pw_slot, seq) != 0);
	RTE_BUILD_BUG_ON(offsetof(struct sim_shm_msg_slot, data) != SIM_SLOT_HDR_SIZE);
	RTE_BUILD_BUG_ON(sizeof(struct sim_shm_msg_slot) != SIM_SLOT_SIZE);
	RTE_BUILD_BUG_ON(SIM_SLOT_INLINE % 8 != 0 || SIM_SLOT_SIZE % RTE_CACHE_LINE_SIZE != 0 ||
			 SIM_SLOT_OVF_SIZE % RTE_CACHE_LINE_SIZE != 0);
	RTE_BUILD_BUG_ON(!RTE_IS_POWER_OF_2(SIM_DBELL_RING_SIZE));
	RTE_BUILD_BUG_ON(!RTE_IS_POWER_OF_2(SIM_PW_RING_SIZE));
	RTE_BUILD_BUG_ON(SIM_MAX_DEVICES > UINT16_MAX);

	if (f == NULL || ep_index >= f->n_endpoints) {
		snprintf(err, errlen, "endpoint index %u out of range", ep_index);
		ret = -EINVAL;
		goto fail;
	}
	dev_index = f->eps[ep_index].dev_index;
	dev = sim_fabric_dev(f, dev_index);
	if (dev == NULL || dev->type != SIM_DEV_ENDPOINT || dev->ep_index != ep_index) {
		snprintf(err, errlen, "fabric %s: endpoint %u is corrupt", f->name, ep_index);
		ret = -EIO;
		goto fail;
	}
	if (!sim_ep_entries_valid(f->mbox_entries)) {
		snprintf(err, errlen, "fabric %s: bad mailbox ring size %u", f->name,
			 f->mbox_entries);
		ret = -EINVAL;
		goto fail;
	}
	sim_shm_name_print(devname, sizeof(devname), dev->name);

	ep = calloc(1, sizeof(*ep));
	if (ep == NULL) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	ep->f = f;
	ep->owner = true;
	ep->rx = ep->rx_local;
	ep->ep_index = ep_index;
	ep->dev_index = dev_index;
	ep->shm = &f->eps[ep_index];
	ep->dev = dev;
	ep->pid = getpid();
	rte_spinlock_init(&ep->dbell_lock);
	ep->entries = f->mbox_entries;
	sim_fabric_data_name(f, ep_index, ep->data_name, sizeof(ep->data_name));

	ret = sim_ep_take(ep, devname, err, errlen);
	if (ret < 0)
		goto fail;
	owned = true;

	/*
	 * A dead owner's segment: nobody maps it any more (generation changed).
	 * Another fabric's that once had this name may lie there too.
	 */
	if (!sim_fabric_data_unlink(f, ep_index, false)) {
		snprintf(err, errlen, "fabric %s: %s belongs to another fabric of that name",
			 f->name, ep->data_name);
		ret = -EEXIST;
		goto fail;
	}
	__atomic_store_n(&ep->shm->mbox_entries, ep->entries, __ATOMIC_RELAXED);

	ret = sim_ep_data_create(ep, err, errlen);
	if (ret < 0)
		goto fail;
	ret = sim_ep_dbell_tx_init(ep, err, errlen);
	if (ret < 0)
		goto fail;
	return ep;
fail:
	if (ep != NULL) {
		if (ep->data != NULL)
			munmap(ep->data, ep->data_size);
		if (owned)
			sim_ep_give_up(ep);
		free(ep);
	}
	/* The caller reports err: one line for the user, not two. */
	rte_errno = -ret;
	return NULL;
}

void
sim_ep_release(struct sim_ep *ep)
{
	uint32_t held = 0, pending;
	unsigned int m;

	if (ep == NULL)
		return;
	/* Senders check mbox_open first: close the door before removing the room. */
	if (ep->owner)
		sim_ep_store32_release(&ep->shm->mbox_open, 0);
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		sim_ep_close_inb_mbox(ep, m);
		sim_ep_close_outb_mbox(ep, m);
		/* They leave with the endpoint, as with a node that goes away. */
		pending = ep->owner && ep->data != NULL ? sim_ep_rx_pending(&ep->rx[m]) : 0;
		if (pending > 0)
			SIM_LOG(NOTICE, "%s: %u messages accepted into mailbox %u never received",
				ep->data_name, pending, m);
	}
	sim_ep_tx_free(ep, &ep->dbell_tx);
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		held += sim_ep_rx_held_count(&ep->rx[m], ep->owner);
	if (held > 0) {
		/*
		 * Mbufs still point into the data segment and at the in-place
		 * entries: both stay, and leak, rather than be freed under them.
		 */
		SIM_LOG(WARNING, "%s: %u messages received in place still held: kept mapped",
			ep->data_name, held);
	} else {
		/* The in-place entries are the owner's, shared with the views. */
		for (m = 0; ep->owner && m < RTE_RIO_MAX_MBOX; m++) {
			if (ep->sh != NULL)
				rte_free(ep->rx[m].held);
			else
				free(ep->rx[m].held);
			ep->rx[m].held = NULL;
		}
		if (ep->data != NULL)
			munmap(ep->data, ep->data_size);
	}
	if (ep->owner)
		sim_ep_give_up(ep);
	free(ep);
}

size_t
sim_ep_shared_size(void)
{
	return sizeof(struct sim_ep_shared);
}

const char *
sim_ep_shared_fabric(const void *area)
{
	const struct sim_ep_shared *sh = area;

	return sh->fabric;
}

int
sim_ep_share(struct sim_ep *ep, void *area)
{
	struct sim_ep_shared *sh = area;
	unsigned int m;

	if (!ep->owner || ep->sh != NULL)
		return -EINVAL;
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		if (ep->rx[m].open)
			return -EBUSY;
	memset(sh, 0, sizeof(*sh));
	snprintf(sh->fabric, sizeof(sh->fabric), "%s", ep->f->name);
	sh->ep_index = ep->ep_index;
	sh->generation = ep->generation;
	sh->data = ep->data;
	sh->data_size = ep->data_size;
	/* The ring views point into this process's mapping, which views map alike. */
	memcpy(sh->rx, ep->rx, sizeof(sh->rx));
	ep->rx = sh->rx;
	ep->sh = sh;
	return 0;
}

/* Map the owner's data segment at the owner's address, and check it. */
static int
sim_ep_view_map(struct sim_ep *ep, const struct sim_ep_shared *sh, char *err, size_t errlen)
{
	struct sim_shm_data_hdr *data = MAP_FAILED;
	char why[160];
	struct stat st;
	int fd, ret = 0;

	fd = sim_fabric_obj_open(ep->f, ep->data_name, O_RDWR, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s", ep->data_name, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot stat %s: %s", ep->data_name, strerror(errno));
		goto out;
	}
	/* The same owner rules as every other segment (sim_shm_check_access()). */
	if (sim_shm_check_access(&st, ep->f->group_access, why, sizeof(why)) != 0) {
		ret = -EACCES;
		snprintf(err, errlen, "%s: %s", ep->data_name, why);
		goto out;
	}
	if ((size_t)st.st_size != sh->data_size || sh->data_size < sim_ep_data_hdr_size()) {
		ret = -EIO;
		snprintf(err, errlen, "%s does not have the size the primary mapped",
			 ep->data_name);
		goto out;
	}
	data = mmap(sh->data, sh->data_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	if (data == MAP_FAILED || data != sh->data) {
		ret = -EADDRINUSE;
		snprintf(err, errlen,
			 "cannot map %s at the primary's address %p: that range is in use here",
			 ep->data_name, sh->data);
		goto out;
	}
	/* Pairs with the release store of magic in sim_ep_data_create(). */
	if (__atomic_load_n(&data->magic, __ATOMIC_ACQUIRE) != SIM_SHM_DATA_MAGIC ||
	    data->version != SIM_SHM_VERSION || data->ep_index != ep->ep_index ||
	    data->generation != sh->generation || !sim_ep_entries_valid(data->entries) ||
	    sim_ep_data_size(data->entries) != sh->data_size) {
		ret = -EIO;
		snprintf(err, errlen, "%s is not the segment the primary created", ep->data_name);
		goto out;
	}
	ep->entries = data->entries;
	ep->data = data;
	ep->data_size = sh->data_size;
	data = MAP_FAILED;
out:
	if (data != MAP_FAILED && data != NULL)
		munmap(data, sh->data_size);
	if (fd >= 0)
		close(fd);
	return ret;
}

struct sim_ep *
sim_ep_attach(struct sim_fabric *f, void *area, char *err, size_t errlen)
{
	struct sim_ep_shared *sh = area;
	struct sim_shm_endpoint *shm;
	struct sim_shm_device *dev;
	struct sim_ep *ep = NULL;
	int ret;

	if (f == NULL || sh == NULL || sh->ep_index >= f->n_endpoints) {
		snprintf(err, errlen, "no such endpoint");
		ret = -EINVAL;
		goto fail;
	}
	shm = &f->eps[sh->ep_index];
	dev = sim_fabric_dev(f, shm->dev_index);
	if (dev == NULL || dev->type != SIM_DEV_ENDPOINT || dev->ep_index != sh->ep_index) {
		snprintf(err, errlen, "fabric %s: endpoint %u is corrupt", f->name, sh->ep_index);
		ret = -EIO;
		goto fail;
	}
	if (sim_ep_load32_acquire(&shm->generation) != sh->generation ||
	    !sim_ep_owner_alive(f, shm)) {
		snprintf(err, errlen, "endpoint %u of fabric %s is no longer held by the primary",
			 sh->ep_index, f->name);
		ret = -ESTALE;
		goto fail;
	}
	ep = calloc(1, sizeof(*ep));
	if (ep == NULL) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	ep->f = f;
	ep->owner = false;
	ep->sh = sh;
	ep->rx = sh->rx;
	ep->ep_index = sh->ep_index;
	ep->dev_index = shm->dev_index;
	ep->shm = shm;
	ep->dev = dev;
	ep->pid = getpid();
	rte_spinlock_init(&ep->dbell_lock);
	ep->generation = sh->generation;
	sim_fabric_data_name(f, ep->ep_index, ep->data_name, sizeof(ep->data_name));
	ret = sim_ep_view_map(ep, sh, err, errlen);
	if (ret < 0)
		goto fail;
	ret = sim_ep_dbell_tx_init(ep, err, errlen);
	if (ret < 0)
		goto fail;
	return ep;
fail:
	if (ep != NULL) {
		if (ep->data != NULL)
			munmap(ep->data, ep->data_size);
		free(ep);
	}
	rte_errno = -ret;
	return NULL;
}

bool
sim_ep_is_owner(const struct sim_ep *ep)
{
	return ep->owner;
}

uint32_t
sim_ep_dev_index(const struct sim_ep *ep)
{
	return ep->dev_index;
}

struct sim_fabric *
sim_ep_fabric(const struct sim_ep *ep)
{
	return ep->f;
}

/* ------------------------------------------------------------------ */
/* Config space                                                       */

/* Maintenance from this endpoint (@val: the value read, or the value to write). */
int
sim_ep_maint(struct sim_ep *ep, uint16_t destid, uint8_t hopcount, bool write,
	     uint32_t offset, int len, uint32_t *val)
{
	int ret;

	ep->st.maint_tx++;
	ret = sim_maint(ep->f, ep->dev_index, destid, hopcount, write, offset, len, val);
	if (ret < 0)
		ep->st.maint_error++;
	return ret;
}

int
sim_ep_maint_block(struct sim_ep *ep, uint16_t destid, uint8_t hopcount, bool write,
		   uint32_t offset, int len, uint32_t *words)
{
	int ret;

	ep->st.maint_tx++;
	ret = sim_maint_block(ep->f, ep->dev_index, destid, hopcount, write, offset, len, words);
	if (ret < 0)
		ep->st.maint_error++;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Routing of messages and doorbells                                  */

/* Endpoint index of the device a packet for destid reaches, or -ETIMEDOUT. */
static int
sim_ep_route_slow(struct sim_fabric *f, uint32_t src_dev, uint8_t src_port, uint16_t destid,
		  uint8_t *in_port)
{
	struct sim_shm_device *dst;
	uint32_t dst_dev;
	int ret;

	ret = sim_route(f, src_dev, src_port, destid, 0, false, &dst_dev, in_port);
	if (ret < 0)
		return ret;
	dst = sim_fabric_dev(f, dst_dev);
	if (dst == NULL || dst->type != SIM_DEV_ENDPOINT || dst->ep_index >= f->n_endpoints ||
	    f->eps[dst->ep_index].dev_index != dst_dev)
		return -ETIMEDOUT;
	return dst->ep_index;
}

/*
 * Packet counters of the first and last link of a cached route: the own
 * port's tx and the target's ingress rx. A route walk (sim_route()) counts
 * its packet on every port of the path itself; cached packets do not cross
 * the switches again, so switch ports count route walks only.
 */
static __rte_always_inline void
sim_ep_count_path(struct sim_ep *ep, const struct sim_ep_route *r, uint32_t n)
{
	struct sim_shm_device *dst;

	if (n == 0)
		return;
	/* Endpoint port 0: the per-endpoint counter lines (see sim_port_pkts()). */
	sim_ring_counter_add(&ep->shm->port_tx_pkts, n);
	if (r->in_port == 0) {
		sim_ring_counter_add(&ep->f->eps[r->ep_index].port_rx_pkts, n);
		return;
	}
	dst = sim_fabric_dev(ep->f, ep->f->eps[r->ep_index].dev_index);
	if (dst != NULL && r->in_port < SIM_MAX_PORTS)
		sim_ring_counter_add(&dst->ports[r->in_port].rx_pkts, n);
}

/*
 * Target endpoint of destid, from the cache when the route generation has
 * not changed and the target still answers to destid. *walked is 1 when the
 * route was walked (and its packet counted) now, else 0.
 */
static __rte_always_inline int
sim_ep_resolve(struct sim_ep *ep, struct sim_ep_tx *tx, uint16_t destid,
	       struct sim_ep_route **route, uint32_t *walked)
{
	struct sim_fabric *f = ep->f;
	struct sim_ep_route *r;
	struct sim_shm_device *dst;
	uint32_t gen, dst_dev;
	int ret;

	if (unlikely(destid >= RTE_RIO_MAX_DESTIDS(f->devid_size)))
		return -ETIMEDOUT;
	/* Acquire pairs with the release that publishes a route change. */
	gen = (uint32_t)__atomic_load_n(&f->hdr->route_gen, __ATOMIC_ACQUIRE) + 1;
	if (gen == 0)
		gen = 1;
	r = &tx->routes[destid];
	*route = r;
	*walked = 0;
	if (likely(r->gen == gen)) {
		dst_dev = f->eps[r->ep_index].dev_index;
		dst = sim_fabric_dev(f, dst_dev);
		if (likely(dst != NULL &&
			   RTE_RIO_GET_DID(f->devid_size,
					   __atomic_load_n(&dst->base_devid, __ATOMIC_RELAXED)) ==
			   destid))
			return r->ep_index;
	}
	*walked = 1;
	ret = sim_ep_route_slow(f, ep->dev_index, sim_ep_tx_port(f, ep->dev_index), destid,
				&r->in_port);
	if (ret < 0) {
		r->gen = 0;
		return ret;
	}
	r->ep_index = ret;
	r->gen = gen;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Peer data segments                                                 */

static void
sim_ep_peer_unmap(struct sim_ep_peer *p)
{
	if (p->data != NULL)
		munmap(p->data, p->size);
	memset(p, 0, sizeof(*p));
}

/* Map and validate the data segment of endpoint t for generation gen. */
static int
sim_ep_peer_map(struct sim_ep *ep, struct sim_ep_peer *p, uint32_t t, uint32_t gen)
{
	char name[SIM_NAME_MAX + 32], why[160] = "layout";
	struct sim_shm_data_hdr *data = NULL;
	struct stat st;
	uint32_t entries;
	size_t size = 0;
	unsigned int m;
	int fd, ret = 0;

	sim_fabric_data_name(ep->f, t, name, sizeof(name));
	fd = sim_fabric_obj_open(ep->f, name, O_RDWR, 0);
	if (fd < 0)
		return -EIO;
	/* Same owner rules as the fabric's main segment (see sim_shm_check_access()). */
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sim_ep_data_hdr_size() ||
	    sim_shm_check_access(&st, ep->f->group_access, why, sizeof(why)) != 0) {
		ret = -EIO;
		goto out;
	}
	size = st.st_size;
	data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		data = NULL;
		ret = -EIO;
		goto out;
	}
	/* Pairs with the release store of magic in sim_ep_data_create(). */
	entries = data->entries;
	if (__atomic_load_n(&data->magic, __ATOMIC_ACQUIRE) != SIM_SHM_DATA_MAGIC ||
	    data->version != SIM_SHM_VERSION || data->ep_index != t ||
	    data->generation != gen || !sim_ep_entries_valid(entries) ||
	    data->total_size != sim_ep_data_size(entries) ||
	    sim_ep_data_size(entries) > size) {
		ret = -EIO;
		goto out;
	}
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++)
		if (data->ring_off[m] != sim_ep_ring_off(entries, m)) {
			ret = -EIO;
			goto out;
		}
	p->data = data;
	p->size = size;
	p->generation = gen;
	sim_ep_data_rings(data, entries, p->rings, p->ring_hdr);
	data = NULL;
out:
	if (data != NULL)
		munmap(data, size);
	close(fd);
	if (ret < 0)
		SIM_LOG(DEBUG, "invalid data segment %s: %s", name, why);
	return ret;
}

/*
 * Ring of mailbox mbox of endpoint t, or -EIO (mailbox closed, segment
 * missing or invalid).
 */
static __rte_always_inline int
sim_ep_peer_get(struct sim_ep *ep, struct sim_ep_tx *tx, uint32_t t, uint8_t mbox,
		struct sim_ep_peer **out)
{
	struct sim_shm_endpoint *tshm = &ep->f->eps[t];
	struct sim_ep_peer *p = &tx->peers[t];
	uint32_t gen;
	int ret;

	/*
	 * Acquire pairs with the owner's release of mbox_open in
	 * sim_ep_open_inb_mbox(): the segment of this generation is complete.
	 */
	if (unlikely(!(sim_ep_load32_acquire(&tshm->mbox_open) & (1u << mbox))))
		return -EIO;
	/* Pairs with the release store of generation in sim_ep_take(). */
	gen = sim_ep_load32_acquire(&tshm->generation);
	if (unlikely(p->data == NULL || p->generation != gen)) {
		sim_ep_peer_unmap(p);
		ret = sim_ep_peer_map(ep, p, t, gen);
		if (ret < 0)
			return ret;
	}
	if (unlikely(p->gone))
		return -ETIMEDOUT;
	*out = p;
	return 0;
}

/*
 * The ring of endpoint t is full. A live owner is only slow: RETRY. A dead
 * owner never drains it: as on a fabric whose target stopped responding,
 * the message times out (-ETIMEDOUT), and so does every later one to this
 * generation of the target without touching its ring (a new owner bumps the
 * generation). The owner is looked at once per millisecond at most.
 */
static int
sim_ep_peer_full(struct sim_ep *ep, struct sim_ep_peer *p, uint32_t t)
{
	struct sim_shm_endpoint *tshm = &ep->f->eps[t];
	uint64_t now = rte_get_timer_cycles();

	if (now < p->next_check)
		return -EAGAIN;
	p->next_check = now + rte_get_timer_hz() / 1000;
	/* Stopped or slow is alive: only an owner that is gone times out. */
	if (sim_ep_owner_alive(ep->f, tshm))
		return -EAGAIN;
	SIM_LOG(DEBUG, "endpoint %u: owner %d is gone, messages to it time out", t,
		(int)__atomic_load_n(&tshm->owner_pid, __ATOMIC_RELAXED));
	p->gone = true;
	return -ETIMEDOUT;
}

/* ------------------------------------------------------------------ */
/* Messages                                                           */

int
sim_ep_open_outb_mbox(struct sim_ep *ep, uint8_t mbox, uint32_t entries)
{
	if (mbox >= RTE_RIO_MAX_MBOX || !sim_ep_entries_valid(entries))
		return -EINVAL;
	if (ep->tx[mbox].open)
		return -EBUSY;
	return sim_ep_tx_init(ep, &ep->tx[mbox], true, entries);
}

void
sim_ep_close_outb_mbox(struct sim_ep *ep, uint8_t mbox)
{
	if (mbox >= RTE_RIO_MAX_MBOX || !ep->tx[mbox].open)
		return;
	sim_ep_tx_free(ep, &ep->tx[mbox]);
}

/*
 * Give back to the senders, in ring order, the slots consumed since
 * held_pos whose messages are no longer held. @return true when none is
 * held any more.
 */
static __rte_always_inline bool
sim_ep_rx_reclaim(struct sim_ep_rx *rx, struct sim_ring *ring)
{
	uint64_t p = rx->held_pos;

	while (p != ring->cons) {
		/* Pairs with the release store in sim_ep_inplace_free(). */
		if (__atomic_load_n(&rx->held[p & (ring->size - 1)].held, __ATOMIC_ACQUIRE))
			break;
		/* Pairs with the producers' acquire load in sim_ring_claim(). */
		sim_ring_store_release(sim_ring_seq(ring, p), p + ring->size);
		p++;
	}
	rx->held_pos = p;
	return p == ring->cons;
}

/*
 * The oldest message received in place is still held. Every
 * SIM_EP_HELD_CHECK such calls, look whether its holder is alive: the
 * messages of a holder that is gone (a process killed while it held them;
 * its mbufs went with it) are taken back, so that the ring moves on.
 */
static void
sim_ep_rx_held_dead(struct sim_ep *ep, struct sim_ep_rx *rx, const struct sim_ring *ring)
{
	uint32_t holder, mask = ring->size - 1, n = 0;
	uint64_t p;

	if (likely(++rx->held_polls < SIM_EP_HELD_CHECK))
		return;
	rx->held_polls = 0;
	holder = __atomic_load_n(&rx->held[rx->held_pos & mask].held, __ATOMIC_ACQUIRE);
	if (holder == 0 || sim_token_alive(ep->f, holder))
		return;
	for (p = rx->held_pos; p != ring->cons; p++) {
		uint32_t exp = holder;

		/* Pairs with the acquire load in sim_ep_rx_reclaim(). */
		if (__atomic_compare_exchange_n(&rx->held[p & mask].held, &exp, 0, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			n++;
	}
	ep->st.msg_rx_held_dead += n;
	SIM_LOG(NOTICE, "%s: mailbox %u: %u messages held in place by process %d, which is gone, taken back",
		ep->data_name, (unsigned int)(rx - ep->rx), n, (int)sim_token_pid(ep->f, holder));
}

/*
 * Consumer: done with the slot at the consumer position, nothing of it
 * held. With held slots before it, it waits for them (ring order).
 */
static __rte_always_inline void
sim_ep_rx_skip(struct sim_ep_rx *rx, struct sim_ring *ring)
{
	if (likely(rx->held_pos == ring->cons)) {
		sim_ring_free_slot(ring);
		rx->held_pos = ring->cons;
	} else {
		rx->held[ring->cons & (ring->size - 1)].held = 0;
		ring->cons++;
	}
}

/* Messages published in an inbound ring and not received yet (slow: walks the ring). */
static uint32_t
sim_ep_rx_pending(const struct sim_ep_rx *rx)
{
	uint32_t n = 0;

	while (n < rx->ring.size &&
	       sim_ring_load_acquire(sim_ring_seq(&rx->ring, rx->ring.cons + n)) ==
	       rx->ring.cons + n + 1)
		n++;
	return n;
}

/*
 * Messages received in place and not yet released, by any process of the
 * group (slow: walks the ring). The owner gives back what was released.
 */
static uint32_t
sim_ep_rx_held_count(struct sim_ep_rx *rx, bool owner)
{
	uint32_t n = 0;
	uint64_t p;

	if (rx->held == NULL)
		return 0;
	/* A secondary's view only looks: the shared receive state is not its own. */
	if (owner)
		sim_ep_rx_reclaim(rx, &rx->ring);
	for (p = rx->held_pos; p != rx->ring.cons; p++)
		n += __atomic_load_n(&rx->held[p & (rx->ring.size - 1)].held,
				     __ATOMIC_ACQUIRE) != 0;
	return n;
}

int
sim_ep_open_inb_mbox(struct sim_ep *ep, uint8_t mbox, uint32_t entries)
{
	struct sim_ep_rx *rx;

	if (mbox >= RTE_RIO_MAX_MBOX || !sim_ep_entries_valid(entries))
		return -EINVAL;
	/* A view uses the mailbox as the owner opened it (or will): nothing to do. */
	if (!ep->owner)
		return 0;
	rx = &ep->rx[mbox];
	if (rx->open)
		return -EBUSY;
	/* Shared receive state holds its FIFO in DPDK memory, for every process. */
	if (ep->sh != NULL)
		rx->bufs = rte_zmalloc("rio_sim_rx_bufs", entries * sizeof(rx->bufs[0]), 0);
	else
		rx->bufs = calloc(entries, sizeof(rx->bufs[0]));
	if (rx->bufs == NULL)
		return -ENOMEM;
	rx->buf_size = entries;
	rx->buf_len = RTE_RIO_MAX_MSG_SIZE;
	rx->buf_head = 0;
	rx->buf_tail = 0;
	memset(&rx->stall, 0, sizeof(rx->stall));
	rx->held_polls = 0;
	/* What the ring kept since the mailbox was closed is delivered now. */
	rx->open = true;
	/* Pairs with the senders' acquire load in sim_ep_peer_get(). */
	__atomic_fetch_or(&ep->shm->mbox_open, 1u << mbox, __ATOMIC_RELEASE);
	return 0;
}

void
sim_ep_close_inb_mbox(struct sim_ep *ep, uint8_t mbox)
{
	struct sim_ep_rx *rx;

	if (!ep->owner || mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open)
		return;
	rx = &ep->rx[mbox];
	/*
	 * New messages are refused (ERROR). A send that began before still
	 * lands in the ring: the ring keeps it, and every message not received
	 * yet, for the next time the mailbox is opened (a message accepted is
	 * never dropped here). Only the posted buffers are forgotten.
	 */
	__atomic_fetch_and(&ep->shm->mbox_open, ~(1u << mbox), __ATOMIC_RELEASE);
	if (ep->sh != NULL)
		rte_free(rx->bufs);
	else
		free(rx->bufs);
	rx->bufs = NULL;
	rx->buf_size = 0;
	rx->open = false;
}

/*
 * Copy message bytes between a buffer and a slot or its overflow block: the
 * sender's emulated DMA into the target's ring and the receiver's into its
 * posted buffer. rte_memcpy() is inlined, but bound at build time to the ISA
 * of the DPDK headers' -march (corei7: 16-byte SSE moves with Debian's
 * DPDK); the C library's memcpy() picks the widest vector unit at run time,
 * which halves the instructions of a long copy. Measured (alternating
 * rounds, rionet/memif in the same round; doc/guides/perf):
 *  - between two processes, 512 bytes, sender: rte_memcpy() 0.96 to 1.10,
 *    glibc 0.67 to 0.99 (6 of 6 rounds); the slot's lines were last read
 *    by the other core. From 1024 bytes on, both alike.
 *  - one testpmd forwarding, 1500 bytes: glibc for both copies from 1024
 *    bytes on was ahead of rte_memcpy() for the receiver's in 9 of 10
 *    rounds (median ratio 1.09 against 1.01); between two processes it
 *    measured alike at 1500 bytes and ahead in 3 of 4 rounds at 4096.
 * From 32 to 64 bytes (minimum-size frames) two overlapping 32-byte moves
 * skip rte_memcpy()'s dispatch on size and alignment: 9 instructions less
 * per sent 64-byte frame (devtools/callgrind-fwd.sh). The copy writes
 * exactly len bytes: a posted buffer is never written past the message.
 */
#define SIM_EP_LONG_COPY	1024

static __rte_always_inline void
sim_ep_msg_copy(void *dst, const void *src, uint16_t len)
{
	if (len >= 32 && len <= 64) {
		rte_mov32(dst, src);
		rte_mov32(RTE_PTR_ADD(dst, len - 32), RTE_PTR_ADD(src, len - 32));
	} else if (len < SIM_EP_LONG_COPY) {
		rte_memcpy(dst, src, len);
	} else {
		memcpy(dst, src, len);
	}
}

/*
 * Copy one message into the claimed slot s at position p of ring r and, past
 * SIM_SLOT_INLINE bytes, the slot's overflow block. On the wire a payload is
 * whole double-words: the message is padded with zeros to a multiple of 8
 * bytes, and that is the length the receiver gets. @arrival: when its last
 * segment arrives (timing model), 0 without.
 */
static __rte_always_inline void
sim_ep_fill_slot(const struct sim_ring *r, uint64_t p, struct sim_shm_msg_slot *s,
		 const struct rte_rio_msg *m, uint16_t src, uint8_t mbox, uint64_t arrival)
{
	uint16_t len = m->len;
	uint8_t *end, *ovf;

	s->len = RTE_ALIGN_CEIL(len, 8);
	s->src = src;
	s->mbox = mbox;
	s->letter = m->letter;
	s->arrival_ns = arrival;
	if (likely(len <= SIM_SLOT_INLINE)) {
		sim_ep_msg_copy(s->data, m->buf, len);
		end = s->data + len;
	} else {
		sim_ep_msg_copy(s->data, m->buf, SIM_SLOT_INLINE);
		ovf = sim_ring_ovf(r, p);
		sim_ep_msg_copy(ovf, (const uint8_t *)m->buf + SIM_SLOT_INLINE,
				    len - SIM_SLOT_INLINE);
		end = ovf + len - SIM_SLOT_INLINE;
	}
	/* SIM_SLOT_INLINE is a multiple of 8: the padding stays in one part. */
	if (len & 7)
		memset(end, 0, 8 - (len & 7));
}

/* Slots claimed with one CAS at most: their addresses are kept on the stack. */
#define SIM_EP_SEND_CLAIM	64u

/*
 * When a request that no response answers fails: at its response timeout,
 * never at once (the sender waits for it, as for maintenance). With the
 * timing model the request starts behind what its mailbox queued.
 */
static uint64_t
sim_ep_timeout_at(struct sim_ep *ep, const struct sim_engine *eng, uint64_t now)
{
	if (eng != NULL)
		return sim_engine_timeout_at(eng, now);
	return sim_now_ns() + sim_resp_timeout_ns(ep->f, ep->dev_index);
}

/*
 * Timing model: the target of a run cannot answer (its responses find no
 * way back). The first message is delivered all the same (if its mailbox
 * has room); its sender hears nothing. @return when the sender fails it.
 */
static uint64_t
sim_ep_send_unanswered(struct sim_ep *ep, struct sim_ep_tx *tx, struct sim_engine_peer *ept,
		       struct sim_ring *ring, struct rte_rio_msg *m, uint16_t src, uint8_t mbox,
		       uint64_t now)
{
	uint64_t p, fail_at = sim_engine_timeout_at(tx->eng, now);
	struct sim_shm_msg_slot *slot;

	if (sim_ring_claim(ring, 1, &p) == 1) {
		slot = sim_ring_slot(ring, p);
		sim_ep_fill_slot(ring, p, slot, m, src, mbox,
				 sim_engine_send(tx->eng, ept, now, m->letter,
						 RTE_ALIGN_CEIL((uint32_t)m->len, 8u)));
		sim_ring_publish_at(slot, p);
	}
	return fail_at;
}

/*
 * Send a burst; @timed (a constant: two versions are built) applies the
 * timing model. Without it the fast path is a route lookup, one claim per
 * run of one destination, the copies and the release stores.
 */
static __rte_always_inline uint16_t
sim_ep_send_burst(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n,
		  const bool timed)
{
	struct sim_ep_route *route;
	struct sim_ep_tx *tx;
	struct sim_ep_peer *peer = NULL;
	struct sim_engine_peer *ept = NULL;
	struct sim_ring *ring, r;
	struct sim_shm_msg_slot *slots[SIM_EP_SEND_CLAIM];
	struct sim_shm_sender *rec;
	uint16_t i = 0, run, src, destid;
	uint32_t k, c, walked, room = UINT32_MAX;
	uint64_t first, bytes = 0, segs = 0, now = 0, fail_at = 0;
	bool busy = false;
	int t, ret = 0;

	tx = &ep->tx[mbox];
	rec = sim_sender(ep->f, tx->sender);
	src = sim_ep_own_destid(ep);
	if (timed) {
		now = sim_now_ns();
		/* Every descriptor is in flight, or a refused message's response is awaited. */
		room = sim_engine_admit(tx->eng, now);
		if (room == 0) {
			ret = -EAGAIN;
			busy = true;
			goto out;
		}
	}
	while (i < n) {
		/*
		 * Messages i..i+run-1 go to the same destination. Lengths,
		 * buffers and letters were checked by lib/rio (the op's contract).
		 */
		destid = msgs[i].destid;
		for (run = i + 1; run < n && msgs[run].destid == destid; run++)
			;
		run -= i;
		t = sim_ep_resolve(ep, tx, destid, &route, &walked);
		if (unlikely(t < 0)) {
			ret = t;
			break;
		}
		if (timed) {
			ept = sim_engine_peer(tx->eng, t, destid, src);
			if (unlikely(ept == NULL)) {
				ret = -ETIMEDOUT;
				break;
			}
		}
		/* A refused message still crossed the fabric (ERROR or RETRY response). */
		ret = sim_ep_peer_get(ep, tx, t, mbox, &peer);
		if (unlikely(ret < 0)) {
			sim_ep_count_path(ep, route, 1 - walked);
			if (timed && ret == -EIO)
				sim_engine_refused(tx->eng, ept, now, msgs[i].letter,
						   RTE_ALIGN_CEIL(msgs[i].len, 8));
			break;
		}
		ring = &peer->rings[mbox];
		/* Receivers wait for what we claim until we publish it (or are gone). */
		sim_sender_start(rec, sim_ring_id(t, mbox));
		if (timed && unlikely(!sim_engine_peer_answers(ept))) {
			sim_ep_count_path(ep, route, 1 - walked);
			fail_at = sim_ep_send_unanswered(ep, tx, ept, ring, &msgs[i], src, mbox, now);
			ret = -ETIMEDOUT;
			break;
		}
		k = sim_ring_claim(ring, RTE_MIN(RTE_MIN((uint32_t)run, SIM_EP_SEND_CLAIM), room),
				   &first);
		if (unlikely(k == 0)) {
			sim_ep_count_path(ep, route, 1 - walked);
			ret = sim_ep_peer_full(ep, peer, t);
			if (ret == -EAGAIN) {
				sim_ring_counter_add(&peer->ring_hdr[mbox]->retries, 1);
				/* RETRY for the first segment: the engine waits for it. */
				if (timed)
					sim_engine_refused(tx->eng, ept, now, msgs[i].letter,
							   RTE_ALIGN_CEIL(msgs[i].len, 8));
			}
			break;
		}
		sim_ep_count_path(ep, route, k - walked);
		/*
		 * A local copy of the geometry stays in registers: the slot
		 * copies (char stores) would make the compiler reload it.
		 */
		r = *ring;
		/* msgs[].mbox and status were set by lib/rio. */
		for (c = 0; c < k; c++) {
			uint32_t len = RTE_ALIGN_CEIL((uint32_t)msgs[i + c].len, 8u);

			slots[c] = sim_ring_slot(&r, first + c);
			sim_ep_fill_slot(&r, first + c, slots[c], &msgs[i + c], src, mbox,
					 timed ? sim_engine_send(tx->eng, ept, now,
								 msgs[i + c].letter, len) : 0);
			bytes += len;
			segs += len > SIM_MSG_SEG_SIZE ?
				(len + SIM_MSG_SEG_SIZE - 1) / SIM_MSG_SEG_SIZE : 1;
		}
		/*
		 * Publish the run last slot first. A receiver that keeps up polls
		 * the first slot of the run; publishing in order would hand it
		 * the run one slot at a time, each poll pulling the header line
		 * being written to the other core and back (per message). This
		 * way it takes the whole run at once: one exchange per run.
		 */
		for (c = k; c > 0; c--)
			sim_ring_publish_at(slots[c - 1], first + c - 1);
		i += k;
		ret = 0;
		if (timed) {
			room -= k;
			if (room == 0 && i < n) {
				/* Every descriptor is in flight: back-pressure. */
				ret = -EAGAIN;
				busy = true;
				break;
			}
		}
	}
out:
	sim_sender_done(rec);
	ep->st.msg_tx += i;
	ep->st.msg_tx_bytes += bytes;
	ep->st.msg_tx_segs += segs;
	tx->accepted += i;
	if (unlikely(i < n)) {
		/* No response: the request fails at its response timeout, not now. */
		if (ret == -ETIMEDOUT)
			sim_wait_until(fail_at != 0 ? fail_at : sim_ep_timeout_at(ep, tx->eng, now));
		msgs[i].status = ret;
		if (busy)
			ep->st.msg_tx_busy++;
		else if (ret == -EAGAIN)
			ep->st.msg_tx_retry++;
		else
			ep->st.msg_tx_error++;
	}
	return i;
}

uint16_t
sim_ep_send(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	if (unlikely(mbox >= RTE_RIO_MAX_MBOX || !ep->tx[mbox].open)) {
		if (n > 0)
			msgs[0].status = -EINVAL;
		return 0;
	}
	if (unlikely(ep->tx[mbox].eng != NULL))
		return sim_ep_send_burst(ep, mbox, msgs, n, true);
	return sim_ep_send_burst(ep, mbox, msgs, n, false);
}

int64_t
sim_ep_outb_completion(struct sim_ep *ep, uint8_t mbox)
{
	struct sim_ep_tx *tx;
	int64_t done;

	if (mbox >= RTE_RIO_MAX_MBOX || !ep->tx[mbox].open)
		return -EINVAL;
	tx = &ep->tx[mbox];
	/* Timing model: complete once the response to the last segment is back. */
	if (tx->eng != NULL)
		return (int64_t)sim_engine_completions(tx->eng, sim_now_ns());
	done = tx->accepted - tx->reported;
	tx->reported = tx->accepted;
	return done;
}

int
sim_ep_set_inb_buf_size(struct sim_ep *ep, uint8_t mbox, uint16_t size)
{
	struct sim_ep_rx *rx;

	if (mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open || size < RTE_RIO_MIN_MSG_SIZE ||
	    size > RTE_RIO_MAX_MSG_SIZE)
		return -EINVAL;
	rx = &ep->rx[mbox];
	if (rx->buf_tail != rx->buf_head)
		return -EBUSY;
	rx->buf_len = size;
	return 0;
}

uint16_t
sim_ep_add_inb_buffers(struct sim_ep *ep, uint8_t mbox, void * const *bufs, uint16_t n)
{
	struct sim_ep_rx *rx;
	uint32_t room, tail, first;

	if (mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open)
		return 0;
	rx = &ep->rx[mbox];
	room = rx->buf_size - (rx->buf_tail - rx->buf_head);
	if (n > room)
		n = room;
	/* lib/rio passes no NULL buffer. Copy in at most two runs (ring wrap). */
	tail = rx->buf_tail & (rx->buf_size - 1);
	first = RTE_MIN((uint32_t)n, rx->buf_size - tail);
	memcpy(&rx->bufs[tail], bufs, first * sizeof(bufs[0]));
	if (first < n)
		memcpy(&rx->bufs[0], &bufs[first], (n - first) * sizeof(bufs[0]));
	rx->buf_tail += n;
	return n;
}

/*
 * The slot at the consumer position of @r is claimed but not published.
 * Once it has stayed so for SIM_EP_STALL_SCAN_MS, and every as long after,
 * ask the sender records: true when no live sender claims slots of ring
 * @ring_id and the slot is still not published, that is, nobody will ever
 * publish it (its producer is gone, or someone else moved the producer
 * head): skip it. A live sender, however long it is stopped, keeps it.
 */
static bool
sim_ep_stall_dead(const struct sim_fabric *f, const struct sim_ring *r, uint32_t ring_id,
		  struct sim_ep_stall *st, uint64_t *waits)
{
	uint64_t now = rte_get_timer_cycles();

	if (st->since == 0 || st->pos != r->cons) {
		st->pos = r->cons;
		st->since = now | 1;
		st->waited = false;
		return false;
	}
	if (now - st->since < rte_get_timer_hz() / 1000 * SIM_EP_STALL_SCAN_MS)
		return false;
	st->since = now | 1;
	if (sim_sender_claiming(f, ring_id)) {
		if (!st->waited && waits != NULL)
			(*waits)++;
		st->waited = true;
		return false;
	}
	/* The sender may have published and left since we looked at the slot. */
	return !sim_ring_published(r);
}

/*
 * Every SIM_EP_STALL_CHECK empty polls of a ring: repair a producer head
 * that someone moved outside the ring, or, when the consumer position is
 * claimed but not published, tell whether to skip it (sim_ep_stall_dead()).
 */
static enum sim_ep_idle
sim_ep_ring_idle(const struct sim_fabric *f, struct sim_ring *r, uint32_t ring_id,
		 struct sim_ep_stall *st, uint64_t *waits)
{
	if (likely(++st->polls < SIM_EP_STALL_CHECK))
		return SIM_EP_IDLE_OK;
	st->polls = 0;
	if (sim_ring_repair_prod_head(r))
		return SIM_EP_IDLE_REPAIRED;
	if (!sim_ring_claimed_unpublished(r)) {
		st->since = 0;
		return SIM_EP_IDLE_OK;
	}
	if (!sim_ep_stall_dead(f, r, ring_id, st, waits))
		return SIM_EP_IDLE_OK;
	st->since = 0;
	return SIM_EP_IDLE_SKIP;
}

/*
 * Timing model: a message is received once its last segment has arrived.
 * @now: a clock reading of this call, 0 until the first is needed. An
 * arrival time further ahead than any sender schedules is garbage: taken.
 */
#define SIM_EP_ARRIVAL_MAX_AHEAD_NS	(10ull * 1000000000ull)

static __rte_always_inline bool
sim_ep_msg_arrived(const struct sim_shm_msg_slot *s, uint64_t *now)
{
	uint64_t at = s->arrival_ns;

	if (likely(at <= *now))
		return true;
	*now = sim_now_ns();
	return at <= *now || at - *now > SIM_EP_ARRIVAL_MAX_AHEAD_NS;
}

/*
 * The slot at the consumer position of @ring (rx's local copy): READY, EMPTY
 * (stop), or BAD, counted, for the caller to skip; a slot claimed that
 * nobody will publish is BAD too (sim_ep_ring_idle()). With the timing
 * model (@now not NULL) a message not arrived yet is EMPTY.
 */
static __rte_always_inline enum sim_ring_state
sim_ep_rx_peek(struct sim_ep *ep, struct sim_ep_rx *rx, struct sim_ring *ring, uint8_t mbox,
	       struct sim_shm_msg_slot **slot, uint64_t *now)
{
	enum sim_ring_state state;
	enum sim_ep_idle idle;
	void *p;

	state = sim_ring_peek(ring, &p);
	*slot = p;
	if (likely(state == SIM_RING_READY)) {
		if (now != NULL && !sim_ep_msg_arrived(*slot, now))
			return SIM_RING_EMPTY;
		return state;
	}
	if (state == SIM_RING_EMPTY) {
		rx->ring.cons = ring->cons;
		idle = sim_ep_ring_idle(ep->f, &rx->ring, sim_ring_id(ep->ep_index, mbox),
					&rx->stall, &ep->st.msg_rx_wait_sender);
		if (likely(idle == SIM_EP_IDLE_OK))
			return SIM_RING_EMPTY;
		if (idle == SIM_EP_IDLE_REPAIRED) {
			ep->st.msg_rx_bad_index++;
			return SIM_RING_EMPTY;
		}
		state = SIM_RING_BAD;
	}
	if (unlikely(state == SIM_RING_BAD))
		ep->st.msg_rx_bad++;
	return state;
}

/*
 * Read the header of published slot @s once and check the local copies:
 * @return its length, or 0 when it cannot be delivered, counted as too long
 * (a valid message longer than the longest deliverable one, @span +
 * RTE_RIO_MIN_MSG_SIZE, which is within the message size bounds: one
 * unsigned compare covers both) or as bad.
 */
static __rte_always_inline uint16_t
sim_ep_rx_check(struct sim_ep *ep, struct sim_shm_msg_slot *s, uint8_t mbox, uint16_t span,
		uint8_t *letter)
{
	uint16_t len = s->len;
	uint8_t slot_mbox = s->mbox;

	*letter = s->letter;
	if (likely((uint16_t)(len - RTE_RIO_MIN_MSG_SIZE) <= span && slot_mbox == mbox &&
		   *letter < RTE_RIO_MAX_LETTER))
		return len;
	if (len > span + RTE_RIO_MIN_MSG_SIZE && len <= RTE_RIO_MAX_MSG_SIZE &&
	    slot_mbox == mbox && *letter < RTE_RIO_MAX_LETTER)
		ep->st.msg_rx_too_long++;
	else
		ep->st.msg_rx_bad++;
	return 0;
}

/* Fill the descriptor of a delivered message. */
static __rte_always_inline void
sim_ep_rx_deliver(struct rte_rio_msg *o, struct sim_shm_msg_slot *s, void *buf, uint16_t len,
		  uint16_t dst, uint8_t mbox, uint8_t letter)
{
	o->buf = buf;
	o->len = len;
	o->destid = dst;
	o->srcid = s->src;
	o->mbox = mbox;
	o->letter = letter;
	o->status = 0;
}

/* End of a receive call: the consumer position and the counters. @return cnt. */
static __rte_always_inline uint16_t
sim_ep_rx_end(struct sim_ep *ep, struct sim_ep_rx *rx, const struct sim_ring *ring,
	      uint64_t cons0, uint16_t cnt, uint64_t bytes)
{
	rx->ring.cons = ring->cons;
	if (ring->cons != cons0)
		sim_ring_cons_sync(&rx->ring);
	if (cnt > 0) {
		ep->st.msg_rx += cnt;
		ep->st.msg_rx_bytes += bytes;
		sim_ring_counter_add(&rx->ring_hdr->rx_msgs, cnt);
	}
	return cnt;
}

uint16_t
sim_ep_recv(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs, uint16_t n)
{
	struct sim_ep_rx *rx;
	struct sim_ring ring;
	struct sim_shm_msg_slot *s;
	enum sim_ring_state state;
	uint32_t budget, avail;
	struct rte_rio_msg *o = msgs, *o_end;
	uint16_t len, dst, span;
	uint64_t cons0, bytes = 0, now = 0, *timed;
	uint32_t buf_head, buf_mask;
	void *buf, **bufs;
	uint8_t letter;

	if (unlikely(mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open))
		return 0;
	rx = &ep->rx[mbox];
	/* Slots are freed in ring order: not past a message still held in place. */
	if (unlikely(rx->held_pos != rx->ring.cons) && !sim_ep_rx_reclaim(rx, &rx->ring)) {
		sim_ep_rx_held_dead(ep, rx, &rx->ring);
		return 0;
	}
	avail = rx->buf_tail - rx->buf_head;
	if (n > avail)
		n = avail;
	if (n == 0)
		return 0;
	dst = sim_ep_own_destid(ep);
	timed = ep->f->timing ? &now : NULL;
	/*
	 * A local copy of the ring (geometry and consumer position) stays in
	 * registers across the slot copies; rx->ring is updated before any
	 * call that reads it and at the end.
	 */
	ring = rx->ring;
	cons0 = ring.cons;
	bufs = rx->bufs;
	buf_head = rx->buf_head;
	buf_mask = rx->buf_size - 1;
	span = rx->buf_len - RTE_RIO_MIN_MSG_SIZE;
	o_end = msgs + n;
	/* Bad slots are skipped, but never more than one lap per call. */
	for (budget = ring.size + n; o < o_end && budget > 0; budget--) {
		state = sim_ep_rx_peek(ep, rx, &ring, mbox, &s, timed);
		if (unlikely(state != SIM_RING_READY)) {
			if (state == SIM_RING_EMPTY)
				break;
			sim_ring_free_slot(&ring);
			continue;
		}
		len = sim_ep_rx_check(ep, s, mbox, span, &letter);
		if (unlikely(len == 0)) {
			/* Bad, or longer than the posted buffers: the buffer stays posted. */
			sim_ring_free_slot(&ring);
			continue;
		}
		buf = bufs[buf_head++ & buf_mask];
		if (likely(len <= SIM_SLOT_INLINE)) {
			sim_ep_msg_copy(buf, s->data, len);
		} else {
			sim_ep_msg_copy(buf, s->data, SIM_SLOT_INLINE);
			sim_ep_msg_copy((uint8_t *)buf + SIM_SLOT_INLINE,
					sim_ring_ovf(&ring, ring.cons), len - SIM_SLOT_INLINE);
		}
		sim_ep_rx_deliver(o, s, buf, len, dst, mbox, letter);
		bytes += len;
		sim_ring_free_slot(&ring);
		o++;
	}
	rx->held_pos = ring.cons;
	rx->buf_head = buf_head;
	return sim_ep_rx_end(ep, rx, &ring, cons0, o - msgs, bytes);
}

/* Release callback of a message received in place: its slot may be given back. */
static void
sim_ep_inplace_free(void *addr, void *opaque)
{
	struct sim_ep_held *h = opaque;

	RTE_SET_USED(addr);
	/* Pairs with the consumer's acquire load in sim_ep_rx_reclaim(). */
	__atomic_store_n(&h->held, 0, __ATOMIC_RELEASE);
}

/* The in-place entries of a mailbox, allocated at its first in-place receive. */
static int
sim_ep_rx_held_init(struct sim_ep *ep, struct sim_ep_rx *rx)
{
	size_t size = (size_t)rx->ring.size * sizeof(rx->held[0]);
	uint32_t i;

	/* Shared receive state: every process of the group reaches the entries. */
	if (ep->sh != NULL)
		rx->held = rte_zmalloc("rio_sim_rx_held", size, RTE_CACHE_LINE_SIZE);
	else
		rx->held = calloc(1, size);
	if (rx->held == NULL)
		return -ENOMEM;
	for (i = 0; i < rx->ring.size; i++)
		rx->held[i].shinfo.fcb_opaque = &rx->held[i];
	return 0;
}

/*
 * Receive in place: the message stays in its slot (its first SIM_SLOT_INLINE
 * bytes, so no longer than that) and the slot stays the receiver's until
 * the message is released through its shared info. Same checks and counters
 * as sim_ep_recv(); the declared buffer size applies too.
 */
uint16_t
sim_ep_recv_inplace(struct sim_ep *ep, uint8_t mbox, struct rte_rio_msg *msgs,
		    struct rte_mbuf_ext_shared_info **shinfo, uint16_t n)
{
	struct sim_ep_rx *rx;
	struct sim_ring ring;
	struct sim_shm_msg_slot *s;
	enum sim_ring_state state;
	struct rte_rio_msg *o = msgs, *o_end;
	struct sim_ep_held *h;
	uint16_t len, dst, span;
	uint64_t cons0, bytes = 0, now = 0, *timed;
	uint32_t budget;
	uint8_t letter;

	if (unlikely(mbox >= RTE_RIO_MAX_MBOX || !ep->rx[mbox].open || n == 0))
		return 0;
	rx = &ep->rx[mbox];
	if (unlikely(rx->held == NULL) && sim_ep_rx_held_init(ep, rx) < 0)
		return 0;
	dst = sim_ep_own_destid(ep);
	timed = ep->f->timing ? &now : NULL;
	ring = rx->ring;
	cons0 = ring.cons;
	if (!sim_ep_rx_reclaim(rx, &ring))
		sim_ep_rx_held_dead(ep, rx, &ring);
	span = RTE_MIN(rx->buf_len, (uint32_t)SIM_SLOT_INLINE) - RTE_RIO_MIN_MSG_SIZE;
	o_end = msgs + n;
	/*
	 * A lap past the oldest held slot is that slot again, still the
	 * receiver's (its seq of the last lap would read as a bad slot): stop.
	 */
	for (budget = ring.size + n; o < o_end && budget > 0 &&
	     ring.cons - rx->held_pos < ring.size; budget--) {
		state = sim_ep_rx_peek(ep, rx, &ring, mbox, &s, timed);
		if (unlikely(state != SIM_RING_READY)) {
			if (state == SIM_RING_EMPTY)
				break;
			sim_ep_rx_skip(rx, &ring);
			continue;
		}
		len = sim_ep_rx_check(ep, s, mbox, span, &letter);
		if (unlikely(len == 0)) {
			sim_ep_rx_skip(rx, &ring);
			continue;
		}
		h = &rx->held[ring.cons & (ring.size - 1)];
		h->held = ep->f->token;
		/* Set at each receive: the callback's address is this process's. */
		h->shinfo.free_cb = sim_ep_inplace_free;
		rte_mbuf_ext_refcnt_set(&h->shinfo, 1);
		*shinfo++ = &h->shinfo;
		sim_ep_rx_deliver(o, s, s->data, len, dst, mbox, letter);
		bytes += len;
		ring.cons++;
		o++;
	}
	return sim_ep_rx_end(ep, rx, &ring, cons0, o - msgs, bytes);
}

/* ------------------------------------------------------------------ */
/* Doorbells                                                          */

/*
 * A doorbell is one packet and its response, and the call returns with the
 * response (DONE, RETRY, ERROR), or at the response timeout when none
 * comes. With the timing model the doorbell reaches the target's queue
 * when it arrives and the call returns when the response is back. Under
 * ep->dbell_lock (the route cache, the sender record and the engine).
 */
static int
sim_ep_dsend_locked(struct sim_ep *ep, uint16_t destid, uint16_t info)
{
	struct sim_shm_sender *rec = sim_sender(ep->f, ep->dbell_tx.sender);
	struct sim_engine *eng = ep->dbell_tx.eng;
	struct sim_engine_peer *ept = NULL;
	uint64_t now = 0, arrival = 0, done = 0;
	struct sim_shm_endpoint *tshm;
	struct sim_shm_dbell_slot *s;
	struct sim_ep_route *route;
	struct sim_ring ring;
	uint32_t walked;
	uint64_t p;
	int t, ret;

	if (eng != NULL)
		now = sim_now_ns();
	t = sim_ep_resolve(ep, &ep->dbell_tx, destid, &route, &walked);
	if (t >= 0 && eng != NULL) {
		ept = sim_engine_peer(eng, t, destid, sim_ep_own_destid(ep));
		if (ept == NULL)
			t = -ETIMEDOUT;
		else
			sim_engine_doorbell(eng, ept, now, &arrival, &done);
	}
	if (t < 0) {
		ret = t;
		goto fail;
	}
	sim_ep_count_path(ep, route, 1 - walked);
	tshm = &ep->f->eps[t];
	/* Nobody runs that endpoint: its doorbell queue would be reset at claim. */
	if (__atomic_load_n(&tshm->owner, __ATOMIC_ACQUIRE) == 0) {
		ret = -EIO;
		goto fail;
	}
	/*
	 * An owner that is gone answers nothing (doorbells are rare: look every
	 * time); a stopped one is alive and gets it.
	 */
	if (!sim_ep_owner_alive(ep->f, tshm)) {
		ret = -ETIMEDOUT;
		goto fail;
	}
	sim_ring_attach(&ring, &tshm->dbell_pos, tshm->dbell, sizeof(tshm->dbell[0]),
			SIM_DBELL_RING_SIZE);
	/* It is queued (or refused) when it arrives. */
	sim_wait_until(arrival);
	sim_sender_start(rec, sim_ring_id(t, SIM_RING_DBELL));
	if (sim_ring_claim(&ring, 1, &p) == 0) {
		sim_sender_done(rec);
		sim_ring_counter_add(&tshm->dbell_retry, 1);
		ep->st.dbell_tx_retry++;
		if (done == 0 && eng != NULL)
			sim_wait_until(sim_engine_timeout_at(eng, now));
		sim_wait_until(done);
		return done == 0 && eng != NULL ? -ETIMEDOUT : -EAGAIN;
	}
	s = sim_ring_slot(&ring, p);
	s->src = sim_ep_own_destid(ep);
	s->dst = destid;
	s->info = info;
	sim_ring_publish(&ring, p);
	sim_sender_done(rec);
	sim_ring_counter_add(&tshm->dbell_rx, 1);
	if (done == 0 && eng != NULL) {
		/* Delivered, but its response finds no way back. */
		ret = -ETIMEDOUT;
		goto fail;
	}
	sim_wait_until(done);
	ep->st.dbell_tx++;
	return 0;
fail:
	ep->st.dbell_tx_error++;
	/* No response: the request fails at its response timeout, not at once. */
	if (ret == -ETIMEDOUT)
		sim_wait_until(sim_ep_timeout_at(ep, eng, now));
	else if (ret == -EIO)
		sim_wait_until(done);
	return ret;
}

int
sim_ep_dsend(struct sim_ep *ep, uint16_t destid, uint16_t info)
{
	int ret;

	rte_spinlock_lock(&ep->dbell_lock);
	ret = sim_ep_dsend_locked(ep, destid, info);
	rte_spinlock_unlock(&ep->dbell_lock);
	return ret;
}

int
sim_ep_dbell_fetch(struct sim_ep *ep, struct rte_rio_dbell *dbells, uint16_t n)
{
	struct sim_shm_dbell_slot *s;
	enum sim_ring_state state;
	enum sim_ep_idle idle;
	uint32_t budget;
	void *slot;
	int cnt = 0;

	/* The owner consumes the endpoint's doorbells. */
	if (!ep->owner)
		return 0;
	for (budget = ep->dbell_ring.size + n; cnt < n && budget > 0; budget--) {
		state = sim_ring_peek(&ep->dbell_ring, &slot);
		if (state == SIM_RING_EMPTY) {
			idle = sim_ep_ring_idle(ep->f, &ep->dbell_ring,
						sim_ring_id(ep->ep_index, SIM_RING_DBELL),
						&ep->dbell_stall, NULL);
			if (likely(idle == SIM_EP_IDLE_OK))
				break;
			ep->st.dbell_rx_bad++;
			if (idle == SIM_EP_IDLE_REPAIRED)
				break;
			sim_ring_free(&ep->dbell_ring);
			continue;
		}
		if (likely(state == SIM_RING_READY)) {
			s = slot;
			dbells[cnt].src = s->src;
			dbells[cnt].dst = s->dst;
			dbells[cnt].info = s->info;
			cnt++;
		} else {
			ep->st.dbell_rx_bad++;
		}
		sim_ring_free(&ep->dbell_ring);
	}
	ep->st.dbell_rx += cnt;
	return cnt;
}

/* ------------------------------------------------------------------ */
/* Port-writes                                                        */

RTE_INIT(sim_ep_pw_handler)
{
	sim_port_write_handler_set(sim_pw_deliver);
}

int
sim_pw_deliver(struct sim_fabric *f, uint32_t src_dev, uint16_t destid,
	       const uint32_t *payload, uint32_t len)
{
	struct sim_shm_device *sdev = sim_fabric_dev(f, src_dev), *dst;
	struct sim_shm_endpoint *tshm;
	struct sim_shm_sender *rec;
	struct sim_shm_pw_slot *s;
	struct sim_ring ring;
	uint32_t dst_dev;
	uint8_t in_port;
	uint64_t p;
	int t;

	if (sdev == NULL || payload == NULL || len == 0 || len > RTE_RIO_PW_MSG_SIZE)
		return -EINVAL;
	t = sim_pw_route(f, src_dev, destid, &dst_dev, &in_port);
	if (t < 0)
		return t;
	dst = sim_fabric_dev(f, dst_dev);
	if (dst == NULL || dst->type != SIM_DEV_ENDPOINT)
		return -ETIMEDOUT;
	t = (int)__atomic_load_n(&dst->ep_index, __ATOMIC_RELAXED);	/* untrusted: once */
	if ((uint32_t)t >= f->n_endpoints)
		return -ETIMEDOUT;
	tshm = &f->eps[t];
	if (__atomic_load_n(&tshm->owner, __ATOMIC_ACQUIRE) == 0)
		goto dropped;
	sim_ring_attach(&ring, &tshm->pw_pos, tshm->pw, sizeof(tshm->pw[0]), SIM_PW_RING_SIZE);
	rte_spinlock_lock(&f->pw_lock);
	if (f->pw_sender == 0)
		f->pw_sender = sim_sender_get(f);
	if (f->pw_sender == 0) {
		rte_spinlock_unlock(&f->pw_lock);
		goto dropped;
	}
	rec = sim_sender(f, f->pw_sender);
	sim_sender_start(rec, sim_ring_id(t, SIM_RING_PW));
	if (sim_ring_claim(&ring, 1, &p) == 0) {
		sim_sender_done(rec);
		rte_spinlock_unlock(&f->pw_lock);
		goto dropped;
	}
	s = sim_ring_slot(&ring, p);
	s->len = len;
	memset(s->payload, 0, sizeof(s->payload));
	memcpy(s->payload, payload, len);
	sim_ring_publish(&ring, p);
	sim_sender_done(rec);
	rte_spinlock_unlock(&f->pw_lock);
	sim_ring_counter_add(&tshm->pw_rx, 1);
	return 0;
dropped:
	/* Port-writes are droppable: count it, the sender does not retry. */
	sim_ring_counter_add(&tshm->pw_dropped, 1);
	return -ENOBUFS;
}

int
sim_ep_pw_fetch(struct sim_ep *ep, struct rte_rio_pw_msg *msgs, uint16_t n)
{
	struct sim_shm_pw_slot *s;
	enum sim_ring_state state;
	enum sim_ep_idle idle;
	uint32_t budget, len;
	void *slot;
	int cnt = 0;

	/* The owner consumes the endpoint's port-writes. */
	if (!ep->owner)
		return 0;
	sim_fabric_pw_tick(ep->f);
	for (budget = SIM_PW_RING_SIZE + n; cnt < n && budget > 0; budget--) {
		state = sim_ring_peek(&ep->pw_ring, &slot);
		if (state == SIM_RING_EMPTY) {
			idle = sim_ep_ring_idle(ep->f, &ep->pw_ring,
						sim_ring_id(ep->ep_index, SIM_RING_PW), &ep->pw_stall,
						NULL);
			if (likely(idle == SIM_EP_IDLE_OK))
				break;
			ep->st.pw_rx_bad++;
			if (idle == SIM_EP_IDLE_REPAIRED)
				break;
			sim_ring_free(&ep->pw_ring);
			continue;
		}
		s = slot;
		len = s->len;
		if (likely(state == SIM_RING_READY && len > 0 && len <= RTE_RIO_PW_MSG_SIZE)) {
			memset(&msgs[cnt], 0, sizeof(msgs[cnt]));
			memcpy(msgs[cnt].raw, s->payload, len);
			msgs[cnt].len = len;
			cnt++;
		} else {
			ep->st.pw_rx_bad++;
		}
		sim_ring_free(&ep->pw_ring);
	}
	ep->st.pw_rx += cnt;
	return cnt;
}

/* ------------------------------------------------------------------ */
/* Statistics                                                         */

void
sim_ep_stats_get(const struct sim_ep *ep, struct sim_ep_stats *st)
{
	*st = ep->st;
}

void
sim_ep_stats_reset(struct sim_ep *ep)
{
	memset(&ep->st, 0, sizeof(ep->st));
}
