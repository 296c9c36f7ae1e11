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
	# pw_ names: DESCRIBE runs inside this function, where a plain local
	# (pid, say) would hide a variable of the same name that it reads.
	local pw_describe=$1 pw_start=$SECONDS pw_next pw_pid pw_alive pw_secs
	shift
	pw_next=$((SECONDS + ${IPAT_PROGRESS_EVERY:-60}))
	while :; do
		pw_alive=0
		for pw_pid; do kill -0 "$pw_pid" 2>/dev/null && pw_alive=1; done
		[ "$pw_alive" = 1 ] || return 0
		if [ "$SECONDS" -ge "$pw_next" ]; then
			pw_secs=$((SECONDS - pw_start))
			printf '== %s: %d:%02d so far\n' "$($pw_describe)" $((pw_secs / 60)) $((pw_secs % 60))
			pw_next=$((pw_next + ${IPAT_PROGRESS_EVERY:-60}))
		fi
		sleep 1
	done
}
