#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness's progress line (tests/harness/progress.sh): progress_wait
# returns once the processes it watches have ended, not before; prints a
# line at each interval, with what the caller's DESCRIBE command says and
# the time so far; prints nothing for a step shorter than the interval;
# and DESCRIBE sees the caller's variables, not progress_wait's own (a
# local "pid" of it once hid the debug tier's array of that name, and the
# line said "syntax error" instead of where the guests were).
set -eu
cd "$(dirname "$0")/../../../.."
. tests/harness/progress.sh

bad=0
fail() {
	echo "progress: FAIL: $*"
	bad=1
}

pid=caller-pid
describe() { echo "step $pid"; }

export IPAT_PROGRESS_EVERY=1
sleep 3 &
watched=$!
start=$SECONDS
out=$(progress_wait describe "$watched")
took=$((SECONDS - start))
kill -0 "$watched" 2>/dev/null && fail "returned while the process was still running"
[ "$took" -ge 2 ] || fail "returned after ${took}s, before the 3 s step ended"
lines=$(grep -c . <<<"$out" || true)
[ "$lines" -ge 2 ] || fail "$lines progress line(s) in 3 s at one a second: '$out'"
grep -vqE '^== step caller-pid: 0:0[0-9] so far$' <<<"$out" &&
	fail "a line is not '== step caller-pid: M:SS so far': '$out'"

export IPAT_PROGRESS_EVERY=60
sleep 1 &
out=$(progress_wait describe $!)
[ -z "$out" ] || fail "a step shorter than the interval printed '$out'"

[ "$bad" = 0 ] && echo "progress: waits for the end, a line an interval with the caller's description, none for a short step"
exit "$bad"
