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

/* A strong 64-bit finalizer: every input bit affects every output bit. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static errcode_t alloc_slots(struct rtable *t, size_t slots)
{
	uint64_t *keys;
	uint32_t *vals;

	if (slots > SIZE_MAX / sizeof(uint64_t))
		return ENOMEM;
	keys = malloc(slots * sizeof(*keys));
	vals = malloc(slots * sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return ENOMEM;
	}
	/* All-ones bytes make every key EMPTY. */
	memset(keys, 0xff, slots * sizeof(*keys));
	t->keys = keys;
	t->vals = vals;
	t->mask = slots - 1;
	t->limit = slots - slots / 4;
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
	memset(t, 0, sizeof(*t));
}

static size_t probe(const struct rtable *t, uint64_t key)
{
	size_t i = (size_t)mix(key) & t->mask;

	while (t->keys[i] != key && t->keys[i] != EMPTY)
		i = (i + 1) & t->mask;
	return i;
}

uint32_t *rtable_find(const struct rtable *t, uint64_t key)
{
	size_t i;

	if (key == EMPTY)
		return t->has_special ? (uint32_t *)&t->special_val : NULL;
	if (!t->keys)
		return NULL;
	i = probe(t, key);
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
		if (old.keys[i] == EMPTY)
			continue;
		j = probe(t, old.keys[i]);
		t->keys[j] = old.keys[i];
		t->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
	return 0;
}

errcode_t rtable_add(struct rtable *t, uint64_t key, uint32_t val,
		     uint32_t **slot, int *added)
{
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
	i = probe(t, key);
	if (t->keys[i] == EMPTY) {
		if (t->count >= t->limit) {
			err = grow(t);
			if (err)
				return err;
			i = probe(t, key);
		}
		t->keys[i] = key;
		t->vals[i] = val;
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
