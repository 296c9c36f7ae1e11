#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An unprivileged user (uid/gid 1000 or 1001, no other groups, no
# capabilities) gets what tmpfs gives him (tests/prog/perms.c): no
# creation in a 0755 root-owned directory, no chmod/chown/utimensat or
# user. xattr writes on another user's file, sticky-directory deletion
# rules, setuid/setgid cleared on write, no mount without CAP_SYS_ADMIN.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs perms
