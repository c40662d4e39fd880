#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Run every example program for a bounded time and check its output.

Usage: test_examples.py <build dir>

Each case runs build/examples/dpdk-<name> with a file prefix and a fabric of
its own, under a timeout, and parses what it prints: rio_msg's message
count, rio_ping's result lines and histogram (every ping answered, ordered
latencies), rio_fwd's per-task and per-port statistics (the frames counted
by each task match the ports' own counters and each other). Failure paths
(a ping without a pong, missing or bad options) must fail. Exit status 0
when every case passed, 1 otherwise. No rio_sim.* object of ours (in the
directory of our fabrics, see rio_fabric_dir.py) may be left behind.
"""

import os
import re
import subprocess
import sys
import time

from rio_fabric_dir import fabric_objects
from rio_lcores import lcores

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath("build")
EXAMPLES = os.path.join(BUILD, "examples")
DRIVERS = os.path.join(BUILD, "drivers")
TAG = "ex%d" % os.getpid()
TIMEOUT = 60

failures = []
counter = [0]


def eal(*lcore_ids):
    counter[0] += 1
    return ["--no-huge", "-m", "256", "--no-pci", lcores(*lcore_ids),
            "--log-level=lib.eal:error", "--file-prefix=%s_%d" % (TAG, counter[0])]


def fabric(name):
    return "%s_%s" % (TAG, name)


def run(args, timeout=TIMEOUT):
    """Run a command; return (exit status, stdout + stderr)."""
    print("+ " + " ".join(args), flush=True)
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if e.stdout else ""
        return -1, out + "\n(timed out after %d s)" % timeout
    return p.returncode, p.stdout.decode(errors="replace")


def check(name, cond, out, why):
    if cond:
        print("ok: %s: %s" % (name, why))
        return True
    print("FAILED: %s: %s" % (name, why))
    print("---- output of %s ----\n%s\n---- end ----" % (name, out[-4000:]))
    failures.append("%s: %s" % (name, why))
    return False


def ping_results(out):
    """rio_ping's result lines as {kind: {key: number}} and histogram sums."""
    res = {}
    for m in re.finditer(r"^rio_ping: result kind=(\w+) (.*)$", out, re.M):
        res[m.group(1)] = {k: float(v) for k, v in
                           (kv.split("=") for kv in m.group(2).split())}
    hist = {}
    kind = None
    for line in out.splitlines():
        m = re.match(r"^(\w+) round trips: ", line)
        if m:
            kind = m.group(1)
            hist[kind] = 0
            continue
        m = re.match(r"^  \[\s*\d+,\s*(\d+|inf)\) us\s+(\d+)", line)
        if m and kind:
            hist[kind] += int(m.group(2))
    return res, hist


def check_ping(name, out, kinds, count):
    res, hist = ping_results(out)
    for kind in kinds:
        r = res.get(kind)
        if not check(name, r is not None, out, "%s result line printed" % kind):
            continue
        check(name, r["sent"] == count and r["replies"] == count and r["lost"] == 0 and
              r["corrupt"] == 0, out, "%s: %d sent, %d replies" % (kind, count, count))
        check(name, 0 < r["min_us"] <= r["p50_us"] <= r["p99_us"] <= r["max_us"] and
              r["min_us"] <= r["avg_us"] <= r["max_us"], out,
              "%s: 0 < min <= p50 <= p99 <= max, min <= avg <= max (%.2f %.2f %.2f %.2f %.2f)"
              % (kind, r["min_us"], r["p50_us"], r["p99_us"], r["max_us"], r["avg_us"]))
        check(name, hist.get(kind) == count, out,
              "%s: histogram counts add up to %d (%s)" % (kind, count, hist.get(kind)))
    check(name, set(res) == set(kinds), out, "result kinds %s" % sorted(kinds))


def test_msg():
    name = "rio_msg"
    rc, out = run([os.path.join(EXAMPLES, "dpdk-rio-msg")] + eal(0) +
                  ["--", "--fabric", fabric("msg")])
    check(name, rc == 0, out, "exit status 0 (got %d)" % rc)
    check(name, re.search(r"^rio_msg: 8 of 8 messages arrived intact", out, re.M), out,
          "8 of 8 messages arrived intact")
    # A normal run: rio_sim says nothing at its default log level but the
    # seed of the fabric it created (printed so that a failure can be replayed).
    check(name, not re.search(r"^rio_sim: (?!.* from seed \d+ \(replay)", out, re.M), out,
          "no rio_sim notice or error")


def test_ping_one_process():
    ping = os.path.join(EXAMPLES, "dpdk-rio-ping")
    name = "rio_ping (pong lcore)"
    rc, out = run([ping] + eal(0, 1) + ["--", "--count", "500", "--fabric", fabric("p1")])
    check(name, rc == 0, out, "exit status 0 (got %d)" % rc)
    check(name, "pong on a worker lcore" in out, out, "pong runs on a worker lcore")
    check_ping(name, out, ["doorbell", "message"], 500)

    name = "rio_ping (inline pong, 4096-byte messages)"
    rc, out = run([ping] + eal(0) + ["--", "--count", "200", "--mode", "msg",
                                      "--size", "4096", "--fabric", fabric("p2")])
    check(name, rc == 0, out, "exit status 0 (got %d)" % rc)
    check(name, "pong on the main lcore" in out, out, "pong runs in the main loop")
    check_ping(name, out, ["message"], 200)


def test_ping_two_processes():
    ping = os.path.join(EXAMPLES, "dpdk-rio-ping")
    name = "rio_ping (two processes)"
    fab = fabric("p3")
    pong_args = [ping] + eal(0) + ["--", "--role", "pong", "--fabric", fab,
                                     "--timeout", "40"]
    print("+ " + " ".join(pong_args), flush=True)
    pong = subprocess.Popen(pong_args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    try:
        rc, out = run([ping] + eal(1) + ["--", "--role", "ping", "--fabric", fab,
                                          "--count", "300", "--size", "128"])
        pout, _ = pong.communicate(timeout=TIMEOUT)
        pout = pout.decode(errors="replace")
    finally:
        if pong.poll() is None:
            pong.kill()
            pong.wait()
    check(name, rc == 0, out, "ping exit status 0 (got %d)" % rc)
    check_ping(name, out, ["doorbell", "message"], 300)
    check(name, pong.returncode == 0, pout, "pong exit status 0 (got %d)" % pong.returncode)
    m = re.search(r"pong answered (\d+) doorbells and (\d+) messages, (\d+) errors", pout)
    check(name, m is not None and m.groups() == ("300", "300", "0"), pout,
          "pong answered 300 doorbells and 300 messages")

    name = "rio_ping (no pong)"
    t0 = time.monotonic()
    rc, out = run([ping] + eal(0) + ["--", "--role", "ping", "--fabric", fabric("p4"),
                                      "--count", "10", "--timeout", "1"])
    check(name, rc == 1, out, "exit status 1 without a pong side (got %d)" % rc)
    check(name, "no answer from destid 0" in out, out, "says there is no answer")
    check(name, time.monotonic() - t0 < 20, out, "gives up at its --timeout")

    name = "rio_ping (bad options)"
    for opts, msg in ((["--mode", "nope"], "--mode: dbell, msg or both, not 'nope'"),
                      (["--size", "8"], "--size: '8' is not a number in 16..4096"),
                      (["--role", "pong"], "--role needs --fabric")):
        rc, out = run([ping] + eal(0) + ["--"] + opts)
        want = 1 if opts[0] == "--role" else 2
        check(name, rc == want and msg in out, out,
              "%s -> exit %d (want %d), '%s'" % (opts, rc, want, msg))


def fwd_stats(out):
    tasks = {}
    for m in re.finditer(r"^rio_fwd: lcore (\d+) task (\S+) rx=(\d+) tx=(\d+) drop=(\d+)$",
                         out, re.M):
        tasks[m.group(2)] = dict(rx=int(m.group(3)), tx=int(m.group(4)),
                                 drop=int(m.group(5)))   # the last (final) block wins
    ports = {}
    for m in re.finditer(r"^rio_fwd: port (\d+) (\S+) ipackets=(\d+) opackets=(\d+)", out,
                         re.M):
        ports[m.group(2)] = dict(ipackets=int(m.group(3)), opackets=int(m.group(4)))
    return tasks, ports


def check_fwd(name, out, a, count, injected=0):
    tasks, ports = fwd_stats(out)
    to_rio = tasks.get("%s->rionet_rio_sim0" % a)
    from_rio = tasks.get("rionet_rio_sim0->%s" % a)
    echo = tasks.get("echo:rionet_rio_sim1")
    if not check(name, None not in (to_rio, from_rio, echo) and
                 set(ports) >= {a, "rionet_rio_sim0", "rionet_rio_sim1"}, out,
                 "final task and port statistics printed"):
        return
    check(name, to_rio["rx"] == count, out, "%d frames taken from %s (%d)" %
          (count, a, to_rio["rx"]))
    check(name, to_rio["tx"] > 0 and to_rio["tx"] + to_rio["drop"] == to_rio["rx"], out,
          "%s->rionet: every frame sent or dropped, some sent (%d sent, %d dropped)" %
          (a, to_rio["tx"], to_rio["drop"]))
    check(name, echo["rx"] == to_rio["tx"], out,
          "the far end received what was forwarded to it (%d)" % echo["rx"])
    check(name, echo["tx"] + echo["drop"] == echo["rx"] and
          from_rio["rx"] == echo["tx"], out,
          "what the far end returned came back (%d)" % from_rio["rx"])
    check(name, from_rio["tx"] + from_rio["drop"] == from_rio["rx"] and from_rio["tx"] > 0,
          out, "rionet->%s: every frame sent or dropped (%d sent)" % (a, from_rio["tx"]))
    check(name, ports[a]["ipackets"] == to_rio["rx"] and
          ports[a]["opackets"] == from_rio["tx"] + injected, out,
          "port %s counters match the tasks' (%s)" % (a, ports[a]))
    check(name, ports["rionet_rio_sim0"]["opackets"] == to_rio["tx"] and
          ports["rionet_rio_sim0"]["ipackets"] == from_rio["rx"], out,
          "rionet_rio_sim0 counters match the tasks' (%s)" % ports["rionet_rio_sim0"])
    check(name, ports["rionet_rio_sim1"]["ipackets"] == echo["rx"] and
          ports["rionet_rio_sim1"]["opackets"] == echo["tx"], out,
          "rionet_rio_sim1 counters match the echo task's (%s)" % ports["rionet_rio_sim1"])
    m = re.search(r"^rio_fwd: total to_rionet=(\d+) from_rionet=(\d+)", out, re.M)
    check(name, m is not None and int(m.group(1)) == to_rio["tx"] and
          int(m.group(2)) == from_rio["tx"], out, "totals line matches")


def test_fwd():
    fwd = os.path.join(EXAMPLES, "dpdk-rio-fwd")
    for a, ids, count, extra in (("net_null0", (0, 1), 100000, []),
                                 ("net_ring0", (0,), 20000, ["--tx-first", "32"])):
        name = "rio_fwd (%s, lcores %s)" % (a, ",".join(map(str, ids)))
        fab = fabric("f" + a[4])
        rc, out = run([fwd] + eal(*ids) + [
            "-d", DRIVERS, "--vdev", a, "--vdev", "rio_sim0,fabric=" + fab,
            "--vdev", "rio_sim1,fabric=" + fab, "--", "--dest-destid", "1",
            "--echo", "rionet_rio_sim1", "--count", str(count), "--duration", "30",
            "--stats-period", "1"] + extra)
        check(name, rc == 0, out, "exit status 0 (got %d)" % rc)
        check(name, "frames taken from port A and drained" in out, out,
              "stopped by --count, not by --duration")
        check_fwd(name, out, a, count, 32 if extra else 0)

    name = "rio_fwd (bad options)"
    for opts, want, msg in ((["--echo", "rionet_rio_sim1"], 2, "--dest-destid is required"),
                            (["--dest-destid", "1", "--rionet", "nope"], 1,
                             "--rionet: no port named 'nope'"),
                            (["--dest-destid", "0x10000"], 2,
                             "--dest-destid: '0x10000' is not a")):
        fab = fabric("fe")
        rc, out = run([fwd] + eal(0) + [
            "-d", DRIVERS, "--vdev", "net_null0", "--vdev", "rio_sim0,fabric=" + fab,
            "--"] + opts)
        check(name, rc == want and msg in out, out,
              "%s -> exit %d (want %d), '%s'" % (opts, rc, want, msg))


def main():
    for t in (test_msg, test_ping_one_process, test_ping_two_processes, test_fwd):
        t()
    left = fabric_objects(BUILD, "rio_sim.%s_*" % TAG)
    for f in left:
        os.unlink(f)
    check("shared memory", not left, "", "no rio_sim.%s_* object left (%s)" % (TAG, left))
    print("%d failed" % len(failures))
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
