/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RTE_RIO_REGS_H
#define RTE_RIO_REGS_H

/**
 * @file
 * RapidIO configuration space register map.
 *
 * Capability registers (CARs), command and status registers (CSRs), the
 * LP-Serial extended-feature block (register maps I and II) and the Error
 * Management extensions, named after the RapidIO specification (rev 1.3 to
 * 4.x) and the Linux rio_regs.h names with an RTE_RIO_ prefix.
 *
 * RapidIO numbers bits big-endian (bit 0 is the MSB); every mask here is an
 * ordinary C mask of the 32-bit register value.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of one device's configuration space (16 MiB). */
#define RTE_RIO_MAINT_SPACE_SZ		0x1000000u

/* Standard capability registers (read-only; writes are ignored). */
#define RTE_RIO_DEV_ID_CAR		0x00	/**< Device Identity */
#define  RTE_RIO_DEV_ID_DID_MASK	0xffff0000u
#define  RTE_RIO_DEV_ID_VID_MASK	0x0000ffffu
#define RTE_RIO_DEV_INFO_CAR		0x04	/**< Device Information (revision) */
#define RTE_RIO_ASM_ID_CAR		0x08	/**< Assembly Identity */
#define  RTE_RIO_ASM_ID_MASK		0xffff0000u
#define  RTE_RIO_ASM_VEN_ID_MASK	0x0000ffffu
#define RTE_RIO_ASM_INFO_CAR		0x0c	/**< Assembly Information */
#define  RTE_RIO_ASM_REV_MASK		0xffff0000u
#define  RTE_RIO_EXT_FTR_PTR_MASK	0x0000ffffu
#define RTE_RIO_PEF_CAR			0x10	/**< Processing Element Features */
#define  RTE_RIO_PEF_BRIDGE		0x80000000u
#define  RTE_RIO_PEF_MEMORY		0x40000000u
#define  RTE_RIO_PEF_PROCESSOR		0x20000000u
#define  RTE_RIO_PEF_SWITCH		0x10000000u
#define  RTE_RIO_PEF_MULTIPORT		0x08000000u
#define  RTE_RIO_PEF_INB_MBOX		0x00f00000u	/**< rev <= 1.2 only */
#define  RTE_RIO_PEF_INB_DOORBELL	0x00080000u	/**< rev <= 1.2 only */
#define  RTE_RIO_PEF_DEV32		0x00001000u
#define  RTE_RIO_PEF_MULTICAST		0x00000400u
#define  RTE_RIO_PEF_EXT_RT		0x00000200u	/**< extended route config */
#define  RTE_RIO_PEF_STD_RT		0x00000100u	/**< standard route config */
#define  RTE_RIO_PEF_CRF		0x00000020u
#define  RTE_RIO_PEF_CTLS		0x00000010u	/**< Dev16 (large system) */
#define  RTE_RIO_PEF_DEV16		RTE_RIO_PEF_CTLS
#define  RTE_RIO_PEF_EXT_FEATURES	0x00000008u
#define  RTE_RIO_PEF_ADDR_66		0x00000004u
#define  RTE_RIO_PEF_ADDR_50		0x00000002u
#define  RTE_RIO_PEF_ADDR_34		0x00000001u
#define RTE_RIO_SWP_INFO_CAR		0x14	/**< Switch Port Information */
#define  RTE_RIO_SWP_INFO_PORT_TOTAL_MASK	0x0000ff00u
#define  RTE_RIO_SWP_INFO_PORT_NUM_MASK		0x000000ffu
#define  RTE_RIO_GET_TOTAL_PORTS(x)	(((x) & RTE_RIO_SWP_INFO_PORT_TOTAL_MASK) >> 8)
#define  RTE_RIO_GET_PORT_NUM(x)	((x) & RTE_RIO_SWP_INFO_PORT_NUM_MASK)
#define RTE_RIO_SRC_OPS_CAR		0x18	/**< Source Operations */
#define RTE_RIO_DST_OPS_CAR		0x1c	/**< Destination Operations */
#define  RTE_RIO_OPS_READ		0x00008000u
#define  RTE_RIO_OPS_WRITE		0x00004000u
#define  RTE_RIO_OPS_STREAM_WRITE	0x00002000u
#define  RTE_RIO_OPS_WRITE_RESPONSE	0x00001000u
#define  RTE_RIO_OPS_DATA_MSG		0x00000800u
#define  RTE_RIO_OPS_DOORBELL		0x00000400u
#define  RTE_RIO_OPS_ATOMIC_CAS		0x00000200u
#define  RTE_RIO_OPS_ATOMIC_TST_SWP	0x00000100u
#define  RTE_RIO_OPS_ATOMIC_INC		0x00000080u
#define  RTE_RIO_OPS_ATOMIC_DEC		0x00000040u
#define  RTE_RIO_OPS_ATOMIC_SET		0x00000020u
#define  RTE_RIO_OPS_ATOMIC_CLR		0x00000010u
#define  RTE_RIO_OPS_ATOMIC_SWP		0x00000008u
#define  RTE_RIO_OPS_PORT_WRITE		0x00000004u
/** Operations that imply a Base Device ID CSR (Linux rio_device_has_destid). */
#define  RTE_RIO_OPS_HAS_DESTID		(RTE_RIO_OPS_READ | RTE_RIO_OPS_WRITE | \
					 RTE_RIO_OPS_ATOMIC_TST_SWP | RTE_RIO_OPS_ATOMIC_INC | \
					 RTE_RIO_OPS_ATOMIC_DEC | RTE_RIO_OPS_ATOMIC_SET | \
					 RTE_RIO_OPS_ATOMIC_CLR)
#define RTE_RIO_SW_MC_SUP_CAR		0x30	/**< Switch Multicast Support */
#define RTE_RIO_SWITCH_RT_LIMIT		0x34	/**< Switch Route Table Dest ID Limit */
#define  RTE_RIO_RT_MAX_DESTID		0x0000ffffu
#define RTE_RIO_SW_MC_INFO_CAR		0x38	/**< Switch Multicast Information */
#define RTE_RIO_DS_INFO_CAR		0x3c	/**< Data Streaming Information */

/* Standard command and status registers. */
#define RTE_RIO_MBOX_CSR		0x40	/**< rev <= 1.2 only */
#define RTE_RIO_DOORBELL_CSR		0x44	/**< rev <= 1.2 only */
#define RTE_RIO_DS_LL_CTL_CSR		0x48	/**< Data Streaming Logical Layer Ctrl */
#define RTE_RIO_PELL_CTRL_CSR		0x4c	/**< PE Logical Layer Control */
#define  RTE_RIO_PELL_ADDR_66		0x00000004u
#define  RTE_RIO_PELL_ADDR_50		0x00000002u
#define  RTE_RIO_PELL_ADDR_34		0x00000001u
#define RTE_RIO_LCSH_BA			0x58	/**< Local Config Space Base Addr 0 */
#define RTE_RIO_LCSL_BA			0x5c	/**< Local Config Space Base Addr 1 */
#define RTE_RIO_DID_CSR			0x60	/**< Base Device ID */
#define  RTE_RIO_DID_DEV8_MASK		0x00ff0000u
#define  RTE_RIO_DID_DEV16_MASK		0x0000ffffu
#define RTE_RIO_DID32_CSR		0x64	/**< Dev32 Base Device ID (3.0+) */
#define RTE_RIO_HOST_DID_LOCK_CSR	0x68	/**< Host Base Device ID Lock */
#define  RTE_RIO_HOST_DID_LOCK_MASK	0x0000ffffu
#define  RTE_RIO_HOST_DID_UNLOCKED	0x0000ffffu
#define RTE_RIO_COMPONENT_TAG_CSR	0x6c	/**< Component Tag */
#define  RTE_RIO_CTAG_RESRVD		0xfffe0000u
#define  RTE_RIO_CTAG_UDEVID		0x0001ffffu
#define RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR	0x70	/**< Route config dest ID select */
#define  RTE_RIO_STD_RTE_CONF_EXTCFGEN		0x80000000u
#define  RTE_RIO_STD_RTE_CONF_DESTID_MSB	0x0000ff00u
#define  RTE_RIO_STD_RTE_CONF_DESTID	0x000000ffu
#define RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR	0x74	/**< Route config port select */
#define  RTE_RIO_STD_RTE_CONF_PORT_MASK	0x000000ffu
#define RTE_RIO_STD_RTE_DEFAULT_PORT	0x78	/**< Route default output port */
#define  RTE_RIO_STD_RTE_DEFAULT_PORT_MASK	0x000000ffu
#define RTE_RIO_MC_MASK_PORT_CSR	0x80	/**< Multicast mask port */
#define RTE_RIO_MC_ASSOC_SEL_CSR	0x84	/**< Multicast associate select */
#define RTE_RIO_MC_ASSOC_OP_CSR		0x88	/**< Multicast associate operation */

/** Base Device ID field for a device ID size of 8 or 16 bits. */
#define RTE_RIO_GET_DID(devid_size, v) \
	((devid_size) == 16 ? ((v) & 0xffffu) : (((v) >> 16) & 0xffu))
/** Base Device ID CSR value for a device ID size of 8 or 16 bits. */
#define RTE_RIO_SET_DID(devid_size, id) \
	((devid_size) == 16 ? ((uint32_t)(id) & 0xffffu) : (((uint32_t)(id) & 0xffu) << 16))

/** Route table "no route" marker (Linux RIO_INVALID_ROUTE). */
#define RTE_RIO_INVALID_ROUTE		0xff
/** Route table selector meaning "the global table". */
#define RTE_RIO_GLOBAL_TABLE		0xff

/* Extended features list. */
#define RTE_RIO_EF_PTR_MIN		0x0100u
#define RTE_RIO_EF_PTR_MAX		0xfffcu
#define  RTE_RIO_EFB_PTR_MASK		0xffff0000u
#define  RTE_RIO_EFB_ID_MASK		0x0000ffffu
#define  RTE_RIO_GET_BLOCK_PTR(x)	(((x) & RTE_RIO_EFB_PTR_MASK) >> 16)
#define  RTE_RIO_GET_BLOCK_ID(x)	((x) & RTE_RIO_EFB_ID_MASK)

/* Extended feature block IDs. */
#define RTE_RIO_EFB_SER_EP_M1_ID	0x0001	/**< LP-Serial EP, register map I */
#define RTE_RIO_EFB_SER_EP_SW_M1_ID	0x0002	/**< EP with SW recovery, RM-I */
#define RTE_RIO_EFB_SER_EPF_M1_ID	0x0003	/**< EP-free (switch), RM-I */
#define RTE_RIO_EFB_SER_EP_ID		0x0004	/**< rev 1.2 LP-Serial EP */
#define RTE_RIO_EFB_SER_EP_REC_ID	0x0005	/**< rev 1.2 EP with SW recovery */
#define RTE_RIO_EFB_SER_EP_FREE_ID	0x0006	/**< rev 1.2 EP-free */
#define RTE_RIO_EFB_ERR_MGMNT		0x0007	/**< Error Management */
#define RTE_RIO_EFB_SER_EPF_SW_M1_ID	0x0009	/**< EP-free with SW recovery, RM-I */
#define RTE_RIO_EFB_VC			0x000a	/**< Virtual channels */
#define RTE_RIO_EFB_VOQ			0x000b	/**< VoQ back-pressure */
#define RTE_RIO_EFB_LANE_STS		0x000d	/**< Lane status */
#define RTE_RIO_EFB_SW_ROUTING_TBL	0x000e	/**< Switch routing table (Dev32) */
#define RTE_RIO_EFB_TIMESTAMP		0x000f	/**< Timestamp synchronization */
#define RTE_RIO_EFB_MISC_PHY		0x0010	/**< Miscellaneous physical layer */
#define RTE_RIO_EFB_SER_EP_M2_ID	0x0011	/**< LP-Serial EP, register map II */
#define RTE_RIO_EFB_SER_EP_SW_M2_ID	0x0012	/**< EP with SW recovery, RM-II */
#define RTE_RIO_EFB_SER_EPF_M2_ID	0x0013	/**< EP-free, RM-II */
#define RTE_RIO_EFB_ERR_MGMNT_HS	0x0017	/**< Hot-swap-only error management */
#define RTE_RIO_EFB_SER_EPF_SW_M2_ID	0x0019	/**< EP-free with SW recovery, RM-II */

/**
 * Register map of an LP-Serial block ID: 1 (map I), 2 (map II), or 0 when
 * the ID is not an LP-Serial physical-layer block.
 * @param efb_id  EF_ID of an extended feature block
 * @return 1, 2, or 0 (see above)
 */
static inline int
rte_rio_efb_phys_rmap(uint16_t efb_id)
{
	switch (efb_id) {
	case RTE_RIO_EFB_SER_EP_M1_ID:
	case RTE_RIO_EFB_SER_EP_SW_M1_ID:
	case RTE_RIO_EFB_SER_EPF_M1_ID:
	case RTE_RIO_EFB_SER_EP_ID:
	case RTE_RIO_EFB_SER_EP_REC_ID:
	case RTE_RIO_EFB_SER_EP_FREE_ID:
	case RTE_RIO_EFB_SER_EPF_SW_M1_ID:
		return 1;
	case RTE_RIO_EFB_SER_EP_M2_ID:
	case RTE_RIO_EFB_SER_EP_SW_M2_ID:
	case RTE_RIO_EFB_SER_EPF_M2_ID:
	case RTE_RIO_EFB_SER_EPF_SW_M2_ID:
		return 2;
	default:
		return 0;
	}
}

/*
 * LP-Serial block, offsets relative to the block start. Per-port registers
 * take (n, m): port n, register map m (1: stride 0x20, 2: stride 0x40).
 */
#define RTE_RIO_PORT_MNT_HEADER		0x00
#define RTE_RIO_PORT_REQ_CTL_CSR	0x20
#define RTE_RIO_PORT_LINKTO_CTL_CSR	0x20	/**< Port Link Timeout Control */
#define RTE_RIO_PORT_RSPTO_CTL_CSR	0x24	/**< Port Response Timeout (EP only) */
#define  RTE_RIO_PORT_TIMEOUT_MASK	0xffffff00u
#define RTE_RIO_PORT_GEN_CTL_CSR	0x3c	/**< Port General Control */
#define  RTE_RIO_PORT_GEN_HOST		0x80000000u
#define  RTE_RIO_PORT_GEN_MASTER	0x40000000u
#define  RTE_RIO_PORT_GEN_DISCOVERED	0x20000000u
#define RTE_RIO_PORT_N_STRIDE(m)	(0x20u * (m))
#define RTE_RIO_PORT_N_MNT_REQ_CSR(n, m)	(0x40 + (n) * RTE_RIO_PORT_N_STRIDE(m))
#define  RTE_RIO_MNT_REQ_MASK		0x00000007u
#define  RTE_RIO_MNT_REQ_CMD_RP		0x2	/**< reset-port (3.x) */
#define  RTE_RIO_MNT_REQ_CMD_RD		0x3	/**< reset-device */
#define  RTE_RIO_MNT_REQ_CMD_IS		0x4	/**< input-status */
#define RTE_RIO_PORT_N_MNT_RSP_CSR(n, m)	(0x44 + (n) * RTE_RIO_PORT_N_STRIDE(m))
#define  RTE_RIO_PORT_N_MNT_RSP_RVAL	0x80000000u	/**< response valid */
#define  RTE_RIO_PORT_N_MNT_RSP_ASTAT	0x000007e0u	/**< ackID status */
#define  RTE_RIO_PORT_N_MNT_RSP_LSTAT	0x0000001fu	/**< link status */
#define RTE_RIO_PORT_N_ACK_STS_CSR(n)	(0x48 + (n) * 0x20)	/**< RM-I only */
#define  RTE_RIO_PORT_N_ACK_CLEAR	0x80000000u
#define  RTE_RIO_PORT_N_ACK_INBOUND	0x3f000000u
#define  RTE_RIO_PORT_N_ACK_OUTSTAND	0x00003f00u
#define  RTE_RIO_PORT_N_ACK_OUTBOUND	0x0000003fu
#define RTE_RIO_PORT_N_INIT_STS_CSR(n, m)	(0x4c + (n) * RTE_RIO_PORT_N_STRIDE(m))
#define RTE_RIO_PORT_N_CTL2_CSR(n, m)	(0x54 + (n) * RTE_RIO_PORT_N_STRIDE(m))
#define  RTE_RIO_PORT_N_CTL2_SEL_BAUD	0xf0000000u
#define RTE_RIO_PORT_N_ERR_STS_CSR(n, m)	(0x58 + (n) * RTE_RIO_PORT_N_STRIDE(m))
#define  RTE_RIO_PORT_N_ERR_STS_OUT_RTE		0x00100000u	/**< retry-encountered */
#define  RTE_RIO_PORT_N_ERR_STS_OUT_RT		0x00080000u	/**< retried */
#define  RTE_RIO_PORT_N_ERR_STS_OUT_RS		0x00040000u	/**< retry-stopped */
#define  RTE_RIO_PORT_N_ERR_STS_OUT_EE		0x00020000u	/**< error-encountered */
#define  RTE_RIO_PORT_N_ERR_STS_OUT_ES		0x00010000u	/**< error-stopped */
#define  RTE_RIO_PORT_N_ERR_STS_INP_RS		0x00000400u
#define  RTE_RIO_PORT_N_ERR_STS_INP_EE		0x00000200u
#define  RTE_RIO_PORT_N_ERR_STS_INP_ES		0x00000100u
#define  RTE_RIO_PORT_N_ERR_STS_PW_DIS		0x00000020u
#define  RTE_RIO_PORT_N_ERR_STS_PW_PEND		0x00000010u
#define  RTE_RIO_PORT_N_ERR_STS_PORT_UA		0x00000008u
#define  RTE_RIO_PORT_N_ERR_STS_PORT_ERR	0x00000004u
#define  RTE_RIO_PORT_N_ERR_STS_PORT_OK		0x00000002u
#define  RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT	0x00000001u
/** Write-1-to-clear bits of Port n Error and Status. */
#define  RTE_RIO_PORT_N_ERR_STS_W1C	(RTE_RIO_PORT_N_ERR_STS_OUT_RTE | \
					 RTE_RIO_PORT_N_ERR_STS_OUT_EE | \
					 RTE_RIO_PORT_N_ERR_STS_INP_EE | \
					 RTE_RIO_PORT_N_ERR_STS_PW_PEND | \
					 RTE_RIO_PORT_N_ERR_STS_PORT_ERR)
#define RTE_RIO_PORT_N_CTL_CSR(n, m)	(0x5c + (n) * RTE_RIO_PORT_N_STRIDE(m))
#define  RTE_RIO_PORT_N_CTL_PWIDTH	0xc0000000u
#define  RTE_RIO_PORT_N_CTL_PWIDTH_1	0x00000000u
#define  RTE_RIO_PORT_N_CTL_PWIDTH_4	0x40000000u
#define  RTE_RIO_PORT_N_CTL_IPW		0x38000000u	/**< initialized width */
#define  RTE_RIO_PORT_N_CTL_PWO		0x07000000u	/**< width override */
#define  RTE_RIO_PORT_N_CTL_DISABLE	0x00800000u
#define  RTE_RIO_PORT_N_CTL_EN_TX	0x00400000u	/**< output port enable */
#define  RTE_RIO_PORT_N_CTL_EN_RX	0x00200000u	/**< input port enable */
#define  RTE_RIO_PORT_N_CTL_ERR_DIS	0x00100000u
#define  RTE_RIO_PORT_N_CTL_MCAST	0x00080000u
#define  RTE_RIO_PORT_N_CTL_ENUM_B	0x00020000u	/**< enumeration boundary */
#define  RTE_RIO_PORT_N_CTL_STOP_FAIL	0x00000008u
#define  RTE_RIO_PORT_N_CTL_DROP_EN	0x00000004u
#define  RTE_RIO_PORT_N_CTL_LOCKOUT	0x00000002u
#define  RTE_RIO_PORT_N_CTL_P_TYP_SER	0x00000001u
#define RTE_RIO_PORT_N_OB_ACK_CSR(n)	(0x60 + (n) * 0x40)	/**< RM-II */
#define  RTE_RIO_PORT_N_OB_ACK_CLEAR	0x80000000u
#define  RTE_RIO_PORT_N_OB_ACK_OUTSTD	0x00fff000u
#define  RTE_RIO_PORT_N_OB_ACK_OUTBND	0x00000fffu
#define RTE_RIO_PORT_N_IB_ACK_CSR(n)	(0x64 + (n) * 0x40)	/**< RM-II */
#define  RTE_RIO_PORT_N_IB_ACK_INBND	0x00000fffu

/* Error Management extensions block, offsets relative to the block start. */
#define RTE_RIO_EM_EFB_HEADER		0x00
#define RTE_RIO_EM_EMHS_CAR		0x04
#define  RTE_RIO_EM_EMHS_CAR_EM_NOT_IMPL	0x80000000u
#define  RTE_RIO_EM_EMHS_CAR_HOT_SWAP		0x40000000u
#define RTE_RIO_EM_LTL_ERR_DETECT	0x08	/**< Logical/Transport Error Detect */
#define  RTE_RIO_EM_LTL_ERR_IO_RSP	0x80000000u
#define  RTE_RIO_EM_LTL_ERR_MSG_RSP	0x40000000u
#define  RTE_RIO_EM_LTL_ERR_MSG_FMT	0x10000000u
#define  RTE_RIO_EM_LTL_ERR_ILLTRAN	0x08000000u
#define  RTE_RIO_EM_LTL_ERR_ILLTGT	0x04000000u
#define  RTE_RIO_EM_LTL_ERR_MSG_TO	0x02000000u
#define  RTE_RIO_EM_LTL_ERR_RSP_TO	0x01000000u
#define  RTE_RIO_EM_LTL_ERR_UNSOLR	0x00800000u
#define  RTE_RIO_EM_LTL_ERR_UNSUPTR	0x00400000u
#define  RTE_RIO_EM_LTL_ERR_IMPSPEC	0x000000ffu
#define RTE_RIO_EM_LTL_ERR_EN		0x0c
#define RTE_RIO_EM_LTL_HIADDR_CAP	0x10
#define RTE_RIO_EM_LTL_ADDR_CAP		0x14
#define RTE_RIO_EM_LTL_DEVID_CAP	0x18
#define RTE_RIO_EM_LTL_CTRL_CAP		0x1c
#define RTE_RIO_EM_LTL_DID32_CAP	0x20
#define RTE_RIO_EM_LTL_SID32_CAP	0x24
#define RTE_RIO_EM_PW_TGT_DEVID		0x28	/**< Port-write target device ID */
#define  RTE_RIO_EM_PW_TGT_DEVID_D16M	0xff000000u
#define  RTE_RIO_EM_PW_TGT_DEVID_D8	0x00ff0000u
#define  RTE_RIO_EM_PW_TGT_DEVID_DEV16	0x00008000u
#define  RTE_RIO_EM_PW_TGT_DEVID_DEV32	0x00004000u
#define RTE_RIO_EM_PKT_TTL		0x2c
#define RTE_RIO_EM_PW_TGT32_DEVID	0x30
#define RTE_RIO_EM_PW_TX_CTRL		0x34
#define  RTE_RIO_EM_PW_TX_CTRL_PW_DIS	0x00000001u
#define RTE_RIO_EM_PN_ERR_DETECT(n)	(0x40 + (n) * 0x40)
#define  RTE_RIO_EM_PED_IMPL_SPEC	0x80000000u
#define  RTE_RIO_EM_PED_LINK_OK2U	0x40000000u	/**< link OK to uninitialized */
#define  RTE_RIO_EM_PED_LINK_UDT	0x20000000u
#define  RTE_RIO_EM_PED_LINK_U2OK	0x10000000u	/**< uninitialized to link OK */
#define  RTE_RIO_EM_PED_LINK_TO		0x00000001u
#define RTE_RIO_EM_PN_ERRRATE_EN(n)	(0x44 + (n) * 0x40)
#define RTE_RIO_EM_PN_ATTRIB_CAP(n)	(0x48 + (n) * 0x40)
#define RTE_RIO_EM_PN_PKT_CAP_0(n)	(0x4c + (n) * 0x40)
#define RTE_RIO_EM_PN_PKT_CAP_1(n)	(0x50 + (n) * 0x40)
#define RTE_RIO_EM_PN_PKT_CAP_2(n)	(0x54 + (n) * 0x40)
#define RTE_RIO_EM_PN_PKT_CAP_3(n)	(0x58 + (n) * 0x40)
#define RTE_RIO_EM_PN_ERRRATE(n)	(0x68 + (n) * 0x40)
#define RTE_RIO_EM_PN_ERRRATE_TR(n)	(0x6c + (n) * 0x40)
#define RTE_RIO_EM_PN_LINK_UDT(n)	(0x70 + (n) * 0x40)

/** Error-management port-write payload (16 bytes) and its raw 64-byte buffer. */
#define RTE_RIO_PW_MSG_SIZE		64

/*
 * Switches whose route registers are not (only) the standard ones; the
 * library has route ops for them (IDs as in Linux's include/linux/rio_ids.h).
 */
#define RTE_RIO_VID_IDT			0x0038
#define RTE_RIO_DID_IDT_CPS1848		0x0374	/**< CPS Gen2, 48 lanes / 18 ports */
#define RTE_RIO_DID_IDT_CPS1432		0x0375
#define RTE_RIO_DID_IDT_VPS1616		0x0377
#define RTE_RIO_DID_IDT_SPS1616		0x0378
#define RTE_RIO_DID_IDT_CPS1616		0x0379
#define RTE_RIO_DID_IDT_RXS1632		0x80e5	/**< RXS Gen3 */
#define RTE_RIO_DID_IDT_RXS2448		0x80e6

#ifdef __cplusplus
}
#endif

#endif /* RTE_RIO_REGS_H */
