// SPDX-License-Identifier: GPL-2.0
/*
 * idmap - idmapped mounts, checked against tmpfs.
 *
 *	idmap WORKDIR FSTYPE...
 *
 * The three filesystems allow idmapped mounts where tmpfs does (Linux 6.3
 * on), and pass the mount's idmapping to the VFS helpers that need it. This
 * program mounts tmpfs, the reference, and then every FSTYPE at
 * WORKDIR/<fs>, and makes an idmapped copy of that mount at
 * WORKDIR/<fs>-idmapped: open_tree(OPEN_TREE_CLONE), mount_setattr() with
 * MOUNT_ATTR_IDMAP and a user namespace that maps ids 0-999 to
 * 10000-10999, move_mount(). Through the copy, on-disk id n is seen as
 * 10000 + n, and an on-disk id outside 0-999 as the overflow id 65534.
 * It then checks, as root and as users that have dropped every capability:
 *
 *  a) a file created through the idmapped mount by fsuid/fsgid 10005/10006
 *     is owned by 5:6 on disk (seen through the plain mount) and shows
 *     10005:10006 through the idmapped one; a caller without a mapping
 *     (root, uid 20000) cannot create there (EOVERFLOW);
 *  b) stat through the idmapped mount maps on-disk owners, and shows an
 *     unmapped one as 65534;
 *  c) permission checks follow the mapping: uid 10005 may write its 0600
 *     file through the idmapped mount but not through the plain one, and
 *     uid 5 the other way round; the same for a group; chmod and chown
 *     through the idmapped mount, by the owner and by root;
 *  d) user.* xattrs set through the idmapped mount by the mapped owner;
 *  e) mkdir, symlink, mknod (fifo) and O_TMPFILE through the idmapped mount
 *     give the mapped owner, and a setgid directory hands down its group.
 *
 * Every expected value is written down here, and each of ours must also
 * give what tmpfs gave, so the two cannot agree on a wrong answer. The
 * first failure ends the program with a "FAIL <fs>: ..." line (exit 1).
 *
 * A kernel whose tmpfs refuses idmapped mounts (before 6.3) has nothing to
 * compare against: the program then checks that ours refuse them with the
 * same errno, prints "SKIP: <reason>", writes the reason to the file
 * $IPAT_SKIP_FILE names (when set) and exits 4 (KSFT_SKIP).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "idmapped.h"
#include "ipat-test.h"

/* The user namespace's mapping: ids 0..RANGE-1 are BASE.. outside. */
#define BASE		10000
#define RANGE		1000
#define ID(n)		(BASE + (n))
#define OVERFLOW_ID	65534	/* /proc/sys/kernel/overflow{u,g}id */
#define FAR		20000	/* an id outside the mapping */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *workdir, *cur_fs;
static bool is_tmpfs;
static int nchecks;
static char plain_mp[1024], idmap_mp[1024];
static bool plain_up, idmap_up;	/* what to unmount on a failure */
static pid_t main_pid;

/* ---- results, and what tmpfs said for the same check ---- */

enum kind { K_ERR, K_ID, K_MODE };

static struct {
	char what[128];
	long got;
} ref[128];
static int nref;

static const long *ref_lookup(const char *what)
{
	for (int i = 0; i < nref; i++)
		if (!strcmp(ref[i].what, what))
			return &ref[i].got;
	return NULL;
}

/* Results are values (ids, modes) or -errno; 0 is success for K_ERR. */
static const char *show(long v, enum kind k, char *buf, size_t len)
{
	const char *name;

	if (v < 0) {
		name = strerrorname_np(-v);
		snprintf(buf, len, "%s", name ? name : "an unknown error");
	} else if (k == K_ERR) {
		snprintf(buf, len, v ? "%ld" : "success", v);
	} else {
		snprintf(buf, len, k == K_MODE ? "0%lo" : "%ld", v);
	}
	return buf;
}

/* On tmpfs, record; on ours, the result must also be what tmpfs gave. */
static void check(const char *what, long got, long want, enum kind k)
{
	char b1[32], b2[32], b3[32];
	const long *r = NULL;

	if (is_tmpfs) {
		/* names are keys: a repeated or cut one is a bug here */
		if (nref == (int)ARRAY_SIZE(ref) ||
		    ref_lookup(what) || strlen(what) >= sizeof(ref[0].what))
			die(0, "'%s' is not a unique key", what);
		snprintf(ref[nref].what, sizeof(ref[nref].what), "%s", what);
		ref[nref++].got = got;
	} else {
		r = ref_lookup(what);
	}
	if (got != want)
		die(0, "%s: got %s, want %s%s%s", what, show(got, k, b1, 32),
		    show(want, k, b2, 32), r ? ", tmpfs gave " : "",
		    r ? show(*r, k, b3, 32) : "");
	if (!is_tmpfs && !r)
		die(0, "%s: tmpfs never ran this check", what);
	if (!is_tmpfs && *r != got)
		die(0, "%s: got %s, but tmpfs gave %s", what,
		    show(got, k, b1, 32), show(*r, k, b3, 32));
	nchecks++;
	printf("ok   %s: %s: %s\n", cur_fs, what, show(got, k, b1, 32));
}

/* ---- paths and small helpers, which return a value or -errno ---- */

static const char *at(const char *mp, const char *name)
{
	static char ring[8][PATH_MAX];
	static unsigned int n;
	char *buf = ring[n++ % 8];
	int len = snprintf(buf, PATH_MAX, "%s/%s", mp, name);

	CHECK(len > 0 && len < PATH_MAX, "path too long: %s/%s", mp, name);
	return buf;
}

/* NAME through the plain mount, and through the idmapped one. */
#define P(name)	at(plain_mp, name)
#define I(name)	at(idmap_mp, name)

static long sys(long ret)
{
	return ret < 0 ? -errno : ret;
}

enum field { UID, GID, MODE };

static long field(const char *path, enum field f)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return -errno;
	return f == UID ? (long)st.st_uid :
	       f == GID ? (long)st.st_gid : (long)(st.st_mode & 07777);
}

static long new_file(const char *path, mode_t mode)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, mode);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static long open_close(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* A file made by root through the plain mount, with on-disk owner. */
static void fixture(const char *name, mode_t mode, uid_t uid, gid_t gid)
{
	const char *path = P(name);

	if (S_ISDIR(mode))
		CHECK_SYS(mkdir(path, 0700) == 0, "mkdir %s", path);
	else
		CHECK_SYS(new_file(path, 0600) == 0, "create %s", path);
	CHECK_SYS(chown(path, uid, gid) == 0, "chown %s", path);
	CHECK_SYS(chmod(path, mode & 07777) == 0, "chmod %s", path);
}

/*
 * O_TMPFILE in DIR, linked in as NAME afterwards (through /proc, which
 * needs no capability); returns the owner fstat() saw before the link.
 */
static long tmpfile_owner(const char *dir, const char *name)
{
	char proc[64];
	struct stat st;
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);

	if (fd < 0)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (fstat(fd, &st) < 0 ||
	    linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	close(fd);
	return st.st_uid;
}

/* ---- running one call as another user ---- */

static int res[2];

/*
 * Fork; the child becomes uid/gid (root stays root), with no other groups
 * and, for any uid but 0, no capabilities left, and gets 0 back.
 */
static pid_t start_as(uid_t uid, gid_t gid)
{
	pid_t pid;

	CHECK_SYS(pipe(res) == 0, "pipe");
	fflush(stdout);
	pid = fork();
	CHECK_SYS(pid >= 0, "fork");
	if (pid) {
		close(res[1]);
		return pid;
	}
	close(res[0]);
	if (uid || gid) {
		CHECK_SYS(setgroups(0, NULL) == 0 &&
			  setresgid(gid, gid, gid) == 0 &&
			  setresuid(uid, uid, uid) == 0,
			  "become %u:%u", uid, gid);
		/* leaving uid 0 cleared every capability: prove it */
		CHECK(setuid(0) < 0 && geteuid() == uid && getegid() == gid,
		      "still privileged as %u:%u", uid, gid);
	}
	umask(0);
	return 0;
}

static void __attribute__((noreturn)) finish_as(long r)
{
	if (write(res[1], &r, sizeof(r)) != sizeof(r))
		_exit(3);
	_exit(0);
}

static long wait_as(pid_t pid, const char *what)
{
	ssize_t n;
	int status;
	long r;

	n = read(res[0], &r, sizeof(r));
	close(res[0]);
	CHECK_SYS(waitpid(pid, &status, 0) == pid, "waitpid");
	CHECK(n == sizeof(r) && WIFEXITED(status) && !WEXITSTATUS(status),
	      "%s: the child died (wait status 0x%x)", what, status);
	return r;
}

/* EXPR evaluated by a child running as UID:GID; a value or -errno. */
#define AS(uid, gid, what, expr) ({				\
	pid_t pid_ = start_as(uid, gid);			\
	if (!pid_)						\
		finish_as(expr);				\
	wait_as(pid_, what);					\
})

/* ---- the user namespace and the mounts ---- */

/*
 * Mount FS at WORKDIR/FS and an idmapped copy at WORKDIR/FS-idmapped.
 * Returns 0, or -errno from mount_setattr(), with only the plain mount
 * left (the refused copy goes with its fd).
 */
static int mount_both(const char *fs, int userns)
{
	int err;

	cur_fs = fs;
	fail_who = fs;
	is_tmpfs = !strcmp(fs, "tmpfs");
	snprintf(plain_mp, sizeof(plain_mp), "%s/%s", workdir, fs);
	snprintf(idmap_mp, sizeof(idmap_mp), "%s/%s-idmapped", workdir,
		 fs);
	CHECK_SYS(mkdir(plain_mp, 0755) == 0 || errno == EEXIST, "mkdir %s",
		  plain_mp);
	CHECK_SYS(mkdir(idmap_mp, 0755) == 0 || errno == EEXIST, "mkdir %s",
		  idmap_mp);
	CHECK_SYS(mount("none", plain_mp, fs, 0, "mode=0777,uid=0,gid=0") == 0,
		  "mount -t %s %s", fs, plain_mp);
	plain_up = true;

	err = idmapped_copy(plain_mp, idmap_mp, userns);
	CHECK_SYS(err >= 0, "%s, from %s to %s", idmapped_failed, plain_mp,
		  idmap_mp);
	idmap_up = !err;
	return -err;
}

static void umount_both(bool idmapped)
{
	if (idmapped) {
		idmap_up = false;
		CHECK_SYS(umount(idmap_mp) == 0, "umount %s", idmap_mp);
	}
	plain_up = false;
	CHECK_SYS(umount(plain_mp) == 0, "umount %s", plain_mp);
}

/* After a failure (die() exits), the main process unmounts what is up. */
static void umount_at_exit(void)
{
	if (getpid() != main_pid)
		return;
	if (idmap_up && umount(idmap_mp) < 0)
		printf("idmap: umount %s: %s\n", idmap_mp, strerror(errno));
	if (plain_up && umount(plain_mp) < 0)
		printf("idmap: umount %s: %s\n", plain_mp, strerror(errno));
}

/* ---- the checks ---- */

static void check_create(void)
{
	check("root dir, on-disk 0, through the idmapped mount",
	      field(I("."), UID), ID(0), K_ID);

	check("a: create through the idmapped mount as 10005:10006",
	      AS(ID(5), ID(6), "create", new_file(I("a"), 0644)), 0, K_ERR);
	check("a: its on-disk uid", field(P("a"), UID), 5, K_ID);
	check("a: its on-disk gid", field(P("a"), GID), 6, K_ID);
	check("a: its uid through the idmapped mount", field(I("a"), UID),
	      ID(5), K_ID);
	check("a: its gid through the idmapped mount", field(I("a"), GID),
	      ID(6), K_ID);
	check("a: create through the idmapped mount as root (unmapped)",
	      AS(0, 0, "create", new_file(I("a-root"), 0644)), -EOVERFLOW,
	      K_ERR);
	check("a: create through the idmapped mount as 20000 (unmapped)",
	      AS(FAR, FAR, "create", new_file(I("a-far"), 0644)),
	      -EOVERFLOW, K_ERR);
	check("a: create through the plain mount as 10005:10006",
	      AS(ID(5), ID(6), "create", new_file(P("a-plain"), 0644)), 0,
	      K_ERR);
	check("a: its on-disk uid, 10005", field(P("a-plain"), UID), ID(5),
	      K_ID);
}

static void check_stat(void)
{
	fixture("b", S_IFREG | 0644, 7, 8);
	fixture("b-far", S_IFREG | 0644, 2000, 3000);
	check("b: on-disk uid 7 through the idmapped mount",
	      field(I("b"), UID), ID(7), K_ID);
	check("b: on-disk gid 8 through the idmapped mount",
	      field(I("b"), GID), ID(8), K_ID);
	check("b: on-disk uid 2000 (unmapped) through the idmapped mount",
	      field(I("b-far"), UID), OVERFLOW_ID, K_ID);
	check("b: on-disk gid 3000 (unmapped) through the idmapped mount",
	      field(I("b-far"), GID), OVERFLOW_ID, K_ID);
	check("b: on-disk uid 10005 (unmapped) through the idmapped mount",
	      field(I("a-plain"), UID), OVERFLOW_ID, K_ID);
}

static void check_permissions(void)
{
	fixture("c", S_IFREG | 0600, 5, 6);
	fixture("c-grp", S_IFREG | 0060, 0, 6);
	fixture("c-g", S_IFREG | 0644, 5, 9);
	fixture("c-r", S_IFREG | 0644, 0, 0);

	check("c: 10005 writes its 0600 file through the idmapped mount",
	      AS(ID(5), ID(6), "write", open_close(I("c"), O_WRONLY)), 0,
	      K_ERR);
	check("c: 10005 writes the same file through the plain mount",
	      AS(ID(5), ID(6), "write", open_close(P("c"), O_WRONLY)),
	      -EACCES, K_ERR);
	check("c: 5 writes its 0600 file through the plain mount",
	      AS(5, 6, "write", open_close(P("c"), O_WRONLY)), 0, K_ERR);
	check("c: 5 writes the same file through the idmapped mount",
	      AS(5, 6, "write", open_close(I("c"), O_WRONLY)), -EACCES,
	      K_ERR);
	check("c: group 10006 writes a 0060 file through the idmapped mount",
	      AS(ID(7), ID(6), "write", open_close(I("c-grp"), O_RDWR)), 0,
	      K_ERR);
	check("c: group 10006 writes it through the plain mount",
	      AS(ID(7), ID(6), "write", open_close(P("c-grp"), O_RDWR)),
	      -EACCES, K_ERR);

	check("c: owner 10005 chmods through the idmapped mount",
	      AS(ID(5), ID(6), "chmod", sys(chmod(I("c"), 0640))), 0, K_ERR);
	check("c: the on-disk mode after chmod", field(P("c"), MODE), 0640, K_MODE);
	check("c: 10005 chmods the same file through the plain mount",
	      AS(ID(5), ID(6), "chmod", sys(chmod(P("c"), 0600))), -EPERM,
	      K_ERR);
	check("c: owner 10005 chgrps to 10006 through the idmapped mount",
	      AS(ID(5), ID(6), "chown", sys(chown(I("c-g"), -1, ID(6)))), 0,
	      K_ERR);
	check("c: the on-disk gid after chgrp", field(P("c-g"), GID), 6, K_ID);
	check("c: owner 10005 gives it away through the idmapped mount",
	      AS(ID(5), ID(6), "chown", sys(chown(I("c-g"), ID(7), -1))),
	      -EPERM, K_ERR);
	check("c: root chowns to 10009:10010 through the idmapped mount",
	      sys(chown(I("c-r"), ID(9), ID(10))), 0, K_ERR);
	check("c: the on-disk uid after root's chown", field(P("c-r"), UID), 9, K_ID);
	check("c: the on-disk gid after root's chown", field(P("c-r"), GID), 10, K_ID);
	check("c: root chowns to 20000 (unmapped) through the idmapped mount",
	      sys(chown(I("c-r"), FAR, -1)), -EOVERFLOW, K_ERR);
	check("c: the on-disk uid is kept", field(P("c-r"), UID), 9, K_ID);
}

static void check_xattrs(void)
{
	char buf[16];
	long n;

	fixture("d", S_IFREG | 0644, 5, 6);
	check("d: owner 10005 sets user.a through the idmapped mount",
	      AS(ID(5), ID(6), "setxattr",
		 sys(setxattr(I("d"), "user.a", "v1", 2, 0))), 0, K_ERR);
	n = sys(getxattr(P("d"), "user.a", buf, sizeof(buf)));
	check("d: user.a's length, read through the plain mount", n, 2, K_ID);
	CHECK(!memcmp(buf, "v1", 2), "d: user.a's value is '%.2s', not 'v1'",
	      buf);
	check("d: 10005 sets user.b through the plain mount",
	      AS(ID(5), ID(6), "setxattr",
		 sys(setxattr(P("d"), "user.b", "v2", 2, 0))), -EACCES, K_ERR);
	check("d: 5 sets user.b through the idmapped mount",
	      AS(5, 6, "setxattr",
		 sys(setxattr(I("d"), "user.b", "v2", 2, 0))), -EACCES, K_ERR);
	check("d: owner 10005 removes user.a through the idmapped mount",
	      AS(ID(5), ID(6), "removexattr",
		 sys(removexattr(I("d"), "user.a"))), 0, K_ERR);
	check("d: user.a is gone",
	      sys(getxattr(P("d"), "user.a", buf, sizeof(buf))), -ENODATA,
	      K_ERR);
}

/* Made through the idmapped mount by 10005:10006: on-disk 5:6. */
static void check_owner(const char *what, const char *name)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "e: %s: on-disk uid", what);
	check(buf, field(P(name), UID), 5, K_ID);
	snprintf(buf, sizeof(buf), "e: %s: on-disk gid", what);
	check(buf, field(P(name), GID), 6, K_ID);
	snprintf(buf, sizeof(buf), "e: %s: uid through the idmapped mount",
		 what);
	check(buf, field(I(name), UID), ID(5), K_ID);
	snprintf(buf, sizeof(buf), "e: %s: gid through the idmapped mount",
		 what);
	check(buf, field(I(name), GID), ID(6), K_ID);
}

static void check_objects(void)
{
	check("e: mkdir through the idmapped mount as 10005:10006",
	      AS(ID(5), ID(6), "mkdir", sys(mkdir(I("e-dir"), 0755))), 0,
	      K_ERR);
	check_owner("mkdir", "e-dir");
	check("e: symlink through the idmapped mount as 10005:10006",
	      AS(ID(5), ID(6), "symlink", sys(symlink("a", I("e-link")))), 0,
	      K_ERR);
	check_owner("symlink", "e-link");
	check("e: mkfifo through the idmapped mount as 10005:10006",
	      AS(ID(5), ID(6), "mknod",
		 sys(mknod(I("e-fifo"), S_IFIFO | 0644, 0))), 0, K_ERR);
	check_owner("mkfifo", "e-fifo");
	check("e: O_TMPFILE through the idmapped mount: fstat uid",
	      AS(ID(5), ID(6), "O_TMPFILE",
		 tmpfile_owner(I("."), I("e-tmp"))), ID(5), K_ID);
	check_owner("O_TMPFILE, linked in", "e-tmp");

	/* a setgid directory of group 8 (10008 through the idmapped mount) */
	fixture("e-sgid", S_IFDIR | 02777, 0, 8);
	check("e: create in a setgid dir through the idmapped mount",
	      AS(ID(5), ID(6), "create", new_file(I("e-sgid/f"), 0644)), 0,
	      K_ERR);
	check("e: its on-disk gid is the dir's", field(P("e-sgid/f"), GID), 8,
	      K_ID);
	check("e: g+s file in it, group not the creator's: bit dropped",
	      AS(ID(5), ID(6), "create", new_file(I("e-sgid/s"), 02755)) ?:
	      field(P("e-sgid/s"), MODE), 0755, K_MODE);
	check("e: mkdir in it inherits setgid",
	      AS(ID(5), ID(6), "mkdir", sys(mkdir(I("e-sgid/d"), 0755))) ?:
	      field(P("e-sgid/d"), MODE), 02755, K_MODE);
}

/* On a filesystem whose two mounts are up; unmounts both. */
static void run_checks(void)
{
	check_create();
	check_stat();
	check_permissions();
	check_xattrs();
	check_objects();
	umount_both(true);
}

/* ---- a kernel whose tmpfs refuses idmapped mounts ---- */

static bool kernel_at_least(int major, int minor, const char **release)
{
	static struct utsname u;
	int a = 0, b = 0;

	CHECK_SYS(uname(&u) == 0, "uname");
	*release = u.release;
	if (sscanf(u.release, "%d.%d", &a, &b) != 2)
		die(0, "cannot read the kernel version '%s'", u.release);
	return a > major || (a == major && b >= minor);
}

static void __attribute__((noreturn))
skip(int err, int argc, char **argv, int userns)
{
	const char *release, *file = getenv("IPAT_SKIP_FILE");
	char reason[256];
	FILE *f;

	if (kernel_at_least(6, 3, &release))
		die(-err, "mount_setattr(MOUNT_ATTR_IDMAP) refused on kernel %s, whose tmpfs has idmapped mounts",
		    release);
	if (err != -EINVAL && err != -ENOSYS)
		die(-err, "mount_setattr(MOUNT_ATTR_IDMAP) failed unexpectedly");
	umount_both(false);
	printf("tmpfs refuses idmapped mounts: %s\n", strerrorname_np(-err));

	/* ours must refuse them too, with the same errno */
	for (int i = 2; i < argc; i++) {
		int e;

		if (!strcmp(argv[i], "tmpfs"))
			continue;
		e = mount_both(argv[i], userns);
		if (!e)
			umount_both(true);
		CHECK(e == err, "idmapped mount: got %s, tmpfs gave %s",
		      e ? strerrorname_np(-e) : "success",
		      strerrorname_np(-err));
		umount_both(false);
		printf("ok   %s: refuses idmapped mounts as tmpfs does: %s\n",
		       argv[i], strerrorname_np(-e));
	}

	if (err == -ENOSYS)
		snprintf(reason, sizeof(reason),
			 "kernel %s has no mount_setattr() (from 5.12), so there are no idmapped mounts to test",
			 release);
	else
		snprintf(reason, sizeof(reason),
			 "kernel %s refuses idmapped mounts of tmpfs (tmpfs has them from 6.3), so there is nothing to compare against",
			 release);
	printf("SKIP: %s\n", reason);
	if (file) {
		f = fopen(file, "w");
		CHECK_SYS(f && fprintf(f, "%s\n", reason) > 0 && !fclose(f),
			  "write %s", file);
	}
	exit(KSFT_SKIP);
}

int main(int argc, char **argv)
{
	int userns, err, nfs = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: idmap WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	fail_who = "idmap";
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	main_pid = getpid();
	CHECK(!atexit(umount_at_exit), "atexit");
	userns = idmapped_userns(BASE, RANGE);
	CHECK_SYS(userns >= 0, "%s", idmapped_failed);

	err = mount_both("tmpfs", userns);
	if (err)
		skip(err, argc, argv, userns);
	run_checks();
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "tmpfs"))
			continue;
		err = mount_both(argv[i], userns);
		CHECK(!err, "mount_setattr(MOUNT_ATTR_IDMAP) refused (%s), where tmpfs allowed it",
		      strerrorname_np(-err));
		run_checks();
		nfs++;
	}
	close(userns);
	fail_who = "idmap";
	printf("idmap: %d checks passed on tmpfs and on each of %d filesystems\n",
	       nchecks / (nfs + 1), nfs);
	return 0;
}
