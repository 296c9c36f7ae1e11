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
