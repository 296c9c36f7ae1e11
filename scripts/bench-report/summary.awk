# SPDX-License-Identifier: GPL-2.0
# bench-report, part 3: what the sections share: the order of filesystems,
# sizes and layouts; memory per run; the summary of every figure (speed.csv).

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

	# Speed summary, with the ratio to ramfs in the same layout, size, phase.
	S = out "/speed.csv"
	print "fs,pattern,layout,n,phase,reps,ops_per_s_median,ops_per_s_min,ops_per_s_max,spread_pct,ns_per_op_median,ratio_to_ramfs_paired,ratio_q1,ratio_q3,ratio_of_medians" > S
	for (f = 1; f <= nfs; f++) for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (p = 1; p <= nph; p++) {
		fs = FS_[f]; k = fs SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]
		if (!(k in OPS)) continue
		med = median(OPS[k]); lo = vmin(OPS[k]); hi = vmax(OPS[k])
		rk = "ramfs" SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]
		R[k] = paired(fs, LAY[l] SUBSEP NS[i] SUBSEP PH[p])
		# Chunk pairs: quartiles; a pair per repetition: min and max.
		RKIND[k] = PAIRKIND
		RQ1[k] = PAIRS == "" ? "" : (PAIRKIND == "chunks" ? quart(PAIRS, 0.25) : vmin(PAIRS))
		RQ3[k] = PAIRS == "" ? "" : (PAIRKIND == "chunks" ? quart(PAIRS, 0.75) : vmax(PAIRS))
		RUNPAIRED[k] = (rk in OPS) ? ratio(med, median(OPS[rk])) : ""
		MED[k] = med; SPREAD[k] = med > 0 ? 100 * (hi - lo) / med : 0; REPS[k] = count(OPS[k])
		NSMED[k] = median(NSOP[k])
		printf "%s,%s,%s,%s,%s,%d,%.0f,%.0f,%.0f,%.1f,%.1f,%s,%s,%s,%s\n", fs, pattern[fs], LAY[l], NS[i], PH[p],
			REPS[k], med, lo, hi, SPREAD[k], NSMED[k], R[k], RQ1[k], RQ3[k], RUNPAIRED[k] > S
		# Plot data: one file per phase, a line per filesystem and layout:
		# instructions, bars the chunks' quartiles; the ratio is of costs
		# (above 1: more work than ramfs).
		printf "%s %s %.0f %.0f %.0f\n", fs "/" LAY[l], NS[i], NSMED[k], Q1[k], Q3[k] > (out "/.plot-" PH[p] ".dat")
		if (fs != "ramfs" && rk in NSOP)
			printf "%s %s %.4f %.4f %.4f\n", fs "/" LAY[l], NS[i], NSMED[k] / median(NSOP[rk]),
				NSMED[k] / median(NSOP[rk]), NSMED[k] / median(NSOP[rk]) > (out "/.plot-ratio-" PH[p] ".dat")
	}
}
