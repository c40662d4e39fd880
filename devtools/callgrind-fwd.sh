#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Instructions per forwarded frame of benchmark scenario 1 (one stock
# dpdk-testpmd, two ports, --forward-mode=io after "start tx_first"),
# counted by valgrind's callgrind: deterministic, so it can be compared
# between builds on a loaded machine where rates cannot. See
# doc/guides/perf/index.rst ("Where the cycles go").
#
# Usage: devtools/callgrind-fwd.sh <rionet|rionet_zc|tsi721|memif> <frame size> [seconds] [out dir]
#   rionet_zc  rionet with rx_zero_copy=1 on both ports
#   tsi721     port 0 rionet over the tsi721 driver on the model of the part,
#              port 1 rionet over rio_sim (bench.sh's tsi721 transport); the
#              forwarding thread runs the driver, the model and rio_sim, and
#              the driver's own share is printed on a line of its own
#   seconds   forwarding time under valgrind (default 10)
#   out dir   callgrind files and testpmd's log (default <build>/callgrind-fwd)
# Environment: RIO_BUILD_DIR (default: build), RIO_TESTPMD (default:
# dpdk-testpmd from PATH).
#
# Prints one line: transport, size, frames forwarded (RX-packets of both
# ports), instructions of the forwarding lcore's thread, their ratio, and
# the callgrind file of that thread; then its functions with at least 0.5
# instructions per frame (self cost, summed over inlined copies).
# Instructions are not time: a "rep movsb" copy (glibc memcpy() of a few KiB)
# counts as a handful, and cache misses count nothing.

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
testpmd=${RIO_TESTPMD:-$(command -v dpdk-testpmd || echo /usr/bin/dpdk-testpmd)}

die() {
	echo "callgrind-fwd: error: $*" >&2
	exit 2
}

[ $# -ge 2 ] || die "usage: $0 <rionet|rionet_zc|tsi721|memif> <frame size> [seconds] [out dir]"
t=$1
size=$2
secs=${3:-10}
out=${4:-$builddir/callgrind-fwd}
[[ $size =~ ^[0-9]+$ ]] && [ "$size" -ge 64 ] && [ "$size" -le 4096 ] ||
	die "frame size '$size' not in 64..4096"
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "seconds must be a positive integer"
command -v valgrind >/dev/null || die "valgrind not installed (apt-get install valgrind)"
[ -x "$testpmd" ] || die "dpdk-testpmd not found (apt-get install dpdk)"

name="cgfwd$$"
case $t in
rionet|rionet_zc)
	[ -d "$builddir/drivers" ] || die "$builddir/drivers missing (ninja -C $builddir)"
	vdev=(-d "$builddir/drivers" --vdev "rio_sim0,fabric=$name" --vdev "rio_sim1,fabric=$name")
	[ "$t" = rionet_zc ] && vdev+=(-a "rio:rio_sim0-e0000,rx_zero_copy=1"
				       -a "rio:rio_sim1-e0001,rx_zero_copy=1")
	opts=(--eth-peer=0,00:01:00:01:00:01 --eth-peer=1,00:01:00:01:00:00)
	;;
tsi721)
	[ -d "$builddir/drivers" ] || die "$builddir/drivers missing (ninja -C $builddir)"
	vdev=(-d "$builddir/drivers" --vdev "tsi721_model0,fabric=$name,endpoint=ep0,host=0"
	      --vdev "rio_sim1,fabric=$name,endpoint=ep1")
	opts=(--eth-peer=0,00:01:00:01:00:01 --eth-peer=1,00:01:00:01:00:00)
	;;
memif)
	vdev=(--vdev "net_memif0,role=server,id=0,socket=/$name.sock"
	      --vdev "net_memif1,role=client,id=0,socket=/$name.sock")
	opts=()
	;;
*)
	die "unknown transport '$t' (rionet, rionet_zc, tsi721, memif)"
	;;
esac
# The same options as devtools/bench.sh scenario 1.
pre=(--total-num-mbufs=16384)
[ "$size" -gt 1500 ] && pre+=(--mbuf-size=4352)
[ "$size" -gt 1500 ] && { [ "$t" = rionet ] || [ "$t" = tsi721 ]; } && opts+=(--max-pkt-len="$size")

mkdir -p "$out" || die "cannot create $out"
rm -f "$out"/callgrind.out.* "$out/fifo"
mkfifo "$out/fifo" || die "mkfifo $out/fifo"
pid=
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -f "$out/fifo" /dev/shm/rio_sim."$name"*
	rm -rf /run/user/$(id -u)/dpdk/"$name" /var/run/dpdk/"$name" 2>/dev/null
}
trap cleanup EXIT

timeout -k 10 -s INT $((secs + 240)) valgrind --tool=callgrind --separate-threads=yes \
	--callgrind-out-file="$out/callgrind.out.%p" \
	"$testpmd" --no-huge --no-pci -m 512 --file-prefix="$name" --lcores=0@0,1@1 \
	--log-level=lib.eal:error "${vdev[@]}" -- "${pre[@]}" --txpkts="$size" "${opts[@]}" \
	--forward-mode=io --nb-cores=1 -i <"$out/fifo" >"$out/testpmd.log" 2>&1 &
pid=$!
exec 3>"$out/fifo"
for ((i = 0; i < 240; i++)); do
	grep -q "testpmd>" "$out/testpmd.log" && break
	kill -0 "$pid" 2>/dev/null || die "testpmd exited (log: $out/testpmd.log)"
	sleep 0.5
done
echo "start tx_first" >&3
sleep "$secs"
echo "stop" >&3
for ((i = 0; i < 60; i++)); do
	grep -q "Accumulated forward statistics for all ports" "$out/testpmd.log" && break
	sleep 0.5
done
echo "quit" >&3
exec 3>&-
wait "$pid"
pid=

frames=$(grep -A1 "Accumulated forward statistics for all ports" "$out/testpmd.log" |
	grep -oE "RX-packets: +[0-9]+" | awk '{print $2}')
[ -n "$frames" ] && [ "$frames" -gt 0 ] || die "no frames forwarded (log: $out/testpmd.log)"
# The forwarding lcore is the thread that executed the most instructions.
best=0
file=
for f in "$out"/callgrind.out.*; do
	ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
	if [ "${ir:-0}" -gt "$best" ]; then
		best=$ir
		file=$f
	fi
done
[ -n "$file" ] || die "no callgrind output in $out"
awk -v t="$t" -v s="$size" -v fr="$frames" -v ir="$best" -v f="$file" \
	'BEGIN { printf "%s %s B: %.0f frames, %.0f instructions, %.1f per frame (%s)\n",
		 t, s, fr, ir, ir / fr, f }'
callgrind_annotate --auto=no --threshold=100 "$file" 2>/dev/null > "$out/annotate.txt"
# The tsi721 driver's own instructions: its source file, not the model's.
[ "$t" = tsi721 ] && awk -v fr="$frames" '
	/file:function/ { go = 1; next }
	go && NF >= 2 && /tsi721_mport\.c:/ { v = $1; gsub(",", "", v); s += v }
	END { printf "tsi721 driver (tsi721_mport.c): %.1f per frame\n", s / fr }' "$out/annotate.txt"
awk -v fr="$frames" '
	/file:function/ { go = 1; next }
	go && NF >= 2 {
		v = $1; gsub(",", "", v)
		fn = $0; sub(/^ *[0-9,]+ +\([ 0-9.%]+\) */, "", fn); sub(/ \[.*/, "", fn)
		n = split(fn, a, ":"); s[a[n]] += v
	}
	END { for (f in s) if (s[f] / fr >= 0.5) printf "%8.1f  %s\n", s[f] / fr, f }' \
	"$out/annotate.txt" | sort -rn
