/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_overlay.c -- the filesystem as the log's blocks will leave it, held in
 * memory for the fast-commit replay (fc_replay.c).
 *
 * The fast commits are replayed first into memory, on the filesystem as the
 * log's blocks will leave it: reads see the blocks the replay has written,
 * else the last copy of the block the log replays (read from the journal),
 * else the disk; writes stay in memory.  Only when every record went in is
 * anything written: the log's blocks, then these.  A record the replay
 * cannot take leaves the filesystem untouched.
 *
 * libext2fs reaches this view through an io manager of its own (fc_io.c),
 * whose requests arrive here as byte ranges: block sizes may differ from
 * the filesystem's (libext2fs reads the superblock with 1024-byte blocks),
 * so the view works on whole filesystem blocks and copies the part asked.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc_overlay.h"
#include "array.h"

struct ovl_block {
	uint64_t	blk;
	unsigned char	*data;
};

struct ovl_log {
	uint64_t	fsblk;
	size_t		tag;		/* index in the tags */
};

struct fc_overlay {
	struct pass_log	pl;		/* the log under the view */
	io_channel	under;
	unsigned int	bs;
	struct ovl_block *b;		/* sorted by blk */
	size_t		nb, capb;
	struct ovl_log	*log;		/* sorted by fsblk, then log order */
	size_t		nlog;
	unsigned char	*jbuf;
};

static size_t ovl_find(const struct fc_overlay *o, uint64_t blk, int *found)
{
	size_t lo = 0, hi = o->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->b[mid].blk < blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < o->nb && o->b[lo].blk == blk;
	return lo;
}

/* The last copy of blk the log replays (revoke records and data
 * checksums as the REPLAY pass judges them); 0 if none. */
static errcode_t ovl_from_log(struct fc_overlay *o, uint64_t blk,
			      unsigned char *out, int *got)
{
	const struct pass_log *pl = &o->pl;
	size_t lo = 0, hi = o->nlog;
	errcode_t err;

	*got = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->log[mid].fsblk <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && o->log[lo - 1].fsblk == blk) {
		const struct jtag *t = &pl->tags->v[o->log[--lo].tag];

		err = source_read(pl->src, t->jblk, 1, o->jbuf);
		if (err)
			continue;	/* the replay goes on past it too */
		if (!jbd2_data_csum_ok(pl->sb, t->tid, o->jbuf, t->csum))
			continue;
		memcpy(out, o->jbuf, o->bs);
		if (t->flags & JBD2_FLAG_ESCAPE)
			jbd2_unescape(out);
		*got = 1;
		return 0;
	}
	return 0;
}

static errcode_t ovl_read_block(struct fc_overlay *o, uint64_t blk,
				unsigned char *out)
{
	int found;
	size_t i = ovl_find(o, blk, &found);
	errcode_t err;

	if (found) {
		memcpy(out, o->b[i].data, o->bs);
		return 0;
	}
	err = ovl_from_log(o, blk, out, &found);
	if (err || found)
		return err;
	return io_channel_read_blk64(o->under, blk, 1, out);
}

static errcode_t ovl_write_block(struct fc_overlay *o, uint64_t blk,
				 const unsigned char *in)
{
	int found;
	size_t i = ovl_find(o, blk, &found);
	unsigned char *d;
	errcode_t err;

	if (!found) {
		d = malloc(o->bs);
		if (!d)
			return ENOMEM;
		err = array_grow((void **)&o->b, &o->capb, o->nb + 1,
				 sizeof(*o->b));
		if (err) {
			free(d);
			return err;
		}
		memmove(o->b + i + 1, o->b + i, (o->nb - i) * sizeof(*o->b));
		o->b[i].blk = blk;
		o->b[i].data = d;
		o->nb++;
	}
	memcpy(o->b[i].data, in, o->bs);
	return 0;
}

/*
 * len bytes from byte off of the view read into rbuf, or written from wbuf
 * (rbuf NULL), a filesystem block at a time: a block written only in part
 * is read first, so that it keeps the rest of what it held.
 */
errcode_t fc_overlay_rw(struct fc_overlay *o, unsigned long long off,
			size_t len, void *rbuf, const void *wbuf)
{
	unsigned long long blk;
	unsigned char *tmp;
	size_t done = 0;
	errcode_t err = 0;

	tmp = malloc(o->bs);
	if (!tmp)
		return ENOMEM;
	for (blk = off / o->bs; !err && done < len; blk++) {
		size_t in = (size_t)((off + done) % o->bs);
		size_t n = o->bs - in < len - done ? o->bs - in : len - done;

		if (rbuf || n < o->bs)
			err = ovl_read_block(o, blk, tmp);
		if (err)
			break;
		if (rbuf) {
			memcpy((unsigned char *)rbuf + done, tmp + in, n);
		} else {
			memcpy(tmp + in, (const unsigned char *)wbuf + done, n);
			err = ovl_write_block(o, blk, tmp);
		}
		done += n;
	}
	free(tmp);
	return err;
}

static int log_cmp(const void *a, const void *b)
{
	const struct ovl_log *x = a, *y = b;

	if (x->fsblk != y->fsblk)
		return x->fsblk < y->fsblk ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The view: the disk, under the log's blocks, under the replay's writes. */
errcode_t fc_overlay_new(const struct pass_log *pl, ext2_filsys fs,
			 struct fc_overlay **ret)
{
	const struct jtags *tags = pl->tags;
	struct fc_overlay *o;
	size_t i;

	o = calloc(1, sizeof(*o));
	if (!o)
		return ENOMEM;
	o->pl = *pl;
	o->under = fs->io;
	o->bs = fs->blocksize;
	o->jbuf = malloc(o->bs);
	o->log = malloc((tags->n ? tags->n : 1) * sizeof(*o->log));
	*ret = o;
	if (!o->jbuf || !o->log)
		return ENOMEM;
	for (i = 0; i < tags->n; i++) {
		if (pass_revoked(pl->revoke, &tags->v[i]))
			continue;
		o->log[o->nlog].fsblk = tags->v[i].fsblk;
		o->log[o->nlog].tag = i;
		o->nlog++;
	}
	qsort(o->log, o->nlog, sizeof(*o->log), log_cmp);
	return 0;
}

/* The blocks the replay wrote, written through io in block order; *bytes
 * says how many bytes that was when all went. */
errcode_t fc_overlay_write_out(struct fc_overlay *o, io_channel io,
			       unsigned long long *bytes)
{
	size_t i;
	errcode_t err = 0;

	*bytes = 0;
	for (i = 0; !err && i < o->nb; i++)
		err = io_channel_write_blk64(io, o->b[i].blk, 1, o->b[i].data);
	if (!err)
		*bytes = (unsigned long long)o->nb * o->bs;
	return err;
}

void fc_overlay_free(struct fc_overlay *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nb; i++)
		free(o->b[i].data);
	free(o->b);
	free(o->log);
	free(o->jbuf);
	free(o);
}
