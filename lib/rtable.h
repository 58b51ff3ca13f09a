/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rtable.h -- the revoke table: block number -> tid.
 *
 * Open addressing with linear probing over two flat arrays (keys, values)
 * and a 64-bit mixer in front (block numbers arrive in runs; without mixing,
 * runs become long probe chains).  The slot count need not be a power of
 * two: a key's home slot is the high part of hash * slots (a multiply and
 * a shift, no division), so the table can be sized to the count exactly.
 *
 * Memory: 12 bytes a slot (8 key + 4 value).  The table never lets the load
 * pass 3/4, so it costs 16 bytes a record at its fullest and 32 just after
 * doubling.  rtable_init() sizes it from an expected count (the count the
 * scan pass saw) to the fewest slots that hold it at load 3/4: 16 bytes a
 * record, with no growth.  A table given a low or zero estimate doubles as
 * needed.
 *
 * A table that mostly answers "absent" (the default mode's table of logged
 * blocks, asked about every revoke record) can keep a filter beside it, a
 * blocked Bloom filter: one 64-bit word for each group of 8 slots (1 byte
 * a slot, the last word rounded up); a key sets three bits, chosen by the
 * low 18 bits of its hash, in the word of its home slot (the home slot
 * comes from the high bits).  A lookup missing any of its three bits is
 * answered without touching the slots.  A word holds the keys of 8 home
 * slots, 6 on average at load 3/4, 3 at 3/8, which lets about 2% and 0.4%
 * of absent keys through (a one-bit-a-byte filter of the same size: 9% and
 * 4.6%).  Memory is then 13 bytes a slot.
 *
 * The table also keeps its smallest and largest key (lo, hi), so that
 * rtable_find_batch() answers a key outside them without hashing it.
 *
 * Nothing is ever deleted, so no tombstones are needed.  The key
 * UINT64_MAX marks an empty slot; a real block number UINT64_MAX (only a
 * corrupt revoke record can name it) is kept aside in its own field.
 *
 * Values are tids; rtable_revoke() keeps the later of two tids by the
 * wrap-aware comparison, never by a plain max.
 */
#ifndef RTABLE_H
#define RTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <ext2fs/ext2fs.h>

struct rtable {
	uint64_t	*keys;
	uint32_t	*vals;
	size_t		slots;
	size_t		count;		/* keys held, the special one included */
	size_t		limit;		/* grow when count reaches this */
	int		has_special;	/* key UINT64_MAX present */
	uint32_t	special_val;
	int		use_filter;
	uint64_t	*filter;	/* a word per 8 slots, or NULL */
	uint64_t	lo, hi;		/* smallest and largest key held,
					 * the special one aside; set once
					 * there is one */
};

errcode_t rtable_init(struct rtable *t, size_t expected);

/*
 * The hash, a strong 64-bit finalizer (every input bit affects every output
 * bit): the home slot comes from its high bits, the filter bits from its
 * low 18.
 */
static inline uint64_t rtable_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Keep the "absent" filter (see above) from now on; the table may be new
 * (zeroed) or hold keys already. */
errcode_t rtable_use_filter(struct rtable *t);
void rtable_free(struct rtable *t);

/* The value slot of key, or NULL when key is absent. */
uint32_t *rtable_find(const struct rtable *t, uint64_t key);

/*
 * The keys of keys[0 .. n-1] that the table holds, as rtable_find() would
 * answer each: returns their count h, and for k < h, hit[k] is the index
 * in keys of the k-th key found (rising) and slot[k] its value slot; hit
 * and slot need room for n entries.  Keys may repeat (each is found, with
 * the same slot).  The slots are valid until the next call that may add a
 * key.
 *
 * A key outside [lo, hi] is answered from the range alone.  The others go
 * in batches of up to 64, three in flight: the hashes and home slots of a
 * batch are computed and their filter words (or key slots) prefetched; a
 * batch later the filter is tested and the key and value slots of the keys
 * it lets through prefetched; a batch later still those are probed.  The
 * cache misses thus overlap one another and the other batches' work
 * instead of following one another.  Only found keys are written out.
 * Cost a key: see revoke.c (bench/rtable_bench measures it).  Stack: about
 * 4.5 KiB.
 */
size_t rtable_find_batch(const struct rtable *t, const uint64_t *keys,
			 size_t n, size_t *hit, uint32_t **slot);

/*
 * The value slot of key; an absent key is added with value val and *added
 * set.  The pointer is valid until the next call that may add a key.
 */
errcode_t rtable_add(struct rtable *t, uint64_t key, uint32_t val,
		     uint32_t **slot, int *added);

/* Record "key revoked at tid", keeping the later tid if key is present. */
errcode_t rtable_revoke(struct rtable *t, uint64_t key, uint32_t tid);

static inline size_t rtable_count(const struct rtable *t)
{
	return t->count;
}

/* Bytes the table holds now. */
static inline size_t rtable_bytes(const struct rtable *t)
{
	if (!t->keys)
		return 0;
	return t->slots * (sizeof(uint64_t) + sizeof(uint32_t)) +
	       (t->filter ? (t->slots + 7) / 8 * sizeof(uint64_t) : 0);
}

#endif /* RTABLE_H */
