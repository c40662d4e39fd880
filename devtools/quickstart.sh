#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Install what is missing, build, and run the main job on the built-in
# default fabric (no topology file, no hugepages, no hardware).
#
# Usage: devtools/quickstart.sh [--no-setup]
#   --no-setup   do not run devtools/setup.sh first (the tree is built)
# Environment: RIO_BUILD_DIR (default: build).

set -euo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}

die() {
	echo "quickstart: error: $*" >&2
	exit 1
}

case "${1:-}" in
--no-setup) ;;
"") bash devtools/setup.sh ;;
*) die "unknown option '$1' (usage: devtools/quickstart.sh [--no-setup])" ;;
esac

demo="$builddir/examples/dpdk-rio-msg"
eal=(--no-huge -m 256 --no-pci --file-prefix=quickstart_$$)

[ -x "$demo" ] || die "$demo was not built (is examples/rio_msg in the tree?)"

cat <<MSG
quickstart: main job: $demo ${eal[*]}
quickstart: one process creates an emulated RapidIO fabric in shared memory
quickstart: (the built-in default topology: endpoints behind one switch) and
quickstart: opens two master ports on it (two rio_sim rawdevs). Each port
quickstart: announces itself with a JOIN doorbell, they exchange mailbox
quickstart: messages of 8 to 4096 bytes in both directions, say LEAVE, and the
quickstart: demo checks that everything arrived intact.
MSG

rc=0
timeout --kill-after=5 120 "$demo" "${eal[@]}" </dev/null || rc=$?
if [ $rc -eq 0 ]; then
	echo "quickstart: OK: the demo finished successfully"
elif [ $rc -eq 124 ]; then
	echo "quickstart: FAILED: the demo did not finish within 120 s" >&2
else
	echo "quickstart: FAILED: the demo exited with status $rc" >&2
fi
exit $rc
