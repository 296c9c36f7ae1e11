#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Case-insensitive directories against tmpfs (tests/prog/casefold.c):
# the casefold and strict_encoding mount options, taken where this
# kernel's tmpfs has them (6.13 on) and refused where it has not; chattr
# +F and its rules; lookups in any case and Unicode form; removals and
# renames leaving no stale name; strict_encoding refusing names that are
# not UTF-8. Each check is printed "ok N FS: ..." or "not ok N FS: ...",
# and each of ours must give what tmpfs gave.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs casefold
