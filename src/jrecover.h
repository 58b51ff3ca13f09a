/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jrecover.h -- what the files of jrecover share: the run's state (struct
 * cli), the exit codes and the functions one file calls in another.
 *
 * The calls between the files go one way, from a file to files below it
 * here, never up (so each can be read knowing only what is below it):
 *
 *	jrecover.c		main and the modes
 *	options.c		the command line
 *	fail.c			the error messages
 *	report.c, list.c	the reports, -l
 *	json.c			the JSON of both
 *	undo.c, paths.c, lock.c	-z, the paths of -s and -z, the locks
 *	progress.c, names.c	the progress, the words for the library's values
 *	../lib/outpath.c	built in too (Makefile.am): the judgement of a path
 *	cli.c			the shared state and the exit status
 */
#ifndef JRECOVER_H
#define JRECOVER_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "librecover.h"
#include "outpath.h"

/* Exit codes, fsck style (jrecover(8)). */
#define EXIT_CLEAN		0
#define EXIT_RECOVERED		1
#define EXIT_PROBLEMS		4
#define EXIT_ERROR		8
#define EXIT_USAGE		16
#define EXIT_INTERRUPTED	32
/* An error after some blocks were written: 8 and 4 (errors left). */
#define EXIT_PARTIAL		12

enum progress_style {
	PROGRESS_NONE,
	PROGRESS_REDRAW,	/* stderr is a terminal: one line, redrawn */
	PROGRESS_LINES,		/* --progress elsewhere: plain lines, now and then */
};

enum mode { MODE_REPLAY, MODE_INFO, MODE_LIST, MODE_SAVE };

/* The flock(2) locks of a run, at most (lock.c). */
#define LOCKS			4

struct cli {
	struct recover_options opts;
	const char	*device;
	enum mode	mode;
	const char	*save_path;
	int		save_fd;	/* -s -: the journal's way to stdout */
	const char	*undo_path;
	struct outpath	undo_out;	/* -z: FILE resolved (paths.c) */
	char		*undo_tmp;	/* the new undo file, renamed over it */
	char		*undo_tmpname;	/* its name in undo_out's directory */
	int		undo_fd;	/* the new undo file, open till the end */
	int		undo_existed;
	int		json;
	int		quiet;
	int		verbose;
	int		progress_asked; /* --progress */
	int		progress_fd;	/* -C FD: e2fsck's machine lines, or -1 */
	double		last_fd_progress;
	enum recover_pass fd_pass;
	enum progress_style progress;	/* on stderr */
	int		progress_drawn;	/* a redrawn line is on the terminal */
	double		last_progress;
	enum recover_pass pass;
	int		pass_finished;	/* its 100% was shown */
	double		pass_start;
	enum recover_about error_about;	/* set by the library on failure */
	struct recover_mmp mmp;		/* the MMP block, as the library saw it */
	struct recover_fs_features feat; /* features libext2fs does not know */
	int		dump_alone;	/* device is a saved journal on its own */
	int		plan_started;	/* -l: the "Replay plan" header is out */
	/* flock on the image, the file behind it when it is a loop device,
	 * the -j journal, the file behind that (lock.c) */
	int		lock_fd[LOCKS];
};

/* Not an exit status: what a step returns when the run goes on. */
#define RUN_ON			(-1)

/* cli.c */
extern const char *prog;		/* argv[0]'s last component */
extern volatile sig_atomic_t interrupted; /* SIGINT, SIGTERM or SIGHUP came */
void cli_init(struct cli *c, const char *argv0);
int exit_status(errcode_t err, const struct recover_stats *st);

/* options.c */
int parse_options(struct cli *c, int argc, char **argv);
int is_dump(const char *path);
int refuse_dump(const char *path);

/* device.c: UUID=, LABEL=, PARTUUID= and PARTLABEL= (the filesystem's and
 * -j's) made device names; a mount point given as the device named as
 * one.  RUN_ON, or the status to exit with. */
int resolve_operands(struct cli *c);


/* progress.c */
double now(void);
int show_progress(void *data, enum recover_pass pass,
		  unsigned long long done, unsigned long long total);
void progress_erase(struct cli *c);
int stdout_to_file(void);

/* names.c */
/* Length of the well-formed UTF-8 sequence at s (avail bytes there), or 0. */
size_t utf8_len(const unsigned char *s, size_t avail);
/*
 * len bytes that came from the disk (or from another user, such as a
 * process's command line) written into a line of text, so that none of
 * them acts on a terminal: printable ASCII as it is, a backslash as \\
 * and quote (unless 0) as \ and itself; UTF-8 text as it is when the
 * locale's character set is UTF-8, but for the C1 controls; every other
 * byte (control characters, DEL, what is not UTF-8) as \xNN.
 */
void put_escaped(FILE *out, const char *s, size_t len, int quote);
/* Static buffers, valid until the next call: */
const char *uuid_str(const unsigned char *u);
void print_features(const struct recover_super *sb, const char *sep,
		    int quote);
const char *fs_feature_names(unsigned int incompat, unsigned int ro_compat);
const char *end_name(enum recover_end e);
const char *end_reason(enum recover_end e);
const char *fc_end_name(enum recover_fc_end e);
const char *fc_end_reason(enum recover_fc_end e);
const char *fc_state_name(enum recover_fc_state st);
const char *source_name(enum recover_source s);
const char *where(const struct recover_where *w);
const char *utc_time(unsigned long long secs);
const char *mmp_seq_name(unsigned int seq);
const char *sha256_hex(const unsigned char *d);

/* json.c */
void json_strn(const char *str, size_t len);
void json_str(const char *s);
void json_where(const char *key, const struct recover_where *w);
void json_mmp(const struct cli *c);
void json_unknown_features(const struct cli *c);
void json_fs(const struct cli *c);
void json_super(const struct recover_super *sb);
void json_info(const struct cli *c, const struct recover_super *sb,
	       const struct recover_stats *st);
void report_json(const struct cli *c, const struct recover_super *sb,
		 const struct recover_stats *st, double secs, int status);

/* list.c */
int list_event(void *data, const struct recover_event *ev);

/* fail.c */
int fail(struct cli *c, errcode_t err, const char *what,
	 const struct recover_stats *st);

/* report.c */
void print_mmp_holder(const struct recover_mmp *m);
void mmp_warn(const struct cli *c);
void print_info(const struct cli *c, const struct recover_super *sb,
		const struct recover_stats *st);
void note_garbage(const struct cli *c, const struct recover_stats *st,
		  int needs_recovery);
void note_features(const struct cli *c, const struct recover_stats *st,
		   int needs_recovery);
void report_text(const struct cli *c, const struct recover_super *sb,
		 const struct recover_stats *st, double secs);
void report_save(const struct cli *c, const struct recover_super *sb,
		 const struct recover_stats *st);
void stale_report(const struct cli *c, const struct recover_stats *st,
		  int refused);

/* lock.c */
int lock_files(struct cli *c);
void unlock_files(struct cli *c);

/* paths.c */
int check_outputs(struct cli *c);

/* undo.c */
int setup_undo(struct cli *c);
int undo_refuses_journal(const struct cli *c);
void finish_undo(struct cli *c);

#endif /* JRECOVER_H */
