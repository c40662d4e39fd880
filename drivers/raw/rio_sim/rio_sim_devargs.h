/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_SIM_DEVARGS_H
#define RIO_SIM_DEVARGS_H

/*
 * Devargs of the rio_sim vdev (rio_sim_devargs.c), parsed apart from the
 * probe so that the devargs fuzzer calls the parser the driver uses.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rio_sim_fabric.h"

#define RIO_SIM_BUILTIN_PREFIX	"builtin:"
#define RIO_SIM_ERR_LEN		256
#define RIO_SIM_DISC_TIMEOUT_MAX_MS	3600000u

/* Parsed devargs. */
struct rio_sim_params {
	const char *name;		/* vdev name, for error lines */
	char fabric[SIM_NAME_MAX];
	char topology[PATH_MAX];	/* empty: join as is, or create builtin:default */
	char endpoint[SIM_NAME_MAX];	/* empty: first endpoint not claimed */
	int32_t host;			/* -1: from the topology */
	uint8_t devid_size;		/* 0: whatever the fabric uses */
	bool group;
	bool scan;			/* enumerate or discover at probe */
	uint32_t disc_timeout_ms;	/* agents: wait for the host this long */
};

/*
 * Parse devargs @args of vdev @name into @p (defaults for what is not
 * given). @return 0, or -EINVAL with the reason logged.
 */
int rio_sim_parse_args(const char *name, const char *args, struct rio_sim_params *p);

/* Is @s a name of 1 or more characters of [A-Za-z0-9_-]? */
bool rio_sim_name_valid(const char *s);

/*
 * Build the topology of devarg topology=: a file path, or builtin:<shape>.
 * @return 0, or -errno with err saying why.
 */
int rio_sim_load_topology(const char *spec, struct sim_topology **topo, char *err,
			  size_t errlen);

#endif /* RIO_SIM_DEVARGS_H */
