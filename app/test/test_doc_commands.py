#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Run every command shown in the quick start and examples guides.

Usage: test_doc_commands.py <source dir> <build dir> <guide.rst>...

Rules for the guides (doc/guides/getting_started/quickstart.rst and
doc/guides/examples/*.rst):

* A runnable command is a line starting with "$ " inside a
  ".. code-block:: console" block; a command continues on the following
  lines while a line ends with a backslash. Other lines of the block are
  sample output and are not checked.
* Every console block must hold at least one command, and every guide at
  least one runnable command, so that commands cannot slip out of the test
  unnoticed.
* The commands of one block run in order in one bash shell (like a user
  typing them in one terminal: "$$" and "$!" keep their meaning from one
  command to the next), from the top of the source tree, under a timeout.
  Each must exit with status 0.
* Commands must bound themselves (--count, --duration, --timeout ...).
* An RST comment right before a block changes how it is run:
    ".. doc-test: skip: <reason>"          the block is not run;
    ".. doc-test: append: <arguments>"     the arguments are appended to
                                           every command of the block.
  Used for devtools/test.sh (running it from a test would recurse) and for
  devtools/quickstart.sh (run with --no-setup: the tree is already built,
  and setup would rebuild the build directory under test).

The only substitution: the guides use the build directory "build"; a path
"build/..." (or "-C build") in a command is replaced by the build directory
under test, relative to the source tree, and RIO_BUILD_DIR is set to it for
the scripts of devtools/. Shared-memory fabrics named after the shell's
process ID ($$) must be gone when the block ends.
"""

import os
import re
import signal
import subprocess
import sys

from rio_fabric_dir import fabric_dir

BLOCK_TIMEOUT = 180

CONSOLE_RE = re.compile(r"^(\s*)\.\. code-block:: console\s*$")
MARK_RE = re.compile(r"^\.\. doc-test: (skip|append): *(.*)$")
BUILD_RE = re.compile(r"(?<![\w./$-])build(?=/|\s|$)")


def parse(path):
    """Return [(line number, marker, [command, ...])] for every console block."""
    lines = open(path, encoding="utf-8").read().splitlines()
    blocks = []
    for i, line in enumerate(lines):
        m = CONSOLE_RE.match(line)
        if not m:
            continue
        # marker: the nearest non-blank line above
        marker = None
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j >= 0:
            mm = MARK_RE.match(lines[j].strip())
            if mm:
                marker = (mm.group(1), mm.group(2).strip())
        # the block: following lines indented more than the directive, or blank
        base = len(m.group(1))
        body = []
        k = i + 1
        while k < len(lines) and (not lines[k].strip() or
                                  len(lines[k]) - len(lines[k].lstrip()) > base):
            body.append(lines[k])
            k += 1
        cmds = []
        cur = None
        for b in body:
            text = b.strip()
            if cur is not None:
                cur.append(text)
                if not text.endswith("\\"):
                    cmds.append("\n".join(cur))
                    cur = None
                continue
            if text.startswith("$ "):
                cur = [text[2:]]
                if not text.endswith("\\"):
                    cmds.append(cur[0])
                    cur = None
        if cur is not None:
            cmds.append("\n".join(cur))
        blocks.append((i + 1, marker, cmds))
    return blocks


def run_block(src, rel_build, cmds, name, fabrics):
    script = ["export RIO_BUILD_DIR=%s" % rel_build]
    for n, c in enumerate(cmds, 1):
        script.append(c)
        script.append('__rc=$?; if [ $__rc -ne 0 ]; then '
                      'echo "doc-test: command %d exited with status $__rc" >&2; '
                      'exit $__rc; fi' % n)
    script.append("wait")
    text = "\n".join(script) + "\n"
    print("---- %s:" % name)
    for c in cmds:
        print("$ " + c.replace("\n", "\n  "))
    sys.stdout.flush()
    p = subprocess.Popen(["bash", "--noprofile", "--norc", "-c", text], cwd=src,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=BLOCK_TIMEOUT)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = "timeout after %d s" % BLOCK_TIMEOUT
    out = out.decode(errors="replace")
    # Fabrics named after this shell ($$) must be gone.
    left = [f for f in (os.listdir(fabrics) if os.path.isdir(fabrics) else [])
            if f.startswith("rio_sim.") and re.search(r"_%d(\.|$)" % p.pid, f)]
    for f in left:
        os.unlink(os.path.join(fabrics, f))
    return rc, out, left


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    src = os.path.abspath(sys.argv[1])
    build = os.path.abspath(sys.argv[2])
    rel_build = os.path.relpath(build, src)
    fabrics = fabric_dir(build)
    failures = []
    ran = skipped = 0
    for guide in sys.argv[3:]:
        rel_guide = os.path.relpath(os.path.abspath(guide), src)
        blocks = parse(guide)
        runnable = 0
        for line, marker, cmds in blocks:
            name = "%s:%d" % (rel_guide, line)
            if not cmds:
                print("FAILED: %s: console block without a '$ ' command" % name)
                failures.append(name + ": console block without a command")
                continue
            if marker and marker[0] == "skip":
                if not marker[1]:
                    failures.append(name + ": doc-test skip without a reason")
                print("---- %s: skipped (%s):\n$ %s" % (name, marker[1], "\n$ ".join(cmds)))
                skipped += len(cmds)
                continue
            if marker and marker[0] == "append":
                cmds = [c + " " + marker[1] for c in cmds]
            cmds = [BUILD_RE.sub(rel_build, c) for c in cmds]
            runnable += len(cmds)
            rc, out, left = run_block(src, rel_build, cmds, name, fabrics)
            ran += len(cmds)
            if rc != 0:
                print(out[-6000:])
                print("FAILED: %s: exit status %s" % (name, rc))
                failures.append("%s: exit status %s" % (name, rc))
            elif left:
                print(out[-3000:])
                print("FAILED: %s: left %s/%s" % (name, fabrics, left))
                failures.append("%s: left shared memory %s" % (name, left))
            else:
                print("ok: %s (%d command%s)" % (name, len(cmds), "s" if len(cmds) > 1 else ""))
        if runnable == 0:
            print("FAILED: %s: no runnable command found" % rel_guide)
            failures.append(rel_guide + ": no runnable command")
    print("%d commands run, %d skipped, %d failed" % (ran, skipped, len(failures)))
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
