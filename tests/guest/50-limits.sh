#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The inode limit and the mount options behave as on tmpfs
# (tests/prog/limits.c): a remount or an fspick()/fsconfig() reconfigure
# changes max_inodes only when it names it, /proc/mounts shows mode=, uid=
# and gid= as mounted after chmod and chown of the root, and hard links
# take inode slots (link() on a full mount gives ENOSPC).
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs limits
