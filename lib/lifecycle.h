/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lifecycle.h -- the life of a handle (lifecycle.c): the open, the passes
 * that read the log, the replay with its ordered end, and the close; and
 * what the lifecycle makes of the handle for the passes and the API.
 */
#ifndef LIFECYCLE_H
#define LIFECYCLE_H

#include "librecoverP.h"

/*
 * Open what the handle works on: the filesystem on device (mount checks,
 * then its MMP block), or fs, the caller's (both NULL: a dump on its own);
 * then the journal, checked, with what its source means for the passes
 * and which journal superblock a replay resets.  r->about says what an
 * error is about.  recover_close() then releases whatever was opened.
 */
errcode_t lifecycle_open(struct recover_struct *r, const char *device,
			 ext2_filsys fs);
/* recover_needs_recovery(). */
int lifecycle_needs_recovery(const struct recover_struct *r);
/*
 * The passes that read the log, once (recover_scan(), recover_walk(), and
 * the start of a replay): SCAN, the fast-commit area, REVOKE's own pass
 * where the strategy has one, and for recover_walk() the fates and the
 * end.  A failure is kept and returned again.
 */
errcode_t lifecycle_scan(struct recover_struct *r);
/* recover_replay(): the checks, the passes and the ordered end. */
errcode_t lifecycle_replay(struct recover_struct *r);
/* Close the journals and a filesystem the library opened (MMP released),
 * and free what every layer kept in the handle. */
void lifecycle_close(struct recover_struct *r);

/* What every pass is given of the handle. */
static inline struct pass_log lifecycle_log(struct recover_struct *r)
{
	struct pass_log pl = {
		.sb = &r->sb, .src = &r->src, .revoke = &r->revoke,
		.tags = &r->tags, .notify = &r->notify,
	};
	return pl;
}

/* Recovery failed as e2fsck's does (recover_stats.error): in SCAN, or
 * in REPLAY, which runs only after a SCAN that did not fail. */
static inline errcode_t lifecycle_log_error(const struct recover_struct *r)
{
	return r->scan.error ? r->scan.error : r->rep.error;
}

/* Bytes written to the filesystem (recover_stats.written_bytes): the
 * log's blocks, the fast commits' blocks, the meta_bg descriptor copies. */
static inline unsigned long long
lifecycle_written_bytes(const struct recover_struct *r)
{
	return r->rep.written_bytes + r->fc.written_bytes + r->desc_written;
}

#endif /* LIFECYCLE_H */
