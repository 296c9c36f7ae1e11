#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): crashes the kernel. qemu must exit at
# once, and the host must notice the missing IPAT-DONE and the panic in
# the console log. Runs last: nothing after it can run.
echo c >/proc/sysrq-trigger
sleep 60
