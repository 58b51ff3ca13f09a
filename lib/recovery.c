/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recovery.c -- the passes, with the kernel's (and e2fsck's) semantics.
 *
 * SCAN walks the log once from s_start, in large sequential reads: it finds
 * the last transaction with a valid commit block, keeps every tag, and
 * (by default) applies each committed transaction's revoke records as soon
 * as its commit block is seen.  A record can only cancel copies logged at
 * its own tid or earlier, and all of those are known by then, so records
 * naming a block the log never logged are dropped on the spot: the revoke
 * table holds one entry per logged block, whatever the revoke count.
 *
 * With RECOVER_FL_FULL_REVOKE a separate REVOKE pass re-reads the revoke
 * blocks of the committed transactions into a table holding every record,
 * presized from the count SCAN saw.
 *
 * REPLAY writes, in log order, every logged copy whose transaction is
 * replayed, that no revoke record cancels, and whose data checksum holds.
 *
 * Block reads per pass: SCAN reads each descriptor, revoke and commit block
 * once (data blocks only when COMPAT_CHECKSUM needs them, or when they
 * share a read-ahead chunk); REVOKE (full table only) re-reads the revoke
 * blocks; REPLAY reads each replayed data block once.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"

#define PROGRESS_EVERY	64

/* The revoke records of the transaction being scanned, until its commit. */
struct pending {
	uint64_t	*blk;
	size_t		n, cap;
};

struct scan {
	struct recover_struct *r;
	struct jreader	rd;
	struct pending	pend;
	uint32_t	blk;		/* next log block */
	uint32_t	tid;		/* tid expected next */
	uint32_t	crc32_sum;	/* COMPAT_CHECKSUM, per transaction */
	int		need_check_commit_time;
	uint64_t	last_commit_time;
	int		end_set;
	size_t		txn_tags;	/* tags[] index where this txn starts */
	size_t		txn_revoke_at;	/* revoke_at[] index, likewise */
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
};

/* Tell the caller how far a pass is (at most every PROGRESS_EVERY units,
 * and at its end); it may ask to stop.  A multi-mount protection block
 * held is rewritten here when its interval has passed. */
errcode_t recovery_progress(struct recover_struct *r, enum recover_pass pass,
			    unsigned long long done, unsigned long long total)
{
	errcode_t err;

	if (done < r->progress_next && done != total)
		return 0;
	r->progress_next = done + PROGRESS_EVERY;
	/* Also where a long scan or replay keeps its MMP block fresh. */
	err = mmp_update(r);
	if (err)
		return err;
	if (!r->opts.progress)
		return 0;
	if (r->opts.progress(r->opts.progress_data, pass, done, total))
		return RECOVER_ET_INTERRUPTED;
	return 0;
}

/* Make room for need elements of size bytes in the array *p of *cap. */
errcode_t recovery_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static errcode_t add_tag(struct scan *s, const struct jbd2_tag *tag,
			 uint32_t jblk)
{
	struct recover_struct *r = s->r;
	struct jtag *t;
	errcode_t err;

	err = recovery_grow((void **)&r->tags, &r->tags_cap, r->ntags + 1,
			    sizeof(*r->tags));
	if (err)
		return err;
	t = &r->tags[r->ntags++];
	t->fsblk = tag->blocknr;
	t->jblk = jblk;
	t->tid = s->tid;
	t->csum = tag->csum;
	t->flags = tag->flags;

	if (!(r->opts.flags & RECOVER_FL_FULL_REVOKE)) {
		uint32_t *slot;
		int added;

		/*
		 * tid - 1 reads as "no revoke": a record cancels a copy at T
		 * only when its tid is T or later, and any record that could
		 * cancel one of this block's copies will raise the value.
		 */
		err = rtable_add(&r->rt, tag->blocknr, s->tid - 1, &slot,
				 &added);
	}
	return err;
}

static void set_error(struct recover_struct *r, errcode_t err, uint32_t jblk,
		      uint64_t fsblk, uint32_t tid)
{
	r->st.error = err;
	r->st.error_at.jblock = jblk;
	r->st.error_at.fsblock = fsblk;
	r->st.error_at.tid = tid;
}

/* A descriptor or revoke block failed its checksum: judged at the commit. */
static void bad_block_csum(struct scan *s, uint32_t at)
{
	if (!s->need_check_commit_time)
		s->bad_block_csum_at = at;
	s->need_check_commit_time = 1;
}

/* Hand one event to recover_walk()'s callback. */
static errcode_t emit(struct scan *s, enum recover_event_type type,
		      uint64_t jblock, uint64_t fsblock, uint64_t count,
		      unsigned int flags)
{
	struct recover_struct *r = s->r;
	struct recover_event ev;

	if (!r->event)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	ev.type = type;
	ev.tid = s->tid;
	ev.jblock = jblock;
	ev.fsblock = fsblock;
	ev.count = count;
	ev.flags = flags;
	return r->event(r->event_data, &ev) ? RECOVER_ET_INTERRUPTED : 0;
}

static errcode_t emit_descriptor(struct scan *s, const unsigned char *blk,
				 uint32_t at)
{
	const struct jsuper *sb = &s->r->sb;
	struct jbd2_tag tag;
	unsigned int pos = 0;
	uint64_t n = 0;
	uint32_t j = s->blk;
	errcode_t err;

	if (!s->r->event)
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
	struct recover_struct *r = s->r;
	const struct jsuper *sb = &r->sb;
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
			err = jreader_get(&s->rd, s->blk, &data);
			if (err) {
				s->stop = err;
				return 0;
			}
			s->crc32_sum = ext2fs_crc32_be(s->crc32_sum, data,
						       sb->pub.blocksize);
		}
		s->blk = jbd2_log_next(sb, s->blk);
		s->txn_blocks++;
		r->st.log_blocks++;
	}
	return 0;
}

static errcode_t scan_revoke(struct scan *s, const unsigned char *blk,
			     uint32_t at)
{
	struct recover_struct *r = s->r;
	const struct jsuper *sb = &r->sb;
	unsigned int end, nrec, i;
	uint64_t *p;
	errcode_t err;

	s->txn_revoke_blocks++;
	if (!jbd2_block_csum_ok(sb, blk))
		bad_block_csum(s, at);
	err = jbd2_revoke_extent(sb, blk, &end);
	if (err) {
		/* Only an error if this transaction turns out committed. */
		if (!s->txn_revoke_err)
			s->txn_revoke_err_at = at;
		s->txn_revoke_err = err;
		return 0;
	}
	nrec = end > REVOKE_HDR_SIZE ? (end - REVOKE_HDR_SIZE) / sb->revoke_rec : 0;
	s->txn_revoke_records += nrec;
	if (r->event) {
		err = emit(s, RECOVER_EV_REVOKE_BLOCK, at, 0, nrec, 0);
		for (i = 0; !err && i < nrec; i++)
			err = emit(s, RECOVER_EV_REVOKE, at,
				   jbd2_revoke_record(sb, blk, REVOKE_HDR_SIZE +
						      i * sb->revoke_rec), 0, 0);
		if (err)
			return err;
	}

	if (r->opts.flags & RECOVER_FL_FULL_REVOKE) {
		err = recovery_grow((void **)&r->revoke_at, &r->revoke_at_cap,
				    r->nrevoke_at + 1, sizeof(*r->revoke_at));
		if (err)
			return err;
		r->revoke_at[r->nrevoke_at++] = at;
		return 0;
	}
	if (!nrec)
		return 0;
	err = recovery_grow((void **)&s->pend.blk, &s->pend.cap,
			    s->pend.n + nrec, sizeof(*s->pend.blk));
	if (err)
		return err;
	p = s->pend.blk + s->pend.n;
	s->pend.n += nrec;
	if (sb->revoke_rec == 8)
		for (i = 0; i < nrec; i++)
			p[i] = get_be64(blk + REVOKE_HDR_SIZE + 8 * i);
	else
		for (i = 0; i < nrec; i++)
			p[i] = get_be32(blk + REVOKE_HDR_SIZE + 4 * i);
	return 0;
}

/* The transaction s->tid has a good commit block and is replayed. */
static errcode_t commit_txn(struct scan *s)
{
	struct recover_struct *r = s->r;
	size_t i;

	if (s->txn_revoke_err) {
		set_error(r, s->txn_revoke_err, s->txn_revoke_err_at, 0, s->tid);
		return 0;
	}
	for (i = 0; i < s->pend.n; i++) {
		uint32_t *v = rtable_find(&r->rt, s->pend.blk[i]);

		if (v && tid_gt(s->tid, *v))
			*v = s->tid;
	}
	r->st.transactions++;
	r->st.revoke_records += s->txn_revoke_records;
	r->st.descriptor_blocks += s->txn_descriptors;
	r->st.revoke_blocks += s->txn_revoke_blocks;
	r->st.logged_blocks += r->ntags - s->txn_tags;
	s->txn_tags = r->ntags;
	s->txn_revoke_at = r->nrevoke_at;
	return 0;
}

/* Forget what the transaction being scanned added: it is not replayed. */
static void drop_txn(struct scan *s)
{
	s->r->ntags = s->txn_tags;
	s->r->nrevoke_at = s->txn_revoke_at;
}

static void next_txn(struct scan *s)
{
	s->pend.n = 0;
	s->txn_revoke_records = 0;
	s->txn_descriptors = 0;
	s->txn_revoke_blocks = 0;
	s->txn_revoke_err = 0;
	s->txn_blocks = 0;
	s->txn_tags = s->r->ntags;
	s->txn_revoke_at = s->r->nrevoke_at;
	s->tid++;
}

/*
 * A commit block.  Returns 1 to go on scanning, 0 to stop.  Mirrors the
 * kernel's order of checks: a checksum failure seen earlier in this
 * transaction is judged by the commit time (older: stale blocks from a
 * previous use of the journal, the log ends; otherwise the journal is
 * corrupt), then COMPAT_CHECKSUM, then the v2/v3 commit checksum.
 */
static void failed_commit(struct scan *s, uint32_t tid, uint32_t at)
{
	s->r->st.failed_commit = 1;
	s->r->st.failed_tid = tid;
	s->r->st.failed_at.jblock = at;
	s->r->st.failed_at.tid = tid;
}

static int scan_commit(struct scan *s, const unsigned char *blk,
		       const struct jbd2_commit *c, uint32_t at)
{
	struct recover_struct *r = s->r;
	const struct jsuper *sb = &r->sb;
	uint64_t commit_time = c->sec;
	int bad = 0;

	if (s->need_check_commit_time) {
		if (commit_time >= s->last_commit_time) {
			set_error(r, RECOVER_ET_BAD_CSUM_TXN,
				  s->bad_block_csum_at, 0, s->tid);
			r->st.end_reason = RECOVER_END_ERROR;
			return 0;
		}
		r->st.end_reason = RECOVER_END_STALE;
		return 0;
	}
	if (sb->csum_v1) {
		if (s->end_set) {
			failed_commit(s, r->st.end_tid, at);
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
			r->st.end_reason = RECOVER_END_STALE;
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
			r->st.end_tid = s->tid;
		}
		if (!sb->async_commit) {
			r->st.end_reason = RECOVER_END_COMMIT_CSUM;
			if (s->tid != 0)
				failed_commit(s, s->tid, at);
			return 0;
		}
		if (s->end_set)
			r->st.end_reason = RECOVER_END_COMMIT_CSUM;
	}
	s->last_commit_time = commit_time;
	return 1;
}

static errcode_t emit_commit(struct scan *s, const struct jbd2_commit *c,
			     uint32_t at, int replayed)
{
	struct recover_struct *r = s->r;
	struct recover_event ev;

	if (!r->event)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	ev.type = RECOVER_EV_COMMIT;
	ev.tid = s->tid;
	ev.jblock = at;
	ev.commit_sec = c->sec;
	ev.commit_nsec = c->nsec;
	ev.replayed = replayed;
	return r->event(r->event_data, &ev) ? RECOVER_ET_INTERRUPTED : 0;
}

/*
 * The dump file ends inside the log: where the scan stopped may lie well
 * past its end (a descriptor's data blocks are skipped, not read), so the
 * place reported is the dump's end itself.
 */
static void truncated(struct scan *s)
{
	s->r->st.end_reason = RECOVER_END_TRUNCATED;
	s->r->st.end_at.jblock = s->r->src.blocks;
}

static errcode_t scan_log(struct scan *s)
{
	struct recover_struct *r = s->r;
	const struct jsuper *sb = &r->sb;
	const unsigned char *blk;
	errcode_t err;
	uint32_t type, at;

	for (;;) {
		if (s->txn_blocks > s->log_len) {
			set_error(r, RECOVER_ET_LOG_LOOP, s->blk, 0, s->tid);
			return RECOVER_ET_LOG_LOOP;
		}
		err = recovery_progress(r, RECOVER_PASS_SCAN, r->st.log_blocks,
					s->log_len);
		if (err)
			return err;
		r->st.end_at.jblock = s->blk;
		r->st.end_at.tid = s->tid;
		err = jreader_get(&s->rd, s->blk, &blk);
		if (err == RECOVER_ET_DUMP_END) {
			truncated(s);
			return 0;
		}
		if (err) {
			/* An unreadable log block fails recovery, as in e2fsck. */
			set_error(r, RECOVER_ET_LOG_IO, s->blk, 0, s->tid);
			r->st.end_reason = RECOVER_END_ERROR;
			return 0;
		}
		if (get_be32(blk + JBD2_HDR_MAGIC) != JBD2_MAGIC) {
			r->st.end_reason = RECOVER_END_NO_MAGIC;
			return 0;
		}
		if (get_be32(blk + JBD2_HDR_SEQUENCE) != s->tid) {
			r->st.end_reason = RECOVER_END_SEQUENCE;
			return 0;
		}
		at = s->blk;
		s->blk = jbd2_log_next(sb, s->blk);
		s->txn_blocks++;
		r->st.log_blocks++;
		type = get_be32(blk + JBD2_HDR_BLOCKTYPE);
		switch (type) {
		case JBD2_DESCRIPTOR_BLOCK:
			err = scan_descriptor(s, blk, at);
			if (err)
				return err;
			if (s->stop) {
				r->st.end_at.jblock = s->blk;
				r->st.end_reason = RECOVER_END_READ;
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
				   !r->st.error;
			err = emit_commit(s, &c, at, replayed);
			if (err)
				return err;
			if (!go_on)
				return 0;
			if (replayed) {
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
			r->st.end_reason = RECOVER_END_BLOCKTYPE;
			return 0;
		}
	}
}

/* The REVOKE pass of RECOVER_FL_FULL_REVOKE: every record into the table. */
static errcode_t revoke_pass(struct recover_struct *r, struct jreader *rd)
{
	const struct jsuper *sb = &r->sb;
	const unsigned char *blk;
	unsigned int off, end;
	size_t i;
	errcode_t err;

	r->progress_next = 0;
	rtable_free(&r->rt);
	err = rtable_init(&r->rt, r->st.revoke_records);
	if (err)
		return err;
	for (i = 0; i < r->nrevoke_at; i++) {
		err = recovery_progress(r, RECOVER_PASS_REVOKE, i + 1,
					r->nrevoke_at);
		if (err)
			return err;
		err = jreader_get(rd, r->revoke_at[i], &blk);
		if (err)
			return err;
		err = jbd2_revoke_extent(sb, blk, &end);
		if (err)
			return err;
		for (off = REVOKE_HDR_SIZE; off + sb->revoke_rec <= end;
		     off += sb->revoke_rec) {
			err = rtable_revoke(&r->rt, jbd2_revoke_record(sb, blk, off),
					    get_be32(blk + JBD2_HDR_SEQUENCE));
			if (err)
				return err;
		}
	}
	return 0;
}

errcode_t recovery_scan(struct recover_struct *r)
{
	struct scan s;
	errcode_t err;

	memset(&s, 0, sizeof(s));
	s.r = r;
	r->st.first_tid = r->sb.pub.sequence;
	r->st.end_tid = r->sb.pub.sequence;
	if (!r->sb.pub.start) {
		r->scanned = 1;
		return 0;
	}
	s.blk = r->sb.pub.start;
	s.tid = r->sb.pub.sequence;
	s.crc32_sum = ~0U;
	s.log_len = r->sb.last - r->sb.pub.first;
	r->progress_next = 0;
	if (!(r->opts.flags & RECOVER_FL_FULL_REVOKE)) {
		err = rtable_use_filter(&r->rt);
		if (err)
			return err;
	}
	s.desc = malloc(r->sb.pub.blocksize);
	if (!s.desc)
		return ENOMEM;
	err = jreader_init(&s.rd, &r->src, r->sb.last);
	if (err)
		goto out;
	err = scan_log(&s);
	if (!err)
		err = recovery_progress(r, RECOVER_PASS_SCAN, r->st.log_blocks,
					r->st.log_blocks);
	if (err)
		goto out;
	/* Tags and revoke blocks past the last replayed transaction go. */
	drop_txn(&s);
	if (!s.end_set)
		r->st.end_tid = s.tid;
	/* The kernel reads the fast-commit area after the log's end is known. */
	err = fc_scan_area(r);
	if (err)
		goto out;
	if (!r->st.error && (r->opts.flags & RECOVER_FL_FULL_REVOKE))
		err = revoke_pass(r, &s.rd);
	/* recover_walk(): the fates, once final, then the end. */
	if (!err)
		err = recovery_plan(r, &s.rd);
	if (!err && r->event) {
		struct recover_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		ev.type = RECOVER_EV_END;
		ev.tid = r->st.end_at.tid;
		ev.jblock = r->st.end_at.jblock;
		ev.end = r->st.end_reason;
		if (r->event(r->event_data, &ev))
			err = RECOVER_ET_INTERRUPTED;
	}
	r->st.revoke_kept = rtable_count(&r->rt);
	r->st.table_bytes = rtable_bytes(&r->rt);
	r->scanned = 1;
out:
	free(s.pend.blk);
	free(s.desc);
	jreader_free(&s.rd);
	return err;
}

/* Tags naming a block past the filesystem's end are refused up front. */
static errcode_t check_tags(struct recover_struct *r)
{
	blk64_t end = ext2fs_blocks_count(r->fs->super);
	const struct jtag *t;
	size_t i;

	for (i = 0; i < r->ntags; i++) {
		t = &r->tags[i];
		if (t->fsblk >= end && !recovery_revoked(r, t)) {
			set_error(r, RECOVER_ET_TAG_PAST_END, t->jblk, t->fsblk,
				  t->tid);
			return RECOVER_ET_TAG_PAST_END;
		}
	}
	return 0;
}

errcode_t recovery_replay(struct recover_struct *r)
{
	const struct jsuper *sb = &r->sb;
	const unsigned char *data;
	struct jreader rd;
	struct target t;
	size_t i;
	errcode_t err;

	err = check_tags(r);
	if (err)
		return err;
	/* Before any logged block: one of them may hold the inode's table. */
	if (!(r->opts.flags & RECOVER_FL_DRY_RUN)) {
		err = recovery_restore_inode(r);
		if (err)
			return err;
	}
	r->progress_next = 0;
	err = jreader_init(&rd, &r->src, sb->last);
	if (err)
		return err;
	err = target_init(&t, r->fs->io, sb->pub.blocksize,
			  !!(r->opts.flags & RECOVER_FL_DRY_RUN));
	if (err)
		goto out;
	for (i = 0; i < r->ntags; i++) {
		const struct jtag *tag = &r->tags[i];

		err = recovery_progress(r, RECOVER_PASS_REPLAY, i + 1, r->ntags);
		if (err)
			goto out;
		if (recovery_revoked(r, tag)) {
			r->st.revoked++;
			continue;
		}
		err = jreader_get(&rd, tag->jblk, &data);
		if (err) {
			/* As the kernel does: go on, report at the end. */
			if (!r->st.error)
				set_error(r, RECOVER_ET_LOG_IO, tag->jblk,
					  tag->fsblk, tag->tid);
			continue;
		}
		if (!jbd2_data_csum_ok(sb, tag->tid, data, tag->csum)) {
			if (!r->st.bad_csum++) {
				r->st.bad_csum_at.jblock = tag->jblk;
				r->st.bad_csum_at.fsblock = tag->fsblk;
				r->st.bad_csum_at.tid = tag->tid;
			}
			continue;
		}
		err = target_write(&t, tag->fsblk, data,
				   tag->flags & JBD2_FLAG_ESCAPE);
		if (err)
			goto out;
		r->st.replayed++;
	}
	err = target_flush(&t);
out:
	r->st.written_bytes = t.written_bytes;
	r->st.read_bytes = r->src.read_bytes;
	target_free(&t);
	jreader_free(&rd);
	return err;
}
