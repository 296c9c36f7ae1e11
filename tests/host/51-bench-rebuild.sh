#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The committed benchmark reports are what their records give: for each
# results/bench/<series>/raw.txt, bench/report.sh makes the report again
# from it, and every table, CSV file and the data model (data.csv) must
# equal the committed one to the byte; so nothing in a report may come
# from anywhere but the records (the host, the date, the checkout), and a
# report left behind by a change of the report is caught. data.csv must
# hold every record of raw.txt, each value as the guest printed it.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0 found=0
fail() { echo "bench-rebuild: $*" >&2; status=1; }
for raw in results/bench/*/raw.txt; do
	[ -f "$raw" ] || continue
	found=$((found + 1))
	dir=${raw%/raw.txt}
	out=$tmp/$(basename "$dir")
	mkdir -p "$out"
	cp "$raw" "$out/raw.txt"
	if ! bench/report.sh "$out" "$out/raw.txt" >"$tmp/log" 2>&1; then
		cat "$tmp/log" >&2
		fail "$raw: no report"
		continue
	fi
	for f in bench.md claims.txt data.csv instructions.csv files.csv memory.csv payload.csv ops.csv; do
		[ -f "$dir/$f" ] || { fail "$dir/$f is missing"; continue; }
		cmp -s "$out/$f" "$dir/$f" ||
			fail "$dir/$f is not what $raw gives (bench/report.sh $dir $raw): $(diff "$dir/$f" "$out/$f" | head -n 3 | tr '\n' ' ')"
	done

	# A record per line of raw.txt, in its order.
	records=$(grep -c '^IPAT-BENCH ' "$raw")
	seqs=$(awk -F, 'NR > 1 && $1 != last { n++; last = $1 } END { print n + 0 }' "$out/data.csv")
	[ "$seqs" = "$records" ] || fail "$dir/data.csv has $seqs records, raw.txt $records"
	# Values as printed, commas and all: the begin record's sizes.
	want=$(grep -m1 '^IPAT-BENCH begin ' "$raw" | tr ' ' '\n' | sed -n 's/^sizes=//p')
	got=$(awk -F, '$2 == "begin" && $7 == "sizes" { v = substr($0, index($0, ",sizes,") + 7); gsub(/^"|"$/, "", v); print v; exit }' "$out/data.csv")
	[ "$got" = "$want" ] || fail "$dir/data.csv: begin sizes '$got', raw.txt '$want'"
	# An instruction count under its name in instructions, not ns.
	grep -q ',create_med_instructions,' "$out/data.csv" ||
		fail "$dir/data.csv: no create_med_instructions"
	! grep -q '_ns,' "$out/data.csv" || fail "$dir/data.csv: a key still says ns"
done
[ "$found" -gt 0 ] || fail "no results/bench/*/raw.txt"
[ "$status" = 0 ] && echo "bench-rebuild: $found committed report(s) are what their raw.txt gives, to the byte"
exit "$status"
