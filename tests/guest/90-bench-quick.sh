#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The bench in quick mode (N = 1,000, one repetition), so that it cannot
# rot between real runs: every record it must print is there and sane.
# Its figures are only checked to be positive: this guest's clock is not
# icount's (the counts are held to bounds by bench/gate.sh), and
# slub_debug, on in test mode, would distort them anyway.
set -eu
. /tests/lib/guest.sh

[ -f /bench/guest.sh ] || ipat_fail "/bench/guest.sh is not in the image"
out=$IPAT_TMP/bench.out
IPAT_BENCH=quick sh /bench/guest.sh >"$out" ||
	{ cat "$out"; ipat_fail "bench/guest.sh exited with status $?"; }
cat "$out"

n=1000
all="unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs"

# Field $2 of the records of type $1 matching $3, as "key=value" words.
records() {
	grep "^IPAT-BENCH $1 " "$out" | grep -- "$2" || true
}
field() {	# field KEY LINE
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

grep -q '^IPAT-BENCH begin mode=quick ' "$out" || ipat_fail "no begin record"
grep -q '^IPAT-BENCH end .*failed=0$' "$out" || ipat_fail "no end record with failed=0"
grep -q '^IPAT-BENCH error' "$out" && ipat_fail "error records: $(grep '^IPAT-BENCH error' "$out")"
[ -z "$(records files ' rep=0 ')" ] || ipat_fail "the warm-up run's results were reported"

for fs in $all; do
	for layout in flat spread; do
		line=$(records files "fs=$fs layout=$layout n=$n rep=1 ")
		[ -n "$line" ] || ipat_fail "no files record for $fs $layout"
		for phase in create stat refill unlink; do
			ns=$(field "${phase}_ns" "$line")
			[ "${ns:-0}" -gt 0 ] || ipat_fail "$fs $layout: ${phase}_ns is '$ns'"
			for stat in med min; do
				v=$(field "${phase}_${stat}_ns" "$line")
				awk -v v="$v" 'BEGIN { exit !(v > 0) }' ||
					ipat_fail "$fs $layout: ${phase}_${stat}_ns is '$v'"
			done
		done
	done
	line=$(records payload "fs=$fs ")
	[ -n "$line" ] || ipat_fail "no payload record for $fs"
	for key in statx_med_ns getxattr_med_ns; do
		v=$(field $key "$line" | head -n 1)
		awk -v v="$v" 'BEGIN { exit !(v > 0) }' || ipat_fail "$fs: payload $key is '$v'"
	done
done

# Memory: each filesystem's inode cache grew by about one object a file.
inode_cache() {
	case $1 in
	unionfs_demo) echo union_inode_cache ;;
	embedfs_demo) echo embedfs_inode_cache ;;
	voidfs_demo|ramfs) echo inode_cache ;;
	tmpfs) echo shmem_inode_cache ;;
	esac
}
for fs in $all; do
	cache=$(inode_cache "$fs")
	line=$(records slab "fs=$fs layout=flat n=$n rep=1 cache=$cache ")
	d=$(field d_objs "$line")
	if [ "${d:-0}" -lt $((n * 9 / 10)) ] || [ "$d" -gt $((n * 11 / 10)) ]; then
		ipat_fail "$fs: $cache grew by '$d' objects for $n files"
	fi
done
# voidfs_demo's private objects are charged to the memory cgroup
# (GFP_KERNEL_ACCOUNT), so they come from the accounted kmalloc-cg-64.
line=$(records slab "fs=voidfs_demo layout=flat n=$n rep=1 cache=kmalloc-cg-64 ")
d=$(field d_objs "$line")
[ "${d:-0}" -ge $((n * 9 / 10)) ] || ipat_fail "voidfs_demo: kmalloc-cg-64 grew by '$d' for $n files"

# The statistics file counts exactly: one object per inode, two for voidfs.
for fs in unionfs_demo embedfs_demo voidfs_demo; do
	for layout in flat spread; do
		line=$(records stats "fs=$fs layout=$layout n=$n rep=1 ")
		[ "$(field d_inodes_live "$line")" = $n ] || ipat_fail "$fs $layout: d_inodes_live in '$line'"
		[ "$(field d_inode_objects_allocated "$line")" = $n ] ||
			ipat_fail "$fs $layout: d_inode_objects_allocated in '$line'"
		want=0
		[ "$fs" = voidfs_demo ] && want=$n
		[ "$(field d_private_objects_allocated "$line")" = $want ] ||
			ipat_fail "$fs $layout: d_private_objects_allocated should be $want in '$line'"
	done
	line=$(records payload "fs=$fs ")
	[ "$(field btime "$line" | sort -u)" = 1 ] || ipat_fail "$fs: statx gave no birth time"
	[ "$(field xattr "$line" | sort -u)" = 1 ] || ipat_fail "$fs: xattrs failed"
	records fsinfo "fs=$fs " | grep -q 'vfs_inode_size=[1-9]' || ipat_fail "no fsinfo for $fs"
done

echo "ok: bench quick mode printed every record"
