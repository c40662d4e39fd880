/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_APP_COMMON_H
#define RIO_APP_COMMON_H

/*
 * Helpers of the programs of app/ (the test binary, the fuzzers, the soak
 * and the bench), which copied them before: memory-order wrappers for
 * fields shared between threads or processes, what /proc says of a
 * process, and a CRC32C of unaligned data. Not for lib/ and drivers/, and not for examples/ (each example
 * builds alone, appliance out of tree).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <rte_hash_crc.h>

/*
 * Fields one thread or process writes and others read. Each call site says
 * which store a load pairs with; the relaxed forms are for counters and
 * progress, ordered (where it matters) by a later release store.
 */
#define app_load_acq(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define app_store_rel(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define app_load_rlx(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define app_store_rlx(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)

/*
 * State letter of process @pid (field 3 of /proc/<pid>/stat: 'R', 'S',
 * 'T' stopped, 'Z' zombie...), '?' when the process is gone or the file
 * cannot be read. The command name (field 2) may hold spaces and
 * parentheses: the state follows its last ')'.
 */
static inline char
rio_app_proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	size_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fp = fopen(path, "r");
	if (fp == NULL)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' ? p[2] : '?';
}

/*
 * CRC32C of @len bytes at any address, continuing @crc: rte_hash_crc()
 * loads 8-byte words in place, and data inside a frame (after its 14-byte
 * Ethernet header) is misaligned for that (undefined behaviour that UBSan
 * reports).
 */
static inline uint32_t
rio_app_crc32c(const void *data, size_t len, uint32_t crc)
{
	const uint8_t *p = data;
	uint64_t w;

	for (; len >= sizeof(w); p += sizeof(w), len -= sizeof(w)) {
		memcpy(&w, p, sizeof(w));
		crc = rte_hash_crc_8byte(w, crc);
	}
	for (; len > 0; p++, len--)
		crc = rte_hash_crc_1byte(*p, crc);
	return crc;
}

#endif /* RIO_APP_COMMON_H */
