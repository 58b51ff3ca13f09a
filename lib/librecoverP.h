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
#include "notify.h"
#include "jbd2.h"
#include "source.h"
#include "readahead.h"
#include "target.h"
#include "revoke.h"

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
	struct notify	notify;		/* the passes' hooks (notify.h) */
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
	 * the caller's (notify.skipped: its callback for each copy skipped).
	 */
	int		fsck;
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
