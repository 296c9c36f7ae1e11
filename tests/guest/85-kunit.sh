#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit tests of the module's own logic (tests/kunit/): loading
# inode_patterns_kunit.ko runs its suites; each suite's KTAP results are
# then read from debugfs and counted. Any failed case, or a suite missing,
# fails this test. Prints "KUNIT-RESULT suites=S passed=P failed=F
# skipped=K", which tests/run-qemu.sh reports.
#
# Only a kernel with KUnit gets the test module in its image (the debug
# kernel); on any other this skips.
set -eu
. /tests/lib/guest.sh

ko=/lib/modules/$(uname -r)/extra/inode_patterns_kunit.ko
if [ ! -f "$ko" ]; then
	ipat_skip "no KUnit test module in this image (kernel without KUnit)"
fi
suites="inode_patterns_xattr inode_patterns_options inode_patterns_accounting inode_patterns_stats"
dbg=/sys/kernel/debug
grep -q " $dbg debugfs " /proc/mounts || ipat_run mount -t debugfs none $dbg

# The suites run while the module loads, before insmod returns.
ipat_run insmod "$ko"
status=0 total_pass=0 total_fail=0 total_skip=0 nsuites=0
for suite in $suites; do
	results=$dbg/kunit/$suite/results
	if [ ! -f "$results" ]; then
		echo "FAIL: suite $suite did not run (no $results)"
		status=1
		continue
	fi
	nsuites=$((nsuites + 1))
	cat "$results"
	# Test cases are the indented result lines; the suite's own is not.
	pass=$(grep -cE '^    ok [0-9]+ ' "$results" || true)
	fail=$(grep -cE '^    not ok [0-9]+ ' "$results" || true)
	skip=$(grep -cE '^    ok [0-9]+ .*# SKIP' "$results" || true)
	pass=$((pass - skip))
	echo "kunit: $suite: $pass passed, $fail failed, $skip skipped"
	if [ "$fail" -ne 0 ] || [ "$pass" -eq 0 ] ||
		! grep -qE "^ok 1 $suite\$" "$results"; then
		status=1
	fi
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
done
ipat_run rmmod inode_patterns_kunit
echo "KUNIT-RESULT suites=$nsuites passed=$total_pass failed=$total_fail skipped=$total_skip"
[ "$status" -eq 0 ] || ipat_fail "KUnit: a suite failed or did not run"
