# SPDX-License-Identifier: GPL-2.0
# bench/report/data.awk: the guests' records (bench/guest.sh, bench/prog/,
# one "IPAT-BENCH <record> key=value..." line each) into the report's data
# model, data.csv, a row per value:
#
#   seq,record,fs,layout,n,rep,key,value
#
# seq numbers the records in the order the guests printed them, so the
# rows of one record share it; fs, layout, n and rep say what the record
# is about (empty when it is about none of them); key and value are each
# of its other fields, in the order printed. A note's text is key "text".
# Under icount the guest clock's nanoseconds are instructions (report.sh
# takes no other log), so keys that say ns say instructions here. A value
# with a comma or a quote is quoted, as RFC 4180 has it.

function csv(v) {
	if (v !~ /[,"]/)
		return v
	gsub(/"/, "\"\"", v)
	return "\"" v "\""
}

function instructions(key) {
	if (key == "ns_per_op")
		return "instructions_per_op"
	sub(/_ns$/, "_instructions", key)
	return key
}

function row(key, value) {
	print seq, record, ids, csv(key), csv(value)
}

BEGIN {
	OFS = ","
	print "seq,record,fs,layout,n,rep,key,value"
}

$1 == "IPAT-BENCH" {
	seq++
	record = $2
	delete id
	for (i = 3; i <= NF; i++)
		if ($i ~ /^(fs|layout|n|rep)=/)
			id[substr($i, 1, index($i, "=") - 1)] = substr($i, index($i, "=") + 1)
	ids = csv(id["fs"]) "," csv(id["layout"]) "," id["n"] "," id["rep"]
	if (record == "note") {
		row("text", substr($0, index($0, "note ") + 5))
		next
	}
	fields = 0
	for (i = 3; i <= NF; i++) {
		if ($i ~ /^(fs|layout|n|rep)=/)
			continue
		p = index($i, "=")
		if (p)
			row(instructions(substr($i, 1, p - 1)), substr($i, p + 1))
		else
			row("text", $i)
		fields++
	}
	# A record of identifiers alone still says it was there.
	if (!fields)
		row("", "")
}
