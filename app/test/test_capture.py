#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Run the packet capture commands of the rionet guide, as written.

Usage: test_capture.py <source dir> <build dir>

The console block of the section "Packet capture" of
doc/guides/nics/rionet.rst (marked ".. doc-test: skip: needs hugepages;
capture_autotest ...", so that the guide-command test leaves it alone) runs
an interactive stock testpmd primary with two rionet ports, fed through a
FIFO, then the stock dpdk-pdump and dpdk-dumpcap on its first port with the
workarounds the section explains, stopping forwarding before each tool.
It needs hugepages: as root, this reserves 192 2 MiB pages and mounts a
private hugetlbfs the way rionet_mp_autotest does (same lock and records,
so either gives back the pages of a killed run of the other), passes it to
testpmd with --huge-dir (the only change to the commands besides the build
directory), and gives both back. Then it checks that pdump dequeued frames,
that dumpcap received frames on rionet_rio_sim0, and that testpmd, stopped
with SIGINT, exited with status 0 (a crash of the primary fails the block).

Exit 0 pass, 1 fail, 77 skip (not root, no 2 MiB hugepages, no stock tools).
"""

import fcntl
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_doc_commands as doc  # noqa: E402

GUIDE = "doc/guides/nics/rionet.rst"
MARK = "capture_autotest"
PAGES = 192
HP_DIR = "/sys/kernel/mm/hugepages/hugepages-2048kB/"
LOCK = "/run/dpdk-rio-test-hugepages.lock"
RUN = "/run/dpdk-rio-hp.%d"
TOOLS = ["/usr/bin/dpdk-testpmd", "/usr/bin/dpdk-pdump", "/usr/bin/dpdk-dumpcap"]


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def read_ul(path):
    with open(path) as f:
        return int(f.read().strip())


def write_ul(path, v):
    with open(path, "w") as f:
        f.write("%d\n" % v)


class Hugepages:
    """PAGES 2 MiB pages and a private hugetlbfs mount, as rionet_mp_autotest takes them."""

    def __init__(self):
        self.mnt = RUN % os.getpid()
        self.added = 0
        self.lock = open(LOCK, "a")
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        try:
            before = read_ul(HP_DIR + "nr_hugepages")
            write_ul(HP_DIR + "nr_hugepages", before + PAGES)
            self.added = max(read_ul(HP_DIR + "nr_hugepages") - before, 0)
            # Recorded first: a run killed from here on is cleaned up by the next one.
            write_ul(self.mnt + ".pages", self.added)
            if read_ul(HP_DIR + "free_hugepages") < PAGES:
                raise OSError("cannot reserve %d 2 MiB hugepages (got %d more)" %
                              (PAGES, self.added))
            os.mkdir(self.mnt, 0o700)
            subprocess.run(["mount", "-t", "hugetlbfs", "-o", "pagesize=2M", "nodev",
                            self.mnt], check=True)
        except (OSError, subprocess.CalledProcessError):
            self.release()
            raise
        finally:
            fcntl.flock(self.lock, fcntl.LOCK_UN)

    def release(self):
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        subprocess.run(["umount", "-l", self.mnt], stderr=subprocess.DEVNULL)
        if os.path.isdir(self.mnt):
            os.rmdir(self.mnt)
        if self.added > 0:
            write_ul(HP_DIR + "nr_hugepages",
                     max(read_ul(HP_DIR + "nr_hugepages") - self.added, 0))
        if os.path.exists(self.mnt + ".pages"):
            os.unlink(self.mnt + ".pages")
        self.added = 0
        fcntl.flock(self.lock, fcntl.LOCK_UN)


def capture_block(src):
    """The marked console block of the guide (a test_doc_commands.Block)."""
    parsed, _ = doc.parse(os.path.join(src, GUIDE))
    blocks = [b for b in parsed
              if b.lang in doc.SESSION_LANGS and b.marker and b.marker[0] == "skip" and
              MARK in b.marker[1]]
    if len(blocks) != 1:
        print("FAIL: %s: expected one console block marked for %s, found %d" %
              (GUIDE, MARK, len(blocks)))
        sys.exit(1)
    return blocks[0]


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    src = os.path.abspath(sys.argv[1])
    rel_build = os.path.relpath(os.path.abspath(sys.argv[2]), src)
    block = capture_block(src)
    line, cmds = block.line, list(block.cmds)
    primary = [i for i, c in enumerate(cmds) if c.startswith("dpdk-testpmd ")]
    if len(primary) != 1:
        print("FAIL: %s:%d: the block does not start one testpmd" % (GUIDE, line))
        return 1
    if os.geteuid() != 0:
        skip("not root: cannot reserve hugepages")
    if not os.path.isdir(HP_DIR):
        skip("no 2 MiB hugepage support")
    for t in TOOLS:
        if not os.access(t, os.X_OK):
            skip(t + " not installed")
    try:
        hp = Hugepages()
    except (OSError, subprocess.CalledProcessError) as e:
        skip(str(e))
    before = set(glob.glob("/tmp/rionet_*.pcap*") + glob.glob("/tmp/testpmd_*"))
    fdir = doc.fabric_dir(os.path.abspath(sys.argv[2]))
    shm_before = doc.fabrics(fdir)
    primary_log = ""
    try:
        cmds = [doc.BUILD_RE.sub(rel_build, c) for c in cmds]
        i = primary[0]
        cmds[i] = cmds[i].replace("dpdk-testpmd ", "dpdk-testpmd --huge-dir=%s " % hp.mnt, 1)
        rc, out = doc.run_block(src, block, cmds, rel_build, "%s:%d" % (GUIDE, line))
        # Only the block's own fabrics: other runs on the machine (this
        # test shares the machine's /dev/shm) may create theirs meanwhile.
        own = tuple("rio_sim." + n for n in
                    set(re.findall(r"fabric=([A-Za-z0-9_]+)", " ".join(cmds))))
        if not own:
            sys.exit("FAIL: the block names no fabric=: cannot check what it leaves")
        left = " ".join(sorted(f for f in doc.fabrics(fdir) - shm_before
                               if f.startswith(own)))
    finally:
        hp.release()
        for f in set(glob.glob("/tmp/rionet_*.pcap*") +
                     glob.glob("/tmp/testpmd_*")) - before:
            if f.endswith(".log"):
                with open(f, errors="replace") as fp:
                    primary_log = fp.read()
            os.unlink(f)
        # EAL runtime directories of the block's file prefix.
        for d in glob.glob("/var/run/dpdk/cap_*"):
            if not os.path.exists("/proc/%s" % d.rsplit("_", 1)[-1]):
                subprocess.run(["rm", "-rf", d])
    print(out[-4000:])
    failed = []
    if rc != 0:
        failed.append("exit status %s" % rc)
    if left:
        failed.append("left in %s: %s" % (fdir, left))
    m = re.search(r"packets dequeued:\s+(\d+)", out)
    if not m or int(m.group(1)) == 0:
        failed.append("dpdk-pdump captured nothing")
    m = re.search(r"Packets received/dropped on interface 'rionet_rio_sim0': (\d+)/", out)
    if not m or int(m.group(1)) == 0:
        failed.append("dpdk-dumpcap received nothing on rionet_rio_sim0")
    if failed:
        print("---- testpmd (last lines):\n" + "\n".join(primary_log.splitlines()[-40:]))
        print("FAIL: " + "; ".join(failed))
        return 1
    print("PASS: pdump dequeued and dumpcap received frames of rionet_rio_sim0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
