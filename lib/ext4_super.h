/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ext4_super.h -- the ext4 superblock's fields decoded and encoded from its
 * bytes (ext4_super.c), on a buffer of ES_SIZE bytes (ext4_fs.h), with no
 * I/O.
 */
#ifndef EXT4_SUPER_H
#define EXT4_SUPER_H

#include <stdint.h>
#include <time.h>

#include "ext4_fs.h"

struct ext2_super_block;

/* Does s_checksum hold?  Always without metadata_csum, which has none. */
int ext4_super_csum_ok(const unsigned char *es);
/* Store s_checksum as it should be: crc32c (seed ~0) of the bytes before
 * it. */
void ext4_super_set_csum(unsigned char *es);

/* The block size s_log_block_size says, or 0 when it is out of range. */
unsigned int ext4_super_block_size(const unsigned char *es);
/* s_blocks_count, with its high half when the 64bit feature is set. */
uint64_t ext4_super_blocks_count(const unsigned char *es);

/*
 * The fields that place the group descriptors (counts, group sizes,
 * features, descriptor size, s_first_meta_bg, the sparse_super2 backups),
 * from es into sb, whose other fields are left as they were.  Returns 0,
 * with sb untouched, when es is no superblock (magic) or one of another
 * block size than sb's.
 */
int ext4_super_decode_layout(const unsigned char *es,
			     struct ext2_super_block *sb);

/* What the end of a replay changes in the filesystem's superblock. */
struct ext4_super_update {
	int		recovered;	/* needs_recovery is cleared */
	int		failed;		/* not clean: EXT2_VALID_FS cleared */
	int		fs_error;	/* errors: EXT2_ERROR_FS set */
	time_t		wtime;		/* s_wtime and s_wtime_hi */
	uint64_t	kbytes_written;	/* added to s_kbytes_written */
};

/* Apply u to es; with metadata_csum, the checksum follows. */
void ext4_super_update(unsigned char *es, const struct ext4_super_update *u);

#endif /* EXT4_SUPER_H */
