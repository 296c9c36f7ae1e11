// SPDX-License-Identifier: GPL-2.0
/*
 * memcg: what creating a file charges to the creator's memory cgroup.
 *
 *   memcg CGROUP_DIR DIR N
 *
 * Run from inside the memory cgroup CGROUP_DIR (the caller moved it
 * there), it reads the slab memory charged to the group (memory.stat's
 * "slab", in bytes), creates N empty files in DIR, reads it again, and
 * prints "MEMCG-CHARGE <bytes per file>" (the difference over N, rounded
 * down), then removes the files. One process does it all, so that nothing
 * but the files is charged meanwhile: their inodes, dentries and whatever
 * private data the filesystem allocates. Not memory.current: it moves in
 * per-CPU batches of 64 pages, which would blur the figure by tens of
 * bytes per file; the slab counter is kept to the byte.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ipat-test.h"

static long slab_bytes(const char *cgroup)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/memory.stat", cgroup);
	return file_value(path, "slab", ' ');
}

int main(int argc, char **argv)
{
	long before, after, i, n;
	char name[64];
	int dirfd, fd;

	fail_who = "memcg";
	if (argc != 4) {
		fprintf(stderr, "usage: memcg CGROUP_DIR DIR N\n");
		return 2;
	}
	n = atol(argv[3]);
	CHECK(n > 0, "N must be positive");
	dirfd = open(argv[2], O_RDONLY | O_DIRECTORY);
	CHECK_SYS(dirfd >= 0, "open %s", argv[2]);

	before = slab_bytes(argv[1]);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		CHECK_SYS(fd >= 0, "create %s", name);
		close(fd);
	}
	after = slab_bytes(argv[1]);
	printf("MEMCG-CHARGE %ld\n", (after - before) / n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		CHECK_SYS(unlinkat(dirfd, name, 0) == 0, "unlink %s", name);
	}
	return 0;
}
