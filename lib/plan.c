/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.c -- what a replay does with each tag the scan kept, for
 * recover_walk() (RECOVER_EV_FATE), worked out the way recovery_replay()
 * goes: in log order, a copy is skipped when a revoke record cancels it,
 * when its data block cannot be read or when its data checksum fails, and
 * is written otherwise; of the copies of one block written, the last one
 * is what the block holds afterwards.
 *
 * Memory: one byte per tag, and a table from block number to the last
 * copy written, with one entry per logged block.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"

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
	return recovery_event_send(r, &ev);
}

errcode_t recovery_plan(struct recover_struct *r, struct jreader *rd)
{
	const struct jsuper *sb = &r->sb;
	uint64_t end = r->fs ? ext2fs_blocks_count(r->fs->super) : 0;
	const unsigned char *data;
	unsigned char *fate;
	struct rtable last;
	uint32_t *slot;
	size_t i;
	int added;
	errcode_t err = 0;

	if (!r->event || !r->ntags)
		return 0;
	fate = malloc(r->ntags);
	if (!fate)
		return ENOMEM;
	err = rtable_init(&last, r->ntags);
	if (err)
		goto out;
	/*
	 * First the fate of each copy on its own: what needs no data block,
	 * then (PENDING: to be read) the data, each copy once.
	 */
	for (i = 0; i < r->ntags; i++) {
		const struct jtag *t = &r->tags[i];

		if (r->st.error)
			fate[i] = RECOVER_FATE_NOT_REPLAYED;
		else if (recovery_revoked(r, t))
			fate[i] = RECOVER_FATE_REVOKED;
		else if (r->fs && t->fsblk >= end)
			fate[i] = RECOVER_FATE_PAST_END;
		else
			fate[i] = PENDING;
	}
	for (i = 0; i < r->ntags; i++) {
		const struct jtag *t = &r->tags[i];

		if (fate[i] != PENDING)
			continue;
		/* Read as the replay reads it: an unreadable copy is
		 * skipped whether or not there is a checksum to check. */
		if (recovery_read_copy(r, rd, i, fate, PENDING, &data)) {
			fate[i] = RECOVER_FATE_UNREADABLE;
			continue;
		}
		if (!jbd2_data_csum_ok(sb, t->tid, data, t->csum)) {
			fate[i] = RECOVER_FATE_BAD_CSUM;
			continue;
		}
		fate[i] = RECOVER_FATE_WRITTEN;
		err = rtable_add(&last, t->fsblk, (uint32_t)i, &slot, &added);
		if (err)
			goto out;
		*slot = (uint32_t)i;
	}
	for (i = 0; i < r->ntags && !err; i++) {
		const struct jtag *t = &r->tags[i], *by;
		const uint32_t *v;
		uint32_t by_tid = 0;

		switch (fate[i]) {
		case RECOVER_FATE_REVOKED:
			revoke_cancels(&r->revoke, t->fsblk, t->tid, &by_tid);
			err = emit_fate(r, t, RECOVER_FATE_REVOKED, by_tid, 0);
			break;
		case RECOVER_FATE_WRITTEN:
			v = rtable_find(&last, t->fsblk);
			if (*v == i) {
				err = emit_fate(r, t, RECOVER_FATE_WRITTEN, 0, 0);
				break;
			}
			by = &r->tags[*v];
			err = emit_fate(r, t, RECOVER_FATE_SUPERSEDED, by->tid,
					by->jblk);
			break;
		default:
			err = emit_fate(r, t, fate[i], 0, 0);
			break;
		}
	}
out:
	rtable_free(&last);
	free(fate);
	return err;
}
