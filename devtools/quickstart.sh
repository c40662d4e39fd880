#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Install what is missing, build, and run the main job on the built-in
# default fabric (no topology file, no hugepages, no hardware): the stock
# dpdk-testpmd with two rionet ports that forward to each other over an
# emulated RapidIO fabric.
#
# Usage: devtools/quickstart.sh [--no-setup] [--seconds N]
#   --no-setup   do not run devtools/setup.sh first (the tree is built)
#   --seconds N  how long testpmd forwards (default 10)
# Environment: RIO_BUILD_DIR (default: build).

set -euo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
seconds=10
setup=1

die() {
	echo "quickstart: error: $*" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case "$1" in
	--no-setup) setup=0 ;;
	--seconds)
		[ $# -ge 2 ] || die "--seconds needs a value"
		seconds=$2
		shift
		;;
	*) die "unknown option '$1' (usage: devtools/quickstart.sh [--no-setup] [--seconds N])" ;;
	esac
	shift
done
case "$seconds" in
''|*[!0-9]*) die "--seconds takes a whole number of seconds, not '$seconds'" ;;
esac
[ "$seconds" -ge 2 ] && [ "$seconds" -le 3600 ] || die "--seconds must be 2..3600"

[ $setup -eq 1 ] && bash devtools/setup.sh

testpmd=$(command -v dpdk-testpmd) || die "dpdk-testpmd not found (package dpdk)"
plugins="$PWD/$builddir/drivers"
[ -f "$plugins/librte_net_rionet.so" ] || die "$plugins/librte_net_rionet.so was not built"

# A fabric of our own: the built-in default topology (one switch, ep0 the
# host with device ID 0, ep1 with device ID 1) under a name no other run uses.
fabric=quickstart_$$
log=$(mktemp)
cleanup() {
	rm -f "$log"
	"$builddir/app/dpdk-rio-fabric" destroy "$fabric" >/dev/null 2>&1 || true
}
trap cleanup EXIT

. devtools/lcores.sh
cmd=("$testpmd" "$(rio_two_lcores)" --no-huge -m 512 --no-pci --file-prefix="$fabric"
	-d "$plugins"
	--vdev "rio_sim0,fabric=$fabric" --vdev "rio_sim1,fabric=$fabric"
	-- --total-num-mbufs=16384 --forward-mode=io --tx-first --stats-period 2
	--eth-peer=0,00:01:00:01:00:01 --eth-peer=1,00:01:00:01:00:00)

cat <<MSG
quickstart: main job, for ${seconds} s:
  ${cmd[*]}
quickstart: rio_sim0 and rio_sim1 are two master ports on one emulated fabric
quickstart: (rio_sim0 enumerates it as host, rio_sim1 discovers it); rionet binds
quickstart: to each and the stock testpmd gets two Ethernet ports whose frames
quickstart: travel as RapidIO mailbox messages. Port 0 sends to the rionet MAC of
quickstart: device ID 1 and port 1 to device ID 0, so they forward to each other.

MSG

rc=0
"${cmd[@]}" </dev/null >"$log" 2>&1 &
pid=$!
sleep "$seconds"
if kill -0 "$pid" 2>/dev/null; then
	kill -INT "$pid"
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
fi
wait "$pid" || rc=$?

# testpmd's own lines: the ports it found and its final totals.
grep -E "^Port [0-9]+: 00:01:00:01|Link Up|Accumulated forward statistics|RX-packets:|TX-packets:" \
	"$log" | tail -n 12 || true

# Totals from the last "Accumulated forward statistics for all ports" block.
read -r rx tx < <(awk '
	/Accumulated forward statistics for all ports/ { inacc = 1; next }
	inacc && /RX-packets:/ { for (i = 1; i < NF; i++) if ($i == "RX-packets:") rx = $(i + 1) }
	inacc && /TX-packets:/ { for (i = 1; i < NF; i++) if ($i == "TX-packets:") tx = $(i + 1) }
	END { print (rx == "" ? 0 : rx), (tx == "" ? 0 : tx) }' "$log")
ports=$(grep -c "^Port [0-9]*: 00:01:00:01" "$log" || true)

echo
if [ "$rc" -ne 0 ] || [ "$ports" -lt 2 ] || [ "$rx" -le 0 ] || [ "$tx" -le 0 ]; then
	echo "quickstart: FAILED: testpmd exit status $rc, $ports rionet ports, RX $rx, TX $tx" >&2
	echo "quickstart: testpmd output:" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
echo "quickstart: OK: testpmd forwarded over rionet: $rx packets received, $tx sent in ${seconds} s"
