// SPDX-License-Identifier: GPL-2.0
/*
 * casefold - case-insensitive directories against tmpfs
 * (tests/guest/54-casefold.sh).
 *
 *	casefold WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs>, and
 * checks, each by name (see tap-ref.h for how results are compared with
 * tmpfs):
 *
 *  options:  casefold, casefold=utf8-12.1.0 and strict_encoding are taken
 *            where this kernel's tmpfs has casefold (6.13 on) and refused
 *            with EINVAL where it has not; an unknown encoding or version
 *            and strict_encoding alone are refused; casefold twice is
 *            refused by ours (7.3's tmpfs refuses it, 7.2's takes it);
 *  the flag: chattr +F on an empty directory, not on a file (ENOTDIR) or
 *            a directory with entries (ENOTEMPTY); -F only while empty;
 *            inherited by new files and directories (iflags.c checks that
 *            a mount without an encoding refuses it);
 *  lookups:  a name found in any case and in another Unicode normal form,
 *            kept as created; O_EXCL in another case is EEXIST; after an
 *            unlink or rmdir, a name of another case is not found and is
 *            created as given (no stale dentry answers for it); a rename
 *            to the same name in another case keeps the old one;
 *  strict:   in a casefolded directory of a strict_encoding mount, a name
 *            that is not UTF-8 is refused (EINVAL) and elsewhere taken.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on,
 * 4 if this kernel's tmpfs has no casefold and every other check skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap-files.h"

#define NO_CASEFOLD	"no casefold in this kernel's tmpfs (6.13 on)"

static const char *workdir;
static char mp[PATH_MAX];
/* The casefolded directory: a copy, since at() must not be handed its own. */
static char ci[PATH_MAX];

/* Sets casefold on @path (@on) or clears it: 0 or -errno. */
static long casefold(const char *path, bool on)
{
	long flags = getflags(path);

	if (flags < 0)
		return flags;
	return setflags(path, on ? flags | FL_CASEFOLD : flags & ~FL_CASEFOLD);
}

/* @a and @b both name the same inode. */
static bool same_file(const char *a, const char *b)
{
	long ia = ino_of(a);

	return ia > 0 && ia == ino_of(b);
}

/* The names in @dir but . and .., sorted, comma-separated. */
static const char *names(const char *dir, char *out, size_t size)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	size_t len = 0;

	out[0] = 0;
	if (n < 0)
		fatal(dir);
	for (int i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
			len += snprintf(out + len, len < size ? size - len : 0,
					"%s%s", len ? "," : "", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return out;
}

/* mount(2) of the type under test at a fresh mount point: 0 or -errno. */
static long try_mount(const char *suffix, const char *opts)
{
	char path[PATH_MAX];
	long r;

	snprintf(path, sizeof(path), "%s/%s%s", workdir, cur_fs, suffix);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		fatal(path);
	r = sys(mount("none", path, cur_fs, 0, opts));
	if (!r && umount(path) < 0)
		fatal(path);
	return r;
}

static void check_options(bool have)
{
	long want = have ? 0 : -EINVAL;

	check("casefold is taken where tmpfs has it",
	      try_mount("-o", "casefold"), want, 0);
	check("casefold=utf8-12.1.0 is taken where tmpfs has it",
	      try_mount("-o", "casefold=utf8-12.1.0"), want, 0);
	check("casefold,strict_encoding is taken where tmpfs has it",
	      try_mount("-o", "casefold,strict_encoding"), want, 0);
	check("casefold=latin1 is refused",
	      try_mount("-o", "casefold=latin1"), -EINVAL, 0);
	check("casefold=utf8-99.0.0 is refused",
	      try_mount("-o", "casefold=utf8-99.0.0"), -EINVAL, 0);
	/* Ours alone: 7.2's tmpfs takes it, loading the encoding twice. */
	if (!is_tmpfs)
		check("casefold given twice is refused",
		      try_mount("-o", "casefold,casefold"), -EINVAL, R_NOREF);
	check("strict_encoding without casefold is refused",
	      try_mount("-o", "strict_encoding"), -EINVAL, 0);
}

static void check_flag(void)
{
	const char *full = at(mp, "full"), *file = at(mp, "file");
	char list[256];

	snprintf(ci, sizeof(ci), "%s", at(mp, "ci"));
	if (mkdir(ci, 0755) < 0 || mkdir(full, 0755) < 0 ||
	    new_file(at(mp, "full/x"), NULL) < 0 || new_file(file, NULL) < 0)
		fatal("setting up");
	check("the root directory is not casefolded",
	      getflags(mp) & FL_CASEFOLD, 0, R_HEX);
	check("chattr +F on a file is ENOTDIR", casefold(file, true), -ENOTDIR,
	      0);
	check("chattr +F on a directory with entries is ENOTEMPTY",
	      casefold(full, true), -ENOTEMPTY, 0);
	check("chattr +F on an empty directory", casefold(ci, true), 0, 0);
	check("... lsattr shows F on it", getflags(ci) & FL_CASEFOLD,
	      FL_CASEFOLD, R_HEX);
	check("chattr -F on it while empty", casefold(ci, false), 0, 0);
	check("chattr +F again", casefold(ci, true), 0, 0);
	if (new_file(at(ci, "Keep"), NULL) < 0)
		fatal("Keep");
	check("chattr -F with an entry is ENOTEMPTY", casefold(ci, false),
	      -ENOTEMPTY, 0);

	check("a new file inherits F", new_file(at(ci, "NewFile"), NULL), 0,
	      0);
	check("... lsattr shows F on the file",
	      getflags(at(ci, "NewFile")) & FL_CASEFOLD, FL_CASEFOLD, R_HEX);
	check("a new directory inherits F", sys(mkdir(at(ci, "NewDir"), 0755)),
	      0, 0);
	check("... lsattr shows F on the directory",
	      getflags(at(ci, "NewDir")) & FL_CASEFOLD, FL_CASEFOLD, R_HEX);
	check_str("readdir keeps each name as created",
		  names(ci, list, sizeof(list)), "Keep,NewDir,NewFile");
}

static void check_lookups(void)
{
	char list[256];

	check("a name is found in another case",
	      same_file(at(ci, "keep"), at(ci, "Keep")) &&
	      same_file(at(ci, "KEEP"), at(ci, "Keep")),
	      1, 0);
	check("O_EXCL in another case is EEXIST",
	      new_file(at(ci, "KEEP"), NULL), -EEXIST, 0);
	check("a plain directory is still case-sensitive",
	      new_file(at(mp, "full/X"), NULL), 0, 0);

	/* U+00E9 composed, U+00C9 composed, e + U+0301 decomposed */
	check("caf\\u00e9 is created", new_file(at(ci, "caf\xc3\xa9"), NULL),
	      0, 0);
	check("... found as CAF\\u00c9",
	      same_file(at(ci, "CAF\xc3\x89"), at(ci, "caf\xc3\xa9")), 1, 0);
	check("... found decomposed",
	      same_file(at(ci, "cafe\xcc\x81"), at(ci, "caf\xc3\xa9")), 1, 0);
	check("a name that is not UTF-8 is taken without strict_encoding",
	      new_file(at(ci, "bad\xff"), NULL), 0, 0);
	check("... and found as given", ino_of(at(ci, "bad\xff")) > 0, 1, 0);

	/* Each removal, then the name in another case: not there, then new. */
	check("unlink through another case", sys(unlink(at(ci, "NEWFILE"))), 0,
	      0);
	check("... the file's name in a third case is gone",
	      sys(access(at(ci, "newfile"), F_OK)), -ENOENT, 0);
	check("... created in that case", new_file(at(ci, "newfile"), NULL), 0,
	      0);
	check("rmdir through another case", sys(rmdir(at(ci, "newdir"))), 0,
	      0);
	check("... the directory's name in a third case is gone",
	      sys(access(at(ci, "NewDIR"), F_OK)), -ENOENT, 0);
	check("... made in that case", sys(mkdir(at(ci, "NewDIR"), 0755)), 0,
	      0);
	/* The same dentry: the VFS has nothing to do, and keeps the name. */
	check("rename to another case of the same name",
	      sys(rename(at(ci, "Keep"), at(ci, "KEEP"))), 0, 0);
	check_str("readdir shows names as created, the renamed one unchanged",
		  names(ci, list, sizeof(list)),
		  "Keep,NewDIR,bad\xff,caf\xc3\xa9,newfile");
}

static void check_strict(void)
{
	char smp[PATH_MAX];

	tap_mount(smp, workdir, "-strict", "casefold,strict_encoding");
	snprintf(ci, sizeof(ci), "%s", at(smp, "ci"));
	if (mkdir(ci, 0755) < 0 || casefold(ci, true) < 0)
		fatal("setting up a casefolded directory");
	check("strict: a file named in UTF-8 is created",
	      new_file(at(ci, "caf\xc3\xa9"), NULL), 0, 0);
	check("strict: a file not named in UTF-8 is EINVAL",
	      new_file(at(ci, "bad\xff"), NULL), -EINVAL, 0);
	check("strict: so is a directory", sys(mkdir(at(ci, "bad\xfe"), 0755)),
	      -EINVAL, 0);
	check("strict: outside a casefolded directory it is taken",
	      new_file(at(smp, "bad\xff"), NULL), 0, 0);
	if (umount(smp) < 0)
		fatal(smp);
}

int main(int argc, char **argv)
{
	static const char *const rest[] = {
		"the flag and its rules", "lookups in any case",
		"strict_encoding",
	};
	bool have = !access("/sys/fs/tmpfs/features/casefold", F_OK);

	if (argc < 3) {
		fprintf(stderr, "usage: casefold WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		check_options(have);
		if (!have) {
			for (size_t i = 0; i < ARRAY_SIZE(rest); i++)
				skip_check(rest[i], NO_CASEFOLD);
			continue;
		}
		tap_mount(mp, workdir, "", "casefold");
		check_flag();
		check_lookups();
		if (umount(mp) < 0)
			fatal(mp);
		check_strict();
	}
	return tap_finish("casefold");
}
