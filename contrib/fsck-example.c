/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsck-example -- how a filesystem checker uses librecover.
 *
 * This program is documentation for tool authors: a minimal fsck front end
 * that holds the filesystem open with libext2fs, as e2fsck does, lets
 * librecover replay the journal on that handle, and then does a (small)
 * read-only check of its own.  The order of the steps is the point:
 *
 *   1. ext2fs_open2() read-write.  The tool owns this handle.
 *   2. recover_open_fs() on it, then recover_replay().  The library writes
 *      the replayed blocks, the journal superblock and the filesystem
 *      superblock through fs->io, underneath libext2fs's cached copies.
 *   3. Drop the handle WITHOUT writing it back.  Its in-memory superblock
 *      predates the replay (it still says needs_recovery).  A plain
 *      ext2fs_close() of a read-write handle that saw writes updates
 *      s_kbytes_written and writes the superblock fields that changed in
 *      memory, with a checksum computed over the stale copy: on disk the
 *      replayed superblock is left with a checksum that does not match it
 *      (metadata_csum), and e2fsck then refuses to open the filesystem.
 *      e2fsck calls ext2fs_free() here; this program clears EXT2_FLAG_RW
 *      and EXT2_FLAG_DIRTY and then closes, which releases the same
 *      things and writes nothing.
 *   4. Reopen and check what is on disk now.
 *
 * usage: fsck-example [-n] [-f] [-j JOURNAL] DEVICE
 *   -n  dry run: report what the journal holds, write nothing, and exit
 *       with the status the replay would (0, 1, 4 or 8)
 *   -f  RECOVER_FL_FORCE (see librecover(3))
 *   -j  an external journal device or a journal dump file
 *
 * Exit status, as fsck front ends use it (and as jrecover(8) does):
 *   0  nothing to replay and the check passed
 *   1  the journal was replayed and the check passed
 *   4  problems are left: the replay reported some (blocks skipped on bad
 *      checksums, a corrupt commit, the filesystem marked with errors) or
 *      the check failed
 *   8  operational error (the filesystem could not be opened, ...)
 *  16  usage error
 *  32  the replay was interrupted (the library's RECOVER_OUTCOME_INTERRUPTED;
 *      not here, as nothing asks it to stop)
 *
 * Build:
 *   cc fsck-example.c $(pkg-config --cflags --libs librecover)
 * (make check builds it against the library in the build tree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include <librecover.h>

#define FSCK_OK		0
#define FSCK_CHANGED	1
#define FSCK_PROBLEMS	4
#define FSCK_ERROR	8
#define FSCK_USAGE	16
#define FSCK_CANCELED	32

static const char *prog = "fsck-example";

/*
 * Flags for opening the filesystem.  EXT2_FLAG_64BITS is needed for any
 * filesystem with more than 2^32 blocks; EXT2_FLAG_IGNORE_CSUM_ERRORS lets
 * a checker open a filesystem whose metadata checksums are wrong and
 * report them rather than give up at open time.
 */
#define OPEN_FLAGS	(EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS)

/* ---- step 2: the replay ----------------------------------------------- */

/*
 * Replay the journal on fs, which the caller opened read-write.  Returns
 * the fsck status of the replay alone (0, 1, 4, 8 or 32).
 */
static int replay(ext2_filsys fs, const char *device,
		  const struct recover_options *opts)
{
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	recover_t r;
	errcode_t err;

	err = recover_open_fs(fs, opts, &r);
	if (err) {
		com_err(prog, err, "while opening the journal of %s", device);
		return FSCK_ERROR;
	}
	/*
	 * recover_replay() runs the scan first (recover_scan()).  On a
	 * journal with nothing to replay it writes nothing and its outcome is
	 * RECOVER_OUTCOME_CLEAN: there is no need to ask
	 * recover_needs_recovery() first and work the answer out twice.
	 */
	err = recover_replay(r);
	recover_get_stats(r, &st);
	recover_close(r);	/* fs stays open: it is the caller's */
	/*
	 * A log e2fsck would give up on (st.error == err) is left as it was
	 * unless RECOVER_FL_FORCE asked for e2fsck's reset.
	 */
	if (err)
		com_err(prog, err, "while replaying the journal of %s", device);
	if (st.outcome == RECOVER_OUTCOME_RECOVERED ||
	    st.outcome == RECOVER_OUTCOME_PROBLEMS)
		printf("%s: %s: %s %llu block(s) from %llu transaction(s)\n",
		       prog, device, (opts->flags & RECOVER_FL_DRY_RUN) ?
		       "would replay" : "replayed", st.replayed, st.transactions);
	if (st.outcome == RECOVER_OUTCOME_PROBLEMS)
		printf("%s: %s: the replay %s problems: %llu block(s) "
		       "skipped on bad checksums%s%s\n", prog, device,
		       (opts->flags & RECOVER_FL_DRY_RUN) ? "would leave" : "left",
		       st.bad_csum,
		       st.failed_commit ? ", a corrupt commit block" : "",
		       st.fs_errors ? ", filesystem marked with errors" : "");
	/* The status is the library's verdict, which jrecover's follows too;
	 * a dry run's is what the replay would come to. */
	switch (st.outcome) {
	case RECOVER_OUTCOME_CLEAN:
		return FSCK_OK;
	case RECOVER_OUTCOME_RECOVERED:
		return FSCK_CHANGED;
	case RECOVER_OUTCOME_PROBLEMS:
		return FSCK_PROBLEMS;
	case RECOVER_OUTCOME_INTERRUPTED:
		/* Only with a progress callback that asks to stop, which
		 * this program does not set. */
		return FSCK_CANCELED;
	case RECOVER_OUTCOME_FAILED:
	case RECOVER_OUTCOME_NONE:
		break;
	}
	return FSCK_ERROR;
}

/* ---- step 3: let go of the stale handle -------------------------------- */

/*
 * Close fs without writing its cached superblock and group descriptors,
 * which predate the replay.  (ext2fs_free(fs) does the same.)  On a
 * filesystem with multi-mount protection, ext2fs_open2() left "fsck at
 * work" in the MMP block: write it back clean first, as closing would
 * (e2fsck does the same), or the kernel refuses to mount it.
 */
static void drop_fs(ext2_filsys *fs)
{
	errcode_t err = ext2fs_mmp_stop(*fs);

	if (err)
		com_err(prog, err, "while releasing the MMP block");
	(*fs)->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY);
	ext2fs_close_free(fs);
}

/* ---- step 4: a small read-only check ---------------------------------- */

struct dir_walk {
	int dot, dotdot;
	unsigned int entries;
	int bad;
};

static int root_entry(struct ext2_dir_entry *dirent, int offset, int blocksize,
		      char *buf, void *data)
{
	struct dir_walk *w = data;
	int len = ext2fs_dirent_name_len(dirent);

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (len == 1 && dirent->name[0] == '.')
		w->dot = dirent->inode == EXT2_ROOT_INO;
	else if (len == 2 && !memcmp(dirent->name, "..", 2))
		w->dotdot = dirent->inode == EXT2_ROOT_INO;
	if (dirent->inode)
		w->entries++;
	return 0;
}

/*
 * Checks a checker would start with; a real one goes on to every inode.
 * Prints each problem; returns the number found, or -1 when the filesystem
 * cannot be opened at all.
 */
static int check(const char *device)
{
	ext2_filsys fs;
	struct dir_walk w = { 0 };
	dgrp_t g;
	errcode_t err;
	int problems = 0;

	err = ext2fs_open2(device, NULL, OPEN_FLAGS, 0, 0, unix_io_manager,
			   &fs);
	if (err) {
		com_err(prog, err, "while reopening %s", device);
		return -1;
	}
	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		printf("%s: %s: the journal still needs recovery\n", prog,
		       device);
		problems++;
	}
	if (fs->super->s_state & EXT2_ERROR_FS) {
		printf("%s: %s: the filesystem is marked as having errors\n",
		       prog, device);
		problems++;
	}
	if (!(fs->super->s_state & EXT2_VALID_FS)) {
		printf("%s: %s: the filesystem is not clean\n", prog, device);
		problems++;
	}
	/* Opened with EXT2_FLAG_IGNORE_CSUM_ERRORS: verify them here. */
	if (!ext2fs_superblock_csum_verify(fs, fs->super)) {
		printf("%s: %s: superblock checksum mismatch\n", prog, device);
		problems++;
	}
	for (g = 0; g < fs->group_desc_count; g++) {
		if (!ext2fs_group_desc_csum_verify(fs, g)) {
			printf("%s: %s: group %u: descriptor checksum "
			       "mismatch\n", prog, device, g);
			problems++;
		}
	}
	err = ext2fs_read_bitmaps(fs);
	if (err) {
		com_err(prog, err, "while reading the bitmaps of %s", device);
		problems++;
	}
	err = ext2fs_dir_iterate(fs, EXT2_ROOT_INO, 0, NULL, root_entry, &w);
	if (err) {
		com_err(prog, err, "while reading the root directory of %s",
			device);
		problems++;
	} else if (!w.dot || !w.dotdot) {
		printf("%s: %s: the root directory lacks '.' or '..'\n", prog,
		       device);
		problems++;
	}
	if (!problems)
		printf("%s: %s: %u inodes, %llu blocks, %u groups, "
		       "%u entries in /: ok\n", prog, device,
		       fs->super->s_inodes_count,
		       (unsigned long long)ext2fs_blocks_count(fs->super),
		       fs->group_desc_count, w.entries);
	ext2fs_close_free(&fs);
	return problems;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-n] [-f] [-j JOURNAL] DEVICE\n", prog);
}

int main(int argc, char **argv)
{
	struct recover_options opts;
	ext2_filsys fs;
	const char *device;
	errcode_t err;
	int status, problems, ch, flags;

	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	while ((ch = getopt(argc, argv, "nfj:h")) != -1) {
		switch (ch) {
		case 'n':
			opts.flags |= RECOVER_FL_DRY_RUN;
			break;
		case 'f':
			opts.flags |= RECOVER_FL_FORCE;
			break;
		case 'j':
			opts.journal_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return FSCK_OK;
		default:
			usage(stderr);
			return FSCK_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return FSCK_USAGE;
	}
	device = argv[optind];

	/* Both tables, so that error_message() knows every code. */
	initialize_ext2_error_table();
	initialize_rcvr_error_table();

	/*
	 * Step 1: open as the checker will keep it.  A checker should also
	 * refuse a mounted filesystem (ext2fs_check_if_mounted());
	 * recover_open_fs() leaves that to whoever opened fs.
	 * EXT2_FLAG_EXCLUSIVE (O_EXCL on a block device) keeps others out
	 * while the replay runs.
	 */
	flags = OPEN_FLAGS | EXT2_FLAG_EXCLUSIVE;
	if (!(opts.flags & RECOVER_FL_DRY_RUN))
		flags |= EXT2_FLAG_RW;
	err = ext2fs_open2(device, NULL, flags, 0, 0, unix_io_manager, &fs);
	if (err) {
		com_err(prog, err, "while opening %s", device);
		return FSCK_ERROR;
	}

	/* Step 2. */
	status = replay(fs, device, &opts);

	/* Step 3: no write-back of the pre-replay superblock. */
	drop_fs(&fs);
	/*
	 * A dry run wrote nothing: the journal still needs recovery, so a
	 * check of the filesystem now would only report that.
	 */
	if (status >= FSCK_ERROR || (opts.flags & RECOVER_FL_DRY_RUN))
		return status;

	/* Step 4: reopen and check. */
	problems = check(device);
	if (problems < 0)
		return FSCK_ERROR;
	if (problems > 0)
		return FSCK_PROBLEMS;
	return status;
}
