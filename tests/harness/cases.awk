# SPDX-License-Identifier: GPL-2.0
#
# The named checks of each guest test, from a guest console log, for the
# per-case KTAP of tests/run-qemu.sh. Between "IPAT-START TEST" and
# "IPAT-RESULT TEST ..." every line of the form
#   ok [N] DESCRIPTION            (also "ok: DESCRIPTION", "ok   ...")
#   not ok [N] DESCRIPTION
#   ok [N] DESCRIPTION # SKIP REASON
# is one check, KUnit's own results among them (indented: "    ok 3
# xt_set_get" under "# Subtest: inode_patterns_xattr", whose name then
# prefixes the case's). Output, one line per check, tab-separated:
#   TEST <TAB> PASS|FAIL|SKIP <TAB> DESCRIPTION <TAB> SKIP REASON
# A description that repeats within a test gets " (2)", " (3)", ... so
# that each check stays one line; "/", which separates the levels of a
# result's path, becomes U+2215 (a division slash, which looks the same).
BEGIN { OFS = "\t" }

/^IPAT-START / { test = $2; suite = ""; delete count; next }
/^IPAT-RESULT / { test = ""; next }
test == "" { next }

/^[ \t]*# Subtest: / {
	suite = $0
	sub(/^[ \t]*# Subtest: /, "", suite)
	next
}

/^[ \t]*(not ok|ok)([ :]|$)/ {
	line = $0
	sub(/^[ \t]+/, "", line)
	indented = $0 ~ /^[ \t]/
	status = line ~ /^not ok/ ? "FAIL" : "PASS"
	sub(/^(not ok|ok)[ :]*/, "", line)
	sub(/^[0-9]+ +/, "", line)
	reason = ""
	if (match(line, / # SKIP ?/)) {
		reason = substr(line, RSTART + RLENGTH)
		line = substr(line, 1, RSTART - 1)
		status = "SKIP"
	}
	# A KUnit suite's own result line repeats its name: not a case.
	if (!indented && suite != "" && line == suite) {
		suite = ""
		next
	}
	if (indented && suite != "")
		line = suite ": " line
	gsub(/#/, "no. ", line)
	gsub(/\//, "\342\210\225", line)
	gsub(/\t/, " ", line)
	gsub(/\t/, " ", reason)
	if (line == "")
		line = "(unnamed)"
	if (++count[line] > 1)
		line = line " (" count[line] ")"
	print test, status, line, reason
}
