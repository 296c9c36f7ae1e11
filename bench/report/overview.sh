#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report/overview.sh RESULTS_DIR: one picture of every kernel series
# whose report lies under RESULTS_DIR (RESULTS_DIR/<series>/, e.g.
# results/bench/6.1/ and results/bench/6.12/), from their CSV files, into
# RESULTS_DIR/overview.png. bench/run.sh calls it after a full report.
#   left:  slab bytes per inode (memory.csv, bytes_per_inode_slab_objects,
#          the figure the claims quote), one layout (flat), at the largest
#          N every series ran, with each filesystem's floor
#   right: instructions per operation at N = 10,000, flat: create, stat,
#          unlink (instructions.csv, median chunk) and statx() of the birth
#          time, getxattr() (payload.csv, median pass), each over ramfs's
#          count on the same kernel
# Colour is the filesystem, shade the kernel (light: the older series).
# A series whose CSV files lack a filesystem, an operation or the N is an
# error: the picture is drawn from every figure or not at all.
set -eu
[ $# -eq 1 ] || { echo "usage: bench/report/overview.sh RESULTS_DIR" >&2; exit 2; }
dir=${1%/}
png=$dir/overview.png
n_ops=10000
fss="unionfs_demo embedfs_demo voidfs_demo ramfs tmpfs"
colours="#9400d3 #009e73 #56b4e9 #606060 #e69f00"

die() {
	echo "overview: $*" >&2
	exit 1
}
command -v gnuplot >/dev/null ||
	die "gnuplot is not installed (apt-get install gnuplot-nox)"

# The series: every subdirectory with a report's CSV files, oldest first.
series=()
while read -r s; do
	[ -n "$s" ] && series+=("$s")
done < <(for f in "$dir"/*/memory.csv; do
	[ -e "$f" ] && basename "$(dirname "$f")"
done | sort -V)
[ ${#series[@]} -gt 0 ] || die "no series under $dir (no $dir/*/memory.csv)"
for s in "${series[@]}"; do
	for f in memory instructions payload; do
		[ -s "$dir/$s/$f.csv" ] || die "$dir/$s/$f.csv: missing or empty"
	done
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The figures, one awk over every series' three CSV files: $tmp/mem-<i>.dat,
# $tmp/ins-<i>.dat (x, value, base, half width, colour) and $tmp/floor.dat
# per series index i, $tmp/vars.gp (labels and sizes for gnuplot).
args=()
for s in "${series[@]}"; do
	args+=("$dir/$s/memory.csv" "$dir/$s/instructions.csv" "$dir/$s/payload.csv")
done
awk -F, -v tmp="$tmp" -v nops="$n_ops" -v fss="$fss" -v colours="$colours" -v names="${series[*]}" '
function col(name) {
	if (!(name in C)) { printf "overview: %s: no column %s\n", FILENAME, name > "/dev/stderr"; err = 1; exit 1 }
	return C[name]
}
function median(key,    n, i, j, t, v) {
	n = split(V[key], v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function need(key, what) {
	if (!(key in V)) { printf "overview: %s: no %s\n", what, nice(key) > "/dev/stderr"; err = 1; exit 1 }
}
function nice(key,    p) { split(key, p, SUBSEP); return p[2] " " p[3] " at N = " comma(p[4] != "" ? p[4] : nops) }
function comma(x,    s, t) {	# 1234567 -> 1,234,567
	s = sprintf("%.0f", x); t = ""
	while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) }
	return s t
}
BEGIN {
	ns = split(names, S, " "); nf = split(fss, F, " "); split(colours, RGB, " ")
	nop = split("create stat unlink statx getxattr", OP, " ")
	split("create|stat|unlink|statx() btime|getxattr()", OPLABEL, "|")
}
FNR == 1 {
	nfile++
	delete C
	for (i = 1; i <= NF; i++) C[$i] = i
	kind = FILENAME; sub(/.*\//, "", kind); sub(/\.csv$/, "", kind)
	si = int((nfile + 2) / 3)
	where[si, kind] = FILENAME
	next
}
kind == "memory" && $col("layout") == "flat" {
	k = si SUBSEP $col("fs") SUBSEP "memory" SUBSEP $col("n")
	V[k] = V[k] " " $col("bytes_per_inode_slab_objects"); FLOOR[k] = $col("floor")
	if ($col("n") + 0 > maxn[si]) maxn[si] = $col("n") + 0
}
kind == "instructions" && $col("layout") == "flat" && $col("n") == nops {
	k = si SUBSEP $col("fs") SUBSEP $col("phase") SUBSEP ""
	V[k] = V[k] " " $col("instructions_per_op")
}
kind == "payload" && $col("files") == nops {
	k = si SUBSEP $col("fs") SUBSEP "statx" SUBSEP ""
	V[k] = V[k] " " $col("statx_median_pass_instructions")
	k = si SUBSEP $col("fs") SUBSEP "getxattr" SUBSEP ""
	V[k] = V[k] " " $col("getxattr_median_pass_instructions")
}
END {
	if (err) exit 1
	# Memory at the largest N every series ran.
	nmem = 0
	for (s = 1; s <= ns; s++) if (!nmem || maxn[s] < nmem) nmem = maxn[s]
	if (!nmem) { print "overview: no flat-layout memory rows" > "/dev/stderr"; exit 1 }
	bw = 0.8 / ns
	for (s = 1; s <= ns; s++) {
		for (f = 1; f <= nf; f++) {
			k = s SUBSEP F[f] SUBSEP "memory" SUBSEP nmem
			need(k, where[s, "memory"])
			x = f - 1 + (s - (ns + 1) / 2) * bw
			printf "%.4f %.1f 0 %.4f 0x%s\n", x, median(k), bw / 2 * 0.9, substr(RGB[f], 2) > (tmp "/mem-" s ".dat")
			printf "%.4f %s %.4f\n", x - bw / 2 * 0.9, FLOOR[k], bw * 0.9 > (tmp "/floor.dat")
			printf "set label \"%.0f\" at %.4f, %.1f left rotate by 90 offset 0,0.4 font \",8\"\n", median(k), x, median(k) > (tmp "/vars.gp")
		}
	}
	# Instructions: each operation a group of nf filesystems x ns kernels.
	# ramfs is the baseline (1), not a bar.
	slot = 0.85 / ((nf - 1) * ns + (nf - 2) * 0.5)
	for (o = 1; o <= nop; o++) {
		lab = OPLABEL[o] "\\nramfs:\\n"
		for (s = 1; s <= ns; s++) {
			rk = s SUBSEP "ramfs" SUBSEP OP[o] SUBSEP ""
			need(rk, where[s, OP[o] ~ /^(statx|getxattr)$/ ? "payload" : "instructions"])
			base = median(rk)
			lab = lab (s > 1 ? " / " : "") comma(base)
			for (f = g = 1; f <= nf; f++) {
				k = s SUBSEP F[f] SUBSEP OP[o] SUBSEP ""
				need(k, where[s, OP[o] ~ /^(statx|getxattr)$/ ? "payload" : "instructions"])
				if (F[f] == "ramfs") continue
				i = (g++ - 1) * (ns + 0.5) + (s - 1)
				x = o - 1 + (i - ((nf - 1) * ns + (nf - 2) * 0.5 - 1) / 2) * slot
				r = median(k) / base
				printf "%.4f %.4f 1 %.4f 0x%s\n", x, r, slot / 2 * 0.9, substr(RGB[f], 2) > (tmp "/ins-" s ".dat")
				if (r > rmax) rmax = r
			}
		}
		xt = xt (o > 1 ? ", " : "") "\"" lab "\" " (o - 1)
	}
	printf "nmem = \"%s\"; nops = \"%s\"; rmax = %.3f\n", comma(nmem), comma(nops), rmax > (tmp "/vars.gp")
	printf "set xtics (%s)\n", xt > (tmp "/ins-xtics.gp")
	for (f = 1; f <= nf; f++) printf "set xtics add (\"%s\" %d)\n", F[f], f - 1 > (tmp "/mem-xtics.gp")
}' "${args[@]}" || die "$dir: the figures above are missing; no picture drawn"

# The kernels, oldest light, newest solid; the labels.
nser=${#series[@]}
density() {	# density INDEX (1-based)
	if [ "$nser" -eq 1 ]; then echo 1; else awk -v i="$1" -v n="$nser" 'BEGIN { printf "%.2f", 0.3 + 0.7 * (i - 1) / (n - 1) }'; fi
}
kernels=Linux
for i in "${!series[@]}"; do
	sep=", "
	[ "$i" = 0 ] && sep=" "
	[ "$i" -gt 0 ] && [ "$i" = $((nser - 1)) ] && sep=" and "
	kernels=$kernels$sep${series[$i]}
done
versions=$(printf ' / %s' "${series[@]}")
versions=${versions# / }
read -ra rgb <<<"$colours"

gp=$tmp/overview.gp
{
	echo "set terminal pngcairo size 1000,600 noenhanced font ',10'"
	echo "set output '$tmp/overview.png'"
	echo "load '$tmp/vars.gp'"
	echo "set multiplot title 'inode-patterns, make bench: five filesystems on $kernels' font ',12'"
	echo "set style fill solid 1.0 border rgb 'black'"
	echo "set grid ytics"
	echo "set tics nomirror; set border 3"
	# Left: bytes.
	echo "set size 0.36, 0.9; set origin 0, 0.05"
	echo "set title 'slab bytes per inode, N = '.nmem.', one directory'"
	echo "set ylabel 'bytes per inode (slab objects)'"
	echo "set xrange [-0.6:4.6]; set yrange [0:1150]"
	echo "set xtics rotate by 30 right font ',9'"
	echo "set xtics ()"
	echo "load '$tmp/mem-xtics.gp'"
	echo "set key top left font ',9' samplen 2"
	sep="plot"
	for i in $(seq 1 "$nser"); do
		printf "%s '%s' using 1:2:(\$1-\$4):(\$1+\$4):3:2:5 with boxxyerror lc rgb variable fs solid %s notitle" \
			"$sep" "$tmp/mem-$i.dat" "$(density "$i")"
		sep=","
	done
	printf ", '%s' using 1:2:3:(0) with vectors nohead lw 3 lc rgb 'black' title 'floor: struct inode + payload'" \
		"$tmp/floor.dat"
	# The key of the shades: one per kernel.
	for i in $(seq 1 "$nser"); do
		printf ", NaN with boxes lc rgb '#606060' fs solid %s title 'Linux %s'" "$(density "$i")" "${series[$((i - 1))]}"
	done
	echo
	echo "unset label"
	# Right: instructions.
	echo "set size 0.64, 0.9; set origin 0.36, 0.05"
	echo "set title 'instructions per operation over ramfs, N = '.nops.', one directory'"
	echo "set ylabel 'instructions per operation / ramfs (same kernel)'"
	echo "set xrange [-0.5:4.5]; set yrange [0.9:(rmax > 1.5 ? rmax * 1.05 : 1.5)]"
	echo "set xtics norotate center font ',9'"
	echo "set xlabel 'under each operation: ramfs, instructions per operation on Linux $versions' font ',9' offset 0,-1.6"
	echo "set xtics ()"
	echo "load '$tmp/ins-xtics.gp'"
	echo "set key top left font ',9' samplen 2"
	sep="plot"
	for i in $(seq 1 "$nser"); do
		printf "%s '%s' using 1:2:(\$1-\$4):(\$1+\$4):3:2:5 with boxxyerror lc rgb variable fs solid %s notitle" \
			"$sep" "$tmp/ins-$i.dat" "$(density "$i")"
		sep=","
	done
	# The key of the colours: one per filesystem; ramfs is the line at 1.
	j=0
	for f in $fss; do
		if [ "$f" = ramfs ]; then
			printf ", 1 with lines lc rgb 'black' dt 2 title 'ramfs = 1'"
		else
			printf ", NaN with boxes lc rgb '%s' fs solid 1.0 title '%s'" "${rgb[$j]}" "$f"
		fi
		j=$((j + 1))
	done
	echo
	echo "unset multiplot"
} >"$gp"
gnuplot "$gp" || die "gnuplot failed on $gp"
[ -s "$tmp/overview.png" ] || die "gnuplot wrote no picture"
mv "$tmp/overview.png" "$png"
echo "overview: wrote $png (${series[*]})"
