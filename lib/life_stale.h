/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_stale.h -- a saved journal (a dump) older than its filesystem
 * (life_stale.c): the record of the filesystem a save appends, and the
 * check before a dump's replay.
 */
#ifndef LIFE_STALE_H
#define LIFE_STALE_H

#include <ext2fs/ext2fs.h>

struct recover_struct;

/* The record of the filesystem a save appends to its copy: one block. */
void life_stale_facts(struct recover_struct *r, unsigned char *blk);
/*
 * Before a dump's replay: r->stale filled in, and
 * RECOVER_ET_STALE_DUMP if the filesystem changed since the dump's log was
 * written (unless RECOVER_FL_STALE_DUMP).  0 for any other source.
 */
errcode_t life_stale_check(struct recover_struct *r);

#endif /* LIFE_STALE_H */
