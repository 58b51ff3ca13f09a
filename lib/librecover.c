/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librecover.c -- the public interface: opening a filesystem and its
 * journal, and the superblock updates that end a replay.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "librecoverP.h"

/* Fields of the ext4 superblock librecover reads or writes (little-endian). */
#define ES_WTIME		0x30
#define ES_STATE		0x3A
#define ES_FEATURE_INCOMPAT	0x60
#define ES_FEATURE_RO_COMPAT	0x64
#define ES_KBYTES_WRITTEN	0x178
#define ES_WTIME_HI		0x274
#define ES_CHECKSUM		0x3FC

/* e2fsck writes -EINVAL into s_errno when a commit block was corrupt. */
#define JOURNAL_EINVAL		((uint32_t)-EINVAL)
/* A v1 superblock ends at s_errno; e2fsck zeroes anything after it. */
#define JSB_V1_SIZE		0x24

const char *recover_version(void)
{
	return PACKAGE_VERSION;
}

static int uuid_null(const unsigned char *u)
{
	static const unsigned char zero[16];

	return !memcmp(u, zero, sizeof(zero));
}

/*
 * With a dump: does the filesystem's own internal journal hold the same log
 * (the dump was saved from it and it was not reset since)?  Then the replay
 * of the dump also retires that journal, as e2fsck's replay of it would.
 */
static errcode_t open_own_journal(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	unsigned char *raw;
	errcode_t err;

	if (!ext2fs_has_feature_journal(fs->super) || !fs->super->s_journal_inum ||
	    !r->sb.pub.start)
		return 0;
	if (jsource_open_inode(&r->own, fs))
		return 0;
	raw = malloc(fs->blocksize);
	if (!raw)
		return ENOMEM;
	err = jsource_read(&r->own, 0, 1, raw);
	if (err || memcmp(raw, r->jsb_raw, JSB_SIZE)) {
		free(raw);
		return 0;
	}
	r->own_jsb_raw = raw;
	r->st.dump_is_current = 1;
	return 0;
}

static errcode_t open_journal(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	struct ext2_super_block *es = fs->super;
	int rw = !(r->opts.flags & RECOVER_FL_DRY_RUN);
	errcode_t err;

	if (r->journal_path) {
		err = jsource_open_path(&r->src, r->journal_path,
					unix_io_manager, fs->blocksize, rw);
		if (err)
			return err;
	} else {
		if (!ext2fs_has_feature_journal(es))
			return RECOVER_ET_NO_JOURNAL;
		if (!es->s_journal_inum && !uuid_null(es->s_journal_uuid))
			return RECOVER_ET_NEED_EXT_JOURNAL;
		err = jsource_open_inode(&r->src, fs);
		if (err)
			return err;
	}

	r->jsb_raw = malloc(fs->blocksize);
	if (!r->jsb_raw)
		return ENOMEM;
	err = jsource_read(&r->src, r->src.sb_block, 1, r->jsb_raw);
	if (err == RECOVER_ET_JOURNAL_SHORT && r->src.kind == RECOVER_SRC_DUMP)
		return RECOVER_ET_DUMP_SIZE;
	if (err)
		return err == RECOVER_ET_JOURNAL_SHORT ? err : RECOVER_ET_LOG_IO;
	err = jbd2_decode_super(r->jsb_raw, fs->blocksize, &r->sb);
	if (err)
		return err;
	r->sb.pub.source = r->src.kind;
	err = jbd2_check_geometry(&r->sb, r->src.blocks,
				  r->src.kind == RECOVER_SRC_DUMP);
	if (err)
		return err;
	if (r->sb.pub.nr_users > 1)
		return RECOVER_ET_UNSUPP_MULTIFS;

	/* Is this journal the filesystem's? */
	if (r->src.kind == RECOVER_SRC_DEVICE &&
	    memcmp(r->sb.pub.uuid, es->s_journal_uuid, 16) &&
	    !(r->opts.flags & RECOVER_FL_FORCE))
		return RECOVER_ET_EXT_JOURNAL_UUID;
	if (r->src.kind == RECOVER_SRC_DUMP &&
	    memcmp(r->sb.pub.uuid, es->s_uuid, 16) &&
	    memcmp(r->sb.pub.uuid, es->s_journal_uuid, 16) &&
	    !(r->opts.flags & RECOVER_FL_FORCE))
		return RECOVER_ET_DUMP_MISMATCH;
	if (r->src.kind == RECOVER_SRC_DUMP) {
		err = open_own_journal(r);
		if (err)
			return err;
	}
	return 0;
}

static errcode_t new_handle(const struct recover_options *opts,
			    struct recover_struct **ret)
{
	struct recover_struct *r;

	*ret = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return ENOMEM;
	if (opts)
		r->opts = *opts;
	if (!r->opts.io_manager)
		r->opts.io_manager = unix_io_manager;
	if (r->opts.journal_path) {
		r->journal_path = strdup(r->opts.journal_path);
		if (!r->journal_path) {
			free(r);
			return ENOMEM;
		}
		r->opts.journal_path = r->journal_path;
	}
	*ret = r;
	return 0;
}

static errcode_t finish_open(struct recover_struct *r, recover_t *ret)
{
	errcode_t err;

	r->needs_recovery =
		ext2fs_has_feature_journal_needs_recovery(r->fs->super);
	err = open_journal(r);
	if (err) {
		recover_close(r);
		return err;
	}
	*ret = r;
	return 0;
}

errcode_t recover_open(const char *device, const struct recover_options *opts,
		       recover_t *ret)
{
	struct recover_struct *r;
	int mount_flags = 0;
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS;
	errcode_t err;

	*ret = NULL;
	err = new_handle(opts, &r);
	if (err)
		return err;
	err = ext2fs_check_if_mounted(device, &mount_flags);
	if (!err && (mount_flags & EXT2_MF_MOUNTED))
		err = RECOVER_ET_MOUNTED;
	/* Another program (a running fsck, a mount in another namespace)
	 * holds the block device with O_EXCL: even a dry run would read
	 * blocks it may be rewriting. */
	else if (!err && (mount_flags & EXT2_MF_BUSY))
		err = RECOVER_ET_BUSY;
	if (err)
		goto fail;
	if (!(r->opts.flags & RECOVER_FL_DRY_RUN))
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	err = ext2fs_open2(device, NULL, flags, 0, 0, r->opts.io_manager,
			   &r->fs);
	if (err == EBUSY)
		err = RECOVER_ET_BUSY;
	if (err)
		goto fail;
	r->own_fs = 1;
	return finish_open(r, ret);
fail:
	recover_close(r);
	return err;
}

errcode_t recover_open_fs(ext2_filsys fs, const struct recover_options *opts,
			  recover_t *ret)
{
	struct recover_struct *r;
	errcode_t err;

	*ret = NULL;
	if (!(fs->flags & EXT2_FLAG_RW) && !(opts && (opts->flags & RECOVER_FL_DRY_RUN)))
		return EXT2_ET_RO_FILSYS;
	err = new_handle(opts, &r);
	if (err)
		return err;
	r->fs = fs;
	return finish_open(r, ret);
}

void recover_close(recover_t r)
{
	if (!r)
		return;
	jsource_close(&r->src);
	jsource_close(&r->own);
	free(r->own_jsb_raw);
	if (r->fs && r->own_fs) {
		/*
		 * libext2fs would write its copy of the superblock and group
		 * descriptors back at close (it counts s_kbytes_written): that
		 * copy predates the replay.  Everything librecover writes went
		 * out through the io channel already.
		 */
		r->fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
		ext2fs_close_free(&r->fs);
	}
	fc_replay_free(r);
	rtable_free(&r->rt);
	free(r->tags);
	free(r->revoke_at);
	free(r->jsb_raw);
	free(r->journal_path);
	free(r);
}

/* A log to replay, in e2fsck's eyes: the flag, or a log without it. */
static int has_log(const struct recover_struct *r)
{
	/* A dump's log is all there is; the flag belongs to the fs's own. */
	if (r->src.kind == RECOVER_SRC_DUMP)
		return r->sb.pub.start != 0;
	return r->needs_recovery || r->sb.pub.start != 0;
}

int recover_needs_recovery(recover_t r)
{
	if (r->src.kind == RECOVER_SRC_DUMP)
		return has_log(r);
	return has_log(r) || r->sb.pub.errnum != 0;
}

void recover_get_super(recover_t r, struct recover_super *sb)
{
	*sb = r->sb.pub;
}

void recover_get_stats(recover_t r, struct recover_stats *st)
{
	*st = r->st;
	st->needs_recovery = r->needs_recovery;
}

/*
 * A scan that failed or was stopped leaves its counters and tables half
 * built: every later scan, walk or replay on this handle returns the same
 * error (reopen to start again).
 */
errcode_t recover_scan(recover_t r)
{
	if (r->scan_err)
		return r->scan_err;
	if (r->scanned)
		return 0;
	r->scan_err = recovery_scan(r);
	return r->scan_err;
}

errcode_t recover_walk(recover_t r, recover_event_fn fn, void *data)
{
	if (r->scan_err)
		return r->scan_err;
	if (r->scanned)
		return RECOVER_ET_ALREADY_DONE;
	r->event = fn;
	r->event_data = data;
	r->scan_err = recovery_scan(r);
	r->event = NULL;
	return r->scan_err;
}

errcode_t recover_save(recover_t r, const char *path)
{
	unsigned int bs = r->src.blocksize;
	unsigned int chunk = (4U << 20) / bs;
	unsigned char *buf;
	uint64_t blk;
	errcode_t err = 0;
	struct stat st;
	int fd, regular;

	buf = malloc((size_t)chunk * bs);
	if (!buf)
		return ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	r->progress_next = 0;
	/* Only a regular file is removed after a failure, never a device. */
	regular = !fstat(fd, &st) && S_ISREG(st.st_mode);
	for (blk = 0; blk < r->src.blocks && !err; blk += chunk) {
		unsigned int n = r->src.blocks - blk < chunk ?
				 (unsigned int)(r->src.blocks - blk) : chunk;
		size_t len = (size_t)n * bs, done = 0;

		err = jsource_read(&r->src, blk, n, buf);
		while (!err && done < len) {
			ssize_t w = write(fd, buf + done, len - done);

			if (w < 0 && errno != EINTR)
				err = errno;
			else if (w > 0)
				done += (size_t)w;
		}
		if (!err)
			err = recovery_progress(r, RECOVER_PASS_SAVE, blk + n,
						r->src.blocks);
	}
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (err && regular)
		unlink(path);
out:
	free(buf);
	return err;
}

/*
 * The journal superblock after recovery, as e2fsck leaves it: the log
 * emptied (s_start 0); when recovery succeeded, s_sequence one past the
 * last tid replayed plus one (the kernel's ++end_transaction), and -EINVAL
 * in s_errno after a corrupt commit block.  Then e2fsck's journal check
 * moves any s_errno into the filesystem's error state and clears it.
 * Returns whether the filesystem must be marked as having errors.
 */
static int reset_journal_super(struct recover_struct *r, unsigned char *raw,
			       int failed)
{
	int fs_error;

	if (!has_log(r))
		goto errno_only;
	if (r->sb.pub.version == 1 &&
	    (get_be32(raw + JSB_FEATURE_COMPAT) ||
	     get_be32(raw + JSB_FEATURE_INCOMPAT) ||
	     get_be32(raw + JSB_FEATURE_RO_COMPAT) ||
	     get_be32(raw + JSB_NR_USERS)))
		memset(raw + JSB_V1_SIZE, 0, r->sb.pub.blocksize - JSB_V1_SIZE);
	put_be32(raw + JSB_START, 0);
	if (!failed) {
		put_be32(raw + JSB_SEQUENCE, r->st.end_tid + 1);
		if (r->st.failed_commit)
			put_be32(raw + JSB_ERRNO, JOURNAL_EINVAL);
	}
errno_only:
	fs_error = get_be32(raw + JSB_ERRNO) != 0;
	put_be32(raw + JSB_ERRNO, 0);
	jbd2_super_set_csum(&r->sb, raw);
	return fs_error;
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
	unsigned char *buf, *es;
	uint16_t state;
	uint32_t incompat;
	time_t now = time(NULL);
	errcode_t err;

	buf = malloc(bs);
	if (!buf)
		return ENOMEM;
	err = io_channel_read_blk64(io, blk, 1, buf);
	if (err)
		goto out;
	es = buf + SUPERBLOCK_OFFSET % bs;
	incompat = get_le32(es + ES_FEATURE_INCOMPAT);
	if (has_log(r))
		put_le32(es + ES_FEATURE_INCOMPAT,
			 incompat & ~EXT3_FEATURE_INCOMPAT_RECOVER);
	state = get_le16(es + ES_STATE);
	if (failed)
		state &= ~EXT2_VALID_FS;
	if (fs_error)
		state |= EXT2_ERROR_FS;
	put_le16(es + ES_STATE, state);
	put_le32(es + ES_WTIME, (uint32_t)now);
	es[ES_WTIME_HI] = (unsigned char)((uint64_t)now >> 32);
	put_le64(es + ES_KBYTES_WRITTEN, get_le64(es + ES_KBYTES_WRITTEN) +
		 (r->st.written_bytes >> 10));
	if (get_le32(es + ES_FEATURE_RO_COMPAT) &
	    EXT4_FEATURE_RO_COMPAT_METADATA_CSUM)
		put_le32(es + ES_CHECKSUM,
			 ext2fs_crc32c_le(~0U, es, ES_CHECKSUM));
	err = io_channel_write_blk64(io, blk, 1, buf);
out:
	free(buf);
	return err;
}

errcode_t recover_replay(recover_t r)
{
	struct jsource *jsrc = &r->src;
	unsigned char *raw = r->jsb_raw;
	int failed, fs_error;
	errcode_t err;

	if (r->replayed)
		return RECOVER_ET_ALREADY_DONE;
	err = recover_scan(r);
	if (err)
		return err;
	if (!recover_needs_recovery(r))
		return 0;
	/*
	 * e2fsck goes on after a failed scan, replays nothing and resets the
	 * journal; librecover stops unless told to do the same.
	 */
	if (r->st.error && !(r->opts.flags & RECOVER_FL_FORCE))
		return r->st.error;
	/* A fast-commit area the kernel would refuse, or records the replay
	 * must not follow: refused before anything is written. */
	if (r->st.fc_state == RECOVER_FC_CORRUPT)
		return RECOVER_ET_FC_CORRUPT;
	err = fc_replay_check(r);
	if (err)
		return err;
	/* The fast commits, in memory on the filesystem the log leaves:
	 * a record that cannot be replayed stops all before any write. */
	if (!r->st.error && r->st.fc_state == RECOVER_FC_LIVE) {
		err = fc_replay(r);
		if (err)
			return err;
	}
	if (!r->st.error && r->sb.pub.start) {
		err = recovery_replay(r);
		if (err)
			return err;
	}
	r->replayed = 1;
	if (r->opts.flags & RECOVER_FL_DRY_RUN)
		return 0;
	err = fc_replay_commit(r);
	if (err)
		return err;
	failed = r->st.error || r->st.bad_csum;

	/* The replayed blocks are durable before the journal lets go. */
	err = io_channel_flush(r->fs->io);
	if (err)
		return err;
	/*
	 * A dump file stays as it was.  The filesystem's own journal is reset
	 * only when it holds the same log; otherwise it and the filesystem's
	 * flags are left as they are.
	 */
	if (r->src.kind == RECOVER_SRC_DUMP) {
		/*
		 * A dump cut short holds less than the journal it was saved
		 * from: that journal keeps its log for a full replay.
		 */
		if (!r->own_jsb_raw || r->st.end_reason == RECOVER_END_TRUNCATED) {
			r->st.dump_is_current = 0;
			return 0;
		}
		jsrc = &r->own;
		raw = r->own_jsb_raw;
	}
	fs_error = reset_journal_super(r, raw, failed);
	r->st.fs_errors = fs_error;
	err = jsource_write(jsrc, jsrc->sb_block, raw);
	if (!err && jsrc->own_io)
		err = io_channel_flush(jsrc->io);
	if (!err)
		err = update_fs_super(r, failed, fs_error);
	if (!err)
		err = io_channel_flush(r->fs->io);
	return err;
}
