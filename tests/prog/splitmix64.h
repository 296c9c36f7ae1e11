/* SPDX-License-Identifier: GPL-2.0 */
/*
 * splitmix64, the test programs' pseudo-random numbers: a seed gives the
 * same sequence on every run, and the whole state is one word.
 */
#ifndef SPLITMIX64_H
#define SPLITMIX64_H

#include <stdint.h>

/* The output function: a well-mixed function of one word. */
static inline uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The next number of the sequence whose state is *@state. */
static inline uint64_t splitmix64(uint64_t *state)
{
	return splitmix64_mix(*state += 0x9e3779b97f4a7c15ULL);
}

#endif
