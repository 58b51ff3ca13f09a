/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jrecover -- replay an ext3/ext4 jbd2 journal offline.
 *
 * The only part of the project that prints: options, the report (text or
 * JSON, whose schema jrecover(8) documents), exit codes.
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
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2_io.h>

#include "librecover.h"

/* Exit codes, fsck style (jrecover(8)). */
#define EXIT_CLEAN		0
#define EXIT_RECOVERED		1
#define EXIT_PROBLEMS		4
#define EXIT_ERROR		8
#define EXIT_USAGE		16
#define EXIT_INTERRUPTED	32

/* Options without a short form. */
#define OPT_JSON		256

/* Progress: redraws on a terminal, lines in a log (jrecover(8), -p). */
#define PROGRESS_REDRAW_EVERY	0.25	/* s */
#define PROGRESS_LINE_EVERY	10.0	/* s */
#define PROGRESS_FD_EVERY	0.1	/* s, -C FD */

enum progress_style {
	PROGRESS_NONE,
	PROGRESS_REDRAW,	/* stderr is a terminal: one line, redrawn */
	PROGRESS_LINES,		/* -p elsewhere: plain lines, now and then */
};

static const char *prog = "jrecover";
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

enum mode { MODE_REPLAY, MODE_INFO, MODE_LIST, MODE_SAVE };

struct cli {
	struct recover_options opts;
	const char	*device;
	enum mode	mode;
	const char	*save_path;
	int		save_fd;	/* -s -: the journal's way to stdout */
	const char	*undo_path;
	char		*undo_target;	/* -z: the file FILE names */
	char		*undo_tmp;	/* the new undo file, renamed over it */
	int		undo_existed;
	int		json;
	int		quiet;
	int		verbose;
	int		progress_asked; /* -p */
	int		progress_fd;	/* -C FD: e2fsck's machine lines, or -1 */
	double		last_fd_progress;
	enum recover_pass fd_pass;
	enum progress_style progress;	/* on stderr */
	int		progress_drawn;	/* a redrawn line is on the terminal */
	double		last_progress;
	enum recover_pass pass;
	int		pass_finished;	/* its 100% was shown */
	double		pass_start;
	unsigned int	list_sep;	/* -l --json: objects printed */
	enum recover_about error_about;	/* set by the library on failure */
	struct recover_mmp mmp;		/* the MMP block, as the library saw it */
	int		dump_alone;	/* device is a saved journal on its own */
	int		plan_started;	/* -l: the "Replay plan" header is out */
};

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
"  -i, --info           print the journal superblock and a summary, write nothing\n"
"  -l, --list           list the log's transactions, tags and revoke records\n"
"  -s, --save FILE      write the raw journal to FILE (- for standard output),\n"
"                       write nothing else\n"
"  -f, --force          go on where e2fsck would: a journal whose UUID does not\n"
"                       match, a journal device with a bad checksum or without\n"
"                       this filesystem as its user; on a corrupt log, reset\n"
"                       the journal as e2fsck would; replay a log on a\n"
"                       filesystem not marked as needing recovery\n"
"  -q, --quiet          print nothing but errors (no progress either)\n"
"  -v, --verbose        print the journal superblock and counters too\n"
"  -p, --progress       show progress on stderr even when it is not a terminal\n"
"                       (there as plain lines, every 10 s and per pass)\n"
"  -C FD                write e2fsck-style progress lines (pass done total\n"
"                       device) to file descriptor FD; -C 0 is -p\n"
"      --json           print the report of -i, -l, -s or the replay as JSON\n"
"  -V, --version        print the version and exit\n"
"  -h, --help           print this help and exit\n"
"\n"
"Exit status: 0 nothing to replay, 1 journal replayed, 4 replayed with problems\n"
"left, 8 operational error, 16 usage error, 32 interrupted; -n exits as the\n"
"replay would (0, 1, 4 or 8).\n",
		prog, prog);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress_erase(struct cli *c);

/*
 * Called by the library as the passes go; also where a signal is noticed,
 * so the library stops at a safe point.  Shown: pass, share of its units,
 * rate and time left.  On a terminal one line is redrawn at most four
 * times a second and erased when the pass ends; elsewhere (-p into a pipe
 * or a log file) plain lines are printed, without \r or escapes: one when
 * a pass starts, one every PROGRESS_LINE_EVERY seconds, one when it ends.
 */
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

static int show_progress(void *data, enum recover_pass pass,
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
		/* Shown whatever the progress style: the wait is long. */
		if (!done && total && !c->quiet) {
			progress_erase(c);
			fprintf(stderr, "%s: %s: MMP: waiting %llu s to make sure "
				"no other node uses the filesystem\n", prog,
				c->device, total);
			fflush(stderr);
		}
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
static void progress_erase(struct cli *c)
{
	if (c->progress_drawn) {
		fputs("\r\033[K", stderr);
		c->progress_drawn = 0;
	}
}

/* ---- text and JSON helpers ------------------------------------------------ */

/*
 * Length of the well-formed UTF-8 sequence at s, of which avail bytes are
 * there (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), or 0.
 */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];
	size_t n, i;
	unsigned char lo = 0x80, hi = 0xBF;

	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if (n > avail)
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

/*
 * len bytes as a JSON string that is valid UTF-8 whatever the bytes
 * (jrecover(8), JSON OUTPUT): well-formed UTF-8 passes through; control
 * characters (NUL included) and DEL become \u00XX; every other byte that
 * is not part of well-formed UTF-8 becomes \uDCXX, XX its value, the
 * "surrogateescape" convention of PEP 383, so the original bytes of a path
 * or a name can be recovered exactly.
 */
static void json_strn(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + len;
	size_t n;

	putchar('"');
	while (s < end) {
		if (*s == '"' || *s == '\\') {
			printf("\\%c", *s++);
		} else if (*s < 0x20 || *s == 0x7F) {
			printf("\\u%04x", *s++);
		} else if (*s < 0x80) {
			putchar(*s++);
		} else if ((n = utf8_len(s, (size_t)(end - s)))) {
			fwrite(s, 1, n, stdout);
			s += n;
		} else {
			printf("\\udc%02x", *s++);
		}
	}
	putchar('"');
}

static void json_str(const char *s)
{
	json_strn(s, strlen(s));
}

/* len bytes of a name in a text line: C-style octal escapes for the rest. */
static void text_strn(const char *s, unsigned int len)
{
	unsigned int i;

	putchar('"');
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			printf("\\%03o", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static const char *uuid_str(const unsigned char *u)
{
	static char buf[40];
	char *p = buf;
	int i;

	for (i = 0; i < 16; i++) {
		p += sprintf(p, "%02x", u[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*p++ = '-';
	}
	return buf;
}

/* The feature names (librecover's), separated by sep, quoted for JSON. */
static void print_features(const struct recover_super *sb, const char *sep,
			   int quote)
{
	const unsigned int words[] = { sb->feature_compat, sb->feature_incompat,
				       sb->feature_ro_compat };
	const enum recover_feature_type types[] = { RECOVER_FEATURE_COMPAT,
		RECOVER_FEATURE_INCOMPAT, RECOVER_FEATURE_RO_COMPAT };
	const char *q = quote ? "\"" : "";
	const char *s = "";
	const char *name;
	int t, b;

	for (t = 0; t < 3; t++) {
		for (b = 0; b < 32; b++) {
			if (!(words[t] & 1U << b))
				continue;
			name = recover_feature_name(types[t], 1U << b);
			if (!name)
				continue;
			printf("%s%s%s%s", s, q, name, q);
			s = sep;
		}
	}
	if (!quote && !*s)
		printf("(none)");
}

static const char *end_name(enum recover_end e)
{
	switch (e) {
	case RECOVER_END_NONE: return "none";
	case RECOVER_END_NO_MAGIC: return "no_magic";
	case RECOVER_END_SEQUENCE: return "sequence";
	case RECOVER_END_BLOCKTYPE: return "blocktype";
	case RECOVER_END_COMMIT_CSUM: return "commit_checksum";
	case RECOVER_END_STALE: return "stale";
	case RECOVER_END_READ: return "read_error";
	case RECOVER_END_TRUNCATED: return "truncated";
	case RECOVER_END_ERROR: return "error";
	}
	return "?";
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
	case RECOVER_END_TRUNCATED: return "the end of the dump file";
	case RECOVER_END_ERROR: return "an error";
	}
	return "?";
}

static const char *fc_end_name(enum recover_fc_end e)
{
	switch (e) {
	case RECOVER_FC_END_NONE: return "none";
	case RECOVER_FC_END_NO_HEAD: return "no_head";
	case RECOVER_FC_END_HEAD_TID: return "head_tid";
	case RECOVER_FC_END_TAIL: return "tail";
	case RECOVER_FC_END_BAD_TAG: return "bad_tag";
	case RECOVER_FC_END_FEATURES: return "features";
	case RECOVER_FC_END_AREA: return "area_end";
	case RECOVER_FC_END_READ: return "read_error";
	}
	return "?";
}

static const char *fc_end_reason(enum recover_fc_end e)
{
	switch (e) {
	case RECOVER_FC_END_NONE: return "not read";
	case RECOVER_FC_END_NO_HEAD: return "no HEAD record at its start";
	case RECOVER_FC_END_HEAD_TID: return "a HEAD of another transaction";
	case RECOVER_FC_END_TAIL:
		return "a TAIL of another transaction or with a bad checksum";
	case RECOVER_FC_END_BAD_TAG:
		return "an unknown tag or a length its tag does not allow";
	case RECOVER_FC_END_FEATURES: return "a HEAD with unknown features";
	case RECOVER_FC_END_AREA: return "the end of the area";
	case RECOVER_FC_END_READ: return "a block that could not be read";
	}
	return "?";
}

static const char *fc_state_name(enum recover_fc_state st)
{
	switch (st) {
	case RECOVER_FC_NONE: return "none";
	case RECOVER_FC_EMPTY: return "empty";
	case RECOVER_FC_LIVE: return "live";
	case RECOVER_FC_CORRUPT: return "corrupt";
	}
	return "?";
}

/* The names debugfs's logdump gives the fast-commit tags. */
static const char *fc_tag_name(unsigned int tag)
{
	static const char *names[] = { "?", "ADD_RANGE", "DEL_RANGE",
		"CREAT_DENTRY", "ADD_ENTRY", "DEL_ENTRY", "INODE", "PAD",
		"TAIL", "HEAD" };

	return tag < sizeof(names) / sizeof(names[0]) ? names[tag] : "?";
}

static const char *source_name(enum recover_source s)
{
	switch (s) {
	case RECOVER_SRC_INODE: return "inode";
	case RECOVER_SRC_DEVICE: return "device";
	case RECOVER_SRC_DUMP: return "dump";
	}
	return "?";
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

static void json_where(const char *key, const struct recover_where *w)
{
	printf("\"%s\":{\"block\":%llu,\"tid\":%u,\"fs_block\":%llu}", key,
	       w->jblock, w->tid, w->fsblock);
}

/* ---- multi-mount protection ---------------------------------------------- */

/* "2026-12-01 18:36:44 UTC" */
static const char *utc_time(unsigned long long secs)
{
	static char buf[64];
	time_t t = (time_t)secs;
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, sizeof(buf), "%llu", secs);
	return buf;
}

static const char *mmp_seq_name(unsigned int seq)
{
	if (seq == EXT4_MMP_SEQ_CLEAN)
		return "clean";
	if (seq == EXT4_MMP_SEQ_FSCK)
		return "fsck";
	if (seq > EXT4_MMP_SEQ_MAX)
		return "unknown";
	return "in use";
}

static int is_mmp_error(errcode_t err)
{
	return err == EXT2_ET_MMP_FAILED || err == EXT2_ET_MMP_FSCK_ON ||
	       err == EXT2_ET_MMP_UNKNOWN_SEQ || err == EXT2_ET_MMP_BAD_BLOCK ||
	       err == EXT2_ET_MMP_MAGIC_INVALID ||
	       err == EXT2_ET_MMP_CSUM_INVALID ||
	       err == EXT2_ET_MMP_CHANGE_ABORT ||
	       err == EXT2_ET_MMP_OPEN_DIRECT;
}

/* "node 'n1' (device 'sdb'), sequence 0x..., updated ..." */
static void print_mmp_holder(const struct recover_mmp *m)
{
	fprintf(stderr, "node '%s' (device '%s'), sequence 0x%08x, last "
		"updated %s", m->nodename, m->bdevname, m->seq,
		utc_time(m->time));
}

/* After an MMP refusal: who holds the filesystem, and the way out. */
static void mmp_explain(const struct cli *c, errcode_t err)
{
	const struct recover_mmp *m = &c->mmp;

	if (!m->present)
		return;
	if (m->read && (err == EXT2_ET_MMP_FAILED || err == EXT2_ET_MMP_FSCK_ON ||
			err == EXT2_ET_MMP_UNKNOWN_SEQ ||
			err == EXT2_ET_MMP_CHANGE_ABORT)) {
		fprintf(stderr, "%s: %s: the MMP block names ", prog, c->device);
		print_mmp_holder(m);
		fputc('\n', stderr);
	}
	if (err == EXT2_ET_MMP_FAILED)
		fprintf(stderr, "%s: %s: another node updated the MMP block "
			"during the wait: the filesystem is in use there; "
			"nothing was written\n", prog, c->device);
	else if (err == EXT2_ET_MMP_CHANGE_ABORT)
		fprintf(stderr, "%s: %s: another node wrote the MMP block while "
			"jrecover held it; jrecover stopped and left the block "
			"to it (jrecover -i tells whether the journal still "
			"needs recovery)\n", prog, c->device);
	if (err == EXT2_ET_MMP_FSCK_ON || err == EXT2_ET_MMP_UNKNOWN_SEQ)
		fprintf(stderr, "%s: if you are sure the filesystem is not in use "
			"on any node, run: tune2fs -f -E clear_mmp %s\n", prog,
			c->device);
	else if (err == EXT2_ET_MMP_BAD_BLOCK || err == EXT2_ET_MMP_MAGIC_INVALID ||
		 err == EXT2_ET_MMP_CSUM_INVALID)
		fprintf(stderr, "%s: the MMP block (block %llu) is damaged; if you "
			"are sure the filesystem is not in use on any node, run "
			"e2fsck, which repairs it\n", prog, m->block);
}

/* A read-only look at a filesystem the MMP block says is not clean. */
static void mmp_warn(const struct cli *c)
{
	const struct recover_mmp *m = &c->mmp;

	if (c->quiet || !m->present)
		return;
	if (m->status && !m->read) {
		fprintf(stderr, "%s: %s: warning: %s\n", prog, c->device,
			error_message(m->status));
		return;
	}
	if (!m->read || (!m->status && m->seq == EXT4_MMP_SEQ_CLEAN))
		return;
	fprintf(stderr, "%s: %s: warning: %s; the MMP block names ", prog,
		c->device, m->status ? error_message(m->status) :
		"the filesystem may be in use on another node");
	print_mmp_holder(m);
	fprintf(stderr, "; what is read may be changing under jrecover\n");
}

static void json_mmp(const struct cli *c)
{
	const struct recover_mmp *m = &c->mmp;

	if (!m->present) {
		printf(",\"mmp\":null");
		return;
	}
	printf(",\"mmp\":{\"block\":%llu,\"update_interval\":%u", m->block,
	       m->update_interval);
	if (m->read) {
		printf(",\"sequence\":%u,\"state\":\"%s\",\"time\":%llu,"
		       "\"check_interval\":%u,\"node\":", m->seq,
		       mmp_seq_name(m->seq), m->time, m->check_interval);
		json_str(m->nodename);
		printf(",\"device\":");
		json_str(m->bdevname);
	}
	if (m->status) {
		printf(",\"error\":");
		json_str(error_message(m->status));
	}
	printf(",\"wait_planned_seconds\":%u,\"wait_seconds\":%u,"
	       "\"released\":%s}", m->planned_wait, m->wait,
	       m->released ? "true" : "false");
}

/* ---- -i ------------------------------------------------------------------ */

/* The "filesystem" of a JSON object: null for a dump on its own. */
static void json_fs(const struct cli *c)
{
	if (c->dump_alone)
		printf("null");
	else
		json_str(c->device);
}

static void print_info(const struct cli *c, const struct recover_super *sb,
		       const struct recover_stats *st)
{
	if (c->dump_alone)
		printf("Filesystem:               none: %s is a saved journal on "
		       "its own (tags past the filesystem's end not checked)\n",
		       c->device);
	else {
		printf("Filesystem:               %s\n", c->device);
		printf("needs_recovery:           %s\n",
		       st->needs_recovery ? "yes" : "no");
	}
	printf("Journal source:           %s\n", source_name(sb->source));
	if (st->journal_inode_backup)
		printf("Journal inode:            invalid; read through the "
		       "superblock's backup (s_jnl_blocks)\n");
	printf("Journal superblock:       v%d\n", sb->version);
	printf("Journal features:         ");
	print_features(sb, " ", 0);
	printf("\n");
	printf("Journal UUID:             %s\n", uuid_str(sb->uuid));
	printf("Journal block size:       %u\n", sb->blocksize);
	printf("Journal length:           %u blocks\n", sb->maxlen);
	printf("First log block:          %u\n", sb->first);
	if (sb->num_fc_blocks)
		printf("Fast-commit blocks:       %u\n", sb->num_fc_blocks);
	printf("Journal sequence:         %u\n", sb->sequence);
	printf("Journal start:            %u\n", sb->start);
	printf("Journal errno:            %d\n", sb->errnum);
	if (c->mmp.present) {
		printf("MMP block:                %llu, update interval %u s\n",
		       c->mmp.block, c->mmp.update_interval);
		if (c->mmp.read)
			printf("MMP sequence:             0x%08x (%s), node '%s', "
			       "device '%s', updated %s\n", c->mmp.seq,
			       mmp_seq_name(c->mmp.seq), c->mmp.nodename,
			       c->mmp.bdevname, utc_time(c->mmp.time));
		if (c->mmp.status)
			printf("MMP check:                %s\n",
			       error_message(c->mmp.status));
	}
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
	printf("Log ends at:              journal block %llu: %s\n",
	       st->end_at.jblock, end_reason(st->end_reason));
	if (st->failed_commit)
		printf("Corrupt commit:           transaction %u at journal block %llu\n",
		       st->failed_tid, st->failed_at.jblock);
	if (st->error)
		printf("Recovery would fail:      %s at %s\n",
		       error_message(st->error), where(&st->error_at));
	if (st->fc_state == RECOVER_FC_NONE)
		return;
	printf("Fast-commit area:         %s\n",
	       st->fc_state == RECOVER_FC_LIVE ? "fast commits to replay after the log" :
	       st->fc_state == RECOVER_FC_EMPTY ? "nothing for this log (ignored)" :
	       "corrupt: the kernel would not recover this journal");
	printf("Fast commits:             %llu (tid %u)\n", st->fc_commits,
	       st->fc_tid);
	printf("Fast-commit valid blocks: %llu\n", st->fc_blocks);
	printf("Fast-commit valid tags:   %llu\n", st->fc_tags);
	printf("Fast-commit area ends at: journal block %llu: %s\n",
	       st->fc_end_at, fc_end_reason(st->fc_end));
}

static void json_super(const struct recover_super *sb)
{
	printf("\"journal\":{\"source\":\"%s\",\"version\":%d,\"features\":[",
	       source_name(sb->source), sb->version);
	print_features(sb, ",", 1);
	printf("],\"uuid\":\"%s\",\"block_size\":%u,\"maxlen\":%u,\"first\":%u,"
	       "\"sequence\":%u,\"start\":%u,\"errno\":%d,\"fast_commit_blocks\":%u}",
	       uuid_str(sb->uuid), sb->blocksize, sb->maxlen, sb->first,
	       sb->sequence, sb->start, sb->errnum, sb->num_fc_blocks);
}

static void json_log(const struct recover_stats *st)
{
	printf("\"log\":{\"first_tid\":%u,\"end_tid\":%u,\"transactions\":%llu,"
	       "\"log_blocks\":%llu,\"descriptor_blocks\":%llu,"
	       "\"logged_blocks\":%llu,\"revoke_blocks\":%llu,"
	       "\"revoke_records\":%llu,\"end\":\"%s\",",
	       st->first_tid, st->end_tid, st->transactions, st->log_blocks,
	       st->descriptor_blocks, st->logged_blocks, st->revoke_blocks,
	       st->revoke_records, end_name(st->end_reason));
	json_where("end_at", &st->end_at);
	if (st->failed_commit) {
		printf(",");
		json_where("corrupt_commit", &st->failed_at);
	}
	if (st->error) {
		printf(",\"error\":");
		json_str(error_message(st->error));
		printf(",");
		json_where("error_at", &st->error_at);
	}
	if (st->fc_state != RECOVER_FC_NONE)
		printf(",\"fast_commit\":{\"state\":\"%s\",\"tid\":%u,"
		       "\"commits\":%llu,\"blocks\":%llu,\"tags\":%llu,"
		       "\"end\":\"%s\",\"end_block\":%llu,\"replayed\":%llu}",
		       fc_state_name(st->fc_state), st->fc_tid, st->fc_commits,
		       st->fc_blocks, st->fc_tags, fc_end_name(st->fc_end),
		       st->fc_end_at, st->fc_replayed);
	printf("}");
}

static void json_info(const struct cli *c, const struct recover_super *sb,
		      const struct recover_stats *st)
{
	printf("{\"filesystem\":");
	json_fs(c);
	printf(",\"needs_recovery\":%s,\"journal_inode_backup\":%s,",
	       c->dump_alone ? "null" : st->needs_recovery ? "true" : "false",
	       st->journal_inode_backup ? "true" : "false");
	json_super(sb);
	printf(",");
	json_log(st);
	json_mmp(c);
	printf("}\n");
}

/* ---- -l ------------------------------------------------------------------ */

/*
 * -l's listing on a terminal, or piped into a pager or grep, would be
 * drawn over by the progress line: by default -l shows progress only when
 * its output goes to a file (or a device such as /dev/null).
 */
static int stdout_to_file(void)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st))
		return 0;
	return S_ISREG(st.st_mode) ||
	       ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) &&
		!isatty(STDOUT_FILENO));
}

/*
 * The lines of -l that come by the million (revoke records, tags) are put
 * together by hand: printf's format parsing would cost more than the scan.
 */
static char *put_dec(char *p, unsigned long long v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t len = strlen(s);

	memcpy(p, s, len);
	return p + len;
}

/* One revoke record or tag line, text or JSON; 0 if ev is another kind. */
static int list_fast(const struct cli *c, const struct recover_event *ev)
{
	char line[160], *p = line;

	if (ev->type != RECOVER_EV_REVOKE && ev->type != RECOVER_EV_TAG)
		return 0;
	if (c->json) {
		p = put_str(p, ev->type == RECOVER_EV_TAG ?
			    "{\"type\":\"tag\",\"tid\":" :
			    "{\"type\":\"revoke\",\"tid\":");
		p = put_dec(p, ev->tid);
		p = put_str(p, ",\"block\":");
		p = put_dec(p, ev->jblock);
		p = put_str(p, ",\"fs_block\":");
		p = put_dec(p, ev->fsblock);
		if (ev->type == RECOVER_EV_TAG) {
			p = put_str(p, ",\"flags\":");
			p = put_dec(p, ev->flags);
		}
		p = put_str(p, "}\n");
	} else if (ev->type == RECOVER_EV_REVOKE) {
		p = put_str(p, "  Revoke FS block ");
		p = put_dec(p, ev->fsblock);
		*p++ = '\n';
	} else {
		return 0;	/* tag lines in text: printf, below */
	}
	fwrite_unlocked(line, 1, (size_t)(p - line), stdout);
	return 1;
}

/*
 * A fast-commit record: text as debugfs's logdump prints it ("tag
 * ADD_RANGE, inode 14, lblk 0, pblk 2083, len 1"), or a JSON object.
 */
static void list_fc_tag(const struct cli *c, const struct recover_event *ev)
{
	const char *name = fc_tag_name(ev->fc_tag);

	if (c->json) {
		printf("{\"type\":\"fc_tag\",\"tid\":%u,\"block\":%llu,"
		       "\"tag\":\"%s\"", ev->tid, ev->jblock, name);
		switch (ev->fc_tag) {
		case 1:
			printf(",\"inode\":%u,\"lblk\":%u,\"pblk\":%llu,"
			       "\"len\":%llu,\"unwritten\":%s", ev->ino, ev->lblk,
			       ev->fsblock, ev->count,
			       ev->unwritten ? "true" : "false");
			break;
		case 2:
			printf(",\"inode\":%u,\"lblk\":%u,\"len\":%llu",
			       ev->ino, ev->lblk, ev->count);
			break;
		case 3: case 4: case 5:
			printf(",\"parent\":%u,\"inode\":%u,\"name\":",
			       ev->parent, ev->ino);
			json_strn(ev->name, ev->name_len);
			break;
		case 6:
			printf(",\"inode\":%u", ev->ino);
			break;
		case 9:
			printf(",\"features\":%u", ev->features);
			break;
		}
		printf(",\"valid\":%s}\n", ev->replayed ? "true" : "false");
		return;
	}
	printf("  tag %s", name);
	switch (ev->fc_tag) {
	case 1:
		printf(", inode %u, lblk %u, pblk %llu, len %llu%s", ev->ino,
		       ev->lblk, ev->fsblock, ev->count,
		       ev->unwritten ? " (unwritten)" : "");
		break;
	case 2:
		printf(", inode %u, lblk %u, len %llu", ev->ino, ev->lblk,
		       ev->count);
		break;
	case 3: case 4: case 5:
		printf(", parent %u, ino %u, name ", ev->parent, ev->ino);
		text_strn(ev->name, ev->name_len);
		break;
	case 6:
		printf(", inode %u", ev->ino);
		break;
	case 8:
		printf(", tid %u", ev->tid);
		break;
	case 9:
		printf(", features 0x%x, tid %u", ev->features, ev->tid);
		break;
	}
	printf("%s\n", ev->replayed ? "" : " (not valid)");
}

/* -l: what a replay does with a tag (RECOVER_EV_FATE). */
static const char *fate_names[] = { "", "written", "revoked", "superseded",
	"bad_checksum", "unreadable", "past_end", "not_replayed" };

static void json_fate(const struct recover_event *ev)
{
	printf(",\"fs_block\":%llu,\"flags\":%u,\"fate\":\"%s\"", ev->fsblock,
	       ev->flags, fate_names[ev->fate]);
	if (ev->fate == RECOVER_FATE_REVOKED ||
	    ev->fate == RECOVER_FATE_SUPERSEDED)
		printf(",\"by_tid\":%u", ev->fate_tid);
	else
		printf(",\"by_tid\":null");
	if (ev->fate == RECOVER_FATE_SUPERSEDED)
		printf(",\"by_block\":%llu", ev->fate_jblock);
	else
		printf(",\"by_block\":null");
	printf(",\"end_checked\":%s", ev->no_filesystem ? "false" : "true");
}

static void print_fate(const struct recover_event *ev)
{
	printf("  FS block %llu from journal block %llu (transaction %u): ",
	       ev->fsblock, ev->jblock, ev->tid);
	switch (ev->fate) {
	case RECOVER_FATE_REVOKED:
		printf("revoked by transaction %u\n", ev->fate_tid);
		break;
	case RECOVER_FATE_SUPERSEDED:
		printf("superseded by the copy in transaction %u (journal "
		       "block %llu)\n", ev->fate_tid, ev->fate_jblock);
		break;
	case RECOVER_FATE_BAD_CSUM:
		printf("bad checksum, skipped\n");
		break;
	case RECOVER_FATE_UNREADABLE:
		printf("unreadable, skipped\n");
		break;
	case RECOVER_FATE_PAST_END:
		printf("past the filesystem's end: the replay refuses the log\n");
		break;
	case RECOVER_FATE_NOT_REPLAYED:
		printf("not replayed: recovery fails\n");
		break;
	default:
		printf("written\n");
		break;
	}
}

static int list_event(void *data, const struct recover_event *ev)
{
	static const char *types[] = { "", "descriptor", "tag", "revoke_block",
				       "revoke", "commit", "end", "fc_block",
				       "fc_tag", "fc_end", "fate" };
	struct cli *c = data;

	if (interrupted)
		return 1;
	progress_erase(c);
	if (list_fast(c, ev))
		return 0;
	if (ev->type == RECOVER_EV_FC_TAG) {
		list_fc_tag(c, ev);
		return 0;
	}
	if (c->json) {
		printf("{\"type\":\"%s\",\"tid\":%u,\"block\":%llu", types[ev->type],
		       ev->tid, ev->jblock);
		switch (ev->type) {
		case RECOVER_EV_DESCRIPTOR:
			printf(",\"tags\":%llu", ev->count);
			break;
		case RECOVER_EV_TAG:
			printf(",\"fs_block\":%llu,\"flags\":%u", ev->fsblock,
			       ev->flags);
			break;
		case RECOVER_EV_REVOKE_BLOCK:
			printf(",\"records\":%llu", ev->count);
			break;
		case RECOVER_EV_REVOKE:
			printf(",\"fs_block\":%llu", ev->fsblock);
			break;
		case RECOVER_EV_COMMIT:
			printf(",\"commit_sec\":%llu,\"commit_nsec\":%u,\"replayed\":%s",
			       ev->commit_sec, ev->commit_nsec,
			       ev->replayed ? "true" : "false");
			break;
		case RECOVER_EV_END:
			printf(",\"end\":\"%s\"", end_name(ev->end));
			break;
		case RECOVER_EV_FATE:
			json_fate(ev);
			break;
		case RECOVER_EV_FC_END:
			printf(",\"end\":\"%s\",\"valid_tags\":%llu",
			       fc_end_name(ev->fc_end), ev->count);
			break;
		case RECOVER_EV_FC_BLOCK:
		case RECOVER_EV_FC_TAG:
			break;
		}
		printf("}\n");
		return 0;
	}
	switch (ev->type) {
	case RECOVER_EV_DESCRIPTOR:
		printf("Transaction %u: descriptor block at journal block %llu, %llu tag%s\n",
		       ev->tid, ev->jblock, ev->count, ev->count == 1 ? "" : "s");
		break;
	case RECOVER_EV_TAG:
		printf("  FS block %llu logged at journal block %llu (flags 0x%x)\n",
		       ev->fsblock, ev->jblock, ev->flags);
		break;
	case RECOVER_EV_REVOKE_BLOCK:
		printf("Transaction %u: revoke block at journal block %llu, %llu record%s\n",
		       ev->tid, ev->jblock, ev->count, ev->count == 1 ? "" : "s");
		break;
	case RECOVER_EV_REVOKE:
		printf("  Revoke FS block %llu\n", ev->fsblock);
		break;
	case RECOVER_EV_COMMIT: {
		time_t t = (time_t)ev->commit_sec;
		struct tm tm;
		char when[64] = "?";

		if (gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		printf("Transaction %u: commit block at journal block %llu, %s (%llu.%09u)%s\n",
		       ev->tid, ev->jblock, when, ev->commit_sec, ev->commit_nsec,
		       ev->replayed ? "" : ", not replayed");
		break;
	}
	case RECOVER_EV_END:
		printf("Log ends at journal block %llu, expecting transaction %u: %s\n",
		       ev->jblock, ev->tid, end_reason(ev->end));
		break;
	case RECOVER_EV_FATE:
		if (!c->plan_started++)
			printf("Replay plan%s:\n", ev->no_filesystem ?
			       " (no filesystem: tags past its end not checked)" :
			       "");
		print_fate(ev);
		break;
	case RECOVER_EV_FC_BLOCK:
		printf("Fast-commit block at journal block %llu\n", ev->jblock);
		break;
	case RECOVER_EV_FC_END:
		printf("Fast-commit area ends at journal block %llu, expecting "
		       "transaction %u: %s; %llu valid tag%s\n", ev->jblock,
		       ev->tid, fc_end_reason(ev->fc_end), ev->count,
		       ev->count == 1 ? "" : "s");
		break;
	case RECOVER_EV_FC_TAG:
		break;
	}
	return 0;
}

/* ---- errors --------------------------------------------------------------- */

/*
 * What to tell the user to do next, for the errors that have an answer.
 * A hint promises e2fsck's result from -f only where -f gives it byte for
 * byte (tests/oracle/jw-refuse.sh): a recovery failure the scan found.
 */
static const char *advice(errcode_t err, const struct recover_stats *st,
			  enum recover_about what)
{
	int in_log = st && st->error == err;

	if (err == RECOVER_ET_MOUNTED)
		return "unmount it first";
	if (err == RECOVER_ET_BUSY)
		return "wait for the program using it (another fsck?) to finish";
	if (err == RECOVER_ET_NEED_EXT_JOURNAL)
		return "name the journal device with -j";
	if (err == RECOVER_ET_FC_CORRUPT || err == RECOVER_ET_FC_RECORD ||
	    err == RECOVER_ET_FC_REPLAY)
		return "nothing was written; see jrecover -i and -l";
	if (err == RECOVER_ET_DUMP_MISMATCH || err == RECOVER_ET_EXT_JOURNAL_UUID)
		return "check the journal path; -f replays it anyway";
	if (err == RECOVER_ET_JDEV_MAGIC || err == RECOVER_ET_JDEV_FEATURE ||
	    err == RECOVER_ET_NOT_JOURNAL_DEV)
		return "check that -j names this filesystem's journal device "
		       "(dumpe2fs -h shows journal_dev on it)";
	if (err == RECOVER_ET_JDEV_UUID)
		return "check that -j names this filesystem's journal device: its "
		       "UUID must be the filesystem's journal UUID (dumpe2fs -h of both)";
	if (err == RECOVER_ET_JDEV_BLOCKSIZE)
		return "check that -j names this filesystem's journal device: "
		       "its block size must be the filesystem's";
	if (err == RECOVER_ET_JDEV_CSUM)
		return "check that -j names this filesystem's journal device; "
		       "-f rewrites the checksum and replays, as e2fsck -y does";
	if (err == RECOVER_ET_JDEV_USERS)
		return "check that -j names this filesystem's journal device "
		       "(dumpe2fs -h lists its users); -f replays it anyway, as e2fsck does";
	if (err == RECOVER_ET_SB_NR_USERS)
		return "the journal superblock is damaged; check that -j names "
		       "this filesystem's journal";
	if (err == RECOVER_ET_UNSUPP_MULTIFS)
		return "neither e2fsck nor the kernel replays a journal shared "
		       "by several filesystems";
	if (what == RECOVER_ABOUT_JOURNAL && (err == RECOVER_ET_MAGIC_BAD ||
					      err == RECOVER_ET_SB_TYPE))
		return "check that -j names a journal device or a saved journal dump";
	if ((err == RECOVER_ET_BAD_CSUM_TXN || err == RECOVER_ET_REVOKE_COUNT) &&
	    in_log)
		return "nothing was written; -f resets the journal as e2fsck would, "
		       "losing its updates";
	/* e2fsck -y rewrites an unreadable block and reads on. */
	if (err == RECOVER_ET_LOG_IO && in_log)
		return "nothing was written; -f resets the journal, losing its "
		       "updates (e2fsck would rewrite the unreadable block and "
		       "go on)";
	if (err == RECOVER_ET_LOG_IO)
		return "nothing was written; the journal superblock cannot be read";
	if (err == RECOVER_ET_TAG_PAST_END)
		return "nothing was written; the journal is corrupt";
	if (err == RECOVER_ET_JOURNAL_INODE)
		return "nothing was written; e2fsck would delete the journal, "
		       "losing its updates, then check the filesystem and make "
		       "a new journal";
	if (err == RECOVER_ET_LOG_WITHOUT_FLAG)
		return "nothing was written; the kernel would discard this log at "
		       "mount, e2fsck would replay it and then run a full check; "
		       "-f replays it";
	if (err == EXT2_ET_MMP_FAILED || err == EXT2_ET_MMP_FSCK_ON ||
	    err == EXT2_ET_MMP_UNKNOWN_SEQ || err == EXT2_ET_MMP_BAD_BLOCK ||
	    err == EXT2_ET_MMP_MAGIC_INVALID || err == EXT2_ET_MMP_CSUM_INVALID)
		return "refused by multi-mount protection";
	return NULL;
}

/* The path an error is about, as the library says. */
static const char *error_path(const struct cli *c)
{
	if (c->error_about == RECOVER_ABOUT_JOURNAL && c->opts.journal_path)
		return c->opts.journal_path;
	if (c->error_about == RECOVER_ABOUT_SAVE && c->save_path)
		return c->save_path;
	return c->device;
}

/*
 * An error about the filesystem reads "jrecover: MESSAGE while WHAT IMG";
 * one about another path (the -j journal, the -s file) is reported
 * against that path: "jrecover: PATH: MESSAGE while WHAT IMG".
 */
static int fail(struct cli *c, errcode_t err, const char *what,
		const struct recover_stats *st)
{
	const char *a = advice(err, st, c->error_about);
	const char *path = error_path(c);
	const char *name;

	/* Only the open refuses; later, the MMP block went bad under us. */
	if (is_mmp_error(err) && strcmp(what, "opening"))
		a = NULL;
	progress_erase(c);
	if (err == RECOVER_ET_INTERRUPTED && c->mode == MODE_SAVE) {
		if (c->save_fd >= 0)
			fprintf(stderr, "%s: %s: interrupted; the copy on standard "
				"output is incomplete\n", prog, c->device);
		else
			fprintf(stderr, "%s: %s: interrupted; %s left as it was\n",
				prog, c->device, c->save_path);
	} else if (err == RECOVER_ET_INTERRUPTED) {
		fprintf(stderr, "%s: %s: interrupted; %s\n", prog, c->device,
			st && st->replayed ? "the journal still needs recovery: "
			"run jrecover again" : "nothing was written");
	} else {
		if (st && st->error == err)
			fprintf(stderr, "%s: %s: %s at %s\n", prog, path,
				error_message(err), where(&st->error_at));
		if (st && err == RECOVER_ET_FC_REPLAY && st->fc_error)
			fprintf(stderr, "%s: %s: replaying the fast commits: %s\n",
				prog, c->device, error_message(st->fc_error));
		if (path != c->device)
			fprintf(stderr, "%s: %s: %s while %s %s%s%s\n", prog, path,
				error_message(err), what, c->device,
				a ? ": " : "", a ? a : "");
		else
			com_err(prog, err, "while %s %s%s%s", what, c->device,
				a ? ": " : "", a ? a : "");
		if (is_mmp_error(err))
			mmp_explain(c, err);
	}
	if (c->json) {
		printf("{\"filesystem\":");
		json_fs(c);
		printf(",\"exit\":%d,\"error\":",
		       err == RECOVER_ET_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_ERROR);
		json_str(error_message(err));
		printf(",\"code\":");
		name = recover_error_name(err);
		if (name)
			json_str(name);
		else
			printf("null");
		printf(",\"path\":");
		json_str(path);
		if (st && st->error == err) {
			printf(",");
			json_where("error_at", &st->error_at);
		}
		json_mmp(c);
		printf("}\n");
	}
	return err == RECOVER_ET_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_ERROR;
}

/*
 * An internal journal's superblock claiming several users: not a shared
 * journal but a damaged superblock, whose fields after s_errno the
 * library read (and a replay writes back) as zero, as e2fsck does.
 */
static void note_garbage(const struct cli *c, const struct recover_stats *st,
			 int needs_recovery)
{
	const char *then = "";

	if (!st->garbage_nr_users || c->quiet || c->json)
		return;
	if (!needs_recovery)
		then = "; nothing to replay, so they stay on disk (e2fsck "
		       "would clear them)";
	else if (!(c->opts.flags & RECOVER_FL_DRY_RUN))
		then = " (the replay writes them zeroed)";
	fprintf(stderr, "%s: %s: the journal superblock claims %u users, but an "
		"internal journal has one: its fields after s_errno are garbage "
		"and were taken as zero, as e2fsck does%s\n", prog, c->device,
		st->garbage_nr_users, then);
}

/* ---- the replay report ---------------------------------------------------- */

/* The status of a replay; a dry run gives the one its replay would. */
static int exit_status(const struct recover_stats *st)
{
	switch (st->outcome) {
	case RECOVER_OUTCOME_CLEAN:
		return EXIT_CLEAN;
	case RECOVER_OUTCOME_RECOVERED:
		return EXIT_RECOVERED;
	case RECOVER_OUTCOME_PROBLEMS:
		return EXIT_PROBLEMS;
	case RECOVER_OUTCOME_NONE:
	case RECOVER_OUTCOME_FAILED:
		break;
	}
	return EXIT_ERROR;
}

static void report_text(const struct cli *c, const struct recover_super *sb,
			const struct recover_stats *st, double secs)
{
	int dry = c->opts.flags & RECOVER_FL_DRY_RUN;

	printf("%s: %s: %s %llu block%s from %llu transaction%s", prog,
	       c->device, dry ? "would replay" : "replayed", st->replayed,
	       st->replayed == 1 ? "" : "s", st->transactions,
	       st->transactions == 1 ? "" : "s");
	if (st->transactions)
		printf(" (tid %u-%u)", st->first_tid, st->end_tid - 1);
	printf("; %llu skipped by revoke records, %llu on bad checksums; %.2f s\n",
	       st->revoked, st->bad_csum, secs);
	if (st->fc_state == RECOVER_FC_LIVE)
		printf("%s: %s: %s %llu fast commit%s (%llu records, tid %u)\n",
		       prog, c->device, dry ? "would replay" : "replayed",
		       st->fc_commits, st->fc_commits == 1 ? "" : "s",
		       st->fc_tags, st->fc_tid);
	if (st->end_reason == RECOVER_END_TRUNCATED)
		printf("%s: the dump ends at journal block %llu, inside the log: "
		       "transaction %u and any later ones are lost\n",
		       prog, st->end_at.jblock, st->end_at.tid);
	if (st->journal_inode_backup)
		printf("%s: %s: the journal inode was invalid: %s from the "
		       "superblock's backup, as e2fsck does\n", prog, c->device,
		       dry ? "would be rewritten" : "rewritten");
	if (st->fc_state == RECOVER_FC_EMPTY && st->fc_end == RECOVER_FC_END_HEAD_TID)
		printf("%s: the fast-commit area is stale (its HEAD is of a "
		       "transaction other than %u): ignored, as the kernel "
		       "ignores it\n", prog, st->fc_tid);
	if (sb->source == RECOVER_SRC_DUMP && !dry)
		printf("%s: %s: %s\n", prog, c->device, st->dump_is_current ?
		       "the dump holds the filesystem's current journal: that "
		       "journal was reset and needs_recovery cleared" :
		       "the filesystem's own journal and flags were left as they are");
	if (st->bad_csum)
		printf("%s: %llu logged block%s skipped on bad data checksums, "
		       "the first at %s\n", prog, st->bad_csum,
		       st->bad_csum == 1 ? "" : "s", where(&st->bad_csum_at));
	if (st->failed_commit)
		printf("%s: transaction %u was corrupt (commit block at journal "
		       "block %llu): replay stopped before it\n",
		       prog, st->failed_tid, st->failed_at.jblock);
	if (st->error)
		printf("%s: recovery failed (%s at %s): journal reset%s\n", prog,
		       error_message(st->error), where(&st->error_at),
		       st->error == RECOVER_ET_LOG_IO ?
		       " (e2fsck would rewrite the unreadable block and go on)" :
		       " as e2fsck would");
	if (!dry && (st->fs_errors || st->error || st->bad_csum))
		printf("%s: %s: the filesystem is marked as %s: run e2fsck -f\n",
		       prog, c->device,
		       st->fs_errors ? "having errors" : "not clean");
	if (dry)
		printf("%s: %s: would write %llu block%s (%llu bytes), superblocks "
		       "included; needs_recovery is %s\n", prog, c->device,
		       st->write_blocks, st->write_blocks == 1 ? "" : "s",
		       st->write_bytes, st->needs_recovery ? "set" : "clear");
	if (!dry && c->mmp.present)
		printf("%s: %s: MMP: waited %u s; the MMP block %s\n", prog,
		       c->device, c->mmp.wait, c->mmp.released ?
		       "is clean again" : "was not released");
}

static void report_json(const struct cli *c, const struct recover_super *sb,
			const struct recover_stats *st, double secs, int status)
{
	printf("{\"filesystem\":");
	json_str(c->device);
	printf(",\"dry_run\":%s,\"exit\":%d,\"seconds\":%.3f,"
	       "\"needs_recovery\":%s,",
	       (c->opts.flags & RECOVER_FL_DRY_RUN) ? "true" : "false", status,
	       secs, st->needs_recovery ? "true" : "false");
	json_super(sb);
	printf(",");
	json_log(st);
	printf(",\"replayed\":%llu,\"revoked\":%llu,\"bad_checksum\":%llu,"
	       "\"fs_errors\":%s,\"dump_is_current\":%s,"
	       "\"journal_inode_backup\":%s",
	       st->replayed, st->revoked, st->bad_csum,
	       st->fs_errors ? "true" : "false",
	       st->dump_is_current ? "true" : "false",
	       st->journal_inode_backup ? "true" : "false");
	if (st->bad_csum) {
		printf(",");
		json_where("first_bad_checksum", &st->bad_csum_at);
	}
	printf(",\"write_blocks\":%llu,\"write_bytes\":%llu",
	       st->write_blocks, st->write_bytes);
	json_mmp(c);
	printf("}\n");
}

/* ---- -s ------------------------------------------------------------------ */

static const char *sha256_hex(const unsigned char *d)
{
	static char buf[65];
	int i;

	for (i = 0; i < 32; i++)
		sprintf(buf + 2 * i, "%02x", d[i]);
	return buf;
}

static void report_save(const struct cli *c, const struct recover_super *sb,
			const struct recover_stats *st)
{
	if (c->json) {
		printf("{\"filesystem\":");
		json_fs(c);
		printf(",\"exit\":%d,\"saved\":", EXIT_CLEAN);
		json_str(c->save_path);
		printf(",\"bytes\":%llu,\"sha256\":\"%s\",", st->saved_bytes,
		       sha256_hex(st->saved_sha256));
		json_super(sb);
		json_mmp(c);
		printf("}\n");
	} else if (!c->quiet) {
		printf("%s: %s: journal %s%s: %llu bytes, sha256 %s\n", prog,
		       c->device, c->save_fd >= 0 ? "written to standard output" :
		       "saved to ", c->save_fd >= 0 ? "" : c->save_path,
		       st->saved_bytes, sha256_hex(st->saved_sha256));
	}
}

/* ---- modes ----------------------------------------------------------------- */

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
	if (!recover_needs_recovery(r)) {
		recover_close(r);
		if (c->json)
			report_json(c, &sb, &st, now() - t0, EXIT_CLEAN);
		else if (!c->quiet)
			printf("%s: %s: clean, nothing to replay\n", prog, c->device);
		return EXIT_CLEAN;
	}
	err = recover_replay(r);
	recover_get_stats(r, &st);
	recover_close(r);
	if (err)
		return fail(c, err, (c->opts.flags & RECOVER_FL_DRY_RUN) ?
			    "checking the journal of" : "replaying the journal of",
			    &st);
	status = exit_status(&st);
	if (c->json)
		report_json(c, &sb, &st, now() - t0, status);
	else if (!c->quiet)
		report_text(c, &sb, &st, now() - t0);
	return status;
}

/* Does path name the same file (or, for block devices, device) as st? */
static int same_file(const struct stat *st, const char *path)
{
	struct stat b;

	if (!path || stat(path, &b))
		return 0;
	if (S_ISBLK(st->st_mode) && S_ISBLK(b.st_mode))
		return st->st_rdev == b.st_rdev;
	return st->st_dev == b.st_dev && st->st_ino == b.st_ino;
}

/*
 * A file -z or -s is to write: it may not exist yet, or be a regular file
 * (or a symbolic link to one) other than the device, the journal or the
 * other option's file.  Anything else is refused before anything is
 * opened, so that nothing the operator named is touched.
 */
static int check_out_path(const struct cli *c, const char *opt,
			  const char *path, const char *other)
{
	const char *why = NULL;
	struct stat st;

	if (stat(path, &st)) {
		if (!lstat(path, &st))
			why = "is a symbolic link to nothing";
		else
			return 0;	/* created; other errors show then */
	} else if (same_file(&st, c->device)) {
		why = "is the filesystem itself";
	} else if (same_file(&st, c->opts.journal_path)) {
		why = "is the journal given with -j";
	} else if (other && same_file(&st, other)) {
		why = "is the file of both -z and -s";
	} else if (!S_ISREG(st.st_mode)) {
		why = "exists and is not a regular file";
	}
	if (!why)
		return 0;
	fprintf(stderr, "%s: %s %s: %s; nothing was written\n", prog, opt, path,
		why);
	return EXIT_USAGE;
}

/*
 * -z: every write to the filesystem goes through libext2fs's undo io
 * manager, which first copies the old contents into the undo file for
 * e2undo(8).  The undo manager appends to an undo file of the same
 * filesystem, refuses any other, and writes a header at close even when
 * nothing was written: so it gets a new, empty file next to FILE, which
 * replaces FILE only when the run wrote something (finish_undo()).
 */
static int setup_undo(struct cli *c)
{
	const char *slash;
	struct stat st;
	errcode_t err;
	size_t dirlen;
	int fd;

	if (!lstat(c->undo_path, &st) && S_ISLNK(st.st_mode))
		c->undo_target = realpath(c->undo_path, NULL);
	else
		c->undo_target = strdup(c->undo_path);
	if (!c->undo_target) {
		com_err(prog, errno, "while resolving the undo file %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	c->undo_existed = !stat(c->undo_target, &st);
	slash = strrchr(c->undo_target, '/');
	dirlen = slash ? (size_t)(slash - c->undo_target) + 1 : 0;
	if (asprintf(&c->undo_tmp, "%.*s.%s.XXXXXX", (int)dirlen,
		     c->undo_target, c->undo_target + dirlen) < 0) {
		c->undo_tmp = NULL;
		com_err(prog, ENOMEM, "while setting up the undo file %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	fd = mkostemp(c->undo_tmp, O_CLOEXEC);
	if (fd < 0) {
		com_err(prog, errno, "while creating a new undo file next to %s",
			c->undo_path);
		free(c->undo_tmp);
		c->undo_tmp = NULL;
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
		return EXIT_ERROR;
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
static void finish_undo(struct cli *c)
{
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
	if (rename(c->undo_tmp, c->undo_target)) {
		com_err(prog, errno, "while renaming the undo file %s to %s",
			c->undo_tmp, c->undo_path);
		fprintf(stderr, "%s: e2undo %s %s undoes what this run wrote\n",
			prog, c->undo_tmp, c->device);
		return;
	}
	if (!c->quiet)
		fprintf(stderr, "%s: e2undo %s %s undoes what this run wrote\n",
			prog, c->undo_path, c->device);
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
		{ "progress", no_argument, NULL, 'p' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c;
	const char *progress_fd = NULL;
	int modes = 0;
	int ch, status;

	memset(&c, 0, sizeof(c));
	c.opts.size = sizeof(c.opts);
	c.mmp.size = sizeof(c.mmp);
	c.progress_fd = -1;
	c.save_fd = -1;
	if (argv[0] && strrchr(argv[0], '/'))
		prog = strrchr(argv[0], '/') + 1;
	else if (argv[0] && *argv[0])
		prog = argv[0];
	initialize_rcvr_error_table();
	initialize_ext2_error_table();

	while ((ch = getopt_long(argc, argv, "nj:z:ils:fqvpC:Vh", longopts,
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
		case 'p':
			c.progress_asked = 1;
			break;
		case 'C':
			progress_fd = optarg;
			break;
		case OPT_JSON:
			c.json = 1;
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
	if (!c.dump_alone)
		c.device = argv[optind];
	if (c.save_path && strcmp(c.save_path, "-") &&
	    check_out_path(&c, "-s", c.save_path, c.undo_path))
		return EXIT_USAGE;
	if (c.undo_path &&
	    check_out_path(&c, "-z", c.undo_path,
			   c.save_path && strcmp(c.save_path, "-") ?
			   c.save_path : NULL))
		return EXIT_USAGE;
	if (c.save_path && !strcmp(c.save_path, "-")) {
		if (isatty(STDOUT_FILENO)) {
			fprintf(stderr, "%s: -s -: standard output is a terminal\n",
				prog);
			return EXIT_USAGE;
		}
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
	c.opts.mmp = &c.mmp;
	if (c.undo_path && (c.opts.flags & RECOVER_FL_DRY_RUN)) {
		if (!c.quiet)
			fprintf(stderr, "%s: -z %s not used: %s writes nothing "
				"to the filesystem\n",
				prog, c.undo_path, c.mode == MODE_INFO ? "-i" :
				c.mode == MODE_LIST ? "-l" :
				c.mode == MODE_SAVE ? "-s" : "-n");
	} else if (c.undo_path && setup_undo(&c)) {
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
	 * replay; with -s, after a 4 MiB piece, and FILE is removed. */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	status = run(&c);
	finish_undo(&c);
	free(c.undo_tmp);
	free(c.undo_target);
	return status;
}
