#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main demonstration, from a fresh Debian 12 machine: install what is
# missing, then for every installed Debian kernel (6.1 and 6.12), build
# the module and the guest image, boot it in QEMU, mount the three
# filesystems, run the workload and print the comparison. Each kernel's
# table shows its own sizes: struct inode is not the same size in both.
#
#   scripts/demo.sh            IPAT_DEMO_FILES=N sets the number of files
#   KVER=<ver> scripts/demo.sh one kernel only
set -eu
cd "$(dirname "$0")/.."

scripts/install-deps.sh
kernels=${KVER:-$(scripts/find-kernel.sh --all)}
files=${IPAT_DEMO_FILES:-10000}
status=0
for kver in $kernels; do
	scripts/build-module.sh "$kver" "/usr/src/linux-headers-$kver" >/dev/null ||
		[ $? -eq 3 ] || { status=1; continue; }
	IPAT_KO=build/$kver/inode_patterns.ko \
	IPAT_INITRAMFS=build/$kver/initramfs.cpio.gz qemu/mkinitramfs.sh >/dev/null
	log=build/logs/$kver-demo.log
	echo
	echo "== Linux $kver =="
	IPAT_LOG=$kver-demo QEMU_INITRD=build/$kver/initramfs.cpio.gz \
		qemu/run.sh demo "ipat.demo_files=$files" >/dev/null || true
	sed -n '/^IPAT-DEMO-BEGIN/,/^IPAT-DEMO-END/p' "$log" | sed '1d;$d' | tr -d '\r'
	if ! grep -q '^IPAT-RESULT demo PASS' "$log"; then
		echo "demo: the guest run on $kver failed; its console log is $log" >&2
		status=1
	elif ! scripts/check-log.sh "$log"; then
		status=1
	fi
done
exit "$status"
