// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-rand COUNT MAX: print COUNT pseudo-random numbers below MAX, one a
 * line, from the seed in $IPAT_SEED, so a shell test's random choices are
 * the same on every run with the same seed (busybox sh cannot seed $RANDOM).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "splitmix64.h"

int main(int argc, char **argv)
{
	const char *seed = getenv("IPAT_SEED");
	uint64_t state = seed ? strtoull(seed, NULL, 0) : 0;
	unsigned long count, max;

	if (argc != 3) {
		fprintf(stderr, "usage: ipat-rand COUNT MAX (seed from $IPAT_SEED)\n");
		return 2;
	}
	count = strtoul(argv[1], NULL, 0);
	max = strtoul(argv[2], NULL, 0);
	if (!max) {
		fprintf(stderr, "ipat-rand: MAX must be > 0\n");
		return 2;
	}
	while (count--)
		printf("%llu\n", (unsigned long long)(splitmix64(&state) % max));
	return 0;
}
