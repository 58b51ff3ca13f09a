/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_extent.c -- the blocks of the inodes the fast-commit replay touches.
 *
 * The regions ADD_RANGE records map are kept out of the allocator's way
 * until the end, as the kernel keeps them; the blocks an extent tree maps
 * are walked to mark, release or count them; and at the end each touched
 * tree is made what the kernel's extent code leaves (runs merged, levels
 * removed).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fc_fs.h"
#include "fc_extent.h"
#include "fc_state.h"

/* Is blk inside one of the ADD_RANGE regions (sorted, merged)? */
static int in_region(const struct fc_state *c, blk64_t blk)
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
void fc_extent_release(struct fc_state *c, blk64_t blk, blk64_t n)
{
	for (; n; blk++, n--)
		if (!in_region(c, blk))
			ext2fs_unmark_block_bitmap2(c->fs->block_map, blk);
}

/* libext2fs freeing a block (ext2fs_punch): a region's block stays taken. */
void fc_extent_alloc_stats(ext2_filsys fs, blk64_t blk, int inuse)
{
	struct fc_state *c = fs->priv_data;

	if (inuse < 0 && c && in_region(c, blk))
		ext2fs_mark_block_bitmap2(fs->block_map, blk);
}

static int reg_cmp(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Widen the regions to whole clusters, sort them and merge those that
 * touch or overlap.  On bigalloc a bit of the bitmap is a cluster: a block
 * released beside a region's blocks in the same cluster (a truncate freeing
 * the rest of it) must not free the cluster under the region, or a tree
 * block allocated later lands there and two inodes share it.
 */
void fc_extent_merge_regions(struct fc_state *c)
{
	const uint64_t mask = EXT2FS_CLUSTER_MASK(c->fs);
	size_t i, n = 0;

	if (!c->nreg)
		return;
	for (i = 0; mask && i < c->nreg; i++) {
		uint64_t end = c->reg[i].pblk + c->reg[i].count;

		c->reg[i].pblk &= ~mask;
		c->reg[i].count = ((end + mask) & ~mask) - c->reg[i].pblk;
	}
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

/* A walk of the area before the replay (an fc_tag_fn): every ADD_RANGE's
 * blocks noted as a region. */
int fc_extent_note_region(void *data, const struct fc_tag *t, int valid)
{
	struct fc_state *c = data;

	if (!valid)
		return 1;
	if (t->tag != FC_TAG_ADD_RANGE || !t->count)
		return 0;
	c->err = array_grow((void **)&c->reg, &c->capreg, c->nreg + 1,
			    sizeof(*c->reg));
	if (c->err)
		return 1;
	c->reg[c->nreg].pblk = t->pblk;
	c->reg[c->nreg].count = t->count;
	c->nreg++;
	return 0;
}

/* The inode in buf is an extent inode, and i_block holds a tree's root. */
int fc_extent_has_root(const unsigned char *buf)
{
	const struct ext2_inode *i = (const struct ext2_inode *)buf;

	return (i->i_flags & EXT4_EXTENTS_FL) &&
	       get_le16(buf + FC_I_BLOCK + FC_EH_MAGIC) == FC_EXTENT_MAGIC;
}

/* A fresh extent tree in the inode's i_block: a root and no extent. */
void fc_extent_empty_root(unsigned char *buf)
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
errcode_t fc_extent_note_freed(struct fc_state *c, blk64_t blk, blk64_t n)
{
	errcode_t err;

	err = array_grow((void **)&c->freed, &c->capfreed, c->nfreed + 1,
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

/*
 * The next entry of a walk over h's tree in order (*op: EXT2_EXTENT_ROOT
 * to start), each once: an index entry on its first visit, then the
 * entries below it.  EXT2_ET_EXTENT_NO_NEXT at the end.
 */
errcode_t fc_extent_next(ext2_extent_handle_t h, int *op,
			 struct ext2fs_extent *ex)
{
	errcode_t err;

	do {
		err = ext2fs_extent_get(h, *op, ex);
		*op = EXT2_EXTENT_NEXT;
		if (err == EXT2_ET_NO_CURRENT_NODE)
			err = EXT2_ET_EXTENT_NO_NEXT;
	} while (!err && (ex->e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT));
	return err;
}

/* Every block an extent inode maps, and its tree blocks: marked in the
 * block bitmap (mark), or noted for release at the end; and counted. */
errcode_t fc_extent_walk_blocks(struct fc_state *c, ext2_ino_t ino,
				unsigned char *buf, int mark, blk64_t *count)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent ex;
	blk64_t n = 0, last = ~(blk64_t)0;
	errcode_t err;
	int op = EXT2_EXTENT_ROOT;

	if (!fc_extent_has_root(buf)) {
		*count = 0;
		return 0;
	}
	err = ext2fs_extent_open2(c->fs, ino, (struct ext2_inode *)buf, &h);
	if (err)
		return err;
	while (!(err = fc_extent_next(h, &op, &ex))) {
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			/* An index entry: one tree block. */
			if (ex.e_pblk >= ext2fs_blocks_count(c->fs->super))
				continue;
			if (mark)
				ext2fs_mark_block_bitmap2(c->fs->block_map, ex.e_pblk);
			else if ((err = fc_extent_note_freed(c, ex.e_pblk, 1)))
				break;
			n++;
			continue;
		}
		if (!ex.e_len || ex.e_pblk + ex.e_len > ext2fs_blocks_count(c->fs->super))
			continue;
		if (mark)
			ext2fs_mark_block_bitmap_range2(c->fs->block_map,
							ex.e_pblk, ex.e_len);
		else if ((err = fc_extent_note_freed(c, ex.e_pblk, ex.e_len)))
			break;
		n += clusters_of(c->fs, ex.e_pblk, ex.e_len, &last);
	}
	if (err == EXT2_ET_EXTENT_NO_NEXT)
		err = 0;
	ext2fs_extent_free(h);
	*count = n;
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
errcode_t fc_extent_recount(struct fc_state *c, ext2_ino_t ino,
			    unsigned char *buf)
{
	struct ext2_inode *inode = fc_state_small_inode(buf);
	blk64_t n = 0, acl = ext2fs_file_acl_block(c->fs, inode);
	blk64_t last = ~(blk64_t)0;
	ext2_extent_handle_t h;
	struct ext2fs_extent ex;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	if (!fc_extent_has_root(buf))
		return 0;
	err = ext2fs_extent_open2(c->fs, ino, inode, &h);
	if (err)
		return err;
	while (!(err = fc_extent_next(h, &op, &ex))) {
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF))
			n++;
		else if (ex.e_len)
			n += clusters_of(c->fs, ex.e_pblk, ex.e_len, &last);
	}
	if (err == EXT2_ET_EXTENT_NO_NEXT)
		err = 0;
	ext2fs_extent_free(h);
	if (!err && acl && acl < ext2fs_blocks_count(c->fs->super))
		n++;
	if (!err)
		err = ext2fs_iblk_set(c->fs, inode, n);
	return err;
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
static errcode_t read_tree(struct fc_state *c, ext2_ino_t ino,
			   struct tree_runs *t)
{
	ext2_extent_handle_t h;
	struct ext2_extent_info info;
	struct ext2fs_extent ex;
	struct run *last;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	err = ext2fs_extent_open2(c->fs, ino, fc_state_small_inode(c->ibuf),
				  &h);
	if (err)
		return err;
	err = ext2fs_extent_get_info(h, &info);
	if (err)
		goto out;
	t->depth = (unsigned int)info.max_depth;
	while (!(err = fc_extent_next(h, &op, &ex))) {
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			err = array_grow((void **)&t->tb, &t->captb,
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
		err = array_grow((void **)&t->v, &t->capv, t->nv + 1,
				 sizeof(*t->v));
		if (err)
			break;
		t->v[t->nv].lblk = ex.e_lblk;
		t->v[t->nv].pblk = ex.e_pblk;
		t->v[t->nv].len = ex.e_len;
		t->v[t->nv].uninit = !!(ex.e_flags & EXT2_EXTENT_FLAGS_UNINIT);
		t->nv++;
	}
	if (err == EXT2_ET_EXTENT_NO_NEXT)
		err = 0;
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
static errcode_t rewrite_tree(struct fc_state *c, ext2_ino_t ino,
			      const struct tree_runs *t, size_t nm)
{
	ext2_filsys fs = c->fs;
	ext2_extent_handle_t h = NULL;
	struct ext2fs_extent ex;
	size_t i;
	errcode_t err;

	for (i = 0; i < t->ntb; i++)
		if (t->tb[i] < ext2fs_blocks_count(fs->super))
			fc_extent_release(c, t->tb[i], 1);
	fc_extent_empty_root(c->ibuf);
	err = ext2fs_iblk_set(fs, fc_state_small_inode(c->ibuf), 0);
	if (!err)
		err = fc_state_write_inode(c, ino, c->ibuf);
	if (!err)
		err = ext2fs_extent_open2(fs, ino,
					  fc_state_small_inode(c->ibuf), &h);
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
errcode_t fc_extent_compact_tree(struct fc_state *c, ext2_ino_t ino)
{
	unsigned int per_leaf = (c->fs->blocksize - FC_EH_SIZE) /
				FC_EXTENT_SIZE;
	struct tree_runs t;
	size_t nm;
	errcode_t err;

	err = fc_state_read_inode(c, ino, c->ibuf);
	if (err || !fc_state_inode_in_use(c->ibuf) ||
	    !fc_extent_has_root(c->ibuf))
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
