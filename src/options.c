/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * options.c -- jrecover's command line: the options read into struct cli
 * and checked against each other, the operand (the filesystem, or a saved
 * journal on its own) and the usage text.  Nothing is opened for writing
 * here; the output paths are checked later (paths.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "librecover.h"
#include "jrecover.h"

/* Options without a short form. */
#define OPT_JSON		256
#define OPT_PROGRESS		257
#define OPT_FOREIGN		258
#define OPT_STALE_DUMP		259

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
	{ "superblock", required_argument, NULL, 'b' },
	{ "block-size", required_argument, NULL, 'B' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * What the options say that struct cli does not keep: checked once all
 * of them are read, since the order they come in does not matter.
 */
struct seen {
	const char	*progress_fd;	/* -C FD, as given */
	int		modes;		/* how many of -i, -l and -s */
	int		fsck_opt;	/* -y, -p or -a: the last one given */
	const char	*superblock;	/* -b N, as given */
	const char	*block_size;	/* -B SIZE, as given */
};

static void usage(void)
{
	printf(
"Usage: %s [OPTIONS] DEVICE|IMAGE\n"
"       %s -i|-l|-s FILE [OPTIONS] DUMP|-j DUMP   (a saved journal on its own)\n"
"Replay the jbd2 journal of an ext3/ext4 filesystem, as e2fsck would.\n"
"DEVICE (and -j's PATH) may be UUID=, LABEL=, PARTUUID= or PARTLABEL=.\n"
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
"  -b, --superblock N   read the filesystem through the backup superblock at\n"
"                       block N and leave what e2fsck -b N leaves: the primary\n"
"                       superblock and group descriptors written from it\n"
"  -B, --block-size SIZE  the block size N counts in (else tried from 1024 up,\n"
"                       as e2fsck does)\n"
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

/* After a usage error: the synopsis, and where the rest is. */
static void short_usage(void)
{
	fprintf(stderr,
"Usage: %s [OPTIONS] DEVICE|IMAGE\n"
"       %s -i|-l|-s FILE [OPTIONS] DUMP|-j DUMP\n"
"Try '%s --help' for more information.\n", prog, prog, prog);
}

/*
 * A path that is no filesystem but starts with a journal superblock is a
 * saved journal: -i, -l and -s read it on its own; a replay or -n needs
 * the filesystem to go with it.  A dump the library then refuses (a bad
 * superblock checksum, say) is still a dump: its refusal is the one to
 * report, not the filesystem's bad magic.
 */
int is_dump(const char *path)
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

int refuse_dump(const char *path)
{
	fprintf(stderr, "%s: %s is a saved journal, not a filesystem: name the "
		"filesystem and give the dump with -j: %s -j %s DEVICE\n",
		prog, path, prog, path);
	return EXIT_USAGE;
}

/* One option into c (or s); RUN_ON, or the status to exit with. */
static int take_option(struct cli *c, struct seen *s, int ch)
{
	switch (ch) {
	case 'n':
		c->opts.flags |= RECOVER_FL_DRY_RUN;
		break;
	case 'j':
		c->opts.journal_path = optarg;
		break;
	case 'z':
		c->undo_path = optarg;
		break;
	case 'i':
		c->mode = MODE_INFO;
		s->modes++;
		break;
	case 'l':
		c->mode = MODE_LIST;
		s->modes++;
		break;
	case 's':
		c->mode = MODE_SAVE;
		c->save_path = optarg;
		s->modes++;
		break;
	case 'f':
		c->opts.flags |= RECOVER_FL_FORCE;
		break;
	case 'b':
		s->superblock = optarg;
		break;
	case 'B':
		s->block_size = optarg;
		break;
	case 'q':
		c->quiet = 1;
		break;
	case 'v':
		c->verbose = 1;
		break;
	case 'y':
	case 'p':
	case 'a':
		s->fsck_opt = ch;
		break;
	case OPT_PROGRESS:
		c->progress_asked = 1;
		break;
	case 'C':
		s->progress_fd = optarg;
		break;
	case OPT_JSON:
		c->json = 1;
		break;
	case OPT_FOREIGN:
		c->opts.flags |= RECOVER_FL_FOREIGN_JOURNAL;
		break;
	case OPT_STALE_DUMP:
		c->opts.flags |= RECOVER_FL_STALE_DUMP;
		break;
	case 'V':
		printf("%s %s (librecover %s, crc32c from %s)\n", prog,
		       PACKAGE_VERSION, recover_version(), CRC32C_IMPL);
		return EXIT_CLEAN;
	case 'h':
		usage();
		return EXIT_CLEAN;
	default:
		short_usage();
		return EXIT_USAGE;
	}
	return RUN_ON;
}

/* -C FD: RUN_ON, or EXIT_USAGE when FD is no open file descriptor. */
static int take_progress_fd(struct cli *c, const char *arg)
{
	char *end;
	long fd;

	errno = 0;
	fd = strtol(arg, &end, 10);
	if (errno || end == arg || *end || fd < 0 || fd > INT_MAX) {
		fprintf(stderr, "%s: -C %s: not a file descriptor\n", prog, arg);
		return EXIT_USAGE;
	}
	/* -C 0, as for e2fsck: the progress display itself. */
	if (fd == 0)
		c->progress_asked = 1;
	else if (fcntl((int)fd, F_GETFD) < 0) {
		fprintf(stderr, "%s: -C %s: not an open file descriptor\n",
			prog, arg);
		return EXIT_USAGE;
	} else
		c->progress_fd = (int)fd;
	return RUN_ON;
}

/* A decimal number from min to max for -b or -B, or -1. */
static long long take_number(const char *arg, long long min, long long max)
{
	char *end;
	long long v;

	if (arg[0] < '0' || arg[0] > '9')
		return -1;
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	return v;
}

/* -b N and -B SIZE: RUN_ON, or EXIT_USAGE. */
static int take_backup(struct cli *c, const struct seen *s)
{
	long long v;

	if (s->block_size && !s->superblock) {
		fprintf(stderr, "%s: -B %s: the block size of -b's backup "
			"superblock, which is not given\n", prog,
			s->block_size);
		return EXIT_USAGE;
	}
	if (!s->superblock)
		return RUN_ON;
	v = take_number(s->superblock, 1, INT_MAX);
	if (v < 0) {
		fprintf(stderr, "%s: -b %s: not a block number from 1 to %d\n",
			prog, s->superblock, INT_MAX);
		return EXIT_USAGE;
	}
	c->opts.superblock = (unsigned long long)v;
	if (s->block_size) {
		v = take_number(s->block_size, 1024, 65536);
		if (v < 0 || (v & (v - 1))) {
			fprintf(stderr, "%s: -B %s: not a block size (1024, "
				"2048 ... 65536)\n", prog, s->block_size);
			return EXIT_USAGE;
		}
		c->opts.block_size = (unsigned int)v;
	}
	if (c->undo_path) {
		fprintf(stderr, "%s: -b and -z exclude each other: the replay "
			"reads the backup superblock again at its end, which "
			"an undo file cannot follow (copy the image first)\n",
			prog);
		return EXIT_USAGE;
	}
	return RUN_ON;
}

/*
 * The operand and the options that exclude each other, in the order the
 * errors are reported; RUN_ON, or the status to exit with.
 */
static int check_operands(struct cli *c, const struct seen *s, int argc,
			  char **argv)
{
	/* -i, -l or -s with -j DUMP alone: the dump on its own. */
	if (optind == argc && c->opts.journal_path &&
	    c->mode == MODE_REPLAY && is_dump(c->opts.journal_path)) {
		return refuse_dump(c->opts.journal_path);
	} else if (optind == argc && c->opts.journal_path &&
		   c->mode != MODE_REPLAY) {
		c->device = c->opts.journal_path;
		c->opts.journal_path = NULL;
		c->dump_alone = 1;
	} else if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one DEVICE or IMAGE\n", prog);
		short_usage();
		return EXIT_USAGE;
	}
	if (s->modes > 1) {
		fprintf(stderr, "%s: -i, -l and -s exclude each other\n", prog);
		return EXIT_USAGE;
	}
	/* What fsck passes its checkers: here they mean the replay itself. */
	if (s->fsck_opt && (c->mode != MODE_REPLAY ||
			    (c->opts.flags & RECOVER_FL_DRY_RUN))) {
		fprintf(stderr, "%s: -%c means replay: it excludes -n, -i, -l "
			"and -s\n", prog, s->fsck_opt);
		return EXIT_USAGE;
	}
	if (c->dump_alone && s->superblock) {
		fprintf(stderr, "%s: -b reads a filesystem: a saved journal "
			"on its own has no backup superblock\n", prog);
		return EXIT_USAGE;
	}
	if (!c->dump_alone)
		c->device = argv[optind];
	if (c->save_path && !strcmp(c->save_path, "-") &&
	    isatty(STDOUT_FILENO)) {
		fprintf(stderr, "%s: -s -: standard output is a terminal\n",
			prog);
		return EXIT_USAGE;
	}
	return RUN_ON;
}

/*
 * The command line into c.  RUN_ON when the run goes on; else the status
 * to exit with: EXIT_USAGE, or EXIT_CLEAN after --help or --version.
 */
int parse_options(struct cli *c, int argc, char **argv)
{
	struct seen s = { NULL, 0, 0, NULL, NULL };
	int ch, status;

	while ((ch = getopt_long(argc, argv, "nj:z:ils:fb:B:qvypaC:Vh",
				 longopts, NULL)) != -1) {
		status = take_option(c, &s, ch);
		if (status != RUN_ON)
			return status;
	}
	status = take_backup(c, &s);
	if (status != RUN_ON)
		return status;
	if (s.progress_fd) {
		status = take_progress_fd(c, s.progress_fd);
		if (status != RUN_ON)
			return status;
	}
	return check_operands(c, &s, argc, argv);
}
