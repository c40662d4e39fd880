/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_DEV_PRIVATE_H
#define RIO_DEV_PRIVATE_H

/*
 * A device found by enumeration or discovery (struct rte_rio_dev, opaque in
 * rte_rio_dev.h): what the library knows of it beside its public info.
 * Devices are listed per mport (struct rio_scan_data, rio_scan_private.h)
 * under rio_dev_list_lock().
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "rio_private.h"
#include "rte_rio_dev.h"

/*
 * Where a link partner keeps the ackIDs of its end of a link (its LP-Serial
 * block and port), remembered when the link goes down: if the same device
 * comes back, its outbound ackID is set to what this end expects.
 */
struct rio_link_partner {
	uint32_t phys_efptr;
	uint16_t efb_id;
	uint8_t rmap;
	uint8_t port;
	bool valid;
};

struct rte_rio_dev {
	TAILQ_ENTRY(rte_rio_dev) next;
	struct rte_rio_mport *mport;
	struct rte_rio_dev_info info;
	uint32_t gen_ctl;		/* Port General Control as last read */
	uint16_t phys_efb_id;		/* EF_ID of its LP-Serial block */
	bool locked;			/* this mport holds its Host Base Device ID Lock */
	uint32_t did32;			/* Dev32 Base Device ID CSR as read */
	/* Ports: peer device and its port; switches and endpoints (port 0). */
	struct rte_rio_dev *peer[RTE_RIO_MAX_SWITCH_PORTS];
	uint8_t peer_port[RTE_RIO_MAX_SWITCH_PORTS];
	uint32_t port_ok;		/* bit p: Port OK at enumeration */
	uint32_t redundant;		/* bit p: redundant link (loop, parallel link) */
	/* Switches. */
	const struct rte_rio_switch_ops *ops;
	uint8_t *rt;			/* shadow route table, RTE_RIO_MAX_DESTIDS entries */
	uint64_t *rt_known;		/* bit per entry: rt[] holds what the switch holds */
	bool any_routed;		/* enumeration wrote the ANY_DESTID entry */
	int32_t access_id;		/* enumeration: ID to address it by once routed, or -1 */
	/*
	 * Host hot-plug: device IDs and component tags of the subtree removed
	 * behind each port (-1 while none), kept for its return.
	 */
	int32_t hp_id_lo[RTE_RIO_MAX_SWITCH_PORTS];
	int32_t hp_id_hi[RTE_RIO_MAX_SWITCH_PORTS];
	int32_t hp_tag_lo[RTE_RIO_MAX_SWITCH_PORTS];
	int32_t hp_tag_hi[RTE_RIO_MAX_SWITCH_PORTS];
	bool hp_reach;			/* hot-plug: still reachable from the mport */
	bool announced;			/* ADD emitted (list lock) */
	/* Hot-plug: the link partner behind each port before its link went down. */
	struct rio_link_partner hp_partner[RTE_RIO_MAX_SWITCH_PORTS];
};

TAILQ_HEAD(rio_dev_list, rte_rio_dev);

#endif /* RIO_DEV_PRIVATE_H */
