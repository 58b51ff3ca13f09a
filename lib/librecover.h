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
 *
 * Three parts of this header are files of their own, included below and
 * installed beside it: recover_stats.h (the results of a scan and a
 * replay), recover_walk.h (recover_walk()'s events) and recover_fsck.h
 * (recover_fsck_replay()).  Include this file only.  recover_version.h,
 * which configure writes, gives the version macros
 * (LIBRECOVER_VERSION_MAJOR, _MINOR, _MICRO, LIBRECOVER_VERSION and
 * LIBRECOVER_CHECK_VERSION(major, minor, micro)).
 */
#ifndef LIBRECOVER_H
#define LIBRECOVER_H

#include "recover_version.h"

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
	 * overwritten on the filesystem.  An external journal device or a
	 * dump (journal_path) is opened with journal_io_manager (below), so
	 * an undo file here covers the filesystem device only.
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
	/*
	 * recover_open() only: read the filesystem through the backup
	 * superblock at block superblock (in units of block_size), as
	 * e2fsck -b SUPERBLOCK [-B BLOCKSIZE] does.  0: the primary
	 * superblock.  block_size 0 tries 1024, 2048 ... 65536 in turn, as
	 * e2fsck does, and takes the first size at which the filesystem
	 * opens.  The journal is the one the backup names, and the end of
	 * the replay leaves what e2fsck -b leaves (librecover(3),
	 * "BACKUP SUPERBLOCKS"): the primary superblock and the primary
	 * group descriptors are written from the backup's, read anew
	 * after the replay; even with nothing to replay.  A log the
	 * backup does not mark as needing recovery is refused
	 * (RECOVER_ET_BACKUP_LOG_NO_FLAG, RECOVER_FL_FORCE too), and so
	 * is a live fast-commit area (RECOVER_ET_BACKUP_FC).  io_manager
	 * opens the filesystem a second time after the replay (to read the
	 * backup anew, as e2fsck does): an undo manager would start a
	 * second undo file, so do not set one.  A superblock
	 * libext2fs does not open there is its error (EXT2_ET_BAD_MAGIC
	 * ...).  recover_open_fs() and recover_open_journal() refuse a
	 * nonzero superblock (RECOVER_ET_BACKUP_UNSUPP).
	 */
	unsigned long long superblock;
	unsigned int	block_size;
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

#include "recover_stats.h"

/*
 * recover_open - open a filesystem (device or image path) and its journal.
 * Refuses a mounted filesystem (RECOVER_ET_MOUNTED) and a block device another
 * program holds open exclusively (RECOVER_ET_BUSY; a replay opens devices
 * with O_EXCL itself), and an image (or the file behind a loop device given)
 * with a loop device over it that is mounted or held open exclusively in
 * any mount namespace (RECOVER_ET_LOOP_BUSY: each is opened with O_EXCL,
 * and a replay keeps it so until recover_close()), and a journal inode that fails
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

#include "recover_walk.h"

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

#include "recover_fsck.h"

#ifdef __cplusplus
}
#endif

#endif /* LIBRECOVER_H */
