#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
"""Checks of the installed tree (meson install --destdir into a temporary
directory of the build directory).

Usage: test_install.py <example|headers|symbols> <source root> <build root>

example  build examples/appliance out of tree with its Makefile and only
         PKG_CONFIG_PATH pointing at the installed libdpdk-rio.pc, run it on an
         emulated fabric with the installed plugins (-d), check the frames
         that pass its EtherType decision arrive at the rionet peer.
headers  compile every installed header alone as C and as C++ with the
         installed pkg-config cflags (and the driver-SDK headers with DPDK's
         SDK headers); check the public/SDK split.
symbols  every symbol exported by an installed library is in its
         version.map and every version.map symbol is exported, in the right
         section; EXPERIMENTAL symbols are __rte_experimental and INTERNAL
         ones __rte_internal in the headers.
Exit 0 pass, 1 fail, 77 skip (a build directory made before the project
defaulted to pkgconfig.relocatable=true).
"""

import fcntl
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from rio_fabric_dir import fabric_objects
from rio_lcores import lcores

# version.map of each installed library, relative to the source root.
VERSION_MAPS = {
    'librte_rio': 'lib/rio/version.map',
    'librte_bus_rio': 'drivers/bus/rio/version.map',
    'librte_raw_rio_sim': 'drivers/raw/rio_sim/version.map',
    'librte_raw_tsi721': 'drivers/raw/tsi721/version.map',
    'librte_net_rionet': 'drivers/net/rionet/version.map',
}
# Application API: installed by default.
PUBLIC_HEADERS = {'rte_rio.h', 'rte_rio_regs.h', 'rte_rio_dev.h', 'rte_bus_rio.h',
                  'rte_pmd_rio_sim.h', 'rte_pmd_rio_sim_fabric.h', 'rte_pmd_tsi721.h'}
# Driver SDK (-Denable_driver_sdk=true): need DPDK's driver headers.
SDK_HEADERS = {'rio_driver.h': 'lib/rio', 'bus_rio_driver.h': 'drivers/bus/rio',
               'rte_pmd_tsi721_model.h': 'drivers/raw/tsi721'}
PLUGINS = ['librte_bus_rio.so', 'librte_raw_rio_sim.so', 'librte_raw_tsi721.so',
           'librte_net_rionet.so']


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(cmd, env=None, cwd=None, timeout=120):
    p = subprocess.run(cmd, env=env, cwd=cwd, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


class Install:
    """meson install --destdir into a temporary directory."""

    def __init__(self, build):
        self.dir = tempfile.mkdtemp(prefix='install-test.', dir=build)
        # Tests of the suite run in parallel: one install at a time.
        with open(os.path.join(build, 'meson-private', 'install-test.lock'), 'w') as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            rc, out = run(['meson', 'install', '-C', build, '--destdir', self.dir,
                           '--no-rebuild', '--quiet'])
        if rc != 0:
            self.cleanup()
            fail('meson install failed:\n' + out)
        pcs = glob.glob(self.dir + '/**/pkgconfig/libdpdk-rio.pc', recursive=True)
        if len(pcs) != 1:
            self.cleanup()
            fail('expected one installed libdpdk-rio.pc, found %s' % pcs)
        self.pc = pcs[0]
        self.pcdir = os.path.dirname(self.pc)
        with open(self.pc) as f:
            if not re.search(r'^prefix=\$\{pcfiledir\}', f.read(), re.M):
                print('SKIP: %s is not relocatable; reconfigure this build directory '
                      'with -Dpkgconfig.relocatable=true' % os.path.basename(self.pc))
                self.cleanup()
                sys.exit(77)
        self.env = dict(os.environ, PKG_CONFIG_PATH=self.pcdir)
        self.libdir = os.path.dirname(self.pcdir)
        self.plugindir = self.pkgconfig('--variable=plugindir')
        self.incdir = os.path.join(self.pkgconfig('--variable=includedir'), 'dpdk-rio')
        self.cflags = self.pkgconfig('--cflags').split()

    def pkgconfig(self, *args):
        rc, out = run(['pkg-config'] + list(args) + ['libdpdk-rio'], env=self.env)
        if rc != 0:
            fail('pkg-config %s libdpdk-rio: %s' % (' '.join(args), out))
        return out.strip()

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def check_rpath(inst):
    """Installed plugins resolve the rio libraries inside the install."""
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    for p in PLUGINS:
        path = os.path.join(inst.plugindir, p)
        if not os.path.exists(path):
            fail('plugin %s not installed in %s' % (p, inst.plugindir))
        rc, out = run(['ldd', path], env=env)
        for lib in ('librte_rio.so', 'librte_bus_rio.so'):
            for line in out.splitlines():
                if line.strip().startswith(lib):
                    real = os.path.realpath(line.split('=>')[1].split('(')[0].strip())
                    if not real.startswith(os.path.realpath(inst.dir) + os.sep):
                        fail('%s resolves %s outside the install: %s' % (p, lib, line))
                    print('%s: %s' % (p, line.strip()))


def test_example(src, build):
    inst = Install(build)
    fabric = 'inst_%d' % os.getpid()
    try:
        check_rpath(inst)
        work = os.path.join(inst.dir, 'appliance')
        shutil.copytree(os.path.join(src, 'examples', 'appliance'), work)
        shutil.rmtree(os.path.join(work, 'build'), ignore_errors=True)
        rc, out = run(['make', '-C', work], env=inst.env)
        if rc != 0:
            fail('make of the out-of-tree appliance failed:\n' + out)
        print(out)
        app = os.path.join(work, 'build', 'appliance')
        env = dict(inst.env, LD_LIBRARY_PATH=inst.libdir)
        rc, out = run(['ldd', app], env=env)
        if inst.libdir not in out:
            fail('appliance does not use the installed librte_rio:\n' + out)
        eal = [app, '--no-huge', '-m', '256', '--no-pci', lcores(0, 1),
               '--file-prefix=' + fabric, '--log-level=lib.eal:error',
               '-d', inst.plugindir, '--vdev', 'net_ring0',
               '--vdev', 'rio_sim0,fabric=' + fabric,
               '--vdev', 'rio_sim1,fabric=' + fabric, '--',
               '--peer', '1', '--in', 'net_ring0', '--out', 'rionet_rio_sim0',
               '--sink', 'rionet_rio_sim1', '--inject', '300']
        # 300 frames, EtherTypes IPv4/ARP/IPv6 in turn. Bounded by --count,
        # then by --duration alone.
        runs = [(['--drop', '0x0806', '--count', '300', '--duration', '10'],
                 ['total: rx 300 forwarded 200 dropped 100 tx_fail 0',
                  'sink: rx 200', 'opackets 200 oerrors 0']),
                (['--pass', '0x86dd', '--duration', '1'],
                 ['total: rx 300 forwarded 100 dropped 200 tx_fail 0',
                  'sink: rx 100', 'opackets 100 oerrors 0'])]
        for args, wants in runs:
            print(' '.join(eal + args))
            rc, out = run(eal + args, env=env, timeout=60)
            print(out)
            if rc != 0:
                fail('appliance exited with %d' % rc)
            for want in wants:
                if want not in out:
                    fail('expected "%s" in the appliance output' % want)
            if len(re.findall(r'^lcore \d+: rx [1-9]', out, re.M)) != 2:
                fail('expected both lcores to receive frames')
        # Closing the rio_sim ports at exit detaches and destroys the fabric.
        left = fabric_objects(build, 'rio_sim.%s*' % fabric)
        if left:
            fail('the appliance left %s' % ' '.join(left))
    finally:
        inst.cleanup()
        for f in fabric_objects(build, 'rio_sim.%s*' % fabric):
            os.unlink(f)
        # EAL runtime directory of the appliance's file prefix.
        for d in ('/var/run/dpdk', os.path.join(os.environ.get('XDG_RUNTIME_DIR', '/tmp'),
                                                 'dpdk')):
            shutil.rmtree(os.path.join(d, fabric), ignore_errors=True)


def compile_header(path, cflags, what):
    for lang, cc in (('c', 'gcc'), ('c++', 'g++')):
        cmd = [cc, '-x', lang, '-fsyntax-only', '-Wall', '-Wextra', '-Werror',
               '-Wno-unused-function', '-Wno-missing-field-initializers'] + cflags + [path]
        rc, out = run(cmd)
        if rc != 0:
            fail('%s %s does not compile alone as %s:\n%s\n%s' %
                 (what, os.path.basename(path), lang, ' '.join(cmd), out))
    print('ok: %s %s (C, C++)' % (what, os.path.basename(path)))


def link_bus_app(inst):
    """An application of the rio bus API links as the bus guide says."""
    src = os.path.join(inst.dir, 'bus_app.c')
    with open(src, 'w') as f:
        f.write('#include <stdio.h>\n#include <rte_bus_rio.h>\n'
                'int main(void)\n{\n\tstruct rte_rio_device *d;\n\n'
                '\tRTE_RIO_FOREACH_DEVICE(d)\n'
                '\t\tprintf("%s\\n", rte_rio_device_name(d));\n'
                '\treturn rte_rio_device_count() != 0;\n}\n')
    cmd = ['gcc', '-Wall', '-Werror', '-DALLOW_EXPERIMENTAL_API'] + inst.cflags + \
        [src, '-o', src[:-2]] + inst.pkgconfig('--libs').split() + \
        ['-L' + inst.plugindir, '-lrte_bus_rio']
    rc, out = run(cmd)
    if rc != 0:
        fail('an application of rte_bus_rio.h does not link:\n%s\n%s' % (' '.join(cmd), out))
    print('ok: an application of rte_bus_rio.h links with -lrte_bus_rio')


def check_docs(path, names):
    """Every function of names declared in path has a Doxygen comment right
    before it; one returning int names its errors (-Exxx) or refers to the
    function whose rules it shares. Returns the list of problems."""
    with open(path) as f:
        text = f.read()
    errors = []
    for m in re.finditer(r'\b(\w+)\s*\(', text):
        name = m.group(1)
        if name not in names or text.rfind('/*', 0, m.start()) > text.rfind('*/', 0, m.start()):
            continue        # not exported, or mentioned inside a comment
        start = text.rfind(';', 0, m.start())
        start = max(start, text.rfind('}', 0, m.start()), text.rfind('*/', 0, m.start()) + 1)
        decl = text[start + 1:m.start()]
        if text[start - 1:start + 1] != '*/' or '#' in decl or '(' in decl:
            continue        # a call in a macro or a comment, not the declaration
        doc = text[text.rfind('/*', 0, start):start + 1]
        decl = re.sub(r'__rte_\w+', '', decl).split()
        if not doc.startswith('/**'):
            errors.append('%s: %s has no Doxygen comment' % (os.path.basename(path), name))
        elif decl and decl[0] == 'int' and not re.search(
                r'-E[A-Z]+|errno|@return|(same|variant|counterpart)[^.]*\w+\(\)', doc,
                re.S | re.I):
            errors.append('%s: %s returns int but its comment names no error' %
                          (os.path.basename(path), name))
        names[name] = True
    return errors


def test_headers(src, build):
    inst = Install(build)
    try:
        installed = set(os.listdir(inst.incdir))
        if installed != PUBLIC_HEADERS:
            fail('installed headers %s, expected %s' % (sorted(installed),
                                                        sorted(PUBLIC_HEADERS)))
        for h in sorted(installed):
            compile_header(os.path.join(inst.incdir, h), inst.cflags, 'installed')
        link_bus_app(inst)
        # Every exported function is documented where it is declared.
        names = {}
        for mapfile in VERSION_MAPS.values():
            names.update({n: False for n in parse_map(os.path.join(src, mapfile))})
        errors = []
        for h in sorted(installed):
            errors += check_docs(os.path.join(inst.incdir, h), names)
        for h, d in sorted(SDK_HEADERS.items()):
            errors += check_docs(os.path.join(src, d, h), names)
        errors += ['%s is exported but declared in no installed or SDK header' % n
                   for n, seen in sorted(names.items()) if not seen]
        if errors:
            fail('\n'.join(errors))
        print('ok: %d exported functions documented' % len(names))
        # The driver SDK, against DPDK's own SDK headers (as with a DPDK
        # built with enable_driver_sdk) and the installed public headers.
        sdk = ['-isystem', os.path.join(build, 'sdk-headers')]
        for h, d in sorted(SDK_HEADERS.items()):
            compile_header(os.path.join(src, d, h), inst.cflags + sdk, 'driver-SDK')
    finally:
        inst.cleanup()


def parse_map(path):
    """{symbol: section} of a version.map."""
    syms = {}
    section = None
    with open(path) as f:
        for line in f:
            line = line.split('#')[0].strip()
            m = re.match(r'^(\w+)\s*\{', line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r'^(\w+);$', line)
            if m and section:
                syms[m.group(1)] = section
    return syms


def header_tags(src):
    """{function: 'experimental'|'internal'} from the rte_compat tags."""
    tags = {}
    for h in glob.glob(src + '/lib/**/*.h', recursive=True) + \
            glob.glob(src + '/drivers/**/*.h', recursive=True):
        with open(h) as f:
            text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
        for m in re.finditer(r'__rte_(experimental|internal)\s+([^;{}#]*?)\b(\w+)\s*\(',
                             text):
            tags[m.group(3)] = m.group(1)
    return tags


def test_symbols(src, build):
    inst = Install(build)
    errors = []
    try:
        tags = header_tags(src)
        for lib, mapfile in sorted(VERSION_MAPS.items()):
            found = glob.glob(inst.dir + '/**/%s.so' % lib, recursive=True)
            if len(found) != 1:
                fail('expected one installed %s.so, found %s' % (lib, found))
            rc, out = run(['nm', '-D', '--defined-only', found[0]])
            if rc != 0:
                fail('nm %s: %s' % (found[0], out))
            exported = {}
            for line in out.splitlines():
                parts = line.split()
                if len(parts) != 3 or parts[1] == 'A':
                    continue        # version nodes
                name, _, ver = parts[2].partition('@')
                exported[name] = ver.lstrip('@')
            wanted = parse_map(os.path.join(src, mapfile))
            for s in sorted(set(exported) - set(wanted)):
                errors.append('%s exports %s, not in %s' % (lib, s, mapfile))
            for s in sorted(set(wanted) - set(exported)):
                errors.append('%s: %s lists %s, not exported' % (lib, mapfile, s))
            for s, sec in sorted(wanted.items()):
                if s in exported and exported[s] != sec:
                    errors.append('%s: %s has version %s, map section %s' %
                                  (lib, s, exported[s], sec))
                want_tag = {'EXPERIMENTAL': 'experimental',
                            'INTERNAL': 'internal'}.get(sec)
                if want_tag and tags.get(s) != want_tag:
                    errors.append('%s: %s is in %s but its declaration is %s' %
                                  (lib, s, sec, '__rte_' + tags[s] if s in tags
                                   else 'not tagged __rte_' + want_tag))
            print('ok: %s: %d symbols checked against %s' % (lib, len(exported), mapfile))
    finally:
        inst.cleanup()
    if errors:
        fail('\n'.join(errors))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 1
    mode, src, build = sys.argv[1:]
    {'example': test_example, 'headers': test_headers,
     'symbols': test_symbols}[mode](os.path.abspath(src), os.path.abspath(build))
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
