/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * fuzz_topology: the rio_sim topology parser on arbitrary bytes.
 *
 * The input is written to a memfd and parsed as a topology file with
 * sim_topology_parse_file() (through /proc/self/fd/N, so no file system is
 * touched); an input starting with "builtin:" is also given to
 * sim_topology_builtin() as a shape name. A parse either fails with one error
 * line and no topology, or returns a topology that holds its own rules:
 * names valid and unique, models of the device's type whose ports, lanes and
 * lane rate fit, links within range, every port linked at most once.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rio_sim_fabric.h"

#include "fuzz_common.h"

#define FUZZ_TOPO_BUILTIN	"builtin:"

static int fuzz_topo_fd = -1;
static char fuzz_topo_path[64];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fuzz_quiet_logs();
	fuzz_topo_fd = memfd_create("fuzz_topology", MFD_CLOEXEC);
	if (fuzz_topo_fd < 0) {
		perror("fuzz_topology: memfd_create");
		exit(1);
	}
	snprintf(fuzz_topo_path, sizeof(fuzz_topo_path), "/proc/self/fd/%d", fuzz_topo_fd);
	return 0;
}

static void
fuzz_topo_check(const struct sim_topology *t)
{
	uint32_t i, j;
	uint8_t *used;

	FUZZ_CHECK(t->devid_size == 8 || t->devid_size == 16, "devid_size %u", t->devid_size);
	FUZZ_CHECK(t->mbox_entries >= 2 && t->mbox_entries <= SIM_MBOX_ENTRIES_MAX &&
		   rte_is_power_of_2(t->mbox_entries), "mbox_entries %u", t->mbox_entries);
	FUZZ_CHECK(t->n_devs > 0 && t->n_devs <= SIM_MAX_DEVICES, "n_devs %u", t->n_devs);
	FUZZ_CHECK(t->resp_timeout_us >= 1 && t->pw_repeat_us >= 1, "timeouts %u, %u us",
		   t->resp_timeout_us, t->pw_repeat_us);
	for (i = 0; i < t->n_devs; i++) {
		const struct sim_topo_dev *d = &t->devs[i];
		const struct sim_model_info *mi = sim_model_get(d->model);
		size_t len = strnlen(d->name, SIM_NAME_MAX);

		FUZZ_CHECK(len > 0 && len < SIM_NAME_MAX, "device %u: name length %zu", i, len);
		FUZZ_CHECK(sim_topology_find(t, d->name) == (int)i, "device %u: name %s twice",
			   i, d->name);
		FUZZ_CHECK(d->type == SIM_DEV_ENDPOINT || d->type == SIM_DEV_SWITCH,
			   "device %u: type %u", i, d->type);
		FUZZ_CHECK(d->nports >= 1 && d->nports <= SIM_MAX_PORTS, "device %u: %u ports",
			   i, d->nports);
		FUZZ_CHECK(d->model < SIM_MODEL_COUNT && mi->type == d->type,
			   "device %u: model %u for type %u", i, d->model, d->type);
		FUZZ_CHECK(d->nports <= mi->max_ports &&
			   (mi->fixed_ports == 0 || d->nports == mi->fixed_ports),
			   "device %u: %u ports, model %s", i, d->nports, mi->name);
		FUZZ_CHECK(d->lanes <= mi->max_lanes && d->baud <= mi->max_baud,
			   "device %u: lanes %u, baud %u, model %s", i, d->lanes, d->baud,
			   mi->name);
		if (d->destid >= 0)
			FUZZ_CHECK((uint32_t)d->destid < RTE_RIO_MAX_DESTIDS(t->devid_size),
				   "device %u: destid %d", i, d->destid);
	}
	for (i = 0; i < t->n_links; i++) {
		const struct sim_topo_link *l = &t->links[i];

		FUZZ_CHECK(l->dev_a < t->n_devs && l->dev_b < t->n_devs && l->dev_a != l->dev_b,
			   "link %u: devices %u, %u", i, l->dev_a, l->dev_b);
		FUZZ_CHECK(l->port_a < t->devs[l->dev_a].nports &&
			   l->port_b < t->devs[l->dev_b].nports, "link %u: ports %u, %u", i,
			   l->port_a, l->port_b);
	}
	/* Every port linked at most once. */
	used = calloc((size_t)t->n_devs * SIM_MAX_PORTS, 1);
	FUZZ_CHECK(used != NULL, "out of memory");
	for (j = 0; j < t->n_links; j++) {
		const struct sim_topo_link *l = &t->links[j];
		uint8_t *a = &used[(size_t)l->dev_a * SIM_MAX_PORTS + l->port_a];
		uint8_t *b = &used[(size_t)l->dev_b * SIM_MAX_PORTS + l->port_b];

		FUZZ_CHECK(!*a, "device %u port %u linked twice", l->dev_a, l->port_a);
		*a = 1;
		FUZZ_CHECK(!*b, "device %u port %u linked twice", l->dev_b, l->port_b);
		*b = 1;
	}
	free(used);
	(void)sim_topology_hash(t);
}

static void
fuzz_topo_result(int ret, struct sim_topology *t, const char *err, bool quoted_nl)
{
	if (ret == 0) {
		FUZZ_CHECK(t != NULL, "success without a topology");
		fuzz_topo_check(t);
	} else {
		FUZZ_CHECK(ret < 0, "return value %d", ret);
		FUZZ_CHECK(t == NULL, "failure (%d) with a topology", ret);
		fuzz_check_err_line(err, quoted_nl);
	}
	sim_topology_free(t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_topology *t = NULL;
	char err[256] = "";
	char shape[64];
	size_t plen = strlen(FUZZ_TOPO_BUILTIN), n;
	int ret;

	/* Built-in shapes: short names with numbers, capped to keep inputs cheap. */
	if (size > plen && size < plen + sizeof(shape) &&
	    memcmp(data, FUZZ_TOPO_BUILTIN, plen) == 0) {
		n = size - plen;
		memcpy(shape, data + plen, n);
		shape[n] = '\0';
		ret = sim_topology_builtin(shape, &t, err, sizeof(err));
		fuzz_topo_result(ret, t, err, strchr(shape, '\n') != NULL);
		return 0;
	}
	if (ftruncate(fuzz_topo_fd, 0) != 0 ||
	    pwrite(fuzz_topo_fd, data, size, 0) != (ssize_t)size) {
		perror("fuzz_topology: write");
		abort();
	}
	t = NULL;
	err[0] = '\0';
	ret = sim_topology_parse_file(fuzz_topo_path, &t, err, sizeof(err));
	fuzz_topo_result(ret, t, err, false);
	return 0;
}
