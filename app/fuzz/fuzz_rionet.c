/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * fuzz_rionet: rionet frame handling, through the real plugins.
 *
 * Once: EAL (no hugepages) loads the plugins of this build and probes three
 * rio_sim mports on a fabric of one switch: rio_sim_fz0 (ep0, destid 0,
 * host) and rio_sim_fz1 (ep1, destid 1) whose rionet ports A and B are
 * started (A copies into chained mbufs of 2 KB, B receives directly into
 * 4 KB mbufs; MTU 4082 on both), and rio_sim_fz2 (ep2, destid 2) used as a
 * raw mport that injects messages. Each input then either
 *
 *   - (rx) sends its bytes as one or more type-11 messages, any letter,
 *     from ep2 to A or B, and receives them on that port: every frame
 *     delivered is 14..max frame bytes, its segments add up to its length
 *     and its bytes are the message's;
 *   - (tx) transmits its bytes as frames (1..4 copies, 1..4 segments) on A,
 *     so the destination MAC decides unicast (rionet MAC decoding),
 *     broadcast or multicast fan-out, then drains B: every frame B gets is
 *     one A sent, byte for byte.
 *
 * Flags in the first byte also switch promiscuous and all-multicast modes.
 */

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "rte_rio.h"

#include "fuzz_common.h"

#define FZ_NB_MBUF	2048
#define FZ_DESC		64
#define FZ_BURST	32
#define FZ_MTU		(4096 - RTE_ETHER_HDR_LEN)
#define FZ_MAX_FRAME	4096
#define FZ_WAIT_MS	5000

static const char fz_topo[] =
	"[fabric]\n"
	"mbox_entries = 64\n"
	"static_routes = 1\n"
	"[switch sw0]\n"
	"ports = 4\n"
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
	"sw0.2 = ep2.0\n";

static struct {
	uint16_t port[2];		/* A, B */
	struct rte_mempool *pool[2];	/* 2 KB (A: bounce), 4 KB (B: direct) */
	struct rte_rio_mport *raw;	/* ep2 */
	uint8_t frame[FZ_MAX_FRAME];
} fz;

static void
fz_fini(void)
{
	unsigned int i;

	char name[32];

	for (i = 0; i < 2; i++) {
		rte_eth_dev_stop(fz.port[i]);
		rte_eth_dev_close(fz.port[i]);
	}
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "rio_sim_fz%u", i);
		rte_vdev_uninit(name);
	}
	rte_eal_cleanup();
}

static int
fz_port_start(unsigned int i)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mtu = FZ_MTU;
	ret = rte_eth_dev_configure(fz.port[i], 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(fz.port[i], 0, FZ_DESC, 0, NULL, fz.pool[i]);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(fz.port[i], 0, FZ_DESC, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(fz.port[i]);
	return ret;
}

static void
fz_drain(uint16_t port)
{
	struct rte_mbuf *pkts[FZ_BURST];
	uint16_t n;

	while ((n = rte_eth_rx_burst(port, 0, pkts, FZ_BURST)) > 0)
		rte_pktmbuf_free_bulk(pkts, n);
}

/* Until A reaches B: B's JOIN doorbell made it an active peer of A. */
static int
fz_wait_peers(void)
{
	struct rte_ether_addr mac_b;
	struct rte_mbuf *m, *pkts[FZ_BURST];
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * FZ_WAIT_MS / 1000;
	uint16_t n;
	char *p;

	rte_eth_macaddr_get(fz.port[1], &mac_b);
	while (rte_get_timer_cycles() < end) {
		m = rte_pktmbuf_alloc(fz.pool[0]);
		if (m == NULL)
			return -ENOMEM;
		p = rte_pktmbuf_append(m, 64);
		memset(p, 0, 64);
		memcpy(p, &mac_b, RTE_ETHER_ADDR_LEN);
		if (rte_eth_tx_burst(fz.port[0], 0, &m, 1) == 0)
			rte_pktmbuf_free(m);
		rte_delay_ms(10);
		n = rte_eth_rx_burst(fz.port[1], 0, pkts, FZ_BURST);
		rte_pktmbuf_free_bulk(pkts, n);
		if (n > 0) {
			fz_drain(fz.port[1]);
			return 0;
		}
	}
	return -ETIMEDOUT;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prefix[64], vdev[3][256], path[64];
	char *eal[32], name[32];
	const char *names[2] = { "rionet_rio_sim_fz0", "rionet_rio_sim_fz1" };
	unsigned int i, n = 0;
	int fd, ret;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fd = memfd_create("fuzz_rionet_topo", 0);
	if (fd < 0 || write(fd, fz_topo, strlen(fz_topo)) != (ssize_t)strlen(fz_topo)) {
		perror("fuzz_rionet: topology");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	snprintf(prefix, sizeof(prefix), "--file-prefix=fuzz_rionet_%d", (int)getpid());
	for (i = 0; i < 3; i++)
		snprintf(vdev[i], sizeof(vdev[i]),
			 "rio_sim_fz%u,fabric=fuzz_rionet_%d,topology=%s,endpoint=ep%u",
			 i, (int)getpid(), path, i);
	eal[n++] = "fuzz_rionet";
	eal[n++] = "--no-huge";
	eal[n++] = "-m";
	eal[n++] = "256";
	eal[n++] = "--no-pci";
	eal[n++] = "-l";
	eal[n++] = "0";
	eal[n++] = "--log-level=4";
	eal[n++] = prefix;
	eal[n++] = "-d";
	eal[n++] = FUZZ_DRIVER_DIR;
	eal[n] = NULL;
	ret = rte_eal_init(n, eal);
	if (ret < 0) {
		fprintf(stderr, "fuzz_rionet: EAL init failed: %s\n", rte_strerror(rte_errno));
		exit(1);
	}
	atexit(fz_fini);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "rio_sim_fz%u", i);
		ret = rte_vdev_init(name, strchr(vdev[i], ',') + 1);
		if (ret < 0) {
			fprintf(stderr, "fuzz_rionet: %s: %s\n", name, strerror(-ret));
			exit(1);
		}
	}
	fz.pool[0] = rte_pktmbuf_pool_create("fz_small", FZ_NB_MBUF, 0, 0,
					     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	fz.pool[1] = rte_pktmbuf_pool_create("fz_big", FZ_NB_MBUF, 0, 0,
					     RTE_PKTMBUF_HEADROOM + FZ_MAX_FRAME, SOCKET_ID_ANY);
	if (fz.pool[0] == NULL || fz.pool[1] == NULL) {
		fprintf(stderr, "fuzz_rionet: no mbuf pool\n");
		exit(1);
	}
	for (i = 0; i < 2; i++) {
		if (rte_eth_dev_get_port_by_name(names[i], &fz.port[i]) != 0 ||
		    fz_port_start(i) != 0) {
			fprintf(stderr, "fuzz_rionet: port %s does not start\n", names[i]);
			exit(1);
		}
	}
	fz.raw = rte_rio_mport_find("rio_sim_fz2");
	if (fz.raw == NULL || rte_rio_request_outb_mbox(fz.raw, 0, 64) != 0) {
		fprintf(stderr, "fuzz_rionet: no raw mport\n");
		exit(1);
	}
	if (fz_wait_peers() != 0) {
		fprintf(stderr, "fuzz_rionet: A does not reach B\n");
		exit(1);
	}
	rte_log_set_global_level(RTE_LOG_CRIT);
	return 0;
}

/* Receive everything on @port; every frame must be 14..max bytes and, when
 * @want is given, equal it byte for byte, padded with zeros to whole
 * double-words as a message payload is on the wire. Returns the number of
 * frames.
 */
static unsigned int
fz_rx_check(uint16_t port, const uint8_t *want, uint32_t want_len)
{
	static uint8_t padded[FZ_MAX_FRAME + 8];
	struct rte_mbuf *pkts[FZ_BURST], *s;
	unsigned int total = 0;
	uint16_t n, i;
	uint32_t sum, segs, off;

	if (want != NULL) {
		memcpy(padded, want, want_len);
		memset(padded + want_len, 0, RTE_ALIGN_CEIL(want_len, 8) - want_len);
		want = padded;
		want_len = RTE_ALIGN_CEIL(want_len, 8);
	}
	rte_delay_us(20);
	while ((n = rte_eth_rx_burst(port, 0, pkts, FZ_BURST)) > 0) {
		for (i = 0; i < n; i++) {
			FUZZ_CHECK(pkts[i]->pkt_len >= RTE_ETHER_HDR_LEN &&
				   pkts[i]->pkt_len <= FZ_MAX_FRAME, "frame of %u bytes",
				   pkts[i]->pkt_len);
			sum = 0;
			segs = 0;
			for (s = pkts[i]; s != NULL; s = s->next) {
				sum += s->data_len;
				segs++;
			}
			FUZZ_CHECK(sum == pkts[i]->pkt_len && segs == pkts[i]->nb_segs,
				   "segments hold %u bytes in %u for %u in %u", sum, segs,
				   pkts[i]->pkt_len, pkts[i]->nb_segs);
			if (want != NULL) {
				FUZZ_CHECK(pkts[i]->pkt_len == want_len, "frame of %u bytes, sent %u",
					   pkts[i]->pkt_len, want_len);
				off = 0;
				for (s = pkts[i]; s != NULL; s = s->next) {
					FUZZ_CHECK(memcmp(rte_pktmbuf_mtod(s, void *), want + off,
							  s->data_len) == 0,
						   "frame bytes differ at %u", off);
					off += s->data_len;
				}
			}
		}
		rte_pktmbuf_free_bulk(pkts, n);
		total += n;
	}
	return total;
}

static void
fz_rx(uint8_t flags, const uint8_t *data, size_t size)
{
	struct rte_rio_msg msg;
	unsigned int copies, i, got;
	uint16_t sent = 0;
	uint8_t to;

	if (size < 2)
		return;
	to = data[0] & 1;
	copies = 1 + ((data[0] >> 1) & 3);
	memset(&msg, 0, sizeof(msg));
	msg.letter = (data[0] >> 3) & 3;
	msg.destid = to;
	data++;
	size--;
	msg.len = RTE_MIN(size, (size_t)RTE_RIO_MAX_MSG_SIZE);
	memcpy(fz.frame, data, msg.len);
	msg.buf = fz.frame;
	for (i = 0; i < copies; i++)
		sent += rte_rio_send_messages(fz.raw, 0, &msg, 1);
	if (msg.len < RTE_RIO_MIN_MSG_SIZE)
		FUZZ_CHECK(sent == 0, "a %u-byte message was sent", msg.len);
	got = fz_rx_check(fz.port[to], fz.frame, msg.len);
	FUZZ_CHECK(got <= sent, "%u frames from %u messages", got, sent);
	/* Promiscuous port, a frame that fits and a ring with room: delivered. */
	if ((flags & 2) && msg.len >= RTE_ETHER_HDR_LEN && msg.len <= FZ_MAX_FRAME)
		FUZZ_CHECK(got == sent, "%u of %u frames delivered", got, sent);
}

static void
fz_tx(const uint8_t *data, size_t size)
{
	struct rte_mbuf *pkts[4], *m, *last;
	unsigned int copies, nseg, i, k, got, frames_to_b = 0;
	uint32_t len, seglen, off;
	uint16_t sent;
	char *p;

	if (size < 1)
		return;
	copies = 1 + (data[0] & 3);
	nseg = 1 + ((data[0] >> 2) & 3);
	data++;
	size--;
	len = RTE_MIN(size, (size_t)FZ_MAX_FRAME + 16);
	memcpy(fz.frame, data, RTE_MIN(len, (uint32_t)FZ_MAX_FRAME));
	for (i = 0; i < copies; i++) {
		pkts[i] = NULL;
		last = NULL;
		off = 0;
		for (k = 0; k < nseg; k++) {
			seglen = k == nseg - 1 ? len - off : len / nseg;
			m = rte_pktmbuf_alloc(fz.pool[0]);
			if (m == NULL)
				goto free;
			seglen = RTE_MIN(seglen, (uint32_t)rte_pktmbuf_tailroom(m));
			p = rte_pktmbuf_append(m, seglen);
			memcpy(p, data + off, seglen);
			off += seglen;
			if (last == NULL) {
				pkts[i] = m;
			} else {
				last->next = m;
				pkts[i]->nb_segs++;
				pkts[i]->pkt_len += seglen;
			}
			last = m;
		}
	}
	/* Frames the fabric could carry to B: unicast to B, or any group address. */
	len = pkts[0]->pkt_len;
	if (len >= RTE_ETHER_HDR_LEN && len <= FZ_MAX_FRAME) {
		static const uint8_t mac_b[] = { 0, 1, 0, 1, 0, 1 };

		if ((data[0] & 1) || memcmp(data, mac_b, sizeof(mac_b)) == 0)
			frames_to_b = copies;
	}
	sent = rte_eth_tx_burst(fz.port[0], 0, pkts, copies);
	for (i = sent; i < copies; i++)
		rte_pktmbuf_free(pkts[i]);
	if (len <= FZ_MAX_FRAME)
		memcpy(fz.frame, data, len);
	got = fz_rx_check(fz.port[1], len <= FZ_MAX_FRAME ? fz.frame : NULL, len);
	FUZZ_CHECK(got <= frames_to_b, "B got %u frames of %u it could", got, frames_to_b);
	return;
free:
	for (k = 0; k <= i && k < copies; k++)
		rte_pktmbuf_free(pkts[k]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t flags;
	unsigned int i;

	if (size < 1)
		return 0;
	flags = data[0];
	for (i = 0; i < 2; i++) {
		if (flags & 2)
			rte_eth_promiscuous_enable(fz.port[i]);
		else
			rte_eth_promiscuous_disable(fz.port[i]);
		if (flags & 4)
			rte_eth_allmulticast_enable(fz.port[i]);
		else
			rte_eth_allmulticast_disable(fz.port[i]);
	}
	if (flags & 1)
		fz_tx(data + 1, size - 1);
	else
		fz_rx(flags, data + 1, size - 1);
	return 0;
}
