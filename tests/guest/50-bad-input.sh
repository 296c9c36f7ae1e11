#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input gets a clear error and loses nothing (tests/prog/badinput.c):
# bad mount options (EINVAL, and the kernel log names the option), names
# over NAME_MAX, bad xattrs, renames into a directory's own subtree, rmdir
# of a non-empty directory, ENOSPC at max_inodes and recovery, on each
# filesystem and on tmpfs for the reference errnos. Each failing operation
# must leave the tree as it was.
set -eu
. /tests/lib/guest.sh

work=${IPAT_TMP:-/tmp}/badinput
mkdir -p "$work"
ipat_run modprobe inode_patterns

rc=0
start=$(cut -d. -f1 /proc/uptime)
# shellcheck disable=SC2086 # one argument per filesystem type
badinput "$work" $IPAT_FSTYPES || rc=$?
echo "badinput took $(($(cut -d. -f1 /proc/uptime) - start)) s"

# A failed check may leave a mount behind; then unload, which fails on
# any reference the filesystems leaked.
for fs in tmpfs $IPAT_FSTYPES; do
	if grep -q " $work/$fs " /proc/mounts; then
		echo "FAIL: $work/$fs left mounted"
		umount "$work/$fs" || umount -l "$work/$fs"
		rc=1
	fi
done
rmmod inode_patterns || ipat_fail "rmmod inode_patterns failed"
[ "$rc" -eq 0 ] || ipat_fail "badinput failed (status $rc)"
