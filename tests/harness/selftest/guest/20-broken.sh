#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): fails on purpose; the harness must
# report it as failed.
echo "this test fails on purpose"
exit 1
