#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-log.sh CONSOLE-LOG: fail, printing the offending lines, if the
# kernel reported a bug: BUG, WARNING, Oops, general protection fault,
# list corruption, slub debug reports, panics, call traces, lockups,
# RCU stalls, hung tasks and the OOM killer.
#
# Only kernel-shaped lines count: the report must start a line or follow
# a "[   12.345678] " timestamp (the kernel's output can land in the middle
# of a line a test was printing). So a test printing "FAIL: no WARNING:"
# is no report, and neither is a boot line such as "RETBleed: WARNING: ..."
# about the CPU's mitigations. Test output must not start a line with
# one of these words.
set -eu

[ $# -eq 1 ] || { echo "usage: check-log.sh CONSOLE-LOG" >&2; exit 2; }
log=$1
[ -s "$log" ] || { echo "check-log: $log is missing or empty" >&2; exit 2; }

reports=(
	# BUG: and also every slub_debug report: "BUG kmalloc-64 (Tainted: G
	# O): Right Redzone overwritten", "... Poison overwritten",
	# "... Object already free", "... Objects remaining in ... on
	# __kmem_cache_shutdown()".
	'BUG[: ]'
	'kernel BUG at'
	'WARNING:'
	'-+\[ cut here \]-+'
	'Oops'
	'general protection fault'
	'invalid opcode:'
	'list_(add|del) corruption'
	'kmem_cache_destroy .*: Slab cache still has objects'
	'Kernel panic'
	'Call Trace:'
	'watchdog: BUG: soft lockup'
	'watchdog: Watchdog detected hard LOCKUP'
	'INFO: task .* blocked for more than'
	'rcu: INFO: .* detected stalls'
	'UBSAN:'
	'[^ ]+ invoked oom-killer:'
	# The debug kernel's detectors (scripts/debug-kernel.sh). KASAN and
	# KFENCE say "BUG: KASAN: ..." and "BUG: KFENCE: ...", lockdep
	# "WARNING: possible circular locking dependency detected" and the
	# like: both already above. kmemleak lists its leaks only when asked
	# (the guest tests cat /sys/kernel/debug/kmemleak), and turns itself
	# off, quietly to the tests, when it fails.
	'unreferenced object 0x[0-9a-f]+ \(size [0-9]+\):'
	'kmemleak: Kernel memory leak detector disabled'
	'kmemleak: Cannot allocate a kmemleak_object structure'
)
pattern="(^|\[ *[0-9]+\.[0-9]+\] )($(IFS='|'; echo "${reports[*]}"))"

found=$(tr -d '\r' <"$log" | grep -nE -- "$pattern" || true)
if [ -n "$found" ]; then
	echo "check-log: kernel reports in $log (line: text):"
	echo "$found" | head -n 40
	count=$(echo "$found" | wc -l)
	[ "$count" -le 40 ] || echo "check-log: ... and $((count - 40)) more lines"
	exit 1
fi
echo "check-log: no kernel reports in $log"
