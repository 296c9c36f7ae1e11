#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench CACHE=1: the cache mode of the benchmark. For every installed
# Debian kernel (or KVER's), builds the module and an image, and boots the
# guests side by side under icount with the cache-model plugin
# (bench/cache-model/), running only the guest's cache runs
# (bench/guest.sh ipat.bench=cache, bench/prog/cache.c): per operation,
# the loads, stores and misses of a hot set and of a cold one. Then
# bench/report/cache.awk writes, per kernel series, cache.md (tables and
# the article's dereference claim) and cache.csv, and keeps the records
# and the plugin's lines in cache-raw.txt, from which
# `bench/cache.sh --report DIR` makes them again.
#
#   bench/cache.sh [--quick] [--out DIR] [kernel parameter ...]
#   bench/cache.sh --compare DIR DIR   two runs' largest differences
#     --quick   10,000 files cold, the LLC modelled at 4 MiB so that the
#               cold set still far exceeds it: into build/bench-cache-quick/
#     --out DIR reports into DIR/<series>/ (default results/bench/)
#     kernel parameters are the guest's too: log_buf_len=8M runs the same
#               code with its objects in other physical pages
#   KVER=<ver> bench/cache.sh   that kernel only
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=bench/guests.sh
. bench/guests.sh

quick=0 out='' params=()
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--out) out=$2; shift 2 ;;
	*=*) params+=("$1"); shift ;;
	--report)
		# Only the report, from a directory's cache-raw.txt.
		awk -f bench/report/cache.awk -v dir="$2" "$2/cache-raw.txt"
		exit ;;
	--compare)
		# Two runs' cache.csv: the largest difference of each measure.
		awk -F, -f bench/report/cache-compare.awk "$2/cache.csv" "$3/cache.csv"
		exit ;;
	*) echo "usage: bench/cache.sh [--quick] [--out DIR] [kernel parameter ...] | --report DIR | --compare DIR DIR" >&2; exit 2 ;;
	esac
done
mode=cache plugin_args='' default_total=40
if [ "$quick" = 1 ]; then
	mode=cache-quick plugin_args=,llc_size=4M default_total=25
	out=${out:-build/bench-cache-quick}
fi
out=${out:-results/bench}

scripts/install-deps.sh --demo
bench/cache-model/build.sh
kernels=${KVER:-$(scripts/find-kernel.sh --all)}
[ -n "$kernels" ] || { echo "bench: no kernel with both headers and image" >&2; exit 1; }

status=0
# shellcheck disable=SC2086 # one word per kernel
guest_images bench cache "$mode" "$default_total" $kernels || exit 1

# One guest per kernel, one host core each; the plugin's lines go to a
# file of their own beside the console log.
start=$(date +%s)
pids=()
mkdir -p build/logs
for kver in "${booted[@]}"; do
	log=build/logs/$mode-$kver.log
	rm -f "$log" "${log%.log}.plugin"
	QEMU_ICOUNT=1 IPAT_LOG=$mode-$kver QEMU_MEM=4096 QEMU_TIMEOUT=${QEMU_TIMEOUT:-5400} \
		QEMU_INITRD=build/cache-$kver/initramfs.cpio.gz \
		QEMU_EXTRA="-plugin build/cache-model/ipat-cache.so,out=${log%.log}.plugin$plugin_args" \
		qemu/run.sh bench ipat.bench=$mode ipat.bench_clock=icount "${params[@]}" >/dev/null 2>&1 &
	pids+=($!)
done
bench/progress.sh --until "${pids[*]}" "cache model" "${guests[@]}"
for pid in "${pids[@]}"; do wait "$pid" || true; done
echo "bench: guests finished after $(($(date +%s) - start)) s"

for kver in "${booted[@]}"; do
	log=build/logs/$mode-$kver.log
	dest=$out/$(scripts/find-kernel.sh --series "$kver")
	guest_finished bench "$log" || { status=1; continue; }
	mkdir -p "$dest"
	# The records the report reads: the guest's, then the plugin's.
	{
		tr -d '\r' <"$log" | grep -o 'IPAT-BENCH \(begin\|cache-phase\|cache-fs\|end\) .*'
		cat "${log%.log}.plugin"
	} >"$dest/cache-raw.txt"
	if awk -f bench/report/cache.awk -v dir="$dest" "$dest/cache-raw.txt"; then
		echo "bench: $dest/cache.md"
	else
		status=1
	fi
done
exit "$status"
