/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * crashrun -- replay a journal through the fault-injecting io_manager
 * (faultio.c), for tests/crash/crash.sh and tests/integration/signals.sh.
 *
 * usage: crashrun [-m MODE -k K] [-s N] [-t] [-F] [-f] [-n] [-j JOURNAL]
 *                 [-S FILE] [-r OFF:LEN:UNIT]... IMAGE
 *   -m MODE  none (count only, the default), eio, drop, exit or power: what
 *            happens at the write or flush after the K-th (faultio.h)
 *   -k K     the number of writes and flushes that are carried out
 *   -s N     the progress callback asks to stop at its N-th call
 *   -t       print every write and flush as it is asked for
 *   -F, -f   RECOVER_FL_FULL_REVOKE, RECOVER_FL_FORCE
 *   -n       RECOVER_FL_DRY_RUN
 *   -j PATH  the journal (external device or dump): recover_options
 *            journal_path
 *   -S FILE  recover_save() to FILE instead of replaying; the new file is
 *            written through the fault-injecting io_manager too
 *            (recover_options.save_io_manager)
 *   -r OFF:LEN:UNIT  count the reads of bytes [OFF, OFF + LEN) of IMAGE
 *            (e.g. an extent of the journal; repeatable, up to 16 ranges
 *            of one UNIT), and before the last line print
 *            reads: requests=Q bytes=B units=U reread=R
 *            (units of UNIT bytes read at least once / more than once)
 * A scan stopped by -s must stay stopped: recover_replay() on the same
 * handle must return RECOVER_ET_INTERRUPTED again (exit status 2 if not).
 * The last line of output sums up, for the scripts:
 *   events=E writes=W flushes=F progress=P hit=0|1 result=NAME
 *   needs_recovery=0|1 outcome=NAME
 * where needs_recovery is what a fresh open of IMAGE says afterwards
 * (recover_needs_recovery()) and outcome the replay's recover_stats.outcome
 * (none after -S or a failed open).  Exit status: 0 the replay returned 0,
 * 1 it returned an error, 2 usage or setup trouble, 75 (FAULT_EXIT_STATUS)
 * the simulated crash.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>

#include "librecover.h"
#include "faultio.h"

static unsigned long progress_calls, stop_at;
static enum recover_pass last_pass;

static int progress(void *data, enum recover_pass pass,
		    unsigned long long done, unsigned long long total)
{
	(void)data;
	(void)done;
	(void)total;
	last_pass = pass;
	progress_calls++;
	return stop_at && progress_calls >= stop_at;
}

static void trace(unsigned long n, const struct fault_event *e)
{
	if (e->kind == FAULT_FLUSH)
		printf("%4lu flush  %s\n", n, e->channel);
	else if (e->byte)
		printf("%4lu write  %s byte %llu, %lld bytes\n", n, e->channel,
		       e->block, -e->count);
	else if (e->count < 0)
		printf("%4lu write  %s block %llu (size %d), %lld bytes\n", n,
		       e->channel, e->block, e->block_size, -e->count);
	else
		printf("%4lu write  %s block %llu (size %d), %lld block(s)\n",
		       n, e->channel, e->block, e->block_size, e->count);
	fflush(stdout);
}

static const char *code_name(errcode_t err)
{
	static char buf[64];

	if (!err)
		return "0";
	if (err == RECOVER_ET_INTERRUPTED)
		return "RECOVER_ET_INTERRUPTED";
	snprintf(buf, sizeof(buf), "%ld", (long)err);
	return buf;
}

/* recover_stats.outcome, as the summary line names it */
static const char *outcome_name(enum recover_outcome o)
{
	switch (o) {
	case RECOVER_OUTCOME_NONE: return "none";
	case RECOVER_OUTCOME_CLEAN: return "clean";
	case RECOVER_OUTCOME_RECOVERED: return "recovered";
	case RECOVER_OUTCOME_PROBLEMS: return "problems";
	case RECOVER_OUTCOME_FAILED: return "failed";
	case RECOVER_OUTCOME_INTERRUPTED: return "interrupted";
	}
	return "?";
}

static void usage(void)
{
	fputs("usage: crashrun [-m none|eio|drop|exit|power -k K] [-s N] [-t] [-F] "
	      "[-f] [-n] [-j JOURNAL] [-S FILE] [-r OFF:LEN:UNIT] IMAGE\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct recover_options opts;
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	enum fault_mode mode = FAULT_NONE;
	unsigned long k = 0;
	recover_t r;
	errcode_t err;
	int ch, still = -1;
	const char *save = NULL;
	int watch = 0;
	char *end;

	initialize_rcvr_error_table();
	initialize_ext2_error_table();
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	while ((ch = getopt(argc, argv, "m:k:s:tFfnj:S:r:")) != -1) {
		switch (ch) {
		case 'm':
			if (!strcmp(optarg, "none"))
				mode = FAULT_NONE;
			else if (!strcmp(optarg, "eio"))
				mode = FAULT_EIO;
			else if (!strcmp(optarg, "drop"))
				mode = FAULT_DROP;
			else if (!strcmp(optarg, "exit"))
				mode = FAULT_EXIT;
			else if (!strcmp(optarg, "power"))
				mode = FAULT_POWER;
			else
				usage();
			break;
		case 'k':
			k = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				usage();
			break;
		case 's':
			stop_at = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				usage();
			break;
		case 't':
			fault_set_trace(trace);
			break;
		case 'F':
			opts.flags |= RECOVER_FL_FULL_REVOKE;
			break;
		case 'f':
			opts.flags |= RECOVER_FL_FORCE;
			break;
		case 'n':
			opts.flags |= RECOVER_FL_DRY_RUN;
			break;
		case 'j':
			opts.journal_path = optarg;
			break;
		case 'S':
			save = optarg;
			break;
		case 'r': {
			unsigned long long off, len;
			unsigned int unit;

			if (sscanf(optarg, "%llu:%llu:%u", &off, &len,
				   &unit) != 3 ||
			    fault_watch_reads(off, len, unit))
				usage();
			watch = 1;
			break;
		}
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();

	fault_set(mode, k);
	opts.io_manager = fault_io_manager;
	opts.save_io_manager = fault_io_manager;
	opts.progress = progress;
	err = recover_open(argv[optind], &opts, &r);
	if (err) {
		com_err("crashrun", err, "while opening %s", argv[optind]);
	} else if (save) {
		err = recover_save(r, save);
		if (err && err != RECOVER_ET_INTERRUPTED)
			com_err("crashrun", err, "while saving to %s", save);
		recover_close(r);
	} else {
		err = recover_scan(r);
		if (!err)
			err = recover_replay(r);
		if (err == RECOVER_ET_INTERRUPTED &&
		    (last_pass == RECOVER_PASS_SCAN ||
		     last_pass == RECOVER_PASS_REVOKE)) {
			stop_at = 0;
			if (recover_replay(r) != err) {
				fprintf(stderr, "crashrun: a replay after a "
					"stopped scan did not stop\n");
				return 2;
			}
		}
		recover_get_stats(r, &st);
		if (err && err == st.error)
			com_err("crashrun", err, "while replaying %s (at journal "
				"block %llu)", argv[optind], st.error_at.jblock);
		else if (err && err != RECOVER_ET_INTERRUPTED)
			com_err("crashrun", err, "while replaying %s", argv[optind]);
		recover_close(r);
	}

	/* What the next run will find. */
	{
		struct recover_options ro;
		recover_t again;

		memset(&ro, 0, sizeof(ro));
		ro.size = sizeof(ro);
		ro.flags = RECOVER_FL_DRY_RUN;
		ro.journal_path = opts.journal_path;
		if (!recover_open(argv[optind], &ro, &again)) {
			still = recover_needs_recovery(again);
			recover_close(again);
		}
	}
	if (watch) {
		struct fault_reads fr;

		fault_read_stats(&fr);
		printf("reads: requests=%llu bytes=%llu units=%llu reread=%llu\n",
		       fr.requests, fr.bytes, fr.units, fr.reread);
	}
	printf("events=%lu writes=%lu flushes=%lu progress=%lu hit=%d "
	       "result=%s needs_recovery=%d outcome=%s\n", fault_events(),
	       fault_writes(), fault_flushes(), progress_calls, fault_hit(),
	       code_name(err), still, outcome_name(st.outcome));
	return err ? 1 : 0;
}
