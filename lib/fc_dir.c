/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_dir.c -- the fast-commit replay's directory records, CREAT, LINK and
 * UNLINK, through libext2fs's directory code; and what that code does not
 * do as the kernel does: a one-block directory that a new name does not
 * fit in made an indexed one, its names split between two leaves where
 * the kernel splits them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc_fs.h"
#include "fc_replay.h"

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

struct dent {
	unsigned int	off;		/* in the old block */
	unsigned int	len;		/* of the name */
	unsigned int	size;		/* its room once moved out of block 0 */
	uint32_t	hash, minor;
};

static int dent_cmp(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->minor < y->minor ? -1 : x->minor > y->minor;
}

/*
 * A directory block for the byte-level code below, in its on-disk order:
 * libext2fs reads and writes directory entries in the host's order, which
 * on a big-endian host is not the little-endian one these offsets read.
 */
static errcode_t read_dir_block(ext2_filsys fs, blk64_t blk, void *buf,
				ext2_ino_t ino)
{
	errcode_t err = ext2fs_read_dir_block4(fs, blk, buf, 0, ino);

	if (!err && fcr_big_endian_host())
		err = ext2fs_dirent_swab_out2(fs, buf, fs->blocksize, 0);
	return err;
}

static errcode_t write_dir_block(ext2_filsys fs, blk64_t blk, void *buf,
				 ext2_ino_t ino)
{
	errcode_t err = 0;

	if (fcr_big_endian_host())
		err = ext2fs_dirent_swab_in2(fs, buf, fs->blocksize, 0);
	return err ? err : ext2fs_write_dir_block4(fs, blk, buf, 0, ino);
}

/* Entries from->to of the sorted list into one leaf block. */
static void fill_leaf(ext2_filsys fs, unsigned char *leaf,
		      const unsigned char *old, const struct dent *d,
		      size_t from, size_t to, int csum)
{
	unsigned int end = fs->blocksize - (csum ? 12 : 0), pos = 0, prev = 0;
	size_t i;

	memset(leaf, 0, fs->blocksize);
	for (i = from; i < to; i++) {
		unsigned int rec = (8 + d[i].len + 3) & ~3U;

		memcpy(leaf + pos, old + d[i].off, 8 + d[i].len);
		put_le16(leaf + pos + 4, rec);
		prev = pos;
		pos += rec;
	}
	if (from == to) {
		put_le16(leaf + 4, end);
	} else {
		put_le16(leaf + prev + 4, end - prev);
	}
	if (csum) {		/* the checksum's tail, checksum 0 for now */
		unsigned char *tail = leaf + fs->blocksize - 12;

		put_le16(tail + 4, 12);
		put_le16(tail + 6, EXT2_DIR_NAME_LEN_CSUM);
	}
}

/* A one-block directory being made an indexed one (index_dir()). */
struct htree_make {
	ext2_filsys	fs;
	ext2_ino_t	dir, parent;
	struct ext2_inode inode;
	unsigned char	*b0;		/* block 0 as it was */
	unsigned char	*nb;		/* the block being made */
	struct dent	*d;		/* the names of b0 */
	size_t		n;
	size_t		split;		/* d[split] on go to the second leaf */
	uint32_t	hash2;		/* the second leaf's lowest hash */
	int		csum;		/* blocks end in a checksum tail */
};

/*
 * The names of block 0 after "." and "..", with their hashes and the room
 * each will take once moved out of block 0; the parent from "..".
 */
static errcode_t read_names(struct htree_make *h)
{
	ext2_filsys fs = h->fs;
	const unsigned char *b0 = h->b0;
	unsigned int bs = fs->blocksize, pos, rec, first;
	int alg = fs->super->s_def_hash_version;
	size_t cap = 0;
	struct dent *d;
	errcode_t err;

	if (fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH)
		alg += 3;
	/* ".", "..", then the names. */
	if (get_le16(b0 + 4) != 12 || b0[6] != 1 || b0[8] != '.' ||
	    b0[12 + 6] != 2 || memcmp(b0 + 12 + 8, "..", 2))
		return EXT2_ET_DIR_CORRUPTED;
	h->parent = get_le32(b0 + 12);
	first = 12 + get_le16(b0 + 12 + 4);
	for (pos = first; pos + 8 <= bs; pos += rec) {
		rec = get_le16(b0 + pos + 4);
		if (rec < 8 || pos + rec > bs || 8U + b0[pos + 6] > rec)
			return EXT2_ET_DIR_CORRUPTED;
		if (!get_le32(b0 + pos))
			continue;
		err = recovery_grow((void **)&h->d, &cap, h->n + 1,
				    sizeof(*h->d));
		if (err)
			return err;
		d = &h->d[h->n];
		d->off = pos;
		d->len = b0[pos + 6];
		/* The last one gets the room of "." and ".." too. */
		d->size = rec + (pos + rec == bs - (h->csum ? 12U : 0U) ?
				 first : 0U);
		err = ext2fs_dirhash2(alg, (const char *)b0 + pos + 8,
				      (int)d->len, fs->encoding, 0,
				      fs->super->s_hash_seed, &d->hash,
				      &d->minor);
		if (err)
			return err;
		h->n++;
	}
	return 0;
}

/*
 * Where the kernel splits the names sorted by hash (do_split(), which
 * make_indexed_dir() calls on the names moved out of block 0): from the
 * highest hash down, the names whose room fits in half a block go to the
 * second leaf; a name counts once more than half of its room would be
 * past the middle.  The room is each name's record length in the moved
 * block, where the last one reaches the block's end.
 */
static void split_names(struct htree_make *h)
{
	const struct dent *d = h->d;
	unsigned int bs = h->fs->blocksize, moved;
	size_t i;

	for (i = h->n, moved = 0; i > 0; i--) {
		if (moved + d[i - 1].size / 2 > bs / 2)
			break;
		moved += d[i - 1].size;
	}
	h->split = i > 1 ? i : h->n / 2;
	if (!h->split)
		h->split = 1;
	h->hash2 = d[h->split].hash & ~1U;
	if ((d[h->split].hash & ~1U) == (d[h->split - 1].hash & ~1U))
		h->hash2 |= 1;		/* the hash goes on in the next leaf */
}

/* Two blocks more for the directory: the two leaves, the names split
 * between them. */
static errcode_t write_leaves(struct htree_make *h)
{
	ext2_filsys fs = h->fs;
	blk64_t p1 = 0, p2 = 0;
	errcode_t err;

	err = ext2fs_expand_dir(fs, h->dir);
	if (!err)
		err = ext2fs_expand_dir(fs, h->dir);
	if (!err)
		err = ext2fs_read_inode(fs, h->dir, &h->inode);
	if (!err)
		err = ext2fs_bmap2(fs, h->dir, &h->inode, NULL, 0, 1, NULL,
				   &p1);
	if (!err)
		err = ext2fs_bmap2(fs, h->dir, &h->inode, NULL, 0, 2, NULL,
				   &p2);
	if (err)
		return err;
	fill_leaf(fs, h->nb, h->b0, h->d, 0, h->split, h->csum);
	err = write_dir_block(fs, p1, h->nb, h->dir);
	if (!err) {
		fill_leaf(fs, h->nb, h->b0, h->d, h->split, h->n, h->csum);
		err = write_dir_block(fs, p2, h->nb, h->dir);
	}
	return err;
}

/* Block 0 made the root, ".", ".." over the rest of the block and the
 * index of the two leaves, and the directory flagged indexed. */
static errcode_t write_root(struct htree_make *h, blk64_t p0)
{
	ext2_filsys fs = h->fs;
	unsigned char *nb = h->nb;
	unsigned int bs = fs->blocksize, limit;
	errcode_t err;

	memset(nb, 0, bs);
	put_le32(nb, h->dir);
	put_le16(nb + 4, 12);
	nb[6] = 1;
	nb[7] = EXT2_FT_DIR;
	nb[8] = '.';
	put_le32(nb + 12, h->parent);
	put_le16(nb + 16, bs - 12);
	nb[18] = 2;
	nb[19] = EXT2_FT_DIR;
	nb[20] = nb[21] = '.';
	nb[24 + 4] = (unsigned char)fs->super->s_def_hash_version;
	nb[24 + 5] = 8;			/* info_length */
	limit = (bs - 32 - (h->csum ? 8 : 0)) / 8;
	put_le16(nb + 32, limit);
	put_le16(nb + 34, 2);
	put_le32(nb + 36, 1);		/* hash 0 on: block 1 */
	put_le32(nb + 40, h->hash2);
	put_le32(nb + 44, 2);
	err = write_dir_block(fs, p0, nb, h->dir);
	if (err)
		return err;
	h->inode.i_flags |= EXT2_INDEX_FL;
	return ext2fs_write_inode(fs, h->dir, &h->inode);
}

/*
 * A one-block directory that a new name does not fit in becomes an
 * indexed one, as the kernel's ext4_add_entry() makes it
 * (make_indexed_dir()): block 0 the root, the names split by hash into
 * two leaves.  libext2fs's ext2fs_link() then adds to the index.
 */
static errcode_t index_dir(struct fcr *c, ext2_ino_t dir, int *done)
{
	struct htree_make h;
	blk64_t p0 = 0;
	errcode_t err;

	*done = 0;
	memset(&h, 0, sizeof(h));
	h.fs = c->fs;
	h.dir = dir;
	h.csum = ext2fs_has_feature_metadata_csum(h.fs->super);
	err = ext2fs_read_inode(h.fs, dir, &h.inode);
	if (err || !ext2fs_has_feature_dir_index(h.fs->super) ||
	    (h.inode.i_flags & (EXT2_INDEX_FL | EXT4_INLINE_DATA_FL)) ||
	    EXT2_I_SIZE(&h.inode) != h.fs->blocksize)
		return err;
	h.b0 = malloc(h.fs->blocksize);
	h.nb = malloc(h.fs->blocksize);
	err = h.b0 && h.nb ? 0 : ENOMEM;
	if (!err)
		err = ext2fs_bmap2(h.fs, dir, &h.inode, NULL, 0, 0, NULL, &p0);
	if (!err && !p0)
		err = EXT2_ET_DIR_CORRUPTED;
	if (!err)
		err = read_dir_block(h.fs, p0, h.b0, dir);
	if (!err)
		err = read_names(&h);
	if (err || h.n < 2)
		goto out;
	qsort(h.d, h.n, sizeof(*h.d), dent_cmp);
	split_names(&h);
	err = write_leaves(&h);
	if (!err)
		err = write_root(&h, p0);
	*done = !err;
out:
	free(h.d);
	free(h.b0);
	free(h.nb);
	return err;
}

/* Link name in parent to ino unless the name is there already; *added
 * says whether it was linked. */
/*
 * How large system.data's value may grow in the inode raw (c->isize
 * bytes) that holds it, as the kernel reckons it: the space between the
 * entries (with their 4-byte end) and the lowest value, plus the value's
 * own (padded) size; without such an entry, less the room a new entry
 * takes, rounded down to the padding.  0 when there is none.
 */
static size_t inline_value_room(const struct fcr *c, const unsigned char *raw)
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
static errcode_t grow_inline_dir(struct fcr *c, ext2_ino_t dir, int *grown)
{
	size_t size, room;
	struct ext2_inode inode;
	char *buf;
	errcode_t err;

	*grown = 0;
	err = ext2fs_inline_data_size(c->fs, dir, &size);
	if (err || size > EXT4_MIN_INLINE_DATA_SIZE)
		return err;
	err = fcr_read_inode(c, dir, c->ibuf2);
	if (err)
		return err;
	fcr_inode_to_disk(c, c->ibuf2);
	room = inline_value_room(c, c->ibuf2);
	fcr_inode_to_host(c, c->ibuf2);
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

static errcode_t link_name(struct fcr *c, const struct fc_tag *t, uint16_t mode,
			   int *added)
{
	char name[FC_NAME_MAX + 1];
	ext2_ino_t found;
	errcode_t err;
	int tries, grew = 0, indexed = 0;

	*added = 0;
	err = fcr_read_inode(c, t->parent, c->ibuf2);
	if (err || !fcr_in_use(c->ibuf2) ||
	    !LINUX_S_ISDIR(fcr_small(c->ibuf2)->i_mode))
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
		if (!grew && (fcr_small(c->ibuf2)->i_flags &
			      EXT4_INLINE_DATA_FL)) {
			grew = 1;
			err = grow_inline_dir(c, t->parent, &done);
		} else if (!indexed) {
			indexed = 1;
			err = index_dir(c, t->parent, &done);
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
static errcode_t init_dir(struct fcr *c, ext2_ino_t ino, ext2_ino_t parent)
{
	struct ext2_inode *inode = fcr_small(c->ibuf);
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

errcode_t fcr_replay_create(struct fcr *c, const struct fc_tag *t)
{
	struct ext2_inode *inode = fcr_small(c->ibuf);
	int added = 0;
	errcode_t err;

	err = fcr_touch(c, t->ino);
	if (!err)
		err = fcr_read_inode(c, t->ino, c->ibuf);
	if (err || !fcr_in_use(c->ibuf))
		return err;
	/*
	 * A new inline directory's INODE record came with its i_block, which
	 * holds its ".." (and "." is implied): there is nothing to make.
	 */
	if (LINUX_S_ISDIR(inode->i_mode) &&
	    !(inode->i_flags & EXT4_INLINE_DATA_FL)) {
		err = fcr_read_inode(c, t->parent, c->ibuf2);
		if (err || !fcr_in_use(c->ibuf2))
			return err;
		err = init_dir(c, t->ino, t->parent);
		if (err)
			return err;
	}
	err = link_name(c, t, inode->i_mode, &added);
	if (err)
		return err;
	err = fcr_read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	/*
	 * The kernel sets the link count to 1 and counts on an INODE record
	 * after this one for the real count.  For a new directory none
	 * comes (its INODE record precedes the name), and the kernel leaves
	 * it and its parent with link counts one short, which e2fsck then
	 * repairs: jrecover gives them the counts they had before the
	 * crash, 2 for the empty directory and one more for the parent.
	 */
	if (!LINUX_S_ISDIR(inode->i_mode)) {
		inode->i_links_count = 1;
		return ext2fs_write_inode(c->fs, t->ino, inode);
	}
	inode->i_links_count = 2;
	err = ext2fs_write_inode(c->fs, t->ino, inode);
	if (err || !added)
		return err;
	err = fcr_touch(c, t->parent);
	if (!err)
		err = fcr_read_inode(c, t->parent, c->ibuf2);
	if (err)
		return err;
	fcr_small(c->ibuf2)->i_links_count++;
	return fcr_write_inode(c, t->parent, c->ibuf2);
}

errcode_t fcr_replay_link(struct fcr *c, const struct fc_tag *t)
{
	errcode_t err;
	int added;

	err = fcr_read_inode(c, t->ino, c->ibuf);
	if (err || !fcr_in_use(c->ibuf))
		return err;
	err = link_name(c, t, fcr_small(c->ibuf)->i_mode, &added);
	if (err || !added)
		return err;
	/* One link more, as the kernel's link does (an UNLINK of the old
	 * name of a rename comes next, and takes it off again). */
	err = fcr_touch(c, t->ino);
	if (!err)
		err = fcr_read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	if (fcr_small(c->ibuf)->i_links_count < 0xFFFF)
		fcr_small(c->ibuf)->i_links_count++;
	return fcr_write_inode(c, t->ino, c->ibuf);
}

errcode_t fcr_replay_unlink(struct fcr *c, const struct fc_tag *t)
{
	char name[FC_NAME_MAX + 1];
	errcode_t err;

	err = fcr_read_inode(c, t->ino, c->ibuf);
	if (err || !fcr_in_use(c->ibuf))
		return err;
	err = fcr_read_inode(c, t->parent, c->ibuf2);
	if (err || !fcr_in_use(c->ibuf2))
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
	err = fcr_touch(c, t->ino);
	if (!err)
		err = fcr_read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	if (LINUX_S_ISDIR(fcr_small(c->ibuf)->i_mode)) {
		err = fcr_evict(c, t->ino);
		if (!err)
			err = fcr_touch(c, t->parent);
		if (!err)
			err = fcr_read_inode(c, t->parent, c->ibuf);
		if (err)
			return err;
		/* 1: more subdirectories than a count holds (dir_nlink). */
		if (fcr_small(c->ibuf)->i_links_count > 2)
			fcr_small(c->ibuf)->i_links_count--;
		return fcr_write_inode(c, t->parent, c->ibuf);
	}
	if (fcr_small(c->ibuf)->i_links_count)
		fcr_small(c->ibuf)->i_links_count--;
	if (fcr_small(c->ibuf)->i_links_count)
		return fcr_write_inode(c, t->ino, c->ibuf);
	return fcr_evict(c, t->ino);
}
