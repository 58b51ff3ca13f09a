/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pass_plan.c -- what a replay does with each tag the scan kept, for
 * recover_walk() (RECOVER_EV_FATE), worked out the way the REPLAY pass
 * goes: in log order, a copy is skipped when a revoke record cancels it,
 * when its data block cannot be read or when its data checksum fails, and
 * is written otherwise; of the copies of one block written, the last one
 * is what the block holds afterwards.
 *
 * The copies of each block come from pass_replay_classify(), as the replay
 * takes them.  Memory: 5 bytes per tag; per logged block, an entry of
 * the list of last candidates (16 bytes), and a table slot while that
 * list is made.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass_plan.h"
#include "pass_replay.h"

#define PENDING		0xff	/* a fate still to work out */

static errcode_t emit_fate(const struct pass_log *pl, int no_fs,
			   const struct jtag *t,
			   enum recover_fate fate, uint32_t by_tid,
			   uint64_t by_jblock)
{
	struct recover_event ev;

	notify_event_init(&ev, RECOVER_EV_FATE, t->tid, t->jblk);
	ev.fsblock = t->fsblk;
	ev.flags = t->flags;
	ev.fate = fate;
	ev.fate_tid = by_tid;
	ev.fate_jblock = by_jblock;
	ev.no_filesystem = no_fs;
	return notify_event_send(pl->notify, &ev);
}

/* Each tag's event, its fate worked out (by[i]: for a copy written, the
 * copy its block holds at the end). */
static errcode_t emit_fates(const struct pass_log *pl, int no_fs,
			    const unsigned char *fate, const uint32_t *by)
{
	const struct jtag *tv = pl->tags->v, *t, *h;
	uint32_t by_tid;
	size_t i;
	errcode_t err = 0;

	for (i = 0; i < pl->tags->n && !err; i++) {
		t = &tv[i];
		by_tid = 0;
		switch (fate[i]) {
		case RECOVER_FATE_REVOKED:
			revoke_cancels(pl->revoke, t->fsblk, t->tid, &by_tid);
			err = emit_fate(pl, no_fs, t, RECOVER_FATE_REVOKED,
					by_tid, 0);
			break;
		case RECOVER_FATE_WRITTEN:
			if (by[i] == i) {
				err = emit_fate(pl, no_fs, t,
						RECOVER_FATE_WRITTEN, 0, 0);
				break;
			}
			h = &tv[by[i]];
			err = emit_fate(pl, no_fs, t, RECOVER_FATE_SUPERSEDED,
					h->tid, h->jblk);
			break;
		default:
			err = emit_fate(pl, no_fs, t, fate[i], 0, 0);
			break;
		}
	}
	return err;
}

errcode_t pass_plan(const struct pass_log *pl, struct jreader *rd,
		    ext2_filsys fs, int log_failed)
{
	const struct jsuper *sb = pl->sb;
	const struct jtags *tags = pl->tags;
	const struct jtag *tv = tags->v;
	uint64_t end = fs ? ext2fs_blocks_count(fs->super) : 0;
	const unsigned char *data;
	struct replay_block *blocks = NULL;
	unsigned char *fate;
	uint32_t *by;
	size_t nblocks = 0, i;
	errcode_t err = 0;

	if (!pl->notify->event || !tags->n)
		return 0;
	fate = malloc(tags->n);
	/* The chain of each block's candidates, then (for a copy written)
	 * the copy the block holds at the end. */
	by = malloc(tags->n * sizeof(*by));
	if (!fate || !by) {
		err = ENOMEM;
		goto out;
	}
	err = pass_replay_classify(pl, fate, RECOVER_FATE_REVOKED, PENDING, by,
				   &blocks, &nblocks);
	if (err)
		goto out;
	/*
	 * First the fate of each copy on its own: what needs no data block,
	 * then (PENDING: to be read) the data, each copy once.
	 */
	for (i = 0; i < tags->n; i++) {
		if (log_failed)
			fate[i] = RECOVER_FATE_NOT_REPLAYED;
		else if (fate[i] == PENDING && fs && tv[i].fsblk >= end)
			fate[i] = RECOVER_FATE_PAST_END;
		else if (fate[i] == PENDING &&
			 source_owns(pl->src, tv[i].fsblk) == 1)
			fate[i] = RECOVER_FATE_OWN_JOURNAL;
	}
	for (i = 0; i < tags->n; i++) {
		const struct jtag *t = &tv[i];

		if (fate[i] != PENDING)
			continue;
		/* Read as the replay reads it: an unreadable copy is
		 * skipped whether or not there is a checksum to check. */
		if (pass_replay_read_copy(tags, rd, i, fate, PENDING, &data))
			fate[i] = RECOVER_FATE_UNREADABLE;
		else if (!jbd2_data_csum_ok(sb, t->tid, data, t->csum))
			fate[i] = RECOVER_FATE_BAD_CSUM;
		else
			fate[i] = RECOVER_FATE_WRITTEN;
	}
	/* Each block's candidates from its last one back: the first one
	 * written is what the block holds, every one written before it is
	 * superseded by it. */
	for (i = 0; i < nblocks; i++) {
		uint32_t k = blocks[i].tag, next, held = REPLAY_NONE;

		for (; k != REPLAY_NONE; k = next) {
			next = by[k];
			if (fate[k] != RECOVER_FATE_WRITTEN)
				continue;
			if (held == REPLAY_NONE)
				held = k;
			by[k] = held;
		}
	}
	err = emit_fates(pl, !fs, fate, by);
out:
	free(blocks);
	free(by);
	free(fate);
	return err;
}
