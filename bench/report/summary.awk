# SPDX-License-Identifier: GPL-2.0
# bench-report, part 3: what the sections share: the order of filesystems,
# sizes and layouts; memory per run; the summary of every figure (instructions.csv).

END {
	unit = "instructions"
	order = "unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs"
	nfs = split(order, FS_, " ")
	icache["ramfs"] = "inode_cache"; icache["tmpfs"] = "shmem_inode_cache"
	pattern["ramfs"] = "(kernel) VFS inode"; pattern["tmpfs"] = "(kernel) embedded"
	floor["ramfs"] = vfs_size; floor["tmpfs"] = cobj["shmem_inode_cache"]
	nl = split("flat spread", LAY, " ")
	nn = 0; for (n in seen_n) NS[++nn] = n + 0
	for (i = 2; i <= nn; i++) { t = NS[i]; for (j = i - 1; j >= 1 && NS[j] > t; j--) NS[j + 1] = NS[j]; NS[j + 1] = t }
	small = NS[1]; large = NS[nn]
	nph = split("create stat unlink refill", PH, " ")

	# Memory of every run: the inode-holding caches of its filesystem, and
	# what else grew by about one object per file.
	for (key in runs) {
		split(key, kk, SUBSEP); fs = kk[1]; n = kk[3]
		allocs = pages = objs = 0; other = ""; otherb = 0
		nc = split(slabcaches[key], cl, " ")
		for (i = 1; i <= nc; i++) {
			split(SL[key SUBSEP cl[i]], v, " ")
			per = v[4] * page / v[3]	# bytes of slab per object
			if ((" " icache[fs] " ") ~ (" " cl[i] " ")) {
				allocs += v[1]; pages += v[2] * v[4] * page; objs += v[1] * per
			} else if (v[1] > 0) {
				other = other sprintf("%s%s %.0f", other == "" ? "" : ", ", cl[i], v[1] * per / n); otherb += v[1] * per
			}
		}
		mk = fs SUBSEP kk[2] SUBSEP n
		add(M_allocs, mk, allocs / n); add(M_pages, mk, pages / n); add(M_objs, mk, objs / n)
		add(M_other, mk, otherb / n); M_othertxt[mk] = other
		if (key in ST_live && ST_live[key] > 0) {
			add(M_sallocs, mk, ST_allocs[key] / ST_live[key])
			add(M_sbytes, mk, ST_bytes[key] / ST_live[key])
		}
		printf "%s,%s,%s,%s,%s,%.3f,%.1f,%.1f,%s,%s,%.1f,%s\n", fs, kk[2], n, kk[4],
			icache[fs], allocs / n, pages / n, objs / n,
			(key in ST_live && ST_live[key] > 0) ? sprintf("%.3f", ST_allocs[key] / ST_live[key]) : "",
			(key in ST_live && ST_live[key] > 0) ? sprintf("%.1f", ST_bytes[key] / ST_live[key]) : "",
			otherb / n, floor[fs] > (out "/memory.csv")
	}

	# The summary of every figure, with its ratio to ramfs in the same
	# layout, size and phase (above 1: more instructions than ramfs's).
	S = out "/instructions.csv"
	print "fs,pattern,layout,n,phase,instructions_per_op,q1_chunk_instructions_per_op,q3_chunk_instructions_per_op,whole_phase_instructions_per_op,ratio_to_ramfs" > S
	for (f = 1; f <= nfs; f++) for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (p = 1; p <= nph; p++) {
		fs = FS_[f]; k = fs SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]
		if (!(k in NSOP)) continue
		rk = "ramfs" SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]
		NSMED[k] = median(NSOP[k])
		printf "%s,%s,%s,%s,%s,%.1f,%s,%s,%s,%s\n", fs, pattern[fs], LAY[l], NS[i], PH[p],
			NSMED[k], Q1[k], Q3[k], (k in NSPHASE) ? sprintf("%.1f", median(NSPHASE[k])) : "",
			(rk in NSOP) ? cost_ratio(NSMED[k], median(NSOP[rk])) : "" > S
		# Plot data: one file per phase, a line per filesystem and layout:
		# instructions, bars the chunks' quartiles; the ratio is of costs
		# (above 1: more work than ramfs).
		printf "%s %s %.0f %.0f %.0f\n", fs "/" LAY[l], NS[i], NSMED[k], Q1[k], Q3[k] > (out "/.plot-" PH[p] ".dat")
		if (fs != "ramfs" && rk in NSOP)
			printf "%s %s %.4f %.4f %.4f\n", fs "/" LAY[l], NS[i], NSMED[k] / median(NSOP[rk]),
				NSMED[k] / median(NSOP[rk]), NSMED[k] / median(NSOP[rk]) > (out "/.plot-ratio-" PH[p] ".dat")
	}
}
