/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rtable_test.c -- unit tests of the revoke table (lib/rtable.c).
 *
 * The table is checked from outside (values found, counts, bytes) and, where
 * a property is about its layout (slot count, load, probing), from
 * its fields: rtable.h documents them and the tests hold it to that.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "jbd2_fs.h"
#include "rtable.h"

#define EMPTY_KEY	UINT64_MAX
#define SLOT_BYTES	12	/* 8 key + 4 value, as rtable.h documents */
#define FIRST_SLOTS	64	/* what a zero estimate starts with */
#define MAX_CLUSTER	256	/* generous bound on a run of full slots */

/* xorshift64: a test-side generator, unrelated to the table's mixer. */
static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed ? seed : 0x9E3779B97F4A7C15ULL;
}

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static size_t slots(const struct rtable *t)
{
	return t->slots;
}

/* The value of key, which must be present. */
static uint32_t value_of(const struct rtable *t, uint64_t key)
{
	uint32_t *v = rtable_find(t, key);

	assert_non_null(v);
	return *v;
}

static void revoke(struct rtable *t, uint64_t key, uint32_t tid)
{
	assert_int_equal(rtable_revoke(t, key, tid), 0);
}

/*
 * rtable_find_batch() on q[0 .. n-1] answers as rtable_find() on each: the
 * keys found, in rising order, each with rtable_find()'s slot, and no other.
 * Run on the whole array and on pieces that start and end off the batch
 * boundaries (64 keys).
 */
static void check_batch_one(const struct rtable *t, const uint64_t *q,
			    size_t n)
{
	size_t *hit = malloc((n ? n : 1) * sizeof(*hit));
	uint32_t **slot = malloc((n ? n : 1) * sizeof(*slot));
	size_t i, k = 0, h;

	assert_non_null(hit);
	assert_non_null(slot);
	h = rtable_find_batch(t, q, n, hit, slot);
	assert_true(h <= n);
	for (i = 0; i < n; i++) {
		uint32_t *v = rtable_find(t, q[i]);

		if (!v) {
			assert_true(k == h || hit[k] != i);
			continue;
		}
		assert_true(k < h);
		assert_int_equal(hit[k], i);
		assert_ptr_equal(slot[k], v);
		k++;
	}
	assert_int_equal(k, h);
	free(hit);
	free(slot);
}

static void check_batch(const struct rtable *t, const uint64_t *q, size_t n)
{
	static const size_t cut[] = { 0, 1, 63, 64, 65, 130 };
	size_t c;

	check_batch_one(t, q, n);
	for (c = 0; c < sizeof(cut) / sizeof(cut[0]); c++)
		if (cut[c] < n) {
			check_batch_one(t, q + cut[c], n - cut[c] > 200 ?
					200 : n - cut[c]);
			check_batch_one(t, q, cut[c]);
		}
}

/*
 * Everything the layout promises: at least FIRST_SLOTS slots, load at most
 * 3/4, every stored key found at its own slot (which also rules out a key
 * stored twice), the count equal to the keys held, 12 bytes a slot; lo
 * and hi the smallest and largest key; rtable_find_batch() answering as
 * rtable_find() for every key, neighbours, the range's edges, 0 and
 * UINT64_MAX.
 */
static void check_layout(const struct rtable *t)
{
	size_t i, used = 0, nq = 0;
	uint64_t lo = 0, hi = 0, *q;

	if (!t->keys) {
		static const uint64_t none[] = { 0, EMPTY_KEY, 1, EMPTY_KEY };

		assert_int_equal(rtable_count(t), t->has_special ? 1 : 0);
		assert_int_equal(rtable_bytes(t), 0);
		check_batch(t, none, 4);
		return;
	}
	assert_true(slots(t) >= FIRST_SLOTS);
	q = malloc((slots(t) * 2 + 4) * sizeof(*q));
	assert_non_null(q);
	for (i = 0; i < slots(t); i++) {
		uint64_t key = t->keys[i];

		if (key == EMPTY_KEY)
			continue;
		if (!used || key < lo)
			lo = key;
		if (!used || key > hi)
			hi = key;
		/* Each key, and a neighbour that may be absent. */
		q[nq++] = key;
		q[nq++] = key ^ 1;
		used++;
		assert_ptr_equal(rtable_find(t, key), &t->vals[i]);
	}
	assert_int_equal(used + (t->has_special ? 1 : 0), rtable_count(t));
	/* The range rtable_find_batch() answers from, and its edges. */
	if (used) {
		assert_int_equal(t->lo, lo);
		assert_int_equal(t->hi, hi);
		q[nq++] = lo - 1;
		q[nq++] = hi + 1;
	}
	q[nq++] = EMPTY_KEY;
	q[nq++] = 0;
	check_batch(t, q, nq);
	free(q);
	assert_true(rtable_count(t) * 4 <= slots(t) * 3);
	/* 12 bytes a slot, and the filter's word per 8 slots. */
	assert_int_equal(rtable_bytes(t), slots(t) * SLOT_BYTES +
			 (t->filter ? (slots(t) + 7) / 8 * 8 : 0));
}

/*
 * The longest run of occupied slots.  Linear probing stays fast only while
 * runs stay short, which is what the mixer in front is for: block numbers
 * that share their low bits, or arrive in runs, must not pile up.
 */
static size_t longest_cluster(const struct rtable *t)
{
	size_t i, run = 0, best = 0, first = 0;

	for (i = 0; i < slots(t); i++) {
		if (t->keys[i] == EMPTY_KEY) {
			run = 0;
			continue;
		}
		if (++run > best)
			best = run;
		if (run == i + 1)
			first = run;	/* wraps on from the last slot */
	}
	return run + first > best ? run + first : best;
}

/* Where key lands in an empty table of FIRST_SLOTS slots: its home slot. */
static size_t home_slot(uint64_t key)
{
	struct rtable t;
	uint32_t *slot;
	int added;
	size_t home;

	assert_int_equal(rtable_init(&t, 0), 0);
	assert_int_equal(slots(&t), FIRST_SLOTS);
	assert_int_equal(rtable_add(&t, key, 0, &slot, &added), 0);
	assert_true(added);
	home = (size_t)(slot - t.vals);
	rtable_free(&t);
	return home;
}

/* ---- basics ------------------------------------------------------------ */

static void test_init_empty(void **state)
{
	struct rtable t;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	assert_int_equal(slots(&t), FIRST_SLOTS);
	assert_int_equal(rtable_count(&t), 0);
	assert_int_equal(rtable_bytes(&t), FIRST_SLOTS * SLOT_BYTES);
	assert_null(rtable_find(&t, 0));
	assert_null(rtable_find(&t, 1));
	assert_null(rtable_find(&t, 123456789));
	assert_null(rtable_find(&t, EMPTY_KEY));
	check_layout(&t);
	rtable_free(&t);
}

static void test_insert_find(void **state)
{
	static const uint64_t keys[] = { 1, 2, 3, 1000, 0x100000000ULL,
					 0xFFFFFFFFULL, 0x123456789ABCDEFULL,
					 EMPTY_KEY - 1 };
	struct rtable t;
	uint32_t *slot;
	int added;
	size_t i;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		added = -1;
		slot = NULL;
		assert_int_equal(rtable_add(&t, keys[i], 100 + (uint32_t)i,
					    &slot, &added), 0);
		assert_int_equal(added, 1);
		assert_non_null(slot);
		assert_int_equal(*slot, 100 + i);
		assert_int_equal(rtable_count(&t), i + 1);
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(value_of(&t, keys[i]), 100 + i);
	check_layout(&t);
	rtable_free(&t);
}

/* rtable_add on a present key: not added, old value kept, slot writable. */
static void test_add_existing(void **state)
{
	struct rtable t;
	uint32_t *slot, *slot2;
	int added;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	assert_int_equal(rtable_add(&t, 77, 5, &slot, &added), 0);
	assert_int_equal(added, 1);
	assert_int_equal(rtable_add(&t, 77, 9, &slot2, &added), 0);
	assert_int_equal(added, 0);
	assert_ptr_equal(slot, slot2);
	assert_int_equal(*slot2, 5);
	*slot2 = 42;
	assert_int_equal(value_of(&t, 77), 42);
	assert_int_equal(rtable_count(&t), 1);
	rtable_free(&t);
}

static void test_revoke_later_wins(void **state)
{
	struct rtable t;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	revoke(&t, 500, 10);
	assert_int_equal(value_of(&t, 500), 10);
	revoke(&t, 500, 20);
	assert_int_equal(value_of(&t, 500), 20);
	revoke(&t, 500, 15);		/* earlier: must not replace */
	assert_int_equal(value_of(&t, 500), 20);
	revoke(&t, 500, 20);
	assert_int_equal(value_of(&t, 500), 20);
	revoke(&t, 500, 0);
	assert_int_equal(value_of(&t, 500), 20);
	revoke(&t, 500, 21);
	assert_int_equal(value_of(&t, 500), 21);
	/* Another key is independent. */
	revoke(&t, 501, 3);
	assert_int_equal(value_of(&t, 501), 3);
	assert_int_equal(value_of(&t, 500), 21);
	assert_int_equal(rtable_count(&t), 2);
	rtable_free(&t);
}

/* Later by the signed 32-bit difference, not by a plain max. */
static void test_tid_wrap(void **state)
{
	static const uint64_t keys[] = { 0, 9, 0x1234567890ULL, EMPTY_KEY };
	struct rtable t;
	size_t i;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		revoke(&t, keys[i], 0xFFFFFFF0U);
		revoke(&t, keys[i], 5);
		assert_int_equal(value_of(&t, keys[i]), 5);
		revoke(&t, keys[i], 0xFFFFFFF0U);
		assert_int_equal(value_of(&t, keys[i]), 5);
	}
	rtable_free(&t);

	assert_int_equal(rtable_init(&t, 0), 0);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		revoke(&t, keys[i], 5);
		revoke(&t, keys[i], 0xFFFFFFF0U);
		assert_int_equal(value_of(&t, keys[i]), 5);
		revoke(&t, keys[i], 0xFFFFFFFFU);
		assert_int_equal(value_of(&t, keys[i]), 5);
		revoke(&t, keys[i], 6);
		assert_int_equal(value_of(&t, keys[i]), 6);
		/* 0x80000005 is 2^31 - 1 after 6: later. */
		revoke(&t, keys[i], 0x80000005U);
		assert_int_equal(value_of(&t, keys[i]), 0x80000005U);
		revoke(&t, keys[i], 6);
		assert_int_equal(value_of(&t, keys[i]), 0x80000005U);
	}
	assert_int_equal(rtable_count(&t), 4);
	rtable_free(&t);
}

static void test_absent_keys(void **state)
{
	struct rtable t;
	uint64_t k;

	(void)state;
	/* A zeroed table (never initialised, or freed) finds nothing. */
	memset(&t, 0, sizeof(t));
	assert_null(rtable_find(&t, 0));
	assert_null(rtable_find(&t, 5));
	assert_null(rtable_find(&t, EMPTY_KEY));
	assert_int_equal(rtable_count(&t), 0);
	assert_int_equal(rtable_bytes(&t), 0);

	assert_int_equal(rtable_init(&t, 0), 0);
	for (k = 0; k < 2000; k += 2)
		revoke(&t, k, (uint32_t)k);
	for (k = 1; k < 2000; k += 2)
		assert_null(rtable_find(&t, k));
	for (k = 2000; k < 4000; k++)
		assert_null(rtable_find(&t, k));
	assert_null(rtable_find(&t, EMPTY_KEY));
	assert_null(rtable_find(&t, EMPTY_KEY - 1));
	for (k = 0; k < 2000; k += 2)
		assert_int_equal(value_of(&t, k), k);
	check_layout(&t);

	rtable_free(&t);
	assert_null(t.keys);
	assert_null(rtable_find(&t, 0));
	assert_null(rtable_find(&t, 2));
	assert_int_equal(rtable_count(&t), 0);
	assert_int_equal(rtable_bytes(&t), 0);
}

/* ---- growth and presizing ------------------------------------------------- */

/*
 * From a zero estimate, through many doublings: each growth exactly doubles,
 * happens only when the table is at 3/4 and a new key arrives, and loses
 * nothing.
 */
static void test_growth_from_zero(void **state)
{
	const size_t n = 300000;
	struct rtable t;
	size_t i, before, doublings = 0;
	uint64_t key;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	for (i = 0; i < n; i++) {
		before = slots(&t);
		key = i * 7919 + 3;
		revoke(&t, key, (uint32_t)(i ^ 0x5A5A5A5A));
		if (slots(&t) != before) {
			doublings++;
			assert_int_equal(slots(&t), before * 2);
			/* Full at 3/4 before this key, not earlier. */
			assert_int_equal(i, before - before / 4);
		}
		assert_int_equal(rtable_count(&t), i + 1);
		assert_true(rtable_count(&t) * 4 <= slots(&t) * 3);
		assert_int_equal(rtable_bytes(&t), slots(&t) * SLOT_BYTES);
		/* Revoking a present key never grows the table. */
		if (i % 1000 == 0) {
			before = slots(&t);
			revoke(&t, key, (uint32_t)(i ^ 0x5A5A5A5A) - 1);
			assert_int_equal(slots(&t), before);
			assert_int_equal(rtable_count(&t), i + 1);
			assert_int_equal(value_of(&t, key),
					 (uint32_t)(i ^ 0x5A5A5A5A));
		}
	}
	/* 64 -> 524288 slots: 300000 keys need 3/4 of 2^19 = 393216. */
	assert_int_equal(slots(&t), 524288);
	assert_int_equal(doublings, 13);
	for (i = 0; i < n; i++)
		assert_int_equal(value_of(&t, i * 7919 + 3),
				 (uint32_t)(i ^ 0x5A5A5A5A));
	assert_null(rtable_find(&t, 1));
	assert_null(rtable_find(&t, n * 7919 + 3));
	check_layout(&t);
	rtable_free(&t);
}

/* rtable_add lazily sizes a zeroed table (what a calloc'd handle holds). */
static void test_lazy_init(void **state)
{
	struct rtable t;
	uint64_t k;

	(void)state;
	memset(&t, 0, sizeof(t));
	revoke(&t, 42, 7);
	assert_non_null(t.keys);
	assert_int_equal(slots(&t), FIRST_SLOTS);
	assert_int_equal(value_of(&t, 42), 7);
	assert_int_equal(rtable_count(&t), 1);
	for (k = 100; k < 1100; k++)
		revoke(&t, k, (uint32_t)k);
	assert_int_equal(rtable_count(&t), 1001);
	assert_int_equal(value_of(&t, 42), 7);
	check_layout(&t);
	rtable_free(&t);

	/* A freed table can be used again the same way. */
	revoke(&t, 3, 4);
	assert_int_equal(value_of(&t, 3), 4);
	assert_int_equal(rtable_count(&t), 1);
	rtable_free(&t);
}

/*
 * The key UINT64_MAX lives outside the slots; it must survive the lazy
 * sizing of a zeroed table by a later key, like any other key does.
 */
static void test_lazy_init_keeps_special(void **state)
{
	struct rtable t;

	(void)state;
	memset(&t, 0, sizeof(t));
	revoke(&t, EMPTY_KEY, 11);
	assert_int_equal(value_of(&t, EMPTY_KEY), 11);
	assert_int_equal(rtable_count(&t), 1);
	revoke(&t, 1, 12);		/* first slotted key: sizes the table */
	assert_int_equal(value_of(&t, 1), 12);
	assert_non_null(rtable_find(&t, EMPTY_KEY));
	assert_int_equal(value_of(&t, EMPTY_KEY), 11);
	assert_int_equal(rtable_count(&t), 2);
	rtable_free(&t);
}

static void test_presize(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 47, 48, 49, 95, 96, 97,
					1000, 12345, 49152, 100000, 393216 };
	struct rtable t;
	size_t i, k, n, nslots;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		n = sizes[i];
		assert_int_equal(rtable_init(&t, n), 0);
		nslots = t.slots;
		rng_seed(n + 1);
		/* Big enough at load <= 3/4 ... */
		assert_true(n * 4 <= slots(&t) * 3);
		/* ... and no bigger than that needs: 16 bytes a record. */
		if (slots(&t) > FIRST_SLOTS)
			assert_true((slots(&t) - 1) - (slots(&t) - 1) / 4 <= n);
		for (k = 0; k < n; k++) {
			/* A run, then scattered keys: both kinds of input. */
			uint64_t key = k < n / 2 ? 1000000 + k : rng() >> 1;

			revoke(&t, key, (uint32_t)k);
			assert_int_equal(t.slots, nslots);
		}
		assert_true(rtable_count(&t) <= n);
		assert_true(rtable_count(&t) >= n / 2);
		check_layout(&t);
		rtable_free(&t);
	}
}

static void test_init_enomem(void **state)
{
	struct rtable t;

	(void)state;
	assert_int_equal(rtable_init(&t, SIZE_MAX), ENOMEM);
	assert_null(t.keys);
	assert_int_equal(rtable_count(&t), 0);
	assert_int_equal(rtable_bytes(&t), 0);
	rtable_free(&t);
}

/* ---- collisions ----------------------------------------------------------- */

/*
 * Keys that share a home slot form one probe chain; a chain that starts at
 * the last slot wraps to slot 0.  Home slots are found by asking an empty
 * table, so the test does not copy the table's mixer.
 */
static void test_probe_chain_wraps(void **state)
{
	uint64_t at_end[6], at_zero[3], k;
	size_t ne = 0, nz = 0, i;
	struct rtable t;

	(void)state;
	for (k = 1; ne < 6 || nz < 3; k++) {
		size_t h = home_slot(k);

		if (h == FIRST_SLOTS - 1 && ne < 6)
			at_end[ne++] = k;
		else if (h == 0 && nz < 3)
			at_zero[nz++] = k;
		assert_true(k < 100000);
	}
	assert_int_equal(rtable_init(&t, 0), 0);
	/* at_end[0..4] fill slots 63, 0, 1, 2, 3; at_zero go after them. */
	for (i = 0; i < 5; i++)
		revoke(&t, at_end[i], 1000 + (uint32_t)i);
	for (i = 0; i < nz; i++)
		revoke(&t, at_zero[i], 2000 + (uint32_t)i);
	assert_int_equal(slots(&t), FIRST_SLOTS);
	assert_int_equal(t.keys[FIRST_SLOTS - 1], at_end[0]);
	assert_int_equal(t.keys[0], at_end[1]);
	assert_int_equal(t.keys[3], at_end[4]);
	assert_int_equal(t.keys[4], at_zero[0]);
	assert_int_equal(t.keys[6], at_zero[2]);
	for (i = 0; i < 5; i++)
		assert_int_equal(value_of(&t, at_end[i]), 1000 + i);
	for (i = 0; i < nz; i++)
		assert_int_equal(value_of(&t, at_zero[i]), 2000 + i);
	/* An absent key of the same home walks the whole chain. */
	assert_null(rtable_find(&t, at_end[5]));
	/* Updates through a long chain reach the right slot. */
	revoke(&t, at_end[4], 5000);
	assert_int_equal(value_of(&t, at_end[4]), 5000);
	assert_int_equal(value_of(&t, at_end[3]), 1003);
	check_layout(&t);

	/* Growth splits the chain; nothing gets lost. */
	for (k = 1; rtable_count(&t) < 200; k++)
		revoke(&t, k << 40, (uint32_t)k);
	assert_true(slots(&t) > FIRST_SLOTS);
	for (i = 0; i < 5; i++)
		assert_int_equal(value_of(&t, at_end[i]),
				 i == 4 ? 5000 : 1000 + i);
	for (i = 0; i < nz; i++)
		assert_int_equal(value_of(&t, at_zero[i]), 2000 + i);
	assert_null(rtable_find(&t, at_end[5]));
	check_layout(&t);
	rtable_free(&t);
}

/* Keys equal in their low bits (only high bits differ). */
static void test_low_bit_collisions(void **state)
{
	static const unsigned int shifts[] = { 6, 12, 20, 32, 40, 48 };
	struct rtable t;
	size_t s, i;

	(void)state;
	for (s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
		unsigned int sh = shifts[s];
		const size_t m = 4000;	/* m << 48 still fits in 64 bits */

		assert_int_equal(rtable_init(&t, 0), 0);
		for (i = 1; i <= m; i++)
			revoke(&t, ((uint64_t)i << sh) | 0x2A, (uint32_t)i);
		assert_int_equal(rtable_count(&t), m);
		for (i = 1; i <= m; i++)
			assert_int_equal(value_of(&t,
						  ((uint64_t)i << sh) | 0x2A), i);
		/* Same low bits, absent high part; and the bare low bits. */
		assert_null(rtable_find(&t, ((uint64_t)(m + 1) << sh) | 0x2A));
		assert_null(rtable_find(&t, 0x2A));
		assert_null(rtable_find(&t, ((uint64_t)1 << sh)));
		/* About 20-35 here; all in one run without mixing. */
		assert_true(longest_cluster(&t) < MAX_CLUSTER);
		check_layout(&t);
		rtable_free(&t);
	}
}

/* Runs of consecutive block numbers, the way journals log them. */
static void test_sequential_runs(void **state)
{
	/* The fourth run crosses 2^32. */
	static const uint64_t bases[] = { 0, 1, 32768, 0xFFFFFFFFULL - 3000,
					  0x200000000ULL, 0x7FFFFFFFFFFF0000ULL,
					  EMPTY_KEY - 6001 };
	const uint64_t len = 6000;
	struct rtable t;
	size_t b;
	uint64_t k;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++)
		for (k = 0; k < len; k++)
			revoke(&t, bases[b] + k, (uint32_t)(b * len + k));
	/* Overlapping runs: 0 and 1 share len-1 keys. */
	assert_int_equal(rtable_count(&t),
			 len * (sizeof(bases) / sizeof(bases[0])) - (len - 1));
	for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
		for (k = 0; k < len; k++) {
			uint64_t key = bases[b] + k;
			uint32_t want = (uint32_t)(b * len + k);

			/* Run 1 revisits run 0's keys later: its tids win. */
			if (b == 0 && k >= 1)
				want = (uint32_t)(len + k - 1);
			assert_int_equal(value_of(&t, key), want);
		}
		assert_null(rtable_find(&t, bases[b] + len + (b == 0)));
	}
	assert_null(rtable_find(&t, 0xFFFFFFFFULL - 3001));
	/* The last run ends just before UINT64_MAX - 1. */
	assert_null(rtable_find(&t, EMPTY_KEY - 1));
	assert_null(rtable_find(&t, EMPTY_KEY));
	/* About 50 here; whole runs of 6000 without mixing. */
	assert_true(longest_cluster(&t) < MAX_CLUSTER);
	check_layout(&t);
	rtable_free(&t);
}

/* ---- a large random set against a sorted reference ------------------------ */

struct ref {
	uint64_t	key;
	uint32_t	tid;
	uint32_t	order;		/* insertion order */
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int key_cmp(const void *a, const void *b)
{
	const uint64_t *k = a;
	const struct ref *r = b;

	return *k < r->key ? -1 : *k > r->key;
}

static void test_random_vs_reference(void **state)
{
	const size_t n = 250000;
	struct ref *ref, *uniq;
	struct rtable t;
	size_t i, nu;

	(void)state;
	ref = malloc(n * sizeof(*ref));
	uniq = malloc(n * sizeof(*uniq));
	assert_non_null(ref);
	assert_non_null(uniq);
	rng_seed(0xC03B3998);
	assert_int_equal(rtable_init(&t, 0), 0);
	for (i = 0; i < n; i++) {
		uint64_t r = rng();

		/*
		 * A third of the keys come from a small range, so many repeat;
		 * tids sit in a window across the 2^32 wrap.
		 */
		ref[i].key = (i % 3 == 0) ? r % 20000 : r;
		if (ref[i].key == EMPTY_KEY)
			ref[i].key--;
		ref[i].tid = 0xFFFFF000U + (uint32_t)(rng() % 0x2000);
		ref[i].order = (uint32_t)i;
		revoke(&t, ref[i].key, ref[i].tid);
	}

	/* The reference: sort by key, fold each key's tids in order. */
	qsort(ref, n, sizeof(*ref), ref_cmp);
	nu = 0;
	for (i = 0; i < n; i++) {
		if (nu && uniq[nu - 1].key == ref[i].key) {
			if (tid_gt(ref[i].tid, uniq[nu - 1].tid))
				uniq[nu - 1].tid = ref[i].tid;
			continue;
		}
		uniq[nu++] = ref[i];
	}
	assert_true(nu < n);		/* there were repeats */
	assert_true(nu > n / 2);
	assert_int_equal(rtable_count(&t), nu);
	for (i = 0; i < nu; i++)
		assert_int_equal(value_of(&t, uniq[i].key), uniq[i].tid);

	/* Keys not in the reference are not in the table. */
	for (i = 0; i < 100000; i++) {
		uint64_t k = (i & 1) ? rng() : 20000 + i;

		if (k == EMPTY_KEY ||
		    bsearch(&k, uniq, nu, sizeof(*uniq), key_cmp))
			continue;
		assert_null(rtable_find(&t, k));
	}
	for (i = 0; i < 20000; i++)
		assert_int_equal(rtable_find(&t, i) != NULL,
				 bsearch(&(uint64_t){ i }, uniq, nu,
					 sizeof(*uniq), key_cmp) != NULL);
	check_layout(&t);
	rtable_free(&t);
	free(uniq);
	free(ref);
}

/* ---- special keys -------------------------------------------------------- */

static void test_special_key(void **state)
{
	struct rtable t;
	uint32_t *slot, *slot2;
	size_t before, k;
	int added;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	assert_null(rtable_find(&t, EMPTY_KEY));
	before = rtable_bytes(&t);
	assert_int_equal(rtable_add(&t, EMPTY_KEY, 30, &slot, &added), 0);
	assert_int_equal(added, 1);
	assert_int_equal(*slot, 30);
	assert_int_equal(rtable_count(&t), 1);
	assert_int_equal(rtable_bytes(&t), before);	/* not in the slots */
	assert_int_equal(value_of(&t, EMPTY_KEY), 30);
	assert_int_equal(rtable_add(&t, EMPTY_KEY, 31, &slot2, &added), 0);
	assert_int_equal(added, 0);
	assert_ptr_equal(slot, slot2);
	assert_int_equal(*slot2, 30);
	/* It is not mistaken for an empty slot, nor the other way round. */
	for (k = 0; k < FIRST_SLOTS; k++)
		assert_null(rtable_find(&t, k));
	revoke(&t, EMPTY_KEY, 40);
	assert_int_equal(value_of(&t, EMPTY_KEY), 40);
	revoke(&t, EMPTY_KEY, 35);
	assert_int_equal(value_of(&t, EMPTY_KEY), 40);
	revoke(&t, EMPTY_KEY - 1, 1);
	assert_int_equal(value_of(&t, EMPTY_KEY - 1), 1);
	assert_int_equal(value_of(&t, EMPTY_KEY), 40);
	assert_int_equal(rtable_count(&t), 2);
	/* It survives growth and counts toward the load. */
	for (k = 0; k < 10000; k++)
		revoke(&t, k, (uint32_t)k);
	assert_int_equal(rtable_count(&t), 10002);
	assert_int_equal(value_of(&t, EMPTY_KEY), 40);
	assert_int_equal(value_of(&t, EMPTY_KEY - 1), 1);
	check_layout(&t);
	rtable_free(&t);
	assert_null(rtable_find(&t, EMPTY_KEY));
}

static void test_key_zero(void **state)
{
	struct rtable t;
	uint64_t k;

	(void)state;
	assert_int_equal(rtable_init(&t, 0), 0);
	assert_null(rtable_find(&t, 0));
	revoke(&t, 0, 0);
	assert_int_equal(value_of(&t, 0), 0);
	revoke(&t, 0, 8);
	assert_int_equal(value_of(&t, 0), 8);
	assert_null(rtable_find(&t, 1));
	revoke(&t, EMPTY_KEY, 9);
	assert_int_equal(value_of(&t, 0), 8);
	assert_int_equal(value_of(&t, EMPTY_KEY), 9);
	assert_int_equal(rtable_count(&t), 2);
	for (k = 1; k < 5000; k++)
		revoke(&t, k, 1);
	assert_int_equal(value_of(&t, 0), 8);
	assert_int_equal(rtable_count(&t), 5001);
	check_layout(&t);
	rtable_free(&t);
}

static void test_count_and_bytes(void **state)
{
	struct rtable t;
	uint64_t k;

	(void)state;
	assert_int_equal(rtable_init(&t, 1000), 0);
	/* 1000 keys at <= 3/4: 1334 slots (1334 - 1334 / 4 = 1001 keys fit,
	 * 1333 would hold 1000 only at load 1000/1333 > 3/4), 12 bytes each:
	 * 16 bytes a record. */
	assert_int_equal(slots(&t), 1334);
	assert_int_equal(rtable_bytes(&t), 1334 * 12);
	for (k = 0; k < 1000; k++) {
		revoke(&t, k * 3, 1);
		revoke(&t, k * 3, 2);	/* repeats do not count */
		assert_int_equal(rtable_count(&t), k + 1);
	}
	assert_int_equal(rtable_bytes(&t), 1334 * 12);
	/* The 1001st key still fits; the 1002nd doubles the slots. */
	revoke(&t, 1000 * 3, 1);
	assert_int_equal(rtable_count(&t), 1001);
	assert_int_equal(rtable_bytes(&t), 1334 * 12);
	revoke(&t, 1001 * 3, 1);
	assert_int_equal(rtable_count(&t), 1002);
	assert_int_equal(rtable_bytes(&t), 2668 * 12);
	check_layout(&t);
	rtable_free(&t);
	assert_int_equal(rtable_count(&t), 0);
	assert_int_equal(rtable_bytes(&t), 0);
}

/*
 * The "absent" filter: never hides a key (through growth, and when turned
 * on over a table holding keys), answers nearly all absent keys by itself,
 * and costs one byte a slot.
 */
static void test_filter(void **state)
{
	struct rtable t, late;
	const uint64_t n = 100000;
	uint64_t k, hits = 0;
	size_t before;

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(rtable_use_filter(&t), 0);
	assert_int_equal(rtable_init(&late, 0), 0);
	for (k = 0; k < n; k++) {
		revoke(&t, k * 7919, (uint32_t)k);
		revoke(&late, k * 7919, (uint32_t)k);
	}
	assert_non_null(t.filter);
	check_layout(&t);
	assert_int_equal(rtable_use_filter(&late), 0);
	check_layout(&late);
	for (k = 0; k < n; k++) {
		assert_int_equal(value_of(&t, k * 7919), (uint32_t)k);
		assert_int_equal(value_of(&late, k * 7919), (uint32_t)k);
	}
	/* Absent keys: no false answers, and the filter turns most away
	 * (the probe is reached only when their three bits happen to be
	 * set). */
	for (k = 0; k < n; k++) {
		uint64_t key = k * 7919 + 1;
		uint64_t h = rtable_mix(key);
		/* rtable.h: bits h mod 64, h / 64 mod 64 and h / 4096 mod 64
		 * of the word of the home slot's group of 8 (the home slot:
		 * the high part of hash * slots). */
		size_t i = (size_t)(((unsigned __int128)h * t.slots) >> 64);
		uint64_t m = (1ULL << (h & 63)) | (1ULL << ((h >> 6) & 63)) |
			     (1ULL << ((h >> 12) & 63));

		assert_null(rtable_find(&t, key));
		hits += (t.filter[i / 8] & m) == m;
	}
	/* 100000 keys in 262144 slots, load 3/8: about 0.4% get through
	 * (a bit a byte would let 4.6% through). */
	assert_int_equal(slots(&t), 262144);
	assert_true(hits * 100 < n);
	before = slots(&t);
	rtable_free(&t);
	rtable_free(&late);
	assert_true(before > 0);

	/* Presized to a slot count that is no multiple of 8: the last word
	 * serves the last 6 slots. */
	assert_int_equal(rtable_init(&t, 1000), 0);
	assert_int_equal(rtable_use_filter(&t), 0);
	assert_int_equal(slots(&t), 1334);
	for (k = 0; k < 1000; k++)
		revoke(&t, k * 104729, (uint32_t)k);
	for (k = 0; k < 1000; k++)
		assert_int_equal(value_of(&t, k * 104729), (uint32_t)k);
	check_layout(&t);
	rtable_free(&t);
}

/*
 * rtable_find_batch() against rtable_find() where the two could part:
 * empty and zeroed tables, the special key alone and among others, keys
 * repeated within a batch and across batches, probe chains that wrap past
 * the last slot, keys sharing their low bits, random keys with and without
 * the filter, and slots found by a batch being the ones updates go to.
 */
static void test_batch(void **state)
{
	uint64_t q[1000], at_end[6], k;
	struct rtable t, u;
	size_t i, ne = 0, h, hit[8];
	uint32_t *slot[8];
	int filter;

	(void)state;
	/* Nothing held: zeroed, zeroed with the filter, initialised. */
	memset(&t, 0, sizeof(t));
	for (i = 0; i < 1000; i++)
		q[i] = i % 3 ? rng() : (i % 2 ? EMPTY_KEY : i);
	assert_int_equal(rtable_find_batch(&t, q, 1000, NULL, NULL), 0);
	assert_int_equal(rtable_use_filter(&t), 0);
	assert_int_equal(rtable_find_batch(&t, q, 1000, NULL, NULL), 0);
	assert_int_equal(rtable_init(&t, 0), 0);
	assert_int_equal(rtable_find_batch(&t, q, 1000, NULL, NULL), 0);
	check_batch(&t, q, 1000);

	/* The special key alone, then among one other key, repeated. */
	revoke(&t, EMPTY_KEY, 7);
	check_batch(&t, q, 1000);
	q[0] = EMPTY_KEY;
	q[1] = 5;
	q[2] = EMPTY_KEY;
	q[3] = 4;
	q[4] = 6;
	h = rtable_find_batch(&t, q, 5, hit, slot);
	assert_int_equal(h, 2);
	assert_int_equal(hit[0], 0);
	assert_int_equal(hit[1], 2);
	assert_ptr_equal(slot[0], slot[1]);
	assert_int_equal(*slot[0], 7);
	revoke(&t, 5, 8);
	h = rtable_find_batch(&t, q, 5, hit, slot);
	assert_int_equal(h, 3);
	assert_int_equal(hit[1], 1);
	assert_int_equal(*slot[1], 8);
	check_layout(&t);
	rtable_free(&t);

	/* Probe chains wrapping past the last slot; an absent key of the
	 * same home walks the whole chain. */
	for (k = 1; ne < 6; k++)
		if (home_slot(k) == FIRST_SLOTS - 1)
			at_end[ne++] = k;
	assert_int_equal(rtable_init(&t, 0), 0);
	for (i = 0; i < 5; i++)
		revoke(&t, at_end[i], 100 + (uint32_t)i);
	for (i = 0; i < 1000; i++)
		q[i] = at_end[(i * 7) % 6];
	check_batch(&t, q, 1000);
	check_layout(&t);
	rtable_free(&t);

	for (filter = 0; filter < 2; filter++) {
		/* Keys sharing their low bits. */
		assert_int_equal(rtable_init(&t, 0), 0);
		if (filter)
			assert_int_equal(rtable_use_filter(&t), 0);
		for (i = 1; i <= 3000; i++)
			revoke(&t, ((uint64_t)i << 40) | 0x2A, (uint32_t)i);
		for (i = 0; i < 1000; i++)
			q[i] = ((uint64_t)(i % 4000) << 40) | (i & 1 ? 0x2A : 0);
		check_batch(&t, q, 1000);
		check_layout(&t);
		rtable_free(&t);

		/* Random keys and a dense range; queries mixing present,
		 * absent, repeated, 0, UINT64_MAX and the range's edges. */
		rng_seed(0x51ED270B + (uint64_t)filter);
		assert_int_equal(rtable_init(&t, filter ? 0 : 40000), 0);
		assert_int_equal(rtable_init(&u, 0), 0);
		if (filter) {
			assert_int_equal(rtable_use_filter(&t), 0);
			assert_int_equal(rtable_use_filter(&u), 0);
		}
		for (i = 0; i < 40000; i++) {
			k = i % 2 ? rng() >> (i % 40) : 1000000 + 3 * i;
			if (k == EMPTY_KEY)
				k = 0;
			revoke(&t, k, (uint32_t)i);
			revoke(&u, k, (uint32_t)i);
		}
		for (i = 0; i < 1000; i++) {
			switch (i % 8) {
			case 0: q[i] = rng(); break;
			case 1: q[i] = 1000000 + (rng() % 120000); break;
			case 2: q[i] = q[i / 2]; break;
			case 3: q[i] = EMPTY_KEY; break;
			case 4: q[i] = t.lo + (i % 3) - 1; break;
			case 5: q[i] = t.hi + (i % 3) - 1; break;
			case 6: q[i] = rng() >> (rng() % 64); break;
			default: q[i] = i; break;
			}
		}
		check_batch(&t, q, 1000);
		/* Raising through the batch's slots (revoke_commit()) and
		 * through rtable_find()'s gives the same values. */
		for (i = 0; i < 1000; i += 100) {
			size_t j, m, *hh = malloc(100 * sizeof(*hh));
			uint32_t **ss = malloc(100 * sizeof(*ss)), *v;

			assert_non_null(hh);
			assert_non_null(ss);
			m = rtable_find_batch(&t, q + i, 100, hh, ss);
			for (j = 0; j < m; j++)
				if (tid_gt(50000 + (uint32_t)i, *ss[j]))
					*ss[j] = 50000 + (uint32_t)i;
			for (j = 0; j < 100; j++) {
				v = rtable_find(&u, q[i + j]);
				if (v && tid_gt(50000 + (uint32_t)i, *v))
					*v = 50000 + (uint32_t)i;
			}
			free(hh);
			free(ss);
		}
		for (i = 0; i < t.slots; i++)
			if (t.keys[i] != EMPTY_KEY)
				assert_int_equal(value_of(&t, t.keys[i]),
						 value_of(&u, t.keys[i]));
		check_layout(&t);
		rtable_free(&t);
		rtable_free(&u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_empty),
		cmocka_unit_test(test_insert_find),
		cmocka_unit_test(test_add_existing),
		cmocka_unit_test(test_revoke_later_wins),
		cmocka_unit_test(test_tid_wrap),
		cmocka_unit_test(test_absent_keys),
		cmocka_unit_test(test_growth_from_zero),
		cmocka_unit_test(test_lazy_init),
		cmocka_unit_test(test_lazy_init_keeps_special),
		cmocka_unit_test(test_presize),
		cmocka_unit_test(test_init_enomem),
		cmocka_unit_test(test_probe_chain_wraps),
		cmocka_unit_test(test_low_bit_collisions),
		cmocka_unit_test(test_sequential_runs),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_special_key),
		cmocka_unit_test(test_key_zero),
		cmocka_unit_test(test_count_and_bytes),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
