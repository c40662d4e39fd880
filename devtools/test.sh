#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Build (devtools/setup.sh) and run every test:
#   - every dpdk-rio-test autotest through meson (suite fast-tests, 2 at a
#     time; then suite perf-tests, one at a time),
#   - the stock DPDK dpdk-test rawdev_autotest with our plugins loaded, and
#     its pmd_perf_autotest over two rionet ports,
#   - the quick-start demo,
#   - Linux's tsi721 driver on our Tsi721 model (devtools/linux-interop.sh
#     cases 6 and 8), and the Linux reference node the rionet wire-format tests
#     use (both skipped, with the reason, when Debian's linux-source-6.1
#     package cannot be fetched),
#   - the documentation build (sphinx-build -W),
#   - the other DPDK release (22.11 or 24.11) in a Debian chroot, when
#     RIO_DPDK_SRC names a DPDK source tree of it (devtools/chroot-test.sh),
#   - no rio_sim.* object left behind (in the directory of our fabrics,
#     `dpdk-rio-fabric dir`).
# Each counts as one test. The last line is "N passed, N failed" (plus
# ", N skipped" when some were skipped); the exit status is non-zero when
# anything failed.
#
# Usage: devtools/test.sh [--quick]
#   --quick   skip the perf-tests suite
# Environment: RIO_BUILD_DIR (default: build); RIO_SANITIZE (0: no sanitizer
# and fuzz builds); RIO_DPDK_SRC (a DPDK source tree: of the installed
# release, it provides the driver-SDK headers; of the other release, the
# chroot check tests against it); RIO_CHROOT_TEST (quick, the default, full
# or 0); RIO_SIM_MODELS (the sanitizer pass's models, default a random
# vendor switch and tsi721; every other pass runs the topologies' own
# models). See doc/guides/testing.rst.

set -uo pipefail
asan_models=${RIO_SIM_MODELS:-}
unset RIO_SIM_MODELS

cd "$(dirname "$0")/.."
builddir=${RIO_BUILD_DIR:-build}
quick=0

for arg in "$@"; do
	case "$arg" in
	--quick) quick=1 ;;
	*) echo "test: error: unknown option '$arg' (usage: devtools/test.sh [--quick])" >&2
	   exit 2 ;;
	esac
done

passed=0
failed=0
skipped=0
failures=()

release() {	# release <version>: "24.11" of "24.11.3"
	echo "$1" | cut -d. -f1,2
}

record() {	# record <name> pass|fail|skip
	case "$2" in
	pass) passed=$((passed + 1)); echo "test: PASS $1" ;;
	skip) skipped=$((skipped + 1)); echo "test: SKIP $1" ;;
	*) failed=$((failed + 1)); failures+=("$1"); echo "test: FAIL $1" ;;
	esac
}

# Each "==== <title>" line starts a section; the summary prints the time of each.
section_title=
section_start=$SECONDS
section_times=()
section() {	# section <title> [<command>]
	[ -n "$section_title" ] &&
		section_times+=("$(printf '%5d s  %s' $((SECONDS - section_start)) "$section_title")")
	section_title=$1
	section_start=$SECONDS
	[ -z "$1" ] || echo "==== $1${2:+: $2}"
}

summary() {
	section ""
	echo
	echo "test: seconds per section:"
	printf '  %s\n' "${section_times[@]}"
	if [ ${#failures[@]} -gt 0 ]; then
		echo "Failed tests:"
		for f in "${failures[@]}"; do
			echo "  $f"
		done
	fi
	echo "test: finished in ${SECONDS} s (logs: $builddir/meson-logs/, $builddir/test-logs/)"
	line="$passed passed, $failed failed"
	[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
	echo "$line"
	[ "$failed" -eq 0 ]
	exit $?
}

section "build (devtools/setup.sh)"
if ! bash devtools/setup.sh </dev/null; then
	record build fail
	summary
fi

# The objects of our fabrics live in a directory of this user's.
fabdir=$("$builddir/app/dpdk-rio-fabric" dir)
shm_list() {
	ls -1 "$fabdir" 2>/dev/null | grep '^rio_sim\.' || true
}

shm_before=$(shm_list)
if [ -n "$shm_before" ]; then
	echo "test: note: rio_sim shared-memory objects exist before the run (not counted):"
	echo "$shm_before" | sed "s|^|  $fabdir/|"
fi

logdir="$builddir/test-logs"
mkdir -p "$logdir"

# DPDK is installed now. A DPDK tree of the installed release gave this
# build its driver-SDK headers; a tree of another release is for the chroot
# check only (setup.sh left it out of the build; so must meson's rebuilds).
host_dpdk=$(pkg-config --modversion libdpdk 2>/dev/null || true)
other_dpdk_src=
if [ -n "${RIO_DPDK_SRC:-}" ] && [ -f "$RIO_DPDK_SRC/VERSION" ] &&
	[ "$(release "$(cat "$RIO_DPDK_SRC/VERSION")")" != "$(release "$host_dpdk")" ]; then
	other_dpdk_src=$RIO_DPDK_SRC
	unset RIO_DPDK_SRC
fi

# Linux's RapidIO sources (Debian's linux-source-6.1, cached) build the
# reference node app/linux-ref into the build (-Dlinux_src), before the
# autotests: the rionet wire-format tests compare with Linux rionet through
# it. When the package cannot be fetched, those tests and the Linux records
# below are skipped with that reason; any other failure fails the run.
linux_skip=""
rc=0
sh devtools/get-linux-rapidio.sh "$builddir/linux-src" </dev/null >"$logdir/linux-src.log" 2>&1 ||
	rc=$?
if [ $rc -eq 2 ]; then
	linux_skip="Debian's linux-source-6.1 package cannot be fetched"
	echo "test: $linux_skip: the Linux reference node is not built"
elif [ $rc -ne 0 ]; then
	tail -n 20 "$logdir/linux-src.log"
	record linux_src fail
	linux_skip="the Linux sources could not be provided (see $logdir/linux-src.log)"
else
	want="$PWD/$builddir/linux-src"
	have=$(meson introspect --buildoptions "$builddir" | python3 -c \
		'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "linux_src"))')
	if { [ "$have" = "$want" ] || meson configure "$builddir" -Dlinux_src="$want"; } \
		>>"$logdir/linux-src.log" 2>&1 && ninja -C "$builddir" >>"$logdir/linux-src.log" 2>&1; then
		record linux_ref_build pass
	else
		tail -n 30 "$logdir/linux-src.log"
		record linux_ref_build fail
		linux_skip="the reference node did not build"
	fi
fi

# Count the results meson wrote to <logbase>.json (one JSON object per line).
count_meson() {	# count_meson <suite> <json>
	local out
	if [ ! -s "$2" ]; then
		return 1
	fi
	out=$(python3 - "$2" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    t = json.loads(line)
    r = t.get("result", "ERROR")
    v = {"OK": "pass", "EXPECTEDFAIL": "pass", "SKIP": "skip"}.get(r, "fail")
    name = t["name"].split(" / ", 1)[-1]    # drop "project:suite / "
    print("\t".join((name, v, r)))
PY
) || return 1
	while IFS=$'\t' read -r name verdict result; do
		[ -n "$name" ] || continue
		[ "$verdict" = fail ] && name="$name ($result)"
		record "$name" "$verdict"
	done <<< "$out"
	return 0
}

run_meson_suite() {	# run_meson_suite <suite> <processes>
	local suite=$1 json="$builddir/meson-logs/$1.json"
	if ! meson test -C "$builddir" --no-rebuild --list --suite "$suite" 2>/dev/null |
		grep -v -e '^ninja:' -e '^No suitable tests' | grep -q .; then
		echo "test: suite $suite has no tests"
		return
	fi
	section "meson test --suite $suite"
	rm -f "$json"
	meson test -C "$builddir" --suite "$suite" --print-errorlogs \
		--num-processes "$2" --logbase "$suite" </dev/null
	count_meson "$suite" "$json" || record "meson test --suite $suite (no results)" fail
}

# run_check <name> <timeout_s> <command...>: one test from one command's exit status.
run_check() {
	local name=$1 tmo=$2 log="$logdir/$1.log" rc=0
	shift 2
	section "$name" "$*"
	timeout --kill-after=5 "$tmo" "$@" </dev/null >"$log" 2>&1 || rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "test: $name timed out after $tmo s; last lines of $log:"
		tail -n 30 "$log"
		record "$name (timeout)" fail
		return 1
	elif [ $rc -ne 0 ]; then
		echo "test: $name exited with $rc; last lines of $log:"
		tail -n 30 "$log"
		record "$name" fail
		return 1
	fi
	return 0
}

run_meson_suite fast-tests 2
if [ $quick -eq 0 ]; then
	run_meson_suite perf-tests 1
else
	echo "test: --quick: suite perf-tests not run"
fi

# Stock dpdk-test: rawdev_autotest runs the skeleton tests and then the
# dev_selftest of every rawdev present, here rio_sim0 and the tsi721 model
# (and the model's own rio_sim rawdev) loaded from our plugins.
name=stock_rawdev_autotest
if run_check $name 120 env DPDK_TEST=rawdev_autotest dpdk-test --no-huge -m 256 --no-pci \
	--file-prefix=rawdev_stock_$$ -d "$PWD/$builddir/drivers" \
	--vdev rio_sim0,fabric=stock_$$ --vdev tsi721_model0,fabric=stock_$$,host=0; then
	log="$logdir/$name.log"
	# A normal run: rio_sim says nothing at its default log level but the
	# seed of the fabric it created (printed so that a failure can be replayed).
	if grep -q '^Test OK' "$log" && grep -q 'rio_sim.*selftest: Passed' "$log" &&
		grep -q 'tsi721_model0.*selftest: Passed' "$log" &&
		! grep -q 'selftest: Failed' "$log" &&
		! grep '^rio_sim: ' "$log" | grep -qv ' from seed [0-9]* (replay'; then
		record $name pass
	else
		echo "test: $name: no 'Test OK', no passed rio_sim or tsi721 selftest, or a rio_sim notice; last lines of $log:"
		tail -n 30 "$log"
		record $name fail
	fi
fi

# Stock dpdk-test: pmd_perf_autotest over two rionet ports, which it puts in
# loopback mode (devtools/pmd-perf.sh). Its cycles per packet are printed,
# not judged (timing); it must complete.
if run_check stock_pmd_perf_autotest 300 env RIO_BUILD_DIR="$builddir" \
	bash devtools/pmd-perf.sh rionet; then
	grep '^pmd-perf: rionet median' "$logdir/stock_pmd_perf_autotest.log"
	record stock_pmd_perf_autotest pass
fi

if run_check quickstart 150 bash devtools/quickstart.sh --no-setup; then
	record quickstart pass
fi

# Stock dpdk-test-dma-perf over the dma_rio dmadev, on each master port that
# has a memory space (DPDK 23.07 and later: on Debian 12 it is not there and
# the check says so).
for mport in rio_sim tsi721; do
	name=stock_dma_perf/$mport
	log="$logdir/stock_dma_perf_$mport.log"
	section "$name" "devtools/dma-perf.sh --mport $mport"
	rc=0
	RIO_BUILD_DIR=$builddir timeout --kill-after=10 300 bash devtools/dma-perf.sh \
		--mport "$mport" --sizes 64,4096 --out "$builddir/dma-perf-$mport-test" \
		</dev/null >"$log" 2>&1 || rc=$?
	case $rc in
	0) grep -v "^dma-perf: " "$log"; record "$name" pass ;;
	77) record "$name ($(sed -n 's/^dma-perf: skip: //p' "$log"))" skip ;;
	*) tail -n 30 "$log"; record "$name" fail ;;
	esac
done

# run_interop <record prefix> <log> <timeout_s> <linux-interop.sh args...>: one
# record per case and topology of devtools/linux-interop.sh, named from its
# lines "PASS|FAIL|SKIP case N on <topology>[:] ...", as <prefix>/caseN/<topology>.
run_interop() {
	local prefix=$1 log=$2 tmo=$3 rc=0
	shift 3
	section "$prefix" "devtools/linux-interop.sh $*"
	RIO_BUILD_DIR=$builddir timeout --kill-after=10 "$tmo" bash devtools/linux-interop.sh "$@" \
		</dev/null >"$log" 2>&1 || rc=$?
	if [ $rc -eq 77 ]; then
		record "$prefix ($(grep -m1 SKIP "$log" | sed 's/^linux-interop: SKIP: //'))" skip
		return
	fi
	while read -r verdict _ n _ topo rest; do
		case $verdict in
		PASS) record "$prefix/case$n/$topo" pass ;;
		FAIL) record "$prefix/case$n/$topo" fail ;;
		SKIP) record "$prefix/case${n}/${topo%:} (${rest})" skip ;;
		esac
	done < <(grep -E '^(PASS|FAIL|SKIP) case' "$log")
	grep -qE '^[0-9]+ passed, [0-9]+ failed' "$log" ||
		{ tail -n 30 "$log"; record "$prefix (rc $rc, no result line)" fail; }
	grep -E '^(FAIL|    )' "$log" | head -n 20
}

# Linux's own tsi721 driver on our Tsi721 model (interop cases 6 and 8): Linux
# enumerates and discovers through the part and its rionet talks to a Linux
# peer and to our rionet in testpmd; its inbound window is read and written
# by ours. Always run when the package can be had.
if [ -n "$linux_skip" ]; then
	record "linux_tsi721 ($linux_skip)" skip
else
	run_interop linux_tsi721 "$logdir/linux_tsi721.log" 600 --cases 6,8
fi

# The rest of the Linux interop matrix (devtools/linux-interop.sh): one
# record per case and topology, skipped only when Linux's sources cannot be
# had; a case is skipped (with the reason) only where Linux's own code
# cannot run it (see testing.rst).
if [ -n "$linux_skip" ]; then
	record "linux_interop ($linux_skip)" skip
else
	run_interop linux_interop "$logdir/linux_interop.log" 1500 --cases 1,2,3,4,5,7
fi

# ---- sanitizers and fuzzing (bad input). A second build with ASan and UBSan
# (RIO_ASAN_BUILD_DIR, default build-asan) runs every fast autotest under the
# "sanitize" test setup (UBSan halts on the first error, LeakSanitizer on):
# one record per autotest, named asan/<test>. A clang build with -Dfuzz=true
# (RIO_FUZZ_BUILD_DIR, default build-fuzz) runs every libFuzzer target of
# app/fuzz for a bounded number of inputs from its seed corpus: one record
# per target, named fuzz_<target>; a crash input is kept in
# <fuzz dir>/fuzz-artifacts/. Without clang the fuzz records are skipped.
# RIO_SANITIZE=0 skips both. See doc/guides/testing.rst.
if [ "${RIO_SANITIZE:-1}" != 0 ]; then
	asan_dir=${RIO_ASAN_BUILD_DIR:-build-asan}
	fuzz_dir=${RIO_FUZZ_BUILD_DIR:-build-fuzz}

	section "sanitizer build and fast-tests ($asan_dir)"
	if { [ -f "$asan_dir/build.ninja" ] ||
	     meson setup "$asan_dir" -Db_sanitize=address,undefined -Db_lundef=false; } \
		</dev/null >"$logdir/asan-build.log" 2>&1 &&
		ninja -C "$asan_dir" </dev/null >>"$logdir/asan-build.log" 2>&1; then
		# Skipped here (they run in the normal build above): tests that start
		# a stock or uninstrumented program loading the instrumented plugins
		# without devtools/asan-testpmd.sh (the ASan runtime would not come
		# first in it), and the benchmark smoke test, whose rate samples do
		# not fill in time under ASan. rionet_testpmd_autotest runs: it
		# starts testpmd through RIO_TESTPMD (the wrapper).
		asan_tests=()
		for t in $(meson test -C "$asan_dir" --no-rebuild --list --suite fast-tests \
			2>/dev/null | sed -n 's|^.*fast-tests / ||p'); do
			case $t in
			install_example_autotest|doc_commands|capture_autotest)
				record "asan/$t (uninstrumented program loads the plugins)" skip ;;
			bench_smoke) record "asan/$t (timing based)" skip ;;
			*) asan_tests+=("$t") ;;
			esac
		done
		# meson names the log after the test setup too. The timeouts are
		# hang detectors sized for the plain build: instrumented programs
		# start and run several times slower (fabric_tool_autotest, about
		# 180 starts of the tool: 8 s plain, 80 s with ASan at load 14).
		json="$asan_dir/meson-logs/asan-fast-tests-sanitize.json"
		rm -f "$json"
		# On vendor parts: over runs every fast autotest meets every strict model.
		sw_models=(cps1848 rxs2448)
		asan_models=${asan_models:-${sw_models[RANDOM % 2]},tsi721}
		echo "test: asan fast-tests on RIO_SIM_MODELS=$asan_models"
		RIO_SIM_MODELS=$asan_models \
		meson test -C "$asan_dir" --no-rebuild --setup sanitize --suite fast-tests \
			--timeout-multiplier 4 \
			--print-errorlogs --num-processes 2 --logbase asan-fast-tests \
			"${asan_tests[@]}" </dev/null |
			grep -E '^ *[0-9]+/[0-9]+ |^>>>|runtime error|Sanitizer'
		# Name the records asan/<test>.
		if [ -s "$json" ] && python3 - "$json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
with open(sys.argv[1], "w") as f:
    for t in lines:
        t["name"] = "asan/" + t["name"].split(" / ", 1)[-1]
        f.write(json.dumps(t) + "\n")
PY
		then
			count_meson fast-tests "$json" || record "asan fast-tests (no results)" fail
		else
			record "asan fast-tests (no results)" fail
		fi
	else
		echo "test: sanitizer build failed; last lines of $logdir/asan-build.log:"
		tail -n 30 "$logdir/asan-build.log"
		record asan_build fail
	fi

	# target:inputs, each target about 2 to 6 s.
	# fuzz_rionet: libFuzzer's per-input leak check flags objects that are only
	# referenced from DPDK memory (rte_malloc, which LSan does not scan) as
	# leaked, so it is off for that target; the ASan autotests check leaks.
	fuzz_targets="topology:50000 devargs:100000 maint:200000 recv:200000 attach:5000 rionet:30000"
	section "fuzz build ($fuzz_dir)"
	if ! command -v clang >/dev/null 2>&1; then
		echo "test: clang not found (devtools/setup.sh installs it): fuzz targets skipped"
		for t in $fuzz_targets; do
			record "fuzz_${t%%:*}" skip
		done
	elif { [ -f "$fuzz_dir/build.ninja" ] ||
	       CC=clang meson setup "$fuzz_dir" -Dfuzz=true -Dtests=false \
			-Db_sanitize=address,undefined -Db_lundef=false; } \
		</dev/null >"$logdir/fuzz-build.log" 2>&1 &&
		ninja -C "$fuzz_dir" $(for t in $fuzz_targets; do echo "app/fuzz/fuzz_${t%%:*}"; done) \
			</dev/null >>"$logdir/fuzz-build.log" 2>&1; then
		mkdir -p "$fuzz_dir/fuzz-artifacts"
		for t in $fuzz_targets; do
			name=${t%%:*}
			runs=${t##*:}
			work="$fuzz_dir/fuzz-corpus/$name"
			mkdir -p "$work"
			if run_check "fuzz_$name" 120 env \
				UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$PWD/devtools/ubsan.supp \
				ASAN_OPTIONS=detect_leaks=1 \
				"$fuzz_dir/app/fuzz/fuzz_$name" -runs="$runs" -max_total_time=60 \
				$( [ "$name" = rionet ] && echo -detect_leaks=0 ) \
				-artifact_prefix="$fuzz_dir/fuzz-artifacts/$name-" \
				"$work" "app/fuzz/corpus/$name"; then
				grep -E '^Done [0-9]+ runs' "$logdir/fuzz_$name.log"
				record "fuzz_$name" pass
			else
				# run_check recorded the failure; show the saved input.
				ls -1 "$fuzz_dir/fuzz-artifacts/$name-"* 2>/dev/null | tail -n 3
			fi
		done
	else
		echo "test: fuzz build failed; last lines of $logdir/fuzz-build.log:"
		tail -n 30 "$logdir/fuzz-build.log"
		record fuzz_build fail
	fi
fi

if run_check docs 300 sphinx-build -W -E -q -b html -d "$builddir/doc/doctrees" \
	doc/guides "$builddir/doc/html"; then
	record docs pass
fi

# ---- the other DPDK release: the same tree built and tested in a chroot of
# the Debian release that packages it (devtools/chroot-test.sh; the first
# run makes the chroot, later runs reuse it). One record per inner test,
# named dpdk-<release>/<test>.
case $(release "$host_dpdk") in
22.11) other_rel=24.11 ;;
24.11) other_rel=22.11 ;;
*) other_rel=other ;;
esac
if [ -n "$other_dpdk_src" ]; then
	other_rel=$(release "$(cat "$other_dpdk_src/VERSION")")
fi
chroot_mode=${RIO_CHROOT_TEST:-quick}
if [ "$chroot_mode" = 0 ]; then
	echo "test: RIO_CHROOT_TEST=0: DPDK $other_rel is not tested"
elif [ -z "$other_dpdk_src" ]; then
	record "dpdk-$other_rel (not tested: RIO_DPDK_SRC names no DPDK $other_rel source tree)" skip
else
	log="$logdir/chroot-dpdk-$other_rel.log"
	opt=()
	[ "$chroot_mode" = full ] && opt=(--full)
	section "DPDK $other_rel in a Debian chroot" "devtools/chroot-test.sh${opt[*]:+ ${opt[*]}} (log: $log)"
	# Progress on the terminal, everything in the log.
	RIO_DPDK_SRC=$other_dpdk_src timeout --foreground -k 30 5400 \
		bash devtools/chroot-test.sh "${opt[@]}" </dev/null 2>&1 | tee "$log" |
		grep --line-buffered -E \
			'^chroot-test: |^==== |^test: FAIL |^[0-9]+ passed, [0-9]+ failed'
	rc=${PIPESTATUS[0]}
	if [ $rc -eq 77 ]; then
		why=$(sed -n 's/^chroot-test: skip: //p' "$log" | tail -n 1)
		record "dpdk-$other_rel (not tested: $why)" skip
	else
		n=0
		while read -r verdict name; do
			n=$((n + 1))
			case $verdict in
			PASS) record "dpdk-$other_rel/$name" pass ;;
			SKIP) record "dpdk-$other_rel/$name" skip ;;
			*) record "dpdk-$other_rel/$name" fail ;;
			esac
		done < <(sed -n 's/^test: \(PASS\|FAIL\|SKIP\) /\1 /p' "$log")
		if [ $n -eq 0 ] || { [ $rc -ne 0 ] && ! grep -q '^test: FAIL ' "$log"; }; then
			echo "test: devtools/chroot-test.sh exited with $rc; last lines of $log:"
			tail -n 30 "$log"
			record "dpdk-$other_rel chroot (exit status $rc)" fail
		fi
	fi
fi

# Nothing may leave an emulated fabric behind. An object that a live process
# outside this tree still maps or holds open belongs to someone else's run
# (another checkout testing at the same time) and is left alone.
shm_users() {	# shm_users <name>: pids mapping or holding <fabdir>/<name>
	local p
	for p in /proc/[0-9]*; do
		if grep -qsF "$fabdir/$1" "$p/maps" 2>/dev/null ||
			ls -l "$p/fd" 2>/dev/null | grep -qF "$fabdir/$1"; then
			echo "${p#/proc/}"
		fi
	done
}

leftover=()
here="$PWD/$builddir"
for f in $(comm -13 <(echo "$shm_before" | sort) <(shm_list | sort)); do
	users=$(shm_users "$f" | tr '\n' ' ')
	users=${users% }
	if [ -z "$users" ]; then
		leftover+=("$f")
		continue
	fi
	ours=0
	for u in $users; do
		tr '\0' ' ' < "/proc/$u/cmdline" 2>/dev/null | grep -qF "$here" && ours=1
	done
	if [ $ours -eq 1 ]; then
		echo "test: $fabdir/$f is still held by a process of this run: $users"
		leftover+=("$f (held by $users)")
	else
		echo "test: note: $fabdir/$f belongs to another run (pids $users), not counted"
	fi
done
if [ ${#leftover[@]} -gt 0 ]; then
	echo "test: shared-memory objects left behind (removed now):"
	for f in "${leftover[@]}"; do
		echo "  $fabdir/$f"
		rm -f "$fabdir/${f%% *}"
	done
	record shm_leftovers fail
else
	record shm_leftovers pass
fi

summary
