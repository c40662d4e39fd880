/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * fuzz_maint: the emulated fabric's maintenance handler with any offset,
 * size, value, hop count and destination ID.
 *
 * Two fabrics are created once (8-bit IDs: a std and a cps1848 switch in a
 * line, a tsi721 endpoint behind them; 16-bit IDs: one rxs2448 switch),
 * without latency and with a 1 us response timeout, so that a dropped
 * transaction costs no time. Every
 * input starts from the fabric as created (the main segment is restored from
 * a snapshot) and is a list of 14-byte operations:
 *
 *   kind, device, destid (2), hop count, len (signed), offset (4), value (4)
 *
 * kind selects maintenance read/write (sim_maint), block read/write
 * (sim_maint_block), direct config read/write (sim_config_read/write), link
 * down/up (sim_fabric_link_set) or a route lookup (sim_route). Results must
 * be 0 or a negative errno, reads must fit their size, block buffers are
 * heap-allocated to their exact size so that ASan sees any overrun.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rio_sim_fabric.h"

#include "fuzz_fabric.h"

#define FUZZ_MAINT_OPS_MAX	64
#define FUZZ_MAINT_OP_SIZE	14

struct fuzz_maint_fabric {
	char name[SIM_NAME_MAX];
	struct sim_fabric *f;
	void *snapshot;
};

static struct fuzz_maint_fabric fuzz_fab[2];

static struct sim_fabric *
fuzz_maint_create(struct fuzz_maint_fabric *ff, const char *tag, const char *text)
{
	snprintf(ff->name, sizeof(ff->name), "fuzz_maint%s_%d", tag, (int)getpid());
	ff->f = fuzz_fabric_create(ff->name, text);
	ff->snapshot = malloc(ff->f->size);
	if (ff->snapshot == NULL)
		exit(1);
	memcpy(ff->snapshot, ff->f->hdr, ff->f->size);
	return ff->f;
}

static void
fuzz_maint_fini(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(fuzz_fab); i++) {
		if (fuzz_fab[i].f == NULL)
			continue;
		sim_fabric_detach(fuzz_fab[i].f);
		sim_fabric_destroy(fuzz_fab[i].name);
		free(fuzz_fab[i].snapshot);
		fuzz_fab[i].f = NULL;
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fuzz_quiet_logs();
	fuzz_maint_create(&fuzz_fab[0], "8", fuzz_fabric_topo8);
	fuzz_maint_create(&fuzz_fab[1], "16", fuzz_fabric_topo16);
	atexit(fuzz_maint_fini);
	return 0;
}

static void
fuzz_maint_check_read(int ret, int len, uint32_t val, const char *what)
{
	FUZZ_CHECK_ERRNO(ret, what);
	if (ret == 0 && len < 4)
		FUZZ_CHECK(val < (1u << (8 * len)), "%s of %d bytes gave 0x%x", what, len, val);
}

static void
fuzz_maint_op(struct sim_fabric *f, struct fuzz_in *in)
{
	uint8_t kind = fuzz_in_u8(in);
	uint8_t dev = fuzz_in_u8(in);
	uint16_t destid = fuzz_in_u16(in);
	uint8_t hop = fuzz_in_u8(in);
	int len = (int8_t)fuzz_in_u8(in);
	uint32_t offset = fuzz_in_u32(in);
	uint32_t val = fuzz_in_u32(in);
	/* Mostly valid devices, sometimes any index. */
	uint32_t di = dev < 0xf0 ? dev % (f->n_devices + 1) : dev;
	uint32_t dst_dev = UINT32_MAX, *words;
	size_t wlen;
	uint8_t in_port = 0xff;
	int ret, i;

	switch (kind % 8) {
	case 0:
		ret = sim_maint(f, di, destid, hop, false, offset, len, &val);
		fuzz_maint_check_read(ret, len, val, "maint read");
		break;
	case 1:
		ret = sim_maint(f, di, destid, hop, true, offset, len, &val);
		FUZZ_CHECK_ERRNO(ret, "maint write");
		break;
	case 2:
	case 3:
		/* Exactly the bytes a valid length asks for: an overrun is an ASan error. */
		wlen = len == 8 || len == 16 || len == 32 || len == 64 ? (size_t)len : 4;
		words = malloc(wlen);
		if (words == NULL)
			return;
		for (i = 0; i < (int)(wlen / 4); i++)
			words[i] = val + i;
		ret = sim_maint_block(f, di, destid, hop, kind % 8 == 3, offset, len, words);
		FUZZ_CHECK_ERRNO(ret, "maint block");
		free(words);
		break;
	case 4:
		ret = sim_config_read(f, di, hop, offset, len, &val);
		fuzz_maint_check_read(ret, len, val, "config read");
		break;
	case 5:
		ret = sim_config_write(f, di, hop, offset, len, val);
		FUZZ_CHECK_ERRNO(ret, "config write");
		break;
	case 6:
		ret = sim_fabric_link_set(f, di, hop, val & 1);
		FUZZ_CHECK_ERRNO(ret, "link set");
		break;
	default:
		ret = sim_route(f, di, hop, destid, (uint8_t)val, offset & 1, &dst_dev, &in_port);
		FUZZ_CHECK_ERRNO(ret, "route");
		if (ret == 0) {
			FUZZ_CHECK(dst_dev < f->n_devices, "route to device %u", dst_dev);
			FUZZ_CHECK(in_port < f->devs[dst_dev].nports, "route in by port %u",
				   in_port);
		}
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_maint_fabric *ff;
	struct fuzz_in in;
	unsigned int n;

	if (size < 1)
		return 0;
	fuzz_in_init(&in, data, size);
	ff = &fuzz_fab[fuzz_in_u8(&in) & 1];
	memcpy(ff->f->hdr, ff->snapshot, ff->f->size);
	for (n = 0; n < FUZZ_MAINT_OPS_MAX && in.left >= FUZZ_MAINT_OP_SIZE; n++)
		fuzz_maint_op(ff->f, &in);
	return 0;
}
