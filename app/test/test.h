/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_TEST_H
#define RIO_TEST_H

/*
 * dpdk-rio-test: autotests in the style of DPDK's dpdk-test.
 *
 * A test is a function returning TEST_SUCCESS, TEST_FAILED or TEST_SKIPPED,
 * registered under a name with REGISTER_TEST_COMMAND(name, func). Run with
 * `dpdk-rio-test <EAL args> -- name...` or `DPDK_TEST=name dpdk-rio-test <EAL args>`.
 * Tests grouped in a struct unit_test_suite run with unit_test_suite_runner().
 *
 * Multi-process tests re-execute the test binary as a child with
 * rio_test_spawn(); the child runs the function registered with
 * REGISTER_TEST_CHILD(name, func) and must finish before its timeout.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <rte_common.h>

#define TEST_SUCCESS	0
#define TEST_FAILED	(-1)
#define TEST_SKIPPED	77

#define TEST_TRACE_FAILURE(file, line, func) \
	printf("  failure at %s:%d (%s)\n", file, line, func)

#define TEST_ASSERT(cond, msg, ...) do { \
	if (!(cond)) { \
		printf("TestCase %s() line %d failed: " msg "\n", \
		       __func__, __LINE__, ##__VA_ARGS__); \
		TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_EQUAL(a, b, msg, ...) do { \
	if (!((a) == (b))) { \
		printf("TestCase %s() line %d failed: " msg \
		       " (%lld != %lld)\n", __func__, __LINE__, ##__VA_ARGS__, \
		       (long long)(a), (long long)(b)); \
		TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) do { \
	if (!((a) != (b))) { \
		printf("TestCase %s() line %d failed: " msg "\n", \
		       __func__, __LINE__, ##__VA_ARGS__); \
		TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_SUCCESS(val, msg, ...) do { \
	typeof(val) _val = (val); \
	if (!(_val == 0)) { \
		printf("TestCase %s() line %d failed (err %d): " msg "\n", \
		       __func__, __LINE__, (int)_val, ##__VA_ARGS__); \
		TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_FAIL(val, msg, ...) do { \
	if (!((val) != 0)) { \
		printf("TestCase %s() line %d failed: " msg "\n", \
		       __func__, __LINE__, ##__VA_ARGS__); \
		TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_NULL(val, msg, ...) TEST_ASSERT((val) == NULL, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_NULL(val, msg, ...) TEST_ASSERT((val) != NULL, msg, ##__VA_ARGS__)

struct unit_test_case {
	int (*setup)(void);
	void (*teardown)(void);
	int (*testcase)(void);
	const char *name;
	int enabled;
};

#define TEST_CASE(fn) { NULL, NULL, fn, #fn, 1 }
#define TEST_CASE_NAMED(name, fn) { NULL, NULL, fn, name, 1 }
#define TEST_CASE_ST(setup, teardown, fn) { setup, teardown, fn, #fn, 1 }
#define TEST_CASES_END() { NULL, NULL, NULL, NULL, 0 }

struct unit_test_suite {
	const char *suite_name;
	int (*setup)(void);
	void (*teardown)(void);
	unsigned int total;
	unsigned int executed;
	unsigned int succeeded;
	unsigned int failed;
	unsigned int skipped;
	struct unit_test_case unit_test_cases[];
};

/* Runs every case; returns TEST_SUCCESS, TEST_FAILED, or TEST_SKIPPED if all skipped. */
int unit_test_suite_runner(struct unit_test_suite *suite);

typedef int (cmd_func_t)(void);

struct test_command {
	const char *command;
	cmd_func_t *callback;
	struct test_command *next;
};

void add_test_command(struct test_command *t);

#define REGISTER_TEST_COMMAND(cmd, func) \
	static struct test_command test_struct_##cmd = { \
		.command = RTE_STR(cmd), \
		.callback = func, \
	}; \
	RTE_INIT(test_register_##cmd) \
	{ \
		add_test_command(&test_struct_##cmd); \
	}

/*
 * Child processes. A child is this binary re-executed with its own EAL
 * arguments; it runs the registered child function (before any test) and
 * exits with its return value. Children never run rte_eal_init themselves
 * unless their function does.
 */
typedef int (child_func_t)(int argc, char **argv);

struct test_child {
	const char *name;
	child_func_t *func;
	struct test_child *next;
};

void add_test_child(struct test_child *c);

#define REGISTER_TEST_CHILD(cname, cfunc) \
	static struct test_child test_child_##cname = { \
		.name = RTE_STR(cname), \
		.func = cfunc, \
	}; \
	RTE_INIT(test_child_register_##cname) \
	{ \
		add_test_child(&test_child_##cname); \
	}

/*
 * Start child @name of this binary with argv (NULL-terminated, not including
 * the program name). Its stdout/stderr go to ours, prefixed by nothing.
 * Returns the pid or -errno.
 */
pid_t rio_test_spawn(const char *name, char *const argv[]);

/*
 * The same through a program that runs the child, such as
 * { "/usr/bin/unshare", "--pid", "--fork", NULL }: @via (NULL-terminated,
 * full path first) comes in front of this binary's path.
 */
pid_t rio_test_spawn_via(const char *const via[], const char *name, char *const argv[]);

/*
 * In a child that called rte_eal_init() with argc/argv, which returned @ret:
 * its own arguments (those after "--") in *out. @return how many.
 */
int rio_test_child_args(int argc, char **argv, int ret, char ***out);

/*
 * Map @size bytes of file @path shared (a control file that a test and its
 * children share), creating or truncating it first when @create.
 * NULL on failure.
 */
void *rio_test_map_file(const char *path, size_t size, bool create);

/*
 * Write @content into a new file /tmp/<tag>.XXXXXX (a topology, say) and
 * put its path in path[len]. 0 or -errno.
 */
int rio_test_temp_file(char *path, size_t len, const char *tag, const char *content);

/*
 * Wait for a child up to timeout_ms; on timeout it is killed with SIGKILL and
 * reaped. Returns its exit status (0..255), -ETIMEDOUT on timeout, or
 * 128 + signal number if it was killed by a signal.
 */
int rio_test_wait(pid_t pid, unsigned int timeout_ms);

/* Unique name for this test run (pid-based), for fabric and file prefixes. */
const char *rio_test_unique(const char *base, char *buf, size_t len);

/*
 * Objects of the emulated fabrics live in a directory of their own (see
 * rte_pmd_rio_sim_fabric_dir()): the path of object @obj
 * ("rio_sim.<fabric>", "rio_sim.<fabric>.ep<N>"; a leading '/' is
 * ignored) in it, and open()/unlink() of it. 0/fd, or -errno/-1 (errno).
 */
int rio_test_fabric_path(char *buf, size_t len, const char *obj);
int rio_test_fabric_open(const char *obj, int flags, mode_t mode);
int rio_test_fabric_unlink(const char *obj);

/*
 * Remove every object whose name starts with prefix, in /dev/shm (POSIX
 * shared memory) and in the directory of the fabrics.
 */
int rio_test_shm_cleanup(const char *prefix);

/* Count the objects whose name starts with prefix, in the same places. */
int rio_test_shm_count(const char *prefix);

/* Remove directory @dir with the files in it (no subdirectories). */
void rio_test_rmdir_files(const char *dir);

/*
 * Remove the EAL runtime directory (next to ours) that a child run with
 * --file-prefix=@prefix leaves behind: EAL keeps its config and fbarray
 * files after the process exits, and a killed child removes nothing.
 */
void rio_test_runtime_dir_cleanup(const char *prefix);

/*
 * The EAL option "--lcores=(@ids)@(<CPUs>)" in @buf, <CPUs> those this test
 * process's lcores run on: every lcore of a child may run on any of them.
 * Children name their lcores with it, so that they run where the test may
 * (taskset, a one-CPU cpuset or machine) and no child waits behind one CPU
 * while another is free: a guest's vCPU can stop running its tasks for
 * tens of seconds (see doc/guides/testing.rst). @return @buf, NULL if short.
 */
const char *rio_test_lcores(char *buf, size_t len, const char *ids);

/*
 * Let the main lcore's thread run on every CPU of the process's lcores
 * (EAL pins it to one): it only starts, watches and reaps children.
 * @return 0, or negative when the affinity cannot be set.
 */
int rio_test_float_main(void);

/* Path of the running test binary (for spawning). */
const char *rio_test_self(void);

/* The EAL arguments the test binary was started with (argv[0] included). */
extern int rio_test_eal_argc;
extern char **rio_test_eal_argv;

#endif /* RIO_TEST_H */
