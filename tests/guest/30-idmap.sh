#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Idmapped mounts, as tmpfs has them (tests/prog/idmap.c): each of ours
# and tmpfs get an idmapped copy of their mount (a user namespace mapping
# 0-999 to 10000-10999, mount_setattr() with MOUNT_ATTR_IDMAP); files
# created through it get the mapped owner on disk, stat shows owners
# through the mapping (65534 for an unmapped one), permission checks,
# chmod, chown and user.* xattrs follow the mapping, and so do mkdir,
# symlink, mkfifo and O_TMPFILE. Every result must be what tmpfs gives.
# Before Linux 6.3 tmpfs refuses idmapped mounts, and so do ours: the
# program checks that they refuse with tmpfs's errno, and the test is
# skipped, as there is nothing to compare against.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs idmap
