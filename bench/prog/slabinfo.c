// SPDX-License-Identifier: GPL-2.0
/*
 * What a run's files hold in memory (common.h): /proc/slabinfo before and
 * after, per cache, and the module's statistics file.
 */
#include "common.h"

void read_slabinfo(struct slabinfo *si)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		die("open /proc/slabinfo");
	si->n = 0;
	while (fgets(line, sizeof(line), f) && si->n < MAX_CACHES) {
		struct cache *c = &si->c[si->n];
		long tl, tb, ts, as;

		if (sscanf(line, "%63s %ld %ld %ld %ld %ld : tunables %ld %ld %ld : slabdata %ld %ld",
			   c->name, &c->active_objs, &c->num_objs, &c->objsize,
			   &c->objperslab, &c->pagesperslab, &tl, &tb, &ts, &as,
			   &c->slabs) == 11)
			si->n++;
	}
	fclose(f);
}

static const struct cache *find_cache(const struct slabinfo *si, const char *name)
{
	int i;

	for (i = 0; i < si->n; i++)
		if (!strcmp(si->c[i].name, name))
			return &si->c[i];
	return NULL;
}

static long slab_churn(const struct slabinfo *a, const struct slabinfo *b)
{
	long churn = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		const struct cache *old = find_cache(a, b->c[i].name);

		churn += labs(b->c[i].active_objs - (old ? old->active_objs : 0));
	}
	return churn;
}

/*
 * Inodes of the previous run are freed after an RCU grace period, and under
 * emulation a million of them take a while: wait until the slab caches
 * stop moving, or a baseline taken now would count those frees against
 * this run. 30 seconds at most; a note in the output says if that was not
 * enough.
 */
void settle(struct slabinfo *si, struct slabinfo *tmp)
{
	const struct timespec pause = { .tv_nsec = 100 * 1000 * 1000 };
	int tries;

	read_slabinfo(si);
	for (tries = 0; tries < 300; tries++) {
		nanosleep(&pause, NULL);
		read_slabinfo(tmp);
		if (slab_churn(si, tmp) < 64) {
			*si = *tmp;
			return;
		}
		*si = *tmp;
	}
	printf("IPAT-BENCH note fs=%s settle=timeout\n", fstype);
}

void slab_accumulate(struct slabdelta *d, const struct slabinfo *a,
		     const struct slabinfo *b)
{
	int i, j;

	for (i = 0; i < b->n; i++) {
		const struct cache *c = &b->c[i];
		const struct cache *old = find_cache(a, c->name);
		long dobj = c->active_objs - (old ? old->active_objs : 0);
		long dslab = c->slabs - (old ? old->slabs : 0);

		if (!dobj && !dslab)
			continue;
		for (j = 0; j < d->n; j++)
			if (!strcmp(d->c[j].name, c->name))
				break;
		if (j == d->n) {
			if (d->n == MAX_CACHES)
				continue;
			d->c[d->n] = *c;
			d->c[d->n].active_objs = d->c[d->n].slabs = 0;
			d->n++;
		}
		d->c[j].active_objs += dobj;
		d->c[j].slabs += dslab;
	}
}

/*
 * Every cache that changed by at least a twentieth of the files: the
 * report decides which of them hold inodes; the rest (dentries, LSM
 * blobs) are shown as what every file costs besides its inode.
 */
void print_slab_delta(const char *tag, const struct slabdelta *d, long n)
{
	long threshold = n / 20 > 10 ? n / 20 : 10;
	int i;

	for (i = 0; i < d->n; i++) {
		const struct cache *c = &d->c[i];

		if (labs(c->active_objs) < threshold)
			continue;
		printf("IPAT-BENCH slab %s cache=%s d_objs=%ld d_slabs=%ld objsize=%ld objperslab=%ld pagesperslab=%ld\n",
		       tag, c->name, c->active_objs, c->slabs, c->objsize,
		       c->objperslab, c->pagesperslab);
	}
}

void read_stats(struct stats *st, const char *fs)
{
	char path[256], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/fs/inode_patterns/%s", fs);
	st->present = 0;
	st->n = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	st->present = 1;
	while (fgets(line, sizeof(line), f) && st->n < NSTATS) {
		char *colon = strchr(line, ':');
		char *end;
		long v;

		if (!colon || colon - line >= 40)
			continue;
		v = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || (*end != '\n' && *end))
			continue;	/* not a number: fs_type, pattern... */
		memcpy(st->key[st->n], line, colon - line);
		st->key[st->n][colon - line] = '\0';
		st->val[st->n++] = v;
	}
	fclose(f);
}

/* Sizes as they are; counters as the change over the create phase. */
void print_stats_diff(const char *tag, const struct stats *a,
		      const struct stats *b)
{
	int i;

	if (!a->present || !b->present)
		return;
	printf("IPAT-BENCH stats %s", tag);
	for (i = 0; i < b->n && i < a->n; i++) {
		if (strstr(b->key[i], "_size"))
			printf(" %s=%ld", b->key[i], b->val[i]);
		else
			printf(" d_%s=%ld", b->key[i], b->val[i] - a->val[i]);
	}
	printf("\n");
}
