/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef TSI721_REGS_H
#define TSI721_REGS_H

/*
 * IDT (Renesas) Tsi721 PCIe-to-SRIO bridge: the registers and descriptor
 * formats this driver and the model use. Offsets and bit meanings are the
 * part's (Tsi721 user manual and register reference); Linux's
 * drivers/rapidio/devices/tsi721.h states the same facts. Only what is
 * used is listed.
 *
 * BAR0 (512 KiB, 32-bit registers, little-endian on PCIe):
 *   0x00000-0x0ffff  the part's own RapidIO configuration space (CARs, CSRs,
 *                    LP-Serial block at 0x100): what a remote host reaches
 *                    by maintenance, and what lcread/lcwrite access
 *   0x10000-         implementation registers: SRIO MAC event management,
 *                    port-write capture, SR2PC (inbound doorbells), block
 *                    DMA (maintenance), messaging engines
 * BAR1 (16 MiB): outbound doorbell window; a 16-bit big-endian write at
 *   (tt << 18) | (destid << 2) sends a doorbell whose info is the data.
 */

#include <stdint.h>

#include <rte_common.h>

#define TSI721_PCI_VENDOR_ID		0x111d	/* IDT, PCI SIG */
#define TSI721_PCI_DEVICE_ID		0x80ab
#define TSI721_RIO_VENDOR_ID		0x0038	/* IDT, RapidIO TA */
#define TSI721_RIO_DEVICE_ID		0x80ab

#define TSI721_BAR0_SIZE		(512 * 1024)
#define TSI721_BAR1_SIZE		(16 * 1024 * 1024)
/* End of the RapidIO configuration registers in BAR0. */
#define TSI721_CFG_SPACE_END		0x10000

/* Offsets of BAR1 (outbound doorbell window). */
#define TSI721_ODB_TT_SHIFT		18
#define TSI721_ODB_DESTID_SHIFT		2
#define TSI721_TT_8			0
#define TSI721_TT_16			1

/* ---------------------------------------------------------------------- */
/* SRIO MAC: event management and port-write capture                     */

#define TSI721_RIO_EM_INT_STAT		0x10910
#define TSI721_RIO_EM_INT_ENABLE	0x10914
#define TSI721_RIO_EM_INT_PW_RX		0x00010000
#define TSI721_RIO_EM_DEV_INT_EN	0x10930
#define TSI721_RIO_EM_DEV_INT_EN_INT	0x00000001	/* SRIO MAC events reach DEV_INT */

#define TSI721_RIO_PW_CTL		0x10a04
#define TSI721_RIO_PW_CTL_PWC_REL	0x01000000	/* reliable capture */
#define TSI721_RIO_PW_RX_STAT		0x10a10
#define TSI721_RIO_PW_RX_STAT_WR_SIZE	0x0000f000
#define TSI721_RIO_PW_RX_STAT_WDPTR	0x00000100
#define TSI721_RIO_PW_RX_STAT_PW_SHORT	0x00000008
#define TSI721_RIO_PW_RX_STAT_PW_TRUNC	0x00000004
#define TSI721_RIO_PW_RX_STAT_PW_DISC	0x00000002	/* W1C */
#define TSI721_RIO_PW_RX_STAT_PW_VAL	0x00000001	/* W1C */
#define TSI721_RIO_PW_RX_CAPT(x)	(0x10a20 + (x) * 4)
/* The part captures the first 16 bytes of a port-write. */
#define TSI721_PW_CAPT_SIZE		16

/* ---------------------------------------------------------------------- */
/* SR2PC: inbound doorbell queues (x = 0..7) and channel interrupts       */

#define TSI721_IDQ_CTL(x)		(0x20000 + (x) * 0x1000)
#define TSI721_IDQ_CTL_SUSPEND		0x00000002
#define TSI721_IDQ_CTL_INIT		0x00000001
#define TSI721_IDQ_STS(x)		(0x20004 + (x) * 0x1000)
#define TSI721_IDQ_STS_RUN		0x00200000
#define TSI721_IDQ_MASK(x)		(0x20008 + (x) * 0x1000)
#define TSI721_IDQ_MASK_MASK		0xffff0000
#define TSI721_IDQ_MASK_PATT		0x0000ffff
#define TSI721_IDQ_RP(x)		(0x2000c + (x) * 0x1000)
#define TSI721_IDQ_WP(x)		(0x20010 + (x) * 0x1000)
#define TSI721_IDQ_PTR_MASK		0x0007ffff
#define TSI721_IDQ_BASEL(x)		(0x20014 + (x) * 0x1000)
#define TSI721_IDQ_BASEL_ADDR		0xffffffc0	/* 64-byte aligned */
#define TSI721_IDQ_BASEU(x)		(0x20018 + (x) * 0x1000)
#define TSI721_IDQ_SIZE(x)		(0x2001c + (x) * 0x1000)
/* Queue of 2^(v + 4) entries: v = log2(entries) - 4; 512..512K entries. */
#define TSI721_IDQ_SIZE_MIN		512
#define TSI721_IDQ_SIZE_MAX		(512 * 1024)
#define TSI721_IDQ_ENTRY_SIZE		64

#define TSI721_SR_CHINT(x)		(0x20040 + (x) * 0x1000)
#define TSI721_SR_CHINTE(x)		(0x20044 + (x) * 0x1000)
#define TSI721_SR_CHINT_ODBOK		0x00000020
#define TSI721_SR_CHINT_IDBQRCV		0x00000010
#define TSI721_SR_CHINT_SUSP		0x00000008
#define TSI721_SR_CHINT_ODBTO		0x00000004
#define TSI721_SR_CHINT_ODBRTRY		0x00000002
#define TSI721_SR_CHINT_ODBERR		0x00000001
#define TSI721_SR_CHINT_ALL		0x0000003f
#define TSI721_SR_CHINT_ODB_ALL		(TSI721_SR_CHINT_ODBOK | TSI721_SR_CHINT_ODBTO | \
					 TSI721_SR_CHINT_ODBRTRY | TSI721_SR_CHINT_ODBERR)

/* Inbound doorbell queue entry: info (2 bytes), source ID, target ID (BE). */
struct tsi721_idb_entry {
	uint8_t info[2];
	uint8_t srcid[2];
	uint8_t tgtid[2];
	uint8_t rsvd[TSI721_IDQ_ENTRY_SIZE - 6];
};

/*
 * Interrupt summary: a channel whose status bits meet its enables shows in
 * DEV_CHAN_INT; DEV_CHAN_INT under DEV_CHAN_INTE and the SRIO MAC's events
 * show in DEV_INT by block; DEV_INT under DEV_INTE drives INTx (or MSI).
 */
#define TSI721_DEV_INTE			0x29840
#define TSI721_DEV_INT			0x29844
#define TSI721_DEV_INT_BDMA_CH		0x00002000
#define TSI721_DEV_INT_SMSG_CH		0x00000800
#define TSI721_DEV_INT_SR2PC_CH		0x00000200
#define TSI721_DEV_INT_SRIO		0x00000020
#define TSI721_DEV_CHAN_INTE		0x2984c
#define TSI721_DEV_CHAN_INT		0x29850
#define TSI721_INT_SR2PC_CHAN(x)	(1u << (24 + (x)))
#define TSI721_INT_SR2PC_CHAN_M		0xff000000
#define TSI721_INT_IMSG_CHAN(x)		(1u << (16 + (x)))
#define TSI721_INT_IMSG_CHAN_M		0x00ff0000
#define TSI721_INT_OMSG_CHAN(x)		(1u << (8 + (x)))
#define TSI721_INT_OMSG_CHAN_M		0x0000ff00
#define TSI721_INT_BDMA_CHAN(x)		(1u << (x))
#define TSI721_INT_BDMA_CHAN_M		0x000000ff
#define TSI721_SRIO_CHANNELS		8

/*
 * PC2SR (outbound window) zone lookup table: a write of ZONE_SEL with GO
 * reads (RD_WRB) or writes the three LUT_DATA words of one zone of one
 * window; GO clears when the access is done.
 */
#define TSI721_ZONE_SEL			0x41300
#define TSI721_ZONE_SEL_RD_WRB		0x00020000
#define TSI721_ZONE_SEL_GO		0x00010000
#define TSI721_ZONE_SEL_WIN		0x00000038
#define TSI721_ZONE_SEL_WIN_SHIFT	3
#define TSI721_ZONE_SEL_ZONE		0x00000007
#define TSI721_LUT_DATA(x)		(0x41304 + (x) * 4)	/* x = 0..2 */
#define TSI721_PC2SR_WINDOWS		8
#define TSI721_PC2SR_ZONES		8

/*
 * Inbound (SR2PC) windows x = 0..7: RapidIO addresses [base, base + size)
 * reach host memory at the translated address. LB is written last: WEN
 * enables the window with what the other registers hold. The size field is
 * log2(size) - 12; size, base and translated address follow Linux's
 * tsi721_rio_map_inb_mem() (4 KiB to 16 GiB, a power of two; base and
 * translation aligned to the size).
 */
#define TSI721_IBWIN_NUM		8
#define TSI721_IBWIN_LB(x)		(0x29000 + (x) * 0x20)
#define TSI721_IBWIN_LB_BA		0xfffff000
#define TSI721_IBWIN_LB_WEN		0x00000001
#define TSI721_IBWIN_UB(x)		(0x29004 + (x) * 0x20)
#define TSI721_IBWIN_SZ(x)		(0x29008 + (x) * 0x20)
#define TSI721_IBWIN_SZ_SIZE		0x00001f00
#define TSI721_IBWIN_SZ_SHIFT		8
#define TSI721_IBWIN_TLA(x)		(0x2900c + (x) * 0x20)
#define TSI721_IBWIN_TLA_ADD		0xfffff000
#define TSI721_IBWIN_TUA(x)		(0x29010 + (x) * 0x20)
#define TSI721_IBWIN_MIN_SIZE		0x1000ull
#define TSI721_IBWIN_MAX_SIZE		0x400000000ull	/* 16 GiB */
#define TSI721_IBWIN_SZ_VAL(size)	((uint32_t)(rte_log2_u64(size) - 12) << \
					 TSI721_IBWIN_SZ_SHIFT)

#define TSI721_DEVCTL			0x48004
#define TSI721_DEVCTL_SRBOOT_CMPL	0x00000004

/* ---------------------------------------------------------------------- */
/* Block DMA channels (x = 0..7): Linux uses channel 7 for maintenance     */

#define TSI721_DMAC_BASE(x)		(0x51000 + (x) * 0x1000)
#define TSI721_DMAC_DWRCNT		0x000
#define TSI721_DMAC_DRDCNT		0x004
#define TSI721_DMAC_CTL			0x008
#define TSI721_DMAC_CTL_SUSP		0x00000002
#define TSI721_DMAC_CTL_INIT		0x00000001
#define TSI721_DMAC_INT			0x00c
#define TSI721_DMAC_INT_ALL		0x0000001f
#define TSI721_DMAC_INT_ERR		0x00000002
#define TSI721_DMAC_INT_DONE		0x00000008
#define TSI721_DMAC_INT_STFULL		0x00000010
#define TSI721_DMAC_STS			0x014
#define TSI721_DMAC_INTE		0x018
#define TSI721_DMAC_STS_ABORT		0x00400000
#define TSI721_DMAC_STS_RUN		0x00200000
#define TSI721_DMAC_STS_CS		0x001f0000
#define TSI721_DMAC_STS_CS_SHIFT	16
#define TSI721_DMAC_DPTRL		0x024
#define TSI721_DMAC_DPTRL_MASK		0xffffffe0	/* 32-byte aligned */
#define TSI721_DMAC_DPTRH		0x028
#define TSI721_DMAC_DSBL		0x02c
#define TSI721_DMAC_DSBL_MASK		0xffffffc0	/* 64-byte aligned */
#define TSI721_DMAC_DSBH		0x030
#define TSI721_DMAC_DSSZ		0x034
#define TSI721_DMAC_DSRP		0x038
#define TSI721_DMAC_DSWP		0x03c
#define TSI721_DMAC_PTR_MASK		0x0007ffff

#define TSI721_DMACH_MAINT		7
/* Data transfers: the first of the channels Linux 6.1 offers to its DMA engine (0..6). */
#define TSI721_DMACH_DATA		0

/* Descriptor types of the block DMA and messaging engines. */
#define TSI721_DTYPE_DATA		1u	/* data transfer */
#define TSI721_DTYPE_IMM		2u	/* immediate data (maintenance) */
#define TSI721_DTYPE_BDMA_LINK		3u	/* block pointer */
#define TSI721_DTYPE_OMSG		4u	/* outbound message */
#define TSI721_DTYPE_OMSG_LINK		5u	/* outbound messaging block pointer */
#define TSI721_DTYPE_IMSG		6u	/* inbound message */
#define TSI721_DTYPE_SHIFT		29

/*
 * Request types of block DMA descriptors. Data (DTYPE 1, enum dma_rtype of
 * Linux's tsi721.h): NREAD into host memory, or writes out of it as NWRITE
 * all along, NWRITE_R all along, or NWRITE with the last packet NWRITE_R.
 */
#define TSI721_RTYPE_NREAD		0u
#define TSI721_RTYPE_LAST_NWRITE_R	1u
#define TSI721_RTYPE_ALL_NWRITE		2u
#define TSI721_RTYPE_ALL_NWRITE_R	3u
#define TSI721_RTYPE_MAINT_RD		4u
#define TSI721_RTYPE_MAINT_WR		5u

/* Block DMA descriptor (32 bytes, little-endian words). */
struct tsi721_dma_desc {
	uint32_t type_id;	/* DTYPE 31:29, IOF 27, RTYPE 22:19, PRIO, CRF, destid 15:0 */
	uint32_t bcount;	/* DTYPE 1: address bits 1:0 31:30; TT 27:26, byte count */
	uint32_t raddr_lo;	/* maintenance: hop count 31:24, config offset 23:0 */
	uint32_t raddr_hi;	/* DTYPE 1: raddr_hi:lo is the address >> 2 */
	union {
		uint32_t data[4];	/* DTYPE 2: immediate data, big-endian */
		struct {		/* DTYPE 1 */
			uint32_t bufptr_lo;	/* host memory (IOVA) */
			uint32_t bufptr_hi;
			uint32_t s_dist;	/* stride distance and size: 0, not used */
			uint32_t s_size;
		} t1;
	};
};
#define TSI721_DMAD_DEVID		0x0000ffff
#define TSI721_DMAD_RTYPE		0x00780000
#define TSI721_DMAD_RTYPE_SHIFT		19
#define TSI721_DMAD_IOF			0x08000000
#define TSI721_DMAD_TT			0x0c000000
#define TSI721_DMAD_TT_SHIFT		26
#define TSI721_DMAD_BCOUNT1		0x03ffffff	/* DTYPE 1: 0 is 64 MiB */
#define TSI721_DMAD_RADDR0		0xc0000000
#define TSI721_DMAD_RADDR0_SHIFT	30
#define TSI721_BDMA_MAX_BCOUNT		(TSI721_DMAD_BCOUNT1 + 1)
#define TSI721_DMAD_BCOUNT2		0x0000000f
#define TSI721_DMAD_CFGOFF		0x00ffffff
#define TSI721_DMAD_HOPCNT_SHIFT	24

/* One 64-byte block of a descriptor status FIFO: 8 descriptor addresses. */
#define TSI721_STS_BLOCK_ENTRIES	8
#define TSI721_STS_BLOCK_SIZE		64
/* Status FIFO size register: 2^(v + 4) blocks; the smallest is 32 blocks. */
#define TSI721_DSSZ_MIN_BLOCKS		32

/* ---------------------------------------------------------------------- */
/* Messaging                                                              */

#define TSI721_RQRPTO			0x60010	/* request/response timeout */
#define TSI721_IB_DEVID			0x60020

/* Outbound messaging engine channels (x = 0..7). */
#define TSI721_OBDMAC_DWRCNT(x)		(0x61000 + (x) * 0x1000)
#define TSI721_OBDMAC_DRDCNT(x)		(0x61004 + (x) * 0x1000)
#define TSI721_OBDMAC_CTL(x)		(0x61008 + (x) * 0x1000)
#define TSI721_OBDMAC_CTL_RETRY_THR	0x00000004
#define TSI721_OBDMAC_CTL_SUSPEND	0x00000002
#define TSI721_OBDMAC_CTL_INIT		0x00000001
#define TSI721_OBDMAC_INT(x)		(0x6100c + (x) * 0x1000)
#define TSI721_OBDMAC_INT_ST_FULL	0x00000010
#define TSI721_OBDMAC_INT_DONE		0x00000008
#define TSI721_OBDMAC_INT_SUSPENDED	0x00000004
#define TSI721_OBDMAC_INT_ERROR		0x00000002
#define TSI721_OBDMAC_INT_IOF_DONE	0x00000001
#define TSI721_OBDMAC_INT_ALL		0x0000001f
#define TSI721_OBDMAC_STS(x)		(0x61014 + (x) * 0x1000)
#define TSI721_OBDMAC_STS_ABORT		0x00400000
#define TSI721_OBDMAC_STS_RUN		0x00200000
#define TSI721_OBDMAC_STS_CS		0x001f0000
#define TSI721_OBDMAC_INTE(x)		(0x61018 + (x) * 0x1000)
#define TSI721_OBDMAC_DPTRL(x)		(0x61020 + (x) * 0x1000)
#define TSI721_OBDMAC_DPTRL_MASK	0xfffffff0	/* 16-byte aligned */
#define TSI721_OBDMAC_DPTRH(x)		(0x61024 + (x) * 0x1000)
#define TSI721_OBDMAC_DSBL(x)		(0x61040 + (x) * 0x1000)
#define TSI721_OBDMAC_DSBL_MASK		0xffffffc0	/* 64-byte aligned */
#define TSI721_OBDMAC_DSBH(x)		(0x61044 + (x) * 0x1000)
#define TSI721_OBDMAC_DSSZ(x)		(0x61048 + (x) * 0x1000)
#define TSI721_OBDMAC_DSRP(x)		(0x6104c + (x) * 0x1000)
#define TSI721_OBDMAC_DSWP(x)		(0x61050 + (x) * 0x1000)
#define TSI721_OBDMAC_PTR_MASK		0x0007ffff

/* Inbound messaging engine channels (x = 0..7); Linux uses 4 + mailbox. */
#define TSI721_IBDMAC_FQBL(x)		(0x61200 + (x) * 0x1000)
#define TSI721_IBDMAC_FQBL_MASK		0xffffffc0	/* 64-byte aligned */
#define TSI721_IBDMAC_FQBH(x)		(0x61204 + (x) * 0x1000)
#define TSI721_IBDMAC_FQSZ(x)		(0x61208 + (x) * 0x1000)
#define TSI721_IBDMAC_FQRP(x)		(0x6120c + (x) * 0x1000)
#define TSI721_IBDMAC_FQWP(x)		(0x61210 + (x) * 0x1000)
#define TSI721_IBDMAC_FQTH(x)		(0x61214 + (x) * 0x1000)
#define TSI721_IBDMAC_CTL(x)		(0x61240 + (x) * 0x1000)
#define TSI721_IBDMAC_CTL_SUSPEND	0x00000002
#define TSI721_IBDMAC_CTL_INIT		0x00000001
#define TSI721_IBDMAC_STS(x)		(0x61244 + (x) * 0x1000)
#define TSI721_IBDMAC_STS_ABORT		0x00400000
#define TSI721_IBDMAC_STS_RUN		0x00200000
#define TSI721_IBDMAC_INT(x)		(0x61248 + (x) * 0x1000)
#define TSI721_IBDMAC_INT_SRTO		0x00001000
#define TSI721_IBDMAC_INT_SUSPENDED	0x00000008
#define TSI721_IBDMAC_INT_PC_ERROR	0x00000004
#define TSI721_IBDMAC_INT_FQ_LOW	0x00000002
#define TSI721_IBDMAC_INT_DQ_RCV	0x00000001
#define TSI721_IBDMAC_INT_ALL		0x0000100f
#define TSI721_IBDMAC_INTE(x)		(0x61250 + (x) * 0x1000)
#define TSI721_IBDMAC_DQBL(x)		(0x61300 + (x) * 0x1000)
#define TSI721_IBDMAC_DQBL_MASK		0xffffffc0	/* 64-byte aligned */
#define TSI721_IBDMAC_DQBH(x)		(0x61304 + (x) * 0x1000)
#define TSI721_IBDMAC_DQRP(x)		(0x61308 + (x) * 0x1000)
#define TSI721_IBDMAC_DQWR(x)		(0x6130c + (x) * 0x1000)
#define TSI721_IBDMAC_DQSZ(x)		(0x61314 + (x) * 0x1000)
#define TSI721_IBDMAC_PTR_MASK		0x0007ffff

#define TSI721_IMSG_CHAN(mbox)		(4 + (mbox))
#define TSI721_MSG_CHANNELS		8

#define TSI721_SMSG_INTE		0x6a000
#define TSI721_SMSG_ECC_LOG		0x6a014
#define TSI721_RETRY_GEN_CNT		0x6a100	/* RETRY responses the part sent */
#define TSI721_RETRY_RX_CNT		0x6a104	/* RETRY responses the part received */

/* Message and free-queue / descriptor-queue size fields: 2^(v + 4) entries. */
#define TSI721_QSIZE_VAL(entries)	(rte_log2_u32(entries) - 4)
#define TSI721_QSIZE_ENTRIES(v)		(1u << ((v) + 4))
#define TSI721_QSIZE_FIELD		0x0000000f

/* Outbound message descriptor (16 bytes, little-endian words). */
struct tsi721_omsg_desc {
	uint32_t type_id;	/* DTYPE 31:29, IOF 27, PRIO, CRF, destid 15:0 */
	uint32_t msg_info;	/* TT 27:26, mbox 23:22, xmbox, letter 17:16, ssize, bcount */
	uint32_t bufptr_lo;	/* DTYPE 5: next descriptor block */
	uint32_t bufptr_hi;
};

/* Inbound message descriptor (64 bytes, written by the part). */
struct tsi721_imsg_desc {
	uint32_t type_id;	/* DTYPE 31:29, TT 20:19, PRIO, CRF, source ID 15:0 */
	uint32_t msg_info;	/* HO 31, CS 30:27, mbox, xmbox, letter, ssize, bcount */
	uint32_t bufptr_lo;
	uint32_t bufptr_hi;
	uint32_t rsvd[12];
};

#define TSI721_MD_DEVID			0x0000ffff
#define TSI721_OMD_IOF			0x08000000
#define TSI721_OMD_TT_SHIFT		26
#define TSI721_IMD_TT_SHIFT		19
#define TSI721_MD_BCOUNT		0x00000ff8	/* bytes, multiple of 8; 0: 4096 */
#define TSI721_MD_SSIZE			0x0000f000
#define TSI721_MD_SSIZE_SHIFT		12
#define TSI721_MD_LETTER		0x00030000
#define TSI721_MD_LETTER_SHIFT		16
#define TSI721_MD_XMBOX			0x003c0000
#define TSI721_MD_MBOX			0x00c00000
#define TSI721_MD_MBOX_SHIFT		22
#define TSI721_IMD_CS			0x78000000
#define TSI721_IMD_HO			0x80000000	/* host owned: filled by the part */

/* RapidIO segment sizes (ssize): 8 << (code - 9) bytes for codes 9..14. */
#define TSI721_SSIZE_8			0x9
#define TSI721_SSIZE_256		0xe

#endif /* TSI721_REGS_H */
