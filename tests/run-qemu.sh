#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command. Installs what is missing; runs the static gates; for
# every installed Debian kernel series (6.1, 6.12, 7.3; scripts/find-kernel.sh
# says where each is), builds the module and an initramfs and boots the
# guest in test mode on Debian's kernel, then once more with
# security=selinux for the label test when the run selects it
# (tests/harness/selinux.sh); runs the host-side tests of the harness
# (tests/host/*.sh); boots the guest suite on a debug kernel of the
# newest series (IPAT_DEBUG_SERIES="6.1 7.3": of those), those guests side
# by side (and beside the host tests while a debug kernel is still
# building). Fails if
# a test failed, if a guest did not reach IPAT-DONE, or if a kernel log
# shows a bug. Prints every result as it comes, then all of them in KTAP
# (nested per kernel and per tier; also in build/logs/results.ktap), and
# ends with the line "N passed, N failed, N skipped".
#
#   tests/run-qemu.sh [-s SEED] [-t GLOB[,GLOB...]] [-k KERNEL[,KERNEL...]]
#                     [--no-host] [--stock-only|--debug-only]
#     -s SEED     passed to the guest tests as IPAT_SEED (default: random)
#     -t GLOB     run only the guest tests whose name (file name without
#                 .sh) matches, on Debian's kernels only; implies --no-host
#     -k KERNEL   only these kernels: a release (6.1.0-57-amd64) or a
#                 series (6.1, 6.12, 7.3, 7.2) that names one kernel;
#                 only these series are installed
#     --no-host   skip tests/host/
#     --stock-only  skip the static gates and the debug-kernel tier
#     --debug-only  only the debug-kernel tier (tests/harness/debug-tier.sh)
#   IPAT_SELFTEST=1 tests/run-qemu.sh   boot the harness self-tests
#                 (tests/harness/selftest/guest/, which fail on purpose)
#                 instead, on the newest kernel unless -k says otherwise
#   QEMU_TIMEOUT, QEMU_ACCEL, QEMU_MEM: see qemu/run.sh
#   IPAT_TEST_TIMEOUT  time limit, in seconds, of every guest test without
#                 a line of its own in tests/guest/settings (default:
#                 that file's timeout=)
#
# Console logs: build/logs/<kernel>-<tier>.log (tiers: stock, selinux,
# debug).
#
# This file is the list of the run's stages; each is a file of
# tests/harness/, sourced below, which says what it does.
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
	testdir=tests/harness/selftest/guest host=0 params=(ipat.selftest=1)
fi
params+=("ipat.seed=$seed")
[ -z "${IPAT_TEST_TIMEOUT:-}" ] || params+=("ipat.timeout=$IPAT_TEST_TIMEOUT")
# A -t run, or the self-tests, is a quick run on Debian's kernels only.
if [ "$tier" = all ] && { [ -n "$tests" ] || [ "$testdir" != tests/guest ]; }; then
	tier=stock
fi

# The stages, in tests/harness/.
. tests/harness/report.sh	# result, finish: printed results, KTAP report
. tests/harness/progress.sh	# progress_wait: a line a minute in long steps
. tests/harness/install.sh	# install_deps: what is missing
. tests/harness/kernels.sh	# pick_kernels: which kernels
. tests/harness/static.sh	# static_gates: checkpatch
. tests/harness/build.sh	# module_build: W=1 + sparse
. tests/harness/image.sh	# image_build: test programs, then the image
. tests/harness/suite.sh	# suite_prepare: build and image of a tier
. tests/harness/boot.sh	# boot_suite: boot, retried once before userspace
. tests/harness/collect.sh	# suite_results: results from the console log
. tests/harness/icount-gate.sh	# icount_gate: the bench's instruction counts
. tests/harness/selinux.sh	# selinux_suite: a boot with security=selinux
. tests/harness/host-tests.sh	# host_tests: tests/host/, the harness's own
. tests/harness/debug-tier.sh	# debug_tier_*: the suite on debug kernels

# Debian's kernel $1: build the module and the image, boot, collect the
# results; the full run also holds the bench's instruction counts to their
# bounds, in a boot of its own; a run that selects the label test boots
# the image once more with SELinux for it.
stock_suite() {
	local prefix
	prefix=$(suite_prefix "$1" stock)
	echo
	echo "== $prefix =="
	suite_prepare "$1" stock || return 0
	boot_suite "$(suite_name "$1" stock)"
	suite_results "$1" stock "$suite_list"
	if [ "$tier" = all ] && [ -z "$tests" ]; then icount_gate "$prefix"; fi
	if [ "$testdir" = tests/guest ] && selinux_wanted; then selinux_suite "$1"; fi
}

# The debug kernels take longest to build: the full run starts them as
# soon as their sources are in.
if [ "$tier" = all ]; then
	install_deps --kernel-build || finish
	# shellcheck disable=SC2046 # a list of series
	debug_tier_prebuild $(debug_tier_series)
fi
install_deps || finish
pick_kernels || finish
[ "$tier" != all ] || static_gates
if [ "$tier" != debug ]; then
	for kver in "${kernels[@]}"; do stock_suite "$kver"; done
fi
# While a debug kernel is still building, the host tests run once the
# debug guests have booted, beside the last one, filling the core it
# leaves idle rather than slowing the builds. Once all are built, they go
# first: both guests and a host test at once on two cores slow the guests
# more than running side by side gains.
if [ "$tier" = all ] && ! debug_tier_ready; then
	debug_tier_start
	[ "$host" = 0 ] || host_tests "${kernels[-1]}"
	debug_tier_wait
else
	[ "$host" = 0 ] || host_tests "${kernels[-1]}"
	[ "$tier" = stock ] || { debug_tier_start; debug_tier_wait; }
fi
finish
