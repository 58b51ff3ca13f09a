/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * progress.c -- jrecover's progress: the line on a terminal, the plain
 * lines of --progress elsewhere, and e2fsck's machine lines for -C FD.
 */
#include "config.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "librecover.h"
#include "jrecover.h"

/* Progress: redraws on a terminal, lines in a log (jrecover(8), --progress). */
#define PROGRESS_REDRAW_EVERY	0.25	/* s */
#define PROGRESS_LINE_EVERY	10.0	/* s */
#define PROGRESS_FD_EVERY	0.1	/* s, -C FD */

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * -C FD: one line "PASS DONE TOTAL DEVICE" per update, as e2fsck writes
 * for systemd-fsckd and other front ends, at most ten a second, and always
 * at the start and the end of a pass.  PASS is enum recover_pass's number.
 */
static void fd_progress(struct cli *c, enum recover_pass pass,
			unsigned long long done, unsigned long long total)
{
	double t = now();

	if (pass == c->fd_pass && done < total &&
	    t - c->last_fd_progress < PROGRESS_FD_EVERY)
		return;
	c->fd_pass = pass;
	c->last_fd_progress = t;
	dprintf(c->progress_fd, "%d %llu %llu %s\n", (int)pass, done, total,
		c->device);
}

/* The terminal's width, for a progress line that must not wrap. */
static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 2)
		return 80;
	return ws.ws_col;
}

/*
 * Called by the library as the passes go; also where a signal is noticed,
 * so the library stops at a safe point.  Shown: pass, share of its units,
 * rate and time left.  On a terminal one line is redrawn at most four
 * times a second and erased when the pass ends; elsewhere (--progress into a pipe
 * or a log file) plain lines are printed, without \r or escapes: one when
 * a pass starts, one every PROGRESS_LINE_EVERY seconds, one when it ends.
 */
int show_progress(void *data, enum recover_pass pass,
		  unsigned long long done, unsigned long long total)
{
	static const char *names[] = { "", "scan", "revoke", "replay", "save",
				       "mmp" };
	struct cli *c = data;
	double t, rate, left, pct;
	int first = 0, finished;
	char line[160];
	int n;

	if (interrupted)
		return 1;
	if (pass == RECOVER_PASS_MMP) {
		/* Shown whatever the progress style: the wait is long.  On a
		 * terminal the seconds left are counted down below it (the
		 * library calls once a second), and erased at the end. */
		if (c->quiet || !total)
			return 0;
		if (!done) {
			progress_erase(c);
			fprintf(stderr, "%s: %s: MMP: waiting %llu s to make sure "
				"no other node uses the filesystem\n", prog,
				c->device, total);
		} else if (done < total && c->progress == PROGRESS_REDRAW) {
			fprintf(stderr, "\r%s: mmp    %llu s left\033[K", prog,
				total - done);
			c->progress_drawn = 1;
		} else {
			progress_erase(c);
		}
		fflush(stderr);
		return 0;
	}
	if (c->progress_fd >= 0)
		fd_progress(c, pass, done, total);
	if (c->progress == PROGRESS_NONE)
		return 0;
	t = now();
	if (pass != c->pass) {
		c->pass = pass;
		c->pass_start = t;
		c->pass_finished = 0;
		first = 1;
	}
	/* The library may report the end of a pass more than once. */
	if (c->pass_finished)
		return 0;
	finished = done >= total;
	if (!finished && !(first && c->progress == PROGRESS_LINES) &&
	    t - c->last_progress < (c->progress == PROGRESS_REDRAW ?
				    PROGRESS_REDRAW_EVERY : PROGRESS_LINE_EVERY))
		return 0;
	c->last_progress = t;
	c->pass_finished = finished;
	rate = t > c->pass_start ? done / (t - c->pass_start) : 0;
	left = rate > 0 && total > done ? (total - done) / rate : 0;
	pct = total ? 100.0 * (double)done / (double)total : 100.0;
	if (c->progress == PROGRESS_REDRAW) {
		/* -l on the same terminal: its lines go above the progress. */
		fflush(stdout);
		n = snprintf(line, sizeof(line), "%s: %-6s %5.1f%%", prog,
			     names[pass], pct);
		/* Nothing done yet: no rate to tell, nor a time left. */
		if (done && rate > 0 && !finished)
			snprintf(line + n, sizeof(line) - n,
				 "  %.0f blocks/s  %.0f s left", rate, left);
		/* A line wider than the terminal would wrap, and \r then
		 * redraws only its last row: cut it to the width. */
		n = term_width() - 1;
		if (n < (int)sizeof(line))
			line[n] = '\0';
		fprintf(stderr, "\r%s\033[K", line);
		if (finished)
			fputs("\r\033[K", stderr);
		c->progress_drawn = !finished;
	} else {
		fprintf(stderr, "%s: %-6s %5.1f%%", prog, names[pass], pct);
		if (finished)
			fprintf(stderr, "  done in %.1f s", t - c->pass_start);
		else if (done && rate > 0)
			fprintf(stderr, "  %.0f blocks/s  %.0f s left", rate, left);
		fputc('\n', stderr);
	}
	fflush(stderr);
	return 0;
}

/* Erase a progress line left on the terminal, before a message. */
void progress_erase(struct cli *c)
{
	if (c->progress_drawn) {
		fputs("\r\033[K", stderr);
		c->progress_drawn = 0;
	}
}

/*
 * -l's listing on a terminal, or piped into a pager or grep, would be
 * drawn over by the progress line: by default -l shows progress only when
 * its output goes to a file (or a device such as /dev/null).
 */
int stdout_to_file(void)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st))
		return 0;
	return S_ISREG(st.st_mode) ||
	       ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) &&
		!isatty(STDOUT_FILENO));
}
