/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef TEST_RIO_WRAP_H
#define TEST_RIO_WRAP_H

/*
 * Test master ports over a rio_sim mport (test_rio_wrap.c), registered with
 * lib/rio like any mport driver, for what the emulated master port does
 * not do by itself:
 *  - RIO_TEST_WRAP_WORD: a master port with 4-byte maintenance only (as
 *    the IDT Tsi721 and Linux's tsi721 driver): no block ops, and any
 *    access of another size fails with -EINVAL and is counted;
 *  - RIO_TEST_WRAP_BLOCK: block maintenance ops executed as back-to-back
 *    4-byte accesses (one transaction as lib/rio counts them);
 *  - RIO_TEST_WRAP_NO_EXT_RT: switches read without PEF EXT_RT (one route
 *    entry per access);
 *  - RIO_TEST_WRAP_NO_EM: devices read without their Error Management block
 *    (the extended-feature list ends after the LP-Serial block);
 *  - on request, one write that fails (rio_test_wrap_fail_write()), and a
 *    call before one local write (rio_test_wrap_before_local_write());
 *  - always: every maintenance access to a route-table select or entry
 *    register (standard 0x70/0x74, the IDT CPS table select 0x10070) is
 *    checked to happen while the target's Host Base Device ID Lock holds
 *    this mport's lock ID (its Base Device ID); others are counted as lock
 *    violations.
 */

#include <stdint.h>

#include "rio_driver.h"

#define RIO_TEST_WRAP_WORD	0x1u
#define RIO_TEST_WRAP_BLOCK	0x2u
#define RIO_TEST_WRAP_NO_EXT_RT	0x4u
#define RIO_TEST_WRAP_NO_EM	0x8u

/* What a wrapper saw. */
struct rio_test_wrap_stats {
	uint64_t size_violations;	/* accesses of a size the master port cannot do */
	uint64_t lock_violations;	/* route-table accesses without the target's lock */
	uint64_t route_accesses;	/* route-table accesses checked */
};

/*
 * Register a wrapper mport named @name over @lower with @flags.
 * @return the wrapper, or NULL (printed why).
 */
struct rte_rio_mport *rio_test_wrap(struct rte_rio_mport *lower, const char *name,
				    unsigned int flags);
/* The mport under a wrapper, or NULL if @mport is none. */
struct rte_rio_mport *rio_test_wrap_lower(struct rte_rio_mport *mport);
/* Counters of a wrapper (zeros for another mport). */
void rio_test_wrap_stats(struct rte_rio_mport *mport, struct rio_test_wrap_stats *stats);
/*
 * Make the next maintenance write of @offset at hop count @hop (any
 * destination ID) fail with -EIO without reaching the fabric, as a lost
 * response would: a walk that fails half-way through a device.
 */
void rio_test_wrap_fail_write(struct rte_rio_mport *mport, uint8_t hop, uint32_t offset);
/*
 * Call @fn(@arg) once, right before the next local write of @offset goes
 * to the master port: another party acting between two steps of a scan.
 */
void rio_test_wrap_before_local_write(struct rte_rio_mport *mport, uint32_t offset,
				      void (*fn)(void *arg), void *arg);
/* Unregister a wrapper (its devices must be released) and free it. */
void rio_test_unwrap(struct rte_rio_mport *mport);

#endif /* TEST_RIO_WRAP_H */
