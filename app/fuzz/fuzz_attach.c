/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * fuzz_attach: a fabric whose shared header, devices, endpoints or route
 * tables someone wrote before this process attaches to it, and routes
 * through it.
 *
 * Once: the two fabrics of fuzz_fabric.h are built, an image of each main segment
 * is kept, and both are removed. Each input picks an image, patches it, and
 * writes it as the main segment of that fabric in the user's directory;
 * then this process attaches to it (sim_fabric_open(), SIM_OPEN_ATTACH).
 * Attaching must refuse the fabric with one error line, or accept one that
 * the rest of the driver then uses without reading or writing outside it:
 * every device looked up by its name, its route table and port counters,
 * routes of maintenance (by hop count) and of messages (by destination ID)
 * from every port of every device, maintenance reads from every endpoint,
 * and endpoint 0 claimed, sending a message and a doorbell. Results are 0
 * or a negative errno; a route ends at a device of the fabric, entered by
 * one of its ports. The fabric is then left (its objects removed).
 *
 * Input: the image (1 byte), the number of patches (1 byte), the patches:
 * region (1 byte: the header, a device, an endpoint, the route tables, or
 * anywhere), index (1 byte), offset (2 bytes), length n (1 byte), n bytes,
 * each write clamped to its region; then destination IDs, hop counts and
 * offsets for the routes and maintenance.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rio_sim_fabric.h"
#include "rte_rio.h"

#include "fuzz_fabric.h"

#define FUZZ_ATTACH_PATCHES	32
#define FUZZ_ATTACH_ROUTES	8	/* destination IDs routed to from each port */

struct fuzz_attach_image {
	char name[SIM_NAME_MAX];
	uint8_t *bytes;		/* the main segment as built */
	size_t size;
	uint64_t dev_off, ep_off, rt_off;
	uint32_t n_devices, n_endpoints;
	uint8_t devid_size;
};

static struct fuzz_attach_image fuzz_img[2];
static uint8_t *fuzz_work;	/* the image being patched */

static void
fuzz_attach_build(struct fuzz_attach_image *img, const char *tag, const char *text)
{
	struct sim_fabric *f;

	snprintf(img->name, sizeof(img->name), "fuzz_attach%s_%d", tag, (int)getpid());
	f = fuzz_fabric_create(img->name, text);
	img->size = f->size;
	img->bytes = malloc(img->size);
	if (img->bytes == NULL)
		exit(1);
	memcpy(img->bytes, f->hdr, img->size);
	img->dev_off = f->hdr->dev_off;
	img->ep_off = f->hdr->ep_off;
	img->rt_off = f->hdr->rt_off;
	img->n_devices = f->n_devices;
	img->n_endpoints = f->n_endpoints;
	img->devid_size = f->devid_size;
	sim_fabric_detach(f);
	sim_fabric_destroy(img->name);
}

static void
fuzz_attach_fini(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(fuzz_img); i++) {
		sim_fabric_destroy(fuzz_img[i].name);
		free(fuzz_img[i].bytes);
	}
	free(fuzz_work);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fuzz_quiet_logs();
	/* A lock word that names this process, a fabric left in INIT: 5 ms, not seconds. */
	sim_wait_cap_ms = 5;
	fuzz_attach_build(&fuzz_img[0], "8", fuzz_fabric_topo8);
	fuzz_attach_build(&fuzz_img[1], "16", fuzz_fabric_topo16);
	fuzz_work = malloc(RTE_MAX(fuzz_img[0].size, fuzz_img[1].size));
	if (fuzz_work == NULL)
		exit(1);
	atexit(fuzz_attach_fini);
	return 0;
}

/* Apply the input's patches to fuzz_work, an image of @img. */
static void
fuzz_attach_patch(const struct fuzz_attach_image *img, struct fuzz_in *in)
{
	uint64_t base, len, off;
	uint8_t region, index, n;
	unsigned int p, count;

	count = fuzz_in_u8(in) % (FUZZ_ATTACH_PATCHES + 1);
	for (p = 0; p < count && in->left > 0; p++) {
		region = fuzz_in_u8(in);
		index = fuzz_in_u8(in);
		off = fuzz_in_u16(in);
		n = fuzz_in_u8(in);
		switch (region % 5) {
		case 0:
			base = 0;
			len = sizeof(struct sim_shm_hdr);
			break;
		case 1:
			base = img->dev_off + (uint64_t)(index % img->n_devices) *
				sizeof(struct sim_shm_device);
			len = sizeof(struct sim_shm_device);
			break;
		case 2:
			base = img->ep_off + (uint64_t)(index % img->n_endpoints) *
				sizeof(struct sim_shm_endpoint);
			len = sizeof(struct sim_shm_endpoint);
			break;
		case 3:
			base = img->rt_off;
			len = img->size - img->rt_off;
			break;
		default:
			base = 0;
			len = img->size;
			off |= (uint64_t)index << 16;
			break;
		}
		off %= len;
		n = RTE_MIN((uint64_t)n, len - off);
		fuzz_in_bytes(in, fuzz_work + base + off, n);
	}
}

/* Write fuzz_work as the main segment of @img's fabric in our directory. */
static int
fuzz_attach_write(const struct fuzz_attach_image *img)
{
	char dir[SIM_DIR_MAX], path[SIM_DIR_MAX + SIM_NAME_MAX + 16];
	ssize_t w;
	int fd;

	sim_fabric_user_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s%s", dir, SIM_OBJ_PREFIX, img->name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	w = write(fd, fuzz_work, img->size);
	close(fd);
	return w == (ssize_t)img->size ? 0 : -EIO;
}

/* Routes and maintenance from every port of device @d. */
static void
fuzz_attach_routes(struct sim_fabric *f, uint32_t d, struct fuzz_in *in)
{
	uint32_t dst = UINT32_MAX, val = 0, p;
	uint16_t destid;
	uint8_t in_port, hop;
	unsigned int k;
	int ret;

	for (p = 0; p < SIM_MAX_PORTS + 1; p++) {
		for (k = 0; k < FUZZ_ATTACH_ROUTES; k++) {
			destid = fuzz_in_u16(in);
			hop = fuzz_in_u8(in);
			in_port = 0xff;
			ret = sim_route(f, d, (uint8_t)p, destid, hop, k & 1, &dst, &in_port);
			FUZZ_CHECK_ERRNO(ret, "route");
			if (ret == 0) {
				FUZZ_CHECK(dst < f->n_devices, "route to device %u", dst);
				FUZZ_CHECK(in_port < RTE_MIN(f->devs[dst].nports, SIM_MAX_PORTS),
					   "route in by port %u of %u", in_port,
					   f->devs[dst].nports);
			}
		}
		(void)sim_port_pkts(f, d, (uint8_t)p, p & 1);
	}
	if (f->devs[d].type == SIM_DEV_ENDPOINT) {
		ret = sim_maint(f, d, fuzz_in_u16(in), fuzz_in_u8(in), false,
				fuzz_in_u16(in) & ~3u, 4, &val);
		FUZZ_CHECK_ERRNO(ret, "maint read");
	}
}

/* Endpoint 0 claimed, a message and a doorbell sent from it; released. */
static void
fuzz_attach_send(struct sim_fabric *f, struct fuzz_in *in)
{
	uint8_t buf[64] = { 0 };
	struct rte_rio_msg m = { .buf = buf, .len = sizeof(buf), .mbox = 0 };
	char err[256] = "";
	struct sim_ep *ep;
	int ret;

	ep = sim_ep_claim(f, 0, err, sizeof(err));
	if (ep == NULL) {
		fuzz_check_err_line(err, false);
		return;
	}
	if (sim_ep_open_outb_mbox(ep, 0, 8) == 0) {
		m.destid = fuzz_in_u16(in) & (RTE_RIO_MAX_DESTIDS(f->devid_size) - 1);
		if (sim_ep_send(ep, 0, &m, 1) == 0)
			FUZZ_CHECK_ERRNO(m.status, "send");
		sim_ep_close_outb_mbox(ep, 0);
	}
	ret = sim_ep_dsend(ep, fuzz_in_u16(in), 0x1000);
	FUZZ_CHECK_ERRNO(ret, "doorbell");
	sim_ep_release(ep);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fuzz_attach_image *img;
	char err[256] = "";
	struct sim_fabric *f;
	struct fuzz_in in;
	uint32_t d;
	int idx;

	if (size < 1)
		return 0;
	fuzz_in_init(&in, data, size);
	img = &fuzz_img[fuzz_in_u8(&in) & 1];
	memcpy(fuzz_work, img->bytes, img->size);
	fuzz_attach_patch(img, &in);
	if (fuzz_attach_write(img) != 0) {
		sim_fabric_destroy(img->name);
		return 0;
	}
	f = sim_fabric_open(img->name, NULL, SIM_OPEN_ATTACH, false, err, sizeof(err));
	if (f == NULL) {
		fuzz_check_err_line(err, false);
		sim_fabric_destroy(img->name);
		return 0;
	}
	for (d = 0; d < f->n_devices; d++) {
		char name[SIM_NAME_MAX];

		memcpy(name, f->devs[d].name, sizeof(name));
		name[sizeof(name) - 1] = '\0';
		idx = sim_fabric_find_device(f, name);
		FUZZ_CHECK(idx == -ENOENT || (idx >= 0 && (uint32_t)idx < f->n_devices),
			   "device %s found at %d", name, idx);
		(void)sim_switch_rt(f, d);
		fuzz_attach_routes(f, d, &in);
	}
	fuzz_attach_send(f, &in);
	sim_fabric_detach(f);
	/* Whatever the last detach did not recognize as its own. */
	sim_fabric_destroy(img->name);
	return 0;
}
