/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_save.h -- the raw copy of the journal (life_save.c): recover_save()
 * and recover_save_fd().
 */
#ifndef LIFE_SAVE_H
#define LIFE_SAVE_H

#include "librecover.h"

struct recover_struct;

/* recover_save(): the copy to a new file renamed over path when complete. */
errcode_t life_save_path(struct recover_struct *r, const char *path);
/* recover_save_fd(). */
errcode_t life_save_fd(struct recover_struct *r, int fd);

#endif /* LIFE_SAVE_H */
