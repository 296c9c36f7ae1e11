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

ipat_module_loaded() {
	grep -q '^inode_patterns ' /proc/modules
}

# Is filesystem type $1 in /proc/filesystems?
ipat_fs_registered() {
	awk -v fs="$1" '$NF == fs { found = 1 } END { exit !found }' /proc/filesystems
}

# ipat_against_tmpfs PROG: run a table-driven program (badinput, perms)
# that mounts tmpfs and each of ours under a work directory and compares
# them; fail if it fails, if it leaves a mount behind, or if the module
# cannot be unloaded afterwards (a leaked reference).
ipat_against_tmpfs() {
	work=${IPAT_TMP:-/tmp}/$1
	mkdir -p "$work"
	ipat_run modprobe inode_patterns

	rc=0
	start=$(cut -d. -f1 /proc/uptime)
	# shellcheck disable=SC2086 # one argument per filesystem type
	"$1" "$work" $IPAT_FSTYPES || rc=$?
	echo "$1 took $(($(cut -d. -f1 /proc/uptime) - start)) s"

	for fs in tmpfs $IPAT_FSTYPES; do
		if grep -q " $work/$fs " /proc/mounts; then
			echo "FAIL: $work/$fs left mounted"
			umount "$work/$fs" || umount -l "$work/$fs"
			rc=1
		fi
	done
	rmmod inode_patterns || ipat_fail "rmmod inode_patterns failed"
	[ "$rc" -eq 0 ] || ipat_fail "$1 failed (status $rc)"
}
