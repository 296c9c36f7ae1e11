#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-log.sh CONSOLE-LOG: fail, printing the offending lines, if the
# kernel reported a bug: BUG, WARNING, Oops, general protection fault,
# list corruption, slub debug reports, busy inodes at unmount, panics,
# call traces, lockups, RCU stalls, hung tasks and the OOM killer.
#
# Only kernel-shaped lines count: the report must start a line or follow
# a "[   12.345678] " timestamp (the kernel's output can land in the middle
# of a line a test was printing). So a test printing "FAIL: no WARNING:"
# is no report, and neither is a boot line such as "RETBleed: WARNING: ..."
# about the CPU's mitigations. Test output must not start a line with
# one of these words.
#
# Expected reports. A guest test that provokes a kernel report on purpose
# brackets the step with two kernel log lines (ipat_expect in
# tests/lib/guest.sh writes them to /dev/kmsg):
#   IPAT-EXPECT begin KIND
#   IPAT-EXPECT end KIND
# Inside that window, and only there, a report of that KIND is allowed:
# its head line (below), and the one "Call Trace:" of the stack dump that
# follows it. Everything else still fails inside the window: a BUG,
# WARNING, Oops or KASAN report, a report of another kind, a second call
# trace with no head of its own. So does a window left open at the end of
# the log, an end with no begin, a begin inside an open window, or an
# unknown KIND. The kinds:
#   oom    "<comm> invoked oom-killer: ..., oom_score_adj=-1000", from a
#          memory cgroup whose only task is unkillable: the charge fails
#          with ENOMEM after "Out of memory and no killable processes..."
#          (tests/guest/55-memcg.sh). A task that can be killed, and one
#          that is ("...: Killed process"), still fail.
#   fault  the reports of an injected allocation failure: warn_alloc's
#          "<comm>: page allocation failure: order:" and "<comm>: vmalloc
#          error: size ", and kmem_cache_create's "...(<cache>) failed
#          with error" (tests/guest/81-fail-load.sh)
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
	# An unmount that left inodes behind: a line of its own on older
	# kernels, a WARNING (CHECK_DATA_CORRUPTION) on 7.3.
	'VFS: Busy inodes after unmount'
	'Kernel panic'
	'Call Trace:'
	'watchdog: BUG: soft lockup'
	'watchdog: Watchdog detected hard LOCKUP'
	'INFO: task .* blocked for more than'
	'rcu: INFO: .* detected stalls'
	'UBSAN:'
	'[^ ]+ invoked oom-killer:'
	'(Memory cgroup out of memory|Out of memory[^:]*): Killed process'
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
# The head lines of each kind of expected report (see above).
expect_oom='[^ ]+ invoked oom-killer: .*, oom_score_adj=-1000$'
expect_fault='[^ ]+: (page allocation failure: order:|vmalloc error: size )|[a-z_]*kmem_cache_create[a-z_]*\([^)]*\) failed with error'

# A line of the kernel's starts the line or follows its timestamp.
kernel='(^|\[ *[0-9]+\.[0-9]+\] )'
# In the environment, not awk -v, which would eat the backslashes.
found=$(tr -d '\r' <"$log" |
	REPORT="$kernel($(IFS='|'; echo "${reports[*]}"))" \
	MARK="${kernel}IPAT-EXPECT (begin|end) [^ ]+( |\$)" \
	TRACE="${kernel}Call Trace:" \
	HEAD_oom="$kernel($expect_oom)" HEAD_fault="$kernel($expect_fault)" \
	awk '
	function report(why) { print NR ":" line why }
	BEGIN { head["oom"] = ENVIRON["HEAD_oom"]; head["fault"] = ENVIRON["HEAD_fault"] }
	{ line = $0 }
	line ~ ENVIRON["MARK"] {
		sub(/.*IPAT-EXPECT /, "")
		split($0, w, " ")
		if (!(w[2] in head))
			report(" (unknown kind of expected report)")
		else if (w[1] == "begin" && kind != "")
			report(" (inside the open window of line " begun ")")
		else if (w[1] == "begin")
			{ kind = w[2]; begun = NR; owed = 0 }
		else if (w[2] != kind)
			report(" (no window of this kind is open)")
		else
			kind = ""
		next
	}
	kind != "" && $0 ~ head[kind] { owed = 1; next }
	kind != "" && owed && $0 ~ ENVIRON["TRACE"] { owed = 0; next }
	$0 ~ ENVIRON["REPORT"] { report("") }
	END { if (kind != "") print begun ": IPAT-EXPECT begin " kind " (never ended)" }
	' || true)
if [ -n "$found" ]; then
	echo "check-log: kernel reports in $log (line: text):"
	echo "$found" | head -n 40
	count=$(echo "$found" | wc -l)
	[ "$count" -le 40 ] || echo "check-log: ... and $((count - 40)) more lines"
	exit 1
fi
echo "check-log: no kernel reports in $log"
