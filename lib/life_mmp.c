/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * life_mmp.c -- multi-mount protection, the way e2fsck honours it, through
 * libext2fs's own MMP functions.
 *
 * The filesystem is opened with EXT2_FLAG_SKIP_MMP, so that the MMP block
 * can be looked at before anything is written.  Then, as e2fsck does:
 *   - the block must read back with its magic and checksum, and its
 *     sequence must be neither EXT4_MMP_SEQ_FSCK (a fsck is running, or
 *     died) nor another value above EXT4_MMP_SEQ_MAX (life_mmp_begin(), at the
 *     open, dry run or not);
 *   - a replay takes the block as ext2fs_mmp_start() would (life_mmp_take(),
 *     just before its first write, so that every refusal comes before the
 *     wait): unless the block says "clean" it waits for a change of
 *     sequence (a node using the filesystem updates it every interval),
 *     then it writes a sequence of its own, waits again, checks that
 *     nobody overwrote it, and leaves EXT4_MMP_SEQ_FSCK in the block while
 *     the replay runs.  The waits are jrecover's own, asking the progress
 *     callback every second, so that a stop request ends them at once.
 * While the block is held, it is rewritten every update interval from the
 * passes' progress points (ext2fs_mmp_update2), which also notices another
 * node taking the filesystem over; ext2fs_mmp_stop() writes
 * EXT4_MMP_SEQ_CLEAN back when the work ends, whichever way it ends.
 */
#include "config.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "librecoverP.h"
#include "life_mmp.h"
#include "notify.h"

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
void life_mmp_publish(struct recover_struct *r)
{
	r->mmp.size = sizeof(r->mmp);
	notify_copy_out(r->opts.mmp, &r->mmp, sizeof(r->mmp));
}

/*
 * The interval the waits are made of: the superblock's update interval
 * (at least EXT4_MMP_MIN_CHECK_INTERVAL), or a node's own longer one as
 * its block states it, where that node may still be alive: libext2fs
 * does not look at it in a block left clean.
 */
static unsigned int wait_interval(ext2_filsys fs, const struct mmp_struct *m)
{
	unsigned int interval = fs->super->s_mmp_update_interval;

	if (interval < EXT4_MMP_MIN_CHECK_INTERVAL)
		interval = EXT4_MMP_MIN_CHECK_INTERVAL;
	if (m->mmp_seq != EXT4_MMP_SEQ_CLEAN && m->mmp_check_interval > interval)
		interval = m->mmp_check_interval;
	return interval;
}

/* One wait: twice the interval plus a second, at most a minute more than
 * the interval.  A clean block needs one, any other two. */
static unsigned int one_wait(unsigned int interval)
{
	unsigned int one = 2 * interval + 1;

	return one > interval + 60 ? interval + 60 : one;
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

/* The block into buf, its checksum checked. */
static errcode_t read_block(ext2_filsys fs, void *buf)
{
	int ignored = csum_checks_on(fs);
	errcode_t err = ext2fs_mmp_read(fs, fs->super->s_mmp_block, buf);

	csum_checks_restore(fs, ignored);
	return err;
}

/*
 * Sleep secs seconds of the wait; *done (of total) counts them.  The
 * progress callback is asked every second, so that a stop request (SIGINT
 * from the caller's handler) ends the wait at once.
 */
static errcode_t mmp_sleep(struct recover_struct *r, unsigned int secs,
			   unsigned int *done, unsigned int total)
{
	struct timespec end, now, step;
	errcode_t err;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		step.tv_sec = end.tv_sec - now.tv_sec;
		step.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (step.tv_nsec < 0) {
			step.tv_sec--;
			step.tv_nsec += 1000000000L;
		}
		if (step.tv_sec >= 1) {
			step.tv_sec = 1;
			step.tv_nsec = 0;
		}
		/* A signal ends it early: the callback is asked at once. */
		nanosleep(&step, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		r->notify.progress_next = 0;
		err = notify_progress(&r->notify, RECOVER_PASS_MMP,
				      *done + secs - (unsigned int)
				      (end.tv_sec - now.tv_sec > 0 ?
					 end.tv_sec - now.tv_sec : 0), total);
		if (err)
			return err;
	}
	*done += secs;
	return 0;
}

/* The seconds life_mmp_take() is to wait, for the block in buf. */
static unsigned int planned_wait(ext2_filsys fs, const void *buf)
{
	const struct mmp_struct *m = buf;
	unsigned int one = one_wait(wait_interval(fs, m));

	return m->mmp_seq == EXT4_MMP_SEQ_CLEAN ? one : 2 * one;
}

/*
 * The block looked at when the filesystem is opened: a bad block, or a
 * fsck at work, is refused at once.  A read-only open (a dry run) stops
 * there, as e2fsck -n does: no wait, nothing written.  A read-write one
 * takes the block later, in life_mmp_take(), just before the first write, so
 * that every refusal the journal and the filesystem give comes first.
 */
errcode_t life_mmp_begin(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	struct recover_mmp *info = &r->mmp;
	int rw = !!(fs->flags & EXT2_FLAG_RW);
	errcode_t err;

	memset(info, 0, sizeof(*info));
	life_mmp_publish(r);
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

	err = read_block(fs, fs->mmp_buf);
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
	if (!err && rw) {
		/* What a later look must still find (life_mmp_take()). */
		memcpy(&r->mmp_seen, fs->mmp_buf, sizeof(r->mmp_seen));
		r->mmp_pending = 1;
		info->planned_wait = planned_wait(fs, fs->mmp_buf);
	}
	/* Closes the O_DIRECT descriptor only: EXT2_FLAG_SKIP_MMP is set. */
	ext2fs_mmp_stop(fs);
	life_mmp_publish(r);
	if (!rw && (r->opts.flags & RECOVER_FL_MMP_REPORT))
		err = 0;
	return err;
}

/* Our sequence, node and device in the block, written. */
static errcode_t write_own(struct recover_struct *r, unsigned int seq)
{
	ext2_filsys fs = r->fs;
	struct mmp_struct *m = fs->mmp_buf;
	errcode_t err;

	m->mmp_seq = seq;
	if (seq != EXT4_MMP_SEQ_FSCK) {
		memset(m->mmp_nodename, 0, sizeof(m->mmp_nodename));
		if (gethostname((char *)m->mmp_nodename,
				sizeof(m->mmp_nodename)))
			memset(m->mmp_nodename, 0, sizeof(m->mmp_nodename));
		memset(m->mmp_bdevname, 0, sizeof(m->mmp_bdevname));
		strncpy((char *)m->mmp_bdevname, fs->device_name,
			sizeof(m->mmp_bdevname));
	}
	err = ext2fs_mmp_write(fs, fs->super->s_mmp_block, fs->mmp_buf);
	if (!err)
		r->mmp.written = 1;
	return err;
}

/*
 * Take the block, the way ext2fs_mmp_start() does, with waits of our own
 * that a stop request ends at once:
 *   - unless the block is clean, wait; a node that changed the sequence
 *     meanwhile is using the filesystem;
 *   - write a sequence of our own, wait again, and make sure it is still
 *     there;
 *   - leave EXT4_MMP_SEQ_FSCK in the block while the replay runs.
 * First the block must still be what the open saw: a node that used the
 * filesystem since (mounted and even unmounted it) may have changed what
 * was read.  Stopped during the waits, the block is left clean if this
 * run wrote it.
 */
errcode_t life_mmp_take(struct recover_struct *r)
{
	ext2_filsys fs = r->fs;
	struct recover_mmp *info = &r->mmp;
	struct mmp_struct *m;
	unsigned int done = 0, seq, total, one;
	time_t t0;
	errcode_t err;

	if (!r->mmp_pending)
		return 0;
	r->mmp_pending = 0;
	m = fs->mmp_buf;
	err = read_block(fs, m);
	if (!err && (m->mmp_seq != r->mmp_seen.mmp_seq ||
		     m->mmp_time != r->mmp_seen.mmp_time ||
		     memcmp(m->mmp_nodename, r->mmp_seen.mmp_nodename,
			    sizeof(m->mmp_nodename))))
		err = EXT2_ET_MMP_FAILED;
	if (err) {
		note_block(r, m);
		info->status = err;
		goto refused;
	}
	info->planned_wait = total = planned_wait(fs, m);
	one = one_wait(wait_interval(fs, m));
	life_mmp_publish(r);
	r->notify.progress_next = 0;
	err = notify_progress(&r->notify, RECOVER_PASS_MMP, 0, total);
	if (err)
		goto refused;

	t0 = time(NULL);
	seq = m->mmp_seq;
	if (seq != EXT4_MMP_SEQ_CLEAN) {
		err = mmp_sleep(r, one, &done, total);
		if (!err)
			err = read_block(fs, m);
		if (!err && m->mmp_seq != seq)
			err = EXT2_ET_MMP_FAILED;
		if (err)
			goto waited;
	}
	seq = ext2fs_mmp_new_seq();
	err = write_own(r, seq);
	if (!err)
		err = mmp_sleep(r, one, &done, total);
	if (!err)
		err = read_block(fs, m);
	if (!err && m->mmp_seq != seq)
		err = EXT2_ET_MMP_FAILED;
	if (!err)
		err = write_own(r, EXT4_MMP_SEQ_FSCK);
waited:
	info->wait = (unsigned int)(time(NULL) - t0);
	if (err) {
		if (err != RECOVER_ET_INTERRUPTED) {
			/* What was read last: the other node's own sequence. */
			note_block(r, m);
			info->status = err;
		} else if (info->written && m->mmp_seq == seq) {
			/* Ours alone in it: left clean, as at the end. */
			m->mmp_seq = EXT4_MMP_SEQ_CLEAN;
			if (!ext2fs_mmp_write(fs, fs->super->s_mmp_block, m))
				info->released = 1;
			note_block(r, m);
		}
		goto refused;
	}
	fs->flags &= ~EXT2_FLAG_SKIP_MMP;
	r->mmp_held = 1;
	r->mmp_interval = fs->super->s_mmp_update_interval ?
			  fs->super->s_mmp_update_interval : 1;
	life_mmp_publish(r);
	r->notify.progress_next = 0;
	return notify_progress(&r->notify, RECOVER_PASS_MMP, total, total);

refused:
	/* Only the descriptor to close: nothing of ours is held. */
	fs->flags |= EXT2_FLAG_SKIP_MMP;
	ext2fs_mmp_stop(fs);
	life_mmp_publish(r);
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
		life_mmp_publish(r);
	}
	return err;
}

errcode_t life_mmp_update(struct recover_struct *r)
{
	if (!r->mmp_held ||
	    time(NULL) - r->fs->mmp_last_written < (time_t)r->mmp_interval)
		return 0;
	return refresh(r);
}

errcode_t life_mmp_end(struct recover_struct *r)
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
	life_mmp_publish(r);
	return err;
}
