/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ext4_fs.h -- the ext4 superblock, as much of its on-disk format as
 * librecover reads and writes itself rather than through libext2fs.
 *
 * The superblock lives at byte 1024 of the filesystem (and of an external
 * journal device, whose ext2 superblock says whose journal it is).  It is
 * little-endian; its fields are decoded one by one from the bytes (the
 * byte-order helpers are jbd2_fs.h's), never by overlaying libext2fs's
 * struct, which is only used to check the offsets (ext4_super.c).  Two
 * callers need the raw bytes: the checks of a journal device, and the end
 * of a replay, which rewrites the filesystem's superblock from the block
 * on disk (a logged copy may have replaced libext2fs's, and unknown
 * feature bits stay as they are).  The decoders and encoders in
 * ext4_super.c work on a buffer of ES_SIZE bytes and do no I/O.
 *
 * Nothing here needs libext2fs's headers: outpath.c, compiled into
 * jrecover too, reads the magic with ES_MAGIC.
 */
#ifndef EXT4_FS_H
#define EXT4_FS_H

#include <assert.h>
#include <stdint.h>
#include <time.h>

#include "librecover.h"
#include "jbd2_fs.h"

/* Fields of the ext4 superblock, byte offsets. */
#define ES_INODES_COUNT			0x000
#define ES_BLOCKS_COUNT			0x004	/* s_blocks_count_lo */
#define ES_FIRST_DATA_BLOCK		0x014
#define ES_LOG_BLOCK_SIZE		0x018
#define ES_BLOCKS_PER_GROUP		0x020
#define ES_INODES_PER_GROUP		0x028
#define ES_WTIME			0x030
#define ES_MAGIC			0x038	/* le16 */
#define ES_STATE			0x03A	/* le16 */
#define ES_FEATURE_COMPAT		0x05C
#define ES_FEATURE_INCOMPAT		0x060
#define ES_FEATURE_RO_COMPAT		0x064
#define ES_UUID				0x068	/* 16 bytes */
#define ES_DESC_SIZE			0x0FE	/* le16 */
#define ES_FIRST_META_BG		0x104
#define ES_BLOCKS_COUNT_HI		0x150	/* with the 64bit feature */
#define ES_KBYTES_WRITTEN		0x178	/* le64 */
#define ES_BACKUP_BGS			0x24C	/* two le32: sparse_super2 */
#define ES_WTIME_HI			0x274	/* one byte */
#define ES_CHECKSUM			0x3FC	/* crc32c of the bytes before */
#define ES_SIZE				1024

static_assert(ES_CHECKSUM + 4 == ES_SIZE, "s_checksum ends the superblock");

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

/* Feature bits libext2fs does not know (features.c). */
/*
 * The filesystem's incompat and ro_compat bits outside what the library
 * in use supports (supp_*), into f, and whether the open may go on:
 * EXT2_ET_UNSUPP_FEATURE for an unknown incompat bit a replay of full
 * commits cannot ignore, EXT2_ET_RO_UNSUPP_FEATURE for an unknown ro_compat
 * bit when rw, else 0 (f->tolerated then lists what is ignored).
 */
errcode_t features_judge(struct recover_fs_features *f, uint32_t incompat,
			 uint32_t ro_compat, uint32_t supp_incompat,
			 uint32_t supp_ro_compat, int rw);

#endif /* EXT4_FS_H */
