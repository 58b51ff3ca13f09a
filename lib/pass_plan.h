/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pass_plan.h -- the fate of every tag, for recover_walk()
 * (pass_plan.c).
 */
#ifndef PASS_PLAN_H
#define PASS_PLAN_H

#include "passes.h"

/*
 * A RECOVER_EV_FATE event for every tag, worked out as REPLAY would go
 * (fs: NULL when there is no filesystem; log_failed: recovery failed and
 * nothing is replayed).  Nothing without an event callback.
 */
errcode_t pass_plan(const struct pass_log *pl, struct jreader *rd,
		    ext2_filsys fs, int log_failed);

#endif /* PASS_PLAN_H */
