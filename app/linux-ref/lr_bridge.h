/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * The only interface between the two worlds of dpdk-rio-linux-ref: the
 * "kernel" side (Linux's sources over the shim, and lr_mport.c) and the
 * DPDK side (lr_backend.c over librte_rio, and main.c). Standard C types
 * only, so that it can be included on both sides.
 */

#ifndef LR_BRIDGE_H
#define LR_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- DPDK side, called by the shim mport: one rio_sim mport through lib/rio */

struct lrb_info {
	char name[64];
	unsigned int devid_size;	/* 8 or 16 */
	uint32_t phys_efptr;
	uint8_t phys_rmap;
	uint8_t port_index;
};

struct lr_backend;

int lrb_info_get(struct lr_backend *be, struct lrb_info *info);
int lrb_lcread(struct lr_backend *be, uint32_t offset, int len, uint32_t *val);
int lrb_lcwrite(struct lr_backend *be, uint32_t offset, int len, uint32_t val);
int lrb_cread(struct lr_backend *be, uint16_t destid, uint8_t hopcount, uint32_t offset,
	      int len, uint32_t *val);
int lrb_cwrite(struct lr_backend *be, uint16_t destid, uint8_t hopcount, uint32_t offset,
	       int len, uint32_t val);
int lrb_dsend(struct lr_backend *be, uint16_t destid, uint16_t info);
/* Deliver up to @max pending doorbells to @cb. @return how many, or -errno. */
int lrb_dbell_poll(struct lr_backend *be, unsigned int max,
		   void (*cb)(void *arg, uint16_t src, uint16_t dst, uint16_t info), void *arg);
/* Fetch one port-write (16 words). @return 1, 0 when none, or -errno. */
int lrb_pw_fetch(struct lr_backend *be, uint32_t raw[16]);
int lrb_open_inb_mbox(struct lr_backend *be, int mbox, int entries);
void lrb_close_inb_mbox(struct lr_backend *be, int mbox);
int lrb_add_inb_buffer(struct lr_backend *be, int mbox, void *buf);
void *lrb_get_inb_message(struct lr_backend *be, int mbox, size_t *len, uint16_t *src);
int lrb_open_outb_mbox(struct lr_backend *be, int mbox, int entries);
void lrb_close_outb_mbox(struct lr_backend *be, int mbox);
/* @return 0 DONE, -EAGAIN RETRY, -EIO ERROR, -ETIMEDOUT, -EINVAL. */
int lrb_send_message(struct lr_backend *be, uint16_t destid, int mbox, const void *buf,
		     size_t len);
uint64_t lrb_maint_count(struct lr_backend *be);
uint64_t lrb_monotonic_ms(void);
/*
 * The memory space (rte_rio_map_inb_window() and the NREAD/NWRITE calls):
 * @va page-aligned DPDK memory of normal pages (linux-ref runs --no-huge).
 * @type 0 NWRITE, 1 NWRITE_R (enum rte_rio_mem_type).
 */
int lrb_map_inb(struct lr_backend *be, void *va, uint64_t rio_addr, uint64_t size);
int lrb_unmap_inb(struct lr_backend *be, uint64_t rio_addr);
int lrb_mem_read(struct lr_backend *be, uint16_t destid, uint64_t rio_addr, void *buf,
		 size_t len);
int lrb_mem_write(struct lr_backend *be, uint16_t destid, uint64_t rio_addr, const void *buf,
		  size_t len, int type);

/* ---- DPDK side, called by the shim's DMA API: DPDK memory, by its IOVA */

/* Zeroed, aligned to @align (a power of two); @return NULL when out of memory. */
void *lrb_dma_alloc(size_t size, size_t align, uint64_t *iova);
void lrb_dma_free(void *va);
/* The IOVA of DPDK memory at @va. @return 0, or -EINVAL when @va is not DPDK memory. */
int lrb_dma_iova(const void *va, uint64_t *iova);
/* The virtual address of DPDK memory at @iova, or NULL. */
void *lrb_dma_va(uint64_t iova);

/*
 * ---- DPDK side: the BARs and INTx line of a Tsi721 model (struct
 * tsi721_model of rte_pmd_tsi721_model.h), for Linux's tsi721 driver.
 */
uint32_t lrb_t7_read32(void *model, uint32_t off);
void lrb_t7_write32(void *model, uint32_t off, uint32_t val);
void lrb_t7_db_write16(void *model, uint32_t off, uint16_t bus_val);
bool lrb_t7_intx(void *model);
/* What the model refused of the driver (rejected descriptors, overruns, ...). */
uint64_t lrb_t7_errors(void *model);
/* Source ID of the next message in inbound mailbox @mbox, or -1 when none. */
int lrb_t7_next_srcid(void *model, int mbox);
/*
 * Whether the model this program is built with decodes the inbound window
 * registers (IBWIN) that Linux's tsi721_rio_map_inb_mem() writes; without
 * them the registers only hold what is written and no window opens.
 */
bool lrb_t7_has_inb_windows(void);

/* ---- kernel side, called by main.c */

struct lr_node_opts {
	/*
	 * NULL: the master port is the shim's, on the backend's rio_sim mport;
	 * else a Tsi721 model, plugged in as PCI function 0000:01:00.0 for
	 * Linux's own tsi721 driver (the backend is then unused).
	 */
	void *tsi721_model;
	int hdid;		/* >= 0: enumerate with it; < 0: discover */
	int loglevel;		/* printk level */
	unsigned int disc_timeout_s;
};

/* Boot the kernel side on @be: initcalls, the shim mport, enumeration or discovery. */
int lr_node_boot(struct lr_backend *be, const struct lr_node_opts *opts);
/* Result of the scan: 0, or Linux's error (-EBUSY when the scan failed). */
int lr_node_scan_result(void);
/* One pass of the "interrupt handler": doorbells, messages, port-writes, Tx, timers. */
void lr_node_poll(void);
/* Open the rionet interface (ip link set up). @return 0 or -errno. */
int lr_node_rionet_open(void);
int lr_node_rionet_close(void);
/* Queue one frame on rionet. @return 0, -EBUSY when its queue is stopped. */
int lr_node_rionet_xmit(const void *frame, unsigned int len);
/* rionet's MAC address (6 bytes). @return 0 or -ENODEV. */
int lr_node_rionet_mac(uint8_t mac[6]);
/* Device IDs of the peers Linux rionet holds active; @return their number. */
unsigned int lr_node_rionet_active(uint16_t *destids, unsigned int max);
/*
 * Called for every frame rionet passes up (a 4096-byte buffer, as Linux
 * rionet does), with the source device ID of the message that carried it.
 */
void lr_node_set_rx(void (*cb)(const uint8_t *frame, unsigned int len, uint16_t srcid,
			       void *arg), void *arg);
/* Shut down as a reboot would (rionet sends LEAVE), then unregister the mport. */
void lr_node_shutdown(void);
/* Print Linux's view as JSON members (no braces): host, devices, routes, counters. */
void lr_node_json(FILE *f);
/* Device IDs of the endpoints Linux found (excluding its own). @return their number. */
unsigned int lr_node_endpoints(uint16_t *destids, unsigned int max);
/*
 * Allocate @size bytes of coherent DMA memory and map them at RapidIO
 * address @rio_addr with Linux's rio_map_inb_region(). @return 0 and the
 * buffer in *@va, or Linux's -errno.
 */
int lr_node_inb_window(uint64_t rio_addr, uint64_t size, uint8_t **va);
/* Unmap it (rio_unmap_inb_region()) and free its memory. */
void lr_node_inb_window_free(void);
/*
 * One transfer through Linux's RapidIO DMA API (rio_request_mport_dma(),
 * rio_dma_prep_xfer(), dmaengine_submit(), dma_async_issue_pending()) of
 * @len bytes between @buf and @rio_addr of @destid: a write (@write, with
 * @wr_type an enum rio_write_type) or a read. @return 0; -ENODEV the master
 * port has no RapidIO DMA channel; -EIO the transfer ended DMA_ERROR; or
 * another -errno of the API.
 */
int lr_node_dma_xfer(uint16_t destid, uint64_t rio_addr, void *buf, size_t len, bool write,
		     int wr_type);
/* The counters of the shim master port's DMA device as JSON members, when it runs. */
void lr_node_dma_json(FILE *f);

#endif /* LR_BRIDGE_H */
