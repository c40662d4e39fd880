/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef FABRIC_TOOL_H
#define FABRIC_TOOL_H

/*
 * dpdk-rio-fabric: private interface between the tool's files.
 *
 *   fabric_main.c    command dispatch, option parsing helpers, errors,
 *                    create/list/destroy and the keeper process
 *   fabric_show.c    show, routes and ports in text, JSON and DOT
 *   fabric_access.c  read, write and link (maintenance and fault injection)
 *
 * Every command returns the process exit status: FABTOOL_EXIT_OK, _FAIL or
 * _USAGE, after printing at most one error line (fabtool_fail/_usage).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>

#include <rte_rio.h>
#include <rte_rio_regs.h>

#include "rte_pmd_rio_sim_fabric.h"

#define FABTOOL_PROG		"dpdk-rio-fabric"
/* Version of the JSON documents (doc/guides/tools/fabric.rst). */
#define FABTOOL_JSON_VERSION	2

enum fabtool_exit {
	FABTOOL_EXIT_OK = 0,
	FABTOOL_EXIT_FAIL = 1,	/* the command could not be carried out */
	FABTOOL_EXIT_USAGE = 2,	/* bad command line */
};

enum fabtool_format {
	FABTOOL_FMT_TEXT = 1 << 0,
	FABTOOL_FMT_JSON = 1 << 1,
	FABTOOL_FMT_DOT = 1 << 2,
};

/* A fabric attached for the duration of one command, with every device described. */
struct fabtool_fabric {
	const char *name;
	struct rte_pmd_rio_sim_fabric_stat st;
	uint32_t n_devs;
	struct rte_pmd_rio_sim_dev_info *devs;
};

/* Print "dpdk-rio-fabric: error: <msg>" and return FABTOOL_EXIT_FAIL. */
int fabtool_fail(const char *fmt, ...) __rte_format_printf(1, 2);
/* Same, returning FABTOOL_EXIT_USAGE. */
int fabtool_usage(const char *fmt, ...) __rte_format_printf(1, 2);

/*
 * Parse the options of a command. @opts: getopt_long table ending with a zero
 * entry (--help is handled here: prints @help, *done set). Positional
 * arguments are returned in pos[], at most @max_pos; at least @min_pos.
 * @on_opt is called for every other option. Returns an exit status or -1 to go on.
 */
struct option;
typedef int (*fabtool_opt_cb)(int opt, const char *arg, void *ctx);
int fabtool_getopt(int argc, char **argv, const struct option *opts, const char *help,
		   unsigned int min_pos, unsigned int max_pos, char **pos, unsigned int *n_pos,
		   fabtool_opt_cb on_opt, void *ctx);

/* Parse a number (decimal, 0x hex, 0 octal) no larger than @max; usage error if bad. */
int fabtool_parse_u32(const char *what, const char *s, uint32_t max, uint32_t *out);
/* Parse --format among the formats of @allowed. */
int fabtool_parse_format(const char *s, unsigned int allowed, enum fabtool_format *out);

/* Commands whose only option is --format: fabtool_getopt() context and callback. */
struct fabtool_fmt_ctx {
	unsigned int allowed;	/* enum fabtool_format bits */
	enum fabtool_format fmt;	/* chosen, preset to the default */
};
int fabtool_fmt_opt(int opt, const char *arg, void *ctx);

/* Attach to fabric @name and describe all its devices; prints the error. */
int fabtool_open(const char *name, struct fabtool_fabric *fab);
void fabtool_close(struct fabtool_fabric *fab);
/* Index of device @dev (name or #index); prints the error and returns -1 if unknown. */
int fabtool_find_dev(const struct fabtool_fabric *fab, const char *dev);
/* Device ID of an endpoint, or -1 when its Base Device ID is unset (all ones). */
int32_t fabtool_destid(const struct fabtool_fabric *fab, const struct rte_pmd_rio_sim_dev_info *d);

/* JSON string (the names here are plain, but escape anyway). */
void fabtool_json_str(FILE *out, const char *s);

int fabtool_cmd_show(int argc, char **argv);
int fabtool_cmd_routes(int argc, char **argv);
int fabtool_cmd_ports(int argc, char **argv);
int fabtool_cmd_read(int argc, char **argv);
int fabtool_cmd_write(int argc, char **argv);
int fabtool_cmd_link(int argc, char **argv);

#endif /* FABRIC_TOOL_H */
