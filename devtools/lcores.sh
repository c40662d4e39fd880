# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
#
# Sourced by scripts that start the stock dpdk-testpmd or dpdk-test
# pmd_perf_autotest: both need two lcores (a main one and a forwarding one).
# Without -l, EAL takes the CPUs the process may run on, a single one under
# taskset -c N or in a one-CPU cpuset; naming CPUs outside that set fails
# there. rio_two_lcores prints the EAL option that puts the two lcores on the
# first two CPUs allowed, or both on the only one.

rio_two_lcores() {
	local list part lo hi cpus=()

	list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
	IFS=, read -ra parts <<< "$list"
	for part in "${parts[@]}"; do
		lo=${part%-*}
		hi=${part#*-}
		while [ "$lo" -le "$hi" ] && [ ${#cpus[@]} -lt 2 ]; do
			cpus+=("$lo")
			lo=$((lo + 1))
		done
	done
	[ ${#cpus[@]} -gt 0 ] || cpus=(0)
	echo "--lcores=0@${cpus[0]},1@${cpus[${#cpus[@]} - 1]}"
}
