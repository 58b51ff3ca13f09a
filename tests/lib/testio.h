/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * testio.h -- what the tests' own io managers (tests/lib/memio.c, an image
 * in memory; tests/crash/faultio.c, faults injected over unix_io) share:
 * making and freeing the io_channel that libext2fs hands back to them.
 */
#ifndef TESTIO_H
#define TESTIO_H

#include <stdlib.h>
#include <string.h>

#include <ext2fs/ext2fs.h>

/*
 * A channel of manager m named name, with block size block_size and the
 * manager's own private data, in *channel.  Returns 0 or
 * EXT2_ET_NO_MEMORY.
 */
static inline errcode_t testio_channel_new(io_manager m, const char *name,
					   int block_size, void *private_data,
					   io_channel *channel)
{
	io_channel io = calloc(1, sizeof(*io));

	if (io)
		io->name = strdup(name);
	if (!io || !io->name) {
		free(io);
		return EXT2_ET_NO_MEMORY;
	}
	io->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	io->manager = m;
	io->block_size = block_size;
	io->refcount = 1;
	io->private_data = private_data;
	*channel = io;
	return 0;
}

static inline void testio_channel_free(io_channel io)
{
	free(io->name);
	free(io);
}

#endif /* TESTIO_H */
