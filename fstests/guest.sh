#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fstests guest's init (/ipat/init of the image fstests/image.sh
# makes): runs each test of the job on each filesystem type of the boot,
# one ./check per test and type, and prints one record per run on the
# console, which scripts/fstests.sh collects:
#   IPAT-FSTESTS begin FS TEST
#   IPAT-FSTESTS result FS TEST pass|fail|notrun SECONDS [REASON]
#   IPAT-FSTESTS detail FS TEST LINE     (a failure's diff and messages)
#   IPAT-FSTESTS end
# The begin line also goes to the kernel log, so a kernel report between
# two of them is the test's (scripts/fstests.sh reads the console log with
# scripts/check-log.sh).
#
# The job is the raw text of /dev/vdb: "FS TEST" a line, in order. The
# kernel parameter ipat.timeout=N: the seconds a ./check may take.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -o remount,rw /
echo 1 >/proc/sys/kernel/sysrq
# fstests needs the loopback interface (common/rc, _require_... and the
# tests that talk to localhost).
ip link set lo up
hostname fstests

param() { tr ' ' '\n' </proc/cmdline | sed -n "s/^ipat\.$1=//p" | tail -n 1; }
timeout=$(param timeout)
tr -d '\000' </dev/vdb >/tmp/job
mkdir -p /mnt/test /mnt/scratch
cd /opt/fstests || exit 1

say() { echo "IPAT-FSTESTS $*"; }
ours() { case $1 in unionfs_demo | embedfs_demo | voidfs_demo) return 0 ;; esac; return 1; }

while read -r fs t; do
	{
		say "begin $fs $t"
		echo "IPAT-FSTESTS begin $fs $t" >/dev/kmsg
		problems=
		if ours "$fs" && ! modprobe inode_patterns; then
			say "result $fs $t fail 0 modprobe inode_patterns failed"
			continue
		fi
		res=/tmp/results/$fs
		rm -rf "$res"
		start=$(date +%s)
		FSTYP=$fs TEST_DEV=${fs}_test TEST_DIR=/mnt/test \
			SCRATCH_DEV=${fs}_scratch SCRATCH_MNT=/mnt/scratch \
			RESULT_BASE=$res timeout -k 10 "$timeout" ./check "$t" >/tmp/check.out 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		[ "$rc" -ne 124 ] || problems="timed out after ${timeout}s;"
		# Every mount of the test goes, so that the next starts empty
		# and the module can be unloaded.
		for m in /mnt/scratch /mnt/test; do
			while mountpoint -q "$m"; do umount "$m" || break; done
		done
		if ours "$fs"; then
			mounted=$(awk -v fs="$fs" '$3 ~ /_demo$/ { print $2 }' /proc/mounts | tr '\n' ' ')
			[ -z "$mounted" ] || problems="$problems still mounted: $mounted;"
			# The module is unloaded after every test: its caches
			# are destroyed, so objects left behind are reported
			# now, in this test's window of the kernel log.
			rmmod inode_patterns || problems="$problems rmmod inode_patterns failed;"
		fi
		if [ -f "$res/$t.notrun" ]; then
			status=notrun reason=$(tr '\n' ' ' <"$res/$t.notrun" | sed 's/ *$//')
		elif grep -q "^Passed all 1 tests" /tmp/check.out; then
			status=pass reason=
		elif grep -q "^Failures: $t" /tmp/check.out; then
			# check's line for the test, less its name and the
			# guest's paths: "[failed, exit status 1]- output
			# mismatch", "_check_dmesg: something found".
			status=fail reason=$(grep "^$t " /tmp/check.out | tail -n 1 |
				sed "s,^$t *,,; s,^[0-9]*s \.\.\. *,,; s, *(see [^)]*),,g")
			[ -n "$reason" ] || reason="failed"
			# and the first line the test printed that it
			# should not have: what went wrong, in a line.
			first=$(diff "tests/$t.out" "$res/$t.out.bad" 2>/dev/null |
				sed -n 's/^> //p' | head -n 1)
			[ -z "$first" ] || reason="$reason: $first"
		else
			status=fail reason="./check ended (exit $rc) with no result"
		fi
		if [ -n "$problems" ]; then
			status=fail reason="$problems $reason"
		fi
		say "result $fs $t $status $secs${reason:+ $reason}"
		if [ "$status" = fail ]; then
			# check's account of the test (the start of the diff),
			# the end of the test's own log, and the kernel log
			# check saved.
			{
				sed -n "\,^$t ,,/^Ran: /p" /tmp/check.out | grep -v '^Ran: '
				[ ! -f "$res/$t.full" ] || { echo "(the end of $t.full)"; tail -n 15 "$res/$t.full"; }
				[ ! -f "$res/$t.dmesg" ] || { echo "($t.dmesg)"; head -n 20 "$res/$t.dmesg"; }
			} | head -n 60 | while IFS= read -r line; do say "detail $fs $t $line"; done
		fi
	} </dev/null
done </tmp/job
say end
sync
echo o >/proc/sysrq-trigger
sleep 60
