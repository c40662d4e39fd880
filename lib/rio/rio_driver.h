/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_DRIVER_H
#define RIO_DRIVER_H

/**
 * @file
 * RapidIO mport driver interface.
 *
 * An mport driver (the rio_sim rawdev, or a future hardware backend) fills a
 * const struct rte_rio_mport_ops and registers an mport. The library does
 * argument checking (alignment, ranges, open mailboxes), serialization of
 * configuration accesses and resource bookkeeping before calling the ops, so
 * the ops only talk to the hardware.
 *
 * Op return values follow rte_rio.h: 0 or a count, or a negative errno
 * (-EAGAIN RETRY, -EIO ERROR, -ETIMEDOUT no response).
 */

#include <sys/queue.h>

#include <rte_compat.h>
#include <rte_spinlock.h>

#include "rte_rio.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One packet of a memory transaction (rte_rio_mport_ops.mem_xfer). */
struct rte_rio_mem_pkt {
	uint64_t rio_addr;      /**< RapidIO address of the first byte */
	void *buf;              /**< local bytes: read into (NREAD) or written from */
	uint16_t len;           /**< 1..RTE_RIO_MEM_MAX_PKT */
};

/** Operations an mport driver provides. All are mandatory unless noted. */
struct rte_rio_mport_ops {
	/** Local config read; len 1, 2 or 4, offset aligned to len, in space. */
	int (*lcread)(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t *data);
	/** Local config write. */
	int (*lcwrite)(struct rte_rio_mport *mport, uint32_t offset, int len, uint32_t data);
	/** Maintenance read of (destid, hopcount). */
	int (*cread)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		     uint32_t offset, int len, uint32_t *data);
	/** Maintenance write of (destid, hopcount). */
	int (*cwrite)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
		      uint32_t offset, int len, uint32_t data);
	/** Send a doorbell. */
	int (*dsend)(struct rte_rio_mport *mport, uint16_t destid, uint16_t info);
	/** Fetch up to n inbound doorbells; returns the count. */
	int (*dbell_fetch)(struct rte_rio_mport *mport, struct rte_rio_dbell *dbells, uint16_t n);
	/** Open/close mailboxes; entries already validated (power of two). */
	int (*open_outb_mbox)(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries);
	void (*close_outb_mbox)(struct rte_rio_mport *mport, uint8_t mbox);
	int (*open_inb_mbox)(struct rte_rio_mport *mport, uint8_t mbox, uint32_t entries);
	void (*close_inb_mbox)(struct rte_rio_mport *mport, uint8_t mbox);
	/**
	 * Send messages in order (lengths, letters and mailbox already validated);
	 * stop at the first not accepted and set its status. Returns accepted.
	 */
	uint16_t (*add_outb_messages)(struct rte_rio_mport *mport, uint8_t mbox,
				      struct rte_rio_msg *msgs, uint16_t n);
	/** Outbound messages completed since the last call. */
	int64_t (*outb_completion)(struct rte_rio_mport *mport, uint8_t mbox);
	/** Post receive buffers; returns how many were taken. */
	uint16_t (*add_inb_buffers)(struct rte_rio_mport *mport, uint8_t mbox,
				    void * const *bufs, uint16_t n);
	/** Fill up to n received messages into posted buffers; returns count. */
	uint16_t (*get_inb_messages)(struct rte_rio_mport *mport, uint8_t mbox,
				     struct rte_rio_msg *msgs, uint16_t n);
	/**
	 * Receive up to n messages in place (optional, with conf.inb_inplace_max
	 * non-zero): see rte_rio_recv_messages_inplace(). mbox already checked.
	 */
	uint16_t (*get_inb_messages_inplace)(struct rte_rio_mport *mport, uint8_t mbox,
					     struct rte_rio_msg *msgs,
					     struct rte_mbuf_ext_shared_info **shinfo, uint16_t n);
	/** Fetch port-writes (optional: NULL means not supported). */
	int (*pw_fetch)(struct rte_rio_mport *mport, struct rte_rio_pw_msg *msgs, uint16_t n);
	/**
	 * Multi-word maintenance read (optional): one transaction of len bytes,
	 * len 8, 16, 32 or 64 and offset aligned to 8; words[] in register order.
	 * NULL: the library issues 4-byte reads instead.
	 */
	int (*cread_block)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			   uint32_t offset, int len, uint32_t *words);
	/** Multi-word maintenance write (optional), same rules as cread_block. */
	int (*cwrite_block)(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			    uint32_t offset, int len, const uint32_t *words);
	/**
	 * Declare the size of the receive buffers of an open inbound mailbox
	 * (optional: NULL means every buffer holds RTE_RIO_MAX_MSG_SIZE bytes).
	 * size already validated. Longer messages must be dropped and counted,
	 * never written past a buffer. -EBUSY when buffers are posted.
	 */
	int (*set_inb_buf_size)(struct rte_rio_mport *mport, uint8_t mbox, uint16_t size);
	/**
	 * Map an inbound window (optional, with unmap_inb_window and mem_xfer:
	 * NULL means no memory space): requests of other devices for RapidIO
	 * addresses [rio_addr, rio_addr + size) reach local memory at local.
	 * Already checked: size a power of two >= RTE_RIO_INB_WIN_MIN, rio_addr
	 * aligned to size and inside the address space, no overlap with the
	 * mport's other windows, flags 0. -ENOSPC: no window left; -EINVAL:
	 * memory the mport cannot map (the driver logs why).
	 */
	int (*map_inb_window)(struct rte_rio_mport *mport, void *local, uint64_t rio_addr,
			      uint64_t size, uint32_t flags);
	/** Remove the inbound window at rio_addr (mapped before through map_inb_window). */
	int (*unmap_inb_window)(struct rte_rio_mport *mport, uint64_t rio_addr);
	/**
	 * Memory transaction of n packets (optional, see map_inb_window): each
	 * packet is already legal for the type (byte lanes within a
	 * double-word, or whole double-words up to RTE_RIO_MEM_MAX_PKT bytes,
	 * double-word aligned) and inside the address space. The packets may
	 * be pipelined; the call returns when the transaction is over (NREAD
	 * and NWRITE_R: every response back): 0, or the first error (-EIO an
	 * ERROR response, -ETIMEDOUT no response, -EAGAIN RETRY).
	 */
	int (*mem_xfer)(struct rte_rio_mport *mport, enum rte_rio_mem_type type, uint16_t destid,
			const struct rte_rio_mem_pkt *pkts, uint16_t n);
};

/** What a driver tells the library when it registers an mport. */
struct rte_rio_mport_conf {
	const char *name;                   /**< unique name, e.g. the rawdev name */
	const struct rte_rio_mport_ops *ops;
	void *priv;                         /**< driver data, see rte_rio_mport_priv() */
	uint8_t devid_size;                 /**< 8 or 16 */
	int32_t host_destid;                /**< >= 0 host with this ID; RTE_RIO_NO_HOST agent */
	uint8_t port_index;                 /**< own port number in the LP-Serial block */
	/** longest message received in place (get_inb_messages_inplace); 0: none */
	uint16_t inb_inplace_max;
};

struct rio_mport_state;

/** An mport. Drivers and the library read it; applications use the API. */
struct rte_rio_mport {
	TAILQ_ENTRY(rte_rio_mport) next;
	char name[RTE_RIO_NAME_MAX_LEN];
	uint16_t id;
	const struct rte_rio_mport_ops *ops;
	void *priv;
	uint8_t devid_size;
	int32_t host_destid;
	uint8_t port_index;
	uint16_t inb_inplace_max;
	uint32_t phys_efptr;    /**< found by the library at registration */
	uint8_t phys_rmap;


	struct rio_mport_state *lib;    /**< the library's own state: not for drivers */
};

/**
 * Register an mport. The library reads the local extended-feature list to
 * find the LP-Serial block.
 * @param conf  the mport's name, ops, driver data and properties
 * @return the mport, or NULL with rte_errno set: EINVAL (bad conf or missing
 *         op), EEXIST (name taken), ENOSPC (RTE_RIO_MAX_MPORTS reached),
 *         ENODEV (no LP-Serial block in local config space), ENOMEM.
 */
__rte_internal
struct rte_rio_mport *rte_rio_mport_register(const struct rte_rio_mport_conf *conf);

/**
 * Unregister an mport: closes its mailboxes, releases its doorbell ranges
 * @param mport  master port
 * and frees it. @return 0 or -EINVAL.
 */
__rte_internal
int rte_rio_mport_unregister(struct rte_rio_mport *mport);

/**
 * Take a registered mport out of the registry: rte_rio_mport_get(),
 * rte_rio_mport_find(), rte_rio_mport_count() and everything built on them
 * (the rio bus, telemetry, applications) no longer see it, while the mport
 * keeps working for whoever holds its pointer. For a driver that uses
 * another mport as its back end (the tsi721 model drives a rio_sim mport).
 * rte_rio_mport_unregister() still frees it. Hide an mport before it is
 * scanned: its devices are not released here.
 * @param mport  master port
 * @return 0; -EINVAL not registered or already hidden.
 */
__rte_internal
int rte_rio_mport_hide(struct rte_rio_mport *mport);

/**
 * Publish only the mport's own endpoint (read from local config space) as
 * its device view, instead of enumerating or discovering the fabric: what a
 * DPDK secondary process does, whose primary owns the fabric view.
 * @param mport  master port
 * @return 0; -EALREADY scanned already; -EINVAL; -ENOMEM; -EIO.
 */
__rte_internal
int rte_rio_mport_scan_local(struct rte_rio_mport *mport);

/**
 * Multi-word maintenance read for enumeration and switch drivers: one
 * transaction of @p len bytes (8, 16, 32 or 64; offset 8-byte aligned)
 * through the driver's cread_block op, or len / 4 four-byte reads when the
 * driver has none. Serialized with the other config accesses of the mport;
 * every transaction issued counts in maint_count. words[] is in register
 * order and is not written on error.
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset, 8-byte aligned
 * @param len  bytes: 8, 16, 32 or 64
 * @param[out] words  len / 4 registers, in register order
 * @return 0; -EFAULT offset not 8-byte aligned; -ERANGE beyond the 16 MiB
 *         space; -EINVAL bad length or argument; or the driver's error.
 */
__rte_internal
int rte_rio_remote_read_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			      uint32_t offset, int len, uint32_t *words);

/**
 * Multi-word maintenance write; same rules as rte_rio_remote_read_block().
 * @param mport  master port
 * @param destid  destination device ID
 * @param hopcount  as for rte_rio_remote_read_config_32()
 * @param offset  byte offset, 8-byte aligned
 * @param len  bytes: 8, 16, 32 or 64
 * @param words  len / 4 registers, in register order
 * @return as rte_rio_remote_read_block()
 */
__rte_internal
int rte_rio_remote_write_block(struct rte_rio_mport *mport, uint16_t destid, uint8_t hopcount,
			       uint32_t offset, int len, const uint32_t *words);

/**
 * @param mport  master port
 * @return the driver data given at registration.
 */
static inline void *
rte_rio_mport_priv(const struct rte_rio_mport *mport)
{
	return mport->priv;
}

#ifdef __cplusplus
}
#endif

#endif /* RIO_DRIVER_H */
