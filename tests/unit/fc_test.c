/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_test.c -- unit tests of the fast-commit area scan (lib/fc.c).
 *
 * Fast-commit blocks are built record by record with this file's own
 * little-endian writers, and the tail checksums are computed here from the
 * rule (crc32c, seed 0, over every record since the previous tail up to the
 * tail's crc field); only the crc32c primitive is libext2fs's.  Blocks are
 * exactly one block long, so an overread shows under AddressSanitizer.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "librecoverP.h"
#include "fc_fs.h"

#define BS	1024
#define ISIZE	256
#define TID	7

static void l16(unsigned char *p, unsigned int v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void l32(unsigned char *p, uint32_t v)
{
	l16(p, v & 0xffff);
	l16(p + 2, v >> 16);
}

/* A block being written, and the crc since the last tail. */
struct w {
	unsigned char	*blk;
	unsigned int	pos;
	uint32_t	crc;
};

static void w_init(struct w *w, unsigned char *blk)
{
	memset(blk, 0, BS);
	w->blk = blk;
	w->pos = 0;
}

/* Append a record; returns a pointer to its value. */
static unsigned char *rec(struct w *w, unsigned int tag, unsigned int len)
{
	unsigned char *p = w->blk + w->pos;

	assert_true(w->pos + 4 + len <= BS);
	l16(p, tag);
	l16(p + 2, len);
	w->pos += 4 + len;
	return p + 4;
}

/* Records the crc covers once they are complete. */
static void sum(struct w *w, const unsigned char *val, unsigned int len)
{
	w->crc = ext2fs_crc32c_le(w->crc, val - 4, len + 4);
}

static void head(struct w *w, uint32_t features, uint32_t tid)
{
	unsigned char *v = rec(w, FC_TAG_HEAD, 8);

	l32(v, features);
	l32(v + 4, tid);
	sum(w, v, 8);
}

static void inode(struct w *w, uint32_t ino, unsigned int raw)
{
	unsigned char *v = rec(w, FC_TAG_INODE, 4 + raw);

	l32(v, ino);
	memset(v + 4, 0xa5, raw);
	sum(w, v, 4 + raw);
}

static void add_range(struct w *w, uint32_t ino, uint32_t lblk,
		      unsigned int ee_len, uint64_t pblk)
{
	unsigned char *v = rec(w, FC_TAG_ADD_RANGE, 16);

	l32(v, ino);
	l32(v + 4, lblk);
	l16(v + 8, ee_len);
	l16(v + 10, (unsigned int)(pblk >> 32));
	l32(v + 12, (uint32_t)pblk);
	sum(w, v, 16);
}

static void dentry(struct w *w, unsigned int tag, uint32_t parent,
		   uint32_t ino, const char *name)
{
	size_t n = strlen(name);
	unsigned char *v = rec(w, tag, 8 + (unsigned int)n);

	l32(v, parent);
	l32(v + 4, ino);
	memcpy(v + 8, name, n);
	sum(w, v, 8 + (unsigned int)n);
}

/* A PAD to the end of the block. */
static void pad(struct w *w)
{
	unsigned int len = BS - w->pos - 4;
	unsigned char *v = rec(w, FC_TAG_PAD, len);

	sum(w, v, len);
}

/* A TAIL filling the rest of the block, as the kernel writes it; bad
 * changes its crc. */
static void tail(struct w *w, uint32_t tid, uint32_t bad)
{
	unsigned int len = BS - w->pos - 4;
	unsigned char *v = rec(w, FC_TAG_TAIL, len);

	l32(v, tid);
	w->crc = ext2fs_crc32c_le(w->crc, v - 4, 8);
	l32(v + 4, w->crc ^ bad);
	w->crc = 0;
}

/* ---- the scan ------------------------------------------------------------- */

struct seen {
	unsigned int	n;
	struct fc_tag	t[16];
	int		valid[16];
	char		name[16][256];
};

static int record(void *data, const struct fc_tag *t, int valid)
{
	struct seen *s = data;

	if (s->n < 16) {
		s->t[s->n] = *t;
		s->valid[s->n] = valid;
		if (t->name)
			memcpy(s->name[s->n], t->name, t->name_len);
	}
	s->n++;
	return 0;
}

/* Scan nblk blocks; returns the verdict, *sc holds the counters. */
static enum recover_fc_state scan(unsigned char **blks, unsigned int nblk,
				  struct fc_scan *sc, struct seen *seen)
{
	enum recover_fc_state st;
	unsigned int i;

	fc_scan_init(sc, TID, BS, ISIZE);
	sc->limit = ~0ULL;
	for (i = 0; i < nblk; i++)
		if (!fc_scan_block(sc, blks[i], seen ? record : NULL, seen))
			break;
	if (i == nblk && !sc->done)
		sc->end = RECOVER_FC_END_AREA;
	assert_int_equal(fc_scan_verdict(sc, &st), 0);
	return st;
}

static void test_one_commit(void **state)
{
	unsigned char *b = malloc(BS);
	struct fc_scan sc;
	struct seen seen = { 0 };
	struct w w = { 0 };

	(void)state;
	w_init(&w, b);
	head(&w, 0, TID);
	inode(&w, 13, 160);
	add_range(&w, 14, 3, 2, 0x100000123ULL);
	dentry(&w, FC_TAG_CREAT, 2, 14, "new");
	tail(&w, TID, 0);
	/* The next block is zeroes: tag 0 is no tag, the scan stops. */
	{
		unsigned char *z = calloc(1, BS), *blks[2] = { b, z };

		assert_int_equal(scan(blks, 2, &sc, &seen), RECOVER_FC_LIVE);
		free(z);
	}
	assert_int_equal(sc.valid, 5);
	assert_int_equal(sc.commits, 1);
	assert_int_equal(sc.valid_blocks, 1);
	assert_int_equal(sc.end, RECOVER_FC_END_BAD_TAG);
	assert_int_equal(seen.n, 5);
	assert_int_equal(seen.t[0].tag, FC_TAG_HEAD);
	assert_int_equal(seen.t[0].tid, TID);
	assert_int_equal(seen.t[1].ino, 13);
	assert_int_equal(seen.t[1].raw_len, 160);
	assert_int_equal(seen.t[2].ino, 14);
	assert_int_equal(seen.t[2].lblk, 3);
	assert_int_equal(seen.t[2].count, 2);
	assert_int_equal(seen.t[2].unwritten, 0);
	assert_true(seen.t[2].pblk == 0x100000123ULL);
	assert_int_equal(seen.t[3].parent, 2);
	assert_int_equal(seen.t[3].name_len, 3);
	assert_memory_equal(seen.name[3], "new", 3);
	assert_int_equal(seen.t[4].tag, FC_TAG_TAIL);
	free(b);
}

static void test_unwritten(void **state)
{
	unsigned char *b = malloc(BS), *blks[1] = { b };
	struct fc_scan sc;
	struct seen seen = { 0 };
	struct w w = { 0 };

	(void)state;
	w_init(&w, b);
	head(&w, 0, TID);
	add_range(&w, 12, 0, 32768 + 5, 900);
	tail(&w, TID, 0);
	/* The area's last block ends in a good tail: the kernel reads on. */
	assert_int_equal(scan(blks, 1, &sc, &seen), RECOVER_FC_CORRUPT);
	assert_int_equal(seen.t[1].unwritten, 1);
	assert_int_equal(seen.t[1].count, 5);
	free(b);
}

static void test_no_head(void **state)
{
	unsigned char *b = malloc(BS), *blks[1] = { b };
	struct fc_scan sc;
	struct w w = { 0 };

	(void)state;
	w_init(&w, b);
	inode(&w, 13, 128);
	tail(&w, TID, 0);
	assert_int_equal(scan(blks, 1, &sc, NULL), RECOVER_FC_EMPTY);
	assert_int_equal(sc.end, RECOVER_FC_END_NO_HEAD);
	assert_int_equal(sc.valid, 0);
	assert_int_equal(sc.blocks, 0);
	free(b);
}

/* A HEAD of an older tid: stale, ignored, not an error. */
static void test_stale_head(void **state)
{
	unsigned char *b = malloc(BS), *blks[1] = { b };
	struct fc_scan sc;
	struct seen seen = { 0 };
	struct w w = { 0 };

	(void)state;
	w_init(&w, b);
	head(&w, 0, TID - 1);
	inode(&w, 13, 128);
	tail(&w, TID - 1, 0);
	assert_int_equal(scan(blks, 1, &sc, &seen), RECOVER_FC_EMPTY);
	assert_int_equal(sc.end, RECOVER_FC_END_HEAD_TID);
	assert_int_equal(seen.n, 0);
	free(b);
}

static void test_features(void **state)
{
	unsigned char *b = malloc(BS), *blks[1] = { b };
	struct fc_scan sc;
	struct w w = { 0 };

	(void)state;
	w_init(&w, b);
	head(&w, 1, TID - 1);	/* unknown features fail even a stale head */
	tail(&w, TID - 1, 0);
	assert_int_equal(scan(blks, 1, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.end, RECOVER_FC_END_FEATURES);
	free(b);
}

/* The first tail is bad: nothing valid, the kernel's recovery fails. */
static void test_bad_first_crc(void **state)
{
	unsigned char *b = malloc(BS), *blks[1] = { b };
	struct fc_scan sc;
	struct w w = { 0 };

	(void)state;
	w_init(&w, b);
	head(&w, 0, TID);
	inode(&w, 13, 128);
	tail(&w, TID, 0x10);
	assert_int_equal(scan(blks, 1, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.end, RECOVER_FC_END_TAIL);
	assert_int_equal(sc.valid, 0);
	free(b);
}

/* A later bad tail (or one of another tid) ends the area after the good
 * commits; a HEAD after a tail continues the crc afresh. */
static void test_later_bad_tail(void **state)
{
	unsigned char *b[3], *blks[3];
	struct fc_scan sc;
	struct seen seen = { 0 };
	struct w w = { 0 };
	unsigned int i, bad;

	(void)state;
	for (bad = 0; bad < 2; bad++) {
		for (i = 0; i < 3; i++)
			blks[i] = b[i] = malloc(BS);
		w_init(&w, b[0]);
		head(&w, 0, TID);
		inode(&w, 13, 128);
		tail(&w, TID, 0);
		w_init(&w, b[1]);
		dentry(&w, FC_TAG_LINK, 2, 13, "l");
		inode(&w, 13, 128);
		tail(&w, TID, 0);
		w_init(&w, b[2]);
		dentry(&w, FC_TAG_UNLINK, 2, 13, "l");
		if (bad)
			tail(&w, TID + 1, 0);
		else
			tail(&w, TID, 1);
		memset(&seen, 0, sizeof(seen));
		assert_int_equal(scan(blks, 3, &sc, &seen), RECOVER_FC_LIVE);
		assert_int_equal(sc.end, RECOVER_FC_END_TAIL);
		assert_int_equal(sc.valid, 6);
		assert_int_equal(sc.commits, 2);
		assert_int_equal(sc.valid_blocks, 2);
		assert_int_equal(sc.blocks, 3);
		assert_int_equal(seen.n, 8);
		for (i = 0; i < 3; i++)
			free(b[i]);
	}
}

/* The crc runs across blocks; PAD records count and are summed. */
static void test_pad_across_blocks(void **state)
{
	unsigned char *b0 = malloc(BS), *b1 = malloc(BS), *blks[2] = { b0, b1 };
	struct fc_scan sc;
	struct w w = { 0 };
	uint32_t crc;

	(void)state;
	w_init(&w, b0);
	head(&w, 0, TID);
	inode(&w, 13, 256);
	pad(&w);
	crc = w.crc;
	w_init(&w, b1);
	w.crc = crc;
	add_range(&w, 13, 0, 1, 5000);
	tail(&w, TID, 0);
	assert_int_equal(scan(blks, 2, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.end, RECOVER_FC_END_AREA);
	assert_int_equal(sc.valid, 5);
	assert_int_equal(sc.valid_blocks, 2);
	/* Losing the crc carried over breaks the tail. */
	w_init(&w, b1);
	add_range(&w, 13, 0, 1, 5000);
	tail(&w, TID, 0);
	assert_int_equal(scan(blks, 2, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.end, RECOVER_FC_END_TAIL);
	free(b0);
	free(b1);
}

/* Lengths: past the block, and not the size the tag needs. */
static void test_lengths(void **state)
{
	static const struct { unsigned int tag, len; int ok; } cases[] = {
		{ FC_TAG_ADD_RANGE, 16, 1 }, { FC_TAG_ADD_RANGE, 15, 0 },
		{ FC_TAG_ADD_RANGE, 17, 0 }, { FC_TAG_DEL_RANGE, 12, 1 },
		{ FC_TAG_DEL_RANGE, 16, 0 }, { FC_TAG_CREAT, 8, 0 },
		{ FC_TAG_CREAT, 9, 1 }, { FC_TAG_LINK, 8 + 255, 1 },
		{ FC_TAG_UNLINK, 8 + 256, 0 }, { FC_TAG_INODE, 4 + 127, 0 },
		{ FC_TAG_INODE, 4 + 128, 1 }, { FC_TAG_INODE, 4 + ISIZE, 1 },
		{ FC_TAG_INODE, 4 + ISIZE + 1, 0 }, { FC_TAG_PAD, 0, 1 },
		{ FC_TAG_TAIL, 7, 0 }, { FC_TAG_TAIL, 8, 1 },
		{ FC_TAG_HEAD, 8, 1 }, { FC_TAG_HEAD, 12, 0 },
		{ 0, 0, 0 }, { 10, 4, 0 }, { 0xffff, 0, 0 },
	};
	unsigned char *b0 = malloc(BS), *b1 = malloc(BS), *blks[2] = { b0, b1 };
	struct fc_scan sc;
	struct w w = { 0 };
	unsigned char *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(fc_value_len_ok(cases[i].tag, cases[i].len,
						 ISIZE), cases[i].ok);
	/* One good commit, then a record longer than what is left. */
	w_init(&w, b0);
	head(&w, 0, TID);
	tail(&w, TID, 0);
	w_init(&w, b1);
	v = rec(&w, FC_TAG_PAD, BS - 4 - 8);
	(void)v;
	l16(b1 + 2, BS - 4 + 1);
	assert_int_equal(scan(blks, 2, &sc, NULL), RECOVER_FC_LIVE);
	assert_int_equal(sc.end, RECOVER_FC_END_BAD_TAG);
	assert_int_equal(sc.end_off, 0);
	assert_int_equal(sc.valid, 2);
	/* The same right after the HEAD: nothing valid, recovery fails. */
	w_init(&w, b0);
	head(&w, 0, TID);
	l16(b0 + w.pos, FC_TAG_PAD);
	l16(b0 + w.pos + 2, BS - w.pos - 4 + 1);
	assert_int_equal(scan(blks, 1, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.end, RECOVER_FC_END_BAD_TAG);
	assert_int_equal(sc.end_off, 12);
	/* A record ending exactly at the block's end is fine. */
	w_init(&w, b0);
	head(&w, 0, TID);
	pad(&w);
	w_init(&w, b1);
	l16(b1, 0x4242);
	assert_int_equal(scan(blks, 2, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.blocks, 2);
	assert_int_equal(sc.tags, 2);
	free(b0);
	free(b1);
}

/* Fewer than 4 bytes left at a block's end: the next block goes on. */
static void test_short_rest(void **state)
{
	unsigned char *b0 = malloc(BS), *b1 = malloc(BS), *blks[2] = { b0, b1 };
	struct fc_scan sc;
	struct w w = { 0 };
	unsigned char *v;
	uint32_t crc;

	(void)state;
	w_init(&w, b0);
	head(&w, 0, TID);
	v = rec(&w, FC_TAG_PAD, BS - w.pos - 4 - 3);
	sum(&w, v, BS - (unsigned int)(v - b0) - 3);
	memset(b0 + BS - 3, 0xff, 3);	/* never read as a record */
	crc = w.crc;
	w_init(&w, b1);
	w.crc = crc;
	tail(&w, TID, 0);
	assert_int_equal(scan(blks, 2, &sc, NULL), RECOVER_FC_CORRUPT);
	assert_int_equal(sc.end, RECOVER_FC_END_AREA);
	assert_int_equal(sc.valid, 3);
	free(b0);
	free(b1);
}

/* recover_fc_tag_name(): the public numbers and debugfs's names. */
static void test_tag_names(void **state)
{
	static const char *const want[] = { NULL, "ADD_RANGE", "DEL_RANGE",
		"CREAT_DENTRY", "ADD_ENTRY", "DEL_ENTRY", "INODE", "PAD",
		"TAIL", "HEAD", NULL };
	unsigned int tag;

	(void)state;
	assert_int_equal(RECOVER_FC_TAG_ADD_RANGE, 1);
	assert_int_equal(RECOVER_FC_TAG_UNLINK, 5);
	assert_int_equal(RECOVER_FC_TAG_HEAD, 9);
	for (tag = 0; tag < sizeof(want) / sizeof(want[0]); tag++) {
		if (want[tag])
			assert_string_equal(recover_fc_tag_name(tag), want[tag]);
		else
			assert_null(recover_fc_tag_name(tag));
	}
	assert_null(recover_fc_tag_name(0xffff));
	assert_null(recover_fc_tag_name(~0u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_commit),
		cmocka_unit_test(test_unwritten),
		cmocka_unit_test(test_no_head),
		cmocka_unit_test(test_stale_head),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_bad_first_crc),
		cmocka_unit_test(test_later_bad_tail),
		cmocka_unit_test(test_pad_across_blocks),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_short_rest),
		cmocka_unit_test(test_tag_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
