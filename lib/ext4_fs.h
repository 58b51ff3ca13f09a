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
 * feature bits stay as they are).  The decoders and encoders of
 * ext4_super.c (ext4_super.h) work on a buffer of ES_SIZE bytes and do no
 * I/O.
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

#endif /* EXT4_FS_H */
