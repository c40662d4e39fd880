/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Multi-process helpers: re-execute this binary as a child running a
 * registered child function, wait for it with a timeout, and name and clean
 * up the POSIX shared-memory objects tests create.
 */

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_thread.h>

#include "rte_pmd_rio_sim_fabric.h"

#include "test.h"

#define TEST_CHILD_ENV		"RIO_TEST_CHILD"
#define TEST_SHM_DIR		"/dev/shm"
#define TEST_WAIT_MIN_NS	(100 * 1000)		/* first poll after 0.1 ms */
#define TEST_WAIT_MAX_NS	(10 * 1000 * 1000)	/* then back off up to 10 ms */

extern char **environ;

/* Defined in test.c. */
int test_child_registered(const char *name);

static uint32_t test_unique_counter;

const char *
rio_test_self(void)
{
	static char self[PATH_MAX];
	ssize_t n;

	if (self[0] != '\0')
		return self;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || (size_t)n >= sizeof(self) - 1) {
		self[0] = '\0';
		return NULL;
	}
	self[n] = '\0';
	return self;
}

/* The CPUs of all of this process's lcores (without -l: every CPU it was allowed). */
static rte_cpuset_t
test_lcores_cpuset(void)
{
	rte_cpuset_t cpus, one;
	unsigned int lcore;

	CPU_ZERO(&cpus);
	RTE_LCORE_FOREACH(lcore) {
		one = rte_lcore_cpuset(lcore);
		CPU_OR(&cpus, &cpus, &one);
	}
	return cpus;
}

int
rio_test_float_main(void)
{
	rte_cpuset_t cpus = test_lcores_cpuset();

	return rte_thread_set_affinity(&cpus);
}

const char *
rio_test_lcores(char *buf, size_t len, const char *ids)
{
	rte_cpuset_t cpus = test_lcores_cpuset();
	unsigned int cpu, first;
	size_t n;
	int w;

	w = snprintf(buf, len, "--lcores=(%s)@(", ids);
	if (w < 0 || (size_t)w >= len)
		return NULL;
	n = w;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &cpus))
			continue;
		for (first = cpu; cpu + 1 < CPU_SETSIZE && CPU_ISSET(cpu + 1, &cpus); cpu++)
			;
		if (first == cpu)
			w = snprintf(buf + n, len - n, "%s%u", buf[n - 1] == '(' ? "" : ",", cpu);
		else
			w = snprintf(buf + n, len - n, "%s%u-%u", buf[n - 1] == '(' ? "" : ",",
				     first, cpu);
		if (w < 0 || (size_t)w >= len - n)
			return NULL;
		n += w;
	}
	if (n + 2 > len)
		return NULL;
	buf[n++] = ')';
	buf[n] = '\0';
	return buf;
}

/* Copy of environ with RIO_TEST_CHILD replaced by RIO_TEST_CHILD=name. */
static char **
test_child_env(const char *name, char **var)
{
	size_t n = 0, i, j = 0, klen = strlen(TEST_CHILD_ENV);
	char **env;

	while (environ[n] != NULL)
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (env == NULL)
		return NULL;
	if (asprintf(var, "%s=%s", TEST_CHILD_ENV, name) < 0) {
		free(env);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], TEST_CHILD_ENV, klen) == 0 && environ[i][klen] == '=')
			continue;
		env[j++] = environ[i];
	}
	env[j++] = *var;
	env[j] = NULL;
	return env;
}

pid_t
rio_test_spawn(const char *name, char *const argv[])
{
	return rio_test_spawn_via(NULL, name, argv);
}

pid_t
rio_test_spawn_via(const char *const via[], const char *name, char *const argv[])
{
	const char *self = rio_test_self();
	char **child_argv = NULL, **child_env = NULL;
	char *var = NULL;
	pid_t parent = getpid();
	size_t argc = 0, nvia = 0, i;
	pid_t pid;

	if (name == NULL || name[0] == '\0')
		return -EINVAL;
	if (!test_child_registered(name)) {
		printf("rio_test_spawn: no child registered as '%s'\n", name);
		return -ENOENT;
	}
	if (self == NULL)
		return -ENOENT;

	/* Build everything before fork(): the child only calls async-signal-safe functions. */
	while (argv != NULL && argv[argc] != NULL)
		argc++;
	while (via != NULL && via[nvia] != NULL)
		nvia++;
	child_argv = calloc(nvia + argc + 2, sizeof(*child_argv));
	if (child_argv == NULL) {
		pid = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nvia; i++)
		child_argv[i] = (char *)(uintptr_t)via[i];
	child_argv[nvia] = (char *)(uintptr_t)self;
	for (i = 0; i < argc; i++)
		child_argv[nvia + i + 1] = argv[i];
	child_argv[nvia + argc + 1] = NULL;
	child_env = test_child_env(name, &var);
	if (child_env == NULL) {
		pid = -ENOMEM;
		goto out;
	}

	/* Nothing buffered may be written twice or out of order. */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		pid = -errno;
		goto out;
	}
	if (pid == 0) {
		/* Do not outlive a parent killed by a test timeout. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		execve(child_argv[0], child_argv, child_env);
		_exit(127);
	}
out:
	free(var);
	free(child_env);
	free(child_argv);
	return pid;
}

int
rio_test_child_args(int argc, char **argv, int ret, char ***out)
{
	/* EAL leaves the program name in front of the application's arguments. */
	argc -= ret;
	argv += ret;
	if (argc > 0) {
		argc--;
		argv++;
	}
	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	*out = argv;
	return argc;
}

void *
rio_test_map_file(const char *path, size_t size, bool create)
{
	void *m;
	int fd;

	fd = open(path, create ? O_RDWR | O_CREAT | O_TRUNC : O_RDWR, 0600);
	if (fd < 0)
		return NULL;
	if (create && ftruncate(fd, size) != 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return m == MAP_FAILED ? NULL : m;
}

int
rio_test_temp_file(char *path, size_t len, const char *tag, const char *content)
{
	size_t n = strlen(content);
	ssize_t w;
	int fd;

	if (snprintf(path, len, "/tmp/%s.XXXXXX", tag) >= (int)len)
		return -ENAMETOOLONG;
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	w = write(fd, content, n);
	if (close(fd) != 0 || w != (ssize_t)n) {
		unlink(path);
		return -EIO;
	}
	return 0;
}

static uint64_t
test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int
test_decode_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -ECHILD;
}

int
rio_test_wait(pid_t pid, unsigned int timeout_ms)
{
	uint64_t deadline = test_now_ns() + (uint64_t)timeout_ms * 1000000ULL;
	uint64_t delay = TEST_WAIT_MIN_NS;
	struct timespec ts;
	int status;
	pid_t r;

	if (pid <= 0)
		return -EINVAL;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return test_decode_status(status);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (test_now_ns() >= deadline)
			break;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)delay;
		nanosleep(&ts, NULL);
		if (delay < TEST_WAIT_MAX_NS)
			delay *= 2;
	}

	printf("rio_test_wait: child %d still running after %u ms, killing it\n",
	       (int)pid, timeout_ms);
	kill(pid, SIGKILL);
	do {
		r = waitpid(pid, &status, 0);
	} while (r < 0 && errno == EINTR);
	return -ETIMEDOUT;
}

const char *
rio_test_unique(const char *base, char *buf, size_t len)
{
	uint32_t n = __atomic_fetch_add(&test_unique_counter, 1, __ATOMIC_RELAXED);
	int ret;

	if (base == NULL || buf == NULL || len == 0)
		return NULL;
	ret = snprintf(buf, len, "%s_%d_%u", base, (int)getpid(), n);
	if (ret < 0 || (size_t)ret >= len)
		return NULL;
	return buf;
}

int
rio_test_fabric_path(char *buf, size_t len, const char *obj)
{
	char dir[PATH_MAX];
	int ret;

	ret = rte_pmd_rio_sim_fabric_dir(dir, sizeof(dir));
	if (ret != 0)
		return ret;
	while (*obj == '/')
		obj++;
	ret = snprintf(buf, len, "%s/%s", dir, obj);
	return ret > 0 && (size_t)ret < len ? 0 : -ENAMETOOLONG;
}

int
rio_test_fabric_open(const char *obj, int flags, mode_t mode)
{
	char path[PATH_MAX];
	int ret;

	ret = rio_test_fabric_path(path, sizeof(path), obj);
	if (ret != 0) {
		errno = -ret;
		return -1;
	}
	return open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

int
rio_test_fabric_unlink(const char *obj)
{
	char path[PATH_MAX];
	int ret;

	ret = rio_test_fabric_path(path, sizeof(path), obj);
	if (ret != 0) {
		errno = -ret;
		return -1;
	}
	return unlink(path);
}

/* Walk @dir; unlink matching objects if @remove. Returns the match count or -errno. */
static int
test_dir_walk(const char *dir_path, const char *prefix, size_t plen, int remove)
{
	char name[PATH_MAX + NAME_MAX + 2];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = opendir(dir_path);
	if (dir == NULL)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		if (remove) {
			snprintf(name, sizeof(name), "%s/%s", dir_path, de->d_name);
			if (unlink(name) < 0 && errno != ENOENT) {
				n = -errno;
				break;
			}
		}
		n++;
	}
	closedir(dir);
	return n;
}

/*
 * Objects whose name starts with prefix, in /dev/shm and in the directory
 * of our fabrics; unlinked if @remove. The match count or -errno.
 */
static int
test_shm_walk(const char *prefix, int remove)
{
	char dir[PATH_MAX];
	size_t plen;
	int n, m;

	if (prefix == NULL)
		return -EINVAL;
	while (*prefix == '/')
		prefix++;
	plen = strlen(prefix);
	if (plen == 0)
		return -EINVAL;	/* never match everything */
	n = test_dir_walk(TEST_SHM_DIR, prefix, plen, remove);
	if (n < 0 || rte_pmd_rio_sim_fabric_dir(dir, sizeof(dir)) != 0)
		return n;
	m = test_dir_walk(dir, prefix, plen, remove);
	return m < 0 ? m : n + m;
}

int
rio_test_shm_cleanup(const char *prefix)
{
	return test_shm_walk(prefix, 1);
}

int
rio_test_shm_count(const char *prefix)
{
	return test_shm_walk(prefix, 0);
}

void
rio_test_rmdir_files(const char *dir)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	DIR *d;

	d = opendir(dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

void
rio_test_runtime_dir_cleanup(const char *prefix)
{
	const char *own = rte_eal_get_runtime_dir();
	const char *slash = strrchr(own, '/');
	char dir[PATH_MAX];

	if (slash == NULL || prefix[0] == '\0' || strchr(prefix, '/') != NULL)
		return;
	snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - own), own, prefix);
	rio_test_rmdir_files(dir);
}
