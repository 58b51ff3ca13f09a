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

#ifdef __cplusplus
extern "C" {
#endif

/* compile_et's header declares its functions without C linkage of its own;
 * it is installed beside this one. */
#include "recover_err.h"

typedef struct recover_struct *recover_t;

/*
 * Structs that grow.  Every struct the caller and the library hand each
 * other (recover_options, recover_super, recover_stats, recover_mmp,
 * recover_event) begins with size, and new fields are only ever added at
 * their end.  Set size to the struct's sizeof (RECOVER_INIT does) before
 * handing it over, whether the library is to read it (recover_options) or
 * to fill it (recover_get_super(), recover_get_stats(), recover_mmp): the
 * library reads or fills only as many bytes as both sides know, so that a
 * program built against an older header works with a newer library.  A
 * newer program's fields that an older library lacks must be left zero
 * (recover_open() returns RECOVER_ET_STRUCT_SIZE otherwise, and for an
 * unset size).  The events a recover_event_fn receives carry the library's
 * size: read a field only if it lies within ev->size.
 */
#ifndef __cplusplus
#define RECOVER_INIT(type)	{ .size = sizeof(type) }
#else
/* C++ before C++20 has no designated initializers: a zeroed copy with size
 * set, from a helper that is inline and so no part of the library's ABI. */
extern "C++" template <typename T> inline T recover_init_value()
{
	T v = T();
	v.size = sizeof(T);
	return v;
}
#define RECOVER_INIT(type)	(recover_init_value<type>())
#endif

/* recover_options.flags */
#define RECOVER_FL_DRY_RUN	0x0001	/* read and check everything, write nothing */
#define RECOVER_FL_FORCE	0x0002	/* see recover_open(), recover_replay() */
/*
 * By default only revoke records that name a block the log also logs are
 * kept (no other record can cancel anything), so memory follows the number
 * of logged blocks.  RECOVER_FL_FULL_REVOKE keeps every record, in a table
 * sized from the count the scan saw, the way the kernel does; the result
 * is the same.
 */
#define RECOVER_FL_FULL_REVOKE	0x0004
/*
 * With RECOVER_FL_DRY_RUN: read the MMP block and report it (struct
 * recover_mmp), but refuse nothing on its account (jrecover -i, -l, -s).
 * Without it a dry run refuses what e2fsck -n refuses.  See recover_open().
 */
#define RECOVER_FL_MMP_REPORT	0x0008
/*
 * The scan does not start its read-ahead thread (see recover_scan()): the
 * journal is read only through the io channel, as each pass asks.
 */
#define RECOVER_FL_NO_READAHEAD	0x0010
/*
 * With RECOVER_FL_DRY_RUN: open a mounted filesystem instead of refusing
 * it (RECOVER_ET_MOUNTED), as debugfs does to print its log.  The journal
 * is live: what recover_scan() and recover_walk() read is a snapshot the
 * kernel may be changing, and recover_stats.mounted says so.
 * recover_replay() still refuses (RECOVER_ET_MOUNTED), dry run or not.
 */
#define RECOVER_FL_MOUNTED_OK	0x0020
/*
 * Accept a dump or external journal whose journal superblock UUID is
 * neither the filesystem's nor its journal's (RECOVER_ET_DUMP_MISMATCH,
 * RECOVER_ET_EXT_JOURNAL_UUID): replaying it writes another filesystem's
 * blocks over this one.  RECOVER_FL_FORCE does not imply it.
 */
#define RECOVER_FL_FOREIGN_JOURNAL	0x0040
/*
 * Replay a dump (recover_options.journal_path) even where the filesystem
 * shows it was mounted, checked or written after the dump's log was
 * written: the replay then puts the log's old blocks back over everything
 * done since.  Without it recover_replay() refuses such a dump with
 * RECOVER_ET_STALE_DUMP (see recover_stats.stale_checks).
 */
#define RECOVER_FL_STALE_DUMP	0x0080

/*
 * LIBRECOVER_DEBUG, read from the environment by recover_open() and
 * recover_open_fs() (as libblkid reads LIBBLKID_DEBUG): a mask of the bits
 * below, as a number (0x1, 1) or as their names joined by commas
 * ("full_revoke").  The library prints nothing either way: the bits switch
 * ways of working that must give the same result, so that the tests can
 * check they do.  Ignored in setuid programs (secure_getenv).
 */
#define RECOVER_DEBUG_FULL_REVOKE 0x0001 /* as RECOVER_FL_FULL_REVOKE */
#define RECOVER_DEBUG_NO_READAHEAD 0x0002 /* as RECOVER_FL_NO_READAHEAD */

enum recover_pass {
	RECOVER_PASS_SCAN = 1,
	RECOVER_PASS_REVOKE,
	RECOVER_PASS_REPLAY,
	RECOVER_PASS_SAVE,		/* recover_save() */
	RECOVER_PASS_MMP,		/* recover_open(): the MMP wait */
};

/*
 * Progress: called now and then (every 64 units or so, and at the end of a
 * pass) with the pass and how many of its total units are done.  Units are
 * journal blocks for SCAN, REVOKE and SAVE and logged blocks for REPLAY.
 * RECOVER_PASS_MMP is called twice by recover_open() on a filesystem with
 * multi-mount protection: with done 0 and total the seconds it is about to
 * wait, before the wait, and with done == total once it is over.  A
 * nonzero return stops the work at that point with RECOVER_ET_INTERRUPTED:
 * nothing is written after it, and a replay stopped half way leaves the
 * journal marked as needing recovery, so running it again is safe; a save
 * stopped half way removes its file.
 */
typedef int (*recover_progress_fn)(void *data, enum recover_pass pass,
				   unsigned long long done,
				   unsigned long long total);

/* What a failed call's error is about (recover_options.error_about). */
enum recover_about {
	RECOVER_ABOUT_NONE = 0,
	RECOVER_ABOUT_FS,	/* the filesystem (device or image) */
	RECOVER_ABOUT_JOURNAL,	/* recover_options.journal_path */
	RECOVER_ABOUT_SAVE,	/* the path given to recover_save() */
};

/*
 * The multi-mount protection (MMP) block of a filesystem with the mmp
 * feature, as recover_open() found it (see recover_options.mmp).
 */
struct recover_mmp {
	size_t		size;		/* sizeof(struct recover_mmp) */
	int		present;	/* the filesystem has the mmp feature */
	errcode_t	status;		/* 0, or why it was refused: an
					 * EXT2_ET_MMP_* code (recover_open) */
	unsigned long long block;	/* s_mmp_block */
	unsigned int	update_interval; /* s_mmp_update_interval, seconds */
	int		read;		/* the block could be read: the next
					 * five fields hold what it says */
	unsigned int	seq;		/* mmp_seq (EXT4_MMP_SEQ_CLEAN,
					 * EXT4_MMP_SEQ_FSCK, or a node's) */
	unsigned long long time;	/* mmp_time: last update, Unix time */
	unsigned int	check_interval;	/* mmp_check_interval */
	char		nodename[65];	/* mmp_nodename: the node that wrote it */
	char		bdevname[33];	/* mmp_bdevname: its name of the device */
	unsigned int	planned_wait;	/* seconds libext2fs was to wait */
	unsigned int	wait;		/* seconds it waited */
	int		released;	/* EXT4_MMP_SEQ_CLEAN was written back */
	int		written;	/* this run wrote the block (its own
					 * sequence, EXT4_MMP_SEQ_FSCK) */
};

/*
 * The filesystem's feature bits that the libext2fs librecover was built
 * with does not know (outside EXT2_LIB_FEATURE_INCOMPAT_SUPP and
 * EXT2_LIB_FEATURE_RO_COMPAT_SUPP), as recover_open() found them (see
 * recover_options.features).  A replay of full commits writes logged
 * blocks where their tags say and reads no directory, so it accepts the
 * unknown incompat features that change neither where the journal is,
 * how blocks are numbered nor how groups are laid out: dirdata, large_dir
 * and ea_inode (tolerated).  Any other unknown incompat bit is refused
 * (EXT2_ET_UNSUPP_FEATURE), as is any unknown ro_compat bit unless
 * RECOVER_FL_DRY_RUN (EXT2_ET_RO_UNSUPP_FEATURE); fast commits, which edit
 * directories and inodes, are not replayed on a filesystem with a
 * tolerated feature (RECOVER_ET_FC_UNKNOWN_FEATURE).  With a libext2fs
 * that knows a feature, it is not in these words and nothing about it is
 * special.  recover_feature_name() with RECOVER_FEATURE_FS_INCOMPAT or
 * RECOVER_FEATURE_FS_RO_COMPAT names the bits.
 */
struct recover_fs_features {
	size_t		size;		/* sizeof(struct recover_fs_features) */
	unsigned int	incompat;	/* unknown s_feature_incompat bits */
	unsigned int	ro_compat;	/* unknown s_feature_ro_compat bits */
	unsigned int	tolerated;	/* the bits of incompat a replay of
					 * full commits accepts */
};

struct recover_options {
	size_t		size;		/* sizeof(struct recover_options) */
	unsigned int	flags;
	/*
	 * The journal, when it is not the filesystem's own internal journal:
	 * an external journal device (its UUID must match the filesystem's
	 * s_journal_uuid) or a saved dump of a journal (the journal inode's
	 * contents in logical order).  NULL: the journal the filesystem names.
	 */
	const char	*journal_path;
	/*
	 * How to reach the filesystem: NULL means unix_io_manager.
	 * undo_io_manager, set up with set_undo_io_backing_manager() and
	 * set_undo_io_backup_file(), keeps an e2undo file of everything
	 * overwritten on the filesystem.  An external journal device and a
	 * dump (journal_path) are always opened with unix_io_manager, so an
	 * undo file covers the filesystem device only.
	 */
	struct struct_io_manager *io_manager; /* an io_manager: in C++ the
					 * typedef's name cannot also be the
					 * field's */
	recover_progress_fn progress;
	void		*progress_data;
	/*
	 * Optional: every call that fails (recover_open() included, which
	 * leaves no handle behind) stores here what its error is about, so
	 * the caller can name the right path.  Errors about the journal's
	 * contents or the journal device are RECOVER_ABOUT_JOURNAL when
	 * journal_path is set, RECOVER_ABOUT_FS otherwise.  NULL: not wanted.
	 */
	enum recover_about *error_about;
	/*
	 * Optional: where to tell the caller about the MMP block.  Filled by
	 * recover_open() whether it succeeds or refuses (a refusal names the
	 * node and device that hold the filesystem), and updated by the calls
	 * that write the block, up to recover_close().  NULL: not wanted.
	 */
	struct recover_mmp *mmp;
	/*
	 * How recover_save() writes its new file: the manager's open() is
	 * given the file's name (created empty, mode 0600) with IO_FLAG_RW.
	 * NULL means unix_io_manager.  (A test's fault-injecting manager
	 * goes here; the filesystem's io_manager above is not used, so that
	 * an undo manager never records the copy.)  The type is io_manager,
	 * spelt out: in C++ the field above hides that name in the struct.
	 */
	struct struct_io_manager *save_io_manager;
	/*
	 * Optional: where to tell the caller about the filesystem's feature
	 * bits libext2fs does not know (struct recover_fs_features).  Filled
	 * by recover_open() and recover_open_fs() whether they succeed or
	 * refuse on that account.  NULL: not wanted.
	 */
	struct recover_fs_features *features;
	/*
	 * How journal_path is opened (an external journal device or a
	 * dump), as io_manager is for the filesystem: NULL means
	 * unix_io_manager.  (An fsck tool's test_io or undo manager goes
	 * here.)  Spelt out as save_io_manager is.
	 */
	struct struct_io_manager *journal_io_manager;
};

/* Where the journal came from. */
enum recover_source {
	RECOVER_SRC_INODE = 1,	/* the filesystem's journal inode */
	RECOVER_SRC_DEVICE,	/* an external journal device */
	RECOVER_SRC_DUMP,	/* a saved journal dump file */
};

/* The journal superblock, decoded. */
struct recover_super {
	size_t		size;		/* sizeof(struct recover_super) */
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
 * The three feature words of the journal superblock (recover_super's
 * feature_compat, feature_incompat, feature_ro_compat), numbered as
 * e2fsprogs's libe2p numbers them (E2P_FEATURE_COMPAT, ...).
 */
enum recover_feature_type {
	RECOVER_FEATURE_COMPAT = 0,
	RECOVER_FEATURE_INCOMPAT = 1,
	RECOVER_FEATURE_RO_COMPAT = 2,
	/* The ext4 superblock's s_feature_incompat and s_feature_ro_compat
	 * (the bits of struct recover_fs_features), named as libe2p does. */
	RECOVER_FEATURE_FS_INCOMPAT = 4,
	RECOVER_FEATURE_FS_RO_COMPAT = 5,
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

/*
 * recover_open - open a filesystem (device or image path) and its journal.
 * Refuses a mounted filesystem (RECOVER_ET_MOUNTED) and a block device another
 * program holds open exclusively (RECOVER_ET_BUSY; a replay opens devices
 * with O_EXCL itself), and a journal inode that fails
 * e2fsck's checks when the superblock's backup of it (s_jnl_blocks) is
 * missing or fails them too (RECOVER_ET_JOURNAL_INODE); with
 * RECOVER_FL_FOREIGN_JOURNAL (not RECOVER_FL_FORCE), a dump or external
 * journal whose UUID does not match the filesystem is accepted.
 *
 * Multi-mount protection, as e2fsck honours it: an MMP block that cannot
 * be read, has a bad magic or checksum (EXT2_ET_MMP_BAD_BLOCK,
 * EXT2_ET_MMP_MAGIC_INVALID, EXT2_ET_MMP_CSUM_INVALID), or whose sequence
 * says a fsck is running or died (EXT2_ET_MMP_FSCK_ON) or is unknown
 * (EXT2_ET_MMP_UNKNOWN_SEQ) is refused, dry run or not (unless
 * RECOVER_FL_MMP_REPORT).  The block is taken later, by recover_replay()
 * (not a dry run) just before its first write, so that every refusal comes
 * first: it waits as ext2fs_mmp_start() does (RECOVER_PASS_MMP announces
 * it, then is called every second: a stop request ends the wait at once,
 * with RECOVER_ET_INTERRUPTED and the block written clean again) and
 * refuses a filesystem another node updated since the open or updates
 * meanwhile (EXT2_ET_MMP_FAILED).  From then on the
 * block says a fsck is at work; the passes rewrite it every update
 * interval, and stop with EXT2_ET_MMP_CHANGE_ABORT if another node wrote
 * it.  recover_replay() and recover_close() write "clean" back.
 * Returns: 0 and *ret set, or an error code (nothing allocated).
 */
errcode_t recover_open(const char *device, const struct recover_options *opts,
		       recover_t *ret);

/*
 * recover_open_journal - open a saved journal dump (the journal inode's
 * contents in logical order, as recover_save() writes them) on its own,
 * with no filesystem: the block size is the journal superblock's.  The
 * dump is only read.  opts->journal_path is ignored; RECOVER_FL_DRY_RUN is
 * implied.  recover_scan(), recover_walk(), recover_save(),
 * recover_get_super() and recover_get_stats() work on the handle;
 * recover_replay() returns RECOVER_ET_NO_FILESYSTEM.  Without a
 * filesystem, tags naming blocks past its end cannot be found
 * (RECOVER_EV_FATE says so), and a dump's UUID is not checked.
 * Returns: 0 and *ret set, or an error code: RECOVER_ET_NOT_DUMP when
 * path does not start with a journal superblock of a valid block size.
 */
errcode_t recover_open_journal(const char *path,
			       const struct recover_options *opts,
			       recover_t *ret);

/*
 * recover_open_fs - as recover_open(), on a filesystem the caller has open (read-
 * write unless RECOVER_FL_DRY_RUN), as an fsck tool holds it.  fs stays the
 * caller's: recover_close() does not close it.  A replay rewrites blocks and
 * the superblock under fs, so close and reopen fs after recover_replay()
 * (e2fsck does the same after its own journal replay); clear EXT2_FLAG_RW
 * and EXT2_FLAG_DIRTY before closing it, or libext2fs writes back its stale
 * superblock (call ext2fs_mmp_stop() first, as closing would).  The MMP
 * block is the caller's: recover_open_fs() does not check, wait, update or
 * release it (recover_options.mmp only says whether the feature is on).
 * Returns: 0 and *ret set, or an error code.
 */
errcode_t recover_open_fs(ext2_filsys fs, const struct recover_options *opts,
			  recover_t *ret);

/*
 * recover_scan - the SCAN pass (and the REVOKE pass): walk the log from
 * s_start, find the last transaction with a valid commit block, collect the
 * revoke records and check every tag; then, with FAST_COMMIT, read the
 * fast-commit area as the kernel would (recover_stats.fc_*).  Writes nothing.
 * While the log is walked, a second thread of the library hints the kernel
 * to read the log ahead of it into the page cache (a cold device then
 * streams it in large requests), through a read-only descriptor of its
 * own, never through the io channel; it runs only when the journal's
 * channel is unix_io_manager's, unless RECOVER_FL_NO_READAHEAD, and it is
 * joined before recover_scan() or recover_walk() returns.  Its failures
 * are ignored; recover_stats.readahead_blocks counts its hints.
 * Returns: 0 (see recover_get_stats() for what was found, including
 * recovery failures e2fsck would report), or an operational error, which
 * every later scan, walk or replay on r then returns again (reopen to
 * retry).
 */
errcode_t recover_scan(recover_t r);

/*
 * recover_replay - the REPLAY pass and the superblock updates, in the order
 * e2fsck uses: replayed blocks, a flush, the journal superblock (s_start 0),
 * a flush, the filesystem superblock (needs_recovery cleared), a flush.  With
 * RECOVER_FL_DRY_RUN, counts what would be written (recover_stats
 * write_blocks, write_bytes, fs_errors) and writes nothing.
 * Calls recover_scan() first when it has not run.
 * Then, on a filesystem with multi-mount protection, writes "clean" back
 * into the MMP block, as e2fsck does once its replay is done.
 * Returns: 0, or an error code; RECOVER_ET_TAG_PAST_END when a tag to be
 * replayed names a block past the end of the filesystem (nothing written);
 * RECOVER_ET_LOG_WITHOUT_FLAG, unless RECOVER_FL_FORCE, when the
 * filesystem's own journal holds a log (s_start != 0) but the filesystem
 * is not marked as needing recovery (nothing written): the kernel would
 * discard that log at mount, e2fsck would replay it and then run a full
 * check, and a replay alone gives neither result;
 * EXT2_ET_MMP_CHANGE_ABORT when another node wrote the MMP block meanwhile
 * (the replay stops there, or, when it was complete, the block is left to
 * that node);
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
	RECOVER_EV_FATE,	/* a tag of a replayed transaction, as for
				 * RECOVER_EV_TAG, and fate: what a replay
				 * does with it */
};

/*
 * The tag of a fast-commit record, as the area stores it (the fc_tag of a
 * RECOVER_EV_FC_TAG event); recover_fc_tag_name() names each.
 */
enum recover_fc_tag {
	RECOVER_FC_TAG_ADD_RANGE = 1,	/* an extent mapped into an inode */
	RECOVER_FC_TAG_DEL_RANGE = 2,	/* logical blocks of an inode unmapped */
	RECOVER_FC_TAG_CREAT = 3,	/* a new inode's first name */
	RECOVER_FC_TAG_LINK = 4,	/* one more name of an inode */
	RECOVER_FC_TAG_UNLINK = 5,	/* a name removed */
	RECOVER_FC_TAG_INODE = 6,	/* the inode as it is on disk */
	RECOVER_FC_TAG_PAD = 7,		/* filler to the end of the block */
	RECOVER_FC_TAG_TAIL = 8,	/* ends one fast commit: tid, crc */
	RECOVER_FC_TAG_HEAD = 9		/* starts the area: features, tid */
};

/*
 * What a replay does with one logged copy (RECOVER_EV_FATE).  A replay
 * writes the copies of the replayed transactions in log order, so of the
 * copies of one filesystem block that are written, the last one stays.
 */
enum recover_fate {
	RECOVER_FATE_NONE = 0,	/* not a RECOVER_EV_FATE event */
	RECOVER_FATE_WRITTEN,	/* written, and what the block holds after */
	RECOVER_FATE_REVOKED,	/* cancelled by a revoke record of
				 * transaction fate_tid (the latest one) */
	RECOVER_FATE_SUPERSEDED, /* written, then overwritten by the copy at
				 * journal block fate_jblock, of fate_tid */
	RECOVER_FATE_BAD_CSUM,	/* skipped: its data checksum fails */
	RECOVER_FATE_UNREADABLE, /* skipped: its journal block cannot be read */
	RECOVER_FATE_PAST_END,	/* names a block past the filesystem's end:
				 * the replay refuses the whole log */
	RECOVER_FATE_NOT_REPLAYED, /* recovery fails (recover_stats.error):
				 * nothing of the log is written */
	RECOVER_FATE_OWN_JOURNAL, /* names a block of the internal journal
				 * itself, its log or its block map (not its
				 * superblock): the replay refuses the whole
				 * log (RECOVER_ET_TAG_OWN_JOURNAL) */
};

struct recover_event {
	size_t		size;		/* the library's sizeof, see above */
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
	 * RECOVER_EV_FC_TAG: the record's tag (enum recover_fc_tag; a
	 * number outside it is a record the scan does not know) and its
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
	enum recover_fate fate;		/* RECOVER_EV_FATE */
	unsigned int	fate_tid;	/* REVOKED, SUPERSEDED: see above */
	unsigned long long fate_jblock;	/* SUPERSEDED: the copy written last */
	/* RECOVER_EV_FATE: nonzero when no filesystem is known
	 * (recover_open_journal()), so that PAST_END cannot be told */
	int		no_filesystem;
};

/* Returns nonzero to stop the walk (RECOVER_ET_INTERRUPTED). */
typedef int (*recover_event_fn)(void *data, const struct recover_event *ev);

/*
 * recover_walk - recover_scan(), calling fn for every descriptor, tag,
 * revoke block, revoke record and commit block as the scan meets them;
 * then, once the scan is over and the fates are known, once for every tag
 * of the replayed transactions, in log order (RECOVER_EV_FATE: what a
 * replay would do with it; the data blocks not revoked are read once
 * more, in order, as the replay reads them); then once at the end.  Streams:
 * nothing is held back for the calls beyond the tags the scan keeps.
 * Returns: as recover_scan(); RECOVER_ET_ALREADY_DONE if the journal was
 * scanned already.
 */
errcode_t recover_walk(recover_t r, recover_event_fn fn, void *data);

/*
 * recover_save - write the raw journal to path: the journal inode's
 * contents in logical order (as "debugfs -R 'dump <8> FILE'" writes them),
 * the whole external journal device, or a copy of the dump.  A copy of a
 * filesystem's journal ends with one block more, a record of the
 * filesystem as it is at the save (its UUID, mount and write times, mount
 * count, kbytes written, and its journal's superblock), which readers of
 * plain dumps never read (they go by s_maxlen) and with which
 * recover_replay() of the copy tells whether the filesystem changed since
 * (RECOVER_ET_STALE_DUMP, recover_stats.stale_checks).  The copy goes
 * to a new file in path's directory (created exclusively, mode 0600),
 * which is synced and then renamed over path: path itself is only ever
 * replaced by a complete copy.  When path is a symbolic link, the file it
 * points to is replaced.  Nothing else is written.  Calls the progress
 * function (pass RECOVER_PASS_SAVE) after every 4 MiB.  When it fails or
 * is stopped, only the new file is removed and path is left as it was.
 * recover_get_stats() then gives saved_bytes and saved_sha256.
 * Returns: 0, or an error code; RECOVER_ET_SAVE_PATH when path exists and
 * is not a regular file, or is the filesystem or the journal being read.
 */
errcode_t recover_save(recover_t r, const char *path);

/*
 * recover_save_fd - the same copy, written to fd (a pipe, standard output)
 * from its current position; fd is synced when it is a regular file and
 * is not closed.  A copy that fails or is stopped half way leaves what was
 * written in fd.
 * Returns: 0, or an error code.
 */
errcode_t recover_save_fd(recover_t r, int fd);

/* recover_needs_recovery - 1 when the journal has anything to replay, the
 * filesystem is flagged as needing recovery, the journal holds an error
 * (s_errno) to carry into the filesystem, or the journal inode is to be
 * rewritten from the superblock's backup, else 0. */
int recover_needs_recovery(recover_t r);

/* recover_get_super - the journal superblock as read at open. */
void recover_get_super(recover_t r, struct recover_super *sb);

/* recover_get_stats - counters of the passes run so far. */
void recover_get_stats(recover_t r, struct recover_stats *st);

/* recover_close - release everything (the MMP block too, written back as
 * "clean" if recover_replay() did not); safe with NULL. */
void recover_close(recover_t r);

/* recover_version - the library's version string. */
const char *recover_version(void);

/*
 * recover_error_name - the symbolic name of an error code: "RECOVER_ET_BUSY"
 * for this library's codes, "EXT2_ET_SHORT_READ" for libext2fs's, "ENOENT"
 * for errno values.
 * Returns: the name (static storage), or NULL for a code it does not know.
 */
const char *recover_error_name(errcode_t code);

/*
 * recover_feature_name - the name of one feature bit: mask is the bit
 * (exactly one), type the word it is in.  The names are the ones dumpe2fs
 * prints ("journal_checksum_v3" for RECOVER_FEATURE_INCOMPAT, 0x10;
 * "dirdata" for RECOVER_FEATURE_FS_INCOMPAT, 0x1000), and
 * "journal_fast_commit" for the journal's fast-commit bit, which
 * e2fsprogs 1.47 does not name.  To name every bit a word has set, call it
 * for each of its 32 bits and skip the NULLs.
 * Returns: the name (static storage), or NULL for a bit the library does
 * not know, a mask that is not a single bit, or an unknown type.
 */
const char *recover_feature_name(enum recover_feature_type type,
				 unsigned int mask);

/*
 * recover_fc_tag_name - the name of a fast-commit tag (enum
 * recover_fc_tag), as debugfs's logdump prints it: "ADD_RANGE",
 * "DEL_RANGE", "CREAT_DENTRY", "ADD_ENTRY", "DEL_ENTRY", "INODE", "PAD",
 * "TAIL", "HEAD".
 * Returns: the name (static storage), or NULL for a number that is no tag.
 */
const char *recover_fc_tag_name(unsigned int tag);

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

#ifdef __cplusplus
}
#endif

#endif /* LIBRECOVER_H */
