/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rtable_bench -- the revoke table (lib/rtable.c) alone, against two
 * baselines written here:
 *
 *   chain1024  what e2fsprogs' (and the kernel's) recovery uses: 1024 fixed
 *              buckets of doubly linked records, one malloc per record, a
 *              record inserted at the head of its chain after walking the
 *              chain for an existing one.  Every operation walks about
 *              count / 1024 records, so filling it is quadratic.
 *   uthash     a uthash table (uthash-dev) of malloc'd records, growing as
 *              uthash does.
 *
 * Operations, on N distinct block numbers in runs of 64 consecutive blocks
 * (the shape of freed metadata), tids rising every 8192 records:
 *   insert   N insert-or-update-max of new keys
 *   update   N insert-or-update-max of present keys, in a scrambled order,
 *            half with a later tid, half with an earlier one
 *   hit      lookups of present keys, scrambled order
 *   miss     lookups of absent keys
 * Lookups run on a sample (LOOKUPS below, all N when smaller) spread over
 * the whole key set; chain1024 runs fewer of everything, as said in the
 * output.  rtable runs three times: presized from N (as the full-table
 * mode sizes it from the scan's count), presized with its one-byte-a-slot
 * filter for absent keys (as the default mode's table of logged blocks
 * uses it), and grown from empty.
 *
 * Memory: the growth of malloc's in-use bytes (mallinfo2(): arena in use
 * plus mmapped) across the inserts, divided by N, so malloc's per-chunk
 * overhead counts; rtable also reports its own slot bytes.
 *
 * Then the revoke lookups of the default strategy, old (a rtable_find() a
 * record) against new (rtable_find_batch()), in the same run: see
 * bench_lookups() below.
 *
 * usage: rtable_bench [-q] [-r] [-x LOG2] [-c LOG2]   markdown on stdout
 *   -q       quick: N = 2^16 .. 2^20
 *   -r       the revoke lookups only
 *   -x LOG2  largest N = 2^LOG2 (default 25)
 *   -c LOG2  largest N for chain1024 (default 21; above it is too slow)
 */
#include "config.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_UTHASH_H
#include <uthash.h>
#endif

#include "jbd2_fs.h"
#include "rtable.h"

#define TXN_RECORDS	8192u
#define RUN		64u
#define LOOKUPS		(1u << 22)	/* lookups measured (sample) */
#define CHAIN_OPS	(1u << 16)	/* update/lookups measured, chain1024 */
#define KEY_BITS	26		/* keys = run base * RUN + j, < 2^32 */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* This thread's CPU time: the time slices another process takes on a
 * shared machine do not count (its cache traffic still does). */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The 1-minute load average: the machine may be shared. */
static double loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = -1;

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static size_t heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* Key i of the stream: runs of RUN consecutive blocks; the run bases are a
 * bijection of the run index (odd multiplier modulo 2^KEY_BITS), so every
 * key is distinct.  miss = 1 gives keys from a disjoint range. */
static uint64_t key_of(uint64_t i, int miss)
{
	uint64_t run = i / RUN;
	uint64_t base = (run * 0x9E3779B1u) & ((1ull << KEY_BITS) - 1);

	return (miss ? 1ull << 40 : 0) + base * RUN + i % RUN;
}

/* The j-th of n indexes in a scrambled order (n a power of two: any odd
 * stride is a permutation). */
static uint64_t scramble(uint64_t j, uint64_t n)
{
	return (j * 0x5851F42D4C957F2Dull + 0x14057B7EF767814Full) & (n - 1);
}

static uint32_t tid_of(uint64_t i)
{
	return 1 + (uint32_t)(i / TXN_RECORDS);
}

/* The tid of the j-th update: later than the key's, or earlier. */
static uint32_t update_tid(uint64_t j, uint64_t idx)
{
	return j & 1 ? tid_of(idx) + 7 : tid_of(idx) - 1;
}

struct result {
	double insert, update, hit, miss;	/* ns per operation */
	uint64_t nupdate, nlookup;
	double bytes;				/* heap growth per record */
	double own_bytes;			/* rtable's slot bytes per record */
	int found_ok;
};

/* ---- chain1024 ------------------------------------------------------------ */

#define CHAIN_BUCKETS	1024

struct crec {
	struct crec *next, *prev;
	uint32_t tid;
	uint64_t blk;
};

struct chain {
	struct crec *head[CHAIN_BUCKETS];
};

static unsigned chain_hash(uint64_t blk)
{
	/* multiplicative (golden ratio) hash, top 10 bits */
	return (unsigned)((blk * 0x61C8864680B583EBull) >> (64 - 10));
}

static struct crec *chain_find(const struct chain *c, uint64_t blk)
{
	struct crec *r;

	for (r = c->head[chain_hash(blk)]; r; r = r->next)
		if (r->blk == blk)
			return r;
	return NULL;
}

static int chain_revoke(struct chain *c, uint64_t blk, uint32_t tid)
{
	struct crec *r = chain_find(c, blk);
	unsigned h;

	if (r) {
		if (tid_gt(tid, r->tid))
			r->tid = tid;
		return 0;
	}
	r = malloc(sizeof *r);
	if (!r)
		return -1;
	h = chain_hash(blk);
	r->blk = blk;
	r->tid = tid;
	r->prev = NULL;
	r->next = c->head[h];
	if (r->next)
		r->next->prev = r;
	c->head[h] = r;
	return 0;
}

static void chain_free(struct chain *c)
{
	unsigned h;

	for (h = 0; h < CHAIN_BUCKETS; h++) {
		while (c->head[h]) {
			struct crec *r = c->head[h];

			c->head[h] = r->next;
			free(r);
		}
	}
}

static int bench_chain(uint64_t n, struct result *res)
{
	struct chain *c = calloc(1, sizeof *c);
	uint64_t i, found = 0, ops = n < CHAIN_OPS ? n : CHAIN_OPS;
	size_t h0 = heap_bytes();
	double t;

	if (!c)
		return -1;
	t = now();
	for (i = 0; i < n; i++)
		if (chain_revoke(c, key_of(i, 0), tid_of(i)))
			return -1;
	res->insert = (now() - t) * 1e9 / n;
	res->bytes = (double)(heap_bytes() - h0) / n;
	res->own_bytes = 0;
	t = now();
	for (i = 0; i < ops; i++) {
		uint64_t idx = scramble(i, n);

		chain_revoke(c, key_of(idx, 0), update_tid(i, idx));
	}
	res->update = (now() - t) * 1e9 / ops;
	t = now();
	for (i = 0; i < ops; i++)
		found += chain_find(c, key_of(scramble(i, n), 0)) != NULL;
	res->hit = (now() - t) * 1e9 / ops;
	t = now();
	for (i = 0; i < ops; i++)
		found += chain_find(c, key_of(i, 1)) != NULL;
	res->miss = (now() - t) * 1e9 / ops;
	res->nupdate = res->nlookup = ops;
	res->found_ok = found == ops;
	chain_free(c);
	free(c);
	return 0;
}

#ifdef HAVE_UTHASH_H
/* ---- uthash -------------------------------------------------------------- */

struct urec {
	uint64_t blk;
	uint32_t tid;
	UT_hash_handle hh;
};

static int bench_uthash(uint64_t n, struct result *res)
{
	struct urec *head = NULL, *r, *tmp;
	uint64_t i, found = 0, ops = n < LOOKUPS ? n : LOOKUPS;
	size_t h0 = heap_bytes();
	double t;

	t = now();
	for (i = 0; i < n; i++) {
		uint64_t k = key_of(i, 0);
		uint32_t tid = tid_of(i);

		HASH_FIND(hh, head, &k, sizeof k, r);
		if (r) {
			if (tid_gt(tid, r->tid))
				r->tid = tid;
			continue;
		}
		r = malloc(sizeof *r);
		if (!r)
			return -1;
		r->blk = k;
		r->tid = tid;
		HASH_ADD(hh, head, blk, sizeof r->blk, r);
	}
	res->insert = (now() - t) * 1e9 / n;
	res->bytes = (double)(heap_bytes() - h0) / n;
	res->own_bytes = 0;
	t = now();
	for (i = 0; i < n; i++) {
		uint64_t idx = scramble(i, n), k = key_of(idx, 0);
		uint32_t tid = update_tid(i, idx);

		HASH_FIND(hh, head, &k, sizeof k, r);
		if (r && tid_gt(tid, r->tid))
			r->tid = tid;
	}
	res->update = (now() - t) * 1e9 / n;
	t = now();
	for (i = 0; i < ops; i++) {
		uint64_t k = key_of(scramble(i, n), 0);

		HASH_FIND(hh, head, &k, sizeof k, r);
		found += r != NULL;
	}
	res->hit = (now() - t) * 1e9 / ops;
	t = now();
	for (i = 0; i < ops; i++) {
		uint64_t k = key_of(i, 1);

		HASH_FIND(hh, head, &k, sizeof k, r);
		found += r != NULL;
	}
	res->miss = (now() - t) * 1e9 / ops;
	res->nupdate = n;
	res->nlookup = ops;
	res->found_ok = found == ops;
	HASH_ITER(hh, head, r, tmp) {
		HASH_DEL(head, r);
		free(r);
	}
	return 0;
}

#endif /* HAVE_UTHASH_H */

/* ---- rtable -------------------------------------------------------------- */

static int bench_rtable(uint64_t n, int presize, int filter,
			struct result *res)
{
	struct rtable t;
	uint64_t i, found = 0, ops = n < LOOKUPS ? n : LOOKUPS;
	size_t h0 = heap_bytes();
	double t0;

	if (rtable_init(&t, presize ? n : 0) || (filter && rtable_use_filter(&t)))
		return -1;
	t0 = now();
	for (i = 0; i < n; i++)
		if (rtable_revoke(&t, key_of(i, 0), tid_of(i)))
			return -1;
	res->insert = (now() - t0) * 1e9 / n;
	res->bytes = (double)(heap_bytes() - h0) / n;
	res->own_bytes = (double)rtable_bytes(&t) / n;
	t0 = now();
	for (i = 0; i < n; i++) {
		uint64_t idx = scramble(i, n);

		rtable_revoke(&t, key_of(idx, 0), update_tid(i, idx));
	}
	res->update = (now() - t0) * 1e9 / n;
	t0 = now();
	for (i = 0; i < ops; i++)
		found += rtable_find(&t, key_of(scramble(i, n), 0)) != NULL;
	res->hit = (now() - t0) * 1e9 / ops;
	t0 = now();
	for (i = 0; i < ops; i++)
		found += rtable_find(&t, key_of(i, 1)) != NULL;
	res->miss = (now() - t0) * 1e9 / ops;
	res->nupdate = n;
	res->nlookup = ops;
	res->found_ok = found == ops && rtable_count(&t) == n;
	rtable_free(&t);
	return 0;
}

/* ---- revoke lookups ------------------------------------------------------- */

/*
 * What the default revoke strategy asks the table (lib/revoke.c): a table
 * of the T * L logged blocks (with its filter), asked at each commit about
 * the transaction's records, 1% of them naming a block an earlier
 * transaction logged.  The logged blocks are LOG_FIRST .. + T * L (or every
 * other block from there, "inside"); the other records name blocks outside
 * that range ("outside", the journal bench/mkbench writes) or the blocks
 * between the logged ones ("inside": no range check can answer them).
 * "old" is revoke_commit()'s loop before the batches (rtable_find() a
 * record), "batch" rtable_find_batch() on 512 records at a time as
 * revoke_commit() calls it now; both on tables built alike, whose values
 * must end equal.  Only the lookups and the updates are timed (the
 * thread's CPU time, a transaction at a time, old and batch in turn), not
 * making the records.
 */
#define LOG_L		50u
#define LOG_FIRST	(1ull << 33)
#define LOOKUP_BATCH	512u

struct lookup_result {
	double old_ns, batch_ns;		/* per record */
	uint64_t keys, records, hits;
	double bytes;				/* table bytes per logged block */
	int same;
};

static uint64_t logged_key(uint64_t i, int inside)
{
	return LOG_FIRST + (inside ? 2 * i : i);
}

/* Record j of transaction t (t >= 0; tid t + 1). */
static uint64_t record_of(uint64_t t, uint64_t j, uint64_t nlogged,
			  int inside)
{
	uint64_t r = t * TXN_RECORDS + j;
	uint64_t x = rtable_mix(r + 1);

	if (t && j % 100 == 0)		/* 1%: a block logged before t */
		return logged_key(x % (t * LOG_L), inside);
	if (inside)
		return logged_key(x % nlogged, 1) + 1;
	/* Below and above the logged range, alternately. */
	return r & 1 ? LOG_FIRST - 1 - r / 2 : LOG_FIRST + nlogged + r / 2;
}

static int build_logged(struct rtable *t, uint64_t ntxn, int inside)
{
	uint64_t i;

	if (rtable_init(t, 0) || rtable_use_filter(t))
		return -1;
	for (i = 0; i < ntxn * LOG_L; i++) {
		uint32_t *slot;
		int added;

		if (rtable_add(t, logged_key(i, inside),
			       (uint32_t)(i / LOG_L + 1) - 1, &slot, &added))
			return -1;
	}
	return 0;
}

static int bench_lookups(uint64_t n, int inside, struct lookup_result *res)
{
	uint64_t ntxn = n / TXN_RECORDS ? n / TXN_RECORDS : 1, nlogged, t, i;
	uint64_t *rec = malloc(TXN_RECORDS * sizeof(*rec));
	struct rtable a, b;
	size_t hit[LOOKUP_BATCH];
	uint32_t *slot[LOOKUP_BATCH];
	double t0;

	nlogged = ntxn * LOG_L;
	if (!rec || build_logged(&a, ntxn, inside) ||
	    build_logged(&b, ntxn, inside))
		return -1;
	memset(res, 0, sizeof(*res));
	res->keys = nlogged;
	res->bytes = (double)rtable_bytes(&a) / nlogged;
	for (t = 0; t < ntxn; t++) {
		uint32_t tid = (uint32_t)t + 1;

		for (i = 0; i < TXN_RECORDS; i++)
			rec[i] = record_of(t, i, nlogged, inside);
		t0 = cpu_now();
		for (i = 0; i < TXN_RECORDS; i++) {
			uint32_t *v = rtable_find(&a, rec[i]);

			if (v && tid_gt(tid, *v))
				*v = tid;
		}
		res->old_ns += cpu_now() - t0;
		t0 = cpu_now();
		for (i = 0; i < TXN_RECORDS; i += LOOKUP_BATCH) {
			size_t m = TXN_RECORDS - i < LOOKUP_BATCH ?
				   TXN_RECORDS - i : LOOKUP_BATCH, h, k;

			h = rtable_find_batch(&b, rec + i, m, hit, slot);
			for (k = 0; k < h; k++)
				if (tid_gt(tid, *slot[k]))
					*slot[k] = tid;
			res->hits += h;
		}
		res->batch_ns += cpu_now() - t0;
	}
	res->records = ntxn * TXN_RECORDS;
	res->old_ns *= 1e9 / res->records;
	res->batch_ns *= 1e9 / res->records;
	/* The same keys in the same slots, each with the same value. */
	res->same = a.slots == b.slots &&
		    !memcmp(a.keys, b.keys, a.slots * sizeof(*a.keys));
	for (i = 0; i < nlogged && res->same; i++) {
		uint32_t *v = rtable_find(&a, logged_key(i, inside));

		res->same = v && *v == *rtable_find(&b, logged_key(i, inside));
	}
	rtable_free(&a);
	rtable_free(&b);
	free(rec);
	return 0;
}

static int lookup_rows(int lo, int hi)
{
	int k, inside, bad = 0;

	printf("\n## Revoke lookups (the default strategy's commits)\n\n"
	       "A table of the T * L logged blocks (L = %u, T = N / %u, "
	       "grown from empty as the scan grows it, with its filter), asked about the N "
	       "records of the T transactions at their commits, 1%% of them "
	       "naming a block logged by an earlier transaction; the other "
	       "records name blocks outside the logged range (\"outside\", "
	       "as in bench/mkbench's journals) or between the logged blocks "
	       "(\"inside\").  ns a record: \"old\" is one rtable_find() a "
	       "record, \"batch\" rtable_find_batch() on %u records at a "
	       "time, in the same run on tables built alike, a transaction "
	       "of one, then of the other; CPU time of the thread "
	       "(CLOCK_THREAD_CPUTIME_ID), so that another process's time "
	       "slices do not count.\n\n",
	       LOG_L, TXN_RECORDS, LOOKUP_BATCH);
	printf("| misses | N | logged blocks | table B/block | hits | old ns "
	       "| batch ns | old/batch | same values |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (k = lo; k <= hi; k++)
		for (inside = 0; inside < 2; inside++) {
			struct lookup_result r;

			if (bench_lookups(1ull << k, inside, &r))
				return 1;
			printf("| %s | 2^%d | %llu | %.1f | %llu | %.2f | %.2f "
			       "| %.1f | %s |\n", inside ? "inside" : "outside",
			       k, (unsigned long long)r.keys, r.bytes,
			       (unsigned long long)r.hits, r.old_ns,
			       r.batch_ns, r.old_ns / r.batch_ns,
			       r.same ? "yes" : "**NO**");
			fflush(stdout);
			bad |= !r.same;
		}
	return bad;
}

/* ---- report -------------------------------------------------------------- */

static void row(const char *name, uint64_t n, const struct result *r)
{
	printf("| %s | 2^%d | %.1f | %.1f | %.1f | %.1f | %.1f | ",
	       name, __builtin_ctzll(n), r->insert, r->update, r->hit, r->miss,
	       r->bytes);
	if (r->own_bytes)
		printf("%.1f |", r->own_bytes);
	else
		printf("- |");
	printf(" %s%s |\n", r->nlookup < n ? "sampled" : "all",
	       r->found_ok ? "" : " **LOOKUPS WRONG**");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int lo = 20, hi = 25, chain_max = 21, opt, k, bad = 0, only_lookups = 0;
	double load0 = loadavg();
	char host[256] = "?";
	FILE *f;

	while ((opt = getopt(argc, argv, "qrx:c:")) != -1) {
		switch (opt) {
		case 'q': lo = 16; hi = 20; break;
		case 'r': only_lookups = 1; break;
		case 'x': hi = atoi(optarg); break;
		case 'c': chain_max = atoi(optarg); break;
		default:
			fputs("usage: rtable_bench [-q] [-r] [-x LOG2] [-c LOG2]\n",
			      stderr);
			return 2;
		}
	}
	if (hi > 30 || hi < lo)
		hi = lo;
	f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[256];

		while (fgets(line, sizeof line, f))
			if (!strncmp(line, "model name", 10)) {
				char *p = strchr(line, ':');

				snprintf(host, sizeof host, "%s", p ? p + 2 : line);
				host[strcspn(host, "\n")] = 0;
				break;
			}
		fclose(f);
	}
	printf("# Revoke table micro-benchmark\n\n");
	printf("Made by `bench/rtable_bench` (%s, %ld CPUs online).\n\n", host,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("Keys: N distinct block numbers in runs of %u consecutive "
	       "blocks; tids rise every %u records.\n"
	       "ns per operation: insert = insert-or-update-max of a new key "
	       "(N of them); update = insert-or-update-max of a present key "
	       "(scrambled order, half later tids, half earlier); hit / miss = "
	       "lookup of a present / absent key.  Lookups: %u of them "
	       "(\"sampled\") or all N; chain1024 runs %u updates and lookups "
	       "and stops at N = 2^%d (filling it is quadratic).\n"
	       "B/rec = growth of malloc's bytes in use (mallinfo2) over the "
	       "inserts, per record, malloc overhead included; slot B/rec = "
	       "rtable's own arrays.\n\n",
	       RUN, TXN_RECORDS, LOOKUPS, CHAIN_OPS, chain_max);
	if (only_lookups)
		goto lookups;
	printf("| table | N | insert ns | update ns | hit ns | miss ns | "
	       "B/rec | slot B/rec | lookups |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (k = lo; k <= hi; k++) {
		uint64_t n = 1ull << k;
		struct result r;

		if (bench_rtable(n, 1, 0, &r))
			return 1;
		row("rtable (presized)", n, &r);
		bad |= !r.found_ok;
		if (bench_rtable(n, 1, 1, &r))
			return 1;
		row("rtable (presized, filter)", n, &r);
		bad |= !r.found_ok;
		if (bench_rtable(n, 0, 0, &r))
			return 1;
		row("rtable (grown)", n, &r);
		bad |= !r.found_ok;
#ifdef HAVE_UTHASH_H
		if (bench_uthash(n, &r))
			return 1;
		row("uthash", n, &r);
		bad |= !r.found_ok;
#endif
		if (k <= chain_max) {
			if (bench_chain(n, &r))
				return 1;
			row("chain1024", n, &r);
			bad |= !r.found_ok;
		}
	}
lookups:
	bad |= lookup_rows(lo, hi);
	printf("\nLoad average (1 min) at the start: %.2f, at the end: %.2f; "
	       "on a busy machine the times are upper bounds.\n",
	       load0, loadavg());
	return bad;
}
