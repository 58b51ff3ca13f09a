/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * source.h -- where journal blocks come from (lib/source.c): the journal
 * inode mapped into runs, an external journal device, a saved dump; and the
 * window the passes read the log through.
 */
#ifndef SOURCE_H
#define SOURCE_H

#include <stdint.h>
#include <ext2fs/ext2fs.h>

#include "librecover.h"
#include "jbd2.h"

struct jrun {
	uint64_t	lblk;		/* first journal block of the run */
	uint64_t	pblk;		/* where it lives on the device */
	uint64_t	len;
};

struct jsource {
	enum recover_source kind;	/* for the caller (recover_super) */
	/*
	 * What the source means for the passes, decided when it is opened,
	 * so that they ask these rather than the kind:
	 *   fs_journal  the journal the filesystem itself names (its inode or
	 *               its external device): its needs_recovery flag and
	 *               s_errno are about this log, and a log without the
	 *               flag is not the journal's to replay on its own.  A
	 *               dump is a copy: its log is replayed whatever the flag
	 *               says, it must name the filesystem by UUID, and the end
	 *               of a replay resets the filesystem's own journal only
	 *               when that one holds the same log;
	 *   external    an external journal device: an ext2 superblock of its
	 *               own (ext2_sb) and a list of the filesystems using it;
	 *   may_end_early  a dump, which may be cut short anywhere: it may
	 *               hold fewer blocks than its superblock's s_maxlen, and
	 *               a read past its end returns RECOVER_ET_DUMP_END (where
	 *               the log is cut), not RECOVER_ET_JOURNAL_SHORT (a
	 *               journal shorter than its superblock says: a fault).
	 */
	int		fs_journal;
	int		external;
	int		may_end_early;
	io_channel	io;		/* device holding the journal */
	int		own_io;		/* io is ours to close */
	struct jrun	*runs;		/* journal inode's block map */
	size_t		nruns;
	struct jrun	*by_pblk;	/* the runs, in device order */
	uint64_t	*tree;		/* its indirect or extent tree blocks,
					 * sorted */
	size_t		ntree, tree_cap;
	uint64_t	blocks;		/* journal blocks available */
	uint64_t	sb_block;	/* journal block of the superblock */
	unsigned int	blocksize;
	unsigned long long read_bytes;
	/*
	 * The journal inode failed e2fsck's checks and its blocks are mapped
	 * through the superblock's backup (s_jnl_blocks): backup_inode is
	 * the inode e2fsck builds from it, and writes over inode ino before
	 * its replay.
	 */
	int		from_backup;
	ext2_ino_t	ino;
	struct ext2_inode backup_inode;
	/* An external journal device's ext2 superblock, as read. */
	unsigned char	ext2_sb[SUPERBLOCK_SIZE];
};

errcode_t source_open_inode(struct jsource *s, ext2_filsys fs);
errcode_t source_open_path(struct jsource *s, const char *path,
			   io_manager manager, unsigned int blocksize,
			   int rw);
/* A dump on its own (no filesystem): its superblock gives the block size. */
errcode_t source_open_dump(struct jsource *s, const char *path,
			   io_manager manager);
errcode_t source_read(struct jsource *s, uint64_t blk, unsigned int count,
		      void *buf);
errcode_t source_write(struct jsource *s, uint64_t blk, const void *buf);
/*
 * Where journal block blk lives on the source's device (in its blocks);
 * *n, the blocks wanted from blk, is cut at the end of the run holding it.
 * Reads only what the open set: safe from another thread during a scan.
 */
errcode_t source_map(const struct jsource *s, uint64_t blk, uint64_t *pblk,
		     unsigned int *n);
void source_close(struct jsource *s);
/*
 * The journal inode's own blocks, as a tag may name them: 1 for a block of
 * its log or of its block map (indirect or extent tree blocks), 2 for the
 * block of its superblock, 0 for any other (and for any block of a source
 * that is no journal inode).
 */
int source_owns(const struct jsource *s, uint64_t pblk);

/*
 * A read-ahead window over the journal: the passes ask for one block at a
 * time, the window reads large runs.  Chunks never cross the log's end.
 */
struct jreader {
	struct jsource	*src;
	unsigned char	*buf;
	uint64_t	start;		/* first block in buf */
	unsigned int	count;		/* blocks in buf */
	unsigned int	cap;		/* buf capacity in blocks */
	uint32_t	limit;		/* never read at or past this block */
};

errcode_t source_reader_init(struct jreader *r, struct jsource *src,
			     uint32_t limit);
errcode_t source_reader_get(struct jreader *r, uint32_t blk,
			    const unsigned char **p);
/* The same, reading no more than want blocks (at least 1) when blk is not
 * in the window: for passes that know which blocks they need. */
errcode_t source_reader_fetch(struct jreader *r, uint32_t blk,
			      unsigned int want, const unsigned char **p);

static inline int source_reader_holds(const struct jreader *r, uint32_t blk)
{
	return blk >= r->start && blk < r->start + r->count;
}
void source_reader_free(struct jreader *r);

#endif /* SOURCE_H */
