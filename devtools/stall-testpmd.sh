#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Stopped sender, stock testpmd: two dpdk-testpmd processes on one emulated
# fabric (builtin:default: ep0 the host, ep1 an agent), rxonly on ep0 and
# txonly on ep1 toward ep0's rionet MAC address. The sender is stopped with
# SIGSTOP for --stop-s seconds and continued, --stops times, while it sends.
# A stopped process is alive: every frame rionet sent must reach the
# receiving application, and the receiver's port counters must agree with
# what the application got.
#
# Prints the sender's frames accepted by tx_burst (testpmd TX-packets), sent
# by rionet (tx_good_packets) and dropped (oerrors), the frames the receiving
# application got (testpmd RX-packets) and its port counted
# (rx_good_packets), and the JOINs and lost peers each side counted; exits
# 0 when nothing sent was lost and both receiver counts agree, 1 otherwise,
# 2 on a usage or set-up error.
#
# Usage: devtools/stall-testpmd.sh [--stops N] [--stop-s S] [--txpkts B]
#                                  [--rx-zero-copy] [--keep]
#   --stops N       stops of the sender (default: 6)
#   --stop-s S      seconds each (default: 7)
#   --txpkts B      frame length (testpmd --txpkts; default: 64)
#   --rx-zero-copy  the receiver's rionet port with rx_zero_copy=1
#   --keep          keep the testpmd logs (printed paths)
# Environment: RIO_BUILD_DIR (default: build), RIO_TESTPMD (default:
# dpdk-testpmd from PATH).

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
testpmd=${RIO_TESTPMD:-$(command -v dpdk-testpmd || echo /usr/bin/dpdk-testpmd)}
stops=6
stop_s=7
txpkts=64
rxzc=""
keep=0

usage() {
	sed -n '/^# Usage:/,/^# dpdk-testpmd from PATH/p' "$0" | sed 's/^# \?//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--stops) stops=${2:-}; shift 2 ;;
	--stop-s) stop_s=${2:-}; shift 2 ;;
	--txpkts) txpkts=${2:-}; shift 2 ;;
	--rx-zero-copy) rxzc=1; shift ;;
	--keep) keep=1; shift ;;
	*) usage ;;
	esac
done
for v in "$stops" "$stop_s" "$txpkts"; do
	[[ $v =~ ^[0-9]+$ ]] || usage
done
[ -x "$testpmd" ] || { echo "stall-testpmd: dpdk-testpmd not found" >&2; exit 2; }
[ -d "$builddir/drivers" ] || { echo "stall-testpmd: $builddir/drivers missing" >&2; exit 2; }

name=stall$$
work=$(mktemp -d /tmp/stall-testpmd.XXXXXX) || exit 2
lrx=$work/rx.log
ltx=$work/tx.log
mkfifo "$work/rx.in" "$work/tx.in" || exit 2
# Both FIFOs stay open here, so that testpmd never reads end-of-file.
exec 7<>"$work/rx.in" 8<>"$work/tx.in"
trap '' PIPE

rxdev="rio_sim0,fabric=$name,endpoint=ep0"
rxallow=()
if [ -n "$rxzc" ]; then
	rxallow=(--allow=rapidio0,rx_zero_copy=1)
fi
# Receiver on core 1, sender on core 0 (main lcores on the other core).
stdbuf -oL "$testpmd" --no-huge -m 512 --no-pci --file-prefix="${name}_rx" \
	--lcores='0@1,1@0' -d "$builddir/drivers" --vdev "$rxdev" "${rxallow[@]}" -- -i \
	--total-num-mbufs=16384 --forward-mode=rxonly < "$work/rx.in" > "$lrx" 2>&1 &
prx=$!
# testpmd's "start" first empties the Rx queues (frames the port counts but
# the application never sees): the sender starts once forwarding runs.
started() {	# started <log>: testpmd printed its forwarding line, within 60 s
	local t
	for t in $(seq 600); do
		grep -q "packet forwarding - ports=" "$1" && return 0
		sleep 0.1
	done
	return 1
}
echo start >&7
if ! started "$lrx"; then
	echo "stall-testpmd: the receiving testpmd did not start forwarding; log: $lrx"
	kill $prx 2>/dev/null
	exit 2
fi
stdbuf -oL "$testpmd" --no-huge -m 512 --no-pci --file-prefix="${name}_tx" \
	--lcores='0@0,1@1' -d "$builddir/drivers" --vdev "rio_sim0,fabric=$name,endpoint=ep1" \
	-- -i --total-num-mbufs=16384 --forward-mode=txonly --txpkts="$txpkts" \
	--eth-peer=0,00:01:00:01:00:00 < "$work/tx.in" > "$ltx" 2>&1 &
ptx=$!
echo start >&8
sleep 4
if ! kill -0 $prx 2>/dev/null || ! kill -0 $ptx 2>/dev/null; then
	echo "stall-testpmd: a testpmd did not start; logs: $lrx $ltx"
	kill $prx $ptx 2>/dev/null
	exit 2
fi
for i in $(seq "$stops"); do
	kill -STOP $ptx
	sleep "$stop_s"
	kill -CONT $ptx
	sleep 2
done
# The last count a "show port stats 0" printed (RX-packets or TX-packets).
port_count() { grep -o "$2-packets: *[0-9]*" "$1" | tail -1 | grep -o '[0-9]*$'; }

# Sender first; then the receiver drains its ring (30 s at most: the
# machine may be busy) before it stops.
echo stop >&8
sleep 1
echo "show port xstats 0" >&8
echo "show port stats 0" >&8
sleep 1
sent=$(port_count "$ltx" TX)
for t in $(seq 30); do
	echo "show port stats 0" >&7
	sleep 1
	[ "$(port_count "$lrx" RX)" = "${sent:-x}" ] && break
done
echo stop >&7
sleep 1
echo "show port xstats 0" >&7
sleep 1
echo quit >&7
echo quit >&8
for p in $prx $ptx; do
	for t in $(seq 100); do
		kill -0 $p 2>/dev/null || break
		sleep 0.1
	done
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
done

# The totals testpmd prints at "stop", and xstats (first "name: value" match).
fwd() { sed -n "/Accumulated forward statistics/,/^ *[+-]\\{10,\\}/p" "$1" |
	grep -o "$2: *[0-9]*" | head -1 | grep -o '[0-9]*$'; }
xstat() { grep -o "^ *$2: *[0-9]*" "$1" | tail -1 | grep -o '[0-9]*$'; }

tx_burst=$(fwd "$ltx" TX-packets)
tx_good=$(xstat "$ltx" tx_good_packets)
oerrors=$(xstat "$ltx" tx_errors)
rx_app=$(fwd "$lrx" RX-packets)
rx_good=$(xstat "$lrx" rx_good_packets)
echo "stall-testpmd: $stops stops of $stop_s s, $txpkts-byte frames${rxzc:+, receiver rx_zero_copy=1}"
echo "  sender:   accepted by tx_burst ${tx_burst:-?}, sent ${tx_good:-?}, dropped ${oerrors:-?}"
echo "  receiver: received by the application ${rx_app:-?}, counted by the port ${rx_good:-?}"
for side in sender:$ltx receiver:$lrx; do
	counts=$(grep -E '^ *(join_rx|join_tx|leave_rx|peers_lost|peer_0x[0-9a-f]*_lost|peer_0x[0-9a-f]*_tx_errors|tx_q0_ring_full): *[0-9]+' \
		"${side#*:}" | grep -v ': *0$' | tr -s ' ' | tr '\n' ' ')
	echo "  ${side%%:*} counters not 0: ${counts:-none}"
done
rc=0
if [ -z "$tx_good" ] || [ -z "$rx_app" ] || [ -z "$rx_good" ]; then
	echo "stall-testpmd: error: counts missing; logs: $lrx $ltx"
	keep=1
	rc=2
elif [ "$tx_good" != "$rx_app" ] || [ "$rx_good" != "$rx_app" ]; then
	echo "stall-testpmd: FAIL: $((tx_good - rx_app)) frames sent and not received," \
		"$((rx_good - rx_app)) counted by the port and not received"
	rc=1
else
	echo "stall-testpmd: PASS: every frame sent was received"
fi
exec 7>&- 8>&-
if [ $keep = 1 ]; then
	echo "stall-testpmd: logs: $lrx $ltx"
else
	rm -rf "$work"
fi
exit $rc
