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
 *  - st_blocks, st_blksize, st_dev, st_ino, statx attributes and mask:
 *    never.  Block accounting differs legitimately (tmpfs may use huge
 *    pages, charges differently for holes), numbers are allocator-specific.
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
 *  - mmap: tmpfs does not update mtime for writes through a shared mapping
 *    (no page_mkwrite), generic_file_vm_ops does; the mmap operation ends
 *    with futimens(NULL) so both reach the same state.
 *  - lseek SEEK_DATA/SEEK_HOLE and fallocate are left out: tmpfs has its
 *    own, ramfs-like filesystems use the generic ones.
 *
 * Mount with nodev: device nodes are created and compared, but opening one
 * must not reach a driver (or make the kernel ask for a module).
 *
 * Exit status: 0 when the run completed and every model and invariant
 * check held (differences against another filesystem are for the caller to
 * find), 1 when a check failed (marked "!!" in the output), 2 on usage or
 * setup errors.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	(1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE		(1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT		(1 << 2)
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define PB		4400		/* path buffer: symlink targets reach 4096 */
#define PAGE		4096
#define READ_MAX	(256 * 1024)	/* bytes of a file that get checksummed */
#define BUF_MAX		(65536 + 16)
#define DAY		86400

/* ------------------------------------------------------------------ */
/* Pseudo-random numbers: splitmix64, the whole state is one word.     */

static uint64_t rng;

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t next64(void)
{
	rng += 0x9e3779b97f4a7c15ULL;
	return mix64(rng);
}

static uint32_t rn(uint32_t n)
{
	return (uint32_t)(next64() % n);
}

/* Data written by an operation is a function of its own seed only. */
static void fill(unsigned char *buf, size_t len, uint64_t seed)
{
	size_t i;
	uint64_t w = 0;

	for (i = 0; i < len; i++) {
		if (!(i & 7))
			w = mix64(seed + i);
		buf[i] = (unsigned char)(w >> ((i & 7) * 8));
	}
}

static uint64_t fnv(const void *p, size_t len, uint64_t h)
{
	const unsigned char *c = p;

	while (len--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

#define FNV0	0xcbf29ce484222325ULL

/* ------------------------------------------------------------------ */
/* Options and global state.                                           */

enum { UX_MODEL, UX_ABSENT, UX_AUTO };

static int ux_mode = UX_AUTO;
static bool opt_btime;
static bool use_proc;
static unsigned int opno;
static int failed;
static struct timespec now_ts;
static unsigned char wbuf[BUF_MAX], rbuf[BUF_MAX];

/* A failed check prints in the middle of the current line. */
static void check_fail(const char *fmt, ...)
{
	va_list ap;

	printf(" !! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	failed = 1;
}

/* ------------------------------------------------------------------ */
/* Result bookkeeping: errno names and a histogram per operation.      */

enum kind {
	K_CREATE, K_WRITE, K_READ, K_TRUNC, K_MKDIR, K_RMDIR, K_UNLINK,
	K_RENAME, K_LINK, K_SYMLINK, K_READLINK, K_MKNOD, K_CHMOD, K_CHOWN,
	K_UTIMES, K_STAT, K_READDIR, K_SETX, K_GETX, K_LISTX, K_REMOVEX,
	K_TMPFILE, K_TMPLINK, K_MMAP, K_OPEN, K_UMASK, NKIND
};

static const char *const kname[NKIND] = {
	"create", "write", "read", "truncate", "mkdir", "rmdir", "unlink",
	"rename", "link", "symlink", "readlink", "mknod", "chmod", "chown",
	"utimensat", "statx", "readdir", "setxattr", "getxattr", "listxattr",
	"removexattr", "tmpfile", "tmpfile-link", "mmap", "open", "umask",
};

/* Relative weights of the operations in the sequence. */
static const unsigned int weight[NKIND] = {
	[K_CREATE] = 7, [K_WRITE] = 10, [K_READ] = 6, [K_TRUNC] = 5,
	[K_MKDIR] = 9, [K_RMDIR] = 4, [K_UNLINK] = 5, [K_RENAME] = 11,
	[K_LINK] = 4, [K_SYMLINK] = 5, [K_READLINK] = 3, [K_MKNOD] = 4,
	[K_CHMOD] = 3, [K_CHOWN] = 3, [K_UTIMES] = 4, [K_STAT] = 3,
	[K_READDIR] = 3, [K_SETX] = 7, [K_GETX] = 4, [K_LISTX] = 3,
	[K_REMOVEX] = 3, [K_TMPFILE] = 3, [K_MMAP] = 3, [K_OPEN] = 4,
	[K_UMASK] = 1,
};

#define NERR 256
static unsigned int hist[NKIND][NERR];	/* [kind][0] counts successes */
static unsigned int op_ok;			/* successes in this operation */

/* "ENOENT" rather than a number or a message: stable and greppable. */
static const char *errname(int e)
{
	static char buf[16];
	const char *n = strerrorname_np(e);

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static void count(enum kind k, long r, int e)
{
	op_ok += r >= 0;
	hist[k][r < 0 ? (e > 0 && e < NERR ? e : NERR - 1) : 0]++;
}

/* Print " = value" or " = ENAME" and count it. */
static void res(enum kind k, long r, int e)
{
	count(k, r, e);
	if (r < 0)
		printf(" = %s", errname(e));
	else
		printf(" = %ld", r);
}

/*
 * Paths and names are printed with runs of one character shortened
 * ("m*255") and anything still long replaced by its length and hash, so
 * that lines stay readable.
 */
static const char *pp(const char *s)
{
	static char bufs[8][128];
	static unsigned int k;
	char *b = bufs[k++ & 7], *o = b;
	const char *s0 = s;

	if (!*s)
		return "\"\"";
	while (*s && o < b + 64) {
		size_t run = 1;

		while (s[run] == s[0])
			run++;
		if (run > 6) {
			o += sprintf(o, "%c*%zu", s[0], run);
			s += run;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	if (*s)
		snprintf(b, 128, "#%zu:%08" PRIx64, strlen(s0),
			 fnv(s0, strlen(s0), FNV0) & 0xffffffff);
	return b;
}

/* ------------------------------------------------------------------ */
/* Stat lines.                                                         */

static int xstat(int fd, const char *path, int flags, struct statx *st)
{
	return statx(fd, path, flags | AT_STATX_SYNC_AS_STAT,
		     STATX_BASIC_STATS | STATX_BTIME, st);
}

static char ftype(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return 'f';
	case S_IFDIR:
		return 'd';
	case S_IFLNK:
		return 'l';
	case S_IFIFO:
		return 'p';
	case S_IFSOCK:
		return 's';
	case S_IFCHR:
		return 'c';
	case S_IFBLK:
		return 'b';
	}
	return '?';
}

static bool is_now(const struct statx_timestamp *t)
{
	long long d = t->tv_sec - (long long)now_ts.tv_sec;

	return d > -DAY && d < DAY;
}

/* A time is either "now" (set by the kernel) or a value we chose. */
static const char *tcls(const struct statx_timestamp *t)
{
	static char bufs[3][40];
	static unsigned int k;
	char *b = bufs[k++ % 3];

	if (is_now(t))
		return "now";
	snprintf(b, 40, "%lld.%09u", (long long)t->tv_sec, t->tv_nsec);
	return b;
}

static int tcmp(const struct statx_timestamp *a,
		const struct statx_timestamp *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

/* btime is not compared with tmpfs, only checked for sanity. */
static void check_btime(const struct statx *st)
{
	if (!(st->stx_mask & STATX_BTIME)) {
		if (opt_btime)
			check_fail("statx: STATX_BTIME not reported");
		return;
	}
	if (tcmp(&st->stx_btime, &st->stx_ctime) > 0)
		check_fail("statx: btime %lld.%09u later than ctime %lld.%09u",
			   (long long)st->stx_btime.tv_sec,
			   st->stx_btime.tv_nsec,
			   (long long)st->stx_ctime.tv_sec,
			   st->stx_ctime.tv_nsec);
}

static void put_stat(const struct statx *st)
{
	const char *a = tcls(&st->stx_atime);
	const char *m = tcls(&st->stx_mtime);
	const char *c = tcls(&st->stx_ctime);

	printf(" %c%04o n%u u%u g%u", ftype(st->stx_mode),
	       st->stx_mode & 07777, st->stx_nlink, st->stx_uid, st->stx_gid);
	if (!S_ISDIR(st->stx_mode))
		printf(" s%llu", (unsigned long long)st->stx_size);
	if (S_ISCHR(st->stx_mode) || S_ISBLK(st->stx_mode))
		printf(" r%u:%u", st->stx_rdev_major, st->stx_rdev_minor);
	printf(" a=%s m=%s c=%s", a, m, c);
}

/* Print the stat line of a path after an operation, on its own line. */
static void show(const char *p)
{
	struct statx st;

	printf("  %s:", pp(p));
	if (xstat(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, &st)) {
		printf(" %s\n", errname(errno));
		return;
	}
	put_stat(&st);
	check_btime(&st);
	printf("\n");
}

static void show_fd(int fd)
{
	struct statx st;

	if (xstat(fd, "", AT_EMPTY_PATH, &st)) {
		printf(" fstat %s", errname(errno));
		return;
	}
	put_stat(&st);
	check_btime(&st);
}

static void parent_of(const char *p, char *out)
{
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		n--;
	while (n > 0 && p[n - 1] != '/')
		n--;
	while (n > 1 && p[n - 1] == '/')
		n--;
	if (!n) {
		strcpy(out, ".");
		return;
	}
	memcpy(out, p, n);
	out[n] = 0;
}

static void show_with_parent(const char *p)
{
	char par[PB];

	parent_of(p, par);
	show(p);
	show(par);
}

/* ------------------------------------------------------------------ */
/* The user.* xattr model: what a filesystem that keeps user xattrs on  */
/* regular files and directories (like ext4) must answer.  Inodes are   */
/* known by number; an entry is dropped when its inode is seen to die.  */

#define UX_NAMES	3
#define UX_VAL		200
#define UX_MAX		4096

struct ux {
	uint64_t ino;
	int name;
	unsigned int len;
	unsigned char val[UX_VAL];
	bool used;
};

static struct ux umodel[UX_MAX];

static struct ux *ux_find(uint64_t ino, int name)
{
	int i;

	for (i = 0; i < UX_MAX; i++)
		if (umodel[i].used && umodel[i].ino == ino &&
		    umodel[i].name == name)
			return &umodel[i];
	return NULL;
}

static void ux_drop_ino(uint64_t ino)
{
	int i;

	for (i = 0; i < UX_MAX; i++)
		if (umodel[i].used && umodel[i].ino == ino)
			umodel[i].used = false;
}

/* Which user names the model holds for an inode, as a bit mask. */
static unsigned int ux_names(uint64_t ino)
{
	unsigned int mask = 0;
	int i;

	for (i = 0; i < UX_MAX; i++)
		if (umodel[i].used && umodel[i].ino == ino)
			mask |= 1u << umodel[i].name;
	return mask;
}

/* ------------------------------------------------------------------ */
/* Operations: arguments are drawn first, from the seed alone.         */

struct op {
	enum kind kind;
	bool timed;
	char p1[PB];
	char p2[PB];			/* second path, or symlink target */
	char xname[300];
	int xuser;			/* user.* name: 0..2, -1 "user.", -2 long */
	int flags;
	int var;
	unsigned int mode;
	int nch;
	uint64_t off[3], len[3];
	uint64_t a, b;
	uint64_t dseed;
	struct timespec ts[2];
	bool ts_null;
	bool whiteout;
	bool xattr_on_tmpfile;
};

/*
 * The namespace: five names, three levels.  Directories are mostly made
 * under the first three names and files mostly created below them, so that
 * deeper paths usually resolve; renames and the odd file named "a" mix
 * everything up again.
 */
static const char *const pool[] = { "a", "b", "c", "d", "e" };

/* What an argument should name; R_LINK only matters for picking. */
enum role { R_DIR, R_FILE, R_ANY, R_LINK };

static char *gen_rel(char *p, int depth, enum role role)
{
	int i;

	for (i = 0; i < depth; i++) {
		bool last = i == depth - 1;
		int n = 5;

		if (i)
			*p++ = '/';
		if ((!last || role == R_DIR) && rn(5))
			n = 3;
		p = stpcpy(p, pool[rn(n)]);
	}
	return p;
}

static int gen_depth(enum role role)
{
	uint32_t r = rn(100);

	if (role == R_ANY)
		role = rn(2) ? R_DIR : R_FILE;
	if (role == R_DIR)
		return r < 55 ? 1 : r < 90 ? 2 : 3;
	return r < 20 ? 1 : r < 65 ? 2 : 3;
}

static void gen_path(char *buf, enum role role)
{
	uint32_t r = rn(100);
	char *p = buf;

	*p = 0;
	if (r < 1) {			/* component longer than NAME_MAX */
		if (rn(2)) {
			p = gen_rel(p, 1, R_DIR);
			*p++ = '/';
		}
		memset(p, 'n', NAME_MAX + 1);
		p[NAME_MAX + 1] = 0;
	} else if (r < 4) {		/* exactly NAME_MAX: a valid name */
		if (rn(2)) {
			p = gen_rel(p, 1, R_DIR);
			*p++ = '/';
		}
		memset(p, 'm', NAME_MAX);
		p[NAME_MAX] = 0;
	} else if (r < 5) {		/* empty path */
		*p = 0;
	} else if (r < 7) {		/* "." and ".." as last component */
		p = gen_rel(p, 1, R_DIR);
		strcpy(p, rn(2) ? "/." : "/..");
	} else if (r < 9) {		/* trailing slash */
		p = gen_rel(p, gen_depth(role), role);
		strcpy(p, "/");
	} else {
		gen_rel(p, gen_depth(role), role);
	}
}

/*
 * Symlink targets never start with '/' and never contain "." or ".."
 * components: a symlink then resolves at or below its own directory, and no
 * path the workload builds can leave DIR.
 */
static void gen_target(char *buf)
{
	uint32_t r = rn(100);
	size_t i, n;

	if (r < 65) {
		gen_rel(buf, r < 45 ? 1 : 2, R_ANY);
	} else if (r < 75) {
		strcpy(buf, r < 70 ? "zz" : "a/zz/y");
	} else if (r < 80) {
		char *p = gen_rel(buf, 1, R_DIR);

		strcpy(p, "/");
	} else if (r < 86) {		/* long, resolves to nothing */
		n = 100 + rn(3900);
		for (i = 0; i < n; i++)
			buf[i] = (i % 64 == 63) ? '/' : 'q';
		buf[n] = 0;
	} else if (r < 90) {		/* one component above NAME_MAX */
		memset(buf, 'w', 300);
		buf[300] = 0;
	} else if (r < 94) {		/* PATH_MAX - 1: the longest allowed */
		memset(buf, 'q', PATH_MAX - 1);
		for (i = 63; i < PATH_MAX - 1; i += 64)
			buf[i] = '/';
		buf[PATH_MAX - 1] = 0;
	} else if (r < 97) {		/* PATH_MAX: ENAMETOOLONG */
		memset(buf, 'q', PATH_MAX);
		buf[PATH_MAX] = 0;
	} else {
		buf[0] = 0;		/* ENOENT */
	}
}

static unsigned int gen_mode(void)
{
	static const unsigned int modes[] = {
		0644, 0600, 0755, 0777, 0, 04755, 02755, 01777, 02775, 0444,
	};
	uint32_t r = rn(100);

	if (r < 80)
		return modes[rn(ARRAY_SIZE(modes))];
	return rn(010000);
}

static void gen_time(struct timespec *t)
{
	uint32_t r = rn(100);

	t->tv_sec = 0;
	if (r < 15) {
		t->tv_nsec = UTIME_NOW;
		return;
	}
	if (r < 30) {
		t->tv_nsec = UTIME_OMIT;
		return;
	}
	/* All explicit values are years away from the present. */
	if (r < 70)
		t->tv_sec = 1000000000 + rn(500000000);
	else if (r < 82)
		t->tv_sec = 4000000000LL + rn(1000000000);
	else if (r < 92)
		t->tv_sec = -(long long)rn(1000000000) - 1;
	else if (r < 96)
		t->tv_sec = 0;
	else
		t->tv_sec = 1500000000;
	t->tv_nsec = r < 98 ? (long)rn(1000000000) : 1000000000;
}

static void gen_xname(struct op *o)
{
	static const char *const sfx[] = { "a", "b", "c" };
	uint32_t r = rn(100);
	int i = rn(3);

	o->xuser = 0;
	if (r < 40) {
		sprintf(o->xname, "trusted.%s", sfx[i]);
	} else if (r < 76) {
		sprintf(o->xname, "user.%s", sfx[i]);
		o->xuser = 1 + i;
	} else if (r < 81) {
		strcpy(o->xname, "foo.x");
	} else if (r < 84) {
		strcpy(o->xname, "trusted.");
	} else if (r < 87) {
		strcpy(o->xname, "user.");
		o->xuser = -1;
	} else if (r < 90) {		/* XATTR_NAME_MAX + 1: ERANGE */
		strcpy(o->xname, "trusted.");
		memset(o->xname + 8, 'L', XATTR_NAME_MAX + 1 - 8);
		o->xname[XATTR_NAME_MAX + 1] = 0;
	} else if (r < 92) {
		strcpy(o->xname, "user.");
		memset(o->xname + 5, 'L', XATTR_NAME_MAX + 1 - 5);
		o->xname[XATTR_NAME_MAX + 1] = 0;
		o->xuser = -2;
	} else if (r < 94) {
		o->xname[0] = 0;	/* ERANGE */
	} else {			/* XATTR_NAME_MAX exactly: valid */
		strcpy(o->xname, "trusted.");
		memset(o->xname + 8, 'K', XATTR_NAME_MAX - 8);
		o->xname[XATTR_NAME_MAX] = 0;
	}
	/* Internally user names are 0..2, or negative when invalid. */
	if (o->xuser > 0)
		o->xuser--;
	else if (o->xuser == 0)
		o->xuser = -100;	/* not a user.* name */
}

static uint64_t gen_xlen(bool user)
{
	uint32_t r = rn(100);

	if (r < 10)
		return 0;
	if (user || r < 85)
		return 1 + rn(UX_VAL);
	if (r < 95)
		return 1000 + rn(4000);
	if (r < 97)
		return 65536;		/* XATTR_SIZE_MAX */
	return 65537;			/* E2BIG */
}

static uint64_t gen_off(void)
{
	uint32_t r = rn(100);

	if (r < 20)
		return 0;
	if (r < 90)
		return rn(3 * PAGE + 500);
	if (r < 95)
		return 3ULL << 30;		/* past 2 GiB: s_maxbytes */
	if (r < 98)
		return 1ULL << 40;
	return LLONG_MAX - rn(10);		/* EFBIG / EINVAL */
}

static uint64_t gen_len(void)
{
	uint32_t r = rn(100);

	if (r < 5)
		return 0;
	if (r < 95)
		return 1 + rn(9000);
	return 65536;
}

static enum kind gen_kind(void)
{
	unsigned int total = 0, r, k;

	for (k = 0; k < NKIND; k++)
		total += weight[k];
	r = rn(total);
	for (k = 0; k < NKIND; k++) {
		if (r < weight[k])
			return (enum kind)k;
		r -= weight[k];
	}
	return K_STAT;
}

struct dent {
	char name[NAME_MAX + 1];
	unsigned char type;
};

static int dent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name,
		      ((const struct dent *)b)->name);
}

#define MAXDENT 512

/* Sorted listing of an open directory; returns the count or -errno. */
static int list_dir(int fd, struct dent *d)
{
	char buf[8192];
	int n = 0;

	for (;;) {
		ssize_t got = getdents64(fd, buf, sizeof(buf)), pos;

		if (got < 0)
			return -errno;
		if (!got)
			break;
		for (pos = 0; pos < got;) {
			struct dirent64 *de = (struct dirent64 *)(buf + pos);

			if (n < MAXDENT) {
				strcpy(d[n].name, de->d_name);
				d[n].type = de->d_type;
				n++;
			}
			pos += de->d_reclen;
		}
	}
	qsort(d, n, sizeof(*d), dent_cmp);
	return n;
}

/*
 * Existing names, from a sorted walk of the tree with O_NOATIME (so the
 * walk changes nothing).  Choosing among them makes arguments depend on
 * the filesystem's state, which is fine: that state is printed, so a
 * difference shows up before the choices it changes.
 */
#define MAXNAMES	256
#define NAMELEN		1400

static char names[MAXNAMES][NAMELEN];
static unsigned char ntypes[MAXNAMES];
static int nnames;
static bool names_valid;	/* until an operation may change names */

static void walk(const char *dir, int depth, struct dent *d)
{
	int fd, n, i, first;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOATIME | O_CLOEXEC);
	if (fd < 0)
		return;
	n = list_dir(fd, d);
	close(fd);
	first = nnames;
	for (i = 0; i < n && nnames < MAXNAMES; i++) {
		char *p = names[nnames];
		int l;

		if (!strcmp(d[i].name, ".") || !strcmp(d[i].name, ".."))
			continue;
		if (!strcmp(dir, "."))
			l = snprintf(p, NAMELEN, "%s", d[i].name);
		else
			l = snprintf(p, NAMELEN, "%s/%s", dir, d[i].name);
		if (l >= NAMELEN)
			continue;
		ntypes[nnames++] = d[i].type;
	}
	/* d[] is reused below: recurse over what was collected. */
	n = nnames;
	for (i = first; i < n && depth < 6; i++)
		if (ntypes[i] == DT_DIR)
			walk(names[i], depth + 1, d);
}

static bool role_fits(enum role role, unsigned char type)
{
	switch (role) {
	case R_DIR:
		return type == DT_DIR;
	case R_FILE:
		return type != DT_DIR;
	case R_LINK:
		return type == DT_LNK;
	case R_ANY:
		break;
	}
	return true;
}

static bool pick_existing(char *buf, uint64_t r, enum role role)
{
	static struct dent d[MAXDENT];
	int i, n = 0;

	if (!names_valid) {
		nnames = 0;
		walk(".", 0, d);
		names_valid = true;
	}
	for (i = 0; i < nnames; i++)
		n += role_fits(role, ntypes[i]);
	if (!n)
		return false;
	r %= n;
	for (i = 0; i < nnames; i++) {
		if (role_fits(role, ntypes[i]) && !r--) {
			strcpy(buf, names[i]);
			return true;
		}
	}
	return false;
}

/* A new name in an existing directory (or at the top). */
static void pick_new(char *buf, uint64_t r)
{
	const char *name = pool[(r >> 48) % 5];

	if ((r >> 40) % 4 && pick_existing(buf, r, R_DIR))
		sprintf(buf + strlen(buf), "/%s", name);
	else
		strcpy(buf, name);
}

/*
 * How often argument @arg names something that exists, and how often a
 * new name in an existing directory, in percent; the rest is generated.
 */
static void pick_pct(enum kind k, int arg, unsigned int *ex, unsigned int *nw)
{
	*ex = arg ? 0 : 70;
	*nw = 0;
	switch (k) {
	case K_MKDIR:
	case K_CREATE:
	case K_MKNOD:
	case K_SYMLINK:
		*ex = arg ? 0 : 15;
		*nw = arg ? 0 : 60;
		break;
	case K_RENAME:
	case K_LINK:
		*ex = arg ? 30 : 70;
		*nw = arg ? 45 : 0;
		break;
	case K_TMPFILE:
		*nw = arg ? 60 : 0;
		break;
	default:
		break;
	}
}

/* Recent setxattr paths and names, for get and remove to find them. */
#define XRING 8
static struct {
	char path[PB];
	char name[300];
	int xuser;
} xring[XRING];
static unsigned int xring_n;

static enum role role_of(enum kind k, bool coin)
{
	switch (k) {
	case K_MKDIR:
	case K_RMDIR:
	case K_READDIR:
	case K_TMPFILE:
		return R_DIR;
	case K_READLINK:
		return R_LINK;
	case K_CREATE:
	case K_WRITE:
	case K_READ:
	case K_TRUNC:
	case K_SYMLINK:
	case K_MKNOD:
	case K_MMAP:
	case K_UNLINK:
		return R_FILE;
	default:
		return coin ? R_DIR : R_ANY;
	}
}

static void gen_op(struct op *o)
{
	uint64_t pick[2];
	enum role roles[2];
	bool below = false;
	int i, below_name = 0;

	memset(o, 0, sizeof(*o));
	o->kind = gen_kind();
	o->timed = rn(3) == 0;
	o->var = rn(100);
	o->dseed = next64();
	pick[0] = next64();
	pick[1] = next64();
	roles[0] = role_of(o->kind, rn(2));
	roles[1] = role_of(o->kind, rn(2));
	gen_path(o->p1, roles[0]);
	gen_path(o->p2, roles[1]);
	o->mode = gen_mode();
	o->a = next64();
	o->b = next64();
	o->nch = 1 + rn(3);
	for (i = 0; i < 3; i++) {
		o->off[i] = gen_off();
		o->len[i] = gen_len();
	}

	switch (o->kind) {
	case K_RENAME:
	case K_LINK:
		below = rn(10) == 0;
		below_name = rn(5);
		o->whiteout = rn(4) == 0;
		break;
	case K_SYMLINK:
		gen_target(o->p2);
		break;
	case K_UTIMES:
		o->ts_null = rn(10) == 0;
		gen_time(&o->ts[0]);
		gen_time(&o->ts[1]);
		break;
	case K_SETX:
	case K_GETX:
	case K_REMOVEX:
	case K_LISTX:
		gen_xname(o);
		o->len[0] = gen_xlen(o->xuser != -100);
		break;
	case K_TMPFILE:
		o->xattr_on_tmpfile = rn(4) == 0;
		gen_xname(o);
		break;
	case K_MMAP:
	case K_STAT:
	case K_UMASK:
		o->timed = false;	/* nothing about times to learn */
		break;
	default:
		break;
	}

	/* Last, as it only replaces paths: the draws above stay the same. */
	for (i = 0; i < 2; i++) {
		char *p = i ? o->p2 : o->p1;
		unsigned int ex, nw, r = pick[i] % 100;

		if (i && o->kind == K_SYMLINK)
			break;		/* p2 is the target */
		pick_pct(o->kind, i, &ex, &nw);
		if (r < ex)
			pick_existing(p, pick[i] >> 8, i ? R_ANY : roles[0]);
		else if (r < ex + nw)
			pick_new(p, pick[i] >> 8);
	}
	/* Sometimes aim below the source: EINVAL for a directory. */
	if (below && o->p1[0] && strlen(o->p1) < 300)
		sprintf(o->p2, "%s/%s", o->p1, pool[below_name]);
	/* Every path stays inside DIR: never absolute, never above it. */
	if (o->p1[0] == '/' || o->p2[0] == '/') {
		fprintf(stderr, "workload: op %u: absolute path %s %s\n",
			opno, o->p1, o->p2);
		exit(2);
	}
	if ((o->kind == K_GETX || o->kind == K_REMOVEX ||
	     o->kind == K_LISTX) && xring_n && pick[1] % 100 < 60) {
		unsigned int n = xring_n < XRING ? xring_n : XRING;

		i = (pick[1] >> 8) % n;
		strcpy(o->p1, xring[i].path);
		strcpy(o->xname, xring[i].name);
		o->xuser = xring[i].xuser;
	}
}

/* ------------------------------------------------------------------ */
/* Time checks on "timed" operations.                                  */

#define TOBJ 6

struct tobj {
	int fd;
	char label[4];
	struct statx before;
};

static int ntobj;
static struct tobj tobj[TOBJ];

static void tobj_add(const char *path, const char *label, bool follow)
{
	struct statx st;
	int fd, i;

	if (ntobj == TOBJ)
		return;
	fd = open(path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return;
	if (xstat(fd, "", AT_EMPTY_PATH, &st)) {
		close(fd);
		return;
	}
	for (i = 0; i < ntobj; i++) {
		if (tobj[i].before.stx_ino == st.stx_ino) {
			close(fd);
			return;
		}
	}
	tobj[ntobj].fd = fd;
	tobj[ntobj].before = st;
	strcpy(tobj[ntobj].label, label);
	ntobj++;
}

/*
 * Give every object an atime far in the past, so that relatime updates it
 * on the next access whatever the clock did.  Through /proc/self/fd, after
 * all objects are open: a path would be walked again, and following a
 * symlink on the way updates the symlink's atime.
 */
static void tobj_reset_atime(void)
{
	static const struct timespec old[2] = {
		{ 1000000000, 500 }, { 0, UTIME_OMIT },
	};
	char p[64];
	int i;

	for (i = 0; i < ntobj && use_proc; i++) {
		snprintf(p, sizeof(p), "/proc/self/fd/%d", tobj[i].fd);
		utimensat(AT_FDCWD, p, old, 0);
	}
}

static void ts_max(const struct statx_timestamp *t, struct timespec *m)
{
	if (!is_now(t))
		return;
	if (t->tv_sec > m->tv_sec ||
	    (t->tv_sec == m->tv_sec && t->tv_nsec > m->tv_nsec)) {
		m->tv_sec = t->tv_sec;
		m->tv_nsec = t->tv_nsec;
	}
}

/*
 * Take the "before" stats, then wait until the clock the kernel stamps
 * inodes with has passed every time they carry: whatever the operation
 * sets is then strictly newer and shows up as a change.
 */
static void tobj_arm(void)
{
	struct timespec max = { 0, 0 }, c;
	int i;

	for (i = 0; i < ntobj; i++) {
		struct statx *st = &tobj[i].before;
		int fd = tobj[i].fd;

		xstat(fd, "", AT_EMPTY_PATH, st);
		ts_max(&st->stx_atime, &max);
		ts_max(&st->stx_mtime, &max);
		ts_max(&st->stx_ctime, &max);
	}
	for (;;) {
		clock_gettime(CLOCK_REALTIME_COARSE, &c);
		if (c.tv_sec > max.tv_sec ||
		    (c.tv_sec == max.tv_sec && c.tv_nsec > max.tv_nsec))
			break;
		usleep(200);
	}
}

static void tobj_setup(const struct op *o, bool two)
{
	char par[PB];

	ntobj = 0;
	parent_of(o->p1, par);
	tobj_add(par, "D1", true);
	tobj_add(o->p1, "P1", false);
	tobj_add(o->p1, "F1", true);
	if (two) {
		parent_of(o->p2, par);
		tobj_add(par, "D2", true);
		tobj_add(o->p2, "P2", false);
	}
	tobj_reset_atime();
	tobj_arm();
}

/*
 * A user.* set or remove changes its inode's ctime where it succeeds, and
 * whether it succeeds depends on --user-xattr: that one flag is checked
 * against the model and printed as '=' when it agrees.
 */
static bool tmodel;
static uint64_t tmodel_ino;
static bool tmodel_change;

static void tobj_model(const struct statx *target, long want)
{
	tmodel = !!target;
	tmodel_ino = target ? target->stx_ino : 0;
	tmodel_change = want == 0;
}

static void tobj_report(void)
{
	int i;

	if (!ntobj) {
		tmodel = false;
		return;
	}
	printf("  t");
	for (i = 0; i < ntobj; i++) {
		struct statx *b = &tobj[i].before, a;
		bool cc;
		char c;

		if (xstat(tobj[i].fd, "", AT_EMPTY_PATH, &a)) {
			printf(" %s:%s", tobj[i].label, errname(errno));
			close(tobj[i].fd);
			continue;
		}
		cc = tcmp(&a.stx_ctime, &b->stx_ctime);
		c = cc ? 'c' : '-';
		if (tmodel && a.stx_ino == tmodel_ino)
			c = cc == tmodel_change ? '=' : '!';
		printf(" %s:%c%c%c", tobj[i].label,
		       !use_proc ? '.' :
		       tcmp(&a.stx_atime, &b->stx_atime) ? 'a' : '-',
		       tcmp(&a.stx_mtime, &b->stx_mtime) ? 'm' : '-', c);
		if (c == '!') {
			printf(" !! ctime %s, model says %s",
			       cc ? "changed" : "unchanged",
			       tmodel_change ? "changed" : "unchanged");
			failed = 1;
		}
		close(tobj[i].fd);
	}
	printf("\n");
	ntobj = 0;
	tmodel = false;
}

/* ------------------------------------------------------------------ */
/* Inodes that may die in an operation, for the user xattr model.      */

#define NVICT 2
static int victim[NVICT];

static void victims_take(const char *a, const char *b)
{
	victim[0] = a ? open(a, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
	victim[1] = b ? open(b, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
}

static void victims_reap(void)
{
	struct statx st;
	int i;

	for (i = 0; i < NVICT; i++) {
		if (victim[i] < 0)
			continue;
		if (!xstat(victim[i], "", AT_EMPTY_PATH, &st) && !st.stx_nlink)
			ux_drop_ino(st.stx_ino);
		close(victim[i]);
		victim[i] = -1;
	}
}

/* ------------------------------------------------------------------ */
/* File data helpers.                                                  */

static int xopen(const char *p, int flags, unsigned int mode)
{
	/* O_NONBLOCK: a FIFO must never block the workload. */
	return open(p, flags | O_NONBLOCK | O_CLOEXEC, mode);
}

static const char *oflags(int f)
{
	static char b[128];
	int acc = f & O_ACCMODE;

	strcpy(b, acc == O_RDONLY ? "r" : acc == O_WRONLY ? "w" :
	       acc == O_RDWR ? "rw" : "acc3");
	if (f & O_CREAT)
		strcat(b, "|creat");
	if (f & O_EXCL)
		strcat(b, "|excl");
	if (f & O_TRUNC)
		strcat(b, "|trunc");
	if (f & O_APPEND)
		strcat(b, "|append");
	if ((f & O_TMPFILE) == O_TMPFILE)
		strcat(b, "|tmpfile");
	else if (f & O_DIRECTORY)
		strcat(b, "|directory");
	if (f & O_NOFOLLOW)
		strcat(b, "|nofollow");
	if (f & O_PATH)
		strcat(b, "|path");
	return b;
}

/*
 * Checksum of the first READ_MAX bytes read from the current position,
 * then of the last page of a longer file.  Prints " len=N fnv=H" or the
 * error of the read.
 */
static void read_sum(int fd, enum kind k)
{
	/* k == NKIND: a dump, not an operation; count nothing. */
	uint64_t h = FNV0, total = 0;
	struct statx st;
	ssize_t n;

	for (;;) {
		n = read(fd, rbuf, 65536);
		if (n < 0) {
			if (k != NKIND)
				count(k, -1, errno);
			printf(" = %s", errname(errno));
			return;
		}
		if (!n)
			break;
		h = fnv(rbuf, n, h);
		total += n;
		if (total >= READ_MAX)
			break;
	}
	if (!xstat(fd, "", AT_EMPTY_PATH, &st) && S_ISREG(st.stx_mode) &&
	    st.stx_size > READ_MAX) {
		n = pread(fd, rbuf, PAGE, st.stx_size - PAGE);
		if (n > 0)
			h = fnv(rbuf, n, h);
	}
	if (k != NKIND)
		count(k, 0, 0);
	printf(" = len=%" PRIu64 " fnv=%016" PRIx64, total, h);
}

/*
 * Read a file back right after changing it: much of what is written is
 * renamed over or truncated before any later read or dump would see it.
 * O_NOATIME keeps the check out of the times being compared.
 */
static void read_back(const char *p)
{
	int fd = open(p, O_RDONLY | O_NOATIME | O_NONBLOCK | O_CLOEXEC);

	printf(" back");
	if (fd < 0) {
		printf(" = %s", errname(errno));
		return;
	}
	read_sum(fd, NKIND);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* The operations.                                                     */

static void hdr(const struct op *o)
{
	printf("%05u %s", opno, kname[o->kind]);
}

static void op_create(struct op *o)
{
	static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR };
	int fl = O_CREAT | acc[o->a % 3], fd;

	if (o->var < 35)
		fl |= O_EXCL;
	if (o->b % 4 == 0)
		fl |= O_TRUNC;
	hdr(o);
	printf(" %s %s %04o", pp(o->p1), oflags(fl), o->mode);
	fd = xopen(o->p1, fl, o->mode);
	res(o->kind, fd < 0 ? -1 : 0, errno);
	printf("\n");
	if (fd >= 0)
		close(fd);
	tobj_report();
	show_with_parent(o->p1);
}

/* Chunks written beyond what read_sum() covers are read back alone. */
static void read_back_far(const char *p, const struct op *o)
{
	int fd = -1, i;

	for (i = 0; i < o->nch; i++) {
		ssize_t n;

		if (o->off[i] + o->len[i] <= READ_MAX || o->len[i] > 65536 ||
		    o->off[i] > LLONG_MAX - 65536)
			continue;
		if (fd < 0)
			fd = open(p, O_RDONLY | O_NOATIME | O_NONBLOCK |
				  O_CLOEXEC);
		if (fd < 0)
			return;
		n = pread(fd, rbuf, o->len[i], o->off[i]);
		printf(" back@%" PRIu64, o->off[i]);
		if (n < 0)
			printf(" = %s", errname(errno));
		else
			printf(" = %zd fnv=%016" PRIx64, n, fnv(rbuf, n, FNV0));
	}
	if (fd >= 0)
		close(fd);
}

static void op_write(struct op *o)
{
	int fl = (o->a % 2 ? O_WRONLY : O_RDWR), fd, i;

	if (o->var < 15)
		fl |= O_APPEND;
	if (o->var >= 90)
		fl |= O_TRUNC;
	if (o->b % 3 == 0)
		fl |= O_CREAT;
	hdr(o);
	printf(" %s %s", pp(o->p1), oflags(fl));
	fd = xopen(o->p1, fl, 0644);
	if (fd < 0) {
		res(o->kind, -1, errno);
		printf("\n");
		tobj_report();
		show(o->p1);
		return;
	}
	for (i = 0; i < o->nch; i++) {
		ssize_t n;

		fill(wbuf, o->len[i], o->dseed + i);
		printf(" @%" PRIu64 "+%" PRIu64, o->off[i], o->len[i]);
		n = pwrite(fd, wbuf, o->len[i], o->off[i]);
		res(o->kind, n, errno);
	}
	close(fd);
	read_back(o->p1);
	read_back_far(o->p1, o);
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_read(struct op *o)
{
	int fl = O_RDONLY, fd;
	ssize_t n;
	uint64_t len = o->len[0] > 65536 ? 65536 : o->len[0];

	if (o->var < 10)
		fl |= O_DIRECTORY;
	hdr(o);
	printf(" %s %s", pp(o->p1), oflags(fl));
	fd = xopen(o->p1, fl, 0);
	if (fd < 0) {
		res(o->kind, -1, errno);
	} else {
		read_sum(fd, o->kind);
		n = pread(fd, rbuf, len, o->off[0]);
		printf(" pread@%" PRIu64 "+%" PRIu64, o->off[0], len);
		if (n < 0)
			printf(" = %s", errname(errno));
		else
			printf(" = %zd fnv=%016" PRIx64, n,
			       fnv(rbuf, n, FNV0));
		close(fd);
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_trunc(struct op *o)
{
	long long len;
	uint32_t r = o->a % 100;
	int fd = -1, e;
	long ret;

	if (r < 60)
		len = o->b % (3 * PAGE + 100);
	else if (r < 75)
		len = 0;
	else if (r < 82)
		len = 3LL << 30;
	else if (r < 87)
		len = 1LL << 40;
	else if (r < 92)
		len = -1;
	else if (r < 95)
		len = LLONG_MAX;
	else
		len = o->off[0];
	hdr(o);
	if (o->var < 50) {
		printf(" %s %lld", pp(o->p1), len);
		ret = truncate(o->p1, len);
		e = errno;
	} else {
		int fl = o->var < 90 ? O_WRONLY : O_RDONLY;

		printf(" %s %s ftruncate %lld", pp(o->p1), oflags(fl), len);
		fd = xopen(o->p1, fl, 0);
		if (fd < 0) {
			ret = -1;
			e = errno;
		} else {
			ret = ftruncate(fd, len);
			e = errno;
			close(fd);
		}
	}
	res(o->kind, ret, e);
	if (!ret)
		read_back(o->p1);
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_mkdir(struct op *o)
{
	long r;

	hdr(o);
	printf(" %s %04o", pp(o->p1), o->mode);
	r = mkdir(o->p1, o->mode);
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show_with_parent(o->p1);
}

static void op_rmdir(struct op *o)
{
	long r;

	hdr(o);
	printf(" %s", pp(o->p1));
	victims_take(o->p1, NULL);
	r = rmdir(o->p1);
	res(o->kind, r, errno);
	printf("\n");
	victims_reap();
	tobj_report();
	show_with_parent(o->p1);
}

static void op_unlink(struct op *o)
{
	long r;

	hdr(o);
	printf(" %s", pp(o->p1));
	victims_take(o->p1, NULL);
	r = unlink(o->p1);
	res(o->kind, r, errno);
	printf("\n");
	victims_reap();
	tobj_report();
	show_with_parent(o->p1);
}

static const char *rflags(unsigned int f)
{
	static char b[64];

	b[0] = 0;
	if (f & RENAME_NOREPLACE)
		strcat(b, "|noreplace");
	if (f & RENAME_EXCHANGE)
		strcat(b, "|exchange");
	if (f & RENAME_WHITEOUT)
		strcat(b, "|whiteout");
	if (f & ~7u)
		sprintf(b + strlen(b), "|0x%x", f & ~7u);
	return b[0] ? b + 1 : "0";
}

static void op_rename(struct op *o)
{
	static const unsigned int fl[] = {
		0, 0, 0, 0, RENAME_NOREPLACE, RENAME_NOREPLACE,
		RENAME_EXCHANGE, RENAME_EXCHANGE, RENAME_EXCHANGE,
	};
	unsigned int f;
	long r;
	int e;

	if (o->var < 90)
		f = fl[o->a % ARRAY_SIZE(fl)];
	else if (o->var < 95)
		f = RENAME_NOREPLACE | RENAME_EXCHANGE;	/* EINVAL */
	else
		f = 1u << 5;				/* EINVAL */
	/* with RENAME_EXCHANGE, EINVAL */
	if (o->whiteout)
		f |= RENAME_WHITEOUT;
	hdr(o);
	printf(" %s %s %s", pp(o->p1), pp(o->p2), rflags(f));
	victims_take(f & RENAME_EXCHANGE ? NULL : o->p2, NULL);
	if (!f && o->b % 2)
		r = rename(o->p1, o->p2);
	else
		r = renameat2(AT_FDCWD, o->p1, AT_FDCWD, o->p2, f);
	e = errno;
	res(o->kind, r, e);
	printf("\n");
	victims_reap();
	tobj_report();
	show_with_parent(o->p1);
	show_with_parent(o->p2);
}

static void op_link(struct op *o)
{
	int f = o->var < 30 ? AT_SYMLINK_FOLLOW : 0;
	long r;

	hdr(o);
	printf(" %s %s%s", pp(o->p1), pp(o->p2), f ? " follow" : "");
	r = linkat(AT_FDCWD, o->p1, AT_FDCWD, o->p2, f);
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show(o->p1);
	show_with_parent(o->p2);
}

static void op_symlink(struct op *o)
{
	long r;

	hdr(o);
	printf(" %s -> %s", pp(o->p1), pp(o->p2));
	r = symlink(o->p2, o->p1);
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show_with_parent(o->p1);
}

static void op_readlink(struct op *o)
{
	size_t sz = o->var < 80 ? PATH_MAX : (o->var < 95 ? 1 + o->a % 8 : 0);
	char buf[PATH_MAX + 1];
	ssize_t n;

	hdr(o);
	printf(" %s %zu", pp(o->p1), sz);
	n = readlink(o->p1, buf, sz);
	res(o->kind, n, errno);
	if (n >= 0) {
		buf[n] = 0;
		printf(" %s", pp(buf));
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_mknod(struct op *o)
{
	static const unsigned int types[] = {
		S_IFIFO, S_IFIFO, S_IFIFO, S_IFSOCK, S_IFSOCK, S_IFCHR,
		S_IFCHR, S_IFBLK, S_IFREG, 0, S_IFDIR, S_IFLNK, 0170000,
	};
	unsigned int type = types[o->a % ARRAY_SIZE(types)];
	unsigned int maj = (o->b >> 32) % 4096, min = (o->b & 0xffffffff) % (1 << 20);
	unsigned int mode = type | (o->mode & 07777);
	long r;

	hdr(o);
	printf(" %s 0%o %u:%u", pp(o->p1), mode, maj, min);
	r = mknod(o->p1, mode, makedev(maj, min));
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show_with_parent(o->p1);
}

static void op_chmod(struct op *o)
{
	unsigned int mode = o->var < 90 ? o->mode : o->mode | S_IFREG;
	long r;

	hdr(o);
	printf(" %s 0%o", pp(o->p1), mode);
	/* The raw call: glibc's fchmodat emulates flags through /proc. */
	r = syscall(SYS_fchmodat, AT_FDCWD, o->p1, mode);
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_chown(struct op *o)
{
	static const unsigned int ids[] = {
		-1u, 0, 1, 1000, 65534, 4294967294u, -1u, 0,
	};
	unsigned int uid = ids[o->a % 8], gid = ids[o->b % 8];
	int f = o->var < 40 ? AT_SYMLINK_NOFOLLOW : 0;
	long r;

	hdr(o);
	printf(" %s %d:%d%s", pp(o->p1), (int)uid, (int)gid,
	       f ? " nofollow" : "");
	r = fchownat(AT_FDCWD, o->p1, uid, gid, f);
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show(o->p1);
}

static const char *tsarg(const struct timespec *t)
{
	static char bufs[2][40];
	static unsigned int k;
	char *b = bufs[k++ & 1];

	if (t->tv_nsec == UTIME_NOW)
		return "NOW";
	if (t->tv_nsec == UTIME_OMIT)
		return "OMIT";
	snprintf(b, 40, "%lld.%09ld", (long long)t->tv_sec, t->tv_nsec);
	return b;
}

static void op_utimes(struct op *o)
{
	int f = o->var < 30 ? AT_SYMLINK_NOFOLLOW : 0;
	long r;

	hdr(o);
	if (o->ts_null)
		printf(" %s NULL", pp(o->p1));
	else
		printf(" %s %s %s", pp(o->p1), tsarg(&o->ts[0]),
		       tsarg(&o->ts[1]));
	printf("%s", f ? " nofollow" : "");
	r = utimensat(AT_FDCWD, o->p1, o->ts_null ? NULL : o->ts, f);
	res(o->kind, r, errno);
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_stat(struct op *o)
{
	int f = o->var < 50 ? AT_SYMLINK_NOFOLLOW : 0;
	struct statx st;
	long r;

	hdr(o);
	printf(" %s%s", pp(o->p1), f ? " nofollow" : "");
	r = xstat(AT_FDCWD, o->p1, f, &st);
	res(o->kind, r, errno);
	if (!r) {
		put_stat(&st);
		check_btime(&st);
	}
	printf("\n");
}

static char dtype(unsigned char t)
{
	switch (t) {
	case DT_REG:
		return 'f';
	case DT_DIR:
		return 'd';
	case DT_LNK:
		return 'l';
	case DT_FIFO:
		return 'p';
	case DT_SOCK:
		return 's';
	case DT_CHR:
		return 'c';
	case DT_BLK:
		return 'b';
	case DT_UNKNOWN:
		return 'u';
	}
	return '?';
}

static struct dent dents[MAXDENT];

static void op_readdir(struct op *o)
{
	int fd, n, i;

	hdr(o);
	printf(" %s", pp(o->p1));
	fd = xopen(o->p1, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		res(o->kind, -1, errno);
	} else {
		n = list_dir(fd, dents);
		res(o->kind, n < 0 ? -1 : n, -n);
		for (i = 0; i < n; i++)
			printf(" %s:%c", pp(dents[i].name),
			       dtype(dents[i].type));
		close(fd);
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

/* ------------------------------------------------------------------ */
/* xattrs.  trusted.* and foo.* results print raw; user.* results are   */
/* compared with the model and print "model" when they agree.          */

static const char *xflags(int f)
{
	switch (f) {
	case 0:
		return "0";
	case XATTR_CREATE:
		return "create";
	case XATTR_REPLACE:
		return "replace";
	case XATTR_CREATE | XATTR_REPLACE:
		return "create|replace";
	}
	return "bad";
}

/*
 * The expected result of a user.* operation: >= 0 or -errno.  @st is the
 * stat of the path the call resolves, or NULL with @perr when it does not
 * resolve.  *@argerr gets the error of the arguments alone (bad flags, name
 * too long), which 6.1 reports after resolving the path and newer kernels
 * before: either is accepted when the path does not resolve.
 */
enum { UXO_SET, UXO_GET, UXO_REMOVE };

static long ux_expect(int op, const struct statx *st, int perr, int uname,
		      const unsigned char *val, size_t len, int flags,
		      size_t size, long *argerr)
{
	struct ux *x;

	*argerr = 0;
	if (op == UXO_SET && flags & ~(XATTR_CREATE | XATTR_REPLACE))
		*argerr = -EINVAL;
	else if (uname == -2)
		*argerr = -ERANGE;
	if (!st)
		return -perr;
	if (*argerr)
		return *argerr;
	/* The VFS allows user.* on regular files and directories only. */
	if (!S_ISREG(st->stx_mode) && !S_ISDIR(st->stx_mode))
		return op == UXO_GET ? -ENODATA : -EPERM;
	if (ux_mode == UX_ABSENT)
		return -EOPNOTSUPP;
	if (uname == -1)
		return -EINVAL;
	x = ux_find(st->stx_ino, uname);
	switch (op) {
	case UXO_SET:
		if (x && (flags & XATTR_CREATE))
			return -EEXIST;
		if (!x && (flags & XATTR_REPLACE))
			return -ENODATA;
		if (!x) {
			int i;

			for (i = 0; i < UX_MAX && umodel[i].used; i++)
				;
			if (i == UX_MAX)
				return -ENOMEM;	/* model full: flag it */
			x = &umodel[i];
			x->used = true;
			x->ino = st->stx_ino;
			x->name = uname;
		}
		x->len = len;
		memcpy(x->val, val, len);
		return 0;
	case UXO_GET:
		if (!x)
			return -ENODATA;
		if (size && size < x->len)
			return -ERANGE;
		return x->len;
	case UXO_REMOVE:
		if (!x)
			return -ENODATA;
		x->used = false;
		return 0;
	}
	return -EINVAL;
}

static void ux_report(long want, long got, int e, long argerr)
{
	long g = got < 0 ? -e : got;

	if (g == want || (argerr && g == argerr)) {
		printf(" = model");
		return;
	}
	printf(" = !! user xattr model expected ");
	if (want < 0)
		printf("%s", errname(-want));
	else
		printf("%ld", want);
	printf(" got ");
	if (got < 0)
		printf("%s", errname(e));
	else
		printf("%ld", got);
	failed = 1;
}

/* Resolve a path as the xattr call will, for the model. */
static const struct statx *xresolve(const char *p, bool follow,
				    struct statx *st, int *perr)
{
	if (xstat(AT_FDCWD, p, follow ? 0 : AT_SYMLINK_NOFOLLOW, st)) {
		*perr = errno;
		return NULL;
	}
	return st;
}

static void op_setx(struct op *o)
{
	bool follow = o->var < 60;
	long argerr = 0;
	int flags = o->a % 100 < 50 ? 0 : o->a % 100 < 75 ? XATTR_CREATE :
		    o->a % 100 < 95 ? XATTR_REPLACE :
		    o->a % 100 < 98 ? XATTR_CREATE | XATTR_REPLACE : 4;
	size_t len = o->len[0];
	struct statx st;
	const struct statx *sp;
	int perr = 0, e;
	long r, want = 0;

	fill(wbuf, len, o->dseed);
	hdr(o);
	printf(" %s %s len=%zu %s%s", pp(o->p1), pp(o->xname), len,
	       xflags(flags), follow ? "" : " nofollow");
	sp = xresolve(o->p1, follow, &st, &perr);
	/* Model first: the call below must not change what it sees. */
	if (o->xuser != -100) {
		want = ux_expect(UXO_SET, sp, perr, o->xuser, wbuf, len,
				 flags, 0, &argerr);
		tobj_model(sp, want);
	}
	if (follow)
		r = setxattr(o->p1, o->xname, wbuf, len, flags);
	else
		r = lsetxattr(o->p1, o->xname, wbuf, len, flags);
	e = errno;
	if (o->xuser == -100) {
		res(o->kind, r, e);
	} else {
		count(o->kind, r, e);
		ux_report(want, r, e, argerr);
	}
	/* Whatever --user-xattr says, so that later choices agree. */
	if (o->xuser == -100 ? !r :
	    sp && (S_ISREG(sp->stx_mode) || S_ISDIR(sp->stx_mode))) {
		int i = xring_n++ % XRING;

		strcpy(xring[i].path, o->p1);
		strcpy(xring[i].name, o->xname);
		xring[i].xuser = o->xuser;
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_getx(struct op *o)
{
	bool follow = o->var < 60;
	long argerr = 0;
	size_t size = o->a % 100 < 70 ? 65536 : o->a % 100 < 85 ? 0 :
		      1 + o->b % 8;
	struct statx st;
	const struct statx *sp;
	int perr = 0, e;
	long r, want = 0;

	hdr(o);
	printf(" %s %s size=%zu%s", pp(o->p1), pp(o->xname), size,
	       follow ? "" : " nofollow");
	sp = xresolve(o->p1, follow, &st, &perr);
	if (o->xuser != -100)
		want = ux_expect(UXO_GET, sp, perr, o->xuser, NULL, 0, 0,
				 size, &argerr);
	if (follow)
		r = getxattr(o->p1, o->xname, rbuf, size);
	else
		r = lgetxattr(o->p1, o->xname, rbuf, size);
	e = errno;
	if (o->xuser == -100) {
		res(o->kind, r, e);
		if (r > 0 && size)
			printf(" fnv=%016" PRIx64, fnv(rbuf, r, FNV0));
	} else {
		count(o->kind, r, e);
		ux_report(want, r, e, argerr);
		if (r > 0 && size && want == r && sp) {
			struct ux *x = ux_find(sp->stx_ino, o->xuser);

			if (!x || memcmp(x->val, rbuf, r))
				check_fail("getxattr %s %s: value differs from model",
					   pp(o->p1), o->xname);
		}
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_removex(struct op *o)
{
	bool follow = o->var < 60;
	long argerr = 0;
	struct statx st;
	const struct statx *sp;
	int perr = 0, e;
	long r, want = 0;

	hdr(o);
	printf(" %s %s%s", pp(o->p1), pp(o->xname), follow ? "" : " nofollow");
	sp = xresolve(o->p1, follow, &st, &perr);
	if (o->xuser != -100) {
		want = ux_expect(UXO_REMOVE, sp, perr, o->xuser, NULL, 0, 0,
				 0, &argerr);
		tobj_model(sp, want);
	}
	if (follow)
		r = removexattr(o->p1, o->xname);
	else
		r = lremovexattr(o->p1, o->xname);
	e = errno;
	if (o->xuser == -100) {
		res(o->kind, r, e);
	} else {
		count(o->kind, r, e);
		ux_report(want, r, e, argerr);
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * List the xattrs of a path: trusted.* names (and values when @values)
 * print raw, user.* names are checked against the model, anything else is
 * ignored.  Returns 0 or -errno of the listing.
 */
static int put_xattrs(const char *p, bool follow, const struct statx *sp,
		      bool values)
{
	static char list[65536];
	char *names[512];
	ssize_t n, sz;
	unsigned int umask_fs = 0, umask_model = 0;
	int i, nn = 0;
	char *s;

	sz = follow ? listxattr(p, NULL, 0) : llistxattr(p, NULL, 0);
	n = follow ? listxattr(p, list, sizeof(list)) :
		     llistxattr(p, list, sizeof(list));
	if (n < 0)
		return -errno;
	if (sz != n)
		check_fail("listxattr %s: size query %zd, list %zd", pp(p),
			   sz, n);
	if (n > 0) {
		ssize_t small = follow ? listxattr(p, list, n - 1) :
					 llistxattr(p, list, n - 1);

		if (small >= 0 || errno != ERANGE)
			check_fail("listxattr %s: short buffer gave %zd %s",
				   pp(p), small, errname(errno));
		n = follow ? listxattr(p, list, sizeof(list)) :
			     llistxattr(p, list, sizeof(list));
	}
	for (s = list; s < list + n && nn < 512; s += strlen(s) + 1)
		names[nn++] = s;
	qsort(names, nn, sizeof(names[0]), str_cmp);
	printf(" [");
	for (i = 0; i < nn; i++) {
		if (!strncmp(names[i], "user.", 5)) {
			if (strlen(names[i]) == 6 && names[i][5] >= 'a' &&
			    names[i][5] <= 'c')
				umask_fs |= 1u << (names[i][5] - 'a');
			else
				umask_fs |= 1u << 31;
			continue;
		}
		if (strncmp(names[i], "trusted.", 8))
			continue;
		printf(" %s", pp(names[i]));
		if (values) {
			ssize_t l = follow ?
				getxattr(p, names[i], rbuf, sizeof(rbuf)) :
				lgetxattr(p, names[i], rbuf, sizeof(rbuf));

			if (l < 0)
				printf("=%s", errname(errno));
			else
				printf("=%zd:%08" PRIx64, l,
				       fnv(rbuf, l, FNV0) & 0xffffffff);
		}
	}
	printf(" ]");
	if (sp && ux_mode == UX_MODEL)
		umask_model = ux_names(sp->stx_ino);
	if (umask_fs != umask_model) {
		printf(" !! user names 0x%x, model 0x%x", umask_fs,
		       umask_model);
		failed = 1;
		return 0;
	}
	printf(" user=model");
	/* Values of user.* are checked against the model, never printed. */
	for (i = 0; values && sp && i < UX_NAMES; i++) {
		struct ux *x = ux_find(sp->stx_ino, i);
		char nm[8] = "user.a";
		ssize_t l;

		if (!x)
			continue;
		nm[5] = 'a' + i;
		l = follow ? getxattr(p, nm, rbuf, sizeof(rbuf)) :
			     lgetxattr(p, nm, rbuf, sizeof(rbuf));
		if (l != (ssize_t)x->len || memcmp(rbuf, x->val, x->len))
			check_fail("%s %s: value differs from model", pp(p),
				   nm);
	}
	return 0;
}

static void op_listx(struct op *o)
{
	bool follow = o->var < 60;
	struct statx st;
	const struct statx *sp;
	int perr, r;

	hdr(o);
	printf(" %s%s", pp(o->p1), follow ? "" : " nofollow");
	sp = xresolve(o->p1, follow, &st, &perr);
	r = put_xattrs(o->p1, follow, sp, o->a % 2);
	if (r < 0)
		res(o->kind, -1, -r);
	else
		count(o->kind, 0, 0);
	printf("\n");
	tobj_report();
	show(o->p1);
}

/* ------------------------------------------------------------------ */

static void op_tmpfile(struct op *o)
{
	static const int acc[] = { O_RDWR, O_RDWR, O_RDWR, O_WRONLY, O_RDONLY };
	int fl = O_TMPFILE | acc[o->a % 5], fd;
	char lp[64];
	long r;
	int e;

	if (o->var < 15)
		fl |= O_EXCL;
	hdr(o);
	printf(" %s %s %04o", pp(o->p1), oflags(fl), o->mode);
	fd = xopen(o->p1, fl, o->mode);
	res(o->kind, fd < 0 ? -1 : 0, errno);
	if (fd < 0) {
		printf("\n");
		tobj_report();
		show(o->p1);
		return;
	}
	fill(wbuf, o->len[0], o->dseed);
	printf(" write %" PRIu64, o->len[0]);
	r = write(fd, wbuf, o->len[0]);
	res(o->kind, r, errno);
	if (o->xattr_on_tmpfile && o->xuser == -100) {
		printf(" fsetxattr %s", pp(o->xname));
		r = fsetxattr(fd, o->xname, wbuf, o->len[0] % 100, 0);
		res(o->kind, r, errno);
	}
	show_fd(fd);
	printf("\n");
	if (o->b % 10 < 7) {
		/* Give it a name, as the O_TMPFILE man page does. */
		printf("%05u %s %s", opno, kname[K_TMPLINK], pp(o->p2));
		if (use_proc) {
			snprintf(lp, sizeof(lp), "/proc/self/fd/%d", fd);
			r = linkat(AT_FDCWD, lp, AT_FDCWD, o->p2,
				   AT_SYMLINK_FOLLOW);
		} else {
			r = linkat(fd, "", AT_FDCWD, o->p2, AT_EMPTY_PATH);
		}
		e = errno;
		res(K_TMPLINK, r, e);
		show_fd(fd);
		printf("\n");
	}
	close(fd);
	tobj_report();
	show(o->p1);
	show(o->p2);
}

static void op_mmap(struct op *o)
{
	struct statx st;
	unsigned char *m;
	uint64_t off = 0, len = PAGE, ws, wl;
	int fd;

	hdr(o);
	printf(" %s", pp(o->p1));
	fd = xopen(o->p1, O_RDWR, 0);
	if (fd < 0) {
		res(o->kind, -1, errno);
		printf("\n");
		show(o->p1);
		return;
	}
	if (!xstat(fd, "", AT_EMPTY_PATH, &st) && S_ISREG(st.stx_mode)) {
		if (o->a % 2 && st.stx_size > PAGE)
			off = PAGE;
		/* Stay below EOF: past it a shared mapping is undefined. */
		len = st.stx_size - off;
		if (len > 3 * PAGE)
			len = 3 * PAGE;
	}
	printf(" @%" PRIu64 "+%" PRIu64, off, len);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	if (m == MAP_FAILED) {
		res(o->kind, -1, errno);
	} else {
		uint64_t h1 = fnv(m, len, FNV0), h2;

		ws = o->b % len;
		wl = o->len[0] % 5000;
		if (wl > len - ws)
			wl = len - ws;
		fill(m + ws, wl, o->dseed);
		msync(m, len, MS_SYNC);
		h2 = fnv(m, len, FNV0);
		munmap(m, len);
		count(o->kind, 0, 0);
		printf(" = ok %08" PRIx64 " write@%" PRIu64 "+%" PRIu64
		       " %08" PRIx64, h1 & 0xffffffff, ws, wl,
		       h2 & 0xffffffff);
	}
	/* Times after mmap writes differ by design: make them equal. */
	futimens(fd, NULL);
	close(fd);
	read_back(o->p1);
	printf("\n");
	show(o->p1);
}

static void op_open(struct op *o)
{
	static const int fls[] = {
		O_RDONLY | O_DIRECTORY,
		O_RDONLY | O_NOFOLLOW,
		O_WRONLY,
		O_CREAT | O_WRONLY,
		O_RDWR | O_TRUNC,
		O_PATH | O_NOFOLLOW,
		O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY,
		O_RDONLY,
		O_WRONLY | O_APPEND,
	};
	int fl = fls[o->a % ARRAY_SIZE(fls)], fd;

	hdr(o);
	printf(" %s %s", pp(o->p1), oflags(fl));
	fd = xopen(o->p1, fl, 0640);
	res(o->kind, fd < 0 ? -1 : 0, errno);
	if (fd >= 0) {
		show_fd(fd);
		close(fd);
	}
	printf("\n");
	tobj_report();
	show(o->p1);
}

static void op_umask(struct op *o)
{
	static const unsigned int masks[] = { 022, 0, 077, 002, 027, 0777 };
	unsigned int m = masks[o->a % 6];

	hdr(o);
	printf(" %04o", m);
	umask(m);
	count(o->kind, 0, 0);
	printf("\n");
}

/* ------------------------------------------------------------------ */
/* Whole-tree listing: every name, its stat, data and xattrs.  Reads use */
/* O_NOATIME, so a dump changes nothing that a later operation sees.    */

static void dump_dir(const char *dir, int depth)
{
	struct dent *d;
	int fd, n, i;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOATIME | O_CLOEXEC);
	if (fd < 0) {
		printf("  %s: open %s\n", pp(dir), errname(errno));
		return;
	}
	d = malloc(sizeof(*d) * MAXDENT);
	if (!d) {
		close(fd);
		return;
	}
	n = list_dir(fd, d);
	close(fd);
	for (i = 0; i < n; i++) {
		char p[PB], t[PATH_MAX + 1];
		struct statx st;

		if (!strcmp(d[i].name, ".") || !strcmp(d[i].name, ".."))
			continue;
		if (!strcmp(dir, "."))
			snprintf(p, sizeof(p), "%s", d[i].name);
		else
			snprintf(p, sizeof(p), "%s/%s", dir, d[i].name);
		printf("  %s:%c", pp(p), dtype(d[i].type));
		if (xstat(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, &st)) {
			printf(" %s\n", errname(errno));
			continue;
		}
		put_stat(&st);
		check_btime(&st);
		if (S_ISREG(st.stx_mode)) {
			int f = open(p, O_RDONLY | O_NOATIME | O_CLOEXEC);

			if (f < 0) {
				printf(" open %s", errname(errno));
			} else {
				read_sum(f, NKIND);
				close(f);
			}
		} else if (S_ISLNK(st.stx_mode)) {
			ssize_t l = readlink(p, t, PATH_MAX);

			if (l >= 0) {
				t[l] = 0;
				printf(" -> %s", pp(t));
			}
		}
		put_xattrs(p, false, &st, true);
		printf("\n");
		if (S_ISDIR(st.stx_mode) && depth < 8)
			dump_dir(p, depth + 1);
	}
	free(d);
}

static void dump(const char *why)
{
	struct statx st;

	clock_gettime(CLOCK_REALTIME, &now_ts);
	printf("%05u dump %s\n  .:", opno, why);
	if (!xstat(AT_FDCWD, ".", 0, &st)) {
		put_stat(&st);
		check_btime(&st);
		put_xattrs(".", false, &st, true);
	}
	printf("\n");
	dump_dir(".", 0);
}

/* ------------------------------------------------------------------ */

static void op_none(struct op *o)
{
	(void)o;
}

static void (*const op_fn[NKIND])(struct op *) = {
	[K_CREATE] = op_create, [K_WRITE] = op_write, [K_READ] = op_read,
	[K_TRUNC] = op_trunc, [K_MKDIR] = op_mkdir, [K_RMDIR] = op_rmdir,
	[K_UNLINK] = op_unlink, [K_RENAME] = op_rename, [K_LINK] = op_link,
	[K_SYMLINK] = op_symlink, [K_READLINK] = op_readlink,
	[K_MKNOD] = op_mknod, [K_CHMOD] = op_chmod, [K_CHOWN] = op_chown,
	[K_UTIMES] = op_utimes, [K_STAT] = op_stat, [K_READDIR] = op_readdir,
	[K_SETX] = op_setx, [K_GETX] = op_getx, [K_LISTX] = op_listx,
	[K_REMOVEX] = op_removex, [K_TMPFILE] = op_tmpfile,
	[K_TMPLINK] = op_none, [K_MMAP] = op_mmap, [K_OPEN] = op_open,
	[K_UMASK] = op_umask,
};

/* Which operations may add or remove names, when they succeed. */
static const bool changes_names[NKIND] = {
	[K_CREATE] = true, [K_WRITE] = true, [K_MKDIR] = true,
	[K_RMDIR] = true, [K_UNLINK] = true, [K_RENAME] = true,
	[K_LINK] = true, [K_SYMLINK] = true, [K_MKNOD] = true,
	[K_TMPFILE] = true, [K_OPEN] = true,
};

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
	o = malloc(sizeof(*o));
	if (!o)
		return 2;

	/* Same starting point whatever the mount options were. */
	umask(022);
	rng = seed;
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
