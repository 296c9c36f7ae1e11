// SPDX-License-Identifier: GPL-2.0
/*
 * limits - the inode limit and the mount options, compared with tmpfs.
 *
 *	limits WORKDIR FSTYPE...
 *
 * Runs the same checks on tmpfs, the reference, and then on every FSTYPE
 * (tmpfs-ref.h): each result must be the one written here and the one
 * tmpfs gave.
 *
 *  - reconfigure: a remount, or an fspick()ed context reconfigured with
 *    fsconfig(), changes max_inodes (nr_inodes on tmpfs) only if it names
 *    it; a context picked before another remount changed the limit must
 *    not put the old limit back, nor fail a remount that asks only for ro;
 *  - /proc/mounts shows mode=, uid= and gid= as mounted, whatever chmod
 *    and chown did to the root directory since;
 *  - links: every new hard link takes an inode slot, as on tmpfs, so
 *    link() on a full mount fails with ENOSPC; unlinking a link and a
 *    rename over a linked file give the slot back, and the first link of
 *    an O_TMPFILE file takes none. statfs()'s f_ffree follows each step;
 *  - xattrs: 5,000 names on one file, each readable, listed once and
 *    removable, as on tmpfs; and, on ours only (tmpfs counts xattrs in its
 *    inode space instead), max_xattr_bytes: ENOSPC past it, exactly where
 *    the statistics file's xattr_bytes says, bytes given back by
 *    removexattr, a smaller value and unlink, remount that changes it only
 *    when named and never below use, /proc/mounts showing it when set,
 *    and not after a memory block went offline (hot-remove: skipped when
 *    none would go).
 *
 * Mount points are made under WORKDIR. Prints one line per check and a
 * closing "limits: N passed, N failed"; exits 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "tmpfs-ref.h"

/* The inode limit's option: tmpfs calls it nr_inodes. */
static const char *lim_opt(void)
{
	return is_tmpfs ? "nr_inodes" : "max_inodes";
}

/* mount(2) of cur_fs with "LIMIT_OPTION=@limit" and then @more, if any. */
static int mount_lim(const char *mp, unsigned long flags, long limit,
		     const char *more)
{
	char data[256];

	snprintf(data, sizeof(data), "%s=%ld%s%s", lim_opt(), limit,
		 more ? "," : "", more ? more : "");
	return err_of(mount("none", mp, cur_fs, flags, data));
}

/* statfs() f_files (@free false) or f_ffree (@free true); -errno. */
static int files(const char *mp, bool free)
{
	struct statvfs st;

	if (statvfs(mp, &st) < 0)
		return -errno;
	return (int)(free ? st.f_ffree : st.f_files);
}

static int do_creat(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int nlink_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -errno : (int)st.st_nlink;
}

static void enter(const char *mp)
{
	if (chdir(mp) < 0)
		die("chdir");
}

/* @flags: F_NOREF for a mount tmpfs does not make. */
static void leave(const char *mp, const char *what, unsigned int flags)
{
	if (chdir("/") < 0)
		die("chdir /");
	check(what, err_of(umount(mp)), 0, flags);
}

/* ---- reconfigure: remount, and fspick() with fsconfig() ---- */

static int reconfigure(int fd)
{
	return err_of(fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0));
}

static void reconfigure_rows(const char *mp)
{
	int early, fd, e = 0;
	char name[16];

	/* A context picked now, reconfigured after a remount grew the limit. */
	if (!check("mount with a limit of 10", mount_lim(mp, 0, 10, NULL), 0,
		   0))
		return;
	early = fspick(AT_FDCWD, mp, FSPICK_CLOEXEC);
	if (early < 0)
		die("fspick");
	check("remount to a limit of 1000", mount_lim(mp, MS_REMOUNT, 1000,
						      NULL), 0, 0);
	check("limit is 1000", files(mp, false), 1000, F_NUM);
	check("bare reconfigure of an fspick from before",
	      reconfigure(early), 0, 0);
	check("bare reconfigure keeps the limit of 1000", files(mp, false),
	      1000, F_NUM);
	close(early);
	check("remount naming no option",
	      err_of(mount("none", mp, cur_fs, MS_REMOUNT, "")), 0, 0);
	check("remount naming no option keeps the limit", files(mp, false),
	      1000, F_NUM);
	leave(mp, "umount after bare reconfigure", 0);

	/* The same, with more in use than the picked context's old limit. */
	if (!check("mount again with a limit of 10",
		   mount_lim(mp, 0, 10, NULL), 0, 0))
		return;
	early = fspick(AT_FDCWD, mp, FSPICK_CLOEXEC);
	if (early < 0)
		die("fspick");
	check("remount again to a limit of 1000",
	      mount_lim(mp, MS_REMOUNT, 1000, NULL), 0, 0);
	enter(mp);
	for (int i = 0; i < 20 && !e; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		e = do_creat(name);
	}
	check("create 20 files under the limit of 1000", e, 0, 0);
	check("fsconfig ro", err_of(fsconfig(early, FSCONFIG_SET_FLAG, "ro",
					     NULL, 0)), 0, 0);
	check("reconfigure to ro from an fspick from before",
	      reconfigure(early), 0, 0);
	check("read-only after reconfigure", do_creat("x"), EROFS, 0);
	check("ro reconfigure keeps the limit of 1000", files(mp, false),
	      1000, F_NUM);
	close(early);

	/* A named limit still applies, and is still checked. */
	fd = fspick(AT_FDCWD, mp, FSPICK_CLOEXEC);
	if (fd < 0)
		die("fspick");
	check("fsconfig rw", err_of(fsconfig(fd, FSCONFIG_SET_FLAG, "rw", NULL,
					     0)), 0, 0);
	check("fsconfig limit of 2000", err_of(fsconfig(fd, FSCONFIG_SET_STRING,
							lim_opt(), "2000",
							0)), 0, 0);
	check("reconfigure to 2000 and rw", reconfigure(fd), 0, 0);
	check("limit is 2000 after fsconfig", files(mp, false), 2000, F_NUM);
	check("writable after rw reconfigure", do_creat("x"), 0, 0);
	close(fd);
	fd = fspick(AT_FDCWD, mp, FSPICK_CLOEXEC);
	if (fd < 0)
		die("fspick");
	check("fsconfig limit of 5", err_of(fsconfig(fd, FSCONFIG_SET_STRING,
						     lim_opt(), "5", 0)), 0, 0);
	check("reconfigure below use", reconfigure(fd), EINVAL, 0);
	check("limit after refused reconfigure", files(mp, false), 2000, F_NUM);
	close(fd);
	leave(mp, "umount after reconfigure", 0);
}

/* ---- /proc/mounts: the options as mounted ---- */

/*
 * The value of option @opt on @mp's line of /proc/mounts (octal for mode),
 * @dflt if the line leaves it out, or -ENOENT without a line.
 */
static int shown(const char *mp, const char *opt, int dflt)
{
	struct mntent *ent;
	int v = -ENOENT;
	char *s;
	FILE *f;

	f = setmntent("/proc/mounts", "r");
	if (!f)
		die("/proc/mounts");
	while ((ent = getmntent(f)))
		if (!strcmp(ent->mnt_dir, mp)) {
			s = hasmntopt(ent, opt);
			v = s ? (int)strtol(s + strlen(opt) + 1, NULL,
					    strcmp(opt, "mode") ? 10 : 8) : dflt;
		}
	endmntent(f);
	return v;
}

/* Each hides its own default mode: tmpfs's is 01777, ours 0755. */
static int shown_mode(const char *mp)
{
	return shown(mp, "mode", is_tmpfs ? 01777 : 0755);
}

static void mounts_rows(const char *mp)
{
	if (!check("mount with mode=0755", mount_lim(mp, 0, 100, "mode=0755"),
		   0, 0))
		return;
	check("chmod 1777 of a mode=0755 root", err_of(chmod(mp, 01777)), 0, 0);
	check("/proc/mounts keeps mode 0755 after chmod", shown_mode(mp), 0755,
	      F_OCT);
	leave(mp, "umount after mode=0755", 0);

	if (!check("mount with mode=0700,uid=1000,gid=1001",
		   mount_lim(mp, 0, 100, "mode=0700,uid=1000,gid=1001"), 0, 0))
		return;
	check("/proc/mounts shows mode 0700", shown_mode(mp), 0700, F_OCT);
	check("chmod 1777 of a mode=0700 root", err_of(chmod(mp, 01777)), 0, 0);
	check("chown 2000:2001 of a uid=1000 root",
	      err_of(chown(mp, 2000, 2001)), 0, 0);
	check("/proc/mounts keeps mode 0700 after chmod", shown_mode(mp), 0700,
	      F_OCT);
	check("/proc/mounts keeps uid 1000 after chown", shown(mp, "uid", 0),
	      1000, F_NUM);
	check("/proc/mounts keeps gid 1001 after chown", shown(mp, "gid", 0),
	      1001, F_NUM);
	check("remount to a limit of 200", mount_lim(mp, MS_REMOUNT, 200, NULL),
	      0, 0);
	check("/proc/mounts keeps mode 0700 after remount", shown_mode(mp),
	      0700, F_OCT);
	check("/proc/mounts keeps uid 1000 after remount", shown(mp, "uid", 0),
	      1000, F_NUM);
	leave(mp, "umount after mode=0700", 0);
}

/* ---- hard links take inode slots ---- */

static void link_rows(const char *mp)
{
	long live = live_inodes();
	char proc[64];
	int fd;

	/* The root and f0 leave two of four. */
	if (!check("mount with a limit of 4", mount_lim(mp, 0, 4, NULL), 0, 0))
		return;
	enter(mp);
	check("create f0", do_creat("f0"), 0, 0);
	check("f_ffree with root and f0", files(mp, true), 2, F_NUM);
	check("link f0 a", err_of(link("f0", "a")), 0, 0);
	check("f_ffree after one link", files(mp, true), 1, F_NUM);
	check("link f0 b", err_of(link("f0", "b")), 0, 0);
	check("f_ffree after two links", files(mp, true), 0, F_NUM);
	check_live("links are not inodes in inodes_live", live + 2);
	check("link on a full mount", err_of(link("f0", "c")), ENOSPC, 0);
	check("link on a full mount creates no name", nlink_of("c"), -ENOENT,
	      F_NUM);
	check("link on a full mount leaves nlink", nlink_of("f0"), 3, F_NUM);
	check("create when links fill the mount", do_creat("g"), ENOSPC, 0);

	check("unlink of a link", err_of(unlink("a")), 0, 0);
	check("f_ffree after unlink of a link", files(mp, true), 1, F_NUM);
	check("create after unlink of a link", do_creat("g"), 0, 0);
	check("f_ffree after create", files(mp, true), 0, F_NUM);
	check("rename over a linked file", err_of(rename("g", "b")), 0, 0);
	check("f_ffree after rename over a link", files(mp, true), 1, F_NUM);
	check("nlink after rename over a link", nlink_of("f0"), 1, F_NUM);

	/* An O_TMPFILE inode was charged when made: its first link is free. */
	fd = open(".", O_TMPFILE | O_WRONLY, 0644);
	check("O_TMPFILE on the last slot", fd < 0 ? errno : 0, 0, 0);
	if (fd >= 0) {
		check("f_ffree with an O_TMPFILE", files(mp, true), 0, F_NUM);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		check("first link of an O_TMPFILE on a full mount",
		      err_of(linkat(AT_FDCWD, proc, AT_FDCWD, "t",
				    AT_SYMLINK_FOLLOW)), 0, 0);
		check("f_ffree after linking the O_TMPFILE", files(mp, true),
		      0, F_NUM);
		check("second link of an O_TMPFILE on a full mount",
		      err_of(link("t", "t2")), ENOSPC, 0);
		check("unlink of the linked O_TMPFILE", err_of(unlink("t")), 0,
		      0);
		close(fd);
		check("f_ffree after closing it", files(mp, true), 1, F_NUM);
	}
	check("unlink f0", err_of(unlink("f0")), 0, 0);
	check("unlink b", err_of(unlink("b")), 0, 0);
	check("f_ffree with only the root", files(mp, true), 3, F_NUM);
	leave(mp, "umount after links", 0);
	check_live("umount frees every inode", live);
}

/* ---- extended attributes: many names on one file ---- */

/* "trusted.%04x" (tmpfs in 6.1 has no user.*): 13 bytes a name listed. */
#define NNAMES	5000
#define XNAME_LEN	sizeof("trusted.0000")

static char xlist[XATTR_LIST_MAX];

static void xname(char *name, int i)
{
	snprintf(name, XNAME_LEN, "trusted.%04x", i & 0xffff);
}

/* How many of the names 0..NNAMES-1 the list of @len bytes holds once. */
static int listed_once(const char *list, ssize_t len)
{
	static bool seen[NNAMES];
	const char *p;
	int n = 0;
	char *end;
	long i;

	memset(seen, 0, sizeof(seen));
	for (p = list; p < list + len; p += strlen(p) + 1) {
		if (strncmp(p, "trusted.", 8) || strlen(p) != XNAME_LEN - 1)
			continue;
		i = strtol(p + 8, &end, 16);
		if (*end || i < 0 || i >= NNAMES || seen[i])
			continue;
		seen[i] = true;
		n++;
	}
	return n;
}

static void many_names_rows(const char *mp)
{
	char name[XNAME_LEN], val[8];
	int e = 0, bad = 0, i;
	ssize_t n;

	/* 1000: tmpfs since 6.6 counts xattrs in 1 KiB of space an inode. */
	if (!check("mount for many xattr names", mount_lim(mp, 0, 1000, NULL),
		   0, 0))
		return;
	enter(mp);
	check("create a file for many xattr names", do_creat("x"), 0, 0);
	for (i = 0; i < NNAMES && !e; i++) {
		xname(name, i);
		e = err_of(setxattr("x", name, name + 8, 4, XATTR_CREATE));
	}
	check("set 5000 xattr names on one file", e, 0, 0);
	for (i = 0; i < NNAMES; i++) {
		xname(name, i);
		n = getxattr("x", name, val, sizeof(val));
		bad += n != 4 || memcmp(val, name + 8, 4);
	}
	check("5000 xattr names: wrong values read", bad, 0, F_NUM);
	n = listxattr("x", xlist, sizeof(xlist));
	check("5000 xattr names: listxattr length", (int)n,
	      NNAMES * XNAME_LEN, F_NUM);
	check("5000 xattr names: each listed once", listed_once(xlist, n),
	      NNAMES, F_NUM);
	for (i = 0, e = 0; i < NNAMES && !e; i += 2) {
		xname(name, i);
		e = err_of(removexattr("x", name));
	}
	check("remove every second of 5000 xattr names", e, 0, 0);
	n = listxattr("x", xlist, sizeof(xlist));
	check("2500 xattr names left: listxattr length", (int)n,
	      NNAMES / 2 * XNAME_LEN, F_NUM);
	xname(name, 2);
	check("a removed name is gone", err_of(getxattr("x", name, val,
							 sizeof(val))),
	      ENODATA, 0);
	xname(name, 4999);
	n = getxattr("x", name, val, sizeof(val));
	check("a name left is there", n < 0 ? -errno : (int)n, 4, F_NUM);
	leave(mp, "umount after many xattr names", 0);
}

/* ---- max_xattr_bytes: ours only ---- */

/* setxattr() of @size bytes under @name of @path; the errno or 0. */
static int setx(const char *path, const char *name, size_t size)
{
	static char value[XATTR_SIZE_MAX];

	memset(value, 'v', sizeof(value));
	return err_of(setxattr(path, name, value, size, 0));
}

/* xattr_bytes of cur_fs's statistics file beyond @base. */
static int xbytes(long base)
{
	return (int)(fs_stat("xattr_bytes") - base);
}

/*
 * Mount ours with max_xattr_bytes=@limit, see /proc/mounts show it, and
 * create the file f in it; false if the mount failed.
 */
static bool budget_mount(const char *mp, int limit)
{
	char opt[32], what[64];

	snprintf(opt, sizeof(opt), "max_xattr_bytes=%d", limit);
	snprintf(what, sizeof(what), "mount with %s", opt);
	if (!check(what, mount_lim(mp, 0, 100, opt), 0, F_NOREF))
		return false;
	snprintf(what, sizeof(what), "/proc/mounts shows %s", opt);
	check(what, shown(mp, "max_xattr_bytes", -1), limit, F_NOREF | F_NUM);
	enter(mp);
	snprintf(what, sizeof(what), "create f with %s", opt);
	check(what, do_creat("f"), 0, F_NOREF);
	return true;
}

#define MEMORY "/sys/devices/system/memory"

static int memory_state(int block, const char *state)
{
	char path[96];
	int fd, err = 0;

	snprintf(path, sizeof(path), MEMORY "/memory%d/state", block);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, state, strlen(state)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/*
 * Take a memory block offline, as hot-remove does, which lowers the RAM
 * that the default max_xattr_bytes is worked out from: the block's number,
 * or -1 when none goes (each must be free of what cannot move).
 */
static int memory_offline(void)
{
	for (int block = 63; block > 0; block--)
		if (!memory_state(block, "offline"))
			return block;
	return -1;
}

static void memory_online(int block)
{
	if (memory_state(block, "online"))
		die("put the memory block back online");
}

static void budget_rows(const char *mp)
{
	const unsigned int f = F_NOREF, fn = F_NOREF | F_NUM;
	long base = fs_stat("xattr_bytes");
	int cost, over, block;

	if (is_tmpfs || !budget_mount(mp, 4096))
		return;
	check("a 1000-byte xattr", setx("f", "user.0", 1000), 0, f);
	/* What one costs, as the statistics count it: value, name, entry. */
	cost = xbytes(base);
	check("xattr_bytes counts a value and its name", cost > 1006, 1, fn);
	check("a 2nd 1000-byte xattr", setx("f", "user.1", 1000), 0, f);
	check("a 3rd 1000-byte xattr, trusted.", setx("f", "trusted.2", 1000),
	      0, f);
	check("xattr_bytes after three", xbytes(base), 3 * cost + 3, fn);
	/* What is left, less an entry's cost beyond its value, fits. */
	over = 4096 - (3 * cost + 3) - (cost - 1000);
	check("a 4th xattr one byte too large", setx("f", "user.3", over + 1),
	      ENOSPC, f);
	check("a refused xattr is not there",
	      err_of(getxattr("f", "user.3", NULL, 0)), ENODATA, f);
	check("xattr_bytes after a refusal", xbytes(base), 3 * cost + 3, fn);
	check("a 4th xattr that fills max_xattr_bytes",
	      setx("f", "user.3", over), 0, f);
	check("xattr_bytes when full", xbytes(base), 4096, fn);
	check("a new empty xattr when full", setx("f", "user.4", 0), ENOSPC,
	      f);
	check("a larger value when full", setx("f", "user.0", 1001), ENOSPC,
	      f);
	check("a value as large when full", setx("f", "user.0", 1000), 0, f);
	check("a smaller value when full", setx("f", "user.0", 500), 0, f);
	check("a new xattr in what the smaller value gave back",
	      setx("f", "user.5", 500 - (cost - 1000)), 0, f);
	check("removexattr when full", err_of(removexattr("f", "user.1")), 0,
	      f);
	check("an xattr in what removexattr gave back",
	      setx("f", "user.6", 1000), 0, f);
	check("full again", setx("f", "user.7", 0), ENOSPC, f);

	/* remount: below use refused; unnamed kept; larger taken. */
	check("remount max_xattr_bytes below use",
	      mount_lim(mp, MS_REMOUNT, 100, "max_xattr_bytes=4095"), EINVAL,
	      f);
	check("remount naming max_inodes only", mount_lim(mp, MS_REMOUNT, 100,
							  NULL), 0, f);
	check("remounts keep max_xattr_bytes=4096",
	      shown(mp, "max_xattr_bytes", -1), 4096, fn);
	check("remount max_xattr_bytes=8192",
	      mount_lim(mp, MS_REMOUNT, 100, "max_xattr_bytes=8192"), 0, f);
	check("an xattr after growing max_xattr_bytes",
	      setx("f", "user.7", 1000), 0, f);

	/* Eviction gives every byte back. */
	check("unlink a file with xattrs", err_of(unlink("f")), 0, f);
	check("xattr_bytes after unlink", xbytes(base), 0, fn);
	check("create after unlink", do_creat("g"), 0, f);
	check("an xattr of all max_xattr_bytes after unlink",
	      setx("g", "user.0", 8192 - (cost - 1000)), 0, f);
	leave(mp, "umount after max_xattr_bytes", f);
	check("xattr_bytes after umount", xbytes(base), 0, fn);

	/* 0 is a mount without xattrs; without the option, none is shown. */
	if (!budget_mount(mp, 0))
		return;
	check("an empty xattr with max_xattr_bytes=0", setx("f", "user.0", 0),
	      ENOSPC, f);
	leave(mp, "umount after max_xattr_bytes=0", f);
	if (!check("mount without max_xattr_bytes",
		   mount_lim(mp, 0, 100, NULL), 0, f))
		return;
	check("/proc/mounts leaves out the default max_xattr_bytes",
	      shown(mp, "max_xattr_bytes", -1), -1, fn);
	block = memory_offline();
	if (block < 0) {
		printf("# no memory block goes offline: the default after hot-remove is not checked\n");
	} else {
		check("/proc/mounts leaves it out after a memory block went offline",
		      shown(mp, "max_xattr_bytes", -1), -1, fn);
		memory_online(block);
	}
	leave(mp, "umount without max_xattr_bytes", f);
}

static void run_fs(const char *mp)
{
	reconfigure_rows(mp);
	mounts_rows(mp);
	link_rows(mp);
	many_names_rows(mp);
	budget_rows(mp);
}

int main(int argc, char **argv)
{
	umask(022);
	return tmpfs_ref_main(argc, argv, "limits", run_fs);
}
