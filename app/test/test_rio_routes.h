/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef TEST_RIO_ROUTES_H
#define TEST_RIO_ROUTES_H

/*
 * Route tables of an emulated fabric read back through the backdoor
 * (test_rio_routes.c), for checks of what an enumerator left behind.
 */

#include <stdint.h>

#include "rio_driver.h"

/*
 * Where switch @dev_name sends @destid, as its model decides from its
 * tables (rte_pmd_rio_sim_fabric_route_table()): a port,
 * RTE_RIO_INVALID_ROUTE when it drops it, -1 when it cannot be read. A
 * test that points the default port CSR at a wrong port first sees an entry
 * that says "use the default port" as a wrong route.
 */
int rio_test_hw_route(const char *fabric, const char *dev_name, uint32_t destid);

/*
 * Against @fabric: every switch of @mp's view holds an explicit entry for
 * every device ID the view has (endpoints', the host's, a switch's own
 * when no endpoint has it) that leads to that device, equal to the shadow
 * entry (rte_rio_switch_route_get()); free IDs up to 16 past the highest
 * one have "no route". Prints the first faults and a summary line.
 * @return faults found, or -1 when the fabric cannot be read.
 */
int rio_test_check_routes(const char *fabric, struct rte_rio_mport *mp);

#endif /* TEST_RIO_ROUTES_H */
