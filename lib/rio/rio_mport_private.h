/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_MPORT_PRIVATE_H
#define RIO_MPORT_PRIVATE_H

/*
 * What lib/rio keeps of an mport beside what its driver sees (struct
 * rte_rio_mport of rio_driver.h): locks, resource bookkeeping, scan state.
 * Not installed: no driver, application or test reads it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_spinlock.h>

#include "rio_driver.h"

/* A doorbell range claimed on an mport: inbound (cb) or outbound (destid). */
struct rte_rio_dbell_range {
	TAILQ_ENTRY(rte_rio_dbell_range) next;
	uint16_t start;
	uint16_t end;
	uint16_t destid;        /* outbound ranges only */
	rte_rio_dbell_cb_t cb;  /* inbound ranges only */
	void *arg;
};
TAILQ_HEAD(rte_rio_dbell_range_list, rte_rio_dbell_range);

/* Inbound windows an mport may have at once in the library's books (drivers may allow fewer). */
#define RIO_INB_WIN_MAX		16

/* An inbound window mapped through rte_rio_map_inb_window(); size 0: free slot. */
struct rio_inb_win {
	uint64_t rio_addr;
	uint64_t size;
	void *local;
};

struct rio_mport_state {
	rte_spinlock_t config_lock;     /* serializes config accesses */
	uint64_t maint_count;           /* updated with relaxed atomics */

	rte_spinlock_t res_lock;        /* protects the resource state below */
	struct rte_rio_dbell_range_list inb_dbells;
	struct rte_rio_dbell_range_list outb_dbells;
	uint64_t dbell_unclaimed;
	uint32_t inb_mbox_entries[RTE_RIO_MAX_MBOX];  /* 0: closed */
	uint32_t outb_mbox_entries[RTE_RIO_MAX_MBOX]; /* 0: closed */

	rte_spinlock_t mem_lock;        /* protects the inbound windows */
	struct rio_inb_win inb_win[RIO_INB_WIN_MAX];

	void *scan_data;        /* enumeration/discovery state */
	/* rte_rio_mport_scan_background(): an agent discovering from an EAL alarm. */
	unsigned int bg_timeout_ms;
	uint64_t bg_start;      /* timer cycles */
	unsigned int bg_notes;  /* "still waiting" notes given */
	bool hidden;            /* taken out of the registry, see rte_rio_mport_hide() */
};

#endif /* RIO_MPORT_PRIVATE_H */
