/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_replay.c -- replaying the valid records of the fast-commit area, after
 * the log's blocks were written, with the kernel's semantics
 * (fs/ext4/fast_commit.c, ext4_fc_replay_*), through libext2fs.
 *
 * The fast commits work on the filesystem the full commits leave.  A
 * second ext2_filsys is opened on a view of it held in memory
 * (fc_overlay.c, reached through the io manager of fc_io.c), and closed
 * (bitmaps, primary group descriptors and superblock written into the
 * view); then the log's blocks are written, and the view's blocks after
 * them, through the channel librecover writes with (so an undo file, or a
 * caller's io manager, sees these writes too), before the journal is
 * reset.
 *
 * Per record, as the kernel does it:
 *   INODE      the raw inode replaces the one on disk, but for i_block: an
 *              extent inode keeps its tree from disk (a fresh empty root
 *              when the disk holds none), an inline-data inode takes
 *              i_block from the record.  The blocks the old inode mapped
 *              are released first.
 *   ADD_RANGE  each logical block is mapped to its physical block (written
 *              or unwritten as the record says); a block the inode mapped
 *              elsewhere before is released.  On an inode still inline the
 *              range is held until an INODE record takes it out of line.
 *   DEL_RANGE  the logical blocks are unmapped and released.
 *   CREAT      a new directory gets "." and ".."; the name is linked, and
 *              the link count set to 1 (the INODE record that follows sets
 *              the real one).  A one-block directory a name does not fit
 *              in becomes an indexed one, as ext4_add_entry() makes it.
 *   LINK       the name is linked and the inode gets one link more (a name
 *              already there is left alone).
 *   UNLINK     the name is removed and the inode loses a link; at none it
 *              is released as the kernel evicts it, at the end of the
 *              replay, unless an INODE record of the same generation
 *              brings it back first (a name already gone is fine).
 *   HEAD, PAD, TAIL: nothing.
 * Records naming an inode that is not in use are skipped, as the kernel's
 * ext4_iget() failing skips them.  At the end the touched inodes' trees
 * are merged and made shallower as the kernel's extent code leaves them,
 * the block bitmap gets every block the touched inodes map (data and
 * extent tree), i_blocks is counted again, and the group and superblock
 * counters are recomputed from the bitmaps (the group flags changed only
 * as the kernel changes them).
 *
 * Before anything is written, fc_replay_check() refuses records that name
 * an inode past s_inodes_count, a block outside the filesystem or a name
 * holding a NUL or '/': the kernel's replay fails or corrupts on those.
 * After the replay, still before anything is written, fc_verify.c checks
 * that every file in use maps the blocks its last records gave it.
 *
 * This file walks the area and hands each record to its replayer: the
 * inode records are fc_inode.c's, the directory records fc_dir.c's, and
 * the extent trees and the blocks they map fc_extent.c's (fc_replay.h is
 * what they share).  The checks, the end of the replay (bitmaps and
 * counters) and the entry points declared in fc.h are here.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc_fs.h"
#include "fc_replay.h"
#include "fc_dir.h"
#include "fc_extent.h"
#include "fc_inode.h"
#include "fc_io.h"
#include "fc_overlay.h"
#include "fc_state.h"
#include "fc_verify.h"

/* ---- the records -------------------------------------------------------- */

static int apply(void *data, const struct fc_tag *t, int valid)
{
	struct fc_state *c = data;

	/* What each record changes; PAD, TAIL and HEAD change nothing. */
	static errcode_t (*const replay_tag[])(struct fc_state *,
					       const struct fc_tag *) = {
		[FC_TAG_ADD_RANGE]	= fc_inode_replay_range,
		[FC_TAG_DEL_RANGE]	= fc_inode_replay_range,
		[FC_TAG_CREAT]		= fc_dir_replay_create,
		[FC_TAG_LINK]		= fc_dir_replay_link,
		[FC_TAG_UNLINK]		= fc_dir_replay_unlink,
		[FC_TAG_INODE]		= fc_inode_replay,
	};

	if (!valid)
		return 1;
	c->err = fc_verify_expect(c, t);
	if (!c->err && t->tag < sizeof(replay_tag) / sizeof(replay_tag[0]) &&
	    replay_tag[t->tag])
		c->err = replay_tag[t->tag](c, t);
	c->applied++;
	return c->err != 0;
}

/* Walk the area again, handing the valid records to fn. */
static errcode_t for_each_valid(const struct pass_log *pl, ext2_filsys fs,
				const struct fc_result *res, fc_tag_fn fn,
				void *data, int *stopped)
{
	const struct jsuper *sb = pl->sb;
	struct fc_scan s;
	unsigned char *buf;
	uint32_t blk;
	errcode_t err = 0;

	buf = fc_area_begin(sb, EXT2_INODE_SIZE(fs->super), &s, res->tid,
			    res->tags);
	if (!buf)
		return ENOMEM;
	for (blk = sb->last + 1; blk < sb->pub.maxlen; blk++) {
		err = source_read(pl->src, blk, 1, buf);
		if (err || !fc_scan_block(&s, buf, fn, data) ||
		    s.tags >= res->tags)
			break;
	}
	*stopped = s.interrupted;
	free(buf);
	return err;
}

/* ---- checks before anything is written ---------------------------------- */

struct fcheck {
	ext2_filsys	fs;
	errcode_t	err;
};

static int check_one(void *data, const struct fc_tag *t, int valid)
{
	struct fcheck *k = data;
	struct ext2_super_block *es = k->fs->super;
	uint64_t blocks = ext2fs_blocks_count(es);
	int bad = 0;

	if (!valid)
		return 1;
	switch (t->tag) {
	case FC_TAG_ADD_RANGE:
		bad = t->pblk < es->s_first_data_block ||
		      t->pblk + t->count > blocks ||
		      (uint64_t)t->lblk + t->count > 0x100000000ULL;
		/* fall through */
	case FC_TAG_DEL_RANGE:
	case FC_TAG_INODE:
		bad = bad || !t->ino || t->ino > es->s_inodes_count;
		break;
	case FC_TAG_CREAT:
	case FC_TAG_LINK:
	case FC_TAG_UNLINK:
		bad = !t->ino || t->ino > es->s_inodes_count ||
		      !t->parent || t->parent > es->s_inodes_count ||
		      memchr(t->name, 0, t->name_len) ||
		      memchr(t->name, '/', t->name_len);
		break;
	}
	if (t->tag == FC_TAG_INODE && t->raw_len < FC_GOOD_OLD_INODE_SIZE)
		bad = 1;
	if (bad)
		k->err = RECOVER_ET_FC_RECORD;
	return bad;
}

errcode_t fc_replay_check(const struct pass_log *pl, ext2_filsys fs,
			  const struct fc_result *res)
{
	struct fcheck k = { .fs = fs };
	int stopped;
	errcode_t err;

	if (res->state != RECOVER_FC_LIVE)
		return 0;
	err = for_each_valid(pl, fs, res, check_one, &k, &stopped);
	return err ? err : k.err;
}

/* ---- the end of the replay ----------------------------------------------- */

/*
 * The group and superblock counters from the bitmaps (free clusters on
 * bigalloc, which libext2fs 1.47's ext2fs_calculate_summary_stats() counts
 * as blocks).  The group flags
 * change only as the kernel's replay changes them: on a filesystem with
 * group descriptor checksums a group whose block bitmap the replay changed
 * is no longer BLOCK_UNINIT, one with an inode in use no longer
 * INODE_UNINIT and its unused inode table shrinks to what lies past the
 * last inode in use; no flag is ever set, and without the checksums none
 * changes (libext2fs's ext2fs_calculate_summary_stats() would set
 * BLOCK_UNINIT and INODE_UNINIT on groups it finds empty, which a
 * filesystem without the checksums must never carry).
 */
static errcode_t group_counters(struct fc_state *c)
{
	ext2_filsys fs = c->fs;
	int csum = ext2fs_has_group_desc_csum(fs);
	uint32_t ipg = fs->super->s_inodes_per_group;
	blk64_t free_clusters = 0;
	uint64_t free_inodes = 0;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++) {
		ext2_ino_t first = (ext2_ino_t)g * ipg + 1, ino, last = 0;
		uint32_t nfree = 0, cfree = 0;
		blk64_t b = ext2fs_group_first_block2(fs, g);
		blk64_t e = ext2fs_group_last_block2(fs, g);

		/* Free clusters (blocks where there are no clusters). */
		for (; b <= e; b += EXT2FS_CLUSTER_RATIO(fs))
			if (!ext2fs_test_block_bitmap2(fs->block_map, b))
				cfree++;
		ext2fs_bg_free_blocks_count_set(fs, g, cfree);
		free_clusters += cfree;

		for (ino = first; ino < first + ipg; ino++) {
			if (!ext2fs_test_inode_bitmap2(fs->inode_map, ino))
				nfree++;
			else
				last = ino - first + 1;
		}
		ext2fs_bg_free_inodes_count_set(fs, g, nfree);
		free_inodes += nfree;
		if (csum && last) {
			ext2fs_bg_flags_clear(fs, g, EXT2_BG_INODE_UNINIT);
			if (ext2fs_bg_itable_unused(fs, g) > ipg - last)
				ext2fs_bg_itable_unused_set(fs, g, ipg - last);
		}
		if (csum && c->before &&
		    (ext2fs_bg_flags(fs, g) & EXT2_BG_BLOCK_UNINIT)) {
			blk64_t b = ext2fs_group_first_block2(fs, g);
			blk64_t e = ext2fs_group_last_block2(fs, g);

			for (; b <= e; b++)
				if (!ext2fs_test_block_bitmap2(fs->block_map, b) !=
				    !ext2fs_test_block_bitmap2(c->before, b))
					break;
			if (b <= e)
				ext2fs_bg_flags_clear(fs, g,
						      EXT2_BG_BLOCK_UNINIT);
		}
		ext2fs_group_desc_csum_set(fs, g);
	}
	ext2fs_free_blocks_count_set(fs->super, EXT2FS_C2B(fs, free_clusters));
	fs->super->s_free_inodes_count = (uint32_t)free_inodes;
	return 0;
}

/* The bitmaps and counters after the records, as the kernel's
 * ext4_fc_set_bitmaps_and_counters() and then some: i_blocks counted
 * again, directory counts, all group counters from the bitmaps. */
static errcode_t finish(struct fc_state *c)
{
	ext2_filsys fs = c->fs;
	size_t i;
	dgrp_t g;
	errcode_t err;

	err = fc_inode_evict_unlinked(c);
	if (err)
		return err;
	/* Before the regions are let go: new tree blocks must avoid them. */
	for (i = 0; i < c->nt; i++) {
		err = fc_extent_compact_tree(c, c->t[i].ino);
		if (err)
			return err;
	}
	fs->priv_data = NULL;
	for (i = 0; i < c->nreg; i++)
		ext2fs_unmark_block_bitmap_range2(fs->block_map, c->reg[i].pblk,
						  c->reg[i].count);
	for (i = 0; i < c->nfreed; i++)
		ext2fs_unmark_block_bitmap_range2(fs->block_map,
						  c->freed[i].pblk,
						  c->freed[i].count);
	for (i = 0; i < c->nt; i++) {
		ext2_ino_t ino = c->t[i].ino;
		struct ext2_inode *inode = fc_state_small_inode(c->ibuf);
		blk64_t n = 0;
		int is_dir;

		err = fc_state_read_inode(c, ino, c->ibuf);
		if (err)
			return err;
		is_dir = 0;
		if (fc_state_inode_in_use(c->ibuf)) {
			ext2fs_mark_inode_bitmap2(fs->inode_map, ino);
			err = fc_extent_walk_blocks(c, ino, c->ibuf, 1, &n);
			if (err)
				return err;
			if (ext2fs_file_acl_block(fs, inode) &&
			    ext2fs_file_acl_block(fs, inode) <
			    ext2fs_blocks_count(fs->super)) {
				ext2fs_mark_block_bitmap2(fs->block_map,
					ext2fs_file_acl_block(fs, inode));
				n++;
			}
			if (fc_extent_has_root(c->ibuf)) {
				err = ext2fs_iblk_set(fs, inode, n);
				if (!err)
					err = fc_state_write_inode(c, ino,
								   c->ibuf);
				if (err)
					return err;
			}
			is_dir = LINUX_S_ISDIR(inode->i_mode);
		} else {
			ext2fs_unmark_inode_bitmap2(fs->inode_map, ino);
		}
		if (is_dir != c->t[i].was_dir) {
			g = ext2fs_group_of_ino(fs, ino);
			ext2fs_bg_used_dirs_count_set(fs, g,
				ext2fs_bg_used_dirs_count(fs, g) + (is_dir ? 1 : -1));
		}
	}
	err = group_counters(c);
	if (err)
		return err;
	ext2fs_mark_bb_dirty(fs);
	ext2fs_mark_ib_dirty(fs);
	ext2fs_mark_super_dirty(fs);
	return 0;
}

/* ---- the entry points ---------------------------------------------------- */

void fc_replay_free(struct fc_overlay **ovl)
{
	fc_overlay_free(*ovl);
	*ovl = NULL;
}

errcode_t fc_replay(const struct pass_log *pl, ext2_filsys fs,
		    struct fc_result *res, struct fc_overlay **ovl)
{
	struct fc_overlay *o = NULL;
	struct fc_state c;
	int stopped;
	size_t i;
	errcode_t err;

	memset(&c, 0, sizeof(c));
	err = fc_overlay_new(pl, fs, &o);
	*ovl = o;
	if (err)
		return err;
	err = fc_io_open(o, EXT2_FLAG_RW | EXT2_FLAG_64BITS |
			 EXT2_FLAG_IGNORE_CSUM_ERRORS |
			 EXT2_FLAG_MASTER_SB_ONLY, 0, 0, &c.fs);
	if (err)
		goto out;
	c.isize = EXT2_INODE_SIZE(c.fs->super);
	c.ibuf = calloc(1, c.isize);
	c.ibuf2 = calloc(1, c.isize);
	err = c.ibuf && c.ibuf2 ? 0 : ENOMEM;
	if (!err)
		err = ext2fs_read_bitmaps(c.fs);
	if (!err)
		err = ext2fs_copy_bitmap(c.fs->block_map, &c.before);
	if (!err)
		err = for_each_valid(pl, fs, res, fc_extent_note_region, &c,
				     &stopped);
	if (!err)
		err = c.err;
	/* Allocations on the way (directory blocks, extent tree blocks)
	 * must not land on blocks a later record maps. */
	fc_extent_merge_regions(&c);
	c.fs->priv_data = &c;
	ext2fs_set_block_alloc_stats_callback(c.fs, fc_extent_alloc_stats,
					      NULL);
	for (i = 0; !err && i < c.nreg; i++)
		ext2fs_mark_block_bitmap_range2(c.fs->block_map, c.reg[i].pblk,
						c.reg[i].count);
	if (!err)
		err = for_each_valid(pl, fs, res, apply, &c, &stopped);
	if (!err)
		err = c.err;
	if (!err)
		err = finish(&c);
	/* Nothing logged lost on the way (fc_verify.c), or nothing at all
	 * is written. */
	if (!err)
		err = fc_verify(&c);
	fc_verify_free(&c);
	res->replayed = err ? 0 : c.applied;
	if (c.before)
		ext2fs_free_block_bitmap(c.before);
	c.before = NULL;
	if (c.fs && err) {
		c.fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
		ext2fs_close_free(&c.fs);
	} else if (c.fs) {
		err = ext2fs_close_free(&c.fs);
	}
out:
	free(c.ibuf);
	free(c.ibuf2);
	free(c.t);
	free(c.reg);
	free(c.freed);
	free(c.held);
	if (err) {
		fc_replay_free(ovl);
		/* libext2fs's own codes say what went wrong inside. */
		res->error = err;
		return RECOVER_ET_FC_REPLAY;
	}
	return 0;
}

errcode_t fc_replay_commit(struct fc_overlay **ovl, io_channel io,
			   struct fc_result *res)
{
	unsigned long long bytes;
	errcode_t err;

	if (!*ovl)
		return 0;
	err = fc_overlay_write_out(*ovl, io, &bytes);
	if (!err)
		res->written_bytes += bytes;
	fc_replay_free(ovl);
	return err;
}
