// SPDX-License-Identifier: GPL-2.0
/*
 * The output: one line per operation, with its result as a value or an
 * errno name, paths shortened, and the stat lines of what it touched.
 */
#include "workload.h"

uint64_t fnv(const void *p, size_t len, uint64_t h)
{
	const unsigned char *c = p;

	while (len--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* A failed check prints in the middle of the current line. */
void check_fail(const char *fmt, ...)
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

const char *const kname[NKIND] = {
	"create", "write", "read", "truncate", "mkdir", "rmdir", "unlink",
	"rename", "link", "symlink", "readlink", "mknod", "chmod", "chown",
	"utimensat", "statx", "readdir", "setxattr", "getxattr", "listxattr",
	"removexattr", "tmpfile", "tmpfile-link", "mmap", "open", "umask",
};

unsigned int hist[NKIND][NERR];	/* [kind][0] counts successes */
unsigned int op_ok;			/* successes in this operation */

/* "ENOENT" rather than a number or a message: stable and greppable. */
const char *errname(int e)
{
	static char buf[16];
	const char *n = strerrorname_np(e);

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

void count(enum kind k, long r, int e)
{
	op_ok += r >= 0;
	hist[k][r < 0 ? (e > 0 && e < NERR ? e : NERR - 1) : 0]++;
}

/* Print " = value" or " = ENAME" and count it. */
void res(enum kind k, long r, int e)
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
const char *pp(const char *s)
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

void hdr(const struct op *o)
{
	printf("%05u %s", opno, kname[o->kind]);
}

/* ------------------------------------------------------------------ */
/* Stat lines.                                                         */

int xstat(int fd, const char *path, int flags, struct statx *st)
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

bool is_now(const struct statx_timestamp *t)
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

int tcmp(const struct statx_timestamp *a, const struct statx_timestamp *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

/* btime is not compared with tmpfs, only checked for sanity. */
void check_btime(const struct statx *st)
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

void put_stat(const struct statx *st)
{
	const char *a = tcls(&st->stx_atime);
	const char *m = tcls(&st->stx_mtime);
	const char *c = tcls(&st->stx_ctime);

	printf(" %c%04o n%u u%u g%u", ftype(st->stx_mode),
	       st->stx_mode & 07777, st->stx_nlink, st->stx_uid, st->stx_gid);
	if (!S_ISDIR(st->stx_mode))
		printf(" s%llu", (unsigned long long)st->stx_size);
	/* Pages held, as tmpfs counts them (a symlink's: main.c says why not). */
	if (S_ISREG(st->stx_mode))
		printf(" b%llu", (unsigned long long)st->stx_blocks);
	if (S_ISCHR(st->stx_mode) || S_ISBLK(st->stx_mode))
		printf(" r%u:%u", st->stx_rdev_major, st->stx_rdev_minor);
	printf(" a=%s m=%s c=%s", a, m, c);
}

/* Print the stat line of a path after an operation, on its own line. */
void show(const char *p)
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

void show_fd(int fd)
{
	struct statx st;

	if (xstat(fd, "", AT_EMPTY_PATH, &st)) {
		printf(" fstat %s", errname(errno));
		return;
	}
	put_stat(&st);
	check_btime(&st);
}

void parent_of(const char *p, char *out)
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

void show_with_parent(const char *p)
{
	char par[PB];

	parent_of(p, par);
	show(p);
	show(par);
}

char dtype(unsigned char t)
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
