#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fstests' host side on a made-up console log
# (fixtures/fstests-console.log, batches of tests): fstests/collect.sh
# turns it into raw records, a WARNING in unionfs_demo's generic/001 (in
# its window: from check's "run fstests" line to the next) a kernel record
# of that test, and the test the guest died in a failure, or nothing when
# the run was interrupted from the host, and the rest of its batch
# nothing; a test not yet run on every type is no difference, but named; fstests/report.sh puts the kernel report
# and the differences from tmpfs at the top. fstests/teach.sh fails,
# naming the anchor, on a tree that lacks one.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "fstests-report: $*"; bad=1; }

log=tests/host/fixtures/fstests-console.log
fstests/collect.sh "$log" 1 >"$tmp/ended"
fstests/collect.sh "$log" 0 >"$tmp/interrupted"
grep -qx 'kernel-report unionfs_demo generic/001 \[  301.000001\] WARNING: CPU: 0 PID: 812 at fs/inode.c:1784 iput+0x1f3/0x210' "$tmp/ended" ||
	fail "the WARNING is not a kernel record of unionfs_demo generic/001"
grep -q '^kernel-report unionfs_demo generic/001 .*cut here' "$tmp/ended" ||
	fail "the cut-here line is not a kernel record of unionfs_demo generic/001"
[ "$(grep -c '^kernel-report ' "$tmp/ended")" = 2 ] || fail "kernel records other than the two lines of generic/001's report"
grep -q '^result tmpfs generic/013 fail 0 the guest ended during the test' "$tmp/ended" ||
	fail "the test the guest ended in is not a failure"
! grep -q 'generic/013' "$tmp/interrupted" ||
	fail "an interrupted run recorded the test it was in"
! grep -q 'generic/014' "$tmp/ended" ||
	fail "a test of the batch the guest never came to has a record"
[ "$(grep -c '^result ' "$tmp/interrupted")" = 6 ] || fail "not the 6 results of the log"
grep -qx 'detail unionfs_demo generic/448 +seek sanity check failed!' "$tmp/ended" || fail "a detail line was lost"

{ printf 'fstests 0123\nkernel 6.12.118+deb12-amd64\nmodule abcd\n'; cat "$tmp/ended"; } >"$tmp/raw.txt"
fstests/report.sh "$tmp/raw.txt" >"$tmp/report.md"
sed -n '/^## Kernel reports/,/^## Differences/p' "$tmp/report.md" | grep -q '| generic/001 | unionfs_demo | `\[  301.000001\] WARNING' ||
	fail "the report does not open with the kernel report"
diffs=$(sed -n '/^## Differences from tmpfs/,/^## Every test/p' "$tmp/report.md")
echo "$diffs" | grep -q '^| generic/448 | pass | fail | — | — | \[failed, exit status 1\]- output mismatch |' ||
	fail "generic/448 (pass on tmpfs, fail on unionfs_demo) is not among the differences"
echo "$diffs" | grep -q '^| generic/099 | pass | notrun |' || fail "generic/099 is not among the differences"
# generic/013 has tmpfs's result alone (the guest died in it): not yet a
# difference, but named as not yet run on every type.
echo "$diffs" | grep -q '^| generic/013 ' && fail "generic/013, run on tmpfs alone, is among the differences"
echo "$diffs" | grep -q '^Of the tests every type has a result for. Not yet run on every type: generic/013$' ||
	fail "generic/013 is not named as not yet run on every type"
sed -n '/^## Not run/,/^## Failures/p' "$tmp/report.md" |
	grep -q '^| generic/099 | unionfs_demo | ACLs not supported by this filesystem type: unionfs_demo |' ||
	fail "generic/099's reason is not in the report"
# The same raw records, the same report.
fstests/report.sh "$tmp/raw.txt" | cmp -s - "$tmp/report.md" || fail "two reports of one raw.txt differ"

mkdir -p "$tmp/fstests/common"
: >"$tmp/fstests/common/config"
if fstests/teach.sh "$tmp/fstests" >"$tmp/teach" 2>&1; then
	fail "teach.sh succeeded on a tree without its anchors"
elif ! grep -q "anchor not found exactly once: common/config, _common_mount_opts" "$tmp/teach"; then
	fail "teach.sh failed without naming the missing anchor: $(cat "$tmp/teach")"
fi

# Each committed report is what its raw.txt gives, with the report.sh of
# this tree: results/ holds only what the current code makes again.
reports=0
for raw in results/fstests/*/raw.txt; do
	[ -e "$raw" ] || continue
	reports=$((reports + 1))
	fstests/report.sh "$raw" | cmp -s - "${raw%raw.txt}report.md" ||
		fail "${raw%raw.txt}report.md is not what fstests/report.sh makes of $raw (make fstests REPORT=1)"
done

[ "$bad" = 0 ] && echo "fstests-report: collect, report and teach checked on fixtures; $reports committed report(s) made again identically"
exit "$bad"
