#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): never ends; its limit of 3 s (settings)
# must kill it and fail it, and the run must go on.
sleep 600 &
sleep 600
