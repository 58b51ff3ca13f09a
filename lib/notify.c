/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * notify.c -- the caller's callbacks, called from the passes: the progress
 * of each pass (where the lifecycle's tick, which keeps a held MMP block
 * fresh, also runs), the events of recover_walk(), the copies an fsck
 * tool's replay skips; and the copy of a library struct into a caller's.
 */
#include "config.h"

#include <string.h>

#include "notify.h"

/* The units of a pass (log blocks, copies, revoke blocks...) between two
 * progress calls. */
#define PROGRESS_EVERY	64

/* Tell the caller how far a pass is (at most every PROGRESS_EVERY units,
 * and at its end); it may ask to stop.  A multi-mount protection block
 * held is rewritten here when its interval has passed. */
errcode_t notify_progress(struct notify *n, enum recover_pass pass,
			  unsigned long long done, unsigned long long total)
{
	errcode_t err;

	if (done < n->progress_next && done != total)
		return 0;
	n->progress_next = done + PROGRESS_EVERY;
	/* Also where a long scan or replay keeps its MMP block fresh. */
	if (n->tick) {
		err = n->tick(n->tick_arg);
		if (err)
			return err;
	}
	if (!n->progress)
		return 0;
	if (n->progress(n->progress_data, pass, done, total))
		return RECOVER_ET_INTERRUPTED;
	return 0;
}

/* A recover_walk() event: its type, tid and log block; the rest zero. */
void notify_event_init(struct recover_event *ev,
		       enum recover_event_type type, uint32_t tid,
		       uint64_t jblock)
{
	memset(ev, 0, sizeof(*ev));
	ev->size = sizeof(*ev);
	ev->type = type;
	ev->tid = tid;
	ev->jblock = jblock;
}

/* Hand an event to recover_walk()'s callback, which may ask to stop. */
errcode_t notify_event_send(struct notify *n,
			    const struct recover_event *ev)
{
	return n->event(n->event_data, ev) ? RECOVER_ET_INTERRUPTED : 0;
}

void notify_skipped(struct notify *n, uint32_t tid, uint64_t jblock,
		    uint64_t fsblock, unsigned int flags,
		    enum recover_fate fate)
{
	struct recover_event ev;

	if (!n->skipped)
		return;
	notify_event_init(&ev, RECOVER_EV_FATE, tid, jblock);
	ev.fsblock = fsblock;
	ev.flags = flags;
	ev.fate = fate;
	(void)n->skipped(n->skipped_data, &ev);
}

/*
 * A struct of the library's out into the caller's, which starts with the
 * caller's size: as many bytes as both know, the caller's size kept.
 */
void notify_copy_out(void *dst, const void *src, size_t lib_size)
{
	size_t want;

	if (!dst)
		return;
	memcpy(&want, dst, sizeof(want));
	if (want <= sizeof(want))
		return;
	if (want > lib_size) {
		memset((unsigned char *)dst + lib_size, 0, want - lib_size);
		want = lib_size;
	}
	memcpy((unsigned char *)dst + sizeof(want),
	       (const unsigned char *)src + sizeof(want), want - sizeof(want));
}
