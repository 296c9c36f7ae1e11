# SPDX-License-Identifier: GPL-2.0
# bench-report: speed (the timed mode): operations per second.

END {
	if (!icount) {
		# ---- speed
		print "\n## Speed: operations per second\n" > M
		print "In every run all the filesystems hold N files at once and take turns, twenty chunks of N/20 files per phase, so that a slow spell of the shared host falls on all of them alike; a figure is the rate of the median chunk. Median over the repetitions, with ± half the spread between repetitions (or, with one repetition, `iqr`: ± half the interquartile range of the chunks) as % of the median. *× ramfs* pairs each chunk with the ramfs chunk that ran beside it (same index, same round) and takes the median of those ratios over all chunks and repetitions: the host's slow spells cancel out of it far better than out of the rates, whose spread mostly measures the host. `flat`: all files in one directory; `spread`: " B["per_dir"] " files per directory (made and removed outside the timed phases). Because the filesystems run side by side, at N = " nfmt(large) " the kernel holds all of their files at once (" nfmt(large) " × " split(B["big_fs"], tmp_, ",") " inodes and dentries): the per-operation cost at the largest N is that of a kernel that big, for ramfs as for ours, which is why the scaling targets print ramfs's own factor beside each." > M
		print "" > M
		print "| filesystem | pattern | layout | N | reps | create/s | × ramfs | stat/s | × ramfs | unlink/s | × ramfs |" > M
		print "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|" > M
		for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (f = 1; f <= nfs; f++) {
			fs = FS_[f]; k0 = fs SUBSEP LAY[l] SUBSEP NS[i]
			if (!((k0 SUBSEP "create") in MED)) continue
			printf "| %s | %s | %s | %s | %d", fs, pattern[fs], LAY[l], nfmt(NS[i]), REPS[k0 SUBSEP "create"] > M
			for (p = 1; p <= 3; p++) {
				k = k0 SUBSEP PH[p]
				printf " | %s%s | %s", kfmt(MED[k]), (REPS[k] > 1) ? sprintf(" (±%.0f%%)", SPREAD[k] / 2) : ((k in IQR) ? sprintf(" (±%.0f%% iqr)", 50 * IQR[k]) : ""), R[k] == "" ? "n/a" : R[k] > M
			}
			print " |" > M
		}
	}
}
