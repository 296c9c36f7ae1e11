#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main demonstration, from a fresh Debian 12 or 13 machine: install
# what it needs (scripts/install-deps.sh --demo), build the module and a
# guest image for the newest kernel series Debian ships (7.3), or for each
# series IPAT_SERIES names, boot them side by side under QEMU with icount
# (QEMU_ICOUNT=1, as make bench does, so every figure is a count of
# instructions, the same from run to run), run
# the bench's guest side in its demo mode (bench/guest.sh ipat.bench=demo:
# 10,000 files in one directory on each of the three patterns, ramfs and
# tmpfs, in blocks, and the private-data path on 2,000 open files), and
# print per kernel one table and, under it, each claim of the article
# with its measured answer.
#
#   scripts/demo.sh              the newest series, 7.3: one guest, the
#                                quickest on a fresh machine
#   IPAT_SERIES="6.1 6.12 7.3" scripts/demo.sh   each of those series,
#                                side by side, as README.md shows them
#   KVER=<ver> scripts/demo.sh   that installed kernel only
#
# The whole report of each run (bench/report.sh: every table, CSV)
# is in build/demo-<kver>/report/; the guests' console logs are
# build/logs/demo-<kver>.log.
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=bench/guests.sh
. bench/guests.sh

export IPAT_SERIES=${IPAT_SERIES:-7.3}
[ -n "${KVER:-}" ] || scripts/install-deps.sh --demo
kernels=${KVER:-$(for s in $IPAT_SERIES; do scripts/find-kernel.sh --match "$s"; done)}
[ -n "$kernels" ] || { echo "demo: no kernel with both headers and image" >&2; exit 1; }

# What a demo guest counts, boot included, in seconds of its icount clock
# (instructions / 1e9), for the progress line when no earlier run says.
default_total=7.5

status=0
# shellcheck disable=SC2086 # one word per kernel
guest_images demo demo demo "$default_total" $kernels || exit 1

# The guests side by side, one host core each.
start=$(date +%s)
pids=()
for kver in "${booted[@]}"; do
	mkdir -p build/logs
	rm -f "build/logs/demo-$kver.log"
	QEMU_ICOUNT=1 IPAT_LOG=demo-$kver QEMU_INITRD=build/demo-$kver/initramfs.cpio.gz \
		qemu/run.sh bench ipat.bench=demo ipat.bench_clock=icount >/dev/null 2>&1 &
	pids+=($!)
done
bench/progress.sh --until "${pids[*]}" demo "${guests[@]}"
for pid in "${pids[@]}"; do wait "$pid" || true; done
echo "demo: guests finished after $(($(date +%s) - start)) s"

for kver in "${booted[@]}"; do
	log=build/logs/demo-$kver.log out=build/demo-$kver/report
	echo
	guest_finished demo "$log" || { status=1; continue; }
	rm -rf "$out"
	bench/report.sh "$out" "$log" >/dev/null 2>&1 ||
		{ echo "demo: no report from $log" >&2; status=1; continue; }
	n=$(awk -F, 'NR == 2 { print $4 }' "$out/instructions.csv")
	echo "== Linux $kver: $(echo "$n" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta') files in one directory =="
	echo
	bench/demo-table.awk -v dir="$out" /dev/null
	echo
	echo "The article's claims (and this project's), measured:"
	sed 's/^/- /' "$out/claims.txt"
done
echo
echo "demo: every table of these runs is in build/demo-<kver>/report/bench.md"
exit "$status"
