/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * target.h -- where replayed blocks go (lib/target.c): runs of
 * consecutive blocks written through the filesystem's io channel, or
 * nowhere for a dry run.
 */
#ifndef TARGET_H
#define TARGET_H

#include <stdint.h>
#include <ext2fs/ext2fs.h>

struct target {
	io_channel	io;
	unsigned int	blocksize;
	int		dry_run;
	unsigned char	*buf;
	uint64_t	first;		/* fs block of buf[0] */
	unsigned int	count;		/* blocks pending */
	unsigned int	cap;
	unsigned long long written_bytes;
	int		issued;		/* a write went to io, done or not */
};

errcode_t target_init(struct target *t, io_channel io, unsigned int blocksize,
		      int dry_run);
errcode_t target_write(struct target *t, uint64_t blk, const unsigned char *data,
		       int escape);
errcode_t target_flush(struct target *t);
void target_free(struct target *t);

#endif /* TARGET_H */
