#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inode flags against tmpfs (tests/prog/iflags.c), through FS_IOC_GETFLAGS
# and FS_IOC_SETFLAGS: immutable, append-only, nodump and noatime set,
# read back and cleared; what immutable and append-only refuse (EPERM) and
# allow; noatime keeping atime; who may set them; unsupported flags
# refused with tmpfs's errno; nodump and noatime inherited on creation.
# Each check is printed "ok N FS: ..." or "not ok N FS: ...", and each of
# ours must give what tmpfs gave.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs iflags
