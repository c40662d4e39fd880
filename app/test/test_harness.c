/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * harness_autotest: the test harness checks itself. Assertion macros must
 * pass and fail when they should, the suite runner must call setup/teardown
 * in order and count right, children must be spawned, waited for, killed at
 * their timeout and reaped, and the shared-memory helpers must count and
 * remove exactly the objects with a given prefix.
 */

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "test.h"

/* ---- assertion macros, each wrapped so its verdict can be checked ---- */

static int
harness_assert(int cond)
{
	TEST_ASSERT(cond, "cond=%d", cond);
	return TEST_SUCCESS;
}

static int
harness_assert_nofmt(int cond)
{
	TEST_ASSERT(cond, "no format arguments");
	return TEST_SUCCESS;
}

static int
harness_assert_equal(long long a, long long b)
{
	TEST_ASSERT_EQUAL(a, b, "values differ");
	return TEST_SUCCESS;
}

static int
harness_assert_not_equal(long long a, long long b)
{
	TEST_ASSERT_NOT_EQUAL(a, b, "values equal: %lld", a);
	return TEST_SUCCESS;
}

static int harness_eval_count;

static int
harness_counted(int v)
{
	harness_eval_count++;
	return v;
}

static int
harness_assert_success(int v)
{
	TEST_ASSERT_SUCCESS(harness_counted(v), "call returned %d", v);
	return TEST_SUCCESS;
}

static int
harness_assert_fail(int v)
{
	TEST_ASSERT_FAIL(v, "call succeeded");
	return TEST_SUCCESS;
}

static int
harness_assert_null(const void *p)
{
	TEST_ASSERT_NULL(p, "pointer %p", p);
	return TEST_SUCCESS;
}

static int
harness_assert_not_null(const void *p)
{
	TEST_ASSERT_NOT_NULL(p, "pointer is NULL");
	return TEST_SUCCESS;
}

static int
test_harness_asserts(void)
{
	int x = 0;

	printf("  (the assertion failures printed below are expected)\n");
	if (harness_assert(1) != TEST_SUCCESS || harness_assert(0) != TEST_FAILED)
		return TEST_FAILED;
	if (harness_assert_nofmt(1) != TEST_SUCCESS || harness_assert_nofmt(0) != TEST_FAILED)
		return TEST_FAILED;
	if (harness_assert_equal(5, 5) != TEST_SUCCESS ||
	    harness_assert_equal(5, 6) != TEST_FAILED ||
	    harness_assert_equal(-1, 0xffffffffLL) != TEST_FAILED)
		return TEST_FAILED;
	if (harness_assert_not_equal(5, 6) != TEST_SUCCESS ||
	    harness_assert_not_equal(7, 7) != TEST_FAILED)
		return TEST_FAILED;

	harness_eval_count = 0;
	if (harness_assert_success(0) != TEST_SUCCESS || harness_eval_count != 1)
		return TEST_FAILED;
	harness_eval_count = 0;
	if (harness_assert_success(-EINVAL) != TEST_FAILED || harness_eval_count != 1)
		return TEST_FAILED;

	if (harness_assert_fail(-1) != TEST_SUCCESS || harness_assert_fail(0) != TEST_FAILED)
		return TEST_FAILED;
	if (harness_assert_null(NULL) != TEST_SUCCESS || harness_assert_null(&x) != TEST_FAILED)
		return TEST_FAILED;
	if (harness_assert_not_null(&x) != TEST_SUCCESS ||
	    harness_assert_not_null(NULL) != TEST_FAILED)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/* ---- suite runner: order of calls and counters ---- */

static char harness_log[256];

static void
harness_log_add(const char *s)
{
	size_t len = strlen(harness_log);

	snprintf(harness_log + len, sizeof(harness_log) - len, "%s", s);
}

static int harness_inner_setup(void) { harness_log_add("S"); return TEST_SUCCESS; }
static void harness_inner_teardown(void) { harness_log_add("T"); }
static int harness_case_setup(void) { harness_log_add("s"); return TEST_SUCCESS; }
static void harness_case_teardown(void) { harness_log_add("t"); }
static int harness_case_setup_skip(void) { harness_log_add("k"); return TEST_SKIPPED; }
static int harness_case_setup_fail(void) { harness_log_add("f"); return TEST_FAILED; }
static int harness_case_pass(void) { harness_log_add("P"); return TEST_SUCCESS; }
static int harness_case_fail(void) { harness_log_add("F"); return TEST_FAILED; }
static int harness_case_skip(void) { harness_log_add("K"); return TEST_SKIPPED; }
static int harness_case_notsup(void) { harness_log_add("N"); return -ENOTSUP; }
static int harness_case_never(void) { harness_log_add("X"); return TEST_SUCCESS; }
static int harness_suite_setup_fail(void) { harness_log_add("!"); return TEST_FAILED; }
static int harness_suite_setup_skip(void) { harness_log_add("?"); return TEST_SKIPPED; }

static struct unit_test_suite harness_inner_suite = {
	.suite_name = "harness inner suite (failures expected)",
	.setup = harness_inner_setup,
	.teardown = harness_inner_teardown,
	.unit_test_cases = {
		TEST_CASE(harness_case_pass),
		TEST_CASE_ST(harness_case_setup, harness_case_teardown, harness_case_pass),
		TEST_CASE_ST(harness_case_setup, harness_case_teardown, harness_case_fail),
		TEST_CASE(harness_case_skip),
		TEST_CASE(harness_case_notsup),
		TEST_CASE_ST(harness_case_setup_skip, harness_case_teardown, harness_case_never),
		TEST_CASE_ST(harness_case_setup_fail, harness_case_teardown, harness_case_never),
		{ NULL, NULL, harness_case_never, "disabled", 0 },
		TEST_CASE_NAMED("named pass", harness_case_pass),
		TEST_CASES_END()
	}
};

static struct unit_test_suite harness_skip_suite = {
	.suite_name = "harness all-skipped suite",
	.unit_test_cases = {
		TEST_CASE(harness_case_skip),
		TEST_CASE(harness_case_notsup),
		TEST_CASES_END()
	}
};

static struct unit_test_suite harness_setup_fail_suite = {
	.suite_name = "harness suite whose setup fails",
	.setup = harness_suite_setup_fail,
	.teardown = harness_inner_teardown,
	.unit_test_cases = {
		TEST_CASE(harness_case_never),
		TEST_CASE(harness_case_never),
		TEST_CASES_END()
	}
};

static struct unit_test_suite harness_setup_skip_suite = {
	.suite_name = "harness suite whose setup skips",
	.setup = harness_suite_setup_skip,
	.teardown = harness_inner_teardown,
	.unit_test_cases = {
		TEST_CASE(harness_case_never),
		TEST_CASES_END()
	}
};

static int
test_harness_suite_runner(void)
{
	int ret;

	harness_log[0] = '\0';
	ret = unit_test_suite_runner(&harness_inner_suite);
	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "suite with a failing case must fail");
	TEST_ASSERT(strcmp(harness_log, "SPsPtsFtKNkfPT") == 0,
		    "call order '%s', expected 'SPsPtsFtKNkfPT'", harness_log);
	TEST_ASSERT_EQUAL(harness_inner_suite.total, 9, "total");
	/* executed: every case whose setup passed and that is enabled */
	TEST_ASSERT_EQUAL(harness_inner_suite.executed, 6, "executed");
	TEST_ASSERT_EQUAL(harness_inner_suite.succeeded, 3, "succeeded");
	/* failed: the failing case and the case whose setup failed */
	TEST_ASSERT_EQUAL(harness_inner_suite.failed, 2, "failed");
	/* skipped: skip result, skipping setup, disabled (unsupported is separate) */
	TEST_ASSERT_EQUAL(harness_inner_suite.skipped, 3, "skipped");

	/* The runner resets its counters: a second run counts the same. */
	harness_log[0] = '\0';
	ret = unit_test_suite_runner(&harness_inner_suite);
	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "second run");
	TEST_ASSERT_EQUAL(harness_inner_suite.total, 9, "total after second run");
	TEST_ASSERT_EQUAL(harness_inner_suite.succeeded, 3, "succeeded after second run");

	harness_log[0] = '\0';
	ret = unit_test_suite_runner(&harness_skip_suite);
	TEST_ASSERT_EQUAL(ret, TEST_SKIPPED, "all-skipped suite must be skipped");
	TEST_ASSERT_EQUAL(harness_skip_suite.failed, 0, "failed");
	TEST_ASSERT(strcmp(harness_log, "KN") == 0, "call order '%s'", harness_log);

	harness_log[0] = '\0';
	ret = unit_test_suite_runner(&harness_setup_fail_suite);
	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "suite whose setup fails must fail");
	TEST_ASSERT_EQUAL(harness_setup_fail_suite.failed, 2, "every case counted failed");
	TEST_ASSERT_EQUAL(harness_setup_fail_suite.executed, 0, "no case executed");
	TEST_ASSERT(strcmp(harness_log, "!") == 0,
		    "no case and no teardown after failed setup, got '%s'", harness_log);

	harness_log[0] = '\0';
	ret = unit_test_suite_runner(&harness_setup_skip_suite);
	TEST_ASSERT_EQUAL(ret, TEST_SKIPPED, "suite whose setup skips must be skipped");
	TEST_ASSERT_EQUAL(harness_setup_skip_suite.skipped, 1, "case counted skipped");
	TEST_ASSERT(strcmp(harness_log, "?") == 0, "got '%s'", harness_log);
	return TEST_SUCCESS;
}

/* ---- children ---- */

static int
harness_child_exit3(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return 3;
}
REGISTER_TEST_CHILD(harness_child_exit3, harness_child_exit3)

static int
harness_child_args(int argc, char **argv)
{
	const char *self = rio_test_self();

	if (argc != 3 || self == NULL || strcmp(argv[0], self) != 0 ||
	    strcmp(argv[1], "alpha") != 0 || strcmp(argv[2], "beta gamma") != 0) {
		printf("harness_child_args: unexpected argv (argc=%d)\n", argc);
		return 1;
	}
	if (getenv("RIO_TEST_CHILD") == NULL ||
	    strcmp(getenv("RIO_TEST_CHILD"), "harness_child_args") != 0)
		return 2;
	return 0;
}
REGISTER_TEST_CHILD(harness_child_args, harness_child_args)

static int
harness_child_sleep(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	for (;;)
		pause();
	return 0;
}
REGISTER_TEST_CHILD(harness_child_sleep, harness_child_sleep)

static int
harness_child_signal(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	raise(SIGUSR1);
	return 0;
}
REGISTER_TEST_CHILD(harness_child_signal, harness_child_signal)

static uint64_t
harness_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int
test_harness_children(void)
{
	char *const args[] = { (char *)(uintptr_t)"alpha", (char *)(uintptr_t)"beta gamma",
			       NULL };
	uint64_t t0, elapsed;
	pid_t pid;
	int ret, i;

	TEST_ASSERT_NOT_NULL(rio_test_self(), "cannot resolve /proc/self/exe");
	TEST_ASSERT(rio_test_eal_argc >= 1 && rio_test_eal_argv != NULL &&
		    rio_test_eal_argv[0] != NULL &&
		    rio_test_eal_argv[rio_test_eal_argc] == NULL, "EAL argv not saved");
	for (i = 1; i < rio_test_eal_argc; i++)
		TEST_ASSERT(strcmp(rio_test_eal_argv[i], "--") != 0 &&
			    strcmp(rio_test_eal_argv[i], "harness_autotest") != 0,
			    "EAL argv keeps '%s'", rio_test_eal_argv[i]);

	pid = rio_test_spawn("harness_child_exit3", NULL);
	TEST_ASSERT(pid > 0, "spawn failed: %d", (int)pid);
	ret = rio_test_wait(pid, 10000);
	TEST_ASSERT_EQUAL(ret, 3, "child exit status");
	TEST_ASSERT(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD, "child not reaped");

	pid = rio_test_spawn("harness_child_args", args);
	TEST_ASSERT(pid > 0, "spawn failed: %d", (int)pid);
	TEST_ASSERT_EQUAL(rio_test_wait(pid, 10000), 0, "child saw wrong argv or env");
	TEST_ASSERT_NULL(getenv("RIO_TEST_CHILD"), "child variable leaked into the parent");

	pid = rio_test_spawn("harness_child_signal", NULL);
	TEST_ASSERT(pid > 0, "spawn failed: %d", (int)pid);
	TEST_ASSERT_EQUAL(rio_test_wait(pid, 10000), 128 + SIGUSR1, "killed-by-signal status");

	printf("  (a timeout message for harness_child_sleep is expected)\n");
	pid = rio_test_spawn("harness_child_sleep", NULL);
	TEST_ASSERT(pid > 0, "spawn failed: %d", (int)pid);
	t0 = harness_now_ms();
	ret = rio_test_wait(pid, 300);
	elapsed = harness_now_ms() - t0;
	TEST_ASSERT_EQUAL(ret, -ETIMEDOUT, "sleeping child must time out");
	TEST_ASSERT(elapsed >= 300 && elapsed < 5000, "timeout took %llu ms",
		    (unsigned long long)elapsed);
	TEST_ASSERT(kill(pid, 0) < 0 && errno == ESRCH, "timed-out child still exists");
	TEST_ASSERT(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD,
		    "timed-out child not reaped");

	TEST_ASSERT_EQUAL(rio_test_spawn("harness_no_such_child", NULL), -ENOENT,
			  "unregistered child must be refused");
	TEST_ASSERT_EQUAL(rio_test_spawn(NULL, NULL), -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rio_test_wait(0, 10), -EINVAL, "pid 0");
	TEST_ASSERT(rio_test_wait(pid, 10) < 0, "waiting for a reaped child must fail");
	return TEST_SUCCESS;
}

/* ---- unique names and shared-memory helpers ---- */

static int
harness_shm_create(const char *prefix, const char *suffix)
{
	char name[128];
	int fd;

	snprintf(name, sizeof(name), "/%s%s", prefix, suffix);
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int
test_harness_shm(void)
{
	char a[64], b[64], other[64], tiny[4], pidstr[16];
	char slash[70];
	int ret = TEST_FAILED;

	TEST_ASSERT_NOT_NULL(rio_test_unique("rio_harness", a, sizeof(a)), "unique a");
	TEST_ASSERT_NOT_NULL(rio_test_unique("rio_harness", b, sizeof(b)), "unique b");
	TEST_ASSERT(strcmp(a, b) != 0, "two unique names are equal: %s", a);
	snprintf(pidstr, sizeof(pidstr), "_%d_", (int)getpid());
	TEST_ASSERT(strncmp(a, "rio_harness", 11) == 0 && strstr(a, pidstr) != NULL,
		    "unique name '%s' lacks base or pid", a);
	TEST_ASSERT_NULL(rio_test_unique("rio_harness", tiny, sizeof(tiny)),
			 "truncated name must be refused");
	TEST_ASSERT_NOT_NULL(rio_test_unique("rio_harness", other, sizeof(other)), "other");
	strcat(a, ".");	/* "rio_harness_<pid>_0." is not a prefix of ..._1 or ..._10 */
	strcat(other, ".");

	TEST_ASSERT_EQUAL(rio_test_shm_count(a), 0, "fresh prefix has objects");
	TEST_ASSERT_SUCCESS(harness_shm_create(a, "x"), "shm_open");
	if (harness_shm_create(a, "y") != 0 || harness_shm_create(other, "z") != 0) {
		printf("  shm_open failed\n");
		goto out;
	}
	if (rio_test_shm_count(a) != 2 || rio_test_shm_count(other) != 1) {
		printf("  shm count %d/%d, expected 2/1\n",
		       rio_test_shm_count(a), rio_test_shm_count(other));
		goto out;
	}
	if (rio_test_shm_cleanup(a) != 2 || rio_test_shm_count(a) != 0) {
		printf("  cleanup did not remove both objects\n");
		goto out;
	}
	if (rio_test_shm_count(other) != 1) {
		printf("  cleanup removed an object with another prefix\n");
		goto out;
	}
	/* A leading '/' in the prefix is accepted. */
	snprintf(slash, sizeof(slash), "/%s", other);
	if (rio_test_shm_count(slash) != 1 || rio_test_shm_cleanup(slash) != 1 ||
	    rio_test_shm_count(other) != 0) {
		printf("  prefix with leading '/' not handled\n");
		goto out;
	}
	if (rio_test_shm_cleanup("") != -EINVAL || rio_test_shm_count("/") != -EINVAL ||
	    rio_test_shm_count(NULL) != -EINVAL) {
		printf("  empty prefix must be refused\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	rio_test_shm_cleanup(a);
	rio_test_shm_cleanup(other);
	return ret;
}

static struct unit_test_suite harness_suite = {
	.suite_name = "harness autotest",
	.unit_test_cases = {
		TEST_CASE(test_harness_asserts),
		TEST_CASE(test_harness_suite_runner),
		TEST_CASE(test_harness_children),
		TEST_CASE(test_harness_shm),
		TEST_CASES_END()
	}
};

static int
test_harness(void)
{
	return unit_test_suite_runner(&harness_suite);
}

REGISTER_TEST_COMMAND(harness_autotest, test_harness);
