# SPDX-License-Identifier: GPL-2.0
# bench-report, part 2: read the records of bench/guest.sh and bench/prog/,
# writing the CSV rows of every run as they come.

# Several boots (one per layout): the first one's conditions, every
# boot's layouts, the longest guest time, all the failures.
$2 == "begin" {
	kv(); boots++
	for (k in F) if (!(k in B)) B[k] = F[k]
	if (boots > 1 && "layouts" in F) B["layouts"] = B["layouts"] "," F["layouts"]
}
$2 == "end" {
	kv(); ended++; failed += F["failed"]
	if (F["elapsed_s"] + 0 > elapsed + 0) elapsed = F["elapsed_s"]
}
$2 == "error" { errors = errors " " $3 }
$2 == "note" { notes = notes "\n- note from the guest: " substr($0, 17) }
$2 == "fsinfo" {
	kv(); fs = F["fs"]
	pattern[fs] = F["pattern"]; gsub(/_/, " ", pattern[fs])
	vfs_size = F["vfs_inode_size"]; payload[fs] = F["payload_size"]
	obj = F["inode_object"]; sub(/_\(.*$/, "", obj)
	icache[fs] = obj; objsize[fs] = F["inode_object_size"]
	priv_size[fs] = F["private_object_size"]; priv_alloc[fs] = F["private_alloc_size"]
	# kmalloc-cg-N when the allocation is accounted (voidfs_demo, GFP_KERNEL_ACCOUNT)
	if (priv_alloc[fs] > 0) icache[fs] = icache[fs] " kmalloc-" priv_alloc[fs] " kmalloc-cg-" priv_alloc[fs]
	floor[fs] = F["vfs_inode_size"] + F["payload_size"]
	if ("union_largest_member_size" in F) largest_member[fs] = F["union_largest_member_size"]
}
$2 == "cache" { kv(); cobj[F["name"]] = F["object_size"]; cslab[F["name"]] = F["slab_size"]
	corder[F["name"]] = F["order"]; cper[F["name"]] = F["objs_per_slab"] }
$2 == "files" {
	kv(); fs = F["fs"]; key = fs SUBSEP F["layout"] SUBSEP F["n"]
	seen_fs[fs] = 1; seen_n[F["n"]] = 1; seen_layout[F["layout"]] = 1
	nphase = split("create stat refill unlink", ph, " ")
	# The guest's records say _ns: under icount a nanosecond of the guest
	# clock is an instruction.
	for (i = 1; i <= nphase; i++) {
		if (!((ph[i] "_ns") in F)) continue	# no refill before it existed
		# The median chunk; an older log without chunks: the whole phase.
		total = F[ph[i] "_ns"]
		perop = (ph[i] "_med_ns") in F ? F[ph[i] "_med_ns"] : total / F["n"]
		# refill: the cheapest chunk (bench/prog/files.c, enum phase).
		if (ph[i] == "refill" && "refill_min_ns" in F) perop = F["refill_min_ns"]
		add(NSOP, key SUBSEP ph[i], perop)
		# The whole phase per operation, every chunk in (the scaling table).
		whole = total > 0 ? total / (ph[i] == "refill" ? int(F["n"] / 2) : F["n"]) : ""
		if (total > 0) add(NSPHASE, key SUBSEP ph[i], whole)
		Q1[key SUBSEP ph[i]] = F[ph[i] "_q1_ns"]; Q3[key SUBSEP ph[i]] = F[ph[i] "_q3_ns"]
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s\n", fs, F["layout"], F["n"], F["rep"],
			ph[i], F["chunk"], F["chunks"], total, perop, F[ph[i] "_q1_ns"], F[ph[i] "_q3_ns"],
			whole == "" ? "" : sprintf("%.1f", whole) > (out "/files.csv")
	}
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
# ipat-bench ops' chunks of one operation (before its "ops" record):
# their mean, the whole run per operation.
$2 == "opchunks" {
	kv(); m = split(F["ns_per_op"], opchunk, ","); s = 0
	for (i = 1; i <= m; i++) s += opchunk[i]
	if (m) OPSMEAN[F["fs"] SUBSEP F["op"]] = s / m
}
# ipat-bench ops: the other operations, a median chunk each. The figure
# reported (OPSFIG) is the mean of the chunks: under icount the host
# adds no noise for a median to reject, and an operation's
# chunks can fall in two groups (those that ran a batch of RCU frees and
# those that did not), between which a median flips from boot to boot.
$2 == "ops" {
	kv(); fs = F["fs"]; ops_fs[fs] = 1; ops_n = F["n"]
	for (k in F) {
		if (k !~ /_med_ns$/) continue
		op = k; sub(/_med_ns$/, "", op)
		if (!(op in ops_seen)) { ops_seen[op] = 1; ops_order[++nops] = op }
		mean = (fs SUBSEP op) in OPSMEAN ? sprintf("%.1f", OPSMEAN[fs SUBSEP op]) : ""
		OPSFIG[fs SUBSEP op] = mean != "" ? mean : F[k]
		printf "%s,%s,%s,%s,%s,%s,%s,%s\n", fs, op, F["n"], F[k], F[op "_q1_ns"], F[op "_q3_ns"],
			mean, OPSFIG[fs SUBSEP op] > (out "/ops.csv")
	}
}
