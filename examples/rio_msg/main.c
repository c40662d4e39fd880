/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_msg: the smallest RapidIO messaging program.
 *
 * One process opens two master ports on an emulated fabric (two rio_sim
 * vdevs, i.e. two endpoints behind one switch), claims an inbound doorbell
 * range and mailbox 0 on each, says hello with a JOIN doorbell, exchanges
 * messages of several sizes in both directions, says LEAVE, and checks that
 * everything arrived intact.
 *
 * Usage:
 *   dpdk-rio-msg <EAL args> [-- --fabric <name>]
 * The fabric defaults to rio_msg_<pid> so runs never collide. With two or
 * more rio_sim vdevs given on the EAL command line (--vdev rio_sim0 ...),
 * the first two are used instead and no vdev is created.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_rawdev.h>

#include "rte_pmd_rio_sim.h"
#include "rte_rio.h"

#define MSG_DBELL_JOIN	0x1000	/* same doorbells as Linux rionet */
#define MSG_DBELL_LEAVE	0x1001
#define MSG_MBOX	0
#define MSG_RING	64
#define MSG_POLL_TRIES	5000	/* x 100 us */
#define MSG_NODES	2

static const uint16_t msg_sizes[] = { 8, 64, 1500, 4096 };

struct msg_node {
	char name[64];		/* rawdev and mport name */
	bool created;		/* by us, with rte_vdev_init() */
	uint16_t dev_id;
	struct rte_rio_mport *mport;
	struct rte_pmd_rio_sim_info info;
	unsigned int joins;	/* JOIN doorbells seen */
	unsigned int leaves;	/* LEAVE doorbells seen */
	uint16_t join_src;
	void *rx_bufs[MSG_RING];
	bool mbox_in, mbox_out, dbell;
};

static struct msg_node msg_nodes[MSG_NODES];

static void
msg_dbell_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	struct msg_node *n = arg;

	printf("  %s: doorbell 0x%04x (%s) from destid %u\n", rte_rio_mport_name(mport),
	       db->info, db->info == MSG_DBELL_JOIN ? "JOIN" : "LEAVE", db->src);
	if (db->info == MSG_DBELL_JOIN) {
		n->joins++;
		n->join_src = db->src;
	} else {
		n->leaves++;
	}
}

/* Find (or create) the two rio_sim rawdevs. */
static int
msg_open_nodes(const char *fabric)
{
	struct rte_rawdev_info ri;
	unsigned int found = 0, i;
	char args[128];
	uint16_t id;

	/* Devices given with --vdev have ids 0..count-1 right after EAL init. */
	for (id = 0; id < rte_rawdev_count() && found < MSG_NODES; id++) {
		memset(&ri, 0, sizeof(ri));
		if (rte_rawdev_info_get(id, &ri, 0) != 0 || ri.driver_name == NULL ||
		    strcmp(ri.driver_name, RTE_PMD_RIO_SIM_DRIVER_NAME) != 0)
			continue;
		msg_nodes[found].dev_id = id;
		snprintf(msg_nodes[found].name, sizeof(msg_nodes[found].name), "%s",
			 rte_dev_name(ri.device));
		found++;
	}
	if (found < MSG_NODES) {
		/* Not enough on the command line: create both on a fabric of our own. */
		found = 0;
		for (i = 0; i < MSG_NODES; i++) {
			struct msg_node *n = &msg_nodes[i];

			snprintf(n->name, sizeof(n->name), "rio_sim_%s_%u", fabric, i);
			snprintf(args, sizeof(args),
				 "fabric=%s,topology=builtin:default,endpoint=ep%u", fabric, i);
			if (rte_vdev_init(n->name, args) != 0) {
				fprintf(stderr, "rio_msg: cannot create %s (%s)\n", n->name, args);
				return -1;
			}
			n->created = true;
			if (rte_rawdev_get_dev_id(n->name) >= RTE_RAWDEV_MAX_DEVS)
				return -1;
			n->dev_id = rte_rawdev_get_dev_id(n->name);
		}
	}
	for (i = 0; i < MSG_NODES; i++) {
		struct msg_node *n = &msg_nodes[i];

		memset(&ri, 0, sizeof(ri));
		ri.dev_private = &n->info;
		if (rte_rawdev_info_get(n->dev_id, &ri, sizeof(n->info)) != 0)
			return -1;
		n->mport = rte_pmd_rio_sim_mport(n->dev_id);
		if (n->mport == NULL)
			return -1;
		printf("%s: fabric %s, endpoint %s, destid %u, %s, link %s\n", n->name,
		       n->info.fabric, n->info.endpoint, n->info.destid,
		       n->info.host_destid >= 0 ? "host" : "agent",
		       n->info.link_up ? "up" : "down");
	}
	return 0;
}

/* Claim the doorbell range and mailbox 0 in both directions, post buffers. */
static int
msg_claim(struct msg_node *n)
{
	unsigned int i;
	int ret;

	ret = rte_rio_request_inb_dbell(n->mport, MSG_DBELL_JOIN, MSG_DBELL_LEAVE,
					msg_dbell_cb, n);
	if (ret != 0)
		goto err;
	n->dbell = true;
	ret = rte_rio_request_inb_mbox(n->mport, MSG_MBOX, MSG_RING);
	if (ret != 0)
		goto err;
	n->mbox_in = true;
	ret = rte_rio_request_outb_mbox(n->mport, MSG_MBOX, MSG_RING);
	if (ret != 0)
		goto err;
	n->mbox_out = true;
	for (i = 0; i < MSG_RING; i++) {
		n->rx_bufs[i] = malloc(RTE_RIO_MAX_MSG_SIZE);
		if (n->rx_bufs[i] == NULL)
			return -ENOMEM;
	}
	if (rte_rio_add_inb_buffers(n->mport, MSG_MBOX, n->rx_bufs, MSG_RING) != MSG_RING) {
		ret = -ENOSPC;
		goto err;
	}
	return 0;
err:
	fprintf(stderr, "rio_msg: %s: cannot claim resources: %s\n", n->name, strerror(-ret));
	return ret;
}

static void
msg_release(struct msg_node *n)
{
	unsigned int i;

	if (n->mport != NULL) {
		if (n->mbox_in)
			rte_rio_release_inb_mbox(n->mport, MSG_MBOX);
		if (n->mbox_out)
			rte_rio_release_outb_mbox(n->mport, MSG_MBOX);
		if (n->dbell)
			rte_rio_release_inb_dbell(n->mport, MSG_DBELL_JOIN, MSG_DBELL_LEAVE);
	}
	for (i = 0; i < MSG_RING; i++)
		free(n->rx_bufs[i]);
	if (n->created)
		rte_vdev_uninit(n->name);
}

/* Send one doorbell to every other node and wait until each has seen it. */
static int
msg_doorbells(uint16_t info)
{
	unsigned int i, t, want;

	for (i = 0; i < MSG_NODES; i++) {
		struct msg_node *peer = &msg_nodes[(i + 1) % MSG_NODES];
		int ret = rte_rio_send_doorbell(msg_nodes[i].mport, peer->info.destid, info);

		printf("%s -> %s: doorbell 0x%04x: %s\n", msg_nodes[i].name, peer->name, info,
		       ret == 0 ? "sent" : strerror(-ret));
		if (ret != 0)
			return ret;
	}
	for (t = 0; t < MSG_POLL_TRIES; t++) {
		want = 0;
		for (i = 0; i < MSG_NODES; i++) {
			struct msg_node *n = &msg_nodes[i];

			rte_rio_dbell_poll(n->mport, 16);
			if ((info == MSG_DBELL_JOIN ? n->joins : n->leaves) == 0)
				want++;
		}
		if (want == 0)
			return 0;
		rte_delay_us_sleep(100);
	}
	fprintf(stderr, "rio_msg: doorbell 0x%04x did not arrive everywhere\n", info);
	return -ETIMEDOUT;
}

/* Send a message of @len bytes from @src to @dst and check what arrives. */
static int
msg_exchange(struct msg_node *src, struct msg_node *dst, uint16_t len, unsigned int seq)
{
	uint8_t tx[RTE_RIO_MAX_MSG_SIZE];
	uint16_t from = 0;
	unsigned int i, t;
	size_t rlen = 0;
	void *buf = NULL;
	int ret;

	for (i = 0; i < len; i++)
		tx[i] = (uint8_t)(seq * 31 + i + src->info.destid);
	ret = rte_rio_add_outb_message(src->mport, dst->info.destid, MSG_MBOX, 0, tx, len);
	if (ret != 0) {
		printf("%s -> %s: %4u bytes: send failed: %s\n", src->name, dst->name, len,
		       strerror(-ret));
		return ret;
	}
	for (t = 0; t < MSG_POLL_TRIES && buf == NULL; t++) {
		buf = rte_rio_get_inb_message(dst->mport, MSG_MBOX, &rlen, &from);
		if (buf == NULL)
			rte_delay_us_sleep(100);
	}
	if (buf == NULL) {
		printf("%s -> %s: %4u bytes: LOST\n", src->name, dst->name, len);
		return -ETIMEDOUT;
	}
	/* A payload crosses the fabric in whole double-words: padded with zeros. */
	memset(tx + len, 0, RTE_ALIGN_CEIL(len, 8u) - len);
	ret = (rlen == (size_t)RTE_ALIGN_CEIL(len, 8u) && from == src->info.destid &&
	       memcmp(buf, tx, rlen) == 0) ? 0 : -EIO;
	printf("%s (destid %u) -> %s (destid %u): mailbox %u, %4u bytes sent, "
	       "%4zu received from %u: %s\n", src->name, src->info.destid, dst->name,
	       dst->info.destid, MSG_MBOX, len, rlen, from, ret == 0 ? "OK" : "CORRUPT");
	/* Give the buffer back to the mailbox. */
	if (rte_rio_add_inb_buffer(dst->mport, MSG_MBOX, buf) != 0)
		ret = -ENOSPC;
	return ret;
}

static int
msg_parse_args(int argc, char **argv, char *fabric, size_t len)
{
	static const struct option opts[] = {
		{ "fabric", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	snprintf(fabric, len, "rio_msg_%d", (int)getpid());
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strlen(optarg) == 0 || strlen(optarg) >= len) {
				fprintf(stderr, "rio_msg: --fabric: 1..%zu characters\n", len - 1);
				return -1;
			}
			snprintf(fabric, len, "%s", optarg);
			break;
		default:
			fprintf(stderr, "usage: %s <EAL args> [-- --fabric <name>]\n", argv[0]);
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "rio_msg: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char fabric[RTE_PMD_RIO_SIM_NAME_LEN];
	unsigned int i, k, sent = 0, ok = 0;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rio_msg: cannot initialize EAL\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (msg_parse_args(argc, argv, fabric, sizeof(fabric)) != 0) {
		rte_eal_cleanup();
		return 2;
	}

	ret = -1;
	if (msg_open_nodes(fabric) != 0)
		goto out;
	for (i = 0; i < MSG_NODES; i++)
		if (msg_claim(&msg_nodes[i]) != 0)
			goto out;
	if (msg_doorbells(MSG_DBELL_JOIN) != 0)
		goto out;
	for (k = 0; k < RTE_DIM(msg_sizes); k++) {
		for (i = 0; i < MSG_NODES; i++) {
			sent++;
			if (msg_exchange(&msg_nodes[i], &msg_nodes[(i + 1) % MSG_NODES],
					 msg_sizes[k], k) == 0)
				ok++;
		}
	}
	if (msg_doorbells(MSG_DBELL_LEAVE) != 0)
		goto out;
	printf("rio_msg: %u of %u messages arrived intact, JOIN and LEAVE seen by every port\n",
	       ok, sent);
	ret = ok == sent ? 0 : -1;
out:
	for (i = 0; i < MSG_NODES; i++)
		msg_release(&msg_nodes[i]);
	rte_eal_cleanup();
	printf("rio_msg: %s\n", ret == 0 ? "PASSED" : "FAILED");
	return ret == 0 ? 0 : 1;
}
