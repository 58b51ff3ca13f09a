/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcfix.h -- the filesystem the fast-commit tests replay records on
 * (tests/unit/fc_replay_test.c, tests/fuzz/fuzz_fc.c): an ext4 image in
 * memory (memio.h) with a fast-commit area, a directory "d" holding "a" (3
 * blocks) and "b" (12), and, for the fuzz target, "c" (1 block) in the
 * root.  Built once by each program (memio_setup()); the UUID seeds keep
 * each program's image what it was.
 */
#ifndef FCFIX_H
#define FCFIX_H

#include <ext2fs/ext2fs.h>

#define FCFIX_BYTES	(4U << 20)	/* the image */
#define FCFIX_BS	1024U		/* its block size */
#define FCFIX_JBLOCKS	1040U		/* the journal, fast-commit area too */
#define FCFIX_FC_BLOCKS	16U		/* the fast-commit area */

/* The inodes of the files the fixture makes. */
struct fcfix_files {
	ext2_ino_t	dir, a, b, c;	/* c: 0 unless asked for */
};

/*
 * A regular extent file of blocks blocks (allocated, not written) linked
 * as name in dir; *ret (if not NULL) its inode.
 */
errcode_t fcfix_add_file(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int blocks, ext2_ino_t *ret);
/*
 * The image made in the memio image (memio_create() first), the
 * filesystem's UUID from uuid0 and uuid_step (memio_mkfs()), "c" made
 * when with_c; its files' inodes into *files (if not NULL).  For
 * memio_setup()'s build.
 */
errcode_t fcfix_build(unsigned char uuid0, unsigned char uuid_step,
		      int with_c, struct fcfix_files *files);

#endif /* FCFIX_H */
