#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The installed Debian kernels the module can be built for and booted on:
# those with both headers (/usr/src/linux-headers-<ver>) and a bootable
# image (/boot/vmlinuz-<ver>). The running kernel is never considered on
# its own: the module is built for, and loaded into, a QEMU guest booting
# that image.
#
#   scripts/find-kernel.sh          the newest such kernel
#   scripts/find-kernel.sh --all    every one, oldest first
#   scripts/find-kernel.sh --series VER   VER's series: 6.12.118+deb12-amd64 -> 6.12
case ${1:-} in
--series)
	echo "$2" | sed -n 's/^\([0-9]*\.[0-9]*\)[.-].*/\1/p'
	exit 0
	;;
esac
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	ver=${img#/boot/vmlinuz-}
	[ -d "/usr/src/linux-headers-$ver" ] && echo "$ver"
done | sort -V | if [ "${1:-}" = --all ]; then cat; else tail -n 1; fi
