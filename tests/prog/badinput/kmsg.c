// SPDX-License-Identifier: GPL-2.0
/*
 * badinput's reader of the kernel log (/dev/kmsg): what was logged since
 * kmsg_skip().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "badinput.h"

int kmsg_fd = -1;
static char kmsg_seen[3][256];

void kmsg_open(const char *workdir)
{
	char node[PATH_MAX];

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd >= 0)
		return;
	/* A guest without devtmpfs: make our own node for it. */
	snprintf(node, sizeof(node), "%s/kmsg", workdir);
	unlink(node);
	if (mknod(node, S_IFCHR | 0600, makedev(1, 11)) < 0)
		badinput_die("mknod kmsg");
	kmsg_fd = open(node, O_RDONLY | O_NONBLOCK);
	if (kmsg_fd < 0)
		badinput_die("open kmsg");
}

void kmsg_skip(void)
{
	/* SEEK_END: the log is only read, never cleared. */
	lseek(kmsg_fd, 0, SEEK_END);
	memset(kmsg_seen, 0, sizeof(kmsg_seen));
}

/* Does a record logged since kmsg_skip() contain both a and b? */
bool kmsg_has(const char *a, const char *b)
{
	char rec[8192], *msg, *nl;
	bool found = false;
	int nseen = 0;
	ssize_t n;

	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;	/* overrun: go on with what is left */
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (nseen < 3)
			snprintf(kmsg_seen[nseen++], sizeof(kmsg_seen[0]),
				 "%.200s", msg);
		if (strstr(msg, a) && strstr(msg, b))
			found = true;
	}
	return found;
}

void kmsg_dump(void)
{
	for (int i = 0; i < 3 && kmsg_seen[i][0]; i++)
		printf("     logged: %s\n", kmsg_seen[i]);
	if (!kmsg_seen[0][0])
		printf("     logged: nothing\n");
}
