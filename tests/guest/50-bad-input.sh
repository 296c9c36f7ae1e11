#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input gets a clear error and loses nothing (tests/prog/badinput/):
# bad mount options (EINVAL, and the kernel log names the option), names
# over NAME_MAX, bad xattrs, renames into a directory's own subtree, rmdir
# of a non-empty directory, ENOSPC at max_inodes and recovery, on each
# filesystem and on tmpfs for the reference errnos. Each failing operation
# must leave the tree as it was.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs badinput
