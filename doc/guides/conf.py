# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors

# Sphinx configuration of the DPDK RapidIO guides. Only Sphinx built-ins are
# used, so Debian's python3-sphinx is enough: sphinx-build -W -b html
# doc/guides build/doc/html

import os

_root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
with open(os.path.join(_root, 'VERSION')) as _f:
    release = _f.read().strip()
version = release

project = 'DPDK RapidIO'
copyright = '2026, The DPDK RapidIO authors'
author = 'The DPDK RapidIO authors'

extensions = []
master_doc = 'index'
source_suffix = '.rst'
exclude_patterns = ['_build']
pygments_style = 'sphinx'
html_title = 'DPDK RapidIO %s' % release
html_static_path = []
highlight_language = 'none'
