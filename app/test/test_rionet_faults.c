/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Faults and link events of rionet, on one rio_sim fabric:
 *
 *   sw0 (8 ports): ep0 (host, destid 0) ep1 (destid 1) ep2 (destid 2)
 *
 * rionet_peer_kill_autotest: three processes, A (this one, ep0), B (child,
 *   ep1) and C (child, ep2), exchange frames with sequence numbers. C is
 *   killed with SIGKILL (and left unreaped, a zombie, until the end). A and B
 *   must see C leave within 1 s of the kill (each measures it), keep their
 *   own traffic going with nothing lost, count what they drop for C, and leak
 *   no mbuf. Then a new process claims ep2, joins, and traffic to it resumes:
 *   everything A and B get accepted for it arrives, in order.
 * rionet_stall_autotest: A, B and C exchange frames while B and C are
 *   stopped with SIGSTOP (once 6 s each, then briefly at random): nobody
 *   takes a stopped peer for a dead one, nothing is dropped or lost.
 * rionet_slow_rx_autotest: a sender blasts at a receiver (child) that sleeps
 *   between small bursts: tx_burst pushes back, and every accepted frame
 *   arrives once, in order, intact.
 * rionet_lsc_autotest: link status events (intr_conf.lsc): up when the first
 *   peer joins, down when the last one leaves or the port stops.
 * rionet_peer_error_autotest: an ERROR answer comes from a live peer: counted,
 *   the peer stays active (only unanswered sends make it lost).
 * rionet_link_flap_autotest: the link of a live peer goes down under
 *   traffic: the sender loses it (link down event), the peer never noticed;
 *   when the link is back the sender JOINs again, the peer answers, the link
 *   comes up and frames flow again, without endless JOINs.
 * rio_sim_dead_owner_autotest: the emulator under rionet: a full ring of a
 *   live owner is RETRY; once the owner is killed (a zombie), messages and
 *   doorbells time out; a new owner gets an empty ring and every later message.
 */

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rawdev.h>

#include "rio_app_common.h"
#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim.h"
#include "rionet.h"

#include "test.h"
#include "test_rio_sim_shm.h"

#define RF_NB_MBUF	4096
#define RF_DESC		256
#define RF_BURST	32
#define RF_TX_BURST	16
#define RF_MAGIC	0x52464c54u	/* "RFLT" */
#define RF_NSLOT	4		/* A, B, C, C' (the process that reclaims ep2) */
#define RF_NDEST	3		/* destids 0..2 */
#define RF_KILLED	2		/* destid of C */
#define RF_WAIT_S	20		/* bound of every wait for another process */
#define RF_MBOX_ENTRIES	512		/* inbound ring slots of the faults' fabric */

enum rf_slot { RF_A = 0, RF_B = 1, RF_C = 2, RF_C2 = 3 };

enum rf_phase {
	RF_PH_SETUP = 0,	/* processes start and join */
	RF_PH_RUN,		/* everybody sends to everybody */
	RF_PH_KILLED,		/* C was killed: A and B keep sending, to C too */
	RF_PH_RESTART,		/* C' claims ep2 and joins */
	RF_PH_STOP,		/* no more sends: receivers drain */
	RF_PH_QUIT,		/* children check, clean up and exit */
};

/* What one process reports, in the control file shared by all of them. */
struct rf_proc {
	uint32_t ready;		/* port started, every peer active */
	uint32_t failed;	/* a check of its own failed (it printed why) */
	uint64_t tx[RF_NDEST];	/* frames tx_burst consumed per destination */
	uint64_t rx[RF_NDEST];	/* frames received in order per source */
	uint64_t rx_bad;	/* out of order, duplicated or corrupted */
	uint64_t depart_ns;	/* CLOCK_MONOTONIC when C was seen inactive */
	uint64_t tx_at_depart;	/* tx to the other survivor when it saw C leave */
	uint64_t rejoined;	/* saw ep2 active again */
	uint64_t c2_base;	/* peer_0x0002_tx_packets while ep2 was inactive */
	uint64_t c2_accepted;	/* frames to C' accepted by the fabric */
	uint64_t drops_c;	/* frames to C consumed but not delivered (errors + unknown) */
	uint64_t lost_c;	/* peer_0x0002_lost */
	uint64_t frames_c;	/* frames to C consumed between the kill and the rejoin */
	uint64_t acct_c;	/* of those: tx_packets + tx_errors + unknown_destination */
	uint64_t peers_lost;	/* xstats at the end of its run */
	uint64_t join_rx;
	uint64_t join_tx;
	uint64_t tx_dropped;	/* oerrors: frames consumed but not sent */
};

struct rf_ctl {
	uint32_t phase;		/* enum rf_phase, written by A */
	uint32_t rsvd;
	uint64_t kill_ns;	/* CLOCK_MONOTONIC just before kill(C) */
	struct rf_proc p[RF_NSLOT];
};

/* One process's side of the traffic. */
struct rf_worker {
	struct rf_ctl *ctl;
	struct rf_proc *me;
	unsigned int slot;
	uint16_t destid;
	uint16_t port;
	struct rte_mempool *mp;
	uint64_t expect[RF_NDEST];
	bool seen[RF_NDEST];
	bool lenient_first;	/* C': the first frame of a source sets its sequence */
	bool c_gone;
	bool c_based;
	uint64_t base_tx;	/* frames consumed for C when the accounting started */
	uint64_t base_x[3];	/* then: its tx_packets, tx_errors, unknown_destination */
};

static uint64_t
rf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The faults' fabric; @response_ns: the targets' response latency, 0 for the default. */
static int
rf_topo_write(char *path, size_t len, unsigned int response_ns)
{
	FILE *fp;
	int fd;

	snprintf(path, len, "/tmp/rionet_faults.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		unlink(path);
		return -EIO;
	}
	/*
	 * A send to a dead peer fails at the response timeout, each in turn:
	 * 10 ms (a test's scale) rather than the default 100 ms.
	 */
	fprintf(fp,
		"[fabric]\n"
		"devid_size = 8\n"
		"mbox_entries = " RTE_STR(RF_MBOX_ENTRIES) "\n"
		"static_routes = 1\n"
		"response_timeout = 10000\n");
	if (response_ns != 0)
		fprintf(fp, "response_latency = %u\n", response_ns);
	fprintf(fp,
		"[switch sw0]\n"
		"ports = 8\n"
		"[endpoint ep0]\n"
		"host = 1\n"
		"destid = 0\n"
		"[endpoint ep1]\n"
		"destid = 1\n"
		"[endpoint ep2]\n"
		"destid = 2\n"
		"[links]\n"
		"sw0.0 = ep0.0\n"
		"sw0.1 = ep1.0\n"
		"sw0.2 = ep2.0\n");
	if (fclose(fp) != 0) {
		unlink(path);
		return -EIO;
	}
	return 0;
}

static int64_t
rf_xstat(uint16_t port, const char *name)
{
	uint64_t id, v;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0)
		return -1;
	if (rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return -1;
	return (int64_t)v;
}

/* An xstat of rio_sim rawdev @raw (the endpoint's counters). */
static uint64_t
rf_raw_xstat(uint16_t raw, const char *name)
{
	unsigned int id;

	return rte_rawdev_xstats_by_name_get(raw, name, &id);
}

static int64_t
rf_peer_xstat(uint16_t port, uint16_t destid, const char *what)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];

	snprintf(name, sizeof(name), "peer_0x%04x_%s", destid, what);
	return rf_xstat(port, name);
}

/* Configure and start a port with nq queue pairs. */
static int
rf_port_start_q(uint16_t port, struct rte_mempool *mp, bool lsc, uint16_t nq)
{
	struct rte_eth_conf conf = { .rxmode = { .mtu = 1500 } };
	uint16_t q;
	int ret;

	conf.intr_conf.lsc = lsc ? 1 : 0;
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	for (q = 0; q < nq && ret == 0; q++) {
		ret = rte_eth_rx_queue_setup(port, q, RF_DESC, SOCKET_ID_ANY, NULL, mp);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, q, RF_DESC, SOCKET_ID_ANY, NULL);
	}
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/* Configure and start a port: one queue pair. */
static int
rf_port_start(uint16_t port, struct rte_mempool *mp, bool lsc)
{
	return rf_port_start_q(port, mp, lsc, 1);
}

/* Frame of len bytes from src to dst: magic, source slot, sequence, pattern. */
static struct rte_mbuf *
rf_frame(struct rte_mempool *mp, uint16_t src, uint16_t dst, uint32_t slot, uint64_t seq,
	 uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct rte_ether_hdr *eth;
	uint32_t magic = RF_MAGIC;
	uint8_t *p;
	uint16_t k;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	eth = (struct rte_ether_hdr *)p;
	rionet_mac_from_destid(dst, &eth->dst_addr);
	rionet_mac_from_destid(src, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(0x88b5);
	memcpy(p + 14, &magic, 4);
	memcpy(p + 18, &slot, 4);
	memcpy(p + 22, &seq, 8);
	for (k = 30; k < len; k++)
		p[k] = (uint8_t)(seq * 7 + k);
	return m;
}

/*
 * Decode a frame of rf_frame(); false when it is not one or it is corrupted.
 * Frames arrive as whole double-words: the pattern, then zero padding of at
 * most 7 bytes.
 */
static bool
rf_frame_parse(struct rte_mbuf *m, uint32_t *slot, uint64_t *seq)
{
	uint8_t buf[RIONET_MAX_FRAME];
	const uint8_t *p;
	uint32_t magic;
	uint16_t k;

	if (m->pkt_len < 32 || m->pkt_len > RIONET_MAX_FRAME || (m->pkt_len & 7) != 0)
		return false;
	p = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	memcpy(&magic, p + 14, 4);
	memcpy(slot, p + 18, 4);
	memcpy(seq, p + 22, 8);
	if (magic != RF_MAGIC)
		return false;
	for (k = 30; k < m->pkt_len; k++)
		if (p[k] != (uint8_t)(*seq * 7 + k))
			break;
	if (m->pkt_len - k >= 8)
		return false;
	for (; k < m->pkt_len; k++)
		if (p[k] != 0)
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* SIGKILL of a peer under load                                       */

/* Source destid of a slot (C and C' are both ep2). */
static uint16_t
rf_slot_destid(uint32_t slot)
{
	return slot == RF_C2 ? RF_KILLED : (uint16_t)slot;
}

static void
rf_receive(struct rf_worker *w)
{
	struct rte_mbuf *pkts[RF_BURST];
	uint16_t n, k, src;
	uint32_t slot;
	uint64_t seq;
	int rounds;

	for (rounds = 0; rounds < 8; rounds++) {
		n = rte_eth_rx_burst(w->port, 0, pkts, RF_BURST);
		for (k = 0; k < n; k++) {
			if (!rf_frame_parse(pkts[k], &slot, &seq) || slot >= RF_NSLOT) {
				w->me->rx_bad++;
				continue;
			}
			src = rf_slot_destid(slot);
			/* A new incarnation of ep2 counts from 0 again. */
			if (src == RF_KILLED && slot == RF_C2 && seq == 0)
				w->seen[src] = false;
			if (!w->seen[src]) {
				w->seen[src] = true;
				w->expect[src] = w->lenient_first || src == RF_KILLED ? seq : 0;
			}
			if (seq != w->expect[src]) {
				if (w->me->rx_bad++ == 0)
					printf("  slot %u: frame %" PRIu64 " from slot %u, "
					       "expected %" PRIu64 "\n", w->slot, seq, slot,
					       w->expect[src]);
				w->expect[src] = seq;
			}
			w->expect[src]++;
			app_store_rel(&w->me->rx[src], app_load_acq(&w->me->rx[src]) + 1);
		}
		rte_pktmbuf_free_bulk(pkts, n);
		if (n < RF_BURST)
			break;
	}
}

static void
rf_send(struct rf_worker *w, uint16_t dst)
{
	struct rte_mbuf *pkts[RF_TX_BURST];
	uint64_t seq = w->me->tx[dst];
	uint16_t k, n;

	for (k = 0; k < RF_TX_BURST; k++) {
		pkts[k] = rf_frame(w->mp, w->destid, dst, w->slot, seq + k,
				   (uint16_t)(60 + (seq + k) % 200));
		if (pkts[k] == NULL)
			break;
	}
	n = rte_eth_tx_burst(w->port, 0, pkts, k);
	rte_pktmbuf_free_bulk(pkts + n, k - n);
	app_store_rel(&w->me->tx[dst], seq + n);
}

/*
 * A and B, after the kill: C's state as this port sees it, and the
 * accounting of every frame tx_burst consumed for it.
 */
static void
rf_watch_c(struct rf_worker *w)
{
	uint64_t pk, er, un, now_tx = w->me->tx[RF_KILLED];
	int64_t active;

	active = rf_peer_xstat(w->port, RF_KILLED, "active");
	pk = rf_peer_xstat(w->port, RF_KILLED, "tx_packets");
	er = rf_peer_xstat(w->port, RF_KILLED, "tx_errors");
	un = rf_xstat(w->port, "tx_q0_unknown_destination");
	if (!w->c_based) {
		/* Same thread as the sends: counters and tx[] agree here. */
		w->c_based = true;
		w->base_tx = now_tx;
		w->base_x[0] = pk;
		w->base_x[1] = er;
		w->base_x[2] = un;
	}
	if (active == 0 && !w->c_gone) {
		w->c_gone = true;
		app_store_rel(&w->me->depart_ns, rf_now_ns());
		app_store_rel(&w->me->tx_at_depart, w->me->tx[w->slot == RF_A ? RF_B : RF_A]);
	}
	if (active == 0) {
		/* Nothing is accepted for ep2 while it is inactive: the base for C'. */
		w->me->c2_base = pk;
		w->me->drops_c = er - w->base_x[1] + un - w->base_x[2];
		w->me->lost_c = rf_peer_xstat(w->port, RF_KILLED, "lost");
		w->me->frames_c = now_tx - w->base_tx;
		w->me->acct_c = pk - w->base_x[0] + er - w->base_x[1] + un - w->base_x[2];
	} else if (w->c_gone) {
		app_store_rel(&w->me->c2_accepted, pk - w->me->c2_base);
		app_store_rel(&w->me->rejoined, 1);
	}
}

/* One step of a process: send (in the sending phases), receive, watch C. */
static void
rf_iterate(struct rf_worker *w)
{
	uint32_t phase = app_load_acq(&w->ctl->phase);
	uint16_t d;

	if (phase >= RF_PH_RUN && phase < RF_PH_STOP && app_load_acq(&w->me->ready))
		for (d = 0; d < RF_NDEST; d++)
			if (d != w->destid)
				rf_send(w, d);
	rf_receive(w);
	if ((w->slot == RF_A || w->slot == RF_B) && phase >= RF_PH_KILLED)
		rf_watch_c(w);
	rte_delay_us_sleep(100);
}

/* What the port counted about its peers and drops, for the controller. */
static void
rf_port_report(struct rf_worker *w)
{
	struct rte_eth_stats st;

	app_store_rel(&w->me->peers_lost, rf_xstat(w->port, "peers_lost"));
	app_store_rel(&w->me->join_rx, rf_xstat(w->port, "join_rx"));
	app_store_rel(&w->me->join_tx, rf_xstat(w->port, "join_tx"));
	if (rte_eth_stats_get(w->port, &st) == 0)
		app_store_rel(&w->me->tx_dropped, st.oerrors);
}

/* Receive (and answer JOINs) until the port sees n active peers. */
static int
rf_join_wait(struct rf_worker *w, int64_t n)
{
	uint64_t deadline = rf_now_ns() + RF_WAIT_S * 1000000000ull;

	while (rf_xstat(w->port, "peers_active") != n) {
		if (rf_now_ns() > deadline)
			return -ETIMEDOUT;
		rf_receive(w);
		rte_delay_us_sleep(1000);
	}
	return 0;
}

static struct rte_mempool *
rf_pool(const char *name)
{
	/* No per-lcore cache: the in-use count is exact. */
	return rte_pktmbuf_pool_create(name, RF_NB_MBUF, 0, 0,
				       RTE_PKTMBUF_HEADROOM + RIONET_MAX_FRAME, SOCKET_ID_ANY);
}

/* The only ethdev port of a child process. */
static int
rf_only_port(uint16_t *port)
{
	uint16_t p;

	RTE_ETH_FOREACH_DEV(p) {
		*port = p;
		return 0;
	}
	return -ENODEV;
}

/*
 * B, C and C': args <control file> <slot> <vdev name>. Exit 0 when its own
 * checks passed (B and C': every mbuf back in the pool), 1 otherwise.
 */
static int
rf_peer_child(int argc, char **argv)
{
	struct rf_worker w = { 0 };
	struct rf_ctl *ctl = NULL;
	unsigned int baseline = 0;
	uint64_t deadline;
	int ret, rc = 1;
	bool started = false;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("rionet faults child: EAL init failed\n");
		return 2;
	}
	argc = rio_test_child_args(argc, argv, ret, &argv);
	if (argc < 3 || (ctl = rio_test_map_file(argv[0], sizeof(*ctl), false)) == NULL) {
		printf("rionet faults child: bad arguments\n");
		goto out;
	}
	w.ctl = ctl;
	w.slot = (unsigned int)atoi(argv[1]);
	if (w.slot >= RF_NSLOT)
		goto out;
	w.me = &ctl->p[w.slot];
	w.destid = rf_slot_destid(w.slot);
	w.lenient_first = w.slot == RF_C2;
	w.mp = rf_pool("rf_child");
	if (w.mp == NULL || rf_only_port(&w.port) != 0 ||
	    rf_port_start(w.port, w.mp, false) != 0) {
		printf("rionet faults child %u: no port or cannot start it\n", w.slot);
		goto out;
	}
	started = true;
	if (rf_join_wait(&w, 2) != 0) {
		printf("rionet faults child %u: peers never joined\n", w.slot);
		goto out;
	}
	baseline = rte_mempool_in_use_count(w.mp);
	app_store_rel(&w.me->ready, 1);
	deadline = rf_now_ns() + 3 * RF_WAIT_S * 1000000000ull;
	while (app_load_acq(&ctl->phase) < RF_PH_QUIT && rf_now_ns() < deadline)
		rf_iterate(&w);
	rf_port_report(&w);
	rc = 0;
	if (rte_mempool_in_use_count(w.mp) != baseline) {
		printf("rionet faults child %u: %u mbufs in use, %u before the traffic\n",
		       w.slot, rte_mempool_in_use_count(w.mp), baseline);
		rc = 1;
	}
out:
	if (started) {
		rte_eth_dev_stop(w.port);
		rte_eth_dev_close(w.port);
	}
	if (w.mp != NULL && rte_mempool_in_use_count(w.mp) != 0) {
		printf("rionet faults child %u: %u mbufs not returned after close\n", w.slot,
		       rte_mempool_in_use_count(w.mp));
		rc = 1;
	}
	if (w.me != NULL && rc != 0)
		app_store_rel(&w.me->failed, 1);
	if (argc >= 3)
		rte_vdev_uninit(argv[2]);
	rte_mempool_free(w.mp);
	if (ctl != NULL)
		munmap(ctl, sizeof(*ctl));
	rte_eal_cleanup();
	return rc;
}
REGISTER_TEST_CHILD(rionet_faults_peer, rf_peer_child);

/* Names and files of one multi-process case. */
struct rf_env {
	char fabric[32];
	char shm_prefix[48];
	char topo[64];
	char ctl_path[64];
	char rionet_so[PATH_MAX];
	char vdev[RF_NSLOT][32];
	char prefix[RF_NSLOT][48];
	pid_t pid[RF_NSLOT];
	bool vdev_up[RF_NSLOT];
	struct rf_ctl *ctl;
};

static int
rf_env_setup_latency(struct rf_env *e, const char *tag, unsigned int response_ns)
{
	char self[PATH_MAX];
	unsigned int i;

	memset(e, 0, sizeof(*e));
	if (rio_test_unique(tag, e->fabric, sizeof(e->fabric) - 1) == NULL)
		return -EINVAL;
	strcat(e->fabric, "x");
	snprintf(e->shm_prefix, sizeof(e->shm_prefix), "rio_sim.%s", e->fabric);
	snprintf(e->ctl_path, sizeof(e->ctl_path), "/tmp/%s.ctl", e->fabric);
	for (i = 0; i < RF_NSLOT; i++) {
		snprintf(e->vdev[i], sizeof(e->vdev[i]), "rio_sim_%s%u", tag, i);
		snprintf(e->prefix[i], sizeof(e->prefix[i]), "%s_%u", e->fabric, i);
	}
	/* Plugins: <build>/drivers, next to <build>/app/test/dpdk-rio-test. */
	if (rio_test_self() == NULL)
		return -ENOENT;
	strlcpy(self, rio_test_self(), sizeof(self));
	snprintf(e->rionet_so, sizeof(e->rionet_so), "%s/../../drivers/librte_net_rionet.so",
		 dirname(self));
	if (rf_topo_write(e->topo, sizeof(e->topo), response_ns) != 0)
		return -EIO;
	e->ctl = rio_test_map_file(e->ctl_path, sizeof(*e->ctl), true);
	return e->ctl == NULL ? -EIO : 0;
}

static int
rf_env_setup(struct rf_env *e, const char *tag)
{
	return rf_env_setup_latency(e, tag, 0);
}

/* Start child function @child for a slot (ep<destid>). */
static int
rf_spawn_slot(struct rf_env *e, const char *child, unsigned int slot)
{
	char fp[80], vdev[256], slot_s[8];
	char *argv[] = { "--no-huge", "-m", "128", "--no-pci", fp, "--log-level=lib.eal:error",
			 "-d", e->rionet_so, "--vdev", vdev, "--", e->ctl_path, slot_s,
			 e->vdev[slot], NULL };

	snprintf(fp, sizeof(fp), "--file-prefix=%s", e->prefix[slot]);
	snprintf(vdev, sizeof(vdev), "%s,fabric=%s,topology=%s,endpoint=ep%u", e->vdev[slot],
		 e->fabric, e->topo, rf_slot_destid(slot));
	snprintf(slot_s, sizeof(slot_s), "%u", slot);
	e->pid[slot] = rio_test_spawn(child, argv);
	return e->pid[slot] > 0 ? 0 : -ECHILD;
}

static int
rf_spawn(struct rf_env *e, unsigned int slot)
{
	return rf_spawn_slot(e, "rionet_faults_peer", slot);
}

/* This process's mport for ep<destid>. */
static int
rf_local_port_mport(struct rf_env *e, unsigned int slot, struct rte_rio_mport **mp)
{
	char args[256];
	int ret;

	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep%u", e->fabric, e->topo,
		 rf_slot_destid(slot));
	ret = rte_vdev_init(e->vdev[slot], args);
	if (ret < 0)
		return ret;
	*mp = rte_rio_mport_find(e->vdev[slot]);
	return *mp != NULL ? 0 : -ENODEV;
}

/* This process's mport and rionet port for ep<destid>. */
static int
rf_local_port(struct rf_env *e, unsigned int slot, uint16_t *port)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_rio_mport *mp;
	int ret;

	ret = rf_local_port_mport(e, slot, &mp);
	if (ret < 0)
		return ret;
	snprintf(name, sizeof(name), "rionet_%s", e->vdev[slot]);
	return rte_eth_dev_get_port_by_name(name, port) == 0 ? 0 : -ENODEV;
}

/* Let every child finish (killed after the timeout): its exit status in status[]. */
static void
rf_env_finish(struct rf_env *e, int *status)
{
	unsigned int i;

	if (e->ctl != NULL)
		app_store_rel(&e->ctl->phase, RF_PH_QUIT);
	for (i = 0; i < RF_NSLOT; i++) {
		status[i] = -1;
		if (e->pid[i] > 0)
			status[i] = rio_test_wait(e->pid[i], RF_WAIT_S * 1000);
		e->pid[i] = 0;
	}
}

/* Remove the local mports and every file of the case; @return shm objects left. */
static int
rf_env_cleanup(struct rf_env *e)
{
	unsigned int i;
	int left;

	for (i = 0; i < RF_NSLOT; i++)
		if (e->vdev_up[i])
			rte_vdev_uninit(e->vdev[i]);
	for (i = 0; i < RF_NSLOT; i++)
		rio_test_runtime_dir_cleanup(e->prefix[i]);
	if (e->ctl != NULL)
		munmap(e->ctl, sizeof(*e->ctl));
	e->ctl = NULL;
	unlink(e->ctl_path);
	if (e->topo[0] != '\0')
		unlink(e->topo);
	left = rio_test_shm_count(e->shm_prefix);
	if (left != 0) {
		printf("  LEAK: %d shared-memory objects /%s* remain\n", left, e->shm_prefix);
		rio_test_shm_cleanup(e->shm_prefix);
	}
	return left;
}

/* Iterate A until cond(ctl) holds or ms pass; @return elapsed ms or -ETIMEDOUT. */
static int
rf_run_until(struct rf_worker *a, bool (*cond)(const struct rf_ctl *), unsigned int ms)
{
	uint64_t start = rf_now_ns(), now;

	for (;;) {
		if (cond != NULL && cond(a->ctl))
			return (int)((rf_now_ns() - start) / 1000000);
		now = rf_now_ns();
		if (now - start >= (uint64_t)ms * 1000000)
			return cond == NULL ? (int)ms : -ETIMEDOUT;
		rf_iterate(a);
	}
}

static bool
rf_cond_ready(const struct rf_ctl *c)
{
	return app_load_acq(&c->p[RF_B].ready) && app_load_acq(&c->p[RF_C].ready) &&
		app_load_acq(&c->p[RF_A].ready);
}

static bool
rf_cond_departed(const struct rf_ctl *c)
{
	return app_load_acq(&c->p[RF_A].depart_ns) != 0 && app_load_acq(&c->p[RF_B].depart_ns) != 0;
}

static bool
rf_cond_rejoined(const struct rf_ctl *c)
{
	return app_load_acq(&c->p[RF_C2].ready) && app_load_acq(&c->p[RF_A].rejoined) &&
		app_load_acq(&c->p[RF_B].rejoined);
}

/* Everything accepted was received (no more sends). */
static bool
rf_cond_drained(const struct rf_ctl *c)
{
	const struct rf_proc *a = &c->p[RF_A], *b = &c->p[RF_B], *c2 = &c->p[RF_C2];

	return app_load_acq(&b->rx[0]) == app_load_acq(&a->tx[1]) &&
		app_load_acq(&a->rx[1]) == app_load_acq(&b->tx[0]) &&
		app_load_acq(&c2->rx[0]) == app_load_acq(&a->c2_accepted) &&
		app_load_acq(&c2->rx[1]) == app_load_acq(&b->c2_accepted);
}

/* The outcome, once every process is done. */
static int
rf_kill_check(const struct rf_ctl *c, const int *status)
{
	const struct rf_proc *a = &c->p[RF_A], *b = &c->p[RF_B], *c2 = &c->p[RF_C2];
	const char *who[] = { "A", "B" };
	const struct rf_proc *s;
	unsigned int i;
	int64_t dt;

	for (i = 0; i < 2; i++) {
		s = &c->p[i];
		TEST_ASSERT(s->depart_ns != 0, "%s never saw C leave", who[i]);
		dt = (int64_t)(s->depart_ns - c->kill_ns);
		printf("  %s saw C leave %.1f ms after SIGKILL; dropped %" PRIu64
		       " frames for it (%" PRIu64 " consumed, %" PRIu64 " accounted)\n",
		       who[i], dt / 1e6, s->drops_c, s->frames_c, s->acct_c);
		TEST_ASSERT(dt >= 0 && dt < 1000000000, "%s saw C leave after %.1f ms (> 1 s)",
			    who[i], dt / 1e6);
		TEST_ASSERT(s->drops_c > 0, "%s counted no drop for C", who[i]);
		TEST_ASSERT_EQUAL(s->frames_c, s->acct_c,
				  "%s: frames for C not all counted (sent, error or unknown)",
				  who[i]);
		TEST_ASSERT(s->lost_c >= 1, "%s did not count C as lost", who[i]);
		TEST_ASSERT_EQUAL(s->rx_bad, 0, "%s got frames lost, reordered or corrupted",
				  who[i]);
		TEST_ASSERT(s->rejoined, "%s never saw ep2 rejoin", who[i]);
		TEST_ASSERT(s->c2_accepted > 0, "%s sent nothing to C' after it rejoined", who[i]);
		TEST_ASSERT_EQUAL(c2->rx[i], s->c2_accepted,
				  "C' got other than what %s had accepted for it", who[i]);
	}
	printf("  A->B %" PRIu64 " frames (%" PRIu64 " after C left), B->A %" PRIu64
	       " (%" PRIu64 "), C' got %" PRIu64 " from A, %" PRIu64 " from B\n",
	       a->tx[1], a->tx[1] - a->tx_at_depart, b->tx[0], b->tx[0] - b->tx_at_depart,
	       c2->rx[0], c2->rx[1]);
	TEST_ASSERT_EQUAL(b->rx[0], a->tx[1], "B did not get every frame A sent it");
	TEST_ASSERT_EQUAL(a->rx[1], b->tx[0], "A did not get every frame B sent it");
	TEST_ASSERT(a->tx[1] - a->tx_at_depart > 100 && b->tx[0] - b->tx_at_depart > 100,
		    "A and B stopped forwarding to each other after C left");
	TEST_ASSERT_EQUAL(c2->rx_bad, 0, "C' got frames out of order or corrupted");
	TEST_ASSERT(a->failed == 0 && b->failed == 0 && c2->failed == 0,
		    "a process leaked mbufs (see above)");
	TEST_ASSERT_EQUAL(status[RF_B], 0, "B exit status");
	TEST_ASSERT_EQUAL(status[RF_C], 128 + SIGKILL, "C was not killed");
	TEST_ASSERT_EQUAL(status[RF_C2], 0, "C' exit status");
	return TEST_SUCCESS;
}

static int
test_rionet_peer_kill(void)
{
	struct rf_worker a = { 0 };
	struct rf_env e;
	unsigned int baseline = 0;
	int status[RF_NSLOT];
	int ret = TEST_FAILED, left;
	bool started = false;
	const char *step;

	step = "setup";
	if (rf_env_setup(&e, "rfk") != 0)
		goto out;
	a.ctl = e.ctl;
	a.slot = RF_A;
	a.me = &e.ctl->p[RF_A];
	a.destid = 0;
	a.mp = rf_pool("rf_kill");
	step = "ep0 and its port";
	if (a.mp == NULL || rf_local_port(&e, RF_A, &a.port) != 0)
		goto out;
	e.vdev_up[RF_A] = true;
	if (rf_port_start(a.port, a.mp, false) != 0)
		goto out;
	started = true;
	step = "spawn B and C";
	if (rf_spawn(&e, RF_B) != 0 || rf_spawn(&e, RF_C) != 0)
		goto out;
	step = "join of A, B and C";
	if (rf_join_wait(&a, 2) != 0)
		goto out;
	app_store_rel(&a.me->ready, 1);
	if (rf_run_until(&a, rf_cond_ready, RF_WAIT_S * 1000) < 0)
		goto out;
	baseline = rte_mempool_in_use_count(a.mp);

	app_store_rel(&e.ctl->phase, RF_PH_RUN);
	rf_run_until(&a, NULL, 300);
	step = "SIGKILL of C";
	app_store_rel(&e.ctl->kill_ns, rf_now_ns());
	if (kill(e.pid[RF_C], SIGKILL) != 0)
		goto out;
	/* C stays a zombie until the teardown reaps it. */
	app_store_rel(&e.ctl->phase, RF_PH_KILLED);
	step = "A and B see C leave";
	if (rf_run_until(&a, rf_cond_departed, 5000) < 0)
		goto out;
	rf_run_until(&a, NULL, 200);

	step = "C' reclaims ep2 and joins";
	app_store_rel(&e.ctl->phase, RF_PH_RESTART);
	if (rf_spawn(&e, RF_C2) != 0 || rf_run_until(&a, rf_cond_rejoined, RF_WAIT_S * 1000) < 0)
		goto out;
	rf_run_until(&a, NULL, 300);
	step = "drain";
	app_store_rel(&e.ctl->phase, RF_PH_STOP);
	if (rf_run_until(&a, rf_cond_drained, 5000) < 0)
		goto out;
	rf_run_until(&a, NULL, 20);
	step = "mbufs of A";
	if (rte_mempool_in_use_count(a.mp) != baseline) {
		printf("  A: %u mbufs in use, %u before the traffic\n",
		       rte_mempool_in_use_count(a.mp), baseline);
		a.me->failed = 1;
	}
	step = NULL;
	ret = TEST_SUCCESS;
out:
	if (step != NULL)
		printf("  failed at: %s\n", step);
	if (started) {
		rte_eth_dev_stop(a.port);
		rte_eth_dev_close(a.port);
		if (rte_mempool_in_use_count(a.mp) != 0) {
			printf("  A: %u mbufs not returned after close\n",
			       rte_mempool_in_use_count(a.mp));
			a.me->failed = 1;
		}
	}
	if (e.pid[RF_C] > 0 && e.ctl != NULL && app_load_acq(&e.ctl->phase) < RF_PH_KILLED)
		kill(e.pid[RF_C], SIGKILL);
	rf_env_finish(&e, status);
	if (ret == TEST_SUCCESS)
		ret = rf_kill_check(e.ctl, status);
	left = rf_env_cleanup(&e);
	rte_mempool_free(a.mp);
	return ret == TEST_SUCCESS && left == 0 ? TEST_SUCCESS : TEST_FAILED;
}

REGISTER_TEST_COMMAND(rionet_peer_kill_autotest, test_rionet_peer_kill);

/* ------------------------------------------------------------------ */
/* Peers stopped (SIGSTOP), not dead                                  */

#define RF_STALL_LONG_MS	6000	/* longer than any timeout of the stack */
#define RF_STALL_SHORT		20	/* short stops at random */
#define RF_STALL_CATCH_MS	8000	/* time to catch B stopped inside a send */

/*
 * Stop B until it stops between claiming a slot of A's ring and publishing
 * it (A, polling meanwhile, finds its consumer position claimed and not
 * published), then hold it there for RF_STALL_LONG_MS. @return 0, 1 when
 * it never stopped there, -1 on error.
 */
static int
rf_stall_in_send(struct rf_env *e, struct rf_worker *a)
{
	struct sim_shm_data_hdr *data;
	uint64_t t0 = rf_now_ns();
	unsigned int tries;
	size_t size = 0;
	int ret = 1;

	data = test_shm_map_data(e->fabric, 0, &size);
	if (data == NULL)
		return -1;
	for (tries = 0; rf_now_ns() - t0 < RF_STALL_CATCH_MS * 1000000ull && ret == 1; tries++) {
		if (kill(e->pid[RF_B], SIGSTOP) != 0) {
			ret = -1;
			break;
		}
		rf_run_until(a, NULL, 3);
		if (test_shm_ring_stuck(data, 0)) {
			printf("  B stopped inside a send to A (try %u): held %u ms\n", tries + 1,
			       RF_STALL_LONG_MS);
			rf_run_until(a, NULL, RF_STALL_LONG_MS);
			ret = 0;
		}
		kill(e->pid[RF_B], SIGCONT);
		rf_run_until(a, NULL, tries % 3);
	}
	munmap(data, size);
	if (ret == 1)
		printf("  B never stopped inside a send in %u tries (%u ms)\n", tries,
		       RF_STALL_CATCH_MS);
	return ret;
}

/* Everything consumed by tx_burst, from every process to every other, was received. */
static bool
rf_cond_drained3(const struct rf_ctl *c)
{
	unsigned int s, d;

	for (s = 0; s < 3; s++)
		for (d = 0; d < 3; d++)
			if (s != d && app_load_acq(&c->p[d].rx[s]) != app_load_acq(&c->p[s].tx[d]))
				return false;
	return true;
}

/* Stop child @slot, let A run @ms meanwhile, continue it. */
static int
rf_stall(struct rf_env *e, struct rf_worker *a, unsigned int slot, unsigned int ms)
{
	if (kill(e->pid[slot], SIGSTOP) != 0)
		return -1;
	rf_run_until(a, NULL, ms);
	return kill(e->pid[slot], SIGCONT);
}

/*
 * rionet_stall_autotest: A (this process, ep0), B (ep1) and C (ep2) send
 * numbered frames to each other; B and C are stopped with SIGSTOP, each
 * once for 6 s (C: a receiver whose ring fills up; B: a sender caught
 * between claim and publish of a slot of A's ring, A checks) and then at
 * random for up to 20 ms (the seed is
 * printed; RIO_TEST_SEED replays it). A stopped peer is alive: nobody
 * loses it as a peer (peers_lost), nobody JOINs again (join counts as they
 * were after the handshake), nothing is dropped (oerrors), and every frame
 * tx_burst consumed arrives once, in order, intact.
 */
static int
test_rionet_stall(void)
{
	struct rf_worker a = { 0 };
	const char *env_seed = getenv("RIO_TEST_SEED");
	uint64_t join0[3] = { 0 };
	unsigned int seed, i, s;
	struct rf_env e;
	int status[RF_NSLOT];
	int ret = TEST_FAILED, left, rc;
	bool started = false;
	const char *step;

	seed = env_seed != NULL ? (unsigned int)strtoul(env_seed, NULL, 0) :
		(unsigned int)(rte_rdtsc() ^ getpid());
	printf("  seed %u (RIO_TEST_SEED=%u replays it)\n", seed, seed);
	step = "setup";
	if (rf_env_setup(&e, "rfs") != 0)
		goto out;
	a.ctl = e.ctl;
	a.slot = RF_A;
	a.me = &e.ctl->p[RF_A];
	a.destid = 0;
	a.mp = rf_pool("rf_stall");
	step = "ep0 and its port";
	if (a.mp == NULL || rf_local_port(&e, RF_A, &a.port) != 0)
		goto out;
	e.vdev_up[RF_A] = true;
	if (rf_port_start(a.port, a.mp, false) != 0)
		goto out;
	started = true;
	step = "spawn B and C";
	if (rf_spawn(&e, RF_B) != 0 || rf_spawn(&e, RF_C) != 0)
		goto out;
	step = "join of A, B and C";
	if (rf_join_wait(&a, 2) != 0)
		goto out;
	app_store_rel(&a.me->ready, 1);
	if (rf_run_until(&a, rf_cond_ready, RF_WAIT_S * 1000) < 0)
		goto out;
	app_store_rel(&e.ctl->phase, RF_PH_RUN);
	/* The handshake is over once traffic flows: JOINs counted from here on are new. */
	rf_run_until(&a, NULL, 300);
	join0[0] = rf_xstat(a.port, "join_rx");

	step = "long stops";
	printf("  C stopped for %u ms\n", RF_STALL_LONG_MS);
	if (rf_stall(&e, &a, RF_C, RF_STALL_LONG_MS) != 0)
		goto out;
	rf_run_until(&a, NULL, 200);
	rc = rf_stall_in_send(&e, &a);
	if (rc < 0)
		goto out;
	if (rc > 0 && rf_stall(&e, &a, RF_B, RF_STALL_LONG_MS) != 0)
		goto out;
	step = "short stops";
	for (i = 0; i < RF_STALL_SHORT; i++) {
		rf_run_until(&a, NULL, rand_r(&seed) % 30);
		if (rf_stall(&e, &a, rand_r(&seed) % 2 ? RF_B : RF_C, 1 + rand_r(&seed) % 20))
			goto out;
	}
	rf_run_until(&a, NULL, 300);
	step = "drain";
	app_store_rel(&e.ctl->phase, RF_PH_STOP);
	if (rf_run_until(&a, rf_cond_drained3, RF_WAIT_S * 1000) < 0)
		goto out;
	rf_run_until(&a, NULL, 20);
	rf_port_report(&a);
	step = NULL;
	ret = TEST_SUCCESS;
out:
	if (step != NULL)
		printf("  failed at: %s\n", step);
	if (started) {
		rte_eth_dev_stop(a.port);
		rte_eth_dev_close(a.port);
	}
	for (s = RF_B; s <= RF_C; s++)
		if (e.pid[s] > 0)
			kill(e.pid[s], SIGCONT);
	rf_env_finish(&e, status);
	for (s = 0; ret == TEST_SUCCESS && s < 3; s++) {
		const struct rf_proc *p = &e.ctl->p[s];

		printf("  %c: sent %" PRIu64 "/%" PRIu64 ", out of order %" PRIu64
		       ", dropped %" PRIu64 ", peers lost %" PRIu64 ", JOINs in %" PRIu64 "\n",
		       'A' + s, p->tx[(s + 1) % 3], p->tx[(s + 2) % 3], p->rx_bad, p->tx_dropped,
		       p->peers_lost, p->join_rx);
		if (p->rx_bad != 0 || p->tx_dropped != 0 || p->peers_lost != 0 || p->failed ||
		    (s > 0 && status[s] != 0))
			ret = TEST_FAILED;
	}
	if (ret == TEST_SUCCESS && e.ctl->p[RF_A].join_rx != join0[0]) {
		printf("  A got %" PRIu64 " JOINs after the handshake\n",
		       e.ctl->p[RF_A].join_rx - join0[0]);
		ret = TEST_FAILED;
	}
	left = rf_env_cleanup(&e);
	rte_mempool_free(a.mp);
	return ret == TEST_SUCCESS && left == 0 ? TEST_SUCCESS : TEST_FAILED;
}

REGISTER_TEST_COMMAND(rionet_stall_autotest, test_rionet_stall);

/* ------------------------------------------------------------------ */
/* Slow receiver                                                      */

#define RF_SLOW_FRAMES	6000
#define RF_SLOW_RX	16	/* frames per poll of the receiver */
#define RF_SLOW_SLEEP_US	1000	/* between two polls */

static uint16_t
rf_slow_len(uint64_t seq)
{
	return (uint16_t)(60 + seq % 1455);
}

/* The slow receiver (ep1): args <control file> <slot> <vdev name>. */
static int
rf_slow_child(int argc, char **argv)
{
	struct rte_mbuf *pkts[RF_SLOW_RX];
	struct rte_mempool *mp = NULL;
	struct rf_ctl *ctl = NULL;
	struct rf_proc *me = NULL;
	unsigned int baseline = 0;
	uint64_t deadline, expect = 0, seq;
	uint32_t slot;
	uint16_t port = 0, n, k;
	int ret, rc = 1;
	bool started = false;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 2;
	argc = rio_test_child_args(argc, argv, ret, &argv);
	if (argc < 3 || (ctl = rio_test_map_file(argv[0], sizeof(*ctl), false)) == NULL)
		goto out;
	me = &ctl->p[1];
	mp = rf_pool("rf_slow");
	if (mp == NULL || rf_only_port(&port) != 0 || rf_port_start(port, mp, false) != 0)
		goto out;
	started = true;
	deadline = rf_now_ns() + RF_WAIT_S * 1000000000ull;
	while (rf_xstat(port, "peers_active") != 1 && rf_now_ns() < deadline)
		rte_delay_us_sleep(1000);
	baseline = rte_mempool_in_use_count(mp);
	app_store_rel(&me->ready, 1);
	deadline = rf_now_ns() + 3 * RF_WAIT_S * 1000000000ull;
	while (app_load_acq(&ctl->phase) < RF_PH_QUIT && rf_now_ns() < deadline) {
		n = rte_eth_rx_burst(port, 0, pkts, RF_SLOW_RX);
		for (k = 0; k < n; k++) {
			if (!rf_frame_parse(pkts[k], &slot, &seq) || slot != 0 || seq != expect ||
			    pkts[k]->pkt_len != (uint32_t)RTE_ALIGN_CEIL(rf_slow_len(seq), 8u)) {
				if (me->rx_bad++ == 0)
					printf("  slow receiver: frame %" PRIu64 " of %u bytes, "
					       "expected %" PRIu64 "\n", seq, pkts[k]->pkt_len,
					       expect);
			}
			expect = seq + 1;
			app_store_rel(&me->rx[0], app_load_acq(&me->rx[0]) + 1);
		}
		rte_pktmbuf_free_bulk(pkts, n);
		/* Slow: a short burst, then a nap. */
		rte_delay_us_sleep(RF_SLOW_SLEEP_US);
	}
	rc = rte_mempool_in_use_count(mp) == baseline ? 0 : 1;
	if (rc != 0)
		printf("  slow receiver: %u mbufs in use, %u before the traffic\n",
		       rte_mempool_in_use_count(mp), baseline);
out:
	if (started) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	if (me != NULL && rc != 0)
		app_store_rel(&me->failed, 1);
	if (argc >= 3)
		rte_vdev_uninit(argv[2]);
	rte_mempool_free(mp);
	if (ctl != NULL)
		munmap(ctl, sizeof(*ctl));
	rte_eal_cleanup();
	return rc;
}
REGISTER_TEST_CHILD(rionet_faults_slow_rx, rf_slow_child);

static int
rf_slow_check(const struct rf_env *e, const struct rte_eth_stats *st, uint64_t sent,
	      uint64_t shorts, int64_t ring_full, int64_t peer_err, const int *status)
{
	const struct rf_proc *rx = &e->ctl->p[1];

	TEST_ASSERT_EQUAL(sent, RF_SLOW_FRAMES, "the sender could not send everything");
	TEST_ASSERT(shorts > 0, "tx_burst never returned fewer: no back-pressure");
	TEST_ASSERT(ring_full > 0, "ring full not counted");
	TEST_ASSERT_EQUAL(rx->rx[0], sent, "accepted frames lost or duplicated");
	TEST_ASSERT_EQUAL(rx->rx_bad, 0, "frames out of order or corrupted");
	TEST_ASSERT_EQUAL(st->opackets, sent, "opackets is not the accepted count");
	TEST_ASSERT_EQUAL(st->oerrors, 0, "back-pressure counted as errors");
	TEST_ASSERT_EQUAL(peer_err, 0, "send errors to a slow but live peer");
	TEST_ASSERT_EQUAL(rx->failed, 0, "the receiver leaked mbufs");
	TEST_ASSERT_EQUAL(status[1], 0, "receiver exit status");
	return TEST_SUCCESS;
}

static bool
rf_cond_slow_ready(const struct rf_ctl *c)
{
	return app_load_acq(&c->p[1].ready) != 0;
}

static bool
rf_cond_slow_done(const struct rf_ctl *c)
{
	return app_load_acq(&c->p[1].rx[0]) >= RF_SLOW_FRAMES;
}

/* Wait for cond, polling nothing (the sender has nothing to receive). */
static int
rf_wait(const struct rf_ctl *c, bool (*cond)(const struct rf_ctl *), unsigned int ms)
{
	uint64_t start = rf_now_ns();

	while (!cond(c)) {
		if (rf_now_ns() - start > (uint64_t)ms * 1000000)
			return -ETIMEDOUT;
		rte_delay_us_sleep(1000);
	}
	return 0;
}

static int
test_rionet_slow_rx(void)
{
	struct rte_mbuf *pkts[RF_BURST];
	struct rte_mempool *mp = NULL;
	struct rte_eth_stats st = { 0 };
	struct rf_env e;
	uint64_t sent = 0, shorts = 0, start, spent_ns = 0;
	int64_t ring_full = -1, peer_err = -1;
	int status[RF_NSLOT], left, ret = TEST_FAILED;
	uint16_t port = 0, k, want, n;
	bool started = false;
	const char *step;

	step = "setup";
	if (rf_env_setup(&e, "rfs") != 0)
		goto out;
	mp = rf_pool("rf_slow_tx");
	step = "ep0 and its port";
	if (mp == NULL || rf_local_port(&e, 0, &port) != 0)
		goto out;
	e.vdev_up[0] = true;
	if (rf_port_start(port, mp, false) != 0)
		goto out;
	started = true;
	step = "receiver start and join";
	if (rf_spawn_slot(&e, "rionet_faults_slow_rx", 1) != 0 ||
	    rf_wait(e.ctl, rf_cond_slow_ready, RF_WAIT_S * 1000) != 0)
		goto out;
	while (rf_xstat(port, "peers_active") != 1 && spent_ns < 5000000000ull) {
		rte_delay_us_sleep(1000);
		spent_ns += 1000000;
	}
	app_store_rel(&e.ctl->phase, RF_PH_RUN);
	step = "blast";
	start = rf_now_ns();
	while (sent < RF_SLOW_FRAMES && rf_now_ns() - start < 60000000000ull) {
		want = (uint16_t)RTE_MIN((uint64_t)RF_BURST, RF_SLOW_FRAMES - sent);
		for (k = 0; k < want; k++) {
			pkts[k] = rf_frame(mp, 0, 1, 0, sent + k, rf_slow_len(sent + k));
			if (pkts[k] == NULL)
				break;
		}
		n = rte_eth_tx_burst(port, 0, pkts, k);
		rte_pktmbuf_free_bulk(pkts + n, k - n);
		sent += n;
		if (n < want) {
			shorts++;
			rte_delay_us_sleep(50);
		}
	}
	spent_ns = rf_now_ns() - start;
	app_store_rel(&e.ctl->p[0].tx[1], sent);
	app_store_rel(&e.ctl->phase, RF_PH_STOP);
	step = "receiver drains";
	if (rf_wait(e.ctl, rf_cond_slow_done, RF_WAIT_S * 1000) != 0)
		goto out;
	ring_full = rf_xstat(port, "tx_q0_ring_full");
	peer_err = rf_peer_xstat(port, 1, "tx_errors");
	rte_eth_stats_get(port, &st);
	step = NULL;
	ret = TEST_SUCCESS;
out:
	if (step != NULL)
		printf("  failed at: %s\n", step);
	if (started) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rf_env_finish(&e, status);
	if (ret == TEST_SUCCESS) {
		printf("  %" PRIu64 " frames accepted in %.0f ms, %" PRIu64 " short bursts, "
		       "ring full %" PRId64 " times; receiver got %" PRIu64 "\n", sent,
		       spent_ns / 1e6, shorts, ring_full, e.ctl->p[1].rx[0]);
		ret = rf_slow_check(&e, &st, sent, shorts, ring_full, peer_err, status);
	}
	if (mp != NULL && rte_mempool_in_use_count(mp) != 0) {
		printf("  sender: %u mbufs not returned\n", rte_mempool_in_use_count(mp));
		ret = TEST_FAILED;
	}
	left = rf_env_cleanup(&e);
	rte_mempool_free(mp);
	return ret == TEST_SUCCESS && left == 0 ? TEST_SUCCESS : TEST_FAILED;
}

REGISTER_TEST_COMMAND(rionet_slow_rx_autotest, test_rionet_slow_rx);

/* ------------------------------------------------------------------ */
/* Link status events                                                 */

struct rf_lsc {
	uint32_t events;
	uint32_t status;	/* link status the last callback read */
};

static int
rf_lsc_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret_param)
{
	struct rf_lsc *l = arg;
	struct rte_eth_link link;

	RTE_SET_USED(ret_param);
	if (type != RTE_ETH_EVENT_INTR_LSC || rte_eth_link_get_nowait(port, &link) != 0)
		return 0;
	/* Interrupt thread; the test polls: release pairs with rf_lsc_wait(). */
	__atomic_store_n(&l->status, link.link_status, __ATOMIC_RELAXED);
	__atomic_fetch_add(&l->events, 1, __ATOMIC_RELEASE);
	return 0;
}

/* Wait for event number n of l with the given link status; @return ms waited or -1. */
static int
rf_lsc_wait(struct rf_lsc *l, uint32_t n, uint32_t status)
{
	unsigned int ms;

	for (ms = 0; ms < 3000; ms++) {
		if (__atomic_load_n(&l->events, __ATOMIC_ACQUIRE) >= n &&
		    __atomic_load_n(&l->status, __ATOMIC_RELAXED) == status)
			return (int)ms;
		rte_delay_us_sleep(1000);
	}
	printf("  %u link events (want %u), last status %u (want %u)\n", l->events, n,
	       l->status, status);
	return -1;
}

static int
rf_lsc_steps(struct rf_env *e, uint16_t *port, struct rte_mempool *mp, struct rf_lsc *l0,
	     struct rf_lsc *l1)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	int ms;

	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port[0], &info), "info");
	TEST_ASSERT(*info.dev_flags & RTE_ETH_DEV_INTR_LSC, "RTE_ETH_DEV_INTR_LSC not set");
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(port[0], RTE_ETH_EVENT_INTR_LSC,
							  rf_lsc_cb, l0), "register 0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(port[1], RTE_ETH_EVENT_INTR_LSC,
							  rf_lsc_cb, l1), "register 1");
	/* Port 0 asks for link events, port 1 does not. */
	TEST_ASSERT_SUCCESS(rf_port_start(port[0], mp, true), "start 0 with lsc=1");
	rte_delay_us_sleep(50000);
	TEST_ASSERT_EQUAL(l0->events, 0, "link event while alone (link stays down)");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port[0], &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_DOWN, "link up without a peer");

	TEST_ASSERT_SUCCESS(rf_port_start(port[1], mp, false), "start 1");
	ms = rf_lsc_wait(l0, 1, RTE_ETH_LINK_UP);
	TEST_ASSERT(ms >= 0, "no link up event when the first peer joined");
	printf("  link up event %d ms after the peer started\n", ms);
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port[0], &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP, "link status");

	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port[1]), "stop 1");
	TEST_ASSERT(rf_lsc_wait(l0, 2, RTE_ETH_LINK_DOWN) >= 0,
		    "no link down event when the last peer left");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port[1]), "restart 1");
	TEST_ASSERT(rf_lsc_wait(l0, 3, RTE_ETH_LINK_UP) >= 0, "no link up event at rejoin");
	/* Stopping the port itself takes its link down. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port[0]), "stop 0");
	TEST_ASSERT(rf_lsc_wait(l0, 4, RTE_ETH_LINK_DOWN) >= 0, "no link down event at stop");
	rte_delay_us_sleep(20000);
	TEST_ASSERT_EQUAL(l0->events, 4, "extra link events");
	TEST_ASSERT_EQUAL(l1->events, 0, "link events although intr_conf.lsc = 0");
	/* A pending event never outlives the port: close right after a change. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port[0]), "start 0 again");
	TEST_ASSERT(rf_lsc_wait(l0, 5, RTE_ETH_LINK_UP) >= 0, "no link up event at restart");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port[0]), "stop 0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(port[0]), "close 0");
	rte_eth_dev_callback_unregister(port[1], RTE_ETH_EVENT_INTR_LSC, rf_lsc_cb, l1);
	RTE_SET_USED(e);
	return TEST_SUCCESS;
}

/*
 * Cases with both ports in this process: the case's files, a pool and
 * ep0/ep1 with their rionet ports. @return 0, or -1 (said why).
 */
static int
rf_local_pair_setup(struct rf_env *e, const char *tag, const char *pool,
		    struct rte_mempool **mp, uint16_t *port)
{
	unsigned int i;

	*mp = NULL;
	if (rf_env_setup(e, tag) != 0)
		return -1;
	*mp = rf_pool(pool);
	if (*mp == NULL)
		return -1;
	for (i = 0; i < 2; i++) {
		if (rf_local_port(e, i, &port[i]) != 0) {
			printf("  cannot create ep%u and its port\n", i);
			return -1;
		}
		e->vdev_up[i] = true;
	}
	return 0;
}

/*
 * Undo rf_local_pair_setup(); with @check_pool, every mbuf must be back.
 * @return TEST_SUCCESS when @ret is and nothing was left behind.
 */
static int
rf_local_pair_finish(struct rf_env *e, struct rte_mempool *mp, int ret, bool check_pool)
{
	int status[RF_NSLOT], left;

	rf_env_finish(e, status);
	left = rf_env_cleanup(e);
	if (check_pool && mp != NULL && rte_mempool_in_use_count(mp) != 0) {
		printf("  %u mbufs not returned\n", rte_mempool_in_use_count(mp));
		ret = TEST_FAILED;
	}
	rte_mempool_free(mp);
	return ret == TEST_SUCCESS && left == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_rionet_lsc(void)
{
	struct rf_lsc l0 = { 0 }, l1 = { 0 };
	struct rte_mempool *mp;
	uint16_t port[2];
	struct rf_env e;
	int ret = TEST_FAILED;

	if (rf_local_pair_setup(&e, "rfl", "rf_lsc", &mp, port) == 0)
		ret = rf_lsc_steps(&e, port, mp, &l0, &l1);
	return rf_local_pair_finish(&e, mp, ret, false);
}

REGISTER_TEST_COMMAND(rionet_lsc_autotest, test_rionet_lsc);

/* ------------------------------------------------------------------ */
/* An ERROR answer comes from a live peer                             */

static int
rf_error_steps(struct rf_env *e, uint16_t *port, struct rte_mempool *mp)
{
	struct rte_rio_mport *mp1 = rte_rio_mport_find(e->vdev[1]);
	struct rte_mbuf *m;
	unsigned int i;

	/*
	 * Port 0 sends on mailboxes 0 and 1, port 1 only opened mailbox 0 and
	 * said so; then it says it has mailbox 1 too (a peer that closed a
	 * mailbox without telling, or lies): its mport answers ERROR.
	 */
	TEST_ASSERT_NOT_NULL(mp1, "mport of port 1");
	TEST_ASSERT_SUCCESS(rf_port_start_q(port[0], mp, false, 2), "start 0 with 2 queues");
	TEST_ASSERT_SUCCESS(rf_port_start_q(port[1], mp, false, 1), "start 1 with 1 queue");
	for (i = 0; i < 3000 && rf_xstat(port[0], "peers_active") != 1; i++)
		rte_delay_us_sleep(1000);
	TEST_ASSERT_EQUAL(rf_xstat(port[0], "peers_active"), 1, "peers never joined");
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "mailboxes"), 0x1, "mailboxes of port 1");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(mp1, 0, RIONET_DBELL_MBOXES | 0x3),
			    "announce mailbox 1");
	for (i = 0; i < 3000 && rf_peer_xstat(port[0], 1, "mailboxes") != 0x3; i++)
		rte_delay_us_sleep(1000);
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "mailboxes"), 0x3, "announcement ignored");
	for (i = 0; i < 20; i++) {
		m = rf_frame(mp, 0, 1, 0, i, 64);
		TEST_ASSERT_NOT_NULL(m, "alloc");
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(port[0], 1, &m, 1), 1, "frame not consumed");
		rte_delay_us_sleep(500);
	}
	rte_delay_us_sleep(10000);
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "tx_errors"), 20, "ERROR answers counted");
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "active"), 1,
			  "a peer that answers ERROR was dropped");
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "lost"), 0, "ERROR counted as lost peer");
	TEST_ASSERT_EQUAL(rf_xstat(port[0], "peers_lost"), 0, "peers_lost");
	return TEST_SUCCESS;
}

static int
test_rionet_peer_error(void)
{
	struct rte_mempool *mp;
	uint16_t port[2];
	struct rf_env e;
	int ret = TEST_FAILED;

	if (rf_local_pair_setup(&e, "rfe", "rf_err", &mp, port) == 0)
		ret = rf_error_steps(&e, port, mp);
	return rf_local_pair_finish(&e, mp, ret, false);
}

REGISTER_TEST_COMMAND(rionet_peer_error_autotest, test_rionet_peer_error);

/* ------------------------------------------------------------------ */
/* rio_sim: messages to an endpoint whose owner died                  */

/* Owner of ep1: args <control file> <slot> <vdev name>; opens mailbox 0, never reads. */
static int
rf_owner_child(int argc, char **argv)
{
	struct rte_rio_mport *mp;
	struct rf_ctl *ctl;
	uint64_t deadline;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 2;
	argc = rio_test_child_args(argc, argv, ret, &argv);
	if (argc < 3 || (ctl = rio_test_map_file(argv[0], sizeof(*ctl), false)) == NULL)
		return 1;
	mp = rte_rio_mport_find(argv[2]);
	if (mp == NULL || rte_rio_request_inb_mbox(mp, 0, 64) != 0)
		return 1;
	app_store_rel(&ctl->p[1].ready, 1);
	/* Killed by the parent; bounded anyway. */
	deadline = rf_now_ns() + 3 * RF_WAIT_S * 1000000000ull;
	while (rf_now_ns() < deadline)
		rte_delay_us_sleep(10000);
	return 1;
}
REGISTER_TEST_CHILD(rio_sim_faults_owner, rf_owner_child);

/* Send one 64-byte message from mp to destid 1 on mailbox 0: its status. */
static int
rf_send1(struct rte_rio_mport *mp, uint32_t seq)
{
	uint8_t buf[64] = { 0 };
	struct rte_rio_msg msg = {
		.buf = buf, .len = sizeof(buf), .destid = 1, .letter = 0,
	};

	memcpy(buf, &seq, sizeof(seq));
	if (rte_rio_send_messages(mp, 0, &msg, 1) == 1)
		return 0;
	return msg.status;
}

/*
 * Send message @seq until it is taken or the target answers RETRY: -EAGAIN
 * is also local back-pressure (every outbound descriptor in flight, or a
 * RETRY response awaited: msg_tx_busy), which passes once responses are
 * back. Which comes first depends on how fast this CPU sends against the
 * modelled link. @return 0 (taken), 1 (RETRY) or a negative status.
 */
static int
rf_send1_until_retry(uint16_t raw, struct rte_rio_mport *mp, uint32_t seq)
{
	uint64_t deadline = rf_now_ns() + RF_WAIT_S * 1000000000ull;
	uint64_t retry0 = rf_raw_xstat(raw, "msg_tx_retry");
	int st;

	while ((st = rf_send1(mp, seq)) == -EAGAIN) {
		if (rf_raw_xstat(raw, "msg_tx_retry") != retry0)
			return 1;
		if (rf_now_ns() > deadline)
			return -ETIMEDOUT;
		rte_delay_us_sleep(20);
	}
	return st;
}

static int
rf_dead_owner_steps(struct rf_env *e, struct rte_rio_mport *mp)
{
	uint8_t bufs[8][RTE_RIO_MAX_MSG_SIZE];
	uint16_t raw = rte_rawdev_get_dev_id(e->vdev[0]);
	struct rte_rio_msg rx[8];
	struct rte_rio_mport *mp1;
	uint64_t t0, dt, retry;
	void *bp[8];
	uint32_t seq;
	unsigned int i, n;
	int st, status;

	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(mp, 0, 64), "outbound mailbox");
	/* The live owner never reads: its ring fills, then RETRY. */
	for (seq = 0; seq < 100000 && (st = rf_send1_until_retry(raw, mp, seq)) == 0; seq++)
		;
	TEST_ASSERT_EQUAL(st, 1, "a full ring of a live owner is not RETRY (%d)", st);
	TEST_ASSERT_EQUAL(seq, RF_MBOX_ENTRIES, "RETRY before the ring was full");
	printf("  %u messages taken, then RETRY; %" PRIu64 " local back-pressure\n", seq,
	       rf_raw_xstat(raw, "msg_tx_busy"));
	for (i = 0; i < 20; i++) {
		rte_delay_us_sleep(500);
		retry = rf_raw_xstat(raw, "msg_tx_retry");
		TEST_ASSERT_EQUAL(rf_send1_until_retry(raw, mp, seq), 1,
				  "live owner: RETRY expected");
		TEST_ASSERT_EQUAL(rf_raw_xstat(raw, "msg_tx_retry"), retry + 1,
				  "one RETRY per refused message");
	}
	/* Killed (and not reaped: a zombie is dead too): no response. */
	t0 = rf_now_ns();
	TEST_ASSERT_SUCCESS(kill(e->pid[1], SIGKILL), "kill");
	do {
		st = rf_send1(mp, seq);
		dt = rf_now_ns() - t0;
		if (st == -EAGAIN)
			rte_delay_us_sleep(100);
	} while (st == -EAGAIN && dt < 5000000000ull);
	printf("  -ETIMEDOUT %.1f ms after SIGKILL\n", dt / 1e6);
	TEST_ASSERT_EQUAL(st, -ETIMEDOUT, "the dead owner's endpoint still answers");
	TEST_ASSERT(dt < 1000000000ull, "-ETIMEDOUT only after %.1f ms", dt / 1e6);
	TEST_ASSERT_EQUAL(rf_send1(mp, seq), -ETIMEDOUT, "later messages must time out at once");
	TEST_ASSERT_EQUAL(rte_rio_send_doorbell(mp, 1, 0x1000), -ETIMEDOUT,
			  "a doorbell to the dead owner was accepted");
	status = rio_test_wait(e->pid[1], RF_WAIT_S * 1000);
	e->pid[1] = 0;
	TEST_ASSERT_EQUAL(status, 128 + SIGKILL, "owner exit");

	/* A new owner: the endpoint answers again, with an empty ring. */
	TEST_ASSERT_SUCCESS(rf_local_port_mport(e, 1, &mp1), "claim ep1 again");
	e->vdev_up[1] = true;
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(mp1, 0, 64), "inbound mailbox");
	for (i = 0; i < 8; i++)
		bp[i] = bufs[i];
	TEST_ASSERT_EQUAL(rte_rio_add_inb_buffers(mp1, 0, bp, 8), 8, "buffers");
	for (i = 0; i < 8; i++)
		TEST_ASSERT_SUCCESS(rf_send1_until_retry(raw, mp, 1000 + i),
				    "send to the new owner");
	/* Each arrives a modelled link time after it was sent. */
	t0 = rf_now_ns();
	for (n = 0; n < 8 && rf_now_ns() - t0 < RF_WAIT_S * 1000000000ull; ) {
		n += rte_rio_recv_messages(mp1, 0, rx + n, 8 - n);
		if (n < 8)
			rte_delay_us_sleep(100);
	}
	TEST_ASSERT_EQUAL(n, 8, "new owner got %u of 8 messages", n);
	for (i = 0; i < n; i++) {
		memcpy(&seq, rx[i].buf, sizeof(seq));
		TEST_ASSERT_EQUAL(seq, 1000 + i, "message from before the death or reordered");
	}
	rte_rio_release_inb_mbox(mp1, 0);
	rte_rio_release_outb_mbox(mp, 0);
	return TEST_SUCCESS;
}

static int
rf_dead_owner_run(const char *tag, unsigned int response_ns)
{
	struct rte_rio_mport *mp = NULL;
	struct rf_env e;
	int status[RF_NSLOT], left, ret = TEST_FAILED;
	const char *step;

	step = "setup";
	if (rf_env_setup_latency(&e, tag, response_ns) != 0)
		goto out;
	step = "ep0";
	if (rf_local_port_mport(&e, 0, &mp) != 0)
		goto out;
	e.vdev_up[0] = true;
	step = "owner of ep1";
	if (rf_spawn_slot(&e, "rio_sim_faults_owner", 1) != 0 ||
	    rf_wait(e.ctl, rf_cond_slow_ready, RF_WAIT_S * 1000) != 0)
		goto out;
	step = NULL;
	ret = rf_dead_owner_steps(&e, mp);
out:
	if (step != NULL)
		printf("  failed at: %s\n", step);
	if (e.pid[1] > 0)
		kill(e.pid[1], SIGKILL);
	rf_env_finish(&e, status);
	left = rf_env_cleanup(&e);
	return ret == TEST_SUCCESS && left == 0 ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Also where every target takes 100 us to answer: the sender's descriptors
 * are all in flight long before the owner's ring is full, on any CPU.
 */
static int
test_rio_sim_dead_owner(void)
{
	if (rf_dead_owner_run("rfo", 0) != TEST_SUCCESS)
		return TEST_FAILED;
	printf("  again with a 100 us response latency\n");
	return rf_dead_owner_run("rfp", 100000);
}

REGISTER_TEST_COMMAND(rio_sim_dead_owner_autotest, test_rio_sim_dead_owner);

/* ------------------------------------------------------------------ */
/* Link flap: a live peer is lost, then rejoined                      */

#define RF_FLAP_MAX	8192	/* frames the flap case sends at most */

/* Frames the flap case sent: which tx_burst counted as sent (accepted). */
static uint8_t rf_flap_accepted[RF_FLAP_MAX];

/*
 * Send n numbered frames from port 0 to ep1 (retrying back-pressure), one
 * per tx_burst, so that each is known accepted (opackets counts it) or
 * dropped (oerrors); @return frames tx_burst consumed.
 */
static unsigned int
rf_flap_send(uint16_t port, struct rte_mempool *mp, uint64_t *seq, unsigned int n)
{
	struct rte_eth_stats st0, st1;
	struct rte_mbuf *m;
	unsigned int i, tries;
	uint16_t k = 0;

	for (i = 0; i < n && *seq < RF_FLAP_MAX; i++) {
		m = rf_frame(mp, 0, 1, 0, *seq, (uint16_t)(60 + *seq % 1400));
		if (m == NULL)
			break;
		rte_eth_stats_get(port, &st0);
		for (tries = 0, k = 0; tries < 1000 && k == 0; tries++)
			k = rte_eth_tx_burst(port, 0, &m, 1);
		if (k == 0) {
			rte_pktmbuf_free(m);
			break;
		}
		rte_eth_stats_get(port, &st1);
		rf_flap_accepted[*seq] = st1.opackets == st0.opackets + 1;
		(*seq)++;
	}
	return i;
}

/*
 * Receive on port 1 until @seq frames were looked at or nothing more comes
 * for 200 ms: each intact, after the previous one, and accepted when it was
 * sent. *next: the sequence after the last one received; *rx: received.
 * @return frames bad (corrupted, duplicated, reordered, or dropped yet
 * arrived).
 */
static unsigned int
rf_flap_recv(uint16_t port, uint64_t seq, uint64_t *next, uint64_t *rx)
{
	struct rte_mbuf *pkts[RF_BURST];
	unsigned int bad = 0, idle = 0;
	uint64_t s;
	uint32_t slot;
	uint16_t n, i;

	while (idle < 200 && *next < seq) {
		n = rte_eth_rx_burst(port, 0, pkts, RF_BURST);
		for (i = 0; i < n; i++) {
			if (!rf_frame_parse(pkts[i], &slot, &s) || s < *next || s >= seq ||
			    !rf_flap_accepted[s]) {
				if (bad++ < 5)
					printf("  frame %" PRIu64 " bad, duplicated, out of order or dropped (after %" PRIu64 ")\n",
					       s, *next);
				continue;
			}
			*next = s + 1;
			(*rx)++;
		}
		rte_pktmbuf_free_bulk(pkts, n);
		idle = n == 0 ? idle + 1 : 0;
		if (n == 0)
			rte_delay_us_sleep(1000);
	}
	return bad;
}

static int
rf_flap_steps(struct rf_env *e, uint16_t *port, struct rte_mempool *mp, struct rf_lsc *l0)
{
	uint64_t seq = 0, t0, next = 0, rx = 0, accepted = 0, s;
	int64_t join_tx0, join_tx1, joins;
	unsigned int i, ms, hosts, bad;
	int raw1, ret;

	raw1 = rte_rawdev_get_dev_id(e->vdev[1]);
	TEST_ASSERT(raw1 >= 0, "rawdev of ep1");
	TEST_ASSERT_SUCCESS(rte_eth_dev_callback_register(port[0], RTE_ETH_EVENT_INTR_LSC,
							  rf_lsc_cb, l0), "register");
	TEST_ASSERT_SUCCESS(rf_port_start(port[0], mp, true), "start 0");
	TEST_ASSERT_SUCCESS(rf_port_start(port[1], mp, false), "start 1");
	TEST_ASSERT(rf_lsc_wait(l0, 1, RTE_ETH_LINK_UP) >= 0, "link up");
	for (ms = 0; ms < 3000 && rf_xstat(port[1], "peers_active") != 1; ms++)
		rte_delay_us_sleep(1000);
	TEST_ASSERT_EQUAL(rf_flap_send(port[0], mp, &seq, 100), 100, "traffic before the flap");
	/*
	 * This case is about rionet's own liveness check. The host's port-write
	 * hot-plug would remove ep1 on link down before unanswered sends mark it
	 * lost (rionet_hotplug_autotest covers that path), so it is stopped here.
	 */
	for (i = 0, hosts = 0; i < 2; i++) {
		ret = rte_rio_pw_poll_period_set(rte_rio_mport_find(e->vdev[i]), 0);
		TEST_ASSERT(ret == 0 || ret == -ENODEV, "stop port-write poll: %d", ret);
		hosts += ret == 0;
	}
	TEST_ASSERT_EQUAL(hosts, 1, "enumerating hosts");

	/* ep1's link goes down: sends from port 0 get no response, the peer is lost. */
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(raw1, RTE_PMD_RIO_SIM_ATTR_LINK, 0), "down");
	t0 = rf_now_ns();
	for (ms = 0; ms < 3000 && rf_peer_xstat(port[0], 1, "active") != 0; ms++) {
		rf_flap_send(port[0], mp, &seq, 1);
		rte_delay_us_sleep(1000);
	}
	printf("  peer lost %.1f ms after its link went down\n", (rf_now_ns() - t0) / 1e6);
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "active"), 0, "peer behind a down link");
	TEST_ASSERT(rf_lsc_wait(l0, 2, RTE_ETH_LINK_DOWN) >= 0, "link down event");
	/* Port 1 sent nothing: it never noticed and still counts port 0 active. */
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[1], 0, "active"), 1, "port 1 noticed");
	join_tx0 = rf_xstat(port[0], "join_tx");
	join_tx1 = rf_xstat(port[1], "join_tx");

	/* Link up: port 0 JOINs again, port 1 answers although port 0 is active for it. */
	rte_delay_us_sleep(50000);
	TEST_ASSERT_SUCCESS(rte_rawdev_set_attr(raw1, RTE_PMD_RIO_SIM_ATTR_LINK, 1), "up");
	t0 = rf_now_ns();
	TEST_ASSERT(rf_lsc_wait(l0, 3, RTE_ETH_LINK_UP) >= 0, "no rejoin after the link came up");
	printf("  peer rejoined %.1f ms after its link came up\n", (rf_now_ns() - t0) / 1e6);
	TEST_ASSERT(rf_xstat(port[0], "join_tx") > join_tx0, "port 0 did not JOIN again");
	TEST_ASSERT(rf_xstat(port[1], "join_tx") > join_tx1, "port 1 did not answer");
	/* The two ends do not answer each other forever. */
	rte_delay_us_sleep(300000);
	joins = rf_xstat(port[0], "join_tx") + rf_xstat(port[1], "join_tx");
	rte_delay_us_sleep(1200000);
	TEST_ASSERT_EQUAL(rf_xstat(port[0], "join_tx") + rf_xstat(port[1], "join_tx"), joins,
			  "JOINs keep going back and forth");

	/*
	 * Traffic resumes. Every frame accepted, from the first one (before
	 * the flap, still in port 1's ring) to the last one, arrives once, in
	 * order and intact (every byte checked); none of those dropped (no
	 * response, unknown destination) does.
	 */
	TEST_ASSERT_EQUAL(rf_flap_send(port[0], mp, &seq, 200), 200, "traffic after the flap");
	bad = rf_flap_recv(port[1], seq, &next, &rx);
	for (s = 0; s < seq; s++)
		accepted += rf_flap_accepted[s];
	printf("  %" PRIu64 " frames sent, %" PRIu64 " accepted, %" PRIu64 " received, %u bad\n",
	       seq, accepted, rx, bad);
	TEST_ASSERT_EQUAL(bad, 0, "frames bad, duplicated, reordered or dropped yet received");
	TEST_ASSERT_EQUAL(rx, accepted, "accepted frames lost");
	TEST_ASSERT(accepted >= 300, "accepted before and after the flap: %" PRIu64, accepted);
	TEST_ASSERT_EQUAL(rf_peer_xstat(port[0], 1, "lost"), 1, "lost count");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port[0]), "stop 0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port[1]), "stop 1");
	rte_eth_dev_callback_unregister(port[0], RTE_ETH_EVENT_INTR_LSC, rf_lsc_cb, l0);
	return TEST_SUCCESS;
}

static int
test_rionet_link_flap(void)
{
	struct rte_mempool *mp;
	struct rf_lsc l0 = { 0 };
	uint16_t port[2];
	struct rf_env e;
	int ret = TEST_FAILED;

	if (rf_local_pair_setup(&e, "rff", "rf_flap", &mp, port) == 0)
		ret = rf_flap_steps(&e, port, mp, &l0);
	return rf_local_pair_finish(&e, mp, ret, true);
}

REGISTER_TEST_COMMAND(rionet_link_flap_autotest, test_rionet_link_flap);
