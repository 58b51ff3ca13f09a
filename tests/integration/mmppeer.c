/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mmppeer -- play another node on a filesystem with multi-mount
 * protection, for tests/integration/mmp.sh.
 *
 * usage: mmppeer IMAGE set SEQ [NODE [DEVICE]]
 *            write the MMP block once with sequence SEQ (decimal or 0x...),
 *            the current time and, when given, NODE and DEVICE as the
 *            names of the node and device holding the filesystem
 *        mmppeer IMAGE live NODE DEVICE
 *            act as a node that has the filesystem mounted: write a new
 *            sequence every second, as the kernel's MMP thread does, until
 *            SIGTERM; "live" is printed after the first write
 *        mmppeer IMAGE block N
 *            make the superblock's s_mmp_block N (to test a bad MMP block
 *            number); nothing else changes
 *
 * Only the MMP block is written, through libext2fs (ext2fs_mmp_read and
 * ext2fs_mmp_write, which also sets its checksum); the filesystem is opened
 * without MMP and its superblock is never written back.
 * Exit status: 0, or 1 on an error.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void set_name(unsigned char *dst, size_t size, const char *src)
{
	memset(dst, 0, size);
	memcpy(dst, src, strlen(src) < size ? strlen(src) : size);
}

static errcode_t put(ext2_filsys fs, struct mmp_struct *mmp, unsigned int seq,
		     const char *node, const char *dev)
{
	mmp->mmp_seq = seq;
	if (node)
		set_name(mmp->mmp_nodename, sizeof(mmp->mmp_nodename), node);
	if (dev)
		set_name(mmp->mmp_bdevname, sizeof(mmp->mmp_bdevname), dev);
	return ext2fs_mmp_write(fs, fs->super->s_mmp_block, mmp);
}

int main(int argc, char **argv)
{
	ext2_filsys fs = NULL;
	struct mmp_struct *mmp = NULL;
	errcode_t err;
	unsigned int seq;
	int live;

	if (argc < 4 || (strcmp(argv[2], "set") && strcmp(argv[2], "live") &&
			 strcmp(argv[2], "block")) ||
	    (!strcmp(argv[2], "live") && argc != 5) ||
	    (!strcmp(argv[2], "block") && argc != 4) || argc > 6) {
		fprintf(stderr, "usage: mmppeer IMAGE set SEQ [NODE [DEVICE]]\n"
				"       mmppeer IMAGE live NODE DEVICE\n"
				"       mmppeer IMAGE block N\n");
		return 1;
	}
	live = !strcmp(argv[2], "live");
	initialize_ext2_error_table();
	err = ext2fs_open2(argv[1], NULL, EXT2_FLAG_RW | EXT2_FLAG_SKIP_MMP |
			   EXT2_FLAG_IGNORE_CSUM_ERRORS, 0, 0, unix_io_manager,
			   &fs);
	if (err) {
		com_err("mmppeer", err, "while opening %s", argv[1]);
		return 1;
	}
	if (!ext2fs_has_feature_mmp(fs->super)) {
		fprintf(stderr, "mmppeer: %s has no mmp feature\n", argv[1]);
		goto fail;
	}
	if (!strcmp(argv[2], "block")) {
		/* Only the primary superblock, as the kernel writes it. */
		fs->super->s_mmp_block = strtoull(argv[3], NULL, 0);
		fs->flags |= EXT2_FLAG_MASTER_SB_ONLY;
		ext2fs_mark_super_dirty(fs);
		err = ext2fs_close_free(&fs);
		if (err) {
			com_err("mmppeer", err, "while writing the superblock");
			return 1;
		}
		return 0;
	}
	mmp = calloc(1, fs->blocksize);
	if (!mmp)
		goto fail;
	/* Whatever the block holds now is kept but for what is set. */
	err = ext2fs_mmp_read(fs, fs->super->s_mmp_block, mmp);
	if (err && err != EXT2_ET_MMP_MAGIC_INVALID &&
	    err != EXT2_ET_MMP_CSUM_INVALID) {
		com_err("mmppeer", err, "while reading the MMP block");
		goto fail;
	}
	err = 0;
	mmp->mmp_magic = EXT4_MMP_MAGIC;
	if (!live) {
		seq = (unsigned int)strtoul(argv[3], NULL, 0);
		err = put(fs, mmp, seq, argc > 4 ? argv[4] : NULL,
			  argc > 5 ? argv[5] : NULL);
	} else {
		signal(SIGTERM, on_term);
		signal(SIGINT, on_term);
		for (seq = 1; !stop && !err; seq++) {
			err = put(fs, mmp, seq, argv[3], argv[4]);
			if (seq == 1) {
				printf("live\n");
				fflush(stdout);
			}
			sleep(1);
		}
	}
	if (err)
		com_err("mmppeer", err, "while writing the MMP block");
	free(mmp);
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
	ext2fs_close_free(&fs);
	return err ? 1 : 0;
fail:
	free(mmp);
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
	ext2fs_close_free(&fs);
	return 1;
}
