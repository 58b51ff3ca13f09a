/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * passes.h -- the passes over the log (pass_scan.c, pass_replay.c,
 * pass_plan.c): what each is given and what each finds.
 *
 * A pass never sees the handle.  It is given the journal (its superblock
 * decoded, its source), the revoke state, the tags and the hooks that tell
 * the caller how it goes (struct pass_log), and the few facts of the
 * filesystem it needs; it fills a result of its own (struct scan_result,
 * struct replay_result), which the API copies into recover_stats.  The
 * lifecycle runs them in order.
 */
#ifndef PASSES_H
#define PASSES_H

#include <stddef.h>
#include <stdint.h>

#include "librecover.h"
#include "jbd2.h"
#include "source.h"
#include "revoke.h"
#include "notify.h"

/* A tag the scan keeps for the passes after it. */
struct jtag {
	uint64_t	fsblk;
	uint32_t	jblk;		/* journal block holding the data */
	uint32_t	tid;
	uint32_t	csum;
	uint16_t	flags;
};

/* The tags of the transactions replayed, in log order. */
struct jtags {
	struct jtag	*v;
	size_t		n, cap;
};

/* What every pass works on. */
struct pass_log {
	const struct jsuper *sb;
	struct jsource	*src;
	struct revoke	*revoke;
	struct jtags	*tags;		/* SCAN fills them, the others read */
	struct notify	*notify;
};

/* What SCAN found (recover_stats' fields of the same names). */
struct scan_result {
	uint32_t	first_tid;
	uint32_t	end_tid;
	unsigned long long transactions;
	unsigned long long log_blocks;
	unsigned long long descriptor_blocks;
	unsigned long long revoke_blocks;
	unsigned long long logged_blocks;
	unsigned long long revoke_records;
	unsigned long long readahead_blocks;
	unsigned long long last_commit_sec;
	enum recover_end end_reason;
	struct recover_where end_at;
	int		failed_commit;
	uint32_t	failed_tid;
	struct recover_where failed_at;
	errcode_t	error;		/* recovery failed, as e2fsck's does */
	struct recover_where error_at;
};

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
					 * refused (pass_check_tags()) */
	struct recover_where error_at;
};

/* A revoke record of the tag's transaction or a later one cancels it. */
static inline int pass_revoked(const struct revoke *rv, const struct jtag *t)
{
	return revoke_cancels(rv, t->fsblk, t->tid, NULL);
}

/* ---- SCAN (pass_scan.c) --------------------------------------------------- */

/* How the scan reads: RECOVER_FL_FULL_REVOKE picks the revoke strategy,
 * RECOVER_FL_NO_READAHEAD stops the read-ahead thread, which compares
 * the first jsb_len bytes of the block it reads with jsb_raw. */
struct scan_how {
	unsigned int	flags;		/* RECOVER_FL_* */
	const unsigned char *jsb_raw;
	size_t		jsb_len;
};

/*
 * The log from s_start to its end: its tags kept in pl->tags and its
 * revoke records handed to pl->revoke; rd (the caller's, to free) is left
 * holding the window the passes after it read through.  An empty log
 * (s_start 0) is not read.
 */
errcode_t pass_scan(const struct pass_log *pl, const struct scan_how *how,
		    struct jreader *rd, struct scan_result *res);

/* ---- REPLAY (pass_replay.c) --------------------------------------------- */

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
errcode_t pass_classify(const struct pass_log *pl, unsigned char *state,
			unsigned char revoked, unsigned char cand,
			uint32_t *prev, struct replay_block **blocks,
			size_t *nblocks);
/*
 * The data block of tag i.  When it is not in rd's window, one read takes
 * it and the wanted copies right after it in the log (the tags k that
 * follow with state[k] == wanted), so that each copy is read once and no
 * other block is.
 */
errcode_t pass_read_copy(const struct jtags *tags, struct jreader *rd,
			 size_t i, const unsigned char *state,
			 unsigned char wanted, const unsigned char **data);
/*
 * Tags no replay may write, refused before anything is: a block at or
 * past fs_blocks, or a block of the internal journal itself (res->error
 * and error_at say which).
 */
errcode_t pass_check_tags(const struct pass_log *pl, uint64_t fs_blocks,
			  struct replay_result *res);
/* REPLAY proper: each block's last good copy written once, through io
 * (dry: nowhere). */
errcode_t pass_replay(const struct pass_log *pl, io_channel io, int dry,
		      struct replay_result *res);

/* ---- the fates, for recover_walk() (pass_plan.c) ------------------------- */

/*
 * A RECOVER_EV_FATE event for every tag, worked out as REPLAY would go
 * (fs: NULL when there is no filesystem; log_failed: recovery failed and
 * nothing is replayed).  Nothing without an event callback.
 */
errcode_t pass_plan(const struct pass_log *pl, struct jreader *rd,
		    ext2_filsys fs, int log_failed);

#endif /* PASSES_H */
