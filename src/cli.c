/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli.c -- the state every file of jrecover shares: the program's name,
 * the signal flag, a run's struct cli as it starts, and the exit status.
 * It calls into no other file of jrecover, so that every other file may
 * call into it without the calls going round in a circle.
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "librecover.h"
#include "jrecover.h"

const char *prog = "jrecover";
volatile sig_atomic_t interrupted;

/*
 * c as a run starts, before its options: no file descriptor taken (0 is
 * standard input, so -1 says "none"), the library's growable structs
 * sized, and prog named after argv[0]'s last component.
 */
void cli_init(struct cli *c, const char *argv0)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->opts.size = sizeof(c->opts);
	c->mmp.size = sizeof(c->mmp);
	c->progress_fd = -1;
	c->save_fd = -1;
	c->undo_out.dirfd = -1;
	c->undo_fd = -1;
	for (i = 0; i < LOCKS; i++)
		c->lock_fd[i] = -1;
	if (argv0 && strrchr(argv0, '/'))
		prog = strrchr(argv0, '/') + 1;
	else if (argv0 && *argv0)
		prog = argv0;
}

/*
 * The exit status, decided here alone.  A replay's is the library's
 * outcome of it (a dry run's, the one its replay would come to); a failure
 * with no outcome, before any replay (the open, the scan, -s), is an
 * operational error, or an interruption.
 */
int exit_status(errcode_t err, const struct recover_stats *st)
{
	switch (st ? st->outcome : RECOVER_OUTCOME_NONE) {
	case RECOVER_OUTCOME_CLEAN:
		return EXIT_CLEAN;
	case RECOVER_OUTCOME_RECOVERED:
		return EXIT_RECOVERED;
	case RECOVER_OUTCOME_PROBLEMS:
		return EXIT_PROBLEMS;
	case RECOVER_OUTCOME_INTERRUPTED:
		return EXIT_INTERRUPTED;
	case RECOVER_OUTCOME_FAILED:
		/* Blocks went out before the error: not "nothing written". */
		return st->wrote ? EXIT_PARTIAL : EXIT_ERROR;
	case RECOVER_OUTCOME_NONE:
		break;
	}
	if (err == RECOVER_ET_INTERRUPTED)
		return EXIT_INTERRUPTED;
	return err ? EXIT_ERROR : EXIT_CLEAN;
}
