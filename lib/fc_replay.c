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
 *              is released as the kernel evicts it (a name already gone is
 *              fine).
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
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "librecoverP.h"
#include "fc_fs.h"
#include "fc_replay.h"

/* ---- the replay ---------------------------------------------------------- */

struct touched {
	ext2_ino_t	ino;
	int		was_dir;	/* an in-use directory before */
};

struct fcr {
	struct recover_struct *r;
	ext2_filsys	fs;
	unsigned char	*ibuf, *ibuf2;	/* full on-disk inodes */
	unsigned int	isize;
	struct touched	*t;
	size_t		nt, capt;
	/* ADD_RANGE regions, kept out of the allocator's way until the end */
	struct { uint64_t pblk; uint64_t count; } *reg;
	size_t		nreg, capreg;
	/* blocks INODE records released, let go at the end */
	struct { uint64_t pblk; uint64_t count; } *freed;
	size_t		nfreed, capfreed;
	ext2fs_block_bitmap before;	/* the block bitmap the log left */
	/* ranges of inodes that were inline data when the range came */
	struct fc_tag	*held;
	size_t		nheld, capheld;
	unsigned long long applied;
	errcode_t	err;
};

/* Is blk inside one of the ADD_RANGE regions (sorted, merged)? */
static int in_region(const struct fcr *c, blk64_t blk)
{
	size_t lo = 0, hi = c->nreg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (blk < c->reg[mid].pblk)
			hi = mid;
		else if (blk >= c->reg[mid].pblk + c->reg[mid].count)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

/*
 * Blocks a record releases go back to the bitmap, but for those a record
 * maps: the kernel's allocator skips those regions until the end of the
 * replay (ext4_fc_replay_check_excluded), so must libext2fs's.
 */
static void release(struct fcr *c, blk64_t blk, blk64_t n)
{
	for (; n; blk++, n--)
		if (!in_region(c, blk))
			ext2fs_unmark_block_bitmap2(c->fs->block_map, blk);
}

/* libext2fs freeing a block (ext2fs_punch): a region's block stays taken. */
static void alloc_stats(ext2_filsys fs, blk64_t blk, int inuse)
{
	struct fcr *c = fs->priv_data;

	if (inuse < 0 && c && in_region(c, blk))
		ext2fs_mark_block_bitmap2(fs->block_map, blk);
}

static int reg_cmp(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort the regions and merge those that touch or overlap. */
static void merge_regions(struct fcr *c)
{
	size_t i, n = 0;

	if (!c->nreg)
		return;
	qsort(c->reg, c->nreg, sizeof(*c->reg), reg_cmp);
	for (i = 1; i < c->nreg; i++) {
		uint64_t end = c->reg[n].pblk + c->reg[n].count;

		if (c->reg[i].pblk <= end) {
			uint64_t e2 = c->reg[i].pblk + c->reg[i].count;

			if (e2 > end)
				c->reg[n].count = e2 - c->reg[n].pblk;
		} else {
			c->reg[++n] = c->reg[i];
		}
	}
	c->nreg = n + 1;
}

static struct ext2_inode *small(unsigned char *buf)
{
	return (struct ext2_inode *)buf;
}

static errcode_t read_inode(struct fcr *c, ext2_ino_t ino, unsigned char *buf)
{
	return ext2fs_read_inode_full(c->fs, ino, (struct ext2_inode *)buf,
				      c->isize);
}

static errcode_t write_inode(struct fcr *c, ext2_ino_t ino, unsigned char *buf)
{
	return ext2fs_write_inode_full(c->fs, ino, (struct ext2_inode *)buf,
				       c->isize);
}

/* What the kernel's ext4_iget() accepts during a replay: an inode in use. */
static int in_use(const unsigned char *buf)
{
	const struct ext2_inode *i = (const struct ext2_inode *)buf;

	return i->i_links_count && i->i_mode;
}

static errcode_t touch(struct fcr *c, ext2_ino_t ino)
{
	size_t i;
	errcode_t err;

	for (i = 0; i < c->nt; i++)
		if (c->t[i].ino == ino)
			return 0;
	err = recovery_grow((void **)&c->t, &c->capt, c->nt + 1,
			    sizeof(*c->t));
	if (err)
		return err;
	err = read_inode(c, ino, c->ibuf2);
	if (err)
		return err;
	c->t[c->nt].ino = ino;
	c->t[c->nt].was_dir = ext2fs_test_inode_bitmap2(c->fs->inode_map, ino) &&
			      in_use(c->ibuf2) &&
			      LINUX_S_ISDIR(small(c->ibuf2)->i_mode);
	c->nt++;
	return 0;
}

static int has_extent_root(const unsigned char *buf)
{
	const struct ext2_inode *i = (const struct ext2_inode *)buf;

	return (i->i_flags & EXT4_EXTENTS_FL) &&
	       get_le16(buf + FC_I_BLOCK + FC_EH_MAGIC) == FC_EXTENT_MAGIC;
}

/* A fresh extent tree in the inode's i_block: a root and no extent. */
static void empty_root(unsigned char *buf)
{
	memset(buf + FC_I_BLOCK, 0, FC_I_BLOCK_SIZE);
	put_le16(buf + FC_I_BLOCK + FC_EH_MAGIC, FC_EXTENT_MAGIC);
	put_le16(buf + FC_I_BLOCK + FC_EH_MAX, FC_ROOT_EXTENTS);
}

/*
 * The kernel releases an inode's blocks when its INODE record is replayed
 * and marks again at the end whatever the touched inodes still map.  In
 * between its allocator could hand out a block the inode keeps (the extent
 * tree stays as on disk): here the release waits for the end instead,
 * where it comes before the marking, which gives the same bitmap.
 */
static errcode_t note_freed(struct fcr *c, blk64_t blk, blk64_t n)
{
	errcode_t err;

	err = recovery_grow((void **)&c->freed, &c->capfreed, c->nfreed + 1,
			    sizeof(*c->freed));
	if (err)
		return err;
	c->freed[c->nfreed].pblk = blk;
	c->freed[c->nfreed].count = n;
	c->nfreed++;
	return 0;
}

/*
 * How many clusters len blocks from pblk add to an inode's count, *last
 * the last cluster counted before (on bigalloc the extents of one logical
 * cluster share its physical one); blocks where the filesystem has no
 * clusters.
 */
static blk64_t clusters_of(ext2_filsys fs, blk64_t pblk, blk64_t len,
			   blk64_t *last)
{
	blk64_t c0 = EXT2FS_B2C(fs, pblk), c1 = EXT2FS_B2C(fs, pblk + len - 1);
	blk64_t n = c1 - c0 + 1;

	if (*last == c0)
		n--;
	*last = c1;
	return n;
}

/* Every block an extent inode maps, and its tree blocks: marked in the
 * block bitmap (mark), or noted for release at the end; and counted. */
static errcode_t walk_blocks(struct fcr *c, ext2_ino_t ino, unsigned char *buf,
			     int mark, blk64_t *count)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent ex;
	blk64_t n = 0, last = ~(blk64_t)0;
	errcode_t err;
	int op = EXT2_EXTENT_ROOT;

	if (!has_extent_root(buf)) {
		*count = 0;
		return 0;
	}
	err = ext2fs_extent_open2(c->fs, ino, (struct ext2_inode *)buf, &h);
	if (err)
		return err;
	for (;;) {
		err = ext2fs_extent_get(h, op, &ex);
		op = EXT2_EXTENT_NEXT;
		if (err == EXT2_ET_EXTENT_NO_NEXT || err == EXT2_ET_NO_CURRENT_NODE) {
			err = 0;
			break;
		}
		if (err)
			break;
		if (ex.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			/* An index entry: one tree block. */
			if (ex.e_pblk >= ext2fs_blocks_count(c->fs->super))
				continue;
			if (mark)
				ext2fs_mark_block_bitmap2(c->fs->block_map, ex.e_pblk);
			else if ((err = note_freed(c, ex.e_pblk, 1)))
				break;
			n++;
			continue;
		}
		if (!ex.e_len || ex.e_pblk + ex.e_len > ext2fs_blocks_count(c->fs->super))
			continue;
		if (mark)
			ext2fs_mark_block_bitmap_range2(c->fs->block_map,
							ex.e_pblk, ex.e_len);
		else if ((err = note_freed(c, ex.e_pblk, ex.e_len)))
			break;
		n += clusters_of(c->fs, ex.e_pblk, ex.e_len, &last);
	}
	ext2fs_extent_free(h);
	*count = n;
	return err;
}

static errcode_t replay_held(struct fcr *c, ext2_ino_t ino);

static errcode_t replay_inode(struct fcr *c, const struct fc_tag *t)
{
	unsigned char *old = c->ibuf;
	const unsigned char *raw = t->raw_inode;
	unsigned int len = t->raw_len;
	blk64_t n;
	uint32_t flags;
	errcode_t err;

	err = touch(c, t->ino);
	if (!err)
		err = read_inode(c, t->ino, old);
	if (err)
		return err;
	if (in_use(old)) {
		err = walk_blocks(c, t->ino, old, 0, &n);
		if (err)
			return err;
	}
	if (len > c->isize)
		len = c->isize;
	/* Everything but i_block from the record. */
	memcpy(old, raw, FC_I_BLOCK);
	memcpy(old + FC_I_GENERATION, raw + FC_I_GENERATION,
	       len - FC_I_GENERATION);
	flags = get_le32(old + FC_I_FLAGS);
	if (flags & EXT4_EXTENTS_FL) {
		if (get_le16(old + FC_I_BLOCK + FC_EH_MAGIC) !=
		    FC_EXTENT_MAGIC)
			empty_root(old);
	} else if (flags & EXT4_INLINE_DATA_FL) {
		memcpy(old + FC_I_BLOCK, raw + FC_I_BLOCK, FC_I_BLOCK_SIZE);
	}
	err = write_inode(c, t->ino, old);
	if (err)
		return err;
	ext2fs_mark_inode_bitmap2(c->fs->inode_map, t->ino);
	if (flags & EXT4_EXTENTS_FL)
		err = replay_held(c, t->ino);
	return err;
}

/*
 * i_blocks of the inode in buf set to what its tree maps (data, tree
 * blocks, its extended attribute block).  libext2fs adds and subtracts
 * from i_blocks as it maps and unmaps, and refuses (EOVERFLOW) to go below
 * 0: an INODE record's i_blocks counts the kernel's tree before the crash,
 * not the one the replay has built so far, so it is made true first (the
 * end of the replay counts it again in any case).
 */
static errcode_t recount(struct fcr *c, ext2_ino_t ino, unsigned char *buf)
{
	struct ext2_inode *inode = small(buf);
	blk64_t n = 0, acl = ext2fs_file_acl_block(c->fs, inode);
	blk64_t last = ~(blk64_t)0;
	ext2_extent_handle_t h;
	struct ext2fs_extent ex;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	if (!has_extent_root(buf))
		return 0;
	err = ext2fs_extent_open2(c->fs, ino, inode, &h);
	if (err)
		return err;
	for (;;) {
		err = ext2fs_extent_get(h, op, &ex);
		op = EXT2_EXTENT_NEXT;
		if (err == EXT2_ET_EXTENT_NO_NEXT ||
		    err == EXT2_ET_NO_CURRENT_NODE) {
			err = 0;
			break;
		}
		if (err)
			break;
		if (ex.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF))
			n++;
		else if (ex.e_len)
			n += clusters_of(c->fs, ex.e_pblk, ex.e_len, &last);
	}
	ext2fs_extent_free(h);
	if (!err && acl && acl < ext2fs_blocks_count(c->fs->super))
		n++;
	if (!err)
		err = ext2fs_iblk_set(c->fs, inode, n);
	return err;
}

/* ADD_RANGE's blocks, mapped into the inode in c->ibuf. */
static errcode_t map_range(struct fcr *c, const struct fc_tag *t,
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
			release(c, old, 1);
		err = ext2fs_bmap2(c->fs, t->ino, inode, NULL,
				   BMAP_SET | (t->unwritten ? BMAP_UNINIT : 0),
				   t->lblk + i, NULL, &want);
	}
	if (!err)
		err = ext2fs_write_inode(c->fs, t->ino, inode);
	return err;
}

/* DEL_RANGE's blocks, unmapped from the inode in c->ibuf. */
static errcode_t unmap_range(struct fcr *c, const struct fc_tag *t,
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
static errcode_t replay_range(struct fcr *c, const struct fc_tag *t)
{
	struct ext2_inode *inode = small(c->ibuf);
	int add = t->tag == FC_TAG_ADD_RANGE;
	errcode_t err;

	err = read_inode(c, t->ino, c->ibuf);
	if (err || !in_use(c->ibuf) || (!add && !t->count))
		return err;
	err = touch(c, t->ino);
	if (err)
		return err;
	/*
	 * A file that leaves inline data gets its blocks logged before the
	 * INODE record that takes it out of line: the range is held until
	 * that record comes (the kernel's replay fails the range on the
	 * inline inode, ignores that, and leaves the file a hole).
	 */
	if (inode->i_flags & EXT4_INLINE_DATA_FL) {
		err = recovery_grow((void **)&c->held, &c->capheld,
				    c->nheld + 1, sizeof(*c->held));
		if (!err)
			c->held[c->nheld++] = *t;
		return err;
	}
	err = recount(c, t->ino, c->ibuf);
	if (err)
		return err;
	return add ? map_range(c, t, inode) : unmap_range(c, t, inode);
}

/* The ranges held for ino while it was inline, once it is not. */
static errcode_t replay_held(struct fcr *c, ext2_ino_t ino)
{
	size_t i, n = 0;
	errcode_t err = 0;

	for (i = 0; i < c->nheld; i++) {
		if (c->held[i].ino != ino) {
			c->held[n++] = c->held[i];
			continue;
		}
		if (!err)
			err = replay_range(c, &c->held[i]);
	}
	c->nheld = n;
	return err;
}

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
	if (csum)
		ext2fs_initialize_dirent_tail(fs,
			EXT2_DIRENT_TAIL(leaf, fs->blocksize));
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
	err = ext2fs_write_dir_block4(fs, p1, h->nb, 0, h->dir);
	if (!err) {
		fill_leaf(fs, h->nb, h->b0, h->d, h->split, h->n, h->csum);
		err = ext2fs_write_dir_block4(fs, p2, h->nb, 0, h->dir);
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
	err = ext2fs_write_dir_block4(fs, p0, nb, 0, h->dir);
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
		err = ext2fs_read_dir_block4(h.fs, p0, h.b0, 0, dir);
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
static errcode_t link_name(struct fcr *c, const struct fc_tag *t, uint16_t mode,
			   int *added)
{
	char name[FC_NAME_MAX + 1];
	ext2_ino_t found;
	errcode_t err;
	int tries;

	err = read_inode(c, t->parent, c->ibuf2);
	if (err || !in_use(c->ibuf2) || !LINUX_S_ISDIR(small(c->ibuf2)->i_mode))
		return err;
	memcpy(name, t->name, t->name_len);
	name[t->name_len] = 0;
	*added = 0;
	if (!ext2fs_lookup(c->fs, t->parent, name, (int)t->name_len, NULL,
			   &found))
		return 0;
	for (tries = 0; tries < 3; tries++) {
		int indexed = 0;

		err = ext2fs_link(c->fs, t->parent, name, t->ino,
				  file_type(mode));
		if (err != EXT2_ET_DIR_NO_SPACE)
			break;
		if (!tries)
			err = index_dir(c, t->parent, &indexed);
		if (!err && !indexed)
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
	struct ext2_inode *inode = small(c->ibuf);
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

static errcode_t replay_create(struct fcr *c, const struct fc_tag *t)
{
	struct ext2_inode *inode = small(c->ibuf);
	int added = 0;
	errcode_t err;

	err = touch(c, t->ino);
	if (!err)
		err = read_inode(c, t->ino, c->ibuf);
	if (err || !in_use(c->ibuf))
		return err;
	/*
	 * A new inline directory's INODE record came with its i_block, which
	 * holds its ".." (and "." is implied): there is nothing to make.
	 */
	if (LINUX_S_ISDIR(inode->i_mode) &&
	    !(inode->i_flags & EXT4_INLINE_DATA_FL)) {
		err = read_inode(c, t->parent, c->ibuf2);
		if (err || !in_use(c->ibuf2))
			return err;
		err = init_dir(c, t->ino, t->parent);
		if (err)
			return err;
	}
	err = link_name(c, t, inode->i_mode, &added);
	if (err)
		return err;
	err = read_inode(c, t->ino, c->ibuf);
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
	err = touch(c, t->parent);
	if (!err)
		err = read_inode(c, t->parent, c->ibuf2);
	if (err)
		return err;
	small(c->ibuf2)->i_links_count++;
	return write_inode(c, t->parent, c->ibuf2);
}

static errcode_t replay_link(struct fcr *c, const struct fc_tag *t)
{
	errcode_t err;
	int added;

	err = read_inode(c, t->ino, c->ibuf);
	if (err || !in_use(c->ibuf))
		return err;
	err = link_name(c, t, small(c->ibuf)->i_mode, &added);
	if (err || !added)
		return err;
	/* One link more, as the kernel's link does (an UNLINK of the old
	 * name of a rename comes next, and takes it off again). */
	err = touch(c, t->ino);
	if (!err)
		err = read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	if (small(c->ibuf)->i_links_count < 0xFFFF)
		small(c->ibuf)->i_links_count++;
	return write_inode(c, t->ino, c->ibuf);
}

/*
 * An inode whose last link went, in c->ibuf (links 0), released as the
 * kernel's eviction releases it: size 0, every block it maps and its tree
 * let go (at the end, as an INODE record's), its extended attribute block
 * released (or one reference fewer), the deletion time set; the end of the
 * replay frees it in the inode bitmap (it is touched, and no longer in
 * use).  A later record reusing the number starts from an empty tree.
 */
static errcode_t evict(struct fcr *c, ext2_ino_t ino)
{
	struct ext2_inode *inode = small(c->ibuf);
	blk64_t acl = ext2fs_file_acl_block(c->fs, inode), n;
	uint32_t flags = get_le32(c->ibuf + FC_I_FLAGS);
	errcode_t err = 0;

	if (has_extent_root(c->ibuf)) {
		err = walk_blocks(c, ino, c->ibuf, 0, &n);
		if (err)
			return err;
		empty_root(c->ibuf);
	} else if (!(flags & EXT4_INLINE_DATA_FL) &&
		   ext2fs_inode_has_valid_blocks2(c->fs, inode)) {
		/* A block-mapped file: libext2fs unmaps and frees it. */
		err = recount(c, ino, c->ibuf);
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
			err = note_freed(c, acl, 1);
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
		err = write_inode(c, ino, c->ibuf);
	return err;
}

static errcode_t replay_unlink(struct fcr *c, const struct fc_tag *t)
{
	char name[FC_NAME_MAX + 1];
	errcode_t err;

	err = read_inode(c, t->ino, c->ibuf);
	if (err || !in_use(c->ibuf))
		return err;
	err = read_inode(c, t->parent, c->ibuf2);
	if (err || !in_use(c->ibuf2))
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
	err = touch(c, t->ino);
	if (!err)
		err = read_inode(c, t->ino, c->ibuf);
	if (err)
		return err;
	if (LINUX_S_ISDIR(small(c->ibuf)->i_mode)) {
		err = evict(c, t->ino);
		if (!err)
			err = touch(c, t->parent);
		if (!err)
			err = read_inode(c, t->parent, c->ibuf);
		if (err)
			return err;
		/* 1: more subdirectories than a count holds (dir_nlink). */
		if (small(c->ibuf)->i_links_count > 2)
			small(c->ibuf)->i_links_count--;
		return write_inode(c, t->parent, c->ibuf);
	}
	if (small(c->ibuf)->i_links_count)
		small(c->ibuf)->i_links_count--;
	if (small(c->ibuf)->i_links_count)
		return write_inode(c, t->ino, c->ibuf);
	return evict(c, t->ino);
}

static int apply(void *data, const struct fc_tag *t, int valid)
{
	struct fcr *c = data;

	/* What each record changes; PAD, TAIL and HEAD change nothing. */
	static errcode_t (*const replay_tag[])(struct fcr *,
					       const struct fc_tag *) = {
		[FC_TAG_ADD_RANGE]	= replay_range,
		[FC_TAG_DEL_RANGE]	= replay_range,
		[FC_TAG_CREAT]		= replay_create,
		[FC_TAG_LINK]		= replay_link,
		[FC_TAG_UNLINK]		= replay_unlink,
		[FC_TAG_INODE]		= replay_inode,
	};

	if (!valid)
		return 1;
	if (t->tag < sizeof(replay_tag) / sizeof(replay_tag[0]) &&
	    replay_tag[t->tag])
		c->err = replay_tag[t->tag](c, t);
	c->applied++;
	return c->err != 0;
}

/* Walk the area again, handing the valid records to fn. */
static errcode_t for_each_valid(struct recover_struct *r, fc_tag_fn fn,
				void *data, int *stopped)
{
	const struct jsuper *sb = &r->sb;
	struct fc_scan s;
	unsigned char *buf;
	uint32_t blk;
	errcode_t err = 0;

	buf = fc_area_begin(r, &s, r->st.fc_tid, r->st.fc_tags);
	if (!buf)
		return ENOMEM;
	for (blk = sb->last + 1; blk < sb->pub.maxlen; blk++) {
		err = jsource_read(&r->src, blk, 1, buf);
		if (err || !fc_scan_block(&s, buf, fn, data) ||
		    s.tags >= r->st.fc_tags)
			break;
	}
	*stopped = s.interrupted;
	free(buf);
	return err;
}

/* ---- checks before anything is written ---------------------------------- */

struct fcheck {
	struct recover_struct *r;
	errcode_t	err;
};

static int check_one(void *data, const struct fc_tag *t, int valid)
{
	struct fcheck *k = data;
	struct ext2_super_block *es = k->r->fs->super;
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

errcode_t fc_replay_check(struct recover_struct *r)
{
	struct fcheck k = { .r = r };
	int stopped;
	errcode_t err;

	if (r->st.fc_state != RECOVER_FC_LIVE)
		return 0;
	err = for_each_valid(r, check_one, &k, &stopped);
	return err ? err : k.err;
}

static int note_region(void *data, const struct fc_tag *t, int valid)
{
	struct fcr *c = data;

	if (!valid)
		return 1;
	if (t->tag != FC_TAG_ADD_RANGE || !t->count)
		return 0;
	c->err = recovery_grow((void **)&c->reg, &c->capreg, c->nreg + 1,
				    sizeof(*c->reg));
	if (c->err)
		return 1;
	c->reg[c->nreg].pblk = t->pblk;
	c->reg[c->nreg].count = t->count;
	c->nreg++;
	return 0;
}

/* One mapped run of logical blocks, as a leaf extent holds it. */
struct run {
	blk64_t		lblk, pblk;
	uint32_t	len;
	int		uninit;
};

/* An inode's tree as read_tree() finds it. */
struct tree_runs {
	struct run	*v;		/* the leaves' extents, in order */
	size_t		nv, capv;
	blk64_t		*tb;		/* the tree's index and leaf blocks */
	size_t		ntb, captb;
	unsigned int	depth;
};

/*
 * The extents of the tree of the inode in c->ibuf, and its blocks; leaves
 * that overlap (a tree the replay could not have made) are refused.
 */
static errcode_t read_tree(struct fcr *c, ext2_ino_t ino, struct tree_runs *t)
{
	ext2_extent_handle_t h;
	struct ext2_extent_info info;
	struct ext2fs_extent ex;
	struct run *last;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	err = ext2fs_extent_open2(c->fs, ino, small(c->ibuf), &h);
	if (err)
		return err;
	err = ext2fs_extent_get_info(h, &info);
	if (err)
		goto out;
	t->depth = (unsigned int)info.max_depth;
	for (;;) {
		err = ext2fs_extent_get(h, op, &ex);
		op = EXT2_EXTENT_NEXT;
		if (err == EXT2_ET_EXTENT_NO_NEXT ||
		    err == EXT2_ET_NO_CURRENT_NODE) {
			err = 0;
			break;
		}
		if (err)
			break;
		if (ex.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			err = recovery_grow((void **)&t->tb, &t->captb,
					    t->ntb + 1, sizeof(*t->tb));
			if (err)
				break;
			t->tb[t->ntb++] = ex.e_pblk;
			continue;
		}
		if (!ex.e_len)
			continue;
		last = t->nv ? &t->v[t->nv - 1] : NULL;
		if (last && ex.e_lblk < last->lblk + last->len) {
			err = RECOVER_ET_FC_UNLIKE_KERNEL;
			break;
		}
		err = recovery_grow((void **)&t->v, &t->capv, t->nv + 1,
				    sizeof(*t->v));
		if (err)
			break;
		t->v[t->nv].lblk = ex.e_lblk;
		t->v[t->nv].pblk = ex.e_pblk;
		t->v[t->nv].len = ex.e_len;
		t->v[t->nv].uninit = !!(ex.e_flags & EXT2_EXTENT_FLAGS_UNINIT);
		t->nv++;
	}
out:
	ext2fs_extent_free(h);
	return err;
}

/* The runs that continue each other merged, in place; how many are left. */
static size_t merge_runs(struct run *v, size_t nv)
{
	size_t i, nm = 0;

	for (i = 0; i < nv; i++) {
		struct run *m = nm ? &v[nm - 1] : NULL;

		if (m && m->uninit == v[i].uninit &&
		    m->lblk + m->len == v[i].lblk &&
		    m->pblk + m->len == v[i].pblk &&
		    m->len + v[i].len <= (m->uninit ? FC_EXT_UNINIT_MAX_LEN :
						     FC_EXT_INIT_MAX_LEN))
			m->len += v[i].len;
		else
			v[nm++] = v[i];
	}
	return nm;
}

/*
 * The tree of the inode in c->ibuf written again from its first nm runs:
 * its old index and leaf blocks released, an empty root, then the runs
 * inserted one by one (libext2fs allocates the blocks as it splits).
 */
static errcode_t rewrite_tree(struct fcr *c, ext2_ino_t ino,
			      const struct tree_runs *t, size_t nm)
{
	ext2_filsys fs = c->fs;
	ext2_extent_handle_t h = NULL;
	struct ext2fs_extent ex;
	size_t i;
	errcode_t err;

	for (i = 0; i < t->ntb; i++)
		if (t->tb[i] < ext2fs_blocks_count(fs->super))
			release(c, t->tb[i], 1);
	empty_root(c->ibuf);
	err = ext2fs_iblk_set(fs, small(c->ibuf), 0);
	if (!err)
		err = write_inode(c, ino, c->ibuf);
	if (!err)
		err = ext2fs_extent_open2(fs, ino, small(c->ibuf), &h);
	for (i = 0; !err && i < nm; i++) {
		ex.e_lblk = t->v[i].lblk;
		ex.e_pblk = t->v[i].pblk;
		ex.e_len = t->v[i].len;
		ex.e_flags = t->v[i].uninit ? EXT2_EXTENT_FLAGS_UNINIT : 0;
		err = ext2fs_extent_insert(h, i ? EXT2_EXTENT_INSERT_AFTER : 0,
					   &ex);
		if (!err)
			err = ext2fs_extent_fix_parents(h);
	}
	if (!err)
		err = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)c->ibuf,
					     c->isize);
	if (h)
		ext2fs_extent_free(h);
	return err;
}

/*
 * The tree of a touched inode as the kernel's replay leaves it: it inserts
 * each ADD_RANGE with ext4_ext_insert_extent(), which merges a run with
 * its neighbours when they continue it (same state, adjacent logical and
 * physical blocks, within an extent's length), removes the tree's levels
 * when DEL_RANGE empties it, and merges the extents again up to the end
 * of file.  libext2fs maps block by block, never merges two extents once
 * made and never makes a tree shallower: here the leaves are read, the
 * runs that continue each other merged, and the tree written again from
 * them when that gives fewer extents or fewer levels (its old index and
 * leaf blocks released, new ones allocated as libext2fs splits).  Leaves
 * that overlap (a tree the replay could not have made) are refused.
 */
static errcode_t compact_tree(struct fcr *c, ext2_ino_t ino)
{
	unsigned int per_leaf = (c->fs->blocksize - FC_EH_SIZE) /
				FC_EXTENT_SIZE;
	struct tree_runs t;
	size_t nm;
	errcode_t err;

	err = read_inode(c, ino, c->ibuf);
	if (err || !in_use(c->ibuf) || !has_extent_root(c->ibuf))
		return err;
	memset(&t, 0, sizeof(t));
	err = read_tree(c, ino, &t);
	if (err)
		goto out;
	nm = merge_runs(t.v, t.nv);
	/* As good as it gets: as many extents, and no level to spare. */
	if (nm == t.nv && (!t.depth ||
			   (t.depth == 1 && nm > FC_ROOT_EXTENTS) ||
			   (t.depth > 1 &&
			    nm > (size_t)FC_ROOT_EXTENTS * per_leaf)))
		goto out;
	err = rewrite_tree(c, ino, &t, nm);
out:
	free(t.v);
	free(t.tb);
	return err;
}

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
static errcode_t group_counters(struct fcr *c)
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
static errcode_t finish(struct fcr *c)
{
	ext2_filsys fs = c->fs;
	size_t i;
	dgrp_t g;
	errcode_t err;

	/* Before the regions are let go: new tree blocks must avoid them. */
	for (i = 0; i < c->nt; i++) {
		err = compact_tree(c, c->t[i].ino);
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
		struct ext2_inode *inode = small(c->ibuf);
		blk64_t n = 0;
		int is_dir;

		err = read_inode(c, ino, c->ibuf);
		if (err)
			return err;
		is_dir = 0;
		if (in_use(c->ibuf)) {
			ext2fs_mark_inode_bitmap2(fs->inode_map, ino);
			err = walk_blocks(c, ino, c->ibuf, 1, &n);
			if (err)
				return err;
			if (ext2fs_file_acl_block(fs, inode) &&
			    ext2fs_file_acl_block(fs, inode) <
			    ext2fs_blocks_count(fs->super)) {
				ext2fs_mark_block_bitmap2(fs->block_map,
					ext2fs_file_acl_block(fs, inode));
				n++;
			}
			if (has_extent_root(c->ibuf)) {
				err = ext2fs_iblk_set(fs, inode, n);
				if (!err)
					err = write_inode(c, ino, c->ibuf);
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

void fc_replay_free(struct recover_struct *r)
{
	fc_overlay_free(r->fc_overlay);
	r->fc_overlay = NULL;
}

errcode_t fc_replay(struct recover_struct *r)
{
	struct fc_overlay *o;
	struct fcr c;
	int stopped;
	size_t i;
	errcode_t err;

	memset(&c, 0, sizeof(c));
	c.r = r;
	err = fc_overlay_new(r, &o);
	if (err)
		return err;
	err = fc_io_open(o, EXT2_FLAG_RW | EXT2_FLAG_64BITS |
			 EXT2_FLAG_IGNORE_CSUM_ERRORS |
			 EXT2_FLAG_MASTER_SB_ONLY, &c.fs);
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
		err = for_each_valid(r, note_region, &c, &stopped);
	if (!err)
		err = c.err;
	/* Allocations on the way (directory blocks, extent tree blocks)
	 * must not land on blocks a later record maps. */
	merge_regions(&c);
	c.fs->priv_data = &c;
	ext2fs_set_block_alloc_stats_callback(c.fs, alloc_stats, NULL);
	for (i = 0; !err && i < c.nreg; i++)
		ext2fs_mark_block_bitmap_range2(c.fs->block_map, c.reg[i].pblk,
						c.reg[i].count);
	if (!err)
		err = for_each_valid(r, apply, &c, &stopped);
	if (!err)
		err = c.err;
	if (!err)
		err = finish(&c);
	r->st.fc_replayed = err ? 0 : c.applied;
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
		fc_replay_free(r);
		/* libext2fs's own codes say what went wrong inside. */
		r->st.fc_error = err;
		return RECOVER_ET_FC_REPLAY;
	}
	return 0;
}

errcode_t fc_replay_commit(struct recover_struct *r)
{
	unsigned long long bytes;
	errcode_t err;

	if (!r->fc_overlay)
		return 0;
	err = fc_overlay_write_out(r->fc_overlay, r->fs->io, &bytes);
	if (!err)
		r->st.written_bytes += bytes;
	fc_replay_free(r);
	return err;
}
