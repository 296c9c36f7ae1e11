# SPDX-License-Identifier: GPL-2.0
# bench-report: memory per inode, and the slab geometry behind it.

END {
	# ---- memory
	print "\n## Memory per inode\n" > M
	print "Measured over the create phase, while all N files live; median over the repetitions (memory does not depend on timing). *Floor* = `sizeof(struct inode)` + the private payload for ours; ramfs: `sizeof(struct inode)`; tmpfs: `sizeof(struct shmem_inode_info)`. *Slab pages*: new slab pages ÷ N, what the files really took (at small N, partly filled slabs left by the previous run blur it). *Slab objects*: new objects × the slab bytes per object (slab size ÷ objects per slab) ÷ N. *Statistics file*: the count the module keeps (`bytes_in_use`, object sizes as allocated, without slab overhead). *Also per file*: the other caches that grew, the same for every filesystem." > M
	print "" > M
	print "| filesystem | N | inode caches | allocs/inode (slab) | allocs/inode (stats) | floor | slab pages | slab objects | vs floor | statistics file | × ramfs | also per file |" > M
	print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|" > M
	for (f = 1; f <= nfs; f++) for (i = 1; i <= nn; i++) {
		fs = FS_[f]; mk = fs SUBSEP "flat" SUBSEP NS[i]
		if (!(mk in M_objs)) continue
		o = median(M_objs[mk]); rk = "ramfs" SUBSEP "flat" SUBSEP NS[i]
		printf "| %s | %s | %s | %.3f | %s | %s | %.1f | %.1f | %s | %s | %s | %s|\n", fs, nfmt(NS[i]), icache[fs], median(M_allocs[mk]),
			(mk in M_sallocs) ? sprintf("%.3f", median(M_sallocs[mk])) : "n/a", floor[fs], median(M_pages[mk]), o,
			(floor[fs] > 0) ? pct(o / floor[fs]) : "n/a", (mk in M_sbytes) ? sprintf("%.1f", median(M_sbytes[mk])) : "n/a",
			(rk in M_objs) ? ratio(o, median(M_objs[rk])) : "n/a", M_othertxt[mk] " " > M
		printf "%s %s %.1f %.1f\n", fs, NS[i], o, floor[fs] > (out "/.plot-memory.dat")
	}
	print "\nSlab geometry (from /sys/kernel/slab):\n" > M
	print "| cache | object size | slab size (stride) | order | objects per slab | slab bytes per object |" > M
	print "|---|---:|---:|---:|---:|---:|" > M
	for (c in cobj) printf "| %s | %d | %d | %d | %d | %.1f |\n", c, cobj[c], cslab[c], corder[c], cper[c], page * 2 ^ corder[c] / cper[c] > M

}
