#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bench's regression gate: boot the quick bench in instruction mode
# (bench/run.sh --quick) on the image QEMU_INITRD names and
# hold its instruction counts to the bounds in bench/bounds.txt,
# which also says why each bound is what it is. tests/run-qemu.sh runs it
# on each Debian kernel's image, after that kernel's guest suite. Under
# icount the figures are instructions, the same from boot to boot whatever
# the host does: the gate cannot flake on a busy host.
#
#   QEMU_INITRD=build/<kver>/initramfs.cpio.gz bench/gate.sh
#                                   boot, then check (~1 min)
#   bench/gate.sh --log LOG   check a saved console log
set -eu
cd "$(dirname "$0")/.."
bounds=bench/bounds.txt

if [ "${1:-}" = --log ]; then
	[ $# -eq 2 ] || { echo "usage: bench/gate.sh [--log LOG]" >&2; exit 2; }
	log=$2
else
	[ -n "${QEMU_INITRD:-}" ] || { echo "bench-gate: set QEMU_INITRD to the image to boot" >&2; exit 2; }
	# One log per image: build/<kver>/initramfs.cpio.gz -> <kver>-bench-gate.
	name=$(basename "$(dirname "$QEMU_INITRD")")-bench-gate
	log=build/logs/$name.log out=build/$name
	rm -f "$log"
	if ! IPAT_LOG=$name bench/run.sh --quick --out "$out" \
		>"$out.out" 2>&1; then
		tail -n 30 "$out.out"
		echo "FAIL: the quick bench in instruction mode failed ($out.out, $log)"
		exit 1
	fi
fi

values=$(bench/icount.sh --values "$log") ||
	{ echo "FAIL: no instruction counts in $log"; exit 1; }
kver=$(tr -d '\r' <"$log" | grep -o 'IPAT-BENCH begin .*' | head -n 1 |
	tr ' ' '\n' | sed -n 's/^kernel=//p')
series=$(echo "$kver" | cut -d. -f1-2)
echo "bench-gate: Linux $kver (series $series), log $log"

# Each line of the bounds file: CHECK OP FS REF LOW HIGH KERNELS REASON...
#   ratio: LOW <= FS/REF <= HIGH;  diff: LOW <= FS - REF <= HIGH
# KERNELS: a series (6.1, 6.12) or *; a bound for another series is skipped.
bad=0 checked=0
while read -r check op fs ref low high kernels reason; do
	case $check in ''|'#'*) continue ;; esac
	[ "$kernels" = '*' ] || [ "$kernels" = "$series" ] || continue
	a=$(awk -v op="$op" -v fs="$fs" '$1 == op && $2 == fs { print $3 }' <<<"$values")
	b=$(awk -v op="$op" -v fs="$ref" '$1 == op && $2 == fs { print $3 }' <<<"$values")
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "FAIL: $op: no figure for $fs or $ref in $log"
		bad=1
		continue
	fi
	line=$(awk -v c="$check" -v a="$a" -v b="$b" -v lo="$low" -v hi="$high" \
		-v op="$op" -v fs="$fs" -v ref="$ref" 'BEGIN {
		if (c == "ratio") { x = a / b; got = sprintf("%.4f", x); want = "[" lo ", " hi "]" }
		else { x = a - b; got = sprintf("%+d instructions", x); want = sprintf("[%+d, %+d]", lo, hi) }
		printf "%s %s: %s %s %s = %s (%d vs %d), bound %s\n", (x >= lo && x <= hi) ? "ok" : "FAIL",
			op, fs, c == "ratio" ? "/" : "-", ref, got, a, b, want
	}')
	checked=$((checked + 1))
	case $line in
	ok*) echo "$line" ;;
	*) echo "$line"; echo "      why this bound: $reason"; bad=1 ;;
	esac
done <"$bounds"

if [ "$checked" -eq 0 ]; then
	echo "FAIL: no bound in $bounds applies to Linux $kver"
	exit 1
fi
if [ "$bad" -ne 0 ]; then
	echo "bench-gate: FAILED: a pattern's instruction count left its bound (above; figures: bench/icount.sh $log)"
	exit 1
fi
echo "bench-gate: $checked bounds hold"
