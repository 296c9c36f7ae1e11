# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # run-qemu.sh uses and sets the globals
#
# The debug-kernel tier of tests/run-qemu.sh (issue 6), which sources this
# file: the guest suite once more, on the debug kernel of
# scripts/debug-kernel.sh (KASAN, KFENCE, kmemleak, lockdep, fault
# injection, KUnit), with the module built against it.

# failslab's cache filter flag ("A") exists only from boot: every cache but
# kmemleak's own gets it, for tests/guest/80-fail-nth.sh.
debug_tier_params=("slub_debug=FZPUA;FZPU,kmemleak_object,kmemleak_scan_area")
# The debug kernel under TCG runs about ten times slower: the tests whose
# workload has a knob get a smaller one. A NAME=VALUE the kernel does not
# know is passed on to /init's environment, and so to every test.
debug_tier_params+=(IPAT_WL_SEEDS=2 IPAT_HAMMER_OPS=1000 IPAT_LIFETIME_CYCLES=15)
# Tests that measure speed, or run a fixed load until a timeout, say
# nothing more on this kernel than on Debian's and do not fit its time.
# The summary lists them.
debug_tier_skip=${IPAT_DEBUG_SKIP-75-stress-ng 90-bench-quick}

# The guest tests this tier runs, as an ipat.tests list.
debug_tier_tests() {
	local file test list=
	for file in tests/guest/*.sh; do
		test=$(basename "$file" .sh)
		case " $debug_tier_skip " in *" $test "*) continue ;; esac
		list=${list:+$list,}$test
	done
	echo "$list"
}

# From the default run, before the stock suite: start building the debug
# kernel (niced, in its own process group) so that the build overlaps the
# stock suite's guest. The debug tier's own scripts/debug-kernel.sh then
# waits for it on the cache's lock. Stopped if this run ends first.
debug_tier_prebuild() {
	[ -n "$(scripts/debug-kernel.sh --path 2>/dev/null)" ] && return 0
	mkdir -p build/logs
	echo "== building the debug kernel in the background: build/logs/debug-kernel.log"
	setsid nice -n 19 scripts/debug-kernel.sh >build/logs/debug-kernel.log 2>&1 &
	debug_tier_prebuild_pid=$!
	trap 'kill -- -"$debug_tier_prebuild_pid" 2>/dev/null || true' EXIT
}

# Builds (or reuses) the kernel, builds the module and the KUnit module
# against it into build/debug/, and their image; points qemu/run.sh at
# both through QEMU_KERNEL and QEMU_INITRD.
debug_tier_build() {
	local tree
	tree=$(scripts/debug-kernel.sh) || return 1
	scripts/build-module.sh debug "$tree" || return 1
	IPAT_KO=build/debug/inode_patterns.ko \
	IPAT_KO_EXTRA=build/debug/inode_patterns_kunit.ko \
	IPAT_KDIR=$tree IPAT_INITRAMFS=build/debug/initramfs.cpio.gz \
		qemu/mkinitramfs.sh || return 1
	export QEMU_KERNEL=$tree/arch/x86/boot/bzImage
	export QEMU_INITRD=build/debug/initramfs.cpio.gz
	# Only a guard against a hung guest: each test has its own limit.
	export QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800}
}

# True if the guest in console log $1 reached userspace: /init's first line.
debug_tier_reached_init() {
	grep -q '^ipat: mode=' <(tr -d '\r' <"$1")
}

# The checks this tier adds, on the console text $1, through run-qemu.sh's
# pass/fail/ok: no test may skip what this kernel exists for, and the
# KUnit counts and the fault-point table are reported.
debug_tier_checks() {
	local console=$1 skipped line kunit

	# Only when this tier chose the tests, not -t.
	if [ -n "$debug_tier_skip" ] && [ "$tests" = "$(debug_tier_tests)" ]; then
		ok "guest: not run on the debug kernel (IPAT_DEBUG_SKIP): $debug_tier_skip"
	fi

	skipped=$(awk '/^IPAT-START / { test = $2 } /^skipped:/ { print test }' \
		<<<"$console" | sort -u)
	for test in $skipped; do
		fail "guest/$test: skipped on the debug kernel"
	done

	kunit=$(grep -E '^KUNIT-RESULT ' <<<"$console" | tail -n 1 || true)
	if [ -n "$kunit" ]; then
		ok "kunit: ${kunit#KUNIT-RESULT }"
	elif [[ " ${expected[*]} " == *" 85-kunit "* ]]; then
		fail "kunit: no KUNIT-RESULT line from guest/85-kunit"
	fi

	if grep -q '^FAILNTH-TABLE ' <<<"$console"; then
		echo "== fault points per call that failed it (slab/page pass)"
		while IFS= read -r line; do
			echo "${line#FAILNTH-TABLE }"
		done < <(grep '^FAILNTH-TABLE ' <<<"$console")
		line=$(grep '^FAILNTH-TABLE total ' <<<"$console" | tail -n 1)
		ok "fail-nth: fault points (slab/page) per fs: ${line#FAILNTH-TABLE total }"
	fi
}

# From the default run: the debug tier as a run of its own, whose results
# join this run's summary under debug/.
debug_tier_run() {
	local out=build/logs/debug-run.txt kind rest
	echo
	echo "== debug-kernel tier: tests/run-qemu.sh --debug-only -s $seed =="
	mkdir -p build/logs
	tests/run-qemu.sh --debug-only -s "$seed" 2>&1 | tee "$out" || true
	if ! grep -q '^== summary' "$out"; then
		fail "debug: the debug-kernel run ended without a summary ($out)"
		return
	fi
	while read -r kind rest; do
		case $kind in
		PASS) pass "debug/$rest" ;;
		FAIL) fail "debug/$rest" ;;
		ok) ok "debug/$rest" ;;
		esac
	done < <(sed -n '/^== summary/,$p' "$out" | grep -E '^(PASS|FAIL|ok) ')
}
