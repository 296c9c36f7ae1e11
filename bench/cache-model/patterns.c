// SPDX-License-Identifier: GPL-2.0
/*
 * Access patterns whose cache misses are known, for the ipat-cache
 * plugin's check (tests/host/85-cache-model.sh). Each brackets its
 * measured part with a marker (phase 1) and ends it with phase 0.
 *
 *   patterns stream BYTES          load every 8-byte word of a buffer of
 *                                  BYTES never touched before, once
 *   patterns ring STRIDE COUNT LAPS
 *       a pointer ring of COUNT words STRIDE bytes apart, visited in a
 *       shuffled order; one lap warms up, then LAPS laps are measured:
 *       COUNT * LAPS loads
 *   patterns hot STRIDE COUNT LAPS
 *       lines 1 to COUNT, STRIDE bytes apart, each load of one preceded by
 *       a load of line 0: 2 * COUNT * LAPS loads after a warm-up lap. With
 *       COUNT lines in one set of COUNT ways, LRU keeps line 0 and misses
 *       each of the others; FIFO evicts line 0 as well
 *   patterns ops
 *       phase 2: the marker and 10 nops (11 instructions); phase 3: the
 *       marker, 2 nops, a jump to the next block, 2 nops (6); phase 4: the
 *       marker, 2 stores to a line, a load across its end (4 instructions,
 *       2 stores, 1 load, 2 lines never touched before)
 *
 * Buffers are aligned to 2 MiB, the default LLC's set period (sets x line),
 * so a line's set in either cache is that of its offset in the buffer.
 * Built static (-O2 -fno-tree-vectorize) for user-mode qemu-x86_64.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marker.h"

static volatile uint64_t sink;

static void *buffer(size_t bytes)
{
	void *p;

	if (posix_memalign(&p, 2UL << 20, bytes)) {
		perror("posix_memalign");
		exit(1);
	}
	return p;
}

static void stream(size_t bytes)
{
	uint64_t *p = buffer(bytes), sum = 0;
	size_t i, n = bytes / sizeof(*p);

	IPAT_CACHE_PHASE(1);
	for (i = 0; i < n; i++)
		sum += p[i];
	IPAT_CACHE_PHASE(0);
	sink = sum;
}

static void ring(size_t stride, size_t count, unsigned long laps)
{
	char *buf = buffer(stride * count);
	size_t *order = malloc(count * sizeof(*order)), i, j, t;
	void **p;
	uint64_t seed = 42;

	if (!order) {
		perror("malloc");
		exit(1);
	}
	for (i = 0; i < count; i++)
		order[i] = i;
	for (i = count - 1; i > 0; i--) {	/* Fisher-Yates, fixed seed */
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (seed >> 33) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < count; i++)
		*(void **)(buf + order[i] * stride) = buf + order[(i + 1) % count] * stride;
	p = (void **)(buf + order[0] * stride);
	for (i = 0; i < count; i++)	/* the warm-up lap */
		p = *p;
	IPAT_CACHE_PHASE(1);
	for (i = 0; i < count * laps; i++)
		p = *p;
	IPAT_CACHE_PHASE(0);
	sink = (uintptr_t)p;
}

static void hot(size_t stride, size_t count, unsigned long laps)
{
	char *buf = buffer(stride * (count + 1));
	uint64_t sum = 0;
	unsigned long lap;
	size_t i;

	for (lap = 0; lap <= laps; lap++) {
		if (lap == 1)
			IPAT_CACHE_PHASE(1);
		for (i = 1; i <= count; i++) {
			sum += *(volatile uint64_t *)buf;
			sum += *(volatile uint64_t *)(buf + i * stride);
		}
	}
	IPAT_CACHE_PHASE(0);
	sink = sum;
}

static uint64_t ops_buf[16] __attribute__((aligned(64)));

static void ops(void)
{
	IPAT_CACHE_PHASE(2);
	__asm__ __volatile__(".rept 10\n\tnop\n\t.endr");
	IPAT_CACHE_PHASE(3);
	__asm__ __volatile__("nop\n\tnop\n\tjmp 1f\n1:\tnop\n\tnop");
	IPAT_CACHE_PHASE(4);
	__asm__ __volatile__("movq %%rax, %0\n\tmovq %%rax, %1\n\tmovq 4+%2, %%rax"
			     : "=m" (ops_buf[0]), "=m" (ops_buf[1])
			     : "m" (ops_buf[7]) : "rax", "memory");
	IPAT_CACHE_PHASE(0);
	sink = ops_buf[0];
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "stream")) {
		stream(strtoull(argv[2], NULL, 0));
	} else if (argc == 5 && !strcmp(argv[1], "ring")) {
		ring(strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0),
		     strtoul(argv[4], NULL, 0));
	} else if (argc == 5 && !strcmp(argv[1], "hot")) {
		hot(strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0),
		    strtoul(argv[4], NULL, 0));
	} else if (argc == 2 && !strcmp(argv[1], "ops")) {
		ops();
	} else {
		fprintf(stderr, "usage: patterns stream BYTES | ring|hot STRIDE COUNT LAPS | ops\n");
		return 2;
	}
	return 0;
}
