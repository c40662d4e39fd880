/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rionet_autotest: the rionet ethdev PMD end to end, through the public
 * ethdev API, on rio_sim mports created in this process:
 *
 *   sw0 (8 ports): ep0 (host, destid 0) ep1 (destid 1) ep2 (destid 2) ep3 (destid 3)
 *
 * Each case creates a fresh fabric with a unique name, mports for the
 * endpoints it needs (rionet binds each one as port "rionet_<mport>") and
 * checks at teardown that no /dev/shm object of the fabric remains.
 */

#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rawdev.h>
#include <rte_udp.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rte_bus_rio.h"
#include "rionet.h"
#include "../linux-ref/lr_frame.h"

#include "test.h"

#define RN_MAX_EP	4
#define RN_NB_MBUF	4096
#define RN_DESC		256
#define RN_WAIT_MS	3000
#define RN_BURST	32

struct rn_env {
	char fabric[32];
	char topo[64];
	char shm_prefix[64];
	char vdev[RN_MAX_EP][32];
	bool created[RN_MAX_EP];
	struct rte_rio_mport *mp[RN_MAX_EP];
	uint16_t port[RN_MAX_EP];
	bool has_port[RN_MAX_EP];
};

static struct rn_env env;
static unsigned int rn_vdev_counter;
/* Every case runs on a fabric of 8-bit, then of 16-bit device IDs. */
static unsigned int rn_devid_size = 8;
/*
 * rionet_tsi721_autotest: ep0 (the host) is the tsi721 driver on the model
 * of the part instead of rio_sim. Messages to and from it are whole
 * double-words, as on the part: a frame of n bytes arrives as
 * RTE_ALIGN_CEIL(n, 8) bytes, the padding zero.
 */
static bool rn_tsi721;
static struct rte_mempool *rn_pool_big;	/* data room fits 4096: direct receive */
static struct rte_mempool *rn_pool_small;	/* 2048: bounce buffers, chained mbufs */

/* ------------------------------------------------------------------ */
/* Environment                                                        */

static int
rn_topo_write(void)
{
	FILE *fp;
	int fd;

	snprintf(env.topo, sizeof(env.topo), "/tmp/rionet_topo.XXXXXX");
	fd = mkstemp(env.topo);
	if (fd < 0)
		return -errno;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		return -EIO;
	}
	fprintf(fp,
		"[fabric]\n"
		"devid_size = %u\n"
		"mbox_entries = 512\n"
		"static_routes = 1\n"
		"[switch sw0]\n"
		"ports = 8\n"
		"[endpoint ep0]\n"
		"host = 1\n"
		"destid = 0\n"
		"[endpoint ep1]\n"
		"destid = 1\n"
		"[endpoint ep2]\n"
		"destid = 2\n"
		"[endpoint ep3]\n"
		"destid = 3\n"
		"[links]\n"
		"sw0.0 = ep0.0\n"
		"sw0.1 = ep1.0\n"
		"sw0.2 = ep2.0\n"
		"sw0.3 = ep3.0\n", rn_devid_size);
	return fclose(fp) == 0 ? 0 : -EIO;
}

static int
rn_find_port(unsigned int i)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	snprintf(name, sizeof(name), "rionet_%s", env.vdev[i]);
	if (rte_eth_dev_get_port_by_name(name, &env.port[i]) != 0)
		return -ENODEV;
	env.has_port[i] = true;
	return 0;
}

/* Create the mport of ep<i>, scan the fabric from it, find its rionet port. */
static int
rn_ep_create(unsigned int i)
{
	struct rte_rio_scan_conf sc = { .disc_timeout_ms = 5000 };
	char args[256];
	int ret;

	if (rn_tsi721 && i == 0) {
		snprintf(env.vdev[i], sizeof(env.vdev[i]), "tsi721_model_rn%u", rn_vdev_counter++);
		snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep0,host=0",
			 env.fabric, env.topo);
	} else {
		snprintf(env.vdev[i], sizeof(env.vdev[i]), "rio_sim_rn%u", rn_vdev_counter++);
		snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep%u",
			 env.fabric, env.topo, i);
	}
	ret = rte_vdev_init(env.vdev[i], args);
	if (ret < 0)
		return ret;
	env.created[i] = true;
	env.mp[i] = rte_rio_mport_find(env.vdev[i]);
	if (env.mp[i] == NULL)
		return -ENODEV;
	if (!rte_rio_mport_scanned(env.mp[i])) {
		ret = rte_rio_mport_scan(env.mp[i], &sc);
		if (ret < 0 && ret != -EALREADY)
			return ret;
	}
	return rn_find_port(i);
}

static int
rn_env_setup(unsigned int n)
{
	unsigned int i;
	int ret;

	memset(&env, 0, sizeof(env));
	if (rio_test_unique("rn", env.fabric, sizeof(env.fabric) - 1) == NULL)
		return TEST_FAILED;
	strcat(env.fabric, "x");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(rn_topo_write(), "cannot write topology");
	for (i = 0; i < n; i++) {
		ret = rn_ep_create(i);
		TEST_ASSERT_SUCCESS(ret, "cannot create ep%u and its rionet port", i);
	}
	return TEST_SUCCESS;
}

static int
rn_env_teardown(void)
{
	int left = 0;
	int i;

	for (i = RN_MAX_EP - 1; i >= 0; i--) {
		if (env.has_port[i] && rte_eth_dev_is_valid_port(env.port[i])) {
			rte_eth_dev_stop(env.port[i]);
			rte_eth_dev_close(env.port[i]);
		}
		env.has_port[i] = false;
		if (env.created[i])
			rte_vdev_uninit(env.vdev[i]);
		env.created[i] = false;
	}
	if (env.topo[0] != '\0')
		unlink(env.topo);
	env.topo[0] = '\0';
	if (env.fabric[0] != '\0')
		left = rio_test_shm_count(env.shm_prefix);
	if (left != 0) {
		printf("  LEAK: %d shared-memory objects /%s* remain\n", left, env.shm_prefix);
		rio_test_shm_cleanup(env.shm_prefix);
	}
	return left;
}

/*
 * Configure and start port i with nb_rxq/nb_txq queues, MTU mtu, Tx offloads
 * port_tx for the port and q0_tx for its Tx queue 0 alone.
 */
static int
rn_port_start_offloads(unsigned int i, uint16_t nb_rxq, uint16_t nb_txq, uint16_t mtu,
		       struct rte_mempool *mp, uint64_t port_tx, uint64_t q0_tx)
{
	struct rte_eth_conf conf = { .rxmode = { .mtu = mtu }, .txmode = { .offloads = port_tx } };
	struct rte_eth_dev_info info;
	struct rte_eth_txconf txconf;
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(env.port[i], nb_rxq, nb_txq, &conf);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_info_get(env.port[i], &info);
	if (ret < 0)
		return ret;
	for (q = 0; q < nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(env.port[i], q, RN_DESC, SOCKET_ID_ANY, NULL, mp);
		if (ret < 0)
			return ret;
	}
	for (q = 0; q < nb_txq; q++) {
		txconf = info.default_txconf;
		txconf.offloads = port_tx | (q == 0 ? q0_tx : 0);
		ret = rte_eth_tx_queue_setup(env.port[i], q, RN_DESC, SOCKET_ID_ANY, &txconf);
		if (ret < 0)
			return ret;
	}
	ret = rte_eth_promiscuous_disable(env.port[i]);
	if (ret < 0)
		return ret;
	return rte_eth_dev_start(env.port[i]);
}

/* Configure and start port i with nb_rxq/nb_txq queues, MTU mtu. */
static int
rn_port_start(unsigned int i, uint16_t nb_rxq, uint16_t nb_txq, uint16_t mtu,
	      struct rte_mempool *mp)
{
	return rn_port_start_offloads(i, nb_rxq, nb_txq, mtu, mp, 0, 0);
}

static int
rn_link_wait(unsigned int i, int want_up)
{
	struct rte_eth_link link;
	unsigned int ms;

	for (ms = 0; ms < RN_WAIT_MS; ms += 5) {
		if (rte_eth_link_get_nowait(env.port[i], &link) == 0 &&
		    link.link_status == want_up)
			return 0;
		rte_delay_ms(5);
	}
	return -ETIMEDOUT;
}

/* Value of xstat @name of port i, or -1. */
static int64_t
rn_xstat(unsigned int i, const char *name)
{
	uint64_t id, v;

	if (rte_eth_xstats_get_id_by_name(env.port[i], name, &id) != 0)
		return -1;
	if (rte_eth_xstats_get_by_id(env.port[i], &id, &v, 1) != 1)
		return -1;
	return (int64_t)v;
}

static int64_t
rn_peer_xstat(unsigned int i, uint16_t destid, const char *what)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];

	snprintf(name, sizeof(name), "peer_0x%04x_%s", destid, what);
	return rn_xstat(i, name);
}

/* Wait until port i sees n active peers. */
static int
rn_active_wait(unsigned int i, int64_t n)
{
	unsigned int ms;

	for (ms = 0; ms < RN_WAIT_MS; ms += 5) {
		if (rn_xstat(i, "peers_active") == n)
			return 0;
		rte_delay_ms(5);
	}
	return -ETIMEDOUT;
}

/* Build a frame of len bytes to dst, from src, with a pattern keyed by seq. */
static struct rte_mbuf *
rn_frame(struct rte_mempool *mp, const struct rte_ether_addr *dst, uint16_t src_destid,
	 uint32_t len, uint32_t seq)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct rte_ether_hdr *eth;
	uint8_t *p;
	uint32_t k;

	if (m == NULL || len > rte_pktmbuf_tailroom(m)) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	eth = (struct rte_ether_hdr *)p;
	rte_ether_addr_copy(dst, &eth->dst_addr);
	rionet_mac_from_destid(src_destid, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(0x88b5);
	for (k = sizeof(*eth); k < len; k++)
		p[k] = (uint8_t)(seq * 7 + k);
	if (len >= sizeof(*eth) + 4)
		memcpy(p + sizeof(*eth), &seq, 4);
	return m;
}

/*
 * Bytes a frame of @len arrives with: message payloads are whole
 * double-words on the wire, zero-padded.
 */
static uint32_t
rn_wire_len(uint32_t len)
{
	return RTE_ALIGN_CEIL(len, 8u);
}

/* @m is frame seq of @len bytes, padded with zeros to its wire length. */
static bool
rn_frame_check(struct rte_mbuf *m, uint32_t len, uint32_t seq)
{
	uint8_t buf[RIONET_MAX_FRAME];
	const uint8_t *p;
	uint32_t k;

	if (m->pkt_len != rn_wire_len(len) || m->pkt_len > RIONET_MAX_FRAME)
		return false;
	p = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	for (k = len; k < m->pkt_len; k++)
		if (p[k] != 0)
			return false;
	for (k = sizeof(struct rte_ether_hdr) + 4; k < len; k++)
		if (p[k] != (uint8_t)(seq * 7 + k))
			return false;
	return len < sizeof(struct rte_ether_hdr) + 4 ||
		memcmp(p + sizeof(struct rte_ether_hdr), &seq, 4) == 0;
}

/*
 * rn_frame() of head_len bytes chained to a second segment of tail_len
 * bytes that continues the pattern: rn_frame_check() of head_len + tail_len
 * bytes passes on it.
 */
static struct rte_mbuf *
rn_frame_chained(struct rte_mempool *mp, const struct rte_ether_addr *dst,
		 uint16_t src_destid, uint32_t head_len, uint32_t tail_len, uint32_t seq)
{
	struct rte_mbuf *m = rn_frame(mp, dst, src_destid, head_len, seq);
	struct rte_mbuf *tail = rte_pktmbuf_alloc(mp);
	uint8_t *p = tail != NULL ? (uint8_t *)rte_pktmbuf_append(tail, tail_len) : NULL;
	uint32_t k;

	if (m == NULL || p == NULL || rte_pktmbuf_chain(m, tail) != 0) {
		rte_pktmbuf_free(m);
		rte_pktmbuf_free(tail);
		return NULL;
	}
	for (k = 0; k < tail_len; k++)
		p[k] = (uint8_t)(seq * 7 + head_len + k);
	return m;
}

/* Receive up to n frames on port i queue q within the wait time. */
static uint16_t
rn_rx(unsigned int i, uint16_t q, struct rte_mbuf **pkts, uint16_t n, unsigned int wait_ms)
{
	uint16_t got = 0;
	unsigned int ms = 0;

	while (got < n) {
		got += rte_eth_rx_burst(env.port[i], q, pkts + got, n - got);
		if (got == n || ms >= wait_ms)
			break;
		rte_delay_ms(1);
		ms++;
	}
	return got;
}

/* Send one frame; returns what tx_burst returned (1: consumed). */
static uint16_t
rn_tx1(unsigned int i, uint16_t q, struct rte_mbuf *m)
{
	unsigned int tries;
	uint16_t n = 0;

	for (tries = 0; tries < 1000 && n == 0; tries++)
		n = rte_eth_tx_burst(env.port[i], q, &m, 1);
	if (n == 0)
		rte_pktmbuf_free(m);
	return n;
}

static int
rn_start_pair(uint16_t mtu, struct rte_mempool *mp)
{
	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, mtu, mp), "start port 0");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, mtu, mp), "start port 1");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link of port 0 never came up");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link of port 1 never came up");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Cases                                                              */

static int
test_rionet_probe_info(void)
{
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac, bad;
	struct rte_eth_link link;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(env.port[i], &info), "info");
		TEST_ASSERT_EQUAL(info.max_rx_pktlen, 4096, "max_rx_pktlen");
		TEST_ASSERT_EQUAL(info.min_mtu, 68, "min_mtu");
		TEST_ASSERT_EQUAL(info.max_mtu, 4082, "max_mtu");
		TEST_ASSERT_EQUAL(info.max_rx_queues, 4, "max_rx_queues");
		TEST_ASSERT_EQUAL(info.max_tx_queues, 4, "max_tx_queues");
		TEST_ASSERT_EQUAL(info.rx_desc_lim.nb_max, 4096, "rx desc max");
		TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(env.port[i], &mac), "mac");
		TEST_ASSERT(mac.addr_bytes[0] == 0 && mac.addr_bytes[1] == 1 &&
			    mac.addr_bytes[2] == 0 && mac.addr_bytes[3] == 1 &&
			    mac.addr_bytes[4] == 0 && mac.addr_bytes[5] == i,
			    "MAC of port %u is not 00:01:00:01:00:%02x", i, i);
		bad = mac;
		bad.addr_bytes[5] ^= 0x40;
		TEST_ASSERT(rte_eth_dev_default_mac_addr_set(env.port[i], &bad) < 0,
			    "a foreign MAC address was accepted");
		TEST_ASSERT_SUCCESS(rte_eth_dev_default_mac_addr_set(env.port[i], &mac),
				    "own MAC address refused");
		TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(env.port[i], &link), "link");
		TEST_ASSERT_EQUAL(link.link_status, 0, "link up before start");
	}
	/* The local endpoint is bound, remote ones are left to other drivers. */
	{
		char name[RTE_RIO_NAME_MAX_LEN];
		struct rte_rio_device *d;

		snprintf(name, sizeof(name), "%s-e0000", env.vdev[0]);
		d = rte_rio_dev_find(name);
		TEST_ASSERT_NOT_NULL(d, "local endpoint %s not on the bus", name);
		TEST_ASSERT(d->driver != NULL && strcmp(d->driver->driver.name, "net_rionet") == 0,
			    "local endpoint not bound to rionet");
		rte_rio_dev_put(d);
		snprintf(name, sizeof(name), "%s-e0001", env.vdev[0]);
		d = rte_rio_dev_find(name);
		TEST_ASSERT_NOT_NULL(d, "remote endpoint %s not on the bus", name);
		TEST_ASSERT_NULL(d->driver, "rionet claimed a remote endpoint");
		rte_rio_dev_put(d);
	}
	/* Too many queues and bad descriptor counts are refused. */
	{
		struct rte_eth_conf conf = { 0 };

		TEST_ASSERT(rte_eth_dev_configure(env.port[0], 5, 1, &conf) < 0,
			    "5 Rx queues accepted");
		TEST_ASSERT_SUCCESS(rte_eth_dev_configure(env.port[0], 1, 1, &conf), "cfg");
		TEST_ASSERT(rte_eth_rx_queue_setup(env.port[0], 0, 8192, SOCKET_ID_ANY, NULL,
						   rn_pool_big) < 0, "8192 descriptors accepted");
		TEST_ASSERT(rte_eth_tx_queue_setup(env.port[0], 0, 1, SOCKET_ID_ANY,
						   NULL) < 0, "1 descriptor accepted");
	}
	return TEST_SUCCESS;
}

static int
test_rionet_handshake_two(void)
{
	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	rte_delay_ms(20);
	TEST_ASSERT_EQUAL(rn_xstat(0, "peers_active"), 0, "active peer while alone");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link 0");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "port 0 peers");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 1), "port 1 peers");
	/* Port 1 joined port 0, port 0 answered. */
	TEST_ASSERT(rn_peer_xstat(0, 1, "join_rx") >= 1, "port 0 got no JOIN");
	TEST_ASSERT(rn_peer_xstat(0, 1, "join_tx") >= 1, "port 0 sent no JOIN");
	TEST_ASSERT(rn_peer_xstat(1, 0, "join_rx") >= 1, "port 1 got no JOIN");

	/* Stop port 1: LEAVE, port 0's link goes down. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[1]), "stop 1");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 0), "link 0 stayed up after LEAVE");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "leave_rx"), 1, "LEAVE count");
	TEST_ASSERT_EQUAL(rn_peer_xstat(1, 0, "leave_tx"), 1, "LEAVE sent");
	/* Restart: it rejoins. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(env.port[1]), "restart 1");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link 0 after rejoin");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link 1 after rejoin");
	return TEST_SUCCESS;
}

static int
test_rionet_handshake_three(void)
{
	unsigned int i;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_port_start(i, 1, 1, 1500, rn_pool_big), "start %u", i);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_active_wait(i, 2), "port %u does not see 2 peers", i);
	/* Port 2 stops and closes: the others keep one peer each. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[2]), "stop 2");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(env.port[2]), "close 2");
	env.has_port[2] = false;
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "port 0 after close");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 1), "port 1 after close");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 2, "active"), 0, "closed peer still active");
	return TEST_SUCCESS;
}

static int
rn_unicast_sizes(struct rte_mempool *mp)
{
	static const uint32_t sizes[] = { 60, 61, 1514, 4096 };
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[4];
	struct rte_eth_stats st;
	unsigned int k;

	TEST_ASSERT_SUCCESS(rn_start_pair(RIONET_MAX_MTU, mp), "pair");
	rionet_mac_from_destid(1, &dst);
	for (k = 0; k < RTE_DIM(sizes); k++) {
		m = rn_frame(rn_pool_big, &dst, 0, sizes[k], k);
		TEST_ASSERT_NOT_NULL(m, "alloc");
		TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "frame of %u bytes not taken", sizes[k]);
		TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "frame of %u lost", sizes[k]);
		TEST_ASSERT(rn_frame_check(rx[0], sizes[k], k),
			    "frame of %u bytes arrived as %u bytes or corrupted", sizes[k],
			    rx[0]->pkt_len);
		TEST_ASSERT_EQUAL(rx[0]->port, env.port[1], "mbuf port");
		rte_pktmbuf_free(rx[0]);
	}
	/* 4097 bytes (two segments): refused, counted, nothing sent. */
	m = rn_frame(rn_pool_big, &dst, 0, 4096, 9);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	{
		struct rte_mbuf *tail = rte_pktmbuf_alloc(rn_pool_big);

		TEST_ASSERT_NOT_NULL(tail, "alloc");
		TEST_ASSERT_NOT_NULL(rte_pktmbuf_append(tail, 1), "append");
		TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, tail), "chain");
		TEST_ASSERT_EQUAL(m->pkt_len, 4097, "length");
	}
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "oversize frame not consumed");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 50), 0, "oversize frame delivered");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_oversize"), 1, "oversize not counted");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(env.port[0], &st), "stats");
	TEST_ASSERT_EQUAL(st.opackets, 4, "opackets");
	TEST_ASSERT_EQUAL(st.oerrors, 1, "oerrors");
	TEST_ASSERT_EQUAL(st.obytes, 60 + 61 + 1514 + 4096, "obytes");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(env.port[1], &st), "stats");
	TEST_ASSERT_EQUAL(st.ipackets, 4, "ipackets");
	TEST_ASSERT_EQUAL(st.ibytes, rn_wire_len(60) + rn_wire_len(61) + rn_wire_len(1514) +
			  rn_wire_len(4096), "ibytes");
	return TEST_SUCCESS;
}

static int
test_rionet_unicast_direct(void)
{
	return rn_unicast_sizes(rn_pool_big);
}

static int
test_rionet_unicast_bounce(void)
{
	return rn_unicast_sizes(rn_pool_small);
}

/* Multi-segment frames are linearized on transmit. */
static int
test_rionet_multiseg_tx(void)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[1];

	TEST_ASSERT_SUCCESS(rn_start_pair(RIONET_MAX_MTU, rn_pool_big), "pair");
	rionet_mac_from_destid(1, &dst);
	m = rn_frame_chained(rn_pool_small, &dst, 0, 1000, 1500, 5);
	TEST_ASSERT_NOT_NULL(m, "chained frame");
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "chained frame not taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "chained frame lost");
	TEST_ASSERT(rn_frame_check(rx[0], 2500, 5), "chained frame corrupted");
	rte_pktmbuf_free(rx[0]);
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_linearized"), 1, "linearized count");
	return TEST_SUCCESS;
}

/* Frames of one tx_burst in test_rionet_tx_fast_free(). */
#define RN_FF_BURST	32

static int
rn_txq_offloads(unsigned int i, uint16_t q, uint64_t *offloads)
{
	struct rte_eth_txq_info qinfo;
	int ret;

	ret = rte_eth_tx_queue_info_get(env.port[i], q, &qinfo);
	if (ret == 0)
		*offloads = qinfo.conf.offloads;
	return ret;
}

/*
 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE is offered per queue. A queue with it
 * returns sent frames to their pool in bulk, and still frees every segment
 * of a chained frame.
 */
static int
test_rionet_tx_fast_free(void)
{
	const uint64_t ff = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	struct rte_mbuf *tx[RN_FF_BURST], *rx[RN_FF_BURST], *m;
	struct rte_eth_dev_info info;
	struct rte_ether_addr dst;
	unsigned int avail, k, tries;
	uint64_t offl;
	uint16_t sent;

	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(env.port[0], &info), "info");
	TEST_ASSERT((info.tx_offload_capa & ff) != 0 && (info.tx_queue_offload_capa & ff) != 0,
		    "fast free not offered");
	/* Port 0: on its queue 0 only; port 1: on the whole port. */
	TEST_ASSERT_SUCCESS(rn_port_start_offloads(0, 2, 2, 1500, rn_pool_big, 0, ff), "start 0");
	TEST_ASSERT_SUCCESS(rn_port_start_offloads(1, 2, 2, 1500, rn_pool_big, ff, 0), "start 1");
	TEST_ASSERT_SUCCESS(rn_txq_offloads(0, 0, &offl), "txq info");
	TEST_ASSERT_EQUAL(offl & ff, ff, "port 0 queue 0 without fast free");
	TEST_ASSERT_SUCCESS(rn_txq_offloads(0, 1, &offl), "txq info");
	TEST_ASSERT_EQUAL(offl & ff, 0, "port 0 queue 1 with fast free");
	TEST_ASSERT_SUCCESS(rn_txq_offloads(1, 1, &offl), "txq info");
	TEST_ASSERT_EQUAL(offl & ff, ff, "port 1 queue 1 without the port's fast free");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peers");

	rionet_mac_from_destid(1, &dst);
	avail = rte_mempool_avail_count(rn_pool_small);
	for (k = 0; k < RN_FF_BURST; k++) {
		tx[k] = rn_frame(rn_pool_small, &dst, 0, 64, k);
		TEST_ASSERT_NOT_NULL(tx[k], "alloc");
	}
	for (sent = 0, tries = 0; sent < RN_FF_BURST && tries < 1000; tries++)
		sent += rte_eth_tx_burst(env.port[0], 0, tx + sent, RN_FF_BURST - sent);
	TEST_ASSERT_EQUAL(sent, RN_FF_BURST, "burst not taken");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_small), avail,
			  "sent frames not back in their pool");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, RN_FF_BURST, 1000), RN_FF_BURST, "frames lost");
	for (k = 0; k < RN_FF_BURST; k++) {
		TEST_ASSERT(rn_frame_check(rx[k], 64, k), "frame %u corrupted", k);
		rte_pktmbuf_free(rx[k]);
	}

	/* A chained frame takes the general path: both segments freed. */
	m = rn_frame_chained(rn_pool_small, &dst, 0, 1000, 100, 40);
	TEST_ASSERT_NOT_NULL(m, "chained frame");
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "chained frame not taken");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_small), avail,
			  "segments of the chained frame not freed");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "chained frame lost");
	TEST_ASSERT(rn_frame_check(rx[0], 1100, 40), "chained frame corrupted");
	rte_pktmbuf_free(rx[0]);
	return TEST_SUCCESS;
}

static int
test_rionet_bcast_mcast(void)
{
	struct rte_ether_addr bcast, mcast = {{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x07 }};
	struct rte_mbuf *m, *rx[2];
	unsigned int avail, i;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_port_start(i, 1, 1, 1500, rn_pool_big), "start %u", i);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_active_wait(i, 2), "port %u peers", i);
	memset(&bcast, 0xff, sizeof(bcast));
	avail = rte_mempool_avail_count(rn_pool_small);

	m = rn_frame(rn_pool_small, &bcast, 0, 61, 1);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "broadcast not taken");
	for (i = 1; i < 3; i++) {
		TEST_ASSERT_EQUAL(rn_rx(i, 0, rx, 2, 200), 1, "port %u broadcast count", i);
		TEST_ASSERT(rn_frame_check(rx[0], 61, 1), "broadcast corrupted at %u", i);
		rte_pktmbuf_free(rx[0]);
	}
	/* Multicast: dropped by a receiver without allmulticast, kept with it. */
	m = rn_frame(rn_pool_small, &mcast, 0, 1514, 2);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "multicast not taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 100), 0, "multicast passed the filter");
	TEST_ASSERT_EQUAL(rn_rx(2, 0, rx, 1, 100), 0, "multicast passed the filter");
	TEST_ASSERT_EQUAL(rn_xstat(1, "rx_q0_filtered"), 1, "filtered count");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(env.port[1]), "allmulti");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(env.port[2]), "allmulti");
	m = rn_frame(rn_pool_small, &mcast, 0, 1514, 3);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "multicast not taken");
	for (i = 1; i < 3; i++) {
		TEST_ASSERT_EQUAL(rn_rx(i, 0, rx, 2, 200), 1, "port %u multicast count", i);
		TEST_ASSERT(rn_frame_check(rx[0], 1514, 3), "multicast corrupted at %u", i);
		rte_pktmbuf_free(rx[0]);
	}
	/* Each sent frame was freed exactly once. */
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_small), avail,
			  "mbuf leak or double free");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_multicast_copies"), 6, "copies");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "tx_packets"), 3, "per-peer tx");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 2, "tx_packets"), 3, "per-peer tx");
	TEST_ASSERT_EQUAL(rn_peer_xstat(1, 0, "rx_packets"), 2, "per-peer rx");
	return TEST_SUCCESS;
}

static int
test_rionet_mtu(void)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[1];
	uint16_t mtu;

	TEST_ASSERT_SUCCESS(rn_start_pair(1500, rn_pool_big), "pair");
	TEST_ASSERT(rte_eth_dev_set_mtu(env.port[0], 67) < 0, "MTU 67 accepted");
	TEST_ASSERT(rte_eth_dev_set_mtu(env.port[0], 4083) < 0, "MTU 4083 accepted");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(env.port[0], 68), "MTU 68");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_mtu(env.port[0], &mtu), "get mtu");
	TEST_ASSERT_EQUAL(mtu, 68, "mtu");
	rionet_mac_from_destid(1, &dst);
	m = rn_frame(rn_pool_big, &dst, 0, 83, 1);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 50), 0, "frame above MTU 68 sent");
	m = rn_frame(rn_pool_big, &dst, 0, 82, 1);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 500), 1, "frame at MTU 68 lost");
	rte_pktmbuf_free(rx[0]);
	/* The receiver refuses frames above its own MTU too. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(env.port[0], 4082), "MTU 4082");
	m = rn_frame(rn_pool_big, &dst, 0, 2000, 1);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 50), 0, "receiver accepted frame above its MTU");
	TEST_ASSERT_EQUAL(rn_xstat(1, "rx_q0_oversize"), 1, "rx oversize count");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_oversize"), 1, "tx oversize count");
	return TEST_SUCCESS;
}

/*
 * Unicast to device ID 0xffff (no such peer on an 8-bit fabric), alone and
 * first in a burst with a frame to a real peer: dropped and counted, never
 * sent to another device (the Tx fast path once sent it to device ID 0).
 * The sender is promiscuous so that a frame looped back to it would show.
 */
static int
test_rionet_unknown_destid(void)
{
	struct rte_ether_addr dst, none = {{ 0x00, 0x01, 0x00, 0x01, 0xff, 0xff }};
	struct rte_mbuf *pkts[2], *rx[4];

	TEST_ASSERT_SUCCESS(rn_start_pair(1500, rn_pool_big), "pair");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(env.port[0]), "promiscuous");
	rionet_mac_from_destid(1, &dst);
	pkts[0] = rn_frame(rn_pool_big, &none, 0, 60, 1);
	TEST_ASSERT_NOT_NULL(pkts[0], "alloc");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(env.port[0], 0, pkts, 1), 1, "consumed");
	pkts[0] = rn_frame(rn_pool_big, &none, 0, 60, 2);
	pkts[1] = rn_frame(rn_pool_big, &dst, 0, 61, 3);
	TEST_ASSERT(pkts[0] != NULL && pkts[1] != NULL, "alloc");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(env.port[0], 0, pkts, 2), 2, "burst consumed");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 4, 200), 1, "only the frame to port 1 arrives");
	TEST_ASSERT(rn_frame_check(rx[0], 61, 3), "frame to port 1");
	rte_pktmbuf_free(rx[0]);
	TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 4, 50), 0, "a frame came back to the sender");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_unknown_destination"), 2, "unknown destination");
	return TEST_SUCCESS;
}

/* Mbufs of the small pool that are out of it (posted or held). */
static unsigned int
rn_small_in_use(void)
{
	return RN_NB_MBUF - rte_mempool_avail_count(rn_pool_small);
}

/* Messages port i's mailbox dropped as longer than its receive buffers. */
static int64_t
rn_too_long(unsigned int i)
{
	unsigned int id;
	uint64_t v;
	int dev_id = rte_rawdev_get_dev_id(env.vdev[i]);

	if (dev_id < 0)
		return -1;
	v = rte_rawdev_xstats_by_name_get(dev_id, "msg_rx_too_long", &id);
	return id == (unsigned int)-1 ? -1 : (int64_t)v;
}

/*
 * Receive mode: with 2048-byte mbufs and MTU 1500 the mbufs themselves are
 * posted (direct); the mailbox drops what does not fit them; an MTU that no
 * longer fits is refused while started and switches to bounce buffers after
 * a restart.
 */
static int
test_rionet_rx_mode(void)
{
	struct rte_eth_rxq_info qinfo;
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[2];
	unsigned int before;
	uint16_t mtu;

	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, RIONET_MAX_MTU, rn_pool_big), "start 0");
	before = rn_small_in_use();
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_small), "start 1");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link 0");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link 1");
	TEST_ASSERT(rn_small_in_use() - before >= RN_DESC,
		    "direct mode: %u mbufs posted, expected %u", rn_small_in_use() - before,
		    RN_DESC);
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(env.port[1], 0, &qinfo), "rxq info");
	TEST_ASSERT_EQUAL(qinfo.rx_buf_size, 2048, "receive buffer size");

	rionet_mac_from_destid(1, &dst);
	/* Fits the mbuf but not the MTU: rionet drops it. */
	m = rn_frame(rn_pool_big, &dst, 0, 2000, 1);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 50), 0, "frame above MTU 1500 received");
	TEST_ASSERT_EQUAL(rn_xstat(1, "rx_q0_oversize"), 1, "rx oversize count");
	/* Longer than the mbuf: the mailbox drops it, nothing is written past the mbuf. */
	m = rn_frame(rn_pool_big, &dst, 0, 3000, 2);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	m = rn_frame(rn_pool_big, &dst, 0, 1514, 3);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 2, 500), 1, "only the 1514-byte frame arrives");
	TEST_ASSERT(rn_frame_check(rx[0], 1514, 3), "1514-byte frame corrupted");
	TEST_ASSERT_EQUAL(rx[0]->nb_segs, 1, "segments");
	rte_pktmbuf_free(rx[0]);
	TEST_ASSERT_EQUAL(rn_too_long(1), 1, "dropped by the mailbox, counted");

	/* MTU 3000 does not fit the posted mbufs: refused while started. */
	TEST_ASSERT(rte_eth_dev_set_mtu(env.port[1], 3000) < 0, "MTU 3000 accepted");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_mtu(env.port[1], &mtu), "get mtu");
	TEST_ASSERT_EQUAL(mtu, 1500, "MTU changed by a refused set");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(env.port[1], 2000), "MTU 2000 fits");

	/* Stopped: accepted; the restarted queue uses bounce buffers and chains. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[1]), "stop 1");
	TEST_ASSERT_EQUAL(rn_small_in_use(), before, "posted mbufs not returned");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(env.port[1], 3000), "MTU 3000 when stopped");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(env.port[1]), "restart 1");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link 0 after restart");
	TEST_ASSERT(rn_small_in_use() - before < RN_DESC, "bounce mode posts no mbufs");
	m = rn_frame(rn_pool_big, &dst, 0, 3014, 4);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "taken");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "3014-byte frame lost");
	TEST_ASSERT(rn_frame_check(rx[0], 3014, 4), "3014-byte frame corrupted");
	TEST_ASSERT_EQUAL(rx[0]->nb_segs, 2, "chained into two 2048-byte mbufs");
	rte_pktmbuf_free(rx[0]);
	TEST_ASSERT_EQUAL(rn_too_long(1), 1, "nothing more dropped by the mailbox");
	return TEST_SUCCESS;
}

static int
test_rionet_stats(void)
{
	struct rte_ether_addr dst, other;
	struct rte_mbuf *pkts[RN_BURST], *rx[RN_BURST];
	struct rte_eth_stats st;
	uint16_t n, got = 0, k;
	unsigned int ms;

	TEST_ASSERT_SUCCESS(rn_start_pair(1500, rn_pool_big), "pair");
	rionet_mac_from_destid(1, &dst);
	for (k = 0; k < RN_BURST; k++)
		pkts[k] = rn_frame(rn_pool_big, &dst, 0, 100 + k, k);
	n = rte_eth_tx_burst(env.port[0], 0, pkts, RN_BURST);
	TEST_ASSERT_EQUAL(n, RN_BURST, "burst");
	for (ms = 0; ms < 1000 && got < RN_BURST; ms++) {
		n = rte_eth_rx_burst(env.port[1], 0, rx + got, RN_BURST - got);
		got += n;
		rte_delay_ms(1);
	}
	TEST_ASSERT_EQUAL(got, RN_BURST, "received");
	for (k = 0; k < RN_BURST; k++) {
		TEST_ASSERT(rn_frame_check(rx[k], 100 + k, k), "frame %u out of order", k);
		rte_pktmbuf_free(rx[k]);
	}
	/* Unknown destinations: another MAC, and a rionet MAC nobody runs. */
	memset(&other, 0x02, sizeof(other));
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, rn_frame(rn_pool_big, &other, 0, 64, 0)), 1, "tx");
	rionet_mac_from_destid(3, &other);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, rn_frame(rn_pool_big, &other, 0, 64, 0)), 1, "tx");

	TEST_ASSERT_SUCCESS(rte_eth_stats_get(env.port[0], &st), "stats");
	TEST_ASSERT_EQUAL(st.opackets, RN_BURST, "opackets");
	TEST_ASSERT_EQUAL(st.obytes, RN_BURST * 100 + RN_BURST * (RN_BURST - 1) / 2, "obytes");
	TEST_ASSERT_EQUAL(st.q_opackets[0], RN_BURST, "q_opackets");
	TEST_ASSERT_EQUAL(st.oerrors, 2, "oerrors");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_unknown_destination"), 2, "unknown dst");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "tx_packets"), RN_BURST, "peer tx");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "tx_bytes"), (int64_t)st.obytes, "peer bytes");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_packets"), RN_BURST, "autofilled tx_q0_packets");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(env.port[1], &st), "stats");
	TEST_ASSERT_EQUAL(st.ipackets, RN_BURST, "ipackets");
	TEST_ASSERT_EQUAL(st.q_ipackets[0], RN_BURST, "q_ipackets");
	TEST_ASSERT_EQUAL(rn_peer_xstat(1, 0, "rx_packets"), RN_BURST, "peer rx");
	TEST_ASSERT(rn_xstat(1, "doorbells_rx") >= 1, "doorbells_rx");

	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(env.port[0]), "reset");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(env.port[0], &st), "stats");
	TEST_ASSERT(st.opackets == 0 && st.oerrors == 0 && st.obytes == 0, "not reset");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "tx_packets"), 0, "peer xstat not reset");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_unknown_destination"), 0, "xstat not reset");
	return TEST_SUCCESS;
}

/* A peer that stops is dropped (counted); it rejoins on restart. */
static int
test_rionet_peer_restart(void)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *rx[1];

	TEST_ASSERT_SUCCESS(rn_start_pair(1500, rn_pool_big), "pair");
	rionet_mac_from_destid(1, &dst);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[1]), "stop 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 0), "peer not removed");
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, rn_frame(rn_pool_big, &dst, 0, 64, 0)), 1, "tx");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_unknown_destination"), 1, "drop not counted");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(env.port[1]), "restart 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peer did not rejoin");
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, rn_frame(rn_pool_big, &dst, 0, 64, 7)), 1, "tx");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "no traffic after rejoin");
	TEST_ASSERT(rn_frame_check(rx[0], 64, 7), "corrupted");
	rte_pktmbuf_free(rx[0]);
	return TEST_SUCCESS;
}

/* Flows spread over 4 mailboxes by hash, each flow in order on one queue. */
static int
test_rionet_multiqueue(void)
{
	enum { NB_FLOWS = 16, PER_FLOW = 20 };
	struct rte_ether_addr dst, src;
	struct rte_mbuf *pkts[NB_FLOWS], *rx[RN_BURST];
	uint32_t next[NB_FLOWS] = { 0 };
	int qof[NB_FLOWS];
	unsigned int used = 0, ms, total = 0, q, k, f, r;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint8_t *p;
	uint16_t n;

	for (f = 0; f < NB_FLOWS; f++)
		qof[f] = -1;
	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	/* Sender: one Tx queue owning 4 mailboxes; receiver: 4 Rx queues. */
	TEST_ASSERT_SUCCESS(rn_port_start(0, 4, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 4, 4, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peers");
	rionet_mac_from_destid(1, &dst);
	rionet_mac_from_destid(0, &src);
	for (r = 0; r < PER_FLOW; r++) {
		for (f = 0; f < NB_FLOWS; f++) {
			struct rte_mbuf *m = rte_pktmbuf_alloc(rn_pool_big);
			struct rte_ether_hdr *eth;

			TEST_ASSERT_NOT_NULL(m, "alloc");
			p = (uint8_t *)rte_pktmbuf_append(m, 64);
			memset(p, 0, 64);
			eth = (struct rte_ether_hdr *)p;
			eth->dst_addr = dst;
			eth->src_addr = src;
			eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
			ip = (struct rte_ipv4_hdr *)(eth + 1);
			ip->version_ihl = RTE_IPV4_VHL_DEF;
			ip->next_proto_id = IPPROTO_UDP;
			ip->src_addr = rte_cpu_to_be_32(0x0a000001);
			ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
			udp = (struct rte_udp_hdr *)(ip + 1);
			udp->src_port = rte_cpu_to_be_16(1000 + f);
			udp->dst_port = rte_cpu_to_be_16(2000);
			memcpy(udp + 1, &r, sizeof(r));
			pkts[f] = m;
		}
		k = 0;
		for (ms = 0; k < NB_FLOWS && ms < 1000; ms++)
			k += rte_eth_tx_burst(env.port[0], 0, pkts + k, NB_FLOWS - k);
		TEST_ASSERT_EQUAL(k, NB_FLOWS, "burst");
	}
	for (ms = 0; ms < 2000 && total < NB_FLOWS * PER_FLOW; ms++) {
		for (q = 0; q < 4; q++) {
			n = rte_eth_rx_burst(env.port[1], q, rx, RN_BURST);
			for (k = 0; k < n; k++) {
				p = rte_pktmbuf_mtod(rx[k], uint8_t *);
				udp = (struct rte_udp_hdr *)(p + 14 + 20);
				f = rte_be_to_cpu_16(udp->src_port) - 1000;
				memcpy(&r, udp + 1, sizeof(r));
				TEST_ASSERT(f < NB_FLOWS, "bad flow");
				if (qof[f] < 0) {
					qof[f] = q;
					used |= 1u << q;
				}
				TEST_ASSERT_EQUAL(qof[f], (int)q, "flow %u changed queue", f);
				TEST_ASSERT_EQUAL(r, next[f], "flow %u out of order", f);
				next[f]++;
				rte_pktmbuf_free(rx[k]);
			}
			total += n;
		}
		rte_delay_ms(1);
	}
	TEST_ASSERT_EQUAL(total, NB_FLOWS * PER_FLOW, "frames lost");
	TEST_ASSERT(__builtin_popcount(used) > 1, "all flows on one queue (mask 0x%x)", used);
	return TEST_SUCCESS;
}

/*
 * Wire format against a plain mport: ep2 has no rionet port (closed), and
 * talks the Linux rionet protocol by hand with lib/rio: JOIN doorbell, raw
 * Ethernet frames as mailbox 0 messages.
 */
static volatile int rn_raw_join;
static volatile int rn_raw_leave;

static void
rn_raw_dbell(struct rte_rio_mport *mport, void *arg, const struct rte_rio_dbell *db)
{
	RTE_SET_USED(mport);
	RTE_SET_USED(arg);
	if (db->info == RIONET_DBELL_JOIN && db->src == 0)
		rn_raw_join++;
	if (db->info == RIONET_DBELL_LEAVE && db->src == 0)
		rn_raw_leave++;
}

static int
test_rionet_wire_format(void)
{
	uint8_t frame[1520], *bufs, *p;
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[1];
	struct rte_rio_mport *raw;
	struct rte_rio_msg msg;
	unsigned int ms, k;
	int ret;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(env.port[2]), "close rionet of ep2");
	env.has_port[2] = false;
	raw = env.mp[2];
	bufs = calloc(8, RTE_RIO_MAX_MSG_SIZE);
	TEST_ASSERT_NOT_NULL(bufs, "alloc");
	ret = rte_rio_request_inb_dbell(raw, RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE,
					rn_raw_dbell, NULL);
	TEST_ASSERT_SUCCESS(ret, "raw doorbells");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(raw, 0, 8), "raw inbound mailbox");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(raw, 0, 8), "raw outbound mailbox");
	for (k = 0; k < 8; k++)
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(raw, 0, bufs + k * 4096), "post");

	/* A Linux rionet peer joins: JOIN to destid 0, rionet answers JOIN. */
	rn_raw_join = 0;
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(raw, 0, RIONET_DBELL_JOIN), "JOIN");
	for (ms = 0; ms < RN_WAIT_MS && rn_raw_join == 0; ms++) {
		rte_rio_dbell_poll(raw, 16);
		rte_delay_ms(1);
	}
	TEST_ASSERT_EQUAL(rn_raw_join, 1, "rionet did not answer JOIN");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link with the raw peer");

	/*
	 * Frame built as Linux rionet does: Ethernet header, MACs
	 * 00:01:00:01:hi:lo. Linux's master port (Tsi721, and the shim mport of
	 * app/linux-ref) sends it as a message of whole double-words: 1514
	 * bytes go out as 1520, the last 6 padding, and rionet takes them all.
	 */
	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x00\x01\x00\x01\x00\x00", 6);
	memcpy(frame + 6, "\x00\x01\x00\x01\x00\x02", 6);
	frame[12] = 0x08;
	frame[13] = 0x00;
	for (k = 14; k < 1514; k++)
		frame[k] = (uint8_t)k;
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(raw, 0, 0, 0, frame, 1520), "raw send");
	TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 1, 1000), 1,
			  "rionet dropped a padded Linux frame of MTU + 14 bytes");
	TEST_ASSERT_EQUAL(rx[0]->pkt_len, 1520, "length");
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod(rx[0], void *), frame, 1520) == 0, "content");
	rte_pktmbuf_free(rx[0]);
	/* One double-word more is past MTU + 14 rounded up: oversize. */
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(raw, 0, 0, 0, bufs, 1528), "raw send");
	TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 1, 100), 0, "frame past the padded MTU accepted");
	TEST_ASSERT_EQUAL(rn_xstat(0, "rx_q0_oversize"), 1, "oversize count");

	/* A frame for another MAC: filtered unless promiscuous. */
	frame[5] = 0x07;
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(raw, 0, 0, 0, frame, 100), "raw send");
	TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 1, 100), 0, "frame for another MAC accepted");
	TEST_ASSERT_EQUAL(rn_xstat(0, "rx_q0_filtered"), 1, "filtered count");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(env.port[0]), "promiscuous");
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(raw, 0, 0, 0, frame, 100), "raw send");
	TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 1, 1000), 1, "promiscuous port dropped a frame");
	TEST_ASSERT_EQUAL(rx[0]->pkt_len, rn_wire_len(100), "length");
	rte_pktmbuf_free(rx[0]);
	/* Shorter than an Ethernet header: dropped and counted. */
	TEST_ASSERT_SUCCESS(rte_rio_add_outb_message(raw, 0, 0, 0, frame, 8), "raw send");
	TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 1, 100), 0, "runt accepted");
	TEST_ASSERT_EQUAL(rn_xstat(0, "rx_q0_runts"), 1, "runt count");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 2, "rx_packets"), 2, "per-peer rx");

	/* What rionet emits is the raw frame, as one message on mailbox 0. */
	rionet_mac_from_destid(2, &dst);
	m = rn_frame(rn_pool_big, &dst, 0, 333, 4);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "tx");
	memset(&msg, 0, sizeof(msg));
	for (ms = 0; ms < 1000; ms++) {
		if (rte_rio_recv_messages(raw, 0, &msg, 1) == 1)
			break;
		rte_delay_ms(1);
	}
	TEST_ASSERT_EQUAL(msg.len, rn_wire_len(333), "message length is not the frame length");
	TEST_ASSERT_EQUAL(msg.srcid, 0, "source");
	TEST_ASSERT_EQUAL(msg.mbox, 0, "mailbox");
	p = msg.buf;
	TEST_ASSERT(memcmp(p, "\x00\x01\x00\x01\x00\x02\x00\x01\x00\x01\x00\x00", 12) == 0,
		    "MAC addresses are not rionet's");
	TEST_ASSERT_EQUAL(p[12], 0x88, "ethertype");
	TEST_ASSERT_EQUAL(p[13], 0xb5, "ethertype");
	for (k = 18; k < 333; k++)
		TEST_ASSERT_EQUAL(p[k], (uint8_t)(4 * 7 + k), "payload byte %u", k);

	/* LEAVE on stop. */
	rn_raw_leave = 0;
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[0]), "stop");
	for (ms = 0; ms < RN_WAIT_MS && rn_raw_leave == 0; ms++) {
		rte_rio_dbell_poll(raw, 16);
		rte_delay_ms(1);
	}
	TEST_ASSERT_EQUAL(rn_raw_leave, 1, "no LEAVE on stop");
	rte_rio_release_inb_dbell(raw, RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE);
	rte_rio_release_inb_mbox(raw, 0);
	rte_rio_release_outb_mbox(raw, 0);
	free(bufs);
	return TEST_SUCCESS;
}

/* Run @prog with argv, its output to @log and its input from /dev/null; @return pid or -errno. */
static pid_t
rn_spawn(const char *prog, char *const argv[], const char *log)
{
	pid_t pid;
	int fd;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0)
		return pid;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	execv(prog, argv);
	_exit(127);
}

/*
 * Wire format against Linux itself: the reference node of app/linux-ref
 * (Linux's rionet, built unmodified) on ep1, its master port the shim's
 * (rio_sim) or Linux's own tsi721 driver on the model of the part. Linux
 * rionet sends test frames of several lengths to our port, which must get
 * each whole, its length padded to double-words as the master port sends it;
 * then our port sends the same lengths to Linux, which must get each intact
 * (it checks them and answers each one, padded the same way).
 */
static const unsigned int rn_lx_sizes[] = { 60, 61, 67, 333, 1514 };
#define RN_LX_FRAMES	2
#define RN_LX_WAIT_MS	40000
#define RN_LX_NB	10	/* RTE_DIM(rn_lx_sizes) * RN_LX_FRAMES */
#define RN_LX_OURS	2	/* our port: ep2, destid 2; Linux on ep1 */

#ifdef RIO_LINUX_REF

/* Does file @path contain @needle? */
static bool
rn_file_has(const char *path, const char *needle)
{
	char *buf = NULL;
	size_t len = 0;
	bool found;
	FILE *fp;

	/*
	 * The whole file: a Linux node's report of a 16-bit fabric lists
	 * every device with its routes, hundreds of KiB before the counters.
	 */
	fp = fopen(path, "r");
	if (fp == NULL)
		return false;
	if (getdelim(&buf, &len, '\0', fp) < 0) {
		free(buf);
		fclose(fp);
		return false;
	}
	fclose(fp);
	found = strstr(buf, needle) != NULL;
	free(buf);
	return found;
}

static int
rn_wait_file(const char *path, const char *needle, pid_t pid, unsigned int wait_ms)
{
	unsigned int ms;

	for (ms = 0; ms < wait_ms; ms += 10) {
		if (needle != NULL ? rn_file_has(path, needle) : access(path, F_OK) == 0)
			return 0;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return -ECHILD;
		rte_delay_us_sleep(10000);
	}
	return -ETIMEDOUT;
}

/* Receive @n test frames of @kind on our port, each checked; count them by length. */
static int
rn_lx_recv(enum lr_kind kind, unsigned int n, unsigned int *by_size)
{
	const struct rte_ether_addr lx = {{ 0x00, 0x01, 0x00, 0x01, 0x00, 0x01 }};
	struct rte_mbuf *m;
	struct lr_hdr h;
	unsigned int got, k;

	for (got = 0; got < n; got++) {
		if (rn_rx(RN_LX_OURS, 0, &m, 1, 10000) != 1)
			break;
		TEST_ASSERT_EQUAL(m->nb_segs, 1, "one segment");
		TEST_ASSERT_SUCCESS(lr_frame_parse(rte_pktmbuf_mtod(m, uint8_t *), m->pkt_len, &h),
				    "frame %u of %u bytes: not a whole test frame", got, m->pkt_len);
		TEST_ASSERT_EQUAL(h.kind, kind, "kind");
		TEST_ASSERT(rte_is_same_ether_addr(&rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->src_addr,
						   &lx), "source MAC is not Linux rionet's");
		TEST_ASSERT_EQUAL(m->pkt_len, RTE_ALIGN_CEIL((uint32_t)h.len, 8u),
				  "a frame of %u bytes arrived as %u: not padded as the master port "
				  "pads it", h.len, m->pkt_len);
		for (k = 0; k < RTE_DIM(rn_lx_sizes) && rn_lx_sizes[k] != h.len; k++)
			;
		TEST_ASSERT(k < RTE_DIM(rn_lx_sizes), "length %u was never sent", h.len);
		by_size[k]++;
		rte_pktmbuf_free(m);
	}
	TEST_ASSERT_EQUAL(got, n, "received %u of %u frames", got, n);
	for (k = 0; k < RTE_DIM(rn_lx_sizes); k++)
		TEST_ASSERT_EQUAL(by_size[k], RN_LX_FRAMES, "%u frames of %u bytes", by_size[k],
				  rn_lx_sizes[k]);
	return TEST_SUCCESS;
}

static int
rn_linux_wire(bool tsi721)
{
	char drivers[PATH_MAX], self[PATH_MAX], sim[160], t7[160], pfx[64], sizes[64];
	char log[80], ready[80], done[80], json[80];
	const struct rte_ether_addr lx = {{ 0x00, 0x01, 0x00, 0x01, 0x00, 0x01 }};
	struct rte_ether_addr me;
	unsigned int by_size[RTE_DIM(rn_lx_sizes)] = { 0 };
	unsigned int k, f, n = 0;
	uint8_t frame[RIONET_MAX_FRAME];
	struct rte_mbuf *m;
	pid_t pid;
	int ret;
	char *argv[40];

	memset(&env, 0, sizeof(env));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rnlx", env.fabric, sizeof(env.fabric) - 1), "name");
	strcat(env.fabric, tsi721 ? "t" : "s");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(rn_topo_write(), "cannot write topology");
	strlcpy(self, rio_test_self(), sizeof(self));
	snprintf(drivers, sizeof(drivers), "%s/../../drivers/librte_raw_rio_sim.so", dirname(self));
	snprintf(sim, sizeof(sim), "rio_sim0,fabric=%s,topology=%s,endpoint=ep1,scan=0", env.fabric,
		 env.topo);
	snprintf(t7, sizeof(t7), "fabric=%s,topology=%s,endpoint=ep1", env.fabric, env.topo);
	snprintf(pfx, sizeof(pfx), "--file-prefix=%sl", env.fabric);
	for (k = 0, f = 0; k < RTE_DIM(rn_lx_sizes); k++)
		f += snprintf(sizes + f, sizeof(sizes) - f, "%s%u", k ? "," : "", rn_lx_sizes[k]);
	snprintf(log, sizeof(log), "/tmp/%s.log", env.fabric);
	snprintf(ready, sizeof(ready), "/tmp/%s.ready", env.fabric);
	snprintf(done, sizeof(done), "/tmp/%s.done", env.fabric);
	snprintf(json, sizeof(json), "/tmp/%s.json", env.fabric);
	n = 0;
	argv[n++] = (char *)RIO_LINUX_REF;
	argv[n++] = (char *)"--no-huge";
	argv[n++] = (char *)"-m";
	argv[n++] = (char *)"160";
	argv[n++] = (char *)"--no-pci";
	argv[n++] = pfx;
	argv[n++] = (char *)"-d";
	argv[n++] = drivers;
	if (!tsi721) {
		argv[n++] = (char *)"--vdev";
		argv[n++] = sim;
	}
	argv[n++] = (char *)"--";
	if (tsi721) {
		argv[n++] = (char *)"--tsi721";
		argv[n++] = t7;
	}
	argv[n++] = (char *)"--loglevel";
	argv[n++] = (char *)"6";
	argv[n++] = (char *)"--rionet";
	argv[n++] = (char *)"--echo";
	argv[n++] = (char *)"--send";
	argv[n++] = (char *)"00:01:00:01:00:0" RTE_STR(RN_LX_OURS);
	argv[n++] = (char *)"--sizes";
	argv[n++] = sizes;
	argv[n++] = (char *)"--frames";
	argv[n++] = (char *)RTE_STR(RN_LX_FRAMES);
	argv[n++] = (char *)"--reply-wait";
	argv[n++] = (char *)"0";
	argv[n++] = (char *)"--ready";
	argv[n++] = ready;
	argv[n++] = (char *)"--done";
	argv[n++] = done;
	argv[n++] = (char *)"--json";
	argv[n++] = json;
	argv[n++] = (char *)"--timeout";
	argv[n++] = (char *)"90";
	argv[n] = NULL;

	/* Linux first: its tsi721 probe clears the port's Discovered bit, as at power-on. */
	pid = rn_spawn(argv[0], argv, log);
	TEST_ASSERT(pid > 0, "cannot start %s", argv[0]);
	/*
	 * Our host (ep0) enumerates; our port under test is an agent's (ep2),
	 * as the host is not what Linux's discovery is tested on here.
	 */
	ret = rn_wait_file(log, "discover master port", pid, RN_LX_WAIT_MS);
	if (ret == 0)
		ret = rn_ep_create(0);
	if (ret == 0)
		ret = rn_ep_create(RN_LX_OURS);
	if (ret == 0)
		ret = rn_port_start(RN_LX_OURS, 1, 1, 1500, rn_pool_big);
	if (ret == 0)
		ret = rn_wait_file(ready, NULL, pid, RN_LX_WAIT_MS);
	if (ret == 0)
		ret = rn_link_wait(RN_LX_OURS, 1);
	if (ret != 0) {
		printf("  Linux node (%s) or our port not up: %s; see %s\n", tsi721 ?
		       "tsi721" : "shim", strerror(-ret), log);
		rio_test_wait(pid, 0);
		return TEST_FAILED;
	}
	/* Linux -> ours. */
	kill(pid, SIGUSR1);
	ret = rn_lx_recv(LR_REQ, RTE_DIM(rn_lx_sizes) * RN_LX_FRAMES, by_size);
	/* Ours -> Linux: it answers each frame it got whole. */
	rionet_mac_from_destid(RN_LX_OURS, &me);
	for (k = 0; ret == TEST_SUCCESS && k < RTE_DIM(rn_lx_sizes); k++) {
		for (f = 0; f < RN_LX_FRAMES; f++) {
			lr_frame_build(frame, lx.addr_bytes, me.addr_bytes, LR_REQ, k * 16 + f,
				       rn_lx_sizes[k]);
			m = rte_pktmbuf_alloc(rn_pool_big);
			TEST_ASSERT_NOT_NULL(m, "mbuf");
			memcpy(rte_pktmbuf_append(m, rn_lx_sizes[k]), frame, rn_lx_sizes[k]);
			TEST_ASSERT_EQUAL(rn_tx1(RN_LX_OURS, 0, m), 1, "tx");
		}
	}
	memset(by_size, 0, sizeof(by_size));
	if (ret == TEST_SUCCESS)
		ret = rn_lx_recv(LR_REP, RTE_DIM(rn_lx_sizes) * RN_LX_FRAMES, by_size);
	kill(pid, SIGTERM);
	TEST_ASSERT_EQUAL(rio_test_wait(pid, 20000), 0, "Linux node exit status; see %s", log);
	rio_test_runtime_dir_cleanup(pfx + strlen("--file-prefix="));
	if (ret != TEST_SUCCESS) {
		printf("  see %s\n", log);
		return ret;
	}
	/* What Linux received: every frame from our port, none corrupted. */
	TEST_ASSERT(rn_file_has(json, "\"requests_rx\": {\"" RTE_STR(RN_LX_OURS) "\": "
				RTE_STR(RN_LX_NB) "}"),
		    "Linux's count of our frames; see %s", json);
	TEST_ASSERT(rn_file_has(json, "\"bad\": 0,"), "Linux got corrupted frames; see %s", json);
	TEST_ASSERT(rn_file_has(json, "\"warnings\": 0,"), "Linux WARN()ed; see %s", json);
	TEST_ASSERT(!tsi721 || rn_file_has(json, "\"model_errors\": 0,"),
		    "the model refused requests of Linux's tsi721 driver; see %s", json);
	unlink(log);
	unlink(ready);
	unlink(done);
	unlink(json);
	return TEST_SUCCESS;
}

#endif /* RIO_LINUX_REF */

static int
rn_linux_wire_run(bool tsi721)
{
	int ret;

#ifdef RIO_LINUX_REF
	if (access(RIO_LINUX_REF, X_OK) != 0) {
		printf("  SKIP: %s is not built\n", RIO_LINUX_REF);
		return TEST_SKIPPED;
	}
	if (tsi721 && rn_devid_size != 8) {
		printf("  SKIP: Linux's tsi721 driver runs 8-bit device IDs only (sys_size = 0)\n");
		return TEST_SKIPPED;
	}
	ret = rn_linux_wire(tsi721);
#else
	RTE_SET_USED(tsi721);
	printf("  SKIP: the Linux reference node is not built: configure with -Dlinux_src "
	       "(devtools/get-linux-rapidio.sh fetches Debian's linux-source-6.1; "
	       "devtools/test.sh does both)\n");
	ret = TEST_SKIPPED;
#endif
	if (rn_env_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

static int
test_rionet_linux_wire_format_run(void)
{
	return rn_linux_wire_run(false);
}

static int
test_rionet_linux_tsi721_wire_format_run(void)
{
	return rn_linux_wire_run(true);
}

/* Back-pressure: a full inbound ring makes tx_burst return fewer. */
static int
test_rionet_backpressure(void)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *pkts[RN_BURST], *rx[RN_BURST];
	struct rte_eth_stats st;
	uint64_t sent = 0, recvd = 0;
	unsigned int round, k;
	uint16_t n;
	bool short_burst = false;

	TEST_ASSERT_SUCCESS(rn_start_pair(1500, rn_pool_big), "pair");
	rionet_mac_from_destid(1, &dst);
	/* The fabric ring has 512 slots, the receiver posts 256 buffers. */
	for (round = 0; round < 40 && !short_burst; round++) {
		for (k = 0; k < RN_BURST; k++)
			pkts[k] = rn_frame(rn_pool_big, &dst, 0, 64, (uint32_t)(sent + k));
		n = rte_eth_tx_burst(env.port[0], 0, pkts, RN_BURST);
		sent += n;
		if (n < RN_BURST) {
			short_burst = true;
			rte_pktmbuf_free_bulk(pkts + n, RN_BURST - n);
		}
	}
	TEST_ASSERT(short_burst, "a full ring never pushed back");
	TEST_ASSERT(rn_xstat(0, "tx_q0_ring_full") >= 1, "ring_full not counted");
	do {
		n = rn_rx(1, 0, rx, RN_BURST, 100);
		for (k = 0; k < n; k++) {
			TEST_ASSERT(rn_frame_check(rx[k], 64, (uint32_t)(recvd + k)),
				    "frame %" PRIu64 " lost or reordered", recvd + k);
		}
		rte_pktmbuf_free_bulk(rx, n);
		recvd += n;
	} while (n > 0);
	TEST_ASSERT_EQUAL(recvd, sent, "accepted frames were lost");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(env.port[0], &st), "stats");
	TEST_ASSERT_EQUAL(st.opackets, sent, "opackets");
	TEST_ASSERT_EQUAL(st.oerrors, 0, "back-pressure counted as error");
	return TEST_SUCCESS;
}


/*
 * Broadcast with one peer's ring full: the copy for that peer is dropped and
 * counted, the frame still reaches the other peer and is freed once.
 */
static int
test_rionet_bcast_ring_full(void)
{
	struct rte_mbuf *pkts[RN_BURST], *rx[RN_BURST];
	struct rte_ether_addr bcast;
	uint64_t sent = 0, got1 = 0, got2 = 0;
	unsigned int round, k, avail, i;
	int64_t full2, tx2;
	uint16_t n;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_port_start(i, 1, 1, 1500, rn_pool_big), "start %u", i);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_active_wait(i, 2), "port %u peers", i);
	memset(&bcast, 0xff, sizeof(bcast));
	avail = rte_mempool_avail_count(rn_pool_small);
	/* Port 1 drains as it goes, port 2 never polls: its 512-slot ring fills. */
	for (round = 0; round < 30; round++) {
		for (k = 0; k < RN_BURST; k++)
			pkts[k] = rn_frame(rn_pool_small, &bcast, 0, 64, (uint32_t)(sent + k));
		n = rte_eth_tx_burst(env.port[0], 0, pkts, RN_BURST);
		sent += n;
		rte_pktmbuf_free_bulk(pkts + n, RN_BURST - n);
		do {
			n = rte_eth_rx_burst(env.port[1], 0, rx, RN_BURST);
			for (k = 0; k < n; k++)
				TEST_ASSERT(rn_frame_check(rx[k], 64, (uint32_t)(got1 + k)),
					    "port 1 lost or reordered frame %" PRIu64, got1 + k);
			rte_pktmbuf_free_bulk(rx, n);
			got1 += n;
		} while (n > 0);
	}
	if (rn_tsi721) {
		/*
		 * The part's outbound engine is one queue per mailbox: the copy
		 * for port 2 at its head waits (RETRY), port 1's copies wait
		 * behind it, and back-pressure reaches the sender. Nothing
		 * accepted is lost: once port 2 drains, every copy arrives.
		 */
		TEST_ASSERT(sent < 30 * RN_BURST, "no head-of-line back-pressure");
		for (round = 0; round < 200 && (got1 < sent || got2 < sent); round++) {
			n = rn_rx(2, 0, rx, RN_BURST, 1);
			rte_pktmbuf_free_bulk(rx, n);
			got2 += n;
			n = rn_rx(1, 0, rx, RN_BURST, 1);
			for (k = 0; k < n; k++)
				TEST_ASSERT(rn_frame_check(rx[k], 64, (uint32_t)(got1 + k)),
					    "port 1 lost or reordered frame %" PRIu64, got1 + k);
			rte_pktmbuf_free_bulk(rx, n);
			got1 += n;
		}
		TEST_ASSERT_EQUAL(got1, sent, "port 1 missed broadcasts");
		TEST_ASSERT_EQUAL(got2 + rn_peer_xstat(0, 2, "tx_ring_full"), sent,
				  "copies to port 2 unaccounted");
		TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_small), avail,
				  "mbuf leak or double free");
		return TEST_SUCCESS;
	}
	/*
	 * rio_sim: port 2 answers RETRY to its copies. The sender's mailbox
	 * waits for each such response before it sends on, so the sender may
	 * meet back-pressure too; it loses nothing it accepted.
	 */
	TEST_ASSERT(sent > 0, "nothing accepted although port 1 drains");
	for (round = 0; round < 200 && got1 < sent; round++) {
		n = rn_rx(1, 0, rx, RN_BURST, 5);
		for (k = 0; k < n; k++)
			TEST_ASSERT(rn_frame_check(rx[k], 64, (uint32_t)(got1 + k)),
				    "port 1 lost or reordered frame %" PRIu64, got1 + k);
		rte_pktmbuf_free_bulk(rx, n);
		got1 += n;
	}
	TEST_ASSERT_EQUAL(got1, sent, "port 1 missed broadcasts");
	full2 = rn_peer_xstat(0, 2, "tx_ring_full");
	tx2 = rn_peer_xstat(0, 2, "tx_packets");
	TEST_ASSERT(full2 > 0, "port 2's full ring not counted");
	TEST_ASSERT_EQUAL(tx2 + full2, (int64_t)sent, "copies to port 2 unaccounted");
	do {
		n = rn_rx(2, 0, rx, RN_BURST, 50);
		rte_pktmbuf_free_bulk(rx, n);
		got2 += n;
	} while (n > 0);
	TEST_ASSERT_EQUAL((int64_t)got2, tx2, "port 2 got other than what was accepted for it");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_small), avail,
			  "mbuf leak or double free");
	return TEST_SUCCESS;
}

/* Removing a running mport tears its port down; the others see it leave. */
static int
test_rionet_unplug(void)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	uint16_t pid;
	unsigned int i;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_port_start(i, 1, 1, 1500, rn_pool_big), "start %u", i);
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(rn_active_wait(i, 2), "port %u peers", i);
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(env.vdev[2]), "uninit ep2 with a started port");
	env.created[2] = false;
	env.has_port[2] = false;
	snprintf(name, sizeof(name), "rionet_%s", env.vdev[2]);
	TEST_ASSERT(rte_eth_dev_get_port_by_name(name, &pid) != 0, "port of ep2 survived");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "port 0 still sees ep2");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 1), "port 1 still sees ep2");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link 0");
	return TEST_SUCCESS;
}

/* Reset brings the port back to its probed state; it can be used again. */
static int
test_rionet_reset(void)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *rx[1];
	uint16_t mtu;

	TEST_ASSERT_SUCCESS(rn_start_pair(1500, rn_pool_big), "pair");
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(env.port[0], 3000), "mtu");
	TEST_ASSERT_SUCCESS(rte_eth_dev_reset(env.port[0]), "reset");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 0), "link up after reset");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 0), "peer kept us active after reset");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_mtu(env.port[0], &mtu), "mtu");
	TEST_ASSERT_EQUAL(mtu, 1500, "MTU not reset");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_small), "restart");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link after reset");
	rionet_mac_from_destid(1, &dst);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, rn_frame(rn_pool_big, &dst, 0, 200, 8)), 1, "tx");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "no traffic after reset");
	TEST_ASSERT(rn_frame_check(rx[0], 200, 8), "corrupted");
	rte_pktmbuf_free(rx[0]);
	return TEST_SUCCESS;
}

/* Detach rionet from ep<i>'s endpoint, then probe it again with devargs. */
static int
rn_reprobe(unsigned int i, const char *args)
{
	char dev[RTE_DEV_NAME_MAX_LEN], name[RTE_DEV_NAME_MAX_LEN + 64];
	struct rte_eth_dev_info info;
	int ret;

	/* Endpoint names are "<mport>-e<destid in hex>"; ep<i> has destid i. */
	snprintf(dev, sizeof(dev), "%s-e%04x", env.vdev[i], i);
	if (env.has_port[i] && rte_eth_dev_info_get(env.port[i], &info) == 0) {
		ret = rte_dev_remove(info.device);
		if (ret < 0)
			return ret;
	}
	env.has_port[i] = false;
	snprintf(name, sizeof(name), "rio:%s%s%s", dev, args[0] != '\0' ? "," : "", args);
	ret = rte_dev_probe(name);
	if (ret < 0)
		return ret;
	return rn_find_port(i);
}

/* mbox= moves the queues to other mailboxes (both ends must agree). */
static int
test_rionet_devargs(void)
{
	struct rte_eth_dev_info info;
	struct rte_ether_addr dst;
	struct rte_mbuf *rx[1];

	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	TEST_ASSERT(rn_reprobe(1, "mbox=4") < 0, "mbox=4 accepted");
	TEST_ASSERT_SUCCESS(rn_reprobe(1, "mbox=1"), "re-probe with mbox=1");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(env.port[1], &info), "info");
	TEST_ASSERT_EQUAL(info.max_rx_queues, 3, "queues with mbox=1");
	TEST_ASSERT_SUCCESS(rn_reprobe(0, "mbox=1"), "re-probe port 0");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peers");
	rionet_mac_from_destid(1, &dst);
	TEST_ASSERT_EQUAL(rn_tx1(0, 0, rn_frame(rn_pool_big, &dst, 0, 100, 3)), 1, "tx");
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 1000), 1, "nothing on mailbox 1");
	TEST_ASSERT(rn_frame_check(rx[0], 100, 3), "corrupted");
	rte_pktmbuf_free(rx[0]);
	return TEST_SUCCESS;
}

/* rx_zero_copy: frames longer than this are attached in place, shorter ones copied. */
#define RN_ZC_COPY_MAX	256
/* What rio_sim receives in place (inb_inplace_max): MTU 1522 at most. */
#define RN_ZC_MAX_FRAME	1536
/* Inbound ring slots per mailbox (mbox_entries of the topology). */
#define RN_RING_SLOTS	512
/* Frames looped in test_rionet_rx_zero_copy(): three times the ring. */
#define RN_ZC_LOOP	(3 * RN_RING_SLOTS)

/* true if [p, p + len) lies in this process's mapping of the case's fabric's shared memory. */
static bool
rn_in_fabric_shm(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;
	char name[80], line[512];
	unsigned long lo, hi;
	bool in = false;
	FILE *fp;

	snprintf(name, sizeof(name), "/%s.", env.shm_prefix);
	fp = fopen("/proc/self/maps", "r");
	if (fp == NULL)
		return false;
	while (!in && fgets(line, sizeof(line), fp) != NULL)
		in = strstr(line, name) != NULL && sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
			a >= lo && a + len <= hi;
	fclose(fp);
	return in;
}

/* rio_sim extended statistic @name of ep<i>'s mport, or -1. */
static int64_t
rn_sim_xstat(unsigned int i, const char *name)
{
	unsigned int id;
	uint64_t v;
	int dev_id = rte_rawdev_get_dev_id(env.vdev[i]);

	if (dev_id < 0)
		return -1;
	v = rte_rawdev_xstats_by_name_get(dev_id, name, &id);
	return id == (unsigned int)-1 ? -1 : (int64_t)v;
}

/* Length of frame seq in the loop of test_rionet_rx_zero_copy(): both kinds mixed. */
static uint32_t
rn_zc_len(uint32_t seq)
{
	return seq % 4 == 3 ? 100 : 1000 + seq % 500;
}

/*
 * Port 1 sends back to port 0 every frame it receives: its Rx queue takes
 * them in place, its Tx queue has fast free. RN_ZC_LOOP frames go round,
 * in order and intact: a held slot never given back (an external mbuf put
 * straight back to its pool by fast free) would fill port 1's ring.
 */
static int
rn_zc_loop(void)
{
	struct rte_mbuf *pkts[RN_BURST], *rx[RN_BURST];
	struct rte_ether_addr tmp, dst;
	struct rte_ether_hdr *eth;
	uint32_t sent = 0, got = 0, ext = 0, bad = UINT32_MAX;
	uint64_t hz = rte_get_timer_hz(), last = rte_get_timer_cycles();
	int64_t rx_bad = rn_sim_xstat(1, "msg_rx_bad");
	uint16_t burst, n, done, k, tries;

	TEST_ASSERT(rx_bad >= 0, "no msg_rx_bad statistic");
	rionet_mac_from_destid(1, &dst);
	while (got < RN_ZC_LOOP && bad == UINT32_MAX && rte_get_timer_cycles() - last < 2 * hz) {
		if (sent < RN_ZC_LOOP) {
			burst = RTE_MIN((uint32_t)RN_BURST, RN_ZC_LOOP - sent);
			for (k = 0; k < burst; k++) {
				pkts[k] = rn_frame(rn_pool_big, &dst, 0, rn_zc_len(sent + k),
						   sent + k);
				TEST_ASSERT_NOT_NULL(pkts[k], "alloc");
			}
			n = rte_eth_tx_burst(env.port[0], 0, pkts, burst);
			rte_pktmbuf_free_bulk(pkts + n, burst - n);
			sent += n;
		}
		n = rte_eth_rx_burst(env.port[1], 0, rx, RN_BURST);
		for (k = 0; k < n; k++) {
			ext += (rx[k]->ol_flags & RTE_MBUF_F_EXTERNAL) != 0;
			eth = rte_pktmbuf_mtod(rx[k], struct rte_ether_hdr *);
			tmp = eth->dst_addr;
			eth->dst_addr = eth->src_addr;
			eth->src_addr = tmp;
		}
		for (done = 0, tries = 0; done < n && tries < 1000; tries++)
			done += rte_eth_tx_burst(env.port[1], 0, rx + done, n - done);
		rte_pktmbuf_free_bulk(rx + done, n - done);
		TEST_ASSERT_EQUAL(done, n, "port 1 could not send back");
		do {
			n = rte_eth_rx_burst(env.port[0], 0, rx, RN_BURST);
			for (k = 0; k < n && bad == UINT32_MAX; k++)
				if (!rn_frame_check(rx[k], rn_zc_len(got + k), got + k))
					bad = got + k;
			rte_pktmbuf_free_bulk(rx, n);
			got += n;
			if (n > 0)
				last = rte_get_timer_cycles();
		} while (n > 0);
	}
	TEST_ASSERT_EQUAL(bad, UINT32_MAX, "frame %u lost, reordered or corrupted", bad);
	TEST_ASSERT_EQUAL(got, RN_ZC_LOOP, "traffic stopped after %u of %u frames (%u sent)",
			  got, RN_ZC_LOOP, sent);
	TEST_ASSERT_EQUAL(ext, RN_ZC_LOOP - RN_ZC_LOOP / 4, "frames received in place");
	/* A slot still held when the ring came round must not be skipped either. */
	TEST_ASSERT_EQUAL(rn_sim_xstat(1, "msg_rx_bad"), rx_bad, "port 1's mailbox skipped slots");
	return TEST_SUCCESS;
}

/*
 * Port 1's ring takes RN_RING_SLOTS frames again, none more: every slot of
 * the frames it received in place went back. They arrive intact.
 */
static int
rn_zc_refill(void)
{
	struct rte_mbuf *pkts[RN_BURST];
	struct rte_ether_addr dst;
	uint32_t sent = 0, got = 0, bad = UINT32_MAX;
	uint16_t n, k;

	rionet_mac_from_destid(1, &dst);
	/* A poll of port 1 gives back the slots of what was freed since its last one. */
	n = rte_eth_rx_burst(env.port[1], 0, pkts, RN_BURST);
	rte_pktmbuf_free_bulk(pkts, n);
	TEST_ASSERT_EQUAL(n, 0, "frame left in port 1's ring");
	do {
		for (k = 0; k < RN_BURST; k++) {
			pkts[k] = rn_frame(rn_pool_big, &dst, 0, 1000, sent + k);
			TEST_ASSERT_NOT_NULL(pkts[k], "alloc");
		}
		n = rte_eth_tx_burst(env.port[0], 0, pkts, RN_BURST);
		rte_pktmbuf_free_bulk(pkts + n, RN_BURST - n);
		sent += n;
	} while (n == RN_BURST && sent <= RN_RING_SLOTS);
	do {
		n = rn_rx(1, 0, pkts, RN_BURST, 100);
		for (k = 0; k < n && bad == UINT32_MAX; k++)
			if (!rn_frame_check(pkts[k], 1000, got + k))
				bad = got + k;
		rte_pktmbuf_free_bulk(pkts, n);
		got += n;
	} while (n > 0);
	/* Through a tsi721, what does not fit waits in the part and arrives later. */
	if (rn_tsi721)
		TEST_ASSERT(sent >= RN_RING_SLOTS, "port 1's ring took %u frames", sent);
	else
		TEST_ASSERT_EQUAL(sent, RN_RING_SLOTS, "port 1's ring took %u frames", sent);
	TEST_ASSERT_EQUAL(bad, UINT32_MAX, "frame %u lost, reordered or corrupted", bad);
	TEST_ASSERT_EQUAL(got, sent, "frames lost");
	return TEST_SUCCESS;
}

/*
 * rx_zero_copy=1: frames longer than 256 bytes arrive as external buffers
 * in the fabric's memory, shorter ones copied; the MTU must fit what the
 * mport receives in place; the frames go back to the mailbox when freed,
 * also from a Tx queue with fast free. The devarg takes 0 or 1.
 */
static int
test_rionet_rx_zero_copy(void)
{
	static const uint32_t sizes[] = { 60, 64, RN_ZC_COPY_MAX, RN_ZC_COPY_MAX + 1, 1000,
					  1514, RN_ZC_MAX_FRAME };
	const uint64_t ff = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	unsigned int avail_small, avail_big, k;
	struct rte_mbuf *m, *held[RTE_DIM(sizes)];
	struct rte_ether_addr dst;
	uint64_t offl;
	uint16_t mtu;
	bool ext;
	int ret;

	avail_small = rte_mempool_avail_count(rn_pool_small);
	avail_big = rte_mempool_avail_count(rn_pool_big);
	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	ret = rn_reprobe(1, "rx_zero_copy=2");
	TEST_ASSERT(ret < 0, "rx_zero_copy=2 accepted");
	ret = rn_reprobe(1, "rx_zero_copy=yes");
	TEST_ASSERT(ret < 0, "rx_zero_copy=yes accepted");
	TEST_ASSERT_SUCCESS(rn_reprobe(1, "rx_zero_copy=1"), "re-probe with rx_zero_copy=1");

	/* MTU + 14 must fit in place (1536 bytes): refused at start, not at configure. */
	ret = rn_port_start_offloads(1, 1, 1, 2000, rn_pool_small, 0, ff);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "start with MTU 2000");
	ret = rn_port_start_offloads(1, 1, 1, RN_ZC_MAX_FRAME - RTE_ETHER_HDR_LEN + 1,
				     rn_pool_small, 0, ff);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "start with MTU 1523");
	TEST_ASSERT_SUCCESS(rn_port_start_offloads(1, 1, 1, 1500, rn_pool_small, 0, ff),
			    "start with MTU 1500");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[1]), "stop 1");
	TEST_ASSERT_SUCCESS(rn_port_start_offloads(1, 1, 1, RN_ZC_MAX_FRAME - RTE_ETHER_HDR_LEN,
						   rn_pool_small, 0, ff), "start with MTU 1522");
	TEST_ASSERT_SUCCESS(rn_txq_offloads(1, 0, &offl), "txq info");
	TEST_ASSERT_EQUAL(offl & ff, ff, "port 1 queue 0 without fast free");
	/* Started: an MTU that does not fit is refused and changes nothing. */
	TEST_ASSERT(rte_eth_dev_set_mtu(env.port[1], 2000) < 0, "MTU 2000 accepted");
	TEST_ASSERT(rte_eth_dev_set_mtu(env.port[1], RN_ZC_MAX_FRAME - RTE_ETHER_HDR_LEN + 1) < 0,
		    "MTU 1523 accepted");
	TEST_ASSERT_SUCCESS(rte_eth_dev_get_mtu(env.port[1], &mtu), "get mtu");
	TEST_ASSERT_EQUAL(mtu, RN_ZC_MAX_FRAME - RTE_ETHER_HDR_LEN, "MTU changed by a refused set");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, RN_ZC_MAX_FRAME - RTE_ETHER_HDR_LEN,
					  rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link 0");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peers");

	/* Each size, all held at once: in place above 256 bytes, copied up to it. */
	rionet_mac_from_destid(1, &dst);
	for (k = 0; k < RTE_DIM(sizes); k++) {
		m = rn_frame(rn_pool_big, &dst, 0, sizes[k], k);
		TEST_ASSERT_NOT_NULL(m, "alloc");
		TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "frame of %u bytes not taken", sizes[k]);
		if (rn_rx(1, 0, &held[k], 1, 1000) != 1) {
			rte_pktmbuf_free_bulk(held, k);
			TEST_ASSERT(false, "frame of %u bytes lost", sizes[k]);
		}
	}
	ret = TEST_SUCCESS;
	for (k = 0; k < RTE_DIM(sizes) && ret == TEST_SUCCESS; k++) {
		m = held[k];
		ext = (m->ol_flags & RTE_MBUF_F_EXTERNAL) != 0;
		if (!rn_frame_check(m, sizes[k], k) || m->nb_segs != 1 ||
		    m->port != env.port[1]) {
			printf("  bad frame of %u bytes: length %u, %u segments, port %u\n",
			       sizes[k], m->pkt_len, m->nb_segs, m->port);
			ret = TEST_FAILED;
		} else if (ext != (sizes[k] > RN_ZC_COPY_MAX) ||
			   rn_in_fabric_shm(rte_pktmbuf_mtod(m, void *), sizes[k]) != ext) {
			printf("  frame of %u bytes: external %d, in the fabric's memory %d\n",
			       sizes[k], ext, rn_in_fabric_shm(rte_pktmbuf_mtod(m, void *),
							       sizes[k]));
			ret = TEST_FAILED;
		}
	}
	rte_pktmbuf_free_bulk(held, RTE_DIM(sizes));
	TEST_ASSERT_SUCCESS(ret, "frames received with rx_zero_copy=1");

	if (rn_zc_loop() != TEST_SUCCESS || rn_zc_refill() != TEST_SUCCESS)
		return TEST_FAILED;

	/* Every mbuf back in its pool once the ports have stopped. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[1]), "stop 1");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[0]), "stop 0");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_small), avail_small,
			  "mbufs of port 1 not back in their pool");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(rn_pool_big), avail_big,
			  "mbufs of port 0 not back in their pool");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */

static int
rn_run(int (*fn)(void))
{
	int ret = fn();

	if (rn_env_teardown() != 0)
		return TEST_FAILED;
	return ret;
}

#define RN_CASE(fn) \
	static int fn ## _run(void) { return rn_run(fn); }
RN_CASE(test_rionet_probe_info)
RN_CASE(test_rionet_handshake_two)
RN_CASE(test_rionet_handshake_three)
RN_CASE(test_rionet_unicast_direct)
RN_CASE(test_rionet_unicast_bounce)
RN_CASE(test_rionet_multiseg_tx)
RN_CASE(test_rionet_tx_fast_free)
RN_CASE(test_rionet_rx_zero_copy)
RN_CASE(test_rionet_bcast_mcast)
RN_CASE(test_rionet_mtu)
RN_CASE(test_rionet_rx_mode)
RN_CASE(test_rionet_unknown_destid)
RN_CASE(test_rionet_stats)
RN_CASE(test_rionet_peer_restart)
RN_CASE(test_rionet_multiqueue)
RN_CASE(test_rionet_wire_format)
RN_CASE(test_rionet_backpressure)
RN_CASE(test_rionet_devargs)
RN_CASE(test_rionet_reset)
RN_CASE(test_rionet_unplug)
RN_CASE(test_rionet_bcast_ring_full)

static int
rn_suite_setup(void)
{
	rn_pool_big = rte_pktmbuf_pool_create("rn_big", RN_NB_MBUF, 0, 0,
					      RTE_PKTMBUF_HEADROOM + RIONET_MAX_FRAME,
					      SOCKET_ID_ANY);
	rn_pool_small = rte_pktmbuf_pool_create("rn_small", RN_NB_MBUF, 0, 0,
						RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (rn_pool_big == NULL || rn_pool_small == NULL) {
		printf("cannot create mbuf pools\n");
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static void
rn_suite_teardown(void)
{
	rte_mempool_free(rn_pool_big);
	rte_mempool_free(rn_pool_small);
	rn_pool_big = rn_pool_small = NULL;
}

static struct unit_test_suite rionet_suite = {
	.suite_name = "rionet autotest",
	.setup = rn_suite_setup,
	.teardown = rn_suite_teardown,
	.unit_test_cases = {
		TEST_CASE_NAMED("probe_info", test_rionet_probe_info_run),
		TEST_CASE_NAMED("handshake_two", test_rionet_handshake_two_run),
		TEST_CASE_NAMED("handshake_three", test_rionet_handshake_three_run),
		TEST_CASE_NAMED("unicast_direct", test_rionet_unicast_direct_run),
		TEST_CASE_NAMED("unicast_bounce", test_rionet_unicast_bounce_run),
		TEST_CASE_NAMED("multiseg_tx", test_rionet_multiseg_tx_run),
		TEST_CASE_NAMED("tx_fast_free", test_rionet_tx_fast_free_run),
		TEST_CASE_NAMED("rx_zero_copy", test_rionet_rx_zero_copy_run),
		TEST_CASE_NAMED("bcast_mcast", test_rionet_bcast_mcast_run),
		TEST_CASE_NAMED("mtu", test_rionet_mtu_run),
		TEST_CASE_NAMED("rx_mode", test_rionet_rx_mode_run),
		TEST_CASE_NAMED("unknown_destid", test_rionet_unknown_destid_run),
		TEST_CASE_NAMED("stats", test_rionet_stats_run),
		TEST_CASE_NAMED("peer_restart", test_rionet_peer_restart_run),
		TEST_CASE_NAMED("multiqueue", test_rionet_multiqueue_run),
		TEST_CASE_NAMED("wire_format", test_rionet_wire_format_run),
		TEST_CASE_NAMED("linux_wire_format", test_rionet_linux_wire_format_run),
		TEST_CASE_NAMED("linux_tsi721_wire_format", test_rionet_linux_tsi721_wire_format_run),
		TEST_CASE_NAMED("backpressure", test_rionet_backpressure_run),
		TEST_CASE_NAMED("devargs", test_rionet_devargs_run),
		TEST_CASE_NAMED("reset", test_rionet_reset_run),
		TEST_CASE_NAMED("unplug", test_rionet_unplug_run),
		TEST_CASE_NAMED("bcast_ring_full", test_rionet_bcast_ring_full_run),
		TEST_CASES_END()
	},
};

static int
test_rionet(void)
{
	int ret;

	rn_devid_size = 8;
	rionet_suite.suite_name = "rionet autotest, 8-bit device IDs";
	ret = unit_test_suite_runner(&rionet_suite);
	rn_devid_size = 16;
	rionet_suite.suite_name = "rionet autotest, 16-bit device IDs";
	if (unit_test_suite_runner(&rionet_suite) != TEST_SUCCESS)
		ret = TEST_FAILED;
	rn_devid_size = 8;
	return ret;
}

REGISTER_TEST_COMMAND(rionet_autotest, test_rionet);

static int
test_rionet_tsi721(void)
{
	int ret;

	rn_tsi721 = true;
	rn_devid_size = 8;
	rionet_suite.suite_name = "rionet over tsi721 autotest, 8-bit device IDs";
	ret = unit_test_suite_runner(&rionet_suite);
	rn_devid_size = 16;
	rionet_suite.suite_name = "rionet over tsi721 autotest, 16-bit device IDs";
	if (unit_test_suite_runner(&rionet_suite) != TEST_SUCCESS)
		ret = TEST_FAILED;
	rn_devid_size = 8;
	rn_tsi721 = false;
	return ret;
}

REGISTER_TEST_COMMAND(rionet_tsi721_autotest, test_rionet_tsi721);

/* ------------------------------------------------------------------ */
/* Two processes, stock dpdk-testpmd: txonly -> rxonly                */

#define RN_TESTPMD	"/usr/bin/dpdk-testpmd"

/* The testpmd to run: $RIO_TESTPMD (e.g. devtools/asan-testpmd.sh) or the stock one. */
static const char *
rn_testpmd_path(void)
{
	const char *p = getenv("RIO_TESTPMD");

	return p != NULL && p[0] != '\0' ? p : RN_TESTPMD;
}

/* Start testpmd with argv, output to path; @return pid or -errno. */
static pid_t
rn_testpmd_start(char *const argv[], const char *path)
{
	return rn_spawn(rn_testpmd_path(), argv, path);
}

/* Stop testpmd with SIGINT (it prints its totals); @return exit status or -1. */
static int
rn_testpmd_stop(pid_t pid)
{
	unsigned int ms;
	int status;

	kill(pid, SIGINT);
	for (ms = 0; ms < 20000; ms += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* "<what>: N" after the "Forward statistics for port <port>" header, or -1. */
static int64_t
rn_testpmd_count(const char *path, unsigned int port, const char *what)
{
	char line[512], hdr[64], *p;
	bool in = false;
	int64_t v = -1;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL)
		return -1;
	snprintf(hdr, sizeof(hdr), "Forward statistics for port %u ", port);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strstr(line, hdr) != NULL)
			in = true;
		p = strstr(line, what);
		if (in && p != NULL) {
			v = strtoll(p + strlen(what), NULL, 10);
			break;
		}
	}
	fclose(fp);
	return v;
}

static int
test_rionet_testpmd_2proc(void)
{
	char fabric[32], vdev_a[96], vdev_b[96], pfx_a[48], pfx_b[48], prefix[64];
	char drivers[PATH_MAX], self[PATH_MAX], log_a[64], log_b[64];
	pid_t a, b;
	int64_t rx, tx;
	int ret_a, ret_b;
	char *argv_a[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"256",
		(char *)"--no-pci", pfx_a, (char *)"--lcores=0@1,1@0", (char *)"-d", drivers,
		(char *)"--vdev", vdev_a, (char *)"--", (char *)"--total-num-mbufs=8192",
		(char *)"--forward-mode=rxonly", (char *)"--stats-period=1", NULL
	};
	char *argv_b[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"256",
		(char *)"--no-pci", pfx_b, (char *)"--lcores=0@0,1@1", (char *)"-d", drivers,
		(char *)"--vdev", vdev_b, (char *)"--", (char *)"--total-num-mbufs=8192",
		(char *)"--forward-mode=txonly", (char *)"--eth-peer=0,00:01:00:01:00:00",
		(char *)"--stats-period=1", NULL
	};

	if (access(rn_testpmd_path(), X_OK) != 0) {
		printf("  %s not installed\n", rn_testpmd_path());
		return TEST_SKIPPED;
	}
	/* Plugins: <build>/drivers, next to <build>/app/test/dpdk-rio-test. */
	TEST_ASSERT_NOT_NULL(rio_test_self(), "own path");
	strlcpy(self, rio_test_self(), sizeof(self));
	snprintf(drivers, sizeof(drivers), "%s/../../drivers", dirname(self));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rntp", fabric, sizeof(fabric) - 1), "name");
	strcat(fabric, "x");
	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	snprintf(vdev_a, sizeof(vdev_a), "rio_sim0,fabric=%s,endpoint=ep0", fabric);
	snprintf(vdev_b, sizeof(vdev_b), "rio_sim0,fabric=%s,endpoint=ep1", fabric);
	snprintf(pfx_a, sizeof(pfx_a), "--file-prefix=%sa", fabric);
	snprintf(pfx_b, sizeof(pfx_b), "--file-prefix=%sb", fabric);
	snprintf(log_a, sizeof(log_a), "/tmp/%s_rx.log", fabric);
	snprintf(log_b, sizeof(log_b), "/tmp/%s_tx.log", fabric);

	a = rn_testpmd_start(argv_a, log_a);
	TEST_ASSERT(a > 0, "cannot start the receiver");
	sleep(3);
	b = rn_testpmd_start(argv_b, log_b);
	if (b < 0) {
		rn_testpmd_stop(a);
		TEST_ASSERT(false, "cannot start the sender");
	}
	sleep(4);
	ret_b = rn_testpmd_stop(b);
	/* Let the receiver drain what the sender left in its ring. */
	sleep(1);
	ret_a = rn_testpmd_stop(a);
	rx = rn_testpmd_count(log_a, 0, "RX-packets:");
	tx = rn_testpmd_count(log_b, 0, "TX-packets:");
	printf("  testpmd txonly sent %" PRId64 ", rxonly received %" PRId64 "\n", tx, rx);
	if (ret_a != 0 || ret_b != 0 || rx <= 0 || rx != tx) {
		printf("  see %s and %s\n", log_a, log_b);
		rio_test_shm_cleanup(prefix);
		TEST_ASSERT_EQUAL(ret_a, 0, "receiver exit status");
		TEST_ASSERT_EQUAL(ret_b, 0, "sender exit status");
		TEST_ASSERT(rx > 0, "nothing received");
		TEST_ASSERT_EQUAL(rx, tx, "received != accepted for transmission");
	}
	unlink(log_a);
	unlink(log_b);
	TEST_ASSERT_EQUAL(rio_test_shm_count(prefix), 0, "shared memory left behind");
	return TEST_SUCCESS;
}

REGISTER_TEST_COMMAND(rionet_testpmd_autotest, test_rionet_testpmd_2proc);

/*
 * One stock dpdk-testpmd, io forwarding between a rionet port over the
 * tsi721 model (ep0, the host) and one over rio_sim (ep1) on the same
 * fabric: frames go both ways through the part's engines.
 */
static int
test_rionet_tsi721_testpmd(void)
{
	char fabric[32], vdev_a[96], vdev_b[96], pfx[48], prefix[64];
	char drivers[PATH_MAX], self[PATH_MAX], log[64];
	int64_t rx0, rx1, tx0, tx1;
	pid_t pid;
	int ret;
	char *argv[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"512",
		(char *)"--no-pci", pfx, (char *)"--lcores=0@0,1@1", (char *)"-d", drivers,
		(char *)"--vdev", vdev_a, (char *)"--vdev", vdev_b, (char *)"--",
		(char *)"--total-num-mbufs=16384",
		(char *)"--forward-mode=io", (char *)"--tx-first", (char *)"--stats-period=1",
		(char *)"--eth-peer=0,00:01:00:01:00:01", (char *)"--eth-peer=1,00:01:00:01:00:00",
		(char *)"-a", NULL
	};

	if (access(rn_testpmd_path(), X_OK) != 0) {
		printf("  %s not installed\n", rn_testpmd_path());
		return TEST_SKIPPED;
	}
	TEST_ASSERT_NOT_NULL(rio_test_self(), "own path");
	strlcpy(self, rio_test_self(), sizeof(self));
	snprintf(drivers, sizeof(drivers), "%s/../../drivers", dirname(self));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rntt", fabric, sizeof(fabric) - 1), "name");
	strcat(fabric, "x");
	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	snprintf(vdev_a, sizeof(vdev_a), "tsi721_model0,fabric=%s,endpoint=ep0,host=0", fabric);
	snprintf(vdev_b, sizeof(vdev_b), "rio_sim1,fabric=%s,endpoint=ep1", fabric);
	snprintf(pfx, sizeof(pfx), "--file-prefix=%s", fabric);
	snprintf(log, sizeof(log), "/tmp/%s_fwd.log", fabric);

	pid = rn_testpmd_start(argv, log);
	TEST_ASSERT(pid > 0, "cannot start testpmd");
	sleep(6);
	ret = rn_testpmd_stop(pid);
	rx0 = rn_testpmd_count(log, 0, "RX-packets:");
	tx0 = rn_testpmd_count(log, 0, "TX-packets:");
	rx1 = rn_testpmd_count(log, 1, "RX-packets:");
	tx1 = rn_testpmd_count(log, 1, "TX-packets:");
	printf("  tsi721 port: rx %" PRId64 " tx %" PRId64 "; rio_sim port: rx %" PRId64
	       " tx %" PRId64 "\n", rx0, tx0, rx1, tx1);
	if (ret != 0 || rx0 <= 0 || rx1 <= 0 || rx0 > tx1 || rx1 > tx0) {
		printf("  see %s\n", log);
		rio_test_shm_cleanup(prefix);
		TEST_ASSERT_EQUAL(ret, 0, "testpmd exit status");
		TEST_ASSERT(rx0 > 0 && rx1 > 0, "nothing forwarded");
		TEST_ASSERT(false, "a port received more than the other sent");
	}
	unlink(log);
	rio_test_runtime_dir_cleanup(fabric);
	TEST_ASSERT_EQUAL(rio_test_shm_count(prefix), 0, "shared memory left behind");
	return TEST_SUCCESS;
}

REGISTER_TEST_COMMAND(rionet_tsi721_testpmd_autotest, test_rionet_tsi721_testpmd);
