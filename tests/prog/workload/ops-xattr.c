// SPDX-License-Identifier: GPL-2.0
/*
 * The xattr operations.  trusted.* and foo.* results print raw; user.*
 * results are compared with the model and print "model" when they agree.
 */
#include "workload.h"

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

void op_setx(struct op *o)
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

void op_getx(struct op *o)
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

void op_removex(struct op *o)
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
int put_xattrs(const char *p, bool follow, const struct statx *sp,
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

void op_listx(struct op *o)
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
