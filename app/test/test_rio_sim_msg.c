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
 *
 * The fabric's timing model is on: a message arrives some microseconds
 * after it was sent, so the cases wait for what they expect to receive
 * (MSG_WAIT_MS is a deadline, not a measurement). Payloads arrive as whole
 * double-words, zero-padded.
 */

#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
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
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rawdev.h>

#include "rte_rio.h"
#include "rte_pmd_rio_sim.h"
#include "rio_sim_shm.h"

#include "test.h"
#include "test_rio_sim_shm.h"

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
#define MSG_WAIT_MS		5000	/* for what the fabric delivers in microseconds */

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

/* The length a message of @len bytes arrives with: whole double-words. */
static uint16_t
msg_wire_len(uint16_t len)
{
	return RTE_ALIGN_CEIL(len, 8);
}

/* 0 if buf holds message seq of length len, then zeros up to its wire length. */
static int
msg_check_padded(const uint8_t *buf, uint64_t seq, uint16_t len)
{
	uint16_t i;

	if (msg_check(buf, seq, len) != 0)
		return -1;
	for (i = len; i < msg_wire_len(len); i++)
		if (buf[i] != 0)
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

/* msg_recv() until @want messages arrived or MSG_WAIT_MS passed. @return received. */
static uint16_t
msg_recv_wait(unsigned int i, struct rte_rio_msg *rx, uint16_t n, uint16_t want)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS;
	uint16_t r = 0;

	do {
		r += msg_recv(i, rx + r, n - r);
	} while (r < want && r < n && msg_now_ms() < deadline);
	return r;
}

/* rte_rio_recv_messages() on mport i, mailbox 0, until one arrived or MSG_WAIT_MS passed. */
static uint16_t
msg_recv_one_wait(unsigned int i, struct rte_rio_msg *rx, uint16_t n)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS;
	uint16_t r;

	do {
		r = rte_rio_recv_messages(env.mp[i], 0, rx, n);
	} while (r == 0 && msg_now_ms() < deadline);
	return r;
}

/* rte_rio_get_inb_message() on mport i, mailbox 0, waiting for one (MSG_WAIT_MS). */
static void *
msg_get_wait(unsigned int i, size_t *len, uint16_t *src)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS;
	void *b;

	do {
		b = rte_rio_get_inb_message(env.mp[i], 0, len, src);
	} while (b == NULL && msg_now_ms() < deadline);
	return b;
}

/*
 * Send one message from mport i to the other one's mailbox 0; RETRY (also
 * while the sender waits for the response to a refused message) is retried
 * for MSG_WAIT_MS. @return the last status.
 */
static int
msg_send_wait(unsigned int i, const void *buf, size_t len)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS;
	int ret;

	do {
		ret = rte_rio_add_outb_message(env.mp[i], i == 0 ? MSG_DESTID_B : MSG_DESTID_A,
					       0, 0, buf, len);
	} while (ret == -EAGAIN && msg_now_ms() < deadline);
	return ret;
}

/* Sum of rte_rio_outb_completions() of mport i's mailbox until @want (MSG_WAIT_MS). */
static int64_t
msg_completions_wait(unsigned int i, int64_t want)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS;
	int64_t done = 0, d;

	do {
		d = rte_rio_outb_completions(env.mp[i], 0);
		if (d < 0)
			return d;
		done += d;
	} while (done < want && msg_now_ms() < deadline);
	return done;
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

/*
 * rte_rio_send_messages() on mport i's mailbox 0 that waits out refusals of
 * the sender's own mailbox (msg_tx_busy: it waits for the response to a
 * refused message, or every descriptor is in flight), for MSG_WAIT_MS:
 * what it returns short of @n was refused by the target (or failed).
 */
static uint16_t
msg_send_burst(unsigned int i, struct rte_rio_msg *tx, uint16_t n)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS, busy0 = 0, busy1 = 0;
	uint16_t sent = 0;

	do {
		if (msg_xstat(env.name[i], "msg_tx_busy", &busy0) != 0)
			break;
		sent += rte_rio_send_messages(env.mp[i], 0, tx + sent, n - sent);
		if (sent == n || tx[sent].status != -EAGAIN ||
		    msg_xstat(env.name[i], "msg_tx_busy", &busy1) != 0)
			break;
	} while (busy1 != busy0 && msg_now_ms() < deadline);
	return sent;
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

	/* A -> B: one burst, letters 0..3, padded lengths, source and destination IDs. */
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
	/* Complete once the response to every segment is back. */
	done = msg_completions_wait(0, MSG_BURST);
	TEST_ASSERT_EQUAL(done, MSG_BURST, "completions");
	/* Every message counts once on the sender's and the receiver's link. */
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "port0_tx_pkts", &tx1), "xstat");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "port0_rx_pkts", &rx1), "xstat");
	TEST_ASSERT_EQUAL(tx1 - tx0, MSG_BURST, "port0_tx_pkts of the sender");
	TEST_ASSERT_EQUAL(rx1 - rx0, MSG_BURST, "port0_rx_pkts of the receiver");
	TEST_ASSERT_EQUAL(rte_rio_outb_completions(env.mp[0], 0), 0, "completions twice");

	r = msg_recv_wait(1, rx, MSG_BURST, MSG_BURST);
	TEST_ASSERT_EQUAL(r, MSG_BURST, "received");
	for (i = 0; i < r; i++) {
		TEST_ASSERT_EQUAL(rx[i].len, msg_wire_len(msg_len_of(i)), "length of message %u",
				  i);
		TEST_ASSERT_SUCCESS(msg_check_padded(rx[i].buf, i, msg_len_of(i)),
				    "content of %u", i);
		TEST_ASSERT_EQUAL(rx[i].srcid, MSG_DESTID_A, "srcid");
		TEST_ASSERT_EQUAL(rx[i].destid, MSG_DESTID_B, "destid");
		TEST_ASSERT_EQUAL(rx[i].mbox, 0, "mbox");
		TEST_ASSERT_EQUAL(rx[i].letter, i % RTE_RIO_MAX_LETTER, "letter");
	}
	TEST_ASSERT_EQUAL(msg_recv(1, rx, MSG_BURST), 0, "nothing more may arrive");
	TEST_ASSERT_EQUAL(msg_recv(0, rx, MSG_BURST), 0, "nothing may arrive at the sender");

	/* B -> A with the convenience calls: 100 bytes arrive as 104. */
	msg_fill(tx_buf[0], 77, 100);
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[1], MSG_DESTID_A, 0, 2,
						     tx_buf[0], 100), "B -> A");
	{
		size_t len = 0;
		uint16_t src = 0;
		void *b = msg_get_wait(0, &len, &src);

		TEST_ASSERT_NOT_NULL(b, "B -> A not received");
		TEST_ASSERT_EQUAL(len, 104, "length");
		TEST_ASSERT_EQUAL(src, MSG_DESTID_B, "src");
		TEST_ASSERT_SUCCESS(msg_check_padded(b, 77, 100), "content");
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
	TEST_ASSERT_EQUAL(msg_recv_wait(1, rx, 4, 1), 1, "good route: received");

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
	TEST_ASSERT_EQUAL(msg_recv_wait(1, rx, 4, 1), 1, "restored route: received");
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
	uint64_t tx_seq = 0, rx_seq = 0, retries = 0, st = 0, busy = 0;
	uint64_t deadline = msg_now_ms() + MSG_XCHG_TIMEOUT_S * 1000ull;
	uint16_t i, n, r, burst;

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
	/* A doorbell's call returns with its response: it has arrived. */
	TEST_ASSERT_EQUAL(rte_rio_dbell_poll(env.mp[1], 4), 1, "doorbell");
	tx_seq = n;

	/* Drain slowly while resending from the first refused one. */
	while (rx_seq < MSG_RETRY_TOTAL && msg_now_ms() < deadline) {
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

			TEST_ASSERT_EQUAL(rx[i].len, msg_wire_len(len), "length of %" PRIu64,
					  rx_seq);
			TEST_ASSERT_SUCCESS(msg_check_padded(rx[i].buf, rx_seq, len),
					    "message %" PRIu64 " lost, duplicated or corrupted",
					    rx_seq);
		}
	}
	TEST_ASSERT_EQUAL(rx_seq, MSG_RETRY_TOTAL, "received");
	TEST_ASSERT_EQUAL(tx_seq, MSG_RETRY_TOTAL, "sent");
	TEST_ASSERT(retries > 0, "the ring never pushed back");
	/*
	 * Every refused burst counted once: RETRY from the target, or refused
	 * by the sender's mailbox while it waited for a RETRY response.
	 */
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "msg_tx_retry", &st), "xstat");
	TEST_ASSERT(st >= 1, "msg_tx_retry");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[0], "msg_tx_busy", &busy), "xstat");
	TEST_ASSERT_EQUAL(st + busy, retries + 2, "msg_tx_retry + msg_tx_busy");
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
		/*
		 * Receive buffers are pre-filled: the padding to whole
		 * double-words is written (zeros), nothing past it.
		 */
		memset(env.bufs[1], 0xa5, (size_t)MSG_INB_ENTRIES * RTE_RIO_MAX_MSG_SIZE);
		msg_fill(tx_buf, i, lens[i]);
		memset(tx_buf + lens[i], 0x5a, 8);
		TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0,
							     tx_buf, lens[i]),
				    "length %u refused", lens[i]);
		TEST_ASSERT_EQUAL(msg_recv_wait(1, rx, 4, 1), 1, "length %u not received",
				  lens[i]);
		TEST_ASSERT_EQUAL(rx[0].len, msg_wire_len(lens[i]), "reported length of %u",
				  lens[i]);
		TEST_ASSERT_SUCCESS(msg_check_padded(rx[0].buf, i, lens[i]),
				    "content and padding, length %u", lens[i]);
		b = rx[0].buf;
		if (msg_wire_len(lens[i]) < RTE_RIO_MAX_MSG_SIZE)
			TEST_ASSERT_EQUAL(b[msg_wire_len(lens[i])], 0xa5,
					  "byte past padded length %u written", lens[i]);
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
	TEST_ASSERT_EQUAL(msg_recv_wait(1, rx, 4, 1), 1, "only the good one arrives");
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
	/* All three arrived once the sender saw their responses. */
	TEST_ASSERT_EQUAL(msg_completions_wait(0, 3), 3, "completions");
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
	TEST_ASSERT_EQUAL(msg_recv_one_wait(1, rx, 4), 1, "received 16");
	TEST_ASSERT(rx[0].buf == small + 2 * MSG_SMALL_BUF, "second buffer");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 7, 16), "content 16");

	/* Reopening forgets the declared size: 4096 bytes are delivered again. */
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 0), "release inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 0, 4), "reopen inb 0");
	TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, env.bufs[1]), "post");
	msg_fill(tx_buf, 8, RTE_RIO_MAX_MSG_SIZE);
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, tx_buf,
						     RTE_RIO_MAX_MSG_SIZE), "send 4096");
	TEST_ASSERT_EQUAL(msg_recv_one_wait(1, rx, 4), 1, "received 4096");
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
	TEST_ASSERT_SUCCESS(msg_send_wait(0, buf, sizeof(buf)), "reopened mailbox");
	TEST_ASSERT_EQUAL(msg_recv_one_wait(1, rx, 4), 1, "received");
	TEST_ASSERT_SUCCESS(msg_check(rx[0].buf, 5, sizeof(buf)), "content");

	/* No buffer posted: nothing is taken, the message waits. */
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf,
						     sizeof(buf)), "send");
	TEST_ASSERT_EQUAL(msg_completions_wait(0, 2), 2, "completions");
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
/* Close racing with sends                                            */

#define MSG_RACE_COUNT	20000	/* messages sent */
#define MSG_RACE_EVERY	150	/* messages received between two closes */

static struct {
	uint64_t accepted;	/* messages A's sender thread got accepted, in order */
	uint64_t refused;	/* sends refused with ERROR (mailbox closed) */
	int error;		/* another status */
	bool stop;
} race;

/*
 * A's sender: messages 0, 1, ... to B's mailbox 0 in bursts; a message
 * refused (RETRY, or ERROR while the mailbox is closed) is offered again.
 */
static void *
msg_race_sender(void *arg)
{
	static uint8_t bufs[MSG_BURST][512];
	struct rte_rio_msg tx[MSG_BURST];
	uint64_t seq = 0;
	uint16_t k, n;

	RTE_SET_USED(arg);
	while (seq < MSG_RACE_COUNT && !__atomic_load_n(&race.stop, __ATOMIC_ACQUIRE)) {
		for (k = 0; k < MSG_BURST && seq + k < MSG_RACE_COUNT; k++) {
			tx[k] = (struct rte_rio_msg){ .buf = bufs[k], .destid = MSG_DESTID_B,
				.len = msg_len_of(seq + k) };
			msg_fill(bufs[k], seq + k, tx[k].len);
		}
		n = rte_rio_send_messages(env.mp[0], 0, tx, k);
		seq += n;
		__atomic_store_n(&race.accepted, seq, __ATOMIC_RELEASE);
		if (n < k && tx[n].status == -EIO)
			race.refused++;
		else if (n < k && tx[n].status != -EAGAIN)
			race.error = tx[n].status;
		if (race.error != 0)
			break;
	}
	return NULL;
}

/*
 * B's mailbox 0 is closed and opened again every MSG_RACE_EVERY messages
 * while A sends: every message accepted arrives, once and in order (the
 * ring keeps what it holds across a close); sends during a close are
 * refused, none is accepted and lost.
 */
static int
msg_case_close_race(void)
{
	struct rte_rio_msg rx[MSG_BURST];
	uint64_t next = 0, t0, closes = 0, since = 0;
	pthread_t sender;
	unsigned int k;
	uint16_t n;
	int ret = TEST_FAILED;

	memset(&race, 0, sizeof(race));
	TEST_ASSERT_SUCCESS(pthread_create(&sender, NULL, msg_race_sender, NULL), "thread");
	t0 = msg_now_ms();
	while (next < MSG_RACE_COUNT && msg_now_ms() - t0 < 60000 && race.error == 0) {
		n = msg_recv(1, rx, RTE_DIM(rx));
		for (k = 0; k < n; k++, next++) {
			if (rx[k].len != msg_wire_len(msg_len_of(next)) ||
			    msg_check_padded(rx[k].buf, next, msg_len_of(next)) != 0) {
				printf("  message %" PRIu64 " expected, got %" PRIu64 " (%u bytes)\n",
				       next, *(uint64_t *)rx[k].buf, rx[k].len);
				goto out;
			}
		}
		since += n;
		if (since < MSG_RACE_EVERY)
			continue;
		since = 0;
		closes++;
		if (rte_rio_release_inb_mbox(env.mp[1], 0) != 0)
			goto out;
		/* Closed for a moment: sends get ERROR meanwhile. */
		rte_delay_us_block(500 + closes % 1500);
		if (rte_rio_request_inb_mbox(env.mp[1], 0, MSG_INB_ENTRIES) != 0)
			goto out;
		for (k = 0; k < MSG_INB_ENTRIES; k++)
			if (rte_rio_add_inb_buffer(env.mp[1], 0, env.bufs[1] +
						   (size_t)k * RTE_RIO_MAX_MSG_SIZE) != 0)
				goto out;
	}
	printf("  %" PRIu64 " of %u messages received in order across %" PRIu64
	       " closes; %" PRIu64 " bursts refused while closed\n", next, MSG_RACE_COUNT,
	       closes, race.refused);
	ret = next == MSG_RACE_COUNT && race.error == 0 ? TEST_SUCCESS : TEST_FAILED;
	if (race.error != 0)
		printf("  a send failed with %d\n", race.error);
out:
	__atomic_store_n(&race.stop, true, __ATOMIC_RELEASE);
	pthread_join(sender, NULL);
	return ret;
}

static int
test_msg_close_race(void)
{
	return msg_check_no_leak_after(msg_case_close_race);
}

/* ------------------------------------------------------------------ */
/* Garbage in the shared ring                                         */

static int
msg_case_garbage(void)
{
	struct sim_shm_data_hdr *data = MAP_FAILED;
	struct sim_shm_sender *stalled = NULL;
	struct sim_shm_hdr *hdr = NULL;
	struct sim_shm_msg_slot *slot;
	struct sim_shm_mbox_ring *ring;
	struct rte_rio_msg rx[4];
	size_t hdr_size = 0;
	uint64_t head, t0;
	unsigned int i, n;
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
	snprintf(name, sizeof(name), "%s.ep%" PRIu64, env.shm_prefix, ep_index);
	fd = rio_test_fabric_open(name, O_RDWR, 0);
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

	if (msg_recv_wait(1, rx, 4, 1) != 1) {
		printf("  expected exactly the good message\n");
		goto out;
	}
	if (rx[0].len != sizeof(buf) || msg_check_padded(rx[0].buf, 3, sizeof(buf)) != 0) {
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
	if (msg_recv_wait(1, rx, 4, 1) != 1 || msg_check(rx[0].buf, 5, sizeof(buf)) != 0) {
		printf("  slot after a garbage seq not received\n");
		goto out;
	}

	/*
	 * A producer that claimed a slot and stopped before publishing it (its
	 * sender record names the ring): the receiver waits for it as long as
	 * it lives, then skips the slot once it is gone.
	 */
	hdr = test_shm_map_fabric(env.fabric, &hdr_size);
	if (hdr == NULL) {
		printf("  cannot map the fabric\n");
		goto out;
	}
	stalled = test_shm_stalled_sender(hdr, test_shm_own_token(hdr), (uint32_t)ep_index, 0);
	if (stalled == NULL || test_shm_own_token(hdr) == 0 || test_shm_dead_token(hdr) == 0) {
		printf("  no sender record or token\n");
		goto out;
	}
	ring = RTE_PTR_ADD(data, data->ring_off[0]);
	head = __atomic_load_n(&ring->pos.prod_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&ring->pos.prod_head, head + 1, __ATOMIC_RELEASE);
	msg_fill(buf, 6, sizeof(buf));
	if (rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, buf, sizeof(buf)) != 0)
		goto out;
	t0 = rte_get_timer_cycles();
	while (rte_get_timer_cycles() - t0 < rte_get_timer_hz() / 5)
		if (msg_recv(1, rx, 4) != 0) {
			printf("  skipped a slot that a live sender claimed\n");
			goto out;
		}
	__atomic_store_n(&stalled->owner, test_shm_dead_token(hdr), __ATOMIC_RELEASE);
	for (i = 0, n = 0; i < 100000 && n == 0; i++)
		n = msg_recv(1, rx, 4);
	if (n != 1 || msg_check(rx[0].buf, 6, sizeof(buf)) != 0) {
		printf("  ring blocked by a sender that is gone (%u received)\n", n);
		goto out;
	}
	if (msg_xstat(env.name[1], "msg_rx_bad", &bad1) != 0 || bad1 - bad0 != 4) {
		printf("  msg_rx_bad grew by %" PRIu64 ", expected 4\n", bad1 - bad0);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	test_shm_sender_free(stalled);
	if (hdr != NULL)
		munmap(hdr, hdr_size);
	munmap(data, size);
	return ret;
}

static int
test_msg_garbage(void)
{
	return msg_check_no_leak_after(msg_case_garbage);
}

/* ------------------------------------------------------------------ */
/* Receive in place                                                   */

#define MSG_INPL_RING	16	/* fabric ring slots: cheap to fill */
#define MSG_INPL_MAX	(2 * MSG_INPL_RING)
#define MSG_INPL_HOLD	5	/* messages held while the ring fills up */
#define MSG_INPL_MAXLEN	1536	/* SIM_SLOT_INLINE: what rio_sim receives in place */

/*
 * The messages of a case received in place, with their shared infos (NULL
 * once released), and the mbufs some are attached to: whatever a failing
 * step leaves held is released before the mports go away.
 */
static struct {
	struct rte_rio_msg msg[MSG_INPL_MAX];
	struct rte_mbuf_ext_shared_info *sh[MSG_INPL_MAX];
	struct rte_mbuf *m[2];
	struct rte_mempool *mp;
	uint8_t tx_buf[MSG_INPL_MAX][RTE_RIO_MAX_MSG_SIZE];
} inpl;

/*
 * Send count messages seq, seq + 1, ... from A to B's mailbox 0 in one
 * burst, of length len (0: msg_len_of(seq)). @return how many were
 * accepted; *status is the status of the first refused one (0: none).
 */
static uint16_t
inpl_send(uint64_t seq, uint16_t count, uint16_t len, int *status)
{
	struct rte_rio_msg tx[MSG_INPL_MAX];
	uint16_t i, n, l;

	for (i = 0; i < count; i++) {
		l = len != 0 ? len : msg_len_of(seq + i);
		msg_fill(inpl.tx_buf[i], seq + i, l);
		tx[i] = (struct rte_rio_msg){ .buf = inpl.tx_buf[i], .len = l,
			.destid = MSG_DESTID_B, .letter = (seq + i) & 3 };
	}
	n = msg_send_burst(0, tx, count);
	*status = n < count ? tx[n].status : 0;
	return n;
}

/* Receive in place on B's mailbox 0 into inpl.msg[first...], inpl.sh[first...]. */
static uint16_t
inpl_recv(uint16_t first, uint16_t n)
{
	return rte_rio_recv_messages_inplace(env.mp[1], 0, &inpl.msg[first], &inpl.sh[first], n);
}

/* inpl_recv() until @n messages arrived or MSG_WAIT_MS passed. @return received. */
static uint16_t
inpl_recv_wait(uint16_t first, uint16_t n)
{
	uint64_t deadline = msg_now_ms() + MSG_WAIT_MS;
	uint16_t r = 0;

	do {
		r += inpl_recv(first + r, n - r);
	} while (r < n && msg_now_ms() < deadline);
	return r;
}

static void
inpl_release(uint16_t i)
{
	if (inpl.sh[i] != NULL)
		rte_rio_inb_message_release(inpl.msg[i].buf, inpl.sh[i]);
	inpl.sh[i] = NULL;
}

/*
 * One in-place poll of B's mailbox 0, expected to find nothing: the
 * receiver gives the slots of released messages back to the senders when
 * it polls. @return messages found (released at once).
 */
static uint16_t
inpl_poll(void)
{
	struct rte_mbuf_ext_shared_info *sh;
	struct rte_rio_msg m;
	uint16_t n;

	n = rte_rio_recv_messages_inplace(env.mp[1], 0, &m, &sh, 1);
	if (n > 0)
		rte_rio_inb_message_release(m.buf, sh);
	return n;
}

/* Release whatever the case left held (mbufs first: they may hold messages). */
static void
inpl_cleanup(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(inpl.m); i++)
		rte_pktmbuf_free(inpl.m[i]);
	for (i = 0; i < MSG_INPL_MAX; i++)
		inpl_release(i);
	rte_mempool_free(inpl.mp);
	memset(&inpl, 0, sizeof(inpl));
}

/* true if [p, p + len) lies in this process's mapping of mport i's data segment. */
static bool
msg_in_data_segment(unsigned int i, const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;
	unsigned long lo, hi;
	uint64_t ep_index = 0;
	char name[128], line[512], *s;
	bool in = false;
	size_t nl;
	int dev_id;
	FILE *fp;

	dev_id = rte_rawdev_get_dev_id(env.name[i]);
	if (dev_id < 0 ||
	    rte_rawdev_get_attr(dev_id, RTE_PMD_RIO_SIM_ATTR_EP_INDEX, &ep_index) != 0)
		return false;
	nl = snprintf(name, sizeof(name), "/%s.ep%" PRIu64, env.shm_prefix, ep_index);
	fp = fopen("/proc/self/maps", "r");
	if (fp == NULL)
		return false;
	while (!in && fgets(line, sizeof(line), fp) != NULL) {
		s = strstr(line, name);
		if (s == NULL || (s[nl] != '\n' && s[nl] != ' ' && s[nl] != '\0'))
			continue;
		in = sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a + len <= hi;
	}
	fclose(fp);
	return in;
}

/*
 * inpl.msg[i] is message seq of length len from A, letter seq & 3, held
 * with one reference, in B's own receive memory.
 */
static int
inpl_check(uint16_t i, uint64_t seq, uint16_t len)
{
	const struct rte_rio_msg *m = &inpl.msg[i];

	TEST_ASSERT_EQUAL(m->len, msg_wire_len(len), "length of message %" PRIu64, seq);
	TEST_ASSERT_SUCCESS(msg_check_padded(m->buf, seq, len), "content of message %" PRIu64,
			    seq);
	TEST_ASSERT_EQUAL(m->srcid, MSG_DESTID_A, "srcid of message %" PRIu64, seq);
	TEST_ASSERT_EQUAL(m->destid, MSG_DESTID_B, "destid of message %" PRIu64, seq);
	TEST_ASSERT_EQUAL(m->mbox, 0, "mbox of message %" PRIu64, seq);
	TEST_ASSERT_EQUAL(m->letter, seq & 3, "letter of message %" PRIu64, seq);
	TEST_ASSERT_NOT_NULL(inpl.sh[i], "no shared info for message %" PRIu64, seq);
	TEST_ASSERT_EQUAL(rte_mbuf_ext_refcnt_read(inpl.sh[i]), 1,
			  "reference count of message %" PRIu64, seq);
	TEST_ASSERT(msg_in_data_segment(1, m->buf, len),
		    "message %" PRIu64 " is not in B's receive memory", seq);
	return TEST_SUCCESS;
}

/*
 * Send messages from seq on until the ring is full: count are accepted.
 * Receive them in place, asking for count exactly (asking for more once
 * the whole ring is taken is inpl_wrap()'s subject), and check them.
 */
static int
inpl_fill_recv(uint64_t seq, uint16_t first, uint16_t count)
{
	uint16_t i, n;
	int st;

	n = inpl_send(seq, MSG_INPL_MAX, 0, &st);
	TEST_ASSERT_EQUAL(n, count, "accepted into a ring with %u free slots (status %d)",
			  count, st);
	TEST_ASSERT_EQUAL(st, -EAGAIN, "status when the ring is full");
	n = inpl_recv_wait(first, count);
	TEST_ASSERT_EQUAL(n, count, "received in place");
	for (i = 0; i < count; i++)
		if (inpl_check(first + i, seq + i, msg_len_of(seq + i)) != TEST_SUCCESS)
			return TEST_FAILED;
	return TEST_SUCCESS;
}

/*
 * The ring is full after a poll of the receiver: with the copy path, which
 * gives released slots back too and delivers nothing past a held message
 * (an in-place poll with the whole ring taken is inpl_wrap()'s subject).
 */
static int
inpl_ring_full(const char *why)
{
	struct rte_rio_msg rx[MSG_BURST];
	uint16_t n;
	int st;

	n = rte_rio_recv_messages(env.mp[1], 0, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, 0, "copy path delivered past a held message (%s)", why);
	n = inpl_send(9999, 1, 64, &st);
	TEST_ASSERT_EQUAL(n, 0, "a slot was free (%s)", why);
	TEST_ASSERT_EQUAL(st, -EAGAIN, "status (%s)", why);
	return TEST_SUCCESS;
}

/* Release messages first..first + count - 1, then poll: nothing may arrive. */
static int
inpl_release_poll(uint16_t first, uint16_t count)
{
	uint16_t i, n;

	for (i = 0; i < count; i++)
		inpl_release(first + i);
	n = inpl_poll();
	TEST_ASSERT_EQUAL(n, 0, "unexpected message");
	return TEST_SUCCESS;
}

/* Exact lengths up to the in-place maximum, no buffer posted; argument checks. */
static int
inpl_lengths(void)
{
	static const uint16_t lens[] = { 8, 64, 1500, MSG_INPL_MAXLEN };
	struct rte_mbuf_ext_shared_info *sh[4];
	uint8_t *bufs1 = env.bufs[1];
	struct rte_rio_msg msgs[4];
	unsigned int i, k;
	uint16_t n;
	int st;

	for (i = 0; i < RTE_DIM(lens); i++) {
		n = inpl_send(100 + i, 1, lens[i], &st);
		TEST_ASSERT_EQUAL(n, 1, "length %u refused (%d)", lens[i], st);
	}
	/* Nothing taken by bad calls, nor by the copy path without a buffer. */
	n = rte_rio_recv_messages_inplace(env.mp[1], 0, NULL, sh, 4);
	TEST_ASSERT_EQUAL(n, 0, "no msgs");
	n = rte_rio_recv_messages_inplace(env.mp[1], 0, msgs, NULL, 4);
	TEST_ASSERT_EQUAL(n, 0, "no shinfo");
	n = rte_rio_recv_messages_inplace(env.mp[1], 0, msgs, sh, 0);
	TEST_ASSERT_EQUAL(n, 0, "n 0");
	n = rte_rio_recv_messages_inplace(env.mp[1], 1, msgs, sh, 4);
	TEST_ASSERT_EQUAL(n, 0, "mailbox 1 not open");
	n = rte_rio_recv_messages_inplace(env.mp[1], RTE_RIO_MAX_MBOX, msgs, sh, 4);
	TEST_ASSERT_EQUAL(n, 0, "mailbox out of range");
	n = rte_rio_recv_messages_inplace(NULL, 0, msgs, sh, 4);
	TEST_ASSERT_EQUAL(n, 0, "no mport");
	n = rte_rio_recv_messages(env.mp[1], 0, msgs, 4);
	TEST_ASSERT_EQUAL(n, 0, "copy path without a buffer");

	n = inpl_recv_wait(0, RTE_DIM(lens));
	TEST_ASSERT_EQUAL(n, RTE_DIM(lens), "received in place");
	for (i = 0; i < RTE_DIM(lens); i++) {
		if (inpl_check(i, 100 + i, lens[i]) != TEST_SUCCESS)
			return TEST_FAILED;
		TEST_ASSERT((uint8_t *)inpl.msg[i].buf < bufs1 ||
			    (uint8_t *)inpl.msg[i].buf >=
			    bufs1 + (size_t)MSG_INB_ENTRIES * RTE_RIO_MAX_MSG_SIZE,
			    "message %u in a receive buffer of the test", i);
		for (k = 0; k < i; k++)
			TEST_ASSERT(inpl.msg[k].buf != inpl.msg[i].buf &&
				    inpl.sh[k] != inpl.sh[i], "messages %u and %u share a place",
				    k, i);
	}
	n = inpl_recv(RTE_DIM(lens), 4);
	TEST_ASSERT_EQUAL(n, 0, "more received");
	return inpl_release_poll(0, RTE_DIM(lens));
}

/* Longer than what is received in place: dropped, counted; the next one arrives. */
static int
inpl_too_long(void)
{
	uint64_t long0 = 0, long1 = 0, bad0 = 0, bad1 = 0;
	uint16_t n;
	int st;

	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_too_long", &long0), "xstat");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_bad", &bad0), "xstat");
	n = inpl_send(200, 1, MSG_INPL_MAXLEN + 1, &st);
	TEST_ASSERT_EQUAL(n, 1, "send 1537");
	n = inpl_send(201, 1, 2000, &st);
	TEST_ASSERT_EQUAL(n, 1, "send 2000");
	n = inpl_send(202, 1, 100, &st);
	TEST_ASSERT_EQUAL(n, 1, "send 100");
	n = inpl_recv_wait(0, 1);
	n += inpl_recv(n, 4 - n);
	TEST_ASSERT_EQUAL(n, 1, "only the 100-byte message");
	if (inpl_check(0, 202, 100) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_too_long", &long1), "xstat");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_bad", &bad1), "xstat");
	TEST_ASSERT_EQUAL(long1 - long0, 2, "msg_rx_too_long");
	TEST_ASSERT_EQUAL(bad1 - bad0, 0, "msg_rx_bad");
	return inpl_release_poll(0, 1);
}

/*
 * Released in any order, every slot goes back to the senders; in ring
 * order only, so nothing goes back while the first message is held.
 */
static int
inpl_release_order(void)
{
	static const uint8_t order[MSG_INPL_RING - 1] = {
		15, 13, 11, 9, 7, 5, 3, 1, 2, 14, 4, 12, 6, 10, 8 };
	unsigned int i;

	if (inpl_fill_recv(300, 0, MSG_INPL_RING) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 0; i < RTE_DIM(order); i++)
		inpl_release(order[i]);
	if (inpl_ring_full("first message still held") != TEST_SUCCESS)
		return TEST_FAILED;
	if (inpl_release_poll(0, 1) != TEST_SUCCESS)
		return TEST_FAILED;
	/* All slots are back: the ring takes its size again. */
	if (inpl_fill_recv(400, 0, MSG_INPL_RING) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = MSG_INPL_RING; i > 1; i--)
		inpl_release(i - 1);
	return inpl_release_poll(0, 1);
}

/*
 * Messages held: the senders get the rest of the ring, then RETRY; the copy
 * path delivers nothing until they are released, then the waiting ones in
 * order; nothing is lost.
 */
static int
inpl_hold(void)
{
	static const uint8_t order[MSG_INPL_HOLD] = { 3, 0, 4, 2, 1 };
	struct rte_rio_msg rx[MSG_BURST];
	uint16_t i, n;
	int st, ret;

	n = inpl_send(500, MSG_INPL_HOLD, 0, &st);
	TEST_ASSERT_EQUAL(n, MSG_INPL_HOLD, "send");
	n = inpl_recv_wait(0, MSG_INPL_HOLD);
	TEST_ASSERT_EQUAL(n, MSG_INPL_HOLD, "received in place");
	n = inpl_send(600, MSG_INPL_MAX, 0, &st);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING - MSG_INPL_HOLD,
			  "accepted with %u of %u slots held", MSG_INPL_HOLD, MSG_INPL_RING);
	TEST_ASSERT_EQUAL(st, -EAGAIN, "status when the ring is full");
	ret = rte_rio_add_outb_message(env.mp[0], MSG_DESTID_B, 0, 0, inpl.tx_buf[0], 64);
	TEST_ASSERT_EQUAL(ret, -EAGAIN, "single message into a full ring");

	/* The copy path does not pass held messages, with buffers posted or not. */
	n = rte_rio_recv_messages(env.mp[1], 0, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, 0, "copy path without buffers");
	for (i = 0; i < MSG_INPL_MAX; i++)
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(env.mp[1], 0, env.bufs[1] +
							   (size_t)i * RTE_RIO_MAX_MSG_SIZE),
				    "post");
	n = rte_rio_recv_messages(env.mp[1], 0, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, 0, "copy path passed a held message");
	n = rte_rio_recv_messages(env.mp[1], 0, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, 0, "copy path passed a held message, second poll");
	for (i = 0; i < MSG_INPL_HOLD; i++)
		if (inpl_check(i, 500 + i, msg_len_of(500 + i)) != TEST_SUCCESS)
			return TEST_FAILED;
	/* Released but one: still nothing. */
	for (i = 0; i < MSG_INPL_HOLD - 1; i++)
		inpl_release(order[i]);
	n = rte_rio_recv_messages(env.mp[1], 0, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, 0, "copy path passed a held message (one left)");
	inpl_release(order[MSG_INPL_HOLD - 1]);

	/* All released: the waiting messages, in order. */
	n = msg_recv_wait(1, rx, MSG_BURST, MSG_INPL_RING - MSG_INPL_HOLD);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING - MSG_INPL_HOLD, "waiting messages");
	for (i = 0; i < n; i++) {
		TEST_ASSERT_EQUAL(rx[i].len, msg_wire_len(msg_len_of(600 + i)), "length of %u",
				  600 + i);
		TEST_ASSERT_SUCCESS(msg_check_padded(rx[i].buf, 600 + i, msg_len_of(600 + i)),
				    "message %u lost, reordered or corrupted", 600 + i);
	}
	n = msg_recv(1, rx, MSG_BURST);
	TEST_ASSERT_EQUAL(n, 0, "extra message");

	/* The whole ring is free again. */
	n = inpl_send(700, MSG_INPL_MAX, 0, &st);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING, "accepted after the release");
	TEST_ASSERT_EQUAL(st, -EAGAIN, "status when the ring is full");
	n = msg_recv_wait(1, rx, MSG_BURST, MSG_INPL_RING);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING, "received by the copy path");
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(msg_check(rx[i].buf, 700 + i, msg_len_of(700 + i)),
				    "message %u lost, reordered or corrupted", 700 + i);
	return TEST_SUCCESS;
}

/*
 * Attached to an mbuf as its external buffer, and cloned: the slot goes
 * back when the last mbuf referring to it is freed.
 */
static int
inpl_mbuf(void)
{
	unsigned int avail = rte_mempool_avail_count(inpl.mp);
	struct rte_mbuf *m, *c;
	uint16_t i, n, len;
	int st;

	n = inpl_send(800, 1, 1200, &st);
	TEST_ASSERT_EQUAL(n, 1, "send");
	n = inpl_recv_wait(0, 1);
	TEST_ASSERT_EQUAL(n, 1, "received in place");
	if (inpl_check(0, 800, 1200) != TEST_SUCCESS)
		return TEST_FAILED;
	m = rte_pktmbuf_alloc(inpl.mp);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	inpl.m[0] = m;
	len = inpl.msg[0].len;
	rte_pktmbuf_attach_extbuf(m, inpl.msg[0].buf, RTE_BAD_IOVA, len, inpl.sh[0]);
	inpl.sh[0] = NULL;	/* the mbuf's now */
	m->data_len = len;
	m->pkt_len = len;
	TEST_ASSERT(RTE_MBUF_HAS_EXTBUF(m), "not an external buffer");
	TEST_ASSERT(rte_pktmbuf_mtod(m, void *) == inpl.msg[0].buf, "data pointer");
	TEST_ASSERT_SUCCESS(msg_check(rte_pktmbuf_mtod(m, uint8_t *), 800, len), "content");

	/* Held by the mbuf: the other slots are used and released, but not given back. */
	if (inpl_fill_recv(801, 1, MSG_INPL_RING - 1) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 1; i < MSG_INPL_RING; i++)
		inpl_release(i);
	if (inpl_ring_full("held by an mbuf") != TEST_SUCCESS)
		return TEST_FAILED;

	c = rte_pktmbuf_clone(m, inpl.mp);
	TEST_ASSERT_NOT_NULL(c, "clone");
	inpl.m[1] = c;
	TEST_ASSERT_EQUAL(rte_mbuf_ext_refcnt_read(m->shinfo), 2, "references after a clone");
	rte_pktmbuf_free(m);
	inpl.m[0] = NULL;
	if (inpl_ring_full("held by a clone") != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(msg_check(rte_pktmbuf_mtod(c, uint8_t *), 800, len),
			    "content seen through the clone");
	rte_pktmbuf_free(c);
	inpl.m[1] = NULL;
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(inpl.mp), avail, "mbufs not back in the pool");

	/* Last reference dropped: the whole ring again. */
	if (inpl_release_poll(0, 0) != TEST_SUCCESS ||
	    inpl_fill_recv(900, 0, MSG_INPL_RING) != TEST_SUCCESS)
		return TEST_FAILED;
	return inpl_release_poll(0, MSG_INPL_RING);
}

/*
 * The mailbox closed and opened again while a message is held: the message
 * keeps its place (senders do not overwrite it) until released; then the
 * ring works as before. The declared buffer size applies in place too.
 */
static int
inpl_reopen(void)
{
	uint64_t long0 = 0, long1 = 0;
	uint16_t i, n;
	int st;

	n = inpl_send(1000, 1, MSG_INPL_MAXLEN, &st);
	TEST_ASSERT_EQUAL(n, 1, "send");
	n = inpl_recv_wait(0, 1);
	TEST_ASSERT_EQUAL(n, 1, "received in place");
	if (inpl_check(0, 1000, MSG_INPL_MAXLEN) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 0), "close with a held message");
	TEST_ASSERT_SUCCESS(msg_check(inpl.msg[0].buf, 1000, MSG_INPL_MAXLEN),
			    "held message changed by the close");
	n = inpl_send(1001, 1, 64, &st);
	TEST_ASSERT_EQUAL(n, 0, "accepted by a closed mailbox");
	TEST_ASSERT_EQUAL(st, -EIO, "status for a closed mailbox");
	n = inpl_recv(1, 1);
	TEST_ASSERT_EQUAL(n, 0, "received on a closed mailbox");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 0, MSG_INB_ENTRIES), "reopen");
	TEST_ASSERT_SUCCESS(msg_check(inpl.msg[0].buf, 1000, MSG_INPL_MAXLEN),
			    "held message changed by the reopen");

	/* Its slot stays taken: the senders fill the others only. */
	if (inpl_fill_recv(1100, 1, MSG_INPL_RING - 1) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(msg_check(inpl.msg[0].buf, 1000, MSG_INPL_MAXLEN),
			    "held message overwritten by a sender");
	for (i = 1; i < MSG_INPL_RING; i++)
		inpl_release(i);
	if (inpl_ring_full("held across a reopen") != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(msg_check(inpl.msg[0].buf, 1000, MSG_INPL_MAXLEN),
			    "held message overwritten by a sender");
	if (inpl_release_poll(0, 1) != TEST_SUCCESS ||
	    inpl_fill_recv(1200, 0, MSG_INPL_RING) != TEST_SUCCESS ||
	    inpl_release_poll(0, MSG_INPL_RING) != TEST_SUCCESS)
		return TEST_FAILED;

	/* A declared 64-byte buffer size: 72 bytes are too long in place as well. */
	TEST_ASSERT_SUCCESS(rte_rio_set_inb_buf_size(env.mp[1], 0, 64), "declare 64");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_too_long", &long0), "xstat");
	n = inpl_send(1300, 1, 72, &st);
	TEST_ASSERT_EQUAL(n, 1, "send 72");
	n = inpl_send(1301, 1, 64, &st);
	TEST_ASSERT_EQUAL(n, 1, "send 64");
	n = inpl_recv_wait(0, 1);
	n += inpl_recv(n, 4 - n);
	TEST_ASSERT_EQUAL(n, 1, "only the 64-byte message");
	if (inpl_check(0, 1301, 64) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_too_long", &long1), "xstat");
	TEST_ASSERT_EQUAL(long1 - long0, 1, "msg_rx_too_long");
	return inpl_release_poll(0, 1);
}

/*
 * A whole ring's worth taken in place with the first message still held:
 * the receiver's position comes round to that message's slot, which is
 * neither free nor published for the new lap. The receiver must stop
 * there, not skip the slot as a bad one and give it back under the message.
 */
static int
inpl_wrap(void)
{
	uint64_t bad0 = 0, bad1 = 0;
	uint16_t i, n;
	int st;

	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_bad", &bad0), "xstat");
	/* One burst asking for more than the ring holds. */
	n = inpl_send(10, MSG_INPL_MAX, 0, &st);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING, "fill the ring");
	n = inpl_recv_wait(0, MSG_INPL_RING);
	n += inpl_recv(n, MSG_INPL_MAX - n);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING, "received in place");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_bad", &bad1), "xstat");
	TEST_ASSERT_EQUAL(bad1 - bad0, 0, "held slots skipped as bad ones");
	n = inpl_send(100, 1, 64, &st);
	TEST_ASSERT_EQUAL(n, 0, "a held slot was given back");
	for (i = 0; i < MSG_INPL_RING; i++)
		if (inpl_check(i, 10 + i, msg_len_of(10 + i)) != TEST_SUCCESS)
			return TEST_FAILED;

	/* All released but the first: a poll in place finds nothing, gives nothing back. */
	for (i = 1; i < MSG_INPL_RING; i++)
		inpl_release(i);
	n = inpl_poll();
	TEST_ASSERT_EQUAL(n, 0, "poll in place with the first message held");
	TEST_ASSERT_SUCCESS(msg_xstat(env.name[1], "msg_rx_bad", &bad1), "xstat");
	TEST_ASSERT_EQUAL(bad1 - bad0, 0, "held slot skipped as a bad one");
	n = inpl_send(100, 1, 64, &st);
	TEST_ASSERT_EQUAL(n, 0, "a slot was given back past the held message");
	TEST_ASSERT_EQUAL(st, -EAGAIN, "status when the ring is full");
	if (inpl_check(0, 10, msg_len_of(10)) != TEST_SUCCESS)
		return TEST_FAILED;

	/* Released: the ring works as before. */
	if (inpl_release_poll(0, 1) != TEST_SUCCESS ||
	    inpl_fill_recv(200, 0, MSG_INPL_RING) != TEST_SUCCESS)
		return TEST_FAILED;
	return inpl_release_poll(0, MSG_INPL_RING);
}

/*
 * The mailbox closed with a message held and the rest of the ring waiting:
 * the waiting messages are discarded, but their slots come after the held
 * one and wait for it; the held message is never overwritten.
 */
static int
inpl_close_full(void)
{
	uint16_t i, n;
	int st;

	n = inpl_send(20, 1, MSG_INPL_MAXLEN, &st);
	TEST_ASSERT_EQUAL(n, 1, "send");
	n = inpl_recv_wait(0, 1);
	TEST_ASSERT_EQUAL(n, 1, "received in place");
	if (inpl_check(0, 20, MSG_INPL_MAXLEN) != TEST_SUCCESS)
		return TEST_FAILED;
	n = inpl_send(21, MSG_INPL_MAX, 0, &st);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING - 1, "accepted behind the held message");
	TEST_ASSERT_SUCCESS(rte_rio_release_inb_mbox(env.mp[1], 0), "close, ring full");
	TEST_ASSERT_SUCCESS(msg_check(inpl.msg[0].buf, 20, MSG_INPL_MAXLEN),
			    "held message changed by the close");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(env.mp[1], 0, MSG_INB_ENTRIES), "reopen");
	n = inpl_send(100, MSG_INPL_MAX, 0, &st);
	TEST_ASSERT_EQUAL(n, 0, "slots given back past the held message");
	TEST_ASSERT_EQUAL(st, -EAGAIN, "status when the ring is full");
	TEST_ASSERT_SUCCESS(msg_check(inpl.msg[0].buf, 20, MSG_INPL_MAXLEN),
			    "held message overwritten");

	/*
	 * Released: the messages the ring kept across the close arrive, in
	 * order (a message accepted is never dropped by a close); then the
	 * whole ring is free.
	 */
	inpl_release(0);
	n = inpl_recv(1, MSG_INPL_RING - 1);
	TEST_ASSERT_EQUAL(n, MSG_INPL_RING - 1, "messages kept across the close");
	for (i = 1; i < MSG_INPL_RING; i++)
		if (inpl_check(i, 20 + i, msg_len_of(20 + i)) != TEST_SUCCESS)
			return TEST_FAILED;
	if (inpl_release_poll(1, MSG_INPL_RING - 1) != TEST_SUCCESS ||
	    inpl_fill_recv(300, 0, MSG_INPL_RING) != TEST_SUCCESS)
		return TEST_FAILED;
	return inpl_release_poll(0, MSG_INPL_RING);
}

static int
msg_case_inplace(void)
{
	if (inpl_lengths() != TEST_SUCCESS || inpl_too_long() != TEST_SUCCESS ||
	    inpl_release_order() != TEST_SUCCESS || inpl_hold() != TEST_SUCCESS ||
	    inpl_mbuf() != TEST_SUCCESS || inpl_reopen() != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/*
 * Run an in-place case on a fabric with MSG_INPL_RING-slot rings, B's
 * mailbox 0 open without a buffer posted (receiving in place needs none).
 */
static int
inpl_run(int (*fn)(void))
{
	struct rte_rio_mport_info info = { 0 };
	int ret = msg_env_setup_entries(MSG_INPL_RING);

	if (ret == TEST_SUCCESS) {
		ret = TEST_FAILED;
		inpl.mp = rte_pktmbuf_pool_create("rio_msg_inpl", 63, 0, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
		if (inpl.mp == NULL)
			printf("  cannot create the mbuf pool\n");
		else if (rte_rio_mport_info_get(env.mp[1], &info) != 0 ||
			 info.inb_inplace_max != MSG_INPL_MAXLEN)
			printf("  inb_inplace_max %u, expected %u\n", info.inb_inplace_max,
			       MSG_INPL_MAXLEN);
		else if (rte_rio_release_inb_mbox(env.mp[1], 0) != 0 ||
			 rte_rio_request_inb_mbox(env.mp[1], 0, MSG_INB_ENTRIES) != 0)
			printf("  cannot reopen B's mailbox 0\n");
		else
			ret = fn();
		inpl_cleanup();
	}
	if (msg_env_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

/*
 * Receive in place on a 16-slot ring: lengths, drops, release order, held
 * messages against the senders and the copy path, mbufs, mailbox reopen.
 */
static int
test_msg_inplace(void)
{
	return inpl_run(msg_case_inplace);
}

/* Receive in place with the whole ring taken and its first message held. */
static int
test_msg_inplace_wrap(void)
{
	return inpl_run(inpl_wrap);
}

/* Mailbox closed with a message held in place and the rest of the ring waiting. */
static int
test_msg_inplace_close_full(void)
{
	return inpl_run(inpl_close_full);
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
			if (rx_seq >= rx_count || rx[i].len != msg_wire_len(msg_len_of(rx_seq)) ||
			    msg_check_padded(rx[i].buf, rx_seq, msg_len_of(rx_seq)) != 0 ||
			    rx[i].srcid != peer || rx[i].letter != (rx_seq & 3)) {
				printf("  %s: message %" PRIu64 " lost, duplicated or corrupted\n",
				       who, rx_seq);
				return -EIO;
			}
			sum_rx += msg_len_of(rx_seq) + rx_seq;
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
			if (*seq >= MSG_XCHG_COUNT || rx[i].len != msg_wire_len(msg_len_of(*seq)) ||
			    msg_check_padded(rx[i].buf, *seq, msg_len_of(*seq)) != 0 ||
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
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_close_race),
		TEST_CASE_ST(msg_case_setup, NULL, test_msg_garbage),
		TEST_CASE(test_msg_inplace),
		TEST_CASE(test_msg_inplace_wrap),
		TEST_CASE(test_msg_inplace_close_full),
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
#define MSG_PERF_DEADLINE_S	300

static int
msg_perf_run(uint16_t burst)
{
	static uint8_t tx_buf[MSG_BURST][MSG_PERF_SIZE];
	struct rte_rio_msg tx[MSG_BURST], rx[MSG_BURST];
	uint64_t sent = 0, recvd = 0, t0, t1, deadline, retries = 0;
	uint16_t i, n, r;
	double secs;

	for (i = 0; i < burst; i++) {
		memset(tx_buf[i], i, MSG_PERF_SIZE);
		tx[i] = (struct rte_rio_msg){ .buf = tx_buf[i], .len = MSG_PERF_SIZE,
			.destid = MSG_DESTID_B };
	}
	t0 = rte_rdtsc();
	/*
	 * The last burst may take the count past MSG_PERF_COUNT, and those
	 * messages arrive in their time: receive until every one did (a
	 * deadline, not a measurement).
	 */
	deadline = t0 + MSG_PERF_DEADLINE_S * rte_get_tsc_hz();
	while ((recvd < MSG_PERF_COUNT || recvd < sent) && rte_rdtsc() < deadline) {
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
