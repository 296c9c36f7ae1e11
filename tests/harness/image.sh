# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Stage of tests/run-qemu.sh, which sources it: the guest image. The test
# programs are built first (scripts/build-progs.sh, only what changed),
# then qemu/mkinitramfs.sh packs them with the module.

# image_build AT KO IMAGE [KDIR [EXTRA_KO...]]: the image IMAGE with module
# KO (and EXTRA_KO), for the kernel tree KDIR if it was built here; a
# failure is a FAIL result AT and status 1.
image_build() {
	local at=$1 ko=$2 out=$3 kdir=${4:-}
	shift 3
	[ $# -eq 0 ] || shift
	if ! scripts/build-progs.sh; then
		result FAIL "$at" "the test programs did not build (above)"
		return 1
	fi
	IPAT_KO=$ko IPAT_KO_EXTRA="$*" IPAT_KDIR=$kdir IPAT_INITRAMFS=$out \
		qemu/mkinitramfs.sh && return 0
	result FAIL "$at" "the guest image did not build (above)"
	return 1
}
