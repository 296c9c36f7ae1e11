#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# File handles against tmpfs (tests/prog/handles.c): name_to_handle_at()
# and open_by_handle_at() on a file, a directory and the root; ESTALE once
# the inode is gone, also while a Landlock rule still holds it, and on
# another mount; fanotify with FAN_REPORT_FID, whose events carry f_fsid
# and a handle that opens. Each check is printed "ok N FS: ..." or
# "not ok N FS: ...", and each of ours must give what tmpfs gave; a check
# this kernel cannot run (no Landlock, no fanotify) is printed skipped.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs handles
