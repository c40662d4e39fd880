/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

#ifndef RIO_DPDK_COMPAT_H
#define RIO_DPDK_COMPAT_H

/**
 * @file
 * The differences between the DPDK releases this tree builds against (22.11
 * and 24.11), in one place, for the library, the drivers and the apps (not
 * installed). Code is written against the newer API; this header provides
 * it on the older release, so that dropping a release means deleting its
 * block here.
 */

#include <pthread.h>
#include <stdint.h>

#include <rte_lcore.h>
#include <rte_telemetry.h>
#include <rte_thread.h>
#include <rte_version.h>

/* DPDK 23.03 added rte_tel_data_add_dict_uint(); 24.11 deprecates the _u64 one. */
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#endif

/*
 * A DPDK control thread (on the CPUs no lcore uses). DPDK 23.11 replaced
 * rte_ctrl_thread_create() (a pthread) with rte_thread_create_control() (an
 * rte_thread_t, whose function returns uint32_t), and 24.11 removed the
 * former. A thread function is declared as
 *   static rio_ctrl_thread_ret_t fn(void *arg)
 * and returns 0. Creation returns 0 or a negative errno on both releases.
 */
#if RTE_VERSION >= RTE_VERSION_NUM(23, 11, 0, 0)
typedef rte_thread_t rio_ctrl_thread_t;
typedef uint32_t rio_ctrl_thread_ret_t;
#define rio_ctrl_thread_create(thread, name, fn, arg) \
	rte_thread_create_control(thread, name, fn, arg)
#define rio_ctrl_thread_join(thread) rte_thread_join(thread, NULL)
#else
typedef pthread_t rio_ctrl_thread_t;
typedef void *rio_ctrl_thread_ret_t;
#define rio_ctrl_thread_create(thread, name, fn, arg) \
	rte_ctrl_thread_create(thread, name, NULL, fn, arg)
#define rio_ctrl_thread_join(thread) pthread_join(thread, NULL)
#endif

#endif /* RIO_DPDK_COMPAT_H */
