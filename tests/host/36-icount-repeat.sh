#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Under icount a guest booted twice on one image runs the same
# instructions: two boots of a small demo-mode bench (three filesystems,
# 1,000 files), started two seconds apart, print the same records to the
# count, and the kernel reports nothing (scripts/check-log.sh). They
# did not count the same while the guest's date came from the host's
# (qemu/run.sh, QEMU_ICOUNT). With tests/host/35-reproducible-image.sh,
# this is why two clones print the same demo table.
#   QEMU_INITRD   the image (default build/initramfs.cpio.gz; the suite
#                 gives its newest kernel's)
set -eu
cd "$(dirname "$0")/../.."
initrd=${QEMU_INITRD:-build/initramfs.cpio.gz}
[ -f "$initrd" ] || { echo "FAIL: no image $initrd (make initramfs)"; exit 1; }

boot() {
	QEMU_ICOUNT=1 QEMU_INITRD=$initrd IPAT_LOG=icount-repeat-$1 QEMU_TIMEOUT=300 \
		qemu/run.sh bench ipat.bench=demo ipat.bench_clock=icount ipat.bench_sizes=1000 \
		ipat.bench_fs=embedfs_demo,voidfs_demo,tmpfs ipat.bench_extras=0 >/dev/null 2>&1
}
records() {
	tr -d '\r' <"build/logs/icount-repeat-$1.log" | grep -o 'IPAT-BENCH .*' || true
}

boot 1 &
first=$!
sleep 2
boot 2 || true
wait "$first" || true

for n in 1 2; do
	if ! report=$(scripts/check-log.sh "build/logs/icount-repeat-$n.log" 2>&1); then
		echo "$report"
		echo "FAIL: boot $n: the kernel reported a bug"
		exit 1
	fi
done
one=$(records 1) two=$(records 2)
grep -q '^IPAT-BENCH end .*failed=0' <<<"$one" && grep -q '^IPAT-BENCH end .*failed=0' <<<"$two" ||
	{ echo "FAIL: a boot did not finish its bench (build/logs/icount-repeat-{1,2}.log)"; exit 1; }
if [ "$one" = "$two" ]; then
	echo "ok: two boots, $(wc -l <<<"$one") records, the same to the instruction"
	exit 0
fi
echo "FAIL: two boots of $initrd counted differently; the first records that differ:"
diff <(echo "$one") <(echo "$two") | head -n 4 | cut -c1-200
exit 1
