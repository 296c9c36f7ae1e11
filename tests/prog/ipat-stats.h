/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading one figure of the module's statistics file,
 * /proc/fs/inode_patterns/<fstype> ("key: value" lines), or of a file laid
 * out the same way (memory.stat's "key value"). Reports nothing: each
 * test framework (ipat-test.h, tmpfs-ref.h, tap-ref.h) says it its own way.
 */
#ifndef IPAT_STATS_H
#define IPAT_STATS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The figure of the line "KEY<sep>VALUE" of the file at @path; or -1, with
 * errno fopen()'s, or ENODATA if no such line.
 */
static inline long read_figure(const char *path, const char *key, char sep)
{
	char line[256];
	size_t klen = strlen(key);
	long value = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == sep) {
			value = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	if (value < 0)
		errno = ENODATA;
	return value;
}

/* One "key: value" figure of /proc/fs/inode_patterns/@fstype, or -1. */
static inline long ipat_stat(const char *fstype, const char *key)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/fs/inode_patterns/%s", fstype);
	return read_figure(path, key, ':');
}

#endif
