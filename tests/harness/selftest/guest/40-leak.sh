#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test (ipat.selftest=1 only): exits 0 but leaves the module loaded;
# the harness must fail it and unload the module.
set -eu
insmod "$IPAT_MODULE"
