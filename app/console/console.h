/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_CONSOLE_H
#define RIO_CONSOLE_H

/*
 * dpdk-rio-console internals.
 *
 * One mutex (con_lock) serializes every use of the mports between the
 * console thread and the echo responder thread: the message and doorbell
 * fast paths of lib/rio allow one thread per mailbox direction.
 */

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include <cmdline_parse.h>
#include <rte_rio.h>

#define CON_PROMPT		"rio> "

/*
 * Ping protocol (see doc/guides/tools/console.rst):
 * doorbell request info = CON_PING_DB_REQ | seq, reply = CON_PING_DB_REP | seq
 * (seq: low 8 bits of the round); message request/reply on CON_PING_MBOX
 * with a struct con_ping_hdr at the start of the payload.
 */
#define CON_PING_DB_REQ		0xfe00
#define CON_PING_DB_REP		0xff00
#define CON_PING_MBOX		3
#define CON_PING_MAGIC		0x50494f52u	/* "RIOP" little-endian */
#define CON_PING_TYPE_REQ	1
#define CON_PING_TYPE_REP	2
#define CON_PING_TIMEOUT_MS	1000

/* Inbound doorbell ranges the console claims for received-doorbell logs. */
#define CON_DB_USER0_START	0x0000
#define CON_DB_USER0_END	0x0fff
#define CON_DB_USER1_START	0x2000
#define CON_DB_USER1_END	0xfdff

#define CON_MBOX_ENTRIES	32
#define CON_RXQ_SIZE		256	/* received user messages kept per mailbox */
#define CON_DBQ_SIZE		256	/* received user doorbells kept per mport */

struct con_ping_hdr {
	uint32_t magic;
	uint8_t type;
	uint8_t pad[3];
	uint32_t seq;
	uint32_t len;	/* whole payload length */
};

struct con_rx_msg {
	uint16_t src;
	uint16_t len;
	uint8_t *data;
};

/* Per mport state of the console. */
struct con_port {
	struct rte_rio_mport *mport;
	char name[RTE_RIO_NAME_MAX_LEN];
	bool mbox_open[RTE_RIO_MAX_MBOX];	/* opened by the console (in + out) */
	void *mbox_bufs[RTE_RIO_MAX_MBOX][CON_MBOX_ENTRIES];
	/* user messages, ring of CON_RXQ_SIZE per mailbox */
	struct con_rx_msg rxq[RTE_RIO_MAX_MBOX][CON_RXQ_SIZE];
	unsigned int rxq_head[RTE_RIO_MAX_MBOX];
	unsigned int rxq_tail[RTE_RIO_MAX_MBOX];
	/* user doorbells */
	struct rte_rio_dbell dbq[CON_DBQ_SIZE];
	unsigned int dbq_head;
	unsigned int dbq_tail;
	bool db_user_claimed;
	bool db_ping_claimed;
	/* ping replies seen by the poller: last sequence numbers */
	bool db_rep_seen;
	uint16_t db_rep_info;
	bool msg_rep_seen;
	uint32_t msg_rep_seq;
	/* echo responder counters */
	uint64_t echo_db;
	uint64_t echo_msg;
	uint64_t drops;
};

extern pthread_mutex_t con_lock;
extern struct con_port con_ports[RTE_RIO_MAX_MPORTS];
extern unsigned int con_nb_ports;
extern unsigned int con_cur;		/* index of the current mport */
extern bool con_failed;		/* a command failed (exit status) */
extern volatile bool con_quit;	/* quit command or signal */
extern cmdline_parse_ctx_t con_main_ctx[];

/* Print an error line and mark the command failed. */
void con_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* service.c */
int con_ports_init(void);
void con_ports_fini(void);
struct con_port *con_port_find(const char *name);
int con_mbox_open(struct con_port *p, uint8_t mbox);
/* Poll every mport once; caller holds con_lock. Returns events handled. */
unsigned int con_service_once(void);
int con_echo_set(bool on);
bool con_echo_get(void);
uint64_t con_time_us(void);

#endif /* RIO_CONSOLE_H */
