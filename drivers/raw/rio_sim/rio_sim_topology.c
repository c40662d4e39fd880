/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Fabric topologies: INI files read with librte_cfgfile, and built-in shapes.
 *
 * File format (';' starts a comment; keys and section types are lowercase;
 * doc/guides/rawdevs/rio_sim.rst describes every key):
 *
 *   [fabric]                   ; optional, at most once
 *   devid_size = 16            ; 8 or 16 (default 8)
 *   mbox_entries = 1024        ; inbound ring slots, power of two 2..4096
 *   static_routes = 0          ; 1: program route tables from preset destids
 *   seed = 12345               ; std route tables' reset contents (default random)
 *   timing = 1                 ; 0: no latency (shared-memory transport)
 *   hop_latency = 100          ; ns per switch crossing
 *   response_latency = 500     ; ns a target takes to answer a request
 *   response_timeout = 100000  ; us, >= 1
 *   pw_repeat = 100000         ; us between repeats of a pending port-write
 *   seg_bufs = 0               ; inbound segment buffers per endpoint, 0..16 (0: enough)
 *   lanes = 4                  ; lanes of every port: 1, 2, 4, 8, 16
 *   baud = 5                   ; lane rate, Gbaud: 1.25 .. 12.5
 *   [switch sw0]
 *   model = std                ; std (default), cps1848, rxs2448
 *   ports = 8                  ; std: 2..32 (required); the others fix it
 *   rt_limit = 0xff            ; std only: route table destID limit (0x34)
 *   vid = 0x5253               ; std and generic only: also did, dev_rev (32 bits)
 *   asm_vid = 0x5253           ; any model: asm_vid, asm_did, asm_rev (16 bits)
 *   lanes = 4                  ; per device: lanes and baud of its ports
 *   [endpoint ep0]
 *   model = generic            ; generic (default), tsi721
 *   ports = 1                  ; generic: 1 or 2
 *   host = 1                   ; 0 or 1: this endpoint enumerates
 *   host_destid = 0            ; host device ID it uses (default 0)
 *   destid = 5                 ; preset Base Device ID (default: unset, 0xff/0xffff)
 *   [endpoint ep1]
 *   [links]                    ; may appear more than once
 *   sw0.0 = ep0.0              ; <device>.<port> = <device>.<port>
 *   sw0.1 = ep1.0
 *
 * Device names: 1..31 characters from [A-Za-z0-9_-]. Every port is linked
 * at most once, never to the same device. Numbers are decimal, 0x
 * hexadecimal or 0 octal. Errors name the file, the section and the key.
 *
 * Built-in shapes (sim_topology_builtin()):
 *
 *   default        switch sw0 (8 ports); ep0 on sw0.0 (host, host_destid 0,
 *                  destid 0), ep1 on sw0.1 (destid 1); static routes, so the
 *                  two endpoints talk before any enumeration.
 *   pair           ep0 (host, destid 0) and ep1 (destid 1) linked back to
 *                  back (ep0.0 = ep1.0); static routes.
 *   chain:N        N switches sw0..sw<N-1> (1 <= N <= 60) of 4 ports in a line:
 *                  sw<i>.2 = sw<i+1>.0; ep0 (host) on sw0.0; ep<i+1> on
 *                  sw<i>.1; port 3 unconnected. ep<i+1> is i+1 hops away.
 *   tree:F:L       a tree of switches with fanout F (1..31) and L levels
 *                  (1..16): every switch has F+1 ports, port 0 towards the
 *                  root (the root's port 0 holds ep0, the host), ports 1..F
 *                  hold the switches of the next level, and on the last level
 *                  F endpoints each. Switches sw0.. in breadth-first order,
 *                  endpoints ep1.. left to right.
 *   star:N         N endpoints (2 <= N), ep0 the host, hung under 16-port
 *                  switches: up to 16 endpoints share one switch; beyond that
 *                  leaf switches take 15 endpoints on ports 0..14 and use port
 *                  15 as uplink, grouped the same way level by level up to a
 *                  root switch with at most 16 children.
 *
 * The generated shapes have no preset destids and no static routes (an
 * enumerator numbers them) and use 16-bit device IDs when they have more than
 * 200 endpoints. Options follow the shape, each after a '/': a model for
 * every switch or endpoint, seed=<n>, timing=<0|1>, response_timeout=<us>.
 *
 * RIO_SIM_MODELS=<switch model>,<endpoint model> in the environment gives the
 * devices of files and shapes that name no model a run-wide default
 * (topo_default_models()).
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_cfgfile.h>
#include <rte_common.h>
#include <rte_string_fns.h>

#include "rio_sim_fabric.h"

/*
 * Timing defaults: a switch crossing of about 100 ns (cut-through parts), a
 * target answering maintenance in 500 ns, a 100 ms response timeout and
 * port-writes repeated every 100 ms while pending.
 */
#define TOPO_HOP_NS		100
#define TOPO_PROC_NS		500
#define TOPO_RESP_TIMEOUT_US	100000
#define TOPO_PW_REPEAT_US	100000
#define TOPO_FILE_MAX		(16u << 20)	/* bytes */
#define TOPO_LINE_MAX		(CFG_NAME_LEN + CFG_VALUE_LEN + 2)
#define TOPO_DEV_TYPES		(SIM_DEV_SWITCH + 1)	/* arrays indexed by device type */
#define TOPO_AUTO_DEV16		200	/* generated shapes: 16-bit above this many endpoints */

void
sim_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void
sim_topology_free(struct sim_topology *topo)
{
	if (topo == NULL)
		return;
	free(topo->devs);
	free(topo->links);
	free(topo->name_index);
	free(topo);
}

static struct sim_topology *
topo_alloc(void)
{
	struct sim_topology *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->devid_size = 8;
	t->mbox_entries = SIM_MBOX_ENTRIES_DEF;
	t->timing = true;
	t->hop_ns = TOPO_HOP_NS;
	t->proc_ns = TOPO_PROC_NS;
	t->resp_timeout_us = TOPO_RESP_TIMEOUT_US;
	t->pw_repeat_us = TOPO_PW_REPEAT_US;
	t->lanes = 4;
	t->baud = SIM_BAUD_5_0;
	return t;
}

/* FNV-1a of a device name (at most SIM_NAME_MAX bytes). */
static uint32_t
topo_name_hash(const char *name)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < SIM_NAME_MAX && name[i] != '\0'; i++) {
		h ^= (uint8_t)name[i];
		h *= 16777619u;
	}
	return h;
}

/* Slot of @name in the name index: its entry, or the free slot where it goes. */
static uint32_t *
topo_index_slot(const struct sim_topology *t, const char *name)
{
	uint32_t mask = t->name_index_size - 1;
	uint32_t h = topo_name_hash(name) & mask;
	uint32_t *slot;

	for (;; h = (h + 1) & mask) {
		slot = &t->name_index[h];
		if (*slot == 0 || strncmp(t->devs[*slot - 1].name, name, SIM_NAME_MAX) == 0)
			return slot;
	}
}

/*
 * Index device @idx by name, growing the index to keep it at most half full
 * (a linear search per added device made large shapes quadratic).
 */
static int
topo_index_add(struct sim_topology *t, uint32_t idx)
{
	uint32_t size = t->name_index_size, i, *old = t->name_index;

	if ((idx + 1) * 2 > size) {
		size = size == 0 ? 64 : size * 2;
		t->name_index = calloc(size, sizeof(*t->name_index));
		if (t->name_index == NULL) {
			t->name_index = old;
			return -ENOMEM;
		}
		t->name_index_size = size;
		free(old);
		for (i = 0; i < idx; i++)
			*topo_index_slot(t, t->devs[i].name) = i + 1;
	}
	*topo_index_slot(t, t->devs[idx].name) = idx + 1;
	return 0;
}

int
sim_topology_find(const struct sim_topology *topo, const char *name)
{
	uint32_t i, *slot;

	if (topo == NULL || name == NULL)
		return -ENOENT;
	if (topo->name_index != NULL) {
		slot = topo_index_slot(topo, name);
		return *slot != 0 ? (int)(*slot - 1) : -ENOENT;
	}
	for (i = 0; i < topo->n_devs; i++)
		if (strncmp(topo->devs[i].name, name, SIM_NAME_MAX) == 0)
			return (int)i;
	return -ENOENT;
}

static bool
topo_name_valid(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n >= SIM_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

/* Append a device; returns its index or -errno. */
static int
topo_add_dev(struct sim_topology *t, const char *name, uint8_t type, uint32_t nports,
	     char *err, size_t errlen)
{
	struct sim_topo_dev *d, *nd;

	if (!topo_name_valid(name)) {
		sim_err(err, errlen, "bad device name '%.40s': 1..%d characters from [A-Za-z0-9_-]",
			name, SIM_NAME_MAX - 1);
		return -EINVAL;
	}
	if (sim_topology_find(t, name) >= 0) {
		sim_err(err, errlen, "duplicate device name '%s'", name);
		return -EEXIST;
	}
	if (t->n_devs >= SIM_MAX_DEVICES) {
		sim_err(err, errlen, "too many devices (at most %d)", SIM_MAX_DEVICES);
		return -E2BIG;
	}
	/* Grow by doubling. */
	if ((t->n_devs & (t->n_devs - 1)) == 0) {
		uint32_t cap = t->n_devs == 0 ? 8 : t->n_devs * 2;

		if (cap < 8)
			cap = 8;
		nd = realloc(t->devs, cap * sizeof(*nd));
		if (nd == NULL) {
			sim_err(err, errlen, "out of memory");
			return -ENOMEM;
		}
		t->devs = nd;
	}
	d = &t->devs[t->n_devs];
	memset(d, 0, sizeof(*d));
	strlcpy(d->name, name, sizeof(d->name));
	d->type = type;
	d->model = type == SIM_DEV_SWITCH ? SIM_MODEL_STD : SIM_MODEL_GENERIC;
	d->nports = (uint8_t)nports;
	d->rt_limit = -1;
	d->destid = -1;
	d->host_destid = 0;
	d->vid = RTE_PMD_RIO_SIM_VID;
	d->did = type == SIM_DEV_SWITCH ? RTE_PMD_RIO_SIM_DID_SWITCH : RTE_PMD_RIO_SIM_DID_ENDPOINT;
	d->asm_vid = RTE_PMD_RIO_SIM_VID;
	d->asm_did = 0;
	d->dev_rev = 1;
	d->asm_rev = 1;
	if (topo_index_add(t, t->n_devs) < 0) {
		sim_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return (int)t->n_devs++;
}

static int
topo_add_link(struct sim_topology *t, uint32_t a, uint8_t pa, uint32_t b, uint8_t pb,
	      char *err, size_t errlen)
{
	struct sim_topo_link *nl;

	if ((t->n_links & (t->n_links - 1)) == 0) {
		uint32_t cap = t->n_links == 0 ? 8 : t->n_links * 2;

		if (cap < 8)
			cap = 8;
		nl = realloc(t->links, cap * sizeof(*nl));
		if (nl == NULL) {
			sim_err(err, errlen, "out of memory");
			return -ENOMEM;
		}
		t->links = nl;
	}
	nl = &t->links[t->n_links++];
	memset(nl, 0, sizeof(*nl));
	nl->dev_a = a;
	nl->port_a = pa;
	nl->dev_b = b;
	nl->port_b = pb;
	return 0;
}

/* Checks every constraint of a complete topology (files and built-ins). */
static int
topo_validate(const struct sim_topology *t, char *err, size_t errlen)
{
	uint32_t anydest = RTE_RIO_ANY_DESTID(t->devid_size);
	uint8_t *used = NULL;
	uint8_t *destids = NULL;
	uint32_t i, n_ep = 0;
	int ret = -EINVAL;

	if (t->devid_size != 8 && t->devid_size != 16) {
		sim_err(err, errlen, "devid_size must be 8 or 16");
		goto out;
	}
	if (t->mbox_entries < 2 || t->mbox_entries > SIM_MBOX_ENTRIES_MAX ||
	    !rte_is_power_of_2(t->mbox_entries)) {
		sim_err(err, errlen, "mbox_entries %u is not a power of two in 2..%d",
			t->mbox_entries, SIM_MBOX_ENTRIES_MAX);
		goto out;
	}
	used = calloc((size_t)t->n_devs * SIM_MAX_PORTS + 1, 1);
	destids = calloc(65536, 1);
	if (used == NULL || destids == NULL) {
		sim_err(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < t->n_devs; i++) {
		const struct sim_topo_dev *d = &t->devs[i];

		if (sim_model_get(d->model)->type != d->type) {
			sim_err(err, errlen, "device %s: model %s is not a %s model", d->name,
				sim_model_get(d->model)->name,
				d->type == SIM_DEV_SWITCH ? "switch" : "endpoint");
			goto out;
		}
		if (d->type == SIM_DEV_ENDPOINT) {
			n_ep++;
			if (d->nports < 1 || d->nports > sim_model_get(d->model)->max_ports) {
				sim_err(err, errlen, "endpoint %s: model %s has 1..%u ports", d->name,
					sim_model_get(d->model)->name,
					sim_model_get(d->model)->max_ports);
				goto out;
			}
			if (d->destid >= 0) {
				if ((uint32_t)d->destid >= anydest) {
					sim_err(err, errlen,
						"endpoint %s: destid %d out of range 0..%u for devid_size %u",
						d->name, d->destid, anydest - 1, t->devid_size);
					goto out;
				}
				if (destids[d->destid]) {
					sim_err(err, errlen, "endpoint %s: destid %d used twice",
						d->name, d->destid);
					goto out;
				}
				destids[d->destid] = 1;
			}
			if (d->host_destid < 0 || (uint32_t)d->host_destid >= anydest) {
				sim_err(err, errlen,
					"endpoint %s: host_destid %d out of range 0..%u for devid_size %u",
					d->name, d->host_destid, anydest - 1, t->devid_size);
				goto out;
			}
		} else if (d->type == SIM_DEV_SWITCH) {
			if (d->nports < 2 || d->nports > sim_model_get(d->model)->max_ports) {
				sim_err(err, errlen, "switch %s: ports must be 2..%u",
					d->name, sim_model_get(d->model)->max_ports);
				goto out;
			}
		} else {
			sim_err(err, errlen, "device %s has no type", d->name);
			goto out;
		}
	}
	if (n_ep == 0) {
		sim_err(err, errlen, "no endpoints");
		goto out;
	}
	for (i = 0; i < t->n_links; i++) {
		const struct sim_topo_link *l = &t->links[i];
		const struct sim_topo_dev *a, *b;

		if (l->dev_a >= t->n_devs || l->dev_b >= t->n_devs) {
			sim_err(err, errlen, "link %u names an unknown device", i);
			goto out;
		}
		a = &t->devs[l->dev_a];
		b = &t->devs[l->dev_b];
		if (l->port_a >= a->nports || l->port_b >= b->nports) {
			const struct sim_topo_dev *x = l->port_a >= a->nports ? a : b;

			sim_err(err, errlen, "link %s.%u = %s.%u: port out of range (%s has %u)",
				a->name, l->port_a, b->name, l->port_b, x->name, x->nports);
			goto out;
		}
		if (l->dev_a == l->dev_b) {
			sim_err(err, errlen, "link %s.%u = %s.%u: device linked to itself",
				a->name, l->port_a, b->name, l->port_b);
			goto out;
		}
		if (used[(size_t)l->dev_a * SIM_MAX_PORTS + l->port_a] ||
		    used[(size_t)l->dev_b * SIM_MAX_PORTS + l->port_b]) {
			const char *n = used[(size_t)l->dev_a * SIM_MAX_PORTS + l->port_a] ?
				a->name : b->name;
			unsigned int p = used[(size_t)l->dev_a * SIM_MAX_PORTS + l->port_a] ?
				l->port_a : l->port_b;

			sim_err(err, errlen, "port %s.%u linked twice", n, p);
			goto out;
		}
		used[(size_t)l->dev_a * SIM_MAX_PORTS + l->port_a] = 1;
		used[(size_t)l->dev_b * SIM_MAX_PORTS + l->port_b] = 1;
	}
	ret = 0;
out:
	free(used);
	free(destids);
	return ret;
}

/* ------------------------------------------------------------------ */
/* INI parsing                                                        */

static int
topo_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0' || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

/* What a path names when it is not a regular file. */
static const char *
topo_file_type(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/*
 * Open topology file @path for reading, after checking that it is a regular
 * file: a FIFO or a device is refused before it is opened (opening a FIFO
 * waits for a writer; reading /dev/zero never ends). O_NONBLOCK keeps the
 * open itself from waiting should the path be replaced in between, and the
 * open file must be the one checked. @return a stream, or NULL with err.
 */
static FILE *
topo_open(const char *path, char *err, size_t errlen, int *ret)
{
	struct stat before, st;
	FILE *fp;
	int fd;

	if (stat(path, &before) != 0) {
		*ret = -errno;
		sim_err(err, errlen, "topology %s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	*ret = -EINVAL;
	if (!S_ISREG(before.st_mode)) {
		sim_err(err, errlen, "topology %s: %s, not a regular file", path,
			topo_file_type(before.st_mode));
		return NULL;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*ret = -errno;
		sim_err(err, errlen, "topology %s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != before.st_dev ||
	    st.st_ino != before.st_ino) {
		sim_err(err, errlen, "topology %s: replaced while it was being opened", path);
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > TOPO_FILE_MAX) {
		sim_err(err, errlen, "topology %s: larger than %u bytes", path, TOPO_FILE_MAX);
		*ret = -EFBIG;
		close(fd);
		return NULL;
	}
	fp = fdopen(fd, "r");
	if (fp == NULL) {
		*ret = -errno;
		sim_err(err, errlen, "topology %s: %s", path, strerror(errno));
		close(fd);
	}
	return fp;
}

/* Strip trailing white space of s[0..len). */
static void
topo_rstrip(char *s, size_t len)
{
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
}

/*
 * Read the topology file once, from the stream topo_open() checked, into
 * @cfg: sections and "key = value" entries, white space stripped, ';'
 * comments dropped, as rte_cfgfile_load() reads them, but every line that
 * is not one of those is an error that names the line (rte_cfgfile skips
 * lines without '=' silently).
 */
static int
topo_read(FILE *fp, const char *path, struct rte_cfgfile *cfg, char *err, size_t errlen)
{
	char line[TOPO_LINE_MAX + 2], section[CFG_NAME_LEN] = "";
	bool in_section = false;
	unsigned int lineno = 0;
	int ret = -EINVAL;

	while (fgets(line, sizeof(line), fp) != NULL) {
		size_t len = strlen(line);
		char *p, *eq, *c;

		lineno++;
		if (len > 0 && line[len - 1] != '\n' && !feof(fp)) {
			sim_err(err, errlen, "topology %s line %u: line too long", path, lineno);
			goto out;
		}
		if (memchr(line, '\0', len) != NULL && strlen(line) != len) {
			sim_err(err, errlen, "topology %s line %u: NUL byte", path, lineno);
			goto out;
		}
		c = strchr(line, ';');
		if (c != NULL)
			*c = '\0';
		p = line;
		while (isspace((unsigned char)*p))
			p++;
		len = strlen(p);
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			p[--len] = '\0';
		if (len == 0)
			continue;
		if (p[0] == '[') {
			if (p[len - 1] != ']' || strchr(p + 1, '[') != NULL ||
			    strchr(p, ']') != p + len - 1) {
				sim_err(err, errlen, "topology %s line %u: malformed section header",
					path, lineno);
				goto out;
			}
			if (len - 2 >= CFG_NAME_LEN) {
				sim_err(err, errlen, "topology %s line %u: section name too long",
					path, lineno);
				goto out;
			}
			snprintf(section, sizeof(section), "%.*s", (int)(len - 2), p + 1);
			/* Entries go to the first section of a name: only [links] repeats. */
			if (rte_cfgfile_has_section(cfg, section) && strcmp(section, "links") != 0) {
				char type[CFG_NAME_LEN], name[CFG_NAME_LEN];

				if (sscanf(section, "%63s %63s", type, name) == 2)
					sim_err(err, errlen,
						"topology %s line %u: duplicate device name '%s'",
						path, lineno, name);
				else
					sim_err(err, errlen, "topology %s line %u: duplicate [%s]",
						path, lineno, section);
				goto out;
			}
			if (rte_cfgfile_add_section(cfg, section) != 0) {
				sim_err(err, errlen, "topology %s line %u: cannot add the section",
					path, lineno);
				ret = -ENOMEM;
				goto out;
			}
			in_section = true;
			continue;
		}
		eq = strchr(p, '=');
		if (eq == NULL) {
			sim_err(err, errlen, "topology %s line %u: expected '[section]' or 'key = value'",
				path, lineno);
			goto out;
		}
		if (!in_section) {
			sim_err(err, errlen, "topology %s line %u: key outside of any section",
				path, lineno);
			goto out;
		}
		if (eq == p) {
			sim_err(err, errlen, "topology %s line %u: empty key", path, lineno);
			goto out;
		}
		if ((size_t)(eq - p) >= CFG_NAME_LEN || strlen(eq + 1) >= CFG_VALUE_LEN) {
			sim_err(err, errlen, "topology %s line %u: key or value too long",
				path, lineno);
			goto out;
		}
		c = eq + 1;
		while (isspace((unsigned char)*c))
			c++;
		if (*c == '\0') {
			sim_err(err, errlen, "topology %s line %u: empty value", path, lineno);
			goto out;
		}
		if (strchr(c, '\\') != NULL) {
			sim_err(err, errlen, "topology %s line %u: backslash not allowed",
				path, lineno);
			goto out;
		}
		*eq = '\0';
		topo_rstrip(p, eq - p);
		ret = rte_cfgfile_add_entry(cfg, section, p, c);
		if (ret == -EEXIST) {
			if (strcmp(section, "links") == 0)
				sim_err(err, errlen, "topology %s line %u: port %s linked twice",
					path, lineno, p);
			else
				sim_err(err, errlen, "topology %s line %u: '%s' given twice in [%s]",
					path, lineno, p, section);
			ret = -EINVAL;
			goto out;
		} else if (ret != 0) {
			sim_err(err, errlen, "topology %s line %u: cannot add the entry",
				path, lineno);
			ret = -ENOMEM;
			goto out;
		}
		ret = -EINVAL;
	}
	if (ferror(fp)) {
		sim_err(err, errlen, "topology %s: read error", path);
		ret = -EIO;
		goto out;
	}
	ret = 0;
out:
	return ret;
}

/* Lanes of a port: 1x, 2x, 4x, 8x or 16x. */
static bool
topo_lanes_ok(uint32_t v)
{
	return v == 1 || v == 2 || v == 4 || v == 8 || v == 16;
}

/* Numeric keys of [fabric]: range, and where the value goes. */
static const struct {
	const char *name;
	uint32_t min, max;
	size_t off;		/* uint32_t field of struct sim_topology */
} topo_fabric_u32[] = {
	{ "seed", 0, UINT32_MAX, offsetof(struct sim_topology, seed) },
	{ "hop_latency", 0, SIM_HOP_NS_MAX, offsetof(struct sim_topology, hop_ns) },
	{ "response_latency", 0, SIM_PROC_NS_MAX, offsetof(struct sim_topology, proc_ns) },
	{ "response_timeout", 1, SIM_RESP_TIMEOUT_US_MAX,
	  offsetof(struct sim_topology, resp_timeout_us) },
	{ "pw_repeat", 1, SIM_PW_REPEAT_US_MAX, offsetof(struct sim_topology, pw_repeat_us) },
	{ "seg_bufs", 0, SIM_SEG_BUFS_MAX, offsetof(struct sim_topology, seg_bufs) },
};

static int
topo_parse_fabric(struct sim_topology *t, const char *path,
		  const struct rte_cfgfile_entry *e, int n, char *err, size_t errlen)
{
	unsigned int k;
	uint32_t v;
	int i, rc;

	for (i = 0; i < n; i++) {
		if (strcmp(e[i].name, "devid_size") == 0) {
			rc = topo_parse_u32(e[i].value, 0, UINT32_MAX, &v);
			if (rc != 0 || (v != 8 && v != 16)) {
				sim_err(err, errlen, "topology %s [fabric]: key devid_size must be 8 or 16, not '%s'",
					path, e[i].value);
				return -EINVAL;
			}
			t->devid_size = (uint8_t)v;
		} else if (strcmp(e[i].name, "mbox_entries") == 0) {
			rc = topo_parse_u32(e[i].value, 2, SIM_MBOX_ENTRIES_MAX, &v);
			if (rc != 0 || !rte_is_power_of_2(v)) {
				sim_err(err, errlen,
					"topology %s [fabric]: key mbox_entries must be a power of two in 2..%d, not '%s'",
					path, SIM_MBOX_ENTRIES_MAX, e[i].value);
				return -EINVAL;
			}
			t->mbox_entries = v;
		} else if (strcmp(e[i].name, "static_routes") == 0 ||
			   strcmp(e[i].name, "timing") == 0) {
			if (topo_parse_u32(e[i].value, 0, 1, &v) != 0) {
				sim_err(err, errlen, "topology %s [fabric]: key %s must be 0 or 1, not '%s'",
					path, e[i].name, e[i].value);
				return -EINVAL;
			}
			if (e[i].name[0] == 's')
				t->static_routes = v != 0;
			else
				t->timing = v != 0;
		} else if (strcmp(e[i].name, "lanes") == 0) {
			if (topo_parse_u32(e[i].value, 1, 16, &v) != 0 || !topo_lanes_ok(v)) {
				sim_err(err, errlen, "topology %s [fabric]: key lanes must be 1, 2, 4, 8 or 16, not '%s'",
					path, e[i].value);
				return -EINVAL;
			}
			t->lanes = (uint8_t)v;
		} else if (strcmp(e[i].name, "baud") == 0) {
			rc = sim_baud_parse(e[i].value);
			if (rc < 0) {
				sim_err(err, errlen,
					"topology %s [fabric]: key baud: '%s' is not a lane rate (1.25, 2.5, 3.125, 5, 6.25, 10.3125, 12.5)",
					path, e[i].value);
				return -EINVAL;
			}
			t->baud = (uint8_t)rc;
		} else {
			for (k = 0; k < RTE_DIM(topo_fabric_u32); k++)
				if (strcmp(e[i].name, topo_fabric_u32[k].name) == 0)
					break;
			if (k == RTE_DIM(topo_fabric_u32)) {
				sim_err(err, errlen, "topology %s [fabric]: unknown key '%s'",
					path, e[i].name);
				return -EINVAL;
			}
			rc = topo_parse_u32(e[i].value, topo_fabric_u32[k].min,
					    topo_fabric_u32[k].max, &v);
			if (rc != 0) {
				sim_err(err, errlen, "topology %s [fabric]: key %s: '%s' is %s (%u..%u)",
					path, e[i].name, e[i].value,
					rc == -ERANGE ? "out of range" : "not a number",
					topo_fabric_u32[k].min, topo_fabric_u32[k].max);
				return -EINVAL;
			}
			*(uint32_t *)((uint8_t *)t + topo_fabric_u32[k].off) = v;
			if (strcmp(e[i].name, "seed") == 0)
				t->seed_set = true;
		}
	}
	return 0;
}

/* Keys of [switch] and [endpoint] sections, and where they apply. */
enum topo_key_where {
	TOPO_KEY_SW = 1,
	TOPO_KEY_EP = 2,
	TOPO_KEY_ANY = 3,
};

static const struct {
	const char *name;
	uint8_t where;		/* enum topo_key_where */
	uint32_t min, max;	/* numeric keys */
} topo_dev_keys[] = {
	{ "ports", TOPO_KEY_ANY, 1, SIM_MAX_PORTS },
	{ "host", TOPO_KEY_EP, 0, 1 },
	{ "destid", TOPO_KEY_EP, 0, 0xfffe },
	{ "host_destid", TOPO_KEY_EP, 0, 0xfffe },
	{ "vid", TOPO_KEY_ANY, 0, 0xffff },
	{ "did", TOPO_KEY_ANY, 0, 0xffff },
	{ "dev_rev", TOPO_KEY_ANY, 0, UINT32_MAX },
	{ "asm_vid", TOPO_KEY_ANY, 0, 0xffff },
	{ "asm_did", TOPO_KEY_ANY, 0, 0xffff },
	{ "asm_rev", TOPO_KEY_ANY, 0, 0xffff },
	{ "lanes", TOPO_KEY_ANY, 1, 16 },
	{ "rt_limit", TOPO_KEY_SW, 0, 0xffff },
};

/*
 * What the model makes of a device: its port count, and no identity or
 * table keys of another part. @given_ports: the topology's ports, 0 if absent.
 */
static int
topo_apply_model(struct sim_topo_dev *d, uint32_t given_ports, char *err, size_t errlen)
{
	const struct sim_model_info *mi = sim_model_get(d->model);

	if (mi->fixed_ports != 0) {
		if (given_ports != 0 && given_ports != mi->fixed_ports) {
			sim_err(err, errlen, "key ports: %u, but model %s has %u port%s",
				given_ports, mi->name, mi->fixed_ports,
				mi->fixed_ports > 1 ? "s" : "");
			return -EINVAL;
		}
		d->nports = mi->fixed_ports;
	} else if (given_ports != 0) {
		if (given_ports > mi->max_ports || (d->type == SIM_DEV_SWITCH && given_ports < 2)) {
			sim_err(err, errlen, "key ports: %u out of range, model %s has %u..%u ports",
				given_ports, mi->name, d->type == SIM_DEV_SWITCH ? 2 : 1,
				mi->max_ports);
			return -EINVAL;
		}
		d->nports = (uint8_t)given_ports;
	}
	if (d->ids_set && d->model != SIM_MODEL_STD && d->model != SIM_MODEL_GENERIC) {
		sim_err(err, errlen, "keys vid, did and dev_rev: model %s has the part's own",
			mi->name);
		return -EINVAL;
	}
	if (d->rt_limit >= 0 && d->model != SIM_MODEL_STD) {
		sim_err(err, errlen, "key rt_limit: for model std only, not %s", mi->name);
		return -EINVAL;
	}
	if (d->lanes > mi->max_lanes || d->baud > mi->max_baud) {
		sim_err(err, errlen,
			"keys lanes and baud: model %s has ports of up to %u lanes at %s Gbaud",
			mi->name, mi->max_lanes, sim_baud_name(mi->max_baud));
		return -EINVAL;
	}
	return 0;
}

/*
 * The run-wide default models of SIM_MODELS_ENV: @defaults[type] is a model
 * index, or -1 where the variable names none. Returns 0, also when it is
 * unset, or -EINVAL with err naming the variable.
 */
static int
topo_env_models(int defaults[TOPO_DEV_TYPES], char *err, size_t errlen)
{
	const char *env = getenv(SIM_MODELS_ENV);
	char buf[64], *tok, *save = NULL;
	int n = 0, m, type;

	RTE_BUILD_BUG_ON(SIM_DEV_ENDPOINT >= TOPO_DEV_TYPES);
	defaults[SIM_DEV_SWITCH] = -1;
	defaults[SIM_DEV_ENDPOINT] = -1;
	if (env == NULL || env[0] == '\0')
		return 0;
	if (strlcpy(buf, env, sizeof(buf)) >= sizeof(buf)) {
		sim_err(err, errlen, "%s=%.20s...: too long", SIM_MODELS_ENV, env);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		type = SIM_DEV_SWITCH;
		m = sim_model_find(tok, type);
		if (m < 0) {
			type = SIM_DEV_ENDPOINT;
			m = sim_model_find(tok, type);
		}
		if (m < 0 || defaults[type] >= 0 || ++n > 2) {
			sim_err(err, errlen,
				"%s=%s: %s '%s' (<switch model>,<endpoint model>: %s; %s)",
				SIM_MODELS_ENV, env, m < 0 ? "unknown model" : "second model of a kind",
				tok, sim_model_names(SIM_DEV_SWITCH),
				sim_model_names(SIM_DEV_ENDPOINT));
			return -EINVAL;
		}
		defaults[type] = m;
	}
	return 0;
}

/*
 * Give the devices whose topology names no model the default of
 * SIM_MODELS_ENV. A device whose own keys the part cannot have (identity,
 * rt_limit, more ports than the part, faster lanes) keeps std or generic, and
 * the log says why: the topology asked for something the part is not. A
 * switch with fewer ports than the part gets the part's count, as the
 * built-in shapes' model options give it.
 */
static int
topo_default_models(struct sim_topology *t, const char *what, char *err, size_t errlen)
{
	int defaults[TOPO_DEV_TYPES];
	char why[160];
	uint32_t i;
	int rc;

	rc = topo_env_models(defaults, err, errlen);
	if (rc != 0)
		return rc;
	for (i = 0; i < t->n_devs; i++) {
		struct sim_topo_dev *d = &t->devs[i];
		const struct sim_model_info *mi;
		struct sim_topo_dev fit;

		if (d->model_set || defaults[d->type] < 0 || defaults[d->type] == d->model)
			continue;
		fit = *d;
		fit.model = (uint8_t)defaults[d->type];
		mi = sim_model_get(fit.model);
		/* Port count 0: the part's own, when the topology's fits in it. */
		rc = topo_apply_model(&fit, mi->fixed_ports != 0 && d->nports <= mi->fixed_ports ?
				      0 : d->nports, why, sizeof(why));
		if (rc != 0) {
			SIM_LOG(INFO, "%s: %s %s keeps model %s, not %s of %s=%s: %s",
				what, d->type == SIM_DEV_SWITCH ? "switch" : "endpoint", d->name,
				sim_model_get(d->model)->name, mi->name, SIM_MODELS_ENV,
				getenv(SIM_MODELS_ENV), why);
			continue;
		}
		*d = fit;
	}
	return 0;
}

/* Keys of [switch] and [endpoint] sections; the device is already added. */
static int
topo_parse_dev(struct sim_topology *t, const char *path, uint32_t idx,
	       const struct rte_cfgfile_entry *e, int n, char *err, size_t errlen)
{
	struct sim_topo_dev *d = &t->devs[idx];
	const char *kind = d->type == SIM_DEV_SWITCH ? "switch" : "endpoint";
	uint8_t where = d->type == SIM_DEV_SWITCH ? TOPO_KEY_SW : TOPO_KEY_EP;
	uint32_t v, ports = 0;
	char e2[160];
	unsigned int k;
	int i, rc;

	for (i = 0; i < n; i++) {
		const char *key = e[i].name;

		if (strcmp(key, "model") == 0) {
			rc = sim_model_find(e[i].value, d->type);
			if (rc < 0) {
				sim_err(err, errlen,
					"topology %s [%s %s]: key model: unknown %s model '%s' (%s)",
					path, kind, d->name, kind, e[i].value,
					sim_model_names(d->type));
				return -EINVAL;
			}
			d->model = (uint8_t)rc;
			d->model_set = 1;
			continue;
		}
		if (strcmp(key, "baud") == 0) {
			rc = sim_baud_parse(e[i].value);
			if (rc < 0) {
				sim_err(err, errlen,
					"topology %s [%s %s]: key baud: '%s' is not a lane rate (1.25, 2.5, 3.125, 5, 6.25, 10.3125, 12.5)",
					path, kind, d->name, e[i].value);
				return -EINVAL;
			}
			d->baud = (uint8_t)rc;
			continue;
		}
		for (k = 0; k < RTE_DIM(topo_dev_keys); k++)
			if (strcmp(key, topo_dev_keys[k].name) == 0 &&
			    (topo_dev_keys[k].where & where))
				break;
		if (k == RTE_DIM(topo_dev_keys)) {
			sim_err(err, errlen, "topology %s [%s %s]: unknown key '%s'",
				path, kind, d->name, key);
			return -EINVAL;
		}
		rc = topo_parse_u32(e[i].value, topo_dev_keys[k].min, topo_dev_keys[k].max, &v);
		if (rc == 0 && strcmp(key, "lanes") == 0 && !topo_lanes_ok(v))
			rc = -ERANGE;
		if (rc != 0) {
			sim_err(err, errlen, "topology %s [%s %s]: key %s: '%s' is %s (%u..%u)",
				path, kind, d->name, key, e[i].value,
				rc == -ERANGE ? "out of range" : "not a number",
				topo_dev_keys[k].min, topo_dev_keys[k].max);
			return -EINVAL;
		}
		if (strcmp(key, "ports") == 0) {
			ports = v;
		} else if (strcmp(key, "dev_rev") == 0) {
			d->dev_rev = v;
			d->ids_set = 1;
		} else if (strcmp(key, "host") == 0) {
			d->is_host = (uint8_t)v;
		} else if (strcmp(key, "destid") == 0) {
			d->destid = (int32_t)v;
		} else if (strcmp(key, "host_destid") == 0) {
			d->host_destid = (int32_t)v;
		} else if (strcmp(key, "vid") == 0) {
			d->vid = (uint16_t)v;
			d->ids_set = 1;
		} else if (strcmp(key, "did") == 0) {
			d->did = (uint16_t)v;
			d->ids_set = 1;
		} else if (strcmp(key, "asm_vid") == 0) {
			d->asm_vid = (uint16_t)v;
		} else if (strcmp(key, "asm_did") == 0) {
			d->asm_did = (uint16_t)v;
		} else if (strcmp(key, "asm_rev") == 0) {
			d->asm_rev = (uint16_t)v;
		} else if (strcmp(key, "lanes") == 0) {
			d->lanes = (uint8_t)v;
		} else {
			d->rt_limit = (int32_t)v;
		}
	}
	if (d->type == SIM_DEV_SWITCH && ports == 0 && sim_model_get(d->model)->fixed_ports == 0) {
		sim_err(err, errlen, "topology %s [switch %s]: missing ports = 2..%d",
			path, d->name, SIM_MAX_PORTS);
		return -EINVAL;
	}
	rc = topo_apply_model(d, ports, e2, sizeof(e2));
	if (rc != 0) {
		sim_err(err, errlen, "topology %s [%s %s]: %s", path, kind, d->name, e2);
		return rc;
	}
	return 0;
}

/* "name.port" of a link; returns 0 with device index and port. */
static int
topo_parse_end(const struct sim_topology *t, const char *path, const char *s,
	       uint32_t *dev, uint8_t *port, char *err, size_t errlen)
{
	char name[CFG_VALUE_LEN];
	const char *dot;
	uint32_t p;
	int idx;

	dot = strrchr(s, '.');
	if (dot == NULL || dot == s || (size_t)(dot - s) >= sizeof(name)) {
		sim_err(err, errlen, "topology %s [links]: '%s' is not <device>.<port>", path, s);
		return -EINVAL;
	}
	memcpy(name, s, dot - s);
	name[dot - s] = '\0';
	idx = sim_topology_find(t, name);
	if (idx < 0) {
		sim_err(err, errlen, "topology %s [links]: unknown device '%s'", path, name);
		return -ENOENT;
	}
	if (topo_parse_u32(dot + 1, 0, 255, &p) != 0) {
		sim_err(err, errlen, "topology %s [links]: bad port number in '%s'", path, s);
		return -EINVAL;
	}
	if (p >= t->devs[idx].nports) {
		sim_err(err, errlen, "topology %s [links]: port %u of %s out of range (it has %u)",
			path, p, name, t->devs[idx].nports);
		return -ERANGE;
	}
	*dev = (uint32_t)idx;
	*port = (uint8_t)p;
	return 0;
}

int
sim_topology_parse_file(const char *path, struct sim_topology **out,
			char *err, size_t errlen)
{
	struct rte_cfgfile_entry *ents = NULL;
	struct sim_topology *t = NULL;
	struct rte_cfgfile *cfg = NULL;
	char secname[CFG_NAME_LEN];
	bool have_fabric = false;
	int nsec, i, n, pass, rc;
	FILE *fp;

	if (out == NULL)
		return -EINVAL;
	*out = NULL;
	if (path == NULL || path[0] == '\0') {
		sim_err(err, errlen, "no topology file given");
		return -EINVAL;
	}
	fp = topo_open(path, err, errlen, &rc);
	if (fp == NULL)
		return rc;
	cfg = rte_cfgfile_create(0);
	if (cfg == NULL) {
		fclose(fp);
		sim_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = topo_read(fp, path, cfg, err, errlen);
	fclose(fp);
	if (rc != 0)
		goto out;
	t = topo_alloc();
	if (t == NULL) {
		sim_err(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	nsec = rte_cfgfile_num_sections(cfg, NULL, 0);
	/* Pass 0: fabric and devices; pass 1: links (every device known). */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nsec; i++) {
			char type[CFG_NAME_LEN], name[CFG_NAME_LEN], extra[CFG_NAME_LEN];
			int fields;

			n = rte_cfgfile_section_num_entries_by_index(cfg, secname, i);
			if (n < 0) {
				sim_err(err, errlen, "topology %s: cannot read section %d",
					path, i);
				rc = -EINVAL;
				goto out;
			}
			free(ents);
			ents = calloc(n + 1, sizeof(*ents));
			if (ents == NULL) {
				sim_err(err, errlen, "out of memory");
				rc = -ENOMEM;
				goto out;
			}
			n = rte_cfgfile_section_entries_by_index(cfg, i, secname, ents, n);
			fields = sscanf(secname, "%63s %63s %63s", type, name, extra);
			if (fields < 1) {
				sim_err(err, errlen, "topology %s: empty section name", path);
				rc = -EINVAL;
				goto out;
			}
			if (strcmp(type, "links") == 0 && fields == 1) {
				int j;

				if (pass == 0)
					continue;
				for (j = 0; j < n; j++) {
					uint32_t da, db;
					uint8_t pa, pb;

					rc = topo_parse_end(t, path, ents[j].name, &da, &pa,
							    err, errlen);
					if (rc == 0)
						rc = topo_parse_end(t, path, ents[j].value,
								    &db, &pb, err, errlen);
					if (rc == 0)
						rc = topo_add_link(t, da, pa, db, pb, err, errlen);
					if (rc != 0)
						goto out;
				}
				continue;
			}
			if (pass == 1)
				continue;
			if (strcmp(type, "fabric") == 0 && fields == 1) {
				if (have_fabric) {
					sim_err(err, errlen, "topology %s: duplicate [fabric] section",
						path);
					rc = -EINVAL;
					goto out;
				}
				have_fabric = true;
				rc = topo_parse_fabric(t, path, ents, n, err, errlen);
				if (rc != 0)
					goto out;
			} else if ((strcmp(type, "switch") == 0 || strcmp(type, "endpoint") == 0) &&
				   fields == 2) {
				bool sw = type[0] == 's';
				char e2[SIM_NAME_MAX + 128];

				rc = topo_add_dev(t, name, sw ? SIM_DEV_SWITCH : SIM_DEV_ENDPOINT,
						  sw ? 0 : 1, e2, sizeof(e2));
				if (rc < 0) {
					sim_err(err, errlen, "topology %s [%s]: %s", path,
						secname, e2);
					goto out;
				}
				rc = topo_parse_dev(t, path, (uint32_t)rc, ents, n, err, errlen);
				if (rc != 0)
					goto out;
			} else if ((strcmp(type, "switch") == 0 || strcmp(type, "endpoint") == 0) &&
				   fields == 1) {
				sim_err(err, errlen, "topology %s: section [%s] needs a device name",
					path, secname);
				rc = -EINVAL;
				goto out;
			} else {
				sim_err(err, errlen,
					"topology %s: unknown section [%s] (fabric, switch <name>, endpoint <name>, links)",
					path, secname);
				rc = -EINVAL;
				goto out;
			}
		}
	}
	{
		char e2[256], what[256];

		snprintf(what, sizeof(what), "topology %s", path);
		rc = topo_default_models(t, what, err, errlen);
		if (rc != 0)
			goto out;
		rc = topo_validate(t, e2, sizeof(e2));
		if (rc != 0) {
			sim_err(err, errlen, "topology %s: %s", path, e2);
			goto out;
		}
	}
	*out = t;
	t = NULL;
	rc = 0;
out:
	free(ents);
	sim_topology_free(t);
	rte_cfgfile_close(cfg);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Built-in shapes                                                    */

static int
topo_build_default(struct sim_topology *t, char *err, size_t errlen)
{
	int sw, e0, e1;

	t->static_routes = true;
	sw = topo_add_dev(t, "sw0", SIM_DEV_SWITCH, 8, err, errlen);
	e0 = topo_add_dev(t, "ep0", SIM_DEV_ENDPOINT, 1, err, errlen);
	e1 = topo_add_dev(t, "ep1", SIM_DEV_ENDPOINT, 1, err, errlen);
	if (sw < 0 || e0 < 0 || e1 < 0)
		return -ENOMEM;
	t->devs[e0].is_host = 1;
	t->devs[e0].destid = 0;
	t->devs[e1].destid = 1;
	if (topo_add_link(t, sw, 0, e0, 0, err, errlen) != 0 ||
	    topo_add_link(t, sw, 1, e1, 0, err, errlen) != 0)
		return -ENOMEM;
	return 0;
}

static int
topo_build_pair(struct sim_topology *t, char *err, size_t errlen)
{
	int e0, e1;

	t->static_routes = true;
	e0 = topo_add_dev(t, "ep0", SIM_DEV_ENDPOINT, 1, err, errlen);
	e1 = topo_add_dev(t, "ep1", SIM_DEV_ENDPOINT, 1, err, errlen);
	if (e0 < 0 || e1 < 0)
		return -ENOMEM;
	t->devs[e0].is_host = 1;
	t->devs[e0].destid = 0;
	t->devs[e1].destid = 1;
	return topo_add_link(t, e0, 0, e1, 0, err, errlen);
}

static int
topo_build_chain(struct sim_topology *t, uint32_t n, char *err, size_t errlen)
{
	char name[SIM_NAME_MAX];
	int host, prev = -1, sw, ep;
	uint32_t i;

	host = topo_add_dev(t, "ep0", SIM_DEV_ENDPOINT, 1, err, errlen);
	if (host < 0)
		return host;
	t->devs[host].is_host = 1;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "sw%u", i);
		sw = topo_add_dev(t, name, SIM_DEV_SWITCH, 4, err, errlen);
		if (sw < 0)
			return sw;
		snprintf(name, sizeof(name), "ep%u", i + 1);
		ep = topo_add_dev(t, name, SIM_DEV_ENDPOINT, 1, err, errlen);
		if (ep < 0)
			return ep;
		if (topo_add_link(t, sw, 0, prev < 0 ? host : prev, prev < 0 ? 0 : 2,
				  err, errlen) != 0 ||
		    topo_add_link(t, sw, 1, ep, 0, err, errlen) != 0)
			return -ENOMEM;
		prev = sw;
	}
	if (n + 1 > TOPO_AUTO_DEV16)
		t->devid_size = 16;
	return 0;
}

static int
topo_build_tree(struct sim_topology *t, uint32_t fanout, uint32_t levels,
		char *err, size_t errlen)
{
	uint64_t n_sw = 0, n_ep = 1, width = 1;
	uint32_t lvl, i, first, count, next_first, ep_no = 1, sw_no = 0;
	char name[SIM_NAME_MAX];
	int host, root, d;
	uint8_t c;

	for (lvl = 0; lvl < levels; lvl++) {
		n_sw += width;
		width *= fanout;
		if (n_sw + width + 1 > SIM_MAX_DEVICES)
			break;
	}
	n_ep += width;
	if (n_sw + n_ep > SIM_MAX_DEVICES) {
		sim_err(err, errlen, "tree:%u:%u has too many devices (at most %d)",
			fanout, levels, SIM_MAX_DEVICES);
		return -E2BIG;
	}
	if (n_ep - 1 > TOPO_AUTO_DEV16)
		t->devid_size = 16;
	host = topo_add_dev(t, "ep0", SIM_DEV_ENDPOINT, 1, err, errlen);
	root = topo_add_dev(t, "sw0", SIM_DEV_SWITCH, fanout + 1, err, errlen);
	if (host < 0 || root < 0)
		return -ENOMEM;
	sw_no = 1;
	t->devs[host].is_host = 1;
	if (topo_add_link(t, root, 0, host, 0, err, errlen) != 0)
		return -ENOMEM;
	/* Switches of one level are consecutive device indices. */
	first = (uint32_t)root;
	count = 1;
	for (lvl = 1; lvl <= levels; lvl++) {
		bool leaf = lvl == levels;

		next_first = t->n_devs;
		for (i = 0; i < count; i++) {
			for (c = 1; c <= fanout; c++) {
				if (leaf)
					snprintf(name, sizeof(name), "ep%u", ep_no++);
				else
					snprintf(name, sizeof(name), "sw%u", sw_no++);
				d = topo_add_dev(t, name, leaf ? SIM_DEV_ENDPOINT : SIM_DEV_SWITCH,
						 leaf ? 1 : fanout + 1, err, errlen);
				if (d < 0)
					return d;
				if (topo_add_link(t, first + i, c, d, 0, err, errlen) != 0)
					return -ENOMEM;
			}
		}
		first = next_first;
		count *= fanout;
	}
	return 0;
}

static int
topo_build_star(struct sim_topology *t, uint32_t n, char *err, size_t errlen)
{
	uint32_t *level = NULL, *up = NULL;
	uint32_t cnt = n, i, sw_no = 0, nxt;
	char name[SIM_NAME_MAX];
	int d, ret = -ENOMEM;

	if (n > TOPO_AUTO_DEV16)
		t->devid_size = 16;
	level = malloc(sizeof(*level) * n);
	up = malloc(sizeof(*up) * n);
	if (level == NULL || up == NULL) {
		sim_err(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "ep%u", i);
		d = topo_add_dev(t, name, SIM_DEV_ENDPOINT, 1, err, errlen);
		if (d < 0) {
			ret = d;
			goto out;
		}
		level[i] = (uint32_t)d;
	}
	t->devs[level[0]].is_host = 1;
	/* Group 15 children per switch until at most 16 remain for the root. */
	for (;;) {
		bool root = cnt <= 16;
		uint32_t per = root ? 16 : 15;

		nxt = 0;
		for (i = 0; i < cnt; i += per) {
			uint32_t j;

			snprintf(name, sizeof(name), "sw%u", sw_no++);
			d = topo_add_dev(t, name, SIM_DEV_SWITCH, 16, err, errlen);
			if (d < 0) {
				ret = d;
				goto out;
			}
			for (j = 0; j < per && i + j < cnt; j++) {
				uint32_t c = level[i + j];
				uint8_t cport = t->devs[c].type == SIM_DEV_SWITCH ? 15 : 0;

				if (topo_add_link(t, d, j, c, cport, err, errlen) != 0)
					goto out;
			}
			up[nxt++] = (uint32_t)d;
		}
		memcpy(level, up, nxt * sizeof(*level));
		cnt = nxt;
		if (root)
			break;
	}
	ret = 0;
out:
	free(level);
	free(up);
	return ret;
}

/* Give every device of the model's type the model (a fixed port count must fit). */
static int
topo_builtin_model(struct sim_topology *t, uint8_t model, char *err, size_t errlen)
{
	const struct sim_model_info *mi = sim_model_get(model);
	uint32_t i;

	for (i = 0; i < t->n_devs; i++) {
		struct sim_topo_dev *d = &t->devs[i];

		if (d->type != mi->type)
			continue;
		if (mi->fixed_ports != 0 && d->nports > mi->fixed_ports) {
			sim_err(err, errlen, "%s needs %u ports, model %s has %u",
				d->name, d->nports, mi->name, mi->fixed_ports);
			return -EINVAL;
		}
		d->model = model;
		d->model_set = 1;
		if (mi->fixed_ports != 0)
			d->nports = mi->fixed_ports;
	}
	return 0;
}

/*
 * Options after the shape, each after a '/': a switch or endpoint model,
 * seed=<n>, timing=<0|1>, response_timeout=<us>.
 */
static int
topo_builtin_options(struct sim_topology *t, char *opts, char *err, size_t errlen)
{
	char *tok, *save = NULL;
	uint32_t v;
	int m;

	for (tok = strtok_r(opts, "/", &save); tok != NULL; tok = strtok_r(NULL, "/", &save)) {
		m = sim_model_find(tok, SIM_DEV_SWITCH);
		if (m < 0)
			m = sim_model_find(tok, SIM_DEV_ENDPOINT);
		if (m >= 0) {
			if (topo_builtin_model(t, (uint8_t)m, err, errlen) != 0)
				return -EINVAL;
		} else if (strncmp(tok, "seed=", 5) == 0 &&
			   topo_parse_u32(tok + 5, 0, UINT32_MAX, &v) == 0) {
			t->seed = v;
			t->seed_set = true;
		} else if (strncmp(tok, "timing=", 7) == 0 &&
			   topo_parse_u32(tok + 7, 0, 1, &v) == 0) {
			t->timing = v != 0;
		} else if (strncmp(tok, "response_timeout=", 17) == 0 &&
			   topo_parse_u32(tok + 17, 1, 60000000, &v) == 0) {
			t->resp_timeout_us = v;
		} else {
			sim_err(err, errlen,
				"unknown option '%s' (a model: %s, %s; seed=<n>, timing=<0|1>, response_timeout=<us>)",
				tok, sim_model_names(SIM_DEV_SWITCH),
				sim_model_names(SIM_DEV_ENDPOINT));
			return -EINVAL;
		}
	}
	return 0;
}

int
sim_topology_builtin(const char *spec, struct sim_topology **out, char *err, size_t errlen)
{
	struct sim_topology *t;
	char e2[256] = "", buf[128], *opts;
	const char *shape;
	uint32_t a = 0, b = 0;
	char tail;
	int rc;

	if (out == NULL)
		return -EINVAL;
	*out = NULL;
	if (spec == NULL)
		spec = "default";
	if (strlen(spec) >= sizeof(buf)) {
		sim_err(err, errlen, "built-in topology '%.40s...' too long", spec);
		return -EINVAL;
	}
	strlcpy(buf, spec, sizeof(buf));
	opts = strchr(buf, '/');
	if (opts != NULL)
		*opts++ = '\0';
	shape = buf;
	t = topo_alloc();
	if (t == NULL) {
		sim_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (strcmp(shape, "default") == 0) {
		rc = topo_build_default(t, e2, sizeof(e2));
	} else if (strcmp(shape, "pair") == 0) {
		rc = topo_build_pair(t, e2, sizeof(e2));
	} else if (sscanf(shape, "chain:%u%c", &a, &tail) == 1 &&
		   strncmp(shape, "chain:", 6) == 0 && isdigit((unsigned char)shape[6])) {
		if (a < 1 || a > 60) {
			snprintf(e2, sizeof(e2), "chain length %u out of range 1..60", a);
			rc = -ERANGE;
		} else {
			rc = topo_build_chain(t, a, e2, sizeof(e2));
		}
	} else if (sscanf(shape, "tree:%u:%u%c", &a, &b, &tail) == 2 &&
		   isdigit((unsigned char)shape[5])) {
		if (a < 1 || a > SIM_MAX_PORTS - 1 || b < 1 || b > 16) {
			snprintf(e2, sizeof(e2), "tree fanout must be 1..%d and levels 1..16",
				 SIM_MAX_PORTS - 1);
			rc = -ERANGE;
		} else {
			rc = topo_build_tree(t, a, b, e2, sizeof(e2));
		}
	} else if (sscanf(shape, "star:%u%c", &a, &tail) == 1 &&
		   isdigit((unsigned char)shape[5])) {
		if (a < 2 || a > SIM_MAX_DEVICES - SIM_MAX_DEVICES / 14) {
			snprintf(e2, sizeof(e2), "star size %u out of range 2..%d", a,
				 SIM_MAX_DEVICES - SIM_MAX_DEVICES / 14);
			rc = -ERANGE;
		} else {
			rc = topo_build_star(t, a, e2, sizeof(e2));
		}
	} else {
		snprintf(e2, sizeof(e2),
			 "unknown shape (default, pair, chain:<n>, tree:<fanout>:<levels>, star:<n>)");
		rc = -EINVAL;
	}
	if (rc == 0 && opts != NULL)
		rc = topo_builtin_options(t, opts, e2, sizeof(e2));
	if (rc == 0) {
		char what[160];

		snprintf(what, sizeof(what), "built-in topology '%s'", spec);
		rc = topo_default_models(t, what, err, errlen);
		if (rc != 0) {
			sim_topology_free(t);
			return rc;
		}
	}
	if (rc == 0)
		rc = topo_validate(t, e2, sizeof(e2));
	if (rc != 0) {
		sim_err(err, errlen, "built-in topology '%s': %s", spec, e2);
		sim_topology_free(t);
		return rc < 0 ? rc : -EINVAL;
	}
	*out = t;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Hash (FNV-1a, 64 bit) of everything that shapes the built fabric   */

static uint64_t
topo_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t
topo_hash_u32(uint64_t h, uint32_t v)
{
	uint8_t b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

	return topo_hash_bytes(h, b, sizeof(b));
}

uint64_t
sim_topology_hash(const struct sim_topology *topo)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;

	if (topo == NULL)
		return 0;
	h = topo_hash_u32(h, topo->devid_size);
	h = topo_hash_u32(h, topo->mbox_entries);
	h = topo_hash_u32(h, topo->static_routes);
	h = topo_hash_u32(h, topo->seed_set ? topo->seed : 0);
	h = topo_hash_u32(h, topo->seed_set);
	h = topo_hash_u32(h, topo->timing);
	h = topo_hash_u32(h, topo->hop_ns);
	h = topo_hash_u32(h, topo->proc_ns);
	h = topo_hash_u32(h, topo->resp_timeout_us);
	h = topo_hash_u32(h, topo->pw_repeat_us);
	h = topo_hash_u32(h, topo->seg_bufs);
	h = topo_hash_u32(h, ((uint32_t)topo->lanes << 8) | topo->baud);
	h = topo_hash_u32(h, topo->n_devs);
	h = topo_hash_u32(h, topo->n_links);
	for (i = 0; i < topo->n_devs; i++) {
		const struct sim_topo_dev *d = &topo->devs[i];
		char name[SIM_NAME_MAX] = "";

		strlcpy(name, d->name, sizeof(name));
		h = topo_hash_bytes(h, name, sizeof(name));
		h = topo_hash_u32(h, d->type);
		h = topo_hash_u32(h, d->model);
		h = topo_hash_u32(h, d->nports);
		h = topo_hash_u32(h, d->is_host);
		h = topo_hash_u32(h, (uint32_t)d->destid);
		h = topo_hash_u32(h, (uint32_t)d->host_destid);
		h = topo_hash_u32(h, ((uint32_t)d->did << 16) | d->vid);
		h = topo_hash_u32(h, ((uint32_t)d->asm_did << 16) | d->asm_vid);
		h = topo_hash_u32(h, d->dev_rev);
		h = topo_hash_u32(h, d->asm_rev);
		h = topo_hash_u32(h, ((uint32_t)d->lanes << 8) | d->baud);
		h = topo_hash_u32(h, (uint32_t)d->rt_limit);
	}
	for (i = 0; i < topo->n_links; i++) {
		const struct sim_topo_link *l = &topo->links[i];

		h = topo_hash_u32(h, l->dev_a);
		h = topo_hash_u32(h, l->port_a);
		h = topo_hash_u32(h, l->dev_b);
		h = topo_hash_u32(h, l->port_b);
	}
	return h;
}
