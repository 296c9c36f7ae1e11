#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command. Installs what is missing; runs the static gates; for
# every installed Debian kernel series (6.1, 6.12), builds the module and
# an initramfs and boots the guest in test mode on Debian's kernel; runs
# the host-side tests of the harness (tests/host/*.sh); then boots the
# guest suite on a debug kernel of each series, those guests side by
# side. Fails if a test failed, if a guest did not
# reach IPAT-DONE, or if a kernel log shows a bug. Prints every result as
# it comes, then all of them in KTAP (nested per kernel and per tier; also
# in build/logs/results.ktap), and ends with the line
# "N passed, N failed, N skipped".
#
#   tests/run-qemu.sh [-s SEED] [-t GLOB[,GLOB...]] [-k KERNEL[,KERNEL...]]
#                     [--no-host] [--stock-only|--debug-only]
#     -s SEED     passed to the guest tests as IPAT_SEED (default: random)
#     -t GLOB     run only the guest tests whose name (file name without
#                 .sh) matches, on Debian's kernels only; implies --no-host
#     -k KERNEL   only these kernels: a release (6.1.0-57-amd64) or a
#                 series (6.1, 6.12); only these series are installed
#     --no-host   skip tests/host/
#     --stock-only  skip the static gates and the debug-kernel tier
#     --debug-only  only the debug-kernel tier (scripts/debug-tier.sh)
#   IPAT_SELFTEST=1 tests/run-qemu.sh   boot the harness self-tests
#                 (tests/selftest/, which fail on purpose) instead, on the
#                 newest kernel unless -k says otherwise
#   QEMU_TIMEOUT, QEMU_ACCEL, QEMU_MEM: see qemu/run.sh
#   IPAT_TEST_TIMEOUT  time limit, in seconds, of every guest test without
#                 a line of its own in tests/guest/settings (default:
#                 that file's timeout=)
#
# Console logs: build/logs/<kernel>-<tier>.log.
set -eu
cd "$(dirname "$0")/.."

usage() {
	echo "usage: tests/run-qemu.sh [-s SEED] [-t GLOB[,GLOB...]] [-k KERNEL[,KERNEL...]] [--no-host] [--stock-only|--debug-only]" >&2
	exit 2
}
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
tests="" host=1 tier=all only=""
while [ $# -gt 0 ]; do
	case $1 in
	-s|--seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	-t|--tests) [ $# -ge 2 ] || usage; tests=$2; host=0; shift 2 ;;
	-k|--kernel) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
	--no-host) host=0; shift ;;
	--stock-only) tier=stock; shift ;;
	--debug-only) tier=debug; host=0; shift ;;
	*) usage ;;
	esac
done
# Both go on the kernel command line, which splits at spaces.
case $seed in ''|*[!0-9]*) echo "run-qemu: the seed must be a number" >&2; usage ;; esac
case $tests in *[[:space:]]*) echo "run-qemu: no spaces in test globs" >&2; usage ;; esac

testdir=tests/guest params=()
if [ "${IPAT_SELFTEST:-0}" = 1 ]; then
	testdir=tests/selftest host=0 params=(ipat.selftest=1)
fi
params+=("ipat.seed=$seed")
[ -z "${IPAT_TEST_TIMEOUT:-}" ] || params+=("ipat.timeout=$IPAT_TEST_TIMEOUT")
# A -t run, or the self-tests, is a quick run on Debian's kernels only.
if [ "$tier" = all ] && { [ -n "$tests" ] || [ "$testdir" = tests/selftest ]; }; then
	tier=stock
fi

# --- Results: printed as found, kept for the KTAP report ---
passed=0 failed=0 skipped=0 results=()
# result PASS|FAIL|SKIP|NOTE PATH [DETAIL]: see tests/lib/ktap.awk
result() {
	results+=("$1"$'\t'"$2"$'\t'"${3:-}")
	case $1 in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
	echo "$1 $2${3:+: $3}"
}
# case_result PASS|FAIL|SKIP PATH [REASON]: one named check of a guest
# test, kept for the KTAP report only: not printed, not counted (the test
# it belongs to is).
ncases=0
case_result() {
	results+=("$1"$'\t'"$2"$'\t'"${3:-}"$'\t'case)
	ncases=$((ncases + 1))
}
finish() {
	mkdir -p build/logs
	printf '%s\n' "${results[@]}" | awk -f tests/lib/ktap.awk >build/logs/results.ktap
	echo
	echo "== results in KTAP (seed $seed; rerun: tests/run-qemu.sh -s $seed) =="
	echo "== the tests below; with their $ncases named checks: build/logs/results.ktap =="
	printf '%s\n' "${results[@]}" | awk -F'\t' '$4 != "case"' |
		awk -f tests/lib/ktap.awk
	echo "$passed passed, $failed failed, $skipped skipped"
	exit $((failed > 0))
}

# --- Which kernels ---
series_of() { scripts/find-kernel.sh --series "$1"; }
if [ -n "$only" ]; then
	IFS=, read -ra wanted <<<"$only"
	# Install only the series asked for: a machine with one series tests it.
	IPAT_SERIES=$(for k in "${wanted[@]}"; do series_of "$k" || true; echo "$k"; done |
		grep -xE '6\.(1|12)' | sort -u | tr '\n' ' ')
	export IPAT_SERIES
fi
if ! scripts/install-deps.sh; then
	result FAIL install "scripts/install-deps.sh failed (see above)"
	finish
fi
kernels=()
for kver in $(scripts/find-kernel.sh --all); do
	if [ -n "$only" ]; then
		keep=0
		for k in "${wanted[@]}"; do
			[ "$k" = "$kver" ] || [ "$k" = "$(series_of "$kver")" ] && keep=1
		done
		[ "$keep" = 1 ] || continue
	fi
	kernels+=("$kver")
done
if [ ${#kernels[@]} -eq 0 ]; then
	result FAIL install "no installed kernel matches '${only:-any}' (scripts/find-kernel.sh --all)"
	finish
fi
# The self-tests test the harness, not a kernel: one is enough.
if [ "$testdir" = tests/selftest ] && [ -z "$only" ]; then
	kernels=("${kernels[-1]}")
fi
echo "== kernels: ${kernels[*]}; seed $seed =="

# shellcheck source=scripts/debug-tier.sh
. scripts/debug-tier.sh
if [ "$tier" = all ]; then
	debug_tier_prebuild "${kernels[@]}"
fi

# --- Static gates: checkpatch once, W=1 + sparse against every kernel ---
if [ "$tier" = all ]; then
	if scripts/checkpatch.sh; then
		result PASS static/checkpatch
	else
		result FAIL static/checkpatch "checkpatch.pl --strict findings above"
	fi
fi

# The guest tests expected, in the guest's order, so that a test the guest
# never reported (it crashed or hung) still counts as failed.
expected_tests() {
	local list=$1 file test glob globs
	for file in "$testdir"/*.sh; do
		test=$(basename "$file" .sh)
		if [ -z "$list" ]; then echo "$test"; continue; fi
		IFS=, read -ra globs <<<"$list"
		for glob in "${globs[@]}"; do
			# shellcheck disable=SC2053 # $glob is a pattern on purpose
			if [[ $test == $glob ]]; then echo "$test"; break; fi
		done
	done
}

# Build the module for Debian's kernel $1 (W=1 + sparse: any warning is a
# failed result, but a module that built is still tested) and its image.
stock_build() {
	local kver=$1 rc=0
	scripts/build-module.sh "$kver" "/usr/src/linux-headers-$kver" || rc=$?
	case $rc in
	0) result PASS "$kver/build" "W=1, sparse C=2: clean" ;;
	3) result FAIL "$kver/build" "warnings from gcc W=1, sparse or modpost (above)" ;;
	*) result FAIL "$kver/build" "the module did not build (above)"; return 1 ;;
	esac
	IPAT_KO=build/$kver/inode_patterns.ko \
	IPAT_INITRAMFS=build/$kver/initramfs.cpio.gz qemu/mkinitramfs.sh ||
		{ result FAIL "$kver/build" "the guest image did not build (above)"; return 1; }
	suite_kernel=/boot/vmlinuz-$kver
	suite_initrd=build/$kver/initramfs.cpio.gz
	suite_timeout=${QEMU_TIMEOUT:-600}
}

# True if the guest in console log $1 reached userspace: /init's first line.
reached_init() {
	grep -q '^ipat: mode=' <(tr -d '\r' <"$1")
}

# Build for kernel $1's tier $2 (stock or debug) and set what its boot
# needs: suite_kernel, suite_initrd, suite_timeout (set by the builds),
# suite_list (the guest tests, "" for all) and suite_params.
suite_prepare() {
	suite_list=$tests suite_params=("${params[@]}")
	if [ "$2" = debug ]; then
		debug_tier_build "$1" || return 1
		suite_params+=("${debug_tier_params[@]}")
		[ -n "$suite_list" ] || suite_list=$(debug_tier_tests)
	else
		stock_build "$1" || return 1
	fi
	[ -z "$suite_list" ] || suite_params+=("ipat.tests=$suite_list")
}

# suite_name KERNEL TIER: the name of its console log, build/logs/NAME.log;
# suite_prefix KERNEL TIER: where its results go (KERNEL/TIER/...).
suite_name() {
	if [ "$testdir" = tests/guest ]; then echo "$1-$2"; else echo "$1-selftest"; fi
}
suite_prefix() {
	if [ "$testdir" = tests/guest ]; then echo "$1/$2"; else echo "$1/selftest"; fi
}

# Boot the guest the last suite_prepare set up; its console goes to
# build/logs/$1.log and to stdout, qemu's exit status to build/logs/$1.rc.
boot_suite() {
	local name=$1 log=build/logs/$1.log rc=0
	echo "== booting $suite_kernel: seed $seed, log $log =="
	rm -f "$log" "$log.first" "build/logs/$name.rc"	# never read an old run's
	boot() {
		# The dmesg dump repeats the boot messages: keep it in the log only.
		IPAT_LOG=$name QEMU_KERNEL=$suite_kernel QEMU_INITRD=$suite_initrd \
		QEMU_TIMEOUT=$suite_timeout qemu/run.sh test "${suite_params[@]}" |
			sed -u "/^IPAT-DMESG-BEGIN/,/^IPAT-DMESG-END/c\\(full dmesg: $log)"
		rc=${PIPESTATUS[0]}
	}
	boot
	# Under TCG with -smp 2 a kernel has failed before userspace, before
	# the module was ever loaded: a debug kernel hung in its boot
	# self-tests, and 6.12 once oopsed on an int3 while patching its own
	# code at boot (sched_clock_cpu). Such a boot is retried once, said
	# in the results; a failure once /init runs never is.
	if ! reached_init "$log"; then
		echo "!!! RETRY: the guest never reached userspace (qemu exit $rc);" \
		     "booting once more; the failed boot's log is $log.first !!!"
		mv "$log" "$log.first"
		boot
	fi
	echo "$rc" >"build/logs/$name.rc"
}

# Record the guest results of kernel $1's tier $2, whose tests were the
# list $3, under "$1/$2/", from the console log its boot_suite left.
# suite_cases PATH TEST STATUS CASE...: the checks of TEST, from
# tests/lib/cases.awk's lines, as subtests of PATH; the last one is the
# test's own exit, so that a test which failed without a failed check
# still shows where.
suite_cases() {
	local path=$1 test=$2 st=$3 line t cst desc why
	shift 3
	for line in "$@"; do
		IFS=$'\t' read -r t cst desc why <<<"$line"
		[ "$t" = "$test" ] || continue
		case_result "$cst" "$path/$desc" "$why"
	done
	case $st in
	PASS) case_result PASS "$path/$test exits with success" ;;
	*) case_result FAIL "$path/$test exits with success" ;;
	esac
}

suite_results() {
	local kver=$1 suite=$2 list=$3 name log console rc test last line st
	local -a expected=()
	local -A status=() reason=()
	local prefix
	prefix=$(suite_prefix "$kver" "$suite")
	name=$(suite_name "$kver" "$suite")
	log=build/logs/$name.log
	rc=$(cat "build/logs/$name.rc" 2>/dev/null || echo "?")
	mapfile -t expected < <(expected_tests "$list")
	[ ! -e "$log.first" ] ||
		result NOTE "$prefix" "RETRIED: the first boot never reached userspace ($log.first)"
	console=$(tr -d '\r' <"$log" 2>/dev/null || true)

	while read -r _ test st rest; do
		status[$test]=$st
		reason[$test]=$rest
	done < <(grep -E '^IPAT-RESULT [^ ]+ (PASS|FAIL|SKIP)' <<<"$console" || true)

	# The named checks each test printed (tests/lib/cases.awk).
	local -A ncase=() badcase=()
	local -a cases=()
	mapfile -t cases < <(awk -f tests/lib/cases.awk <<<"$console")
	for line in "${cases[@]}"; do
		IFS=$'\t' read -r test st _ <<<"$line"
		ncase[$test]=$((${ncase[$test]:-0} + 1))
		[ "$st" != FAIL ] || badcase[$test]=1
	done

	[ ${#expected[@]} -gt 0 ] || result FAIL "$prefix/guest" "no test matched '${list:-*}'"
	for test in "${expected[@]}"; do
		st=${status[$test]:-}
		# A test that exits 0 with a failed check has failed.
		[ "$st" != PASS ] || [ -z "${badcase[$test]:-}" ] || st=FAILCASE
		if [ -n "${ncase[$test]:-}" ] && [ "$st" != SKIP ]; then
			suite_cases "$prefix/guest/$test" "$test" "${status[$test]:-}" "${cases[@]}"
		fi
		case $st in
		PASS) result PASS "$prefix/guest/$test" ;;
		SKIP) result SKIP "$prefix/guest/$test" "${reason[$test]}" ;;
		FAIL) result FAIL "$prefix/guest/$test" "failed; its output is in $log" ;;
		FAILCASE) result FAIL "$prefix/guest/$test" "a check failed, yet it exited 0; its output is in $log" ;;
		*) result FAIL "$prefix/guest/$test" "no result (the guest stopped during or before it)" ;;
		esac
	done

	if grep -qx IPAT-DONE <<<"$console"; then
		result PASS "$prefix/done" "the guest reached IPAT-DONE"
	else
		last=$(grep -oE 'IPAT-START [^ ]+' <<<"$console" | tail -n 1 | cut -d' ' -f2)
		result FAIL "$prefix/done" "no IPAT-DONE (qemu exit $rc; last test started: ${last:-none})"
	fi
	if scripts/check-log.sh "$log"; then
		result PASS "$prefix/kernel-log" "no reports"
	else
		result FAIL "$prefix/kernel-log" "reports found (above, and in $log)"
	fi
	[ "$suite" != debug ] || debug_tier_checks "$prefix" "$console" "$list"
}

# Debian's kernel $1: build, boot, results; the full run also holds the
# bench's instruction counts to their bounds (bench/bounds.txt), in
# a boot of its own.
run_stock_suite() {
	local kver=$1 prefix
	prefix=$(suite_prefix "$kver" stock)
	echo
	echo "== $prefix =="
	suite_prepare "$kver" stock || return 0
	boot_suite "$(suite_name "$kver" stock)"
	suite_results "$kver" stock "$suite_list"
	if [ "$tier" = all ] && [ -z "$tests" ]; then
		echo "== $prefix/bench-gate: bench/gate.sh =="
		if QEMU_INITRD=$suite_initrd bench/gate.sh; then
			result PASS "$prefix/bench-gate" "instructions per operation within bench/bounds.txt"
		else
			result FAIL "$prefix/bench-gate" "an instruction count left its bound (above)"
		fi
	fi
}

# The debug tier of every kernel: each guest boots as soon as its build is
# done, in the background, so that the guests of the two series run side
# by side (their tests are mostly one thread each, and a debug guest takes
# ~8 min under TCG); each one's output is shown, and its results recorded,
# in the kernels' order once it has ended.
run_debug_suites() {
	local kver name
	local -A pid=() list=()
	mkdir -p build/logs
	for kver in "${kernels[@]}"; do
		echo
		echo "== $kver/debug: build =="
		suite_prepare "$kver" debug || continue
		name=$(suite_name "$kver" debug)
		echo "== $kver/debug: booting in the background; its output follows when it ends =="
		boot_suite "$name" >"build/logs/$name.out" 2>&1 &
		pid[$kver]=$! list[$kver]=$suite_list
	done
	for kver in "${kernels[@]}"; do
		[ -n "${pid[$kver]:-}" ] || continue
		wait "${pid[$kver]}" || true
		name=$(suite_name "$kver" debug)
		echo
		echo "== $kver/debug =="
		cat "build/logs/$name.out"
		suite_results "$kver" debug "${list[$kver]}"
	done
}

if [ "$tier" != debug ]; then
	for kver in "${kernels[@]}"; do run_stock_suite "$kver"; done
fi
if [ "$host" = 1 ]; then
	# Host tests that boot a guest use the newest kernel's image.
	export QEMU_INITRD=build/${kernels[-1]}/initramfs.cpio.gz
	for file in tests/host/*.sh; do
		test=$(basename "$file" .sh)
		echo "== host test $test =="
		# Exit 4 (kselftest's KSFT_SKIP): the test skipped, saying why
		# on its last line.
		mkdir -p build/logs
		"$file" 2>&1 | tee "build/logs/host-$test.txt"
		hrc=${PIPESTATUS[0]}
		case $hrc in
		0) result PASS "host/$test" ;;
		4) result SKIP "host/$test" "$(tail -n 1 "build/logs/host-$test.txt")" ;;
		*) result FAIL "host/$test" ;;
		esac
	done
	unset QEMU_INITRD
fi
[ "$tier" = stock ] || run_debug_suites
finish
