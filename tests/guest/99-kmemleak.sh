#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Last of all: kmemleak finds no unreferenced object left by any test.
# Two scans with a wait between, since kmemleak reports nothing younger
# than 5 seconds. On a kernel without kmemleak this skips.
set -eu
. /tests/lib/guest.sh

grep -q " $ipat_dbg debugfs " /proc/mounts ||
	mount -t debugfs none $ipat_dbg 2>/dev/null || true
if [ ! -e $ipat_dbg/kmemleak ]; then
	ipat_skip "no kmemleak (kernel without CONFIG_DEBUG_KMEMLEAK)"
fi
ipat_kmemleak "$IPAT_TMP/leaks"
if [ -s "$IPAT_TMP/leaks" ]; then
	head -n 100 "$IPAT_TMP/leaks"
	ipat_fail "kmemleak: unreferenced objects (above)"
fi
echo "ok: kmemleak reports no leak"
