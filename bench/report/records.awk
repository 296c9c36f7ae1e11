# SPDX-License-Identifier: GPL-2.0
# bench-report, part 2: the data model (data.csv, bench/report/data.awk)
# back into records, and each record into the arrays the other parts draw
# their tables from, writing the CSV rows of every run as they come.

# A row of data.csv into C[1..8]: seq,record,fs,layout,n,rep,key,value.
function csvsplit(s, C,   n, c, f, q, i) {
	if (index(s, "\"") == 0)
		return split(s, C, ",")
	n = 0; f = ""; q = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q && c == "\"" && substr(s, i + 1, 1) == "\"") { f = f c; i++ }
		else if (c == "\"") q = !q
		else if (!q && c == ",") { C[++n] = f; f = "" }
		else f = f c
	}
	C[++n] = f
	return n
}

# A record's rows share its seq: F holds its fields, R its name, until the
# next record's first row hands it to its reader.
FNR == 1 { next }
{
	csvsplit($0, C)
	if (C[1] != rec_seq) {
		if (rec_seq != "") dispatch()
		rec_seq = C[1]; R = C[2]; delete F
		if (C[3] != "") F["fs"] = C[3]
		if (C[4] != "") F["layout"] = C[4]
		if (C[5] != "") F["n"] = C[5]
		if (C[6] != "") F["rep"] = C[6]
	}
	if (C[7] != "") F[C[7]] = C[8]
}
END { if (rec_seq != "") dispatch() }

function dispatch() {
	if (R == "begin") rec_begin()
	else if (R == "end") rec_end()
	else if (R == "error") errors = errors " fs=" F["fs"]
	else if (R == "note") notes = notes "\n- note from the guest: " F["text"]
	else if (R == "fsinfo") rec_fsinfo()
	else if (R == "cache") rec_cache()
	else if (R == "files") rec_files()
	else if (R == "slab") rec_slab()
	else if (R == "stats") rec_stats()
	else if (R == "payload") rec_payload()
	else if (R == "opchunks") rec_opchunks()
	else if (R == "ops") rec_ops()
	else if (R == "ftrace") rec_ftrace()
}

# Several boots (one per layout): the first one's conditions, every
# boot's layouts, the longest guest time, all the failures.
function rec_begin() {
	boots++
	for (k in F) if (!(k in B)) B[k] = F[k]
	if (boots > 1 && "layouts" in F) B["layouts"] = B["layouts"] "," F["layouts"]
}
function rec_end() {
	ended++; failed += F["failed"]
	if (F["elapsed_s"] + 0 > elapsed + 0) elapsed = F["elapsed_s"]
}
function rec_fsinfo() {
	fs = F["fs"]
	pattern[fs] = F["pattern"]; gsub(/_/, " ", pattern[fs])
	vfs_size = F["vfs_inode_size"]; payload[fs] = F["payload_size"]
	icache[fs] = F["inode_object"]; objsize[fs] = F["inode_object_size"]
	priv_size[fs] = F["private_object_size"]; priv_alloc[fs] = F["private_alloc_size"]
	# kmalloc-cg-N when the allocation is accounted (voidfs_demo, GFP_KERNEL_ACCOUNT)
	if (priv_alloc[fs] > 0) icache[fs] = icache[fs] " kmalloc-" priv_alloc[fs] " kmalloc-cg-" priv_alloc[fs]
	floor[fs] = F["vfs_inode_size"] + F["payload_size"]
	if ("union_largest_member_size" in F) largest_member[fs] = F["union_largest_member_size"]
}
function rec_cache() { cobj[F["name"]] = F["object_size"]; cslab[F["name"]] = F["slab_size"]
	corder[F["name"]] = F["order"]; cper[F["name"]] = F["objs_per_slab"] }
function rec_files() {
	fs = F["fs"]; key = fs SUBSEP F["layout"] SUBSEP F["n"]
	seen_fs[fs] = 1; seen_n[F["n"]] = 1; seen_layout[F["layout"]] = 1
	nphase = split("create stat refill unlink", ph, " ")
	for (i = 1; i <= nphase; i++) {
		if (!((ph[i] "_instructions") in F)) continue	# no refill before it existed
		# The median chunk; an older log without chunks: the whole phase.
		total = F[ph[i] "_instructions"]
		perop = (ph[i] "_med_instructions") in F ? F[ph[i] "_med_instructions"] : total / F["n"]
		# refill: the cheapest chunk (bench/prog/files.c, enum phase).
		if (ph[i] == "refill" && "refill_min_instructions" in F) perop = F["refill_min_instructions"]
		add(NSOP, key SUBSEP ph[i], perop)
		# The whole phase per operation, every chunk in (the scaling table).
		whole = total > 0 ? total / (ph[i] == "refill" ? int(F["n"] / 2) : F["n"]) : ""
		if (total > 0) add(NSPHASE, key SUBSEP ph[i], whole)
		Q1[key SUBSEP ph[i]] = F[ph[i] "_q1_instructions"]; Q3[key SUBSEP ph[i]] = F[ph[i] "_q3_instructions"]
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s\n", fs, F["layout"], F["n"], F["rep"],
			ph[i], F["chunk"], F["chunks"], total, perop, F[ph[i] "_q1_instructions"], F[ph[i] "_q3_instructions"],
			whole == "" ? "" : sprintf("%.1f", whole) > (out "/files.csv")
	}
}
function rec_slab() {
	key = F["fs"] SUBSEP F["layout"] SUBSEP F["n"] SUBSEP F["rep"]
	c = F["cache"]
	SL[key SUBSEP c] = F["d_objs"] " " F["d_slabs"] " " F["objperslab"] " " F["pagesperslab"]
	slabcaches[key] = slabcaches[key] " " c
	runs[key] = 1
}
function rec_stats() {
	key = F["fs"] SUBSEP F["layout"] SUBSEP F["n"] SUBSEP F["rep"]
	ST_live[key] = F["d_inodes_live"]
	ST_allocs[key] = F["d_inode_objects_allocated"] + F["d_private_objects_allocated"]
	ST_bytes[key] = F["d_bytes_in_use"]
}
function rec_payload() {
	fs = F["fs"]; pay_fs[fs] = 1
	# The median pass; an older log: the whole loop.
	ops = F["n"] * F["passes"]
	sx = ("statx_med_instructions" in F) ? F["statx_med_instructions"] : F["statx_instructions"] / ops
	gx = ("getxattr_med_instructions" in F) ? F["getxattr_med_instructions"] : F["getxattr_instructions"] / ops
	add(PSTATX, fs, sx); add(PXATTR, fs, gx)
	PS[fs SUBSEP F["rep"]] = sx; PX[fs SUBSEP F["rep"]] = gx; add(PREPS, fs, F["rep"])
	pbtime[fs] = F["btime"]; pxattr[fs] = F["xattr"]; pn = F["n"]; ppasses = F["passes"]
	printf "%s,%s,%s,%s,%.1f,%s,%s,%.1f,%s,%s,%s,%s\n", fs, F["rep"], F["n"], F["passes"],
		sx, F["statx_min_instructions"], F["statx_max_instructions"], gx, F["getxattr_min_instructions"], F["getxattr_max_instructions"],
		F["btime"], F["xattr"] > (out "/payload.csv")
}
# ipat-bench ops' chunks of one operation (before its "ops" record):
# their mean, the whole run per operation.
function rec_opchunks() {
	m = split(F["instructions_per_op"], opchunk, ","); s = 0
	for (i = 1; i <= m; i++) s += opchunk[i]
	if (m) OPSMEAN[F["fs"] SUBSEP F["op"]] = s / m
}
# ipat-bench ops: the other operations, a median chunk each. The figure
# reported (OPSFIG) is the mean of the chunks: under icount the host
# adds no noise for a median to reject, and an operation's
# chunks can fall in two groups (those that ran a batch of RCU frees and
# those that did not), between which a median flips from boot to boot.
function rec_ops() {
	fs = F["fs"]; ops_fs[fs] = 1; ops_n = F["n"]
	for (k in F) {
		if (k !~ /_med_instructions$/) continue
		op = k; sub(/_med_instructions$/, "", op)
		if (!(op in ops_seen)) { ops_seen[op] = 1; ops_order[++nops] = op }
		mean = (fs SUBSEP op) in OPSMEAN ? sprintf("%.1f", OPSMEAN[fs SUBSEP op]) : ""
		OPSFIG[fs SUBSEP op] = mean != "" ? mean : F[k]
		printf "%s,%s,%s,%s,%s,%s,%s,%s\n", fs, op, F["n"], F[k], F[op "_q1_instructions"], F[op "_q3_instructions"],
			mean, OPSFIG[fs SUBSEP op] > (out "/ops.csv")
	}
}
