/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * dpdk-rio-test main program: test and child registries, the unit test
 * suite runner and the command-line driver.
 *
 *   dpdk-rio-test                          list the registered tests
 *   dpdk-rio-test <EAL args> [--] name...  run the named tests
 *   DPDK_TEST=name dpdk-rio-test <EAL>     same, names from the environment
 *   RIO_TEST_CHILD=name dpdk-rio-test ...  run child function "name" (no EAL)
 *
 * Exit status: 0 all passed, 1 a test failed or bad usage, 77 all skipped.
 */

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "test.h"

#define TEST_PROG		"dpdk-rio-test"
#define TEST_EXIT_FAILURE	1
#define TEST_MAX_NAMES		256

int rio_test_eal_argc;
char **rio_test_eal_argv;

static struct test_command *test_commands;
static struct test_child *test_children;

void
add_test_command(struct test_command *t)
{
	t->next = test_commands;
	test_commands = t;
}

void
add_test_child(struct test_child *c)
{
	c->next = test_children;
	test_children = c;
}

static struct test_command *
test_find_command(const char *name)
{
	struct test_command *t;

	for (t = test_commands; t != NULL; t = t->next)
		if (strcmp(t->command, name) == 0)
			return t;
	return NULL;
}

/* Used by test_child.c to refuse spawning a child nobody registered. */
int test_child_registered(const char *name);

int
test_child_registered(const char *name)
{
	struct test_child *c;

	for (c = test_children; c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return 1;
	return 0;
}

static int
test_cmp_names(const void *a, const void *b)
{
	const struct test_command *ta = *(const struct test_command * const *)a;
	const struct test_command *tb = *(const struct test_command * const *)b;

	return strcmp(ta->command, tb->command);
}

/* Print every registered test, sorted by name. */
static void
test_list(void)
{
	struct test_command *sorted[TEST_MAX_NAMES];
	struct test_command *t;
	unsigned int n = 0, i;

	for (t = test_commands; t != NULL && n < RTE_DIM(sorted); t = t->next)
		sorted[n++] = t;
	qsort(sorted, n, sizeof(sorted[0]), test_cmp_names);
	printf("Usage: %s <EAL args> [--] <test name>... (or DPDK_TEST=<name>)\n", TEST_PROG);
	printf("Registered tests (%u):\n", n);
	for (i = 0; i < n; i++)
		printf("  %s\n", sorted[i]->command);
}

static void
test_usage_hook(const char *prgname)
{
	printf("Usage: %s <EAL args> [--] <test name>...\n"
	       "  Runs the named autotests (or those in DPDK_TEST) and prints\n"
	       "  Test OK / Test Failed / Test Skipped for each one.\n"
	       "  Without a test name, lists the registered tests.\n", prgname);
}

static int
test_run_child(const char *name, int argc, char **argv)
{
	struct test_child *c;

	for (c = test_children; c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c->func(argc, argv);
	fprintf(stderr, "%s: unknown child '%s' in RIO_TEST_CHILD\n", TEST_PROG, name);
	return TEST_EXIT_FAILURE;
}

/* Split DPDK_TEST (names separated by spaces or commas) into names[]. */
static int
test_split_env(char *env, char **names, int max)
{
	int n = 0;
	char *p = env;

	while (*p != '\0') {
		while (*p == ',' || isspace((unsigned char)*p))
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (n == max)
			return -E2BIG;
		names[n++] = p;
		while (*p != '\0' && *p != ',' && !isspace((unsigned char)*p))
			p++;
	}
	return n;
}

/*
 * Keep in rio_test_eal_argv only the program name and the EAL arguments, in
 * their original order: drop "--" and the test names (argv[consumed + 1...]
 * after rte_eal_init(), compared by pointer).
 */
static void
test_save_eal_args(char **orig, int argc, char **argv, int consumed)
{
	int i, j, n = 0;
	bool name;

	if (orig == NULL)
		return;
	for (i = 0; i < argc; i++) {
		name = false;
		for (j = consumed + 1; j < argc; j++)
			if (orig[i] == argv[j])
				name = true;
		if (name || (i > 0 && strcmp(orig[i], "--") == 0))
			continue;
		orig[n++] = orig[i];
	}
	orig[n] = NULL;
	rio_test_eal_argc = n;
	rio_test_eal_argv = orig;
}

static int
test_run_one(struct test_command *t)
{
	int ret;

	printf("RTE>>%s\n", t->command);
	fflush(stdout);
	ret = t->callback();
	if (ret == TEST_SUCCESS)
		printf("Test OK\n");
	else if (ret == TEST_SKIPPED)
		printf("Test Skipped\n");
	else
		printf("Test Failed\n");
	fflush(stdout);
	return ret;
}

int
main(int argc, char **argv)
{
	static char *env_names[TEST_MAX_NAMES];
	const char *child = getenv("RIO_TEST_CHILD");
	char *dpdk_test = NULL;
	char **names = NULL, **orig_argv;
	int nb_names = 0, nb_ok = 0, nb_skip = 0, nb_fail = 0;
	int ret, i, status = 0;
	bool eal_done = false;

	rio_test_eal_argc = argc;
	rio_test_eal_argv = argv;
	/* Line-buffered so that our output and our children's interleave sanely. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (child != NULL && child[0] != '\0')
		return test_run_child(child, argc, argv);

	if (argc <= 1 && (getenv("DPDK_TEST") == NULL || getenv("DPDK_TEST")[0] == '\0')) {
		test_list();
		return 0;
	}

	/* EAL permutes and overwrites argv: keep the original order aside. */
	orig_argv = calloc(argc + 1, sizeof(*orig_argv));
	if (orig_argv != NULL)
		memcpy(orig_argv, argv, argc * sizeof(*argv));

	rte_set_application_usage_hook(test_usage_hook);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		if (rte_errno != 0)
			fprintf(stderr, "%s: EAL initialisation failed: %s\n", TEST_PROG,
				rte_strerror(rte_errno));
		else
			fprintf(stderr, "%s: EAL initialisation failed (see EAL messages above)\n",
				TEST_PROG);
		status = TEST_EXIT_FAILURE;
		goto out;
	}
	eal_done = true;
	/* This process only orchestrates: never wait behind one stopped CPU. */
	if (rio_test_float_main() != 0)
		fprintf(stderr, "%s: cannot let the main lcore float (kept on its CPU)\n",
			TEST_PROG);

	/* rte_eal_init() returns the number of arguments it consumed, "--" included. */
	if (ret + 1 < argc) {
		names = &argv[ret + 1];
		nb_names = argc - ret - 1;
	} else if (getenv("DPDK_TEST") != NULL) {
		dpdk_test = strdup(getenv("DPDK_TEST"));
		if (dpdk_test == NULL) {
			fprintf(stderr, "%s: out of memory\n", TEST_PROG);
			status = TEST_EXIT_FAILURE;
			goto out;
		}
		nb_names = test_split_env(dpdk_test, env_names, RTE_DIM(env_names));
		if (nb_names < 0) {
			fprintf(stderr, "%s: too many names in DPDK_TEST\n", TEST_PROG);
			status = TEST_EXIT_FAILURE;
			goto out;
		}
		names = env_names;
	}

	test_save_eal_args(orig_argv, argc, argv, ret);

	if (nb_names == 0) {
		test_list();
		goto out;
	}

	/* Refuse the whole run if any name is unknown, before running anything. */
	for (i = 0; i < nb_names; i++) {
		if (test_find_command(names[i]) == NULL) {
			fprintf(stderr, "%s: unknown test '%s' (without a name it lists them)\n",
				TEST_PROG, names[i]);
			status = TEST_EXIT_FAILURE;
		}
	}
	if (status != 0)
		goto out;

	for (i = 0; i < nb_names; i++) {
		ret = test_run_one(test_find_command(names[i]));
		if (ret == TEST_SUCCESS)
			nb_ok++;
		else if (ret == TEST_SKIPPED)
			nb_skip++;
		else
			nb_fail++;
	}
	if (nb_names > 1)
		printf("%d tests: %d passed, %d failed, %d skipped\n",
		       nb_names, nb_ok, nb_fail, nb_skip);

	if (nb_fail > 0)
		status = TEST_EXIT_FAILURE;
	else if (nb_ok == 0)
		status = TEST_SKIPPED;
out:
	free(dpdk_test);
	fflush(stdout);
	if (eal_done)
		rte_eal_cleanup();
	rio_test_eal_argv = argv;
	rio_test_eal_argc = argc;
	free(orig_argv);
	return status;
}

/* ---- unit test suite runner ---- */

enum test_case_result {
	TEST_CASE_PASSED,
	TEST_CASE_FAILED,
	TEST_CASE_SKIPPED,
	TEST_CASE_UNSUPPORTED,
};

static const char * const test_case_result_str[] = {
	[TEST_CASE_PASSED] = "succeeded",
	[TEST_CASE_FAILED] = "failed",
	[TEST_CASE_SKIPPED] = "skipped",
	[TEST_CASE_UNSUPPORTED] = "unsupported",
};

static enum test_case_result
test_case_classify(int ret)
{
	if (ret == TEST_SUCCESS)
		return TEST_CASE_PASSED;
	if (ret == TEST_SKIPPED)
		return TEST_CASE_SKIPPED;
	if (ret == -ENOTSUP)
		return TEST_CASE_UNSUPPORTED;
	return TEST_CASE_FAILED;
}

static enum test_case_result
test_case_run(const struct unit_test_case *tc, unsigned int *executed)
{
	enum test_case_result res;
	int ret;

	if (!tc->enabled)
		return TEST_CASE_SKIPPED;
	if (tc->setup != NULL) {
		ret = tc->setup();
		if (ret != TEST_SUCCESS) {
			res = test_case_classify(ret);
			if (res == TEST_CASE_FAILED)
				printf(" + TestCase %s: setup failed (%d)\n", tc->name, ret);
			return res == TEST_CASE_PASSED ? TEST_CASE_FAILED : res;
		}
	}
	(*executed)++;
	ret = tc->testcase();
	if (tc->teardown != NULL)
		tc->teardown();
	return test_case_classify(ret);
}

int
unit_test_suite_runner(struct unit_test_suite *suite)
{
	const struct unit_test_case *tc;
	enum test_case_result res, forced = TEST_CASE_PASSED;
	unsigned int unsupported = 0;
	int ret;

	suite->total = 0;
	suite->executed = 0;
	suite->succeeded = 0;
	suite->failed = 0;
	suite->skipped = 0;

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite : %s\n", suite->suite_name != NULL ? suite->suite_name : "");
	printf(" + ------------------------------------------------------- +\n");

	if (suite->setup != NULL) {
		ret = suite->setup();
		if (ret != TEST_SUCCESS) {
			forced = test_case_classify(ret);
			if (forced != TEST_CASE_SKIPPED)
				forced = TEST_CASE_FAILED;
			printf(" + Test Suite %s: setup %s (%d), no case runs\n",
			       suite->suite_name != NULL ? suite->suite_name : "",
			       forced == TEST_CASE_SKIPPED ? "skipped" : "failed", ret);
		}
	}

	for (tc = suite->unit_test_cases; tc->testcase != NULL; tc++) {
		if (forced != TEST_CASE_PASSED)
			res = forced;
		else
			res = test_case_run(tc, &suite->executed);
		switch (res) {
		case TEST_CASE_PASSED:
			suite->succeeded++;
			break;
		case TEST_CASE_FAILED:
			suite->failed++;
			break;
		case TEST_CASE_SKIPPED:
			suite->skipped++;
			break;
		case TEST_CASE_UNSUPPORTED:
			unsupported++;
			break;
		}
		printf(" + TestCase [%2u] : %s %s\n", suite->total,
		       tc->name != NULL ? tc->name : "", test_case_result_str[res]);
		suite->total++;
	}

	if (suite->teardown != NULL && forced == TEST_CASE_PASSED)
		suite->teardown();

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite Summary : %s\n", suite->suite_name != NULL ? suite->suite_name : "");
	printf(" + ------------------------------------------------------- +\n");
	printf(" + Tests Total :       %2u\n", suite->total);
	printf(" + Tests Skipped :     %2u\n", suite->skipped);
	printf(" + Tests Executed :    %2u\n", suite->executed);
	printf(" + Tests Unsupported:  %2u\n", unsupported);
	printf(" + Tests Passed :      %2u\n", suite->succeeded);
	printf(" + Tests Failed :      %2u\n", suite->failed);
	printf(" + ------------------------------------------------------- +\n");
	fflush(stdout);

	if (suite->failed > 0)
		return TEST_FAILED;
	if (suite->succeeded == 0)
		return TEST_SKIPPED;
	return TEST_SUCCESS;
}
