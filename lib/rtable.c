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
	uint8_t *filter = NULL;

	if (slots > SIZE_MAX / sizeof(uint64_t))
		return ENOMEM;
	keys = malloc(slots * sizeof(*keys));
	vals = malloc(slots * sizeof(*vals));
	if (t->use_filter)
		filter = calloc(slots, 1);
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
	t->mask = slots - 1;
	t->limit = slots - slots / 4;
	return 0;
}

/* The filter bit of a hash: taken from its high half, the slot from its
 * low half, so the two are independent. */
static inline size_t filter_bit(const struct rtable *t, uint64_t h)
{
	return (size_t)(h >> 32) & (t->mask * 8 + 7);
}

static inline void filter_set(struct rtable *t, uint64_t h)
{
	size_t b = filter_bit(t, h);

	t->filter[b >> 3] |= (uint8_t)(1U << (b & 7));
}

static inline int filter_has(const struct rtable *t, uint64_t h)
{
	size_t b = filter_bit(t, h);

	return t->filter[b >> 3] & (1U << (b & 7));
}

errcode_t rtable_use_filter(struct rtable *t)
{
	size_t i;

	if (t->use_filter)
		return 0;
	t->use_filter = 1;
	if (!t->keys)
		return 0;
	t->filter = calloc(t->mask + 1, 1);
	if (!t->filter) {
		t->use_filter = 0;
		return ENOMEM;
	}
	for (i = 0; i <= t->mask; i++)
		if (t->keys[i] != EMPTY)
			filter_set(t, rtable_mix(t->keys[i]));
	return 0;
}

errcode_t rtable_init(struct rtable *t, size_t expected)
{
	size_t slots = MIN_SLOTS;

	memset(t, 0, sizeof(*t));
	/* Smallest power of two holding expected keys at load <= 3/4. */
	while (slots - slots / 4 <= expected) {
		if (slots > SIZE_MAX / 2)
			return ENOMEM;
		slots *= 2;
	}
	return alloc_slots(t, slots);
}

void rtable_free(struct rtable *t)
{
	free(t->keys);
	free(t->vals);
	free(t->filter);
	memset(t, 0, sizeof(*t));
}

static size_t probe(const struct rtable *t, uint64_t key, uint64_t h)
{
	size_t i = (size_t)h & t->mask;

	while (t->keys[i] != key && t->keys[i] != EMPTY)
		i = (i + 1) & t->mask;
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
	if (t->filter && !filter_has(t, h))
		return NULL;
	i = probe(t, key, h);
	return t->keys[i] == key ? &t->vals[i] : NULL;
}

static errcode_t grow(struct rtable *t)
{
	struct rtable old = *t;
	size_t i, j;
	errcode_t err;

	if (old.mask + 1 > SIZE_MAX / 2)
		return ENOMEM;
	err = alloc_slots(t, (old.mask + 1) * 2);
	if (err) {
		*t = old;
		return err;
	}
	for (i = 0; i <= old.mask; i++) {
		uint64_t h;

		if (old.keys[i] == EMPTY)
			continue;
		h = rtable_mix(old.keys[i]);
		j = probe(t, old.keys[i], h);
		t->keys[j] = old.keys[i];
		t->vals[j] = old.vals[i];
		if (t->filter)
			filter_set(t, h);
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
	size_t i;
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
	i = probe(t, key, h);
	if (t->keys[i] == EMPTY) {
		if (t->count >= t->limit) {
			err = grow(t);
			if (err)
				return err;
			i = probe(t, key, h);
		}
		t->keys[i] = key;
		t->vals[i] = val;
		if (t->filter)
			filter_set(t, h);
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
