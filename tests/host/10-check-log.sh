#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-log.sh passes a clean console log (which holds harmless
# look-alikes: boot messages and test output naming BUG, WARNING, ...)
# and rejects it with each kind of kernel report from fixtures/reports.txt
# added alone.
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

echo "check-log: clean log and $count report kinds checked"
exit "$bad"
