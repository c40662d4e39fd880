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

#include "fuzz_common.h"

#define FUZZ_MAINT_OPS_MAX	64
#define FUZZ_MAINT_OP_SIZE	14

static const char fuzz_maint_topo8[] =
	"[fabric]\n"
	"devid_size = 8\n"
	"mbox_entries = 8\n"
	"static_routes = 1\n"
	"timing = 0\n"
	"response_timeout = 1\n"
	"seed = 1\n"
	"[switch sw0]\n"
	"ports = 4\n"
	"[switch sw1]\n"
	"model = cps1848\n"
	"[endpoint ep0]\n"
	"host = 1\n"
	"destid = 0\n"
	"[endpoint ep1]\n"
	"destid = 1\n"
	"[endpoint ep2]\n"
	"model = tsi721\n"
	"destid = 2\n"
	"[links]\n"
	"sw0.0 = ep0.0\n"
	"sw0.1 = ep1.0\n"
	"sw0.2 = sw1.0\n"
	"sw1.1 = ep2.0\n";

static const char fuzz_maint_topo16[] =
	"[fabric]\n"
	"devid_size = 16\n"
	"mbox_entries = 8\n"
	"static_routes = 1\n"
	"timing = 0\n"
	"response_timeout = 1\n"
	"[switch sw0]\n"
	"model = rxs2448\n"
	"[endpoint ep0]\n"
	"host = 1\n"
	"destid = 0x1234\n"
	"[endpoint ep1]\n"
	"destid = 0xfffe\n"
	"[links]\n"
	"sw0.0 = ep0.0\n"
	"sw0.2 = ep1.0\n";

struct fuzz_maint_fabric {
	char name[SIM_NAME_MAX];
	struct sim_fabric *f;
	void *snapshot;
};

static struct fuzz_maint_fabric fuzz_fab[2];

static struct sim_fabric *
fuzz_maint_create(struct fuzz_maint_fabric *ff, const char *tag, const char *text)
{
	struct sim_topology *topo = NULL;
	char path[64], err[256] = "";
	int fd;

	snprintf(ff->name, sizeof(ff->name), "fuzz_maint%s_%d", tag, (int)getpid());
	fd = memfd_create("fuzz_maint_topo", MFD_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("fuzz_maint: topology");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (sim_topology_parse_file(path, &topo, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_maint: topology: %s\n", err);
		exit(1);
	}
	close(fd);
	ff->f = sim_fabric_attach(ff->name, topo, false, err, sizeof(err));
	sim_topology_free(topo);
	if (ff->f == NULL) {
		fprintf(stderr, "fuzz_maint: fabric %s: %s\n", ff->name, err);
		exit(1);
	}
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
	fuzz_maint_create(&fuzz_fab[0], "8", fuzz_maint_topo8);
	fuzz_maint_create(&fuzz_fab[1], "16", fuzz_maint_topo16);
	atexit(fuzz_maint_fini);
	return 0;
}

static void
fuzz_maint_check_ret(int ret, const char *what)
{
	FUZZ_CHECK(ret == 0 || (ret < 0 && ret > -4096), "%s returned %d", what, ret);
}

static void
fuzz_maint_check_read(int ret, int len, uint32_t val, const char *what)
{
	fuzz_maint_check_ret(ret, what);
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
		fuzz_maint_check_ret(ret, "maint write");
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
		fuzz_maint_check_ret(ret, "maint block");
		free(words);
		break;
	case 4:
		ret = sim_config_read(f, di, hop, offset, len, &val);
		fuzz_maint_check_read(ret, len, val, "config read");
		break;
	case 5:
		ret = sim_config_write(f, di, hop, offset, len, val);
		fuzz_maint_check_ret(ret, "config write");
		break;
	case 6:
		ret = sim_fabric_link_set(f, di, hop, val & 1);
		fuzz_maint_check_ret(ret, "link set");
		break;
	default:
		ret = sim_route(f, di, hop, destid, (uint8_t)val, offset & 1, &dst_dev, &in_port);
		fuzz_maint_check_ret(ret, "route");
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
