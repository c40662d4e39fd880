/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

/*
 * Helpers shared by the libFuzzer targets of app/fuzz. A broken invariant
 * aborts with a message: libFuzzer then saves the input as a crash.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
		abort(); \
	} \
} while (0)

/* A result that must be 0 or a negative errno. */
#define FUZZ_CHECK_ERRNO(ret, what) \
	FUZZ_CHECK((ret) == 0 || ((ret) < 0 && (ret) > -4096), "%s returned %d", (what), (int)(ret))

/* Sequential reader over the fuzz input; reads past the end give zeroes. */
struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline void
fuzz_in_init(struct fuzz_in *in, const uint8_t *data, size_t size)
{
	in->p = data;
	in->left = size;
}

static inline void
fuzz_in_bytes(struct fuzz_in *in, void *out, size_t n)
{
	size_t k = n < in->left ? n : in->left;

	memcpy(out, in->p, k);
	memset((uint8_t *)out + k, 0, n - k);
	in->p += k;
	in->left -= k;
}

static inline uint8_t
fuzz_in_u8(struct fuzz_in *in)
{
	uint8_t v;

	fuzz_in_bytes(in, &v, sizeof(v));
	return v;
}

static inline uint16_t
fuzz_in_u16(struct fuzz_in *in)
{
	uint16_t v;

	fuzz_in_bytes(in, &v, sizeof(v));
	return v;
}

static inline uint32_t
fuzz_in_u32(struct fuzz_in *in)
{
	uint32_t v;

	fuzz_in_bytes(in, &v, sizeof(v));
	return v;
}

static inline uint64_t
fuzz_in_u64(struct fuzz_in *in)
{
	uint64_t v;

	fuzz_in_bytes(in, &v, sizeof(v));
	return v;
}

/* Logs cost time and say nothing a check does not: keep only critical ones. */
static inline void
fuzz_quiet_logs(void)
{
	rte_log_set_global_level(RTE_LOG_CRIT);
}

/*
 * An error line for a user: not empty, and one line unless it quotes an
 * input that itself holds a newline (@quoted_nl).
 */
static inline void
fuzz_check_err_line(const char *err, bool quoted_nl)
{
	FUZZ_CHECK(err[0] != '\0', "empty error message");
	FUZZ_CHECK(quoted_nl || strchr(err, '\n') == NULL, "multi-line error message: %s", err);
}

#endif /* FUZZ_COMMON_H */
