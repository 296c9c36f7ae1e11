#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The static gates: checkpatch.pl --strict on every module source and
# header (scripts/checkpatch.sh), and a build against the guest's Debian
# kernel with sparse (C=2) and W=1 that must print nothing
# (scripts/build-module.sh, into build/static/). The KUnit sources get the
# same sparse and W=1 build against the debug kernel (tests/run-debug.sh).
set -eu
cd "$(dirname "$0")/.."

kver=$(scripts/find-kernel.sh)
[ -n "$kver" ] || { echo "static-checks: no Debian kernel with headers" >&2; exit 1; }

status=0
scripts/checkpatch.sh || status=1
scripts/build-module.sh static "/usr/src/linux-headers-$kver" || status=1
exit "$status"
