/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jrecover -- replay an ext3/ext4 jbd2 journal offline.
 *
 * The only part of the project that prints.  This file: main, the steps
 * of a run in their order and the modes (replay, -i, -l, -s); the options
 * are options.c's, the exit status and the shared state cli.c's; what is
 * printed lives in report.c (text), json.c (JSON), list.c (-l), fail.c
 * (errors) and progress.c, the words for the library's values in names.c,
 * -z in undo.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2_io.h>

#include "librecover.h"
#include "jrecover.h"

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * -n exits with the status the replay would (jrecover(8), -n), and a
 * replay opens the filesystem for writing right after its mount checks.
 * So -n opens it for reading and writing too, and closes it at once with
 * nothing written: where the open is refused (an immutable or append-only
 * file, a read-only filesystem under an image, its mode; a device whose
 * read-only flag is set, which libext2fs refuses), -n fails with the
 * replay's error.  err is the dry open's
 * outcome, kept when the replay would stop before its own open (mounted,
 * in use) or where the kernel has nothing against writing.
 */
static errcode_t as_the_replay(struct cli *c, errcode_t err, recover_t *r)
{
	char *path;
	int fd, open_err;

	if (c->mode != MODE_REPLAY || !(c->opts.flags & RECOVER_FL_DRY_RUN) ||
	    err == RECOVER_ET_MOUNTED || err == RECOVER_ET_BUSY ||
	    err == RECOVER_ET_LOOP_BUSY)
		return err;
	/* The path alone: libext2fs takes what follows a '?' as io options
	 * ("IMG?offset=N"). */
	path = strdup(c->device);
	if (!path)
		return err ? err : ENOMEM;
	path[strcspn(path, "?")] = '\0';
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	open_err = fd < 0 ? errno : 0;
	free(path);
	if (fd >= 0) {
		struct stat st;
		int ro = 0;

		/* A read-only block device opens for writing; libext2fs's
		 * unix_io then refuses it (EPERM) on its read-only flag. */
		if (fstat(fd, &st) || !S_ISBLK(st.st_mode) ||
		    ioctl(fd, BLKROGET, &ro))
			ro = 0;
		close(fd);
		if (!ro)
			return err;
		err = EPERM;
	} else {
		err = open_err;
	}
	recover_close(*r);
	*r = NULL;
	c->error_about = RECOVER_ABOUT_FS;
	return err;
}

/*
 * The filesystem, or the saved journal on its own, opened into *r: RUN_ON,
 * or the status to exit with (after the report of a journal-less
 * filesystem or of the failure).
 */
static int open_journal(struct cli *c, recover_t *r)
{
	errcode_t err;

	c->opts.error_about = &c->error_about;
	if (c->dump_alone) {
		err = recover_open_journal(c->device, &c->opts, r);
	} else {
		err = as_the_replay(c, recover_open(c->device, &c->opts, r), r);
		if (err && c->error_about == RECOVER_ABOUT_FS &&
		    err != RECOVER_ET_MOUNTED && err != RECOVER_ET_BUSY &&
		    err != RECOVER_ET_LOOP_BUSY && is_dump(c->device)) {
			/* A replay, or another journal given with -j. */
			if (c->mode == MODE_REPLAY || c->opts.journal_path)
				return refuse_dump(c->device);
			c->dump_alone = 1;
			err = recover_open_journal(c->device, &c->opts, r);
		}
	}
	if (err == RECOVER_ET_NO_JOURNAL && c->mode != MODE_SAVE) {
		/* Nothing to replay, list or report: like a clean journal. */
		if (c->json) {
			printf("{\"filesystem\":");
			json_str(c->device);
			printf(",\"exit\":0,\"journal\":null}\n");
		} else if (!c->quiet)
			printf("%s: %s: no journal, nothing to replay\n", prog,
			       c->device);
		return EXIT_CLEAN;
	}
	if (err)
		return fail(c, err, "opening", NULL);
	return RUN_ON;
}

/*
 * The modes, each given the open journal r and closing it before any
 * report: closing may still write (the MMP block is released then), and
 * the error messages say what was written.
 */

/* -s: the journal copied out. */
static int save_journal(struct cli *c, recover_t r,
			const struct recover_super *sb,
			struct recover_stats *st)
{
	errcode_t err;

	if (c->save_fd >= 0)
		err = recover_save_fd(r, c->save_fd);
	else
		err = recover_save(r, c->save_path);
	recover_get_stats(r, st);
	recover_close(r);
	if (err)
		return fail(c, err, "saving the journal of", NULL);
	report_save(c, sb, st);
	return EXIT_CLEAN;
}

/* -l: the log walked, each of its events printed (list.c). */
static int list_journal(struct cli *c, recover_t r, struct recover_stats *st)
{
	errcode_t err;

	if (c->dump_alone && !c->json && !c->quiet)
		printf("%s: a saved journal (no filesystem): tags naming blocks "
		       "past the filesystem's end cannot be told\n", c->device);
	err = recover_walk(r, list_event, c);
	recover_get_stats(r, st);
	recover_close(r);
	if (err)
		return fail(c, err, "scanning the journal of", st);
	return EXIT_CLEAN;
}

/*
 * The replay (or, with -n, its check) of a scanned journal, and its report.
 * On a journal with nothing to replay, the library's outcome is "clean"
 * and nothing is written.
 */
static int replay_journal(struct cli *c, recover_t r,
			  const struct recover_super *sb,
			  struct recover_stats *st, double t0)
{
	errcode_t err;
	int status;

	err = recover_replay(r);
	recover_get_stats(r, st);
	recover_close(r);
	if (err)
		return fail(c, err, (c->opts.flags & RECOVER_FL_DRY_RUN) ?
			    "checking the journal of" : "replaying the journal of",
			    st);
	status = exit_status(0, st);
	if (c->json)
		report_json(c, sb, st, now() - t0, status);
	else if (!c->quiet && st->outcome == RECOVER_OUTCOME_CLEAN)
		printf("%s: %s: clean, nothing to replay\n", prog, c->device);
	else if (!c->quiet)
		report_text(c, sb, st, now() - t0);
	if (sb->source == RECOVER_SRC_DUMP &&
	    st->outcome != RECOVER_OUTCOME_CLEAN && !c->json)
		stale_report(c, st, 0);
	return status;
}

/* -i, or the replay: both scan the log first; -v prints -i's summary too. */
static int scan_journal(struct cli *c, recover_t r,
			const struct recover_super *sb,
			struct recover_stats *st, double t0)
{
	errcode_t err = recover_scan(r);

	recover_get_stats(r, st);
	if (err) {
		recover_close(r);
		return fail(c, err, "scanning the journal of", st);
	}
	if (c->mode == MODE_INFO || (c->verbose && !c->json)) {
		if (c->json)
			json_info(c, sb, st);
		else
			print_info(c, sb, st);
	}
	if (c->mode == MODE_INFO) {
		recover_close(r);
		return EXIT_CLEAN;
	}
	return replay_journal(c, r, sb, st, t0);
}

/* The run itself, in the mode the options chose; its exit status. */
static int run(struct cli *c)
{
	struct recover_super sb = RECOVER_INIT(struct recover_super);
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	recover_t r;
	double t0 = now();
	int status;

	status = open_journal(c, &r);
	if (status != RUN_ON)
		return status;
	recover_get_super(r, &sb);
	recover_get_stats(r, &st);
	note_garbage(c, &st, recover_needs_recovery(r));
	note_features(c, &st, recover_needs_recovery(r));
	if (c->opts.flags & RECOVER_FL_DRY_RUN)
		mmp_warn(c);

	switch (c->mode) {
	case MODE_SAVE:
		return save_journal(c, r, &sb, &st);
	case MODE_LIST:
		return list_journal(c, r, &st);
	case MODE_INFO:
	case MODE_REPLAY:
		break;
	}
	return scan_journal(c, r, &sb, &st, t0);
}

/*
 * -s -: the journal goes to the real stdout; everything jrecover says, the
 * report included, to stderr.  RUN_ON, or EXIT_ERROR.
 */
static int save_to_stdout(struct cli *c)
{
	if (!c->save_path || strcmp(c->save_path, "-"))
		return RUN_ON;
	c->save_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (c->save_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		com_err(prog, errno, "while setting up standard output");
		return EXIT_ERROR;
	}
	return RUN_ON;
}

/* What the mode lets the library do, and where it reports to c. */
static void set_library_options(struct cli *c)
{
	/* Everything but the replay itself only reads; -i, -l and -s only
	 * report what the MMP block says (-n refuses what e2fsck -n does). */
	if (c->mode != MODE_REPLAY)
		c->opts.flags |= RECOVER_FL_DRY_RUN | RECOVER_FL_MMP_REPORT;
	/* -i and -l only read, as debugfs's logdump: a mounted filesystem
	 * is read (with a warning); a replay and -s are refused there. */
	if (c->mode == MODE_INFO || c->mode == MODE_LIST)
		c->opts.flags |= RECOVER_FL_MOUNTED_OK;
	c->opts.mmp = &c->mmp;
	c->feat.size = sizeof(c->feat);
	c->opts.features = &c->feat;
}

/*
 * The locks taken and the undo file begun: RUN_ON, or the status to exit
 * with, whatever was taken given back.
 */
static int lock_and_undo(struct cli *c)
{
	int status;

	/* One run at a time on an image or a journal file (lock.c). */
	status = lock_files(c);
	if (status) {
		outpath_free(&c->undo_out);
		return status;
	}
	if (c->undo_path && (c->opts.flags & RECOVER_FL_DRY_RUN)) {
		if (!c->quiet)
			fprintf(stderr, "%s: -z %s not used: %s writes nothing "
				"to the filesystem\n",
				prog, c->undo_path, c->mode == MODE_INFO ? "-i" :
				c->mode == MODE_LIST ? "-l" :
				c->mode == MODE_SAVE ? "-s" : "-n");
	} else if (undo_refuses_journal(c)) {
		outpath_free(&c->undo_out);
		unlock_files(c);
		return EXIT_USAGE;
	} else if (c->undo_path && setup_undo(c)) {
		free(c->undo_tmp);
		free(c->undo_tmpname);
		outpath_free(&c->undo_out);
		unlock_files(c);
		return EXIT_ERROR;
	}
	return RUN_ON;
}

/* How progress is shown on stderr (jrecover(8), --progress). */
static void set_progress(struct cli *c)
{
	if (c->quiet)
		c->progress = PROGRESS_NONE;
	else if (isatty(STDERR_FILENO) &&
		 (c->progress_asked || c->mode != MODE_LIST || stdout_to_file()))
		c->progress = PROGRESS_REDRAW;
	else if (c->progress_asked)
		c->progress = PROGRESS_LINES;
	c->opts.progress = show_progress;
	c->opts.progress_data = c;
}

int main(int argc, char **argv)
{
	struct cli c;
	int status;

	/* The character set alone, for what a terminal shows (put_escaped()). */
	setlocale(LC_CTYPE, "");
	cli_init(&c, argv[0]);
	/* Limits and a closed pipe are errors, not deaths: a write past the
	 * file size limit (ulimit -f) fails with EFBIG, one to a pipe whose
	 * reader went away with EPIPE, and each is reported, the new files
	 * of -s and -z dealt with as after any other error. */
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	initialize_rcvr_error_table();
	initialize_ext2_error_table();

	status = parse_options(&c, argc, argv);
	if (status == RUN_ON)
		status = resolve_operands(&c);
	if (status != RUN_ON)
		return status;
	status = check_outputs(&c);
	if (status)
		return status;
	status = save_to_stdout(&c);
	if (status != RUN_ON)
		return status;
	set_library_options(&c);
	status = lock_and_undo(&c);
	if (status != RUN_ON)
		return status;
	set_progress(&c);
	/* Noticed at the library's next progress call: a safe point in a
	 * replay; with -s, after a 4 MiB piece, and FILE is removed.  A hang-up
	 * (the terminal or ssh session gone) is a request to stop as well. */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	status = run(&c);
	finish_undo(&c);
	unlock_files(&c);
	free(c.undo_tmp);
	free(c.undo_tmpname);
	outpath_free(&c.undo_out);
	return status;
}
