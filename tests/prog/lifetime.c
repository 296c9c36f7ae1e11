// SPDX-License-Identifier: GPL-2.0
/*
 * lifetime - when inodes, superblocks and the module may go, and when not.
 *
 *	lifetime busy FSTYPE MOUNTPOINT
 *	lifetime lazy FSTYPE MOUNTPOINT
 *	lifetime unlinked FSTYPE MOUNTPOINT
 *	lifetime drain FSTYPE
 *
 * busy: umount(2) of a mount with an open file, an open directory, a
 *	current directory or a mapping in it fails with EBUSY and leaves the
 *	mount working; once they are gone, umount succeeds.
 * lazy: with files open (one of them unlinked, one an O_TMPFILE, one a
 *	directory), umount2(MNT_DETACH) succeeds at once; the files stay
 *	usable through their descriptors, even to create new files, every
 *	inode stays counted and the module cannot be removed; after the last
 *	close, everything is freed (as "drain" checks).
 * unlinked: an unlinked file keeps its data, xattrs and birth time while
 *	any descriptor or mapping holds it, also across drop_caches, and is
 *	freed, xattrs and all, at the last close or munmap.
 * drain: within two seconds, FSTYPE has no live inode, no inode object
 *	and no private object, and its inode cache (when it has its own) no
 *	object in use.
 *
 * The first three mount FSTYPE themselves, unmount it at the end and then
 * check as drain does. FSTYPE must have no other mount: inodes_live counts
 * all mounts. They also run on tmpfs (on the host, while developing them),
 * without the checks that need our statistics file.
 * Exits 1 on the first failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "ipat-test.h"

#define MODULE_NAME	"inode_patterns"
#define DATA_LEN	(3 * 4096 + 123)	/* several pages, one partial */

static const char *fstype, *mnt;
static char who[64];
static bool ours;	/* FSTYPE is one of ours: it has a statistics file */


static void expect_stat(const char *key, long want, const char *when)
{
	long got;

	if (!ours)
		return;
	got = stat_value(fstype, key);
	CHECK(got == want, "%s: %s is %ld, want %ld", when, key, got, want);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* Is MOUNTPOINT a mount of FSTYPE, by /proc/self/mounts? */
static bool mounted(void)
{
	char line[512], dir[256], type[64];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	CHECK_SYS(f, "open /proc/self/mounts");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s %63s", dir, type) == 2 &&
		    !strcmp(dir, mnt) && !strcmp(type, fstype))
			found = true;
	fclose(f);
	return found;
}

static void do_mount(void)
{
	mkdir(mnt, 0755);
	CHECK_SYS(!mount("none", mnt, fstype, 0, NULL), "mount %s on %s",
		  fstype, mnt);
}

static void do_umount(void)
{
	CHECK_SYS(!umount(mnt), "umount %s", mnt);
	CHECK(!mounted(), "%s still mounted after umount", mnt);
}

/* umount must fail with EBUSY and leave the mount as it was. */
static void expect_busy(const char *why)
{
	CHECK(umount(mnt) && errno == EBUSY, "umount with %s: want EBUSY, "
	      "got %s", why, errno ? strerror(errno) : "success");
	CHECK(mounted(), "%s gone after a refused umount", mnt);
}

/* The module must refuse to go while a superblock of ours lives. */
static void expect_module_busy(const char *when)
{
	long ret;

	if (!ours)
		return;
	ret = syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK);
	CHECK(ret && (errno == EWOULDBLOCK || errno == EBUSY),
	      "%s: delete_module(%s) want EBUSY or EWOULDBLOCK, got %s", when,
	      MODULE_NAME, ret ? strerror(errno) : "success: module gone");
}

static void make_data(char *buf, size_t len, int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (char)(seed + i * 7 + i / 4096);
}

/* Creates @path (relative to @dirfd) with DATA_LEN bytes and an xattr. */
static int make_file(int dirfd, const char *path, int seed, int flags)
{
	char buf[DATA_LEN];
	int fd;

	/* O_TMPFILE names the directory and must not come with O_CREAT. */
	if (!(flags & O_TMPFILE))
		flags |= O_CREAT | O_EXCL;
	fd = openat(dirfd, path, O_RDWR | flags, 0644);

	CHECK_SYS(fd >= 0, "create %s", path);
	make_data(buf, sizeof(buf), seed);
	CHECK_SYS(write(fd, buf, sizeof(buf)) == sizeof(buf), "write %s", path);
	CHECK_SYS(!fsetxattr(fd, "user.seed", &seed, sizeof(seed), 0),
		  "fsetxattr %s", path);
	return fd;
}

/* The data and xattr make_file() gave the file open as @fd. */
static void check_file(int fd, int seed, const char *what)
{
	char buf[DATA_LEN], want[DATA_LEN];
	int got;

	make_data(want, sizeof(want), seed);
	CHECK_SYS(pread(fd, buf, sizeof(buf), 0) == sizeof(buf),
		  "%s: read", what);
	CHECK(!memcmp(buf, want, sizeof(buf)), "%s: data changed", what);
	CHECK_SYS(fgetxattr(fd, "user.seed", &got, sizeof(got)) == sizeof(got),
		  "%s: fgetxattr", what);
	CHECK(got == seed, "%s: xattr changed", what);
}

/* ---- busy ---- */

static void test_busy(void)
{
	char path[256];
	void *map;
	int fd;

	do_mount();
	snprintf(path, sizeof(path), "%s/f", mnt);
	fd = make_file(AT_FDCWD, path, 1, 0);
	expect_busy("an open file");
	check_file(fd, 1, "open file after refused umount");
	close(fd);

	fd = open(mnt, O_RDONLY | O_DIRECTORY);
	CHECK_SYS(fd >= 0, "open %s", mnt);
	expect_busy("an open directory");
	close(fd);

	CHECK_SYS(!chdir(mnt), "chdir %s", mnt);
	expect_busy("the current directory in it");
	CHECK_SYS(!chdir("/"), "chdir /");

	fd = open(path, O_RDWR);
	CHECK_SYS(fd >= 0, "open %s", path);
	map = mmap(NULL, DATA_LEN, PROT_READ, MAP_SHARED, fd, 0);
	CHECK_SYS(map != MAP_FAILED, "mmap %s", path);
	close(fd);
	expect_busy("a mapping of a file");
	CHECK_SYS(!munmap(map, DATA_LEN), "munmap");

	CHECK_SYS(!unlink(path), "unlink %s", path);
	do_umount();
	printf("lifetime busy %s: umount refused with EBUSY for an open file, "
	       "directory, cwd and mapping; ok\n", fstype);
}

/* ---- lazy ---- */

static void test_lazy(void)
{
	int root, dir, file, gone, tmp, fd;
	struct stat before, after;

	do_mount();
	root = open(mnt, O_RDONLY | O_DIRECTORY);
	CHECK_SYS(root >= 0, "open %s", mnt);
	CHECK_SYS(!mkdirat(root, "dir", 0755), "mkdir dir");
	dir = openat(root, "dir", O_RDONLY | O_DIRECTORY);
	CHECK_SYS(dir >= 0, "open dir");
	close(make_file(dir, "inner", 2, 0));
	file = make_file(root, "file", 3, 0);
	gone = make_file(root, "gone", 4, 0);
	CHECK_SYS(!unlinkat(root, "gone", 0), "unlink gone");
	tmp = make_file(root, ".", 5, O_TMPFILE);
	close(root);
	/* root, dir, dir/inner, file, gone (unlinked), the tmpfile */
	expect_stat("inodes_live", 6, "before umount");

	CHECK_SYS(!stat(mnt, &before), "stat %s", mnt);
	expect_busy("open files");
	CHECK_SYS(!umount2(mnt, MNT_DETACH), "umount -l %s", mnt);
	CHECK(!mounted(), "%s still listed after umount -l", mnt);
	CHECK_SYS(!stat(mnt, &after), "stat %s", mnt);
	CHECK(before.st_dev != after.st_dev, "%s: still the same filesystem "
	      "after umount -l", mnt);

	/* Detached, but everything open still works, even creating. */
	check_file(file, 3, "open file after umount -l");
	check_file(gone, 4, "unlinked file after umount -l");
	check_file(tmp, 5, "O_TMPFILE after umount -l");
	fd = make_file(dir, "new", 6, 0);
	check_file(fd, 6, "file created after umount -l");
	close(fd);
	fd = openat(dir, "inner", O_RDONLY);
	CHECK_SYS(fd >= 0, "open dir/inner after umount -l");
	check_file(fd, 2, "dir/inner after umount -l");
	close(fd);
	CHECK_SYS(!fstatat(dir, "new", &after, 0), "stat after umount -l");
	expect_stat("inodes_live", 7, "after umount -l");
	expect_module_busy("after umount -l, files open");

	/* The nameless two go at once, the others with the superblock. */
	close(file);
	close(gone);
	close(tmp);
	expect_module_busy("after umount -l, a directory open");
	expect_stat("inodes_live", 5, "after umount -l, a directory open");
	/* The last reference to the detached mount: the superblock goes. */
	close(dir);
	printf("lifetime lazy %s: umount -l with 4 files open, all usable "
	       "after it; ok\n", fstype);
}

/* ---- unlinked ---- */

/* A statx birth time, which tmpfs on 6.1 does not have. */
static struct statx_timestamp btime(int fd)
{
	struct statx stx;

	CHECK_SYS(!statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME,
			 &stx), "statx");
	if (ours)
		CHECK(stx.stx_mask & STATX_BTIME && stx.stx_btime.tv_sec,
		      "statx gives no birth time");
	return stx.stx_btime;
}

static bool same_time(struct statx_timestamp a, struct statx_timestamp b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* What lives on in an unlinked file: data, both xattrs, birth time. */
static void check_unlinked(int fd, struct statx_timestamp born,
			   const char *what)
{
	char list[256];
	struct stat st;
	ssize_t len;
	int got;

	check_file(fd, 7, what);
	CHECK_SYS(!fstat(fd, &st), "%s: fstat", what);
	CHECK(st.st_nlink == 0, "%s: nlink %lu", what,
	      (unsigned long)st.st_nlink);
	CHECK(same_time(btime(fd), born), "%s: birth time changed", what);
	CHECK_SYS(fgetxattr(fd, "trusted.t", &got, sizeof(got)) == sizeof(got),
		  "%s: fgetxattr trusted.t", what);
	CHECK(got == 77, "%s: trusted.t changed", what);
	len = flistxattr(fd, list, sizeof(list));
	CHECK_SYS(len > 0, "%s: flistxattr", what);
	CHECK(memmem(list, len, "user.seed", 10) &&
	      memmem(list, len, "trusted.t", 10), "%s: listxattr lost names",
	      what);
}

static void drop_caches(void)
{
	int fd;

	/* Only in the guest: no need to disturb the host's caches. */
	if (!ours)
		return;
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	CHECK_SYS(fd >= 0 && write(fd, "3", 1) == 1, "drop_caches");
	close(fd);
}

static void test_unlinked(void)
{
	struct statx_timestamp born;
	long xattr_bytes = 0;
	int fd1, fd2, t = 77;
	char path[256];
	char *map;

	do_mount();
	snprintf(path, sizeof(path), "%s/f", mnt);
	if (ours)
		xattr_bytes = stat_value(fstype, "xattr_bytes");
	fd1 = make_file(AT_FDCWD, path, 7, 0);
	CHECK_SYS(!fsetxattr(fd1, "trusted.t", &t, sizeof(t), 0),
		  "fsetxattr trusted.t");
	born = btime(fd1);
	fd2 = open(path, O_RDWR);
	CHECK_SYS(fd2 >= 0, "open %s", path);

	CHECK_SYS(!unlink(path), "unlink %s", path);
	expect_stat("inodes_live", 2, "unlinked, open twice");
	check_unlinked(fd1, born, "unlinked file");
	drop_caches();
	check_unlinked(fd2, born, "unlinked file after drop_caches");
	/* The payload is still writable, and its accounting still works. */
	CHECK_SYS(!fsetxattr(fd1, "user.late", "x", 1, 0), "fsetxattr late");
	CHECK_SYS(!fremovexattr(fd1, "user.late"), "fremovexattr late");

	close(fd1);
	expect_stat("inodes_live", 2, "unlinked, one descriptor closed");
	check_unlinked(fd2, born, "unlinked file, one descriptor closed");

	/* A mapping holds the file after its last descriptor is closed. */
	map = mmap(NULL, DATA_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
	CHECK_SYS(map != MAP_FAILED, "mmap");
	close(fd2);
	expect_stat("inodes_live", 2, "unlinked, only mapped");
	CHECK(map[DATA_LEN - 1] == (char)(7 + (DATA_LEN - 1) * 7 +
					 (DATA_LEN - 1) / 4096),
	      "unlinked, only mapped: data changed");
	drop_caches();
	map[0] = 'x';
	CHECK(map[0] == 'x', "write through the mapping");
	CHECK_SYS(!munmap(map, DATA_LEN), "munmap");
	expect_stat("inodes_live", 1, "after munmap");
	expect_stat("xattr_bytes", xattr_bytes, "after munmap");

	/* The same for a file that never had a name. */
	fd1 = make_file(AT_FDCWD, mnt, 8, O_TMPFILE);
	drop_caches();
	check_file(fd1, 8, "O_TMPFILE after drop_caches");
	expect_stat("inodes_live", 2, "O_TMPFILE open");
	close(fd1);
	expect_stat("inodes_live", 1, "O_TMPFILE closed");
	expect_stat("xattr_bytes", xattr_bytes, "O_TMPFILE closed");
	do_umount();
	printf("lifetime unlinked %s: data, xattrs and birth time kept until "
	       "the last close or munmap; ok\n", fstype);
}

/* ---- drain ---- */

/* The objects in use in a slab cache, after flushing per-CPU slabs. */
static long slab_objects(const char *cache)
{
	char path[256];
	long objects = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", cache);
	f = fopen(path, "w");
	CHECK_SYS(f, "open %s", path);
	fputs("1", f);
	CHECK_SYS(!fclose(f), "write %s", path);
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/objects", cache);
	f = fopen(path, "r");
	CHECK_SYS(f, "open %s", path);
	CHECK(fscanf(f, "%ld", &objects) == 1, "read %s", path);
	fclose(f);
	return objects;
}

/* The cache of this type's own, or NULL: voidfs_demo uses the VFS's. */
static const char *own_cache(void)
{
	if (!strcmp(fstype, "unionfs_demo"))
		return "union_inode_cache";
	if (!strcmp(fstype, "embedfs_demo"))
		return "embedfs_inode_cache";
	return NULL;
}

static void test_drain(void)
{
	const char *cache = own_cache();
	long live = 0, objs = 0, privs = 0, cached = 0;
	int i;

	CHECK(ours, "drain is only for our filesystems");
	/* Objects go an RCU grace period after their inode: poll. */
	for (i = 0; i < 100; i++) {
		live = stat_value(fstype, "inodes_live");
		objs = stat_value(fstype, "inode_objects_live");
		privs = stat_value(fstype, "private_objects_allocated") -
			stat_value(fstype, "private_objects_freed");
		cached = cache ? slab_objects(cache) : 0;
		if (!live && !objs && !privs && !cached)
			break;
		sleep_ms(20);
	}
	CHECK(!live && !objs && !privs && !cached, "after 2 s: inodes_live "
	      "%ld, inode_objects_live %ld, private objects %ld, %s objects "
	      "%ld", live, objs, privs, cache ? cache : "no cache", cached);
	expect_stat("xattr_bytes", 0, "drained");
	printf("lifetime drain %s: no inode, object or xattr left after "
	       "%d ms%s%s; ok\n", fstype, i * 20, cache ? ", nor in " : "",
	       cache ? cache : "");
}

int main(int argc, char **argv)
{
	char path[256];
	const char *cmd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3 || (strcmp(argv[1], "drain") && argc != 4)) {
		fprintf(stderr, "usage: lifetime busy|lazy|unlinked FSTYPE "
			"MOUNTPOINT\n       lifetime drain FSTYPE\n");
		return 2;
	}
	cmd = argv[1];
	fstype = argv[2];
	mnt = argv[3];
	snprintf(who, sizeof(who), "lifetime %s", fstype);
	fail_who = who;
	snprintf(path, sizeof(path), "/proc/fs/inode_patterns/%s", fstype);
	ours = !access(path, R_OK);

	if (!strcmp(cmd, "drain")) {
		test_drain();
		return 0;
	}
	if (!strcmp(cmd, "busy"))
		test_busy();
	else if (!strcmp(cmd, "lazy"))
		test_lazy();
	else if (!strcmp(cmd, "unlinked"))
		test_unlinked();
	else
		die(0, "unknown command %s", cmd);
	/* Unmounted (or detached and closed): all of it must be freed. */
	if (ours)
		test_drain();
	return 0;
}
