#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): a passing test that also checks what
# the harness promises every test: its environment and the static
# programs on PATH.
set -eu
. /tests/lib/guest.sh

case $IPAT_SEED in ''|*[!0-9]*) ipat_fail "IPAT_SEED='$IPAT_SEED' is not a number" ;; esac
[ -f "$IPAT_MODULE" ] || ipat_fail "IPAT_MODULE=$IPAT_MODULE is missing"
[ "$(pwd)" = "$IPAT_TMP" ] || ipat_fail "cwd $(pwd) is not IPAT_TMP=$IPAT_TMP"
touch scratch || ipat_fail "IPAT_TMP is not writable"
a=$(ipat-rand 5 1000) || ipat_fail "ipat-rand (a static test program) did not run"
b=$(ipat-rand 5 1000)
[ "$a" = "$b" ] || ipat_fail "ipat-rand differs for the same IPAT_SEED"
echo "seed $IPAT_SEED: $(echo "$a" | tr "\n" " ")"
