/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_journal.h -- opening the journal a handle works on, and checking it
 * against the filesystem (life_journal.c).
 */
#ifndef LIFE_JOURNAL_H
#define LIFE_JOURNAL_H

#include <ext2fs/ext2fs.h>

struct recover_struct;

/*
 * After the filesystem (r->fs, or none for a dump on its own): the journal
 * opened from r->journal_path or the filesystem's inode, its superblock
 * read into r->jsb_raw and decoded into r->sb, checked as e2fsck checks it
 * and matched to the filesystem; r->reset names the journal a replay
 * resets.  r->fix_jdev_csum is set when RECOVER_FL_FORCE lets a journal
 * device's bad ext2 superblock checksum through.
 */
errcode_t life_journal_open(struct recover_struct *r);
/* That checksum rewritten and flushed (the first write of a replay). */
errcode_t life_journal_fix_jdev_csum(struct recover_struct *r);
/* A journal inode read through the superblock's backup of its block map,
 * rewritten from that backup (once), as e2fsck does before it replays. */
errcode_t life_journal_restore_inode(struct recover_struct *r);

/*
 * Before anything is written: the superblock and journal inode the log
 * leaves (pl's tags) still name and map this journal, as e2fsck's check
 * after its replay needs; else RECOVER_ET_LOG_MOVES_JOURNAL.
 */
struct pass_log;
errcode_t life_journal_check_left(struct recover_struct *r,
				  const struct pass_log *pl);

#endif /* LIFE_JOURNAL_H */
