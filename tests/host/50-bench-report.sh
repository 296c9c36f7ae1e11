#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report.sh turns a bench log (fixtures/bench-icount.raw,
# the output of a quick-mode boot in instruction mode, both layouts) into
# its tables and CSV files, with ramfs at exactly 1 in its own ratios and
# the claims judged from the figures; a changed figure changes the
# verdict, and a log with no bench in it, or from a guest whose clock did
# not count instructions, is refused; two logs read as one, the chunk
# order, scaling and a traced chunk's profile too. The guest side of the
# bench is tests/guest/90-bench-quick.sh.
set -eu
cd "$(dirname "$0")/../.."
fixture=tests/host/fixtures/bench-icount.raw
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}

bench/report.sh "$tmp/out" "$fixture" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "bench/report.sh failed on the fixture"; exit 1; }
for f in bench.md instructions.csv files.csv memory.csv payload.csv ops.csv raw.txt; do
	[ -s "$tmp/out/$f" ] || fail "no $f"
done
rows=$(($(wc -l <"$tmp/out/instructions.csv") - 1))
[ "$rows" -eq 40 ] || fail "instructions.csv has $rows rows, want 40 (5 fs x 2 layouts x 4 phases)"
# ramfs against itself: every ratio exactly 1.
awk -F, '$1 == "ramfs" && $10 != "1.000" { bad = 1; print "ramfs ratio " $10 " in: " $0 }
	END { exit bad }' "$tmp/out/instructions.csv" || fail "ramfs is not 1.000 against itself"
# Every figure is named for what it is: no column of any CSV says ns.
head -q -n 1 "$tmp/out"/*.csv | tr , '\n' | grep -E '(^|_)ns(_|$)|per_s' &&
	fail "a CSV column is named in nanoseconds or per second"
# voidfs's create in one directory is the log's median chunk, not another.
want=$(grep '^IPAT-BENCH files fs=voidfs_demo layout=flat n=1000 ' "$fixture" |
	tr ' ' '\n' | sed -n 's/^create_med_ns=//p')
got=$(awk -F, '$1 == "voidfs_demo" && $3 == "flat" && $4 == 1000 && $5 == "create" { print $6 }' \
	"$tmp/out/instructions.csv")
[ "$got" = "$want" ] || fail "voidfs create instructions: report $got, log $want"

answer() {	# answer MD-FILE CLAIM: the answer cell of the claim's row
	grep -F -- "| $2 |" "$1" | head -n 1 | awk -F'|' '{ print $(NF - 1) }' | sed 's/^ *//; s/ *$//; s/\*//g'
}
union='union: every inode pays for the largest member'
void='void pointer: two allocations per inode'
[ "$(answer "$tmp/out/bench.md" "$union")" = confirmed ] ||
	fail "the union's extra bytes are not judged confirmed"
[ "$(answer "$tmp/out/bench.md" "$void")" = confirmed ] ||
	fail "voidfs's two allocations per inode are not judged confirmed"
case $(answer "$tmp/out/bench.md" 'void pointer: an extra dereference to reach the private data') in
'not measurable in instructions: '*'make bench CACHE=1'*) ;;
*) fail "the extra dereference is not said to be not measurable in instructions, pointing to the cache mode" ;;
esac
grep -qF "$union: +96 B an object" "$tmp/out/claims.txt" ||
	fail "claims.txt has no line for the union's claim with its measured answer"
grep -qiE '\*\*(pass|miss)\*\*|## Targets' "$tmp/out/bench.md" &&
	fail "the report judges figures against bounds of ours (pass/miss)"

# The same log with a union object 32 bytes bigger than its largest
# member accounts for: the answer turns; the same with a module that
# counts one private object too few per voidfs inode.
sed 's/inode_object_size=768/inode_object_size=800/g' "$fixture" >"$tmp/bigger.raw"
bench/report.sh "$tmp/bigger" "$tmp/bigger.raw" >/dev/null 2>&1 ||
	fail "bench/report.sh failed on the changed log"
[ "$(answer "$tmp/bigger/bench.md" "$union")" = refuted ] ||
	fail "a union object 32 bytes over its largest member is judged confirmed"
sed '/^IPAT-BENCH stats fs=voidfs_demo/s/d_private_objects_allocated=1000/d_private_objects_allocated=0/' \
	"$fixture" >"$tmp/one.raw"
bench/report.sh "$tmp/one" "$tmp/one.raw" >/dev/null 2>&1 ||
	fail "bench/report.sh failed on the log with one allocation"
[ "$(answer "$tmp/one/bench.md" "$void")" = refuted ] ||
	fail "voidfs counted at one allocation per inode is judged to make two"

# No bench in the log: refused; nor a guest whose clock was not icount's.
grep -v '^IPAT-BENCH begin' "$fixture" >"$tmp/nobegin.raw"
if bench/report.sh "$tmp/nobegin" "$tmp/nobegin.raw" >/dev/null 2>&1; then
	fail "a log without 'IPAT-BENCH begin' was accepted"
fi
sed '/^IPAT-BENCH begin/s/clock=icount/clock=time/' "$fixture" >"$tmp/timed.raw"
if bench/report.sh "$tmp/timed" "$tmp/timed.raw" >/dev/null 2>&1; then
	fail "a log of nanoseconds (clock=time) was accepted"
fi

# The headline table in instructions, refill as the cheapest chunk, and
# the pattern's own cost as its refill minus embedfs's.
icount=$fixture
cp -r "$tmp/out" "$tmp/ic"
grep -q '^## Instructions per operation' "$tmp/ic/bench.md" ||
	fail "no instruction table"
refill() {	# refill FS LAYOUT: refill_min_ns of the fixture
	grep "^IPAT-BENCH files fs=$1 layout=$2 " "$icount" | tr ' ' '\n' | sed -n 's/^refill_min_ns=//p'
}
got=$(awk -F, '$1 == "voidfs_demo" && $3 == "spread" && $5 == "refill" { print $6 }' "$tmp/ic/instructions.csv")
[ "$got" = "$(refill voidfs_demo spread)" ] ||
	fail "voidfs refill: report $got, log's cheapest chunk $(refill voidfs_demo spread)"
want=$(awk -v a="$(refill voidfs_demo flat)" -v b="$(refill embedfs_demo flat)" 'BEGIN { printf "%+.0f", a - b }')
row=$(grep '^| voidfs_demo | void pointer | flat |' "$tmp/ic/bench.md" | awk -F'|' '{ print $11 }' | tr -d ' ')
[ "$row" = "$want" ] || fail "voidfs refill - embedfs: table $row, log $want"
# voidfs's private objects are accounted: they come from kmalloc-cg-64,
# and the slab counts find them (1.77 per inode at N = 1,000, where
# partly filled slabs blur it; 2.000 at 1,000,000), not 1.
allocs=$(awk -F, '$1 == "voidfs_demo" && $2 == "flat" { print $6 }' "$tmp/ic/memory.csv")
awk -v a="$allocs" 'BEGIN { exit !(a > 1.5) }' ||
	fail "instruction mode: voidfs_demo has $allocs allocations per inode in the slabs: its kmalloc-cg-64 objects are not counted"
# The other operations in instruction mode: the mean of the chunks, not
# the median chunk. The fixture's embedfs rmdir has 18 chunks of 5,594 and
# two that ran RCU frees: median 5,594, mean 6,736.
want=$(grep '^IPAT-BENCH opchunks fs=embedfs_demo .* op=rmdir ' "$icount" |
	sed 's/.*ns_per_op=//' | tr ',' '\n' | awk '{ s += $1; n++ } END { printf "%.0f", s / n }')
row=$(grep '^| rmdir |' "$tmp/ic/bench.md" | awk -F'|' '{ print $4 }' | tr -d ' ')
[ "$row" = "$want" ] && [ "$row" != 5594 ] ||
	fail "ops: embedfs rmdir is $row in the table, not $want, the mean of its chunks"
# The order the chunks ran in is the log's: a log without order= ran in
# turns (before the default changed), order=blocks says blocks.
grep -q 'chunks ran in turns' "$tmp/ic/bench.md" ||
	fail "instruction mode: a log without order= is not reported as in turns"
sed '/^IPAT-BENCH begin/s/$/ order=blocks/' "$icount" >"$tmp/blocks.raw"
bench/report.sh "$tmp/blocks" "$tmp/blocks.raw" >/dev/null 2>&1 ||
	fail "bench/report.sh failed on a log in blocks"
grep -q 'chunks ran in blocks' "$tmp/blocks/bench.md" && ! grep -q 'in turns' "$tmp/blocks/bench.md" ||
	fail "instruction mode: order=blocks is not reported as in blocks"
# Scaling: the median chunk and the whole phase are two ratios. A copy of
# the files records at N = 10,000 whose unlink phase costs the same per
# unlink in all but whose median chunk is 10% lower: 0.900 and 1.000.
{ grep -v '^IPAT-BENCH end' "$icount"
  grep '^IPAT-BENCH files ' "$icount" | awk '{
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "n") $i = "n=10000"
		else if (kv[1] == "unlink_ns") $i = "unlink_ns=" kv[2] * 10
		else if (kv[1] == "unlink_med_ns") $i = sprintf("unlink_med_ns=%.2f", kv[2] * 0.9)
	}
	print }'
  grep '^IPAT-BENCH end' "$icount"; } >"$tmp/sizes.raw"
bench/report.sh "$tmp/sizes" "$tmp/sizes.raw" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "bench/report.sh failed on a log of two sizes"; }
grep -q '^| embedfs_demo | flat | 1.000 | 1.000 | 1.000 | 0.900 | 1.000 |$' "$tmp/sizes/bench.md" ||
	fail "scaling: embedfs_demo's unlink is not 0.900 by the median chunk and 1.000 by the whole phase"
# Two boots, one per layout, read as one bench: the same figures.
grep -v 'layout=spread' "$icount" >"$tmp/flat.raw"
{ grep '^IPAT-BENCH begin' "$icount"; grep 'layout=spread' "$icount"; grep '^IPAT-BENCH end' "$icount"; } >"$tmp/spread.raw"
bench/report.sh "$tmp/two" "$tmp/flat.raw" "$tmp/spread.raw" >/dev/null 2>&1 ||
	fail "bench/report.sh failed on two logs"
cmp -s "$tmp/ic/instructions.csv" "$tmp/two/instructions.csv" ||
	fail "two logs, one per layout, do not give the figures of the one log"
# bench/compare.sh: a report against itself is identical, a changed
# figure is found.
bench/compare.sh "$tmp/ic" "$tmp/ic" | tail -n 1 | grep -q 'largest difference is 0.00%' ||
	fail "bench-compare: a report differs from itself"
sed 's/refill_min_ns=\([0-9]*\)/refill_min_ns=2\1/' "$icount" >"$tmp/changed.raw"
bench/report.sh "$tmp/changed" "$tmp/changed.raw" >/dev/null 2>&1
bench/compare.sh "$tmp/ic" "$tmp/changed" | tail -n 1 | grep -q 'largest difference is 0.00%' &&
	fail "bench-compare: a changed figure was not found"

# A traced chunk's profile (ipat.bench_trace): per operation at the
# smallest and the largest N, the totals, and the function whose calls
# moved most first. At 1k, 2 unlinks: iput 2 calls, 1,000 self; kfree 1 call,
# 200. At 100k, 4 unlinks: iput 4 calls, 2,000; kfree 8 calls, 4,000.
{ grep -v '^IPAT-BENCH end' "$icount"
  t='IPAT-BENCH ftrace fs=embedfs_demo layout=flat rep=1 phase=unlink per=__x64_sys_unlinkat'
  echo "$t n=1000 ops=2 fn=iput calls=2 self=1000"
  echo "$t n=1000 ops=2 fn=kfree calls=1 self=200"
  echo "$t n=100000 ops=4 fn=iput calls=4 self=2000"
  echo "$t n=100000 ops=4 fn=kfree calls=8 self=4000"
  grep '^IPAT-BENCH end' "$icount"; } >"$tmp/traced.raw"
bench/report.sh "$tmp/traced" "$tmp/traced.raw" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "bench/report.sh failed on a log with a profile"; }
profile=$(sed -n '/^## Where the traced chunk/,/^## /p' "$tmp/traced/bench.md")
grep -qF '| (all) | | | | 600 | 1500 |' <<<"$profile" ||
	fail "profile: the totals per operation are not 600 and 1500"
grep -A 3 -F '| (all) |' <<<"$profile" | sed -n 2p | grep -qF '| `kfree` | 0.500 | 2.000 | +1.500 | 100 | 1000 |' ||
	fail "profile: kfree, whose calls moved most, is not the first row, or its figures are wrong"
grep -qF '| `iput` | 1.000 | 1.000 | +0.000 | 500 | 500 |' <<<"$profile" ||
	fail "profile: iput's row is wrong"
grep -q '^## Where the traced chunk' "$tmp/ic/bench.md" &&
	fail "profile: a section without ftrace records"

# bench/progress.sh: a guest's last step and how far through its
# instructions, in a log (not a terminal) as a plain line; --total reads
# what a finished run counted.
printf 'boot\nipat-progress t=1.000 warm-up, n=500\r\nipat-progress t=2.500 files n=1000 flat stat ramfs\n' >"$tmp/guest.log"
timeout 3 bench/progress.sh bench "flat:$tmp/guest.log:5" >"$tmp/progress.out" 2>&1 || true
grep -q '^bench 0:0[0-9] | flat: files n=1000 flat stat ramfs, 50% of ~5e9 instructions | ~' "$tmp/progress.out" ||
	fail "progress: not the guest's last step at 50% of its instructions: $(head -n 1 "$tmp/progress.out")"
[ "$(bench/progress.sh --total "$tmp/guest.log")" = 2.500 ] ||
	fail "progress --total: not the last progress line's t"

[ "$bad" -eq 0 ] && echo "bench-report: the fixture, a log of nanoseconds refused, the chunk order, scaling, ops as means, a changed figure, two logs, a profile, a log without a bench and the progress line checked"
exit "$bad"
