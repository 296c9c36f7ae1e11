#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# File leases as tmpfs grants them, on every kernel (tests/prog/lease.c):
# read and write leases on a file, taken, read back and given up; a read
# lease broken by an open for writing; a lease on a directory answered as
# tmpfs answers it. Since 7.0 a filesystem without ->setlease refuses every
# lease with EINVAL, where tmpfs grants it.
set -eu
. /tests/lib/guest.sh

ipat_against_tmpfs lease
