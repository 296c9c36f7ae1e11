/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks against tmpfs, the reference, for badinput, limits.c and perms.c:
 * each program runs its table on tmpfs first, which records every result
 * by the check's name, and then on each of ours, where a result must equal
 * both the expectation written in the table and what tmpfs gave, so that
 * the two cannot agree on a wrong answer. Its state is static: in a
 * program of several files, one file includes it (badinput/main.c).
 *
 * tmpfs_ref_main() is their main(): it sets cur_fs and is_tmpfs before
 * each filesystem's run and reports npass and nfail at the end.
 */
#ifndef TMPFS_REF_H
#define TMPFS_REF_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ipat-stats.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum {
	F_NOREF = 1,	/* not run on tmpfs, not compared with it */
	F_NUM = 2,	/* result is a number (a count, an id), not an errno */
	F_OCT = 4,	/* result is a mode */
};

static const char *workdir;	/* where the mount points are made */
static const char *cur_fs;
static bool is_tmpfs;
static int npass, nfail;

/* ---- results, and what tmpfs said for the same check ---- */

#define MAX_REF 512
static struct {
	char what[96];
	int got;
} ref[MAX_REF];
static int nref;

static const int *ref_lookup(const char *what)
{
	for (int i = 0; i < nref; i++)
		if (!strcmp(ref[i].what, what))
			return &ref[i].got;
	return NULL;
}

static const char *show(int v, unsigned int flags, char *buf, size_t len)
{
	const char *name;

	/* ids and modes come back as -errno when the call failed */
	if ((flags & (F_NUM | F_OCT)) && v >= 0) {
		snprintf(buf, len, flags & F_OCT ? "0%o" : "%d", v);
		return buf;
	}
	if (!v)
		return "success";
	if (v < 0 && v != INT_MIN)
		v = -v;
	name = v > 0 ? strerrorname_np(v) : NULL;
	if (!name) {
		snprintf(buf, len, "error %d", v);
		return buf;
	}
	return name;
}

/*
 * Record one check. On tmpfs the result is kept; on the others it must
 * equal both the written-down expectation and what tmpfs gave.
 */
static bool check(const char *what, int got, int want, unsigned int flags)
{
	const int *r = NULL;
	char b1[32], b2[32], b3[32];
	bool ok;

	if (is_tmpfs) {
		/* names are keys: a repeated or cut one is a bug here */
		if (nref == MAX_REF || ref_lookup(what) ||
		    strlen(what) >= sizeof(ref[0].what)) {
			fprintf(stderr, "%s: '%s' is not a unique key\n",
				program_invocation_short_name, what);
			exit(2);
		}
		snprintf(ref[nref].what, sizeof(ref[nref].what), "%s", what);
		ref[nref++].got = got;
	} else if (!(flags & F_NOREF)) {
		r = ref_lookup(what);
	}
	/* a check tmpfs never reached cannot be compared: a failure */
	ok = got == want &&
	     (is_tmpfs || (flags & F_NOREF) || (r && *r == got));
	if (ok) {
		npass++;
		printf("ok   %s: %s\n", cur_fs, what);
		return true;
	}
	nfail++;
	printf("FAIL %s: %s: got %s, want %s", cur_fs, what,
	       show(got, flags, b1, sizeof(b1)),
	       show(want, flags, b2, sizeof(b2)));
	if (r)
		printf(", tmpfs gave %s", show(*r, flags, b3, sizeof(b3)));
	else if (!is_tmpfs && !(flags & F_NOREF))
		printf(", tmpfs gave nothing");
	printf("\n");
	return false;
}

/* The errno of a call that returns -1 on failure, else 0. */
static int err_of(int ret)
{
	return ret < 0 ? errno : 0;
}

/* Not a failed check: the test itself cannot go on (exit 2). */
static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(2);
}

/* ---- the statistics file of our filesystems ---- */

/* The type-wide figure @key of cur_fs, or -1 (tmpfs has none). */
static inline long fs_stat(const char *key)
{
	return ipat_stat(cur_fs, key);
}

static inline long live_inodes(void)
{
	return fs_stat("inodes_live");
}

static inline void check_live(const char *what, long want)
{
	if (!is_tmpfs)
		check(what, (int)live_inodes(), (int)want, F_NOREF | F_NUM);
}

/* ---- main ---- */

/*
 * PROG WORKDIR FSTYPE...: @rows runs on the mount point WORKDIR/<fs>, made
 * if need be, first for tmpfs, the reference, then for each FSTYPE; then
 * the closing line "PROG: N passed, N failed". Returns main()'s status.
 */
static int tmpfs_ref_main(int argc, char **argv, const char *prog,
			  void (*rows)(const char *mp))
{
	char mp[PATH_MAX];

	if (argc < 3) {
		fprintf(stderr, "usage: %s WORKDIR FSTYPE...\n", prog);
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *fs = i == 1 ? "tmpfs" : argv[i];

		if (i > 1 && !strcmp(fs, "tmpfs"))
			continue;
		cur_fs = fs;
		is_tmpfs = !strcmp(fs, "tmpfs");
		snprintf(mp, sizeof(mp), "%s/%s", workdir, fs);
		if (mkdir(mp, 0755) < 0 && errno != EEXIST)
			die(mp);
		rows(mp);
	}
	printf("%s: %d passed, %d failed\n", prog, npass, nfail);
	return nfail ? 1 : 0;
}

#endif
