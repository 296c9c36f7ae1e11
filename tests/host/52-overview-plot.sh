#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report/overview.sh draws the README's picture from the committed
# CSV files of every series under results/bench/: a non-empty PNG, the same
# bytes when drawn twice, different when a figure changes; a series whose
# CSV lacks a filesystem (memory, instructions or the payload's) is refused
# with the file and the filesystem named, and no picture is written.
# Exit 4 (skipped) without gnuplot: make bench installs it.
set -eu
cd "$(dirname "$0")/../.."
if ! command -v gnuplot >/dev/null; then
	echo "skipped: gnuplot is not installed (apt-get install gnuplot-nox)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}

# A copy of the committed CSV files only, series by series.
series=()
for f in results/bench/*/memory.csv; do
	s=$(basename "$(dirname "$f")")
	series+=("$s")
	mkdir -p "$tmp/good/$s"
	cp "results/bench/$s"/{memory,instructions,payload}.csv "$tmp/good/$s/"
done
[ ${#series[@]} -ge 2 ] || fail "fewer than two series under results/bench/: ${series[*]}"

draw() {	# draw DIR: overview.sh on DIR, its output in DIR.log
	bench/report/overview.sh "$1" >"$1.log" 2>&1
}
if ! draw "$tmp/good"; then
	cat "$tmp/good.log"
	fail "overview.sh failed on the committed CSV files"
fi
png=$tmp/good/overview.png
if [ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
	cp "$png" "$tmp/first.png"
	draw "$tmp/good" || fail "overview.sh failed the second time"
	cmp -s "$tmp/first.png" "$png" || fail "two drawings of the same CSV files differ"
else
	fail "no PNG in $png"
fi

# A changed figure changes the picture: embedfs's slab bytes in the last series.
last=${series[${#series[@]} - 1]}
cp -r "$tmp/good" "$tmp/changed"
rm -f "$tmp/changed/overview.png"
awk -F, -v OFS=, 'NR > 1 && $1 == "embedfs_demo" { $8 = $8 + 100 } 1' \
	"$tmp/good/$last/memory.csv" >"$tmp/changed/$last/memory.csv"
draw "$tmp/changed" || { cat "$tmp/changed.log"; fail "overview.sh failed on a changed figure"; }
cmp -s "$tmp/changed/overview.png" "$png" &&
	fail "embedfs's slab bytes +100 in $last/memory.csv: the same picture"

# A series without a filesystem: each CSV in turn, in each series.
for s in "${series[@]}"; do
	for csv in memory instructions payload; do
		case $csv in
		memory) fs=tmpfs ;; instructions) fs=voidfs_demo ;; payload) fs=ramfs ;;
		esac
		broken=$tmp/no-$fs-$s-$csv
		cp -r "$tmp/good" "$broken"
		rm -f "$broken/overview.png"
		grep -v "^$fs," "$tmp/good/$s/$csv.csv" >"$broken/$s/$csv.csv"
		if draw "$broken"; then
			fail "$s/$csv.csv without $fs: overview.sh drew a picture"
		elif ! grep -q "$s/$csv.csv: no $fs " "$broken.log"; then
			cat "$broken.log"
			fail "$s/$csv.csv without $fs: the error does not name the file and $fs"
		fi
		[ ! -e "$broken/overview.png" ] ||
			fail "$s/$csv.csv without $fs: a picture was written anyway"
	done
done

[ "$bad" = 0 ] || exit 1
echo "overview-plot: a stable PNG from ${series[*]}, changed by a changed figure; a missing filesystem refused, in each CSV of each series"
