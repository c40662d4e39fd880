/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dev_selftest of a rio_sim rawdev (rte_rawdev_selftest(), dpdk-test's
 * rawdev_autotest): a second device on the same fabric, doorbells and
 * messages both ways.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bus_vdev_driver.h>
#include <rte_common.h>
#include <rte_cycles.h>

#include "rio_sim_rawdev.h"

/* ------------------------------------------------------------------ */
/* Selftest                                                           */

#define RIO_SIM_ST_FAIL(...) do { \
	SIM_LOG(ERR, "selftest: " __VA_ARGS__); \
	ret = -1; \
	goto out; \
} while (0)

struct rio_sim_st_dbell {
	unsigned int count;
	struct rte_rio_dbell last;
};

static void
rio_sim_st_dbell_cb(struct rte_rio_mport *mport __rte_unused, void *arg,
		    const struct rte_rio_dbell *db)
{
	struct rio_sim_st_dbell *s = arg;

	s->count++;
	s->last = *db;
}

/* Check the device under test: it answers local config reads coherently. */
static int
rio_sim_st_check_dev(uint16_t dev_id)
{
	struct rte_pmd_rio_sim_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };
	struct rio_sim_rawdev *sd;
	struct rte_rawdev *dev;
	uint32_t v = 0;
	int ret;

	if (!rte_rawdev_pmd_is_valid_dev(dev_id) ||
	    rte_rawdevs[dev_id].dev_ops != &rio_sim_rawdev_ops) {
		SIM_LOG(ERR, "selftest: rawdev %u is not a rio_sim device", dev_id);
		return -1;
	}
	dev = &rte_rawdevs[dev_id];
	sd = rio_sim_priv(dev);
	ret = rte_rawdev_info_get(dev_id, &ri, sizeof(info));
	if (ret != 0) {
		SIM_LOG(ERR, "selftest: info_get: %d", ret);
		return -1;
	}
	ret = rte_rio_local_read_config_32(sd->mport, RTE_RIO_DEV_ID_CAR, &v);
	if (ret != 0 || v != sd->fabric->devs[sd->dev_index].dev_id) {
		SIM_LOG(ERR, "selftest: %s: Device Identity CAR read %d, 0x%08x", dev->name,
			ret, v);
		return -1;
	}
	ret = rte_rio_mport_destid(sd->mport);
	if (ret < 0 || ret != info.destid) {
		SIM_LOG(ERR, "selftest: %s: destid %d, info says %u", dev->name, ret,
			info.destid);
		return -1;
	}
	return 0;
}

int
rio_sim_dev_selftest(uint16_t dev_id)
{
	static unsigned int st_seq;
	char fabric[SIM_NAME_MAX], name_a[RTE_RAWDEV_NAME_MAX_LEN];
	char name_b[RTE_RAWDEV_NAME_MAX_LEN], args[128];
	static const uint16_t sizes[] = { RTE_RIO_MIN_MSG_SIZE, RTE_RIO_MAX_MSG_SIZE };
	struct rio_sim_st_dbell dbs = { 0 };
	struct rte_rio_mport *a = NULL, *b = NULL;
	bool a_up = false, b_up = false;
	uint8_t *tx = NULL, *rx = NULL;
	void *buf;
	int destid_a, destid_b;
	unsigned int i, j, k;
	uint16_t src;
	size_t len;
	int ret = 0;

	if (!rte_rawdev_pmd_is_valid_dev(dev_id) ||
	    rte_rawdevs[dev_id].dev_ops != &rio_sim_rawdev_ops)
		return -EINVAL;
	if (rio_sim_st_check_dev(dev_id) != 0)
		return -1;

	snprintf(fabric, sizeof(fabric), "rio_st%d_%u", (int)getpid(), st_seq++);
	snprintf(name_a, sizeof(name_a), "rio_sim_%s_a", fabric);
	snprintf(name_b, sizeof(name_b), "rio_sim_%s_b", fabric);
	tx = malloc(RTE_RIO_MAX_MSG_SIZE);
	rx = malloc(2 * RTE_RIO_MAX_MSG_SIZE);
	if (tx == NULL || rx == NULL)
		RIO_SIM_ST_FAIL("out of memory");

	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=0", fabric,
		 RTE_PMD_RIO_SIM_DEFAULT_TOPOLOGY);
	if (rte_vdev_init(name_a, args) != 0)
		RIO_SIM_ST_FAIL("cannot create %s (%s)", name_a, args);
	a_up = true;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=1", fabric);
	if (rte_vdev_init(name_b, args) != 0)
		RIO_SIM_ST_FAIL("cannot create %s (%s)", name_b, args);
	b_up = true;
	a = rte_rio_mport_find(name_a);
	b = rte_rio_mport_find(name_b);
	if (a == NULL || b == NULL)
		RIO_SIM_ST_FAIL("mports not registered");
	if (rio_sim_st_check_dev(rte_rawdev_pmd_get_named_dev(name_a)->dev_id) != 0 ||
	    rio_sim_st_check_dev(rte_rawdev_pmd_get_named_dev(name_b)->dev_id) != 0)
		RIO_SIM_ST_FAIL("config reads of the private endpoints");
	destid_a = rte_rio_mport_destid(a);
	destid_b = rte_rio_mport_destid(b);
	if (destid_a < 0 || destid_b < 0 || destid_a == destid_b)
		RIO_SIM_ST_FAIL("device IDs %d and %d", destid_a, destid_b);

	/* Doorbell a -> b. */
	ret = rte_rio_request_inb_dbell(b, 0x0000, 0xffff, rio_sim_st_dbell_cb, &dbs);
	if (ret != 0)
		RIO_SIM_ST_FAIL("request_inb_dbell: %d", ret);
	ret = rte_rio_send_doorbell(a, destid_b, 0x5a5a);
	if (ret != 0)
		RIO_SIM_ST_FAIL("send_doorbell: %d", ret);
	for (i = 0; i < 1000 && dbs.count == 0; i++)
		if (rte_rio_dbell_poll(b, 16) == 0)
			rte_delay_us_sleep(100);
	if (dbs.count != 1 || dbs.last.info != 0x5a5a || dbs.last.src != destid_a)
		RIO_SIM_ST_FAIL("doorbell: %u received, info 0x%x src %u", dbs.count,
				dbs.last.info, dbs.last.src);

	/* Messages of 8 and 4096 bytes a -> b on mailbox 0. */
	ret = rte_rio_request_outb_mbox(a, 0, 8);
	if (ret == 0)
		ret = rte_rio_request_inb_mbox(b, 0, 8);
	if (ret != 0)
		RIO_SIM_ST_FAIL("request mailboxes: %d", ret);
	for (i = 0; i < 2; i++) {
		ret = rte_rio_add_inb_buffer(b, 0, rx + i * RTE_RIO_MAX_MSG_SIZE);
		if (ret != 0)
			RIO_SIM_ST_FAIL("add_inb_buffer: %d", ret);
	}
	for (k = 0; k < RTE_DIM(sizes); k++) {
		for (j = 0; j < sizes[k]; j++)
			tx[j] = (uint8_t)(j * 7 + k + 1);
		ret = rte_rio_add_outb_message(a, destid_b, 0, 0, tx, sizes[k]);
		if (ret != 0)
			RIO_SIM_ST_FAIL("send %u bytes: %d", sizes[k], ret);
		buf = NULL;
		for (i = 0; i < 1000 && buf == NULL; i++) {
			buf = rte_rio_get_inb_message(b, 0, &len, &src);
			if (buf == NULL)
				rte_delay_us_sleep(100);
		}
		if (buf == NULL)
			RIO_SIM_ST_FAIL("message of %u bytes not received", sizes[k]);
		if (len != sizes[k] || src != destid_a || memcmp(buf, tx, len) != 0)
			RIO_SIM_ST_FAIL("message of %u bytes: got %zu bytes from %u", sizes[k],
					len, src);
		ret = rte_rio_add_inb_buffer(b, 0, buf);
		if (ret != 0)
			RIO_SIM_ST_FAIL("repost buffer: %d", ret);
	}
	SIM_LOG(INFO, "selftest: %s: doorbell and messages of 8 and 4096 bytes OK",
		rte_rawdevs[dev_id].name);
	ret = 0;
out:
	if (b != NULL) {
		rte_rio_release_inb_mbox(b, 0);
		rte_rio_release_inb_dbell(b, 0x0000, 0xffff);
	}
	if (a != NULL)
		rte_rio_release_outb_mbox(a, 0);
	if (b_up && rte_vdev_uninit(name_b) != 0)
		ret = -1;
	if (a_up && rte_vdev_uninit(name_a) != 0)
		ret = -1;
	if (sim_fabric_objects(fabric, false) != 0) {
		SIM_LOG(ERR, "selftest: fabric %s left shared memory behind", fabric);
		sim_fabric_destroy(fabric);
		ret = -1;
	}
	free(tx);
	free(rx);
	return ret;
}
