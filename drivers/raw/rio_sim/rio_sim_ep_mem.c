/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Memory space of a claimed endpoint: inbound windows, and the NREAD,
 * NWRITE, NWRITE_R and SWRITE packets it sends (RapidIO Part 1, I/O
 * logical; types 2, 5 and 6, responses type 13).
 *
 * An inbound window is a shared-memory segment of the fabric
 * ("rio_sim.<fabric>.ep<N>.w<k>") that the owner maps over the pages of the
 * application's buffer (MAP_FIXED, after copying what the buffer held): a
 * packet that another process writes into the window changes the
 * application's buffer, as a real inbound engine writes host memory, and
 * what the application writes there is what an NREAD returns. Unmapping
 * gives the buffer private pages again, with what the window last held.
 * The window's place in RapidIO address space is an entry of the
 * endpoint's table in the main segment (struct sim_shm_window), under a
 * sequence lock; initiators find the window there, map its segment (once
 * per window entry) and copy the packets' bytes.
 *
 * A transaction is routed by destination ID through the switches' route
 * tables like a message. With the timing model every packet (one per 256
 * bytes at most) takes its serialization on every link and the crossing
 * latency of every switch, sharing the links with all other traffic; NREAD
 * and NWRITE_R packets each have a response, sent response_latency after
 * the request arrived. Packets follow each other back to back (any number
 * outstanding). The bytes move when the last request has arrived; the call
 * returns when the last response is back (NWRITE, SWRITE: when the last
 * request has arrived).
 *
 * Errors: a packet no window of the target covers, of a type its
 * Destination Operations CAR lacks, or with another address size than its
 * PE Logical Layer Control CSR selects is refused: ERROR response (-EIO)
 * for NREAD and NWRITE_R, counted only for NWRITE and SWRITE, which have no
 * response. A request or response that no route carries, or a target whose
 * owner is gone, answers nothing: -ETIMEDOUT after the response timeout
 * (NWRITE, SWRITE: 0, unless the packet cannot leave our own port). The
 * path is looked at again when the requests are in and when the responses
 * are back: packets on a link that went down meanwhile are lost, so a
 * transfer that a link failure interrupts fails from the burst that was on
 * the way (up to 128 packets, RIO_MEM_BURST of lib/rio) on.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include "rio_sim_fabric.h"
#include "rio_sim_ep.h"

#define SIM_PELL_ADDR_MASK \
	(RTE_RIO_PELL_ADDR_34 | RTE_RIO_PELL_ADDR_50 | RTE_RIO_PELL_ADDR_66)

/* ------------------------------------------------------------------ */
/* Window table (main segment), written by the owner only             */

static void
sim_win_entry_set(struct sim_shm_window *w, uint64_t rio_addr, uint64_t size, uint64_t dev,
		  uint64_t ino)
{
	/* Even at rest (an odd value is garbage: start from the next even one). */
	uint32_t seq = (__atomic_load_n(&w->seq, __ATOMIC_RELAXED) + 1) & ~1u;

	/* Odd while changing; the release fence orders it before the fields. */
	__atomic_store_n(&w->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&w->rio_addr, rio_addr, __ATOMIC_RELAXED);
	__atomic_store_n(&w->size, size, __ATOMIC_RELAXED);
	__atomic_store_n(&w->seg_dev, dev, __ATOMIC_RELAXED);
	__atomic_store_n(&w->seg_ino, ino, __ATOMIC_RELAXED);
	/* Even again, and new: pairs with the acquire loads in sim_win_read(). */
	__atomic_store_n(&w->seq, seq + 2, __ATOMIC_RELEASE);
}

/* A consistent copy of an entry; false while it changes or when it is garbage. */
static bool
sim_win_read(const struct sim_shm_window *w, struct sim_shm_window *out)
{
	uint32_t s1, s2;

	s1 = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE);
	if (s1 & 1u)
		return false;
	out->rio_addr = __atomic_load_n(&w->rio_addr, __ATOMIC_RELAXED);
	out->size = __atomic_load_n(&w->size, __ATOMIC_RELAXED);
	out->seg_dev = __atomic_load_n(&w->seg_dev, __ATOMIC_RELAXED);
	out->seg_ino = __atomic_load_n(&w->seg_ino, __ATOMIC_RELAXED);
	/* The field loads before the second look at seq. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&w->seq, __ATOMIC_RELAXED);
	if (s1 != s2)
		return false;
	out->seq = s1;
	/* Nothing read from shared memory is trusted. */
	return out->size >= RTE_RIO_INB_WIN_MIN && out->size <= SIM_INB_WIN_MAX &&
		rte_is_power_of_2(out->size) && (out->rio_addr & (out->size - 1)) == 0;
}

/* A claim: a previous owner's windows are gone with it. */
void
sim_ep_mem_reset(struct sim_ep *ep)
{
	uint32_t k;

	sim_fabric_win_unlink(ep->f, ep->ep_index);
	for (k = 0; k < SIM_INB_WINDOWS; k++)
		sim_win_entry_set(&ep->shm->win[k], 0, 0, 0, 0);
	__atomic_store_n(&ep->shm->mem_rx_pkts, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&ep->shm->mem_rx_refused, 0, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Inbound windows (owner)                                            */

static int
sim_ep_win_adopt(struct sim_ep *ep, uint32_t k, void *local, uint64_t size, struct stat *st)
{
	char name[SIM_NAME_MAX + 48];
	void *m;
	int fd, ret = 0;

	sim_fabric_win_name(ep->f, ep->ep_index, k, name, sizeof(name));
	/* A segment of a window of ours that someone else removed from the table: ours. */
	sim_fabric_obj_unlink(ep->f, name);
	fd = sim_fabric_obj_open(ep->f, name, O_RDWR | O_CREAT | O_EXCL, sim_ep_fabric_mode(ep->f));
	if (fd < 0) {
		SIM_LOG(ERR, "cannot create %s: %s", name, strerror(errno));
		return -errno;
	}
	if (fchmod(fd, sim_ep_fabric_mode(ep->f)) < 0 || ftruncate(fd, (off_t)size) < 0 ||
	    fstat(fd, st) < 0) {
		ret = -errno;
		SIM_LOG(ERR, "cannot set up %s: %s", name, strerror(errno));
		goto out;
	}
	/* What the buffer holds now is what the window holds first. */
	if (pwrite(fd, local, size, 0) != (ssize_t)size) {
		ret = -EIO;
		SIM_LOG(ERR, "cannot fill %s: %s", name, strerror(errno));
		goto out;
	}
	m = mmap(local, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	if (m == MAP_FAILED) {
		ret = -EINVAL;
		SIM_LOG(ERR, "cannot map %s over the buffer at %p (memory of normal pages only, e.g. not hugepages): %s",
			name, local, strerror(errno));
		goto out;
	}
out:
	close(fd);
	if (ret < 0)
		sim_fabric_obj_unlink(ep->f, name);
	return ret;
}

/* Give the buffer of window @k private pages again, with the window's bytes. */
static void
sim_ep_win_release(struct sim_ep *ep, uint32_t k)
{
	struct sim_ep_win *w = &ep->win[k];
	char name[SIM_NAME_MAX + 48];
	void *tmp;

	sim_win_entry_set(&ep->shm->win[k], 0, 0, 0, 0);
	tmp = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (tmp != MAP_FAILED) {
		memcpy(tmp, w->local, w->size);
		if (mremap(tmp, w->size, w->size, MREMAP_MAYMOVE | MREMAP_FIXED, w->local) ==
		    MAP_FAILED) {
			SIM_LOG(WARNING, "buffer %p keeps the pages of its window: %s", w->local,
				strerror(errno));
			munmap(tmp, w->size);
		}
	} else {
		SIM_LOG(WARNING, "buffer %p keeps the pages of its window: %s", w->local,
			strerror(errno));
	}
	sim_fabric_win_name(ep->f, ep->ep_index, k, name, sizeof(name));
	sim_fabric_obj_unlink(ep->f, name);
	memset(w, 0, sizeof(*w));
}

int
sim_ep_map_inb_window(struct sim_ep *ep, void *local, uint64_t rio_addr, uint64_t size)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct stat st;
	uint32_t k;
	int ret;

	if (!ep->owner) {
		SIM_LOG(ERR, "inbound windows belong to the process that owns the endpoint");
		return -ENOTSUP;
	}
	if (size > SIM_INB_WIN_MAX || ((uintptr_t)local & (page - 1)) != 0 ||
	    (size & (page - 1)) != 0) {
		SIM_LOG(ERR, "window buffer %p of 0x%" PRIx64 " bytes: must be page-aligned, at most 0x%llx bytes",
			local, size, SIM_INB_WIN_MAX);
		return -EINVAL;
	}
	rte_spinlock_lock(&ep->mem_lock);
	for (k = 0; k < SIM_INB_WINDOWS; k++)
		if (ep->win[k].size == 0)
			break;
	if (k == SIM_INB_WINDOWS) {
		ret = -ENOSPC;
		goto out;
	}
	ret = sim_ep_win_adopt(ep, k, local, size, &st);
	if (ret < 0)
		goto out;
	ep->win[k].local = local;
	ep->win[k].rio_addr = rio_addr;
	ep->win[k].size = size;
	sim_win_entry_set(&ep->shm->win[k], rio_addr, size, (uint64_t)st.st_dev,
			  (uint64_t)st.st_ino);
out:
	rte_spinlock_unlock(&ep->mem_lock);
	return ret;
}

int
sim_ep_unmap_inb_window(struct sim_ep *ep, uint64_t rio_addr)
{
	int ret = -ENOENT;
	uint32_t k;

	rte_spinlock_lock(&ep->mem_lock);
	for (k = 0; ep->owner && k < SIM_INB_WINDOWS; k++) {
		if (ep->win[k].size != 0 && ep->win[k].rio_addr == rio_addr) {
			sim_ep_win_release(ep, k);
			ret = 0;
			break;
		}
	}
	rte_spinlock_unlock(&ep->mem_lock);
	return ret;
}

void
sim_ep_mem_free(struct sim_ep *ep)
{
	uint32_t k, i;

	rte_spinlock_lock(&ep->mem_lock);
	for (k = 0; ep->owner && k < SIM_INB_WINDOWS; k++)
		if (ep->win[k].size != 0)
			sim_ep_win_release(ep, k);
	for (i = 0; ep->win_maps != NULL && i < ep->f->n_endpoints * SIM_INB_WINDOWS; i++)
		if (ep->win_maps[i].addr != NULL)
			munmap(ep->win_maps[i].addr, ep->win_maps[i].size);
	free(ep->win_maps);
	ep->win_maps = NULL;
	rte_spinlock_unlock(&ep->mem_lock);
}

/* ------------------------------------------------------------------ */
/* Transactions (initiator)                                           */

/* Our mapping of window @k of target endpoint @t as entry @w describes it, or NULL. */
static uint8_t *
sim_ep_win_map(struct sim_ep *ep, uint32_t t, uint32_t k, const struct sim_shm_window *w)
{
	struct sim_ep_win_map *m;
	char name[SIM_NAME_MAX + 48], why[160] = "identity";
	struct stat st;
	void *addr;
	int fd;

	if (ep->win_maps == NULL) {
		ep->win_maps = calloc((size_t)ep->f->n_endpoints * SIM_INB_WINDOWS,
				      sizeof(ep->win_maps[0]));
		if (ep->win_maps == NULL)
			return NULL;
	}
	m = &ep->win_maps[(size_t)t * SIM_INB_WINDOWS + k];
	if (m->addr != NULL && m->seq == w->seq && m->size == w->size)
		return m->addr;
	if (m->addr != NULL)
		munmap(m->addr, m->size);
	memset(m, 0, sizeof(*m));
	sim_fabric_win_name(ep->f, t, k, name, sizeof(name));
	fd = sim_fabric_obj_open(ep->f, name, O_RDWR, 0);
	if (fd < 0)
		return NULL;
	addr = NULL;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_ino == w->seg_ino &&
	    (uint64_t)st.st_dev == w->seg_dev && (uint64_t)st.st_size == w->size &&
	    sim_shm_check_access(&st, ep->f->group_access, why, sizeof(why)) == 0) {
		addr = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (addr == MAP_FAILED)
			addr = NULL;
	}
	close(fd);
	if (addr == NULL) {
		SIM_LOG(DEBUG, "window segment %s not usable: %s", name, why);
		return NULL;
	}
	m->addr = addr;
	m->size = w->size;
	m->seq = w->seq;
	return addr;
}

/* Bit of the Destination Operations CAR a target needs for @type. */
static uint32_t
sim_mem_dst_op(enum rte_rio_mem_type type)
{
	switch (type) {
	case RTE_RIO_MEM_NREAD:
		return RTE_RIO_OPS_READ;
	case RTE_RIO_MEM_NWRITE:
		return RTE_RIO_OPS_WRITE;
	case RTE_RIO_MEM_NWRITE_R:
		return RTE_RIO_OPS_WRITE_RESPONSE;
	default:
		return RTE_RIO_OPS_STREAM_WRITE;
	}
}

/*
 * Execute packet @p at target endpoint @t: copy its bytes from or into the
 * window that holds all of it. 0, or -EIO: refused (ERROR response).
 */
static int
sim_ep_mem_exec(struct sim_ep *ep, uint32_t t, enum rte_rio_mem_type type,
		const struct rte_rio_mem_pkt *p)
{
	struct sim_shm_endpoint *tshm = &ep->f->eps[t];
	struct sim_shm_window w;
	uint8_t *base;
	uint64_t off;
	uint32_t k;

	for (k = 0; k < SIM_INB_WINDOWS; k++) {
		if (!sim_win_read(&tshm->win[k], &w))
			continue;
		if (p->rio_addr < w.rio_addr || p->rio_addr - w.rio_addr >= w.size)
			continue;
		off = p->rio_addr - w.rio_addr;
		/* Partly outside its window: the target refuses the packet. */
		if (p->len > w.size - off)
			return -EIO;
		base = sim_ep_win_map(ep, t, k, &w);
		if (base == NULL)
			return -EIO;
		if (type == RTE_RIO_MEM_NREAD)
			memcpy(p->buf, base + off, p->len);
		else
			memcpy(base + off, p->buf, p->len);
		/* Removed meanwhile: what it did went to memory no window shows any more. */
		if (__atomic_load_n(&tshm->win[k].seq, __ATOMIC_ACQUIRE) != w.seq)
			return -EIO;
		return 0;
	}
	return -EIO;
}

/* Header bytes of a request of @type with @addr_bits addressing (type 2, 5 or 6 packets). */
static uint32_t
sim_mem_hdr(uint8_t devid_size, enum rte_rio_mem_type type, uint32_t pell)
{
	uint32_t addr = pell & RTE_RIO_PELL_ADDR_66 ? 8 : pell & RTE_RIO_PELL_ADDR_50 ? 6 : 4;

	/* Physical and ftype (2), ttype, size and TID (2, not in SWRITE), the address. */
	return 2 + (type == RTE_RIO_MEM_SWRITE ? 0 : 2) + addr + SIM_IDS_BYTES(devid_size);
}

/* Double-words of payload a packet carries (sub-double-word accesses: one). */
static uint32_t
sim_mem_payload(const struct rte_rio_mem_pkt *p)
{
	return RTE_ALIGN_CEIL((uint32_t)(p->rio_addr & 7) + p->len, 8u);
}

/*
 * Does the path from @src_dev to @destid still end at @dev_index? A link
 * that went down (or a route changed) while packets were on their way
 * loses them, as a real fabric drops what an output port in Port Error holds.
 */
static bool
sim_mem_path_intact(struct sim_fabric *f, uint32_t src_dev, uint16_t destid, bool response,
		    uint32_t dev_index)
{
	struct sim_path path;
	uint32_t dev;

	return sim_path_probe(f, src_dev, destid, response, &dev, &path) == 0 && dev == dev_index;
}

/* The requester's counter of failed transactions, under ep->mem_lock. */
static void
sim_ep_mem_tx_error(struct sim_ep *ep)
{
	rte_spinlock_lock(&ep->mem_lock);
	ep->st.mem_tx_error++;
	rte_spinlock_unlock(&ep->mem_lock);
}

/*
 * One transaction of @n packets. ep->mem_lock covers the requester's
 * counters and its cache of the targets' window mappings, never a wait for
 * the modelled time: another thread of the process may send meanwhile, as
 * several engines of a part would.
 */
int
sim_ep_mem_xfer(struct sim_ep *ep, enum rte_rio_mem_type type, uint16_t destid,
		const struct rte_rio_mem_pkt *pkts, uint16_t n)
{
	struct sim_fabric *f = ep->f;
	bool rsp = type == RTE_RIO_MEM_NREAD || type == RTE_RIO_MEM_NWRITE_R;
	uint64_t now = sim_now_ns(), arrival = now, done = now, hop_ns, proc_ns, t1;
	uint32_t tdev, bdev, own_pell, tpell, hdr, bytes = 0;
	struct sim_path fwd, back;
	struct sim_shm_device *td;
	struct sim_burst b;
	bool answers = false, refuse;
	int ret, err = 0;
	uint16_t i;
	int32_t t;

	own_pell = __atomic_load_n(&ep->dev->pell_ctrl, __ATOMIC_RELAXED) & SIM_PELL_ADDR_MASK;
	ret = sim_path_probe(f, ep->dev_index, destid, false, &tdev, &fwd);
	if (ret == -EACCES)
		return ret;	/* never left the requester */
	td = ret == 0 ? sim_fabric_dev(f, tdev) : NULL;
	if (td == NULL || td->type != SIM_DEV_ENDPOINT || td->ep_index >= f->n_endpoints ||
	    f->eps[td->ep_index].dev_index != tdev)
		goto lost;
	t = (int32_t)td->ep_index;
	for (i = 0; i < n; i++)
		bytes += pkts[i].len;
	rte_spinlock_lock(&ep->mem_lock);
	ep->st.mem_tx_pkts += n;
	ep->st.mem_tx_bytes += bytes;
	rte_spinlock_unlock(&ep->mem_lock);
	if (__atomic_load_n(&f->eps[t].owner, __ATOMIC_ACQUIRE) != 0 &&
	    !sim_ep_owner_alive(f, &f->eps[t])) {
		/* A node that is gone answers nothing and takes nothing. */
		if (!rsp)
			return 0;
		goto timeout;
	}
	if (rsp) {
		ret = sim_path_probe(f, tdev, sim_ep_own_destid(ep), true, &bdev, &back);
		answers = ret == 0 && bdev == ep->dev_index;
	}
	hop_ns = __atomic_load_n(&f->hdr->hop_ns, __ATOMIC_RELAXED);
	proc_ns = __atomic_load_n(&f->hdr->proc_ns, __ATOMIC_RELAXED);
	hdr = sim_mem_hdr(f->devid_size, type, own_pell);
	for (i = 0; f->timing && i < n; i++) {
		/* Back to back: each packet starts when the links are free for it. */
		b.n = 1;
		b.bytes = sim_pkt_wire_bytes(f->devid_size, hdr,
					     type == RTE_RIO_MEM_NREAD ? 0 : sim_mem_payload(&pkts[i]));
		b.last_bytes = b.bytes;
		t1 = sim_path_carry(f, &fwd, hop_ns, now, now, &b);
		arrival = RTE_MAX(arrival, t1);
		if (!answers)
			continue;
		b.bytes = sim_pkt_wire_bytes(f->devid_size, SIM_RSP_HDR(f->devid_size),
					     type == RTE_RIO_MEM_NREAD ?
					     sim_mem_payload(&pkts[i]) : 0);
		b.last_bytes = b.bytes;
		done = RTE_MAX(done, sim_path_carry(f, &back, hop_ns, now, t1 + proc_ns, &b));
	}
	/* The target executes the packets when they are in, if they got there. */
	sim_wait_until(arrival);
	if (!sim_mem_path_intact(f, ep->dev_index, destid, false, tdev))
		goto lost;
	tpell = __atomic_load_n(&td->pell_ctrl, __ATOMIC_RELAXED) & SIM_PELL_ADDR_MASK;
	refuse = !(__atomic_load_n(&td->dst_ops, __ATOMIC_RELAXED) & sim_mem_dst_op(type)) ||
		tpell != own_pell;
	rte_spinlock_lock(&ep->mem_lock);
	for (i = 0; i < n; i++) {
		ret = refuse ? -EIO : sim_ep_mem_exec(ep, (uint32_t)t, type, &pkts[i]);
		if (ret < 0) {
			__atomic_fetch_add(&f->eps[t].mem_rx_refused, 1, __ATOMIC_RELAXED);
			if (err == 0)
				err = ret;
			if (type == RTE_RIO_MEM_NREAD)
				memset(pkts[i].buf, 0xff, pkts[i].len);
		} else {
			__atomic_fetch_add(&f->eps[t].mem_rx_pkts, 1, __ATOMIC_RELAXED);
		}
	}
	rte_spinlock_unlock(&ep->mem_lock);
	if (!rsp)
		return 0;
	if (!answers)
		goto timeout;
	sim_wait_until(done);
	if (!sim_mem_path_intact(f, tdev, sim_ep_own_destid(ep), true, ep->dev_index))
		goto timeout;	/* the responses were lost on the way back */
	if (err != 0)
		sim_ep_mem_tx_error(ep);
	return err;
lost:
	/* Lost on the way. Without a response nobody knows, unless it never left. */
	if (!rsp && sim_port_ok(f, ep->dev_index, sim_ep_tx_port(f, ep->dev_index)))
		return 0;
timeout:
	sim_ep_mem_tx_error(ep);
	sim_wait_until(now + sim_resp_timeout_ns(f, ep->dev_index));
	return -ETIMEDOUT;
}
