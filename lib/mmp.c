/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mmp.c -- multi-mount protection, the way e2fsck honours it, through
 * libext2fs's own MMP functions.
 *
 * The filesystem is opened with EXT2_FLAG_SKIP_MMP, so that the MMP block
 * can be looked at (and the wait announced) before anything is written.
 * Then, as e2fsck does:
 *   - the block must read back with its magic and checksum, and its
 *     sequence must be neither EXT4_MMP_SEQ_FSCK (a fsck is running, or
 *     died) nor another value above EXT4_MMP_SEQ_MAX;
 *   - a read-write open runs ext2fs_mmp_start(): unless the block says
 *     "clean" it waits for a change of sequence (a node using the
 *     filesystem updates it every interval), then it writes a sequence of
 *     its own, waits again, checks that nobody overwrote it, and leaves
 *     EXT4_MMP_SEQ_FSCK in the block while the replay runs;
 *   - a read-only open (a dry run) only checks the block, like e2fsck -n:
 *     no wait, nothing written.
 * While the block is held, it is rewritten every update interval from the
 * passes' progress points (ext2fs_mmp_update2), which also notices another
 * node taking the filesystem over; ext2fs_mmp_stop() writes
 * EXT4_MMP_SEQ_CLEAN back when the work ends, whichever way it ends.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "librecoverP.h"

/* A copy of the on-disk names, which need not end in a NUL. */
static void copy_name(char *dst, size_t size, const unsigned char *src,
		      size_t len)
{
	size_t n = strnlen((const char *)src, len);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* What the block (as libext2fs last read it into buf) says, for the caller. */
static void note_block(struct recover_struct *r, const void *buf)
{
	const struct mmp_struct *m = buf;
	struct recover_mmp *info = &r->mmp;

	if (!buf)
		return;
	info->seq = m->mmp_seq;
	info->time = m->mmp_time;
	info->check_interval = m->mmp_check_interval;
	copy_name(info->nodename, sizeof(info->nodename), m->mmp_nodename,
		  sizeof(m->mmp_nodename));
	copy_name(info->bdevname, sizeof(info->bdevname), m->mmp_bdevname,
		  sizeof(m->mmp_bdevname));
	info->read = 1;
}

/* The state the caller asked to be told about (recover_options.mmp). */
void mmp_publish(struct recover_struct *r)
{
	r->mmp.size = sizeof(r->mmp);
	recover_copy_out(r->opts.mmp, &r->mmp, sizeof(r->mmp));
}

/*
 * ext2fs_mmp_start()'s waits: one when the block is clean (after writing
 * its own sequence), two otherwise; each is twice the check interval plus
 * one second, at most the interval plus a minute.
 */
static unsigned int planned_wait(ext2_filsys fs, const struct mmp_struct *m)
{
	unsigned int interval = fs->super->s_mmp_update_interval;
	unsigned int one;

	if (interval < EXT4_MMP_MIN_CHECK_INTERVAL)
		interval = EXT4_MMP_MIN_CHECK_INTERVAL;
	if (m->mmp_check_interval > interval)
		interval = m->mmp_check_interval;
	one = 2 * interval + 1;
	if (one > interval + 60)
		one = interval + 60;
	return m->mmp_seq == EXT4_MMP_SEQ_CLEAN ? one : 2 * one;
}

/* ext2fs_mmp_read() checks the block's checksum only without this flag. */
static int csum_checks_on(ext2_filsys fs)
{
	int ignored = !!(fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS);

	fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	return ignored;
}

static void csum_checks_restore(ext2_filsys fs, int ignored)
{
	if (ignored)
		fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
}

/*
 * The waits are sleep()s inside ext2fs_mmp_start(): a caught signal would
 * end one early, and with it the check that no other node is active.
 * Signals are held until the waits are over (then delivered as usual).
 */
static errcode_t start_held(ext2_filsys fs)
{
	sigset_t all, old;
	errcode_t err;
	int masked;

	sigfillset(&all);
	/* Faults cannot usefully be held back. */
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	masked = !pthread_sigmask(SIG_BLOCK, &all, &old);
	err = ext2fs_mmp_start(fs);
	if (masked)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

errcode_t mmp_begin(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	struct recover_mmp *info = &r->mmp;
	int rw = !!(fs->flags & EXT2_FLAG_RW);
	int ignored;
	time_t t0;
	errcode_t err;

	memset(info, 0, sizeof(*info));
	mmp_publish(r);
	if (!ext2fs_has_feature_mmp(fs->super))
		return 0;
	info->present = 1;
	info->block = fs->super->s_mmp_block;
	info->update_interval = fs->super->s_mmp_update_interval;
	if (!fs->mmp_buf) {
		err = ext2fs_get_mem(fs->blocksize, &fs->mmp_buf);
		if (err)
			return err;
		memset(fs->mmp_buf, 0, fs->blocksize);
	}

	/* Look first: a bad block, or a fsck at work, is refused at once. */
	ignored = csum_checks_on(fs);
	err = ext2fs_mmp_read(fs, fs->super->s_mmp_block, fs->mmp_buf);
	csum_checks_restore(fs, ignored);
	if (err != EXT2_ET_MMP_BAD_BLOCK && err != EXT2_ET_MMP_OPEN_DIRECT &&
	    err != EXT2_ET_LLSEEK_FAILED && err != EXT2_ET_SHORT_READ)
		note_block(r, fs->mmp_buf);
	if (!err) {
		struct mmp_struct *m = fs->mmp_buf;

		if (m->mmp_seq == EXT4_MMP_SEQ_FSCK)
			err = EXT2_ET_MMP_FSCK_ON;
		else if (m->mmp_seq != EXT4_MMP_SEQ_CLEAN &&
			 m->mmp_seq > EXT4_MMP_SEQ_MAX)
			err = EXT2_ET_MMP_UNKNOWN_SEQ;
	}
	info->status = err;
	if (!rw) {
		/* Read only: the look is all there is (e2fsck -n). */
		ext2fs_mmp_stop(fs);	/* closes the O_DIRECT descriptor */
		mmp_publish(r);
		if (r->opts.flags & RECOVER_FL_MMP_REPORT)
			err = 0;
		return err;
	}
	if (err)
		goto refused;

	info->planned_wait = planned_wait(fs, fs->mmp_buf);
	mmp_publish(r);
	err = recovery_progress(r, RECOVER_PASS_MMP, 0, info->planned_wait);
	if (err)
		goto refused;

	fs->flags &= ~EXT2_FLAG_SKIP_MMP;
	ignored = csum_checks_on(fs);
	t0 = time(NULL);
	err = start_held(fs);
	info->wait = (unsigned int)(time(NULL) - t0);
	csum_checks_restore(fs, ignored);
	if (err) {
		/* What libext2fs read last: the other node's own sequence. */
		note_block(r, fs->mmp_buf);
		info->status = err;
		goto refused;
	}
	r->mmp_held = 1;
	r->mmp_interval = fs->super->s_mmp_update_interval ?
			  fs->super->s_mmp_update_interval : 1;
	mmp_publish(r);
	/* The wait is over: a signal held during it is seen here. */
	r->progress_next = 0;
	return recovery_progress(r, RECOVER_PASS_MMP, info->planned_wait,
				 info->planned_wait);

refused:
	/* Nothing of ours is in the block: only the descriptor to close. */
	fs->flags |= EXT2_FLAG_SKIP_MMP;
	ext2fs_mmp_stop(fs);
	mmp_publish(r);
	return err;
}

/*
 * Rewrite the block now, after checking that it still holds what was
 * last written: on EXT2_ET_MMP_CHANGE_ABORT another node has taken the
 * filesystem over, and the block is left to it.
 */
static errcode_t refresh(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	errcode_t err;

	err = ext2fs_mmp_update2(fs, 1);
	if (err) {
		if (err == EXT2_ET_MMP_CHANGE_ABORT)
			note_block(r, fs->mmp_cmp);
		r->mmp.status = err;
		r->mmp_held = 0;
		fs->flags |= EXT2_FLAG_SKIP_MMP;
		ext2fs_mmp_stop(fs);	/* only closes the descriptor */
		mmp_publish(r);
	}
	return err;
}

errcode_t mmp_update(struct recover_struct *r)
{
	if (!r->mmp_held ||
	    time(NULL) - r->fs->mmp_last_written < (time_t)r->mmp_interval)
		return 0;
	return refresh(r);
}

errcode_t mmp_end(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	errcode_t err;

	if (!r->mmp_held)
		return 0;
	/*
	 * ext2fs_mmp_stop() compares the block it reads with itself (1.47.0
	 * reads into the buffer it then compares with), so it would write
	 * "clean" over another node's sequence: the check is made first, by
	 * the update, which compares what is there with what was written.
	 */
	err = refresh(r);
	if (err)
		return err;
	r->mmp_held = 0;
	err = ext2fs_mmp_stop(fs);
	note_block(r, fs->mmp_cmp);
	if (err)
		r->mmp.status = err;
	r->mmp.released = !err;
	mmp_publish(r);
	return err;
}
