#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Memory-cgroup accounting: everything a user makes the kernel allocate for
# a file is charged to that user's memory cgroup. In a cgroup-v2 group, one
# process creates N files on ramfs (the reference: its inode comes from
# the VFS's accounted inode_cache) and on each of ours
# (tests/prog/memcg.c); per file, each of ours must be charged at least
# what ramfs is (the same dentry, an inode object at least as big; 64 bytes
# of slack, see below), and
# voidfs_demo, whose inode comes from that same inode_cache, must be
# charged its second allocation on top: at least the 40-byte payload more
# than ramfs. Before its kmalloc() was GFP_KERNEL_ACCOUNT, voidfs_demo was
# charged what ramfs is, its private data not at all.
#
# Skips on a kernel without cgroup v2 or its memory controller (the
# debug kernels).
set -eu
. /tests/lib/guest.sh

cg=/sys/fs/cgroup
files=${IPAT_MEMCG_FILES:-4000}
# The limit's room for files, KiB, and what the slab charge may stay above
# its start after unmount (bytes): partly used slab pages' objects freed
# after an RCU grace period are waited for (below), this is what is left
# in flight.
room=2048 slack=16384
grep -qw cgroup2 /proc/filesystems && [ -d $cg ] ||
	ipat_skip "no cgroup v2 in this kernel"
grep -q " $cg cgroup2 " /proc/mounts || ipat_run mount -t cgroup2 none $cg
grep -qw memory $cg/cgroup.controllers 2>/dev/null ||
	ipat_skip "no memory cgroup controller in this kernel"
ipat_run sh -c "echo +memory >$cg/cgroup.subtree_control"
group=$cg/ipat-memcg
mkdir -p $group
ipat_run modprobe inode_patterns

# Sets $charged to the bytes charged per file on a new mount of type $1,
# counted in a group of its own: the inodes of the mount before are freed
# after an RCU grace period, and uncharged from the group they were charged
# to. In one group for all, those landing while the next mount counts made
# it look cheaper than it is (embedfs_demo once 1,075 bytes a file against
# ramfs's 1,108).
charge() {
	mnt=$IPAT_TMP/$1 one=$cg/ipat-memcg-$1
	mkdir -p "$mnt" "$one"
	ipat_run mount -t "$1" none "$mnt"
	# The child joins the group, then memcg alone runs there.
	out=$(sh -c "echo \$\$ >$one/cgroup.procs && exec memcg charge $one $mnt $files") ||
		{ umount "$mnt"; ipat_fail "memcg on $1: $out"; }
	ipat_run umount "$mnt"
	rmdir "$one" 2>/dev/null || true
	charged=$(echo "$out" | sed -n 's/^MEMCG-CHARGE //p')
	[ -n "$charged" ] || ipat_fail "memcg on $1 printed no charge: $out"
	echo "$1: $charged bytes charged per file"
}

charge ramfs
ramfs=$charged
for fs in $IPAT_FSTYPES; do
	charge "$fs"
	got=$charged
	# The figure moves from boot to boot by more than per-CPU stocks
	# explain (ramfs's on 6.1 from 1,027 to 1,108 bytes a file); an
	# allocation left uncharged would take hundreds of bytes off.
	[ "$got" -ge $((ramfs - 64)) ] ||
		ipat_fail "$fs: $got bytes charged per file, less than ramfs's $ramfs"
	eval "charged_$fs=$got"
done
# shellcheck disable=SC2154 # set by the eval above
[ "$charged_voidfs_demo" -ge $((ramfs + 40)) ] ||
	ipat_fail "voidfs_demo: $charged_voidfs_demo bytes per file, not ramfs's $ramfs plus its private object (>= 40): the second allocation is not charged"
echo "ok: each pattern's allocations are charged to the creator's memory cgroup"

slab() {
	awk '$1 == "slab" { print $2 }' $group/memory.stat
}

# The allocation the limit failed last, from its OOM report's stack: the
# callers of the slab allocator, up to the VFS.
failed_in() {
	dmesg | awk '
		/ invoked oom-killer:/ { frames = ""; on = 0 }
		{ sub(/^\[[^]]*\] */, ""); f = $1; sub(/\+.*/, "", f) }
		f ~ /^(vfs_create|filename_create)$/ { on = 0 }
		on && f != "?" { frames = frames (frames == "" ? "" : " <- ") f }
		f ~ /^(kmem_cache_alloc|__kmalloc|kmalloc)/ { on = 1 }
		END { print frames }'
}

# The limit stops an unkillable runaway creator on a new mount of type $1
# with ENOMEM (memcg.c asserts it all); then the charge goes back.
runaway() {
	mnt=$IPAT_TMP/$1
	mkdir -p "$mnt"
	ipat_run mount -t "$1" none "$mnt"
	before=$(slab)
	fstype=
	[ "$1" = ramfs ] || fstype=$1
	out=$(ipat_expect oom sh -c "echo \$\$ >$group/cgroup.procs && exec memcg runaway $group $mnt $room $fstype") ||
		{ umount "$mnt"; ipat_fail "memcg runaway on $1: $out"; }
	ipat_run umount "$mnt"
	result=$(echo "$out" | sed -n 's/^MEMCG-RUNAWAY //p')
	[ -n "$result" ] || ipat_fail "memcg runaway on $1 printed no result: $out"
	read -r made at_limit errno <<-EOF
	$result
	EOF
	# Objects freed after an RCU grace period, and memory.stat flushed
	# every 2 seconds: wait up to 10 s for the charge to come back.
	tries=0
	while [ $(($(slab) - before)) -gt $slack ] && [ $tries -lt 20 ]; do
		sleep 0.5
		tries=$((tries + 1))
	done
	after=$(slab)
	echo "$1: $errno after $made files (failed: $(failed_in)); slab charge $before bytes, $at_limit at the limit, $after after unmount"
	[ $((after - before)) -le $slack ] ||
		ipat_fail "$1: the slab charge is $((after - before)) bytes above its start after unmount"
}

for fs in ramfs $IPAT_FSTYPES; do
	runaway "$fs"
done
ipat_run rmmod inode_patterns
rmdir $group
echo "ok: the limit stops an unkillable creator with an error, nothing half-made, nothing left charged"
