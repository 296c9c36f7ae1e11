// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench ops -n N [-c CHUNK] [-r REP] [-B] FSTYPE:DIR...
 *
 * Times the other operations a filesystem does, N of each, in one
 * directory and in chunks taken in turns as in "files": mkdir, rmdir,
 * open+close of an existing file, a 64-byte pwrite+pread, fsetxattr,
 * fgetxattr, link, unlink of that second link, rename. The files they
 * need are made and removed between the timed phases. Under QEMU's icount
 * (bench/run.sh) each figure is instructions per operation.
 */
#include "common.h"

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

static int ops_run(const struct bench_args *a)
{
	const int ntargets = a->ntargets, rep = a->rep;
	const long n = a->n, chunk = a->chunk ? a->chunk : a->n;
	char **const specs = a->specs;
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

			chunk_order(a->in_blocks, turn, nchunks, ntargets, &c, &k);
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

const struct subcommand ops_cmd = {
	"ops", "-n N [-c CHUNK] [-r REP] [-B] FSTYPE:DIR...", ops_run
};
