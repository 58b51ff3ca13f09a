/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_decode -- the journal superblock and block decoders of jbd2.c on
 * arbitrary bytes.
 *
 * Input: one control byte, then the journal superblock, then one log block.
 *   byte 0, bits 0-2: the filesystem block size, one of 1024 2048 4096
 *           8192 65536 (5-7 wrap round)
 *   byte 0, bit 3: "structured": instead of a raw superblock, bytes 1-12
 *           give its fields (compat, incompat, version, maxlen, first,
 *           start, journal blocks available) and a valid one is built around
 *           them (magic, block size, checksum), so the block decoders are
 *           reached under every feature combination
 *   byte 0, bit 4: the journal is a dump that may be cut short
 *   raw: the next 1024 bytes are the superblock (zero-padded to a block)
 *   the rest is the log block, zero-padded or cut to the block size
 *   byte 0, bits 5-7: K: the block is also read as a fast-commit block
 *           (lib/fc.c), first and later in the area, with the expected tid
 *           s_sequence + K and a 256-byte inode size
 * Every buffer is allocated at exactly its size, so that ASan sees a read
 * past the block.  Checked: tags and revoke records stay inside the block,
 * the tag loop ends, and a superblock whose checksum jbd2_super_set_csum()
 * rewrote decodes again to the same fields.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "fc_fs.h"
#include "fuzz_common.h"

#define HDR_STRUCT	13	/* control byte + structured fields */

static const unsigned int sizes[8] = {
	1024, 2048, 4096, 8192, 65536, 1024, 4096, 4096
};

static int fuzz_init(void)
{
	return 0;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* A valid v2 superblock around the fields the input chooses. */
static void build_super(unsigned char *jsb, unsigned int bs, const uint8_t *f)
{
	uint32_t maxlen = (uint32_t)f[3] << 16 | (uint32_t)f[4] << 8 | f[5];

	put_be32(jsb + JBD2_HDR_MAGIC, JBD2_MAGIC);
	put_be32(jsb + JBD2_HDR_BLOCKTYPE,
		 (f[2] & 1) ? JBD2_SUPERBLOCK_V1 : JBD2_SUPERBLOCK_V2);
	put_be32(jsb + JSB_BLOCKSIZE, bs);
	put_be32(jsb + JSB_MAXLEN, maxlen);
	put_be32(jsb + JSB_FIRST, (uint32_t)f[6] << 8 | f[7]);
	put_be32(jsb + JSB_SEQUENCE, 0x12345678U);
	put_be32(jsb + JSB_START, (uint32_t)f[8] << 8 | f[9]);
	put_be32(jsb + JSB_FEATURE_COMPAT, f[0] & 1);
	put_be32(jsb + JSB_FEATURE_INCOMPAT, f[1]);
	memset(jsb + JSB_UUID, 0xa5, 16);
	put_be32(jsb + JSB_NR_USERS, 1);
	put_be32(jsb + JSB_NUM_FC_BLKS, f[2] >> 1);
	jsb[JSB_CHECKSUM_TYPE] = JBD2_CRC32C_CHKSUM;
	put_be32(jsb + JSB_CHECKSUM, 0);
	put_be32(jsb + JSB_CHECKSUM, jbd2_super_csum(jsb));
}

static void check_block(const struct jsuper *sb, const unsigned char *blk)
{
	unsigned int bs = sb->pub.blocksize, pos = 0, n = 0;
	struct jbd2_revoke_iter rit;
	uint64_t blocknr;
	struct jbd2_tag tag;
	volatile uint64_t sink = 0;

	/* Whatever the block holds, the tag loop must end inside it. */
	while (jbd2_next_tag(sb, blk, &pos, &tag)) {
		n++;
		FUZZ_CHECK(n <= bs / 8, "%u tags in a %u-byte block", n, bs);
		FUZZ_CHECK(pos == UINT32_MAX || pos <= bs + TAG_UUID_SIZE,
			   "next tag at %u", pos);
		sink += tag.blocknr + tag.flags + tag.csum;
		sink += jbd2_data_csum_ok(sb, get_be32(blk + JBD2_HDR_SEQUENCE),
					  blk, tag.csum);
	}
	sink += jbd2_block_csum_ok(sb, blk);
	sink += jbd2_commit_csum_ok(sb, blk);
	if (!jbd2_revoke_begin(sb, blk, &rit)) {
		FUZZ_CHECK(rit.end <= bs, "revoke extent %u in a %u-byte block",
			   rit.end, bs);
		n = 0;
		while (jbd2_revoke_next(&rit, &blocknr)) {
			FUZZ_CHECK(rit.off <= rit.end, "revoke record past %u",
				   rit.end);
			sink += blocknr;
			n++;
		}
		FUZZ_CHECK(n == jbd2_revoke_count(&rit), "%u revoke records, "
			   "counted %u", n, jbd2_revoke_count(&rit));
	}
	(void)sink;
}

struct fc_seen {
	const unsigned char *blk;
	unsigned int	bs;
	unsigned long long n;
};

static int fc_record(void *data, const struct fc_tag *t, int valid)
{
	struct fc_seen *s = data;

	(void)valid;
	FUZZ_CHECK(t->val >= s->blk + FC_TL_SIZE &&
		   t->val + t->len <= s->blk + s->bs,
		   "fast-commit record of %u bytes outside the block", t->len);
	FUZZ_CHECK(fc_value_len_ok(t->tag, t->len, 256),
		   "record with tag %u and bad length %u handed on", t->tag,
		   t->len);
	FUZZ_CHECK(!t->name || t->name + t->name_len <= s->blk + s->bs,
		   "name outside the block");
	s->n++;
	return 0;
}

/* The block as the area's first block, and as a later one. */
static void check_fc(const struct jsuper *sb, const unsigned char *blk,
		     unsigned int k)
{
	enum recover_fc_state st;
	struct fc_scan sc;
	struct fc_seen seen = { blk, sb->pub.blocksize, 0 };
	int later;

	for (later = 0; later < 2; later++) {
		fc_scan_init(&sc, sb->pub.sequence + k, sb->pub.blocksize, 256);
		sc.limit = ~0ULL;
		sc.blocks = (unsigned long long)later;
		seen.n = 0;
		if (fc_scan_block(&sc, blk, fc_record, &seen))
			sc.end = RECOVER_FC_END_AREA;
		FUZZ_CHECK(seen.n == sc.tags, "%llu records seen, %llu counted",
			   seen.n, sc.tags);
		FUZZ_CHECK(sc.valid <= sc.tags && sc.commits <= sc.valid,
			   "valid %llu, commits %llu, records %llu", sc.valid,
			   sc.commits, sc.tags);
		FUZZ_CHECK(sc.end_off + FC_TL_SIZE <= sb->pub.blocksize,
			   "stopped at byte %u", sc.end_off);
		FUZZ_CHECK(!fc_scan_verdict(&sc, &st), "verdict failed");
		FUZZ_CHECK(st != RECOVER_FC_LIVE || sc.valid, "live, none valid");
	}
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	unsigned int bs;
	unsigned char *jsb, *blk;
	struct jsuper sb, again;
	uint64_t avail;
	size_t used, n;
	errcode_t err;

	if (size < 1)
		return;
	bs = sizes[data[0] & 7];
	jsb = calloc(1, bs);
	blk = calloc(1, bs);
	if (!jsb || !blk)
		abort();
	if (data[0] & 8) {
		if (size < HDR_STRUCT)
			goto out;
		build_super(jsb, bs, data + 1);
		avail = be32(data + 9) & 0xffffff;
		used = HDR_STRUCT;
	} else {
		n = size - 1 < JSB_SIZE ? size - 1 : JSB_SIZE;
		memcpy(jsb, data + 1, n);
		avail = be32(jsb + JSB_MAXLEN);
		used = 1 + n;
	}
	n = size - used < bs ? size - used : bs;
	memcpy(blk, data + used, n);

	err = jbd2_decode_super(jsb, bs, &sb);
	if (err)
		goto out;
	FUZZ_CHECK(sb.pub.blocksize == bs, "block size %u", sb.pub.blocksize);
	FUZZ_CHECK(sb.last <= sb.pub.maxlen, "log end %u past s_maxlen %u",
		   sb.last, sb.pub.maxlen);
	FUZZ_CHECK(sb.tail + JBD2_HDR_SIZE + sb.tag_bytes <= bs,
		   "tag %u and tail %u do not fit", sb.tag_bytes, sb.tail);
	if (!jbd2_check_geometry(&sb, avail, !!(data[0] & 16))) {
		FUZZ_CHECK(sb.pub.first > 0 && sb.pub.first < sb.last,
			   "s_first %u, log end %u", sb.pub.first, sb.last);
		FUZZ_CHECK(!sb.pub.start || (sb.pub.start >= sb.pub.first &&
					     sb.pub.start < sb.last),
			   "s_start %u outside [%u, %u)", sb.pub.start,
			   sb.pub.first, sb.last);
	}

	/* Rewriting the checksum keeps the superblock valid and the same. */
	jbd2_super_set_csum(&sb, jsb);
	FUZZ_CHECK(!jbd2_decode_super(jsb, bs, &again),
		   "superblock no longer decodes after jbd2_super_set_csum");
	FUZZ_CHECK(!memcmp(&sb.pub, &again.pub, sizeof(sb.pub)) &&
		   sb.last == again.last && sb.tag_bytes == again.tag_bytes,
		   "superblock decodes differently after jbd2_super_set_csum");

	check_block(&sb, blk);
	check_fc(&sb, blk, data[0] >> 5);
out:
	free(jsb);
	free(blk);
}
