/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * fuzz_devargs: the rio_sim devargs parser (the kvargs path of the probe) on
 * arbitrary strings.
 *
 * It calls the driver's own parser (rio_sim_devargs.c, compiled in from the
 * driver's sources). The input is a devargs string (up to the first NUL); a
 * parse either fails with -EINVAL or fills parameters that hold the
 * documented ranges. A topology=builtin:<shape> value is then built
 * as the probe would (file paths are not opened: the input must not pick
 * files to read).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rio_sim_devargs.h"

#include "fuzz_common.h"

#define FUZZ_ARGS_MAX	4096

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fuzz_quiet_logs();
	return 0;
}

static void
fuzz_devargs_check(const struct rio_sim_params *p)
{
	size_t n;

	n = strnlen(p->fabric, sizeof(p->fabric));
	FUZZ_CHECK(n > 0 && n < sizeof(p->fabric) && rio_sim_name_valid(p->fabric),
		   "fabric name '%.*s'", (int)n, p->fabric);
	n = strnlen(p->endpoint, sizeof(p->endpoint));
	FUZZ_CHECK(n < sizeof(p->endpoint), "endpoint not terminated");
	FUZZ_CHECK(n == 0 || rio_sim_name_valid(p->endpoint), "endpoint '%s'", p->endpoint);
	FUZZ_CHECK(strnlen(p->topology, sizeof(p->topology)) < sizeof(p->topology),
		   "topology not terminated");
	FUZZ_CHECK(p->host >= -1 && p->host <= 0xfffe, "host %d", p->host);
	FUZZ_CHECK(p->devid_size == 0 || p->devid_size == 8 || p->devid_size == 16,
		   "devid_size %u", p->devid_size);
	FUZZ_CHECK(p->disc_timeout_ms >= 1 && p->disc_timeout_ms <= RIO_SIM_DISC_TIMEOUT_MAX_MS,
		   "disc_timeout %u", p->disc_timeout_ms);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t plen = strlen(RIO_SIM_BUILTIN_PREFIX);
	struct sim_topology *topo = NULL;
	struct rio_sim_params p;
	char err[RIO_SIM_ERR_LEN] = "";
	char *args;
	int ret;

	if (size > FUZZ_ARGS_MAX)
		return 0;
	args = malloc(size + 1);
	if (args == NULL)
		return 0;
	memcpy(args, data, size);
	args[size] = '\0';
	ret = rio_sim_parse_args("rio_sim_fuzz", args, &p);
	if (ret != 0) {
		FUZZ_CHECK(ret == -EINVAL, "parse returned %d", ret);
		goto out;
	}
	fuzz_devargs_check(&p);
	if (strncmp(p.topology, RIO_SIM_BUILTIN_PREFIX, plen) == 0) {
		ret = rio_sim_load_topology(p.topology, &topo, err, sizeof(err));
		if (ret == 0)
			FUZZ_CHECK(topo != NULL && topo->n_devs > 0, "empty built-in topology");
		else
			fuzz_check_err_line(err, strchr(p.topology, '\n') != NULL);
		sim_topology_free(topo);
	}
out:
	free(args);
	return 0;
}
