/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_replay_test.c -- unit tests of the fast-commit replay
 * (lib/fc_replay.c): records written here one by one into the fast-commit
 * area of a filesystem built in memory (tests/lib/memio.c: 4 MiB, 1 KiB
 * blocks, metadata_csum), replayed through the public calls, and the
 * result read back with libext2fs.  Each case is a shape the kernel's
 * mount-time replay was seen to handle otherwise than libext2fs alone:
 *
 *   evict     a DEL_ENTRY of a file's last name: the inode is released
 *             (links 0, dtime set, out of the inode bitmap, its blocks
 *             free), not left in use with one link
 *   reuse     the same, then a new file of that number: an INODE record,
 *             one ADD_RANGE, its name, and a truncation's two DEL_RANGE
 *             records of 2^31-1 blocks: replayed (once refused with
 *             EOVERFLOW), and the new file maps its one block only (once
 *             the old file's blocks stayed past its end)
 *   merge     an unwritten range written one block at a time, out of
 *             order: one written extent at the end, as the kernel's
 *             extent code merges it (libext2fs alone leaves four)
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
#include "fc_fs.h"
#include "fc_replay.h"
#include "fc_state.h"
#include "../lib/fcfix.h"
#include "../lib/memio.h"

#define FS_BYTES	FCFIX_BYTES
#define FS_BS		FCFIX_BS
#define JBLOCKS		FCFIX_JBLOCKS
#define FC_BLOCKS	FCFIX_FC_BLOCKS
#define FC_FIRST	(JBLOCKS - FC_BLOCKS + 1)
#define TID		2U
#define ISIZE		256U

/* The files build_fs() makes: "d", "d/a" (3 blocks), "d/b" (12). */
static ext2_ino_t INO_DIR, INO_A, INO_B;

static errcode_t build_fs(void)
{
	struct fcfix_files f;
	errcode_t err = fcfix_build(0x5a, 7, 0, &f);

	INO_DIR = f.dir;
	INO_A = f.a;
	INO_B = f.b;
	if (err)
		fprintf(stderr, "fc_replay_test: build: %ld\n", (long)err);
	return err;
}

/* ---- the area, written record by record -------------------------------- */

struct area {
	unsigned int	blk;		/* journal block being written */
	unsigned int	pos;
	uint32_t	crc;
};

static unsigned char *rec(struct area *a, unsigned int tag, unsigned int len)
{
	unsigned char *b = memio_jblock(a->blk), *p;

	assert_true(a->pos + FC_TL_SIZE + len <= FS_BS);
	p = b + a->pos;
	put_le16(p + FC_TL_TAG, tag);
	put_le16(p + FC_TL_LEN, len);
	a->pos += FC_TL_SIZE + len;
	return p + FC_TL_SIZE;
}

/* The record just written (value length len) into the running crc. */
static void sum(struct area *a, const unsigned char *val, unsigned int len)
{
	a->crc = ext2fs_crc32c_le(a->crc, val - FC_TL_SIZE, FC_TL_SIZE + len);
}

static void area_begin(struct area *a)
{
	unsigned char *v;
	unsigned int j;

	for (j = FC_FIRST; j < JBLOCKS; j++) {
		memset(memio_jblock(j), 0, FS_BS);
		memio_touch_jblock(j);
	}
	memset(a, 0, sizeof(*a));
	a->blk = FC_FIRST;
	v = rec(a, FC_TAG_HEAD, FC_HEAD_SIZE);
	put_le32(v + FC_HEAD_FEATURES, 0);
	put_le32(v + FC_HEAD_TID, TID);
	sum(a, v, FC_HEAD_SIZE);
}

static void tail(struct area *a)
{
	unsigned char *v = rec(a, FC_TAG_TAIL, FC_TAIL_SIZE);

	put_le32(v + FC_TAIL_TID, TID);
	a->crc = ext2fs_crc32c_le(a->crc, v - FC_TL_SIZE,
				  FC_TL_SIZE + FC_TAIL_CRC);
	put_le32(v + FC_TAIL_CRC, a->crc);
	a->crc = 0;
}

static void add_range(struct area *a, uint32_t ino, uint32_t lblk,
		      uint64_t pblk, unsigned int len, int unwritten)
{
	unsigned char *v = rec(a, FC_TAG_ADD_RANGE, FC_ADD_RANGE_SIZE);
	unsigned char *ex = v + FC_ADD_RANGE_EXTENT;

	put_le32(v + FC_ADD_RANGE_INO, ino);
	put_le32(ex + FC_EXTENT_LBLK, lblk);
	put_le16(ex + FC_EXTENT_LEN, len + (unwritten ? FC_EXT_INIT_MAX_LEN : 0));
	put_le16(ex + FC_EXTENT_START_HI, (unsigned int)(pblk >> 32));
	put_le32(ex + FC_EXTENT_START_LO, (uint32_t)pblk);
	sum(a, v, FC_ADD_RANGE_SIZE);
}

static void del_range(struct area *a, uint32_t ino, uint32_t lblk,
		      uint32_t len)
{
	unsigned char *v = rec(a, FC_TAG_DEL_RANGE, FC_DEL_RANGE_SIZE);

	put_le32(v + FC_DEL_RANGE_INO, ino);
	put_le32(v + FC_DEL_RANGE_LBLK, lblk);
	put_le32(v + FC_DEL_RANGE_LEN, len);
	sum(a, v, FC_DEL_RANGE_SIZE);
}

static void dentry(struct area *a, unsigned int tag, uint32_t parent,
		   uint32_t ino, const char *name)
{
	unsigned int n = (unsigned int)strlen(name);
	unsigned char *v = rec(a, tag, FC_DENTRY_SIZE + n);

	put_le32(v + FC_DENTRY_PARENT, parent);
	put_le32(v + FC_DENTRY_INO, ino);
	memcpy(v + FC_DENTRY_NAME, name, n);
	sum(a, v, FC_DENTRY_SIZE + n);
}

static ext2_filsys open_fs(int rw);
static void close_fs(ext2_filsys fs);

/* An INODE record of raw, an inode as libext2fs gives it (in the host's
 * byte order): the record holds it as the disk does, little-endian. */
static void inode_rec(struct area *a, uint32_t ino, const unsigned char *raw)
{
	unsigned char *v = rec(a, FC_TAG_INODE, FC_INODE_SIZE + ISIZE);

	put_le32(v + FC_INODE_INO, ino);
	memcpy(v + FC_INODE_RAW, raw, ISIZE);
	if (fc_state_big_endian_host()) {
		ext2_filsys fs = open_fs(0);

		ext2fs_swap_inode_full(fs,
			(struct ext2_inode_large *)(v + FC_INODE_RAW),
			(struct ext2_inode_large *)(v + FC_INODE_RAW), 1, ISIZE);
		close_fs(fs);
	}
	sum(a, v, FC_INODE_SIZE + ISIZE);
}

static void area_end(struct area *a)
{
	memio_touch_jblock(a->blk);
}

/* The log: FAST_COMMIT, one empty committed transaction (tid 1). */
static void lay_log(void)
{
	unsigned char *jsb = memio_jblock(0), *c = memio_jblock(1);
	unsigned char *es = memio_data() + SUPERBLOCK_OFFSET;

	put_be32(jsb + JSB_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_REVOKE |
		 JBD2_FEATURE_INCOMPAT_FAST_COMMIT);
	put_be32(jsb + JSB_SEQUENCE, 1);
	put_be32(jsb + JSB_START, 1);
	memio_touch_jblock(0);
	memset(c, 0, FS_BS);
	put_be32(c + JBD2_HDR_MAGIC, JBD2_MAGIC);
	put_be32(c + JBD2_HDR_BLOCKTYPE, JBD2_COMMIT_BLOCK);
	put_be32(c + JBD2_HDR_SEQUENCE, 1);
	memio_touch_jblock(1);
	put_le32(es + 0x60, get_le32(es + 0x60) | EXT3_FEATURE_INCOMPAT_RECOVER);
	put_le32(es + 0x3FC, ext2fs_crc32c_le(~0U, es, 0x3FC));
	memio_touch(SUPERBLOCK_OFFSET, SUPERBLOCK_SIZE);
}

/* ---- running and looking ------------------------------------------------- */

static ext2_filsys open_fs(int rw)
{
	ext2_filsys fs = NULL;

	assert_int_equal(ext2fs_open2("memory", NULL, EXT2_FLAG_64BITS |
				      EXT2_FLAG_IGNORE_CSUM_ERRORS |
				      (rw ? EXT2_FLAG_RW : 0), 0, 0,
				      memio_manager, &fs), 0);
	assert_int_equal(ext2fs_read_bitmaps(fs), 0);
	return fs;
}

static void close_fs(ext2_filsys fs)
{
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
	ext2fs_close_free(&fs);
}

/* recover_replay() on the image; its result, with the stats in *st. */
static errcode_t replay(struct recover_stats *st)
{
	struct recover_options opts;
	ext2_filsys fs = open_fs(1);
	recover_t r;
	errcode_t err;

	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.io_manager = memio_manager;
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	err = recover_open_fs(fs, &opts, &r);
	if (!err) {
		err = recover_replay(r);
		recover_get_stats(r, st);
		recover_close(r);
	}
	close_fs(fs);
	return err;
}

/* The raw inode ino as the filesystem has it now. */
static void raw_inode(ext2_ino_t ino, unsigned char *raw)
{
	ext2_filsys fs = open_fs(0);

	assert_int_equal(ext2fs_read_inode_full(fs, ino,
				(struct ext2_inode *)raw, ISIZE), 0);
	close_fs(fs);
}

/* A free block well away from what the files use. */
static blk64_t free_block(blk64_t goal)
{
	ext2_filsys fs = open_fs(0);
	blk64_t b = 0;

	assert_int_equal(ext2fs_new_block2(fs, goal, NULL, &b), 0);
	close_fs(fs);
	return b;
}

/* The physical blocks of ino's first n logical blocks (0: a hole). */
static void map_of(ext2_filsys fs, ext2_ino_t ino, blk64_t *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		p[i] = 0;
		assert_int_equal(ext2fs_bmap2(fs, ino, NULL, NULL, 0, i, NULL,
					      &p[i]), 0);
	}
}

static int setup(void **state)
{
	(void)state;
	memio_reset();
	lay_log();
	return 0;
}

/* ---- the cases ------------------------------------------------------------ */

static void test_evict(void **state)
{
	struct recover_stats st;
	struct ext2_inode inode;
	ext2_filsys fs;
	struct area a;
	blk64_t old[3];
	ext2_ino_t found;
	unsigned int i;

	(void)state;
	fs = open_fs(0);
	map_of(fs, INO_A, old, 3);
	close_fs(fs);
	area_begin(&a);
	dentry(&a, FC_TAG_UNLINK, INO_DIR, INO_A, "a");
	tail(&a);
	area_end(&a);
	assert_int_equal(replay(&st), 0);
	assert_int_equal(st.fc_replayed, 3);
	fs = open_fs(0);
	assert_int_equal(ext2fs_read_inode(fs, INO_A, &inode), 0);
	assert_int_equal(inode.i_links_count, 0);
	assert_true(inode.i_dtime != 0);
	assert_int_equal(EXT2_I_SIZE(&inode), 0);
	assert_false(ext2fs_test_inode_bitmap2(fs->inode_map, INO_A));
	for (i = 0; i < 3; i++) {
		assert_true(old[i] != 0);
		assert_false(ext2fs_test_block_bitmap2(fs->block_map, old[i]));
	}
	assert_int_not_equal(ext2fs_lookup(fs, INO_DIR, "a", 1, NULL, &found),
			     0);
	close_fs(fs);
}

static void test_reuse(void **state)
{
	unsigned char raw[ISIZE];
	struct ext2_inode *ri = (struct ext2_inode *)raw, inode;
	struct recover_stats st;
	ext2_filsys fs;
	struct area a;
	blk64_t p = free_block(3000), m[3];
	ext2_ino_t found = 0;

	(void)state;
	/* The new file: one block, 1000 bytes; its i_block is not used; a
	 * new file of a reused number has another generation. */
	raw_inode(INO_A, raw);
	ri->i_generation++;
	ri->i_size = 1000;
	ri->i_blocks = FS_BS / 512;
	ri->i_links_count = 1;
	ri->i_dtime = 0;
	area_begin(&a);
	dentry(&a, FC_TAG_UNLINK, INO_DIR, INO_A, "a");
	inode_rec(&a, INO_A, raw);
	add_range(&a, INO_A, 0, p, 1, 0);
	dentry(&a, FC_TAG_CREAT, INO_DIR, INO_A, "n");
	inode_rec(&a, INO_A, raw);
	tail(&a);
	/* A truncation to 1000 bytes, as the kernel logs it. */
	del_range(&a, INO_A, 1, 0x7FFFFFFFU);
	del_range(&a, INO_A, 0x80000000U, 0x7FFFFFFFU);
	inode_rec(&a, INO_A, raw);
	tail(&a);
	area_end(&a);
	assert_int_equal(replay(&st), 0);
	fs = open_fs(0);
	map_of(fs, INO_A, m, 3);
	assert_int_equal(m[0], p);
	assert_int_equal(m[1], 0);
	assert_int_equal(m[2], 0);
	assert_int_equal(ext2fs_read_inode(fs, INO_A, &inode), 0);
	assert_int_equal(inode.i_links_count, 1);
	assert_int_equal(inode.i_blocks, FS_BS / 512);
	assert_int_equal(EXT2_I_SIZE(&inode), 1000);
	assert_true(ext2fs_test_inode_bitmap2(fs->inode_map, INO_A));
	assert_true(ext2fs_test_block_bitmap2(fs->block_map, p));
	assert_int_equal(ext2fs_lookup(fs, INO_DIR, "n", 1, NULL, &found), 0);
	assert_int_equal(found, INO_A);
	close_fs(fs);
}

/*
 * A file whose last name an UNLINK took, then an INODE record of the same
 * generation: the file is back with the blocks it had (a rename into an
 * inline directory whose record already holds the new name).
 */
static void test_revive(void **state)
{
	unsigned char raw[ISIZE];
	struct ext2_inode inode;
	struct recover_stats st;
	ext2_filsys fs;
	struct area a;
	blk64_t old[3], now[3];
	unsigned int i;

	(void)state;
	fs = open_fs(0);
	map_of(fs, INO_A, old, 3);
	close_fs(fs);
	raw_inode(INO_A, raw);
	area_begin(&a);
	dentry(&a, FC_TAG_UNLINK, INO_DIR, INO_A, "a");
	inode_rec(&a, INO_A, raw);
	tail(&a);
	area_end(&a);
	assert_int_equal(replay(&st), 0);
	fs = open_fs(0);
	map_of(fs, INO_A, now, 3);
	assert_int_equal(ext2fs_read_inode(fs, INO_A, &inode), 0);
	assert_int_equal(inode.i_links_count, 1);
	assert_int_equal(inode.i_dtime, 0);
	assert_true(ext2fs_test_inode_bitmap2(fs->inode_map, INO_A));
	for (i = 0; i < 3; i++) {
		assert_true(old[i] != 0);
		assert_int_equal(now[i], old[i]);
		assert_true(ext2fs_test_block_bitmap2(fs->block_map, old[i]));
	}
	close_fs(fs);
}

/*
 * The replay checked against the log: an INODE record that takes the
 * extents flag away leaves the file's i_block read as block pointers, so
 * the block an ADD_RANGE gave it is no longer mapped: refused
 * (RECOVER_ET_FC_LOST), nothing written.
 */
static void test_lost(void **state)
{
	unsigned char raw[ISIZE], before[ISIZE], after[ISIZE];
	struct ext2_inode *ri = (struct ext2_inode *)raw;
	struct recover_stats st;
	struct area a;
	blk64_t p = free_block(3400);

	(void)state;
	raw_inode(INO_B, raw);
	memcpy(before, raw, sizeof(before));
	ri->i_flags &= ~EXT4_EXTENTS_FL;
	area_begin(&a);
	add_range(&a, INO_B, 0, p, 1, 0);
	inode_rec(&a, INO_B, raw);
	tail(&a);
	area_end(&a);
	assert_int_equal(replay(&st), RECOVER_ET_FC_REPLAY);
	assert_int_equal(st.fc_error, RECOVER_ET_FC_LOST);
	raw_inode(INO_B, after);
	assert_memory_equal(before, after, sizeof(before));
}

/*
 * Two files the replay touches left mapping one block: an ADD_RANGE gives
 * "a" a block "b" maps, and an INODE record touches "b" too.  The kernel
 * would leave them sharing it; the replay is refused
 * (RECOVER_ET_FC_SHARED), nothing written.
 */
static void test_shared(void **state)
{
	unsigned char raw[ISIZE], before_a[ISIZE], before_b[ISIZE];
	unsigned char after[ISIZE];
	struct recover_stats st;
	ext2_filsys fs;
	struct area a;
	blk64_t pb;

	(void)state;
	fs = open_fs(0);
	map_of(fs, INO_B, &pb, 1);
	close_fs(fs);
	assert_true(pb != 0);
	raw_inode(INO_A, before_a);
	raw_inode(INO_B, before_b);
	memcpy(raw, before_b, sizeof(raw));
	area_begin(&a);
	add_range(&a, INO_A, 10, pb, 1, 0);
	inode_rec(&a, INO_B, raw);
	tail(&a);
	area_end(&a);
	assert_int_equal(replay(&st), RECOVER_ET_FC_REPLAY);
	assert_int_equal(st.fc_error, RECOVER_ET_FC_SHARED);
	raw_inode(INO_A, after);
	assert_memory_equal(before_a, after, sizeof(after));
	raw_inode(INO_B, after);
	assert_memory_equal(before_b, after, sizeof(after));
}

static void test_merge(void **state)
{
	static const unsigned int order[] = { 0, 2, 1, 3 };
	struct recover_stats st;
	struct ext2fs_extent ex;
	ext2_extent_handle_t h;
	ext2_filsys fs;
	struct area a;
	blk64_t q = free_block(3200);
	unsigned int i, n = 0, covering = 0;
	errcode_t err;

	(void)state;
	area_begin(&a);
	add_range(&a, INO_B, 20, q, 4, 1);
	tail(&a);
	for (i = 0; i < 4; i++) {
		add_range(&a, INO_B, 20 + order[i], q + order[i], 1, 0);
		tail(&a);
	}
	area_end(&a);
	assert_int_equal(replay(&st), 0);
	fs = open_fs(0);
	assert_int_equal(ext2fs_extent_open(fs, INO_B, &h), 0);
	for (err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &ex); !err;
	     err = ext2fs_extent_get(h, EXT2_EXTENT_NEXT_LEAF, &ex)) {
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF))
			continue;
		n++;
		if (ex.e_lblk + ex.e_len > 20) {
			covering++;
			assert_true(ex.e_lblk <= 20 && ex.e_lblk + ex.e_len >= 24);
			assert_int_equal(ex.e_pblk + (20 - ex.e_lblk), q);
			assert_false(ex.e_flags & EXT2_EXTENT_FLAGS_UNINIT);
		}
	}
	ext2fs_extent_free(h);
	assert_int_equal(covering, 1);
	assert_true(n <= 3);	/* the file's 12 blocks, then these four */
	close_fs(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_evict, setup),
		cmocka_unit_test_setup(test_reuse, setup),
		cmocka_unit_test_setup(test_revive, setup),
		cmocka_unit_test_setup(test_lost, setup),
		cmocka_unit_test_setup(test_shared, setup),
		cmocka_unit_test_setup(test_merge, setup),
	};
	int verbose;

	if (memio_setup(FS_BYTES, build_fs, &verbose)) {
		fprintf(stderr, "fc_replay_test: the filesystem was not built\n");
		return 99;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
