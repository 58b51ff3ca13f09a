/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_verify.h -- the fast-commit replay checked against its log before
 * anything is written (fc_verify.c).
 */
#ifndef FC_VERIFY_H
#define FC_VERIFY_H

#include "fc_state.h"

/* A record noted for fc_verify() as it is applied. */
errcode_t fc_verify_expect(struct fc_state *c, const struct fc_tag *t);
/* After the replay: every file in use maps what the last record about each
 * of its blocks says, or RECOVER_ET_FC_LOST; no two inodes the replay
 * touched map one cluster, or RECOVER_ET_FC_SHARED. */
errcode_t fc_verify(struct fc_state *c);
void fc_verify_free(struct fc_state *c);

#endif /* FC_VERIFY_H */
