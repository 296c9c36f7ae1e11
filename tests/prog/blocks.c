// SPDX-License-Identifier: GPL-2.0
/*
 * blocks - block accounting against tmpfs (tests/guest/48-blocks.sh):
 * st_blocks, statfs's f_blocks, f_bfree and f_bavail, the size= limit,
 * and what busybox's df and du make of them.
 *
 *	blocks WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs> with
 * size=4m, and a small mount at WORKDIR/<fs>-s with size=64k, and checks,
 * each by name (see tap-ref.h for how results are compared with tmpfs):
 *
 *  st_blocks: pages held, in 512-byte units, and statfs's free blocks,
 *             after writes, a sparse write, reads of holes (read() and
 *             sendfile(), which allocate nothing), truncates up and down,
 *             writes and a read of a hole through a shared mapping (a page
 *             each), a long symlink; after unlink, and after the last close
 *             of an unlinked file;
 *  df, du:    busybox's df -k and du -k, on each of ours as on tmpfs;
 *  full:      a write past size= stops where the limit is (a short write),
 *             the next one gives ENOSPC, what was written reads back, an
 *             mmap store into a hole gets SIGBUS, overwriting in place still
 *             works, and freeing a file makes room again;
 *  remount:   size= below what is in use is refused and changes nothing;
 *             above it, nr_blocks= and size=0 (no limit) take effect and
 *             /proc/mounts shows size= in KiB as tmpfs does.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap-files.h"

#define MIB	(1024 * 1024)
#define SMALL	16		/* pages of the small mount, size=64k */

static const char *workdir;
static char mp[PATH_MAX], mps[PATH_MAX];
static char buf[4 * PG];

static long blocks_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -errno : (long)st.st_blocks;
}

/* f_bfree of @path's mount, or -errno; also checks f_bavail = f_bfree. */
static long bfree(const char *path)
{
	struct statfs s;

	if (statfs(path, &s) < 0)
		return -errno;
	if (s.f_bavail != s.f_bfree)
		return -EBADE;
	return (long)s.f_bfree;
}

static long f_blocks(const char *path)
{
	struct statfs s;

	return statfs(path, &s) < 0 ? -errno : (long)s.f_blocks;
}

/* A check of st_blocks and of the mount's free blocks after one step. */
static void check_step(const char *what, const char *path, long want_blocks,
		       long free0, long want_used)
{
	char name[112];

	snprintf(name, sizeof(name), "%s: st_blocks", what);
	check(name, blocks_of(path), want_blocks, R_NUM);
	snprintf(name, sizeof(name), "%s: statfs blocks in use", what);
	check(name, free0 - bfree(mp), want_used, R_SIGNED);
}

/* ---- st_blocks and statfs through writes, reads, truncates, mmap ---- */

static void check_file_blocks(void)
{
	const char *a = at(mp, "a"), *s = at(mp, "s"), *m = at(mp, "m");
	long free0 = bfree(mp);
	char *map;
	int fd, fs, fm, null;

	check("statfs: f_blocks is size= in pages", f_blocks(mp), 1024, R_NUM);
	check("statfs: an empty mount has every block free", free0, 1024,
	      R_NUM);

	fd = open_new(a);
	check("write 10000 bytes", put(fd, 'a', 10000, 0), 10000, R_NUM);
	check_step("10000 bytes written", a, 24, free0, 3);
	check("write a byte each side of the boundary of pages 3 and 4",
	      put(fd, 'b', 1, 4 * PG - 1) + put(fd, 'c', 1, 4 * PG), 2, R_NUM);
	check_step("two bytes on both sides of a page boundary", a, 40, free0,
		   5);
	check("ftruncate to 5000", sys(ftruncate(fd, 5000)), 0, 0);
	check_step("truncated to 5000", a, 16, free0, 2);

	fs = open_new(s);
	check("a sparse write of 1 byte at 1 MiB", put(fs, 's', 1, MIB), 1,
	      R_NUM);
	check_step("sparse write", s, 8, free0, 3);
	check("read a hole: 4096 bytes", sys(pread(fs, buf, PG, 2 * PG)), PG,
	      R_NUM);
	check("... which are zeros", buf[0] == 0 && !memcmp(buf, buf + 1,
							      PG - 1), 1, R_NUM);
	for (off_t off = 0; off < MIB; off += sizeof(buf))
		if (pread(fs, buf, sizeof(buf), off) != sizeof(buf))
			fatal("read the sparse file");
	check_step("the whole hole read", s, 8, free0, 3);
	null = open("/dev/null", O_WRONLY);
	if (null < 0)
		fatal("/dev/null");
	check("sendfile() of the hole", sys(sendfile(null, fs, NULL, MIB)),
	      MIB, R_NUM);
	close(null);
	check_step("the hole sent with sendfile()", s, 8, free0, 3);
	check("ftruncate up to 4 MiB", sys(ftruncate(fs, 4 * MIB)), 0, 0);
	check_step("truncated up", s, 8, free0, 3);
	check("ftruncate down to 0", sys(ftruncate(fs, 0)), 0, 0);
	check_step("truncated to 0", s, 0, free0, 2);
	close(fs);

	fm = open_new(m);
	if (ftruncate(fm, 4 * PG) < 0)
		fatal("ftruncate m");
	map = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fm, 0);
	if (map == MAP_FAILED)
		fatal("mmap m");
	map[0] = 'x';
	map[2 * PG + 10] = 'y';
	check_step("stores into pages 0 and 2 of a shared mapping", m, 16,
		   free0, 4);
	check("a load from the hole at page 3 reads 0", map[3 * PG], 0, R_NUM);
	check_step("a load from a hole of a shared mapping", m, 24, free0, 5);
	munmap(map, 4 * PG);
	check("... and the stores read back", sys(pread(fm, buf, 1, 2 * PG + 10))
	      == 1 && buf[0] == 'y', 1, R_NUM);
	close(fm);

	close(fd);
	check("unlink the truncated file", sys(unlink(a)), 0, 0);
	check("statfs: its 2 pages are free again", free0 - bfree(mp), 3,
	      R_SIGNED);
	/* Unlinked but open: the pages stay until the last close. */
	fm = open(m, O_RDONLY);
	check("unlink the mapped file while it is open", sys(unlink(m)), 0, 0);
	check("statfs: its pages are held while it is open",
	      free0 - bfree(mp), 3, R_SIGNED);
	close(fm);
	check("statfs: and freed at the last close", free0 - bfree(mp), 0,
	      R_SIGNED);
	check("unlink the sparse file", sys(unlink(s)), 0, 0);
	check("statfs: every block free again", bfree(mp), 1024, R_NUM);
}

/* A target longer than tmpfs keeps in its inode takes a page on both. */
static void check_symlink_blocks(void)
{
	char target[201];
	const char *l = at(mp, "l"), *sl = at(mp, "sl");
	long free0 = bfree(mp);

	memset(target, 't', 200);
	target[200] = '\0';
	check("symlink with a 200-byte target", sys(symlink(target, l)), 0, 0);
	check_step("a long symlink", l, 8, free0, 1);
	check("symlink with a short target", sys(symlink("short", sl)), 0, 0);
	/* tmpfs keeps a short target in the inode; ours is in a page. */
	if (!is_tmpfs)
		check("a short symlink takes a page (tmpfs: none)",
		      blocks_of(sl), 8, R_NUM | R_NOREF);
	unlink(l);
	unlink(sl);
}

/* ---- busybox df and du ---- */

/* The first line of what @cmd prints, in @line; false if it printed none. */
static bool run_line(const char *cmd, char *line, size_t len, int skip)
{
	FILE *p = popen(cmd, "r");
	bool ok = false;

	if (!p)
		fatal(cmd);
	while (fgets(line, len, p))
		if (skip-- <= 0) {
			ok = true;
			break;
		}
	while (fgetc(p) != EOF)
		;
	pclose(p);
	return ok;
}

/* Field @n (from 1) of `du -k PATH` or `df -k PATH`'s data line. */
static long field(const char *cmd, const char *path, int skip, int n)
{
	char c[PATH_MAX + 32], line[PATH_MAX + 128], *tok, *save;

	snprintf(c, sizeof(c), "%s '%s' 2>/dev/null", cmd, path);
	if (!run_line(c, line, sizeof(line), skip))
		return -ENODATA;
	tok = strtok_r(line, " \t\n", &save);
	while (tok && --n)
		tok = strtok_r(NULL, " \t\n", &save);
	return tok ? strtol(tok, NULL, 10) : -ENODATA;
}

static void check_df_du(void)
{
	const char *d = at(mp, "dd"), *f = at(mp, "dd/f"), *g = at(mp, "dd/g");
	int fd;

	if (mkdir(d, 0755) < 0)
		fatal("mkdir dd");
	fd = open_new(f);
	if (put(fd, 'f', 10000, 0) != 10000)
		fatal("write dd/f");
	close(fd);
	fd = open_new(g);
	if (put(fd, 'g', 1, 10 * PG) != 1)
		fatal("write dd/g");
	close(fd);
	check("du -k of a file of 10000 bytes", field("du -k", f, 0, 1), 12,
	      R_NUM);
	check("du -k of a sparse file with one page", field("du -k", g, 0, 1),
	      4, R_NUM);
	check("du -sk of their directory", field("du -sk", d, 0, 1), 16,
	      R_NUM);
	check("df -k: size", field("df -k", mp, 1, 2), 4096, R_NUM);
	check("df -k: used", field("df -k", mp, 1, 3), 16, R_NUM);
	check("df -k: available", field("df -k", mp, 1, 4), 4080, R_NUM);
	unlink(f);
	unlink(g);
	rmdir(d);
	check("df -k: used after removing them", field("df -k", mp, 1, 3), 0,
	      R_NUM);
}

/* ---- a full mount ---- */

static void check_full(void)
{
	const char *f = at(mps, "full"), *h = at(mps, "hole");
	static char data[100000];
	ssize_t got;
	bool same;
	int fd;

	fd = open_new(f);
	memset(data, 'F', sizeof(data));
	got = write(fd, data, 100000);
	check("full: a write of 100000 bytes into 64k stops at the limit",
	      sys(got), SMALL * PG, R_NUM);
	check("full: the next write gives ENOSPC", sys(write(fd, data, 1)),
	      -ENOSPC, 0);
	check("full: st_size is what was written", sys(lseek(fd, 0, SEEK_END)),
	      SMALL * PG, R_NUM);
	check("full: statfs has no block free", bfree(mps), 0, R_NUM);
	memset(data, 0, sizeof(data));
	got = pread(fd, data, sizeof(data), 0);
	same = got == SMALL * PG && data[0] == 'F' &&
	       !memcmp(data, data + 1, SMALL * PG - 1);
	check("full: what was written reads back intact", same, 1, R_NUM);
	check("full: overwriting a page it holds still works",
	      put(fd, 'G', 100, 5 * PG), 100, R_NUM);
	check("full: creating a file still works (no blocks)",
	      sys(close(open_new(h))), 0, 0);
	if (truncate(h, 2 * PG) < 0)
		fatal("truncate hole");
	check("full: a store into a hole through a mapping gets SIGBUS",
	      store_signal(h, 1), SIGBUS, R_NUM);
	check("full: a write into the hole gives ENOSPC", put(fd, 'H', 1,
							       SMALL * PG + PG), -ENOSPC, 0);
	check("full: freeing 4 pages makes room",
	      sys(ftruncate(fd, (SMALL - 4) * PG)) ?: bfree(mps), 4, R_NUM);
	check("full: ... for that store", store_signal(h, 1), 0, R_NUM);
	check("full: st_blocks of the file stored into", blocks_of(h), 8,
	      R_NUM);
	close(fd);
}

/* ---- remount, and /proc/mounts ---- */

/* The value of size= on @path's line of /proc/mounts, in @out. */
static const char *shown_size(const char *path, char *out, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *e;
	char *v;

	snprintf(out, len, "(none)");
	if (!f)
		fatal("/proc/mounts");
	while ((e = getmntent(f)))
		if (!strcmp(e->mnt_dir, path)) {
			v = hasmntopt(e, "size");
			if (v)
				snprintf(out, len, "%.*s",
					 (int)strcspn(v, ","), v);
		}
	endmntent(f);
	return out;
}

static long remount(const char *path, const char *opts)
{
	return sys(mount("none", path, NULL, MS_REMOUNT, opts));
}

/*
 * What /proc/mounts shows for size=50%: nothing if it is the default, half
 * of RAM's pages rounded down, else the pages 50% gives, rounded up.
 */
static const char *half_of_ram(char *out, size_t len)
{
	unsigned long long pages, bytes;
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		fatal("sysinfo");
	pages = (unsigned long long)si.totalram * si.mem_unit / PG;
	bytes = 50ULL * PG * pages / 100;
	if ((bytes + PG - 1) / PG == pages / 2)
		snprintf(out, len, "(none)");
	else
		snprintf(out, len, "size=%lluk", (bytes + PG - 1) / PG * 4);
	return out;
}

static void check_remount(void)
{
	char shown[64], want[64];

	/* The small mount holds 12 pages after check_full(), and one more. */
	check("remount: /proc/mounts shows size=64k",
	      !strcmp(shown_size(mps, shown, sizeof(shown)), "size=64k"), 1,
	      R_NUM);
	check("remount: size=32k, below the 13 pages in use, is refused",
	      remount(mps, "size=32k"), -EINVAL, 0);
	check("remount: ... and the limit stays", f_blocks(mps), SMALL, R_NUM);
	check("remount: size=128k", remount(mps, "size=128k"), 0, 0);
	check("remount: f_blocks is 32", f_blocks(mps), 32, R_NUM);
	check_str("remount: /proc/mounts shows it",
		  shown_size(mps, shown, sizeof(shown)), "size=128k");
	check("remount: nr_blocks=64", remount(mps, "nr_blocks=64"), 0, 0);
	check_str("remount: /proc/mounts shows it as size=",
		  shown_size(mps, shown, sizeof(shown)), "size=256k");
	check("remount: size=50% of RAM", remount(mps, "size=50%"), 0, 0);
	check_str("remount: /proc/mounts shows 50% as tmpfs works it out",
		  shown_size(mps, shown, sizeof(shown)), half_of_ram(want,
								sizeof(want)));
	check("remount: size=0, no limit", remount(mps, "size=0"), 0, 0);
	check("remount: f_blocks is 0", f_blocks(mps), 0, R_NUM);
	check("remount: f_bfree is 0", bfree(mps), 0, R_NUM);
	check_str("remount: /proc/mounts shows size=0k",
		  shown_size(mps, shown, sizeof(shown)), "size=0k");
	/* tmpfs counts nothing without a limit, so it cannot add one. */
	if (is_tmpfs)
		check("remount: tmpfs refuses a limit on an unlimited mount",
		      remount(mps, "size=1m"), -EINVAL, R_NOREF);
	else
		check("remount: a limit on an unlimited mount (tmpfs: EINVAL)",
		      remount(mps, "size=1m") ?: bfree(mps), 256 - 13,
		      R_NUM | R_NOREF);
	check("remount: a bad size is refused", remount(mps, "size=1x"),
	      -EINVAL, 0);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: blocks WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		tap_mount(mp, workdir, "", "size=4m");
		check_file_blocks();
		check_symlink_blocks();
		check_df_du();
		if (umount(mp) < 0)
			fatal(mp);
		tap_mount(mps, workdir, "-s", "size=64k");
		check_full();
		check_remount();
		if (umount(mps) < 0)
			fatal(mps);
	}
	return tap_finish("blocks");
}
