// SPDX-License-Identifier: GPL-2.0
/*
 * The operations: each one runs its call on the arguments drawn for it,
 * prints it with its result, and the stat lines of what it touched.
 * The xattr ones are in ops-xattr.c.
 */
#include "workload.h"

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
void read_sum(int fd, enum kind k)
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

/*
 * To the file's own size in 3 of 100: after a truncate that grew it (whose
 * read_back() read its hole) or a read, the case where tmpfs leaves the
 * times alone unless the file has pages allocated (written or faulted in).
 */
static void op_trunc(struct op *o)
{
	long long len;
	uint32_t r = o->a % 100;
	struct stat sb;
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
	else if (r < 98 && !stat(o->p1, &sb) && !S_ISDIR(sb.st_mode))
		len = sb.st_size;	/* a directory's is not compared */
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

static void op_none(struct op *o)
{
	(void)o;
}

void (*const op_fn[NKIND])(struct op *) = {
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
const bool changes_names[NKIND] = {
	[K_CREATE] = true, [K_WRITE] = true, [K_MKDIR] = true,
	[K_RMDIR] = true, [K_UNLINK] = true, [K_RENAME] = true,
	[K_LINK] = true, [K_SYMLINK] = true, [K_MKNOD] = true,
	[K_TMPFILE] = true, [K_OPEN] = true,
};
