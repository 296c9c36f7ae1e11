// SPDX-License-Identifier: GPL-2.0
/*
 * perms - what an unprivileged user may and may not do.
 *
 *	perms WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then every FSTYPE with
 * mode=0755,uid=0,gid=0, lays out the same fixture as root, and runs each
 * check in a child that has dropped to uid/gid 1000 or 1001 with no
 * supplementary groups and no capabilities:
 *
 *  - no creation, removal or renaming in a 0755 root-owned directory;
 *  - no chmod, chown or explicit utimensat on another user's file;
 *  - no user.* or trusted.* xattr writes on another user's file, none on
 *    a sticky directory one does not own;
 *  - sticky-directory rules: only the file's or the directory's owner
 *    may delete or rename over a file;
 *  - setuid/setgid bits cleared when an unprivileged user writes or
 *    truncates, kept when root writes, setgid kept without group exec;
 *    setgid directories hand down their group, and the setgid bit a user
 *    outside that group asks for is dropped;
 *  - mount, remount and umount refused without CAP_SYS_ADMIN.
 *
 * A check that must be refused must also leave its objects (and their
 * parent directory) as they were. Every expected result is written down
 * here and must also be what tmpfs gives, so the two cannot agree on a
 * wrong answer; rows marked F_NOREF (user.* xattrs succeeding, which 6.1's
 * tmpfs does not support) are not run on tmpfs.
 *
 * Prints one line per check and a closing "perms: N passed, N failed";
 * exits 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <dirent.h>
#include <unistd.h>

#define ALICE	1000
#define BOB	1001

#include "tmpfs-ref.h"


/* ---- the checks ---- */

enum pk {
	P_CREAT, P_MKDIR, P_MKFIFO, P_SYMLINK, P_LINK, P_RENAME, P_UNLINK,
	P_RMDIR, P_OPEN, P_STAT, P_OPENDIR, P_CHMOD, P_CHOWN, P_UTIMES,
	P_UTIMES_NOW, P_SETX, P_GETX, P_RMX, P_MOUNT, P_MOUNT_TMPFS,
	P_REMOUNT, P_UMOUNT,
	/* these return a mode or an id, not an errno */
	P_CHMOD_MODE, P_CHOWN_MODE, P_WRITE_MODE, P_TRUNC_MODE, P_NEWFILE_MODE,
	P_NEWDIR_MODE, P_NEWFILE_UID, P_NEWFILE_GID,
};

struct pcase {
	const char *what;
	uid_t who;		/* gid is the same; no other groups */
	enum pk k;
	const char *a, *b;	/* paths; b is the xattr name for P_*X */
	long arg, arg2;		/* flags, modes, ids */
	int want;
	unsigned int flags;
};

static const struct pcase cases[] = {
	/* a 0755 directory owned by root: the mount root itself */
	{ "create in 0755 root dir", ALICE, P_CREAT, "new", .want = EACCES },
	{ "mkdir in 0755 root dir", ALICE, P_MKDIR, "new", .want = EACCES },
	{ "mkfifo in 0755 root dir", ALICE, P_MKFIFO, "new", .want = EACCES },
	{ "symlink in 0755 root dir", ALICE, P_SYMLINK, "pub/m1000", "new",
	  .want = EACCES },
	{ "link into 0755 root dir", ALICE, P_LINK, "pub/m1000", "new",
	  .want = EACCES },
	{ "rename into 0755 root dir", ALICE, P_RENAME, "pub/m1000", "new",
	  .want = EACCES },
	{ "unlink in 0755 root dir", ALICE, P_UNLINK, "rootfile",
	  .want = EACCES },
	{ "rmdir in 0755 root dir", ALICE, P_RMDIR, "emptydir",
	  .want = EACCES },
	{ "open root's 0644 file for writing", ALICE, P_OPEN, "rootfile",
	  .arg = O_WRONLY, .want = EACCES },

	/* another user's file */
	{ "chmod another user's file", ALICE, P_CHMOD, "pub/f1001",
	  .arg = 0666, .want = EPERM },
	{ "chown another user's file", ALICE, P_CHOWN, "pub/f1001",
	  .arg = ALICE, .arg2 = ALICE, .want = EPERM },
	{ "chgrp another user's file", ALICE, P_CHOWN, "pub/f1001",
	  .arg = -1, .arg2 = ALICE, .want = EPERM },
	{ "utimensat times on another user's file", ALICE, P_UTIMES,
	  "pub/f1001", .want = EPERM },
	{ "utimensat now on another user's 0644 file", ALICE, P_UTIMES_NOW,
	  "pub/f1001", .want = EACCES },
	{ "utimensat times on another user's 0666 file", ALICE, P_UTIMES,
	  "pub/w1001", .want = EPERM },
	{ "utimensat now on another user's 0666 file", ALICE, P_UTIMES_NOW,
	  "pub/w1001", .want = 0 },
	{ "owner gives file away", BOB, P_CHOWN, "pub/f1001",
	  .arg = ALICE, .arg2 = -1, .want = EPERM },
	{ "owner chgrp to a group not his", ALICE, P_CHOWN, "pub/m1000",
	  .arg = -1, .arg2 = BOB, .want = EPERM },
	{ "owner chgrp to his own group", ALICE, P_CHOWN, "pub/m1000",
	  .arg = -1, .arg2 = ALICE, .want = 0 },
	{ "owner chmod", ALICE, P_CHMOD_MODE, "pub/m1000", .arg = 0640,
	  .want = 0640, .flags = F_OCT },
	{ "owner chmod g+s, group not his: bit dropped", ALICE, P_CHMOD_MODE,
	  "pub/g1000", .arg = 02755, .want = 0755, .flags = F_OCT },

	/* xattrs */
	{ "user. xattr set on another user's 0644 file", ALICE, P_SETX,
	  "pub/f1001", "user.x", .want = EACCES },
	{ "user. xattr remove on another user's 0644 file", ALICE, P_RMX,
	  "pub/f1001", "user.a", .want = EACCES },
	{ "trusted. xattr set on another user's file", ALICE, P_SETX,
	  "pub/f1001", "trusted.x", .want = EPERM },
	{ "trusted. xattr set on own file", ALICE, P_SETX, "pub/m1000",
	  "trusted.x", .want = EPERM },
	{ "trusted. xattr read without CAP_SYS_ADMIN", ALICE, P_GETX,
	  "pub/f1001", "trusted.a", .want = ENODATA },
	{ "user. xattr set on sticky dir not owned", ALICE, P_SETX, "sticky",
	  "user.x", .want = EPERM },
	{ "user. xattr read behind a 0700 dir", ALICE, P_GETX, "x/f",
	  "user.a", .want = EACCES },
	{ "user. xattr read on another user's 0644 file", ALICE, P_GETX,
	  "pub/f1001", "user.a", .want = 0, .flags = F_NOREF },
	{ "user. xattr set on another user's 0666 file", ALICE, P_SETX,
	  "pub/w1001", "user.x", .want = 0, .flags = F_NOREF },
	{ "user. xattr set on own 0444 file", ALICE, P_SETX, "pub/ro1000",
	  "user.x", .want = EACCES },
	{ "user. xattr set on own file", ALICE, P_SETX, "pub/m1000",
	  "user.x", .want = 0, .flags = F_NOREF },
	{ "user. xattr remove on own file", ALICE, P_RMX, "pub/m1000",
	  "user.x", .want = 0, .flags = F_NOREF },

	/* sticky directories: run the refusals before the removals */
	{ "sticky: unlink another user's file", ALICE, P_UNLINK, "sticky/a",
	  .want = EPERM },
	{ "sticky: rename another user's file", ALICE, P_RENAME, "sticky/a",
	  "sticky/a2", .want = EPERM },
	{ "sticky: rename over another user's file", ALICE, P_RENAME,
	  "sticky/b", "sticky/a", .want = EPERM },
	{ "sticky: rmdir another user's dir", ALICE, P_RMDIR, "sticky/d1001",
	  .want = EPERM },
	{ "sticky: unlink own file", ALICE, P_UNLINK, "sticky/b", .want = 0 },
	{ "sticky: the other user unlinks his", BOB, P_UNLINK, "sticky/c",
	  .want = 0 },
	{ "sticky: dir owner unlinks another's file", ALICE, P_UNLINK,
	  "own/x", .want = 0 },
	{ "non-sticky: unlink another user's file", ALICE, P_UNLINK,
	  "pub/gone", .want = 0 },

	/* setuid/setgid */
	{ "write by other user clears 06777", BOB, P_WRITE_MODE, "suid/w",
	  .want = 0777, .flags = F_OCT },
	{ "truncate by other user clears 06777", BOB, P_TRUNC_MODE, "suid/t",
	  .want = 0777, .flags = F_OCT },
	{ "write by owner clears 06777", ALICE, P_WRITE_MODE, "suid/o",
	  .want = 0777, .flags = F_OCT },
	{ "write by group member keeps setgid without g+x", BOB, P_WRITE_MODE,
	  "suid/g", .want = 02666, .flags = F_OCT },
	{ "write by root keeps 06777", 0, P_WRITE_MODE, "suid/r",
	  .want = 06777, .flags = F_OCT },
	{ "chown by root clears 06755", 0, P_CHOWN_MODE, "suid/c",
	  .arg = BOB, .arg2 = BOB, .want = 0755, .flags = F_OCT },
	{ "owner's no-op chown clears 06755", ALICE, P_CHOWN_MODE, "suid/p",
	  .arg = ALICE, .arg2 = ALICE, .want = 0755, .flags = F_OCT },
	{ "new file in setgid dir gets its group", ALICE, P_NEWFILE_GID,
	  "sgid/f", .arg = 0644, .want = BOB, .flags = F_NUM },
	{ "new dir in setgid dir inherits setgid", ALICE, P_NEWDIR_MODE,
	  "sgid/d", .arg = 0755, .want = 02755, .flags = F_OCT },
	{ "new g+s file in setgid dir, group not his: bit dropped", ALICE,
	  P_NEWFILE_MODE, "sgid/s", .arg = 02755, .want = 0755,
	  .flags = F_OCT },
	{ "new file is owned by its creator", ALICE, P_NEWFILE_UID,
	  "pub/n", .arg = 0644, .want = ALICE, .flags = F_NUM },
	{ "new file has its creator's group", BOB, P_NEWFILE_GID, "pub/n2",
	  .arg = 0644, .want = BOB, .flags = F_NUM },

	/* mode bits: owner class wins over group class */
	{ "group may write a 0060 file", ALICE, P_OPEN, "grp", .arg = O_RDWR,
	  .want = 0 },
	{ "others may not read a 0060 file", BOB, P_OPEN, "grp",
	  .arg = O_RDONLY, .want = EACCES },
	{ "owner may not read his 0060 file", ALICE, P_OPEN, "ownerdeny",
	  .arg = O_RDONLY, .want = EACCES },
	{ "lookup through a 0700 dir", ALICE, P_STAT, "x/f", .want = EACCES },
	{ "list a 0700 dir", ALICE, P_OPENDIR, "x", .want = EACCES },

	/* mounting needs CAP_SYS_ADMIN */
	{ "mount this type without CAP_SYS_ADMIN", ALICE, P_MOUNT, "pub/mnt",
	  .want = EPERM },
	{ "mount tmpfs without CAP_SYS_ADMIN", ALICE, P_MOUNT_TMPFS,
	  "pub/mnt", .want = EPERM },
	{ "remount without CAP_SYS_ADMIN", ALICE, P_REMOUNT, ".",
	  .want = EPERM },
	{ "umount without CAP_SYS_ADMIN", ALICE, P_UMOUNT, ".",
	  .want = EPERM },
};

static int stat_mode(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return st.st_mode & 07777;
}

static int write_one(const char *path)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, "w", 1);
	close(fd);
	return n == 1 ? 0 : -EIO;
}

/* Create a file and return one field of its inode, or -errno. */
static int new_file(const char *path, mode_t mode, enum pk k)
{
	struct stat st;
	int fd;

	if (k == P_NEWDIR_MODE) {
		if (mkdir(path, mode) < 0)
			return -errno;
	} else {
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, mode);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	if (stat(path, &st) < 0)
		return -errno;
	if (k == P_NEWFILE_UID)
		return st.st_uid;
	if (k == P_NEWFILE_GID)
		return st.st_gid;
	return st.st_mode & 07777;
}

static int run(const struct pcase *c)
{
	static const struct timespec ts[2] = { { 1000000, 0 }, { 1000000, 0 } };
	char buf[64];
	DIR *d;
	int e;

	switch (c->k) {
	case P_CREAT:
		e = open(c->a, O_CREAT | O_WRONLY, 0644);
		if (e < 0)
			return errno;
		close(e);
		return 0;
	case P_MKDIR:
		return err_of(mkdir(c->a, 0755));
	case P_MKFIFO:
		return err_of(mknod(c->a, S_IFIFO | 0644, 0));
	case P_SYMLINK:
		return err_of(symlink(c->a, c->b));
	case P_LINK:
		return err_of(link(c->a, c->b));
	case P_RENAME:
		return err_of(rename(c->a, c->b));
	case P_UNLINK:
		return err_of(unlink(c->a));
	case P_RMDIR:
		return err_of(rmdir(c->a));
	case P_OPEN:
		e = open(c->a, c->arg);
		if (e < 0)
			return errno;
		close(e);
		return 0;
	case P_STAT: {
		struct stat st;

		return err_of(stat(c->a, &st));
	}
	case P_OPENDIR:
		d = opendir(c->a);
		if (!d)
			return errno;
		closedir(d);
		return 0;
	case P_CHMOD:
		return err_of(chmod(c->a, c->arg));
	case P_CHOWN:
		return err_of(chown(c->a, c->arg, c->arg2));
	case P_UTIMES:
		return err_of(utimensat(AT_FDCWD, c->a, ts, 0));
	case P_UTIMES_NOW:
		return err_of(utimensat(AT_FDCWD, c->a, NULL, 0));
	case P_SETX:
		return err_of(setxattr(c->a, c->b, "v", 1, 0));
	case P_GETX:
		return getxattr(c->a, c->b, buf, sizeof(buf)) < 0 ? errno : 0;
	case P_RMX:
		return err_of(removexattr(c->a, c->b));
	case P_MOUNT:
		return err_of(mount("none", c->a, cur_fs, 0, "mode=0777"));
	case P_MOUNT_TMPFS:
		return err_of(mount("none", c->a, "tmpfs", 0, NULL));
	case P_REMOUNT:
		return err_of(mount(NULL, c->a, NULL, MS_REMOUNT, NULL));
	case P_UMOUNT:
		return err_of(umount(c->a));
	case P_CHMOD_MODE:
		if (chmod(c->a, c->arg) < 0)
			return -errno;
		return stat_mode(c->a);
	case P_CHOWN_MODE:
		if (chown(c->a, c->arg, c->arg2) < 0)
			return -errno;
		return stat_mode(c->a);
	case P_WRITE_MODE:
		e = write_one(c->a);
		return e ? e : stat_mode(c->a);
	case P_TRUNC_MODE:
		if (truncate(c->a, 0) < 0)
			return -errno;
		return stat_mode(c->a);
	case P_NEWFILE_MODE:
	case P_NEWDIR_MODE:
	case P_NEWFILE_UID:
	case P_NEWFILE_GID:
		return new_file(c->a, c->arg, c->k);
	}
	abort();	/* a kind this switch does not know */
}

/* Become uid/gid `who` with no other groups; prove root is gone. */
static void become(uid_t who)
{
	if (setgroups(0, NULL) < 0 || setgid(who) < 0 || setuid(who) < 0)
		die("drop privileges");
	if (setuid(0) == 0 || geteuid() != who || getegid() != who) {
		fprintf(stderr, "perms: still privileged after setuid\n");
		exit(2);
	}
}

/* Run a check in a child as `who`; its result comes back on a pipe. */
static int run_as(const struct pcase *c)
{
	int fds[2], r = INT_MIN, status;
	pid_t pid;

	if (pipe(fds) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(fds[0]);
		if (c->who)
			become(c->who);
		umask(0);
		r = run(c);
		if (write(fds[1], &r, sizeof(r)) != sizeof(r))
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &r, sizeof(r)) != sizeof(r))
		r = INT_MIN;	/* the child died: shown as a failure */
	close(fds[0]);
	waitpid(pid, &status, 0);
	return r;
}

/* ---- state of the objects a refused check touches ---- */

static void state(const char *path, char *out, size_t len)
{
	char names[1024], val[256];
	uint32_t h = 2166136261u;
	struct stat st;
	ssize_t n, v;

	if (lstat(path, &st) < 0) {
		snprintf(out, len, "%s: errno %d", path, errno);
		return;
	}
	n = llistxattr(path, names, sizeof(names));
	for (char *s = names; n > 0 && s < names + n; s += strlen(s) + 1) {
		v = lgetxattr(path, s, val, sizeof(val));
		for (const char *p = s; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		for (ssize_t i = 0; i < v; i++)
			h = (h ^ (unsigned char)val[i]) * 16777619u;
	}
	snprintf(out, len, "%s: %o %u:%u n%lu s%lld m%lld.%ld c%lld.%ld x%zd/%08x",
		 path, st.st_mode, st.st_uid, st.st_gid,
		 (unsigned long)st.st_nlink, (long long)st.st_size,
		 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		 (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec, n, h);
}

static bool watches_b(enum pk k)
{
	return k == P_SYMLINK || k == P_LINK || k == P_RENAME;
}

/* The objects of a check, and the directory the first one is in. */
static void states(const struct pcase *c, char out[3][256])
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", c->a);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	state(c->a, out[0], sizeof(out[0]));
	state(dir, out[1], sizeof(out[1]));
	if (watches_b(c->k))
		state(c->b, out[2], sizeof(out[2]));
	else
		out[2][0] = '\0';
}

static void run_case(const struct pcase *c)
{
	char before[3][256], after[3][256], what[128];
	bool refused = c->want > 0 && !(c->flags & (F_NUM | F_OCT));
	int same = 0;

	if (is_tmpfs && (c->flags & F_NOREF))
		return;
	states(c, before);
	check(c->what, run_as(c), c->want, c->flags);
	if (!refused)
		return;
	/* A refusal must leave no trace, not even a timestamp. */
	states(c, after);
	for (int i = 0; i < 3 && !same; i++)
		if (strcmp(before[i], after[i])) {
			printf("     before: %s\n     after:  %s\n", before[i],
			       after[i]);
			same = 1;
		}
	snprintf(what, sizeof(what), "%s: nothing changed", c->what);
	check(what, same, 0, c->flags | F_NUM);
}

/* ---- the fixture, laid out by root ---- */

struct node {
	const char *path;
	mode_t mode;		/* S_IFDIR or S_IFREG with permissions */
	uid_t uid;
	gid_t gid;
};

static const struct node fixture[] = {
	{ "rootfile", S_IFREG | 0644, 0, 0 },
	{ "emptydir", S_IFDIR | 0777, 0, 0 },
	{ "pub", S_IFDIR | 0777, 0, 0 },
	{ "pub/f1001", S_IFREG | 0644, BOB, BOB },
	{ "pub/w1001", S_IFREG | 0666, BOB, BOB },
	{ "pub/m1000", S_IFREG | 0644, ALICE, ALICE },
	{ "pub/ro1000", S_IFREG | 0444, ALICE, ALICE },
	{ "pub/g1000", S_IFREG | 0644, ALICE, BOB },
	{ "pub/gone", S_IFREG | 0644, BOB, BOB },
	{ "pub/mnt", S_IFDIR | 0777, 0, 0 },
	{ "sticky", S_IFDIR | 01777, 0, 0 },
	{ "sticky/a", S_IFREG | 0644, BOB, BOB },
	{ "sticky/b", S_IFREG | 0644, ALICE, ALICE },
	{ "sticky/c", S_IFREG | 0644, BOB, BOB },
	{ "sticky/d1001", S_IFDIR | 0755, BOB, BOB },
	{ "own", S_IFDIR | 01777, ALICE, ALICE },
	{ "own/x", S_IFREG | 0644, BOB, BOB },
	{ "suid", S_IFDIR | 0777, 0, 0 },
	{ "suid/w", S_IFREG | 06777, ALICE, ALICE },
	{ "suid/t", S_IFREG | 06777, ALICE, ALICE },
	{ "suid/o", S_IFREG | 06777, ALICE, ALICE },
	{ "suid/g", S_IFREG | 02666, ALICE, BOB },
	{ "suid/r", S_IFREG | 06777, ALICE, ALICE },
	{ "suid/c", S_IFREG | 06755, ALICE, ALICE },
	{ "suid/p", S_IFREG | 06755, ALICE, ALICE },
	{ "sgid", S_IFDIR | 02777, 0, BOB },
	{ "x", S_IFDIR | 0700, 0, 0 },
	{ "x/f", S_IFREG | 0644, 0, 0 },
	{ "grp", S_IFREG | 0060, 0, ALICE },
	{ "ownerdeny", S_IFREG | 0060, ALICE, ALICE },
};

static int make_node(const struct node *n)
{
	int fd;

	if (S_ISDIR(n->mode)) {
		if (mkdir(n->path, 0700) < 0)
			return errno;
	} else {
		fd = open(n->path, O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (fd < 0)
			return errno;
		if (write(fd, "data\n", 5) != 5) {
			close(fd);
			return EIO;
		}
		close(fd);
	}
	/* chown first: it would clear the setuid bits chmod sets */
	if (chown(n->path, n->uid, n->gid) < 0 ||
	    chmod(n->path, n->mode & 07777) < 0)
		return errno;
	/* xattrs for the xattr checks; 6.1's tmpfs has no user.* */
	if (!S_ISREG(n->mode))
		return 0;
	if (setxattr(n->path, "trusted.a", "t", 1, 0) < 0)
		return errno;
	if (!is_tmpfs && setxattr(n->path, "user.a", "u", 1, 0) < 0)
		return errno;
	return 0;
}

static int lay_out(void)
{
	int e;

	for (size_t i = 0; i < ARRAY_SIZE(fixture); i++) {
		e = make_node(&fixture[i]);
		if (e) {
			printf("     %s: %s\n", fixture[i].path, strerror(e));
			return e;
		}
	}
	return 0;
}

static void run_fs(const char *mp)
{
	struct stat st;

	if (!check("mount -o mode=0755,uid=0,gid=0",
		   err_of(mount("none", mp, cur_fs, 0, "mode=0755,uid=0,gid=0")),
		   0, 0))
		return;
	if (chdir(mp) < 0)
		die("chdir");
	if (stat(".", &st) < 0)
		die("stat");
	check("root dir mode from mode=0755", st.st_mode, S_IFDIR | 0755,
	      F_OCT);
	check("root dir owner from uid=0", st.st_uid, 0, F_NUM);
	check("root dir group from gid=0", st.st_gid, 0, F_NUM);
	if (check("lay out fixture", lay_out(), 0, 0))
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			run_case(&cases[i]);
	if (chdir("/") < 0)
		die("chdir /");
	check("umount at the end", err_of(umount(mp)), 0, 0);
}

int main(int argc, char **argv)
{
	return tmpfs_ref_main(argc, argv, "perms", run_fs);
}
