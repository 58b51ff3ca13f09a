/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recover_fsck.h -- part of <librecover.h>, which includes it: recover_fsck_replay(): an fsck tool's journal replay in one call.
 * Include <librecover.h>, not this file.
 */
#ifndef RECOVER_FSCK_H
#define RECOVER_FSCK_H

#ifndef LIBRECOVER_H
#error "include <librecover.h>, not <recover_fsck.h>"
#endif

/*
 * An fsck tool's journal replay (recover_fsck_replay()): what goes in and
 * what comes out.  Begins with size, as the other structs (RECOVER_INIT).
 */
struct recover_fsck {
	size_t		size;		/* sizeof(struct recover_fsck) */
	/* In: RECOVER_FL_FULL_REVOKE, RECOVER_FL_NO_READAHEAD; others are
	 * refused (EINVAL). */
	unsigned int	flags;
	/*
	 * In: the external journal device, when the filesystem's journal is
	 * not its own inode (s_journal_inum 0 and an s_journal_uuid); the
	 * caller has found it (e2fsck: -j, or blkid by UUID).  NULL: the
	 * journal inode.  Opened read-write with journal_io_manager (NULL:
	 * unix_io_manager).
	 */
	const char	*journal_path;
	struct struct_io_manager *journal_io_manager;
	recover_progress_fn progress;	/* in, optional */
	void		*progress_data;
	/*
	 * In, optional: called once for every logged copy the replay skips,
	 * in log order, with a RECOVER_EV_FATE event whose fate is
	 * RECOVER_FATE_BAD_CSUM (jblock, fsblock, tid) or
	 * RECOVER_FATE_UNREADABLE; the return value is ignored.  (e2fsck
	 * prints a line for each.)
	 */
	recover_event_fn skipped;
	void		*skipped_data;
	/*
	 * Out: the positive errno value the kernel's jbd2 recovery (and
	 * e2fsck's copy of it) returns for this log, 0 when it succeeds:
	 * EIO (a log block that cannot be read), EFSBADCRC, which is EBADMSG
	 * (a checksum error in a committed transaction, or a logged copy
	 * skipped on its data checksum), EINVAL (a revoke block whose count
	 * exceeds the block), EFSCORRUPTED, which is EUCLEAN (a log that
	 * wraps onto itself).  The replay has then been done as e2fsck does
	 * it: the caller reports it and marks the filesystem not clean.
	 */
	int		errnum;
	/*
	 * Out: a commit block failed its checksum (errnum 0): the log ends
	 * at failed_tid, whose commit is corrupt.  s_errno of the journal
	 * superblock is then -EINVAL, as e2fsck sets it.
	 */
	int		failed_commit;
	unsigned int	failed_tid;
	enum recover_outcome outcome;	/* out: as recover_stats.outcome */
	unsigned long long transactions; /* out: committed ones replayed */
	unsigned long long written_bytes; /* out: bytes of replayed blocks */
};

/*
 * recover_fsck_replay - an fsck tool's journal replay, in one call, on a
 * filesystem the caller holds open read-write (fs: its own io channel, with
 * whatever undo manager and cache it has).  It does what e2fsck's replay
 * does between loading the journal and releasing it, and nothing around
 * it: the log is scanned, the blocks written through fs->io, the fast
 * commits replayed, the journal inode rewritten from the superblock's
 * backup when it is read through it, and the journal superblock reset
 * (s_start 0; after a successful replay s_sequence the next tid, and
 * s_errno -EINVAL after a corrupt commit block).  It replays a log whether
 * or not the filesystem is flagged as needing recovery, and after a
 * failed recovery resets the journal as e2fsck does (f->errnum).  It
 * leaves to the caller: the MMP block (not checked, updated or released),
 * the filesystem superblock (needs_recovery, the state, s_kbytes_written,
 * the journal's s_errno carried into EXT2_ERROR_FS), every question and
 * message.  fs is stale afterwards: the caller frees and reopens it
 * without writing it back, as after e2fsck's own replay.  Prints nothing.
 * Returns: 0, the replay done (f->errnum and f->failed_commit say how it
 * went), or an error code with nothing written (an open that fails, a tag
 * past the end, RECOVER_ET_FC_CORRUPT ...) or a write that failed.
 */
errcode_t recover_fsck_replay(ext2_filsys fs, struct recover_fsck *f);

#endif /* RECOVER_FSCK_H */
