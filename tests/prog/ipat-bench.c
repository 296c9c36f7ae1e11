// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench: the measuring half of the benchmark (tests/bench.sh drives it).
 *
 *   ipat-bench files -n N [-D PER_DIR] [-c CHUNK] [-r REP] [-t PHASE] [-B] FSTYPE:DIR...
 *   ipat-bench payload -n FILES -p PASSES [-r REP] FSTYPE:DIR...
 *   ipat-bench ops -n N [-c CHUNK] [-r REP] [-B] FSTYPE:DIR...
 *   ipat-bench xnames -n N FSTYPE:DIR...
 *
 * "files" creates N empty files in each DIR (flat, or PER_DIR to a
 * subdirectory), stats them, unlinks the odd-numbered half and creates it
 * again (refill: see enum phase), and unlinks them, timing with CLOCK_MONOTONIC
 * so that neither process start-up nor name formatting is measured. Each
 * phase runs in chunks of CHUNK files, the filesystems taking turns chunk
 * by chunk (the first one rotating): on a host shared with other work, a
 * slow spell then hits every filesystem alike, and the median chunk is a
 * figure the spell does not move; or, with -B, in blocks (chunk_order()).
 * Around every create chunk it reads /proc/slabinfo, so the slab growth of
 * each filesystem is its own even where two share a cache (ramfs and
 * voidfs_demo: inode_cache); and the module's statistics file before and
 * after the create phase. With -t, the
 * middle chunk of PHASE of the first FSTYPE runs under ftrace's
 * function_graph tracer, whose trace is then copied to TRACE_COPY, for a
 * profile of where its instructions go (tests/bench.sh, ipat.bench_trace).
 * The tracer is current for that chunk only: even recording nothing, its
 * hooks made a create cost 112,700 instructions instead of 10,400 (6.12).
 *
 * "payload" reaches each inode's private data through the VFS only: statx()
 * for the birth time and fgetxattr() for an xattr, on open file
 * descriptors (no path walk) in a shuffled order (no streaming through
 * neighbouring objects), so that the step from struct inode to the payload
 * is as large a part of each call as userspace can make it. The
 * filesystems take turns pass by pass, as in "files", and a figure is the
 * median pass.
 *
 * "ops" times the other operations a filesystem does, N of each, in one
 * directory and in chunks taken in turns as in "files": mkdir, rmdir,
 * open+close of an existing file, a 64-byte pwrite+pread, fsetxattr,
 * fgetxattr, link, unlink of that second link, rename. The files they need
 * are made and removed between the timed phases. Under QEMU's icount
 * (scripts/bench.sh) each figure is instructions per operation.
 *
 * "xnames" gives one file of each DIR N xattr names ("trusted.%04x", so
 * that 5,000 fit in listxattr()'s 64 KiB), timing setxattr of each new
 * name, getxattr of each, one listxattr and removexattr of each: per-op
 * figures that stay flat as N grows show a lookup that scales.
 *
 * Output lines start "IPAT-BENCH <record>" followed by key=value pairs, for
 * scripts/bench-report.sh; a human-readable progress line goes to stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define MAX_CACHES	1024
#define NAME_LEN	12	/* "f" + 7 digits + NUL, padded */
#define XATTR_NAME	"trusted.ipat"	/* tmpfs in 6.1 has no user.* xattrs */

static const char *fstype = "?";

static void die(const char *fmt, ...)
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

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory for %zu x %zu bytes", n, size);
	return p;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * A progress line on stderr, which the console log keeps and
 * scripts/progress.sh shows on the host: "ipat-progress t=SECONDS WHAT",
 * t the guest's clock since boot (under icount, instructions / 1e9).
 */
static void progress(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ipat-progress t=%.3f ", now_ns() / 1e9);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

/* One line of /proc/slabinfo, SLUB's view: active_slabs == num_slabs. */
struct cache {
	char name[64];
	long active_objs, num_objs, objsize, objperslab, pagesperslab, slabs;
};

struct slabinfo {
	int n;
	struct cache c[MAX_CACHES];
};

static void read_slabinfo(struct slabinfo *si)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		die("open /proc/slabinfo");
	si->n = 0;
	while (fgets(line, sizeof(line), f) && si->n < MAX_CACHES) {
		struct cache *c = &si->c[si->n];
		long tl, tb, ts, as;

		if (sscanf(line, "%63s %ld %ld %ld %ld %ld : tunables %ld %ld %ld : slabdata %ld %ld",
			   c->name, &c->active_objs, &c->num_objs, &c->objsize,
			   &c->objperslab, &c->pagesperslab, &tl, &tb, &ts, &as,
			   &c->slabs) == 11)
			si->n++;
	}
	fclose(f);
}

static const struct cache *find_cache(const struct slabinfo *si, const char *name)
{
	int i;

	for (i = 0; i < si->n; i++)
		if (!strcmp(si->c[i].name, name))
			return &si->c[i];
	return NULL;
}

static long slab_churn(const struct slabinfo *a, const struct slabinfo *b)
{
	long churn = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		const struct cache *old = find_cache(a, b->c[i].name);

		churn += labs(b->c[i].active_objs - (old ? old->active_objs : 0));
	}
	return churn;
}

/*
 * Inodes of the previous run are freed after an RCU grace period, and under
 * emulation a million of them take a while: wait until the slab caches
 * stop moving, or a baseline taken now would count those frees against
 * this run. 30 seconds at most; a note in the output says if that was not
 * enough.
 */
static void settle(struct slabinfo *si, struct slabinfo *tmp)
{
	const struct timespec pause = { .tv_nsec = 100 * 1000 * 1000 };
	int tries;

	read_slabinfo(si);
	for (tries = 0; tries < 300; tries++) {
		nanosleep(&pause, NULL);
		read_slabinfo(tmp);
		if (slab_churn(si, tmp) < 64) {
			*si = *tmp;
			return;
		}
		*si = *tmp;
	}
	printf("IPAT-BENCH note fs=%s settle=timeout\n", fstype);
}

/* Slab growth of one filesystem, summed over its create chunks. */
struct slabdelta {
	int n;
	struct cache c[MAX_CACHES];	/* active_objs, slabs: the change */
};

static void slab_accumulate(struct slabdelta *d, const struct slabinfo *a,
			    const struct slabinfo *b)
{
	int i, j;

	for (i = 0; i < b->n; i++) {
		const struct cache *c = &b->c[i];
		const struct cache *old = find_cache(a, c->name);
		long dobj = c->active_objs - (old ? old->active_objs : 0);
		long dslab = c->slabs - (old ? old->slabs : 0);

		if (!dobj && !dslab)
			continue;
		for (j = 0; j < d->n; j++)
			if (!strcmp(d->c[j].name, c->name))
				break;
		if (j == d->n) {
			if (d->n == MAX_CACHES)
				continue;
			d->c[d->n] = *c;
			d->c[d->n].active_objs = d->c[d->n].slabs = 0;
			d->n++;
		}
		d->c[j].active_objs += dobj;
		d->c[j].slabs += dslab;
	}
}

/*
 * Every cache that changed by at least a twentieth of the files: the
 * report decides which of them hold inodes; the rest (dentries, LSM
 * blobs) are shown as what every file costs besides its inode.
 */
static void print_slab_delta(const char *tag, const struct slabdelta *d, long n)
{
	long threshold = n / 20 > 10 ? n / 20 : 10;
	int i;

	for (i = 0; i < d->n; i++) {
		const struct cache *c = &d->c[i];

		if (labs(c->active_objs) < threshold)
			continue;
		printf("IPAT-BENCH slab %s cache=%s d_objs=%ld d_slabs=%ld objsize=%ld objperslab=%ld pagesperslab=%ld\n",
		       tag, c->name, c->active_objs, c->slabs, c->objsize,
		       c->objperslab, c->pagesperslab);
	}
}

/* The module's statistics file, if FSTYPE is one of ours. */
#define NSTATS 16
struct stats {
	int present;
	int n;
	char key[NSTATS][40];
	long val[NSTATS];
};

static void read_stats(struct stats *st, const char *fs)
{
	char path[256], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/fs/inode_patterns/%s", fs);
	st->present = 0;
	st->n = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	st->present = 1;
	while (fgets(line, sizeof(line), f) && st->n < NSTATS) {
		char *colon = strchr(line, ':');
		char *end;
		long v;

		if (!colon || colon - line >= 40)
			continue;
		v = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || (*end != '\n' && *end))
			continue;	/* not a number: fs_type, pattern... */
		memcpy(st->key[st->n], line, colon - line);
		st->key[st->n][colon - line] = '\0';
		st->val[st->n++] = v;
	}
	fclose(f);
}

/* Sizes as they are; counters as the change over the create phase. */
static void print_stats_diff(const char *tag, const struct stats *a,
			     const struct stats *b)
{
	int i;

	if (!a->present || !b->present)
		return;
	printf("IPAT-BENCH stats %s", tag);
	for (i = 0; i < b->n && i < a->n; i++) {
		if (strstr(b->key[i], "_size"))
			printf(" %s=%ld", b->key[i], b->val[i]);
		else
			printf(" d_%s=%ld", b->key[i], b->val[i] - a->val[i]);
	}
	printf("\n");
}

struct tree {
	long n, per_dir, ndirs;
	const char *dir;
	int rootfd;
	int *dirfd;
	char (*names)[NAME_LEN];	/* shared by all trees */
};

static void tree_open(struct tree *t)
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

/* Splits FSTYPE:DIR at its colon, in place; returns DIR. */
static char *spec_dir(char *spec)
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
static char (*make_names(long n))[NAME_LEN]
{
	char (*names)[NAME_LEN] = xcalloc(n, NAME_LEN);
	long i;

	for (i = 0; i < n; i++)
		snprintf(names[i], NAME_LEN, "f%07u", (unsigned int)i);
	return names;
}

static int tree_dirfd(const struct tree *t, long i)
{
	return t->per_dir ? t->dirfd[i / t->per_dir] : t->rootfd;
}

static void tree_close(struct tree *t)
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
 * REFILL creates again the odd-numbered files, unlinked (PUNCH, untimed)
 * after STAT: every slab then has free objects, so REFILL's creates take
 * them without asking the page allocator for a page. Under icount a
 * create's count otherwise depends on when its chunk happened to need new
 * slab pages, and on how cheaply the page allocator had them (its free
 * lists, which every byte of the boot before shaped): ~250-700
 * instructions per create that move between two builds of the same
 * source. REFILL is the filesystem's own path with SLUB's partial slabs.
 * Its cheapest chunk (refill_min_ns) is the figure that depends on the
 * code only (tests/bench-gate.sh): on 6.1 some chunks also take one or
 * two of SLUB's slower refills of its per-CPU slab (~12,500 instructions
 * each), and how many a chunk takes moves with the boot.
 */
enum phase { CREATE, STAT, REFILL, UNLINK, NPHASES, PUNCH = NPHASES };
static const char *const phase_name[NPHASES] = {
	"create", "stat", "refill", "unlink"
};

/* -t: the phase whose middle chunk is traced, or -1. */
static int traced_phase = -1;

#define TRACEFS		"/sys/kernel/tracing/"
#define TRACE_COPY	"/tmp/ipat-bench.trace"

/* Writes @value to the tracefs file @name (O_TRUNC: "trace" is emptied). */
static void tracefs_write(const char *name, const char *value)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), TRACEFS "%s", name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		die("write %s", path);
	close(fd);
}

static void trace_start(void)
{
	tracefs_write("current_tracer", "function_graph");
	tracefs_write("trace", "");
	tracefs_write("tracing_on", "1");
}

/* Keeps the trace in TRACE_COPY: changing the tracer empties the buffer. */
static void trace_stop(void)
{
	char buf[65536];
	ssize_t len;
	int in, out;

	tracefs_write("tracing_on", "0");
	in = open(TRACEFS "trace", O_RDONLY);
	out = open(TRACE_COPY, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		die("copy the trace to " TRACE_COPY);
	while ((len = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, len) != len)
			die("write " TRACE_COPY);
	if (len < 0)
		die("read the trace");
	close(in);
	close(out);
	tracefs_write("current_tracer", "nop");
}

/* -B: every chunk of one filesystem, then the next; see chunk_order(). */
static bool in_blocks;

/*
 * Which chunk @c of which filesystem @k runs at @turn, of nchunks *
 * ntargets. By default the filesystems take turns, chunk by chunk (the
 * first one rotating), so that a slow spell of a shared host falls on all
 * alike. In blocks (-B, for instruction mode, where the host cannot move a
 * count), one filesystem runs all its chunks before the next: then the RCU
 * callbacks that land in a chunk free objects of the same filesystem, from
 * its chunk before, and not of whichever filesystem ran before it.
 */
static void chunk_order(long turn, long nchunks, int ntargets, long *c, int *k)
{
	if (in_blocks) {
		*k = turn / nchunks;
		*c = turn % nchunks;
	} else {
		*c = turn / ntargets;
		*k = (*c + turn % ntargets) % ntargets;
	}
}

/* The files of [from, to) a phase takes: REFILL and PUNCH, the odd ones. */
static long phase_first(enum phase phase, long from)
{
	return phase == REFILL || phase == PUNCH ? from | 1 : from;
}

static long phase_count(enum phase phase, long from, long to)
{
	long first = phase_first(phase, from);

	if (phase != REFILL && phase != PUNCH)
		return to - from;
	return first < to ? (to - first + 1) / 2 : 0;
}

/* Files [from, to) of the tree, one phase. */
static void do_files(const struct tree *t, enum phase phase, long from, long to)
{
	long step = phase == REFILL || phase == PUNCH ? 2 : 1;
	struct stat st;
	long i;
	int fd;

	for (i = phase_first(phase, from); i < to; i += step) {
		int dfd = tree_dirfd(t, i);

		switch (phase) {
		case CREATE:
		case REFILL:
			fd = openat(dfd, t->names[i],
				    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0)
				die("create %s file %ld", t->dir, i);
			close(fd);
			break;
		case STAT:
			if (fstatat(dfd, t->names[i], &st, 0))
				die("stat %s file %ld", t->dir, i);
			if (!S_ISREG(st.st_mode) || st.st_size)
				die("%s file %ld is not an empty regular file", t->dir, i);
			break;
		default:
			if (unlinkat(dfd, t->names[i], 0))
				die("unlink %s file %ld", t->dir, i);
			break;
		}
	}
}

static void unlink_files(const struct tree *t)
{
	do_files(t, UNLINK, 0, t->n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One filesystem of a "files" run. */
struct target {
	const char *fs;
	struct tree t;
	struct stats st_a, st_b;
	struct slabdelta slab;
	uint64_t total_ns[NPHASES];
	double *chunk_ns[NPHASES];	/* ns per file, each chunk */
};

static struct slabinfo slab_a, slab_b;

static int cmd_files(int ntargets, char **specs, long n, long per_dir,
		     long chunk, int rep)
{
	const char *layout = per_dir ? "spread" : "flat";
	long nchunks = (n + chunk - 1) / chunk, c, turn;
	char (*names)[NAME_LEN] = make_names(n);
	struct target *tg = xcalloc(ntargets, sizeof(*tg));
	struct slabinfo *prev = &slab_a, *cur = &slab_b, *swap;
	/* Every directory stays open: 1,000 of them per filesystem at 1M. */
	rlim_t nofile = (rlim_t)ntargets * (per_dir ? n / per_dir + 1 : 1) + 64;
	struct rlimit rl = { .rlim_cur = nofile, .rlim_max = nofile };
	int i, k, p;

	if (nofile > 1024 && setrlimit(RLIMIT_NOFILE, &rl))
		die("raise RLIMIT_NOFILE to %llu", (unsigned long long)nofile);
	for (i = 0; i < ntargets; i++) {
		char *dir = spec_dir(specs[i]);

		tg[i].fs = fstype = specs[i];
		tg[i].t = (struct tree){ .n = n, .per_dir = per_dir,
					 .dir = dir, .names = names };
		tree_open(&tg[i].t);
		for (p = 0; p < NPHASES; p++)
			tg[i].chunk_ns[p] = xcalloc(nchunks, sizeof(double));
	}

	settle(prev, cur);
	for (i = 0; i < ntargets; i++)
		read_stats(&tg[i].st_a, tg[i].fs);

	for (p = 0; p < NPHASES; p++) {
		if (p == REFILL) {
			for (i = 0; i < ntargets; i++)
				do_files(&tg[i].t, PUNCH, 0, n);
			/* Until their RCU callbacks have given the objects back. */
			settle(prev, cur);
		}
		for (turn = 0; turn < nchunks * ntargets; turn++) {
			struct target *t;
			long from, to, files;
			bool traced;
			uint64_t t0, t1;

			chunk_order(turn, nchunks, ntargets, &c, &k);
			t = &tg[k];
			if (turn == 0 || (in_blocks && c == 0))
				progress("files n=%ld %s %s %s", n, layout,
					 phase_name[p], in_blocks ? t->fs : "all");
			from = c * chunk;
			to = from + chunk < n ? from + chunk : n;
			files = phase_count(p, from, to);
			traced = p == traced_phase && t == tg && c == nchunks / 2;
			fstype = t->fs;
			if (traced)
				trace_start();
			t0 = now_ns();
			do_files(&t->t, p, from, to);
			t1 = now_ns();
			if (traced) {
				trace_stop();
				printf("IPAT-BENCH note traced fs=%s phase=%s chunk=%ld files=%ld\n",
				       t->fs, phase_name[p], c, files);
			}
			t->total_ns[p] += t1 - t0;
			t->chunk_ns[p][c] = files ? (double)(t1 - t0) / files : 0;
			if (p == CREATE) {
				read_slabinfo(cur);
				slab_accumulate(&t->slab, prev, cur);
				swap = prev, prev = cur, cur = swap;
			}
		}
		/* Everything lives after creating: the memory the files hold. */
		if (p == CREATE)
			for (i = 0; i < ntargets; i++)
				read_stats(&tg[i].st_b, tg[i].fs);
	}

	for (i = 0; i < ntargets; i++) {
		struct target *t = &tg[i];
		char tag[160];
		double med[NPHASES];

		tree_close(&t->t);
		snprintf(tag, sizeof(tag), "fs=%s layout=%s n=%ld rep=%d",
			 t->fs, layout, n, rep);
		/*
		 * Every chunk, in order: chunk c of one filesystem ran next to
		 * chunk c of the others, so the report can pair them.
		 */
		for (p = 0; p < NPHASES; p++) {
			printf("IPAT-BENCH chunks %s phase=%s ns_per_op=", tag,
			       phase_name[p]);
			for (c = 0; c < nchunks; c++)
				printf("%s%.0f", c ? "," : "", t->chunk_ns[p][c]);
			printf("\n");
		}
		printf("IPAT-BENCH files %s chunk=%ld chunks=%ld", tag, chunk, nchunks);
		for (p = 0; p < NPHASES; p++) {
			qsort(t->chunk_ns[p], nchunks, sizeof(double), cmp_double);
			med[p] = nchunks % 2 ? t->chunk_ns[p][nchunks / 2] :
				(t->chunk_ns[p][nchunks / 2 - 1] + t->chunk_ns[p][nchunks / 2]) / 2;
			printf(" %s_ns=%llu %s_med_ns=%.1f %s_min_ns=%.1f %s_q1_ns=%.1f %s_q3_ns=%.1f",
			       phase_name[p], (unsigned long long)t->total_ns[p],
			       phase_name[p], med[p], phase_name[p], t->chunk_ns[p][0],
			       phase_name[p], t->chunk_ns[p][nchunks / 4],
			       phase_name[p], t->chunk_ns[p][(3 * nchunks) / 4 < nchunks ? (3 * nchunks) / 4 : nchunks - 1]);
			free(t->chunk_ns[p]);
		}
		printf("\n");
		print_slab_delta(tag, &t->slab, n);
		print_stats_diff(tag, &t->st_a, &t->st_b);
		fprintf(stderr, "bench: %-13s %-6s n=%-7ld rep %d: create %6.0f  stat %6.0f  refill %6.0f  unlink %6.0f (median chunk, per op; under icount, instructions)\n",
			t->fs, layout, n, rep, med[CREATE], med[STAT], med[REFILL],
			med[UNLINK]);
	}
	free(names);
	free(tg);
	return 0;
}

/* splitmix64, for a shuffle that is the same on every filesystem. */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One filesystem of a "payload" run. */
struct ptarget {
	const char *fs;
	struct tree t;
	int *fd;
	int btime, xattr;
	double *statx_ns, *xattr_ns;	/* ns per call, each pass */
};

static double median(double *v, long n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int cmd_payload(int ntargets, char **specs, long n, long passes, int rep)
{
	static const char value[16] = "0123456789abcdef";
	rlim_t nofile = (rlim_t)n * ntargets + 64;
	struct rlimit rl = { .rlim_cur = nofile, .rlim_max = nofile };
	struct ptarget *tg = xcalloc(ntargets, sizeof(*tg));
	char (*names)[NAME_LEN] = make_names(n);
	long *order = xcalloc(n, sizeof(*order));
	uint64_t state = 42;
	long i, p, j;
	int k;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("raise RLIMIT_NOFILE to %llu", (unsigned long long)nofile);
	for (k = 0; k < ntargets; k++) {
		struct ptarget *t = &tg[k];
		char *dir = spec_dir(specs[k]);

		t->fs = fstype = specs[k];
		t->t = (struct tree){ .n = n, .dir = dir, .names = names };
		t->btime = t->xattr = 1;
		t->fd = xcalloc(n, sizeof(*t->fd));
		t->statx_ns = xcalloc(passes, sizeof(double));
		t->xattr_ns = xcalloc(passes, sizeof(double));
		tree_open(&t->t);
		for (i = 0; i < n; i++) {
			t->fd[i] = openat(t->t.rootfd, names[i],
					  O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (t->fd[i] < 0)
				die("create file %ld", i);
			/* ramfs has no xattrs: then the loop times the refusal. */
			if (fsetxattr(t->fd[i], XATTR_NAME, value, sizeof(value), 0))
				t->xattr = 0;
		}
	}
	/* One shuffled order, the same on every filesystem. */
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		long r = next_rand(&state) % (i + 1), tmp = order[i];

		order[i] = order[r];
		order[r] = tmp;
	}

	/* Each pass, the filesystems take turns, the first one rotating. */
	for (p = 0; p < passes; p++) {
		progress("payload n=%ld rep %d pass %ld of %ld", n, rep, p + 1, passes);
		for (k = 0; k < ntargets; k++) {
			struct ptarget *t = &tg[(p + k) % ntargets];
			struct statx stx;
			uint64_t t0, t1;

			fstype = t->fs;
			t0 = now_ns();
			for (j = 0; j < n; j++) {
				if (statx(t->fd[order[j]], "", AT_EMPTY_PATH,
					  STATX_BTIME, &stx))
					die("statx");
				if (!(stx.stx_mask & STATX_BTIME))
					t->btime = 0;
			}
			t1 = now_ns();
			t->statx_ns[p] = (double)(t1 - t0) / n;
		}
		for (k = 0; k < ntargets; k++) {
			struct ptarget *t = &tg[(p + k) % ntargets];
			char buf[64];
			uint64_t t0, t1;

			fstype = t->fs;
			t0 = now_ns();
			for (j = 0; j < n; j++) {
				ssize_t len = fgetxattr(t->fd[order[j]], XATTR_NAME,
							buf, sizeof(buf));

				if (t->xattr && len != sizeof(value))
					die("fgetxattr returned %zd", len);
			}
			t1 = now_ns();
			t->xattr_ns[p] = (double)(t1 - t0) / n;
		}
	}

	for (k = 0; k < ntargets; k++) {
		struct ptarget *t = &tg[k];
		double sx, gx, sx_lo, sx_hi, gx_lo, gx_hi;

		fstype = t->fs;
		for (i = 0; i < n; i++)
			close(t->fd[i]);
		unlink_files(&t->t);
		tree_close(&t->t);
		sx = median(t->statx_ns, passes);
		gx = median(t->xattr_ns, passes);
		sx_lo = t->statx_ns[0], sx_hi = t->statx_ns[passes - 1];
		gx_lo = t->xattr_ns[0], gx_hi = t->xattr_ns[passes - 1];
		printf("IPAT-BENCH payload fs=%s n=%ld passes=%ld rep=%d statx_med_ns=%.1f statx_min_ns=%.1f statx_max_ns=%.1f getxattr_med_ns=%.1f getxattr_min_ns=%.1f getxattr_max_ns=%.1f btime=%d xattr=%d\n",
		       t->fs, n, passes, rep, sx, sx_lo, sx_hi, gx, gx_lo, gx_hi,
		       t->btime, t->xattr);
		fprintf(stderr, "bench: %-13s payload rep %d: statx %6.0f%s  getxattr %6.0f%s (median pass, per call; under icount, instructions)\n",
			t->fs, rep, sx, t->btime ? "" : " (no btime)", gx,
			t->xattr ? "" : " (no xattrs)");
		free(t->fd);
		free(t->statx_ns);
		free(t->xattr_ns);
	}
	free(names);
	free(order);
	free(tg);
	return 0;
}

/* The operations of "ops"; the untimed ones prepare the next timed one. */
enum op {
	OP_MKDIR, OP_RMDIR, OP_CREATE, OP_OPEN_CLOSE, OP_OPEN_FDS, OP_WRITE_READ,
	OP_SETXATTR, OP_GETXATTR, OP_CLOSE_FDS, OP_LINK, OP_UNLINK_LINK,
	OP_RENAME, OP_REMOVE, NOPS
};
static const struct {
	const char *name;	/* NULL: not timed */
} op_info[NOPS] = {
	[OP_MKDIR] = { "mkdir" },
	[OP_RMDIR] = { "rmdir" },
	[OP_OPEN_CLOSE] = { "open_close" },
	[OP_WRITE_READ] = { "write_read" },
	[OP_SETXATTR] = { "setxattr" },
	[OP_GETXATTR] = { "getxattr" },
	[OP_LINK] = { "link" },
	[OP_UNLINK_LINK] = { "unlink_link" },
	[OP_RENAME] = { "rename" },
};

/* One filesystem of an "ops" run. */
struct otarget {
	const char *fs;
	int dfd, xattr;
	int *fd;
	double *chunk_ns[NOPS];		/* ns per op, each chunk */
};

/* Operation op on files [from, to): names f*, links l*, renamed r*. */
static void do_op(struct otarget *t, char (*const names[3])[NAME_LEN],
		  enum op op, long from, long to)
{
	static const char value[16] = "0123456789abcdef";
	static const char data[64] = "a small file's 64 bytes";
	char buf[64] = "";
	const char *f, *l, *r;
	long i;
	int fd;

	for (i = from; i < to; i++) {
		f = names[0][i], l = names[1][i], r = names[2][i];
		switch (op) {
		case OP_MKDIR:
			if (mkdirat(t->dfd, l, 0755))
				die("mkdir %s", l);
			break;
		case OP_RMDIR:
			if (unlinkat(t->dfd, l, AT_REMOVEDIR))
				die("rmdir %s", l);
			break;
		case OP_CREATE:
			fd = openat(t->dfd, f, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0)
				die("create %s", f);
			close(fd);
			break;
		case OP_OPEN_CLOSE:
		case OP_OPEN_FDS:
			fd = openat(t->dfd, f, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				die("open %s", f);
			if (op == OP_OPEN_FDS)
				t->fd[i] = fd;
			else
				close(fd);
			break;
		case OP_WRITE_READ:
			if (pwrite(t->fd[i], data, sizeof(data), 0) != sizeof(data) ||
			    pread(t->fd[i], buf, sizeof(buf), 0) != sizeof(buf))
				die("write+read %s", f);
			break;
		case OP_SETXATTR:
			/* ramfs has no xattrs: then the loop times the refusal. */
			if (fsetxattr(t->fd[i], XATTR_NAME, value, sizeof(value), 0))
				t->xattr = 0;
			break;
		case OP_GETXATTR:
			if (fgetxattr(t->fd[i], XATTR_NAME, buf, sizeof(buf)) !=
			    sizeof(value) && t->xattr)
				die("fgetxattr %s", f);
			break;
		case OP_CLOSE_FDS:
			close(t->fd[i]);
			break;
		case OP_LINK:
			if (linkat(t->dfd, f, t->dfd, l, 0))
				die("link %s", f);
			break;
		case OP_UNLINK_LINK:
			if (unlinkat(t->dfd, l, 0))
				die("unlink %s", l);
			break;
		case OP_RENAME:
			if (renameat(t->dfd, f, t->dfd, r))
				die("rename %s", f);
			break;
		default:
			if (unlinkat(t->dfd, r, 0))
				die("unlink %s", r);
			break;
		}
	}
}

static int cmd_ops(int ntargets, char **specs, long n, long chunk, int rep)
{
	long nchunks = (n + chunk - 1) / chunk, c, turn;
	char (*names[3])[NAME_LEN];
	rlim_t nofile = (rlim_t)n * ntargets + 64;
	struct rlimit rl = { .rlim_cur = nofile, .rlim_max = nofile };
	struct otarget *tg = xcalloc(ntargets, sizeof(*tg));
	int i, k, o;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("raise RLIMIT_NOFILE to %llu", (unsigned long long)nofile);
	for (k = 0; k < 3; k++) {
		names[k] = make_names(n);
		for (i = 0; i < n; i++)
			names[k][i][0] = "flr"[k];
	}
	for (k = 0; k < ntargets; k++) {
		struct otarget *t = &tg[k];
		char *dir = spec_dir(specs[k]);

		t->fs = fstype = specs[k];
		t->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t->dfd < 0)
			die("open %s", dir);
		t->xattr = 1;
		t->fd = xcalloc(n, sizeof(*t->fd));
		for (o = 0; o < NOPS; o++)
			t->chunk_ns[o] = xcalloc(nchunks, sizeof(double));
	}

	/* Each operation: chunk by chunk, in chunk_order(). */
	for (o = 0; o < NOPS; o++) {
		progress("ops n=%ld op %d of %d", n, o + 1, NOPS);
		for (turn = 0; turn < nchunks * ntargets; turn++) {
			struct otarget *t;
			long from, to;
			uint64_t t0;

			chunk_order(turn, nchunks, ntargets, &c, &k);
			t = &tg[k];
			from = c * chunk;
			to = from + chunk < n ? from + chunk : n;
			fstype = t->fs;
			t0 = now_ns();
			do_op(t, names, o, from, to);
			t->chunk_ns[o][c] = (double)(now_ns() - t0) / (to - from);
		}
	}

	for (k = 0; k < ntargets; k++) {
		struct otarget *t = &tg[k];

		/* Every chunk, in order, as in "files". */
		for (o = 0; o < NOPS; o++) {
			if (!op_info[o].name)
				continue;
			printf("IPAT-BENCH opchunks fs=%s n=%ld rep=%d op=%s ns_per_op=",
			       t->fs, n, rep, op_info[o].name);
			for (c = 0; c < nchunks; c++)
				printf("%s%.0f", c ? "," : "", t->chunk_ns[o][c]);
			printf("\n");
		}
		printf("IPAT-BENCH ops fs=%s n=%ld rep=%d chunk=%ld chunks=%ld",
		       t->fs, n, rep, chunk, nchunks);
		for (o = 0; o < NOPS; o++)
			if (op_info[o].name)
				printf(" %s_med_ns=%.1f", op_info[o].name,
				       median(t->chunk_ns[o], nchunks));
		printf(" xattr=%d\n", t->xattr);
		for (o = 0; o < NOPS; o++)
			free(t->chunk_ns[o]);
		close(t->dfd);
		free(t->fd);
	}
	for (k = 0; k < 3; k++)
		free(names[k]);
	free(tg);
	return 0;
}

/* One filesystem of an "xnames" run: N names on one file, each op timed. */
static void xnames_one(const char *fs, const char *dir, long n)
{
	enum { SET, GET, LIST, REMOVE, NX };
	static const char *const what[NX] = { "set", "get", "list", "remove" };
	static char names[5000][16], list[65536];
	char path[512], val[8];
	uint64_t ns[NX], t0;
	long i, len;
	int fd, k;

	fstype = fs;
	for (i = 0; i < n; i++)
		snprintf(names[i], sizeof(names[i]), "trusted.%04x",
			 (unsigned int)i & 0xffff);
	snprintf(path, sizeof(path), "%s/xnames", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		die("create %s", path);
	for (k = 0; k < NX; k++) {
		t0 = now_ns();
		for (i = 0; i < (k == LIST ? 1 : n); i++) {
			if (k == SET && fsetxattr(fd, names[i], "v", 1, XATTR_CREATE))
				die("fsetxattr %s (name %ld of %ld)", names[i], i, n);
			if (k == GET && fgetxattr(fd, names[i], val, sizeof(val)) != 1)
				die("fgetxattr %s", names[i]);
			if (k == REMOVE && fremovexattr(fd, names[i]))
				die("fremovexattr %s", names[i]);
		}
		if (k == LIST) {
			len = flistxattr(fd, list, sizeof(list));
			if (len != n * (long)sizeof("trusted.0000"))
				die("flistxattr: %ld bytes for %ld names", len, n);
		}
		ns[k] = now_ns() - t0;
	}
	printf("IPAT-BENCH xnames fs=%s n=%ld", fs, n);
	for (k = 0; k < NX; k++)
		printf(" %s_ns=%.1f", what[k], (double)ns[k] / (k == LIST ? 1 : n));
	printf("\n");
	close(fd);
	if (unlink(path))
		die("unlink %s", path);
}

static int cmd_xnames(int ntargets, char **specs, long n)
{
	int k;

	if (n > 5000) {
		fprintf(stderr, "ipat-bench: xnames: at most 5000 names fit\n");
		exit(2);
	}
	for (k = 0; k < ntargets; k++) {
		char *dir = spec_dir(specs[k]);

		xnames_one(specs[k], dir, n);
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ipat-bench files -n N [-D PER_DIR] [-c CHUNK] [-r REP] [-t PHASE] [-B] FSTYPE:DIR...\n"
		"       ipat-bench payload -n FILES -p PASSES [-r REP] FSTYPE:DIR...\n"
		"       ipat-bench ops -n N [-c CHUNK] [-r REP] [-B] FSTYPE:DIR...\n"
		"       ipat-bench xnames -n N FSTYPE:DIR...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n = 0, per_dir = 0, passes = 1, chunk = 0;
	const char *cmd;
	int opt, p, rep = 1;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "n:D:c:p:r:t:B")) != -1) {
		switch (opt) {
		case 'n': n = atol(optarg); break;
		case 'D': per_dir = atol(optarg); break;
		case 'c': chunk = atol(optarg); break;
		case 'p': passes = atol(optarg); break;
		case 'r': rep = atoi(optarg); break;
		case 'B': in_blocks = true; break;
		case 't':
			for (p = 0; p < NPHASES; p++)
				if (!strcmp(optarg, phase_name[p]))
					traced_phase = p;
			if (traced_phase < 0)
				usage();
			break;
		default: usage();
		}
	}
	if (n <= 0 || n > 9999999 || per_dir < 0 || chunk < 0 || passes <= 0)
		usage();
	/* Stdout is the console: one write per record keeps lines whole. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "files") && optind < argc)
		return cmd_files(argc - optind, argv + optind, n, per_dir,
				 chunk ? chunk : n, rep);
	if (!strcmp(cmd, "payload") && optind < argc)
		return cmd_payload(argc - optind, argv + optind, n, passes, rep);
	if (!strcmp(cmd, "ops") && optind < argc)
		return cmd_ops(argc - optind, argv + optind, n, chunk ? chunk : n, rep);
	if (!strcmp(cmd, "xnames") && optind < argc)
		return cmd_xnames(argc - optind, argv + optind, n);
	usage();
	return 2;
}
