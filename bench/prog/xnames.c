// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench xnames -n N FSTYPE:DIR...
 *
 * Gives one file of each DIR N xattr names ("trusted.%04x", so that 5,000
 * fit in listxattr()'s 64 KiB), timing setxattr of each new name, getxattr
 * of each, one listxattr and removexattr of each: per-op figures that
 * stay flat as N grows show a lookup that scales.
 */
#include "common.h"

/* One filesystem of an "xnames" run: N names on one file, each op timed. */
static void xnames_one(const char *fs, const char *dir, long n)
{
	enum { SET, GET, LIST, REMOVE, NX };
	static const char *const what[NX] = { "set", "get", "list", "remove" };
	static char names[5000][16], list[65536];
	char path[512], val[8];
	uint64_t ns[NX], t0;
	long i, len;
	int fd, k;

	fstype = fs;
	for (i = 0; i < n; i++)
		snprintf(names[i], sizeof(names[i]), "trusted.%04x",
			 (unsigned int)i & 0xffff);
	snprintf(path, sizeof(path), "%s/xnames", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		die("create %s", path);
	for (k = 0; k < NX; k++) {
		t0 = now_ns();
		for (i = 0; i < (k == LIST ? 1 : n); i++) {
			if (k == SET && fsetxattr(fd, names[i], "v", 1, XATTR_CREATE))
				die("fsetxattr %s (name %ld of %ld)", names[i], i, n);
			if (k == GET && fgetxattr(fd, names[i], val, sizeof(val)) != 1)
				die("fgetxattr %s", names[i]);
			if (k == REMOVE && fremovexattr(fd, names[i]))
				die("fremovexattr %s", names[i]);
		}
		if (k == LIST) {
			len = flistxattr(fd, list, sizeof(list));
			if (len != n * (long)sizeof("trusted.0000"))
				die("flistxattr: %ld bytes for %ld names", len, n);
		}
		ns[k] = now_ns() - t0;
	}
	printf("IPAT-BENCH xnames fs=%s n=%ld", fs, n);
	for (k = 0; k < NX; k++)
		printf(" %s_ns=%.1f", what[k], (double)ns[k] / (k == LIST ? 1 : n));
	printf("\n");
	close(fd);
	if (unlink(path))
		die("unlink %s", path);
}

static int xnames_run(const struct bench_args *a)
{
	const long n = a->n;
	int k;

	if (n > 5000) {
		fprintf(stderr, "ipat-bench: xnames: at most 5000 names fit\n");
		exit(2);
	}
	for (k = 0; k < a->ntargets; k++) {
		char *dir = spec_dir(a->specs[k]);

		xnames_one(a->specs[k], dir, n);
	}
	return 0;
}

const struct subcommand xnames_cmd = {
	"xnames", "-n N FSTYPE:DIR...", xnames_run
};
