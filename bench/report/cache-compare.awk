#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0
#
# Two runs of the cache mode side by side: for each measure of cache.csv,
# the largest difference between the runs' per-operation figures, and
# where it is (bench/cache.sh --compare).
#
#   awk -F, -f bench/report/cache-compare.awk A/cache.csv B/cache.csv

FNR == 1 {
	file++
	for (i = 6; i <= NF; i++)
		name[i] = $i
	nf = NF
	next
}
{
	k = $1 "," $2 "," $3 "," $4
	if (file == 1) {
		for (i = 6; i <= NF; i++)
			a[k, i] = $i
		keys[k] = 1
		next
	}
	if (!(k in keys)) {
		print "cache-compare: " k " is in the second run only" > "/dev/stderr"
		bad = 1
		next
	}
	seen[k] = 1
	for (i = 6; i <= NF; i++) {
		d = $i - a[k, i]
		d = d < 0 ? -d : d
		r = a[k, i] ? d / a[k, i] : (d ? 1 : 0)
		if (d > maxd[i]) { maxd[i] = d; where_d[i] = k }
		if (r > maxr[i]) { maxr[i] = r; where_r[i] = k }
	}
}
END {
	for (k in keys)
		if (!(k in seen)) {
			print "cache-compare: " k " is in the first run only" > "/dev/stderr"
			bad = 1
		}
	for (i = 6; i <= nf; i++)
		printf "%-20s largest difference %8.2f (%s), largest relative %.2f%% (%s)\n", \
			name[i], maxd[i], where_d[i] ? where_d[i] : "-", 100 * maxr[i], where_r[i] ? where_r[i] : "-"
	exit bad
}
