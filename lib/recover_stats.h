/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recover_stats.h -- part of <librecover.h>, which includes it: the results of a scan and a replay: why the scan stopped, the outcome,
 * the fast-commit area's state, struct recover_stats and the staleness
 * checks of a saved journal.
 * Include <librecover.h>, not this file.
 */
#ifndef RECOVER_STATS_H
#define RECOVER_STATS_H

#ifndef LIBRECOVER_H
#error "include <librecover.h>, not <recover_stats.h>"
#endif

/*
 * Why the scan stopped.  The log is valid up to (not including) end_tid.
 */
enum recover_end {
	RECOVER_END_NONE = 0,	/* nothing to scan (s_start == 0) */
	RECOVER_END_NO_MAGIC,	/* a block without the jbd2 magic */
	RECOVER_END_SEQUENCE,	/* a block of another tid */
	RECOVER_END_BLOCKTYPE,	/* an unknown block type */
	RECOVER_END_COMMIT_CSUM, /* a commit block failed its checksum */
	RECOVER_END_STALE,	/* a checksum failure in an older transaction */
	RECOVER_END_READ,	/* a logged block could not be read */
	RECOVER_END_TRUNCATED,	/* the journal dump file ends */
	RECOVER_END_ERROR,	/* the scan failed: see recover_stats.error */
};

/*
 * What recover_replay() came to (recover_stats.outcome); a dry run gives
 * the one its replay would come to.  An fsck's exit status follows from it
 * (jrecover(8): 0, 1, 4; 8 for an error returned, 32 when interrupted).
 */
enum recover_outcome {
	RECOVER_OUTCOME_NONE = 0,	/* no replay has run */
	RECOVER_OUTCOME_CLEAN,		/* nothing to do, nothing written */
	RECOVER_OUTCOME_RECOVERED,	/* replayed; the filesystem changed */
	RECOVER_OUTCOME_PROBLEMS,	/* replayed, problems left: a block
					 * skipped on a bad checksum, a corrupt
					 * commit, a recovery e2fsck would
					 * abandon (reset with RECOVER_FL_FORCE),
					 * a journal error carried into the
					 * filesystem, a dump cut short */
	RECOVER_OUTCOME_FAILED,		/* recover_replay() returned an error */
	RECOVER_OUTCOME_INTERRUPTED,	/* it returned RECOVER_ET_INTERRUPTED:
					 * stopped at a safe point, the journal
					 * still needs recovery (jrecover and
					 * e2fsck exit 32) */
};

/* Where in the log something was found. */
struct recover_where {
	unsigned long long jblock;	/* journal block */
	unsigned long long fsblock;	/* filesystem block a tag names, or 0 */
	unsigned int	tid;		/* transaction */
};

/* The fast-commit area, as the kernel's recovery would take it. */
enum recover_fc_state {
	RECOVER_FC_NONE = 0,	/* not read: no area, empty log, or a failed
				 * recovery */
	RECOVER_FC_EMPTY,	/* nothing for this log: no HEAD record, or a
				 * HEAD of another tid (a stale area) */
	RECOVER_FC_LIVE,	/* valid records to replay after the log */
	RECOVER_FC_CORRUPT,	/* the kernel's recovery fails on it */
};

/* Why the scan of the fast-commit area stopped. */
enum recover_fc_end {
	RECOVER_FC_END_NONE = 0,
	RECOVER_FC_END_NO_HEAD,	/* the area does not start with a HEAD */
	RECOVER_FC_END_HEAD_TID, /* a HEAD of another tid */
	RECOVER_FC_END_TAIL,	/* a TAIL of another tid or with a bad crc */
	RECOVER_FC_END_BAD_TAG,	/* an unknown tag, or a length its tag does
				 * not allow or past the block */
	RECOVER_FC_END_FEATURES, /* a HEAD with unknown features */
	RECOVER_FC_END_AREA,	/* the last block of the area was reached */
	RECOVER_FC_END_READ,	/* a block of the area could not be read */
};

struct recover_stats {
	size_t		size;		/* sizeof(struct recover_stats) */
	unsigned int	first_tid;	/* s_sequence */
	unsigned int	end_tid;	/* first tid not replayed */
	unsigned long long transactions; /* committed transactions replayed */
	unsigned long long log_blocks;	/* journal blocks the scan walked */
	unsigned long long descriptor_blocks;
	unsigned long long revoke_blocks;
	unsigned long long logged_blocks; /* tags in transactions replayed */
	unsigned long long revoke_records; /* in transactions replayed */
	unsigned long long revoke_kept;	/* records held in the revoke table */
	unsigned long long replayed;	/* blocks written (or, dry run, to write) */
	unsigned long long revoked;	/* copies a revoke record cancelled */
	unsigned long long bad_csum;	/* copies skipped: data checksum failed */
	unsigned long long read_bytes;	/* bytes read from the journal */
	unsigned long long written_bytes; /* bytes written to the filesystem */
	unsigned long long table_bytes;	/* peak bytes of the revoke table,
					 * pending records and kept tags */
	enum recover_end end_reason;
	struct recover_where end_at;	/* the block where the scan stopped,
					 * and the tid it expected */
	int		failed_commit;	/* nonzero: commit of failed_tid was bad */
	unsigned int	failed_tid;
	struct recover_where failed_at;	/* that commit block */
	struct recover_where bad_csum_at; /* the first copy skipped on a bad
					 * data checksum */
	int		needs_recovery;	/* the filesystem's needs_recovery flag */
	/*
	 * A dump is replayed into the filesystem; when the filesystem's own
	 * journal holds the very same log (same superblock), it is reset and
	 * needs_recovery cleared as after a replay of that journal;
	 * otherwise the filesystem's journal and flags are left alone.
	 */
	int		dump_is_current;
	int		fs_errors;	/* replay marked the filesystem as having
					 * errors (a corrupt commit block, or a
					 * journal error in s_errno) */
	/*
	 * Nonzero when recovery itself failed the way e2fsck's does (an I/O
	 * error in the log, a checksum error inside a committed transaction,
	 * a corrupt revoke block): recover_replay() then writes what e2fsck
	 * would and leaves the filesystem marked as not clean.
	 */
	errcode_t	error;
	struct recover_where error_at;	/* where error was found */
	/*
	 * Nonzero when the journal inode failed e2fsck's checks and the
	 * journal is read through the superblock's backup of its block map
	 * (s_jnl_blocks); recover_replay() then first rewrites the inode from
	 * that backup, as e2fsck does, even when the log is empty.
	 */
	int		journal_inode_backup;
	/*
	 * Nonzero: the s_nr_users an internal journal's superblock claimed
	 * (more than one).  Its fields after s_errno were garbage: they were
	 * read as zero, and a replay writes them back zeroed, as e2fsck does.
	 */
	unsigned int	garbage_nr_users;
	/*
	 * recover_replay(): blocks and bytes written to the filesystem and
	 * its journal (with RECOVER_FL_DRY_RUN: that a replay would write),
	 * the replayed blocks and the journal and filesystem superblocks.
	 */
	unsigned long long write_blocks;
	unsigned long long write_bytes;
	/* recover_save(), recover_save_fd(): bytes written and their SHA-256 */
	unsigned long long saved_bytes;
	unsigned char	saved_sha256[32];
	/* recover_replay(): what it came to (a dry run: would come to) */
	enum recover_outcome outcome;

	/*
	 * The fast-commit area (journals with FAST_COMMIT, a log to replay
	 * and no recovery failure): what the kernel's scan of it finds.
	 */
	enum recover_fc_state fc_state;
	enum recover_fc_end fc_end;	/* why its scan stopped */
	unsigned long long fc_end_at;	/* the journal block where it stopped */
	unsigned int	fc_tid;		/* tid its HEAD and TAILs must carry:
					 * end_tid */
	unsigned long long fc_blocks;	/* blocks up to the last valid TAIL */
	unsigned long long fc_tags;	/* valid records (HEAD, PAD and TAIL
					 * included, as the kernel counts) */
	unsigned long long fc_commits;	/* valid TAILs: fast commits */
	unsigned long long fc_replayed;	/* records replayed (in a dry run:
					 * that would be) */
	errcode_t	fc_error;	/* RECOVER_ET_FC_REPLAY: why */
	/*
	 * recover_replay() writes each block once, its last copy that holds:
	 * replayed = copies_written + superseded, the copies a replay in log
	 * order would write (with RECOVER_FL_DRY_RUN: would be).
	 */
	unsigned long long copies_written; /* blocks written, one copy each */
	unsigned long long superseded;	/* good copies a later good copy of
					 * the same block makes unneeded */
	/*
	 * Journal blocks the scan's read-ahead thread asked the kernel to
	 * read into the page cache (0: it did not run; see recover_scan()).
	 */
	unsigned long long readahead_blocks;
	/*
	 * recover_replay() on a meta_bg filesystem: copies of group
	 * descriptor blocks rewritten from each metagroup's first copy, as
	 * e2fsck writes them (with RECOVER_FL_DRY_RUN: would be); counted in
	 * write_blocks.
	 */
	unsigned long long desc_copies;
	/*
	 * Nonzero: opened with RECOVER_FL_MOUNTED_OK on a mounted filesystem;
	 * what was read of its live journal is a snapshot.
	 */
	int		mounted;
	/*
	 * recover_replay(): the size of the device or image, in filesystem
	 * blocks, as it was compared with s_blocks_count (0: not known).
	 */
	unsigned long long device_blocks;
	/*
	 * recover_replay(): nonzero once a write to the filesystem or its
	 * journal was issued (done or not).  A replay that fails after it
	 * may have changed blocks: the journal still needs recovery, and a
	 * new run once the cause is fixed finishes it.
	 */
	int		wrote;
	/*
	 * recover_replay() of a dump: how it was told whether the filesystem
	 * changed after the dump's log was written.  stale_checks has a bit
	 * for each check that could be made, stale_found for each that
	 * showed a change (RECOVER_STALE_*).
	 */
	unsigned long long last_commit_sec; /* h_commit_sec of the last
					 * transaction replayed, as stored */
	unsigned int	stale_checks;
	unsigned int	stale_found;
	unsigned long long stale_log_time; /* that commit time, in seconds
					 * (0: none usable) */
	unsigned long long stale_fs_time; /* the later of s_mtime, s_wtime */
	unsigned long long stale_saved_wtime; /* s_wtime the record holds */
	unsigned int	stale_saved_mnt_count; /* s_mnt_count it holds */
	unsigned int	stale_own_sequence; /* the filesystem's own journal's
					 * s_sequence (RECOVER_STALE_SEQUENCE) */
	unsigned long long stale_fs_wtime; /* s_wtime now */
	unsigned int	stale_fs_mnt_count; /* s_mnt_count now */
};

/*
 * recover_stats.stale_checks and stale_found.  RECOVER_STALE_FACTS: the dump
 * carries the record recover_save() appends (the filesystem's times,
 * mount count, kbytes written and own journal superblock at the save),
 * so MOUNT, WRITE and (for an internal journal) JOURNAL compare those
 * with the filesystem now.  Without it only TIME (the filesystem's last
 * mount or write time against the log's last commit time) and SEQUENCE
 * (its own journal, when not the dump's, begun anew or run past the
 * dump's log) can be checked.  RECOVER_STALE_SHIFTED (in stale_checks
 * only): the commit time was stored shifted up by 32 bits, as debugfs's
 * journal writer stores it, and read as such.
 */
#define RECOVER_STALE_FACTS	0x0001
#define RECOVER_STALE_MOUNT	0x0002	/* mount time or mount count changed */
#define RECOVER_STALE_WRITE	0x0004	/* write time or kbytes written changed */
#define RECOVER_STALE_JOURNAL	0x0008	/* its journal superblock changed */
#define RECOVER_STALE_TIME	0x0010	/* used after the log's last commit */
#define RECOVER_STALE_SEQUENCE	0x0020	/* its journal begun anew or used */
#define RECOVER_STALE_SHIFTED	0x0100

#endif /* RECOVER_STATS_H */
