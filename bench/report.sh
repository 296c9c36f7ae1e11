#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report.sh OUTDIR CONSOLE-LOG...: turn the "IPAT-BENCH" lines of one
# or more bench boots' console logs (bench/guest.sh, bench/prog/;
# bench/run.sh boots one guest per layout) into OUTDIR/bench.md (the
# tables), CSV files, and PNG plots when gnuplot is installed. It can be
# rerun on saved logs, including OUTDIR/raw.txt of an earlier report.
#
# First data.awk turns the records into the data model, OUTDIR/data.csv (a
# row per value); everything after reads that file alone. The work is in
# parts, read in this order (one awk program over data.csv; each part's
# END block runs in turn), under bench/report/:
#   lib.awk           helpers: medians, formats
#   records.awk       data.csv's records, into arrays and the CSV rows of
#                     every run
#   summary.awk       what the sections share; instructions.csv
#   header.awk        title, conditions, cautions
#   claims.awk        the claims, each with its measured answer; claims.txt
#   instructions.awk  instructions per operation, scaling, other operations
#   memory.awk        bytes per inode, slab geometry
#   payload.awk       the private-data path
#   profile.awk       where a traced chunk's instructions go (ipat.bench_trace)
#   closing.awk       the plots and the list of files
#   plots.sh          the plots, from what the parts left in OUTDIR
#
# The report is a function of the records alone: rebuilt from raw.txt, it
# is the same to the byte (tests/host/51-bench-rebuild.sh).
set -eu

[ $# -ge 2 ] || { echo "usage: bench/report.sh OUTDIR CONSOLE-LOG..." >&2; exit 2; }
out=$1
shift
parts=$(dirname "$0")/report
mkdir -p "$out"

# The kernel may print in the middle of a line: keep from the tag on. The
# records of several guests are read as one bench.
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for log in "$@"; do
	one=$(tr -d '\r' <"$log" | grep -o 'IPAT-BENCH .*' || true)
	grep -q '^IPAT-BENCH begin ' <<<"$one" ||
		{ echo "bench-report: no 'IPAT-BENCH begin' in $log" >&2; exit 1; }
	# A guest whose clock was not icount's measured nanoseconds of an
	# emulated CPU, which say nothing of the code: not a bench.
	grep -q '^IPAT-BENCH begin .* clock=icount' <<<"$one" ||
		{ echo "bench-report: $log is not from an instruction-counting guest (no clock=icount; bench/run.sh boots one)" >&2; exit 1; }
	grep -q '^IPAT-BENCH end ' <<<"$one" ||
		echo "bench-report: warning: no 'IPAT-BENCH end' in $log: the bench did not finish" >&2
	echo "$one" >>"$raw"
done
if [ $# -gt 1 ] || [ "$(readlink -f "$1")" != "$(readlink -f "$out/raw.txt")" ]; then
	cat "$raw" >"$out/raw.txt"
fi
# This report's CSV files only: the cache mode's (bench/cache.sh) may share
# OUTDIR.
rm -f "$out"/{files,memory,payload,ops,instructions}.csv
awk -f "$parts/data.awk" "$raw" >"$out/data.csv.tmp"
mv "$out/data.csv.tmp" "$out/data.csv"

# x86-64 pages; the guest is always x86-64 here.
awk -v out="$out" -v page=4096 \
	-f "$parts/lib.awk" -f "$parts/records.awk" -f "$parts/summary.awk" \
	-f "$parts/header.awk" -f "$parts/claims.awk" -f "$parts/instructions.awk" \
	-f "$parts/memory.awk" -f "$parts/payload.awk" \
	-f "$parts/profile.awk" -f "$parts/closing.awk" "$out/data.csv"

# CSV headers, prepended now that awk has written the rows (unsorted).
header() {
	local file=$out/$1
	[ -f "$file" ] || return 0
	{ echo "$2"; sort -t, -k1,1 -k2,2 -k3,3n -k4,4n "$file"; } >"$file.tmp"
	mv "$file.tmp" "$file"
}
header files.csv "fs,layout,n,rep,phase,chunk,chunks,phase_instructions,chunk_instructions_per_op,q1_chunk_instructions_per_op,q3_chunk_instructions_per_op,whole_phase_instructions_per_op"
header memory.csv "fs,layout,n,rep,inode_caches,allocs_per_inode_slab,bytes_per_inode_slab_pages,bytes_per_inode_slab_objects,allocs_per_inode_stats,bytes_per_inode_stats,other_bytes_per_file,floor"
header payload.csv "fs,rep,files,passes,statx_median_pass_instructions,statx_min_pass_instructions,statx_max_pass_instructions,getxattr_median_pass_instructions,getxattr_min_pass_instructions,getxattr_max_pass_instructions,btime,xattr"
header ops.csv "fs,op,n,median_chunk_instructions_per_op,q1_chunk_instructions_per_op,q3_chunk_instructions_per_op,mean_chunk_instructions_per_op,reported_instructions_per_op"

"$parts/plots.sh" "$out"
