// SPDX-License-Identifier: GPL-2.0
/*
 * fsbasic: the basic guest test of one of the three filesystems.
 *
 *   fsbasic FSTYPE MOUNTPOINT
 *
 * Mounts FSTYPE, exercises files, directories, statx birth time, xattrs,
 * rename, unlink and O_TMPFILE, checks from the statistics file that the
 * filesystem makes the allocations its pattern says (one per inode, or two
 * for voidfs_demo), that a bad option fails the mount with EINVAL, and that
 * unmounting leaves no live inode. Exits non-zero on the first failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ipat-test.h"

#define NFILES 100

static const char *fstype;
static char who[64];


static void check_data(void)
{
	char buf[8192], back[8192];
	int fd, i;

	for (i = 0; i < (int)sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 3);
	fd = open("file", O_CREAT | O_EXCL | O_RDWR, 0644);
	CHECK_SYS(fd >= 0, "create file");
	CHECK_SYS(write(fd, buf, sizeof(buf)) == sizeof(buf), "write");
	CHECK_SYS(pread(fd, back, sizeof(back), 0) == sizeof(back), "read back");
	CHECK(!memcmp(buf, back, sizeof(buf)), "data read back differs");
	CHECK_SYS(!ftruncate(fd, 100), "ftruncate");
	CHECK_SYS(pread(fd, back, sizeof(back), 0) == 100, "read after truncate");
	close(fd);

	CHECK_SYS(!mkdir("dir", 0755), "mkdir");
	fd = open("dir/inner", O_CREAT | O_EXCL | O_WRONLY, 0600);
	CHECK_SYS(fd >= 0, "create in subdirectory");
	close(fd);
	CHECK_SYS(rmdir("dir") && errno == ENOTEMPTY, "rmdir of non-empty dir");
}

static void check_btime(void)
{
	struct statx stx;

	CHECK_SYS(!statx(AT_FDCWD, "file", 0, STATX_BASIC_STATS | STATX_BTIME,
			 &stx), "statx");
	CHECK(stx.stx_mask & STATX_BTIME, "statx reports no birth time");
	CHECK(stx.stx_btime.tv_sec > 0, "birth time is zero");
	CHECK(stx.stx_btime.tv_sec < stx.stx_ctime.tv_sec ||
	      (stx.stx_btime.tv_sec == stx.stx_ctime.tv_sec &&
	       stx.stx_btime.tv_nsec <= stx.stx_ctime.tv_nsec),
	      "birth time later than change time");
}

static void check_xattrs(void)
{
	char value[64], list[256];
	ssize_t len;

	CHECK_SYS(!setxattr("file", "user.colour", "blue", 4, XATTR_CREATE),
		  "setxattr user.colour");
	CHECK_SYS(!setxattr("file", "trusted.secret", "42", 2, 0),
		  "setxattr trusted.secret");
	CHECK_SYS(setxattr("file", "user.colour", "red", 3, XATTR_CREATE) &&
		  errno == EEXIST, "XATTR_CREATE on existing");
	CHECK_SYS(!setxattr("file", "user.colour", "green", 5, XATTR_REPLACE),
		  "XATTR_REPLACE");
	len = getxattr("file", "user.colour", value, sizeof(value));
	CHECK_SYS(len == 5 && !memcmp(value, "green", 5), "getxattr round trip");
	/* Sorted by name, as tmpfs lists them since 6.2. */
	len = listxattr("file", list, sizeof(list));
	CHECK_SYS(len == (ssize_t)sizeof("trusted.secret\0user.colour"),
		  "listxattr length %zd", len);
	CHECK(!memcmp(list, "trusted.secret\0user.colour", len),
	      "listxattr names");
	CHECK_SYS(!removexattr("file", "user.colour"), "removexattr");
	CHECK_SYS(getxattr("file", "user.colour", value, sizeof(value)) < 0 &&
		  errno == ENODATA, "getxattr after removexattr");
	CHECK_SYS(setxattr("file", "foo.bar", "x", 1, 0) && errno == EOPNOTSUPP,
		  "unsupported namespace");
}

static void check_names(void)
{
	int fd;

	CHECK_SYS(!rename("file", "renamed"), "rename");
	CHECK_SYS(access("file", F_OK) && errno == ENOENT, "old name after rename");
	CHECK_SYS(!link("renamed", "hardlink"), "link");
	CHECK_SYS(!unlink("renamed"), "unlink");
	CHECK_SYS(!unlink("hardlink"), "unlink last link");
	CHECK_SYS(!unlink("dir/inner"), "unlink inner");
	CHECK_SYS(!rmdir("dir"), "rmdir");

	fd = open(".", O_TMPFILE | O_RDWR, 0600);
	CHECK_SYS(fd >= 0, "O_TMPFILE");
	CHECK_SYS(write(fd, "x", 1) == 1, "write O_TMPFILE");
	CHECK_SYS(!linkat(fd, "", AT_FDCWD, "was_tmp", AT_EMPTY_PATH),
		  "linkat O_TMPFILE");
	close(fd);
	CHECK_SYS(!unlink("was_tmp"), "unlink linked tmpfile");
}

/* The pattern shows in the counters: 1 allocation per inode, or 2. */
static void check_allocations(void)
{
	long inodes = stat_value(fstype, "inode_objects_allocated");
	long privs = stat_value(fstype, "private_objects_allocated");
	long want_privs = strcmp(fstype, "voidfs_demo") ? 0 : NFILES;
	char name[32];
	int i, fd;

	for (i = 0; i < NFILES; i++) {
		snprintf(name, sizeof(name), "many.%d", i);
		fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		CHECK_SYS(fd >= 0, "create %s", name);
		close(fd);
	}
	inodes = stat_value(fstype, "inode_objects_allocated") - inodes;
	privs = stat_value(fstype, "private_objects_allocated") - privs;
	printf("%s: %d inodes took %ld inode objects and %ld private objects\n",
	       fstype, NFILES, inodes, privs);
	CHECK(inodes == NFILES, "%ld inode objects for %d inodes", inodes,
	      NFILES);
	CHECK(privs == want_privs, "%ld private objects, want %ld", privs,
	      want_privs);
	for (i = 0; i < NFILES; i++) {
		snprintf(name, sizeof(name), "many.%d", i);
		CHECK_SYS(!unlink(name), "unlink %s", name);
	}
}

int main(int argc, char **argv)
{
	const char *mnt;

	if (argc != 3) {
		fprintf(stderr, "usage: fsbasic FSTYPE MOUNTPOINT\n");
		return 2;
	}
	fstype = argv[1];
	mnt = argv[2];
	snprintf(who, sizeof(who), "fsbasic %s", fstype);
	fail_who = who;

	errno = 0;
	CHECK_SYS(mount("none", mnt, fstype, 0, "no_such_option=1") &&
		  errno == EINVAL, "mount with a bad option must fail with EINVAL");
	CHECK_SYS(!mount("none", mnt, fstype, 0, "mode=0755"), "mount %s", mnt);
	CHECK_SYS(!chdir(mnt), "chdir");
	check_data();
	check_btime();
	check_xattrs();
	check_names();
	check_allocations();
	CHECK_SYS(!chdir("/"), "chdir /");
	CHECK_SYS(!umount(mnt), "umount");
	CHECK(stat_value(fstype, "inodes_live") == 0, "%ld inodes live after umount",
	      stat_value(fstype, "inodes_live"));
	printf("ok %s\n", fstype);
	return 0;
}
