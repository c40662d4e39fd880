#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Run every command that README.md and the guides show, as written.

Usage: test_doc_commands.py <source dir> <build dir> [<document>...]
(default: README.md and every .rst file under doc/guides/)

Where the commands are:

* RST: a ".. code-block:: console" block is a terminal session: a command
  is a line starting with "$ ", continued on the following lines while a
  line ends with a backslash; the other lines are sample output.
* Markdown: a fenced block tagged sh, shell or bash holds commands only
  (lines starting with "#" are comments); a block tagged console is a
  session as in RST.
* Every such block holds at least one command, every document that has
  blocks at least one command to run, and no command hides elsewhere: a
  literal block, a ".. code-block:: none/text" block or an untagged fence
  with a "$ " line, or whose first line (after shell comments) starts like
  a command (a path into the tree or a build directory, a dpdk-* program,
  meson, ninja, make, modprobe ...)
  and is not a synopsis (with placeholders such as <fabric>), fails the
  test: show it as a console session.

How they run:

* The commands of one block run in order in one bash shell, from the top
  of the source tree, as typed in one terminal ("$$" and "$!" keep their
  meaning from one command to the next). Each must exit with status 0, or
  as the document shows it: a command followed by "$ echo $?" and a number
  must exit with that number, and one whose sample output starts with an
  error line ("<program>: error: ...") must fail.
* The blocks of one document run one after the other (a session may go on
  in the next block, as the fabric tool guide's does) in mount and PID
  namespaces of their own (unshare): a private /dev/shm and /run/dpdk, so
  the fabric names and EAL file prefixes a document uses never meet those
  of another run on the machine. Nothing may be left in that /dev/shm when
  the document ends, and every process it left running is killed.
  Documents run DOC_JOBS at a time (RIO_DOC_JOBS, default 3), those that
  run devtools/ scripts and runs until Ctrl-C first; each one's output is
  printed whole when it ends, with its time. Without unshare (not root),
  documents run one at a time in the machine's namespaces and every
  /dev/shm/rio_sim.* object that appeared meanwhile counts as left behind.
* Files that the documents create at the top of the tree (a command file
  written with printf) are removed when they end (when the document ends,
  without unshare). Two documents may not write the same "file:" path.
* A block gets BLOCK_TIMEOUT seconds: commands must bound themselves.

Markers: an RST comment ".. doc-test: <kind>: <argument>" or a Markdown
comment "<!-- doc-test: <kind>: <argument> -->" as the nearest non-blank
line above a block:

    skip: <reason>        the block is not run (it would recurse, install
                          into the system, needs a second terminal ...);
    append: <arguments>   appended to every command of the block;
    interrupt: <seconds>  the block's last command runs until Ctrl-C (as
                          testpmd with --stats-period): it must still run
                          after <seconds>, then gets SIGINT as from a
                          terminal and must end within 10 s, with status 0
                          or killed by SIGINT;
    file: <path>          the block (not a command block) is the content of
                          a file the following blocks read: it is written
                          to <path>, relative to the top of the tree, and
                          removed when the document ends.

Static checks of every command, run or skipped, of the program it starts
(its first word after VAR=value assignments): a relative path must name an
executable file of the tree or of the build directory under test (other
build directories, such as build-asan, are not checked), with the run bit
in git's index too for a file of the tree (a fresh clone takes it from
git); a name without a path must be a shell builtin or be found on PATH,
and is an error when it names a program of the build (write its path) or
a dpdk-* program. Absolute paths are not checked. A script of the tree that
a document names anywhere must have its run bit in git's index.

The only substitution: the documents use the build directory "build"; a
path "build/..." (or "-C build") in a command is replaced by the build
directory under test, relative to the source tree, and RIO_BUILD_DIR is
set to it for the scripts of devtools/.
"""

import functools
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

from rio_fabric_dir import fabric_dir

BLOCK_TIMEOUT = 180
INTERRUPT_GRACE = 10
# Documents run at the same time, each in namespaces of its own. Much of a
# document's time is waiting (testing.rst's stall-testpmd.sh has a sender
# stopped for 42 s, runs until Ctrl-C): three at a time keep the project's
# two cores busy without queueing behind the longest.
DOC_JOBS = int(os.environ.get("RIO_DOC_JOBS", "3"))

RST_BLOCK_RE = re.compile(r"^(\s*)\.\. code-block::\s*(\S*)\s*$")
RST_MARK_RE = re.compile(r"^\.\. doc-test: (skip|append|interrupt|file): *(.*)$")
MD_FENCE_RE = re.compile(r"^(\s*)```\s*([\w-]*)\s*$")
MD_MARK_RE = re.compile(r"^<!-- doc-test: (skip|append|interrupt|file): *(.*?) *-->$")
BUILD_RE = re.compile(r"(?<![\w./$-])build(?=/|\s|$)")
# The first line of a block that is a command shown outside a session.
COMMAND_LIKE_RE = re.compile(
    r"^(\$ |(\w+=\S*\s+)*(\./|build[\w-]*/|devtools/|buildtools/|\.ci/|dpdk-|"
    r"(meson|ninja|sphinx-build|make|cc|gcc|clang|sudo|apt-get|pkg-config|export|"
    r"mkdir|echo|printf|cp|rm|cd|ls|cat|git|tar|mount|modprobe|dmesg|sysctl|python3|"
    r"bash|sh)(\s|$)))")
# A command whose sample output starts with an error line must fail.
ERROR_LINE_RE = re.compile(r"^[\w.-]+: error: ")
FAILS = "non-zero"
# A synopsis (placeholders such as <fabric>) is not a command.
PLACEHOLDER_RE = re.compile(r"<\w[^>]*>|\[-")
SESSION_LANGS = {"console"}
SCRIPT_LANGS = {"sh", "shell", "bash"}
# Not checked as commands: blocks in these languages hold code or data.
DATA_LANGS = {"c", "cpp", "ini", "json", "dot", "python", "make", "meson", "diff", "csv"}
BUILTINS = {"cd", "echo", "export", "printf", "wait", "kill", "test", "[", "set", "source",
            ".", "exit", "true", "false", "read", "sleep", "unset", "ulimit", "time",
            "env", "for", "if", "while"}


class Block:
    def __init__(self, line, lang, marker, body):
        self.line = line            # line number of the directive or fence
        self.lang = lang
        self.marker = marker        # (kind, argument) or None
        self.body = body            # the block's lines, dedented
        self.cmds = []              # commands, continuation lines joined with "\n"
        self.status = []            # expected exit status of each command


def dedent(lines):
    ind = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return [x[ind:] for x in lines]


def parse_session(block):
    """Commands after "$ " prompts; the output lines that follow each one."""
    outputs = []
    cur = None
    for raw in block.body:
        text = raw.strip()
        if cur is not None:
            cur.append(text)
            if not text.endswith("\\"):
                block.cmds.append("\n".join(cur))
                outputs.append([])
                cur = None
            continue
        if text.startswith("$ "):
            cur = [text[2:]]
            if not text.endswith("\\"):
                block.cmds.append(cur[0])
                outputs.append([])
                cur = None
        elif outputs and text:
            outputs[-1].append(text)
    if cur is not None:
        block.cmds.append("\n".join(cur))
        outputs.append([])
    block.status = [0] * len(block.cmds)
    for i in range(len(block.cmds)):
        if i + 1 < len(block.cmds) and block.cmds[i + 1].strip() == "echo $?" and \
                outputs[i + 1] and outputs[i + 1][0].isdigit():
            block.status[i] = int(outputs[i + 1][0])
        elif outputs[i] and ERROR_LINE_RE.match(outputs[i][0]):
            block.status[i] = FAILS


def parse_script(block):
    cur = None
    for raw in block.body:
        text = raw.strip()
        if cur is None and (not text or text.startswith("#")):
            continue
        if cur is None:
            cur = [text]
        else:
            cur.append(text)
        if not text.endswith("\\"):
            block.cmds.append("\n".join(cur))
            cur = None
    if cur is not None:
        block.cmds.append("\n".join(cur))
    block.status = [0] * len(block.cmds)


def marker_above(lines, i, regex):
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j >= 0:
        m = regex.match(lines[j].strip())
        if m:
            return (m.group(1), m.group(2).strip())
    return None


def parse_rst(lines):
    blocks = []
    for i, line in enumerate(lines):
        m = RST_BLOCK_RE.match(line)
        if m:
            base, lang = len(m.group(1)), m.group(2) or "none"
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            # Indented past the paragraph's text (in a list item, past the bullet).
            item = re.match(r"^\s*([-*+]|\d+\.|#\.)\s+", line)
            base = len(item.group(0)) if item else len(line) - len(line.lstrip())
            lang = "literal"
        else:
            continue
        body = []
        k = i + 1
        while k < len(lines) and (not lines[k].strip() or
                                  len(lines[k]) - len(lines[k].lstrip()) > base):
            body.append(lines[k])
            k += 1
        while body and not body[-1].strip():
            body.pop()
        if not body:
            continue
        blocks.append(Block(i + 1, lang, marker_above(lines, i, RST_MARK_RE), dedent(body)))
    return blocks


def parse_md(lines):
    blocks = []
    i = 0
    while i < len(lines):
        m = MD_FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        k = i + 1
        while k < len(lines) and not re.match(r"^\s*```\s*$", lines[k]):
            k += 1
        lang = m.group(2) or "literal"
        blocks.append(Block(i + 1, lang, marker_above(lines, i, MD_MARK_RE),
                            dedent(lines[i + 1:k])))
        i = k + 1
    return blocks


def parse(path):
    """Return (blocks, errors) of a document."""
    lines = open(path, encoding="utf-8").read().splitlines()
    md = path.endswith(".md")
    blocks = parse_md(lines) if md else parse_rst(lines)
    errors = []
    for b in blocks:
        if b.lang in SESSION_LANGS:
            parse_session(b)
        elif md and b.lang in SCRIPT_LANGS:
            parse_script(b)
        elif b.lang not in DATA_LANGS and (b.marker is None or b.marker[0] != "file"):
            # The first line that is not a shell comment.
            first = next((x.strip() for x in b.body
                          if x.strip() and not x.strip().startswith("#")), "")
            if (COMMAND_LIKE_RE.match(first) and not PLACEHOLDER_RE.search(first)) or \
                    any(x.startswith("$ ") for x in b.body):
                errors.append("line %d: a command outside a session (%s): show it in a "
                              "console block" % (b.line, first.strip()[:60]))
            continue
        if b.lang in SESSION_LANGS | SCRIPT_LANGS and not b.cmds:
            errors.append("line %d: %s block without a command" % (b.line, b.lang))
    return blocks, errors


def rel_cmd(cmd, rel_build):
    return BUILD_RE.sub(rel_build, cmd)


def tracked_modes(src):
    """{path: git index mode} of the tree, or None outside a git checkout."""
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-s"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    modes = {}
    for line in out.stdout.splitlines():
        meta, path = line.split("\t", 1)
        modes[path] = meta.split()[0]
    return modes


def is_script(path):
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


@functools.lru_cache(maxsize=None)
def built_programs(build):
    """{name: path} of the executables of the build directory."""
    progs = {}
    for top in ("app", "examples"):
        for d, _, files in os.walk(os.path.join(build, top)):
            for f in files:
                path = os.path.join(d, f)
                if os.access(path, os.X_OK) and not f.endswith((".so", ".py")):
                    progs.setdefault(f, path)
    return progs


def check_program(cmd, src, build, rel_build, modes):
    """Static check of the program a command starts: (error or None, note or None)."""
    try:
        words = shlex.split(cmd.replace("\\\n", " "), comments=True)
    except ValueError as e:
        return "cannot parse the command: %s" % e, None
    while words and re.match(r"^\w+=", words[0]):
        words.pop(0)
    if not words or words[0] in BUILTINS:
        return None, None
    prog = words[0]
    if "/" not in prog:
        if shutil.which(prog):
            return None, None
        ours = built_programs(build).get(prog)
        if ours:
            return "%s: not on PATH: it is %s" % (prog, os.path.relpath(ours, src)), None
        if prog.startswith("dpdk-"):
            return "%s: not on PATH (a DPDK program devtools/setup.sh installs)" % prog, None
        return None, "%s: not on PATH here" % prog
    if os.path.isabs(prog):
        return None, None   # outside the tree: made by an earlier command, or the system's
    top = prog.split("/", 1)[0]
    if top.startswith("build") and top != rel_build.split("/", 1)[0]:
        return None, None   # another build directory (build-asan, build-fuzz)
    path = os.path.normpath(os.path.join(src, prog))
    if not os.path.isfile(path):
        return "%s: no such file" % prog, None
    if not os.access(path, os.X_OK):
        return "%s: not executable (no run bit)" % prog, None
    rel = os.path.relpath(path, src)
    if modes is not None and rel in modes and modes[rel] != "100755":
        return "%s: no run bit in git's index (mode %s)" % (rel, modes[rel]), None
    return None, None


def check_run_bits(doc_text, src, modes):
    """Scripts of the tree that a document names must carry the run bit."""
    errors = []
    if modes is None:
        return errors
    for path, mode in sorted(modes.items()):
        if mode != "100755" and re.search(r"(?<![\w/.-])%s(?![\w/.-])" % re.escape(path),
                                          doc_text) and is_script(os.path.join(src, path)):
            errors.append("%s: a script the document names, without a run bit in git's "
                          "index (mode %s)" % (path, mode))
    return errors


def block_script(block, cmds, rel_build):
    script = ["export RIO_BUILD_DIR=%s" % shlex.quote(rel_build)]
    last = len(cmds)
    if block.marker and block.marker[0] == "interrupt":
        last -= 1
    for n, c in enumerate(cmds[:last], 1):
        want = block.status[n - 1]
        script.append(c)
        test = "-eq 0" if want == FAILS else "-ne %d" % want
        script.append('__rc=$?; if [ $__rc %s ]; then echo "doc-test: command %d exited '
                      'with status $__rc (expected %s)" >&2; exit 1; fi; (exit $__rc)'
                      % (test, n, want))
    if last < len(cmds):
        secs = int(block.marker[1])
        n = len(cmds)
        # Job control: the command runs in a process group of its own with
        # the signal dispositions of a terminal's foreground job.
        script += ["set -m", cmds[-1] + " &", "__pid=$!",
                   "__t=0; while [ $__t -lt %d ] && kill -0 $__pid 2>/dev/null; do "
                   "sleep 1; __t=$((__t + 1)); done" % secs,
                   'if ! kill -0 $__pid 2>/dev/null; then wait $__pid; '
                   'echo "doc-test: command %d ended (status $?) before Ctrl-C after %d s" >&2; '
                   'exit 1; fi' % (n, secs),
                   'echo "doc-test: Ctrl-C (SIGINT) to command %d after %d s"' % (n, secs),
                   "kill -INT -$__pid",
                   "__t=0; while [ $__t -lt %d ] && kill -0 $__pid 2>/dev/null; do "
                   "sleep 0.5; __t=$((__t + 1)); done" % (2 * INTERRUPT_GRACE),
                   'if kill -0 $__pid 2>/dev/null; then kill -KILL -$__pid; '
                   'echo "doc-test: command %d still ran %d s after SIGINT" >&2; exit 1; fi'
                   % (n, INTERRUPT_GRACE),
                   "wait $__pid; __rc=$?",
                   'if [ $__rc -ne 0 ] && [ $__rc -ne 130 ]; then echo "doc-test: command %d '
                   'exited with status $__rc after SIGINT" >&2; exit 1; fi' % n]
    script.append("wait")
    return "\n".join(script) + "\n"


def run_block(src, block, cmds, rel_build, name):
    text = block_script(block, cmds, rel_build)
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
    return rc, out.decode(errors="replace")


def fabrics(fdir):
    names = os.listdir(fdir) if os.path.isdir(fdir) else []
    return {f for f in names if f.startswith("rio_sim.")}


def remove_new_top_files(src, top_before, who):
    """Remove the files that appeared at the top of the tree since top_before."""
    for f in sorted(set(os.listdir(src)) - top_before):
        path = os.path.join(src, f)
        if os.path.isfile(path):
            print("%s: removing %s, created by the commands" % (who, f))
            os.unlink(path)


def run_document(src, build, doc, isolated, clean_top=True):
    """Run one document's blocks; return (commands run, skipped, failures).

    clean_top: remove the files its commands create at the top of the tree
    (False when documents run at the same time: the caller does it at the end).
    """
    rel_build = os.path.relpath(build, src)
    rel_doc = os.path.relpath(doc, src)
    blocks, failures = parse(doc)
    failures = ["%s: %s" % (rel_doc, e) for e in failures]
    modes = tracked_modes(src)
    failures += ["%s: %s" % (rel_doc, e)
                 for e in check_run_bits(open(doc, encoding="utf-8").read(), src, modes)]
    top_before = set(os.listdir(src))
    fdir = fabric_dir(build)
    shm_before = fabrics(fdir)
    ran = skipped = 0
    written = []
    for b in blocks:
        name = "%s:%d" % (rel_doc, b.line)
        if b.marker and b.marker[0] == "file":
            path = os.path.join(src, b.marker[1])
            before = None
            if os.path.exists(path):
                with open(path, "rb") as f:
                    before = f.read()      # the user's own file: given back
            with open(path, "w") as f:
                f.write("\n".join(b.body) + "\n")
            written.append((path, before))
            print("---- %s: written to %s" % (name, b.marker[1]))
            continue
        if not b.cmds:
            continue
        cmds = [rel_cmd(c, rel_build) for c in b.cmds]
        for c in cmds:
            err, note = check_program(c, src, build, rel_build, modes)
            if err:
                failures.append("%s: %s" % (name, err))
            if note:
                print("note: %s: %s" % (name, note))
        if b.marker and b.marker[0] == "skip":
            if not b.marker[1]:
                failures.append(name + ": doc-test skip without a reason")
            print("---- %s: not run (%s):\n$ %s" % (name, b.marker[1], "\n$ ".join(cmds)))
            skipped += len(cmds)
            continue
        if b.marker and b.marker[0] == "append":
            cmds = [c + " " + b.marker[1] for c in cmds]
        if b.marker and b.marker[0] == "interrupt" and not b.marker[1].isdigit():
            failures.append(name + ": doc-test interrupt needs a number of seconds")
            continue
        t0 = time.monotonic()
        rc, out = run_block(src, b, cmds, rel_build, name)
        secs = time.monotonic() - t0
        ran += len(cmds)
        if rc != 0:
            print(out[-6000:])
            print("FAILED: %s: exit status %s [%.1f s]" % (name, rc, secs))
            failures.append("%s: exit status %s" % (name, rc))
        else:
            print("ok: %s (%d command%s) [%.1f s]" % (name, len(cmds), "s" if len(cmds) > 1 else "",
                                                     secs))
    if any(b.cmds for b in blocks) and ran + skipped == 0:
        failures.append(rel_doc + ": no command found")
    for path, before in written:
        if before is not None:
            with open(path, "wb") as f:
                f.write(before)
        elif os.path.exists(path):
            os.unlink(path)
    if clean_top:
        remove_new_top_files(src, top_before, rel_doc)
    left = sorted(fabrics(fdir) - shm_before)
    if left:
        failures.append("%s: left shared memory %s in %s%s" % (
            rel_doc, left, fdir, "" if isolated else " (or another run on the machine did)"))
        for f in left:
            os.unlink(os.path.join(fdir, f))
    return ran, skipped, failures


def in_namespace(src, build, doc):
    """The child, in mount and PID namespaces of its own: private /dev/shm and /run/dpdk."""
    os.makedirs("/run/dpdk", exist_ok=True)
    for target in ("/dev/shm", "/run/dpdk"):
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "tmpfs", target],
                       check=True)
    # The fabrics' directory is private too where it is not under /dev/shm
    # ($XDG_RUNTIME_DIR/rio_sim): the documents use fixed fabric names.
    fdir = fabric_dir(build)
    if not fdir.startswith("/dev/shm/"):
        os.makedirs(fdir, mode=0o700, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=0700", "tmpfs", fdir], check=True)
    ran, skipped, failures = run_document(src, build, doc, True, clean_top=False)
    print("doc-test-result: " + json.dumps({"ran": ran, "skipped": skipped,
                                            "failures": failures}))
    sys.stdout.flush()
    return 0


UNSHARE = ["unshare", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc",
           "--propagation", "private"]


def namespaces_available():
    try:
        return subprocess.run(UNSHARE + ["mount", "-t", "tmpfs", "tmpfs", "/dev/shm"],
                              capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def run_isolated(src, build, doc, out):
    """Run one document in namespaces of its own, its output appended to list out."""
    p = subprocess.Popen(UNSHARE + [sys.executable, os.path.abspath(__file__),
                                    "--in-namespace", src, build, doc],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    result = None
    try:
        for line in p.stdout:
            line = line.decode(errors="replace")
            if line.startswith("doc-test-result: "):
                result = json.loads(line[len("doc-test-result: "):])
            else:
                out.append(line)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
    rel_doc = os.path.relpath(doc, src)
    if result is None:
        return 0, 0, ["%s: the namespace runner ended with status %s and no result"
                      % (rel_doc, p.returncode)]
    return result["ran"], result["skipped"], result["failures"]


def expected_cost(doc):
    """A guess of a document's run time, to start the long ones first: a
    devtools/ script runs a whole scenario, a run until Ctrl-C lasts its
    seconds, any other command is short."""
    blocks, _ = parse(doc)
    cost = 0
    for b in blocks:
        if not b.cmds or (b.marker and b.marker[0] == "skip"):
            continue
        if b.marker and b.marker[0] == "interrupt" and b.marker[1].isdigit():
            cost += int(b.marker[1])
        for c in b.cmds:
            first = next((w for w in c.split() if "=" not in w), "")
            cost += 30 if first.startswith("devtools/") else 1
    return cost


def shared_files(docs):
    """Failures for a file (doc-test: file) that two documents write: they
    run at the same time."""
    writers = {}
    for doc in docs:
        for b in parse(doc)[0]:
            if b.marker and b.marker[0] == "file":
                writers.setdefault(os.path.normpath(b.marker[1]), set()).add(doc)
    return ["%s: written by more than one document (%s); they run at the same time: "
            "give each its own file" % (path, ", ".join(sorted(w)))
            for path, w in sorted(writers.items()) if len(w) > 1]


def run_all_isolated(src, build, docs):
    """Run the documents, DOC_JOBS at a time, the longest expected first;
    print each one's output whole, as it ends. Return (ran, skipped, failures)."""
    top_before = set(os.listdir(src))
    pending = sorted(docs, key=expected_cost, reverse=True)
    outputs = {}        # document -> its output so far, while it runs
    lock = threading.Lock()
    ran = skipped = 0
    failures = shared_files(docs)

    def on_term(sig, frame):
        # meson's timeout: show what the running documents printed so far.
        with lock:
            for doc, out in outputs.items():
                print("==== %s (running when stopped):" % os.path.relpath(doc, src))
                print("".join(out), end="")
        sys.stdout.flush()
        os._exit(1)

    def worker():
        nonlocal ran, skipped
        while True:
            with lock:
                if not pending:
                    return
                doc = pending.pop(0)
                out = outputs[doc] = []
            t0 = time.monotonic()
            r, s, f = run_isolated(src, build, doc, out)
            with lock:
                del outputs[doc]
                ran += r
                skipped += s
                failures.extend(f)
                print("==== %s [%.1f s]" % (os.path.relpath(doc, src), time.monotonic() - t0))
                print("".join(out), end="")
                sys.stdout.flush()

    signal.signal(signal.SIGTERM, on_term)
    threads = [threading.Thread(target=worker) for _ in range(max(1, DOC_JOBS))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    remove_new_top_files(src, top_before, "the documents")
    return ran, skipped, failures


def default_documents(src):
    docs = [os.path.join(src, "README.md")]
    docs += sorted(glob.glob(os.path.join(src, "doc", "guides", "**", "*.rst"), recursive=True))
    return docs


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--in-namespace":
        return in_namespace(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]),
                            os.path.abspath(sys.argv[4]))
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    src = os.path.abspath(sys.argv[1])
    build = os.path.abspath(sys.argv[2])
    docs = [os.path.abspath(d) for d in sys.argv[3:]] or default_documents(src)
    isolated = namespaces_available()
    if not isolated:
        print("note: unshare is not available (not root?): the documents run in this "
              "machine's namespaces; new /dev/shm/rio_sim.* objects count as left behind")
    ran = skipped = 0
    failures = []
    if isolated:
        ran, skipped, failures = run_all_isolated(src, build, docs)
    else:
        for doc in docs:
            r, s, f = run_document(src, build, doc, False)
            ran += r
            skipped += s
            failures += f
    print("%d commands run, %d not run (doc-test: skip), %d failed, in %d documents"
          % (ran, skipped, len(failures), len(docs)))
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
