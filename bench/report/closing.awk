# SPDX-License-Identifier: GPL-2.0
# bench-report, last part: the plots and the list of files.

END {
	print "\n## Plots\n" > M
	print "![ratio to ramfs](ratio-to-ramfs.png)\n\n![create](ops-create.png) ![stat](ops-stat.png) ![unlink](ops-unlink.png) ![refill](ops-refill.png) ![bytes per inode](bytes-per-inode.png)" > M
	print "\nFiles, all figures in instructions: `instructions.csv` (every filesystem, layout, N and phase: the figure of the tables, the median chunk or for refill the cheapest, the quartiles of the chunks, the whole phase per operation, and the ratio to ramfs), `files.csv` (every run and phase; `chunk_instructions_per_op` is the median chunk, for refill the cheapest), `memory.csv` (every run, bytes), `payload.csv`, `ops.csv`, `data.csv` (every value the guests reported, a row each: what the tables are drawn from; bench/report/data.awk says its columns), `raw.txt` (the guests' records, from which `bench/report.sh OUTDIR raw.txt` rebuilds this report; their `_ns` fields are instructions: under icount the guest clock advances 1 ns per instruction)." > M
}
