# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
"""EAL lcore options for the programs a test starts."""

import os


def lcores(*ids):
    """--lcores with every lcore of @ids free to run on any CPU this process may run on:
    a fixed -l 0-1 fails in a one-CPU cpuset or on a one-CPU machine, and a lcore pinned
    to one CPU waits while the platform stops that CPU (see doc/guides/testing.rst)."""
    cpus = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    return "--lcores=(%s)@(%s)" % (",".join(str(i) for i in ids), cpus)
