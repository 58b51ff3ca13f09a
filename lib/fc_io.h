/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_io.h -- the io manager through which libext2fs reaches the
 * fast-commit replay's view in memory (fc_io.c).
 */
#ifndef FC_IO_H
#define FC_IO_H

#include <ext2fs/ext2fs.h>

struct fc_overlay;

/* A filesystem opened on the view, with libext2fs's open flags, at the
 * superblock given (0: the primary; else in units of block_size). */
errcode_t fc_io_open(struct fc_overlay *o, int flags, blk64_t superblock,
		     unsigned int block_size, ext2_filsys *ret);

#endif /* FC_IO_H */
