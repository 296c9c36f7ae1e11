#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/progress.sh [--until "PID..."] TITLE NAME:LOG:TOTAL...: where the
# guests of a bench or a demo are, until killed, or with --until until
# none of the processes PID... (the caller's guests) is left. Each guest (NAME) writes its console to LOG, with
# "ipat-progress t=SECONDS WHAT" lines (bench/guest.sh,
# bench/prog/common.c): t is its clock since boot, under icount its
# instructions / 1e9, and TOTAL is what the whole run counts, in the same
# seconds (bench/run.sh and scripts/demo.sh know it from an earlier
# run, or a default). Shown: each guest's last step (phase, filesystem,
# N), how far through its instructions, the time so far, and what
# remains, from the rate each guest has counted at until now.
#
# On a terminal one line, rewritten in place every second; otherwise (a
# log) a plain line whenever a guest moves on, at most one every 10 s.
#
#   bench/progress.sh --total LOG   the t of LOG's last progress line: what a
#                                   finished run counted, for the next one
set -u

# The t and the text of LOG's last progress line, "T WHAT".
last() {
	[ -f "$1" ] || return 0
	tr -d '\r' <"$1" | grep -o 'ipat-progress t=.*' | tail -n 1 |
		sed 's/^ipat-progress t=\([0-9.]*\) /\1 /'
}

if [ "${1:-}" = --total ]; then
	last "$2" | cut -d' ' -f1
	exit 0
fi

until=''
if [ "${1:-}" = --until ]; then
	until=$2
	shift 2
fi
title=$1
shift
start=$(date +%s)

# Is any of the --until processes still there? (Not our children: no wait.)
running() {
	local pid
	[ -z "$until" ] && return 0
	for pid in $until; do kill -0 "$pid" 2>/dev/null && return 0; done
	return 1
}
tty=0
[ -t 1 ] && tty=1
shown='' shown_at=0

mmss() {
	printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

while running; do
	now=$(date +%s)
	elapsed=$((now - start))
	line="$title $(mmss "$elapsed")" steps='' left=0
	for guest in "$@"; do
		name=${guest%%:*} rest=${guest#*:}
		log=${rest%:*} total=${rest##*:}
		read -r t what <<<"$(last "$log")"
		if [ -z "${t:-}" ]; then
			line="$line | $name: booting"
			steps="$steps|booting"
			continue
		fi
		# Seconds left at the rate this guest has counted so far.
		read -r pct rem <<<"$(awk -v t="$t" -v total="$total" -v e="$elapsed" 'BEGIN {
			p = total > 0 ? 100 * t / total : 0; if (p > 99) p = 99
			r = (e > 0 && t > 0) ? (total - t) / (t / e) : 0; if (r < 0) r = 0
			printf "%d %d\n", p, r }')"
		[ "$rem" -gt "$left" ] && left=$rem
		line="$line | $name: $what, ${pct}% of ~$(awk -v x="$total" 'BEGIN { printf "%.3g", x }')e9 instructions"
		steps="$steps|$what"
	done
	line="$line | ~$(mmss "$left") left"
	if [ "$tty" = 1 ]; then
		# The line is cut to the terminal's width, so that it stays one.
		cols=$(tput cols 2>/dev/null || echo 160)
		printf '\r%s\033[K' "${line:0:$((cols - 1))}"
		sleep 1
	else
		if [ "$steps" != "$shown" ] && [ $((now - shown_at)) -ge 10 ]; then
			echo "$line"
			shown=$steps shown_at=$now
		fi
		sleep 2
	fi
done
[ "$tty" = 1 ] && echo
exit 0
