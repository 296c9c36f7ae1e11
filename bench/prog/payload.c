// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench payload -n FILES -p PASSES [-r REP] FSTYPE:DIR...
 *
 * Reaches each inode's private data through the VFS only: statx() for the
 * birth time and fgetxattr() for an xattr, on open file descriptors (no
 * path walk) in a shuffled order (no streaming through neighbouring
 * objects), so that the step from struct inode to the payload is as large
 * a part of each call as userspace can make it. The filesystems take
 * turns pass by pass, as in "files", and a figure is the median pass.
 */
#include "common.h"

/* One filesystem of a "payload" run. */
struct ptarget {
	const char *fs;
	struct tree t;
	int *fd;
	int btime, xattr;
	double *statx_ns, *xattr_ns;	/* ns per call, each pass */
};

static int payload_run(const struct bench_args *a)
{
	static const char value[16] = "0123456789abcdef";
	const int ntargets = a->ntargets, rep = a->rep;
	const long n = a->n, passes = a->passes;
	char **const specs = a->specs;
	rlim_t nofile = (rlim_t)n * ntargets + 64;
	struct rlimit rl = { .rlim_cur = nofile, .rlim_max = nofile };
	struct ptarget *tg = xcalloc(ntargets, sizeof(*tg));
	char (*names)[NAME_LEN] = make_names(n);
	/* One shuffled order, the same on every filesystem. */
	long *order = shuffled(n, 42);
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

const struct subcommand payload_cmd = {
	"payload", "-n FILES -p PASSES [-r REP] FSTYPE:DIR...", payload_run
};
