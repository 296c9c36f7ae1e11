// SPDX-License-Identifier: GPL-2.0
/*
 * badinput's tree snapshots: names, types, sizes, checksums and xattrs of
 * everything under the current directory, as text, to compare before and
 * after an operation that must change nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "badinput.h"

static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->cap = b->cap * 2 + n + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			badinput_die("realloc");
	}
	b->len += n;
}

static uint32_t fnv(const void *p, size_t n, uint32_t h)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 16777619u;
	return h;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

char valbuf[XATTR_SIZE_MAX + 1];

static void snap_xattrs(struct buf *b, const char *path)
{
	char names[8192], *v[256];
	ssize_t n, len;
	int nv = 0;

	n = llistxattr(path, names, sizeof(names));
	if (n < 0) {
		bprintf(b, " listxattr:%d", errno);
		return;
	}
	/* The listing order is the filesystem's own: sort it. */
	for (char *s = names; s < names + n && nv < 256; s += strlen(s) + 1)
		v[nv++] = s;
	qsort(v, nv, sizeof(v[0]), cmp_str);
	for (int i = 0; i < nv; i++) {
		len = lgetxattr(path, v[i], valbuf, sizeof(valbuf));
		if (len < 0)
			bprintf(b, " %s:err%d", v[i], errno);
		else
			bprintf(b, " %s=%zd/%08x", v[i], len,
				fnv(valbuf, len, 2166136261u));
	}
}

static void snap_one(struct buf *b, const char *path)
{
	char data[4096];
	struct stat st;
	uint32_t h = 2166136261u;
	ssize_t n;
	int fd;

	if (lstat(path, &st) < 0) {
		bprintf(b, "%s lstat:%d\n", path, errno);
		return;
	}
	bprintf(b, "%s %o %lu %u:%u %lld", path, st.st_mode,
		(unsigned long)st.st_nlink, st.st_uid, st.st_gid,
		(long long)st.st_size);
	if (S_ISREG(st.st_mode)) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			bprintf(b, " open:%d", errno);
		} else {
			while ((n = read(fd, data, sizeof(data))) > 0)
				h = fnv(data, n, h);
			bprintf(b, " sum=%08x", h);
			close(fd);
		}
	} else if (S_ISLNK(st.st_mode)) {
		n = readlink(path, data, sizeof(data) - 1);
		data[n < 0 ? 0 : n] = '\0';
		bprintf(b, " -> %s", data);
	}
	snap_xattrs(b, path);
	bprintf(b, "\n");
}

static void snap_walk(struct buf *b, const char *dir)
{
	char path[PATH_MAX];
	struct dirent **ents;
	struct stat st;
	int n;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		bprintf(b, "%s scandir:%d\n", dir, errno);
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (strcmp(name, ".") && strcmp(name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			snap_one(b, path);
			if (!lstat(path, &st) && S_ISDIR(st.st_mode))
				snap_walk(b, path);
		}
		free(ents[i]);
	}
	free(ents);
}

/* Snapshot of the tree under the current directory. */
void snapshot(struct buf *b)
{
	b->len = 0;
	bprintf(b, "%s", "");
	snap_one(b, ".");
	snap_walk(b, ".");
}

/* Show the first line that differs, so a failure says what was lost. */
bool snap_same(const struct buf *a, const struct buf *b)
{
	const char *p = a->p, *q = b->p;
	size_t n;

	if (!strcmp(p, q))
		return true;
	for (;;) {
		n = strcspn(p, "\n");
		if (!p[n] || strncmp(p, q, n + 1))
			break;
		p += n + 1;
		q += n + 1;
	}
	printf("     before: %.*s\n", (int)strcspn(p, "\n"), p);
	printf("     after:  %.*s\n", (int)strcspn(q, "\n"), q);
	return false;
}
