#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Autotest of buildtools/get-dpdk-sdk-headers.sh with RIO_DPDK_SRC.

Usage: test_sdk_headers.py <source dir>

Runs the script into a temporary directory against fake DPDK source trees
(a VERSION file and the driver-SDK headers the script lists, with
recognisable contents) of the installed DPDK's release and of another one. apt-get and
dpkg-source are replaced by stubs that record being called and fail, so a
case that would fall back to the Debian source package shows it instead of
downloading. Skipped (exit 77) when the installed DPDK has the SDK headers
itself (the script then uses those).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

SRC = None
HEADERS = None      # the script's own list (its HEADERS variable)


def script_headers(src):
    with open(os.path.join(src, "buildtools", "get-dpdk-sdk-headers.sh")) as f:
        m = re.search(r'^HEADERS="([^"]*)"', f.read(), re.M)
    if m is None:
        raise RuntimeError("no HEADERS=\"...\" list in get-dpdk-sdk-headers.sh")
    return m.group(1).split()


def installed_version():
    return subprocess.run(["pkg-config", "--modversion", "libdpdk"], capture_output=True,
                          text=True, check=True).stdout.strip()


def release(version):
    return ".".join(version.split(".")[:2])


def other_release(version):
    major, minor = version.split(".")[:2]
    return "%d.%s" % (int(major) + 2, minor)


class SdkHeadersTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rio-sdk-headers-")
        self.out = os.path.join(self.tmp, "out")
        self.stubs = os.path.join(self.tmp, "stubs")
        self.stub_log = os.path.join(self.tmp, "stub.log")
        os.makedirs(self.stubs)
        for tool in ("apt-get", "dpkg-source"):
            path = os.path.join(self.stubs, tool)
            with open(path, "w") as f:
                f.write('#!/bin/sh\necho "%s $*" >> %s\nexit 1\n' % (tool, self.stub_log))
            os.chmod(path, 0o755)
        self.installed = installed_version()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def tree(self, name, version, tag=None):
        """A fake DPDK tree: VERSION and the headers, each naming the tree."""
        root = os.path.join(self.tmp, name)
        for h in HEADERS:
            os.makedirs(os.path.join(root, os.path.dirname(h)), exist_ok=True)
            with open(os.path.join(root, h), "w") as f:
                f.write("/* %s of %s */\n" % (os.path.basename(h), tag or name))
        with open(os.path.join(root, "VERSION"), "w") as f:
            f.write(version + "\n")
        return root

    def run_script(self, dpdk_src=None):
        env = dict(os.environ, PATH=self.stubs + os.pathsep + os.environ["PATH"])
        env.pop("RIO_DPDK_SRC", None)
        if dpdk_src is not None:
            env["RIO_DPDK_SRC"] = dpdk_src
        r = subprocess.run(["sh", os.path.join(SRC, "buildtools", "get-dpdk-sdk-headers.sh"),
                            self.out], capture_output=True, text=True, env=env, timeout=60)
        return r.returncode, r.stdout, r.stderr

    def stub_calls(self):
        if not os.path.exists(self.stub_log):
            return ""
        with open(self.stub_log) as f:
            return f.read()

    def header(self, h):
        with open(os.path.join(self.out, os.path.basename(h))) as f:
            return f.read()

    def test_same_release_other_patch_level(self):
        """A tree of the installed release is used, with a note on its patch level."""
        version = release(self.installed) + ".0"
        if version == self.installed:
            version = release(self.installed) + ".99"
        root = self.tree("dpdk-a", version)
        rc, out, err = self.run_script(root)
        self.assertEqual((rc, err), (0, ""), out)
        self.assertIn("DPDK %s (same release as the installed %s)" % (version, self.installed),
                      out)
        for h in HEADERS:
            self.assertEqual(self.header(h), "/* %s of dpdk-a */\n" % os.path.basename(h))
        with open(os.path.join(self.out, ".stamp")) as f:
            self.assertEqual(f.read(), "dpdk-src %s %s for %s\n" % (root, version,
                                                                      self.installed))
        self.assertEqual(self.stub_calls(), "")

    def test_unchanged_headers_keep_their_time(self):
        """Only headers whose contents changed are copied again (no needless rebuild)."""
        root = self.tree("dpdk-b", release(self.installed) + ".0")
        self.assertEqual(self.run_script(root)[0], 0)
        old = {h: os.stat(os.path.join(self.out, os.path.basename(h))).st_mtime_ns
               for h in HEADERS}
        time.sleep(0.05)
        # Another tree of the release, one header different.
        other = self.tree("dpdk-c", release(self.installed) + ".0", tag="dpdk-b")
        with open(os.path.join(other, HEADERS[2]), "w") as f:
            f.write("/* changed */\n")
        rc, out, err = self.run_script(other)
        self.assertEqual((rc, err), (0, ""), out)
        for h in HEADERS:
            now = os.stat(os.path.join(self.out, os.path.basename(h))).st_mtime_ns
            if h == HEADERS[2]:
                self.assertEqual(self.header(h), "/* changed */\n")
                self.assertNotEqual(now, old[h], h)
            else:
                self.assertEqual(now, old[h], h)

    def test_kept_without_the_variable(self):
        """A later run without RIO_DPDK_SRC (meson reconfiguring) keeps the headers."""
        root = self.tree("dpdk-d", release(self.installed) + ".0")
        self.assertEqual(self.run_script(root)[0], 0)
        rc, out, err = self.run_script()
        self.assertEqual((rc, out, err), (0, "", ""))
        self.assertEqual(self.stub_calls(), "")
        self.assertEqual(self.header(HEADERS[0]),
                         "/* %s of dpdk-d */\n" % os.path.basename(HEADERS[0]))

    def test_other_release_refused(self):
        """A tree of another release is refused, naming both versions."""
        version = other_release(self.installed) + ".0"
        root = self.tree("dpdk-e", version)
        rc, out, err = self.run_script(root)
        self.assertEqual(rc, 1)
        self.assertEqual(err, "get-dpdk-sdk-headers: error: RIO_DPDK_SRC=%s is DPDK %s, the "
                         "installed DPDK is %s: set RIO_DPDK_SRC to a DPDK %s source tree\n"
                         % (root, version, self.installed, release(self.installed)))
        self.assertFalse(os.path.exists(os.path.join(self.out, "bus_driver.h")))
        self.assertEqual(self.stub_calls(), "")

    def test_not_a_tree(self):
        """A missing directory or one without VERSION is an error, not a fallback."""
        rc, _, err = self.run_script(os.path.join(self.tmp, "nowhere"))
        self.assertEqual(rc, 1)
        self.assertIn("is not a directory", err)
        os.makedirs(os.path.join(self.tmp, "empty"))
        rc, _, err = self.run_script(os.path.join(self.tmp, "empty"))
        self.assertEqual(rc, 1)
        self.assertIn("is not a DPDK source tree (no VERSION file)", err)
        self.assertEqual(self.stub_calls(), "")

    def test_missing_header(self):
        """A tree of the release that lacks a header is an error."""
        root = self.tree("dpdk-f", release(self.installed) + ".0")
        os.unlink(os.path.join(root, HEADERS[-1]))
        rc, _, err = self.run_script(root)
        self.assertEqual(rc, 1)
        self.assertIn("%s missing from %s" % (HEADERS[-1], root), err)


def main():
    global SRC, HEADERS
    if len(sys.argv) != 2:
        print("usage: %s <source dir>" % sys.argv[0], file=sys.stderr)
        return 2
    SRC = os.path.abspath(sys.argv[1])
    HEADERS = script_headers(SRC)
    inc = subprocess.run(["pkg-config", "--variable=includedir", "libdpdk"],
                         capture_output=True, text=True, check=True).stdout.strip()
    if os.path.isfile(os.path.join(inc, "dpdk", "rte_eal.h")):
        inc = os.path.join(inc, "dpdk")
    if all(os.path.isfile(os.path.join(inc, os.path.basename(h))) for h in HEADERS):
        print("SKIP: the installed DPDK has its driver-SDK headers; the script uses those")
        return 77
    prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
