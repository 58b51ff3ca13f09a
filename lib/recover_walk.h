/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recover_walk.h -- part of <librecover.h>, which includes it: recover_walk(): the events of a scan, the fates of the logged copies
 * and the fast-commit tags.
 * Include <librecover.h>, not this file.
 */
#ifndef RECOVER_WALK_H
#define RECOVER_WALK_H

#ifndef LIBRECOVER_H
#error "include <librecover.h>, not <recover_walk.h>"
#endif

/* One thing the scan found in the log, in log order (see recover_walk()). */
enum recover_event_type {
	RECOVER_EV_DESCRIPTOR = 1, /* jblock, tid, count = tags */
	RECOVER_EV_TAG,		/* jblock = its data block, fsblock, flags, tid */
	RECOVER_EV_REVOKE_BLOCK, /* jblock, tid, count = records */
	RECOVER_EV_REVOKE,	/* fsblock revoked at tid; jblock of its block */
	RECOVER_EV_COMMIT,	/* jblock, tid, commit_sec/nsec, replayed */
	RECOVER_EV_END,		/* jblock where the scan stopped, tid it expected,
				 * end = why */
	RECOVER_EV_FC_BLOCK,	/* a fast-commit block: jblock, tid expected */
	RECOVER_EV_FC_TAG,	/* a fast-commit record: jblock, fc_tag and its
				 * fields, replayed = it is valid */
	RECOVER_EV_FC_END,	/* jblock where the area's scan stopped, tid
				 * expected, fc_end = why, count = valid records */
	RECOVER_EV_FATE,	/* a tag of a replayed transaction, as for
				 * RECOVER_EV_TAG, and fate: what a replay
				 * does with it */
};

/*
 * The tag of a fast-commit record, as the area stores it (the fc_tag of a
 * RECOVER_EV_FC_TAG event); recover_fc_tag_name() names each.
 */
enum recover_fc_tag {
	RECOVER_FC_TAG_ADD_RANGE = 1,	/* an extent mapped into an inode */
	RECOVER_FC_TAG_DEL_RANGE = 2,	/* logical blocks of an inode unmapped */
	RECOVER_FC_TAG_CREAT = 3,	/* a new inode's first name */
	RECOVER_FC_TAG_LINK = 4,	/* one more name of an inode */
	RECOVER_FC_TAG_UNLINK = 5,	/* a name removed */
	RECOVER_FC_TAG_INODE = 6,	/* the inode as it is on disk */
	RECOVER_FC_TAG_PAD = 7,		/* filler to the end of the block */
	RECOVER_FC_TAG_TAIL = 8,	/* ends one fast commit: tid, crc */
	RECOVER_FC_TAG_HEAD = 9		/* starts the area: features, tid */
};

/*
 * What a replay does with one logged copy (RECOVER_EV_FATE).  A replay
 * writes the copies of the replayed transactions in log order, so of the
 * copies of one filesystem block that are written, the last one stays.
 */
enum recover_fate {
	RECOVER_FATE_NONE = 0,	/* not a RECOVER_EV_FATE event */
	RECOVER_FATE_WRITTEN,	/* written, and what the block holds after */
	RECOVER_FATE_REVOKED,	/* cancelled by a revoke record of
				 * transaction fate_tid (the latest one) */
	RECOVER_FATE_SUPERSEDED, /* written, then overwritten by the copy at
				 * journal block fate_jblock, of fate_tid */
	RECOVER_FATE_BAD_CSUM,	/* skipped: its data checksum fails */
	RECOVER_FATE_UNREADABLE, /* skipped: its journal block cannot be read */
	RECOVER_FATE_PAST_END,	/* names a block past the filesystem's end:
				 * the replay refuses the whole log */
	RECOVER_FATE_NOT_REPLAYED, /* recovery fails (recover_stats.error):
				 * nothing of the log is written */
	RECOVER_FATE_OWN_JOURNAL, /* names a block of the internal journal
				 * itself, its log or its block map (not its
				 * superblock): the replay refuses the whole
				 * log (RECOVER_ET_TAG_OWN_JOURNAL) */
};

struct recover_event {
	size_t		size;		/* the library's sizeof, see above */
	enum recover_event_type type;
	unsigned int	tid;
	unsigned long long jblock;
	unsigned long long fsblock;
	unsigned long long count;
	unsigned int	flags;		/* tag flags */
	unsigned long long commit_sec;
	unsigned int	commit_nsec;
	int		replayed;	/* commit: the transaction is replayed */
	enum recover_end end;

	/*
	 * RECOVER_EV_FC_TAG: the record's tag (enum recover_fc_tag; a
	 * number outside it is a record the scan does not know) and its
	 * fields: tid (HEAD, TAIL; else the tid expected), ino (ranges,
	 * INODE, names), parent (names), lblk, count = blocks (ranges),
	 * fsblock = first physical block and unwritten (ADD_RANGE), features
	 * (HEAD), name and name_len (names: the bytes as stored, not
	 * NUL-terminated, valid only during the call).
	 */
	unsigned int	fc_tag;
	unsigned int	ino;
	unsigned int	parent;
	unsigned int	lblk;
	unsigned int	features;
	int		unwritten;
	const char	*name;
	unsigned int	name_len;
	enum recover_fc_end fc_end;	/* RECOVER_EV_FC_END */
	enum recover_fate fate;		/* RECOVER_EV_FATE */
	unsigned int	fate_tid;	/* REVOKED, SUPERSEDED: see above */
	unsigned long long fate_jblock;	/* SUPERSEDED: the copy written last */
	/* RECOVER_EV_FATE: nonzero when no filesystem is known
	 * (recover_open_journal()), so that PAST_END cannot be told */
	int		no_filesystem;
};

/* Returns nonzero to stop the walk (RECOVER_ET_INTERRUPTED). */
typedef int (*recover_event_fn)(void *data, const struct recover_event *ev);

/*
 * recover_walk - recover_scan(), calling fn for every descriptor, tag,
 * revoke block, revoke record and commit block as the scan meets them;
 * then, once the scan is over and the fates are known, once for every tag
 * of the replayed transactions, in log order (RECOVER_EV_FATE: what a
 * replay would do with it; the data blocks not revoked are read once
 * more, in order, as the replay reads them); then once at the end.  Streams:
 * nothing is held back for the calls beyond the tags the scan keeps.
 * Returns: as recover_scan(); RECOVER_ET_ALREADY_DONE if the journal was
 * scanned already.
 */
errcode_t recover_walk(recover_t r, recover_event_fn fn, void *data);

/*
 * recover_fc_tag_name - the name of a fast-commit tag (enum
 * recover_fc_tag), as debugfs's logdump prints it: "ADD_RANGE",
 * "DEL_RANGE", "CREAT_DENTRY", "ADD_ENTRY", "DEL_ENTRY", "INODE", "PAD",
 * "TAIL", "HEAD".
 * Returns: the name (static storage), or NULL for a number that is no tag.
 */
const char *recover_fc_tag_name(unsigned int tag);

#endif /* RECOVER_WALK_H */
