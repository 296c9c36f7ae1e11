#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Last of all: kmemleak finds no unreferenced object left by any test.
# Two scans with a wait between, since kmemleak reports nothing younger
# than 5 seconds. On a kernel without kmemleak this skips.
set -eu
. /tests/lib/guest.sh

dbg=/sys/kernel/debug
grep -q " $dbg debugfs " /proc/mounts || mount -t debugfs none $dbg 2>/dev/null || true
if [ ! -e $dbg/kmemleak ]; then
	ipat_skip "no kmemleak (kernel without CONFIG_DEBUG_KMEMLEAK)"
fi
ipat_run sh -c "echo scan >$dbg/kmemleak"
sleep 6
ipat_run sh -c "echo scan >$dbg/kmemleak"
leaks=$(cat $dbg/kmemleak)
if [ -n "$leaks" ]; then
	echo "$leaks" | head -n 100
	ipat_fail "kmemleak: unreferenced objects (above)"
fi
echo "ok: kmemleak reports no leak"
