/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/* Devargs of the rio_sim vdev: rte_kvargs, one handler per key. */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <rte_string_fns.h>

#include "rte_rio_dev.h"
#include "rte_pmd_rio_sim.h"
#include "rio_sim_devargs.h"

#define RIO_SIM_ARG_FABRIC	"fabric"
#define RIO_SIM_ARG_TOPOLOGY	"topology"
#define RIO_SIM_ARG_ENDPOINT	"endpoint"
#define RIO_SIM_ARG_HOST	"host"
#define RIO_SIM_ARG_DEVID_SIZE	"devid_size"
#define RIO_SIM_ARG_GROUP	"group"
#define RIO_SIM_ARG_SCAN	"scan"
#define RIO_SIM_ARG_DISC_TIMEOUT	"disc_timeout"

static const char * const rio_sim_valid_args[] = {
	RIO_SIM_ARG_FABRIC,
	RIO_SIM_ARG_TOPOLOGY,
	RIO_SIM_ARG_ENDPOINT,
	RIO_SIM_ARG_HOST,
	RIO_SIM_ARG_DEVID_SIZE,
	RIO_SIM_ARG_GROUP,
	RIO_SIM_ARG_SCAN,
	RIO_SIM_ARG_DISC_TIMEOUT,
	NULL
};

bool
rio_sim_name_valid(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return i > 0;
}

static int
rio_sim_parse_uint(const struct rio_sim_params *p, const char *key, const char *value,
		   unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end = NULL;

	errno = 0;
	v = strtoul(value, &end, 0);
	if (value[0] == '-' || !isdigit((unsigned char)value[0]) || errno != 0 ||
	    end == value || *end != '\0' || v > max) {
		SIM_LOG(ERR, "%s: %s=%s: expected an integer in 0..%lu", p->name, key, value,
			max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int
rio_sim_parse_fabric(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;

	if (strlen(value) >= sizeof(p->fabric) || !rio_sim_name_valid(value)) {
		SIM_LOG(ERR, "%s: %s=%s: a fabric name is 1..%zu characters [A-Za-z0-9_-]",
			p->name, key, value, sizeof(p->fabric) - 1);
		return -EINVAL;
	}
	strlcpy(p->fabric, value, sizeof(p->fabric));
	return 0;
}

static int
rio_sim_parse_topology(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;

	if (strlen(value) >= sizeof(p->topology)) {
		SIM_LOG(ERR, "%s: %s=%s: path too long", p->name, key, value);
		return -EINVAL;
	}
	if (strcmp(value, RIO_SIM_BUILTIN_PREFIX) == 0) {
		SIM_LOG(ERR, "%s: %s=%s: missing shape after '%s'", p->name, key, value,
			RIO_SIM_BUILTIN_PREFIX);
		return -EINVAL;
	}
	strlcpy(p->topology, value, sizeof(p->topology));
	return 0;
}

static int
rio_sim_parse_endpoint(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;

	if (strlen(value) >= sizeof(p->endpoint) || !rio_sim_name_valid(value)) {
		SIM_LOG(ERR, "%s: %s=%s: expected an endpoint name or index", p->name, key,
			value);
		return -EINVAL;
	}
	strlcpy(p->endpoint, value, sizeof(p->endpoint));
	return 0;
}

static int
rio_sim_parse_host(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;
	unsigned long v;

	/* 0xffff (0xff for 8-bit IDs) is the "any" ID, never a host ID. */
	if (rio_sim_parse_uint(p, key, value, 0xfffe, &v) < 0)
		return -EINVAL;
	p->host = (int32_t)v;
	return 0;
}

static int
rio_sim_parse_devid_size(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;
	unsigned long v;

	if (rio_sim_parse_uint(p, key, value, 16, &v) < 0)
		return -EINVAL;
	if (v != 8 && v != 16) {
		SIM_LOG(ERR, "%s: %s=%s: device ID size is 8 or 16", p->name, key, value);
		return -EINVAL;
	}
	p->devid_size = (uint8_t)v;
	return 0;
}

static int
rio_sim_parse_group(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;
	unsigned long v;

	if (rio_sim_parse_uint(p, key, value, 1, &v) < 0)
		return -EINVAL;
	p->group = v != 0;
	return 0;
}

static int
rio_sim_parse_scan(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;
	unsigned long v;

	if (rio_sim_parse_uint(p, key, value, 1, &v) < 0)
		return -EINVAL;
	p->scan = v != 0;
	return 0;
}

static int
rio_sim_parse_disc_timeout(const char *key, const char *value, void *opaque)
{
	struct rio_sim_params *p = opaque;
	unsigned long v;

	if (rio_sim_parse_uint(p, key, value, RIO_SIM_DISC_TIMEOUT_MAX_MS, &v) < 0)
		return -EINVAL;
	if (v == 0) {
		SIM_LOG(ERR, "%s: %s=0: the discovery timeout is 1..%u ms", p->name, key,
			RIO_SIM_DISC_TIMEOUT_MAX_MS);
		return -EINVAL;
	}
	p->disc_timeout_ms = (uint32_t)v;
	return 0;
}

int
rio_sim_parse_args(const char *name, const char *args, struct rio_sim_params *p)
{
	static const struct {
		const char *key;
		arg_handler_t handler;
	} parsers[] = {
		{ RIO_SIM_ARG_FABRIC, rio_sim_parse_fabric },
		{ RIO_SIM_ARG_TOPOLOGY, rio_sim_parse_topology },
		{ RIO_SIM_ARG_ENDPOINT, rio_sim_parse_endpoint },
		{ RIO_SIM_ARG_HOST, rio_sim_parse_host },
		{ RIO_SIM_ARG_DEVID_SIZE, rio_sim_parse_devid_size },
		{ RIO_SIM_ARG_GROUP, rio_sim_parse_group },
		{ RIO_SIM_ARG_SCAN, rio_sim_parse_scan },
		{ RIO_SIM_ARG_DISC_TIMEOUT, rio_sim_parse_disc_timeout },
	};
	struct rte_kvargs *kvlist = NULL;
	unsigned int i, k;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->name = name;
	strlcpy(p->fabric, RTE_PMD_RIO_SIM_DEFAULT_FABRIC, sizeof(p->fabric));
	p->host = -1;
	p->scan = true;
	p->disc_timeout_ms = RTE_RIO_DISC_TIMEOUT_DEFAULT * 1000;

	if (args == NULL || args[0] == '\0')
		return 0;

	/* Parse without a key filter so an unknown key can be named. */
	kvlist = rte_kvargs_parse(args, NULL);
	if (kvlist == NULL) {
		SIM_LOG(ERR, "%s: cannot parse devargs \"%s\"", name, args);
		return -EINVAL;
	}
	for (i = 0; i < kvlist->count; i++) {
		const struct rte_kvargs_pair *pair = &kvlist->pairs[i];

		for (k = 0; rio_sim_valid_args[k] != NULL; k++)
			if (strcmp(pair->key, rio_sim_valid_args[k]) == 0)
				break;
		if (rio_sim_valid_args[k] == NULL) {
			SIM_LOG(ERR, "%s: unknown devarg \"%s\" (valid: fabric, topology, endpoint, host, devid_size, group, scan, disc_timeout)",
				name, pair->key);
			ret = -EINVAL;
			goto out;
		}
		if (pair->value == NULL || pair->value[0] == '\0') {
			SIM_LOG(ERR, "%s: devarg \"%s\" needs a value", name, pair->key);
			ret = -EINVAL;
			goto out;
		}
	}
	for (k = 0; k < RTE_DIM(parsers); k++) {
		if (rte_kvargs_count(kvlist, parsers[k].key) > 1) {
			SIM_LOG(ERR, "%s: devarg \"%s\" given more than once", name,
				parsers[k].key);
			ret = -EINVAL;
			goto out;
		}
		if (rte_kvargs_process(kvlist, parsers[k].key, parsers[k].handler, p) < 0) {
			ret = -EINVAL;
			goto out;
		}
	}
out:
	rte_kvargs_free(kvlist);
	return ret;
}

int
rio_sim_load_topology(const char *spec, struct sim_topology **topo, char *err, size_t errlen)
{
	size_t plen = strlen(RIO_SIM_BUILTIN_PREFIX);

	if (strncmp(spec, RIO_SIM_BUILTIN_PREFIX, plen) == 0)
		return sim_topology_builtin(spec + plen, topo, err, errlen);
	return sim_topology_parse_file(spec, topo, err, errlen);
}
