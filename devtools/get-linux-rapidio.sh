#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Provide Linux's RapidIO sources for the test-only reference node
# (app/linux-ref). Usage: get-linux-rapidio.sh <outdir>
#
# Debian's linux-source-6.1 package is fetched with apt-get download (after
# apt-get update when the first try fails) into a cache directory outside
# the tree, ${RIO_LINUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-rio},
# and only these files are extracted (once per package version, into the
# cache), then copied into <outdir>, which must be in a build directory:
#   drivers/rapidio/*.c  drivers/rapidio/*.h  drivers/rapidio/switches/*.c
#   drivers/rapidio/devices/tsi721*  drivers/net/rionet.c  include/linux/rio*.h
# They are GPL-2.0: never copy them into the source tree, never commit them.
#
# Exit status: 0 done; 2 the package cannot be fetched (callers may skip,
# printing the reason); 1 any other error.
set -eu

PKG=linux-source-6.1
PATTERNS="drivers/rapidio/*.c drivers/rapidio/*.h drivers/rapidio/switches/*.c
drivers/rapidio/devices/tsi721* drivers/net/rionet.c include/linux/rio*.h"

die() {
	echo "get-linux-rapidio: error: $*" >&2
	exit "${2:-1}"
}

[ $# -eq 1 ] || die "usage: $0 <output directory>"
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
case "$(cd "$out" && pwd)/" in
"$top"/build*/*) ;;
"$top"/*) die "$out is inside the source tree but not in a build directory" ;;
esac

cache=${RIO_LINUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-rio}
mkdir -p "$cache" || die "cannot create the cache directory $cache"

deb=$(ls -1 "$cache"/${PKG}_*_all.deb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$deb" ]; then
	command -v apt-get >/dev/null || die "apt-get not found: cannot fetch $PKG" 2
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	if ! (cd "$cache" && apt-get download "$PKG") >"$log" 2>&1; then
		echo "get-linux-rapidio: apt-get download $PKG failed; running apt-get update" >&2
		apt-get update >>"$log" 2>&1 || true
		if ! (cd "$cache" && apt-get download "$PKG") >>"$log" 2>&1; then
			tail -n 5 "$log" >&2
			die "$PKG cannot be fetched with apt-get download" 2
		fi
	fi
	deb=$(ls -1 "$cache"/${PKG}_*_all.deb 2>/dev/null | sort -V | tail -n 1 || true)
	[ -n "$deb" ] || die "apt-get download left no ${PKG}_*_all.deb in $cache" 2
fi
ver=$(basename "$deb" _all.deb)
ver=${ver#${PKG}_}

src="$cache/linux-rapidio-$ver"
if [ ! -f "$src/.complete" ]; then
	echo "get-linux-rapidio: extracting Linux RapidIO sources $ver into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	pats=""
	for p in $PATTERNS; do
		pats="$pats $PKG/$p"
	done
	# shellcheck disable=SC2086 # the patterns are words on purpose
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$PKG.tar.xz" |
		tar -xJ -C "$src.tmp" --strip-components=1 --wildcards \
			--no-wildcards-match-slash $pats ||
		die "cannot extract the RapidIO sources from $deb"
	[ -f "$src.tmp/drivers/rapidio/rio-scan.c" ] && [ -f "$src.tmp/drivers/net/rionet.c" ] ||
		die "$deb has no drivers/rapidio/rio-scan.c or drivers/net/rionet.c"
	touch "$src.tmp/.complete"
	mv "$src.tmp" "$src"
fi

if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$ver" ]; then
	exit 0
fi
rm -rf "$out/drivers" "$out/include"
(cd "$src" && tar -cf - drivers include) | (cd "$out" && tar -xf -)
echo "$ver" > "$out/.stamp"
echo "get-linux-rapidio: Linux RapidIO sources $ver in $out"
