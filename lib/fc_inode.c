/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_inode.c -- the fast-commit replay's inode records, INODE, ADD_RANGE
 * and DEL_RANGE (the ranges of an inline inode held until an INODE record
 * takes it out of line), and the release of an inode whose last link
 * went, as the kernel evicts it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fc_inode.h"
#include "fc_extent.h"
#include "fc_state.h"
#include "fc_fs.h"

/* ino's entry among the touched inodes, or NULL. */
static struct fc_touched *touched_of(struct fc_state *c, ext2_ino_t ino)
{
	size_t i;

	for (i = 0; i < c->nt; i++)
		if (c->t[i].ino == ino)
			return &c->t[i];
	return NULL;
}

static void drop_held(struct fc_state *c, ext2_ino_t ino);
static errcode_t replay_held(struct fc_state *c, ext2_ino_t ino);

errcode_t fc_inode_replay(struct fc_state *c, const struct fc_tag *t)
{
	unsigned char *old = c->ibuf;
	const unsigned char *raw = t->raw_inode;
	unsigned int len = t->raw_len;
	struct fc_touched *u;
	blk64_t n;
	uint32_t flags;
	errcode_t err;

	err = fc_state_touch(c, t->ino);
	if (!err)
		err = fc_state_read_inode(c, t->ino, old);
	if (err)
		return err;
	/*
	 * A file whose last name an UNLINK took: the same generation is the
	 * same file, still open in the kernel or given a name again (a rename
	 * into an inline directory whose record already holds the new name:
	 * its LINK finds the name there and adds no link), and it comes back
	 * with its tree; another generation is the number reused, and the old
	 * file goes first.
	 */
	u = touched_of(c, t->ino);
	if (u && u->unlinked) {
		u->unlinked = 0;
		if (get_le32(raw + FC_I_GENERATION) !=
		    fc_state_small_inode(old)->i_generation) {
			drop_held(c, t->ino);
			err = fc_inode_evict(c, t->ino);
			if (!err)
				err = fc_state_read_inode(c, t->ino, old);
			if (err)
				return err;
		}
	}
	if (fc_state_inode_in_use(old)) {
		err = fc_extent_walk_blocks(c, t->ino, old, 0, &n);
		if (err)
			return err;
	}
	if (len > c->isize)
		len = c->isize;
	fc_state_inode_to_disk(c, old);
	/* Everything but i_block from the record. */
	memcpy(old, raw, FC_I_BLOCK);
	memcpy(old + FC_I_GENERATION, raw + FC_I_GENERATION,
	       len - FC_I_GENERATION);
	flags = get_le32(old + FC_I_FLAGS);
	if (flags & EXT4_EXTENTS_FL) {
		if (get_le16(old + FC_I_BLOCK + FC_EH_MAGIC) !=
		    FC_EXTENT_MAGIC)
			fc_extent_empty_root(old);
	} else if (flags & EXT4_INLINE_DATA_FL) {
		memcpy(old + FC_I_BLOCK, raw + FC_I_BLOCK, FC_I_BLOCK_SIZE);
	}
	fc_state_inode_to_host(c, old);
	err = fc_state_write_inode(c, t->ino, old);
	if (err)
		return err;
	ext2fs_mark_inode_bitmap2(c->fs->inode_map, t->ino);
	/* Out of line now: the ranges held while it was inline map. */
	if ((flags & EXT4_EXTENTS_FL) && !(flags & EXT4_INLINE_DATA_FL))
		err = replay_held(c, t->ino);
	return err;
}

/* ADD_RANGE's blocks, mapped into the inode in c->ibuf. */
static errcode_t map_range(struct fc_state *c, const struct fc_tag *t,
			   struct ext2_inode *inode)
{
	errcode_t err = 0;
	uint32_t i;

	for (i = 0; !err && i < t->count; i++) {
		blk64_t want = t->pblk + i, old = 0;
		int ret_flags = 0;

		err = ext2fs_bmap2(c->fs, t->ino, inode, NULL, 0, t->lblk + i,
				   &ret_flags, &old);
		if (err)
			break;
		if (old == want &&
		    !!(ret_flags & BMAP_RET_UNINIT) == !!t->unwritten)
			continue;
		if (old && old != want)
			fc_extent_release(c, old, 1);
		err = ext2fs_bmap2(c->fs, t->ino, inode, NULL,
				   BMAP_SET | (t->unwritten ? BMAP_UNINIT : 0),
				   t->lblk + i, NULL, &want);
	}
	if (!err)
		err = ext2fs_write_inode(c->fs, t->ino, inode);
	return err;
}

/* DEL_RANGE's blocks, unmapped from the inode in c->ibuf. */
static errcode_t unmap_range(struct fc_state *c, const struct fc_tag *t,
			     struct ext2_inode *inode)
{
	blk64_t end;

	end = (blk64_t)t->lblk + t->count - 1;
	if (end > 0xFFFFFFFFULL)
		end = 0xFFFFFFFFULL;
	return ext2fs_punch(c->fs, t->ino, inode, NULL, t->lblk, end);
}

/*
 * ADD_RANGE and DEL_RANGE: the inode is read and touched, then its blocks
 * mapped or unmapped.  Nothing changes when the inode is not in use, nor
 * for an empty DEL_RANGE (an empty ADD_RANGE still touches its inode and
 * writes it back).
 */
errcode_t fc_inode_replay_range(struct fc_state *c, const struct fc_tag *t)
{
	struct ext2_inode *inode = fc_state_small_inode(c->ibuf);
	int add = t->tag == FC_TAG_ADD_RANGE;
	struct fc_touched *u;
	errcode_t err;

	err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err || (!add && !t->count))
		return err;
	u = touched_of(c, t->ino);
	if (!fc_state_inode_in_use(c->ibuf) && !(u && u->unlinked))
		return 0;
	err = fc_state_touch(c, t->ino);
	if (err)
		return err;
	u = touched_of(c, t->ino);	/* fc_state_touch() may move c->t */
	/*
	 * A file that leaves inline data gets its blocks logged before the
	 * INODE record that takes it out of line: the range is held until
	 * that record comes (the kernel's replay fails the range on the
	 * inline inode, ignores that, and leaves the file a hole).  So is a
	 * range of a file an UNLINK left without links, until an INODE
	 * record brings it back (or it goes, and the range with it).
	 */
	if ((u && u->unlinked) || (inode->i_flags & EXT4_INLINE_DATA_FL)) {
		err = array_grow((void **)&c->held, &c->capheld,
				 c->nheld + 1, sizeof(*c->held));
		if (!err)
			c->held[c->nheld++] = *t;
		return err;
	}
	err = fc_extent_recount(c, t->ino, c->ibuf);
	if (err)
		return err;
	return add ? map_range(c, t, inode) : unmap_range(c, t, inode);
}

/*
 * The ranges held for ino while it was inline, once it is not.  They leave
 * c->held before any is replayed: replaying one appends to c->held when
 * the inode turns out inline after all (a record with both flags), which
 * may move the array.
 */
static errcode_t replay_held(struct fc_state *c, ext2_ino_t ino)
{
	struct fc_tag *mine;
	size_t i, n = 0, k = 0;
	errcode_t err = 0;

	for (i = 0; i < c->nheld; i++)
		k += c->held[i].ino == ino;
	if (!k)
		return 0;
	mine = malloc(k * sizeof(*mine));
	if (!mine)
		return ENOMEM;
	for (i = 0, k = 0; i < c->nheld; i++) {
		if (c->held[i].ino == ino)
			mine[k++] = c->held[i];
		else
			c->held[n++] = c->held[i];
	}
	c->nheld = n;
	for (i = 0; !err && i < k; i++)
		err = fc_inode_replay_range(c, &mine[i]);
	free(mine);
	return err;
}

/*
 * An inode whose last link went, in c->ibuf (links 0), released as the
 * kernel's eviction releases it: size 0, every block it maps and its tree
 * let go (at the end, as an INODE record's), its extended attribute block
 * released (or one reference fewer), the deletion time set; the end of the
 * replay frees it in the inode bitmap (it is touched, and no longer in
 * use).  A later record reusing the number starts from an empty tree.
 */
errcode_t fc_inode_evict(struct fc_state *c, ext2_ino_t ino)
{
	struct ext2_inode *inode = fc_state_small_inode(c->ibuf);
	blk64_t acl = ext2fs_file_acl_block(c->fs, inode), n;
	uint32_t flags = inode->i_flags;
	errcode_t err = 0;

	if (fc_extent_has_root(c->ibuf)) {
		err = fc_extent_walk_blocks(c, ino, c->ibuf, 0, &n);
		if (err)
			return err;
		fc_extent_empty_root(c->ibuf);
	} else if (!(flags & EXT4_INLINE_DATA_FL) &&
		   ext2fs_inode_has_valid_blocks2(c->fs, inode)) {
		/* A block-mapped file: libext2fs unmaps and frees it. */
		err = fc_extent_recount(c, ino, c->ibuf);
		if (!err)
			err = ext2fs_punch(c->fs, ino, inode, NULL, 0, ~0ULL);
		if (err)
			return err;
	}
	if (acl && acl < ext2fs_blocks_count(c->fs->super)) {
		__u32 left = 0;

		err = ext2fs_adjust_ea_refcount3(c->fs, acl, NULL, -1, &left,
						 ino);
		if (!err && !left)
			err = fc_extent_note_freed(c, acl, 1);
		if (err)
			return err;
		ext2fs_file_acl_block_set(c->fs, inode, 0);
	}
	inode->i_links_count = 0;
	inode->i_size = 0;
	inode->i_size_high = 0;
	inode->i_dtime = (__u32)time(NULL);
	err = ext2fs_iblk_set(c->fs, inode, 0);
	if (!err)
		err = fc_state_write_inode(c, ino, c->ibuf);
	return err;
}

/* The ranges held for ino dropped: the file they were logged for went. */
static void drop_held(struct fc_state *c, ext2_ino_t ino)
{
	size_t i, n = 0;

	for (i = 0; i < c->nheld; i++)
		if (c->held[i].ino != ino)
			c->held[n++] = c->held[i];
	c->nheld = n;
}

/*
 * The kernel's replay keeps the inode of a file whose last name went in
 * its inode cache until the replay ends; a later INODE record of it (the
 * file was still open, or the LINK of a rename found its new name already
 * in an inline directory's record and added no link) finds its blocks
 * still mapped.  So the eviction waits: the inode is written with no
 * links (later records skip it, or hold its ranges) and evicted at the end
 * of the replay, unless an INODE record of its generation comes first.
 */
errcode_t fc_inode_unlinked(struct fc_state *c, ext2_ino_t ino)
{
	struct fc_touched *u;
	errcode_t err;

	err = fc_state_touch(c, ino);
	if (err)
		return err;
	u = touched_of(c, ino);
	u->unlinked = 1;
	fc_state_small_inode(c->ibuf)->i_links_count = 0;
	return fc_state_write_inode(c, ino, c->ibuf);
}

errcode_t fc_inode_evict_unlinked(struct fc_state *c)
{
	errcode_t err = 0;
	size_t i;

	for (i = 0; !err && i < c->nt; i++) {
		if (!c->t[i].unlinked)
			continue;
		c->t[i].unlinked = 0;
		drop_held(c, c->t[i].ino);
		err = fc_state_read_inode(c, c->t[i].ino, c->ibuf);
		if (!err)
			err = fc_inode_evict(c, c->t[i].ino);
	}
	return err;
}
