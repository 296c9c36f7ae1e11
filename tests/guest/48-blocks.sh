#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Block accounting against tmpfs (tests/prog/blocks.c): st_blocks after
# writes, sparse writes, reads of holes, truncates and mmap stores;
# statfs's f_blocks and f_bfree after each; busybox's df and du; a full
# mount (size=64k: a short write, then ENOSPC and SIGBUS, what was
# written intact); a remount below what is in use refused; size= in
# /proc/mounts. Each check is printed "ok N FS: ..." or "not ok N FS: ...",
# and each of ours must give what tmpfs gave.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs blocks
