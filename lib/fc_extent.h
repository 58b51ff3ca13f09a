/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_extent.h -- the blocks of the inodes the fast-commit replay touches:
 * ADD_RANGE's regions, the walks over an extent tree's blocks, and the
 * trees left as the kernel's extent code leaves them (fc_extent.c).
 */
#ifndef FC_EXTENT_H
#define FC_EXTENT_H

#include "fc_state.h"

/* ADD_RANGE's regions: noted from the area (an fc_tag_fn), then sorted
 * and merged; kept out of the allocator's way (fc_extent_alloc_stats as
 * libext2fs's callback) and out of the bitmap's releases
 * (fc_extent_release). */
int fc_extent_note_region(void *data, const struct fc_tag *t, int valid);
void fc_extent_merge_regions(struct fc_state *c);
void fc_extent_alloc_stats(ext2_filsys fs, blk64_t blk, int inuse);
void fc_extent_release(struct fc_state *c, blk64_t blk, blk64_t n);
/* Blocks released at the end of the replay. */
errcode_t fc_extent_note_freed(struct fc_state *c, blk64_t blk, blk64_t n);
/* The inode in buf is an extent inode with a tree's root; a fresh root. */
int fc_extent_has_root(const unsigned char *buf);
void fc_extent_empty_root(unsigned char *buf);
/* The next entry of a walk over h's tree in order (*op: EXT2_EXTENT_ROOT
 * to start), each once; EXT2_ET_EXTENT_NO_NEXT at the end. */
errcode_t fc_extent_next(ext2_extent_handle_t h, int *op,
			 struct ext2fs_extent *ex);
/* The blocks an extent inode maps marked (mark), or noted freed; counted. */
errcode_t fc_extent_walk_blocks(struct fc_state *c, ext2_ino_t ino,
				unsigned char *buf, int mark, blk64_t *count);
/* i_blocks of the inode in buf made what its tree maps. */
errcode_t fc_extent_recount(struct fc_state *c, ext2_ino_t ino,
			    unsigned char *buf);
/* The tree of a touched inode as the kernel's extent code leaves it. */
errcode_t fc_extent_compact_tree(struct fc_state *c, ext2_ino_t ino);

#endif /* FC_EXTENT_H */
