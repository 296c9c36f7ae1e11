#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command: install what is missing, build the module and the
# initramfs, boot the guest in test mode, then run the host-side tests of
# the harness (tests/host/*.sh). Fails if a test failed, if the guest did
# not reach IPAT-DONE, or if the kernel log shows a bug. The last line is
# always "N passed, N failed".
#
#   tests/run-qemu.sh [-s SEED] [-t GLOB[,GLOB...]] [--no-host]
#                     [--stock-only|--debug-only]
#     -s SEED     passed to the guest tests as IPAT_SEED (default: random)
#     -t GLOB     run only the guest tests whose name (file name without
#                 .sh) matches; implies --no-host
#     --no-host   skip tests/host/
#     --stock-only  skip the static gates and the debug-kernel tier
#     --debug-only  only the debug-kernel tier: the guest suite on the
#                 debug kernel (scripts/debug-kernel.sh, scripts/debug-tier.sh);
#                 its log is build/logs/debug.log
#   Without -t or --*-only, the run is the whole test command: the static
#   gates (scripts/static-checks.sh), the suite on Debian's kernel with the
#   host tests, then the debug-kernel tier, all in one summary.
#   IPAT_SELFTEST=1 tests/run-qemu.sh   boot the harness self-tests
#                 (tests/selftest/, which fail on purpose) instead
#   QEMU_TIMEOUT, QEMU_ACCEL, QEMU_MEM: see qemu/run.sh
#   IPAT_TEST_TIMEOUT  per-test limit in the guest, seconds (default 120)
#
# The guest's console log stays in build/logs/test.log (selftest.log).
set -eu
cd "$(dirname "$0")/.."

usage() {
	echo "usage: tests/run-qemu.sh [-s SEED] [-t GLOB[,GLOB...]] [--no-host] [--stock-only|--debug-only]" >&2
	exit 2
}
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
tests="" host=1 tier=all
while [ $# -gt 0 ]; do
	case $1 in
	-s|--seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	-t|--tests) [ $# -ge 2 ] || usage; tests=$2; host=0; shift 2 ;;
	--no-host) host=0; shift ;;
	--stock-only) tier=stock; shift ;;
	--debug-only) tier=debug; shift ;;
	*) usage ;;
	esac
done
# Both go on the kernel command line, which splits at spaces.
case $seed in ''|*[!0-9]*) echo "run-qemu: the seed must be a number" >&2; usage ;; esac
case $tests in *[[:space:]]*) echo "run-qemu: no spaces in test globs" >&2; usage ;; esac

name=test testdir=tests/guest params=()
if [ "${IPAT_SELFTEST:-0}" = 1 ]; then
	name=selftest testdir=tests/selftest host=0 params=(ipat.selftest=1)
fi
params+=("ipat.seed=$seed" "ipat.timeout=${IPAT_TEST_TIMEOUT:-120}")

# --- The debug-kernel tier (scripts/debug-tier.sh) ---
# A -t run, or the self-tests, is a quick run on Debian's kernel only.
if [ "$tier" = all ] && { [ -n "$tests" ] || [ "$name" = selftest ]; }; then
	tier=stock
fi
# shellcheck source=scripts/debug-tier.sh
. scripts/debug-tier.sh
if [ "$tier" = debug ]; then
	name=debug host=0
	params+=("${debug_tier_params[@]}")
	[ -n "$tests" ] || tests=$(debug_tier_tests)
fi
# ---
[ -z "$tests" ] || params+=("ipat.tests=$tests")

passed=0 failed=0 summary=()
pass() { passed=$((passed + 1)); summary+=("PASS $1"); }
fail() { failed=$((failed + 1)); summary+=("FAIL $1"); }
ok() { summary+=("ok   $1"); }	# a check that passed: not a test
finish() {
	echo
	echo "== summary (seed $seed; rerun: tests/run-qemu.sh -s $seed) =="
	printf '%s\n' "${summary[@]}"
	echo "$passed passed, $failed failed"
	exit $((failed > 0))
}

if [ "$tier" = all ] && scripts/install-deps.sh; then debug_tier_prebuild; fi
if [ "$tier" = debug ]; then
	if ! scripts/install-deps.sh || ! debug_tier_build; then
		fail "build: the debug kernel, the module against it or its image failed (see above)"
		finish
	fi
elif ! scripts/install-deps.sh || ! make || ! qemu/mkinitramfs.sh; then
	fail "build: installing dependencies or building failed (see above)"
	finish
fi
if [ "$tier" = all ]; then
	if scripts/static-checks.sh; then
		pass "static: checkpatch --strict, sparse (C=2), W=1"
	else
		fail "static: checkpatch --strict, sparse (C=2) or W=1 (see above)"
	fi
fi

# The guest tests expected, in the guest's order, so that a test the guest
# never reported (it crashed or hung) still counts as failed.
expected=()
for file in "$testdir"/*.sh; do
	test=$(basename "$file" .sh)
	if [ -z "$tests" ]; then expected+=("$test"); continue; fi
	IFS=, read -ra globs <<<"$tests"
	for glob in "${globs[@]}"; do
		# shellcheck disable=SC2053 # $glob is a pattern on purpose
		if [[ $test == $glob ]]; then expected+=("$test"); break; fi
	done
done

log=build/logs/$name.log
echo "== booting the guest: seed $seed, log $log =="
rm -f "$log"	# never read an old run's results
# The dmesg dump repeats the boot messages: keep it in the log only.
boot() {
	IPAT_LOG=$name qemu/run.sh test "${params[@]}" |
		sed -u "/^IPAT-DMESG-BEGIN/,/^IPAT-DMESG-END/c\\(full dmesg: $log)"
	rc=${PIPESTATUS[0]}
}
boot
# Under TCG with -smp 2 the debug kernel has hung in its boot self-tests:
# a boot that never reached /init is retried once, and says so.
if [ "$tier" = debug ] && ! debug_tier_reached_init "$log"; then
	echo "!!! RETRY: the guest never reached userspace (qemu exit $rc);" \
	     "booting once more; the failed boot's log is $log.first !!!"
	mv "$log" "$log.first"
	boot
	ok "guest: RETRIED: the first boot never reached userspace ($log.first)"
fi
console=$(tr -d '\r' <"$log" 2>/dev/null || true)

declare -A result=()
while read -r _ test status; do
	result[$test]=$status
done < <(grep -oE 'IPAT-RESULT [^ ]+ (PASS|FAIL|SKIP)' <<<"$console" || true)

[ ${#expected[@]} -gt 0 ] || fail "guest: no test matched '${tests:-*}'"
for test in "${expected[@]}"; do
	case ${result[$test]:-} in
	PASS) pass "guest/$test" ;;
	SKIP) ok "guest/$test: skipped" ;;
	FAIL) fail "guest/$test" ;;
	*) fail "guest/$test: no result (the guest stopped during or before it)" ;;
	esac
done

if grep -qx IPAT-DONE <<<"$console"; then
	ok "guest: reached IPAT-DONE"
else
	last=$(grep -oE 'IPAT-START [^ ]+' <<<"$console" | tail -n 1 | cut -d' ' -f2)
	fail "guest: no IPAT-DONE (qemu exit $rc; last test started: ${last:-none})"
fi

if scripts/check-log.sh "$log"; then
	ok "kernel log: no reports"
else
	fail "kernel log: reports found (above, and in $log)"
fi
[ "$tier" != debug ] || debug_tier_checks "$console"

if [ "$host" = 1 ]; then
	for file in tests/host/*.sh; do
		test=$(basename "$file" .sh)
		echo "== host test $test =="
		if "$file"; then pass "host/$test"; else fail "host/$test"; fi
	done
fi
[ "$tier" != all ] || debug_tier_run
finish
