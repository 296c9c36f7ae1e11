/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest test programs share: one way to report a failure, and
 * reading a figure from the module's statistics file. Included by one
 * program each (they are built one file at a time), hence the statics.
 */
#ifndef IPAT_TEST_H
#define IPAT_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipat-stats.h"

/* kselftest's exit status of a skipped test; the reason goes first to
 * $IPAT_SKIP_FILE (tests/lib/guest.sh, ipat_skip).
 */
#define KSFT_SKIP	4

/* Who failed, after "FAIL " on the failure line; the program sets it. */
static const char *fail_who = "test";

/* @err is the errno to show, or 0 when no system call failed. */
static inline void __attribute__((noreturn, format(printf, 2, 3)))
die(int err, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", fail_who);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (err)
		printf(" (errno %d: %s)", err, strerror(err));
	printf("\n");
	fflush(stdout);
	exit(1);
}

/* CHECK_SYS for a failed system call, CHECK for a wrong result. */
#define CHECK(cond, ...) do { if (!(cond)) die(0, __VA_ARGS__); } while (0)
#define CHECK_SYS(cond, ...) \
	do { if (!(cond)) die(errno, __VA_ARGS__); } while (0)

/* The figure of the line "KEY<sep>VALUE" of the file at @path. */
static inline long file_value(const char *path, const char *key, char sep)
{
	long value = read_figure(path, key, sep);

	if (value < 0)
		die(errno, "no %s in %s", key, path);
	return value;
}

/* One "key: value" figure from /proc/fs/inode_patterns/FSTYPE. */
static inline long stat_value(const char *fstype, const char *key)
{
	long value = ipat_stat(fstype, key);

	if (value < 0)
		die(errno, "no %s in /proc/fs/inode_patterns/%s", key, fstype);
	return value;
}

#endif
