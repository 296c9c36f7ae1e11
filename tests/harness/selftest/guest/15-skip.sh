#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): skips on purpose; the harness must
# report it as skipped, with this reason, neither passed nor failed.
set -eu
. /tests/lib/guest.sh

ipat_skip "this test skips on purpose"
