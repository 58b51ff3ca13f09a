/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librecoverP.h -- the handle (struct recover_struct), with the results it
 * keeps, and nothing else: each file that takes it whole (the lifecycle's
 * row, the API, the fsck entry) declares its own functions in a header
 * named for it (lifecycle.h, life_journal.h, ...).  The passes and the
 * fast commits never include it: the lifecycle hands them a struct
 * pass_log (lifecycle_log()) and keeps their results here.
 */
#ifndef LIBRECOVERP_H
#define LIBRECOVERP_H

#include <stdint.h>

#include "librecover.h"
#include "jbd2_fs.h"
#include "crc32c.h"
#include "array.h"
#include "notify.h"
#include "jbd2.h"
#include "source.h"
#include "revoke.h"
#include "passes.h"
#include "pass_scan.h"
#include "pass_replay.h"
#include "fc.h"

/* A dump's staleness checks (life_stale.c; recover_stats' stale_*). */
struct stale_result {
	unsigned int	checks;
	unsigned int	found;
	unsigned long long log_time;
	unsigned long long fs_time;
	unsigned long long saved_wtime;
	unsigned int	saved_mnt_count;
	unsigned int	own_sequence;
	unsigned long long fs_wtime;
	unsigned int	fs_mnt_count;
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
	/*
	 * recover_options.superblock: the backup superblock the filesystem
	 * was opened through (0: the primary), the block size it was
	 * opened with, and the flags of that open (the end of the replay
	 * opens it there again, as e2fsck -b does).
	 */
	blk64_t		backup_sb;
	unsigned int	backup_bs;
	int		open_flags;
	int		fix_jdev_csum;	/* -f: rewrite the journal device's
					 * ext2 superblock checksum */
	int		flag_clear_log;	/* has_journal clear, needs_recovery
					 * set, inode 8 holds a log */

	struct jtags	tags;		/* what SCAN keeps (passes.h) */
	struct revoke	revoke;		/* the revoke strategy (revoke.c) */
	/* What each one found; the API makes recover_stats of them. */
	struct scan_result scan;
	struct replay_result rep;
	struct fc_result fc;
	struct stale_result stale;
	/*
	 * What the lifecycle and the files of its row found and did
	 * themselves (recover_stats' fields of the same names).
	 */
	int		mounted;
	int		dump_is_current;
	int		journal_inode_backup;
	unsigned int	garbage_nr_users;
	int		fs_errors;
	int		wrote;		/* a write issued outside REPLAY */
	unsigned long long device_blocks;
	unsigned long long write_blocks;
	unsigned long long write_bytes;
	unsigned long long desc_copies;
	unsigned long long desc_written;  /* bytes of them written */
	unsigned long long revoke_kept;
	unsigned long long table_bytes;
	unsigned long long read_bytes;
	unsigned long long saved_bytes;
	unsigned char	saved_sha256[32];
	enum recover_outcome outcome;
	/*
	 * What the last failure of an open, a replay or a save is about
	 * (recover_options.error_about): set by the step that was running,
	 * before it runs (lifecycle.c, life_save.c).
	 */
	enum recover_about about;
	int		inode_restored;	/* the journal inode was rewritten */
	struct recover_mmp mmp;		/* the MMP block (life_mmp.c) */
	int		mmp_held;	/* ours: EXT4_MMP_SEQ_FSCK is in it */
	int		mmp_pending;	/* to be taken before the first write */
	struct mmp_struct mmp_seen;	/* the block as the open saw it */
	unsigned int	mmp_interval;	/* seconds between updates */
	struct fc_overlay *fc_overlay;	/* fc_replay()'s writes, until written */
	struct recover_fs_features feat; /* what libext2fs does not know */
	/*
	 * recover_fsck_replay() (fsck.c): the end of a replay stops at the
	 * journal superblock, s_errno kept; the filesystem superblock is
	 * the caller's (notify.skipped: its callback for each copy skipped).
	 */
	int		fsck;
	/*
	 * The disk's other names a replay holds open with O_EXCL until the
	 * close: the loop devices over the filesystem's file (lifecycle.c).
	 */
	int		*names_held;
	size_t		names_nheld, names_cap;
};

/* What the errors of the journal are about: its path, or the filesystem. */
static inline enum recover_about
recover_journal_about(const struct recover_struct *r)
{
	return r->journal_path ? RECOVER_ABOUT_JOURNAL : RECOVER_ABOUT_FS;
}

#endif /* LIBRECOVERP_H */
