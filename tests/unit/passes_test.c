/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * passes_test.c -- unit tests of the passes, one group each: SCAN
 * (lib/pass_scan.c), the revoke strategy (lib/revoke.c), REPLAY
 * (lib/pass_replay.c) and the plan of recover_walk() (lib/pass_plan.c).
 *
 * The filesystem is held in memory (tests/lib/memio.c: 2 MiB, 1 KiB
 * blocks, metadata_csum, a 1024-block journal inode); each case starts
 * from its pristine copy and writes a small log into the journal inode
 * with the project's own writer (tests/lib/jw.c, which shares no code
 * with the reader), over the same in-memory channel, then sets
 * needs_recovery.  The logs are v2 superblocks with 64bit and csum v3;
 * the blocks logged are free blocks of the filesystem.  Journal block
 * numbers in the assertions are where jw places each block, counted by
 * hand in each case's comment.
 *
 * Which layer each case exercises:
 *   scan_tags, scan_bad_commit, scan_wrap, scan_tid_wrap
 *       pass_scan() called directly, given the journal of a handle from
 *       recover_open() (opts.io_manager = memio) as the lifecycle gives
 *       it (struct pass_log); the tags and the scan_result read back.
 *       scan_wrap also replays (recover_replay) to read the wrapped copies.
 *   revoke_direct
 *       revoke.c alone, default strategy, no handle: revoke_init,
 *       revoke_logged, revoke_block (a revoke block built here),
 *       revoke_commit, revoke_drop, revoke_cancels.
 *   revoke_log_default, revoke_log_full
 *       both strategies over one log through a handle (the full one's
 *       REVOKE pass, revoke_finish(), needs its journal reader):
 *       pass_scan() and revoke_finish() with the scan's reader, then
 *       revoke_cancels() on r->revoke per kept tag.
 *   replay_classify
 *       pass_replay_classify() directly, no handle: a struct pass_log whose tags
 *       are made here and whose revoke table is fed by revoke.c.
 *   replay_last_copy
 *       the REPLAY pass through recover_open() + recover_replay(); the
 *       blocks read back through a new memio channel.
 *   plan_fates
 *       pass_plan() through recover_walk(): the RECOVER_EV_FATE events.
 *
 * Each group was seen to fail with a deliberate break of its pass (made
 * by hand, not committed):
 *   SCAN    drop_txn() in pass_scan.c no longer resets the tags' count
 *           (the tags of a transaction without a good commit are kept):
 *           scan_tags fails at assert_int_equal(r->tags.n, 3) (4 != 3),
 *           and scan_bad_commit at assert_int_equal(r->tags.n, 1) (2 != 1).
 *   REVOKE  revoke_cancels() compares with tid_gt instead of tid_geq (a
 *           record of T no longer cancels a copy of T itself):
 *           revoke_direct fails at assert_true(cancels(&rv, 100, 6, 6)),
 *           revoke_log_default and revoke_log_full at
 *           assert_true(cancels(&r->revoke, X, 6, 6)).
 *   REPLAY  pass_replay_classify() keeps each block's first candidate instead
 *           of moving to the later one (the replay writes the first copy):
 *           replay_classify fails at assert_int_equal(prev[4], 2) (0 != 2),
 *           replay_last_copy at expect_block(X, 0x13, 0) (0x11 found);
 *           and write_batch() passing 0 for the escape flag: replay_last_copy
 *           fails at expect_block(E, 0x41, 1) (0x00 where the magic goes).
 *   PLAN    pass_plan.c emits a superseded copy as RECOVER_FATE_WRITTEN:
 *           plan_fates fails at expect_fate(e, 0, X, ...SUPERSEDED...)
 *           (fate 1 != 3).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "librecoverP.h"
#include "lifecycle.h"
#include "pass_replay.h"
#include "pass_scan.h"
#include "../lib/memio.h"
#include "../lib/jw.h"

#define FS_BYTES	(2U << 20)
#define FS_BS		1024U
#define JBLOCKS		1024U
#define NFREE		8

/* Free blocks of the pristine filesystem, the ones the logs log. */
static blk64_t free_blk[NFREE];

static errcode_t build_fs(void)
{
	struct ext2fs_journal_params jp = { .num_journal_blocks = JBLOCKS };
	ext2_filsys fs;
	blk64_t b;
	unsigned int n = 0;
	errcode_t err;

	err = memio_mkfs(128, 0, &jp, 0x3c, 5, &fs);
	if (err)
		return err;
	err = memio_map_journal(fs, JBLOCKS);
	/* From the end down: well away from the metadata and the journal. */
	for (b = ext2fs_blocks_count(fs->super) - 1;
	     !err && n < NFREE && b > fs->super->s_first_data_block; b--)
		if (!ext2fs_test_block_bitmap2(fs->block_map, b))
			free_blk[n++] = b;
	if (!err && n < NFREE)
		err = EXT2_ET_BLOCK_ALLOC_FAIL;
	return memio_close_fs(fs, err);
}

/* ---- writing a log with jw ---------------------------------------------- */

struct log {
	ext2_filsys	fs;
	struct jw_sink	sink;
	struct jw	w;
};

/* The pristine image; a log of tids from sequence, from journal block
 * start (-1: s_first). */
static void log_begin(struct log *l, uint32_t sequence, int64_t start)
{
	memio_reset();
	memset(l, 0, sizeof(*l));
	assert_int_equal(ext2fs_open2("memory", NULL, EXT2_FLAG_RW |
				      EXT2_FLAG_64BITS |
				      EXT2_FLAG_IGNORE_CSUM_ERRORS, 0, 0,
				      memio_manager, &l->fs), 0);
	assert_int_equal(jw_sink_open_internal(&l->sink, l->fs), 0);
	assert_int_equal(jw_init(&l->w, &l->sink,
				 ext2fs_blocks_count(l->fs->super), 0), 0);
	l->w.conf.sequence = sequence;
	l->w.conf.start = start;
	l->w.conf.incompat = JW_INCOMPAT_REVOKE | JW_INCOMPAT_64BIT |
			     JW_INCOMPAT_CSUM_V3;
	assert_int_equal(jw_start(&l->w), 0);
}

static void txn(struct log *l, uint32_t tid)
{
	assert_int_equal(jw_txn(&l->w, 1, tid), 0);
}

/* A copy of blk: every byte fill (the first four the magic when escaped,
 * stored zeroed); badcsum: its data tag checksum wrong. */
static void copy(struct log *l, blk64_t blk, int fill, int escape, int badcsum)
{
	struct jw_logopt o;

	memset(&o, 0, sizeof(o));
	o.fill = fill;
	o.escape = escape;
	o.badcsum = badcsum;
	assert_int_equal(jw_log(&l->w, blk, &o), 0);
}

static void revoke(struct log *l, blk64_t blk)
{
	assert_int_equal(jw_revoke(&l->w, blk, 0), 0);
}

static void commit(struct log *l, int badcsum)
{
	struct jw_commitopt o;

	memset(&o, 0, sizeof(o));
	o.sec = -1;
	o.type = -1;
	o.size = -1;
	o.badcsum = badcsum;
	assert_int_equal(jw_commit(&l->w, &o), 0);
}

/* A zeroed block ends the log; the journal superblock, needs_recovery. */
static void log_end(struct log *l)
{
	assert_int_equal(jw_finish(&l->w, 0), 0);
	jw_free(&l->w);
	assert_int_equal(jw_sink_close(&l->sink), 0);
	ext2fs_set_feature_journal_needs_recovery(l->fs->super);
	ext2fs_mark_super_dirty(l->fs);
	l->fs->flags |= EXT2_FLAG_SUPER_ONLY;
	assert_int_equal(ext2fs_close_free(&l->fs), 0);
}

/* ---- the library on the image ------------------------------------------- */

static recover_t open_handle(unsigned int flags)
{
	struct recover_options opts;
	recover_t r = NULL;

	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.flags = flags;
	opts.io_manager = memio_manager;
	assert_int_equal(recover_open("memory", &opts, &r), 0);
	return r;
}

/*
 * pass_scan() itself, then the full strategy's REVOKE pass
 * (revoke_finish()), as lifecycle_scan() runs them, given what the
 * lifecycle gives them (lifecycle_log()); a replay after it goes on from
 * this scan.
 */
static recover_t scanned(unsigned int flags)
{
	recover_t r = open_handle(flags);
	struct pass_log pl = lifecycle_log(r);
	struct scan_how how = {
		.flags = flags, .jsb_raw = r->jsb_raw,
		.jsb_len = r->src.blocksize,
	};
	struct jreader rd;

	memset(&rd, 0, sizeof(rd));
	assert_int_equal(pass_scan(&pl, &how, &rd, &r->scan), 0);
	assert_int_equal(revoke_finish(&r->revoke, &rd, &r->sb,
				       r->scan.revoke_records, &r->notify), 0);
	source_reader_free(&rd);
	r->scanned = 1;
	return r;
}

/*
 * The helpers below report the caller's line (through CMocka's own
 * _assert_* functions), so that a failure names the case's line.
 */
#define EQ(a, b) _assert_int_equal(cast_to_largest_integral_type(a), \
				   cast_to_largest_integral_type(b), file, line)

#define expect_tag(r, i, fsblk, tid, jblk) \
	expect_tag_at(__FILE__, __LINE__, r, i, fsblk, tid, jblk)
static void expect_tag_at(const char *file, int line, const recover_t r,
			  size_t i, blk64_t fsblk, uint32_t tid, uint32_t jblk)
{
	_assert_true(i < r->tags.n, "i < r->tags.n", file, line);
	EQ(r->tags.v[i].fsblk, fsblk);
	EQ(r->tags.v[i].tid, tid);
	EQ(r->tags.v[i].jblk, jblk);
}

/* Filesystem block blk as the in-memory channel reads it now. */
static void read_fs_block(blk64_t blk, unsigned char *buf)
{
	io_channel io;

	assert_int_equal(memio_manager->open("memory", 0, &io), 0);
	assert_int_equal(io_channel_set_blksize(io, FS_BS), 0);
	assert_int_equal(io_channel_read_blk64(io, blk, 1, buf), 0);
	assert_int_equal(io_channel_close(io), 0);
}

/* Every byte of blk is fill (with the jbd2 magic first when magic). */
#define expect_block(blk, fill, magic) \
	expect_block_at(__FILE__, __LINE__, blk, fill, magic)
static void expect_block_at(const char *file, int line, blk64_t blk, int fill,
			    int magic)
{
	unsigned char buf[FS_BS], want[FS_BS];

	read_fs_block(blk, buf);
	memset(want, fill, sizeof(want));
	if (magic)
		jw_put_be32(want, JW_MAGIC);
	_assert_memory_equal(buf, want, FS_BS, file, line);
}

/* ---- SCAN ---------------------------------------------------------------- */

/*
 * j1 desc(5) j2 A j3 B j4 commit(5) | j5 desc(6) j6 C j7 commit(6) |
 * j8 desc(7) j9 D (no commit) | j10 zeroed.
 */
static void test_scan_tags(void **state)
{
	blk64_t A = free_blk[0], B = free_blk[1], C = free_blk[2],
		D = free_blk[3];
	struct log l;
	recover_t r;

	(void)state;
	log_begin(&l, 5, -1);
	txn(&l, 5);
	copy(&l, A, 0x11, 0, 0);
	copy(&l, B, 0x21, 0, 0);
	commit(&l, 0);
	txn(&l, 6);
	copy(&l, C, 0x31, 0, 0);
	commit(&l, 0);
	txn(&l, 7);
	copy(&l, D, 0x41, 0, 0);
	assert_int_equal(jw_nocommit(&l.w), 0);
	log_end(&l);

	r = scanned(0);
	assert_int_equal(r->scan.first_tid, 5);
	assert_int_equal(r->scan.transactions, 2);
	/* The first tid not replayed: 6 is the last committed one. */
	assert_int_equal(r->scan.end_tid, 7);
	assert_int_equal(r->scan.end_reason, RECOVER_END_NO_MAGIC);
	assert_int_equal(r->scan.end_at.jblock, 10);
	assert_int_equal(r->scan.logged_blocks, 3);
	/* D, in transaction 7 without its commit block, is not kept. */
	assert_int_equal(r->tags.n, 3);
	expect_tag(r, 0, A, 5, 2);
	expect_tag(r, 1, B, 5, 3);
	expect_tag(r, 2, C, 6, 6);
	recover_close(r);
}

/*
 * j1 desc(5) j2 A j3 commit(5) | j4 desc(6) j5 B j6 commit(6), its
 * checksum wrong | j7 desc(7) j8 C j9 commit(7) | j10 zeroed.
 */
static void test_scan_bad_commit(void **state)
{
	blk64_t A = free_blk[0], B = free_blk[1], C = free_blk[2];
	struct log l;
	recover_t r;

	(void)state;
	log_begin(&l, 5, -1);
	txn(&l, 5);
	copy(&l, A, 0x11, 0, 0);
	commit(&l, 0);
	txn(&l, 6);
	copy(&l, B, 0x21, 0, 0);
	commit(&l, 1);
	txn(&l, 7);
	copy(&l, C, 0x31, 0, 0);
	commit(&l, 0);
	log_end(&l);

	r = scanned(0);
	/* The log ends at the bad commit: 7, good as it is, is not replayed. */
	assert_int_equal(r->scan.transactions, 1);
	assert_int_equal(r->scan.end_tid, 6);
	assert_int_equal(r->scan.end_reason, RECOVER_END_COMMIT_CSUM);
	assert_int_equal(r->scan.failed_commit, 1);
	assert_int_equal(r->scan.failed_tid, 6);
	assert_int_equal(r->scan.failed_at.jblock, 6);
	assert_int_equal(r->tags.n, 1);
	expect_tag(r, 0, A, 5, 2);
	recover_close(r);
}

/*
 * The log starts two blocks before the journal's end and wraps to s_first
 * (1) inside transaction 9's data:
 * j1022 desc(9) j1023 A j1 B j2 commit(9) | j3 desc(10) j4 C j5 commit(10)
 * | j6 zeroed.
 */
static void test_scan_wrap(void **state)
{
	blk64_t A = free_blk[0], B = free_blk[1], C = free_blk[2];
	struct log l;
	recover_t r;

	(void)state;
	log_begin(&l, 9, JBLOCKS - 2);
	txn(&l, 9);
	copy(&l, A, 0x11, 0, 0);
	copy(&l, B, 0x21, 0, 0);
	commit(&l, 0);
	txn(&l, 10);
	copy(&l, C, 0x31, 0, 0);
	commit(&l, 0);
	log_end(&l);

	r = scanned(0);
	assert_int_equal(r->sb.pub.start, JBLOCKS - 2);
	assert_int_equal(r->scan.transactions, 2);
	assert_int_equal(r->scan.end_tid, 11);
	assert_int_equal(r->scan.end_at.jblock, 6);
	assert_int_equal(r->tags.n, 3);
	expect_tag(r, 0, A, 9, JBLOCKS - 1);
	expect_tag(r, 1, B, 9, 1);
	expect_tag(r, 2, C, 10, 4);
	/* The copies are read from where the wrapped log put them. */
	assert_int_equal(recover_replay(r), 0);
	recover_close(r);
	expect_block(A, 0x11, 0);
	expect_block(B, 0x21, 0);
	expect_block(C, 0x31, 0);
}

/*
 * tids through 2^32: 0xfffffffe, 0xffffffff, 0, the last one revoking A.
 * j1 desc j2 A j3 B j4 commit | j5 desc j6 A j7 commit |
 * j8 revoke(A) j9 desc j10 C j11 commit | j12 zeroed.
 */
static void test_scan_tid_wrap(void **state)
{
	blk64_t A = free_blk[0], B = free_blk[1], C = free_blk[2];
	struct log l;
	recover_t r;
	uint32_t by = 1;

	(void)state;
	log_begin(&l, 0xfffffffeU, -1);
	txn(&l, 0xfffffffeU);
	copy(&l, A, 0x11, 0, 0);
	copy(&l, B, 0x21, 0, 0);
	commit(&l, 0);
	txn(&l, 0xffffffffU);
	copy(&l, A, 0x12, 0, 0);
	commit(&l, 0);
	txn(&l, 0);
	revoke(&l, A);
	copy(&l, C, 0x31, 0, 0);
	commit(&l, 0);
	log_end(&l);

	r = scanned(0);
	assert_int_equal(r->scan.transactions, 3);
	assert_int_equal(r->scan.end_tid, 1);
	assert_int_equal(r->scan.revoke_records, 1);
	assert_int_equal(r->tags.n, 4);
	expect_tag(r, 0, A, 0xfffffffeU, 2);
	expect_tag(r, 1, B, 0xfffffffeU, 3);
	expect_tag(r, 2, A, 0xffffffffU, 6);
	expect_tag(r, 3, C, 0, 10);
	/* Transaction 0 comes after 0xffffffff: its record cancels both. */
	assert_true(revoke_cancels(&r->revoke, A, 0xfffffffeU, &by));
	assert_int_equal(by, 0);
	assert_true(revoke_cancels(&r->revoke, A, 0xffffffffU, NULL));
	assert_false(revoke_cancels(&r->revoke, B, 0xfffffffeU, NULL));
	assert_false(revoke_cancels(&r->revoke, C, 0, NULL));
	recover_close(r);
}

/* ---- REVOKE ---------------------------------------------------------------- */

/* A revoke block of transaction tid naming n blocks (64-bit records). */
static void revoke_block_of(unsigned char *b, uint32_t tid,
			    const uint64_t *recs, unsigned int n)
{
	unsigned int i;

	memset(b, 0, FS_BS);
	jw_put_be32(b + 0, JW_MAGIC);
	jw_put_be32(b + 4, JW_BT_REVOKE);
	jw_put_be32(b + 8, tid);
	jw_put_be32(b + 12, 16 + 8 * n);	/* r_count: bytes used */
	for (i = 0; i < n; i++)
		jw_put_be64(b + 16 + 8 * i, recs[i]);
}

/* The journal superblock fields a revoke block's decoding uses. */
static void revoke_geometry(struct jsuper *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->pub.blocksize = FS_BS;
	sb->revoke_rec = 8;
	sb->tail = 4;
}

/* The scan's calls for one revoke block of transaction tid. */
static void feed_revoke(struct revoke *rv, uint32_t tid, const uint64_t *recs,
			unsigned int n, uint32_t at)
{
	unsigned char blk[FS_BS];
	struct jbd2_revoke_iter it;
	struct jsuper sb;

	revoke_geometry(&sb);
	revoke_block_of(blk, tid, recs, n);
	assert_int_equal(jbd2_revoke_begin(&sb, blk, &it), 0);
	assert_int_equal(jbd2_revoke_count(&it), n);
	assert_int_equal(revoke_block(rv, &it, at), 0);
}

/* Whether the copy of fsblk at tid is cancelled, by the record of want_by. */
static int cancels(const struct revoke *rv, uint64_t fsblk, uint32_t tid,
		   uint32_t want_by)
{
	uint32_t by = 0;

	if (!revoke_cancels(rv, fsblk, tid, &by))
		return 0;
	assert_int_equal(by, want_by);
	return 1;
}

/*
 * The default strategy on its own: 100 logged in 5, 6 and 7 and revoked
 * in 6; 200 logged in 5 and 7 and revoked in 8, never committed; 300
 * revoked in 6, never logged; then 100 revoked again in 9.
 */
static void test_revoke_direct(void **state)
{
	static const uint64_t r6[] = { 100, 300 }, r8[] = { 200 },
			      r9[] = { 100 };
	struct revoke rv;

	(void)state;
	assert_int_equal(revoke_init(&rv, 0), 0);
	assert_int_equal(revoke_logged(&rv, 100, 5), 0);
	assert_int_equal(revoke_logged(&rv, 200, 5), 0);
	revoke_commit(&rv, 5);
	assert_int_equal(revoke_logged(&rv, 100, 6), 0);
	feed_revoke(&rv, 6, r6, 2, 20);
	revoke_commit(&rv, 6);
	assert_int_equal(revoke_logged(&rv, 100, 7), 0);
	assert_int_equal(revoke_logged(&rv, 200, 7), 0);
	revoke_commit(&rv, 7);
	feed_revoke(&rv, 8, r8, 1, 30);
	revoke_drop(&rv);

	/* A record of T cancels the copies of T and earlier, not later. */
	assert_true(cancels(&rv, 100, 5, 6));
	assert_true(cancels(&rv, 100, 6, 6));
	assert_false(cancels(&rv, 100, 7, 0));
	/* 8 never committed: its record is ignored. */
	assert_false(cancels(&rv, 200, 5, 0));
	assert_false(cancels(&rv, 200, 7, 0));
	/* Only the logged blocks are kept. */
	assert_false(cancels(&rv, 300, 6, 0));
	assert_int_equal(revoke_kept(&rv), 2);

	/* A later record counts: 9 cancels 7's copy too. */
	feed_revoke(&rv, 9, r9, 1, 40);
	revoke_commit(&rv, 9);
	assert_true(cancels(&rv, 100, 5, 9));
	assert_true(cancels(&rv, 100, 7, 9));
	assert_false(cancels(&rv, 100, 10, 0));
	revoke_free(&rv);
}

/*
 * One log for both strategies:
 * 5: X, Y | 6: revoke X, then X again | 7: X, Y | 8: revoke Y, revoke X,
 * without a commit block.
 * j1 desc(5) j2 X j3 Y j4 commit | j5 revoke(X) j6 desc j7 X j8 commit |
 * j9 desc j10 X j11 Y j12 commit | j13 revoke(Y, X) | j14 zeroed.
 */
static void revoke_log(unsigned int flags)
{
	blk64_t X = free_blk[0], Y = free_blk[1];
	struct log l;
	recover_t r;

	log_begin(&l, 5, -1);
	txn(&l, 5);
	copy(&l, X, 0x11, 0, 0);
	copy(&l, Y, 0x21, 0, 0);
	commit(&l, 0);
	txn(&l, 6);
	revoke(&l, X);
	copy(&l, X, 0x12, 0, 0);
	commit(&l, 0);
	txn(&l, 7);
	copy(&l, X, 0x13, 0, 0);
	copy(&l, Y, 0x23, 0, 0);
	commit(&l, 0);
	txn(&l, 8);
	revoke(&l, Y);
	revoke(&l, X);
	assert_int_equal(jw_nocommit(&l.w), 0);
	log_end(&l);

	r = scanned(flags);
	assert_int_equal(r->revoke.full, !!(flags & RECOVER_FL_FULL_REVOKE));
	assert_int_equal(r->scan.transactions, 3);
	assert_int_equal(r->scan.revoke_records, 1);
	assert_int_equal(r->tags.n, 5);
	expect_tag(r, 0, X, 5, 2);
	expect_tag(r, 1, Y, 5, 3);
	expect_tag(r, 2, X, 6, 7);
	expect_tag(r, 3, X, 7, 10);
	expect_tag(r, 4, Y, 7, 11);
	assert_true(cancels(&r->revoke, X, 5, 6));
	assert_true(cancels(&r->revoke, X, 6, 6));
	assert_false(cancels(&r->revoke, X, 7, 0));
	assert_false(cancels(&r->revoke, Y, 5, 0));
	assert_false(cancels(&r->revoke, Y, 7, 0));
	recover_close(r);
}

static void test_revoke_log_default(void **state)
{
	(void)state;
	revoke_log(0);
}

static void test_revoke_log_full(void **state)
{
	(void)state;
	revoke_log(RECOVER_FL_FULL_REVOKE);
}

/* ---- REPLAY --------------------------------------------------------------- */

enum { ST_REVOKED = 1, ST_CAND = 2 };

/*
 * Six copies: 100 at 1, 2 and 3; 200 at 1; 300 at 2 and 3, revoked at 3.
 * The candidates chain back per block; each block's last one is listed,
 * in the order of the blocks' first candidates.
 */
static void test_replay_classify(void **state)
{
	static const uint64_t r3[] = { 300 };
	static const struct { uint64_t fsblk; uint32_t tid; } t[] = {
		{ 100, 1 }, { 200, 1 }, { 100, 2 }, { 300, 2 }, { 100, 3 },
		{ 300, 3 },
	};
	enum { N = sizeof(t) / sizeof(t[0]) };
	struct revoke rv;
	struct jtags jt;
	struct pass_log pl = { .revoke = &rv, .tags = &jt };
	struct jtag tags[N];
	struct replay_block *blocks = NULL;
	unsigned char st[N];
	uint32_t prev[N];
	size_t nblocks = 0, i;

	(void)state;
	memset(&rv, 0, sizeof(rv));
	memset(tags, 0, sizeof(tags));
	assert_int_equal(revoke_init(&rv, 0), 0);
	for (i = 0; i < N; i++) {
		tags[i].fsblk = t[i].fsblk;
		tags[i].tid = t[i].tid;
		tags[i].jblk = (uint32_t)(10 + i);
		assert_int_equal(revoke_logged(&rv, t[i].fsblk, t[i].tid), 0);
		if (i == 1 || i == 3)
			revoke_commit(&rv, t[i].tid);
	}
	feed_revoke(&rv, 3, r3, 1, 50);
	revoke_commit(&rv, 3);
	jt.v = tags;
	jt.n = jt.cap = N;

	assert_int_equal(pass_replay_classify(&pl, st, ST_REVOKED, ST_CAND, prev,
					      &blocks, &nblocks), 0);
	assert_int_equal(st[0], ST_CAND);
	assert_int_equal(st[1], ST_CAND);
	assert_int_equal(st[2], ST_CAND);
	assert_int_equal(st[3], ST_REVOKED);
	assert_int_equal(st[4], ST_CAND);
	assert_int_equal(st[5], ST_REVOKED);
	assert_int_equal(prev[0], REPLAY_NONE);
	assert_int_equal(prev[1], REPLAY_NONE);
	assert_int_equal(prev[2], 0);
	assert_int_equal(prev[3], REPLAY_NONE);
	assert_int_equal(prev[4], 2);
	assert_int_equal(prev[5], REPLAY_NONE);
	/* 300 has no candidate left: no entry. */
	assert_int_equal(nblocks, 2);
	assert_int_equal(blocks[0].fsblk, 100);
	assert_int_equal(blocks[0].tag, 4);
	assert_int_equal(blocks[1].fsblk, 200);
	assert_int_equal(blocks[1].tag, 1);
	free(blocks);
	revoke_free(&rv);
}

/*
 * 1: X, V, U, W | 2: X, E (escaped), revoke V, revoke U | 3: X, U.
 * j1 desc(1) j2 X j3 V j4 U j5 W j6 commit | j7 desc(2) j8 X j9 E
 * j10 revoke j11 commit | j12 desc(3) j13 X j14 U j15 commit | j16 zeroed.
 * V's block holds 0xee before the replay, which must leave it so.
 */
static void test_replay_last_copy(void **state)
{
	blk64_t X = free_blk[0], V = free_blk[1], U = free_blk[2],
		W = free_blk[3], E = free_blk[4];
	unsigned char zero4[4] = { 0, 0, 0, 0 };
	struct recover_stats st;
	struct log l;
	recover_t r;

	(void)state;
	log_begin(&l, 1, -1);
	txn(&l, 1);
	copy(&l, X, 0x11, 0, 0);
	copy(&l, V, 0x51, 0, 0);
	copy(&l, U, 0x61, 0, 0);
	copy(&l, W, 0x71, 0, 0);
	commit(&l, 0);
	txn(&l, 2);
	copy(&l, X, 0x12, 0, 0);
	copy(&l, E, 0x41, 1, 0);
	revoke(&l, V);
	revoke(&l, U);
	commit(&l, 0);
	txn(&l, 3);
	copy(&l, X, 0x13, 0, 0);
	copy(&l, U, 0x63, 0, 0);
	commit(&l, 0);
	log_end(&l);
	memset(memio_data() + V * FS_BS, 0xee, FS_BS);
	memio_touch(V * FS_BS, FS_BS);
	/* E is stored escaped: its magic zeroed, the tag flagged. */
	assert_memory_equal(memio_jblock(9), zero4, 4);

	r = open_handle(0);
	assert_int_equal(recover_scan(r), 0);
	expect_tag(r, 5, E, 2, 9);
	assert_true(r->tags.v[5].flags & JBD2_FLAG_ESCAPE);
	assert_int_equal(recover_replay(r), 0);
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	recover_get_stats(r, &st);
	recover_close(r);

	expect_block(X, 0x13, 0);	/* the last of three copies */
	expect_block(V, 0xee, 0);	/* its only copy revoked */
	expect_block(U, 0x63, 0);	/* logged again after its revoke */
	expect_block(W, 0x71, 0);
	expect_block(E, 0x41, 1);	/* unescaped */
	/* Candidates X X X W E U, revoked V U, one write per block. */
	assert_int_equal(st.replayed, 6);
	assert_int_equal(st.revoked, 2);
	assert_int_equal(st.copies_written, 4);
	assert_int_equal(st.superseded, 2);
	assert_int_equal(st.bad_csum, 0);
}

/* ---- PLAN ------------------------------------------------------------------ */

#define MAX_EVENTS	64

struct events {
	struct recover_event ev[MAX_EVENTS];
	unsigned int n, fates, after_end;
	int ended;
};

static int collect(void *data, const struct recover_event *ev)
{
	struct events *e = data;

	if (e->ended)
		e->after_end++;
	if (ev->type == RECOVER_EV_END)
		e->ended = 1;
	if (ev->type == RECOVER_EV_FATE && e->fates < MAX_EVENTS)
		e->ev[e->fates++] = *ev;
	e->n++;
	return 0;
}

#define expect_fate(e, i, fsblk, tid, jblk, fate, fate_tid, fate_jblock) \
	expect_fate_at(__FILE__, __LINE__, e, i, fsblk, tid, jblk, fate, \
		       fate_tid, fate_jblock)
static void expect_fate_at(const char *file, int line, const struct events *e,
			   unsigned int i, blk64_t fsblk, uint32_t tid,
			   uint64_t jblk, enum recover_fate fate,
			   uint32_t fate_tid, uint64_t fate_jblock)
{
	const struct recover_event *ev = &e->ev[i];

	_assert_true(i < e->fates, "i < e->fates", file, line);
	EQ(ev->fsblock, fsblk);
	EQ(ev->tid, tid);
	EQ(ev->jblock, jblk);
	EQ(ev->fate, fate);
	EQ(ev->fate_tid, fate_tid);
	EQ(ev->fate_jblock, fate_jblock);
}

/*
 * 1: X, Y, Q, Z | 2: revoke Y, X with a bad data checksum | 3: X, Q with a
 * bad data checksum.
 * j1 desc(1) j2 X j3 Y j4 Q j5 Z j6 commit | j7 revoke(Y) j8 desc(2) j9 X
 * j10 commit | j11 desc(3) j12 X j13 Q j14 commit | j15 zeroed.
 */
static void test_plan_fates(void **state)
{
	blk64_t X = free_blk[0], Y = free_blk[1], Q = free_blk[2],
		Z = free_blk[3];
	static struct events ev;
	struct events *e = &ev;
	struct log l;
	recover_t r;

	(void)state;
	memset(e, 0, sizeof(*e));
	log_begin(&l, 1, -1);
	txn(&l, 1);
	copy(&l, X, 0x11, 0, 0);
	copy(&l, Y, 0x21, 0, 0);
	copy(&l, Q, 0x71, 0, 0);
	copy(&l, Z, 0x81, 0, 0);
	commit(&l, 0);
	txn(&l, 2);
	revoke(&l, Y);
	copy(&l, X, 0x12, 0, 1);
	commit(&l, 0);
	txn(&l, 3);
	copy(&l, X, 0x13, 0, 0);
	copy(&l, Q, 0x73, 0, 1);
	commit(&l, 0);
	log_end(&l);

	r = open_handle(0);
	assert_int_equal(recover_walk(r, collect, e), 0);
	recover_close(r);

	/* One fate per kept tag, in log order, before the end event. */
	assert_int_equal(e->fates, 7);
	assert_int_equal(e->after_end, 0);
	assert_true(e->ended);
	/* X's first copy: written, then overwritten by 3's (j12). */
	expect_fate(e, 0, X, 1, 2, RECOVER_FATE_SUPERSEDED, 3, 12);
	expect_fate(e, 1, Y, 1, 3, RECOVER_FATE_REVOKED, 2, 0);
	/* Q's later copy fails its checksum: the first one is what stays. */
	expect_fate(e, 2, Q, 1, 4, RECOVER_FATE_WRITTEN, 0, 0);
	expect_fate(e, 3, Z, 1, 5, RECOVER_FATE_WRITTEN, 0, 0);
	expect_fate(e, 4, X, 2, 9, RECOVER_FATE_BAD_CSUM, 0, 0);
	expect_fate(e, 5, X, 3, 12, RECOVER_FATE_WRITTEN, 0, 0);
	expect_fate(e, 6, Q, 3, 13, RECOVER_FATE_BAD_CSUM, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_tags),
		cmocka_unit_test(test_scan_bad_commit),
		cmocka_unit_test(test_scan_wrap),
		cmocka_unit_test(test_scan_tid_wrap),
		cmocka_unit_test(test_revoke_direct),
		cmocka_unit_test(test_revoke_log_default),
		cmocka_unit_test(test_revoke_log_full),
		cmocka_unit_test(test_replay_classify),
		cmocka_unit_test(test_replay_last_copy),
		cmocka_unit_test(test_plan_fates),
	};
	int verbose;

	if (memio_setup(FS_BYTES, build_fs, &verbose)) {
		fprintf(stderr, "passes_test: the filesystem was not built\n");
		return 99;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
