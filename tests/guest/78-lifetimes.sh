#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Lifetimes of inodes, superblocks and the module:
#  1. 50 cycles of: load, mount all three, a small concurrent workload on
#     each (hammer: 2 workers, with its tree and counter checks), unmount,
#     nothing left (lifetime drain), unload, and no trace of the module
#     left (its /proc directory and slab caches gone).
#  2. Per filesystem (tests/prog/lifetime.c): umount with an open file,
#     directory, cwd or mapping is refused with EBUSY; umount -l with
#     files open detaches at once, the files stay usable, the module stays
#     pinned, and the last close frees everything, after which rmmod
#     succeeds; open-but-unlinked files keep data, xattrs and birth time
#     until the last close or munmap.
#  3. The same lazy unmount with the shell's own umount -l and a file held
#     open by the shell.
set -eu
. /tests/lib/guest.sh

begin=$(date +%s)

seed=${IPAT_SEED:-0}
cycles=${IPAT_LIFETIME_CYCLES:-50}
out=$IPAT_TMP/out

# Run quietly; on failure show what the command printed.
quiet() {
	rc=0
	"$@" >"$out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$out"; ipat_fail "'$*' exited with status $rc"; }
}

expect_unloaded() {
	ipat_module_loaded && ipat_fail "$1: inode_patterns still loaded"
	[ ! -e /proc/fs/inode_patterns ] ||
		ipat_fail "$1: /proc/fs/inode_patterns outlived the module"
	for cache in union_inode_cache embedfs_inode_cache; do
		[ ! -e "/sys/kernel/slab/$cache" ] ||
			ipat_fail "$1: slab cache $cache outlived the module"
	done
}

for fs in $IPAT_FSTYPES; do
	mkdir -p "/mnt/$fs"
done

# 1. Load, mount, work, unmount, unload.
i=0
while [ "$i" -lt "$cycles" ]; do
	quiet modprobe inode_patterns
	for fs in $IPAT_FSTYPES; do
		quiet mount -t "$fs" none "/mnt/$fs"
	done
	for fs in $IPAT_FSTYPES; do
		quiet hammer -w 2 -n 15 -k 1 -s $((seed + i)) -t "$fs" "/mnt/$fs"
	done
	for fs in $IPAT_FSTYPES; do
		quiet umount "/mnt/$fs"
		quiet lifetime drain "$fs"
	done
	quiet rmmod inode_patterns
	expect_unloaded "cycle $i"
	i=$((i + 1))
done
echo "ok: $cycles cycles of load, mount, workload, unmount, unload" \
	"in $(($(date +%s) - begin))s"

# 2. Refused, lazy and unlinked, each with its own unload.
for fs in $IPAT_FSTYPES; do
	ipat_run modprobe inode_patterns
	ipat_run lifetime busy "$fs" "/mnt/$fs"
	ipat_run lifetime unlinked "$fs" "/mnt/$fs"
	ipat_run lifetime lazy "$fs" "/mnt/$fs"
	ipat_run rmmod inode_patterns
	expect_unloaded "lazy unmount of $fs"
done

# 3. The same with umount -l, the shell holding the open file.
for fs in $IPAT_FSTYPES; do
	ipat_run modprobe inode_patterns
	ipat_run mount -t "$fs" none "/mnt/$fs"
	echo data >"/mnt/$fs/held"
	exec 3<"/mnt/$fs/held"
	umount "/mnt/$fs" 2>/dev/null && ipat_fail "$fs: umount with an open file succeeded"
	ipat_run umount -l "/mnt/$fs"
	awk -v m="/mnt/$fs" '$2 == m { exit 1 }' /proc/mounts ||
		ipat_fail "$fs: /mnt/$fs still mounted after umount -l"
	rmmod inode_patterns 2>/dev/null && ipat_fail "$fs: rmmod succeeded with a file open"
	read -r line <&3
	[ "$line" = data ] || ipat_fail "$fs: read '$line' after umount -l, want 'data'"
	exec 3<&-
	ipat_run lifetime drain "$fs"
	ipat_run rmmod inode_patterns
	expect_unloaded "umount -l of $fs"
done
echo "ok: umount -l with a file open, then its close, frees everything"
echo "took $(($(date +%s) - begin))s"
