/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_PMD_TSI721_MODEL_H
#define RTE_PMD_TSI721_MODEL_H

/**
 * @file
 * The register-level Tsi721 model without the tsi721 driver: a program
 * drives the part's BARs itself, as another driver of the part would (the
 * Linux reference node of app/linux-ref runs Linux's own tsi721 driver on
 * it, and an out-of-tree driver of the part can be tested on it). Driver
 * SDK (-Denable_driver_sdk=true), __rte_internal: not application API.
 *
 * The model behaves as under the tsi721 rawdev: register accesses have the
 * part's effects, its engines read and write host memory by IOVA (DPDK
 * memory, e.g. rte_malloc_virt2iova()), and its SRIO side is an endpoint of
 * a rio_sim fabric. It raises no interrupt by itself: the program samples
 * the INTx line (rte_pmd_tsi721_model_intx()) when an interrupt controller
 * would deliver it. Primary process only; one thread at a time per model
 * (as the bus serializes a driver's MMIO), besides the model's own alarm.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tsi721_model;

/**
 * Create a model named @p name on a rio_sim fabric.
 * @param args "fabric=<name>[,topology=<path|builtin:shape>][,endpoint=<name|index>]",
 *   as for the vdev tsi721_model<N> but without the driver's keys (host, scan,
 *   disc_timeout): who enumerates is up to the program's driver.
 * @return the model, or NULL (rte_errno: EINVAL bad args or name, ENOTSUP
 *   secondary process, or the error attaching to the fabric).
 */
__rte_internal
struct tsi721_model *rte_pmd_tsi721_model_open(const char *name, const char *args);

/** Release the model and its fabric endpoint; NULL does nothing. */
__rte_internal
void rte_pmd_tsi721_model_close(struct tsi721_model *m);

/** 32-bit read of BAR0 (512 KiB) at @p off, with the part's side effects. */
__rte_internal
uint32_t rte_pmd_tsi721_model_read32(struct tsi721_model *m, uint32_t off);

/** 32-bit write of BAR0. */
__rte_internal
void rte_pmd_tsi721_model_write32(struct tsi721_model *m, uint32_t off, uint32_t val);

/**
 * 16-bit write of BAR1, the outbound doorbell window: @p be_val is the
 * doorbell's info as it is on the PCIe bus (big-endian).
 */
__rte_internal
void rte_pmd_tsi721_model_db_write16(struct tsi721_model *m, uint32_t off, uint16_t be_val);

/**
 * Let the part take in what arrived from the fabric (as it does on its own),
 * then sample its legacy interrupt line.
 * @return true while DEV_INT has a bit that DEV_INTE enables (INTx asserted).
 */
__rte_internal
bool rte_pmd_tsi721_model_intx(struct tsi721_model *m);

/**
 * What the model refused of its driver so far: descriptors it rejected,
 * misaligned bases, queue overruns, addresses outside host memory.
 * @return the sum of those counters (0 for a driver that did nothing wrong).
 */
__rte_internal
uint64_t rte_pmd_tsi721_model_errors(const struct tsi721_model *m);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_TSI721_MODEL_H */
