/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librecoverP.h -- declarations shared between librecover's sources.
 */
#ifndef LIBRECOVERP_H
#define LIBRECOVERP_H

#include <stdint.h>

#include "librecover.h"
#include "jbd2_fs.h"
#include "rtable.h"
#include "crc32c.h"
#include "array.h"

/* ---- journal superblock and block decoding (jbd2.c) ---------------------- */

/* The journal superblock, decoded, with the geometry derived from it. */
struct jsuper {
	struct recover_super pub;
	uint32_t	last;		/* end of the normal log (exclusive) */
	unsigned int	tag_bytes;	/* size of one descriptor tag */
	unsigned int	tail;		/* checksum tail of descriptor/revoke */
	unsigned int	revoke_rec;	/* bytes per revoke record: 4 or 8 */
	int		csum_v1;	/* COMPAT_CHECKSUM */
	int		csum_v2, csum_v3;
	int		has_64bit;
	int		async_commit;
	uint32_t	csum_seed;	/* crc32c of the uuid (v2/v3) */
};

errcode_t jbd2_decode_super(const unsigned char *buf, unsigned int fs_blocksize,
			    struct jsuper *sb);
/* A dump may be cut short: it is replayed up to where it ends. */
errcode_t jbd2_check_geometry(const struct jsuper *sb, uint64_t journal_blocks,
			      int may_be_short);
uint32_t jbd2_super_csum(const unsigned char *buf);
void jbd2_super_set_csum(const struct jsuper *sb, unsigned char *buf);

/* What a finished replay tells jbd2_reset_super(). */
struct jbd2_reset {
	int		had_log;	/* there was a log: it is emptied */
	int		replayed;	/* and its replay succeeded */
	uint32_t	end_tid;	/* the tid after the last one replayed */
	int		failed_commit;	/* a commit block was corrupt */
	int		keep_errno;	/* s_errno stays for the caller to carry
					 * into the filesystem (fsck.c) */
};

/*
 * Write the end of a replay into buf, the journal superblock sb was
 * decoded from.  Returns 1 when s_errno was set: the filesystem is then
 * to be marked as having errors.
 */
int jbd2_reset_super(const struct jsuper *sb, unsigned char *buf,
		     const struct jbd2_reset *how);

/* One decoded descriptor tag. */
struct jbd2_tag {
	uint64_t	blocknr;
	uint32_t	csum;		/* as stored: 16 bits for v2, 32 for v3 */
	uint16_t	flags;
};

/*
 * Iterate over a descriptor block's tags the way the kernel counts them:
 * stops at LAST_TAG or when the next tag would not fit before the tail.
 * *pos starts at 0; returns 1 with *tag filled, or 0 when done.
 */
int jbd2_next_tag(const struct jsuper *sb, const unsigned char *blk,
		  unsigned int *pos, struct jbd2_tag *tag);

int jbd2_block_csum_ok(const struct jsuper *sb, const unsigned char *blk);
int jbd2_commit_csum_ok(const struct jsuper *sb, const unsigned char *blk);
int jbd2_data_csum_ok(const struct jsuper *sb, uint32_t tid,
		      const unsigned char *data, uint32_t stored);

/*
 * Start iterating over a revoke block's records (jbd2_revoke_next() in
 * jbd2_fs.h).  RECOVER_ET_REVOKE_COUNT when r_count runs past the block (or
 * into its checksum tail); the iterator then holds no record.
 */
errcode_t jbd2_revoke_begin(const struct jsuper *sb, const unsigned char *blk,
			    struct jbd2_revoke_iter *it);

/* Next log block after blk, wrapping from the log's end back to s_first. */
static inline uint32_t jbd2_log_next(const struct jsuper *sb, uint32_t blk)
{
	blk++;
	return blk >= sb->last ? sb->pub.first : blk;
}

/* ---- journal sources (source.c) ----------------------------------------- */

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

errcode_t jsource_open_inode(struct jsource *s, ext2_filsys fs);
errcode_t jsource_open_path(struct jsource *s, const char *path,
			    io_manager manager, unsigned int blocksize,
			    int rw);
/* A dump on its own (no filesystem): its superblock gives the block size. */
errcode_t jsource_open_dump(struct jsource *s, const char *path,
			    io_manager manager);
errcode_t jsource_read(struct jsource *s, uint64_t blk, unsigned int count,
		       void *buf);
errcode_t jsource_write(struct jsource *s, uint64_t blk, const void *buf);
/*
 * Where journal block blk lives on the source's device (in its blocks);
 * *n, the blocks wanted from blk, is cut at the end of the run holding it.
 * Reads only what the open set: safe from another thread during a scan.
 */
errcode_t jsource_map(const struct jsource *s, uint64_t blk, uint64_t *pblk,
		      unsigned int *n);
void jsource_close(struct jsource *s);
/*
 * The journal inode's own blocks, as a tag may name them: 1 for a block of
 * its log or of its block map (indirect or extent tree blocks), 2 for the
 * block of its superblock, 0 for any other (and for any block of a source
 * that is no journal inode).
 */
int jsource_owns(const struct jsource *s, uint64_t pblk);

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

errcode_t jreader_init(struct jreader *r, struct jsource *src, uint32_t limit);
errcode_t jreader_get(struct jreader *r, uint32_t blk, const unsigned char **p);
/* The same, reading no more than want blocks (at least 1) when blk is not
 * in the window: for passes that know which blocks they need. */
errcode_t jreader_fetch(struct jreader *r, uint32_t blk, unsigned int want,
			const unsigned char **p);

static inline int jreader_holds(const struct jreader *r, uint32_t blk)
{
	return blk >= r->start && blk < r->start + r->count;
}
void jreader_free(struct jreader *r);

/* ---- the page cache filled ahead of the scan (readahead.c) -------------- */

struct readahead;
struct recover_struct;

/*
 * A thread hinting the kernel to read the log ahead of the scan, through a
 * descriptor of its own; NULL when it does not run (RECOVER_FL_NO_READAHEAD,
 * a channel not of unix_io_manager, no log, or any failure: it is only a
 * hint).  The scan tells it how far it is (journal blocks walked, in log
 * order); readahead_stop() has it hint up to walked, joins it and returns
 * how many journal blocks it hinted.  All three take NULL.
 */
struct readahead *readahead_start(const struct recover_struct *r);
void readahead_progress(struct readahead *ra, uint64_t walked);
unsigned long long readahead_stop(struct readahead *ra, uint64_t walked);

/* ---- target: batched writes to the filesystem (target.c) --------------- */

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

/* ---- the revoke strategy (revoke.c) ------------------------------------ */

/*
 * Which logged copies revoke records cancel, by one of two strategies
 * (RECOVER_FL_FULL_REVOKE picks the second); see revoke.c for each one's
 * memory.  The scan calls revoke_logged() for every tag, revoke_block()
 * for every revoke block, and revoke_commit() or revoke_drop() at the end
 * of each transaction; revoke_finish() once the log's end is known;
 * the replay then asks revoke_cancels().
 */
struct revoke {
	int		full;		/* every record, in a REVOKE pass */
	struct rtable	rt;		/* block -> highest revoking tid */
	uint64_t	*pend;		/* default: the records of the
					 * transaction being scanned */
	size_t		npend, pend_cap;
	uint32_t	*at;		/* full: revoke blocks of the
					 * committed transactions */
	size_t		nat, at_cap, txn_at;
	size_t		peak_bytes;	/* of all the above, at most */
};

struct recover_struct;
struct jreader;

errcode_t revoke_init(struct revoke *rv, int full);
/* A tag of transaction tid logs fsblk. */
errcode_t revoke_logged(struct revoke *rv, uint64_t fsblk, uint32_t tid);
/* A revoke block at journal block at, its records in it (already checked). */
errcode_t revoke_block(struct revoke *rv, struct jbd2_revoke_iter *it,
		       uint32_t at);
/* The transaction tid is committed and replayed, or (drop) it is not. */
void revoke_commit(struct revoke *rv, uint32_t tid);
void revoke_drop(struct revoke *rv);
/* The scan is over: the full strategy's REVOKE pass reads its records. */
errcode_t revoke_finish(struct recover_struct *r, struct jreader *rd);
/* Is the copy of fsblk logged at tid cancelled?  *by (if not NULL) gets
 * the revoking tid. */
int revoke_cancels(const struct revoke *rv, uint64_t fsblk, uint32_t tid,
		   uint32_t *by);
size_t revoke_kept(const struct revoke *rv);
void revoke_free(struct revoke *rv);

/* ---- recovery (recovery.c) --------------------------------------------- */

/* A tag kept by the scan for the replay pass. */
struct jtag {
	uint64_t	fsblk;
	uint32_t	jblk;		/* journal block holding the data */
	uint32_t	tid;
	uint32_t	csum;
	uint16_t	flags;
};

struct recover_struct {
	ext2_filsys	fs;		/* NULL: recover_open_journal() */
	int		own_fs;		/* recover_open() opened fs */
	recover_event_fn event;		/* recover_walk()'s callback */
	void		*event_data;
	unsigned long long progress_next;
	struct recover_options opts;
	char		*journal_path;
	struct jsource	src;
	unsigned char	*jsb_raw;	/* journal superblock block, as read */
	struct jsource	own;		/* with a dump: the filesystem's journal */
	unsigned char	*own_jsb_raw;	/* its superblock, when it holds the
					 * same log as the dump */
	/*
	 * The journal whose superblock the end of a replay resets, decided at
	 * open: the source itself when it is the filesystem's journal; with a
	 * dump, the filesystem's own journal when it holds the same log, or
	 * none (NULL: the filesystem's journal and flags are left alone).
	 */
	struct jsource	*reset;
	unsigned char	*reset_jsb;	/* its superblock block, as read */
	struct jsuper	sb;
	int		scanned, replayed;
	errcode_t	scan_err;	/* a failed scan: returned from then on */
	int		needs_recovery;	/* filesystem flag at open */
	int		fix_jdev_csum;	/* -f: rewrite the journal device's
					 * ext2 superblock checksum */
	int		flag_clear_log;	/* has_journal clear, needs_recovery
					 * set, inode 8 holds a log */

	struct jtag	*tags;
	size_t		ntags, tags_cap;
	struct revoke	revoke;		/* the revoke strategy (revoke.c) */
	struct recover_stats st;
	int		inode_restored;	/* the journal inode was rewritten */
	struct recover_mmp mmp;		/* the MMP block (mmp.c) */
	int		mmp_held;	/* ours: EXT4_MMP_SEQ_FSCK is in it */
	int		mmp_pending;	/* to be taken before the first write */
	struct mmp_struct mmp_seen;	/* the block as the open saw it */
	unsigned int	mmp_interval;	/* seconds between updates */
	void		*fc_overlay;	/* fc_replay()'s writes, until written */
	struct recover_fs_features feat; /* what libext2fs does not know */
	/*
	 * recover_fsck_replay() (fsck.c): the end of a replay stops at the
	 * journal superblock, s_errno kept; the filesystem superblock is
	 * the caller's.  skipped: its callback for each copy skipped.
	 */
	int		fsck;
	recover_event_fn skipped;
	void		*skipped_data;
	/*
	 * Called at every progress point of the passes (notify.c): the
	 * lifecycle's, which keeps a held MMP block fresh (mmp_update()), so
	 * that the passes need not know of MMP.  NULL: nothing.
	 */
	errcode_t	(*tick)(struct recover_struct *r);
};

/* ---- dumps older than their filesystem (stale.c) ------------------------- */

/* The record of the filesystem a save appends to its copy: one block. */
void stale_facts(struct recover_struct *r, unsigned char *blk);
/*
 * Before a dump's replay: recover_stats' stale_* fields filled in, and
 * RECOVER_ET_STALE_DUMP if the filesystem changed since the dump's log was
 * written (unless RECOVER_FL_STALE_DUMP).  0 for any other source.
 */
errcode_t stale_check(struct recover_struct *r);

/* What the errors of the journal are about: its path, or the filesystem. */
static inline enum recover_about
recover_journal_about(const struct recover_struct *r)
{
	return r->journal_path ? RECOVER_ABOUT_JOURNAL : RECOVER_ABOUT_FS;
}

/* ---- feature bits (features.c) ------------------------------------------- */

/*
 * The filesystem's incompat and ro_compat bits outside what the library
 * in use supports (supp_*), into f, and whether the open may go on:
 * EXT2_ET_UNSUPP_FEATURE for an unknown incompat bit a replay of full
 * commits cannot ignore, EXT2_ET_RO_UNSUPP_FEATURE for an unknown ro_compat
 * bit when rw, else 0 (f->tolerated then lists what is ignored).
 */
errcode_t features_judge(struct recover_fs_features *f, uint32_t incompat,
			 uint32_t ro_compat, uint32_t supp_incompat,
			 uint32_t supp_ro_compat, int rw);

/* ---- the life of a handle (lifecycle.c) ---------------------------------- */

/*
 * Open what the handle works on: the filesystem on device (mount checks,
 * then its MMP block), or fs, the caller's (both NULL: a dump on its own);
 * then the journal, checked, with what its source means for the passes
 * and which journal superblock a replay resets.  *what says what an error
 * is about.  recover_close() then releases whatever was opened.
 */
errcode_t lifecycle_open(struct recover_struct *r, const char *device,
			 ext2_filsys fs, enum recover_about *what);
/* recover_needs_recovery(). */
int lifecycle_needs_recovery(const struct recover_struct *r);
/*
 * The passes that read the log, once (recover_scan(), recover_walk(), and
 * the start of a replay): SCAN, the fast-commit area, REVOKE's own pass
 * where the strategy has one, and for recover_walk() the fates and the
 * end.  A failure is kept and returned again.
 */
errcode_t lifecycle_scan(struct recover_struct *r);
/* recover_replay(): the checks, the passes and the ordered end. */
errcode_t lifecycle_replay(struct recover_struct *r, enum recover_about *what);
/* Close the journals and a filesystem the library opened (MMP released). */
void lifecycle_close(struct recover_struct *r);

/* A revoke record of the tag's transaction or a later one cancels it. */
static inline int recovery_revoked(const struct recover_struct *r,
				   const struct jtag *t)
{
	return revoke_cancels(&r->revoke, t->fsblk, t->tid, NULL);
}

/*
 * The data block of r->tags[i].  When it is not in rd's window, one read
 * takes it and the wanted copies right after it in the log (the tags k
 * that follow with state[k] == wanted), so that each copy is read once and
 * no other block is.
 */
errcode_t recovery_read_copy(struct recover_struct *r, struct jreader *rd,
			     size_t i, const unsigned char *state,
			     unsigned char wanted, const unsigned char **data);
/* SCAN (recovery.c); rd is left with its window, for the passes after. */
errcode_t recovery_scan(struct recover_struct *r, struct jreader *rd);
/* recover_walk(): what a replay does with each kept tag (plan.c). */
errcode_t recovery_plan(struct recover_struct *r, struct jreader *rd);
errcode_t recovery_restore_inode(struct recover_struct *r);

/* ---- the raw copy of the journal (save.c) -------------------------------- */

/* recover_save(): the copy to a new file renamed over path when complete. */
errcode_t save_path(struct recover_struct *r, const char *path,
		    enum recover_about *what);
/* recover_save_fd(). */
errcode_t save_fd(struct recover_struct *r, int fd, enum recover_about *what);

/* ---- the fast-commit area (fc.c) ---------------------------------------- */

struct fc_tag;

/*
 * Called for every record the scan looks at and accepts as a record (a
 * length that fits its tag); valid says it is among the first "limit"
 * records.  Nonzero stops the scan.
 */
typedef int (*fc_tag_fn)(void *data, const struct fc_tag *t, int valid);

struct fc_scan {
	uint32_t	expected_tid;
	unsigned int	blocksize;
	unsigned int	inode_size;	/* the filesystem's s_inode_size */
	unsigned long long limit;	/* for fc_tag_fn's valid */
	uint32_t	crc;		/* crc32c since the last TAIL */
	unsigned long long blocks;	/* blocks read records from */
	unsigned long long tags;	/* records counted so far */
	unsigned long long valid;	/* records up to the last good TAIL */
	unsigned long long valid_blocks; /* blocks up to that TAIL */
	unsigned long long commits;	/* good TAILs */
	enum recover_fc_end end;
	unsigned int	end_off;	/* byte of the record that ended it */
	int		done;
	int		interrupted;	/* fc_tag_fn asked to stop */
};

void fc_scan_init(struct fc_scan *s, uint32_t expected_tid,
		  unsigned int blocksize, unsigned int inode_size);
/* The next block of the area.  Returns 1 to go on with the next one, 0
 * when the scan stopped (s->end says why). */
int fc_scan_block(struct fc_scan *s, const unsigned char *blk, fc_tag_fn fn,
		  void *data);
/* What the kernel makes of a scan that stopped. */
errcode_t fc_scan_verdict(const struct fc_scan *s, enum recover_fc_state *state);
/* The start of a walk over r's area: s set up for transaction tid, its
 * first limit records valid; returns a one-block buffer to free, or NULL. */
unsigned char *fc_area_begin(struct recover_struct *r, struct fc_scan *s,
			     uint32_t tid, unsigned long long limit);
/* The area of r's journal after recovery_scan(): fills r->st.fc_*, and
 * hands its records to recover_walk()'s callback. */
errcode_t fc_scan_area(struct recover_struct *r);

/* ---- fast-commit replay (fc_replay.c) ---------------------------------- */

/* RECOVER_ET_FC_RECORD when a valid record names an inode, block or name
 * the replay must not touch; nothing is written. */
errcode_t fc_replay_check(struct recover_struct *r);
/*
 * The valid records, replayed in memory on the filesystem as the log's
 * blocks will leave it (nothing written; RECOVER_ET_FC_REPLAY, with
 * r->st.fc_error saying why, when a record cannot be replayed); then
 * fc_replay_commit(), after the log's blocks, writes what it changed.
 */
errcode_t fc_replay(struct recover_struct *r);
errcode_t fc_replay_commit(struct recover_struct *r);
void fc_replay_free(struct recover_struct *r);
errcode_t recovery_replay(struct recover_struct *r);
/* The REPLAY pass proper: each block's last good copy, once (replay.c). */
errcode_t replay_blocks(struct recover_struct *r);

/* A logged block and one of its copies (an index in r->tags). */
struct replay_block {
	uint64_t	fsblk;
	uint32_t	tag;
};

#define REPLAY_NONE	UINT32_MAX	/* no earlier candidate */

/*
 * The tags as a replay takes them, before any data block is read (replay.c;
 * also what recover_walk()'s fates start from): a copy that a revoke
 * record cancels gets state[i] = revoked, any other is a candidate,
 * state[i] = cand.  prev[i] is the candidate before it of the same block
 * (REPLAY_NONE for a block's first one and for revoked copies), and
 * *blocks, *nblocks of them, each block's last candidate, the blocks in
 * the order their first candidates come in (to free; NULL on an error).
 */
errcode_t replay_classify(const struct recover_struct *r, unsigned char *state,
			  unsigned char revoked, unsigned char cand,
			  uint32_t *prev, struct replay_block **blocks,
			  size_t *nblocks);

/* ---- multi-mount protection (mmp.c) -------------------------------------- */

/* Check the MMP block of r->fs (opened with EXT2_FLAG_SKIP_MMP); when it
 * is open read-write, mmp_take() is to take it before the first write. */
errcode_t mmp_begin(struct recover_struct *r);
/* Take the block as ext2fs_mmp_start() does (waits a stop request ends). */
errcode_t mmp_take(struct recover_struct *r);
/* The seconds mmp_take() is to wait, for the block in buf. */
unsigned int planned_wait(ext2_filsys fs, const void *buf);
/* Rewrite the block when an update interval has passed (progress points). */
errcode_t mmp_update(struct recover_struct *r);
/* Write "clean" back, if the block is held. */
errcode_t mmp_end(struct recover_struct *r);
void mmp_publish(struct recover_struct *r);

#endif /* LIBRECOVERP_H */
