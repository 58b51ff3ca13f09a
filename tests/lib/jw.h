/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jw: an independent jbd2 journal writer for the tests and benchmarks.
 *
 * It is written from the on-disk format description alone (it shares no
 * code with the reader) so that the two cannot share a misunderstanding.
 *
 * Three parts:
 *   - struct jw_sink: where journal blocks live (the internal journal inode
 *     of an ext4 image, an external journal device, or a dump file whose
 *     block 0 is the journal superblock); reads, and buffered writes in
 *     large contiguous runs.
 *   - struct jw: the log writer: journal geometry and feature settings, a
 *     log cursor that wraps from the last log block to s_first, and block
 *     encoders (descriptor + tags, revoke, commit, checksums).  Memory use
 *     does not grow with the number of blocks or records written.
 *   - jw_bulk(): the benchmark shape (many transactions, many revokes).
 *
 * Every multi-byte on-disk field is big-endian and is encoded byte by byte
 * with the jw_put_* helpers; no buffer is ever cast to a structure.
 */
#ifndef JW_H
#define JW_H

#include <stdint.h>
#include <stdio.h>
#include <ext2fs/ext2fs.h>

/* ---- format constants ---------------------------------------------------- */
#define JW_MAGIC		0xC03B3998u
#define JW_BT_DESCRIPTOR	1
#define JW_BT_COMMIT		2
#define JW_BT_SB_V1		3
#define JW_BT_SB_V2		4
#define JW_BT_REVOKE		5

#define JW_COMPAT_CHECKSUM	0x1u	/* v1 checksums (crc32 in commit) */
#define JW_INCOMPAT_REVOKE	0x1u
#define JW_INCOMPAT_64BIT	0x2u
#define JW_INCOMPAT_ASYNC	0x4u
#define JW_INCOMPAT_CSUM_V2	0x8u
#define JW_INCOMPAT_CSUM_V3	0x10u
#define JW_INCOMPAT_FAST_COMMIT	0x20u

#define JW_TAG_ESCAPE		0x1	/* data block's magic stored zeroed */
#define JW_TAG_SAME_UUID	0x2	/* no 16-byte UUID follows this tag */
#define JW_TAG_LAST		0x8	/* last tag of the descriptor */

#define JW_CSUM_CRC32		1	/* commit h_chksum_type for v1 */
#define JW_CSUM_CRC32C		4	/* jsb s_checksum_type for v2/v3 */

#define JW_DEFAULT_FC_BLOCKS	256	/* s_num_fc_blks == 0 with FAST_COMMIT */

/* ---- big-endian helpers --------------------------------------------------- */
static inline void jw_put_be16(unsigned char *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void jw_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void jw_put_be64(unsigned char *p, uint64_t v)
{
	jw_put_be32(p, v >> 32);
	jw_put_be32(p + 4, (uint32_t)v);
}

static inline uint32_t jw_get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* ---- sink: where the journal's blocks are -------------------------------- */
struct jw_run {			/* journal blocks [lblk, lblk+len) are */
	uint64_t lblk, pblk, len; /* io blocks [pblk, pblk+len) */
};

struct jw_sink {
	io_channel io;		/* journal blocks are read/written here */
	ext2_filsys fs;		/* owner of io (external device), or NULL */
	int own_io;		/* io is ours to close (dump file) */
	uint32_t bs;		/* block size of io (= journal block size) */
	uint64_t sb_blk;	/* journal block holding the journal superblock */
	uint64_t nblocks;	/* journal blocks mapped */
	struct jw_run *runs;
	size_t nruns;
	unsigned char *wbuf;	/* write-behind run: journal blocks */
	uint64_t wstart;	/* [wstart, wstart+wn) */
	size_t wn, wcap;
	char err[256];
};

/* The internal journal of an open filesystem (inode s_journal_inum, mapped
 * once into runs). The sink borrows fs; it does not close it. */
int jw_sink_open_internal(struct jw_sink *s, ext2_filsys fs);
/* An external journal device made by mke2fs -O journal_dev: journal block
 * N is device block N, the superblock is at ext2fs_journal_sb_start(bs). */
int jw_sink_open_external(struct jw_sink *s, const char *path);
/* A dump file: journal block N at byte N * bs; bs = 0 reads it from the
 * journal superblock in block 0. */
int jw_sink_open_dump(struct jw_sink *s, const char *path, uint32_t bs);
/* Create a dump file holding a copy of all nblocks blocks of src. */
int jw_sink_copy_to_dump(struct jw_sink *src, const char *path);
int jw_sink_read(struct jw_sink *s, uint64_t jblk, uint64_t n, void *buf);
/* The buffer slot for journal block jblk, to be filled completely by the
 * caller; valid until the next jw_sink_slot/flush. NULL on a write error. */
unsigned char *jw_sink_slot(struct jw_sink *s, uint64_t jblk);
int jw_sink_flush(struct jw_sink *s);
int jw_sink_close(struct jw_sink *s);

/* ---- the log writer ----------------------------------------------------- */

/* Journal superblock settings (the header part of a script). */
struct jw_conf {
	int version;		/* 1 or 2 */
	uint32_t compat, incompat;
	uint32_t sequence;	/* s_sequence, first tid of the log */
	int64_t start;		/* s_start; -1 = s_first. 0 writes s_start = 0
				 * with the log still placed at s_first */
	int32_t errnum;		/* s_errno */
	int set_uuid;
	unsigned char uuid[16];
	int64_t nrusers;	/* s_nr_users; -1 = keep */
	int64_t fcblocks;	/* s_num_fc_blks; -1 = keep */
	uint32_t logend;	/* the log wraps after block logend - 1; 0 =
				 * s_maxlen, less the fast-commit area */
	int badsbcsum;		/* store a wrong s_checksum (v2/v3) */
};

void jw_conf_init(struct jw_conf *c);

/* log() options */
struct jw_logopt {
	int fill;		/* -1 = pattern from (block, tid), else every byte */
	int escape;		/* data starts with the jbd2 magic, so it is
				 * stored escaped */
	int uuid;		/* the tag carries a UUID (no SAME_UUID) */
	int badcsum;		/* wrong data tag checksum (v2/v3) */
	int baddesc;		/* wrong descriptor tail checksum (v2/v3) */
};

struct jw_commitopt {
	int64_t sec;		/* -1 = 1700000000 + transaction index */
	uint32_t nsec;
	int badcsum;		/* wrong commit checksum (v1 crc32, v2/v3 crc32c) */
	int zerocsum;		/* h_chksum_type/size/[0] all zero */
	int type, size;		/* -1 = default h_chksum_type / h_chksum_size */
};

struct jw_tag {
	uint64_t blk;
	int16_t fill;
	uint8_t escape, uuid, badcsum;
};

struct jw {
	struct jw_sink *sink;	/* the journal superblock is read from it */
	int dry;		/* place and check only: no data is generated,
				 * no checksum computed, nothing written */
	FILE *trace;		/* per-transaction summary, or NULL */

	/* geometry, from the journal superblock */
	uint32_t bs, maxlen, first, last; /* log blocks are [first, last) */
	unsigned char *sb;	/* the journal superblock block, rewritten */
	struct jw_conf conf;

	/* derived from conf */
	int csum;		/* 0, 1 (COMPAT_CHECKSUM), 2 or 3 */
	unsigned tagsize, recsize, tailsize;
	uint32_t seed;		/* crc32c(~0, s_uuid) */
	uint64_t blklimit;	/* logged/revoked blocks must be below this */
	int allow_past_end;	/* skip the blklimit check (not the 32-bit one) */
	unsigned maxtags;	/* tags per descriptor; 0 = as many as fit */
	int64_t rcount;		/* r_count of the next revoke block; -1 = real */

	/* log cursor */
	uint32_t start;		/* first log block written */
	uint32_t pos;		/* next log block */
	uint64_t used;		/* log blocks placed since s_start */
	int ended;		/* last block placed was a terminator */

	/* transaction */
	int in_txn;
	uint32_t tid, ntxn;	/* current tid; transactions begun so far */
	uint32_t crc1;		/* v1 checksum accumulator */
	uint32_t txn_first;	/* first log block of the transaction */
	int txn_placed;
	uint64_t txn_tags, txn_revokes;

	/* open descriptor: tags whose data is generated when it is closed */
	struct jw_tag *tags;
	unsigned ntags, tagcap;
	size_t dused;		/* bytes of the descriptor used so far */
	int dbad;

	/* open revoke block */
	unsigned char *rblk;
	size_t rused;
	int rbad;
	int64_t rcount_cur;

	unsigned char *scratch;	/* one block */
	char err[256];
};

/* Read the journal superblock from sink to get the geometry. blklimit: the
 * filesystem's block count (0 = unknown, only the tag width limits). A dry
 * writer runs every check (a script can be validated before anything is
 * written) but writes nothing. */
int jw_init(struct jw *w, struct jw_sink *sink, uint64_t blklimit, int dry);
void jw_free(struct jw *w);
/* Apply w->conf: call after setting conf, before writing any block. */
int jw_start(struct jw *w);
/* Begin a transaction: tid, or (have_tid 0) the previous one + 1, the
 * first one s_sequence. */
int jw_txn(struct jw *w, int have_tid, uint32_t tid);
int jw_log(struct jw *w, uint64_t blk, const struct jw_logopt *o);
int jw_revoke(struct jw *w, uint64_t blk, int badcsum);
/* The next revoke block (a new one) stores this r_count. */
int jw_rcount(struct jw *w, uint32_t rcount);
int jw_commit(struct jw *w, const struct jw_commitopt *o);
int jw_nocommit(struct jw *w);
/* One block at the cursor: len bytes of data then zeros, or garbage. */
int jw_raw(struct jw *w, const unsigned char *data, size_t len);
int jw_garbage(struct jw *w);
/* A zeroed block at the cursor, ending the scan there. */
int jw_end(struct jw *w);
/* Close the log (terminator unless noend), write the journal superblock,
 * flush the sink. */
int jw_finish(struct jw *w, int noend);

/* Benchmark shape: ntxn transactions; each logs nlog blocks then revokes its
 * share of nrev records (spread evenly), then commits. hitpct percent of the
 * records (spread evenly; none in the first transaction) revoke blocks
 * logged by earlier transactions; the rest name blocks cycling through
 * [0, blklimit) outside the logged range. Logged blocks cycle through
 * [first, first + min(span, ntxn * nlog, blklimit - first)). Needs
 * blklimit. Streams: O(1) memory. */
int jw_bulk(struct jw *w, uint64_t ntxn, uint64_t nrev, uint64_t nlog,
	    unsigned hitpct, uint64_t first, uint64_t span);

#endif
