#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The inode limit and the mount options behave as on tmpfs
# (tests/prog/limits.c): a remount or an fspick()/fsconfig() reconfigure
# changes max_inodes only when it names it, /proc/mounts shows mode=, uid=
# and gid= as mounted after chmod and chown of the root, and hard links
# take inode slots (link() on a full mount gives ENOSPC).
#
# It also sets 5,000 xattr names on one file, on tmpfs too, whose store on
# 6.1 is a list: quadratic, and with KASAN under TCG on a busy host the
# debug kernel's run went past the default 120 s (its limit: settings).
set -eu
. /tests/lib/guest.sh

begin=$(date +%s)

ipat_against_tmpfs limits
echo "took $(($(date +%s) - begin))s"
