# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # run-qemu.sh sets $tests, $params; suite.sh suite_*
#
# Stage of tests/run-qemu.sh, which sources it: the SELinux boot. Debian's
# kernels have SELinux built in, AppArmor active by default; this boots a
# kernel's stock image once more with security=selinux and runs only the
# guest tests that need an LSM that labels new inodes (selinux_tests),
# which load the policy of tests/selinux/ themselves. In every other boot
# they skip. Every kernel of the run boots it, as tmpfs, the reference,
# treats labels differently across them (6.1 neither counts them nor asks
# the LSM for listxattr(); 6.12 and 7.3 do both). About a minute a
# kernel under TCG, most of it the boot.

selinux_tests=56-labels

# selinux_wanted: true if the run's test list (-t) selects one of them;
# the full run does.
selinux_wanted() {
	local glob test
	[ -n "$tests" ] || return 0
	for test in ${selinux_tests//,/ }; do
		for glob in ${tests//,/ }; do
			# shellcheck disable=SC2053 # $glob is a pattern on purpose
			[[ $test != $glob ]] || return 0
		done
	done
	return 1
}

# selinux_suite KERNEL: the SELinux boot of Debian's kernel KERNEL, on the
# image its stock suite built (suite_prepare left suite_kernel and
# suite_initrd); results under KERNEL/selinux/.
selinux_suite() {
	local list=$selinux_tests
	echo
	echo "== $(suite_prefix "$1" selinux) =="
	[ -f "$suite_initrd" ] || { result FAIL "$(suite_prefix "$1" selinux)" "no guest image"; return 0; }
	suite_params=("${params[@]}" security=selinux "ipat.tests=$list")
	suite_timeout=${QEMU_TIMEOUT:-300}
	boot_suite "$(suite_name "$1" selinux)"
	suite_results "$1" selinux "$list"
}
