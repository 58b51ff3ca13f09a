/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feature.h -- the feature bits of the journal and of the ext4
 * superblock, and those the installed libext2fs does not know
 * (feature.c).
 */
#ifndef FEATURE_H
#define FEATURE_H

#include <stdint.h>

#include "librecover.h"

/*
 * The filesystem's incompat and ro_compat bits outside what the library
 * in use supports (supp_*), into f, and whether the open may go on:
 * EXT2_ET_UNSUPP_FEATURE for an unknown incompat bit a replay of full
 * commits cannot ignore, EXT2_ET_RO_UNSUPP_FEATURE for an unknown ro_compat
 * bit when rw, else 0 (f->tolerated then lists what is ignored).
 */
errcode_t feature_judge(struct recover_fs_features *f, uint32_t incompat,
			uint32_t ro_compat, uint32_t supp_incompat,
			uint32_t supp_ro_compat, int rw);

#endif /* FEATURE_H */
