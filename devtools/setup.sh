#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Install what is missing (Debian 12 or 13), then configure and build into
# build/. Idempotent: a second run installs nothing and only rebuilds what
# changed.
#
# Usage: devtools/setup.sh
# Environment: RIO_BUILD_DIR (default: build), relative to the repository root;
# RIO_DPDK_SRC (optional): a DPDK source tree of the installed release for the
# driver-SDK headers (see buildtools/get-dpdk-sdk-headers.sh); a tree of
# another release is left to devtools/chroot-test.sh.

set -euo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}

PACKAGES="dpdk dpdk-dev libdpdk-dev meson ninja-build pkg-config gcc libc6-dev
python3-pyelftools libnuma-dev dpkg-dev xz-utils python3-sphinx g++ make
clang"

die() {
	echo "setup: error: $*" >&2
	exit 1
}

note() {
	echo "setup: $*"
}

command -v dpkg-query >/dev/null 2>&1 ||
	die "this script supports Debian 12 and 13 (dpkg not found); install by hand:" \
		"$PACKAGES and the sanitizer runtime of clang"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# The fuzz build links clang's sanitizer runtimes, packaged per clang
# version: libclang-rt-14-dev on Debian 12, libclang-rt-19-dev on Debian 13.
# Empty when apt knows no package lists yet.
clang_rt_package() {
	apt-cache depends clang 2>/dev/null |
		sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/libclang-rt-\1-dev/p' | head -n 1
}

rt=$(clang_rt_package)
missing=()
for p in $PACKAGES $rt; do
	installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	note "missing packages: ${missing[*]}"
	if [ "$(id -u)" -eq 0 ]; then
		sudo=()
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo=(sudo -n)
	else
		die "missing packages (${missing[*]}); run as root, or: sudo apt-get install ${missing[*]}"
	fi
	apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
	aptlog=$(mktemp)
	trap 'rm -f "$aptlog"' EXIT
	if ! "${apt[@]}" update >"$aptlog" 2>&1; then
		tail -n 20 "$aptlog" >&2
		die "apt-get update failed (is a Debian mirror reachable?)"
	fi
	if [ -z "$rt" ]; then
		rt=$(clang_rt_package)
		[ -n "$rt" ] || die "apt-cache finds no clang package to take its sanitizer runtime from"
		installed "$rt" || missing+=("$rt")
	fi
	if ! "${apt[@]}" install -y --no-install-recommends "${missing[@]}" \
		</dev/null >"$aptlog" 2>&1; then
		tail -n 20 "$aptlog" >&2
		die "apt-get install ${missing[*]} failed"
	fi
	note "installed with apt-get: ${missing[*]}"
elif [ -z "$rt" ]; then
	note "all required packages are installed, but apt has no package lists to tell" \
		"which libclang-rt-N-dev clang needs (the fuzz build needs it): run apt-get update"
else
	note "all required packages are installed"
fi

pkg-config --exists 'libdpdk >= 22.11' ||
	die "pkg-config finds no libdpdk >= 22.11 (found: $(pkg-config --modversion libdpdk 2>&1))"

# A DPDK source tree of another release than the installed one is for
# devtools/chroot-test.sh, not for this build (and meson, which runs ninja's
# reconfigurations, inherits our environment).
if [ -n "${RIO_DPDK_SRC:-}" ] && [ -f "$RIO_DPDK_SRC/VERSION" ]; then
	src_rel=$(cut -d. -f1,2 "$RIO_DPDK_SRC/VERSION")
	inst_ver=$(pkg-config --modversion libdpdk)
	if [ "$src_rel" != "$(echo "$inst_ver" | cut -d. -f1,2)" ]; then
		note "RIO_DPDK_SRC is DPDK $src_rel, the installed DPDK is $inst_ver:" \
			"not used for this build (devtools/chroot-test.sh tests against it)"
		unset RIO_DPDK_SRC
	fi
fi

# meson runs this too; running it first gives a clear error before configuring.
sh buildtools/get-dpdk-sdk-headers.sh "$builddir/sdk-headers" ||
	die "could not provide the DPDK driver-SDK headers (see above)"

if [ ! -f "$builddir/build.ninja" ]; then
	if [ -d "$builddir/meson-private" ]; then
		note "previous configuration of $builddir is incomplete; reconfiguring from scratch"
		meson setup --wipe "$builddir" || die "meson setup failed"
	else
		meson setup "$builddir" || die "meson setup failed"
	fi
fi
# ninja re-runs meson by itself when a meson.build changed.
ninja -C "$builddir" || die "build failed"
note "build complete in $builddir/ (plugins in $builddir/drivers)"
