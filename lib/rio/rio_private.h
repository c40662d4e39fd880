/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_PRIVATE_H
#define RIO_PRIVATE_H

/*
 * Internal helpers of librte_rio shared between rio.c (mport registry),
 * rio_access.c (configuration space access, extended features) and
 * rio_resource.c (doorbells, mailboxes, messages, port-writes).
 */

#include <stdint.h>

#include <rte_log.h>

#include "rio_driver.h"
#include "rio_mport_private.h"

extern int rio_logtype;

/** Library log: adds the lib.rio log type, the function name and a newline. */
#define RIO_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, rio_logtype, "%s(): " fmt "\n", __func__, ## __VA_ARGS__)

/*
 * Maintenance counter: a statistic, so relaxed ordering; no barrier partner
 * (readers only need an eventually consistent value).
 */
static inline void
rio_maint_count_inc(struct rte_rio_mport *mport)
{
	__atomic_fetch_add(&mport->lib->maint_count, 1, __ATOMIC_RELAXED);
}

static inline uint64_t
rio_counter_load(const uint64_t *cnt)
{
	return __atomic_load_n(cnt, __ATOMIC_RELAXED);
}

static inline void
rio_counter_store(uint64_t *cnt, uint64_t val)
{
	__atomic_store_n(cnt, val, __ATOMIC_RELAXED);
}

static inline void
rio_counter_add(uint64_t *cnt, uint64_t val)
{
	__atomic_fetch_add(cnt, val, __ATOMIC_RELAXED);
}

/*
 * Open/closed state of a mailbox (ring size, 0 when closed). Written with
 * release by request/release under res_lock, read with acquire by the
 * lock-free fast paths: a fast path that sees a mailbox open also sees
 * everything the driver's open op wrote before it.
 */
static inline uint32_t
rio_mbox_entries_load(const uint32_t *entries)
{
	return __atomic_load_n(entries, __ATOMIC_ACQUIRE);
}

static inline void
rio_mbox_entries_store(uint32_t *entries, uint32_t val)
{
	__atomic_store_n(entries, val, __ATOMIC_RELEASE);
}

/*
 * Find the LP-Serial block of the mport's own config space.
 * @return block offset, 0 when absent, or -errno.
 */
int32_t rio_local_physefb(struct rte_rio_mport *mport, uint8_t *rmap);

/* Initialize the resource state of a new mport (lists, counters). */
void rio_mport_res_init(struct rte_rio_mport *mport);

/* Close every open mailbox and free every doorbell range of an mport. */
void rio_mport_res_release(struct rte_rio_mport *mport);

/* Memory space of a new mport (rio_mem.c). */
void rio_mport_mem_init(struct rte_rio_mport *mport);

/* Unmap every inbound window of an mport that goes away. */
void rio_mport_mem_release(struct rte_rio_mport *mport);

#endif /* RIO_PRIVATE_H */
