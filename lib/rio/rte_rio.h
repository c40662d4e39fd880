/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_RIO_H
#define RTE_RIO_H

/**
 * @file
 * RapidIO core API.
 *
 * A master port (mport) is this process's attachment to a RapidIO fabric.
 * Through it an application reads and writes configuration space (its own,
 * and remote devices' by maintenance transactions), sends and receives
 * doorbells, and sends and receives mailbox (type 11) messages. Mport drivers
 * (e.g. the rio_sim rawdev) register mports; see rio_driver.h.
 *
 * Return convention: 0 or a count on success, a negative errno on failure.
 * Transaction results map RapidIO response statuses to errno values:
 *  - DONE: 0
 *  - RETRY: -EAGAIN (the target is busy, e.g. its inbound ring is full; resend)
 *  - ERROR: -EIO (the target answered with ERROR)
 *  - no response (no route, link down, port locked out, target dead): -ETIMEDOUT,
 *    once the response timeout is over (the call waits for it)
 * Configuration access adds:
 *  - -EFAULT: misaligned 16/32-bit offset (nothing is accessed)
 *  - -ERANGE: offset beyond the 16 MiB configuration space
 *  - -EINVAL: bad mport or argument
 *
 * All functions are thread-safe for distinct mports. Config accesses on one
 * mport are serialized by the library. Message and doorbell fast paths are
 * not locked: one thread per mailbox direction.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_mbuf.h>

#include "rte_rio_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum length of an mport name, including the terminating NUL. */
#define RTE_RIO_NAME_MAX_LEN	64
/** Maximum number of mports in one process. */
#define RTE_RIO_MAX_MPORTS	32
/** Mailboxes per mport (multi-segment messages: 0..3). */
#define RTE_RIO_MAX_MBOX	4
/** Letters per mailbox. */
#define RTE_RIO_MAX_LETTER	4
/** Smallest message payload in bytes (one double-word). */
#define RTE_RIO_MIN_MSG_SIZE	8
/** Largest message payload in bytes (16 segments of 256 bytes). */
#define RTE_RIO_MAX_MSG_SIZE	4096
/** Hop count used for maintenance to a device addressed by its device ID. */
#define RTE_RIO_HOPCOUNT_DIRECT	0xff
/** Unset host device ID (agent mport). */
#define RTE_RIO_NO_HOST		(-1)
/** Destination ID that reaches any unconfigured device for a device ID size. */
#define RTE_RIO_ANY_DESTID(devid_size) ((devid_size) == 16 ? 0xffff : 0xff)
/** Number of device IDs for a device ID size. */
#define RTE_RIO_MAX_DESTIDS(devid_size) ((devid_size) == 16 ? 65536 : 256)

struct rte_rio_mport;

/** Mport description. */
struct rte_rio_mport_info {
	char name[RTE_RIO_NAME_MAX_LEN]; /**< mport name */
	uint16_t id;            /**< index in this process */
	uint8_t devid_size;     /**< 8 or 16 */
	int32_t host_destid;    /**< host device ID, or RTE_RIO_NO_HOST for an agent */
	uint16_t destid;        /**< own device ID (Base Device ID CSR) */
	uint32_t phys_efptr;    /**< offset of the local LP-Serial block */
	uint8_t phys_rmap;      /**< its register map: 1 or 2 */
	uint8_t port_index;     /**< local port number in that block */
	bool link_up;           /**< local Port OK */
	uint64_t maint_count;   /**< maintenance transactions issued so far */
	/** longest message rte_rio_recv_messages_inplace() delivers; 0: not supported */
	uint16_t inb_inplace_max;
};

/** One mailbox message, used for bursts in both directions. */
struct rte_rio_msg {
	void *buf;          /**< payload; on receive a posted buffer (rte_rio_set_inb_buf_size()) */
	/**
	 * send: payload length in bytes, 8..4096; receive: the length on the
	 * wire, where payloads are whole double-words: the sent length rounded
	 * up to a multiple of 8, the padding zero
	 */
	uint16_t len;
	uint16_t destid;    /**< send: destination device ID; receive: own device ID */
	uint16_t srcid;     /**< receive: source device ID */
	uint8_t mbox;       /**< mailbox 0..RTE_RIO_MAX_MBOX-1 */
	uint8_t letter;     /**< letter 0..RTE_RIO_MAX_LETTER-1 */
	int16_t status;     /**< send: 0, -EAGAIN, -EIO, -ETIMEDOUT or -EINVAL */
};

/** One received doorbell. */
struct rte_rio_dbell {
	uint16_t src;   /**< source device ID */
	uint16_t dst;   /**< destination device ID */
	uint16_t info;  /**< 16-bit doorbell information */
};

/** One received port-write (error-management payload in the first 16 bytes). */
struct rte_rio_pw_msg {
	union {
		uint32_t raw[RTE_RIO_PW_MSG_SIZE / sizeof(uint32_t)];
		struct {
			uint32_t comptag;   /**< reporter's Component Tag CSR */
			uint32_t errdetect; /**< Port n Error Detect CSR */
			uint32_t is_port;   /**< impl-specific bits, port number in low byte */
			uint32_t ltlerrdet; /**< L/T Error Detect CSR */
		} em;
	};
	uint16_t len;   /**< payload length in bytes */
};

/* ---------------------------------------------------------------------- */
/* Mport registry                                                         */

/** @return number of registered mports. */
__rte_experimental
uint16_t rte_rio_mport_count(void);

/**
 * @param id  mport index, 0 to rte_rio_mport_count() - 1
 * @return the mport with index @p id, or NULL (rte_errno = ENODEV).
 */
__rte_experimental
struct rte_rio_mport *rte_rio_mport_get(uint16_t id);

/**
 * @param name  mport name
 * @return the mport named @p name, or NULL (rte_errno = ENODEV).
 */
__rte_experimental
struct rte_rio_mport *rte_rio_mport_find(const char *name);

/**
 * Describe an mport.
 * @param mport  master port
 * @param[out] info  filled with the mport's description
 * @return 0, or -EINVAL for a NULL argument.
 */
__rte_experimental
int rte_rio_mport_info_get(struct rte_rio_mport *mport, struct rte_rio_mport_info *info);

/**
 * @param mport  master port
 * @return the mport's name, or NULL.
 */
__rte_experimental
const char *rte_rio_mport_name(const struct rte_rio_mport *mport);

/**
 * @param mport  master port
 * @return the mport's own device ID (read from its Base Device ID CSR), or -errno.
 */
__rte_experimental
int rte_rio_mport_destid(struct rte_rio_mport *mport);

/**
 * @param mport  master port
 * @return number of maintenance transactions the mport has issued.
 */
__rte_experimental
uint64_t rte_rio_mport_maint_count(const struct rte_rio_mport *mport);

/**
 * Reset the maintenance transaction counter.
 * @param mport  master port
 */
__rte_experimental
void rte_rio_mport_maint_count_reset(struct rte_rio_mport *mport);

/* ---------------------------------------------------------------------- */
/* Configuration space access                                             */

/**
 * Read a register of the mport's own configuration space.
 *
 * @param offset  byte offset; 16-bit accesses must be 2-byte aligned and
 *                32-bit accesses 4-byte aligned.
 * @param mport  master port
 * @param[out] val  the register's value
 * @return 0; -EFAULT misaligned; -ERANGE offset out of space; -EINVAL bad
 *         argument; or the driver's error. On error *val is not written.
 */
__rte_experimental
int rte_rio_local_read_config_32(struct rte_rio_mport *mport, uint32_t offset, uint32_t *val);
/**
 * 16-bit variant of rte_rio_local_read_config_32().
 * @param mport  master port
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param[out] val  the register's value
 * @return as rte_rio_local_read_config_32()
 */
__rte_experimental
int rte_rio_local_read_config_16(struct rte_rio_mport *mport, uint32_t offset, uint16_t *val);
/**
 * 8-bit variant of rte_rio_local_read_config_32().
 * @param mport  master port
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param[out] val  the register's value
 * @return as rte_rio_local_read_config_32()
 */
__rte_experimental
int rte_rio_local_read_config_8(struct rte_rio_mport *mport, uint32_t offset, uint8_t *val);
/**
 * Write a local register; same rules as rte_rio_local_read_config_32().
 * @param mport  master port
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param val  value to write
 * @return as rte_rio_local_read_config_32()
 */
__rte_experimental
int rte_rio_local_write_config_32(struct rte_rio_mport *mport, uint32_t offset, uint32_t val);
/**
 * 16-bit variant of rte_rio_local_write_config_32().
 * @param mport  master port
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param val  value to write
 * @return as rte_rio_local_read_config_32()
 */
__rte_experimental
int rte_rio_local_write_config_16(struct rte_rio_mport *mport, uint32_t offset, uint16_t val);
/**
 * 8-bit variant of rte_rio_local_write_config_32().
 * @param mport  master port
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param val  value to write
 * @return as rte_rio_local_read_config_32()
 */
__rte_experimental
int rte_rio_local_write_config_8(struct rte_rio_mport *mport, uint32_t offset, uint8_t val);

/**
 * Read a remote device's register through a maintenance transaction.
 *
 * @param destid    destination device ID
 * @param hopcount  switches to cross before the request is consumed (0: the
 *                  first device behind the mport's link); RTE_RIO_HOPCOUNT_DIRECT
 *                  to address an endpoint by its device ID.
 * @param mport  master port
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param[out] val  the register's value
 * @return 0; -EFAULT misaligned; -ERANGE out of space; -EIO ERROR response;
 *         -ETIMEDOUT no response; -EINVAL bad argument.
 */
__rte_experimental
int rte_rio_remote_read_config_32(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
				  uint32_t offset, uint32_t *val);
/**
 * 16-bit variant of rte_rio_remote_read_config_32().
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param[out] val  the register's value
 * @return as rte_rio_remote_read_config_32()
 */
__rte_experimental
int rte_rio_remote_read_config_16(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
				  uint32_t offset, uint16_t *val);
/**
 * 8-bit variant of rte_rio_remote_read_config_32().
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param[out] val  the register's value
 * @return as rte_rio_remote_read_config_32()
 */
__rte_experimental
int rte_rio_remote_read_config_8(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
				 uint32_t offset, uint8_t *val);
/**
 * Write a remote register; same rules as rte_rio_remote_read_config_32().
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param val  value to write
 * @return as rte_rio_remote_read_config_32()
 */
__rte_experimental
int rte_rio_remote_write_config_32(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
				   uint32_t offset, uint32_t val);
/**
 * 16-bit variant of rte_rio_remote_write_config_32().
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param val  value to write
 * @return as rte_rio_remote_read_config_32()
 */
__rte_experimental
int rte_rio_remote_write_config_16(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
				   uint32_t offset, uint16_t val);
/**
 * 8-bit variant of rte_rio_remote_write_config_32().
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset in the configuration space, aligned to the access size
 * @param val  value to write
 * @return as rte_rio_remote_read_config_32()
 */
__rte_experimental
int rte_rio_remote_write_config_8(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
				  uint32_t offset, uint8_t val);

/* ---------------------------------------------------------------------- */
/* Extended features                                                      */

/**
 * Find an extended feature block of a device.
 *
 * Walks the list from the Assembly Information CAR following each header's
 * next pointer (pointers outside 0x100..0xfffc or not 8-byte aligned end
 * the walk; at most 256 blocks are visited). A device whose Processing
 * Element Features CAR lacks RTE_RIO_PEF_EXT_FEATURES has no list. Remote
 * walks are maintenance reads and count in the mport's maint_count.
 *
 * @param local     true: the mport's own config space (destid/hopcount ignored)
 * @param ftr       EF_ID to look for
 * @param mport  master port
 * @param destid  destination device ID of the device (remote walks)
 * @param hopcount  its hop count (remote walks)
 * @return block offset, 0 when not found, or -errno on access error.
 */
__rte_experimental
int32_t rte_rio_get_feature(struct rte_rio_mport *mport, bool local, uint16_t destid,
			    uint8_t hopcount, uint16_t ftr);

/**
 * Find a device's LP-Serial physical block (any register map I or II ID).
 * @param[out] rmap  1 or 2 (may be NULL)
 * @param mport  master port
 * @param local  true: the mport's own configuration space (@p destid and @p hopcount ignored)
 * @param destid  destination device ID of the device (remote walks)
 * @param hopcount  its hop count (remote walks)
 * @return block offset, 0 when absent, or -errno.
 */
__rte_experimental
int32_t rte_rio_get_physefb(struct rte_rio_mport *mport, bool local, uint16_t destid,
			    uint8_t hopcount, uint8_t *rmap);

/**
 * Iterate a device's extended feature list.
 * @param from  0 to start at the head, else a block offset returned earlier
 * @param[out] id  EF_ID of the returned block (may be NULL)
 * @param mport  master port
 * @param local  true: the mport's own configuration space (@p destid and @p hopcount ignored)
 * @param destid  destination device ID of the device (remote walks)
 * @param hopcount  its hop count (remote walks)
 * @return offset of the next block, 0 at the end, or -errno.
 */
__rte_experimental
int32_t rte_rio_next_efb(struct rte_rio_mport *mport, bool local, uint16_t destid,
			 uint8_t hopcount, uint32_t from, uint16_t *id);

/* ---------------------------------------------------------------------- */
/* Doorbells                                                              */

/**
 * Inbound doorbell handler, called from rte_rio_dbell_poll() in the polling
 * thread for every doorbell whose info lies in the handler's range. The
 * handler runs without library locks held and may request or release
 * ranges; release a range from another thread only when no poll can be
 * running the handler (its @p arg must stay valid until then).
 */
typedef void (*rte_rio_dbell_cb_t)(struct rte_rio_mport *mport, void *arg,
				   const struct rte_rio_dbell *dbell);

/**
 * Claim the inbound doorbell info range [start, end].
 * @param mport  master port
 * @param start  first doorbell info of the range
 * @param end  last doorbell info of the range
 * @param cb  handler of the range's doorbells
 * @param arg  passed to @p cb
 * @return 0; -EBUSY when it overlaps a claimed range; -EINVAL start > end or
 *         NULL handler; -ENOMEM.
 */
__rte_experimental
int rte_rio_request_inb_dbell(struct rte_rio_mport *mport, uint16_t start, uint16_t end,
			      rte_rio_dbell_cb_t cb, void *arg);

/**
 * Release an inbound doorbell range claimed with exactly these bounds.
 * @param mport  master port
 * @param start  first doorbell info of the range
 * @param end  last doorbell info of the range
 * @return 0, or -ENOENT.
 */
__rte_experimental
int rte_rio_release_inb_dbell(struct rte_rio_mport *mport, uint16_t start, uint16_t end);

/**
 * Fetch up to @p max inbound doorbells and deliver each to its range owner.
 * Doorbells outside every range are dropped and counted.
 * @param mport  master port
 * @param max  most doorbells to fetch
 * @return number of doorbells fetched (delivered or dropped), or -errno.
 */
__rte_experimental
int rte_rio_dbell_poll(struct rte_rio_mport *mport, unsigned int max);

/**
 * @param mport  master port
 * @return doorbells received with no range owner since the mport was registered.
 */
__rte_experimental
uint64_t rte_rio_dbell_unclaimed_count(const struct rte_rio_mport *mport);

/**
 * Claim the outbound doorbell range [start, end] towards device @p destid.
 * @param mport  master port
 * @param destid  device the doorbells go to
 * @param start  first doorbell info of the range
 * @param end  last doorbell info of the range
 * @return 0; -EBUSY when it overlaps a range already claimed for @p destid;
 *         -EINVAL; -ENOMEM.
 */
__rte_experimental
int rte_rio_request_outb_dbell(struct rte_rio_mport *mport, uint16_t destid,
			       uint16_t start, uint16_t end);

/**
 * Release an outbound doorbell range.
 * @param mport  master port
 * @param destid  device the range was claimed for
 * @param start  first doorbell info of the range
 * @param end  last doorbell info of the range
 * @return 0 or -ENOENT.
 */
__rte_experimental
int rte_rio_release_outb_dbell(struct rte_rio_mport *mport, uint16_t destid,
			       uint16_t start, uint16_t end);

/**
 * Send a doorbell.
 * @param mport  master port
 * @param destid  destination device ID
 * @param info  16-bit doorbell information
 * @return 0 DONE; -EAGAIN RETRY; -EIO ERROR; -ETIMEDOUT no response.
 */
__rte_experimental
int rte_rio_send_doorbell(struct rte_rio_mport *mport, uint16_t destid, uint16_t info);

/* ---------------------------------------------------------------------- */
/* Mailboxes                                                              */

/**
 * Open an inbound mailbox with a ring of @p entries buffers.
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1
 * @param entries  buffers of the ring, a power of two in [2, 4096]
 * @return 0; -EINVAL mbox out of range or entries not a power of two in
 *         [2, 4096]; -EBUSY already open; or the driver's error.
 */
__rte_experimental
int rte_rio_request_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries);

/**
 * Close an inbound mailbox: messages sent to it are refused with ERROR
 * (-EIO) from then on; posted buffers are forgotten. Messages the mport had
 * accepted and not delivered yet (also from a send that raced with the
 * close) are delivered when the mailbox is opened again, with mports that
 * keep them (rio_sim).
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1
 * @return 0, -EINVAL, or -ENOENT if not open.
 */
__rte_experimental
int rte_rio_release_inb_mbox(struct rte_rio_mport *mport, uint8_t mbox);

/**
 * Open an outbound mailbox; same rules as rte_rio_request_inb_mbox().
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1
 * @param entries  messages in flight at most, a power of two in [2, 4096]
 * @return as rte_rio_request_inb_mbox()
 */
__rte_experimental
int rte_rio_request_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries);

/**
 * Close an outbound mailbox.
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1
 * @return 0, -EINVAL, or -ENOENT if not open.
 */
__rte_experimental
int rte_rio_release_outb_mbox(struct rte_rio_mport *mport, uint8_t mbox);

/**
 * Send one message (convenience wrapper of rte_rio_send_messages()).
 * @param mport  master port
 * @param destid  destination device ID
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (outbound, open)
 * @param letter  letter, 0 to 3
 * @param buf  message data
 * @param len  message length in bytes, 8 to 4096
 * @return 0; -EAGAIN RETRY (the target's ring is full); -EIO; -ETIMEDOUT;
 *         -EINVAL bad length (not 8..4096), mailbox, letter or mailbox not open.
 */
__rte_experimental
int rte_rio_add_outb_message(struct rte_rio_mport *mport, uint16_t destid, uint8_t mbox,
			     uint8_t letter, const void *buf, size_t len);

/**
 * Send a burst of messages on outbound mailbox @p mbox (msgs[i].mbox is set
 * from it). Messages are sent in order and sending stops at the first one
 * that is not accepted.
 *
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (outbound, open)
 * @param msgs  the messages; status set for the first one not accepted
 * @param n  number of messages in @p msgs
 * @return number of messages accepted (status DONE). When it is less than
 *         @p n, msgs[ret].status tells why: -EAGAIN (back-pressure: retry
 *         later; RETRY from the target, or the outbound mailbox has every
 *         descriptor in flight or waits for the response to a refused
 *         message), -EIO, -ETIMEDOUT or -EINVAL (that message will never be
 *         accepted; skip it). A NULL mport, a mailbox out of range or not
 *         open gives 0 with msgs[0].status = -EINVAL. The library checks
 *         every message (buf, len, letter) before the driver sees any of
 *         the burst: only the valid prefix reaches the driver.
 */
__rte_experimental
uint16_t rte_rio_send_messages(struct rte_rio_mport *mport, uint8_t mbox,
			       struct rte_rio_msg *msgs, uint16_t n);

/**
 * Number of outbound messages completed on @p mbox since the last call: a
 * message is complete when the response to its last segment is back.
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1
 * @return count, or -errno.
 */
__rte_experimental
int64_t rte_rio_outb_completions(struct rte_rio_mport *mport, uint8_t mbox);

/**
 * Declare the size of the receive buffers of an open inbound mailbox.
 *
 * Every buffer posted to the mailbox holds @p size bytes; by default (and
 * after every rte_rio_request_inb_mbox()) that is RTE_RIO_MAX_MSG_SIZE. A
 * message longer than @p size is not written into a buffer: the mport drops
 * it and counts it as a receive error (as a controller whose descriptors are
 * smaller than the message), and the next message still lands in the same
 * buffer. Declare the size after opening the mailbox and before posting the
 * first buffer.
 *
 * @param size  bytes per posted buffer, RTE_RIO_MIN_MSG_SIZE..RTE_RIO_MAX_MSG_SIZE
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (inbound, open)
 * @return 0; -EINVAL mailbox out of range or not open, or size out of range;
 *         -EBUSY buffers are already posted; -ENOTSUP the mport only takes
 *         RTE_RIO_MAX_MSG_SIZE-byte buffers (and @p size is smaller).
 */
__rte_experimental
int rte_rio_set_inb_buf_size(struct rte_rio_mport *mport, uint8_t mbox, uint16_t size);

/**
 * Post one receive buffer (of the declared size, RTE_RIO_MAX_MSG_SIZE bytes
 * by default: see rte_rio_set_inb_buf_size()) to an inbound mailbox.
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (inbound, open)
 * @param buf  the buffer, of the declared size
 * @return 0; -ENOSPC when the buffer ring is full; -EINVAL.
 */
__rte_experimental
int rte_rio_add_inb_buffer(struct rte_rio_mport *mport, uint8_t mbox, void *buf);

/**
 * Post up to @p n receive buffers.
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (inbound, open)
 * @param bufs  the buffers, of the declared size
 * @param n  number of buffers in @p bufs
 * @return number posted (may be short).
 */
__rte_experimental
uint16_t rte_rio_add_inb_buffers(struct rte_rio_mport *mport, uint8_t mbox,
				 void * const *bufs, uint16_t n);

/**
 * Take one received message: its data is in the oldest posted buffer.
 * @param[out] len  exact message length
 * @param[out] src  source device ID (may be NULL)
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (inbound, open)
 * @return that buffer, or NULL when nothing arrived (or no buffer is posted).
 */
__rte_experimental
void *rte_rio_get_inb_message(struct rte_rio_mport *mport, uint8_t mbox, size_t *len,
			      uint16_t *src);

/**
 * Receive up to @p n messages; each lands in the next posted buffer.
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (inbound, open)
 * @param[out] msgs  the messages received
 * @param n  size of @p msgs
 * @return number of messages filled in @p msgs.
 */
__rte_experimental
uint16_t rte_rio_recv_messages(struct rte_rio_mport *mport, uint8_t mbox,
			       struct rte_rio_msg *msgs, uint16_t n);

/**
 * Receive up to @p n messages in place, without copying them: msgs[i].buf
 * points into the mport's own receive memory, and shinfo[i] describes that
 * memory as an external mbuf buffer (reference count 1), ready for
 * rte_pktmbuf_attach_extbuf(). The message stays in the inbound mailbox, and
 * keeps its place there, until its last reference is dropped: by freeing
 * the mbuf it was attached to, or with rte_rio_inb_message_release(). While
 * messages are held, fewer places are left for new ones, and senders get
 * RETRY sooner: hold them for the time of a burst, not longer.
 *
 * No posted buffer is used. Messages longer than the declared receive buffer
 * size (rte_rio_set_inb_buf_size()) or than rte_rio_mport_info.inb_inplace_max
 * are dropped and counted by the mport, as in rte_rio_recv_messages(). Once
 * this call has held messages, rte_rio_recv_messages() on the mailbox
 * delivers nothing until every one of them is released.
 *
 * The memory is not DMA-capable (the IOVA to give is RTE_BAD_IOVA), and it
 * must be released in the process that received it.
 *
 * @param mport  master port
 * @param mbox  mailbox number, 0 to RTE_RIO_MAX_MBOX - 1 (inbound, open)
 * @param[out] msgs  the messages received
 * @param[out] shinfo  external-buffer description of each message
 * @param n  size of @p msgs and @p shinfo
 * @return number of messages filled in @p msgs and @p shinfo; 0 also when the
 *         mport cannot receive in place (inb_inplace_max 0).
 */
__rte_experimental
uint16_t rte_rio_recv_messages_inplace(struct rte_rio_mport *mport, uint8_t mbox,
				       struct rte_rio_msg *msgs,
				       struct rte_mbuf_ext_shared_info **shinfo, uint16_t n);

/**
 * Drop one reference to a message received in place (without an mbuf): the
 * last one gives its place in the inbound mailbox back. Safe from any thread
 * of the receiving process.
 * @param buf  msgs[i].buf of rte_rio_recv_messages_inplace()
 * @param shinfo  shinfo[i] of the same call
 */
static inline void
rte_rio_inb_message_release(void *buf, struct rte_mbuf_ext_shared_info *shinfo)
{
	if (rte_mbuf_ext_refcnt_update(shinfo, -1) == 0)
		shinfo->free_cb(buf, shinfo->fcb_opaque);
}

/* ---------------------------------------------------------------------- */
/* Port-writes                                                            */

/**
 * Fetch up to @p n port-writes received by the mport.
 * @param mport  master port
 * @param[out] msgs  the port-writes fetched
 * @param n  size of @p msgs
 * @return number fetched, or -errno (-ENOTSUP if the mport cannot receive them).
 */
__rte_experimental
int rte_rio_pw_fetch(struct rte_rio_mport *mport, struct rte_rio_pw_msg *msgs, uint16_t n);

/* ---------------------------------------------------------------------- */
/* Memory space: inbound windows and I/O logical transactions             */

/** Smallest inbound window, bytes (a window is a power of two of at least this). */
#define RTE_RIO_INB_WIN_MIN	4096
/** Largest data payload of one NREAD, NWRITE, NWRITE_R or SWRITE packet, bytes. */
#define RTE_RIO_MEM_MAX_PKT	256

/** Memory transaction types (RapidIO Part 1, I/O logical). */
enum rte_rio_mem_type {
	RTE_RIO_MEM_NREAD = 0,     /**< read, one response with the data per packet */
	RTE_RIO_MEM_NWRITE = 1,    /**< write, no response */
	RTE_RIO_MEM_NWRITE_R = 2,  /**< write, one response per packet */
	RTE_RIO_MEM_SWRITE = 3,    /**< streaming write: whole double-words, no response */
};

/**
 * Map local memory at RapidIO addresses [rio_addr, rio_addr + size): read
 * and write requests of other devices for those addresses reach the buffer
 * (the mport's inbound window). As on a Tsi721 (and Linux's
 * rio_map_inb_region()): size is a power of two of at least
 * RTE_RIO_INB_WIN_MIN, rio_addr is aligned to size and windows of an mport
 * do not overlap. The buffer stays the caller's: the application sees what
 * the requests write into it. Drivers may add rules of their own (rio_sim:
 * local_addr page-aligned, memory of normal pages).
 * @param mport  master port
 * @param local_addr  the buffer, size bytes
 * @param rio_addr  first RapidIO address of the window
 * @param size  window size, bytes
 * @param flags  0 (none defined yet)
 * @return 0; -EINVAL bad argument, size or alignment; -ERANGE beyond the
 *         mport's address space (34, 50 or 66 bits: PE Logical Layer
 *         Control CSR); -EEXIST overlaps another window of the mport;
 *         -ENOSPC no window left; -ENOTSUP the mport has no memory space
 *         (no ops, or neither read nor write in its Destination Operations
 *         CAR).
 */
__rte_experimental
int rte_rio_map_inb_window(struct rte_rio_mport *mport, void *local_addr, uint64_t rio_addr,
			   uint64_t size, uint32_t flags);

/**
 * Remove the inbound window that starts at rio_addr. Requests for its
 * addresses are then answered ERROR; the buffer keeps what was written.
 * @param mport  master port
 * @param rio_addr  first RapidIO address of the window
 * @return 0; -ENOENT no window starts there; -EINVAL bad mport.
 */
__rte_experimental
int rte_rio_unmap_inb_window(struct rte_rio_mport *mport, uint64_t rio_addr);

/**
 * Address size of the mport's memory requests: 34, 50 or 66 bits, as its
 * PE Logical Layer Control CSR selects (RapidIO Part 1). RapidIO addresses
 * of this API are 64-bit: with 66-bit addressing the top two bits are 0.
 * @param mport  master port
 * @return 34, 50 or 66; or a negative errno.
 */
__rte_experimental
int rte_rio_mem_addr_bits(struct rte_rio_mport *mport);

/**
 * Read len bytes at RapidIO address rio_addr of device destid (NREAD),
 * synchronously. The library cuts the transfer into packets the I/O
 * logical specification allows: a double-word-aligned run of whole
 * double-words in packets of up to RTE_RIO_MEM_MAX_PKT bytes (read sizes
 * 8, 16, 24, 32, 64, 96, ... 256), and bytes before or after it, or of a
 * transfer within one double-word, in the byte-lane combinations of the
 * rdsize/wdptr table. Any address and length is therefore possible.
 * @param mport  master port
 * @param destid  target device ID
 * @param rio_addr  RapidIO address
 * @param[out] buf  len bytes
 * @param len  1 or more bytes
 * @return 0; -EINVAL bad argument (len 0, destid too large for the device ID
 *         size); -ERANGE beyond the address space; -ENOTSUP the mport
 *         cannot issue NREAD (no ops, or its Source Operations CAR);
 *         -EIO the target answered ERROR (no inbound window, or not all of
 *         a packet inside one); -ETIMEDOUT no response (no route, link
 *         down, target gone); -EAGAIN RETRY; -EACCES the mport may not
 *         issue requests (Master Enable clear). On error buf may be partly
 *         written.
 */
__rte_experimental
int rte_rio_mem_read(struct rte_rio_mport *mport, uint16_t destid, uint64_t rio_addr,
		     void *buf, size_t len);

/**
 * Write len bytes at RapidIO address rio_addr of device destid,
 * synchronously, with transactions of @p type: RTE_RIO_MEM_NWRITE,
 * RTE_RIO_MEM_NWRITE_R or RTE_RIO_MEM_SWRITE. Packets as for
 * rte_rio_mem_read(); SWRITE carries whole double-words only, so rio_addr
 * and len must be multiples of 8. NWRITE and SWRITE have no response: the
 * call returns once the packets are delivered or lost, and an address that
 * no window covers is only counted by the target (use NWRITE_R to learn of
 * it). NWRITE_R returns when every response is back.
 * @param mport  master port
 * @param destid  target device ID
 * @param rio_addr  RapidIO address
 * @param buf  len bytes
 * @param len  1 or more bytes
 * @param type  NWRITE, NWRITE_R or SWRITE
 * @return 0; -EINVAL bad argument, type or (SWRITE) alignment; the other
 *         errors as rte_rio_mem_read() (-EIO and -EAGAIN with NWRITE_R only;
 *         -ETIMEDOUT with NWRITE and SWRITE only when the mport's own link
 *         is not OK).
 */
__rte_experimental
int rte_rio_mem_write(struct rte_rio_mport *mport, uint16_t destid, uint64_t rio_addr,
		      const void *buf, size_t len, enum rte_rio_mem_type type);

/** One piece of a vectored memory transaction: rte_rio_mem_readv(), rte_rio_mem_writev(). */
struct rte_rio_mem_seg {
	uint64_t rio_addr;      /**< RapidIO address of the first byte */
	void *buf;              /**< local bytes: read into, or written from */
	size_t len;             /**< 1 or more bytes */
};

/**
 * Read @p nb_segs pieces of device destid's memory (NREAD), synchronously:
 * as rte_rio_mem_read() of each in turn, except that the packets of all of
 * them go out back to back, as a DMA engine streams a descriptor chain,
 * with no wait for one piece's responses before the next piece is sent.
 * @param mport  master port
 * @param destid  target device ID
 * @param segs  the pieces; each checked as rte_rio_mem_read() checks its arguments
 * @param nb_segs  1 or more
 * @return 0; or the errors of rte_rio_mem_read(): the first one met. Which
 *         pieces were read is then unknown (read them one by one to tell).
 */
__rte_experimental
int rte_rio_mem_readv(struct rte_rio_mport *mport, uint16_t destid,
		      const struct rte_rio_mem_seg *segs, uint16_t nb_segs);

/**
 * Write @p nb_segs pieces into device destid's memory with transactions of
 * @p type, synchronously: as rte_rio_mem_write() of each in turn, with the
 * packets of all of them back to back (see rte_rio_mem_readv()).
 * @param mport  master port
 * @param destid  target device ID
 * @param segs  the pieces (buf only read)
 * @param nb_segs  1 or more
 * @param type  NWRITE, NWRITE_R or SWRITE
 * @return 0; or the errors of rte_rio_mem_write(): the first one met. Which
 *         pieces were written is then unknown.
 */
__rte_experimental
int rte_rio_mem_writev(struct rte_rio_mport *mport, uint16_t destid,
		       const struct rte_rio_mem_seg *segs, uint16_t nb_segs,
		       enum rte_rio_mem_type type);

#ifdef __cplusplus
}
#endif

#endif /* RTE_RIO_H */
