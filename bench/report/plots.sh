#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report/plots.sh OUTDIR: the bench report's PNG plots, from the .plot-*.dat
# files the awk parts left in OUTDIR (bench/report.sh), in
# instructions per operation (lower is better).
set -eu
out=$1
what="instructions per %s: median chunk, bars quartiles"
ylabel="instructions per %s" ratio_title="instructions per operation relative to ramfs (above 1: more work)"
ratio_range="[*:*]"
if ! command -v gnuplot >/dev/null; then
	echo "bench-report: gnuplot is not installed: no plots (apt-get install gnuplot-nox)" >&2
	rm -f "$out"/.plot-*.dat
	exit 0
fi
gp=$(mktemp)
trap 'rm -f "$gp"' EXIT
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
	set title '${what//%s/$phase}'
	set logscale x
	set xlabel 'files (N)'
	set ylabel '${ylabel//%s/$phase}'
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
for phase in create stat refill unlink; do plot_ops "$phase"; done

# The ratios to ramfs, one panel per phase.
if [ -s "$out/.plot-ratio-create.dat" ]; then
	{
		echo "set terminal pngcairo size 1500,520 noenhanced"
		echo "set output '$out/ratio-to-ramfs.png'"
		echo "set multiplot layout 1,3 title '$ratio_title'"
		echo "set logscale x; set xlabel 'files (N)'; set grid; set yrange $ratio_range; set key bottom left font ',8'"
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
