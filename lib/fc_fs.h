/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_fs.h -- the ext4 fast-commit on-disk format, as librecover reads it.
 *
 * With the journal's FAST_COMMIT feature the last s_num_fc_blks blocks of
 * the journal are the fast-commit area.  The kernel writes it from journal
 * block (s_maxlen - s_num_fc_blks + 1) on: the block at the normal log's end
 * itself is never used.  Unlike the rest of the journal, the area is ext4's
 * format and little-endian: a stream of tag-length-value records, each a
 * 2-byte tag, a 2-byte length of the value, then the value.  A record never
 * crosses a block boundary (the writer pads with PAD records), so the area
 * is read block by block.  Fields are decoded one by one, never by
 * overlaying a struct.
 *
 * INODE and ADD_RANGE records carry ext4's own structures, a raw inode and
 * an extent: their layout, as far as the replay edits them on disk too
 * (lib/fc_inode.c, lib/fc_extent.c), is here as well.
 */
#ifndef FC_FS_H
#define FC_FS_H

#include <assert.h>
#include <stdint.h>

#include "jbd2_fs.h"

/* Tags (fc_tag). */
#define FC_TAG_ADD_RANGE	0x0001	/* an extent mapped into an inode */
#define FC_TAG_DEL_RANGE	0x0002	/* logical blocks unmapped */
#define FC_TAG_CREAT		0x0003	/* a new inode's first name */
#define FC_TAG_LINK		0x0004	/* one more name of an inode */
#define FC_TAG_UNLINK		0x0005	/* a name removed */
#define FC_TAG_INODE		0x0006	/* the raw on-disk inode */
#define FC_TAG_PAD		0x0007	/* filler to the end of the block */
#define FC_TAG_TAIL		0x0008	/* ends one fast commit: tid and crc */
#define FC_TAG_HEAD		0x0009	/* starts the area: features and tid */

/* Every record: tag, then length of the value (both le16). */
#define FC_TL_TAG		0
#define FC_TL_LEN		2
#define FC_TL_SIZE		4

/* HEAD value. */
#define FC_HEAD_FEATURES	0
#define FC_HEAD_TID		4
#define FC_HEAD_SIZE		8
#define FC_SUPPORTED_FEATURES	0x0U	/* fc_features the kernel knows */

/* TAIL value: the crc covers everything since the previous tail (or the
 * area's start), this record's tag, length and tid included. */
#define FC_TAIL_TID		0
#define FC_TAIL_CRC		4
#define FC_TAIL_SIZE		8

/* ADD_RANGE value: an inode number, then an ext4 extent (12 bytes). */
#define FC_ADD_RANGE_INO	0
#define FC_ADD_RANGE_EXTENT	4
#define FC_EXTENT_LBLK		0	/* ee_block, le32 */
#define FC_EXTENT_LEN		4	/* ee_len, le16 */
#define FC_EXTENT_START_HI	6	/* ee_start_hi, le16 */
#define FC_EXTENT_START_LO	8	/* ee_start_lo, le32 */
#define FC_EXTENT_SIZE		12
#define FC_ADD_RANGE_SIZE	16
/* ee_len above this is an unwritten extent of (ee_len - this) blocks; so
 * this many blocks at most in a written extent, one fewer in an unwritten
 * one. */
#define FC_EXT_INIT_MAX_LEN	32768U
#define FC_EXT_UNINIT_MAX_LEN	(FC_EXT_INIT_MAX_LEN - 1)

/* DEL_RANGE value. */
#define FC_DEL_RANGE_INO	0
#define FC_DEL_RANGE_LBLK	4
#define FC_DEL_RANGE_LEN	8
#define FC_DEL_RANGE_SIZE	12

/* CREAT, LINK, UNLINK value: parent, inode, then the name (no NUL). */
#define FC_DENTRY_PARENT	0
#define FC_DENTRY_INO		4
#define FC_DENTRY_NAME		8
#define FC_DENTRY_SIZE		8	/* without the name */
#define FC_NAME_MAX		255

/* INODE value: the inode number, then the raw inode (128 bytes at least,
 * s_inode_size at most). */
#define FC_INODE_INO		0
#define FC_INODE_RAW		4
#define FC_INODE_SIZE		4	/* without the raw inode */
#define FC_GOOD_OLD_INODE_SIZE	128

/*
 * The raw inode is the ext4 on-disk inode (little-endian); the replay
 * edits these of its fields byte by byte.  An extent inode's i_block holds
 * the root of its tree: a 12-byte header, then room for 4 extents or index
 * entries of 12 bytes each.  A tree block is a header and as many entries
 * as the rest of the block holds.
 */
#define FC_I_FLAGS		32	/* i_flags, le32 */
#define FC_I_BLOCK		40	/* i_block[15]: the extent tree's root */
#define FC_I_BLOCK_SIZE		60
#define FC_I_GENERATION		100	/* the first byte after i_block */
#define FC_EH_MAGIC		0	/* eh_magic, le16 */
#define FC_EH_MAX		4	/* eh_max, le16: room, in entries */
#define FC_EH_SIZE		12
#define FC_EXTENT_MAGIC		0xF30A
#define FC_ROOT_EXTENTS		4	/* a root's eh_max */

/*
 * The extended attributes kept in the inode, after its first 128 bytes and
 * i_extra_isize more: a 4-byte header (the magic), then entries of 16 bytes
 * and the name (each padded to 4 bytes, the list ended by 4 zero bytes),
 * and the values, placed from the end of the inode down; a value's offset
 * counts from the first entry.  An inline directory's names past i_block
 * are the value of system.data (name index 7, name "data").
 */
#define FC_XATTR_MAGIC		0xEA020000U
#define FC_XATTR_HDR_SIZE	4	/* the magic, le32 */
#define FC_XE_NAME_LEN		0	/* e_name_len, u8 */
#define FC_XE_NAME_INDEX	1	/* e_name_index, u8 */
#define FC_XE_VALUE_OFFS	2	/* e_value_offs, le16 */
#define FC_XE_VALUE_INUM	4	/* e_value_inum, le32 */
#define FC_XE_VALUE_SIZE	8	/* e_value_size, le32 */
#define FC_XE_NAME		16	/* the name, e_name_len bytes */
#define FC_XATTR_PAD		4
#define FC_XATTR_LEN(name_len)	(((name_len) + FC_XE_NAME + FC_XATTR_PAD - 1) & \
				 ~(FC_XATTR_PAD - 1))
#define FC_XATTR_SIZE(size)	(((size) + FC_XATTR_PAD - 1) & ~(FC_XATTR_PAD - 1))
#define FC_I_EXTRA_ISIZE	128	/* i_extra_isize, le16 */
#define FC_XATTR_INDEX_SYSTEM	7	/* the "system." names */
#define FC_INLINE_DATA_NAME	"data"	/* system.data's name */

static_assert(FC_ADD_RANGE_EXTENT + FC_EXTENT_SIZE == FC_ADD_RANGE_SIZE,
	      "ADD_RANGE is an inode number and one extent");
static_assert(FC_EXTENT_START_LO + 4 == FC_EXTENT_SIZE,
	      "an ext4 extent is 12 bytes");
static_assert(FC_DEL_RANGE_LEN + 4 == FC_DEL_RANGE_SIZE,
	      "DEL_RANGE is three le32");
static_assert(FC_TAIL_CRC + 4 == FC_TAIL_SIZE, "TAIL is tid and crc");
static_assert(FC_HEAD_TID + 4 == FC_HEAD_SIZE, "HEAD is features and tid");
static_assert(FC_DENTRY_NAME == FC_DENTRY_SIZE, "the name follows the ids");
static_assert(FC_INODE_RAW == FC_INODE_SIZE, "the raw inode follows its number");
static_assert(FC_I_BLOCK + FC_I_BLOCK_SIZE == FC_I_GENERATION,
	      "i_generation follows i_block");
static_assert(FC_EH_SIZE + FC_ROOT_EXTENTS * FC_EXTENT_SIZE == FC_I_BLOCK_SIZE,
	      "a tree's root fills i_block");
static_assert(FC_I_GENERATION + 4 <= FC_GOOD_OLD_INODE_SIZE,
	      "the fields edited are in every inode");

/*
 * Does a block start with a HEAD record?  The area's first block must, or
 * the area holds nothing (its value is checked once the record is read).
 */
static inline int fc_starts_with_head(const unsigned char *blk)
{
	return get_le16(blk + FC_TL_TAG) == FC_TAG_HEAD;
}

/* One record, decoded.  Only the fields of its tag are set. */
struct fc_tag {
	unsigned int	tag;
	unsigned int	len;		/* of the value */
	const unsigned char *val;	/* the value, inside the block */
	uint32_t	ino;		/* ADD/DEL_RANGE, INODE, dentry tags */
	uint32_t	parent;		/* dentry tags */
	uint32_t	lblk;		/* ADD/DEL_RANGE */
	uint32_t	count;		/* blocks: ADD/DEL_RANGE */
	uint64_t	pblk;		/* ADD_RANGE */
	int		unwritten;	/* ADD_RANGE */
	uint32_t	tid;		/* HEAD, TAIL */
	uint32_t	features;	/* HEAD */
	uint32_t	crc;		/* TAIL, as stored */
	const unsigned char *name;	/* dentry tags, name_len bytes */
	unsigned int	name_len;
	const unsigned char *raw_inode;	/* INODE, raw_len bytes */
	unsigned int	raw_len;
};

/*
 * Is len a valid value length for tag?  The kernel's rule: the fixed
 * records exactly their size, names 1 to 255 bytes, raw inodes from 128
 * bytes to the filesystem's inode size, PAD anything, TAIL at least its
 * size; an unknown tag never.
 */
static inline int fc_value_len_ok(unsigned int tag, unsigned int len,
				  unsigned int inode_size)
{
	switch (tag) {
	case FC_TAG_ADD_RANGE:
		return len == FC_ADD_RANGE_SIZE;
	case FC_TAG_DEL_RANGE:
		return len == FC_DEL_RANGE_SIZE;
	case FC_TAG_CREAT:
	case FC_TAG_LINK:
	case FC_TAG_UNLINK:
		return len > FC_DENTRY_SIZE && len - FC_DENTRY_SIZE <= FC_NAME_MAX;
	case FC_TAG_INODE:
		return len >= FC_INODE_SIZE + FC_GOOD_OLD_INODE_SIZE &&
		       len - FC_INODE_SIZE <= inode_size;
	case FC_TAG_PAD:
		return 1;
	case FC_TAG_TAIL:
		return len >= FC_TAIL_SIZE;
	case FC_TAG_HEAD:
		return len == FC_HEAD_SIZE;
	}
	return 0;
}

/*
 * Decode the fields of a record whose length fc_value_len_ok() accepted;
 * t->tag, t->len and t->val are set by the caller.
 */
static inline void fc_decode_value(struct fc_tag *t)
{
	const unsigned char *v = t->val, *ex;
	unsigned int ee_len;

	switch (t->tag) {
	case FC_TAG_ADD_RANGE:
		ex = v + FC_ADD_RANGE_EXTENT;
		t->ino = get_le32(v + FC_ADD_RANGE_INO);
		t->lblk = get_le32(ex + FC_EXTENT_LBLK);
		ee_len = get_le16(ex + FC_EXTENT_LEN);
		t->unwritten = ee_len > FC_EXT_INIT_MAX_LEN;
		t->count = t->unwritten ? ee_len - FC_EXT_INIT_MAX_LEN : ee_len;
		t->pblk = get_le32(ex + FC_EXTENT_START_LO) |
			  ((uint64_t)get_le16(ex + FC_EXTENT_START_HI) << 32);
		break;
	case FC_TAG_DEL_RANGE:
		t->ino = get_le32(v + FC_DEL_RANGE_INO);
		t->lblk = get_le32(v + FC_DEL_RANGE_LBLK);
		t->count = get_le32(v + FC_DEL_RANGE_LEN);
		break;
	case FC_TAG_CREAT:
	case FC_TAG_LINK:
	case FC_TAG_UNLINK:
		t->parent = get_le32(v + FC_DENTRY_PARENT);
		t->ino = get_le32(v + FC_DENTRY_INO);
		t->name = v + FC_DENTRY_NAME;
		t->name_len = t->len - FC_DENTRY_SIZE;
		break;
	case FC_TAG_INODE:
		t->ino = get_le32(v + FC_INODE_INO);
		t->raw_inode = v + FC_INODE_RAW;
		t->raw_len = t->len - FC_INODE_SIZE;
		break;
	case FC_TAG_TAIL:
		t->tid = get_le32(v + FC_TAIL_TID);
		t->crc = get_le32(v + FC_TAIL_CRC);
		break;
	case FC_TAG_HEAD:
		t->features = get_le32(v + FC_HEAD_FEATURES);
		t->tid = get_le32(v + FC_HEAD_TID);
		break;
	}
}

#endif /* FC_FS_H */
