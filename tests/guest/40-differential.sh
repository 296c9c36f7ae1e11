#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Differential workload: the same seeded sequence of operations
# (tests/prog/workload/) runs on a fresh tmpfs and on a fresh mount of each
# of our three filesystems; their outputs must be identical (st_blocks of
# regular files included: tests/prog/workload/main.c lists what is
# compared).  On the first
# difference this prints the seed, the operation and the two diverging
# lines.  The workload also checks user.* xattrs against its own model
# (tmpfs on 6.1 has none) and that btime is reported and not after ctime,
# on our filesystems only. Renames include RENAME_WHITEOUT, whose 0/0
# character device must be what tmpfs leaves.
#
# Seeds: IPAT_SEED .. IPAT_SEED+IPAT_WL_SEEDS-1 (default 6 seeds of
# IPAT_WL_OPS=400 operations), then the regression seeds (below).  The
# harness picks IPAT_SEED at random and prints it: tests/run-qemu.sh -s
# SEED -t 40-differential runs the same seeds again.  One seed by hand
# (tests/run-qemu.sh has no shell option; qemu/run.sh shell boots one),
# with the module loaded:
#   mkdir /mnt/a /mnt/b
#   mount -t tmpfs -o nodev none /mnt/a; workload --seed N /mnt/a >ref
#   mount -t embedfs_demo -o nodev none /mnt/b
#   workload --seed N --user-xattr=model --btime=required /mnt/b >out
#   cmp ref out
#
# Everything is mounted nodev: device nodes are created and compared, but
# opening one must not reach a driver.
set -u
. /tests/lib/guest.sh

nseeds=${IPAT_WL_SEEDS:-6}
ops=${IPAT_WL_OPS:-400}
base=${IPAT_SEED:-1}
case $base in ''|*[!0-9]*) base=1 ;; esac
work=${IPAT_TMP:-/tmp}/wl
mnt=/mnt/ipat-wl
ours="--user-xattr=model --btime=required"
failed=0

mkdir -p "$work" "$mnt"

cleanup() {
	grep -q " $mnt " /proc/mounts && umount "$mnt"
	return 0
}
trap cleanup EXIT

now() {
	cut -d' ' -f1 /proc/uptime
}

differ() {
	! cmp -s "$1" "$2"
}

# Where two different outputs part: a line number, or nothing when one
# is a prefix of the other.
first_diff() {
	cmp "$1" "$2" 2>&1 | sed -n 's/.* line \([0-9][0-9]*\).*/\1/p'
}

# The operation a line belongs to: the last line up to it that starts
# with an operation number.
op_of() {
	head -n "$2" "$1" | grep -E '^[0-9]{5} ' | tail -n 1
}

# report SEED NAME REF OUT: where OUT, from filesystem NAME, parts from REF.
report() {
	r_line=$(first_diff "$3" "$4")
	echo "FAIL: seed $1: $2 differs from tmpfs at line ${r_line:-?}"
	if [ -n "$r_line" ]; then
		echo "  operation: $(op_of "$3" "$r_line" | cut -c1-300)"
		echo "  tmpfs:     $(sed -n "${r_line}p" "$3" | cut -c1-300)"
		echo "  $2: $(sed -n "${r_line}p" "$4" | cut -c1-300)"
	else
		echo "  (one output is a prefix of the other)"
	fi
	echo "  first lines of the diff:"
	diff -u "$3" "$4" | head -n 24 | cut -c1-300 | sed 's/^/    /'
	echo "  rerun: tests/run-qemu.sh -s $base -t 40-differential, or in the guest:"
	echo "    workload --seed $1 --ops $ops on tmpfs, and"
	echo "    workload --seed $1 --ops $ops $ours on $2"
}

# run FSTYPE SEED OUT [OPTION...]: mount FSTYPE afresh, run the workload
# into OUT (its summary into OUT.err), umount.
run() {
	r_fs=$1 r_seed=$2 r_out=$3
	shift 3
	if ! mount -t "$r_fs" -o nodev none "$mnt"; then
		echo "FAIL: mount -t $r_fs failed"
		return 1
	fi
	workload --seed "$r_seed" --ops "$ops" "$@" "$mnt" >"$r_out" 2>"$r_out.err"
	r_rc=$?
	if ! umount "$mnt"; then
		echo "FAIL: umount of $r_fs failed (seed $r_seed)"
		return 1
	fi
	if [ "$r_rc" -ne 0 ]; then
		echo "FAIL: seed $r_seed: workload on $r_fs exited with $r_rc"
		grep -m 3 -e '!!' "$r_out" | cut -c1-300 | sed 's/^/  /'
		head -n 5 "$r_out.err" | sed 's/^/  /'
		return 1
	fi
	return 0
}

# Seeds that once found a difference, run after the random ones on every
# run, so that what they found stays fixed:
#   22013  truncate(2) to its own size of a file with pages stamps mtime
#          and ctime on tmpfs (src/file.c, ipat_file_setattr())
#   22     ... and leaves them when its only pages are those a read of its
#          hole left, where tmpfs allocates none (op 14)
#   45013  removexattr of user.* on a socket: ENODATA since 7.1, which
#          lets user.* onto sockets, where the model said EPERM
#          (tests/prog/workload/model.c, ux_sockets)
#   49596  a truncate to "its own size" through a symlink to a directory,
#          whose size is not compared (tmpfs's counts its entries): the
#          workload takes that size of files only (op 289)
regression_seeds="22013 22 45013 49596"

ipat_run modprobe inode_patterns

seeds=$(seq "$base" $((base + nseeds - 1)))
echo "workload: seeds $base..$((base + nseeds - 1)) and $regression_seeds," \
	"$ops operations each"
t0=$(now)
bad_fs=""
i=0
for seed in $seeds $regression_seeds; do
	ts=$(now)
	ref=$work/ref
	# auto: tmpfs keeps user.* xattrs from 6.6 on, not on 6.1.
	run tmpfs "$seed" "$ref" --user-xattr=auto || { failed=1; break; }
	if [ "$i" -eq 0 ]; then
		# The comparison means nothing unless a run is reproducible.
		sed -n 's/^/  /; /results per operation/,$p' "$ref.err"
		run tmpfs "$seed" "$work/ref2" --user-xattr=auto || { failed=1; break; }
		if differ "$ref" "$work/ref2"; then
			echo "FAIL: seed $seed: two tmpfs runs differ: the workload is not deterministic"
			report "$seed" "tmpfs (again)" "$ref" "$work/ref2"
			failed=1
			break
		fi
	fi
	for fs in $IPAT_FSTYPES; do
		# After its first failure a filesystem is not run again.
		case " $bad_fs " in *" $fs "*) continue ;; esac
		out=$work/out.$fs
		# shellcheck disable=SC2086 # $ours is a list of options
		if ! run "$fs" "$seed" "$out" $ours; then
			failed=1 bad_fs="$bad_fs $fs"
			# A failed check shows up as a difference too: show it.
			differ "$ref" "$out" && report "$seed" "$fs" "$ref" "$out"
			continue
		fi
		if differ "$ref" "$out"; then
			report "$seed" "$fs" "$ref" "$out"
			failed=1 bad_fs="$bad_fs $fs"
		fi
	done
	echo "seed $seed: $(grep -c . "$ref") lines, $(awk -v a="$ts" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')s"
	rm -f "$work"/out.* "$work"/ref2*
	i=$((i + 1))
done
echo "workload: $i seeds x $ops operations on tmpfs and $IPAT_FSTYPES in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')s"

cleanup
if ! rmmod inode_patterns; then
	echo "FAIL: rmmod inode_patterns failed"
	failed=1
fi
[ "$failed" -eq 0 ] || exit 1
echo "PASS: all filesystems matched tmpfs on every seed"
