#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/compare.sh [--title T] DIR1 DIR2: every figure of two bench reports
# (bench/run.sh's OUTDIRs) side by side, as a markdown table with
# their ratio, and a summary line: how many figures, the largest
# difference, and how many are within 0.1% and 0.5%. For instruction mode
# twice on one kernel it measures how well two boots repeat; for two
# kernels it shows what changed between them.
#
# Figures compared: instructions.csv's figure per operation (files:
# create, stat, refill, unlink, every size and layout), ops.csv (the other operations: the figure the report shows)
# and payload.csv (statx, getxattr, first repetition).
set -eu

title="Two bench reports"
if [ "${1:-}" = --title ]; then
	title=$2
	shift 2
fi
[ $# -eq 2 ] || { echo "usage: bench/compare.sh [--title T] DIR1 DIR2" >&2; exit 2; }

# "KEY VALUE" lines of one report.
figures() {
	local dir=$1
	[ -f "$dir/instructions.csv" ] || { echo "bench-compare: no $dir/instructions.csv" >&2; exit 1; }
	awk -F, 'NR > 1 { printf "%s/%s/%s/%s %s\n", $5, $1, $3, $4, $6 }' "$dir/instructions.csv"
	[ ! -f "$dir/ops.csv" ] ||
		awk -F, 'NR > 1 { printf "%s/%s/n=%s %s\n", $2, $1, $3, $8 != "" ? $8 : $4 }' "$dir/ops.csv"
	[ ! -f "$dir/payload.csv" ] ||
		awk -F, 'NR > 1 && $2 == 1 { printf "statx/%s %s\ngetxattr/%s %s\n", $1, $5, $1, $8 }' "$dir/payload.csv"
}

a=$(figures "$1" | sort) b=$(figures "$2" | sort)
echo "# $title"
echo
echo "\`$1\` against \`$2\`: every figure both have, as the reports show it (per"
echo "operation: the median chunk; refill: the cheapest chunk; the other operations:"
echo "the mean of the chunks; in instructions)."
echo
echo "| figure | $(basename "$1") | $(basename "$2") | ratio |"
echo "|---|---:|---:|---:|"
join <(echo "$a") <(echo "$b") | awk '
	$2 > 0 {
		r = $3 / $2; d = r > 1 ? r - 1 : 1 - r
		if (d > worst) { worst = d; w = $1 }
		n++; if (d <= 0.001) tight++; if (d <= 0.005) close5++
		printf "| %s | %.0f | %.0f | %.4f |\n", $1, $2, $3, r
	}
	END {
		printf "\n%d figures; the largest difference is %.2f%% (%s); %d within 0.1%%, %d within 0.5%%.\n",
			n, 100 * worst, w, tight, close5
	}'
