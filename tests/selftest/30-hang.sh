#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): never ends; the per-test limit below
# must kill it and fail it, and the run must go on.
# ipat-timeout: 3
sleep 600 &
sleep 600
