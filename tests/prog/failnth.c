// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: systematic allocation-failure injection into every system call
 * that allocates on one of the three filesystems.
 *
 *   failnth FSTYPE DIR PASS      PASS names what the caller set up to fail
 *                                (slab or page), for the report only
 *
 * For each call (mount, remount, create, mkdir, mknod, symlink, link,
 * rename, setxattr, replace an xattr, O_TMPFILE, create and mkdir under a
 * default ACL, setting an ACL, write, truncate, fallocate) it writes N to
 * /proc/thread-self/fail-nth, so that the N-th allocation of the call
 * fails, for N = 1, 2, ... until the call runs without reaching an
 * injected fault. A call that hit its fault must fail with ENOMEM and
 * leave every visible thing as it was: the tree with its attributes, link
 * counts, sizes, st_blocks, times and xattrs, statfs(), the mount table
 * and the statistics file. A fault the call absorbed (it succeeded anyway)
 * is counted apart.
 *
 * Which allocations can fail is the caller's business (failslab and
 * fail_page_alloc in debugfs, see tests/guest/80-fail-nth.sh). Prints one
 * "FAILNTH FSTYPE PASS CALL POINTS FAILED ABSORBED" line per call; exits
 * non-zero on the first broken rule.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

/* A call needing more faults than this is stuck, not thorough. */
#define MAX_POINTS	2000
#define SNAP_SIZE	(256 * 1024)
#define MAX_INODES	"max_inodes=1000"

static const char *fstype, *pass;
static char mnt[256], mnt2[256], work[300];
static int nth_fd = -1;
static int call_fd = -1;

static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL failnth %s %s: ", fstype, pass);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

#define CHECK(cond, ...) do { if (!(cond)) fail(__VA_ARGS__); } while (0)

/* Make the n-th fault point from now on in this thread fail. */
static void arm(int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	CHECK(pwrite(nth_fd, buf, len, 0) == len, "arm fail-nth: %s",
	      strerror(errno));
}

/* Disarm; true if the armed fault was injected. */
static int disarm(void)
{
	char buf[16] = "";
	ssize_t len = pread(nth_fd, buf, sizeof(buf) - 1, 0);

	CHECK(len > 0, "read fail-nth: %s", strerror(errno));
	CHECK(pwrite(nth_fd, "0", 1, 0) == 1, "disarm fail-nth: %s",
	      strerror(errno));
	/* What is left of the count: 0 once the fault was injected. */
	return atoi(buf) == 0;
}

/* --- What a failed call must leave unchanged ---------------------------- */

static char snap_buf[2][SNAP_SIZE];
static size_t snap_len;
static char *snap_out;
/*
 * The one file whose times a failed call may have changed: write() updates
 * mtime and ctime before it copies (file_update_time() in the VFS's
 * generic_file_write_iter(), in every filesystem), so a failed write keeps
 * them. Nothing else may change.
 */
static const char *times_may_change;

static void put(const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(snap_out + snap_len, SNAP_SIZE - snap_len, fmt, ap);
	va_end(ap);
	CHECK(len >= 0 && (size_t)len < SNAP_SIZE - snap_len,
	      "snapshot too large");
	snap_len += len;
}

static void put_xattrs(const char *path)
{
	char names[4096], value[4096];
	ssize_t len, vlen, i;

	len = llistxattr(path, names, sizeof(names));
	CHECK(len >= 0, "llistxattr %s: %s", path, strerror(errno));
	for (i = 0; i < len; i += strlen(names + i) + 1) {
		vlen = lgetxattr(path, names + i, value, sizeof(value));
		CHECK(vlen >= 0, "lgetxattr %s %s: %s", path, names + i,
		      strerror(errno));
		put("  xattr %s=%.*s\n", names + i, (int)vlen, value);
	}
}

/* Everything stat() shows but the access time, which reading changes. */
static void put_tree(const char *path, const char *name)
{
	struct dirent **list;
	struct stat st;
	char sub[1024], target[256];
	int n, i;
	ssize_t len;

	CHECK(!lstat(path, &st), "lstat %s: %s", path, strerror(errno));
	put("%s mode=%o nlink=%lu uid=%u gid=%u size=%lld blocks=%lld rdev=%lx",
	    name, st.st_mode, (unsigned long)st.st_nlink, st.st_uid, st.st_gid,
	    (long long)st.st_size, (long long)st.st_blocks,
	    (unsigned long)st.st_rdev);
	if (!times_may_change || strcmp(path, times_may_change))
		put(" mtime=%lld.%09ld ctime=%lld.%09ld",
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	put("\n");
	put_xattrs(path);
	if (S_ISLNK(st.st_mode)) {
		len = readlink(path, target, sizeof(target));
		CHECK(len >= 0, "readlink %s: %s", path, strerror(errno));
		put("  -> %.*s\n", (int)len, target);
	}
	if (!S_ISDIR(st.st_mode))
		return;
	n = scandir(path, &list, NULL, alphasort);
	CHECK(n >= 0, "scandir %s: %s", path, strerror(errno));
	for (i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") &&
		    strcmp(list[i]->d_name, "..")) {
			snprintf(sub, sizeof(sub), "%s/%s", path,
				 list[i]->d_name);
			put_tree(sub, sub + strlen(mnt));
		}
		free(list[i]);
	}
	free(list);
}

static void put_file(const char *path, const char *only)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	CHECK(f, "open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!only || strstr(line, only))
			put("%s", line);
	fclose(f);
}

static const char *snapshot(int which)
{
	char stats[256];
	struct statfs sfs;

	snap_out = snap_buf[which];
	snap_len = 0;
	put_tree(mnt, "/");
	CHECK(!statfs(mnt, &sfs), "statfs: %s", strerror(errno));
	put("statfs files=%llu ffree=%llu\n", (unsigned long long)sfs.f_files,
	    (unsigned long long)sfs.f_ffree);
	put_file("/proc/self/mounts", "_demo ");
	/* The object counts lag behind RCU; inodes_live does not. */
	snprintf(stats, sizeof(stats), "/proc/fs/inode_patterns/%s", fstype);
	put_file(stats, "inodes_live:");
	put_file(stats, "xattr_bytes:");
	return snap_out;
}

/* Where two snapshots first differ, for the failure message. */
static void show_difference(const char *a, const char *b)
{
	size_t i = 0, line = 0;

	while (a[i] && a[i] == b[i])
		i++;
	while (i > 0 && a[i - 1] != '\n')
		i--;
	line = i;
	printf("  before: %.*s\n", (int)strcspn(a + line, "\n"), a + line);
	printf("  after:  %.*s\n", (int)strcspn(b + line, "\n"), b + line);
}

/* --- The calls ------------------------------------------------------------ */

static char path_a[512], path_b[512];
static char value[100], value2[300];
static char data[100];

static void make_file(const char *path)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);

	CHECK(fd >= 0, "create %s: %s", path, strerror(errno));
	close(fd);
}

/*
 * An ACL with a named user (which no mode can say, so it is kept): the
 * xattr value of "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---", as
 * <linux/posix_acl_xattr.h> lays it out.
 */
static const struct {
	uint32_t version;
	struct { uint16_t tag, perm; uint32_t id; } e[5];
} acl_value = { 2, { { 0x01, 7, ~0u }, { 0x02, 5, 1001 }, { 0x04, 5, ~0u },
		     { 0x10, 5, ~0u }, { 0x20, 0, ~0u } } };

#define ACL_ACCESS	"system.posix_acl_access"
#define ACL_DEFAULT	"system.posix_acl_default"

/* Empties the work directory: what each attempt starts from. */
static void clear_work(void)
{
	struct dirent *d;
	char path[1024];
	DIR *dir;

	if (call_fd >= 0) {
		close(call_fd);
		call_fd = -1;
	}
	dir = opendir(work);
	CHECK(dir, "opendir %s: %s", work, strerror(errno));
	while ((d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", work, d->d_name);
		if (unlink(path) && errno == EISDIR)
			CHECK(!rmdir(path), "rmdir %s: %s", path,
			      strerror(errno));
	}
	closedir(dir);
	/* And the default ACL setup_default_acl() gives it, if any. */
	CHECK(!removexattr(work, ACL_DEFAULT) || errno == ENODATA ||
	      errno == EOPNOTSUPP, "removexattr %s: %s", work,
	      strerror(errno));
}

static void no_setup(void)
{
}

static void setup_file(void)
{
	make_file(path_a);
}

static void setup_open_file(void)
{
	make_file(path_a);
	call_fd = open(path_a, O_RDWR);
	CHECK(call_fd >= 0, "open %s: %s", path_a, strerror(errno));
}

static void setup_xattr(void)
{
	make_file(path_a);
	CHECK(!setxattr(path_a, "user.failnth", "old", 3, 0),
	      "setxattr: %s", strerror(errno));
}

/* Where the kernel has no ACLs, the calls that need one run without. */
static void setup_default_acl(void)
{
	CHECK(!setxattr(work, ACL_DEFAULT, &acl_value, sizeof(acl_value), 0) ||
	      errno == EOPNOTSUPP, "setxattr %s: %s", ACL_DEFAULT,
	      strerror(errno));
}

static long do_mount(void)
{
	return mount("none", mnt2, fstype, 0, MAX_INODES);
}

static void undo_mount(void)
{
	CHECK(!umount(mnt2), "umount %s: %s", mnt2, strerror(errno));
}

static long do_remount(void)
{
	return mount(NULL, mnt, NULL, MS_REMOUNT, "max_inodes=500");
}

static void undo_remount(void)
{
	CHECK(!mount(NULL, mnt, NULL, MS_REMOUNT, MAX_INODES),
	      "remount back: %s", strerror(errno));
}

static long do_create(void)
{
	int fd = open(path_a, O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (fd >= 0)
		call_fd = fd;
	return fd;
}

static long do_mkdir(void)
{
	return mkdir(path_a, 0755);
}

static long do_mknod(void)
{
	return mknod(path_a, S_IFCHR | 0600, makedev(1, 3));
}

static long do_symlink(void)
{
	return symlink("a/target/that/does/not/exist", path_a);
}

static long do_link(void)
{
	return link(path_a, path_b);
}

static long do_rename(void)
{
	return rename(path_a, path_b);
}

static long do_setxattr(void)
{
	return setxattr(path_a, "user.failnth", value, sizeof(value),
			XATTR_CREATE);
}

static long do_replacexattr(void)
{
	return setxattr(path_a, "user.failnth", value2, sizeof(value2),
			XATTR_REPLACE);
}

static long do_setacl(void)
{
	return setxattr(path_a, ACL_ACCESS, &acl_value, sizeof(acl_value), 0);
}

static long do_tmpfile(void)
{
	int fd = open(work, O_TMPFILE | O_RDWR, 0600);

	if (fd >= 0)
		call_fd = fd;
	return fd;
}

/* Within one page at an index above 0, so a page and an xarray node. */
static long do_write(void)
{
	ssize_t len = pwrite(call_fd, data, sizeof(data), 8192);

	if (len >= 0 && len != (ssize_t)sizeof(data))
		fail("write: short write of %zd bytes", len);
	return len;
}

/* Three pages past a hole, in a file with none: all three added. */
static long do_fallocate(void)
{
	return fallocate(call_fd, 0, 4096, 3 * 4096);
}

static long do_truncate(void)
{
	return truncate(path_a, 100000);
}

struct call {
	const char *name;
	void (*setup)(void);
	long (*call)(void);
	void (*undo)(void);	/* after success, beyond clear_work() */
	int updates_times;	/* of path_a, even when it fails */
};

static const struct call calls[] = {
	{ "mount",	 no_setup,	  do_mount,	   undo_mount, 0 },
	{ "remount",	 no_setup,	  do_remount,	   undo_remount, 0 },
	{ "create",	 no_setup,	  do_create,	   NULL, 0 },
	{ "mkdir",	 no_setup,	  do_mkdir,	   NULL, 0 },
	{ "mknod",	 no_setup,	  do_mknod,	   NULL, 0 },
	{ "symlink",	 no_setup,	  do_symlink,	   NULL, 0 },
	{ "link",	 setup_file,	  do_link,	   NULL, 0 },
	{ "rename",	 setup_file,	  do_rename,	   NULL, 0 },
	{ "setxattr",	 setup_file,	  do_setxattr,	   NULL, 0 },
	{ "replacexattr", setup_xattr,	  do_replacexattr, NULL, 0 },
	{ "tmpfile",	 no_setup,	  do_tmpfile,	   NULL, 0 },
	/* Under a default ACL, which a new inode's ACLs are copied from. */
	{ "aclcreate",	 setup_default_acl, do_create,	   NULL, 0 },
	{ "aclmkdir",	 setup_default_acl, do_mkdir,	   NULL, 0 },
	{ "setacl",	 setup_file,	  do_setacl,	   NULL, 0 },
	{ "write",	 setup_open_file, do_write,	   NULL, 1 },
	{ "truncate",	 setup_file,	  do_truncate,	   NULL, 0 },
	{ "fallocate",	 setup_open_file, do_fallocate,	   NULL, 0 },
};

/*
 * Runs one call with its 1st, 2nd, ... fault point failing. An absorbed
 * fault is tried once more at the same N: it may have been an allocation
 * that happens only now and then (KASAN's stack depot refilling itself,
 * with __GFP_NOWARN), which would otherwise shift the call's own N-th
 * point out of reach.
 */
static int run_call(const struct call *c)
{
	int n, err, failed = 0, absorbed = 0, retried = 0;
	const char *before, *after;
	long ret;

	times_may_change = c->updates_times ? path_a : NULL;
	for (n = 1; n <= MAX_POINTS; n++) {
		clear_work();
		c->setup();
		before = snapshot(0);
		arm(n);
		ret = c->call();
		err = errno;
		if (!disarm()) {
			/* No fault left to inject: the call ran clean. */
			CHECK(ret >= 0, "%s failed without an injected fault: %s",
			      c->name, strerror(err));
			if (c->undo)
				c->undo();
			break;
		}
		if (ret >= 0) {
			absorbed++;
			if (c->undo)
				c->undo();
			if (retried != n) {
				retried = n;
				n--;
			}
			continue;
		}
		failed++;
		CHECK(err == ENOMEM, "%s with fault point %d failed with %s, not ENOMEM",
		      c->name, n, strerror(err));
		after = snapshot(1);
		if (strcmp(before, after)) {
			show_difference(before, after);
			fail("%s with fault point %d failed but changed what is visible",
			     c->name, n);
		}
	}
	CHECK(n <= MAX_POINTS, "%s still faulting after %d fault points",
	      c->name, MAX_POINTS);
	clear_work();
	printf("FAILNTH %s %s %s %d %d %d\n", fstype, pass, c->name, n - 1,
	       failed, absorbed);
	fflush(stdout);
	return n - 1;
}

int main(int argc, char **argv)
{
	int total = 0;
	size_t i;

	if (argc != 4) {
		fprintf(stderr, "usage: failnth FSTYPE DIR slab|page\n");
		return 2;
	}
	fstype = argv[1];
	pass = argv[3];
	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * A page fault of ours while armed would take the injected failure
	 * (and could OOM-kill us): have every page present from the start.
	 */
	CHECK(!mlockall(MCL_CURRENT | MCL_FUTURE), "mlockall: %s",
	      strerror(errno));
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	CHECK(nth_fd >= 0, "open /proc/thread-self/fail-nth: %s",
	      strerror(errno));

	snprintf(mnt, sizeof(mnt), "%s/mnt", argv[2]);
	snprintf(mnt2, sizeof(mnt2), "%s/mnt2", argv[2]);
	snprintf(work, sizeof(work), "%s/work", mnt);
	snprintf(path_a, sizeof(path_a), "%s/a", work);
	snprintf(path_b, sizeof(path_b), "%s/b", work);
	memset(value, 'v', sizeof(value));
	memset(value2, 'w', sizeof(value2));
	memset(data, 'd', sizeof(data));
	mkdir(mnt, 0755);
	mkdir(mnt2, 0755);
	CHECK(!mount("none", mnt, fstype, 0, MAX_INODES), "mount %s: %s",
	      fstype, strerror(errno));
	CHECK(!mkdir(work, 0755), "mkdir %s: %s", work, strerror(errno));

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		total += run_call(&calls[i]);

	CHECK(!rmdir(work), "rmdir %s: %s", work, strerror(errno));
	CHECK(!umount(mnt), "umount %s: %s", mnt, strerror(errno));
	printf("failnth: %s %s: %d fault points over %zu calls\n", fstype,
	       pass, total, sizeof(calls) / sizeof(calls[0]));
	return 0;
}
