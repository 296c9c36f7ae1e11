// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench files -n N [-D PER_DIR] [-c CHUNK] [-r REP] [-t PHASE] [-B] FSTYPE:DIR...
 *
 * Creates N empty files in each DIR (flat, or PER_DIR to a subdirectory),
 * stats them, unlinks the odd-numbered half and creates it again (refill:
 * see enum phase), and unlinks them, timing with CLOCK_MONOTONIC so that
 * neither process start-up nor name formatting is measured. Each phase
 * runs in chunks of CHUNK files, the filesystems taking turns chunk by
 * chunk (the first one rotating): on a host shared with other work, a
 * slow spell then hits every filesystem alike, and the median chunk is a
 * figure the spell does not move; or, with -B, in blocks (chunk_order()).
 * Around every create chunk it reads /proc/slabinfo, so the slab growth of
 * each filesystem is its own even where two share a cache (ramfs and
 * voidfs_demo: inode_cache); and the module's statistics file before and
 * after the create phase. With -t, the middle chunk of PHASE of the first
 * FSTYPE runs under ftrace's function_graph tracer, whose trace is then
 * copied to TRACE_COPY, for a profile of where its instructions go
 * (bench/guest.sh, ipat.bench_trace). The tracer is current for that
 * chunk only: even recording nothing, its hooks made a create cost
 * 112,700 instructions instead of 10,400 (6.12).
 */
#include "common.h"

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
 * code only (bench/gate.sh): on 6.1 some chunks also take one or
 * two of SLUB's slower refills of its per-CPU slab (~12,500 instructions
 * each), and how many a chunk takes moves with the boot.
 */
enum phase { CREATE, STAT, REFILL, UNLINK, NPHASES, PUNCH = NPHASES };
static const char *const phase_name[NPHASES] = {
	"create", "stat", "refill", "unlink"
};

/* -t PHASE: the phase whose middle chunk is traced; -1 without -t. */
static int trace_phase(const char *name)
{
	int p;

	if (!name)
		return -1;
	for (p = 0; p < NPHASES; p++)
		if (!strcmp(name, phase_name[p]))
			return p;
	usage();
}

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

void unlink_files(const struct tree *t)
{
	do_files(t, UNLINK, 0, t->n);
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

static int files_run(const struct bench_args *a)
{
	const int ntargets = a->ntargets, rep = a->rep;
	const int traced_phase = trace_phase(a->trace);
	const bool in_blocks = a->in_blocks;
	const long n = a->n, per_dir = a->per_dir;
	const long chunk = a->chunk ? a->chunk : n;
	char **const specs = a->specs;
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

			chunk_order(in_blocks, turn, nchunks, ntargets, &c, &k);
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
			med[p] = median(t->chunk_ns[p], nchunks);	/* sorts them */
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

const struct subcommand files_cmd = {
	"files", "-n N [-D PER_DIR] [-c CHUNK] [-r REP] [-t PHASE] [-B] FSTYPE:DIR...",
	files_run
};
