/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_htree.h -- a full one-block directory made an indexed one, as the
 * kernel makes it (fc_htree.c).
 */
#ifndef FC_HTREE_H
#define FC_HTREE_H

#include "fc_state.h"

/* dir, one block with no room for a new name, made an indexed directory as
 * the kernel makes it, if the filesystem has dir_index and dir is not
 * indexed or inline already; *done says it was. */
errcode_t fc_htree_index_dir(struct fc_state *c, ext2_ino_t dir, int *done);

#endif /* FC_HTREE_H */
