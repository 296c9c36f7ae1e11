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
set -eu
. /tests/lib/guest.sh

ipat_fault_setup
ipat_run modprobe inode_patterns
ipat_failslab_marked union_inode_cache embedfs_inode_cache

results=$IPAT_TMP/results
: >"$results"
for pass in slab page; do
	ipat_fault_pass $pass
	for fs in $IPAT_FSTYPES; do
		echo "== failnth $fs ($pass pass)"
		if ! failnth "$fs" "$IPAT_TMP" $pass >"$IPAT_TMP/out"; then
			cat "$IPAT_TMP/out"
			ipat_fault_restore
			ipat_fail "failnth $fs $pass"
		fi
		cat "$IPAT_TMP/out"
		grep '^FAILNTH ' "$IPAT_TMP/out" >>"$results"
	done
done
ipat_fault_restore

# The table the report quotes: per call, the fault points that failed it,
# slab pass / page pass. Absorbed faults (the call succeeded anyway) apart.
echo "== fault points that failed the call: slab pass/page pass"
awk '
	{ failed[$2 "," $3 "," $4] = $6 }
	$7 > 0 { print "absorbed: " $2 " " $3 " " $4 ": " $7 }
	END {
		split("unionfs_demo embedfs_demo voidfs_demo", fss, " ")
		printf "%-13s %13s %13s %13s\n", "call", fss[1], fss[2], fss[3]
		n = split("mount remount create mkdir mknod symlink link rename setxattr replacexattr tmpfile aclcreate aclmkdir setacl write truncate", order, " ")
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
for call in mount create mkdir mknod symlink tmpfile aclcreate aclmkdir; do
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

if [ -e $ipat_dbg/kmemleak ]; then
	ipat_kmemleak "$IPAT_TMP/leaks"
	if [ -s "$IPAT_TMP/leaks" ]; then
		head -n 60 "$IPAT_TMP/leaks"
		ipat_fail "kmemleak reports leaks after fault injection"
	fi
	echo "ok: kmemleak found no leak"
fi
ipat_run rmmod inode_patterns
