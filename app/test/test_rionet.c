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
#include <inttypes.h>
#include <limits.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#include <rte_bus.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rawdev.h>
#include <rte_udp.h>
#include <rte_version.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "bus_rio_driver.h"
#include "rte_pmd_rio_sim_fabric.h"
#include "rionet.h"
#include "../linux-ref/lr_frame.h"

#include "test.h"

#define RN_MAX_EP	4
#define RN_NB_MBUF	4096
#define RN_DESC		256
#define RN_WAIT_MS	3000
#define RN_BOND_FLOWS	16
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
	/* rn_reprobe() left devargs for the local endpoint of ep<i>, named so */
	char devargs[RN_MAX_EP][RTE_DEV_NAME_MAX_LEN];
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

/*
 * One switch and four endpoints, ep0 the host. A configured fabric has
 * static routes, preset device IDs and its ports enabled; otherwise the
 * switch is @sw_model and everything is as at reset, for a host to enumerate.
 */
static int
rn_topo_write(bool configured, const char *sw_model)
{
	FILE *fp;
	int fd, i;

	snprintf(env.topo, sizeof(env.topo), "/tmp/rionet_topo.XXXXXX");
	fd = mkstemp(env.topo);
	if (fd < 0)
		return -errno;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		return -EIO;
	}
	fprintf(fp, "[fabric]\ndevid_size = %u\nmbox_entries = 512\n%s", rn_devid_size,
		configured ? "static_routes = 1\n" : "");
	if (configured || strcmp(sw_model, "std") == 0)
		fprintf(fp, "[switch sw0]\nports = 8\n");
	else
		fprintf(fp, "[switch sw0]\nmodel = %s\n", sw_model);
	for (i = 0; i < 4; i++) {
		fprintf(fp, "[endpoint ep%d]\n%s", i, i == 0 ? "host = 1\n" : "");
		if (configured)
			fprintf(fp, "destid = %d\n", i);
	}
	fprintf(fp, "[links]\nsw0.0 = ep0.0\nsw0.1 = ep1.0\nsw0.2 = ep2.0\nsw0.3 = ep3.0\n");
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
	TEST_ASSERT_SUCCESS(rn_topo_write(true, NULL), "cannot write topology");
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
		/*
		 * EAL keeps devargs by device name, and the next test's mport
		 * of the same ID has the same local endpoint name.
		 */
		if (env.devargs[i][0] != '\0') {
			struct rte_devargs da = { .bus = rte_bus_find_by_name("rio") };

			snprintf(da.name, sizeof(da.name), "%s", env.devargs[i]);
			rte_devargs_remove(&da);
			env.devargs[i][0] = '\0';
		}
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
 * Configure and start ethdev port_id (a rionet port, or a PMD stacked on
 * rionet ports) with @conf, nb_rxq/nb_txq queues, Tx offloads q0_tx for its
 * Tx queue 0 alone, promiscuous mode off.
 */
static int
rn_ethdev_start(uint16_t port_id, const struct rte_eth_conf *conf, uint16_t nb_rxq,
		uint16_t nb_txq, struct rte_mempool *mp, uint64_t q0_tx)
{
	struct rte_eth_dev_info info;
	struct rte_eth_txconf txconf;
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(port_id, nb_rxq, nb_txq, conf);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_info_get(port_id, &info);
	if (ret < 0)
		return ret;
	for (q = 0; q < nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(port_id, q, RN_DESC, SOCKET_ID_ANY, NULL, mp);
		if (ret < 0)
			return ret;
	}
	for (q = 0; q < nb_txq; q++) {
		txconf = info.default_txconf;
		txconf.offloads = conf->txmode.offloads | (q == 0 ? q0_tx : 0);
		ret = rte_eth_tx_queue_setup(port_id, q, RN_DESC, SOCKET_ID_ANY, &txconf);
		if (ret < 0)
			return ret;
	}
	ret = rte_eth_promiscuous_disable(port_id);
	if (ret < 0)
		return ret;
	return rte_eth_dev_start(port_id);
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

	return rn_ethdev_start(env.port[i], &conf, nb_rxq, nb_txq, mp, q0_tx);
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

/* Receive up to n frames on ethdev port_id queue q within the wait time. */
static uint16_t
rn_ethdev_rx(uint16_t port_id, uint16_t q, struct rte_mbuf **pkts, uint16_t n,
	     unsigned int wait_ms)
{
	uint16_t got = 0;
	unsigned int ms = 0;

	while (got < n) {
		got += rte_eth_rx_burst(port_id, q, pkts + got, n - got);
		if (got == n || ms >= wait_ms)
			break;
		rte_delay_ms(1);
		ms++;
	}
	return got;
}

/* Receive up to n frames on port i queue q within the wait time. */
static uint16_t
rn_rx(unsigned int i, uint16_t q, struct rte_mbuf **pkts, uint16_t n, unsigned int wait_ms)
{
	return rn_ethdev_rx(env.port[i], q, pkts, n, wait_ms);
}

/* Send one frame on ethdev port_id; returns what tx_burst returned (1: consumed). */
static uint16_t
rn_ethdev_tx1(uint16_t port_id, uint16_t q, struct rte_mbuf *m)
{
	unsigned int tries;
	uint16_t n = 0;

	for (tries = 0; tries < 1000 && n == 0; tries++)
		n = rte_eth_tx_burst(port_id, q, &m, 1);
	if (n == 0)
		rte_pktmbuf_free(m);
	return n;
}

/* Send one frame on port i; returns what tx_burst returned (1: consumed). */
static uint16_t
rn_tx1(unsigned int i, uint16_t q, struct rte_mbuf *m)
{
	return rn_ethdev_tx1(env.port[i], q, m);
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
	struct rte_ether_addr mac, other, got;
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
		/* Another address is reported (net_bonding sets its own on members). */
		other = mac;
		other.addr_bytes[5] ^= 0x40;
		TEST_ASSERT_SUCCESS(rte_eth_dev_default_mac_addr_set(env.port[i], &other),
				    "another MAC address refused");
		TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(env.port[i], &got), "get MAC");
		TEST_ASSERT(rte_is_same_ether_addr(&got, &other), "address set not reported");
		TEST_ASSERT_SUCCESS(rte_eth_dev_default_mac_addr_set(env.port[i], &mac),
				    "own MAC address refused");
		TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(env.port[i], &link), "link");
		TEST_ASSERT_EQUAL(link.link_status, 0, "link up before start");
	}
	/* The local endpoint is bound, remote ones are left to other drivers. */
	{
		char name[RTE_RIO_NAME_MAX_LEN];
		struct rte_rio_mport_info minfo;
		struct rte_rio_device *d;

		TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(rte_rio_mport_find(env.vdev[0]),
							   &minfo), "mport info");
		snprintf(name, sizeof(name), RTE_RIO_DEV_NAME_LOCAL_FMT, minfo.id);
		d = rte_rio_device_find_by_name(name);
		TEST_ASSERT_NOT_NULL(d, "local endpoint %s not on the bus", name);
		TEST_ASSERT(d->driver != NULL && strcmp(d->driver->driver.name, "net_rionet") == 0,
			    "local endpoint not bound to rionet");
		rte_rio_device_put(d);
		snprintf(name, sizeof(name), RTE_RIO_DEV_NAME_ENDPOINT_FMT, minfo.id, 1);
		d = rte_rio_device_find_by_name(name);
		TEST_ASSERT_NOT_NULL(d, "remote endpoint %s not on the bus", name);
		TEST_ASSERT_NULL(d->driver, "rionet claimed a remote endpoint");
		rte_rio_device_put(d);
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
/*
 * A 64-byte UDP frame of flow @flow (source port 1000 + flow), @seq after
 * the UDP header: the flow hash tells flows apart, rn_flow_of() reads them.
 */
static struct rte_mbuf *
rn_flow_frame(const struct rte_ether_addr *dst, uint16_t src_destid, uint32_t flow,
	      uint32_t seq)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(rn_pool_big);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, 64);
	memset(p, 0, 64);
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = *dst;
	rionet_mac_from_destid(src_destid, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1000 + flow);
	udp->dst_port = rte_cpu_to_be_16(2000);
	memcpy(udp + 1, &seq, sizeof(seq));
	return m;
}

/* Flow and sequence number of an rn_flow_frame() at @p. */
static void
rn_flow_of(const uint8_t *p, uint32_t *flow, uint32_t *seq)
{
	const struct rte_udp_hdr *udp = (const void *)(p + sizeof(struct rte_ether_hdr) +
						       sizeof(struct rte_ipv4_hdr));

	*flow = rte_be_to_cpu_16(udp->src_port) - 1000;
	memcpy(seq, udp + 1, sizeof(*seq));
}

/* Flows of rn_flows(): at most this many. */
#define RN_MAX_FLOWS	16

/*
 * Send @per_flow rounds of flows 0..@nb_flows-1 from port 0's Tx queue 0
 * to port 1, and receive them on port 1's first @nb_rxq Rx queues: every
 * frame arrives once, each flow in order and on one queue. @used: bit q
 * for each Rx queue that got a flow.
 */
static int
rn_flows(unsigned int nb_flows, unsigned int per_flow, uint16_t nb_rxq, unsigned int *used)
{
	struct rte_mbuf *pkts[RN_MAX_FLOWS], *rx[RN_BURST];
	uint32_t next[RN_MAX_FLOWS] = { 0 }, f, r;
	unsigned int ms, total = 0, k;
	int qof[RN_MAX_FLOWS];
	struct rte_ether_addr dst;
	uint16_t n, q;

	TEST_ASSERT(nb_flows <= RN_MAX_FLOWS, "too many flows");
	for (f = 0; f < nb_flows; f++)
		qof[f] = -1;
	*used = 0;
	rionet_mac_from_destid(1, &dst);
	for (r = 0; r < per_flow; r++) {
		for (f = 0; f < nb_flows; f++) {
			pkts[f] = rn_flow_frame(&dst, 0, f, r);
			TEST_ASSERT_NOT_NULL(pkts[f], "alloc");
		}
		k = 0;
		for (ms = 0; k < nb_flows && ms < 1000; ms++)
			k += rte_eth_tx_burst(env.port[0], 0, pkts + k, nb_flows - k);
		TEST_ASSERT_EQUAL(k, nb_flows, "burst");
	}
	for (ms = 0; ms < 2000 && total < nb_flows * per_flow; ms++) {
		for (q = 0; q < nb_rxq; q++) {
			n = rte_eth_rx_burst(env.port[1], q, rx, RN_BURST);
			for (k = 0; k < n; k++) {
				rn_flow_of(rte_pktmbuf_mtod(rx[k], uint8_t *), &f, &r);
				TEST_ASSERT(f < nb_flows, "bad flow");
				if (qof[f] < 0) {
					qof[f] = q;
					*used |= 1u << q;
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
	TEST_ASSERT_EQUAL(total, nb_flows * per_flow, "frames lost");
	return TEST_SUCCESS;
}

static int
test_rionet_multiqueue(void)
{
	unsigned int used;

	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	/* Sender: one Tx queue owning 4 mailboxes; receiver: 4 Rx queues. */
	TEST_ASSERT_SUCCESS(rn_port_start(0, 4, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 4, 4, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peers");
	TEST_ASSERT_SUCCESS(rn_flows(16, 20, 4, &used), "flows");
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

/* Buffers the raw peer posts on its inbound mailbox 0. */
#define RN_RAW_BUFS	8

/*
 * ep2 becomes the raw peer (its rionet closed) and JOINs port 0, already
 * started, which answers: rionet's link with it is up. @bufs: its posted
 * buffers (free() them).
 */
static int
rn_raw_peer_join(struct rte_rio_mport **raw, uint8_t **bufs)
{
	unsigned int ms, k;
	int ret;

	TEST_ASSERT_SUCCESS(rte_eth_dev_close(env.port[2]), "close rionet of ep2");
	env.has_port[2] = false;
	*raw = env.mp[2];
	*bufs = calloc(RN_RAW_BUFS, RTE_RIO_MAX_MSG_SIZE);
	TEST_ASSERT_NOT_NULL(*bufs, "alloc");
	ret = rte_rio_request_inb_dbell(*raw, RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE,
					rn_raw_dbell, NULL);
	TEST_ASSERT_SUCCESS(ret, "raw doorbells");
	TEST_ASSERT_SUCCESS(rte_rio_request_inb_mbox(*raw, 0, RN_RAW_BUFS), "raw inbound mailbox");
	TEST_ASSERT_SUCCESS(rte_rio_request_outb_mbox(*raw, 0, 8), "raw outbound mailbox");
	for (k = 0; k < RN_RAW_BUFS; k++)
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(*raw, 0,
							 *bufs + k * RTE_RIO_MAX_MSG_SIZE),
				    "post");

	/* A Linux rionet peer joins: JOIN to destid 0, rionet answers JOIN. */
	rn_raw_join = 0;
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(*raw, 0, RIONET_DBELL_JOIN), "JOIN");
	for (ms = 0; ms < RN_WAIT_MS && rn_raw_join == 0; ms++) {
		rte_rio_dbell_poll(*raw, 16);
		rte_delay_ms(1);
	}
	TEST_ASSERT_EQUAL(rn_raw_join, 1, "rionet did not answer JOIN");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link with the raw peer");
	return TEST_SUCCESS;
}

static void
rn_raw_peer_release(struct rte_rio_mport *raw, uint8_t *bufs)
{
	rte_rio_release_inb_dbell(raw, RIONET_DBELL_JOIN, RIONET_DBELL_LEAVE);
	rte_rio_release_inb_mbox(raw, 0);
	rte_rio_release_outb_mbox(raw, 0);
	free(bufs);
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

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_raw_peer_join(&raw, &bufs), "raw peer");

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
	rn_raw_peer_release(raw, bufs);
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
#define RN_LX_OURS	2	/* our port: ep2, destid 2; Linux on ep1 */

#ifdef RIO_LINUX_REF
static const unsigned int rn_lx_sizes[] = { 60, 61, 67, 333, 1514 };
#define RN_LX_FRAMES	2
#define RN_LX_WAIT_MS	40000
#define RN_LX_NB	10	/* RTE_DIM(rn_lx_sizes) * RN_LX_FRAMES */

/*
 * Does file @path contain @needle? The whole file: a node's report on a
 * 16-bit fabric lists Linux's route tables, hundreds of KiB before the
 * traffic counters.
 */
static bool
rn_file_has(const char *path, const char *needle)
{
	bool found = false;
	char *buf = NULL;
	size_t n = 0;
	FILE *fp;

	/* Whole: a node's JSON lists 16-bit route tables, far beyond a fixed buffer. */
	fp = fopen(path, "r");
	if (fp == NULL)
		return false;
	if (getdelim(&buf, &n, '\0', fp) > 0)
		found = strstr(buf, needle) != NULL;
	free(buf);
	fclose(fp);
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

/* A Linux reference node: its command line and the files it reports in. */
struct rn_lx {
	char drivers[PATH_MAX], sim[160], t7[160], pfx[64];
	char log[80], ready[80], done[80], json[80];
	char *argv[48];
	unsigned int argc;
};

/*
 * Start the command line of a node on ep<ep> of env.fabric: EAL, then its
 * master port, the shim's on rio_sim or Linux's tsi721 driver on the model.
 * The caller adds the node's options with rn_lx_arg() and calls rn_lx_start().
 */
static void
rn_lx_begin(struct rn_lx *lx, bool tsi721, unsigned int ep)
{
	char self[PATH_MAX];
	unsigned int n = 0;

	memset(lx, 0, sizeof(*lx));
	strlcpy(self, rio_test_self(), sizeof(self));
	snprintf(lx->drivers, sizeof(lx->drivers), "%s/../../drivers/librte_raw_rio_sim.so",
		 dirname(self));
	snprintf(lx->sim, sizeof(lx->sim), "rio_sim0,fabric=%s,topology=%s,endpoint=ep%u,scan=0",
		 env.fabric, env.topo, ep);
	snprintf(lx->t7, sizeof(lx->t7), "fabric=%s,topology=%s,endpoint=ep%u", env.fabric,
		 env.topo, ep);
	snprintf(lx->pfx, sizeof(lx->pfx), "--file-prefix=%sl", env.fabric);
	snprintf(lx->log, sizeof(lx->log), "/tmp/%s.log", env.fabric);
	snprintf(lx->ready, sizeof(lx->ready), "/tmp/%s.ready", env.fabric);
	snprintf(lx->done, sizeof(lx->done), "/tmp/%s.done", env.fabric);
	snprintf(lx->json, sizeof(lx->json), "/tmp/%s.json", env.fabric);
	lx->argv[n++] = (char *)RIO_LINUX_REF;
	lx->argv[n++] = (char *)"--no-huge";
	lx->argv[n++] = (char *)"-m";
	lx->argv[n++] = (char *)"160";
	lx->argv[n++] = (char *)"--no-pci";
	lx->argv[n++] = lx->pfx;
	lx->argv[n++] = (char *)"-d";
	lx->argv[n++] = lx->drivers;
	if (!tsi721) {
		lx->argv[n++] = (char *)"--vdev";
		lx->argv[n++] = lx->sim;
	}
	lx->argv[n++] = (char *)"--";
	if (tsi721) {
		lx->argv[n++] = (char *)"--tsi721";
		lx->argv[n++] = lx->t7;
	}
	lx->argc = n;
}

static void
rn_lx_arg(struct rn_lx *lx, const char *arg)
{
	if (lx->argc < RTE_DIM(lx->argv) - 1)
		lx->argv[lx->argc++] = (char *)arg;
}

/* The report files and the deadline, then start the node; @return pid or -errno. */
static pid_t
rn_lx_start(struct rn_lx *lx)
{
	rn_lx_arg(lx, "--ready");
	rn_lx_arg(lx, lx->ready);
	rn_lx_arg(lx, "--done");
	rn_lx_arg(lx, lx->done);
	rn_lx_arg(lx, "--json");
	rn_lx_arg(lx, lx->json);
	rn_lx_arg(lx, "--timeout");
	rn_lx_arg(lx, "90");
	lx->argv[lx->argc] = NULL;
	return rn_spawn(lx->argv[0], lx->argv, lx->log);
}

/* Stop the node; @return its exit status, or -errno. */
static int
rn_lx_stop(struct rn_lx *lx, pid_t pid)
{
	int ret;

	kill(pid, SIGTERM);
	ret = rio_test_wait(pid, 20000);
	rio_test_runtime_dir_cleanup(lx->pfx + strlen("--file-prefix="));
	return ret;
}

static void
rn_lx_unlink(const struct rn_lx *lx)
{
	unlink(lx->log);
	unlink(lx->ready);
	unlink(lx->done);
	unlink(lx->json);
}

static int
rn_linux_wire(bool tsi721)
{
	char sizes[64];
	const struct rte_ether_addr lx = {{ 0x00, 0x01, 0x00, 0x01, 0x00, 0x01 }};
	struct rte_ether_addr me;
	unsigned int by_size[RTE_DIM(rn_lx_sizes)] = { 0 };
	unsigned int k, f;
	uint8_t frame[RIONET_MAX_FRAME];
	struct rn_lx node;
	struct rte_mbuf *m;
	pid_t pid;
	int ret;

	memset(&env, 0, sizeof(env));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rnlx", env.fabric, sizeof(env.fabric) - 1), "name");
	strcat(env.fabric, tsi721 ? "t" : "s");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_SUCCESS(rn_topo_write(true, NULL), "cannot write topology");
	for (k = 0, f = 0; k < RTE_DIM(rn_lx_sizes); k++)
		f += snprintf(sizes + f, sizeof(sizes) - f, "%s%u", k ? "," : "", rn_lx_sizes[k]);
	rn_lx_begin(&node, tsi721, 1);
	rn_lx_arg(&node, "--loglevel");
	rn_lx_arg(&node, "6");
	rn_lx_arg(&node, "--rionet");
	rn_lx_arg(&node, "--echo");
	rn_lx_arg(&node, "--send");
	rn_lx_arg(&node, "00:01:00:01:00:0" RTE_STR(RN_LX_OURS));
	rn_lx_arg(&node, "--sizes");
	rn_lx_arg(&node, sizes);
	rn_lx_arg(&node, "--frames");
	rn_lx_arg(&node, RTE_STR(RN_LX_FRAMES));
	rn_lx_arg(&node, "--reply-wait");
	rn_lx_arg(&node, "0");

	/* Linux first: its tsi721 probe clears the port's Discovered bit, as at power-on. */
	pid = rn_lx_start(&node);
	TEST_ASSERT(pid > 0, "cannot start %s", node.argv[0]);
	/*
	 * Our host (ep0) enumerates; our port under test is an agent's (ep2),
	 * as the host is not what Linux's discovery is tested on here.
	 */
	ret = rn_wait_file(node.log, "discover master port", pid, RN_LX_WAIT_MS);
	if (ret == 0)
		ret = rn_ep_create(0);
	if (ret == 0)
		ret = rn_ep_create(RN_LX_OURS);
	if (ret == 0)
		ret = rn_port_start(RN_LX_OURS, 1, 1, 1500, rn_pool_big);
	if (ret == 0)
		ret = rn_wait_file(node.ready, NULL, pid, RN_LX_WAIT_MS);
	if (ret == 0)
		ret = rn_link_wait(RN_LX_OURS, 1);
	if (ret != 0) {
		printf("  Linux node (%s) or our port not up: %s; see %s\n", tsi721 ?
		       "tsi721" : "shim", strerror(-ret), node.log);
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
	TEST_ASSERT_EQUAL(rn_lx_stop(&node, pid), 0, "Linux node exit status; see %s", node.log);
	if (ret != TEST_SUCCESS) {
		printf("  see %s\n", node.log);
		return ret;
	}
	/* What Linux received: every frame from our port, none corrupted. */
	TEST_ASSERT(rn_file_has(node.json, "\"requests_rx\": {\"" RTE_STR(RN_LX_OURS) "\": "
				RTE_STR(RN_LX_NB) "}"),
		    "Linux's count of our frames; see %s", node.json);
	TEST_ASSERT(rn_file_has(node.json, "\"bad\": 0,"), "Linux got corrupted frames; see %s",
		    node.json);
	TEST_ASSERT(rn_file_has(node.json, "\"warnings\": 0,"), "Linux WARN()ed; see %s",
		    node.json);
	TEST_ASSERT(!tsi721 || rn_file_has(node.json, "\"model_errors\": 0,"),
		    "the model refused requests of Linux's tsi721 driver; see %s", node.json);
	rn_lx_unlink(&node);
	return TEST_SUCCESS;
}

/*
 * Linux as the host of a fabric at reset, nothing of ours enumerating: its
 * enumeration must leave every port it found able to carry more than
 * maintenance (the output and input port enables reset clear on the std
 * switch and on endpoints of the specification; Linux sets them with
 * CONFIG_RAPIDIO_ENABLE_RX_TX_PORTS) and give every endpoint Master
 * Enable. Our mport on ep2, which scans nothing, then sends rionet's JOIN
 * doorbell to Linux's host, which must list ep2 as an active rionet peer.
 */
static int
rn_linux_host(bool tsi721)
{
	/*
	 * Not rxs2448 with 16-bit IDs: there Linux's enumeration fails before
	 * any port enable ("device access check failed" after idt_gen3 routes
	 * the ANY device ID), which is not what this case is about.
	 */
	static const char *const models[] = { "std", "cps1848", "rxs2448" };
	const char *model = models[rte_rand_max(RTE_DIM(models) - (rn_devid_size == 16))];
	char vdev[32], args[256], active[48];
	struct rte_rio_mport *mp = NULL;
	struct rn_lx node;
	uint32_t did = 0;
	uint16_t ours;
	pid_t pid;
	int ret;

	memset(&env, 0, sizeof(env));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rnlh", env.fabric, sizeof(env.fabric) - 1), "name");
	strcat(env.fabric, tsi721 ? "t" : "s");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	printf("  %s switch at reset, Linux's host on %s\n", model,
	       tsi721 ? "its tsi721 driver and our model of the part" : "the shim master port");
	TEST_ASSERT_SUCCESS(rn_topo_write(false, model), "cannot write topology");
	rn_lx_begin(&node, tsi721, 0);
	rn_lx_arg(&node, "--hdid");
	rn_lx_arg(&node, "0");
	rn_lx_arg(&node, "--rionet");
	pid = rn_lx_start(&node);
	TEST_ASSERT(pid > 0, "cannot start %s", node.argv[0]);
	ret = rn_wait_file(node.ready, NULL, pid, RN_LX_WAIT_MS);
	if (ret == 0) {
		snprintf(vdev, sizeof(vdev), "rio_sim_rn%u", rn_vdev_counter++);
		snprintf(args, sizeof(args), "fabric=%s,endpoint=ep%u,scan=0", env.fabric,
			 RN_LX_OURS);
		ret = rte_vdev_init(vdev, args);
	}
	if (ret == 0) {
		strlcpy(env.vdev[RN_LX_OURS], vdev, sizeof(env.vdev[RN_LX_OURS]));
		env.created[RN_LX_OURS] = true;
		mp = rte_rio_mport_find(vdev);
		ret = mp != NULL ? rte_rio_local_read_config_32(mp, RTE_RIO_DID_CSR, &did) : -ENODEV;
	}
	if (ret == 0)
		ret = rte_rio_send_doorbell(mp, 0, RIONET_DBELL_JOIN);
	if (ret != 0) {
		printf("  Linux's host or the JOIN doorbell from ep%u to it: %s; see %s\n",
		       RN_LX_OURS, strerror(-ret), node.log);
		rn_lx_stop(&node, pid);
		return TEST_FAILED;
	}
	ours = RTE_RIO_GET_DID(rn_devid_size, did);
	/* Linux takes the JOIN on its next doorbell poll. */
	snprintf(active, sizeof(active), "\"rionet_active\": [%u]", ours);
	rte_delay_us_sleep(500 * 1000);
	TEST_ASSERT_EQUAL(rn_lx_stop(&node, pid), 0, "Linux node exit status; see %s", node.log);
	TEST_ASSERT(rn_file_has(node.json, active), "Linux's rionet peers without ep%u (device "
		    "ID %u); see %s", RN_LX_OURS, ours, node.json);
	TEST_ASSERT(rn_file_has(node.json, "\"warnings\": 0,"), "Linux WARN()ed; see %s",
		    node.json);
	TEST_ASSERT(!tsi721 || rn_file_has(node.json, "\"model_errors\": 0,"),
		    "the model refused requests of Linux's tsi721 driver; see %s", node.json);
	rn_lx_unlink(&node);
	return TEST_SUCCESS;
}

#endif /* RIO_LINUX_REF */

static int
rn_linux_run(bool host, bool tsi721)
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
	ret = host ? rn_linux_host(tsi721) : rn_linux_wire(tsi721);
#else
	RTE_SET_USED(host);
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
	return rn_linux_run(false, false);
}

static int
test_rionet_linux_tsi721_wire_format_run(void)
{
	return rn_linux_run(false, true);
}

static int
test_rionet_linux_host_run(void)
{
	return rn_linux_run(true, false);
}

static int
test_rionet_linux_tsi721_host_run(void)
{
	return rn_linux_run(true, true);
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
	struct rte_rio_mport_info minfo;
	struct rte_eth_dev_info info;
	int ret;

	/* The mport's own endpoint is "rapidio<mport ID>". */
	ret = rte_rio_mport_info_get(rte_rio_mport_find(env.vdev[i]), &minfo);
	if (ret < 0)
		return ret;
	snprintf(dev, sizeof(dev), RTE_RIO_DEV_NAME_LOCAL_FMT, minfo.id);
	if (env.has_port[i] && rte_eth_dev_info_get(env.port[i], &info) == 0) {
		ret = rte_dev_remove(info.device);
		if (ret < 0)
			return ret;
	}
	env.has_port[i] = false;
	snprintf(env.devargs[i], sizeof(env.devargs[i]), "%s", dev);
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

/*
 * Send @n frames from port 0 to the raw peer in one burst (frame @bcast
 * broadcast, the general path; the rest unicast, the fast path) and check
 * that they arrive in order with letters 0, 1, .. @letters - 1 in turn.
 */
static int
rn_letters_check(struct rte_rio_mport *raw, unsigned int n, unsigned int bcast,
		 unsigned int letters)
{
	struct rte_ether_addr dst, bc;
	struct rte_mbuf *m[RN_RAW_BUFS];
	struct rte_rio_msg msg;
	unsigned int i, ms, seen = 0;
	uint32_t seq;

	rionet_mac_from_destid(2, &dst);
	memset(&bc, 0xff, sizeof(bc));
	for (i = 0; i < n; i++) {
		m[i] = rn_frame(rn_pool_big, i == bcast ? &bc : &dst, 0, 200, 100 + i);
		TEST_ASSERT_NOT_NULL(m[i], "frame");
	}
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(env.port[0], 0, m, n), n, "tx burst");
	for (ms = 0; ms < 1000 && seen < n; ms++) {
		if (rte_rio_recv_messages(raw, 0, &msg, 1) != 1) {
			rte_delay_ms(1);
			continue;
		}
		memcpy(&seq, (uint8_t *)msg.buf + RTE_ETHER_HDR_LEN, sizeof(seq));
		TEST_ASSERT_EQUAL(seq, 100 + seen, "frame %u out of order", seen);
		TEST_ASSERT_EQUAL(msg.letter, seen % letters, "letter of frame %u", seen);
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(raw, 0, msg.buf), "repost");
		seen++;
	}
	TEST_ASSERT_EQUAL(seen, n, "frames lost");
	return TEST_SUCCESS;
}

/* Letters rotate towards a peer (letters=, default 4), order kept. */
static int
test_rionet_letters(void)
{
	struct rte_rio_mport *raw;
	uint8_t *bufs;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	TEST_ASSERT(rn_reprobe(0, "letters=0") < 0, "letters=0 accepted");
	TEST_ASSERT(rn_reprobe(0, "letters=5") < 0, "letters=5 accepted");
	TEST_ASSERT(rn_reprobe(0, "letters=two") < 0, "letters=two accepted");
	TEST_ASSERT_SUCCESS(rn_reprobe(0, ""), "re-probe with the defaults");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_raw_peer_join(&raw, &bufs), "raw peer");
	TEST_ASSERT_SUCCESS(rn_letters_check(raw, RN_RAW_BUFS, RN_RAW_BUFS, 4),
			    "default, fast path");
	TEST_ASSERT_SUCCESS(rn_letters_check(raw, 7, 2, 4), "default, general path");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[0]), "stop");
	TEST_ASSERT_SUCCESS(rn_reprobe(0, "letters=3"), "re-probe with letters=3");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(raw, 0, RIONET_DBELL_JOIN), "JOIN");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link with the raw peer");
	TEST_ASSERT_SUCCESS(rn_letters_check(raw, 7, 7, 3), "letters=3");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[0]), "stop");
	TEST_ASSERT_SUCCESS(rn_reprobe(0, "letters=1"), "re-probe with letters=1");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(raw, 0, RIONET_DBELL_JOIN), "JOIN");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link with the raw peer");
	TEST_ASSERT_SUCCESS(rn_letters_check(raw, 5, 1, 1), "letters=1: letter 0 only");
	rn_raw_peer_release(raw, bufs);
	return TEST_SUCCESS;
}

/* Wait until port i's xstat @name is @v. */
static int
rn_xstat_wait(unsigned int i, const char *name, int64_t v, struct rte_rio_mport *poll)
{
	unsigned int ms;

	for (ms = 0; ms < RN_WAIT_MS; ms++) {
		if (rn_xstat(i, name) == v)
			return 0;
		if (poll != NULL)
			rte_rio_dbell_poll(poll, 16);
		rte_delay_ms(1);
	}
	return -ETIMEDOUT;
}

/*
 * Send @n frames of flows 0..n-1 from port i's Tx queue @q to device ID 2,
 * the raw peer, and take what reaches its mailbox 0 within @wait_ms.
 * @return the number received, each checked in order of its flow.
 */
static int
rn_raw_flows(unsigned int i, uint16_t q, struct rte_rio_mport *raw, unsigned int n,
	     unsigned int wait_ms)
{
	struct rte_mbuf *m[RN_RAW_BUFS];
	struct rte_ether_addr dst;
	struct rte_rio_msg msg;
	unsigned int k, ms, seen = 0;
	uint32_t flow, seq;

	rionet_mac_from_destid(2, &dst);
	for (k = 0; k < n; k++) {
		m[k] = rn_flow_frame(&dst, (uint16_t)i, k, 7);
		TEST_ASSERT_NOT_NULL(m[k], "frame");
	}
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(env.port[i], q, m, n), n, "tx burst");
	for (ms = 0; ms < wait_ms && seen < n; ) {
		if (rte_rio_recv_messages(raw, 0, &msg, 1) != 1) {
			rte_delay_ms(1);
			ms++;
			continue;
		}
		rn_flow_of(msg.buf, &flow, &seq);
		TEST_ASSERT(flow < n && seq == 7, "frame %u: flow %u seq %u", seen, flow, seq);
		TEST_ASSERT_SUCCESS(rte_rio_add_inb_buffer(raw, 0, msg.buf), "repost");
		seen++;
	}
	return (int)seen;
}

/*
 * Mailboxes are negotiated: a port says which mailboxes it receives on
 * (RIONET_DBELL_MBOXES before JOIN), and a Tx queue sends to a peer only on
 * those; a peer that never said (Linux rionet) has mailbox 0.
 */
static int
test_rionet_mailboxes(void)
{
	struct rte_rio_mport *raw;
	unsigned int used;
	uint8_t *bufs;
	int got;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	/* Port 0 receives on mailboxes 0-3, its one Tx queue owns all four. */
	TEST_ASSERT_SUCCESS(rn_port_start(0, 4, 1, 1500, rn_pool_big), "start 0");
	/* Port 1 receives on mailboxes 0 and 1; Tx queue q owns mailbox q. */
	TEST_ASSERT_SUCCESS(rn_port_start(1, 2, 2, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "port 0 peers");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 1), "port 1 peers");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "mailboxes"), 0x3, "port 1's mailboxes at port 0");
	TEST_ASSERT_EQUAL(rn_peer_xstat(1, 0, "mailboxes"), 0xf, "port 0's mailboxes at port 1");

	/* Port 0 spreads flows over mailboxes 0 and 1 only: none is refused. */
	TEST_ASSERT_SUCCESS(rn_flows(16, 10, 2, &used), "flows");
	TEST_ASSERT_EQUAL(used, 0x3, "flows not on both mailboxes (mask 0x%x)", used);
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "tx_errors"), 0, "sent to a closed mailbox");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_no_mailbox"), 0, "no_mailbox count");

	/*
	 * A Linux rionet peer (JOIN, no mailboxes said): mailbox 0 only. Port 0's
	 * link is up already (port 1): wait for the raw peer itself, since the
	 * JOIN the raw peer counts may be the one port 0 sent at its start.
	 */
	TEST_ASSERT_SUCCESS(rn_raw_peer_join(&raw, &bufs), "raw peer");
	TEST_ASSERT_SUCCESS(rn_xstat_wait(0, "peer_0x0002_active", 1, NULL), "raw peer active");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 2, "mailboxes"), 0x1, "raw peer's mailboxes");
	got = rn_raw_flows(0, 0, raw, RN_RAW_BUFS, 1000);
	TEST_ASSERT_EQUAL(got, RN_RAW_BUFS, "flows to the raw peer not all on mailbox 0");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 2, "tx_errors"), 0, "raw peer: send errors");

	/* Port 1's queue 1 owns mailbox 1 only: its frames for it are dropped, counted. */
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(raw, 1, RIONET_DBELL_JOIN), "JOIN port 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 2), "port 1 peers");
	got = rn_raw_flows(1, 1, raw, 5, 100);
	TEST_ASSERT_EQUAL(got, 0, "frames on mailbox 1 arrived");
	TEST_ASSERT_EQUAL(rn_xstat(1, "tx_q1_no_mailbox"), 5, "no_mailbox count");
	TEST_ASSERT_EQUAL(rn_peer_xstat(1, 2, "tx_errors"), 0, "sent to a closed mailbox");
	got = rn_raw_flows(1, 0, raw, 3, 1000);
	TEST_ASSERT_EQUAL(got, 3, "queue 0's frames lost");

	/* What a peer says holds until it LEAVEs. */
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(raw, 0, RIONET_DBELL_MBOXES | 0x3), "MBOXES");
	TEST_ASSERT_SUCCESS(rn_xstat_wait(0, "peer_0x0002_mailboxes", 0x3, NULL), "mask 0x3");
	TEST_ASSERT_SUCCESS(rte_rio_send_doorbell(raw, 0, RIONET_DBELL_LEAVE), "LEAVE");
	TEST_ASSERT_SUCCESS(rn_xstat_wait(0, "peer_0x0002_mailboxes", 0x1, NULL), "mask reset");
	TEST_ASSERT_SUCCESS(rn_xstat_wait(0, "peer_0x0002_active", 0, NULL), "left");
	rn_raw_peer_release(raw, bufs);
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
/* DPDK's own PMDs stacked on rionet ports                            */

/* Name of the rio bus device (the mport's own endpoint) of ep<i> into @buf. */
static const char *
rn_local_name(unsigned int i, char buf[RTE_RIO_NAME_MAX_LEN])
{
	struct rte_rio_mport_info minfo;

	if (rte_rio_mport_info_get(env.mp[i], &minfo) != 0)
		return NULL;
	snprintf(buf, RTE_RIO_NAME_MAX_LEN, RTE_RIO_DEV_NAME_LOCAL_FMT, minfo.id);
	return buf;
}

/*
 * A frame from ethdev @from to @to_destid's rionet MAC arrives on ethdev
 * @to intact. @seq keys its pattern.
 */
static int
rn_ethdev_carry(uint16_t from, uint16_t to, uint16_t to_destid, uint32_t seq)
{
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[1];

	rionet_mac_from_destid(to_destid, &dst);
	m = rn_frame(rn_pool_big, &dst, 0, 200, seq);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	TEST_ASSERT_EQUAL(rn_ethdev_tx1(from, 0, m), 1, "port %u: frame not taken", from);
	TEST_ASSERT_EQUAL(rn_ethdev_rx(to, 0, rx, 1, RN_WAIT_MS), 1,
			  "port %u -> port %u: frame %u lost", from, to, seq);
	TEST_ASSERT(rn_frame_check(rx[0], 200, seq), "port %u -> port %u: frame corrupted",
		    from, to);
	rte_pktmbuf_free(rx[0]);
	return TEST_SUCCESS;
}

/*
 * net_failsafe takes a rionet port over by the name of its rio bus device
 * (dev(rapidio<mport ID>), with or without the bus prefix) and carries
 * frames both ways through it. (A name that started with the bus name was
 * cut to its tail: "Cannot find device", or a retry loop that never ended.)
 */
static int
test_rionet_failsafe(void)
{
	static const char * const prefixes[] = { "", "rio:" };
	char fs_name[32], args[RTE_RIO_NAME_MAX_LEN + 16], local[RTE_RIO_NAME_MAX_LEN];
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_owner owner;
	unsigned int k;
	uint16_t fs;

	for (k = 0; k < RTE_DIM(prefixes); k++) {
		TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
		TEST_ASSERT_NOT_NULL(rn_local_name(0, local), "name of ep0's device");
		snprintf(fs_name, sizeof(fs_name), "net_failsafe_rn%u", rn_vdev_counter++);
		snprintf(args, sizeof(args), "dev(%s%s)", prefixes[k], local);
		TEST_ASSERT_SUCCESS(rte_vdev_init(fs_name, args), "%s,%s", fs_name, args);
		TEST_ASSERT_SUCCESS(rte_eth_dev_get_port_by_name(fs_name, &fs), "fail-safe port");
		TEST_ASSERT_SUCCESS(rte_eth_dev_owner_get(env.port[0], &owner), "owner");
		TEST_ASSERT(owner.id != RTE_ETH_DEV_NO_OWNER,
			    "%s did not take rionet port %u over", args, env.port[0]);
		TEST_ASSERT_SUCCESS(rn_ethdev_start(fs, &conf, 1, 1, rn_pool_big, 0),
				    "start the fail-safe port");
		TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_big), "start 1");
		TEST_ASSERT_SUCCESS(rn_active_wait(1, 1), "peer of port 1");
		TEST_ASSERT_SUCCESS(rn_ethdev_carry(fs, env.port[1], 1, 2 * k), "fail-safe -> 1");
		TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[1], fs, 0, 2 * k + 1),
				    "1 -> fail-safe");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(fs), "stop fail-safe");
		TEST_ASSERT_SUCCESS(rte_eth_dev_close(fs), "close fail-safe");
		TEST_ASSERT_SUCCESS(rte_vdev_uninit(fs_name), "remove fail-safe");
		if (k + 1 < RTE_DIM(prefixes) && rn_env_teardown() != 0)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* net_bonding's key for a member port: renamed in DPDK 23.11. */
#if RTE_VERSION >= RTE_VERSION_NUM(23, 11, 0, 0)
#define RN_BOND_MEMBER	"member"
#else
#define RN_BOND_MEMBER	"slave"
#endif

/*
 * net_bonding in @mode over the ports of ep<a> (primary) and ep<b>, named
 * into @name. net_bonding names members by device (rte_device name: the
 * rio bus device), PCI address or port ID. @return its port ID, or -1.
 */
static int
rn_bond_create(unsigned int mode, unsigned int a, unsigned int b, char name[32])
{
	char pa[RTE_RIO_NAME_MAX_LEN], pb[RTE_RIO_NAME_MAX_LEN], args[4 * RTE_RIO_NAME_MAX_LEN];
	uint16_t port;

	if (rn_local_name(a, pa) == NULL || rn_local_name(b, pb) == NULL)
		return -1;
	snprintf(name, 32, "net_bonding_rn%u", rn_vdev_counter++);
	snprintf(args, sizeof(args),
		 "mode=%u," RN_BOND_MEMBER "=%s," RN_BOND_MEMBER "=%s,primary=%s", mode, pa, pb,
		 pa);
	if (rte_vdev_init(name, args) != 0) {
		printf("  rte_vdev_init(%s, %s) failed\n", name, args);
		return -1;
	}
	if (rte_eth_dev_get_port_by_name(name, &port) != 0)
		return -1;
	return port;
}

/*
 * Send frames from ethdev @from to ep0 (env.port[0]) until one arrives
 * there from the member with device ID @member (a bond may be failing over
 * meanwhile, sending through the other member or into a link that is down).
 * @return the number sent, 0 when none came through that member.
 */
static unsigned int
rn_bond_send_through(uint16_t from, uint16_t member)
{
	int64_t before = rn_peer_xstat(0, member, "rx_packets");
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * RN_WAIT_MS / 1000;
	struct rte_ether_addr dst;
	struct rte_mbuf *m, *rx[1];
	unsigned int sent;

	rionet_mac_from_destid(0, &dst);
	/* Wall time: frames through the other member return at once. */
	for (sent = 0; rte_get_timer_cycles() < deadline; sent++) {
		m = rn_frame(rn_pool_big, &dst, 0, 100, sent);
		if (m == NULL)
			return 0;
		/*
		 * Not taken: the member's link is back but not usable yet (the
		 * host has not recovered it, or its peers not JOINed again).
		 */
		if (rn_ethdev_tx1(from, 0, m) != 1) {
			rte_delay_ms(10);
			continue;
		}
		if (rn_ethdev_rx(env.port[0], 0, rx, 1, 10) == 1)
			rte_pktmbuf_free(rx[0]);
		if (rn_peer_xstat(0, member, "rx_packets") > before)
			return sent + 1;
		rte_delay_ms(1);
	}
	return 0;
}

/*
 * net_bonding mode 1 (active-backup) over rionet ports of ep1 (primary)
 * and ep2, with ep0 as the far end: when ep1's RapidIO link goes down, its
 * port's link goes down (no traffic needed), the bond fails over to ep2 and
 * ep0 receives from ep2; when the link is back, the primary takes over
 * again. (The link status followed only the peers, which a link that went
 * down keeps active.)
 */
static int
test_rionet_bond_failover(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr addr1, got;
	char name[32];
	int bond;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	bond = rn_bond_create(1, 1, 2, name);
	TEST_ASSERT(bond >= 0, "net_bonding mode 1");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_ethdev_start(bond, &conf, 1, 1, rn_pool_big, 0), "start bond");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 2), "peers of port 0");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link of ep1");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(bond, env.port[0], 0, 1), "bond -> ep0");
	TEST_ASSERT_EQUAL(rn_peer_xstat(0, 1, "rx_packets"), 1, "sent through the primary");
	rionet_mac_from_destid(1, &addr1);
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], bond, 1, 2), "ep0 -> bond");

	/* ep1's link goes down: its port's link follows with no frame sent. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "ep1", 0, false),
			    "link of ep1 down");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 0), "port of ep1 still up with its link down");
	TEST_ASSERT(rn_bond_send_through(bond, 2) > 0, "no failover to ep2");
	/* ep2 took the bond's address over; ep0 reaches it at ep2's own. */
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(env.port[2], &got), "MAC of ep2");
	TEST_ASSERT(rte_is_same_ether_addr(&got, &addr1), "ep2 does not report the bond's MAC");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], bond, 2, 3), "ep0 -> bond on ep2");

	/* The link is back: ep1 rejoins and, as the primary, carries again. */
	TEST_ASSERT_SUCCESS(rte_pmd_rio_sim_fabric_link_set(env.fabric, "ep1", 0, true),
			    "link of ep1 up");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "port of ep1 down with its link up");
	TEST_ASSERT(rn_bond_send_through(bond, 1) > 0, "primary ep1 did not take over");

	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(bond), "stop bond");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(bond), "close bond");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(name), "remove bond");
	return TEST_SUCCESS;
}

/*
 * net_bonding mode 2 (balance) over rionet ports of ep1 and ep2 starts
 * (every member takes the bond's address), spreads flows over both
 * members, and receives at ep1's address (the bond's) and at ep2's own.
 * (It could not start: "Failed to update port Id ... MAC address".)
 */
static int
test_rionet_bond_balance(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr dst, addr1, got;
	struct rte_mbuf *m, *rx[RN_BOND_FLOWS];
	unsigned int k;
	char name[32];
	uint16_t n;
	int bond;

	TEST_ASSERT_SUCCESS(rn_env_setup(3), "setup");
	bond = rn_bond_create(2, 1, 2, name);
	TEST_ASSERT(bond >= 0, "net_bonding mode 2");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_ethdev_start(bond, &conf, 1, 1, rn_pool_big, 0),
			    "mode 2 does not start over rionet");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 2), "peers of port 0");
	rionet_mac_from_destid(1, &addr1);
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(bond, &got), "MAC of the bond");
	TEST_ASSERT(rte_is_same_ether_addr(&got, &addr1), "bond MAC is not ep1's");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(env.port[2], &got), "MAC of ep2");
	TEST_ASSERT(rte_is_same_ether_addr(&got, &addr1), "ep2 does not report the bond's MAC");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "link of ep1");
	TEST_ASSERT_SUCCESS(rn_link_wait(2, 1), "link of ep2");

	/* Flows (source addresses) spread over both members (layer 2 hash). */
	rionet_mac_from_destid(0, &dst);
	for (k = 0; k < RN_BOND_FLOWS; k++) {
		m = rn_frame(rn_pool_big, &dst, 0x10 + k, 100, k);
		TEST_ASSERT_NOT_NULL(m, "alloc");
		TEST_ASSERT_EQUAL(rn_ethdev_tx1(bond, 0, m), 1, "flow %u not taken", k);
	}
	n = rn_rx(0, 0, rx, RN_BOND_FLOWS, RN_WAIT_MS);
	rte_pktmbuf_free_bulk(rx, n);
	TEST_ASSERT_EQUAL(n, RN_BOND_FLOWS, "frames of the bond lost");
	TEST_ASSERT(rn_peer_xstat(0, 1, "rx_packets") > 0 && rn_peer_xstat(0, 2, "rx_packets") > 0,
		    "flows not spread: %" PRId64 " through ep1, %" PRId64 " through ep2",
		    rn_peer_xstat(0, 1, "rx_packets"), rn_peer_xstat(0, 2, "rx_packets"));
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], bond, 1, 1), "ep0 -> bond (ep1)");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], bond, 2, 2), "ep0 -> bond (ep2)");

	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(bond), "stop bond");
	TEST_ASSERT_SUCCESS(rte_eth_dev_close(bond), "close bond");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(name), "remove bond");
	return TEST_SUCCESS;
}

/* Frames of every kind sent by port 0 in loopback mode come back to it. */
static int
rn_loopback_frames(void)
{
	/* pmd_perf_autotest's destination, and a rionet peer's. */
	static const struct rte_ether_addr foreign = {
		.addr_bytes = { 0x00, 0xaa, 0xff, 0xaa, 0xff, 0xaa } };
	struct rte_ether_addr dst[4];
	struct rte_mbuf *m, *rx[1];
	unsigned int k;

	dst[0] = foreign;
	rionet_mac_from_destid(1, &dst[1]);
	rionet_mac_from_destid(0, &dst[2]);
	memset(&dst[3], 0xff, sizeof(dst[3]));
	for (k = 0; k < 2 * RTE_DIM(dst); k++) {
		/* Single segments (fast path), then two segments (general path). */
		m = k < RTE_DIM(dst) ?
			rn_frame(rn_pool_big, &dst[k], 0, 300, k) :
			rn_frame_chained(rn_pool_small, &dst[k % RTE_DIM(dst)], 0, 100, 200, k);
		TEST_ASSERT_NOT_NULL(m, "alloc");
		TEST_ASSERT_EQUAL(rn_tx1(0, 0, m), 1, "frame %u not taken", k);
		TEST_ASSERT_EQUAL(rn_rx(0, 0, rx, 1, RN_WAIT_MS), 1,
				  "frame %u to " RTE_ETHER_ADDR_PRT_FMT " did not come back", k,
				  RTE_ETHER_ADDR_BYTES(&dst[k % RTE_DIM(dst)]));
		TEST_ASSERT(rn_frame_check(rx[0], 300, k), "frame %u corrupted", k);
		rte_pktmbuf_free(rx[0]);
	}
	TEST_ASSERT_EQUAL(rn_rx(1, 0, rx, 1, 50), 0, "a loopback frame reached port 1");
	TEST_ASSERT_EQUAL(rn_xstat(0, "tx_q0_unknown_destination"), 0, "frames dropped");
	TEST_ASSERT_EQUAL(rn_xstat(0, "rx_q0_unknown_source"), 0, "own frames from unknown");
	return TEST_SUCCESS;
}

/*
 * lpbk_mode=1, which DPDK's pmd_perf_autotest asks every port for: every
 * frame goes to the port's own device ID whatever its address, and comes
 * back through the switch on the port's own queue; the link is up without
 * peers. Other modes are refused, and so is loopback where no switch can
 * return the frames (back to back). (Loopback was accepted and ignored:
 * pmd_perf's frames to 00:AA:FF:AA:FF:AA were dropped and it waited forever.)
 */
static int
test_rionet_loopback(void)
{
	struct rte_eth_conf conf = { .lpbk_mode = 2 };
	char vdev[32], args[128], pname[RTE_ETH_NAME_MAX_LEN];
	uint16_t pair_port;
	int ret;

	TEST_ASSERT_SUCCESS(rn_env_setup(2), "setup");
	TEST_ASSERT(rte_eth_dev_configure(env.port[0], 1, 1, &conf) < 0, "lpbk_mode 2 accepted");
	conf.lpbk_mode = 1;
	TEST_ASSERT_SUCCESS(rn_ethdev_start(env.port[0], &conf, 1, 1, rn_pool_big, 0),
			    "start in loopback mode");
	TEST_ASSERT_SUCCESS(rn_link_wait(0, 1), "link down in loopback mode without peers");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(env.port[0]), "promiscuous");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(1, 1), "peer of port 1");
	TEST_ASSERT_SUCCESS(rn_loopback_frames(), "frames in loopback mode");
	/* Back in normal mode: a frame to port 1 reaches port 1. */
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(env.port[0]), "stop 0");
	conf.lpbk_mode = 0;
	TEST_ASSERT_SUCCESS(rn_ethdev_start(env.port[0], &conf, 1, 1, rn_pool_big, 0), "restart");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peer of port 0");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], env.port[1], 1, 9), "0 -> 1");

	/* Two endpoints back to back: nothing returns a frame to its sender. */
	snprintf(vdev, sizeof(vdev), "rio_sim_rn%u", rn_vdev_counter++);
	snprintf(args, sizeof(args), "fabric=%sp,topology=builtin:pair,endpoint=ep0", env.fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init(vdev, args), "%s,%s", vdev, args);
	snprintf(pname, sizeof(pname), "rionet_%s", vdev);
	ret = rte_eth_dev_get_port_by_name(pname, &pair_port);
	if (ret == 0) {
		ret = rn_ethdev_start(pair_port, &conf, 1, 1, rn_pool_big, 0) == 0 &&
			rte_eth_dev_stop(pair_port) == 0 ? 0 : -EIO;
		conf.lpbk_mode = 1;
		if (ret == 0)
			ret = rn_ethdev_start(pair_port, &conf, 1, 1, rn_pool_big, 0) == -ENOTSUP ?
				0 : -EINVAL;
		rte_eth_dev_stop(pair_port);
		rte_eth_dev_close(pair_port);
	}
	rte_vdev_uninit(vdev);
	TEST_ASSERT_SUCCESS(ret, "back to back: normal mode fails or loopback is not refused");
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
RN_CASE(test_rionet_letters)
RN_CASE(test_rionet_mailboxes)
RN_CASE(test_rionet_backpressure)
RN_CASE(test_rionet_devargs)
RN_CASE(test_rionet_reset)
RN_CASE(test_rionet_unplug)
RN_CASE(test_rionet_bcast_ring_full)
RN_CASE(test_rionet_failsafe)
RN_CASE(test_rionet_bond_failover)
RN_CASE(test_rionet_bond_balance)
RN_CASE(test_rionet_loopback)

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
		TEST_CASE_NAMED("linux_host", test_rionet_linux_host_run),
		TEST_CASE_NAMED("linux_tsi721_host", test_rionet_linux_tsi721_host_run),
		TEST_CASE_NAMED("backpressure", test_rionet_backpressure_run),
		TEST_CASE_NAMED("devargs", test_rionet_devargs_run),
		TEST_CASE_NAMED("letters rotate towards a peer", test_rionet_letters_run),
		TEST_CASE_NAMED("mailboxes negotiated", test_rionet_mailboxes_run),
		TEST_CASE_NAMED("reset", test_rionet_reset_run),
		TEST_CASE_NAMED("unplug", test_rionet_unplug_run),
		TEST_CASE_NAMED("bcast_ring_full", test_rionet_bcast_ring_full_run),
		TEST_CASE_NAMED("failsafe", test_rionet_failsafe_run),
		TEST_CASE_NAMED("bond_failover", test_rionet_bond_failover_run),
		TEST_CASE_NAMED("bond_balance", test_rionet_bond_balance_run),
		TEST_CASE_NAMED("loopback", test_rionet_loopback_run),
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
	char drivers[PATH_MAX], self[PATH_MAX], log_a[64], log_b[64], lc_a[96], lc_b[96];
	pid_t a, b;
	int64_t rx, tx;
	int ret_a, ret_b;
	char *argv_a[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"256",
		(char *)"--no-pci", pfx_a, lc_a, (char *)"-d", drivers,
		(char *)"--vdev", vdev_a, (char *)"--", (char *)"--total-num-mbufs=8192",
		(char *)"--forward-mode=rxonly", (char *)"--stats-period=1", NULL
	};
	char *argv_b[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"256",
		(char *)"--no-pci", pfx_b, lc_b, (char *)"-d", drivers,
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
	TEST_ASSERT_NOT_NULL(rio_test_lcores(lc_a, sizeof(lc_a), "0-1"), "lcores");
	TEST_ASSERT_NOT_NULL(rio_test_lcores(lc_b, sizeof(lc_b), "0-1"), "lcores");

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
	char drivers[PATH_MAX], self[PATH_MAX], log[64], lcores[96];
	int64_t rx0, rx1, tx0, tx1;
	pid_t pid;
	int ret;
	char *argv[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"512",
		(char *)"--no-pci", pfx, lcores, (char *)"-d", drivers,
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
	TEST_ASSERT_NOT_NULL(rio_test_lcores(lcores, sizeof(lcores), "0-1"), "lcores");

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

/* ------------------------------------------------------------------ */
/* An agent that starts before its host                               */

/* Does the log file @path hold @text? */
static bool
rn_log_has(const char *path, const char *text)
{
	char line[512];
	bool found = false;
	FILE *fp = fopen(path, "r");

	while (fp != NULL && !found && fgets(line, sizeof(line), fp) != NULL)
		found = strstr(line, text) != NULL;
	if (fp != NULL)
		fclose(fp);
	return found;
}

/* Poll the log file @path for @text for up to @ms. */
static bool
rn_log_wait(const char *path, const char *text, unsigned int ms)
{
	unsigned int t;

	for (t = 0; t <= ms; t += 50) {
		if (rn_log_has(path, text))
			return true;
		rte_delay_ms(50);
	}
	return false;
}

static int
rn_agent_wait_steps(const char *log)
{
	struct rte_ether_addr mac, want;
	struct rte_rio_mport_info minfo;
	char args[256];

	/* The agent first: no host has enumerated, and none will for a while. */
	snprintf(env.vdev[1], sizeof(env.vdev[1]), "rio_sim_rn%u", rn_vdev_counter++);
	snprintf(args, sizeof(args), "fabric=%s,topology=%s,endpoint=ep1", env.fabric, env.topo);
	TEST_ASSERT_SUCCESS(rte_vdev_init(env.vdev[1], args), "agent %s,%s", env.vdev[1], args);
	env.created[1] = true;
	env.mp[1] = rte_rio_mport_find(env.vdev[1]);
	TEST_ASSERT_NOT_NULL(env.mp[1], "agent mport");
	/* The probe returned while it waits, and its rionet port is there. */
	TEST_ASSERT(!rte_rio_mport_scanned(env.mp[1]), "agent discovered without a host");
	TEST_ASSERT_SUCCESS(rn_find_port(1), "no rionet port while the agent waits");
	TEST_ASSERT(rn_log_has(log, "waiting for a host to enumerate fabric"),
		    "the agent did not say that it waits");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_big), "start the agent's port");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 0), "agent's link up without a host");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(env.port[1], &mac), "MAC while waiting");
	rionet_mac_from_destid(RTE_RIO_ANY_DESTID(16), &want);
	TEST_ASSERT(rte_is_same_ether_addr(&mac, &want), "MAC of an unenumerated endpoint");
	TEST_ASSERT(rn_log_wait(log, "still waiting for a host", RN_WAIT_MS + 5000),
		    "the agent did not say that it still waits");

	/* The host comes and enumerates: the agent discovers, its port comes up. */
	TEST_ASSERT_SUCCESS(rn_ep_create(0), "host");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start the host's port");
	TEST_ASSERT_SUCCESS(rn_link_wait(1, 1), "agent's port down after its host enumerated");
	TEST_ASSERT(rte_rio_mport_scanned(env.mp[1]), "agent not discovered");
	TEST_ASSERT_SUCCESS(rte_rio_mport_info_get(env.mp[1], &minfo), "agent mport info");
	TEST_ASSERT(minfo.destid != RTE_RIO_ANY_DESTID(16), "no device ID from the host");
	TEST_ASSERT_SUCCESS(rte_eth_macaddr_get(env.port[1], &mac), "MAC");
	rionet_mac_from_destid(minfo.destid, &want);
	TEST_ASSERT(rte_is_same_ether_addr(&mac, &want), "MAC not that of device ID 0x%x",
		    minfo.destid);
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "the host's peer");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], env.port[1], minfo.destid, 1),
			    "host -> agent");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[1], env.port[0], 0, 2), "agent -> host");
	return TEST_SUCCESS;
}

/*
 * An agent started before any host (16-bit fabric, no preset device ID)
 * says that it waits, when it starts waiting and while it waits, and does
 * not hold EAL up: its rionet port is there at once, link down. When the
 * host enumerates, the agent discovers, the port takes the MAC of the device
 * ID the host assigned and comes up, and frames flow. (The probe stalled for
 * 30 s without a word, then created no rionet port.)
 */
static int
test_rionet_agent_wait(void)
{
	char log[64] = "/tmp/rionet_agent_wait.XXXXXX";
	FILE *old = rte_log_get_stream(), *fp = NULL;
	int fd, ret = TEST_FAILED;

	memset(&env, 0, sizeof(env));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rnaw", env.fabric, sizeof(env.fabric) - 1), "name");
	strcat(env.fabric, "x");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	rn_devid_size = 16;
	if (rn_topo_write(false, "std") != 0 || rn_suite_setup() != TEST_SUCCESS)
		goto out;
	fd = mkstemp(log);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fp == NULL)
		goto out;
	setvbuf(fp, NULL, _IOLBF, 0);
	rte_openlog_stream(fp);
	ret = rn_agent_wait_steps(log);
	rte_openlog_stream(old);
out:
	if (rn_env_teardown() != 0)
		ret = TEST_FAILED;
	rn_suite_teardown();
	rn_devid_size = 8;
	if (fp != NULL)
		fclose(fp);
	unlink(log);
	return ret;
}

REGISTER_TEST_COMMAND(rionet_agent_wait_autotest, test_rionet_agent_wait);

/* ------------------------------------------------------------------ */
/* A fabric left by a process stopped with Ctrl-C                     */

/*
 * Child: EAL args, "--", fabric, marker file. A host and an agent mport on
 * the fabric (rionet ports on both), then the marker, then wait for the
 * signal.
 */
static int
rn_stale_child(int argc, char **argv)
{
	char args[128];
	FILE *fp;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 2;
	argc -= ret + 1;
	argv += ret + 1;
	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	if (argc < 2)
		return 3;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep0", argv[0]);
	if (rte_vdev_init("rio_sim0", args) != 0)
		return 4;
	snprintf(args, sizeof(args), "fabric=%s,endpoint=ep1", argv[0]);
	if (rte_vdev_init("rio_sim1", args) != 0 || rte_eth_dev_count_avail() != 2)
		return 5;
	fp = fopen(argv[1], "w");
	if (fp == NULL)
		return 6;
	fclose(fp);
	for (;;)
		pause();
	return 0;
}
REGISTER_TEST_CHILD(rionet_stale_child, rn_stale_child);

/* Host and agent on the fabric a dead process left: enumerated anew, frames flow. */
static int
rn_stale_reuse(struct rte_rio_hotplug_stats *hs)
{
	char args[96];
	unsigned int i;

	if (rn_suite_setup() != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 0; i < 2; i++) {
		snprintf(env.vdev[i], sizeof(env.vdev[i]), "rio_sim_rn%u", rn_vdev_counter++);
		snprintf(args, sizeof(args), "fabric=%s,endpoint=ep%u", env.fabric, i);
		TEST_ASSERT_SUCCESS(rte_vdev_init(env.vdev[i], args), "%s", args);
		env.created[i] = true;
		env.mp[i] = rte_rio_mport_find(env.vdev[i]);
		TEST_ASSERT_NOT_NULL(env.mp[i], "mport of ep%u", i);
		TEST_ASSERT(rte_rio_mport_scanned(env.mp[i]), "ep%u: fabric not scanned", i);
		TEST_ASSERT_SUCCESS(rn_find_port(i), "rionet port of ep%u", i);
	}
	/* Only an enumerating host has hot-plug counters. */
	TEST_ASSERT_SUCCESS(rte_rio_hotplug_stats_get(env.mp[0], hs),
			    "ep0 did not enumerate the fabric");
	TEST_ASSERT_SUCCESS(rn_port_start(0, 1, 1, 1500, rn_pool_big), "start 0");
	TEST_ASSERT_SUCCESS(rn_port_start(1, 1, 1, 1500, rn_pool_big), "start 1");
	TEST_ASSERT_SUCCESS(rn_active_wait(0, 1), "peers");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[0], env.port[1], 1, 1), "0 -> 1");
	TEST_ASSERT_SUCCESS(rn_ethdev_carry(env.port[1], env.port[0], 0, 2), "1 -> 0");
	return TEST_SUCCESS;
}

/*
 * A process using a fabric stops with Ctrl-C (SIGINT: no cleanup): its
 * shared memory stays. The next run with that fabric name finds no live
 * process attached to it, removes it and creates it anew: the host
 * enumerates (not "fabric enumerated already") and rionet ports carry
 * frames. (The stale fabric's state made the host back off, then fail.)
 */
static int
test_rionet_stale_fabric(void)
{
	char self[PATH_MAX], rionet_so[PATH_MAX], prefix[48], fp[64], marker[96];
	struct rte_rio_hotplug_stats hs;
	unsigned int ms;
	pid_t pid;
	int ret;

	memset(&env, 0, sizeof(env));
	TEST_ASSERT_NOT_NULL(rio_test_unique("rnst", env.fabric, sizeof(env.fabric) - 1), "name");
	strcat(env.fabric, "x");
	snprintf(env.shm_prefix, sizeof(env.shm_prefix), "rio_sim.%s", env.fabric);
	TEST_ASSERT_NOT_NULL(rio_test_unique("rn_stale", prefix, sizeof(prefix)), "prefix");
	TEST_ASSERT_NOT_NULL(rio_test_self(), "own path");
	strlcpy(self, rio_test_self(), sizeof(self));
	snprintf(rionet_so, sizeof(rionet_so), "%s/../../drivers/librte_net_rionet.so",
		 dirname(self));
	snprintf(fp, sizeof(fp), "--file-prefix=%s", prefix);
	snprintf(marker, sizeof(marker), "/tmp/%s.ready", prefix);
	unlink(marker);
	{
		char *argv[] = { "--no-huge", "-m", "256", "--no-pci", fp,
				 "--log-level=lib.eal:error", "-d", rionet_so, "--", env.fabric,
				 marker, NULL };

		pid = rio_test_spawn("rionet_stale_child", argv);
	}
	TEST_ASSERT(pid > 0, "spawn: %d", (int)pid);
	for (ms = 0; ms < 20000 && access(marker, F_OK) != 0; ms += 10)
		rte_delay_ms(10);
	kill(pid, SIGINT);
	ret = rio_test_wait(pid, 10000);
	unlink(marker);
	rio_test_runtime_dir_cleanup(prefix);
	TEST_ASSERT(ms < 20000, "the child did not set its fabric up");
	TEST_ASSERT_EQUAL(ret, 128 + SIGINT, "child not stopped by SIGINT");
	TEST_ASSERT_EQUAL(rio_test_shm_count(env.shm_prefix), 3,
			  "the stopped child did not leave its fabric behind");

	/* The same fabric name again, with the same topology (the default). */
	ret = rn_stale_reuse(&hs);
	if (rn_env_teardown() != 0)
		ret = TEST_FAILED;
	rn_suite_teardown();
	return ret;
}

REGISTER_TEST_COMMAND(rionet_stale_fabric_autotest, test_rionet_stale_fabric);
