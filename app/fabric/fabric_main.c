/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dpdk-rio-fabric: create, inspect and operate emulated RapidIO fabrics.
 *
 * The tool needs no EAL: the rio_sim fabric API works on POSIX shared memory
 * and the driver's log goes nowhere unless --verbose is given. A fabric lives
 * while a process is attached to it, so `create` leaves a keeper process
 * attached until `destroy` removes the fabric (or the keeper is killed).
 */

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_log.h>
#include <rte_string_fns.h>

#include "fabric_tool.h"

#define FABTOOL_KEEPER_POLL_MS	100
#define FABTOOL_ERR_LEN		256

static const char fabtool_main_help[] =
	"Usage: " FABTOOL_PROG " [--verbose] <command> [options]\n"
	"\n"
	"Commands:\n"
	"  create <fabric> [--topology <path|builtin:shape>]\n"
	"  list [--format text|json]\n"
	"  dir\n"
	"  destroy <fabric>\n"
	"  show <fabric> [--format text|json|dot]\n"
	"  read <fabric> <device> <offset> [--size 8|16|32] [--via <endpoint> [--destid N] [--hop N]]\n"
	"  write <fabric> <device> <offset> <value> [--size 8|16|32] [--via <endpoint> ...]\n"
	"  routes <fabric> <switch> [--format text|json]\n"
	"  ports <fabric> <device> [--format text|json]\n"
	"  link <fabric> <device> <port> up|down\n"
	"\n"
	"'" FABTOOL_PROG " <command> --help' describes a command.\n"
	"Exit status: 0 success, 1 the command failed, 2 bad command line.\n";

/* ------------------------------------------------------------------ */
/* Errors and option helpers                                          */

static int
fabtool_verror(int status, const char *fmt, va_list ap)
{
	fputs(FABTOOL_PROG ": error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return status;
}

int
fabtool_fail(const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = fabtool_verror(FABTOOL_EXIT_FAIL, fmt, ap);
	va_end(ap);
	return rc;
}

int
fabtool_usage(const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = fabtool_verror(FABTOOL_EXIT_USAGE, fmt, ap);
	va_end(ap);
	return rc;
}

int
fabtool_getopt(int argc, char **argv, const struct option *opts, const char *help,
	       unsigned int min_pos, unsigned int max_pos, char **pos, unsigned int *n_pos,
	       fabtool_opt_cb on_opt, void *ctx)
{
	char shortopts[64] = ":";
	unsigned int i, n = 0;
	int c, idx, rc;

	/* Short options: those whose val is a lower-case letter. */
	for (i = 0, n = 1; opts[i].name != NULL && n + 3 < sizeof(shortopts); i++) {
		if (opts[i].val < 'a' || opts[i].val > 'z')
			continue;
		shortopts[n++] = (char)opts[i].val;
		if (opts[i].has_arg == required_argument)
			shortopts[n++] = ':';
	}
	shortopts[n] = '\0';
	n = 0;
	optind = 1;
	opterr = 0;
	for (;;) {
		idx = -1;
		c = getopt_long(argc, argv, shortopts, opts, &idx);
		if (c == -1)
			break;
		if (c == '?') {
			if (optopt != 0 && optopt < 128 && argv[optind - 1][1] != '-')
				return fabtool_usage("%s: unknown option '-%c'", argv[0], optopt);
			return fabtool_usage("%s: unknown option '%s'", argv[0], argv[optind - 1]);
		}
		if (c == ':')
			return fabtool_usage("%s: option '%s' needs a value", argv[0],
					     argv[optind - 1]);
		if (c == 'h') {
			fputs(help, stdout);
			return FABTOOL_EXIT_OK;
		}
		rc = on_opt != NULL ? on_opt(c, optarg, ctx) : -1;
		if (rc >= 0)
			return rc;
	}
	for (i = (unsigned int)optind; i < (unsigned int)argc; i++) {
		if (n == max_pos)
			return fabtool_usage("%s: unexpected argument '%s'", argv[0], argv[i]);
		pos[n++] = argv[i];
	}
	if (n < min_pos)
		return fabtool_usage("%s: missing arguments (see '" FABTOOL_PROG " %s --help')",
				     argv[0], argv[0]);
	*n_pos = n;
	return -1;
}

int
fabtool_parse_u32(const char *what, const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (s[0] == '\0' || s[0] == '-' || s[0] == '+' || s[0] == ' ')
		return fabtool_usage("bad %s '%s': not a number", what, s);
	v = strtoull(s, &end, 0);
	if (*end != '\0')
		return fabtool_usage("bad %s '%s': not a number", what, s);
	if (errno != 0 || v > max)
		return fabtool_usage("bad %s '%s': larger than %#x", what, s, max);
	*out = (uint32_t)v;
	return -1;
}

int
fabtool_parse_format(const char *s, unsigned int allowed, enum fabtool_format *out)
{
	static const struct {
		const char *name;
		enum fabtool_format fmt;
	} fmts[] = {
		{ "text", FABTOOL_FMT_TEXT },
		{ "json", FABTOOL_FMT_JSON },
		{ "dot", FABTOOL_FMT_DOT },
	};
	char list[32] = "";
	unsigned int i;

	for (i = 0; i < RTE_DIM(fmts); i++) {
		if (!(allowed & fmts[i].fmt))
			continue;
		if (strcmp(s, fmts[i].name) == 0) {
			*out = fmts[i].fmt;
			return -1;
		}
		if (list[0] != '\0')
			strlcat(list, "|", sizeof(list));
		strlcat(list, fmts[i].name, sizeof(list));
	}
	return fabtool_usage("bad format '%s': expected %s", s, list);
}

void
fabtool_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* ------------------------------------------------------------------ */
/* Opening a fabric                                                   */

int
fabtool_open(const char *name, struct fabtool_fabric *fab)
{
	char err[FABTOOL_ERR_LEN] = "";
	uint32_t i;
	int rc;

	memset(fab, 0, sizeof(*fab));
	fab->name = name;
	/* stat first: reports a missing or unreadable fabric without attaching to it. */
	rc = rte_pmd_rio_sim_fabric_stat(name, &fab->st, err, sizeof(err));
	if (rc != 0)
		return fabtool_fail("%s", err);
	/* The driver refuses another uid's fabric: say so as a permission error. */
	if (fab->st.owner_uid != (uint32_t)geteuid() || fab->st.creator_uid != (uint32_t)geteuid())
		return fabtool_fail("fabric %s: permission denied (owned by uid %u, created by uid %u, "
				    "we are uid %u)", name, fab->st.owner_uid, fab->st.creator_uid,
				    (unsigned int)geteuid());
	rc = rte_pmd_rio_sim_fabric_attach(name, NULL, err, sizeof(err));
	if (rc != 0) {
		if (rc == -EACCES)
			return fabtool_fail("fabric %s: permission denied", name);
		return fabtool_fail("%s", err[0] != '\0' ? err : strerror(-rc));
	}
	rc = rte_pmd_rio_sim_fabric_dev_count(name);
	if (rc <= 0) {
		rte_pmd_rio_sim_fabric_detach(name);
		return fabtool_fail("fabric %s: cannot count its devices", name);
	}
	fab->n_devs = (uint32_t)rc;
	fab->devs = calloc(fab->n_devs, sizeof(*fab->devs));
	if (fab->devs == NULL) {
		rte_pmd_rio_sim_fabric_detach(name);
		return fabtool_fail("out of memory for %u devices", fab->n_devs);
	}
	for (i = 0; i < fab->n_devs; i++) {
		rc = rte_pmd_rio_sim_fabric_dev_info(name, i, &fab->devs[i]);
		if (rc != 0) {
			fabtool_close(fab);
			return fabtool_fail("fabric %s: cannot describe device #%u: %s", name, i,
					    strerror(-rc));
		}
	}
	return -1;
}

void
fabtool_close(struct fabtool_fabric *fab)
{
	if (fab->name == NULL)
		return;
	free(fab->devs);
	fab->devs = NULL;
	rte_pmd_rio_sim_fabric_detach(fab->name);
	fab->name = NULL;
}

int
fabtool_find_dev(const struct fabtool_fabric *fab, const char *dev)
{
	int idx = rte_pmd_rio_sim_fabric_dev_find(fab->name, dev);

	if (idx < 0 || (uint32_t)idx >= fab->n_devs) {
		fabtool_fail("fabric %s has no device '%s'", fab->name, dev);
		return -1;
	}
	return idx;
}

int32_t
fabtool_destid(const struct fabtool_fabric *fab, const struct rte_pmd_rio_sim_dev_info *d)
{
	uint32_t id;

	if (d->type != RTE_PMD_RIO_SIM_DEV_ENDPOINT)
		return -1;
	id = RTE_RIO_GET_DID(fab->st.devid_size, d->base_devid);
	return id == (uint32_t)RTE_RIO_ANY_DESTID(fab->st.devid_size) ? -1 : (int32_t)id;
}

/* ------------------------------------------------------------------ */
/* create and its keeper                                              */

static const char fabtool_create_help[] =
	"Usage: " FABTOOL_PROG " create <fabric> [--topology <path|builtin:shape>]\n"
	"\n"
	"Create fabric <fabric> (1 to 31 characters of [A-Za-z0-9_-]) from a topology file\n"
	"or a built-in shape: builtin:default, builtin:pair, builtin:chain:N,\n"
	"builtin:tree:F:L, builtin:star:N (default: builtin:default). A keeper process\n"
	"stays attached to the fabric until 'destroy' removes it; its pid is printed.\n";

struct fabtool_create_res {
	int rc;
	int32_t keeper_pid;
	char err[FABTOOL_ERR_LEN];
};

static volatile sig_atomic_t fabtool_keeper_stop;

static void
fabtool_keeper_signal(int sig)
{
	RTE_SET_USED(sig);
	fabtool_keeper_stop = 1;
}

/*
 * Keeper: holds the fabric until it is destroyed (its segment is gone or
 * belongs to another creator) or until SIGTERM/SIGINT, then detaches; the
 * driver removes the fabric when that leaves no live process attached.
 */
static void
fabtool_keeper_loop(const char *name)
{
	const struct timespec ts = {
		.tv_sec = 0,
		.tv_nsec = FABTOOL_KEEPER_POLL_MS * 1000000L,
	};
	struct rte_pmd_rio_sim_fabric_stat st;

	while (!fabtool_keeper_stop) {
		nanosleep(&ts, NULL);
		if (rte_pmd_rio_sim_fabric_stat(name, &st, NULL, 0) != 0 ||
		    st.creator_pid != (int32_t)getpid())
			break;
	}
	rte_pmd_rio_sim_fabric_detach(name);
}

/* Child side of create: build the fabric, report to the parent, keep it. */
static void __rte_noreturn
fabtool_keeper(const char *name, const char *topology, int fd)
{
	struct fabtool_create_res res;
	struct sigaction sa;
	int devnull;

	memset(&res, 0, sizeof(res));
	setsid();
	/* From here on a signal must end in a detach, never leave the fabric orphaned. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fabtool_keeper_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);	/* a parent gone is a failed write(), handled below */
	res.rc = rte_pmd_rio_sim_fabric_create(name, topology, res.err, sizeof(res.err));
	/* Keep no directory of the caller busy (the topology path is read by now). */
	if (res.rc == 0 && chdir("/") != 0) {
		res.rc = -errno;
		snprintf(res.err, sizeof(res.err), "keeper of fabric %s: chdir /: %s", name,
			 strerror(errno));
		rte_pmd_rio_sim_fabric_destroy(name);
	}
	/* Let nothing of the caller's stay open: a test harness waits for its pipes. */
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
		if (devnull > STDERR_FILENO)
			close(devnull);
	}
	res.keeper_pid = (int32_t)getpid();
	if (write(fd, &res, sizeof(res)) != (ssize_t)sizeof(res)) {
		/* The parent is gone: nobody knows the fabric exists. */
		if (res.rc == 0)
			rte_pmd_rio_sim_fabric_destroy(name);
		_exit(1);
	}
	close(fd);
	if (res.rc != 0)
		_exit(1);
	fabtool_keeper_loop(name);
	_exit(0);
}

static int
fabtool_create_opt(int opt, const char *arg, void *ctx)
{
	const char **topology = ctx;

	if (opt == 't')
		*topology = arg;
	return -1;
}

static int
fabtool_cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fabtool_create_res res;
	const char *topology = NULL;
	char *pos[1];
	unsigned int n;
	ssize_t got;
	int fds[2], rc, status;
	pid_t pid;

	rc = fabtool_getopt(argc, argv, opts, fabtool_create_help, 1, 1, pos, &n,
			    fabtool_create_opt, &topology);
	if (rc >= 0)
		return rc;
	if (rte_pmd_rio_sim_fabric_exists(pos[0]))
		return fabtool_fail("fabric %s already exists", pos[0]);
	if (pipe(fds) != 0)
		return fabtool_fail("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return fabtool_fail("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* Grandchild keeper: the first child exits so that nobody must reap it. */
		close(fds[0]);
		pid = fork();
		if (pid < 0)
			_exit(1);
		if (pid > 0)
			_exit(0);
		fabtool_keeper(pos[0], topology, fds[1]);
	}
	close(fds[1]);
	waitpid(pid, &status, 0);
	memset(&res, 0, sizeof(res));
	do {
		got = read(fds[0], &res, sizeof(res));
	} while (got < 0 && errno == EINTR);
	close(fds[0]);
	if (got != (ssize_t)sizeof(res))
		return fabtool_fail("fabric %s: the keeper process died before reporting",
				    pos[0]);
	if (res.rc != 0)
		return fabtool_fail("%s", res.err[0] != '\0' ? res.err : strerror(-res.rc));
	printf("fabric %s created, keeper pid %d\n", pos[0], (int)res.keeper_pid);
	return FABTOOL_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* list and destroy                                                   */

static const char fabtool_list_help[] =
	"Usage: " FABTOOL_PROG " list [--format text|json]\n"
	"\n"
	"List this user's fabrics (see '" FABTOOL_PROG " dir'): devices, device ID size\n"
	"and the processes attached. Does not attach to them.\n";

int
fabtool_fmt_opt(int opt, const char *arg, void *ctx)
{
	struct fabtool_fmt_ctx *f = ctx;

	if (opt == 'f')
		return fabtool_parse_format(arg, f->allowed, &f->fmt);
	return -1;
}

static void
fabtool_list_json(const char (*names)[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], unsigned int n)
{
	struct rte_pmd_rio_sim_fabric_stat st;
	char err[FABTOOL_ERR_LEN];
	unsigned int i, j;

	printf("{\n  \"format_version\": %d,\n  \"fabrics\": [", FABTOOL_JSON_VERSION);
	for (i = 0; i < n; i++) {
		printf("%s\n    {\"name\": ", i > 0 ? "," : "");
		fabtool_json_str(stdout, names[i]);
		if (rte_pmd_rio_sim_fabric_stat(names[i], &st, err, sizeof(err)) != 0) {
			printf(", \"error\": ");
			fabtool_json_str(stdout, err);
			printf("}");
			continue;
		}
		printf(", \"ready\": %s, \"devices\": %u, \"endpoints\": %u, \"switches\": %u, "
		       "\"devid_size\": %u, \"owner_uid\": %u, \"creator_pid\": %d, "
		       "\"attached_pids\": [",
		       st.ready ? "true" : "false", st.n_devices, st.n_endpoints, st.n_switches,
		       st.devid_size, st.owner_uid, st.creator_pid);
		for (j = 0; j < st.n_attached; j++)
			printf("%s%d", j > 0 ? ", " : "", st.attached[j]);
		printf("]}");
	}
	printf("%s]\n}\n", n > 0 ? "\n  " : "");
}

static void
fabtool_list_text(const char (*names)[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN], unsigned int n)
{
	struct rte_pmd_rio_sim_fabric_stat st;
	char err[FABTOOL_ERR_LEN];
	unsigned int i, j;

	printf("%-31s %7s %9s %8s %6s  %s\n", "FABRIC", "DEVICES", "ENDPOINTS", "SWITCHES",
	       "DEVID", "ATTACHED");
	for (i = 0; i < n; i++) {
		if (rte_pmd_rio_sim_fabric_stat(names[i], &st, err, sizeof(err)) != 0) {
			printf("%-31s (%s)\n", names[i], err);
			continue;
		}
		printf("%-31s %7u %9u %8u %6u  ", names[i], st.n_devices, st.n_endpoints,
		       st.n_switches, st.devid_size);
		if (st.n_attached == 0)
			printf("none");
		for (j = 0; j < st.n_attached; j++)
			printf("%s%d%s", j > 0 ? "," : "", st.attached[j],
			       st.attached[j] == st.creator_pid ? "(creator)" : "");
		printf("%s\n", st.ready ? "" : " (being built)");
	}
}

static int
fabtool_cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fabtool_fmt_ctx f = {
		.allowed = FABTOOL_FMT_TEXT | FABTOOL_FMT_JSON,
		.fmt = FABTOOL_FMT_TEXT,
	};
	char (*names)[RTE_PMD_RIO_SIM_FABRIC_NAME_LEN] = NULL;
	unsigned int n_pos;
	int rc, n;

	rc = fabtool_getopt(argc, argv, opts, fabtool_list_help, 0, 0, NULL, &n_pos,
			    fabtool_fmt_opt, &f);
	if (rc >= 0)
		return rc;
	n = rte_pmd_rio_sim_fabric_list(NULL, 0);
	if (n < 0)
		return fabtool_fail("cannot list the fabrics: %s", strerror(-n));
	if (n > 0) {
		names = calloc((size_t)n, sizeof(*names));
		if (names == NULL)
			return fabtool_fail("out of memory");
		/* Fabrics created meanwhile are left out, removed ones print an error. */
		n = RTE_MIN(n, rte_pmd_rio_sim_fabric_list(names, (unsigned int)n));
		n = RTE_MAX(n, 0);
	}
	if (f.fmt == FABTOOL_FMT_JSON)
		fabtool_list_json((const void *)names, (unsigned int)n);
	else
		fabtool_list_text((const void *)names, (unsigned int)n);
	free(names);
	return FABTOOL_EXIT_OK;
}

static const char fabtool_dir_help[] =
	"Usage: " FABTOOL_PROG " dir\n"
	"\n"
	"Print the directory of this user's fabrics: $XDG_RUNTIME_DIR/rio_sim when the\n"
	"login session provides one, else /dev/shm/rio_sim-<uid>. Fabric <name> is the\n"
	"object rio_sim.<name> in it, with rio_sim.<name>.ep<N> for its endpoints.\n";

static int
fabtool_cmd_dir(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char dir[PATH_MAX];
	unsigned int n;
	int rc;

	rc = fabtool_getopt(argc, argv, opts, fabtool_dir_help, 0, 0, NULL, &n, NULL, NULL);
	if (rc >= 0)
		return rc;
	rc = rte_pmd_rio_sim_fabric_dir(dir, sizeof(dir));
	if (rc != 0)
		return fabtool_fail("%s", strerror(-rc));
	printf("%s\n", dir);
	return FABTOOL_EXIT_OK;
}

static const char fabtool_destroy_help[] =
	"Usage: " FABTOOL_PROG " destroy <fabric>\n"
	"\n"
	"Remove every shared-memory object of <fabric> now, whoever uses it; its\n"
	"keeper process notices and exits. Processes that map it keep their mapping.\n";

static int
fabtool_cmd_destroy(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rte_pmd_rio_sim_fabric_stat st;
	char err[FABTOOL_ERR_LEN];
	char *pos[1];
	unsigned int n;
	int rc;

	rc = fabtool_getopt(argc, argv, opts, fabtool_destroy_help, 1, 1, pos, &n, NULL, NULL);
	if (rc >= 0)
		return rc;
	rc = rte_pmd_rio_sim_fabric_stat(pos[0], &st, err, sizeof(err));
	/* A half-built or foreign-layout fabric can still be removed. */
	if (rc != 0 && rc != -EPROTO)
		return fabtool_fail("%s", err);
	if (rc == 0 && st.owner_uid != (uint32_t)geteuid())
		return fabtool_fail("fabric %s: permission denied (owned by uid %u, we are uid %u)",
				    pos[0], st.owner_uid, (unsigned int)geteuid());
	rc = rte_pmd_rio_sim_fabric_destroy(pos[0]);
	if (rc == -ENOENT)
		return fabtool_fail("fabric %s does not exist", pos[0]);
	if (rc != 0)
		return fabtool_fail("fabric %s: %s", pos[0], strerror(-rc));
	if (rte_pmd_rio_sim_fabric_exists(pos[0]))
		return fabtool_fail("fabric %s: permission denied (cannot remove it)", pos[0]);
	return FABTOOL_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                           */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} fabtool_cmds[] = {
	{ "create", fabtool_cmd_create },
	{ "list", fabtool_cmd_list },
	{ "dir", fabtool_cmd_dir },
	{ "destroy", fabtool_cmd_destroy },
	{ "show", fabtool_cmd_show },
	{ "read", fabtool_cmd_read },
	{ "write", fabtool_cmd_write },
	{ "routes", fabtool_cmd_routes },
	{ "ports", fabtool_cmd_ports },
	{ "link", fabtool_cmd_link },
};

int
main(int argc, char **argv)
{
	bool verbose = false;
	unsigned int i;
	int arg = 1;

	if (arg < argc && (strcmp(argv[arg], "--verbose") == 0 || strcmp(argv[arg], "-v") == 0)) {
		verbose = true;
		arg++;
	}
	/* The driver logs through rte_log; the tool prints its own one-line errors. */
	if (!verbose)
		rte_log_set_global_level(0);
	if (arg >= argc)
		return fabtool_usage("no command (see '" FABTOOL_PROG " --help')");
	if (strcmp(argv[arg], "--help") == 0 || strcmp(argv[arg], "-h") == 0 ||
	    strcmp(argv[arg], "help") == 0) {
		fputs(fabtool_main_help, stdout);
		return FABTOOL_EXIT_OK;
	}
	for (i = 0; i < RTE_DIM(fabtool_cmds); i++)
		if (strcmp(argv[arg], fabtool_cmds[i].name) == 0)
			return fabtool_cmds[i].fn(argc - arg, argv + arg);
	if (argv[arg][0] == '-')
		return fabtool_usage("unknown option '%s' (see '" FABTOOL_PROG " --help')",
				     argv[arg]);
	return fabtool_usage("unknown command '%s' (see '" FABTOOL_PROG " --help')", argv[arg]);
}
