/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ext4_super.c -- decoding and encoding the few ext4 superblock fields
 * librecover handles itself (ext4_fs.h): the checksum, the block size and
 * block count of a journal device, the layout of the group descriptors as
 * a replay leaves it, and what the end of a replay writes.
 */
#include "config.h"

#include <stddef.h>

#include <ext2fs/ext2fs.h>

#include "crc32c.h"
#include "ext4_fs.h"
#include "ext4_super.h"

/* ext4_fs.h's offsets, against libext2fs's own struct. */
#define ES_FIELD(off, field) \
	static_assert((off) == offsetof(struct ext2_super_block, field), #field)
ES_FIELD(ES_INODES_COUNT, s_inodes_count);
ES_FIELD(ES_BLOCKS_COUNT, s_blocks_count);
ES_FIELD(ES_FIRST_DATA_BLOCK, s_first_data_block);
ES_FIELD(ES_LOG_BLOCK_SIZE, s_log_block_size);
ES_FIELD(ES_BLOCKS_PER_GROUP, s_blocks_per_group);
ES_FIELD(ES_INODES_PER_GROUP, s_inodes_per_group);
ES_FIELD(ES_WTIME, s_wtime);
ES_FIELD(ES_MAGIC, s_magic);
ES_FIELD(ES_STATE, s_state);
ES_FIELD(ES_FEATURE_COMPAT, s_feature_compat);
ES_FIELD(ES_FEATURE_INCOMPAT, s_feature_incompat);
ES_FIELD(ES_FEATURE_RO_COMPAT, s_feature_ro_compat);
ES_FIELD(ES_UUID, s_uuid);
ES_FIELD(ES_DESC_SIZE, s_desc_size);
ES_FIELD(ES_FIRST_META_BG, s_first_meta_bg);
ES_FIELD(ES_BLOCKS_COUNT_HI, s_blocks_count_hi);
ES_FIELD(ES_KBYTES_WRITTEN, s_kbytes_written);
ES_FIELD(ES_BACKUP_BGS, s_backup_bgs);
ES_FIELD(ES_WTIME_HI, s_wtime_hi);
ES_FIELD(ES_CHECKSUM, s_checksum);
static_assert(ES_SIZE == sizeof(struct ext2_super_block), "ext4 superblock");

static int has_csum(const unsigned char *es)
{
	return !!(get_le32(es + ES_FEATURE_RO_COMPAT) &
		  EXT4_FEATURE_RO_COMPAT_METADATA_CSUM);
}

/* s_checksum as it should be: crc32c (seed ~0) of the bytes before it. */
static uint32_t ext4_super_csum(const unsigned char *es)
{
	return crc32c_update(~0U, es, ES_CHECKSUM);
}

int ext4_super_csum_ok(const unsigned char *es)
{
	return !has_csum(es) ||
	       get_le32(es + ES_CHECKSUM) == ext4_super_csum(es);
}

void ext4_super_set_csum(unsigned char *es)
{
	put_le32(es + ES_CHECKSUM, ext4_super_csum(es));
}

unsigned int ext4_super_block_size(const unsigned char *es)
{
	uint32_t log_bs = get_le32(es + ES_LOG_BLOCK_SIZE);

	/* 1 KiB << log_bs, as far as libext2fs goes (64 KiB). */
	if (log_bs > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE)
		return 0;
	return (unsigned int)EXT2_MIN_BLOCK_SIZE << log_bs;
}

uint64_t ext4_super_blocks_count(const unsigned char *es)
{
	uint64_t n = get_le32(es + ES_BLOCKS_COUNT);

	if (get_le32(es + ES_FEATURE_INCOMPAT) & EXT4_FEATURE_INCOMPAT_64BIT)
		n |= (uint64_t)get_le32(es + ES_BLOCKS_COUNT_HI) << 32;
	return n;
}

int ext4_super_decode_layout(const unsigned char *es,
			     struct ext2_super_block *sb)
{
	if (get_le16(es + ES_MAGIC) != EXT2_SUPER_MAGIC ||
	    get_le32(es + ES_LOG_BLOCK_SIZE) != sb->s_log_block_size)
		return 0;
	sb->s_inodes_count = get_le32(es + ES_INODES_COUNT);
	sb->s_blocks_count = get_le32(es + ES_BLOCKS_COUNT);
	sb->s_first_data_block = get_le32(es + ES_FIRST_DATA_BLOCK);
	sb->s_blocks_per_group = get_le32(es + ES_BLOCKS_PER_GROUP);
	sb->s_inodes_per_group = get_le32(es + ES_INODES_PER_GROUP);
	sb->s_feature_compat = get_le32(es + ES_FEATURE_COMPAT);
	sb->s_feature_incompat = get_le32(es + ES_FEATURE_INCOMPAT);
	sb->s_feature_ro_compat = get_le32(es + ES_FEATURE_RO_COMPAT);
	sb->s_desc_size = get_le16(es + ES_DESC_SIZE);
	sb->s_first_meta_bg = get_le32(es + ES_FIRST_META_BG);
	sb->s_blocks_count_hi = get_le32(es + ES_BLOCKS_COUNT_HI);
	sb->s_backup_bgs[0] = get_le32(es + ES_BACKUP_BGS);
	sb->s_backup_bgs[1] = get_le32(es + ES_BACKUP_BGS + 4);
	return 1;
}

/*
 * s_wtime is 32 bits, extended by the byte s_wtime_hi; s_kbytes_written
 * grows by what this run wrote.  The checksum is recomputed last, over
 * everything else, and only when the filesystem has one.
 */
void ext4_super_update(unsigned char *es, const struct ext4_super_update *u)
{
	uint32_t incompat = get_le32(es + ES_FEATURE_INCOMPAT);
	uint16_t state = get_le16(es + ES_STATE);

	if (u->recovered)
		put_le32(es + ES_FEATURE_INCOMPAT,
			 incompat & ~EXT3_FEATURE_INCOMPAT_RECOVER);
	if (u->failed)
		state &= ~EXT2_VALID_FS;
	if (u->fs_error)
		state |= EXT2_ERROR_FS;
	put_le16(es + ES_STATE, state);
	put_le32(es + ES_WTIME, (uint32_t)u->wtime);
	es[ES_WTIME_HI] = (unsigned char)((uint64_t)u->wtime >> 32);
	put_le64(es + ES_KBYTES_WRITTEN, get_le64(es + ES_KBYTES_WRITTEN) +
		 u->kbytes_written);
	if (has_csum(es))
		ext4_super_set_csum(es);
}
