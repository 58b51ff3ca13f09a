/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jbd2_fs.h -- the jbd2 on-disk format, as librecover reads and writes it.
 *
 * libext2fs-dev does not install a jbd2 header, so the format is described
 * here: offsets, constants, byte-order helpers, and the decoders that need
 * nothing but a block's bytes (the ones that need the decoded journal
 * superblock are in jbd2.c).  Every multi-byte field of the journal is
 * big-endian; fields are decoded one by one from the byte buffer, never by
 * overlaying a struct.  ext4's own structures are little-endian: their
 * byte-order helpers are here too, the superblock fields librecover touches
 * itself in ext4_fs.h, the fast-commit area in fc_fs.h.
 */
#ifndef JBD2_FS_H
#define JBD2_FS_H

#include <assert.h>
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
/* A v1 superblock ends at s_errno; e2fsck zeroes anything after it. */
#define JSB_V1_SIZE			36
/* s_errno after a corrupt commit block: Linux's -EINVAL, whatever the host. */
#define JSB_ERRNO_EINVAL		((uint32_t)-22)

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
/* Tag sizes (see jbd2.c): a v3 tag; otherwise the kernel's count, 8 bytes
 * plus the high block number with 64-bit, plus 2 more with checksums v2. */
#define TAG3_SIZE			16
#define TAG_SIZE			8
#define TAG_64BIT_EXTRA			4
#define TAG_CSUM_V2_EXTRA		2

/* Checksum tail of descriptor and revoke blocks (csum v2/v3). */
#define JBD2_TAIL_SIZE			4

/* Revoke block: header, r_count (bytes used, header included), records. */
#define REVOKE_COUNT			12
#define REVOKE_HDR_SIZE			16
#define REVOKE_REC_SIZE			4	/* a be32 block number */
#define REVOKE_REC64_SIZE		8	/* with the 64-bit feature */

/* Commit block. */
#define COMMIT_CHKSUM_TYPE		12
#define COMMIT_CHKSUM_SIZE		13
#define COMMIT_CHKSUM			16
#define COMMIT_SEC			48
#define COMMIT_NSEC			56
#define COMMIT_SIZE			60	/* the bytes with meaning */
#define JBD2_CHECKSUM_BYTES		32	/* h_chksum[], 8 words */
#define JBD2_CRC32_CHKSUM		1	/* COMPAT_CHECKSUM commit */
#define JBD2_CRC32_CHKSUM_SIZE		4

/* ---- layout checks ---- */
static_assert(JBD2_HDR_SEQUENCE + 4 == JBD2_HDR_SIZE,
	      "the block header is magic, type and sequence");
static_assert(JSB_BLOCKSIZE == JBD2_HDR_SIZE,
	      "the superblock's fields follow the header");
static_assert(JSB_ERRNO + 4 == JSB_V1_SIZE, "a v1 superblock ends at s_errno");
static_assert(JSB_V1_SIZE == JSB_FEATURE_COMPAT,
	      "v2 features follow the v1 fields");
static_assert(JSB_UUID + 16 == JSB_NR_USERS, "s_nr_users follows s_uuid");
static_assert(JSB_CHECKSUM + 4 == JSB_USERS, "s_users follows s_checksum");
static_assert(JSB_USERS + JBD2_USERS_MAX * 16 == JSB_SIZE,
	      "s_users fills the superblock's 1024 bytes");
static_assert(TAG_FLAGS16 + 2 == TAG_BLOCKNR_HIGH,
	      "the high block number follows the flags");
static_assert(TAG3_CHECKSUM + 4 == TAG3_SIZE, "a v3 tag is 16 bytes");
static_assert(TAG_BLOCKNR_HIGH == TAG_SIZE &&
	      TAG_SIZE + TAG_64BIT_EXTRA == TAG3_CHECKSUM,
	      "the high block number follows the 8 bytes of a short tag");
static_assert(REVOKE_COUNT + 4 == REVOKE_HDR_SIZE,
	      "revoke records follow r_count");
static_assert(COMMIT_CHKSUM_SIZE + 1 + 2 == COMMIT_CHKSUM,
	      "type and size bytes, two bytes of padding, then the checksum");
static_assert(COMMIT_CHKSUM + JBD2_CHECKSUM_BYTES == COMMIT_SEC,
	      "the commit time follows h_chksum[]");
static_assert(COMMIT_NSEC + 4 == COMMIT_SIZE, "h_commit_nsec is the last field");

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
	*blocknr = it->rec == REVOKE_REC64_SIZE ? get_be64(p) : get_be32(p);
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

/* ext4's structures (ext4_fs.h, fc_fs.h) are little-endian. */
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
 * The version of the journal superblock in buf (1 or 2), or 0 when buf does
 * not start with one.
 */
static inline int jbd2_super_version(const unsigned char *buf)
{
	if (get_be32(buf + JBD2_HDR_MAGIC) != JBD2_MAGIC)
		return 0;
	switch (get_be32(buf + JBD2_HDR_BLOCKTYPE)) {
	case JBD2_SUPERBLOCK_V1:
		return 1;
	case JBD2_SUPERBLOCK_V2:
		return 2;
	}
	return 0;
}

/* A commit block, decoded field by field. */
struct jbd2_commit {
	uint32_t	tid;		/* h_sequence */
	unsigned int	csum_type;	/* h_chksum_type */
	unsigned int	csum_size;	/* h_chksum_size */
	uint32_t	csum;		/* h_chksum[0] */
	uint64_t	sec;		/* h_commit_sec */
	uint32_t	nsec;		/* h_commit_nsec */
};

static inline void jbd2_decode_commit(const unsigned char *blk,
				      struct jbd2_commit *c)
{
	c->tid = get_be32(blk + JBD2_HDR_SEQUENCE);
	c->csum_type = blk[COMMIT_CHKSUM_TYPE];
	c->csum_size = blk[COMMIT_CHKSUM_SIZE];
	c->csum = get_be32(blk + COMMIT_CHKSUM);
	c->sec = get_be64(blk + COMMIT_SEC);
	c->nsec = get_be32(blk + COMMIT_NSEC);
}

/*
 * A logged copy with JBD2_FLAG_ESCAPE began with the journal magic, which
 * the log stores as zeros: put it back.
 */
static inline void jbd2_unescape(unsigned char *blk)
{
	put_be32(blk, JBD2_MAGIC);
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
