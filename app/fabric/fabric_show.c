/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/* show, routes and ports: a fabric's topology and state as text, JSON or DOT. */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_rio_regs.h>

#include "fabric_tool.h"

static const struct option fabtool_fmt_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *
fabtool_type_name(const struct rte_pmd_rio_sim_dev_info *d)
{
	return d->type == RTE_PMD_RIO_SIM_DEV_SWITCH ? "switch" : "endpoint";
}

static const char *
fabtool_bool(bool b)
{
	return b ? "true" : "false";
}

/* Is port @p of device @i one end of a link, listed once (from its lower end)? */
static bool
fabtool_link_first(const struct fabtool_fabric *fab, uint32_t i, unsigned int p)
{
	const struct rte_pmd_rio_sim_port_info *pi = &fab->devs[i].ports[p];

	if (pi->peer_dev < 0 || (uint32_t)pi->peer_dev >= fab->n_devs)
		return false;
	return (uint32_t)pi->peer_dev > i || ((uint32_t)pi->peer_dev == i && pi->peer_port > p);
}

static bool
fabtool_link_up(const struct fabtool_fabric *fab, uint32_t i, unsigned int p)
{
	const struct rte_pmd_rio_sim_port_info *pi = &fab->devs[i].ports[p];
	const struct rte_pmd_rio_sim_dev_info *pd = &fab->devs[pi->peer_dev];

	return pi->link_up && pi->peer_port < pd->nports && pd->ports[pi->peer_port].link_up;
}

/* ------------------------------------------------------------------ */
/* show                                                               */

static const char fabtool_show_help[] =
	"Usage: " FABTOOL_PROG " show <fabric> [--format text|json|dot]\n"
	"\n"
	"Devices (type, device ID, component tag, ports, owner), their ports and the\n"
	"links between them with their state. JSON is a stable document for scripts\n"
	"(format_version 1); DOT is an undirected Graphviz graph, down links dashed.\n";

static void
fabtool_show_text(const struct fabtool_fabric *fab)
{
	uint32_t i;
	unsigned int p, n_links = 0;

	printf("fabric %s: devices %u (endpoints %u, switches %u), %u-bit device IDs, "
	       "processes attached %u\n", fab->name, fab->n_devs, fab->st.n_endpoints,
	       fab->st.n_switches, fab->st.devid_size, fab->st.n_attached);
	printf("seed %" PRIu64 ", timing %s (hop %u ns, response %u ns, timeout %u us)\n",
	       fab->st.seed, fab->st.timing ? "on" : "off", fab->st.hop_ns, fab->st.proc_ns,
	       fab->st.resp_timeout_us);
	if (fab->st.seg_bufs == 0)
		printf("mailbox ring %u slots, segment buffers unlimited, port-write repeat %u us\n",
		       fab->st.mbox_entries, fab->st.pw_repeat_us);
	else
		printf("mailbox ring %u slots, segment buffers %u, port-write repeat %u us\n",
		       fab->st.mbox_entries, fab->st.seg_bufs, fab->st.pw_repeat_us);
	printf("%-6s %-20s %-8s %-8s %-8s %-6s %-6s %-10s %5s  %s\n", "INDEX", "DEVICE",
	       "TYPE", "MODEL", "DESTID", "VID", "DID", "COMPTAG", "PORTS", "ROLE");
	for (i = 0; i < fab->n_devs; i++) {
		const struct rte_pmd_rio_sim_dev_info *d = &fab->devs[i];
		int32_t destid = fabtool_destid(fab, d);
		char did[16] = "-";

		if (destid >= 0)
			snprintf(did, sizeof(did), "0x%0*x", fab->st.devid_size == 16 ? 4 : 2,
				 (unsigned int)destid);
		printf("%-6u %-20s %-8s %-8s %-8s 0x%04x 0x%04x 0x%08x %5u  ", i, d->name,
		       fabtool_type_name(d), d->model, did, d->vid, d->did, d->comptag, d->nports);
		if (d->type == RTE_PMD_RIO_SIM_DEV_SWITCH)
			printf("-");
		else if (d->owner_pid > 0)
			printf("%sclaimed by pid %d", d->is_host ? "host, " : "", d->owner_pid);
		else
			printf("%s", d->is_host ? "host" : "-");
		printf("\n");
	}
	printf("links:\n");
	for (i = 0; i < fab->n_devs; i++) {
		for (p = 0; p < fab->devs[i].nports; p++) {
			const struct rte_pmd_rio_sim_port_info *pi = &fab->devs[i].ports[p];

			if (!fabtool_link_first(fab, i, p))
				continue;
			printf("  %s.%u -- %s.%u %s\n", fab->devs[i].name, p,
			       fab->devs[pi->peer_dev].name, pi->peer_port,
			       fabtool_link_up(fab, i, p) ? "up" : "down");
			n_links++;
		}
	}
	if (n_links == 0)
		printf("  none\n");
}

static void
fabtool_show_json(const struct fabtool_fabric *fab)
{
	uint32_t i, j;
	unsigned int p;
	bool first = true;

	printf("{\n  \"format_version\": %d,\n  \"fabric\": ", FABTOOL_JSON_VERSION);
	fabtool_json_str(stdout, fab->name);
	printf(",\n  \"devid_size\": %u,\n  \"seed\": %" PRIu64 ",\n  \"timing\": %s,\n"
	       "  \"hop_latency_ns\": %u,\n  \"response_latency_ns\": %u,\n"
	       "  \"response_timeout_us\": %u,\n  \"pw_repeat_us\": %u,\n"
	       "  \"mbox_entries\": %u,\n  \"seg_bufs\": %u,\n"
	       "  \"creator_pid\": %d,\n  \"attached_pids\": [", fab->st.devid_size, fab->st.seed,
	       fabtool_bool(fab->st.timing), fab->st.hop_ns, fab->st.proc_ns,
	       fab->st.resp_timeout_us, fab->st.pw_repeat_us, fab->st.mbox_entries,
	       fab->st.seg_bufs, fab->st.creator_pid);
	for (j = 0; j < fab->st.n_attached; j++)
		printf("%s%d", j > 0 ? ", " : "", fab->st.attached[j]);
	printf("],\n  \"devices\": [");
	for (i = 0; i < fab->n_devs; i++) {
		const struct rte_pmd_rio_sim_dev_info *d = &fab->devs[i];
		bool sw = d->type == RTE_PMD_RIO_SIM_DEV_SWITCH;
		int32_t destid = fabtool_destid(fab, d);

		printf("%s\n    {\"index\": %u, \"name\": ", i > 0 ? "," : "", i);
		fabtool_json_str(stdout, d->name);
		printf(", \"type\": \"%s\", \"model\": ", fabtool_type_name(d));
		fabtool_json_str(stdout, d->model);
		printf(", \"vid\": %u, \"did\": %u, \"comptag\": %u, \"destid\": ",
		       d->vid, d->did, d->comptag);
		if (destid >= 0)
			printf("%d", destid);
		else
			printf("null");
		printf(", \"host\": %s, \"owner_pid\": ", fabtool_bool(!sw && d->is_host));
		if (d->owner_pid > 0)
			printf("%d", d->owner_pid);
		else
			printf("null");
		printf(", \"maint_rx\": %" PRIu64 ", \"nports\": %u,\n     \"ports\": [",
		       d->maint_rx, d->nports);
		for (p = 0; p < d->nports; p++) {
			const struct rte_pmd_rio_sim_port_info *pi = &d->ports[p];
			bool conn = pi->peer_dev >= 0 && (uint32_t)pi->peer_dev < fab->n_devs;

			printf("%s{\"port\": %u, \"peer\": ", p > 0 ? ", " : "", p);
			if (conn) {
				fabtool_json_str(stdout, fab->devs[pi->peer_dev].name);
				printf(", \"peer_port\": %u", pi->peer_port);
			} else {
				printf("null, \"peer_port\": null");
			}
			printf(", \"link_up\": %s, \"port_ok\": %s}",
			       fabtool_bool(conn && pi->link_up), fabtool_bool(pi->port_ok));
		}
		printf("]}");
	}
	printf("\n  ],\n  \"links\": [");
	for (i = 0; i < fab->n_devs; i++) {
		for (p = 0; p < fab->devs[i].nports; p++) {
			const struct rte_pmd_rio_sim_port_info *pi = &fab->devs[i].ports[p];

			if (!fabtool_link_first(fab, i, p))
				continue;
			printf("%s\n    {\"a\": ", first ? "" : ",");
			fabtool_json_str(stdout, fab->devs[i].name);
			printf(", \"a_port\": %u, \"b\": ", p);
			fabtool_json_str(stdout, fab->devs[pi->peer_dev].name);
			printf(", \"b_port\": %u, \"up\": %s}", pi->peer_port,
			       fabtool_bool(fabtool_link_up(fab, i, p)));
			first = false;
		}
	}
	printf("%s]\n}\n", first ? "" : "\n  ");
}

static void
fabtool_show_dot(const struct fabtool_fabric *fab)
{
	uint32_t i;
	unsigned int p;

	printf("graph \"%s\" {\n", fab->name);
	for (i = 0; i < fab->n_devs; i++) {
		const struct rte_pmd_rio_sim_dev_info *d = &fab->devs[i];
		int32_t destid = fabtool_destid(fab, d);

		if (d->type == RTE_PMD_RIO_SIM_DEV_SWITCH)
			printf("  \"%s\" [shape=box, label=\"%s\\n%s switch\"];\n", d->name,
			       d->name, d->model);
		else if (destid >= 0)
			printf("  \"%s\" [shape=ellipse, label=\"%s\\ndestid 0x%0*x%s\"];\n",
			       d->name, d->name, fab->st.devid_size == 16 ? 4 : 2,
			       (unsigned int)destid, d->is_host ? " (host)" : "");
		else
			printf("  \"%s\" [shape=ellipse, label=\"%s%s\"];\n", d->name, d->name,
			       d->is_host ? "\\n(host)" : "");
	}
	for (i = 0; i < fab->n_devs; i++) {
		for (p = 0; p < fab->devs[i].nports; p++) {
			const struct rte_pmd_rio_sim_port_info *pi = &fab->devs[i].ports[p];

			if (!fabtool_link_first(fab, i, p))
				continue;
			printf("  \"%s\" -- \"%s\" [taillabel=\"%u\", headlabel=\"%u\"%s];\n",
			       fab->devs[i].name, fab->devs[pi->peer_dev].name, p, pi->peer_port,
			       fabtool_link_up(fab, i, p) ? "" : ", style=dashed, color=red");
		}
	}
	printf("}\n");
}

int
fabtool_cmd_show(int argc, char **argv)
{
	struct fabtool_fmt_ctx o = {
		.allowed = FABTOOL_FMT_TEXT | FABTOOL_FMT_JSON | FABTOOL_FMT_DOT,
		.fmt = FABTOOL_FMT_TEXT,
	};
	struct fabtool_fabric fab;
	char *pos[1];
	unsigned int n;
	int rc;

	rc = fabtool_getopt(argc, argv, fabtool_fmt_opts, fabtool_show_help, 1, 1, pos, &n,
			    fabtool_fmt_opt, &o);
	if (rc >= 0)
		return rc;
	rc = fabtool_open(pos[0], &fab);
	if (rc >= 0)
		return rc;
	if (o.fmt == FABTOOL_FMT_JSON)
		fabtool_show_json(&fab);
	else if (o.fmt == FABTOOL_FMT_DOT)
		fabtool_show_dot(&fab);
	else
		fabtool_show_text(&fab);
	fabtool_close(&fab);
	return FABTOOL_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* routes                                                             */

static const char fabtool_routes_help[] =
	"Usage: " FABTOOL_PROG " routes <fabric> <switch> [--format text|json]\n"
	"\n"
	"Where a switch sends each destination ID, as its model decides (IDs it\n"
	"drops are left out), and its default output port (0x78). Read from the\n"
	"emulator directly: no maintenance transaction, nothing changes.\n";

int
fabtool_cmd_routes(int argc, char **argv)
{
	struct fabtool_fmt_ctx o = {
		.allowed = FABTOOL_FMT_TEXT | FABTOOL_FMT_JSON,
		.fmt = FABTOOL_FMT_TEXT,
	};
	const struct rte_pmd_rio_sim_dev_info *d;
	struct fabtool_fabric fab;
	uint8_t *table = NULL, def = RTE_RIO_INVALID_ROUTE;
	unsigned int n, count = 0, w;
	char *pos[2];
	int rc, idx, size, i;

	rc = fabtool_getopt(argc, argv, fabtool_fmt_opts, fabtool_routes_help, 2, 2, pos, &n,
			    fabtool_fmt_opt, &o);
	if (rc >= 0)
		return rc;
	rc = fabtool_open(pos[0], &fab);
	if (rc >= 0)
		return rc;
	idx = fabtool_find_dev(&fab, pos[1]);
	if (idx < 0) {
		rc = FABTOOL_EXIT_FAIL;
		goto out;
	}
	d = &fab.devs[idx];
	if (d->type != RTE_PMD_RIO_SIM_DEV_SWITCH) {
		rc = fabtool_fail("device %s of fabric %s is an endpoint: no route table",
				  d->name, fab.name);
		goto out;
	}
	table = malloc(RTE_RIO_MAX_DESTIDS(16));
	if (table == NULL) {
		rc = fabtool_fail("out of memory");
		goto out;
	}
	size = rte_pmd_rio_sim_fabric_route_table(fab.name, pos[1], table,
						  RTE_RIO_MAX_DESTIDS(16), &def);
	if (size < 0) {
		rc = fabtool_fail("switch %s: cannot read its route table: %s", d->name,
				  strerror(-size));
		goto out;
	}
	w = fab.st.devid_size == 16 ? 4 : 2;
	if (o.fmt == FABTOOL_FMT_JSON) {
		printf("{\n  \"format_version\": %d,\n  \"fabric\": ", FABTOOL_JSON_VERSION);
		fabtool_json_str(stdout, fab.name);
		printf(",\n  \"switch\": ");
		fabtool_json_str(stdout, d->name);
		printf(",\n  \"model\": ");
		fabtool_json_str(stdout, d->model);
		printf(",\n  \"devid_size\": %u,\n  \"default_port\": ", fab.st.devid_size);
		if (def < d->nports)
			printf("%u", def);
		else
			printf("null");
		printf(",\n  \"routes\": [");
		for (i = 0; i < size; i++) {
			if (table[i] == RTE_RIO_INVALID_ROUTE)
				continue;
			printf("%s\n    {\"destid\": %d, \"port\": %u}", count > 0 ? "," : "", i,
			       table[i]);
			count++;
		}
		printf("%s]\n}\n", count > 0 ? "\n  " : "");
	} else {
		for (i = 0; i < size; i++)
			count += table[i] != RTE_RIO_INVALID_ROUTE;
		printf("switch %s (model %s), %u-bit device IDs: %u routes\n", d->name,
		       d->model, fab.st.devid_size, count);
		printf("%-8s %s\n", "DESTID", "PORT");
		for (i = 0; i < size; i++)
			if (table[i] != RTE_RIO_INVALID_ROUTE)
				printf("0x%0*x%*s %u\n", w, i, 6 - w, "", table[i]);
		if (def < d->nports)
			printf("default port: %u\n", def);
		else
			printf("default port: none (drop)\n");
	}
	rc = FABTOOL_EXIT_OK;
out:
	free(table);
	fabtool_close(&fab);
	return rc;
}

/* ------------------------------------------------------------------ */
/* ports                                                              */

static const char fabtool_ports_help[] =
	"Usage: " FABTOOL_PROG " ports <fabric> <device> [--format text|json]\n"
	"\n"
	"Per-port status of a device: peer, physical link, Port OK, lockout, input\n"
	"and output enables, Port n Error and Status CSR bits, and the emulator's\n"
	"packet counters (sent, received, dropped at this port).\n";

static const struct {
	uint32_t bit;
	const char *name;
} fabtool_err_sts_bits[] = {
	{ RTE_RIO_PORT_N_ERR_STS_OUT_RTE, "OUT_RETRY_ENCOUNTERED" },
	{ RTE_RIO_PORT_N_ERR_STS_OUT_RT, "OUT_RETRIED" },
	{ RTE_RIO_PORT_N_ERR_STS_OUT_RS, "OUT_RETRY_STOPPED" },
	{ RTE_RIO_PORT_N_ERR_STS_OUT_EE, "OUT_ERROR_ENCOUNTERED" },
	{ RTE_RIO_PORT_N_ERR_STS_OUT_ES, "OUT_ERROR_STOPPED" },
	{ RTE_RIO_PORT_N_ERR_STS_INP_RS, "IN_RETRY_STOPPED" },
	{ RTE_RIO_PORT_N_ERR_STS_INP_EE, "IN_ERROR_ENCOUNTERED" },
	{ RTE_RIO_PORT_N_ERR_STS_INP_ES, "IN_ERROR_STOPPED" },
	{ RTE_RIO_PORT_N_ERR_STS_PW_DIS, "PW_DISABLED" },
	{ RTE_RIO_PORT_N_ERR_STS_PW_PEND, "PW_PENDING" },
	{ RTE_RIO_PORT_N_ERR_STS_PORT_UA, "PORT_UNAVAILABLE" },
	{ RTE_RIO_PORT_N_ERR_STS_PORT_ERR, "PORT_ERROR" },
	{ RTE_RIO_PORT_N_ERR_STS_PORT_OK, "PORT_OK" },
	{ RTE_RIO_PORT_N_ERR_STS_PORT_UNINIT, "PORT_UNINITIALIZED" },
};

/*
 * Offset of the Port n Error and Status CSR of @dev: walk the extended
 * features list (backdoor reads, no side effects) to the LP-Serial block.
 * Returns -1 when the device has none.
 */
static int64_t
fabtool_err_sts_off(const struct fabtool_fabric *fab, const char *dev, unsigned int port)
{
	uint32_t v, ptr;
	unsigned int guard;
	int rmap;

	if (rte_pmd_rio_sim_fabric_config_read(fab->name, dev, RTE_RIO_PEF_CAR, 4, &v) != 0 ||
	    !(v & RTE_RIO_PEF_EXT_FEATURES))
		return -1;
	if (rte_pmd_rio_sim_fabric_config_read(fab->name, dev, RTE_RIO_ASM_INFO_CAR, 4, &v) != 0)
		return -1;
	ptr = v & RTE_RIO_EXT_FTR_PTR_MASK;
	for (guard = 0; ptr >= RTE_RIO_EF_PTR_MIN && ptr <= RTE_RIO_EF_PTR_MAX && guard < 64;
	     guard++) {
		if (rte_pmd_rio_sim_fabric_config_read(fab->name, dev, ptr, 4, &v) != 0)
			return -1;
		rmap = rte_rio_efb_phys_rmap(RTE_RIO_GET_BLOCK_ID(v));
		if (rmap != 0)
			return ptr + RTE_RIO_PORT_N_ERR_STS_CSR(port, rmap);
		ptr = RTE_RIO_GET_BLOCK_PTR(v);
	}
	return -1;
}

struct fabtool_port_row {
	const struct rte_pmd_rio_sim_port_info *pi;
	bool connected;
	bool have_err_sts;
	uint32_t err_sts;
};

static void
fabtool_ports_json(const struct fabtool_fabric *fab, const struct rte_pmd_rio_sim_dev_info *d,
		   const struct fabtool_port_row *rows)
{
	unsigned int p, b, nb;

	printf("{\n  \"format_version\": %d,\n  \"fabric\": ", FABTOOL_JSON_VERSION);
	fabtool_json_str(stdout, fab->name);
	printf(",\n  \"device\": ");
	fabtool_json_str(stdout, d->name);
	printf(",\n  \"type\": \"%s\",\n  \"ports\": [", fabtool_type_name(d));
	for (p = 0; p < d->nports; p++) {
		const struct fabtool_port_row *r = &rows[p];
		const struct rte_pmd_rio_sim_port_info *pi = r->pi;

		printf("%s\n    {\"port\": %u, \"peer\": ", p > 0 ? "," : "", p);
		if (r->connected) {
			fabtool_json_str(stdout, fab->devs[pi->peer_dev].name);
			printf(", \"peer_port\": %u", pi->peer_port);
		} else {
			printf("null, \"peer_port\": null");
		}
		printf(", \"link_up\": %s, \"port_ok\": %s, \"lockout\": %s,\n     "
		       "\"input_enable\": %s, \"output_enable\": %s, \"disabled\": %s, "
		       "\"ctl\": %u, \"err_sts\": ",
		       fabtool_bool(r->connected && pi->link_up), fabtool_bool(pi->port_ok),
		       fabtool_bool(pi->lockout),
		       fabtool_bool(pi->ctl & RTE_RIO_PORT_N_CTL_EN_RX),
		       fabtool_bool(pi->ctl & RTE_RIO_PORT_N_CTL_EN_TX),
		       fabtool_bool(pi->ctl & RTE_RIO_PORT_N_CTL_DISABLE), pi->ctl);
		if (r->have_err_sts)
			printf("%u", r->err_sts);
		else
			printf("null");
		printf(", \"err_sts_bits\": [");
		for (b = 0, nb = 0; r->have_err_sts && b < RTE_DIM(fabtool_err_sts_bits); b++) {
			if (!(r->err_sts & fabtool_err_sts_bits[b].bit))
				continue;
			printf("%s\"%s\"", nb++ > 0 ? ", " : "", fabtool_err_sts_bits[b].name);
		}
		printf("],\n     \"lanes\": %u, \"rate_mbps\": %" PRIu64 ", \"ack_in\": %u, "
		       "\"ack_out\": %u,\n     \"tx_pkts\": %" PRIu64 ", \"rx_pkts\": %" PRIu64
		       ", \"drops\": %" PRIu64 ", \"err_stopped\": %" PRIu64 "}", pi->lanes,
		       pi->rate_bps / 1000000, pi->ack_in, pi->ack_out, pi->tx_pkts, pi->rx_pkts,
		       pi->drops, pi->err_stopped);
	}
	printf("%s]\n}\n", d->nports > 0 ? "\n  " : "");
}

static void
fabtool_ports_text(const struct fabtool_fabric *fab, const struct rte_pmd_rio_sim_dev_info *d,
		   const struct fabtool_port_row *rows)
{
	unsigned int p, b;

	printf("device %s (%s, model %s) of fabric %s: %u ports\n", d->name, fabtool_type_name(d),
	       d->model, fab->name, d->nports);
	printf("%-4s %-24s %-5s %-4s %-7s %-3s %-3s %-8s %-10s %-12s %-9s %12s %12s %12s "
	       "%10s  %s\n", "PORT", "PEER", "LINK", "OK", "LOCKOUT", "IN", "OUT", "DISABLED",
	       "ERR_STS", "RATE", "ACKID", "TX_PKTS", "RX_PKTS", "DROPS", "ERR_STOP",
	       "ERR_STS_BITS");
	for (p = 0; p < d->nports; p++) {
		const struct fabtool_port_row *r = &rows[p];
		const struct rte_pmd_rio_sim_port_info *pi = r->pi;
		char peer[48] = "-", sts[16] = "-", rate[24] = "-", ack[16];
		bool first = true;

		if (r->connected)
			snprintf(peer, sizeof(peer), "%s.%u", fab->devs[pi->peer_dev].name,
				 pi->peer_port);
		if (r->have_err_sts)
			snprintf(sts, sizeof(sts), "0x%08x", r->err_sts);
		if (pi->rate_bps != 0)
			snprintf(rate, sizeof(rate), "%.1f Gbit/s", pi->rate_bps / 1e9);
		snprintf(ack, sizeof(ack), "%u/%u", pi->ack_in, pi->ack_out);
		printf("%-4u %-24s %-5s %-4s %-7s %-3s %-3s %-8s %-10s %-12s %-9s %12" PRIu64
		       " %12" PRIu64 " %12" PRIu64 " %10" PRIu64 "  ", p, peer,
		       !r->connected ? "none" : pi->link_up ? "up" : "down",
		       pi->port_ok ? "yes" : "no", pi->lockout ? "yes" : "no",
		       pi->ctl & RTE_RIO_PORT_N_CTL_EN_RX ? "on" : "off",
		       pi->ctl & RTE_RIO_PORT_N_CTL_EN_TX ? "on" : "off",
		       pi->ctl & RTE_RIO_PORT_N_CTL_DISABLE ? "yes" : "no", sts, rate, ack,
		       pi->tx_pkts, pi->rx_pkts, pi->drops, pi->err_stopped);
		for (b = 0; r->have_err_sts && b < RTE_DIM(fabtool_err_sts_bits); b++) {
			if (!(r->err_sts & fabtool_err_sts_bits[b].bit))
				continue;
			printf("%s%s", first ? "" : ",", fabtool_err_sts_bits[b].name);
			first = false;
		}
		printf("%s\n", first ? "-" : "");
	}
}

int
fabtool_cmd_ports(int argc, char **argv)
{
	struct fabtool_fmt_ctx o = {
		.allowed = FABTOOL_FMT_TEXT | FABTOOL_FMT_JSON,
		.fmt = FABTOOL_FMT_TEXT,
	};
	struct fabtool_port_row rows[RTE_PMD_RIO_SIM_FABRIC_MAX_PORTS];
	const struct rte_pmd_rio_sim_dev_info *d;
	struct fabtool_fabric fab;
	unsigned int n, p;
	char *pos[2];
	int64_t off;
	int rc, idx;

	rc = fabtool_getopt(argc, argv, fabtool_fmt_opts, fabtool_ports_help, 2, 2, pos, &n,
			    fabtool_fmt_opt, &o);
	if (rc >= 0)
		return rc;
	rc = fabtool_open(pos[0], &fab);
	if (rc >= 0)
		return rc;
	idx = fabtool_find_dev(&fab, pos[1]);
	if (idx < 0) {
		fabtool_close(&fab);
		return FABTOOL_EXIT_FAIL;
	}
	d = &fab.devs[idx];
	memset(rows, 0, sizeof(rows));
	for (p = 0; p < d->nports && p < RTE_DIM(rows); p++) {
		const struct rte_pmd_rio_sim_port_info *pi = &d->ports[p];

		rows[p].pi = pi;
		rows[p].connected = pi->peer_dev >= 0 && (uint32_t)pi->peer_dev < fab.n_devs;
		off = fabtool_err_sts_off(&fab, d->name, p);
		rows[p].have_err_sts = off >= 0 &&
			rte_pmd_rio_sim_fabric_config_read(fab.name, d->name, (uint32_t)off, 4,
							   &rows[p].err_sts) == 0;
	}
	if (o.fmt == FABTOOL_FMT_JSON)
		fabtool_ports_json(&fab, d, rows);
	else
		fabtool_ports_text(&fab, d, rows);
	fabtool_close(&fab);
	return FABTOOL_EXIT_OK;
}
