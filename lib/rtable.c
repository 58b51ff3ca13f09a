/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rtable.c -- the revoke table (see rtable.h for its layout and costs).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "jbd2_fs.h"
#include "rtable.h"

#define EMPTY		UINT64_MAX
#define MIN_SLOTS	64

static errcode_t alloc_slots(struct rtable *t, size_t slots)
{
	uint64_t *keys;
	uint32_t *vals;
	uint64_t *filter = NULL;

	if (slots > SIZE_MAX / sizeof(uint64_t))
		return ENOMEM;
	keys = malloc(slots * sizeof(*keys));
	vals = malloc(slots * sizeof(*vals));
	if (t->use_filter)
		filter = calloc((slots + 7) / 8, sizeof(*filter));
	if (!keys || !vals || (t->use_filter && !filter)) {
		free(keys);
		free(vals);
		free(filter);
		return ENOMEM;
	}
	/* All-ones bytes make every key EMPTY. */
	memset(keys, 0xff, slots * sizeof(*keys));
	t->keys = keys;
	t->vals = vals;
	t->filter = filter;
	t->slots = slots;
	t->limit = slots - slots / 4;
	return 0;
}

/*
 * The home slot of a hash: its high bits scaled to [0, slots) by a
 * multiply.  Without a 128-bit type, the high 32 bits scaled (a table of
 * more than 2^32 slots, 48 GiB, then uses only 2^32 home slots).
 */
static inline size_t home(const struct rtable *t, uint64_t h)
{
#ifdef __SIZEOF_INT128__
	return (size_t)(((unsigned __int128)h * t->slots) >> 64);
#else
	return (size_t)(((h >> 32) * (uint64_t)t->slots) >> 32);
#endif
}

/* The filter bits of a hash: three of the 64 in the word of its home
 * slot's group of 8 slots, chosen by its low 18 bits, which home() does not
 * use (it takes the high bits). */
static inline uint64_t filter_mask(uint64_t h)
{
	return (1ULL << (h & 63)) | (1ULL << ((h >> 6) & 63)) |
	       (1ULL << ((h >> 12) & 63));
}

static inline void filter_set(struct rtable *t, size_t i, uint64_t h)
{
	t->filter[i / 8] |= filter_mask(h);
}

static inline int filter_has(const struct rtable *t, size_t i, uint64_t h)
{
	uint64_t m = filter_mask(h);

	return (t->filter[i / 8] & m) == m;
}

errcode_t rtable_use_filter(struct rtable *t)
{
	size_t i;

	if (t->use_filter)
		return 0;
	t->use_filter = 1;
	if (!t->keys)
		return 0;
	t->filter = calloc((t->slots + 7) / 8, sizeof(*t->filter));
	if (!t->filter) {
		t->use_filter = 0;
		return ENOMEM;
	}
	for (i = 0; i < t->slots; i++)
		if (t->keys[i] != EMPTY) {
			uint64_t h = rtable_mix(t->keys[i]);

			filter_set(t, home(t, h), h);
		}
	return 0;
}

errcode_t rtable_init(struct rtable *t, size_t expected)
{
	size_t slots;

	memset(t, 0, sizeof(*t));
	/* The fewest slots holding expected keys at load <= 3/4: limit
	 * (slots - slots / 4) must pass expected. */
	if (expected > (SIZE_MAX - 4) / 4 * 3)
		return ENOMEM;
	slots = expected + expected / 3 + 1;
	while (slots - slots / 4 <= expected)
		slots++;
	if (slots < MIN_SLOTS)
		slots = MIN_SLOTS;
	return alloc_slots(t, slots);
}

void rtable_free(struct rtable *t)
{
	free(t->keys);
	free(t->vals);
	free(t->filter);
	memset(t, 0, sizeof(*t));
}

/* From home slot i on: the slot holding key, or the empty slot ending its
 * run.  The load limit keeps an empty slot somewhere. */
static size_t probe(const struct rtable *t, uint64_t key, size_t i)
{
	while (t->keys[i] != key && t->keys[i] != EMPTY)
		if (++i == t->slots)
			i = 0;
	return i;
}

uint32_t *rtable_find(const struct rtable *t, uint64_t key)
{
	uint64_t h;
	size_t i;

	if (key == EMPTY)
		return t->has_special ? (uint32_t *)&t->special_val : NULL;
	if (!t->keys)
		return NULL;
	h = rtable_mix(key);
	i = home(t, h);
	if (t->filter && !filter_has(t, i, h))
		return NULL;
	i = probe(t, key, i);
	return t->keys[i] == key ? &t->vals[i] : NULL;
}

/*
 * rtable_find_batch() works on batches of up to BATCH keys in [lo, hi]
 * (however many keys outside it lie between them), three batches in
 * flight: in one round, batch b is hashed (its filter words, or key slots,
 * fetched), batch b - 1 goes through the filter (the key and value slots
 * of the keys it passes fetched), and batch b - 2 is probed.  A fetch thus
 * has a round of other work to arrive in, the more so where few keys are
 * in range.  The stage arrays, 3 * 24 bytes a key (about 4.5 KiB), stay in
 * L1.
 */
#define BATCH	64

struct batch {
	uint64_t	hash[BATCH];
	size_t		at[BATCH];	/* home slot; SIZE_MAX: special key */
	size_t		idx[BATCH];	/* index in keys */
	unsigned int	n;
};

/* From keys[*pos] on, up to BATCH keys in range: hash, home slot; fetch
 * what the filter reads.  UINT64_MAX is above any other key: never in
 * range. */
static void batch_hash(const struct rtable *t, const uint64_t *keys,
		       size_t *pos, size_t n, uint64_t lo, uint64_t hi,
		       struct batch *b)
{
	size_t j;
	unsigned int nc = 0;

	for (j = *pos; j < n && nc < BATCH; j++) {
		uint64_t key = keys[j], h;
		size_t i;

		if (key < lo || key > hi) {
			if (key == EMPTY && t->has_special) {
				b->at[nc] = SIZE_MAX;	/* found, no probe */
				b->idx[nc++] = j;
			}
			continue;
		}
		h = rtable_mix(key);
		i = home(t, h);
		if (t->filter)
			__builtin_prefetch(&t->filter[i / 8]);
		else
			__builtin_prefetch(&t->keys[i]);
		b->hash[nc] = h;
		b->at[nc] = i;
		b->idx[nc++] = j;
	}
	b->n = nc;
	*pos = j;
}

/* Drop the keys the filter turns away; fetch the key and value slots of
 * the rest (nearly all of them found, when the filter is there). */
static void batch_filter(const struct rtable *t, struct batch *b)
{
	unsigned int c, np = 0;

	if (!t->filter)
		return;
	for (c = 0; c < b->n; c++) {
		if (b->at[c] != SIZE_MAX) {
			if (!filter_has(t, b->at[c], b->hash[c]))
				continue;
			__builtin_prefetch(&t->keys[b->at[c]]);
			__builtin_prefetch(&t->vals[b->at[c]], 1);
		}
		b->at[np] = b->at[c];
		b->idx[np++] = b->idx[c];
	}
	b->n = np;
}

static size_t batch_probe(const struct rtable *t, const uint64_t *keys,
			  const struct batch *b, size_t *hit, uint32_t **slot)
{
	unsigned int c;
	size_t nhit = 0;

	for (c = 0; c < b->n; c++) {
		uint64_t key = keys[b->idx[c]];
		size_t i;

		if (b->at[c] == SIZE_MAX) {
			slot[nhit] = (uint32_t *)&t->special_val;
			hit[nhit++] = b->idx[c];
			continue;
		}
		i = probe(t, key, b->at[c]);
		if (t->keys[i] == key) {
			slot[nhit] = &t->vals[i];
			hit[nhit++] = b->idx[c];
		}
	}
	return nhit;
}

size_t rtable_find_batch(const struct rtable *t, const uint64_t *keys,
			 size_t n, size_t *hit, uint32_t **slot)
{
	struct batch b[3];
	uint64_t lo = 1, hi = 0;
	size_t nb = 0, r, pos = 0, nhit = 0;

	if (t->keys && t->count > (size_t)t->has_special) {
		lo = t->lo;
		hi = t->hi;
	}
	/* Batches 0 .. nb - 1 were hashed; r - 2 < nb always holds. */
	for (r = 0; pos < n || r < nb + 2; r++) {
		if (r >= 2)
			nhit += batch_probe(t, keys, &b[(r - 2) % 3],
					    hit + nhit, slot + nhit);
		if (r >= 1 && r - 1 < nb)
			batch_filter(t, &b[(r - 1) % 3]);
		if (pos < n) {
			batch_hash(t, keys, &pos, n, lo, hi, &b[r % 3]);
			nb = r + 1;
		}
	}
	return nhit;
}

static errcode_t grow(struct rtable *t)
{
	struct rtable old = *t;
	size_t i, j;
	errcode_t err;

	if (old.slots > SIZE_MAX / 2)
		return ENOMEM;
	err = alloc_slots(t, old.slots * 2);
	if (err) {
		*t = old;
		return err;
	}
	for (i = 0; i < old.slots; i++) {
		uint64_t h;
		size_t k;

		if (old.keys[i] == EMPTY)
			continue;
		h = rtable_mix(old.keys[i]);
		k = home(t, h);
		j = probe(t, old.keys[i], k);
		t->keys[j] = old.keys[i];
		t->vals[j] = old.vals[i];
		if (t->filter)
			filter_set(t, k, h);
	}
	free(old.keys);
	free(old.vals);
	free(old.filter);
	return 0;
}

errcode_t rtable_add(struct rtable *t, uint64_t key, uint32_t val,
		     uint32_t **slot, int *added)
{
	uint64_t h;
	size_t k, i;
	errcode_t err;

	*added = 0;
	if (key == EMPTY) {
		if (!t->has_special) {
			t->has_special = 1;
			t->special_val = val;
			t->count++;
			*added = 1;
		}
		*slot = &t->special_val;
		return 0;
	}
	if (!t->keys) {
		err = alloc_slots(t, MIN_SLOTS);
		if (err)
			return err;
	}
	h = rtable_mix(key);
	k = home(t, h);
	i = probe(t, key, k);
	if (t->keys[i] == EMPTY) {
		if (t->count >= t->limit) {
			err = grow(t);
			if (err)
				return err;
			k = home(t, h);
			i = probe(t, key, k);
		}
		if (t->count == (size_t)t->has_special) {
			t->lo = t->hi = key;
		} else if (key < t->lo) {
			t->lo = key;
		} else if (key > t->hi) {
			t->hi = key;
		}
		t->keys[i] = key;
		t->vals[i] = val;
		if (t->filter)
			filter_set(t, k, h);
		t->count++;
		*added = 1;
	}
	*slot = &t->vals[i];
	return 0;
}

errcode_t rtable_revoke(struct rtable *t, uint64_t key, uint32_t tid)
{
	uint32_t *slot;
	int added;
	errcode_t err;

	err = rtable_add(t, key, tid, &slot, &added);
	if (!err && !added && tid_gt(tid, *slot))
		*slot = tid;
	return err;
}
