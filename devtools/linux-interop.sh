#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Interop matrix against Linux's own RapidIO code (doc/guides/testing.rst).
# Usage: devtools/linux-interop.sh [--topology FILE]... [--cases 1,2,..] [--keep] [--jobs N]
#
# Fetches Linux's RapidIO sources (devtools/get-linux-rapidio.sh, cached),
# builds the reference node dpdk-rio-linux-ref into build/ (-Dlinux_src),
# then runs devtools/linux-interop.py, which ends with "N passed, N failed".
# Exit: 0 all passed; 1 a case failed or an error; 77 skipped because the
# linux-source package cannot be fetched (the reason is printed).
# Environment: RIO_BUILD_DIR (default build), RIO_LINUX_CACHE (package cache).
set -euo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
src="$builddir/linux-src"

rc=0
sh devtools/get-linux-rapidio.sh "$src" || rc=$?
if [ $rc -eq 2 ]; then
	echo "linux-interop: SKIP: Debian's linux-source-6.1 package cannot be fetched"
	exit 77
elif [ $rc -ne 0 ]; then
	exit 1
fi
[ -f "$builddir/build.ninja" ] || meson setup "$builddir" >/dev/null
want=$(cd "$src" && pwd)
have=$(meson introspect --buildoptions "$builddir" |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "linux_src"))')
if [ "$have" != "$want" ]; then
	meson configure "$builddir" -Dlinux_src="$want" >/dev/null
fi
ninja -C "$builddir" >/dev/null ||
	{ echo "linux-interop: error: the build failed (ninja -C $builddir)" >&2; exit 1; }
exec python3 devtools/linux-interop.py --build "$builddir" "$@"
