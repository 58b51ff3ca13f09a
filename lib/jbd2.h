/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jbd2.h -- the journal superblock decoded, with the geometry derived
 * from it, and the decoders of lib/jbd2.c (the format layer: doc/design.md).
 */
#ifndef JBD2_H
#define JBD2_H

#include <stdint.h>

#include "librecover.h"
#include "jbd2_fs.h"

/* The journal superblock, decoded, with the geometry derived from it. */
struct jsuper {
	struct recover_super pub;
	uint32_t	last;		/* end of the normal log (exclusive) */
	unsigned int	tag_bytes;	/* size of one descriptor tag */
	unsigned int	tail;		/* checksum tail of descriptor/revoke */
	unsigned int	revoke_rec;	/* bytes per revoke record: 4 or 8 */
	int		csum_v1;	/* COMPAT_CHECKSUM */
	int		csum_v2, csum_v3;
	int		has_64bit;
	int		async_commit;
	uint32_t	csum_seed;	/* crc32c of the uuid (v2/v3) */
};

errcode_t jbd2_decode_super(const unsigned char *buf, unsigned int fs_blocksize,
			    struct jsuper *sb);
/* A dump may be cut short: it is replayed up to where it ends. */
errcode_t jbd2_check_geometry(const struct jsuper *sb, uint64_t journal_blocks,
			      int may_be_short);
uint32_t jbd2_super_csum(const unsigned char *buf);
void jbd2_super_set_csum(const struct jsuper *sb, unsigned char *buf);

/* What a finished replay tells jbd2_reset_super(). */
struct jbd2_reset {
	int		had_log;	/* there was a log: it is emptied */
	int		replayed;	/* and its replay succeeded */
	uint32_t	end_tid;	/* the tid after the last one replayed */
	int		failed_commit;	/* a commit block was corrupt */
	int		keep_errno;	/* s_errno stays for the caller to carry
					 * into the filesystem (fsck.c) */
};

/*
 * Write the end of a replay into buf, the journal superblock sb was
 * decoded from.  Returns 1 when s_errno was set: the filesystem is then
 * to be marked as having errors.
 */
int jbd2_reset_super(const struct jsuper *sb, unsigned char *buf,
		     const struct jbd2_reset *how);

/* One decoded descriptor tag. */
struct jbd2_tag {
	uint64_t	blocknr;
	uint32_t	csum;		/* as stored: 16 bits for v2, 32 for v3 */
	uint16_t	flags;
};

/*
 * Iterate over a descriptor block's tags the way the kernel counts them:
 * stops at LAST_TAG or when the next tag would not fit before the tail.
 * *pos starts at 0; returns 1 with *tag filled, or 0 when done.
 */
int jbd2_next_tag(const struct jsuper *sb, const unsigned char *blk,
		  unsigned int *pos, struct jbd2_tag *tag);

int jbd2_block_csum_ok(const struct jsuper *sb, const unsigned char *blk);
int jbd2_commit_csum_ok(const struct jsuper *sb, const unsigned char *blk);
int jbd2_data_csum_ok(const struct jsuper *sb, uint32_t tid,
		      const unsigned char *data, uint32_t stored);

/*
 * Start iterating over a revoke block's records (jbd2_revoke_next() in
 * jbd2_fs.h).  RECOVER_ET_REVOKE_COUNT when r_count runs past the block (or
 * into its checksum tail); the iterator then holds no record.
 */
errcode_t jbd2_revoke_begin(const struct jsuper *sb, const unsigned char *blk,
			    struct jbd2_revoke_iter *it);

/* Next log block after blk, wrapping from the log's end back to s_first. */
static inline uint32_t jbd2_log_next(const struct jsuper *sb, uint32_t blk)
{
	blk++;
	return blk >= sb->last ? sb->pub.first : blk;
}

#endif /* JBD2_H */
