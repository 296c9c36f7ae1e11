// SPDX-License-Identifier: GPL-2.0
/*
 * populate: the demonstration's workload.
 *
 *   populate DIR N
 *
 * Creates N empty files in DIR, each with a user.* extended attribute, then
 * reads every file's birth time (statx) and attribute back, so that both
 * halves of the private payload are used through the VFS. Prints one line:
 * "create_ns=... payload_ns=..." for the two phases.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int die(const char *what, const char *name)
{
	fprintf(stderr, "populate: %s %s: %s\n", what, name, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	long long t0, t1, t2;
	struct statx stx;
	char name[64], value[16];
	long i, n;
	int fd;

	if (argc != 3 || chdir(argv[1])) {
		fprintf(stderr, "usage: populate DIR N\n");
		return 2;
	}
	n = atol(argv[2]);

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return die("create", name);
		close(fd);
		if (setxattr(name, "user.demo", "payload", 7, XATTR_CREATE))
			return die("setxattr", name);
	}
	t1 = now_ns();
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%ld", i);
		if (statx(AT_FDCWD, name, 0, STATX_BTIME, &stx) ||
		    !(stx.stx_mask & STATX_BTIME))
			return die("statx birth time of", name);
		if (getxattr(name, "user.demo", value, sizeof(value)) != 7)
			return die("getxattr", name);
	}
	t2 = now_ns();
	printf("create_ns=%lld payload_ns=%lld\n", t1 - t0, t2 - t1);
	return 0;
}
