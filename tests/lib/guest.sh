# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers for guest tests, which source it: . /tests/lib/guest.sh
# A test passes by exiting 0; ipat_fail says why it did not.

# shellcheck disable=SC2034 # for the tests that source this file
IPAT_FSTYPES="unionfs_demo embedfs_demo voidfs_demo"

ipat_fail() {
	echo "FAIL: $*"
	exit 1
}

# Skip the test: this kernel cannot run it, for the reason given (one
# line). Exits 4, kselftest's KSFT_SKIP; qemu/init then reports
# "IPAT-RESULT <test> SKIP <reason>".
ipat_skip() {
	echo "skipped: $*"
	echo "$*" >"${IPAT_SKIP_FILE:-/dev/null}"
	exit 4
}

# Run a command, echoing it first; fail the test if it fails.
ipat_run() {
	echo "+ $*"
	"$@" || ipat_fail "'$*' exited with status $?"
}

# ipat_expect KIND CMD...: run CMD, which provokes kernel reports of KIND
# on purpose, between the kernel log lines "IPAT-EXPECT begin KIND" and
# "IPAT-EXPECT end KIND": scripts/check-log.sh allows those reports there
# and nowhere else (its header lists the kinds). Returns CMD's status.
ipat_expect() {
	ipat_expect_kind=$1
	shift
	echo "IPAT-EXPECT begin $ipat_expect_kind" >/dev/kmsg
	ipat_expect_rc=0
	"$@" || ipat_expect_rc=$?
	echo "IPAT-EXPECT end $ipat_expect_kind" >/dev/kmsg
	return $ipat_expect_rc
}

# --- Fault injection and kmemleak (the debug kernel) ---
ipat_dbg=/sys/kernel/debug

# Write value $2 to $1, failing loudly if the kernel refuses it.
ipat_put() {
	echo "$2" >"$1" || ipat_fail "cannot write '$2' to $1"
}

# ipat_fault_setup: make the allocations of a task that arms
# /proc/thread-self/fail-nth fail, and only those: slab objects from every
# cache but kmemleak's own, and no page yet (ipat_fault_pass). Skips on a
# kernel without fault injection.
ipat_fault_setup() {
	[ -e /proc/thread-self/fail-nth ] ||
		ipat_skip "no fail-nth (kernel without CONFIG_FAULT_INJECTION)"
	grep -q " $ipat_dbg debugfs " /proc/mounts ||
		ipat_run mount -t debugfs none $ipat_dbg
	for dir in failslab fail_page_alloc; do
		[ -d "$ipat_dbg/$dir" ] || ipat_fail "fail-nth but no $ipat_dbg/$dir"
	done
	ipat_failslab_marked kmalloc-64 dentry
	# fail-nth counts only the allocations a fault attribute would
	# consider: by default both skip any that may sleep, that is nearly
	# all of ours. task-filter goes before probability, which stays 0:
	# fail-nth needs neither, and nothing else may inject. verbose 0: an
	# injected fault is expected here, not a report for the log check.
	for dir in failslab fail_page_alloc; do
		ipat_put $ipat_dbg/$dir/task-filter Y
		ipat_put $ipat_dbg/$dir/probability 0
		ipat_put $ipat_dbg/$dir/ignore-gfp-wait N
		ipat_put $ipat_dbg/$dir/verbose 0
	done
	ipat_put $ipat_dbg/fail_page_alloc/ignore-gfp-highmem N
	ipat_put $ipat_dbg/failslab/cache-filter Y
	ipat_fault_pass slab
	if [ -e $ipat_dbg/kmemleak ]; then
		# Leaks from before this test are not this test's.
		ipat_put $ipat_dbg/kmemleak scan
		ipat_put $ipat_dbg/kmemleak clear
	fi
}

# ipat_failslab_marked CACHE...: fail unless failslab's cache filter takes
# these slab caches (which must exist), and leaves out kmemleak's own: its
# metadata allocation after each real one has a fallback pool, so a fault
# there is absorbed and would double the points. The filter flag can only
# be set at boot: tests/run-qemu.sh boots the debug kernel with
# slub_debug=FA;F,kmemleak_object,kmemleak_scan_area.
ipat_failslab_marked() {
	for cache in "$@"; do
		[ "$(cat "/sys/kernel/slab/$cache/failslab")" = 1 ] ||
			ipat_fail "$cache is not marked for failslab: boot with slub_debug=FA;F,kmemleak_object,kmemleak_scan_area"
	done
	if [ -e /sys/kernel/slab/kmemleak_object ]; then
		[ "$(cat /sys/kernel/slab/kmemleak_object/failslab)" = 0 ] ||
			ipat_fail "kmemleak_object is marked for failslab (see slub_debug above)"
	fi
}

# ipat_fault_pass slab|page: what fails from now on, slab objects or pages.
ipat_fault_pass() {
	if [ "$1" = slab ]; then
		# Orders below min-order are never failed: no page at all.
		ipat_put $ipat_dbg/fail_page_alloc/min-order 11
		ipat_put $ipat_dbg/failslab/ignore-gfp-wait N
	else
		# Every page, and no slab object that may sleep (all of ours).
		ipat_put $ipat_dbg/fail_page_alloc/min-order 0
		ipat_put $ipat_dbg/failslab/ignore-gfp-wait Y
	fi
}

# Undo ipat_fault_setup: the kernel's defaults.
ipat_fault_restore() {
	ipat_put $ipat_dbg/failslab/cache-filter N
	ipat_put $ipat_dbg/fail_page_alloc/min-order 1
	for dir in failslab fail_page_alloc; do
		ipat_put $ipat_dbg/$dir/ignore-gfp-wait Y
		ipat_put $ipat_dbg/$dir/verbose 2
	done
	ipat_put $ipat_dbg/fail_page_alloc/ignore-gfp-highmem Y
}

# ipat_kmemleak FILE: what kmemleak reports now, into FILE (empty: no
# leak). A new object is too young to report for 5 seconds: scan, wait,
# scan. A leak printed as it is ("unreferenced object ..." starting a
# line) also fails the run's log check (scripts/check-log.sh).
ipat_kmemleak() {
	ipat_put $ipat_dbg/kmemleak scan
	sleep 6
	ipat_put $ipat_dbg/kmemleak scan
	cat $ipat_dbg/kmemleak >"$1"
}

ipat_module_loaded() {
	grep -q '^inode_patterns ' /proc/modules
}

# Is filesystem type $1 in /proc/filesystems?
ipat_fs_registered() {
	awk -v fs="$1" '$NF == fs { found = 1 } END { exit !found }' /proc/filesystems
}

# ipat_against_tmpfs PROG: run a table-driven program (badinput, perms,
# idmap) that mounts tmpfs and each of ours under a work directory and
# compares them; fail if it fails, if it leaves a mount behind, or if the
# module cannot be unloaded afterwards (a leaked reference). A program
# that cannot run on this kernel exits 4 after writing its reason (one
# line) to $IPAT_SKIP_FILE: the test is then skipped, once cleaned up.
ipat_against_tmpfs() {
	work=${IPAT_TMP:-/tmp}/$1
	mkdir -p "$work"
	ipat_run modprobe inode_patterns

	rc=0
	start=$(cut -d. -f1 /proc/uptime)
	# shellcheck disable=SC2086 # one argument per filesystem type
	"$1" "$work" $IPAT_FSTYPES || rc=$?
	echo "$1 took $(($(cut -d. -f1 /proc/uptime) - start)) s"

	# Anything still mounted under $work (WORKDIR/<fs>, and the idmapped
	# copies beside them), the last mounted first.
	for mnt in $(awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | tac); do
		echo "FAIL: $mnt left mounted"
		umount "$mnt" || umount -l "$mnt"
		rc=1
	done
	rmmod inode_patterns || ipat_fail "rmmod inode_patterns failed"
	if [ "$rc" -eq 4 ]; then
		reason=$(head -n 1 "${IPAT_SKIP_FILE:-/dev/null}" 2>/dev/null) ||
			reason=
		[ -n "$reason" ] || ipat_fail "$1 exited 4 (skip) without a reason"
		ipat_skip "$reason"
	fi
	[ "$rc" -eq 0 ] || ipat_fail "$1 failed (status $rc)"
}
