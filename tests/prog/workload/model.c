// SPDX-License-Identifier: GPL-2.0
/*
 * What the output cannot compare with tmpfs is checked here against a
 * model: user.* xattrs (tmpfs before 6.6 has none), and which times a
 * "timed" operation changed.
 */
#include "workload.h"

/* ------------------------------------------------------------------ */
/* The user.* xattr model: what a filesystem that keeps user xattrs on  */
/* regular files and directories (like ext4) must answer.  Inodes are   */
/* known by number; an entry is dropped when its inode is seen to die.  */

static struct ux umodel[UX_MAX];

struct ux *ux_find(uint64_t ino, int name)
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
unsigned int ux_names(uint64_t ino)
{
	unsigned int mask = 0;
	int i;

	for (i = 0; i < UX_MAX; i++)
		if (umodel[i].used && umodel[i].ino == ino)
			mask |= 1u << umodel[i].name;
	return mask;
}

/*
 * The expected result of a user.* operation: >= 0 or -errno.  @st is the
 * stat of the path the call resolves, or NULL with @perr when it does not
 * resolve.  *@argerr gets the error of the arguments alone (bad flags, name
 * too long), which 6.1 reports after resolving the path and newer kernels
 * before: either is accepted when the path does not resolve.
 */
long ux_expect(int op, const struct statx *st, int perr, int uname,
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
	/*
	 * The VFS allows user.* on regular files and directories only, and
	 * on sockets too since 7.1 (ux_sockets).
	 */
	if (!S_ISREG(st->stx_mode) && !S_ISDIR(st->stx_mode) &&
	    !(S_ISSOCK(st->stx_mode) && ux_sockets))
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

void ux_report(long want, long got, int e, long argerr)
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

void tobj_setup(const struct op *o, bool two)
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

void tobj_model(const struct statx *target, long want)
{
	tmodel = !!target;
	tmodel_ino = target ? target->stx_ino : 0;
	tmodel_change = want == 0;
}

void tobj_report(void)
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

void victims_take(const char *a, const char *b)
{
	victim[0] = a ? open(a, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
	victim[1] = b ? open(b, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
}

void victims_reap(void)
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
