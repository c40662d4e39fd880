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
#include "rio_sim_ep.h"

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
	sim_ep_data_rings(data, ep->entries, rings, hdrs);
	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		sim_ring_reset(&rings[m]);
		ep->rx[m].ring = rings[m];
		ep->rx[m].ring_hdr = hdrs[m];
	}
	sim_ep_data_hdr_write(ep, data, size);
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
	sim_ep_set_dbell_depth(ep, SIM_DBELL_RING_SIZE);
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
	rte_spinlock_init(&ep->mem_lock);
	ep->entries = f->mbox_entries;
	sim_fabric_data_name(f, ep_index, ep->data_name, sizeof(ep->data_name));

	ret = sim_ep_take(ep, devname, err, errlen);
	if (ret < 0)
		goto fail;
	owned = true;
	sim_ep_mem_reset(ep);

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
	sim_ep_mem_free(ep);
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
	uint32_t entries;
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
	entries = __atomic_load_n(&data->entries, __ATOMIC_RELAXED);
	if (!sim_ep_entries_valid(entries) || sim_ep_data_size(entries) != sh->data_size ||
	    !sim_ep_data_hdr_ok(data, ep->ep_index, sh->generation, entries)) {
		ret = -EIO;
		snprintf(err, errlen, "%s is not the segment the primary created", ep->data_name);
		goto out;
	}
	ep->entries = entries;
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
	rte_spinlock_init(&ep->mem_lock);
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
/* Statistics                                                         */

void
sim_ep_stats_get(const struct sim_ep *ep, struct sim_ep_stats *st)
{
	*st = ep->st;
	if (ep->owner) {
		st->mem_rx_pkts = __atomic_load_n(&ep->shm->mem_rx_pkts, __ATOMIC_RELAXED);
		st->mem_rx_refused = __atomic_load_n(&ep->shm->mem_rx_refused, __ATOMIC_RELAXED);
	}
}

void
sim_ep_stats_reset(struct sim_ep *ep)
{
	memset(&ep->st, 0, sizeof(ep->st));
}
