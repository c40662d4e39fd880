# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

"""The directory of this user's emulated fabrics, for the test scripts.

The objects of fabric <name> are rio_sim.<name> and rio_sim.<name>.ep<N> in
it ($XDG_RUNTIME_DIR/rio_sim, else /dev/shm/rio_sim-<uid>); the fabric tool
says which: `dpdk-rio-fabric dir`.
"""

import glob
import os
import subprocess


def fabric_dir(build):
    """The directory, asked of <build>/app/dpdk-rio-fabric."""
    tool = os.path.join(build, 'app', 'dpdk-rio-fabric')
    return subprocess.run([tool, 'dir'], capture_output=True, text=True, timeout=30,
                          check=True).stdout.strip()


def fabric_objects(build, pattern):
    """Paths of the objects whose name matches glob @pattern (e.g. rio_sim.x_*)."""
    return glob.glob(os.path.join(fabric_dir(build), pattern))
