#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unprivileged user (uid/gid 1000 or 1001, no other groups, no
# capabilities) gets what tmpfs gives him (tests/prog/perms.c): no
# creation in a 0755 root-owned directory, no chmod/chown/utimensat or
# user. xattr writes on another user's file, sticky-directory deletion
# rules, setuid/setgid cleared on write, no mount without CAP_SYS_ADMIN.
set -eu
. /tests/lib/guest.sh

work=${IPAT_TMP:-/tmp}/perms
mkdir -p "$work"
ipat_run modprobe inode_patterns

rc=0
start=$(cut -d. -f1 /proc/uptime)
# shellcheck disable=SC2086 # one argument per filesystem type
perms "$work" $IPAT_FSTYPES || rc=$?
echo "perms took $(($(cut -d. -f1 /proc/uptime) - start)) s"

for fs in tmpfs $IPAT_FSTYPES; do
	if grep -q " $work/$fs " /proc/mounts; then
		echo "FAIL: $work/$fs left mounted"
		umount "$work/$fs" || umount -l "$work/$fs"
		rc=1
	fi
done
rmmod inode_patterns || ipat_fail "rmmod inode_patterns failed"
[ "$rc" -eq 0 ] || ipat_fail "perms failed (status $rc)"
