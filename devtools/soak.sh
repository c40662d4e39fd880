#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Soak test: three processes, two switches, 10 million messages with
# per-flow sequence numbers and CRCs, link flaps and a clean peer restart.
# Zero lost, duplicated, reordered or corrupted among accepted messages, and
# flat memory, or it exits non-zero. See doc/guides/testing.rst ("Soak test")
# and the top of app/rio-soak/main.c.
#
# Usage: devtools/soak.sh [--smoke] [dpdk-rio-soak options]
#   (no option)  the full soak: 100,000,000 messages, 20 link flaps of 100 ms,
#                3 peer restarts, one per peer (about 25 s on a quiet 2-core
#                machine)
#   --smoke      check the harness itself (the soak_smoke test of the fast
#                suite, ~10 s): a short soak (100,000 messages paced at
#                50,000/s, 1 flap, 1 restart) must pass, five runs that
#                inject a fault (drop, dup, corrupt, reorder, leak) must each
#                fail with the matching violation, and a run whose restart is
#                a SIGKILL (--kill) must pass
#   other options go to dpdk-rio-soak (--messages N, --flaps N, --flap-ms MS,
#   --restarts N, --size-min B, --size-max B, --burst N, --timeout-s S,
#   --rss-slack-kb KB, --rate MSG_PER_S, --keep, --inject KIND)
# The output is also written to <build>/soak/last.txt (smoke: last-smoke.txt).
# Environment: RIO_BUILD_DIR (default: build).

set -uo pipefail

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
soakbin="$builddir/app/rio-soak/dpdk-rio-soak"
out=last.txt
args=()

smoke=0
if [ $# -gt 0 ] && [ "$1" = "--smoke" ]; then
	shift
	smoke=1
	out=last-smoke.txt
	args=(--messages 100000 --rate 50000 --flaps 1 --flap-ms 50 --restarts 1 --timeout-s 60)
fi
if [ ! -x "$soakbin" ]; then
	echo "soak: error: $soakbin not found (build first: ninja -C $builddir)" >&2
	exit 2
fi
mkdir -p "$builddir/soak" || exit 2

# Each injected fault must be caught: exit 1 with this violation.
if [ $smoke = 1 ]; then
	fails=0
	for case in "drop:accepted messages lost" "dup:[1-9][0-9]* duplicates" \
		    "corrupt:[1-9][0-9]* corrupt" "reorder:[1-9][0-9]* reordered" \
		    "leak:ep1 incarnation 0: pool in use changed"; do
		kind=${case%%:*}
		want=${case#*:}
		log="$builddir/soak/inject-$kind.txt"
		"$soakbin" --messages 30000 --flaps 0 --restarts 0 --timeout-s 60 \
			--inject "$kind" > "$log" 2>&1
		rc=$?
		# A failed run keeps its directory: remove the one this run named.
		dir=$(sed -n 's|^rio-soak: logs and state kept in \(/tmp/rio-soak\.[A-Za-z0-9]*\)$|\1|p' "$log")
		[ -n "$dir" ] && rm -rf "$dir"
		if [ $rc = 1 ] && grep -q "^VIOLATION: .*$want" "$log"; then
			echo "soak: inject $kind: caught ($(grep -c '^VIOLATION' "$log") violation(s))"
		else
			echo "soak: error: inject $kind: exit $rc, no 'VIOLATION: ...$want' in $log"
			cat "$log"
			fails=$((fails + 1))
		fi
	done
	# Restarts by SIGKILL: what the killed rings held is counted apart.
	log="$builddir/soak/kill.txt"
	"$soakbin" --messages 60000 --rate 50000 --flaps 0 --restarts 1 --kill \
		--timeout-s 60 > "$log" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q "^RESULT soak .* kills=1 .*verdict=PASS" "$log"; then
		echo "soak: kill restart: $(grep -o 'lost_at_kill=[0-9]* resent_at_kill=[0-9]*' "$log")"
	else
		echo "soak: error: kill restart: exit $rc (see $log)"
		cat "$log"
		fails=$((fails + 1))
	fi
	[ $fails = 0 ] || exit 1
fi
{
	echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(uname -n) $(nproc) cores," \
		"$(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "# $soakbin ${args[*]} $*"
} > "$builddir/soak/$out"
"$soakbin" "${args[@]}" "$@" 2>&1 | tee -a "$builddir/soak/$out"
exit "${PIPESTATUS[0]}"
