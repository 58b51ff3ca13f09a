/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feature.c -- the names of the journal superblock's feature bits and of
 * the ext4 superblock's, so that every program prints the same words for
 * them (recover_feature_name()); and which ext4 features the installed
 * libext2fs does not know a replay of full commits can still go through
 * (feature_judge()).
 *
 * The names are e2fsprogs's (dumpe2fs's "Journal features:"), with one
 * addition: e2fsprogs 1.47 has no name for the fast-commit bit and prints
 * it as FEATURE_I5; here it is journal_fast_commit, after the ext4 feature.
 */
#include "config.h"

#include <stddef.h>

#include "jbd2_fs.h"
#include "ext4_fs.h"
#include "feature.h"

struct feature_name {
	enum recover_feature_type type;
	unsigned int	mask;
	const char	*name;
};

static const struct feature_name names[] = {
	{ RECOVER_FEATURE_COMPAT, JBD2_FEATURE_COMPAT_CHECKSUM,
	  "journal_checksum" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_REVOKE,
	  "journal_incompat_revoke" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_64BIT,
	  "journal_64bit" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT,
	  "journal_async_commit" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_CSUM_V2,
	  "journal_checksum_v2" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_CSUM_V3,
	  "journal_checksum_v3" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_FAST_COMMIT,
	  "journal_fast_commit" },
	/* The ext4 superblock's, as libe2p names them. */
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0001, "compression" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0002, "filetype" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0004, "needs_recovery" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0008, "journal_dev" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0010, "meta_bg" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0040, "extent" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0080, "64bit" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0100, "mmp" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0200, "flex_bg" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x0400, "ea_inode" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x1000, "dirdata" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x2000, "metadata_csum_seed" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x4000, "large_dir" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x8000, "inline_data" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x10000, "encrypt" },
	{ RECOVER_FEATURE_FS_INCOMPAT, 0x20000, "casefold" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0001, "sparse_super" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0002, "large_file" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0008, "huge_file" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0010, "uninit_bg" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0020, "dir_nlink" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0040, "extra_isize" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0100, "quota" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0200, "bigalloc" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0400, "metadata_csum" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x0800, "replica" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x1000, "read-only" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x2000, "project" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x4000, "shared_blocks" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x8000, "verity" },
	{ RECOVER_FEATURE_FS_RO_COMPAT, 0x10000, "orphan_present" },
};

const char *recover_feature_name(enum recover_feature_type type,
				 unsigned int mask)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type && names[i].mask == mask)
			return names[i].name;
	return NULL;
}

/*
 * Unknown to libext2fs, yet no obstacle to writing logged blocks where
 * their tags say: each changes only what a directory entry holds (dirdata:
 * Lustre's file identifiers after the name), how deep a directory's index
 * goes (large_dir) or where an extended attribute's value is kept
 * (ea_inode).  None moves the journal, renumbers blocks or changes the
 * group layout, and a replay of full commits reads no directory and no
 * extended attribute.
 */
#define TOLERATED_INCOMPAT	(0x1000U /* dirdata */ | \
				 0x4000U /* large_dir */ | \
				 0x0400U /* ea_inode */)

errcode_t feature_judge(struct recover_fs_features *f, uint32_t incompat,
			uint32_t ro_compat, uint32_t supp_incompat,
			uint32_t supp_ro_compat, int rw)
{
	f->size = sizeof(*f);
	f->incompat = incompat & ~supp_incompat;
	f->ro_compat = ro_compat & ~supp_ro_compat;
	f->tolerated = f->incompat & TOLERATED_INCOMPAT;
	if (f->incompat & ~TOLERATED_INCOMPAT)
		return EXT2_ET_UNSUPP_FEATURE;
	/* As ext2fs_open() judges them: they only forbid writing. */
	if (rw && f->ro_compat)
		return EXT2_ET_RO_UNSUPP_FEATURE;
	return 0;
}
