#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Provide the DPDK driver-SDK headers that Debian's libdpdk-dev leaves out
# (it is built without enable_driver_sdk). Usage: get-dpdk-sdk-headers.sh <outdir>
#
# 1. If every header is already installed next to rte_eal.h, use those.
# 2. Otherwise take them from the Debian source package of exactly the
#    installed libdpdk-dev version (deb-src is enabled if needed) and copy
#    only those headers into <outdir>. A stamp records the version so a
#    DPDK upgrade refetches.
set -eu

HEADERS="lib/eal/include/bus_driver.h
lib/eal/include/dev_driver.h
lib/ethdev/ethdev_driver.h
lib/ethdev/ethdev_vdev.h
drivers/bus/vdev/bus_vdev_driver.h
drivers/bus/pci/bus_pci_driver.h"

die() {
	echo "get-dpdk-sdk-headers: error: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: $0 <output directory>"
out=$1

incdir=$(pkg-config --variable=includedir libdpdk 2>/dev/null) ||
	die "pkg-config cannot find libdpdk; install libdpdk-dev"
[ -f "$incdir/dpdk/rte_eal.h" ] && incdir="$incdir/dpdk"
pcver=$(pkg-config --modversion libdpdk)
debver=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed as a Debian package"

missing=0
for h in $HEADERS; do
	[ -f "$incdir/$(basename "$h")" ] || missing=1
done
mkdir -p "$out"
if [ $missing -eq 0 ]; then
	echo "get-dpdk-sdk-headers: using installed SDK headers in $incdir"
	rm -f "$out"/*.h
	echo "installed $pcver" > "$out/.stamp"
	exit 0
fi

if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "debian-src $debver" ]; then
	ok=1
	for h in $HEADERS; do
		[ -f "$out/$(basename "$h")" ] || ok=0
	done
	[ $ok -eq 1 ] && exit 0
fi

command -v apt-get >/dev/null || die "apt-get not found; install DPDK $pcver SDK headers by hand"
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
	die "apt-get source dpdk=$debver failed (is the Debian mirror reachable?)"
dsc=$(ls "$work"/*.dsc 2>/dev/null | head -n 1)
[ -n "$dsc" ] || die "no .dsc downloaded for dpdk=$debver"
(cd "$work" && dpkg-source --no-check -x "$dsc" src >/dev/null 2>&1) ||
	die "dpkg-source could not unpack $dsc"
srcver=$(cat "$work/src/VERSION" 2>/dev/null || echo unknown)
[ "$srcver" = "$pcver" ] || die "source VERSION $srcver does not match installed DPDK $pcver"

for h in $HEADERS; do
	[ -f "$work/src/$h" ] || die "$h missing from dpdk $debver source"
	cp "$work/src/$h" "$out/"
done
echo "debian-src $debver" > "$out/.stamp"
echo "get-dpdk-sdk-headers: extracted driver-SDK headers of dpdk $debver into $out"
