/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pass_scan.c -- the SCAN pass, with the kernel's (and e2fsck's) semantics.
 *
 * SCAN walks the log once from s_start, reading only what it needs: it finds
 * the last transaction with a valid commit block, keeps every tag, and hands
 * every tag and revoke block to the revoke strategy (revoke.c: by default
 * a table of the logged blocks that each committed transaction's records
 * update at its commit; with RECOVER_FL_FULL_REVOKE every record, read in
 * a REVOKE pass of its own once the log's end is known).
 *
 * REPLAY (pass_replay.c) writes each block once: its last logged copy that no
 * revoke record cancels and whose data checksum holds, which is what
 * writing every such copy in log order (as e2fsck and the kernel do)
 * leaves; in ascending block order, consecutive blocks in one write.
 *
 * Journal block reads per run (the journal superblock is read at open):
 *   SCAN reads each descriptor, revoke and commit block once, and the block
 *     where the log ends; data blocks only with COMPAT_CHECKSUM, whose sum
 *     covers them.  Its reads take the blocks up to the next data blocks
 *     as one request when it can tell where they are (scan_ahead()); a
 *     guess that runs long reads some data blocks the replay reads again.
 *   REVOKE (RECOVER_FL_FULL_REVOKE only) reads the revoke blocks again.
 *   REPLAY reads each copy it needs once, consecutive ones in one request:
 *     the copy it writes of each block; with data checksums (v2/v3) every
 *     copy no revoke record cancels, each checksum counting as in e2fsck;
 *     a copy that fails gives way to the block's copy before it, read
 *     then, on its own, and not again.
 *   recover_walk()'s fates (pass_plan.c) read every copy no revoke record
 *     cancels, once (pass_replay_read_copy()).
 * While SCAN walks the log, the read-ahead thread (readahead.c) hints the
 * kernel to read the log ahead of it into the page cache, through a
 * descriptor of its own: a hint, not a read of the library's.  The io
 * channel is still asked for each block above at most once, and with or
 * without the thread (RECOVER_FL_NO_READAHEAD) for the same blocks.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass_scan.h"
#include "array.h"
#include "readahead.h"

struct scan {
	const struct pass_log *pl;
	struct scan_result *res;
	struct jreader	*rd;		/* the caller's, kept for the passes after */
	uint32_t	blk;		/* next log block */
	uint32_t	tid;		/* tid expected next */
	uint32_t	crc32_sum;	/* COMPAT_CHECKSUM, per transaction */
	int		need_check_commit_time;
	uint64_t	last_commit_time;
	int		end_set;
	size_t		txn_tags;	/* tags[] index where this txn starts */
	unsigned long long txn_revoke_records;
	unsigned long long txn_descriptors;
	unsigned long long txn_revoke_blocks;
	errcode_t	txn_revoke_err;	/* a bad r_count in this transaction */
	uint32_t	txn_revoke_err_at;
	uint32_t	bad_block_csum_at; /* first descriptor/revoke failing its
					    * checksum in this transaction */
	unsigned long long txn_blocks;	/* blocks walked in this txn */
	errcode_t	stop;		/* end the scan at this transaction */
	unsigned char	*desc;		/* copy of the descriptor being summed */
	unsigned long long log_len;
	unsigned int	run;		/* blocks of the current header run */
	unsigned int	last_run;	/* ...and of the previous one */
	struct readahead *ra;		/* the page cache filled ahead */
};

/*
 * How many blocks to read from s->blk when it is not in the window.  The
 * scan needs the descriptor, revoke and commit blocks, not the data blocks
 * after a descriptor (unless COMPAT_CHECKSUM sums them): a read that runs
 * past a descriptor reads data blocks the replay reads again.  The blocks
 * between two descriptors' data (the revoke blocks, a commit, the next
 * descriptor) form a run; transactions tend to look alike, so a read at
 * the start of a run takes as many blocks as the previous run had, and a
 * run that turns out longer doubles the read.
 */
static unsigned int scan_ahead(struct scan *s)
{
	const struct jreader *rd = s->rd;

	if (s->pl->sb->csum_v1)
		return rd->cap;
	if (rd->count && s->blk == rd->start + rd->count)
		return 2 * rd->count;
	s->run = 0;
	return s->last_run ? s->last_run : 1;
}

static errcode_t add_tag(struct scan *s, const struct jbd2_tag *tag,
			 uint32_t jblk)
{
	struct jtags *tags = s->pl->tags;
	struct jtag *t;
	errcode_t err;

	err = array_grow((void **)&tags->v, &tags->cap, tags->n + 1,
			 sizeof(*tags->v));
	if (err)
		return err;
	t = &tags->v[tags->n++];
	t->fsblk = tag->blocknr;
	t->jblk = jblk;
	t->tid = s->tid;
	t->csum = tag->csum;
	t->flags = tag->flags;
	return revoke_logged(s->pl->revoke, tag->blocknr, s->tid);
}

static void set_error(struct scan_result *res, errcode_t err, uint32_t jblk,
		      uint64_t fsblk, uint32_t tid)
{
	res->error = err;
	res->error_at.jblock = jblk;
	res->error_at.fsblock = fsblk;
	res->error_at.tid = tid;
}

/* A descriptor or revoke block failed its checksum: judged at the commit. */
static void bad_block_csum(struct scan *s, uint32_t at)
{
	if (!s->need_check_commit_time)
		s->bad_block_csum_at = at;
	s->need_check_commit_time = 1;
}

static errcode_t emit(struct scan *s, enum recover_event_type type,
		      uint64_t jblock, uint64_t fsblock, uint64_t count,
		      unsigned int flags)
{
	struct recover_event ev;

	if (!s->pl->notify->event)
		return 0;
	notify_event_init(&ev, type, s->tid, jblock);
	ev.fsblock = fsblock;
	ev.count = count;
	ev.flags = flags;
	return notify_event_send(s->pl->notify, &ev);
}

static errcode_t emit_descriptor(struct scan *s, const unsigned char *blk,
				 uint32_t at)
{
	const struct jsuper *sb = s->pl->sb;
	struct jbd2_tag tag;
	unsigned int pos = 0;
	uint64_t n = 0;
	uint32_t j = s->blk;
	errcode_t err;

	if (!s->pl->notify->event)
		return 0;
	while (jbd2_next_tag(sb, blk, &pos, &tag))
		n++;
	err = emit(s, RECOVER_EV_DESCRIPTOR, at, 0, n, 0);
	pos = 0;
	while (!err && jbd2_next_tag(sb, blk, &pos, &tag)) {
		err = emit(s, RECOVER_EV_TAG, j, tag.blocknr, 0, tag.flags);
		j = jbd2_log_next(sb, j);
	}
	return err;
}

static errcode_t scan_descriptor(struct scan *s, const unsigned char *blk,
				 uint32_t at)
{
	struct scan_result *res = s->res;
	const struct jsuper *sb = s->pl->sb;
	const unsigned char *data;
	struct jbd2_tag tag;
	unsigned int pos = 0;
	int sum = 0;
	errcode_t err;

	s->txn_descriptors++;
	if (!jbd2_block_csum_ok(sb, blk))
		bad_block_csum(s, at);
	err = emit_descriptor(s, blk, at);
	if (err)
		return err;
	/* COMPAT_CHECKSUM covers descriptors and data, as stored in the log. */
	if (sb->csum_v1 && !s->need_check_commit_time && !s->end_set) {
		s->crc32_sum = ext2fs_crc32_be(s->crc32_sum, blk,
					       sb->pub.blocksize);
		/* Reading the data may move the window under blk. */
		memcpy(s->desc, blk, sb->pub.blocksize);
		blk = s->desc;
		sum = 1;
	}
	while (jbd2_next_tag(sb, blk, &pos, &tag)) {
		err = add_tag(s, &tag, s->blk);
		if (err)
			return err;
		if (sum) {
			/* The kernel ends the scan where it cannot read. */
			err = source_reader_get(s->rd, s->blk, &data);
			if (err) {
				s->stop = err;
				return 0;
			}
			s->crc32_sum = ext2fs_crc32_be(s->crc32_sum, data,
						       sb->pub.blocksize);
		}
		s->blk = jbd2_log_next(sb, s->blk);
		s->txn_blocks++;
		res->log_blocks++;
	}
	return 0;
}

static errcode_t scan_revoke(struct scan *s, const unsigned char *blk,
			     uint32_t at)
{
	const struct jsuper *sb = s->pl->sb;
	struct jbd2_revoke_iter it;
	unsigned int nrec;
	uint64_t blocknr;
	errcode_t err;

	s->txn_revoke_blocks++;
	if (!jbd2_block_csum_ok(sb, blk))
		bad_block_csum(s, at);
	err = jbd2_revoke_begin(sb, blk, &it);
	if (err) {
		/* Only an error if this transaction turns out committed. */
		if (!s->txn_revoke_err)
			s->txn_revoke_err_at = at;
		s->txn_revoke_err = err;
		return 0;
	}
	nrec = jbd2_revoke_count(&it);
	s->txn_revoke_records += nrec;
	if (s->pl->notify->event) {
		struct jbd2_revoke_iter each = it;

		err = emit(s, RECOVER_EV_REVOKE_BLOCK, at, 0, nrec, 0);
		while (!err && jbd2_revoke_next(&each, &blocknr))
			err = emit(s, RECOVER_EV_REVOKE, at, blocknr, 0, 0);
		if (err)
			return err;
	}
	return revoke_block(s->pl->revoke, &it, at);
}

/* The transaction s->tid has a good commit block and is replayed. */
static errcode_t commit_txn(struct scan *s)
{
	struct scan_result *res = s->res;

	if (s->txn_revoke_err) {
		set_error(res, s->txn_revoke_err, s->txn_revoke_err_at, 0, s->tid);
		revoke_drop(s->pl->revoke);
		return 0;
	}
	revoke_commit(s->pl->revoke, s->tid);
	res->transactions++;
	res->revoke_records += s->txn_revoke_records;
	res->descriptor_blocks += s->txn_descriptors;
	res->revoke_blocks += s->txn_revoke_blocks;
	res->logged_blocks += s->pl->tags->n - s->txn_tags;
	s->txn_tags = s->pl->tags->n;
	return 0;
}

/* Forget what the transaction being scanned added: it is not replayed. */
static void drop_txn(struct scan *s)
{
	s->pl->tags->n = s->txn_tags;
	revoke_drop(s->pl->revoke);
}

static void next_txn(struct scan *s)
{
	s->txn_revoke_records = 0;
	s->txn_descriptors = 0;
	s->txn_revoke_blocks = 0;
	s->txn_revoke_err = 0;
	s->txn_blocks = 0;
	s->txn_tags = s->pl->tags->n;
	s->tid++;
}

/*
 * Record a failed commit, as the kernel and e2fsck keep it
 * (j_failed_commit): transaction tid, seen at the commit block at.
 */
static void failed_commit(struct scan *s, uint32_t tid, uint32_t at)
{
	s->res->failed_commit = 1;
	s->res->failed_tid = tid;
	s->res->failed_at.jblock = at;
	s->res->failed_at.tid = tid;
}

/*
 * A commit block.  Returns 1 to go on scanning, 0 to stop.  Mirrors the
 * kernel's order of checks: a checksum failure seen earlier in this
 * transaction is judged by the commit time (older: stale blocks from a
 * previous use of the journal, the log ends; otherwise the journal is
 * corrupt), then COMPAT_CHECKSUM, then the v2/v3 commit checksum.
 */
static int scan_commit(struct scan *s, const unsigned char *blk,
		       const struct jbd2_commit *c, uint32_t at)
{
	struct scan_result *res = s->res;
	const struct jsuper *sb = s->pl->sb;
	uint64_t commit_time = c->sec;
	int bad = 0;

	if (s->need_check_commit_time) {
		if (commit_time >= s->last_commit_time) {
			set_error(res, RECOVER_ET_BAD_CSUM_TXN,
				  s->bad_block_csum_at, 0, s->tid);
			res->end_reason = RECOVER_END_ERROR;
			return 0;
		}
		res->end_reason = RECOVER_END_STALE;
		return 0;
	}
	if (sb->csum_v1) {
		if (s->end_set) {
			failed_commit(s, res->end_tid, at);
			return 0;
		}
		if (!((c->csum == s->crc32_sum &&
		       c->csum_type == JBD2_CRC32_CHKSUM &&
		       c->csum_size == JBD2_CRC32_CHKSUM_SIZE) ||
		      (c->csum_type == 0 && c->csum_size == 0 && c->csum == 0)))
			bad = 1;
		else
			s->crc32_sum = ~0U;
	}
	if (bad || !jbd2_commit_csum_ok(sb, blk)) {
		if (commit_time < s->last_commit_time) {
			res->end_reason = RECOVER_END_STALE;
			return 0;
		}
		/*
		 * The kernel and e2fsck keep both "where the log ends"
		 * (end_transaction) and "which commit failed" (j_failed_commit)
		 * as a tid with 0 meaning none.  A bad commit in transaction 0
		 * (a log that wrapped through 2^32) so sets neither: without
		 * ASYNC_COMMIT the log just ends there, no error is recorded
		 * and the filesystem is not marked; with it, the scan goes on
		 * and transaction 0 is replayed as if its commit were good.
		 */
		if (!s->end_set && s->tid != 0) {
			s->end_set = 1;
			res->end_tid = s->tid;
		}
		if (!sb->async_commit) {
			res->end_reason = RECOVER_END_COMMIT_CSUM;
			if (s->tid != 0)
				failed_commit(s, s->tid, at);
			return 0;
		}
		if (s->end_set)
			res->end_reason = RECOVER_END_COMMIT_CSUM;
	}
	s->last_commit_time = commit_time;
	return 1;
}

static errcode_t emit_commit(struct scan *s, const struct jbd2_commit *c,
			     uint32_t at, int replayed)
{
	struct recover_event ev;

	if (!s->pl->notify->event)
		return 0;
	notify_event_init(&ev, RECOVER_EV_COMMIT, s->tid, at);
	ev.commit_sec = c->sec;
	ev.commit_nsec = c->nsec;
	ev.replayed = replayed;
	return notify_event_send(s->pl->notify, &ev);
}

/*
 * The dump file ends inside the log: where the scan stopped may lie well
 * past its end (a descriptor's data blocks are skipped, not read), so the
 * place reported is the dump's end itself.
 */
static void truncated(struct scan *s)
{
	s->res->end_reason = RECOVER_END_TRUNCATED;
	s->res->end_at.jblock = s->pl->src->blocks;
}

static errcode_t scan_log(struct scan *s)
{
	struct scan_result *res = s->res;
	const struct jsuper *sb = s->pl->sb;
	const unsigned char *blk;
	errcode_t err;
	uint32_t type, at;

	for (;;) {
		if (s->txn_blocks > s->log_len) {
			set_error(res, RECOVER_ET_LOG_LOOP, s->blk, 0, s->tid);
			return RECOVER_ET_LOG_LOOP;
		}
		err = notify_progress(s->pl->notify, RECOVER_PASS_SCAN,
				      res->log_blocks, s->log_len);
		if (err)
			return err;
		res->end_at.jblock = s->blk;
		res->end_at.tid = s->tid;
		readahead_progress(s->ra, res->log_blocks);
		err = source_reader_fetch(s->rd, s->blk,
					  source_reader_holds(s->rd, s->blk) ?
					  0 : scan_ahead(s), &blk);
		if (err == RECOVER_ET_DUMP_END) {
			truncated(s);
			return 0;
		}
		if (err) {
			/* An unreadable log block fails recovery, as in e2fsck. */
			set_error(res, RECOVER_ET_LOG_IO, s->blk, 0, s->tid);
			res->end_reason = RECOVER_END_ERROR;
			return 0;
		}
		if (get_be32(blk + JBD2_HDR_MAGIC) != JBD2_MAGIC) {
			res->end_reason = RECOVER_END_NO_MAGIC;
			return 0;
		}
		if (get_be32(blk + JBD2_HDR_SEQUENCE) != s->tid) {
			res->end_reason = RECOVER_END_SEQUENCE;
			return 0;
		}
		at = s->blk;
		s->run++;
		s->blk = jbd2_log_next(sb, s->blk);
		s->txn_blocks++;
		res->log_blocks++;
		type = get_be32(blk + JBD2_HDR_BLOCKTYPE);
		switch (type) {
		case JBD2_DESCRIPTOR_BLOCK:
			err = scan_descriptor(s, blk, at);
			if (err)
				return err;
			/* Data blocks follow: the run ends here. */
			if (s->blk != jbd2_log_next(sb, at))
				s->last_run = s->run;
			if (s->stop) {
				res->end_at.jblock = s->blk;
				res->end_reason = RECOVER_END_READ;
				if (s->stop == RECOVER_ET_DUMP_END)
					truncated(s);
				return 0;
			}
			break;
		case JBD2_REVOKE_BLOCK:
			err = scan_revoke(s, blk, at);
			if (err)
				return err;
			break;
		case JBD2_COMMIT_BLOCK: {
			struct jbd2_commit c;
			int replayed = !s->end_set;
			int go_on;

			jbd2_decode_commit(blk, &c);
			go_on = scan_commit(s, blk, &c, at);
			replayed = replayed && go_on && !s->end_set &&
				   !res->error;
			err = emit_commit(s, &c, at, replayed);
			if (err)
				return err;
			if (!go_on)
				return 0;
			if (replayed) {
				if (c.sec > res->last_commit_sec)
					res->last_commit_sec = c.sec;
				err = commit_txn(s);
				if (err)
					return err;
			} else {
				drop_txn(s);
			}
			next_txn(s);
			break;
		}
		default:
			res->end_reason = RECOVER_END_BLOCKTYPE;
			return 0;
		}
	}
}

errcode_t pass_scan(const struct pass_log *pl, const struct scan_how *how,
		    struct jreader *rd, struct scan_result *res)
{
	const struct jsuper *sb = pl->sb;
	struct scan s;
	errcode_t err;

	memset(&s, 0, sizeof(s));
	s.pl = pl;
	s.res = res;
	res->first_tid = sb->pub.sequence;
	res->end_tid = sb->pub.sequence;
	if (!sb->pub.start)
		return 0;
	s.blk = sb->pub.start;
	s.tid = sb->pub.sequence;
	s.crc32_sum = ~0U;
	s.log_len = sb->last - sb->pub.first;
	pl->notify->progress_next = 0;
	err = revoke_init(pl->revoke, !!(how->flags & RECOVER_FL_FULL_REVOKE));
	if (err)
		return err;
	s.desc = malloc(sb->pub.blocksize);
	if (!s.desc)
		return ENOMEM;
	err = source_reader_init(rd, pl->src, sb->last);
	if (err)
		goto out;
	s.rd = rd;
	/* A hint only: not with RECOVER_FL_NO_READAHEAD. */
	if (!(how->flags & RECOVER_FL_NO_READAHEAD))
		s.ra = readahead_start(pl->src, sb, how->jsb_raw, how->jsb_len);
	err = scan_log(&s);
	if (!err)
		err = notify_progress(pl->notify, RECOVER_PASS_SCAN,
				      res->log_blocks, res->log_blocks);
	/* The log's end is known: the replay reads the blocks up to it. */
	res->readahead_blocks = readahead_stop(s.ra, err ? 0 :
					       res->log_blocks);
	if (err)
		goto out;
	/* Tags and revoke blocks past the last replayed transaction go. */
	drop_txn(&s);
	if (!s.end_set)
		res->end_tid = s.tid;
out:
	free(s.desc);
	return err;
}
