#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# The stock DPDK unit test pmd_perf_autotest (dpdk-test) over two ports of
# each transport, taking turns in the same run: rionet (two rio_sim mports
# on the built-in default fabric, in loopback mode: pmd_perf asks every port
# for lpbk_mode=1), rionet_shm (the same on that fabric with the timing model
# off: the shared-memory transport), net_memif (a server and a client port)
# and net_ring (two ports). pmd_perf sends to 00:AA:FF:AA:FF:AA and forwards
# what each port receives back out of the same port until 2 seconds' worth
# of packets at the reported link speed were received, then prints the
# cycles per packet of the rx/tx loop. This prints each result and the
# median per transport, and what the figure is: on the modelled links
# (rionet) the loop waits for the model's links and responses, so its
# cycles per packet are the model's bound, not CPU cost; on the others they
# are CPU cost.
#
# Usage: devtools/pmd-perf.sh [--runs N] [rionet|rionet_shm|memif|ring ...]
#   (default: 1 run of every transport; exit status 1 when a run fails)
# Environment: RIO_BUILD_DIR (default: build), DPDK_TEST_BIN (default: dpdk-test).

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
dpdk_test=${DPDK_TEST_BIN:-dpdk-test}
runs=1
transports=()

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?--runs needs a number}; shift ;;
	rionet|rionet_shm|memif|ring) transports+=("$1") ;;
	*) echo "pmd-perf: unknown argument '$1'" \
		"(usage: devtools/pmd-perf.sh [--runs N] [rionet|rionet_shm|memif|ring ...])" >&2
	   exit 2 ;;
	esac
	shift
done
[ ${#transports[@]} -gt 0 ] || transports=(rionet rionet_shm memif ring)
if ! command -v "$dpdk_test" >/dev/null; then
	echo "pmd-perf: $dpdk_test not found (apt-get install dpdk)" >&2
	exit 2
fi

name="pmdperf$$"
logdir="$builddir/pmd-perf"
mkdir -p "$logdir"
failed=0
declare -A results

# A run killed at its timeout leaves its fabric: rio_sim's objects live in
# the fabric directory (dpdk-rio-fabric dir), not in /dev/shm itself.
fabdir=$("$builddir/app/dpdk-rio-fabric" dir) || exit 1
cleanup() {
	rm -f "$fabdir"/rio_sim."$name" "$fabdir"/rio_sim."$name".*
	rm -rf /var/run/dpdk/"$name"
}
trap cleanup EXIT

# The shared-memory transport (timing model off), as bench.sh runs it.
shm_topo="$PWD/devtools/shm-transport.ini"

# What each transport's figure is.
declare -A meaning=(
	[rionet]="the timing model's bound on Gen2 x4 links (the loop waits for the model), not CPU cost"
	[rionet_shm]="CPU cost (shared-memory transport, timing model off)"
	[memif]="CPU cost"
	[ring]="CPU cost"
)

# The test forwards on a worker lcore.
. devtools/lcores.sh
lcores=$(rio_two_lcores)

for ((r = 1; r <= runs; r++)); do
	for t in "${transports[@]}"; do
		case $t in
		rionet) vdev=(-d "$PWD/$builddir/drivers" --vdev "rio_sim0,fabric=$name"
			      --vdev "rio_sim1,fabric=$name") ;;
		rionet_shm) vdev=(-d "$PWD/$builddir/drivers"
				  --vdev "rio_sim0,fabric=$name,topology=$shm_topo"
				  --vdev "rio_sim1,fabric=$name,topology=$shm_topo") ;;
		memif) vdev=(--vdev "net_memif0,role=server,id=0,socket=/$name.sock"
			     --vdev "net_memif1,role=client,id=0,socket=/$name.sock") ;;
		ring) vdev=(--vdev net_ring0 --vdev net_ring1) ;;
		esac
		log="$logdir/$t.$r.log"
		echo "DPDK_TEST=pmd_perf_autotest $dpdk_test $lcores --no-huge -m 512" \
			"--no-pci --file-prefix=$name ${vdev[*]}" > "$log"
		# pmd_perf waits forever for packets that do not come back: bounded.
		timeout --kill-after=5 240 env DPDK_TEST=pmd_perf_autotest "$dpdk_test" \
			"$lcores" --no-huge -m 512 --no-pci --file-prefix="$name" "${vdev[@]}" \
			</dev/null >>"$log" 2>&1
		rc=$?
		cycles=$(sed -n 's/^Result: \([0-9]*\) cycles per packet/\1/p' "$log")
		if [ $rc -ne 0 ] || ! grep -q '^Test OK' "$log" || [ -z "$cycles" ]; then
			echo "pmd-perf: $t run $r failed (exit status $rc); last lines of $log:"
			tail -n 15 "$log"
			failed=1
			continue
		fi
		echo "pmd-perf: $t run $r: $cycles cycles per packet"
		results[$t]="${results[$t]:-} $cycles"
		cleanup
	done
done

for t in "${transports[@]}"; do
	[ -n "${results[$t]:-}" ] || continue
	median=$(printf '%s\n' ${results[$t]} | sort -n |
		awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
	echo "pmd-perf: $t median: $median cycles per packet (runs:${results[$t]}):" \
		"${meaning[$t]}"
done
exit $failed
