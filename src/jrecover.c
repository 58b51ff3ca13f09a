/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jrecover -- replay an ext3/ext4 jbd2 journal offline.
 *
 * The only part of the project that prints: options, the report, exit codes.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <et/com_err.h>

#include "librecover.h"

/* Exit codes, fsck style (jrecover(8)). */
#define EXIT_CLEAN		0
#define EXIT_RECOVERED		1
#define EXIT_PROBLEMS		4
#define EXIT_ERROR		8
#define EXIT_USAGE		16
#define EXIT_INTERRUPTED	32

static const char *prog = "jrecover";
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct cli {
	struct recover_options opts;
	const char	*device;
	int		info;
	int		quiet;
	int		verbose;
	int		progress;	/* show progress on stderr */
	double		last_progress;
	enum recover_pass pass;
	double		pass_start;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] DEVICE|IMAGE\n"
"Replay the jbd2 journal of an ext3/ext4 filesystem, as e2fsck would.\n"
"\n"
"  -n, --dry-run        read and check everything, write nothing\n"
"  -j, --journal PATH   journal from an external device or a saved dump file\n"
"  -i, --info           print the journal superblock and a summary, write nothing\n"
"  -f, --force          replay a dump whose UUID does not match; on a corrupt\n"
"                       log, reset the journal as e2fsck would\n"
"  -q, --quiet          print nothing but errors (no progress either)\n"
"  -p, --progress       show progress on stderr even when it is not a terminal\n"
"  -v, --verbose        print the journal superblock and counters too\n"
"  -V, --version        print the version and exit\n"
"  -h, --help           print this help and exit\n"
"\n"
"Exit status: 0 nothing to replay, 1 journal replayed, 4 replayed with problems\n"
"left, 8 operational error, 16 usage error, 32 interrupted.\n",
		prog);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Called by the library as the passes go; also where a signal is noticed,
 * so the library stops at a safe point.  The display is redrawn at most
 * four times a second: pass, share of its units, rate and time left.
 */
static int show_progress(void *data, enum recover_pass pass,
			 unsigned long long done, unsigned long long total)
{
	static const char *names[] = { "", "scan", "revoke", "replay" };
	static const char *units[] = { "", "blocks", "blocks", "blocks" };
	struct cli *c = data;
	double t, rate, left;

	if (interrupted)
		return 1;
	if (!c->progress)
		return 0;
	t = now();
	if (pass != c->pass) {
		c->pass = pass;
		c->pass_start = t;
	}
	if (done != total && t - c->last_progress < 0.25)
		return 0;
	c->last_progress = t;
	rate = t > c->pass_start ? done / (t - c->pass_start) : 0;
	left = rate > 0 && total > done ? (total - done) / rate : 0;
	fprintf(stderr, "\r%s: %-6s %5.1f%%  %.0f %s/s  %.0f s left\033[K",
		prog, names[pass],
		total ? 100.0 * (double)done / (double)total : 100.0,
		rate, units[pass], left);
	if (done == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
	return 0;
}

static void print_features(const struct recover_super *sb)
{
	unsigned int c = sb->feature_compat, i = sb->feature_incompat;

	printf("Journal features:         ");
	if (!c && !i && !sb->feature_ro_compat)
		printf(" (none)");
	if (c & 0x1)
		printf(" journal_checksum");
	if (i & 0x1)
		printf(" journal_incompat_revoke");
	if (i & 0x2)
		printf(" journal_64bit");
	if (i & 0x4)
		printf(" journal_async_commit");
	if (i & 0x8)
		printf(" journal_checksum_v2");
	if (i & 0x10)
		printf(" journal_checksum_v3");
	if (i & 0x20)
		printf(" journal_fast_commit");
	printf("\n");
}

static const char *end_reason(enum recover_end e)
{
	switch (e) {
	case RECOVER_END_NONE: return "nothing to scan (s_start is 0)";
	case RECOVER_END_NO_MAGIC: return "a block without the journal magic";
	case RECOVER_END_SEQUENCE: return "a block of another transaction";
	case RECOVER_END_BLOCKTYPE: return "a block of unknown type";
	case RECOVER_END_COMMIT_CSUM: return "a commit block with a bad checksum";
	case RECOVER_END_STALE: return "stale blocks from an older log";
	case RECOVER_END_READ: return "a logged block that could not be read";
	case RECOVER_END_ERROR: return "an error";
	}
	return "?";
}

static void print_info(const char *device, const struct recover_super *sb,
		       const struct recover_stats *st)
{
	static const char *src[] = { "", "journal inode", "external journal device",
				     "journal dump file" };
	int i;

	printf("Filesystem:               %s\n", device);
	printf("needs_recovery:           %s\n", st->needs_recovery ? "yes" : "no");
	printf("Journal source:           %s\n", src[sb->source]);
	printf("Journal superblock:       v%d\n", sb->version);
	print_features(sb);
	printf("Journal UUID:             ");
	for (i = 0; i < 16; i++)
		printf("%02x%s", sb->uuid[i], (i == 3 || i == 5 || i == 7 || i == 9) ? "-" : "");
	printf("\n");
	printf("Journal block size:       %u\n", sb->blocksize);
	printf("Journal length:           %u blocks\n", sb->maxlen);
	printf("First log block:          %u\n", sb->first);
	if (sb->num_fc_blocks)
		printf("Fast-commit blocks:       %u\n", sb->num_fc_blocks);
	printf("Journal sequence:         %u\n", sb->sequence);
	printf("Journal start:            %u\n", sb->start);
	printf("Journal errno:            %d\n", sb->errnum);
	if (!sb->start)
		return;
	printf("Log blocks walked:        %llu\n", st->log_blocks);
	printf("Transactions to replay:   %llu", st->transactions);
	if (st->transactions)
		printf(" (tid %u to %u)", st->first_tid, st->end_tid - 1);
	printf("\n");
	printf("Descriptor blocks:        %llu\n", st->descriptor_blocks);
	printf("Logged blocks:            %llu\n", st->logged_blocks);
	printf("Revoke blocks:            %llu\n", st->revoke_blocks);
	printf("Revoke records:           %llu\n", st->revoke_records);
	printf("Log ends at:              %s\n", end_reason(st->end_reason));
	if (st->failed_commit)
		printf("Corrupt commit:           transaction %u\n", st->failed_tid);
	if (st->error)
		printf("Recovery would fail:      %s\n", error_message(st->error));
}

/* What to tell the user to do next, for the errors that have an answer. */
static const char *advice(errcode_t err)
{
	if (err == RECOVER_ET_MOUNTED)
		return "unmount it first";
	if (err == RECOVER_ET_NEED_EXT_JOURNAL)
		return "name the journal device with -j";
	if (err == RECOVER_ET_FAST_COMMIT)
		return "run e2fsck, which replays fast commits";
	if (err == RECOVER_ET_DUMP_MISMATCH || err == RECOVER_ET_EXT_JOURNAL_UUID)
		return "check the journal path; -f replays it anyway";
	if (err == RECOVER_ET_BAD_CSUM_TXN || err == RECOVER_ET_REVOKE_COUNT ||
	    err == RECOVER_ET_LOG_IO)
		return "nothing was written; -f resets the journal as e2fsck would, "
		       "losing its updates";
	if (err == RECOVER_ET_TAG_PAST_END)
		return "nothing was written; the journal is corrupt";
	return NULL;
}

static int fail(errcode_t err, const char *what, const char *device)
{
	const char *a = advice(err);

	com_err(prog, err, "while %s %s%s%s", what, device, a ? ": " : "",
		a ? a : "");
	return EXIT_ERROR;
}

/* "journal block 123 (transaction 7, filesystem block 9)" */
static const char *where(const struct recover_where *w)
{
	static char buf[128];
	int n;

	n = snprintf(buf, sizeof(buf), "journal block %llu (transaction %u",
		     w->jblock, w->tid);
	if (w->fsblock)
		snprintf(buf + n, sizeof(buf) - n, ", filesystem block %llu)",
			 w->fsblock);
	else
		snprintf(buf + n, sizeof(buf) - n, ")");
	return buf;
}

static int run(struct cli *c)
{
	struct recover_super sb;
	struct recover_stats st;
	recover_t r;
	double t0 = now();
	int dry = c->opts.flags & RECOVER_FL_DRY_RUN;
	errcode_t err;

	err = recover_open(c->device, &c->opts, &r);
	if (err)
		return fail(err, "opening", c->device);
	recover_get_super(r, &sb);
	err = recover_scan(r);
	if (err) {
		recover_close(r);
		if (err == RECOVER_ET_INTERRUPTED) {
			fprintf(stderr, "%s: %s: interrupted; nothing written\n",
				prog, c->device);
			return EXIT_INTERRUPTED;
		}
		return fail(err, "scanning the journal of", c->device);
	}
	recover_get_stats(r, &st);
	if (c->info || c->verbose)
		print_info(c->device, &sb, &st);
	if (c->info) {
		recover_close(r);
		return EXIT_CLEAN;
	}
	if (!recover_needs_recovery(r)) {
		if (!c->quiet)
			printf("%s: %s: clean, nothing to replay\n", prog, c->device);
		recover_close(r);
		return EXIT_CLEAN;
	}
	err = recover_replay(r);
	recover_get_stats(r, &st);
	recover_close(r);
	if (err && st.error == err)
		fprintf(stderr, "%s: %s: %s at %s\n", prog, c->device,
			error_message(err), where(&st.error_at));
	if (err == RECOVER_ET_INTERRUPTED) {
		fprintf(stderr, "%s: %s: interrupted; the journal still needs "
			"recovery: run jrecover again\n", prog, c->device);
		return EXIT_INTERRUPTED;
	}
	if (err)
		return fail(err, dry ? "checking the journal of" : "replaying the journal of",
			    c->device);
	if (!c->quiet) {
		printf("%s: %s: %s %llu block%s from %llu transaction%s",
		       prog, c->device, dry ? "would replay" : "replayed",
		       st.replayed, st.replayed == 1 ? "" : "s",
		       st.transactions, st.transactions == 1 ? "" : "s");
		if (st.transactions)
			printf(" (tid %u-%u)", st.first_tid, st.end_tid - 1);
		printf("; %llu skipped by revoke records, %llu on bad checksums; "
		       "%.2f s\n", st.revoked, st.bad_csum, now() - t0);
		if (st.bad_csum)
			printf("%s: %llu logged block%s skipped on bad data checksums, "
			       "the first at %s\n", prog, st.bad_csum,
			       st.bad_csum == 1 ? "" : "s", where(&st.bad_csum_at));
		if (st.failed_commit)
			printf("%s: transaction %u was corrupt (commit block at "
			       "journal block %llu): replay stopped before it\n",
			       prog, st.failed_tid, st.failed_at.jblock);
		if (st.error)
			printf("%s: recovery failed (%s at %s): journal reset as "
			       "e2fsck would\n", prog, error_message(st.error),
			       where(&st.error_at));
		if (!dry && (st.fs_errors || st.error || st.bad_csum))
			printf("%s: %s: the filesystem is marked as %s: run e2fsck -f\n",
			       prog, c->device, st.fs_errors ? "having errors" : "not clean");
	}
	if (dry)
		return EXIT_CLEAN;
	if (st.bad_csum || st.failed_commit || st.error || st.fs_errors)
		return EXIT_PROBLEMS;
	return EXIT_RECOVERED;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "journal", required_argument, NULL, 'j' },
		{ "info", no_argument, NULL, 'i' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c;
	int ch;

	memset(&c, 0, sizeof(c));
	if (argv[0] && strrchr(argv[0], '/'))
		prog = strrchr(argv[0], '/') + 1;
	else if (argv[0] && *argv[0])
		prog = argv[0];
	initialize_rcvr_error_table();
	initialize_ext2_error_table();

	while ((ch = getopt_long(argc, argv, "nj:ifqpvVh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			c.opts.flags |= RECOVER_FL_DRY_RUN;
			break;
		case 'j':
			c.opts.journal_path = optarg;
			break;
		case 'i':
			c.info = 1;
			c.opts.flags |= RECOVER_FL_DRY_RUN;
			break;
		case 'f':
			c.opts.flags |= RECOVER_FL_FORCE;
			break;
		case 'q':
			c.quiet = 1;
			break;
		case 'p':
			c.progress = 1;
			break;
		case 'v':
			c.verbose = 1;
			break;
		case 'V':
			printf("%s %s (librecover %s)\n", prog, PACKAGE_VERSION,
			       recover_version());
			return EXIT_CLEAN;
		case 'h':
			usage(stdout);
			return EXIT_CLEAN;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one DEVICE or IMAGE\n", prog);
		usage(stderr);
		return EXIT_USAGE;
	}
	c.device = argv[optind];
	if (getenv("LIBRECOVER_FULL_REVOKE"))
		c.opts.flags |= RECOVER_FL_FULL_REVOKE;
	if (c.quiet)
		c.progress = 0;
	else if (isatty(STDERR_FILENO))
		c.progress = 1;
	c.opts.progress = show_progress;
	c.opts.progress_data = &c;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	return run(&c);
}
