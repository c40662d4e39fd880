#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Provide the DPDK driver-SDK headers that Debian's libdpdk-dev leaves out
# (it is built without enable_driver_sdk). Usage: get-dpdk-sdk-headers.sh <outdir>
#
# 1. If every header is already installed next to rte_eal.h, use those.
# 2. Otherwise, if RIO_DPDK_SRC names a DPDK source tree (a git checkout or
#    a release tarball of dpdk.org), take them from it. Its VERSION must be
#    of the installed DPDK's release (22.11, 24.11...); a different patch
#    level of that release is accepted with a note. Later runs without the
#    variable keep them while the installed DPDK stays the same.
# 3. Otherwise take them from the Debian source package of exactly the
#    installed libdpdk-dev version (deb-src is enabled if needed).
# Only those headers are copied into <outdir>, and only when their contents
# changed (an unchanged header keeps its time stamp: no rebuild). A stamp
# records where they came from, so a DPDK upgrade fetches them again.
set -eu

HEADERS="lib/eal/include/bus_driver.h
lib/eal/include/dev_driver.h
lib/ethdev/ethdev_driver.h
lib/ethdev/ethdev_vdev.h
lib/dmadev/rte_dmadev_pmd.h
drivers/bus/vdev/bus_vdev_driver.h
drivers/bus/pci/bus_pci_driver.h"

die() {
	echo "get-dpdk-sdk-headers: error: $*" >&2
	exit 1
}

# release <version>: "24.11" of "24.11.3"
release() {
	echo "$1" | cut -d. -f1,2
}

# have_headers <dir>: every header is in <dir> (flat)
have_headers() {
	for h in $HEADERS; do
		[ -f "$1/$(basename "$h")" ] || return 1
	done
}

# copy_headers <source tree> <stamp>: copy the headers that changed, write the stamp
copy_headers() {
	for h in $HEADERS; do
		[ -f "$1/$h" ] || die "$h missing from $1"
	done
	for h in $HEADERS; do
		dst="$out/$(basename "$h")"
		cmp -s "$1/$h" "$dst" 2>/dev/null || cp "$1/$h" "$dst"
	done
	echo "$2" > "$out/.stamp"
}

[ $# -eq 1 ] || die "usage: $0 <output directory>"
out=$1

incdir=$(pkg-config --variable=includedir libdpdk 2>/dev/null) ||
	die "pkg-config cannot find libdpdk; install libdpdk-dev"
[ -f "$incdir/dpdk/rte_eal.h" ] && incdir="$incdir/dpdk"
pcver=$(pkg-config --modversion libdpdk)
hint="set RIO_DPDK_SRC to a DPDK $(release "$pcver") source tree"

mkdir -p "$out"
if have_headers "$incdir"; then
	echo "get-dpdk-sdk-headers: using installed SDK headers in $incdir"
	rm -f "$out"/*.h
	echo "installed $pcver" > "$out/.stamp"
	exit 0
fi

if [ -n "${RIO_DPDK_SRC:-}" ]; then
	src=$(cd "$RIO_DPDK_SRC" 2>/dev/null && pwd) ||
		die "RIO_DPDK_SRC=$RIO_DPDK_SRC is not a directory"
	[ -f "$src/VERSION" ] ||
		die "RIO_DPDK_SRC=$src is not a DPDK source tree (no VERSION file)"
	srcver=$(cat "$src/VERSION")
	[ "$(release "$srcver")" = "$(release "$pcver")" ] ||
		die "RIO_DPDK_SRC=$src is DPDK $srcver, the installed DPDK is $pcver: $hint"
	stamp="dpdk-src $src $srcver for $pcver"
	if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] &&
		have_headers "$out"; then
		exit 0
	fi
	copy_headers "$src" "$stamp"
	note=""
	[ "$srcver" = "$pcver" ] || note=" (same release as the installed $pcver)"
	echo "get-dpdk-sdk-headers: took the driver-SDK headers of DPDK $srcver$note" \
		"from $src into $out"
	exit 0
fi

# Without RIO_DPDK_SRC, headers a tree gave for this same installed DPDK stay
# (meson reconfigures the build without the variable).
if [ -f "$out/.stamp" ] && have_headers "$out"; then
	case $(cat "$out/.stamp") in
	"dpdk-src "*" for $pcver") exit 0 ;;
	esac
fi

debver=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed as a Debian package; $hint"
stamp="debian-src $debver"
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] && have_headers "$out"; then
	exit 0
fi

command -v apt-get >/dev/null || die "apt-get not found; $hint"
command -v dpkg-source >/dev/null ||
	die "dpkg-source not found; run: apt-get install dpkg-dev"

# deb-src must be enabled for apt-get source.
if ! apt-get source --print-uris "dpdk=$debver" >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || die "deb-src is not enabled and we are not root to enable it"
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
			> /etc/apt/sources.list.d/dpdk-rio-src.sources
	elif [ -f /etc/apt/sources.list ]; then
		grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
			> /etc/apt/sources.list.d/dpdk-rio-src.list
	else
		die "no apt sources found to derive deb-src from"
	fi
	apt-get update -qq >/dev/null || die "apt-get update failed"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
(cd "$work" && apt-get source -qq --download-only "dpdk=$debver" >/dev/null 2>&1) ||
	die "apt-get source dpdk=$debver failed (is the Debian mirror reachable?); or $hint"
dsc=$(ls "$work"/*.dsc 2>/dev/null | head -n 1)
[ -n "$dsc" ] || die "no .dsc downloaded for dpdk=$debver"
(cd "$work" && dpkg-source --no-check -x "$dsc" src >/dev/null 2>&1) ||
	die "dpkg-source could not unpack $dsc"
srcver=$(cat "$work/src/VERSION" 2>/dev/null || echo unknown)
[ "$srcver" = "$pcver" ] || die "source VERSION $srcver does not match installed DPDK $pcver"

copy_headers "$work/src" "$stamp"
echo "get-dpdk-sdk-headers: extracted driver-SDK headers of dpdk $debver into $out"
