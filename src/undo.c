/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * undo.c -- -z: the e2undo file that saves what a replay overwrites.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2_io.h>

#include "librecover.h"
#include "jrecover.h"

/*
 * -z: every write to the filesystem goes through libext2fs's undo io
 * manager, which first copies the old contents into the undo file for
 * e2undo(8).  The undo manager appends to an undo file of the same
 * filesystem, refuses any other, and writes a header at close even when
 * nothing was written: so it gets a new, empty file next to FILE, which
 * replaces FILE only when the run wrote something (finish_undo()).
 *
 * The new file is this run's through its descriptor, not its name: FILE's
 * directory may belong to someone else, who can put anything under the new
 * name at any moment (a link to a block device).  The descriptor stays
 * open until the end, the undo manager (which opens its file by name) is
 * given "/proc/self/fd/N", and the rename checks that the name is still
 * that file (outpath_commit()).
 */
/*
 * -z with an external journal device (-j DEVICE): the replay resets that
 * device's journal superblock, and an undo file covers the filesystem's
 * device only.  e2undo would then give back the filesystem as it was,
 * marked as needing recovery, beside a journal whose log is gone.  Refused
 * before anything is opened.  (A saved dump is only read: -z with one is
 * fine.)  The device is told by its ext2 superblock's journal_dev feature.
 */
int undo_refuses_journal(const struct cli *c)
{
	unsigned char sb[1024];
	int fd;
	ssize_t n;

	if (!c->undo_path || !c->opts.journal_path ||
	    (c->opts.flags & RECOVER_FL_DRY_RUN))
		return 0;
	fd = open(c->opts.journal_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* the open proper reports it */
	n = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	/* s_magic (0xEF53, little-endian) and INCOMPAT_JOURNAL_DEV (0x8). */
	if (n != (ssize_t)sizeof(sb) || sb[56] != 0x53 || sb[57] != 0xef ||
	    !(sb[96] & 0x08))
		return 0;
	fprintf(stderr, "%s: -z %s: %s is an external journal device, which the "
		"replay resets and an undo file does not cover: e2undo would put "
		"back the filesystem but not the log.  Nothing was written.  For a "
		"way back, copy the filesystem and the journal device (dd), then "
		"replay without -z\n",
		prog, c->undo_path, c->opts.journal_path);
	return EXIT_USAGE;
}

/* A setup that failed leaves nothing allocated or open behind it. */
static int undo_failed(struct cli *c)
{
	if (c->undo_fd >= 0) {
		outpath_discard(&c->undo_out, c->undo_tmpname, c->undo_fd);
		close(c->undo_fd);
		c->undo_fd = -1;
	}
	free(c->undo_tmp);
	c->undo_tmp = NULL;
	free(c->undo_tmpname);
	c->undo_tmpname = NULL;
	return EXIT_ERROR;
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Whether the undo manager saved any block: an e2undo file starts with
 * the magic "E2UNDO02" and the number of keys (little-endian 64 bits),
 * one key per run of saved blocks.
 */
static int undo_has_blocks(int fd)
{
	unsigned char hdr[16];

	return pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) &&
	       !memcmp(hdr, "E2UNDO02", 8) && get_le(hdr + 8, 8);
}

int setup_undo(struct cli *c)
{
	char name[OUTPATH_FD_NAME];
	errcode_t err;

	/* FILE was resolved and judged by check_outputs() (paths.c). */
	c->undo_existed = c->undo_out.exists;
	err = outpath_create_temp(&c->undo_out, &c->undo_tmp,
				  &c->undo_tmpname, &c->undo_fd);
	if (err) {
		c->undo_fd = -1;
		com_err(prog, err, "while creating a new undo file next to %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	if (outpath_fd_name(c->undo_fd, name)) {
		fprintf(stderr, "%s: -z %s: the new undo file cannot be named by "
			"its descriptor (%s is not it: is /proc mounted?), and "
			"its name in %s is not safe to open again; nothing was "
			"written\n", prog, c->undo_path, name, c->undo_out.dir);
		return undo_failed(c);
	}
	err = set_undo_io_backing_manager(unix_io_manager);
	if (!err)
		err = set_undo_io_backup_file(name);
	if (err) {
		com_err(prog, err, "while setting up the undo file %s",
			c->undo_path);
		return undo_failed(c);
	}
	c->opts.io_manager = undo_io_manager;
	return 0;
}

/* All of from copied into to, and made durable. */
static int copy_fd(int from, int to)
{
	char buf[65536];
	off_t at = 0;

	for (;;) {
		ssize_t n = pread(from, buf, sizeof(buf), at), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (!n)
			break;
		while (w < n) {
			ssize_t k = pwrite(to, buf + w, (size_t)(n - w), at + w);

			if (k < 0 && errno != EINTR)
				return errno;
			if (k > 0)
				w += k;
		}
		at += n;
	}
	return fsync(to) ? errno : 0;
}

/*
 * The new undo file's name was taken over by someone who can write its
 * directory: the undo data, still this run's through its descriptor, goes
 * to a second new file, renamed under the same check.
 */
static int undo_copy(struct cli *c)
{
	char *tmp, *tmpname;
	int fd, e;

	fprintf(stderr, "%s: -z %s: the new undo file %s was replaced by "
		"another file while this run wrote it (someone else can write "
		"%s); the undo data goes from this run's own descriptor to a "
		"second new file\n", prog, c->undo_path, c->undo_tmp,
		c->undo_out.dir);
	e = outpath_create_temp(&c->undo_out, &tmp, &tmpname, &fd);
	if (e)
		return e;
	e = copy_fd(c->undo_fd, fd);
	if (!e)
		e = outpath_commit(&c->undo_out, tmpname, fd);
	if (e)
		outpath_discard(&c->undo_out, tmpname, fd);
	close(fd);
	free(tmp);
	free(tmpname);
	return e;
}

/*
 * After the run: the new undo file replaces FILE when anything was
 * written, even by a run that failed or was stopped half way (it is then
 * the only way back); otherwise it goes and FILE is left as it was.  The
 * command printed is one that works on the file as it is.
 */
void finish_undo(struct cli *c)
{
	int e;

	if (c->undo_fd < 0)
		return;
	if (!undo_has_blocks(c->undo_fd)) {
		outpath_discard(&c->undo_out, c->undo_tmpname, c->undo_fd);
		if (c->undo_existed && !c->quiet)
			fprintf(stderr, "%s: nothing was written: undo file %s "
				"left as it was\n", prog, c->undo_path);
		goto out;
	}
	if (c->undo_existed && !c->quiet)
		fprintf(stderr, "%s: replacing undo file %s\n", prog,
			c->undo_path);
	e = outpath_commit(&c->undo_out, c->undo_tmpname, c->undo_fd);
	if (e && e != OUTPATH_REPLACED) {
		/* The new name was this run's file just before the rename. */
		com_err(prog, e, "while renaming the undo file %s to %s",
			c->undo_tmp, c->undo_path);
		fprintf(stderr, "%s: e2undo %s %s undoes what this run wrote\n",
			prog, c->undo_tmp, c->device);
		goto out;
	}
	if (e)
		e = undo_copy(c);
	if (e) {
		if (e == OUTPATH_REPLACED)
			fprintf(stderr, "%s: -z %s: the second new file was "
				"replaced too\n", prog, c->undo_path);
		else
			com_err(prog, e, "while copying the undo data to a new "
				"file next to %s", c->undo_path);
		fprintf(stderr, "%s: -z %s: no undo file of this run is left: "
			"what it wrote cannot be undone with e2undo\n", prog,
			c->undo_path);
		goto out;
	}
	if (!c->quiet)
		fprintf(stderr, "%s: e2undo %s %s undoes what this run wrote\n",
			prog, c->undo_path, c->device);
out:
	close(c->undo_fd);
	c->undo_fd = -1;
}
