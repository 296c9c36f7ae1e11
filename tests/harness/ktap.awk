# SPDX-License-Identifier: GPL-2.0
#
# Turn tests/run-qemu.sh's flat results into KTAP version 1, the kernel's
# test format (Documentation/dev-tools/ktap.rst), so that kernel tooling
# such as kunit.py can read a run.
#
# Input, one line per result, in the order they were found, tab-separated:
#   PASS|FAIL|SKIP <TAB> path/of/the/test <TAB> detail [<TAB> case]
#   NOTE <TAB> path/of/a/group <TAB> text
# ("case" marks a named check inside a guest test: tests/harness/cases.awk.)
# A path's components are the nesting: "6.12.118+deb12-amd64/debug/guest/
# 20-fs-basic" is test 20-fs-basic of group guest of the debug tier of that
# kernel. A group is "not ok" when a test under it failed. A FAIL's detail
# becomes a diagnostic line before its result, a SKIP's the "# SKIP"
# reason; a NOTE is a diagnostic line of its group.
BEGIN { FS = "\t" }

{
	status = $1
	path = $2
	detail = $3
	if (status == "NOTE") {
		notes[path] = notes[path] "\n# " detail
		next
	}
	n = split(path, part, "/")
	parent = ""
	for (i = 1; i <= n; i++) {
		node = i == 1 ? part[1] : parent "/" part[i]
		if (!(node in seen)) {
			seen[node] = 1
			kids[parent]++
			kid[parent, kids[parent]] = node
			name[node] = part[i]
		}
		if (status == "FAIL")
			failed[node] = 1
		parent = node
	}
	result[path] = status
	why[path] = detail
}

function indent(depth,    s) {
	s = ""
	while (depth-- > 0)
		s = s "    "
	return s
}

function plan(node, depth,    pad, i, text) {
	pad = indent(depth)
	print pad "KTAP version 1"
	if (node != "")
		print pad "# Subtest: " name[node]
	print pad "1.." kids[node]
	if (node in notes) {
		text = substr(notes[node], 2)
		gsub(/\n/, "\n" pad, text)
		print pad text
	}
	for (i = 1; i <= kids[node]; i++)
		emit(kid[node, i], depth, i)
}

function emit(node, depth, number,    pad, line) {
	pad = indent(depth)
	if (kids[node] > 0) {
		plan(node, depth + 1)
		print pad (failed[node] ? "not ok " : "ok ") number " " name[node]
		return
	}
	line = pad (result[node] == "FAIL" ? "not ok " : "ok ") number " " name[node]
	if (result[node] == "SKIP")
		line = line " # SKIP " why[node]
	else if (result[node] == "FAIL" && why[node] != "")
		print pad "# " why[node]
	print line
}

END { plan("", 0) }
