# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # run-qemu.sh sets $only, $testdir and reads $kernels
#
# Stage of tests/run-qemu.sh, which sources it: which installed Debian
# kernels the run tests.

# pick_kernels: sets kernels to the installed kernels (oldest first) that
# -k names, a release or its series; all of them without -k; only the
# newest for the self-tests without -k, which test the harness, not a
# kernel. A FAIL result and status 1 if none is left.
pick_kernels() {
	local kver k keep
	kernels=()
	for kver in $(scripts/find-kernel.sh --all); do
		keep=1
		if [ -n "$only" ]; then
			keep=0
			for k in ${only//,/ }; do
				[ "$k" = "$kver" ] ||
					[ "$k" = "$(scripts/find-kernel.sh --series "$kver")" ] && keep=1
			done
		fi
		[ "$keep" = 0 ] || kernels+=("$kver")
	done
	if [ ${#kernels[@]} -eq 0 ]; then
		result FAIL install "no installed kernel matches '${only:-any}' (scripts/find-kernel.sh --all)"
		return 1
	fi
	if [ "$testdir" != tests/guest ] && [ -z "$only" ]; then
		kernels=("${kernels[-1]}")
	fi
	echo "== kernels: ${kernels[*]}; seed $seed =="
}
