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
# line). qemu/init then reports "IPAT-RESULT <test> SKIP <reason>".
ipat_skip() {
	echo "skipped: $*"
	echo "$*" >"${IPAT_SKIP_FILE:-/dev/null}"
	exit 77
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
# that cannot run on this kernel exits 77 after writing its reason (one
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
	if [ "$rc" -eq 77 ]; then
		reason=$(head -n 1 "${IPAT_SKIP_FILE:-/dev/null}" 2>/dev/null) ||
			reason=
		[ -n "$reason" ] || ipat_fail "$1 exited 77 (skip) without a reason"
		ipat_skip "$reason"
	fi
	[ "$rc" -eq 0 ] || ipat_fail "$1 failed (status $rc)"
}
