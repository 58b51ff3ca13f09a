/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jrecover -- replay an ext3/ext4 jbd2 journal offline.
 *
 * The only part of the project that prints.  This file: the options, the
 * modes (replay, -i, -l, -s); the exit status and the shared state are
 * cli.c's; what is printed lives in report.c (text), json.c (JSON), list.c
 * (-l), fail.c (errors) and progress.c, the words for the library's values
 * in names.c, -z in undo.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2_io.h>

#include "librecover.h"
#include "jrecover.h"

/* Options without a short form. */
#define OPT_JSON		256
#define OPT_PROGRESS		257
#define OPT_FOREIGN		258
#define OPT_STALE_DUMP		259

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] DEVICE|IMAGE\n"
"       %s -i|-l|-s FILE [OPTIONS] DUMP|-j DUMP   (a saved journal on its own)\n"
"Replay the jbd2 journal of an ext3/ext4 filesystem, as e2fsck would.\n"
"\n"
"  -n, --dry-run        read and check everything, write nothing\n"
"  -j, --journal PATH   journal from an external device or a saved dump file\n"
"  -z, --undo FILE      save what the replay overwrites in an e2undo file\n"
"                       (FILE new, empty or an undo file: else exit 16)\n"
"  -i, --info           print the journal superblock and a summary, write nothing\n"
"  -l, --list           list the log's transactions, tags and revoke records\n"
"  -s, --save FILE      write the raw journal to FILE (- for standard output),\n"
"                       write nothing else (FILE new, empty or a dump: else\n"
"                       exit 16)\n"
"  -f, --force          go on where e2fsck would: a journal device with a bad\n"
"                       checksum or without this filesystem as its user; on a\n"
"                       corrupt log, reset the journal as e2fsck would; replay\n"
"                       a log on a filesystem not marked as needing recovery\n"
"      --foreign-journal  replay a dump or journal device whose UUID is another\n"
"                       filesystem's (its blocks overwrite this one; never\n"
"                       implied by -f)\n"
"  -q, --quiet          print nothing but errors (no progress either)\n"
"  -v, --verbose        print the journal superblock and counters too\n"
"  -y                   replay, as without it (fsck's \"yes\": jrecover never asks)\n"
"  -p                   replay, as without it (fsck's preen)\n"
"  -a                   replay, as without it (the same as -p)\n"
"      --progress       show progress on stderr even when it is not a terminal\n"
"                       (there as plain lines, every 10 s and per pass; on a\n"
"                       terminal it is shown unless -q)\n"
"  -C FD                write e2fsck-style progress lines (pass done total\n"
"                       device) to file descriptor FD; -C 0 is --progress\n"
"      --json           print the report of -i, -l, -s or the replay as JSON\n"
"      --replay-stale-dump  replay the dump given with -j even though the\n"
"                       filesystem changed after its log was written (this\n"
"                       reverts what was done since: copy the filesystem first)\n"
"  -V, --version        print the version and exit\n"
"  -h, --help           print this help and exit\n"
"\n"
"Exit status: 0 nothing to replay, 1 journal replayed, 4 replayed with problems\n"
"left, 8 operational error (nothing written), 12 error part way (blocks\n"
"written, run again once the cause is fixed), 16 usage error, 32 interrupted;\n"
"-n exits as the replay would (0, 1, 4 or 8).\n",
		prog, prog);
}

/*
 * A path that is no filesystem but starts with a journal superblock is a
 * saved journal: -i, -l and -s read it on its own; a replay or -n needs
 * the filesystem to go with it.  A dump the library then refuses (a bad
 * superblock checksum, say) is still a dump: its refusal is the one to
 * report, not the filesystem's bad magic.
 */
static int is_dump(const char *path)
{
	recover_t r;
	errcode_t err = recover_open_journal(path, NULL, &r);

	if (!err) {
		recover_close(r);
		return 1;
	}
	/* Refused before its first block was read: nothing known. */
	return err != RECOVER_ET_NOT_DUMP && err != RECOVER_ET_BUSY &&
	       err - ERROR_TABLE_BASE_rcvr >= 0 &&
	       err - ERROR_TABLE_BASE_rcvr < 256;
}

static int refuse_dump(const char *path)
{
	fprintf(stderr, "%s: %s is a saved journal, not a filesystem: name the "
		"filesystem and give the dump with -j: %s -j %s DEVICE\n",
		prog, path, prog, path);
	return EXIT_USAGE;
}

static int run(struct cli *c)
{
	struct recover_super sb = RECOVER_INIT(struct recover_super);
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	recover_t r;
	double t0 = now();
	errcode_t err;
	int status;

	c->opts.error_about = &c->error_about;
	if (c->dump_alone) {
		err = recover_open_journal(c->device, &c->opts, &r);
	} else {
		err = recover_open(c->device, &c->opts, &r);
		if (err && c->error_about == RECOVER_ABOUT_FS &&
		    err != RECOVER_ET_MOUNTED && err != RECOVER_ET_BUSY &&
		    is_dump(c->device)) {
			/* A replay, or another journal given with -j. */
			if (c->mode == MODE_REPLAY || c->opts.journal_path)
				return refuse_dump(c->device);
			c->dump_alone = 1;
			err = recover_open_journal(c->device, &c->opts, &r);
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
	recover_get_super(r, &sb);
	recover_get_stats(r, &st);
	note_garbage(c, &st, recover_needs_recovery(r));
	note_features(c, &st);
	if (c->opts.flags & RECOVER_FL_DRY_RUN)
		mmp_warn(c);

	if (c->mode == MODE_SAVE) {
		if (c->save_fd >= 0)
			err = recover_save_fd(r, c->save_fd);
		else
			err = recover_save(r, c->save_path);
		recover_get_stats(r, &st);
		recover_close(r);
		if (err)
			return fail(c, err, "saving the journal of", NULL);
		report_save(c, &sb, &st);
		return EXIT_CLEAN;
	}
	if (c->mode == MODE_LIST && c->dump_alone && !c->json && !c->quiet)
		printf("%s: a saved journal (no filesystem): tags naming blocks "
		       "past the filesystem's end cannot be told\n", c->device);
	if (c->mode == MODE_LIST)
		err = recover_walk(r, list_event, c);
	else
		err = recover_scan(r);
	recover_get_stats(r, &st);
	if (err) {
		recover_close(r);
		return fail(c, err, "scanning the journal of", &st);
	}
	if (c->mode == MODE_LIST) {
		recover_close(r);
		return EXIT_CLEAN;
	}
	if (c->mode == MODE_INFO || (c->verbose && !c->json)) {
		if (c->json)
			json_info(c, &sb, &st);
		else
			print_info(c, &sb, &st);
	}
	if (c->mode == MODE_INFO) {
		recover_close(r);
		return EXIT_CLEAN;
	}
	/* On a journal with nothing to replay, the library's outcome is
	 * "clean" and nothing is written. */
	err = recover_replay(r);
	recover_get_stats(r, &st);
	recover_close(r);
	if (err)
		return fail(c, err, (c->opts.flags & RECOVER_FL_DRY_RUN) ?
			    "checking the journal of" : "replaying the journal of",
			    &st);
	status = exit_status(0, &st);
	if (c->json)
		report_json(c, &sb, &st, now() - t0, status);
	else if (!c->quiet && st.outcome == RECOVER_OUTCOME_CLEAN)
		printf("%s: %s: clean, nothing to replay\n", prog, c->device);
	else if (!c->quiet)
		report_text(c, &sb, &st, now() - t0);
	if (sb.source == RECOVER_SRC_DUMP && st.outcome != RECOVER_OUTCOME_CLEAN &&
	    !c->json)
		stale_report(c, &st, 0);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "journal", required_argument, NULL, 'j' },
		{ "undo", required_argument, NULL, 'z' },
		{ "info", no_argument, NULL, 'i' },
		{ "list", no_argument, NULL, 'l' },
		{ "save", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "foreign-journal", no_argument, NULL, OPT_FOREIGN },
		{ "replay-stale-dump", no_argument, NULL, OPT_STALE_DUMP },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c;
	const char *progress_fd = NULL;
	int modes = 0;
	int fsck_opt = 0;	/* -y, -p or -a: the last one given */
	int ch, status;

	cli_init(&c, argv[0]);
	initialize_rcvr_error_table();
	initialize_ext2_error_table();

	while ((ch = getopt_long(argc, argv, "nj:z:ils:fqvypaC:Vh", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'n':
			c.opts.flags |= RECOVER_FL_DRY_RUN;
			break;
		case 'j':
			c.opts.journal_path = optarg;
			break;
		case 'z':
			c.undo_path = optarg;
			break;
		case 'i':
			c.mode = MODE_INFO;
			modes++;
			break;
		case 'l':
			c.mode = MODE_LIST;
			modes++;
			break;
		case 's':
			c.mode = MODE_SAVE;
			c.save_path = optarg;
			modes++;
			break;
		case 'f':
			c.opts.flags |= RECOVER_FL_FORCE;
			break;
		case 'q':
			c.quiet = 1;
			break;
		case 'v':
			c.verbose = 1;
			break;
		case 'y':
		case 'p':
		case 'a':
			fsck_opt = ch;
			break;
		case OPT_PROGRESS:
			c.progress_asked = 1;
			break;
		case 'C':
			progress_fd = optarg;
			break;
		case OPT_JSON:
			c.json = 1;
			break;
		case OPT_FOREIGN:
			c.opts.flags |= RECOVER_FL_FOREIGN_JOURNAL;
			break;
		case OPT_STALE_DUMP:
			c.opts.flags |= RECOVER_FL_STALE_DUMP;
			break;
		case 'V':
			printf("%s %s (librecover %s, crc32c from %s)\n", prog,
			       PACKAGE_VERSION, recover_version(), CRC32C_IMPL);
			return EXIT_CLEAN;
		case 'h':
			usage(stdout);
			return EXIT_CLEAN;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (progress_fd) {
		char *end;
		long fd;

		errno = 0;
		fd = strtol(progress_fd, &end, 10);
		if (errno || end == progress_fd || *end || fd < 0 || fd > INT_MAX) {
			fprintf(stderr, "%s: -C %s: not a file descriptor\n", prog,
				progress_fd);
			return EXIT_USAGE;
		}
		/* -C 0, as for e2fsck: the progress display itself. */
		if (fd == 0)
			c.progress_asked = 1;
		else if (fcntl((int)fd, F_GETFD) < 0) {
			fprintf(stderr, "%s: -C %s: not an open file descriptor\n",
				prog, progress_fd);
			return EXIT_USAGE;
		} else
			c.progress_fd = (int)fd;
	}
	/* -i, -l or -s with -j DUMP alone: the dump on its own. */
	if (optind == argc && c.opts.journal_path &&
	    c.mode == MODE_REPLAY && is_dump(c.opts.journal_path)) {
		return refuse_dump(c.opts.journal_path);
	} else if (optind == argc && c.opts.journal_path &&
		   c.mode != MODE_REPLAY) {
		c.device = c.opts.journal_path;
		c.opts.journal_path = NULL;
		c.dump_alone = 1;
	} else if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one DEVICE or IMAGE\n", prog);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (modes > 1) {
		fprintf(stderr, "%s: -i, -l and -s exclude each other\n", prog);
		return EXIT_USAGE;
	}
	/* What fsck passes its checkers: here they mean the replay itself. */
	if (fsck_opt && (c.mode != MODE_REPLAY ||
			 (c.opts.flags & RECOVER_FL_DRY_RUN))) {
		fprintf(stderr, "%s: -%c means replay: it excludes -n, -i, -l "
			"and -s\n", prog, fsck_opt);
		return EXIT_USAGE;
	}
	if (!c.dump_alone)
		c.device = argv[optind];
	if (c.save_path && !strcmp(c.save_path, "-") &&
	    isatty(STDOUT_FILENO)) {
		fprintf(stderr, "%s: -s -: standard output is a terminal\n",
			prog);
		return EXIT_USAGE;
	}
	status = check_outputs(&c);
	if (status)
		return status;
	if (c.save_path && !strcmp(c.save_path, "-")) {
		/* The journal goes to the real stdout; everything jrecover
		 * says, the report included, to stderr. */
		c.save_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (c.save_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			com_err(prog, errno, "while setting up standard output");
			return EXIT_ERROR;
		}
	}
	/* Everything but the replay itself only reads; -i, -l and -s only
	 * report what the MMP block says (-n refuses what e2fsck -n does). */
	if (c.mode != MODE_REPLAY)
		c.opts.flags |= RECOVER_FL_DRY_RUN | RECOVER_FL_MMP_REPORT;
	/* -i and -l only read, as debugfs's logdump: a mounted filesystem
	 * is read (with a warning); a replay and -s are refused there. */
	if (c.mode == MODE_INFO || c.mode == MODE_LIST)
		c.opts.flags |= RECOVER_FL_MOUNTED_OK;
	c.opts.mmp = &c.mmp;
	c.feat.size = sizeof(c.feat);
	c.opts.features = &c.feat;
	/* One run at a time on an image or a journal file (lock.c). */
	status = lock_files(&c);
	if (status) {
		outpath_free(&c.undo_out);
		return status;
	}
	if (c.undo_path && (c.opts.flags & RECOVER_FL_DRY_RUN)) {
		if (!c.quiet)
			fprintf(stderr, "%s: -z %s not used: %s writes nothing "
				"to the filesystem\n",
				prog, c.undo_path, c.mode == MODE_INFO ? "-i" :
				c.mode == MODE_LIST ? "-l" :
				c.mode == MODE_SAVE ? "-s" : "-n");
	} else if (undo_refuses_journal(&c)) {
		outpath_free(&c.undo_out);
		unlock_files(&c);
		return EXIT_USAGE;
	} else if (c.undo_path && setup_undo(&c)) {
		free(c.undo_tmp);
		free(c.undo_tmpname);
		outpath_free(&c.undo_out);
		unlock_files(&c);
		return EXIT_ERROR;
	}
	if (c.quiet)
		c.progress = PROGRESS_NONE;
	else if (isatty(STDERR_FILENO) &&
		 (c.progress_asked || c.mode != MODE_LIST || stdout_to_file()))
		c.progress = PROGRESS_REDRAW;
	else if (c.progress_asked)
		c.progress = PROGRESS_LINES;
	c.opts.progress = show_progress;
	c.opts.progress_data = &c;
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
