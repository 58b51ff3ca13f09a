/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_htree.c -- what libext2fs's directory code does not do as the kernel
 * does, for the fast-commit replay's names (fc_dir.c): a one-block
 * directory that a new name does not fit in made an indexed one, its
 * names split between two leaves where the kernel splits them.  The
 * blocks are read and built byte by byte, in their on-disk order.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fc_fs.h"
#include "fc_htree.h"
#include "fc_state.h"

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

	if (!err && fc_state_big_endian_host())
		err = ext2fs_dirent_swab_out2(fs, buf, fs->blocksize, 0);
	return err;
}

static errcode_t write_dir_block(ext2_filsys fs, blk64_t blk, void *buf,
				 ext2_ino_t ino)
{
	errcode_t err = 0;

	if (fc_state_big_endian_host())
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

/* A one-block directory being made an indexed one (fc_htree_index_dir()). */
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
		err = array_grow((void **)&h->d, &cap, h->n + 1,
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
errcode_t fc_htree_index_dir(struct fc_state *c, ext2_ino_t dir, int *done)
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
