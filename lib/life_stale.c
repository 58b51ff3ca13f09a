/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_stale.c -- is a saved journal (a dump) older than the filesystem it
 * is replayed into?  A dump replayed onto a filesystem that was mounted,
 * checked or written since the dump's log was written puts the log's old
 * blocks back over everything done since.
 *
 * What a check can go on:
 *   - the record that recover_save() appends to a dump it saves from a
 *     filesystem's journal (below): the filesystem's UUID, its mount and
 *     write times, mount count and kbytes written at the save, and the
 *     SHA-256, s_sequence and s_start of its own journal's superblock;
 *     any of these changed since means the filesystem changed since;
 *   - without that record (a dump saved by another tool, or of another
 *     filesystem): the times.  The filesystem's last mount or write time
 *     later than the last commit time the log carries means it was used
 *     after the log was written; and its own journal, when it has one
 *     that is not the dump's, with an s_sequence before the dump's (a
 *     journal made anew) or past the dump's end (a journal used since).
 *
 * The record is one journal block after the journal's own blocks, at the
 * dump's end: readers of plain dumps (debugfs logdump -f, jrecover) go by
 * the journal superblock's s_maxlen and never read it.  Its layout, all
 * big-endian like the journal's:
 *	0	"jrecover-facts\0\0"		16 bytes
 *	16	version (1)			be32
 *	20	length of the record (128)	be32
 *	24	filesystem UUID			16 bytes
 *	40	s_mtime (with its high bits)	be64
 *	48	s_wtime (with its high bits)	be64
 *	56	s_kbytes_written		be64
 *	64	s_mnt_count			be32
 *	68	own journal: 1 internal, 2 external, 0 none or unreadable
 *	72	its s_sequence			be32
 *	76	its s_start			be32
 *	80	SHA-256 of its superblock's first 1024 bytes
 *	112	reserved, zero			12 bytes
 *	124	crc32c of bytes 0-123		be32
 * The rest of the block is zero.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "life_stale.h"
#include "sha256.h"

#define FACTS_MAGIC		"jrecover-facts\0"
#define FACTS_VERSION		1
#define FACTS_SIZE		128
#define F_VERSION		16
#define F_LENGTH		20
#define F_UUID			24
#define F_MTIME			40
#define F_WTIME			48
#define F_KBYTES		56
#define F_MNT_COUNT		64
#define F_OWN			68
#define F_OWN_SEQUENCE		72
#define F_OWN_START		76
#define F_OWN_SHA		80
#define F_CRC			124

static void put_be64(unsigned char *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static uint64_t fs_mtime(const struct ext2_super_block *es)
{
	return (uint64_t)es->s_mtime_hi << 32 | es->s_mtime;
}

static uint64_t fs_wtime(const struct ext2_super_block *es)
{
	return (uint64_t)es->s_wtime_hi << 32 | es->s_wtime;
}

/* What the filesystem's own journal superblock says (kind 0: none). */
struct own_journal {
	int		kind;		/* 1 internal, 2 external (known) */
	uint32_t	sequence, start;
	unsigned char	sha[SHA256_LENGTH];
};

static void own_from_raw(struct own_journal *o, int kind,
			 const unsigned char *raw)
{
	struct sha256 s;

	o->kind = kind;
	o->sequence = get_be32(raw + JSB_SEQUENCE);
	o->start = get_be32(raw + JSB_START);
	sha256_init(&s);
	sha256_update(&s, raw, JSB_SIZE);
	sha256_final(&s, o->sha);
}

/* The filesystem's internal journal, read for its superblock alone. */
static void read_own_internal(struct recover_struct *r, struct own_journal *o)
{
	struct jsource js;
	unsigned char *raw;

	memset(o, 0, sizeof(*o));
	if (!ext2fs_has_feature_journal(r->fs->super) ||
	    !r->fs->super->s_journal_inum)
		return;
	raw = malloc(r->fs->blocksize);
	if (!raw)
		return;
	if (!source_open_inode(&js, r->fs)) {
		if (!source_read(&js, 0, 1, raw) && jbd2_super_version(raw))
			own_from_raw(o, 1, raw);
		source_close(&js);
	}
	free(raw);
}

void life_stale_facts(struct recover_struct *r, unsigned char *blk)
{
	const struct ext2_super_block *es = r->fs->super;
	struct own_journal o;

	memset(blk, 0, r->src.blocksize);
	memcpy(blk, FACTS_MAGIC, 16);
	put_be32(blk + F_VERSION, FACTS_VERSION);
	put_be32(blk + F_LENGTH, FACTS_SIZE);
	memcpy(blk + F_UUID, es->s_uuid, 16);
	put_be64(blk + F_MTIME, fs_mtime(es));
	put_be64(blk + F_WTIME, fs_wtime(es));
	put_be64(blk + F_KBYTES, es->s_kbytes_written);
	put_be32(blk + F_MNT_COUNT, es->s_mnt_count);
	/* The journal being saved is the filesystem's own. */
	own_from_raw(&o, r->src.external ? 2 : 1, r->jsb_raw);
	put_be32(blk + F_OWN, (uint32_t)o.kind);
	put_be32(blk + F_OWN_SEQUENCE, o.sequence);
	put_be32(blk + F_OWN_START, o.start);
	memcpy(blk + F_OWN_SHA, o.sha, SHA256_LENGTH);
	put_be32(blk + F_CRC, crc32c_update(~0U, blk, F_CRC));
}

/* The record at the dump's last block, if there is one: 1, and blk holds it. */
static int read_facts(struct recover_struct *r, unsigned char *blk)
{
	uint64_t last;

	if (r->src.kind != RECOVER_SRC_DUMP || r->src.blocks <= r->sb.pub.maxlen)
		return 0;
	last = r->src.blocks - 1;
	if (source_read(&r->src, last, 1, blk))
		return 0;
	return !memcmp(blk, FACTS_MAGIC, 16) &&
	       get_be32(blk + F_VERSION) == FACTS_VERSION &&
	       get_be32(blk + F_LENGTH) >= FACTS_SIZE &&
	       get_be32(blk + F_CRC) == crc32c_update(~0U, blk, F_CRC);
}

/*
 * h_commit_sec as a time: the kernel stores seconds; debugfs's journal
 * writer stores them shifted up by 32 bits (the low half zero), which is
 * read back as such and said so (RECOVER_STALE_SHIFTED).  0: no time.
 */
static uint64_t commit_time(struct recover_struct *r)
{
	uint64_t sec = r->scan.last_commit_sec;

	if (sec > 0xffffffffULL && !(sec & 0xffffffffULL)) {
		r->stale.checks |= RECOVER_STALE_SHIFTED;
		return sec >> 32;
	}
	return sec;
}

static void check_times(struct recover_struct *r)
{
	const struct ext2_super_block *es = r->fs->super;
	uint64_t t = commit_time(r);
	uint64_t fs_t = fs_mtime(es) > fs_wtime(es) ? fs_mtime(es) : fs_wtime(es);

	r->stale.log_time = t;
	r->stale.fs_time = fs_t;
	if (!t)
		return;
	r->stale.checks |= RECOVER_STALE_TIME;
	if (fs_t > t)
		r->stale.found |= RECOVER_STALE_TIME;
}

errcode_t life_stale_check(struct recover_struct *r)
{
	const struct ext2_super_block *es = r->fs->super;
	unsigned char *blk;
	struct own_journal o;
	int facts;

	r->stale.checks = r->stale.found = 0;
	if (r->src.kind != RECOVER_SRC_DUMP)
		return 0;
	r->stale.fs_wtime = fs_wtime(es);
	r->stale.fs_mnt_count = es->s_mnt_count;
	blk = malloc(r->src.blocksize);
	if (!blk)
		return ENOMEM;
	facts = read_facts(r, blk) && !memcmp(blk + F_UUID, es->s_uuid, 16);
	read_own_internal(r, &o);
	if (facts) {
		int own = (int)get_be32(blk + F_OWN);

		r->stale.checks |= RECOVER_STALE_FACTS | RECOVER_STALE_MOUNT |
				      RECOVER_STALE_WRITE;
		r->stale.saved_wtime = get_be64(blk + F_WTIME);
		r->stale.saved_mnt_count = get_be32(blk + F_MNT_COUNT);
		if (get_be64(blk + F_MTIME) != fs_mtime(es) ||
		    get_be32(blk + F_MNT_COUNT) != es->s_mnt_count)
			r->stale.found |= RECOVER_STALE_MOUNT;
		if (get_be64(blk + F_WTIME) != fs_wtime(es) ||
		    get_be64(blk + F_KBYTES) != es->s_kbytes_written)
			r->stale.found |= RECOVER_STALE_WRITE;
		/* An external journal is not read here: no check of it. */
		if (own != 2 && o.kind != 2) {
			r->stale.checks |= RECOVER_STALE_JOURNAL;
			if (own != o.kind ||
			    (own && memcmp(blk + F_OWN_SHA, o.sha, SHA256_LENGTH)))
				r->stale.found |= RECOVER_STALE_JOURNAL;
		}
	} else if (o.kind == 1) {
		/* Its own journal, when it is not the dump's log. */
		struct own_journal d;

		own_from_raw(&d, 1, r->jsb_raw);
		if (memcmp(d.sha, o.sha, SHA256_LENGTH)) {
			uint32_t first = r->sb.pub.sequence, end = r->scan.end_tid;

			r->stale.checks |= RECOVER_STALE_SEQUENCE;
			r->stale.own_sequence = o.sequence;
			/* Sequence numbers wrap: compared as differences. */
			if ((int32_t)(o.sequence - first) < 0 ||
			    (int32_t)(o.sequence - end) > 0)
				r->stale.found |= RECOVER_STALE_SEQUENCE;
		}
	}
	check_times(r);
	/* The record knows better than the times: a dump saved from the
	 * filesystem as it is now is current whatever its log's clock. */
	if (facts && !(r->stale.found & ~RECOVER_STALE_TIME))
		r->stale.found &= ~RECOVER_STALE_TIME;
	free(blk);
	if (r->stale.found && !(r->opts.flags & RECOVER_FL_STALE_DUMP))
		return RECOVER_ET_STALE_DUMP;
	return 0;
}
