/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An idmapped copy of a mount, for the programs that check ours against
 * tmpfs through one (idmap.c, acl.c): a user namespace mapping ids
 * 0..range-1 to base.., then open_tree(OPEN_TREE_CLONE), mount_setattr()
 * with MOUNT_ATTR_IDMAP and move_mount(). A step that fails returns -1
 * with errno set and idmapped_failed naming it, for the caller to report
 * in its own way; mount_setattr() failing is how a kernel refuses
 * idmapped mounts, which the callers compare with tmpfs's answer.
 */
#ifndef IPAT_IDMAPPED_H
#define IPAT_IDMAPPED_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* In case the C library's headers predate the new mount API. */
#ifndef SYS_open_tree
#define SYS_open_tree		428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount		429
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr	442
#endif
#define IDMAPPED_TREE_CLONE		1		/* OPEN_TREE_CLONE */
#define IDMAPPED_MOVE_EMPTY_PATH	0x00000004	/* MOVE_MOUNT_F_EMPTY_PATH */
#define IDMAPPED_ATTR_IDMAP		0x00100000	/* MOUNT_ATTR_IDMAP */

/* struct mount_attr, MOUNT_ATTR_SIZE_VER0 */
struct idmapped_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* The step that failed, after a -1. */
static const char *idmapped_failed;

/* close() that keeps errno, for the error paths. */
static inline void idmapped_close(int fd)
{
	int err = errno;

	close(fd);
	errno = err;
}

static inline int idmapped_write(const char *path, const char *text)
{
	ssize_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ok = fd >= 0 && write(fd, text, len) == len;

	if (fd >= 0)
		idmapped_close(fd);
	if (!ok)
		idmapped_failed = "writing a user namespace's id map";
	return ok ? 0 : -1;
}

/* The user namespace of @pid, once it has unshared it (@ready): mapped, open. */
static inline int idmapped_open_ns(pid_t pid, int ready, unsigned int base,
				   unsigned int range)
{
	char path[64], map[64], c;

	idmapped_failed = "the child's unshare(CLONE_NEWUSER)";
	if (read(ready, &c, 1) != 1) {
		errno = EPERM;
		return -1;
	}
	snprintf(map, sizeof(map), "0 %u %u\n", base, range);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	if (idmapped_write(path, map) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	if (idmapped_write(path, map) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	idmapped_failed = "opening the user namespace";
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * A user namespace mapping ids 0..range-1 to base..: a child unshares it
 * and waits while we write its maps and open it; the fd keeps it alive.
 */
static inline int idmapped_userns(unsigned int base, unsigned int range)
{
	int ready[2], done[2], fd = -1, status, err;
	pid_t pid;
	char c;

	idmapped_failed = "pipe";
	if (pipe(ready) < 0)
		return -1;
	if (pipe(done) < 0) {
		err = errno;
		close(ready[0]);
		close(ready[1]);
		errno = err;
		return -1;
	}
	idmapped_failed = "fork";
	pid = fork();
	if (!pid) {
		close(ready[0]);
		close(done[1]);
		if (unshare(CLONE_NEWUSER) < 0 || write(ready[1], "u", 1) != 1)
			_exit(1);
		/* until the parent closes its end */
		_exit(read(done[0], &c, 1) < 0);
	}
	err = errno;
	close(ready[1]);
	close(done[0]);
	if (pid > 0) {
		fd = idmapped_open_ns(pid, ready[0], base, range);
		err = errno;
	}
	close(done[1]);		/* the child ends */
	close(ready[0]);
	if (pid > 0 && (waitpid(pid, &status, 0) != pid ||
			!WIFEXITED(status) || WEXITSTATUS(status)) && fd >= 0) {
		close(fd);
		fd = -1;
		err = ECHILD;
		idmapped_failed = "the user namespace's child";
	}
	errno = err;
	return fd;
}

/*
 * An idmapped copy of the mount at @from, mounted at @to: 0; or
 * mount_setattr()'s errno, a positive number, where the kernel refuses
 * the copy; or -1 if another step failed.
 */
static inline int idmapped_copy(const char *from, const char *to, int userns)
{
	struct idmapped_attr attr = {
		.attr_set = IDMAPPED_ATTR_IDMAP,
		.userns_fd = userns,
	};
	int fd, r = 0;

	idmapped_failed = "open_tree(OPEN_TREE_CLONE)";
	fd = syscall(SYS_open_tree, AT_FDCWD, from,
		     IDMAPPED_TREE_CLONE | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* a refusal is an answer for the caller to compare, not a failure */
	if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &attr,
		    sizeof(attr)) < 0) {
		r = errno;
	} else {
		idmapped_failed = "move_mount";
		if (syscall(SYS_move_mount, fd, "", AT_FDCWD, to,
			    IDMAPPED_MOVE_EMPTY_PATH) < 0)
			r = -1;
	}
	/* a refused copy goes with its fd */
	idmapped_close(fd);
	return r;
}

#endif /* IPAT_IDMAPPED_H */
