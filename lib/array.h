/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * array.h -- the arrays the library builds as it goes (tags, pending
 * revoke records, the fast-commit replay's lists) grow by doubling, so
 * that n appends cost O(n) copying in all and a capacity is never more
 * than twice what was asked for.
 */
#ifndef ARRAY_H
#define ARRAY_H

#include <stddef.h>
#include <ext2fs/ext2fs.h>

/*
 * Make room for need elements of size bytes in the array *p of *cap
 * elements: 0, or ENOMEM with *p and *cap as they were.
 */
errcode_t array_grow(void **p, size_t *cap, size_t need, size_t size);

#endif /* ARRAY_H */
