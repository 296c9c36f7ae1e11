// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench's helpers, for every subcommand (common.h): errors, memory,
 * the progress line, FSTYPE:DIR arguments, file names, medians, the order
 * of chunks, and the tree of a filesystem's files.
 */
#include "common.h"

const char *fstype = "?";

void die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fprintf(stderr, "ipat-bench %s: ", fstype);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (errno %d: %s)\n", err, strerror(err));
	/* The bench script looks for this line to tell a failure from noise. */
	printf("IPAT-BENCH error fs=%s\n", fstype);
	exit(1);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory for %zu x %zu bytes", n, size);
	return p;
}

/*
 * A progress line on stderr, which the console log keeps and
 * bench/progress.sh shows on the host: "ipat-progress t=SECONDS WHAT",
 * t the guest's clock since boot (under icount, instructions / 1e9).
 */
void progress(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ipat-progress t=%.3f ", now_ns() / 1e9);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

/* Splits FSTYPE:DIR at its colon, in place; returns DIR. */
char *spec_dir(char *spec)
{
	char *colon = strchr(spec, ':');

	if (!colon || colon == spec || !colon[1]) {
		fprintf(stderr, "ipat-bench: '%s' is not FSTYPE:DIR\n", spec);
		exit(2);
	}
	*colon = '\0';
	return colon + 1;
}

/* Short names: the dentry keeps them inline, as for most files. */
char (*make_names(long n))[NAME_LEN]
{
	char (*names)[NAME_LEN] = xcalloc(n, NAME_LEN);
	long i;

	for (i = 0; i < n; i++)
		snprintf(names[i], NAME_LEN, "f%07u", (unsigned int)i);
	return names;
}

void tree_open(struct tree *t)
{
	char dname[NAME_LEN];
	long d;

	t->rootfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->rootfd < 0)
		die("open %s", t->dir);
	t->ndirs = t->per_dir ? (t->n + t->per_dir - 1) / t->per_dir : 1;
	t->dirfd = xcalloc(t->ndirs, sizeof(*t->dirfd));
	if (!t->per_dir) {
		t->dirfd[0] = t->rootfd;
		return;
	}
	for (d = 0; d < t->ndirs; d++) {
		snprintf(dname, sizeof(dname), "d%05u", (unsigned int)d);
		if (mkdirat(t->rootfd, dname, 0755))
			die("mkdir %s/%s", t->dir, dname);
		t->dirfd[d] = openat(t->rootfd, dname,
				     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t->dirfd[d] < 0)
			die("open %s/%s", t->dir, dname);
	}
}

void tree_close(struct tree *t)
{
	char dname[NAME_LEN];
	long d;

	if (t->per_dir) {
		for (d = 0; d < t->ndirs; d++) {
			close(t->dirfd[d]);
			snprintf(dname, sizeof(dname), "d%05u", (unsigned int)d);
			if (unlinkat(t->rootfd, dname, AT_REMOVEDIR))
				die("rmdir %s/%s", t->dir, dname);
		}
	}
	close(t->rootfd);
	free(t->dirfd);
}

/*
 * Which chunk @c of which filesystem @k runs at @turn, of nchunks *
 * ntargets. By default the filesystems take turns, chunk by chunk (the
 * first one rotating), so that a slow spell of a shared host falls on all
 * alike. In blocks (-B, for instruction mode, where the host cannot move a
 * count), one filesystem runs all its chunks before the next: then the RCU
 * callbacks that land in a chunk free objects of the same filesystem, from
 * its chunk before, and not of whichever filesystem ran before it.
 */
void chunk_order(bool in_blocks, long turn, long nchunks, int ntargets,
		 long *c, int *k)
{
	if (in_blocks) {
		*k = turn / nchunks;
		*c = turn % nchunks;
	} else {
		*c = turn / ntargets;
		*k = (*c + turn % ntargets) % ntargets;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(double *v, long n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}


/* splitmix64, for shuffles that are the same on every filesystem and boot. */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* [0, n) in the order a Fisher-Yates shuffle from @seed gives. */
long *shuffled(long n, uint64_t seed)
{
	long *order = xcalloc(n, sizeof(*order));
	long i, r, tmp;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		r = next_rand(&seed) % (i + 1);
		tmp = order[i];
		order[i] = order[r];
		order[r] = tmp;
	}
	return order;
}
