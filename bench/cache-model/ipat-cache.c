// SPDX-License-Identifier: GPL-2.0
/*
 * ipat-cache: a TCG plugin modelling a two-level data cache (L1D per vCPU,
 * a last-level cache shared by all vCPUs) on every guest load and store,
 * with phase markers placed by the guest (marker.h). See README.md.
 *
 * Each access is looked up by line in the vCPU's L1D; an L1D miss is looked
 * up in the LLC. Both are set-associative, allocate on loads and stores
 * alike, and replace by LRU (or FIFO, or a seeded pseudo-random way). The
 * set of a line is its line number modulo the number of sets. Write-backs,
 * prefetchers, instruction fetches and coherence are not modelled.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* The marker: nopl disp32(%rax), 0f 1f 80 <disp32>, disp32 = magic << 16 | id */
#define MARKER_LEN 7
#define MARKER_MAGIC 0x4950u	/* "IP" */
#define MAX_VCPUS 1024

enum policy { POLICY_LRU, POLICY_FIFO, POLICY_RANDOM };
static const char *const policy_name[] = { "lru", "fifo", "random" };

struct cache {
	unsigned int ways;
	unsigned int sets;
	uint64_t set_mask;
	uint64_t *tag;		/* sets * ways: line number + 1; 0 is empty */
	uint64_t *stamp;	/* sets * ways: last use (LRU) or fill (FIFO) */
	uint64_t clock;
	uint64_t rng;
};

struct counters {
	uint64_t insns, loads, stores, l1d_misses, llc_misses, unmodelled;
};

struct vcpu {
	struct cache l1d;
	struct counters c;
	unsigned int phase;
	uint64_t seq;
};

static struct {
	uint64_t l1d_size, llc_size;
	unsigned int l1d_ways, llc_ways, line, line_shift;
	enum policy policy;
	bool phys;
} cfg = {
	.l1d_size = 48 << 10, .l1d_ways = 12,
	.llc_size = 32 << 20, .llc_ways = 16,
	.line = 64, .policy = POLICY_LRU,
};

static struct vcpu *vcpus[MAX_VCPUS];
static struct cache llc;
static pthread_mutex_t llc_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;

static int cache_init(struct cache *c, uint64_t size, unsigned int ways)
{
	uint64_t lines = size / cfg.line;

	if (!ways || size % cfg.line || lines % ways)
		return -1;
	c->ways = ways;
	c->sets = lines / ways;
	if (c->sets & (c->sets - 1))
		return -1;
	c->set_mask = c->sets - 1;
	c->tag = calloc(lines, sizeof(*c->tag));
	c->stamp = calloc(lines, sizeof(*c->stamp));
	c->clock = 0;
	c->rng = 0x9e3779b97f4a7c15ull;
	return c->tag && c->stamp ? 0 : -1;
}

/* Look up one line; on a miss, fill it. Returns true on a hit. */
static bool cache_access(struct cache *c, uint64_t line)
{
	size_t base = (size_t)(line & c->set_mask) * c->ways;
	uint64_t *tag = c->tag + base, *stamp = c->stamp + base;
	unsigned int i, victim = 0;

	c->clock++;
	for (i = 0; i < c->ways; i++) {
		if (tag[i] == line + 1) {
			if (cfg.policy == POLICY_LRU)
				stamp[i] = c->clock;
			return true;
		}
	}
	/* An empty way (stamp 0) first, then the policy's choice. */
	for (i = 0; i < c->ways; i++)
		if (stamp[i] < stamp[victim])
			victim = i;
	if (cfg.policy == POLICY_RANDOM && stamp[victim]) {
		c->rng ^= c->rng << 13;
		c->rng ^= c->rng >> 7;
		c->rng ^= c->rng << 17;
		victim = c->rng % c->ways;
	}
	tag[victim] = line + 1;
	stamp[victim] = c->clock;
	return false;
}

static struct vcpu *vcpu_get(unsigned int index)
{
	struct vcpu *v;

	if (index >= MAX_VCPUS)
		return NULL;
	v = vcpus[index];
	if (v)
		return v;
	v = calloc(1, sizeof(*v));
	if (!v || cache_init(&v->l1d, cfg.l1d_size, cfg.l1d_ways)) {
		fprintf(stderr, "ipat-cache: out of memory for vCPU %u\n", index);
		abort();
	}
	vcpus[index] = v;
	return v;
}

static void report(unsigned int index, struct vcpu *v)
{
	char buf[320];

	snprintf(buf, sizeof(buf),
		 "IPAT-CACHE vcpu=%u phase=%u seq=%" PRIu64 " insns=%" PRIu64
		 " loads=%" PRIu64 " stores=%" PRIu64 " l1d_misses=%" PRIu64
		 " llc_misses=%" PRIu64 " unmodelled=%" PRIu64 "\n",
		 index, v->phase, v->seq, v->c.insns, v->c.loads, v->c.stores,
		 v->c.l1d_misses, v->c.llc_misses, v->c.unmodelled);
	pthread_mutex_lock(&out_lock);
	if (out) {
		fputs(buf, out);
		fflush(out);
	} else {
		qemu_plugin_outs(buf);
	}
	pthread_mutex_unlock(&out_lock);
}

static void vcpu_mem(unsigned int index, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct vcpu *v = vcpu_get(index);
	unsigned int size = 1u << qemu_plugin_mem_size_shift(info);
	uint64_t addr = vaddr, line, last;

	if (!v)
		return;
	if (cfg.phys) {
		struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);

		if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
			v->c.unmodelled++;
			return;
		}
		addr = qemu_plugin_hwaddr_phys_addr(hw);
	}
	if (qemu_plugin_mem_is_store(info))
		v->c.stores++;
	else
		v->c.loads++;
	/* An access across a line boundary touches both lines. */
	last = (addr + size - 1) >> cfg.line_shift;
	for (line = addr >> cfg.line_shift; line <= last; line++) {
		if (cache_access(&v->l1d, line))
			continue;
		v->c.l1d_misses++;
		pthread_mutex_lock(&llc_lock);
		if (!cache_access(&llc, line))
			v->c.llc_misses++;
		pthread_mutex_unlock(&llc_lock);
	}
}

/* Instructions of a block up to its first marker, counted when it starts. */
static void vcpu_tb_exec(unsigned int index, void *udata)
{
	struct vcpu *v = vcpu_get(index);

	if (v)
		v->c.insns += (uintptr_t)udata;
}

/*
 * A marker: the phase that ran until now is reported and a new one begins,
 * with the marker and the instructions after it up to the next marker or
 * the block's end (udata: that count << 16 | the new phase's id).
 */
static void vcpu_marker(unsigned int index, void *udata)
{
	struct vcpu *v = vcpu_get(index);
	uintptr_t u = (uintptr_t)udata;

	if (!v)
		return;
	report(index, v);
	memset(&v->c, 0, sizeof(v->c));
	v->phase = u & 0xffff;
	v->seq++;
	v->c.insns = u >> 16;
}

/*
 * An instruction's first @len bytes into @b. Plugin API version 3 (QEMU
 * 9.0) copies them out; before, it gave a pointer to them (Debian 12's
 * QEMU 7.2 is version 1, Debian 13's 10.0 version 4).
 */
static bool insn_bytes(struct qemu_plugin_insn *insn, uint8_t *b, size_t len)
{
	if (qemu_plugin_insn_size(insn) != len)
		return false;
#if QEMU_PLUGIN_VERSION >= 3
	return qemu_plugin_insn_data(insn, b, len) == len;
#else
	memcpy(b, qemu_plugin_insn_data(insn), len);
	return true;
#endif
}

static int marker_id(struct qemu_plugin_insn *insn)
{
	uint8_t b[MARKER_LEN];

	if (!insn_bytes(insn, b, MARKER_LEN) ||
	    b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80 ||
	    (b[5] | b[6] << 8) != MARKER_MAGIC)
		return -1;
	return b[3] | b[4] << 8;
}

static void segment(struct qemu_plugin_tb *tb, struct qemu_plugin_insn *marker,
		    unsigned int id, size_t n)
{
	if (marker)
		qemu_plugin_register_vcpu_insn_exec_cb(marker, vcpu_marker,
						       QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)(n << 16 | id));
	else if (n)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, vcpu_tb_exec,
						     QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i, start = 0;
	struct qemu_plugin_insn *marker = NULL;
	unsigned int phase = 0;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int m = marker_id(insn);

		if (m >= 0) {
			segment(tb, marker, phase, i - start);
			marker = insn;
			phase = m;
			start = i;
		}
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
	segment(tb, marker, phase, n - start);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int index)
{
	vcpu_get(index);
}

/* The phase still open on each vCPU at the end. */
static void plugin_exit(qemu_plugin_id_t id, void *udata)
{
	unsigned int i;

	for (i = 0; i < MAX_VCPUS; i++)
		if (vcpus[i])
			report(i, vcpus[i]);
	if (out)
		fclose(out);
	out = NULL;
}

/* A size in bytes: a number with an optional K, KiB, M, MiB, G or GiB. */
static int parse_size(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end == 'K' || *end == 'k')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	else if (*end)
		return -1;
	if (*end && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -1;
	*ret = v;
	return 0;
}

static int parse_arg(const char *arg, bool system)
{
	const char *eq = strchr(arg, '=');
	const char *val = eq ? eq + 1 : "";
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	uint64_t n;

#define KEY(k) (klen == strlen(k) && !strncmp(arg, k, klen))
	if (KEY("policy")) {
		for (n = 0; n < 3; n++)
			if (!strcmp(val, policy_name[n]))
				break;
		if (n == 3)
			return -1;
		cfg.policy = n;
		return 0;
	}
	if (KEY("addr")) {
		if (!strcmp(val, "phys") && system)
			cfg.phys = true;
		else if (!strcmp(val, "virt"))
			cfg.phys = false;
		else
			return -1;
		return 0;
	}
	if (KEY("out")) {
		out = fopen(val, "w");
		if (!out) {
			fprintf(stderr, "ipat-cache: %s: %s\n", val, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!eq || parse_size(val, &n) || !n || n > (1ull << 40))
		return -1;
	if (KEY("l1d_size"))
		cfg.l1d_size = n;
	else if (KEY("llc_size"))
		cfg.llc_size = n;
	else if (KEY("l1d_ways") && n <= 1024)
		cfg.l1d_ways = n;
	else if (KEY("llc_ways") && n <= 1024)
		cfg.llc_ways = n;
	else if (KEY("line") && n <= 4096 && !(n & (n - 1)))
		cfg.line = n;
	else
		return -1;
	return 0;
#undef KEY
}

static const char bad_geometry[] = "not a power-of-two number of sets";

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	struct cache probe;
	char buf[320];
	int i;

	/* System mode models physical addresses; user mode has only virtual. */
	cfg.phys = info->system_emulation;
	for (i = 0; i < argc; i++) {
		if (parse_arg(argv[i], info->system_emulation)) {
			fprintf(stderr, "ipat-cache: bad argument '%s'\n", argv[i]);
			return -1;
		}
	}
	cfg.line_shift = __builtin_ctz(cfg.line);
	if (cache_init(&llc, cfg.llc_size, cfg.llc_ways)) {
		fprintf(stderr, "ipat-cache: llc_size=%" PRIu64 " llc_ways=%u line=%u: %s\n",
			cfg.llc_size, cfg.llc_ways, cfg.line, bad_geometry);
		return -1;
	}
	if (cache_init(&probe, cfg.l1d_size, cfg.l1d_ways)) {
		fprintf(stderr, "ipat-cache: l1d_size=%" PRIu64 " l1d_ways=%u line=%u: %s\n",
			cfg.l1d_size, cfg.l1d_ways, cfg.line, bad_geometry);
		return -1;
	}
	free(probe.tag);
	free(probe.stamp);

	snprintf(buf, sizeof(buf),
		 "IPAT-CACHE config l1d_size=%" PRIu64 " l1d_ways=%u l1d_sets=%" PRIu64
		 " llc_size=%" PRIu64 " llc_ways=%u llc_sets=%u line=%u policy=%s addr=%s\n",
		 cfg.l1d_size, cfg.l1d_ways, cfg.l1d_size / cfg.line / cfg.l1d_ways,
		 cfg.llc_size, cfg.llc_ways, llc.sets, cfg.line,
		 policy_name[cfg.policy], cfg.phys ? "phys" : "virt");
	if (out) {
		fputs(buf, out);
		fflush(out);
	} else {
		qemu_plugin_outs(buf);
	}

	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
