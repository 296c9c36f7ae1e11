#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-report.sh CONSOLE-LOG OUTDIR: turn the "IPAT-BENCH" lines of a
# bench boot's console log (tests/bench.sh, tests/prog/ipat-bench.c) into
# OUTDIR/bench.md (the tables), CSV files, and PNG plots when gnuplot is
# installed. scripts/bench.sh calls it; it can be rerun on a saved log,
# including OUTDIR/raw.txt of an earlier report.
#
# Environment, for the report's header only: BENCH_WALL_S (seconds the
# whole boot took), BENCH_LOAD_BEFORE and BENCH_LOAD_AFTER (host load),
# BENCH_SOURCE (which source was measured, e.g. git describe).
set -eu

[ $# -eq 2 ] || { echo "usage: bench-report.sh CONSOLE-LOG OUTDIR" >&2; exit 2; }
log=$1 out=$2
mkdir -p "$out"

# The kernel may print in the middle of a line: keep from the tag on.
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
tr -d '\r' <"$log" | grep -o 'IPAT-BENCH .*' >"$raw" || true
grep -q '^IPAT-BENCH begin ' "$raw" ||
	{ echo "bench-report: no 'IPAT-BENCH begin' in $log" >&2; exit 1; }
grep -q '^IPAT-BENCH end ' "$raw" ||
	echo "bench-report: warning: no 'IPAT-BENCH end' in $log: the bench did not finish" >&2
[ "$(readlink -f "$log")" = "$(readlink -f "$out/raw.txt")" ] || cat "$raw" >"$out/raw.txt"

# x86-64 pages; the guest is always x86-64 here.
awk -v out="$out" -v page=4096 -v wall="${BENCH_WALL_S:-}" \
    -v load_before="${BENCH_LOAD_BEFORE:-}" -v load_after="${BENCH_LOAD_AFTER:-}" \
    -v src="${BENCH_SOURCE:-}" '
function kv(   i, p) {		# key=value fields of this line into F[]
	delete F
	for (i = 3; i <= NF; i++) {
		p = index($i, "=")
		if (p) F[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
}
function add(arr, key, v) { arr[key] = (key in arr) ? arr[key] " " v : v }
function sortv(s, a,   n, i, j, t) {	# split and insertion-sort numbers
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) {
		t = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n
}
function median(s,   a, n) {
	n = sortv(s, a)
	if (!n) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function quart(s, q,   a, n) { n = sortv(s, a); return n ? a[int(q * (n - 1)) + 1] : "" }
# The ratio to ramfs of a filesystem (k without the fs): paired, so that
# both figures of a pair ran at the same time. Chunk by chunk where the log
# has them (ramfs time / fs time), else repetition by repetition.
function paired(fs, k,   reps, nr, i, rep, a, b, na, nb, c, list) {
	list = ""; PAIRKIND = "reps"
	nr = split(REPLIST[fs SUBSEP k], reps, " ")
	for (i = 1; i <= nr; i++) {
		rep = reps[i]
		if ((fs SUBSEP k SUBSEP rep) in CHK && ("ramfs" SUBSEP k SUBSEP rep) in CHK) {
			na = split(CHK[fs SUBSEP k SUBSEP rep], a, ","); nb = split(CHK["ramfs" SUBSEP k SUBSEP rep], b, ",")
			for (c = 1; c <= na && c <= nb; c++) if (a[c] > 0) list = list " " b[c] / a[c]
			PAIRKIND = "chunks"
		} else if (("ramfs" SUBSEP k SUBSEP rep) in OPSREP && OPSREP["ramfs" SUBSEP k SUBSEP rep] > 0)
			list = list " " OPSREP[fs SUBSEP k SUBSEP rep] / OPSREP["ramfs" SUBSEP k SUBSEP rep]
	}
	PAIRS = list
	return list == "" ? "" : sprintf("%.3f", median(list))
}
# Payload ratio of fs to base, paired by repetition (arr: PS or PX).
function pratio(arr, fs, base,   reps, nr, i, list) {
	list = ""
	nr = split(PREPS[fs], reps, " ")
	for (i = 1; i <= nr; i++)
		if ((base SUBSEP reps[i]) in arr && arr[base SUBSEP reps[i]] > 0)
			list = list " " arr[fs SUBSEP reps[i]] / arr[base SUBSEP reps[i]]
	return list == "" ? "" : sprintf("%.3f", median(list))
}
function vmin(s,   a, n) { n = sortv(s, a); return n ? a[1] : "" }
function vmax(s,   a, n) { n = sortv(s, a); return n ? a[n] : "" }
function count(s,   a) { return split(s, a, " ") }
function ratio(a, b) { return (a != "" && b != "" && b + 0 > 0) ? sprintf("%.3f", a / b) : "" }
function pct(x) { return sprintf("%+.1f%%", 100 * (x - 1)) }
function fmt(x, d) { return x == "" ? "n/a" : sprintf("%." d "f", x) }
function kfmt(x) { return x == "" ? "n/a" : (x >= 100000 ? sprintf("%.0fk", x / 1000) : (x >= 10000 ? sprintf("%.1fk", x / 1000) : sprintf("%.0f", x))) }
function nfmt(n) { return n >= 1000000 ? n / 1000000 "M" : (n >= 1000 ? n / 1000 "k" : n) }
function is_ours(fs) { return fs ~ /_demo$/ }
function ok(b) { return b ? "**pass**" : "**miss**" }

$2 == "begin" { kv(); for (k in F) B[k] = F[k] }
$2 == "end" { kv(); ended = 1; elapsed = F["elapsed_s"]; failed = F["failed"] }
$2 == "error" { errors = errors " " $3 }
$2 == "note" { notes = notes "\n- note from the guest: " substr($0, 17) }
$2 == "fsinfo" {
	kv(); fs = F["fs"]
	pattern[fs] = F["pattern"]; gsub(/_/, " ", pattern[fs])
	vfs_size = F["vfs_inode_size"]; payload[fs] = F["payload_size"]
	obj = F["inode_object"]; sub(/_\(.*$/, "", obj)
	icache[fs] = obj; objsize[fs] = F["inode_object_size"]
	priv_size[fs] = F["private_object_size"]; priv_alloc[fs] = F["private_alloc_size"]
	if (priv_alloc[fs] > 0) icache[fs] = icache[fs] " kmalloc-" priv_alloc[fs]
	floor[fs] = F["vfs_inode_size"] + F["payload_size"]
	if ("union_largest_member_size" in F) largest_member[fs] = F["union_largest_member_size"]
}
$2 == "cache" { kv(); cobj[F["name"]] = F["object_size"]; cslab[F["name"]] = F["slab_size"]
	corder[F["name"]] = F["order"]; cper[F["name"]] = F["objs_per_slab"] }
$2 == "files" {
	kv(); fs = F["fs"]; key = fs SUBSEP F["layout"] SUBSEP F["n"]
	seen_fs[fs] = 1; seen_n[F["n"]] = 1; seen_layout[F["layout"]] = 1
	nphase = split("create stat unlink", ph, " ")
	for (i = 1; i <= nphase; i++) {
		# The median chunk (ipat-bench takes turns chunk by chunk); an
		# older log without chunks: the whole phase.
		ns = F[ph[i] "_ns"]
		nsop = (ph[i] "_med_ns") in F ? F[ph[i] "_med_ns"] : ns / F["n"]
		ops = nsop > 0 ? 1e9 / nsop : 0
		add(OPS, key SUBSEP ph[i], ops)
		add(NSOP, key SUBSEP ph[i], nsop)
		OPSREP[key SUBSEP ph[i] SUBSEP F["rep"]] = ops
		add(REPLIST, key SUBSEP ph[i], F["rep"])
		if ((ph[i] "_q1_ns") in F && nsop > 0)
			IQR[key SUBSEP ph[i]] = (F[ph[i] "_q3_ns"] - F[ph[i] "_q1_ns"]) / nsop
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%.1f,%s,%s,%.1f\n", fs, F["layout"], F["n"], F["rep"],
			ph[i], F["chunk"], F["chunks"], ns, nsop, ops, F[ph[i] "_q1_ns"], F[ph[i] "_q3_ns"],
			(ns > 0) ? F["n"] * 1e9 / ns : 0 > (out "/files.csv")
	}
}
$2 == "chunks" {
	kv(); CHK[F["fs"] SUBSEP F["layout"] SUBSEP F["n"] SUBSEP F["phase"] SUBSEP F["rep"]] = F["ns_per_op"]
}
$2 == "slab" {
	kv(); key = F["fs"] SUBSEP F["layout"] SUBSEP F["n"] SUBSEP F["rep"]
	c = F["cache"]
	SL[key SUBSEP c] = F["d_objs"] " " F["d_slabs"] " " F["objperslab"] " " F["pagesperslab"]
	slabcaches[key] = slabcaches[key] " " c
	runs[key] = 1
}
$2 == "stats" {
	kv(); key = F["fs"] SUBSEP F["layout"] SUBSEP F["n"] SUBSEP F["rep"]
	ST_live[key] = F["d_inodes_live"]
	ST_allocs[key] = F["d_inode_objects_allocated"] + F["d_private_objects_allocated"]
	ST_bytes[key] = F["d_bytes_in_use"]
}
$2 == "payload" {
	kv(); fs = F["fs"]; pay_fs[fs] = 1
	# The median pass; an older log: the whole loop.
	ops = F["n"] * F["passes"]
	sx = ("statx_med_ns" in F) ? F["statx_med_ns"] : F["statx_ns"] / ops
	gx = ("getxattr_med_ns" in F) ? F["getxattr_med_ns"] : F["getxattr_ns"] / ops
	add(PSTATX, fs, sx); add(PXATTR, fs, gx)
	PS[fs SUBSEP F["rep"]] = sx; PX[fs SUBSEP F["rep"]] = gx; add(PREPS, fs, F["rep"])
	pbtime[fs] = F["btime"]; pxattr[fs] = F["xattr"]; pn = F["n"]; ppasses = F["passes"]
	printf "%s,%s,%s,%s,%.1f,%s,%s,%.1f,%s,%s,%s,%s\n", fs, F["rep"], F["n"], F["passes"],
		sx, F["statx_min_ns"], F["statx_max_ns"], gx, F["getxattr_min_ns"], F["getxattr_max_ns"],
		F["btime"], F["xattr"] > (out "/payload.csv")
}
$2 == "fsmark" { kv(); add(FSM, F["fs"], F["files_per_sec"]); if (F["loop"] == 1) fsm_count = F["count"] }

END {
	order = "unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs"
	nfs = split(order, FS_, " ")
	icache["ramfs"] = "inode_cache"; icache["tmpfs"] = "shmem_inode_cache"
	pattern["ramfs"] = "(kernel) VFS inode"; pattern["tmpfs"] = "(kernel) embedded"
	floor["ramfs"] = vfs_size; floor["tmpfs"] = cobj["shmem_inode_cache"]
	nl = split("flat spread", LAY, " ")
	nn = 0; for (n in seen_n) NS[++nn] = n + 0
	for (i = 2; i <= nn; i++) { t = NS[i]; for (j = i - 1; j >= 1 && NS[j] > t; j--) NS[j + 1] = NS[j]; NS[j + 1] = t }
	small = NS[1]; large = NS[nn]
	split("create stat unlink", PH, " ")

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
	for (f = 1; f <= nfs; f++) for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (p = 1; p <= 3; p++) {
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
		# Plot data: one file per phase, a line per filesystem and layout.
		printf "%s %s %.0f %.0f %.0f\n", fs "/" LAY[l], NS[i], med, lo, hi > (out "/.plot-" PH[p] ".dat")
		if (fs != "ramfs" && R[k] != "")
			printf "%s %s %s %s %s\n", fs "/" LAY[l], NS[i], R[k], RQ1[k], RQ3[k] > (out "/.plot-ratio-" PH[p] ".dat")
	}

	M = out "/bench.md"
	print "# Benchmark: the three patterns against ramfs and tmpfs" > M
	print "" > M
	printf "Guest: Linux %s under QEMU TCG, %s vCPUs, %.1f GiB, `slab_nomerge`, no `slub_debug`", B["kernel"], B["cpus"], B["mem_kb"] / 1048576 > M
	if (B["dentry_hash"] != "") printf ", dentry hash %s buckets", B["dentry_hash"] > M
	printf ". " > M
	big_layouts = B["big_layouts"] != "" ? B["big_layouts"] : "flat,spread"
	printf "Bench mode `%s`: N = %s; %s repetitions (%s at N = %s, for %s, layouts %s); spread layout: %s files per directory.", B["mode"], B["sizes"], B["reps"], B["big_reps"], nfmt(large), B["big_fs"], big_layouts, B["per_dir"] > M
	if (B["warmup"] != "") printf " First, a warm-up run of %s files on every filesystem, not reported.", B["warmup"] > M
	if (B["module_md5"] != "") printf " Module md5 %s.", B["module_md5"] > M
	if (src != "") printf " Source: %s.", src > M
	printf " Guest time %s s", elapsed > M
	if (wall != "") printf ", whole boot %d min %02d s", wall / 60, wall % 60 > M
	if (load_before != "") printf "; host load average %s before, %s after", load_before, load_after > M
	print "." > M
	print "" > M
	cut = ""
	if (B["big_reps"] + 0 < B["reps"] + 0) cut = cut sprintf(", %s repetition(s) instead of %s", B["big_reps"], B["reps"])
	if (B["big_fs"] != "unionfs_demo,embedfs_demo,voidfs_demo,ramfs,tmpfs") cut = cut ", filesystems " B["big_fs"] " only"
	if (big_layouts != "flat,spread") cut = cut ", layout " big_layouts " only"
	if (cut != "")
		printf "**Reduced at N = %s, for the time budget**: %s. Under TCG the full matrix there (5 filesystems × 2 layouts × 3 repetitions) would take about 50 minutes on its own; see tests/bench.sh for the figures and the parameters that ask for it.\n\n", nfmt(large), substr(cut, 3) > M
	print "**Caution.** These are figures from an emulated CPU (TCG translates every guest instruction), on a host shared with other work: absolute ops/s are 10-50 times below hardware and say nothing about it. Each filesystem ran interleaved with the others, so a slow spell of the host hits them alike; compare within a row (ratios), and read the spread column before trusting a difference smaller than it. Memory figures do not depend on the emulation." > M
	if (failed != "" && failed != 0) printf "\n**%s run(s) failed** (see raw.txt):%s\n", failed, errors > M
	if (!ended) print "\n**The bench did not finish**: the tables hold what it measured before it stopped." > M
	if (notes != "") print notes > M
	if (B["slub_debug"] + 0 > 0) print "\n**slub_debug was on**: object sizes include debug metadata; memory figures are not the real ones." > M

	# ---- targets
	print "\n## Targets\n" > M
	print "| target | where | measured | required | result |" > M
	print "|---|---|---|---|---|" > M
	for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (p = 1; p <= 2; p++) {
		k = "embedfs_demo" SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]
		if (!(k in R) || R[k] == "") continue
		printf "| embedfs_demo %s ops/s vs ramfs | %s, N = %s | %.3f × (paired %s: %s %.2f-%.2f) | ≥ 0.95 × | %s |\n", PH[p], LAY[l], nfmt(NS[i]),
			R[k], RKIND[k], RKIND[k] == "chunks" ? "quartiles" : "range", RQ1[k], RQ3[k], ok(R[k] >= 0.95) > M
	}
	mk = "embedfs_demo" SUBSEP "flat" SUBSEP large
	if (mk in M_pages) {
		b = median(M_pages[mk]); printf "| embedfs_demo bytes/inode (slab pages) vs floor | flat, N = %s | %.1f B = %s of %d B | ≤ +5%% | %s |\n", nfmt(large), b, pct(b / floor["embedfs_demo"]), floor["embedfs_demo"], ok(b <= 1.05 * floor["embedfs_demo"]) > M
	}
	for (i = 1; i <= nn; i++) {
		mk = "embedfs_demo" SUBSEP "flat" SUBSEP NS[i]
		if (!(mk in M_objs)) continue
		b = median(M_objs[mk]); printf "| embedfs_demo bytes/inode (slab objects) vs floor | flat, N = %s | %.1f B = %s | ≤ +5%% | %s |\n", nfmt(NS[i]), b, pct(b / floor["embedfs_demo"]), ok(b <= 1.05 * floor["embedfs_demo"]) > M
	}
	if (nn > 1) for (f = 1; f <= 3; f++) for (l = 1; l <= nl; l++) for (p = 1; p <= 3; p++) {
		ks = FS_[f] SUBSEP LAY[l] SUBSEP small SUBSEP PH[p]; kl = FS_[f] SUBSEP LAY[l] SUBSEP large SUBSEP PH[p]
		if (!(ks in NSMED) || !(kl in NSMED)) continue
		x = NSMED[kl] / NSMED[ks]
		rk = "ramfs" SUBSEP LAY[l] SUBSEP large SUBSEP PH[p]; rs = "ramfs" SUBSEP LAY[l] SUBSEP small SUBSEP PH[p]
		printf "| per-op cost at %s vs %s | %s %s %s | %.2f × (%.1f vs %.1f µs; ramfs %s ×) | ≤ 1.3 × | %s |\n", nfmt(large), nfmt(small), FS_[f], LAY[l], PH[p], x,
			NSMED[kl] / 1000, NSMED[ks] / 1000, (rk in NSMED && rs in NSMED) ? sprintf("%.2f", NSMED[rk] / NSMED[rs]) : "n/a", ok(x <= 1.3) > M
	}
	mu = "unionfs_demo" SUBSEP "flat" SUBSEP large; me = "embedfs_demo" SUBSEP "flat" SUBSEP large
	if ("unionfs_demo" in objsize) {
		# The size of the object and that of the largest member are
		# measured apart (sizeof the object, sizeof each member): a padded
		# union or a member grown unnoticed shows here as a miss.
		got = objsize["unionfs_demo"] - floor["unionfs_demo"]
		want = ("unionfs_demo" in largest_member) ? largest_member["unionfs_demo"] - payload["unionfs_demo"] : ""
		printf "| unionfs_demo extra bytes/inode = largest union member − its own | object size (statistics file) | %d B (%d B object − %d B floor) | %s | %s |\n",
			got, objsize["unionfs_demo"], floor["unionfs_demo"],
			want == "" ? "n/a (the log has no union_largest_member_size)" : sprintf("%d B (%d B largest member − %d B own)", want, largest_member["unionfs_demo"], payload["unionfs_demo"]),
			want == "" ? "n/a" : ok(got == want) > M
		if (want == "") want = got
		if (mu in M_pages && me in M_pages) {
			x = median(M_pages[mu]) - median(M_pages[me])
			# Equal within one 8-byte slab alignment step, or explained.
			printf "| same, in slab memory | slab pages, flat, N = %s: unionfs_demo − embedfs_demo | %.1f B (%.1f − %.1f) | %d B | %s |\n", nfmt(large), x,
				median(M_pages[mu]), median(M_pages[me]), want,
				(x - want <= 8 && want - x <= 8) ? ok(1) : sprintf("**miss** by %+.0f B: slab packing (%d-byte stride, %d per %d KiB slab, vs %d, %d per %d KiB)", x - want,
				cslab["union_inode_cache"], cper["union_inode_cache"], 4 * 2 ^ corder["union_inode_cache"],
				cslab["embedfs_inode_cache"], cper["embedfs_inode_cache"], 4 * 2 ^ corder["embedfs_inode_cache"]) > M
		}
	}
	mv = "voidfs_demo" SUBSEP "flat" SUBSEP large
	if (mv in M_allocs) {
		a = median(M_allocs[mv]); sa = median(M_sallocs[mv])
		printf "| voidfs_demo allocations per inode | flat, N = %s | %.3f (slab), %.3f (statistics file) | 2 | %s |\n", nfmt(large), a, sa, ok(a > 1.95 && a < 2.05 && sa == 2) > M
		printf "| voidfs_demo bytes of the second allocation | statistics file, slab | %d B asked, %d B allocated (kmalloc-%d; %d B lost to rounding) | reported | %s |\n",
			priv_size["voidfs_demo"], priv_alloc["voidfs_demo"], priv_alloc["voidfs_demo"], priv_alloc["voidfs_demo"] - priv_size["voidfs_demo"], ok(priv_alloc["voidfs_demo"] > 0) > M
	}

	# ---- speed
	print "\n## Speed: operations per second\n" > M
	print "In every run all the filesystems hold N files at once and take turns, twenty chunks of N/20 files per phase, so that a slow spell of the shared host falls on all of them alike; a figure is the rate of the median chunk. Median over the repetitions, with ± half the spread between repetitions (or, with one repetition, `iqr`: ± half the interquartile range of the chunks) as % of the median. *× ramfs* pairs each chunk with the ramfs chunk that ran beside it (same index, same round) and takes the median of those ratios over all chunks and repetitions: the host'"'"'s slow spells cancel out of it far better than out of the rates, whose spread mostly measures the host. `flat`: all files in one directory; `spread`: " B["per_dir"] " files per directory (made and removed outside the timed phases). Because the filesystems run side by side, at N = " nfmt(large) " the kernel holds all of their files at once (" nfmt(large) " × " split(B["big_fs"], tmp_, ",") " inodes and dentries): the per-operation cost at the largest N is that of a kernel that big, for ramfs as for ours, which is why the scaling targets print ramfs'"'"'s own factor beside each." > M
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

	# ---- payload
	print "\n## The private-data path\n" > M
	if (!length(pay_fs)) print "No payload records in the log." > M
	else printf "Each filesystem: %d files, each with a 16-byte `trusted.ipat` xattr, opened once; then %d passes over them in a shuffled order (the same on every filesystem) of `statx(fd, \"\", AT_EMPTY_PATH, STATX_BTIME)` and of `fgetxattr()`, the filesystems taking turns pass by pass. No path walk: as much of each call as possible is the step from `struct inode` to the payload. ns per call: the median pass of each repetition, then the median over the repetitions, ± half their spread; the ratios are taken repetition by repetition (the filesystems of one repetition ran side by side), then their median. A ratio above 1 is a slower call. ramfs keeps neither a birth time nor xattrs: its calls return without reaching any private data, a floor for the syscall itself.\n\n", pn, ppasses > M
	if (length(pay_fs)) {
		print "| filesystem | pattern | reps | statx ns | × embedfs | × ramfs | getxattr ns | × embedfs | × ramfs | btime | xattr |" > M
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

	# ---- fs_mark
	print "\n## Independent peer: fs_mark\n" > M
	if (!length(FSM)) print "fs_mark was not in the image (install the fsmark package)." > M
	else {
		printf "Debian'"'"'s `fs_mark -s 0 -S 0 -n %s -t 1 -L %d`: empty files with 40-byte names, no sync, in one directory, created then unlinked; one figure per loop, median shown. fs_mark times itself and runs on one filesystem after the other, not interleaved: its ratios carry whatever the host did meanwhile.\n\n", fsm_count, count(FSM["ramfs"]) > M
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
	print "![ratio to ramfs](ratio-to-ramfs.png)\n\n![create](ops-create.png) ![stat](ops-stat.png) ![unlink](ops-unlink.png) ![bytes per inode](bytes-per-inode.png)" > M
	print "\nFiles: `speed.csv` (summary), `files.csv` (every run and phase), `memory.csv` (every run), `payload.csv`, `fsmark.csv`, `raw.txt` (the guest'"'"'s output, input of this report)." > M
}' "$raw"

# CSV headers, prepended now that awk has written the rows (unsorted).
header() {
	local file=$out/$1
	[ -f "$file" ] || return 0
	{ echo "$2"; sort -t, -k1,1 -k2,2 -k3,3n -k4,4n "$file"; } >"$file.tmp"
	mv "$file.tmp" "$file"
}
header files.csv "fs,layout,n,rep,phase,chunk,chunks,phase_ns,median_chunk_ns_per_op,median_chunk_ops_per_s,q1_chunk_ns_per_op,q3_chunk_ns_per_op,whole_phase_ops_per_s"
header memory.csv "fs,layout,n,rep,inode_caches,allocs_per_inode_slab,bytes_per_inode_slab_pages,bytes_per_inode_slab_objects,allocs_per_inode_stats,bytes_per_inode_stats,other_bytes_per_file,floor"
header payload.csv "fs,rep,files,passes,statx_median_pass_ns,statx_min_pass_ns,statx_max_pass_ns,getxattr_median_pass_ns,getxattr_min_pass_ns,getxattr_max_pass_ns,btime,xattr"
header fsmark.csv "fs,loops,files_per_s_median,files_per_s_min,files_per_s_max,ratio_to_ramfs"

if ! command -v gnuplot >/dev/null; then
	echo "bench-report: gnuplot is not installed: no plots (apt-get install gnuplot-nox)" >&2
	exit 0
fi
gp=$(mktemp)
trap 'rm -f "$raw" "$gp"' EXIT
# gnuplot, without its warning that a single N makes an empty x range.
plot() {
	gnuplot "$1" 2>&1 | { grep -v 'empty x range' || true; } >&2
}
plot_ops() {
	local phase=$1 dat=$out/.plot-$1.dat sep="plot" series dt lc
	[ -s "$dat" ] || return 0
	cat >"$gp" <<-EOF
	set terminal pngcairo size 900,600 noenhanced
	set output '$out/ops-$phase.png'
	set title '$phase per second: median, bars min to max (emulated: compare ratios only)'
	set logscale x
	set xlabel 'files (N)'
	set ylabel '$phase per second'
	set key outside right
	set grid
	set yrange [0:*]
	set offsets graph 0.05, graph 0.05, 0, 0
	EOF
	# A colour per filesystem; flat layout solid, spread dashed.
	for series in $(cut -d' ' -f1 "$dat" | awk '!seen[$0]++'); do
		dt=1
		case $series in */spread) dt=2 ;; esac
		case $series in
		unionfs_demo/*) lc=1 ;; embedfs_demo/*) lc=2 ;; voidfs_demo/*) lc=3 ;;
		ramfs/*) lc=8 ;; *) lc=4 ;;
		esac
		printf "%s '< grep \"^%s \" %s' using 2:3:4:5 with yerrorlines lc %d dt %d title '%s'" \
			"$sep" "$series" "$dat" "$lc" "$dt" "$series" >>"$gp"
		sep=", \\
    "
	done
	echo >>"$gp"
	plot "$gp"
}
for phase in create stat unlink; do plot_ops "$phase"; done

# The paired ratios to ramfs, one panel per phase: what the host's noise
# leaves of the differences.
if [ -s "$out/.plot-ratio-create.dat" ]; then
	{
		echo "set terminal pngcairo size 1500,520 noenhanced"
		echo "set output '$out/ratio-to-ramfs.png'"
		echo "set multiplot layout 1,3 title 'ops/s relative to ramfs, paired chunk by chunk (median; bars: quartiles)'"
		echo "set logscale x; set xlabel 'files (N)'; set grid; set yrange [0.5:1.5]; set key bottom left font ',8'"
		echo "set offsets graph 0.05, graph 0.05, 0, 0"
		for phase in create stat unlink; do
			dat=$out/.plot-ratio-$phase.dat
			echo "set title '$phase'"
			sep="plot 1 with lines lc rgb 'black' dt 3 notitle"
			line=
			for series in $(cut -d' ' -f1 "$dat" | awk '!seen[$0]++'); do
				dt=1
				case $series in */spread) dt=2 ;; esac
				case $series in
				unionfs_demo/*) lc=1 ;; embedfs_demo/*) lc=2 ;; voidfs_demo/*) lc=3 ;; *) lc=4 ;;
				esac
				line="$line, '< grep \"^$series \" $dat' using 2:3:4:5 with yerrorlines lc $lc dt $dt title '$series'"
			done
			echo "$sep$line"
		done
		echo "unset multiplot"
	} >"$gp"
	plot "$gp"
fi
if [ -s "$out/.plot-memory.dat" ]; then
	# One bar per filesystem at its largest N, beside its floor.
	awk '{ if (!($1 in n) || $2 + 0 > n[$1]) { n[$1] = $2 + 0; l[$1] = $0 }; if (!($1 in o)) o[$1] = ++k }
	     END { for (f in o) print o[f], l[f] }' "$out/.plot-memory.dat" |
		sort -n | cut -d' ' -f2- >"$out/.plot-memory-big.dat"
	cat >"$gp" <<-EOF
	set terminal pngcairo size 900,500 noenhanced
	set output '$out/bytes-per-inode.png'
	set title 'bytes per inode (inode caches, slab bytes) at the largest N run, against the floor'
	set style data histograms
	set style histogram clustered gap 1
	set style fill solid 0.8 border -1
	set ylabel 'bytes'
	set yrange [0:*]
	set grid ytics
	set key top left
	plot '$out/.plot-memory-big.dat' using 3:xtic(1) title 'measured', '' using 4 title 'floor'
	EOF
	plot "$gp"
fi
rm -f "$out"/.plot-*.dat
echo "bench-report: wrote $out/bench.md, CSV files and plots"
