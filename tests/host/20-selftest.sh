#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness reports failures: one guest boot of tests/selftest/ (a test
# that passes, one that fails, one that hangs, one that leaves the module
# loaded, one that panics the kernel) must give exactly these results,
# a non-zero exit, and "1 passed, 6 failed" as the last line. The panic
# must end qemu at once, not at QEMU_TIMEOUT.
set -eu
cd "$(dirname "$0")/../.."
out=build/logs/selftest-run.txt
mkdir -p build/logs

start=$(date +%s)
rc=0
IPAT_SELFTEST=1 QEMU_TIMEOUT=180 tests/run-qemu.sh -s 1234 >"$out" 2>&1 || rc=$?
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
expect "PASS guest/10-pass"
expect "FAIL guest/20-broken"
expect "FAIL guest/30-hang"
expect "ipat: 30-hang killed after 3s"
expect "FAIL guest/40-leak"
expect "ipat: 40-leak left inode_patterns loaded"
expect "FAIL guest/50-panic: no result (the guest stopped during or before it)"
expect "FAIL guest: no IPAT-DONE (qemu exit 0; last test started: 50-panic)"
expect "FAIL kernel log: reports found (above, and in build/logs/selftest.log)"
last=$(tail -n 1 "$out")
[ "$last" = "1 passed, 6 failed" ] || { echo "selftest: last line is '$last'"; bad=1; }
[ "$took" -lt 120 ] || { echo "selftest: took ${took}s; did the panic not end qemu?"; bad=1; }

if [ "$bad" -ne 0 ]; then
	echo "selftest: end of the self-test run follows"
	grep -v '^\[' "$out" | tail -n 40 | sed 's/^/| /'

fi
echo "selftest: boot of the deliberately failing tests took ${took}s; output in $out"
exit "$bad"
