// SPDX-License-Identifier: GPL-2.0
/*
 * iflags - inode flags (chattr, lsattr) against tmpfs
 * (tests/guest/53-inode-flags.sh).
 *
 *	iflags WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs>, and
 * checks, each by name (see tap-ref.h for how results are compared with
 * tmpfs), through FS_IOC_GETFLAGS and FS_IOC_SETFLAGS:
 *
 *  each flag:   immutable, append-only, nodump and noatime set, read back
 *               (and all four as lsattr shows them, and the three statx()
 *               has attributes for as it shows them), cleared; ctime moves;
 *  immutable:   open for writing, truncate, unlink, rename, link, chmod,
 *               utimes, setxattr refused with EPERM; nothing created in an
 *               immutable directory; only root (CAP_LINUX_IMMUTABLE) may
 *               set it, the owner may set nodump, another user nothing;
 *  append-only: only O_APPEND writes, a pwrite() appends; no truncate, no
 *               O_TRUNC, no clearing O_APPEND with fcntl(), no unlink, no
 *               rename, no shared writable mapping; in an append-only
 *               directory, create but no unlink;
 *  noatime:     a read leaves atime alone, and moves it once cleared;
 *  unsupported: sync, compression and casefold refused with tmpfs's errno;
 *  inherited:   a new file, directory and O_TMPFILE take nodump and
 *               noatime from their directory, and not append-only.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "tap-files.h"

static const char *workdir;
static char mp[PATH_MAX];

/* The four as lsattr shows them: "i", "a", "d", "A" or "-" each. */
static const char *lsattr(const char *path, char *out)
{
	long f = getflags(path);

	if (f < 0)
		return strcpy(out, strerrorname_np(-f));
	snprintf(out, 8, "%c%c%c%c", f & FL_IMMUTABLE ? 'i' : '-',
		 f & FL_APPEND ? 'a' : '-', f & FL_NODUMP ? 'd' : '-',
		 f & FL_NOATIME ? 'A' : '-');
	return out;
}

static long open_flags(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static const char *contents(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, out, len - 1);

	if (n < 0)
		fatal(path);
	out[n] = 0;
	close(fd);
	return out;
}

static struct timespec ctime_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		fatal(path);
	return st.st_ctim;
}

static long atime_sec(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -errno : (long)st.st_atim.tv_sec;
}

/* Reads a byte of @path through a new descriptor. */
static void read_one(const char *path)
{
	int fd = open(path, O_RDONLY);
	char c;

	if (fd < 0 || read(fd, &c, 1) != 1)
		fatal(path);
	close(fd);
}

/* The three flags statx() has attributes for. */
#define STATX_FLAGS (STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND | STATX_ATTR_NODUMP)

/*
 * Those of the three statx() reports of @path; -EOPNOTSUPP if it does not
 * say it knows them (stx_attributes_mask); or statx()'s -errno.
 */
static long statx_flags(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx) < 0)
		return -errno;
	if ((stx.stx_attributes_mask & STATX_FLAGS) != STATX_FLAGS)
		return -EOPNOTSUPP;
	return stx.stx_attributes & STATX_FLAGS;
}

/* ---- the checks ---- */

static void check_each(void)
{
	static const struct {
		int flag;
		const char *name;
	} flags[] = {
		{ FL_IMMUTABLE, "immutable" }, { FL_APPEND, "append-only" },
		{ FL_NODUMP, "nodump" }, { FL_NOATIME, "noatime" },
	};
	const char *f = at(mp, "each"), *d = at(mp, "eachdir");
	struct timespec t0, t1;
	char name[112], got[16];

	if (new_file(f, "data"))
		fatal(f);
	if (mkdir(d, 0755) < 0)
		fatal(d);
	check("a new file has no flags", getflags(f), 0, R_HEX);
	check("a new directory has no flags", getflags(d), 0, R_HEX);
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		snprintf(name, sizeof(name), "set %s", flags[i].name);
		check(name, setflags(f, flags[i].flag), 0, 0);
		snprintf(name, sizeof(name), "%s reads back", flags[i].name);
		check(name, getflags(f), flags[i].flag, R_HEX);
		snprintf(name, sizeof(name), "clear %s", flags[i].name);
		check(name, setflags(f, 0) ?: getflags(f), 0, R_HEX);
		snprintf(name, sizeof(name), "set %s on a directory",
			 flags[i].name);
		check(name, setflags(d, flags[i].flag) ?: getflags(d),
		      flags[i].flag, R_HEX);
		check(strcat(name, ", cleared"), setflags(d, 0) ?: getflags(d),
		      0, R_HEX);
	}
	check("set all four", setflags(f, FL_IMMUTABLE | FL_APPEND |
				      FL_NODUMP | FL_NOATIME), 0, 0);
	check_str("lsattr shows all four", lsattr(f, got), "iadA");
	check("statx() shows immutable, append-only and nodump",
	      statx_flags(f), STATX_FLAGS, R_HEX);
	check("clear them", setflags(f, 0), 0, 0);
	check_str("lsattr shows none", lsattr(f, got), "----");
	check("statx() shows none", statx_flags(f), 0, R_HEX);
	t0 = ctime_of(f);
	usleep(20000);
	check("set nodump again", setflags(f, FL_NODUMP), 0, 0);
	t1 = ctime_of(f);
	check("... ctime moves", t1.tv_sec > t0.tv_sec ||
	      (t1.tv_sec == t0.tv_sec && t1.tv_nsec > t0.tv_nsec), 1, R_NUM);
	check("chown the file to uid 1001", sys(chown(f, 1001, 1001)),
	      0, 0);
	check("the owner may set nodump", tap_as_user(1001, setflags, f,
						   FL_NODUMP), 0, 0);
	check("the owner may not set immutable (CAP_LINUX_IMMUTABLE)",
	      tap_as_user(1001, setflags, f, FL_IMMUTABLE), -EPERM, 0);
	check("the owner may not set append-only",
	      tap_as_user(1001, setflags, f, FL_APPEND), -EPERM, 0);
	check("another user may set nothing",
	      tap_as_user(1002, setflags, f, 0), -EPERM, 0);
	check("... the flags are as they were", getflags(f), FL_NODUMP,
	      R_HEX);
}

static void check_immutable(void)
{
	const char *f = at(mp, "imm");
	char d[PATH_MAX];
	struct timespec now[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	char got[64];
	int fd;

	snprintf(d, sizeof(d), "%s", at(mp, "immdir"));
	if (new_file(f, "hello"))
		fatal(f);
	if (mkdir(d, 0755) < 0)
		fatal(d);
	check("set immutable on a file", setflags(f, FL_IMMUTABLE), 0, 0);
	check("immutable: open for writing is EPERM",
	      open_flags(f, O_WRONLY), -EPERM, 0);
	check("immutable: open for reading works", open_flags(f, O_RDONLY),
	      0, 0);
	check("immutable: truncate is EPERM", sys(truncate(f, 0)), -EPERM, 0);
	check("immutable: unlink is EPERM", sys(unlink(f)), -EPERM, 0);
	check("immutable: rename is EPERM", sys(rename(f, at(mp, "imm2"))),
	      -EPERM, 0);
	check("immutable: link is EPERM", sys(link(f, at(mp, "imm3"))),
	      -EPERM, 0);
	check("immutable: chmod is EPERM", sys(chmod(f, 0600)), -EPERM, 0);
	check("immutable: utimensat is EPERM",
	      sys(utimensat(AT_FDCWD, f, now, 0)), -EPERM, 0);
	check("immutable: setxattr is EPERM",
	      sys(setxattr(f, "user.a", "1", 1, 0)), -EPERM, 0);
	check_str("immutable: the data is intact", contents(f, got, 64),
		  "hello");
	check("immutable: clear it", setflags(f, 0), 0, 0);
	check("... then open for writing works", open_flags(f, O_WRONLY), 0,
	      0);
	check("immutable directory: set it", setflags(d, FL_IMMUTABLE), 0, 0);
	check("immutable directory: create is EPERM",
	      open_flags(at(d, "new"), O_CREAT | O_WRONLY), -EPERM, 0);
	check("immutable directory: mkdir is EPERM",
	      sys(mkdir(at(d, "sub"), 0755)), -EPERM, 0);
	check("immutable directory: clear it", setflags(d, 0), 0, 0);
	fd = open(at(d, "new"), O_CREAT | O_WRONLY, 0644);
	check("... then create works", fd < 0 ? -errno : 0, 0, 0);
	if (fd >= 0)
		close(fd);
}

static void check_append(void)
{
	const char *f = at(mp, "app");
	char d[PATH_MAX], got[64];
	void *map;
	long r;
	int fd;

	snprintf(d, sizeof(d), "%s", at(mp, "appdir"));
	if (new_file(f, "abc"))
		fatal(f);
	check("set append-only on a file", setflags(f, FL_APPEND), 0, 0);
	check("append-only: open for writing without O_APPEND is EPERM",
	      open_flags(f, O_WRONLY), -EPERM, 0);
	fd = open(f, O_WRONLY | O_APPEND);
	check("append-only: open with O_APPEND works", fd < 0 ? -errno : 0, 0,
	      0);
	if (fd < 0)
		fatal(f);
	check("append-only: write", sys(write(fd, "def", 3)), 3, R_NUM);
	check("append-only: pwrite() at 0", sys(pwrite(fd, "X", 1, 0)), 1,
	      R_NUM);
	check_str("append-only: both went to the end", contents(f, got, 64),
		  "abcdefX");
	check("append-only: fcntl() may not clear O_APPEND",
	      sys(fcntl(fd, F_SETFL, 0)), -EPERM, 0);
	close(fd);
	check("append-only: truncate is EPERM", sys(truncate(f, 0)), -EPERM, 0);
	check("append-only: O_TRUNC is EPERM",
	      open_flags(f, O_WRONLY | O_APPEND | O_TRUNC), -EPERM, 0);
	check("append-only: unlink is EPERM", sys(unlink(f)), -EPERM, 0);
	check("append-only: rename is EPERM", sys(rename(f, at(mp, "app2"))),
	      -EPERM, 0);
	fd = open(f, O_RDWR | O_APPEND);
	if (fd < 0)
		fatal(f);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	r = map == MAP_FAILED ? -errno : 0;
	if (map != MAP_FAILED)
		munmap(map, 4096);
	close(fd);
	check("append-only: a shared writable mapping is refused", r, -EACCES,
	      0);
	check("append-only: clear it", setflags(f, 0), 0, 0);
	check("... then truncate works", sys(truncate(f, 1)), 0, 0);

	if (mkdir(d, 0755) < 0)
		fatal(d);
	if (new_file(at(d, "old"), "x"))
		fatal("old");
	check("append-only directory: set it", setflags(d, FL_APPEND), 0, 0);
	check("append-only directory: create works",
	      open_flags(at(d, "new"), O_CREAT | O_WRONLY), 0, 0);
	check("append-only directory: unlink is EPERM",
	      sys(unlink(at(d, "old"))), -EPERM, 0);
	check("... the new file does not inherit it", getflags(at(d, "new")),
	      0, R_HEX);
	check("append-only directory: clear it", setflags(d, 0), 0, 0);
	check("... then unlink works", sys(unlink(at(d, "old"))), 0, 0);
}

static void check_noatime(void)
{
	const char *f = at(mp, "noat");
	struct timespec old[2] = { { 1000, 0 }, { 0, UTIME_OMIT } };

	if (new_file(f, "data"))
		fatal(f);
	if (utimensat(AT_FDCWD, f, old, 0) < 0)
		fatal("utimensat");
	check("noatime: set it", setflags(f, FL_NOATIME), 0, 0);
	read_one(f);
	check("noatime: a read leaves atime alone", atime_sec(f), 1000,
	      R_NUM);
	check("noatime: clear it", setflags(f, 0), 0, 0);
	read_one(f);
	check("... then a read moves atime (relatime: atime before mtime)",
	      atime_sec(f) != 1000, 1, R_NUM);
}

static void check_unsupported(void)
{
	const char *f = at(mp, "uns"), *d = at(mp, "unsdir");

	if (new_file(f, "x"))
		fatal(f);
	if (mkdir(d, 0755) < 0)
		fatal(d);
	check("sync (S) is refused", setflags(f, FL_SYNC), -EOPNOTSUPP, 0);
	check("compression (c) is refused", setflags(f, FL_COMPR), -EOPNOTSUPP,
	      0);
	check("casefold on an empty directory is refused",
	      setflags(d, FL_CASEFOLD), -EOPNOTSUPP, 0);
	check("nodump with sync is refused whole",
	      setflags(f, FL_NODUMP | FL_SYNC), -EOPNOTSUPP, 0);
	check("... nothing was set", getflags(f), 0, R_HEX);
}

static void check_inherited(void)
{
	char d[PATH_MAX], sub[PATH_MAX];
	struct stat st;
	long r;
	int fd, flags;

	/* Copies: at() would otherwise be handed its own buffers. */
	snprintf(d, sizeof(d), "%s", at(mp, "inh"));
	snprintf(sub, sizeof(sub), "%s", at(d, "sub"));

	if (mkdir(d, 0755) < 0)
		fatal(d);
	check("set nodump and noatime on a directory",
	      setflags(d, FL_NODUMP | FL_NOATIME), 0, 0);
	if (new_file(at(d, "f"), "x"))
		fatal("f");
	check("a new file inherits nodump and noatime", getflags(at(d, "f")),
	      FL_NODUMP | FL_NOATIME, R_HEX);
	if (mkdir(sub, 0755) < 0)
		fatal("mkdir");
	check("a new directory inherits them", getflags(sub),
	      FL_NODUMP | FL_NOATIME, R_HEX);
	if (new_file(at(sub, "g"), "x"))
		fatal("g");
	check("... and passes them on", getflags(at(sub, "g")),
	      FL_NODUMP | FL_NOATIME, R_HEX);
	fd = open(d, O_TMPFILE | O_RDWR, 0644);
	if (fd < 0)
		fatal("O_TMPFILE");
	r = sys(ioctl(fd, GETFLAGS, &flags));
	check("an O_TMPFILE inherits them", r < 0 ? r : flags,
	      FL_NODUMP | FL_NOATIME, R_HEX);
	close(fd);
	if (symlink("f", at(d, "l")) < 0 || lstat(at(d, "l"), &st) < 0)
		fatal("symlink");
	check("set append-only too", setflags(d, FL_NODUMP | FL_APPEND), 0, 0);
	if (new_file(at(d, "h"), "x"))
		fatal("h");
	check("append-only is not inherited", getflags(at(d, "h")), FL_NODUMP,
	      R_HEX);
	check("clear the directory's", setflags(d, 0), 0, 0);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: iflags WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		tap_mount(mp, workdir, "", "mode=0755");
		check_each();
		check_immutable();
		check_append();
		check_noatime();
		check_unsupported();
		check_inherited();
		if (umount(mp) < 0)
			fatal(mp);
	}
	return tap_finish("iflags");
}
