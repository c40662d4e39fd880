/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Timing model of the emulated fabric.
 *
 * Link rates: every port has lanes and a top lane rate (topology lanes and
 * baud, Gen2 x4 at 5 Gbaud unless told); a link runs at the widest width
 * and fastest rate both ends have. Data rate per lane is the baud rate after
 * line coding: 8b/10b up to 6.25 Gbaud, 64b/67b from 10.3125 Gbaud (RapidIO
 * 3.x Part 6), so Gen2 x4 at 5 Gbaud carries 16 Gbit/s.
 *
 * Packets: header, payload, CRC-16 (a second one past 80 bytes), padding to
 * 4 bytes, and a start and an end of packet control symbol (4 bytes each).
 *
 * A maintenance transaction takes the serialization of its request and
 * response on every link of the path, the latency of every switch it
 * crosses (hop_latency) and the target's processing time (response_latency).
 * When either is dropped, the requester sees nothing until its response
 * timeout: the Port Response Timeout Control CSR of its LP-Serial block, whose
 * reset value (all ones) stands for the fabric's response_timeout.
 *
 * Messages and doorbells also occupy the links: every port's transmitter
 * has a time at which it is free again (in shared memory, for every
 * process), and a burst of packets reserves its serialization on each link
 * of its path from the time its first packet reaches that link
 * (sim_path_carry()). So the packets of all senders that share a link
 * queue on it, and no stream exceeds its rate. A message is segmented
 * (ssize 256: up to 16 segments), each segment is a packet with its own
 * response (RapidIO Part 2, type 11 and type 13 packets).
 *
 * Times are CLOCK_MONOTONIC, which every process of the machine shares.
 */

#include <errno.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_pause.h>

#include "rio_sim_fabric.h"

/* Waits longer than this sleep (most of the time) instead of spinning. */
#define TIMING_SLEEP_NS		200000ull
/*
 * No sender reserves a link this far ahead of the time it asks for (its
 * outbound queue is bounded): a transmitter free time beyond it was written
 * by someone else, and is ignored rather than stalling every sender.
 */
#define TIMING_MAX_AHEAD_NS	(10ull * 1000000000ull)

static const struct {
	const char *name;
	uint32_t mbaud;		/* lane rate, Mbaud */
	bool coding_64b67b;
} timing_bauds[] = {
	[SIM_BAUD_1_25] = { "1.25", 1250, false },
	[SIM_BAUD_2_5] = { "2.5", 2500, false },
	[SIM_BAUD_3_125] = { "3.125", 3125, false },
	[SIM_BAUD_5_0] = { "5", 5000, false },
	[SIM_BAUD_6_25] = { "6.25", 6250, false },
	[SIM_BAUD_10_3125] = { "10.3125", 10313, true },
	[SIM_BAUD_12_5] = { "12.5", 12500, true },
};

int
sim_baud_parse(const char *s)
{
	unsigned int b;

	for (b = SIM_BAUD_1_25; b < RTE_DIM(timing_bauds); b++) {
		if (strcmp(s, timing_bauds[b].name) == 0)
			return (int)b;
	}
	/* "5.0" names the same rate as "5". */
	if (strcmp(s, "5.0") == 0)
		return SIM_BAUD_5_0;
	return -EINVAL;
}

const char *
sim_baud_name(uint8_t baud)
{
	if (baud < SIM_BAUD_1_25 || baud >= RTE_DIM(timing_bauds))
		return "?";
	return timing_bauds[baud].name;
}

uint64_t
sim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
sim_wait_until(uint64_t deadline_ns)
{
	uint64_t now = sim_now_ns();
	struct timespec ts;
	uint64_t left;

	while (now < deadline_ns) {
		left = deadline_ns - now;
		if (left > TIMING_SLEEP_NS) {
			left -= TIMING_SLEEP_NS / 2;
			ts.tv_sec = (time_t)(left / 1000000000ull);
			ts.tv_nsec = (long)(left % 1000000000ull);
			nanosleep(&ts, NULL);
		} else {
			rte_pause();
		}
		now = sim_now_ns();
	}
}

uint32_t
sim_pkt_wire_bytes(uint8_t devid_size, uint32_t hdr, uint32_t payload)
{
	uint32_t n = hdr + payload;

	RTE_SET_USED(devid_size);
	/* CRC-16, and an intermediate one after the first 80 bytes. */
	n += n > 80 ? 4 : 2;
	n = RTE_ALIGN_CEIL(n, 4u);
	/* Start-of-packet and end-of-packet control symbols. */
	return n + 8;
}

uint64_t
sim_port_rate_bps(const struct sim_fabric *f, uint32_t dev_index, uint8_t port)
{
	const struct sim_shm_device *d = sim_fabric_dev(f, dev_index), *pd;
	const struct sim_shm_port *p;
	uint64_t lane;
	uint8_t lanes;

	if (d == NULL || port >= RTE_MIN(d->nports, SIM_MAX_PORTS) ||
	    !sim_port_ok(f, dev_index, port))
		return 0;
	p = &d->ports[port];
	pd = sim_fabric_dev(f, (uint32_t)p->peer_dev);
	if (pd == NULL || p->peer_port >= RTE_MIN(pd->nports, SIM_MAX_PORTS))
		return 0;
	/* The link trains to the narrower end; its rate is the same at both (creation). */
	lanes = RTE_MIN(p->lanes, pd->ports[p->peer_port].lanes);
	if (p->baud < SIM_BAUD_1_25 || p->baud >= RTE_DIM(timing_bauds) || lanes == 0)
		return 0;
	lane = (uint64_t)timing_bauds[p->baud].mbaud * 1000000ull;
	lane = timing_bauds[p->baud].coding_64b67b ? lane * 64 / 67 : lane * 8 / 10;
	return lane * lanes;
}

uint64_t
sim_link_ns(const struct sim_fabric *f, uint32_t dev_index, uint8_t port, uint32_t bytes)
{
	uint64_t bps = sim_port_rate_bps(f, dev_index, port);

	if (bps == 0)
		return 0;
	return ((uint64_t)bytes * 8 * 1000000000ull + bps - 1) / bps;
}

uint64_t
sim_resp_timeout_ns(const struct sim_fabric *f, uint32_t dev_index)
{
	const struct sim_shm_device *d = sim_fabric_dev(f, dev_index);
	uint64_t full = (uint64_t)__atomic_load_n(&f->hdr->resp_timeout_us, __ATOMIC_RELAXED) *
		1000ull;
	uint32_t v;

	if (full == 0)
		full = 1000;	/* never zero, whatever the header says */
	if (d == NULL || d->type != SIM_DEV_ENDPOINT)
		return full;
	v = (__atomic_load_n(&d->rsp_to_ctl, __ATOMIC_RELAXED) & RTE_RIO_PORT_TIMEOUT_MASK) >> 8;
	/* Scaled by the CSR; a cleared CSR still waits one unit, never zero. */
	return RTE_MAX(full * RTE_MAX(v, 1u) / 0xffffffull, 1000ull);
}

void
sim_msg_bursts(uint8_t devid_size, uint32_t len, struct sim_burst *req, struct sim_burst *rsp)
{
	uint32_t nseg = len > SIM_MSG_SEG_SIZE ? (len + SIM_MSG_SEG_SIZE - 1) / SIM_MSG_SEG_SIZE : 1;

	req->n = nseg;
	req->bytes = sim_pkt_wire_bytes(devid_size, SIM_MSG_HDR(devid_size), SIM_MSG_SEG_SIZE);
	req->last_bytes = sim_pkt_wire_bytes(devid_size, SIM_MSG_HDR(devid_size),
					     len - (nseg - 1) * SIM_MSG_SEG_SIZE);
	rsp->n = nseg;
	rsp->bytes = sim_pkt_wire_bytes(devid_size, SIM_RSP_HDR(devid_size), 0);
	rsp->last_bytes = rsp->bytes;
}

/*
 * Charge @dur ns of the transmitter of @link to a packet that is ready at
 * @t (@now or later). The transmitter's free time is the end of the work
 * charged to it so far: the packet starts at @t or when that work is done,
 * whichever is later. The work is charged from @now on, not from @t: a
 * packet that waits for something else (its letter, a response) does not
 * hold the link idle until then for the others, and over any stretch of
 * time the link carries no more than its rate. @return when it starts.
 */
static uint64_t
timing_link_reserve(struct sim_fabric *f, uint32_t link, uint64_t now, uint64_t t,
		    uint64_t dur)
{
	struct sim_shm_device *d = sim_fabric_dev(f, SIM_LINK_DEV(link));
	uint64_t *w, cur, base;

	if (d == NULL || SIM_LINK_PORT(link) >= SIM_MAX_PORTS)
		return t;
	w = &d->ports[SIM_LINK_PORT(link)].tx_free_ns;
	cur = __atomic_load_n(w, __ATOMIC_RELAXED);
	do {
		base = cur > now && cur - now < TIMING_MAX_AHEAD_NS ? cur : now;
		/* Relaxed: the word orders nothing else, it is a time only. */
	} while (!__atomic_compare_exchange_n(w, &cur, base + dur, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return RTE_MAX(t, base);
}

/* Serialization of @bytes at @ps picoseconds a byte, in ns (rounded up). */
static inline uint64_t
timing_ser_ns(uint64_t bytes, uint32_t ps)
{
	return (bytes * ps + 999) / 1000;
}

uint64_t
sim_path_carry(struct sim_fabric *f, const struct sim_path *p, uint64_t hop_ns, uint64_t now,
	       uint64_t t, const struct sim_burst *b)
{
	uint64_t total = (uint64_t)(b->n - 1) * b->bytes + b->last_bytes;
	uint64_t begin, end = t, dur, first, last;
	uint32_t i, ps;

	for (i = 0; i < p->n && i < SIM_PATH_MAX; i++) {
		ps = p->ps_per_byte[i];
		dur = timing_ser_ns(total, ps);
		first = timing_ser_ns(b->n > 1 ? b->bytes : b->last_bytes, ps);
		last = timing_ser_ns(b->last_bytes, ps);
		/*
		 * Store and forward at every switch: a link is not done before
		 * the burst's last packet came in on the link before it and
		 * crossed the switch.
		 */
		if (i > 0 && end + hop_ns + last > t + dur)
			t = end + hop_ns + last - dur;
		begin = timing_link_reserve(f, p->link[i], now, t, dur);
		end = begin + dur;
		/* The next link starts with the first packet, once it crossed the switch. */
		t = begin + first + hop_ns;
	}
	return end;
}
