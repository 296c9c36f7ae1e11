/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbered checks against tmpfs, for interop.c and overlay.c: every check
 * prints one line,
 *
 *	ok 12 embedfs_demo: RENAME_WHITEOUT leaves a 0/0 char device
 *	not ok 13 voidfs_demo: ...: got EINVAL, want success, tmpfs gave success
 *	ok 14 unionfs_demo: ... # SKIP no function tracer on this kernel
 *
 * A program runs its checks on tmpfs first, which records each result by
 * the check's name; on each of ours a result must equal both the written
 * expectation and what tmpfs gave (unless the check says R_NOREF: a
 * documented difference, or a check of ours alone), so that the two cannot
 * agree on a wrong answer. A check that needs what this kernel lacks is
 * skipped with the reason, never passed.
 *
 * tap_next_fs() walks the filesystems in that order. tap_finish() ends
 * the program: status 1 if a check failed; else, if every check was
 * skipped, the reasons go to $IPAT_SKIP_FILE and the status is 4,
 * KSFT_SKIP (the guest test is then reported skipped, with the reason);
 * else 0, the skipped checks and their reasons shown in the output and its
 * summary.
 */
#ifndef TAP_REF_H
#define TAP_REF_H

#include <errno.h>
#include <limits.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KSFT_SKIP	4	/* kselftest's exit status of a skipped test */

enum {
	R_NOREF = 1,	/* not compared with tmpfs */
	R_NUM = 2,	/* a number (a count, an id), or -errno */
	R_OCT = 4,	/* a mode, or -errno */
	R_HEX = 8,	/* a number shown in hex, or -errno */
	R_SIGNED = 16,	/* a number that may be negative: never an errno */
};

static const char *cur_fs = "?";
static bool is_tmpfs;
static int ntap, nfail, nskip;
static char skip_reasons[512];

#define TAP_MAX_REF 256
static struct {
	char what[112];
	long got;
	char str[64];
} tap_ref[TAP_MAX_REF];
static int tap_nref;

static inline int tap_lookup(const char *what)
{
	for (int i = 0; i < tap_nref; i++)
		if (!strcmp(tap_ref[i].what, what))
			return i;
	return -1;
}

/* Results are values, or -errno; 0 alone is "success". */
static inline const char *tap_show(long v, unsigned int flags, char *buf,
			    size_t len)
{
	const char *name;

	if (flags & R_SIGNED) {
		snprintf(buf, len, "%ld", v);
	} else if (v < 0) {
		name = strerrorname_np(-v);
		snprintf(buf, len, "%s", name ? name : "an unknown error");
	} else if (flags & R_OCT) {
		snprintf(buf, len, "0%lo", v);
	} else if (flags & R_HEX) {
		snprintf(buf, len, "0x%lx", v);
	} else if (flags & R_NUM) {
		snprintf(buf, len, "%ld", v);
	} else {
		snprintf(buf, len, v ? "%ld" : "success", v);
	}
	return buf;
}

/* On tmpfs, keep what it gave under @what; return its index. */
static inline int tap_record(const char *what)
{
	if (tap_nref == TAP_MAX_REF || tap_lookup(what) >= 0 ||
	    strlen(what) >= sizeof(tap_ref[0].what)) {
		/* names are keys: a repeated or cut one is a bug here */
		fprintf(stderr, "'%s' is not a unique key\n", what);
		exit(2);
	}
	snprintf(tap_ref[tap_nref].what, sizeof(tap_ref[0].what), "%s", what);
	return tap_nref++;
}

static inline bool tap_line(bool ok, const char *what)
{
	ntap++;
	if (!ok)
		nfail++;
	printf("%s %d %s: %s", ok ? "ok" : "not ok", ntap, cur_fs, what);
	return ok;
}

/* A number or -errno; true if the check passed. */
static inline bool check(const char *what, long got, long want, unsigned int flags)
{
	char b1[32], b2[32], b3[32];
	int r = -1;
	bool ok;

	if (is_tmpfs && !(flags & R_NOREF))
		tap_ref[r = tap_record(what)].got = got;
	else if (!(flags & R_NOREF))
		r = tap_lookup(what);
	ok = got == want && (is_tmpfs || (flags & R_NOREF) ||
			     (r >= 0 && tap_ref[r].got == got));
	if (tap_line(ok, what)) {
		printf("\n");
		return true;
	}
	printf(": got %s, want %s", tap_show(got, flags, b1, 32),
	       tap_show(want, flags, b2, 32));
	if (!is_tmpfs && !(flags & R_NOREF))
		printf(", tmpfs gave %s", r < 0 ? "nothing (never ran it)" :
		       tap_show(tap_ref[r].got, flags, b3, 32));
	printf("\n");
	return false;
}

/* A short string (a value read back, a list of names). */
static inline bool check_str(const char *what, const char *got, const char *want)
{
	int r = -1;
	bool ok;

	if (is_tmpfs) {
		r = tap_record(what);
		snprintf(tap_ref[r].str, sizeof(tap_ref[0].str), "%s", got);
	} else {
		r = tap_lookup(what);
	}
	ok = !strcmp(got, want) &&
	     (is_tmpfs || (r >= 0 && !strcmp(tap_ref[r].str, got)));
	if (tap_line(ok, what)) {
		printf("\n");
		return true;
	}
	printf(": got '%s', want '%s'", got, want);
	if (!is_tmpfs)
		printf(", tmpfs gave %s%s%s", r < 0 ? "nothing" : "'",
		       r < 0 ? "" : tap_ref[r].str, r < 0 ? "" : "'");
	printf("\n");
	return false;
}

/* A check this kernel cannot run: said, counted, never passed. */
static inline void skip_check(const char *what, const char *reason)
{
	ntap++;
	nskip++;
	printf("ok %d %s: %s # SKIP %s\n", ntap, cur_fs, what, reason);
	if (!strstr(skip_reasons, reason))
		snprintf(skip_reasons + strlen(skip_reasons),
			 sizeof(skip_reasons) - strlen(skip_reasons), "%s%s",
			 skip_reasons[0] ? "; " : "", reason);
}

/* The -errno of a call that returns -1 on failure, else its value. */
static inline long sys(long ret)
{
	return ret < 0 ? -errno : ret;
}

/* The test cannot go on: not a failed check (exit 2). */
static inline void __attribute__((noreturn)) fatal(const char *what)
{
	printf("not ok %d %s: cannot go on: %s: %s\n", ++ntap, cur_fs, what,
	       strerror(errno));
	exit(2);
}

/* DIR/NAME, in one of eight buffers used in turn: several per call. */
static inline const char *at(const char *dir, const char *name)
{
	static char ring[8][PATH_MAX];
	static unsigned int n;
	char *buf = ring[n++ % 8];
	int len = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	if (len < 0 || len >= PATH_MAX)
		fatal("path too long");
	return buf;
}

/*
 * tap_next_fs() - the next filesystem to check, for a program called as
 * "PROG WORKDIR FSTYPE...": tmpfs first, whose results the others are
 * compared with, then each FSTYPE but tmpfs. Sets cur_fs and is_tmpfs;
 * false when there is none left.
 */
static inline bool tap_next_fs(int argc, char **argv)
{
	static int i;

	while (++i < argc) {
		cur_fs = i == 1 ? "tmpfs" : argv[i];
		is_tmpfs = i == 1;
		if (is_tmpfs || strcmp(cur_fs, "tmpfs"))
			return true;
	}
	return false;
}

/* Mounts the filesystem under test at @path = @workdir/<fs>@suffix. */
static inline void tap_mount(char *path, const char *workdir,
			     const char *suffix, const char *opts)
{
	snprintf(path, PATH_MAX, "%s/%s%s", workdir, cur_fs, suffix);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		fatal(path);
	if (mount("none", path, cur_fs, 0, opts) < 0)
		fatal(path);
}

/*
 * What @fn(@path, @arg) gives when run by uid and gid @who, with no other
 * groups, in a child: 0 or -errno.
 */
static inline long tap_as_user(uid_t who, long (*fn)(const char *, int),
			       const char *path, int arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		fatal("fork");
	if (!pid) {
		long r;

		if (setgroups(0, NULL) < 0 || setresgid(who, who, who) < 0 ||
		    setresuid(who, who, who) < 0)
			_exit(255);
		r = fn(path, arg);
		_exit(r < 0 ? -r : 0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		fatal("waitpid");
	if (WEXITSTATUS(status) == 255)
		fatal("setresuid");
	return -WEXITSTATUS(status);
}

static inline int tap_finish(const char *prog)
{
	const char *file = getenv("IPAT_SKIP_FILE");
	FILE *f;

	printf("%s: %d checks, %d failed, %d skipped\n", prog, ntap, nfail,
	       nskip);
	if (nfail)
		return 1;
	if (nskip)
		printf("%s: skipped: %s\n", prog, skip_reasons);
	if (nskip < ntap)
		return 0;
	if (file) {
		f = fopen(file, "w");
		if (f) {
			fprintf(f, "%d of %d checks skipped (%s); the other %d passed\n",
				nskip, ntap, skip_reasons, ntap - nskip);
			fclose(f);
		}
	}
	return KSFT_SKIP;
}

#endif
