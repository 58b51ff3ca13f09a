/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_mmp.h -- multi-mount protection, the way e2fsck honours it
 * (life_mmp.c).
 */
#ifndef LIFE_MMP_H
#define LIFE_MMP_H

#include <ext2fs/ext2fs.h>

struct recover_struct;

/* Check the MMP block of r->fs (opened with EXT2_FLAG_SKIP_MMP); when it
 * is open read-write, life_mmp_take() is to take it before the first
 * write. */
errcode_t life_mmp_begin(struct recover_struct *r);
/* Take the block as ext2fs_mmp_start() does (waits a stop request ends). */
errcode_t life_mmp_take(struct recover_struct *r);
/* Rewrite the block when an update interval has passed (progress points). */
errcode_t life_mmp_update(struct recover_struct *r);
/* Write "clean" back, if the block is held. */
errcode_t life_mmp_end(struct recover_struct *r);
void life_mmp_publish(struct recover_struct *r);

#endif /* LIFE_MMP_H */
