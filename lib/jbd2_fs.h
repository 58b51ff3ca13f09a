/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jbd2_fs.h -- the jbd2 on-disk format, as librecover reads it.
 *
 * libext2fs-dev does not install a jbd2 header, so the format is described
 * here: offsets, constants and byte-order helpers only.  Every multi-byte
 * field of the journal is big-endian; fields are decoded one by one from the
 * byte buffer, never by overlaying a struct.
 */
#ifndef JBD2_FS_H
#define JBD2_FS_H

#include <stdint.h>
#include <string.h>

#define JBD2_MAGIC			0xC03B3998U

/* h_blocktype */
#define JBD2_DESCRIPTOR_BLOCK		1
#define JBD2_COMMIT_BLOCK		2
#define JBD2_SUPERBLOCK_V1		3
#define JBD2_SUPERBLOCK_V2		4
#define JBD2_REVOKE_BLOCK		5
#define JBD2_FC_BLOCK			6

/* Common block header: magic, type, sequence (tid). */
#define JBD2_HDR_MAGIC			0
#define JBD2_HDR_BLOCKTYPE		4
#define JBD2_HDR_SEQUENCE		8
#define JBD2_HDR_SIZE			12

/* Journal superblock (only the first 1024 bytes are defined). */
#define JSB_BLOCKSIZE			12
#define JSB_MAXLEN			16
#define JSB_FIRST			20
#define JSB_SEQUENCE			24
#define JSB_START			28
#define JSB_ERRNO			32
#define JSB_FEATURE_COMPAT		36
#define JSB_FEATURE_INCOMPAT		40
#define JSB_FEATURE_RO_COMPAT		44
#define JSB_UUID			48
#define JSB_NR_USERS			64
#define JSB_CHECKSUM_TYPE		80
#define JSB_NUM_FC_BLKS			84
#define JSB_CHECKSUM			252
#define JSB_USERS			256
#define JBD2_USERS_MAX			48	/* UUIDs s_users holds */
#define JSB_SIZE			1024

#define JBD2_FEATURE_COMPAT_CHECKSUM	0x00000001U

#define JBD2_FEATURE_INCOMPAT_REVOKE	0x00000001U
#define JBD2_FEATURE_INCOMPAT_64BIT	0x00000002U
#define JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT 0x00000004U
#define JBD2_FEATURE_INCOMPAT_CSUM_V2	0x00000008U
#define JBD2_FEATURE_INCOMPAT_CSUM_V3	0x00000010U
#define JBD2_FEATURE_INCOMPAT_FAST_COMMIT 0x00000020U
#define JBD2_KNOWN_INCOMPAT		0x0000003FU
#define JBD2_KNOWN_ROCOMPAT		0x00000000U

#define JBD2_CRC32C_CHKSUM		4	/* s_checksum_type */
#define JBD2_DEFAULT_FC_BLKS		256	/* when s_num_fc_blks is 0 */
#define JBD2_MIN_LOG_BLOCKS		1024	/* smallest log e2fsck accepts */

/* Descriptor block tags. */
#define JBD2_FLAG_ESCAPE		0x1
#define JBD2_FLAG_SAME_UUID		0x2
#define JBD2_FLAG_DELETED		0x4
#define JBD2_FLAG_LAST_TAG		0x8

#define TAG_BLOCKNR			0
#define TAG_CSUM16			4	/* csum v2: low 16 bits */
#define TAG_FLAGS16			6	/* be16 in every tag format */
#define TAG_BLOCKNR_HIGH		8
#define TAG3_CHECKSUM			12	/* csum v3: 32 bits */
#define TAG_UUID_SIZE			16

/* Checksum tail of descriptor and revoke blocks (csum v2/v3). */
#define JBD2_TAIL_SIZE			4

/* Revoke block: header, r_count (bytes used, header included), records. */
#define REVOKE_COUNT			12
#define REVOKE_HDR_SIZE			16

/* Commit block. */
#define COMMIT_CHKSUM_TYPE		12
#define COMMIT_CHKSUM_SIZE		13
#define COMMIT_CHKSUM			16
#define COMMIT_SEC			48
#define COMMIT_NSEC			56
#define JBD2_CRC32_CHKSUM		1	/* COMPAT_CHECKSUM commit */
#define JBD2_CRC32_CHKSUM_SIZE		4

static inline uint16_t get_be16(const unsigned char *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t get_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static inline uint64_t get_be64(const unsigned char *p)
{
	return ((uint64_t)get_be32(p) << 32) | get_be32(p + 4);
}

/*
 * The records of one revoke block.  r_count is the bytes used, the 16-byte
 * header included; records are 8 bytes with INCOMPAT_64BIT, else 4, and a
 * record that does not fit whole before r_count is not one.  Started by
 * jbd2_revoke_begin() (jbd2.c), which checks r_count against the block.
 */
struct jbd2_revoke_iter {
	const unsigned char *blk;
	unsigned int	off;		/* the next record */
	unsigned int	end;		/* r_count, checked */
	unsigned int	rec;		/* bytes a record: 4 or 8 */
};

static inline unsigned int jbd2_revoke_count(const struct jbd2_revoke_iter *it)
{
	return it->end > REVOKE_HDR_SIZE ?
	       (it->end - REVOKE_HDR_SIZE) / it->rec : 0;
}

/* The next record's block number: returns 1, or 0 after the last one. */
static inline int jbd2_revoke_next(struct jbd2_revoke_iter *it,
				   uint64_t *blocknr)
{
	const unsigned char *p = it->blk + it->off;

	if (it->off + it->rec > it->end)
		return 0;
	*blocknr = it->rec == 8 ? get_be64(p) : get_be32(p);
	it->off += it->rec;
	return 1;
}

static inline void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* The ext4 superblock is little-endian; librecover touches a few fields. */
static inline uint16_t get_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t get_le32(const unsigned char *p)
{
	return p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline uint64_t get_le64(const unsigned char *p)
{
	return get_le32(p) | ((uint64_t)get_le32(p + 4) << 32);
}

static inline void put_le16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void put_le32(unsigned char *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void put_le64(unsigned char *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/*
 * Transaction ids wrap at 2^32; the kernel and e2fsck order them by the sign
 * of the 32-bit difference, and so does everything here.
 */
static inline int tid_gt(uint32_t x, uint32_t y)
{
	return (int32_t)(x - y) > 0;
}

static inline int tid_geq(uint32_t x, uint32_t y)
{
	return (int32_t)(x - y) >= 0;
}

#endif /* JBD2_FS_H */
