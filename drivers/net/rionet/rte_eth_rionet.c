/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rionet: Ethernet over RapidIO messaging, an ethdev PMD on the rio bus.
 *
 * The driver binds every local endpoint (an mport's own device) that can
 * send and receive data messages and doorbells, and creates one ethdev port
 * named "rionet_<mport name>" for it. Remote endpoints are followed as peers
 * (rionet_peer.c) without being claimed. Wire format: rionet.h.
 *
 * Queue q polls inbound mailbox mbox+q (mbox= devarg, default 0). The port
 * uses M = max(Rx queues, Tx queues) outbound mailboxes; Tx queue t owns
 * those with (m - mbox) % nb_tx_queues == t and picks one of them per frame
 * by flow hash, so a flow stays in order and no mailbox has two writers.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "rte_eth_rionet.h"

#define RIONET_DEVARG_MBOX		"mbox"
#define RIONET_DEVARG_RX_ZERO_COPY	"rx_zero_copy"
#define RIONET_DEVARG_LETTERS		"letters"

static const char * const rionet_valid_args[] = {
	RIONET_DEVARG_MBOX,
	RIONET_DEVARG_RX_ZERO_COPY,
	RIONET_DEVARG_LETTERS,
	NULL,
};

/* What the devargs of a port ask for. */
struct rionet_devargs {
	uint8_t mbox;
	bool rx_zero_copy;
	uint8_t letters;
};

/* ------------------------------------------------------------------ */
/* Receive                                                            */

/* Per-burst receive state: what stays the same for every frame of a poll. */
struct rionet_rx_ctx {
	const struct rte_eth_dev_data *data;
	uint32_t max_frame;
	uint32_t mac_lo;			/* own MAC, bytes 0..3 and 4..5 */
	uint16_t mac_hi;
	uint16_t last_src;			/* source of the previous frame */
	struct rionet_peer_qstats *last_ps;	/* its counters, NULL: unknown source */
	uint64_t ps_packets;			/* not yet added to *last_ps */
	uint64_t ps_bytes;
};

static __rte_always_inline void
rionet_rx_ctx_init(struct rionet_rx_queue *rxq, struct rionet_rx_ctx *c)
{
	c->data = rxq->port->data;
	c->max_frame = rionet_max_wire_frame(rxq->port);
	memcpy(&c->mac_lo, &rxq->port->mac.addr_bytes[0], sizeof(c->mac_lo));
	memcpy(&c->mac_hi, &rxq->port->mac.addr_bytes[4], sizeof(c->mac_hi));
	c->last_src = UINT16_MAX;
	c->last_ps = NULL;
	c->ps_packets = 0;
	c->ps_bytes = 0;
}

/* Add what the context counted for the current source to its peer counters. */
static __rte_always_inline void
rionet_rx_ctx_flush(struct rionet_rx_ctx *c)
{
	if (c->last_ps != NULL) {
		c->last_ps->packets += c->ps_packets;
		c->last_ps->bytes += c->ps_bytes;
	}
	c->ps_packets = 0;
	c->ps_bytes = 0;
}

/* Accept or drop one received frame; counts the reason of a drop. */
static __rte_always_inline bool
rionet_rx_accept(struct rionet_rx_queue *rxq, struct rionet_rx_ctx *c,
		 const struct rte_rio_msg *msg)
{
	struct rionet_port *port = rxq->port;
	const uint8_t *dst = msg->buf;
	uint32_t lo;
	uint16_t s, hi;

	/* One unsigned compare for both bounds; then tell which one. */
	if (unlikely((uint32_t)msg->len - RTE_ETHER_HDR_LEN > c->max_frame - RTE_ETHER_HDR_LEN)) {
		if (msg->len < RTE_ETHER_HDR_LEN)
			rxq->runts++;
		else
			rxq->oversize++;
		return false;
	}
	memcpy(&lo, dst, sizeof(lo));
	memcpy(&hi, dst + 4, sizeof(hi));
	if (likely(lo == c->mac_lo && hi == c->mac_hi)) {
		/* Unicast to this port: the common case. */
	} else if (dst[0] & 1) {
		if (!rte_is_broadcast_ether_addr((const struct rte_ether_addr *)dst) &&
		    !c->data->promiscuous && !c->data->all_multicast) {
			rxq->filtered++;
			return false;
		}
	} else if (!c->data->promiscuous) {
		rxq->filtered++;
		return false;
	}
	/* Peers rarely change between frames of a burst: look the slot up once. */
	if (unlikely(msg->srcid != c->last_src)) {
		rionet_rx_ctx_flush(c);
		c->last_src = msg->srcid;
		s = msg->srcid < port->max_destids ? rionet_map_get(port, msg->srcid) : 0;
		if (s != 0)
			c->last_ps = &rxq->peer[s - 1];
		else if (msg->srcid == port->destid && port->loopback)
			c->last_ps = &rxq->peer[RIONET_SELF_SLOT];
		else
			c->last_ps = NULL;
	}
	if (unlikely(c->last_ps == NULL))
		rxq->unknown_src++;
	c->ps_packets++;
	c->ps_bytes += msg->len;
	return true;
}

/*
 * Prepare an mbuf taken from the pool for direct receive: rte_pktmbuf_reset()
 * less what a free mbuf already has (refcnt 1, next NULL, one segment: the
 * pool's invariants) and what receive sets (lengths, port). Direct mode
 * means the data room exceeds the headroom, so data_off needs no clamp.
 */
static __rte_always_inline void
rionet_rx_mbuf_init(struct rte_mbuf *m)
{
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->ol_flags &= RTE_MBUF_F_EXTERNAL;
	m->packet_type = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	m->tx_offload = 0;
}

/* Post mbuf data areas until the inbound ring is full or mbufs run out. */
static void
rionet_rx_refill(struct rionet_rx_queue *rxq)
{
	struct rte_mbuf *mbufs[RIONET_BURST];
	void *bufs[RIONET_BURST];
	uint32_t room, k, i, pos, first;
	uint16_t posted;

	room = rxq->entries - (rxq->tail - rxq->head);
	while (room > 0) {
		k = RTE_MIN(room, (uint32_t)RIONET_BURST);
		if (rte_mempool_get_bulk(rxq->mp, (void **)mbufs, k) != 0) {
			rxq->nombuf++;
			return;
		}
		for (i = 0; i < k; i++) {
			rionet_rx_mbuf_init(mbufs[i]);
			bufs[i] = rte_pktmbuf_mtod(mbufs[i], void *);
		}
		/* Into the FIFO in at most two runs (ring wrap). */
		pos = rxq->tail & (rxq->entries - 1);
		first = RTE_MIN(k, rxq->entries - pos);
		memcpy(&rxq->sw_ring[pos], mbufs, first * sizeof(mbufs[0]));
		if (first < k)
			memcpy(&rxq->sw_ring[0], &mbufs[first], (k - first) * sizeof(mbufs[0]));
		posted = rte_rio_add_inb_buffers(rionet_port_mport(rxq->port), rxq->mbox, bufs, k);
		rxq->tail += posted;
		if (posted < k) {
			rte_pktmbuf_free_bulk(&mbufs[posted], k - posted);
			return;
		}
		room -= k;
	}
}

/* Mbuf data areas were posted: the frames are already in place. */
static uint16_t
rionet_rx_direct(struct rionet_rx_queue *rxq, struct rte_mbuf **pkts, uint16_t want,
		 uint16_t *nb_msgs)
{
	struct rte_rio_msg *msgs = rxq->msgs;
	struct rionet_rx_ctx c;
	uint32_t head = rxq->head, mask = rxq->entries - 1;
	uint64_t bytes = 0;
	struct rte_mbuf *m;
	uint16_t got, i, nb = 0, port_id;

	got = rte_rio_recv_messages(rionet_port_mport(rxq->port), rxq->mbox, msgs, want);
	rionet_rx_ctx_init(rxq, &c);
	port_id = c.data->port_id;
	for (i = 0; i < got; i++) {
		m = rxq->sw_ring[head++ & mask];
		if (unlikely(msgs[i].buf != rte_pktmbuf_mtod(m, void *) ||
			     !rionet_rx_accept(rxq, &c, &msgs[i]))) {
			rte_pktmbuf_free(m);
			continue;
		}
		m->data_len = msgs[i].len;
		m->pkt_len = msgs[i].len;
		m->port = port_id;
		bytes += msgs[i].len;
		pkts[nb++] = m;
	}
	rionet_rx_ctx_flush(&c);
	rxq->head = head;
	rxq->bytes += bytes;
	rionet_rx_refill(rxq);
	*nb_msgs = got;
	return nb;
}

/* Copy a frame into a (chained) mbuf; false when a segment is missing. */
static bool
rionet_rx_copy(struct rionet_rx_queue *rxq, struct rte_mbuf *head, const uint8_t *src,
	       uint16_t len)
{
	struct rte_mbuf *m = head, *seg;
	uint16_t room, k, left = len;

	head->pkt_len = len;
	for (;;) {
		room = rte_pktmbuf_tailroom(m);
		k = RTE_MIN(room, left);
		rte_memcpy(rte_pktmbuf_mtod(m, uint8_t *), src, k);
		m->data_len = k;
		src += k;
		left -= k;
		if (left == 0)
			return true;
		seg = rte_pktmbuf_alloc(rxq->mp);
		if (unlikely(seg == NULL))
			return false;
		m->next = seg;
		head->nb_segs++;
		m = seg;
	}
}

/* Top up the stash of allocated mbufs (bulk); @return how many it holds. */
static __rte_always_inline uint16_t
rionet_rx_stash_fill(struct rionet_rx_queue *rxq)
{
	uint16_t k = RIONET_BURST - rxq->nb_stash, i;

	if (k >= RIONET_BURST / 2) {
		/* As rte_pktmbuf_alloc_bulk(), less what the pool's invariants give. */
		if (likely(rte_mempool_get_bulk(rxq->mp, (void **)&rxq->stash[rxq->nb_stash],
						k) == 0)) {
			for (i = 0; i < k; i++)
				rionet_rx_mbuf_init(rxq->stash[rxq->nb_stash + i]);
			rxq->nb_stash += k;
		} else if (rxq->nb_stash == 0) {
			rxq->nombuf++;
		}
	}
	return rxq->nb_stash;
}

/* Return the stashed mbufs to their pool (queue stop and release). */
static void
rionet_rx_stash_free(struct rionet_rx_queue *rxq)
{
	if (rxq->nb_stash > 0)
		rte_pktmbuf_free_bulk(rxq->stash, rxq->nb_stash);
	rxq->nb_stash = 0;
}

/*
 * Bounce buffers were posted: copy into mbufs, then post them again in order.
 * The mbufs come from a stash refilled in bulk, so an empty or short poll
 * costs no allocation and no free; no more messages are taken than the
 * stash holds, so a message never waits for an mbuf outside the ring.
 */
static uint16_t
rionet_rx_bounce(struct rionet_rx_queue *rxq, struct rte_mbuf **pkts, uint16_t want,
		 uint16_t *nb_msgs)
{
	struct rte_rio_msg *msgs = rxq->msgs;
	void *bufs[RIONET_BURST];
	struct rionet_rx_ctx c;
	struct rte_mbuf *m;
	uint16_t got, i, nb = 0;

	*nb_msgs = 0;
	want = RTE_MIN(want, rionet_rx_stash_fill(rxq));
	if (unlikely(want == 0))
		return 0;	/* The messages wait in the inbound ring: nothing is lost. */
	got = rte_rio_recv_messages(rionet_port_mport(rxq->port), rxq->mbox, msgs, want);
	rionet_rx_ctx_init(rxq, &c);
	for (i = 0; i < got; i++)
		bufs[i] = msgs[i].buf;
	for (i = 0; i < got; i++) {
		if (!rionet_rx_accept(rxq, &c, &msgs[i]))
			continue;
		m = rxq->stash[--rxq->nb_stash];
		if (unlikely(!rionet_rx_copy(rxq, m, msgs[i].buf, msgs[i].len))) {
			/* A segment was missing: the frame is dropped. */
			rxq->nombuf++;
			rte_pktmbuf_free(m);
			continue;
		}
		m->port = c.data->port_id;
		rxq->bytes += msgs[i].len;
		pkts[nb++] = m;
	}
	rionet_rx_ctx_flush(&c);
	if (got > 0)
		rte_rio_add_inb_buffers(rionet_port_mport(rxq->port), rxq->mbox, bufs, got);
	*nb_msgs = got;
	return nb;
}

/* rx_zero_copy: frames up to this length are copied into the mbuf all the same. */
#define RIONET_RX_ZC_COPY_MAX	256

/*
 * rx_zero_copy: the frames stay where the mport received them, each attached
 * to a stashed mbuf as its external buffer; freeing the mbuf gives the place
 * back to the mailbox. No more messages are taken than the stash holds.
 */
static uint16_t
rionet_rx_inplace(struct rionet_rx_queue *rxq, struct rte_mbuf **pkts, uint16_t want,
		  uint16_t *nb_msgs)
{
	struct rte_mbuf_ext_shared_info *shinfo[RIONET_BURST];
	struct rte_rio_msg *msgs = rxq->msgs;
	struct rionet_rx_ctx c;
	uint64_t bytes = 0;
	struct rte_mbuf *m;
	uint16_t got, i, nb = 0, port_id;

	*nb_msgs = 0;
	want = RTE_MIN(want, rionet_rx_stash_fill(rxq));
	if (unlikely(want == 0))
		return 0;	/* The messages wait in the inbound ring: nothing is lost. */
	got = rte_rio_recv_messages_inplace(rionet_port_mport(rxq->port), rxq->mbox, msgs,
					    shinfo, want);
	rionet_rx_ctx_init(rxq, &c);
	port_id = c.data->port_id;
	for (i = 0; i < got; i++) {
		if (unlikely(!rionet_rx_accept(rxq, &c, &msgs[i]))) {
			rte_rio_inb_message_release(msgs[i].buf, shinfo[i]);
			continue;
		}
		m = rxq->stash[--rxq->nb_stash];
		if (msgs[i].len <= RIONET_RX_ZC_COPY_MAX) {
			/* Short: a copy costs less than an external buffer's life. */
			rte_memcpy(rte_pktmbuf_mtod(m, void *), msgs[i].buf, msgs[i].len);
			rte_rio_inb_message_release(msgs[i].buf, shinfo[i]);
		} else {
			rte_pktmbuf_attach_extbuf(m, msgs[i].buf, RTE_BAD_IOVA, msgs[i].len,
						  shinfo[i]);
		}
		m->data_len = msgs[i].len;
		m->pkt_len = msgs[i].len;
		m->port = port_id;
		bytes += msgs[i].len;
		pkts[nb++] = m;
	}
	rionet_rx_ctx_flush(&c);
	rxq->bytes += bytes;
	*nb_msgs = got;
	return nb;
}

static uint16_t
rionet_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rionet_rx_queue *rxq = queue;
	uint16_t nb = 0, want, got, nb_msgs;

	while (nb < nb_pkts) {
		want = RTE_MIN(nb_pkts - nb, RIONET_BURST);
		if (rxq->inplace)
			got = rionet_rx_inplace(rxq, pkts + nb, want, &nb_msgs);
		else if (rxq->direct)
			got = rionet_rx_direct(rxq, pkts + nb, want, &nb_msgs);
		else
			got = rionet_rx_bounce(rxq, pkts + nb, want, &nb_msgs);
		nb += got;
		if (nb_msgs < want)
			break;
	}
	rxq->packets += nb;
	return nb;
}

/* ------------------------------------------------------------------ */
/* Transmit                                                           */

enum rionet_tx_verdict {
	RIONET_TX_SEND = 0,
	RIONET_TX_SEND_MCAST,
	RIONET_TX_OVERSIZE,
	RIONET_TX_RUNT,
	RIONET_TX_UNKNOWN,
	RIONET_TX_NO_MBOX,
};

/* No back-pressure stop in a flush. */
#define RIONET_TX_NO_STOP	UINT16_MAX

/*
 * One step of the general Tx path: what rionet_tx_stage() staged and
 * rionet_tx_flush() has not sent yet, and per frame what
 * rionet_tx_account() counts.
 */
struct rionet_tx_step {
	uint32_t max_frame;
	uint16_t nb_msgs;		/* staged in txq->msgs[], not sent yet */
	uint16_t nb_lin;		/* txq->lin[] buffers in use */
	uint8_t mbox[RIONET_TX_MSGS];	/* mailbox of each staged message */
	uint8_t verdict[RIONET_BURST];	/* enum rionet_tx_verdict */
	uint16_t ok[RIONET_BURST];	/* copies accepted */
	uint16_t done[RIONET_BURST];	/* copies accepted or dropped */
};

/* 32-bit load from any address (frames and headers need not be aligned). */
static __rte_always_inline uint32_t
rionet_load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Cheap flow hash of the L2/L3/L4 header in the first segment. */
static uint32_t
rionet_flow_hash(const struct rte_mbuf *m, const uint8_t *data)
{
	const struct rte_ether_hdr *eth = (const void *)data;
	uint32_t len = m->data_len, off = sizeof(*eth), h, l4 = 0;
	uint16_t type = eth->ether_type;
	const struct rte_ipv4_hdr *ip4;
	const struct rte_ipv6_hdr *ip6;
	uint8_t proto;
	int i;

	if (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH)
		return m->hash.rss;
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN) && len >= off + 4) {
		type = *(const uint16_t *)(data + off + 2);
		off += 4;
	}
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) && len >= off + sizeof(*ip4)) {
		ip4 = (const void *)(data + off);
		h = ip4->src_addr ^ ip4->dst_addr;
		proto = ip4->next_proto_id;
		l4 = off + rte_ipv4_hdr_len(ip4);
		if (ip4->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_OFFSET_MASK |
							    RTE_IPV4_HDR_MF_FLAG))
			proto = 0;
	} else if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6) &&
		   len >= off + sizeof(*ip6)) {
		ip6 = (const void *)(data + off);
		h = 0;
		/* Source and destination addresses, adjacent: 8 words. The cast
		 * takes both the uint8_t[16] of DPDK 22.11 and the struct
		 * rte_ipv6_addr of 24.11.
		 */
		for (i = 0; i < 8; i++)
			h ^= rionet_load32((const uint8_t *)&ip6->src_addr + 4 * i);
		proto = ip6->proto;
		l4 = off + sizeof(*ip6);
	} else {
		h = rionet_load32(data) ^ rionet_load32(data + 4) ^ rionet_load32(data + 8) ^
			type;
		proto = 0;
	}
	if ((proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP) &&
	    len >= l4 + 4)
		h ^= rionet_load32(data + l4);
	h ^= h >> 16;
	h *= 0x45d9f3bu;
	h ^= h >> 16;
	return h;
}

/*
 * Send the staged messages, run by run of one mailbox, in order; none stays
 * staged. Accepted copies and dropped copies (ERROR, no response, RETRY on
 * a frame of which a copy was already handled) are counted in ok[]/done[]
 * of their frame. A RETRY on the first copy of a frame stops: that frame is
 * returned to the caller (back-pressure). @return the frame to stop at, or
 * RIONET_TX_NO_STOP.
 */
static uint16_t
rionet_tx_flush(struct rionet_tx_queue *txq, struct rionet_tx_step *st)
{
	struct rte_rio_mport *mport = rionet_port_mport(txq->port);
	struct rte_rio_msg *msgs = txq->msgs;
	uint16_t *ok = st->ok, *done = st->done;
	const uint8_t *mbox = st->mbox;
	uint16_t off = 0, run, sent, k, f, nb_msgs = st->nb_msgs;
	struct rionet_peer_qstats *ps;

	st->nb_msgs = 0;

	while (off < nb_msgs) {
		for (run = off + 1; run < nb_msgs && mbox[run] == mbox[off]; run++)
			;
		sent = rte_rio_send_messages(mport, mbox[off], &msgs[off], run - off);
		for (k = off; k < off + sent; k++) {
			f = txq->msg_frame[k];
			ok[f]++;
			done[f]++;
			ps = &txq->peer[txq->msg_peer[k]];
			ps->packets++;
			ps->bytes += msgs[k].len;
		}
		off += sent;
		if (off == run)
			continue;
		f = txq->msg_frame[off];
		ps = &txq->peer[txq->msg_peer[off]];
		if (msgs[off].status == -EAGAIN) {
			ps->ring_full++;
			if (done[f] == 0) {
				txq->ring_full++;
				return f;
			}
		} else {
			ps->errors++;
			/* No response: the peer may be gone (see rionet_peer.c). */
			if (msgs[off].status == -ETIMEDOUT)
				ps->timeouts++;
		}
		done[f]++;
		off++;
	}
	return RIONET_TX_NO_STOP;
}

/*
 * Free transmitted frames: one bulk put to the pool for the usual direct,
 * single-segment, unshared mbufs of one pool (what rte_pktmbuf_free_bulk()
 * does, without its per-segment walk); anything else is freed one by one.
 */
static __rte_always_inline void
rionet_tx_free(struct rte_mbuf **pkts, uint16_t n)
{
	void *objs[RIONET_BURST];
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	uint16_t i, k = 0;

	if (unlikely(n == 0))
		return;
	mp = pkts[0]->pool;
	for (i = 0; i < n; i++) {
		m = pkts[i];
		if (likely(m->pool == mp && m->nb_segs == 1 && RTE_MBUF_DIRECT(m) &&
			   rte_mbuf_refcnt_read(m) == 1)) {
			/* One segment: next is NULL already, as a free mbuf needs. */
			objs[k++] = m;
		} else {
			rte_pktmbuf_free(m);
		}
	}
	if (k > 0)
		rte_mempool_put_bulk(mp, objs, k);
}

/*
 * The letter of the next message toward peer slot @slot. A sender may have
 * one message in flight per letter, mailbox and target (RapidIO Part 2), so
 * rotating the letters lets up to txq->letters messages to one peer overlap
 * instead of each waiting for the previous one's last response. Messages
 * leave in the order they are posted, and a refused one (RETRY) goes back
 * to the caller with all after it, so a flow's frames keep their order.
 */
static __rte_always_inline uint8_t
rionet_tx_letter(struct rionet_tx_queue *txq, uint16_t slot)
{
	uint8_t letter = txq->next_letter[slot];

	txq->next_letter[slot] = letter + 1 == txq->letters ? 0 : letter + 1;
	return letter;
}

/* rionet_mac_to_destid() with one 32-bit compare of the prefix. */
static __rte_always_inline bool
rionet_tx_mac_destid(const uint8_t *mac, uint16_t *destid)
{
	uint32_t w, prefix;

	memcpy(&w, mac, sizeof(w));
	memcpy(&prefix, rionet_mac_prefix, sizeof(prefix));
	if (w != prefix)
		return false;
	*destid = (uint16_t)(mac[4] << 8 | mac[5]);
	return true;
}

/*
 * Fast path, staging: every frame is one segment within the MTU, unicast
 * to an active peer, and the queue owns one mailbox. No side effect:
 * @return false to take the general path for the whole step instead.
 */
static __rte_always_inline bool
rionet_tx_stage_unicast(struct rionet_tx_queue *txq, struct rte_mbuf **pkts, uint16_t n,
			bool *one_peer, bool *external, uint64_t *bytes)
{
	struct rionet_port *port = txq->port;
	uint32_t max_frame = rionet_max_frame(port);
	uint16_t i, destid, s = 0, peer_destid = 0, peers = 0;
	uint32_t last = UINT32_MAX;	/* no device ID: the first frame looks its peer up */
	uint64_t sum = 0;
	uint64_t ext = 0;
	struct rte_rio_msg *msg;
	const uint8_t *data;
	struct rte_mbuf *m;

	for (i = 0; i < n; i++) {
		m = pkts[i];
		/* One unsigned compare for both length bounds. */
		if (unlikely(m->nb_segs != 1 ||
			     m->pkt_len - RTE_ETHER_HDR_LEN > max_frame - RTE_ETHER_HDR_LEN))
			return false;
		ext |= m->ol_flags;
		data = rte_pktmbuf_mtod(m, const uint8_t *);
		/* The rionet prefix is unicast: multicast takes the general path. */
		if (unlikely(!rionet_tx_mac_destid(data, &destid)))
			return false;
		if (unlikely(destid != last)) {
			if (destid >= port->max_destids)
				return false;
			s = rionet_map_get(port, destid);
			if (s == 0 || !rionet_peer_active(&port->peers[--s]))
				return false;
			/* Not on the queue's mailbox: the general path counts the drop. */
			if (unlikely((rionet_peer_mbox_mask(&port->peers[s]) & txq->mbox_bits) == 0))
				return false;
			peer_destid = port->peers[s].destid;
			last = destid;
			peers++;
		}
		msg = &txq->msgs[i];
		msg->buf = (void *)(uintptr_t)data;
		msg->len = m->pkt_len;
		msg->destid = peer_destid;
		txq->msg_peer[i] = s;
		sum += m->pkt_len;
	}
	/* Staged for good: only now may the letters move on. */
	for (i = 0; i < n; i++)
		txq->msgs[i].letter = rionet_tx_letter(txq, txq->msg_peer[i]);
	*one_peer = peers == 1;
	*bytes = sum;
	/*
	 * Frames an rx_zero_copy queue received carry an external buffer, which
	 * only rte_pktmbuf_free() gives back: no fast free for such a step, even
	 * when the application enabled the offload (stock testpmd enables it
	 * whenever the port offers it).
	 */
	*external = (ext & RTE_MBUF_F_EXTERNAL) != 0;
	return true;
}

/*
 * Fast path of loopback mode (lpbk_mode=1), staging: every frame is one
 * segment within the MTU, and goes to the port's own device ID whatever its
 * destination address. @return false to take the general path instead.
 */
static __rte_always_inline bool
rionet_tx_stage_loopback(struct rionet_tx_queue *txq, struct rte_mbuf **pkts, uint16_t n,
			 bool *one_peer, bool *external, uint64_t *bytes)
{
	struct rionet_port *port = txq->port;
	uint32_t max_frame = rionet_max_frame(port);
	struct rte_rio_msg *msg;
	uint64_t sum = 0, ext = 0;
	struct rte_mbuf *m;
	uint16_t i;

	for (i = 0; i < n; i++) {
		m = pkts[i];
		if (unlikely(m->nb_segs != 1 ||
			     m->pkt_len - RTE_ETHER_HDR_LEN > max_frame - RTE_ETHER_HDR_LEN))
			return false;
		ext |= m->ol_flags;
		msg = &txq->msgs[i];
		msg->buf = rte_pktmbuf_mtod(m, void *);
		msg->len = m->pkt_len;
		msg->destid = port->destid;
		txq->msg_peer[i] = RIONET_SELF_SLOT;
		sum += m->pkt_len;
	}
	for (i = 0; i < n; i++)
		txq->msgs[i].letter = rionet_tx_letter(txq, RIONET_SELF_SLOT);
	*one_peer = true;
	*bytes = sum;
	*external = (ext & RTE_MBUF_F_EXTERNAL) != 0;
	return true;
}

/* Fast path, sending what rionet_tx_stage_unicast() staged. @return frames consumed. */
static __rte_always_inline uint16_t
rionet_tx_send_unicast(struct rionet_tx_queue *txq, struct rte_mbuf **pkts, uint16_t n,
		       bool one_peer, bool external, uint64_t staged_bytes)
{
	struct rte_rio_mport *mport = rionet_port_mport(txq->port);
	struct rte_rio_msg *msgs = txq->msgs;
	struct rionet_peer_qstats *ps;
	uint16_t off = 0, sent, k;
	uint64_t bytes = 0, b;

	while (off < n) {
		sent = rte_rio_send_messages(mport, txq->mbox[0], &msgs[off], n - off);
		if (likely(one_peer)) {
			/* Every frame of the step goes to the same peer. */
			if (likely(off == 0 && sent == n))
				b = staged_bytes;
			else
				for (k = off, b = 0; k < off + sent; k++)
					b += msgs[k].len;
			ps = &txq->peer[txq->msg_peer[0]];
			ps->packets += sent;
			ps->bytes += b;
			bytes += b;
		} else {
			for (k = off; k < off + sent; k++) {
				ps = &txq->peer[txq->msg_peer[k]];
				ps->packets++;
				ps->bytes += msgs[k].len;
				bytes += msgs[k].len;
			}
		}
		txq->packets += sent;
		off += sent;
		if (off == n)
			break;
		ps = &txq->peer[txq->msg_peer[off]];
		if (msgs[off].status == -EAGAIN) {
			/* Back-pressure: the frames from here on go back to the caller. */
			ps->ring_full++;
			txq->ring_full++;
			break;
		}
		/* Never accepted (ERROR, no response): dropped and counted. */
		ps->errors++;
		/* No response: the peer may be gone (see rionet_peer.c). */
		if (msgs[off].status == -ETIMEDOUT)
			ps->timeouts++;
		txq->errors++;
		off++;
	}
	txq->bytes += bytes;
	if (unlikely(external))
		rte_pktmbuf_free_bulk(pkts, off);
	/* Staged frames are single segments: the offload's contract does the rest. */
	else if (txq->fast_free && off > 0)
		rte_mempool_put_bulk(pkts[0]->pool, (void **)pkts, off);
	else
		rionet_tx_free(pkts, off);
	return off;
}

/*
 * General path, staging frame @i of the step: its verdict, then a message
 * per copy (unicast: the peer of the destination address; multicast and
 * broadcast: every active peer; loopback: the own device ID), flushing
 * when the messages or the linearization buffers run out. @return the
 * frame to stop at (a flush met back-pressure), or RIONET_TX_NO_STOP.
 */
static uint16_t
rionet_tx_stage(struct rionet_tx_queue *txq, struct rionet_tx_step *st, struct rte_mbuf *m,
		uint16_t i)
{
	struct rionet_port *port = txq->port;
	bool loopback = port->loopback, mcast, refused = false;
	uint16_t s, copies = 0, destid, stop;
	uint32_t hash = 0;
	const uint8_t *data;
	uint8_t mb, mask;

	st->verdict[i] = RIONET_TX_SEND;
	if (unlikely(m->pkt_len > st->max_frame)) {
		st->verdict[i] = RIONET_TX_OVERSIZE;
		return RIONET_TX_NO_STOP;
	}
	if (unlikely(m->pkt_len < RTE_ETHER_HDR_LEN)) {
		st->verdict[i] = RIONET_TX_RUNT;
		return RIONET_TX_NO_STOP;
	}
	if (m->nb_segs > 1) {
		if (st->nb_lin == RIONET_TX_LIN_BUFS) {
			stop = rionet_tx_flush(txq, st);
			st->nb_lin = 0;
			if (stop != RIONET_TX_NO_STOP)
				return stop;
		}
		data = rte_pktmbuf_read(m, 0, m->pkt_len, txq->lin[st->nb_lin++]);
	} else {
		data = rte_pktmbuf_mtod(m, const uint8_t *);
	}
	/* A flow keeps to one mailbox of a peer: its frames keep their order. */
	if (txq->nb_mbox > 1)
		hash = rionet_flow_hash(m, data);

	mcast = (data[0] & 1) && !loopback;
	/* Loopback: one copy, to the own device ID, whatever the address. */
	for (s = 0; s < port->nb_peers || loopback; s++) {
		if (loopback) {
			s = RIONET_SELF_SLOT;
			destid = port->destid;
			mask = port->in_mbox_open;
		} else if (mcast) {
			/* Multicast and broadcast: every active peer. */
			if (!rionet_peer_active(&port->peers[s]))
				continue;
			destid = port->peers[s].destid;
			mask = rionet_peer_mbox_mask(&port->peers[s]);
		} else {
			/* Unicast: the peer whose device ID is in the MAC. */
			if (!rionet_mac_to_destid(data, &destid) || destid >= port->max_destids)
				break;
			s = rionet_map_get(port, destid);
			if (s == 0 || !rionet_peer_active(&port->peers[--s]))
				break;
			mask = rionet_peer_mbox_mask(&port->peers[s]);
		}
		/* Only to a mailbox the peer receives on: another one answers ERROR. */
		mask &= RTE_LEN2MASK(RTE_RIO_MAX_MBOX, uint8_t);
		if (unlikely(txq->mbox_sel[mask].n == 0)) {
			txq->no_mbox++;
			refused = true;
			if (!mcast)
				break;
			continue;
		}
		mb = txq->mbox_sel[mask].mbox[txq->mbox_sel[mask].n == 1 ? 0 :
						hash % txq->mbox_sel[mask].n];
		if (st->nb_msgs == RIONET_TX_MSGS) {
			stop = rionet_tx_flush(txq, st);
			if (stop != RIONET_TX_NO_STOP)
				return stop;
		}
		txq->msgs[st->nb_msgs].buf = (void *)(uintptr_t)data;
		txq->msgs[st->nb_msgs].len = m->pkt_len;
		txq->msgs[st->nb_msgs].destid = destid;
		txq->msgs[st->nb_msgs].letter = rionet_tx_letter(txq, s);
		txq->msg_frame[st->nb_msgs] = i;
		txq->msg_peer[st->nb_msgs] = s;
		st->mbox[st->nb_msgs] = mb;
		st->nb_msgs++;
		copies++;
		if (!mcast)
			break;
	}
	if (copies == 0)
		st->verdict[i] = refused ? RIONET_TX_NO_MBOX : RIONET_TX_UNKNOWN;
	else if (mcast)
		st->verdict[i] = RIONET_TX_SEND_MCAST;
	return RIONET_TX_NO_STOP;
}

/*
 * General path, accounting for frames [0, @n) of the step, all staged and
 * flushed: a frame with an accepted copy is sent, one without is an error,
 * and the drop reasons and multicast copies are counted.
 */
static void
rionet_tx_account(struct rionet_tx_queue *txq, struct rte_mbuf **pkts, uint16_t n,
		  const struct rionet_tx_step *st)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		switch (st->verdict[i]) {
		case RIONET_TX_OVERSIZE:
			txq->oversize++;
			break;
		case RIONET_TX_RUNT:
			txq->runts++;
			break;
		case RIONET_TX_UNKNOWN:
			txq->unknown_dst++;
			break;
		case RIONET_TX_NO_MBOX:
			break;	/* counted per copy in txq->no_mbox */
		case RIONET_TX_SEND_MCAST:
			txq->mcast_copies += st->ok[i];
			/* fall through */
		default:
			if (pkts[i]->nb_segs > 1)
				txq->linearized++;
			break;
		}
		if (st->ok[i] > 0) {
			txq->packets++;
			txq->bytes += pkts[i]->pkt_len;
		} else {
			txq->errors++;
		}
	}
}

/*
 * General path: handle up to RIONET_BURST frames (stage, flush, account).
 * @return frames consumed (sent or dropped).
 */
static uint16_t
rionet_tx_step(struct rionet_tx_queue *txq, struct rte_mbuf **pkts, uint16_t n)
{
	struct rionet_tx_step st;
	uint16_t i, stop = RIONET_TX_NO_STOP;

	st.max_frame = rionet_max_frame(txq->port);
	st.nb_msgs = 0;
	st.nb_lin = 0;
	memset(st.ok, 0, sizeof(st.ok));
	memset(st.done, 0, sizeof(st.done));
	for (i = 0; i < n && stop == RIONET_TX_NO_STOP; i++)
		stop = rionet_tx_stage(txq, &st, pkts[i], i);
	if (stop == RIONET_TX_NO_STOP && st.nb_msgs > 0)
		stop = rionet_tx_flush(txq, &st);
	if (stop == RIONET_TX_NO_STOP)
		stop = n;
	rionet_tx_account(txq, pkts, stop, &st);
	/* Every accepted message was copied by the mport: free each frame once. */
	rionet_tx_free(pkts, stop);
	return stop;
}

static uint16_t
rionet_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rionet_tx_queue *txq = queue;
	bool loopback = txq->port->loopback;
	uint16_t nb = 0, want, done;
	bool one_peer, external;
	uint64_t bytes;

	while (nb < nb_pkts) {
		want = RTE_MIN(nb_pkts - nb, RIONET_BURST);
		if (likely(txq->nb_mbox == 1) &&
		    (likely(!loopback) ?
		     rionet_tx_stage_unicast(txq, pkts + nb, want, &one_peer, &external, &bytes) :
		     rionet_tx_stage_loopback(txq, pkts + nb, want, &one_peer, &external, &bytes)))
			done = rionet_tx_send_unicast(txq, pkts + nb, want, one_peer, external,
						      bytes);
		else
			done = rionet_tx_step(txq, pkts + nb, want);
		nb += done;
		if (done < want)
			break;
	}
	return nb;
}

/* ------------------------------------------------------------------ */
/* Control path                                                       */

static int
rionet_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct rionet_port *port = dev->data->dev_private;

	info->if_index = 0;
	info->max_mac_addrs = 1;
	info->max_rx_pktlen = RIONET_MAX_FRAME;
	info->min_rx_bufsize = 0;
	info->min_mtu = RIONET_MIN_MTU;
	info->max_mtu = RIONET_MAX_MTU;
	info->max_rx_queues = port->max_queues;
	info->max_tx_queues = port->max_queues;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->rx_queue_offload_capa = 0;
	info->tx_queue_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->flow_type_rss_offloads = 0;
	info->speed_capa = RTE_ETH_LINK_SPEED_FIXED | RTE_ETH_LINK_SPEED_20G;
	info->rx_desc_lim.nb_max = RIONET_MAX_DESC;
	info->rx_desc_lim.nb_min = RIONET_MIN_DESC;
	info->rx_desc_lim.nb_align = 1;
	info->tx_desc_lim.nb_max = RIONET_MAX_DESC;
	info->tx_desc_lim.nb_min = RIONET_MIN_DESC;
	info->tx_desc_lim.nb_align = 1;
	info->default_rxportconf.ring_size = RIONET_DEFAULT_RX_DESC;
	info->default_txportconf.ring_size = RIONET_DEFAULT_DESC;
	info->default_rxportconf.burst_size = RIONET_BURST;
	info->default_txportconf.burst_size = RIONET_BURST;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	info->dev_capa = 0;
	return 0;
}

static int
rionet_dev_configure(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	uint32_t lpbk_mode = dev->data->dev_conf.lpbk_mode;

	if (dev->data->nb_rx_queues > port->max_queues ||
	    dev->data->nb_tx_queues > port->max_queues) {
		RIONET_LOG(ERR, "%s: at most %u queue pairs with mbox=%u", port->name,
			   port->max_queues, port->mbox_base);
		return -EINVAL;
	}
	if (lpbk_mode > 1) {
		RIONET_LOG(ERR, "%s: lpbk_mode %u: 0 (off) or 1 (every frame to the port's own device ID)",
			   port->name, lpbk_mode);
		return -EINVAL;
	}
	port->loopback = lpbk_mode == 1;
	/* ethdev stored rxmode.mtu in data->mtu without calling mtu_set. */
	rionet_set_max_frame(port, dev->data->mtu + RTE_ETHER_HDR_LEN);
	return 0;
}

static int
rionet_link_update(struct rte_eth_dev *dev, int wait_to_complete)
{
	struct rionet_port *port = dev->data->dev_private;
	int ret;

	RTE_SET_USED(wait_to_complete);
	rte_spinlock_lock(&port->lock);
	if (port->started)
		rionet_local_link_check(port);
	ret = rionet_link_refresh(port);
	rte_spinlock_unlock(&port->lock);
	return ret;
}

/* Close every mailbox the port opened and give back posted buffers. */
static void
rionet_mbox_close_all(struct rionet_port *port)
{
	struct rte_eth_dev *dev = port->eth_dev;
	struct rionet_rx_queue *rxq;
	uint16_t q;
	uint8_t m;

	for (m = 0; m < RTE_RIO_MAX_MBOX; m++) {
		if (port->in_mbox_open & (1u << m))
			rte_rio_release_inb_mbox(rionet_port_mport(port), m);
		if (port->out_mbox_open & (1u << m))
			rte_rio_release_outb_mbox(rionet_port_mport(port), m);
	}
	port->in_mbox_open = 0;
	port->out_mbox_open = 0;
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		rxq = dev->data->rx_queues[q];
		if (rxq == NULL)
			continue;
		rionet_rx_stash_free(rxq);
		if (!rxq->direct)
			continue;
		while (rxq->head != rxq->tail) {
			rte_pktmbuf_free(rxq->sw_ring[rxq->head & (rxq->entries - 1)]);
			rxq->head++;
		}
		rxq->head = 0;
		rxq->tail = 0;
	}
}

static int
rionet_rxq_start(struct rionet_port *port, struct rionet_rx_queue *rxq)
{
	void *bufs[RIONET_BURST];
	uint32_t i, k, j;
	int ret;

	ret = rte_rio_request_inb_mbox(rionet_port_mport(port), rxq->mbox, rxq->entries);
	if (ret < 0) {
		RIONET_LOG(ERR, "%s: cannot open inbound mailbox %u (%d)", port->name,
			   rxq->mbox, ret);
		return ret;
	}
	port->in_mbox_open |= 1u << rxq->mbox;
	rxq->head = 0;
	rxq->tail = 0;
	rxq->inplace = port->rx_zero_copy;
	if (rxq->inplace) {
		rxq->direct = false;
		if (rionet_max_wire_frame(port) > port->inplace_max) {
			RIONET_LOG(ERR, "%s: rx_zero_copy takes frames up to %u bytes, MTU %u: %u",
				   port->name, port->inplace_max, port->data->mtu,
				   rionet_max_frame(port));
			return -EINVAL;
		}
		/* The mport drops longer messages itself: nothing to post or declare. */
		return 0;
	}
	/*
	 * Direct mode when an mbuf holds the largest frame the port accepts:
	 * the mailbox is told the buffer size, drops longer messages itself
	 * and writes every other one straight into an mbuf.
	 */
	rxq->direct = rxq->mbuf_room >= rionet_max_wire_frame(port);
	if (rxq->direct) {
		ret = rte_rio_set_inb_buf_size(rionet_port_mport(port), rxq->mbox, rxq->mbuf_room);
		if (ret == -ENOTSUP) {
			rxq->direct = false;
		} else if (ret < 0) {
			RIONET_LOG(ERR, "%s: mailbox %u refused %u-byte receive buffers (%d)",
				   port->name, rxq->mbox, rxq->mbuf_room, ret);
			return ret;
		}
	}
	if (rxq->direct) {
		rionet_rx_refill(rxq);
		return 0;
	}
	if (rxq->bounce == NULL) {
		rxq->bounce = rte_malloc_socket("rionet_rx_bounce",
						(size_t)rxq->entries * RIONET_MAX_FRAME,
						RTE_CACHE_LINE_SIZE, rxq->socket_id);
		if (rxq->bounce == NULL) {
			RIONET_LOG(ERR, "%s: no memory for the bounce buffers of Rx queue %u",
				   port->name, rxq->qid);
			return -ENOMEM;
		}
	}
	for (i = 0; i < rxq->entries; i += k) {
		k = RTE_MIN(rxq->entries - i, (uint32_t)RIONET_BURST);
		for (j = 0; j < k; j++)
			bufs[j] = rxq->bounce + (size_t)(i + j) * RIONET_MAX_FRAME;
		if (rte_rio_add_inb_buffers(rionet_port_mport(port), rxq->mbox, bufs, k) != k) {
			RIONET_LOG(ERR, "%s: mailbox %u refused receive buffers", port->name,
				   rxq->mbox);
			return -EIO;
		}
	}
	return 0;
}

/*
 * Loopback sends to the own device ID: the message leaves by the mport's
 * port and the switch at the other end of the link routes it back (back to
 * back, the other endpoint would drop it). Endpoints have one port, so a
 * switch anywhere in the mport's view is at the other end.
 */
static bool
rionet_loopback_routed(const struct rionet_port *port)
{
	struct rte_rio_dev_info info;
	struct rte_rio_dev *d = NULL;

	while ((d = rte_rio_dev_next(rionet_port_mport(port), d)) != NULL) {
		if (rte_rio_dev_info_get(d, &info) == 0 && info.type == RTE_RIO_DEV_SWITCH)
			return true;
	}
	return false;
}

/*
 * For every mask of mailboxes a peer may receive on, the queue's own
 * outbound mailboxes among them (a mailbox sends to the same mailbox
 * number of its target).
 */
static void
rionet_txq_mbox_sel(struct rionet_tx_queue *txq)
{
	unsigned int mask, k;

	txq->mbox_bits = 0;
	for (k = 0; k < txq->nb_mbox; k++)
		txq->mbox_bits |= 1u << txq->mbox[k];
	for (mask = 0; mask < RTE_DIM(txq->mbox_sel); mask++) {
		txq->mbox_sel[mask].n = 0;
		for (k = 0; k < txq->nb_mbox; k++)
			if (mask & (1u << txq->mbox[k]))
				txq->mbox_sel[mask].mbox[txq->mbox_sel[mask].n++] = txq->mbox[k];
	}
}

static int
rionet_dev_start(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	uint16_t nb_rx = dev->data->nb_rx_queues, nb_tx = dev->data->nb_tx_queues;
	struct rionet_tx_queue *txq;
	uint8_t nb_mbox = RTE_MAX(nb_rx, nb_tx), m;
	uint16_t q;
	int ret;

	if (port->loopback && !rionet_loopback_routed(port)) {
		RIONET_LOG(ERR, "%s: lpbk_mode=1 sends every frame to the port's own device ID, which only a switch at the other end of its link returns, and mport %s knows no switch",
			   port->name, rte_rio_mport_name(rionet_port_mport(port)));
		return -ENOTSUP;
	}

	rionet_set_max_frame(port, dev->data->mtu + RTE_ETHER_HDR_LEN);
	for (q = 0; q < nb_rx; q++) {
		ret = rionet_rxq_start(port, dev->data->rx_queues[q]);
		if (ret < 0)
			goto fail;
	}
	for (m = 0; m < nb_mbox; m++) {
		ret = rte_rio_request_outb_mbox(rionet_port_mport(port), port->mbox_base + m,
						RIONET_DEFAULT_DESC);
		if (ret < 0) {
			RIONET_LOG(ERR, "%s: cannot open outbound mailbox %u (%d)", port->name,
				   port->mbox_base + m, ret);
			goto fail;
		}
		port->out_mbox_open |= 1u << (port->mbox_base + m);
	}
	for (q = 0; q < nb_tx; q++) {
		txq = dev->data->tx_queues[q];
		txq->nb_mbox = 0;
		for (m = q; m < nb_mbox; m += nb_tx)
			txq->mbox[txq->nb_mbox++] = port->mbox_base + m;
		rionet_txq_mbox_sel(txq);
	}
	ret = rionet_peers_start(port);
	if (ret < 0)
		goto fail;
	for (q = 0; q < nb_rx; q++)
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STARTED;
	for (q = 0; q < nb_tx; q++)
		dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
fail:
	rionet_mbox_close_all(port);
	return ret;
}

static int
rionet_dev_stop(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	uint16_t q;

	rionet_peers_stop(port);
	rionet_mbox_close_all(port);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	dev->data->dev_started = 0;
	return 0;
}

static void
rionet_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct rionet_rx_queue *rxq = dev->data->rx_queues[qid];

	if (rxq == NULL)
		return;
	rionet_rx_stash_free(rxq);
	rte_free(rxq->sw_ring);
	rte_free(rxq->bounce);
	rte_free(rxq);
	dev->data->rx_queues[qid] = NULL;
}

static void
rionet_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	rte_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
}

static int
rionet_dev_close(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	uint16_t q;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (dev->data->dev_started)
		rionet_dev_stop(dev);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		rionet_rx_queue_release(dev, q);
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		rionet_tx_queue_release(dev, q);
	rionet_peers_fini(port);
	if (port->rdev != NULL)
		port->rdev->driver_data = NULL;
	return 0;
}

static int rionet_dev_init(struct rte_eth_dev *dev);

static int
rionet_dev_reset(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	uint16_t q;

	if (dev->data->dev_started)
		rionet_dev_stop(dev);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		rionet_rx_queue_release(dev, q);
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		rionet_tx_queue_release(dev, q);
	rte_ether_addr_copy(&port->mac, &dev->data->mac_addrs[0]);
	return rionet_dev_init(dev);
}

static int
rionet_promiscuous_enable(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static int
rionet_promiscuous_disable(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static int
rionet_allmulticast_enable(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static int
rionet_allmulticast_disable(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

/*
 * Senders map a rionet address to the destination ID it encodes, so the
 * port is reached at its own device ID's address (port->mac) whatever
 * address it reports: every unicast frame that arrives carries that one.
 * Another address (net_bonding gives its own to its members) is accepted
 * and reported, and changes neither what the port receives nor what it
 * sends (rionet writes no source address); refusing it would keep
 * net_bonding modes 0, 2 and 3 from starting and leave the address of a
 * mode 1 member that takes over unchanged. ethdev stores it once this
 * returns.
 */
static int
rionet_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	struct rionet_port *port = dev->data->dev_private;

	if (!rte_is_same_ether_addr(addr, &port->mac))
		RIONET_LOG(INFO, "%s: reports " RTE_ETHER_ADDR_PRT_FMT ", still reached at "
			   RTE_ETHER_ADDR_PRT_FMT " (its device ID)", port->name,
			   RTE_ETHER_ADDR_BYTES(addr), RTE_ETHER_ADDR_BYTES(&port->mac));
	return 0;
}

static int
rionet_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct rionet_port *port = dev->data->dev_private;

	struct rionet_rx_queue *rxq;
	uint32_t frame = mtu + RTE_ETHER_HDR_LEN;
	uint16_t q;

	if (mtu < RIONET_MIN_MTU || mtu > RIONET_MAX_MTU)
		return -EINVAL;
	/* A started queue in direct mode posts mbufs: the frame must fit them. */
	for (q = 0; dev->data->dev_started && q < dev->data->nb_rx_queues; q++) {
		rxq = dev->data->rx_queues[q];
		if (rxq != NULL && rxq->inplace && frame > port->inplace_max) {
			RIONET_LOG(ERR, "%s: MTU %u needs %u-byte frames, rx_zero_copy: %u at most",
				   port->name, mtu, frame, port->inplace_max);
			return -EINVAL;
		}
		if (rxq != NULL && rxq->direct && frame > rxq->mbuf_room) {
			RIONET_LOG(ERR, "%s: MTU %u needs %u-byte buffers, Rx queue %u posts %u-byte mbufs: stop the port first",
				   port->name, mtu, frame, q, rxq->mbuf_room);
			return -EINVAL;
		}
	}
	rionet_set_max_frame(port, frame);
	return 0;
}

static int
rionet_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		      unsigned int socket_id, const struct rte_eth_rxconf *conf,
		      struct rte_mempool *mp)
{
	struct rionet_port *port = dev->data->dev_private;
	struct rionet_rx_queue *rxq;

	RTE_SET_USED(conf);
	if (nb_desc < RIONET_MIN_DESC || nb_desc > RIONET_MAX_DESC)
		return -EINVAL;
	rionet_rx_queue_release(dev, qid);
	rxq = rte_zmalloc_socket("rionet_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket_id);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->port = port;
	rxq->mp = mp;
	rxq->qid = qid;
	rxq->mbox = port->mbox_base + qid;
	rxq->nb_desc = nb_desc;
	rxq->entries = rte_align32pow2(nb_desc);
	rxq->socket_id = socket_id;
	/* What an mbuf holds after the headroom: the receive buffer in direct mode. */
	rxq->mbuf_room = RTE_MIN(rte_pktmbuf_data_room_size(mp) -
				 RTE_MIN(rte_pktmbuf_data_room_size(mp), RTE_PKTMBUF_HEADROOM),
				 RTE_RIO_MAX_MSG_SIZE);
	rxq->sw_ring = rte_zmalloc_socket("rionet_rx_ring",
					  sizeof(rxq->sw_ring[0]) * rxq->entries, 0, socket_id);
	if (rxq->sw_ring == NULL) {
		rte_free(rxq);
		return -ENOMEM;
	}
	dev->data->rx_queues[qid] = rxq;
	return 0;
}

static int
rionet_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		      unsigned int socket_id, const struct rte_eth_txconf *conf)
{
	struct rionet_port *port = dev->data->dev_private;
	struct rionet_tx_queue *txq;

	if (nb_desc < RIONET_MIN_DESC || nb_desc > RIONET_MAX_DESC)
		return -EINVAL;
	rionet_tx_queue_release(dev, qid);
	txq = rte_zmalloc_socket("rionet_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket_id);
	if (txq == NULL)
		return -ENOMEM;
	txq->port = port;
	txq->qid = qid;
	txq->nb_desc = nb_desc;
	/* ethdev passes the queue's own offloads; the port's apply to every queue. */
	txq->offloads = conf->offloads | dev->data->dev_conf.txmode.offloads;
	txq->fast_free = !!(txq->offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
	txq->nb_mbox = 1;
	txq->mbox[0] = port->mbox_base + qid;
	txq->letters = port->letters;
	dev->data->tx_queues[qid] = txq;
	return 0;
}

static void
rionet_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_rxq_info *qinfo)
{
	struct rionet_rx_queue *rxq = dev->data->rx_queues[qid];

	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->scattered_rx = 1;
	qinfo->conf.offloads = dev->data->dev_conf.rxmode.offloads;
	qinfo->rx_buf_size = rxq->mbuf_room;
}

static void
rionet_txq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_txq_info *qinfo)
{
	struct rionet_tx_queue *txq = dev->data->tx_queues[qid];

	qinfo->nb_desc = txq->nb_desc;
	qinfo->conf.offloads = txq->offloads;
}

static int
rionet_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct rionet_rx_queue *rxq;
	struct rionet_tx_queue *txq;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		rxq = dev->data->rx_queues[q];
		if (rxq == NULL)
			continue;
		st->ipackets += rxq->packets;
		st->ibytes += rxq->bytes;
		st->ierrors += rxq->runts + rxq->oversize;
		st->rx_nombuf += rxq->nombuf;
		if (q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_ipackets[q] = rxq->packets;
			st->q_ibytes[q] = rxq->bytes;
			st->q_errors[q] = rxq->runts + rxq->oversize;
		}
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		txq = dev->data->tx_queues[q];
		if (txq == NULL)
			continue;
		st->opackets += txq->packets;
		st->obytes += txq->bytes;
		st->oerrors += txq->errors;
		if (q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[q] = txq->packets;
			st->q_obytes[q] = txq->bytes;
		}
	}
	return 0;
}

static int
rionet_stats_reset(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	struct rionet_rx_queue *rxq;
	struct rionet_tx_queue *txq;
	uint16_t q, s;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		rxq = dev->data->rx_queues[q];
		if (rxq == NULL)
			continue;
		rxq->packets = rxq->bytes = rxq->nombuf = 0;
		rxq->runts = rxq->oversize = rxq->filtered = rxq->unknown_src = 0;
		memset(rxq->peer, 0, sizeof(rxq->peer));
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		txq = dev->data->tx_queues[q];
		if (txq == NULL)
			continue;
		txq->packets = txq->bytes = txq->errors = txq->ring_full = 0;
		txq->unknown_dst = txq->oversize = txq->runts = 0;
		txq->linearized = txq->mcast_copies = txq->no_mbox = 0;
		memset(txq->peer, 0, sizeof(txq->peer));
	}
	rte_spinlock_lock(&port->lock);
	port->dbell_rx = port->dbell_tx = port->dbell_tx_errors = port->dbell_unknown = 0;
	port->join_rx = port->leave_rx = port->join_tx = port->leave_tx = 0;
	port->peers_lost = 0;
	for (s = 0; s < port->nb_peers; s++) {
		port->peers[s].join_rx = port->peers[s].leave_rx = 0;
		port->peers[s].join_tx = port->peers[s].leave_tx = 0;
		port->peers[s].lost = 0;
	}
	rte_spinlock_unlock(&port->lock);
	return 0;
}

/* xstats: one walker fills names, values, or only counts. */
struct rionet_xwalk {
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *values;
	unsigned int size;
	unsigned int n;
};

static void
rionet_xput(struct rionet_xwalk *w, uint64_t v, const char *fmt, ...)
	__rte_format_printf(3, 4);

static void
rionet_xput(struct rionet_xwalk *w, uint64_t v, const char *fmt, ...)
{
	va_list ap;

	if (w->n < w->size) {
		if (w->names != NULL) {
			va_start(ap, fmt);
			vsnprintf(w->names[w->n].name, sizeof(w->names[w->n].name), fmt, ap);
			va_end(ap);
		}
		if (w->values != NULL) {
			w->values[w->n].id = w->n;
			w->values[w->n].value = v;
		}
	}
	w->n++;
}

static void
rionet_xstats_walk(struct rte_eth_dev *dev, struct rionet_xwalk *w)
{
	struct rionet_port *port = dev->data->dev_private;
	struct rionet_rx_queue *rxq;
	struct rionet_tx_queue *txq;
	struct rionet_peer *p;
	uint64_t v[8];
	uint16_t q, s;

	rte_spinlock_lock(&port->lock);
	rionet_xput(w, port->dbell_rx, "doorbells_rx");
	rionet_xput(w, port->dbell_tx, "doorbells_tx");
	rionet_xput(w, port->dbell_tx_errors, "doorbells_tx_errors");
	rionet_xput(w, port->dbell_unknown, "doorbells_rx_unknown_peer");
	rionet_xput(w, port->join_rx, "join_rx");
	rionet_xput(w, port->join_tx, "join_tx");
	rionet_xput(w, port->leave_rx, "leave_rx");
	rionet_xput(w, port->leave_tx, "leave_tx");
	rionet_xput(w, rionet_nb_active(port), "peers_active");
	rionet_xput(w, port->peers_lost, "peers_lost");
	rte_spinlock_unlock(&port->lock);

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		rxq = dev->data->rx_queues[q];
		if (rxq == NULL)
			continue;
		rionet_xput(w, rxq->nombuf, "rx_q%u_no_mbuf", q);
		rionet_xput(w, rxq->runts, "rx_q%u_runts", q);
		rionet_xput(w, rxq->oversize, "rx_q%u_oversize", q);
		rionet_xput(w, rxq->filtered, "rx_q%u_filtered", q);
		rionet_xput(w, rxq->unknown_src, "rx_q%u_unknown_source", q);
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		txq = dev->data->tx_queues[q];
		if (txq == NULL)
			continue;
		rionet_xput(w, txq->ring_full, "tx_q%u_ring_full", q);
		rionet_xput(w, txq->unknown_dst, "tx_q%u_unknown_destination", q);
		rionet_xput(w, txq->oversize, "tx_q%u_oversize", q);
		rionet_xput(w, txq->runts, "tx_q%u_runts", q);
		rionet_xput(w, txq->linearized, "tx_q%u_linearized", q);
		rionet_xput(w, txq->mcast_copies, "tx_q%u_multicast_copies", q);
		rionet_xput(w, txq->no_mbox, "tx_q%u_no_mailbox", q);
	}
	for (s = 0; s < port->nb_peers; s++) {
		p = &port->peers[s];
		memset(v, 0, sizeof(v));
		for (q = 0; q < dev->data->nb_tx_queues; q++) {
			txq = dev->data->tx_queues[q];
			if (txq == NULL)
				continue;
			v[0] += txq->peer[s].packets;
			v[1] += txq->peer[s].bytes;
			v[2] += txq->peer[s].errors;
			v[3] += txq->peer[s].ring_full;
		}
		for (q = 0; q < dev->data->nb_rx_queues; q++) {
			rxq = dev->data->rx_queues[q];
			if (rxq == NULL)
				continue;
			v[4] += rxq->peer[s].packets;
			v[5] += rxq->peer[s].bytes;
		}
		rionet_xput(w, rionet_peer_active(p), "peer_0x%04x_active", p->destid);
		rionet_xput(w, rionet_peer_mbox_mask(p), "peer_0x%04x_mailboxes", p->destid);
		rionet_xput(w, v[0], "peer_0x%04x_tx_packets", p->destid);
		rionet_xput(w, v[1], "peer_0x%04x_tx_bytes", p->destid);
		rionet_xput(w, v[2], "peer_0x%04x_tx_errors", p->destid);
		rionet_xput(w, v[3], "peer_0x%04x_tx_ring_full", p->destid);
		rionet_xput(w, v[4], "peer_0x%04x_rx_packets", p->destid);
		rionet_xput(w, v[5], "peer_0x%04x_rx_bytes", p->destid);
		rionet_xput(w, p->join_rx, "peer_0x%04x_join_rx", p->destid);
		rionet_xput(w, p->join_tx, "peer_0x%04x_join_tx", p->destid);
		rionet_xput(w, p->leave_rx, "peer_0x%04x_leave_rx", p->destid);
		rionet_xput(w, p->leave_tx, "peer_0x%04x_leave_tx", p->destid);
		rionet_xput(w, p->lost, "peer_0x%04x_lost", p->destid);
	}
}

static int
rionet_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
			unsigned int size)
{
	struct rionet_xwalk w = { .names = names, .size = names != NULL ? size : 0 };

	rionet_xstats_walk(dev, &w);
	return w.n;
}

static int
rionet_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats, unsigned int n)
{
	struct rionet_xwalk w = { .values = xstats, .size = xstats != NULL ? n : 0 };

	rionet_xstats_walk(dev, &w);
	return w.n;
}

static const struct eth_dev_ops rionet_ops = {
	.dev_configure = rionet_dev_configure,
	.dev_start = rionet_dev_start,
	.dev_stop = rionet_dev_stop,
	.dev_close = rionet_dev_close,
	.dev_reset = rionet_dev_reset,
	.dev_infos_get = rionet_dev_infos_get,
	.link_update = rionet_link_update,
	.promiscuous_enable = rionet_promiscuous_enable,
	.promiscuous_disable = rionet_promiscuous_disable,
	.allmulticast_enable = rionet_allmulticast_enable,
	.allmulticast_disable = rionet_allmulticast_disable,
	.mac_addr_set = rionet_mac_addr_set,
	.mtu_set = rionet_mtu_set,
	.stats_get = rionet_stats_get,
	.stats_reset = rionet_stats_reset,
	.xstats_get = rionet_xstats_get,
	.xstats_get_names = rionet_xstats_get_names,
	.xstats_reset = rionet_stats_reset,
	.rx_queue_setup = rionet_rx_queue_setup,
	.rx_queue_release = rionet_rx_queue_release,
	.tx_queue_setup = rionet_tx_queue_setup,
	.tx_queue_release = rionet_tx_queue_release,
	.rxq_info_get = rionet_rxq_info_get,
	.txq_info_get = rionet_txq_info_get,
};

/* ------------------------------------------------------------------ */
/* Secondary processes                                                */

/*
 * A secondary process attaches to a port its primary created: it polls and
 * sends on queues the primary configured and started, through the mailboxes
 * of its own view of the endpoint (rio_sim: the same inbound rings and
 * posted buffers, senders of its own). Configuration, start/stop, the peer
 * handshake and link state stay with the primary; a secondary reads them.
 */

/* Open (attach) every mailbox the port's queues may use on this process's mport. */
static int
rionet_secondary_mbox_open(struct rionet_port *port, struct rte_rio_mport *mport)
{
	uint8_t m;
	int ret;

	for (m = port->mbox_base; m < port->mbox_base + port->max_queues; m++) {
		ret = rte_rio_request_inb_mbox(mport, m, RIONET_DEFAULT_DESC);
		if (ret < 0)
			return ret;
		ret = rte_rio_request_outb_mbox(mport, m, RIONET_DEFAULT_DESC);
		if (ret < 0) {
			rte_rio_release_inb_mbox(mport, m);
			return ret;
		}
	}
	return 0;
}

static void
rionet_secondary_mbox_close(struct rionet_port *port, struct rte_rio_mport *mport)
{
	uint8_t m;

	for (m = port->mbox_base; m < port->mbox_base + port->max_queues; m++) {
		rte_rio_release_inb_mbox(mport, m);
		rte_rio_release_outb_mbox(mport, m);
	}
}

/* The primary keeps the link status in the shared ethdev data. */
static int
rionet_secondary_link_update(struct rte_eth_dev *dev, int wait_to_complete)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(wait_to_complete);
	return 0;
}

/* Detach this process only; the port stays with the primary. */
static int
rionet_secondary_close(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;
	struct rte_rio_mport *mport = dev->process_private;

	if (mport != NULL)
		rionet_secondary_mbox_close(port, mport);
	dev->process_private = NULL;
	return 0;
}

static const struct eth_dev_ops rionet_secondary_ops = {
	.dev_close = rionet_secondary_close,
	.dev_infos_get = rionet_dev_infos_get,
	.link_update = rionet_secondary_link_update,
	.stats_get = rionet_stats_get,
	.stats_reset = rionet_stats_reset,
	.xstats_get = rionet_xstats_get,
	.xstats_get_names = rionet_xstats_get_names,
	.xstats_reset = rionet_stats_reset,
	.rxq_info_get = rionet_rxq_info_get,
	.txq_info_get = rionet_txq_info_get,
};

static int
rionet_probe_secondary(struct rte_rio_device *rdev, const char *name)
{
	struct rionet_port *port;
	struct rte_eth_dev *dev;
	int ret;

	dev = rte_eth_dev_attach_secondary(name);
	if (dev == NULL) {
		RIONET_LOG(NOTICE, "%s: the primary process has no such port", name);
		return 1;
	}
	port = dev->data->dev_private;
	dev->dev_ops = &rionet_secondary_ops;
	dev->rx_pkt_burst = rionet_rx_burst;
	dev->tx_pkt_burst = rionet_tx_burst;
	dev->device = &rdev->device;
	ret = rionet_secondary_mbox_open(port, rdev->mport);
	if (ret < 0) {
		RIONET_LOG(ERR, "%s: cannot attach to the mailboxes of %s (%d)", name,
			   rdev->name, ret);
		rionet_secondary_mbox_close(port, rdev->mport);
		rte_eth_dev_release_port(dev);
		return ret;
	}
	/* Before the burst functions become callable (probing_finish). */
	dev->process_private = rdev->mport;
	rdev->driver_data = dev;
	rte_eth_dev_probing_finish(dev);
	RIONET_LOG(INFO, "%s: port %u attached in a secondary process on %s", name,
		   dev->data->port_id, rdev->name);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Probe and remove                                                   */

static int
rionet_parse_mbox(const char *key, const char *value, void *arg)
{
	uint8_t *mbox = arg;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 0);
	if (errno != 0 || *value == '\0' || *end != '\0' || v >= RTE_RIO_MAX_MBOX) {
		RIONET_LOG(ERR, "%s=%s: a mailbox is 0..%d", key, value, RTE_RIO_MAX_MBOX - 1);
		return -EINVAL;
	}
	*mbox = v;
	return 0;
}

static int
rionet_parse_letters(const char *key, const char *value, void *arg)
{
	uint8_t *letters = arg;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 0);
	if (errno != 0 || *value == '\0' || *end != '\0' || v < 1 || v > RTE_RIO_MAX_LETTER) {
		RIONET_LOG(ERR, "%s=%s: letters in flight per peer are 1..%d", key, value,
			   RTE_RIO_MAX_LETTER);
		return -EINVAL;
	}
	*letters = v;
	return 0;
}

static int
rionet_parse_bool(const char *key, const char *value, void *arg)
{
	bool *flag = arg;

	if (strcmp(value, "0") == 0) {
		*flag = false;
	} else if (strcmp(value, "1") == 0) {
		*flag = true;
	} else {
		RIONET_LOG(ERR, "%s=%s: 0 or 1", key, value);
		return -EINVAL;
	}
	return 0;
}

static int
rionet_parse_devargs(struct rte_devargs *devargs, struct rionet_devargs *da)
{
	struct rte_kvargs *kvlist;
	int ret = 0;

	da->mbox = RIONET_DEFAULT_MBOX;
	da->rx_zero_copy = false;
	da->letters = RTE_RIO_MAX_LETTER;
	if (devargs == NULL || devargs->args == NULL || devargs->args[0] == '\0')
		return 0;
	kvlist = rte_kvargs_parse(devargs->args, rionet_valid_args);
	if (kvlist == NULL) {
		RIONET_LOG(ERR, "invalid devargs \"%s\" (valid: " RIONET_DEVARG_MBOX ", "
			   RIONET_DEVARG_RX_ZERO_COPY ", " RIONET_DEVARG_LETTERS ")", devargs->args);
		return -EINVAL;
	}
	ret = rte_kvargs_process(kvlist, RIONET_DEVARG_MBOX, rionet_parse_mbox, &da->mbox);
	if (ret == 0)
		ret = rte_kvargs_process(kvlist, RIONET_DEVARG_RX_ZERO_COPY, rionet_parse_bool,
					 &da->rx_zero_copy);
	if (ret == 0)
		ret = rte_kvargs_process(kvlist, RIONET_DEVARG_LETTERS, rionet_parse_letters,
					 &da->letters);
	rte_kvargs_free(kvlist);
	return ret < 0 ? -EINVAL : 0;
}

/* (Re)initialize the port to its just-probed state. */
static int
rionet_dev_init(struct rte_eth_dev *dev)
{
	struct rionet_port *port = dev->data->dev_private;

	dev->dev_ops = &rionet_ops;
	dev->rx_pkt_burst = rionet_rx_burst;
	dev->tx_pkt_burst = rionet_tx_burst;
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS | RTE_ETH_DEV_INTR_LSC;
	dev->data->mtu = RTE_ETHER_MTU;
	rionet_set_max_frame(port, RTE_ETHER_MTU + RTE_ETHER_HDR_LEN);
	rionet_link_refresh(port);
	return 0;
}

static int
rionet_rio_probe(struct rte_rio_driver *drv, struct rte_rio_device *rdev,
		 const struct rte_rio_device_id *id)
{
	struct rte_rio_mport_info minfo;
	struct rte_rio_dev_info info;
	struct rionet_port *port;
	struct rte_eth_dev *dev;
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rionet_devargs da;
	int ret;

	RTE_SET_USED(drv);
	RTE_SET_USED(id);
	/* Remote devices are peers, followed by bus events: leave them to others. */
	if (!rdev->local || rdev->rdev == NULL || rdev->mport == NULL)
		return 1;
	if (rte_rio_dev_info_get(rdev->rdev, &info) != 0 || !rionet_dev_capable(&info)) {
		RIONET_LOG(INFO, "%s: no data message and doorbell support, not bound",
			   rdev->name);
		return 1;
	}
	ret = rte_rio_mport_info_get(rdev->mport, &minfo);
	if (ret < 0)
		return ret;
	if (snprintf(name, sizeof(name), "rionet_%s", minfo.name) >= (int)sizeof(name)) {
		RIONET_LOG(ERR, "%s: mport name too long for a port name", minfo.name);
		return -ENAMETOOLONG;
	}
	ret = rionet_parse_devargs(rdev->device.devargs, &da);
	if (ret < 0)
		return ret;
	if (da.rx_zero_copy && minfo.inb_inplace_max == 0) {
		RIONET_LOG(ERR, "%s: rx_zero_copy: mport %s cannot receive in place", rdev->name,
			   minfo.name);
		return -ENOTSUP;
	}
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rionet_probe_secondary(rdev, name);

	dev = rte_eth_dev_allocate(name);
	if (dev == NULL)
		return -EEXIST;
	port = rte_zmalloc_socket(name, sizeof(*port), RTE_CACHE_LINE_SIZE, rte_socket_id());
	dev->data->mac_addrs = rte_zmalloc(name, sizeof(struct rte_ether_addr), 0);
	if (port == NULL || dev->data->mac_addrs == NULL) {
		rte_free(port);
		ret = -ENOMEM;
		goto fail;
	}
	dev->data->dev_private = port;
	dev->device = &rdev->device;
	port->eth_dev = dev;
	port->data = dev->data;
	port->port_id = dev->data->port_id;
	dev->process_private = rdev->mport;
	port->rdev = rdev;
	rte_spinlock_init(&port->lock);
	strlcpy(port->name, name, sizeof(port->name));
	port->destid = info.destid;
	port->max_destids = RTE_RIO_MAX_DESTIDS(minfo.devid_size);
	port->mbox_base = da.mbox;
	port->max_queues = RTE_MIN(RIONET_MAX_QUEUES, RTE_RIO_MAX_MBOX - da.mbox);
	port->rx_zero_copy = da.rx_zero_copy;
	port->letters = da.letters;
	port->inplace_max = minfo.inb_inplace_max;
	rionet_mac_from_destid(port->destid, &port->mac);
	rte_ether_addr_copy(&port->mac, &dev->data->mac_addrs[0]);
	rionet_dev_init(dev);
	ret = rionet_peers_init(port);
	if (ret < 0)
		goto fail;
	rdev->driver_data = dev;
	rte_eth_dev_probing_finish(dev);
	RIONET_LOG(INFO, "%s: port %u on %s, MAC " RTE_ETHER_ADDR_PRT_FMT
		   ", mailbox %u, %u letters%s", name, dev->data->port_id, rdev->name,
		   RTE_ETHER_ADDR_BYTES(&port->mac), da.mbox, da.letters,
		   da.rx_zero_copy ? ", zero-copy receive" : "");
	return 0;
fail:
	rte_eth_dev_release_port(dev);
	return ret;
}

static int
rionet_rio_remove(struct rte_rio_device *rdev)
{
	struct rte_eth_dev *dev = rdev->driver_data;

	/* The application may have closed (and so released) the port already. */
	if (dev == NULL)
		return 0;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* Detach this process; the primary's port goes on. */
		rte_eth_dev_close(dev->data->port_id);
		rdev->driver_data = NULL;
		return 0;
	}
	/* ethdev refuses to close a started port. */
	if (dev->data->dev_started)
		rte_eth_dev_stop(dev->data->port_id);
	rte_eth_dev_close(dev->data->port_id);
	rdev->driver_data = NULL;
	return 0;
}

static const struct rte_rio_device_id rionet_id_table[] = {
	{ .vid = RTE_RIO_ANY_ID, .did = RTE_RIO_ANY_ID,
	  .asm_vid = RTE_RIO_ANY_ID, .asm_did = RTE_RIO_ANY_ID },
	{ .vid = 0, .asm_vid = 0 },
};

static struct rte_rio_driver rionet_rio_driver = {
	.id_table = rionet_id_table,
	.probe = rionet_rio_probe,
	.remove = rionet_rio_remove,
};

RTE_PMD_REGISTER_RIO(net_rionet, rionet_rio_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_rionet, RIONET_DEVARG_MBOX "=<0-3> "
			      RIONET_DEVARG_RX_ZERO_COPY "=<0|1> "
			      RIONET_DEVARG_LETTERS "=<1-4>");
RTE_LOG_REGISTER_DEFAULT(rionet_logtype, NOTICE);
