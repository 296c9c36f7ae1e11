#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: install what the bench needs, build, boot the guests in
# bench mode (bench/guest.sh), and turn their console logs into tables,
# CSV and plots (bench/report.sh).
#
#   bench/run.sh [--quick] [--out DIR] [PARAM=VALUE...]
#     Every figure the guest measures is a count of instructions: QEMU
#     runs it with icount (QEMU_ICOUNT=1, see qemu/run.sh), one vCPU, and
#     the counts are the same from boot to boot whatever the host does.
#     Two guests run side by side, one per layout (flat, spread), each on
#     one host core; the report joins them. Default DIR:
#     results/bench/<kernel series>/, and then bench/report/overview.sh
#     draws results/bench/overview.png from every series' report there
#     (not for another DIR, whose neighbours are not reports).
#     --quick    N = 1,000, one guest: a check that the bench works, into
#                build/bench-quick/ (and the test suite's gate,
#                bench/gate.sh)
#     --out DIR  where the report goes
#     ipat.bench_*=VALUE  passed to the guest; see bench/guest.sh; any
#                other kernel parameter too (init_on_alloc=0, ...)
#   QEMU_MEM      guest MiB (default 8192: at 1,000,000 files the five
#                 filesystems hold ~0.95 GiB each, all at once)
#   QEMU_TIMEOUT  seconds before a boot is killed (default 3600)
#   QEMU_INITRD   boot this image as it is: no install, no build (the test
#                 suite's bench gate, bench/gate.sh)
#   IPAT_LOG      the console log's name (default: bench); the two guests
#                 of the full bench add -flat and -spread
#
# While the guests run, a progress line says where each is
# (bench/progress.sh). The guests' console logs stay in
# build/logs/$IPAT_LOG*.log.
set -eu
cd "$(dirname "$0")/.."

out='' quick=0 params=(ipat.bench_clock=icount)
while [ $# -gt 0 ]; do
	case $1 in
	--quick) params+=(ipat.bench=quick); quick=1; shift ;;
	--out) out=$2; shift 2 ;;
	*=*) params+=("$1"); shift ;;
	*) echo "usage: bench/run.sh [--quick] [--out DIR] [PARAM=VALUE...]" >&2; exit 2 ;;
	esac
done

if [ -z "${QEMU_INITRD:-}" ]; then
	# gnuplot draws the plots: bench only. stress-ng: the image is the
	# test suite's, whole (its size moves the counts; qemu/mkinitramfs.sh).
	scripts/install-deps.sh gnuplot-nox stress-ng
	make
	scripts/build-progs.sh
	qemu/mkinitramfs.sh
fi
initrd=${QEMU_INITRD:-build/initramfs.cpio.gz}
kver=$(cat "${initrd%.cpio.gz}.kver")
if [ "$quick" = 1 ]; then
	out=${out:-build/bench-quick}
else
	out=${out:-results/bench/$(echo "$kver" | cut -d. -f1-2)}
fi

# The kernel sizes its dentry hash table from RAM at boot (1M buckets at
# 8 GiB). At N = 1,000,000 the five filesystems hold 5M dentries at once,
# and every lookup (stat, and create's negative lookup) would walk chains
# of five: measured at 300,000 files in two filesystems, stat ran at 0.58x
# the rate it ran with enough buckets. That is the hash table's cost, not
# the filesystem's, so the bench boots with 8M buckets (64 MiB).
params=(dhash_entries=8388608 "${params[@]}")

name=${IPAT_LOG:-bench}
# boot LOGNAME [PARAM...]: one guest; its qemu exit status in $LOGNAME.rc.
boot() {
	local log=$1 rc=0
	shift
	rm -f "build/logs/$log.log"
	QEMU_ICOUNT=1 IPAT_LOG=$log QEMU_MEM=${QEMU_MEM:-8192} \
		QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600} qemu/run.sh bench "$@" || rc=$?
	echo "$rc" >"build/logs/$log.rc"
}

start=$(date +%s)
mkdir -p build/logs
# What a guest counts, boot included, in seconds of its icount clock
# (instructions / 1e9), for the progress line: what the last run of the
# same log counted, else about what a guest of the full bench (163 to 191
# on the two kernels) and the quick bench's (6 to 7) count.
default_total=185
[ "$quick" = 1 ] && default_total=7
guest() {	# guest LABEL LOGNAME: LABEL:LOG:TOTAL for bench/progress.sh
	local log=build/logs/$2.log total
	total=$(bench/progress.sh --total "$log")
	echo "$1:$log:${total:-$default_total}"
}
pids=()
if [ "$quick" = 0 ]; then
	# One guest per layout, side by side: each is one vCPU, and what one
	# counts does not depend on what the other does.
	# The flat guest's files runs take a little longer (one directory of
	# 1,000,000) and it has the payload runs, so the other operations go
	# to the spread one.
	guests=("$(guest flat "$name-flat")" "$(guest spread "$name-spread")")
	boot "$name-flat" "${params[@]}" ipat.bench_layouts=flat ipat.bench_extras=payload,xnames >/dev/null &
	pids+=($!)
	boot "$name-spread" "${params[@]}" ipat.bench_layouts=spread ipat.bench_extras=ops >/dev/null &
	pids+=($!)
	logs=("build/logs/$name-flat.log" "build/logs/$name-spread.log")
else
	guests=("$(guest quick "$name")")
	boot "$name" "${params[@]}" >/dev/null &
	pids+=($!)
	logs=("build/logs/$name.log")
fi
# Where the guests are, until they end (bench/progress.sh).
bench/progress.sh --until "${pids[*]}" bench "${guests[@]}"
for pid in "${pids[@]}"; do wait "$pid" || true; done
rc=$(for log in "${logs[@]}"; do cat "${log%.log}.rc"; done | sort -n | tail -n 1)
echo "bench: guests finished after $(($(date +%s) - start))s (qemu exit $rc)"

# The report is the records' alone: what ran where and when is not in it.
bench/report.sh "$out" "${logs[@]}"

status=0
for log in "${logs[@]}"; do
	if ! scripts/check-log.sh "$log"; then
		echo "bench: the kernel reported a bug during the bench (above; $log)" >&2
		status=1
	fi
	end=$(tr -d '\r' <"$log" | grep -o 'IPAT-BENCH end .*' | tail -n 1 || true)
	case $end in
	*failed=0) ;;
	'') echo "bench: the bench did not finish (qemu exit $rc); see $log" >&2; status=1 ;;
	*) echo "bench: some runs failed ($end); see $log" >&2; status=1 ;;
	esac
done
if [ "$quick" = 0 ] && [ "$out" = "results/bench/$(basename "$out")" ]; then
	# The README's picture: this series and every other one beside it
	# (results/bench/*/), from their CSV files.
	bench/report/overview.sh "$(dirname "$out")" || status=1
fi
echo "bench: report in $out/bench.md"
exit $status
