/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jrecover -- replay an ext3/ext4 jbd2 journal offline.
 *
 * The only part of the project that prints: options, the report (text or
 * JSON, whose schema jrecover(8) documents), exit codes.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	const char	*undo_path;
	int		json;
	int		quiet;
	int		verbose;
	int		progress_asked; /* -p */
	enum progress_style progress;	/* on stderr */
	int		progress_drawn;	/* a redrawn line is on the terminal */
	double		last_progress;
	enum recover_pass pass;
	int		pass_finished;	/* its 100% was shown */
	double		pass_start;
	unsigned int	list_sep;	/* -l --json: objects printed */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] DEVICE|IMAGE\n"
"Replay the jbd2 journal of an ext3/ext4 filesystem, as e2fsck would.\n"
"\n"
"  -n, --dry-run        read and check everything, write nothing\n"
"  -j, --journal PATH   journal from an external device or a saved dump file\n"
"  -z, --undo FILE      save what the replay overwrites in an e2undo file\n"
"  -i, --info           print the journal superblock and a summary, write nothing\n"
"  -l, --list           list the log's transactions, tags and revoke records\n"
"  -s, --save FILE      write the raw journal to FILE, write nothing else\n"
"  -f, --force          accept a journal whose UUID does not match; on a corrupt\n"
"                       log, reset the journal as e2fsck would\n"
"  -q, --quiet          print nothing but errors (no progress either)\n"
"  -v, --verbose        print the journal superblock and counters too\n"
"  -p, --progress       show progress on stderr even when it is not a terminal\n"
"                       (there as plain lines, every 10 s and per pass)\n"
"      --json           print the report of -i, -l, -s or the replay as JSON\n"
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
 * so the library stops at a safe point.  Shown: pass, share of its units,
 * rate and time left.  On a terminal one line is redrawn at most four
 * times a second and erased when the pass ends; elsewhere (-p into a pipe
 * or a log file) plain lines are printed, without \r or escapes: one when
 * a pass starts, one every PROGRESS_LINE_EVERY seconds, one when it ends.
 */
static int show_progress(void *data, enum recover_pass pass,
			 unsigned long long done, unsigned long long total)
{
	static const char *names[] = { "", "scan", "revoke", "replay", "save" };
	struct cli *c = data;
	double t, rate, left, pct;
	int first = 0, finished;

	if (interrupted)
		return 1;
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
		fprintf(stderr, "\r%s: %-6s %5.1f%%  %.0f blocks/s  %.0f s left\033[K",
			prog, names[pass], pct, rate, left);
		if (finished)
			fputs("\r\033[K", stderr);
		c->progress_drawn = !finished;
	} else {
		fprintf(stderr, "%s: %-6s %5.1f%%", prog, names[pass], pct);
		if (finished)
			fprintf(stderr, "  done in %.1f s", t - c->pass_start);
		else if (rate > 0)
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

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* len bytes that may hold anything (a file name), as a JSON string. */
static void json_strn(const char *s, unsigned int len)
{
	unsigned int i;

	putchar('"');
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* The same bytes in a text line: C-style octal escapes for the rest. */
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

static const struct { unsigned int incompat; const char *name; } features[] = {
	{ 0x1, "journal_incompat_revoke" },
	{ 0x2, "journal_64bit" },
	{ 0x4, "journal_async_commit" },
	{ 0x8, "journal_checksum_v2" },
	{ 0x10, "journal_checksum_v3" },
	{ 0x20, "journal_fast_commit" },
};

/* The feature names, separated by sep, names quoted for JSON. */
static void print_features(const struct recover_super *sb, const char *sep,
			   int quote)
{
	const char *q = quote ? "\"" : "";
	const char *s = "";
	size_t i;

	if (sb->feature_compat & 0x1) {
		printf("%sjournal_checksum%s", q, q);
		s = sep;
	}
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (sb->feature_incompat & features[i].incompat) {
			printf("%s%s%s%s", s, q, features[i].name, q);
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

/* ---- -i ------------------------------------------------------------------ */

static void print_info(const struct cli *c, const struct recover_super *sb,
		       const struct recover_stats *st)
{
	printf("Filesystem:               %s\n", c->device);
	printf("needs_recovery:           %s\n", st->needs_recovery ? "yes" : "no");
	printf("Journal source:           %s\n", source_name(sb->source));
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
	json_str(c->device);
	printf(",\"needs_recovery\":%s,", st->needs_recovery ? "true" : "false");
	json_super(sb);
	printf(",");
	json_log(st);
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

static int list_event(void *data, const struct recover_event *ev)
{
	static const char *types[] = { "", "descriptor", "tag", "revoke_block",
				       "revoke", "commit", "end", "fc_block",
				       "fc_tag", "fc_end" };
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

/* What to tell the user to do next, for the errors that have an answer. */
static const char *advice(errcode_t err)
{
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
	if (err == RECOVER_ET_BAD_CSUM_TXN || err == RECOVER_ET_REVOKE_COUNT ||
	    err == RECOVER_ET_LOG_IO)
		return "nothing was written; -f resets the journal as e2fsck would, "
		       "losing its updates";
	if (err == RECOVER_ET_TAG_PAST_END)
		return "nothing was written; the journal is corrupt";
	return NULL;
}

static int fail(struct cli *c, errcode_t err, const char *what,
		const struct recover_stats *st)
{
	const char *a = advice(err);

	progress_erase(c);
	if (err == RECOVER_ET_INTERRUPTED && c->mode == MODE_SAVE) {
		/* The library removes a regular file, never a device. */
		fprintf(stderr, "%s: %s: interrupted; %s %s\n", prog, c->device,
			access(c->save_path, F_OK) ? "removed the partial copy" :
			"incomplete:", c->save_path);
	} else if (err == RECOVER_ET_INTERRUPTED) {
		fprintf(stderr, "%s: %s: interrupted; %s\n", prog, c->device,
			st && st->replayed ? "the journal still needs recovery: "
			"run jrecover again" : "nothing was written");
	} else {
		if (st && st->error == err)
			fprintf(stderr, "%s: %s: %s at %s\n", prog, c->device,
				error_message(err), where(&st->error_at));
		if (st && err == RECOVER_ET_FC_REPLAY && st->fc_error)
			fprintf(stderr, "%s: %s: replaying the fast commits: %s\n",
				prog, c->device, error_message(st->fc_error));
		com_err(prog, err, "while %s %s%s%s", what, c->device,
			a ? ": " : "", a ? a : "");
	}
	if (c->json) {
		printf("{\"filesystem\":");
		json_str(c->device);
		printf(",\"exit\":%d,\"error\":",
		       err == RECOVER_ET_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_ERROR);
		json_str(error_message(err));
		if (st && st->error == err) {
			printf(",");
			json_where("error_at", &st->error_at);
		}
		printf("}\n");
	}
	return err == RECOVER_ET_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_ERROR;
}

/* ---- the replay report ---------------------------------------------------- */

static int exit_status(const struct cli *c, const struct recover_stats *st)
{
	if (c->opts.flags & RECOVER_FL_DRY_RUN)
		return EXIT_CLEAN;
	if (st->bad_csum || st->failed_commit || st->error || st->fs_errors ||
	    st->end_reason == RECOVER_END_TRUNCATED)
		return EXIT_PROBLEMS;
	return EXIT_RECOVERED;
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
		printf("%s: recovery failed (%s at %s): journal reset as e2fsck "
		       "would\n", prog, error_message(st->error),
		       where(&st->error_at));
	if (!dry && (st->fs_errors || st->error || st->bad_csum))
		printf("%s: %s: the filesystem is marked as %s: run e2fsck -f\n",
		       prog, c->device,
		       st->fs_errors ? "having errors" : "not clean");
}

static void report_json(const struct cli *c, const struct recover_super *sb,
			const struct recover_stats *st, double secs, int status)
{
	printf("{\"filesystem\":");
	json_str(c->device);
	printf(",\"dry_run\":%s,\"exit\":%d,\"seconds\":%.3f,",
	       (c->opts.flags & RECOVER_FL_DRY_RUN) ? "true" : "false", status,
	       secs);
	json_super(sb);
	printf(",");
	json_log(st);
	printf(",\"replayed\":%llu,\"revoked\":%llu,\"bad_checksum\":%llu,"
	       "\"fs_errors\":%s,\"dump_is_current\":%s",
	       st->replayed, st->revoked, st->bad_csum,
	       st->fs_errors ? "true" : "false",
	       st->dump_is_current ? "true" : "false");
	if (st->bad_csum) {
		printf(",");
		json_where("first_bad_checksum", &st->bad_csum_at);
	}
	printf("}\n");
}

/* ---- -s ------------------------------------------------------------------ */

static void json_save(const struct cli *c, const struct recover_super *sb)
{
	struct stat sst;
	unsigned long long bytes = 0;

	/* What was written, as the file now holds it (a device or a pipe
	 * has no size to tell). */
	if (!stat(c->save_path, &sst) && S_ISREG(sst.st_mode))
		bytes = (unsigned long long)sst.st_size;
	printf("{\"filesystem\":");
	json_str(c->device);
	printf(",\"exit\":%d,\"saved\":", EXIT_CLEAN);
	json_str(c->save_path);
	printf(",\"bytes\":%llu,", bytes);
	json_super(sb);
	printf("}\n");
}

/* ---- modes ----------------------------------------------------------------- */

static int run(struct cli *c)
{
	struct recover_super sb;
	struct recover_stats st;
	recover_t r;
	double t0 = now();
	errcode_t err;
	int status;

	err = recover_open(c->device, &c->opts, &r);
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

	if (c->mode == MODE_SAVE) {
		err = recover_save(r, c->save_path);
		recover_close(r);
		if (err)
			return fail(c, err, "saving the journal of", NULL);
		if (c->json)
			json_save(c, &sb);
		else if (!c->quiet)
			printf("%s: %s: journal saved to %s\n", prog, c->device,
			       c->save_path);
		return EXIT_CLEAN;
	}
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
	status = exit_status(c, &st);
	if (c->json)
		report_json(c, &sb, &st, now() - t0, status);
	else if (!c->quiet)
		report_text(c, &sb, &st, now() - t0);
	return status;
}

/*
 * -z: every write to the filesystem goes through libext2fs's undo io
 * manager, which first copies the old contents into FILE for e2undo(8).
 */
static int setup_undo(struct cli *c)
{
	errcode_t err;

	if (unlink(c->undo_path) && errno != ENOENT) {
		com_err(prog, errno, "while removing the old undo file %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	err = set_undo_io_backing_manager(unix_io_manager);
	if (!err)
		err = set_undo_io_backup_file((char *)c->undo_path);
	if (err) {
		com_err(prog, err, "while setting up the undo file %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	c->opts.io_manager = undo_io_manager;
	return 0;
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
	const char *env;
	int modes = 0;
	int ch;

	memset(&c, 0, sizeof(c));
	if (argv[0] && strrchr(argv[0], '/'))
		prog = strrchr(argv[0], '/') + 1;
	else if (argv[0] && *argv[0])
		prog = argv[0];
	initialize_rcvr_error_table();
	initialize_ext2_error_table();

	while ((ch = getopt_long(argc, argv, "nj:z:ils:fqvpVh", longopts,
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
		case OPT_JSON:
			c.json = 1;
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
	if (modes > 1) {
		fprintf(stderr, "%s: -i, -l and -s exclude each other\n", prog);
		return EXIT_USAGE;
	}
	c.device = argv[optind];
	/* Everything but the replay itself only reads. */
	if (c.mode != MODE_REPLAY)
		c.opts.flags |= RECOVER_FL_DRY_RUN;
	if (c.undo_path && c.mode == MODE_REPLAY &&
	    !(c.opts.flags & RECOVER_FL_DRY_RUN) && setup_undo(&c))
		return EXIT_ERROR;
	env = getenv("LIBRECOVER_FULL_REVOKE");
	if (env && *env && strcmp(env, "0"))
		c.opts.flags |= RECOVER_FL_FULL_REVOKE;
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
	return run(&c);
}
