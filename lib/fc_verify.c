/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_verify.c -- the fast-commit replay checked against its log before
 * anything is written: every file still in use maps each block the last
 * record about that block gave it.
 *
 * As the records are applied, each is noted as an event on a range of one
 * inode's logical blocks: ADD_RANGE maps the range to its physical blocks,
 * DEL_RANGE unmaps it, and an INODE record unmaps everything past its
 * i_size (a truncate) or, when its generation is not the one the inode's
 * previous INODE record had, everything (the number was reused).  After
 * the replay, per inode, the last event covering each logical block says
 * what it must map; a file whose blocks differ from that has lost what a
 * fast commit logged, and the replay is refused (RECOVER_ET_FC_LOST,
 * nothing written) rather than leave it.  Nor may two of the inodes the
 * replay touched map one cluster (RECOVER_ET_FC_SHARED): the later writes
 * of one would land in the other.
 *
 * Left out, as no log can say what they map: inodes no longer in use (an
 * unlinked file goes with its blocks), inodes whose data is inline, and
 * directories (their blocks are the replay's own, made again from the
 * name records as the kernel makes them).  Blocks a record maps past the
 * size of a later INODE record (preallocated with KEEP_SIZE) are not
 * checked either: the check may miss a loss there, never refuse a right
 * replay.
 *
 * Cost: 48 bytes per range record and INODE record; the ranges of one
 * inode are resolved by a sweep over their ends with a heap ordered by
 * record (O(n log n) for n records), and each resolved range is compared
 * with the inode's extents through one extent handle (a lookup per
 * extent, not per block).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc_fs.h"
#include "fc_extent.h"
#include "fc_verify.h"
#include "fc_state.h"

#define END_OF_FILE	0x100000000ULL	/* past the last logical block */

enum { EV_ADD, EV_DEL, EV_INODE };

struct fc_verify_event {
	uint64_t	seq;		/* the record's place in the log */
	uint64_t	start, end;	/* logical blocks [start, end) */
	uint64_t	pblk;		/* EV_ADD: what start maps to */
	uint32_t	ino;
	uint32_t	gen;		/* EV_INODE: i_generation */
	unsigned int	kind;
};

errcode_t fc_verify_expect(struct fc_state *c, const struct fc_tag *t)
{
	struct fc_verify_event *e;
	errcode_t err;

	if (t->tag != FC_TAG_ADD_RANGE && t->tag != FC_TAG_DEL_RANGE &&
	    t->tag != FC_TAG_INODE)
		return 0;
	err = array_grow((void **)&c->ev, &c->capev, c->nev + 1,
			 sizeof(*c->ev));
	if (err)
		return err;
	e = &c->ev[c->nev];
	memset(e, 0, sizeof(*e));
	e->seq = c->nev++;
	e->ino = t->ino;
	if (t->tag == FC_TAG_INODE) {
		const unsigned char *raw = t->raw_inode;
		uint64_t size = get_le32(raw + 4) |
				(uint64_t)get_le32(raw + 108) << 32;
		uint64_t bs = c->fs->blocksize;

		e->kind = EV_INODE;
		e->gen = get_le32(raw + FC_I_GENERATION);
		e->start = size / bs + !!(size % bs);
		if (e->start > END_OF_FILE)
			e->start = END_OF_FILE;
		e->end = END_OF_FILE;
		return 0;
	}
	e->kind = t->tag == FC_TAG_ADD_RANGE ? EV_ADD : EV_DEL;
	e->start = t->lblk;
	e->end = (uint64_t)t->lblk + t->count;
	if (e->end > END_OF_FILE)
		e->end = END_OF_FILE;
	e->pblk = t->pblk;
	return 0;
}

void fc_verify_free(struct fc_state *c)
{
	free(c->ev);
	c->ev = NULL;
	c->nev = c->capev = 0;
}

static int by_inode_then_seq(const void *a, const void *b)
{
	const struct fc_verify_event *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_start(const void *a, const void *b)
{
	const struct fc_verify_event *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int by_value(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* A max-heap of events by seq: the latest record on top. */
struct heap {
	const struct fc_verify_event **e;
	size_t n;
};

static void heap_push(struct heap *h, const struct fc_verify_event *e)
{
	size_t i = h->n++;

	while (i && h->e[(i - 1) / 2]->seq < e->seq) {
		h->e[i] = h->e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->e[i] = e;
}

static void heap_pop(struct heap *h)
{
	const struct fc_verify_event *last = h->e[--h->n];
	size_t i = 0, k;

	for (;;) {
		k = 2 * i + 1;
		if (k >= h->n)
			break;
		if (k + 1 < h->n && h->e[k + 1]->seq > h->e[k]->seq)
			k++;
		if (h->e[k]->seq <= last->seq)
			break;
		h->e[i] = h->e[k];
		i = k;
	}
	if (h->n)
		h->e[i] = last;
}

/* Does ino map [lblk, end) to pblk onwards?  Through the extent handle h
 * of an extent inode, else block by block. */
static errcode_t maps(struct fc_state *c, ext2_ino_t ino,
		      ext2_extent_handle_t h, struct ext2_inode *inode,
		      uint64_t lblk, uint64_t end, uint64_t pblk, int *ok)
{
	struct ext2fs_extent ex;
	errcode_t err;

	*ok = 0;
	while (lblk < end) {
		uint64_t n;

		if (!h) {
			blk64_t got = 0;

			err = ext2fs_bmap2(c->fs, ino, inode, NULL, 0, lblk,
					   NULL, &got);
			if (err || got != pblk)
				return err;
			lblk++;
			pblk++;
			continue;
		}
		err = ext2fs_extent_goto2(h, 0, (blk64_t)lblk);
		if (err == EXT2_ET_EXTENT_NOT_FOUND)
			return 0;	/* a hole */
		if (!err)
			err = ext2fs_extent_get(h, EXT2_EXTENT_CURRENT, &ex);
		if (err)
			return err;
		if (lblk < ex.e_lblk || lblk >= ex.e_lblk + ex.e_len ||
		    ex.e_pblk + (lblk - ex.e_lblk) != pblk)
			return 0;
		n = ex.e_lblk + ex.e_len - lblk;
		if (n > end - lblk)
			n = end - lblk;
		lblk += n;
		pblk += n;
	}
	*ok = 1;
	return 0;
}

/*
 * The events of one inode, ev[0..n) in record order, against what the
 * inode maps after the replay.  *lost says a block differs.
 */
static errcode_t verify_inode(struct fc_state *c,
			      struct fc_verify_event *ev, size_t n, int *lost)
{
	ext2_ino_t ino = ev[0].ino;
	struct ext2_inode *inode = fc_state_small_inode(c->ibuf);
	ext2_extent_handle_t h = NULL;
	struct heap heap = { NULL, 0 };
	uint64_t *ends = NULL;
	size_t i, j, nends = 0, next = 0;
	uint32_t gen = 0;
	int have_gen = 0, any_add = 0, ok = 1;
	errcode_t err;

	/* INODE records as unmapping events: past i_size, or all of it
	 * when the generation changed (an earlier file of that number). */
	for (i = 0; i < n; i++) {
		if (ev[i].kind == EV_ADD)
			any_add = 1;
		if (ev[i].kind != EV_INODE)
			continue;
		if (have_gen && ev[i].gen != gen)
			ev[i].start = 0;
		gen = ev[i].gen;
		have_gen = 1;
		ev[i].kind = EV_DEL;
	}
	if (!any_add)
		return 0;
	err = fc_state_read_inode(c, ino, c->ibuf);
	if (err || !fc_state_inode_in_use(c->ibuf) ||
	    LINUX_S_ISDIR(inode->i_mode) ||
	    (inode->i_flags & EXT4_INLINE_DATA_FL))
		return err;
	if (have_gen && inode->i_generation != gen)
		return 0;	/* not the file the records were about */
	if (inode->i_flags & EXT4_EXTENTS_FL) {
		err = ext2fs_extent_open2(c->fs, ino, inode, &h);
		if (err)
			return err;
	}
	ends = malloc(2 * n * sizeof(*ends));
	heap.e = malloc(n * sizeof(*heap.e));
	if (!ends || !heap.e) {
		err = ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ends[nends++] = ev[i].start;
		ends[nends++] = ev[i].end;
	}
	qsort(ends, nends, sizeof(*ends), by_value);
	for (i = j = 0; i < nends; i++)
		if (!j || ends[j - 1] != ends[i])
			ends[j++] = ends[i];
	nends = j;
	qsort(ev, n, sizeof(*ev), by_start);
	/* Each piece between two ends: the latest event over it decides. */
	for (i = 0; ok && i + 1 < nends; i++) {
		uint64_t a = ends[i], b = ends[i + 1];
		const struct fc_verify_event *top;

		while (next < n && ev[next].start <= a)
			heap_push(&heap, &ev[next++]);
		while (heap.n && heap.e[0]->end <= a)
			heap_pop(&heap);
		if (!heap.n)
			continue;
		top = heap.e[0];
		if (top->kind != EV_ADD)
			continue;
		err = maps(c, ino, h, inode, a, b, top->pblk + (a - top->start),
			   &ok);
		if (err)
			goto out;
	}
	*lost = !ok;
out:
	free(ends);
	free(heap.e);
	if (h)
		ext2fs_extent_free(h);
	return err;
}

/* Clusters [c0, c1] an inode maps (data or one of its tree blocks). */
struct claim {
	uint64_t	c0, c1;
	uint32_t	ino;
};

static int by_first_cluster(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->c0 != y->c0)
		return x->c0 < y->c0 ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* The clusters the extent inode ino (in c->ibuf) maps, appended to *v;
 * a run that goes on from the one before joins it. */
static errcode_t claims_of(struct fc_state *c, ext2_ino_t ino,
			   struct claim **v, size_t *n, size_t *cap)
{
	const blk64_t end = ext2fs_blocks_count(c->fs->super);
	ext2_extent_handle_t h;
	struct ext2fs_extent ex;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	err = ext2fs_extent_open2(c->fs, ino, fc_state_small_inode(c->ibuf),
				  &h);
	if (err)
		return err;
	while (!(err = fc_extent_next(h, &op, &ex))) {
		uint64_t first, last, len;

		len = ex.e_flags & EXT2_EXTENT_FLAGS_LEAF ? ex.e_len : 1;
		if (!len || ex.e_pblk >= end || len > end - ex.e_pblk)
			continue;
		first = EXT2FS_B2C(c->fs, ex.e_pblk);
		last = EXT2FS_B2C(c->fs, ex.e_pblk + len - 1);
		if (*n && (*v)[*n - 1].ino == ino &&
		    (*v)[*n - 1].c1 + 1 == first) {
			(*v)[*n - 1].c1 = last;
			continue;
		}
		err = array_grow((void **)v, cap, *n + 1, sizeof(**v));
		if (err)
			break;
		(*v)[*n].c0 = first;
		(*v)[*n].c1 = last;
		(*v)[(*n)++].ino = ino;
	}
	if (err == EXT2_ET_EXTENT_NO_NEXT)
		err = 0;
	ext2fs_extent_free(h);
	return err;
}

/*
 * No cluster mapped by two of the inodes the replay touched (their data and
 * tree blocks; the extended attribute block may be shared, and is not
 * looked at), else *shared.  One file's later writes would land in the
 * other's data.  Clusters, not blocks: on bigalloc a cluster is one file's.
 * Cost: 24 bytes per run of an extent tree, one sort.
 */
static errcode_t verify_shared(struct fc_state *c, int *shared)
{
	struct claim *v = NULL;
	size_t n = 0, cap = 0, i;
	uint64_t reach = 0;
	uint32_t owner = 0;
	errcode_t err = 0;

	*shared = 0;
	for (i = 0; !err && i < c->nt; i++) {
		err = fc_state_read_inode(c, c->t[i].ino, c->ibuf);
		if (!err && fc_state_inode_in_use(c->ibuf) &&
		    fc_extent_has_root(c->ibuf))
			err = claims_of(c, c->t[i].ino, &v, &n, &cap);
	}
	if (!err && n)
		qsort(v, n, sizeof(*v), by_first_cluster);
	for (i = 0; !err && i < n; i++) {
		if (i && v[i].c0 <= reach && v[i].ino != owner) {
			*shared = 1;
			break;
		}
		if (!i || v[i].c1 > reach) {
			reach = v[i].c1;
			owner = v[i].ino;
		}
	}
	free(v);
	return err;
}

errcode_t fc_verify(struct fc_state *c)
{
	size_t i, j;
	errcode_t err = 0;
	int lost = 0, shared = 0;

	if (c->nev)
		qsort(c->ev, c->nev, sizeof(*c->ev), by_inode_then_seq);
	for (i = 0; !err && !lost && i < c->nev; i = j) {
		for (j = i; j < c->nev && c->ev[j].ino == c->ev[i].ino; j++)
			;
		err = verify_inode(c, c->ev + i, j - i, &lost);
	}
	if (!err && lost)
		err = RECOVER_ET_FC_LOST;
	if (!err)
		err = verify_shared(c, &shared);
	if (!err && shared)
		err = RECOVER_ET_FC_SHARED;
	return err;
}
