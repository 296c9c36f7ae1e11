#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): one named check passes, one fails,
# and the test exits 0 all the same: the harness must report the failed
# check and fail the test.
echo "ok 1 a check that passes"
echo "not ok 2 a check that fails on purpose"
exit 0
