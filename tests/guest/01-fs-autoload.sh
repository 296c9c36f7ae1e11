#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Mounting a type with nothing loaded loads the module: the kernel asks
# /sbin/modprobe for "fs-<type>", which needs MODULE_ALIAS_FS and the
# image's depmod data.
set -eu
. /tests/lib/guest.sh

helper=$(cat /proc/sys/kernel/modprobe)
[ -x "$helper" ] || ipat_fail "kernel.modprobe is '$helper', not an executable"
ipat_module_loaded && ipat_fail "inode_patterns loaded before the test"

aliases=$(modinfo -F alias "$IPAT_MODULE")
for fs in $IPAT_FSTYPES; do
	echo "$aliases" | grep -qx "fs-$fs" || ipat_fail "no alias fs-$fs (MODULE_ALIAS_FS)"
done

mkdir -p /mnt/x
ipat_run mount -t embedfs_demo none /mnt/x
ipat_module_loaded || ipat_fail "mount succeeded but inode_patterns is not loaded"
awk '$2 == "/mnt/x" && $3 == "embedfs_demo" { found = 1 } END { exit !found }' \
	/proc/mounts || ipat_fail "/mnt/x is not an embedfs_demo mount"
ipat_run umount /mnt/x
ipat_run rmmod inode_patterns
