# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Stage helper of tests/run-qemu.sh, which sources it: the steps that run
# for minutes while printing nothing (waiting for a debug kernel's build,
# the quick bench of the gate, a long host test, the debug guests in the
# background) say where they are once a minute, so that a long run never
# looks like a hung one.

# progress_wait DESCRIBE PID...: return when none of the processes PID...
# (children of this shell) is left; until then, once a minute, print
# "== <what the command DESCRIBE prints>: M:SS so far". The caller then
# waits for each PID for its status.
progress_wait() {
	local describe=$1 start=$SECONDS next pid alive secs
	shift
	next=$((SECONDS + ${IPAT_PROGRESS_EVERY:-60}))
	while :; do
		alive=0
		for pid; do kill -0 "$pid" 2>/dev/null && alive=1; done
		[ "$alive" = 1 ] || return 0
		if [ "$SECONDS" -ge "$next" ]; then
			secs=$((SECONDS - start))
			printf '== %s: %d:%02d so far\n' "$($describe)" $((secs / 60)) $((secs % 60))
			next=$((next + ${IPAT_PROGRESS_EVERY:-60}))
		fi
		sleep 1
	done
}
