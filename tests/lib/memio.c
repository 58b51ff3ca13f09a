/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memio.c -- the in-memory io_manager of the fuzz targets and the unit
 * tests (see memio.h).
 *
 * There is one image per process; every channel opened through the manager,
 * whatever its name, reads and writes it.  Reads and writes past the end
 * fail the way unix_io's do on a file that cannot grow: a short read is
 * zero-filled and reported, a write is refused.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memio.h"
#include "recover_err.h"
#include "testio.h"

static struct {
	unsigned char	*data;
	unsigned char	*pristine;
	unsigned char	*dirty;		/* one byte per unit */
	size_t		size;
	size_t		bad;		/* unit whose reads fail */
	unsigned long	writes, flushes;
} img;

static struct {
	blk64_t		*map;		/* journal block -> image block */
	unsigned int	n;
	unsigned int	bs;
} jmap;

int memio_create(size_t size)
{
	size_t units = size / MEMIO_UNIT;

	free(img.data);
	free(img.pristine);
	free(img.dirty);
	memset(&img, 0, sizeof(img));
	if (!units || size % MEMIO_UNIT)
		return -1;
	img.data = calloc(1, size);
	img.pristine = calloc(1, size);
	img.dirty = calloc(1, units);
	if (!img.data || !img.pristine || !img.dirty)
		return -1;
	img.size = size;
	img.bad = (size_t)-1;
	return 0;
}

void memio_fail_reads(size_t off)
{
	img.bad = off == (size_t)-1 ? off : off / MEMIO_UNIT;
}

unsigned char *memio_data(void)
{
	return img.data;
}

size_t memio_size(void)
{
	return img.size;
}

const unsigned char *memio_pristine(void)
{
	return img.pristine;
}

void memio_touch(size_t off, size_t len)
{
	size_t u;

	if (!len || off >= img.size)
		return;
	if (len > img.size - off)
		len = img.size - off;
	for (u = off / MEMIO_UNIT; u <= (off + len - 1) / MEMIO_UNIT; u++)
		img.dirty[u] = 1;
}

int memio_dirty(size_t off)
{
	return off < img.size && img.dirty[off / MEMIO_UNIT];
}

void memio_snapshot(void)
{
	memcpy(img.pristine, img.data, img.size);
	memset(img.dirty, 0, img.size / MEMIO_UNIT);
	img.writes = img.flushes = 0;
}

void memio_reset(void)
{
	size_t u, n = img.size / MEMIO_UNIT;

	for (u = 0; u < n; u++) {
		if (!img.dirty[u])
			continue;
		memcpy(img.data + u * MEMIO_UNIT, img.pristine + u * MEMIO_UNIT,
		       MEMIO_UNIT);
		img.dirty[u] = 0;
	}
	img.writes = img.flushes = 0;
}

unsigned long memio_writes(void)
{
	return img.writes;
}

unsigned long memio_flushes(void)
{
	return img.flushes;
}

/* ---- a filesystem in the image ------------------------------------------- */

errcode_t memio_mkfs(unsigned int inodes, __u32 compat,
		     struct ext2fs_journal_params *jp,
		     unsigned char uuid0, unsigned char uuid_step,
		     ext2_filsys *fsp)
{
	struct ext2_super_block param;
	ext2_filsys fs;
	unsigned int i;
	errcode_t err;

	memset(&param, 0, sizeof(param));
	ext2fs_blocks_count_set(&param, img.size / 1024);
	param.s_log_block_size = 0;
	param.s_rev_level = EXT2_DYNAMIC_REV;
	param.s_inode_size = 256;
	param.s_inodes_count = inodes;
	param.s_feature_compat = EXT2_FEATURE_COMPAT_EXT_ATTR |
				 EXT2_FEATURE_COMPAT_DIR_INDEX | compat;
	param.s_feature_incompat = EXT2_FEATURE_INCOMPAT_FILETYPE |
				   EXT3_FEATURE_INCOMPAT_EXTENTS |
				   EXT4_FEATURE_INCOMPAT_64BIT |
				   EXT4_FEATURE_INCOMPAT_FLEX_BG;
	param.s_feature_ro_compat = EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER |
				    EXT2_FEATURE_RO_COMPAT_LARGE_FILE |
				    EXT4_FEATURE_RO_COMPAT_METADATA_CSUM;
	param.s_log_groups_per_flex = 4;
	err = ext2fs_initialize("memory", EXT2_FLAG_64BITS, &param,
				memio_manager, &fs);
	if (err)
		return err;
	for (i = 0; i < 16; i++)
		fs->super->s_uuid[i] = (unsigned char)(uuid0 + uuid_step * i);
	/* The signed directory hash, whatever the host's char is (libext2fs
	 * picks by it), so that every host builds the same image. */
	fs->super->s_flags = (fs->super->s_flags & ~EXT2_FLAGS_UNSIGNED_HASH) |
			     EXT2_FLAGS_SIGNED_HASH;
	fs->super->s_checksum_type = EXT2_CRC32C_CHKSUM;
	ext2fs_init_csum_seed(fs);
	fs->super->s_mkfs_time = fs->super->s_wtime = 1700000000;
	err = ext2fs_allocate_tables(fs);
	/* What mke2fs does too: reserved inodes, a root directory. */
	for (i = EXT2_BAD_INO; !err && i < EXT2_FIRST_INODE(fs->super); i++)
		if (i != EXT2_ROOT_INO)
			ext2fs_inode_alloc_stats2(fs, i, +1, 0);
	if (!err)
		err = ext2fs_mkdir(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, 0);
	if (!err)
		err = ext2fs_add_journal_inode3(fs, jp, ~0ULL, 0);
	if (err) {
		ext2fs_free(fs);
		return err;
	}
	*fsp = fs;
	return 0;
}

errcode_t memio_map_journal(ext2_filsys fs, unsigned int n)
{
	unsigned int j;
	errcode_t err;

	free(jmap.map);
	jmap.map = calloc(n ? n : 1, sizeof(*jmap.map));
	jmap.n = n;
	jmap.bs = fs->blocksize;
	if (!jmap.map)
		return EXT2_ET_NO_MEMORY;
	for (j = 0; j < n; j++) {
		err = ext2fs_bmap2(fs, EXT2_JOURNAL_INO, NULL, NULL, 0, j,
				   NULL, &jmap.map[j]);
		if (err)
			return err;
		if (!jmap.map[j] ||
		    jmap.map[j] >= ext2fs_blocks_count(fs->super))
			return EXT2_ET_BAD_BLOCK_NUM;
	}
	return 0;
}

size_t memio_jblock_off(unsigned int j)
{
	return (size_t)jmap.map[j] * jmap.bs;
}

unsigned char *memio_jblock(unsigned int j)
{
	return img.data + memio_jblock_off(j);
}

void memio_touch_jblock(unsigned int j)
{
	memio_touch(memio_jblock_off(j), jmap.bs);
}

errcode_t memio_close_fs(ext2_filsys fs, errcode_t err)
{
	if (err) {
		ext2fs_free(fs);
		return err;
	}
	return ext2fs_close_free(&fs);
}

int memio_setup(size_t size, errcode_t (*build)(void), int *verbose)
{
	*verbose = 0;
	if (memio_create(size) || build())
		return -1;
	memio_snapshot();
#ifndef FUZZING_ENGINE
	*verbose = getenv("FUZZ_VERBOSE") != NULL;
	initialize_rcvr_error_table();
	initialize_ext2_error_table();
#endif
	return 0;
}

/* ---- the io_manager ---------------------------------------------------- */

static errcode_t mem_open(const char *name, int flags, io_channel *channel)
{
	(void)flags;
	if (!img.data)
		return EXT2_ET_BAD_DEVICE_NAME;
	return testio_channel_new(memio_manager, name ? name : "memory", 1024,
				  NULL, channel);
}

static errcode_t mem_close(io_channel io)
{
	if (--io->refcount > 0)
		return 0;
	testio_channel_free(io);
	return 0;
}

static errcode_t mem_set_blksize(io_channel io, int blksize)
{
	if (blksize <= 0)
		return EXT2_ET_INVALID_ARGUMENT;
	io->block_size = blksize;
	return 0;
}

/*
 * Byte range of a block request (count < 0 means -count bytes), clipped to
 * the image: returns 0 when the whole range is inside it.
 */
static int span(io_channel io, unsigned long long block, int count,
		size_t *off, size_t *len)
{
	unsigned long long bs = (unsigned)io->block_size, l;

	l = count < 0 ? (unsigned long long)-(long long)count
		      : (unsigned long long)count * bs;
	*len = (size_t)l;
	if (block >= img.size / bs + 1) {
		*off = img.size;
		return -1;
	}
	*off = (size_t)(block * bs);
	if (*off > img.size) {
		*off = img.size;
		return -1;
	}
	return l <= img.size - *off ? 0 : -1;
}

static errcode_t mem_read_blk64(io_channel io, unsigned long long block,
				int count, void *data)
{
	size_t off, len;

	if (span(io, block, count, &off, &len) == 0 && img.bad != (size_t)-1 &&
	    len && off / MEMIO_UNIT <= img.bad &&
	    img.bad <= (off + len - 1) / MEMIO_UNIT)
		return EIO;
	if (span(io, block, count, &off, &len)) {
		size_t have = img.size - off;

		if (have > len)
			have = len;
		memcpy(data, img.data + off, have);
		memset((unsigned char *)data + have, 0, len - have);
		return EXT2_ET_SHORT_READ;
	}
	memcpy(data, img.data + off, len);
	return 0;
}

static errcode_t mem_write_blk64(io_channel io, unsigned long long block,
				 int count, const void *data)
{
	size_t off, len;

	img.writes++;
	if (span(io, block, count, &off, &len))
		return EXT2_ET_SHORT_WRITE;
	memcpy(img.data + off, data, len);
	memio_touch(off, len);
	return 0;
}

static errcode_t mem_read_blk(io_channel io, unsigned long block, int count,
			      void *data)
{
	return mem_read_blk64(io, block, count, data);
}

static errcode_t mem_write_blk(io_channel io, unsigned long block, int count,
			       const void *data)
{
	return mem_write_blk64(io, block, count, data);
}

static errcode_t mem_write_byte(io_channel io, unsigned long offset, int size,
				const void *data)
{
	(void)io;
	img.writes++;
	if (size < 0 || offset > img.size || (size_t)size > img.size - offset)
		return EXT2_ET_SHORT_WRITE;
	memcpy(img.data + offset, data, (size_t)size);
	memio_touch(offset, (size_t)size);
	return 0;
}

static errcode_t mem_flush(io_channel io)
{
	(void)io;
	img.flushes++;
	return 0;
}

static errcode_t mem_set_option(io_channel io, const char *option,
				const char *arg)
{
	(void)io;
	(void)option;
	(void)arg;
	return EXT2_ET_INVALID_ARGUMENT;
}

static struct struct_io_manager memio_struct = {
	.magic		= EXT2_ET_MAGIC_IO_MANAGER,
	.name		= "librecover fuzz memory I/O manager",
	.open		= mem_open,
	.close		= mem_close,
	.set_blksize	= mem_set_blksize,
	.read_blk	= mem_read_blk,
	.write_blk	= mem_write_blk,
	.flush		= mem_flush,
	.write_byte	= mem_write_byte,
	.set_option	= mem_set_option,
	.read_blk64	= mem_read_blk64,
	.write_blk64	= mem_write_blk64,
};

io_manager memio_manager = &memio_struct;
