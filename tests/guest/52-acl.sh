#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# POSIX ACLs against tmpfs (tests/prog/acl.c), through
# system.posix_acl_access and system.posix_acl_default: an access ACL set,
# read back and removed, the mode following it and chmod rewriting its
# mask; malformed values refused; a directory's default ACL inherited by
# new files, directories, fifos and O_TMPFILEs, the umask ignored, and
# applied without one; a named user's entry enforced (setresuid children).
# Each check is printed "ok N FS: ..." or "not ok N FS: ...", and each of
# ours must give what tmpfs gave. Where tmpfs has no ACLs
# (CONFIG_TMPFS_POSIX_ACL unset), ours must refuse them as it does.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs acl
