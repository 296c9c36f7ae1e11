# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # run-qemu.sh sets $tests, $params, $testdir and reads suite_*
#
# Stage of tests/run-qemu.sh, which sources it: what one guest boot of a
# kernel's tier (stock: Debian's kernel; debug: debug-tier.sh) runs, and
# the names its log and results go under.

# Debian's kernel $1: its module (build.sh) and image (image.sh), and what
# its boot needs: suite_kernel, suite_initrd, suite_timeout.
stock_build() {
	local kver=$1
	module_build "$kver/build" "$kver" "$kver" || return 1
	image_build "$kver/build" "build/$kver/inode_patterns.ko" \
		"build/$kver/initramfs.cpio.gz" || return 1
	suite_kernel=$(scripts/find-kernel.sh --image "$kver")
	suite_initrd=build/$kver/initramfs.cpio.gz
	suite_timeout=${QEMU_TIMEOUT:-600}
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
# suite_prefix KERNEL TIER: where its results go (KERNEL/TIER/...). The
# self-tests' tier is "selftest".
suite_name() {
	if [ "$testdir" = tests/guest ]; then echo "$1-$2"; else echo "$1-selftest"; fi
}
suite_prefix() {
	if [ "$testdir" = tests/guest ]; then echo "$1/$2"; else echo "$1/selftest"; fi
}
