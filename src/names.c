/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * names.c -- the words jrecover prints for the library's values: the
 * names JSON gives them (jrecover(8), JSON OUTPUT) and the phrases of the
 * text reports, for end reasons, sources, places in the log, UUIDs, times
 * and feature names.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "librecover.h"
#include "jrecover.h"

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
