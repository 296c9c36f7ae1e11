#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The file I/O paths fstests reaches, against tmpfs (tests/prog/fileio.c):
# SEEK_DATA and SEEK_HOLE, fallocate() (allocate, KEEP_SIZE, PUNCH_HOLE,
# the modes tmpfs refuses, ENOSPC on a full mount with nothing lost),
# O_DIRECT as tmpfs takes it on this kernel, and the times after a store
# through a shared mapping. Each check is printed "ok N FS: ..." or
# "not ok N FS: ...", and each of ours must give what tmpfs gave.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs fileio
