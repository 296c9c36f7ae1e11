// SPDX-License-Identifier: GPL-2.0
/*
 * badinput - bad input gets a clear error and loses nothing.
 *
 *	badinput WORKDIR FSTYPE...
 *
 * Runs the same tables on tmpfs, the reference, and then on every FSTYPE:
 *
 *  - mount(2) with bad options fails with EINVAL, the kernel log gets a
 *    line naming the filesystem and the option, and no inode is leaked;
 *  - operations that must fail inside a populated mount (names over
 *    NAME_MAX, bad xattrs, renames into a subtree, rmdir of a non-empty
 *    directory, ...) give the errno tmpfs gives and leave the tree as it
 *    was: a snapshot of names, types, sizes, checksums and xattrs taken
 *    before and after each one must be the same;
 *  - creating beyond max_inodes (nr_inodes on tmpfs), or linking, gives
 *    ENOSPC without side effects, unlinking makes room again, and remount changes the
 *    limit but refuses to shrink it below what is in use.
 *
 * Every expected errno is written down here and must also be what tmpfs
 * gives, so the two cannot agree on a wrong answer. Rows marked F_NOREF
 * are skipped on tmpfs: Debian's 6.1 tmpfs has no user.* xattrs and takes
 * some option values ours must refuse.
 *
 * Mount points are made under WORKDIR. Prints one line per check and a
 * closing "badinput: N passed, N failed"; exits 1 if anything failed.
 *
 * The kernel log reader is in kmsg.c, the tree snapshots in snapshot.c;
 * only this file includes tmpfs-ref.h, the checks' shared state.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "badinput.h"
#include "tmpfs-ref.h"

/* For kmsg.c and snapshot.c: tmpfs-ref.h's die() is this file's. */
void badinput_die(const char *what)
{
	die(what);
}

/* ---- mount options ---- */

struct optcase {
	const char *what;
	const char *data;	/* options given to our filesystems */
	const char *tmpfs;	/* the same for tmpfs; NULL: tmpfs differs */
};

static const struct optcase optcases[] = {
	{ "unknown option", "foo", "foo" },
	{ "unknown option with value", "foo=bar", "foo=bar" },
	{ "unknown option after good ones", "mode=0755,uid=0,bogus=1",
	  "mode=0755,uid=0,bogus=1" },
	{ "mode without value", "mode", "mode" },
	{ "uid without value", "uid", "uid" },
	{ "gid without value", "gid", "gid" },
	{ "max_inodes without value", "max_inodes", "nr_inodes" },
	{ "mode with empty value", "mode=", "mode=" },
	{ "max_inodes with empty value", "max_inodes=", "nr_inodes=" },
	{ "non-numeric mode", "mode=rwx", "mode=rwx" },
	{ "non-octal mode", "mode=0758", "mode=0758" },
	{ "non-numeric uid", "uid=root", "uid=root" },
	{ "non-numeric gid", "gid=1a", "gid=1a" },
	{ "non-numeric max_inodes", "max_inodes=ten", "nr_inodes=ten" },
	{ "negative mode", "mode=-1", "mode=-1" },
	{ "negative uid", "uid=-1", "uid=-1" },
	{ "negative gid", "gid=-5", "gid=-5" },
	{ "negative max_inodes", "max_inodes=-1", "nr_inodes=-1" },
	{ "overflowing mode", "mode=077777777777", "mode=077777777777" },
	{ "overflowing uid", "uid=4294967296", "uid=4294967296" },
	{ "overflowing gid", "gid=18446744073709551617",
	  "gid=18446744073709551617" },
	/* tmpfs's memparse() wraps around silently */
	{ "overflowing max_inodes", "max_inodes=18446744073709551616", NULL },
	/* tmpfs masks the mode with 07777 */
	{ "mode beyond 07777", "mode=010000", NULL },
	{ "uid that does not map", "uid=4294967295", "uid=4294967295" },
	{ "gid that does not map", "gid=4294967295", "gid=4294967295" },
	/* nr_inodes=0 means unlimited on tmpfs */
	{ "max_inodes=0", "max_inodes=0", NULL },
	/* tmpfs has no max_xattr_bytes: it counts xattrs in its inodes */
	{ "max_xattr_bytes without value", "max_xattr_bytes", NULL },
	{ "non-numeric max_xattr_bytes", "max_xattr_bytes=lots", NULL },
	{ "max_xattr_bytes with a suffix", "max_xattr_bytes=1m", NULL },
	{ "negative max_xattr_bytes", "max_xattr_bytes=-1", NULL },
	{ "overflowing max_xattr_bytes",
	  "max_xattr_bytes=18446744073709551616", NULL },
	{ "max_xattr_bytes=ULONG_MAX", "max_xattr_bytes=18446744073709551615",
	  NULL },
};

/* The option to blame is the last one in the list. */
static void opt_key(const char *data, char *key, size_t len)
{
	const char *s = strrchr(data, ',');

	s = s ? s + 1 : data;
	snprintf(key, len, "%.*s", (int)strcspn(s, "="), s);
}

static void opt_row(const char *mp, const struct optcase *c)
{
	const char *data = is_tmpfs ? c->tmpfs : c->data;
	unsigned int flags = c->tmpfs ? 0 : F_NOREF;
	char key[64], what[128];
	int got;

	if (!data)
		return;
	opt_key(data, key, sizeof(key));
	kmsg_skip();
	got = err_of(mount("none", mp, cur_fs, 0, data));
	if (!got)
		umount(mp);
	snprintf(what, sizeof(what), "mount: %s", c->what);
	if (!check(what, got, EINVAL, flags))
		printf("     options: %s\n", data);
	snprintf(what, sizeof(what), "mount: %s: log names fs and option",
		 c->what);
	if (!check(what, kmsg_has(cur_fs, key), 1, flags | F_NUM))
		kmsg_dump();
}

static void opt_table(const char *mp)
{
	long live = live_inodes();
	char data[128];
	struct stat st;
	int e;

	for (size_t i = 0; i < ARRAY_SIZE(optcases); i++)
		opt_row(mp, &optcases[i]);
	check_live("failed mounts leave no live inode", live);

	/* And the good options do what they say. */
	snprintf(data, sizeof(data), "mode=01750,uid=1000,gid=1001,%s=5",
		 is_tmpfs ? "nr_inodes" : "max_inodes");
	e = err_of(mount("none", mp, cur_fs, 0, data));
	if (!check("mount with good options", e, 0, 0))
		return;
	if (stat(mp, &st) < 0)
		memset(&st, 0, sizeof(st));
	check("root mode from mode=01750", st.st_mode, S_IFDIR | 01750, F_OCT);
	check("root owner from uid=1000", st.st_uid, 1000, F_NUM);
	check("root group from gid=1001", st.st_gid, 1001, F_NUM);
	check_live("mounted root is one live inode", live + 1);
	check("umount", err_of(umount(mp)), 0, 0);
	check_live("umount frees the root inode", live);
}

/* ---- operations that must fail inside a populated tree ---- */

enum opk {
	OP_CREAT, OP_MKDIR, OP_MKFIFO, OP_SYMLINK, OP_LINK, OP_RENAME, OP_UNLINK,
	OP_RMDIR, OP_LSTAT, OP_OPEN, OP_TRUNC, OP_SETX, OP_LSETX, OP_GETX, OP_LISTX,
	OP_RMX, OP_NAME_MAX, OP_XATTR_MAX, OP_SYMLINK_MAX, OP_XATTR_LIST_MAX,
};

struct opcase {
	const char *what;
	enum opk k;
	const char *a, *b;
	long arg;		/* open/rename/setxattr flags, length */
	size_t size;		/* xattr value or buffer size */
	int want;
	unsigned int flags;
};

static char longname[NAME_MAX + 2];	/* one over NAME_MAX */
static char dlongname[NAME_MAX + 4];	/* the same, under d/ */
static char name_max[NAME_MAX + 1];	/* exactly NAME_MAX */
static char xlongname[XATTR_NAME_MAX + 32];
static char xname_max[XATTR_NAME_MAX + 1];
static char target_max[PATH_MAX];	/* longest symlink target */
static char target_long[PATH_MAX + 1];	/* one over */
static char bigval[XATTR_SIZE_MAX + 1];

static void make_names(void)
{
	memset(longname, 'n', NAME_MAX + 1);
	snprintf(dlongname, sizeof(dlongname), "d/%s", longname);
	memset(name_max, 'm', NAME_MAX);
	snprintf(xlongname, sizeof(xlongname), "trusted.%0*d",
		 XATTR_NAME_MAX + 8, 0);
	snprintf(xname_max, sizeof(xname_max), "trusted.%0*d",
		 XATTR_NAME_MAX - 8, 0);
	memset(target_max, 't', PATH_MAX - 1);
	memset(target_long, 't', PATH_MAX);
	memset(bigval, 'v', sizeof(bigval));
}

static const struct opcase opcases[] = {
	/* names over NAME_MAX, through every call that takes a name */
	{ "create name > NAME_MAX", OP_CREAT, longname, .want = ENAMETOOLONG },
	{ "mkdir name > NAME_MAX", OP_MKDIR, longname, .want = ENAMETOOLONG },
	{ "mkfifo name > NAME_MAX", OP_MKFIFO, longname, .want = ENAMETOOLONG },
	{ "symlink name > NAME_MAX", OP_SYMLINK, "file", longname,
	  .want = ENAMETOOLONG },
	{ "link name > NAME_MAX", OP_LINK, "file", longname,
	  .want = ENAMETOOLONG },
	{ "rename to name > NAME_MAX", OP_RENAME, "file", longname,
	  .want = ENAMETOOLONG },
	{ "rename dir to name > NAME_MAX in subdir", OP_RENAME, "e", dlongname,
	  .want = ENAMETOOLONG },
	{ "lookup name > NAME_MAX", OP_LSTAT, longname, .want = ENAMETOOLONG },
	{ "lookup name > NAME_MAX in subdir", OP_LSTAT, dlongname,
	  .want = ENAMETOOLONG },
	{ "name of NAME_MAX works", OP_NAME_MAX, name_max, .want = 0 },
	{ "symlink target of PATH_MAX-1 works", OP_SYMLINK_MAX, target_max,
	  .want = 0 },
	{ "symlink target > PATH_MAX-1", OP_SYMLINK, target_long, "sl",
	  .want = ENAMETOOLONG },

	/* xattrs */
	{ "xattr name > 255", OP_SETX, "file", xlongname, .size = 1,
	  .want = ERANGE },
	{ "get xattr name > 255", OP_GETX, "file", xlongname, .size = 64,
	  .want = ERANGE },
	{ "empty xattr name", OP_SETX, "file", "", .size = 1, .want = ERANGE },
	{ "xattr value > 64 KiB", OP_SETX, "file", "trusted.big",
	  .size = XATTR_SIZE_MAX + 1, .want = E2BIG },
	{ "xattr value > 64 KiB on dir", OP_SETX, "d", "trusted.big",
	  .size = XATTR_SIZE_MAX + 1, .want = E2BIG },
	{ "user. xattr value > 64 KiB", OP_SETX, "file", "user.big",
	  .size = XATTR_SIZE_MAX + 1, .want = E2BIG },
	{ "xattr name and value at the limits work", OP_XATTR_MAX, "file",
	  xname_max, .want = 0 },
	{ "xattr in unknown namespace", OP_SETX, "file", "foo.bar", .size = 1,
	  .want = EOPNOTSUPP },
	{ "xattr without namespace", OP_SETX, "file", "plain", .size = 1,
	  .want = EOPNOTSUPP },
	{ "xattr in system. namespace", OP_SETX, "file", "system.foo",
	  .size = 1, .want = EOPNOTSUPP },
	{ "get xattr in unknown namespace", OP_GETX, "file", "foo.bar",
	  .size = 64, .want = EOPNOTSUPP },
	{ "xattr with unknown flag", OP_SETX, "file", "trusted.a", .arg = 4,
	  .size = 1, .want = EINVAL },
	{ "XATTR_CREATE on existing", OP_SETX, "file", "trusted.a",
	  .arg = XATTR_CREATE, .size = 3, .want = EEXIST },
	{ "XATTR_REPLACE on missing", OP_SETX, "file", "trusted.none",
	  .arg = XATTR_REPLACE, .size = 3, .want = ENODATA },
	{ "XATTR_CREATE on existing (dir)", OP_SETX, "d", "trusted.d",
	  .arg = XATTR_CREATE, .size = 3, .want = EEXIST },
	{ "XATTR_REPLACE on missing (dir)", OP_SETX, "d", "trusted.none",
	  .arg = XATTR_REPLACE, .size = 3, .want = ENODATA },
	{ "get missing xattr", OP_GETX, "file", "trusted.none", .size = 64,
	  .want = ENODATA },
	{ "remove missing xattr", OP_RMX, "file", "trusted.none",
	  .want = ENODATA },
	{ "get xattr into too small buffer", OP_GETX, "file", "trusted.a",
	  .size = 2, .want = ERANGE },
	{ "list xattrs into too small buffer", OP_LISTX, "file", .size = 2,
	  .want = ERANGE },
	{ "user. xattr on symlink", OP_LSETX, "link", "user.x", .size = 1,
	  .want = EPERM },
	{ "user. xattr on fifo", OP_SETX, "fifo", "user.x", .size = 1,
	  .want = EPERM },
	{ "user. XATTR_CREATE on existing", OP_SETX, "file", "user.a",
	  .arg = XATTR_CREATE, .size = 3, .want = EEXIST, .flags = F_NOREF },
	{ "user. XATTR_REPLACE on missing", OP_SETX, "file", "user.none",
	  .arg = XATTR_REPLACE, .size = 3, .want = ENODATA, .flags = F_NOREF },
	{ "user. XATTR_CREATE on existing (dir)", OP_SETX, "d", "user.d",
	  .arg = XATTR_CREATE, .size = 3, .want = EEXIST, .flags = F_NOREF },
	{ "user. XATTR_REPLACE on missing (dir)", OP_SETX, "d", "user.none",
	  .arg = XATTR_REPLACE, .size = 3, .want = ENODATA, .flags = F_NOREF },
	{ "remove missing user. xattr", OP_RMX, "file", "user.none",
	  .want = ENODATA, .flags = F_NOREF },
	/*
	 * Not on tmpfs: 6.1's has no user. xattrs, 6.12's bounds them by its
	 * own inode space. Ours refuse a name that would make listxattr()
	 * return more than XATTR_LIST_MAX, so that listing always works.
	 */
	{ "user. xattr names beyond what listxattr() can return",
	  OP_XATTR_LIST_MAX, "file", .want = ENOSPC, .flags = F_NOREF },

	/* renames */
	{ "rename dir into own subtree", OP_RENAME, "d", "d/sub/x",
	  .want = EINVAL },
	{ "rename dir into own child", OP_RENAME, "d", "d/x", .want = EINVAL },
	{ "rename dir over own descendant", OP_RENAME, "d/sub", "d/sub/deep",
	  .want = EINVAL },
	{ "rename dir over own ancestor", OP_RENAME, "d/sub/deep", "d",
	  .want = ENOTEMPTY },
	{ "RENAME_NOREPLACE into own subtree", OP_RENAME, "d", "d/sub/x",
	  .arg = RENAME_NOREPLACE, .want = EINVAL },
	{ "RENAME_EXCHANGE with own subtree", OP_RENAME, "d", "d/sub",
	  .arg = RENAME_EXCHANGE, .want = EINVAL },
	{ "rename dir over non-empty dir", OP_RENAME, "e", "d",
	  .want = ENOTEMPTY },
	{ "rename dir over file", OP_RENAME, "e", "file", .want = ENOTDIR },
	{ "rename file over dir", OP_RENAME, "file", "e", .want = EISDIR },
	{ "RENAME_NOREPLACE over existing", OP_RENAME, "file", "link",
	  .arg = RENAME_NOREPLACE, .want = EEXIST },
	{ "rename with unknown flag", OP_RENAME, "file", "x", .arg = 1 << 7,
	  .want = EINVAL },
	{ "rename missing", OP_RENAME, "missing", "x", .want = ENOENT },

	/* removal and creation over what exists */
	{ "rmdir non-empty dir", OP_RMDIR, "d", .want = ENOTEMPTY },
	{ "rmdir non-empty subdir", OP_RMDIR, "d/sub/deep", .want = ENOTEMPTY },
	{ "rmdir file", OP_RMDIR, "file", .want = ENOTDIR },
	{ "rmdir .", OP_RMDIR, ".", .want = EINVAL },
	{ "rmdir ..", OP_RMDIR, "e/..", .want = ENOTEMPTY },
	{ "unlink dir", OP_UNLINK, "d", .want = EISDIR },
	{ "unlink missing", OP_UNLINK, "missing", .want = ENOENT },
	{ "mkdir existing", OP_MKDIR, "d", .want = EEXIST },
	{ "O_EXCL create existing", OP_OPEN, "file",
	  .arg = O_CREAT | O_EXCL | O_WRONLY, .want = EEXIST },
	{ "symlink over existing", OP_SYMLINK, "x", "file", .want = EEXIST },
	{ "mkfifo over existing", OP_MKFIFO, "file", .want = EEXIST },
	{ "link over existing", OP_LINK, "file", "link", .want = EEXIST },
	{ "link to dir", OP_LINK, "d", "dl", .want = EPERM },
	{ "open dir for writing", OP_OPEN, "d", .arg = O_WRONLY,
	  .want = EISDIR },
	{ "truncate dir", OP_TRUNC, "d", .want = EISDIR },
	{ "truncate to negative size", OP_TRUNC, "file", .arg = -1,
	  .want = EINVAL },
	{ "path through a file", OP_OPEN, "file/x", .arg = O_RDONLY,
	  .want = ENOTDIR },
	{ "O_DIRECTORY on file", OP_OPEN, "file", .arg = O_RDONLY | O_DIRECTORY,
	  .want = ENOTDIR },
	{ "create in missing dir", OP_OPEN, "missing/x",
	  .arg = O_CREAT | O_WRONLY, .want = ENOENT },
};

static int do_open(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Create, find and remove a name of exactly NAME_MAX bytes. */
static int op_name_max(const char *name)
{
	struct stat st;
	int e;

	e = do_open(name, O_CREAT | O_EXCL | O_WRONLY);
	if (!e)
		e = err_of(lstat(name, &st));
	if (!e)
		e = err_of(unlink(name));
	return e;
}

/* The longest name and value the VFS passes on, read back and removed. */
/*
 * Add user. names of 250 bytes to @path until one is refused; listxattr()
 * must then still list every name, within XATTR_LIST_MAX. Removes what it
 * added; returns the errno of the refusal (0 if none came).
 */
static int op_xattr_list_max(const char *path)
{
	static char list[XATTR_LIST_MAX + 1];
	char name[256];
	int i, e = 0, added = 0;
	ssize_t n, n2;

	for (i = 0; i < 2 * XATTR_LIST_MAX / 250 && !e; i++) {
		snprintf(name, sizeof(name), "user.%0244d", i);
		e = err_of(setxattr(path, name, "v", 1, XATTR_CREATE));
		added += !e;
	}
	n = listxattr(path, NULL, 0);
	n2 = listxattr(path, list, sizeof(list));
	check("listxattr size at the limit", n > 0 && n <= XATTR_LIST_MAX ?
	      0 : (n < 0 ? errno : E2BIG), 0, F_NOREF);
	check("listxattr at the limit", n2 == n ? 0 : (n2 < 0 ? errno : EIO),
	      0, F_NOREF);
	check("xattr names taken before the limit", added >= 200, 1,
	      F_NOREF | F_NUM);
	for (i = 0; i < added; i++) {
		snprintf(name, sizeof(name), "user.%0244d", i);
		if (removexattr(path, name) < 0)
			die("removexattr");
	}
	return e;
}

static int op_xattr_max(const char *path, const char *name)
{
	ssize_t n;
	int e;

	e = err_of(setxattr(path, name, bigval, XATTR_SIZE_MAX, XATTR_CREATE));
	if (e)
		return e;
	n = getxattr(path, name, valbuf, sizeof(valbuf));
	if (n < 0)
		return errno;
	if (n != XATTR_SIZE_MAX || memcmp(valbuf, bigval, n))
		return EBADMSG;
	return err_of(removexattr(path, name));
}

static int op_symlink_max(const char *target)
{
	char buf[PATH_MAX + 1];
	ssize_t n;
	int e;

	e = err_of(symlink(target, "sl"));
	if (e)
		return e;
	n = readlink("sl", buf, sizeof(buf));
	if (n < 0)
		return errno;
	if ((size_t)n != strlen(target) || memcmp(buf, target, n))
		return EBADMSG;
	return err_of(unlink("sl"));
}

static int run_op(const struct opcase *c)
{
	char buf[64];

	switch (c->k) {
	case OP_CREAT:
		return do_open(c->a, O_CREAT | O_WRONLY);
	case OP_MKDIR:
		return err_of(mkdir(c->a, 0755));
	case OP_MKFIFO:
		return err_of(mknod(c->a, S_IFIFO | 0644, 0));
	case OP_SYMLINK:
		return err_of(symlink(c->a, c->b));
	case OP_LINK:
		return err_of(link(c->a, c->b));
	case OP_RENAME:
		return err_of(renameat2(AT_FDCWD, c->a, AT_FDCWD, c->b,
					c->arg));
	case OP_UNLINK:
		return err_of(unlink(c->a));
	case OP_RMDIR:
		return err_of(rmdir(c->a));
	case OP_LSTAT: {
		struct stat st;

		return err_of(lstat(c->a, &st));
	}
	case OP_OPEN:
		return do_open(c->a, c->arg);
	case OP_TRUNC:
		return err_of(truncate(c->a, c->arg));
	case OP_SETX:
		return err_of(setxattr(c->a, c->b, bigval, c->size, c->arg));
	case OP_LSETX:
		return err_of(lsetxattr(c->a, c->b, bigval, c->size, c->arg));
	case OP_GETX:
		return err_of(getxattr(c->a, c->b, buf, c->size));
	case OP_LISTX:
		return err_of(listxattr(c->a, buf, c->size));
	case OP_RMX:
		return err_of(removexattr(c->a, c->b));
	case OP_NAME_MAX:
		return op_name_max(c->a);
	case OP_XATTR_LIST_MAX:
		return op_xattr_list_max(c->a);
	case OP_XATTR_MAX:
		return op_xattr_max(c->a, c->b);
	case OP_SYMLINK_MAX:
		return op_symlink_max(c->a);
	}
	abort();	/* a kind this switch does not know */
}

static int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : EIO;
}

/*
 *	.  d/  d/file  d/sub/  d/sub/deep/  d/sub/deep/f  e/
 *	file (xattrs trusted.a, user.a)  link -> file  fifo
 */
static int populate(void)
{
	static const char *const dirs[] = { "d", "d/sub", "d/sub/deep", "e" };
	char data[3000];
	int e = 0;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = 'a' + i % 23;
	for (size_t i = 0; i < 4 && !e; i++)
		e = err_of(mkdir(dirs[i], 0755));
	if (!e)
		e = write_file("d/sub/deep/f", "deep\n", 5);
	if (!e)
		e = write_file("d/file", "hello\n", 6);
	if (!e)
		e = write_file("file", data, sizeof(data));
	if (!e)
		e = err_of(symlink("file", "link"));
	if (!e)
		e = err_of(mknod("fifo", S_IFIFO | 0644, 0));
	if (!e)
		e = err_of(setxattr("file", "trusted.a", "value-a", 7, 0));
	if (!e)
		e = err_of(setxattr("d", "trusted.d", "dir", 3, 0));
	if (e || is_tmpfs)	/* 6.1's tmpfs has no user.* */
		return e;
	e = err_of(setxattr("file", "user.a", "u", 1, 0));
	if (!e)
		e = err_of(setxattr("d", "user.d", "ud", 2, 0));
	return e;
}

static void op_table(const char *mp)
{
	struct buf before = { 0 }, after = { 0 };
	char data[128], what[128];

	snprintf(data, sizeof(data), "mode=0755,uid=0,gid=0,%s=100",
		 is_tmpfs ? "nr_inodes" : "max_inodes");
	if (!check("mount for operations", err_of(mount("none", mp, cur_fs, 0,
							data)), 0, 0))
		return;
	if (chdir(mp) < 0)
		die("chdir");
	if (check("populate tree", populate(), 0, 0)) {
		snapshot(&before);
		for (size_t i = 0; i < ARRAY_SIZE(opcases); i++) {
			const struct opcase *c = &opcases[i];

			if (is_tmpfs && (c->flags & F_NOREF))
				continue;
			check(c->what, run_op(c), c->want, c->flags);
			snapshot(&after);
			snprintf(what, sizeof(what), "%s: tree intact", c->what);
			check(what, !snap_same(&before, &after), 0,
			      c->flags | F_NUM);
		}
	}
	if (chdir("/") < 0)
		die("chdir /");
	check("umount after operations", err_of(umount(mp)), 0, 0);
	free(before.p);
	free(after.p);
}

/* ---- ENOSPC at max_inodes ---- */

#define LIMIT 8

static int limit_mount(const char *mp, int flags, const char *val)
{
	char data[64];

	snprintf(data, sizeof(data), "%s=%s",
		 is_tmpfs ? "nr_inodes" : "max_inodes", val);
	return err_of(mount("none", mp, cur_fs, flags, data));
}

/* Every kind of creation hits the limit alike, and changes nothing. */
static void enospc_rows(const char *when)
{
	static const struct opcase full[] = {
		{ "create", OP_CREAT, "x", .want = ENOSPC },
		{ "mkdir", OP_MKDIR, "x", .want = ENOSPC },
		{ "symlink", OP_SYMLINK, "f0", "x", .want = ENOSPC },
		{ "mkfifo", OP_MKFIFO, "x", .want = ENOSPC },
		{ "create in subdir", OP_CREAT, "d4/x", .want = ENOSPC },
		/* tmpfs charges every new link an inode */
		{ "link", OP_LINK, "f0", "x", .want = ENOSPC },
	};
	struct buf before = { 0 }, after = { 0 };
	char what[128];

	snapshot(&before);
	for (size_t i = 0; i < ARRAY_SIZE(full); i++) {
		snprintf(what, sizeof(what), "%s %s", full[i].what, when);
		check(what, run_op(&full[i]), full[i].want, 0);
		snapshot(&after);
		snprintf(what, sizeof(what), "%s %s: tree intact",
			 full[i].what, when);
		check(what, !snap_same(&before, &after), 0, F_NUM);
	}
	free(before.p);
	free(after.p);
}

/* A remount that must fail, and leave the tree and limit as they were. */
static void bad_remount(const char *mp, const char *what, const char *val,
			unsigned int flags, bool logged)
{
	struct buf before = { 0 }, after = { 0 };
	char w[128], key[16];

	if (is_tmpfs && (flags & F_NOREF))
		return;
	snapshot(&before);
	kmsg_skip();
	snprintf(w, sizeof(w), "remount: %s", what);
	check(w, limit_mount(mp, MS_REMOUNT, val), EINVAL, flags);
	snapshot(&after);
	snprintf(w, sizeof(w), "remount: %s: tree intact", what);
	check(w, !snap_same(&before, &after), 0, flags | F_NUM);
	if (logged) {
		snprintf(key, sizeof(key), "%s",
			 is_tmpfs ? "nr_inodes" : "max_inodes");
		snprintf(w, sizeof(w), "remount: %s: log names fs and option",
			 what);
		if (!check(w, kmsg_has(cur_fs, key), 1, flags | F_NUM))
			kmsg_dump();
	}
	free(before.p);
	free(after.p);
}

static void enospc(const char *mp)
{
	long live = live_inodes();
	char lim[16];
	int e = 0;

	snprintf(lim, sizeof(lim), "%d", LIMIT);
	if (!check("mount with a limit of 8 inodes", limit_mount(mp, 0, lim),
		   0, 0))
		return;
	if (chdir(mp) < 0)
		die("chdir");
	/* The root is one inode: seven more fill it. */
	for (int i = 0; i < 4 && !e; i++) {
		char name[8];

		snprintf(name, sizeof(name), "f%d", i);
		e = write_file(name, "x", 1);
	}
	if (!e)
		e = err_of(mkdir("d4", 0755));
	if (!e)
		e = err_of(symlink("f0", "l5"));
	if (!e)
		e = err_of(mknod("p6", S_IFIFO | 0644, 0));
	if (!check("fill up to the limit", e, 0, 0))
		goto out;
	check_live("full mount: inodes_live counts every inode", live + LIMIT);
	enospc_rows("when full");

	check("unlink makes room", err_of(unlink("f1")), 0, 0);
	check("create after unlink", do_open("f1", O_CREAT | O_WRONLY), 0, 0);
	check("rmdir makes room", err_of(rmdir("d4")), 0, 0);
	check("mkdir after rmdir", err_of(mkdir("d4", 0755)), 0, 0);
	enospc_rows("when full again");

	bad_remount(mp, "shrink below use", "4", 0, false);
	bad_remount(mp, "non-numeric limit", "abc", 0, true);
	bad_remount(mp, "limit of 0", "0", F_NOREF, true);
	check("limit unchanged by failed remounts",
	      do_open("y", O_CREAT | O_WRONLY), ENOSPC, 0);

	check("remount to grow the limit", limit_mount(mp, MS_REMOUNT, "10"),
	      0, 0);
	check("create after growing (1)", do_open("y", O_CREAT | O_WRONLY), 0,
	      0);
	check("create after growing (2)", do_open("z", O_CREAT | O_WRONLY), 0,
	      0);
	check("grown limit holds", do_open("w", O_CREAT | O_WRONLY), ENOSPC,
	      0);
	check_live("grown mount: inodes_live", live + 10);
	check("remount to the exact use", limit_mount(mp, MS_REMOUNT, "10"),
	      0, 0);
out:
	if (chdir("/") < 0)
		die("chdir /");
	check("umount after ENOSPC", err_of(umount(mp)), 0, 0);
	check_live("umount frees every inode", live);
}

static void run_fs(const char *mp)
{
	/* Opened once, now that workdir is known (for a node of its own). */
	if (kmsg_fd < 0)
		kmsg_open(workdir);
	opt_table(mp);
	op_table(mp);
	enospc(mp);
}

int main(int argc, char **argv)
{
	umask(022);
	make_names();
	return tmpfs_ref_main(argc, argv, "badinput", run_fs);
}
