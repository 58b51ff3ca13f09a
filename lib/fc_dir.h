/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_dir.h -- the fast-commit replay's directory records (fc_dir.c).
 */
#ifndef FC_DIR_H
#define FC_DIR_H

#include "fc_state.h"

/* The CREAT, LINK and UNLINK records. */
errcode_t fc_dir_replay_create(struct fc_state *c, const struct fc_tag *t);
errcode_t fc_dir_replay_link(struct fc_state *c, const struct fc_tag *t);
errcode_t fc_dir_replay_unlink(struct fc_state *c, const struct fc_tag *t);

#endif /* FC_DIR_H */
