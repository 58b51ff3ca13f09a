/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_replay -- a whole scan and replay of a fuzzed journal, against a
 * small ext4 filesystem held in memory (memio.c).
 *
 * The filesystem (2 MiB, 1 KiB blocks, metadata_csum, a 1024-block journal
 * inode) is built once with libext2fs; each input starts from a pristine
 * copy of it.  Input layout:
 *
 *   0     control bits:
 *         0x01  run A with RECOVER_FL_FULL_REVOKE (run B without)
 *         0x02  RECOVER_FL_FORCE
 *         0x04  also a dry run: it must write nothing and agree with A
 *         0x08  also a run stopped by the progress callback at call
 *               byte 3 + 1: the journal must still need recovery, and
 *               finishing the replay afterwards must give A's result
 *         0x10  leave needs_recovery clear in the ext4 superblock
 *         0x20  raw: the 1024 bytes after the header replace the journal
 *               superblock's (the fields below are then ignored)
 *         0x40  fix every checksum along the log (descriptor and revoke
 *               tails, data tags, commit blocks, COMPAT_CHECKSUM), so that
 *               the fuzzer gets past them
 *         0x80  leave the journal superblock's checksum as it falls
 *   1     bit 0: a version 1 superblock; bit 1: COMPAT_CHECKSUM;
 *         bits 2-7: N, nonzero: reading journal block N fails (EIO)
 *   2     feature_incompat
 *   3     the progress call that stops the run (0x08)
 *   4-7   s_sequence                    8-9   s_start
 *   10-11 s_maxlen (0: the journal's)   12-13 s_first (0: 1)
 *   14-15 s_errno (sign-extended)
 *   16-   the log, from journal block 1 on
 *
 * Every input is replayed twice, with and without RECOVER_FL_FULL_REVOKE
 * (the second time scanned by recover_walk(), whose events must add up),
 * and the two must return the same code, count the same and leave the same
 * image (but for s_wtime, s_kbytes_written and s_checksum).
 *
 * Without libFuzzer the program replays saved inputs; it also has two
 * options for tests/fuzz/mkcorpus.sh:
 *   fuzz_replay -w IMAGE          write the pristine filesystem to IMAGE
 *   fuzz_replay -c IMAGE [CTL]    print IMAGE's journal as an input (to
 *                                 stdout; CTL is byte 0, default 0)
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "ext4_fs.h"
#include "../lib/memio.h"

#define FUZZ_HAVE_MAIN_HOOK
#define FUZZ_DIGEST_IMAGE
#include "fuzz_common.h"

#define FS_BYTES	(2U << 20)
#define FS_BS		1024U
#define JBLOCKS		1024U
#define HDR		16

#define CTL_FULL	0x01
#define CTL_FORCE	0x02
#define CTL_DRY		0x04
#define CTL_STOP	0x08
#define CTL_NORECOVER	0x10
#define CTL_RAW		0x20
#define CTL_FIXCSUM	0x40
#define CTL_BADSBCSUM	0x80

static unsigned char protect[FS_BYTES / FS_BS]; /* in use in the pristine fs */
static unsigned char *result_a;		/* image after run A */
static int verbose;			/* FUZZ_VERBOSE: say what each did */

/* ---- the filesystem ------------------------------------------------------ */

static errcode_t build_fs(void)
{
	struct ext2fs_journal_params jp = { .num_journal_blocks = JBLOCKS };
	ext2_filsys fs;
	blk64_t b;
	errcode_t err;

	err = memio_mkfs(128, 0, &jp, 0x5d, 17, &fs);
	if (err)
		return err;
	err = memio_map_journal(fs, JBLOCKS);
	for (b = 0; b < FS_BYTES / FS_BS; b++)
		protect[b] = b < fs->super->s_first_data_block ||
			     ext2fs_test_block_bitmap2(fs->block_map, b);
	return memio_close_fs(fs, err);
}

static int fuzz_init(void)
{
	if (memio_setup(FS_BYTES, build_fs, &verbose))
		return -1;
	result_a = malloc(FS_BYTES);
	return result_a ? 0 : -1;
}

static void put_be16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

/* The ext4 superblock's needs_recovery flag, and its checksum. */
static void set_needs_recovery(int on)
{
	unsigned char *es = memio_data() + SUPERBLOCK_OFFSET;
	uint32_t f = get_le32(es + ES_FEATURE_INCOMPAT);

	f = on ? f | EXT3_FEATURE_INCOMPAT_RECOVER
	       : f & ~EXT3_FEATURE_INCOMPAT_RECOVER;
	put_le32(es + ES_FEATURE_INCOMPAT, f);
	put_le32(es + ES_CHECKSUM, ext2fs_crc32c_le(~0U, es, ES_CHECKSUM));
	memio_touch(SUPERBLOCK_OFFSET, SUPERBLOCK_SIZE);
}

static int get_needs_recovery(void)
{
	const unsigned char *es = memio_data() + SUPERBLOCK_OFFSET;

	return !!(get_le32(es + ES_FEATURE_INCOMPAT) &
		  EXT3_FEATURE_INCOMPAT_RECOVER);
}

/* ---- checksums, written independently of jbd2.c ------------------------ */

struct layout {
	int		csum;		/* 0, 1 (COMPAT_CHECKSUM), 2, 3 */
	int		is64;
	unsigned int	tag;		/* bytes of a tag */
	uint32_t	first, last;
	uint32_t	seed;
};

static void set_tail(const struct layout *l, unsigned char *b)
{
	put_be32(b + FS_BS - 4, 0);
	put_be32(b + FS_BS - 4, ext2fs_crc32c_le(l->seed, b, FS_BS));
}

/*
 * Walk the log from s_start as a reader would (descriptor, its data
 * blocks, revoke, commit) and make every checksum right, so that the
 * fuzzer's inputs get past them.
 */
static void fix_checksums(const unsigned char *jsb, uint32_t start)
{
	struct layout l;
	uint32_t incompat = get_be32(jsb + JSB_FEATURE_INCOMPAT);
	uint32_t pos = start, crc1 = ~0U, steps;
	int v2 = get_be32(jsb + JBD2_HDR_BLOCKTYPE) == JBD2_SUPERBLOCK_V2;

	memset(&l, 0, sizeof(l));
	if (v2 && (incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3))
		l.csum = 3;
	else if (v2 && (incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2))
		l.csum = 2;
	else if (v2 && (get_be32(jsb + JSB_FEATURE_COMPAT) &
			JBD2_FEATURE_COMPAT_CHECKSUM))
		l.csum = 1;
	l.is64 = v2 && (incompat & JBD2_FEATURE_INCOMPAT_64BIT);
	l.tag = l.csum == 3 ? 16 : 8 + (l.is64 ? 4 : 0) + (l.csum == 2 ? 2 : 0);
	l.first = get_be32(jsb + JSB_FIRST);
	l.last = get_be32(jsb + JSB_MAXLEN);
	if (v2 && (incompat & JBD2_FEATURE_INCOMPAT_FAST_COMMIT)) {
		uint32_t fc = get_be32(jsb + JSB_NUM_FC_BLKS);

		fc = fc ? fc : JBD2_DEFAULT_FC_BLKS;
		l.last = l.last > fc ? l.last - fc : 0;
	}
	if (l.last > JBLOCKS)
		l.last = JBLOCKS;
	if (!l.first || l.first >= l.last)
		return;
	l.seed = ext2fs_crc32c_le(~0U, jsb + JSB_UUID, 16);

#define NEXT(p) ((p) + 1 >= l.last ? l.first : (p) + 1)
	for (steps = 0; steps < JBLOCKS && pos >= l.first && pos < l.last;
	     steps++) {
		unsigned char *b = memio_jblock(pos);
		uint32_t type = get_be32(b + JBD2_HDR_BLOCKTYPE);
		uint32_t tid = get_be32(b + JBD2_HDR_SEQUENCE);

		if (get_be32(b) != JBD2_MAGIC)
			break;
		memio_touch_jblock(pos);
		pos = NEXT(pos);
		if (type == JBD2_DESCRIPTOR_BLOCK) {
			unsigned int off = JBD2_HDR_SIZE;
			unsigned int end = FS_BS - (l.csum >= 2 ? 4 : 0);
			uint32_t dpos = pos;

			while (off + l.tag <= end) {
				unsigned char *t = b + off;
				uint16_t flags = get_be16(t + TAG_FLAGS16);
				unsigned char seq[4];
				uint32_t c;

				put_be32(seq, tid);
				c = ext2fs_crc32c_le(ext2fs_crc32c_le(l.seed, seq, 4),
						     memio_jblock(dpos), FS_BS);
				if (l.csum == 3)
					put_be32(t + TAG3_CHECKSUM, c);
				else if (l.csum == 2)
					put_be16(t + TAG_CSUM16, (uint16_t)c);
				dpos = NEXT(dpos);
				off += l.tag + ((flags & JBD2_FLAG_SAME_UUID) ? 0 : 16);
				if (flags & JBD2_FLAG_LAST_TAG)
					break;
			}
			if (l.csum >= 2)
				set_tail(&l, b);
			if (l.csum == 1) {
				crc1 = ext2fs_crc32_be(crc1, b, FS_BS);
				for (; pos != dpos; pos = NEXT(pos))
					crc1 = ext2fs_crc32_be(crc1,
							       memio_jblock(pos),
							       FS_BS);
			}
			pos = dpos;
		} else if (type == JBD2_REVOKE_BLOCK) {
			if (l.csum >= 2)
				set_tail(&l, b);
		} else if (type == JBD2_COMMIT_BLOCK) {
			if (l.csum == 1) {
				b[COMMIT_CHKSUM_TYPE] = JBD2_CRC32_CHKSUM;
				b[COMMIT_CHKSUM_SIZE] = JBD2_CRC32_CHKSUM_SIZE;
				put_be32(b + COMMIT_CHKSUM, crc1);
			} else if (l.csum >= 2) {
				put_be32(b + COMMIT_CHKSUM, 0);
				put_be32(b + COMMIT_CHKSUM,
					 ext2fs_crc32c_le(l.seed, b, FS_BS));
			}
			crc1 = ~0U;
		} else {
			break;
		}
	}
#undef NEXT
}

/* ---- one input ------------------------------------------------------------ */

/* Lay the input over the pristine filesystem. */
static void prepare(const uint8_t *data, size_t size)
{
	unsigned char *jsb;
	const uint8_t *log = data + HDR;
	size_t left = size - HDR, n;
	uint32_t j;
	uint8_t ctl = data[0];

	memio_reset();
	jsb = memio_jblock(0);
	memio_touch_jblock(0);
	if (ctl & CTL_RAW) {
		n = left < JSB_SIZE ? left : JSB_SIZE;
		memcpy(jsb, log, n);
		log += n;
		left -= n;
	} else {
		uint16_t maxlen = get_be16(data + 10), first = get_be16(data + 12);

		put_be32(jsb + JBD2_HDR_BLOCKTYPE, (data[1] & 1) ?
			 JBD2_SUPERBLOCK_V1 : JBD2_SUPERBLOCK_V2);
		put_be32(jsb + JSB_MAXLEN, maxlen ? maxlen : JBLOCKS);
		put_be32(jsb + JSB_FIRST, first ? first : 1);
		put_be32(jsb + JSB_SEQUENCE, get_be32(data + 4));
		put_be32(jsb + JSB_START, get_be16(data + 8));
		put_be32(jsb + JSB_ERRNO,
			 (uint32_t)(int32_t)(int16_t)get_be16(data + 14));
		put_be32(jsb + JSB_FEATURE_COMPAT,
			 (data[1] & 2) ? JBD2_FEATURE_COMPAT_CHECKSUM : 0);
		put_be32(jsb + JSB_FEATURE_INCOMPAT, data[2]);
		jsb[JSB_CHECKSUM_TYPE] = (data[2] & (JBD2_FEATURE_INCOMPAT_CSUM_V2 |
					 JBD2_FEATURE_INCOMPAT_CSUM_V3)) ?
					 JBD2_CRC32C_CHKSUM : 0;
	}
	for (j = 1; j < JBLOCKS && left; j++) {
		n = left < FS_BS ? left : FS_BS;
		memcpy(memio_jblock(j), log, n);
		memset(memio_jblock(j) + n, 0, FS_BS - n);
		memio_touch_jblock(j);
		log += n;
		left -= n;
	}
	if (ctl & CTL_FIXCSUM)
		fix_checksums(jsb, get_be32(jsb + JSB_START));
	if (!(ctl & CTL_BADSBCSUM) && !(ctl & CTL_RAW)) {
		put_be32(jsb + JSB_CHECKSUM, 0);
		put_be32(jsb + JSB_CHECKSUM, jbd2_super_csum(jsb));
	}
	set_needs_recovery(!(ctl & CTL_NORECOVER));
}

struct outcome {
	errcode_t		open_err, err;
	struct recover_stats	st;
	int			opened;
};

struct stopper {
	unsigned int	calls, stop_at;
};

/* What recover_walk() reported so far, to check that it adds up. */
struct walk {
	unsigned long long tags_due, records_due;
	unsigned long long descriptors, revoke_blocks, commits, ends;
	unsigned long long fates[RECOVER_FATE_OWN_JOURNAL + 1];
};

static int walk_event(void *data, const struct recover_event *ev)
{
	struct walk *w = data;

	FUZZ_CHECK(!w->ends, "event %d after the end", (int)ev->type);
	if (ev->type != RECOVER_EV_TAG)
		FUZZ_CHECK(!w->tags_due, "%llu tags missing before event %d",
			   w->tags_due, (int)ev->type);
	if (ev->type != RECOVER_EV_REVOKE)
		FUZZ_CHECK(!w->records_due, "%llu revoke records missing "
			   "before event %d", w->records_due, (int)ev->type);
	FUZZ_CHECK(ev->jblock < JBLOCKS, "event %d at journal block %llu",
		   (int)ev->type, ev->jblock);
	switch (ev->type) {
	case RECOVER_EV_DESCRIPTOR:
		w->descriptors++;
		w->tags_due = ev->count;
		break;
	case RECOVER_EV_TAG:
		FUZZ_CHECK(w->tags_due, "a tag beyond its descriptor's count");
		w->tags_due--;
		break;
	case RECOVER_EV_REVOKE_BLOCK:
		w->revoke_blocks++;
		w->records_due = ev->count;
		FUZZ_CHECK(ev->count <= FS_BS / 4, "%llu records in a block",
			   ev->count);
		break;
	case RECOVER_EV_REVOKE:
		FUZZ_CHECK(w->records_due, "a record beyond its block's count");
		w->records_due--;
		break;
	case RECOVER_EV_COMMIT:
		w->commits++;
		break;
	case RECOVER_EV_END:
		w->ends++;
		break;
	case RECOVER_EV_FATE:
		FUZZ_CHECK(ev->fate >= RECOVER_FATE_WRITTEN &&
			   ev->fate <= RECOVER_FATE_OWN_JOURNAL,
			   "unknown fate %d", (int)ev->fate);
		w->fates[ev->fate]++;
		break;
	default:
		FUZZ_CHECK(0, "unknown event %d", (int)ev->type);
	}
	return 0;
}

static int stop_progress(void *data, enum recover_pass pass,
			 unsigned long long done, unsigned long long total)
{
	struct stopper *s = data;

	(void)pass;
	FUZZ_CHECK(done <= total || total == 0 || pass == RECOVER_PASS_SCAN,
		   "progress %llu of %llu", done, total);
	return s->stop_at && ++s->calls >= s->stop_at;
}

/*
 * Open the memory filesystem and replay its journal with these flags
 * (scanned by recover_walk() when walk is not NULL).
 */
static void run_walk(unsigned int flags, unsigned int stop_at,
		     struct walk *walk, struct outcome *o)
{
	struct recover_options opts;
	struct stopper stop = { 0, stop_at };
	ext2_filsys fs;
	recover_t r;
	errcode_t err;

	memset(o, 0, sizeof(*o));
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	o->st.size = sizeof(o->st);
	opts.flags = flags;
	opts.io_manager = memio_manager;
	opts.progress = stop_progress;
	opts.progress_data = &stop;
	err = ext2fs_open2("memory", NULL, EXT2_FLAG_64BITS |
			   EXT2_FLAG_IGNORE_CSUM_ERRORS |
			   ((flags & RECOVER_FL_DRY_RUN) ? 0 : EXT2_FLAG_RW),
			   0, 0, memio_manager, &fs);
	if (err) {
		/* Only after a replay rewrote the superblock. */
		o->open_err = err;
		return;
	}
	o->err = recover_open_fs(fs, &opts, &r);
	if (!o->err) {
		o->opened = 1;
		if (walk) {
			struct recover_super sup = RECOVER_INIT(struct recover_super);

			/* With s_start 0 there is no log, and no end event. */
			recover_get_super(r, &sup);
			o->err = recover_walk(r, walk_event, walk);
			if (!o->err)
				FUZZ_CHECK(walk->ends == !!sup.start &&
					   !walk->tags_due && !walk->records_due,
					   "the walk ended %llu times, %llu tags "
					   "and %llu records missing", walk->ends,
					   walk->tags_due, walk->records_due);
		} else {
			o->err = recover_scan(r);
		}
		if (!o->err)
			o->err = recover_replay(r);
		recover_get_stats(r, &o->st);
		recover_close(r);
		/* A log the walk marks refused is not replayed. */
		if (walk && (walk->fates[RECOVER_FATE_PAST_END] ||
			     walk->fates[RECOVER_FATE_OWN_JOURNAL]))
			FUZZ_CHECK(o->err || o->st.error,
				   "the walk refuses %llu tag(s) past the end and "
				   "%llu in the journal, yet the replay succeeds",
				   walk->fates[RECOVER_FATE_PAST_END],
				   walk->fates[RECOVER_FATE_OWN_JOURNAL]);
		/* The plan the walk gave is what the replay did. */
		if (walk && !o->err && !o->st.error)
			FUZZ_CHECK(walk->fates[RECOVER_FATE_WRITTEN] +
				   walk->fates[RECOVER_FATE_SUPERSEDED] ==
				   o->st.replayed &&
				   walk->fates[RECOVER_FATE_REVOKED] == o->st.revoked &&
				   walk->fates[RECOVER_FATE_BAD_CSUM] == o->st.bad_csum,
				   "the plan writes %llu+%llu, revokes %llu, skips "
				   "%llu; the replay %llu, %llu, %llu",
				   walk->fates[RECOVER_FATE_WRITTEN],
				   walk->fates[RECOVER_FATE_SUPERSEDED],
				   walk->fates[RECOVER_FATE_REVOKED],
				   walk->fates[RECOVER_FATE_BAD_CSUM],
				   o->st.replayed, o->st.revoked, o->st.bad_csum);
	}
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
	ext2fs_close_free(&fs);
}

static void run(unsigned int flags, unsigned int stop_at, struct outcome *o)
{
	run_walk(flags, stop_at, NULL, o);
}

/* The images are the same but for the fields a replay stamps. */
static int same_image(const unsigned char *a, const unsigned char *b)
{
	static const struct { size_t off, len; } skip[] = {
		{ SUPERBLOCK_OFFSET + ES_WTIME, 4 },
		{ SUPERBLOCK_OFFSET + ES_KBYTES_WRITTEN, 8 },
		{ SUPERBLOCK_OFFSET + ES_WTIME_HI, 1 },
		{ SUPERBLOCK_OFFSET + ES_CHECKSUM, 4 },
	};
	size_t at = 0, i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++) {
		if (memcmp(a + at, b + at, skip[i].off - at))
			return 0;
		at = skip[i].off + skip[i].len;
	}
	return !memcmp(a + at, b + at, FS_BYTES - at);
}

static void same_counts(const struct outcome *a, const struct outcome *b,
			const char *what)
{
	FUZZ_CHECK(a->err == b->err, "%s: %ld, then %ld", what,
		   (long)a->err, (long)b->err);
	if (!a->opened || !b->opened)
		return;
	FUZZ_CHECK(a->st.transactions == b->st.transactions &&
		   a->st.end_tid == b->st.end_tid &&
		   a->st.end_reason == b->st.end_reason &&
		   a->st.logged_blocks == b->st.logged_blocks &&
		   a->st.revoke_records == b->st.revoke_records &&
		   a->st.replayed == b->st.replayed &&
		   a->st.revoked == b->st.revoked &&
		   a->st.bad_csum == b->st.bad_csum &&
		   a->st.failed_commit == b->st.failed_commit &&
		   a->st.error == b->st.error,
		   "%s: the counters differ (replayed %llu/%llu, revoked "
		   "%llu/%llu, transactions %llu/%llu)", what,
		   a->st.replayed, b->st.replayed, a->st.revoked, b->st.revoked,
		   a->st.transactions, b->st.transactions);
}

/* Whether the last run wrote any block the pristine filesystem uses. */
static int touched_metadata(void)
{
	size_t b;

	for (b = 0; b < FS_BYTES / FS_BS; b++)
		if (protect[b] && memio_dirty(b * FS_BS) &&
		    memcmp(memio_data() + b * FS_BS,
			   memio_pristine() + b * FS_BS, FS_BS))
			return 1;
	return 0;
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	struct outcome a, b, c;
	struct walk walk;
	unsigned int flags, bad;
	uint8_t ctl;

	if (size < HDR)
		return;
	ctl = data[0];
	bad = data[1] >> 2;
	memio_fail_reads(bad ? memio_jblock_off(bad) : (size_t)-1);
	flags = ((ctl & CTL_FULL) ? RECOVER_FL_FULL_REVOKE : 0) |
		((ctl & CTL_FORCE) ? RECOVER_FL_FORCE : 0);

	prepare(data, size);
	run(flags, 0, &a);
	FUZZ_CHECK(!a.open_err, "the pristine filesystem does not open: %ld",
		   (long)a.open_err);
	memcpy(result_a, memio_data(), FS_BYTES);
	if (verbose)
		fprintf(stderr, "  ctl 0x%02x: %s; %llu transaction(s), %llu "
			"block(s) replayed, %llu revoked, %llu bad checksum(s)\n",
			ctl, a.err ? error_message(a.err) : "ok",
			a.st.transactions, a.st.replayed, a.st.revoked,
			a.st.bad_csum);

	prepare(data, size);
	memset(&walk, 0, sizeof(walk));
	run_walk(flags ^ RECOVER_FL_FULL_REVOKE, 0, &walk, &b);
	same_counts(&a, &b, "with and without RECOVER_FL_FULL_REVOKE");
	/* The walk reports every block it meets; the counters cover only
	 * the replayed transactions. */
	if (!b.err && b.opened)
		FUZZ_CHECK(walk.descriptors >= b.st.descriptor_blocks,
			   "the walk saw %llu descriptors and %llu revoke blocks, "
			   "the counters %llu and %llu", walk.descriptors,
			   walk.revoke_blocks, b.st.descriptor_blocks,
			   b.st.revoke_blocks);
	FUZZ_CHECK(same_image(result_a, memio_data()),
		   "RECOVER_FL_FULL_REVOKE changes the replayed image");

	if (ctl & CTL_DRY) {
		prepare(data, size);
		run(flags | RECOVER_FL_DRY_RUN, 0, &c);
		FUZZ_CHECK(memio_writes() == 0, "a dry run wrote %lu times",
			   memio_writes());
		FUZZ_CHECK(c.err == a.err, "dry run %ld, replay %ld",
			   (long)c.err, (long)a.err);
		if (!a.err)
			FUZZ_CHECK(c.st.replayed == a.st.replayed,
				   "dry run would replay %llu, replay did %llu",
				   c.st.replayed, a.st.replayed);
	}

	if (ctl & CTL_STOP) {
		uint32_t start;
		int before;

		prepare(data, size);
		before = get_needs_recovery();
		start = get_be32(memio_jblock(0) + JSB_START);
		run(flags, data[3] + 1U, &c);
		if (c.err != RECOVER_ET_INTERRUPTED)
			return;
		FUZZ_CHECK(get_needs_recovery() == before,
			   "an interrupted replay changed needs_recovery");
		FUZZ_CHECK(get_be32(memio_jblock(0) + JSB_START) == start,
			   "an interrupted replay changed s_start");
		/*
		 * Finishing the replay gives the uninterrupted result, unless
		 * the blocks written so far overwrote the journal or the
		 * filesystem's metadata: then the log itself has changed.
		 */
		if (touched_metadata())
			return;
		run(flags, 0, &b);
		FUZZ_CHECK(!b.open_err, "no longer opens after an interruption");
		FUZZ_CHECK(b.err == a.err, "after an interruption %ld, "
			   "uninterrupted %ld", (long)b.err, (long)a.err);
		FUZZ_CHECK(same_image(result_a, memio_data()),
			   "an interrupted then finished replay differs from "
			   "an uninterrupted one");
	}
}

/* ---- mkcorpus.sh's helpers --------------------------------------------- */

#ifndef FUZZING_ENGINE

static int write_image(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(memio_pristine(), 1, FS_BYTES, f) != FS_BYTES) {
		perror(path);
		if (f)
			fclose(f);
		return 1;
	}
	return fclose(f) ? 1 : 0;
}

/* The journal of a filesystem made with -w (same layout), as an input. */
static int convert(const char *path, unsigned int ctl)
{
	unsigned char hdr[HDR], *img = malloc(FS_BYTES), *jsb;
	uint32_t maxlen, first, j, used = 0;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f || !img) {
		perror(path);
		return 1;
	}
	n = fread(img, 1, FS_BYTES, f);
	fclose(f);
	if (n != FS_BYTES) {
		fprintf(stderr, "%s: not an image made by -w\n", path);
		return 1;
	}
	jsb = img + memio_jblock_off(0);
	if (get_be32(jsb) != JBD2_MAGIC) {
		fprintf(stderr, "%s: no journal superblock where -w put it\n",
			path);
		return 1;
	}
	maxlen = get_be32(jsb + JSB_MAXLEN);
	first = get_be32(jsb + JSB_FIRST);
	memset(hdr, 0, sizeof(hdr));
	hdr[0] = (unsigned char)ctl;
	hdr[1] = (get_be32(jsb + JBD2_HDR_BLOCKTYPE) == JBD2_SUPERBLOCK_V1) |
		 ((get_be32(jsb + JSB_FEATURE_COMPAT) & 1) << 1);
	hdr[2] = (unsigned char)get_be32(jsb + JSB_FEATURE_INCOMPAT);
	memcpy(hdr + 4, jsb + JSB_SEQUENCE, 4);
	put_be16(hdr + 8, (uint16_t)get_be32(jsb + JSB_START));
	put_be16(hdr + 10, maxlen == JBLOCKS ? 0 : (uint16_t)maxlen);
	put_be16(hdr + 12, first == 1 ? 0 : (uint16_t)first);
	put_be16(hdr + 14, (uint16_t)get_be32(jsb + JSB_ERRNO));
	fwrite(hdr, 1, sizeof(hdr), stdout);
	if (ctl & CTL_RAW)
		fwrite(jsb, 1, JSB_SIZE, stdout);
	/* The log up to its last block that is not all zeros. */
	for (j = 1; j < JBLOCKS; j++) {
		const unsigned char *b = img + memio_jblock_off(j);
		unsigned int i;

		for (i = 0; i < FS_BS && !b[i]; i++)
			;
		if (i < FS_BS)
			used = j;
	}
	for (j = 1; j <= used; j++)
		fwrite(img + memio_jblock_off(j), 1, FS_BS, stdout);
	free(img);
	return fflush(stdout) ? 1 : 0;
}

static int fuzz_main(int argc, char **argv)
{
	if (strcmp(argv[1], "-w") && strcmp(argv[1], "-c"))
		return -1;
	if (argc < 3 || argc > 4 || (argv[1][1] == 'w' && argc != 3)) {
		fprintf(stderr, "usage: %s -w IMAGE | -c IMAGE [CTL]\n", argv[0]);
		return 2;
	}
	if (fuzz_init()) {
		fprintf(stderr, "%s: cannot build the filesystem\n", argv[0]);
		return 2;
	}
	if (argv[1][1] == 'w')
		return write_image(argv[2]);
	return convert(argv[2], argc == 4 ? (unsigned int)strtoul(argv[3], NULL, 0) : 0);
}
#endif
