/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mmpslow -- a replay made slow on purpose, for tests/integration/mmp.sh:
 * long enough for the multi-mount protection block to need updates while
 * it runs, and for another node to take the filesystem over meanwhile.
 *
 * usage: mmpslow MS IMAGE [STOP]
 * Replays IMAGE's journal with librecover; the progress callback sleeps
 * MS milliseconds at each call of the REPLAY pass, and prints "replaying"
 * (flushed) at the first one; with STOP, it asks to stop at the STOP-th
 * (as jrecover's does after SIGINT).  At the end it prints one line:
 *   result=CODE mmp_status=CODE released=0|1 seq=0x... node=NAME
 * where CODE is 0 or the error's com_err message with spaces as '_'.
 * Exit status: 0 the replay returned 0, 1 it returned an error, 2 usage.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <et/com_err.h>

#include "librecover.h"

static long sleep_ms, stop_at;
static long replaying;

static int progress(void *data, enum recover_pass pass,
		    unsigned long long done, unsigned long long total)
{
	struct timespec ts;

	(void)data;
	(void)done;
	(void)total;
	if (pass != RECOVER_PASS_REPLAY)
		return 0;
	if (!replaying++) {
		printf("replaying\n");
		fflush(stdout);
	}
	ts.tv_sec = sleep_ms / 1000;
	ts.tv_nsec = (sleep_ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	return stop_at && replaying >= stop_at;
}

static const char *code(errcode_t err)
{
	static char buf[2][128];
	static int n;
	char *p = buf[n++ % 2];

	if (!err)
		return "0";
	snprintf(p, sizeof(buf[0]), "%s", error_message(err));
	for (char *q = p; *q; q++)
		if (*q == ' ')
			*q = '_';
	return p;
}

int main(int argc, char **argv)
{
	struct recover_options opts;
	struct recover_mmp mmp;
	recover_t r;
	errcode_t err;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: mmpslow MS IMAGE [STOP]\n");
		return 2;
	}
	sleep_ms = strtol(argv[1], NULL, 10);
	if (argc == 4)
		stop_at = strtol(argv[3], NULL, 10);
	initialize_rcvr_error_table();
	initialize_ext2_error_table();
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	memset(&mmp, 0, sizeof(mmp));
	mmp.size = sizeof(mmp);
	opts.progress = progress;
	opts.mmp = &mmp;
	err = recover_open(argv[2], &opts, &r);
	if (!err) {
		err = recover_replay(r);
		recover_close(r);
	}
	printf("result=%s mmp_status=%s released=%d seq=0x%08x node=%s\n",
	       code(err), code(mmp.status), mmp.released, mmp.seq,
	       mmp.nodename);
	return err ? 1 : 0;
}
