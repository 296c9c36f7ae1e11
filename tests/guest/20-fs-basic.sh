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

# Our inode caches are not reclaimable (dentries pin every inode), so,
# like shmem_inode_cache, they must not count in SReclaimable.
for cache in embedfs_inode_cache union_inode_cache; do
	f=/sys/kernel/slab/$cache/reclaim_account
	[ -r "$f" ] || continue	# no SLUB sysfs: nothing to check
	if [ "$(cat "$f")" != 0 ]; then
		echo "FAIL: $cache is SLAB_RECLAIM_ACCOUNT"
		exit 1
	fi
	echo "ok: $cache is not SLAB_RECLAIM_ACCOUNT"
	# Every tier boots with slub_debug's consistency checks (F): a free
	# into another cache than the object's then warns, and so fails the
	# run. On a debug kernel nothing else would see it: KASAN does not
	# check it, and only Debian's kernels have SLAB_FREELIST_HARDENED.
	if [ "$(cat "/sys/kernel/slab/$cache/sanity_checks")" != 1 ]; then
		echo "FAIL: $cache runs without slub_debug's consistency checks (F)"
		exit 1
	fi
	echo "ok: $cache runs with slub_debug's consistency checks"
done

mount -t embedfs_demo none /mnt/embedfs_demo
if rmmod inode_patterns 2>/dev/null; then
	echo "FAIL: rmmod succeeded while embedfs_demo was mounted"
	exit 1
fi
umount /mnt/embedfs_demo
rmmod inode_patterns
echo "ok: rmmod refused while mounted, succeeded after umount"
