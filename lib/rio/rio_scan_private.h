/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SCAN_PRIVATE_H
#define RIO_SCAN_PRIVATE_H

/*
 * Internal state of enumeration (rio_enum.c), discovery (rio_disc.c), what
 * both read of a device (rio_scan.c), the device model (rio_dev.c) and
 * switch routing (rio_switch.c).
 *
 * Every mport that scanned has a struct rio_scan_data hung on
 * mport->lib->scan_data: its list of devices, the local endpoint first.
 * Lists are protected by one process-wide recursive mutex
 * (rio_dev_list_lock()), also held while device events are delivered.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "rio_dev_private.h"
#include "rio_private.h"
#include "rte_rio_dev.h"

/* Deepest switch path the enumerator follows. */
#define RIO_SCAN_MAX_DEPTH	64

/* A write to the partner's registers before a subtree is enumerated again. */
struct rio_partner_write {
	uint32_t offset;
	uint32_t value;
	bool answered;		/* the write's response must come back */
};

struct rio_scan_data {
	struct rio_dev_list devs;	/* local endpoint first */
	unsigned int ndevs;
	bool scanned;			/* scan finished, devices published */
	/* publish_local: only the own endpoint is published, discovery pending */
	bool waiting;
	bool claimed;			/* waiting: a scan runs (list lock) */
	bool enumerated;		/* true: this mport has the host role; false: agent */
	int32_t fabric_host;		/* host device ID of the fabric, if known */
	uint16_t lock_id;		/* what this mport writes to Host Base Device ID Locks */
	uint32_t rt_window;		/* every switch routes IDs [0, rt_window) explicitly */
	uint32_t tag_top;		/* host: next never-used component tag */
	/* Host hot-plug (rio_hotplug.c), under the list lock. */
	unsigned int pw_period_us;	/* automatic port-write poll period, 0: off */
	bool pw_armed;			/* the poll alarm is set */
	struct rte_rio_hotplug_stats hp_stats;
};

/* Process-wide lock of every mport's device list and of the event callbacks. */
void rio_dev_list_lock(void);
void rio_dev_list_unlock(void);

/* New device of @mport (not linked); NULL on allocation failure. */
struct rte_rio_dev *rio_dev_alloc(struct rte_rio_mport *mport, bool is_switch);
/* Free a device that was never published. */
void rio_dev_free(struct rte_rio_dev *dev);
/* Set the device's name from its type, destid and comptag. */
void rio_dev_set_name(struct rte_rio_dev *dev);
/* Free every device of a list (no events). */
void rio_dev_list_free(struct rio_dev_list *list);
/* Publish a finished scan: mark it scanned and emit ADD events (once per device). */
void rio_dev_publish(struct rte_rio_mport *mport);
/*
 * A scan of an mport whose own endpoint was published while it waited
 * (@waiting) has found @sd: move that device, the same object, into @sd in
 * place of the one the scan made, report it as UPDATE, and make @sd the
 * mport's scan data. Call rio_dev_publish() next.
 */
void rio_dev_adopt_local(struct rte_rio_mport *mport, struct rio_scan_data *waiting,
			 struct rio_scan_data *sd);
/* Device of @list with component tag @comptag, or NULL. */
struct rte_rio_dev *rio_dev_list_find_comptag(struct rio_dev_list *list, uint32_t comptag);

/* ---------------------------------------------------------------------- */
/* Enumeration and discovery (rio_scan.c, rio_enum.c, rio_disc.c)         */

/* Returned by the enumerator when a host with a higher ID holds the fabric. */
#define RIO_SCAN_BACKOFF		1
/* Extended feature blocks visited at most per device. */
#define RIO_SCAN_MAX_EFB		16

/* What every device read tells: CARs, 0x60 block, extended features. */
struct rio_scan_raw {
	uint32_t car[8];	/* 0x00 .. 0x1c */
	uint32_t csr[4];	/* 0x60 .. 0x6c: DID, DID32, lock, comptag */
	uint32_t pw_target;	/* EM + 0x28 when read with the EM header, else 0 */
	bool pw_target_valid;
};

static inline bool
rio_is_switch(uint32_t pef)
{
	return (pef & RTE_RIO_PEF_SWITCH) != 0;
}

/* Can the device be reached by more than one link? */
static inline bool
rio_is_multiport(uint32_t pef)
{
	return (pef & (RTE_RIO_PEF_SWITCH | RTE_RIO_PEF_MULTIPORT)) != 0;
}

static inline bool
rio_efb_ptr_ok(uint32_t ptr)
{
	return ptr >= RTE_RIO_EF_PTR_MIN && ptr <= RTE_RIO_EF_PTR_MAX && (ptr & 7) == 0;
}

/* Port of @dev that faces the device it was read from. */
static inline uint8_t
rio_scan_inport(const struct rte_rio_dev *dev)
{
	return rio_is_multiport(dev->info.pef) ? dev->info.sw_inport : 0;
}

/* Read @nwords registers from @off: one transaction if the mport can. */
int rio_scan_read(struct rte_rio_mport *mport, uint16_t destid, uint8_t hop, uint32_t off,
		  unsigned int nwords, uint32_t *w);
void rio_scan_fill_info(struct rte_rio_dev *dev, const struct rio_scan_raw *raw);
/*
 * Walk a remote device's extended features: LP-Serial block (and its
 * General Control) and Error Management block (and its port-write target).
 * With block maintenance each block costs one 64-byte read.
 */
int rio_scan_efb(struct rte_rio_mport *mport, bool block, uint16_t destid, uint8_t hop,
		 struct rte_rio_dev *dev, struct rio_scan_raw *raw);
/* The mport's own endpoint, from local config space. */
int rio_scan_local_dev(struct rte_rio_mport *mport, struct rte_rio_dev **out);
int rio_scan_local_port_ok(struct rte_rio_mport *mport);
/* Set the own port's input and output enables. */
int rio_scan_local_port_enable(struct rte_rio_mport *mport);
void rio_scan_link(struct rte_rio_dev *a, uint8_t pa, struct rte_rio_dev *b, uint8_t pb,
		   bool redundant);
void rio_scan_append(struct rio_scan_data *sd, struct rte_rio_dev *dev);
/* Host: 0, RIO_SCAN_BACKOFF (another host holds the fabric) or -errno. */
int rio_enum_mport(struct rte_rio_mport *mport, struct rio_scan_data *sd);
/* Agent. */
/* How long an agent waits for Discovered: conf's, or the default. */
unsigned int rio_disc_timeout_ms(const struct rte_rio_scan_conf *conf);
int rio_disc_mport(struct rte_rio_mport *mport, struct rio_scan_data *sd,
		   const struct rte_rio_scan_conf *conf);
/*
 * A host restarted on a fabric it enumerated: rebuild its view with the
 * discovery walk from its own port. -EAGAIN when that enumeration did not
 * finish (a device still locked by this host, an endpoint not Discovered).
 */
int rio_disc_takeover(struct rte_rio_mport *mport, struct rio_scan_data *sd);

/*
 * Host hot-plug: enumerate again what is behind port @port of switch @sw of
 * an enumerated mport, reusing the IDs and tags remembered for that port
 * where they are free. The new devices are appended to the mport's list
 * (not announced); *first gets the first of them. List lock held.
 * @return number of new devices, or -errno.
 */
int rio_enum_subtree(struct rte_rio_mport *mport, struct rte_rio_dev *sw, uint8_t port,
		     struct rte_rio_dev **first);
/*
 * The same, after writing @n registers of the device behind the port first
 * (reached through ANY_DESTID along the path): what realigns its ackIDs.
 */
int rio_enum_subtree_fix(struct rte_rio_mport *mport, struct rte_rio_dev *sw, uint8_t port,
			 const struct rio_partner_write *w, unsigned int n,
			 struct rte_rio_dev **first);
/* Start (host mports with port-write reception) and stop the port-write poll. */
void rio_hotplug_start(struct rte_rio_mport *mport);
void rio_hotplug_stop(struct rte_rio_mport *mport);
/* Emit a device event to every subscriber. List lock held. */
void rio_dev_event_emit(struct rte_rio_dev *dev, enum rte_rio_dev_event event);

/* ---------------------------------------------------------------------- */
/* Switch route access (rio_switch.c, rio_switch_idt.c)                   */

/* Route entries one extended route-configuration access programs. */
#define RIO_SWITCH_RT_GROUP	4
/*
 * IDs a 16-bit fabric's switches route explicitly beyond the highest one in
 * use: agents read route tables that far past the highest ID they know.
 */
#define RIO_SWITCH_RT_MARGIN	256

/* Route ops for a switch with (vid, did): registered ones or the standard ones. */
const struct rte_rio_switch_ops *rio_switch_ops_find(uint16_t vid, uint16_t did);

/*
 * Take @sw's Host Base Device ID Lock with @lock_id (nothing to do when the
 * mport holds it), waiting up to @wait_ms for another holder: 0 or -EBUSY.
 */
int rio_switch_lock(struct rte_rio_dev *sw, uint16_t lock_id, unsigned int wait_ms);
/* Release it (nothing to do when the mport does not hold it). */
int rio_switch_unlock(struct rte_rio_dev *sw, uint16_t lock_id);
/* Highest entry + 1 @sw's route ops reach on its mport's fabric. */
uint32_t rio_switch_route_limit(const struct rte_rio_dev *sw);
/*
 * Program entries [first, first + n) of @sw to @want[] through its ops, as
 * few transactions as the part allows: entries the shadow knows to hold the
 * value already are skipped, whole groups are written where the other
 * entries of a group are known. Lock held. Updates the shadow.
 */
int rio_switch_route_program(struct rte_rio_dev *sw, uint32_t first, uint32_t n,
			     const uint8_t *want);
/* One entry, always written (single-entry access). Lock held. */
int rio_switch_route_write(struct rte_rio_dev *sw, uint32_t destid, uint8_t port);
/* Read entries [first, first + n) of @sw into its shadow. Lock held. */
int rio_switch_route_load(struct rte_rio_dev *sw, uint32_t first, uint32_t n);
/* Let the part's ops prepare a switch a host enumerates (ops->init). */
int rio_switch_init(struct rte_rio_dev *sw, uint8_t inport);
/* Forget what the shadow knows (entries read as "no route" from then on). */
void rio_switch_route_forget(struct rte_rio_dev *sw);

static inline bool
rio_switch_rt_known(const struct rte_rio_dev *sw, uint32_t id)
{
	return (sw->rt_known[id / 64] >> (id % 64)) & 1;
}

#endif /* RIO_SCAN_PRIVATE_H */
