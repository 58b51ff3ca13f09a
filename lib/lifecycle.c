/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lifecycle.c -- a replay from beginning to end, in the order it happens,
 * as e2fsck keeps the load and the release of a journal together
 * (e2fsck/journal.c):
 *   - the open: the filesystem (mount checks, then multi-mount protection
 *     through life_mmp.c), then its journal (life_journal.c), where the
 *     source is decided and what it means for the passes (struct jsource)
 *     and which journal superblock the end of the replay resets;
 *   - the replay: the checks that refuse before anything is written, the
 *     fast commits in memory, the SCAN and REPLAY passes (pass_scan.c,
 *     pass_replay.c), each given what it needs (lifecycle_log()), never
 *     the handle, and filling a result of its own;
 *   - the end, in an order a power cut cannot break: on meta_bg, write
 *     the descriptor copies e2fsck's close writes (life_metabg.c); flush the
 *     replayed blocks, write the journal superblock, flush, write the
 *     filesystem superblock (its fields encoded by ext4_super.c), flush,
 *     let the MMP block go;
 *   - the close.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lifecycle.h"
#include "array.h"
#include "ext4_fs.h"
#include "feature.h"
#include "ext4_super.h"
#include "fc_replay.h"
#include "life_journal.h"
#include "life_metabg.h"
#include "life_mmp.h"
#include "life_stale.h"
#include "notify.h"
#include "outpath.h"
#include "pass_plan.h"
#include "pass_replay.h"
#include "pass_scan.h"

/*
 * The feature bits libext2fs does not know, judged and told to the caller
 * (recover_options.features), on every filesystem: one opened here past
 * libext2fs's own check (EXT2_FLAG_FORCE), or one a caller opened so.
 * When the library in use opened it without that (lib_ok), it knows every
 * incompat bit there, whatever the header this was built with says.
 */
static errcode_t check_features(struct recover_struct *r, int lib_ok)
{
	struct ext2_super_block *es = r->fs->super;
	errcode_t err;

	/*
	 * The header counts mmp in EXT2_LIB_FEATURE_INCOMPAT_SUPP only under
	 * CONFIG_MMP, e2fsprogs's own build setting, which a program
	 * including it does not have.  A libext2fs built without it refuses
	 * mmp at open, and its ext2fs_mmp_*() calls that life_mmp.c makes fail:
	 * such a filesystem is still refused.
	 */
	err = feature_judge(&r->feat, es->s_feature_incompat,
			    es->s_feature_ro_compat,
			    lib_ok ? ~0U : EXT2_LIB_FEATURE_INCOMPAT_SUPP |
			    EXT4_FEATURE_INCOMPAT_MMP,
			    EXT2_LIB_FEATURE_RO_COMPAT_SUPP,
			    !(r->opts.flags & RECOVER_FL_DRY_RUN));
	notify_copy_out(r->opts.features, &r->feat, sizeof(r->feat));
	return err;
}

/*
 * ext2fs_open2() at the primary superblock, or at the backup the caller
 * named (recover_options.superblock), as e2fsck -b opens it: with the
 * block size given, or the first of 1024 ... 65536 at which the whole
 * open succeeds (each try's handle freed unwritten).  libext2fs, opening
 * a backup past block 1 with group descriptor checksums, clears the
 * descriptors' BLOCK_UNINIT and INODE_UNINIT flags and bg_itable_unused
 * in memory: what the end of the replay writes (backup_end()).
 */
static errcode_t open_at(struct recover_struct *r, const char *device,
			 int flags)
{
	unsigned int bs = r->opts.block_size;
	errcode_t err = 0;

	if (!r->opts.superblock)
		return ext2fs_open2(device, NULL, flags, 0, 0,
				    r->opts.io_manager, &r->fs);
	if (!bs) {
		for (bs = EXT2_MIN_BLOCK_SIZE; bs <= EXT2_MAX_BLOCK_SIZE;
		     bs *= 2) {
			err = ext2fs_open2(device, NULL,
					   flags | EXT2_FLAG_NOFREE_ON_ERROR,
					   (int)r->opts.superblock, (int)bs,
					   r->opts.io_manager, &r->fs);
			if (r->fs) {
				ext2fs_free(r->fs);
				r->fs = NULL;
			}
			if (!err)
				break;
		}
		if (err)
			return err;
	}
	r->backup_sb = r->opts.superblock;
	r->backup_bs = bs;
	r->open_flags = flags;
	return ext2fs_open2(device, NULL, flags, (int)r->opts.superblock,
			    (int)bs, r->opts.io_manager, &r->fs);
}

/*
 * ext2fs_open() refused a feature it does not know: open again without
 * its check, then judge the features here.  EXT2_FLAG_FORCE skips nothing
 * else at open, and the superblock is never written from libext2fs's copy
 * (update_fs_super() edits the block as read, so the unknown bits stay as
 * they are on disk).  A journal device named as the filesystem is also
 * refused by that check: say what it is.
 */
static errcode_t open_forced(struct recover_struct *r, const char *device,
			     int flags)
{
	errcode_t err;

	err = open_at(r, device, flags | EXT2_FLAG_FORCE);
	if (err)
		return err;
	if (ext2fs_has_feature_journal_dev(r->fs->super))
		err = RECOVER_ET_IS_JOURNAL_DEV;
	else
		err = check_features(r, 0);
	if (err) {
		r->fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
		ext2fs_close_free(&r->fs);
	}
	return err;
}

/*
 * libext2fs's mount check reads the mount table with getmntent(), whose
 * entry and line live in one static buffer of the C library: two handles
 * opened at once in two threads would parse each other's lines (seen as a
 * leak in glibc's sscanf under LeakSanitizer, and a mount missed is worse).
 * The one lock of the library, held for that call alone.
 */
static pthread_mutex_t mount_check_lock = PTHREAD_MUTEX_INITIALIZER;

static errcode_t check_if_mounted(const char *device, int *mount_flags)
{
	errcode_t err;

	pthread_mutex_lock(&mount_check_lock);
	err = ext2fs_check_if_mounted(device, mount_flags);
	pthread_mutex_unlock(&mount_check_lock);
	return err;
}

/*
 * The other names of the filesystem's disk: for an image, each loop device
 * over it; for a loop device, each other one over the same file.  The mount
 * check reads this mount namespace's table alone; an open with O_EXCL
 * fails (EBUSY) on a device that is mounted, or that a program holds so, in
 * any namespace.  A replay keeps each such open until the close, so that
 * nothing mounts or claims the filesystem by another name under it (and a
 * second replay by another name is refused); a dry run lets each go at
 * once.  A loop device without its node in /dev, or that this process may
 * not open, cannot be asked and is left alone.
 */
struct other_names {
	struct recover_struct *r;
	int		has_self;
	dev_t		self;		/* the loop device given */
	int		keep;
	errcode_t	err;
};

static int hold_name(void *arg, const char *name, dev_t rdev)
{
	struct other_names *o = arg;
	struct recover_struct *r = o->r;
	char path[300];
	struct stat st;
	errcode_t err;
	int fd;

	if (o->has_self && rdev == o->self)
		return 0;
	snprintf(path, sizeof(path), "/dev/%s", name);
	if (stat(path, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != rdev)
		return 0;
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno != EBUSY)
			return 0;
		o->err = RECOVER_ET_LOOP_BUSY;
		return 1;
	}
	if (!o->keep) {
		close(fd);
		return 0;
	}
	err = array_grow((void **)&r->names_held, &r->names_cap,
			 r->names_nheld + 1, sizeof(*r->names_held));
	if (err) {
		close(fd);
		o->err = err;
		return 1;
	}
	r->names_held[r->names_nheld++] = fd;
	return 0;
}

static errcode_t hold_other_names(struct recover_struct *r,
				  const char *device, int dry)
{
	struct other_names o = { .r = r, .keep = !dry };
	char file[4096 + 16];
	struct stat st;

	if (stat(device, &st))
		return 0;	/* the open says what is wrong with it */
	if (S_ISBLK(st.st_mode)) {
		o.has_self = 1;
		o.self = st.st_rdev;
		if (!outpath_loop_file(o.self, file, sizeof(file), &st))
			return 0;
	} else if (!S_ISREG(st.st_mode)) {
		return 0;
	}
	outpath_each_loop(&st, hold_name, &o);
	return o.err;
}

static void release_other_names(struct recover_struct *r)
{
	size_t i;

	for (i = 0; i < r->names_nheld; i++)
		close(r->names_held[i]);
	free(r->names_held);
	r->names_held = NULL;
	r->names_nheld = r->names_cap = 0;
}

/*
 * The filesystem on device, opened by the library: refused when mounted
 * (unless only read, with RECOVER_FL_MOUNTED_OK) or held exclusively; its
 * MMP block is checked, and taken when read-write.
 */
static errcode_t open_device(struct recover_struct *r, const char *device)
{
	int mount_flags = 0;
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS;
	int dry = !!(r->opts.flags & RECOVER_FL_DRY_RUN);
	errcode_t err;

	err = check_if_mounted(device, &mount_flags);
	if (!err && (mount_flags & EXT2_MF_MOUNTED)) {
		/* The kernel holds a mounted device exclusively, too. */
		if (dry && (r->opts.flags & RECOVER_FL_MOUNTED_OK))
			r->mounted = 1;
		else
			err = RECOVER_ET_MOUNTED;
	}
	/* Another program (a running fsck, a mount in another namespace)
	 * holds the block device with O_EXCL: even a dry run would read
	 * blocks it may be rewriting. */
	else if (!err && (mount_flags & EXT2_MF_BUSY))
		err = RECOVER_ET_BUSY;
	/* Mounted here and read as such: its loop device is the mount's. */
	if (!err && !r->mounted)
		err = hold_other_names(r, device, dry);
	if (err)
		return err;
	if (!dry)
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	/* MMP: life_mmp_begin() looks at the block; life_mmp_take() takes it
	 * before the first write (lifecycle_replay()). */
	flags |= EXT2_FLAG_SKIP_MMP;
	err = open_at(r, device, flags);
	if (err == EXT2_ET_UNSUPP_FEATURE || err == EXT2_ET_RO_UNSUPP_FEATURE)
		err = open_forced(r, device, flags);
	else if (!err)
		err = check_features(r, 1);
	if (err == EBUSY)
		err = RECOVER_ET_BUSY;
	if (err)
		return err;
	r->own_fs = 1;
	return life_mmp_begin(r);
}

/* A filesystem the caller holds open: its MMP block stays the caller's. */
static void adopt_fs(struct recover_struct *r, ext2_filsys fs)
{
	r->fs = fs;
	r->mmp.present = ext2fs_has_feature_mmp(fs->super);
	r->mmp.block = fs->super->s_mmp_block;
	r->mmp.update_interval = fs->super->s_mmp_update_interval;
	life_mmp_publish(r);
}

/* notify's tick: the MMP block rewritten when its interval has passed. */
static errcode_t mmp_tick(void *arg)
{
	return life_mmp_update(arg);
}

errcode_t lifecycle_open(struct recover_struct *r, const char *device,
			 ext2_filsys fs)
{
	errcode_t err;

	/* The passes' progress points keep a held MMP block fresh. */
	r->notify.tick = mmp_tick;
	r->notify.tick_arg = r;
	r->about = RECOVER_ABOUT_FS;
	if (device) {
		err = open_device(r, device);
		if (err)
			return err;
	} else if (fs) {
		adopt_fs(r, fs);
		err = check_features(r, 0);
		if (err)
			return err;
	} else {
		life_mmp_publish(r);
	}
	if (r->fs)
		r->needs_recovery =
			ext2fs_has_feature_journal_needs_recovery(r->fs->super);
	r->about = recover_journal_about(r);
	return life_journal_open(r);
}

void lifecycle_close(struct recover_struct *r)
{
	source_close(&r->src);
	source_close(&r->own);
	if (r->fs && r->own_fs) {
		/* Before RW is cleared: ext2fs_mmp_stop() needs it. */
		life_mmp_end(r);
		/*
		 * libext2fs would write its copy of the superblock and group
		 * descriptors back at close (it counts s_kbytes_written): that
		 * copy predates the replay.  Everything librecover writes went
		 * out through the io channel already.
		 */
		r->fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
		ext2fs_close_free(&r->fs);
	}
	/* The filesystem closed, its writes out: its other names let go. */
	release_other_names(r);
	/* What the journal and the passes kept. */
	free(r->own_jsb_raw);
	r->own_jsb_raw = NULL;
	fc_replay_free(&r->fc_overlay);
	revoke_free(&r->revoke);
	free(r->tags.v);
	memset(&r->tags, 0, sizeof(r->tags));
	free(r->jsb_raw);
	r->jsb_raw = NULL;
}

/* A log to replay, in e2fsck's eyes: the flag, or a log without it. */
static int has_log(const struct recover_struct *r)
{
	/* A dump's log is all there is; the flag belongs to the fs's own. */
	if (!r->src.fs_journal)
		return r->sb.pub.start != 0;
	return r->needs_recovery || r->sb.pub.start != 0;
}

int lifecycle_needs_recovery(const struct recover_struct *r)
{
	if (!r->src.fs_journal)
		return has_log(r);
	/* e2fsck -b writes the primary superblock from the backup, always. */
	return has_log(r) || r->sb.pub.errnum != 0 || r->src.from_backup ||
	       r->backup_sb != 0;
}

/*
 * The filesystem superblock, read back after the replay (which may have
 * rewritten it): needs_recovery cleared, "not clean" after a failed
 * recovery, "errors" after a journal error; checksum recomputed.
 */
static errcode_t update_fs_super(struct recover_struct *r, int failed,
				 int fs_error)
{
	io_channel io = r->fs->io;
	unsigned int bs = r->fs->blocksize;
	blk64_t blk = SUPERBLOCK_OFFSET / bs;
	struct ext4_super_update u = {
		.recovered = has_log(r),
		.failed = failed,
		.fs_error = fs_error,
		.wtime = time(NULL),
		.kbytes_written = lifecycle_written_bytes(r) >> 10,
	};
	unsigned char *buf;
	errcode_t err;

	buf = malloc(bs);
	if (!buf)
		return ENOMEM;
	err = io_channel_read_blk64(io, blk, 1, buf);
	if (err)
		goto out;
	ext4_super_update(buf + SUPERBLOCK_OFFSET % bs, &u);
	err = io_channel_write_blk64(io, blk, 1, buf);
out:
	free(buf);
	return err;
}

/*
 * The end of a replay through a backup superblock, as e2fsck -b ends it:
 * e2fsck reopens the filesystem after its replay at the same backup (so
 * what the log wrote there counts, and what it wrote over the primary
 * superblock and descriptors does not), clears needs_recovery in that
 * copy, marks it not clean after a failed recovery and with errors when
 * the journal had s_errno, and closes it with the primary superblock
 * alone to update: libext2fs then writes the primary superblock whole
 * (s_block_group_nr 0) and the primary descriptors, with its open's
 * changes (no UNINIT flags, bg_itable_unused 0), and on meta_bg every
 * copy of each descriptor block.  The same open and close do it here,
 * through the caller's io manager, without O_EXCL (the first handle
 * holds it) and without MMP (the first handle holds that too).
 */
static errcode_t backup_end(struct recover_struct *r, int failed,
			    int fs_error)
{
	ext2_filsys fs;
	errcode_t err;

	err = ext2fs_open2(r->fs->device_name, NULL,
			   (r->open_flags & ~EXT2_FLAG_EXCLUSIVE) |
			   EXT2_FLAG_SKIP_MMP, (int)r->backup_sb,
			   (int)r->backup_bs, r->opts.io_manager, &fs);
	if (err)
		return err;
	fs->now = time(NULL);
	fs->flags |= EXT2_FLAG_MASTER_SB_ONLY;
	if (has_log(r))
		ext2fs_clear_feature_journal_needs_recovery(fs->super);
	if (failed)
		fs->super->s_state &= ~EXT2_VALID_FS;
	if (fs_error)
		fs->super->s_state |= EXT2_ERROR_FS;
	ext2fs_mark_super_dirty(fs);
	/* Frees fs whether or not the flush succeeds. */
	return ext2fs_close_free(&fs);
}

/*
 * The end of a replay whose blocks are written (dry: would be), in the
 * order that keeps a power cut harmless at every step: the replayed blocks
 * are durable before the journal lets go of its log, and the reset journal
 * is durable before needs_recovery goes (otherwise the flag's update could
 * land without it, leaving a log on a filesystem not marked as needing
 * recovery); then the MMP block is let go, as e2fsck does as soon as its
 * replay is done.
 */
static errcode_t end_replay(struct recover_struct *r, int failed, int dry)
{
	struct jsource *jsrc = r->reset;
	unsigned char *raw = r->reset_jsb;
	struct jbd2_reset how;
	int fs_error;
	errcode_t err;

	r->about = RECOVER_ABOUT_FS;
	/*
	 * e2fsck writes the descriptors whenever it closes the filesystem
	 * changed: after a replay (needs_recovery set, or a log, or a dump's
	 * log), and when it moves s_errno into the filesystem's state.  A
	 * journal inode rewritten from its backup alone changes only the
	 * superblock's count of bytes written, which it writes alone.
	 */
	if ((has_log(r) || r->sb.pub.errnum) && !r->backup_sb) {
		err = life_metabg_write_copies(r, dry);
		if (err)
			return err;
	}
	if (!dry) {
		err = io_channel_flush(r->fs->io);
		if (err)
			return err;
	}
	/*
	 * A dump cut short holds less than the journal it was saved from:
	 * that journal keeps its log for a full replay.
	 */
	if (!jsrc || r->scan.end_reason == RECOVER_END_TRUNCATED) {
		r->dump_is_current = 0;
		return 0;
	}
	/* Through a backup with nothing for the journal: e2fsck -b leaves
	 * the journal alone and writes the primary from the backup. */
	if (r->backup_sb && !has_log(r) && !r->sb.pub.errnum &&
	    !r->src.from_backup) {
		r->write_blocks += 1;
		r->write_bytes += r->fs->blocksize;
		return dry ? 0 : backup_end(r, failed, 0);
	}
	r->write_blocks += 2;
	r->write_bytes += jsrc->blocksize + r->fs->blocksize;
	how.had_log = has_log(r);
	how.replayed = !failed;
	how.end_tid = r->scan.end_tid;
	how.failed_commit = r->scan.failed_commit;
	how.keep_errno = r->fsck;
	if (dry) {
		/* What the superblock updates would say, on a copy. */
		unsigned char *copy = malloc(jsrc->blocksize);

		if (!copy)
			return ENOMEM;
		memcpy(copy, raw, jsrc->blocksize);
		r->fs_errors = jbd2_reset_super(&r->sb, copy, &how);
		free(copy);
		return 0;
	}
	fs_error = jbd2_reset_super(&r->sb, raw, &how);
	r->fs_errors = fs_error;
	if (jsrc == &r->src)
		r->about = recover_journal_about(r);
	err = source_write(jsrc, jsrc->sb_block, raw);
	if (!err)
		err = io_channel_flush(jsrc->io);
	if (err)
		return err;
	r->about = RECOVER_ABOUT_FS;
	/* recover_fsck_replay(): the filesystem superblock is the caller's. */
	if (r->fsck)
		return 0;
	if (r->backup_sb)
		err = backup_end(r, failed, fs_error);
	else
		err = update_fs_super(r, failed, fs_error);
	if (!err)
		err = io_channel_flush(r->fs->io);
	if (!err)
		err = life_mmp_end(r);
	return err;
}

/*
 * The size of the device or image file the filesystem was opened on, in
 * filesystem blocks, against s_blocks_count.  Unknown sizes (a caller's
 * io manager on a path that is no file) are not refused.
 */
static errcode_t check_device_size(struct recover_struct *r)
{
	blk64_t dev_blocks = 0;

	if (!r->own_fs || !r->fs->device_name ||
	    ext2fs_get_device_size2(r->fs->device_name, (int)r->fs->blocksize,
				    &dev_blocks) || !dev_blocks)
		return 0;
	r->device_blocks = dev_blocks;
	if (dev_blocks < ext2fs_blocks_count(r->fs->super))
		return RECOVER_ET_DEVICE_SMALL;
	return 0;
}

/* Every refusal of a replay with something to do, before anything is
 * written. */
static errcode_t check_before_write(struct recover_struct *r)
{
	struct pass_log pl = lifecycle_log(r);
	errcode_t err;

	/* A dump older than the filesystem would undo what was done since. */
	err = life_stale_check(r);
	if (err)
		return err;
	/*
	 * A log the filesystem does not know about: the kernel would throw it
	 * away at mount, e2fsck would ask, replay it and then check the whole
	 * filesystem.  A replay alone is neither, so it takes -f.  (A dump is
	 * replayed whatever the filesystem's flag: it is not the fs's log.)
	 */
	if (r->src.fs_journal && !r->needs_recovery &&
	    r->sb.pub.start && !(r->opts.flags & RECOVER_FL_FORCE))
		return r->backup_sb ? RECOVER_ET_BACKUP_LOG_NO_FLAG :
		       RECOVER_ET_LOG_WITHOUT_FLAG;
	/*
	 * Through a backup, e2fsck runs such a log with no question ("Recovery
	 * flag not set in backup superblock, so running journal anyway") and
	 * then checks the whole filesystem: never a replay alone, -f or not.
	 */
	if (r->backup_sb && r->src.fs_journal && !r->needs_recovery &&
	    r->sb.pub.start)
		return RECOVER_ET_BACKUP_LOG_NO_FLAG;
	/* e2fsck -b would replay the fast commits and then stop on its
	 * restart: not a result to match. */
	if (r->backup_sb && r->fc.state == RECOVER_FC_LIVE)
		return RECOVER_ET_BACKUP_FC;
	/*
	 * e2fsck goes on after a failed scan, replays nothing and resets the
	 * journal; librecover stops unless told to do the same.
	 */
	if (lifecycle_log_error(r) && !(r->opts.flags & RECOVER_FL_FORCE))
		return lifecycle_log_error(r);
	/*
	 * A filesystem larger than its device or image: writes would fail
	 * part way or land past the end (e2fsck aborts on the same
	 * comparison, after its replay).  Refused before anything is written.
	 */
	err = check_device_size(r);
	if (err)
		return err;
	/* A log that leaves the filesystem naming another journal (one
	 * copied from another filesystem): e2fsck would delete it. */
	err = life_journal_check_left(r, &pl);
	if (err)
		return err;
	/* A fast-commit area the kernel would refuse, or records the replay
	 * must not follow: refused before anything is written. */
	if (r->fc.state == RECOVER_FC_CORRUPT)
		return RECOVER_ET_FC_CORRUPT;
	/* Fast commits edit directories and inodes through libext2fs, which
	 * does not know what the tolerated features do to them. */
	if (r->fc.state == RECOVER_FC_LIVE && r->feat.tolerated)
		return RECOVER_ET_FC_UNKNOWN_FEATURE;
	return fc_replay_check(&pl, r->fs, &r->fc);
}

/*
 * The fast commits, replayed in memory on the filesystem the log leaves
 * (written after the log's blocks, fc_replay_commit()): a record that
 * cannot be replayed stops all before any write.
 */
static errcode_t replay_fast_commits(struct recover_struct *r)
{
	struct pass_log pl = lifecycle_log(r);

	if (lifecycle_log_error(r) || r->fc.state != RECOVER_FC_LIVE)
		return 0;
	return fc_replay(&pl, r->fs, &r->fc, &r->fc_overlay);
}

/*
 * The first writes, in this order: the MMP block taken, a journal device's
 * ext2 superblock checksum fixed (-f), then REPLAY: the tags no replay may
 * write refused, the journal inode rewritten from its backup (before any
 * logged block: one of them may hold the inode's table; with no log to
 * replay too), and the log's blocks (a dry run only reads).  r->about
 * says what an error is about.
 */
static errcode_t replay_log(struct recover_struct *r, int dry)
{
	struct pass_log pl = lifecycle_log(r);
	int has_log = !lifecycle_log_error(r) && r->sb.pub.start;
	errcode_t err;

	/* Every refusal is behind: the MMP block is taken (the wait) just
	 * before the first write. */
	if (!dry) {
		r->about = RECOVER_ABOUT_FS;
		err = life_mmp_take(r);
		if (err)
			return err;
		r->about = recover_journal_about(r);
	}
	if (r->fix_jdev_csum && !dry) {
		r->wrote = 1;
		err = life_journal_fix_jdev_csum(r);
		if (err)
			return err;
	}
	if (has_log) {
		err = pass_replay_check_tags(&pl,
					     ext2fs_blocks_count(r->fs->super),
					     &r->rep);
		/* Only a tag past the end is the journal's fault. */
		if (err != RECOVER_ET_TAG_PAST_END &&
		    err != RECOVER_ET_TAG_OWN_JOURNAL)
			r->about = RECOVER_ABOUT_FS;
		if (err)
			return err;
	}
	if (!dry) {
		r->about = RECOVER_ABOUT_FS;
		err = life_journal_restore_inode(r);
		if (err)
			return err;
	}
	if (has_log) {
		err = pass_replay(&pl, r->fs->io, dry, &r->rep);
		r->read_bytes = r->src.read_bytes;
		r->about = RECOVER_ABOUT_FS;
		if (err)
			return err;
	}
	return 0;
}

/*
 * The passes after SCAN, in the kernel's order: the fast-commit area is
 * read once the log's end is known; the full revoke strategy reads its
 * records in a pass of its own (unless the log already failed); then, for
 * recover_walk(), each tag's fate once they are final, and the end.
 */
static errcode_t read_passes(struct recover_struct *r, struct jreader *rd)
{
	struct pass_log pl = lifecycle_log(r);
	struct recover_event ev;
	errcode_t err = 0;

	/* A dump on its own: no inode size to hold an INODE record to but
	 * the block's. */
	if (!r->scan.error)
		err = fc_scan_area(&pl, r->fs ? EXT2_INODE_SIZE(r->fs->super) :
				   r->sb.pub.blocksize, r->scan.end_tid,
				   &r->fc);
	if (err)
		return err;
	if (!r->scan.error)
		err = revoke_finish(&r->revoke, rd, &r->sb,
				    r->scan.revoke_records, &r->notify);
	if (!err)
		err = pass_plan(&pl, rd, r->fs, r->scan.error != 0);
	if (!err && r->notify.event) {
		notify_event_init(&ev, RECOVER_EV_END, r->scan.end_at.tid,
				  r->scan.end_at.jblock);
		ev.end = r->scan.end_reason;
		err = notify_event_send(&r->notify, &ev);
	}
	r->revoke_kept = revoke_kept(&r->revoke);
	r->table_bytes = r->revoke.peak_bytes +
			      r->tags.cap * sizeof(*r->tags.v);
	return err;
}

errcode_t lifecycle_scan(struct recover_struct *r)
{
	struct pass_log pl = lifecycle_log(r);
	/* The open cleared a superblock's garbage after s_errno in memory:
	 * the read-ahead thread compares the block it reads with the
	 * superblock as read, up to there. */
	struct scan_how how = {
		.flags = r->opts.flags,
		.jsb_raw = r->jsb_raw,
		.jsb_len = r->garbage_nr_users ? JSB_V1_SIZE :
			   r->src.blocksize,
	};
	struct jreader rd;

	if (r->scan_err || r->scanned)
		return r->scan_err;
	memset(&rd, 0, sizeof(rd));
	r->scan_err = pass_scan(&pl, &how, &rd, &r->scan);
	if (!r->scan_err && r->sb.pub.start)
		r->scan_err = read_passes(r, &rd);
	source_reader_free(&rd);
	if (!r->scan_err)
		r->scanned = 1;
	return r->scan_err;
}

errcode_t lifecycle_replay(struct recover_struct *r)
{
	int dry = !!(r->opts.flags & RECOVER_FL_DRY_RUN);
	int failed;
	errcode_t err;

	r->about = RECOVER_ABOUT_FS;
	if (!r->fs)
		return RECOVER_ET_NO_FILESYSTEM;
	if (r->replayed)
		return RECOVER_ET_ALREADY_DONE;
	if (r->mounted)
		return RECOVER_ET_MOUNTED;
	r->about = recover_journal_about(r);
	err = lifecycle_scan(r);
	if (err)
		return err;
	/* e2fsck -y would delete this journal, its log unreplayed. */
	if (r->flag_clear_log)
		return RECOVER_ET_JOURNAL_FLAG_CLEAR;
	if (!lifecycle_needs_recovery(r))
		return 0;
	err = check_before_write(r);
	if (err)
		return err;
	err = replay_fast_commits(r);
	if (err)
		return err;
	err = replay_log(r, dry);
	if (err)
		return err;
	r->replayed = 1;
	failed = lifecycle_log_error(r) || r->rep.bad_csum;
	r->write_blocks = r->rep.copies_written;
	r->write_bytes = r->rep.written_bytes;
	r->about = RECOVER_ABOUT_FS;
	if (!dry) {
		r->wrote = 1;
		/* The fast commits' changes, over the log's blocks. */
		err = fc_replay_commit(&r->fc_overlay, r->fs->io, &r->fc);
		if (err)
			return err;
	}
	return end_replay(r, failed, dry);
}
