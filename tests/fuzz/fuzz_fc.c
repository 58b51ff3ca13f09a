/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_fc -- the fast-commit area, scanned and replayed, on fuzzed bytes.
 *
 * The filesystem (4 MiB, 1 KiB blocks, metadata_csum, a 1040-block journal
 * inode whose last 16 blocks are the fast-commit area, a directory and a
 * few files of some blocks each) is built once in memory (memio.c).  Each
 * input starts from a pristine copy: the journal superblock gets FAST_COMMIT,
 * s_sequence 1 and s_start 1, journal block 1 is the commit block of an
 * empty transaction 1 (so fast commits of tid 2 are expected), and the
 * input is laid over the fast-commit area from its first block on:
 *
 *   0     control bits:
 *         0x01  make the area's records valid: every HEAD and TAIL gets tid
 *               2 and every TAIL the crc32c of the records before it
 *               (this file's own code, not lib/fc.c's), so that the replay
 *               is reached
 *         0x02  a dry run first: it must write nothing
 *   1-    the area, from journal block 1025 on (1 KiB blocks)
 *
 * Checked beyond crashes and sanitizer reports: recover_replay() returns 0
 * or one of the refusals (corrupt area, a record naming what is not
 * there, a record the filesystem cannot take); a refusal and a dry run leave the image as it was; a replay
 * leaves a filesystem libext2fs opens, with bitmaps it reads.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "fc_fs.h"
#include "../lib/fcfix.h"
#include "../lib/memio.h"
#define FUZZ_DIGEST_IMAGE
#include "fuzz_common.h"

#define FS_BYTES	FCFIX_BYTES
#define FS_BS		FCFIX_BS
#define JBLOCKS		FCFIX_JBLOCKS
#define FC_BLOCKS	FCFIX_FC_BLOCKS
#define FC_FIRST	(JBLOCKS - FC_BLOCKS + 1)	/* the kernel's first */

#define CTL_VALID	0x01
#define CTL_DRY		0x02

static unsigned char *before;
static int verbose;			/* FUZZ_VERBOSE: say what each did */

/* The image: "d/a", "d/b" and "c" (fcfix.h). */
static errcode_t build_fs(void)
{
	return fcfix_build(0x3c, 29, 1, NULL);
}

static int fuzz_init(void)
{
	if (memio_setup(FS_BYTES, build_fs, &verbose))
		return -1;
	before = malloc(FS_BYTES);
	return before ? 0 : -1;
}

/* The journal: FAST_COMMIT, one empty committed transaction (tid 1). */
static void lay_log(void)
{
	unsigned char *jsb = memio_jblock(0), *c = memio_jblock(1);
	unsigned char *es = memio_data() + SUPERBLOCK_OFFSET;

	put_be32(jsb + JSB_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_REVOKE |
		 JBD2_FEATURE_INCOMPAT_FAST_COMMIT);
	put_be32(jsb + JSB_SEQUENCE, 1);
	put_be32(jsb + JSB_START, 1);
	memio_touch_jblock(0);
	memset(c, 0, FS_BS);
	put_be32(c + JBD2_HDR_MAGIC, JBD2_MAGIC);
	put_be32(c + JBD2_HDR_BLOCKTYPE, JBD2_COMMIT_BLOCK);
	put_be32(c + JBD2_HDR_SEQUENCE, 1);
	memio_touch_jblock(1);
	put_le32(es + 0x60, get_le32(es + 0x60) | EXT3_FEATURE_INCOMPAT_RECOVER);
	put_le32(es + 0x3FC, ext2fs_crc32c_le(~0U, es, 0x3FC));
	memio_touch(SUPERBLOCK_OFFSET, SUPERBLOCK_SIZE);
}

/* CTL_VALID: tids and TAIL checksums made right, record by record. */
static void make_valid(void)
{
	uint32_t crc = 0, j;

	for (j = FC_FIRST; j < JBLOCKS; j++) {
		unsigned char *b = memio_jblock(j);
		unsigned int pos = 0;

		while (pos + FC_TL_SIZE <= FS_BS) {
			unsigned int tag = get_le16(b + pos);
			unsigned int len = get_le16(b + pos + FC_TL_LEN);

			if (len > FS_BS - pos - FC_TL_SIZE)
				return;
			if (tag == FC_TAG_HEAD && len >= FC_HEAD_SIZE)
				put_le32(b + pos + FC_TL_SIZE + FC_HEAD_TID, 2);
			if (tag == FC_TAG_TAIL && len >= FC_TAIL_SIZE) {
				put_le32(b + pos + FC_TL_SIZE + FC_TAIL_TID, 2);
				crc = ext2fs_crc32c_le(crc, b + pos,
						       FC_TL_SIZE + FC_TAIL_CRC);
				put_le32(b + pos + FC_TL_SIZE + FC_TAIL_CRC, crc);
				crc = 0;
			} else {
				crc = ext2fs_crc32c_le(crc, b + pos,
						       FC_TL_SIZE + len);
			}
			pos += FC_TL_SIZE + len;
		}
	}
}

static errcode_t run(unsigned int flags, struct recover_stats *st)
{
	struct recover_options opts;
	ext2_filsys fs;
	recover_t r;
	errcode_t err;

	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	st->size = sizeof(*st);
	opts.flags = flags;
	opts.io_manager = memio_manager;
	err = ext2fs_open2("memory", NULL, EXT2_FLAG_64BITS |
			   EXT2_FLAG_IGNORE_CSUM_ERRORS |
			   ((flags & RECOVER_FL_DRY_RUN) ? 0 : EXT2_FLAG_RW),
			   0, 0, memio_manager, &fs);
	FUZZ_CHECK(!err, "the filesystem does not open: %ld", (long)err);
	err = recover_open_fs(fs, &opts, &r);
	if (!err) {
		err = recover_replay(r);
		recover_get_stats(r, st);
		recover_close(r);
	}
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
	ext2fs_close_free(&fs);
	return err;
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	struct recover_stats st;
	ext2_filsys fs;
	size_t n, area = (size_t)(JBLOCKS - FC_FIRST) * FS_BS, j;
	errcode_t err;

	if (size < 1)
		return;
	memio_reset();
	lay_log();
	n = size - 1 < area ? size - 1 : area;
	for (j = 0; j < JBLOCKS - FC_FIRST; j++) {
		unsigned char *b = memio_jblock(FC_FIRST + (uint32_t)j);
		size_t at = j * FS_BS, k = n > at ? n - at : 0;

		if (k > FS_BS)
			k = FS_BS;
		memset(b, 0, FS_BS);
		memcpy(b, data + 1 + at, k);
		memio_touch_jblock(FC_FIRST + (uint32_t)j);
	}
	if (data[0] & CTL_VALID)
		make_valid();
	memcpy(before, memio_data(), FS_BYTES);

	if (data[0] & CTL_DRY) {
		memset(&st, 0, sizeof(st));
		err = run(RECOVER_FL_DRY_RUN, &st);
		FUZZ_CHECK(!memcmp(before, memio_data(), FS_BYTES),
			   "a dry run wrote (%ld)", (long)err);
	}
	memset(&st, 0, sizeof(st));
	err = run(0, &st);
	if (verbose)
		fprintf(stderr, "fuzz_fc: area %d (end %d), %llu valid records, "
			"%llu replayed: %s\n", st.fc_state, st.fc_end,
			st.fc_tags, st.fc_replayed, err ? error_message(err) : "ok");
	FUZZ_CHECK(!err || err == RECOVER_ET_FC_CORRUPT ||
		   err == RECOVER_ET_FC_RECORD || err == RECOVER_ET_FC_REPLAY,
		   "replay: %ld (%s)", (long)err, error_message(err));
	if (err) {
		FUZZ_CHECK(!memcmp(before, memio_data(), FS_BYTES),
			   "refused (%ld), but wrote", (long)err);
		return;
	}
	err = ext2fs_open2("memory", NULL, EXT2_FLAG_64BITS, 0, 0,
			   memio_manager, &fs);
	FUZZ_CHECK(!err, "the replayed filesystem does not open: %ld",
		   (long)err);
	err = ext2fs_read_bitmaps(fs);
	FUZZ_CHECK(!err, "its bitmaps do not read: %ld", (long)err);
	ext2fs_close_free(&fs);
}
