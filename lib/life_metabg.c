/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_metabg.c -- the meta_bg descriptor copies e2fsck's close writes after
 * its replay, written by the end of a replay (lifecycle.c) before its first
 * flush: the layout of the filesystem as the replay leaves it, from the
 * superblock on disk, and each metagroup's descriptor block read back and
 * written over its copies (doc/design.md says why).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "librecoverP.h"
#include "ext4_fs.h"
#include "ext4_super.h"
#include "life_metabg.h"

/*
 * The filesystem's layout as the replay leaves it: a logged superblock
 * (a resize's) may have changed its group count.  e2fsck opens the
 * filesystem anew after its replay and closes it through that superblock:
 * lay and sb become copies of r->fs and its superblock, with the fields
 * that place the group descriptors read back from disk.  Returns 0 and leaves *ok 0
 * when that superblock is one e2fsck could not open (it would stop there,
 * writing none of the copies).
 */
static errcode_t layout_after(struct recover_struct *r,
			      struct struct_ext2_filsys *lay,
			      struct ext2_super_block *sb, int *ok)
{
	unsigned int bs = r->fs->blocksize;
	unsigned char *buf;
	unsigned long long blocks, groups;
	errcode_t err;

	*ok = 0;
	*lay = *r->fs;
	*sb = *r->fs->super;
	lay->super = sb;
	buf = malloc(bs);
	if (!buf)
		return ENOMEM;
	err = io_channel_read_blk64(r->fs->io, SUPERBLOCK_OFFSET / bs, 1, buf);
	if (err)
		goto out;
	if (!ext4_super_decode_layout(buf + SUPERBLOCK_OFFSET % bs, sb))
		goto out;
	/* What ext2fs_open2() would refuse, e2fsck's reopen with it. */
	blocks = ext2fs_blocks_count(sb);
	if (!sb->s_blocks_per_group ||
	    sb->s_blocks_per_group > EXT2_MAX_BLOCKS_PER_GROUP(sb) ||
	    sb->s_first_data_block >= blocks ||
	    (ext2fs_has_feature_64bit(sb) &&
	     (sb->s_desc_size < EXT2_MIN_DESC_SIZE_64BIT ||
	      sb->s_desc_size > EXT2_MAX_DESC_SIZE ||
	      (sb->s_desc_size & (sb->s_desc_size - 1)))))
		goto out;
	groups = ext2fs_div64_ceil(blocks - sb->s_first_data_block,
				   sb->s_blocks_per_group);
	if (groups >> 32 ||
	    groups * sb->s_inodes_per_group != sb->s_inodes_count)
		goto out;
	lay->group_desc_count = (dgrp_t)groups;
	lay->desc_blocks = ext2fs_div_ceil(lay->group_desc_count,
					   EXT2_DESC_PER_BLOCK(sb));
	if (ext2fs_has_feature_meta_bg(sb) &&
	    sb->s_first_meta_bg > lay->desc_blocks)
		goto out;
	*ok = 1;
out:
	free(buf);
	return err;
}

/*
 * meta_bg: the descriptor block of each metagroup (from s_first_meta_bg
 * on) lives in the metagroup's first group, with copies in its second and
 * last.  e2fsck, closing the filesystem after a replay, writes the
 * descriptors it read back (each metagroup's first copy: the one the
 * replay wrote) over every copy, though it keeps its hands off backup
 * superblocks and the old-style descriptor backups (EXT2_FLAG_MASTER_SB_ONLY
 * spares those, not the meta_bg copies; see ext2fs_flush2()).  The kernel
 * never updates those copies after mke2fs or a resize, so they are as old
 * as that: the replay brings them up to date, as e2fsck does.  Without
 * meta_bg the only descriptors e2fsck writes are the primaries, which hold
 * what the replay left: nothing to do.  A dry run counts the copies of the
 * layout on disk.
 */
errcode_t life_metabg_write_copies(struct recover_struct *r, int dry)
{
	struct struct_ext2_filsys lay;
	struct ext2_super_block sb;
	unsigned int bs = r->fs->blocksize;
	unsigned int per_block, k;
	unsigned char *buf = NULL;
	blk64_t i, from, to;
	dgrp_t first, g;
	int ok;
	errcode_t err;

	err = layout_after(r, &lay, &sb, &ok);
	if (err || !ok || !ext2fs_has_feature_meta_bg(&sb))
		return err;
	if (!dry) {
		buf = malloc(bs);
		if (!buf)
			return ENOMEM;
	}
	per_block = EXT2_DESC_PER_BLOCK(&sb);
	for (i = sb.s_first_meta_bg; i < lay.desc_blocks; i++) {
		from = ext2fs_descriptor_block_loc2(&lay, sb.s_first_data_block,
						    i);
		if (!dry) {
			err = io_channel_read_blk64(r->fs->io, from, 1, buf);
			if (err)
				goto out;
		}
		first = (dgrp_t)(i * per_block);
		/* The copies in the metagroup's second and last groups. */
		for (k = 0; k < 2; k++) {
			g = first + (k ? per_block - 1 : 1);
			if (g >= lay.group_desc_count)
				continue;
			err = ext2fs_super_and_bgd_loc2(&lay, g, NULL, NULL, &to,
							NULL);
			if (err)
				goto out;
			if (!to || to == from)
				continue;
			if (!dry) {
				err = io_channel_write_blk64(r->fs->io, to, 1,
							     buf);
				if (err)
					goto out;
				r->desc_written += bs;
			}
			r->desc_copies++;
			r->write_blocks++;
			r->write_bytes += bs;
		}
	}
out:
	free(buf);
	return err;
}
