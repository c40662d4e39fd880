/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Route tables of an emulated fabric read back through the backdoor: see
 * test_rio_routes.h.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_rio_regs.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "test_rio_routes.h"

#define ROUTES_MAX_HOPS		64
#define ROUTES_MAX_REPORT	5

int
rio_test_hw_route(const char *fabric, const char *dev_name, uint32_t destid)
{
	uint8_t *ports = malloc(RTE_RIO_MAX_DESTIDS(16));
	int n, ret = -1;

	if (ports == NULL)
		return -1;
	n = rte_pmd_rio_sim_fabric_route_table(fabric, dev_name, ports, RTE_RIO_MAX_DESTIDS(16),
					       NULL);
	if (n > 0 && destid < (uint32_t)n)
		ret = ports[destid];
	free(ports);
	return ret;
}

struct routes_ctx {
	const char *fabric;
	int ndev;
	struct rte_pmd_rio_sim_dev_info *info;
	struct rte_rio_dev **view;
	uint8_t **hw;		/* switches: where each ID goes, as the fabric decides */
	uint32_t nids;
};

static int
routes_entry(const struct routes_ctx *c, int idx, uint32_t destid)
{
	return c->hw[idx] != NULL && destid < c->nids ? c->hw[idx][destid] : -1;
}

/* Following the hardware entries for @destid from switch @sw leads to device @owner. */
static bool
routes_walk(const struct routes_ctx *c, int sw, uint32_t destid, int owner)
{
	int cur = sw, hops, p;

	for (hops = 0; hops < ROUTES_MAX_HOPS; hops++) {
		const struct rte_pmd_rio_sim_port_info *pi;

		p = routes_entry(c, cur, destid);
		if (p < 0 || p >= c->info[cur].nports)
			return false;
		pi = &c->info[cur].ports[p];
		if (pi->peer_dev < 0 || !pi->port_ok)
			return false;
		cur = pi->peer_dev;
		if (cur == owner)
			return true;
		if (c->info[cur].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			return false;
	}
	return false;
}

static int
routes_check(struct routes_ctx *c, struct rte_rio_mport *mp, int32_t *owner, uint32_t nids)
{
	unsigned int pairs = 0, bad = 0, shadow = 0, stray = 0;
	struct rte_rio_dev_info di;
	uint32_t id, top = 0;
	int i, pass, hw;

	/* An endpoint owns its ID; a switch owns the ID it is addressed by if nobody else does. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < c->ndev; i++) {
			if (c->view[i] == NULL || rte_rio_dev_info_get(c->view[i], &di) != 0 ||
			    (pass == 0) != (di.type == RTE_RIO_DEV_ENDPOINT))
				continue;
			if (di.destid < nids && owner[di.destid] < 0) {
				owner[di.destid] = i;
				top = RTE_MAX(top, (uint32_t)di.destid);
			}
		}
	}
	top = RTE_MIN(top + 16, nids - 2);
	for (i = 0; i < c->ndev; i++) {
		if (c->info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH || c->view[i] == NULL)
			continue;
		for (id = 0; id <= top; id++) {
			if (owner[id] == i)
				continue;	/* a switch's own ID ends at the switch */
			hw = routes_entry(c, i, id);
			if (owner[id] < 0) {
				if (hw != RTE_RIO_INVALID_ROUTE && stray++ < ROUTES_MAX_REPORT)
					printf("  %s: route 0x%x -> %d for a free ID\n",
					       c->info[i].name, id, hw);
				continue;
			}
			pairs++;
			if (!routes_walk(c, i, id, owner[id]) && bad++ < ROUTES_MAX_REPORT)
				printf("  %s: no explicit route for 0x%x (%s): entry %d\n",
				       c->info[i].name, id, c->info[owner[id]].name, hw);
			if (rte_rio_switch_route_get(c->view[i], (uint16_t)id) != hw &&
			    shadow++ < ROUTES_MAX_REPORT)
				printf("  %s: shadow route for 0x%x is %d, the switch has %d\n",
				       c->info[i].name, id,
				       rte_rio_switch_route_get(c->view[i], (uint16_t)id), hw);
		}
	}
	printf("  %u of %u (switch, device ID) pairs without a correct explicit route\n",
	       bad, pairs);
	if (shadow != 0 || stray != 0)
		printf("  %u shadow entries differ from the switches, %u free IDs routed\n",
		       shadow, stray);
	return (int)(bad + shadow + stray);
}

int
rio_test_check_routes(const char *fabric, struct rte_rio_mport *mp)
{
	struct rte_rio_mport_info mi;
	uint32_t nids;
	struct routes_ctx c;
	int32_t *owner = NULL;
	int i, ret = -1;

	if (rte_rio_mport_info_get(mp, &mi) != 0)
		return -1;
	nids = RTE_RIO_MAX_DESTIDS(mi.devid_size);
	memset(&c, 0, sizeof(c));
	c.fabric = fabric;
	c.ndev = rte_pmd_rio_sim_fabric_dev_count(fabric);
	if (c.ndev <= 0)
		return -1;
	c.info = calloc(c.ndev, sizeof(*c.info));
	c.view = calloc(c.ndev, sizeof(*c.view));
	owner = malloc(sizeof(*owner) * nids);
	if (c.info == NULL || c.view == NULL || owner == NULL)
		goto out;
	memset(owner, 0xff, sizeof(*owner) * nids);
	c.hw = calloc(c.ndev, sizeof(*c.hw));
	c.nids = nids;
	if (c.hw == NULL)
		goto out;
	for (i = 0; i < c.ndev; i++) {
		if (rte_pmd_rio_sim_fabric_dev_info(fabric, i, &c.info[i]) != 0)
			goto out;
		c.view[i] = rte_rio_dev_find_by_comptag(mp, c.info[i].comptag);
		if (c.info[i].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		c.hw[i] = malloc(nids);
		if (c.hw[i] == NULL || rte_pmd_rio_sim_fabric_route_table(fabric, c.info[i].name,
				c.hw[i], nids, NULL) != (int)nids)
			goto out;
	}
	ret = routes_check(&c, mp, owner, nids);
out:
	for (i = 0; c.hw != NULL && i < c.ndev; i++)
		free(c.hw[i]);
	free(c.hw);
	free(owner);
	free(c.info);
	free(c.view);
	return ret;
}
