#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# bench/demo-table.awk -v dir=REPORT-DIR /dev/null: scripts/demo.sh's table, from
# the CSV files of a bench report (bench/report.sh) of one demo
# guest: per filesystem, allocations and slab bytes per inode, and
# instructions per create, stat, statx of the birth time, getxattr and
# unlink, each also as a ratio to ramfs's.
#
# Which figure of each: create and stat, the whole phase per operation,
# every chunk in (on 6.1 a create chunk takes none, one or more of SLUB's
# slower per-CPU refills: over three runs the median chunk moved by up to
# 0.47%, the whole phase by 0.32%); unlink, the median chunk: its frees
# run in RCU batches, and the batches due when one filesystem's phase
# ends run in the next one's, which moved whole phases by up to 5%
# between runs and median chunks by up to 0.26% (tmpfs on 6.12: 1.2%);
# statx and getxattr, the median pass. Printed to
# three significant digits, ratios to two decimals: two runs agree within
# 0.5% (but tmpfs's unlink on 6.12), so that they normally print the same table.

# Rows of a CSV file with a header, into V[key, column name].
function load(file, keycols,   line, n, i, h, f, key, nk, kc) {
	nk = split(keycols, kc, ",")
	if ((getline line < file) <= 0) { print "demo-table: cannot read " file > "/dev/stderr"; exit 1 }
	n = split(line, h, ",")
	while ((getline line < file) > 0) {
		split(line, f, ",")
		key = ""
		for (i = 1; i <= nk; i++) key = key (i > 1 ? SUBSEP : "") f[kc[i]]
		for (i = 1; i <= n; i++) V[key, h[i]] = f[i]
	}
	close(file)
}
# x to three significant digits, with a thousands separator: 10,600.
function sig3(x,   e, r, s) {
	if (x == "") return "n/a"
	e = int(log(x) / log(10)); r = 10 ^ (e - 2)
	x = int(x / r + 0.5) * r
	s = sprintf("%.0f", x)
	while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
	return s
}
function ratio(a, b) { return (a != "" && b + 0 > 0) ? sprintf("%.2f", a / b) : "n/a" }

BEGIN {
	load(dir "/instructions.csv", "1,3,5")	# fs, layout, phase
	load(dir "/memory.csv", "1,2")		# fs, layout
	load(dir "/payload.csv", "1,2")		# fs, rep
	nfs = split("unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs", FS_, " ")
	for (f = 1; f <= nfs; f++) {
		fs = FS_[f]
		C[fs, "create"] = V[fs, "flat", "create", "whole_phase_instructions_per_op"]
		C[fs, "stat"] = V[fs, "flat", "stat", "whole_phase_instructions_per_op"]
		C[fs, "unlink"] = V[fs, "flat", "unlink", "instructions_per_op"]
		C[fs, "statx"] = V[fs, 1, "statx_median_pass_instructions"]
		C[fs, "getxattr"] = V[fs, 1, "getxattr_median_pass_instructions"]
	}
	nop = split("create stat statx getxattr unlink", OP, " ")
	printf "%-13s %-13s %6s %7s", "", "", "allocs", "slab B"
	head2 = sprintf("%-13s %-13s %6s %7s", "filesystem", "pattern", "/inode", "/inode")
	title["create"] = "create"; title["stat"] = "stat"; title["statx"] = "statx btime"
	title["getxattr"] = "getxattr"; title["unlink"] = "unlink"
	for (o = 1; o <= nop; o++) {
		printf " | %-14s", title[OP[o]]
		head2 = head2 sprintf(" | %7s %6s", "instr", "×ramfs")
	}
	print ""
	print head2
	for (f = 1; f <= nfs; f++) {
		fs = FS_[f]
		pat = fs == "ramfs" ? "(VFS inode)" : (fs == "tmpfs" ? "(embedded)" : V[fs, "flat", "create", "pattern"])
		printf "%-13s %-13s %6.2f %7.1f", fs, pat, V[fs, "flat", "allocs_per_inode_slab"], V[fs, "flat", "bytes_per_inode_slab_objects"]
		for (o = 1; o <= nop; o++)
			printf " | %7s %6s", sig3(C[fs, OP[o]]), ratio(C[fs, OP[o]], C["ramfs", OP[o]])
		print ""
	}
	print ""
	print "allocs/inode: objects the inode caches gained per file created (slab counts); slab B/inode:"
	print "those objects' bytes of slab (slab size / objects per slab). instr: instructions per operation"
	print "(QEMU icount); create, stat: the whole phase over its files; unlink: the median chunk of 500;"
	print "statx of the birth time, getxattr on open files: the median pass. ×ramfs: over ramfs's count."
}
