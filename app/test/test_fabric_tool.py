#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Autotest of dpdk-rio-fabric: drives the tool and checks its outputs.

Usage: test_fabric_tool.py <path to dpdk-rio-fabric> <command file> [<tools guide>]

JSON outputs are parsed and checked field by field against the documented
schema (doc/guides/tools/fabric.rst); DOT output is checked for its
structure; error paths come from the command file (one invocation per line
with the exit status and the message expected); the session shown in the
tools guide (doc/guides/tools/fabric.rst) is run as written and its outputs
compared with the page. Every fabric has a unique
name and is destroyed in a finally block; the test fails if any of its
shared-memory segments is left in the directory of our fabrics.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

TOOL = None
CMDS = None
DOC = None
PREFIX = 'ft%d' % os.getpid()
ERR_PREFIX = 'dpdk-rio-fabric: error: '
NOBODY = 65534
_seq = [0]
# The tool's outputs here, and the session of its guide, are those of the
# topologies' own models (std switches, generic endpoints): a run-wide
# default would change every identity and port count they show.
# test_routes_default_and_models names the vendor models it checks.
os.environ.pop('RIO_SIM_MODELS', None)


def fabric_name(tag):
    _seq[0] += 1
    return '%s_%d%s' % (PREFIX, _seq[0], tag)


def run(*args, user=None, tool=None):
    """Run the tool; return (exit status, stdout, stderr)."""
    r = subprocess.run([tool or TOOL] + [str(a) for a in args], capture_output=True,
                       text=True, timeout=30, user=user)
    return r.returncode, r.stdout, r.stderr


def fabric_dir():
    """The directory of this user's fabrics, as the tool prints it."""
    rc, out, err = run('dir')
    if rc != 0:
        raise RuntimeError('dpdk-rio-fabric dir: %s' % err)
    return out.strip()


class ToolCopy:
    """The tool and the libraries it loads from the build tree, copied into a
    directory every user can enter, for runs as another user: the build tree
    may lie where that user cannot go (a clone in root's 0700 home). The copy
    keeps the build tree's layout, so its $ORIGIN-relative RUNPATH resolves to
    the copied libraries."""

    def __enter__(self):
        build = os.path.dirname(os.path.dirname(TOOL))
        self.dir = tempfile.mkdtemp(prefix='rio-fabric-tool-')
        try:
            os.chmod(self.dir, 0o755)
            ldd = subprocess.run(['ldd', TOOL], capture_output=True, text=True, timeout=30,
                                 check=True).stdout
            libs = re.findall(r'^\s*(\S+) => (/\S+)', ldd, re.M)
            files = [(os.path.relpath(TOOL, build), TOOL)]
            files += [(os.path.join(os.path.relpath(os.path.dirname(path), build), soname),
                       path) for soname, path in libs
                      if os.path.realpath(path).startswith(build + os.sep)]
            if len(files) < 2:
                raise RuntimeError('ldd lists no library of %s: %s' % (build, ldd))
            for rel, path in files:
                dst = os.path.join(self.dir, rel)
                os.makedirs(os.path.dirname(dst), mode=0o755, exist_ok=True)
                shutil.copy(path, dst)
                os.chmod(dst, 0o755)
            self.tool = os.path.join(self.dir, os.path.relpath(TOOL, build))
        except BaseException:
            shutil.rmtree(self.dir)
            raise
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir)


def segments(name=None):
    pat = re.compile(r'^rio_sim\.%s(\.ep\d+)?$' % re.escape(name) if name else
                     r'^rio_sim\.%s_' % re.escape(PREFIX))
    try:
        return [e for e in os.listdir(fabric_dir()) if pat.match(e)]
    except FileNotFoundError:
        return []


def pid_running(pid):
    """True while pid exists and is not a zombie."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


class Fabric:
    """A fabric created with the tool, destroyed on exit."""

    def __init__(self, tc, topology=None, tag=''):
        self.tc = tc
        self.name = fabric_name(tag)
        self.topology = topology

    def __enter__(self):
        args = ['create', self.name] + (['--topology', self.topology] if self.topology else [])
        rc, out, err = run(*args)
        self.tc.assertEqual((rc, err), (0, ''), 'create %s' % self.name)
        m = re.fullmatch(r'fabric (\S+) created, keeper pid (\d+)\n', out)
        self.tc.assertIsNotNone(m, out)
        self.tc.assertEqual(m.group(1), self.name)
        self.keeper = int(m.group(2))
        return self

    def __exit__(self, *exc):
        run('destroy', self.name)
        for e in segments(self.name):
            os.unlink(os.path.join(fabric_dir(), e))

    def json(self, *args):
        rc, out, err = run(*args)
        self.tc.assertEqual((rc, err), (0, ''), ' '.join(args))
        return json.loads(out)

    def ok(self, *args):
        rc, out, err = run(*args)
        self.tc.assertEqual((rc, err), (0, ''), ' '.join(str(a) for a in args))
        return out


SHOW_KEYS = {'format_version', 'fabric', 'devid_size', 'seed', 'timing', 'hop_latency_ns',
             'response_latency_ns', 'response_timeout_us', 'pw_repeat_us', 'mbox_entries',
             'seg_bufs', 'creator_pid', 'attached_pids', 'devices', 'links'}
DEV_KEYS = {'index', 'name', 'type', 'model', 'vid', 'did', 'comptag', 'destid', 'host',
            'owner_pid', 'maint_rx', 'nports', 'ports'}
SHOW_PORT_KEYS = {'port', 'peer', 'peer_port', 'link_up', 'port_ok'}
LINK_KEYS = {'a', 'a_port', 'b', 'b_port', 'up'}
PORTS_KEYS = {'format_version', 'fabric', 'device', 'type', 'ports'}
PORT_KEYS = {'port', 'peer', 'peer_port', 'link_up', 'port_ok', 'lockout', 'input_enable',
             'output_enable', 'disabled', 'ctl', 'err_sts', 'err_sts_bits', 'lanes',
             'rate_mbps', 'ack_in', 'ack_out', 'tx_pkts', 'rx_pkts', 'drops', 'err_stopped'}
SWITCH_MODELS = ('std', 'cps1848', 'rxs2448')
ENDPOINT_MODELS = ('generic', 'tsi721')
ROUTES_KEYS = {'format_version', 'fabric', 'switch', 'model', 'devid_size', 'default_port',
               'routes'}
LIST_KEYS = {'name', 'ready', 'devices', 'endpoints', 'switches', 'devid_size', 'owner_uid',
             'creator_pid', 'attached_pids'}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class FabricToolTest(unittest.TestCase):

    def check_show_schema(self, doc, name):
        self.assertEqual(set(doc), SHOW_KEYS)
        self.assertEqual(doc['format_version'], 2)
        self.assertEqual(doc['fabric'], name)
        self.assertTrue(is_int(doc['seed']))
        self.assertIsInstance(doc['timing'], bool)
        self.assertIn(doc['devid_size'], (8, 16))
        self.assertTrue(all(is_int(p) for p in doc['attached_pids']))
        for i, d in enumerate(doc['devices']):
            self.assertEqual(set(d), DEV_KEYS)
            self.assertEqual(d['index'], i)
            self.assertIn(d['type'], ('switch', 'endpoint'))
            if d['type'] == 'switch':
                self.assertIn(d['model'], SWITCH_MODELS)
                self.assertIsNone(d['destid'])
            else:
                self.assertIn(d['model'], ENDPOINT_MODELS)
            for k in ('vid', 'did', 'comptag', 'maint_rx', 'nports'):
                self.assertTrue(is_int(d[k]), k)
            self.assertIsInstance(d['host'], bool)
            self.assertEqual(len(d['ports']), d['nports'])
            for n, p in enumerate(d['ports']):
                self.assertEqual(set(p), SHOW_PORT_KEYS)
                self.assertEqual(p['port'], n)
                self.assertIsInstance(p['link_up'], bool)
                self.assertIsInstance(p['port_ok'], bool)
        for link in doc['links']:
            self.assertEqual(set(link), LINK_KEYS)
            self.assertIsInstance(link['up'], bool)

    def dev(self, doc, name):
        return next(d for d in doc['devices'] if d['name'] == name)

    def link(self, doc, a, a_port):
        for link in doc['links']:
            if (link['a'], link['a_port']) == (a, a_port) or \
               (link['b'], link['b_port']) == (a, a_port):
                return link
        self.fail('no link on %s.%d' % (a, a_port))

    def test_help(self):
        rc, out, err = run('--help')
        self.assertEqual((rc, err), (0, ''))
        self.assertTrue(out.startswith('Usage: dpdk-rio-fabric'))
        for cmd in ('create', 'list', 'destroy', 'show', 'read', 'write', 'routes', 'ports',
                    'link'):
            self.assertIn('\n  %s ' % cmd if cmd != 'list' else '\n  list', out)
            rc, out2, err = run(cmd, '--help')
            self.assertEqual((rc, err), (0, ''), cmd)
            self.assertTrue(out2.startswith('Usage: dpdk-rio-fabric %s' % cmd), out2)

    def test_create_list_destroy(self):
        with Fabric(self, 'builtin:chain:2') as f:
            doc = f.json('list', '--format', 'json')
            self.assertEqual(doc['format_version'], 2)
            mine = [x for x in doc['fabrics'] if x['name'] == f.name]
            self.assertEqual(len(mine), 1)
            x = mine[0]
            self.assertEqual(set(x), LIST_KEYS)
            self.assertEqual((x['ready'], x['devices'], x['endpoints'], x['switches'],
                              x['devid_size'], x['owner_uid']),
                             (True, 5, 3, 2, 8, os.geteuid()))
            self.assertEqual(x['creator_pid'], f.keeper)
            self.assertEqual(x['attached_pids'], [f.keeper])
            names = [y['name'] for y in doc['fabrics']]
            self.assertEqual(names, sorted(names))
            text = f.ok('list')
            row = [ln for ln in text.splitlines() if ln.split()[0] == f.name]
            self.assertEqual(row[0].split()[1:5], ['5', '3', '2', '8'])
            self.assertIn('%d(creator)' % f.keeper, row[0])
            self.assertTrue(pid_running(f.keeper))
            # the fabric outlives the commands that attach to it for a moment
            for _ in range(3):
                f.ok('show', f.name)
            self.assertEqual(segments(f.name), ['rio_sim.' + f.name])

            self.assertEqual(f.ok('destroy', f.name), '')
            self.assertEqual(segments(f.name), [])
            deadline = time.time() + 5
            while pid_running(f.keeper) and time.time() < deadline:
                time.sleep(0.05)
            self.assertFalse(pid_running(f.keeper), 'keeper still running after destroy')
            doc = f.json('list', '--format', 'json')
            self.assertNotIn(f.name, [y['name'] for y in doc['fabrics']])
            rc, out, err = run('destroy', f.name)
            self.assertEqual(rc, 1)

    def test_keeper_sigterm(self):
        """SIGTERM to the keeper detaches it: the fabric, unused, goes away."""
        with Fabric(self, tag='kill') as f:
            self.assertEqual(segments(f.name), ['rio_sim.' + f.name])
            os.kill(f.keeper, 15)
            deadline = time.time() + 5
            while (segments(f.name) or pid_running(f.keeper)) and time.time() < deadline:
                time.sleep(0.05)
            self.assertEqual(segments(f.name), [])
            self.assertFalse(pid_running(f.keeper))
            rc, out, err = run('show', f.name)
            self.assertEqual((rc, err), (1, '%sfabric %s does not exist\n' % (ERR_PREFIX, f.name)))

    def test_show_json_default(self):
        with Fabric(self) as f:
            doc = f.json('show', f.name, '--format', 'json')
            self.check_show_schema(doc, f.name)
            self.assertEqual([d['name'] for d in doc['devices']], ['sw0', 'ep0', 'ep1'])
            sw0, ep0, ep1 = doc['devices']
            self.assertEqual((sw0['type'], sw0['model'], sw0['nports']), ('switch', 'std', 8))
            self.assertEqual(ep0['model'], 'generic')
            self.assertEqual((sw0['vid'], sw0['did']), (0x5253, 2))
            self.assertEqual((ep0['destid'], ep0['host']), (0, True))
            self.assertEqual((ep1['destid'], ep1['host']), (1, False))
            self.assertEqual(doc['creator_pid'], f.keeper)
            self.assertEqual(len(doc['links']), 2)
            self.assertEqual(self.link(doc, 'ep1', 0)['up'], True)
            self.assertEqual(sw0['ports'][1]['peer'], 'ep1')
            self.assertEqual(sw0['ports'][1]['peer_port'], 0)
            self.assertEqual(sw0['ports'][5]['peer'], None)
            text = f.ok('show', f.name)
            self.assertIn('sw0.1 -- ep1.0 up', text)
            self.assertRegex(text, r'(?m)^2 +ep1 +endpoint +generic +0x01 ')

    def test_show_dot(self):
        with Fabric(self, 'builtin:tree:2:2') as f:
            doc = f.json('show', f.name, '--format', 'json')
            self.check_show_schema(doc, f.name)
            dot = f.ok('show', f.name, '--format', 'dot')
            lines = dot.strip().splitlines()
            self.assertEqual(lines[0], 'graph "%s" {' % f.name)
            self.assertEqual(lines[-1], '}')
            self.assertEqual(dot.count('{'), 1)
            nodes = [ln for ln in lines if re.match(r'^  "[^"]+" \[shape=(box|ellipse)', ln)]
            edges = [re.match(r'^  "([^"]+)" -- "([^"]+)" \[taillabel="(\d+)", '
                              r'headlabel="(\d+)"(, style=dashed, color=red)?\];$', ln)
                     for ln in lines if ' -- ' in ln]
            self.assertEqual(len(lines), 2 + len(nodes) + len(edges))
            self.assertEqual(sorted(re.match(r'^  "([^"]+)"', n).group(1) for n in nodes),
                             sorted(d['name'] for d in doc['devices']))
            self.assertTrue(all(e is not None for e in edges))
            self.assertEqual(len(edges), len(doc['links']))
            self.assertEqual({(e.group(1), int(e.group(3)), e.group(2), int(e.group(4)))
                              for e in edges},
                             {(ln['a'], ln['a_port'], ln['b'], ln['b_port'])
                              for ln in doc['links']})
            self.assertFalse(any(e.group(5) for e in edges))
            for d in doc['devices']:
                shape = 'box' if d['type'] == 'switch' else 'ellipse'
                self.assertIn('  "%s" [shape=%s' % (d['name'], shape), dot)
            f.ok('link', f.name, 'sw1', '0', 'down')
            dot = f.ok('show', f.name, '--format', 'dot')
            down = [ln for ln in dot.splitlines() if 'style=dashed' in ln]
            self.assertEqual(len(down), 1)
            self.assertRegex(down[0], r'^  "sw0" -- "sw1" \[taillabel="1", headlabel="0"')

    def test_read_write_backdoor(self):
        with Fabric(self) as f:
            self.assertEqual(f.ok('read', f.name, 'sw0', '0'), '0x00025253\n')
            self.assertEqual(f.ok('read', f.name, 'sw0', '0', '--size', '16'), '0x0002\n')
            self.assertEqual(f.ok('read', f.name, 'sw0', '2', '--size', '16'), '0x5253\n')
            self.assertEqual(f.ok('read', f.name, 'sw0', '1', '--size', '8'), '0x02\n')
            self.assertEqual(f.ok('read', f.name, '#2', '0x60'), '0x00010000\n')
            self.assertEqual(f.ok('write', f.name, 'sw0', '0x6c', '0x1234abcd'), '')
            self.assertEqual(f.ok('read', f.name, 'sw0', '0x6c'), '0x1234abcd\n')
            f.ok('write', f.name, 'sw0', '0x6f', '0x5a', '--size', '8')
            self.assertEqual(f.ok('read', f.name, 'sw0', '0x6c'), '0x1234ab5a\n')
            doc = f.json('show', f.name, '--format', 'json')
            self.assertEqual(self.dev(doc, 'sw0')['comptag'], 0x1234ab5a)

    def test_read_write_via(self):
        with Fabric(self) as f:
            doc = f.json('show', f.name, '--format', 'json')
            before = self.dev(doc, 'sw0')['maint_rx']
            # switch one hop away: hop count 0 by default
            self.assertEqual(f.ok('read', f.name, 'sw0', '0', '--via', 'ep0'), '0x00025253\n')
            # endpoint: destid from its Base Device ID
            self.assertEqual(f.ok('read', f.name, 'ep1', '0x60', '--via', 'ep0'),
                             '0x00010000\n')
            f.ok('write', f.name, 'ep1', '0x6c', '0x77', '--via', 'ep0')
            self.assertEqual(f.ok('read', f.name, 'ep1', '0x6c'), '0x00000077\n')
            doc = f.json('show', f.name, '--format', 'json')
            self.assertEqual(self.dev(doc, 'sw0')['maint_rx'], before + 1)
            self.assertEqual(self.dev(doc, 'ep1')['maint_rx'], 2)
            ports = f.json('ports', f.name, 'sw0', '--format', 'json')
            p1 = ports['ports'][1]
            self.assertGreaterEqual(p1['tx_pkts'], 2)
            self.assertGreaterEqual(p1['rx_pkts'], 2)
            # no endpoint answers destid 9 once sw0 routes it nowhere (its entry
            # resets to an unpredictable port)
            f.ok('write', f.name, 'sw0', '0x70', '9')
            f.ok('write', f.name, 'sw0', '0x74', '0xff')
            rc, out, err = run('read', f.name, 'ep1', '0x60', '--via', 'ep0', '--destid', '9')
            self.assertEqual((rc, out), (1, ''))
            self.assertRegex(err, r'^%stimed out|^%s.*timed out' % (ERR_PREFIX, ERR_PREFIX))

    def test_via_chain_routes(self):
        with Fabric(self, 'builtin:chain:3') as f:
            # no destids yet: a switch behind another one needs --destid
            rc, out, err = run('read', f.name, 'sw1', '0', '--via', 'ep0')
            self.assertEqual(rc, 1)
            self.assertIn('give --destid', err)
            # an endpoint nobody enumerated may not issue requests
            rc, out, err = run('read', f.name, 'sw0', '0', '--via', 'ep0')
            self.assertEqual((rc, out), (1, ''))
            self.assertIn('ep0 may not issue requests: no Master Enable', err)
            f.ok('write', f.name, 'ep0', '0x13c', '0x40000000')
            # program ep0 = destid 0 and ep3 = destid 3 and the routes between
            # them (responses go back to the requester's device ID)
            f.ok('write', f.name, 'ep0', '0x60', '0x00000000')
            f.ok('write', f.name, 'ep3', '0x60', '0x00030000')
            for sw, to3, to0 in (('sw0', 2, 0), ('sw1', 2, 0), ('sw2', 1, 0)):
                f.ok('write', f.name, sw, '0x70', '3')
                f.ok('write', f.name, sw, '0x74', str(to3))
                f.ok('write', f.name, sw, '0x70', '0')
                f.ok('write', f.name, sw, '0x74', str(to0))
            self.assertEqual(f.ok('read', f.name, 'sw2', '0', '--via', 'ep0', '--destid', '3'),
                             '0x00025253\n')
            self.assertEqual(f.ok('read', f.name, 'sw1', '0x6c', '--via', 'ep0', '--destid', '3',
                                  '--hop', '1'), '0x00000000\n')
            self.assertEqual(f.ok('read', f.name, 'ep3', '0x60', '--via', 'ep0'),
                             '0x00030000\n')
            # maintenance is 4 bytes
            rc, out, err = run('read', f.name, 'ep3', '0x60', '--via', 'ep0', '--size', '16')
            self.assertEqual(rc, 1)
            self.assertIn('maintenance transactions are 4 bytes', err)
            r = f.json('routes', f.name, 'sw1', '--format', 'json')
            self.assertEqual(set(r), ROUTES_KEYS)
            self.assertEqual((r['format_version'], r['fabric'], r['switch'], r['model'],
                              r['devid_size']), (2, f.name, 'sw1', 'std', 8))
            # std entries reset to unpredictable ports: only the programmed ones are known
            self.assertIn({'destid': 0, 'port': 0}, r['routes'])
            self.assertIn({'destid': 3, 'port': 2}, r['routes'])
            # a route written by a routed maintenance transaction shows too
            f.ok('write', f.name, 'sw1', '0x70', '0x42', '--via', 'ep0', '--destid', '3',
                 '--hop', '1')
            f.ok('write', f.name, 'sw1', '0x74', '1', '--via', 'ep0', '--destid', '3',
                 '--hop', '1')
            f.ok('write', f.name, 'sw1', '0x70', '0x43')
            f.ok('write', f.name, 'sw1', '0x74', '0xff')
            f.ok('write', f.name, 'sw1', '0x78', '2')
            r = f.json('routes', f.name, 'sw1', '--format', 'json')
            self.assertIn({'destid': 0x42, 'port': 1}, r['routes'])
            self.assertNotIn(0x43, [x['destid'] for x in r['routes']])
            self.assertEqual(r['default_port'], 2)
            text = f.ok('routes', f.name, 'sw1')
            self.assertRegex(text, r'(?m)^0x03 +2$')
            self.assertRegex(text, r'(?m)^0x42 +1$')
            self.assertIn('default port: 2', text)

    def test_routes_default_and_models(self):
        with Fabric(self) as f:
            r = f.json('routes', f.name, 'sw0', '--format', 'json')
            self.assertIn({'destid': 0, 'port': 0}, r['routes'])
            self.assertIn({'destid': 1, 'port': 1}, r['routes'])
        topo = os.path.join(os.environ.get('TMPDIR', '/tmp'), '%s_cps.ini' % PREFIX)
        with open(topo, 'w') as t:
            t.write('[fabric]\ndevid_size = 16\n[switch cs0]\nmodel = cps1848\n'
                    '[endpoint e0]\nhost = 1\nmodel = tsi721\n[endpoint e1]\n'
                    '[links]\ncs0.0 = e0.0\ncs0.1 = e1.0\n')
        try:
            with Fabric(self, topo) as f:
                # CPS-1848 reset: every entry "use the default port", which drops
                r = f.json('routes', f.name, 'cs0', '--format', 'json')
                self.assertEqual((r['model'], r['devid_size'], r['routes'], r['default_port']),
                                 ('cps1848', 16, [], None))
                self.assertIn('default port: none (drop)', f.ok('routes', f.name, 'cs0'))
                # a 16-bit ID beyond domain 0 selects its domain's entry: 256 IDs
                f.ok('write', f.name, 'cs0', '0x70', '0x1234')
                f.ok('write', f.name, 'cs0', '0x74', '1')
                r = f.json('routes', f.name, 'cs0', '--format', 'json')
                self.assertEqual(len(r['routes']), 256)
                self.assertIn({'destid': 0x1234, 'port': 1}, r['routes'])
                self.assertRegex(f.ok('routes', f.name, 'cs0'), r'(?m)^0x1234 +1$')
                doc = f.json('show', f.name, '--format', 'json')
                self.check_show_schema(doc, f.name)
                self.assertEqual((self.dev(doc, 'cs0')['model'], self.dev(doc, 'cs0')['nports'],
                                  self.dev(doc, 'cs0')['vid'], self.dev(doc, 'cs0')['did']),
                                 ('cps1848', 18, 0x38, 0x374))
                self.assertEqual(self.dev(doc, 'e0')['model'], 'tsi721')
                text = f.ok('show', f.name)
                self.assertRegex(text, r'(?m)^0 +cs0 +switch +cps1848 ')
        finally:
            os.unlink(topo)

    def test_show_fabric_keys(self):
        """Every [fabric] key, the models and the link keys are shown as configured."""
        topo = os.path.join(os.environ.get('TMPDIR', '/tmp'), '%s_keys.ini' % PREFIX)
        with open(topo, 'w') as t:
            t.write('[fabric]\nseed = 4242\ntiming = 1\nhop_latency = 250\n'
                    'response_latency = 700\nresponse_timeout = 3000\npw_repeat = 2000\n'
                    'mbox_entries = 64\nseg_bufs = 3\nlanes = 2\nbaud = 3.125\n'
                    '[switch rx0]\nmodel = rxs2448\n'
                    '[endpoint e0]\nhost = 1\nmodel = tsi721\n'
                    '[endpoint e1]\nmodel = generic\nports = 2\nlanes = 1\n'
                    '[links]\nrx0.0 = e0.0\nrx0.1 = e1.0\nrx0.2 = e1.1\n')
        try:
            with Fabric(self, topo) as f:
                doc = f.json('show', f.name, '--format', 'json')
                self.check_show_schema(doc, f.name)
                self.assertEqual({k: doc[k] for k in (
                    'seed', 'timing', 'hop_latency_ns', 'response_latency_ns',
                    'response_timeout_us', 'pw_repeat_us', 'mbox_entries', 'seg_bufs')},
                    {'seed': 4242, 'timing': True, 'hop_latency_ns': 250,
                     'response_latency_ns': 700, 'response_timeout_us': 3000,
                     'pw_repeat_us': 2000, 'mbox_entries': 64, 'seg_bufs': 3})
                self.assertEqual([(d['name'], d['model'], d['nports'])
                                  for d in doc['devices']],
                                 [('rx0', 'rxs2448', 24), ('e0', 'tsi721', 1),
                                  ('e1', 'generic', 2)])
                text = f.ok('show', f.name)
                self.assertIn('seed 4242, timing on (hop 250 ns, response 700 ns, '
                              'timeout 3000 us)\n', text)
                self.assertIn('mailbox ring 64 slots, segment buffers 3, '
                              'port-write repeat 2000 us\n', text)
                # 3.125 Gbaud, 8b/10b: 2500 Mbit/s a lane
                p = f.json('ports', f.name, 'e0', '--format', 'json')['ports'][0]
                self.assertEqual((p['lanes'], p['rate_mbps']), (2, 5000))
                p = f.json('ports', f.name, 'e1', '--format', 'json')['ports'][1]
                self.assertEqual((p['lanes'], p['rate_mbps']), (1, 2500))
        finally:
            os.unlink(topo)

    def test_topology_errors(self):
        """Unknown models and keys fail create with the file, section and key."""
        topo = os.path.join(os.environ.get('TMPDIR', '/tmp'), '%s_bad.ini' % PREFIX)
        good_ep = '[endpoint e0]\nhost = 1\n[endpoint e1]\n[links]\ne0.0 = e1.0\n'
        cases = [
            ('[fabric]\nseg_buf = 2\n' + good_ep, "[fabric]: unknown key 'seg_buf'"),
            ('[fabric]\nseg_bufs = 17\n' + good_ep, '[fabric]: key seg_bufs'),
            ('[fabric]\nbaud = 4\n' + good_ep, '[fabric]: key baud'),
            ('[switch s0]\nmodel = cps1616\n' + good_ep, "[switch s0]: key model: unknown"),
            ('[switch s0]\nspeed = 5\n' + good_ep, "[switch s0]: unknown key 'speed'"),
            ('[endpoint e0]\nhost = 1\nmodel = tsi720\n[endpoint e1]\n[links]\n'
             'e0.0 = e1.0\n', "[endpoint e0]: key model: unknown"),
            ('[endpoint e0]\nhost = 1\nmbox = 2\n[endpoint e1]\n[links]\ne0.0 = e1.0\n',
             "[endpoint e0]: unknown key 'mbox'"),
        ]
        try:
            for ini, want in cases:
                with open(topo, 'w') as t:
                    t.write(ini)
                name = fabric_name('bad')
                rc, out, err = run('create', name, '--topology', topo)
                self.assertEqual((rc, out), (1, ''), ini)
                self.assertTrue(err.startswith('dpdk-rio-fabric: error: '), err)
                self.assertIn('topology %s %s' % (topo, want), err, ini)
                self.assertEqual(len(err.splitlines()), 1, err)
                self.assertEqual(segments(name), [])
        finally:
            os.unlink(topo)

    def test_ports_and_link(self):
        with Fabric(self) as f:
            doc = f.json('ports', f.name, 'sw0', '--format', 'json')
            self.assertEqual(set(doc), PORTS_KEYS)
            self.assertEqual((doc['format_version'], doc['fabric'], doc['device'], doc['type']),
                             (2, f.name, 'sw0', 'switch'))
            self.assertEqual(len(doc['ports']), 8)
            for n, p in enumerate(doc['ports']):
                self.assertEqual(set(p), PORT_KEYS)
                self.assertEqual(p['port'], n)
                for k in ('ctl', 'err_sts', 'tx_pkts', 'rx_pkts', 'drops'):
                    self.assertTrue(is_int(p[k]), k)
            p1 = doc['ports'][1]
            self.assertEqual((p1['peer'], p1['peer_port'], p1['link_up'], p1['port_ok'],
                              p1['lockout'], p1['input_enable'], p1['output_enable'],
                              p1['disabled']),
                             ('ep1', 0, True, True, False, True, True, False))
            self.assertEqual(p1['err_sts_bits'], ['PORT_OK'])
            self.assertEqual(p1['err_sts'], 2)
            p5 = doc['ports'][5]
            self.assertEqual((p5['peer'], p5['link_up'], p5['port_ok'], p5['err_sts_bits']),
                             (None, False, False, ['PORT_UNINITIALIZED']))

            self.assertEqual(f.ok('link', f.name, 'sw0', '1', 'down'), '')
            doc = f.json('ports', f.name, 'sw0', '--format', 'json')
            p1 = doc['ports'][1]
            self.assertEqual((p1['link_up'], p1['port_ok'], p1['err_sts_bits'][-1]),
                             (False, False, 'PORT_UNINITIALIZED'))
            ep1 = f.json('ports', f.name, 'ep1', '--format', 'json')['ports'][0]
            self.assertEqual((ep1['link_up'], ep1['port_ok']), (False, False))
            show = f.json('show', f.name, '--format', 'json')
            self.assertFalse(self.link(show, 'ep1', 0)['up'])
            self.assertTrue(self.link(show, 'ep0', 0)['up'])
            self.assertFalse(self.dev(show, 'sw0')['ports'][1]['port_ok'])
            self.assertIn('sw0.1 -- ep1.0 down', f.ok('show', f.name))
            text = f.ok('ports', f.name, 'sw0')
            self.assertRegex(text, r'(?m)^1 +ep1\.0 +down +no ')
            # a transaction to ep1 is now dropped at sw0 port 1
            drops = p1['drops']
            rc, out, err = run('read', f.name, 'ep1', '0', '--via', 'ep0')
            self.assertEqual(rc, 1)
            self.assertIn('timed out', err)
            p1 = f.json('ports', f.name, 'sw0', '--format', 'json')['ports'][1]
            self.assertEqual(p1['drops'], drops + 1)

            f.ok('link', f.name, 'ep1', '0', 'up')
            doc = f.json('ports', f.name, 'sw0', '--format', 'json')
            self.assertEqual((doc['ports'][1]['link_up'], doc['ports'][1]['port_ok']),
                             (True, True))
            self.assertTrue(self.link(f.json('show', f.name, '--format', 'json'),
                                      'ep1', 0)['up'])
            f.ok('read', f.name, 'ep1', '0', '--via', 'ep0')
            # lockout and enables come from Port n Control
            f.ok('write', f.name, 'sw0', '0x15c', '0x00000002', '--size', '32')
            p0 = f.json('ports', f.name, 'sw0', '--format', 'json')['ports'][0]
            self.assertEqual((p0['lockout'], p0['input_enable'], p0['output_enable']),
                             (True, False, False))

    def run_cmd_file(self, path, fab, missing):
        n = 0
        with open(path) as cf:
            for lineno, line in enumerate(cf, 1):
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                status, expect, args = [x.strip() for x in line.split('|', 2)]
                args = args.replace('$F', fab).replace('$N', missing)
                expect = expect.replace('$F', fab).replace('$N', missing)
                rc, out, err = run(*shlex.split(args))
                where = '%s:%d: %s' % (os.path.basename(path), lineno, args)
                self.assertEqual(rc, int(status), '%s: %r' % (where, err))
                self.assertEqual(out, '', where)
                self.assertTrue(err.startswith(ERR_PREFIX), '%s: %r' % (where, err))
                self.assertEqual(err.count('\n'), 1, '%s: %r' % (where, err))
                self.assertTrue(err.endswith('\n'), where)
                self.assertIn(expect, err, where)
                n += 1
        return n

    def test_errors_cmd_file(self):
        missing = fabric_name('_missing')
        with Fabric(self) as f:
            n = self.run_cmd_file(CMDS, f.name, missing)
            self.assertGreaterEqual(n, 40)
            # the errors changed nothing
            self.assertEqual(f.ok('read', f.name, 'sw0', '0x6c'), '0x00000000\n')
            self.assertEqual(segments(missing), [])

    def test_permission(self):
        with Fabric(self) as f:
            path = os.path.join(fabric_dir(), 'rio_sim.' + f.name)
            if os.geteuid() == 0:
                # Another user does not even see our fabrics: they live in our
                # directory; the tool run as that user looks in its own. root
                # bypasses mode bits, so the tool runs as an unprivileged user,
                # from a copy that user can reach.
                with ToolCopy() as copy:
                    for args in (('show', f.name), ('read', f.name, 'sw0', '0'),
                                 ('link', f.name, 'sw0', '1', 'down'), ('destroy', f.name)):
                        rc, out, err = run(*args, user=NOBODY, tool=copy.tool)
                        self.assertEqual((rc, out), (1, ''), args)
                        self.assertEqual(err, '%sfabric %s does not exist\n'
                                         % (ERR_PREFIX, f.name), args)
                    doc = json.loads(run('list', '--format', 'json', user=NOBODY,
                                         tool=copy.tool)[1])
                self.assertEqual([x for x in doc['fabrics'] if x['name'] == f.name], [])
                # and give the segment to another uid: the driver's owner check
                # refuses it even to root, and the tool says so.
                os.chown(path, NOBODY, -1)
                try:
                    for args in (('show', f.name), ('ports', f.name, 'sw0'),
                                 ('write', f.name, 'sw0', '0x6c', '1'), ('destroy', f.name)):
                        rc, out, err = run(*args)
                        self.assertEqual((rc, out), (1, ''), args)
                        self.assertTrue(err.startswith('%sfabric %s: permission denied'
                                                       % (ERR_PREFIX, f.name)), err)
                        self.assertEqual(err.count('\n'), 1)
                    self.assertEqual(segments(f.name), ['rio_sim.' + f.name])
                finally:
                    os.chown(path, 0, -1)
            else:
                os.chmod(path, 0)
                try:
                    rc, out, err = run('show', f.name)
                    self.assertEqual((rc, out), (1, ''))
                    self.assertEqual(err, '%sfabric %s: permission denied on %s\n'
                                     % (ERR_PREFIX, f.name, path))
                finally:
                    os.chmod(path, 0o600)
            self.assertEqual(f.ok('read', f.name, 'sw0', '0x6c'), '0x00000000\n')

    def test_doc_examples(self):
        """The session of the tools guide, run as written, prints what it shows."""
        if DOC is None:
            self.skipTest('no guide given')
        steps, cur = [], None
        with open(DOC) as f:
            for line in f:
                line = line.rstrip('\n')
                # As run from the top of the tree after the README's build.
                m = re.match(r'^   \$ (build/app/dpdk-rio-fabric .*)$', line)
                if m:
                    cur = (m.group(1), [])
                    steps.append(cur)
                elif cur is not None and line.startswith('   '):
                    cur[1].append(line[3:])
                else:
                    cur = None
        self.assertGreaterEqual(len(steps), 15)
        name = fabric_name('doc')

        def norm(cmd, lines):
            out = []
            for ln in lines:
                ln = re.sub(r'keeper pid \d+', 'keeper pid N', ln)
                # dir: the guide shows a user's directory, we compare with ours
                if cmd.split()[1] == 'dir':
                    ln = fabric_dir() if ln.startswith('/') else ln
                ln = re.sub(r'\d+\(creator\)', 'N(creator)', ln)
                ln = re.sub(r'^seed \d+,', 'seed N,', ln)
                ln = ' '.join(ln.split())
                # list: the header and the session's fabric only
                if cmd.split()[1] == 'list' and not ln.startswith(('FABRIC ', name + ' ')):
                    continue
                out.append(ln)
            return out

        try:
            for cmd, expect in steps:
                args = shlex.split(cmd.replace('demo', name))[1:]
                rc, out, err = run(*args)
                got = norm(cmd, (out + err).splitlines())
                want = norm(cmd, [ln.replace('demo', name) for ln in expect])
                if cmd.split()[1] == 'dir':
                    want = [fabric_dir()]
                self.assertEqual(got, want, cmd)
                self.assertEqual(rc, 0 if not err else rc, cmd)
                if err:
                    self.assertTrue(err.startswith(ERR_PREFIX) and rc in (1, 2), cmd)
            self.assertEqual(steps[-2][0], 'build/app/dpdk-rio-fabric destroy demo')
            self.assertEqual(segments(name), [])
        finally:
            run('destroy', name)


def main():
    global TOOL, CMDS, DOC
    if len(sys.argv) < 3:
        print('usage: %s <dpdk-rio-fabric> <command file> [<tools guide>]' % sys.argv[0],
              file=sys.stderr)
        return 2
    TOOL = os.path.abspath(sys.argv[1])
    CMDS = sys.argv[2]
    DOC = sys.argv[3] if len(sys.argv) > 3 else None
    prog = unittest.main(argv=[sys.argv[0], '-v'], exit=False)
    left = segments()
    if left:
        print('shared memory left in %s: %s' % (fabric_dir(), left), file=sys.stderr)
        for e in left:
            os.unlink(os.path.join(fabric_dir(), e))
        return 1
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
