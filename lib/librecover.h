/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librecover.h -- offline replay of ext3/ext4 jbd2 journals.
 *
 * A recover_t handle is one journal bound to one filesystem.  The usual
 * sequence is
 *
 *	recover_open()			open the filesystem and its journal
 *	recover_scan()			SCAN: find the log's end, collect revokes
 *	recover_replay()		REPLAY: write, flush, reset the journal
 *	recover_close()
 *
 * Every function returns 0 or an errcode_t: either one of this library's
 * RECOVER_ET_* codes (recover_err.h), a libext2fs EXT2_ET_* code, or an errno
 * value.  error_message() from com_err turns any of them into text.  The
 * library never prints, never exits and keeps no global state, so several
 * handles can be open at once.
 */
#ifndef LIBRECOVER_H
#define LIBRECOVER_H

#include <ext2fs/ext2fs.h>
#include <recover_err.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct recover_struct *recover_t;

/* recover_options.flags */
#define RECOVER_FL_DRY_RUN	0x0001	/* read and check everything, write nothing */
#define RECOVER_FL_FORCE	0x0002	/* see recover_open() */
/*
 * By default only revoke records that name a block the log also logs are
 * kept (no other record can cancel anything), so memory follows the number
 * of logged blocks.  RECOVER_FL_FULL_REVOKE keeps every record, in a table
 * sized from the count the scan saw, the way the kernel does; the result
 * is the same.
 */
#define RECOVER_FL_FULL_REVOKE	0x0004

enum recover_pass {
	RECOVER_PASS_SCAN = 1,
	RECOVER_PASS_REVOKE,
	RECOVER_PASS_REPLAY,
	RECOVER_PASS_SAVE,		/* recover_save() */
};

/*
 * Progress: called now and then (every 64 units or so, and at the end of a
 * pass) with the pass and how many of its total units are done.  Units are
 * journal blocks for SCAN, REVOKE and SAVE and logged blocks for REPLAY.  A
 * nonzero return stops the work at that point with RECOVER_ET_INTERRUPTED:
 * nothing is written after it, and a replay stopped half way leaves the
 * journal marked as needing recovery, so running it again is safe; a save
 * stopped half way removes its file.
 */
typedef int (*recover_progress_fn)(void *data, enum recover_pass pass,
				   unsigned long long done,
				   unsigned long long total);

struct recover_options {
	unsigned int	flags;
	/*
	 * The journal, when it is not the filesystem's own internal journal:
	 * an external journal device (its UUID must match the filesystem's
	 * s_journal_uuid) or a saved dump of a journal (the journal inode's
	 * contents in logical order).  NULL: the journal the filesystem names.
	 */
	const char	*journal_path;
	/*
	 * How to reach the filesystem (and an external journal or dump):
	 * NULL means unix_io_manager.  undo_io_manager, set up with
	 * set_undo_io_backing_manager() and set_undo_io_backup_file(), keeps
	 * an e2undo file of everything overwritten on the filesystem.
	 */
	io_manager	io_manager;
	recover_progress_fn progress;
	void		*progress_data;
};

/* Where the journal came from. */
enum recover_source {
	RECOVER_SRC_INODE = 1,	/* the filesystem's journal inode */
	RECOVER_SRC_DEVICE,	/* an external journal device */
	RECOVER_SRC_DUMP,	/* a saved journal dump file */
};

/* The journal superblock, decoded. */
struct recover_super {
	int		version;	/* 1 or 2 */
	unsigned int	blocksize;
	unsigned int	maxlen;		/* s_maxlen: blocks in the journal */
	unsigned int	first;		/* s_first: first log block */
	unsigned int	sequence;	/* s_sequence: first tid expected */
	unsigned int	start;		/* s_start: 0 means nothing to replay */
	int		errnum;		/* s_errno */
	unsigned int	feature_compat;
	unsigned int	feature_incompat;
	unsigned int	feature_ro_compat;
	unsigned char	uuid[16];
	unsigned int	nr_users;
	unsigned int	num_fc_blocks;	/* fast-commit area, 0 without it */
	enum recover_source source;
};

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
	unsigned long long table_bytes;	/* peak bytes of the revoke table */
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
};

/*
 * recover_open - open a filesystem (device or image path) and its journal.
 * Refuses a mounted filesystem (RECOVER_ET_MOUNTED) and a block device another
 * program holds open exclusively (RECOVER_ET_BUSY; a replay opens devices
 * with O_EXCL itself); with RECOVER_FL_FORCE, a dump
 * whose UUID does not match the filesystem is accepted.
 * Returns: 0 and *ret set, or an error code (nothing allocated).
 */
errcode_t recover_open(const char *device, const struct recover_options *opts,
		       recover_t *ret);

/*
 * recover_open_fs - the same, on a filesystem the caller has open (read-
 * write unless RECOVER_FL_DRY_RUN), as an fsck tool holds it.  fs stays the
 * caller's: recover_close() does not close it.  A replay rewrites blocks and
 * the superblock under fs, so close and reopen fs after recover_replay()
 * (e2fsck does the same after its own journal replay); clear EXT2_FLAG_RW
 * and EXT2_FLAG_DIRTY before closing it, or libext2fs writes back its stale
 * superblock.
 * Returns: 0 and *ret set, or an error code.
 */
errcode_t recover_open_fs(ext2_filsys fs, const struct recover_options *opts,
			  recover_t *ret);

/*
 * recover_scan - the SCAN pass (and the REVOKE pass): walk the log from
 * s_start, find the last transaction with a valid commit block, collect the
 * revoke records and check every tag; then, with FAST_COMMIT, read the
 * fast-commit area as the kernel would (recover_stats.fc_*).  Writes nothing.
 * Returns: 0 (see recover_get_stats() for what was found, including
 * recovery failures e2fsck would report), or an operational error, which
 * every later scan, walk or replay on r then returns again (reopen to
 * retry).
 */
errcode_t recover_scan(recover_t r);

/*
 * recover_replay - the REPLAY pass and the superblock updates, in the order
 * e2fsck uses: replayed blocks, a flush, the journal superblock (s_start 0),
 * the filesystem superblock (needs_recovery cleared), a flush.  With
 * RECOVER_FL_DRY_RUN, counts what would be written and writes nothing.
 * Calls recover_scan() first when it has not run.
 * Returns: 0, or an error code; RECOVER_ET_TAG_PAST_END when a tag to be
 * replayed names a block past the end of the filesystem (nothing written);
 * RECOVER_ET_FC_CORRUPT when the fast-commit area is one the kernel's
 * recovery fails on, RECOVER_ET_FC_RECORD when a valid fast-commit record
 * names an inode, block or name outside the filesystem, and
 * RECOVER_ET_FC_REPLAY when one cannot be replayed (stats.fc_error says
 * why), all with nothing written.  Valid fast commits are replayed in
 * memory first, written after the log's blocks, before the journal is
 * reset; a stale area (a HEAD of another tid) is ignored, as the kernel
 * ignores it.
 */
errcode_t recover_replay(recover_t r);

/* One thing the scan found in the log, in log order (see recover_walk()). */
enum recover_event_type {
	RECOVER_EV_DESCRIPTOR = 1, /* jblock, tid, count = tags */
	RECOVER_EV_TAG,		/* jblock = its data block, fsblock, flags, tid */
	RECOVER_EV_REVOKE_BLOCK, /* jblock, tid, count = records */
	RECOVER_EV_REVOKE,	/* fsblock revoked at tid; jblock of its block */
	RECOVER_EV_COMMIT,	/* jblock, tid, commit_sec/nsec, replayed */
	RECOVER_EV_END,		/* jblock where the scan stopped, tid it expected,
				 * end = why */
	RECOVER_EV_FC_BLOCK,	/* a fast-commit block: jblock, tid expected */
	RECOVER_EV_FC_TAG,	/* a fast-commit record: jblock, fc_tag and its
				 * fields, replayed = it is valid */
	RECOVER_EV_FC_END,	/* jblock where the area's scan stopped, tid
				 * expected, fc_end = why, count = valid records */
};

struct recover_event {
	enum recover_event_type type;
	unsigned int	tid;
	unsigned long long jblock;
	unsigned long long fsblock;
	unsigned long long count;
	unsigned int	flags;		/* tag flags */
	unsigned long long commit_sec;
	unsigned int	commit_nsec;
	int		replayed;	/* commit: the transaction is replayed */
	enum recover_end end;

	/*
	 * RECOVER_EV_FC_TAG: the record's tag (1 ADD_RANGE, 2 DEL_RANGE,
	 * 3 CREAT, 4 LINK, 5 UNLINK, 6 INODE, 7 PAD, 8 TAIL, 9 HEAD) and its
	 * fields: tid (HEAD, TAIL; else the tid expected), ino (ranges,
	 * INODE, names), parent (names), lblk, count = blocks (ranges),
	 * fsblock = first physical block and unwritten (ADD_RANGE), features
	 * (HEAD), name and name_len (names: the bytes as stored, not
	 * NUL-terminated, valid only during the call).
	 */
	unsigned int	fc_tag;
	unsigned int	ino;
	unsigned int	parent;
	unsigned int	lblk;
	unsigned int	features;
	int		unwritten;
	const char	*name;
	unsigned int	name_len;
	enum recover_fc_end fc_end;	/* RECOVER_EV_FC_END */
};

/* Returns nonzero to stop the walk (RECOVER_ET_INTERRUPTED). */
typedef int (*recover_event_fn)(void *data, const struct recover_event *ev);

/*
 * recover_walk - recover_scan(), calling fn for every descriptor, tag,
 * revoke block, revoke record and commit block as the scan meets them,
 * then once at the end.  Streams: nothing is held back for the calls.
 * Returns: as recover_scan(); RECOVER_ET_ALREADY_DONE if the journal was
 * scanned already.
 */
errcode_t recover_walk(recover_t r, recover_event_fn fn, void *data);

/*
 * recover_save - write the raw journal to path: the journal inode's
 * contents in logical order (as "debugfs -R 'dump <8> FILE'" writes them),
 * the whole external journal device, or a copy of the dump.  path is
 * created, or truncated if it exists; nothing else is written.  Calls the
 * progress function (pass RECOVER_PASS_SAVE) after every 4 MiB.  When it
 * fails or is stopped, a regular file at path is removed: no partial copy
 * is left to be taken for a journal.
 * Returns: 0, or an error code.
 */
errcode_t recover_save(recover_t r, const char *path);

/* recover_needs_recovery - 1 when the journal has anything to replay, the
 * filesystem is flagged as needing recovery, or the journal holds an error
 * (s_errno) to carry into the filesystem, else 0. */
int recover_needs_recovery(recover_t r);

/* recover_get_super - the journal superblock as read at open. */
void recover_get_super(recover_t r, struct recover_super *sb);

/* recover_get_stats - counters of the passes run so far. */
void recover_get_stats(recover_t r, struct recover_stats *st);

/* recover_close - release everything; safe with NULL. */
void recover_close(recover_t r);

/* recover_version - the library's version string. */
const char *recover_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBRECOVER_H */
