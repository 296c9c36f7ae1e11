#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Concurrency: hammer (tests/prog/hammer.c) runs 4 processes on shared
# directories of each filesystem at once -- create, unlink, rename, link,
# symlink, mkdir, rmdir, readdir, statx, xattrs, O_TMPFILE -- then checks
# that a full walk agrees with every link count, and that the statistics
# file and statfs() count exactly the inodes found plus the files held
# open after unlink; then again after those are closed. Unmount, the
# drain check (no inode, object or xattr left) and rmmod must then succeed;
# the harness fails the run on any kernel report.
#
# tmpfs goes first: the same checks must pass on the reference.
set -eu
. /tests/lib/guest.sh

begin=$(date +%s)

seed=${IPAT_SEED:-0}
# Operations per worker, 4 workers: about 10 s per filesystem under TCG.
ops=${IPAT_HAMMER_OPS:-4000}

mkdir -p /mnt/hammer
ipat_run mount -t tmpfs none /mnt/hammer
ipat_run hammer -w 4 -n "$ops" -k 3 -s "$seed" /mnt/hammer
ipat_run umount /mnt/hammer

ipat_run modprobe inode_patterns
for fs in $IPAT_FSTYPES; do
	ipat_run mount -t "$fs" none /mnt/hammer
	ipat_run hammer -w 4 -n "$ops" -k 3 -s "$seed" -t "$fs" /mnt/hammer
	ipat_run umount /mnt/hammer
	ipat_run lifetime drain "$fs"
done
ipat_run rmmod inode_patterns
echo "took $(($(date +%s) - begin))s"
