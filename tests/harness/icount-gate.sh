# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # suite.sh sets $suite_initrd
#
# Stage of tests/run-qemu.sh, which sources it: the benchmark's
# instruction-count gate (bench/gate.sh), in a boot of its own on the
# image the stock suite of the kernel just used.

# icount_gate PREFIX: its result is PREFIX/bench-gate.
icount_gate() {
	echo "== $1/bench-gate: bench/gate.sh =="
	if QEMU_INITRD=$suite_initrd bench/gate.sh; then
		result PASS "$1/bench-gate" "instructions per operation within bench/bounds.txt"
	else
		result FAIL "$1/bench-gate" "an instruction count left its bound (above)"
	fi
}
