#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The three filesystems each do the basics (tests/prog/fsbasic.c), show
# their pattern's allocation count, refuse rmmod while mounted and unload
# cleanly after the last unmount.
set -eu

modprobe inode_patterns
for fs in unionfs_demo embedfs_demo voidfs_demo; do
	mkdir -p "/mnt/$fs"
	fsbasic "$fs" "/mnt/$fs"
done

mount -t embedfs_demo none /mnt/embedfs_demo
if rmmod inode_patterns 2>/dev/null; then
	echo "FAIL: rmmod succeeded while embedfs_demo was mounted"
	exit 1
fi
umount /mnt/embedfs_demo
rmmod inode_patterns
echo "ok: rmmod refused while mounted, succeeded after umount"
