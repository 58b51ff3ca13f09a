/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_replay.h -- the fast-commit replay's entry points (fc_replay.c): the
 * records checked, replayed in memory, and written after the log's
 * blocks.  What the files of the replay share is in fc_state.h.
 */
#ifndef FC_REPLAY_H
#define FC_REPLAY_H

#include "fc.h"

struct fc_overlay;

/* RECOVER_ET_FC_RECORD when a valid record names an inode, block or name
 * the replay must not touch; nothing is written. */
errcode_t fc_replay_check(const struct pass_log *pl, ext2_filsys fs,
			  const struct fc_result *res);
/*
 * The valid records, replayed in memory on fs as the log's blocks will
 * leave it (nothing written; RECOVER_ET_FC_REPLAY, with res->error saying
 * why, when a record cannot be replayed): *ovl holds the view; then
 * fc_replay_commit(), after the log's blocks, writes what it changed
 * through io.
 */
errcode_t fc_replay(const struct pass_log *pl, ext2_filsys fs,
		    struct fc_result *res, struct fc_overlay **ovl);
errcode_t fc_replay_commit(struct fc_overlay **ovl, io_channel io,
			   struct fc_result *res);
void fc_replay_free(struct fc_overlay **ovl);

#endif /* FC_REPLAY_H */
