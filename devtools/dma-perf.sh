#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Stock dpdk-test-dma-perf (DPDK 23.07 and later: Debian 13's dpdk package
# has it, Debian 12's 22.11 does not) over the dma_rio dmadev: NWRITE
# (dir=mem2dev) and NREAD (dir=dev2mem) between its DMA memory and an
# inbound window of another endpoint, on modelled links.
#
#   ep0: dpdk-test-dma-perf, --vdev rio_sim0 (or tsi721_model0) and
#        --vdev dma_rio0,destid=1 (the plugin loaded with -d)
#   ep1: dpdk-rio-bench window: 16 MiB at RapidIO address 0x1000000
#
# dma-perf's mem2dev/dev2mem cases put buffer i at raddr + i * (size + 128):
# the window holds them with --mem-mb up to 4. Each buffer size is a
# scenario of test_seconds; the goodput (payload bytes per second) is
# printed beside the link's ceiling for that transaction: 256-byte payloads
# per packet, with the packet's header, CRC and delimiters as rio_sim times
# them (8-bit IDs, 34-bit addresses).
#
# Usage: devtools/dma-perf.sh [--mport rio_sim|tsi721] [--link LxB]
#                             [--sizes FIRST,LAST] [--seconds N] [--mem-mb N] [--out DIR]
#   --mport    the initiator's master port (default rio_sim; tsi721: our
#              Tsi721 driver on its register-level model)
#   --link     lanes x Gbaud of every link (default 4x5: Gen2 x4)
#   --sizes    buffer sizes, first and last, doubling (default 64,32768; dma-perf's
#              mbufs hold 65535 bytes with their headroom, so 32768 at most)
#   --seconds  dma-perf's test_seconds per size (default 1)
# Environment: RIO_BUILD_DIR (default build), RIO_DMA_PERF (default
# dpdk-test-dma-perf from PATH).
# Exit status: 0 every case ran without error, 1 failure, 77 skip (no
# dpdk-test-dma-perf; the reason is printed as "dma-perf: skip: ...").

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
dmaperf=${RIO_DMA_PERF:-$(command -v dpdk-test-dma-perf || true)}
benchbin="$builddir/app/rio-bench/dpdk-rio-bench"
mport=rio_sim
link=4x5
sizes=64,32768
seconds=1
mem_mb=2
outdir=""
win_addr=0x1000000
win_size=0x1000000

die() {
	echo "dma-perf: error: $*" >&2
	exit 1
}

need_arg() {
	[ $# -ge 2 ] && [ -n "$2" ] || die "option $1 needs a value (see the top of $0)"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--mport) need_arg "$@"; mport=$2; shift ;;
	--link) need_arg "$@"; link=$2; shift ;;
	--sizes) need_arg "$@"; sizes=$2; shift ;;
	--seconds) need_arg "$@"; seconds=$2; shift ;;
	--mem-mb) need_arg "$@"; mem_mb=$2; shift ;;
	--out) need_arg "$@"; outdir=$2; shift ;;
	-h|--help) sed -n '/^# Usage:/,/^# Exit status/p' "$0" | sed 's/^# \?//'; exit 0 ;;
	*) die "unknown option '$1' (see the top of $0)" ;;
	esac
	shift
done

case $mport in rio_sim|tsi721) ;; *) die "--mport $mport: rio_sim or tsi721" ;; esac
link_lanes=${link%%x*}
link_baud=${link#*x}
case $link_lanes in 1|2|4|8|16) ;; *) die "--link $link: lanes are 1, 2, 4, 8 or 16" ;; esac
case $link_baud in 1.25|2.5|3.125|5|6.25|10.3125|12.5) ;;
*) die "--link $link: Gbaud is 1.25, 2.5, 3.125, 5, 6.25, 10.3125 or 12.5" ;;
esac
[[ $sizes =~ ^([0-9]+),([0-9]+)$ ]] || die "--sizes FIRST,LAST"
size_first=${BASH_REMATCH[1]}
size_last=${BASH_REMATCH[2]}
[ "$size_first" -ge 8 ] && [ "$size_last" -ge "$size_first" ] && [ "$size_last" -le 32768 ] ||
	die "--sizes: 8 <= FIRST <= LAST <= 32768 (dma-perf's mbufs)"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "--seconds must be a positive integer"
[[ $mem_mb =~ ^[1-4]$ ]] || die "--mem-mb is 1 to 4 (the window holds 16 MiB)"

if [ -z "$dmaperf" ] || [ ! -x "$dmaperf" ]; then
	ver=$(pkg-config --modversion libdpdk 2>/dev/null || echo unknown)
	echo "dma-perf: skip: no dpdk-test-dma-perf (DPDK $ver; the tool came with DPDK 23.07," \
		"Debian 13's dpdk package has it)"
	exit 77
fi
[ -x "$benchbin" ] || die "$benchbin not built (ninja -C $builddir)"
[ -f "$builddir/drivers/librte_dma_rio.so" ] || die "$builddir/drivers/librte_dma_rio.so not built"

[ -n "$outdir" ] || outdir="$builddir/dma-perf-$mport"
mkdir -p "$outdir" || die "cannot create $outdir"
outdir=$(realpath "$outdir")
tag="dp$$"
fabric="${tag}_fab"
fabdir=$("$builddir/app/dpdk-rio-fabric" dir 2>/dev/null || echo /nonexistent)
target_pid=""

cleanup() {
	if [ -n "$target_pid" ]; then
		kill -INT "$target_pid" 2>/dev/null
		sleep 0.5
		kill -KILL "$target_pid" 2>/dev/null
		wait "$target_pid" 2>/dev/null
	fi
	rm -rf /run/user/$(id -u)/dpdk/${tag}_* /var/run/dpdk/${tag}_* 2>/dev/null
	rm -f "$fabdir"/rio_sim.${fabric}* 2>/dev/null
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

# The fabric of devtools/bench.sh on modelled links: ep0 and ep1 on one switch.
topo="$outdir/topology.ini"
{ echo "; devtools/dma-perf.sh --link $link: devtools/shm-transport.ini, timing on"
  sed -e '/^;/d' -e "s/^timing = 0$/lanes = $link_lanes\nbaud = $link_baud/" \
	devtools/shm-transport.ini; } > "$topo" || die "cannot write $topo"
grep -q "^baud = $link_baud$" "$topo" || die "devtools/shm-transport.ini has no 'timing = 0' line"

eal=(--no-huge --no-pci --log-level=lib.eal:error)
timeout -k 5 -s INT $((60 + 4 * seconds * 20)) "$benchbin" "${eal[@]}" -m 128 \
	--file-prefix=${tag}_win --lcores=0@0 \
	--vdev "rio_sim0,fabric=$fabric,endpoint=ep1,topology=$topo" -- \
	window --addr $win_addr --win-size $win_size --timeout-s 3600 \
	> "$outdir/window.log" 2>&1 &
target_pid=$!
for _ in $(seq 100); do
	grep -q '^RESULT window' "$outdir/window.log" && break
	kill -0 "$target_pid" 2>/dev/null || break
	sleep 0.1
done
grep -q '^RESULT window' "$outdir/window.log" || {
	tail -n 20 "$outdir/window.log"
	die "the target did not map its window"
}

case $mport in
rio_sim) initiator="rio_sim0,fabric=$fabric,endpoint=ep0,topology=$topo" ;;
tsi721) initiator="tsi721_model0,fabric=$fabric,endpoint=ep0,host=0,topology=$topo" ;;
esac
# dma-perf splits eal_args at spaces, and rte_cfgfile keeps 255 characters
# of a value: paths relative to the top of the tree (where it runs).
reltopo=$(realpath --relative-to=. "$topo")
[[ "$PWD$reltopo" != *" "* ]] || die "a path has a space: $PWD, $reltopo"
initiator=${initiator//$topo/$reltopo}
cfg="$outdir/dma-perf.ini"
# All plugins: the initiator's mport driver and dma_rio.
declare -A eal_args
n=0
for dir in mem2dev dev2mem; do
	n=$((n + 1))
	eal_args[$n]="${eal[*]} -m 512 --file-prefix=${tag}_$dir --lcores=0@0,1@1"
	eal_args[$n]+=" -d $builddir/drivers --vdev $initiator --vdev dma_rio0,destid=1"
	[ ${#eal_args[$n]} -le 255 ] ||
		die "eal_args of ${#eal_args[$n]} characters: dma-perf keeps 255 (shorter --out)"
done
{
	n=0
	for dir in mem2dev dev2mem; do
		n=$((n + 1))
		cat <<EOF
[case$n]
type=DMA_MEM_COPY
mem_size=$mem_mb
buf_size=$size_first,$size_last,2,MUL
dma_ring_size=1024
kick_batch=32
src_numa_node=0
dst_numa_node=0
cache_flush=0
test_seconds=$seconds
lcore_dma0=lcore=1,dev=dma_rio0,dir=$dir,raddr=$win_addr
eal_args=${eal_args[$n]}

EOF
	done
} > "$cfg"

echo "dma-perf: $dmaperf --config $cfg (log: $outdir/dma-perf.log)"
rc=0
timeout -k 10 $((120 + 40 * seconds)) "$dmaperf" --config "$cfg" --result "$outdir/result.csv" \
	> "$outdir/dma-perf.log" 2>&1 < /dev/null || rc=$?
if [ $rc -ne 0 ] || grep -qi "error\|fail" "$outdir/dma-perf.log"; then
	tail -n 30 "$outdir/dma-perf.log"
	echo "dma-perf: FAIL: dpdk-test-dma-perf exited with $rc or reported an error"
	exit 1
fi

python3 - "$outdir/result.csv" "$link_lanes" "$link_baud" "$mport" <<'EOF'
import sys

path, lanes, gbaud, mport = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
bytes_s = lanes * gbaud * 1e9 * (64 / 67 if gbaud > 6.25 else 8 / 10) / 8

def wire(hdr, payload):
    n = hdr + payload
    n += 4 if n > 80 else 2
    return (n + 3) // 4 * 4 + 8

# 8-bit IDs, 34-bit addresses: NWRITE header 10 bytes, response header 6.
ceiling = {1: bytes_s * 256 / wire(10, 256), 2: bytes_s * 256 / wire(6, 256)}
name = {1: "NWRITE (mem2dev)", 2: "NREAD (dev2mem)"}
rows = []
case = 0
for line in open(path):
    f = [x.strip() for x in line.split(",")]
    if f[0].startswith("Case "):
        case = int(f[0].split()[1])
    elif f[0].startswith("Scenario") and "Summary" not in f[0] and len(f) >= 11:
        size, gbps, mops = int(f[5]), float(f[9]), float(f[10])
        rows.append((case, size, gbps / 8, mops))
if not rows:
    print("dma-perf: FAIL: no result in", path)
    sys.exit(1)
print(f"dma-perf over dma_rio on {mport}, {lanes} lanes x {gbaud:g} Gbaud "
      f"(data {bytes_s / 1e9:.3f} GB/s per direction)")
print(f"{'transaction':<18} {'size':>8} {'GB/s':>8} {'Mops':>8} {'ceiling GB/s':>12} {'fraction':>8}")
for case, size, gbs, mops in rows:
    print(f"{name.get(case, case):<18} {size:>8} {gbs:>8.3f} {mops:>8.3f} "
          f"{ceiling[case] / 1e9:>12.3f} {gbs * 1e9 / ceiling[case]:>8.3f}")
EOF
