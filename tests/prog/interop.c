// SPDX-License-Identifier: GPL-2.0
/*
 * interop - what the rest of the kernel expects of a filesystem, checked
 * against tmpfs (tests/guest/45-interop.sh); file handles and fanotify
 * are handles.c's.
 *
 *	interop WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs> (and a
 * second and a small mount beside it), and checks, each by name (see
 * tap-ref.h for how results are compared with tmpfs):
 *
 *  xattr:     security.* kept in memory: set, get, list, replace, remove;
 *             security.capability (a VFS_CAP_REVISION_2 struct vfs_cap_data,
 *             as setcap writes it) reads back, and a write to the file
 *             removes it; ours bound security.* by max_xattr_bytes;
 *  statfs:    f_fsid non-zero, one per mount; no blocks in use on an empty
 *             mount; after 1 MiB, 256 4K blocks fewer free (blocks.c checks
 *             block accounting further); f_files and f_ffree follow the
 *             inode limit;
 *  whiteout:  renameat2(RENAME_WHITEOUT) leaves a 0/0 character device,
 *             which takes an inode under the limit (ENOSPC when none is
 *             left, nothing renamed);
 *  initsec:   security_inode_init_security() is called as often as on tmpfs
 *             by create, mkdir, mknod, symlink, O_TMPFILE and the whiteout
 *             of RENAME_WHITEOUT, and not by link or rename (counted with
 *             ftrace's function tracer; skipped without one);
 *  stats:     /proc/fs/inode_patterns/<fs> is 0400, as /proc/slabinfo.
 *
 * Exit status: 0, 1 if a check failed, 4 (KSFT_SKIP) if every check was
 * skipped (the reasons go to $IPAT_SKIP_FILE), 2 if the test could not go
 * on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "tap-files.h"

#define NINODES		1000	/* the main mounts' inode limit */
#define NSMALL		4	/* the small mount's */
#define XATTR_LIMIT	1024	/* ours: max_xattr_bytes of the small mount */

static const char *workdir;
static char mp[PATH_MAX], mp2[PATH_MAX], mps[PATH_MAX];

/* WORKDIR/<fs><suffix>, made and mounted with the inode limit @inodes. */
static void do_mount(char *buf, const char *suffix, long inodes,
		     const char *extra)
{
	char opts[128];

	snprintf(buf, PATH_MAX, "%s/%s%s", workdir, cur_fs, suffix);
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		fatal(buf);
	snprintf(opts, sizeof(opts), "%s=%ld%s%s",
		 is_tmpfs ? "nr_inodes" : "max_inodes", inodes,
		 extra ? "," : "", extra ? extra : "");
	if (mount("none", buf, cur_fs, 0, opts) < 0)
		fatal(buf);
}

static void do_umount(const char *path)
{
	if (umount(path) < 0)
		fatal(path);
}

static struct statfs sfs(const char *path)
{
	struct statfs s;

	if (statfs(path, &s) < 0)
		fatal(path);
	return s;
}

static bool same_fsid(fsid_t a, fsid_t b)
{
	return a.__val[0] == b.__val[0] && a.__val[1] == b.__val[1];
}

/* ---- security.* extended attributes ---- */

static void check_xattrs(void)
{
	const char *f = at(mp, "x"), *d = at(mp, "xd");
	struct vfs_cap_data cap = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
		.data = { { .permitted = 1u << CAP_NET_RAW } },
	};
	char buf[256], list[256];
	ssize_t n;
	long r;
	int fd;

	check("xattr: create a file", new_file(f, "data"), 0, 0);
	check("xattr: setxattr security.ipat succeeds",
	      sys(setxattr(f, "security.ipat", "label", 5, 0)), 0, 0);
	n = getxattr(f, "security.ipat", buf, sizeof(buf) - 1);
	check("xattr: getxattr security.ipat gives its 5 bytes", sys(n), 5,
	      R_NUM);
	buf[n > 0 ? n : 0] = 0;
	check_str("xattr: security.ipat reads back 'label'", buf, "label");
	n = listxattr(f, list, sizeof(list));
	for (ssize_t i = 0; i + 1 < n; i++)
		if (!list[i])
			list[i] = ',';
	list[n > 0 ? n - 1 : 0] = 0;
	check_str("xattr: listxattr lists security.ipat", list,
		  "security.ipat");
	check("xattr: security.ipat with XATTR_CREATE again: EEXIST",
	      sys(setxattr(f, "security.ipat", "x", 1, XATTR_CREATE)),
	      -EEXIST, 0);
	check("xattr: security.ipat replaced by a 3-byte value",
	      sys(setxattr(f, "security.ipat", "new", 3, XATTR_REPLACE)), 0,
	      0);
	check("xattr: getxattr gives the new 3 bytes",
	      sys(getxattr(f, "security.ipat", buf, sizeof(buf))), 3, R_NUM);
	check("xattr: removexattr security.ipat succeeds",
	      sys(removexattr(f, "security.ipat")), 0, 0);
	check("xattr: security.ipat is gone: ENODATA",
	      sys(getxattr(f, "security.ipat", buf, sizeof(buf))), -ENODATA,
	      0);
	check("xattr: removexattr security.ipat again: ENODATA",
	      sys(removexattr(f, "security.ipat")), -ENODATA, 0);
	check("xattr: security.ipat on a directory",
	      sys(mkdir(d, 0755)) ?: sys(setxattr(d, "security.ipat", "d", 1,
						   0)), 0, 0);

	check("xattr: setxattr security.capability (setcap cap_net_raw+ep)",
	      sys(setxattr(f, "security.capability", &cap, XATTR_CAPS_SZ_2,
			   0)), 0, 0);
	memset(buf, 0, sizeof(buf));
	check("xattr: security.capability reads back its 20 bytes",
	      sys(getxattr(f, "security.capability", buf, sizeof(buf))),
	      XATTR_CAPS_SZ_2, R_NUM);
	check("xattr: security.capability reads back what was set",
	      !memcmp(buf, &cap, XATTR_CAPS_SZ_2), 1, R_NUM);
	fd = open(f, O_WRONLY | O_APPEND);
	r = fd < 0 ? -errno : sys(write(fd, "!", 1));
	if (fd >= 0)
		close(fd);
	check("xattr: root writes a byte to the file", r, 1, R_NUM);
	check("xattr: the write removed security.capability: ENODATA",
	      sys(getxattr(f, "security.capability", buf, sizeof(buf))),
	      -ENODATA, 0);
}

/* Ours only: security.* counts against max_xattr_bytes like trusted.*. */
static void check_xattr_limit(void)
{
	char big[XATTR_LIMIT + 1];
	const char *f;

	if (is_tmpfs)
		return;
	memset(big, 'v', sizeof(big));
	do_mount(mps, "-small", NINODES, "max_xattr_bytes=1024");
	f = at(mps, "f");
	check("xattr: create a file under max_xattr_bytes=1024",
	      new_file(f, NULL), 0, R_NOREF);
	check("xattr: a 1025-byte trusted.* value past max_xattr_bytes: ENOSPC",
	      sys(setxattr(f, "trusted.big", big, sizeof(big), 0)), -ENOSPC,
	      R_NOREF);
	check("xattr: a 1025-byte security.* value past max_xattr_bytes: ENOSPC",
	      sys(setxattr(f, "security.big", big, sizeof(big), 0)), -ENOSPC,
	      R_NOREF);
	check("xattr: a 512-byte security.* value fits",
	      sys(setxattr(f, "security.a", big, 512, 0)), 0, R_NOREF);
	check("xattr: a second 512-byte security.* value does not: ENOSPC",
	      sys(setxattr(f, "security.b", big, 512, 0)), -ENOSPC, R_NOREF);
	check("xattr: removing the first makes room for it",
	      sys(removexattr(f, "security.a")) ?:
	      sys(setxattr(f, "security.b", big, 512, 0)), 0, R_NOREF);
	do_umount(mps);
}

/* ---- statfs ---- */

static void check_statfs(void)
{
	struct statfs s0, s1, s2;
	char mib[4096];
	int fd;

	s0 = sfs(mp);
	check("statfs: f_fsid is not 0",
	      s0.f_fsid.__val[0] || s0.f_fsid.__val[1], 1, R_NUM);
	check("statfs: f_bsize is 4096", s0.f_bsize, 4096, R_NUM);
	check("statfs: an empty mount has no block in use (f_blocks - f_bfree)",
	      (long)(s0.f_blocks - s0.f_bfree), 0, R_SIGNED);
	check("statfs: f_files is the inode limit", s0.f_files, NINODES,
	      R_NUM);
	check("statfs: f_ffree of an empty mount is the limit less the root",
	      s0.f_ffree, NINODES - 1, R_NUM);
	if (mkdir(at(mp, "sd"), 0755) < 0 || new_file(at(mp, "sd/f"), "x"))
		fatal("mkdir sd, create sd/f");
	s1 = sfs(at(mp, "sd/f"));
	check("statfs: a file and the root give the same f_fsid",
	      same_fsid(s0.f_fsid, s1.f_fsid), 1, R_NUM);
	check("statfs: two new inodes take 2 of f_ffree",
	      (long)(s0.f_ffree - s1.f_ffree), 2, R_SIGNED);
	do_mount(mp2, "-2", NINODES, NULL);
	s2 = sfs(mp2);
	check("statfs: a second mount of the type has another f_fsid",
	      !same_fsid(s0.f_fsid, s2.f_fsid), 1, R_NUM);
	check("statfs: ... and it is not 0",
	      s2.f_fsid.__val[0] || s2.f_fsid.__val[1], 1, R_NUM);
	do_umount(mp2);

	memset(mib, 'm', sizeof(mib));
	s0 = sfs(mp);
	fd = open(at(mp, "mib"), O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		fatal("create mib");
	for (int i = 0; i < 256; i++)
		if (write(fd, mib, sizeof(mib)) != sizeof(mib))
			fatal("write mib");
	close(fd);
	s1 = sfs(mp);
	/* Block accounting as tmpfs's (tests/prog/blocks.c checks more). */
	check("statfs: 1 MiB written: 256 4K blocks fewer free",
	      (long)(s0.f_bfree - s1.f_bfree) * s1.f_bsize / 4096, 256,
	      R_SIGNED);
	check("statfs: 1 MiB written: f_bavail is f_bfree",
	      s1.f_bavail == s1.f_bfree, 1, R_NUM);
	check("statfs: 1 MiB written: f_blocks unchanged",
	      s1.f_blocks == s0.f_blocks, 1, R_NUM);
	check("statfs: 1 MiB written: f_ffree one lower",
	      (long)(s0.f_ffree - s1.f_ffree), 1, R_SIGNED);
	check("statfs: f_files unchanged", s1.f_files, s0.f_files, R_NUM);
}

/* ---- RENAME_WHITEOUT ---- */

static void check_whiteout(void)
{
	const char *a = at(mp, "wa"), *b = at(mp, "wb");
	struct statfs s0, s1;
	struct stat st;
	long ino, r;
	int n;

	if (new_file(a, "content"))
		fatal("create wa");
	ino = ino_of(a);
	s0 = sfs(mp);
	check("whiteout: renameat2(RENAME_WHITEOUT) succeeds",
	      sys(renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_WHITEOUT)), 0, 0);
	s1 = sfs(mp);
	r = sys(lstat(a, &st));
	check("whiteout: the old name is left", r, 0, 0);
	if (r)
		memset(&st, 0, sizeof(st));
	check("whiteout: it is a character device", S_ISCHR(st.st_mode), 1,
	      R_NUM);
	check("whiteout: its device is 0/0", st.st_rdev, makedev(0, 0),
	      R_HEX);
	check("whiteout: its mode is 020000", st.st_mode, S_IFCHR | 0, R_OCT);
	check("whiteout: it is owned by root:root", st.st_uid | st.st_gid, 0,
	      R_NUM);
	check("whiteout: it has one link", st.st_nlink, 1, R_NUM);
	check("whiteout: the new name is the file renamed", ino_of(b) == ino,
	      1, R_NUM);
	check("whiteout: it took an inode: f_ffree one lower",
	      s0.f_ffree == s1.f_ffree + 1, 1, R_NUM);
	check("whiteout: it unlinks", sys(unlink(a)), 0, 0);
	check("whiteout: ... and gives its inode back (f_ffree as before)",
	      sfs(mp).f_ffree == s0.f_ffree, 1, R_NUM);

	check("whiteout: onto an existing name: succeeds",
	      new_file(a, "2") ?: sys(renameat2(AT_FDCWD, a, AT_FDCWD, b,
						RENAME_WHITEOUT)), 0, 0);
	check("whiteout: ... and leaves a whiteout",
	      sys(lstat(a, &st)) ?: (long)S_ISCHR(st.st_mode), 1, R_NUM);
	check("whiteout: with RENAME_NOREPLACE onto an existing name: EEXIST",
	      new_file(at(mp, "wc"), NULL) ?:
	      sys(renameat2(AT_FDCWD, at(mp, "wc"), AT_FDCWD, b,
			    RENAME_WHITEOUT | RENAME_NOREPLACE)), -EEXIST, 0);
	check("whiteout: with RENAME_EXCHANGE: EINVAL",
	      sys(renameat2(AT_FDCWD, at(mp, "wc"), AT_FDCWD, b,
			    RENAME_WHITEOUT | RENAME_EXCHANGE)), -EINVAL, 0);
	check("whiteout: of a directory succeeds",
	      sys(mkdir(at(mp, "wd"), 0755)) ?:
	      sys(renameat2(AT_FDCWD, at(mp, "wd"), AT_FDCWD, at(mp, "wd2"),
			    RENAME_WHITEOUT)), 0, 0);
	check("whiteout: ... and leaves a character device",
	      sys(lstat(at(mp, "wd"), &st)) ?: (long)S_ISCHR(st.st_mode), 1,
	      R_NUM);

	/* with no inode left under the limit */
	do_mount(mps, "-small", NSMALL, NULL);
	for (n = 0; n < NSMALL + 2; n++) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", n);
		if (new_file(at(mps, name), NULL))
			break;
	}
	check("whiteout: files until the small mount is full", n, NSMALL - 1,
	      R_NUM);
	check("whiteout: with no inode left: ENOSPC",
	      sys(renameat2(AT_FDCWD, at(mps, "f0"), AT_FDCWD, at(mps, "g"),
			    RENAME_WHITEOUT)), -ENOSPC, 0);
	check("whiteout: ... and nothing renamed",
	      ino_of(at(mps, "f0")) > 0 && ino_of(at(mps, "g")) == -ENOENT, 1,
	      R_NUM);
	check("whiteout: with one inode freed, it succeeds",
	      sys(unlink(at(mps, "f1"))) ?:
	      sys(renameat2(AT_FDCWD, at(mps, "f0"), AT_FDCWD, at(mps, "g"),
			    RENAME_WHITEOUT)), 0, 0);
	check("whiteout: ... and the mount is full again (f_ffree 0)",
	      sfs(mps).f_ffree, 0, R_NUM);
	do_umount(mps);
}

/* ---- security_inode_init_security(), counted with ftrace ---- */

#define TRACEFS "/sys/kernel/tracing"
#define HOOK "security_inode_init_security"

static const char *trace_skip;

static int put_file(const char *file, const char *text, int flags)
{
	int fd = open(at(TRACEFS, file), O_WRONLY | flags);
	ssize_t len = strlen(text);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != len)
		err = -errno;
	close(fd);
	return err;
}

/* Set up the function tracer on HOOK, for this process; or say why not. */
static void trace_setup(void)
{
	char pid[16], tracers[256] = "";
	int fd;

	if (access(TRACEFS "/trace", F_OK) &&
	    mount("nodev", TRACEFS, "tracefs", 0, NULL) < 0) {
		trace_skip = "no tracefs in this kernel (CONFIG_FTRACE)";
		return;
	}
	fd = open(TRACEFS "/available_tracers", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, tracers, sizeof(tracers) - 1) < 0)
			tracers[0] = 0;
		close(fd);
	}
	if (!strstr(tracers, "function")) {
		trace_skip = "no function tracer in this kernel (CONFIG_FUNCTION_TRACER)";
		return;
	}
	if (put_file("set_ftrace_filter", HOOK, O_TRUNC)) {
		trace_skip = "the function tracer cannot trace " HOOK
			     " (CONFIG_SECURITY off, or not traceable)";
		return;
	}
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (put_file("tracing_on", "0", 0) || put_file("set_ftrace_pid", pid, O_TRUNC) ||
	    put_file("current_tracer", "function", 0))
		fatal("set up the function tracer");
}

static void trace_restore(void)
{
	if (trace_skip)
		return;
	put_file("tracing_on", "0", 0);
	put_file("current_tracer", "nop", 0);
	put_file("set_ftrace_pid", "", O_TRUNC);
	put_file("set_ftrace_filter", "", O_TRUNC);
}

/* How often this process called HOOK while running @op; -errno of @op. */
static long count_calls(long (*op)(void))
{
	char line[512];
	long r, n = 0;
	FILE *f;

	if (put_file("trace", "", O_TRUNC) || put_file("tracing_on", "1", 0))
		fatal("start tracing");
	r = op();
	if (put_file("tracing_on", "0", 0))
		fatal("stop tracing");
	if (r < 0)
		return r;
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		fatal("read " TRACEFS "/trace");
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, " " HOOK " <-"))
			n++;
	fclose(f);
	return n;
}

static long op_create(void) { return new_file(at(mp, "t-file"), NULL); }
static long op_mkdir(void) { return sys(mkdir(at(mp, "t-dir"), 0755)); }
static long op_mknod(void)
{
	return sys(mknod(at(mp, "t-fifo"), S_IFIFO | 0644, 0));
}

static long op_symlink(void) { return sys(symlink("x", at(mp, "t-sym"))); }
static long op_tmpfile(void)
{
	int fd = open(mp, O_TMPFILE | O_RDWR, 0600);

	return fd < 0 ? -errno : close(fd);
}

static long op_whiteout(void)
{
	return sys(renameat2(AT_FDCWD, at(mp, "t-file"), AT_FDCWD,
			     at(mp, "t-moved"), RENAME_WHITEOUT));
}

static long op_link(void)
{
	return sys(link(at(mp, "t-fifo"), at(mp, "t-link")));
}

static long op_rename(void)
{
	return sys(rename(at(mp, "t-link"), at(mp, "t-renamed")));
}

static void check_init_security(void)
{
	static const struct {
		const char *what;
		long (*op)(void);
		long want;
	} ops[] = {
		{ "initsec: create calls " HOOK " once", op_create, 1 },
		{ "initsec: mkdir calls it once", op_mkdir, 1 },
		{ "initsec: mknod (a fifo) calls it once", op_mknod, 1 },
		{ "initsec: symlink calls it once", op_symlink, 1 },
		{ "initsec: O_TMPFILE calls it once", op_tmpfile, 1 },
		{ "initsec: RENAME_WHITEOUT calls it once (the whiteout)",
		  op_whiteout, 1 },
		{ "initsec: link does not call it", op_link, 0 },
		{ "initsec: rename does not call it", op_rename, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		if (trace_skip)
			skip_check(ops[i].what, trace_skip);
		else
			check(ops[i].what, count_calls(ops[i].op), ops[i].want,
			      R_NUM);
	}
}

/* ---- the statistics file ---- */

static void check_stats_file(void)
{
	char path[128];
	struct stat st;
	pid_t pid;
	int status;

	if (is_tmpfs)
		return;
	snprintf(path, sizeof(path), "/proc/fs/inode_patterns/%s", cur_fs);
	check("stats: the statistics file is mode 0400, as /proc/slabinfo",
	      sys(stat(path, &st)) ?: (long)(st.st_mode & 07777), 0400,
	      R_OCT | R_NOREF);
	check("stats: ... owned by root", st.st_uid, 0, R_NUM | R_NOREF);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (!pid) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(100);
		_exit(open(path, O_RDONLY) < 0 ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		fatal("waitpid");
	check("stats: uid 65534 cannot read it: EACCES", -WEXITSTATUS(status),
	      -EACCES, R_NOREF);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: interop WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	trace_setup();
	while (tap_next_fs(argc, argv)) {
		do_mount(mp, "", NINODES, NULL);
		check_statfs();
		check_xattrs();
		check_xattr_limit();
		check_whiteout();
		check_init_security();
		check_stats_file();
		do_umount(mp);
	}
	trace_restore();
	return tap_finish("interop");
}
