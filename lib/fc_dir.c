/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_dir.c -- the fast-commit replay's directory records, CREAT, LINK and
 * UNLINK, through libext2fs's directory code; an inline directory grown
 * into its inode as the kernel grows it; a one-block directory made an
 * indexed one by fc_htree.c.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc_fs.h"
#include "fc_dir.h"
#include "fc_htree.h"
#include "fc_inode.h"
#include "fc_state.h"

static int file_type(uint16_t mode)
{
	if (LINUX_S_ISREG(mode)) return EXT2_FT_REG_FILE;
	if (LINUX_S_ISDIR(mode)) return EXT2_FT_DIR;
	if (LINUX_S_ISCHR(mode)) return EXT2_FT_CHRDEV;
	if (LINUX_S_ISBLK(mode)) return EXT2_FT_BLKDEV;
	if (LINUX_S_ISFIFO(mode)) return EXT2_FT_FIFO;
	if (LINUX_S_ISSOCK(mode)) return EXT2_FT_SOCK;
	if (LINUX_S_ISLNK(mode)) return EXT2_FT_SYMLINK;
	return EXT2_FT_UNKNOWN;
}

/*
 * How large system.data's value may grow in the inode raw (c->isize
 * bytes) that holds it, as the kernel reckons it: the space between the
 * entries (with their 4-byte end) and the lowest value, plus the value's
 * own (padded) size; without such an entry, less the room a new entry
 * takes, rounded down to the padding.  0 when there is none.
 */
static size_t inline_value_room(const struct fc_state *c,
				const unsigned char *raw)
{
	unsigned int extra = get_le16(raw + FC_I_EXTRA_ISIZE);
	const unsigned char *first, *e, *end = raw + c->isize;
	size_t min_offs, used, cur = 0, free;
	int found = 0;

	if (c->isize <= FC_GOOD_OLD_INODE_SIZE + extra + FC_XATTR_HDR_SIZE)
		return 0;
	first = raw + FC_GOOD_OLD_INODE_SIZE + extra + FC_XATTR_HDR_SIZE;
	min_offs = (size_t)(end - first);
	e = first;
	if (get_le32(first - FC_XATTR_HDR_SIZE) == FC_XATTR_MAGIC) {
		for (; e + 4 <= end && get_le32(e);
		     e += FC_XATTR_LEN(e[FC_XE_NAME_LEN])) {
			if (e + FC_XE_NAME + e[FC_XE_NAME_LEN] > end)
				return 0;
			if (!get_le32(e + FC_XE_VALUE_INUM) &&
			    get_le32(e + FC_XE_VALUE_SIZE) &&
			    get_le16(e + FC_XE_VALUE_OFFS) < min_offs)
				min_offs = get_le16(e + FC_XE_VALUE_OFFS);
			if (e[FC_XE_NAME_INDEX] == FC_XATTR_INDEX_SYSTEM &&
			    e[FC_XE_NAME_LEN] == 4 &&
			    !memcmp(e + FC_XE_NAME, FC_INLINE_DATA_NAME, 4)) {
				found = 1;
				cur = FC_XATTR_SIZE(get_le32(e +
							     FC_XE_VALUE_SIZE));
			}
		}
	}
	used = (size_t)(e - first) + 4;
	if (min_offs < used)
		return 0;
	free = min_offs - used;
	if (found)
		return free + cur;
	if (free < FC_XATTR_LEN(4) + FC_XATTR_PAD)
		return 0;
	return (free - FC_XATTR_LEN(4)) & ~(size_t)(FC_XATTR_PAD - 1);
}

/*
 * A name that does not fit in an inline directory's i_block: as the
 * kernel's ext4_try_add_inline_entry() does, the directory first grows
 * into the inode's extended-attribute space, while that part is empty, to
 * as much as the space left allows (one empty entry spanning it, i_size
 * the whole inline size); it becomes a block only when the names fill that
 * too.  *grown says it grew.
 */
static errcode_t grow_inline_dir(struct fc_state *c, ext2_ino_t dir, int *grown)
{
	size_t size, room;
	struct ext2_inode inode;
	char *buf;
	errcode_t err;

	*grown = 0;
	err = ext2fs_inline_data_size(c->fs, dir, &size);
	if (err || size > EXT4_MIN_INLINE_DATA_SIZE)
		return err;
	err = fc_state_read_inode(c, dir, c->ibuf2);
	if (err)
		return err;
	fc_state_inode_to_disk(c, c->ibuf2);
	room = inline_value_room(c, c->ibuf2);
	fc_state_inode_to_host(c, c->ibuf2);
	/* Room for more than the smallest entry, or a block at once. */
	if (room <= EXT2_DIR_REC_LEN(1))
		return 0;
	buf = calloc(1, EXT4_MIN_INLINE_DATA_SIZE + room);
	if (!buf)
		return ENOMEM;
	err = ext2fs_read_inode(c->fs, dir, &inode);
	if (!err)
		err = ext2fs_inline_data_get(c->fs, dir, &inode, buf, &size);
	if (!err) {
		/* One empty entry over the new room; the inline data is in
		 * its on-disk order (libext2fs swaps it only to iterate). */
		unsigned char *de = (unsigned char *)buf +
				    EXT4_MIN_INLINE_DATA_SIZE;

		memset(de, 0, 8);
		put_le16(de + 4, (unsigned int)room);
	}
	if (!err)
		err = ext2fs_inline_data_set(c->fs, dir, &inode, buf,
					     EXT4_MIN_INLINE_DATA_SIZE + room);
	if (!err)
		err = ext2fs_read_inode(c->fs, dir, &inode);
	if (!err) {
		inode.i_size = (__u32)(EXT4_MIN_INLINE_DATA_SIZE + room);
		err = ext2fs_write_inode(c->fs, dir, &inode);
	}
	free(buf);
	*grown = !err;
	return err;
}

/* Link name in parent to ino unless the name is there already; *added
 * says whether it was linked. */
static errcode_t link_name(struct fc_state *c, const struct fc_tag *t,
			   uint16_t mode, int *added)
{
	char name[FC_NAME_MAX + 1];
	ext2_ino_t found;
	errcode_t err;
	int tries, grew = 0, indexed = 0;

	*added = 0;
	err = fc_state_read_inode(c, t->parent, c->ibuf2);
	if (err || !fc_state_inode_in_use(c->ibuf2) ||
	    !LINUX_S_ISDIR(fc_state_small_inode(c->ibuf2)->i_mode))
		return err;
	memcpy(name, t->name, t->name_len);
	name[t->name_len] = 0;
	if (!ext2fs_lookup(c->fs, t->parent, name, (int)t->name_len, NULL,
			   &found))
		return 0;
	/*
	 * No room: an inline directory grows into its inode first (once), a
	 * one-block directory becomes an htree where the kernel would make
	 * it one (once), and otherwise the directory gets a block more.
	 */
	for (tries = 0; tries < 4; tries++) {
		int done = 0;

		err = ext2fs_link(c->fs, t->parent, name, t->ino,
				  file_type(mode));
		if (err != EXT2_ET_DIR_NO_SPACE)
			break;
		err = 0;
		if (!grew && (fc_state_small_inode(c->ibuf2)->i_flags &
			      EXT4_INLINE_DATA_FL)) {
			grew = 1;
			err = grow_inline_dir(c, t->parent, &done);
		} else if (!indexed) {
			indexed = 1;
			err = fc_htree_index_dir(c, t->parent, &done);
		}
		if (!err && !done)
			err = ext2fs_expand_dir(c->fs, t->parent);
		if (err)
			break;
	}
	*added = !err;
	return err;
}

/* "." and ".." in a new directory's first block, as ext4_init_new_dir. */
static errcode_t init_dir(struct fc_state *c, ext2_ino_t ino, ext2_ino_t parent)
{
	struct ext2_inode *inode = fc_state_small_inode(c->ibuf);
	blk64_t pblk = 0;
	char *block = NULL;
	errcode_t err;

	err = ext2fs_bmap2(c->fs, ino, inode, NULL, 0, 0, NULL, &pblk);
	if (!err && !pblk) {
		err = ext2fs_new_block2(c->fs, 0, NULL, &pblk);
		if (!err)
			err = ext2fs_bmap2(c->fs, ino, inode, NULL, BMAP_SET, 0,
					   NULL, &pblk);
		if (!err)
			ext2fs_mark_block_bitmap2(c->fs->block_map, pblk);
	}
	if (!err)
		err = ext2fs_new_dir_block(c->fs, ino, parent, &block);
	if (!err)
		err = ext2fs_write_dir_block4(c->fs, pblk, block, 0, ino);
	ext2fs_free_mem(&block);
	if (err)
		return err;
	inode->i_size = c->fs->blocksize;
	inode->i_size_high = 0;
	inode->i_links_count = 2;
	return ext2fs_write_inode(c->fs, ino, inode);
}

/* Counting the subdirectories a directory's entries name. */
struct subdirs {
	ext2_filsys	fs;
	unsigned int	n;
	errcode_t	err;
};

static int count_subdir(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
			int offset, int blocksize, char *buf, void *priv)
{
	struct subdirs *s = priv;
	struct ext2_inode inode;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (entry == DIRENT_DOT_FILE || entry == DIRENT_DOT_DOT_FILE ||
	    !d->inode)
		return 0;
	if (ext2fs_has_feature_filetype(s->fs->super)) {
		s->n += ext2fs_dirent_file_type(d) == EXT2_FT_DIR;
		return 0;
	}
	s->err = ext2fs_read_inode(s->fs, d->inode, &inode);
	if (s->err)
		return DIRENT_ABORT;
	s->n += LINUX_S_ISDIR(inode.i_mode) != 0;
	return 0;
}

errcode_t fc_dir_replay_create(struct fc_state *c, const struct fc_tag *t)
{
	struct ext2_inode *inode = fc_state_small_inode(c->ibuf);
	int added = 0;
	errcode_t err;

	err = fc_state_touch(c, t->ino);
	if (!err)
		err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err || !fc_state_inode_in_use(c->ibuf))
		return err;
	/*
	 * A new inline directory's INODE record came with its i_block, which
	 * holds its ".." (and "." is implied): there is nothing to make.
	 */
	if (LINUX_S_ISDIR(inode->i_mode) &&
	    !(inode->i_flags & EXT4_INLINE_DATA_FL)) {
		err = fc_state_read_inode(c, t->parent, c->ibuf2);
		if (err || !fc_state_inode_in_use(c->ibuf2))
			return err;
		err = init_dir(c, t->ino, t->parent);
		if (err)
			return err;
	}
	err = link_name(c, t, inode->i_mode, &added);
	if (err)
		return err;
	err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	/*
	 * The kernel sets the link count to 1 and counts on an INODE record
	 * after this one for the real count.  For a new directory none
	 * comes (its INODE record precedes the name), and the kernel leaves
	 * it and its parent with link counts one short, which e2fsck then
	 * repairs: jrecover gives them the counts they had before the
	 * crash, 2 for the empty directory and one more for the parent.
	 * A new inline directory's record, taken when the fast commit was
	 * written, already holds the names made in it since (their CREAT
	 * then adds none, nor a link): its subdirectories count too.
	 */
	if (!LINUX_S_ISDIR(inode->i_mode)) {
		inode->i_links_count = 1;
		return ext2fs_write_inode(c->fs, t->ino, inode);
	}
	inode->i_links_count = 2;
	if (inode->i_flags & EXT4_INLINE_DATA_FL) {
		struct subdirs sd = { c->fs, 0, 0 };

		err = ext2fs_dir_iterate2(c->fs, t->ino, 0, NULL,
					  count_subdir, &sd);
		if (!err)
			err = sd.err;
		if (err)
			return err;
		if (sd.n > 0xFFFF - 2U)
			sd.n = 0xFFFF - 2U;
		inode->i_links_count = (uint16_t)(2 + sd.n);
	}
	err = ext2fs_write_inode(c->fs, t->ino, inode);
	if (err || !added)
		return err;
	err = fc_state_touch(c, t->parent);
	if (!err)
		err = fc_state_read_inode(c, t->parent, c->ibuf2);
	if (err)
		return err;
	fc_state_small_inode(c->ibuf2)->i_links_count++;
	return fc_state_write_inode(c, t->parent, c->ibuf2);
}

errcode_t fc_dir_replay_link(struct fc_state *c, const struct fc_tag *t)
{
	errcode_t err;
	int added;

	err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err || !fc_state_inode_in_use(c->ibuf))
		return err;
	err = link_name(c, t, fc_state_small_inode(c->ibuf)->i_mode, &added);
	if (err || !added)
		return err;
	/* One link more, as the kernel's link does (an UNLINK of the old
	 * name of a rename comes next, and takes it off again). */
	err = fc_state_touch(c, t->ino);
	if (!err)
		err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	if (fc_state_small_inode(c->ibuf)->i_links_count < 0xFFFF)
		fc_state_small_inode(c->ibuf)->i_links_count++;
	return fc_state_write_inode(c, t->ino, c->ibuf);
}

errcode_t fc_dir_replay_unlink(struct fc_state *c, const struct fc_tag *t)
{
	char name[FC_NAME_MAX + 1];
	errcode_t err;

	err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err || !fc_state_inode_in_use(c->ibuf))
		return err;
	err = fc_state_read_inode(c, t->parent, c->ibuf2);
	if (err || !fc_state_inode_in_use(c->ibuf2))
		return err;
	memcpy(name, t->name, t->name_len);
	name[t->name_len] = 0;
	err = ext2fs_unlink(c->fs, t->parent, name, t->ino, 0);
	/* A name already gone is what the record asks for. */
	if (err == EXT2_ET_DIR_NO_SPACE)
		return 0;
	if (err)
		return err;
	/*
	 * The kernel drops one link of the inode as an unlink does, and
	 * when that was the last one the inode goes as an unlinked inode
	 * goes once closed.  A directory's name goes only with rmdir (a
	 * renamed directory is no fast commit): the kernel's replay drops
	 * one link of it and none of its parent, and leaves it in use with
	 * ".." naming the parent (e2fsck: "unconnected directory inode",
	 * link counts wrong).  Here the directory goes as rmdir leaves it,
	 * and its parent loses the link its ".." held (a later INODE record
	 * of the parent gives the count anyway).
	 */
	err = fc_state_touch(c, t->ino);
	if (!err)
		err = fc_state_read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	if (LINUX_S_ISDIR(fc_state_small_inode(c->ibuf)->i_mode)) {
		err = fc_inode_evict(c, t->ino);
		if (!err)
			err = fc_state_touch(c, t->parent);
		if (!err)
			err = fc_state_read_inode(c, t->parent, c->ibuf);
		if (err)
			return err;
		/* 1: more subdirectories than a count holds (dir_nlink). */
		if (fc_state_small_inode(c->ibuf)->i_links_count > 2)
			fc_state_small_inode(c->ibuf)->i_links_count--;
		return fc_state_write_inode(c, t->parent, c->ibuf);
	}
	if (fc_state_small_inode(c->ibuf)->i_links_count)
		fc_state_small_inode(c->ibuf)->i_links_count--;
	if (fc_state_small_inode(c->ibuf)->i_links_count)
		return fc_state_write_inode(c, t->ino, c->ibuf);
	return fc_inode_unlinked(c, t->ino);
}
