/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * notify.c -- the caller's callbacks, called from the passes: the progress
 * of each pass, which is also where a held MMP block is kept fresh, and
 * the events of recover_walk().
 */
#include "config.h"

#include <string.h>

#include "librecoverP.h"
#include "notify.h"

/* The units of a pass (log blocks, copies, revoke blocks...) between two
 * progress calls. */
#define PROGRESS_EVERY	64

/* Tell the caller how far a pass is (at most every PROGRESS_EVERY units,
 * and at its end); it may ask to stop.  A multi-mount protection block
 * held is rewritten here when its interval has passed. */
errcode_t recovery_progress(struct recover_struct *r, enum recover_pass pass,
			    unsigned long long done, unsigned long long total)
{
	errcode_t err;

	if (done < r->progress_next && done != total)
		return 0;
	r->progress_next = done + PROGRESS_EVERY;
	/* Also where a long scan or replay keeps its MMP block fresh. */
	err = mmp_update(r);
	if (err)
		return err;
	if (!r->opts.progress)
		return 0;
	if (r->opts.progress(r->opts.progress_data, pass, done, total))
		return RECOVER_ET_INTERRUPTED;
	return 0;
}

/* A recover_walk() event: its type, tid and log block; the rest zero. */
void recovery_event_init(struct recover_event *ev,
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
errcode_t recovery_event_send(struct recover_struct *r,
			      const struct recover_event *ev)
{
	return r->event(r->event_data, ev) ? RECOVER_ET_INTERRUPTED : 0;
}
