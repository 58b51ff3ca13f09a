/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jbd2.c -- decoding and checking journal blocks, and the journal
 * superblock reset that ends a replay.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "crc32c.h"
#include "jbd2.h"

/* crc32c over a buffer with the 4 bytes at skip counted as zero. */
static uint32_t crc32c_skip(uint32_t crc, const unsigned char *buf,
			    size_t len, size_t skip)
{
	static const unsigned char zero[4];

	crc = crc32c_update(crc, buf, skip);
	crc = crc32c_update(crc, zero, sizeof(zero));
	return crc32c_update(crc, buf + skip + 4, len - skip - 4);
}

uint32_t jbd2_super_csum(const unsigned char *buf)
{
	return crc32c_skip(~0U, buf, JSB_SIZE, JSB_CHECKSUM);
}

void jbd2_super_set_csum(const struct jsuper *sb, unsigned char *buf)
{
	if (sb->csum_v2 || sb->csum_v3)
		put_be32(buf + JSB_CHECKSUM, jbd2_super_csum(buf));
}

errcode_t jbd2_decode_super(const unsigned char *buf, unsigned int fs_blocksize,
			    struct jsuper *sb)
{
	struct recover_super *p = &sb->pub;

	memset(sb, 0, sizeof(*sb));
	if (get_be32(buf + JBD2_HDR_MAGIC) != JBD2_MAGIC)
		return RECOVER_ET_MAGIC_BAD;
	p->version = jbd2_super_version(buf);
	if (!p->version)
		return RECOVER_ET_SB_TYPE;

	p->blocksize = get_be32(buf + JSB_BLOCKSIZE);
	p->maxlen = get_be32(buf + JSB_MAXLEN);
	p->first = get_be32(buf + JSB_FIRST);
	p->sequence = get_be32(buf + JSB_SEQUENCE);
	p->start = get_be32(buf + JSB_START);
	p->errnum = (int32_t)get_be32(buf + JSB_ERRNO);
	/* A v1 superblock has no feature fields: whatever is there is noise. */
	if (p->version == 2) {
		p->feature_compat = get_be32(buf + JSB_FEATURE_COMPAT);
		p->feature_incompat = get_be32(buf + JSB_FEATURE_INCOMPAT);
		p->feature_ro_compat = get_be32(buf + JSB_FEATURE_RO_COMPAT);
		p->nr_users = get_be32(buf + JSB_NR_USERS);
	}
	memcpy(p->uuid, buf + JSB_UUID, sizeof(p->uuid));

	if (p->feature_incompat & ~JBD2_KNOWN_INCOMPAT)
		return RECOVER_ET_UNSUPP_INCOMPAT;
	if (p->feature_ro_compat & ~JBD2_KNOWN_ROCOMPAT)
		return RECOVER_ET_UNSUPP_ROCOMPAT;
	sb->csum_v1 = !!(p->feature_compat & JBD2_FEATURE_COMPAT_CHECKSUM);
	sb->csum_v2 = !!(p->feature_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2);
	sb->csum_v3 = !!(p->feature_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3);
	sb->has_64bit = !!(p->feature_incompat & JBD2_FEATURE_INCOMPAT_64BIT);
	sb->async_commit =
		!!(p->feature_incompat & JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT);
	if (sb->csum_v2 + sb->csum_v3 + sb->csum_v1 > 1)
		return RECOVER_ET_CSUM_CONFLICT;
	if (sb->csum_v2 || sb->csum_v3) {
		if (buf[JSB_CHECKSUM_TYPE] != JBD2_CRC32C_CHKSUM ||
		    get_be32(buf + JSB_CHECKSUM) != jbd2_super_csum(buf))
			return RECOVER_ET_SB_CSUM;
		sb->csum_seed = crc32c_update(~0U, p->uuid, sizeof(p->uuid));
	}
	if (p->blocksize != fs_blocksize)
		return RECOVER_ET_SB_BLOCKSIZE;

	/* Tag layout: v3 has its own 16-byte tag; otherwise 8 bytes, 4 more
	 * for the high block number, 2 more for a v2 checksum. */
	if (sb->csum_v3)
		sb->tag_bytes = TAG3_SIZE;
	else
		sb->tag_bytes = TAG_SIZE +
				(sb->has_64bit ? TAG_64BIT_EXTRA : 0) +
				(sb->csum_v2 ? TAG_CSUM_V2_EXTRA : 0);
	sb->tail = (sb->csum_v2 || sb->csum_v3) ? JBD2_TAIL_SIZE : 0;
	sb->revoke_rec = sb->has_64bit ? REVOKE_REC64_SIZE : REVOKE_REC_SIZE;

	sb->last = p->maxlen;
	if (p->feature_incompat & JBD2_FEATURE_INCOMPAT_FAST_COMMIT) {
		uint32_t fc = get_be32(buf + JSB_NUM_FC_BLKS);

		p->num_fc_blocks = fc ? fc : JBD2_DEFAULT_FC_BLKS;
		if (p->maxlen < p->num_fc_blocks ||
		    p->maxlen - p->num_fc_blocks < JBD2_MIN_LOG_BLOCKS)
			return RECOVER_ET_SB_GEOMETRY;
		sb->last = p->maxlen - p->num_fc_blocks;
	}
	return 0;
}

/*
 * The journal superblock after recovery, as e2fsck leaves it: the log
 * emptied (s_start 0); when recovery succeeded, s_sequence one past the
 * last tid replayed plus one (the kernel's ++end_transaction), and -EINVAL
 * in s_errno after a corrupt commit block.  Then e2fsck's journal check
 * moves any s_errno into the filesystem's error state and clears it.  A v1
 * superblock with anything in the fields a v2 one has is cleared past
 * s_errno, as e2fsck does.
 */
int jbd2_reset_super(const struct jsuper *sb, unsigned char *buf,
		     const struct jbd2_reset *how)
{
	int fs_error;

	if (how->had_log) {
		if (sb->pub.version == 1 &&
		    (get_be32(buf + JSB_FEATURE_COMPAT) ||
		     get_be32(buf + JSB_FEATURE_INCOMPAT) ||
		     get_be32(buf + JSB_FEATURE_RO_COMPAT) ||
		     get_be32(buf + JSB_NR_USERS)))
			memset(buf + JSB_V1_SIZE, 0,
			       sb->pub.blocksize - JSB_V1_SIZE);
		put_be32(buf + JSB_START, 0);
		if (how->replayed) {
			put_be32(buf + JSB_SEQUENCE, how->end_tid + 1);
			if (how->failed_commit)
				put_be32(buf + JSB_ERRNO, JSB_ERRNO_EINVAL);
		}
	}
	fs_error = get_be32(buf + JSB_ERRNO) != 0;
	if (!how->keep_errno)
		put_be32(buf + JSB_ERRNO, 0);
	jbd2_super_set_csum(sb, buf);
	return fs_error;
}

/* The geometry against the journal actually available. */
errcode_t jbd2_check_geometry(const struct jsuper *sb, uint64_t journal_blocks,
			      int may_be_short)
{
	const struct recover_super *p = &sb->pub;

	if (p->maxlen > journal_blocks && !may_be_short)
		return RECOVER_ET_JOURNAL_SHORT;
	if (p->first == 0 || p->first >= sb->last)
		return RECOVER_ET_SB_GEOMETRY;
	if (p->start && (p->start < p->first || p->start >= sb->last))
		return RECOVER_ET_SB_START;
	return 0;
}

int jbd2_next_tag(const struct jsuper *sb, const unsigned char *blk,
		  unsigned int *pos, struct jbd2_tag *tag)
{
	unsigned int off = *pos ? *pos : JBD2_HDR_SIZE;
	unsigned int end = sb->pub.blocksize - sb->tail;
	const unsigned char *t;

	if (off == UINT32_MAX || off + sb->tag_bytes > end)
		return 0;
	t = blk + off;
	tag->blocknr = get_be32(t + TAG_BLOCKNR);
	if (sb->has_64bit)
		tag->blocknr |= (uint64_t)get_be32(t + TAG_BLOCKNR_HIGH) << 32;
	tag->flags = get_be16(t + TAG_FLAGS16);
	if (sb->csum_v3)
		tag->csum = get_be32(t + TAG3_CHECKSUM);
	else if (sb->csum_v2)
		tag->csum = get_be16(t + TAG_CSUM16);
	else
		tag->csum = 0;
	off += sb->tag_bytes;
	if (!(tag->flags & JBD2_FLAG_SAME_UUID))
		off += TAG_UUID_SIZE;
	*pos = (tag->flags & JBD2_FLAG_LAST_TAG) ? UINT32_MAX : off;
	return 1;
}

/* Descriptor and revoke blocks: the tail holds crc32c of the block. */
int jbd2_block_csum_ok(const struct jsuper *sb, const unsigned char *blk)
{
	unsigned int bs = sb->pub.blocksize;

	if (!sb->tail)
		return 1;
	return get_be32(blk + bs - JBD2_TAIL_SIZE) ==
	       crc32c_skip(sb->csum_seed, blk, bs, bs - JBD2_TAIL_SIZE);
}

/* Commit blocks (v2/v3): h_chksum[0] holds crc32c of the block. */
int jbd2_commit_csum_ok(const struct jsuper *sb, const unsigned char *blk)
{
	if (!sb->csum_v2 && !sb->csum_v3)
		return 1;
	return get_be32(blk + COMMIT_CHKSUM) ==
	       crc32c_skip(sb->csum_seed, blk, sb->pub.blocksize, COMMIT_CHKSUM);
}

/* Data blocks: crc32c of the tid then of the block as stored in the log. */
int jbd2_data_csum_ok(const struct jsuper *sb, uint32_t tid,
		      const unsigned char *data, uint32_t stored)
{
	unsigned char seq[4];
	uint32_t crc;

	if (!sb->csum_v2 && !sb->csum_v3)
		return 1;
	put_be32(seq, tid);
	crc = crc32c_update(sb->csum_seed, seq, sizeof(seq));
	crc = crc32c_update(crc, data, sb->pub.blocksize);
	if (sb->csum_v3)
		return stored == crc;
	return stored == (crc & 0xffff);
}

errcode_t jbd2_revoke_begin(const struct jsuper *sb, const unsigned char *blk,
			    struct jbd2_revoke_iter *it)
{
	uint32_t count = get_be32(blk + REVOKE_COUNT);

	it->blk = blk;
	it->off = REVOKE_HDR_SIZE;
	it->rec = sb->revoke_rec;
	it->end = 0;
	if (count > sb->pub.blocksize - sb->tail)
		return RECOVER_ET_REVOKE_COUNT;
	it->end = count;
	return 0;
}
