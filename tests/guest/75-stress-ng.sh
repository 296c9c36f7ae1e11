#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debian's stress-ng (copied into the image with its libraries by
# qemu/mkinitramfs.sh) on each filesystem: its filesystem stressors all at
# once, bounded by operation counts. stress-ng must exit 0 (--verify
# checks data where a stressor can) and leave nothing behind, the drain
# check must find nothing left after unmount, and rmmod must succeed; the
# harness fails the run on any kernel report.
set -eu
. /tests/lib/guest.sh

command -v stress-ng >/dev/null ||
	ipat_fail "stress-ng is not in the image (see qemu/mkinitramfs.sh)"
stress-ng --version

# Options that size the working sets. They must come before the first
# stressor: stress-ng 0.15 gives an option to the stressor before it. File
# data here cannot be swapped or dropped, so the working sets are far
# smaller than the defaults (mmap and msync take 256 MiB each), or the
# 1 GiB guest runs out of memory; copy-file is left out as it copies at
# least 128 MiB. File-backed mmap: the default maps anonymous memory,
# which would not touch the filesystem.
args="--dir-dirs 256 --dentries 256 --dirdeep-inodes 2000 --mmap-file
--mmap-bytes 1m --fallocate-bytes 1m --msync-bytes 1m --seek-size 1m
--sendfile-size 64k"

# stressor:instances:ops, all run at once. link and xattr make thousands
# of entries per operation, up to a minute under TCG: one instance, one
# operation; symlink, as slow, is left to hammer (70-concurrency). A
# stressor this version lacks is skipped.
wanted="dir:2:400 dirdeep:2:20 dirmany:2:200 dentry:2:20 rename:2:2000
touch:2:2000 filename:2:100 chmod:2:200 chown:2:2000 utime:2:2000
mknod:2:100 mmap:2:4 fallocate:2:2 seek:2:2000 fsize:2:20 sendfile:2:20
msync:2:40 link:1:1 xattr:1:1"
have=$(stress-ng --stressors)
for entry in $wanted; do
	name=${entry%%:*}
	count=${entry#*:}
	case " $have " in
	*" $name "*) args="$args --$name ${count%:*} --$name-ops ${count#*:}" ;;
	*) echo "stress-ng has no $name stressor: skipped" ;;
	esac
done

ipat_run modprobe inode_patterns
mkdir -p /mnt/stress
for fs in $IPAT_FSTYPES; do
	# dirmany creates files until it fails: let it meet ENOSPC early.
	ipat_run mount -t "$fs" -o max_inodes=20000 none /mnt/stress
	# --timeout is only a guard: the operation counts must end it first
	# (in about 50 s under TCG on an idle host).
	start=$(date +%s)
	# shellcheck disable=SC2086 # $args is a list of options
	ipat_run stress-ng --temp-path /mnt/stress --seed "$((${IPAT_SEED:-0} + 1))" \
		--verify --metrics-brief --timeout 250 $args
	secs=$(($(date +%s) - start))
	echo "$fs: stress-ng took ${secs}s"
	[ "$secs" -lt 250 ] ||
		ipat_fail "$fs: stress-ng ran into --timeout, not its operation counts"
	left=$(ls -A /mnt/stress)
	[ -z "$left" ] || ipat_fail "$fs: stress-ng left behind: $left"
	ipat_run umount /mnt/stress
	ipat_run lifetime drain "$fs"
done
ipat_run rmmod inode_patterns
