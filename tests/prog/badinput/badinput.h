/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What badinput's files share: main.c runs the checks, kmsg.c reads the
 * kernel log, snapshot.c takes snapshots of the tree.
 */
#ifndef BADINPUT_H
#define BADINPUT_H

#include <stdbool.h>
#include <stddef.h>

#define XATTR_NAME_MAX	255
#define XATTR_SIZE_MAX	65536

/* The test cannot go on: exit 2 (main.c; tmpfs-ref.h's die()). */
void badinput_die(const char *what);

/* kmsg.c: the kernel log, from kmsg_skip() on. */
extern int kmsg_fd;		/* -1 until kmsg_open() */
void kmsg_open(const char *workdir);
void kmsg_skip(void);
bool kmsg_has(const char *a, const char *b);
void kmsg_dump(void);

/* snapshot.c: the tree under the current directory, as text. */
struct buf {
	char *p;
	size_t len, cap;
};

extern char valbuf[XATTR_SIZE_MAX + 1];	/* an xattr value, read */
void snapshot(struct buf *b);
bool snap_same(const struct buf *a, const struct buf *b);

#endif
