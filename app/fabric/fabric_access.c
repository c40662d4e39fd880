/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/* read, write and link: register access and link fault injection. */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_rio_regs.h>

#include "fabric_tool.h"

/* Hop count for endpoint targets: pass through any number of switches. */
#define FABTOOL_HOP_THROUGH	0xff

/* ------------------------------------------------------------------ */
/* read / write                                                       */

static const char fabtool_read_help[] =
	"Usage: " FABTOOL_PROG " read <fabric> <device> <offset> [--size 8|16|32]\n"
	"                       [--via <endpoint> [--destid N] [--hop N]]\n"
	"\n"
	"Read a configuration register of <device> (a name or #<index>) and print it\n"
	"in hexadecimal. <offset> is a byte offset in the 16 MiB maintenance space,\n"
	"aligned to the access size (default 32 bits).\n"
	"Without --via the access is a backdoor one (no routing, like JTAG). With\n"
	"--via it is a maintenance transaction issued by that endpoint, routed by\n"
	"hop count and route tables like any other. --destid defaults to the\n"
	"target endpoint's device ID; --hop to the number of switches before the\n"
	"target switch on the shortest path (255 for endpoints). A switch behind\n"
	"other switches needs --destid: the ID of a device routed through it.\n";

static const char fabtool_write_help[] =
	"Usage: " FABTOOL_PROG " write <fabric> <device> <offset> <value> [--size 8|16|32]\n"
	"                        [--via <endpoint> [--destid N] [--hop N]]\n"
	"\n"
	"Write <value> (no wider than the access size) to a configuration register of\n"
	"<device>. Options as for 'read' ('" FABTOOL_PROG " read --help').\n";

struct fabtool_access {
	bool write;
	uint32_t size;		/* bytes: 1, 2, 4 */
	const char *via;
	bool have_destid, have_hop;
	uint32_t destid, hop;
};

static int
fabtool_access_opt(int opt, const char *arg, void *ctx)
{
	struct fabtool_access *a = ctx;
	uint32_t bits;
	int rc;

	switch (opt) {
	case 's':
		rc = fabtool_parse_u32("size", arg, 32, &bits);
		if (rc >= 0)
			return rc;
		if (bits != 8 && bits != 16 && bits != 32)
			return fabtool_usage("bad size '%s': expected 8, 16 or 32", arg);
		a->size = bits / 8;
		return -1;
	case 'v':
		a->via = arg;
		return -1;
	case 'd':
		a->have_destid = true;
		return fabtool_parse_u32("destid", arg, 0xffff, &a->destid);
	case 'o':
		a->have_hop = true;
		return fabtool_parse_u32("hop count", arg, 0xff, &a->hop);
	}
	return -1;
}

/* Physical distance in links from endpoint @from to device @to, -1 if none. */
static int
fabtool_distance(const struct fabtool_fabric *fab, uint32_t from, uint32_t to)
{
	uint32_t *queue, *dist, head = 0, tail = 0, cur;
	unsigned int p;
	int rc = -1;

	queue = calloc(fab->n_devs, sizeof(*queue));
	dist = malloc(fab->n_devs * sizeof(*dist));
	if (queue == NULL || dist == NULL)
		goto out;
	memset(dist, 0xff, fab->n_devs * sizeof(*dist));
	dist[from] = 0;
	queue[tail++] = from;
	while (head < tail) {
		cur = queue[head++];
		if (cur == to) {
			rc = (int)dist[cur];
			break;
		}
		/* Packets cross switches only: an endpoint other than the source ends a path. */
		if (cur != from && fab->devs[cur].type != RTE_PMD_RIO_SIM_DEV_SWITCH)
			continue;
		for (p = 0; p < fab->devs[cur].nports; p++) {
			int32_t peer = fab->devs[cur].ports[p].peer_dev;

			if (peer < 0 || (uint32_t)peer >= fab->n_devs || dist[peer] != UINT32_MAX)
				continue;
			dist[peer] = dist[cur] + 1;
			queue[tail++] = (uint32_t)peer;
		}
	}
out:
	free(queue);
	free(dist);
	return rc;
}

/* Fill in destid and hop count of a routed access; returns an exit status or -1. */
static int
fabtool_route_defaults(const struct fabtool_fabric *fab, struct fabtool_access *a, int via,
		       int target)
{
	const struct rte_pmd_rio_sim_dev_info *t = &fab->devs[target];
	int32_t destid;
	int dist;

	if (fab->devs[via].type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
		return fabtool_fail("--via %s: not an endpoint", fab->devs[via].name);
	if (a->have_destid && a->destid > (uint32_t)RTE_RIO_ANY_DESTID(fab->st.devid_size))
		return fabtool_usage("bad destid %#x: fabric %s uses %u-bit device IDs",
				     a->destid, fab->name, fab->st.devid_size);
	if (t->type == RTE_PMD_RIO_SIM_DEV_ENDPOINT) {
		if (!a->have_hop)
			a->hop = FABTOOL_HOP_THROUGH;
		if (!a->have_destid) {
			destid = fabtool_destid(fab, t);
			if (destid < 0)
				return fabtool_fail("endpoint %s has no device ID yet: give --destid",
						    t->name);
			a->destid = (uint32_t)destid;
		}
		return -1;
	}
	if (!a->have_hop) {
		dist = fabtool_distance(fab, (uint32_t)via, (uint32_t)target);
		if (dist < 1)
			return fabtool_fail("switch %s cannot be reached from %s: give --hop",
					    t->name, fab->devs[via].name);
		a->hop = (uint32_t)dist - 1;
	}
	if (!a->have_destid) {
		if (a->hop > 0)
			return fabtool_fail("switch %s is %u hops away from %s: give --destid",
					    t->name, a->hop, fab->devs[via].name);
		a->destid = 0;	/* consumed by the first switch: the ID is not looked at */
	}
	return -1;
}

static int
fabtool_access_error(const struct fabtool_fabric *fab, const struct fabtool_access *a,
		     const char *dev, uint32_t off, int rc)
{
	const char *what = a->write ? "write" : "read";

	switch (rc) {
	case -EFAULT:
		return fabtool_fail("offset %#x is not aligned to the %u-byte access size",
				    off, a->size);
	case -ERANGE:
		return fabtool_fail("offset %#x is out of range (maintenance space 0..%#x)",
				    off, RTE_RIO_MAINT_SPACE_SZ - 1);
	case -ETIMEDOUT:
		return fabtool_fail("maintenance %s of %s from %s (destid %#x, hop %u) timed out: "
				    "request or response dropped", what, dev, a->via, a->destid,
				    a->hop);
	case -ENOENT:
		return fabtool_fail("fabric %s has no device '%s'", fab->name, dev);
	case -EACCES:
		return fabtool_fail("%s may not issue requests: no Master Enable in its Port "
				    "General Control (set it, or enumerate the fabric)", a->via);
	case -EIO:
		return fabtool_fail("maintenance %s of %s at %#x: ERROR response", what, dev, off);
	case -EINVAL:
		if (a->via != NULL && a->size != 4)
			return fabtool_fail("maintenance transactions are 4 bytes: --size %u is "
					    "for backdoor accesses only", a->size);
		return fabtool_fail("%s of %s at %#x failed: %s", what, dev, off, strerror(-rc));
	default:
		return fabtool_fail("%s of %s at %#x failed: %s", what, dev, off, strerror(-rc));
	}
}

static int
fabtool_access(int argc, char **argv, bool write)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "via", required_argument, NULL, 'v' },
		{ "destid", required_argument, NULL, 'd' },
		{ "hop", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fabtool_access a = { .write = write, .size = 4 };
	struct fabtool_fabric fab = { .name = NULL };
	uint32_t off, val = 0;
	unsigned int n;
	char *pos[4];
	int rc, target, via;

	rc = fabtool_getopt(argc, argv, opts, write ? fabtool_write_help : fabtool_read_help,
			    write ? 4 : 3, write ? 4 : 3, pos, &n, fabtool_access_opt, &a);
	if (rc >= 0)
		return rc;
	rc = fabtool_parse_u32("offset", pos[2], UINT32_MAX, &off);
	if (rc >= 0)
		return rc;
	if (write) {
		rc = fabtool_parse_u32("value", pos[3],
				       a.size == 4 ? UINT32_MAX : (1u << (8 * a.size)) - 1, &val);
		if (rc >= 0)
			return rc;
	}
	if ((a.have_destid || a.have_hop) && a.via == NULL)
		return fabtool_usage("--destid and --hop need --via");
	rc = fabtool_open(pos[0], &fab);
	if (rc >= 0)
		return rc;
	target = fabtool_find_dev(&fab, pos[1]);
	if (target < 0) {
		rc = FABTOOL_EXIT_FAIL;
		goto out;
	}
	if (a.via == NULL) {
		rc = write ? rte_pmd_rio_sim_fabric_config_write(fab.name, pos[1], off,
								 (int)a.size, val) :
			rte_pmd_rio_sim_fabric_config_read(fab.name, pos[1], off, (int)a.size,
							   &val);
	} else {
		via = fabtool_find_dev(&fab, a.via);
		if (via < 0) {
			rc = FABTOOL_EXIT_FAIL;
			goto out;
		}
		rc = fabtool_route_defaults(&fab, &a, via, target);
		if (rc >= 0)
			goto out;
		rc = rte_pmd_rio_sim_fabric_maint(fab.name, a.via, (uint16_t)a.destid,
						  (uint8_t)a.hop, write, off, (int)a.size, &val);
	}
	if (rc != 0) {
		rc = fabtool_access_error(&fab, &a, pos[1], off, rc);
		goto out;
	}
	if (!write)
		printf("0x%0*x\n", (int)a.size * 2, val);
	rc = FABTOOL_EXIT_OK;
out:
	fabtool_close(&fab);
	return rc;
}

int
fabtool_cmd_read(int argc, char **argv)
{
	return fabtool_access(argc, argv, false);
}

int
fabtool_cmd_write(int argc, char **argv)
{
	return fabtool_access(argc, argv, true);
}

/* ------------------------------------------------------------------ */
/* link                                                               */

static const char fabtool_link_help[] =
	"Usage: " FABTOOL_PROG " link <fabric> <device> <port> up|down\n"
	"\n"
	"Take the link on <port> of <device> down or bring it back up, at both ends,\n"
	"like pulling or plugging a cable. Switches report the change with an\n"
	"error-management port-write to their port-write target.\n";

int
fabtool_cmd_link(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fabtool_fabric fab;
	const struct rte_pmd_rio_sim_dev_info *d;
	uint32_t port;
	unsigned int n;
	char *pos[4];
	bool up;
	int rc, idx;

	rc = fabtool_getopt(argc, argv, opts, fabtool_link_help, 4, 4, pos, &n, NULL, NULL);
	if (rc >= 0)
		return rc;
	rc = fabtool_parse_u32("port", pos[2], RTE_PMD_RIO_SIM_FABRIC_MAX_PORTS - 1, &port);
	if (rc >= 0)
		return rc;
	if (strcmp(pos[3], "up") == 0)
		up = true;
	else if (strcmp(pos[3], "down") == 0)
		up = false;
	else
		return fabtool_usage("bad link state '%s': expected up or down", pos[3]);
	rc = fabtool_open(pos[0], &fab);
	if (rc >= 0)
		return rc;
	idx = fabtool_find_dev(&fab, pos[1]);
	if (idx < 0) {
		rc = FABTOOL_EXIT_FAIL;
		goto out;
	}
	d = &fab.devs[idx];
	if (port >= d->nports) {
		rc = fabtool_fail("device %s has no port %u (ports 0..%u)", d->name, port,
				  d->nports - 1u);
		goto out;
	}
	rc = rte_pmd_rio_sim_fabric_link_set(fab.name, d->name, (uint8_t)port, up);
	if (rc == -ENOTCONN)
		rc = fabtool_fail("port %u of %s is not connected", port, d->name);
	else if (rc != 0)
		rc = fabtool_fail("link %s.%u %s: %s", d->name, port, up ? "up" : "down",
				  strerror(-rc));
	else
		rc = FABTOOL_EXIT_OK;
out:
	fabtool_close(&fab);
	return rc;
}
