#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The labels an LSM that labels gives new inodes, against tmpfs
# (tests/prog/labels.c): SELinux with the policy of
# tests/selinux/policy.conf, which this test loads. Every creating path
# labels, listxattr() lists the label once, relabel works as on tmpfs,
# and a label counts in max_xattr_bytes' use but never makes a creation
# fail (docs/reference.md, Extended attributes).
#
# Only a boot with security=selinux runs it (tests/run-qemu.sh's SELinux
# boot, tests/harness/selinux.sh); any other boot skips it, saying why.
set -eu
. /tests/lib/guest.sh

sel=/sys/fs/selinux
# SELinux makes its mount point at boot only when it is the active LSM.
[ -d $sel ] ||
	ipat_skip "SELinux is not active (the SELinux boot of tests/run-qemu.sh runs this test)"
[ -f /tests/selinux/policy ] ||
	ipat_fail "no /tests/selinux/policy in the image (checkpolicy missing when qemu/mkinitramfs.sh ran?)"
grep -q " $sel selinuxfs " /proc/mounts || ipat_run mount -t selinuxfs selinuxfs $sel
# The policy goes in with one write: selinuxfs takes no partial load.
# selinuxfs lists the policy's classes once one is loaded. The kernel
# logs a line for each class and permission it knows and the policy
# leaves out (hundreds): kept from the console, which TCG makes slow.
if [ -z "$(ls $sel/class 2>/dev/null)" ]; then
	level=$(cut -f1 /proc/sys/kernel/printk)
	dmesg -n 4
	rc=0
	dd if=/tests/selinux/policy of=$sel/load bs=1M || rc=$?
	dmesg -n "$level"
	[ "$rc" = 0 ] || ipat_fail "loading /tests/selinux/policy failed (status $rc)"
fi
echo "SELinux: enforce=$(cat $sel/enforce) context=$(cat /proc/self/attr/current)"

ipat_against_tmpfs labels
