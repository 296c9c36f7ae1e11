#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the rest of the kernel expects of a filesystem, against tmpfs
# (tests/prog/interop.c): security.* xattrs and security.capability;
# statfs's f_fsid per mount and free blocks as tmpfs counts them;
# RENAME_WHITEOUT's 0/0 character device under the inode limit;
# security_inode_init_security() on every creating path, counted with
# ftrace's function tracer; the statistics file 0400 (file handles and
# fanotify: 44-handles). Each check is printed "ok N FS: ..." or
# "not ok N FS: ...". A check the kernel cannot run (the debug kernel has
# no function tracer; a kernel without tracefs likewise) is printed
# "# SKIP reason" and
# listed in the summary; only when every check is skipped is the test
# reported skipped.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs interop
