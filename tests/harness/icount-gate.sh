# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2154 # suite.sh sets $suite_initrd
#
# Stage of tests/run-qemu.sh, which sources it: the benchmark's
# instruction-count gate (bench/gate.sh), in a boot of its own on the
# image the stock suite of the kernel just used.

# icount_gate PREFIX: its result is PREFIX/bench-gate. The quick bench's
# own progress lines go to its log (bench/gate.sh); the last one is shown
# once a minute.
icount_gate() {
	local pid rc=0
	echo "== $1/bench-gate: bench/gate.sh =="
	QEMU_INITRD=$suite_initrd bench/gate.sh &
	pid=$!
	icount_gate_at=$1
	icount_gate_out=build/$(basename "$(dirname "$suite_initrd")")-bench-gate.out
	progress_wait icount_gate_progress "$pid"
	wait "$pid" || rc=$?
	if [ "$rc" = 0 ]; then
		result PASS "$1/bench-gate" "instructions per operation within bench/bounds.txt"
	else
		result FAIL "$1/bench-gate" "an instruction count left its bound (above)"
	fi
}

icount_gate_progress() {
	echo "$icount_gate_at/bench-gate: $(tail -n 1 "$icount_gate_out" 2>/dev/null | tr -d '\r' | cut -c1-160)"
}
