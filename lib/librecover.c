/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librecover.c -- the public interface: opening a filesystem and its
 * journal, and the superblock updates that end a replay.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "librecoverP.h"
#include "sha256.h"

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
	/* Resetting it would also mean rewriting its inode: not a dump's job. */
	if (r->own.from_backup) {
		jsource_close(&r->own);
		return 0;
	}
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

/*
 * The ext2 superblock of an external journal device names the filesystem's
 * journal as e2fsck and the kernel read it: its UUID is the filesystem's
 * s_journal_uuid, its checksum (with metadata_csum) holds and its block
 * size is the filesystem's.  A checksum that does not match is the one
 * thing e2fsck lets the user fix (and then rewrites it): with
 * RECOVER_FL_FORCE the replay does the same.
 */
static errcode_t check_jdev_super(struct recover_struct *r)
{
	const unsigned char *jd = r->src.ext2_sb;
	uint32_t log_bs = get_le32(jd + ES_LOG_BLOCK_SIZE);

	if (memcmp(jd + ES_UUID, r->fs->super->s_journal_uuid, 16))
		return RECOVER_ET_JDEV_UUID;
	if ((get_le32(jd + ES_FEATURE_RO_COMPAT) &
	     EXT4_FEATURE_RO_COMPAT_METADATA_CSUM) &&
	    get_le32(jd + ES_CHECKSUM) != ext2fs_crc32c_le(~0U, jd, ES_CHECKSUM)) {
		if (!(r->opts.flags & RECOVER_FL_FORCE))
			return RECOVER_ET_JDEV_CSUM;
		r->fix_jdev_csum = 1;
	}
	if (log_bs > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE ||
	    ((unsigned int)EXT2_MIN_BLOCK_SIZE << log_bs) != r->fs->blocksize)
		return RECOVER_ET_JDEV_BLOCKSIZE;
	return 0;
}

/*
 * The journal superblock of an external journal lists the filesystems
 * using it.  The kernel mounts only with s_nr_users == 1; e2fsck refuses
 * more than one user, but replays with none, or with a list that does not
 * name the filesystem: RECOVER_FL_FORCE does the same.
 */
static errcode_t check_jdev_users(struct recover_struct *r)
{
	const unsigned char *users = r->jsb_raw + JSB_USERS;
	uint32_t nr = r->sb.pub.nr_users;

	if (r->sb.pub.version != 2)
		return 0;
	if (nr > JBD2_USERS_MAX)
		return RECOVER_ET_SB_NR_USERS;
	if (nr > 1)
		return RECOVER_ET_UNSUPP_MULTIFS;
	if ((nr == 0 || memcmp(users, r->fs->super->s_uuid, 16)) &&
	    !(r->opts.flags & RECOVER_FL_FORCE))
		return RECOVER_ET_JDEV_USERS;
	return 0;
}

/*
 * An internal journal has one user.  A version 2 superblock claiming more,
 * on a filesystem without an external journal, holds garbage after
 * s_errno: e2fsck then clears everything after s_errno (its "invalid V2
 * journal superblock fields"), reads the journal as what is left and
 * writes that superblock back.  librecover does the same.  (The kernel
 * ignores s_nr_users of an internal journal.)
 */
static void clear_garbage_fields(struct recover_struct *r)
{
	unsigned char *raw = r->jsb_raw;
	uint32_t nr = get_be32(raw + JSB_NR_USERS);

	/* A dump on its own is a journal inode's contents: internal. */
	if (r->src.kind == RECOVER_SRC_DEVICE ||
	    (r->fs && !uuid_null(r->fs->super->s_journal_uuid)) ||
	    jbd2_super_version(raw) != 2 || nr <= 1)
		return;
	memset(raw + JSB_V1_SIZE, 0, r->src.blocksize - JSB_V1_SIZE);
	r->st.garbage_nr_users = nr;
}

static errcode_t open_journal(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	struct ext2_super_block *es = fs ? fs->super : NULL;
	int rw = !(r->opts.flags & RECOVER_FL_DRY_RUN);
	errcode_t err;

	if (!fs) {
		err = jsource_open_dump(&r->src, r->journal_path,
					unix_io_manager);
		if (err)
			return err;
	} else if (r->journal_path) {
		err = jsource_open_path(&r->src, r->journal_path,
					unix_io_manager, fs->blocksize, rw);
		if (!err && r->src.kind == RECOVER_SRC_DEVICE)
			err = check_jdev_super(r);
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
		r->st.journal_inode_backup = r->src.from_backup;
	}

	r->jsb_raw = malloc(r->src.blocksize);
	if (!r->jsb_raw)
		return ENOMEM;
	err = jsource_read(&r->src, r->src.sb_block, 1, r->jsb_raw);
	if (err == RECOVER_ET_JOURNAL_SHORT && r->src.kind == RECOVER_SRC_DUMP)
		return RECOVER_ET_DUMP_SIZE;
	if (err)
		return err == RECOVER_ET_JOURNAL_SHORT ? err : RECOVER_ET_LOG_IO;
	clear_garbage_fields(r);
	err = jbd2_decode_super(r->jsb_raw, r->src.blocksize, &r->sb);
	if (err)
		return err;
	r->sb.pub.source = r->src.kind;
	err = jbd2_check_geometry(&r->sb, r->src.blocks,
				  r->src.kind == RECOVER_SRC_DUMP);
	if (err)
		return err;
	if (r->src.kind == RECOVER_SRC_DEVICE) {
		err = check_jdev_users(r);
		if (err)
			return err;
	} else if (r->sb.pub.nr_users > JBD2_USERS_MAX) {
		return RECOVER_ET_SB_NR_USERS;
	} else if (r->sb.pub.nr_users > 1) {
		return RECOVER_ET_UNSUPP_MULTIFS;
	}

	/* Is this journal the filesystem's? */
	if (!fs)
		return 0;
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

/*
 * -f on a journal device whose ext2 superblock checksum is wrong: e2fsck's
 * fix, a new checksum, written before anything else.
 */
static errcode_t fix_jdev_csum(struct recover_struct *r)
{
	unsigned int bs = r->src.blocksize;
	blk64_t blk = SUPERBLOCK_OFFSET / bs;
	unsigned char *buf, *jd;
	errcode_t err;

	buf = malloc(bs);
	if (!buf)
		return ENOMEM;
	err = io_channel_read_blk64(r->src.io, blk, 1, buf);
	if (!err) {
		jd = buf + SUPERBLOCK_OFFSET % bs;
		put_le32(jd + ES_CHECKSUM, ext2fs_crc32c_le(~0U, jd, ES_CHECKSUM));
		err = io_channel_write_blk64(r->src.io, blk, 1, buf);
	}
	if (!err)
		err = io_channel_flush(r->src.io);
	if (!err)
		r->fix_jdev_csum = 0;
	free(buf);
	return err;
}

/* What the errors of the journal are about: its path, or the filesystem. */
static enum recover_about journal_about(const struct recover_struct *r)
{
	return r->journal_path ? RECOVER_ABOUT_JOURNAL : RECOVER_ABOUT_FS;
}

/* Tell the caller what a failure is about (recover_options.error_about). */
static errcode_t about(const struct recover_options *opts,
		       enum recover_about what, errcode_t err)
{
	if (err && opts && opts->error_about)
		*opts->error_about = what;
	return err;
}

/* The LIBRECOVER_DEBUG mask (librecover.h); unknown names count as 0. */
static unsigned int debug_mask(void)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "full_revoke", RECOVER_DEBUG_FULL_REVOKE },
	};
	const char *s = secure_getenv("LIBRECOVER_DEBUG");
	unsigned int mask = 0;
	char *end;
	size_t i, len;

	if (!s || !*s)
		return 0;
	mask = (unsigned int)strtoul(s, &end, 0);
	if (!*end)
		return mask;
	mask = 0;
	while (*s) {
		len = strcspn(s, ",");
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    !strncmp(s, names[i].name, len))
				mask |= names[i].bit;
		s += len;
		if (*s == ',')
			s++;
	}
	return mask;
}

/*
 * The caller's options into the library's struct (librecover.h, "Structs
 * that grow"): as many bytes as the caller's size says, the rest zero; a
 * caller's fields past the library's own must be zero, as they would be
 * ignored.  NULL: the defaults.
 */
static errcode_t load_options(struct recover_options *dst,
			      const struct recover_options *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t have, i;

	memset(dst, 0, sizeof(*dst));
	dst->size = sizeof(*dst);
	if (!src)
		return 0;
	have = src->size;
	if (have < sizeof(src->size))
		return RECOVER_ET_STRUCT_SIZE;
	for (i = sizeof(*dst); i < have; i++)
		if (p[i])
			return RECOVER_ET_STRUCT_SIZE;
	memcpy(dst, src, have < sizeof(*dst) ? have : sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}

/*
 * A struct of the library's out into the caller's, which starts with the
 * caller's size: as many bytes as both know, the caller's size kept.
 */
void recover_copy_out(void *dst, const void *src, size_t lib_size)
{
	size_t want;

	if (!dst)
		return;
	memcpy(&want, dst, sizeof(want));
	if (want <= sizeof(want))
		return;
	if (want > lib_size) {
		memset((unsigned char *)dst + lib_size, 0, want - lib_size);
		want = lib_size;
	}
	memcpy((unsigned char *)dst + sizeof(want),
	       (const unsigned char *)src + sizeof(want), want - sizeof(want));
}

static errcode_t new_handle(const struct recover_options *opts,
			    struct recover_struct **ret)
{
	struct recover_struct *r;

	*ret = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return ENOMEM;
	r->opts = *opts;
	if (!r->opts.io_manager)
		r->opts.io_manager = unix_io_manager;
	if (debug_mask() & RECOVER_DEBUG_FULL_REVOKE)
		r->opts.flags |= RECOVER_FL_FULL_REVOKE;
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
		about(&r->opts, journal_about(r), err);
		recover_close(r);
		return err;
	}
	*ret = r;
	return 0;
}

errcode_t recover_open(const char *device,
		       const struct recover_options *caller_opts, recover_t *ret)
{
	struct recover_options o, *opts = &o;
	struct recover_struct *r;
	int mount_flags = 0;
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS;
	errcode_t err;

	*ret = NULL;
	err = load_options(&o, caller_opts);
	if (err)
		return err;
	err = new_handle(opts, &r);
	if (err)
		return about(opts, RECOVER_ABOUT_NONE, err);
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
	/* MMP is taken by mmp_begin(), once the block has been looked at. */
	flags |= EXT2_FLAG_SKIP_MMP;
	err = ext2fs_open2(device, NULL, flags, 0, 0, r->opts.io_manager,
			   &r->fs);
	if (err == EBUSY)
		err = RECOVER_ET_BUSY;
	if (err)
		goto fail;
	r->own_fs = 1;
	err = mmp_begin(r);
	if (err)
		goto fail;
	return finish_open(r, ret);
fail:
	about(opts, RECOVER_ABOUT_FS, err);
	recover_close(r);
	return err;
}

errcode_t recover_open_fs(ext2_filsys fs,
			  const struct recover_options *caller_opts, recover_t *ret)
{
	struct recover_options o, *opts = &o;
	struct recover_struct *r;
	errcode_t err;

	*ret = NULL;
	err = load_options(&o, caller_opts);
	if (err)
		return err;
	if (!(fs->flags & EXT2_FLAG_RW) && !(opts->flags & RECOVER_FL_DRY_RUN))
		return about(opts, RECOVER_ABOUT_FS, EXT2_ET_RO_FILSYS);
	err = new_handle(opts, &r);
	if (err)
		return about(opts, RECOVER_ABOUT_NONE, err);
	r->fs = fs;
	r->mmp.present = ext2fs_has_feature_mmp(fs->super);
	r->mmp.block = fs->super->s_mmp_block;
	r->mmp.update_interval = fs->super->s_mmp_update_interval;
	mmp_publish(r);
	return finish_open(r, ret);
}

/*
 * A dump on its own: no filesystem is opened, and nothing is ever written
 * (the dump is opened read-only whatever the flags say).
 */
errcode_t recover_open_journal(const char *path,
			       const struct recover_options *caller_opts,
			       recover_t *ret)
{
	struct recover_options o, *opts = &o;
	struct recover_struct *r;
	errcode_t err;

	*ret = NULL;
	err = load_options(&o, caller_opts);
	if (err)
		return err;
	o.journal_path = path;
	o.flags |= RECOVER_FL_DRY_RUN;
	err = new_handle(&o, &r);
	if (err)
		return about(opts, RECOVER_ABOUT_NONE, err);
	mmp_publish(r);
	err = open_journal(r);
	if (err) {
		about(opts, RECOVER_ABOUT_JOURNAL, err);
		recover_close(r);
		return err;
	}
	*ret = r;
	return 0;
}

void recover_close(recover_t r)
{
	if (!r)
		return;
	jsource_close(&r->src);
	jsource_close(&r->own);
	free(r->own_jsb_raw);
	if (r->fs && r->own_fs) {
		/* Before RW is cleared: ext2fs_mmp_stop() needs it. */
		mmp_end(r);
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
	return has_log(r) || r->sb.pub.errnum != 0 || r->src.from_backup;
}

void recover_get_super(recover_t r, struct recover_super *sb)
{
	r->sb.pub.size = sizeof(r->sb.pub);
	recover_copy_out(sb, &r->sb.pub, sizeof(r->sb.pub));
}

void recover_get_stats(recover_t r, struct recover_stats *st)
{
	r->st.size = sizeof(r->st);
	r->st.needs_recovery = r->needs_recovery;
	recover_copy_out(st, &r->st, sizeof(r->st));
}

/*
 * A scan that failed or was stopped leaves its counters and tables half
 * built: every later scan, walk or replay on this handle returns the same
 * error (reopen to start again).
 */
errcode_t recover_scan(recover_t r)
{
	if (r->scan_err)
		return about(&r->opts, journal_about(r), r->scan_err);
	if (r->scanned)
		return 0;
	r->scan_err = recovery_scan(r);
	return about(&r->opts, journal_about(r), r->scan_err);
}

errcode_t recover_walk(recover_t r, recover_event_fn fn, void *data)
{
	if (r->scan_err)
		return about(&r->opts, journal_about(r), r->scan_err);
	if (r->scanned)
		return about(&r->opts, RECOVER_ABOUT_FS, RECOVER_ET_ALREADY_DONE);
	r->event = fn;
	r->event_data = data;
	r->scan_err = recovery_scan(r);
	r->event = NULL;
	return about(&r->opts, journal_about(r), r->scan_err);
}

/*
 * The copy itself, to fd, with its SHA-256 computed as it is written.
 * The journal's blocks go out in 4 MiB pieces, each followed by a
 * progress call (where a stop request is noticed).
 */
static errcode_t save_to(struct recover_struct *r, int fd,
		       enum recover_about *what)
{
	unsigned int bs = r->src.blocksize;
	unsigned int chunk = (4U << 20) / bs;
	unsigned char *buf;
	struct sha256 sum;
	struct stat st;
	uint64_t blk;
	errcode_t err = 0;

	*what = RECOVER_ABOUT_NONE;
	r->st.saved_bytes = 0;
	memset(r->st.saved_sha256, 0, sizeof(r->st.saved_sha256));
	buf = malloc((size_t)chunk * bs);
	if (!buf)
		return ENOMEM;
	sha256_init(&sum);
	r->progress_next = 0;
	for (blk = 0; blk < r->src.blocks && !err; blk += chunk) {
		unsigned int n = r->src.blocks - blk < chunk ?
				 (unsigned int)(r->src.blocks - blk) : chunk;
		size_t len = (size_t)n * bs, done = 0;

		*what = journal_about(r);
		err = jsource_read(&r->src, blk, n, buf);
		if (!err)
			*what = RECOVER_ABOUT_SAVE;
		while (!err && done < len) {
			ssize_t w = write(fd, buf + done, len - done);

			if (w < 0 && errno != EINTR)
				err = errno;
			else if (w > 0)
				done += (size_t)w;
		}
		sha256_update(&sum, buf, done);
		r->st.saved_bytes += done;
		if (!err)
			err = recovery_progress(r, RECOVER_PASS_SAVE, blk + n,
						r->src.blocks);
	}
	sha256_final(&sum, r->st.saved_sha256);
	if (!err)
		*what = RECOVER_ABOUT_SAVE;
	/* A pipe or a terminal cannot be synced; a file must be. */
	if (!err && !fstat(fd, &st) && S_ISREG(st.st_mode) && fsync(fd))
		err = errno;
	free(buf);
	return err;
}

errcode_t recover_save_fd(recover_t r, int fd)
{
	enum recover_about what;
	errcode_t err = save_to(r, fd, &what);

	return about(&r->opts, what, err);
}

static int same_file(const struct stat *a, const char *path)
{
	struct stat b;

	if (!path || stat(path, &b))
		return 0;
	if (S_ISBLK(a->st_mode) && S_ISBLK(b.st_mode))
		return a->st_rdev == b.st_rdev;
	return a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/*
 * Where the copy goes: path, or the file a symbolic link at path names.
 * It must not exist, or be a regular file other than the filesystem and
 * the journal being read.
 */
static errcode_t save_target(struct recover_struct *r, const char *path,
			     char **target)
{
	struct stat st;

	*target = NULL;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return errno;
		*target = strdup(path);
		return *target ? 0 : ENOMEM;
	}
	if (S_ISLNK(st.st_mode)) {
		*target = realpath(path, NULL);
		if (!*target)
			return errno;
		if (stat(*target, &st))
			return errno;
	} else {
		*target = strdup(path);
		if (!*target)
			return ENOMEM;
	}
	if (!S_ISREG(st.st_mode) ||
	    (r->fs && same_file(&st, r->fs->device_name)) ||
	    same_file(&st, r->journal_path)) {
		free(*target);
		*target = NULL;
		return RECOVER_ET_SAVE_PATH;
	}
	return 0;
}

/* "DIR/.NAME.XXXXXX" for mkostemp(), next to target. */
static char *temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
	const char *name = target + dirlen;
	char *tmp = malloc(strlen(target) + 9);

	if (tmp)
		sprintf(tmp, "%.*s.%s.XXXXXX", (int)dirlen, target, name);
	return tmp;
}

/* After a rename, the directory entry itself is made durable (as far as
 * the directory's filesystem can: the copy is complete either way). */
static void sync_dir(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir;
	int fd;

	if (!slash)
		dir = strdup(".");
	else if (slash == target)
		dir = strdup("/");
	else
		dir = strndup(target, (size_t)(slash - target));
	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

static errcode_t save(struct recover_struct *r, const char *path,
		      enum recover_about *what)
{
	char *target, *tmp = NULL;
	errcode_t err;
	int fd;

	*what = RECOVER_ABOUT_SAVE;
	err = save_target(r, path, &target);
	if (err)
		return err;
	tmp = temp_name(target);
	if (!tmp) {
		err = ENOMEM;
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	err = save_to(r, fd, what);
	if (!err)
		*what = RECOVER_ABOUT_SAVE;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, target))
		err = errno;
	if (err)
		unlink(tmp);
	else
		sync_dir(target);
out:
	free(tmp);
	free(target);
	return err;
}

errcode_t recover_save(recover_t r, const char *path)
{
	enum recover_about what;
	errcode_t err = save(r, path, &what);

	return about(&r->opts, what, err);
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
			 recover_crc32c(~0U, es, ES_CHECKSUM));
	err = io_channel_write_blk64(io, blk, 1, buf);
out:
	free(buf);
	return err;
}

/*
 * e2fsck writes the inode it built from the superblock's backup over the
 * journal inode as soon as it has found the backup usable, before it
 * replays anything (e2fsck_get_journal()): the replay may then overwrite
 * it again with a logged copy of its inode table block.
 */
errcode_t recovery_restore_inode(struct recover_struct *r)
{
	errcode_t err;

	if (!r->src.from_backup || r->inode_restored)
		return 0;
	err = ext2fs_write_inode(r->fs, r->src.ino, &r->src.backup_inode);
	if (err)
		return err;
	r->inode_restored = 1;
	return 0;
}

static errcode_t replay(struct recover_struct *r, enum recover_about *what)
{
	struct jsource *jsrc = &r->src;
	unsigned char *raw = r->jsb_raw;
	struct jbd2_reset how;
	int dry, failed, fs_error;
	errcode_t err;

	*what = RECOVER_ABOUT_FS;
	if (!r->fs)
		return RECOVER_ET_NO_FILESYSTEM;
	if (r->replayed)
		return RECOVER_ET_ALREADY_DONE;
	*what = journal_about(r);
	err = recover_scan(r);
	if (err)
		return err;
	if (!recover_needs_recovery(r))
		return 0;
	/*
	 * A log the filesystem does not know about: the kernel would throw it
	 * away at mount, e2fsck would ask, replay it and then check the whole
	 * filesystem.  A replay alone is neither, so it takes -f.  (A dump is
	 * replayed whatever the filesystem's flag: it is not the fs's log.)
	 */
	if (r->src.kind != RECOVER_SRC_DUMP && !r->needs_recovery &&
	    r->sb.pub.start && !(r->opts.flags & RECOVER_FL_FORCE))
		return RECOVER_ET_LOG_WITHOUT_FLAG;
	/*
	 * e2fsck goes on after a failed scan, replays nothing and resets the
	 * journal; librecover stops unless told to do the same.
	 */
	if (r->st.error && !(r->opts.flags & RECOVER_FL_FORCE))
		return r->st.error;
	dry = !!(r->opts.flags & RECOVER_FL_DRY_RUN);
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
	if (r->fix_jdev_csum && !dry) {
		err = fix_jdev_csum(r);
		if (err)
			return err;
	}
	if (!r->st.error && r->sb.pub.start) {
		err = recovery_replay(r);
		/* Only a tag past the end is the journal's fault. */
		if (err != RECOVER_ET_TAG_PAST_END)
			*what = RECOVER_ABOUT_FS;
		if (err)
			return err;
	}
	r->replayed = 1;
	failed = r->st.error || r->st.bad_csum;
	r->st.write_blocks = r->st.replayed;
	r->st.write_bytes = r->st.written_bytes;
	*what = RECOVER_ABOUT_FS;
	if (!dry) {
		err = recovery_restore_inode(r);
		if (err)
			return err;
		/* The fast commits' changes, over the log's blocks. */
		err = fc_replay_commit(r);
		if (err)
			return err;
		/* The replayed blocks are durable before the journal lets go. */
		err = io_channel_flush(r->fs->io);
		if (err)
			return err;
	}
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
	r->st.write_blocks += 2;
	r->st.write_bytes += jsrc->blocksize + r->fs->blocksize;
	how.had_log = has_log(r);
	how.replayed = !failed;
	how.end_tid = r->st.end_tid;
	how.failed_commit = r->st.failed_commit;
	if (dry) {
		/* What the superblock updates would say, on a copy. */
		unsigned char *copy = malloc(jsrc->blocksize);

		if (!copy)
			return ENOMEM;
		memcpy(copy, raw, jsrc->blocksize);
		r->st.fs_errors = jbd2_reset_super(&r->sb, copy, &how);
		free(copy);
		return 0;
	}
	fs_error = jbd2_reset_super(&r->sb, raw, &how);
	r->st.fs_errors = fs_error;
	/*
	 * The reset journal is durable before needs_recovery goes: otherwise
	 * a power cut could let the flag's update land without it, leaving a
	 * log on a filesystem not marked as needing recovery.
	 */
	if (jsrc == &r->src)
		*what = journal_about(r);
	err = jsource_write(jsrc, jsrc->sb_block, raw);
	if (!err)
		err = io_channel_flush(jsrc->io);
	if (err)
		return err;
	*what = RECOVER_ABOUT_FS;
	err = update_fs_super(r, failed, fs_error);
	if (!err)
		err = io_channel_flush(r->fs->io);
	/* e2fsck lets the MMP block go as soon as its replay is done. */
	if (!err)
		err = mmp_end(r);
	return err;
}

/* The outcome of a replay that returned no error (recover_outcome). */
static enum recover_outcome outcome(const struct recover_struct *r)
{
	const struct recover_stats *st = &r->st;

	if (!r->replayed)
		return RECOVER_OUTCOME_CLEAN;
	if (st->bad_csum || st->failed_commit || st->error || st->fs_errors ||
	    st->end_reason == RECOVER_END_TRUNCATED)
		return RECOVER_OUTCOME_PROBLEMS;
	return RECOVER_OUTCOME_RECOVERED;
}

errcode_t recover_replay(recover_t r)
{
	enum recover_about what;
	errcode_t err = replay(r, &what);

	if (err != RECOVER_ET_ALREADY_DONE)
		r->st.outcome = err ? RECOVER_OUTCOME_FAILED : outcome(r);

	return about(&r->opts, what, err);
}
