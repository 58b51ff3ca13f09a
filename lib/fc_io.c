/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc_io.c -- the io manager through which libext2fs reaches the fast-commit
 * replay's view of the filesystem in memory (fc_overlay.c).
 *
 * A channel is named by the view's address ("fcio:%p"): the manager keeps
 * no state.  Requests come in the channel's block size, which libext2fs
 * sets as it goes (1024 bytes while it reads the superblock), and are
 * handed to the view as byte ranges.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fc_io.h"
#include "fc_overlay.h"

/* A count below 0 is a byte count, as everywhere in libext2fs's io. */
static void fwd_range(io_channel ch, unsigned long long block, int count,
		      unsigned long long *off, size_t *len)
{
	*off = block * (unsigned long long)ch->block_size;
	*len = count < 0 ? (size_t)-count : (size_t)count * ch->block_size;
}

static errcode_t fwd_rw(io_channel ch, unsigned long long block, int count,
			void *rbuf, const void *wbuf)
{
	unsigned long long off;
	size_t len;

	fwd_range(ch, block, count, &off, &len);
	return fc_overlay_rw(ch->private_data, off, len, rbuf, wbuf);
}

static errcode_t fwd_read64(io_channel ch, unsigned long long block, int count,
			    void *data)
{
	return fwd_rw(ch, block, count, data, NULL);
}

static errcode_t fwd_write64(io_channel ch, unsigned long long block,
			     int count, const void *data)
{
	return fwd_rw(ch, block, count, NULL, data);
}

static errcode_t fwd_read(io_channel ch, unsigned long block, int count,
			  void *data)
{
	return fwd_rw(ch, block, count, data, NULL);
}

static errcode_t fwd_write(io_channel ch, unsigned long block, int count,
			   const void *data)
{
	return fwd_rw(ch, block, count, NULL, data);
}

static errcode_t fwd_set_blksize(io_channel ch, int blksize)
{
	ch->block_size = blksize;
	return 0;
}

static errcode_t fwd_flush(io_channel ch)
{
	(void)ch;
	return 0;
}

static errcode_t fwd_close(io_channel ch)
{
	if (--ch->refcount > 0)
		return 0;
	free(ch->name);
	free(ch);
	return 0;
}

static errcode_t fwd_open(const char *name, int flags, io_channel *ret);

static struct struct_io_manager fwd_manager = {
	.magic		= EXT2_ET_MAGIC_IO_MANAGER,
	.name		= "librecover forwarding I/O manager",
	.open		= fwd_open,
	.close		= fwd_close,
	.set_blksize	= fwd_set_blksize,
	.read_blk	= fwd_read,
	.write_blk	= fwd_write,
	.flush		= fwd_flush,
	.read_blk64	= fwd_read64,
	.write_blk64	= fwd_write64,
};

static errcode_t fwd_open(const char *name, int flags, io_channel *ret)
{
	io_channel ch;
	void *p = NULL;

	(void)flags;
	if (sscanf(name, "fcio:%p", &p) != 1 || !p)
		return EXT2_ET_BAD_DEVICE_NAME;
	ch = calloc(1, sizeof(*ch));
	if (!ch || !(ch->name = strdup(name))) {
		free(ch);
		return ENOMEM;
	}
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = &fwd_manager;
	ch->block_size = 1024;
	ch->refcount = 1;
	ch->private_data = p;
	*ret = ch;
	return 0;
}

/* A filesystem opened on the view o, with libext2fs's open flags. */
errcode_t fc_io_open(struct fc_overlay *o, int flags, blk64_t superblock,
		     unsigned int block_size, ext2_filsys *ret)
{
	char name[64];

	snprintf(name, sizeof(name), "fcio:%p", (void *)o);
	return ext2fs_open2(name, NULL, flags, (int)superblock,
			    (int)block_size, &fwd_manager, ret);
}
