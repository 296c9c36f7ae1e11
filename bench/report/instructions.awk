# SPDX-License-Identifier: GPL-2.0
# bench-report: instructions per operation at every size and layout, how they scale with N, and the
# other operations (ipat-bench ops).

# How the chunks of a phase were ordered (bench/guest.sh, ipat.bench_order);
# logs from before order= was recorded ran in turns.
function chunk_order() {
	return B["order"] == "blocks" ? "in blocks: each filesystem runs all its chunks of a phase before the next, so that the RCU callbacks a chunk runs free its own filesystem's objects" : "in turns, chunk by chunk"
}
# "+118" or "n/a": a - b, in instructions.
function cost_diff(a, b) { return (a != "" && b != "") ? sprintf("%+.0f", a - b) : "n/a" }

END {
	{
		print "\n## Instructions per operation\n" > M
		print "Median chunk, in instructions. *× ramfs*: the filesystem's count over ramfs's, same size and layout (above 1: more work). *refill* creates again the odd-numbered half of the files after unlinking it, once their objects are back in the slabs: no create of that phase needs a new slab page, so it counts the filesystem's own path and SLUB's partial slabs, and nothing of the page allocator, whose cost per create depends on how the boot left its free lists (bench/prog/files.c). Its figure is the cheapest chunk, not the median: on 6.1 a refill chunk also takes none, one or two of SLUB's slower refills of its per-CPU slab (~12,500 instructions each), as the boot happens to fall. *− embedfs* is the pattern's refill count minus embedfs's: what the pattern itself adds to a create. `flat`: all files in one directory; `spread`: " B["per_dir"] " files per directory. All five filesystems hold their N files at once; chunks ran " chunk_order() "." > M
		print "" > M
		print "| filesystem | pattern | layout | N | create | × ramfs | stat | × ramfs | refill | − embedfs | unlink | × ramfs |" > M
		print "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" > M
		for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (f = 1; f <= nfs; f++) {
			fs = FS_[f]; k0 = fs SUBSEP LAY[l] SUBSEP NS[i]; r0 = "ramfs" SUBSEP LAY[l] SUBSEP NS[i]
			e0 = "embedfs_demo" SUBSEP LAY[l] SUBSEP NS[i]
			if (!((k0 SUBSEP "create") in NSMED)) continue
			printf "| %s | %s | %s | %s", fs, pattern[fs], LAY[l], nfmt(NS[i]) > M
			printf " | %.0f | %s", NSMED[k0 SUBSEP "create"], cost_ratio(NSMED[k0 SUBSEP "create"], NSMED[r0 SUBSEP "create"]) > M
			printf " | %.0f | %s", NSMED[k0 SUBSEP "stat"], cost_ratio(NSMED[k0 SUBSEP "stat"], NSMED[r0 SUBSEP "stat"]) > M
			printf " | %s | %s", fmt(NSMED[k0 SUBSEP "refill"], 0), cost_diff(NSMED[k0 SUBSEP "refill"], NSMED[e0 SUBSEP "refill"]) > M
			printf " | %.0f | %s |\n", NSMED[k0 SUBSEP "unlink"], cost_ratio(NSMED[k0 SUBSEP "unlink"], NSMED[r0 SUBSEP "unlink"]) > M
		}

		# How the per-operation count grows from the smallest N to the
		# largest: under icount nothing but the work itself can move it.
		if (nn > 1) {
			printf "\n## Scaling: instructions per operation at N = %s over N = %s\n\n", nfmt(large), nfmt(small) > M
			print "1.000 is a cost that does not depend on how many files the filesystem holds. *unlink, whole phase*: the same for the phase's instructions over N, every chunk in. An unlink's inode and dentry are freed later, by RCU callbacks that run in batches; at the smallest N a chunk can be shorter than the time between two batches, and then some chunks run none of them and the others more than their own, which moves the median chunk but not the whole phase (docs/benchmark.md, \"Unlink and N\")." > M
			print "" > M
			print "| filesystem | layout | create | stat | refill | unlink | unlink, whole phase |" > M
			print "|---|---|---:|---:|---:|---:|---:|" > M
			for (f = 1; f <= nfs; f++) for (l = 1; l <= nl; l++) {
				k0 = FS_[f] SUBSEP LAY[l]
				if (!((k0 SUBSEP large SUBSEP "create") in NSMED) || !((k0 SUBSEP small SUBSEP "create") in NSMED)) continue
				printf "| %s | %s", FS_[f], LAY[l] > M
				for (p = 1; p <= nph; p++) {
					phase = p == 3 ? "refill" : (p == 4 ? "unlink" : PH[p])
					printf " | %s", cost_ratio(NSMED[k0 SUBSEP large SUBSEP phase], NSMED[k0 SUBSEP small SUBSEP phase]) > M
				}
				printf " | %s |\n", cost_ratio(median(NSPHASE[k0 SUBSEP large SUBSEP "unlink"]), median(NSPHASE[k0 SUBSEP small SUBSEP "unlink"])) > M
			}
		}

		if (length(ops_fs)) {
			printf "\n## Other operations\n\n`ipat-bench ops`: %s of each, in one directory, %s; %s, instructions per operation; *× ramfs* for each of ours. `unlink_link` removes a second link; `write_read` is a 64-byte pwrite and pread.\n\n", ops_n, B["order"] == "blocks" ? "in blocks" : "chunk by chunk in turns",
				length(OPSMEAN) ? "the mean of the chunks (the whole run), not the median chunk: an operation's chunks can fall in two groups, those that ran a batch of the RCU frees of earlier ones and those that did not, and a median picks one group or the other from boot to boot (the CSV has both)" : "median chunk (this log has no per-chunk records)" > M
			printf "| operation" > M
			for (f = 1; f <= nfs; f++) if (FS_[f] in ops_fs) printf " | %s", FS_[f] > M
			print " | × ramfs: union, embed, void |" > M
			printf "|---" > M
			for (f = 1; f <= nfs; f++) if (FS_[f] in ops_fs) printf "|---:" > M
			print "|---|" > M
			# ipat-bench's order, then anything newer it printed.
			known = " mkdir rmdir open_close write_read setxattr getxattr link unlink_link rename "
			nord = split(known, ord, " ")
			for (o = 1; o <= nops; o++) if (!index(known, " " ops_order[o] " ")) ord[++nord] = ops_order[o]
			for (q = 1; q <= nord; q++) {
				op = ord[q]
				if (!(("ramfs" SUBSEP op) in OPSFIG)) continue
				printf "| %s", op > M
				for (f = 1; f <= nfs; f++) if (FS_[f] in ops_fs) printf " | %.0f", OPSFIG[FS_[f] SUBSEP op] > M
				printf " | %s, %s, %s |\n", cost_ratio(OPSFIG["unionfs_demo" SUBSEP op], OPSFIG["ramfs" SUBSEP op]),
					cost_ratio(OPSFIG["embedfs_demo" SUBSEP op], OPSFIG["ramfs" SUBSEP op]),
					cost_ratio(OPSFIG["voidfs_demo" SUBSEP op], OPSFIG["ramfs" SUBSEP op]) > M
			}
		}
	}
}
