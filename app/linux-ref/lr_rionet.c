/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Linux's rionet, built unmodified: this translation unit includes
 * drivers/net/rionet.c from the extracted Linux sources and adds the
 * node's accessors after it, because rionet keeps its state (the active
 * peer table) in file-scope variables that nothing outside can read.
 */

#include "rionet.c"

#include "lr_bridge.h"

struct rio_mport *lr_node_mport(void);

static struct net_device *
lr_rionet_ndev(void)
{
	struct rio_mport *mport = lr_node_mport();

	if (mport == NULL || mport->id >= RIONET_MAX_NETS)
		return NULL;
	return nets[mport->id].ndev;
}

int
lr_node_rionet_open(void)
{
	struct net_device *ndev = lr_rionet_ndev();

	return ndev != NULL ? dev_open(ndev, NULL) : -ENODEV;
}

int
lr_node_rionet_close(void)
{
	struct net_device *ndev = lr_rionet_ndev();

	return ndev != NULL ? dev_close(ndev) : -ENODEV;
}

int
lr_node_rionet_xmit(const void *frame, unsigned int len)
{
	struct net_device *ndev = lr_rionet_ndev();

	return ndev != NULL ? lr_netdev_xmit(ndev, frame, len) : -ENODEV;
}

int
lr_node_rionet_mac(uint8_t mac[6])
{
	struct net_device *ndev = lr_rionet_ndev();

	if (ndev == NULL)
		return -ENODEV;
	memcpy(mac, ndev->dev_addr, ETH_ALEN);
	return 0;
}

unsigned int
lr_node_rionet_active(uint16_t *destids, unsigned int max)
{
	struct rio_mport *mport = lr_node_mport();
	unsigned int i, n = 0;

	if (lr_rionet_ndev() == NULL || nets[mport->id].active == NULL)
		return 0;
	for (i = 0; i < RIO_MAX_ROUTE_ENTRIES(mport->sys_size); i++)
		if (nets[mport->id].active[i] != NULL && n < max)
			destids[n++] = (uint16_t)i;
	return n;
}
