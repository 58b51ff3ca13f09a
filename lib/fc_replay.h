/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_replay.h -- what the files of the fast-commit replay share: the view
 * of the filesystem in memory (fc_overlay.c) and the io manager over it
 * (fc_io.c), which the lifecycle also opens to look the journal up on the
 * filesystem as the log leaves it (life_journal.c); the state of one
 * replay, and the editing of inodes (fc_inode.c), of extent trees and the
 * blocks they map (fc_extent.c) and of directories (fc_dir.c, fc_htree.c)
 * that the dispatch of the records (fc_replay.c) calls.  The layer's entry
 * points are declared in fc.h.
 */
#ifndef FC_REPLAY_H
#define FC_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "fc.h"
#include "fc_fs.h"

/* ---- the view in memory (fc_overlay.c) and its io manager (fc_io.c) ---- */

struct fc_overlay;

/*
 * The view of fs: the disk, under the log's blocks (pl's tags, as the
 * replay leaves them), under the replay's writes.  *ret holds it as soon
 * as it exists, also when this fails, for fc_overlay_free().
 */
errcode_t fc_overlay_new(const struct pass_log *pl, ext2_filsys fs,
			 struct fc_overlay **ret);
/* len bytes from byte off read into rbuf, or written from wbuf. */
errcode_t fc_overlay_rw(struct fc_overlay *o, unsigned long long off,
			size_t len, void *rbuf, const void *wbuf);
/* The blocks the replay wrote, written through io; *bytes says how many. */
errcode_t fc_overlay_write_out(struct fc_overlay *o, io_channel io,
			       unsigned long long *bytes);
void fc_overlay_free(struct fc_overlay *o);
/* A filesystem opened on the view, with libext2fs's open flags, at the
 * superblock given (0: the primary; else in units of block_size). */
errcode_t fc_io_open(struct fc_overlay *o, int flags, blk64_t superblock,
		     unsigned int block_size, ext2_filsys *ret);

/* ---- one replay ---------------------------------------------------------- */

struct fcr_event;

/* An inode a record changed: the end of the replay goes over each. */
struct touched {
	ext2_ino_t	ino;
	int		was_dir;	/* an in-use directory before */
	int		unlinked;	/* a file whose last name went: evicted
					 * at the end, or by an INODE record of
					 * another generation (fcr_unlinked()) */
};

/* One replay: the filesystem opened on the view, two inode buffers, and
 * what the records leave for the end. */
struct fcr {
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
	/* what the range and INODE records say the files map (fc_verify.c) */
	struct fcr_event *ev;
	size_t		nev, capev;
	unsigned long long applied;
	errcode_t	err;
};

/* Whether the host is big-endian: libext2fs then swaps inodes and
 * directory entries on reading and writing them (fcr_inode_to_disk()). */
static inline int fcr_big_endian_host(void)
{
	const union { uint16_t u; unsigned char b[2]; } one = { .u = 1 };

	return one.b[1];
}

/* An inode buffer as libext2fs's inode (its first 128 bytes). */
static inline struct ext2_inode *fcr_small(unsigned char *buf)
{
	return (struct ext2_inode *)buf;
}

/* ---- inodes (fc_inode.c) ------------------------------------------------- */

/*
 * The full inode (c->isize bytes), read or written.  The buffer holds it as
 * libext2fs gives it, in the host's byte order; the code that reads or
 * edits it byte by byte (the FC_I_ offsets, the in-inode extended
 * attributes) turns it into the on-disk little-endian order first and back
 * after, which on a little-endian host changes nothing.
 */
errcode_t fcr_read_inode(struct fcr *c, ext2_ino_t ino, unsigned char *buf);
errcode_t fcr_write_inode(struct fcr *c, ext2_ino_t ino, unsigned char *buf);
void fcr_inode_to_disk(const struct fcr *c, unsigned char *buf);
void fcr_inode_to_host(const struct fcr *c, unsigned char *buf);
/* What the kernel's ext4_iget() accepts during a replay: an inode in use. */
int fcr_in_use(const unsigned char *buf);
/* ino noted as touched (its state before the first time kept). */
errcode_t fcr_touch(struct fcr *c, ext2_ino_t ino);
/* The INODE, ADD_RANGE and DEL_RANGE records. */
errcode_t fcr_replay_inode(struct fcr *c, const struct fc_tag *t);
errcode_t fcr_replay_range(struct fcr *c, const struct fc_tag *t);
/* The inode in c->ibuf, whose last link went, released as the kernel
 * evicts it. */
errcode_t fcr_evict(struct fcr *c, ext2_ino_t ino);
/* The file in c->ibuf lost its last name: written with no links, and its
 * eviction left for later (fcr_evict_unlinked()); an INODE record of the
 * same generation before then brings it back whole. */
errcode_t fcr_unlinked(struct fcr *c, ext2_ino_t ino);
/* The files fcr_unlinked() left that nothing brought back, evicted. */
errcode_t fcr_evict_unlinked(struct fcr *c);

/* ---- extent trees and their blocks (fc_extent.c) ----------------------- */

/* ADD_RANGE's regions: noted from the area (an fc_tag_fn), then sorted
 * and merged; kept out of the allocator's way (fcr_alloc_stats as
 * libext2fs's callback) and out of the bitmap's releases (fcr_release). */
int fcr_note_region(void *data, const struct fc_tag *t, int valid);
void fcr_merge_regions(struct fcr *c);
void fcr_alloc_stats(ext2_filsys fs, blk64_t blk, int inuse);
void fcr_release(struct fcr *c, blk64_t blk, blk64_t n);
/* Blocks released at the end of the replay. */
errcode_t fcr_note_freed(struct fcr *c, blk64_t blk, blk64_t n);
/* The inode in buf is an extent inode with a tree's root; a fresh root. */
int fcr_has_extent_root(const unsigned char *buf);
void fcr_empty_root(unsigned char *buf);
/* The blocks an extent inode maps marked (mark), or noted freed; counted. */
errcode_t fcr_walk_blocks(struct fcr *c, ext2_ino_t ino, unsigned char *buf,
			  int mark, blk64_t *count);
/* i_blocks of the inode in buf made what its tree maps. */
errcode_t fcr_recount(struct fcr *c, ext2_ino_t ino, unsigned char *buf);
/* The tree of a touched inode as the kernel's extent code leaves it. */
errcode_t fcr_compact_tree(struct fcr *c, ext2_ino_t ino);

/* ---- directories (fc_dir.c) ---------------------------------------------- */

/* The CREAT, LINK and UNLINK records. */
errcode_t fcr_replay_create(struct fcr *c, const struct fc_tag *t);
errcode_t fcr_replay_link(struct fcr *c, const struct fc_tag *t);
errcode_t fcr_replay_unlink(struct fcr *c, const struct fc_tag *t);

/* ---- the replay checked against the log (fc_verify.c) ------------------- */

/* A record noted for fcr_verify() as it is applied. */
errcode_t fcr_expect(struct fcr *c, const struct fc_tag *t);
/* After the replay: every file in use maps what the last record about each
 * of its blocks says, or RECOVER_ET_FC_LOST. */
errcode_t fcr_verify(struct fcr *c);
void fcr_expect_free(struct fcr *c);

/* ---- indexed directories (fc_htree.c) ------------------------------------ */

/* dir, one block with no room for a new name, made an indexed directory as
 * the kernel makes it, if the filesystem has dir_index and dir is not
 * indexed or inline already; *done says it was. */
errcode_t fcr_index_dir(struct fcr *c, ext2_ino_t dir, int *done);

#endif /* FC_REPLAY_H */
