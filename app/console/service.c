/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Mport state of the console: claimed doorbell ranges, opened mailboxes,
 * the poller that drains them, and the echo responder thread.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_rio.h>

#include <rio_dpdk_compat.h>

#include "console.h"

pthread_mutex_t con_lock = PTHREAD_MUTEX_INITIALIZER;
struct con_port con_ports[RTE_RIO_MAX_MPORTS];
unsigned int con_nb_ports;

/* Idle polls of the echo responder before it sleeps between polls. */
#define CON_ECHO_SPIN	1000

static rio_ctrl_thread_t con_echo_tid;
static bool con_echo_running;
/* Written by the console thread, read by the echo thread (no ordering needed). */
static volatile bool con_echo_stop;
static bool con_echo_on;

uint64_t
con_time_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct con_port *
con_port_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < con_nb_ports; i++)
		if (strcmp(con_ports[i].name, name) == 0)
			return &con_ports[i];
	return NULL;
}

static void
con_db_user_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct con_port *p = arg;

	RTE_SET_USED(mport);
	if (p->dbq_head - p->dbq_tail >= CON_DBQ_SIZE) {
		p->drops++;
		return;
	}
	p->dbq[p->dbq_head % CON_DBQ_SIZE] = *db;
	p->dbq_head++;
}

static void
con_db_ping_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct con_port *p = arg;

	if ((db->info & 0xff00) == CON_PING_DB_REQ) {
		if (!con_echo_on) {
			p->drops++;
			return;
		}
		if (rte_rio_send_doorbell(mport, db->src,
					  CON_PING_DB_REP | (db->info & 0xff)) == 0)
			p->echo_db++;
		else
			p->drops++;
		return;
	}
	p->db_rep_seen = true;
	p->db_rep_info = db->info;
}

int
con_ports_init(void)
{
	unsigned int i, n = rte_rio_mport_count();
	struct con_port *p;
	int ret;

	for (i = 0; i < n && con_nb_ports < RTE_RIO_MAX_MPORTS; i++) {
		struct rte_rio_mport *m = rte_rio_mport_get(i);

		if (m == NULL)
			continue;
		p = &con_ports[con_nb_ports++];
		memset(p, 0, sizeof(*p));
		p->mport = m;
		snprintf(p->name, sizeof(p->name), "%s", rte_rio_mport_name(m));
		/* 0x1000-0x1fff stays free for drivers such as rionet. */
		ret = rte_rio_request_inb_dbell(m, CON_DB_USER0_START, CON_DB_USER0_END,
						con_db_user_cb, p);
		if (ret == 0) {
			ret = rte_rio_request_inb_dbell(m, CON_DB_USER1_START,
							CON_DB_USER1_END, con_db_user_cb, p);
			if (ret != 0)
				rte_rio_release_inb_dbell(m, CON_DB_USER0_START,
							  CON_DB_USER0_END);
		}
		if (ret != 0)
			printf("warning: %s: cannot claim user doorbells: %s\n", p->name,
			       strerror(-ret));
		else
			p->db_user_claimed = true;
		ret = rte_rio_request_inb_dbell(m, CON_PING_DB_REQ, CON_PING_DB_REP | 0xff,
						con_db_ping_cb, p);
		if (ret != 0)
			printf("warning: %s: cannot claim ping doorbells: %s\n", p->name,
			       strerror(-ret));
		else
			p->db_ping_claimed = true;
	}
	return con_nb_ports > 0 ? 0 : -ENODEV;
}

static void
con_mbox_close(struct con_port *p, uint8_t mbox)
{
	unsigned int i;

	if (!p->mbox_open[mbox])
		return;
	rte_rio_release_inb_mbox(p->mport, mbox);
	rte_rio_release_outb_mbox(p->mport, mbox);
	for (i = 0; i < CON_MBOX_ENTRIES; i++) {
		free(p->mbox_bufs[mbox][i]);
		p->mbox_bufs[mbox][i] = NULL;
	}
	while (p->rxq_tail[mbox] != p->rxq_head[mbox]) {
		free(p->rxq[mbox][p->rxq_tail[mbox] % CON_RXQ_SIZE].data);
		p->rxq_tail[mbox]++;
	}
	p->mbox_open[mbox] = false;
}

void
con_ports_fini(void)
{
	unsigned int i;
	uint8_t mb;

	con_echo_set(false);
	for (i = 0; i < con_nb_ports; i++) {
		struct con_port *p = &con_ports[i];

		for (mb = 0; mb < RTE_RIO_MAX_MBOX; mb++)
			con_mbox_close(p, mb);
		if (p->db_user_claimed) {
			rte_rio_release_inb_dbell(p->mport, CON_DB_USER0_START,
						  CON_DB_USER0_END);
			rte_rio_release_inb_dbell(p->mport, CON_DB_USER1_START,
						  CON_DB_USER1_END);
		}
		if (p->db_ping_claimed)
			rte_rio_release_inb_dbell(p->mport, CON_PING_DB_REQ,
						  CON_PING_DB_REP | 0xff);
	}
	con_nb_ports = 0;
}

/* Open inbound and outbound mailbox @mbox and post the receive buffers. */
int
con_mbox_open(struct con_port *p, uint8_t mbox)
{
	unsigned int i;
	int ret;

	if (mbox >= RTE_RIO_MAX_MBOX)
		return -EINVAL;
	if (p->mbox_open[mbox])
		return 0;
	ret = rte_rio_request_inb_mbox(p->mport, mbox, CON_MBOX_ENTRIES);
	if (ret != 0)
		return ret;
	ret = rte_rio_request_outb_mbox(p->mport, mbox, CON_MBOX_ENTRIES);
	if (ret != 0) {
		rte_rio_release_inb_mbox(p->mport, mbox);
		return ret;
	}
	p->mbox_open[mbox] = true;
	for (i = 0; i < CON_MBOX_ENTRIES; i++) {
		p->mbox_bufs[mbox][i] = malloc(RTE_RIO_MAX_MSG_SIZE);
		if (p->mbox_bufs[mbox][i] == NULL) {
			ret = -ENOMEM;
			goto fail;
		}
		ret = rte_rio_add_inb_buffer(p->mport, mbox, p->mbox_bufs[mbox][i]);
		if (ret != 0)
			goto fail;
	}
	return 0;
fail:
	con_mbox_close(p, mbox);
	return ret;
}

/* Send with a bounded retry on back-pressure. */
static int
con_send_msg(struct con_port *p, uint16_t dst, uint8_t mbox, const void *buf, size_t len)
{
	unsigned int tries;
	int ret = -EAGAIN;

	for (tries = 0; tries < 1000 && ret == -EAGAIN; tries++)
		ret = rte_rio_add_outb_message(p->mport, dst, mbox, 0, buf, len);
	return ret;
}

static void
con_msg_dispatch(struct con_port *p, uint8_t mbox, uint8_t *buf, size_t len, uint16_t src)
{
	struct con_ping_hdr hdr;
	struct con_rx_msg *m;

	if (len >= sizeof(hdr)) {
		memcpy(&hdr, buf, sizeof(hdr));
		if (hdr.magic == CON_PING_MAGIC && hdr.type == CON_PING_TYPE_REQ) {
			if (!con_echo_on) {
				p->drops++;
				return;
			}
			hdr.type = CON_PING_TYPE_REP;
			memcpy(buf, &hdr, sizeof(hdr));
			if (con_send_msg(p, src, mbox, buf, len) == 0)
				p->echo_msg++;
			else
				p->drops++;
			return;
		}
		if (hdr.magic == CON_PING_MAGIC && hdr.type == CON_PING_TYPE_REP) {
			p->msg_rep_seen = true;
			p->msg_rep_seq = hdr.seq;
			return;
		}
	}
	if (p->rxq_head[mbox] - p->rxq_tail[mbox] >= CON_RXQ_SIZE) {
		p->drops++;
		return;
	}
	m = &p->rxq[mbox][p->rxq_head[mbox] % CON_RXQ_SIZE];
	m->data = malloc(len);
	if (m->data == NULL) {
		p->drops++;
		return;
	}
	memcpy(m->data, buf, len);
	m->len = len;
	m->src = src;
	p->rxq_head[mbox]++;
}

unsigned int
con_service_once(void)
{
	unsigned int i, work = 0;
	int ret;
	uint16_t src;
	uint8_t mb;
	size_t len;
	void *buf;

	for (i = 0; i < con_nb_ports; i++) {
		struct con_port *p = &con_ports[i];

		ret = rte_rio_dbell_poll(p->mport, 32);
		if (ret > 0)
			work += ret;
		for (mb = 0; mb < RTE_RIO_MAX_MBOX; mb++) {
			if (!p->mbox_open[mb])
				continue;
			while ((buf = rte_rio_get_inb_message(p->mport, mb, &len, &src)) != NULL) {
				con_msg_dispatch(p, mb, buf, len, src);
				work++;
				if (rte_rio_add_inb_buffer(p->mport, mb, buf) != 0)
					p->drops++;
			}
		}
	}
	return work;
}

/*
 * Echo responder: poll without sleeping while requests keep coming, back off
 * to 100 us sleeps after about a millisecond without any.
 */
static rio_ctrl_thread_ret_t
con_echo_thread(void *arg)
{
	unsigned int idle = 0, work;

	RTE_SET_USED(arg);
	while (!con_echo_stop) {
		pthread_mutex_lock(&con_lock);
		work = con_service_once();
		pthread_mutex_unlock(&con_lock);
		if (work > 0)
			idle = 0;
		else if (idle < CON_ECHO_SPIN)
			idle++;
		if (idle < CON_ECHO_SPIN)
			sched_yield();
		else
			usleep(100);
	}
	return 0;
}

bool
con_echo_get(void)
{
	return con_echo_on;
}

/*
 * Turn the echo responder on or off. On: the ping mailbox is opened on every
 * mport and a control thread polls them. Called without con_lock held.
 */
int
con_echo_set(bool on)
{
	unsigned int i;
	int ret;

	if (on && !con_echo_running) {
		pthread_mutex_lock(&con_lock);
		for (i = 0; i < con_nb_ports; i++) {
			ret = con_mbox_open(&con_ports[i], CON_PING_MBOX);
			if (ret != 0) {
				pthread_mutex_unlock(&con_lock);
				return ret;
			}
		}
		con_echo_on = true;
		pthread_mutex_unlock(&con_lock);
		con_echo_stop = false;
		ret = rio_ctrl_thread_create(&con_echo_tid, "rio-con-echo", con_echo_thread, NULL);
		if (ret != 0) {
			con_echo_on = false;
			return -ret;
		}
		con_echo_running = true;
	} else if (!on && con_echo_running) {
		con_echo_stop = true;
		rio_ctrl_thread_join(con_echo_tid);
		con_echo_running = false;
		con_echo_on = false;
	}
	return 0;
}
