#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module loads with insmod and with modprobe (so the image's depmod
# data is right), registers its three filesystems while loaded, and
# unloads cleanly both ways.
set -eu
. /tests/lib/guest.sh

expect_registered() {
	for fs in $IPAT_FSTYPES; do
		ipat_fs_registered "$fs" || ipat_fail "$fs not in /proc/filesystems after $1"
	done
}

expect_unregistered() {
	ipat_module_loaded && ipat_fail "inode_patterns still loaded after $1"
	for fs in $IPAT_FSTYPES; do
		ipat_fs_registered "$fs" && ipat_fail "$fs still in /proc/filesystems after $1"
	done
	return 0
}

[ -f "$IPAT_MODULE" ] || ipat_fail "$IPAT_MODULE is not in the image"
expect_unregistered "boot"

ipat_run insmod "$IPAT_MODULE"
expect_registered insmod
ipat_run rmmod inode_patterns
expect_unregistered rmmod

ipat_run modprobe inode_patterns
expect_registered modprobe
ipat_run modprobe -r inode_patterns
expect_unregistered "modprobe -r"
