/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_state.c -- the full inodes of one fast-commit replay, read, written
 * and turned between the host's byte order and the disk's through its
 * state, and the inodes it touches noted with what they were before.
 */
#include "config.h"

#include "fc_state.h"

errcode_t fc_state_read_inode(struct fc_state *c, ext2_ino_t ino,
			      unsigned char *buf)
{
	return ext2fs_read_inode_full(c->fs, ino, (struct ext2_inode *)buf,
				      c->isize);
}

errcode_t fc_state_write_inode(struct fc_state *c, ext2_ino_t ino,
			       unsigned char *buf)
{
	return ext2fs_write_inode_full(c->fs, ino, (struct ext2_inode *)buf,
				       c->isize);
}

/* libext2fs's swap (ext2fs_swap_inode_full()) keeps an extent tree's root
 * and inline data in i_block as they are on disk, as the FC_I_ code does. */
void fc_state_inode_to_disk(const struct fc_state *c, unsigned char *buf)
{
	struct ext2_inode_large *i = (struct ext2_inode_large *)buf;

	if (fc_state_big_endian_host())
		ext2fs_swap_inode_full(c->fs, i, i, 1, (int)c->isize);
}

void fc_state_inode_to_host(const struct fc_state *c, unsigned char *buf)
{
	struct ext2_inode_large *i = (struct ext2_inode_large *)buf;

	if (fc_state_big_endian_host())
		ext2fs_swap_inode_full(c->fs, i, i, 0, (int)c->isize);
}

/* What the kernel's ext4_iget() accepts during a replay: an inode in use. */
int fc_state_inode_in_use(const unsigned char *buf)
{
	const struct ext2_inode *i = (const struct ext2_inode *)buf;

	return i->i_links_count && i->i_mode;
}

/* ino among the touched inodes, with whether it was a directory in use
 * before the replay (the directory counts change by that at the end). */
errcode_t fc_state_touch(struct fc_state *c, ext2_ino_t ino)
{
	size_t i;
	errcode_t err;

	for (i = 0; i < c->nt; i++)
		if (c->t[i].ino == ino)
			return 0;
	err = array_grow((void **)&c->t, &c->capt, c->nt + 1,
			 sizeof(*c->t));
	if (err)
		return err;
	err = fc_state_read_inode(c, ino, c->ibuf2);
	if (err)
		return err;
	c->t[c->nt].ino = ino;
	c->t[c->nt].unlinked = 0;
	c->t[c->nt].was_dir =
		ext2fs_test_inode_bitmap2(c->fs->inode_map, ino) &&
		fc_state_inode_in_use(c->ibuf2) &&
		LINUX_S_ISDIR(fc_state_small_inode(c->ibuf2)->i_mode);
	c->nt++;
	return 0;
}
