/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_metabg.h -- the meta_bg descriptor copies the end of a replay brings
 * up to date, as e2fsck's close after its replay does (life_metabg.c).
 */
#ifndef LIFE_METABG_H
#define LIFE_METABG_H

#include <ext2fs/ext2fs.h>

struct recover_struct;

/*
 * On meta_bg, each metagroup's descriptor block written over its copies in
 * the metagroup's second and last groups (dry: only counted), in the
 * layout the superblock on disk gives; counted in r's desc_copies,
 * desc_written, write_blocks and write_bytes.  Nothing on a layout e2fsck could not open.
 */
errcode_t life_metabg_write_copies(struct recover_struct *r, int dry);

#endif /* LIFE_METABG_H */
