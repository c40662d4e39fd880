/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * rionet_mp_autotest: DPDK secondary processes on a rionet port.
 *
 * Three process groups on one fabric (builtin:default, a unique name):
 *
 *   primary    dpdk-rio-test child on hugepages, rio_sim0 on ep0 (host):
 *              starts rionet_rio_sim0 with 2 queue pairs, receives the
 *              peer's first frames on queues 0 and 1, then hands queue 1
 *              over to the secondary (started only then) and polls only
 *              queue 0;
 *   secondary  --proc-type=secondary of the primary: checks the port (name,
 *              MAC, link, stats, xstats, no control) and its rio_sim view
 *              (only the local endpoint on its rio bus, no raw data path),
 *              receives on queue 1, sends through queue 1, then removes its
 *              rio_sim0 (detaching; the primary's port goes on);
 *   peer       an independent process (--no-huge) on ep1: sends frames on
 *              its Tx queue q (they land in the port's Rx queue q), then
 *              on Tx queue 1 again once the secondary polls queue 1, and
 *              checks what the secondary sent.
 *
 * Every frame carries a sequence number, its length derives from it and its
 * payload is a pattern of both: each side checks each frame byte for byte.
 * The processes meet through marker files in a private directory. Queue 1
 * runs once with mbuf data areas posted (direct), once with bounce buffers
 * and once with rx_zero_copy=1 on the primary's endpoint (zc): frames of
 * 1000 bytes then arrive as external buffers in the fabric's memory, frames
 * of 100 bytes copied, in the primary first and in the secondary after, and
 * the peer also sends three rings' worth through queue 1 once the secondary
 * polls it, which go through only if the secondary's frees give the ring
 * slots back. In zckill, the secondary keeps the frames it received in
 * place and is killed with SIGKILL: the primary polls queue 1 again and
 * the peer's next three rings' worth must arrive (the dead holder's slots
 * come back). A last case runs the stock dpdk-testpmd as primary and
 * secondary (--num-procs=2) against a txonly peer.
 *
 * Secondary processes need the primary's memory at the same addresses:
 * hugepages. The suite reserves RN_MP_PAGES 2 MiB pages (as root), mounts a
 * private hugetlbfs, and gives both back at the end; it is skipped, saying
 * why, when that is not possible.
 */

#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rawdev.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rio_driver.h"
#include "rte_pmd_rio_sim.h"

#include "test.h"

#define RN_MP_PAGES		192	/* 2 MiB pages reserved for the suite */
#define RN_MP_HP_DIR		"/sys/kernel/mm/hugepages/hugepages-2048kB/"
#define RN_MP_LOCK		"/run/dpdk-rio-test-hugepages.lock"
#define RN_MP_FRAMES		64	/* frames per direction and queue */
/*
 * zc: frames through the secondary's queue after the first ones: three times
 * the inbound ring of builtin:default (1024 slots; the secondary checks that
 * they go round its ring at least twice).
 */
#define RN_MP_ZC_FRAMES		(3 * 1024)
#define RN_MP_ZC_COPY_MAX	256	/* rx_zero_copy copies frames up to this length */
/* zc: the primary's own endpoint (its first mport's) on the rio bus, with the devarg. */
#define RN_MP_ZC_ALLOW		"--allow=rapidio0,rx_zero_copy=1"
#define RN_MP_TYPE_IN		0x88b5	/* peer -> primary port */
#define RN_MP_TYPE_OUT		0x88b6	/* secondary -> peer */
#define RN_MP_PORT		"rionet_rio_sim0"
#define RN_MP_WAIT_MS		20000
#define RN_TESTPMD		"/usr/bin/dpdk-testpmd"
/*
 * DPDK memory of the primary (and so of its secondaries): away from the
 * randomized library area, where a secondary could not map it (and above the
 * ASan shadow, where the default address lies in a sanitizer build).
 */
#define RN_MP_BASE_VA		"--base-virtaddr=0x200000000000"

#if defined(__SANITIZE_ADDRESS__)
#define RN_MP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RN_MP_ASAN 1
#endif
#endif

/* ------------------------------------------------------------------ */
/* Hugepages for the suite                                            */

static struct {
	bool ready;
	char why[160];
	unsigned long added;
	char mnt[64];
} hp;

static int
rn_mp_read_ul(const char *path, unsigned long *v)
{
	FILE *fp = fopen(path, "r");
	int ok;

	if (fp == NULL)
		return -errno;
	ok = fscanf(fp, "%lu", v) == 1;
	fclose(fp);
	return ok ? 0 : -EIO;
}

static int
rn_mp_write_ul(const char *path, unsigned long v)
{
	FILE *fp = fopen(path, "w");
	int ret;

	if (fp == NULL)
		return -errno;
	fprintf(fp, "%lu\n", v);
	ret = fclose(fp) == 0 ? 0 : -errno;
	return ret;
}

/* Serializes changes of the system's page count with other runs of this suite. */
static int
rn_mp_lock(void)
{
	int fd = open(RN_MP_LOCK, O_CREAT | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void
rn_mp_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

/* Mount point and page count file of the run of process @pid. */
#define RN_MP_RUN_FMT		"/run/dpdk-rio-hp.%d"
#define RN_MP_RUN_PAGES_FMT	RN_MP_RUN_FMT ".pages"

/* Give back the mount and the pages of run @pid. Under the lock. */
static void
rn_mp_run_release(int pid, unsigned long pages)
{
	char path[64];
	unsigned long now;

	snprintf(path, sizeof(path), RN_MP_RUN_FMT, pid);
	umount2(path, MNT_DETACH);
	rmdir(path);
	if (pages > 0 && rn_mp_read_ul(RN_MP_HP_DIR "nr_hugepages", &now) == 0)
		rn_mp_write_ul(RN_MP_HP_DIR "nr_hugepages", now > pages ? now - pages : 0);
	snprintf(path, sizeof(path), RN_MP_RUN_PAGES_FMT, pid);
	unlink(path);
}

/* Runs killed before their teardown (test timeout): give their pages back. Under the lock. */
static void
rn_mp_reap_stale_runs(void)
{
	char path[PATH_MAX];
	unsigned long pages;
	struct dirent *de;
	int pid, n;
	DIR *d;

	d = opendir("/run");
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		n = 0;
		if (sscanf(de->d_name, "dpdk-rio-hp.%d.pages%n", &pid, &n) != 1 || n == 0 ||
		    pid <= 0 || (kill(pid, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(path, sizeof(path), "/run/%s", de->d_name);
		if (rn_mp_read_ul(path, &pages) != 0)
			pages = 0;
		printf("  hugepages: giving back %lu pages of dead run %d\n", pages, pid);
		rn_mp_run_release(pid, pages);
	}
	closedir(d);
}

static int
rn_mp_hugepages_get(void)
{
	unsigned long before, after, nfree;
	char path[64];
	int fd, ret;

	if (geteuid() != 0) {
		snprintf(hp.why, sizeof(hp.why), "not root: cannot reserve hugepages");
		return -EPERM;
	}
	fd = rn_mp_lock();
	if (fd < 0 || rn_mp_read_ul(RN_MP_HP_DIR "nr_hugepages", &before) != 0) {
		snprintf(hp.why, sizeof(hp.why), "no 2 MiB hugepage support (%s)", RN_MP_HP_DIR);
		rn_mp_unlock(fd);
		return -ENOTSUP;
	}
	rn_mp_reap_stale_runs();
	rn_mp_read_ul(RN_MP_HP_DIR "nr_hugepages", &before);
	rn_mp_write_ul(RN_MP_HP_DIR "nr_hugepages", before + RN_MP_PAGES);
	if (rn_mp_read_ul(RN_MP_HP_DIR "nr_hugepages", &after) != 0)
		after = before;
	hp.added = after > before ? after - before : 0;
	/* Recorded first: a run killed from here on is cleaned up by the next one. */
	snprintf(path, sizeof(path), RN_MP_RUN_PAGES_FMT, (int)getpid());
	rn_mp_write_ul(path, hp.added);
	snprintf(hp.mnt, sizeof(hp.mnt), RN_MP_RUN_FMT, (int)getpid());
	if (rn_mp_read_ul(RN_MP_HP_DIR "free_hugepages", &nfree) != 0 || nfree < RN_MP_PAGES) {
		snprintf(hp.why, sizeof(hp.why),
			 "cannot reserve %d 2 MiB hugepages (got %lu more, %lu free)",
			 RN_MP_PAGES, hp.added, nfree);
		ret = -ENOMEM;
		goto fail;
	}
	if (mkdir(hp.mnt, 0700) != 0 ||
	    mount("nodev", hp.mnt, "hugetlbfs", 0, "pagesize=2M") != 0) {
		snprintf(hp.why, sizeof(hp.why), "cannot mount hugetlbfs on %s: %s", hp.mnt,
			 strerror(errno));
		ret = -ENOTSUP;
		goto fail;
	}
	rn_mp_unlock(fd);
	hp.ready = true;
	return 0;
fail:
	rn_mp_run_release(getpid(), hp.added);
	hp.added = 0;
	hp.mnt[0] = '\0';
	rn_mp_unlock(fd);
	return ret;
}

/* Remove the hugepage files a case's processes left (they hold pages). */
static void
rn_mp_hugepages_clean(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (!hp.ready)
		return;
	d = opendir(hp.mnt);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", hp.mnt, de->d_name);
		unlink(path);
	}
	closedir(d);
}

static void
rn_mp_hugepages_put(void)
{
	int fd;

	if (hp.mnt[0] == '\0')
		return;
	rn_mp_hugepages_clean();
	fd = rn_mp_lock();
	rn_mp_run_release(getpid(), hp.added);
	rn_mp_unlock(fd);
	hp.added = 0;
	hp.mnt[0] = '\0';
	hp.ready = false;
}

/* ------------------------------------------------------------------ */
/* Marker files                                                       */

static void
rn_mp_mark(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s", dir, name);
	fp = fopen(tmp, "w");
	if (fp == NULL)
		return;
	fputs(text, fp);
	fclose(fp);
	rename(tmp, path);
}

/* Wait for marker @name up to @ms; its first line into text. @return 0 or -ETIMEDOUT. */
static int
rn_mp_wait_mark(const char *dir, const char *name, char *text, size_t len, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000;
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	do {
		fp = fopen(path, "r");
		if (fp != NULL) {
			if (text != NULL && (fgets(text, len, fp) == NULL))
				text[0] = '\0';
			fclose(fp);
			return 0;
		}
		usleep(2000);
	} while (rte_get_timer_cycles() < end);
	return -ETIMEDOUT;
}

/* ------------------------------------------------------------------ */
/* Frames                                                             */

/*
 * The zc case (set from its arguments in each child): every frame fits in a
 * ring slot, one of two is received in place and the other copied.
 */
static bool rn_mp_zc;
/*
 * The zckill case: the secondary holds the frames it received in place on
 * queue 1 and is killed with SIGKILL; the primary takes queue 1 back.
 */
static bool rn_mp_zckill;

/* Set the case's flags from the mode argument of a child. */
static void
rn_mp_mode(const char *mode)
{
	rn_mp_zc = strncmp(mode, "zc", 2) == 0;
	rn_mp_zckill = strcmp(mode, "zckill") == 0;
}

static uint16_t
rn_mp_len(uint32_t seq)
{
	static const uint16_t lens[] = { 60, 61, 128, 1514, 4096, 333 };
	static const uint16_t lens_zc[] = { 1000, 100 };

	if (rn_mp_zc)
		return lens_zc[seq % RTE_DIM(lens_zc)];
	return lens[seq % RTE_DIM(lens)];
}

static uint8_t
rn_mp_byte(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 7 + i * 13 + 1);
}

/* Build frame @seq (len from rn_mp_len) in a mbuf of @mp; chained when it does not fit. */
static struct rte_mbuf *
rn_mp_frame(struct rte_mempool *mp, const struct rte_ether_addr *dst,
	    const struct rte_ether_addr *src, uint16_t type, uint32_t seq)
{
	uint16_t len = rn_mp_len(seq), off = 0, k;
	uint8_t buf[RTE_ETHER_MAX_JUMBO_FRAME_LEN];
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)buf;
	struct rte_mbuf *head, *m, *seg;
	uint32_t i;

	rte_ether_addr_copy(dst, &eh->dst_addr);
	rte_ether_addr_copy(src, &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(type);
	memcpy(buf + sizeof(*eh), &seq, sizeof(seq));
	for (i = sizeof(*eh) + sizeof(seq); i < len; i++)
		buf[i] = rn_mp_byte(seq, i);
	head = rte_pktmbuf_alloc(mp);
	if (head == NULL)
		return NULL;
	m = head;
	while (off < len) {
		k = RTE_MIN((uint16_t)rte_pktmbuf_tailroom(m), (uint16_t)(len - off));
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), buf + off, k);
		m->data_len = k;
		off += k;
		if (off == len)
			break;
		seg = rte_pktmbuf_alloc(mp);
		if (seg == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		m->next = seg;
		head->nb_segs++;
		m = seg;
	}
	head->pkt_len = len;
	return head;
}

/* Check a received frame of 0..nb-1; its sequence number into *seq. @return 0 or a reason > 0. */
static int
rn_mp_check(struct rte_mbuf *m, const struct rte_ether_addr *dst, uint16_t type, uint32_t nb,
	    uint32_t *seq)
{
	uint8_t buf[RTE_ETHER_MAX_JUMBO_FRAME_LEN];
	const struct rte_ether_hdr *eh;
	const uint8_t *p;
	uint32_t i;

	if (m->pkt_len < sizeof(*eh) + sizeof(*seq) || m->pkt_len > sizeof(buf))
		return 1;
	p = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	if (p == NULL)
		return 2;
	eh = (const struct rte_ether_hdr *)p;
	if (!rte_is_same_ether_addr(&eh->dst_addr, dst) ||
	    eh->ether_type != rte_cpu_to_be_16(type))
		return 3;
	memcpy(seq, p + sizeof(*eh), sizeof(*seq));
	/* Frames arrive as whole double-words, zero-padded. */
	if (*seq >= nb || m->pkt_len != (uint32_t)RTE_ALIGN_CEIL(rn_mp_len(*seq), 8u))
		return 4;
	for (i = sizeof(*eh) + sizeof(*seq); i < rn_mp_len(*seq); i++)
		if (p[i] != rn_mp_byte(*seq, i))
			return 5;
	for (; i < m->pkt_len; i++)
		if (p[i] != 0)
			return 5;
	return 0;
}

/* Send frames 0..nb-1 on (port, q); back-pressure is retried. @return sent. */
static unsigned int
rn_mp_send(uint16_t port, uint16_t q, struct rte_mempool *mp, const struct rte_ether_addr *dst,
	   const struct rte_ether_addr *src, uint16_t type, uint32_t nb)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * 10;
	struct rte_mbuf *m;
	uint32_t seq = 0;

	while (seq < nb && rte_get_timer_cycles() < end) {
		m = rn_mp_frame(mp, dst, src, type, seq);
		if (m == NULL)
			break;
		if (rte_eth_tx_burst(port, q, &m, 1) == 1) {
			seq++;
		} else {
			rte_pktmbuf_free(m);
			usleep(100);
		}
	}
	return seq;
}

/*
 * Where this process mapped the data segment of its rio_sim0 endpoint, which
 * holds the inbound rings: frames received in place lie in [lo, hi).
 */
struct rn_mp_seg {
	uintptr_t lo;
	uintptr_t hi;
	uint32_t slots;		/* inbound ring slots per mailbox */
};

/* Find the mapping of rio_sim0's data segment in /proc/self/maps. @return 0 or -errno. */
static int
rn_mp_rx_seg(struct rn_mp_seg *seg)
{
	struct rte_pmd_rio_sim_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };
	char name[96], line[512], *p;
	unsigned long lo, hi;
	size_t len;
	int dev_id;
	FILE *fp;

	memset(seg, 0, sizeof(*seg));
	dev_id = rte_rawdev_get_dev_id("rio_sim0");
	if (dev_id < 0 || rte_rawdev_info_get(dev_id, &ri, sizeof(info)) != 0)
		return -ENODEV;
	seg->slots = info.mbox_entries;
	len = snprintf(name, sizeof(name), "/rio_sim.%s.ep%u", info.fabric, info.ep_index);
	fp = fopen("/proc/self/maps", "r");
	if (fp == NULL)
		return -errno;
	while (seg->hi == 0 && fgets(line, sizeof(line), fp) != NULL) {
		p = strstr(line, name);
		if (p != NULL && (p[len] == '\n' || p[len] == ' ') &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			seg->lo = lo;
			seg->hi = hi;
		}
	}
	fclose(fp);
	return seg->hi != 0 ? 0 : -ENOENT;
}

/*
 * How frame @m was received: in place (external buffer in @inplace's
 * segment) when the port has rx_zero_copy (@inplace not NULL) and the frame
 * is longer than RN_MP_ZC_COPY_MAX, in the mbuf's own data room otherwise.
 * @return 0 or a reason > 0.
 */
static int
rn_mp_check_where(const struct rte_mbuf *m, const struct rn_mp_seg *inplace)
{
	bool ext = (m->ol_flags & RTE_MBUF_F_EXTERNAL) != 0;
	uintptr_t a = rte_pktmbuf_mtod(m, uintptr_t);

	if (ext != (inplace != NULL && m->pkt_len > RN_MP_ZC_COPY_MAX))
		return 6;
	if (ext && (m->nb_segs != 1 || a < inplace->lo || a + m->pkt_len > inplace->hi))
		return 7;
	return 0;
}

/*
 * Receive on (port, queues in @qmask) until every frame 0..nb-1 of @type
 * arrived once on each queue of qmask, up to 10 s; @inplace: the port
 * receives in place, there (NULL: copies). @return 0, or a line saying
 * what went wrong in err.
 */
static int
rn_mp_recv(uint16_t port, uint32_t qmask, const struct rte_ether_addr *dst, uint16_t type,
	   uint32_t nb, const struct rn_mp_seg *inplace, char *err, size_t errlen)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * 10;
	uint8_t seen[2][RN_MP_ZC_FRAMES] = { { 0 } };
	unsigned int want = 0, got = 0;
	struct rte_mbuf *pkts[32];
	uint16_t q, n, i;
	uint32_t seq;
	int bad;

	if (nb > RN_MP_ZC_FRAMES) {
		snprintf(err, errlen, "%u frames: %d at most", nb, RN_MP_ZC_FRAMES);
		return -EINVAL;
	}
	for (q = 0; q < 2; q++)
		if (qmask & (1u << q))
			want += nb;
	while (got < want && rte_get_timer_cycles() < end) {
		for (q = 0; q < 2; q++) {
			if (!(qmask & (1u << q)))
				continue;
			n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
			for (i = 0; i < n; i++) {
				bad = rn_mp_check(pkts[i], dst, type, nb, &seq);
				if (bad == 0)
					bad = rn_mp_check_where(pkts[i], inplace);
				if (bad != 0 || seen[q][seq]++ != 0) {
					if (bad != 0)
						snprintf(err, errlen,
							 "queue %u: bad frame (reason %d)", q, bad);
					else
						snprintf(err, errlen, "queue %u: frame %u twice",
							 q, seq);
					/* In place, each frame holds a ring slot: free all. */
					rte_pktmbuf_free_bulk(pkts + i, n - i);
					return -EIO;
				}
				rte_pktmbuf_free(pkts[i]);
				got++;
			}
		}
	}
	if (got != want) {
		snprintf(err, errlen, "%u of %u frames received", got, want);
		return -ETIMEDOUT;
	}
	return 0;
}

static int
rn_mp_parse_mac(const char *s, struct rte_ether_addr *mac)
{
	return rte_ether_unformat_addr(s, mac);
}

/* Link of @port up within ms. */
static bool
rn_mp_link_up(uint16_t port, unsigned int ms)
{
	struct rte_eth_link link;
	unsigned int t;

	for (t = 0; t < ms; t += 10) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(port, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP)
			return true;
		rte_delay_ms(10);
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Children                                                           */

#define CHILD_FAIL(code, fmt, ...) do { \
	printf("  %s: " fmt "\n", who, ##__VA_ARGS__); \
	ret = code; \
	goto out; \
} while (0)

/* Pools: small (bounce receive, chained frames), big (4096-byte frames fit: direct). */
static int
rn_mp_pools(struct rte_mempool **small, struct rte_mempool **big)
{
	*small = rte_pktmbuf_pool_create("rn_mp_small", 4096, 64, 0,
					 RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	*big = rte_pktmbuf_pool_create("rn_mp_big", 2048, 64, 0,
				       RTE_PKTMBUF_HEADROOM + 4096, rte_socket_id());
	return *small != NULL && *big != NULL ? 0 : -ENOMEM;
}

/*
 * Configure 2 queue pairs; Rx queue 1 direct (big pool) or bounce. In the
 * zc case the MTU fits what rx_zero_copy receives in place.
 */
static int
rn_mp_port_start(uint16_t port, struct rte_mempool *small, struct rte_mempool *big,
		 bool q1_direct)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mtu = rn_mp_zc ? RTE_ETHER_MTU : 4082;
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
	conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	ret = rte_eth_dev_configure(port, 2, 2, &conf);
	if (ret < 0)
		return ret;
	for (q = 0; q < 2; q++) {
		ret = rte_eth_rx_queue_setup(port, q, 256, rte_socket_id(), NULL,
					     q == 1 && q1_direct ? big : small);
		if (ret < 0)
			return ret;
		ret = rte_eth_tx_queue_setup(port, q, 256, rte_socket_id(), NULL);
		if (ret < 0)
			return ret;
	}
	return rte_eth_dev_start(port);
}

/* argv after "--": <dir> <direct|bounce|zc> (zc: rx_zero_copy=1 in the devargs) */
static int
rn_mp_primary(int argc, char **argv)
{
	const char *who = "primary";
	struct rte_mempool *small = NULL, *big = NULL;
	char text[64], err[128], *dir;
	struct rte_ether_addr mac, peer;
	struct rn_mp_seg seg;
	struct rte_mbuf *pkts[32];
	bool started = false;
	uint64_t end, q0 = 0;
	uint16_t port, n;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("  %s: EAL init failed\n", who);
		return 10;
	}
	argc -= ret;
	argv += ret;
	if (argc < 3)
		CHILD_FAIL(11, "missing arguments");
	dir = argv[1];
	rn_mp_mode(argv[2]);
	if (rte_eth_dev_get_port_by_name(RN_MP_PORT, &port) != 0)
		CHILD_FAIL(12, "no port %s", RN_MP_PORT);
	if (rn_mp_pools(&small, &big) != 0)
		CHILD_FAIL(13, "no mbuf pools");
	ret = rn_mp_port_start(port, small, big, strcmp(argv[2], "direct") == 0);
	if (ret < 0)
		CHILD_FAIL(14, "cannot start the port (%d)", ret);
	started = true;
	if (!rn_mp_link_up(port, RN_MP_WAIT_MS))
		CHILD_FAIL(15, "no link");
	if (rn_mp_zc && rn_mp_rx_seg(&seg) != 0)
		CHILD_FAIL(20, "no mapping of rio_sim0's data segment");
	rte_eth_macaddr_get(port, &mac);
	rte_ether_format_addr(text, sizeof(text), &mac);
	rn_mp_mark(dir, "primary.ready", text);
	if (rn_mp_wait_mark(dir, "peer.ready", text, sizeof(text), RN_MP_WAIT_MS) != 0 ||
	    rn_mp_parse_mac(text, &peer) != 0)
		CHILD_FAIL(16, "no peer");

	/*
	 * The peer's first frames on both queues. Queue 1 is then handed over
	 * to the secondary (started after this): never polled here again.
	 */
	ret = rn_mp_recv(port, (1u << 0) | (1u << 1), &mac, RN_MP_TYPE_IN, RN_MP_FRAMES,
			 rn_mp_zc ? &seg : NULL, err, sizeof(err));
	if (ret < 0)
		CHILD_FAIL(17, "queues 0 and 1: %s", err);
	q0 = RN_MP_FRAMES;
	snprintf(text, sizeof(text), "%" PRIu64, q0);
	rn_mp_mark(dir, "primary.q0", text);

	/*
	 * zckill: the secondary was killed holding frames received in place
	 * on queue 1: this process polls queue 1 again, and the peer's next
	 * three rings' worth arrive only if the dead holder's ring slots come
	 * back.
	 */
	if (rn_mp_zckill) {
		if (rn_mp_wait_mark(dir, "secondary.killed", NULL, 0, 2 * RN_MP_WAIT_MS) != 0)
			CHILD_FAIL(21, "the secondary was not killed");
		ret = rn_mp_recv(port, 1u << 1, &mac, RN_MP_TYPE_IN, RN_MP_ZC_FRAMES, &seg, err,
				 sizeof(err));
		if (ret < 0)
			CHILD_FAIL(22, "queue 1 after the secondary died: %s", err);
		printf("  %s: queue 1 taken back: %d frames in place past the dead holder's\n",
		       who, RN_MP_ZC_FRAMES);
		rn_mp_mark(dir, "primary.q1", "ok");
	}

	/* Until the test says stop: the doorbell poll keeps the link up meanwhile. */
	end = rte_get_timer_cycles() + rte_get_timer_hz() * 60;
	while (rn_mp_wait_mark(dir, "stop", NULL, 0, 10) != 0) {
		if (rte_get_timer_cycles() > end)
			CHILD_FAIL(18, "never told to stop");
		n = rte_eth_rx_burst(port, 0, pkts, RTE_DIM(pkts));
		if (n > 0) {
			rte_pktmbuf_free_bulk(pkts, n);
			CHILD_FAIL(19, "%u unexpected frames on queue 0", n);
		}
	}
	ret = 0;
out:
	if (started) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rte_mempool_free(small);
	rte_mempool_free(big);
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(rionet_mp_primary, rn_mp_primary);

/* argv after "--": <dir> <direct|bounce|zc> */
static int
rn_mp_peer(int argc, char **argv)
{
	const char *who = "peer";
	struct rte_mempool *small = NULL, *big = NULL;
	struct rte_ether_addr mac, prim;
	char text[64], err[128], *dir;
	bool started = false;
	unsigned int sent;
	uint16_t port, q;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("  %s: EAL init failed\n", who);
		return 10;
	}
	argc -= ret;
	argv += ret;
	if (argc < 3)
		CHILD_FAIL(11, "missing arguments");
	dir = argv[1];
	rn_mp_mode(argv[2]);
	if (rte_eth_dev_get_port_by_name(RN_MP_PORT, &port) != 0)
		CHILD_FAIL(12, "no port %s", RN_MP_PORT);
	if (rn_mp_pools(&small, &big) != 0)
		CHILD_FAIL(13, "no mbuf pools");
	ret = rn_mp_port_start(port, small, big, true);
	if (ret < 0)
		CHILD_FAIL(14, "cannot start the port (%d)", ret);
	started = true;
	if (!rn_mp_link_up(port, RN_MP_WAIT_MS))
		CHILD_FAIL(15, "no link");
	rte_eth_macaddr_get(port, &mac);
	rte_ether_format_addr(text, sizeof(text), &mac);
	rn_mp_mark(dir, "peer.ready", text);
	if (rn_mp_wait_mark(dir, "primary.ready", text, sizeof(text), RN_MP_WAIT_MS) != 0 ||
	    rn_mp_parse_mac(text, &prim) != 0)
		CHILD_FAIL(16, "no primary");

	/* Tx queue q of 2 owns mailbox q: the frames land in the primary's Rx queue q. */
	for (q = 0; q < 2; q++) {
		sent = rn_mp_send(port, q, small, &prim, &mac, RN_MP_TYPE_IN, RN_MP_FRAMES);
		if (sent != RN_MP_FRAMES)
			CHILD_FAIL(18, "queue %u: %u of %d frames sent", q, sent, RN_MP_FRAMES);
	}
	/* Queue 1 again, once the secondary polls it instead of the primary. */
	if (rn_mp_wait_mark(dir, "secondary.attached", NULL, 0, RN_MP_WAIT_MS) != 0)
		CHILD_FAIL(17, "the secondary did not attach");
	sent = rn_mp_send(port, 1, small, &prim, &mac, RN_MP_TYPE_IN, RN_MP_FRAMES);
	if (sent != RN_MP_FRAMES)
		CHILD_FAIL(20, "queue 1: %u of %d frames sent", sent, RN_MP_FRAMES);
	/* zckill: three rings' worth once the holder of the first ones is dead. */
	if (rn_mp_zckill) {
		if (rn_mp_wait_mark(dir, "secondary.killed", NULL, 0, 2 * RN_MP_WAIT_MS) != 0)
			CHILD_FAIL(23, "the secondary was not killed");
		sent = rn_mp_send(port, 1, small, &prim, &mac, RN_MP_TYPE_IN, RN_MP_ZC_FRAMES);
		if (sent != RN_MP_ZC_FRAMES)
			CHILD_FAIL(24, "queue 1: %u of %d frames sent after the kill (ring full?)",
				   sent, RN_MP_ZC_FRAMES);
		rn_mp_mark(dir, "peer.done", "ok");
		ret = 0;
		goto out;
	}
	/*
	 * zc: three rings' worth once the secondary has taken those: its ring
	 * slots come back only when it frees the frames, else this stops at a
	 * full ring.
	 */
	if (rn_mp_zc) {
		if (rn_mp_wait_mark(dir, "secondary.zc", NULL, 0, RN_MP_WAIT_MS) != 0)
			CHILD_FAIL(21, "the secondary did not get the first frames");
		sent = rn_mp_send(port, 1, small, &prim, &mac, RN_MP_TYPE_IN, RN_MP_ZC_FRAMES);
		if (sent != RN_MP_ZC_FRAMES)
			CHILD_FAIL(22, "queue 1: %u of %d frames sent (ring full?)", sent,
				   RN_MP_ZC_FRAMES);
	}
	/* What the secondary sends through Tx queue 1 (mailbox 1): our Rx queue 1. */
	ret = rn_mp_recv(port, 1u << 1, &mac, RN_MP_TYPE_OUT, RN_MP_FRAMES, NULL, err,
			 sizeof(err));
	if (ret < 0)
		CHILD_FAIL(19, "from the secondary: %s", err);
	rn_mp_mark(dir, "peer.done", "ok");
	ret = 0;
out:
	if (started) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rte_mempool_free(small);
	rte_mempool_free(big);
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(rionet_mp_peer, rn_mp_peer);

/* Value of xstat @name of @port, or -1. */
static int64_t
rn_mp_xstat(uint16_t port, const char *name)
{
	uint64_t id, v;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return -1;
	return (int64_t)v;
}

/*
 * The secondary's rio_sim0: an mport whose only device is its own endpoint
 * (ID 0, the primary enumerated the fabric), a rawdev that refuses the raw
 * data path. @return 0 or 1 with err filled.
 */
static int
rn_mp_secondary_rio(char *err, size_t len)
{
	struct rte_pmd_rio_sim_conf conf;
	struct rte_rawdev_info ri = { 0 };
	struct rte_rio_dev_info info;
	struct rte_rio_mport *mp;
	struct rte_rio_dev *d;
	int dev_id, ret;

	mp = rte_rio_mport_find("rio_sim0");
	if (mp == NULL) {
		snprintf(err, len, "no mport rio_sim0");
		return 1;
	}
	d = rte_rio_dev_next(mp, NULL);
	if (rte_rio_dev_count(mp) != 1 || d == NULL || rte_rio_dev_info_get(d, &info) != 0 ||
	    !info.local || info.destid != 0) {
		snprintf(err, len, "%u devices, first %s", rte_rio_dev_count(mp),
			 d != NULL ? rte_rio_dev_name(d) : "none");
		return 1;
	}
	dev_id = rte_rawdev_get_dev_id("rio_sim0");
	memset(&conf, 0, sizeof(conf));
	conf.mbox_mask = 1u << 3;
	ri.dev_private = &conf;
	ret = dev_id < 0 ? dev_id : rte_rawdev_configure(dev_id, &ri, sizeof(conf));
	if (ret != -ENOTSUP) {
		snprintf(err, len, "rawdev configure gave %d, not -ENOTSUP", ret);
		return 1;
	}
	return 0;
}

/*
 * The devargs of vdev @name when they are nobody's: DPDK 22.11 to 25.11
 * never free the devargs of a vdev a secondary learned from its primary
 * (rte_vdev_uninit() looks for them in the devargs list, where they never
 * were). The secondary frees them itself, so that LeakSanitizer needs no
 * suppression: one broad enough to cover them (librte_bus_vdev, whose
 * stripped frames have no names) would hide the drivers' leaks too.
 */
static struct rte_devargs *
rn_mp_orphan_devargs(const char *name)
{
	struct rte_dev_iterator it;
	struct rte_devargs *da, *d;
	struct rte_device *dev;

	RTE_DEV_FOREACH(dev, "bus=vdev", &it) {
		if (strcmp(rte_dev_name(dev), name) != 0)
			continue;
		da = (struct rte_devargs *)(uintptr_t)rte_dev_devargs(dev);
		RTE_EAL_DEVARGS_FOREACH("vdev", d)
			if (d == da)
				return NULL;
		return da;
	}
	return NULL;
}

/*
 * zckill: receive frames 0..RN_MP_FRAMES-1 on queue 1 and keep every mbuf,
 * the frames received in place holding their ring slots. @return 0, or a
 * line in err.
 */
static int
rn_mp_hold(uint16_t port, const struct rte_ether_addr *dst, const struct rn_mp_seg *seg,
	   char *err, size_t errlen)
{
	static struct rte_mbuf *held[RN_MP_FRAMES];
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * 10;
	unsigned int got = 0, ext = 0;
	uint16_t n, i;
	uint32_t seq;
	int bad;

	while (got < RN_MP_FRAMES && rte_get_timer_cycles() < end) {
		n = rte_eth_rx_burst(port, 1, &held[got], RN_MP_FRAMES - got);
		for (i = 0; i < n; i++) {
			bad = rn_mp_check(held[got + i], dst, RN_MP_TYPE_IN, RN_MP_FRAMES, &seq);
			if (bad == 0)
				bad = rn_mp_check_where(held[got + i], seg);
			if (bad != 0) {
				snprintf(err, errlen, "bad frame (reason %d)", bad);
				return -EIO;
			}
			ext += (held[got + i]->ol_flags & RTE_MBUF_F_EXTERNAL) != 0;
		}
		got += n;
	}
	if (got != RN_MP_FRAMES || ext == 0) {
		snprintf(err, errlen, "%u of %d frames, %u in place", got, RN_MP_FRAMES, ext);
		return -ETIMEDOUT;
	}
	printf("  secondary: holds %u frames, %u of them in place, until it is killed\n", got,
	       ext);
	return 0;
}

/* argv after "--": <dir> <direct|bounce|zc|zckill> */
static int
rn_mp_secondary(int argc, char **argv)
{
	const char *who = "secondary";
	struct rte_ether_addr mac, prim, peer;
	struct rte_mempool *small;
	struct rte_eth_dev_info info;
	struct rte_eth_stats st;
	char text[64], err[128], *dir;
	char name[RTE_ETH_NAME_MAX_LEN];
	uint64_t rx_expected = 2 * RN_MP_FRAMES;
	struct rte_devargs *orphan = NULL;
	struct rn_mp_seg seg;
	unsigned int sent;
	uint16_t port;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("  %s: EAL init failed\n", who);
		return 10;
	}
	argc -= ret;
	argv += ret;
	if (argc < 3)
		CHILD_FAIL(11, "missing arguments");
	dir = argv[1];
	rn_mp_mode(argv[2]);
	if (rte_eal_process_type() != RTE_PROC_SECONDARY)
		CHILD_FAIL(12, "not a secondary process");

	/* (1) The same port: name, MAC, link, configuration, stats, xstats. */
	if (rte_eth_dev_count_avail() != 1)
		CHILD_FAIL(13, "%u ports instead of 1", rte_eth_dev_count_avail());
	if (rte_eth_dev_get_port_by_name(RN_MP_PORT, &port) != 0)
		CHILD_FAIL(14, "no port %s", RN_MP_PORT);
	if (rte_eth_dev_get_name_by_port(port, name) != 0 || strcmp(name, RN_MP_PORT) != 0)
		CHILD_FAIL(15, "port name");
	if (rn_mp_wait_mark(dir, "primary.ready", text, sizeof(text), 1000) != 0 ||
	    rn_mp_parse_mac(text, &prim) != 0 ||
	    rn_mp_wait_mark(dir, "peer.ready", text, sizeof(text), 1000) != 0 ||
	    rn_mp_parse_mac(text, &peer) != 0)
		CHILD_FAIL(16, "markers of the primary and the peer");
	if (rte_eth_macaddr_get(port, &mac) != 0 || !rte_is_same_ether_addr(&mac, &prim))
		CHILD_FAIL(17, "MAC differs from the primary's");
	if (!rn_mp_link_up(port, 1000))
		CHILD_FAIL(18, "link is not up");
	if (rte_eth_dev_info_get(port, &info) != 0 || info.nb_rx_queues != 2 ||
	    info.nb_tx_queues != 2 || strcmp(info.driver_name, "net_rionet") != 0)
		CHILD_FAIL(19, "device info (driver %s, %u/%u queues)", info.driver_name,
			   info.nb_rx_queues, info.nb_tx_queues);
	if (rte_eth_stats_get(port, &st) != 0)
		CHILD_FAIL(20, "stats");
	if (rn_mp_xstat(port, "peers_active") != 1 || rn_mp_xstat(port, "join_rx") < 1)
		CHILD_FAIL(21, "xstats: peers_active %" PRId64 ", join_rx %" PRId64,
			   rn_mp_xstat(port, "peers_active"), rn_mp_xstat(port, "join_rx"));
	/* Control belongs to the primary. */
	if (rte_eth_dev_stop(port) == 0 || rte_eth_dev_set_mtu(port, 1500) == 0)
		CHILD_FAIL(22, "a secondary stopped the port or changed its MTU");
	if (!rn_mp_link_up(port, 10))
		CHILD_FAIL(23, "link went down");
	/* rio_sim: a view of the primary's endpoint; its rio bus has that endpoint only. */
	ret = rn_mp_secondary_rio(err, sizeof(err));
	if (ret != 0)
		CHILD_FAIL(32, "rio_sim view: %s", err);

	/*
	 * zc: frames received in place lie where this process mapped the
	 * endpoint's data segment (at the primary's address); the frames of (3)
	 * must go round the ring at least twice.
	 */
	if (rn_mp_zc && rn_mp_rx_seg(&seg) != 0)
		CHILD_FAIL(33, "no mapping of rio_sim0's data segment");
	if (rn_mp_zc && (seg.slots == 0 || RN_MP_ZC_FRAMES < 2 * seg.slots))
		CHILD_FAIL(34, "%d frames do not go round a ring of %u slots twice",
			   RN_MP_ZC_FRAMES, seg.slots);

	/*
	 * (2) Receive on queue 1, which the primary configured and never polls.
	 * zc: frames of 1000 bytes in place (external), of 100 bytes copied.
	 */
	rn_mp_mark(dir, "secondary.attached", "ok");
	if (rn_mp_zckill) {
		ret = rn_mp_hold(port, &mac, &seg, err, sizeof(err));
		if (ret < 0)
			CHILD_FAIL(37, "queue 1: %s", err);
		rn_mp_mark(dir, "secondary.holding", "ok");
		/* Killed here (SIGKILL), the frames still held. */
		rte_delay_ms(2 * RN_MP_WAIT_MS);
		CHILD_FAIL(38, "never killed");
	}
	ret = rn_mp_recv(port, 1u << 1, &mac, RN_MP_TYPE_IN, RN_MP_FRAMES,
			 rn_mp_zc ? &seg : NULL, err, sizeof(err));
	if (ret < 0)
		CHILD_FAIL(24, "queue 1: %s", err);
	/* The queue's counters are shared: the primary's frames, then ours. */
	if (rte_eth_stats_get(port, &st) != 0 || st.q_ipackets[1] != rx_expected)
		CHILD_FAIL(25, "queue 1 counted %" PRIu64 " frames", st.q_ipackets[1]);

	/*
	 * (3) zc: three rings' worth, freed here burst by burst: they pass only
	 * if a free in this process gives the frame's ring slot back.
	 */
	if (rn_mp_zc) {
		rn_mp_mark(dir, "secondary.zc", "ok");
		ret = rn_mp_recv(port, 1u << 1, &mac, RN_MP_TYPE_IN, RN_MP_ZC_FRAMES, &seg, err,
				 sizeof(err));
		if (ret < 0)
			CHILD_FAIL(35, "queue 1, ring of %u slots: %s", seg.slots, err);
		rx_expected += RN_MP_ZC_FRAMES;
		if (rte_eth_stats_get(port, &st) != 0 || st.q_ipackets[1] != rx_expected)
			CHILD_FAIL(36, "queue 1 counted %" PRIu64 " frames", st.q_ipackets[1]);
		printf("  %s: queue 1 in place: %d frames through a ring of %u slots\n", who,
		       RN_MP_FRAMES + RN_MP_ZC_FRAMES, seg.slots);
	}
	/* Send through queue 1, from the primary's pool. */
	small = rte_mempool_lookup("rn_mp_small");
	if (small == NULL)
		CHILD_FAIL(26, "no pool rn_mp_small");
	sent = rn_mp_send(port, 1, small, &peer, &mac, RN_MP_TYPE_OUT, RN_MP_FRAMES);
	if (sent != RN_MP_FRAMES)
		CHILD_FAIL(27, "%u of %d frames sent", sent, RN_MP_FRAMES);
	if (rte_eth_stats_get(port, &st) != 0 || st.q_opackets[1] != RN_MP_FRAMES)
		CHILD_FAIL(28, "queue 1 counted %" PRIu64 " sent frames", st.q_opackets[1]);
	if (rn_mp_wait_mark(dir, "peer.done", NULL, 0, RN_MP_WAIT_MS) != 0)
		CHILD_FAIL(29, "the peer did not get our frames");
	rte_ether_format_addr(text, sizeof(text), &mac);
	printf("  %s: port %u %s %s link up, queue 1: %d frames received, %d sent\n", who,
	       port, name, text, RN_MP_FRAMES, RN_MP_FRAMES);

	/* Detach: the secondary's rio_sim view and rionet port go, the primary's stay. */
	orphan = rn_mp_orphan_devargs("rio_sim0");
	if (rte_vdev_uninit("rio_sim0") != 0)
		CHILD_FAIL(30, "cannot remove the secondary's rio_sim0");
	if (orphan != NULL) {
		rte_devargs_reset(orphan);
		free(orphan);
	}
	if (rte_eth_dev_count_avail() != 0)
		CHILD_FAIL(31, "the port is still there after its device left");
	ret = 0;
out:
	rte_eal_cleanup();
	return ret;
}
REGISTER_TEST_CHILD(rionet_mp_secondary, rn_mp_secondary);

/* ------------------------------------------------------------------ */
/* Parent                                                             */

struct rn_mp_case {
	char fabric[32];
	char dir[64];
	char drivers[PATH_MAX - 64];
	char rionet[PATH_MAX];
	char vdev_p[96];
	char vdev_b[96];
	char pfx_p[64];
	char pfx_b[64];
	char huge[96];
	/*
	 * Lcores on the CPUs the test runs on: lcore IDs differ between the
	 * primary and its secondary (mempool caches are per lcore ID).
	 */
	char lc_0[96];
	char lc_1[96];
	char lc_01[96];
	char lc_23[96];
};

static int
rn_mp_case_init(struct rn_mp_case *c)
{
	char self[PATH_MAX];

	memset(c, 0, sizeof(*c));
	if (rio_test_self() == NULL)
		return -ENOENT;
	strlcpy(self, rio_test_self(), sizeof(self));
	/* Plugins: <build>/drivers, next to <build>/app/test/dpdk-rio-test. */
	snprintf(c->drivers, sizeof(c->drivers), "%s/../../drivers", dirname(self));
	snprintf(c->rionet, sizeof(c->rionet), "%s/librte_net_rionet.so", c->drivers);
	if (rio_test_unique("rnmp", c->fabric, sizeof(c->fabric) - 1) == NULL)
		return -EINVAL;
	strcat(c->fabric, "m");
	snprintf(c->dir, sizeof(c->dir), "/tmp/%s.XXXXXX", c->fabric);
	if (mkdtemp(c->dir) == NULL)
		return -errno;
	snprintf(c->vdev_p, sizeof(c->vdev_p), "rio_sim0,fabric=%s,endpoint=ep0", c->fabric);
	snprintf(c->vdev_b, sizeof(c->vdev_b), "rio_sim0,fabric=%s,endpoint=ep1", c->fabric);
	snprintf(c->pfx_p, sizeof(c->pfx_p), "--file-prefix=%sp", c->fabric);
	snprintf(c->pfx_b, sizeof(c->pfx_b), "--file-prefix=%sb", c->fabric);
	snprintf(c->huge, sizeof(c->huge), "--huge-dir=%s", hp.mnt);
	if (rio_test_lcores(c->lc_0, sizeof(c->lc_0), "0") == NULL ||
	    rio_test_lcores(c->lc_1, sizeof(c->lc_1), "1") == NULL ||
	    rio_test_lcores(c->lc_01, sizeof(c->lc_01), "0-1") == NULL ||
	    rio_test_lcores(c->lc_23, sizeof(c->lc_23), "2-3") == NULL)
		return -ENAMETOOLONG;
	return 0;
}

/* Remove the markers, the directory, and what the fabric left in /dev/shm; count it. */
static int
rn_mp_case_fini(struct rn_mp_case *c)
{
	char prefix[64];
	int left;

	rio_test_rmdir_files(c->dir);
	rn_mp_hugepages_clean();
	/* EAL runtime directories of the case's two process groups. */
	rio_test_runtime_dir_cleanup(c->pfx_p + strlen("--file-prefix="));
	rio_test_runtime_dir_cleanup(c->pfx_b + strlen("--file-prefix="));
	snprintf(prefix, sizeof(prefix), "rio_sim.%s", c->fabric);
	left = rio_test_shm_count(prefix);
	if (left != 0)
		rio_test_shm_cleanup(prefix);
	return left;
}

/* Wait for a child; kill and reap it after ms. @return its exit status. */
static int
rn_mp_reap(pid_t pid, unsigned int ms, const char *who)
{
	int st;

	if (pid <= 0)
		return -1;
	st = rio_test_wait(pid, ms);
	if (st != 0)
		printf("  %s ended with %d\n", who, st);
	return st;
}

/* Start the secondary child (see rn_mp_orphan_devargs() for its leak check). */
static pid_t
rn_mp_spawn_secondary(const struct rn_mp_case *c, char *argv[])
{
	RTE_SET_USED(c);
	return rio_test_spawn("rionet_mp_secondary", argv);
}

/* @mode: how queue 1 receives, direct, bounce or zc (rx_zero_copy=1). */
static int
rn_mp_run(const char *mode)
{
	struct rn_mp_case c;
	pid_t prim = -1, peer = -1, sec = -1;
	int st_prim = -1, st_peer = -1, st_sec = -1, left;
	char text[32] = "";
	/*
	 * zc: the rionet devarg on the primary's endpoint (an allow list of the
	 * rio bus); else an option that changes nothing.
	 */
	const char *allow = strncmp(mode, "zc", 2) == 0 ? RN_MP_ZC_ALLOW : "--proc-type=primary";
	char *argv_p[] = {
		(char *)"--no-pci", c.lc_0, (char *)"-m", (char *)"128",
		(char *)RN_MP_BASE_VA, c.huge, c.pfx_p, (char *)"-d", c.rionet,
		(char *)"--vdev", c.vdev_p, (char *)allow, (char *)"--log-level=lib.eal:error",
		(char *)"--", c.dir, (char *)mode, NULL
	};
	char *argv_b[] = {
		(char *)"--no-pci", c.lc_1, (char *)"--no-huge", (char *)"-m",
		(char *)"256", c.pfx_b, (char *)"-d", c.rionet, (char *)"--vdev", c.vdev_b,
		(char *)"--log-level=lib.eal:error", (char *)"--", c.dir, (char *)mode, NULL
	};
	char *argv_s[] = {
		(char *)"--no-pci", c.lc_1, (char *)"--proc-type=secondary",
		c.huge, c.pfx_p, (char *)"-d", c.rionet, (char *)"--log-level=lib.eal:error",
		(char *)"--", c.dir, (char *)mode, NULL
	};

	if (!hp.ready) {
		printf("  skipped: %s\n", hp.why);
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(rn_mp_case_init(&c), "case set-up");
	printf("  fabric %s, queue 1 %s\n", c.fabric, mode);
	prim = rio_test_spawn("rionet_mp_primary", argv_p);
	if (prim > 0)
		peer = rio_test_spawn("rionet_mp_peer", argv_b);
	/* The primary has received on queue 1: the secondary takes the queue over. */
	if (peer > 0 && rn_mp_wait_mark(c.dir, "primary.q0", text, sizeof(text),
					RN_MP_WAIT_MS) == 0)
		sec = rn_mp_spawn_secondary(&c, argv_s);
	else
		printf("  the primary did not get the peer's first frames\n");
	if (sec > 0 && strcmp(mode, "zckill") == 0) {
		/* Killed while it holds frames received in place. */
		if (rn_mp_wait_mark(c.dir, "secondary.holding", NULL, 0, RN_MP_WAIT_MS) == 0 &&
		    kill(sec, SIGKILL) == 0 && rio_test_wait(sec, 10000) == 128 + SIGKILL) {
			st_sec = 0;
			rn_mp_mark(c.dir, "secondary.killed", "ok");
		} else {
			printf("  the secondary did not hold frames, or was not killed\n");
			kill(sec, SIGKILL);
			rio_test_wait(sec, 10000);
		}
		sec = -1;
		if (st_sec == 0 && rn_mp_wait_mark(c.dir, "primary.q1", NULL, 0,
						   2 * RN_MP_WAIT_MS) != 0)
			printf("  the primary did not get queue 1's frames back\n");
	}
	if (sec > 0)
		st_sec = rn_mp_reap(sec, 60000, "secondary");
	if (peer > 0)
		st_peer = rn_mp_reap(peer, sec > 0 ? 30000 : 1000, "peer");
	rn_mp_mark(c.dir, "stop", "stop");
	if (prim > 0)
		st_prim = rn_mp_reap(prim, 30000, "primary");
	left = rn_mp_case_fini(&c);
	TEST_ASSERT_EQUAL(st_sec, 0, "secondary");
	TEST_ASSERT_EQUAL(st_peer, 0, "peer");
	TEST_ASSERT_EQUAL(st_prim, 0, "primary");
	TEST_ASSERT_EQUAL(atoi(text), RN_MP_FRAMES, "frames the primary got on each queue");
	TEST_ASSERT_EQUAL(left, 0, "shared memory left behind");
	return TEST_SUCCESS;
}

static int
rn_mp_direct(void)
{
	return rn_mp_run("direct");
}

static int
rn_mp_bounce(void)
{
	return rn_mp_run("bounce");
}

/* rx_zero_copy=1: the secondary frees frames received in place, and their ring slots go back. */
static int
rn_mp_zero_copy(void)
{
	return rn_mp_run("zc");
}

/*
 * rx_zero_copy=1: the secondary is killed (SIGKILL) while it holds frames
 * received in place: their ring slots come back, and queue 1 goes on in the
 * primary.
 */
static int
rn_mp_zero_copy_kill(void)
{
	return rn_mp_run("zckill");
}

/* ------------------------------------------------------------------ */
/* Stock dpdk-testpmd as primary and secondary, dpdk-proc-info        */

#define RN_PROC_INFO	"/usr/bin/dpdk-proc-info"

/* Run @prog with argv, output to path, stdin from /dev/null. @return pid or -errno. */
static pid_t
rn_mp_exec(const char *prog, char *const argv[], const char *path)
{
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0)
		return pid;
	/* Do not outlive a test killed by its timeout. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
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

/* SIGINT (testpmd prints its totals and exits), then reap. @return exit status or -1. */
static int
rn_mp_interrupt(pid_t pid, const char *who)
{
	int st;

	if (pid <= 0)
		return -1;
	kill(pid, SIGINT);
	st = rio_test_wait(pid, 20000);
	if (st != 0)
		printf("  %s ended with %d\n", who, st);
	return st;
}

/* Does the file at @path contain @what (within ms)? */
static bool
rn_mp_log_wait(const char *path, const char *what, unsigned int ms)
{
	char line[512];
	unsigned int t;
	FILE *fp;

	for (t = 0; t <= ms; t += 20) {
		fp = fopen(path, "r");
		if (fp != NULL) {
			while (fgets(line, sizeof(line), fp) != NULL) {
				if (strstr(line, what) != NULL) {
					fclose(fp);
					return true;
				}
			}
			fclose(fp);
		}
		usleep(20000);
	}
	return false;
}

/* Last "<what> N" in the file (after @after when not NULL), or -1. */
static int64_t
rn_mp_log_count(const char *path, const char *after, const char *what)
{
	char line[512], *p;
	bool in = after == NULL;
	int64_t v = -1;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (after != NULL && strstr(line, after) != NULL)
			in = true;
		p = strstr(line, what);
		if (in && p != NULL)
			v = strtoll(p + strlen(what), NULL, 10);
	}
	fclose(fp);
	return v;
}

/* Print the last lines of a log, for a failure's report. */
static void
rn_mp_log_dump(const char *path)
{
	char lines[20][256];
	unsigned int n = 0, i;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL)
		return;
	while (fgets(lines[n % RTE_DIM(lines)], sizeof(lines[0]), fp) != NULL)
		n++;
	fclose(fp);
	printf("  ---- %s (last lines)\n", path);
	for (i = n > RTE_DIM(lines) ? n - RTE_DIM(lines) : 0; i < n; i++)
		printf("  | %s", lines[i % RTE_DIM(lines)]);
}

/*
 * Primary testpmd (rxonly, 2 queues, --num-procs=2 --proc-id=0: polls queue
 * 0), secondary testpmd (--proc-id=1: queue 1), a txonly testpmd peer whose
 * Tx queue q feeds the port's Rx queue q, then dpdk-proc-info (another
 * secondary) reads the per-queue counters: both queues got frames and
 * together exactly what the peer sent.
 */
static int
rn_mp_testpmd(void)
{
	struct rn_mp_case c;
	char log_a[96], log_s[96], log_b[96], log_i[96];
	pid_t a = -1, s = -1, b = -1, info = -1;
	int st_a = -1, st_s = -1, st_b = -1, st_i = -1, left;
	int64_t tx = -1, rx = -1, q0 = -1, q1 = -1;
	char *argv_a[] = {
		(char *)"dpdk-testpmd", c.huge, (char *)"-m", (char *)"256", (char *)"--no-pci",
		c.pfx_p, c.lc_01, (char *)"-d", c.drivers, (char *)"--vdev",
		c.vdev_p, (char *)"--log-level=lib.eal:error", (char *)"--", (char *)"--rxq=2",
		(char *)"--txq=2", (char *)"--num-procs=2", (char *)"--proc-id=0",
		(char *)"--total-num-mbufs=8192", (char *)"--forward-mode=rxonly",
		(char *)"--stats-period=1", NULL
	};
	char *argv_s[] = {
		(char *)"dpdk-testpmd", c.huge, (char *)"--no-pci", (char *)"--proc-type=secondary",
		c.pfx_p, c.lc_23, (char *)"-d", c.drivers,
		(char *)"--log-level=lib.eal:error", (char *)"--", (char *)"--rxq=2",
		(char *)"--txq=2", (char *)"--num-procs=2", (char *)"--proc-id=1",
		(char *)"--total-num-mbufs=8192", (char *)"--forward-mode=rxonly",
		(char *)"--stats-period=1", NULL
	};
	char *argv_b[] = {
		(char *)"dpdk-testpmd", (char *)"--no-huge", (char *)"-m", (char *)"256",
		(char *)"--no-pci", c.pfx_b, c.lc_01, (char *)"-d", c.drivers,
		(char *)"--vdev", c.vdev_b, (char *)"--log-level=lib.eal:error", (char *)"--",
		(char *)"--rxq=2", (char *)"--txq=2", (char *)"--total-num-mbufs=8192",
		(char *)"--forward-mode=txonly", (char *)"--eth-peer=0,00:01:00:01:00:00",
		(char *)"--stats-period=1", NULL
	};
	char *argv_i[] = {
		(char *)"dpdk-proc-info", c.huge, (char *)"--no-pci", c.pfx_p, (char *)"-d",
		c.drivers, (char *)"--log-level=lib.eal:error", (char *)"--", (char *)"--xstats",
		NULL
	};

	if (!hp.ready) {
		printf("  skipped: %s\n", hp.why);
		return TEST_SKIPPED;
	}
#ifdef RN_MP_ASAN
	/* The stock programs would load our instrumented plugins without the ASan runtime. */
	printf("  skipped: stock programs cannot load the plugins of an ASan build\n");
	return TEST_SKIPPED;
#endif
	if (access(RN_TESTPMD, X_OK) != 0 || access(RN_PROC_INFO, X_OK) != 0) {
		printf("  skipped: %s or %s not installed\n", RN_TESTPMD, RN_PROC_INFO);
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(rn_mp_case_init(&c), "case set-up");
	snprintf(log_a, sizeof(log_a), "%s/primary.log", c.dir);
	snprintf(log_s, sizeof(log_s), "%s/secondary.log", c.dir);
	snprintf(log_b, sizeof(log_b), "%s/peer.log", c.dir);
	snprintf(log_i, sizeof(log_i), "%s/proc-info.log", c.dir);
	printf("  fabric %s, stock testpmd\n", c.fabric);

	a = rn_mp_exec(RN_TESTPMD, argv_a, log_a);
	if (a > 0 && rn_mp_log_wait(log_a, "packet forwarding - ports=", RN_MP_WAIT_MS))
		s = rn_mp_exec(RN_TESTPMD, argv_s, log_s);
	if (s > 0 && rn_mp_log_wait(log_s, "packet forwarding - ports=", RN_MP_WAIT_MS))
		b = rn_mp_exec(RN_TESTPMD, argv_b, log_b);
	if (b > 0 && rn_mp_log_wait(log_b, "packet forwarding - ports=", RN_MP_WAIT_MS)) {
		sleep(3);
		st_b = rn_mp_interrupt(b, "txonly peer");
		b = -1;
		/* Let the receivers drain what the peer left in their rings. */
		sleep(1);
		info = rn_mp_exec(RN_PROC_INFO, argv_i, log_i);
		st_i = info > 0 ? rio_test_wait(info, 20000) : -1;
	}
	if (b > 0)
		st_b = rn_mp_interrupt(b, "txonly peer");
	st_s = rn_mp_interrupt(s, "secondary testpmd");
	st_a = rn_mp_interrupt(a, "primary testpmd");
	tx = rn_mp_log_count(log_b, "Forward statistics for port 0", "TX-packets:");
	rx = rn_mp_log_count(log_a, "Forward statistics for port 0", "RX-packets:");
	q0 = rn_mp_log_count(log_i, NULL, "rx_q0_packets:");
	q1 = rn_mp_log_count(log_i, NULL, "rx_q1_packets:");
	printf("  peer sent %" PRId64 "; queue 0 (primary) got %" PRId64 ", queue 1 (secondary) %"
	       PRId64 "; the primary counts %" PRId64 " for the port\n", tx, q0, q1, rx);
	if (st_a != 0 || st_s != 0 || st_b != 0 || st_i != 0 || tx <= 0 || q0 <= 0 || q1 <= 0 ||
	    q0 + q1 != tx || rx != tx) {
		rn_mp_log_dump(log_a);
		rn_mp_log_dump(log_s);
		rn_mp_log_dump(log_b);
		rn_mp_log_dump(log_i);
	}
	left = rn_mp_case_fini(&c);
	TEST_ASSERT_EQUAL(st_a, 0, "primary testpmd");
	TEST_ASSERT_EQUAL(st_s, 0, "secondary testpmd");
	TEST_ASSERT_EQUAL(st_b, 0, "txonly peer");
	TEST_ASSERT_EQUAL(st_i, 0, "dpdk-proc-info");
	TEST_ASSERT(tx > 0, "the peer sent nothing");
	TEST_ASSERT(q0 > 0 && q1 > 0, "a queue got nothing");
	TEST_ASSERT_EQUAL(q0 + q1, tx, "received on both queues != sent");
	TEST_ASSERT_EQUAL(rx, tx, "the primary's port count != sent");
	TEST_ASSERT_EQUAL(left, 0, "shared memory left behind");
	return TEST_SUCCESS;
}

/*
 * rte_rio_mport_scan_local(), what a secondary's rio_sim does, in this
 * process (no hugepages needed): the mport's own endpoint only, named after
 * its Base Device ID, and only once.
 */
static int
rn_mp_scan_local(void)
{
	char fabric[32], vdev[96], prefix[64], name[RTE_RIO_NAME_MAX_LEN];
	struct rte_rio_mport_info minfo;
	struct rte_rio_dev_info info;
	struct rte_rio_mport *mp;
	struct rte_rio_dev *d;
	uint32_t did;
	int ret;

	TEST_ASSERT_NOT_NULL(rio_test_unique("rnsl", fabric, sizeof(fabric)), "name");
	snprintf(vdev, sizeof(vdev), "fabric=%s,topology=builtin:pair,scan=0", fabric);
	snprintf(prefix, sizeof(prefix), "rio_sim.%s", fabric);
	TEST_ASSERT_SUCCESS(rte_vdev_init("rio_sim_sl0", vdev), "rio_sim_sl0");
	mp = rte_rio_mport_find("rio_sim_sl0");
	ret = mp == NULL ? -ENODEV : rte_rio_mport_scan_local(mp);
	if (ret == 0) {
		d = rte_rio_dev_next(mp, NULL);
		ret = rte_rio_dev_count(mp) == 1 && d != NULL &&
			rte_rio_dev_info_get(d, &info) == 0 && info.local &&
			rte_rio_mport_info_get(mp, &minfo) == 0 &&
			rte_rio_local_read_config_32(mp, RTE_RIO_DID_CSR, &did) == 0 &&
			info.destid == RTE_RIO_GET_DID(minfo.devid_size, did) ? 0 : -EIO;
		if (ret == 0) {
			snprintf(name, sizeof(name), RTE_RIO_DEV_NAME_LOCAL_FMT, minfo.id);
			ret = strcmp(rte_rio_dev_name(d), name) == 0 ? 0 : -EIO;
		}
		if (ret == 0)
			ret = rte_rio_mport_scan_local(mp) == -EALREADY &&
				rte_rio_mport_scan(mp, NULL) == -EALREADY ? 0 : -EIO;
	}
	rte_vdev_uninit("rio_sim_sl0");
	TEST_ASSERT_SUCCESS(ret, "local scan");
	TEST_ASSERT_EQUAL(rio_test_shm_count(prefix), 0, "shared memory left behind");
	return TEST_SUCCESS;
}

static int
rn_mp_setup(void)
{
	if (rn_mp_hugepages_get() != 0)
		printf("  hugepages: %s: every case is skipped\n", hp.why);
	return 0;
}

static void
rn_mp_teardown(void)
{
	rn_mp_hugepages_put();
}

static struct unit_test_suite rn_mp_suite = {
	.suite_name = "rionet multi-process",
	.setup = rn_mp_setup,
	.teardown = rn_mp_teardown,
	.unit_test_cases = {
		TEST_CASE_NAMED("local scan (a secondary's rio bus)", rn_mp_scan_local),
		TEST_CASE_NAMED("secondary polls a direct queue", rn_mp_direct),
		TEST_CASE_NAMED("secondary polls a bounce queue", rn_mp_bounce),
		TEST_CASE_NAMED("secondary polls a zero-copy queue", rn_mp_zero_copy),
		TEST_CASE_NAMED("secondary killed holding zero-copy frames", rn_mp_zero_copy_kill),
		TEST_CASE_NAMED("stock testpmd as primary and secondary", rn_mp_testpmd),
		TEST_CASES_END()
	}
};

static int
test_rionet_mp(void)
{
	return unit_test_suite_runner(&rn_mp_suite);
}
REGISTER_TEST_COMMAND(rionet_mp_autotest, test_rionet_mp);
