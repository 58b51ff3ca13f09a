/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * list.c -- -l: the log's transactions, tags, revoke records, fast-commit
 * records and the replay plan, one line (or one JSON object) each.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "librecover.h"
#include "jrecover.h"

/* len bytes of a name in a text line, quoted and escaped (put_escaped()). */
static void text_strn(const char *s, unsigned int len)
{
	putchar('"');
	put_escaped(stdout, s, len, '"');
	putchar('"');
}

/* The names debugfs's logdump gives the fast-commit tags, "?" for none. */
static const char *fc_tag_name(unsigned int tag)
{
	const char *name = recover_fc_tag_name(tag);

	return name ? name : "?";
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
		case RECOVER_FC_TAG_ADD_RANGE:
			printf(",\"inode\":%u,\"lblk\":%u,\"pblk\":%llu,"
			       "\"len\":%llu,\"unwritten\":%s", ev->ino, ev->lblk,
			       ev->fsblock, ev->count,
			       ev->unwritten ? "true" : "false");
			break;
		case RECOVER_FC_TAG_DEL_RANGE:
			printf(",\"inode\":%u,\"lblk\":%u,\"len\":%llu",
			       ev->ino, ev->lblk, ev->count);
			break;
		case RECOVER_FC_TAG_CREAT:
		case RECOVER_FC_TAG_LINK:
		case RECOVER_FC_TAG_UNLINK:
			printf(",\"parent\":%u,\"inode\":%u,\"name\":",
			       ev->parent, ev->ino);
			json_strn(ev->name, ev->name_len);
			break;
		case RECOVER_FC_TAG_INODE:
			printf(",\"inode\":%u", ev->ino);
			break;
		case RECOVER_FC_TAG_HEAD:
			printf(",\"features\":%u", ev->features);
			break;
		}
		printf(",\"valid\":%s}\n", ev->replayed ? "true" : "false");
		return;
	}
	printf("  tag %s", name);
	switch (ev->fc_tag) {
	case RECOVER_FC_TAG_ADD_RANGE:
		printf(", inode %u, lblk %u, pblk %llu, len %llu%s", ev->ino,
		       ev->lblk, ev->fsblock, ev->count,
		       ev->unwritten ? " (unwritten)" : "");
		break;
	case RECOVER_FC_TAG_DEL_RANGE:
		printf(", inode %u, lblk %u, len %llu", ev->ino, ev->lblk,
		       ev->count);
		break;
	case RECOVER_FC_TAG_CREAT:
	case RECOVER_FC_TAG_LINK:
	case RECOVER_FC_TAG_UNLINK:
		printf(", parent %u, ino %u, name ", ev->parent, ev->ino);
		text_strn(ev->name, ev->name_len);
		break;
	case RECOVER_FC_TAG_INODE:
		printf(", inode %u", ev->ino);
		break;
	case RECOVER_FC_TAG_TAIL:
		printf(", tid %u", ev->tid);
		break;
	case RECOVER_FC_TAG_HEAD:
		printf(", features 0x%x, tid %u", ev->features, ev->tid);
		break;
	}
	printf("%s\n", ev->replayed ? "" : " (not valid)");
}

/* -l: what a replay does with a tag (RECOVER_EV_FATE). */
static const char *fate_names[] = { "", "written", "revoked", "superseded",
	"bad_checksum", "unreadable", "past_end", "not_replayed",
	"journal_block" };

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
	case RECOVER_FATE_OWN_JOURNAL:
		printf("a block of the journal itself: the replay refuses the "
		       "log\n");
		break;
	default:
		printf("written\n");
		break;
	}
}

/*
 * An event's JSON object, but for the kinds list_fast() and list_fc_tag()
 * print.
 */
static void json_event(const struct recover_event *ev)
{
	static const char *types[] = { "", "descriptor", "tag", "revoke_block",
				       "revoke", "commit", "end", "fc_block",
				       "fc_tag", "fc_end", "fate" };

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
}

/* A commit block's line, its time in UTC ("?" where gmtime has none). */
static void print_commit(const struct recover_event *ev)
{
	time_t t = (time_t)ev->commit_sec;
	struct tm tm;
	char when[64] = "?";

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("Transaction %u: commit block at journal block %llu, %s (%llu.%09u)%s\n",
	       ev->tid, ev->jblock, when, ev->commit_sec, ev->commit_nsec,
	       ev->replayed ? "" : ", not replayed");
}

/*
 * An event's text line, but for the kinds list_fast() and list_fc_tag()
 * print; the replay plan's first line gets its header.
 */
static void print_event(struct cli *c, const struct recover_event *ev)
{
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
	case RECOVER_EV_COMMIT:
		print_commit(ev);
		break;
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
}

/*
 * recover_walk()'s callback for -l: one event printed, the kinds that come
 * by the million first and by hand (list_fast()).  Non-zero stops the walk.
 */
int list_event(void *data, const struct recover_event *ev)
{
	struct cli *c = data;

	if (interrupted)
		return 1;
	progress_erase(c);
	if (list_fast(c, ev))
		return 0;
	if (ev->type == RECOVER_EV_FC_TAG)
		list_fc_tag(c, ev);
	else if (c->json)
		json_event(ev);
	else
		print_event(c, ev);
	return 0;
}
