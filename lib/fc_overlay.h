/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_overlay.h -- the view of the filesystem the fast-commit replay works
 * on, held in memory (fc_overlay.c); the lifecycle opens it too, to look
 * the journal up on the filesystem as the log leaves it (life_journal.c).
 */
#ifndef FC_OVERLAY_H
#define FC_OVERLAY_H

#include <stddef.h>

#include "passes.h"

struct fc_overlay;

/*
 * The view of fs: the disk, under the log's blocks (pl's tags, as the
 * replay leaves them), under the replay's writes.  *ret holds it as soon
 * as it exists, also when this fails, for fc_overlay_free().
 */
errcode_t fc_overlay_new(const struct pass_log *pl, ext2_filsys fs,
			 struct fc_overlay **ret);
/* len bytes from byte off read into rbuf, or written from wbuf. */
errcode_t fc_overlay_rw(struct fc_overlay *o, unsigned long long off,
			size_t len, void *rbuf, const void *wbuf);
/* The blocks the replay wrote, written through io; *bytes says how many. */
errcode_t fc_overlay_write_out(struct fc_overlay *o, io_channel io,
			       unsigned long long *bytes);
void fc_overlay_free(struct fc_overlay *o);

#endif /* FC_OVERLAY_H */
