#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: install what the bench needs, build, boot the guest once in
# bench mode (tests/bench.sh), and turn its console log into tables, CSV
# and plots (scripts/bench-report.sh).
#
#   scripts/bench.sh [--quick] [--icount] [--out DIR] [ipat.bench_*=VALUE...]
#     --quick    N = 1,000, one repetition: a check that the bench works,
#                written to build/bench-quick/ (default: results/bench/)
#     --icount   instruction mode (QEMU_ICOUNT=1, see qemu/run.sh): one
#                vCPU, and every figure the guest times is a count of
#                instructions, the same from boot to boot; also writes
#                DIR/icount.txt (scripts/bench-icount.sh). Default DIR:
#                build/bench-icount/ (--quick: build/bench-quick-icount/)
#     --out DIR  where the report goes
#     ipat.bench_*=VALUE  passed to the guest; see tests/bench.sh, e.g.
#                ipat.bench_big_reps=3 ipat.bench_big_layouts=flat,spread
#                for the full matrix at 1,000,000 (~60 min; give it
#                QEMU_TIMEOUT=7200)
#   QEMU_MEM      guest MiB (default 8192: at 1,000,000 files the five
#                 filesystems hold ~0.95 GiB each, all at once)
#   QEMU_TIMEOUT  seconds before the boot is killed (default 3600)
#   QEMU_INITRD   boot this image as it is: no install, no build (the test
#                 suite's bench gate, tests/bench-gate.sh)
#   IPAT_LOG      the console log's name (default: bench)
#
# The guest's console log stays in build/logs/$IPAT_LOG.log.
set -eu
cd "$(dirname "$0")/.."

out='' quick=0 icount=0 params=()
while [ $# -gt 0 ]; do
	case $1 in
	--quick) params+=(ipat.bench=quick); quick=1; shift ;;
	--icount) params+=(ipat.bench_clock=icount); icount=1; shift ;;
	--out) out=$2; shift 2 ;;
	ipat.bench*=*) params+=("$1"); shift ;;
	*) echo "usage: scripts/bench.sh [--quick] [--icount] [--out DIR] [ipat.bench_*=VALUE...]" >&2; exit 2 ;;
	esac
done
case $quick$icount in
00) out=${out:-results/bench} ;;
10) out=${out:-build/bench-quick} ;;
01) out=${out:-build/bench-icount} ;;
11) out=${out:-build/bench-quick-icount} ;;
esac

if [ -z "${QEMU_INITRD:-}" ]; then
	# fs_mark is the independent peer, gnuplot draws the plots: bench only.
	scripts/install-deps.sh gnuplot-nox fsmark
	make
	qemu/mkinitramfs.sh
fi

# The kernel sizes its dentry hash table from RAM at boot (1M buckets at
# 8 GiB). At N = 1,000,000 the five filesystems hold 5M dentries at once,
# and every lookup (stat, and create's negative lookup) would walk chains
# of five: measured at 300,000 files in two filesystems, stat ran at 0.58x
# the rate it ran with enough buckets. That is the hash table's cost, not
# the filesystem's, so the bench boots with 8M buckets (64 MiB).
params=(dhash_entries=8388608 "${params[@]}")

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
rc=0
name=${IPAT_LOG:-bench}
QEMU_ICOUNT=$icount IPAT_LOG=$name QEMU_MEM=${QEMU_MEM:-8192} \
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600} qemu/run.sh bench "${params[@]}" || rc=$?
wall=$(($(date +%s) - start))
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
log=build/logs/$name.log
echo "bench: guest finished after ${wall}s (qemu exit $rc); host load average $load_before before, $load_after after"

source=$(git describe --always --dirty 2>/dev/null || echo unknown)
BENCH_WALL_S=$wall BENCH_LOAD_BEFORE=$load_before BENCH_LOAD_AFTER=$load_after \
	BENCH_SOURCE="git $source" scripts/bench-report.sh "$log" "$out"
if [ "$icount" = 1 ]; then
	scripts/bench-icount.sh "$log" >"$out/icount.txt" && cat "$out/icount.txt" ||
		echo "bench: no instruction table (above)" >&2
fi

status=0
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
echo "bench: report in $out/bench.md"
exit $status
