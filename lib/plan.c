/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.c -- what a replay does with each tag the scan kept, for
 * recover_walk() (RECOVER_EV_FATE), worked out the way recovery_replay()
 * goes: in log order, a copy is skipped when a revoke record cancels it,
 * when its data block cannot be read or when its data checksum fails, and
 * is written otherwise; of the copies of one block written, the last one
 * is what the block holds afterwards.
 *
 * The copies of each block come from replay_classify(), as the replay
 * takes them.  Memory: 5 bytes per tag; per logged block, an entry of
 * the list of last candidates (16 bytes), and a table slot while that
 * list is made.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "notify.h"

#define PENDING		0xff	/* a fate still to work out */

static errcode_t emit_fate(struct recover_struct *r, const struct jtag *t,
			   enum recover_fate fate, uint32_t by_tid,
			   uint64_t by_jblock)
{
	struct recover_event ev;

	recovery_event_init(&ev, RECOVER_EV_FATE, t->tid, t->jblk);
	ev.fsblock = t->fsblk;
	ev.flags = t->flags;
	ev.fate = fate;
	ev.fate_tid = by_tid;
	ev.fate_jblock = by_jblock;
	ev.no_filesystem = !r->fs;
	return recovery_event_send(&r->notify, &ev);
}

errcode_t recovery_plan(struct recover_struct *r, struct jreader *rd)
{
	const struct jsuper *sb = &r->sb;
	uint64_t end = r->fs ? ext2fs_blocks_count(r->fs->super) : 0;
	const unsigned char *data;
	struct replay_block *blocks = NULL;
	unsigned char *fate;
	uint32_t *by;
	size_t nblocks = 0, i;
	errcode_t err = 0;

	if (!r->notify.event || !r->ntags)
		return 0;
	fate = malloc(r->ntags);
	/* The chain of each block's candidates, then (for a copy written)
	 * the copy the block holds at the end. */
	by = malloc(r->ntags * sizeof(*by));
	if (!fate || !by) {
		err = ENOMEM;
		goto out;
	}
	err = replay_classify(r, fate, RECOVER_FATE_REVOKED, PENDING, by,
			      &blocks, &nblocks);
	if (err)
		goto out;
	/*
	 * First the fate of each copy on its own: what needs no data block,
	 * then (PENDING: to be read) the data, each copy once.
	 */
	for (i = 0; i < r->ntags; i++) {
		if (r->st.error)
			fate[i] = RECOVER_FATE_NOT_REPLAYED;
		else if (fate[i] == PENDING && r->fs &&
			 r->tags[i].fsblk >= end)
			fate[i] = RECOVER_FATE_PAST_END;
		else if (fate[i] == PENDING &&
			 jsource_owns(&r->src, r->tags[i].fsblk) == 1)
			fate[i] = RECOVER_FATE_OWN_JOURNAL;
	}
	for (i = 0; i < r->ntags; i++) {
		const struct jtag *t = &r->tags[i];

		if (fate[i] != PENDING)
			continue;
		/* Read as the replay reads it: an unreadable copy is
		 * skipped whether or not there is a checksum to check. */
		if (recovery_read_copy(r, rd, i, fate, PENDING, &data))
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
	for (i = 0; i < r->ntags && !err; i++) {
		const struct jtag *t = &r->tags[i], *h;
		uint32_t by_tid = 0;

		switch (fate[i]) {
		case RECOVER_FATE_REVOKED:
			revoke_cancels(&r->revoke, t->fsblk, t->tid, &by_tid);
			err = emit_fate(r, t, RECOVER_FATE_REVOKED, by_tid, 0);
			break;
		case RECOVER_FATE_WRITTEN:
			if (by[i] == i) {
				err = emit_fate(r, t, RECOVER_FATE_WRITTEN, 0, 0);
				break;
			}
			h = &r->tags[by[i]];
			err = emit_fate(r, t, RECOVER_FATE_SUPERSEDED, h->tid,
					h->jblk);
			break;
		default:
			err = emit_fate(r, t, fate[i], 0, 0);
			break;
		}
	}
out:
	free(blocks);
	free(by);
	free(fate);
	return err;
}
