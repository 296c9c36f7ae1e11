// SPDX-License-Identifier: GPL-2.0
/*
 * memcg: what creating files charges to the creator's memory cgroup, and
 * what its limit does to a runaway creator.
 *
 *   memcg charge CGROUP_DIR DIR N
 *   memcg runaway CGROUP_DIR DIR KIB [FSTYPE]
 *
 * Both run from inside the memory cgroup CGROUP_DIR (the caller moved the
 * process there), as its only task, and read the slab memory charged to
 * the group from memory.stat ("slab", in bytes): not memory.current, which
 * moves in per-CPU batches of 64 pages and would blur the figure by tens
 * of bytes per file; the slab counter is kept to the byte.
 *
 * charge: creates N empty files in DIR and prints "MEMCG-CHARGE <bytes per
 * file>" (the growth of the slab charge over N, rounded down), then removes
 * them. One process does it all, so that nothing but the files is charged
 * meanwhile: their inodes, dentries and whatever private data the
 * filesystem allocates.
 *
 * runaway: makes itself unkillable (oom_score_adj -1000), sets the group's
 * memory.max to what it uses now plus KIB, and creates empty files with
 * mknod() (no struct file, so only the filesystem's own allocations are
 * charged) until one fails. With no task the OOM killer may kill, the
 * charge fails: the failed mknod() must give ENOMEM (on ramfs, ENOSPC
 * too: below), after at least one file was made. Then, with the limit lifted, every file made must be there
 * as made (a regular file, mode 0644, empty), the failed name must not, the
 * directory must list exactly those, and on one of ours (FSTYPE given)
 * inodes_live must have grown by exactly the files made: a half-made inode
 * (voidfs_demo's second allocation failing) must have been undone. Prints
 * "MEMCG-RUNAWAY <files> <slab at the limit, bytes> <errno name>", then
 * removes them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipat-test.h"

/* A limit that lets this many files through does not limit. */
#define RUNAWAY_MAX	1000000L

static const char *cgroup;
static int dir_fd;

static long slab_bytes(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/memory.stat", cgroup);
	return file_value(path, "slab", ' ');
}

/* The one number in the file at @path. */
static long file_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long value = -1;

	CHECK_SYS(f, "open %s", path);
	CHECK(fscanf(f, "%ld", &value) == 1, "no number in %s", path);
	fclose(f);
	return value;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK_SYS(f, "open %s", path);
	CHECK_SYS(fputs(text, f) >= 0 && fclose(f) == 0, "write %s to %s", text, path);
}

static void remove_files(long n)
{
	char name[64];
	long i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		CHECK_SYS(unlinkat(dir_fd, name, 0) == 0, "unlink %s", name);
	}
}

static void charge(long n)
{
	long before, after, i;
	char name[64];
	int fd;

	before = slab_bytes();
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		fd = openat(dir_fd, name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		CHECK_SYS(fd >= 0, "create %s", name);
		close(fd);
	}
	after = slab_bytes();
	printf("MEMCG-CHARGE %ld\n", (after - before) / n);
	remove_files(n);
}

/* The files f0 ... f<n-1> are there, as made, and nothing else is. */
static void check_made(long n)
{
	struct dirent *de;
	char name[64];
	struct stat st;
	long i, listed = 0;
	DIR *dir;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		CHECK_SYS(fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0,
			  "%s, made before the limit, is gone", name);
		CHECK(S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0644 &&
		      st.st_size == 0 && st.st_nlink == 1,
		      "%s is not as made: mode %o, size %lld, %lu links", name,
		      st.st_mode, (long long)st.st_size, (unsigned long)st.st_nlink);
	}
	snprintf(name, sizeof(name), "f%ld", n);
	CHECK(fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT,
	      "%s, whose mknod failed, is there (or stat failed: %s)", name,
	      strerror(errno));
	dir = fdopendir(dup(dir_fd));
	CHECK_SYS(dir, "fdopendir");
	while ((de = readdir(dir)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			listed++;
	closedir(dir);
	CHECK(listed == n, "the directory lists %ld entries, %ld files were made",
	      listed, n);
}

static void runaway(long kib, const char *fstype)
{
	long current, live = 0, n, slab;
	char path[256], text[64];
	int max_fd, err;

	write_file("/proc/self/oom_score_adj", "-1000");
	if (fstype)
		live = stat_value(fstype, "inodes_live");
	/* Nothing of this process may need a new page past the limit. */
	CHECK_SYS(mlockall(MCL_CURRENT) == 0, "mlockall");
	snprintf(path, sizeof(path), "%s/memory.max", cgroup);
	max_fd = open(path, O_WRONLY);
	CHECK_SYS(max_fd >= 0, "open %s", path);
	snprintf(path, sizeof(path), "%s/memory.current", cgroup);
	current = file_number(path);
	/* The limit: what the group uses now, and KIB for the files. */
	snprintf(text, sizeof(text), "%ld", current + kib * 1024);
	CHECK_SYS(pwrite(max_fd, text, strlen(text), 0) > 0, "set memory.max");

	for (n = 0; n < RUNAWAY_MAX; n++) {
		snprintf(text, sizeof(text), "f%ld", n);
		if (mknodat(dir_fd, text, S_IFREG | 0644, 0) < 0)
			break;
	}
	err = errno;
	CHECK_SYS(pwrite(max_fd, "max", 3, 0) == 3, "lift memory.max");
	CHECK(n < RUNAWAY_MAX, "%ld files made within a limit of %ld KiB more",
	      n, kib);
	/*
	 * Ours fail a create whose allocation failed with ENOMEM, wherever it
	 * failed. ramfs (no FSTYPE) too when the dentry of the lookup before
	 * ->mknod cannot be had, but ramfs_mknod() returns ENOSPC whenever
	 * ramfs_get_inode() fails (fs/ramfs/inode.c, 6.1 and 6.12): which one
	 * runs out depends on where the charge crosses a page.
	 */
	CHECK(err == ENOMEM || (!fstype && err == ENOSPC),
	      "mknod f%ld past the limit gave errno %d (%s), not ENOMEM%s",
	      n, err, strerror(err), fstype ? "" : " or ENOSPC");
	CHECK(n > 0, "not one file made within %ld KiB more", kib);
	slab = slab_bytes();
	check_made(n);
	if (fstype)
		CHECK(stat_value(fstype, "inodes_live") == live + n,
		      "inodes_live grew by %ld, %ld files were made",
		      stat_value(fstype, "inodes_live") - live, n);
	printf("MEMCG-RUNAWAY %ld %ld %s\n", n, slab, err == ENOMEM ? "ENOMEM" : "ENOSPC");
	remove_files(n);
}

int main(int argc, char **argv)
{
	long n;

	fail_who = "memcg";
	if (argc < 5 || argc > 6 ||
	    (strcmp(argv[1], "charge") && strcmp(argv[1], "runaway"))) {
		fprintf(stderr, "usage: memcg charge CGROUP_DIR DIR N\n"
				"       memcg runaway CGROUP_DIR DIR KIB [FSTYPE]\n");
		return 2;
	}
	cgroup = argv[2];
	dir_fd = open(argv[3], O_RDONLY | O_DIRECTORY);
	CHECK_SYS(dir_fd >= 0, "open %s", argv[3]);
	n = atol(argv[4]);
	CHECK(n > 0, "N (KIB) must be positive");
	if (!strcmp(argv[1], "charge"))
		charge(n);
	else
		runaway(n, argc == 6 ? argv[5] : NULL);
	return 0;
}
