// SPDX-License-Identifier: GPL-2.0
/*
 * hammer - several processes at once on the same directories, then a check
 * that the tree and the filesystem's counters still agree.
 *
 *	hammer [-w WORKERS] [-n OPS] [-s SEED] [-k KEEP] [-t FSTYPE] DIR
 *
 * Makes a few shared directories in DIR (which should be the root of a
 * mount of its own) and forks WORKERS processes (default 4). Each does OPS
 * (default 5000) seeded random operations on a small shared namespace:
 * create, unlink, rename (plain, RENAME_NOREPLACE, RENAME_EXCHANGE), link,
 * symlink, mkdir, rmdir, readdir, stat/statx, setxattr, getxattr,
 * listxattr, removexattr (user.* and trusted.*; only trusted.* without -t,
 * as tmpfs on 6.1 has no user.*), O_TMPFILE, and open-unlink-write-close.
 * Errors that a race makes legitimate (ENOENT, EEXIST, ENOTEMPTY, ...) are
 * counted; any other error, or file data or an xattr value that is not one
 * some worker wrote, fails the run at once.
 *
 * Then each worker opens KEEP (default 3) files, gives them data and an
 * xattr, unlinks them, and holds them open while the parent walks DIR:
 *
 *  - every directory's link count is 2 + its subdirectories;
 *  - every other inode's link count is the number of names it has;
 *  - no directory has two names;
 *  - with -t, inodes_live in /proc/fs/inode_patterns/FSTYPE equals the
 *    distinct inodes found plus the WORKERS * KEEP open-but-unlinked
 *    files, and statfs()'s used inodes (f_files - f_ffree) that plus one
 *    for every name of a file beyond its first (a hard link takes an
 *    inode slot, as on tmpfs).
 *
 * The workers then check their unlinked files' data, xattr and birth time,
 * close them and exit; the walk is repeated and the counts must now match
 * without the unlinked files, and with -t the inode objects must follow
 * within two seconds (they are freed an RCU grace period after eviction).
 * Last, DIR is emptied and only its root inode may be left.
 *
 * With -t, DIR must be the only mount of FSTYPE: inodes_live counts all.
 * Without it (tmpfs, the reference on the host) the counts are printed but
 * not compared: tmpfs since 6.6 charges xattrs to its inode space.
 * Prints a closing "hammer: ... ok" line; exits 1 on the first failure.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "ipat-test.h"
#include "splitmix64.h"

#define NDIRS		3	/* shared top-level directories d0.. */
#define NNAMES		16	/* names n0.. used at every level */
#define MAXKEEP		64
#define DATA_MAX	3000	/* file data, under a page */
#define XVAL_MAX	200

static const char *prog = "hammer";	/* "hammer[w2]" in a worker */
static int nworkers = 4, nkeep = 3;
static long nops = 5000;
static uint64_t seed;
static const char *fstype;
static int rootfd;	/* DIR, also the current directory */

/* One state per worker. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	return splitmix64(&rng_state);
}

static unsigned int below(unsigned int n)
{
	return rnd() % n;
}

/*
 * ---- self-checking contents ----
 *
 * Data and xattr values are a function of a 32-bit tag written at their
 * start, so whatever a reader gets (a whole value, or a prefix of file data
 * read while it is written) can be checked without knowing who wrote it.
 */
static uint8_t pattern(uint32_t tag, size_t i)
{
	return (uint8_t)((tag >> (i % 4 * 8)) + i * 31);
}

static size_t fill(uint8_t *buf, size_t max)
{
	uint32_t tag = (uint32_t)rnd(), len = 8 + below(max - 8), i;

	/* The header: the tag, then the whole length. */
	memcpy(buf, &tag, 4);
	memcpy(buf + 4, &len, 4);
	for (i = 8; i < len; i++)
		buf[i] = pattern(tag, i);
	return len;
}

/* Is buf[0..len) a prefix of something fill() made? */
static bool valid(const uint8_t *buf, size_t len, bool whole)
{
	uint32_t tag, want;
	size_t i;

	if (len < 8)
		return !whole;
	memcpy(&tag, buf, 4);
	memcpy(&want, buf + 4, 4);
	if (want < 8 || len > want || (whole && len != want))
		return false;
	for (i = 8; i < len; i++)
		if (buf[i] != pattern(tag, i))
			return false;
	return true;
}

/*
 * ---- the workers' operations ----
 *
 * A path is dK/nA or dK/nA/nB (a third of the time), relative to DIR. What
 * is there at any moment depends on the other workers, so most failures
 * are legitimate; these are the ones a race can explain.
 */
static bool expected(int err)
{
	switch (err) {
	case ENOENT:	/* someone removed it, or a parent */
	case EEXIST:	/* someone created it */
	case ENOTEMPTY:	/* rmdir or rename over a full directory */
	case EISDIR:	/* a file op on a directory */
	case ENOTDIR:	/* a directory op on a file, or a file as parent */
	case EPERM:	/* link() of a directory, user.* on a symlink */
	case EINVAL:	/* rename of a directory into its own subtree */
	case ENODATA:	/* no such xattr */
	case ELOOP:	/* O_NOFOLLOW met a symlink */
		return true;
	}
	return false;
}

static void rand_path(char *buf, size_t size)
{
	int len = snprintf(buf, size, "d%u/n%u", below(NDIRS), below(NNAMES));

	if (!below(3))
		snprintf(buf + len, size - len, "/n%u", below(NNAMES));
}

static void write_data(int fd, const char *path)
{
	uint8_t buf[DATA_MAX];
	size_t len = fill(buf, sizeof(buf));

	/* One write() is atomic against other writers: inode_lock. */
	CHECK_SYS(write(fd, buf, len) == (ssize_t)len, "write %s", path);
}

/* Whatever a regular file holds must be (a prefix of) what fill() made. */
static void check_data(int fd, const char *path)
{
	uint8_t buf[DATA_MAX];
	struct stat st;
	ssize_t len;

	CHECK_SYS(!fstat(fd, &st), "fstat %s", path);
	if (!S_ISREG(st.st_mode))
		return;
	len = pread(fd, buf, sizeof(buf), 0);
	CHECK_SYS(len >= 0, "read %s", path);
	CHECK(valid(buf, len, false), "%s: read %zd bytes that no one wrote",
	      path, len);
}

static long counts[2];	/* this worker's successes and expected errors */

/* Count a result; fail on an error no race explains. */
static bool result(long ret, const char *op, const char *a, const char *b)
{
	if (ret >= 0) {
		counts[0]++;
		return true;
	}
	CHECK_SYS(expected(errno), "%s(%s%s%s)", op, a, b ? ", " : "", b ? b : "");
	counts[1]++;
	return false;
}

static void op_create(const char *p)
{
	int fd = openat(rootfd, p, O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (result(fd, "create", p, NULL)) {
		write_data(fd, p);
		close(fd);
	}
}

static void op_read(const char *p)
{
	int fd = openat(rootfd, p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);

	if (!result(fd, "open", p, NULL))
		return;
	check_data(fd, p);
	close(fd);
}

static void op_rename(const char *p, const char *q)
{
	static const unsigned int flags[] = {
		0, 0, RENAME_NOREPLACE, RENAME_EXCHANGE
	};
	unsigned int f = flags[below(4)];

	result(syscall(SYS_renameat2, rootfd, p, rootfd, q, f),
	       f == RENAME_EXCHANGE ? "exchange" :
	       f ? "rename_noreplace" : "rename", p, q);
}

static void op_readdir(const char *p)
{
	int fd = openat(rootfd, p, O_RDONLY | O_DIRECTORY);
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (!result(fd, "opendir", p, NULL))
		return;
	d = fdopendir(fd);
	CHECK_SYS(d, "fdopendir %s", p);
	for (errno = 0; (de = readdir(d)); errno = 0)
		result(fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW),
		       "fstatat", p, de->d_name);
	CHECK_SYS(!errno, "readdir %s", p);
	closedir(d);
}

static void op_statx(const char *p)
{
	struct statx stx;

	if (!result(statx(rootfd, p, AT_SYMLINK_NOFOLLOW,
			  STATX_BASIC_STATS | STATX_BTIME, &stx),
		    "statx", p, NULL))
		return;
	/* tmpfs on 6.1 has no birth time; ours must always give one. */
	if (fstype)
		CHECK(stx.stx_mask & STATX_BTIME, "statx %s: no btime", p);
}

/* tmpfs on 6.1, the reference, has trusted.* but no user.* xattrs. */
static const char *xattr_prefix(void)
{
	return fstype && below(2) ? "user." : "trusted.";
}

static void xattr_name(char *name, size_t size)
{
	const char *prefix = xattr_prefix();

	snprintf(name, size, "%sx%u", prefix, below(4));
}

/* There is no *xattrat(): these take paths relative to DIR, the cwd. */
static void op_setxattr(const char *p)
{
	uint8_t val[XVAL_MAX];
	char name[32];
	size_t len = fill(val, sizeof(val));

	xattr_name(name, sizeof(name));
	result(lsetxattr(p, name, val, len, 0), "setxattr", p, name);
}

static void op_getxattr(const char *p)
{
	uint8_t val[XVAL_MAX];
	char name[32];
	ssize_t len;

	xattr_name(name, sizeof(name));
	len = lgetxattr(p, name, val, sizeof(val));
	if (result(len, "getxattr", p, name))
		CHECK(valid(val, len, true), "getxattr %s %s: %zd bytes that "
		      "no one wrote", p, name, len);
}

static void op_listxattr(const char *p)
{
	char list[256];
	ssize_t len;

	len = llistxattr(p, list, sizeof(list));
	if (result(len, "listxattr", p, NULL))
		CHECK(!len || list[len - 1] == '\0', "listxattr %s: unterminated", p);
}

static void op_removexattr(const char *p)
{
	char name[32];

	xattr_name(name, sizeof(name));
	result(lremovexattr(p, name), "removexattr", p, name);
}

/*
 * An inode that lives only while open, then goes on the last close. Only
 * a file this worker made gets new data: rewriting one that others may be
 * reading would let them see a mix of two writes.
 */
static void op_unlink_open(const char *p)
{
	int fd = openat(rootfd, p, O_CREAT | O_EXCL | O_RDWR, 0644);
	bool mine = fd >= 0;

	if (!mine && errno == EEXIST)
		fd = openat(rootfd, p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (!result(fd, "open", p, NULL))
		return;
	if (result(unlinkat(rootfd, p, 0), "unlink", p, NULL) && mine)
		write_data(fd, p);
	check_data(fd, p);
	close(fd);
}

/* A nameless file, linked in half of the time. */
static void op_tmpfile(const char *p)
{
	char dir[PATH_MAX], *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", p);
	slash = strrchr(dir, '/');
	*slash = '\0';
	fd = openat(rootfd, dir, O_TMPFILE | O_RDWR, 0600);
	if (!result(fd, "O_TMPFILE", dir, NULL))
		return;
	write_data(fd, dir);
	if (below(2))
		result(linkat(fd, "", rootfd, p, AT_EMPTY_PATH), "linkat", p,
		       "tmpfile");
	close(fd);
}

static void one_op(void)
{
	char p[64], q[64];

	rand_path(p, sizeof(p));
	rand_path(q, sizeof(q));
	switch (below(20)) {
	case 0: case 1: case 2:
		op_create(p);
		break;
	case 3: case 4:
		result(unlinkat(rootfd, p, 0), "unlink", p, NULL);
		break;
	case 5: case 6:
		op_rename(p, q);
		break;
	case 7:
		result(linkat(rootfd, p, rootfd, q, 0), "link", p, q);
		break;
	case 8:
		result(symlinkat(p, rootfd, q), "symlink", q, NULL);
		break;
	case 9:
		result(mkdirat(rootfd, p, 0755), "mkdir", p, NULL);
		break;
	case 10:
		result(unlinkat(rootfd, p, AT_REMOVEDIR), "rmdir", p, NULL);
		break;
	case 11:
		op_readdir(below(2) ? p : "d0");
		break;
	case 12:
		op_statx(p);
		break;
	case 13:
		op_read(p);
		break;
	case 14:
		op_setxattr(p);
		break;
	case 15:
		op_getxattr(p);
		break;
	case 16:
		op_listxattr(p);
		break;
	case 17:
		op_removexattr(p);
		break;
	case 18:
		op_unlink_open(p);
		break;
	case 19:
		op_tmpfile(p);
		break;
	}
}

/*
 * ---- open-but-unlinked files held across the parent's check ----
 */
struct kept {
	int fd;
	uint8_t data[DATA_MAX];
	size_t len;
	uint8_t xval[XVAL_MAX];
	size_t xlen;
	char xname[32];
	struct statx stx;
};

static struct kept kept[MAXKEEP];

static void keep_files(int id)
{
	char p[64];
	int i;

	for (i = 0; i < nkeep; i++) {
		struct kept *k = &kept[i];

		snprintf(p, sizeof(p), "d%d/keep.%d.%d", i % NDIRS, id, i);
		k->fd = openat(rootfd, p, O_CREAT | O_EXCL | O_RDWR, 0600);
		CHECK_SYS(k->fd >= 0, "create %s", p);
		k->len = fill(k->data, sizeof(k->data));
		CHECK_SYS(write(k->fd, k->data, k->len) == (ssize_t)k->len,
			  "write %s", p);
		k->xlen = fill(k->xval, sizeof(k->xval));
		snprintf(k->xname, sizeof(k->xname), "%skept", xattr_prefix());
		CHECK_SYS(!fsetxattr(k->fd, k->xname, k->xval, k->xlen, 0),
			  "fsetxattr %s %s", p, k->xname);
		CHECK_SYS(!statx(k->fd, "", AT_EMPTY_PATH, STATX_ALL, &k->stx),
			  "statx %s", p);
		CHECK_SYS(!unlinkat(rootfd, p, 0), "unlink %s", p);
	}
}

/* After the parent's walk: everything still there, then the last close. */
static void check_kept(void)
{
	uint8_t buf[DATA_MAX];
	struct statx stx;
	int i;

	for (i = 0; i < nkeep; i++) {
		struct kept *k = &kept[i];

		CHECK(pread(k->fd, buf, sizeof(buf), 0) == (ssize_t)k->len &&
		      !memcmp(buf, k->data, k->len),
		      "unlinked file %d: data changed", i);
		CHECK(fgetxattr(k->fd, k->xname, buf, sizeof(buf)) ==
		      (ssize_t)k->xlen && !memcmp(buf, k->xval, k->xlen),
		      "unlinked file %d: xattr changed", i);
		CHECK_SYS(!statx(k->fd, "", AT_EMPTY_PATH, STATX_ALL, &stx),
			  "statx unlinked file %d", i);
		CHECK(stx.stx_nlink == 0, "unlinked file %d: nlink %u", i,
		      stx.stx_nlink);
		CHECK(stx.stx_ino == k->stx.stx_ino, "unlinked file %d: inode "
		      "number changed", i);
		CHECK(stx.stx_btime.tv_sec == k->stx.stx_btime.tv_sec &&
		      stx.stx_btime.tv_nsec == k->stx.stx_btime.tv_nsec,
		      "unlinked file %d: birth time changed", i);
		CHECK_SYS(!close(k->fd), "close unlinked file %d", i);
	}
}

static char worker_name[32], who[64];

/* Failures name the worker and the seed that repeats them. */
static void name_failures(void)
{
	snprintf(who, sizeof(who), "%s (seed %llu)", prog,
		 (unsigned long long)seed);
	fail_who = who;
}

/* Tells the parent it is ready through @ready, then waits for EOF on @go. */
static void worker(int id, int ready, int go)
{
	long i;
	char c;

	snprintf(worker_name, sizeof(worker_name), "hammer[w%d]", id);
	prog = worker_name;
	name_failures();
	rng_state = seed * 1000003 + id;
	for (i = 0; i < nops; i++)
		one_op();
	keep_files(id);
	printf("%s: %ld ops, %ld calls done, %ld refused as races allow; "
	       "holding %d unlinked files\n", prog, nops, counts[0], counts[1],
	       nkeep);
	fflush(stdout);
	CHECK_SYS(write(ready, "r", 1) == 1, "write to parent");
	/* So that the parent sees EOF if another worker dies. */
	close(ready);
	CHECK_SYS(read(go, &c, 1) == 0, "wait for parent");
	check_kept();
	exit(0);
}

/*
 * ---- the parent's walk ----
 */
struct seen {
	ino_t ino;
	nlink_t nlink;
	long names;
	bool dir;
};

static struct seen *seen;
static size_t nseen, seen_cap;

/* Records one name of an inode; directories must have only one. */
static void record(const struct stat *st, const char *path)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i].ino == st->st_ino)
			break;
	if (i == nseen) {
		if (nseen == seen_cap) {
			seen_cap = seen_cap ? 2 * seen_cap : 256;
			seen = realloc(seen, seen_cap * sizeof(*seen));
			CHECK_SYS(seen, "realloc");
		}
		seen[nseen++] = (struct seen){ st->st_ino, st->st_nlink, 0,
					       S_ISDIR(st->st_mode) };
	}
	seen[i].names++;
	CHECK(seen[i].nlink == st->st_nlink, "%s: nlink %lu, was %lu by "
	      "another name", path, (unsigned long)st->st_nlink,
	      (unsigned long)seen[i].nlink);
	CHECK(!seen[i].dir || seen[i].names == 1,
	      "%s: a directory with a second name", path);
}

/* Returns the number of subdirectories of @path, an open directory @fd. */
static long walk_dir(int fd, const char *path)
{
	char sub[PATH_MAX];
	struct dirent *de;
	struct stat st;
	long subdirs = 0;
	DIR *d = fdopendir(fd);

	CHECK_SYS(d, "fdopendir %s", path);
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		CHECK_SYS(!fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW),
			  "stat %s", sub);
		record(&st, sub);
		if (S_ISDIR(st.st_mode)) {
			int subfd = openat(fd, de->d_name,
					   O_RDONLY | O_DIRECTORY);
			long n;

			CHECK_SYS(subfd >= 0, "open %s", sub);
			n = walk_dir(subfd, sub);
			CHECK(st.st_nlink == 2 + (nlink_t)n, "%s: nlink %lu, "
			      "but 2 + %ld subdirectories", sub,
			      (unsigned long)st.st_nlink, n);
			subdirs++;
		}
		errno = 0;
	}
	CHECK_SYS(!errno, "readdir %s", path);
	closedir(d);
	return subdirs;
}

/*
 * Walks DIR; returns the number of distinct inodes, DIR's own included,
 * and sets @extra to the names of files beyond each one's first.
 */
static long walk(const char *dir, long *extra)
{
	struct stat st;
	long subdirs;
	size_t i;
	/* Not dup(): that would share, and move, rootfd's readdir offset. */
	int fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY);

	CHECK_SYS(fd >= 0, "open %s", dir);
	nseen = 0;
	CHECK_SYS(!fstat(rootfd, &st), "stat %s", dir);
	record(&st, dir);
	subdirs = walk_dir(fd, dir);
	CHECK_SYS(!fstat(rootfd, &st), "stat %s", dir);
	CHECK(st.st_nlink == 2 + (nlink_t)subdirs, "%s: nlink %lu, but 2 + %ld "
	      "subdirectories", dir, (unsigned long)st.st_nlink, subdirs);
	*extra = 0;
	for (i = 0; i < nseen; i++) {
		CHECK(seen[i].dir || (long)seen[i].nlink == seen[i].names,
		      "inode %lu: nlink %lu, but %ld names found",
		      (unsigned long)seen[i].ino,
		      (unsigned long)seen[i].nlink, seen[i].names);
		if (!seen[i].dir)
			*extra += seen[i].names - 1;
	}
	return nseen;
}


static long statfs_used(void)
{
	struct statvfs sv;

	CHECK_SYS(!fstatvfs(rootfd, &sv), "statvfs");
	return (long)(sv.f_files - sv.f_ffree);
}

/* Walk and compare with the counters; @unlinked files are open, nameless. */
static void check_counts(const char *dir, long unlinked, const char *when)
{
	long extra, found = walk(dir, &extra), used = statfs_used();

	printf("%s %s: %ld inodes in the tree + %ld open-but-unlinked, "
	       "%ld extra links; statfs says %ld", prog, when, found, unlinked,
	       extra, used);
	if (fstype)
		printf(", inodes_live %ld", stat_value(fstype, "inodes_live"));
	printf("\n");
	/* Newer tmpfs charges xattrs to its inode space: only ours. */
	if (!fstype)
		return;
	CHECK(used == found + unlinked + extra, "%s: statfs counts %ld inodes "
	      "in use, the walk %ld + %ld unlinked + %ld extra links", when,
	      used, found, unlinked, extra);
	CHECK(stat_value(fstype, "inodes_live") == found + unlinked,
	      "%s: inodes_live %ld, the walk %ld + %ld unlinked", when,
	      stat_value(fstype, "inodes_live"), found, unlinked);
}

/* Freed objects follow evicted inodes after an RCU grace period. */
static void wait_objects(const char *when)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	long live = 0, objs = 0;
	int i;

	if (!fstype)
		return;
	for (i = 0; i < 100; i++) {
		live = stat_value(fstype, "inodes_live");
		objs = stat_value(fstype, "inode_objects_live");
		if (objs == live)
			break;
		nanosleep(&ts, NULL);
	}
	CHECK(objs == live, "%s: inode_objects_live %ld, inodes_live %ld "
	      "after 2 s", when, objs, live);
	if (stat_value(fstype, "private_objects_allocated"))
		CHECK(stat_value(fstype, "private_objects_allocated") -
		      stat_value(fstype, "private_objects_freed") == objs,
		      "%s: private objects live differ from inode objects", when);
}

static void remove_tree(int fd)
{
	struct dirent *de;
	DIR *d = fdopendir(fd);

	CHECK_SYS(d, "fdopendir");
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(fd, de->d_name, 0))
			continue;
		CHECK_SYS(errno == EISDIR, "unlink %s", de->d_name);
		remove_tree(openat(fd, de->d_name, O_RDONLY | O_DIRECTORY));
		CHECK_SYS(!unlinkat(fd, de->d_name, AT_REMOVEDIR), "rmdir %s",
			  de->d_name);
	}
	closedir(d);
}

static void usage(void)
{
	fprintf(stderr, "usage: hammer [-w WORKERS] [-n OPS] [-s SEED] "
		"[-k KEEP] [-t FSTYPE] DIR\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "w:n:s:k:t:")) != -1) {
		switch (opt) {
		case 'w':
			nworkers = atoi(optarg);
			break;
		case 'n':
			nops = atol(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'k':
			nkeep = atoi(optarg);
			break;
		case 't':
			fstype = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || nworkers < 1 || nworkers > 64 || nops < 0 ||
	    nkeep < 0 || nkeep > MAXKEEP)
		usage();
}

int main(int argc, char **argv)
{
	int ready[2], go[2], i, status, failed = 0;
	const char *dir;
	char name[8], c;

	parse_args(argc, argv);
	name_failures();
	dir = argv[optind];
	setvbuf(stdout, NULL, _IOLBF, 0);
	rootfd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK_SYS(rootfd >= 0 && !fchdir(rootfd), "open %s", dir);
	for (i = 0; i < NDIRS; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		CHECK_SYS(!mkdirat(rootfd, name, 0755), "mkdir %s/%s", dir,
			  name);
	}
	printf("hammer: %d workers x %ld ops on %s%s%s, seed %llu\n", nworkers,
	       nops, dir, fstype ? " " : "", fstype ? fstype : "",
	       (unsigned long long)seed);

	CHECK_SYS(!pipe(ready) && !pipe(go), "pipe");
	for (i = 0; i < nworkers; i++) {
		pid_t pid = fork();

		CHECK_SYS(pid >= 0, "fork");
		if (!pid) {
			close(ready[0]);
			close(go[1]);
			worker(i, ready[1], go[0]);
		}
	}
	close(ready[1]);
	close(go[0]);

	/* A worker that failed closes its end early: fewer than nworkers. */
	for (i = 0; i < nworkers && read(ready[0], &c, 1) == 1; i++)
		;
	if (i == nworkers)
		check_counts(dir, (long)nworkers * nkeep, "with files held open");
	close(go[1]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	CHECK(!failed && i == nworkers, "%d of %d workers failed", failed,
	      nworkers);

	check_counts(dir, 0, "after the last close");
	wait_objects("after the last close");
	remove_tree(openat(rootfd, ".", O_RDONLY | O_DIRECTORY));
	check_counts(dir, 0, "emptied");
	wait_objects("emptied");
	printf("hammer: %ld ops by %d workers, tree consistent: ok\n",
	       nops * nworkers, nworkers);
	return 0;
}
