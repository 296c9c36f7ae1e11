#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-report.sh turns a bench log (fixtures/bench-quick.raw, the
# output of a quick-mode boot) into its tables and CSV files, with ramfs at
# exactly 1 in its own ratios and the targets judged from the figures; a
# changed figure changes the verdict, and a log with no bench in it is
# refused. The guest side of the bench is tests/guest/90-bench-quick.sh.
set -eu
cd "$(dirname "$0")/../.."
fixture=tests/host/fixtures/bench-quick.raw
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}

# The fixture: sizes 500 and 1000, both layouts at 500, flat at 1000.
scripts/bench-report.sh "$fixture" "$tmp/out" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "bench-report.sh failed on the fixture"; exit 1; }
for f in bench.md speed.csv files.csv memory.csv payload.csv fsmark.csv raw.txt; do
	[ -s "$tmp/out/$f" ] || fail "no $f"
done
rows=$(($(wc -l <"$tmp/out/speed.csv") - 1))
[ "$rows" -eq 45 ] || fail "speed.csv has $rows rows, want 45 (5 fs x 3 layouts/sizes x 3 phases)"
# ramfs against itself: every paired ratio exactly 1.
awk -F, '$1 == "ramfs" && $12 != "1.000" { bad = 1; print "ramfs ratio " $12 " in: " $0 }
	END { exit bad }' "$tmp/out/speed.csv" || fail "ramfs is not 1.000 against itself"
# voidfs's create at N = 500 flat is computed from its chunks, not copied.
want=$(grep '^IPAT-BENCH files fs=voidfs_demo layout=flat n=500 ' "$fixture" |
	tr ' ' '\n' | sed -n 's/^create_med_ns=//p')
got=$(awk -F, '$1 == "voidfs_demo" && $3 == "flat" && $4 == 500 && $5 == "create" { print $11 }' \
	"$tmp/out/speed.csv")
[ "$got" = "$want" ] || fail "voidfs create ns/op: report $got, log $want"

target() {	# target MD-FILE TEXT: the result cell of the target row
	grep -F -- "$2" "$1" | head -n 1 | awk -F'|' '{ print $(NF - 1) }' | tr -d ' *'
}
[ "$(target "$tmp/out/bench.md" 'unionfs_demo extra bytes/inode')" = pass ] ||
	fail "the union's extra bytes are not judged a pass"
grep -q '2.000 (statistics file)' "$tmp/out/bench.md" ||
	fail "voidfs's two allocations per inode are not in the targets"

# The same log with a union object 32 bytes bigger than its largest
# member accounts for: the verdict turns.
sed 's/inode_object_size=776/inode_object_size=808/g' "$fixture" >"$tmp/bigger.raw"
scripts/bench-report.sh "$tmp/bigger.raw" "$tmp/bigger" >/dev/null 2>&1 ||
	fail "bench-report.sh failed on the changed log"
[ "$(target "$tmp/bigger/bench.md" 'unionfs_demo extra bytes/inode')" = miss ] ||
	fail "a union object 32 bytes over its largest member is judged a pass"

# No bench in the log: refused.
grep -v '^IPAT-BENCH begin' "$fixture" >"$tmp/nobegin.raw"
if scripts/bench-report.sh "$tmp/nobegin.raw" "$tmp/nobegin" >/dev/null 2>&1; then
	fail "a log without 'IPAT-BENCH begin' was accepted"
fi

[ "$bad" -eq 0 ] && echo "bench-report: fixture, a changed figure and a log without a bench checked"
exit "$bad"
