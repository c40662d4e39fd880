/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Devargs of a tsi721 PCI function (-a <pci>,host=0), of the model
 * (--vdev tsi721_model0,fabric=...) and of a bare model
 * (rte_pmd_tsi721_model_open()): one parser, each key valid for some kinds.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <rte_string_fns.h>

#include "tsi721.h"

#define TSI721_DISC_TIMEOUT_MAX	3600000u

/* Whose keys: the PCI function's, the model's, or both (the bare model has its own). */
#define TSI721_ARG_PCI		TSI721_DEVARGS_PCI
#define TSI721_ARG_MODEL	TSI721_DEVARGS_MODEL
#define TSI721_ARG_BOTH		(TSI721_DEVARGS_PCI | TSI721_DEVARGS_MODEL)
#define TSI721_ARG_FABRIC	(TSI721_DEVARGS_MODEL | TSI721_DEVARGS_BARE_MODEL)

struct tsi721_arg_ctx {
	const char *name;
	struct tsi721_devargs *da;
};

static int
tsi721_arg_uint(const struct tsi721_arg_ctx *c, const char *key, const char *value,
		unsigned long min, unsigned long max, unsigned long *out)
{
	char *end = NULL;
	unsigned long v;

	errno = 0;
	v = strtoul(value, &end, 0);
	if (!isdigit((unsigned char)value[0]) || errno != 0 || *end != '\0' || v < min ||
	    v > max) {
		TSI_LOG(ERR, "%s: %s=%s: expected an integer in %lu..%lu", c->name, key, value,
			min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int
tsi721_arg_name(const char *key, const char *value, void *opaque)
{
	const struct tsi721_arg_ctx *c = opaque;
	char *dst = strcmp(key, "fabric") == 0 ? c->da->fabric : c->da->endpoint;
	size_t i;

	for (i = 0; value[i] != '\0'; i++)
		if (!isalnum((unsigned char)value[i]) && value[i] != '_' && value[i] != '-')
			break;
	if (i == 0 || value[i] != '\0' || i >= TSI721_NAME_LEN) {
		TSI_LOG(ERR, "%s: %s=%s: 1..%d characters of [A-Za-z0-9_-]", c->name, key, value,
			TSI721_NAME_LEN - 1);
		return -EINVAL;
	}
	strlcpy(dst, value, TSI721_NAME_LEN);
	return 0;
}

static int
tsi721_arg_topology(const char *key, const char *value, void *opaque)
{
	const struct tsi721_arg_ctx *c = opaque;

	if (strlcpy(c->da->topology, value, sizeof(c->da->topology)) >=
	    sizeof(c->da->topology)) {
		TSI_LOG(ERR, "%s: %s=%s: path too long", c->name, key, value);
		return -EINVAL;
	}
	return 0;
}

static int
tsi721_arg_host(const char *key, const char *value, void *opaque)
{
	const struct tsi721_arg_ctx *c = opaque;
	unsigned long v;

	/* 0xffff (0xff for 8-bit IDs) is the "any" ID, never a host ID. */
	if (tsi721_arg_uint(c, key, value, 0, 0xfffe, &v) < 0)
		return -EINVAL;
	c->da->host_destid = (int32_t)v;
	return 0;
}

static int
tsi721_arg_devid_size(const char *key, const char *value, void *opaque)
{
	const struct tsi721_arg_ctx *c = opaque;
	unsigned long v;

	if (tsi721_arg_uint(c, key, value, 8, 16, &v) < 0 || (v != 8 && v != 16)) {
		TSI_LOG(ERR, "%s: %s=%s: device ID size is 8 or 16", c->name, key, value);
		return -EINVAL;
	}
	c->da->devid_size = (uint8_t)v;
	return 0;
}

static int
tsi721_arg_scan(const char *key, const char *value, void *opaque)
{
	const struct tsi721_arg_ctx *c = opaque;
	unsigned long v;

	if (tsi721_arg_uint(c, key, value, 0, 1, &v) < 0)
		return -EINVAL;
	c->da->scan = v != 0;
	return 0;
}

static int
tsi721_arg_disc_timeout(const char *key, const char *value, void *opaque)
{
	const struct tsi721_arg_ctx *c = opaque;
	unsigned long v;

	if (tsi721_arg_uint(c, key, value, 1, TSI721_DISC_TIMEOUT_MAX, &v) < 0)
		return -EINVAL;
	c->da->disc_timeout_ms = (uint32_t)v;
	return 0;
}

static const struct {
	const char *key;
	arg_handler_t handler;
	uint8_t kind;
} tsi721_args[] = {
	{ "fabric", tsi721_arg_name, TSI721_ARG_FABRIC },
	{ "topology", tsi721_arg_topology, TSI721_ARG_FABRIC },
	{ "endpoint", tsi721_arg_name, TSI721_ARG_FABRIC },
	{ "host", tsi721_arg_host, TSI721_ARG_BOTH },
	{ "devid_size", tsi721_arg_devid_size, TSI721_ARG_PCI },
	{ "scan", tsi721_arg_scan, TSI721_ARG_BOTH },
	{ "disc_timeout", tsi721_arg_disc_timeout, TSI721_ARG_BOTH },
};

int
tsi721_devargs_parse(const char *name, const char *args, enum tsi721_devargs_kind kind,
		     struct tsi721_devargs *da)
{
	struct tsi721_arg_ctx c = { .name = name, .da = da };
	char valid[128] = "";
	struct rte_kvargs *kv;
	unsigned int i, k;
	int ret = 0;

	memset(da, 0, sizeof(*da));
	strlcpy(da->fabric, "default", sizeof(da->fabric));
	da->host_destid = RTE_RIO_NO_HOST;
	da->devid_size = 8;	/* as Linux sets up the part: a small system */
	da->scan = true;
	da->disc_timeout_ms = RTE_RIO_DISC_TIMEOUT_DEFAULT * 1000;
	if (args == NULL || args[0] == '\0')
		return 0;
	/* Parsed without a key filter, so that an unknown key can be named. */
	kv = rte_kvargs_parse(args, NULL);
	if (kv == NULL) {
		TSI_LOG(ERR, "%s: cannot parse devargs \"%s\"", name, args);
		return -EINVAL;
	}
	for (k = 0; k < RTE_DIM(tsi721_args); k++)
		if (tsi721_args[k].kind & kind)
			snprintf(valid + strlen(valid), sizeof(valid) - strlen(valid), "%s%s",
				 valid[0] != '\0' ? ", " : "", tsi721_args[k].key);
	for (i = 0; i < kv->count && ret == 0; i++) {
		const struct rte_kvargs_pair *pair = &kv->pairs[i];

		for (k = 0; k < RTE_DIM(tsi721_args); k++)
			if ((tsi721_args[k].kind & kind) && strcmp(pair->key, tsi721_args[k].key) == 0)
				break;
		if (k == RTE_DIM(tsi721_args)) {
			TSI_LOG(ERR, "%s: unknown devarg \"%s\" (valid: %s)", name, pair->key, valid);
			ret = -EINVAL;
		} else if (pair->value == NULL || pair->value[0] == '\0') {
			TSI_LOG(ERR, "%s: devarg \"%s\" needs a value", name, pair->key);
			ret = -EINVAL;
		} else if (rte_kvargs_count(kv, pair->key) > 1) {
			TSI_LOG(ERR, "%s: devarg \"%s\" given more than once", name, pair->key);
			ret = -EINVAL;
		} else if (tsi721_args[k].handler(pair->key, pair->value, &c) < 0) {
			ret = -EINVAL;
		}
	}
	rte_kvargs_free(kv);
	if (ret == 0 && kind == TSI721_DEVARGS_PCI &&
	    da->host_destid >= RTE_RIO_ANY_DESTID(da->devid_size)) {
		TSI_LOG(ERR, "%s: host=%d out of range for %u-bit device IDs", name,
			da->host_destid, da->devid_size);
		ret = -EINVAL;
	}
	return ret;
}
