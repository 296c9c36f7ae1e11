// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench cache: what each operation costs in memory accesses and cache
 * misses, measured by the ipat-cache plugin (bench/cache-model/) on the
 * guest's own loads and stores. The program brackets every measured part
 * with a phase marker (marker.h); the plugin prints that part's counts.
 *
 *   ipat-bench cache -n COLD [-H HOT] -p PASSES FSTYPE:DIR...
 *
 * For each filesystem in turn, two regimes:
 *
 * hot:  HOT files (default 16) operated on PASSES times (at least 2): each
 *       pass creates them, stats them, reads the birth time and an xattr
 *       through open descriptors, and unlinks them, each operation over
 *       the whole set in a shuffled order. What one file's operations
 *       touch stays in the caches from pass to pass, the slab objects of
 *       the files unlinked are reused by the next pass's creates. Between
 *       passes it waits for those frees (an RCU grace period away), so
 *       that they land in no measured part: unlink counts the system
 *       call, not the deferred free.
 * cold: COLD files (10^5 or more: far past the last-level cache), created
 *       once; then each operation visits every file once in a shuffled
 *       order, so that what it touches was last touched COLD files ago.
 *
 * The operations: create (openat O_CREAT|O_EXCL and close), stat
 * (fstatat by name: the path walk included), statx of the birth time and
 * fgetxattr, both on an open descriptor (no path walk: the private data
 * is as large a part of the call as userspace can make it), and unlink.
 * Opening, closing and setting the xattr are not measured.
 *
 * Before each measured part it prints "IPAT-BENCH cache-phase seq=S fs=FS
 * regime=R op=OP id=ID ops=N": the report pairs these, in order, with the
 * plugin's lines of the phases marked ID (bench/cache-model/README.md).
 */
#include "common.h"
#include "../cache-model/marker.h"

enum cache_op { C_CREATE = 1, C_STAT, C_STATX, C_GETXATTR, C_UNLINK, C_NOPS };
static const char *const cache_op_name[C_NOPS] = {
	[C_CREATE] = "create", [C_STAT] = "stat", [C_STATX] = "statx_btime",
	[C_GETXATTR] = "getxattr", [C_UNLINK] = "unlink",
};

/* The marker's id is an immediate: one constant a case. */
static void mark(enum cache_op op)
{
	switch (op) {
	case C_CREATE: IPAT_CACHE_PHASE(C_CREATE); break;
	case C_STAT: IPAT_CACHE_PHASE(C_STAT); break;
	case C_STATX: IPAT_CACHE_PHASE(C_STATX); break;
	case C_GETXATTR: IPAT_CACHE_PHASE(C_GETXATTR); break;
	case C_UNLINK: IPAT_CACHE_PHASE(C_UNLINK); break;
	default: IPAT_CACHE_PHASE(0); break;
	}
}

/* One filesystem's set of files. */
struct cset {
	const char *fs, *regime;
	int dfd, xattr;
	long n;
	char (*names)[NAME_LEN];
	const long *order;	/* a shuffle of [0, n) */
	long pass;
	int *fd;
};

/* The xattr getxattr reads, set on every file before the measured parts. */
static const char xattr_value[16] = "0123456789abcdef";

static long phase_seq;

/* Operation @op on every file of @s, in the shuffled order, measured. */
static void measure(struct cset *s, enum cache_op op)
{
	struct statx stx;
	struct stat st;
	char buf[64];
	long j, i;
	int fd;

	printf("IPAT-BENCH cache-phase seq=%ld fs=%s regime=%s pass=%ld op=%s id=%d ops=%ld\n",
	       ++phase_seq, s->fs, s->regime, s->pass, cache_op_name[op], op,
	       s->n);
	mark(op);
	for (j = 0; j < s->n; j++) {
		i = s->order[j];
		switch (op) {
		case C_CREATE:
			fd = openat(s->dfd, s->names[i],
				    O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0)
				die("create file %ld", i);
			close(fd);
			break;
		case C_STAT:
			if (fstatat(s->dfd, s->names[i], &st, 0))
				die("stat file %ld", i);
			break;
		case C_STATX:
			if (statx(s->fd[i], "", AT_EMPTY_PATH, STATX_BTIME, &stx))
				die("statx file %ld", i);
			break;
		case C_GETXATTR:
			if (fgetxattr(s->fd[i], XATTR_NAME, buf, sizeof(buf)) !=
			    (s->xattr ? (ssize_t)sizeof(xattr_value) : -1))
				die("fgetxattr file %ld", i);
			break;
		default:
			if (unlinkat(s->dfd, s->names[i], 0))
				die("unlink file %ld", i);
			break;
		}
	}
	mark(0);
}

/* Opens every file and gives it the xattr that getxattr reads: not measured. */
static void open_set(struct cset *s)
{
	long i;

	for (i = 0; i < s->n; i++) {
		s->fd[i] = openat(s->dfd, s->names[i], O_RDWR | O_CLOEXEC);
		if (s->fd[i] < 0)
			die("open file %ld", i);
		/* ramfs has no xattrs: then getxattr measures the refusal. */
		if (s->xattr &&
		    fsetxattr(s->fd[i], XATTR_NAME, xattr_value,
			      sizeof(xattr_value), 0)) {
			if (i)
				die("setxattr file %ld", i);
			s->xattr = 0;
		}
	}
}

static void close_set(struct cset *s)
{
	long i;

	for (i = 0; i < s->n; i++)
		close(s->fd[i]);
}

/* All five operations over the set, once. */
static void one_pass(struct cset *s)
{
	measure(s, C_CREATE);
	open_set(s);
	measure(s, C_STAT);
	measure(s, C_STATX);
	measure(s, C_GETXATTR);
	close_set(s);
	measure(s, C_UNLINK);
}

static int run(const struct bench_args *a)
{
	long cold = a->n, hot = a->hot ? a->hot : 16, passes = a->passes;
	rlim_t nofile = (rlim_t)(cold > hot ? cold : hot) + 64;
	struct rlimit rl = { .rlim_cur = nofile, .rlim_max = nofile };
	char (*names)[NAME_LEN] = make_names(cold > hot ? cold : hot);
	long *hot_order = shuffled(hot, 42), *cold_order = shuffled(cold, 43);
	int *fd = xcalloc(cold > hot ? cold : hot, sizeof(*fd));
	static struct slabinfo si, tmp;
	long p;
	int k;

	/* The first hot pass only warms the caches: the report leaves it out. */
	if (passes < 2) {
		fprintf(stderr, "ipat-bench cache: -p must be at least 2\n");
		exit(2);
	}
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("raise RLIMIT_NOFILE to %llu", (unsigned long long)nofile);
	for (k = 0; k < a->ntargets; k++) {
		char *dir = spec_dir(a->specs[k]);
		struct cset s = {
			.fs = a->specs[k], .names = names, .fd = fd, .xattr = 1,
		};

		fstype = a->specs[k];
		s.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s.dfd < 0)
			die("open %s", dir);

		/*
		 * Waits for the frees of what ran before, an RCU grace period
		 * away, so that they land in no measured part.
		 */
		settle(&si, &tmp);
		s.regime = "hot", s.n = hot, s.order = hot_order;
		for (p = 0; p < passes; p++) {
			progress("cache %s hot pass %ld of %ld, %ld files",
				 s.fs, p + 1, passes, hot);
			s.pass = p + 1;
			one_pass(&s);
			/* The unlinked inodes' frees, before the next pass. */
			settle(&si, &tmp);
		}
		s.regime = "cold", s.n = cold, s.order = cold_order, s.pass = 1;
		settle(&si, &tmp);
		progress("cache %s cold, %ld files", s.fs, cold);
		one_pass(&s);
		close(s.dfd);
		printf("IPAT-BENCH cache-fs fs=%s hot=%ld passes=%ld cold=%ld xattr=%d\n",
		       s.fs, hot, passes, cold, s.xattr);
	}
	free(fd);
	free(names);
	free(hot_order);
	free(cold_order);
	return 0;
}

const struct subcommand cache_cmd = {
	"cache", "-n COLD [-H HOT] -p PASSES FSTYPE:DIR...", run,
};
