# SPDX-License-Identifier: GPL-2.0
# bench-report, part 1: helpers shared by the parts (bench/report.sh).

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
# "1.023" or "n/a": a's cost over b's.
function cost_ratio(a, b) { return (a != "" && b + 0 > 0) ? sprintf("%.3f", a / b) : "n/a" }
