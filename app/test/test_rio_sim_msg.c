/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rio_sim_msg_autotest: mailbox messages, doorbells and endpoint ownership of
 * the emulated fabric, end to end through the public lib/rio API on mports
 * created with rte_vdev_init("rio_sim...", "fabric=...,endpoint=...").
 *
 * Every case builds its own fabric from a topology file
 *
 *   ep0 (destid 1) -- sw0 -- sw1 -- ep1 (destid 2)     static_routes = 1
 *                       |
 *                      ep2 (destid 3)
 *
 * and checks at teardown that no /dev/shm/rio_sim.<fabric>* object remains.
 *
 * rio_sim_msg_perf_autotest: one-process send/receive rate of 64-byte
 * messages between two mports (prints numbers, never asserts on timing).
 */

#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <rte_rawdev.h>

#include "rte_rio.h"
#include "rte_pmd_rio_sim.h"
#include "rio_sim_shm.h"

#include "test.h"

#define MSG_DESTID_A		1
#define MSG_DESTID_B		2
#define MSG_DESTID_C		3	/* ep2, on sw0, claimed by child processes */
#define MSG_DESTID_NOBODY	7
#define MSG_BURST		32
#define MSG_INB_ENTRIES		256	/* receive buffers posted per mport */
#define MSG_XCHG_COUNT		100000
#define MSG_XCHG_TIMEOUT_S	60
#define MSG_CHILD_WAIT_MS	((MSG_XCHG_TIMEOUT_S + 30) * 1000)
#define MSG_READY_TIMEOUT_MS	30000

/* A fabric with two mports (ep0 = A, ep1 = B) in this process. */
struct msg_env {
	char fabric[RTE_PMD_RIO_SIM_NAME_LEN];
	char topo[64];
	char shm_prefix[64];
	char name[2][32];
	bool created[2];
	struct rte_rio_mport *mp[2];
	uint8_t *bufs[2];		/* MSG_INB_ENTRIES receive buffers per mport */
};

static struct msg_env env;
static unsigned int msg_vdev_counter;

/* ------------------------------------------------------------------ */
/* Fabric and mport set-up                                            */

static int
msg_topo_write(char *path, size_t len, uint32_t mbox_entries)
{
	FILE *fp;
	int fd;

	snprintf(path, len, "/tmp/rio_sim_msg_topo.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		unlink(path);
		return -EIO;
	}
	fprintf(fp,
		"[fabric]\n"
		"devid_size = 8\n"
		"mbox_entries = %u\n"
		"static_routes = 1\n"
		"[switch sw0]\n"
		"ports = 4\n"
		"[switch sw1]\n"
		"ports = 4\n"
		"[endpoint ep0]\n"
		"destid = %d\n"
		"[endpoint ep1]\n"
		"destid = %d\n"
		"[endpoint ep2]\n"
		"destid = %d\n"
		"[links]\n"
		"sw0.0 = ep0.0\n"
		"sw0.1 = sw1.1\n"
		"sw1.0 = ep1.0\n"
		"sw0.2 = ep2.0\n",
		mbox_entries, MSG_DESTID_A, MSG_DESTID_B, MSG_DESTID_C);
	if (fclose(fp) != 0) {
		unlink(path);
		return -EIO;
	}
	return 0;
}

/* Create the vdev for endpoint ep<i> of the current fabric. */
static int
msg_mport_create(unsigned int i)
{
	char args[256];
	int ret;

	snprintf(env.name[i], sizeof(env.name[i]), "rio_sim_msg%u", msg_vdev_counter++);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep%u,scan=0",
		 env.fabric, env.topo, i);
	ret = rte_vdev_init(env.name[i], args);
	if (ret < 0)
		return ret;
	env.created[i] = true;
	env.mp[i] = rte_rio_mport_find(env.name[i]);
	return env.mp[i] == NULL ? -ENODEV : 0;
}

static void
msg_mport_destroy(unsigned int i)
{
	if (env.created[i])
		rte_vdev_uninit(env.name[i]);
	env.created[i] = false;
	env.mp[i] = NULL;
}

/* Open inbound (with every buffer posted) and outbound mailbox mbox of mport i. */
static int
msg_mbox_open(unsigned int i, uint8_t mbox)
{
	unsigned int k;
	int ret;

	ret = rte_rio_request_inb_mbox(env.mp[i], mbox, MSG_INB_ENTRIES);
	if (ret < 0)
		return ret;
	ret = rte_rio_request_outb_mbox(env.mp[i], mbox, MSG_INB_ENTRIES);
	if (ret < 0)
		return ret;
	for (k = 0; k < MSG_INB_ENTRIES; k++) {
		ret = rte_rio_add_inb_buffer(env.mp[i], mbox,
					     env.bufs[i] + (size_t)k * RTE_RIO_MAX_MSG_SIZE);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
msg_env_setup_entries(uint32_t mbox_entries)
{
	int ret;

	memset(&env, 0, sizeof(env));
	if (rio_test_unique("rmsg", env.fabric, sizeof(env.fabric) - 1) == NULL)
		return TEST_FAILED;
	/* The trailing 'x' keeps fabric ..._1 from being a prefix of ..._10. */
	strcat(env.fabric, "x");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	ret = msg_topo_write(env.topo, sizeof(env.topo), mbox_entries);
	TEST_ASSERT_SUCCESS(ret, "cannot write topology file");
	env.bufs[0] = calloc(MSG_INB_ENTRIES, RTE_RIO_MAX_MSG_SIZE);
	env.bufs[1] = calloc(MSG_INB_ENTRIES, RTE_RIO_MAX_MSG_SIZE);
	TEST_ASSERT(env.bufs[0] != NULL && env.bufs[1] != NULL, "out of memory");
	TEST_ASSERT_SUCCESS(msg_mport_create(0), "cannot create mport for ep0");
	TEST_ASSERT_SUCCESS(msg_mport_create(1), "cannot create mport for ep1");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(env.mp[0]), MSG_DESTID_A, "destid of ep0");
	TEST_ASSERT_EQUAL(rte_rio_mport_destid(env.mp[1]), MSG_DESTID_B, "destid of ep1");
	TEST_ASSERT_SUCCESS(msg_mbox_open(0, 0), "cannot open mailboxes of ep0");
	TEST_ASSERT_SUCCESS(msg_mbox_open(1, 0), "cannot open mailboxes of ep1");
	return TEST_SUCCESS;
}

static int
msg_env_setup(void)
{
	return msg_env_setup_entries(SIM_MBOX_ENTRIES_DEF);
}

/* Destroy the environment; returns the number of shared-memory objects left behind. */
static int
msg_env_teardown(void)
{
	int left = 0;

	msg_mport_destroy(1);
	msg_mport_destroy(0);
	if (env.topo[0] != '\0')
		unlink(env.topo);
	env.topo[0] = '\0';
	free(env.bufs[0]);
	free(env.bufs[1]);
	env.bufs[0] = env.bufs[1] = NULL;
	if (env.fabric[0] != '\0')
		left = rio_test_shm_count(env.shm_prefix);
	if (left != 0) {
		printf("  LEAK: %d shared-memory objects /%s* remain after the test\n",
		       left, env.shm_prefix);
		rio_test_shm_cleanup(env.shm_prefix);
	}
	return left;
}

/* Run a case, then tear down: a leak fails the case that made it. */
static int
msg_check_no_leak_after(int (*fn)(void))
{
	int ret = fn();

	if (msg_env_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Message contents                                                   */

static uint16_t
msg_len_of(uint64_t seq)
{
	return RTE_RIO_MIN_MSG_SIZE + (uint16_t)((seq * 13) % 505);
}

static void
msg_fill(uint8_t *buf, uint64_t seq, uint16_t len)
{
	uint16_t i;

	memcpy(buf, &seq, sizeof(seq));
	for (i = sizeof(seq); i < len; i++)
		buf[i] = (uint8_t)(seq * 31 + i * 7);
}

/* 0 if buf holds message seq of length len. */
static int
msg_check(const uint8_t *buf, uint64_t seq, uint16_t len)
{
	uint64_t got;
	uint16_t i;

	memcpy(&got, buf, sizeof(got));
	if (got != seq)
		return -1;
	for (i = sizeof(seq); i < len; i++)
		if (buf[i] != (uint8_t)(seq * 31 + i * 7))
			return -1;
	return 0;
}

/* Receive everything available on mport i, mailbox 0; repost the buffers. */
static uint16_t
msg_recv(unsigned int i, struct rte_rio_msg *rx, uint16_t n)
{
	uint16_t r, k;

	r = rte_rio_recv_messages(env.mp[i], 0, rx, n);
	for (k = 0; k < r; k++)
		if (rte_rio_add_inb_buffer(env.mp[i], 0, rx[k].buf) != 0)
			printf("  cannot repost a receive buffer\n");
	return r;
}

static uint64_t
msg_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int
msg_xstat(const char *mport, const char *name, uint64_t *val)
{
	unsigned int id;
	int dev_id = rte_rawdev_get_dev_id(mport);

	if (dev_id < 0)
		return -ENODEV;
	*val = rte_rawdev_xstats_by_name_get(dev_id, name, &id);
	return id == (unsigned int)-1 ? -ENOENT : 0;
}

/* ------------------------------------------------------------------ */
/* Messages and doorbells across two switches                         */

struct msg_dbell_log {
	unsigned int n;
	struct rte_rio_dbell d[16];
};

static void
msg_dbell_cb(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *dbell)
{
	struct msg_dbell_log *log = arg;

	RTE_SET_USED(mport);
	if (log->n < RTE_DIM(log->d))
		log->d[log->n] = *dbell;
	log->n++;
}

static int
msg_case_two_switches(void)
{
	static uint8_t tx_buf[MSG_BURST][RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_msg tx[MSG_BURST], rx[MSG_BURST];
	struct msg_dbell_log log = { 0 };
	uint64_t tx0 = 0, rx0 = 0, tx1 = 0, rx1 = 0;
	uint16_t i, n, r;
	int64_t done;

	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "port0_tx_pkts", &tx0), "xstat");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "port0_rx_pkts", &rx0), "xstat");

	/* A -> B: one burst, letters 0..3, exact lengths, source and destination IDs. */
	for (i = 0; i < MSG_BURST; i++) {
		msg_fill(tx_buf[i], i, msg_len_of(i));
		tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i], .len = msg_len_of(i),
			.destid = MSG_DESTID_B, .letter = i % RTE_RIO_MAX_LETTER };
	}
	n = rte_rio_send_messages(env.mp[0], 0, tx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, MSG_BURST, "burst not accepted (status %d)",
			  n < MSG_BURST ? tx[n].status : 0);
	for (i = 0; i < MSG_BURST; i++)
		TEST_ASSERT_EQUAL(tx[i].status, 0, "status of message %u", i);
	done = rte_rio_outb_completions(env.mp[0], 0);
	TEST_ASSERT_EQUAL(done, MSG_BURST, "completions");
	/* Every message counts once on the sender's and the receiver's link. */
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "port0_tx_pkts", &tx1), "xstat");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "port0_rx_pkts", &rx1), "xstat");
	TEST_ASSERT_EQUAL(tx1 - tx0, MSG_BURST, "port0_tx_pkts of the sender");
	TEST_ASSERT_EQUAL(rx1 - rx0, MSG_BURST, "port0_rx_pkts of the receiver");
	TEST_ASSERT_EQUAL(rte_rio_outb_completions(env.mp[0], 0), 0, "completions twice");

	r = msg_recv(1, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(r, MSG_BURST, "received");
	for (i = 0; i < r; i++) {
		TEST_ASSERT_EQUAL(rx[i].len, msg_len_of(i), "length of message %u", i);
		TEST_ASSERT_SUCCESS(msg_check(rx[i].buf, i, rx[i].len), "content of %u", i);
		TEST_ASSERT_EQUAL(rx[i].srcid, MSG_DESTID_A, "srcid");
		TEST_ASSERT_EQUAL(rx[i].destid, MSG_DESTID_B, "destid");
		TEST_ASSERT_EQUAL(rx[i].mbox, 0, "mbox");
		TEST_ASSERT_EQUAL(rx[i].letter, i % RTE_RIO_MAX_LETTER, "letter");
	}
	TEST_ASSERT_EQUAL(msg_recv(1, rx, MSG_BURST), 0, "nothing more may arrive");
	TEST_ASSERT_EQUAL(msg_recv(0, rx, MSG_BURST), 0, "nothing may arrive at the sender");

	/* B -> A with the convenience calls. */
	msg_fill(tx_buf[0], 77, 100);
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[1], MSG_DESTID_A, 0, 2,
						     tx_buf[0], 100), "B -> A");
	{
		size_t len = 0;
		uint16_t src = 0;
		void *b = rte_rio_get_inb_message(env.mp[0], 0, &len, &src);

		TEST_ASSERT_NOT_NULL(b, "B -> A not received");
		TEST_ASSERT_EQUAL(len, 100, "length");
		TEST_ASSERT_EQUAL(src, MSG_DESTID_B, "src");
		TEST_ASSERT_SUCCESS(msg_check(b, 77, 100), "content");
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[0], 0, b), "repost");
	}

	/* Doorbells A -> B, delivered in order to the range owner. */
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_dbell(env.mp[1], 0x1000, 0x10ff,
						      msg_dbell_cb, &log), "inbound range");
	for (i = 0; i < 5; i++)
		TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(env.mp[0], MSG_DESTID_B, 0x1000 + i),
				    "doorbell %u", i);
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(env.mp[1], 64), 5, "doorbells fetched");
	TEST_ASSERT_EQUAL(log.n, 5, "doorbells delivered");
	for (i = 0; i < 5; i++) {
		TEST_ASSERT_EQUAL(log.d[i].info, 0x1000 + i, "doorbell order");
		TEST_ASSERT_EQUAL(log.d[i].src, MSG_DESTID_A, "doorbell src");
		TEST_ASSERT_EQUAL(log.d[i].dst, MSG_DESTID_B, "doorbell dst");
	}
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(env.mp[1], 64), 0, "no more doorbells");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(env.mp[0], 64), 0, "none at the sender");
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_dbell(env.mp[1], 0x1000, 0x10ff), "release");
	return TEST_SUCCESS;
}

static int
test_msg_two_switches(void)
{
	return msg_check_no_leak_after(msg_case_two_switches);
}

/* ------------------------------------------------------------------ */
/* Wrong routes                                                       */

static int
msg_case_wrong_route(void)
{
	struct rte_rio_msg tx, rx[4];
	uint8_t buf[64];
	uint64_t st = 0;
	uint32_t v = 0;

	msg_fill(buf, 1, sizeof(buf));
	tx = (struct rte_rio_msg){ .buf = buf, .len = sizeof(buf), .destid = MSG_DESTID_B };

	/* A device ID nobody has: no response. */
	tx.destid = MSG_DESTID_NOBODY;
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, &tx, 1), 0, "accepted");
	TEST_ASSERT_EQUAL(tx.status, -ETIMEDOUT, "status for an unknown destid");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(env.mp[0], MSG_DESTID_NOBODY, 1), -ETIMEDOUT,
			  "doorbell to an unknown destid");

	/* Works first (and fills the sender's route cache). */
	tx.destid = MSG_DESTID_B;
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, &tx, 1), 1, "good route");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 1, "good route: received");

	/* sw0 (hop 0 from A): route destid B to its unconnected port 3. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], 0xff, 0,
			    RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, MSG_DESTID_B), "select");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], 0xff, 0,
			    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 3), "bad port");
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, &tx, 1), 0,
			  "accepted over a bad route");
	TEST_ASSERT_EQUAL(tx.status, -ETIMEDOUT, "status over a bad route");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(env.mp[0], MSG_DESTID_B, 1), -ETIMEDOUT,
			  "doorbell over a bad route");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 0, "something arrived over a bad route");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(env.mp[1], 4), 0, "doorbell arrived");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "msg_tx_error", &st), "xstat");
	TEST_ASSERT_EQUAL(st, 2, "msg_tx_error");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "dbell_tx_error", &st), "xstat");
	TEST_ASSERT_EQUAL(st, 2, "dbell_tx_error");

	/* Restore port 1 (towards sw1): delivered again. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], 0xff, 0,
			    RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, MSG_DESTID_B), "select");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], 0xff, 0,
			    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, 1), "good port");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(env.mp[0], 0xff, 0,
			    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, &v), "read back");
	TEST_ASSERT_EQUAL(v & 0xff, 1, "route entry");
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, &tx, 1), 1,
			  "restored route (status %d)", tx.status);
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 1, "restored route: received");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 1, sizeof(buf)), "content");

	/*
	 * The same on sw1, B's own switch: hop 1 with destid B (sw0 forwards by
	 * destid, sw1 consumes it).
	 */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], MSG_DESTID_B, 1,
			    RTE_RIO_STD_RTE_CONF_DESTID_SEL_CSR, MSG_DESTID_B), "select");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], MSG_DESTID_B, 1,
			    RTE_RIO_STD_RTE_CONF_PORT_SEL_CSR, RTE_RIO_INVALID_ROUTE), "no route");
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, &tx, 1), 0, "accepted");
	TEST_ASSERT_EQUAL(tx.status, -ETIMEDOUT, "status without route at sw1");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 0, "something arrived without route");
	return TEST_SUCCESS;
}

static int
test_msg_wrong_route(void)
{
	return msg_check_no_leak_after(msg_case_wrong_route);
}

/* ------------------------------------------------------------------ */
/* RETRY when the inbound ring is full                                */

#define MSG_RETRY_RING	8
#define MSG_RETRY_TOTAL	1000

static int
msg_case_retry(void)
{
	static uint8_t tx_buf[MSG_BURST][RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_msg tx[MSG_BURST], rx[MSG_BURST];
	uint64_t tx_seq = 0, rx_seq = 0, retries = 0, st = 0;
	uint16_t i, n, r, burst;
	unsigned int rounds = 0;

	/* Fill: exactly the ring size is accepted, then RETRY. */
	for (i = 0; i < MSG_BURST; i++) {
		msg_fill(tx_buf[i], i, 64);
		tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i], .len = 64,
			.destid = MSG_DESTID_B };
	}
	n = rte_rio_send_messages(env.mp[0], 0, tx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, MSG_RETRY_RING, "accepted into an empty ring");
	TEST_ASSERT_EQUAL(tx[n].status, -EAGAIN, "status when the ring is full");
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, &tx[n], 1), 0,
			  "accepted into a full ring");
	TEST_ASSERT_EQUAL(tx[n].status, -EAGAIN, "status when still full");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(env.mp[0], MSG_DESTID_B, 5), 0,
			  "doorbells do not share the message ring");
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(env.mp[1], 4), 1, "doorbell");
	tx_seq = n;

	/* Drain slowly while resending from the first refused one. */
	while (rx_seq < MSG_RETRY_TOTAL && rounds++ < 100000) {
		burst = RTE_MIN((uint64_t)MSG_BURST, MSG_RETRY_TOTAL - tx_seq);
		for (i = 0; i < burst; i++) {
			msg_fill(tx_buf[i], tx_seq + i, msg_len_of(tx_seq + i));
			tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i],
				.len = msg_len_of(tx_seq + i), .destid = MSG_DESTID_B };
		}
		if (burst > 0) {
			n = rte_rio_send_messages(env.mp[0], 0, tx, burst);
			TEST_ASSERT(n <= MSG_RETRY_RING, "more than the ring accepted: %u", n);
			if (n < burst) {
				TEST_ASSERT_EQUAL(tx[n].status, -EAGAIN, "status");
				retries++;
			}
			tx_seq += n;
		}
		/* Take at most 3 per round so that the ring keeps filling up. */
		r = msg_recv(1, rx, 3);
		for (i = 0; i < r; i++, rx_seq++) {
			uint16_t len = rx_seq < MSG_RETRY_RING ? 64 : msg_len_of(rx_seq);

			TEST_ASSERT_EQUAL(rx[i].len, len, "length of %" PRIu64, rx_seq);
			TEST_ASSERT_SUCCESS(msg_check(rx[i].buf, rx_seq, len),
					    "message %" PRIu64 " lost, duplicated or corrupted",
					    rx_seq);
		}
	}
	TEST_ASSERT_EQUAL(rx_seq, MSG_RETRY_TOTAL, "received");
	TEST_ASSERT_EQUAL(tx_seq, MSG_RETRY_TOTAL, "sent");
	TEST_ASSERT(retries > 0, "the ring never pushed back");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "msg_tx_retry", &st), "xstat");
	TEST_ASSERT_EQUAL(st, retries + 2, "msg_tx_retry");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx", &st), "xstat");
	TEST_ASSERT_EQUAL(st, MSG_RETRY_TOTAL, "msg_rx");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, MSG_BURST), 0, "extra message");
	printf("  %u messages through an %u-slot ring, %" PRIu64 " RETRY bursts\n",
	       MSG_RETRY_TOTAL, MSG_RETRY_RING, retries);
	return TEST_SUCCESS;
}

static int
test_msg_retry(void)
{
	int ret = msg_env_setup_entries(MSG_RETRY_RING);

	if (ret != TEST_SUCCESS) {
		msg_env_teardown();
		return ret;
	}
	return msg_check_no_leak_after(msg_case_retry);
}

/* ------------------------------------------------------------------ */
/* Lengths                                                            */

static int
msg_case_lengths(void)
{
	/* Each side of the wire padding and of the slot's inline/overflow split. */
	static const uint16_t lens[] = { 8, 9, 15, 16, 61, 64, 191, 192, 193, 255, 256, 257,
					 1000, 1514, 1518, 1535, 1536, 1537, 1543, 1544, 2048,
					 4088, 4095, 4096 };
	static uint8_t tx_buf[RTE_RIO_MAX_MSG_SIZE + 8];
	struct rte_rio_msg tx[2], rx[4];
	unsigned int i;
	uint8_t *b;

	for (i = 0; i < RTE_DIM(lens); i++) {
		/* Receive buffers are pre-filled: nothing past the length may be written. */
		memset(env.bufs[1], 0xa5, (size_t)MSG_INB_ENTRIES * RTE_RIO_MAX_MSG_SIZE);
		msg_fill(tx_buf, i, lens[i]);
		TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0,
							     tx_buf, lens[i]),
				    "length %u refused", lens[i]);
		TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 1, "length %u not received", lens[i]);
		TEST_ASSERT_EQUAL(rx[0].len, lens[i], "reported length");
		TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, i, lens[i]), "content, length %u",
				    lens[i]);
		b = rx[0].buf;
		if (lens[i] < RTE_RIO_MAX_MSG_SIZE)
			TEST_ASSERT_EQUAL(b[lens[i]], 0xa5, "byte past length %u written",
					  lens[i]);
	}

	/* Out of range: refused, nothing sent. */
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, tx_buf, 0),
			  -EINVAL, "length 0");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, tx_buf, 7),
			  -EINVAL, "length 7");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, tx_buf,
						   RTE_RIO_MAX_MSG_SIZE + 1),
			  -EINVAL, "length 4097");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 4, tx_buf, 8),
			  -EINVAL, "letter 4");

	/* In a burst, sending stops at the bad one. */
	tx[0] = (struct rte_rio_msg){ .buf = tx_buf, .len = 8, .destid = MSG_DESTID_B };
	tx[1] = (struct rte_rio_msg){ .buf = tx_buf, .len = 0, .destid = MSG_DESTID_B };
	msg_fill(tx_buf, 99, 8);
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, tx, 2), 1, "burst");
	TEST_ASSERT_EQUAL(tx[1].status, -EINVAL, "status of length 0");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 1, "only the good one arrives");
	TEST_ASSERT_EQUAL(rx[0].len, 8, "length");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 99, 8), "content");
	return TEST_SUCCESS;
}

static int
test_msg_lengths(void)
{
	return msg_check_no_leak_after(msg_case_lengths);
}

/* ------------------------------------------------------------------ */
/* Declared receive-buffer size                                       */

#define MSG_SMALL_BUF	64

static int
msg_case_buf_size(void)
{
	static uint8_t tx_buf[RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_msg tx[3], rx[4];
	uint64_t long0 = 0, long1 = 0;
	uint8_t *small;
	unsigned int i;

	/* Argument checks; mailbox 0 of B has buffers posted already. */
	TEST_ASSERT_EQUAL(rte_rio_set_inb_buf_size(env.mp[1], 0, MSG_SMALL_BUF), -EBUSY,
			  "size changed with buffers posted");
	TEST_ASSERT_EQUAL(rte_rio_set_inb_buf_size(env.mp[1], 1, MSG_SMALL_BUF), -EINVAL,
			  "mailbox not open");
	TEST_ASSERT_EQUAL(rte_rio_set_inb_buf_size(env.mp[1], RTE_RIO_MAX_MBOX, 64), -EINVAL,
			  "mailbox out of range");
	TEST_ASSERT_EQUAL(rte_rio_set_inb_buf_size(NULL, 0, 64), -EINVAL, "no mport");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 1, 4), "open inb 1");
	TEST_ASSERT_EQUAL(rte_rio_set_inb_buf_size(env.mp[1], 1, RTE_RIO_MIN_MSG_SIZE - 1),
			  -EINVAL, "size 7");
	TEST_ASSERT_EQUAL(rte_rio_set_inb_buf_size(env.mp[1], 1, RTE_RIO_MAX_MSG_SIZE + 1),
			  -EINVAL, "size 4097");
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 1), "release inb 1");

	/*
	 * Reopen B's mailbox 0 with two 64-byte buffers in one array, each
	 * followed by a guard: 64 bytes fit, 72 are dropped and counted, and
	 * the buffer stays posted for the next message.
	 */
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 0), "release inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 0, 4), "reopen inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_set_inb_buf_size(env.mp[1], 0, MSG_SMALL_BUF), "declare");
	small = env.bufs[1];
	memset(small, 0xa5, 4 * MSG_SMALL_BUF);
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, small), "post 1");
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, small + 2 * MSG_SMALL_BUF),
			    "post 2");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_too_long", &long0), "xstat");
	for (i = 0; i < 3; i++)
		msg_fill(tx_buf + i * 1024, i, 1024);
	tx[0] = (struct rte_rio_msg){ .buf = tx_buf + 1024, .len = MSG_SMALL_BUF + 8,
				      .destid = MSG_DESTID_B };
	tx[1] = (struct rte_rio_msg){ .buf = tx_buf, .len = MSG_SMALL_BUF,
				      .destid = MSG_DESTID_B };
	tx[2] = (struct rte_rio_msg){ .buf = tx_buf + 2048, .len = RTE_RIO_MAX_MSG_SIZE - 2048,
				      .destid = MSG_DESTID_B };
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 0, tx, 3), 3,
			  "the sender's mport accepts all (the receiver drops)");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(env.mp[1], 0, rx, 4), 1, "received");
	TEST_ASSERT(rx[0].buf == small, "the first posted buffer holds the first fitting one");
	TEST_ASSERT_EQUAL(rx[0].len, MSG_SMALL_BUF, "length");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 0, MSG_SMALL_BUF), "content");
	for (i = MSG_SMALL_BUF; i < 4 * MSG_SMALL_BUF; i++)
		TEST_ASSERT_EQUAL(small[i], 0xa5, "byte %u past the 64-byte buffer written", i);
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_too_long", &long1), "xstat");
	TEST_ASSERT_EQUAL(long1 - long0, 2, "dropped messages counted");

	/* The second buffer is still posted and takes the next message that fits. */
	msg_fill(tx_buf, 7, 16);
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, tx_buf,
						     16), "send 16");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(env.mp[1], 0, rx, 4), 1, "received 16");
	TEST_ASSERT(rx[0].buf == small + 2 * MSG_SMALL_BUF, "second buffer");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 7, 16), "content 16");

	/* Reopening forgets the declared size: 4096 bytes are delivered again. */
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 0), "release inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 0, 4), "reopen inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, env.bufs[1]), "post");
	msg_fill(tx_buf, 8, RTE_RIO_MAX_MSG_SIZE);
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, tx_buf,
						     RTE_RIO_MAX_MSG_SIZE), "send 4096");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(env.mp[1], 0, rx, 4), 1, "received 4096");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 8, RTE_RIO_MAX_MSG_SIZE), "content 4096");
	return TEST_SUCCESS;
}

static int
test_msg_buf_size(void)
{
	return msg_check_no_leak_after(msg_case_buf_size);
}

/* ------------------------------------------------------------------ */
/* Closed mailbox                                                     */

static int
msg_case_closed_mbox(void)
{
	struct rte_rio_msg tx, rx[4];
	uint8_t buf[16];

	msg_fill(buf, 5, sizeof(buf));
	/* Outbound mailbox 1 of A open, inbound mailbox 1 of B never opened. */
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(env.mp[0], 1, 16), "outb 1");
	tx = (struct rte_rio_msg){ .buf = buf, .len = sizeof(buf), .destid = MSG_DESTID_B };
	TEST_ASSERT_EQUAL(rte_rio_send_messages(env.mp[0], 1, &tx, 1), 0, "accepted");
	TEST_ASSERT_EQUAL(tx.status, -EIO, "status for a closed mailbox");

	/* Close B's inbound mailbox 0: ERROR too, and nothing arrives after reopening. */
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 0), "release inb 0");
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf,
						   sizeof(buf)), -EIO, "closed mailbox 0");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 0, 4), "reopen inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, env.bufs[1]), "post");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 0, "message to a closed mailbox arrived");
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf,
						     sizeof(buf)), "reopened mailbox");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(env.mp[1], 0, rx, 4), 1, "received");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 5, sizeof(buf)), "content");

	/* No buffer posted: nothing is taken, the message waits. */
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf,
						     sizeof(buf)), "send");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(env.mp[1], 0, rx, 4), 0, "no buffer");
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, env.bufs[1]), "post");
	TEST_ASSERT_EQUAL(rte_rio_recv_messages(env.mp[1], 0, rx, 4), 1, "waited");
	return TEST_SUCCESS;
}

static int
test_msg_closed_mbox(void)
{
	return msg_check_no_leak_after(msg_case_closed_mbox);
}

/* ------------------------------------------------------------------ */
/* Garbage in the shared ring                                         */

static int
msg_case_garbage(void)
{
	struct sim_shm_data_hdr *data = MAP_FAILED;
	struct sim_shm_msg_slot *slot, *dead;
	struct sim_shm_mbox_ring *ring;
	struct rte_rio_msg rx[4];
	uint32_t entries;
	uint64_t head;
	unsigned int i, n;
	pid_t child;
	uint64_t ep_index = 0, bad0 = 0, bad1 = 0;
	char name[128];
	uint8_t buf[32];
	struct stat st;
	size_t size = 0;
	int fd, dev_id, ret = TEST_FAILED;

	dev_id = rte_rawdev_get_dev_id(env.name[1]);
	TEST_ASSERT(dev_id >= 0, "no rawdev %s", env.name[1]);
	TEST_ASSERT_SUCCESS(rte_rawdev_get_attr(dev_id, RTE_PMD_RIO_SIM_ATTR_EP_INDEX,
						&ep_index), "ep_index");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_bad", &bad0), "xstat");
	snprintf(name, sizeof(name), "/%s.ep%" PRIu64, env.shm_prefix, ep_index);
	fd = shm_open(name, O_RDWR, 0);
	TEST_ASSERT(fd >= 0, "cannot open %s", name);
	if (fstat(fd, &st) == 0) {
		size = st.st_size;
		data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	close(fd);
	TEST_ASSERT(data != MAP_FAILED, "cannot map %s", name);
	if (data->ring_off[0] + sizeof(struct sim_shm_mbox_ring) +
	    3 * sizeof(struct sim_shm_msg_slot) > size) {
		printf("  data segment too small\n");
		goto out;
	}

	/* Three messages; the first gets a huge length, the second a bad mailbox. */
	msg_fill(buf, 1, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	msg_fill(buf, 2, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	msg_fill(buf, 3, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	slot = RTE_PTR_ADD(data, data->ring_off[0] + sizeof(struct sim_shm_mbox_ring));
	slot[0].len = 60000;
	slot[1].mbox = 3;

	if (msg_recv(1, rx, 4) != 1) {
		printf("  expected exactly the good message\n");
		goto out;
	}
	if (rx[0].len != sizeof(buf) || msg_check(rx[0].buf, 3, sizeof(buf)) != 0) {
		printf("  wrong message received\n");
		goto out;
	}
	if (msg_xstat(env.name[1], "msg_rx_bad", &bad1) != 0 || bad1 - bad0 != 2) {
		printf("  msg_rx_bad grew by %" PRIu64 ", expected 2\n", bad1 - bad0);
		goto out;
	}

	/* A garbage sequence number is skipped as well; the ring keeps working. */
	msg_fill(buf, 4, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	msg_fill(buf, 5, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	__atomic_store_n(&slot[3].seq, 0x123456789ull, __ATOMIC_RELEASE);
	if (msg_recv(1, rx, 4) != 1 || msg_check(rx[0].buf, 5, sizeof(buf)) != 0) {
		printf("  slot after a garbage seq not received\n");
		goto out;
	}

	/*
	 * A producer that claimed a slot and died before publishing it: the
	 * receiver waits while the writer lives, then skips the slot.
	 */
	ring = RTE_PTR_ADD(data, data->ring_off[0]);
	entries = data->entries;
	if (entries == 0 || (entries & (entries - 1)) != 0) {
		printf("  bad ring size %u\n", entries);
		goto out;
	}
	head = __atomic_load_n(&ring->pos.prod_head, __ATOMIC_ACQUIRE);
	dead = &slot[head & (entries - 1)];
	__atomic_store_n(&dead->writer_pid, getpid(), __ATOMIC_RELAXED);
	__atomic_store_n(&ring->pos.prod_head, head + 1, __ATOMIC_RELEASE);
	msg_fill(buf, 6, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	for (i = 0; i < 5000; i++)
		if (msg_recv(1, rx, 4) != 0) {
			printf("  skipped a slot whose writer is alive\n");
			goto out;
		}
	child = fork();
	if (child == 0)
		_exit(0);
	if (child < 0 || waitpid(child, NULL, 0) != child)
		goto out;
	__atomic_store_n(&dead->writer_pid, child, __ATOMIC_RELAXED);
	for (i = 0, n = 0; i < 5000 && n == 0; i++)
		n = msg_recv(1, rx, 4);
	if (n != 1 || msg_check(rx[0].buf, 6, sizeof(buf)) != 0) {
		printf("  ring blocked by a dead writer (%u received)\n", n);
		goto out;
	}
	if (msg_xstat(env.name[1], "msg_rx_bad", &bad1) != 0 || bad1 - bad0 != 4) {
		printf("  msg_rx_bad grew by %" PRIu64 ", expected 4\n", bad1 - bad0);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	munmap(data, size);
	return ret;
}

static int
test_msg_garbage(void)
{
	return msg_check_no_leak_after(msg_case_garbage);
}

/* ------------------------------------------------------------------ */
/* Two processes                                                      */

/*
 * Send count messages to peer and receive count from it on mailbox 0,
 * checking order, length and content of each. -EIO (peer not there yet)
 * and -EAGAIN are retried until the deadline.
 */
static int
msg_exchange(struct rte_rio_mport *mp, uint16_t peer, uint64_t tx_count, uint64_t rx_count,
	     uint16_t tx_burst, unsigned int timeout_s, const char *who)
{
	static uint8_t tx_buf[MSG_BURST][RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_msg tx[MSG_BURST], rx[MSG_BURST];
	uint64_t deadline = msg_now_ms() + timeout_s * 1000ull;
	uint64_t tx_seq = 0, rx_seq = 0, sum_tx = 0, sum_rx = 0;
	uint16_t i, n, r, burst;
	unsigned int polls = 0;

	while (tx_seq < tx_count || rx_seq < rx_count) {
		if ((++polls & 1023) == 0 && msg_now_ms() > deadline) {
			printf("  %s: timeout, sent %" PRIu64 " received %" PRIu64 "\n",
			       who, tx_seq, rx_seq);
			return -ETIMEDOUT;
		}
		burst = RTE_MIN((uint64_t)tx_burst, tx_count - tx_seq);
		for (i = 0; i < burst; i++) {
			msg_fill(tx_buf[i], tx_seq + i, msg_len_of(tx_seq + i));
			tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i],
				.len = msg_len_of(tx_seq + i), .destid = peer,
				.letter = (tx_seq + i) & 3 };
		}
		if (burst > 0) {
			n = rte_rio_send_messages(mp, 0, tx, burst);
			for (i = 0; i < n; i++)
				sum_tx += tx[i].len + (tx_seq + i);
			if (n < burst && tx[n].status != -EAGAIN && tx[n].status != -EIO) {
				printf("  %s: send status %d at %" PRIu64 "\n", who,
				       tx[n].status, tx_seq + n);
				return -EIO;
			}
			tx_seq += n;
		}
		r = rx_count > 0 ? rte_rio_recv_messages(mp, 0, rx, MSG_BURST) : 0;
		for (i = 0; i < r; i++, rx_seq++) {
			if (rx_seq >= rx_count || rx[i].len != msg_len_of(rx_seq) ||
			    msg_check(rx[i].buf, rx_seq, rx[i].len) != 0 ||
			    rx[i].srcid != peer || rx[i].letter != (rx_seq & 3)) {
				printf("  %s: message %" PRIu64 " lost, duplicated or corrupted\n",
				       who, rx_seq);
				return -EIO;
			}
			sum_rx += rx[i].len + rx_seq;
			if (rte_rio_add_inb_buffer(mp, 0, rx[i].buf) != 0) {
				printf("  %s: cannot repost\n", who);
				return -EIO;
			}
		}
	}
	printf("  %s: sent %" PRIu64 " (sum %" PRIu64 "), received %" PRIu64
	       " (sum %" PRIu64 ")\n", who, tx_seq, sum_tx, rx_seq, sum_rx);
	return 0;
}

/*
 * Child: argv after EAL = fabric topology mode fd, mode one of
 *   exchange  claim ep1, exchange MSG_XCHG_COUNT messages each way with ep0
 *   hold      claim ep1, write "R" to fd, wait to be killed
 *   send      claim ep2, send MSG_XCHG_COUNT messages to ep1
 */
static int
msg_child(int argc, char **argv)
{
	static uint8_t bufs[MSG_INB_ENTRIES][RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_mport *mp;
	char args[256];
	unsigned int k;
	int ret, fd;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("  child: EAL init failed\n");
		return 10;
	}
	argc -= ret;
	argv += ret;
	if (argc < 4) {
		printf("  child: missing arguments\n");
		return 11;
	}
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=%s,scan=0", argv[1], argv[2],
		 strcmp(argv[3], "send") == 0 ? "ep2" : "ep1");
	if (rte_vdev_init("rio_sim_msgchild", args) < 0) {
		printf("  child: cannot claim its endpoint\n");
		return 12;
	}
	mp = rte_rio_mport_find("rio_sim_msgchild");
	if (mp == NULL)
		return 13;
	if (strcmp(argv[3], "hold") == 0) {
		/* Owner-crash case: tell the parent, then wait to be killed. */
		fd = argc > 4 ? atoi(argv[4]) : -1;
		if (fd < 0 || write(fd, "R", 1) != 1)
			return 14;
		for (;;)
			pause();
	}
	if (rte_rio_request_inb_mbox(mp, 0, MSG_INB_ENTRIES) < 0 ||
	    rte_rio_request_outb_mbox(mp, 0, MSG_INB_ENTRIES) < 0)
		return 15;
	for (k = 0; k < MSG_INB_ENTRIES; k++)
		if (rte_rio_add_inb_buffer(mp, 0, bufs[k]) < 0)
			return 16;
	if (strcmp(argv[3], "send") == 0)
		ret = msg_exchange(mp, MSG_DESTID_B, MSG_XCHG_COUNT, 0, 1,
				   MSG_XCHG_TIMEOUT_S, "child");
	else
		ret = msg_exchange(mp, MSG_DESTID_A, MSG_XCHG_COUNT, MSG_XCHG_COUNT,
				   MSG_BURST, MSG_XCHG_TIMEOUT_S, "child");
	rte_vdev_uninit("rio_sim_msgchild");
	rte_eal_cleanup();
	return ret == 0 ? 0 : 17;
}
REGISTER_TEST_CHILD(rio_sim_msg_child, msg_child)

static pid_t
msg_spawn(const char *mode, int fd)
{
	char prefix[64], prefix_arg[80], fdstr[16];
	char *argv[16];
	int n = 0;

	rio_test_unique("rmsgc", prefix, sizeof(prefix));
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", prefix);
	snprintf(fdstr, sizeof(fdstr), "%d", fd);
	argv[n++] = (char *)(uintptr_t)"--no-huge";
	argv[n++] = (char *)(uintptr_t)"-m";
	argv[n++] = (char *)(uintptr_t)"128";
	argv[n++] = (char *)(uintptr_t)"--no-pci";
	argv[n++] = prefix_arg;
	argv[n++] = (char *)(uintptr_t)"--log-level=lib.eal:error";
	argv[n++] = (char *)(uintptr_t)"--";
	argv[n++] = env.fabric;
	argv[n++] = env.topo;
	argv[n++] = (char *)(uintptr_t)mode;
	argv[n++] = fdstr;
	argv[n] = NULL;
	return rio_test_spawn("rio_sim_msg_child", argv);
}

static int
msg_case_two_processes(void)
{
	pid_t pid;
	int ret, status;

	/* B is the child's: give ep1 up in this process. */
	msg_mport_destroy(1);
	pid = msg_spawn("exchange", -1);
	TEST_ASSERT(pid > 0, "cannot spawn the child: %d", (int)pid);
	ret = msg_exchange(env.mp[0], MSG_DESTID_B, MSG_XCHG_COUNT, MSG_XCHG_COUNT,
			   MSG_BURST, MSG_XCHG_TIMEOUT_S, "parent");
	status = rio_test_wait(pid, MSG_CHILD_WAIT_MS);
	TEST_ASSERT_SUCCESS(ret, "parent side of the exchange failed");
	TEST_ASSERT_EQUAL(status, 0, "child failed");
	return TEST_SUCCESS;
}

static int
test_msg_two_processes(void)
{
	return msg_check_no_leak_after(msg_case_two_processes);
}

/*
 * Two producers on one ring: a child sends from ep2 while this process sends
 * from ep0, both to ep1's mailbox 0; each source's messages arrive once, in
 * order and intact.
 */
static int
msg_case_two_producers(void)
{
	static uint8_t tx_buf[MSG_BURST][RTE_RIO_MAX_MSG_SIZE];
	struct rte_rio_msg tx[MSG_BURST], rx[MSG_BURST];
	uint64_t deadline = msg_now_ms() + MSG_XCHG_TIMEOUT_S * 1000ull;
	uint64_t tx_seq = 0, rx_a = 0, rx_c = 0, *seq;
	uint16_t i, n, r, burst;
	unsigned int polls = 0;
	int ret = TEST_FAILED, status;
	pid_t pid;

	pid = msg_spawn("send", -1);
	TEST_ASSERT(pid > 0, "cannot spawn the child: %d", (int)pid);
	while (rx_a < MSG_XCHG_COUNT || rx_c < MSG_XCHG_COUNT) {
		if ((++polls & 1023) == 0 && msg_now_ms() > deadline) {
			printf("  timeout: sent %" PRIu64 ", received %" PRIu64 " from ep0 and %"
			       PRIu64 " from ep2\n", tx_seq, rx_a, rx_c);
			goto out;
		}
		/*
		 * Start once the child's messages flow, in bursts of one: one
		 * claim per message, as much contention as possible.
		 */
		burst = rx_c == 0 ? 0 : RTE_MIN((uint64_t)1, MSG_XCHG_COUNT - tx_seq);
		for (i = 0; i < burst; i++) {
			msg_fill(tx_buf[i], tx_seq + i, msg_len_of(tx_seq + i));
			tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i],
				.len = msg_len_of(tx_seq + i), .destid = MSG_DESTID_B,
				.letter = (tx_seq + i) & 3 };
		}
		if (burst > 0) {
			n = rte_rio_send_messages(env.mp[0], 0, tx, burst);
			if (n < burst && tx[n].status != -EAGAIN) {
				printf("  send status %d\n", tx[n].status);
				goto out;
			}
			tx_seq += n;
		}
		r = msg_recv(1, rx, MSG_BURST);
		for (i = 0; i < r; i++) {
			if (rx[i].srcid == MSG_DESTID_A) {
				seq = &rx_a;
			} else if (rx[i].srcid == MSG_DESTID_C) {
				seq = &rx_c;
			} else {
				printf("  message from unknown source %u\n", rx[i].srcid);
				goto out;
			}
			if (*seq >= MSG_XCHG_COUNT || rx[i].len != msg_len_of(*seq) ||
			    msg_check(rx[i].buf, *seq, rx[i].len) != 0 ||
			    rx[i].letter != (*seq & 3)) {
				printf("  message %" PRIu64 " from %u lost, duplicated or "
				       "corrupted\n", *seq, rx[i].srcid);
				goto out;
			}
			(*seq)++;
		}
	}
	printf("  received %" PRIu64 " from ep0 and %" PRIu64 " from ep2 (child)\n",
	       rx_a, rx_c);
	ret = TEST_SUCCESS;
out:
	status = rio_test_wait(pid, ret == TEST_SUCCESS ? MSG_CHILD_WAIT_MS : 0);
	TEST_ASSERT_EQUAL(status, 0, "child failed");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, MSG_BURST), 0, "extra message");
	return ret;
}

static int
test_msg_two_producers(void)
{
	return msg_check_no_leak_after(msg_case_two_producers);
}

/* ------------------------------------------------------------------ */
/* Port-writes                                                        */

static int
msg_case_port_writes(void)
{
	struct rte_rio_pw_msg pw[SIM_PW_RING_SIZE + 8];
	uint32_t comptag = 0;
	int dev_b, n, i;

	dev_b = rte_rawdev_get_dev_id(env.name[1]);
	TEST_ASSERT(dev_b >= 0, "no rawdev %s", env.name[1]);
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(env.mp[0], pw, RTE_DIM(pw)), 0, "stale port-write");

	/* sw1 (hop 1 on the way to B) reports to A; tag it to recognise it. */
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], MSG_DESTID_B, 1,
			    RTE_RIO_COMPONENT_TAG_CSR, 0x5a5a0001), "component tag");
	TEST_ASSERT_SUCCESS(rte_rio_remote_read_config_32(env.mp[0], MSG_DESTID_B, 1,
			    RTE_RIO_COMPONENT_TAG_CSR, &comptag), "component tag");
	TEST_ASSERT_SUCCESS(rte_rio_remote_write_config_32(env.mp[0], MSG_DESTID_B, 1,
			    SIM_EM_EFPTR + RTE_RIO_EM_PW_TGT_DEVID,
			    RTE_RIO_SET_DID(8, MSG_DESTID_A)), "port-write target");

	/* B's link (sw1 port 0) down then up: two port-writes reach A, none B. */
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(dev_b, RTE_PMD_RIO_SIM_ATTR_LINK, 0), "down");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(dev_b, RTE_PMD_RIO_SIM_ATTR_LINK, 1), "up");
	n = rte_rio_pw_fetch(env.mp[0], pw, RTE_DIM(pw));
	TEST_ASSERT_EQUAL(n, 2, "port-writes at A");
	for (i = 0; i < n; i++) {
		TEST_ASSERT_EQUAL(pw[i].len, 16, "port-write length");
		TEST_ASSERT_EQUAL(pw[i].em.comptag, comptag, "reporter's component tag");
		TEST_ASSERT_EQUAL(pw[i].em.is_port & 0xff, 0, "reporting port");
	}
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(env.mp[1], pw, RTE_DIM(pw)), 0, "port-write at B");

	/* Port-writes are droppable: a full ring keeps the oldest, then works again. */
	for (i = 0; i < SIM_PW_RING_SIZE; i++) {
		rte_rawdev_set_attr(dev_b, RTE_PMD_RIO_SIM_ATTR_LINK, 0);
		rte_rawdev_set_attr(dev_b, RTE_PMD_RIO_SIM_ATTR_LINK, 1);
	}
	n = rte_rio_pw_fetch(env.mp[0], pw, RTE_DIM(pw));
	TEST_ASSERT_EQUAL(n, SIM_PW_RING_SIZE, "a full ring holds its size");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(dev_b, RTE_PMD_RIO_SIM_ATTR_LINK, 0), "down");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(env.mp[0], pw, RTE_DIM(pw)), 1, "after draining");
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(dev_b, RTE_PMD_RIO_SIM_ATTR_LINK, 1), "up");
	TEST_ASSERT_EQUAL(rte_rio_pw_fetch(env.mp[0], pw, RTE_DIM(pw)), 1, "after draining");
	return TEST_SUCCESS;
}

static int
test_msg_port_writes(void)
{
	return msg_check_no_leak_after(msg_case_port_writes);
}

/* ------------------------------------------------------------------ */
/* Owner crash and reclaim                                            */

/* rte_vdev_init() with the log captured into *log (malloc'd, may be NULL). */
static int
msg_vdev_init_logged(const char *name, const char *args, char **log)
{
	FILE *old = rte_log_get_stream();
	size_t len = 0;
	FILE *mem;
	int ret;

	*log = NULL;
	mem = open_memstream(log, &len);
	if (mem == NULL)
		return rte_vdev_init(name, args);
	rte_openlog_stream(mem);
	ret = rte_vdev_init(name, args);
	rte_openlog_stream(old);
	fclose(mem);
	return ret;
}

static int
msg_case_owner_crash(void)
{
	struct pollfd pfd;
	struct rte_rio_msg rx[4];
	char c = 0, args[256], expect[160], *log = NULL;
	bool found;
	uint8_t buf[64];
	int fds[2], ret, status;
	pid_t pid;

	msg_mport_destroy(1);
	TEST_ASSERT_SUCCESS(pipe(fds), "pipe");
	pid = msg_spawn("hold", fds[1]);
	close(fds[1]);
	if (pid <= 0) {
		close(fds[0]);
		TEST_ASSERT(0, "cannot spawn the child: %d", (int)pid);
	}
	pfd = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	ret = poll(&pfd, 1, MSG_READY_TIMEOUT_MS);
	if (ret != 1 || read(fds[0], &c, 1) != 1 || c != 'R') {
		close(fds[0]);
		rio_test_wait(pid, 0);
		TEST_ASSERT(0, "child did not claim ep1");
	}
	close(fds[0]);

	/* While the owner lives: refused (the driver logs who owns it). */
	snprintf(env.name[1], sizeof(env.name[1]), "rio_sim_msg%u", msg_vdev_counter++);
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,scan=0", env.fabric);
	ret = msg_vdev_init_logged(env.name[1], args, &log);
	if (ret == 0) {
		rte_vdev_uninit(env.name[1]);
		rio_test_wait(pid, 0);
		free(log);
		TEST_ASSERT(0, "claimed an endpoint owned by a live process");
	}
	snprintf(expect, sizeof(expect), "endpoint ep1 of fabric %s is owned by live process %d",
		 env.fabric, (int)pid);
	found = log != NULL && strstr(log, expect) != NULL;
	if (!found) {
		printf("  expected \"%s\" in the log, got: %s\n", expect, log ? log : "");
		rio_test_wait(pid, 0);
		free(log);
		TEST_ASSERT(0, "no clear error for a live owner");
	}
	free(log);
	/* The live owner has its mailbox closed: ERROR, not a crash. */
	msg_fill(buf, 1, sizeof(buf));
	TEST_ASSERT_EQUAL(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf,
						   sizeof(buf)), -EIO, "to the child's mailbox");

	kill(pid, SIGKILL);
	status = rio_test_wait(pid, 10000);
	TEST_ASSERT_EQUAL(status, 128 + SIGKILL, "child status");

	/* Dead owner: reclaimed, and it works. */
	ret = rte_vdev_init(env.name[1], args);
	TEST_ASSERT_SUCCESS(ret, "cannot reclaim ep1 from a dead owner");
	env.created[1] = true;
	env.mp[1] = rte_rio_mport_find(env.name[1]);
	TEST_ASSERT_NOT_NULL(env.mp[1], "mport of the reclaimed endpoint");
	TEST_ASSERT_SUCCESS(msg_mbox_open(1, 0), "mailboxes of the reclaimed endpoint");
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf,
						     sizeof(buf)), "to the reclaimed endpoint");
	TEST_ASSERT_EQUAL(msg_recv(1, rx, 4), 1, "received after reclaim");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 1, sizeof(buf)), "content");
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[1], MSG_DESTID_A, 0, 0, buf,
						     sizeof(buf)), "from the reclaimed endpoint");
	TEST_ASSERT_EQUAL(msg_recv(0, rx, 4), 1, "received from the reclaimed endpoint");

	/* The same process claiming it twice is refused too. */
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1,scan=0", env.fabric);
	{
		char again[32];

		snprintf(again, sizeof(again), "rio_sim_msg%u", msg_vdev_counter++);
		ret = rte_vdev_init(again, args);
		if (ret == 0)
			rte_vdev_uninit(again);
		TEST_ASSERT(ret != 0, "claimed ep1 twice in one process");
	}
	return TEST_SUCCESS;
}

static int
test_msg_owner_crash(void)
{
	return msg_check_no_leak_after(msg_case_owner_crash);
}

/* ------------------------------------------------------------------ */

static int
msg_case_setup(void)
{
	int ret = msg_env_setup();

	if (ret != TEST_SUCCESS)
		msg_env_teardown();
	return ret;
}

static struct unit_test_suite rio_sim_msg_suite = {
	.suite_name = "rio_sim messages, doorbells and endpoint ownership",
	.unit_test_cases = {
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_two_switches),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_wrong_route),
		TEST_CASE(test_msg_retry),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_lengths),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_buf_size),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_closed_mbox),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_garbage),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_two_processes),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_two_producers),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_port_writes),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_owner_crash),
		TEST_CASES_END()
	}
};

static int
test_rio_sim_msg(void)
{
	return unit_test_suite_runner(&rio_sim_msg_suite);
}

REGISTER_TEST_COMMAND(rio_sim_msg_autotest, test_rio_sim_msg);

/* ------------------------------------------------------------------ */
/* Performance                                                        */

#define MSG_PERF_SIZE		64
#define MSG_PERF_COUNT		(4u * 1000 * 1000)

static int
msg_perf_run(uint16_t burst)
{
	static uint8_t tx_buf[MSG_BURST][MSG_PERF_SIZE];
	struct rte_rio_msg tx[MSG_BURST], rx[MSG_BURST];
	uint64_t sent = 0, recvd = 0, t0, t1, retries = 0;
	uint16_t i, n, r;
	double secs;

	for (i = 0; i < burst; i++) {
		memset(tx_buf[i], i, MSG_PERF_SIZE);
		tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i], .len = MSG_PERF_SIZE,
			.destid = MSG_DESTID_B };
	}
	t0 = rte_rdtsc();
	while (recvd < MSG_PERF_COUNT) {
		if (sent < MSG_PERF_COUNT) {
			n = rte_rio_send_messages(env.mp[0], 0, tx, burst);
			if (n < burst)
				retries++;
			sent += n;
		}
		r = rte_rio_recv_messages(env.mp[1], 0, rx, MSG_BURST);
		for (i = 0; i < r; i++)
			rte_rio_add_inb_buffer(env.mp[1], 0, rx[i].buf);
		recvd += r;
	}
	t1 = rte_rdtsc();
	rte_rio_outb_completions(env.mp[0], 0);
	secs = (double)(t1 - t0) / rte_get_tsc_hz();
	printf("  burst %2u: %" PRIu64 " x %u-byte messages in %.3f s: %.2f Mpps, "
	       "%.0f cycles/msg, %" PRIu64 " RETRY bursts\n",
	       burst, recvd, MSG_PERF_SIZE, secs, recvd / secs / 1e6,
	       (double)(t1 - t0) / recvd, retries);
	TEST_ASSERT_EQUAL(recvd, sent, "lost messages");
	return TEST_SUCCESS;
}

static int
test_rio_sim_msg_perf(void)
{
	static const uint16_t bursts[] = { 1, 8, 32 };
	unsigned int i;
	int ret;

	ret = msg_env_setup();
	if (ret != TEST_SUCCESS) {
		msg_env_teardown();
		return ret;
	}
	printf("rio_sim one-process send/receive, ep0 -> sw0 -> sw1 -> ep1, mailbox 0\n");
	for (i = 0; i < RTE_DIM(bursts) && ret == TEST_SUCCESS; i++)
		ret = msg_perf_run(bursts[i]);
	msg_env_teardown();
	return ret;
}

REGISTER_TEST_COMMAND(rio_sim_msg_perf_autotest, test_rio_sim_msg_perf);
