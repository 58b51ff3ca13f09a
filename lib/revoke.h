/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * revoke.h -- which logged copies the revoke records cancel (lib/revoke.c,
 * over lib/rtable.c's table).
 */
#ifndef REVOKE_H
#define REVOKE_H

#include <stddef.h>
#include <stdint.h>

#include "jbd2.h"
#include "source.h"
#include "rtable.h"
#include "notify.h"

/*
 * Which logged copies revoke records cancel, by one of two strategies
 * (RECOVER_FL_FULL_REVOKE picks the second); see revoke.c for each one's
 * memory.  The scan calls revoke_logged() for every tag, revoke_block()
 * for every revoke block, and revoke_commit() or revoke_drop() at the end
 * of each transaction; revoke_finish() once the log's end is known;
 * the replay then asks revoke_cancels().
 */
struct revoke {
	int		full;		/* every record, in a REVOKE pass */
	struct rtable	rt;		/* block -> highest revoking tid */
	uint64_t	*pend;		/* default: the records of the
					 * transaction being scanned */
	size_t		npend, pend_cap;
	uint32_t	*at;		/* full: revoke blocks of the
					 * committed transactions */
	size_t		nat, at_cap, txn_at;
	size_t		peak_bytes;	/* of all the above, at most */
};

errcode_t revoke_init(struct revoke *rv, int full);
/* A tag of transaction tid logs fsblk. */
errcode_t revoke_logged(struct revoke *rv, uint64_t fsblk, uint32_t tid);
/* A revoke block at journal block at, its records in it (already checked). */
errcode_t revoke_block(struct revoke *rv, struct jbd2_revoke_iter *it,
		       uint32_t at);
/* The transaction tid is committed and replayed, or (drop) it is not. */
void revoke_commit(struct revoke *rv, uint32_t tid);
void revoke_drop(struct revoke *rv);
/*
 * The scan is over: the full strategy's REVOKE pass reads its records (the
 * scan counted them: records) through rd, telling n how far it is.
 */
errcode_t revoke_finish(struct revoke *rv, struct jreader *rd,
			const struct jsuper *sb, unsigned long long records,
			struct notify *n);
/* Is the copy of fsblk logged at tid cancelled?  *by (if not NULL) gets
 * the revoking tid. */
int revoke_cancels(const struct revoke *rv, uint64_t fsblk, uint32_t tid,
		   uint32_t *by);
size_t revoke_kept(const struct revoke *rv);
void revoke_free(struct revoke *rv);

#endif /* REVOKE_H */
