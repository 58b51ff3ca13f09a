/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * target.c -- where replayed blocks go: the filesystem's io_channel, with
 * runs of consecutive blocks gathered into one write; or, for a dry run,
 * nowhere (only counted).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jbd2.h"
#include "target.h"

#define WRITE_CHUNK	(1U << 20)

errcode_t target_init(struct target *t, io_channel io, unsigned int blocksize,
		      int dry_run)
{
	memset(t, 0, sizeof(*t));
	t->io = io;
	t->blocksize = blocksize;
	t->dry_run = dry_run;
	t->cap = WRITE_CHUNK / blocksize;
	if (!t->cap)
		t->cap = 1;
	if (dry_run)
		return 0;
	t->buf = malloc((size_t)t->cap * blocksize);
	return t->buf ? 0 : ENOMEM;
}

errcode_t target_flush(struct target *t)
{
	errcode_t err;

	if (!t->count)
		return 0;
	t->issued = 1;
	err = io_channel_write_blk64(t->io, t->first, (int)t->count, t->buf);
	if (!err)
		t->written_bytes += (unsigned long long)t->count * t->blocksize;
	t->count = 0;
	return err;
}

/*
 * Later copies of a block must land after earlier ones: a copy joins the
 * pending run only when it extends it, otherwise the run goes out first.
 */
errcode_t target_write(struct target *t, uint64_t blk, const unsigned char *data,
		       int escape)
{
	unsigned char *dst;
	errcode_t err;

	if (t->dry_run) {
		t->written_bytes += t->blocksize;
		return 0;
	}
	if (t->count && (blk != t->first + t->count || t->count == t->cap)) {
		err = target_flush(t);
		if (err)
			return err;
	}
	if (!t->count)
		t->first = blk;
	dst = t->buf + (size_t)t->count * t->blocksize;
	memcpy(dst, data, t->blocksize);
	if (escape)
		jbd2_unescape(dst);
	t->count++;
	return 0;
}

void target_free(struct target *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
