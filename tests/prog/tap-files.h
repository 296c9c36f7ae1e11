/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File helpers for the tap-ref.h programs that make, write, map and chattr
 * files (blocks.c, casefold.c, fileio.c, handles.c, iflags.c, interop.c,
 * labels.c): each fails the program (fatal()) where the test cannot go on,
 * and returns -errno where a result is a check's.
 */
#ifndef TAP_FILES_H
#define TAP_FILES_H

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap-ref.h"

#define PG	4096

/*
 * FS_IOC_GETFLAGS and FS_IOC_SETFLAGS and the flags the tests set:
 * <linux/fs.h>'s, which cannot be included beside <sys/mount.h>. The
 * ioctls take an int, whatever their encoding says.
 */
#define GETFLAGS	_IOR('f', 1, long)
#define SETFLAGS	_IOW('f', 2, long)
#define FL_COMPR	0x00000004
#define FL_SYNC		0x00000008
#define FL_IMMUTABLE	0x00000010
#define FL_APPEND	0x00000020
#define FL_NODUMP	0x00000040
#define FL_NOATIME	0x00000080
#define FL_CASEFOLD	0x40000000

static inline int open_new(const char *path)
{
	int fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0644);

	if (fd < 0)
		fatal(path);
	return fd;
}

/* A new file holding @text (none: empty): 0 or -errno. */
static inline long new_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	ssize_t len = text ? (ssize_t)strlen(text) : 0;

	if (fd < 0)
		return -errno;
	if (len && write(fd, text, len) != len) {
		int err = errno;

		close(fd);
		return -err;
	}
	close(fd);
	return 0;
}

static inline long ino_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -errno : (long)st.st_ino;
}

/* The inode flags of @path (lsattr), or -errno. */
static inline long getflags(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK), flags;
	long r;

	if (fd < 0)
		return -errno;
	r = sys(ioctl(fd, GETFLAGS, &flags));
	close(fd);
	return r < 0 ? r : flags;
}

/* Sets the inode flags of @path to @flags (chattr =): 0 or -errno. */
static inline long setflags(const char *path, int flags)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	long r;

	if (fd < 0)
		return -errno;
	r = sys(ioctl(fd, SETFLAGS, &flags));
	close(fd);
	return r;
}

/* pwrite() of @len bytes of @c at @off: what it wrote, or -errno. */
static inline long put(int fd, char c, size_t len, off_t off)
{
	static char data[128 * 1024];

	if (len > sizeof(data))
		fatal("put: too long");
	memset(data, c, len);
	return sys(pwrite(fd, data, len, off));
}

/*
 * In a child: store into page @page of a shared mapping of @path. The
 * signal that killed it (SIGBUS past the size limit), 0, or -100 when the
 * mapping could not be made.
 */
static inline long store_signal(const char *path, int page)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (!pid) {
		int fd = open(path, O_RDWR);
		char *map = fd < 0 ? MAP_FAILED :
			    mmap(NULL, (page + 1) * PG, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, 0);

		if (map == MAP_FAILED)
			_exit(100);
		map[page * PG] = 'z';
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		fatal("waitpid");
	return WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status);
}

#endif
