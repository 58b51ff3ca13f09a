/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pass_replay.h -- REPLAY (pass_replay.c): the tags checked, each
 * block's copies classified and read, the blocks written; and what it did.
 */
#ifndef PASS_REPLAY_H
#define PASS_REPLAY_H

#include "passes.h"

/* What REPLAY did (recover_stats' fields of the same names). */
struct replay_result {
	unsigned long long replayed;
	unsigned long long revoked;
	unsigned long long bad_csum;
	struct recover_where bad_csum_at;
	unsigned long long copies_written;
	unsigned long long superseded;
	unsigned long long written_bytes;
	int		wrote;		/* a write was issued */
	errcode_t	error;		/* the first unreadable copy, or a tag
					 * refused (pass_replay_check_tags()) */
	struct recover_where error_at;
};

/* A logged block and one of its copies (an index in the tags). */
struct replay_block {
	uint64_t	fsblk;
	uint32_t	tag;
};

#define REPLAY_NONE	UINT32_MAX	/* no earlier candidate */

/*
 * The tags as a replay takes them, before any data block is read (also
 * what recover_walk()'s fates start from): a copy that a revoke record
 * cancels gets state[i] = revoked, any other is a candidate, state[i] =
 * cand.  prev[i] is the candidate before it of the same block (REPLAY_NONE
 * for a block's first one and for revoked copies), and *blocks, *nblocks
 * of them, each block's last candidate, the blocks in the order their
 * first candidates come in (to free; NULL on an error).
 */
errcode_t pass_replay_classify(const struct pass_log *pl, unsigned char *state,
			       unsigned char revoked, unsigned char cand,
			       uint32_t *prev, struct replay_block **blocks,
			       size_t *nblocks);
/*
 * The data block of tag i.  When it is not in rd's window, one read takes
 * it and the wanted copies right after it in the log (the tags k that
 * follow with state[k] == wanted), so that each copy is read once and no
 * other block is.
 */
errcode_t pass_replay_read_copy(const struct jtags *tags,
				struct jreader *rd, size_t i,
				const unsigned char *state,
				unsigned char wanted,
				const unsigned char **data);
/*
 * Tags no replay may write, refused before anything is: a block at or
 * past fs_blocks, or a block of the internal journal itself (res->error
 * and error_at say which).
 */
errcode_t pass_replay_check_tags(const struct pass_log *pl, uint64_t fs_blocks,
				 struct replay_result *res);
/* REPLAY proper: each block's last good copy written once, through io
 * (dry: nowhere). */
errcode_t pass_replay(const struct pass_log *pl, io_channel io, int dry,
		      struct replay_result *res);

#endif /* PASS_REPLAY_H */
