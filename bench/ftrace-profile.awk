# SPDX-License-Identifier: GPL-2.0
#
# A per-function profile of a function_graph trace (/sys/kernel/tracing/
# trace, default options and funcgraph-proc), for bench/guest.sh's
# ipat.bench_trace. Under QEMU's icount a duration of 1 ns is one guest
# instruction, so "self" is the instructions a function ran itself, its
# callees' taken out, plus the tracer's own cost for each traced call
# (~1,400 instructions on 6.12: a traced unlink counted 355,195 against
# 6,131 untraced, in 245 calls). Frames cut off by the ring buffer's
# start, or still open at its end, are left out.
#
#   awk -v tag="fs=... n=..." -v per=__x64_sys_unlinkat -f ftrace-profile.awk trace
#
# Prints "IPAT-BENCH ftrace TAG per=PER ops=K fn=NAME calls=C self=S" for
# every function seen, C and S summed over the trace; K is how many
# complete calls of PER (the operation) it holds, to divide by.

# The duration in a column such as "+ 12.345 us": 12345 ns. The tracer
# prints at most seven digits: "12345.67 us", then "1234567 us".
function duration(col,    m) {
	if (!match(col, /[0-9]+(\.[0-9]+)? us/))
		return -1
	m = substr(col, RSTART, RLENGTH - 3)
	return int(m * 1000 + 0.5)
}

# The name in an entry or leaf, without its module.
function function_name(text) {
	text = substr(text, 1, index(text, "(") - 1)
	sub(/ .*/, "", text)
	return text
}

# One finished call of @name that took @ns, @child_ns of it in callees.
function account(name, ns, child_ns) {
	calls[name]++
	self[name] += ns - child_ns
	if (depth[task] + 0 > 0)
		children[task, depth[task]] += ns
}

# Columns: "CPU) COMM-PID | DURATION | TEXT". Each task has its own call
# stack: a task switched out mid-call goes on where it left off.
{
	n = split($0, col, "|")
	if (n < 3)
		next
	task = col[1]
	sub(/^ *[0-9]+\) */, "", task)
	sub(/ +$/, "", task)
	left = col[n - 1]
	text = col[n]
	sub(/^ +/, "", text)
	sub(/ +$/, "", text)
}

# An entry: "name() {", or "name [module]() {" for a module's function
text ~ /^[A-Za-z_][A-Za-z0-9_.]*( \[[A-Za-z0-9_]+\])?\(\) \{$/ {
	d = ++depth[task]
	stack[task, d] = function_name(text)
	children[task, d] = 0
	next
}

# A leaf: "name();" or "name [module]();"
text ~ /^[A-Za-z_][A-Za-z0-9_.]*( \[[A-Za-z0-9_]+\])?\(\);$/ {
	ns = duration(left)
	if (ns >= 0)
		account(function_name(text), ns, 0)
	next
}

# A return: "}" (or "} /* name */" with funcgraph-tail)
text ~ /^\}/ {
	d = depth[task] + 0	# + 0: busybox awk compares "" with 0 as strings
	if (d == 0)
		next	# its entry was before the buffer's start
	ns = duration(left)
	name = stack[task, d]
	child_ns = children[task, d]
	depth[task] = d - 1
	if (ns >= 0)
		account(name, ns, child_ns)
	next
}

END {
	for (name in calls)
		# %.0f: a chunk's instructions pass 2^31, which %d may not hold.
		printf "IPAT-BENCH ftrace %s per=%s ops=%.0f fn=%s calls=%.0f self=%.0f\n",
		       tag, per, calls[per], name, calls[name], self[name]
}
