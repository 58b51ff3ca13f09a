/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsckreplay -- recover_fsck_replay() the way an fsck tool calls it, for
 * tests/integration/fsckreplay.sh: the filesystem opened read-write with
 * ext2fs_open2() through libext2fs's undo io manager (as e2fsck -z does),
 * the replay on that handle, and then the tool's own part, done here the
 * way e2fsck does it around its replay: the handle freed without writing
 * it back, reopened through the same manager, the lifetime writes counted,
 * needs_recovery cleared, the state "not clean" after a failed recovery,
 * and the journal's s_errno carried into EXT2_ERROR_FS and cleared.
 *
 * usage: fsckreplay [-j JDEV] [-z UNDO] IMAGE
 * Prints, on standard output:
 *   skipped TYPE JBLOCK FSBLOCK TID      for each copy the replay skips
 *   errnum N failed_commit F tid T outcome O transactions X
 * Exit status: 0 done, 8 an error (printed on standard error).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include <librecover.h>

#define OPEN_FLAGS	(EXT2_FLAG_RW | EXT2_FLAG_64BITS | \
			 EXT2_FLAG_IGNORE_CSUM_ERRORS)
#define JSB_ERRNO	0x20
#define JSB_FEATURE_COMPAT 0x24
#define JSB_FEATURE_INCOMPAT 0x28
#define JSB_CHECKSUM	0xfc

static const char *prog = "fsckreplay";

static int skipped(void *data, const struct recover_event *ev)
{
	(void)data;
	printf("skipped %s %llu %llu %u\n",
	       ev->fate == RECOVER_FATE_BAD_CSUM ? "bad_csum" : "unreadable",
	       ev->jblock, ev->fsblock, ev->tid);
	return 0;
}

static unsigned int be32(const unsigned char *p)
{
	return (unsigned int)p[0] << 24 | (unsigned int)p[1] << 16 |
	       (unsigned int)p[2] << 8 | p[3];
}

/*
 * The journal superblock's s_errno: carried into the filesystem's state
 * and cleared, as e2fsck's last check of the journal does.  The block is
 * read and written through fs (journal inode) or a channel of its own
 * (external device).
 */
static errcode_t carry_errno(ext2_filsys fs, const char *jdev)
{
	unsigned char *buf;
	io_channel io = NULL;
	blk64_t blk = 0;
	errcode_t err;

	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	if (jdev) {
		err = unix_io_manager->open(jdev, IO_FLAG_RW, &io);
		if (!err)
			err = io_channel_set_blksize(io, fs->blocksize);
		blk = ext2fs_journal_sb_start(fs->blocksize);
	} else {
		err = ext2fs_bmap2(fs, fs->super->s_journal_inum, NULL, NULL,
				   0, 0, NULL, &blk);
		io = fs->io;
	}
	if (!err)
		err = io_channel_read_blk64(io, blk, 1, buf);
	if (!err && be32(buf + JSB_ERRNO)) {
		unsigned int crc;

		fs->super->s_state |= EXT2_ERROR_FS;
		ext2fs_mark_super_dirty(fs);
		memset(buf + JSB_ERRNO, 0, 4);
		/* csum v2/v3: crc32c of the 1024 bytes, s_checksum zero */
		if (be32(buf + JSB_FEATURE_INCOMPAT) & 0x18) {
			memset(buf + JSB_CHECKSUM, 0, 4);
			crc = ext2fs_crc32c_le(~0U, buf, 1024);
			buf[JSB_CHECKSUM] = crc >> 24;
			buf[JSB_CHECKSUM + 1] = crc >> 16;
			buf[JSB_CHECKSUM + 2] = crc >> 8;
			buf[JSB_CHECKSUM + 3] = crc;
		}
		err = io_channel_write_blk64(io, blk, 1, buf);
		if (!err)
			err = io_channel_flush(io);
	}
	if (jdev && io)
		io_channel_close(io);
	ext2fs_free_mem(&buf);
	return err;
}

int main(int argc, char **argv)
{
	struct recover_fsck f = RECOVER_INIT(struct recover_fsck);
	const char *jdev = NULL, *image;
	char *undo = NULL;
	io_manager manager = unix_io_manager;
	io_stats stats = NULL;
	unsigned long long kbytes = 0;
	ext2_filsys fs;
	errcode_t err;
	int c;

	while ((c = getopt(argc, argv, "j:z:")) != -1) {
		switch (c) {
		case 'j': jdev = optarg; break;
		case 'z': undo = optarg; break;
		default: return 16;
		}
	}
	if (optind != argc - 1)
		return 16;
	image = argv[optind];
	initialize_ext2_error_table();
	initialize_rcvr_error_table();
	if (undo) {
		set_undo_io_backing_manager(unix_io_manager);
		set_undo_io_backup_file(undo);
		manager = undo_io_manager;
	}
	err = ext2fs_open2(image, NULL, OPEN_FLAGS, 0, 0, manager, &fs);
	if (err) {
		com_err(prog, err, "while opening %s", image);
		return 8;
	}
	if (!ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		printf("clean\n");
		ext2fs_close_free(&fs);
		return 0;
	}
	f.journal_path = jdev;
	f.skipped = skipped;
	err = recover_fsck_replay(fs, &f);
	if (err) {
		com_err(prog, err, "while recovering the journal of %s", image);
		fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
		ext2fs_close_free(&fs);
		return 8;
	}
	printf("errnum %d failed_commit %d tid %u outcome %d transactions %llu\n",
	       f.errnum, f.failed_commit, f.failed_tid, (int)f.outcome,
	       f.transactions);

	/* e2fsck's part: the stale handle goes, unwritten; a new one. */
	if (fs->super->s_kbytes_written && fs->io->manager->get_stats)
		fs->io->manager->get_stats(fs->io, &stats);
	if (stats && stats->bytes_written)
		kbytes = stats->bytes_written >> 10;
	ext2fs_free(fs);
	err = ext2fs_open2(image, NULL, OPEN_FLAGS, 0, 0, manager, &fs);
	if (err) {
		com_err(prog, err, "while reopening %s", image);
		return 8;
	}
	fs->flags |= EXT2_FLAG_MASTER_SB_ONLY;
	fs->super->s_kbytes_written += kbytes;
	ext2fs_clear_feature_journal_needs_recovery(fs->super);
	if (f.errnum)
		fs->super->s_state &= ~EXT2_VALID_FS;
	ext2fs_mark_super_dirty(fs);
	err = carry_errno(fs, jdev);
	if (err) {
		com_err(prog, err, "while checking the journal of %s", image);
		ext2fs_close_free(&fs);
		return 8;
	}
	err = ext2fs_close_free(&fs);
	if (err) {
		com_err(prog, err, "while closing %s", image);
		return 8;
	}
	return 0;
}
