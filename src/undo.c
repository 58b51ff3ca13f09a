/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * undo.c -- -z: the e2undo file that saves what a replay overwrites.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

/* A setup that failed leaves nothing allocated behind it. */
static int undo_failed(struct cli *c)
{
	free(c->undo_tmp);
	c->undo_tmp = NULL;
	free(c->undo_tmpname);
	c->undo_tmpname = NULL;
	return EXIT_ERROR;
}

int setup_undo(struct cli *c)
{
	errcode_t err;
	int fd;

	/* FILE was resolved and judged by check_outputs() (paths.c). */
	c->undo_existed = c->undo_out.exists;
	err = outpath_create_temp(&c->undo_out, &c->undo_tmp,
				  &c->undo_tmpname, &fd);
	if (err) {
		com_err(prog, err, "while creating a new undo file next to %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	close(fd);
	err = set_undo_io_backing_manager(unix_io_manager);
	if (!err)
		err = set_undo_io_backup_file(c->undo_tmp);
	if (err) {
		com_err(prog, err, "while setting up the undo file %s",
			c->undo_path);
		unlink(c->undo_tmp);
		return undo_failed(c);
	}
	c->opts.io_manager = undo_io_manager;
	return 0;
}

/*
 * Whether the undo manager saved any block: an e2undo file starts with
 * the magic "E2UNDO02" and the number of keys (little-endian 64 bits),
 * one key per run of saved blocks.
 */
static int undo_has_blocks(const char *path)
{
	unsigned char hdr[16];
	unsigned long long keys = 0;
	FILE *f = fopen(path, "rb");
	int i, ok;

	if (!f)
		return 0;
	ok = fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) &&
	     !memcmp(hdr, "E2UNDO02", 8);
	fclose(f);
	for (i = 15; ok && i >= 8; i--)
		keys = keys << 8 | hdr[i];
	return ok && keys;
}

/*
 * After the run: the new undo file replaces FILE when anything was
 * written, even by a run that failed or was stopped half way (it is then
 * the only way back); otherwise it goes and FILE is left as it was.
 */
void finish_undo(struct cli *c)
{
	errcode_t err;

	if (!c->undo_tmp)
		return;
	if (!undo_has_blocks(c->undo_tmp)) {
		unlink(c->undo_tmp);
		if (c->undo_existed && !c->quiet)
			fprintf(stderr, "%s: nothing was written: undo file %s "
				"left as it was\n", prog, c->undo_path);
		return;
	}
	if (c->undo_existed && !c->quiet)
		fprintf(stderr, "%s: replacing undo file %s\n", prog,
			c->undo_path);
	err = outpath_commit(&c->undo_out, c->undo_tmpname);
	if (err) {
		com_err(prog, err, "while renaming the undo file %s to %s",
			c->undo_tmp, c->undo_path);
		fprintf(stderr, "%s: e2undo %s %s undoes what this run wrote\n",
			prog, c->undo_tmp, c->device);
		return;
	}
	if (!c->quiet)
		fprintf(stderr, "%s: e2undo %s %s undoes what this run wrote\n",
			prog, c->undo_path, c->device);
}
