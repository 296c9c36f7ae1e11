#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The main demonstration, run in the guest by scripts/demo.sh: mount the
# three filesystems, give each the same workload (tests/prog/populate.c),
# and print what each pattern cost per inode, read from its statistics
# file. Timings are from one emulated boot: compare the ratios only.
set -eu

# scripts/demo.sh passes the number of files on the kernel command line.
files=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ipat.demo_files=//p')
files=${files:-10000}

# One "key: value" figure of a filesystem type's statistics.
stat_of() {
	sed -n "s/^$2: //p" "/proc/fs/inode_patterns/$1"
}

modprobe inode_patterns
echo "IPAT-DEMO-BEGIN"
echo "Each filesystem: $files files created, each with a user.* xattr, then"
echo "each file's birth time (statx) and xattr read back."
echo
printf '%-13s %-12s %-24s %7s %7s %7s %6s %6s %9s %9s\n' \
	fs pattern "holds the inode" "objs/i" "bytes/i" floor extra \
	"2nd" "create" "payload"
printf '%-13s %-12s %-24s %7s %7s %7s %6s %6s %9s %9s\n' \
	"" "" "" "" "" "" "" "alloc" "ns/file" "ns/file"
for fs in unionfs_demo embedfs_demo voidfs_demo; do
	mnt=/mnt/$fs
	mkdir -p "$mnt"
	mount -t "$fs" none "$mnt" -o "max_inodes=$((files + 1))"
	inodes0=$(stat_of "$fs" inode_objects_allocated)
	privs0=$(stat_of "$fs" private_objects_allocated)
	bytes0=$(stat_of "$fs" bytes_in_use)

	times=$(populate "$mnt" "$files")

	inodes=$(($(stat_of "$fs" inode_objects_allocated) - inodes0))
	privs=$(($(stat_of "$fs" private_objects_allocated) - privs0))
	bytes=$(($(stat_of "$fs" bytes_in_use) - bytes0))
	floor=$(($(stat_of "$fs" vfs_inode_size) + $(stat_of "$fs" payload_size)))
	create_ns=$(echo "$times" | sed -n 's/.*create_ns=\([0-9]*\).*/\1/p')
	payload_ns=$(echo "$times" | sed -n 's/.*payload_ns=\([0-9]*\).*/\1/p')
	printf '%-13s %-12s %-24s %7s %7s %7s %6s %6s %9s %9s\n' \
		"$fs" "$(stat_of "$fs" pattern)" "$(stat_of "$fs" inode_object)" \
		"$(((inodes + privs) / files))" "$((bytes / files))" \
		"$floor" "$((bytes / files - floor))" \
		"$(stat_of "$fs" private_alloc_size)" \
		"$((create_ns / files))" "$((payload_ns / files))"
	umount "$mnt"
done
echo
echo "objs/i:  allocations per inode (inode object + separate private object)"
echo "bytes/i: bytes those allocations take per inode, as allocated"
echo "floor:   sizeof(struct inode) + the private payload, $(stat_of embedfs_demo vfs_inode_size) + $(stat_of embedfs_demo payload_size)"
echo "extra:   bytes/i - floor: the union's largest member, or kmalloc's rounding"
echo "2nd:     size class of voidfs_demo's second allocation"
echo "IPAT-DEMO-END"
rmmod inode_patterns
