/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * notify.h -- what the library tells its caller while it works: how far a
 * pass is (recover_options.progress), recover_walk()'s events, the copies
 * an fsck tool's replay skips (recover_fsck_replay()), and the structs it
 * fills in for the caller.  The caller's callbacks are reached only from
 * here; either may ask to stop, which comes back as RECOVER_ET_INTERRUPTED.
 */
#ifndef NOTIFY_H
#define NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "librecover.h"

/*
 * The hooks a pass is handed to tell the caller how it goes, instead of
 * the handle: the caller's progress callback, recover_walk()'s callback,
 * an fsck tool's callback for skipped copies, and the lifecycle's tick
 * (which keeps a held MMP block fresh).  Any may be NULL.
 */
struct notify {
	recover_progress_fn progress;
	void		*progress_data;
	unsigned long long progress_next; /* the next progress call at */
	recover_event_fn event;		/* recover_walk()'s */
	void		*event_data;
	recover_event_fn skipped;	/* recover_fsck_replay()'s */
	void		*skipped_data;
	errcode_t	(*tick)(void *arg);
	void		*tick_arg;
};

/*
 * recover_walk()'s events: one made with its type, tid and log block (the
 * rest zero), then handed to the callback (RECOVER_ET_INTERRUPTED if it
 * asks to stop).
 */
void notify_event_init(struct recover_event *ev,
		       enum recover_event_type type, uint32_t tid,
		       uint64_t jblock);
errcode_t notify_event_send(struct notify *n,
			    const struct recover_event *ev);

/*
 * Tell the caller how far a pass is; also where the lifecycle's tick (the
 * MMP block kept fresh) runs.  RECOVER_ET_INTERRUPTED when the caller asks
 * to stop.
 */
errcode_t notify_progress(struct notify *n, enum recover_pass pass,
			  unsigned long long done, unsigned long long total);

/*
 * recover_fsck_replay()'s callback, if any, for a copy the replay skips
 * (fate: why).
 */
void notify_skipped(struct notify *n, uint32_t tid, uint64_t jblock,
		    uint64_t fsblock, unsigned int flags,
		    enum recover_fate fate);

/* A library struct out into a caller's that says its size (librecover.h,
 * "Structs that grow"); dst NULL: nothing. */
void notify_copy_out(void *dst, const void *src, size_t lib_size);

#endif /* NOTIFY_H */
