/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Processes that stop without dying (SIGSTOP, a debugger, a long
 * preemption) on an emulated fabric:
 *
 *   sw0 (4 ports): ep0 (destid 1), ep1 (destid 2), ep2 (destid 3)
 *
 * rio_sim_stall_autotest: two sender processes (ep0, ep2) stream numbered
 *   messages of 1 to 4 KiB to this process (ep1), which checks every byte. One sender is
 *   stopped with SIGSTOP right between claiming ring slots and publishing
 *   them (the test checks the ring: its consumer position stays claimed and
 *   unpublished) and held for 6 s, longer than any timeout the receiver
 *   once had; then both are stopped and continued at random (the seed is
 *   printed; RIO_TEST_SEED replays it). Every accepted message must arrive
 *   once, in order, intact: a receiver that gives up on a stopped sender's
 *   slot loses that message, and the sender's late copy lands in a slot
 *   another sender owns by then.
 *   The wait is counted (the msg_rx_wait_sender xstat).
 */

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_rawdev.h>
#include <rte_string_fns.h>

#include "rio_app_common.h"
#include "rte_rio.h"
#include "rte_pmd_rio_sim.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rte_rio_regs.h"
#include "rio_sim_shm.h"

#include "test.h"
#include "test_rio_sim_shm.h"

#define ST_MAGIC	0x53544c4cu	/* "STLL" */
#define ST_SENDERS	2
#define ST_RING		256		/* inbound ring slots */
#define ST_BURST	64		/* messages per send call */
#define ST_COUNT	60000		/* messages per sender after the long stop */
#define ST_HOLD_MS	6000		/* the long stop inside the window */
#define ST_CATCH_MS	30000		/* time to land a stop inside it */
#define ST_SHORT_STOPS	40
#define ST_WAIT_S	60		/* bound of every wait for the senders */
#define ST_HDR		24		/* magic, flow, seq, crc */

/* What the sender processes report, in a file all of them map. */
struct st_ctl {
	uint64_t accepted[ST_SENDERS];	/* messages rte_rio_send_messages() took */
	uint32_t done[ST_SENDERS];	/* 1: all sent; 2: failed */
	uint32_t go[ST_SENDERS];	/* set by the receiver: start sending */
	uint64_t target[ST_SENDERS];	/* set by the receiver: how many in all; 0: not yet */
};

static uint64_t
st_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint16_t
st_len(uint64_t seq)
{
	return (uint16_t)(1024 + (seq * 2654435761u) % (RTE_RIO_MAX_MSG_SIZE - 1024 + 1));
}

/*
 * Payloads: pattern k of flow f (64-bit words) for the messages whose
 * sequence number is k modulo ST_BURST, built once in every process. A
 * sender writes only the header of a message (magic, flow, sequence,
 * length): it spends its time sending, inside the window the test wants to
 * stop it in. The receiver compares every byte.
 */
static uint8_t st_pat[ST_SENDERS][ST_BURST][RTE_RIO_MAX_MSG_SIZE];

static void
st_patterns(void)
{
	uint64_t w;
	unsigned int f, k, i;

	for (f = 0; f < ST_SENDERS; f++)
		for (k = 0; k < ST_BURST; k++)
			for (i = 0, w = (uint64_t)f << 56 | k; i < RTE_RIO_MAX_MSG_SIZE; i += 8) {
				memcpy(&st_pat[f][k][i], &w, 8);
				w = w * 0x9e3779b97f4a7c15ull + 0x100000001b3ull;
			}
}

/* Message @seq of flow @flow: its header in its pattern buffer, which it is sent from. */
static uint8_t *
st_fill(uint32_t flow, uint64_t seq, uint16_t len)
{
	uint8_t *buf = st_pat[flow][seq % ST_BURST];
	uint32_t magic = ST_MAGIC;

	memcpy(buf, &magic, 4);
	memcpy(buf + 4, &flow, 4);
	memcpy(buf + 8, &seq, 8);
	memcpy(buf + 16, &len, 2);
	memset(buf + 18, 0, ST_HDR - 18);
	return buf;
}

/* Flow and sequence of an intact message; false when it is not one. */
static bool
st_parse(const uint8_t *buf, uint16_t len, uint32_t *flow, uint64_t *seq)
{
	uint32_t magic;
	uint16_t hlen, i;

	if (len < ST_HDR)
		return false;
	memcpy(&magic, buf, 4);
	memcpy(flow, buf + 4, 4);
	memcpy(seq, buf + 8, 8);
	memcpy(&hlen, buf + 16, 2);
	/* It arrives padded to whole double-words, with zeros. */
	if (magic != ST_MAGIC || *flow >= ST_SENDERS || hlen != st_len(*seq) ||
	    len != RTE_ALIGN_CEIL(hlen, 8))
		return false;
	for (i = hlen; i < len; i++)
		if (buf[i] != 0)
			return false;
	return memcmp(buf + ST_HDR, &st_pat[*flow][*seq % ST_BURST][ST_HDR], hlen - ST_HDR) == 0;
}

/* Topology: sw0 with ep0, ep1 and ep2 (destids 1..3), static routes. */
static const char st_topology[] =
	"[fabric]\n"
	"mbox_entries = " RTE_STR(ST_RING) "\n"
	"static_routes = 1\n"
	"[switch sw0]\n"
	"ports = 4\n"
	"[endpoint ep0]\n"
	"destid = 1\n"
	"[endpoint ep1]\n"
	"destid = 2\n"
	"[endpoint ep2]\n"
	"destid = 3\n"
	"[links]\n"
	"sw0.0 = ep0.0\n"
	"sw0.1 = ep1.0\n"
	"sw0.2 = ep2.0\n";

/*
 * A sender: args <control file> <flow> <vdev name>. Sends messages to destid
 * 2, mailbox 0, in bursts of ST_BURST, offering a refused one again until it
 * is accepted, until it has sent as many as the receiver's target once it
 * is set.
 */
static int
st_sender_child(int argc, char **argv)
{
	struct rte_rio_msg msgs[ST_BURST];
	struct rte_rio_mport *mp;
	struct st_ctl *ctl = NULL;
	uint64_t next = 0, deadline, target = 0;
	uint32_t flow;
	uint16_t k, n;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("stall sender: EAL init failed\n");
		return 2;
	}
	argc = rio_test_child_args(argc, argv, ret, &argv);
	if (argc < 3 || (ctl = rio_test_map_file(argv[0], sizeof(*ctl), false)) == NULL) {
		printf("stall sender: bad arguments\n");
		return 2;
	}
	flow = (uint32_t)atoi(argv[1]);
	mp = rte_rio_mport_find(argv[2]);
	st_patterns();
	if (flow >= ST_SENDERS || mp == NULL ||
	    rte_rio_request_outb_mbox(mp, 0, ST_RING) != 0) {
		printf("stall sender %u: no mport or mailbox\n", flow);
		goto fail;
	}
	deadline = st_now_ms() + 4 * ST_WAIT_S * 1000;
	while (__atomic_load_n(&ctl->go[flow], __ATOMIC_ACQUIRE) == 0 && st_now_ms() < deadline)
		rte_delay_us_sleep(1000);
	while (st_now_ms() < deadline) {
		target = __atomic_load_n(&ctl->target[flow], __ATOMIC_ACQUIRE);
		if (target != 0 && next >= target)
			break;
		for (k = 0; k < ST_BURST && (target == 0 || next + k < target); k++) {
			msgs[k] = (struct rte_rio_msg){ .destid = 2, .len = st_len(next + k) };
			msgs[k].buf = st_fill(flow, next + k, msgs[k].len);
		}
		n = rte_rio_send_messages(mp, 0, msgs, k);
		next += n;
		__atomic_store_n(&ctl->accepted[flow], next, __ATOMIC_RELEASE);
		if (n < k && msgs[n].status != -EAGAIN) {
			printf("stall sender %u: message %" PRIu64 " refused: %d\n", flow, next,
			       msgs[n].status);
			goto fail;
		}
	}
	if (target == 0 || next != target) {
		printf("stall sender %u: %" PRIu64 " of %" PRIu64 " sent in time\n", flow, next,
		       target);
		goto fail;
	}
	__atomic_store_n(&ctl->done[flow], 1, __ATOMIC_RELEASE);
	rte_eal_cleanup();
	return 0;
fail:
	if (ctl != NULL)
		__atomic_store_n(&ctl->done[flow], 2, __ATOMIC_RELEASE);
	rte_eal_cleanup();
	return 1;
}
REGISTER_TEST_CHILD(rio_sim_stall_sender, st_sender_child);

/* The receiving side, in this process. */
static struct {
	char fabric[32];
	char topo[64];
	char ctl_path[64];
	char vdev[ST_SENDERS + 1][32];
	char prefix[ST_SENDERS][48];
	pid_t pid[ST_SENDERS];
	struct st_ctl *ctl;
	struct rte_rio_mport *mp;
	uint8_t *bufs;
	struct sim_shm_data_hdr *data;	/* our data segment, to see the ring */
	size_t data_size;
	uint64_t expect[ST_SENDERS];
	uint64_t bad;
	unsigned int seed;
} st;

/* Receive what is there; check and count it, post the buffers again. */
static int
st_poll(void)
{
	struct rte_rio_msg rx[32];
	uint32_t flow;
	uint64_t seq;
	uint16_t n, k;

	n = rte_rio_recv_messages(st.mp, 0, rx, RTE_DIM(rx));
	for (k = 0; k < n; k++) {
		if (!st_parse(rx[k].buf, rx[k].len, &flow, &seq)) {
			if (st.bad++ < 5)
				printf("  corrupted message (%u bytes)\n", rx[k].len);
		} else if (seq != st.expect[flow]) {
			if (st.bad++ < 5)
				printf("  flow %u: message %" PRIu64 ", expected %" PRIu64 " (%s)\n",
				       flow, seq, st.expect[flow],
				       seq > st.expect[flow] ? "lost" : "duplicated or reordered");
			st.expect[flow] = seq + 1;
		} else {
			st.expect[flow]++;
		}
		if (rte_rio_add_inb_buffer(st.mp, 0, rx[k].buf) != 0) {
			printf("  cannot post a receive buffer again\n");
			return -1;
		}
	}
	return n;
}

/* An xstat of the receiving mport; UINT64_MAX when it has none of that name. */
static uint64_t
st_xstat(const char *name)
{
	unsigned int id;
	uint64_t v;

	v = rte_rawdev_xstats_by_name_get(rte_rawdev_get_dev_id(st.vdev[ST_SENDERS]), name, &id);
	return id == (unsigned int)-1 ? UINT64_MAX : v;
}

/* Poll for @us microseconds. */
static int
st_poll_us(uint64_t us)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000000 * us;

	while (rte_get_timer_cycles() < end)
		if (st_poll() < 0)
			return -1;
	return 0;
}

/* Poll for @ms milliseconds. */
static int
st_poll_for(uint64_t ms)
{
	return st_poll_us(ms * 1000);
}

/*
 * Stop sender @flow and wait until it is stopped, receiving meanwhile.
 * @return 0 once it is stopped, 1 when it had sent all it had to and
 * exited (there is nothing to stop), -1 when it cannot be stopped.
 */
static int
st_stop(unsigned int flow)
{
	uint64_t end = st_now_ms() + ST_WAIT_S * 1000;
	pid_t pid = st.pid[flow];
	uint32_t done;
	char state;

	if (kill(pid, SIGSTOP) != 0) {
		printf("  cannot stop %d: %s\n", (int)pid, strerror(errno));
		return -1;
	}
	while ((state = rio_app_proc_state(pid)) != 'T') {
		if (state == 'Z') {
			done = __atomic_load_n(&st.ctl->done[flow], __ATOMIC_ACQUIRE);
			if (done == 1)
				return 1;
			printf("  sender %u (%d) exited before it was done (%s)\n", flow,
			       (int)pid, done == 2 ? "it failed" : "it died");
			return -1;
		}
		if (st_now_ms() > end) {
			printf("  %d not stopped after %u s (state %c)\n", (int)pid, ST_WAIT_S,
			       state);
			return -1;
		}
		if (st_poll() < 0)
			return -1;
	}
	return 0;
}

static void
st_teardown(void)
{
	unsigned int i;

	for (i = 0; i < ST_SENDERS; i++) {
		if (st.pid[i] > 0) {
			kill(st.pid[i], SIGCONT);
			kill(st.pid[i], SIGKILL);
			rio_test_wait(st.pid[i], 5000);
			rio_test_runtime_dir_cleanup(st.prefix[i]);
		}
		st.pid[i] = 0;
	}
	if (st.data != NULL)
		munmap(st.data, st.data_size);
	st.data = NULL;
	if (st.mp != NULL)
		rte_vdev_uninit(st.vdev[ST_SENDERS]);
	st.mp = NULL;
	free(st.bufs);
	st.bufs = NULL;
	if (st.ctl != NULL)
		munmap(st.ctl, sizeof(*st.ctl));
	st.ctl = NULL;
	unlink(st.ctl_path);
	unlink(st.topo);
	if (st.fabric[0] != '\0') {
		char prefix[64];

		snprintf(prefix, sizeof(prefix), "rio_sim.%s", st.fabric);
		if (rio_test_shm_count(prefix) != 0) {
			printf("  shared memory of %s left behind\n", st.fabric);
			st.bad++;
			rio_test_shm_cleanup(prefix);
		}
	}
}

static int
st_setup(void)
{
	char args[256], fp[80], vdev[256], flow[8];
	char *argv[] = { "--no-huge", "-m", "64", "--no-pci", fp, "--log-level=lib.eal:error",
			 "--vdev", vdev, "--", st.ctl_path, flow, NULL, NULL };
	static const char * const ep[ST_SENDERS] = { "ep0", "ep2" };
	uint64_t ep_index = 0;
	unsigned int i;
	int dev;

	memset(&st, 0, sizeof(st));
	if (rio_test_unique("stl", st.fabric, sizeof(st.fabric)) == NULL ||
	    rio_test_temp_file(st.topo, sizeof(st.topo), "rio_sim_stall", st_topology) != 0)
		return -1;
	snprintf(st.ctl_path, sizeof(st.ctl_path), "/tmp/%s.ctl", st.fabric);
	st.ctl = rio_test_map_file(st.ctl_path, sizeof(*st.ctl), true);
	if (st.ctl == NULL)
		return -1;
	for (i = 0; i <= ST_SENDERS; i++)
		snprintf(st.vdev[i], sizeof(st.vdev[i]), "rio_sim_stl%u", i);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep1,scan=0", st.fabric,
		 st.topo);
	if (rte_vdev_init(st.vdev[ST_SENDERS], args) != 0)
		return -1;
	st.mp = rte_rio_mport_find(st.vdev[ST_SENDERS]);
	st.bufs = malloc((size_t)ST_RING * RTE_RIO_MAX_MSG_SIZE);
	if (st.mp == NULL || st.bufs == NULL || rte_rio_request_inb_mbox(st.mp, 0, ST_RING) != 0)
		return -1;
	for (i = 0; i < ST_RING; i++)
		if (rte_rio_add_inb_buffer(st.mp, 0, st.bufs + (size_t)i * RTE_RIO_MAX_MSG_SIZE))
			return -1;
	/* Our data segment: where the ring shows a slot claimed but not published. */
	dev = rte_rawdev_get_dev_id(st.vdev[ST_SENDERS]);
	if (dev < 0 || rte_rawdev_get_attr(dev, RTE_PMD_RIO_SIM_ATTR_EP_INDEX, &ep_index) != 0)
		return -1;
	st.data = test_shm_map_data(st.fabric, (uint32_t)ep_index, &st.data_size);
	if (st.data == NULL)
		return -1;
	for (i = 0; i < ST_SENDERS; i++) {
		snprintf(st.prefix[i], sizeof(st.prefix[i]), "%s_%u", st.fabric, i);
		snprintf(fp, sizeof(fp), "--file-prefix=%s", st.prefix[i]);
		snprintf(vdev, sizeof(vdev), "%s,fabric=%s,endpoint=%s,scan=0", st.vdev[i],
			 st.fabric, ep[i]);
		snprintf(flow, sizeof(flow), "%u", i);
		argv[RTE_DIM(argv) - 2] = st.vdev[i];
		st.pid[i] = rio_test_spawn("rio_sim_stall_sender", argv);
		if (st.pid[i] <= 0)
			return -1;
	}
	return 0;
}

/* Random number in [0, n) from the test's seed. */
static unsigned int
st_rand(unsigned int n)
{
	return (unsigned int)rand_r(&st.seed) % n;
}

static int
test_rio_sim_stall(void)
{
	uint64_t t0, acc;
	unsigned int i, tries, victim, stops, finished = 0;
	const char *env_seed = getenv("RIO_TEST_SEED");
	bool held = false;
	int ret = TEST_FAILED, status, rc;

	st_patterns();
	if (st_setup() != 0) {
		printf("  set-up failed\n");
		goto out;
	}
	st.seed = env_seed != NULL ? (unsigned int)strtoul(env_seed, NULL, 0) :
		(unsigned int)(rte_rdtsc() ^ getpid());
	printf("  seed %u (RIO_TEST_SEED=%u replays it)\n", st.seed, st.seed);
	/*
	 * Sender 0 alone first (a ring that is rarely full: it spends its time
	 * between claim and publish): stop it until once it stops inside that
	 * window. Sender 1 starts then, and fills the ring behind the slot.
	 */
	__atomic_store_n(&st.ctl->go[0], 1, __ATOMIC_RELEASE);
	t0 = st_now_ms();
	while (__atomic_load_n(&st.ctl->accepted[0], __ATOMIC_ACQUIRE) < 2000) {
		if (st_now_ms() - t0 > ST_WAIT_S * 1000 || st_poll() < 0) {
			printf("  sender 0 never got going\n");
			goto out;
		}
	}
	t0 = st_now_ms();
	/*
	 * Each try: the receiver empties the ring, the sender is continued and
	 * fills it again at once (a ring of runs of ST_BURST slots, copied
	 * between claim and publish), and is stopped a random few hundred
	 * microseconds later, most likely in the middle of that.
	 */
	for (tries = 0; st_now_ms() - t0 < ST_CATCH_MS && !held; tries++) {
		if (st_poll_us(st_rand(400)) != 0 || st_stop(0) != 0)
			goto out;
		/* What was published is received: a stuck slot is the stopped sender's. */
		if (st_poll_for(3) != 0)
			goto out;
		if (test_shm_ring_stuck(st.data, 0)) {
			held = true;
			acc = __atomic_load_n(&st.ctl->accepted[0], __ATOMIC_ACQUIRE);
			printf("  sender 0 stopped between claim and publish (try %u, %" PRIu64
			       " messages accepted): held %u ms\n", tries + 1, acc, ST_HOLD_MS);
			__atomic_store_n(&st.ctl->go[1], 1, __ATOMIC_RELEASE);
			if (st_poll_for(ST_HOLD_MS) != 0)
				goto out;
			if (!test_shm_ring_stuck(st.data, 0)) {
				printf("  the receiver gave up the stopped sender's slot\n");
				st.bad++;
			}
			if (st_xstat("msg_rx_wait_sender") == 0) {
				printf("  msg_rx_wait_sender did not count the wait\n");
				st.bad++;
			}
		}
		kill(st.pid[0], SIGCONT);
	}
	if (!held) {
		/* The machine decides where a stop lands: the rest is checked all the same. */
		printf("  sender 0 never stopped inside the window in %u tries (%u ms): stopped for %u ms anyway, not inside\n",
		       tries, ST_CATCH_MS, ST_HOLD_MS);
		__atomic_store_n(&st.ctl->go[1], 1, __ATOMIC_RELEASE);
		if (st_stop(0) != 0 || st_poll_for(ST_HOLD_MS) != 0)
			goto out;
		kill(st.pid[0], SIGCONT);
	}
	__atomic_store_n(&st.ctl->go[1], 1, __ATOMIC_RELEASE);
	/*
	 * From here on, ST_COUNT more from each sender. Sender 1 may have sent
	 * many already: behind a stuck slot only a ring's worth, but when the
	 * stop landed outside the window it ran freely through the long stop.
	 */
	for (i = 0; i < ST_SENDERS; i++)
		__atomic_store_n(&st.ctl->target[i],
				 __atomic_load_n(&st.ctl->accepted[i], __ATOMIC_ACQUIRE) +
				 ST_COUNT, __ATOMIC_RELEASE);
	/*
	 * Both senders stopped and continued at random while they send: a fast
	 * machine may finish them before all the stops (each stop says so).
	 */
	for (i = 0, stops = 0; i < ST_SHORT_STOPS && finished != (1u << ST_SENDERS) - 1; i++) {
		do
			victim = st_rand(ST_SENDERS);
		while (finished & (1u << victim));
		if (st_poll_for(st_rand(5)) != 0)
			goto out;
		rc = st_stop(victim);
		if (rc < 0)
			goto out;
		if (rc == 1) {
			finished |= 1u << victim;
			continue;
		}
		stops++;
		if (st_poll_for(1 + st_rand(5)) != 0)
			goto out;
		kill(st.pid[victim], SIGCONT);
	}
	printf("  %u short stops while the senders sent\n", stops);
	/* Everything accepted arrives. */
	t0 = st_now_ms();
	while (st.expect[0] < st.ctl->target[0] || st.expect[1] < st.ctl->target[1]) {
		if (st_now_ms() - t0 > ST_WAIT_S * 1000) {
			printf("  received %" PRIu64 " of %" PRIu64 " and %" PRIu64 " of %" PRIu64
			       "; senders done %u %u\n", st.expect[0], st.ctl->target[0],
			       st.expect[1], st.ctl->target[1], st.ctl->done[0], st.ctl->done[1]);
			goto out;
		}
		if (st_poll() < 0)
			goto out;
	}
	for (i = 0; i < ST_SENDERS; i++) {
		status = rio_test_wait(st.pid[i], ST_WAIT_S * 1000);
		st.pid[i] = 0;
		rio_test_runtime_dir_cleanup(st.prefix[i]);
		if (status != 0 || st.ctl->accepted[i] != st.ctl->target[i]) {
			printf("  sender %u: exit %d, %" PRIu64 " accepted\n", i, status,
			       st.ctl->accepted[i]);
			goto out;
		}
	}
	if (st_poll_for(50) != 0)
		goto out;
	printf("  %" PRIu64 " + %" PRIu64 " messages accepted, received once each, in order, "
	       "intact: %s\n", st.ctl->target[0], st.ctl->target[1], st.bad == 0 ? "yes" : "NO");
	ret = st.bad == 0 ? TEST_SUCCESS : TEST_FAILED;
out:
	st_teardown();
	if (st.bad != 0)
		ret = TEST_FAILED;
	return ret;
}

REGISTER_TEST_COMMAND(rio_sim_stall_autotest, test_rio_sim_stall);

/* ------------------------------------------------------------------ */
/* A lock holder that stops                                           */

#define LK_TRIES	5000	/* stops tried to catch the holder inside the lock */
#define LK_WAIT_MS	20000	/* bound of a probe: a lock wait must end long before */

/* Holder: args <fabric>. Writes sw0's component tag in a loop until killed. */
static int
lk_holder_child(int argc, char **argv)
{
	char err[256];
	uint32_t v = 0;

	if (argc < 2 || rte_pmd_rio_sim_fabric_attach(argv[1], NULL, err, sizeof(err)) != 0) {
		printf("lock holder: cannot attach: %s\n", argc < 2 ? "no fabric" : err);
		return 2;
	}
	for (;;)
		rte_pmd_rio_sim_fabric_config_write(argv[1], "sw0", RTE_RIO_COMPONENT_TAG_CSR, 4,
						    v++);
	return 0;
}
REGISTER_TEST_CHILD(rio_sim_lock_holder, lk_holder_child);

/*
 * Probe: args <fabric> <timeout|ok>. One config read of sw0: exit 0 when it
 * timed out (timeout) or succeeded (ok), as expected; 1 otherwise.
 */
static int
lk_probe_child(int argc, char **argv)
{
	uint64_t t0 = st_now_ms();
	bool want_timeout;
	uint32_t v;
	int rc;

	if (argc < 3)
		return 2;
	want_timeout = strcmp(argv[2], "timeout") == 0;
	rc = rte_pmd_rio_sim_fabric_config_read(argv[1], "sw0", RTE_RIO_COMPONENT_TAG_CSR, 4,
						&v);
	printf("  probe: config read returned %d after %" PRIu64 " ms\n", rc, st_now_ms() - t0);
	return (want_timeout ? rc == -ETIMEDOUT : rc == 0) ? 0 : 1;
}
REGISTER_TEST_CHILD(rio_sim_lock_probe, lk_probe_child);

static int
lk_probe(const char *fab, const char *want)
{
	char *argv[] = { (char *)(uintptr_t)fab, (char *)(uintptr_t)want, NULL };
	pid_t pid = rio_test_spawn("rio_sim_lock_probe", argv);

	return pid > 0 ? rio_test_wait(pid, LK_WAIT_MS) : -1;
}

/*
 * rio_sim_lock_autotest: a process stopped (SIGSTOP) inside a short lock of
 * the fabric (a device's configuration space) makes another process's
 * access fail with -ETIMEDOUT after a bounded wait, never spin forever;
 * once continued it releases the lock; a holder killed inside it, or a
 * lock word holding garbage, is taken over at once.
 */
static int
test_rio_sim_lock(void)
{
	char fab[32], err[256];
	struct sim_shm_hdr *h = NULL;
	struct sim_shm_lock *lock;
	size_t size = 0;
	unsigned int tries;
	pid_t holder = -1;
	char *argv[] = { fab, NULL };
	int idx, ret = TEST_FAILED;

	TEST_ASSERT_NOT_NULL(rio_test_unique("lck", fab, sizeof(fab)), "name");
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_create(fab, "builtin:default", err,
							  sizeof(err)), "%s", err);
	idx = rte_pmd_rio_sim_fabric_dev_find(fab, "sw0");
	h = test_shm_map_fabric(fab, &size);
	if (idx < 0 || h == NULL)
		goto out;
	lock = &((struct sim_shm_device *)RTE_PTR_ADD(h, h->dev_off))[idx].lock;

	holder = rio_test_spawn("rio_sim_lock_holder", argv);
	if (holder <= 0)
		goto out;
	for (tries = 0; tries < LK_TRIES; tries++) {
		if (kill(holder, SIGSTOP) != 0)
			goto out;
		while (rio_app_proc_state(holder) != 'T')
			;
		if (__atomic_load_n(&lock->holder, __ATOMIC_ACQUIRE) != 0)
			break;
		kill(holder, SIGCONT);
		rte_delay_us_sleep(st_rand(200));
	}
	if (tries == LK_TRIES) {
		printf("  the holder never stopped inside the lock in %u tries\n", LK_TRIES);
		goto out;
	}
	printf("  holder stopped inside sw0's lock (try %u): another access must give up\n",
	       tries + 1);
	if (lk_probe(fab, "timeout") != 0) {
		printf("  the access did not time out\n");
		goto out;
	}
	kill(holder, SIGCONT);
	if (lk_probe(fab, "ok") != 0) {
		printf("  the access failed once the holder continued\n");
		goto out;
	}
	/* Killed inside the lock: taken over. */
	for (tries = 0; tries < LK_TRIES; tries++) {
		kill(holder, SIGSTOP);
		while (rio_app_proc_state(holder) != 'T')
			;
		if (__atomic_load_n(&lock->holder, __ATOMIC_ACQUIRE) != 0)
			break;
		kill(holder, SIGCONT);
		rte_delay_us_sleep(st_rand(200));
	}
	kill(holder, SIGKILL);
	rio_test_wait(holder, 5000);
	holder = -1;
	printf("  holder killed inside the lock (%s)\n",
	       __atomic_load_n(&lock->holder, __ATOMIC_ACQUIRE) != 0 ? "lock word kept" :
	       "it had left the lock");
	if (lk_probe(fab, "ok") != 0) {
		printf("  the lock of a process that is gone was not taken over\n");
		goto out;
	}
	/* A lock word with garbage in it (no attach slot, or one nobody holds). */
	__atomic_store_n(&lock->holder, 0xdead0000u, __ATOMIC_RELEASE);
	if (lk_probe(fab, "ok") != 0) {
		printf("  a garbage lock word was not taken over\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (holder > 0) {
		kill(holder, SIGKILL);
		rio_test_wait(holder, 5000);
	}
	if (h != NULL)
		munmap(h, size);
	rte_pmd_rio_sim_fabric_destroy(fab);
	return ret;
}

REGISTER_TEST_COMMAND(rio_sim_lock_autotest, test_rio_sim_lock);
