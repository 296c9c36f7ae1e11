#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a guest (CMD...) and end it if its console log LOG shows no fstests
# record, and no test beginning, for LIMIT + 300 seconds: a test hung in
# the kernel, which the guest's own limit (it ends ./check) cannot end,
# costs one test's limit, not the whole boot's.
#
#   fstests/watch.sh LOG LIMIT CMD...
#
# Exit status: CMD's; 124 when this ended it (qemu/run.sh, ended by a
# signal, exits 130, which scripts/fstests.sh takes for an interruption).
set -eu
[ $# -ge 3 ] || { echo "usage: fstests/watch.sh LOG LIMIT CMD..." >&2; exit 2; }
log=$1 limit=$2
shift 2
"$@" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid"; exit 130' INT TERM HUP
last=-1 since=$(date +%s) ended=0
while kill -0 "$pid" 2>/dev/null; do
	sleep 10
	n=$(grep -c 'IPAT-FSTESTS \|\] run fstests ' "$log" 2>/dev/null || true)
	if [ "$n" != "$last" ]; then
		last=$n since=$(date +%s)
	elif [ "$ended" = 0 ] && [ $(($(date +%s) - since)) -gt $((limit + 300)) ]; then
		echo "watch: no fstests record in $log for $((limit + 300))s: ending the guest" >&2
		kill -TERM "$pid" 2>/dev/null || true
		ended=1
	fi
done
rc=0
wait "$pid" || rc=$?
[ "$ended" = 0 ] || exit 124
exit "$rc"
