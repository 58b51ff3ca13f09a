/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * json.c -- the JSON writer of jrecover: strings, and the objects the
 * reports of -i and of the replay share (schema in jrecover(8), JSON
 * OUTPUT).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "librecover.h"
#include "jrecover.h"

/*
 * len bytes as a JSON string that is valid UTF-8 whatever the bytes
 * (jrecover(8), JSON OUTPUT): well-formed UTF-8 passes through; control
 * characters (NUL included), DEL and the C1 controls (U+0080 to U+009F,
 * which some terminals act on) become \u00XX; every other byte that
 * is not part of well-formed UTF-8 becomes \uDCXX, XX its value, the
 * "surrogateescape" convention of PEP 383, so the original bytes of a path
 * or a name can be recovered exactly.
 */
void json_strn(const char *str, size_t len)
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
			if (s[0] == 0xC2 && s[1] < 0xA0)
				printf("\\u%04x", s[1]);
			else
				fwrite(s, 1, n, stdout);
			s += n;
		} else {
			printf("\\udc%02x", *s++);
		}
	}
	putchar('"');
}

void json_str(const char *s)
{
	json_strn(s, strlen(s));
}

void json_where(const char *key, const struct recover_where *w)
{
	printf("\"%s\":{\"block\":%llu,\"tid\":%u,\"fs_block\":%llu}", key,
	       w->jblock, w->tid, w->fsblock);
}

void json_mmp(const struct cli *c)
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

/*
 * The filesystem's features libext2fs does not know, by name: those a
 * replay went past, or those an open was refused on.  Only when there
 * are any.
 */
void json_unknown_features(const struct cli *c)
{
	const char *names = fs_feature_names(c->feat.incompat,
					     c->feat.ro_compat);
	const char *comma;

	if (!c->feat.incompat && !c->feat.ro_compat)
		return;
	printf(",\"unknown_features\":[");
	while (*names) {
		comma = strchr(names, ',');
		json_strn(names, comma ? (size_t)(comma - names) : strlen(names));
		if (!comma)
			break;
		printf(",");
		names = comma + 2;
	}
	printf("]");
}

/* The "filesystem" of a JSON object: null for a dump on its own. */
void json_fs(const struct cli *c)
{
	if (c->dump_alone)
		printf("null");
	else
		json_str(c->device);
}

void json_super(const struct recover_super *sb)
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

void json_info(const struct cli *c, const struct recover_super *sb,
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
	json_unknown_features(c);
	json_mmp(c);
	printf("}\n");
}

void report_json(const struct cli *c, const struct recover_super *sb,
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
	printf(",\"copies_written\":%llu,\"superseded\":%llu,"
	       "\"readahead_blocks\":%llu,\"descriptor_copies\":%llu",
	       st->copies_written, st->superseded, st->readahead_blocks,
	       st->desc_copies);
	json_unknown_features(c);
	json_mmp(c);
	printf("}\n");
}
