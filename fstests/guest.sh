#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fstests guest's init (/ipat/init of the image fstests/image.sh
# makes): runs the job's tests on each filesystem type of the boot, a
# batch of tests per ./check, and prints one record per test on the
# console, which scripts/fstests.sh collects:
#   IPAT-FSTESTS batch FS TEST...        (a ./check begins)
#   IPAT-FSTESTS result FS TEST pass|fail|notrun SECONDS [REASON]
#   IPAT-FSTESTS detail FS TEST LINE     (a failure's diff and messages)
#   IPAT-FSTESTS end
# check writes "run fstests TEST at ..." to the kernel log as each test
# begins: a kernel report after it is that test's (fstests/collect.sh).
# On our types check unloads and loads the module after every test
# (TEST_FS_MODULE_RELOAD, by the alias fs-TYPE), so objects a test left
# in the module's caches are reported in its own window.
#
# The job is the raw text of /dev/vdb: "FS TEST" a line, in order; lines
# in a row of one type are one batch. Kernel parameters: ipat.timeout=N,
# the seconds one test may take; ipat.batch=N, the most tests a batch.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
# devtmpfs has no /dev/fd (udev makes it), and bash's <(...) needs it:
# without it common/rc's fio-engine and fstrim probes misjudge.
ln -sfn /proc/self/fd /dev/fd
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -o remount,rw /
echo 1 >/proc/sys/kernel/sysrq
# fstests needs the loopback interface (common/rc, _require_... and the
# tests that talk to localhost), and the name localhost: a minbase root
# has no /etc/hosts, and without it generic/131's lock server and client
# cannot find each other.
ip link set lo up
hostname fstests
printf '127.0.0.1\tlocalhost\n127.0.1.1\tfstests\n::1\tlocalhost ip6-localhost ip6-loopback\n' >/etc/hosts

param() { tr ' ' '\n' </proc/cmdline | sed -n "s/^ipat\.$1=//p" | tail -n 1; }
timeout=$(param timeout)
batch=$(param batch)
tr -d '\000' </dev/vdb >/tmp/job
mkdir -p /mnt/test /mnt/scratch
cd /opt/fstests || exit 1

say() { echo "IPAT-FSTESTS $*"; }
ours() { case $1 in unionfs_demo | embedfs_demo | voidfs_demo) return 0 ;; esac; return 1; }
uptime_s() { cut -d. -f1 /proc/uptime; }

# check's lines for TEST in /tmp/check.out: its own line (the name, then
# what check prints as the test ends), up to the next test's or the
# summary.
block() {
	awk -v t="$1" '
		$1 == t { on = 1; print; next }
		on && ($1 ~ /^[a-z]+\/[0-9]+$/ || /^(Ran|Not run|Failures|Passed all)/) { exit }
		on' /tmp/check.out
}

# The seconds each test took, from the kernel log's "run fstests" lines:
# a test ends where the next begins, the last where ./check ended (END).
seconds() {
	dmesg | awk -v end="$1" '
		/ run fstests [^ ]+ at / {
			for (i = 1; i < NF; i++) if ($i == "fstests") break
			ts = $0; sub(/^\[ */, "", ts); sub(/\].*/, "", ts)
			if (prev != "") printf "%s %d\n", prev, ts - t0
			prev = $(i + 1); t0 = ts
		}
		END { if (prev != "") printf "%s %d\n", prev, end - t0 }'
}

# run FS TEST...: ./check on the tests, a batch, again on those it did not
# come to, until each has its result.
run() {
	local fs=$1 left t b rc pid since size last now current summary finished problems status reason secs first ino ran notrun
	shift
	left="$*"
	while [ -n "$left" ]; do
		# shellcheck disable=SC2086 # a list of test names
		set -- $left
		say "batch $fs $*"
		echo "IPAT-FSTESTS batch $fs $*" >/dev/kmsg
		if ours "$fs" && ! modprobe inode_patterns; then
			for t; do say "result $fs $t fail 0 modprobe inode_patterns failed"; done
			return
		fi
		# The module's sysfs directory is made anew by each load: its
		# inode number tells whether check reloaded it.
		ino=$(stat -c %i /sys/module/inode_patterns 2>/dev/null)
		res=/tmp/results/$fs
		rm -rf "$res"
		dmesg -C
		reload=
		! ours "$fs" || reload=1
		FSTYP=$fs TEST_DEV=${fs}_test TEST_DIR=/mnt/test \
			SCRATCH_DEV=${fs}_scratch SCRATCH_MNT=/mnt/scratch \
			RESULT_BASE=$res TEST_FS_MODULE_RELOAD=$reload \
			setsid ./check "$@" >/tmp/check.out 2>&1 &
		pid=$!
		# A test that runs past the limit: check.out, where check
		# writes each test's name as it begins and its outcome as it
		# ends, stays the same for that long.
		timedout='' since=$(uptime_s) last=''
		while kill -0 "$pid" 2>/dev/null; do
			sleep 5
			size=$(stat -c %s /tmp/check.out) now=$(uptime_s)
			if [ "$size" != "$last" ]; then
				last=$size since=$now
			elif [ $((now - since)) -gt "$timeout" ]; then
				timedout=1
				kill -TERM -- "-$pid" 2>/dev/null
				sleep 10
				kill -KILL -- "-$pid" 2>/dev/null
				break
			fi
		done
		rc=0
		wait "$pid" || rc=$?
		end=$(cut -d' ' -f1 /proc/uptime)
		# Every mount goes, so that the next batch starts empty and
		# the module can be unloaded.
		problems=
		for m in /mnt/scratch /mnt/test; do
			while mountpoint -q "$m"; do umount "$m" || break; done
		done
		if ours "$fs"; then
			# check reloads it after each test that ran (not
			# after one that did not run).
			ran=$(sed -n 's/^Ran: //p' /tmp/check.out | wc -w)
			notrun=$(sed -n 's/^Not run: //p' /tmp/check.out | wc -w)
			if [ "$ran" -gt "$notrun" ] &&
				[ "$(stat -c %i /sys/module/inode_patterns 2>/dev/null)" = "$ino" ]; then
				problems="check did not reload the module (TEST_FS_MODULE_RELOAD);"
			fi
			mounted=$(awk -v fs="$fs" '$3 ~ /_demo$/ { print $2 }' /proc/mounts | tr '\n' ' ')
			[ -z "$mounted" ] || problems="$problems still mounted: $mounted;"
			! lsmod | grep -q '^inode_patterns ' || rmmod inode_patterns ||
				problems="$problems rmmod inode_patterns failed;"
		fi
		seconds "$end" >/tmp/seconds
		failures=$(sed -n 's/^Failures: //p' /tmp/check.out)
		# The last test check began, and whether check came to its
		# summary: if not, that test is the one it ended in.
		current=$(awk '$1 ~ /^[a-z]+\/[0-9]+$/ { t = $1 } END { print t }' /tmp/check.out)
		summary=
		! grep -q '^Ran: \|^Passed all \|^Failures: \|^Not run: ' /tmp/check.out || summary=1
		finished='' left=''
		for t; do
			if [ -n "$(block "$t")" ]; then finished="$finished $t"; else left="$left $t"; fi
		done
		if [ -z "$finished" ]; then
			for t; do say "result $fs $t fail 0 ./check ended (exit $rc) with no result"; done
			tail -n 20 /tmp/check.out | while IFS= read -r line; do say "detail $fs $1 $line"; done
			return
		fi
		for t in $finished; do
			b=$(block "$t")
			secs=$(awk -v t="$t" '$1 == t { print $2 }' /tmp/seconds)
			reason=
			if [ "$t" = "$current" ] && [ -z "$summary" ]; then
				status=fail
				if [ -n "$timedout" ]; then
					reason="timed out after ${timeout}s"
				else
					reason="./check ended (exit $rc) during the test"
				fi
			elif [ -f "$res/$t.notrun" ]; then
				status=notrun reason=$(tr '\n' ' ' <"$res/$t.notrun" | sed 's/ *$//')
			elif [ -f "$res/$t.out.bad" ] || echo " $failures " | grep -qF " $t "; then
				# check's line for the test, less its name and
				# the guest's paths: "[failed, exit status 1]-
				# output mismatch", "_check_dmesg: something
				# found"; then the first line the test printed
				# that it should not have.
				status=fail reason=$(echo "$b" | head -n 1 |
					sed "s,^$t *,,; s,^[0-9]*s \.\.\. *,,; s, *(see [^)]*),,g")
				[ -n "$reason" ] || reason="failed"
				first=$(diff "tests/$t.out" "$res/$t.out.bad" 2>/dev/null |
					sed -n 's/^> //p' | head -n 1)
				[ -z "$first" ] || reason="$reason: $first"
			else
				status=pass
			fi
			# check reloads the module after each test of ours:
			# its modprobe -r fails while something holds it.
			if echo "$b" | grep -q 'modprobe: '; then
				status=fail reason="the module could not be reloaded: $(echo "$b" |
					grep -m 1 'modprobe: ');${reason:+ $reason}"
			fi
			# What was left behind after the batch: its last test's.
			if [ -n "$problems" ] && [ "$t" = "${finished##* }" ]; then
				status=fail reason="after the batch: $problems${reason:+ $reason}"
			fi
			say "result $fs $t $status ${secs:-0}${reason:+ $reason}"
			if [ "$status" = fail ]; then
				# check's account of the test (the start of the
				# diff), the end of its own log, and the kernel
				# log check saved.
				{
					echo "$b"
					[ ! -f "$res/$t.full" ] || { echo "(the end of $t.full)"; tail -n 15 "$res/$t.full"; }
					[ ! -f "$res/$t.dmesg" ] || { echo "($t.dmesg)"; head -n 20 "$res/$t.dmesg"; }
				} | head -n 60 | while IFS= read -r line; do say "detail $fs $t $line"; done
			fi
		done
	done
}

# Lines in a row of one type, up to ipat.batch of them, are a batch.
cur='' tests=()
while read -r fs t; do
	if [ "$fs" != "$cur" ] || [ "${#tests[@]}" -ge "${batch:-1}" ]; then
		[ -z "$cur" ] || run "$cur" "${tests[@]}" </dev/null
		cur=$fs tests=()
	fi
	tests+=("$t")
done </tmp/job
[ -z "$cur" ] || run "$cur" "${tests[@]}" </dev/null
say end
sync
echo o >/proc/sysrq-trigger
sleep 60
