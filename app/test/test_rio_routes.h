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
 * Entry of switch @dev_name for @destid as the switch holds it, with no
 * default-port fallback: a port, RTE_RIO_INVALID_ROUTE for "no route", -1
 * when it cannot be read. @vendor: the rio_sim vendor model's registers.
 */
int rio_test_hw_route(const char *fabric, const char *dev_name, bool vendor, uint8_t nports,
		      uint32_t destid);

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
