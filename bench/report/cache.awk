#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# The cache mode's report (bench/cache.sh): reads cache-raw.txt, the
# guest's records followed by the plugin's lines, and writes into dir
# cache.csv (one row per kernel, filesystem, regime and operation: counts
# per operation) and cache.md (its tables, and the article's claim about
# the void pointer's extra dereference).
#
# The guest prints "IPAT-BENCH cache-phase ... id=ID ops=N" before each
# measured part; the plugin prints one "IPAT-CACHE ... phase=ID" line per
# part when it ends. No other program marks phases, so the two lists pair
# in order; a pair whose ids differ stops the report. The hot regime's
# first pass warms the caches and is left out; of the others, the median
# pass per operation is the figure.
#
#   awk -f bench/report/cache.awk -v dir=DIR DIR/cache-raw.txt

function kv(line, key,    m) {
	if (match(line, "(^| )" key "=[^ ]*")) {
		m = substr(line, RSTART, RLENGTH)
		sub(/^ /, "", m)
		return substr(m, length(key) + 2)
	}
	return ""
}

/^IPAT-BENCH begin / { kernel = kv($0, "kernel") }
/^IPAT-BENCH cache-phase / {
	ng++
	g_fs[ng] = kv($0, "fs"); g_regime[ng] = kv($0, "regime")
	g_pass[ng] = kv($0, "pass"); g_op[ng] = kv($0, "op")
	g_id[ng] = kv($0, "id"); g_ops[ng] = kv($0, "ops")
	next
}
/^IPAT-BENCH cache-fs / {
	fs = kv($0, "fs")
	nfs++; fs_list[nfs] = fs
	hot = kv($0, "hot"); passes = kv($0, "passes"); cold = kv($0, "cold")
	xattr[fs] = kv($0, "xattr")
}
/^IPAT-CACHE config / {
	config = $0
	sub(/^IPAT-CACHE config /, "", config)
	l1d = kv($0, "l1d_size") / 1024; l1d_ways = kv($0, "l1d_ways")
	llc = kv($0, "llc_size") / 1048576; llc_ways = kv($0, "llc_ways")
	line_size = kv($0, "line"); policy = kv($0, "policy")
}
/^IPAT-CACHE vcpu=/ && kv($0, "phase") != 0 {
	np++
	p_id[np] = kv($0, "phase")
	for (i = 1; i <= nm; i++)
		p[np, m[i]] = kv($0, m[i])
}
BEGIN {
	nm = split("insns loads stores l1d_misses llc_misses", m, " ")
	split("instructions loads stores L1D_misses LLC_misses", mname, " ")
	nop = split("create stat statx_btime getxattr unlink", ops, " ")
	nreg = split("hot cold", regimes, " ")
}

function fail(msg) {
	print "cache.awk: " msg > "/dev/stderr"
	failed = 1
	exit 1
}

function fmt(v) {
	return v >= 100 ? sprintf("%.0f", v) : sprintf("%.1f", v)
}

# The median of the parts' per-operation figures: a timer interrupt or an
# RCU callback that lands in one hot pass of 16 operations would move
# their mean by tens of instructions, not their median. The cold regime
# is one part, whose 100,000 operations average such events out.
function median(k, measure, count,    i, j, v, a) {
	for (i = 1; i <= count; i++) {
		v = part[k, measure, i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
	return count % 2 ? a[(count + 1) / 2] : (a[count / 2] + a[count / 2 + 1]) / 2
}

# "+N" or "-N", one decimal.
function delta(v,    s) {
	s = sprintf("%.1f", v)
	if (s == "-0.0")
		s = "0.0"
	return (s + 0 >= 0 ? "+" : "") s
}

END {
	if (failed)
		exit 1
	if (!ng || ng != np)
		fail(sprintf("%d measured parts in the guest's records, %d in the plugin's lines", ng, np))
	for (i = 1; i <= ng; i++) {
		if (g_id[i] != p_id[i])
			fail(sprintf("part %d: the guest marked %s, the plugin counted %s", i, g_id[i], p_id[i]))
		if (g_regime[i] == "hot" && g_pass[i] == 1)
			continue
		k = g_fs[i] SUBSEP g_regime[i] SUBSEP g_op[i]
		n[k] += g_ops[i]
		nparts[k]++
		for (j = 1; j <= nm; j++)
			part[k, m[j], nparts[k]] = p[i, m[j]] / g_ops[i]
	}

	csv = dir "/cache.csv"
	print "kernel,fs,regime,op,ops," \
		"insns_per_op,loads_per_op,stores_per_op,l1d_misses_per_op,llc_misses_per_op" > csv
	for (r = 1; r <= nreg; r++)
		for (o = 1; o <= nop; o++)
			for (f = 1; f <= nfs; f++) {
				k = fs_list[f] SUBSEP regimes[r] SUBSEP ops[o]
				if (!n[k])
					fail("no " regimes[r] " " ops[o] " on " fs_list[f])
				printf "%s,%s,%s,%s,%d", kernel, fs_list[f], regimes[r], ops[o], n[k] > csv
				for (j = 1; j <= nm; j++) {
					per[k, m[j]] = median(k, m[j], nparts[k])
					printf ",%.2f", per[k, m[j]] > csv
				}
				printf "\n" > csv
			}
	close(csv)

	md = dir "/cache.md"
	printf "# The cache model: memory accesses and misses per operation (Linux %s)\n\n", kernel > md
	print "Made by `make bench CACHE=1` (bench/cache.sh); the records are in" > md
	print "[cache-raw.txt](cache-raw.txt), the figures in [cache.csv](cache.csv)," > md
	print "and `bench/cache.sh --report DIR` makes this page again from them." > md
	print "" > md
	printf "Modelled caches (bench/cache-model/README.md): L1D %g KiB %d-way, LLC %g MiB %d-way, %d-byte lines, %s; physical addresses.\n", \
		l1d, l1d_ways, llc, llc_ways, line_size, toupper(policy) > md
	printf "Every figure is per operation and counts everything the vCPU did during the measured part: the\n" > md
	printf "system call, the kernel's work for it, interrupts, and the benchmark's loop (a few loads an operation).\n\n" > md
	printf "- **hot**: %d files, %d passes of each operation over them in a shuffled order; the figure is\n", hot, passes > md
	printf "  the median pass's, the first pass left out: what an operation touches stays cached from pass\n" > md
	printf "  to pass, and an interrupt that lands in one pass does not move the median.\n" > md
	printf "- **cold**: %d files, each operation once on every file in a shuffled order: what it touches\n", cold > md
	printf "  was last touched %d files ago, far past the last-level cache.\n\n", cold > md
	print "create is openat(O_CREAT) and close; stat is fstatat by name (the path walk included);" > md
	print "statx_btime and getxattr go through an open descriptor: the private data's part of the call" > md
	print "is as large as userspace can make it. ramfs has neither a birth time nor xattrs: its getxattr" > md
	print "is the refusal." > md
	print "" > md
	print "How far two runs differ, and why (the boot places objects in other physical pages):" > md
	print "[docs/benchmark.md](../../../docs/benchmark.md#memory-layout-and-the-cache-model)." > md
	for (r = 1; r <= nreg; r++) {
		printf "\n## %s\n\n", regimes[r] > md
		printf "| operation | filesystem |" > md
		for (j = 1; j <= nm; j++)
			printf " %s |", mname[j] > md
		printf "\n|---|---|" > md
		for (j = 1; j <= nm; j++)
			printf "---:|" > md
		printf "\n" > md
		for (o = 1; o <= nop; o++)
			for (f = 1; f <= nfs; f++) {
				k = fs_list[f] SUBSEP regimes[r] SUBSEP ops[o]
				printf "| %s | %s |", f == 1 ? ops[o] : "", fs_list[f] > md
				for (j = 1; j <= nm; j++)
					printf " %s |", fmt(per[k, m[j]]) > md
				printf "\n" > md
			}
	}

	# The claim: reaching the private data through i_private costs an
	# extra dereference. Against embedding, per payload access.
	printf "\n## The void pointer's extra dereference\n\n" > md
	print "Per payload access, each pattern against embedfs_demo (the embedded struct):" > md
	print "" > md
	print "| access | regime | pattern | loads | L1D misses | LLC misses |" > md
	print "|---|---|---|---:|---:|---:|" > md
	for (o = 3; o <= 4; o++)
		for (r = 1; r <= nreg; r++) {
			base = "embedfs_demo" SUBSEP regimes[r] SUBSEP ops[o]
			for (f = 1; f <= nfs; f++) {
				if (fs_list[f] !~ /^(unionfs|voidfs)_demo$/)
					continue
				k = fs_list[f] SUBSEP regimes[r] SUBSEP ops[o]
				printf "| %s | %s | %s | %s | %s | %s |\n", ops[o], regimes[r], fs_list[f], \
					delta(per[k, "loads"] - per[base, "loads"]), \
					delta(per[k, "l1d_misses"] - per[base, "l1d_misses"]), \
					delta(per[k, "llc_misses"] - per[base, "llc_misses"]) > md
			}
		}
	print "" > md
	print "`make layout` (bench/layout.sh) shows on which cache line of each object the payload lies." > md
	close(md)
}
