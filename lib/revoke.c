/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * revoke.c -- which logged copies the revoke records cancel.
 *
 * A revoke record (block B, in transaction R) cancels every copy of B
 * logged at a tid up to R, R included; of several records for B the latest
 * tid counts.  Two strategies give the same answer:
 *
 * Logged blocks only (the default).  The table has one entry per block the
 * log logs, added by the scan at its first tag with "no revoke" as its
 * value (tid - 1 of that copy).  A transaction's records are held until its
 * commit block; then each one is looked up and, if it names a logged block,
 * raises that block's tid.  A record can only cancel copies logged at its
 * own tid or earlier, all of them known by then, so a record naming a block
 * the log never logged is dropped on the spot.  No second read of the
 * revoke blocks.
 *
 * The lookups at a commit go 512 records at a time through
 * rtable_find_batch() (rtable.h): a record below the smallest or above the
 * largest logged block costs two compares; the others a hash and a filter
 * word fetched ahead, and only the records naming a logged block, with the
 * filter's 0.4-2% of false passes, reach the slots, whose misses overlap.
 * A record thus costs a bounded amount of work whatever the size of the
 * table (expected: the table's load stays at most 3/4), so the scan's time
 * grows linearly with the number of revoke records, where a hash of a
 * fixed number of buckets (e2fsck's, the kernel's) grows with its square.
 * A commit keeps its batch on the stack, about 12 KiB: a pointer and an
 * index for each of 512 records (8 KiB), and rtable_find_batch()'s three
 * batches in flight (4.5 KiB).  The measured times are in bench/README
 * (bench/rtable_bench's revoke lookups, and jrecover end to end).
 *
 * Every record (RECOVER_FL_FULL_REVOKE, LIBRECOVER_DEBUG=full_revoke), the
 * way the kernel and e2fsck go: the scan notes where the revoke blocks of
 * committed transactions are; once the log's end is known the REVOKE pass
 * reads them again into a table presized from the record count the scan
 * saw.
 *
 * Memory (64-bit), besides the read-ahead windows:
 *   per logged copy (tag), both strategies: a struct jtag, 24 bytes (22
 *     used, padded), in an array grown by doubling: 24 to 48 bytes;
 *   per logged block, default: one table slot, 13 bytes (8 key, 4 tid,
 *     1 of filter: a 64-bit word per 8 slots) at a load of at most 3/4 and
 *     at least 3/8 after a doubling: 17 to 35 bytes;
 *   per revoke record, default: nothing kept past its transaction; the
 *     pending records of the largest transaction, 8 bytes each, grown by
 *     doubling (8 to 16 bytes a record of that transaction);
 *   per revoke record, full table: a 12-byte slot presized to load 3/4,
 *     16 bytes, plus 4 bytes per revoke block (up to 509 records) for its
 *     place in the log.
 * recover_stats.table_bytes counts all of it (the tags array included), at
 * its largest: capacities here only grow until revoke_free().
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "revoke.h"

static void note_peak(struct revoke *rv)
{
	size_t n = rtable_bytes(&rv->rt) + rv->pend_cap * sizeof(*rv->pend) +
		   rv->at_cap * sizeof(*rv->at);

	if (n > rv->peak_bytes)
		rv->peak_bytes = n;
}

errcode_t revoke_init(struct revoke *rv, int full)
{
	memset(rv, 0, sizeof(*rv));
	rv->full = full;
	/* The default table mostly answers "absent". */
	return full ? 0 : rtable_use_filter(&rv->rt);
}

errcode_t revoke_logged(struct revoke *rv, uint64_t fsblk, uint32_t tid)
{
	uint32_t *slot;
	int added;
	errcode_t err;

	if (rv->full)
		return 0;
	/*
	 * tid - 1 reads as "no revoke": a record cancels a copy at T only
	 * when its tid is T or later, and any record that could cancel one
	 * of this block's copies will raise the value.
	 */
	err = rtable_add(&rv->rt, fsblk, tid - 1, &slot, &added);
	if (!err && added)
		note_peak(rv);
	return err;
}

errcode_t revoke_block(struct revoke *rv, struct jbd2_revoke_iter *it,
		       uint32_t at)
{
	unsigned int n = jbd2_revoke_count(it);
	uint64_t *p;
	errcode_t err;

	if (rv->full) {
		err = array_grow((void **)&rv->at, &rv->at_cap, rv->nat + 1,
				 sizeof(*rv->at));
		if (err)
			return err;
		rv->at[rv->nat++] = at;
		note_peak(rv);
		return 0;
	}
	if (!n)
		return 0;
	err = array_grow((void **)&rv->pend, &rv->pend_cap, rv->npend + n,
			 sizeof(*rv->pend));
	if (err)
		return err;
	note_peak(rv);
	p = rv->pend + rv->npend;
	while (jbd2_revoke_next(it, p))
		p++;
	rv->npend = (size_t)(p - rv->pend);
	return 0;
}

/* Records looked up at once at a commit: about a revoke block's worth. */
#define COMMIT_BATCH	512

void revoke_commit(struct revoke *rv, uint32_t tid)
{
	uint32_t *v[COMMIT_BATCH];
	size_t hit[COMMIT_BATCH], i, j, m, nhit;

	for (i = 0; i < rv->npend; i += m) {
		m = rv->npend - i < COMMIT_BATCH ? rv->npend - i :
			COMMIT_BATCH;
		nhit = rtable_find_batch(&rv->rt, rv->pend + i, m, hit, v);
		for (j = 0; j < nhit; j++)
			if (tid_gt(tid, *v[j]))
				*v[j] = tid;
	}
	rv->npend = 0;
	rv->txn_at = rv->nat;
}

void revoke_drop(struct revoke *rv)
{
	rv->npend = 0;
	rv->nat = rv->txn_at;
}

/* The REVOKE pass of the full strategy: every record into the table. */
errcode_t revoke_finish(struct revoke *rv, struct jreader *rd,
			const struct jsuper *sb, unsigned long long records,
			struct notify *n)
{
	struct jbd2_revoke_iter it;
	const unsigned char *blk;
	uint64_t blocknr;
	size_t i;
	errcode_t err;

	/* The pending records are gone with the scan. */
	free(rv->pend);
	rv->pend = NULL;
	rv->npend = rv->pend_cap = 0;
	if (!rv->full)
		return 0;
	n->progress_next = 0;
	rtable_free(&rv->rt);
	err = rtable_init(&rv->rt, records);
	if (err)
		return err;
	note_peak(rv);
	for (i = 0; i < rv->nat; i++) {
		err = notify_progress(n, RECOVER_PASS_REVOKE, i + 1, rv->nat);
		if (err)
			return err;
		err = source_reader_get(rd, rv->at[i], &blk);
		if (!err)
			err = jbd2_revoke_begin(sb, blk, &it);
		if (err)
			return err;
		while (jbd2_revoke_next(&it, &blocknr)) {
			err = rtable_revoke(&rv->rt, blocknr,
					    get_be32(blk + JBD2_HDR_SEQUENCE));
			if (err)
				return err;
		}
	}
	note_peak(rv);
	return 0;
}

int revoke_cancels(const struct revoke *rv, uint64_t fsblk, uint32_t tid,
		   uint32_t *by)
{
	const uint32_t *v = rtable_find(&rv->rt, fsblk);

	if (!v || !tid_geq(*v, tid))
		return 0;
	if (by)
		*by = *v;
	return 1;
}

size_t revoke_kept(const struct revoke *rv)
{
	return rtable_count(&rv->rt);
}

void revoke_free(struct revoke *rv)
{
	rtable_free(&rv->rt);
	free(rv->pend);
	free(rv->at);
	memset(rv, 0, sizeof(*rv));
}
