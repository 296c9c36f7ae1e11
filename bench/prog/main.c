// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-bench: the measuring half of the benchmark (bench/guest.sh drives
 * it in the guest).
 *
 *   ipat-bench SUBCOMMAND [OPTIONS] FSTYPE:DIR...
 *
 * Each subcommand is a file of its own (files.c, payload.c, ops.c,
 * xnames.c, cache.c), which says what it measures; this file parses
 * the options they share into a struct bench_args and runs the one
 * named. Under QEMU's icount (bench/run.sh) every time it measures is a
 * count of instructions.
 *
 * Output lines start "IPAT-BENCH <record>" followed by key=value pairs,
 * for bench/report.sh; a human-readable progress line goes to stderr.
 */
#include "common.h"

/* The subcommands: one line each, defined as NAME_cmd in NAME.c. */
#define SUBCOMMANDS(X)	\
	X(files)	\
	X(payload)	\
	X(ops)		\
	X(xnames)	\
	X(cache)

#define DECLARE(name)	extern const struct subcommand name##_cmd;
#define ENTRY(name)	&name##_cmd,
SUBCOMMANDS(DECLARE)
static const struct subcommand *const subcommands[] = { SUBCOMMANDS(ENTRY) };
#define NSUBCOMMANDS	(sizeof(subcommands) / sizeof(subcommands[0]))

void usage(void)
{
	size_t i;

	for (i = 0; i < NSUBCOMMANDS; i++)
		fprintf(stderr, "%s ipat-bench %s %s\n", i ? "      " : "usage:",
			subcommands[i]->name, subcommands[i]->usage);
	exit(2);
}

int main(int argc, char **argv)
{
	struct bench_args a = { .passes = 1, .rep = 1 };
	const struct subcommand *cmd = NULL;
	size_t i;
	int opt;

	if (argc < 2)
		usage();
	for (i = 0; i < NSUBCOMMANDS; i++)
		if (!strcmp(argv[1], subcommands[i]->name))
			cmd = subcommands[i];
	optind = 2;
	while ((opt = getopt(argc, argv, "n:D:c:p:r:t:H:B")) != -1) {
		switch (opt) {
		case 'n': a.n = atol(optarg); break;
		case 'D': a.per_dir = atol(optarg); break;
		case 'c': a.chunk = atol(optarg); break;
		case 'p': a.passes = atol(optarg); break;
		case 'H': a.hot = atol(optarg); break;
		case 'r': a.rep = atoi(optarg); break;
		case 'B': a.in_blocks = true; break;
		case 't': a.trace = optarg; break;
		default: usage();
		}
	}
	if (!cmd || optind >= argc || a.n <= 0 || a.n > 9999999 ||
	    a.per_dir < 0 || a.chunk < 0 || a.passes <= 0 || a.hot < 0)
		usage();
	a.ntargets = argc - optind;
	a.specs = argv + optind;
	/* Stdout is the console: one write per record keeps lines whole. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return cmd->run(&a);
}
