/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/* The C library's <errno.h> reaches here too: the user-space errno values are the kernel's. */
#include_next <linux/errno.h>
