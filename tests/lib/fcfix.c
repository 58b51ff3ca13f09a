/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcfix.c -- the fast-commit tests' filesystem (fcfix.h), made once in
 * the memio image.
 */
#include "config.h"

#include <string.h>

#include "fcfix.h"
#include "memio.h"

errcode_t fcfix_add_file(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int blocks, ext2_ino_t *ret)
{
	struct ext2_inode inode;
	ext2_extent_handle_t h;
	ext2_ino_t ino;
	blk64_t pblk;
	unsigned int i;
	errcode_t err;

	err = ext2fs_new_inode(fs, dir, LINUX_S_IFREG | 0644, NULL, &ino);
	if (err)
		return err;
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = LINUX_S_IFREG | 0644;
	inode.i_links_count = 1;
	inode.i_size = blocks * FCFIX_BS;
	inode.i_flags = EXT4_EXTENTS_FL;
	err = ext2fs_write_new_inode(fs, ino, &inode);
	if (!err)
		err = ext2fs_read_inode(fs, ino, &inode);
	/* An empty extent tree's root in i_block. */
	if (!err && !(err = ext2fs_extent_open2(fs, ino, &inode, &h)))
		ext2fs_extent_free(h);
	for (i = 0; !err && i < blocks; i++) {
		pblk = 0;
		err = ext2fs_bmap2(fs, ino, &inode, NULL, BMAP_ALLOC, i, NULL,
				   &pblk);
	}
	if (!err)
		err = ext2fs_write_inode(fs, ino, &inode);
	if (!err)
		ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	if (!err)
		err = ext2fs_link(fs, dir, name, ino, EXT2_FT_REG_FILE);
	if (ret)
		*ret = ino;
	return err;
}

errcode_t fcfix_build(unsigned char uuid0, unsigned char uuid_step,
		      int with_c, struct fcfix_files *files)
{
	struct ext2fs_journal_params jp = {
		.num_journal_blocks = FCFIX_JBLOCKS - FCFIX_FC_BLOCKS,
		.num_fc_blocks = FCFIX_FC_BLOCKS,
	};
	struct fcfix_files f;
	ext2_filsys fs;
	errcode_t err;

	memset(&f, 0, sizeof(f));
	err = memio_mkfs(256, EXT4_FEATURE_COMPAT_FAST_COMMIT, &jp, uuid0,
			 uuid_step, &fs);
	if (err)
		return err;
	/* Inodes 11 (the directory "d"), 12, 13 (and 14): something to work
	 * on (no lost+found: "d" takes the first inode after the reserved). */
	err = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, "d");
	if (!err)
		err = ext2fs_lookup(fs, EXT2_ROOT_INO, "d", 1, NULL, &f.dir);
	if (!err)
		err = fcfix_add_file(fs, f.dir, "a", 3, &f.a);
	if (!err)
		err = fcfix_add_file(fs, f.dir, "b", 12, &f.b);
	if (!err && with_c)
		err = fcfix_add_file(fs, EXT2_ROOT_INO, "c", 1, &f.c);
	if (!err)
		err = memio_map_journal(fs, FCFIX_JBLOCKS);
	if (files)
		*files = f;
	return memio_close_fs(fs, err);
}
