// SPDX-License-Identifier: GPL-2.0
/*
 * fileio - the file I/O paths fstests reaches, against tmpfs
 * (tests/guest/49-file-io.sh): SEEK_DATA and SEEK_HOLE, fallocate(),
 * O_DIRECT, and the times after a store through a shared mapping.
 *
 *	fileio WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs> with
 * size=4m, and a small mount at WORKDIR/<fs>-s with size=64k, and checks,
 * each by name (tap-ref.h: each of ours must give the expectation written
 * here and what tmpfs gave):
 *
 *  seek:      SEEK_DATA and SEEK_HOLE from every kind of place in a sparse
 *             file (data, a hole inside, the hole at the end, EOF, a
 *             negative offset), in a file of data only, in an empty one;
 *             a preallocated page is a hole; the offset found is the file's;
 *  fallocate: allocation that sets the size, with KEEP_SIZE, over data
 *             (which stays), into which a write adds no block; a punched
 *             hole frees its whole pages and zeros the parts of the pages
 *             at its ends; the modes tmpfs refuses; mtime and ctime;
 *  full:      on the 64k mount, an allocation past the limit fails with
 *             ENOSPC and leaves size, st_blocks, free blocks and data as
 *             they were; one that fits takes the mount's last blocks, which
 *             a write and a store through a mapping then use; a punch
 *             gives them back;
 *  same size: truncate(2) to a file's own size stamps mtime and ctime as
 *             tmpfs's does: when the file holds pages (written, faulted
 *             in, preallocated), not after a read of a hole;
 *  O_DIRECT:  open(O_DIRECT) and F_SETFL O_DIRECT as tmpfs answers on this
 *             kernel (refused before 6.6, taken since); an unaligned direct
 *             write and read; a direct write or read with RWF_NOWAIT
 *             refused as tmpfs refuses it (EOPNOTSUPP: neither file is
 *             FMODE_NOWAIT, so the direct write made buffered is never
 *             asked not to wait);
 *  mmap:      mtime and ctime after stores through a shared mapping, as
 *             tmpfs (which has no page_mkwrite) leaves them: stamped when
 *             the store faults the page in, not when a read mapped it.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap-files.h"

#define SMALL	16		/* pages of the small mount, size=64k */

static const char *workdir;
static char mp[PATH_MAX], mps[PATH_MAX];

/*
 * 1 if the @len bytes at @off read back as @c (what a hole reads as, with
 * c = 0), 0 if not, or -errno.
 */
static long holds(int fd, char c, size_t len, off_t off)
{
	static char data[20 * PG];
	ssize_t got;

	if (len > sizeof(data))
		fatal("holds: too long");
	got = pread(fd, data, len, off);
	if (got < 0)
		return -errno;
	if ((size_t)got != len)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (data[i] != c)
			return 0;
	return 1;
}

static long blocks_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -errno : (long)st.st_blocks;
}

static long size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -errno : (long)st.st_size;
}

static long bfree(const char *path)
{
	struct statfs s;

	return statfs(path, &s) < 0 ? -errno : (long)s.f_bfree;
}

static long seek(int fd, off_t off, int whence)
{
	return sys(lseek(fd, off, whence));
}

/* ---- SEEK_DATA and SEEK_HOLE ---- */

static void check_seek(void)
{
	int fd = open_new(at(mp, "sparse")), full, empty;

	/* Data in page 0 and page 3; holes in 1-2 and from 4 to EOF at 6. */
	if (put(fd, 'a', 100, 0) != 100 || put(fd, 'b', 10, 3 * PG + 10) != 10 ||
	    ftruncate(fd, 6 * PG) < 0)
		fatal("sparse file");
	check("seek: SEEK_DATA at 0, in data", seek(fd, 0, SEEK_DATA), 0, R_NUM);
	check("seek: SEEK_DATA inside the first page's data",
	      seek(fd, 50, SEEK_DATA), 50, R_NUM);
	check("seek: SEEK_HOLE from the first page: the next page",
	      seek(fd, 50, SEEK_HOLE), PG, R_NUM);
	check("seek: SEEK_DATA from a hole: the next data page",
	      seek(fd, PG + 5, SEEK_DATA), 3 * PG, R_NUM);
	check("seek: the offset found is the file's",
	      seek(fd, 0, SEEK_CUR), 3 * PG, R_NUM);
	check("seek: SEEK_HOLE in a hole: where it is",
	      seek(fd, PG + 5, SEEK_HOLE), PG + 5, R_NUM);
	check("seek: SEEK_HOLE from the last data page",
	      seek(fd, 3 * PG, SEEK_HOLE), 4 * PG, R_NUM);
	check("seek: SEEK_DATA past the last data", seek(fd, 4 * PG, SEEK_DATA),
	      -ENXIO, R_NUM);
	check("seek: SEEK_HOLE in the hole at the end",
	      seek(fd, 5 * PG, SEEK_HOLE), 5 * PG, R_NUM);
	check("seek: SEEK_DATA at EOF", seek(fd, 6 * PG, SEEK_DATA), -ENXIO,
	      R_NUM);
	check("seek: SEEK_HOLE at EOF", seek(fd, 6 * PG, SEEK_HOLE), -ENXIO,
	      R_NUM);
	check("seek: SEEK_DATA from a negative offset", seek(fd, -1, SEEK_DATA),
	      -ENXIO, R_NUM);
	/* A preallocated page holds no data yet: a hole. */
	check("seek: fallocate KEEP_SIZE of page 1",
	      sys(fallocate(fd, FALLOC_FL_KEEP_SIZE, PG, PG)), 0, 0);
	check("seek: SEEK_DATA skips a preallocated page",
	      seek(fd, PG, SEEK_DATA), 3 * PG, R_NUM);
	check("seek: SEEK_HOLE stops at a preallocated page",
	      seek(fd, 10, SEEK_HOLE), PG, R_NUM);
	close(fd);

	full = open_new(at(mp, "full"));
	if (put(full, 'c', 2 * PG + 904, 0) != 2 * PG + 904)
		fatal("full file");
	check("seek: SEEK_HOLE in a file of data only: its size",
	      seek(full, 0, SEEK_HOLE), 2 * PG + 904, R_NUM);
	check("seek: SEEK_DATA in its last, partial page",
	      seek(full, 2 * PG + 900, SEEK_DATA), 2 * PG + 900, R_NUM);
	close(full);

	empty = open_new(at(mp, "empty"));
	check("seek: SEEK_DATA in an empty file", seek(empty, 0, SEEK_DATA),
	      -ENXIO, R_NUM);
	check("seek: SEEK_HOLE in an empty file", seek(empty, 0, SEEK_HOLE),
	      -ENXIO, R_NUM);
	close(empty);
}

/* ---- fallocate() ---- */

/*
 * Runs @op on @fd, whose mtime is first set long past: 1 if mtime and
 * ctime both changed, 0 if neither did, -1 if one did; or @op's -errno.
 */
static long stamps(int fd, long (*op)(int fd))
{
	struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };
	struct stat before, after;
	long ret;
	bool m, c;

	if (futimens(fd, old) < 0 || fstat(fd, &before) < 0)
		fatal("futimens");
	usleep(20000);	/* a later time than before's, at any granularity */
	ret = op(fd);
	if (ret < 0)
		return ret;
	if (fstat(fd, &after) < 0)
		fatal("fstat");
	m = after.st_mtim.tv_sec != 1000 || after.st_mtim.tv_nsec;
	c = after.st_ctim.tv_sec != before.st_ctim.tv_sec ||
	    after.st_ctim.tv_nsec != before.st_ctim.tv_nsec;
	return m == c ? m : -1;
}

static long falloc_more(int fd)
{
	return sys(fallocate(fd, 0, 0, 8 * PG));
}

static long punch_one(int fd)
{
	return sys(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			     0, PG));
}

static void check_fallocate(void)
{
	int fd = open_new(at(mp, "falloc")), rd;

	check("fallocate: 3 pages", sys(fallocate(fd, 0, 0, 3 * PG)), 0, 0);
	check("fallocate: sets the size", size_of(fd), 3 * PG, R_NUM);
	check("fallocate: st_blocks counts them", blocks_of(fd), 24, R_NUM);
	check("fallocate: they read as zeros", holds(fd, 0, 3 * PG, 0), 1, R_NUM);
	check("fallocate: KEEP_SIZE past EOF",
	      sys(fallocate(fd, FALLOC_FL_KEEP_SIZE, 3 * PG, 2 * PG)), 0, 0);
	check("fallocate: KEEP_SIZE keeps the size", size_of(fd), 3 * PG, R_NUM);
	check("fallocate: KEEP_SIZE's pages are counted", blocks_of(fd), 40,
	      R_NUM);
	check("fallocate: a write into a preallocated page",
	      put(fd, 'w', 10, PG + 100), 10, R_NUM);
	check("fallocate: adds no block", blocks_of(fd), 40, R_NUM);
	check("fallocate: the write reads back", holds(fd, 'w', 10, PG + 100), 1,
	      R_NUM);
	check("fallocate: zeros around it", holds(fd, 0, 100, PG), 1, R_NUM);
	check("fallocate: over data", sys(fallocate(fd, 0, 0, 4 * PG)), 0, 0);
	check("fallocate: the data stays", holds(fd, 'w', 10, PG + 100), 1,
	      R_NUM);
	check("fallocate: over data, the new size", size_of(fd), 4 * PG, R_NUM);
	check("fallocate: sets mtime and ctime", stamps(fd, falloc_more), 1,
	      R_SIGNED);
	close(fd);

	/* Four pages of data; a hole from the middle of 0 to the end of 2. */
	fd = open_new(at(mp, "punch"));
	if (put(fd, 'x', 4 * PG, 0) != 4 * PG)
		fatal("punch file");
	check("punch: from mid-page 0 to the end of page 2",
	      sys(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			    PG / 2, 3 * PG - PG / 2)), 0, 0);
	check("punch: frees the whole pages", blocks_of(fd), 16, R_NUM);
	check("punch: keeps the size", size_of(fd), 4 * PG, R_NUM);
	check("punch: data before the hole stays", holds(fd, 'x', PG / 2, 0), 1,
	      R_NUM);
	check("punch: the hole reads as zeros",
	      holds(fd, 0, 3 * PG - PG / 2, PG / 2), 1, R_NUM);
	check("punch: data after the hole stays", holds(fd, 'x', PG, 3 * PG), 1,
	      R_NUM);
	check("punch: SEEK_DATA past it", seek(fd, PG, SEEK_DATA), 3 * PG, R_NUM);
	check("punch: sets mtime and ctime", stamps(fd, punch_one), 1, R_SIGNED);
	check("punch: without KEEP_SIZE",
	      sys(fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, PG)), -EOPNOTSUPP, 0);
	check("fallocate: ZERO_RANGE",
	      sys(fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, PG)), -EOPNOTSUPP, 0);
	check("fallocate: COLLAPSE_RANGE",
	      sys(fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 0, PG)), -EOPNOTSUPP,
	      0);
	check("fallocate: INSERT_RANGE",
	      sys(fallocate(fd, FALLOC_FL_INSERT_RANGE, 0, PG)), -EOPNOTSUPP, 0);
	check("fallocate: a zero length", sys(fallocate(fd, 0, 0, 0)), -EINVAL,
	      0);
	close(fd);
	rd = open(at(mp, "punch"), O_RDONLY);
	if (rd < 0)
		fatal("punch");
	check("fallocate: a read-only descriptor", sys(fallocate(rd, 0, 0, PG)),
	      -EBADF, 0);
	close(rd);
}

/* ---- a full mount ---- */

static void check_full(void)
{
	int a = open_new(at(mps, "a")), b = open_new(at(mps, "b"));
	long free0;

	if (put(a, 'd', 4 * PG, 0) != 4 * PG)
		fatal("data file");
	free0 = bfree(mps);
	check("full: free blocks with 4 pages held", free0, SMALL - 4, R_NUM);
	check("full: fallocate past the limit",
	      sys(fallocate(b, 0, 0, SMALL * PG)), -ENOSPC, 0);
	check("full: it leaves the size", size_of(b), 0, R_NUM);
	check("full: it leaves st_blocks", blocks_of(b), 0, R_NUM);
	check("full: it leaves the free blocks", bfree(mps), free0, R_NUM);
	check("full: KEEP_SIZE past the limit",
	      sys(fallocate(b, FALLOC_FL_KEEP_SIZE, 0, SMALL * PG)), -ENOSPC,
	      0);
	check("full: KEEP_SIZE leaves the free blocks", bfree(mps), free0, R_NUM);
	check("full: fallocate over data past the limit",
	      sys(fallocate(a, 0, 0, 20 * PG)), -ENOSPC, 0);
	check("full: the data file keeps its size", size_of(a), 4 * PG, R_NUM);
	check("full: and its blocks", blocks_of(a), 32, R_NUM);
	check("full: and its data", holds(a, 'd', 4 * PG, 0), 1, R_NUM);
	check("full: fallocate of what is free",
	      sys(fallocate(b, 0, 0, free0 * PG)), 0, 0);
	check("full: no block left", bfree(mps), 0, R_NUM);
	check("full: a write into the preallocation", put(b, 'p', PG, 2 * PG),
	      PG, R_NUM);
	check("full: a store into it through a mapping", store_signal(at(mps, "b"), 5),
	      0, R_SIGNED);
	check("full: a new page elsewhere", put(a, 'e', PG, 4 * PG), -ENOSPC, 0);
	check("full: a punch gives the blocks back",
	      sys(fallocate(b, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
			    free0 * PG)), 0, 0);
	check("full: free blocks after the punch", bfree(mps), free0, R_NUM);
	close(a);
	close(b);
}

/* ---- truncate(2) to a file's own size ---- */

/*
 * truncate(2), not ftruncate(), which always asks for both times: through
 * /proc/self/fd, which names the file @fd has open.
 */
static long same_size(int fd)
{
	long size = size_of(fd);
	char path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return size < 0 ? size : sys(truncate(path, size));
}

/*
 * A read fault on page 1 of @fd through a shared mapping, which adds a
 * page on tmpfs as here.
 */
static void read_fault(int fd)
{
	volatile char *map = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);

	if (map == MAP_FAILED || map[PG + 1])
		fatal("read fault");
	munmap((void *)map, 2 * PG);
}

/*
 * tmpfs stamps mtime and ctime at the same size only when the file holds
 * pages: written, faulted in or preallocated, not a hole read(2) read.
 */
static void check_same_size(void)
{
	char byte;
	int fd;

	fd = open_new(at(mp, "same-hole"));
	if (ftruncate(fd, 2 * PG) < 0 || pread(fd, &byte, 1, PG) != 1)
		fatal("read a hole");
	check("same size: after a read of its hole, stamps neither",
	      stamps(fd, same_size), 0, R_SIGNED);
	close(fd);

	fd = open_new(at(mp, "same-fault"));
	if (ftruncate(fd, 2 * PG) < 0)
		fatal("same-fault");
	read_fault(fd);
	check("same size: after a read fault, stamps both",
	      stamps(fd, same_size), 1, R_SIGNED);
	close(fd);

	fd = open_new(at(mp, "same-write"));
	if (put(fd, 's', 10, 0) != 10)
		fatal("same-write");
	check("same size: after a write, stamps both", stamps(fd, same_size),
	      1, R_SIGNED);
	if (ftruncate(fd, 0) < 0)
		fatal("cut off");
	check("same size: after what was written was cut off, stamps neither",
	      stamps(fd, same_size), 0, R_SIGNED);
	close(fd);

	fd = open_new(at(mp, "same-falloc"));
	if (fallocate(fd, 0, 0, PG) < 0)
		fatal("same-falloc");
	check("same size: after a preallocation, stamps both",
	      stamps(fd, same_size), 1, R_SIGNED);
	close(fd);
}

/* ---- O_DIRECT ---- */

/* tmpfs takes O_DIRECT from Linux 6.6 ("tmpfs: trivial support for direct IO"). */
static bool kernel_takes_odirect(void)
{
	struct utsname u;
	int major, minor;

	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		fatal("uname");
	return major > 6 || (major == 6 && minor >= 6);
}

static void check_odirect(void)
{
	long want = kernel_takes_odirect() ? 0 : -EINVAL;
	const char *path = at(mp, "direct");
	char data[3] = "dio", back[3];
	struct iovec iov = { .iov_base = back, .iov_len = sizeof(back) };
	int fd = open_new(path), dfd;

	check("O_DIRECT: F_SETFL",
	      sys(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_DIRECT)), want, 0);
	close(fd);
	dfd = open(path, O_RDWR | O_DIRECT);
	check("O_DIRECT: open", dfd < 0 ? -errno : 0, want, 0);
	if (dfd < 0)
		return;
	check("O_DIRECT: an unaligned write", sys(pwrite(dfd, data, 3, 5)), 3,
	      R_NUM);
	check("O_DIRECT: an unaligned read",
	      sys(pread(dfd, back, 3, 5)) == 3 && !memcmp(back, data, 3), 1,
	      R_NUM);
	check("O_DIRECT: st_blocks", blocks_of(dfd), 8, R_NUM);
	check("O_DIRECT: a write with RWF_NOWAIT refused: EOPNOTSUPP",
	      sys(pwritev2(dfd, &iov, 1, 0, RWF_NOWAIT)), -EOPNOTSUPP, 0);
	check("O_DIRECT: a read with RWF_NOWAIT refused: EOPNOTSUPP",
	      sys(preadv2(dfd, &iov, 1, 0, RWF_NOWAIT)), -EOPNOTSUPP, 0);
	close(dfd);
}

/* ---- times after a store through a shared mapping ---- */

/*
 * Stores into pages 0 (written) and 1 (a hole) of a shared mapping of a
 * new file whose mtime is long past, after reading them through it first
 * if @read_first; 1 if mtime and ctime both changed, 0 if neither did, -1
 * if one did.
 */
static long store_stamps(const char *name, bool read_first)
{
	struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };
	int fd = open_new(at(mp, name));
	struct stat before, after;
	volatile char *map;
	bool m, c;

	if (put(fd, 'm', PG, 0) != PG || ftruncate(fd, 2 * PG) < 0 ||
	    futimens(fd, old) < 0 || fstat(fd, &before) < 0)
		fatal(name);
	map = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fatal("mmap");
	if (read_first && map[10] + map[PG + 10] != 'm')
		fatal("read through the mapping");
	usleep(20000);	/* a later time than before's, at any granularity */
	map[10] = 'n';
	map[PG + 10] = 'n';
	if (msync((void *)map, 2 * PG, MS_SYNC) < 0 ||
	    munmap((void *)map, 2 * PG) < 0 || fstat(fd, &after) < 0)
		fatal("msync");
	if (holds(fd, 'n', 1, 10) != 1 || holds(fd, 'n', 1, PG + 10) != 1)
		fatal("the stores did not reach the file");
	close(fd);
	m = after.st_mtim.tv_sec != 1000 || after.st_mtim.tv_nsec;
	c = after.st_ctim.tv_sec != before.st_ctim.tv_sec ||
	    after.st_ctim.tv_nsec != before.st_ctim.tv_nsec;
	return m == c ? m : -1;
}

/*
 * Without ->page_mkwrite, as on tmpfs, the kernel stamps mtime and ctime
 * when a store faults a page in writable, and a page a read fault mapped
 * is already writable: a store then stamps nothing (fstests' generic/080
 * fails on tmpfs for that reason).
 */
static void check_mmap_times(void)
{
	check("mmap: a store that faults the page in stamps mtime and ctime",
	      store_stamps("mapped-w", false), 1, R_SIGNED);
	check("mmap: a store into pages a read mapped stamps neither",
	      store_stamps("mapped-rw", true), 0, R_SIGNED);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: fileio WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		tap_mount(mp, workdir, "", "size=4m");
		check_seek();
		check_fallocate();
		check_same_size();
		check_odirect();
		check_mmap_times();
		if (umount(mp) < 0)
			fatal(mp);
		tap_mount(mps, workdir, "-s", "size=64k");
		check_full();
		if (umount(mps) < 0)
			fatal(mps);
	}
	return tap_finish("fileio");
}
