#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cache mode's report (bench/report/cache.awk) against its committed
# output: for each results/bench/<series>/cache-raw.txt, the report made
# again must equal the committed cache.csv and cache.md; records whose
# guest and plugin halves do not pair (a plugin line missing, an id
# changed) must stop it; and the committed figures must show what the
# dereference table claims: voidfs_demo's payload costs at least one more
# load than embedfs_demo's, per statx of the birth time, hot and cold.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0 found=0
fail() { echo "cache-report: $*" >&2; status=1; }
for raw in results/bench/*/cache-raw.txt; do
	[ -f "$raw" ] || continue
	found=$((found + 1))
	dir=${raw%/cache-raw.txt}
	out=$tmp/$(basename "$dir")
	mkdir -p "$out"
	if ! awk -f bench/report/cache.awk -v dir="$out" "$raw"; then
		fail "$raw: no report"
		continue
	fi
	for f in cache.csv cache.md; do
		cmp -s "$out/$f" "$dir/$f" || fail "$dir/$f is not what $raw gives (bench/cache.sh --report $dir)"
	done

	# One plugin line fewer: the halves no longer pair.
	last=$(grep -n '^IPAT-CACHE vcpu=.* phase=[1-9]' "$raw" | tail -n 1 | cut -d: -f1)
	sed "${last}d" "$raw" >"$tmp/short.txt"
	awk -f bench/report/cache.awk -v dir="$tmp" "$tmp/short.txt" 2>/dev/null &&
		fail "$raw: the report took records with a plugin line missing"
	# The first part's id changed in the plugin's line.
	first=$(grep -n '^IPAT-CACHE vcpu=.* phase=1 ' "$raw" | head -n 1 | cut -d: -f1)
	sed "${first}s/ phase=1 / phase=2 /" "$raw" >"$tmp/swapped.txt"
	awk -f bench/report/cache.awk -v dir="$tmp" "$tmp/swapped.txt" 2>/dev/null &&
		fail "$raw: the report paired parts whose ids differ"

	for regime in hot cold; do
		awk -F, -v r="$regime" '
			$3 == r && $4 == "statx_btime" { loads[$2] = $7 }
			END { exit !(loads["voidfs_demo"] - loads["embedfs_demo"] >= 0.9) }' "$dir/cache.csv" ||
			fail "$dir/cache.csv: voidfs_demo's statx ($regime) is not a load more than embedfs_demo's"
	done
done
[ "$found" -gt 0 ] || fail "no results/bench/*/cache-raw.txt (make bench CACHE=1)"
[ "$status" = 0 ] && echo "cache-report: $found reports made again identically; broken records refused"
exit "$status"
