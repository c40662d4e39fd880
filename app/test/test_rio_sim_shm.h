/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef TEST_RIO_SIM_SHM_H
#define TEST_RIO_SIM_SHM_H

/*
 * Tests that act as a process of the fabric would, through the shared
 * layout (rio_sim_shm.h): map a fabric's main segment, find tokens, and
 * hold a sender record as a sender stopped between claiming and publishing
 * a slot would.
 */

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "rio_sim_shm.h"
#include "test.h"

/* Map the main segment of fabric @fab read-write; NULL on failure. */
static inline struct sim_shm_hdr *
test_shm_map_fabric(const char *fab, size_t *size)
{
	char shm[96];
	struct stat st;
	void *m = MAP_FAILED;
	int fd;

	snprintf(shm, sizeof(shm), "%s%s", SIM_OBJ_PREFIX, fab);
	fd = rio_test_fabric_open(shm, O_RDWR, 0);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct sim_shm_hdr))
		m = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	return m;
}

/* Map the data segment of endpoint @ep_index of fabric @fab read-only; NULL on failure. */
static inline struct sim_shm_data_hdr *
test_shm_map_data(const char *fab, uint32_t ep_index, size_t *size)
{
	char obj[96];
	struct stat st;
	void *m = MAP_FAILED;
	int fd;

	snprintf(obj, sizeof(obj), "%s%s.ep%u", SIM_OBJ_PREFIX, fab, ep_index);
	fd = rio_test_fabric_open(obj, O_RDONLY, 0);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct sim_shm_data_hdr))
		m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	return m;
}

/*
 * Is the slot at the consumer position of inbound ring @mbox of @data
 * claimed by a sender but not published? The consumer position is the one
 * the receiver publishes at the end of each receive call: true only while
 * the receiver waits for a sender stopped between claim and publish (or
 * one that is slow right now).
 */
static inline bool
test_shm_ring_stuck(const struct sim_shm_data_hdr *data, unsigned int mbox)
{
	const struct sim_shm_mbox_ring *ring = RTE_PTR_ADD(data, data->ring_off[mbox]);
	const struct sim_shm_msg_slot *slots = (const void *)(ring + 1);
	uint64_t cons = __atomic_load_n(&ring->pos.cons_head, __ATOMIC_ACQUIRE);
	uint64_t head = __atomic_load_n(&ring->pos.prod_head, __ATOMIC_ACQUIRE);

	return head > cons &&
		__atomic_load_n(&slots[cons & (data->entries - 1)].seq, __ATOMIC_ACQUIRE) == cons;
}

/* The token of attach slot @i as it stands. */
static inline uint32_t
test_shm_slot_token(const struct sim_shm_hdr *h, unsigned int i)
{
	return __atomic_load_n(&h->attached[i].gen, __ATOMIC_ACQUIRE) << SIM_TOKEN_SLOT_BITS |
		(i + 1);
}

/* The token of this process on the fabric (its slot records our pid), 0 if none. */
static inline uint32_t
test_shm_own_token(const struct sim_shm_hdr *h)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_ATTACH; i++)
		if (__atomic_load_n(&h->attached[i].pid, __ATOMIC_RELAXED) == getpid())
			return test_shm_slot_token(h, i);
	return 0;
}

/* A token of nobody alive: a slot that no process holds. 0 if every slot is taken. */
static inline uint32_t
test_shm_dead_token(const struct sim_shm_hdr *h)
{
	unsigned int i;

	for (i = SIM_MAX_ATTACH; i > 0; i--)
		if (__atomic_load_n(&h->attached[i - 1].pid, __ATOMIC_RELAXED) == 0)
			return test_shm_slot_token(h, i - 1);
	return 0;
}

/*
 * Take a free sender record as @owner, claiming in ring (@ep_index, @kind),
 * as a sender stopped between its claim and its publication. NULL if none.
 */
static inline struct sim_shm_sender *
test_shm_stalled_sender(struct sim_shm_hdr *h, uint32_t owner, uint32_t ep_index, uint32_t kind)
{
	uint32_t i, exp;

	for (i = SIM_MAX_SENDERS; i > 0; i--) {
		exp = 0;
		if (__atomic_compare_exchange_n(&h->senders[i - 1].owner, &exp, owner, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			__atomic_store_n(&h->senders[i - 1].ring, sim_ring_id(ep_index, kind) + 1,
					 __ATOMIC_RELEASE);
			return &h->senders[i - 1];
		}
	}
	return NULL;
}

static inline void
test_shm_sender_free(struct sim_shm_sender *s)
{
	if (s == NULL)
		return;
	__atomic_store_n(&s->ring, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&s->owner, 0, __ATOMIC_RELEASE);
}

#endif /* TEST_RIO_SIM_SHM_H */
