#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/icount.sh [--values] LOG: the instructions each operation took, from
# the "IPAT-BENCH" lines of a bench boot in instruction mode
# (bench/run.sh, its default mode: QEMU's -icount shift=0 advances the guest
# clock 1 ns per instruction, so ns per operation = instructions).
#
#   bench/icount.sh LOG            a table: operations x filesystems, and
#                                  each figure as a ratio to ramfs
#   bench/icount.sh --values LOG   "OP FS INSTRUCTIONS", one a line, for
#                                  bench/gate.sh
#   bench/icount.sh --compare LOG1 LOG2   every figure of two boots side
#                                  by side, with their ratio: determinism
#
# Figures: the median chunk (ipat-bench files, ops) or the median pass
# (payload), first repetition, at the smallest N the log has; refill: the
# cheapest chunk. Under icount
# a chunk's count is quantised by the slab pages it happened to allocate
# (one more dentry slab: ~255 more instructions on each op of a 50-op
# chunk; struct file: ~730), and where the chunks of an operation sit
# near two such steps (link, rename, mkdir), its median can jump by a
# step from boot to boot; the raw chunks are in the log (chunks,
# opchunks). A mean would not do better: the RCU callbacks that free
# what every filesystem's earlier chunks released land in whichever
# chunk is running. A log whose begin record does not say clock=icount
# is refused: its figures are ns.
set -eu

values=0
[ "${1:-}" = --values ] && { values=1; shift; }
if [ "${1:-}" = --compare ] && [ $# -eq 3 ]; then
	a=$("$0" --values "$2") && b=$("$0" --values "$3") || exit 1
	# Joined on "OP FS"; the worst ratio last.
	join -j 1 <(awk '{ print $1 "/" $2, $3 }' <<<"$a" | sort) \
		<(awk '{ print $1 "/" $2, $3 }' <<<"$b" | sort) | awk '
		{ r = $3 / $2; d = r > 1 ? r - 1 : 1 - r; if (d > worst) { worst = d; w = $1 }
		  printf "%-34s %8d %8d  %.4f\n", $1, $2, $3, r }
		END { printf "largest difference: %.2f%% (%s) over %d figures\n", 100 * worst, w, NR }'
	exit 0
fi
[ $# -eq 1 ] || { echo "usage: bench/icount.sh [--values] LOG | --compare LOG1 LOG2" >&2; exit 2; }
log=$1
[ -r "$log" ] || { echo "bench-icount: cannot read $log" >&2; exit 1; }

# The records, from the tag on (the kernel may print mid-line).
records() {
	tr -d '\r' <"$log" | grep -o 'IPAT-BENCH .*' || true
}
begin=$(records | grep -m 1 '^IPAT-BENCH begin ' || true)
[ -n "$begin" ] || { echo "bench-icount: no 'IPAT-BENCH begin' in $log" >&2; exit 1; }
case " $begin " in
*" clock=icount "*) ;;
*) echo "bench-icount: $log is not an instruction-mode bench (no clock=icount)" >&2; exit 1 ;;
esac

# "OP FS VALUE" for every figure, in the order the table shows them, from
# the records' data model (bench/report/data.awk):
# seq,record,fs,layout,n,rep,key,value.
extract() {
	records | awk -f "$(dirname "$0")/report/data.awk" | awk -F, '
	function put(op, fs, v) {
		if (!((op, fs) in V)) { V[op, fs] = v; if (!(op in seen)) { seen[op] = 1; ops[++nops] = op } }
	}
	NR == 1 || $6 != 1 { next }
	$2 == "files" {
		if (small == "" || $5 + 0 < small + 0) small = $5
		if ($5 != small) next
		# refill: the cheapest chunk (bench/prog/files.c, enum phase).
		if ($7 ~ /^(create|stat|unlink)_med_instructions$/ || $7 == "refill_min_instructions") {
			op = $7; sub(/_.*/, "", op)
			put(op ($4 == "flat" ? "" : "." $4), $3, $8)
		}
	}
	$2 == "payload" && $7 == "statx_med_instructions" { put("statx_btime", $3, $8) }
	$2 == "payload" && $7 == "getxattr_med_instructions" { put("fgetxattr_shuffled", $3, $8) }
	$2 == "ops" && $7 ~ /_med_instructions$/ {
		op = $7; sub(/_med_instructions$/, "", op); OPS[op, $3] = $8
		opsfs[$3] = 1
	}
	END {
		# ipat-bench ops prints its operations in a fixed order.
		n = split("mkdir rmdir open_close write_read setxattr getxattr link unlink_link rename", o, " ")
		for (i = 1; i <= n; i++) for (fs in opsfs) if ((o[i], fs) in OPS) put(o[i], fs, OPS[o[i], fs])
		nf = split("unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs", fsl, " ")
		for (i = 1; i <= nops; i++) {
			for (f = 1; f <= nf; f++) if ((ops[i], fsl[f]) in V) printf "%s %s %.0f\n", ops[i], fsl[f], V[ops[i], fsl[f]]
		}
	}'
}

if [ "$values" = 1 ]; then
	extract
	exit 0
fi

field() {	# field KEY: a key=value of the begin record
	tr ' ' '\n' <<<"$begin" | sed -n "s/^$1=//p"
}
echo "# Instructions per operation: Linux $(field kernel), bench mode $(field mode)," \
	"QEMU -icount shift=0 (guest ns = instructions), $(field cpus) vCPU"
echo "# module md5 $(field module_md5); median chunk (files, ops) or pass (payload)"
echo "# .spread: $(field per_dir) files per directory; the rest in one directory"
extract | awk '
	{ v[$1, $2] = $3; if (!($1 in seen)) { seen[$1] = 1; ops[++n] = $1 } }
	END {
		nf = split("unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs", fs, " ")
		printf "%-20s", "operation"
		for (f = 1; f <= nf; f++) printf " %13s", fs[f]
		printf "   %s\n", "x ramfs: union embed void tmpfs"
		for (i = 1; i <= n; i++) {
			printf "%-20s", ops[i]
			for (f = 1; f <= nf; f++) printf " %13s", ((ops[i], fs[f]) in v) ? v[ops[i], fs[f]] : "-"
			r = v[ops[i], "ramfs"]
			printf "  "
			for (f = 1; f <= nf; f++) if (fs[f] != "ramfs")
				printf " %6s", (r > 0 && (ops[i], fs[f]) in v) ? sprintf("%.3f", v[ops[i], fs[f]] / r) : "-"
			printf "\n"
		}
	}'
