#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Build and test this tree against another DPDK release than the host's, in
# a chroot of the Debian release that packages it: the release of the DPDK
# source tree RIO_DPDK_SRC picks it (24.11: Debian 13 "trixie", 22.11:
# Debian 12 "bookworm"). The tree's files (git's view: tracked and untracked,
# not ignored) are copied into the chroot's /root/dpdk-rio, and
# devtools/test.sh runs there with RIO_DPDK_SRC pointing at a read-only view
# of the tree (the driver-SDK headers come from it: the Debian source package
# cannot always be fetched).
#
# Usage: devtools/chroot-test.sh [--full | --shell] [--fresh]
#   (default)  devtools/test.sh --quick with RIO_SANITIZE=0 in the chroot:
#              the build, every fast autotest, the stock dpdk-test and
#              testpmd of that release with our plugins, the docs;
#   --full     the whole devtools/test.sh (perf tests, sanitizer and fuzz
#              builds too);
#   --shell    an interactive shell in the chroot, set up the same way;
#   --fresh    also when the host's DPDK is of that release (by default
#              devtools/test.sh tests it directly): the tree on a fresh
#              machine of that Debian release, where nothing installed by
#              hand exists.
# Environment:
#   RIO_DPDK_SRC       the DPDK source tree (required), for example
#                      git -C <dpdk clone> archive v24.11 | tar -x -C <dir>
#   RIO_CHROOT_DIR     where the chroot lives (default build-debian<N>, N the
#                      Debian release; its root filesystem is <dir>/root)
#   RIO_DEBIAN_MIRROR  (default http://deb.debian.org/debian)
#
# Cost: the first run makes the chroot (debootstrap, about 4 minutes), installs
# the packages (devtools/setup.sh, a few minutes) and builds from scratch; later
# runs reuse the chroot, its package cache and its build directories, and copy
# only the files that changed (rsync), so they cost an incremental build plus
# the tests. Needs root. Everything is mounted in a private mount and PID
# namespace (unshare): the mounts (/proc, /sys, a private /dev/shm, devpts,
# the DPDK tree) and every process started in the chroot go away with this
# script, however it ends (even killed).
#
# Exit status: 0 when the tests passed, 1 when something failed, 77 when the
# check cannot run here (the reason is printed: "chroot-test: skip: ...").
# The inner devtools/test.sh prints its "test: PASS|FAIL|SKIP <name>" lines
# and its "N passed, N failed" summary as usual.

set -uo pipefail

self=$(realpath "$0")
cd "$(dirname "$self")/.."

die() {
	echo "chroot-test: error: $*" >&2
	exit 1
}

skip() {
	echo "chroot-test: skip: $*"
	exit 77
}

note() {
	echo "chroot-test: $*"
}

# host_tool <command>: true when the host has it, installing the Debian
# package of that name with apt-get if it is missing (root only).
host_tool() {
	command -v "$1" >/dev/null && return 0
	command -v apt-get >/dev/null || return 1
	note "$1 not found: apt-get install $1 (log: $dir/apt-$1.log)"
	{ DEBIAN_FRONTEND=noninteractive apt-get update &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1"; } \
		</dev/null >"$dir/apt-$1.log" 2>&1
	command -v "$1" >/dev/null
}

release() {	# release <version>: "24.11" of "24.11.3"
	echo "$1" | cut -d. -f1,2
}

mode=quick
inner_ns=0
fresh=0
for arg in "$@"; do
	case "$arg" in
	--full) mode=full ;;
	--shell) mode=shell ;;
	--fresh) fresh=1 ;;
	--in-namespace) inner_ns=1 ;;
	*) echo "chroot-test: error: unknown option '$arg'" \
		"(usage: devtools/chroot-test.sh [--full | --shell] [--fresh])" >&2
	   exit 2 ;;
	esac
done

[ -n "${RIO_DPDK_SRC:-}" ] ||
	skip "RIO_DPDK_SRC is not set (a DPDK source tree of the release to test)"
dpdk_src=$(cd "$RIO_DPDK_SRC" 2>/dev/null && pwd) ||
	die "RIO_DPDK_SRC=$RIO_DPDK_SRC is not a directory"
[ -f "$dpdk_src/VERSION" ] ||
	die "RIO_DPDK_SRC=$dpdk_src is not a DPDK source tree (no VERSION file)"
dpdk_ver=$(cat "$dpdk_src/VERSION")
dpdk_rel=$(release "$dpdk_ver")

# The Debian release that packages each DPDK LTS release.
case $dpdk_rel in
22.11) debian=12 suite=bookworm ;;
24.11) debian=13 suite=trixie ;;
*) skip "RIO_DPDK_SRC is DPDK $dpdk_ver: no Debian release known here packages $dpdk_rel" ;;
esac

host_ver=$(pkg-config --modversion libdpdk 2>/dev/null || true)
if [ $fresh = 0 ] && [ -n "$host_ver" ] && [ "$(release "$host_ver")" = "$dpdk_rel" ]; then
	skip "the host's DPDK is $host_ver, of release $dpdk_rel: devtools/test.sh tests it directly"
fi

dir=${RIO_CHROOT_DIR:-build-debian$debian}
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
root=$dir/root
mirror=${RIO_DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [ $inner_ns -eq 0 ]; then
	[ "$(id -u)" -eq 0 ] || skip "not root (making and entering a chroot needs root)"
	command -v unshare >/dev/null || skip "unshare (util-linux) not found"
	host_tool rsync ||
		skip "rsync not found, and apt-get could not install it (log: $dir/apt-rsync.log)"
	if [ ! -f "$root/.rio-chroot-ready" ]; then
		host_tool debootstrap ||
			skip "no Debian $debian chroot in $dir and no debootstrap to make one:" \
				"apt-get could not install it (log: $dir/apt-debootstrap.log)"
		[ -e "/usr/share/debootstrap/scripts/$suite" ] ||
			skip "no Debian $debian chroot in $dir and this debootstrap does not know $suite"
	fi
	# One run per chroot at a time; the lock goes with the process.
	exec 9>"$dir/.lock"
	flock -n 9 || die "another run uses $dir (lock $dir/.lock)"
	note "DPDK $dpdk_ver from $dpdk_src, Debian $debian ($suite) chroot in $root, mode $mode"
	# --kill-child: when this script ends, however, everything in the PID
	# namespace is killed, and the mount namespace goes with it.
	exec unshare --mount --pid --fork --kill-child --propagation private -- \
		"$self" "$@" --in-namespace
fi

# ---- in the private namespaces from here on

mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null
	done
	mounted=()
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mnt() {	# mnt <target> <mount arguments...>
	local target=$1
	shift
	mount "$@" "$target" || die "mount $* $target failed"
	mounted+=("$target")
}

if [ ! -f "$root/.rio-chroot-ready" ]; then
	if grep -qF " $root/" /proc/self/mountinfo; then
		die "something is mounted under $root: unmount it first"
	fi
	rm -rf "$root"
	note "making the Debian $debian chroot with debootstrap (log: $dir/debootstrap.log)"
	start=$SECONDS
	debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$dir/debootstrap.log" 2>&1 || {
		tail -n 20 "$dir/debootstrap.log"
		die "debootstrap $suite failed"
	}
	rm -f "$root/etc/apt/sources.list"
	security=${mirror%/debian}/debian-security
	cat > "$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	# No service may start from a package's install script.
	printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	touch "$root/.rio-chroot-ready"
	note "chroot made in $((SECONDS - start)) s"
fi

cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# The chroot's / a mount point of its own, as a container's is: programs
# that change the propagation of / (unshare --mount-proc, which
# rio_sim_security_autotest runs) fail with EINVAL on a plain directory.
mnt "$root" --bind "$root"
mnt "$root/proc" -t proc proc
# Writable: rionet_mp_autotest reserves hugepages as on the host.
mnt "$root/sys" -t sysfs sysfs
mnt "$root/dev/shm" -t tmpfs -o mode=1777,size=4g tmpfs
mnt "$root/dev/pts" -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts
mnt "$root/dev/ptmx" --bind "$root/dev/pts/ptmx"
mkdir -p "$root/dpdk-src"
mnt "$root/dpdk-src" --bind -o ro "$dpdk_src"
# The hugepage reservation lock of rionet_mp_autotest, shared with the host's
# runs: both change the same nr_hugepages.
hp_lock=/run/dpdk-rio-test-hugepages.lock
if touch "$hp_lock" 2>/dev/null; then
	touch "$root$hp_lock"
	mnt "$root$hp_lock" --bind "$hp_lock"
fi

note "copying the tree into $root/root/dpdk-rio"
mkdir -p "$root/root/dpdk-rio"
# What git sees (tracked and untracked, not ignored): .gitignore's patterns
# are excluded on both sides, so the chroot's build directories stay.
rsync -a --delete --exclude=/.git --filter=':- .gitignore' ./ "$root/root/dpdk-rio/" ||
	die "rsync of the tree failed"

# RIO_CHROOT_TEST=0: the suite inside does not look for yet another release.
env_in=(env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}"
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	RIO_DPDK_SRC=/dpdk-src RIO_CHROOT_TEST=0)
case $mode in
shell)
	chroot "$root" "${env_in[@]}" bash -c 'cd /root/dpdk-rio && exec bash -i' 9>&-
	exit $?
	;;
full)
	inner="bash devtools/test.sh"
	;;
*)
	inner="RIO_SANITIZE=0 bash devtools/test.sh --quick"
	;;
esac
note "running in the chroot: cd /root/dpdk-rio && $inner"
chroot "$root" "${env_in[@]}" bash -c "cd /root/dpdk-rio && $inner" </dev/null 9>&-
rc=$?
[ $rc -eq 0 ] || rc=1
exit $rc
