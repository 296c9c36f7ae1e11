#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness reports failures: one guest boot of the self-tests,
# tests/harness/selftest/guest/, on the newest kernel (a test that passes,
# one that skips, one that fails, one that prints a failed check yet exits
# 0, one that hangs, one that leaves the module loaded, one that panics the
# kernel) must give exactly these results, in the progress lines and in
# KTAP (the checks nested under their test in build/logs/results.ktap), a
# non-zero exit, and "2 passed, 7 failed, 1 skipped" (the build is the
# second pass) as the last line. The panic must end qemu at once, not at
# QEMU_TIMEOUT.
set -eu
cd "$(dirname "$0")/../../../.."
out=build/logs/selftest-run.txt
mkdir -p build/logs

start=$(date +%s)
rc=0
IPAT_SELFTEST=1 QEMU_TIMEOUT=180 tests/run-qemu.sh -s 1234 >"$out" 2>&1 || rc=$?
k=$(scripts/find-kernel.sh)
at=$k/selftest log=build/logs/$k-selftest.log
sed -i 's/\r$//' "$out"
took=$(($(date +%s) - start))

bad=0
expect() {
	if ! grep -qxF -- "$1" "$out"; then
		echo "selftest: expected the line '$1'"
		bad=1
	fi
}
[ "$rc" -ne 0 ] || { echo "selftest: tests/run-qemu.sh exited 0"; bad=1; }
expect "PASS $k/build: W=1, sparse C=2: clean"
expect "PASS $at/guest/10-pass"
expect "SKIP $at/guest/15-skip: this test skips on purpose"
expect "FAIL $at/guest/20-broken: failed; its output is in $log"
expect "FAIL $at/guest/25-check-fails: a check failed, yet it exited 0; its output is in $log"
expect "FAIL $at/guest/30-hang: failed; its output is in $log"
expect "ipat: 30-hang killed after 3s"
expect "FAIL $at/guest/40-leak: failed; its output is in $log"
expect "ipat: 40-leak left inode_patterns loaded"
expect "FAIL $at/guest/50-panic: no result (the guest stopped during or before it)"
expect "FAIL $at/done: no IPAT-DONE (qemu exit 0; last test started: 50-panic)"
expect "FAIL $at/kernel-log: reports found (above, and in $log)"
# The same in KTAP, nested kernel / selftest / guest.
expect "KTAP version 1"
expect "        # Subtest: selftest"
expect "            ok 1 10-pass"
expect "            ok 2 15-skip # SKIP this test skips on purpose"
expect "            not ok 3 20-broken"
expect "        not ok 1 guest"
expect "not ok 1 $k"
# The named checks, in the whole KTAP only, nested under their test.
for line in "                ok 1 a check that passes" \
	"                not ok 2 a check that fails on purpose" \
	"                ok 3 25-check-fails exits with success" \
	"            not ok 4 25-check-fails"; do
	grep -qxF -- "$line" build/logs/results.ktap ||
		{ echo "selftest: no line '$line' in build/logs/results.ktap"; bad=1; }
done
last=$(tail -n 1 "$out")
[ "$last" = "2 passed, 7 failed, 1 skipped" ] || { echo "selftest: last line is '$last'"; bad=1; }
[ "$took" -lt 120 ] || { echo "selftest: took ${took}s; did the panic not end qemu?"; bad=1; }

if [ "$bad" -ne 0 ]; then
	echo "selftest: end of the self-test run follows"
	grep -v '^\[' "$out" | tail -n 40 | sed 's/^/| /'

fi
echo "selftest: boot of the deliberately failing tests took ${took}s; output in $out"
exit "$bad"
