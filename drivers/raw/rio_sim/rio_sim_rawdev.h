/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SIM_RAWDEV_H
#define RIO_SIM_RAWDEV_H

/*
 * Private interface of the rio_sim rawdev, shared by its files:
 *
 *   rio_sim_rawdev.c    rawdev ops (configure, start, raw operations,
 *                       attributes), probe and remove
 *   rio_sim_mport.c     the mport ops lib/rio calls (rio_sim_ops_of())
 *   rio_sim_xstats.c    extended statistics and dump
 *   rio_sim_selftest.c  the dev_selftest of rte_rawdev_selftest()
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_memzone.h>
#include <rte_rawdev.h>
#include <rte_rawdev_pmd.h>
#include <rte_ring.h>

#include "rio_driver.h"
#include "rio_sim_fabric.h"
#include "rte_pmd_rio_sim.h"

#define RIO_SIM_DBELL_RING_SIZE	1024	/* raw doorbells waiting for dequeue */
#define RIO_SIM_RX_POST_MAX	64	/* receive buffers posted per raw mailbox */
#define RIO_SIM_BURST		32
/* Memzone by which secondary processes find what the primary shares of a device. */
/* Memzone of a device for secondary processes: CRC32C of the device name. */
#define RIO_SIM_MZ_FMT		"rio_sim_mp_%08x"

/*
 * Shared with secondary processes, at the start of the memzone; the
 * endpoint's shared receive state (sim_ep_share()) follows at
 * RIO_SIM_MP_EP_OFF.
 */
struct rio_sim_mp_info {
	int32_t host_destid;
	uint32_t rsvd;
	char name[RTE_RAWDEV_NAME_MAX_LEN];	/* the device's: two names, one CRC */
};
#define RIO_SIM_MP_EP_OFF	(2 * RTE_CACHE_LINE_SIZE)

/* Raw data path counters, per mailbox (single writer: the data path thread). */
struct rio_sim_mbox_stats {
	uint64_t tx_msgs;
	uint64_t tx_bytes;
	uint64_t tx_errors;
	uint64_t rx_msgs;
	uint64_t rx_bytes;
};

struct rio_sim_raw_mbox {
	void *pool;		/* RIO_SIM_RX_POST_MAX buffers of RTE_RIO_MAX_MSG_SIZE */
	unsigned int posted;
};

/* Device private data (dev_private of the rawdev). */
struct rio_sim_rawdev {
	struct rte_rawdev *rawdev;
	struct sim_fabric *fabric;
	struct sim_ep *ep;
	struct rte_rio_mport *mport;
	uint32_t ep_index;
	uint32_t dev_index;
	int32_t host_destid;
	bool secondary;			/* a secondary's view of the primary's endpoint */
	const struct rte_memzone *mz;	/* primary: what secondaries attach to, or NULL */

	struct rte_pmd_rio_sim_conf conf;
	uint32_t mbox_entries;		/* attribute: raw mailbox ring size at next start */
	bool started;
	uint8_t open_mask;		/* raw mailboxes opened by start */
	bool dbell_claimed;
	struct rte_ring *dbell_ring;	/* doorbells of the raw range, for dequeue */
	uint8_t next_mbox;		/* dequeue round robin */
	struct rio_sim_raw_mbox raw_mbox[RTE_RIO_MAX_MBOX];

	struct rio_sim_mbox_stats mbox_stats[RTE_RIO_MAX_MBOX];
	uint64_t raw_dbell_tx;
	uint64_t raw_dbell_tx_errors;
	uint64_t raw_dbell_rx;
	uint32_t dbell_depth;		/* RTE_PMD_RIO_SIM_ATTR_DBELL_DEPTH */
	uint64_t raw_dbell_dropped;	/* written by the poller in the doorbell callback */
	uint64_t *xstats_base;		/* reset snapshots, one per xstat */

};

/* The rawdev ops of every rio_sim device (rio_sim_rawdev.c): is a device ours? */
extern const struct rte_rawdev_ops rio_sim_rawdev_ops;


/* Relaxed 64-bit counter read: counters in shared memory are updated by
 * other processes with relaxed atomic adds; no ordering is implied.
 */
static inline uint64_t
rio_sim_counter_read(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * Is endpoint @ep_index owned by a live process (this one included)? Pairs
 * with the claim's release store of the owner token in sim_ep_claim().
 */
static inline bool
rio_sim_ep_owned(const struct sim_fabric *f, uint32_t ep_index)
{
	return sim_token_alive(f, __atomic_load_n(&f->eps[ep_index].owner, __ATOMIC_ACQUIRE));
}

static inline struct rio_sim_rawdev *
rio_sim_priv(const struct rte_rawdev *dev)
{
	return dev->dev_private;
}

static inline bool
rio_sim_link_up(const struct rio_sim_rawdev *sd)
{
	const struct sim_shm_device *d = &sd->fabric->devs[sd->dev_index];

	return __atomic_load_n(&d->ports[0].link_up, __ATOMIC_RELAXED) != 0;
}

/* rio_sim_mport.c: the mport ops of the endpoint's model. */
const struct rte_rio_mport_ops *rio_sim_ops_of(const struct sim_fabric *f, uint32_t dev_index);

/* rio_sim_xstats.c: every counter is an xstat; xstats_base holds rio_sim_xstats_num. */
extern const unsigned int rio_sim_xstats_num;
int rio_sim_xstats_get_names(const struct rte_rawdev *dev,
			     struct rte_rawdev_xstats_name *xstats_names, unsigned int size);
int rio_sim_xstats_get(const struct rte_rawdev *dev, const unsigned int ids[], uint64_t values[],
		       unsigned int n);
uint64_t rio_sim_xstats_get_by_name(const struct rte_rawdev *dev, const char *name,
				    unsigned int *id);
int rio_sim_xstats_reset(struct rte_rawdev *dev, const uint32_t ids[], uint32_t nb_ids);
int rio_sim_dump(struct rte_rawdev *dev, FILE *f);

/* rio_sim_selftest.c */
int rio_sim_dev_selftest(uint16_t dev_id);

#endif /* RIO_SIM_RAWDEV_H */
