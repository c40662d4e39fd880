/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Who is alive on a fabric, as the kernel tracks it (see rio_sim_shm.h):
 * attach slots held with open file description locks on the main segment,
 * the tokens derived from them, the shared lock word with bounded waits,
 * and the sender records that tell a receiver whether a claimed slot will
 * still be published.
 *
 * No pid is compared anywhere: a pid means nothing in another PID
 * namespace, and a pid can be reused. An OFD lock belongs to the open file
 * description, which the kernel closes when the last process using it is
 * gone (a zombie has closed its files); a stopped or traced process keeps
 * it. The main segment is opened with O_CLOEXEC: an exec'd child does not
 * inherit it.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_pause.h>

#include "rio_sim_fabric.h"

/* How long a lock word or the attach lock is waited for. */
#define SIM_LOCK_TIMEOUT_MS	1000
/* CAS attempts on a lock word before looking at its holder and sleeping. */
#define SIM_LOCK_SPINS		1024
#define SIM_LOCK_SLEEP_US	50
#define SIM_TOKEN_GEN_MASK	0xffffffu

unsigned int sim_wait_cap_ms = UINT_MAX;

unsigned int
sim_wait_ms(unsigned int ms)
{
	return RTE_MIN(ms, sim_wait_cap_ms);
}

void
sim_sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* One byte at @off: set or clear our lock (F_WRLCK/F_UNLCK), without waiting. */
static int
sim_ofd_set(int fd, short type, uint64_t off)
{
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = (off_t)off,
		.l_len = 1,
	};

	return fcntl(fd, F_OFD_SETLK, &fl) == 0 ? 0 : -errno;
}

/*
 * Is byte @off locked by another open file description? An error (which
 * fcntl() does not give for a valid fd) counts as locked: never declare a
 * process dead without the kernel saying so.
 */
static bool
sim_ofd_held(int fd, uint64_t off)
{
	struct flock fl = {
		.l_type = F_WRLCK,
		.l_whence = SEEK_SET,
		.l_start = (off_t)off,
		.l_len = 1,
		.l_pid = 0,
	};

	if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
		return true;
	return fl.l_type != F_UNLCK;
}

int
sim_fabric_table_lock(int fd, const char *name)
{
	uint64_t deadline = sim_now_us() + sim_wait_ms(SIM_LOCK_TIMEOUT_MS) * 1000ull;
	int ret;

	for (;;) {
		ret = sim_ofd_set(fd, F_WRLCK, SIM_OFD_ATTACH_LOCK);
		if (ret != -EAGAIN && ret != -EACCES)
			return ret;
		if (sim_now_us() > deadline) {
			SIM_LOG(ERR, "fabric %s: its attach lock was held for more than %u ms (by a stopped process?)",
				name, sim_wait_ms(SIM_LOCK_TIMEOUT_MS));
			return -ETIMEDOUT;
		}
		sim_sleep_us(SIM_LOCK_SLEEP_US);
	}
}

void
sim_fabric_table_unlock(int fd)
{
	sim_ofd_set(fd, F_UNLCK, SIM_OFD_ATTACH_LOCK);
}

int
sim_attach_take(struct sim_fabric *f)
{
	struct sim_shm_attach *a;
	uint32_t i, gen;

	for (i = 0; i < SIM_MAX_ATTACH; i++) {
		if (sim_ofd_set(f->fd, F_WRLCK, SIM_OFD_ATTACH + i) != 0)
			continue;
		/* Ours: whoever held the slot before is gone. */
		a = &f->hdr->attached[i];
		gen = (__atomic_load_n(&a->gen, __ATOMIC_RELAXED) + 1) & SIM_TOKEN_GEN_MASK;
		if (gen == 0)
			gen = 1;
		__atomic_store_n(&a->pid, (int32_t)getpid(), __ATOMIC_RELAXED);
		/* Pairs with the acquire load in sim_token_alive(). */
		__atomic_store_n(&a->gen, gen, __ATOMIC_RELEASE);
		f->token = gen << SIM_TOKEN_SLOT_BITS | (i + 1);
		return 0;
	}
	return -EUSERS;
}

void
sim_attach_release(struct sim_fabric *f)
{
	uint32_t slot = (f->token & ((1u << SIM_TOKEN_SLOT_BITS) - 1)) - 1;

	if (f->token == 0 || slot >= SIM_MAX_ATTACH)
		return;
	__atomic_store_n(&f->hdr->attached[slot].pid, 0, __ATOMIC_RELAXED);
	sim_ofd_set(f->fd, F_UNLCK, SIM_OFD_ATTACH + slot);
	f->token = 0;
}

unsigned int
sim_attach_count(const struct sim_fabric *f, int fd, int32_t *pids, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < SIM_MAX_ATTACH; i++) {
		if (!sim_ofd_held(fd, SIM_OFD_ATTACH + i))
			continue;
		if (n < max && pids != NULL)
			pids[n] = __atomic_load_n(&f->hdr->attached[i].pid, __ATOMIC_RELAXED);
		n++;
	}
	return n;
}

bool
sim_token_alive(const struct sim_fabric *f, uint32_t token)
{
	uint32_t slot = (token & ((1u << SIM_TOKEN_SLOT_BITS) - 1)) - 1;

	if (token == 0 || slot >= SIM_MAX_ATTACH)
		return false;
	if (token == f->token)
		return true;
	/* Pairs with the release store in sim_attach_take(): a new holder bumps gen. */
	if (__atomic_load_n(&f->hdr->attached[slot].gen, __ATOMIC_ACQUIRE) !=
	    token >> SIM_TOKEN_SLOT_BITS)
		return false;
	return sim_ofd_held(f->fd, SIM_OFD_ATTACH + slot);
}

int32_t
sim_token_pid(const struct sim_fabric *f, uint32_t token)
{
	uint32_t slot = (token & ((1u << SIM_TOKEN_SLOT_BITS) - 1)) - 1;

	if (token == 0 || slot >= SIM_MAX_ATTACH)
		return 0;
	return __atomic_load_n(&f->hdr->attached[slot].pid, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Lock word                                                          */

int
sim_lock(struct sim_fabric *f, struct sim_shm_lock *l)
{
	uint32_t me = f->token, exp;
	uint64_t deadline = 0, now;
	unsigned int spins = 0;

	for (;;) {
		exp = 0;
		/* Acquire pairs with the release in sim_unlock(). */
		if (__atomic_compare_exchange_n(&l->holder, &exp, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return 0;
		if (++spins < SIM_LOCK_SPINS) {
			rte_pause();
			continue;
		}
		spins = 0;
		now = sim_now_us();
		if (deadline == 0)
			deadline = now + sim_wait_ms(SIM_LOCK_TIMEOUT_MS) * 1000ull;
		/* Another thread of ours holds it when exp == me: wait for it. */
		if (exp != me && !sim_token_alive(f, exp) &&
		    __atomic_compare_exchange_n(&l->holder, &exp, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			SIM_LOG(WARNING,
				"fabric %s: lock at offset 0x%zx taken over from a process that is gone (token 0x%x)",
				f->name, (size_t)((uint8_t *)l - (uint8_t *)f->hdr), exp);
			return 0;
		}
		if (now > deadline) {
			SIM_LOG(ERR,
				"fabric %s: lock at offset 0x%zx held for more than %u ms by token 0x%x (pid %d in its namespace): giving up",
				f->name, (size_t)((uint8_t *)l - (uint8_t *)f->hdr),
				sim_wait_ms(SIM_LOCK_TIMEOUT_MS), exp, (int)sim_token_pid(f, exp));
			return -ETIMEDOUT;
		}
		sim_sleep_us(SIM_LOCK_SLEEP_US);
	}
}

void
sim_unlock(struct sim_fabric *f, struct sim_shm_lock *l)
{
	uint32_t me = f->token;

	/* Release pairs with the acquire CAS in sim_lock(). */
	__atomic_compare_exchange_n(&l->holder, &me, 0, false, __ATOMIC_RELEASE,
				    __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------ */
/* Sender records                                                     */

uint32_t
sim_sender_get(struct sim_fabric *f)
{
	struct sim_shm_sender *s;
	uint32_t i, owner;

	for (i = 0; i < SIM_MAX_SENDERS; i++) {
		s = &f->hdr->senders[i];
		owner = __atomic_load_n(&s->owner, __ATOMIC_ACQUIRE);
		if (owner != 0 && (owner == f->token || sim_token_alive(f, owner)))
			continue;
		if (!__atomic_compare_exchange_n(&s->owner, &owner, f->token, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&s->ring, 0, __ATOMIC_RELEASE);
		return i + 1;
	}
	SIM_LOG(ERR, "fabric %s: all %u sender records are in use", f->name, SIM_MAX_SENDERS);
	return 0;
}

void
sim_sender_put(struct sim_fabric *f, uint32_t id)
{
	struct sim_shm_sender *s;

	if (id == 0 || id > SIM_MAX_SENDERS)
		return;
	s = &f->hdr->senders[id - 1];
	__atomic_store_n(&s->ring, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&s->owner, 0, __ATOMIC_RELEASE);
}

bool
sim_sender_claiming(const struct sim_fabric *f, uint32_t ring)
{
	const struct sim_shm_sender *s;
	uint32_t i;

	for (i = 0; i < SIM_MAX_SENDERS; i++) {
		s = &f->hdr->senders[i];
		/* Pairs with the release in sim_sender_done(): its slots are published. */
		if (__atomic_load_n(&s->ring, __ATOMIC_ACQUIRE) == ring + 1 &&
		    sim_token_alive(f, __atomic_load_n(&s->owner, __ATOMIC_RELAXED)))
			return true;
	}
	return false;
}
