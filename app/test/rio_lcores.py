# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
"""EAL lcore options for the programs a test starts."""

import os


def lcores(*ids):
    """--lcores with lcore i on the i-th CPU this process may run on (the last one when
    there are fewer): a fixed -l 0-1 fails in a one-CPU cpuset or on a one-CPU machine."""
    cpus = sorted(os.sched_getaffinity(0))
    return "--lcores=" + ",".join("%d@%d" % (i, cpus[min(i, len(cpus) - 1)]) for i in ids)
