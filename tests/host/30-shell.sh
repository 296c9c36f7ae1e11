#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make shell" works: boot qemu/run.sh shell with commands typed on its
# standard input, as a person would, and check that the guest shell ran
# them (load the module, mount, unmount, unload), that poweroff -f
# ends qemu, and that the kernel reported nothing (scripts/check-log.sh).
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
out=build/logs/shell-run.txt
mkdir -p build/logs

mkfifo "$tmp/in"
IPAT_LOG=shell-test QEMU_TIMEOUT=180 qemu/run.sh shell <"$tmp/in" >"$out" 2>&1 &
pid=$!
exec 3>"$tmp/in"

# Type once the shell is up, as a person would. (Input typed earlier is
# not lost: qemu holds it until the guest's UART takes it.)
for _ in $(seq 150); do
	grep -q 'poweroff -f  *leaves' "$out" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 1
done
sleep 1
cat >&3 <<'CMDS'
insmod $IPAT_MODULE
mount -t embedfs_demo none /mnt
echo "mounted: $(grep -c ' /mnt embedfs_demo ' /proc/mounts)"
umount /mnt && rmmod inode_patterns && echo "shell-ok $((6 * 7))"
poweroff -f
CMDS

rc=0
wait "$pid" || rc=$?
pid=
exec 3>&-
why=()
[ "$rc" -eq 0 ] || why+=("qemu/run.sh shell exited $rc")
# The kernel writes to the same serial port: a message (a clocksource
# or hrtimer complaint on a loaded host) can land at the end of a line
# the shell printed, before its newline. Cut it off before comparing.
for want in 'mounted: 1' 'shell-ok 42'; do
	tr -d '\r' <"$out" | sed 's/\[ *[0-9]*\.[0-9]*\] .*//' | grep -qx "$want" ||
		why+=("no line '$want'")
done
# check-log.sh's first line says where; its second is the first report.
if ! scripts/check-log.sh build/logs/shell-test.log >"$tmp/report" 2>&1; then
	why+=("kernel log: $(grep -v '^check-log: kernel reports' "$tmp/report" | head -n 1)")
fi
if [ ${#why[@]} -eq 0 ]; then
	echo "shell: interactive guest session checked; transcript in $out"
	exit 0
fi
# The transcript's end, kernel lines included (a panic ends a session
# too), then why: the last line is what tests/run-qemu.sh reports.
echo "shell: end of the session ($out) follows"
tr -d '\r' <"$out" | tail -n 30 | sed 's/^/| /'
printf 'shell: %s\n' "${why[@]}"
exit 1
