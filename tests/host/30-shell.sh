#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make shell" works: boot qemu/run.sh shell with commands typed on its
# standard input, as a person would, and check that the guest shell ran
# them (load the module, mount, unmount, unload) and that poweroff -f
# ends qemu.
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

# Type only once the shell is up: input sent before the guest opens its
# serial port is lost.
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
bad=0
[ "$rc" -eq 0 ] || { echo "shell: qemu/run.sh shell exited $rc"; bad=1; }
for want in 'mounted: 1' 'shell-ok 42'; do
	tr -d '\r' <"$out" | grep -qx "$want" || { echo "shell: no line '$want'"; bad=1; }
done
if [ "$bad" -ne 0 ]; then
	echo "shell: end of the session follows"
	tr -d '\r' <"$out" | grep -v '^\[' | tail -n 30 | sed 's/^/| /'
fi
echo "shell: interactive guest session checked; transcript in $out"
exit "$bad"
