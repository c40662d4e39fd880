/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Telemetry commands: what Linux exposed in sysfs for RapidIO devices
 * (did, vid, device_rev, asm_*, routes, config space), readable with the
 * stock dpdk-telemetry.py. Read-only on purpose: the telemetry socket is
 * not authenticated, so config writes stay in the C API
 * (rte_rio_dev_write_config_32()).
 *
 * Built only on the public API of rte_rio.h and rte_rio_dev.h.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include "rte_rio.h"
#include "rte_rio_dev.h"
#include "rio_dpdk_compat.h"

/* Route entries per reply (a dict holds at most RTE_TEL_MAX_DICT_ENTRIES). */
#define RIO_TEL_ROUTES_MAX	(RTE_TEL_MAX_DICT_ENTRIES - 16)
/* Device names per reply. */
#define RIO_TEL_DEVICES_MAX	RTE_TEL_MAX_ARRAY_ENTRIES
/* Longest parameter string handled. */
#define RIO_TEL_PARAM_MAX	128

static int
rio_tel_error(struct rte_tel_data *d, int err, const char *fmt, ...)
	__rte_format_printf(3, 4);

/* Reply with {"error": "<message>", "errno": <-err>}. */
static int
rio_tel_error(struct rte_tel_data *d, int err, const char *fmt, ...)
{
	char msg[RTE_TEL_MAX_STRING_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "error", msg);
	rte_tel_data_add_dict_int(d, "errno", err);
	return 0;
}

/*
 * Split "a,b,c" into at most @p max fields (in place, in @p buf).
 * @return number of fields, or -EINVAL when there are more.
 */
static int
rio_tel_split(const char *params, char *buf, size_t len, char **fields, int max)
{
	int n;

	if (params == NULL || params[0] == '\0')
		return 0;
	if (rte_strscpy(buf, params, len) < 0)
		return -EINVAL;
	n = rte_strsplit(buf, strlen(buf), fields, max + 1, ',');
	return n > max ? -EINVAL : n;
}

/* Parse an unsigned number (decimal, 0x hex) up to @p max. */
static int
rio_tel_parse_u32(const char *s, uint32_t max, uint32_t *val)
{
	unsigned long long v;
	char *end;

	if (s == NULL || *s == '\0' || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0' || v > max)
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}

static const char *
rio_tel_dev_type(enum rte_rio_dev_type type)
{
	return type == RTE_RIO_DEV_SWITCH ? "switch" : "endpoint";
}

/* /rio/mports: names of the registered mports. */
static int
rio_tel_mports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_rio_mport *mport;
	uint16_t i;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	for (i = 0; i < RTE_RIO_MAX_MPORTS; i++) {
		mport = rte_rio_mport_get(i);
		if (mport != NULL)
			rte_tel_data_add_array_string(d, rte_rio_mport_name(mport));
	}
	return 0;
}

/* /rio/mport,<name>: mport description. */
static int
rio_tel_mport(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_rio_hotplug_stats hs;
	struct rte_rio_mport_info info;
	struct rte_rio_mport *mport;
	int ret;

	RTE_SET_USED(cmd);
	if (params == NULL || params[0] == '\0')
		return rio_tel_error(d, -EINVAL, "usage: /rio/mport,<mport name>");
	mport = rte_rio_mport_find(params);
	if (mport == NULL)
		return rio_tel_error(d, -ENODEV, "no mport named %s", params);
	ret = rte_rio_mport_info_get(mport, &info);
	if (ret < 0)
		return rio_tel_error(d, ret, "cannot describe mport %s", params);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", info.name);
	rte_tel_data_add_dict_int(d, "id", info.id);
	rte_tel_data_add_dict_int(d, "devid_size", info.devid_size);
	rte_tel_data_add_dict_int(d, "host_destid", info.host_destid);
	rte_tel_data_add_dict_int(d, "destid", info.destid);
	rte_tel_data_add_dict_uint(d, "phys_efptr", info.phys_efptr);
	rte_tel_data_add_dict_int(d, "phys_rmap", info.phys_rmap);
	rte_tel_data_add_dict_int(d, "port_index", info.port_index);
	rte_tel_data_add_dict_int(d, "link_up", info.link_up);
	rte_tel_data_add_dict_uint(d, "maint_count", info.maint_count);
	rte_tel_data_add_dict_int(d, "scanned", rte_rio_mport_scanned(mport));
	rte_tel_data_add_dict_int(d, "devices", rte_rio_dev_count(mport));
	/* An enumerated host handles port-writes (hot-plug). */
	if (rte_rio_hotplug_stats_get(mport, &hs) == 0) {
		rte_tel_data_add_dict_uint(d, "pw_rx", hs.pw_rx);
		rte_tel_data_add_dict_uint(d, "pw_unknown", hs.pw_unknown);
		rte_tel_data_add_dict_uint(d, "pw_errors", hs.pw_errors);
		rte_tel_data_add_dict_uint(d, "hp_link_down", hs.link_down);
		rte_tel_data_add_dict_uint(d, "hp_link_up", hs.link_up);
		rte_tel_data_add_dict_uint(d, "hp_dev_removed", hs.dev_removed);
		rte_tel_data_add_dict_uint(d, "hp_dev_added", hs.dev_added);
		rte_tel_data_add_dict_uint(d, "hp_enum_errors", hs.enum_errors);
	}
	return 0;
}

/* /rio/devices[,<mport>[,<start index>]]: device names, RIO_TEL_DEVICES_MAX per reply. */
static int
rio_tel_devices(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[RIO_TEL_PARAM_MAX];
	struct rte_rio_mport *mport = NULL;
	struct rte_rio_dev *dev = NULL;
	uint32_t start = 0, idx = 0, n = 0;
	char *f[2];
	int nf;

	RTE_SET_USED(cmd);
	nf = rio_tel_split(params, buf, sizeof(buf), f, 2);
	if (nf < 0)
		return rio_tel_error(d, -EINVAL, "usage: /rio/devices[,<mport>[,<start>]]");
	if (nf >= 1 && f[0][0] != '\0') {
		mport = rte_rio_mport_find(f[0]);
		if (mport == NULL)
			return rio_tel_error(d, -ENODEV, "no mport named %s", f[0]);
	}
	if (nf == 2 && rio_tel_parse_u32(f[1], UINT32_MAX, &start) < 0)
		return rio_tel_error(d, -EINVAL, "bad start index %s", f[1]);
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	while ((dev = rte_rio_dev_next(mport, dev)) != NULL && n < RIO_TEL_DEVICES_MAX) {
		if (idx++ < start)
			continue;
		rte_tel_data_add_array_string(d, rte_rio_dev_name(dev));
		n++;
	}
	return 0;
}

static struct rte_rio_dev *
rio_tel_find_dev(const char *name, struct rte_tel_data *d, int *reply)
{
	struct rte_rio_dev *dev;

	if (name == NULL || name[0] == '\0') {
		*reply = rio_tel_error(d, -EINVAL, "missing device name");
		return NULL;
	}
	dev = rte_rio_dev_find_by_name(name);
	if (dev == NULL)
		*reply = rio_tel_error(d, -ENODEV, "no device named %s", name);
	return dev;
}

/* /rio/device,<name>: the attributes Linux showed in sysfs, and more. */
static int
rio_tel_device(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_rio_dev_info info;
	struct rte_rio_dev *dev;
	int ret = 0;

	RTE_SET_USED(cmd);
	dev = rio_tel_find_dev(params, d, &ret);
	if (dev == NULL)
		return ret;
	ret = rte_rio_dev_info_get(dev, &info);
	if (ret < 0)
		return rio_tel_error(d, ret, "cannot describe %s", params);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", info.name);
	rte_tel_data_add_dict_string(d, "type", rio_tel_dev_type(info.type));
	rte_tel_data_add_dict_string(d, "mport", rte_rio_mport_name(rte_rio_dev_mport(dev)));
	rte_tel_data_add_dict_int(d, "local", info.local);
	rte_tel_data_add_dict_int(d, "vid", info.vid);
	rte_tel_data_add_dict_int(d, "did", info.did);
	rte_tel_data_add_dict_uint(d, "device_rev", info.device_rev);
	rte_tel_data_add_dict_int(d, "asm_vid", info.asm_vid);
	rte_tel_data_add_dict_int(d, "asm_did", info.asm_did);
	rte_tel_data_add_dict_int(d, "asm_rev", info.asm_rev);
	rte_tel_data_add_dict_int(d, "destid", info.destid);
	rte_tel_data_add_dict_int(d, "hopcount", info.hopcount);
	rte_tel_data_add_dict_uint(d, "comptag", info.comptag);
	rte_tel_data_add_dict_uint(d, "pef", info.pef);
	rte_tel_data_add_dict_uint(d, "src_ops", info.src_ops);
	rte_tel_data_add_dict_uint(d, "dst_ops", info.dst_ops);
	rte_tel_data_add_dict_int(d, "nports", info.nports);
	if (info.type == RTE_RIO_DEV_SWITCH) {
		rte_tel_data_add_dict_int(d, "sw_inport", info.sw_inport);
		rte_tel_data_add_dict_int(d, "prev_comptag", info.prev_comptag);
		rte_tel_data_add_dict_int(d, "prev_port", info.prev_port);
	}
	return 0;
}

static int
rio_tel_cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/*
 * /rio/routes,<switch>[,<first destid>]: {"<destid>": port} from the
 * library's shadow table, for the device IDs of the endpoints the mport
 * knows (not all 65536 IDs), in ascending order from <first destid>. At
 * most RIO_TEL_ROUTES_MAX routes per reply; when more remain, "next" gives
 * the device ID to ask for next.
 */
static int
rio_tel_routes(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[RIO_TEL_PARAM_MAX], key[16];
	struct rte_rio_dev_info info;
	struct rte_rio_dev *sw, *dev = NULL;
	struct rte_rio_mport *mport;
	uint16_t *ids = NULL;
	unsigned int n = 0, cap, i, added = 0;
	uint32_t first = 0;
	char *f[2];
	int nf, ret = 0, port;

	RTE_SET_USED(cmd);
	nf = rio_tel_split(params, buf, sizeof(buf), f, 2);
	if (nf < 1)
		return rio_tel_error(d, -EINVAL, "usage: /rio/routes,<switch>[,<first destid>]");
	sw = rio_tel_find_dev(f[0], d, &ret);
	if (sw == NULL)
		return ret;
	if (nf == 2 && rio_tel_parse_u32(f[1], UINT16_MAX, &first) < 0)
		return rio_tel_error(d, -EINVAL, "bad device ID %s", f[1]);
	ret = rte_rio_dev_info_get(sw, &info);
	if (ret < 0)
		return rio_tel_error(d, ret, "cannot describe %s", f[0]);
	if (info.type != RTE_RIO_DEV_SWITCH)
		return rio_tel_error(d, -EINVAL, "%s is not a switch", f[0]);

	mport = rte_rio_dev_mport(sw);
	cap = rte_rio_dev_count(mport);
	ids = malloc((cap + 1) * sizeof(*ids));
	if (ids == NULL)
		return rio_tel_error(d, -ENOMEM, "out of memory");
	while ((dev = rte_rio_dev_next(mport, dev)) != NULL && n < cap) {
		if (rte_rio_dev_info_get(dev, &info) == 0 && info.type == RTE_RIO_DEV_ENDPOINT &&
		    info.destid >= first)
			ids[n++] = info.destid;
	}
	qsort(ids, n, sizeof(*ids), rio_tel_cmp_u16);

	rte_tel_data_start_dict(d);
	for (i = 0; i < n; i++) {
		if (i > 0 && ids[i] == ids[i - 1])
			continue;
		if (added == RIO_TEL_ROUTES_MAX) {
			rte_tel_data_add_dict_int(d, "next", ids[i]);
			break;
		}
		port = rte_rio_switch_route_get(sw, ids[i]);
		if (port < 0 || port == RTE_RIO_INVALID_ROUTE)
			continue;
		snprintf(key, sizeof(key), "%u", ids[i]);
		rte_tel_data_add_dict_int(d, key, port);
		added++;
	}
	free(ids);
	return 0;
}

/* /rio/config_read,<name>,<offset>: one 32-bit register (maintenance read if remote). */
static int
rio_tel_config_read(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[RIO_TEL_PARAM_MAX];
	struct rte_rio_dev *dev;
	uint32_t offset, val;
	char *f[2];
	int nf, ret = 0;

	RTE_SET_USED(cmd);
	nf = rio_tel_split(params, buf, sizeof(buf), f, 2);
	if (nf != 2)
		return rio_tel_error(d, -EINVAL, "usage: /rio/config_read,<device>,<offset>");
	dev = rio_tel_find_dev(f[0], d, &ret);
	if (dev == NULL)
		return ret;
	if (rio_tel_parse_u32(f[1], UINT32_MAX, &offset) < 0)
		return rio_tel_error(d, -EINVAL, "bad offset %s", f[1]);
	ret = rte_rio_dev_read_config_32(dev, offset, &val);
	if (ret == -EFAULT)
		return rio_tel_error(d, ret, "offset 0x%x is not 4-byte aligned", offset);
	if (ret == -ERANGE)
		return rio_tel_error(d, ret, "offset 0x%x is beyond the configuration space",
				     offset);
	if (ret < 0)
		return rio_tel_error(d, ret, "read of 0x%x failed: %s", offset, strerror(-ret));
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "device", rte_rio_dev_name(dev));
	rte_tel_data_add_dict_uint(d, "offset", offset);
	rte_tel_data_add_dict_uint(d, "value", val);
	return 0;
}

/* /rio/topology[,<mport>]: Graphviz DOT of the mport's view (default: the first mport). */
static int
rio_tel_topology(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_rio_mport *mport = NULL;
	char *text = NULL;
	size_t len = 0;
	uint16_t i;
	FILE *f;
	int ret;

	RTE_SET_USED(cmd);
	if (params != NULL && params[0] != '\0') {
		mport = rte_rio_mport_find(params);
		if (mport == NULL)
			return rio_tel_error(d, -ENODEV, "no mport named %s", params);
	} else {
		for (i = 0; i < RTE_RIO_MAX_MPORTS && mport == NULL; i++)
			mport = rte_rio_mport_get(i);
		if (mport == NULL)
			return rio_tel_error(d, -ENODEV, "no mport");
	}
	f = open_memstream(&text, &len);
	if (f == NULL)
		return rio_tel_error(d, -ENOMEM, "out of memory");
	ret = rte_rio_topology_dot(mport, f);
	fclose(f);
	if (ret < 0)
		ret = rio_tel_error(d, ret, "cannot export the topology: %s", strerror(-ret));
	else if (len >= RTE_TEL_MAX_SINGLE_STRING_LEN)
		ret = rio_tel_error(d, -E2BIG, "topology is %zu bytes, more than telemetry carries;"
				    " use rte_rio_topology_dot()", len);
	else
		ret = rte_tel_data_string(d, text);
	free(text);
	return ret;
}

RTE_INIT(rio_telemetry_init)
{
	rte_telemetry_register_cmd("/rio/mports", rio_tel_mports,
		"Returns the names of the RapidIO mports. No parameters.");
	rte_telemetry_register_cmd("/rio/mport", rio_tel_mport,
		"Returns an mport's description. Parameters: mport name.");
	rte_telemetry_register_cmd("/rio/devices", rio_tel_devices,
		"Returns RapidIO device names (512 per reply). Parameters: [mport[,start index]].");
	rte_telemetry_register_cmd("/rio/device", rio_tel_device,
		"Returns a RapidIO device's IDs and features. Parameters: device name.");
	rte_telemetry_register_cmd("/rio/routes", rio_tel_routes,
		"Returns a switch's routes {destid: port}. Parameters: switch[,first destid].");
	rte_telemetry_register_cmd("/rio/config_read", rio_tel_config_read,
		"Reads a 32-bit config register. Parameters: device name,offset.");
	rte_telemetry_register_cmd("/rio/topology", rio_tel_topology,
		"Returns the fabric as Graphviz DOT text. Parameters: [mport name].");
}
