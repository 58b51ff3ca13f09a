/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pass_replay.c -- the REPLAY pass: each filesystem block written once.
 *
 * e2fsck and the kernel write, in log order, every logged copy that no
 * revoke record cancels and whose data checksum holds (a copy whose
 * checksum fails is skipped and counted, and the replay then reports an
 * error); a block logged in many transactions is written as many times,
 * and what it holds afterwards is its last good copy.  This pass writes
 * only that copy, for each block, in ascending block order, so that
 * consecutive blocks go out as one large write (target.c):
 *   1. the copies no revoke record cancels are the candidates; the last
 *      candidate of each block is its copy to write, unless it fails;
 *   2. the blocks, in ascending order, a write buffer's worth at a time:
 *      their copies are read (sorted by journal block, consecutive ones in
 *      one request) and checked; a copy that cannot be read or fails its
 *      checksum gives way to the block's candidate before it, and so on;
 *      what holds is written;
 *   3. with data checksums (csum v2/v3) every other candidate is read once,
 *      in log order, only to check its checksum: e2fsck counts each copy
 *      that fails, and any such copy changes what it leaves in the
 *      superblock.  Without data checksums they are not read at all, so
 *      a superseded copy that could not have been read goes unnoticed
 *      (e2fsck would have reported the read error).
 * The counters come out as the log-order replay's: replayed (the copies
 * it writes) = copies_written + superseded, bad_csum and bad_csum_at, and
 * the first unreadable copy in log order.  Nothing here touches the
 * journal: recover_replay() resets it only after these writes are flushed,
 * so an interrupted replay is replayed again whole.  Before the pass, the
 * lifecycle refuses the tags no replay may write (pass_replay_check_tags()) and
 * rewrites a journal inode taken from its backup.
 *
 * Memory: per logged copy, a state byte and the index of the block's
 * previous candidate (4 bytes); per logged block, a table slot (12 bytes at
 * load <= 3/4) and an entry of the sorted list (16 bytes); a write
 * buffer's worth (1 MiB) of read buffer.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass_replay.h"
#include "array.h"
#include "target.h"

/* What the pass knows of each copy. */
enum {
	C_REVOKED = 1,		/* a revoke record cancels it */
	C_CAND,			/* a candidate not read (yet) */
	C_GOOD,			/* read, checksum holds */
	C_BAD,			/* read, checksum fails */
	C_UNREAD,		/* could not be read */
};

/* A copy to read in a batch: which block of the batch wants it. */
struct want {
	uint32_t	jblk;
	uint32_t	slot;		/* index in the batch */
};

struct replay {
	const struct pass_log *pl;
	struct replay_result *res;
	unsigned char	*state;		/* C_* per tag */
	uint32_t	*prev;		/* previous candidate of the same block */
	struct replay_block *blocks;	/* ascending block numbers */
	size_t		nblocks;
	struct want	*wants;
	unsigned char	*buf;		/* a batch's data, in jblk order */
	unsigned char	*ok;		/* ...and which of it was read */
	const unsigned char **src;	/* each block's data, or NULL */
	unsigned int	batch;		/* blocks per batch */
	unsigned long long done;	/* copies settled, for the progress */
	unsigned long long written;
	int		counted;	/* count() was called */
	int		check_all;	/* data checksums: read every copy */
};

static int by_fsblk(const void *a, const void *b)
{
	const struct replay_block *x = a, *y = b;

	return x->fsblk < y->fsblk ? -1 : x->fsblk > y->fsblk;
}

static int by_jblk(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	return x->jblk < y->jblk ? -1 : x->jblk > y->jblk;
}

/* Tell the caller how far the pass is: copies settled, of all tags. */
static errcode_t step(struct replay *p)
{
	return notify_progress(p->pl->notify, RECOVER_PASS_REPLAY, p->done,
			       p->pl->tags->n);
}

errcode_t pass_replay_classify(const struct pass_log *pl, unsigned char *state,
			       unsigned char revoked, unsigned char cand,
			       uint32_t *prev, struct replay_block **blocks,
			       size_t *nblocks)
{
	const struct jtags *tags = pl->tags;
	struct replay_block *b = NULL, *shrunk;
	struct rtable last;		/* block -> its entry in b */
	uint32_t *slot;
	size_t i, n = 0, cap = 0;
	int added;
	errcode_t err;

	*blocks = NULL;
	*nblocks = 0;
	err = rtable_init(&last, tags->n);
	if (err)
		return err;
	for (i = 0; i < tags->n; i++) {
		const struct jtag *t = &tags->v[i];

		prev[i] = REPLAY_NONE;
		if (pass_revoked(pl->revoke, t)) {
			state[i] = revoked;
			continue;
		}
		state[i] = cand;
		err = rtable_add(&last, t->fsblk, (uint32_t)n, &slot, &added);
		if (!err && added && n == cap)
			err = array_grow((void **)&b, &cap, n + 1,
					 sizeof(*b));
		if (err)
			goto out;
		if (added) {
			b[n].fsblk = t->fsblk;
			b[n++].tag = (uint32_t)i;
		} else {
			prev[i] = b[*slot].tag;
			b[*slot].tag = (uint32_t)i;
		}
	}
	/* Only what the list holds stays (one entry at least: a list). */
	shrunk = realloc(b, (n ? n : 1) * sizeof(*b));
	if (!shrunk && !b) {
		err = ENOMEM;
		goto out;
	}
	if (shrunk)
		b = shrunk;
	*blocks = b;
	*nblocks = n;
	b = NULL;
out:
	free(b);
	rtable_free(&last);
	return err;
}

/* The candidates and the revoked copies (settled already), then the blocks
 * sorted to be written in ascending order. */
static errcode_t classify(struct replay *p)
{
	size_t i;
	errcode_t err;

	err = pass_replay_classify(p->pl, p->state, C_REVOKED, C_CAND, p->prev,
				   &p->blocks, &p->nblocks);
	for (i = 0; i < p->pl->tags->n && !err; i++)
		if (p->state[i] == C_REVOKED) {
			p->res->revoked++;
			p->done++;
			err = step(p);
		}
	if (!err)
		qsort(p->blocks, p->nblocks, sizeof(*p->blocks), by_fsblk);
	return err;
}

/* Check a copy just read (data NULL: it could not be read). */
static int settle(struct replay *p, uint32_t i, const unsigned char *data)
{
	const struct jtag *t = &p->pl->tags->v[i];

	p->done++;
	if (!data)
		p->state[i] = C_UNREAD;
	else if (jbd2_data_csum_ok(p->pl->sb, t->tid, data, t->csum))
		p->state[i] = C_GOOD;
	else
		p->state[i] = C_BAD;
	return p->state[i] == C_GOOD;
}

/* Read journal blocks [jblk, jblk + n) into dst; on an error, block by block,
 * marking in ok[] which ones came. */
static void read_run(struct replay *p, uint32_t jblk, unsigned int n,
		     unsigned char *dst, unsigned char *ok)
{
	unsigned int bs = p->pl->sb->pub.blocksize, k;

	if (!source_read(p->pl->src, jblk, n, dst)) {
		memset(ok, 1, n);
		return;
	}
	for (k = 0; k < n; k++)
		ok[k] = !source_read(p->pl->src, jblk + k, 1,
				     dst + (size_t)k * bs);
}

errcode_t pass_replay_read_copy(const struct jtags *tags,
				struct jreader *rd, size_t i,
				const unsigned char *state,
				unsigned char wanted,
				const unsigned char **data)
{
	const struct jtag *t = tags->v;
	unsigned int n = 1;
	size_t k;

	if (!source_reader_holds(rd, t[i].jblk))
		for (k = i + 1; k < tags->n && n < rd->cap &&
		     state[k] == wanted && t[k].jblk == t[i].jblk + n; k++)
			n++;
	return source_reader_fetch(rd, t[i].jblk, n, data);
}

/* Blocks [first, first + n) of p->blocks: read, check, fall back, write. */
static errcode_t write_batch(struct replay *p, struct target *tg, size_t first,
			     unsigned int n)
{
	const struct jtag *tags = p->pl->tags->v;
	unsigned int bs = p->pl->sb->pub.blocksize, k, run;
	errcode_t err;

	for (k = 0; k < n; k++) {
		p->wants[k].jblk = tags[p->blocks[first + k].tag].jblk;
		p->wants[k].slot = k;
	}
	qsort(p->wants, n, sizeof(*p->wants), by_jblk);
	/* Data lands in jblk order; src[] says where each block's is. */
	for (k = 0; k < n; k += run) {
		for (run = 1; k + run < n && run < n &&
		     p->wants[k + run].jblk == p->wants[k].jblk + run; run++)
			;
		read_run(p, p->wants[k].jblk, run, p->buf + (size_t)k * bs,
			 p->ok + k);
	}
	for (k = 0; k < n; k++)
		p->src[p->wants[k].slot] = p->ok[k] ? p->buf + (size_t)k * bs :
				       NULL;
	for (k = 0; k < n; k++) {
		uint32_t i = p->blocks[first + k].tag;
		const unsigned char *data = p->src[k];

		/* Fall back to earlier copies, read one by one (rare: only
		 * a failed checksum or read gets here). */
		while (!settle(p, i, data)) {
			i = p->prev[i];
			if (i == REPLAY_NONE)
				break;
			/* The spare block past the batch's data. */
			data = p->buf + (size_t)n * bs;
			if (source_read(p->pl->src, tags[i].jblk, 1,
					p->buf + (size_t)n * bs))
				data = NULL;
		}
		if (i != REPLAY_NONE) {
			err = target_write(tg, tags[i].fsblk, data,
					   tags[i].flags & JBD2_FLAG_ESCAPE);
			if (err)
				return err;
			p->written++;
			/* Without data checksums the copies before it are
			 * settled too: superseded, never read. */
			if (!p->check_all)
				for (i = p->prev[i]; i != REPLAY_NONE;
				     i = p->prev[i])
					p->done++;
		}
		err = step(p);
		if (err)
			return err;
	}
	return 0;
}

/* With data checksums: every candidate not read yet, in log order. */
static errcode_t check_rest(struct replay *p)
{
	const struct pass_log *pl = p->pl;
	const unsigned char *data;
	struct jreader rd;
	size_t i;
	errcode_t err;

	err = source_reader_init(&rd, pl->src, pl->sb->last);
	if (err)
		return err;
	for (i = 0; i < pl->tags->n; i++) {
		if (p->state[i] != C_CAND)
			continue;
		settle(p, (uint32_t)i,
		       pass_replay_read_copy(pl->tags, &rd, i, p->state, C_CAND,
					     &data) ? NULL : data);
		err = step(p);
		if (err)
			break;
	}
	source_reader_free(&rd);
	return err;
}

/*
 * The log-order replay's counters, from the state of each copy; a replay
 * that stopped half way (final 0) counts only the copies it settled.
 */
static void count(struct replay *p, int final)
{
	const struct jtags *tags = p->pl->tags;
	struct notify *n = p->pl->notify;
	struct replay_result *res = p->res;
	unsigned long long good = 0;
	size_t i;

	for (i = 0; i < tags->n; i++) {
		const struct jtag *t = &tags->v[i];

		switch (p->state[i]) {
		case C_CAND:	/* not read: no checksum to check */
			if (!final)
				break;
			/* fall through */
		case C_GOOD:
			good++;
			break;
		case C_BAD:
			notify_skipped(n, t->tid, t->jblk, t->fsblk,
				       t->flags, RECOVER_FATE_BAD_CSUM);
			if (!res->bad_csum++) {
				res->bad_csum_at.jblock = t->jblk;
				res->bad_csum_at.fsblock = t->fsblk;
				res->bad_csum_at.tid = t->tid;
			}
			break;
		case C_UNREAD:
			notify_skipped(n, t->tid, t->jblk, t->fsblk,
				       t->flags, RECOVER_FATE_UNREADABLE);
			/* As the kernel does: go on, report at the end. */
			if (!res->error) {
				res->error = RECOVER_ET_LOG_IO;
				res->error_at.jblock = t->jblk;
				res->error_at.fsblock = t->fsblk;
				res->error_at.tid = t->tid;
			}
			break;
		}
	}
	res->replayed += good;
	res->copies_written += p->written;
	res->superseded += good > p->written ? good - p->written : 0;
}

errcode_t pass_replay(const struct pass_log *pl, io_channel io, int dry,
		      struct replay_result *res)
{
	const struct jsuper *sb = pl->sb;
	size_t ntags = pl->tags->n;
	struct replay p;
	struct target tg;
	size_t k;
	unsigned int n;
	errcode_t err;

	memset(&p, 0, sizeof(p));
	memset(&tg, 0, sizeof(tg));
	p.pl = pl;
	p.res = res;
	p.check_all = sb->csum_v2 || sb->csum_v3;
	pl->notify->progress_next = 0;
	p.state = malloc(ntags ? ntags : 1);
	p.prev = malloc((ntags ? ntags : 1) * sizeof(*p.prev));
	err = target_init(&tg, io, sb->pub.blocksize, dry);
	if (!err && (!p.state || !p.prev))
		err = ENOMEM;
	if (err)
		goto out;
	err = classify(&p);
	if (err)
		goto out;
	p.batch = tg.cap;
	p.wants = malloc(p.batch * sizeof(*p.wants));
	p.ok = malloc(p.batch);
	p.src = malloc(p.batch * sizeof(*p.src));
	/* One block more: where a fallback copy is read. */
	p.buf = malloc(((size_t)p.batch + 1) * sb->pub.blocksize);
	if (!p.wants || !p.ok || !p.src || !p.buf) {
		err = ENOMEM;
		goto out;
	}
	for (k = 0; k < p.nblocks; k += n) {
		n = p.nblocks - k < p.batch ? (unsigned int)(p.nblocks - k) :
		    p.batch;
		err = write_batch(&p, &tg, k, n);
		if (err)
			goto out;
	}
	if (p.check_all) {
		err = check_rest(&p);
		if (err)
			goto out;
	}
	count(&p, 1);
	p.counted = 1;
	err = target_flush(&tg);
	if (!err)
		err = notify_progress(pl->notify, RECOVER_PASS_REPLAY, ntags,
				      ntags);
out:
	if (!p.counted && p.state && p.blocks)
		count(&p, 0);
	res->written_bytes = tg.written_bytes;
	if (tg.issued)
		res->wrote = 1;
	target_free(&tg);
	free(p.state);
	free(p.prev);
	free(p.blocks);
	free(p.wants);
	free(p.ok);
	free(p.src);
	free(p.buf);
	return err;
}

/* A tag the replay refuses: the error, and the tag it is about. */
static errcode_t refuse_tag(struct replay_result *res, errcode_t err,
			    const struct jtag *t)
{
	res->error = err;
	res->error_at.jblock = t->jblk;
	res->error_at.fsblock = t->fsblk;
	res->error_at.tid = t->tid;
	return err;
}

/*
 * Tags naming a block past the filesystem's end are refused up front; so
 * are tags naming a block of the internal journal itself (its log or its
 * block map): e2fsck writes them as it goes and then reads its overwritten
 * log, a replay from the scan's reading would write something else, and
 * the kernel never logs a journal block.  A tag naming the journal's
 * superblock block is let through: both e2fsck and the end of the replay
 * write the reset journal superblock over it.
 */
errcode_t pass_replay_check_tags(const struct pass_log *pl, uint64_t fs_blocks,
				 struct replay_result *res)
{
	const struct jtag *t;
	size_t i;

	for (i = 0; i < pl->tags->n; i++) {
		t = &pl->tags->v[i];
		if (pass_revoked(pl->revoke, t))
			continue;
		if (t->fsblk >= fs_blocks)
			return refuse_tag(res, RECOVER_ET_TAG_PAST_END, t);
		if (source_owns(pl->src, t->fsblk) == 1)
			return refuse_tag(res, RECOVER_ET_TAG_OWN_JOURNAL, t);
	}
	return 0;
}
