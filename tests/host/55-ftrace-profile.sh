#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/ftrace-profile.awk, the bench's per-function profile
# (ipat.bench_trace), on a function_graph trace made to hold what a real
# one does (fixtures/ftrace-graph.txt): frames cut off at the buffer's
# start and open at its end, a module's function, an interrupt, a switch
# to another task and back, and seven-digit durations. Every figure it
# prints is checked against the one worked out by hand.
set -eu
cd "$(dirname "$0")/../.."
bad=0

# FUNCTION CALLS SELF: ns (instructions) it ran itself. getname's second
# call is a whole leaf inside the frame left open at the end: it counts,
# though that unlink does not (ops=2).
expected='__x64_sys_unlinkat 2 2000
cond_resched 1 1000
do_unlinkat 1 5000
getname 2 2000
ipat_unlink 1 1350
iput 1 650
irq_exit_rcu 1 1000
rcu_core 2 5500
run_ksoftirqd 1 500
slow_leaf 1 1234567000
x64_sys_call 2 2000'

# The guest runs it with busybox's awk, which differs from gawk in ways
# that matter here (an unset number compares as a string): both.
awks=(awk)
if command -v busybox >/dev/null && busybox awk 'BEGIN {}' 2>/dev/null; then
	awks+=("busybox awk")
else
	echo "ftrace-profile: no busybox awk here; the guest's awk is not checked"
fi
for impl in "${awks[@]}"; do
	# shellcheck disable=SC2086 # "busybox awk" is two words
	out=$($impl -v tag="fs=test n=1" -v per=__x64_sys_unlinkat \
		-f bench/ftrace-profile.awk tests/host/fixtures/ftrace-graph.txt |
		LC_ALL=C sort)
	got=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		     print v["fn"], v["calls"], v["self"] }' <<<"$out" | LC_ALL=C sort)
	if [ "$got" != "$expected" ]; then
		echo "ftrace-profile ($impl): not the profile worked out by hand"
		diff <(echo "$expected") <(echo "$got") || true
		bad=1
	fi
	# Every record names the operation and how many whole calls of it.
	if grep -v -q ' fs=test n=1 per=__x64_sys_unlinkat ops=2 fn=' <<<"$out"; then
		echo "ftrace-profile ($impl): records without the tag, per= or ops=2:"
		grep -v ' fs=test n=1 per=__x64_sys_unlinkat ops=2 fn=' <<<"$out"
		bad=1
	fi
done
[ "$bad" = 0 ] && echo "ftrace-profile: $(wc -l <<<"$expected") functions as worked out by hand (${awks[*]})"
exit "$bad"
