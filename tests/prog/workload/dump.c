// SPDX-License-Identifier: GPL-2.0
/*
 * The tree: sorted directory listings, and the whole-tree dump.
 */
#include "workload.h"

static int dent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name,
		      ((const struct dent *)b)->name);
}

/* Sorted listing of an open directory; returns the count or -errno. */
int list_dir(int fd, struct dent *d)
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

struct dent dents[MAXDENT];

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

void dump(const char *why)
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
