# SPDX-License-Identifier: GPL-2.0
# bench-report: the private-data path (ipat-bench payload).

END {
	# ---- payload
	print "\n## The private-data path\n" > M
	if (!length(pay_fs)) print "No payload records in the log." > M
	else printf "Each filesystem: %d files, each with a 16-byte `trusted.ipat` xattr, opened once; then %d passes over them in a shuffled order (the same on every filesystem) of `statx(fd, \"\", AT_EMPTY_PATH, STATX_BTIME)` and of `fgetxattr()`, the filesystems taking turns pass by pass. No path walk: as much of each call as possible is the step from `struct inode` to the payload. Instructions per call: the median pass of each repetition, then the median over the repetitions, ± half their spread; the ratios are taken repetition by repetition (the filesystems of one repetition ran side by side), then their median. A ratio above 1 is a costlier call. ramfs keeps neither a birth time nor xattrs: its calls return without reaching any private data, a floor for the syscall itself.\n\n", pn, ppasses > M
	if (length(pay_fs)) {
		print "| filesystem | pattern | reps | statx " unit " | × embedfs | × ramfs | getxattr " unit " | × embedfs | × ramfs | btime | xattr |" > M
		print "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|" > M
	}
	for (f = 1; f <= nfs; f++) {
		fs = FS_[f]; if (!(fs in pay_fs)) continue
		s = median(PSTATX[fs]); x = median(PXATTR[fs])
		printf "| %s | %s | %d | %.0f (±%.0f%%) | %s | %s | %.0f (±%.0f%%) | %s | %s | %s | %s |\n", fs, pattern[fs], count(PSTATX[fs]),
			s, 50 * (vmax(PSTATX[fs]) - vmin(PSTATX[fs])) / s, pratio(PS, fs, "embedfs_demo"), pratio(PS, fs, "ramfs"),
			x, 50 * (vmax(PXATTR[fs]) - vmin(PXATTR[fs])) / x, pratio(PX, fs, "embedfs_demo"), pratio(PX, fs, "ramfs"),
			pbtime[fs] + 0 ? "yes" : "no", pxattr[fs] + 0 ? "yes" : "no" > M
	}

}
