/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jbd2_test.c -- unit tests of the journal format: the decoders and the
 * superblock reset (lib/jbd2.c, lib/jbd2_fs.h).
 *
 * Superblocks and log blocks are built byte by byte with this file's own
 * big-endian writers, and checksums are computed here from the rules in
 * doc/jbd2-format.md (only the crc32c primitive is libext2fs's), so a mistake in
 * the library's encoding is not mirrored by the test.  Buffers are exactly
 * as large as the format says (1024 bytes for a superblock, one block for a
 * log block) so that an overread shows under AddressSanitizer.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "librecoverP.h"

/* ---- test-side encoders -------------------------------------------------- */

static void w16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void w32(unsigned char *p, uint32_t v)
{
	w16(p, (uint16_t)(v >> 16));
	w16(p + 2, (uint16_t)v);
}

static void w64(unsigned char *p, uint64_t v)
{
	w32(p, (uint32_t)(v >> 32));
	w32(p + 4, (uint32_t)v);
}

static uint32_t r32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint32_t crc32c(uint32_t crc, const void *p, size_t len)
{
	return ext2fs_crc32c_le(crc, p, len);
}

/* Deterministic filler for block contents. */
static uint32_t fill_state;

static void fill_random(unsigned char *p, size_t len, uint32_t seed)
{
	size_t i;

	fill_state = seed * 2654435761U + 1;
	for (i = 0; i < len; i++) {
		fill_state = fill_state * 1103515245U + 12345U;
		p[i] = (unsigned char)(fill_state >> 16);
	}
}

static const unsigned char test_uuid[16] = {
	0x3c, 0x1f, 0x8a, 0x02, 0x77, 0x4e, 0x41, 0xd5,
	0x9b, 0x60, 0x11, 0xe2, 0xc4, 0x5a, 0xf0, 0x0d,
};

/* The checksum seed, from the rule: crc32c(~0, uuid). */
static uint32_t uuid_seed(const unsigned char *uuid)
{
	return crc32c(~0U, uuid, 16);
}

/* Superblock offsets, written out here rather than taken from jbd2_fs.h. */
enum {
	O_MAGIC = 0, O_TYPE = 4, O_HSEQ = 8, O_BLOCKSIZE = 12, O_MAXLEN = 16,
	O_FIRST = 20, O_SEQUENCE = 24, O_START = 28, O_ERRNO = 32,
	O_COMPAT = 36, O_INCOMPAT = 40, O_ROCOMPAT = 44, O_UUID = 48,
	O_NR_USERS = 64, O_CSUM_TYPE = 80, O_NUM_FC = 84, O_CSUM = 252,
	O_USERS = 256, SB_BYTES = 1024,
};

#define MAGIC		0xC03B3998U
#define F_CHECKSUM	0x01U		/* compat: v1 checksums */
#define F_REVOKE	0x01U		/* incompat */
#define F_64BIT		0x02U
#define F_ASYNC		0x04U
#define F_CSUM_V2	0x08U
#define F_CSUM_V3	0x10U
#define F_FAST_COMMIT	0x20U

/* Seal: s_checksum = crc32c(~0, the 1024 bytes with the field zeroed). */
static uint32_t sb_seal(unsigned char *sb)
{
	uint32_t c;

	memset(sb + O_CSUM, 0, 4);
	c = crc32c(~0U, sb, SB_BYTES);
	w32(sb + O_CSUM, c);
	return c;
}

/*
 * A journal superblock: type 4 (v2) or 3 (v1), the given features, a log
 * of maxlen blocks starting at block 1, and s_checksum_type 4.
 */
static unsigned char *make_sb(unsigned int bs, uint32_t type, uint32_t compat,
			      uint32_t incompat, uint32_t maxlen)
{
	unsigned char *sb = malloc(SB_BYTES);

	assert_non_null(sb);
	memset(sb, 0, SB_BYTES);
	w32(sb + O_MAGIC, MAGIC);
	w32(sb + O_TYPE, type);
	w32(sb + O_HSEQ, 0);
	w32(sb + O_BLOCKSIZE, bs);
	w32(sb + O_MAXLEN, maxlen);
	w32(sb + O_FIRST, 1);
	w32(sb + O_SEQUENCE, 0x1234);
	w32(sb + O_START, 0);
	w32(sb + O_COMPAT, compat);
	w32(sb + O_INCOMPAT, incompat);
	memcpy(sb + O_UUID, test_uuid, 16);
	w32(sb + O_NR_USERS, 1);
	sb[O_CSUM_TYPE] = 4;
	memcpy(sb + O_USERS, test_uuid, 16);
	sb_seal(sb);
	return sb;
}

/* Decode a v2 superblock with these features; it must decode. */
static void decode_ok(struct jsuper *js, unsigned int bs, uint32_t incompat)
{
	unsigned char *sb = make_sb(bs, 4, 0, incompat, 8192);

	assert_int_equal(jbd2_decode_super(sb, bs, js), 0);
	free(sb);
}

static errcode_t decode(unsigned char *sb, unsigned int bs)
{
	struct jsuper js;

	return jbd2_decode_super(sb, bs, &js);
}

/* ---- crc32c as the notes describe it ------------------------------------ */

/* ext2fs_crc32c_le is the raw register: no final inversion. */
static void test_crc32c_primitive(void **state)
{
	(void)state;
	/* The standard check value of CRC-32C is 0xE3069283 (inverted). */
	assert_int_equal(crc32c(~0U, "123456789", 9), 0xE3069283U ^ ~0U);
	/* Chaining is the same as one pass. */
	assert_int_equal(crc32c(crc32c(~0U, "1234", 4), "56789", 5),
			 crc32c(~0U, "123456789", 9));
}

/*
 * The library's crc32c_update (ISA-L's crc32_iscsi when configure found
 * it, else libext2fs's) against the test vectors of RFC 3720 B.4 (inverted
 * there, raw here), and against ext2fs_crc32c_le over random buffers of
 * every length up to a few blocks, odd starts and odd seeds included.
 */
static void test_crc32c_library(void **state)
{
	unsigned char buf[32], *big;
	uint32_t seed = 0x9e3779b9U;
	size_t i, len, off;

	(void)state;
	memset(buf, 0, sizeof(buf));
	assert_int_equal(crc32c_update(~0U, buf, 32), 0x8A9136AAU ^ ~0U);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(crc32c_update(~0U, buf, 32), 0x62A8AB43U ^ ~0U);
	for (i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	assert_int_equal(crc32c_update(~0U, buf, 32), 0x46DD794EU ^ ~0U);
	for (i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	assert_int_equal(crc32c_update(~0U, buf, 32), 0x113FDB5CU ^ ~0U);
	assert_int_equal(crc32c_update(~0U, "123456789", 9),
			 0xE3069283U ^ ~0U);
	assert_int_equal(crc32c_update(0x1234, buf, 0), 0x1234);

	big = malloc(3 * 4096 + 7);
	assert_non_null(big);
	for (i = 0; i < 3 * 4096 + 7; i++) {
		seed = seed * 1103515245U + 12345U;
		big[i] = (unsigned char)(seed >> 16);
	}
	for (len = 0; len <= 3 * 4096; len += len < 80 ? 1 : 509) {
		for (off = 0; off < 8; off++) {
			seed = seed * 1103515245U + 12345U;
			assert_int_equal(crc32c_update(seed, big + off % 7,
							 len),
					 ext2fs_crc32c_le(seed, big + off % 7,
							  len));
		}
	}
	free(big);
}

/* ---- jbd2_decode_super --------------------------------------------------- */

static void test_super_v2_fields(void **state)
{
	unsigned char *sb = make_sb(4096, 4, 0, 0, 32768);
	struct jsuper js;

	(void)state;
	w32(sb + O_FIRST, 3);
	w32(sb + O_SEQUENCE, 0xDEADBEEF);
	w32(sb + O_START, 17);
	w32(sb + O_ERRNO, (uint32_t)-5);
	w32(sb + O_CSUM, 0x12345678);	/* ignored without csum v2/v3 */
	sb[O_CSUM_TYPE] = 0;
	assert_int_equal(jbd2_decode_super(sb, 4096, &js), 0);
	assert_int_equal(js.pub.version, 2);
	assert_int_equal(js.pub.blocksize, 4096);
	assert_int_equal(js.pub.maxlen, 32768);
	assert_int_equal(js.pub.first, 3);
	assert_int_equal(js.pub.sequence, 0xDEADBEEF);
	assert_int_equal(js.pub.start, 17);
	assert_int_equal(js.pub.errnum, -5);
	assert_int_equal(js.pub.feature_compat, 0);
	assert_int_equal(js.pub.feature_incompat, 0);
	assert_int_equal(js.pub.feature_ro_compat, 0);
	assert_memory_equal(js.pub.uuid, test_uuid, 16);
	assert_int_equal(js.pub.nr_users, 1);
	assert_int_equal(js.pub.num_fc_blocks, 0);
	assert_int_equal(js.last, 32768);
	assert_int_equal(js.tag_bytes, 8);
	assert_int_equal(js.tail, 0);
	assert_int_equal(js.revoke_rec, 4);
	assert_false(js.csum_v1);
	assert_false(js.csum_v2);
	assert_false(js.csum_v3);
	assert_false(js.has_64bit);
	assert_false(js.async_commit);
	assert_int_equal(js.csum_seed, 0);
	free(sb);
}

/* v1 has no feature fields: whatever bytes sit there are ignored. */
static void test_super_v1_ignores_features(void **state)
{
	unsigned char *sb = make_sb(1024, 3, F_CHECKSUM, 0xFFFFFFFFU, 4096);
	struct jsuper js;

	(void)state;
	w32(sb + O_ROCOMPAT, 0xFFFFFFFFU);
	w32(sb + O_NR_USERS, 7);
	w32(sb + O_NUM_FC, 300);
	w32(sb + O_CSUM, 0);		/* no checksum in v1 */
	sb[O_CSUM_TYPE] = 0;
	w32(sb + O_SEQUENCE, 99);
	w32(sb + O_START, 1);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(js.pub.version, 1);
	assert_int_equal(js.pub.blocksize, 1024);
	assert_int_equal(js.pub.maxlen, 4096);
	assert_int_equal(js.pub.first, 1);
	assert_int_equal(js.pub.sequence, 99);
	assert_int_equal(js.pub.start, 1);
	assert_int_equal(js.pub.feature_compat, 0);
	assert_int_equal(js.pub.feature_incompat, 0);
	assert_int_equal(js.pub.feature_ro_compat, 0);
	assert_int_equal(js.pub.nr_users, 0);
	assert_int_equal(js.pub.num_fc_blocks, 0);
	assert_memory_equal(js.pub.uuid, test_uuid, 16);
	assert_int_equal(js.last, 4096);
	assert_int_equal(js.tag_bytes, 8);
	assert_int_equal(js.tail, 0);
	assert_int_equal(js.revoke_rec, 4);
	assert_false(js.csum_v1);
	assert_false(js.csum_v2);
	assert_false(js.csum_v3);
	assert_false(js.has_64bit);
	assert_false(js.async_commit);
	free(sb);
}

/* Every combination of the known features, with v1 checksums or without. */
static void test_super_feature_matrix(void **state)
{
	const uint32_t maxlen = 8192;
	uint32_t incompat, compat;

	(void)state;
	for (compat = 0; compat <= F_CHECKSUM; compat++) {
		for (incompat = 0; incompat < 0x40; incompat++) {
			int v2 = !!(incompat & F_CSUM_V2);
			int v3 = !!(incompat & F_CSUM_V3);
			int b64 = !!(incompat & F_64BIT);
			int fc = !!(incompat & F_FAST_COMMIT);
			unsigned char *sb = make_sb(1024, 4, compat, incompat,
						    maxlen);
			struct jsuper js;
			errcode_t err = jbd2_decode_super(sb, 1024, &js);
			unsigned int tag;

			free(sb);
			if ((v2 && v3) || (compat && (v2 || v3))) {
				assert_int_equal(err, RECOVER_ET_CSUM_CONFLICT);
				continue;
			}
			assert_int_equal(err, 0);
			if (v3)
				tag = 16;
			else if (b64)
				tag = v2 ? 14 : 12;
			else
				tag = v2 ? 10 : 8;
			assert_int_equal(js.tag_bytes, tag);
			assert_int_equal(js.revoke_rec, b64 ? 8 : 4);
			assert_int_equal(js.tail, (v2 || v3) ? 4 : 0);
			assert_int_equal(js.csum_v1, compat);
			assert_int_equal(js.csum_v2, v2);
			assert_int_equal(js.csum_v3, v3);
			assert_int_equal(js.has_64bit, b64);
			assert_int_equal(js.async_commit, !!(incompat & F_ASYNC));
			assert_int_equal(js.pub.feature_compat, compat);
			assert_int_equal(js.pub.feature_incompat, incompat);
			assert_int_equal(js.csum_seed,
					 (v2 || v3) ? uuid_seed(test_uuid) : 0);
			assert_int_equal(js.pub.num_fc_blocks, fc ? 256 : 0);
			assert_int_equal(js.last, fc ? maxlen - 256 : maxlen);
		}
	}
}

static void test_super_bad_magic(void **state)
{
	static const uint32_t bad[] = { 0, 0xC03B3999U, 0x98393BC0U,
					0xFFFFFFFFU, 0xC03B0000U };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned char *sb = make_sb(1024, 4, 0, 0, 4096);

		w32(sb + O_MAGIC, bad[i]);
		sb_seal(sb);
		assert_int_equal(decode(sb, 1024), RECOVER_ET_MAGIC_BAD);
		free(sb);
	}
}

static void test_super_bad_type(void **state)
{
	static const uint32_t bad[] = { 0, 1, 2, 5, 6, 7, 0x03000000U,
					0x04000000U, 0xFFFFFFFFU };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned char *sb = make_sb(1024, bad[i], 0, 0, 4096);

		assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_TYPE);
		free(sb);
	}
}

static void test_super_unknown_features(void **state)
{
	static const uint32_t bad[] = { 0x40, 0x80, 0x100, 0x80000000U,
					0x40 | F_REVOKE | F_64BIT,
					0xFFFFFFC0U };
	unsigned char *sb;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sb = make_sb(1024, 4, 0, bad[i], 4096);
		assert_int_equal(decode(sb, 1024), RECOVER_ET_UNSUPP_INCOMPAT);
		free(sb);
	}
	sb = make_sb(1024, 4, 0, F_REVOKE, 4096);
	w32(sb + O_ROCOMPAT, 1);
	sb_seal(sb);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_UNSUPP_ROCOMPAT);
	free(sb);
	/* Unknown compat features are harmless. */
	sb = make_sb(1024, 4, 0xFFFFFFFEU, F_REVOKE, 4096);
	assert_int_equal(decode(sb, 1024), 0);
	free(sb);
}

static void test_super_csum_conflict(void **state)
{
	static const struct { uint32_t compat, incompat; } bad[] = {
		{ 0, F_CSUM_V2 | F_CSUM_V3 },
		{ 0, F_CSUM_V2 | F_CSUM_V3 | F_64BIT | F_REVOKE },
		{ F_CHECKSUM, F_CSUM_V3 },
		{ F_CHECKSUM, F_CSUM_V2 },
		{ F_CHECKSUM, F_CSUM_V2 | F_CSUM_V3 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned char *sb = make_sb(1024, 4, bad[i].compat,
					    bad[i].incompat, 4096);

		assert_int_equal(decode(sb, 1024), RECOVER_ET_CSUM_CONFLICT);
		free(sb);
	}
}

static void test_super_csum(void **state)
{
	static const unsigned int flip[] = { 0, 12, 28, 48, 63, 80, 84, 252,
					     255, 256, 700, 1023 };
	static const uint32_t feats[] = { F_CSUM_V2, F_CSUM_V3,
					  F_CSUM_V3 | F_64BIT | F_REVOKE };
	size_t f, i;

	(void)state;
	for (f = 0; f < sizeof(feats) / sizeof(feats[0]); f++) {
		unsigned char *sb = make_sb(1024, 4, 0, feats[f], 4096);
		uint32_t good;

		assert_int_equal(decode(sb, 1024), 0);
		/* The library's own checksum matches the rule. */
		good = sb_seal(sb);
		assert_int_equal(jbd2_super_csum(sb), good);
		for (i = 0; i < sizeof(flip) / sizeof(flip[0]); i++) {
			sb[flip[i]] ^= 0x10;
			assert_int_equal(decode(sb, 1024), flip[i] == 0 ?
					 RECOVER_ET_MAGIC_BAD :
					 RECOVER_ET_SB_CSUM);
			sb[flip[i]] ^= 0x10;
		}
		assert_int_equal(decode(sb, 1024), 0);
		/* A checksum computed without zeroing the field is wrong. */
		w32(sb + O_CSUM, crc32c(~0U, sb, SB_BYTES));
		assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_CSUM);
		free(sb);
	}
}

/* s_checksum_type must be 4 (crc32c) with csum v2/v3. */
static void test_super_csum_type(void **state)
{
	static const unsigned char types[] = { 0, 1, 2, 3, 5, 0x84 };
	size_t i;
	unsigned char *sb;

	(void)state;
	for (i = 0; i < sizeof(types); i++) {
		sb = make_sb(1024, 4, 0, F_CSUM_V3, 4096);
		sb[O_CSUM_TYPE] = types[i];
		sb_seal(sb);
		assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_CSUM);
		free(sb);
	}
	/* Without v2/v3 neither the type nor the checksum matters. */
	sb = make_sb(1024, 4, F_CHECKSUM, F_REVOKE, 4096);
	sb[O_CSUM_TYPE] = 1;
	w32(sb + O_CSUM, 0xBADC0FFE);
	assert_int_equal(decode(sb, 1024), 0);
	free(sb);
}

static void test_super_blocksize(void **state)
{
	unsigned char *sb;

	(void)state;
	sb = make_sb(4096, 4, 0, F_CSUM_V3, 4096);
	assert_int_equal(decode(sb, 4096), 0);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_BLOCKSIZE);
	assert_int_equal(decode(sb, 2048), RECOVER_ET_SB_BLOCKSIZE);
	assert_int_equal(decode(sb, 8192), RECOVER_ET_SB_BLOCKSIZE);
	free(sb);
	sb = make_sb(1024, 3, 0, 0, 4096);
	assert_int_equal(decode(sb, 1024), 0);
	assert_int_equal(decode(sb, 4096), RECOVER_ET_SB_BLOCKSIZE);
	free(sb);
	sb = make_sb(0, 4, 0, 0, 4096);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_BLOCKSIZE);
	free(sb);
}

/* With two faults, the one e2fsck checks first is the one reported. */
static void test_super_check_order(void **state)
{
	unsigned char *sb;

	(void)state;
	sb = make_sb(1024, 7, 0, 0, 4096);		/* bad type */
	w32(sb + O_MAGIC, 0);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_MAGIC_BAD);
	free(sb);
	sb = make_sb(1024, 9, 0, 0x40, 4096);		/* bad type, incompat */
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_TYPE);
	free(sb);
	sb = make_sb(1024, 4, 0, 0x40 | F_CSUM_V2 | F_CSUM_V3, 4096);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_UNSUPP_INCOMPAT);
	free(sb);
	sb = make_sb(1024, 4, 0, F_CSUM_V2 | F_CSUM_V3, 4096);
	w32(sb + O_CSUM, 1);				/* conflict, bad csum */
	assert_int_equal(decode(sb, 1024), RECOVER_ET_CSUM_CONFLICT);
	free(sb);
	sb = make_sb(1024, 4, 0, F_CSUM_V3, 4096);
	w32(sb + O_CSUM, 1);				/* bad csum, blocksize */
	assert_int_equal(decode(sb, 4096), RECOVER_ET_SB_CSUM);
	free(sb);
}

static void test_super_fast_commit(void **state)
{
	unsigned char *sb;
	struct jsuper js;

	(void)state;
	/* s_num_fc_blks 0 means 256. */
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT | F_CSUM_V3, 4096);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(js.pub.num_fc_blocks, 256);
	assert_int_equal(js.pub.maxlen, 4096);
	assert_int_equal(js.last, 4096 - 256);
	free(sb);

	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 4096);
	w32(sb + O_NUM_FC, 100);
	sb_seal(sb);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(js.pub.num_fc_blocks, 100);
	assert_int_equal(js.last, 3996);
	free(sb);

	/* The normal log must keep at least 1024 blocks. */
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 1024 + 256);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(js.last, 1024);
	free(sb);
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 1024 + 255);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_GEOMETRY);
	free(sb);
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 2000);
	w32(sb + O_NUM_FC, 977);
	sb_seal(sb);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_GEOMETRY);
	w32(sb + O_NUM_FC, 976);
	sb_seal(sb);
	assert_int_equal(decode(sb, 1024), 0);
	free(sb);
	/* More fast-commit blocks than the journal has: no wrap-around. */
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 100);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_GEOMETRY);
	free(sb);
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 4096);
	w32(sb + O_NUM_FC, 0xFFFFFFFFU);
	sb_seal(sb);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_GEOMETRY);
	free(sb);

	/* Without the feature s_num_fc_blks means nothing. */
	sb = make_sb(1024, 4, 0, F_REVOKE, 4096);
	w32(sb + O_NUM_FC, 100);
	sb_seal(sb);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(js.pub.num_fc_blocks, 0);
	assert_int_equal(js.last, 4096);
	free(sb);
}

static void test_super_set_csum(void **state)
{
	unsigned char *sb, *copy;
	struct jsuper js;

	(void)state;
	sb = make_sb(1024, 4, 0, F_CSUM_V3 | F_64BIT, 4096);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	/* What e2fsck does after replay: s_start 0, a new sequence. */
	w32(sb + O_START, 0);
	w32(sb + O_SEQUENCE, 0x1236);
	assert_int_equal(decode(sb, 1024), RECOVER_ET_SB_CSUM);
	jbd2_super_set_csum(&js, sb);
	assert_int_equal(decode(sb, 1024), 0);
	copy = malloc(SB_BYTES);
	assert_non_null(copy);
	memcpy(copy, sb, SB_BYTES);
	sb_seal(copy);
	assert_memory_equal(sb, copy, SB_BYTES);
	free(sb);

	/* Without v2/v3 the checksum field is left alone. */
	sb = make_sb(1024, 4, 0, F_64BIT, 4096);
	w32(sb + O_CSUM, 0xA5A5A5A5U);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	jbd2_super_set_csum(&js, sb);
	assert_int_equal(r32(sb + O_CSUM), 0xA5A5A5A5U);
	free(copy);
	free(sb);
}

/* ---- jbd2_reset_super ---------------------------------------------------- */

/*
 * Reset a copy of sb (1024 bytes, in a block of bs bytes filled past them
 * with 0xA5) as a replay ending with how would.  Returns the block.
 */
static unsigned char *reset_copy(const unsigned char *sb, unsigned int bs,
				 const struct jbd2_reset *how, int *fs_error)
{
	unsigned char *b = malloc(bs);
	struct jsuper js;

	assert_non_null(b);
	memset(b, 0xA5, bs);
	memcpy(b, sb, SB_BYTES);
	assert_int_equal(jbd2_decode_super(b, bs, &js), 0);
	*fs_error = jbd2_reset_super(&js, b, how);
	return b;
}

/* A v2 superblock with these features and a log from start, sealed. */
static unsigned char *logged_sb(uint32_t incompat, uint32_t start)
{
	unsigned char *sb = make_sb(1024, 4, 0, incompat, 8192);

	w32(sb + O_START, start);
	sb_seal(sb);
	return sb;
}

/* A reset block: the log emptied, this s_sequence, no s_errno, sealed. */
static void assert_emptied(const unsigned char *b, uint32_t sequence)
{
	assert_int_equal(r32(b + O_START), 0);
	assert_int_equal(r32(b + O_SEQUENCE), sequence);
	assert_int_equal(r32(b + O_ERRNO), 0);
	assert_int_equal(decode((unsigned char *)b, 1024), 0);
}

/* After a good replay: s_start 0, s_sequence end_tid + 1, sealed again;
 * nothing else changes, and the result decodes as such. */
static void test_reset_replayed(void **state)
{
	static const uint32_t feats[] = { 0, F_CSUM_V2, F_CSUM_V3 | F_64BIT };
	const struct jbd2_reset how = {
		.had_log = 1, .replayed = 1, .end_tid = 0x1240,
	};
	size_t f;

	(void)state;
	for (f = 0; f < 3; f++) {
		unsigned char *sb = logged_sb(feats[f], 17);
		unsigned char *b, *want;
		struct jsuper before, after;
		int fs_error = -1;

		assert_int_equal(jbd2_decode_super(sb, 1024, &before), 0);
		b = reset_copy(sb, 1024, &how, &fs_error);
		assert_int_equal(fs_error, 0);

		want = malloc(SB_BYTES);
		assert_non_null(want);
		memcpy(want, sb, SB_BYTES);
		w32(want + O_START, 0);
		w32(want + O_SEQUENCE, 0x1241);
		if (feats[f])
			sb_seal(want);
		assert_memory_equal(b, want, SB_BYTES);

		assert_emptied(b, 0x1241);
		assert_int_equal(jbd2_decode_super(b, 1024, &after), 0);
		assert_int_equal(after.pub.start, 0);
		assert_int_equal(after.pub.sequence, 0x1241);
		assert_int_equal(after.pub.errnum, 0);
		assert_int_equal(after.pub.maxlen, before.pub.maxlen);
		assert_int_equal(after.pub.feature_incompat,
				 before.pub.feature_incompat);
		assert_memory_equal(after.pub.uuid, before.pub.uuid, 16);
		free(want);
		free(b);
		free(sb);
	}
}

/* The tid wraps: s_sequence after tid 0xFFFFFFFF is 0. */
static void test_reset_sequence_wraps(void **state)
{
	const struct jbd2_reset how = {
		.had_log = 1, .replayed = 1, .end_tid = 0xFFFFFFFFU,
	};
	unsigned char *sb = logged_sb(F_CSUM_V3, 1);
	unsigned char *b;
	int fs_error;

	(void)state;
	b = reset_copy(sb, 1024, &how, &fs_error);
	assert_emptied(b, 0);
	free(b);
	free(sb);
}

/*
 * A corrupt commit block: s_errno -EINVAL, which the journal check then
 * hands to the filesystem and clears.  Not after a failed replay: then
 * s_sequence stays and nothing is said about commits.
 */
static void test_reset_failed_commit(void **state)
{
	struct jbd2_reset how = {
		.had_log = 1, .replayed = 1, .end_tid = 9, .failed_commit = 1,
	};
	unsigned char *sb = logged_sb(F_CSUM_V2, 3);
	unsigned char *b;
	int fs_error = 0;

	(void)state;
	b = reset_copy(sb, 1024, &how, &fs_error);
	assert_int_equal(fs_error, 1);
	assert_emptied(b, 10);
	free(b);

	how.replayed = 0;
	b = reset_copy(sb, 1024, &how, &fs_error);
	assert_int_equal(fs_error, 0);
	assert_emptied(b, 0x1234);
	free(b);
	free(sb);
}

/*
 * What else the reset writes, byte for byte: a failed replay keeps
 * s_sequence; without a log only s_errno goes; an s_errno already there
 * (-EIO) is handed on and cleared; with neither the superblock is written
 * back as it was.
 */
static void test_reset_errno(void **state)
{
	static const struct {
		int had_log, replayed;
		uint32_t start, errnum;
		int fs_error;
	} c[] = {
		{ 1, 0, 40, (uint32_t)-5, 1 },
		{ 1, 0, 40, 0, 0 },
		{ 0, 1, 0, (uint32_t)-5, 1 },
		{ 0, 1, 0, 0, 0 },
	};
	unsigned char *want = malloc(SB_BYTES);
	size_t i;

	(void)state;
	assert_non_null(want);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct jbd2_reset how = {
			.had_log = c[i].had_log, .replayed = c[i].replayed,
			.end_tid = 0x5000,
		};
		unsigned char *sb = logged_sb(F_CSUM_V3, c[i].start);
		unsigned char *b;
		int fs_error = -1;

		w32(sb + O_ERRNO, c[i].errnum);
		sb_seal(sb);
		b = reset_copy(sb, 1024, &how, &fs_error);
		assert_int_equal(fs_error, c[i].fs_error);
		memcpy(want, sb, SB_BYTES);
		w32(want + O_START, 0);
		w32(want + O_ERRNO, 0);
		sb_seal(want);
		assert_memory_equal(b, want, SB_BYTES);
		if (!c[i].had_log && !c[i].errnum)
			assert_memory_equal(b, sb, SB_BYTES);
		free(b);
		free(sb);
	}
	free(want);
}

/* A v1 superblock with bytes set in what would be v2 fields loses
 * everything after s_errno, to the end of the block; without them the
 * block is left alone past s_start and s_sequence. */
static void test_reset_v1(void **state)
{
	const struct jbd2_reset how = {
		.had_log = 1, .replayed = 1, .end_tid = 77,
	};
	static const unsigned int field[] = { O_COMPAT, O_INCOMPAT, O_ROCOMPAT,
					      O_NR_USERS };
	unsigned char *sb = make_sb(4096, 3, 0, 0, 8192);
	unsigned char *b;
	size_t i, j;
	int fs_error;

	(void)state;
	w32(sb + O_START, 2);
	w32(sb + O_NR_USERS, 0);
	for (i = 0; i < 4; i++) {
		w32(sb + field[i], 0x40);
		b = reset_copy(sb, 4096, &how, &fs_error);
		assert_int_equal(fs_error, 0);
		assert_int_equal(r32(b + O_START), 0);
		assert_int_equal(r32(b + O_SEQUENCE), 78);
		assert_int_equal(r32(b + O_MAXLEN), 8192);
		for (j = 36; j < 4096; j++)
			assert_int_equal(b[j], 0);
		free(b);
		w32(sb + field[i], 0);
	}

	/* No v2 field set: the uuid, the checksum type and the filler
	 * past the 1024 bytes stay. */
	b = reset_copy(sb, 4096, &how, &fs_error);
	assert_int_equal(r32(b + O_START), 0);
	assert_int_equal(r32(b + O_SEQUENCE), 78);
	assert_memory_equal(b + O_UUID, test_uuid, 16);
	assert_memory_equal(b + 36, sb + 36, SB_BYTES - 36);
	assert_int_equal(b[SB_BYTES], 0xA5);
	assert_int_equal(b[4095], 0xA5);
	free(b);
	free(sb);
}

/* jbd2_super_version: the magic and one of the two superblock types. */
static void test_super_version(void **state)
{
	unsigned char *sb = make_sb(1024, 4, 0, 0, 8192);

	(void)state;
	assert_int_equal(jbd2_super_version(sb), 2);
	w32(sb + O_TYPE, 3);
	assert_int_equal(jbd2_super_version(sb), 1);
	w32(sb + O_TYPE, 2);
	assert_int_equal(jbd2_super_version(sb), 0);
	w32(sb + O_TYPE, 5);
	assert_int_equal(jbd2_super_version(sb), 0);
	w32(sb + O_TYPE, 4);
	sb[0] ^= 1;
	assert_int_equal(jbd2_super_version(sb), 0);
	free(sb);
}

/* ---- jbd2_check_geometry ------------------------------------------------- */

static errcode_t geometry(uint32_t incompat, uint32_t maxlen, uint32_t first,
			  uint32_t start, uint64_t have)
{
	unsigned char *sb = make_sb(1024, 4, 0, incompat, maxlen);
	struct jsuper js;
	errcode_t err;

	w32(sb + O_FIRST, first);
	w32(sb + O_START, start);
	sb_seal(sb);
	err = jbd2_decode_super(sb, 1024, &js);
	free(sb);
	assert_int_equal(err, 0);
	return jbd2_check_geometry(&js, have, 0);
}

static void test_geometry(void **state)
{
	(void)state;
	assert_int_equal(geometry(0, 4096, 1, 0, 4096), 0);
	assert_int_equal(geometry(0, 4096, 1, 0, 100000), 0);
	/* The superblock claims more blocks than the journal has. */
	assert_int_equal(geometry(0, 4096, 1, 0, 4095),
			 RECOVER_ET_JOURNAL_SHORT);
	assert_int_equal(geometry(0, 4096, 1, 0, 0), RECOVER_ET_JOURNAL_SHORT);
	/* s_first: neither 0 nor at/after the log's end. */
	assert_int_equal(geometry(0, 4096, 0, 0, 4096), RECOVER_ET_SB_GEOMETRY);
	assert_int_equal(geometry(0, 4096, 4096, 0, 4096),
			 RECOVER_ET_SB_GEOMETRY);
	assert_int_equal(geometry(0, 4096, 5000, 0, 8192),
			 RECOVER_ET_SB_GEOMETRY);
	assert_int_equal(geometry(0, 4096, 0xFFFFFFFFU, 0, 8192),
			 RECOVER_ET_SB_GEOMETRY);
	assert_int_equal(geometry(0, 4096, 4095, 0, 4096), 0);
	/* s_start: 0 (clean), or inside [s_first, last). */
	assert_int_equal(geometry(0, 4096, 10, 0, 4096), 0);
	assert_int_equal(geometry(0, 4096, 10, 10, 4096), 0);
	assert_int_equal(geometry(0, 4096, 10, 4095, 4096), 0);
	assert_int_equal(geometry(0, 4096, 10, 9, 4096), RECOVER_ET_SB_START);
	assert_int_equal(geometry(0, 4096, 10, 1, 4096), RECOVER_ET_SB_START);
	assert_int_equal(geometry(0, 4096, 10, 4096, 4096),
			 RECOVER_ET_SB_START);
	assert_int_equal(geometry(0, 4096, 10, 0xFFFFFFFFU, 4096),
			 RECOVER_ET_SB_START);
	/* With fast commit the log ends where the fast-commit area begins. */
	assert_int_equal(geometry(F_FAST_COMMIT, 4096, 1, 3839, 4096), 0);
	assert_int_equal(geometry(F_FAST_COMMIT, 4096, 1, 3840, 4096),
			 RECOVER_ET_SB_START);
	assert_int_equal(geometry(F_FAST_COMMIT, 4096, 3840, 0, 4096),
			 RECOVER_ET_SB_GEOMETRY);
	assert_int_equal(geometry(F_FAST_COMMIT, 4096, 3839, 0, 4096), 0);
	/* s_maxlen counts the fast-commit area. */
	assert_int_equal(geometry(F_FAST_COMMIT, 4096, 1, 0, 3840),
			 RECOVER_ET_JOURNAL_SHORT);
}

/* A dump may be shorter than s_maxlen; the other checks still hold. */
static void test_geometry_short_dump(void **state)
{
	unsigned char *sb = make_sb(1024, 4, 0, 0, 4096);
	struct jsuper js;

	(void)state;
	w32(sb + O_FIRST, 1);
	w32(sb + O_START, 100);
	sb_seal(sb);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(jbd2_check_geometry(&js, 50, 0),
			 RECOVER_ET_JOURNAL_SHORT);
	assert_int_equal(jbd2_check_geometry(&js, 50, 1), 0);
	w32(sb + O_START, 4096);
	sb_seal(sb);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(jbd2_check_geometry(&js, 50, 1), RECOVER_ET_SB_START);
	free(sb);
}

/* ---- descriptor tags ------------------------------------------------------ */

struct fmt {
	const char	*name;
	uint32_t	incompat;
	unsigned int	tag_bytes;	/* as the notes give it */
	unsigned int	tail;
	int		b64, v2, v3;
};

static const struct fmt fmts[] = {
	{ "plain", 0, 8, 0, 0, 0, 0 },
	{ "64bit", F_64BIT, 12, 0, 1, 0, 0 },
	{ "csum2", F_CSUM_V2, 10, 4, 0, 1, 0 },
	{ "csum2+64bit", F_CSUM_V2 | F_64BIT, 14, 4, 1, 1, 0 },
	{ "csum3", F_CSUM_V3, 16, 4, 0, 0, 1 },
	{ "csum3+64bit", F_CSUM_V3 | F_64BIT, 16, 4, 1, 0, 1 },
};
#define NFMTS (sizeof(fmts) / sizeof(fmts[0]))

/*
 * One tag in the notes' layout.  v3: blocknr, flags be32, blocknr_high,
 * checksum be32.  Otherwise: blocknr, checksum be16, flags be16,
 * [blocknr_high].  Returns the bytes written, UUID included.
 */
static unsigned int put_tag(const struct fmt *f, unsigned char *p,
			    uint64_t blocknr, uint16_t flags, uint32_t csum)
{
	w32(p, (uint32_t)blocknr);
	if (f->v3) {
		w32(p + 4, flags);
		w32(p + 8, (uint32_t)(blocknr >> 32));
		w32(p + 12, csum);
	} else {
		w16(p + 4, (uint16_t)csum);
		w16(p + 6, flags);
		if (f->b64)
			w32(p + 8, (uint32_t)(blocknr >> 32));
	}
	if (flags & 0x2)
		return f->tag_bytes;
	memcpy(p + f->tag_bytes, test_uuid, 16);
	return f->tag_bytes + 16;
}

static unsigned char *new_block(unsigned int bs, uint32_t type, uint32_t tid)
{
	unsigned char *b = malloc(bs);

	assert_non_null(b);
	memset(b, 0xA5, bs);
	w32(b, MAGIC);
	w32(b + 4, type);
	w32(b + 8, tid);
	return b;
}

/* Every tag of a descriptor, at most max of them. */
static size_t all_tags(const struct jsuper *js, const unsigned char *blk,
		       struct jbd2_tag *out, size_t max)
{
	unsigned int pos = 0;
	size_t n = 0;
	struct jbd2_tag tag;

	while (jbd2_next_tag(js, blk, &pos, &tag)) {
		assert_true(n < max);
		out[n++] = tag;
	}
	/* Once done, it stays done. */
	assert_int_equal(jbd2_next_tag(js, blk, &pos, &tag), 0);
	return n;
}

static void test_tags_plain(void **state)
{
	const struct fmt *f = &fmts[0];
	struct jsuper js;
	struct jbd2_tag t[8];
	unsigned char *b;
	unsigned int off = 12;

	(void)state;
	decode_ok(&js, 1024, f->incompat);
	b = new_block(1024, 1, 7);
	/* Checksum bytes set in a format without checksums: read as 0. */
	off += put_tag(f, b + off, 0x11223344, 0, 0xBEEF);
	off += put_tag(f, b + off, 0xFFFFFFFFU, 0x2, 0);
	off += put_tag(f, b + off, 0, 0x2 | 0x1, 0);
	off += put_tag(f, b + off, 5, 0x2 | 0x8, 0);
	/* After LAST_TAG: well-formed tags that must not be read. */
	off += put_tag(f, b + off, 6, 0x2, 0);
	put_tag(f, b + off, 7, 0x2 | 0x8, 0);
	assert_int_equal(all_tags(&js, b, t, 8), 4);
	assert_int_equal(t[0].blocknr, 0x11223344);
	assert_int_equal(t[0].flags, 0);
	assert_int_equal(t[0].csum, 0);
	/* The UUID after tag 0 is skipped; its bytes are not a high word. */
	assert_int_equal(t[1].blocknr, 0xFFFFFFFFU);
	assert_int_equal(t[1].flags, 0x2);
	assert_int_equal(t[2].blocknr, 0);
	assert_int_equal(t[2].flags, 0x3);
	assert_int_equal(t[3].blocknr, 5);
	assert_int_equal(t[3].flags, 0xA);
	free(b);
}

static void test_tags_64bit(void **state)
{
	static const uint64_t nrs[] = { 0x100000002ULL, 0xFFFFFFFFFFFFFFFFULL,
					0x0000ABCD00000000ULL, 42 };
	size_t i, k;

	(void)state;
	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];
		struct jsuper js;
		struct jbd2_tag t[8];
		unsigned char *b;
		unsigned int off = 12;

		decode_ok(&js, 4096, f->incompat);
		assert_int_equal(js.tag_bytes, f->tag_bytes);
		b = new_block(4096, 1, 7);
		for (k = 0; k < 4; k++)
			off += put_tag(f, b + off, nrs[k],
				       (k == 1 ? 0 : 0x2) | (k == 3 ? 0x8 : 0),
				       0);
		assert_int_equal(all_tags(&js, b, t, 8), 4);
		for (k = 0; k < 4; k++) {
			/* Without 64BIT the high word is not read. */
			uint64_t want = f->b64 ? nrs[k] : (uint32_t)nrs[k];

			assert_int_equal(t[k].blocknr, want);
		}
		free(b);
	}
}

/* A v3 tag's flags are a be32; only its low 16 bits (offset 6) count. */
static void test_tags_flags_all_formats(void **state)
{
	static const uint16_t flags[] = { 0x2, 0x3, 0x6, 0x7, 0xF2, 0x8002,
					  0x2 | 0x8 };
	size_t i, k;

	(void)state;
	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];
		const size_t n = sizeof(flags) / sizeof(flags[0]);
		struct jsuper js;
		struct jbd2_tag t[16];
		unsigned char *b;
		unsigned int off = 12;

		decode_ok(&js, 1024, f->incompat);
		b = new_block(1024, 1, 1);
		for (k = 0; k < n; k++) {
			unsigned int len = put_tag(f, b + off, 100 + k,
						   flags[k], 0xC0DE);

			/* Junk in the high half of a v3 be32 flags field. */
			if (f->v3)
				w16(b + off + 4, 0xFFF7);
			off += len;
		}
		assert_int_equal(all_tags(&js, b, t, 16), n);
		for (k = 0; k < n; k++) {
			assert_int_equal(t[k].flags, flags[k]);
			assert_int_equal(t[k].blocknr, 100 + k);
		}
		free(b);
	}
}

static void test_tags_uuid(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];
		struct jsuper js;
		struct jbd2_tag t[8];
		unsigned char *b;
		unsigned int off = 12;

		decode_ok(&js, 1024, f->incompat);
		b = new_block(1024, 1, 1);
		/* A UUID after the first and third tags, not the others. */
		off += put_tag(f, b + off, 1, 0, 0);
		off += put_tag(f, b + off, 2, 0x2, 0);
		off += put_tag(f, b + off, 3, 0x1, 0);
		off += put_tag(f, b + off, 4, 0x2, 0);
		put_tag(f, b + off, 5, 0x2 | 0x8, 0);
		assert_int_equal(all_tags(&js, b, t, 8), 5);
		assert_int_equal(t[0].blocknr, 1);
		assert_int_equal(t[1].blocknr, 2);
		assert_int_equal(t[2].blocknr, 3);
		assert_int_equal(t[2].flags, 0x1);
		assert_int_equal(t[3].blocknr, 4);
		assert_int_equal(t[4].blocknr, 5);
		assert_int_equal(t[4].flags, 0xA);
		free(b);
	}
}

static void test_tags_last_tag_first(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];
		struct jsuper js;
		struct jbd2_tag t[4];
		unsigned char *b;
		unsigned int off = 12;

		decode_ok(&js, 1024, f->incompat);
		b = new_block(1024, 1, 1);
		off += put_tag(f, b + off, 9, 0x8, 0);	/* UUID follows */
		put_tag(f, b + off, 10, 0x2, 0);
		assert_int_equal(all_tags(&js, b, t, 4), 1);
		assert_int_equal(t[0].blocknr, 9);
		assert_int_equal(t[0].flags, 0x8);
		free(b);
	}
}

/*
 * No LAST_TAG: tags run until the next would not fit before the checksum
 * tail.  Tags are written as far as the block itself holds them, tail
 * included, so a reader that forgot the tail would count more.
 */
static void test_tags_full_block(void **state)
{
	/* Counts per format (order of fmts): all SAME_UUID, and a UUID
	 * after the first tag; block sizes 1024 and 4096. */
	static const size_t want_same[2][NFMTS] = {
		{ 126, 84, 100, 72, 63, 63 },
		{ 510, 340, 408, 291, 255, 255 },
	};
	static const size_t want_uuid[2][NFMTS] = {
		{ 124, 83, 99, 70, 62, 62 },
		{ 508, 339, 406, 290, 254, 254 },
	};
	static const unsigned int sizes[2] = { 1024, 4096 };
	struct jbd2_tag *t = malloc(600 * sizeof(*t));
	size_t s, i, k, n, written;
	int uuid;

	(void)state;
	assert_non_null(t);
	for (s = 0; s < 2; s++) {
		unsigned int bs = sizes[s];

		for (i = 0; i < NFMTS; i++) {
			const struct fmt *f = &fmts[i];
			struct jsuper js;

			decode_ok(&js, bs, f->incompat);
			for (uuid = 0; uuid <= 1; uuid++) {
				unsigned char *b = new_block(bs, 1, 3);
				unsigned int off = 12;

				written = 0;
				while (off + f->tag_bytes +
				       (uuid && !written ? 16 : 0) <= bs) {
					uint16_t fl = 0x2;	/* SAME_UUID */

					if (uuid && !written)
						fl = 0;
					off += put_tag(f, b + off, written + 1,
						       fl, 0);
					written++;
				}
				n = all_tags(&js, b, t, 600);
				assert_int_equal(n, uuid ? want_uuid[s][i] :
						 want_same[s][i]);
				assert_true(n <= written);
				for (k = 0; k < n; k++)
					assert_int_equal(t[k].blocknr, k + 1);
				free(b);
			}
		}
	}
	free(t);
}

/* A tag that fits with its UUID cut off by the block end still counts. */
static void test_tags_uuid_past_end(void **state)
{
	const struct fmt *f = &fmts[0];
	struct jsuper js;
	struct jbd2_tag t[200];
	unsigned char *b;
	unsigned int off = 12;
	size_t n = 0;

	(void)state;
	decode_ok(&js, 1024, f->incompat);
	b = new_block(1024, 1, 3);
	while (off + 8 <= 1024 - 8) {
		off += put_tag(f, b + off, n + 1, 0x2, 0);
		n++;
	}
	/* off is 1012: the last tag ends at 1020, its UUID would not fit. */
	assert_int_equal(off, 1012);
	w32(b + off, (uint32_t)n + 1);
	w16(b + off + 4, 0);
	w16(b + off + 6, 0);
	n++;
	assert_int_equal(all_tags(&js, b, t, 200), n);
	assert_int_equal(t[n - 1].blocknr, n);
	assert_int_equal(t[n - 1].flags, 0);
	free(b);
}

static void test_tags_csum(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];
		struct jsuper js;
		struct jbd2_tag t[4];
		unsigned char *b;
		unsigned int off = 12;

		decode_ok(&js, 1024, f->incompat);
		b = new_block(1024, 1, 1);
		off += put_tag(f, b + off, 1, 0x2, 0x8765ABCDU);
		put_tag(f, b + off, 2, 0x2 | 0x8, 0x0000FFFFU);
		assert_int_equal(all_tags(&js, b, t, 4), 2);
		if (f->v3) {
			assert_int_equal(t[0].csum, 0x8765ABCDU);
			assert_int_equal(t[1].csum, 0x0000FFFFU);
		} else if (f->v2) {
			assert_int_equal(t[0].csum, 0xABCD);
			assert_int_equal(t[1].csum, 0xFFFF);
		} else {
			assert_int_equal(t[0].csum, 0);
			assert_int_equal(t[1].csum, 0);
		}
		assert_int_equal(t[0].blocknr, 1);
		assert_int_equal(t[1].blocknr, 2);
		free(b);
	}
}

/* ---- block checksums ------------------------------------------------------ */

/* Tail = crc32c(seed, the block with the tail zeroed). */
static void seal_tail(unsigned char *b, unsigned int bs, uint32_t seed)
{
	memset(b + bs - 4, 0, 4);
	w32(b + bs - 4, crc32c(seed, b, bs));
}

/* h_chksum[0] = crc32c(seed, the block with h_chksum[0] zeroed). */
static void seal_commit(unsigned char *b, unsigned int bs, uint32_t seed)
{
	memset(b + 16, 0, 4);
	w32(b + 16, crc32c(seed, b, bs));
}

static void test_block_csum(void **state)
{
	static const uint32_t feats[] = { F_CSUM_V2, F_CSUM_V3,
					  F_CSUM_V3 | F_64BIT };
	static const unsigned int sizes[] = { 1024, 4096 };
	size_t f, s, i;

	(void)state;
	for (f = 0; f < 3; f++) {
		for (s = 0; s < 2; s++) {
			unsigned int bs = sizes[s];
			unsigned int flip[] = { 0, 5, 12, 100, bs / 2, bs - 5,
						bs - 4, bs - 1 };
			uint32_t type = (s + f) % 2 ? 5 : 1;
			unsigned char *b = new_block(bs, type, 77);
			struct jsuper js;

			decode_ok(&js, bs, feats[f]);
			assert_int_equal(js.csum_seed, uuid_seed(test_uuid));
			fill_random(b + 12, bs - 12, (uint32_t)(f * 2 + s));
			seal_tail(b, bs, uuid_seed(test_uuid));
			assert_true(jbd2_block_csum_ok(&js, b));
			for (i = 0; i < sizeof(flip) / sizeof(flip[0]); i++) {
				b[flip[i]] ^= 0x01;
				assert_false(jbd2_block_csum_ok(&js, b));
				b[flip[i]] ^= 0x01;
				assert_true(jbd2_block_csum_ok(&js, b));
			}
			/* Another journal's seed. */
			seal_tail(b, bs, uuid_seed(test_uuid) ^ 1);
			assert_false(jbd2_block_csum_ok(&js, b));
			/* The tail is not included in its own checksum. */
			w32(b + bs - 4, crc32c(uuid_seed(test_uuid), b, bs));
			assert_false(jbd2_block_csum_ok(&js, b));
			free(b);
		}
	}
}

static void test_block_csum_none(void **state)
{
	static const uint32_t feats[] = { 0, F_64BIT, F_REVOKE | F_ASYNC };
	size_t f;

	(void)state;
	for (f = 0; f < 3; f++) {
		unsigned char *b = new_block(1024, 1, 1);
		struct jsuper js;

		decode_ok(&js, 1024, feats[f]);
		fill_random(b + 12, 1024 - 12, 9);
		assert_true(jbd2_block_csum_ok(&js, b));
		assert_true(jbd2_commit_csum_ok(&js, b));
		assert_true(jbd2_data_csum_ok(&js, 5, b, 0));
		assert_true(jbd2_data_csum_ok(&js, 5, b, 0x12345678));
		free(b);
	}
}

static void test_commit_csum(void **state)
{
	static const uint32_t feats[] = { F_CSUM_V2, F_CSUM_V3,
					  F_CSUM_V3 | F_64BIT | F_ASYNC };
	size_t f, i;

	(void)state;
	for (f = 0; f < 3; f++) {
		const unsigned int bs = f == 1 ? 1024 : 4096;
		const unsigned int flip[] = { 0, 8, 12, 13, 16, 19, 20, 47, 48,
					      56, 60, bs - 4, bs - 1 };
		unsigned char *b = new_block(bs, 2, 0xFFFFFFFFU);
		struct jsuper js;

		decode_ok(&js, bs, feats[f]);
		memset(b + 12, 0, bs - 12);
		b[12] = 4;			/* h_chksum_type: crc32c */
		b[13] = 4;			/* h_chksum_size */
		fill_random(b + 20, 28, 3);	/* rest of h_chksum[] */
		w64(b + 48, 1700000000ULL);	/* h_commit_sec */
		w32(b + 56, 123456789);		/* h_commit_nsec */
		fill_random(b + 60, bs - 60, 4);
		seal_commit(b, bs, uuid_seed(test_uuid));
		assert_true(jbd2_commit_csum_ok(&js, b));
		for (i = 0; i < sizeof(flip) / sizeof(flip[0]); i++) {
			b[flip[i]] ^= 0x80;
			assert_false(jbd2_commit_csum_ok(&js, b));
			b[flip[i]] ^= 0x80;
		}
		assert_true(jbd2_commit_csum_ok(&js, b));
		seal_commit(b, bs, ~0U);	/* no seed */
		assert_false(jbd2_commit_csum_ok(&js, b));
		free(b);
	}
}

/*
 * A commit block as bytes: tid 0x89ABCDEF, h_chksum_type 1, h_chksum_size
 * 4, two bytes of padding, h_chksum[0] 0xDEADBEEF and seven more words,
 * h_commit_sec 0x0000000165A0BC00, h_commit_nsec 999999999 (0x3B9AC9FF).
 */
static const unsigned char commit_bytes[60] = {
	0xC0, 0x3B, 0x39, 0x98, 0x00, 0x00, 0x00, 0x02,
	0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x04, 0x5A, 0x5A,
	0xDE, 0xAD, 0xBE, 0xEF, 0x11, 0x11, 0x11, 0x11,
	0x22, 0x22, 0x22, 0x22, 0x33, 0x33, 0x33, 0x33,
	0x44, 0x44, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55,
	0x66, 0x66, 0x66, 0x66, 0x77, 0x77, 0x77, 0x77,
	0x00, 0x00, 0x00, 0x01, 0x65, 0xA0, 0xBC, 0x00,
	0x3B, 0x9A, 0xC9, 0xFF,
};

static void test_commit_decode_bytes(void **state)
{
	unsigned char *b = new_block(1024, 2, 0);
	struct jbd2_commit c;

	(void)state;
	memcpy(b, commit_bytes, sizeof(commit_bytes));
	memset(&c, 0xEE, sizeof(c));
	jbd2_decode_commit(b, &c);
	assert_int_equal(c.tid, 0x89ABCDEFU);
	assert_int_equal(c.csum_type, 1);
	assert_int_equal(c.csum_size, 4);
	assert_int_equal(c.csum, 0xDEADBEEFU);
	assert_true(c.sec == 0x0000000165A0BC00ULL);
	assert_int_equal(c.nsec, 999999999U);

	/* Padding, the other checksum words and the rest of the block are
	 * no field. */
	b[14] = b[15] = 0xFF;
	memset(b + 20, 0xC3, 28);
	fill_random(b + 60, 1024 - 60, 8);
	{
		struct jbd2_commit d;

		memset(&d, 0, sizeof(d));
		jbd2_decode_commit(b, &d);
		assert_int_equal(d.tid, c.tid);
		assert_int_equal(d.csum_type, c.csum_type);
		assert_int_equal(d.csum_size, c.csum_size);
		assert_int_equal(d.csum, c.csum);
		assert_true(d.sec == c.sec);
		assert_int_equal(d.nsec, c.nsec);
	}
	free(b);
}

/* Fields written at the offsets doc/jbd2-format.md gives come back. */
static void test_commit_decode_fields(void **state)
{
	static const struct {
		uint32_t tid;
		unsigned char type, size;
		uint32_t csum;
		uint64_t sec;
		uint32_t nsec;
	} v[] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 1, 4, 4, 0x01020304U, 1700000000ULL, 123456789 },
		{ 0xFFFFFFFFU, 0xFF, 0xFF, 0xFFFFFFFFU, ~0ULL, 0xFFFFFFFFU },
		{ 0x80000000U, 1, 4, 0x80000001U, 0x8000000000000001ULL, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		unsigned char *b = new_block(4096, 2, v[i].tid);
		struct jbd2_commit c;

		b[12] = v[i].type;
		b[13] = v[i].size;
		w32(b + 16, v[i].csum);
		w64(b + 48, v[i].sec);
		w32(b + 56, v[i].nsec);
		jbd2_decode_commit(b, &c);
		assert_int_equal(c.tid, v[i].tid);
		assert_int_equal(c.csum_type, v[i].type);
		assert_int_equal(c.csum_size, v[i].size);
		assert_int_equal(c.csum, v[i].csum);
		assert_true(c.sec == v[i].sec);
		assert_int_equal(c.nsec, v[i].nsec);
		free(b);
	}
}

/* Data tag checksum: crc32c(crc32c(seed, be32 tid), block as logged). */
static uint32_t data_csum(uint32_t tid, const unsigned char *data,
			  unsigned int bs)
{
	unsigned char seq[4];

	w32(seq, tid);
	return crc32c(crc32c(uuid_seed(test_uuid), seq, 4), data, bs);
}

static void test_data_csum(void **state)
{
	static const uint32_t tids[] = { 0, 1, 0x12345678, 0xFFFFFFFFU };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tids) / sizeof(tids[0]); i++) {
		const unsigned int bs = i % 2 ? 4096 : 1024;
		unsigned char *d = malloc(bs);
		struct jsuper v2, v3;
		uint32_t tid = tids[i], c;

		assert_non_null(d);
		fill_random(d, bs, 100 + (uint32_t)i);
		/* Escaped blocks are summed as logged: magic zeroed. */
		if (i == 2)
			memset(d, 0, 4);
		decode_ok(&v2, bs, F_CSUM_V2 | F_64BIT);
		decode_ok(&v3, bs, F_CSUM_V3 | F_64BIT);
		c = data_csum(tid, d, bs);
		/* The high half matters to the v2/v3 tests below. */
		assert_true(c >> 16);
		assert_true((c & 0xFFFF) != c >> 16);

		assert_true(jbd2_data_csum_ok(&v3, tid, d, c));
		assert_false(jbd2_data_csum_ok(&v3, tid, d, c & 0xFFFF));
		assert_false(jbd2_data_csum_ok(&v3, tid, d, c ^ 0x80000000U));
		assert_false(jbd2_data_csum_ok(&v3, tid + 1, d, c));
		/* tid as big-endian: a byte-swapped tid gives another sum. */
		if (tid != __builtin_bswap32(tid))
			assert_false(jbd2_data_csum_ok(&v3,
						       __builtin_bswap32(tid),
						       d, c));

		assert_true(jbd2_data_csum_ok(&v2, tid, d, c & 0xFFFF));
		assert_false(jbd2_data_csum_ok(&v2, tid, d, c >> 16));
		assert_false(jbd2_data_csum_ok(&v2, tid, d, c));
		assert_false(jbd2_data_csum_ok(&v2, tid - 1, d, c & 0xFFFF));

		d[bs - 1] ^= 0x20;
		assert_false(jbd2_data_csum_ok(&v3, tid, d, c));
		assert_false(jbd2_data_csum_ok(&v2, tid, d, c & 0xFFFF));
		d[bs - 1] ^= 0x20;
		d[0] ^= 0x01;
		assert_false(jbd2_data_csum_ok(&v3, tid, d, c));
		d[0] ^= 0x01;
		assert_true(jbd2_data_csum_ok(&v3, tid, d, c));
		free(d);
	}
}

/* ---- revoke blocks ------------------------------------------------------ */

static void test_revoke_extent(void **state)
{
	static const struct {
		uint32_t	incompat;
		unsigned int	bs, max;
	} cases[] = {
		{ 0, 1024, 1024 },
		{ F_64BIT, 4096, 4096 },
		{ F_CSUM_V2, 1024, 1020 },
		{ F_CSUM_V3 | F_64BIT, 4096, 4092 },
		{ F_CSUM_V3, 1024, 1020 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int bs = cases[i].bs, max = cases[i].max;
		unsigned char *b = new_block(bs, 5, 1);
		struct jbd2_revoke_iter it;
		struct jsuper js;
		uint64_t blk;

		decode_ok(&js, bs, cases[i].incompat);
		w32(b + 12, max);
		assert_int_equal(jbd2_revoke_begin(&js, b, &it), 0);
		assert_int_equal(it.end, max);
		assert_int_equal(jbd2_revoke_count(&it),
				 (max - 16) / js.revoke_rec);
		w32(b + 12, max + 1);
		assert_int_equal(jbd2_revoke_begin(&js, b, &it),
				 RECOVER_ET_REVOKE_COUNT);
		assert_int_equal(jbd2_revoke_count(&it), 0);
		assert_int_equal(jbd2_revoke_next(&it, &blk), 0);
		w32(b + 12, 16);
		assert_int_equal(jbd2_revoke_begin(&js, b, &it), 0);
		assert_int_equal(it.end, 16);
		assert_int_equal(jbd2_revoke_next(&it, &blk), 0);
		w32(b + 12, 0);
		assert_int_equal(jbd2_revoke_begin(&js, b, &it), 0);
		assert_int_equal(it.end, 0);
		assert_int_equal(jbd2_revoke_count(&it), 0);
		assert_int_equal(jbd2_revoke_next(&it, &blk), 0);
		w32(b + 12, 0xFFFFFFFFU);
		assert_int_equal(jbd2_revoke_begin(&js, b, &it),
				 RECOVER_ET_REVOKE_COUNT);
		w32(b + 12, 0x00010000U | max);	/* a high byte set */
		assert_int_equal(jbd2_revoke_begin(&js, b, &it),
				 RECOVER_ET_REVOKE_COUNT);
		/* A record cut by r_count is not one. */
		w32(b + 12, 16 + js.revoke_rec + 1);
		assert_int_equal(jbd2_revoke_begin(&js, b, &it), 0);
		assert_int_equal(jbd2_revoke_count(&it), 1);
		assert_int_equal(jbd2_revoke_next(&it, &blk), 1);
		assert_int_equal(jbd2_revoke_next(&it, &blk), 0);
		free(b);
	}
}

static void test_revoke_records(void **state)
{
	struct jsuper js32, js64;
	struct jbd2_revoke_iter it;
	unsigned char *b;
	unsigned int off;
	uint64_t blk;
	size_t n;

	(void)state;
	/* 8-byte records: the notes' 509 in a 4 KiB csum block. */
	decode_ok(&js64, 4096, F_64BIT | F_CSUM_V3 | F_REVOKE);
	assert_int_equal(js64.revoke_rec, 8);
	b = new_block(4096, 5, 10);
	for (off = 16, n = 0; off + 8 <= 4092; off += 8, n++)
		w64(b + off, 0x0102030405060708ULL * (n + 1));
	w32(b + 12, 4092);
	assert_int_equal(jbd2_revoke_begin(&js64, b, &it), 0);
	assert_int_equal(jbd2_revoke_count(&it), 509);
	for (n = 0; jbd2_revoke_next(&it, &blk); n++)
		assert_int_equal(blk, 0x0102030405060708ULL * (n + 1));
	assert_int_equal(n, 509);
	w64(b + 16, 0xFFFFFFFFFFFFFFFFULL);
	w64(b + 24, 0x00000001FFFFFFFEULL);
	assert_int_equal(jbd2_revoke_begin(&js64, b, &it), 0);
	assert_int_equal(jbd2_revoke_next(&it, &blk), 1);
	assert_int_equal(blk, UINT64_MAX);
	assert_int_equal(jbd2_revoke_next(&it, &blk), 1);
	assert_int_equal(blk, 0x1FFFFFFFEULL);
	free(b);

	/* 4-byte records: only 4 bytes are read. */
	decode_ok(&js32, 1024, F_REVOKE);
	assert_int_equal(js32.revoke_rec, 4);
	b = new_block(1024, 5, 10);
	w32(b + 16, 0xDEADBEEFU);
	w32(b + 20, 0x00000001U);
	w32(b + 24, 0xFFFFFFFFU);
	w32(b + 12, 28);
	assert_int_equal(jbd2_revoke_begin(&js32, b, &it), 0);
	assert_int_equal(jbd2_revoke_next(&it, &blk), 1);
	assert_int_equal(blk, 0xDEADBEEFU);
	assert_int_equal(jbd2_revoke_next(&it, &blk), 1);
	assert_int_equal(blk, 1);
	assert_int_equal(jbd2_revoke_next(&it, &blk), 1);
	assert_int_equal(blk, 0xFFFFFFFFU);
	assert_int_equal(jbd2_revoke_next(&it, &blk), 0);
	/* The last record of a full 1 KiB block without a tail. */
	w32(b + 1020, 0x0A0B0C0DU);
	w32(b + 12, 1024);
	assert_int_equal(jbd2_revoke_begin(&js32, b, &it), 0);
	for (n = 0; jbd2_revoke_next(&it, &blk); n++)
		;
	assert_int_equal(n, 252);
	assert_int_equal(blk, 0x0A0B0C0DU);
	free(b);
}

/* ---- log position and tids --------------------------------------------- */

static void test_log_next(void **state)
{
	unsigned char *sb;
	struct jsuper js;

	(void)state;
	sb = make_sb(1024, 4, 0, 0, 2048);
	w32(sb + O_FIRST, 5);
	sb_seal(sb);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(jbd2_log_next(&js, 5), 6);
	assert_int_equal(jbd2_log_next(&js, 1000), 1001);
	assert_int_equal(jbd2_log_next(&js, 2046), 2047);
	assert_int_equal(jbd2_log_next(&js, 2047), 5);
	free(sb);

	/* With fast commit the log wraps before the fast-commit area. */
	sb = make_sb(1024, 4, 0, F_FAST_COMMIT, 2048);
	w32(sb + O_NUM_FC, 512);
	sb_seal(sb);
	assert_int_equal(jbd2_decode_super(sb, 1024, &js), 0);
	assert_int_equal(jbd2_log_next(&js, 1534), 1535);
	assert_int_equal(jbd2_log_next(&js, 1535), 1);
	free(sb);
}

static void test_tid_compare(void **state)
{
	(void)state;
	assert_true(tid_gt(2, 1));
	assert_false(tid_gt(1, 2));
	assert_false(tid_gt(7, 7));
	assert_true(tid_geq(7, 7));
	assert_true(tid_geq(8, 7));
	assert_false(tid_geq(6, 7));
	/* Across the wrap. */
	assert_true(tid_gt(5, 0xFFFFFFF0U));
	assert_false(tid_gt(0xFFFFFFF0U, 5));
	assert_true(tid_geq(5, 0xFFFFFFF0U));
	assert_false(tid_geq(0xFFFFFFF0U, 5));
	assert_true(tid_gt(0, 0xFFFFFFFFU));
	assert_false(tid_gt(0xFFFFFFFFU, 0));
	assert_true(tid_geq(0, 0));
	assert_true(tid_geq(0xFFFFFFFFU, 0xFFFFFFFFU));
	/* Within half the range of each other. */
	assert_true(tid_gt(0x7FFFFFFFU, 0));
	assert_false(tid_gt(0, 0x7FFFFFFFU));
	assert_true(tid_gt(0x80000005U, 6));
	assert_false(tid_gt(6, 0x80000005U));
	/* Exactly half apart: neither is later. */
	assert_false(tid_gt(0x80000000U, 0));
	assert_false(tid_gt(0, 0x80000000U));
	assert_false(tid_geq(0x80000000U, 0));
	assert_false(tid_geq(0, 0x80000000U));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_primitive),
		cmocka_unit_test(test_crc32c_library),
		cmocka_unit_test(test_super_v2_fields),
		cmocka_unit_test(test_super_v1_ignores_features),
		cmocka_unit_test(test_super_feature_matrix),
		cmocka_unit_test(test_super_bad_magic),
		cmocka_unit_test(test_super_bad_type),
		cmocka_unit_test(test_super_unknown_features),
		cmocka_unit_test(test_super_csum_conflict),
		cmocka_unit_test(test_super_csum),
		cmocka_unit_test(test_super_csum_type),
		cmocka_unit_test(test_super_blocksize),
		cmocka_unit_test(test_super_check_order),
		cmocka_unit_test(test_super_fast_commit),
		cmocka_unit_test(test_super_set_csum),
		cmocka_unit_test(test_reset_replayed),
		cmocka_unit_test(test_reset_sequence_wraps),
		cmocka_unit_test(test_reset_failed_commit),
		cmocka_unit_test(test_reset_errno),
		cmocka_unit_test(test_reset_v1),
		cmocka_unit_test(test_super_version),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_geometry_short_dump),
		cmocka_unit_test(test_tags_plain),
		cmocka_unit_test(test_tags_64bit),
		cmocka_unit_test(test_tags_flags_all_formats),
		cmocka_unit_test(test_tags_uuid),
		cmocka_unit_test(test_tags_last_tag_first),
		cmocka_unit_test(test_tags_full_block),
		cmocka_unit_test(test_tags_uuid_past_end),
		cmocka_unit_test(test_tags_csum),
		cmocka_unit_test(test_block_csum),
		cmocka_unit_test(test_block_csum_none),
		cmocka_unit_test(test_commit_csum),
		cmocka_unit_test(test_commit_decode_bytes),
		cmocka_unit_test(test_commit_decode_fields),
		cmocka_unit_test(test_data_csum),
		cmocka_unit_test(test_revoke_extent),
		cmocka_unit_test(test_revoke_records),
		cmocka_unit_test(test_log_next),
		cmocka_unit_test(test_tid_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
