/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_journal.c -- the journal a handle works on, opened after the
 * filesystem (lifecycle_open()) and checked before anything reads its log:
 *   - its source opened (source.c: the journal inode, a journal device or
 *     a dump), its superblock read, cleared of what e2fsck clears, and
 *     decoded;
 *   - an external journal device's ext2 superblock and list of users
 *     checked against the filesystem;
 *   - whose journal it is: the filesystem's, a dump of it, or another's;
 *   - which journal superblock the end of a replay resets (r->reset): with
 *     a dump, the filesystem's own journal when it still holds that log.
 * And the one write it makes, at the start of a replay: -f's new checksum
 * of a journal device's ext2 superblock.  Before any write, the journal as
 * the log leaves the filesystem is checked to be the same journal
 * (life_journal_check_left()).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "ext4_fs.h"
#include "ext4_super.h"
#include "fc_io.h"
#include "fc_overlay.h"
#include "life_journal.h"

static int uuid_null(const unsigned char *u)
{
	static const unsigned char zero[16];

	return !memcmp(u, zero, sizeof(zero));
}

/*
 * With a dump: does the filesystem's own internal journal hold the same log
 * (the dump was saved from it and it was not reset since)?  Then the replay
 * of the dump also retires that journal, as e2fsck's replay of it would.
 */
static errcode_t open_own_journal(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	unsigned char *raw;
	errcode_t err;

	if (!ext2fs_has_feature_journal(fs->super) || !fs->super->s_journal_inum ||
	    !r->sb.pub.start)
		return 0;
	if (source_open_inode(&r->own, fs))
		return 0;
	/* Resetting it would also mean rewriting its inode: not a dump's job. */
	if (r->own.from_backup) {
		source_close(&r->own);
		return 0;
	}
	raw = malloc(fs->blocksize);
	if (!raw)
		return ENOMEM;
	err = source_read(&r->own, 0, 1, raw);
	if (err || memcmp(raw, r->jsb_raw, JSB_SIZE)) {
		free(raw);
		return 0;
	}
	r->own_jsb_raw = raw;
	r->reset = &r->own;
	r->reset_jsb = raw;
	r->dump_is_current = 1;
	return 0;
}

/*
 * The ext2 superblock of an external journal device names the filesystem's
 * journal as e2fsck and the kernel read it: its UUID is the filesystem's
 * s_journal_uuid, its checksum (with metadata_csum) holds and its block
 * size is the filesystem's.  A checksum that does not match is the one
 * thing e2fsck lets the user fix (and then rewrites it): with
 * RECOVER_FL_FORCE the replay does the same.
 */
static errcode_t check_jdev_super(struct recover_struct *r)
{
	const unsigned char *jd = r->src.ext2_sb;

	if (memcmp(jd + ES_UUID, r->fs->super->s_journal_uuid, 16))
		return RECOVER_ET_JDEV_UUID;
	if (!ext4_super_csum_ok(jd)) {
		if (!(r->opts.flags & RECOVER_FL_FORCE))
			return RECOVER_ET_JDEV_CSUM;
		r->fix_jdev_csum = 1;
	}
	if (ext4_super_block_size(jd) != r->fs->blocksize)
		return RECOVER_ET_JDEV_BLOCKSIZE;
	return 0;
}

/*
 * The journal superblock of an external journal lists the filesystems
 * using it.  The kernel mounts only with s_nr_users == 1; e2fsck refuses
 * more than one user, but replays with none, or with a list that does not
 * name the filesystem: RECOVER_FL_FORCE does the same.
 */
static errcode_t check_jdev_users(struct recover_struct *r)
{
	const unsigned char *users = r->jsb_raw + JSB_USERS;
	uint32_t nr = r->sb.pub.nr_users;

	if (r->sb.pub.version != 2)
		return 0;
	if (nr > JBD2_USERS_MAX)
		return RECOVER_ET_SB_NR_USERS;
	if (nr > 1)
		return RECOVER_ET_UNSUPP_MULTIFS;
	if ((nr == 0 || memcmp(users, r->fs->super->s_uuid, 16)) &&
	    !(r->opts.flags & RECOVER_FL_FORCE))
		return RECOVER_ET_JDEV_USERS;
	return 0;
}

/*
 * An internal journal has one user.  A version 2 superblock claiming more,
 * on a filesystem without an external journal, holds garbage after
 * s_errno: e2fsck then clears everything after s_errno (its "invalid V2
 * journal superblock fields"), reads the journal as what is left and
 * writes that superblock back.  librecover does the same.  (The kernel
 * ignores s_nr_users of an internal journal.)
 */
static void clear_garbage_fields(struct recover_struct *r)
{
	unsigned char *raw = r->jsb_raw;
	uint32_t nr = get_be32(raw + JSB_NR_USERS);

	/* A dump on its own is a journal inode's contents: internal. */
	if (r->src.external ||
	    (r->fs && !uuid_null(r->fs->super->s_journal_uuid)) ||
	    jbd2_super_version(raw) != 2 || nr <= 1)
		return;
	memset(raw + JSB_V1_SIZE, 0, r->src.blocksize - JSB_V1_SIZE);
	r->garbage_nr_users = nr;
}

errcode_t life_journal_open(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	struct ext2_super_block *es = fs ? fs->super : NULL;
	int rw = !(r->opts.flags & RECOVER_FL_DRY_RUN);
	errcode_t err;

	if (!fs) {
		err = source_open_dump(&r->src, r->journal_path,
				       r->opts.journal_io_manager ?
				       r->opts.journal_io_manager :
				       unix_io_manager);
		if (err)
			return err;
	} else if (r->journal_path) {
		err = source_open_path(&r->src, r->journal_path,
				       r->opts.journal_io_manager ?
				       r->opts.journal_io_manager :
				       unix_io_manager, fs->blocksize, rw);
		if (!err && r->src.external)
			err = check_jdev_super(r);
		if (err)
			return err;
	} else {
		/*
		 * No has_journal, but needs_recovery and a journal inode:
		 * opened, so that -i, -l and a save can read its log; a
		 * replay refuses it (RECOVER_ET_JOURNAL_FLAG_CLEAR).
		 */
		if (!ext2fs_has_feature_journal(es) &&
		    (!r->needs_recovery || !es->s_journal_inum ||
		     !uuid_null(es->s_journal_uuid)))
			return RECOVER_ET_NO_JOURNAL;
		r->flag_clear_log = !ext2fs_has_feature_journal(es);
		/* A journal UUID names an external journal, whatever
		 * s_journal_inum says: e2fsck looks for that device ("Can't
		 * find external journal") and never reads inode 8 then. */
		if (!uuid_null(es->s_journal_uuid))
			return RECOVER_ET_NEED_EXT_JOURNAL;
		err = source_open_inode(&r->src, fs);
		if (err)
			return r->flag_clear_log ? RECOVER_ET_NO_JOURNAL : err;
		r->journal_inode_backup = r->src.from_backup;
	}

	r->jsb_raw = malloc(r->src.blocksize);
	if (!r->jsb_raw)
		return ENOMEM;
	err = source_read(&r->src, r->src.sb_block, 1, r->jsb_raw);
	if (err == RECOVER_ET_DUMP_END)
		return RECOVER_ET_DUMP_SIZE;
	if (err)
		return err == RECOVER_ET_JOURNAL_SHORT ? err : RECOVER_ET_LOG_IO;
	clear_garbage_fields(r);
	err = jbd2_decode_super(r->jsb_raw, r->src.blocksize, &r->sb);
	if (r->flag_clear_log && (err || !r->sb.pub.start))
		return RECOVER_ET_NO_JOURNAL;
	if (err)
		return err;
	r->sb.pub.source = r->src.kind;
	err = jbd2_check_geometry(&r->sb, r->src.blocks,
				  r->src.may_end_early);
	if (err)
		return err;
	if (r->src.external) {
		err = check_jdev_users(r);
		if (err)
			return err;
	} else if (r->sb.pub.nr_users > JBD2_USERS_MAX) {
		return RECOVER_ET_SB_NR_USERS;
	} else if (r->sb.pub.nr_users > 1) {
		return RECOVER_ET_UNSUPP_MULTIFS;
	}

	/* Is this journal the filesystem's? */
	if (!fs)
		return 0;
	if (r->src.external &&
	    memcmp(r->sb.pub.uuid, es->s_journal_uuid, 16) &&
	    !(r->opts.flags & RECOVER_FL_FOREIGN_JOURNAL))
		return RECOVER_ET_EXT_JOURNAL_UUID;
	if (r->src.fs_journal) {
		r->reset = &r->src;
		r->reset_jsb = r->jsb_raw;
		return 0;
	}
	/* A copy names the filesystem, or the journal it was saved from. */
	if (memcmp(r->sb.pub.uuid, es->s_uuid, 16) &&
	    memcmp(r->sb.pub.uuid, es->s_journal_uuid, 16) &&
	    !(r->opts.flags & RECOVER_FL_FOREIGN_JOURNAL))
		return RECOVER_ET_DUMP_MISMATCH;
	return open_own_journal(r);
}

/*
 * -f on a journal device whose ext2 superblock checksum is wrong: e2fsck's
 * fix, a new checksum, written before anything else.
 */
errcode_t life_journal_fix_jdev_csum(struct recover_struct *r)
{
	unsigned int bs = r->src.blocksize;
	blk64_t blk = SUPERBLOCK_OFFSET / bs;
	unsigned char *buf, *jd;
	errcode_t err;

	buf = malloc(bs);
	if (!buf)
		return ENOMEM;
	err = io_channel_read_blk64(r->src.io, blk, 1, buf);
	if (!err) {
		jd = buf + SUPERBLOCK_OFFSET % bs;
		ext4_super_set_csum(jd);
		err = io_channel_write_blk64(r->src.io, blk, 1, buf);
	}
	if (!err)
		err = io_channel_flush(r->src.io);
	if (!err)
		r->fix_jdev_csum = 0;
	free(buf);
	return err;
}

/*
 * e2fsck writes the inode it built from the superblock's backup over the
 * journal inode as soon as it has found the backup usable, before it
 * replays anything (e2fsck_get_journal()): the replay may then overwrite
 * it again with a logged copy of its inode table block.
 */
errcode_t life_journal_restore_inode(struct recover_struct *r)
{
	errcode_t err;

	if (!r->src.from_backup || r->inode_restored)
		return 0;
	r->wrote = 1;
	err = ext2fs_write_inode(r->fs, r->src.ino, &r->src.backup_inode);
	if (err)
		return err;
	r->inode_restored = 1;
	return 0;
}

/* Is blk one of the n sorted blocks of v? */
static int in_sorted(const uint64_t *v, size_t n, uint64_t blk)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == blk;
}

/* Does the replay write a copy of one of the n blocks of want (or, when
 * tree is given, of the ntree sorted blocks of tree)? */
static int log_writes(const struct pass_log *pl, const uint64_t *want,
		      size_t n, const uint64_t *tree, size_t ntree)
{
	size_t i, k;

	for (i = 0; i < pl->tags->n; i++) {
		const struct jtag *t = &pl->tags->v[i];
		int hit = tree && in_sorted(tree, ntree, t->fsblk);

		for (k = 0; !hit && k < n; k++)
			hit = t->fsblk == want[k];
		if (hit && !pass_revoked(pl->revoke, t))
			return 1;
	}
	return 0;
}

/* The block of fs holding inode ino's on-disk copy (0 if out of range). */
static uint64_t inode_block(ext2_filsys fs, ext2_ino_t ino)
{
	unsigned long ipg = fs->super->s_inodes_per_group;
	dgrp_t g;

	if (!ino || !ipg || ino > fs->group_desc_count * ipg)
		return 0;
	g = (ino - 1) / ipg;
	return ext2fs_inode_table_loc(fs, g) +
	       (uint64_t)((ino - 1) % ipg) * EXT2_INODE_SIZE(fs->super) /
	       fs->blocksize;
}

/* Do the two sources map the journal to the same blocks? */
static int same_map(const struct jsource *a, const struct jsource *b)
{
	return a->blocks == b->blocks && a->nruns == b->nruns &&
	       a->sb_block == b->sb_block &&
	       (!a->nruns ||
		!memcmp(a->runs, b->runs, a->nruns * sizeof(*a->runs)));
}

/*
 * The journal on the view vfs of the filesystem as the log leaves it: the
 * journal this replay reads, named and mapped as the filesystem names and
 * maps it now?
 */
static errcode_t check_view(struct recover_struct *r, ext2_filsys vfs,
			    const struct pass_log *pl)
{
	struct ext2_super_block *es = r->fs->super, *vs = vfs->super;
	struct jsource v;
	uint64_t blk;
	errcode_t err;
	int same;

	if (vfs->blocksize != r->fs->blocksize ||
	    !ext2fs_has_feature_journal(vs))
		return RECOVER_ET_LOG_MOVES_JOURNAL;
	if (r->src.external)
		return memcmp(vs->s_journal_uuid, es->s_journal_uuid, 16) ?
		       RECOVER_ET_LOG_MOVES_JOURNAL : 0;
	if (vs->s_journal_inum != es->s_journal_inum ||
	    !uuid_null(vs->s_journal_uuid))
		return RECOVER_ET_LOG_MOVES_JOURNAL;
	err = source_open_inode(&v, vfs);
	if (err)
		return err == ENOMEM ? err : RECOVER_ET_LOG_MOVES_JOURNAL;
	same = same_map(&v, &r->src);
	/*
	 * An inode e2fsck finds invalid after the replay it rebuilds from the
	 * backup again; this replay rebuilt it before the log only, which is
	 * the same when the log leaves the inode's block alone.
	 */
	if (same && v.from_backup) {
		blk = inode_block(vfs, v.ino);
		same = r->src.from_backup && blk &&
		       !log_writes(pl, &blk, 1, NULL, 0);
	}
	source_close(&v);
	return same ? 0 : RECOVER_ET_LOG_MOVES_JOURNAL;
}

/*
 * e2fsck opens the filesystem again after its replay and checks the journal
 * once more, under the superblock and the journal inode the log left.  A
 * log that rewrites them to describe another journal (one copied whole from
 * another filesystem into this one's journal inode brings that
 * filesystem's superblock, group descriptors and inode table with it)
 * leaves a journal e2fsck finds invalid: it deletes the journal and checks
 * the whole filesystem, which a replay alone cannot match.  Refused before
 * anything is written.  Only when the log writes a block that names the
 * journal (the superblock's, the first group descriptors', the journal
 * inode's, its block map's) is the view of the filesystem as the log leaves
 * it (fc_overlay.c) opened and the journal looked up again there.
 * Inside e2fsck (recover_fsck_replay()) the check is e2fsck's own, made
 * after the replay as ever: the library replays such a log as e2fsck's
 * own code would (e2fsprogs' j_long_trans tests are such logs).
 */
errcode_t life_journal_check_left(struct recover_struct *r,
				  const struct pass_log *pl)
{
	ext2_filsys fs = r->fs;
	struct fc_overlay *o = NULL;
	ext2_filsys vfs = NULL;
	uint64_t want[3], sb;
	size_t n = 0;
	errcode_t err;

	if (!fs || r->fsck || !r->src.fs_journal || !pl->tags->n)
		return 0;
	/* With a backup superblock (-b), e2fsck opens the filesystem at it
	 * again after its replay. */
	sb = r->backup_sb ? r->backup_sb * r->backup_bs / fs->blocksize :
	     SUPERBLOCK_OFFSET / fs->blocksize;
	want[n++] = sb;
	if (!r->src.external) {
		want[n++] = ext2fs_descriptor_block_loc2(fs,
				r->backup_sb ? sb : fs->super->s_first_data_block,
				0);
		want[n] = inode_block(fs, r->src.ino);
		n += want[n] != 0;
	}
	if (!log_writes(pl, want, n, r->src.external ? NULL : r->src.tree,
			r->src.ntree))
		return 0;
	err = fc_overlay_new(pl, fs, &o);
	if (!err) {
		/* FORCE: features libext2fs does not know are judged at the
		 * open of the filesystem (check_features()), not here, where
		 * only the journal inode is read (dirdata, on every Lustre
		 * MDT, is one). */
		err = fc_io_open(o, EXT2_FLAG_64BITS | EXT2_FLAG_FORCE |
				 EXT2_FLAG_IGNORE_CSUM_ERRORS |
				 EXT2_FLAG_MASTER_SB_ONLY, r->backup_sb,
				 r->backup_bs, &vfs);
		/* e2fsck's own open of it fails: it stops, the log replayed. */
		if (err && err != ENOMEM)
			err = RECOVER_ET_LOG_MOVES_JOURNAL;
	}
	if (!err)
		err = check_view(r, vfs, pl);
	if (vfs)
		ext2fs_free(vfs);
	fc_overlay_free(o);
	return err;
}
