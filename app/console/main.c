/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dpdk-rio-console: a testpmd-style prompt to operate a RapidIO fabric.
 *
 *   dpdk-rio-console <EAL args> --vdev rio_sim0,... -- [-i] [--cmdfile F] [--mport M]
 */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_socket.h>
#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_rio.h>

#include "console.h"

unsigned int con_cur;
bool con_failed;
volatile bool con_quit;

/*
 * SIGINT/SIGTERM: stop the current command and leave through the normal
 * teardown (the fabric's shared memory is released). The handler is
 * installed without SA_RESTART so that a blocking read of the command line
 * returns.
 */
static void
con_signal(int sig)
{
	RTE_SET_USED(sig);
	con_quit = true;
}

static void
con_signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = con_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void
con_err(const char *fmt, ...)
{
	va_list ap;

	printf("error: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	con_failed = true;
}

static void
con_usage(const char *prog)
{
	printf("usage: %s <EAL args> -- [-i|--interactive] [--cmdfile <path>] [--mport <name>]\n"
	       "  -i, --interactive  prompt (default when stdin is a terminal)\n"
	       "  --cmdfile <path>   run the commands of a file, then exit unless -i\n"
	       "  --mport <name>     current mport (default: the first one)\n"
	       "Without -i and --cmdfile, and stdin not a terminal, commands are read\n"
	       "from stdin. The exit status is 1 when a command failed.\n", prog);
}

/*
 * Run the commands of a stream, echoing each one after the prompt as
 * testpmd does; a command that does not parse counts as failed.
 */
/* Longest line read, newline included (the buffer adds room for the NUL). */
#define CON_LINE_MAX	4096

static void
con_run_stream(struct cmdline *cl, FILE *f)
{
	char line[CON_LINE_MAX + 1];
	size_t n;
	char c0;
	int ret;

	while (!con_quit && fgets(line, CON_LINE_MAX, f) != NULL) {
		n = strlen(line);
		if (n > 0 && line[n - 1] != '\n' && !feof(f)) {
			int c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			printf(CON_PROMPT "%.40s...\n", line);
			con_err("command longer than %d characters", CON_LINE_MAX - 2);
			continue;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		printf(CON_PROMPT "%s\n", line);
		c0 = line[strspn(line, " \t")];
		if (c0 == '\0' || c0 == '#') {
			fflush(stdout);
			continue;
		}
		strcat(line, "\n");
		fflush(stdout);
		ret = cmdline_parse(cl, line);
		line[n] = '\0';
		if (ret == CMDLINE_PARSE_AMBIGUOUS)
			con_err("ambiguous command '%s'", line);
		else if (ret == CMDLINE_PARSE_NOMATCH)
			con_err("unknown command or bad arguments: '%s' (see 'help')", line);
		else if (ret == CMDLINE_PARSE_BAD_ARGS)
			con_err("bad arguments: '%s' (see 'help')", line);
		fflush(stdout);
	}
}

static int
con_run_file(const char *path)
{
	struct cmdline *cl;
	FILE *f;

	f = path != NULL ? fopen(path, "r") : stdin;
	if (f == NULL) {
		con_err("cannot open command file %s: %s", path, strerror(errno));
		return -1;
	}
	/* No input fd: the prompt is printed by con_run_stream with each command. */
	cl = cmdline_new(con_main_ctx, "", -1, STDOUT_FILENO);
	if (cl == NULL) {
		con_err("cannot create the command line");
		if (path != NULL)
			fclose(f);
		return -1;
	}
	con_run_stream(cl, f);
	cmdline_free(cl);
	if (path != NULL)
		fclose(f);
	return 0;
}

static void
con_run_interactive(void)
{
	struct cmdline *cl;

	cl = cmdline_stdin_new(con_main_ctx, CON_PROMPT);
	if (cl == NULL) {
		con_err("cannot create the command line");
		return;
	}
	cmdline_interact(cl);
	cmdline_stdin_exit(cl);
}

/* Remove the devices so that every fabric shared-memory object is released. */
static void
con_teardown(void)
{
	char names[RTE_RIO_MAX_MPORTS][RTE_RIO_NAME_MAX_LEN];
	unsigned int i, n = 0;

	for (i = 0; i < con_nb_ports; i++)
		snprintf(names[n++], RTE_RIO_NAME_MAX_LEN, "%s", con_ports[i].name);
	con_ports_fini();
	for (i = 0; i < n; i++)
		rte_vdev_uninit(names[i]);
}

int
main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "interactive", no_argument, NULL, 'i' },
		{ "cmdfile", required_argument, NULL, 'f' },
		{ "mport", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmdfile = NULL, *mport = NULL;
	bool interactive = false;
	struct con_port *p;
	int ret, opt;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "error: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	ret = 0;
	while ((opt = getopt_long(argc, argv, "ih", lopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			interactive = true;
			break;
		case 'f':
			cmdfile = optarg;
			break;
		case 'm':
			mport = optarg;
			break;
		case 'h':
			con_usage(argv[0]);
			goto out;
		default:
			con_usage(argv[0]);
			ret = 1;
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\n", argv[optind]);
		ret = 1;
		goto out;
	}
	if (con_ports_init() != 0) {
		fprintf(stderr,
			"error: no RapidIO mport: give one with --vdev rio_sim0,fabric=<name>\n");
		ret = 1;
		goto out;
	}
	if (mport != NULL) {
		p = con_port_find(mport);
		if (p == NULL) {
			fprintf(stderr, "error: unknown mport '%s'\n", mport);
			ret = 1;
			goto out;
		}
		con_cur = p - con_ports;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	con_signals_init();
	if (cmdfile == NULL && !interactive && !isatty(STDIN_FILENO)) {
		con_run_file(NULL);
	} else {
		if (cmdfile == NULL)
			interactive = true;
		if (cmdfile != NULL)
			con_run_file(cmdfile);
	}
	/* Only scripted commands decide the exit status. */
	ret = con_failed ? 1 : 0;
	if (interactive && !con_quit)
		con_run_interactive();
out:
	con_teardown();
	rte_eal_cleanup();
	return ret;
}
