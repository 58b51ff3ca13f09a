/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_inode.h -- the fast-commit replay's inode records and the eviction
 * of an inode whose last link went (fc_inode.c).
 */
#ifndef FC_INODE_H
#define FC_INODE_H

#include "fc_state.h"

/* The INODE, ADD_RANGE and DEL_RANGE records. */
errcode_t fc_inode_replay(struct fc_state *c, const struct fc_tag *t);
errcode_t fc_inode_replay_range(struct fc_state *c, const struct fc_tag *t);
/* The inode in c->ibuf, whose last link went, released as the kernel
 * evicts it. */
errcode_t fc_inode_evict(struct fc_state *c, ext2_ino_t ino);
/* The file in c->ibuf lost its last name: written with no links, and its
 * eviction left for later (fc_inode_evict_unlinked()); an INODE record of
 * the same generation before then brings it back whole. */
errcode_t fc_inode_unlinked(struct fc_state *c, ext2_ino_t ino);
/* The files fc_inode_unlinked() left that nothing brought back, evicted. */
errcode_t fc_inode_evict_unlinked(struct fc_state *c);

#endif /* FC_INODE_H */
