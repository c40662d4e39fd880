/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Console commands: one cmdline_parse_inst_t per command form, sharing a
 * result structure. Arguments are plain words parsed here, so that a bad
 * number gets a message naming the argument.
 */

#include <ctype.h>
#include <sched.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_rawdev.h>
#include <rte_rio.h>
#include <rte_rio_dev.h>

#include "console.h"

/* Result of every command form: fixed words w*, free arguments a*. */
struct con_res {
	cmdline_fixed_string_t w0;
	cmdline_fixed_string_t w1;
	cmdline_fixed_string_t w2;
	cmdline_fixed_string_t a0;
	cmdline_fixed_string_t a1;
	cmdline_fixed_string_t a2;
	cmdline_fixed_string_t a3;
	cmdline_multi_string_t text;
};

#define CON_TOK(tok, field, str) \
	static cmdline_parse_token_string_t tok = \
		TOKEN_STRING_INITIALIZER(struct con_res, field, str)

/* Free arguments, shared by all forms. */
CON_TOK(con_tok_a0, a0, NULL);
CON_TOK(con_tok_a1, a1, NULL);
CON_TOK(con_tok_a2, a2, NULL);
CON_TOK(con_tok_text, text, TOKEN_STRING_MULTI);

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */

static struct con_port *
con_port_cur(void)
{
	return &con_ports[con_cur];
}

static int
con_parse_num(const char *s, uint64_t max, const char *what, uint64_t *val)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (s[0] == '-' || s[0] == '\0') {
		con_err("bad number '%s' for %s", s, what);
		return -EINVAL;
	}
	v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0') {
		con_err("bad number '%s' for %s", s, what);
		return -EINVAL;
	}
	if (v > max) {
		con_err("%s %s out of range (max 0x%" PRIx64 ")", what, s, max);
		return -ERANGE;
	}
	*val = v;
	return 0;
}

static uint16_t
con_destid_max(struct con_port *p)
{
	struct rte_rio_mport_info mi;

	if (rte_rio_mport_info_get(p->mport, &mi) == 0 && mi.devid_size == 16)
		return 0xffff;
	return 0xff;
}

static const char *
con_strerror(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return "no response (timed out: no route, link down or unknown device ID)";
	case -EIO:
		return "the target answered ERROR";
	case -EAGAIN:
		return "the target is busy (RETRY)";
	case -ERANGE:
		return "offset beyond the 16 MiB configuration space";
	default:
		return strerror(-err);
	}
}

static struct rte_rio_dev *
con_dev_get(const char *name, struct rte_rio_dev_info *info)
{
	struct rte_rio_dev *dev = rte_rio_dev_find_by_name(name);

	if (dev == NULL || rte_rio_dev_info_get(dev, info) != 0) {
		con_err("unknown device '%s' (see 'list devices')", name);
		return NULL;
	}
	return dev;
}

/* Wait up to @ms milliseconds for @done, servicing every mport meanwhile. */
static bool
con_wait(uint64_t ms, bool (*done)(void *), void *arg)
{
	uint64_t end = con_time_us() + ms * 1000;
	bool ok;

	for (;;) {
		pthread_mutex_lock(&con_lock);
		con_service_once();
		ok = done != NULL && done(arg);
		pthread_mutex_unlock(&con_lock);
		if (ok)
			return true;
		if (con_time_us() >= end || con_quit)
			return false;
		/* let the echo responder thread (and a peer process) run */
		sched_yield();
	}
}

static void
con_print_flags(uint32_t v, const uint32_t *bits, const char * const *names, unsigned int n)
{
	unsigned int i;
	bool first = true;

	printf("0x%08x (", v);
	for (i = 0; i < n; i++) {
		if ((v & bits[i]) != bits[i] || bits[i] == 0)
			continue;
		printf("%s%s", first ? "" : ",", names[i]);
		first = false;
	}
	printf("%s)\n", first ? "none" : "");
}

static void
con_print_pef(uint32_t pef)
{
	static const uint32_t bits[] = {
		RTE_RIO_PEF_BRIDGE, RTE_RIO_PEF_MEMORY, RTE_RIO_PEF_PROCESSOR,
		RTE_RIO_PEF_SWITCH, RTE_RIO_PEF_MULTIPORT, RTE_RIO_PEF_INB_MBOX,
		RTE_RIO_PEF_INB_DOORBELL, RTE_RIO_PEF_DEV32, RTE_RIO_PEF_MULTICAST,
		RTE_RIO_PEF_EXT_RT, RTE_RIO_PEF_STD_RT, RTE_RIO_PEF_CRF, RTE_RIO_PEF_DEV16,
		RTE_RIO_PEF_EXT_FEATURES, RTE_RIO_PEF_ADDR_66, RTE_RIO_PEF_ADDR_50,
		RTE_RIO_PEF_ADDR_34,
	};
	static const char * const names[] = {
		"bridge", "memory", "processor", "switch", "multiport", "inb_mbox",
		"inb_doorbell", "dev32", "multicast", "ext_rt", "std_rt", "crf", "dev16",
		"ext_features", "addr66", "addr50", "addr34",
	};

	RTE_BUILD_BUG_ON(RTE_DIM(bits) != RTE_DIM(names));
	con_print_flags(pef, bits, names, RTE_DIM(bits));
}

static void
con_print_ops(uint32_t ops)
{
	static const uint32_t bits[] = {
		RTE_RIO_OPS_READ, RTE_RIO_OPS_WRITE, RTE_RIO_OPS_STREAM_WRITE,
		RTE_RIO_OPS_WRITE_RESPONSE, RTE_RIO_OPS_DATA_MSG, RTE_RIO_OPS_DOORBELL,
		RTE_RIO_OPS_ATOMIC_CAS, RTE_RIO_OPS_ATOMIC_TST_SWP, RTE_RIO_OPS_ATOMIC_INC,
		RTE_RIO_OPS_ATOMIC_DEC, RTE_RIO_OPS_ATOMIC_SET, RTE_RIO_OPS_ATOMIC_CLR,
		RTE_RIO_OPS_ATOMIC_SWP, RTE_RIO_OPS_PORT_WRITE,
	};
	static const char * const names[] = {
		"read", "write", "stream_write", "write_response", "data_msg", "doorbell",
		"atomic_cas", "atomic_tst_swp", "atomic_inc", "atomic_dec", "atomic_set",
		"atomic_clr", "atomic_swp", "port_write",
	};

	RTE_BUILD_BUG_ON(RTE_DIM(bits) != RTE_DIM(names));
	con_print_flags(ops, bits, names, RTE_DIM(bits));
}

/* ---------------------------------------------------------------------- */
/* help, quit, sleep                                                      */

static void
con_cmd_help(void *res, struct cmdline *cl, void *data)
{
	const char *prev = NULL;
	unsigned int i;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	printf("Commands (TAB completes, '?' lists the forms of a command):\n");
	for (i = 0; con_main_ctx[i] != NULL; i++) {
		const char *h = con_main_ctx[i]->help_str;

		if (h == NULL || h == prev)
			continue;
		printf("  %s\n", h);
		prev = h;
	}
}

static void
con_cmd_quit(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(data);
	con_quit = true;
	cmdline_quit(cl);
}

static void
con_cmd_sleep(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	uint64_t ms;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (con_parse_num(r->a0, 3600000, "milliseconds", &ms) != 0)
		return;
	con_wait(ms, NULL, NULL);
}

/* ---------------------------------------------------------------------- */
/* enumerate, discover                                                    */

static void
con_scan(bool host, const char *timeout)
{
	struct con_port *p = con_port_cur();
	struct rte_rio_scan_conf conf = { 0 };
	struct rte_rio_mport_info mi;
	uint64_t ms = 0;
	int ret;

	if (timeout != NULL) {
		if (con_parse_num(timeout, 3600000, "timeout_ms", &ms) != 0)
			return;
		if (ms == 0) {
			con_err("timeout_ms must be at least 1");
			return;
		}
	}
	conf.disc_timeout_ms = ms;
	rte_rio_mport_info_get(p->mport, &mi);
	if (host && mi.host_destid == RTE_RIO_NO_HOST) {
		con_err("%s is an agent (no host= devarg): use 'discover'", p->name);
		return;
	}
	if (!host && mi.host_destid != RTE_RIO_NO_HOST) {
		con_err("%s is a host (host_destid %d): use 'enumerate'", p->name,
			mi.host_destid);
		return;
	}
	pthread_mutex_lock(&con_lock);
	ret = rte_rio_mport_scan(p->mport, &conf);
	pthread_mutex_unlock(&con_lock);
	if (ret == -EALREADY) {
		con_err("%s: already %s", p->name, host ? "enumerated" : "discovered");
		return;
	}
	if (ret != 0) {
		con_err("%s: %s failed: %s", p->name, host ? "enumeration" : "discovery",
			ret == -ETIMEDOUT ? "timed out waiting for a host" : strerror(-ret));
		return;
	}
	printf("%s: %s %u devices\n", p->name, host ? "enumerated" : "discovered",
	       rte_rio_dev_count(p->mport));
}

static void
con_cmd_enumerate(void *res, struct cmdline *cl, void *data)
{
	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	con_scan(true, NULL);
}

static void
con_cmd_discover(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;

	RTE_SET_USED(cl);
	con_scan(false, data != NULL ? r->a0 : NULL);
}

/* ---------------------------------------------------------------------- */
/* list devices, show device/routes/mports, set mport                    */

static void
con_cmd_list_devices(void *res, struct cmdline *cl, void *data)
{
	struct rte_rio_dev_info di;
	struct rte_rio_dev *dev = NULL;
	unsigned int n = 0;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	printf("%-24s %-8s %-6s %-4s %-10s %-6s %-6s %s\n", "NAME", "TYPE", "DESTID",
	       "HOPS", "COMPTAG", "VID", "DID", "LOCAL");
	while ((dev = rte_rio_dev_next(NULL, dev)) != NULL) {
		if (rte_rio_dev_info_get(dev, &di) != 0)
			continue;
		printf("%-24s %-8s 0x%04x 0x%02x 0x%08x 0x%04x 0x%04x %s\n", di.name,
		       di.type == RTE_RIO_DEV_SWITCH ? "switch" : "endpoint", di.destid,
		       di.hopcount, di.comptag, di.vid, di.did, di.local ? "yes" : "no");
		n++;
	}
	printf("%u devices\n", n);
}

static void
con_cmd_show_device(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct rte_rio_dev_info di;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (con_dev_get(r->a0, &di) == NULL)
		return;
	printf("device: %s\n", di.name);
	printf("type: %s\n", di.type == RTE_RIO_DEV_SWITCH ? "switch" : "endpoint");
	printf("local: %s\n", di.local ? "yes" : "no");
	printf("did: 0x%04x\n", di.did);
	printf("vid: 0x%04x\n", di.vid);
	printf("device_rev: 0x%08x\n", di.device_rev);
	printf("asm_did: 0x%04x\n", di.asm_did);
	printf("asm_vid: 0x%04x\n", di.asm_vid);
	printf("asm_rev: 0x%04x\n", di.asm_rev);
	printf("features: ");
	con_print_pef(di.pef);
	printf("src_ops: ");
	con_print_ops(di.src_ops);
	printf("dst_ops: ");
	con_print_ops(di.dst_ops);
	printf("ports: %u\n", di.nports);
	printf("destid: 0x%04x\n", di.destid);
	printf("hopcount: 0x%02x\n", di.hopcount);
	printf("comptag: 0x%08x\n", di.comptag);
	printf("phys_efptr: 0x%04x\n", di.phys_efptr);
	if (di.prev_comptag >= 0)
		printf("upstream: comptag 0x%08x port %u\n", (uint32_t)di.prev_comptag,
		       di.prev_port);
}

static void
con_cmd_show_routes(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct rte_rio_dev_info di;
	struct rte_rio_mport_info mi;
	struct rte_rio_dev *sw;
	unsigned int id, last, max, n = 0;
	int port;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	sw = con_dev_get(r->a0, &di);
	if (sw == NULL)
		return;
	if (di.type != RTE_RIO_DEV_SWITCH) {
		con_err("%s is not a switch", di.name);
		return;
	}
	rte_rio_mport_info_get(rte_rio_dev_mport(sw), &mi);
	max = RTE_RIO_MAX_DESTIDS(mi.devid_size);
	/* consecutive destids with the same port are printed as one range */
	printf("routes of %s (destid -> port):\n", di.name);
	for (id = 0; id < max; id++) {
		port = rte_rio_switch_route_get(sw, id);
		if (port < 0 || port == RTE_RIO_INVALID_ROUTE)
			continue;
		last = id;
		while (last + 1 < max && rte_rio_switch_route_get(sw, last + 1) == port)
			last++;
		if (last == id)
			printf("  0x%04x -> %d\n", id, port);
		else
			printf("  0x%04x-0x%04x -> %d\n", id, last, port);
		n += last - id + 1;
		id = last;
	}
	printf("%u routes\n", n);
}

static void
con_cmd_show_mports(void *res, struct cmdline *cl, void *data)
{
	struct rte_rio_mport_info mi;
	unsigned int i;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	printf("  %-16s %-6s %-6s %-5s %-4s %-7s %s\n", "MPORT", "DESTID", "ROLE", "IDS",
	       "LINK", "SCANNED", "DEVICES");
	for (i = 0; i < con_nb_ports; i++) {
		struct con_port *p = &con_ports[i];
		char role[16];

		if (rte_rio_mport_info_get(p->mport, &mi) != 0)
			continue;
		if (mi.host_destid == RTE_RIO_NO_HOST)
			snprintf(role, sizeof(role), "agent");
		else
			snprintf(role, sizeof(role), "host");
		printf("%c %-16s 0x%04x %-6s %-5u %-4s %-7s %u\n", i == con_cur ? '*' : ' ',
		       mi.name, mi.destid, role, mi.devid_size, mi.link_up ? "up" : "down",
		       rte_rio_mport_scanned(p->mport) ? "yes" : "no",
		       rte_rio_dev_count(p->mport));
	}
}

static void
con_cmd_set_mport(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct con_port *p;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	p = con_port_find(r->a0);
	if (p == NULL) {
		con_err("unknown mport '%s' (see 'show mports')", r->a0);
		return;
	}
	con_cur = p - con_ports;
	printf("current mport: %s\n", p->name);
}

/* ---------------------------------------------------------------------- */
/* read/write config                                                      */

/* The width token only matches 8, 16 or 32. */
static int
con_width(const char *s)
{
	if (strcmp(s, "8") == 0)
		return 8;
	return strcmp(s, "16") == 0 ? 16 : 32;
}

/*
 * Config access to a device through its mport: local access for the mport's
 * own endpoint, maintenance with the device's (destid, hopcount) otherwise.
 */
static int
con_cfg_access(struct rte_rio_dev *dev, const struct rte_rio_dev_info *di, bool wr,
	       uint32_t off, int width, uint32_t *val)
{
	struct rte_rio_mport *m = rte_rio_dev_mport(dev);
	uint16_t v16 = *val;
	uint8_t v8 = *val;
	int ret = -EINVAL;

	pthread_mutex_lock(&con_lock);
	if (di->local) {
		if (width == 32)
			ret = wr ? rte_rio_local_write_config_32(m, off, *val) :
				   rte_rio_local_read_config_32(m, off, val);
		else if (width == 16)
			ret = wr ? rte_rio_local_write_config_16(m, off, v16) :
				   rte_rio_local_read_config_16(m, off, &v16);
		else
			ret = wr ? rte_rio_local_write_config_8(m, off, v8) :
				   rte_rio_local_read_config_8(m, off, &v8);
	} else {
		uint16_t d = di->destid;
		uint8_t h = di->hopcount;

		if (width == 32)
			ret = wr ? rte_rio_remote_write_config_32(m, d, h, off, *val) :
				   rte_rio_remote_read_config_32(m, d, h, off, val);
		else if (width == 16)
			ret = wr ? rte_rio_remote_write_config_16(m, d, h, off, v16) :
				   rte_rio_remote_read_config_16(m, d, h, off, &v16);
		else
			ret = wr ? rte_rio_remote_write_config_8(m, d, h, off, v8) :
				   rte_rio_remote_read_config_8(m, d, h, off, &v8);
	}
	pthread_mutex_unlock(&con_lock);
	if (ret == 0 && !wr && width == 16)
		*val = v16;
	else if (ret == 0 && !wr && width == 8)
		*val = v8;
	return ret;
}

static void
con_cfg_cmd(struct con_res *r, bool wr, const char *value_str, const char *width_str)
{
	struct rte_rio_dev_info di;
	uint64_t off, val = 0;
	int width = con_width(width_str);
	struct rte_rio_dev *dev;
	uint32_t v;
	int ret;

	dev = con_dev_get(r->a0, &di);
	if (dev == NULL)
		return;
	if (con_parse_num(r->a1, 0xffffff, "offset", &off) != 0)
		return;
	if (off % (width / 8) != 0) {
		con_err("offset 0x%" PRIx64 " is not aligned for a %d-bit access", off, width);
		return;
	}
	if (wr && con_parse_num(value_str, width == 32 ? UINT32_MAX :
			       (width == 16 ? UINT16_MAX : UINT8_MAX), "value", &val) != 0)
		return;
	v = val;
	ret = con_cfg_access(dev, &di, wr, off, width, &v);
	if (ret != 0) {
		con_err("%s %s offset 0x%06" PRIx64 ": %s", wr ? "write" : "read", di.name, off,
			ret == -EFAULT ? "misaligned offset" : con_strerror(ret));
		return;
	}
	if (wr)
		printf("%s 0x%06" PRIx64 " <- 0x%0*x (%d-bit)\n", di.name, off, width / 4, v,
		       width);
	else
		printf("%s 0x%06" PRIx64 " = 0x%0*x (%d-bit)\n", di.name, off, width / 4, v,
		       width);
}

static void
con_cmd_read_config(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	con_cfg_cmd(r, false, NULL, r->a2);
}

static void
con_cmd_write_config(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	con_cfg_cmd(r, true, r->a2, r->a3);
}

/* ---------------------------------------------------------------------- */
/* doorbells                                                              */

static void
con_cmd_send_doorbell(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct con_port *p = con_port_cur();
	uint64_t dst, info;
	int ret;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (con_parse_num(r->a0, con_destid_max(p), "destid", &dst) != 0 ||
	    con_parse_num(r->a1, UINT16_MAX, "info", &info) != 0)
		return;
	pthread_mutex_lock(&con_lock);
	ret = rte_rio_send_doorbell(p->mport, dst, info);
	pthread_mutex_unlock(&con_lock);
	if (ret != 0) {
		con_err("%s: doorbell to 0x%04" PRIx64 ": %s", p->name, dst, con_strerror(ret));
		return;
	}
	printf("%s: doorbell 0x%04" PRIx64 " sent to 0x%04" PRIx64 "\n", p->name, info, dst);
}

static bool
con_dbq_ready(void *arg)
{
	struct con_port *p = arg;

	return p->dbq_head != p->dbq_tail;
}

static void
con_cmd_recv_doorbells(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct con_port *p = con_port_cur();
	uint64_t ms = 0;
	unsigned int n = 0;

	RTE_SET_USED(cl);
	if (data != NULL && con_parse_num(r->a0, 3600000, "timeout_ms", &ms) != 0)
		return;
	con_wait(ms, con_dbq_ready, p);
	pthread_mutex_lock(&con_lock);
	while (p->dbq_tail != p->dbq_head) {
		struct rte_rio_dbell *db = &p->dbq[p->dbq_tail % CON_DBQ_SIZE];

		printf("%s: doorbell from 0x%04x to 0x%04x info 0x%04x\n", p->name, db->src,
		       db->dst, db->info);
		p->dbq_tail++;
		n++;
	}
	pthread_mutex_unlock(&con_lock);
	printf("%s: %u doorbells\n", p->name, n);
}

/* ---------------------------------------------------------------------- */
/* mailboxes                                                              */

static int
con_parse_mbox(const char *s, uint8_t *mbox)
{
	uint64_t v;

	if (con_parse_num(s, RTE_RIO_MAX_MBOX - 1, "mbox", &v) != 0)
		return -EINVAL;
	*mbox = v;
	return 0;
}

static void
con_cmd_open_mailbox(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct con_port *p = con_port_cur();
	uint8_t mbox;
	int ret;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (con_parse_mbox(r->a0, &mbox) != 0)
		return;
	if (p->mbox_open[mbox]) {
		printf("%s: mailbox %u already open\n", p->name, mbox);
		return;
	}
	pthread_mutex_lock(&con_lock);
	ret = con_mbox_open(p, mbox);
	pthread_mutex_unlock(&con_lock);
	if (ret != 0) {
		con_err("%s: cannot open mailbox %u: %s", p->name, mbox,
			ret == -EBUSY ? "already in use (another driver?)" : strerror(-ret));
		return;
	}
	printf("%s: mailbox %u open (inbound and outbound, %u entries)\n", p->name, mbox,
	       CON_MBOX_ENTRIES);
}

static int
con_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Payload of "send message": "0x" followed by an even number of hex digits
 * gives those bytes, anything else is sent as text. Padded with zeros to
 * the 8-byte minimum.
 */
static int
con_payload(const char *s, uint8_t *buf, size_t *len)
{
	size_t n = strlen(s), i;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && n % 2 == 0 &&
	    strspn(s + 2, "0123456789abcdefABCDEF") == n - 2) {
		n = (n - 2) / 2;
		if (n > RTE_RIO_MAX_MSG_SIZE)
			return -E2BIG;
		for (i = 0; i < n; i++)
			buf[i] = con_hexval(s[2 + 2 * i]) << 4 | con_hexval(s[3 + 2 * i]);
	} else {
		if (n > RTE_RIO_MAX_MSG_SIZE)
			return -E2BIG;
		memcpy(buf, s, n);
	}
	if (n < RTE_RIO_MIN_MSG_SIZE) {
		memset(buf + n, 0, RTE_RIO_MIN_MSG_SIZE - n);
		n = RTE_RIO_MIN_MSG_SIZE;
	}
	*len = n;
	return 0;
}

static void
con_cmd_send_message(void *res, struct cmdline *cl, void *data)
{
	static uint8_t buf[RTE_RIO_MAX_MSG_SIZE];
	struct con_res *r = res;
	struct con_port *p = con_port_cur();
	uint64_t dst;
	uint8_t mbox;
	size_t len;
	int ret;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (con_parse_num(r->a0, con_destid_max(p), "destid", &dst) != 0 ||
	    con_parse_mbox(r->a1, &mbox) != 0)
		return;
	if (!p->mbox_open[mbox]) {
		con_err("%s: mailbox %u is not open (use 'open mailbox %u')", p->name, mbox,
			mbox);
		return;
	}
	if (con_payload(r->text, buf, &len) != 0) {
		con_err("message longer than %d bytes", RTE_RIO_MAX_MSG_SIZE);
		return;
	}
	pthread_mutex_lock(&con_lock);
	ret = rte_rio_add_outb_message(p->mport, dst, mbox, 0, buf, len);
	pthread_mutex_unlock(&con_lock);
	if (ret != 0) {
		con_err("%s: message to 0x%04" PRIx64 " mbox %u: %s", p->name, dst, mbox,
			con_strerror(ret));
		return;
	}
	printf("%s: message of %zu bytes sent to 0x%04" PRIx64 " mbox %u\n", p->name, len,
	       dst, mbox);
}

struct con_rxq_wait {
	struct con_port *p;
	uint8_t mbox;
};

static bool
con_rxq_ready(void *arg)
{
	struct con_rxq_wait *w = arg;

	return w->p->rxq_head[w->mbox] != w->p->rxq_tail[w->mbox];
}

static void
con_print_data(const uint8_t *d, size_t len)
{
	size_t n = len, i;

	while (n > 0 && d[n - 1] == 0)
		n--;
	for (i = 0; i < n; i++)
		if (!isprint(d[i]))
			break;
	if (n > 0 && i == n) {
		printf("text \"%.*s\"\n", (int)n, (const char *)d);
		return;
	}
	printf("hex ");
	for (i = 0; i < len; i++)
		printf("%02x", d[i]);
	printf("\n");
}

static void
con_cmd_recv_messages(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct con_port *p = con_port_cur();
	struct con_rxq_wait w;
	unsigned int n = 0;
	uint64_t ms = 0;
	uint8_t mbox;

	RTE_SET_USED(cl);
	if (con_parse_mbox(r->a0, &mbox) != 0)
		return;
	if (data != NULL && con_parse_num(r->a1, 3600000, "timeout_ms", &ms) != 0)
		return;
	if (!p->mbox_open[mbox]) {
		con_err("%s: mailbox %u is not open (use 'open mailbox %u')", p->name, mbox,
			mbox);
		return;
	}
	w.p = p;
	w.mbox = mbox;
	con_wait(ms, con_rxq_ready, &w);
	pthread_mutex_lock(&con_lock);
	while (p->rxq_tail[mbox] != p->rxq_head[mbox]) {
		struct con_rx_msg *m = &p->rxq[mbox][p->rxq_tail[mbox] % CON_RXQ_SIZE];

		printf("%s: message from 0x%04x mbox %u len %u ", p->name, m->src, mbox, m->len);
		con_print_data(m->data, m->len);
		free(m->data);
		m->data = NULL;
		p->rxq_tail[mbox]++;
		n++;
	}
	pthread_mutex_unlock(&con_lock);
	printf("%s: %u messages\n", p->name, n);
}

/* ---------------------------------------------------------------------- */
/* ping, echo                                                             */

struct con_ping_wait {
	struct con_port *p;
	bool msg;
	uint32_t seq;
};

static bool
con_ping_ready(void *arg)
{
	struct con_ping_wait *w = arg;

	if (w->msg)
		return w->p->msg_rep_seen && w->p->msg_rep_seq == w->seq;
	return w->p->db_rep_seen && w->p->db_rep_info == (CON_PING_DB_REP | (w->seq & 0xff));
}

static int
con_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
con_ping_report(const char *what, unsigned int sent, uint64_t *rtt, unsigned int n)
{
	uint64_t sum = 0;
	unsigned int i, p99;

	printf("%s: sent %u replies %u lost %u", what, sent, n, sent - n);
	if (n == 0) {
		printf("\n");
		return;
	}
	qsort(rtt, n, sizeof(rtt[0]), con_cmp_u64);
	for (i = 0; i < n; i++)
		sum += rtt[i];
	p99 = (n * 99 + 99) / 100 - 1;
	printf(" min %.1f avg %.1f p99 %.1f max %.1f us\n", rtt[0] / 1000.0,
	       (double)sum / n / 1000.0, rtt[p99] / 1000.0, rtt[n - 1] / 1000.0);
}

static uint64_t
con_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
con_ping(const char *dst_s, const char *count_s, const char *size_s)
{
	static uint8_t buf[RTE_RIO_MAX_MSG_SIZE];
	struct con_port *p = con_port_cur();
	uint64_t dst, count = 4, size = 64, t0;
	uint64_t *db_rtt = NULL, *msg_rtt = NULL;
	unsigned int i, db_n = 0, msg_n = 0, db_sent = 0, msg_sent = 0;
	struct con_ping_hdr hdr;
	struct con_ping_wait w;
	int ret;

	if (con_parse_num(dst_s, con_destid_max(p), "destid", &dst) != 0)
		return;
	if (count_s != NULL && con_parse_num(count_s, 100000, "count", &count) != 0)
		return;
	if (size_s != NULL && con_parse_num(size_s, RTE_RIO_MAX_MSG_SIZE, "size", &size) != 0)
		return;
	if (count == 0 || size < sizeof(hdr)) {
		con_err("count must be at least 1 and size at least %zu", sizeof(hdr));
		return;
	}
	if (!p->db_ping_claimed) {
		con_err("%s: ping doorbells 0x%04x-0x%04x are claimed by another user", p->name,
			CON_PING_DB_REQ, CON_PING_DB_REP | 0xff);
		return;
	}
	pthread_mutex_lock(&con_lock);
	ret = con_mbox_open(p, CON_PING_MBOX);
	pthread_mutex_unlock(&con_lock);
	if (ret != 0) {
		con_err("%s: cannot open ping mailbox %u: %s", p->name, CON_PING_MBOX,
			strerror(-ret));
		return;
	}
	db_rtt = calloc(count, sizeof(*db_rtt));
	msg_rtt = calloc(count, sizeof(*msg_rtt));
	if (db_rtt == NULL || msg_rtt == NULL) {
		con_err("out of memory");
		goto out;
	}
	printf("PING 0x%04" PRIx64 " from %s: %" PRIu64 " rounds, %" PRIu64
	       "-byte messages on mbox %u\n", dst, p->name, count, size, CON_PING_MBOX);
	memset(buf, 0xa5, size);
	w.p = p;
	for (i = 0; i < count && !con_quit; i++) {
		/* doorbell round trip */
		w.msg = false;
		w.seq = i;
		pthread_mutex_lock(&con_lock);
		p->db_rep_seen = false;
		t0 = con_time_ns();
		ret = rte_rio_send_doorbell(p->mport, dst, CON_PING_DB_REQ | (i & 0xff));
		pthread_mutex_unlock(&con_lock);
		if (ret == 0) {
			db_sent++;
			if (con_wait(CON_PING_TIMEOUT_MS, con_ping_ready, &w))
				db_rtt[db_n++] = con_time_ns() - t0;
		} else {
			printf("doorbell %u: %s\n", i, con_strerror(ret));
		}
		/* message round trip */
		w.msg = true;
		hdr.magic = CON_PING_MAGIC;
		hdr.type = CON_PING_TYPE_REQ;
		memset(hdr.pad, 0, sizeof(hdr.pad));
		hdr.seq = i;
		hdr.len = size;
		memcpy(buf, &hdr, sizeof(hdr));
		pthread_mutex_lock(&con_lock);
		p->msg_rep_seen = false;
		t0 = con_time_ns();
		ret = rte_rio_add_outb_message(p->mport, dst, CON_PING_MBOX, 0, buf, size);
		pthread_mutex_unlock(&con_lock);
		if (ret == 0) {
			msg_sent++;
			if (con_wait(CON_PING_TIMEOUT_MS, con_ping_ready, &w))
				msg_rtt[msg_n++] = con_time_ns() - t0;
		} else {
			printf("message %u: %s\n", i, con_strerror(ret));
		}
	}
	con_ping_report("doorbell", db_sent, db_rtt, db_n);
	con_ping_report("message", msg_sent, msg_rtt, msg_n);
	if (db_n == 0 && msg_n == 0)
		con_err("no reply from 0x%04" PRIx64 " (is its echo responder on?)", dst);
out:
	free(db_rtt);
	free(msg_rtt);
}

static void
con_cmd_ping(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	uintptr_t nargs = (uintptr_t)data;

	RTE_SET_USED(cl);
	con_ping(r->a0, nargs > 1 ? r->a1 : NULL, nargs > 2 ? r->a2 : NULL);
}

static void
con_cmd_echo(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	bool on = strcmp(r->w1, "on") == 0;
	unsigned int i;
	int ret;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	ret = con_echo_set(on);
	if (ret != 0) {
		con_err("cannot turn the echo responder %s: %s", r->w1, strerror(-ret));
		return;
	}
	printf("echo responder %s\n", on ? "on" : "off");
	if (!on)
		for (i = 0; i < con_nb_ports; i++)
			printf("%s: echoed %" PRIu64 " doorbells %" PRIu64 " messages\n",
			       con_ports[i].name, con_ports[i].echo_db, con_ports[i].echo_msg);
}

/* ---------------------------------------------------------------------- */
/* xstats                                                                 */

static void
con_cmd_xstats_mport(void *res, struct cmdline *cl, void *data)
{
	struct con_port *p = con_port_cur();
	struct rte_rawdev_xstats_name *names = NULL;
	unsigned int *ids = NULL;
	uint64_t *vals = NULL;
	int dev_id, n, i;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	dev_id = rte_rawdev_get_dev_id(p->name);
	if (dev_id >= RTE_RAWDEV_MAX_DEVS) {
		con_err("%s: no rawdev behind this mport", p->name);
		return;
	}
	n = rte_rawdev_xstats_names_get(dev_id, NULL, 0);
	if (n <= 0) {
		con_err("%s: no xstats", p->name);
		return;
	}
	names = calloc(n, sizeof(*names));
	ids = calloc(n, sizeof(*ids));
	vals = calloc(n, sizeof(*vals));
	if (names == NULL || ids == NULL || vals == NULL) {
		con_err("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		ids[i] = i;
	pthread_mutex_lock(&con_lock);
	if (rte_rawdev_xstats_names_get(dev_id, names, n) != n ||
	    rte_rawdev_xstats_get(dev_id, ids, vals, n) != n) {
		pthread_mutex_unlock(&con_lock);
		con_err("%s: cannot read xstats", p->name);
		goto out;
	}
	pthread_mutex_unlock(&con_lock);
	printf("xstats of %s (rawdev %d):\n", p->name, dev_id);
	for (i = 0; i < n; i++)
		printf("  %s: %" PRIu64 "\n", names[i].name, vals[i]);
out:
	free(names);
	free(ids);
	free(vals);
}

static void
con_cmd_xstats_port(void *res, struct cmdline *cl, void *data)
{
	struct con_res *r = res;
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *vals = NULL;
	char dname[RTE_ETH_NAME_MAX_LEN];
	uint64_t port;
	int n, i;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (con_parse_num(r->a0, RTE_MAX_ETHPORTS - 1, "port", &port) != 0)
		return;
	if (!rte_eth_dev_is_valid_port(port)) {
		con_err("no ethdev port %" PRIu64 " (%u ports)", port, rte_eth_dev_count_avail());
		return;
	}
	n = rte_eth_xstats_get_names(port, NULL, 0);
	if (n <= 0) {
		con_err("port %" PRIu64 ": no xstats", port);
		return;
	}
	names = calloc(n, sizeof(*names));
	vals = calloc(n, sizeof(*vals));
	if (names == NULL || vals == NULL) {
		con_err("out of memory");
		goto out;
	}
	if (rte_eth_xstats_get_names(port, names, n) != n ||
	    rte_eth_xstats_get(port, vals, n) != n) {
		con_err("port %" PRIu64 ": cannot read xstats", port);
		goto out;
	}
	if (rte_eth_dev_get_name_by_port(port, dname) != 0)
		snprintf(dname, sizeof(dname), "?");
	printf("xstats of port %" PRIu64 " (%s):\n", port, dname);
	for (i = 0; i < n; i++)
		printf("  %s: %" PRIu64 "\n", names[vals[i].id].name, vals[i].value);
out:
	free(names);
	free(vals);
}

/* ---------------------------------------------------------------------- */
/* Command table                                                          */

static const char con_h_help[] = "help: list the commands";
static const char con_h_quit[] = "quit: leave the console";
static const char con_h_sleep[] = "sleep <ms>: wait, serving doorbells, messages and echo";
static const char con_h_enum[] = "enumerate: enumerate the fabric (host mport)";
static const char con_h_disc[] = "discover [timeout_ms]: discover the fabric (agent mport)";
static const char con_h_list[] = "list devices: devices known by every mport";
static const char con_h_showdev[] =
	"show device <name>: identity, features, operations, ports, destid, hopcount, comptag";
static const char con_h_routes[] = "show routes <switch>: route table (destid -> port)";
static const char con_h_mports[] = "show mports: mports of this process (* = current)";
static const char con_h_setm[] = "set mport <name>: choose the current mport";
static const char con_h_rd[] = "read config <device> <offset> 8|16|32: read a register";
static const char con_h_wr[] =
	"write config <device> <offset> <value> 8|16|32: write a register";
static const char con_h_sdb[] = "send doorbell <destid> <info>: send a doorbell";
static const char con_h_rdb[] =
	"recv doorbells [timeout_ms]: print received doorbells (info 0x0000-0x0fff, 0x2000-0xfdff)";
static const char con_h_open[] = "open mailbox <mbox>: open inbound and outbound mailbox";
static const char con_h_smsg[] =
	"send message <destid> <mbox> <text|0xHEX>: send a message (padded to 8 bytes)";
static const char con_h_rmsg[] = "recv messages <mbox> [timeout_ms]: print received messages";
static const char con_h_ping[] =
	"ping <destid> [count] [size]: doorbell and message round trips (peer: echo on)";
static const char con_h_echo[] = "echo on|off: answer ping doorbells and messages";
static const char con_h_xm[] = "show xstats mport: extended stats of the current mport";
static const char con_h_xp[] = "show xstats port <port id>: extended stats of an ethdev port";

CON_TOK(con_tok_help, w0, "help");
CON_TOK(con_tok_quit, w0, "quit");
CON_TOK(con_tok_sleep, w0, "sleep");
CON_TOK(con_tok_enum, w0, "enumerate");
CON_TOK(con_tok_disc, w0, "discover");
CON_TOK(con_tok_list, w0, "list");
CON_TOK(con_tok_devices, w1, "devices");
CON_TOK(con_tok_show, w0, "show");
CON_TOK(con_tok_device, w1, "device");
CON_TOK(con_tok_routes, w1, "routes");
CON_TOK(con_tok_mports, w1, "mports");
CON_TOK(con_tok_set, w0, "set");
CON_TOK(con_tok_mport1, w1, "mport");
CON_TOK(con_tok_read, w0, "read");
CON_TOK(con_tok_write, w0, "write");
CON_TOK(con_tok_config, w1, "config");
CON_TOK(con_tok_width2, a2, "8#16#32");
CON_TOK(con_tok_width3, a3, "8#16#32");
CON_TOK(con_tok_send, w0, "send");
CON_TOK(con_tok_recv, w0, "recv");
CON_TOK(con_tok_doorbell, w1, "doorbell");
CON_TOK(con_tok_doorbells, w1, "doorbells");
CON_TOK(con_tok_open, w0, "open");
CON_TOK(con_tok_mailbox, w1, "mailbox");
CON_TOK(con_tok_message, w1, "message");
CON_TOK(con_tok_messages, w1, "messages");
CON_TOK(con_tok_ping, w0, "ping");
CON_TOK(con_tok_echo, w0, "echo");
CON_TOK(con_tok_onoff, w1, "on#off");
CON_TOK(con_tok_xstats, w1, "xstats");
CON_TOK(con_tok_mport2, w2, "mport");
CON_TOK(con_tok_port2, w2, "port");

/* data != NULL marks the form with the optional argument. */
#define CON_INST(inst, fn, d, h, ...) \
	static cmdline_parse_inst_t inst = { \
		.f = fn, \
		.data = (void *)(uintptr_t)(d), \
		.help_str = h, \
		.tokens = { __VA_ARGS__, NULL }, \
	}

#define T(x) ((void *)&(x))
CON_INST(con_i_help, con_cmd_help, 0, con_h_help, T(con_tok_help));
CON_INST(con_i_quit, con_cmd_quit, 0, con_h_quit, T(con_tok_quit));
CON_INST(con_i_sleep, con_cmd_sleep, 0, con_h_sleep, T(con_tok_sleep), T(con_tok_a0));
CON_INST(con_i_enum, con_cmd_enumerate, 0, con_h_enum, T(con_tok_enum));
CON_INST(con_i_disc0, con_cmd_discover, 0, con_h_disc, T(con_tok_disc));
CON_INST(con_i_disc1, con_cmd_discover, 1, con_h_disc, T(con_tok_disc), T(con_tok_a0));
CON_INST(con_i_list, con_cmd_list_devices, 0, con_h_list, T(con_tok_list),
	 T(con_tok_devices));
CON_INST(con_i_showdev, con_cmd_show_device, 0, con_h_showdev, T(con_tok_show),
	 T(con_tok_device), T(con_tok_a0));
CON_INST(con_i_routes, con_cmd_show_routes, 0, con_h_routes, T(con_tok_show),
	 T(con_tok_routes), T(con_tok_a0));
CON_INST(con_i_mports, con_cmd_show_mports, 0, con_h_mports, T(con_tok_show),
	 T(con_tok_mports));
CON_INST(con_i_setm, con_cmd_set_mport, 0, con_h_setm, T(con_tok_set), T(con_tok_mport1),
	 T(con_tok_a0));
CON_INST(con_i_rd, con_cmd_read_config, 0, con_h_rd, T(con_tok_read), T(con_tok_config),
	 T(con_tok_a0), T(con_tok_a1), T(con_tok_width2));
CON_INST(con_i_wr, con_cmd_write_config, 0, con_h_wr, T(con_tok_write), T(con_tok_config),
	 T(con_tok_a0), T(con_tok_a1), T(con_tok_a2), T(con_tok_width3));
CON_INST(con_i_sdb, con_cmd_send_doorbell, 0, con_h_sdb, T(con_tok_send),
	 T(con_tok_doorbell), T(con_tok_a0), T(con_tok_a1));
CON_INST(con_i_rdb0, con_cmd_recv_doorbells, 0, con_h_rdb, T(con_tok_recv),
	 T(con_tok_doorbells));
CON_INST(con_i_rdb1, con_cmd_recv_doorbells, 1, con_h_rdb, T(con_tok_recv),
	 T(con_tok_doorbells), T(con_tok_a0));
CON_INST(con_i_open, con_cmd_open_mailbox, 0, con_h_open, T(con_tok_open),
	 T(con_tok_mailbox), T(con_tok_a0));
CON_INST(con_i_smsg, con_cmd_send_message, 0, con_h_smsg, T(con_tok_send),
	 T(con_tok_message), T(con_tok_a0), T(con_tok_a1), T(con_tok_text));
CON_INST(con_i_rmsg0, con_cmd_recv_messages, 0, con_h_rmsg, T(con_tok_recv),
	 T(con_tok_messages), T(con_tok_a0));
CON_INST(con_i_rmsg1, con_cmd_recv_messages, 1, con_h_rmsg, T(con_tok_recv),
	 T(con_tok_messages), T(con_tok_a0), T(con_tok_a1));
CON_INST(con_i_ping1, con_cmd_ping, 1, con_h_ping, T(con_tok_ping), T(con_tok_a0));
CON_INST(con_i_ping2, con_cmd_ping, 2, con_h_ping, T(con_tok_ping), T(con_tok_a0),
	 T(con_tok_a1));
CON_INST(con_i_ping3, con_cmd_ping, 3, con_h_ping, T(con_tok_ping), T(con_tok_a0),
	 T(con_tok_a1), T(con_tok_a2));
CON_INST(con_i_echo, con_cmd_echo, 0, con_h_echo, T(con_tok_echo), T(con_tok_onoff));
CON_INST(con_i_xm, con_cmd_xstats_mport, 0, con_h_xm, T(con_tok_show), T(con_tok_xstats),
	 T(con_tok_mport2));
CON_INST(con_i_xp, con_cmd_xstats_port, 0, con_h_xp, T(con_tok_show), T(con_tok_xstats),
	 T(con_tok_port2), T(con_tok_a0));
#undef T

cmdline_parse_ctx_t con_main_ctx[] = {
	&con_i_help, &con_i_quit, &con_i_sleep, &con_i_enum, &con_i_disc0, &con_i_disc1,
	&con_i_list, &con_i_showdev, &con_i_routes, &con_i_mports, &con_i_setm, &con_i_rd,
	&con_i_wr, &con_i_sdb, &con_i_rdb0, &con_i_rdb1, &con_i_open, &con_i_smsg,
	&con_i_rmsg0, &con_i_rmsg1, &con_i_ping1, &con_i_ping2, &con_i_ping3, &con_i_echo,
	&con_i_xm, &con_i_xp, NULL,
};
