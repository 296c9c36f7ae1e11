#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark, run in the guest by /init in bench mode (make bench,
# bench/run.sh, which boots it under QEMU's icount: every time the
# guest measures is a count of instructions), or in quick mode by
# tests/guest/90-bench-quick.sh. Every filesystem gets the same runs, in
# chunks; in blocks (one filesystem's chunks of a phase after another's)
# or in turns (chunk by chunk; below, order). Results are "IPAT-BENCH ..."
# lines on stdout, read from the console log by bench/report.sh;
# progress goes to stderr, as "ipat-progress" lines that bench/run.sh
# and scripts/demo.sh show on the host (bench/progress.sh).
#
# Kernel command line (all optional):
#   ipat.bench=quick            N = 1,000, small loops, in turns (the
#                               test suite's gate, bench/gate.sh)
#   ipat.bench=demo             N = 10,000 in one directory, in blocks,
#                               the private-data path on 2,000 files, no
#                               other operations (scripts/demo.sh)
#   ipat.bench=cache            only the cache model's runs (ipat-bench
#                               cache, bench/cache.sh boots it with the
#                               plugin): 100,000 files cold, 16 hot
#   ipat.bench=cache-quick      the same with 10,000 files cold
#   ipat.bench_cache_files=N    the cold set (default: as the mode says)
#   ipat.bench_cache_passes=P   passes over the hot set (default 32)
#   ipat.bench_sizes=N[,N...]   file counts (default 10000,100000,1000000)
#   ipat.bench_reps=R           repetitions (default 1: the counts repeat)
#   ipat.bench_big_reps=R       repetitions at the largest size (default 1)
#   ipat.bench_big_fs=FS[,FS..] filesystems at the largest size (default:
#                               all of them)
#   ipat.bench_big_layouts=L[,L] layouts at the largest size: flat, spread
#                               (default: as ipat.bench_layouts)
#   ipat.bench_layouts=L[,L]    layouts at every size (default flat,spread;
#                               bench/run.sh boots one guest per layout)
#   ipat.bench_extras=LIST      the runs besides "files": payload, ops,
#                               xnames, comma-separated; 1: all of them
#                               (default), 0: none
#   ipat.bench_memcg=1          run in a memory cgroup (cgroup v2) of its own
#   ipat.bench_fs=FS[,FS...]    filesystems (default: all five)
#   ipat.bench_ops=N            files for the other operations (mkdir,
#                               rename, link, xattrs...: ipat-bench ops;
#                               default 50000, 1000 quick; 0: none), in 10
#                               chunks (quick: 20)
#   ipat.bench_xnames=N[,N...]  xattr names on one file (ipat-bench xnames,
#                               at most 5000; default: none): set, get,
#                               list, remove, per op, on all but ramfs
#   ipat.bench_order=ORDER      blocks: each filesystem runs all its chunks
#                               of a phase before the next (ipat-bench -B),
#                               so that a chunk's RCU frees are its own
#                               filesystem's; turns: chunk by chunk.
#                               Default: blocks; turns in quick mode, the
#                               order the gate's bounds were measured in
#   ipat.bench_trace=PHASE      profile one chunk of PHASE (create, stat,
#                               refill, unlink) of each "files" run: the
#                               middle chunk of the first filesystem runs
#                               under ftrace's function_graph, and each
#                               function's calls and own instructions
#                               print as "IPAT-BENCH ftrace" records
#                               (bench/ftrace-profile.awk).
#                               Those chunks' counts include the tracer's.
#   ipat.bench_clock=icount     recorded in the begin record: the guest
#                               clock counts instructions (QEMU_ICOUNT=1,
#                               bench/run.sh). The report refuses a
#                               log without it: its figures would be
#                               nanoseconds of an emulated CPU.
# The environment variable IPAT_BENCH=quick does the same as ipat.bench=quick.
#
# The full bench counts ~2.1e11 instructions in each of its two guests,
# ~18 min of one host core at the ~195 million a second measured here.
set -eu

param() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^ipat\.$1=//p" | tail -n 1
}

all_fs=unionfs_demo,embedfs_demo,voidfs_demo,ramfs,tmpfs
mode=${IPAT_BENCH:-$(param bench)}
mode=${mode:-full}
layouts=flat,spread extras=1 reps=1 big_reps=1 big_fs=$all_fs
# Blocks keep each filesystem's deferred frees (RCU callbacks) in its own
# chunks, which turns do not: in turns, unlink at N = 10,000 moved by up
# to 5% between boots, in blocks by 0.3%.
order=blocks
case $mode in
quick)
	# The gate's bounds (bench/bounds.txt) were measured in turns.
	sizes=1000 per_dir=100 warmup=500 order=turns
	payload_files=200 payload_passes=2 payload_reps=3
	ops_files=1000 ops_chunks=20
	;;
cache|cache-quick)
	# Nothing but the cache model's runs (below), after a warm-up.
	sizes='' per_dir=0 warmup=2000 layouts=flat extras=0 ops_files=0
	payload_files=0 payload_passes=0 payload_reps=0 ops_chunks=1
	cache_files=100000
	[ "$mode" = cache-quick ] && cache_files=10000
	;;
demo)
	sizes=10000 per_dir=1000 warmup=2000 layouts=flat extras=payload
	payload_files=2000 payload_passes=3 payload_reps=1
	ops_files=0 ops_chunks=10
	;;
*)
	sizes=10000,100000,1000000 per_dir=1000 warmup=20000
	payload_files=10000 payload_passes=6 payload_reps=3
	# An rmdir's or an unlink's frees run in RCU batches, about one a
	# 4 ms tick (CONFIG_HZ=250). A chunk of 500 is 2-4 ms: one chunk
	# holds a batch and the next none, and where the two kinds came
	# near half and half the median chunk flipped between them from one
	# boot to the next (rmdir, unlink_link and rename moved by 2-6%
	# between two full runs). Chunks of 5,000 hold six to ten batches.
	ops_files=50000 ops_chunks=10
	;;
esac
v=$(param bench_clock); clock=${v:-time}
v=$(param bench_layouts); layouts=$(echo "${v:-$layouts}" | tr , ' ')
big_layouts=$layouts
v=$(param bench_order); order=${v:-$order}
case $order in
blocks) order_arg=-B ;;
turns) order_arg= ;;
*) echo "bench: ipat.bench_order=$order: not blocks or turns" >&2; exit 1 ;;
esac
v=$(param bench_extras); extras=${v:-$extras}
v=$(param bench_sizes); sizes=$(echo "${v:-$sizes}" | tr , ' ')
v=$(param bench_reps); reps=${v:-$reps}
v=$(param bench_big_reps); big_reps=${v:-$big_reps}
v=$(param bench_fs); fslist=$(echo "${v:-$all_fs}" | tr , ' ')
v=$(param bench_big_fs); big_fs=" $(echo "${v:-$big_fs}" | tr , ' ') "
v=$(param bench_big_layouts); big_layouts=$(echo "${v:-$big_layouts}" | tr , ' ')
v=$(param bench_ops); ops_files=${v:-$ops_files}
v=$(param bench_xnames); xnames=$(echo "${v:-}" | tr , ' ')
largest=$(for n in $sizes; do echo "$n"; done | sort -n | tail -n 1)

mnt=/mnt/bench
mkdir -p "$mnt"
start=$(cut -d. -f1 /proc/uptime)
failed=0

elapsed() {
	echo $(($(cut -d. -f1 /proc/uptime) - start))
}

# progress WHAT...: a progress line for the host (bench/progress.sh), t
# the guest's clock since boot, as ipat-bench prints them.
progress() {
	echo "ipat-progress t=$(cut -d' ' -f1 /proc/uptime) $*" >&2
}

# A fresh filesystem for every run: nothing left over from the last one.
# Inode limits far above the largest N (both default to half of RAM's pages).
mount_fs() {
	mkdir -p "$mnt/$1"
	case $1 in
	ramfs)	mount -t ramfs none "$mnt/$1" ;;
	tmpfs)	mount -t tmpfs -o nr_inodes=4000000 none "$mnt/$1" ;;
	*)	mount -t "$1" -o max_inodes=4000000 none "$mnt/$1" ;;
	esac
}

# run "FS..." COMMAND...: mount each FS at $mnt/FS, run, unmount. A run
# that fails is reported and counted, and the bench goes on.
run() {
	fss=$1
	shift
	mounted=
	for fs in $fss; do
		if mount_fs "$fs"; then
			mounted="$mounted $fs"
		else
			echo "IPAT-BENCH error fs=$fs what=mount"
			failed=$((failed + 1))
		fi
	done
	if [ "$mounted" = " $(echo $fss)" ]; then
		"$@" || failed=$((failed + 1))
	fi
	for fs in $mounted; do
		umount "$mnt/$fs" || { echo "IPAT-BENCH error fs=$fs what=umount"; failed=$((failed + 1)); }
	done
}

modprobe inode_patterns

# ipat.bench_memcg=1: run in a memory cgroup of its own, where every
# accounted allocation is charged (in the root cgroup nothing is): what
# the accounting costs each pattern, beside the same run without it.
memcg=$(param bench_memcg)
if [ "${memcg:-0}" = 1 ]; then
	cg=/sys/fs/cgroup
	grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
	echo +memory >$cg/cgroup.subtree_control
	mkdir -p $cg/ipat-bench
	echo $$ >$cg/ipat-bench/cgroup.procs
fi

echo "IPAT-BENCH begin mode=$mode clock=$clock kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo)" \
	"mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" \
	"sizes=$(echo $sizes | tr ' ' ,) reps=$reps big_reps=$big_reps" \
	"big_fs=$(echo $big_fs | tr ' ' ,)" \
	"layouts=$(echo $layouts | tr ' ' ,) big_layouts=$(echo $big_layouts | tr ' ' ,)" \
	"per_dir=$per_dir warmup=$warmup extras=$extras order=$order" \
	"payload_files=$payload_files payload_passes=$payload_passes ops_files=$ops_files" \
	"slub_debug=$(grep -c slub_debug= /proc/cmdline || true) memcg=${memcg:-0}" \
	"dentry_hash=$(dmesg | sed -n 's/.*Dentry cache hash table entries: \([0-9]*\).*/\1/p')" \
	"module_md5=$(md5sum "$IPAT_MODULE" 2>/dev/null | cut -c1-12)"

# What each of ours says about itself: sizes, object names (spaces made _).
for fs in $fslist; do
	f=/proc/fs/inode_patterns/$fs
	[ -f "$f" ] || continue
	awk -F': ' -v fs="$fs" '
		BEGIN { printf "IPAT-BENCH fsinfo fs=%s", fs }
		$1 ~ /^(pattern|vfs_inode_size|payload_size|inode_object|inode_object_size|private_object_size|private_alloc_size|union_size|union_largest_member_size)$/ {
			v = $2; gsub(/ /, "_", v); printf " %s=%s", $1, v }
		END { print "" }' "$f"
done

# The caches that hold inodes, and what every file also costs.
for cache in union_inode_cache embedfs_inode_cache inode_cache kmalloc-cg-64 \
	     shmem_inode_cache dentry lsm_inode_cache; do
	d=/sys/kernel/slab/$cache
	[ -d "$d" ] || continue
	echo "IPAT-BENCH cache name=$cache object_size=$(cat "$d/object_size")" \
		"slab_size=$(cat "$d/slab_size") order=$(cat "$d/order")" \
		"objs_per_slab=$(cat "$d/objs_per_slab")"
done

# The runs of one size: all filesystems in turn, R times over.
runs_of() {
	r=$reps
	list=$fslist
	run_layouts=$layouts
	if [ "$1" = "$largest" ]; then
		r=$big_reps
		run_layouts=$(for l in $big_layouts; do
			case " $layouts " in *" $l "*) echo "$l" ;; esac
		done)
		list=
		for fs in $fslist; do
			case $big_fs in *" $fs "*) list="$list $fs" ;; esac
		done
	fi
}

total=0
for n in $sizes; do
	runs_of "$n"
	for layout in $run_layouts; do total=$((total + r)); done
done

# targets_of "FS...": ipat-bench's FS:DIR argument for each, one per word.
targets_of() {
	for fs in $1; do printf ' %s:%s/%s' "$fs" "$mnt" "$fs"; done
}

# Run a command with its results (stdout) thrown away; progress stays.
unreported() {
	"$@" >/dev/null
}

# A warm-up run, not reported: the first runs of a boot grow caches and
# tables the later ones find grown, which would count against the
# smallest N.
progress "warm-up, n=$warmup"
# shellcheck disable=SC2046 # one word per filesystem
run "$fslist" unreported ipat-bench files -n "$warmup" -D 0 -c "$((warmup / 10))" \
	-r 0 $(targets_of "$fslist")

# ipat.bench_trace: ipat-bench -t turns the tracer on for one chunk and
# copies what it recorded; its options are set here, while it is current.
trace=$(param bench_trace) trace_arg=
if [ -n "$trace" ]; then
	tracefs=/sys/kernel/tracing
	[ -f $tracefs/tracing_on ] || mount -t tracefs nodev $tracefs
	echo 0 >$tracefs/tracing_on
	echo 65536 >$tracefs/buffer_size_kb
	echo function_graph >$tracefs/current_tracer
	# Each line names its task (ftrace-profile.awk keeps a call stack
	# per task), and a frame does not count the time its task was
	# switched out: that time is the other task's, in its own frames.
	echo funcgraph-proc >$tracefs/trace_options
	echo nosleep-time >$tracefs/trace_options
	echo nop >$tracefs/current_tracer
	trace_arg="-t $trace"
	case $trace in
	create|refill) trace_per=__x64_sys_openat ;;
	stat) trace_per=__x64_sys_newfstatat ;;
	*) trace_per=__x64_sys_unlinkat ;;
	esac
fi

# profile TAG: the traced chunk's profile, after a run with -t.
profile() {
	[ -n "$trace" ] || return 0
	awk -v tag="$1 phase=$trace" -v per="$trace_per" \
		-f /bench/ftrace-profile.awk /tmp/ipat-bench.trace
	rm -f /tmp/ipat-bench.trace
}

# One run: all the filesystems at once, in blocks or in turns
# (bench/prog/common.c, chunk_order()). Twenty chunks a phase: enough for a median, few enough that reading
# /proc/slabinfo after each create chunk costs little.
i=0
for n in $sizes; do
	runs_of "$n"
	chunk=$((n / 20))
	[ "$chunk" -ge 50 ] || chunk=50
	for layout in $run_layouts; do
		D=0
		[ "$layout" = spread ] && D=$per_dir
		rep=1
		while [ "$rep" -le "$r" ]; do
			i=$((i + 1))
			progress "run $i of $total: n=$n $layout rep $rep"
			# shellcheck disable=SC2046 # one word per filesystem
			run "$list" ipat-bench files -n "$n" -D "$D" -c "$chunk" -r "$rep" \
				$order_arg $trace_arg $(targets_of "$list")
			profile "fs=$(echo $list | cut -d' ' -f1) layout=$layout n=$n rep=$rep"
			rep=$((rep + 1))
		done
	done
done

# Whether ipat.bench_extras asks for the run $1 (payload, ops...).
extra() {
	case ",$extras," in *,1,* | *",$1,"*) return 0 ;; esac
	return 1
}

# The private-data path: all filesystems at once, taking turns pass by
# pass; payload_reps times, each with new files.
rep=1
extra payload || rep=$((payload_reps + 1))
while [ "$rep" -le "$payload_reps" ]; do
	progress "payload rep $rep of $payload_reps, n=$payload_files"
	# shellcheck disable=SC2046 # one word per filesystem
	run "$fslist" ipat-bench payload -n "$payload_files" -p "$payload_passes" \
		-r "$rep" $(targets_of "$fslist")
	rep=$((rep + 1))
done

# The cache model's runs (ipat-bench cache; bench/cache.sh): per operation,
# the loads, stores and misses of a small hot set and of a cold one.
if [ -n "${cache_files:-}" ]; then
	v=$(param bench_cache_files); cache_files=${v:-$cache_files}
	v=$(param bench_cache_passes); cache_passes=${v:-32}
	progress "cache model, $cache_files files cold"
	# shellcheck disable=SC2046 # one word per filesystem
	run "$fslist" ipat-bench cache -n "$cache_files" -H 16 -p "$cache_passes" \
		$(targets_of "$fslist")
fi

# The other operations, all filesystems at once, chunk by chunk.
if extra ops && [ "$ops_files" -gt 0 ]; then
	progress "other operations, n=$ops_files"
	# shellcheck disable=SC2046 # one word per filesystem
	run "$fslist" ipat-bench ops -n "$ops_files" -c "$((ops_files / ops_chunks))" -r 1 $order_arg \
		$(targets_of "$fslist")
fi

# Many xattr names on one file: per-op figures flat in N show the store
# scales. ramfs has no xattrs.
xfs=$(echo $fslist | tr ' ' '\n' | grep -vx ramfs | tr '\n' ' ')
extra xnames || xnames=
for n in $xnames; do
	progress "$n xattr names on one file"
	# shellcheck disable=SC2046 # one word per filesystem
	run "$xfs" ipat-bench xnames -n "$n" $(targets_of "$xfs")
done

rmmod inode_patterns || failed=$((failed + 1))
progress "done"
echo "IPAT-BENCH end elapsed_s=$(elapsed) failed=$failed"
[ "$failed" -eq 0 ]
