/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * array.c -- growing an array by doubling (array.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "array.h"

/* Make room for need elements of size bytes in the array *p of *cap. */
errcode_t array_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}
