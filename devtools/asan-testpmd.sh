#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# The stock dpdk-testpmd for the sanitizer build: our plugins, loaded with
# -d, are built with AddressSanitizer, whose runtime must be the first
# library of the process. The "sanitize" test setup (app/test/meson.build)
# points RIO_TESTPMD here and RIO_ASAN_RUNTIME at libasan.so. Leaks of
# testpmd itself are not ours to report: LeakSanitizer is off in it.
[ -n "${RIO_ASAN_RUNTIME:-}" ] || {
	echo "asan-testpmd: RIO_ASAN_RUNTIME is not set" >&2
	exit 2
}
LD_PRELOAD="$RIO_ASAN_RUNTIME${LD_PRELOAD:+:$LD_PRELOAD}" \
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	exec "${RIO_TESTPMD_REAL:-/usr/bin/dpdk-testpmd}" "$@"
