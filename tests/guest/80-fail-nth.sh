#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Systematic allocation-failure injection (tests/prog/failnth.c) into every
# call that allocates on each filesystem, in two passes: slab allocations
# (failslab), then page allocations (fail_page_alloc). Every injected fault
# must fail its call with ENOMEM and change nothing visible; afterwards no
# inode may be left and kmemleak must find nothing. voidfs_demo's second
# allocation per inode must show as one fault point more than embedfs_demo
# in every call that makes an inode.
#
# Needs a kernel with fault injection (the debug kernel); on any other it
# skips.
# ipat-timeout: 900
set -eu
. /tests/lib/guest.sh

if [ ! -e /proc/thread-self/fail-nth ]; then
	ipat_skip "no fail-nth (kernel without CONFIG_FAULT_INJECTION)"
fi
dbg=/sys/kernel/debug
grep -q " $dbg debugfs " /proc/mounts || ipat_run mount -t debugfs none $dbg
for dir in failslab fail_page_alloc; do
	[ -d "$dbg/$dir" ] || ipat_fail "fail-nth but no $dbg/$dir"
done

# Writes a value, failing loudly if the kernel refuses it.
put() {
	echo "$2" >"$1" || ipat_fail "cannot write '$2' to $1"
}

restore() {
	put $dbg/failslab/cache-filter N
	put $dbg/fail_page_alloc/min-order 1
	for dir in failslab fail_page_alloc; do
		put $dbg/$dir/ignore-gfp-wait Y
		put $dbg/$dir/verbose 2
	done
	put $dbg/fail_page_alloc/ignore-gfp-highmem Y
}

ipat_run modprobe inode_patterns

# failslab's cache filter leaves out kmemleak's own caches: its metadata
# allocation after each real one has a fallback pool, so a fault there is
# absorbed and would double the points. The filter flag can only be set at
# boot: tests/run-qemu.sh boots the debug kernel with
# slub_debug=FZPUA;FZPU,kmemleak_object,kmemleak_scan_area.
for cache in kmalloc-64 dentry union_inode_cache embedfs_inode_cache; do
	[ "$(cat /sys/kernel/slab/$cache/failslab)" = 1 ] ||
		ipat_fail "$cache is not marked for failslab: boot with slub_debug=FZPUA;FZPU,kmemleak_object,kmemleak_scan_area"
done
if [ -e /sys/kernel/slab/kmemleak_object ]; then
	[ "$(cat /sys/kernel/slab/kmemleak_object/failslab)" = 0 ] ||
		ipat_fail "kmemleak_object is marked for failslab (see slub_debug above)"
fi

# fail-nth counts only the allocations a fault attribute would consider:
# by default both skip any that may sleep, that is nearly all of ours.
# task-filter goes before probability, which stays 0: fail-nth needs
# neither, and nothing else may inject. verbose 0: an injected fault is
# expected here, not a report for the log check.
for dir in failslab fail_page_alloc; do
	put $dbg/$dir/task-filter Y
	put $dbg/$dir/probability 0
	put $dbg/$dir/ignore-gfp-wait N
	put $dbg/$dir/verbose 0
done
put $dbg/fail_page_alloc/ignore-gfp-highmem N
put $dbg/failslab/cache-filter Y

if [ -e $dbg/kmemleak ]; then
	# Leaks from before this test are not this test's.
	put $dbg/kmemleak scan
	put $dbg/kmemleak clear
fi

results=$IPAT_TMP/results
: >"$results"
for pass in slab page; do
	if [ $pass = slab ]; then
		# Orders below min-order are never failed: no page at all.
		put $dbg/fail_page_alloc/min-order 11
	else
		# Every page, and no slab object that may sleep (all of ours).
		put $dbg/fail_page_alloc/min-order 0
		put $dbg/failslab/ignore-gfp-wait Y
	fi
	for fs in $IPAT_FSTYPES; do
		echo "== failnth $fs ($pass pass)"
		if ! failnth "$fs" "$IPAT_TMP" $pass >"$IPAT_TMP/out"; then
			cat "$IPAT_TMP/out"
			restore
			ipat_fail "failnth $fs $pass"
		fi
		cat "$IPAT_TMP/out"
		grep '^FAILNTH ' "$IPAT_TMP/out" >>"$results"
	done
done
restore

# The table the report quotes: per call, the fault points that failed it,
# slab pass / page pass. Absorbed faults (the call succeeded anyway) apart.
echo "== fault points that failed the call: slab pass/page pass"
awk '
	{ failed[$2 "," $3 "," $4] = $6 }
	$7 > 0 { print "absorbed: " $2 " " $3 " " $4 ": " $7 }
	END {
		split("unionfs_demo embedfs_demo voidfs_demo", fss, " ")
		printf "%-13s %13s %13s %13s\n", "call", fss[1], fss[2], fss[3]
		n = split("mount remount create mkdir mknod symlink link rename setxattr replacexattr tmpfile write truncate", order, " ")
		for (i = 1; i <= n; i++) {
			line = sprintf("%-13s", order[i])
			for (j = 1; j <= 3; j++) {
				s = failed[fss[j] ",slab," order[i]]
				p = failed[fss[j] ",page," order[i]]
				line = line sprintf(" %13s", s "/" p)
				ts[j] += s; tp[j] += p
			}
			print line
		}
		line = sprintf("%-13s", "total")
		for (j = 1; j <= 3; j++)
			line = line sprintf(" %13s", ts[j] "/" tp[j])
		print line
	}' "$results" | sed 's/^/FAILNTH-TABLE /'

# Faults that failed the call: an absorbed one (a KASAN stack depot page,
# allocated with __GFP_NOWARN, which it can do without) varies run to run.
points() {
	awk -v fs="$1" -v call="$2" '$2 == fs && $3 == "slab" && $4 == call { print $6 }' "$results"
}
for call in mount create mkdir mknod symlink tmpfile; do
	u=$(points unionfs_demo $call)
	e=$(points embedfs_demo $call)
	v=$(points voidfs_demo $call)
	[ -n "$u" ] && [ -n "$e" ] && [ -n "$v" ] || ipat_fail "no $call result"
	[ "$u" -eq "$e" ] ||
		ipat_fail "$call: unionfs_demo $u slab fault points, embedfs_demo $e"
	[ "$v" -eq $((e + 1)) ] ||
		ipat_fail "$call: voidfs_demo $v slab fault points, not embedfs_demo's $e + 1"
done
echo "ok: voidfs_demo has its one extra fault point in each inode-making call"

for fs in $IPAT_FSTYPES; do
	live=$(awk '$1 == "inodes_live:" { print $2 }' /proc/fs/inode_patterns/$fs)
	[ "$live" = 0 ] || ipat_fail "$fs: $live inodes live after unmount"
done

if [ -e $dbg/kmemleak ]; then
	# A new object is too young to report for 5 seconds: scan, wait, scan.
	put $dbg/kmemleak scan
	sleep 6
	put $dbg/kmemleak scan
	leaks=$(cat $dbg/kmemleak)
	if [ -n "$leaks" ]; then
		echo "$leaks" | head -n 60
		ipat_fail "kmemleak reports leaks after fault injection"
	fi
	echo "ok: kmemleak found no leak"
fi
ipat_run rmmod inode_patterns
