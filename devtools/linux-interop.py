#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
"""Linux interop matrix (run through devtools/linux-interop.sh).

Every case runs processes on one fresh rio_sim fabric: dpdk-rio-linux-ref
nodes running Linux's RapidIO code ("linux"), the same program on our
lib/rio ("ours"), and the stock dpdk-testpmd with our rionet. Each process
has a deadline and is reaped; no fabric is left behind. One line per
(case, topology), then "N passed, N failed". The cases of a topology run in
order, --jobs topologies at a time.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAMES = 8
SIZES = "60,1514,4096"
SCAN_TIMEOUT = 60
NODE_TIMEOUT = 150
# Topologies run at the same time, each on fabrics of its own: a case waits
# most of its time (a node's fixed reply window, the sleeps between steps),
# so two topologies at a time keep the project's two cores busy.
DEFAULT_JOBS = 2

_log_lock = threading.Lock()
# Set on SIGTERM/Ctrl-C: every case still running ends at its next wait.
stopping = threading.Event()


def two_lcores():
    """testpmd's main and forwarding lcores on the first two CPUs allowed, or both on the
    only one: without -l, EAL takes one lcore per allowed CPU, a single one under taskset -c N
    or in a one-CPU cpuset, and testpmd then has no core to forward on (as devtools/lcores.sh)."""
    cpus = sorted(os.sched_getaffinity(0))[:2]
    return f'--lcores=0@{cpus[0]},1@{cpus[-1]}'


def log(msg):
    with _log_lock:
        print(msg, flush=True)


class Topology:
    """What the matrix needs of a topology file: endpoints, host, ID size."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.endpoints = []
        self.host = None
        self.devid_size = 8
        self.switch_models = set()
        self.multiport = set()
        section = None
        with open(path) as f:
            for line in f:
                line = line.split(';', 1)[0].strip()
                if not line:
                    continue
                m = re.match(r'^\[\s*(\w+)\s*([A-Za-z0-9_-]*)\s*\]$', line)
                if m:
                    section = (m.group(1), m.group(2))
                    if section[0] == 'endpoint':
                        self.endpoints.append(section[1])
                    continue
                k, _, v = line.partition('=')
                k, v = k.strip(), v.strip()
                if section and section[0] == 'fabric' and k == 'devid_size':
                    self.devid_size = int(v, 0)
                if section and section[0] == 'endpoint' and k == 'host' and int(v, 0):
                    self.host = section[1]
                if section and section[0] == 'switch' and k == 'model':
                    self.switch_models.add(v)
                if section and section[0] == 'endpoint' and k == 'ports' and int(v, 0) > 1:
                    self.multiport.add(section[1])
        if not self.endpoints:
            raise ValueError(f'{path}: no endpoint')
        if self.host is None:
            self.host = self.endpoints[0]
        self.others = [e for e in self.endpoints if e != self.host]
        # Linux's discovery (rio_disc_peer) follows the first ID routed to
        # each switch port and has no component-tag check: on a dual-port
        # endpoint whose ID is routed to its other port (as Linux's own
        # enumeration routes it when that port is reached first), a Linux
        # agent finds itself. Linux agents run on single-port endpoints.
        self.linux_agents = [e for e in self.others if e not in self.multiport]

    def linux_cannot_enumerate(self):
        """Why Linux's own code cannot enumerate this fabric, or None."""
        if self.devid_size == 16 and 'rxs2448' in self.switch_models:
            # idtg3_route_add_entry() refuses route_destid > 0xff (-EINVAL),
            # so the ANY_ID route to the next hop is never written.
            return "Linux's idt_gen3 routes 8-bit device IDs only"
        return None


class Skip:
    """A case that cannot run on a topology, and why."""

    def __init__(self, reason):
        self.reason = reason


class Run:
    """Processes of one case on one fabric."""

    def __init__(self, ctx, case, topo):
        self.ctx = ctx
        self.tag = f'{case}{topo.name}'[:12]
        self.fabric = re.sub(r'[^A-Za-z0-9_-]', '', f'lri{os.getpid()}{self.tag}')[:31]
        self.fabrics = [self.fabric]
        self.dir = tempfile.mkdtemp(prefix=f'lri-{self.tag}-', dir=ctx.workdir)
        self.topo = topo
        self.procs = []
        self.errors = []

    def eal(self, name, plugin_all=False):
        plug = (os.path.join(self.ctx.build, 'drivers') if plugin_all else
                os.path.join(self.ctx.build, 'drivers', 'librte_raw_rio_sim.so'))
        return ['--no-huge', '-m', '512' if plugin_all else '160', '--no-pci',
                f'--file-prefix={self.fabric}-{name}', '-d', plug]

    def vdev(self, ep, host=None, scan=0):
        # Every process names the topology: whichever starts first creates the fabric.
        v = f'rio_sim0,fabric={self.fabric},topology={self.topo.path},endpoint={ep},scan={scan}'
        if host is not None:
            v += f',host={host}'
        return ['--vdev', v]

    def start(self, name, argv, stdin=None):
        logf = open(os.path.join(self.dir, name + '.log'), 'w')
        p = subprocess.Popen(argv, stdout=logf, stderr=subprocess.STDOUT,
                             stdin=stdin if stdin is not None else subprocess.DEVNULL,
                             start_new_session=True)
        p.lr_name = name
        p.lr_log = logf
        p.lr_deadline = time.monotonic() + NODE_TIMEOUT
        self.procs.append(p)
        return p

    def node(self, name, ep, args, host=None):
        """dpdk-rio-linux-ref on endpoint ep; reports in <dir>/<name>.{ready,done,json}."""
        files = ['--ready', self.path(name, 'ready'), '--done', self.path(name, 'done'),
                 '--json', self.path(name, 'json'), '--timeout', str(NODE_TIMEOUT - 10)]
        argv = [self.ctx.node] + self.eal(name) + self.vdev(ep, host) + ['--'] + args + files
        return self.start(name, argv)

    def node_tsi721(self, name, ep, args):
        """dpdk-rio-linux-ref whose master port is Linux's tsi721 driver on a Tsi721 model at ep."""
        files = ['--ready', self.path(name, 'ready'), '--done', self.path(name, 'done'),
                 '--json', self.path(name, 'json'), '--timeout', str(NODE_TIMEOUT - 10)]
        t7 = f'fabric={self.fabric},topology={self.topo.path},endpoint={ep}'
        argv = ([self.ctx.node] + self.eal(name) + ['--', '--tsi721', t7] + args + files)
        return self.start(name, argv)

    def testpmd(self, name, ep, queues=1, host=None):
        """Stock dpdk-testpmd with our rionet, echoing (macswap), driven on stdin."""
        fifo = os.path.join(self.dir, name + '.cmd')
        os.mkfifo(fifo)
        # stdbuf: testpmd's answers reach the log as they are printed.
        argv = (['stdbuf', '-oL', self.ctx.testpmd] + self.eal(name, plugin_all=True) +
                self.vdev(ep, host, scan=1) +
                [two_lcores(), '--', '-i', '--forward-mode=macswap', '--total-num-mbufs=8192',
                 '--mbuf-size=4352', '--max-pkt-len=4096',
                 f'--rxq={queues}', f'--txq={queues}', '--nb-cores=1'])
        # Open the FIFO read-write so that neither side blocks on open.
        fd = os.open(fifo, os.O_RDWR)
        p = self.start(name, argv, stdin=fd)
        p.lr_cmd = os.fdopen(os.open(fifo, os.O_WRONLY), 'w')
        os.close(fd)
        return p

    def cmd(self, p, line):
        p.lr_cmd.write(line + '\n')
        p.lr_cmd.flush()

    def path(self, name, kind):
        return os.path.join(self.dir, f'{name}.{kind}')

    def wait_file(self, name, kind, timeout=SCAN_TIMEOUT):
        f = self.path(name, kind)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if os.path.exists(f):
                with open(f) as fh:
                    return json.load(fh)
            if stopping.is_set():
                raise RuntimeError('stopped')
            for p in self.procs:
                if p.lr_name == name and p.poll() is not None:
                    raise RuntimeError(f'{name} exited ({p.returncode}) before its {kind} report; '
                                       f'see {os.path.join(self.dir, name + ".log")}')
            time.sleep(0.1)
        raise RuntimeError(f'no {kind} report of {name} within {timeout} s')

    def wait_log(self, name, pattern, timeout=SCAN_TIMEOUT):
        f = os.path.join(self.dir, name + '.log')
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            # Polled before reading: what it printed before exiting is still seen.
            gone = [p for p in self.procs if p.lr_name == name and p.poll() is not None]
            with open(f, errors='replace') as fh:
                if re.search(pattern, fh.read()):
                    return
            if gone:
                raise RuntimeError(f'{name} exited ({gone[0].returncode}) without "{pattern}" '
                                   f'in its output; see {f}')
            if stopping.is_set():
                raise RuntimeError('stopped')
            time.sleep(0.2)
        raise RuntimeError(f'{name}: no "{pattern}" in its output within {timeout} s')

    def signal(self, p, sig):
        if p.poll() is None:
            os.kill(p.pid, sig)

    def stop(self, p, timeout=20):
        """End one process (quit/SIGTERM, then SIGKILL at its deadline) and reap it."""
        if p.poll() is None:
            if hasattr(p, 'lr_cmd'):
                try:
                    self.cmd(p, 'quit')
                except OSError:
                    pass
            else:
                os.kill(p.pid, signal.SIGTERM)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            self.errors.append(f'{p.lr_name} did not end within {timeout} s: killed')
        if hasattr(p, 'lr_cmd'):
            p.lr_cmd.close()
            del p.lr_cmd
        p.lr_log.close()

    def fabric_view(self):
        out = subprocess.run([self.ctx.fabric_tool, 'show', self.fabric, '--format', 'json'],
                             capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            raise RuntimeError(f'dpdk-rio-fabric show failed: {out.stderr.strip()}')
        return json.loads(out.stdout)

    def next_fabric(self):
        """Stop every process, then go on with a fresh fabric of the same topology."""
        for p in self.procs:
            self.stop(p)
        self.procs.clear()
        self.fabric = f'{self.fabrics[0][:29]}-{len(self.fabrics)}'
        self.fabrics.append(self.fabric)

    def finish(self):
        for p in self.procs:
            self.stop(p)
        # The fabrics' objects live in the directory of our fabrics (dpdk-rio-fabric dir).
        out = subprocess.run([self.ctx.fabric_tool, 'dir'], capture_output=True, text=True,
                             timeout=30)
        fdir = out.stdout.strip() if out.returncode == 0 else '/dev/shm'
        names = os.listdir(fdir) if os.path.isdir(fdir) else []
        for fabric in self.fabrics:
            left = [f for f in names if f.startswith(f'rio_sim.{fabric}.') or
                    f == f'rio_sim.{fabric}']
            if left:
                self.errors.append(f'left in {fdir}: {left}')
                subprocess.run([self.ctx.fabric_tool, 'destroy', fabric],
                               capture_output=True, timeout=30)


def endpoints_of(view):
    """Fabric ground truth: {comptag: destid} of endpoints, set of switch comptags."""
    eps = {d['comptag']: d['destid'] for d in view['devices'] if d['type'] == 'endpoint'}
    sws = {d['comptag'] for d in view['devices'] if d['type'] == 'switch'}
    return eps, sws


def check_view(errs, who, rep, truth, own_comptag):
    """A node's view against the fabric's registers: every other device, same IDs and tags."""
    eps, sws = truth
    if rep['scan_result'] != 0:
        errs.append(f'{who}: scan failed ({rep["scan_result"]})')
    seen_eps = {d['comptag']: d['destid'] for d in rep['devices'] if d['kind'] == 'endpoint'}
    seen_sws = {d['comptag'] for d in rep['devices'] if d['kind'] == 'switch'}
    want_eps = {t: i for t, i in eps.items() if t != own_comptag}
    if seen_eps != want_eps:
        errs.append(f'{who}: endpoints {sorted(seen_eps.items())}, fabric has '
                    f'{sorted(want_eps.items())} (comptag, destid)')
    if seen_sws != sws:
        errs.append(f'{who}: switches {sorted(seen_sws)}, fabric has {sorted(sws)} (comptags)')


def own_comptag(view, ep):
    for d in view['devices']:
        if d['name'] == ep:
            return d['comptag']
    return None


def destid_of(view, ep):
    for d in view['devices']:
        if d['name'] == ep:
            return d['destid']
    return None


def case1(run):
    """Linux host enumerates; our agents discover the same fabric and reach every endpoint."""
    t = run.topo
    if t.linux_cannot_enumerate():
        return Skip(t.linux_cannot_enumerate())
    agents = {ep: f'ours-{ep}' for ep in t.others}
    for ep, name in agents.items():
        run.node(name, ep, ['--stack', 'dpdk', '--ping'])
    run.node('linux-host', t.host, ['--hdid', '0', '--rionet'])
    host = run.wait_file('linux-host', 'ready')
    reps = {name: run.wait_file(name, 'ready') for name in agents.values()}
    truth_view = run.fabric_view()
    truth = endpoints_of(truth_view)
    errs = []
    check_view(errs, 'linux host', host, truth, own_comptag(truth_view, t.host))
    for ep, name in agents.items():
        check_view(errs, name, reps[name], truth, own_comptag(truth_view, ep))
    if errs:
        return errs
    for name in agents.values():
        run.signal(next(p for p in run.procs if p.lr_name == name), signal.SIGUSR1)
    done = {name: run.wait_file(name, 'done') for name in agents.values()}
    time.sleep(0.5)
    for name, rep in done.items():
        tr = rep['traffic']
        n = len(t.endpoints) - 1
        if tr['maint_err'] or tr['ping_err'] or tr['ping_ok'] != n:
            errs.append(f'{name}: to {n} endpoints: maintenance {tr["maint_ok"]} ok '
                        f'{tr["maint_err"]} failed, messages {tr["ping_ok"]} ok '
                        f'{tr["ping_err"]} failed')
    for p in list(run.procs):
        run.stop(p)
    finals = {name: json.load(open(run.path(name, 'json')))
              for name in list(agents.values()) + ['linux-host']}
    for rx, rep in finals.items():
        for name, ep in ((n, e) for e, n in agents.items()):
            if name == rx:
                continue
            src = str(destid_of(truth_view, ep))
            if rep['pings_rx'].get(src, 0) < 1:
                errs.append(f'{rx}: no message from {name} (device ID {src})')
    return errs


def case2(run):
    """Our host enumerates (rionet in testpmd); Linux agents find every device and the host."""
    t = run.topo
    linux = {ep: f'linux-{ep}' for ep in t.linux_agents}
    if not linux:
        return None
    for ep, name in linux.items():
        run.node(name, ep, ['--rionet'])
    tp = run.testpmd('ours-host', t.host, host=0)
    run.wait_log('ours-host', r'testpmd> ')
    run.cmd(tp, 'start')
    reps = {name: run.wait_file(name, 'ready') for name in linux.values()}
    truth_view = run.fabric_view()
    truth = endpoints_of(truth_view)
    errs = []
    for ep, name in linux.items():
        check_view(errs, name, reps[name], truth, own_comptag(truth_view, ep))
    time.sleep(1.0)
    for name in linux.values():
        run.signal(next(p for p in run.procs if p.lr_name == name), signal.SIGUSR1)
    host_id = destid_of(truth_view, t.host)
    for name in linux.values():
        rep = run.wait_file(name, 'done')
        if host_id not in rep['rionet_active']:
            errs.append(f'{name}: rionet active peers {rep["rionet_active"]}, '
                        f'without our host (device ID {host_id})')
    return errs


def traffic_errors(errs, who, rep, peers, kinds):
    """Every request of every size answered once by every peer, nothing bad or doubled."""
    tr = rep['traffic']
    nsizes = len(SIZES.split(','))
    per_peer = FRAMES * nsizes * kinds
    for pid in peers:
        got = rep['replies_rx'].get(str(pid), 0)
        if got != per_peer:
            errs.append(f'{who}: {got} replies from device ID {pid}, expected {per_peer}')
    if tr['bad'] or tr['dup']:
        errs.append(f'{who}: {tr["bad"]} corrupted and {tr["dup"]} duplicated frames')


def case3(run):
    """Linux rionet and our rionet in testpmd: JOIN/LEAVE both ways, all frame kinds."""
    t = run.topo
    if len(t.others) < 2 or not t.linux_agents:
        return None
    # Enumerated by a host of ours without rionet, so that neither rionet
    # depends on the other stack's enumeration (cases 1 and 2 test that).
    ep_linux = t.linux_agents[0]
    ep_ours = next(e for e in t.others if e != ep_linux)
    run.node('host', t.host, ['--stack', 'dpdk'], host=0)
    run.wait_file('host', 'ready')
    errs = []
    # a) ours first: Linux's JOIN at open reaches an open rionet port.
    tp = run.testpmd('testpmd', ep_ours, queues=1)
    run.wait_log('testpmd', r'testpmd> ')
    run.cmd(tp, 'start')
    time.sleep(0.5)
    lx = run.node('linux', ep_linux, ['--rionet', '--echo', '--send', 'peers,bcast,mcast',
                                      '--frames', str(FRAMES), '--sizes', SIZES])
    run.wait_file('linux', 'ready')
    truth_view = run.fabric_view()
    ours_id = destid_of(truth_view, ep_ours)
    time.sleep(1.0)
    run.signal(lx, signal.SIGUSR1)
    rep = run.wait_file('linux', 'done', timeout=90)
    if ours_id not in rep['rionet_active']:
        errs.append(f'JOIN ours<-linux: Linux rionet active peers {rep["rionet_active"]} '
                    f'without testpmd (device ID {ours_id})')
    traffic_errors(errs, 'linux<->testpmd (1 queue)', rep, [ours_id], 3)
    # LEAVE linux->ours: Linux goes, our port must see the LEAVE.
    run.stop(lx)
    time.sleep(0.5)
    run.cmd(tp, 'show port xstats 0')
    linux_id = destid_of(truth_view, ep_linux)
    try:
        run.wait_log('testpmd', rf'peer_0x{linux_id:04x}_leave_rx: [1-9]', timeout=10)
    except RuntimeError:
        errs.append(f'LEAVE linux->ours: testpmd\'s rionet counted no LEAVE from '
                    f'device ID {linux_id}')
    run.stop(tp)
    # b) Linux first, our port with 4 queues: our JOIN at start, mailbox 0 towards Linux.
    os.rename(run.path('linux', 'done'), run.path('linux-a', 'done'))
    lx = run.node('linux2', ep_linux, ['--rionet', '--echo', '--send', 'peers,bcast,mcast',
                                       '--frames', str(FRAMES), '--sizes', SIZES])
    run.wait_file('linux2', 'ready')
    tp = run.testpmd('testpmd4', ep_ours, queues=4)
    run.wait_log('testpmd4', r'testpmd> ')
    run.cmd(tp, 'start')
    time.sleep(1.5)
    run.signal(lx, signal.SIGUSR1)
    rep = run.wait_file('linux2', 'done', timeout=90)
    if ours_id not in rep['rionet_active']:
        errs.append(f'JOIN ours->linux: Linux rionet active peers {rep["rionet_active"]} '
                    f'without testpmd (device ID {ours_id})')
    traffic_errors(errs, 'linux<->testpmd (4 queues)', rep, [ours_id], 3)
    # LEAVE ours->linux: testpmd quits; Linux must drop it from its active peers.
    run.stop(tp)
    time.sleep(0.5)
    run.stop(lx)
    final = json.load(open(run.path('linux2', 'json')))
    if ours_id in final['rionet_active']:
        errs.append(f'LEAVE ours->linux: Linux still holds device ID {ours_id} active '
                    f'after testpmd quit')
    return errs


def case4(run):
    """Two Linux nodes and two testpmd ports: every pair exchanges frames."""
    t = run.topo
    eps = t.linux_agents[:2]
    eps += [e for e in t.others if e not in eps][:2]
    if len(eps) < 4:
        return None
    run.node('host', t.host, ['--stack', 'dpdk'], host=0)
    run.wait_file('host', 'ready')
    tps = [run.testpmd(f'testpmd{i}', eps[2 + i]) for i in range(2)]
    for i, tp in enumerate(tps):
        run.wait_log(f'testpmd{i}', r'testpmd> ')
        run.cmd(tp, 'start')
    lxs = [run.node(f'linux{i}', eps[i], ['--rionet', '--echo', '--send', 'peers',
                                          '--frames', str(FRAMES), '--sizes', SIZES])
           for i in range(2)]
    for i in range(2):
        run.wait_file(f'linux{i}', 'ready')
    truth_view = run.fabric_view()
    ids = [destid_of(truth_view, ep) for ep in eps]
    time.sleep(1.5)
    for lx in lxs:
        run.signal(lx, signal.SIGUSR1)
    errs = []
    for i in range(2):
        rep = run.wait_file(f'linux{i}', 'done', timeout=90)
        peers = [x for j, x in enumerate(ids) if j != i]
        missing = [p for p in peers if p not in rep['rionet_active']]
        if missing:
            errs.append(f'linux{i}: peers {missing} not active ({rep["rionet_active"]})')
        traffic_errors(errs, f'linux{i}', rep, peers, 1)
    # testpmd <-> testpmd: each port forwards what it gets back to the sender (macswap);
    # a frame sent by one Linux node to the other crosses both stacks' paths already.
    for i, tp in enumerate(tps):
        run.cmd(tp, 'show port xstats 0')
    for i in range(2):
        other = ids[2 + (1 - i)]
        try:
            run.wait_log(f'testpmd{i}', rf'peer_0x{other:04x}_active: 1', timeout=10)
        except RuntimeError:
            errs.append(f'testpmd{i}: peer {other} (the other testpmd) not active')
    return errs


def case5(run):
    """Linux's host enumerates and goes away; a host of ours takes over (stale locks)."""
    t = run.topo
    if t.linux_cannot_enumerate():
        return Skip(t.linux_cannot_enumerate())
    lx = run.node('linux-host', t.host, ['--hdid', '0'])
    rep = run.wait_file('linux-host', 'ready')
    errs = []
    if rep['scan_result'] != 0:
        return [f'linux host: scan failed ({rep["scan_result"]})']
    os.kill(lx.pid, signal.SIGKILL)
    run.stop(lx)
    run.node('ours-host', t.host, ['--stack', 'dpdk'], host=0)
    ours = run.wait_file('ours-host', 'ready')
    truth_view = run.fabric_view()
    check_view(errs, 'our new host', ours, endpoints_of(truth_view),
               own_comptag(truth_view, t.host))
    return errs


def tsi721_errors(errs, who, rep):
    """What the model refused of Linux's driver, and the WARN()s Linux's code hit."""
    if rep.get('mport_driver') != 'tsi721':
        errs.append(f'{who}: master port is {rep.get("mport_driver")}, not Linux\'s tsi721')
    if rep.get('model_errors', 0) or rep.get('warnings', 0):
        errs.append(f'{who}: the model refused {rep.get("model_errors")} requests of '
                    f'Linux\'s tsi721 driver; {rep.get("warnings")} kernel warnings')


def case6(run):
    """Linux's tsi721 driver on our Tsi721 model: Linux enumeration and rionet through the part."""
    t = run.topo
    if t.devid_size != 8:
        return Skip("Linux's tsi721 driver runs 8-bit device IDs only (sys_size = 0)")
    if len(t.others) < 2:
        return Skip('the topology has too few endpoints')
    errs = []
    # a) The part's host: Linux enumerates through the part's maintenance engine;
    #    a Linux rionet peer (shim master port) exchanges frames with it.
    host = run.node_tsi721('t7-host', t.host, ['--hdid', '0', '--rionet', '--echo'])
    rep = run.wait_file('t7-host', 'ready')
    truth_view = run.fabric_view()
    check_view(errs, 'Linux host on tsi721', rep, endpoints_of(truth_view),
               own_comptag(truth_view, t.host))
    host_id = destid_of(truth_view, t.host)
    peer = run.node('linux-peer', t.others[0], ['--rionet', '--echo', '--send', 'peers',
                                               '--frames', str(FRAMES), '--sizes', SIZES])
    run.wait_file('linux-peer', 'ready')
    time.sleep(1.0)
    run.signal(peer, signal.SIGUSR1)
    rep = run.wait_file('linux-peer', 'done', timeout=90)
    if host_id not in rep['rionet_active']:
        errs.append(f'linux peer: rionet active peers {rep["rionet_active"]} without the '
                    f'tsi721 host (device ID {host_id})')
    traffic_errors(errs, 'linux peer <-> Linux on tsi721', rep, [host_id], 1)
    run.stop(peer)
    run.stop(host)
    tsi721_errors(errs, 'Linux host on tsi721', json.load(open(run.path('t7-host', 'json'))))
    if errs:
        return errs
    # b) The part's agent: Linux boots first (its probe clears the port's
    #    Discovered bit, as on a board), our host enumerates, our rionet in
    #    testpmd; Linux rionet sends every kind of frame through the part.
    run.next_fabric()
    ep_t7, ep_ours = t.others[0], t.others[1]
    lx = run.node_tsi721('t7-agent', ep_t7, ['--loglevel', '6', '--rionet', '--echo',
                                             '--send', 'peers,bcast,mcast',
                                             '--frames', str(FRAMES), '--sizes', SIZES])
    run.wait_log('t7-agent', r'discover master port')
    run.node('host', t.host, ['--stack', 'dpdk'], host=0)
    run.wait_file('host', 'ready')
    run.wait_file('t7-agent', 'ready')
    tp = run.testpmd('testpmd', ep_ours, queues=1)
    run.wait_log('testpmd', r'testpmd> ')
    run.cmd(tp, 'start')
    truth_view = run.fabric_view()
    ours_id = destid_of(truth_view, ep_ours)
    time.sleep(1.5)
    run.signal(lx, signal.SIGUSR1)
    rep = run.wait_file('t7-agent', 'done', timeout=90)
    if rep['scan_result'] != 0:
        errs.append(f'Linux agent on tsi721: discovery failed ({rep["scan_result"]})')
    if ours_id not in rep['rionet_active']:
        errs.append(f'Linux agent on tsi721: rionet active peers {rep["rionet_active"]} '
                    f'without testpmd (device ID {ours_id})')
    traffic_errors(errs, 'Linux on tsi721 <-> testpmd', rep, [ours_id], 3)
    run.stop(lx)
    tsi721_errors(errs, 'Linux agent on tsi721', json.load(open(run.path('t7-agent', 'json'))))
    time.sleep(0.5)
    run.cmd(tp, 'show port xstats 0')
    t7_id = destid_of(truth_view, ep_t7)
    try:
        run.wait_log('testpmd', rf'peer_0x{t7_id:04x}_leave_rx: [1-9]', timeout=10)
    except RuntimeError:
        errs.append(f'LEAVE tsi721->ours: testpmd\'s rionet counted no LEAVE from '
                    f'device ID {t7_id}')
    return errs


# Inbound windows of case 7: RapidIO address and size (a power of two, aligned).
WIN_LINUX = (0x40000000, 0x10000)
WIN_OURS = (0x80000000, 0x4000)
EIO = -5


def fill_byte(off):
    """Byte off of a window as its owner fills it (lr_fill_byte() of linux-ref)."""
    return ((off * 7) ^ (off >> 8) ^ 0x5a) & 0xff


def write_byte(addr):
    """Byte a --mem write puts at RapidIO address addr (lr_write_byte() of linux-ref)."""
    return ((addr * 13) ^ (addr >> 8) ^ (addr >> 16) ^ (addr >> 24) ^ (addr >> 32) ^ 0xc3) & 0xff


def mem_ranges(win):
    """Ranges of a window at unaligned offsets and odd lengths (one across packets, one to
    the window's end), then ranges no window holds: (inside, outside) lists of (addr, len)."""
    base, size = win
    inside = [(base + 1, 1), (base + 0x13, 7), (base + 0x105, 300), (base + 0x7fd, 1029),
              (base + size - 0x11, 0x11)]
    outside = [(base + size + 5, 3), (base - 0x100, 16)]
    return inside, outside


def mem_arg(destid, win):
    inside, outside = mem_ranges(win)
    return f'{destid}:' + ','.join(f'{a:#x}+{n}' for a, n in inside + outside)


def mem_errors(errs, who, rep, win, target):
    """The --mem report of a node that read and wrote the window of another one."""
    inside, outside = mem_ranges(win)
    ops = {(o['addr'], o['len']): o for o in rep.get('mem', {}).get('ops', [])}
    for a, n in inside:
        o = ops.get((a, n))
        if o is None or not o['done']:
            errs.append(f'{who}: {n} bytes at {a:#x} of {target}: not done')
            continue
        want = bytes(fill_byte(a - win[0] + i) for i in range(n)).hex()
        if o['read0'] != 0 or o['before'] != want:
            errs.append(f'{who}: read of {n} bytes at {a:#x} of {target}: result '
                        f'{o["read0"]}, {(o["before"] or "")[:32]}.. instead of {want[:32]}..')
        if o['write'] != 0 or o['read'] != 0 or not o['match']:
            errs.append(f'{who}: {n} bytes at {a:#x} of {target}: write {o["write"]}, '
                        f'read back {o["read"]}, match {o["match"]}')
    for a, n in outside:
        o = ops.get((a, n))
        if o is None or not o['done']:
            errs.append(f'{who}: {n} bytes at {a:#x}, outside {target}: not done')
            continue
        if (o['read0'], o['write'], o['read']) != (EIO, EIO, EIO):
            errs.append(f'{who}: {n} bytes at {a:#x}, outside {target}: '
                        f'read {o["read0"]}, write {o["write"]}, read {o["read"]}, '
                        f'not {EIO} (ERROR response) each')


def window_errors(errs, who, rep, win, writers):
    """The window's owner saw exactly what the writers wrote in it, nothing else changed."""
    w = rep.get('inb_window')
    if w is None or w['result'] != 0:
        errs.append(f'{who}: inbound window not mapped ({w and w["result"]})')
        return
    base, size = win
    got = bytearray(fill_byte(i) for i in range(size))
    for off, hexbytes in w['changed']:
        b = bytes.fromhex(hexbytes)
        got[off:off + len(b)] = b
    want = bytearray(fill_byte(i) for i in range(size))
    for a, n in writers:
        for i in range(n):
            want[a - base + i] = write_byte(a + i)
    if w['truncated'] or got != want:
        bad = [i for i in range(size) if got[i] != want[i]]
        errs.append(f'{who}: window holds {len(bad)} bytes other than written, first at '
                    f'offset {bad[0] if bad else "?"} (truncated report: {w["truncated"]})')


def case7(run):
    """Memory space: Linux's rio_map_inb_region() window and DMA API against ours."""
    t = run.topo
    if not t.linux_agents or len(t.others) < 2:
        return None
    ep_linux = t.linux_agents[0]
    ep_ours = next(e for e in t.others if e != ep_linux)
    run.node('host', t.host, ['--stack', 'dpdk'], host=0)
    run.wait_file('host', 'ready')
    truth_view = run.fabric_view()
    linux_id, ours_id = destid_of(truth_view, ep_linux), destid_of(truth_view, ep_ours)
    win_arg = lambda w: f'{w[0]:#x}:{w[1]:#x}'
    lx = run.node('linux', ep_linux, ['--inb-window', win_arg(WIN_LINUX),
                                      '--mem', mem_arg(ours_id, WIN_OURS)])
    ours = run.node('ours', ep_ours, ['--stack', 'dpdk', '--inb-window', win_arg(WIN_OURS),
                                      '--mem', mem_arg(linux_id, WIN_LINUX)])
    errs = []
    for name in ('linux', 'ours'):
        rep = run.wait_file(name, 'ready')
        if rep.get('inb_window', {}).get('result') != 0:
            errs.append(f'{name}: inbound window not mapped '
                        f'({rep.get("inb_window", {}).get("result")})')
    if errs:
        return errs
    # One after the other: what each side reads first is its peer's fill.
    for name, p in (('ours', ours), ('linux', lx)):
        run.signal(p, signal.SIGUSR1)
        run.wait_file(name, 'done', timeout=90)
    run.stop(ours)
    run.stop(lx)
    fin = {n: json.load(open(run.path(n, 'json'))) for n in ('linux', 'ours')}
    mem_errors(errs, 'ours (rte_rio_mem_*)', fin['ours'], WIN_LINUX, 'Linux\'s window')
    mem_errors(errs, 'linux (rio_dma_prep_xfer)', fin['linux'], WIN_OURS, 'our window')
    window_errors(errs, 'Linux\'s window (rio_map_inb_region)', fin['linux'], WIN_LINUX,
                  mem_ranges(WIN_LINUX)[0])
    window_errors(errs, 'our window', fin['ours'], WIN_OURS, mem_ranges(WIN_OURS)[0])
    dma = fin['linux'].get('dma', {})
    nout = len(mem_ranges(WIN_OURS)[1])
    if dma.get('errors') != 3 * nout or dma.get('last_error') != EIO:
        errs.append(f'linux: its DMA device ended {dma.get("errors")} transfers DMA_ERROR '
                    f'(last error {dma.get("last_error")}), expected {3 * nout} ({EIO})')
    return errs


def case8(run):
    """Memory space through Linux's tsi721 driver: its IBWIN window, read and written by ours."""
    t = run.topo
    if t.devid_size != 8:
        return Skip("Linux's tsi721 driver runs 8-bit device IDs only (sys_size = 0)")
    if len(t.others) < 2:
        return None
    ep_t7, ep_ours = t.others[0], t.others[1]
    win_arg = f'{WIN_LINUX[0]:#x}:{WIN_LINUX[1]:#x}'
    # Linux boots first, as in case 6: its probe clears the port's Discovered bit.
    run.node_tsi721('t7', ep_t7, ['--loglevel', '6', '--inb-window', win_arg])
    run.wait_log('t7', r'discover master port')
    run.node('host', t.host, ['--stack', 'dpdk'], host=0)
    run.wait_file('host', 'ready')
    rep = run.wait_file('t7', 'ready')
    errs = []
    if rep['scan_result'] != 0:
        errs.append(f'Linux agent on tsi721: discovery failed ({rep["scan_result"]})')
    # Linux's driver takes the window (its registers) with any model.
    if rep.get('inb_window', {}).get('result') != 0:
        return errs + [f'Linux on tsi721: rio_map_inb_region() '
                       f'{rep.get("inb_window", {}).get("result")}']
    if errs:
        return errs
    if not rep.get('model_inb_windows'):
        return Skip("the Tsi721 model of this tree does not decode the IBWIN registers that "
                    "Linux's tsi721_rio_map_inb_mem() wrote: no inbound window opens")
    t7_id = destid_of(run.fabric_view(), ep_t7)
    ours = run.node('ours', ep_ours, ['--stack', 'dpdk', '--mem', mem_arg(t7_id, WIN_LINUX)])
    run.wait_file('ours', 'ready')
    run.signal(ours, signal.SIGUSR1)
    run.wait_file('ours', 'done', timeout=90)
    run.stop(ours)
    for p in list(run.procs):
        run.stop(p)
    mem_errors(errs, 'ours (rte_rio_mem_*)', json.load(open(run.path('ours', 'json'))),
               WIN_LINUX, "the window of Linux's tsi721")
    fin = json.load(open(run.path('t7', 'json')))
    window_errors(errs, "Linux's tsi721 window (rio_map_inb_region)", fin, WIN_LINUX,
                  mem_ranges(WIN_LINUX)[0])
    tsi721_errors(errs, 'Linux on tsi721', fin)
    return errs


class Skip:
    """A case that does not apply to a topology, and why."""

    def __init__(self, reason):
        self.reason = reason


CASES = {1: case1, 2: case2, 3: case3, 4: case4, 5: case5, 6: case6, 7: case7, 8: case8}

DEFAULT_TOPOLOGIES = {
    'chain8': """
[fabric]
devid_size = 8
[switch sw0]
{switch}
[switch sw1]
{switch}
[endpoint ep0]
host = 1
[endpoint ep1]
[endpoint ep2]
[endpoint ep3]
[endpoint ep4]
[links]
sw0.0 = ep0.0
sw0.1 = ep1.0
sw0.2 = sw1.0
sw1.1 = ep2.0
sw1.2 = ep3.0
sw0.3 = ep4.0
""",
    'tree16': """
[fabric]
devid_size = 16
[switch sw0]
{switch}
[switch sw1]
{switch}
[switch sw2]
{switch}
[endpoint ep0]
host = 1
[endpoint ep1]
[endpoint ep2]
[endpoint ep3]
[endpoint ep4]
[links]
sw0.0 = ep0.0
sw0.1 = sw1.0
sw0.2 = sw2.0
sw1.1 = ep1.0
sw1.2 = ep2.0
sw2.1 = ep3.0
sw2.2 = ep4.0
""",
}

# Switch models of rio_sim: the specification's (std) and real parts; those
# rio_sim does not accept yet are skipped when the default topologies are
# written.
MODELS = ['std', 'cps1848', 'rxs2448']


def switch_keys(model):
    """Keys of a [switch] section: the real parts have their own port count."""
    return f'ports = 8\nmodel = {model}' if model == 'std' else f'model = {model}'


class Ctx:
    pass


def model_supported(ctx, model):
    with tempfile.NamedTemporaryFile('w', suffix='.ini', dir=ctx.workdir, delete=False) as f:
        f.write(f'[switch sw0]\n{switch_keys(model)}\n[endpoint ep0]\n[links]\nsw0.0 = ep0.0\n')
        path = f.name
    name = f'lrimodel{os.getpid()}'
    out = subprocess.run([ctx.fabric_tool, 'create', name, '--topology', path],
                         capture_output=True, text=True, timeout=30)
    subprocess.run([ctx.fabric_tool, 'destroy', name], capture_output=True, timeout=30)
    os.unlink(path)
    return out.returncode == 0


def on_signal(sig, frame):
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, on_signal)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--topology', action='append', default=[],
                    help='topology file (repeatable; default: a set of our own)')
    ap.add_argument('--cases', default='1,2,3,4,5,6,7,8', help='cases to run, e.g. 1,3')
    ap.add_argument('--build', default=os.path.join(TOP, 'build'))
    ap.add_argument('--keep', action='store_true', help='keep the logs of passing runs')
    ap.add_argument('--jobs', type=int, default=DEFAULT_JOBS,
                    help=f'topologies run at the same time (default: {DEFAULT_JOBS})')
    args = ap.parse_args()

    ctx = Ctx()
    ctx.build = os.path.abspath(args.build)
    ctx.keep = args.keep
    ctx.node = os.path.join(ctx.build, 'app', 'linux-ref', 'dpdk-rio-linux-ref')
    ctx.fabric_tool = os.path.join(ctx.build, 'app', 'dpdk-rio-fabric')
    ctx.testpmd = shutil.which('dpdk-testpmd')
    for p in (ctx.node, ctx.fabric_tool, ctx.testpmd):
        if not p or not os.access(p, os.X_OK):
            log(f'linux-interop: error: {p} not found')
            return 1
    ctx.workdir = tempfile.mkdtemp(prefix='lri-', dir=ctx.build)

    topos = []
    if args.topology:
        topos = [Topology(p) for p in args.topology]
    else:
        for model in MODELS:
            if not model_supported(ctx, model):
                log(f'linux-interop: rio_sim has no switch model "{model}" yet: not in the set')
                continue
            for name, text in DEFAULT_TOPOLOGIES.items():
                path = os.path.join(ctx.workdir, f'{name}-{model}.ini')
                with open(path, 'w') as f:
                    f.write(text.format(switch=switch_keys(model)))
                topos.append(Topology(path))
    cases = [int(c) for c in args.cases.split(',')]

    counts = {'passed': 0, 'failed': 0}
    pending = list(topos)
    lock = threading.Lock()

    def run_topology(topo):
        for c in cases:
            if stopping.is_set():
                return
            run = Run(ctx, c, topo)
            t0 = time.monotonic()
            try:
                errs = CASES[c](run)
            except Exception as e:  # a hung or crashed node fails the case
                errs = [str(e)]
            finally:
                run.finish()
            if errs is None:
                errs = Skip('the topology has too few endpoints')
            if isinstance(errs, Skip):
                log(f'SKIP case {c} on {topo.name}: {errs.reason}')
                continue
            errs = errs + run.errors
            if not errs and not ctx.keep:
                shutil.rmtree(run.dir, ignore_errors=True)
            dt = time.monotonic() - t0
            with lock:
                counts['failed' if errs else 'passed'] += 1
            if errs:
                # The topology right after the case, as in PASS and SKIP lines:
                # devtools/test.sh names its records from these words.
                log(f'FAIL case {c} on {topo.name} ({CASES[c].__doc__.strip()}) '
                    f'[{dt:.1f} s], logs in {run.dir}\n' +
                    '\n'.join(f'    {e}' for e in errs))
            else:
                log(f'PASS case {c} on {topo.name} [{dt:.1f} s]')

    def worker():
        while not stopping.is_set():
            with lock:
                if not pending:
                    return
                topo = pending.pop(0)
            run_topology(topo)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.5)
    except KeyboardInterrupt:
        # The cases stop their processes and destroy their fabrics.
        stopping.set()
        for t in threads:
            t.join()
        raise
    passed, failed = counts['passed'], counts['failed']
    if not ctx.keep and failed == 0:
        shutil.rmtree(ctx.workdir, ignore_errors=True)
    log(f'{passed} passed, {failed} failed')
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
