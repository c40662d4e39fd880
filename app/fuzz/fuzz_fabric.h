/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef FUZZ_FABRIC_H
#define FUZZ_FABRIC_H

/*
 * The two fabrics of the targets that route through rio_sim (fuzz_maint,
 * fuzz_attach): 8-bit IDs with a std and a cps1848 switch in a line and a
 * tsi721 endpoint behind them, and 16-bit IDs with one rxs2448 switch and IDs
 * at both ends of the range; without latency and with a 1 us response
 * timeout, so that a dropped transaction costs no time.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rio_sim_fabric.h"

#include "fuzz_common.h"

static const char fuzz_fabric_topo8[] =
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

static const char fuzz_fabric_topo16[] =
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

/*
 * Create (or attach to) fabric @name from topology text @text, parsed
 * through a memfd as a topology file would be. Exits on failure: the target
 * cannot run without it.
 */
static inline struct sim_fabric *
fuzz_fabric_create(const char *name, const char *text)
{
	struct sim_topology *topo = NULL;
	char path[64], err[256] = "";
	struct sim_fabric *f;
	int fd;

	fd = memfd_create("fuzz_topology", MFD_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("fuzz: topology");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (sim_topology_parse_file(path, &topo, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz: topology: %s\n", err);
		exit(1);
	}
	close(fd);
	f = sim_fabric_attach(name, topo, false, err, sizeof(err));
	sim_topology_free(topo);
	if (f == NULL) {
		fprintf(stderr, "fuzz: fabric %s: %s\n", name, err);
		exit(1);
	}
	return f;
}

#endif /* FUZZ_FABRIC_H */
