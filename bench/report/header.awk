# SPDX-License-Identifier: GPL-2.0
# bench-report, part 4: the title and what the figures are.

END {
	M = out "/bench.md"
	print "# Benchmark: the three patterns against ramfs and tmpfs, in instructions" > M
	print "" > M
	printf "Guest: Linux %s under QEMU TCG with `-icount shift=0,sleep=off`: the guest clock advances 1 ns per guest instruction, so every figure the guest measured is a count of instructions. %d guest(s) of %s vCPU (layouts %s), %.1f GiB each, `slab_nomerge`, no `slub_debug`", B["kernel"], boots, B["cpus"], B["layouts"], B["mem_kb"] / 1048576 > M
	if (B["dentry_hash"] != "") printf ", dentry hash %s buckets", B["dentry_hash"] > M
	printf ". " > M
	big_layouts = B["layouts"]
	printf "Bench mode `%s`: N = %s; %s repetitions (%s at N = %s, for %s, layouts %s); spread layout: %s files per directory.", B["mode"], B["sizes"], B["reps"], B["big_reps"], nfmt(large), B["big_fs"], big_layouts, B["per_dir"] > M
	if (B["warmup"] != "") printf " First, a warm-up run of %s files on every filesystem, not reported.", B["warmup"] > M
	if (B["module_md5"] != "") printf " Module md5 %s.", B["module_md5"] > M
	printf " Guest time %s s.\n", elapsed > M
	print "" > M
	cut = ""
	if (B["big_reps"] + 0 < B["reps"] + 0) cut = cut sprintf(", %s repetition(s) instead of %s", B["big_reps"], B["reps"])
	if (B["big_fs"] != "unionfs_demo,embedfs_demo,voidfs_demo,ramfs,tmpfs") cut = cut ", filesystems " B["big_fs"] " only"
	if (big_layouts != "flat,spread") cut = cut ", layout " big_layouts " only"
	if (cut != "")
		printf "**Reduced at N = %s**: %s (bench/guest.sh, ipat.bench_big_*).\n\n", nfmt(large), substr(cut, 3) > M
	print "**What the figures are.** Instructions per operation, not time: QEMU's icount counts guest instructions and models no caches, TLB or memory latency, so an instruction is not a cycle, and what costs cycles without costing instructions (a cache miss, the void pointer's extra dereference) does not show. In return the counts repeat from boot to boot whatever the host does. One repetition: a second would count the same. Figures are the median chunk of each phase (twenty chunks of N/20 files; the report's CSV files have the quartiles). Memory figures do not depend on the clock." > M
	if (failed != "" && failed != 0) printf "\n**%s run(s) failed** (see raw.txt):%s\n", failed, errors > M
	if (ended < boots) print "\n**The bench did not finish**: the tables hold what it measured before it stopped." > M
	if (notes != "") print notes > M
	if (B["slub_debug"] + 0 > 0) print "\n**slub_debug was on**: object sizes include debug metadata; memory figures are not the real ones." > M

}
