/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_PMD_TSI721_H
#define RTE_PMD_TSI721_H

/**
 * @file
 * tsi721 rawdev: the IDT Tsi721 PCIe-to-SRIO bridge as a RapidIO master port.
 *
 * A PCI function 111d:80ab bound to vfio-pci or uio_pci_generic, or the
 * register-level model of the part (vdev `tsi721_model<N>`), becomes a
 * rawdev named after the device and an mport of lib/rio of the same name:
 * the rte_rio_* API, enumeration or discovery at probe and the rio bus
 * (rionet binds it) work on it as on any mport. The rawdev adds xstats (the
 * part's and the driver's counters, and for a model the model's checks),
 * dump, a selftest, and register access for diagnostics.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdint.h>

#include <rte_compat.h>

#include "rte_rio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Driver name of the PCI driver. */
#define RTE_PMD_TSI721_DRIVER_NAME	"raw_tsi721"
/** Driver (and vdev name prefix) of the model. */
#define RTE_PMD_TSI721_MODEL_NAME	"tsi721_model"

/**
 * The lib/rio mport of a tsi721 rawdev.
 * @return the mport, or NULL (rte_errno ENODEV: not a tsi721 rawdev)
 */
__rte_experimental
struct rte_rio_mport *rte_pmd_tsi721_mport(uint16_t dev_id);

/**
 * Read a 32-bit register of the part's BAR0, as the driver does (on a
 * model, the read has the effect it has on the part).
 * @return 0; -ENODEV not a tsi721 rawdev; -EINVAL offset not 4-byte aligned
 *         or outside BAR0 (512 KiB).
 */
__rte_experimental
int rte_pmd_tsi721_reg_read(uint16_t dev_id, uint32_t offset, uint32_t *val);

/** Write a 32-bit register of BAR0; same rules as rte_pmd_tsi721_reg_read(). */
__rte_experimental
int rte_pmd_tsi721_reg_write(uint16_t dev_id, uint32_t offset, uint32_t val);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_TSI721_H */
