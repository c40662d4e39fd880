#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Soak test: three processes, two switches, millions of messages with
# per-flow sequence numbers and CRCs, link flaps, peers stopped (SIGSTOP)
# and restarted (SIGTERM and SIGKILL), over the raw mport API and over
# rionet (copy and zero-copy receive). Zero lost, duplicated, reordered or
# corrupted among accepted messages, and flat memory, or it exits non-zero.
# See doc/guides/testing.rst ("Soak test") and the top of app/rio-soak/main.c.
#
# Usage: devtools/soak.sh [--smoke] [dpdk-rio-soak options]
#   (no option)  the full soak, three runs: --mode raw (100,000,000
#                messages), --mode rionet and --mode rionet-zc (10,000,000
#                frames each), each with 20 link flaps of 100 ms, 2 clean
#                restarts, 2 kills and 3 stalls of 6 s (SIGSTOP); with
#                --mode only that run
#   --smoke      check the harness itself (the soak_smoke test of the fast
#                suite, ~20 s): a short raw soak and a short rionet-zc soak
#                (paced at 50,000 messages/s, each with a flap, a clean
#                restart, a kill and a stall) must pass, five runs that
#                inject a fault (drop, dup, corrupt, reorder, leak) must each
#                fail with the matching violation, and one that injects a
#                message sent twice after a send without response
#                (unanswered) must pass
#   other options go to dpdk-rio-soak (--mode M, --messages N, --flaps N,
#   --flap-ms MS, --restarts N, --kills N, --stalls N, --stall-ms MS,
#   --size-min B, --size-max B, --burst N, --timeout-s S, --rss-slack-kb KB,
#   --rate MSG_PER_S, --seed S, --keep, --inject KIND)
# The output is also written to <build>/soak/last.txt (smoke: last-smoke.txt).
# Environment: RIO_BUILD_DIR (default: build).

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
soakbin="$builddir/app/rio-soak/dpdk-rio-soak"
out=last.txt

smoke=0
if [ $# -gt 0 ] && [ "$1" = "--smoke" ]; then
	shift
	smoke=1
	out=last-smoke.txt
fi
if [ ! -x "$soakbin" ]; then
	echo "soak: error: $soakbin not found (build first: ninja -C $builddir)" >&2
	exit 2
fi
mkdir -p "$builddir/soak" || exit 2

# A failed run keeps its directory: remove the one its log names.
rm_run_dir() {
	local dir

	dir=$(sed -n 's|^rio-soak: logs and state kept in \(/tmp/rio-soak\.[A-Za-z0-9]*\)$|\1|p' "$1")
	[ -n "$dir" ] && rm -rf "$dir"
}

fails=0
# Each injected fault must be caught: exit 1 with this violation.
if [ $smoke = 1 ]; then
	for case in "drop:accepted messages lost" "dup:[1-9][0-9]* duplicates" \
		    "corrupt:[1-9][0-9]* corrupt" "reorder:[1-9][0-9]* reordered" \
		    "leak:ep1 incarnation 0: pool in use changed"; do
		kind=${case%%:*}
		want=${case#*:}
		log="$builddir/soak/inject-$kind.txt"
		"$soakbin" --messages 30000 --flaps 0 --restarts 0 --kills 0 --stalls 0 \
			--timeout-s 60 --inject "$kind" > "$log" 2>&1
		rc=$?
		rm_run_dir "$log"
		if [ $rc = 1 ] && grep -q "^VIOLATION: .*$want" "$log"; then
			echo "soak: inject $kind: caught ($(grep -c '^VIOLATION' "$log") violation(s))"
		else
			echo "soak: error: inject $kind: exit $rc, no 'VIOLATION: ...$want' in $log"
			cat "$log"
			fails=$((fails + 1))
		fi
	done
	# The report names the duplicate: message 2500 (half of ep0->ep1's 5000).
	if ! grep -q '^ep0->ep1: first duplicate sequence number 2500 ' \
		"$builddir/soak/inject-dup.txt"; then
		echo "soak: error: inject dup: the report does not name sequence number 2500"
		fails=$((fails + 1))
	fi
	# Not a fault: a message offered again after a send without response
	# arrives twice while the next one is refused many times; it must
	# pass, counted as dup_unanswered, not as a duplicate.
	log="$builddir/soak/inject-unanswered.txt"
	"$soakbin" --messages 30000 --flaps 0 --restarts 0 --kills 0 --stalls 0 \
		--timeout-s 60 --inject unanswered > "$log" 2>&1
	rc=$?
	rm_run_dir "$log"
	if [ $rc = 0 ] && grep -q '^RESULT .* dup=0 .* dup_unanswered=1 ' "$log"; then
		echo "soak: inject unanswered: passed as dup_unanswered"
	else
		echo "soak: error: inject unanswered: exit $rc, no 'dup=0 ... dup_unanswered=1' in $log"
		cat "$log"
		fails=$((fails + 1))
	fi
fi

# The runs: mode and options before the user's (a later option wins).
runs=()
if [ $smoke = 1 ]; then
	runs+=("--mode raw --messages 150000")
	runs+=("--mode rionet-zc --messages 150000")
	common="--rate 50000 --flaps 1 --flap-ms 50 --restarts 1 --kills 1 --stalls 1 --stall-ms 300 --timeout-s 60"
elif printf '%s\n' "$@" | grep -q '^--mode$'; then
	runs+=("")
	common=""
else
	runs+=("--mode raw --messages 100000000")
	runs+=("--mode rionet --messages 10000000")
	runs+=("--mode rionet-zc --messages 10000000")
	common=""
fi
{
	echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(uname -n) $(nproc) cores," \
		"$(git describe --always --dirty 2>/dev/null || echo unknown)"
} > "$builddir/soak/$out"
for run in "${runs[@]}"; do
	# shellcheck disable=SC2086 # run and common are lists of options
	echo "# $soakbin $run $common $*" | tee -a "$builddir/soak/$out"
	# shellcheck disable=SC2086
	"$soakbin" $run $common "$@" 2>&1 | tee -a "$builddir/soak/$out"
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ]; then
		echo "soak: error: $soakbin $run $common $*: exit $rc"
		fails=$((fails + 1))
	fi
done
[ $fails = 0 ] || exit 1
exit 0
