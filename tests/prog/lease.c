// SPDX-License-Identifier: GPL-2.0
/*
 * lease - file leases (fcntl F_SETLEASE, F_GETLEASE) as tmpfs grants them,
 * on every kernel (tests/guest/47-leases.sh).
 *
 *	lease WORKDIR FSTYPE...
 *
 * Since Linux 7.0 a filesystem must name ->setlease for F_SETLEASE to work
 * at all (EINVAL otherwise); before, a missing ->setlease meant
 * generic_setlease(). Checked on a regular file: a read lease and a write
 * lease, each read back with F_GETLEASE and given up with F_UNLCK; a read
 * lease that an open for writing breaks (O_NONBLOCK: EWOULDBLOCK, and the
 * holder is sent SIGIO); and on a directory, which fcntl() refuses on the
 * kernels here but whose answer has moved with the kernel's directory
 * leases: it must be tmpfs's, whatever it is. Results are compared with
 * tmpfs as tap-ref.h says.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap-ref.h"

static const char *workdir;
static char mp[PATH_MAX];
static volatile sig_atomic_t got_sigio;

static void on_sigio(int sig)
{
	(void)sig;
	got_sigio = 1;
}

/* What tmpfs gave for @what: the one answer ours must give too. */
static long tmpfs_gave(const char *what, long got)
{
	int r;

	if (is_tmpfs)
		return got;
	r = tap_lookup(what);
	return r < 0 ? LONG_MIN : tap_ref[r].got;
}

static long set_lease(int fd, int type)
{
	return sys(fcntl(fd, F_SETLEASE, type));
}

/* A lease taken, read back, and given up, on a file open with @flags. */
static void check_lease(const char *file, int flags, int type,
			const char *name)
{
	char what[112];
	int fd = open(file, flags);

	if (fd < 0)
		fatal(file);
	snprintf(what, sizeof(what), "lease: %s lease on a file: granted", name);
	check(what, set_lease(fd, type), 0, 0);
	snprintf(what, sizeof(what), "lease: %s lease: F_GETLEASE reads it back", name);
	check(what, sys(fcntl(fd, F_GETLEASE)), type, R_NUM);
	snprintf(what, sizeof(what), "lease: %s lease: F_UNLCK gives it up", name);
	check(what, set_lease(fd, F_UNLCK), 0, 0);
	snprintf(what, sizeof(what), "lease: %s lease given up: F_GETLEASE is F_UNLCK", name);
	check(what, sys(fcntl(fd, F_GETLEASE)), F_UNLCK, R_NUM);
	close(fd);
}

/*
 * A read lease is broken by an open for writing: with O_NONBLOCK the
 * opener gets EWOULDBLOCK at once, and the holder SIGIO.
 */
static void check_break(const char *file)
{
	struct sigaction sa = { .sa_handler = on_sigio, .sa_flags = SA_RESTART };
	int fd = open(file, O_RDONLY);
	int status;
	pid_t pid;

	if (fd < 0)
		fatal(file);
	sigaction(SIGIO, &sa, NULL);
	got_sigio = 0;
	if (fcntl(fd, F_SETOWN, getpid()) < 0)
		fatal("F_SETOWN");
	check("lease: read lease for the break: granted", set_lease(fd, F_RDLCK),
	      0, 0);
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (!pid) {
		int wfd = open(file, O_WRONLY | O_NONBLOCK);

		_exit(wfd < 0 && errno == EWOULDBLOCK ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) < 0)
		fatal("waitpid");
	check("lease: an open for writing (O_NONBLOCK) breaks it: EWOULDBLOCK",
	      WIFEXITED(status) && WEXITSTATUS(status) == 0, 1, R_NUM);
	check("lease: ... and the holder is sent SIGIO", got_sigio, 1, R_NUM);
	set_lease(fd, F_UNLCK);
	close(fd);
}

/* On a directory the answer depends on the kernel: tmpfs's is the one. */
static void check_dir(const char *dir)
{
	const char *what = "lease: read lease on a directory: as tmpfs";
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long got;

	if (fd < 0)
		fatal(dir);
	got = set_lease(fd, F_RDLCK);
	check(what, got, tmpfs_gave(what, got), 0);
	if (!got)
		set_lease(fd, F_UNLCK);
	close(fd);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: lease WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		snprintf(mp, sizeof(mp), "%s/%s", workdir, cur_fs);
		if (mkdir(mp, 0755) < 0 && errno != EEXIST)
			fatal(mp);
		if (mount("none", mp, cur_fs, 0, NULL) < 0)
			fatal(mp);
		fd = open(at(mp, "f"), O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			fatal("create f");
		close(fd);
		if (mkdir(at(mp, "d"), 0755) < 0)
			fatal("mkdir d");
		check_lease(at(mp, "f"), O_RDONLY, F_RDLCK, "read");
		check_lease(at(mp, "f"), O_RDWR, F_WRLCK, "write");
		check_break(at(mp, "f"));
		check_dir(at(mp, "d"));
		if (umount(mp) < 0)
			fatal(mp);
	}
	return tap_finish("lease");
}
