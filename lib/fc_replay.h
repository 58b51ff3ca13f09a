/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_replay.h -- what the files of the fast-commit replay share, and
 * nothing else in lib/ needs: the view of the filesystem in memory
 * (fc_overlay.c) and the io manager over it (fc_io.c) that the replay
 * (fc_replay.c) opens.  The layer's entry points are declared in
 * librecoverP.h.
 */
#ifndef FC_REPLAY_H
#define FC_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "librecoverP.h"
#include "fc_fs.h"

/* ---- the view in memory (fc_overlay.c) and its io manager (fc_io.c) ---- */

struct fc_overlay;

/*
 * The view of r's filesystem: the disk, under the log's blocks, under the
 * replay's writes.  r->fc_overlay holds it as soon as it exists, also when
 * this fails, for fc_overlay_free().
 */
errcode_t fc_overlay_new(struct recover_struct *r, struct fc_overlay **ret);
/* len bytes from byte off read into rbuf, or written from wbuf. */
errcode_t fc_overlay_rw(struct fc_overlay *o, unsigned long long off,
			size_t len, void *rbuf, const void *wbuf);
/* The blocks the replay wrote, written through io; *bytes says how many. */
errcode_t fc_overlay_write_out(struct fc_overlay *o, io_channel io,
			       unsigned long long *bytes);
void fc_overlay_free(struct fc_overlay *o);
/* A filesystem opened on the view, with libext2fs's open flags. */
errcode_t fc_io_open(struct fc_overlay *o, int flags, ext2_filsys *ret);

#endif /* FC_REPLAY_H */
