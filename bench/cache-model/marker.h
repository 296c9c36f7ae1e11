/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Phase markers for the ipat-cache plugin (bench/cache-model/README.md).
 *
 * A marker is the 7-byte no-op "nopl disp32(%rax)" (0f 1f 80 <disp32>)
 * whose displacement is 0x4950 << 16 | id: the plugin recognises it when
 * QEMU translates it, reports the counters of the phase that ran until
 * then and starts phase <id> (0 to 65535). It does no memory access and
 * changes no register, so a program runs the same with or without the
 * plugin. The id is an immediate in the instruction: it must be a
 * constant (IPAT_CACHE_PHASE works at any optimisation level; the inline
 * function needs the call's argument to fold to a constant, so -O1 or
 * more). Phase 0 is the one before the first marker; a program brackets
 * a measured part with ipat_cache_phase(N) ... ipat_cache_phase(0).
 *
 * The "memory" clobber keeps the compiler from moving memory accesses
 * across the marker.
 */
#ifndef IPAT_CACHE_MARKER_H
#define IPAT_CACHE_MARKER_H

#define IPAT_CACHE_MAGIC 0x4950

#define IPAT_CACHE_PHASE(id)						\
	do {								\
		__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" \
				     : : "i" ((IPAT_CACHE_MAGIC << 16) | ((id) & 0xffff)) \
				     : "memory");			\
	} while (0)

static inline __attribute__((always_inline)) void ipat_cache_phase(const unsigned int id)
{
	IPAT_CACHE_PHASE(id);
}

#endif
