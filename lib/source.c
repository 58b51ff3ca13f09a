/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * source.c -- where journal blocks come from: the journal inode (mapped once
 * into runs), an external journal device, or a saved dump file; and the
 * read-ahead window the passes read through.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "ext4_fs.h"
#include "ext4_super.h"

/* Large enough that a pass over the log is a few big sequential reads. */
#define READ_CHUNK	(2U << 20)

static int cmp_run_pblk(const void *a, const void *b)
{
	const struct jrun *x = a, *y = b;

	return x->pblk < y->pblk ? -1 : x->pblk > y->pblk;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

struct map_ctx {
	struct jsource	*s;
	size_t		cap;
	e2_blkcnt_t	last;		/* last logical block seen, or -1 */
	errcode_t	err;
};

/*
 * One block of the journal inode, in e2fsck's walk (BLOCK_FLAG_HOLE, so
 * holes and the indirect or extent tree blocks come here too): the walk
 * stops at the first block that is 0 or outside the filesystem, and the
 * data blocks before it become the runs.
 */
static int map_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct map_ctx *m = priv;
	struct jsource *s = m->s;
	struct jrun *last = s->nruns ? &s->runs[s->nruns - 1] : NULL;

	(void)ref_blk;
	(void)ref_offset;
	if (!*blocknr || *blocknr < fs->super->s_first_data_block ||
	    *blocknr >= ext2fs_blocks_count(fs->super))
		return BLOCK_ABORT;
	if (blockcnt < 0) {
		if (s->ntree == s->tree_cap) {
			size_t cap = s->tree_cap ? s->tree_cap * 2 : 16;
			uint64_t *t = realloc(s->tree, cap * sizeof(*t));

			if (!t) {
				m->err = ENOMEM;
				return BLOCK_ABORT;
			}
			s->tree = t;
			s->tree_cap = cap;
		}
		s->tree[s->ntree++] = *blocknr;
		return 0;
	}
	m->last = blockcnt;
	if (last && last->lblk + last->len == (uint64_t)blockcnt &&
	    last->pblk + last->len == *blocknr) {
		last->len++;
		return 0;
	}
	if (s->nruns == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		struct jrun *runs = realloc(s->runs, cap * sizeof(*runs));

		if (!runs) {
			m->err = ENOMEM;
			return BLOCK_ABORT;
		}
		s->runs = runs;
		m->cap = cap;
	}
	s->runs[s->nruns].lblk = (uint64_t)blockcnt;
	s->runs[s->nruns].pblk = *blocknr;
	s->runs[s->nruns].len = 1;
	s->nruns++;
	return 0;
}

/*
 * While the backup is mapped, libext2fs's inode reads of the journal inode
 * return the inode built from it (the hook e2fsck uses for the same walk).
 */
struct backup_hook {
	const struct ext2_inode *inode;
	ext2_ino_t	ino;
};

static errcode_t read_backup_inode(ext2_filsys fs, ext2_ino_t ino,
				   struct ext2_inode *inode)
{
	const struct backup_hook *h = fs->priv_data;

	if (ino != h->ino)
		return EXT2_ET_CALLBACK_NOTHANDLED;
	*inode = *h->inode;
	return 0;
}

/*
 * Does inode hold a journal, by e2fsck's test (e2fsck_get_journal())?  A
 * linked regular file, not encrypted, of at least JBD2_MIN_LOG_BLOCKS
 * blocks, whose blocks up to i_size are all there and inside the
 * filesystem.  On success s holds its runs.
 */
static errcode_t map_journal_inode(struct jsource *s, ext2_filsys fs,
				   ext2_ino_t ino, const struct ext2_inode *inode,
				   int backup)
{
	struct map_ctx m = { .s = s, .last = -1 };
	struct backup_hook hook = { .inode = inode, .ino = ino };
	errcode_t (*saved_read)(ext2_filsys, ext2_ino_t, struct ext2_inode *);
	void *saved_priv;
	uint64_t size = EXT2_I_SIZE(inode);

	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
	free(s->by_pblk);
	s->by_pblk = NULL;
	free(s->tree);
	s->tree = NULL;
	s->ntree = s->tree_cap = 0;
	if (!inode->i_links_count || !LINUX_S_ISREG(inode->i_mode) ||
	    (inode->i_flags & EXT4_ENCRYPT_FL) ||
	    size / fs->blocksize < JBD2_MIN_LOG_BLOCKS)
		return RECOVER_ET_JOURNAL_INODE;
	saved_read = fs->read_inode;
	saved_priv = fs->priv_data;
	if (backup) {
		fs->read_inode = read_backup_inode;
		fs->priv_data = &hook;
	}
	/* Like e2fsck, judge by how far the walk got, not by its status. */
	(void)ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY |
				    BLOCK_FLAG_HOLE, NULL, map_block, &m);
	fs->read_inode = saved_read;
	fs->priv_data = saved_priv;
	if (m.err)
		return m.err;
	/*
	 * e2fsck compares against i_size cast to int: a journal of 2 GiB or
	 * more always passes (and a hole in it fails later, at its read).
	 */
	if ((long long)(m.last + 1) * fs->blocksize < (long long)(int)size)
		return RECOVER_ET_JOURNAL_INODE;
	s->blocks = size / fs->blocksize;
	if (s->nruns) {
		s->by_pblk = malloc(s->nruns * sizeof(*s->by_pblk));
		if (!s->by_pblk)
			return ENOMEM;
		memcpy(s->by_pblk, s->runs, s->nruns * sizeof(*s->by_pblk));
		qsort(s->by_pblk, s->nruns, sizeof(*s->by_pblk), cmp_run_pblk);
	}
	if (s->ntree)
		qsort(s->tree, s->ntree, sizeof(*s->tree), cmp_u64);
	return 0;
}

int source_owns(const struct jsource *s, uint64_t pblk)
{
	size_t lo = 0, hi = s->nruns;

	if (s->kind != RECOVER_SRC_INODE)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct jrun *r = &s->by_pblk[mid];

		if (pblk < r->pblk) {
			hi = mid;
		} else if (pblk >= r->pblk + r->len) {
			lo = mid + 1;
		} else {
			uint64_t lblk = r->lblk + (pblk - r->pblk);

			if (lblk >= s->blocks)
				return 0;	/* past i_size: not the journal's */
			return lblk == s->sb_block ? 2 : 1;
		}
	}
	lo = 0;
	hi = s->ntree;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pblk < s->tree[mid])
			hi = mid;
		else if (pblk > s->tree[mid])
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

errcode_t source_open_inode(struct jsource *s, ext2_filsys fs)
{
	struct ext2_super_block *es = fs->super;
	struct ext2_inode inode;
	ext2_ino_t ino = es->s_journal_inum;
	int saved_flags = fs->flags;
	errcode_t err;

	memset(s, 0, sizeof(*s));
	s->kind = RECOVER_SRC_INODE;
	s->fs_journal = 1;
	s->io = fs->io;
	s->blocksize = fs->blocksize;
	s->ino = ino;
	/* e2fsck tries no backup for an inode number out of range. */
	if (!ino || ino > fs->group_desc_count * es->s_inodes_per_group)
		return RECOVER_ET_JOURNAL_INODE;
	/* e2fsck reads the journal inode with its checksum checked. */
	fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	err = ext2fs_read_inode(fs, ino, &inode);
	fs->flags = (fs->flags & ~EXT2_FLAG_IGNORE_CSUM_ERRORS) |
		    (saved_flags & EXT2_FLAG_IGNORE_CSUM_ERRORS);
	if (!err)
		err = map_journal_inode(s, fs, ino, &inode, 0);
	if (err != RECOVER_ET_JOURNAL_INODE && err != ENOMEM && err)
		err = RECOVER_ET_JOURNAL_INODE;
	if (err != RECOVER_ET_JOURNAL_INODE)
		return err;
	if (es->s_jnl_backup_type != EXT3_JNL_BACKUP_BLOCKS)
		return err;
	/*
	 * The inode e2fsck builds from the backup: i_block and the size,
	 * one link, a regular file of mode 0600, everything else zero (no
	 * EXT4_EXTENTS_FL either, so an extent tree in the backup is read as
	 * a block map and fails the test, as in e2fsck).
	 */
	memset(&s->backup_inode, 0, sizeof(s->backup_inode));
	memcpy(s->backup_inode.i_block, es->s_jnl_blocks,
	       sizeof(s->backup_inode.i_block));
	s->backup_inode.i_size_high = es->s_jnl_blocks[EXT2_N_BLOCKS];
	s->backup_inode.i_size = es->s_jnl_blocks[EXT2_N_BLOCKS + 1];
	s->backup_inode.i_links_count = 1;
	s->backup_inode.i_mode = LINUX_S_IFREG | 0600;
	err = map_journal_inode(s, fs, ino, &s->backup_inode, 1);
	if (!err)
		s->from_backup = 1;
	return err;
}

/* Does block blk of io (in blocksize units) begin a journal superblock? */
static int jsb_at(io_channel io, unsigned int blocksize, uint64_t blk)
{
	unsigned char *buf = malloc(blocksize);
	int found = 0;

	if (!buf)
		return 0;
	if (!io_channel_read_blk64(io, blk, 1, buf))
		found = jbd2_super_version(buf) != 0;
	free(buf);
	return found;
}

/* The file or device at path, opened exclusively (flags: IO_FLAG_RW or 0). */
static errcode_t open_io(struct jsource *s, const char *path,
			 io_manager manager, int flags)
{
	errcode_t err = manager->open(path, flags | IO_FLAG_EXCLUSIVE, &s->io);

	if (err == EBUSY || err == EEXIST)
		return RECOVER_ET_BUSY;
	if (!err)
		s->own_io = 1;
	return err;
}

/*
 * The source at path is a dump, in blocks of s->blocksize: the journal
 * superblock at block 0, and as many blocks as the file holds, which may
 * be fewer than the superblock says (a dump cut short).
 */
static errcode_t as_dump(struct jsource *s, const char *path)
{
	blk64_t size = 0;
	errcode_t err;

	s->kind = RECOVER_SRC_DUMP;
	s->may_end_early = 1;
	s->sb_block = 0;
	err = ext2fs_get_device_size2(path, s->blocksize, &size);
	s->blocks = size;
	return err;
}

/*
 * An external journal device carries an ext2 superblock with the
 * journal_dev feature; a dump starts with the journal superblock.  A
 * journal superblock where a device keeps it, behind an ext2 superblock
 * without its magic or its journal_dev feature, is a damaged journal
 * device, not a dump; an ext2 superblock without journal_dev and no
 * journal superblock is a filesystem named where its journal belongs.
 * Anything else is taken as a dump (whose superblock check then fails).
 */
errcode_t source_open_path(struct jsource *s, const char *path,
			   io_manager manager, unsigned int blocksize,
			   int rw)
{
	unsigned char *sb = s->ext2_sb;
	int ext2_magic, jdev;
	errcode_t err;

	memset(s, 0, sizeof(*s));
	s->blocksize = blocksize;
	err = open_io(s, path, manager, rw ? IO_FLAG_RW : 0);
	if (err)
		return err;
	err = io_channel_set_blksize(s->io, SUPERBLOCK_OFFSET);
	if (!err)
		err = io_channel_read_blk64(s->io, 1, -SUPERBLOCK_SIZE, sb);
	if (err && err != EXT2_ET_SHORT_READ)
		goto fail;
	ext2_magic = !err && get_le16(sb + ES_MAGIC) == EXT2_SUPER_MAGIC;
	jdev = ext2_magic && (get_le32(sb + ES_FEATURE_INCOMPAT) &
			      EXT3_FEATURE_INCOMPAT_JOURNAL_DEV);
	err = io_channel_set_blksize(s->io, blocksize);
	if (err)
		goto fail;
	if (jdev) {
		s->kind = RECOVER_SRC_DEVICE;
		s->fs_journal = 1;
		s->external = 1;
		s->sb_block = ext2fs_journal_sb_start(blocksize);
		s->blocks = ext4_super_blocks_count(sb);
		return 0;
	}
	if (!jsb_at(s->io, blocksize, 0)) {
		if (jsb_at(s->io, blocksize, ext2fs_journal_sb_start(blocksize))) {
			err = ext2_magic ? RECOVER_ET_JDEV_FEATURE :
					   RECOVER_ET_JDEV_MAGIC;
			goto fail;
		}
		if (ext2_magic) {
			err = RECOVER_ET_NOT_JOURNAL_DEV;
			goto fail;
		}
	}
	err = as_dump(s, path);
fail:
	if (err)
		source_close(s);
	return err;
}

/*
 * A dump with no filesystem beside it: the block size is the one its
 * journal superblock (block 0) gives, read from the first 1024 bytes,
 * which hold every field the decoding needs to start with.
 */
errcode_t source_open_dump(struct jsource *s, const char *path,
			   io_manager manager)
{
	unsigned char hdr[SUPERBLOCK_SIZE];
	uint32_t bs;
	errcode_t err;

	memset(s, 0, sizeof(*s));
	err = open_io(s, path, manager, 0);
	if (err)
		return err;
	err = io_channel_set_blksize(s->io, SUPERBLOCK_SIZE);
	if (!err)
		err = io_channel_read_blk64(s->io, 0, 1, hdr);
	if (err == EXT2_ET_SHORT_READ) {
		err = RECOVER_ET_NOT_DUMP;
		goto fail;
	}
	if (err)
		goto fail;
	bs = get_be32(hdr + JSB_BLOCKSIZE);
	if (!jbd2_super_version(hdr) ||
	    bs < EXT2_MIN_BLOCK_SIZE || bs > EXT2_MAX_BLOCK_SIZE ||
	    (bs & (bs - 1))) {
		err = RECOVER_ET_NOT_DUMP;
		goto fail;
	}
	err = io_channel_set_blksize(s->io, bs);
	if (err)
		goto fail;
	s->blocksize = bs;
	err = as_dump(s, path);
fail:
	if (err)
		source_close(s);
	return err;
}

/* Map journal block blk to the device; *n is capped at the run's end. */
errcode_t source_map(const struct jsource *s, uint64_t blk, uint64_t *pblk,
		     unsigned int *n)
{
	size_t lo = 0, hi = s->nruns;

	if (blk >= s->blocks)
		return s->may_end_early ? RECOVER_ET_DUMP_END :
					  RECOVER_ET_JOURNAL_SHORT;
	if (s->kind != RECOVER_SRC_INODE) {
		*pblk = blk;
		if (*n > s->blocks - blk)
			*n = (unsigned int)(s->blocks - blk);
		return 0;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct jrun *r = &s->runs[mid];

		if (blk < r->lblk) {
			hi = mid;
		} else if (blk >= r->lblk + r->len) {
			lo = mid + 1;
		} else {
			*pblk = r->pblk + (blk - r->lblk);
			if (*n > r->lblk + r->len - blk)
				*n = (unsigned int)(r->lblk + r->len - blk);
			return 0;
		}
	}
	/* A hole in the journal inode. */
	return RECOVER_ET_JOURNAL_SHORT;
}

errcode_t source_read(struct jsource *s, uint64_t blk, unsigned int count,
		      void *buf)
{
	unsigned char *p = buf;
	uint64_t pblk;
	unsigned int n;
	errcode_t err;

	while (count) {
		n = count;
		err = source_map(s, blk, &pblk, &n);
		if (err)
			return err;
		err = io_channel_read_blk64(s->io, pblk, (int)n, p);
		if (err)
			return err;
		s->read_bytes += (unsigned long long)n * s->blocksize;
		p += (size_t)n * s->blocksize;
		blk += n;
		count -= n;
	}
	return 0;
}

errcode_t source_write(struct jsource *s, uint64_t blk, const void *buf)
{
	uint64_t pblk;
	unsigned int n = 1;
	errcode_t err;

	err = source_map(s, blk, &pblk, &n);
	if (err)
		return err;
	return io_channel_write_blk64(s->io, pblk, 1, buf);
}

void source_close(struct jsource *s)
{
	if (s->own_io && s->io)
		io_channel_close(s->io);
	free(s->runs);
	free(s->by_pblk);
	free(s->tree);
	memset(s, 0, sizeof(*s));
}

errcode_t source_reader_init(struct jreader *r, struct jsource *src,
			     uint32_t limit)
{
	memset(r, 0, sizeof(*r));
	r->src = src;
	r->limit = limit;
	r->cap = READ_CHUNK / src->blocksize;
	if (!r->cap)
		r->cap = 1;
	r->buf = malloc((size_t)r->cap * src->blocksize);
	return r->buf ? 0 : ENOMEM;
}

errcode_t source_reader_get(struct jreader *r, uint32_t blk,
			    const unsigned char **p)
{
	return source_reader_fetch(r, blk, r->cap, p);
}

errcode_t source_reader_fetch(struct jreader *r, uint32_t blk,
			      unsigned int want, const unsigned char **p)
{
	unsigned int n;
	errcode_t err;

	if (!source_reader_holds(r, blk)) {
		n = want < 1 ? 1 : want > r->cap ? r->cap : want;
		if (blk >= r->limit)
			return RECOVER_ET_JOURNAL_SHORT;
		if (n > r->limit - blk)
			n = r->limit - blk;
		r->count = 0;
		err = source_read(r->src, blk, n, r->buf);
		/* A bad block in a large read: retry just the one asked for. */
		if (err && n > 1) {
			n = 1;
			err = source_read(r->src, blk, n, r->buf);
		}
		if (err)
			return err;
		r->start = blk;
		r->count = n;
	}
	*p = r->buf + (size_t)(blk - r->start) * r->src->blocksize;
	return 0;
}

void source_reader_free(struct jreader *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
