// SPDX-License-Identifier: GPL-2.0
/*
 * The generator: the next operation and its arguments, drawn from the
 * seed alone (splitmix64), except that some arguments name what exists,
 * picked from a sorted listing of the tree: two filesystems that agree so
 * far are given the same next operation.
 */
#include "workload.h"
#include "splitmix64.h"

/* Pseudo-random numbers: splitmix64, the whole state is one word. */

static uint64_t rng;

static uint64_t next64(void)
{
	return splitmix64(&rng);
}

static uint32_t rn(uint32_t n)
{
	return (uint32_t)(next64() % n);
}

/* Data written by an operation is a function of its own seed only. */
void fill(unsigned char *buf, size_t len, uint64_t seed)
{
	size_t i;
	uint64_t w = 0;

	for (i = 0; i < len; i++) {
		if (!(i & 7))
			w = splitmix64_mix(seed + i);
		buf[i] = (unsigned char)(w >> ((i & 7) * 8));
	}
}

void gen_start(uint64_t seed)
{
	rng = seed;
}

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
bool names_valid;	/* until an operation may change names */

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
struct xring_entry xring[XRING];
unsigned int xring_n;

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

void gen_op(struct op *o)
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
