/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * names.c -- the words jrecover prints for the library's values: the
 * names JSON gives them (jrecover(8), JSON OUTPUT) and the phrases of the
 * text reports, for end reasons, sources, places in the log, UUIDs, times
 * and feature names; and the one way bytes from the disk are written into
 * a text line (put_escaped()).
 */
#include "config.h"

#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "librecover.h"
#include "jrecover.h"

/*
 * Length of the well-formed UTF-8 sequence at s, of which avail bytes are
 * there (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF), or 0.
 */
size_t utf8_len(const unsigned char *s, size_t avail)
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
 * Is the character set of the locale (LC_CTYPE, set from the environment
 * in main) UTF-8?  Only then do the bytes of UTF-8 text mean to a terminal
 * what they mean in UTF-8.
 */
static int utf8_locale(void)
{
	static int utf8 = -1;

	if (utf8 < 0)
		utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	return utf8;
}

void put_escaped(FILE *out, const char *str, size_t len, int quote)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + len;
	size_t n;

	while (s < end) {
		if (*s == '\\' || (quote && *s == quote)) {
			fprintf(out, "\\%c", *s++);
		} else if (*s >= 0x20 && *s < 0x7F) {
			putc(*s++, out);
		} else if (*s >= 0x80 && utf8_locale() &&
			   (n = utf8_len(s, (size_t)(end - s))) &&
			   /* U+0080 to U+009F: the C1 controls. */
			   !(s[0] == 0xC2 && s[1] < 0xA0)) {
			fwrite(s, 1, n, out);
			s += n;
		} else {
			fprintf(out, "\\x%02x", *s++);
		}
	}
}

const char *uuid_str(const unsigned char *u)
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
void print_features(const struct recover_super *sb, const char *sep,
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

/*
 * The filesystem feature bits in incompat and ro_compat by name ("dirdata,
 * FEATURE_R11"): a bit without a name as libe2p writes it.
 */
const char *fs_feature_names(unsigned int incompat, unsigned int ro_compat)
{
	static char buf[640];
	const unsigned int words[] = { incompat, ro_compat };
	const enum recover_feature_type types[] = {
		RECOVER_FEATURE_FS_INCOMPAT, RECOVER_FEATURE_FS_RO_COMPAT };
	const char letter[] = { 'I', 'R' };
	size_t n = 0;
	const char *name;
	char unnamed[16];
	int t, b;

	buf[0] = 0;
	for (t = 0; t < 2; t++) {
		for (b = 0; b < 32; b++) {
			if (!(words[t] & 1U << b))
				continue;
			name = recover_feature_name(types[t], 1U << b);
			if (!name) {
				snprintf(unnamed, sizeof(unnamed), "FEATURE_%c%d",
					 letter[t], b);
				name = unnamed;
			}
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? ", " : "", name);
		}
	}
	return buf;
}

/* A value's name in JSON and its phrase in the text reports, side by side. */
struct words {
	const char	*name;
	const char	*phrase;
};

#define WORDS(name, phrase)	((struct words){ (name), (phrase) })

static struct words end_words(enum recover_end e)
{
	switch (e) {
	case RECOVER_END_NONE:
		return WORDS("none", "nothing to scan (s_start is 0)");
	case RECOVER_END_NO_MAGIC:
		return WORDS("no_magic", "a block without the journal magic");
	case RECOVER_END_SEQUENCE:
		return WORDS("sequence", "a block of another transaction");
	case RECOVER_END_BLOCKTYPE:
		return WORDS("blocktype", "a block of unknown type");
	case RECOVER_END_COMMIT_CSUM:
		return WORDS("commit_checksum",
			     "a commit block with a bad checksum");
	case RECOVER_END_STALE:
		return WORDS("stale", "stale blocks from an older log");
	case RECOVER_END_READ:
		return WORDS("read_error",
			     "a logged block that could not be read");
	case RECOVER_END_TRUNCATED:
		return WORDS("truncated", "the end of the dump file");
	case RECOVER_END_ERROR:
		return WORDS("error", "an error");
	}
	return WORDS("?", "?");
}

const char *end_name(enum recover_end e)
{
	return end_words(e).name;
}

const char *end_reason(enum recover_end e)
{
	return end_words(e).phrase;
}

static struct words fc_end_words(enum recover_fc_end e)
{
	switch (e) {
	case RECOVER_FC_END_NONE:
		return WORDS("none", "not read");
	case RECOVER_FC_END_NO_HEAD:
		return WORDS("no_head", "no HEAD record at its start");
	case RECOVER_FC_END_HEAD_TID:
		return WORDS("head_tid", "a HEAD of another transaction");
	case RECOVER_FC_END_TAIL:
		return WORDS("tail",
			     "a TAIL of another transaction or with a bad checksum");
	case RECOVER_FC_END_BAD_TAG:
		return WORDS("bad_tag",
			     "an unknown tag or a length its tag does not allow");
	case RECOVER_FC_END_FEATURES:
		return WORDS("features", "a HEAD with unknown features");
	case RECOVER_FC_END_AREA:
		return WORDS("area_end", "the end of the area");
	case RECOVER_FC_END_READ:
		return WORDS("read_error", "a block that could not be read");
	}
	return WORDS("?", "?");
}

const char *fc_end_name(enum recover_fc_end e)
{
	return fc_end_words(e).name;
}

const char *fc_end_reason(enum recover_fc_end e)
{
	return fc_end_words(e).phrase;
}

const char *fc_state_name(enum recover_fc_state st)
{
	switch (st) {
	case RECOVER_FC_NONE: return "none";
	case RECOVER_FC_EMPTY: return "empty";
	case RECOVER_FC_LIVE: return "live";
	case RECOVER_FC_CORRUPT: return "corrupt";
	}
	return "?";
}

const char *source_name(enum recover_source s)
{
	switch (s) {
	case RECOVER_SRC_INODE: return "inode";
	case RECOVER_SRC_DEVICE: return "device";
	case RECOVER_SRC_DUMP: return "dump";
	}
	return "?";
}

/* "journal block 123 (transaction 7, filesystem block 9)" */
const char *where(const struct recover_where *w)
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

/* "2026-12-01 18:36:44 UTC" */
const char *utc_time(unsigned long long secs)
{
	static char buf[64];
	time_t t = (time_t)secs;
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, sizeof(buf), "%llu", secs);
	return buf;
}

const char *mmp_seq_name(unsigned int seq)
{
	if (seq == EXT4_MMP_SEQ_CLEAN)
		return "clean";
	if (seq == EXT4_MMP_SEQ_FSCK)
		return "fsck";
	if (seq > EXT4_MMP_SEQ_MAX)
		return "unknown";
	return "in use";
}

const char *sha256_hex(const unsigned char *d)
{
	static char buf[65];
	int i;

	for (i = 0; i < 32; i++)
		sprintf(buf + 2 * i, "%02x", d[i]);
	return buf;
}
