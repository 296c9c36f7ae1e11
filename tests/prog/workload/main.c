// SPDX-License-Identifier: GPL-2.0
/*
 * workload - seeded differential filesystem workload.
 *
 *   workload [--seed N] [--ops N] [--dump-every N]
 *            [--user-xattr=model|absent|auto] [--btime=required] DIR
 *
 * tests/guest/40-differential.sh runs it on tmpfs and on our three
 * filesystems and compares; see there for running one seed by hand.
 *
 * DIR must be an empty directory, normally the root of a fresh mount.  The
 * program chdir()s there and performs a long pseudo-random sequence of
 * operations (--ops, default 400) drawn from --seed (default 1): create,
 * open/read/write/truncate/mmap, mkdir, rmdir, unlink, rename with every
 * flag variant, link, symlink/readlink, mknod of every type, chmod, chown,
 * utimensat, statx, readdir, set/get/list/removexattr and O_TMPFILE
 * (+ linkat), in a small namespace (five names, three levels) so that
 * operations collide: renames onto existing names, rmdir of full
 * directories, links to directories, names longer than NAME_MAX and so on.
 * About half of the arguments name something that exists, picked from a
 * sorted listing of the tree; the rest come from the seed alone.  Two
 * filesystems that agree so far are therefore given the same next
 * operation.
 *
 * Each operation prints one line to stdout: number, operation, arguments
 * and the result (value or errno name), followed by the stat of the paths
 * involved.  Every --dump-every operations (default 100) and at the end the
 * whole tree is listed with stats, file checksums, symlink targets and
 * xattrs.  Run the same seed on tmpfs and on another filesystem and cmp the
 * two outputs: the first differing line is the first divergence.  A summary
 * of results per operation goes to stderr, to check that both successes and
 * failures are exercised.
 *
 * What is compared, and what is not:
 *  - type, permission bits, nlink, uid, gid, rdev (devices): exactly.
 *  - st_size: for everything but directories.  tmpfs counts 20 bytes
 *    (BOGO_DIRENT_SIZE) per entry in a directory's size, ramfs-like
 *    filesystems built on simple_* report 0; neither is a contract.
 *  - st_blocks: for regular files, exactly: pages held, in 512-byte
 *    units, which writes, truncates, mmap faults and reads of holes must
 *    change as on tmpfs (mounted without huge pages).  Not for symlinks:
 *    tmpfs keeps a short target in the inode, ours take a page; not for
 *    directories, whose size is not compared either.
 *  - st_blksize, st_dev, st_ino, statx attributes and mask: never;
 *    numbers are allocator-specific.
 *  - times: a time we set explicitly with utimensat is far from the present
 *    and printed exactly (nanoseconds included, which checks s_time_gran
 *    and the time range); any time within a day of the present prints as
 *    "now".  Orderings between "now" times depend on clock ticks, so they
 *    are only checked on "timed" operations (one in three): their
 *    objects get an old atime first, then the program waits for the coarse
 *    clock to pass every time they carry, performs the operation and prints
 *    which of atime, mtime, ctime changed on each object.
 *  - btime: never printed, as it is always "now" (tmpfs on 6.1 reports
 *    it too, from i_crtime, but whether a filesystem reports it at all is
 *    its own choice).  When reported it must not be later than ctime, and
 *    --btime=required makes its absence an error.
 *  - user.* xattrs: tmpfs before 6.6 refuses them, the filesystems under
 *    test keep them on regular files and directories like ext4.  Results of
 *    user.* operations are checked against a model inside this program
 *    (--user-xattr=model: supported; absent: EOPNOTSUPP; auto, the
 *    default: probe DIR) and print as "model" when they agree, so outputs
 *    stay comparable; a timed user.* set or remove prints '=' for ctime
 *    when its change agrees with the model.
 *    trusted.* and unknown namespaces (foo.*) print raw results.
 *    security.* and system.* are never used and not listed.
 *  - RENAME_WHITEOUT is added to one rename in four (the variant
 *    overlayfs uses on its upper layer): the whiteout it leaves, a 0/0
 *    character device, is compared like any device node.
 *  - mmap: the times after stores through a shared mapping are compared
 *    like those of any other operation: tmpfs has no page_mkwrite, and
 *    the filesystems under test must stamp them as it does.
 *  - lseek SEEK_DATA/SEEK_HOLE and fallocate are left out: tests/prog/
 *    falloc.c compares them with tmpfs.
 *
 * Mount with nodev: device nodes are created and compared, but opening one
 * must not reach a driver (or make the kernel ask for a module).
 *
 * Exit status: 0 when the run completed and every model and invariant
 * check held (differences against another filesystem are for the caller to
 * find), 1 when a check failed (marked "!!" in the output), 2 on usage or
 * setup errors.
 *
 * The parts: workload.h lists them.
 */
#include "workload.h"

/* Options and global state. */
int ux_mode = UX_AUTO;
bool ux_sockets;
bool opt_btime;
bool use_proc;
unsigned int opno;
int failed;
struct timespec now_ts;
unsigned char wbuf[BUF_MAX], rbuf[BUF_MAX];

static void run_op(struct op *o)
{
	bool two = o->kind == K_RENAME || o->kind == K_LINK ||
		   o->kind == K_TMPFILE;

	clock_gettime(CLOCK_REALTIME, &now_ts);
	op_ok = 0;
	if (o->timed)
		tobj_setup(o, two);

	op_fn[o->kind](o);
	tobj_report();		/* for operations that print none */

	if (op_ok && changes_names[o->kind])
		names_valid = false;
}

static void print_hist(uint64_t seed)
{
	unsigned int k, e, ok = 0, bad = 0;

	fprintf(stderr, "workload seed %" PRIu64 ": results per operation\n",
		seed);
	for (k = 0; k < NKIND; k++) {
		fprintf(stderr, "  %-12s ok=%u", kname[k], hist[k][0]);
		ok += hist[k][0];
		for (e = 1; e < NERR; e++) {
			if (!hist[k][e])
				continue;
			fprintf(stderr, " %s=%u", errname(e), hist[k][e]);
			bad += hist[k][e];
		}
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "  total: %u succeeded, %u failed\n", ok, bad);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: workload [--seed N] [--ops N] [--dump-every N]\n"
		"                [--user-xattr=model|absent|auto] [--btime=required] DIR\n");
	exit(2);
}

/* A reused directory starts like a fresh mount: no xattrs, times now. */
static void clean_root(void)
{
	static char list[65536];
	ssize_t n = llistxattr(".", list, sizeof(list));
	char *s;

	for (s = list; n > 0 && s < list + n; s += strlen(s) + 1)
		if (!strncmp(s, "trusted.", 8) || !strncmp(s, "user.", 5))
			lremovexattr(".", s);
	utimensat(AT_FDCWD, ".", NULL, 0);
}

/* Does DIR's filesystem keep user.* xattrs at all? */
static int probe_user_xattr(void)
{
	if (!setxattr(".", "user.workload-probe", "x", 1, 0)) {
		removexattr(".", "user.workload-probe");
		return UX_MODEL;
	}
	return UX_ABSENT;
}

/*
 * Does the VFS let user.* xattrs onto a socket's inode? Since 7.1 (the
 * series that gave sockets user.* xattrs) it leaves them to the
 * filesystem, where 6.x refused them with EPERM: asked of the kernel, on
 * a socket node made and removed here, before the clock of the run starts.
 */
static bool probe_socket_user_xattr(void)
{
	const char *sock = "workload-probe-sock";
	bool ok;

	if (mknod(sock, S_IFSOCK | 0600, 0))
		return false;
	ok = !setxattr(sock, "user.workload-probe", "x", 1, 0);
	unlink(sock);
	return ok;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	unsigned int ops = 400, every = 100, i;
	const char *dir = NULL;
	struct op *o;
	int fd, n;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--seed") && i + 1 < (unsigned int)argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--ops") && i + 1 < (unsigned int)argc)
			ops = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--dump-every") && i + 1 < (unsigned int)argc)
			every = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(a, "--user-xattr=model"))
			ux_mode = UX_MODEL;
		else if (!strcmp(a, "--user-xattr=absent"))
			ux_mode = UX_ABSENT;
		else if (!strcmp(a, "--user-xattr=auto"))
			ux_mode = UX_AUTO;
		else if (!strcmp(a, "--btime=required"))
			opt_btime = true;
		else if (a[0] == '-' || dir)
			usage();
		else
			dir = a;
	}
	if (!dir)
		usage();
	if (chdir(dir)) {
		perror(dir);
		return 2;
	}
	fd = open(".", O_RDONLY | O_DIRECTORY);
	n = fd < 0 ? -1 : list_dir(fd, dents);
	if (n != 2) {
		fprintf(stderr, "workload: %s must be an empty directory\n", dir);
		return 2;
	}
	close(fd);
	use_proc = !access("/proc/self/fd", X_OK);
	clean_root();
	if (ux_mode == UX_AUTO)
		ux_mode = probe_user_xattr();
	ux_sockets = ux_mode == UX_MODEL && probe_socket_user_xattr();
	o = malloc(sizeof(*o));
	if (!o)
		return 2;

	/* Same starting point whatever the mount options were. */
	umask(022);
	gen_start(seed);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	printf("# workload seed=%" PRIu64 " ops=%u\n", seed, ops);
	clock_gettime(CLOCK_REALTIME, &now_ts);
	printf("00000 root chmod 0755 = %d chown 0:0 = %d", chmod(".", 0755),
	       chown(".", 0, 0));
	printf("\n");
	show(".");

	for (opno = 1; opno <= ops; opno++) {
		gen_op(o);
		run_op(o);
		if (every && opno % every == 0 && opno != ops)
			dump("periodic");
		fflush(stdout);
	}
	opno = ops;
	dump("final");
	printf("# end%s\n", failed ? " with failed checks" : "");
	fflush(stdout);
	print_hist(seed);
	free(o);
	return failed ? 1 : 0;
}
