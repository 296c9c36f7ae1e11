# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by qemu/run.sh and scripts/gdb.sh: which image a guest boots,
# and which kernel. QEMU_INITRD names the image (default
# build/initramfs.cpio.gz, from make initramfs; the debug kernel's are in
# build/debug-<series>/); the kernel is QEMU_KERNEL, or else Debian's
# kernel of the release qemu/mkinitramfs.sh saved beside the image, where
# scripts/find-kernel.sh says it is.

# boot_image WHO: sets initrd, kver and kernel; exits, naming WHO, when
# the image is missing.
# shellcheck disable=SC2034 # initrd, kver and kernel are the caller's
boot_image() {
	initrd=${QEMU_INITRD:-build/initramfs.cpio.gz}
	if [ ! -f "$initrd" ] || [ ! -f "${initrd%.cpio.gz}.kver" ]; then
		echo "$1: $initrd is missing; run make initramfs" >&2
		exit 1
	fi
	kver=$(cat "${initrd%.cpio.gz}.kver")
	kernel=${QEMU_KERNEL:-$(scripts/find-kernel.sh --image "$kver")}
}
