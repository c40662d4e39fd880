#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Side-by-side benchmark: rionet against net_memif (copy mode) and net_ring,
# all in one invocation on the same machine state. See doc/guides/perf/.
#
# rionet is measured twice. As a shared-memory transport (rionet, rionet_zc,
# and tsi721's rio_sim side): its fabrics have the timing model off
# (devtools/shm-transport.ini: builtin:default with timing = 0), and it is
# compared with memif. On modelled
# links (rionet_link): by default Gen2 x4 links (16 Gbit/s, --link) with
# the timing model on; it is reported as a fraction of what the links can
# carry (the ceiling, computed from the packet format in the report).
#
#   fwd   (1) one stock dpdk-testpmd, two ports forwarding to each other
#             (--forward-mode=io --tx-first), frame sizes --sizes.
#             rionet: two rio_sim vdevs on one fabric; rionet_zc: the same
#             with rx_zero_copy=1 (frames up to 1536 bytes, so not at 4096);
#             rionet_link: rionet on the modelled links;
#             rionet_link1: the same with letters=1 (every frame on
#             letter 0, as Linux rionet sends: the one-letter bound);
#             rionet_link_q2: the same with two queue pairs per port
#             (--rxq=2 --txq=2: each Tx queue sends on a mailbox of its
#             own, four letters each, so eight messages are in flight
#             towards the peer instead of four);
#             memif: a server and a
#             client port on one socket; ring: two net_ring ports, each
#             looping back to itself, so testpmd's paired io streams move
#             every frame port0 -> ring1 -> port1 -> ring0 -> port0 (one
#             enqueue and one dequeue per hop, like the other transports);
#             tsi721: port 0 is rionet over the tsi721 driver on the model
#             of the part (tsi721_model0, the host), port 1 rionet over
#             rio_sim, on one fabric; its column tsi721/rionet is the
#             ratio to two rio_sim ports in the same run.
#   pair  (2) two stock dpdk-testpmd processes, txonly -> rxonly; received
#             rate, sent (accepted by tx_burst) and received counts
#             (rionet_zc: zero-copy receive in the rxonly process;
#             rionet_link: on the modelled links).
#   stream (2, same seconds) two dpdk-rio-bench processes, stream -> sink,
#             each with a port of every transport but ring (rionet_zc up
#             to 1536-byte frames, on a fabric of its own): the sender takes the
#             transports in turn, 50 ms at a time, so all are timed over the
#             same seconds and the rionet/memif ratio of one run does not
#             depend on the machine's mode in that run (see the guide).
#             Mpps accepted by the sender's tx_burst; every accepted frame
#             must reach the sink.
#   lat   (3) round-trip latency of a 64-byte frame between two processes
#             (dpdk-rio-bench ping/pong): min, p50, p99. One ping and one
#             pong process hold a port of every transport and take them in
#             turn, 100 round trips at a time: all timed over the same seconds.
#   enum  (4) host enumeration and agent discovery of 16-bit star fabrics:
#             time and maintenance transactions (dpdk-rio-bench enum).
#   dma   (5, only when asked for) DMA goodput of the dma_rio dmadev on the
#             modelled links (--link): dpdk-rio-bench dma (NWRITE, then
#             NREAD) on ep0 towards a dpdk-rio-bench window on ep1, --dma-sizes
#             bytes per operation for --duration seconds; GB/s of payload
#             and its fraction of the links' ceiling for the transaction
#             (256-byte payloads, each with its packet's header, CRC and
#             delimiters; NREAD: the responses that carry the data).
# Before and after: the cache line round trip between cores 0 and 1
# (dpdk-rio-bench corelat), printed in the table's header; see the guide.
#
# Each cell is the median of --reps runs, shown with min..max. Rates are
# testpmd's own per-second Rx-pps samples (TSC based), averaged over
# --duration seconds after --warmup seconds. Gbit/s = Mpps x frame bytes x 8
# (frame without FCS, preamble or gaps).
#
# Lcores (2 cores): fwd runs testpmd with --lcores=0@0,1@1 (main lcore on
# core 0, mostly asleep printing stats; the forwarding lcore alone on core
# 1). pair, stream and lat run one process per core: testpmd with
# --lcores=0@0,1@0 (receiver) and --lcores=0@1,1@1 (sender); dpdk-rio-bench
# with --lcores=0@0 (sink / pong) and --lcores=0@1 (stream / ping).
#
# Output: the table on stdout and in <out>/table.txt, <out>/results.csv,
# <out>/results.json, a plot of scenarios 1 and 2 (Gbit/s against frame
# size, with the links' ceiling) in <out>/throughput.svg, raw per-run lines
# in <out>/raw.tsv, logs in <out>/logs.
#
# Usage: devtools/bench.sh [options]
#   --scenarios LIST  fwd,pair,stream,lat,enum,dma or 1,2,3,4 (default: all but dma)
#   --transports LIST rionet,rionet_zc,memif,ring,tsi721,rionet_link,rionet_link1,
#                     rionet_link_q2 (default: all; ring and tsi721 only run fwd,
#                     the rionet_link* ones fwd and pair;
#                     rionet_zc all but lat, up to 1536-byte frames)
#   --sizes LIST      frame sizes (default: 64,512,1500,4096)
#   --enum-sizes LIST endpoints (default: 64,256,1024,4096)
#   --dma-sizes LIST  bytes per DMA operation (default: 64,256,4096,65536)
#   --reps N          runs per cell (default: 3)
#   --duration S      measured seconds per run (default: 2)
#   --warmup S        seconds before measuring (default: 1)
#   --pings N         timed round trips per latency run (default: 20000)
#   --link LxB        the modelled links of the rionet_link* transports: L lanes
#                     (1, 2, 4, 8, 16) at B Gbaud (1.25, 2.5, 3.125: Gen1; 5,
#                     6.25: Gen2; 10.3125, 12.5: Gen3; 8b/10b up to 6.25,
#                     64b/67b above); the ceilings follow (default: 4x5, Gen2 x4)
#   --out DIR         output directory (default: <build>/bench)
#   --smoke           tiny run to check the harness (1 rep, 1 s, no warm-up, 64 B,
#                     64 endpoints, 500 pings); output in <build>/bench-smoke
# Environment: RIO_BUILD_DIR (default: build), RIO_TESTPMD (default:
# dpdk-testpmd from PATH).

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
testpmd=${RIO_TESTPMD:-$(command -v dpdk-testpmd || echo /usr/bin/dpdk-testpmd)}
benchbin="$builddir/app/rio-bench/dpdk-rio-bench"

scenarios="fwd,pair,stream,lat,enum"
transports="rionet,rionet_zc,memif,ring,tsi721,rionet_link,rionet_link1,rionet_link_q2"
sizes="64,512,1500,4096"
enum_sizes="64,256,1024,4096"
dma_sizes="64,256,4096,65536"
reps=3
duration=2
warmup=1
pings=20000
outdir=""
smoke=0
link=4x5

die() {
	echo "bench: error: $*" >&2
	exit 2
}

need_arg() {
	[ $# -ge 2 ] && [ -n "$2" ] || die "option $1 needs a value (see the top of $0)"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--scenarios) need_arg "$@"; scenarios=$2; shift ;;
	--transports) need_arg "$@"; transports=$2; shift ;;
	--sizes) need_arg "$@"; sizes=$2; shift ;;
	--enum-sizes) need_arg "$@"; enum_sizes=$2; shift ;;
	--dma-sizes) need_arg "$@"; dma_sizes=$2; shift ;;
	--reps) need_arg "$@"; reps=$2; shift ;;
	--duration) need_arg "$@"; duration=$2; shift ;;
	--warmup) need_arg "$@"; warmup=$2; shift ;;
	--pings) need_arg "$@"; pings=$2; shift ;;
	--out) need_arg "$@"; outdir=$2; shift ;;
	--link) need_arg "$@"; link=$2; shift ;;
	--smoke) smoke=1 ;;
	-h|--help) sed -n '/^# Usage:/,/^# dpdk-testpmd/p' "$0" | sed 's/^# \?//'; exit 0 ;;
	*) die "unknown option '$1' (see the top of $0)" ;;
	esac
	shift
done

if [ $smoke -eq 1 ]; then
	reps=1; duration=1; warmup=0; sizes=64; enum_sizes=64; pings=500
	[ -n "$outdir" ] || outdir="$builddir/bench-smoke"
fi
[ -n "$outdir" ] || outdir="$builddir/bench"

scenarios=${scenarios//1/fwd}; scenarios=${scenarios//2/pair}
scenarios=${scenarios//3/lat}; scenarios=${scenarios//4/enum}
for n in reps duration pings; do
	[[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "--$n must be a positive integer"
done
[[ $warmup =~ ^[0-9]+$ ]] || die "--warmup must be an integer >= 0"
link_lanes=${link%%x*}
link_baud=${link#*x}
case $link_lanes in 1|2|4|8|16) ;; *) die "--link $link: lanes are 1, 2, 4, 8 or 16" ;; esac
case $link_baud in 1.25|2.5|3.125|5|6.25|10.3125|12.5) ;;
*) die "--link $link: Gbaud is 1.25, 2.5, 3.125, 5, 6.25, 10.3125 or 12.5" ;;
esac
for s in ${scenarios//,/ }; do
	case $s in fwd|pair|stream|lat|enum|dma) ;;
	*) die "unknown scenario '$s' (fwd,pair,stream,lat,enum,dma)" ;;
	esac
done
for t in ${transports//,/ }; do
	case $t in rionet|rionet_zc|memif|ring|tsi721|rionet_link|rionet_link1|rionet_link_q2) ;;
	*) die "unknown transport '$t' (rionet,rionet_zc,memif,ring,tsi721,rionet_link," \
	       "rionet_link1,rionet_link_q2)" ;;
	esac
done
for s in ${sizes//,/ }; do
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 64 ] && [ "$s" -le 4096 ] ||
		die "frame size '$s' not in 64..4096"
done
for s in ${dma_sizes//,/ }; do
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 1 ] && [ "$s" -le 1048576 ] ||
		die "DMA size '$s' not in 1..1048576"
done
for s in ${enum_sizes//,/ }; do
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 2 ] || die "endpoint count '$s' must be >= 2"
done
[ -x "$testpmd" ] || die "dpdk-testpmd not found (apt-get install dpdk)"
[ -x "$benchbin" ] || die "$benchbin not built (ninja -C $builddir)"
[ -d "$builddir/drivers" ] || die "$builddir/drivers missing (ninja -C $builddir)"

has() {	# has <item> <comma list>
	[[ ",$2," == *",$1,"* ]]
}

mkdir -p "$outdir/logs" || die "cannot create $outdir"
rm -f "$outdir"/logs/*.log
rm -f "$outdir/throughput.svg"
raw="$outdir/raw.tsv"
: > "$raw"
tag="rb$$"
# The objects of our fabrics live in a directory of this user's.
fabdir=$("$builddir/app/dpdk-rio-fabric" dir 2>/dev/null || echo /nonexistent)
seq_no=0
children=()
stdin_src=/dev/null
eal_common=(--no-huge --no-pci --log-level=lib.eal:error)

# Every process we start is wrapped in timeout(1); on exit, stop what is
# left and remove our EAL runtime directories and any fabric we named.
cleanup() {
	local p
	for p in "${children[@]}"; do
		kill -INT "$p" 2>/dev/null
	done
	sleep 0.5
	for p in "${children[@]}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	children=()
	rm -rf /run/user/$(id -u)/dpdk/${tag}_* /var/run/dpdk/${tag}_* 2>/dev/null
	rm -f "$fabdir"/rio_sim.${tag}_* /tmp/${tag}_* 2>/dev/null
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT
trap '' PIPE	# a testpmd that already quit must not kill us through its FIFO

next_name() {
	seq_no=$((seq_no + 1))
	name="${tag}_${seq_no}"
}

# start <limit s> <log> <cmd...>: start in the background; sets $pid.
# --foreground: timeout passes a signal (stop's SIGINT, or its own at the
# limit) to the command once. Without it, it also sends it to its process
# group, and the second SIGINT may come late on a busy machine; DPDK 24.11's
# testpmd restores the default action in its first SIGINT handler (a second
# Ctrl-C kills), so it died half-way through closing its ports and left the
# fabric behind.
start() {
	local limit=$1 log=$2
	shift 2
	timeout --foreground -k 5 -s INT "$limit" "$@" <"$stdin_src" >"$log" 2>&1 &
	pid=$!
	children+=("$pid")
}

forget() {	# forget <pid>: no longer ours to clean up
	local p keep=()
	for p in "${children[@]}"; do
		[ "$p" = "$1" ] || keep+=("$p")
	done
	children=("${keep[@]}")
}

# stop <pid>: SIGINT (testpmd prints its totals), wait; timeout kills it.
stop() {
	kill -INT "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	local rc=$?
	forget "$1"
	return $rc
}

# wait_for <log> <pattern> <count> <seconds> [pid]: until the log has count
# matching lines; fails on timeout or when pid exits.
wait_for() {
	local i n
	for ((i = 0; i < $4 * 10; i++)); do
		n=$(grep -c -- "$2" "$1" 2>/dev/null)
		[ "${n:-0}" -ge "$3" ] && return 0
		if [ $# -ge 5 ] && ! kill -0 "$5" 2>/dev/null; then
			return 1
		fi
		sleep 0.1
	done
	return 1
}

# samples <log> <Rx-pps|Tx-pps> <ports> <skip> <take>: mean of the per-
# period sums over all ports, after skipping <skip> periods.
samples() {
	awk -v key="$2:" -v ports="$3" -v skip="$4" -v take="$5" '
		$1 == key { v[n++] = $2 }
		END {
			blocks = int(n / ports); s = 0; c = 0
			for (b = skip; b < blocks && c < take; b++) {
				t = 0
				for (p = 0; p < ports; p++) t += v[b * ports + p]
				s += t; c++
			}
			if (c == 0) print "nan"; else printf "%.6f\n", s / c / 1e6
		}' "$1"
}

# frame_ok <log> <size>: the frames received had the size asked for (port
# stats: RX-bytes / RX-packets), so no option was silently ignored. A driver
# that counts no bytes (net_ring) cannot be checked. Over RapidIO a frame is
# whole double-words: 8-byte padding is the size asked for.
frame_ok() {
	local pad=$((($2 + 7) / 8 * 8))
	grep -E "RX-packets: +[0-9]+ +RX-missed" "$1" | tail -1 |
		awk -v s="$2" -v p="$pad" '{ if ($2 > 0 && ($6 == 0 || int($6 / $2 + 0.5) == s ||
						       int($6 / $2 + 0.5) == p)) ok = 1 }
			END { exit !ok }'
}

# total <log> <RX|TX>: the accumulated count testpmd prints on exit.
total() {
	grep -E "^ +$2-packets: +[0-9]+ +$2-dropped" "$1" | tail -1 | awk '{print $2}'
}

# The fabric of the shared-memory transport: builtin:default (ep0 and ep1 on
# one switch, static routes) with the timing model off; and of rionet on
# modelled links: the same shape with the timing model on (rio_sim's
# default) and every port at --link.
shm_topo="topology=$PWD/devtools/shm-transport.ini"
{ echo "; devtools/bench.sh --link $link: devtools/shm-transport.ini, timing on"
  sed -e '/^;/d' -e "s/^timing = 0$/lanes = $link_lanes\nbaud = $link_baud/" \
	devtools/shm-transport.ini; } > "$outdir/link-topology.ini" ||
	die "cannot write $outdir/link-topology.ini"
grep -q "^baud = $link_baud$" "$outdir/link-topology.ini" ||
	die "devtools/shm-transport.ini has no 'timing = 0' line to replace"
link_topo="topology=$(realpath "$outdir/link-topology.ini")"

# Per transport: EAL vdev arguments (for testpmd) and testpmd options.
pmd_args() {	# pmd_args <transport> <name> <size> <role: both|rx|tx>
	local t=$1 n=$2 size=$3 role=$4 topo=$shm_topo
	vdev=()
	# --mbuf-size before --txpkts: testpmd checks the lengths against the
	# mbuf size known when it parses --txpkts.
	opts=(--total-num-mbufs=16384)
	if [ "$size" -gt 1500 ]; then
		opts+=(--mbuf-size=4352)
	fi
	opts+=(--txpkts="$size")
	case $t in
	rionet|rionet_zc|rionet_link|rionet_link1|rionet_link_q2)
		vdev=(-d "$builddir/drivers")
		case $t in rionet_link*) topo=$link_topo ;; esac
		# A mailbox per queue pair: both ends open both and say so.
		[ "$t" = rionet_link_q2 ] && opts+=(--rxq=2 --txq=2)
		case $role in
		both) vdev+=(--vdev "rio_sim0,fabric=$n,$topo" --vdev "rio_sim1,fabric=$n,$topo")
		      opts+=(--eth-peer=0,00:01:00:01:00:01 --eth-peer=1,00:01:00:01:00:00) ;;
		rx) vdev+=(--vdev "rio_sim0,fabric=$n,endpoint=ep0,$topo") ;;
		tx) vdev+=(--vdev "rio_sim0,fabric=$n,endpoint=ep1,$topo")
		    opts+=(--eth-peer=0,00:01:00:01:00:00) ;;
		esac
		# Zero-copy receive on the receiving ports (their rio bus devices:
		# the own endpoint of mport N, the Nth rio_sim, is rapidioN).
		if [ "$t" = rionet_zc ]; then
			case $role in
			both) vdev+=(-a "rapidio0,rx_zero_copy=1" -a "rapidio1,rx_zero_copy=1") ;;
			rx) vdev+=(-a "rapidio0,rx_zero_copy=1") ;;
			esac
		fi
		# One letter on the sending ports (the receiver ignores letters).
		if [ "$t" = rionet_link1 ]; then
			case $role in
			both) vdev+=(-a "rapidio0,letters=1" -a "rapidio1,letters=1") ;;
			tx) vdev+=(-a "rapidio0,letters=1") ;;
			esac
		fi
		[ "$size" -gt 1500 ] && opts+=(--max-pkt-len="$size")
		;;
	memif)
		case $role in
		both) vdev=(--vdev "net_memif0,role=server,id=0,socket=/$n.sock"
			    --vdev "net_memif1,role=client,id=0,socket=/$n.sock") ;;
		rx) vdev=(--vdev "net_memif0,role=server,id=0,socket=/$n.sock") ;;
		tx) vdev=(--vdev "net_memif0,role=client,id=0,socket=/$n.sock") ;;
		esac
		;;
	ring)
		vdev=(--vdev net_ring0 --vdev net_ring1)
		;;
	tsi721)
		vdev=(-d "$builddir/drivers"
		      --vdev "tsi721_model0,fabric=$n,endpoint=ep0,host=0,$topo"
		      --vdev "rio_sim1,fabric=$n,endpoint=ep1,$topo")
		opts+=(--eth-peer=0,00:01:00:01:00:01 --eth-peer=1,00:01:00:01:00:00)
		[ "$size" -gt 1500 ] && opts+=(--max-pkt-len="$size")
		;;
	esac
}

# zc_fits <transport> <size>: false for rionet_zc frames longer than rio_sim
# receives in place (1536 bytes: such an MTU makes the port refuse to start).
zc_fits() {
	[ "$1" != rionet_zc ] || [ "$2" -le 1536 ]
}

record() {	# record <scenario> <transport> <size> <rep> <key=value...>
	local IFS=$'\t'
	echo "$*" >> "$raw"
}

failures=0
fail() {
	echo "bench: FAIL $*" >&2
	failures=$((failures + 1))
}

run_fwd() {	# run_fwd <transport> <size> <rep>
	local t=$1 size=$2 rep=$3 log mpps ok skip
	next_name
	log="$outdir/logs/fwd_${t}_${size}_${rep}.log"
	pmd_args "$t" "$name" "$size" both
	start $((warmup + duration + 30)) "$log" "$testpmd" "${eal_common[@]}" -m 512 \
		--file-prefix="$name" --lcores=0@0,1@1 "${vdev[@]}" -- "${opts[@]}" \
		--stats-period 1 --forward-mode=io --tx-first --nb-cores=1
	ok=1
	# The first period prints 0 pps (no previous sample): it counts as
	# the first second of the warm-up.
	skip=$((warmup > 1 ? warmup : 1))
	wait_for "$log" "Rx-pps:" $((2 * (skip + duration))) $((warmup + duration + 25)) \
		"$pid" || ok=0
	stop "$pid"
	mpps=$(samples "$log" Rx-pps 2 "$skip" "$duration")
	frame_ok "$log" "$size" || ok=0
	if [ $ok -eq 0 ] || [ "$mpps" = nan ]; then
		fail "fwd $t ${size}B run $rep (log: $log)"
		return
	fi
	record fwd "$t" "$size" "$rep" "mpps=$mpps"
	printf '  fwd  %-9s %4s B run %d: %8.3f Mpps\n' "$t" "$size" "$rep" "$mpps"
}

# core_probe <when>: the round trip of a cache line between cores 0 and 1
# (dpdk-rio-bench corelat, 10 samples of 50 ms). Two processes on those
# cores share lines at this cost; on a VM it changes as the hypervisor moves
# the vCPUs, and the two-process scenarios with it.
core_probe() {
	local log min p50 max
	next_name
	log="$outdir/logs/corelat_$1.log"
	start 30 "$log" "$benchbin" "${eal_common[@]}" -m 64 --file-prefix="$name" \
		--lcores=0@0,1@1 -- corelat --samples 10 --ms 50
	wait "$pid" 2>/dev/null
	forget "$pid"
	read -r min p50 max < <(sed -n \
		's/^RESULT corelat .*min_ns=\([0-9]*\) p50_ns=\([0-9]*\) max_ns=\([0-9]*\).*/\1 \2 \3/p' \
		"$log")
	if [ -z "$max" ]; then
		fail "core-to-core probe ($1, log: $log)"
		return
	fi
	record corelat "$1" 64 1 "min_ns=$min" "p50_ns=$p50" "max_ns=$max"
	printf '  core-to-core round trip (%s): min %s, p50 %s, max %s ns\n' "$1" "$min" "$p50" \
		"$max"
}

# Scenario 2 runs both testpmd interactively, fed through a FIFO each, so
# that the sender stops before either side closes its port (a memif server
# clears its counters when the client disconnects) and the rates come from
# two "show port stats all" a known time apart (testpmd's TSC-based pps).
# stdbuf: testpmd's stdout to a file is block-buffered otherwise.
run_pair() {	# run_pair <transport> <size> <rep>
	local t=$1 size=$2 rep=$3 lrx ltx prx ptx frx ftx rx_mpps tx_mpps sent recv txerr ok=1
	next_name
	lrx="$outdir/logs/pair_${t}_${size}_${rep}_rx.log"
	ltx="$outdir/logs/pair_${t}_${size}_${rep}_tx.log"
	mkfifo "/tmp/${name}_rx" "/tmp/${name}_tx" || { fail "pair: mkfifo"; return; }
	pmd_args "$t" "$name" "$size" rx
	stdin_src="/tmp/${name}_rx"
	start $((warmup + duration + 40)) "$lrx" stdbuf -oL "$testpmd" "${eal_common[@]}" -m 512 \
		--file-prefix="${name}_rx" --lcores=0@0,1@0 "${vdev[@]}" -- "${opts[@]}" \
		-i --auto-start --forward-mode=rxonly
	prx=$pid
	exec {frx}>"/tmp/${name}_rx"
	# The receiver is up before the sender starts: otherwise the sender's
	# first frames meet a closed mailbox and are dropped (counted in its
	# TX-errors), which is not loss inside the fabric.
	wait_for "$lrx" "testpmd>" 1 20 "$prx" || ok=0
	pmd_args "$t" "$name" "$size" tx
	stdin_src="/tmp/${name}_tx"
	start $((warmup + duration + 30)) "$ltx" stdbuf -oL "$testpmd" "${eal_common[@]}" -m 512 \
		--file-prefix="${name}_tx" --lcores=0@1,1@1 "${vdev[@]}" -- "${opts[@]}" \
		-i --auto-start --forward-mode=txonly
	ptx=$pid
	stdin_src=/dev/null
	exec {ftx}>"/tmp/${name}_tx"
	[ $ok -eq 1 ] && { wait_for "$ltx" "testpmd>" 1 20 "$ptx" || ok=0; }
	if [ $ok -eq 1 ]; then
		sleep "$warmup"
		echo "show port stats all" >&$frx
		echo "show port stats all" >&$ftx
		sleep "$duration"
		echo "show port stats all" >&$frx
		echo "show port stats all" >&$ftx
		wait_for "$lrx" "Rx-pps:" 2 10 "$prx" || ok=0
		wait_for "$ltx" "Tx-pps:" 2 10 "$ptx" || ok=0
	fi
	echo "stop" >&$ftx
	wait_for "$ltx" "Accumulated forward statistics" 1 10 "$ptx" || ok=0
	sleep 0.5	# let the receiver drain what was accepted
	echo "stop" >&$frx
	wait_for "$lrx" "Accumulated forward statistics" 1 10 "$prx" || ok=0
	echo "quit" >&$ftx
	echo "quit" >&$frx
	exec {ftx}>&- {frx}>&-
	wait "$ptx" 2>/dev/null; forget "$ptx"
	wait "$prx" 2>/dev/null; forget "$prx"
	rm -f "/tmp/${name}_rx" "/tmp/${name}_tx"
	tx_mpps=$(grep "Tx-pps:" "$ltx" | tail -1 | awk '{printf "%.6f", $2 / 1e6}')
	rx_mpps=$(grep "Rx-pps:" "$lrx" | tail -1 | awk '{printf "%.6f", $2 / 1e6}')
	sent=$(total "$ltx" TX)
	recv=$(total "$lrx" RX)
	txerr=$(grep -E "TX-errors: +[0-9]+" "$ltx" | tail -1 | awk '{print $4}')
	frame_ok "$lrx" "$size" || ok=0
	if [ $ok -eq 0 ] || [ -z "$rx_mpps" ] || [ -z "$sent" ] || [ -z "$recv" ]; then
		fail "pair $t ${size}B run $rep (logs: $lrx $ltx)"
		return
	fi
	record pair "$t" "$size" "$rep" "mpps=$rx_mpps" "tx_mpps=$tx_mpps" "sent=$sent" \
		"received=$recv" "lost=$((sent - recv))" "tx_errors=${txerr:-0}"
	printf '  pair %-9s %4s B run %d: %8.3f Mpps received, sent %s received %s\n' \
		"$t" "$size" "$rep" "$rx_mpps" "$sent" "$recv"
}

# bench_vdevs <transports>: the EAL options of the two dpdk-rio-bench
# processes, a port of every transport each (fabrics and socket named after
# $name): vrecv (sink / pong: rionet ep0, memif server), vsend (stream /
# ping: ep1, memif client), plug (-d for rionet) and peer (the receiver's
# rionet MAC: ep0 of every fabric). rionet_zc has a fabric of its own, and
# its receiving endpoint rx_zero_copy=1; as an -a on the rio bus allows only
# the devices named, rionet's receiving endpoint is named too.
bench_vdevs() {
	local t mports=0
	vrecv=(); vsend=(); plug=(); peer=()
	# The own endpoint of the receiver's Nth rio_sim (mport N) is rapidioN.
	for t in ${1//,/ }; do
		case $t in
		rionet) plug=(-d "$builddir/drivers")
			vrecv+=(--vdev "rio_sim0,fabric=$name,endpoint=ep0,$shm_topo" -a "rapidio$mports")
			vsend+=(--vdev "rio_sim0,fabric=$name,endpoint=ep1,$shm_topo")
			mports=$((mports + 1))
			peer=(--peer 00:01:00:01:00:00) ;;
		rionet_zc) plug=(-d "$builddir/drivers")
			vrecv+=(--vdev "rio_sim1,fabric=${name}z,endpoint=ep0,$shm_topo"
				-a "rapidio$mports,rx_zero_copy=1")
			vsend+=(--vdev "rio_sim1,fabric=${name}z,endpoint=ep1,$shm_topo")
			mports=$((mports + 1))
			peer=(--peer 00:01:00:01:00:00) ;;
		memif)	vrecv+=(--vdev "net_memif0,role=server,id=0,socket=/$name.sock")
			vsend+=(--vdev "net_memif0,role=client,id=0,socket=/$name.sock") ;;
		esac
	done
}

# result_key <transport>: what identifies its port in dpdk-rio-bench's
# RESULT lines (the ports bench_vdevs gives it).
result_key() {
	case $1 in
	rionet) echo "name=rionet_rio_sim0 driver=net_rionet" ;;
	rionet_zc) echo "name=rionet_rio_sim1 driver=net_rionet" ;;
	*) echo "name=[^ ]* driver=net_$1" ;;
	esac
}

# Scenario 2 over the same seconds: one sink and one stream process hold a
# port of every transport; the sender sends on each in turn, 50 ms at a time
# (--warmup s, then --duration s per transport), then a STOP frame on each.
# The sink counts what arrived before the STOP: every frame the sender's
# tx_burst accepted must be there.
run_stream() {	# run_stream <transports, comma-separated> <size> <rep>
	local list=$1 size=$2 rep=$3 lsink lsend psink psend res t key sent recv limit
	next_name
	lsink="$outdir/logs/stream_${size}_${rep}_sink.log"
	lsend="$outdir/logs/stream_${size}_${rep}_send.log"
	bench_vdevs "$list"
	limit=$((2 * (warmup + duration) + 40))
	start $((limit + 10)) "$lsink" "$benchbin" "${eal_common[@]}" -m 256 \
		--file-prefix="${name}_sink" --lcores=0@0 "${plug[@]}" "${vrecv[@]}" -- sink \
		--size "$size" --timeout-s "$limit"
	psink=$pid
	if ! wait_for "$lsink" "sink: ready" 1 15 "$psink"; then
		stop "$psink"
		fail "stream ${size}B run $rep (log: $lsink)"
		return
	fi
	start "$limit" "$lsend" "$benchbin" "${eal_common[@]}" -m 256 --file-prefix="${name}_send" \
		--lcores=0@1 "${plug[@]}" "${vsend[@]}" -- stream "${peer[@]}" --size "$size" \
		--window-ms 50 --warmup-ms $((warmup * 1000)) --run-ms $((duration * 1000)) \
		--timeout-s 20
	psend=$pid
	wait "$psend"
	forget "$psend"
	wait_for "$lsink" "RESULT sink" 1 10 "$psink"
	stop "$psink"
	for t in ${list//,/ }; do
		key=$(result_key "$t")
		res=$(grep "^RESULT stream port=[0-9]* $key " "$lsend" | head -1)
		# Only a port that got its STOP frame has a final count.
		recv=$(sed -n "s/^RESULT sink port=[0-9]* $key received=\([0-9]*\) .*stopped=1.*/\1/p" \
			"$lsink")
		sent=$(echo "$res" | sed -n 's/.* sent_all=\([0-9]*\) .*/\1/p')
		if [ -z "$res" ] || [ -z "$recv" ] || [ -z "$sent" ]; then
			fail "stream $t ${size}B run $rep (logs: $lsend $lsink)"
			continue
		fi
		res=$(echo "$res" |
			sed 's/^RESULT stream port=[0-9]* name=[^ ]* driver=[^ ]* size=[0-9]* //')
		record stream "$t" "$size" "$rep" $res "received=$recv" "lost=$((sent - recv))"
		printf '  strm %-9s %4s B run %d: %s received=%s\n' "$t" "$size" "$rep" "$res" \
			"$recv"
	done
}

# Scenario 3 measures every transport in one ping and one pong process, each
# with a port per transport: ping takes the ports in turn, a block of round
# trips at a time, so that all transports are timed over the same seconds.
run_lat() {	# run_lat <transports, comma-separated> <rep>
	local list=$1 rep=$2 lpong lping ppong pping res t
	next_name
	lpong="$outdir/logs/lat_${rep}_pong.log"
	lping="$outdir/logs/lat_${rep}_ping.log"
	bench_vdevs "$list"
	start 120 "$lpong" "$benchbin" "${eal_common[@]}" -m 256 --file-prefix="${name}_pong" \
		--lcores=0@0 "${plug[@]}" "${vrecv[@]}" -- pong --timeout-s 100
	ppong=$pid
	if ! wait_for "$lpong" "pong: ready" 1 15 "$ppong"; then
		stop "$ppong"
		fail "lat run $rep (log: $lpong)"
		return
	fi
	start 110 "$lping" "$benchbin" "${eal_common[@]}" -m 256 --file-prefix="${name}_ping" \
		--lcores=0@1 "${plug[@]}" "${vsend[@]}" -- ping "${peer[@]}" --count "$pings" \
		--warmup $((pings / 10)) --block 100 --timeout-s 20
	pping=$pid
	wait "$pping"
	forget "$pping"
	wait_for "$lpong" "RESULT pong" 1 5 "$ppong"
	stop "$ppong"
	for t in ${list//,/ }; do
		res=$(grep "^RESULT latency port=[0-9]* $(result_key "$t") " "$lping" | head -1)
		if [ -z "$res" ]; then
			fail "lat $t run $rep (logs: $lping $lpong)"
			continue
		fi
		res=${res#RESULT latency port=* name=* driver=* }
		record lat "$t" 64 "$rep" $res
		echo "  lat  $t run $rep: $res"
	done
}

run_enum() {
	local log="$outdir/logs/enum.log" line
	next_name
	start 300 "$log" "$benchbin" "${eal_common[@]}" -m 1024 --file-prefix="$name" \
		--lcores=0@1 -- enum --sizes "$enum_sizes" --reps "$reps" --fabric "$name"
	wait "$pid"
	local rc=$?
	forget "$pid"
	while read -r line; do
		set -- $line
		record enum star "${2#endpoints=}" "${3#rep=}" "${@:4}"
		echo "  enum $line"
	done < <(grep '^RESULT enum' "$log" | sed 's/^RESULT //')
	[ $rc -eq 0 ] || fail "enum (log: $log)"
}

# DMA goodput: a window of 16 MiB on ep1, dma_rio on ep0, NWRITE then NREAD.
run_dma() {	# run_dma <rep>
	local rep=$1 wlog="$outdir/logs/dma_window_$1.log" log line dir wpid rc
	next_name
	start 600 "$wlog" "$benchbin" "${eal_common[@]}" -m 128 --file-prefix="${name}_w" \
		--lcores=0@0 --vdev "rio_sim0,fabric=$name,endpoint=ep1,$link_topo" -- \
		window --addr 0x1000000 --win-size 0x1000000 --timeout-s 590
	wpid=$pid
	wait_for "$wlog" '^RESULT window' 1 10 "$wpid" || { fail "dma window (log: $wlog)"; stop "$wpid"; return; }
	for dir in write read; do
		log="$outdir/logs/dma_${dir}_$rep.log"
		start 300 "$log" "$benchbin" "${eal_common[@]}" -m 512 --file-prefix="${name}_$dir" \
			--lcores=0@1 -d "$builddir/drivers/librte_dma_rio.so" \
			--vdev "rio_sim0,fabric=$name,endpoint=ep0,$link_topo" \
			--vdev dma_rio0,destid=1 -- dma --dir "$dir" --addr 0x1000000 \
			--win-size 0x1000000 --sizes "$dma_sizes" --run-ms $((duration * 1000))
		wait "$pid"
		rc=$?
		forget "$pid"
		while read -r line; do
			set -- $line
			record dma "$dir" "${2#size=}" "$rep" "${@:3}"
			echo "  dma $line"
		done < <(grep '^RESULT dma' "$log" | sed 's/^RESULT dma //' |
			 sed 's/ ms=[^ ]*//')
		[ $rc -eq 0 ] || fail "dma $dir (log: $log)"
	done
	stop "$wpid"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
echo "bench: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $cpu, $(nproc) cores, no hugepages"
echo "bench: scenarios $scenarios; transports $transports; sizes $sizes; reps $reps;" \
	"warm-up $warmup s + $duration s per run"
start_s=$SECONDS
core_probe start

for rep in $(seq 1 "$reps"); do
	# Rounds interleave transports so that drift hits all of them alike.
	if has fwd "$scenarios"; then
		for size in ${sizes//,/ }; do
			for t in ${transports//,/ }; do
				zc_fits "$t" "$size" && run_fwd "$t" "$size" "$rep"
			done
		done
	fi
	if has pair "$scenarios"; then
		for size in ${sizes//,/ }; do
			for t in ${transports//,/ }; do
				# One process only.
				[ "$t" = ring ] || [ "$t" = tsi721 ] && continue
				zc_fits "$t" "$size" && run_pair "$t" "$size" "$rep"
			done
		done
	fi
	# Transports of dpdk-rio-bench's two processes (net_ring cannot be shared).
	two_list=$(echo "${transports//,/ }" | tr ' ' '\n' |
		grep -v '^ring$\|^tsi721$\|^rionet_link' | paste -sd,)
	if has stream "$scenarios" && [ -n "$two_list" ]; then
		for size in ${sizes//,/ }; do
			slist=$two_list
			zc_fits rionet_zc "$size" || slist=$(echo "${slist//,/ }" | tr ' ' '\n' |
							     grep -v '^rionet_zc$' | paste -sd,)
			[ -n "$slist" ] && run_stream "$slist" "$size" "$rep"
		done
	fi
	# Latency frames are 64 bytes: rionet_zc copies them, as rionet does.
	lat_list=$(echo "${two_list//,/ }" | tr ' ' '\n' | grep -v '^rionet_zc$' | paste -sd,)
	if has lat "$scenarios" && [ -n "$lat_list" ]; then
		run_lat "$lat_list" "$rep"
	fi
done
has enum "$scenarios" && run_enum
if has dma "$scenarios"; then
	for rep in $(seq 1 "$reps"); do
		run_dma "$rep"
	done
fi
core_probe end

elapsed=$((SECONDS - start_s))
python3 - "$raw" "$outdir" "$cpu" "$(nproc)" "$elapsed" "$reps" "$scenarios" "$transports" \
	"$sizes" "$enum_sizes" "$link_lanes" "$link_baud" <<'PY'
import csv, json, math, statistics, sys
import xml.etree.ElementTree

raw, outdir, cpu, ncpu, elapsed, reps, scens, trans, fsizes, esizes = sys.argv[1:11]
link_lanes, link_gbaud = int(sys.argv[11]), float(sys.argv[12])
runs = {}
for line in open(raw):
    f = line.rstrip("\n").split("\t")
    if len(f) < 5:
        continue
    key = (f[0], f[1], int(f[2]))
    vals = dict(kv.split("=", 1) for kv in f[4:])
    run = {k: float(v) for k, v in vals.items()}
    run["_rep"] = int(f[3])
    runs.setdefault(key, []).append(run)

def cell(key, metric):
    vs = [r[metric] for r in runs.get(key, []) if metric in r]
    if not vs:
        return None
    return {"median": statistics.median(vs), "min": min(vs), "max": max(vs), "runs": len(vs)}

rows = []
def add(scen, transport, size, metric, c, unit):
    if c is not None:
        rows.append({"scenario": scen, "transport": transport, "size": size,
                     "metric": metric, "unit": unit, **c})

def fmt(c, digits=3, scale=1.0):
    if c is None:
        return "-"
    m, lo, hi = c["median"] * scale, c["min"] * scale, c["max"] * scale
    return f"{m:.{digits}f} ({lo:.{digits}f}..{hi:.{digits}f})"

def add_rate_cells(key, counts):
    """Rows for the Mpps cell of key and its other metrics (rates in Mpps, or frames)."""
    c = cell(key, "mpps")
    add(*key, "mpps", c, "Mpps")
    for m in counts:
        add(*key, m, cell(key, m), "Mpps" if m.endswith("mpps") or m == "win_p50" else "frames")
    return c

def ratio(a, b):
    if a is None or b is None or b["median"] == 0:
        return None
    return a["median"] / b["median"]

def median_ratio_cell(scen, t, s, base="memif"):
    """t/base of the median Mpps of scen at size s: adds its row, returns its column."""
    r = ratio(cell((scen, t, s), "mpps"), cell((scen, base, s), "mpps"))
    w = len(t) + len(base) + 1
    if r is None:
        return f"| {'-':>{w}} "
    add(scen, t + "/" + base, s, "ratio", {"median": r, "min": r, "max": r, "runs": int(reps)},
        "")
    return f"| {r:>{w}.2f} "

def ratio_pairs(scen):
    """(transport, base) of the ratio columns of scen: tsi721 against rionet in fwd."""
    pairs = [(t, "memif") for t in ("rionet", "rionet_zc") if t in transports]
    if scen == "fwd" and "tsi721" in transports and "rionet" in transports:
        pairs.append(("tsi721", "rionet"))
    return pairs

def ratio_cols(scen, s):
    """The ratio columns of scen at size s (rionet/memif, rionet_zc/memif, ...)."""
    return "".join(median_ratio_cell(scen, t, s, b) for t, b in ratio_pairs(scen))

def ratio_hdr(scen):
    return "".join(f"| {t + '/' + b} " for t, b in ratio_pairs(scen))

out = []
P = out.append
P(f"Machine: {cpu}, {ncpu} cores, no hugepages. Runs per cell: {reps}; "
  f"cells show median (min..max). Total time {elapsed} s.")
ends = [runs[k][0] for k in (("corelat", "start", 64), ("corelat", "end", 64)) if k in runs]
if ends:
    lo, hi = min(e["min_ns"] for e in ends), max(e["max_ns"] for e in ends)
    P("Cache line round trip between cores 0 and 1 (dpdk-rio-bench corelat, at start and "
      f"end): {lo:.0f} to {hi:.0f} ns, p50 " + " / ".join(f"{e['p50_ns']:.0f}" for e in ends)
      + " ns.")
    if hi > 2 * lo:
        P("It varied more than 2x: the vCPUs move between caches, and two-process results "
          "(scenarios 2 and 3) vary with it.")
    for k, e in zip(("start", "end"), ends):
        add("corelat", k, 64, "p50_ns", {"median": e["p50_ns"], "min": e["min_ns"],
                                        "max": e["max_ns"], "runs": 10}, "ns")
sizes = sorted({k[2] for k in runs if k[0] in ("fwd", "pair", "stream")})
LINK_TRANSPORTS = ("rionet_link", "rionet_link1", "rionet_link_q2")
transports = [t for t in ("rionet", "rionet_zc", "memif", "ring", "tsi721") + LINK_TRANSPORTS
              if any(k[1] == t for k in runs)]

# What the links carry (--link: lanes at a lane rate, 8b/10b up to 6.25
# Gbaud, 64b/67b above, as rio_sim_timing.c), and a frame's bytes on them:
# its message as segments of ssize 256, each a packet (header with 8-bit IDs,
# payload, CRC, a second CRC past 80 bytes, padding to 4 bytes, start and
# end delimiters), and as many 16-byte responses.
LINK_BPS = link_lanes * link_gbaud * 1e9 * (64 / 67 if link_gbaud > 6.25 else 8 / 10)
LINK_BYTES_S = LINK_BPS / 8
LINK_GEN = 1 if link_gbaud <= 3.125 else 2 if link_gbaud <= 6.25 else 3
LINK_NAME = f"Gen{LINK_GEN} x{link_lanes}"

def packet_bytes(hdr, payload):
    n = hdr + payload
    n += 4 if n > 80 else 2
    return (n + 3) // 4 * 4 + 8

def frame_wire(size):
    msg = (size + 7) // 8 * 8
    nseg = max(1, -(-msg // 256))
    segs = (nseg - 1) * packet_bytes(6, 256) + packet_bytes(6, msg - 256 * (nseg - 1))
    return segs, nseg * packet_bytes(6, 0)

def link_ceiling(scen, size):
    """Mpps the links carry: one direction (pair), or both, each with the other's responses."""
    segs, rsps = frame_wire(size)
    if scen == "fwd":
        return 2 * LINK_BYTES_S / (segs + rsps) / 1e6
    return LINK_BYTES_S / segs / 1e6

if any(k[0] == "fwd" for k in runs):
    P("")
    P("Scenario 1: one testpmd, two ports, io forwarding (--tx-first); Mpps = both ports' Rx")
    hdr = "size  " + "".join(f"| {t + ' Mpps':>24} | {'Gbit/s':>6} " for t in transports)
    P(hdr + ratio_hdr("fwd"))
    for s in sizes:
        line = f"{s:>4}  "
        for t in transports:
            c = cell(("fwd", t, s), "mpps")
            add("fwd", t, s, "mpps", c, "Mpps")
            g = None if c is None else {k: (v * s * 8 / 1000 if k != "runs" else v)
                                        for k, v in c.items()}
            add("fwd", t, s, "gbps", g, "Gbit/s")
            gs = "-" if g is None else "%.2f" % g["median"]
            line += f"| {fmt(c):>24} | {gs:>6} "
        P(line + ratio_cols("fwd", s))

if any(k[0] == "pair" for k in runs):
    P("")
    P("Scenario 2: two testpmd processes, txonly -> rxonly; Mpps received; "
      "sent/received = totals of the median run")
    pts = [t for t in transports if t not in ("ring", "tsi721")]
    hdr = "size  " + "".join(f"| {t + ' Mpps':>24} | {'Gbit/s':>6} | {'sent':>10} "
                             f"| {'received':>10} | {'lost':>6} " for t in pts)
    P(hdr + ratio_hdr("pair"))
    for s in sizes:
        line = f"{s:>4}  "
        for t in pts:
            key = ("pair", t, s)
            c = add_rate_cells(key, ("tx_mpps", "sent", "received", "lost", "tx_errors"))
            if c is None:
                line += f"| {'-':>24} | {'-':>6} | {'-':>10} | {'-':>10} | {'-':>6} "
                continue
            g = c["median"] * s * 8 / 1000
            rs = sorted(runs[key], key=lambda r: r["mpps"])
            med = rs[len(rs) // 2]
            lost_max = max(r["lost"] for r in runs[key])
            line += (f"| {fmt(c):>24} | {g:>6.2f} | {int(med['sent']):>10} "
                     f"| {int(med['received']):>10} | {int(lost_max):>6} ")
        P(line + ratio_cols("pair", s))
    P("(lost = most frames lost in any run: accepted by the sender's tx_burst, "
      "never received)")

if any(k[0] == "stream" for k in runs):
    P("")
    P("Scenario 2, same seconds: dpdk-rio-bench stream -> sink, the transports in turn every "
      "50 ms; Mpps accepted by the sender")
    pts = [t for t in transports if t not in ("ring", "tsi721") + LINK_TRANSPORTS]
    hdr = "size  " + "".join(f"| {t + ' Mpps':>24} | {'Gbit/s':>6} | {'lost':>6} " for t in pts)
    rts = [t for t in ("rionet", "rionet_zc") if t in pts]
    P(hdr + "".join(f"| {t + '/memif':>22} " for t in rts))
    P("      (ratios: median (min..max) of the per-run ratios)")
    for s in sizes:
        line = f"{s:>4}  "
        for t in pts:
            key = ("stream", t, s)
            c = add_rate_cells(key, ("win_p50", "sent_all", "received", "lost", "tx_errors"))
            if c is None:
                line += f"| {'-':>24} | {'-':>6} | {'-':>6} "
                continue
            lost_max = max(r["lost"] for r in runs[key])
            line += f"| {fmt(c):>24} | {c['median'] * s * 8 / 1000:>6.2f} | {int(lost_max):>6} "
        # The transports of one run met the same machine: compare within runs.
        b = {r["_rep"]: r["mpps"] for r in runs.get(("stream", "memif", s), [])}
        for t in rts:
            a = {r["_rep"]: r["mpps"] for r in runs.get(("stream", t, s), [])}
            rs = [a[k] / b[k] for k in a if k in b and b[k] > 0]
            if rs:
                rc = {"median": statistics.median(rs), "min": min(rs), "max": max(rs),
                      "runs": len(rs)}
                add("stream", t + "/memif", s, "ratio", rc, "")
                line += f"| {fmt(rc, 2):>22} "
            else:
                line += f"| {'-':>22} "
        P(line)
    P("(lost = most frames lost in any run: accepted by the sender's tx_burst, "
      "never received)")

if any(k[1] in LINK_TRANSPORTS for k in runs):
    P("")
    P(f"rionet on modelled links: ep0 - sw0 - ep1, {LINK_NAME} at {link_gbaud:g} Gbaud "
      f"({LINK_BPS / 1e9:.2f} Gbit/s), timing model on; "
      "rionet_link with the default letters=4, rionet_link1 with letters=1 (one message in "
      "flight per peer, as Linux rionet sends), rionet_link_q2 with two queue pairs (a "
      "mailbox each: eight messages in flight per peer); ceiling = the Mpps the links carry in frames "
      "of that size (segments with headers, CRCs, padding and delimiters; scenario 1 sends "
      "both ways, so each direction also carries the responses to the other's segments)")
    P(f"{'transport':<14} | {'scenario':<8} | size | {'Mpps':>24} | {'Gbit/s':>6} | "
      f"{'ceiling Mpps':>12} | {'fraction':>8}")
    for t in [t for t in LINK_TRANSPORTS if t in transports]:
        for scen in ("fwd", "pair"):
            for s in sizes:
                c = cell((scen, t, s), "mpps")
                if c is None:
                    continue
                ceil = link_ceiling(scen, s)
                one = lambda v: {"median": v, "min": v, "max": v, "runs": c["runs"]}
                add(scen, t, s, "ceiling_mpps", one(ceil), "Mpps")
                add(scen, t, s, "link_fraction",
                    {"median": c["median"] / ceil, "min": c["min"] / ceil,
                     "max": c["max"] / ceil, "runs": c["runs"]}, "")
                P(f"{t:<14} | {scen:<8} | {s:>4} | {fmt(c):>24} | "
                  f"{c['median'] * s * 8 / 1000:>6.2f} | {ceil:>12.3f} | {c['median'] / ceil:>8.3f}")

if any(k[0] == "lat" for k in runs):
    P("")
    P("Scenario 3: round trip of a 64-byte frame between two processes, ns")
    P(f"{'transport':<9} | {'min':>22} | {'p50':>22} | {'p99':>22} | lost")
    for t in ("rionet", "memif"):
        key = ("lat", t, 64)
        if key not in runs:
            continue
        cs = {m: cell(key, m + "_ns") for m in ("min", "p50", "p99")}
        for m, c in cs.items():
            add("lat", t, 64, m + "_ns", c, "ns")
        lost = sum(r["lost"] for r in runs[key])
        P(f"{t:<9} | {fmt(cs['min'], 0):>22} | {fmt(cs['p50'], 0):>22} | "
          f"{fmt(cs['p99'], 0):>22} | {int(lost)}")
    r = ratio(cell(("lat", "rionet", 64), "p50_ns"), cell(("lat", "memif", 64), "p50_ns"))
    if r is not None:
        rows.append({"scenario": "lat", "transport": "rionet/memif", "size": 64,
                     "metric": "p50_ratio", "unit": "", "median": r, "min": r, "max": r,
                     "runs": int(reps)})
        P(f"p50 rionet/memif: {r:.2f}")

if any(k[0] == "enum" for k in runs):
    P("")
    P("Scenario 4: 16-bit star fabrics, host enumeration and agent discovery")
    P(f"{'endpoints':>9} | {'devices':>7} | {'host ms':>22} | {'host maint':>10} | "
      f"{'maint/ep':>8} | {'agent ms':>22} | {'agent maint':>11} | {'maint/ep':>8}")
    for n in sorted(k[2] for k in runs if k[0] == "enum"):
        key = ("enum", "star", n)
        cs = {m: cell(key, m) for m in ("host_ms", "host_maint", "agent_ms", "agent_maint",
                                         "host_devices")}
        for m, c in cs.items():
            add("enum", "star", n, m, c, "ms" if m.endswith("_ms") else "count")
        P(f"{n:>9} | {int(cs['host_devices']['median']):>7} | {fmt(cs['host_ms'], 2):>22} | "
          f"{int(cs['host_maint']['median']):>10} | {cs['host_maint']['median'] / n:>8.1f} | "
          f"{fmt(cs['agent_ms'], 2):>22} | {int(cs['agent_maint']['median']):>11} | "
          f"{cs['agent_maint']['median'] / n:>8.1f}")

if any(k[0] == "dma" for k in runs):
    # Ceiling of the payload: 256-byte packets, 8-bit IDs, 34-bit addresses
    # (NWRITE header 10 bytes; the NREAD data rides in responses, header 6).
    dma_ceil = {"write": LINK_BYTES_S * 256 / packet_bytes(10, 256),
                "read": LINK_BYTES_S * 256 / packet_bytes(6, 256)}
    P("")
    P(f"Scenario 5: dma_rio goodput on {LINK_NAME} links ({link_gbaud:g} Gbaud), "
      "dpdk-rio-bench dma -> window; GB/s of payload")
    P(f"{'transaction':<8} | {'size':>7} | {'GB/s':>22} | {'Mops':>8} | {'ceiling GB/s':>12} | "
      f"{'fraction':>8}")
    for d, tname in (("write", "NWRITE"), ("read", "NREAD")):
        for n in sorted(k[2] for k in runs if k[0] == "dma" and k[1] == d):
            key = ("dma", d, n)
            c, m = cell(key, "gbytes_s"), cell(key, "mops")
            add("dma", d, n, "gbytes_s", c, "GB/s")
            f = {k: (v * 1e9 / dma_ceil[d] if k != "runs" else v) for k, v in c.items()}
            add("dma", d, n, "link_fraction", f, "")
            P(f"{tname:<8} | {n:>7} | {fmt(c):>22} | {m['median']:>8.3f} | "
              f"{dma_ceil[d] / 1e9:>12.3f} | {f['median']:>8.3f}")


# The plot: Gbit/s against frame size, one panel per scenario of scenarios 1
# and 2, a line per transport, and the links' ceiling for those on modelled
# links. Plain SVG, so that the report needs nothing but Python.
COLOURS = {"rionet": "#1f77b4", "rionet_zc": "#17becf", "memif": "#7f7f7f",
           "ring": "#bcbd22", "tsi721": "#9467bd", "rionet_link": "#d62728",
           "rionet_link1": "#ff7f0e", "rionet_link_q2": "#8c564b"}
TITLES = {"fwd": "1: one testpmd, io forwarding (both ports' Rx)",
          "pair": "2: txonly -> rxonly, two processes (Rx)"}

def svg_panel(scen, x0, y0, w, h):
    """One panel's SVG elements: axes, lines, ceiling, legend; [] without results."""
    series = []
    for t in transports:
        pts = [(s, cell((scen, t, s), "mpps")) for s in sizes]
        pts = [(s, c["median"] * s * 8 / 1000) for s, c in pts if c is not None]
        if pts:
            series.append((t, pts))
    if not series:
        return []
    link = any(t in LINK_TRANSPORTS for t, _ in series)
    ceil = [(s, link_ceiling(scen, s) * s * 8 / 1000) for s in sizes] if link else []
    top = max([g for _, pts in series for _, g in pts] + [g for _, g in ceil])
    step = next(v for v in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000) if top / v <= 8)
    ymax = step * (int(top / step) + 1)
    xs = sorted(sizes)
    # Frame sizes on a logarithmic axis: 64 to 4096 spread evenly.
    lx = lambda s: x0 + (w * 0.5 if len(xs) == 1 else
                         w * (math.log(s) - math.log(xs[0])) /
                         (math.log(xs[-1]) - math.log(xs[0])))
    ly = lambda g: y0 + h - h * g / ymax
    e = [f'<text x="{x0}" y="{y0 - 12}" font-size="13">Scenario {TITLES[scen]}</text>',
         f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#000"/>']
    for i in range(int(ymax / step) + 1):
        y = ly(i * step)
        e.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="#ddd"/>')
        e.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" font-size="11" '
                 f'text-anchor="end">{i * step}</text>')
    for s in xs:
        e.append(f'<text x="{lx(s):.1f}" y="{y0 + h + 16}" font-size="11" '
                 f'text-anchor="middle">{s}</text>')
    e.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" font-size="12" '
             'text-anchor="middle">frame bytes</text>')
    e.append(f'<text x="{x0 - 40}" y="{y0 + h / 2}" font-size="12" text-anchor="middle" '
             f'transform="rotate(-90 {x0 - 40} {y0 + h / 2})">Gbit/s</text>')
    legend = []
    if ceil:
        d = " ".join(f"{lx(s):.1f},{ly(g):.1f}" for s, g in ceil)
        e.append(f'<polyline data-series="{scen}/ceiling" points="{d}" fill="none" '
                 'stroke="#000" stroke-dasharray="6 4"/>')
        legend.append((f"link ceiling ({LINK_NAME}, {link_gbaud:g} Gbaud)", "#000", "6 4"))
    for t, pts in series:
        d = " ".join(f"{lx(s):.1f},{ly(g):.1f}" for s, g in pts)
        c = COLOURS.get(t, "#000")
        e.append(f'<polyline data-series="{scen}/{t}" points="{d}" fill="none" stroke="{c}" '
                 'stroke-width="2"/>')
        for s, g in pts:
            e.append(f'<circle cx="{lx(s):.1f}" cy="{ly(g):.1f}" r="3" fill="{c}"/>')
        legend.append((t, c, ""))
    for i, (name, c, dash) in enumerate(legend):
        y = y0 + 14 + i * 16
        e.append(f'<line x1="{x0 + 10}" y1="{y - 4}" x2="{x0 + 34}" y2="{y - 4}" stroke="{c}" '
                 f'stroke-width="2"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        e.append(f'<text x="{x0 + 40}" y="{y}" font-size="11">{name}</text>')
    return e

panels = [sc for sc in ("fwd", "pair") if any(k[0] == sc for k in runs)]
if panels:
    W, H, PW, PH = 520 * len(panels), 380, 420, 280
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif">',
           f'<rect width="{W}" height="{H}" fill="#fff"/>']
    for i, sc in enumerate(panels):
        svg += svg_panel(sc, 70 + i * 520, 40, PW, PH)
    svg.append("</svg>")
    open(f"{outdir}/throughput.svg", "w").write("\n".join(svg) + "\n")
    P("")
    P(f"Plot: {outdir}/throughput.svg (Gbit/s against frame size, scenarios "
      + " and ".join("1" if sc == "fwd" else "2" for sc in panels) + ")")

text = "\n".join(out) + "\n"
print(text, end="")
open(f"{outdir}/table.txt", "w").write(text)
with open(f"{outdir}/results.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["scenario", "transport", "size", "metric", "unit",
                                      "median", "min", "max", "runs"])
    w.writeheader()
    w.writerows(rows)
json.dump({"machine": {"cpu": cpu, "cores": int(ncpu), "hugepages": False},
           "runs_per_cell": int(reps), "elapsed_s": int(elapsed), "results": rows},
          open(f"{outdir}/results.json", "w"), indent=1)

# Every requested cell must be in the output: the harness check.
have = {(r["scenario"], r["transport"], r["size"], r["metric"]) for r in rows}
want = []
for sc in scens.split(","):
    for t in trans.split(","):
        # rionet_zc: frames up to what rio_sim receives in place (zc_fits).
        fs = [int(s) for s in fsizes.split(",") if t != "rionet_zc" or int(s) <= 1536]
        link = ("link_fraction",) if t in LINK_TRANSPORTS else ()
        if sc == "fwd":
            want += [(sc, t, s, m) for s in fs for m in ("mpps", "gbps") + link]
        elif sc == "pair" and t not in ("ring", "tsi721"):
            want += [(sc, t, s, m) for s in fs
                     for m in ("mpps", "sent", "received", "lost") + link]
        elif sc == "stream" and t not in ("ring", "tsi721") + LINK_TRANSPORTS:
            want += [(sc, t, s, m) for s in fs for m in ("mpps", "received", "lost")]
        elif sc == "lat" and t not in ("ring", "rionet_zc", "tsi721") + LINK_TRANSPORTS:
            want += [(sc, t, 64, m) for m in ("min_ns", "p50_ns", "p99_ns")]
    if sc == "enum":
        want += [(sc, "star", int(n), m) for n in esizes.split(",")
                 for m in ("host_ms", "host_maint", "agent_ms", "agent_maint")]
want += [("corelat", k, 64, "p50_ns") for k in ("start", "end")]
missing = [w for w in want if w not in have]
# The plot: a line for every transport of scenarios 1 and 2, a ceiling beside
# those on modelled links.
plotted = set()
if any(w[0] in ("fwd", "pair") for w in want):
    try:
        plotted = {el.get("data-series") for el in
                   xml.etree.ElementTree.parse(f"{outdir}/throughput.svg").iter()
                   if el.get("data-series")}
    except (OSError, xml.etree.ElementTree.ParseError) as exc:
        print(f"bench: no plot: {exc}", file=sys.stderr)
        missing.append(("plot",) * 4)
for sc, t in sorted({(w[0], w[1]) for w in want if w[0] in ("fwd", "pair")}):
    for series in [t] + (["ceiling"] if t in LINK_TRANSPORTS else []):
        if plotted and f"{sc}/{series}" not in plotted:
            missing.append((sc, series, "-", "plot line"))
for m in missing:
    print("bench: missing result: %s %s %s %s" % m, file=sys.stderr)
sys.exit(1 if missing else 0)
PY
pyrc=$?
echo "bench: wrote $outdir/table.txt, $outdir/results.csv, $outdir/results.json" \
	"$([ -f "$outdir/throughput.svg" ] && echo "and $outdir/throughput.svg")"
left=$(ls "$fabdir" 2>/dev/null | grep "^rio_sim\.${tag}_" || true)
if [ -n "$left" ]; then
	fail "shared memory left behind: $left"
fi
[ $pyrc -eq 0 ] || fail "report"
if [ $failures -gt 0 ]; then
	echo "bench: $failures run(s) failed" >&2
	exit 1
fi
exit 0
