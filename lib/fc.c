/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc.c -- the fast-commit area: which of its records are valid, judged as
 * the kernel's mount-time scan judges them.
 *
 * The kernel looks at the area only after the full commits were scanned,
 * with the tid that comes after the last committed transaction ("expected
 * tid"), and only when the log was not empty (s_start != 0):
 *  - the area's first block must begin with a HEAD record, else it holds
 *    nothing;
 *  - a HEAD whose features are unknown fails the whole recovery; a HEAD of
 *    another tid stops the scan: the area is stale (written before the
 *    last full commit) and nothing in it counts;
 *  - every record's length must fit in the block and suit its tag; an
 *    unknown tag or a bad length stops the scan;
 *  - a running crc32c (seed 0) covers every record since the last TAIL;
 *    a TAIL whose tid is the expected one and whose crc matches makes all
 *    records so far valid (HEAD, PAD and TAIL records included in the
 *    count), any other TAIL stops the scan;
 *  - a stop before any record was made valid by a TAIL fails the recovery
 *    (but a stale HEAD does not: that is a clean stop).
 * So the valid part of the area is the records up to the last good TAIL.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc.h"
#include "fc_fs.h"
#include "crc32c.h"

/* The public numbers are the area's own. */
static_assert(RECOVER_FC_TAG_ADD_RANGE == FC_TAG_ADD_RANGE &&
	      RECOVER_FC_TAG_DEL_RANGE == FC_TAG_DEL_RANGE &&
	      RECOVER_FC_TAG_CREAT == FC_TAG_CREAT &&
	      RECOVER_FC_TAG_LINK == FC_TAG_LINK &&
	      RECOVER_FC_TAG_UNLINK == FC_TAG_UNLINK &&
	      RECOVER_FC_TAG_INODE == FC_TAG_INODE &&
	      RECOVER_FC_TAG_PAD == FC_TAG_PAD &&
	      RECOVER_FC_TAG_TAIL == FC_TAG_TAIL &&
	      RECOVER_FC_TAG_HEAD == FC_TAG_HEAD, "fast-commit tag numbers");

/* debugfs's logdump's names, which jrecover -l prints too. */
const char *recover_fc_tag_name(unsigned int tag)
{
	static const char *const names[] = {
		[FC_TAG_ADD_RANGE] = "ADD_RANGE",
		[FC_TAG_DEL_RANGE] = "DEL_RANGE",
		[FC_TAG_CREAT] = "CREAT_DENTRY",
		[FC_TAG_LINK] = "ADD_ENTRY",
		[FC_TAG_UNLINK] = "DEL_ENTRY",
		[FC_TAG_INODE] = "INODE",
		[FC_TAG_PAD] = "PAD",
		[FC_TAG_TAIL] = "TAIL",
		[FC_TAG_HEAD] = "HEAD",
	};

	return tag < sizeof(names) / sizeof(names[0]) ? names[tag] : NULL;
}

void fc_scan_init(struct fc_scan *s, uint32_t expected_tid,
		  unsigned int blocksize, unsigned int inode_size)
{
	memset(s, 0, sizeof(*s));
	s->expected_tid = expected_tid;
	s->blocksize = blocksize;
	s->inode_size = inode_size;
}

static int stop(struct fc_scan *s, enum recover_fc_end why)
{
	s->end = why;
	s->done = 1;
	return 0;
}

int fc_scan_block(struct fc_scan *s, const unsigned char *blk, fc_tag_fn fn,
		  void *data)
{
	unsigned int pos = 0, bs = s->blocksize;
	struct fc_tag t;

	if (s->done)
		return 0;
	if (!s->blocks && !fc_starts_with_head(blk))
		return stop(s, RECOVER_FC_END_NO_HEAD);
	s->blocks++;
	while (pos + FC_TL_SIZE <= bs) {
		memset(&t, 0, sizeof(t));
		t.tag = get_le16(blk + pos + FC_TL_TAG);
		t.len = get_le16(blk + pos + FC_TL_LEN);
		t.val = blk + pos + FC_TL_SIZE;
		s->end_off = pos;
		if (t.len > bs - pos - FC_TL_SIZE ||
		    !fc_value_len_ok(t.tag, t.len, s->inode_size))
			return stop(s, RECOVER_FC_END_BAD_TAG);
		fc_decode_value(&t);
		if (t.tag == FC_TAG_HEAD) {
			if (t.features & ~FC_SUPPORTED_FEATURES)
				return stop(s, RECOVER_FC_END_FEATURES);
			if (t.tid != s->expected_tid)
				return stop(s, RECOVER_FC_END_HEAD_TID);
		}
		s->tags++;
		if (fn && fn(data, &t, s->tags <= s->limit)) {
			s->interrupted = 1;
			s->done = 1;
			return 0;
		}
		if (t.tag == FC_TAG_TAIL) {
			s->crc = crc32c_update(s->crc, blk + pos,
					       FC_TL_SIZE + FC_TAIL_CRC);
			if (t.tid != s->expected_tid || t.crc != s->crc)
				return stop(s, RECOVER_FC_END_TAIL);
			s->valid = s->tags;
			s->valid_blocks = s->blocks;
			s->commits++;
			s->crc = 0;
		} else {
			s->crc = crc32c_update(s->crc, blk + pos,
					       FC_TL_SIZE + t.len);
		}
		pos += FC_TL_SIZE + t.len;
	}
	return 1;
}

errcode_t fc_scan_verdict(const struct fc_scan *s, enum recover_fc_state *state)
{
	switch (s->end) {
	case RECOVER_FC_END_NONE:
	case RECOVER_FC_END_NO_HEAD:
		*state = RECOVER_FC_EMPTY;
		return 0;
	case RECOVER_FC_END_HEAD_TID:
	case RECOVER_FC_END_TAIL:
	case RECOVER_FC_END_BAD_TAG:
		if (s->valid) {
			*state = RECOVER_FC_LIVE;
			return 0;
		}
		if (s->end == RECOVER_FC_END_HEAD_TID) {
			*state = RECOVER_FC_EMPTY;
			return 0;
		}
		break;
	case RECOVER_FC_END_FEATURES:
	case RECOVER_FC_END_AREA:
	case RECOVER_FC_END_READ:
		break;
	}
	*state = RECOVER_FC_CORRUPT;
	return 0;
}

/* ---- the area of this journal ----------------------------------------- */

struct fc_walk {
	const struct pass_log *pl;
	struct fc_result *res;
	uint32_t	jblk;
};

static int emit_tag(void *data, const struct fc_tag *t, int valid)
{
	struct fc_walk *w = data;
	struct notify *n = w->pl->notify;
	struct recover_event ev;

	notify_event_init(&ev, RECOVER_EV_FC_TAG,
			  (t->tag == FC_TAG_HEAD || t->tag == FC_TAG_TAIL) ?
			  t->tid : w->res->tid, w->jblk);
	ev.fc_tag = t->tag;
	ev.ino = t->ino;
	ev.parent = t->parent;
	ev.lblk = t->lblk;
	ev.fsblock = t->pblk;
	ev.count = t->count;
	ev.unwritten = t->unwritten;
	ev.features = t->features;
	ev.name = (const char *)t->name;
	ev.name_len = t->name_len;
	ev.replayed = valid;
	return n->event(n->event_data, &ev);
}

static errcode_t emit_simple(const struct fc_walk *w,
			     enum recover_event_type type, uint64_t jblock,
			     uint64_t count)
{
	struct recover_event ev;

	notify_event_init(&ev, type, w->res->tid, jblock);
	ev.count = count;
	ev.fc_end = w->res->end;
	return notify_event_send(w->pl->notify, &ev);
}

/*
 * The start of a walk over the fast-commit area: the scan set up for the
 * transaction tid, its first limit records called valid (the count an
 * earlier walk found), and a buffer of one block to read the area into,
 * which the caller frees (NULL: no memory).
 */
unsigned char *fc_area_begin(const struct jsuper *sb, unsigned int inode_size,
			     struct fc_scan *s, uint32_t tid,
			     unsigned long long limit)
{
	unsigned char *buf = malloc(sb->pub.blocksize);

	if (!buf)
		return NULL;
	fc_scan_init(s, tid, sb->pub.blocksize, inode_size);
	s->limit = limit;
	return buf;
}

/*
 * One walk over the area: with limit set (the valid count of an earlier
 * walk) every record the scan looks at goes to recover_walk()'s callback.
 */
static errcode_t walk_area(struct fc_walk *w, unsigned int inode_size,
			   struct fc_scan *s, unsigned long long limit,
			   int events)
{
	const struct jsuper *sb = w->pl->sb;
	unsigned char *buf;
	uint32_t blk;
	errcode_t err = 0;

	buf = fc_area_begin(sb, inode_size, s, w->res->tid, limit);
	if (!buf)
		return ENOMEM;
	/* The kernel's first fast-commit block is one past the log's end. */
	for (blk = sb->last + 1; ; blk++) {
		if (blk >= sb->pub.maxlen) {
			/*
			 * The kernel reads on to block s_maxlen, which is not
			 * in the journal: its recovery fails there.
			 */
			s->end = RECOVER_FC_END_AREA;
			s->end_off = 0;
			break;
		}
		err = source_read(w->pl->src, blk, 1, buf);
		if (err) {
			err = 0;
			s->end = RECOVER_FC_END_READ;
			s->end_off = 0;
			break;
		}
		w->jblk = blk;
		/* A block the scan reads records from. */
		if (events &&
		    (s->blocks || fc_starts_with_head(buf))) {
			err = emit_simple(w, RECOVER_EV_FC_BLOCK, blk, 0);
			if (err)
				break;
		}
		if (!fc_scan_block(s, buf, events ? emit_tag : NULL, w))
			break;
	}
	w->res->end_at = blk;
	free(buf);
	return err;
}

errcode_t fc_scan_area(const struct pass_log *pl, unsigned int inode_size,
		       uint32_t end_tid, struct fc_result *res)
{
	const struct jsuper *sb = pl->sb;
	struct fc_walk w = { .pl = pl, .res = res };
	struct fc_scan s;
	errcode_t err;

	if (!(sb->pub.feature_incompat & JBD2_FEATURE_INCOMPAT_FAST_COMMIT) ||
	    !sb->pub.num_fc_blocks || !sb->pub.start)
		return 0;
	res->tid = end_tid;
	err = walk_area(&w, inode_size, &s, 0, 0);
	if (err)
		return err;
	res->end = s.end;
	err = fc_scan_verdict(&s, &res->state);
	if (err)
		return err;
	res->tags = s.valid;
	res->blocks = s.valid_blocks;
	res->commits = s.commits;
	if (pl->notify->event) {
		struct fc_scan again;

		err = walk_area(&w, inode_size, &again, s.valid, 1);
		if (!err && again.interrupted)
			err = RECOVER_ET_INTERRUPTED;
		if (!err)
			err = emit_simple(&w, RECOVER_EV_FC_END, res->end_at,
					  s.valid);
	}
	return err;
}
