/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_save.c -- the raw journal copied out (recover_save(),
 * recover_save_fd()): the journal's blocks in logical order and, from a
 * filesystem, one block recording it (life_stale.c), with their SHA-256.
 *
 * A copy to a path is written through an io_channel, like every other
 * write of the library (libext2fs's unix_io_manager unless
 * recover_options.save_io_manager names another), onto a new file next
 * to the path that replaces it only once complete and synced, and only
 * where outpath.c lets it.  The channel reaches the new file through the
 * descriptor that created it, never by its name in the directory, and
 * the rename checks that the name is still that file.  A copy to
 * a file descriptor (a pipe, standard output) is written with write(2):
 * an io channel writes at block offsets, which a pipe has not.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "librecoverP.h"
#include "life_save.h"
#include "life_stale.h"
#include "notify.h"
#include "outpath.h"
#include "sha256.h"

/* Where the copy goes: a caller's descriptor, or an io channel on a file. */
struct sink {
	int		fd;		/* recover_save_fd(), or the new file */
	io_channel	io;		/* recover_save(): NULL for a descriptor */
};

/* n blocks from journal block blk; *done says how many bytes went out. */
static errcode_t sink_write(struct sink *k, uint64_t blk, unsigned int n,
			    unsigned int bs, const unsigned char *buf,
			    size_t *done)
{
	size_t len = (size_t)n * bs;
	errcode_t err;

	*done = 0;
	if (k->io) {
		err = io_channel_write_blk64(k->io, blk, (int)n, buf);
		if (!err)
			*done = len;
		return err;
	}
	while (*done < len) {
		ssize_t w = write(k->fd, buf + *done, len - *done);

		if (w < 0 && errno != EINTR)
			return errno;
		if (w > 0)
			*done += (size_t)w;
	}
	return 0;
}

/* Everything written is durable: a pipe or a terminal cannot be synced. */
static errcode_t sink_sync(struct sink *k)
{
	struct stat st;

	if (k->io)
		return io_channel_flush(k->io);
	if (!fstat(k->fd, &st) && S_ISREG(st.st_mode) && fsync(k->fd))
		return errno;
	return 0;
}

/*
 * The copy itself, with its SHA-256 computed as it is written.  The
 * journal's blocks go out in 4 MiB pieces, each followed by a progress
 * call (where a stop request is noticed).
 */
static errcode_t save_to(struct recover_struct *r, struct sink *k)
{
	unsigned int bs = r->src.blocksize;
	unsigned int chunk = (4U << 20) / bs;
	unsigned char *buf;
	struct sha256 sum;
	uint64_t blk;
	errcode_t err = 0;

	r->about = RECOVER_ABOUT_NONE;
	r->saved_bytes = 0;
	memset(r->saved_sha256, 0, sizeof(r->saved_sha256));
	buf = malloc((size_t)chunk * bs);
	if (!buf)
		return ENOMEM;
	sha256_init(&sum);
	r->notify.progress_next = 0;
	for (blk = 0; blk < r->src.blocks && !err; blk += chunk) {
		unsigned int n = r->src.blocks - blk < chunk ?
				 (unsigned int)(r->src.blocks - blk) : chunk;
		size_t done = 0;

		r->about = recover_journal_about(r);
		err = source_read(&r->src, blk, n, buf);
		if (!err) {
			r->about = RECOVER_ABOUT_SAVE;
			err = sink_write(k, blk, n, bs, buf, &done);
		}
		sha256_update(&sum, buf, done);
		r->saved_bytes += done;
		if (!err)
			err = notify_progress(&r->notify, RECOVER_PASS_SAVE,
					      blk + n, r->src.blocks);
	}
	/*
	 * A copy of a filesystem's journal ends with one more block: the
	 * record of the filesystem as it is now, with which a later replay
	 * of the copy tells whether the filesystem changed since (life_stale.c).
	 * A copy of a dump already holds the one that dump has, if any.
	 */
	if (!err && r->fs && r->src.fs_journal) {
		size_t done = 0;

		life_stale_facts(r, buf);
		r->about = RECOVER_ABOUT_SAVE;
		err = sink_write(k, r->src.blocks, 1, bs, buf, &done);
		sha256_update(&sum, buf, done);
		r->saved_bytes += done;
	}
	sha256_final(&sum, r->saved_sha256);
	if (!err) {
		r->about = RECOVER_ABOUT_SAVE;
		err = sink_sync(k);
	}
	free(buf);
	return err;
}

errcode_t life_save_fd(struct recover_struct *r, int fd)
{
	struct sink k = { .fd = fd };

	return save_to(r, &k);
}

/* Why the path may not be replaced, as the library's error code. */
static errcode_t refusal(enum outpath_why why, const struct outpath *o)
{
	switch (why) {
	case OUTPATH_OK:
		return 0;
	case OUTPATH_ERRNO:
		return o->err ? o->err : EIO;
	case OUTPATH_LINK_UNTRUSTED:
		return RECOVER_ET_SAVE_LINK;
	case OUTPATH_LOOP_BACKING:
	case OUTPATH_MOUNTED:
		return RECOVER_ET_SAVE_IN_USE;
	case OUTPATH_HOLDS_FS:
	case OUTPATH_HOLDS_UNDO:
	case OUTPATH_HOLDS_DUMP:
	case OUTPATH_HOLDS_OTHER:
		return RECOVER_ET_SAVE_CONTENTS;
	default:
		return RECOVER_ET_SAVE_PATH;
	}
}

/*
 * unix_io_manager turns a write that the file takes only in part (a full
 * filesystem, a file size or quota limit) into EXT2_ET_SHORT_WRITE.  The
 * rest is written once more through the new file's own descriptor: it
 * goes through, or the reason it cannot is what the caller is told (as
 * when the copy was written with write(2)).  Only for a write handed over
 * whole (data and size are the request's, as unix_io passes them unless it
 * bounces the write through a buffer of its own, block by block).
 */
static errcode_t short_write(io_channel io, unsigned long block, int count,
			     const void *data, size_t size, int actual,
			     errcode_t err)
{
	const struct sink *k = io->app_data;
	const unsigned char *p = data;
	off_t at = (off_t)block * io->block_size;
	size_t done = actual > 0 ? (size_t)actual : 0;
	size_t asked = count < 0 ? (size_t)-count :
				   (size_t)count * (size_t)io->block_size;

	if (err != EXT2_ET_SHORT_WRITE || size != asked || done > size)
		return err;
	while (done < size) {
		ssize_t w = pwrite(k->fd, p + done, size - done,
				   at + (off_t)done);

		if (w < 0 && errno != EINTR)
			return errno;
		if (!w)
			return err;
		if (w > 0)
			done += (size_t)w;
	}
	return 0;
}

/*
 * The copy, through an io channel on the new file open as fd.  An io
 * manager opens by name, and the new file's name belongs to a directory
 * that others may write: the channel is given "/proc/self/fd/N", which can
 * only mean the file this run made, whatever its name has become since.
 */
static errcode_t save_file(struct recover_struct *r, int fd)
{
	io_manager manager = r->opts.save_io_manager ?
			     r->opts.save_io_manager : unix_io_manager;
	struct sink k = { .fd = fd };
	char name[OUTPATH_FD_NAME];
	errcode_t err, err2;

	r->about = RECOVER_ABOUT_SAVE;
	if (outpath_fd_name(fd, name))
		return RECOVER_ET_SAVE_NO_PROC;
	err = manager->open(name, IO_FLAG_RW, &k.io);
	if (err)
		return err;
	k.io->app_data = &k;
	k.io->write_error = short_write;
	err = io_channel_set_blksize(k.io, (int)r->src.blocksize);
	if (!err)
		err = save_to(r, &k);
	err2 = io_channel_close(k.io);
	if (!err && err2) {
		r->about = RECOVER_ABOUT_SAVE;
		err = err2;
	}
	return err;
}

/*
 * The copy goes to a new file in the directory of path (or of the file a
 * symbolic link there names, where the kernel would follow it), which
 * replaces path only once complete and synced.  What is at path must be
 * an earlier dump, or empty (outpath.c).
 */
errcode_t life_save_path(struct recover_struct *r, const char *path)
{
	char *tmp = NULL, *tmpname = NULL;
	struct outpath o;
	errcode_t err;
	int fd;

	r->about = RECOVER_ABOUT_SAVE;
	err = refusal(outpath_check(path, OUTPATH_DUMP,
				    r->fs ? r->fs->device_name : NULL,
				    r->journal_path, NULL, &o), &o);
	if (!err)
		err = outpath_create_temp(&o, &tmp, &tmpname, &fd);
	if (err)
		goto out;
	err = save_file(r, fd);
	if (!err) {
		/* Renamed only while the new name is still this file. */
		int e = outpath_commit(&o, tmpname, fd);

		r->about = RECOVER_ABOUT_SAVE;
		err = e == OUTPATH_REPLACED ? RECOVER_ET_SAVE_REPLACED :
		      (errcode_t)e;
	}
	if (err)
		outpath_discard(&o, tmpname, fd);
	if (close(fd) && !err)
		err = errno;
out:
	free(tmp);
	free(tmpname);
	outpath_free(&o);
	return err;
}
