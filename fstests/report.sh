#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The report of one kernel's fstests run, in Markdown on stdout, from its
# raw records alone (fstests/collect.sh's, results/fstests/<series>/raw.txt):
# what differs from tmpfs first, then every test's outcome and time on each
# type, why each test that did not run did not, and each failure's output.
#
#   fstests/report.sh RAW
set -eu
[ $# -eq 1 ] || { echo "usage: fstests/report.sh RAW" >&2; exit 2; }
[ -s "$1" ] || { echo "report: $1 is missing or empty" >&2; exit 1; }
awk '
# Reading st[fs, t] would make the entry: every read goes through S().
function S(fs, t) { return ((fs, t) in st) ? st[fs, t] : "—" }
function W(fs, t) { return ((fs, t) in why) ? why[fs, t] : "" }
function cell(fs, t) {
	if (!((fs, t) in st)) return "—"
	return st[fs, t] " (" secs[fs, t] " s)" (((fs, t) in kr) ? ", kernel report" : "")
}
# The line from field FROM on, as it was (a diff'\''s blanks kept).
function rest(from,   s, i) {
	if (NF < from) return ""
	s = $0
	for (i = 1; i < from; i++) sub(/^[^ ]* /, "", s)
	return s
}
NR <= 3 { head[$1] = $2; next }
$1 == "result" {
	fs = $2; t = $3
	if (!(t in seen)) { seen[t] = 1; tests[++ntests] = t }
	st[fs, t] = $4; secs[fs, t] = $5; why[fs, t] = rest(6); ran[fs] = 1
	sub(/^- /, "", why[fs, t]); sub(/ +$/, "", why[fs, t])
	next
}
$1 == "detail" { det[$2, $3] = det[$2, $3] rest(4) "\n"; next }
$1 == "kernel-report" { kern[++nkern] = "| " $3 " | " $2 " | `" rest(4) "` |"; kr[$2, $3] = 1; next }
END {
	ntypes = split("tmpfs unionfs_demo embedfs_demo voidfs_demo", types, " ")
	# Tests by name.
	for (i = 2; i <= ntests; i++)
		for (j = i; j > 1 && tests[j - 1] > tests[j]; j--) {
			x = tests[j]; tests[j] = tests[j - 1]; tests[j - 1] = x
		}
	for (i = 1; i <= ntests; i++) {
		t = tests[i]
		for (k = 1; k <= ntypes; k++) {
			fs = types[k]
			if ((fs, t) in st) { count[fs, st[fs, t]]++; total[fs] += secs[fs, t] }
		}
		# A test that a type of the run has no result for yet (a
		# run still going) is left out of the differences, and named.
		for (k = 1; k <= ntypes; k++)
			if ((types[k] in ran) && !((types[k], t) in st)) { partial[t] = 1; npartial++; break }
		if (t in partial) continue
		# A different outcome, a kernel report, or a failure of
		# another kind (the line check prints for it).
		for (k = 2; k <= ntypes; k++)
			if (S(types[k], t) != S("tmpfs", t) || (types[k], t) in kr ||
			    (S(types[k], t) == "fail" && W(types[k], t) != W("tmpfs", t))) {
				differs[t] = 1; ndiff++; break
			}
	}
	print "# fstests on Linux " head["kernel"]
	print ""
	print "fstests commit `" head["fstests"] "`; the module built from the sources of commit `" head["module"] "` (`src/`, `include/`, `Kbuild`)."
	print "Each test ran on tmpfs, the control, and on each of the three types, all mounted with `size=1G`, in `./check` runs of one or more tests on one type, the module reloaded after each test on ours; in QEMU (TCG), one vCPU a guest. Made by `make fstests`; `make fstests REPORT=1` makes this file again from `raw.txt`."
	print ""
	printf "Summary: %d tests;", ntests
	for (k = 1; k <= ntypes; k++)
		printf " %s %d pass, %d fail, %d notrun (%d s)%s", types[k], count[types[k], "pass"], \
			count[types[k], "fail"], count[types[k], "notrun"], total[types[k]], k < ntypes ? ";" : ""
	printf "; %d differ from tmpfs; %d kernel reports%s\n\n", ndiff, nkern,
		npartial ? sprintf("; %d not yet run on every type", npartial) : ""
	printf "Tests run:"
	for (i = 1; i <= ntests; i++) printf " %s", tests[i]
	print "\n"
	if (nkern) {
		print "## Kernel reports (these fail the run)"
		print ""
		print "| test | type | console line |"
		print "|---|---|---|"
		for (i = 1; i <= nkern; i++) print kern[i]
		print ""
	}
	print "## Differences from tmpfs"
	print ""
	if (npartial) {
		printf "Of the tests every type has a result for. Not yet run on every type:"
		for (i = 1; i <= ntests; i++) if (tests[i] in partial) printf " %s", tests[i]
		print "\n"
	}
	if (!ndiff) print "None."
	else {
		print "| test | tmpfs | unionfs_demo | embedfs_demo | voidfs_demo | why (ours; then tmpfs) |"
		print "|---|---|---|---|---|---|"
		for (i = 1; i <= ntests; i++) {
			t = tests[i]
			if (!(t in differs)) continue
			# Each reason once, however many types gave it
			# (fstests names the type in some).
			reason = ""; split("", given)
			for (k = 2; k <= ntypes; k++) {
				r = W(types[k], t); key = r; gsub(types[k], "", key)
				if (r == "" || key in given) continue
				given[key] = 1
				reason = reason (reason == "" ? "" : "; ") r
			}
			# and the one tmpfs gave, where it did not pass
			if (W("tmpfs", t) != "")
				reason = (reason == "" ? "" : reason "; ") "tmpfs: " W("tmpfs", t)
			gsub(/\|/, "\\|", reason)
			printf "| %s", t
			for (k = 1; k <= ntypes; k++)
				printf " | %s", S(types[k], t) (((types[k], t) in kr) ? ", kernel report" : "")
			print " | " reason " |"
		}
	}
	print ""
	print "## Every test: outcome (seconds)"
	print ""
	print "| test | tmpfs | unionfs_demo | embedfs_demo | voidfs_demo |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= ntests; i++) {
		t = tests[i]
		printf "| %s", t
		for (k = 1; k <= ntypes; k++) printf " | %s", cell(types[k], t)
		print " |"
	}
	print ""
	print "## Not run: why"
	print ""
	print "| test | types | reason |"
	print "|---|---|---|"
	for (i = 1; i <= ntests; i++) {
		t = tests[i]
		# One row per reason, naming the types that gave it; a
		# reason that names the type is the same reason for each.
		split("", rows); nrows = 0
		for (k = 1; k <= ntypes; k++) {
			fs = types[k]
			if (S(fs, t) != "notrun") continue
			r = why[fs, t]; gsub(/\|/, "\\|", r)
			key = r; gsub(fs, "<type>", key)
			if (!(key in rows)) { order[++nrows] = key; rows[key] = fs; text[key] = r }
			else rows[key] = rows[key] ", " fs
		}
		for (j = 1; j <= nrows; j++) {
			key = order[j]
			print "| " t " | " rows[key] " | " (index(rows[key], ",") ? key : text[key]) " |"
		}
	}
	print ""
	print "## Failures"
	for (i = 1; i <= ntests; i++)
		for (k = 1; k <= ntypes; k++) {
			t = tests[i]; fs = types[k]
			if (S(fs, t) != "fail") continue
			print ""
			print "### " t " on " fs ": " why[fs, t]
			print ""
			print "```"
			printf "%s", det[fs, t]
			print "```"
		}
}
' "$1"
