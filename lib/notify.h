/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * notify.h -- what the library tells its caller while it works: how far a
 * pass is (recover_options.progress) and recover_walk()'s events.  These
 * are the one call upwards from the passes (doc/design.md); either
 * callback may ask to stop, which comes back as RECOVER_ET_INTERRUPTED.
 */
#ifndef NOTIFY_H
#define NOTIFY_H

#include <stdint.h>

#include "librecover.h"

/*
 * recover_walk()'s events: one made with its type, tid and log block (the
 * rest zero), then handed to the callback (RECOVER_ET_INTERRUPTED if it
 * asks to stop).
 */
void recovery_event_init(struct recover_event *ev,
			 enum recover_event_type type, uint32_t tid,
			 uint64_t jblock);
errcode_t recovery_event_send(struct recover_struct *r,
			      const struct recover_event *ev);

/*
 * Tell the caller how far a pass is; also where the MMP block is kept
 * fresh.  RECOVER_ET_INTERRUPTED when the caller asks to stop.
 */
errcode_t recovery_progress(struct recover_struct *r, enum recover_pass pass,
			    unsigned long long done, unsigned long long total);

#endif /* NOTIFY_H */
