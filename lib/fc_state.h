/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_state.h -- the state of one fast-commit replay, which the files of
 * the replay share (struct fc_state: the filesystem opened on the view,
 * the inode buffers, what the records leave for the end), and the full
 * inodes read, written and noted as touched through it (fc_state.c).
 */
#ifndef FC_STATE_H
#define FC_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "fc.h"
#include "fc_fs.h"

struct fc_verify_event;

/* An inode a record changed: the end of the replay goes over each. */
struct fc_touched {
	ext2_ino_t	ino;
	int		was_dir;	/* an in-use directory before */
	int		unlinked;	/* a file whose last name went: evicted
					 * at the end, or by an INODE record of
					 * another generation
					 * (fc_inode_unlinked()) */
};

/* One replay: the filesystem opened on the view, two inode buffers, and
 * what the records leave for the end. */
struct fc_state {
	ext2_filsys	fs;
	unsigned char	*ibuf, *ibuf2;	/* full on-disk inodes */
	unsigned int	isize;
	struct fc_touched *t;
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
	struct fc_verify_event *ev;
	size_t		nev, capev;
	unsigned long long applied;
	errcode_t	err;
};

/* Whether the host is big-endian: libext2fs then swaps inodes and
 * directory entries on reading and writing them
 * (fc_state_inode_to_disk()). */
static inline int fc_state_big_endian_host(void)
{
	const union { uint16_t u; unsigned char b[2]; } one = { .u = 1 };

	return one.b[1];
}

/* An inode buffer as libext2fs's inode (its first 128 bytes). */
static inline struct ext2_inode *fc_state_small_inode(unsigned char *buf)
{
	return (struct ext2_inode *)buf;
}

/*
 * The full inode (c->isize bytes), read or written.  The buffer holds it as
 * libext2fs gives it, in the host's byte order; the code that reads or
 * edits it byte by byte (the FC_I_ offsets, the in-inode extended
 * attributes) turns it into the on-disk little-endian order first and back
 * after, which on a little-endian host changes nothing.
 */
errcode_t fc_state_read_inode(struct fc_state *c, ext2_ino_t ino,
			      unsigned char *buf);
errcode_t fc_state_write_inode(struct fc_state *c, ext2_ino_t ino,
			       unsigned char *buf);
void fc_state_inode_to_disk(const struct fc_state *c, unsigned char *buf);
void fc_state_inode_to_host(const struct fc_state *c, unsigned char *buf);
/* What the kernel's ext4_iget() accepts during a replay: an inode in use. */
int fc_state_inode_in_use(const unsigned char *buf);
/* ino noted as touched (its state before the first time kept). */
errcode_t fc_state_touch(struct fc_state *c, ext2_ino_t ino);

#endif /* FC_STATE_H */
