# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # run-qemu.sh sets $only, $testdir and reads $kernels
#
# Stage of tests/run-qemu.sh, which sources it: which installed Debian
# kernels the run tests (scripts/find-kernel.sh: the host's and the
# sysroots').

# pick_kernels: sets kernels to the installed kernels (oldest first) that
# -k names, each a release or a series that names one kernel only; all of
# them without -k; only the newest for the self-tests without -k, which
# test the harness, not a kernel. A FAIL result and status 1 if a name
# matches none or several, or none is left.
pick_kernels() {
	local k kver
	kernels=()
	if [ -n "$only" ]; then
		for k in ${only//,/ }; do
			if ! kver=$(scripts/find-kernel.sh --match "$k" 2>&1); then
				result FAIL install "-k $k: ${kver#find-kernel: }"
				return 1
			fi
			kernels+=("$kver")
		done
		mapfile -t kernels < <(printf '%s\n' "${kernels[@]}" | sort -uV)
	else
		mapfile -t kernels < <(scripts/find-kernel.sh --all)
	fi
	if [ ${#kernels[@]} -eq 0 ]; then
		result FAIL install "no installed kernel matches '${only:-any}' (scripts/find-kernel.sh --all)"
		return 1
	fi
	if [ "$testdir" != tests/guest ] && [ -z "$only" ]; then
		kernels=("${kernels[-1]}")
	fi
	echo "== kernels: ${kernels[*]}; seed $seed =="
}
