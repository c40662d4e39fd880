/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef LR_BACKEND_H
#define LR_BACKEND_H

/* DPDK side only: the state behind the opaque struct lr_backend of lr_bridge.h. */

#include <stdbool.h>
#include <stdint.h>

struct rte_rio_mport;

struct lr_backend {
	struct rte_rio_mport *mport;
	bool dbell_claimed;
	void (*dbell_cb)(void *arg, uint16_t src, uint16_t dst, uint16_t info);
	void *dbell_arg;
};

int lr_backend_init(struct lr_backend *be, struct rte_rio_mport *mport);

#endif /* LR_BACKEND_H */
