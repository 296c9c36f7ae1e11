#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The raw records of one fstests guest's console log (fstests/guest.sh
# prints them), for results/fstests/<series>/raw.txt:
#   result FS TEST STATUS SECONDS [REASON]
#   detail FS TEST LINE
#   kernel-report FS TEST LINE     a kernel report (scripts/check-log.sh)
#                                  in the test's window of the log (from
#                                  check's "run fstests TEST" line on);
#                                  FS and TEST are "-" and "boot" before
#                                  the first batch
#
#   fstests/collect.sh LOG ENDED
#     ENDED  1: the guest ended (by itself, a panic, or a time limit), so
#            a test begun and never finished failed: it is recorded so;
#            0: the run was interrupted from the host, and such a test is
#            left out, to run again
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: fstests/collect.sh LOG ENDED" >&2; exit 2; }
log=$1 ended=$2

# Kernel reports, "LINE:TEXT", to attribute to the test whose window
# (its begin line) holds them.
reports=$(scripts/check-log.sh "$log" 2>&1 | sed -n 's/^\([0-9][0-9]*\):/\1\t/p' || true)
tr -d '\r' <"$log" | REPORTS=$reports awk -v ended="$ended" '
	BEGIN {
		n = split(ENVIRON["REPORTS"], r, "\n")
		for (i = 1; i <= n; i++) {
			tab = index(r[i], "\t")
			if (tab) report[substr(r[i], 1, tab - 1)] = substr(r[i], tab + 1)
		}
		cur = "- boot"
	}
	# The guest'\''s own line, not the kernel log'\''s copy of it: the
	# type of the tests that follow, and until the first begins, a
	# report is the first'\''s (check mounting its test filesystem).
	/^IPAT-FSTESTS batch / { fs = $3; cur = fs " " $4; next }
	# check'\''s line in the kernel log as a test begins: its window.
	/^\[ *[0-9.]+\] run fstests [^ ]+ at / && fs != "" {
		for (i = 1; i < NF; i++) if ($i == "fstests") break
		cur = fs " " $(i + 1); open = cur
		next
	}
	/^IPAT-FSTESTS result / {
		sub(/^IPAT-FSTESTS /, ""); print
		if ($2 " " $3 == open) open = ""
		next
	}
	/^IPAT-FSTESTS detail / { sub(/^IPAT-FSTESTS /, ""); print; next }
	NR in report {
		if (++count[cur] <= 10) print "kernel-report " cur " " report[NR]
	}
	END {
		if (open != "" && ended)
			print "result " open " fail 0 the guest ended during the test (a kernel panic, a hang or the time limit: see the kernel reports and the console log)"
	}
'
