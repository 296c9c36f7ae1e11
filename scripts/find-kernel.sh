#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the newest kernel version that has both installed headers
# (/usr/src/linux-headers-<ver>) and a bootable image (/boot/vmlinuz-<ver>).
# The running kernel is never considered on its own: the module is built
# for, and loaded into, a QEMU guest booting that image.
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	ver=${img#/boot/vmlinuz-}
	[ -d "/usr/src/linux-headers-$ver" ] && echo "$ver"
done | sort -V | tail -n 1
