#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main demonstration, from a fresh Debian 12 machine: install what is
# missing, build the module and the guest image, boot it in QEMU, mount the
# three filesystems, run the workload and print the comparison.
#
#   scripts/demo.sh            IPAT_DEMO_FILES=N sets the number of files
set -eu
cd "$(dirname "$0")/.."

scripts/install-deps.sh
make
make initramfs
files=${IPAT_DEMO_FILES:-10000}
IPAT_LOG=demo qemu/run.sh demo "ipat.demo_files=$files" >/dev/null
sed -n '/^IPAT-DEMO-BEGIN/,/^IPAT-DEMO-END/p' build/logs/demo.log |
	sed '1d;$d' | tr -d '\r'
if ! grep -q '^IPAT-RESULT demo PASS' build/logs/demo.log; then
	echo "demo: the guest run failed; its console log is build/logs/demo.log" >&2
	exit 1
fi
scripts/check-log.sh build/logs/demo.log
