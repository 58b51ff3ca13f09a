/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * readahead.h -- the thread that hints the kernel to read the log ahead
 * of the scan (lib/readahead.c).
 */
#ifndef READAHEAD_H
#define READAHEAD_H

#include <stdint.h>

#include "jbd2.h"
#include "source.h"

struct readahead;

/*
 * A thread hinting the kernel to read src's log (sb's) ahead of the scan,
 * through a descriptor of its own, checking first that the block it reads
 * there is the superblock jsb as read (its first jsb_len bytes); NULL when
 * it does not run (a channel not of unix_io_manager, no log, or any
 * failure: it is only a hint; the scan does not start it under
 * RECOVER_FL_NO_READAHEAD).  The scan tells it how far it is (journal blocks walked, in log
 * order); readahead_stop() has it hint up to walked, joins it and returns
 * how many journal blocks it hinted.  All three take NULL.
 */
struct readahead *readahead_start(const struct jsource *src,
				  const struct jsuper *sb,
				  const unsigned char *jsb, unsigned int jsb_len);
void readahead_progress(struct readahead *ra, uint64_t walked);
unsigned long long readahead_stop(struct readahead *ra, uint64_t walked);

#endif /* READAHEAD_H */
