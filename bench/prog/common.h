/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ipat-bench's shared parts: the subcommand table's entry, what the
 * command line gives a subcommand, and the helpers every subcommand may
 * use (common.c: errors, memory, clock, progress, the files' tree;
 * slabinfo.c: /proc/slabinfo and the module's statistics file).
 *
 * A subcommand NAME is one file, NAME.c, defining
 *   const struct subcommand NAME_cmd = { "NAME", "usage...", run };
 * and one line in main.c's SUBCOMMANDS list.
 */
#ifndef IPAT_BENCH_COMMON_H
#define IPAT_BENCH_COMMON_H

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

/* The command line, parsed by main.c; each subcommand reads what it takes. */
struct bench_args {
	long n;			/* -n */
	long per_dir;		/* -D, 0: flat */
	long chunk;		/* -c, 0: the subcommand's default */
	long passes;		/* -p */
	long hot;		/* -H: cache's hot set, 0: its default */
	int rep;		/* -r */
	bool in_blocks;		/* -B: see chunk_order() */
	const char *trace;	/* -t PHASE, or NULL */
	int ntargets;
	char **specs;		/* FSTYPE:DIR, ntargets of them */
};

struct subcommand {
	const char *name;
	const char *usage;	/* its options, after "ipat-bench NAME " */
	int (*run)(const struct bench_args *a);
};

/* main.c: the usage of every subcommand, exit status 2. */
void usage(void) __attribute__((noreturn));

/* common.c */
extern const char *fstype;	/* the filesystem being worked on, for die() */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xcalloc(size_t n, size_t size);
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *spec_dir(char *spec);
char (*make_names(long n))[NAME_LEN];
double median(double *v, long n);
long *shuffled(long n, uint64_t seed);
void chunk_order(bool in_blocks, long turn, long nchunks, int ntargets,
		 long *c, int *k);

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* N files of one filesystem, flat in DIR or PER_DIR to a subdirectory. */
struct tree {
	long n, per_dir, ndirs;
	const char *dir;
	int rootfd;
	int *dirfd;
	char (*names)[NAME_LEN];	/* shared by all trees */
};

void tree_open(struct tree *t);
void tree_close(struct tree *t);

static inline int tree_dirfd(const struct tree *t, long i)
{
	return t->per_dir ? t->dirfd[i / t->per_dir] : t->rootfd;
}

/* files.c: unlink every file of a tree (payload's cleanup too). */
void unlink_files(const struct tree *t);

/* slabinfo.c: one line of /proc/slabinfo, SLUB's view: active_slabs == num_slabs. */
struct cache {
	char name[64];
	long active_objs, num_objs, objsize, objperslab, pagesperslab, slabs;
};

struct slabinfo {
	int n;
	struct cache c[MAX_CACHES];
};

/* Slab growth of one filesystem, summed over its create chunks. */
struct slabdelta {
	int n;
	struct cache c[MAX_CACHES];	/* active_objs, slabs: the change */
};

/* The module's statistics file, if FSTYPE is one of ours. */
#define NSTATS 16
struct stats {
	int present;
	int n;
	char key[NSTATS][40];
	long val[NSTATS];
};

void read_slabinfo(struct slabinfo *si);
void settle(struct slabinfo *si, struct slabinfo *tmp);
void slab_accumulate(struct slabdelta *d, const struct slabinfo *a,
		     const struct slabinfo *b);
void print_slab_delta(const char *tag, const struct slabdelta *d, long n);
void read_stats(struct stats *st, const char *fs);
void print_stats_diff(const char *tag, const struct stats *a,
		      const struct stats *b);

#endif
