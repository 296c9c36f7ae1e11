# SPDX-License-Identifier: GPL-2.0
# bench-report: fs_mark, the independent peer (timed mode), and the list of files.

END {
	# ---- fs_mark
	# fs_mark times itself: a peer of the timed mode only.
	if (!icount) print "\n## Independent peer: fs_mark\n" > M
	if (icount) ;
	else if (!length(FSM)) print "fs_mark was not in the image (install the fsmark package)." > M
	else {
		printf "Debian's `fs_mark -s 0 -S 0 -n %s -t 1 -L %d`: empty files with 40-byte names, no sync, in one directory, created then unlinked; one figure per loop, median shown. fs_mark times itself and runs on one filesystem after the other, not interleaved: its ratios carry whatever the host did meanwhile.\n\n", fsm_count, count(FSM["ramfs"]) > M
		print "| filesystem | loops | files/s (median) | min | max | × ramfs |" > M
		print "|---|---:|---:|---:|---:|---:|" > M
		for (f = 1; f <= nfs; f++) {
			fs = FS_[f]; if (!(fs in FSM)) continue
			printf "| %s | %d | %.0f | %.0f | %.0f | %s |\n", fs, count(FSM[fs]), median(FSM[fs]), vmin(FSM[fs]), vmax(FSM[fs]),
				ratio(median(FSM[fs]), median(FSM["ramfs"])) > M
			printf "%s,%d,%.1f,%.1f,%.1f,%s\n", fs, count(FSM[fs]), median(FSM[fs]), vmin(FSM[fs]), vmax(FSM[fs]), ratio(median(FSM[fs]), median(FSM["ramfs"])) > (out "/fsmark.csv")
		}
	}
	print "\n## Plots\n" > M
	print "![ratio to ramfs](ratio-to-ramfs.png)\n\n![create](ops-create.png) ![stat](ops-stat.png) ![unlink](ops-unlink.png)" (icount ? " ![refill](ops-refill.png)" : "") " ![bytes per inode](bytes-per-inode.png)" > M
	print "\nFiles: `speed.csv` (summary), `files.csv` (every run and phase), `memory.csv` (every run), `payload.csv`, " (icount ? "`ops.csv`" : "`fsmark.csv`") ", `raw.txt` (the guest's output, input of this report)." > M
}
