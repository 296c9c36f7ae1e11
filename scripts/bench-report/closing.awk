# SPDX-License-Identifier: GPL-2.0
# bench-report, last part: the plots and the list of files.

END {
	print "\n## Plots\n" > M
	print "![ratio to ramfs](ratio-to-ramfs.png)\n\n![create](ops-create.png) ![stat](ops-stat.png) ![unlink](ops-unlink.png) ![refill](ops-refill.png) ![bytes per inode](bytes-per-inode.png)" > M
	print "\nFiles: `speed.csv` (summary), `files.csv` (every run and phase), `memory.csv` (every run), `payload.csv`, `ops.csv`, `raw.txt` (the guest's output, input of this report)." > M
}
