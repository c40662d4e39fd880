/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * fuzz_recv: the receive path of a live endpoint reading arbitrary bytes
 * that another process wrote into its shared memory.
 *
 * Once: a fabric with 8-slot mailbox rings is created, endpoint ep0 claimed
 * (sim_ep_claim) with inbound mailboxes 0 and 1 open, and its data segment
 * mapped a second time here, as a sender process maps it. Each input then
 * writes ring state the way a careless or hostile writer could (producer
 * head, slot sequence numbers, slot headers with any length, source,
 * mailbox and letter, payload bytes) into one ring: a mailbox
 * ring of the data segment, or the endpoint's doorbell or port-write ring of
 * the main segment, and calls the matching receive function
 * (sim_ep_recv, sim_ep_recv_inplace, sim_ep_dbell_fetch, sim_ep_pw_fetch).
 * Messages received in place are released at once or kept across inputs
 * (up to FUZZ_RECV_HELD of them) and released later, oldest first, as the
 * input says. Checks: no access outside the mapped segments or the posted
 * buffers (ASan; buffers are heap blocks of exactly RTE_RIO_MAX_MSG_SIZE
 * bytes; every byte of a message received in place is read), every
 * delivered message has a valid length, letter and mailbox and uses the
 * posted buffers in order, a message received in place has its shared info
 * with one reference, the copying receive delivers nothing on a mailbox
 * while a message received in place is held there, every port-write has a
 * valid length, never more than asked for.
 *
 * Record format after a 2-byte header (ring, count) and a producer-head
 * record (mode, 8 bytes): per slot, position relative to the consumer
 * (1 byte), sequence mode (1 byte), raw sequence (8 bytes), n (1 byte) and n
 * bytes copied after the slot's sequence number.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rio_sim_fabric.h"
#include "rte_rio.h"

#include "fuzz_common.h"

#define FUZZ_RECV_ENTRIES	8
#define FUZZ_RECV_MBOXES	2	/* opened; 2 and 3 stay closed */
#define FUZZ_RECV_BUFS		64
#define FUZZ_RECV_BURST		32
#define FUZZ_RECV_HELD		16	/* received in place and kept across inputs */
#define FUZZ_RECV_INPLACE_MAX	SIM_SLOT_INLINE

static const char fuzz_recv_topo[] =
	"[fabric]\n"
	"mbox_entries = 8\n"
	"static_routes = 1\n"
	"[endpoint ep0]\n"
	"host = 1\n"
	"destid = 0\n"
	"[endpoint ep1]\n"
	"destid = 1\n"
	"[links]\n"
	"ep0.0 = ep1.0\n";

struct fuzz_recv_mbox {
	void *fifo[FUZZ_RECV_ENTRIES];	/* buffers posted, in order */
	uint32_t head, tail;
};

static struct {
	char name[SIM_NAME_MAX];
	struct sim_fabric *f;
	struct sim_ep *ep;
	struct sim_shm_data_hdr *data;	/* our own mapping of ep0's data segment */
	size_t data_size;
	void *bufs[FUZZ_RECV_BUFS];
	void *free_bufs[FUZZ_RECV_BUFS];
	unsigned int n_free;
	struct fuzz_recv_mbox mb[RTE_RIO_MAX_MBOX];
	/* Messages received in place and not released yet, oldest first. */
	struct rte_rio_msg held[FUZZ_RECV_HELD];
	struct rte_mbuf_ext_shared_info *held_sh[FUZZ_RECV_HELD];
	unsigned int n_held;
	unsigned int held_on[RTE_RIO_MAX_MBOX];
} fr;

/* Release the @n oldest messages kept from in-place receives. */
static void
fuzz_recv_release(unsigned int n)
{
	unsigned int i;

	n = RTE_MIN(n, fr.n_held);
	for (i = 0; i < n; i++) {
		fr.held_on[fr.held[i].mbox]--;
		rte_rio_inb_message_release(fr.held[i].buf, fr.held_sh[i]);
	}
	memmove(fr.held, fr.held + n, (fr.n_held - n) * sizeof(fr.held[0]));
	memmove(fr.held_sh, fr.held_sh + n, (fr.n_held - n) * sizeof(fr.held_sh[0]));
	fr.n_held -= n;
}

static void
fuzz_recv_fini(void)
{
	unsigned int i;

	fuzz_recv_release(fr.n_held);
	if (fr.data != NULL)
		munmap(fr.data, fr.data_size);
	if (fr.ep != NULL)
		sim_ep_release(fr.ep);
	if (fr.f != NULL) {
		sim_fabric_detach(fr.f);
		sim_fabric_destroy(fr.name);
	}
	for (i = 0; i < FUZZ_RECV_BUFS; i++)
		free(fr.bufs[i]);
	memset(&fr, 0, sizeof(fr));
}

static void
fuzz_recv_map_data(void)
{
	char shm[SIM_NAME_MAX + 32];
	struct stat st;
	int fd;

	sim_fabric_data_name(fr.f, 0, shm, sizeof(shm));
	fd = sim_fabric_obj_open(fr.f, shm, O_RDWR, 0);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror("fuzz_recv: data segment");
		exit(1);
	}
	fr.data_size = st.st_size;
	fr.data = mmap(NULL, fr.data_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (fr.data == MAP_FAILED) {
		perror("fuzz_recv: mmap");
		exit(1);
	}
	if (fr.data->entries != FUZZ_RECV_ENTRIES) {
		fprintf(stderr, "fuzz_recv: data segment has %u entries\n", fr.data->entries);
		exit(1);
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sim_topology *topo = NULL;
	char path[64], err[256] = "";
	unsigned int i;
	int fd;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fuzz_quiet_logs();
	snprintf(fr.name, sizeof(fr.name), "fuzz_recv_%d", (int)getpid());
	fd = memfd_create("fuzz_recv_topo", MFD_CLOEXEC);
	if (fd < 0 || write(fd, fuzz_recv_topo, strlen(fuzz_recv_topo)) < 0)
		exit(1);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (sim_topology_parse_file(path, &topo, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_recv: topology: %s\n", err);
		exit(1);
	}
	close(fd);
	fr.f = sim_fabric_attach(fr.name, topo, false, err, sizeof(err));
	sim_topology_free(topo);
	if (fr.f == NULL) {
		fprintf(stderr, "fuzz_recv: fabric: %s\n", err);
		exit(1);
	}
	atexit(fuzz_recv_fini);
	fr.ep = sim_ep_claim(fr.f, 0, err, sizeof(err));
	if (fr.ep == NULL) {
		fprintf(stderr, "fuzz_recv: claim: %s\n", err);
		exit(1);
	}
	for (i = 0; i < FUZZ_RECV_MBOXES; i++)
		if (sim_ep_open_inb_mbox(fr.ep, i, FUZZ_RECV_ENTRIES) != 0)
			exit(1);
	fuzz_recv_map_data();
	for (i = 0; i < FUZZ_RECV_BUFS; i++) {
		fr.bufs[i] = malloc(RTE_RIO_MAX_MSG_SIZE);
		if (fr.bufs[i] == NULL)
			exit(1);
		fr.free_bufs[fr.n_free++] = fr.bufs[i];
	}
	return 0;
}

/* Post free buffers until the mailbox's buffer FIFO is full. */
static void
fuzz_recv_post(uint8_t m)
{
	struct fuzz_recv_mbox *mb = &fr.mb[m];
	void *buf;

	while (fr.n_free > 0) {
		buf = fr.free_bufs[fr.n_free - 1];
		if (sim_ep_add_inb_buffers(fr.ep, m, &buf, 1) != 1)
			break;
		FUZZ_CHECK(mb->tail - mb->head < FUZZ_RECV_ENTRIES, "mailbox %u took %u buffers",
			   m, mb->tail - mb->head + 1);
		mb->fifo[mb->tail++ % FUZZ_RECV_ENTRIES] = buf;
		fr.n_free--;
	}
}

/* Write records into a ring of `size` slots of `slot_size` bytes. */
static void
fuzz_recv_fill(struct fuzz_in *in, struct sim_shm_ring_pos *pos, uint8_t *slots,
	       size_t slot_size, uint32_t size)
{
	uint64_t cons = __atomic_load_n(&pos->cons_head, __ATOMIC_RELAXED);
	uint64_t seq, p, raw;
	uint8_t mode, rel, n;
	uint8_t *s;

	mode = fuzz_in_u8(in);
	raw = fuzz_in_u64(in);
	if (mode & 1)
		__atomic_store_n(&pos->prod_head, (mode & 2) ? raw : cons + (raw & 0xff),
				 __ATOMIC_RELEASE);
	while (in->left > 0) {
		rel = fuzz_in_u8(in);
		mode = fuzz_in_u8(in);
		raw = fuzz_in_u64(in);
		n = fuzz_in_u8(in);
		p = cons + rel % size;
		s = slots + (size_t)(p & (size - 1)) * slot_size;
		fuzz_in_bytes(in, s + sizeof(uint64_t), RTE_MIN((size_t)n, slot_size - 8));
		switch (mode % 4) {
		case 0:
			seq = p + 1;		/* published */
			break;
		case 1:
			seq = p;		/* free (claimed if prod_head is past it) */
			break;
		case 2:
			seq = p + size;		/* freed for the next lap */
			break;
		default:
			seq = raw;
			break;
		}
		__atomic_store_n((uint64_t *)s, seq, __ATOMIC_RELEASE);
	}
}

static void
fuzz_recv_mbox(struct fuzz_in *in, uint8_t m, uint16_t n)
{
	struct rte_rio_msg msgs[FUZZ_RECV_BURST];
	struct fuzz_recv_mbox *mb = &fr.mb[m];
	struct sim_shm_mbox_ring *rh;
	uint16_t cnt, i;

	/* Geometry from our creation-time copy: fr.data->ring_off is shared, not trusted. */
	rh = RTE_PTR_ADD(fr.data, RTE_ALIGN_CEIL(sizeof(struct sim_shm_data_hdr),
						 RTE_CACHE_LINE_SIZE) +
			 m * sim_shm_mbox_ring_bytes(FUZZ_RECV_ENTRIES));
	fuzz_recv_fill(in, &rh->pos, (uint8_t *)(rh + 1), sizeof(struct sim_shm_msg_slot),
		       FUZZ_RECV_ENTRIES);
	if (m < FUZZ_RECV_MBOXES)
		fuzz_recv_post(m);
	memset(msgs, 0, sizeof(msgs));
	cnt = sim_ep_recv(fr.ep, m, msgs, n);
	FUZZ_CHECK(cnt <= n, "%u messages for %u asked", cnt, n);
	if (m >= FUZZ_RECV_MBOXES)
		FUZZ_CHECK(cnt == 0, "%u messages from a closed mailbox", cnt);
	FUZZ_CHECK(cnt == 0 || fr.held_on[m] == 0,
		   "%u messages copied past %u held in place", cnt, fr.held_on[m]);
	for (i = 0; i < cnt; i++) {
		FUZZ_CHECK(mb->head != mb->tail, "message %u without a posted buffer", i);
		FUZZ_CHECK(msgs[i].buf == mb->fifo[mb->head % FUZZ_RECV_ENTRIES],
			   "message %u not in the next posted buffer", i);
		mb->head++;
		FUZZ_CHECK(msgs[i].len >= RTE_RIO_MIN_MSG_SIZE &&
			   msgs[i].len <= RTE_RIO_MAX_MSG_SIZE, "message length %u", msgs[i].len);
		FUZZ_CHECK(msgs[i].letter < RTE_RIO_MAX_LETTER, "letter %u", msgs[i].letter);
		FUZZ_CHECK(msgs[i].mbox == m, "mailbox %u on mailbox %u", msgs[i].mbox, m);
		FUZZ_CHECK(msgs[i].status == 0, "status %d", msgs[i].status);
		fr.free_bufs[fr.n_free++] = msgs[i].buf;
	}
}

/*
 * In-place receive on mailbox @m: the oldest kept messages are released
 * first (the input says how many), the ring is filled, then each message
 * received is released at once or kept (a bit of the input each).
 */
static void
fuzz_recv_inplace(struct fuzz_in *in, uint8_t m, uint16_t n)
{
	struct rte_mbuf_ext_shared_info *sh[FUZZ_RECV_BURST];
	struct rte_rio_msg msgs[FUZZ_RECV_BURST];
	struct sim_shm_mbox_ring *rh;
	uint32_t keep, sum = 0;
	uint16_t cnt, i, k;
	uint8_t rel;

	rel = fuzz_in_u8(in);
	keep = fuzz_in_u32(in);
	fuzz_recv_release(rel % (FUZZ_RECV_HELD + 1));
	rh = RTE_PTR_ADD(fr.data, RTE_ALIGN_CEIL(sizeof(struct sim_shm_data_hdr),
						 RTE_CACHE_LINE_SIZE) +
			 m * sim_shm_mbox_ring_bytes(FUZZ_RECV_ENTRIES));
	fuzz_recv_fill(in, &rh->pos, (uint8_t *)(rh + 1), sizeof(struct sim_shm_msg_slot),
		       FUZZ_RECV_ENTRIES);
	memset(msgs, 0, sizeof(msgs));
	memset(sh, 0, sizeof(sh));
	cnt = sim_ep_recv_inplace(fr.ep, m, msgs, sh, n);
	FUZZ_CHECK(cnt <= n, "%u messages for %u asked", cnt, n);
	if (m >= FUZZ_RECV_MBOXES)
		FUZZ_CHECK(cnt == 0, "%u messages from a closed mailbox", cnt);
	for (i = 0; i < cnt; i++) {
		FUZZ_CHECK(msgs[i].len >= RTE_RIO_MIN_MSG_SIZE &&
			   msgs[i].len <= FUZZ_RECV_INPLACE_MAX, "message length %u", msgs[i].len);
		FUZZ_CHECK(msgs[i].letter < RTE_RIO_MAX_LETTER, "letter %u", msgs[i].letter);
		FUZZ_CHECK(msgs[i].mbox == m, "mailbox %u on mailbox %u", msgs[i].mbox, m);
		FUZZ_CHECK(msgs[i].status == 0, "status %d", msgs[i].status);
		FUZZ_CHECK(sh[i] != NULL && rte_mbuf_ext_refcnt_read(sh[i]) == 1,
			   "shared info of message %u", i);
		/* Every byte readable where it was handed up. */
		for (k = 0; k < msgs[i].len; k++)
			sum += ((const uint8_t *)msgs[i].buf)[k];
		if (((keep >> i) & 1) && fr.n_held < FUZZ_RECV_HELD) {
			fr.held[fr.n_held] = msgs[i];
			fr.held_sh[fr.n_held++] = sh[i];
			fr.held_on[m]++;
		} else {
			rte_rio_inb_message_release(msgs[i].buf, sh[i]);
		}
	}
	RTE_SET_USED(sum);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_shm_endpoint *shm = &fr.f->eps[0];
	struct rte_rio_pw_msg pw[FUZZ_RECV_BURST];
	struct rte_rio_dbell db[FUZZ_RECV_BURST];
	struct fuzz_in in;
	uint8_t what;
	uint16_t n;
	int cnt, i;

	fuzz_in_init(&in, data, size);
	what = fuzz_in_u8(&in);
	n = fuzz_in_u8(&in) % (FUZZ_RECV_BURST + 1);
	switch (what % 4) {
	case 0:
		fuzz_recv_mbox(&in, (what >> 2) % RTE_RIO_MAX_MBOX, n);
		break;
	case 3:
		fuzz_recv_inplace(&in, (what >> 2) % RTE_RIO_MAX_MBOX, n);
		break;
	case 1:
		fuzz_recv_fill(&in, &shm->dbell_pos, (uint8_t *)shm->dbell, sizeof(shm->dbell[0]),
			       SIM_DBELL_RING_SIZE);
		cnt = sim_ep_dbell_fetch(fr.ep, db, n);
		FUZZ_CHECK(cnt >= 0 && cnt <= n, "%d doorbells for %u asked", cnt, n);
		break;
	default:
		fuzz_recv_fill(&in, &shm->pw_pos, (uint8_t *)shm->pw, sizeof(shm->pw[0]),
			       SIM_PW_RING_SIZE);
		cnt = sim_ep_pw_fetch(fr.ep, pw, n);
		FUZZ_CHECK(cnt >= 0 && cnt <= n, "%d port-writes for %u asked", cnt, n);
		for (i = 0; i < cnt; i++)
			FUZZ_CHECK(pw[i].len > 0 && pw[i].len <= RTE_RIO_PW_MSG_SIZE,
				   "port-write length %u", pw[i].len);
		break;
	}
	return 0;
}
