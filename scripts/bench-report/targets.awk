# SPDX-License-Identifier: GPL-2.0
# bench-report: the targets, each with what it required and whether it held.

END {
	# ---- targets
	print "\n## Targets\n" > M
	print "| target | where | measured | required | result |" > M
	print "|---|---|---|---|---|" > M
	# Instruction mode: the patterns' own paths against ramfs's, as the
	# issue states them (stat and unlink within 2%, embedfs create
	# within 5%), at every size and layout.
	for (f = 1; f <= 3; f++) for (l = 1; l <= nl; l++) for (i = 1; i <= nn; i++) for (p = 1; p <= nph; p++) {
		k = FS_[f] SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]; rk = "ramfs" SUBSEP LAY[l] SUBSEP NS[i] SUBSEP PH[p]
		if (!(k in NSMED) || !(rk in NSMED)) continue
		lim = (PH[p] == "stat" || PH[p] == "unlink") ? 1.02 : 1.05
		if (lim == 1.05 && FS_[f] != "embedfs_demo") continue
		x = NSMED[k] / NSMED[rk]
		printf "| %s %s instructions vs ramfs | %s, N = %s | %.3f × (%.0f vs %.0f) | ≤ %.2f × | %s |\n", FS_[f], PH[p], LAY[l], nfmt(NS[i]),
			x, NSMED[k], NSMED[rk], lim, ok(x <= lim) > M
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
		printf "| per-op cost at %s vs %s | %s %s %s | %.2f × (%.1f vs %.1f %s; ramfs %s ×) | ≤ 1.3 × | %s |\n", nfmt(large), nfmt(small), FS_[f], LAY[l], PH[p], x,
			NSMED[kl] / 1000, NSMED[ks] / 1000, "k instructions", (rk in NSMED && rs in NSMED) ? sprintf("%.2f", NSMED[rk] / NSMED[rs]) : "n/a", ok(x <= 1.3) > M
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

}
