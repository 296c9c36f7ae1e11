# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Stage of tests/run-qemu.sh, which sources it: the static gate run once
# for all kernels, checkpatch --strict (scripts/checkpatch.sh). The other
# static gates, gcc W=1 and sparse, are in every module build (build.sh).

static_gates() {
	if scripts/checkpatch.sh; then
		result PASS static/checkpatch
	else
		result FAIL static/checkpatch "checkpatch.pl --strict findings above"
	fi
}
