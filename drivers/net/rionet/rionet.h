/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIONET_H
#define RIONET_H

/*
 * rionet wire format, compatible with Linux rionet:
 *
 *  - one Ethernet frame (destination MAC first, no FCS, no padding) per
 *    RapidIO type-11 message, on mailbox 0 (RIONET_DEFAULT_MBOX), any letter;
 *    the message length is the frame length;
 *  - the MAC address of the endpoint with device ID D is
 *    00:01:00:01:<D >> 8>:<D & 0xff>;
 *  - doorbell RIONET_DBELL_JOIN announces that the sender's rionet is up (the
 *    receiver answers with JOIN when the sender was not active yet), doorbell
 *    RIONET_DBELL_LEAVE that it goes down.
 *
 * An extension between nodes of this driver, which Linux ignores (its
 * rionet claims only JOIN..LEAVE, and its mport drivers drop a doorbell no
 * one claimed): before every JOIN the sender sends RIONET_DBELL_MBOXES | M,
 * M the 4-bit mask of the mailboxes it receives frames on (bit m: mailbox
 * m). A peer that never sent it is a Linux rionet: mailbox 0 only.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

/** Doorbell info: the sender's rionet is up. */
#define RIONET_DBELL_JOIN	0x1000
/** Doorbell info: the sender's rionet goes down. */
#define RIONET_DBELL_LEAVE	0x1001
/** Doorbell info | mask of mailboxes: the sender receives frames on those. */
#define RIONET_DBELL_MBOXES	0x1010
/** Last doorbell info of the RIONET_DBELL_MBOXES range (all four mailboxes). */
#define RIONET_DBELL_MBOXES_LAST	(RIONET_DBELL_MBOXES | 0xf)
/** Mailbox of queue 0 (Linux rionet only uses this one). */
#define RIONET_DEFAULT_MBOX	0
/** Largest frame: one message of 4096 bytes. */
#define RIONET_MAX_FRAME	4096
/** Largest MTU: the frame without its 14-byte Ethernet header. */
#define RIONET_MAX_MTU		(RIONET_MAX_FRAME - RTE_ETHER_HDR_LEN)
/** Smallest MTU (IPv4 minimum). */
#define RIONET_MIN_MTU		68

/* The first four MAC bytes of every rionet address. */
static const uint8_t rionet_mac_prefix[4] = { 0x00, 0x01, 0x00, 0x01 };

/**
 * Build the rionet MAC address of device ID @p destid.
 * @param destid  device ID
 * @param[out] mac  the address
 */
static inline void
rionet_mac_from_destid(uint16_t destid, struct rte_ether_addr *mac)
{
	mac->addr_bytes[0] = rionet_mac_prefix[0];
	mac->addr_bytes[1] = rionet_mac_prefix[1];
	mac->addr_bytes[2] = rionet_mac_prefix[2];
	mac->addr_bytes[3] = rionet_mac_prefix[3];
	mac->addr_bytes[4] = destid >> 8;
	mac->addr_bytes[5] = destid & 0xff;
}

/**
 * Decode a rionet MAC address byte by byte (independent of host endianness).
 * @param mac  the six bytes of the address
 * @param[out] destid  the device ID, when the prefix matches
 * @return true and the device ID in *destid when the prefix matches.
 */
static inline bool
rionet_mac_to_destid(const uint8_t *mac, uint16_t *destid)
{
	if (mac[0] != rionet_mac_prefix[0] || mac[1] != rionet_mac_prefix[1] ||
	    mac[2] != rionet_mac_prefix[2] || mac[3] != rionet_mac_prefix[3])
		return false;
	*destid = (uint16_t)(mac[4] << 8 | mac[5]);
	return true;
}

#endif /* RIONET_H */
