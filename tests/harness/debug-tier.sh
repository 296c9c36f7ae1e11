# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # run-qemu.sh uses and sets the globals
#
# Stage of tests/run-qemu.sh, which sources it: the debug-kernel tier, the
# guest suite once more, on a debug kernel of the series IPAT_DEBUG_SERIES
# names (default: the newest series the run tests; a kernel build is about
# ten minutes of both cores, and a run within CI's time has room for one)
# (scripts/debug-kernel.sh SERIES: KASAN, KFENCE, kmemleak, lockdep, fault
# injection, KUnit), with the module built against it.

# The series whose debug kernels the run builds, from the series it
# installs ($IPAT_SERIES): IPAT_DEBUG_SERIES, or the newest of them.
debug_tier_series() {
	echo "${IPAT_DEBUG_SERIES:-$(tr ' ' '\n' <<<"$IPAT_SERIES" | grep . | sort -V | tail -n 1)}"
}

# The tested kernels that have a debug tier: those of debug_tier_series.
debug_tier_kernels() {
	local kver
	for kver in "${kernels[@]}"; do
		case " $(debug_tier_series) " in
		*" $(scripts/find-kernel.sh --series "$kver") "*) echo "$kver" ;;
		esac
	done
}

# slub_debug: F, the consistency checks, catch what KASAN does not: a free
# into another cache than the object's, a corrupt freelist. Red zones,
# poisoning and owner tracking (Z, P, U), which Debian's kernels run with
# (qemu/run.sh), are KASAN's job here: it catches the same bugs at the
# access, and they would cost a sixth of the guest's time. failslab's
# cache filter flag (A) exists only from boot: every cache but kmemleak's
# own gets it, for tests/guest/80-fail-nth.sh.
debug_tier_params=("slub_debug=FA;F,kmemleak_object,kmemleak_scan_area")
# A debug kernel under TCG runs about ten times slower: the tests whose
# workload has a knob get a smaller one. A NAME=VALUE the kernel does not
# know is passed on to /init's environment, and so to every test.
debug_tier_params+=(IPAT_WL_SEEDS=2 IPAT_HAMMER_OPS=1000 IPAT_LIFETIME_CYCLES=15)
# Tests that measure speed, or run a fixed load until a timeout, say
# nothing more on this kernel than on Debian's and do not fit its time.
debug_tier_skip=${IPAT_DEBUG_SKIP-75-stress-ng 90-bench-quick}
# What a debug kernel exists for: these may skip on Debian's kernels,
# never on a debug kernel.
debug_tier_required="80-fail-nth 81-fail-load 85-kunit 99-kmemleak"

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

# From the default run, as soon as the kernel sources are installed: build
# the debug kernels of the series "$@" (niced, one after the other, in
# their own process group), so that the builds overlap the rest of the
# install and the stock suites' guests. debug_tier_build then waits for
# each on the cache's lock. Stopped if this run ends first.
debug_tier_prebuild() {
	local series todo=
	for series in "$@"; do
		scripts/debug-kernel.sh --path "$series" >/dev/null 2>&1 ||
			todo="$todo $series"
	done
	[ -n "$todo" ] || return 0
	mkdir -p build/logs
	echo "== building the debug kernel(s) of$todo in the background: build/logs/debug-kernel.log"
	# shellcheck disable=SC2086 # $todo is a list of series
	setsid nice -n 19 sh -c 'for s; do scripts/debug-kernel.sh "$s" || exit 1; done' \
		sh $todo >build/logs/debug-kernel.log 2>&1 &
	debug_tier_prebuild_pid=$!
	trap 'kill -- -"$debug_tier_prebuild_pid" 2>/dev/null || true' EXIT
}

# True if the debug kernel of every tested kernel's series is built.
debug_tier_ready() {
	local kver
	for kver in $(debug_tier_kernels); do
		scripts/debug-kernel.sh --path "$(scripts/find-kernel.sh --series "$kver")" \
			>/dev/null 2>&1 || return 1
	done
}

# For Debian's kernel $1: build (or reuse) the debug kernel of its series,
# the module and the KUnit module against it into build/debug-<series>/,
# and their image; sets suite_kernel, suite_initrd and
# suite_timeout. A failure is a result of its own, under $1/debug.
debug_tier_build() {
	local series tree out pid rc=0
	series=$(scripts/find-kernel.sh --series "$1")
	out=build/debug-$series
	mkdir -p "$out"
	# The background build may still be at it: wait, saying so.
	scripts/debug-kernel.sh "$series" >"$out/tree" &
	pid=$!
	debug_tier_waiting=$series
	progress_wait debug_tier_build_progress "$pid"
	wait "$pid" || rc=$?
	tree=$(cat "$out/tree")
	if [ "$rc" != 0 ]; then
		result FAIL "$1/debug/build" "the $series debug kernel did not build (above; build/logs/debug-kernel.log)"
		return 1
	fi
	module_build "$1/debug/build" "debug-$series" "$tree" \
		"$(cat "$tree/include/config/kernel.release")" || return 1
	image_build "$1/debug/build" "$out/inode_patterns.ko" "$out/initramfs.cpio.gz" \
		"$tree" "$out/inode_patterns_kunit.ko" || return 1
	suite_kernel=$tree/arch/x86/boot/bzImage
	suite_initrd=$out/initramfs.cpio.gz
	# Only a guard against a hung guest: each test has its own limit.
	suite_timeout=${QEMU_TIMEOUT:-1800}
}

debug_tier_build_progress() {
	echo "waiting for the $debug_tier_waiting debug kernel (build/logs/debug-kernel.log: $(tail -n 1 build/logs/debug-kernel.log 2>/dev/null))"
}

# The checks this tier adds, for the results under $1, on the console
# text $2 of a run of the tests in list $3: no test may skip what this
# kernel exists for, and the KUnit counts and fault-point table are noted.
debug_tier_checks() {
	local prefix=$1 console=$2 list=$3 test line kunit

	# Only when this tier chose the tests, not -t.
	if [ -n "$debug_tier_skip" ] && [ "$list" = "$(debug_tier_tests)" ]; then
		result NOTE "$prefix" "not run on the debug kernel (IPAT_DEBUG_SKIP): $debug_tier_skip"
	fi
	for test in $debug_tier_required; do
		if grep -q "^IPAT-RESULT $test SKIP" <<<"$console"; then
			result FAIL "$prefix/required/$test" "skipped on the debug kernel"
		fi
	done

	kunit=$(grep -E '^KUNIT-RESULT ' <<<"$console" | tail -n 1 || true)
	if [ -n "$kunit" ]; then
		result NOTE "$prefix" "kunit: ${kunit#KUNIT-RESULT }"
	elif [[ ",$list," == *",85-kunit,"* ]]; then
		result FAIL "$prefix/kunit" "no KUNIT-RESULT line from guest/85-kunit"
	fi

	if grep -q '^FAILNTH-TABLE ' <<<"$console"; then
		echo "== fault points per call that failed it (slab/page pass)"
		while IFS= read -r line; do
			echo "${line#FAILNTH-TABLE }"
		done < <(grep '^FAILNTH-TABLE ' <<<"$console")
		line=$(grep '^FAILNTH-TABLE total ' <<<"$console" | tail -n 1)
		result NOTE "$prefix" "fail-nth: fault points (slab/page) per fs: ${line#FAILNTH-TABLE total }"
	fi
}

# The debug tier of every kernel, in two halves, so that the host tests
# can run between them (run-qemu.sh). debug_tier_start: each guest boots
# as soon as its build is done, in the background, so that the guests of
# the two series run side by side (their tests are mostly one thread each,
# and a debug guest takes minutes under TCG).
# debug_tier_wait: each one's output is shown, and its results recorded
# (collect.sh), in the kernels' order once it has ended; while they run, a
# line a minute says how far each is.
# debug_tier_pid and debug_tier_list: each kernel's guest and its tests,
# read by debug_tier_guests_progress too.
declare -gA debug_tier_pid=() debug_tier_list=()
debug_tier_start() {
	local kver name
	mkdir -p build/logs
	for kver in $(debug_tier_kernels); do
		echo
		echo "== $kver/debug: build =="
		suite_prepare "$kver" debug || continue
		name=$(suite_name "$kver" debug)
		echo "== $kver/debug: booting in the background; its output follows when it ends =="
		boot_suite "$name" >"build/logs/$name.out" 2>&1 &
		debug_tier_pid[$kver]=$! debug_tier_list[$kver]=$suite_list
	done
}

debug_tier_wait() {
	local kver name
	for kver in $(debug_tier_kernels); do
		[ -n "${debug_tier_pid[$kver]:-}" ] || continue
		progress_wait debug_tier_guests_progress "${debug_tier_pid[$kver]}"
		wait "${debug_tier_pid[$kver]}" || true
		name=$(suite_name "$kver" debug)
		echo
		echo "== $kver/debug =="
		cat "build/logs/$name.out"
		suite_results "$kver" debug "${debug_tier_list[$kver]}"
	done
}

# Each debug guest's tests done and the one it runs, from its console log
# (qemu/init's IPAT-START and IPAT-RESULT lines).
debug_tier_guests_progress() {
	local kver log total ended running state line=''
	for kver in $(debug_tier_kernels); do
		[ -n "${debug_tier_pid[$kver]:-}" ] || continue
		log=build/logs/$(suite_name "$kver" debug).log
		total=$(tr ',' '\n' <<<"${debug_tier_list[$kver]}" | grep -c . || true)
		ended=$(tr -d '\r' <"$log" 2>/dev/null | grep -c '^IPAT-RESULT ' || true)
		running=$(tr -d '\r' <"$log" 2>/dev/null | sed -n 's/^IPAT-START //p' | tail -n 1)
		if ! kill -0 "${debug_tier_pid[$kver]}" 2>/dev/null; then
			state=ended
		elif [ -z "$running" ]; then
			state=booting
		else
			state="$ended of $total tests done, at $running"
		fi
		line="${line:+$line | }$kver/debug: $state"
	done
	echo "debug guests: $line"
}
