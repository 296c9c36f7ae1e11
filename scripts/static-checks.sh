#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The static gates on their own: checkpatch.pl --strict on every module
# source and header (scripts/checkpatch.sh), and a build against every
# installed Debian kernel with sparse (C=2) and W=1 that must print
# nothing (scripts/build-module.sh, into build/<kernel>/).
# tests/run-qemu.sh runs the same gates as results of their own.
set -eu
cd "$(dirname "$0")/.."

kernels=$(scripts/find-kernel.sh --all)
[ -n "$kernels" ] || { echo "static-checks: no Debian kernel with headers" >&2; exit 1; }

status=0
scripts/checkpatch.sh || status=1
for kver in $kernels; do
	scripts/build-module.sh "$kver" "$kver" || status=1
done
exit "$status"
