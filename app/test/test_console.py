#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""Drive dpdk-rio-console with command files and check what it prints.

usage: test_console.py <dpdk-rio-console> <plugin dir> [unittest args]

Every console run gets EAL args of its own (--file-prefix) and rio_sim
vdevs on a fabric of its own, so the test runs in parallel with others.
Children are always killed and reaped; no rio_sim.<fabric>* object may be
left behind.
"""

import glob
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from rio_fabric_dir import fabric_objects

CONSOLE = None
DRIVERS = None
RUN_TIMEOUT = 60
_seq = [0]
# What the console shows here, and the session of its guide, comes from the
# topologies' own models (std switches, generic endpoints): identities and
# port counts change under a run-wide default.
os.environ.pop('RIO_SIM_MODELS', None)


def unique(tag):
    """A name of 1..31 characters unique to this process and call."""
    _seq[0] += 1
    return 'con%s%d_%d' % (tag, os.getpid() % 100000, _seq[0])


def eal_args(prefix):
    return ['--no-huge', '-m', '256', '--no-pci', '--file-prefix=' + prefix,
            '-d', DRIVERS, '--log-level=lib.eal:error']


def shm_left(fabric):
    # The console is <build>/app/dpdk-rio-console.
    build = os.path.dirname(os.path.dirname(CONSOLE))
    return fabric_objects(build, 'rio_sim.%s' % fabric) + \
        fabric_objects(build, 'rio_sim.%s.*' % fabric)


def split_commands(out):
    """Map the output to [(command, [lines])] using the echoed prompts."""
    res = []
    for line in out.splitlines():
        if line.startswith('rio> '):
            res.append((line[5:], []))
        elif res:
            res[-1][1].append(line)
    return res


class Console:
    """One console process; stdin is a pipe (commands are echoed)."""

    def __init__(self, vdevs, app_args=(), stdin=subprocess.PIPE):
        self.prefix = unique('p')
        argv = [CONSOLE] + eal_args(self.prefix)
        for v in vdevs:
            argv += ['--vdev', v]
        argv += ['--'] + list(app_args)
        self.proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.partial = ''

    def send(self, cmd):
        self.proc.stdin.write(cmd + '\n')
        self.proc.stdin.flush()

    def wait_line(self, pattern, timeout=20):
        """Read stdout until a line matches; returns the match.

        Reads the file descriptor directly: select() does not see what a
        buffered reader already holds.
        """
        end = time.time() + timeout
        rx = re.compile(pattern)
        fd = self.proc.stdout.fileno()
        while time.time() < end:
            while '\n' in self.partial:
                line, self.partial = self.partial.split('\n', 1)
                self.lines.append(line)
                m = rx.search(line)
                if m:
                    return m
            r, _, _ = select.select([fd], [], [], 0.2)
            if not r:
                if self.proc.poll() is not None:
                    break
                continue
            data = os.read(fd, 65536)
            if not data:
                break
            self.partial += data.decode(errors='replace')
        raise AssertionError('no line matching %r; got:\n%s' %
                             (pattern, '\n'.join(self.lines + [self.partial])))

    def finish(self, timeout=RUN_TIMEOUT):
        """Close stdin, wait (kill on timeout); returns (rc, stdout, stderr)."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError('console did not exit within %d s' % timeout)
        return self.proc.returncode, '\n'.join(self.lines + [self.partial + out]), err

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()


def run_cmds(vdevs, cmds, app_args=(), timeout=RUN_TIMEOUT):
    """Run a command file; returns (rc, {cmd index: lines}, stdout, stderr)."""
    with tempfile.NamedTemporaryFile('w', suffix='.cmd', delete=False) as f:
        f.write('\n'.join(cmds) + '\n')
        path = f.name
    c = Console(vdevs, ['--cmdfile', path] + list(app_args), stdin=subprocess.DEVNULL)
    try:
        rc, out, err = c.finish(timeout)
    finally:
        c.kill()
        os.unlink(path)
    return rc, split_commands(out), out, err


def host_vdevs(fabric, topo='builtin:default', agent=True):
    v = ['rio_sim0,fabric=%s,topology=%s,scan=0' % (fabric, topo)]
    if agent:
        v.append('rio_sim1,fabric=%s,scan=0' % fabric)
    return v


def parse_kv(lines):
    d = {}
    for line in lines:
        k, sep, v = line.partition(': ')
        if sep:
            d[k.strip()] = v.strip()
    return d


def parse_table(lines):
    """Parse 'list devices' into {name: {column: value}}."""
    hdr = lines[0].split()
    rows = {}
    for line in lines[1:]:
        cols = line.split()
        if len(cols) == len(hdr):
            rows[cols[0]] = dict(zip(hdr, cols))
    return rows


PING_RX = re.compile(r'^(doorbell|message): sent (\d+) replies (\d+) lost (\d+)'
                     r'(?: min ([\d.]+) avg ([\d.]+) p99 ([\d.]+) max ([\d.]+) us)?$')


def parse_ping(lines):
    res = {}
    for line in lines:
        m = PING_RX.match(line)
        if m:
            res[m.group(1)] = m.groups()[1:]
    return res


class ConsoleTest(unittest.TestCase):

    def setUp(self):
        self.fabric = unique('f')

    def tearDown(self):
        left = shm_left(self.fabric)
        for p in left:
            os.unlink(p)
        self.assertEqual(left, [], 'shared memory left behind')

    def out_of(self, res, cmd):
        for c, lines in res:
            if c == cmd:
                return lines
        self.fail('command %r not echoed' % cmd)

    def check_ping(self, lines, count):
        p = parse_ping(lines)
        self.assertEqual(set(p), {'doorbell', 'message'}, lines)
        for kind, g in p.items():
            sent, replies, lost = int(g[0]), int(g[1]), int(g[2])
            self.assertEqual((sent, replies, lost), (count, count, 0), (kind, lines))
            mn, avg, p99, mx = (float(x) for x in g[3:7])
            # a few slow rounds can lift the average above the 99th percentile
            self.assertTrue(0 <= mn <= avg <= mx, (kind, mn, avg, mx))
            self.assertTrue(mn <= p99 <= mx, (kind, mn, p99, mx))

    def test_enumerate_list_show(self):
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False), [
            'show mports', 'enumerate', 'list devices', 'show device rapidio0',
            'show device 00:e:0001', 'show device 00:s:0002',
            'show routes 00:s:0002', 'show mports'])
        self.assertEqual(rc, 0, out + err)
        self.assertIn('* rio_sim0         0x0000 host', '\n'.join(
            self.out_of(res, 'show mports')))
        self.assertEqual(self.out_of(res, 'enumerate'), ['rio_sim0: enumerated 3 devices'])
        devs = parse_table(self.out_of(res, 'list devices'))
        self.assertEqual(set(devs), {'rapidio0', '00:e:0001', '00:s:0002'})
        self.assertEqual(devs['rapidio0']['LOCAL'], 'yes')
        self.assertEqual(devs['00:s:0002']['TYPE'], 'switch')
        self.assertEqual(devs['00:e:0001']['DESTID'], '0x0001')
        ep = parse_kv(self.out_of(res, 'show device 00:e:0001'))
        for k in ('did', 'vid', 'device_rev', 'asm_did', 'asm_vid', 'asm_rev', 'features',
                  'src_ops', 'dst_ops', 'ports', 'destid', 'hopcount', 'comptag'):
            self.assertIn(k, ep)
        self.assertEqual(ep['type'], 'endpoint')
        self.assertEqual(ep['destid'], '0x0001')
        self.assertEqual(ep['hopcount'], '0xff')
        self.assertEqual(ep['ports'], '1')
        self.assertEqual(ep['vid'], devs['00:e:0001']['VID'])
        self.assertEqual(ep['comptag'], devs['00:e:0001']['COMPTAG'])
        m = re.match(r'0x([0-9a-f]{8}) \((.*)\)$', ep['features'])
        self.assertIsNotNone(m, ep['features'])
        pef = int(m.group(1), 16)
        self.assertEqual('processor' in m.group(2).split(','), bool(pef & 0x20000000))
        self.assertEqual('ext_features' in m.group(2).split(','), bool(pef & 0x8))
        self.assertIn('doorbell', ep['dst_ops'])
        sw = parse_kv(self.out_of(res, 'show device 00:s:0002'))
        self.assertEqual(sw['type'], 'switch')
        self.assertEqual(sw['ports'], '8')
        self.assertIn('switch', sw['features'])
        self.assertEqual(sw['hopcount'], '0x00')
        routes = self.out_of(res, 'show routes 00:s:0002')
        table = {}
        for r in routes[1:-1]:
            m = re.match(r'^  0x([0-9a-f]{4})(?:-0x([0-9a-f]{4}))? -> (\d+)$', r)
            self.assertIsNotNone(m, r)
            first = int(m.group(1), 16)
            last = int(m.group(2), 16) if m.group(2) else first
            self.assertLess(first, last + 1)
            for i in range(first, last + 1):
                self.assertNotIn(i, table)
                table[i] = int(m.group(3))
        self.assertEqual(table.get(0), 0, routes)
        self.assertEqual(table.get(1), 1, routes)
        self.assertEqual(routes[-1], '%d routes' % len(table))
        last = [lines for c, lines in res if c == 'show mports'][-1]
        self.assertRegex(last[1], r'^\* rio_sim0 +0x0000 host +8 +up +yes +3$')

    def test_config_access(self):
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False), [
            'enumerate',
            'read config 00:e:0001 0 32',
            'read config 00:e:0001 0x2 16',
            'read config 00:e:0001 0x1 8',
            'read config rapidio0 0 32',
            'write config 00:e:0001 0x6c 0x12345678 32',
            'read config 00:e:0001 0x6c 32',
            'write config rapidio0 0x6c 0xabcd 16',
            'read config rapidio0 0x6c 32',
            'read config 00:s:0002 0 32'])
        self.assertEqual(rc, 0, out + err)

        def val(cmd):
            lines = self.out_of(res, cmd)
            m = re.match(r'\S+ 0x[0-9a-f]{6} = 0x([0-9a-f]+) \((\d+)-bit\)$', lines[0])
            self.assertIsNotNone(m, lines)
            return int(m.group(1), 16)
        did_vid = val('read config 00:e:0001 0 32')
        self.assertEqual(did_vid & 0xffff, 0x5253)
        # configuration space is big-endian: offset 0 holds the device ID
        self.assertEqual(val('read config 00:e:0001 0x2 16'), did_vid & 0xffff)
        self.assertEqual(val('read config 00:e:0001 0x1 8'), (did_vid >> 16) & 0xff)
        self.assertEqual(val('read config 00:e:0001 0x6c 32'), 0x12345678)
        self.assertEqual(val('read config rapidio0 0x6c 32') >> 16, 0xabcd)
        self.assertEqual(val('read config 00:s:0002 0 32') & 0xffff, 0x5253)

    def test_errors(self):
        cmds = [
            'read config 00:e:0001 0 32',      # before enumeration: unknown
            'enumerate',
            'enumerate',
            'discover',
            'read config 00:e:0001 0x61 32',
            'read config 00:e:0001 0x3 16',
            'write config 00:e:0001 0x62 1 32',
            'read config 00:e:0001 zz 32',
            'read config 00:e:0001 0x1000000 32',
            'write config 00:e:0001 0x60 0x100 8',
            'read config nosuch-e0009 0 32',
            'read config 00:e:0001 0 64',
            'show device nosuch',
            'show routes 00:e:0001',
            'send doorbell 0x1ff 1',
            'send doorbell 1 0x10000',
            'send doorbell 0x77 1',
            'send message 1 0 hello',
            'open mailbox 4',
            'recv messages 2',
            'set mport nosuch',
            'show xstats port 31',
            'ping 1 2',
            'frobnicate',
            'help',
            'read config 00:e:0001 0 32',
        ]
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False), cmds)
        self.assertEqual(rc, 1, out + err)
        expect = {
            0: "error: unknown device '00:e:0001' (see 'list devices')",
            2: 'error: rio_sim0: already enumerated',
            3: 'error: rio_sim0 is a host (host_destid 0): use \'enumerate\'',
            4: 'error: offset 0x61 is not aligned for a 32-bit access',
            5: 'error: offset 0x3 is not aligned for a 16-bit access',
            6: 'error: offset 0x62 is not aligned for a 32-bit access',
            7: "error: bad number 'zz' for offset",
            8: 'error: offset 0x1000000 out of range (max 0xffffff)',
            9: 'error: value 0x100 out of range (max 0xff)',
            10: "error: unknown device 'nosuch-e0009' (see 'list devices')",
            11: "error: bad arguments: 'read config 00:e:0001 0 64' (see 'help')",
            12: "error: unknown device 'nosuch' (see 'list devices')",
            13: 'error: 00:e:0001 is not a switch',
            14: 'error: destid 0x1ff out of range (max 0xff)',
            15: 'error: info 0x10000 out of range (max 0xffff)',
            16: 'error: rio_sim0: doorbell to 0x0077: no response (timed out: no route, '
                'link down or unknown device ID)',
            17: "error: rio_sim0: mailbox 0 is not open (use 'open mailbox 0')",
            18: 'error: mbox 4 out of range (max 0x3)',
            19: "error: rio_sim0: mailbox 2 is not open (use 'open mailbox 2')",
            20: "error: unknown mport 'nosuch' (see 'show mports')",
            22: 'error: no reply from 0x0001 (is its echo responder on?)',
            23: "error: unknown command or bad arguments: 'frobnicate' (see 'help')",
        }
        self.assertEqual(len(res), len(cmds), out)
        for i, line in expect.items():
            self.assertEqual(res[i][0], cmds[i])
            self.assertIn(line, res[i][1], (cmds[i], res[i][1]))
            errs = [x for x in res[i][1] if x.startswith('error:')]
            self.assertEqual(len(errs), 1, (cmds[i], res[i][1]))
        self.assertTrue(res[21][1][0].startswith('error: no ethdev port 31'), res[21])
        # the console went on after every error
        self.assertTrue(any(x.startswith('  ping <destid>') for x in res[24][1]))
        self.assertRegex(res[25][1][0], r'= 0x[0-9a-f]{8} \(32-bit\)$')

    def test_exit_status(self):
        ok = ['show mports', 'enumerate', 'list devices']
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False), ok)
        self.assertEqual(rc, 0, out + err)
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False),
                                     ok + ['read config 00:e:0001 0x2 32', 'show mports'])
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(len(res), 5)        # went on after the failure
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False),
                                     ['send message 1 1 ' + 'x' * 5000, 'show mports'])
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(res[0][1], ['error: command longer than 4094 characters'])
        self.assertEqual(res[1][0], 'show mports')
        rc, res, out, err = run_cmds(host_vdevs(self.fabric, agent=False),
                                     ['quit', 'bogus'])
        self.assertEqual(rc, 0, out + err)   # nothing runs after quit
        self.assertEqual(len(res), 1)
        c = Console(host_vdevs(self.fabric, agent=False), ['--cmdfile', '/nonexistent/x'],
                    stdin=subprocess.DEVNULL)
        rc, out, err = c.finish()
        self.assertEqual(rc, 1)
        self.assertIn('error: cannot open command file /nonexistent/x', out)
        c = Console(host_vdevs(self.fabric, agent=False), ['--mport', 'nosuch'],
                    stdin=subprocess.DEVNULL)
        rc, out, err = c.finish()
        self.assertEqual(rc, 1)
        self.assertIn("error: unknown mport 'nosuch'", err)

    def test_two_mports_one_console(self):
        rc, res, out, err = run_cmds(host_vdevs(self.fabric), [
            'enumerate',
            'set mport rio_sim1',
            'discover 5000',
            'open mailbox 1',
            'set mport rio_sim0',
            'open mailbox 1',
            'send doorbell 1 0x42',
            'send doorbell 1 0x2bcd',
            'send message 1 1 hello rapidio',
            'send message 1 1 0x00ff10203040506070',
            'set mport rio_sim1',
            'recv doorbells 1000',
            'recv messages 1 1000',
            'send message 0 1 back',
            'set mport rio_sim0',
            'recv messages 1 1000',
            'echo on',
            'set mport rio_sim1',
            'ping 0 50 256',
            'echo off',
            'show xstats mport',
            'show xstats port 0',
            'list devices',
        ])
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(self.out_of(res, 'discover 5000'), ['rio_sim1: discovered 3 devices'])
        self.assertEqual(self.out_of(res, 'recv doorbells 1000'), [
            'rio_sim1: doorbell from 0x0000 to 0x0001 info 0x0042',
            'rio_sim1: doorbell from 0x0000 to 0x0001 info 0x2bcd',
            'rio_sim1: 2 doorbells'])
        msgs = [c for c in res if c[0] == 'recv messages 1 1000']
        self.assertEqual(msgs[0][1], [
            # Payloads cross the fabric as whole double-words, zero-padded.
            'rio_sim1: message from 0x0000 mbox 1 len 16 text "hello rapidio"',
            'rio_sim1: message from 0x0000 mbox 1 len 16 hex 00ff1020304050607000000000000000',
            'rio_sim1: 2 messages'])
        self.assertEqual(msgs[1][1], [
            'rio_sim0: message from 0x0001 mbox 1 len 8 text "back"',
            'rio_sim0: 1 messages'])
        self.check_ping(self.out_of(res, 'ping 0 50 256'), 50)
        echo = self.out_of(res, 'echo off')
        self.assertIn('rio_sim0: echoed 50 doorbells 50 messages', echo)
        xs = parse_kv(self.out_of(res, 'show xstats mport')[1:])
        # rio_sim1 sent 50 ping doorbells, 50 ping messages and one message
        self.assertGreaterEqual(int(xs['dbell_tx']), 50)
        self.assertGreaterEqual(int(xs['msg_tx']), 51)
        self.assertGreaterEqual(int(xs['dbell_rx']), 52)
        xp = self.out_of(res, 'show xstats port 0')
        self.assertRegex(xp[0], r'^xstats of port 0 \(rionet_rio_sim\d\):$')
        self.assertIn('rx_good_packets', parse_kv(xp[1:]))
        self.assertEqual(len(parse_table(self.out_of(res, 'list devices'))), 6)

    def test_two_processes_ping(self):
        """A host console echoes; an agent console in another process pings it."""
        echo = Console(['rio_sim0,fabric=%s,topology=builtin:pair,scan=0' % self.fabric])
        pinger = None
        try:
            echo.send('enumerate')
            echo.wait_line(r'^rio_sim0: enumerated 2 devices$')
            echo.send('echo on')
            echo.wait_line(r'^echo responder on$')
            pinger = Console(['rio_sim0,fabric=%s,endpoint=ep1,scan=0' % self.fabric])
            for cmd in ('discover 10000', 'show mports', 'ping 0 100 64', 'ping 0 3 4096',
                        'list devices', 'quit'):
                pinger.send(cmd)
            rc, out, err = pinger.finish()
            self.assertEqual(rc, 0, out + err)
            res = split_commands(out)
            self.assertEqual(self.out_of(res, 'discover 10000'),
                             ['rio_sim0: discovered 2 devices'])
            self.assertIn('agent', self.out_of(res, 'show mports')[1])
            self.check_ping(self.out_of(res, 'ping 0 100 64'), 100)
            self.check_ping(self.out_of(res, 'ping 0 3 4096'), 3)
            echo.send('echo off')
            m = echo.wait_line(r'^rio_sim0: echoed (\d+) doorbells (\d+) messages$')
            self.assertEqual(m.groups(), ('103', '103'))
            echo.send('quit')
            rc, out, err = echo.finish()
            self.assertEqual(rc, 0, out + err)
        finally:
            echo.kill()
            if pinger is not None:
                pinger.kill()

    def test_sigterm_cleans_up(self):
        """SIGTERM while waiting for commands: the console leaves through its
        teardown, so the fabric's shared memory is removed (checked by tearDown)."""
        c = Console(host_vdevs(self.fabric))
        try:
            c.send('enumerate')
            c.wait_line(r'^rio_sim0: enumerated 3 devices$')
            c.send('echo on')
            c.wait_line(r'^echo responder on$')
            self.assertNotEqual(shm_left(self.fabric), [])
            c.proc.send_signal(signal.SIGTERM)
            rc, out, err = c.finish(timeout=30)
            self.assertEqual(rc, 0, out + err)
        finally:
            c.kill()

    def test_ping_without_echo_fails(self):
        """The peer does not echo: the ping command fails, the exit status says so."""
        peer = Console(['rio_sim0,fabric=%s,topology=builtin:pair,scan=0' % self.fabric])
        try:
            peer.send('enumerate')
            peer.wait_line(r'^rio_sim0: enumerated 2 devices$')
            peer.send('open mailbox 3')
            peer.wait_line(r'mailbox 3 open')
            rc, res, out, err = run_cmds(
                ['rio_sim0,fabric=%s,endpoint=ep1,scan=0' % self.fabric],
                ['discover 10000', 'ping 0 1'])
            self.assertEqual(rc, 1, out + err)
            lines = self.out_of(res, 'ping 0 1')
            self.assertIn('error: no reply from 0x0000 (is its echo responder on?)', lines)
            self.assertEqual(parse_ping(lines)['doorbell'][:3], ('1', '0', '1'))
            peer.send('quit')
            rc, out, err = peer.finish()
            self.assertEqual(rc, 0, out + err)
        finally:
            peer.kill()

    def test_interactive_completion(self):
        """--cmdfile then -i on a terminal: the file runs, then the prompt
        (same state); TAB completes a command, help runs, quit leaves."""
        with tempfile.NamedTemporaryFile('w', suffix='.cmd', delete=False) as f:
            f.write('enumerate\n')
            path = f.name
        pid, fd = pty.fork()
        if pid == 0:
            argv = [CONSOLE] + eal_args(unique('p')) + [
                '--vdev', 'rio_sim0,fabric=%s,topology=builtin:pair,scan=0' % self.fabric,
                '--', '--cmdfile', path, '-i']
            try:
                os.execv(CONSOLE, argv)
            finally:
                os._exit(127)
        out = b''
        try:
            def read_until(pat, timeout=20):
                nonlocal out
                end = time.time() + timeout
                while pat not in out and time.time() < end:
                    r, _, _ = select.select([fd], [], [], 0.2)
                    if r:
                        try:
                            out += os.read(fd, 4096)
                        except OSError:
                            break
                self.assertIn(pat, out)
            read_until(b'rio_sim0: enumerated 2 devices')
            read_until(b'rio> ')
            os.write(fd, b'hel\t')
            read_until(b'help')
            os.write(fd, b'\r')
            read_until(b'show xstats port <port id>')
            os.write(fd, b'show mp\t\r')
            read_until(b'SCANNED')
            read_until(b'yes     2')
            os.write(fd, b'quit\r')
            end = time.time() + 20
            status = None
            while time.time() < end:
                wpid, st = os.waitpid(pid, os.WNOHANG)
                if wpid == pid:
                    status = st
                    break
                r, _, _ = select.select([fd], [], [], 0.2)
                if r:
                    try:
                        out += os.read(fd, 4096)
                    except OSError:
                        pass
            self.assertIsNotNone(status, 'console did not leave on quit')
            self.assertEqual(os.waitstatus_to_exitcode(status), 0, out)
            pid = 0
        finally:
            if pid:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            os.close(fd)
            os.unlink(path)


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    CONSOLE = os.path.abspath(sys.argv[1])
    DRIVERS = os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
