/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * passes.h -- what the passes over the log (pass_scan.c, pass_replay.c,
 * pass_plan.c) share: the tags and what each pass is given.  Each pass
 * declares itself and its result in a header named for it (pass_scan.h,
 * pass_replay.h, pass_plan.h).
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

/* A revoke record of the tag's transaction or a later one cancels it. */
static inline int pass_revoked(const struct revoke *rv, const struct jtag *t)
{
	return revoke_cancels(rv, t->fsblk, t->tid, NULL);
}

#endif /* PASSES_H */
