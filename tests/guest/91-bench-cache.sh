#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The cache mode's guest program (ipat-bench cache, bench/prog/cache.c) on
# a small set, without the plugin (its markers are no-ops then), so that
# it cannot rot between cache runs: every measured part is announced with
# the record bench/report/cache.awk pairs with the plugin's lines, in the
# order and number the report expects, and each filesystem ends cleanly.
set -eu
. /tests/lib/guest.sh

all="unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs"
cold=300 hot=4 passes=2
modprobe inode_patterns
targets=
for fs in $all; do
	mkdir -p "/mnt/$fs"
	mount -t "$fs" none "/mnt/$fs"
	targets="$targets $fs:/mnt/$fs"
done
out=$IPAT_TMP/cache.out
# shellcheck disable=SC2086 # one word per filesystem
ipat-bench cache -n $cold -H $hot -p $passes $targets >"$out" ||
	{ cat "$out"; ipat_fail "ipat-bench cache exited with status $?"; }
for fs in $all; do
	umount "/mnt/$fs"
done
rmmod inode_patterns

# check DESCRIPTION COMMAND...: one named check (tests/harness/cases.awk).
status=0
check() {
	desc=$1
	shift
	if "$@"; then echo "ok $desc"; else echo "not ok $desc"; status=1; fi
}
phases() {	# phases FS REGIME [OP]: how many parts were announced
	grep -c "^IPAT-BENCH cache-phase .* fs=$1 regime=$2 .*op=${3:-[a-z_]*} " "$out" || true
}
ops="create stat statx_btime getxattr unlink"
for fs in $all; do
	check "$fs: $passes hot passes announce 5 parts each" [ "$(phases "$fs" hot)" -eq $((passes * 5)) ]
	check "$fs: the cold set announces 5 parts" [ "$(phases "$fs" cold)" -eq 5 ]
	for op in $ops; do
		check "$fs: cold $op is announced with ops=$cold" \
			grep -q "^IPAT-BENCH cache-phase .* fs=$fs regime=cold pass=1 op=$op id=[1-5] ops=$cold\$" "$out"
	done
	want=1
	[ "$fs" = ramfs ] && want=0
	check "$fs: ends with its summary, xattr=$want" \
		grep -q "^IPAT-BENCH cache-fs fs=$fs hot=$hot passes=$passes cold=$cold xattr=$want\$" "$out"
done
seqs=$(sed -n 's/^IPAT-BENCH cache-phase seq=\([0-9]*\) .*/\1/p' "$out" | tr '\n' ' ')
check "the parts are numbered 1 to $((5 * (passes + 1) * 5)) in order" \
	[ "$seqs" = "$(seq 1 $((5 * (passes + 1) * 5)) | tr '\n' ' ')" ]
check "no error records" sh -c "! grep -q '^IPAT-BENCH error' '$out'"
[ "$status" = 0 ] || { cat "$out"; ipat_fail "the cache mode's records are not as the report expects"; }
