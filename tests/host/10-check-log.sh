#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-log.sh passes a clean console log (which holds harmless
# look-alikes: boot messages and test output naming BUG, WARNING, ...)
# and rejects it with each kind of kernel report from fixtures/reports.txt
# added alone; and its windows of expected reports (IPAT-EXPECT) pass or
# fail as fixtures/expected-reports.txt says.
set -eu
cd "$(dirname "$0")/../.."
fixtures=tests/host/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

if ! scripts/check-log.sh "$fixtures/clean.log" >"$tmp/out"; then
	cat "$tmp/out"
	echo "check-log rejected the clean log"
	bad=1
fi

count=0
while IFS= read -r report; do
	case $report in '#'*|'') continue ;; esac
	count=$((count + 1))
	# In the middle of the log, with the serial console's CRLF ending.
	{ head -n 20 "$fixtures/clean.log"; printf '%s\r\n' "$report"
	  tail -n +21 "$fixtures/clean.log"; } >"$tmp/log"
	if scripts/check-log.sh "$tmp/log" >"$tmp/out"; then
		echo "check-log missed: $report"
		bad=1
	elif ! grep -qF -- "$report" "$tmp/out"; then
		echo "check-log failed but did not print: $report"
		bad=1
	fi
done <"$fixtures/reports.txt"

# Each case of expected-reports.txt into $tmp/case.N, its verdict and
# name into $tmp/cases.
awk -v dir="$tmp" '
	/^#/ { next }
	/^== / { n++; print $2 "\t" substr($0, length($2) + 5) >dir "/cases"; next }
	n { print >(dir "/case." n) }
' "$fixtures/expected-reports.txt"
windows=0
while IFS=$'\t' read -r verdict name; do
	windows=$((windows + 1))
	{ head -n 20 "$fixtures/clean.log"; sed 's/$/\r/' "$tmp/case.$windows"
	  tail -n +21 "$fixtures/clean.log"; } >"$tmp/log"
	rc=0
	scripts/check-log.sh "$tmp/log" >"$tmp/out" || rc=$?
	case $verdict:$rc in
	pass:0|fail:1) ;;
	*) cat "$tmp/out"; echo "check-log: exit $rc, expected to $verdict: $name"; bad=1 ;;
	esac
done <"$tmp/cases"

echo "check-log: clean log, $count report kinds and $windows expected-report windows checked"
exit "$bad"
