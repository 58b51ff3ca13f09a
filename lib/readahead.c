/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * readahead.c -- a thread that keeps the page cache filled ahead of the
 * scan, so that a cold device streams the log once, in large sequential
 * requests, while the scan parses it.
 *
 * The scan reads only descriptor, revoke and commit blocks: many short
 * reads with the data blocks between them skipped, each of which waits
 * for the disk when the cache is cold.  This thread hints the kernel
 * (posix_fadvise(POSIX_FADV_WILLNEED), which on Linux is what readahead(2)
 * does) about the log's physical ranges in log order: from s_start to the
 * end of the log area, then from s_first, through the source's block map
 * (the journal inode's runs, mapped at open and not changed after; an
 * external device or a dump is contiguous).
 *
 * What it touches: its own read-only descriptor of the file or device the
 * journal's io channel has open, never the channel (channels are not
 * thread-safe, and a caller's io manager may not be a file at all); the
 * source's block map and the journal superblock as read at open, which
 * nobody changes while it runs; and this struct.  It runs only for a
 * channel of unix_io_manager, and only when the journal superblock its
 * descriptor reads where the map puts it is the one the channel read
 * (which rules out an offset set on the channel, or a different file now
 * at that path).  Everything that fails (open, pthread_create, a hint)
 * just ends the hints: the scan never depends on them, and the library's
 * reads through the io channel are the same with or without them.
 *
 * Pacing: it stays at most WINDOW bytes ahead of how far the scan is
 * (readahead_progress(), in journal blocks walked from s_start, as
 * recover_stats.log_blocks counts them), so a huge log does not flood the
 * page cache, and it never hints more than one pass over the log.  When
 * the scan ends, readahead_stop() has it hint the rest of the log the scan
 * walked (the data blocks the replay reads next) and joins it: the thread
 * lives only inside the library call that runs the scan.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "readahead.h"

/* How far ahead of the scan the hints go, in bytes. */
#ifndef READAHEAD_WINDOW
#define READAHEAD_WINDOW	(64U << 20)
#endif
/*
 * Bytes per hint: Linux carries out a WILLNEED hint only up to the larger
 * of the device's read-ahead and its largest request, so one large hint
 * would leave most of its range unread.
 */
#define READAHEAD_CHUNK		(2U << 20)
/* How long the thread sleeps when it is a full window ahead (ns). */
#define READAHEAD_NAP		1000000L

struct readahead {
	pthread_t	thread;
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	int		stop;		/* under lock: the scan is over */
	uint64_t	end;		/* under lock: where it ended */
	_Atomic uint64_t pos;		/* how far the scan is (log order) */

	/* Set before the thread starts, read-only after. */
	const struct jsource *src;
	const char	*path;
	const unsigned char *jsb;	/* journal superblock, as read */
	unsigned int	jsb_len;	/* bytes of it still as on disk */
	uint32_t	start, first, last;
	uint64_t	log_len;	/* blocks in one pass over the log */
	uint64_t	window;		/* in blocks */
	unsigned int	chunk;		/* in blocks */

	/* The thread's own, read after the join. */
	int		fd;
	unsigned long long hinted;	/* blocks hinted */
};

/* The journal block at offset off from s_start, in log order. */
static uint64_t log_block(const struct readahead *ra, uint64_t off)
{
	uint64_t b = ra->start + off;

	return b < ra->last ? b : ra->first + (b - ra->last);
}

/*
 * Hint up to n blocks from log offset off: no further than the end of the
 * log area or the run holding it.  Returns the blocks hinted, 0 when a
 * block cannot be mapped or the hint fails (the hints end there).
 */
static uint64_t hint(struct readahead *ra, uint64_t off, uint64_t n)
{
	uint64_t blk = log_block(ra, off), pblk;
	unsigned int cnt;
	off_t bs = ra->src->blocksize;

	if (n > ra->last - blk)
		n = ra->last - blk;
	cnt = n > ra->chunk ? ra->chunk : (unsigned int)n;
	if (source_map(ra->src, blk, &pblk, &cnt))
		return 0;
	if (posix_fadvise(ra->fd, (off_t)pblk * bs, (off_t)cnt * bs,
			  POSIX_FADV_WILLNEED))
		return 0;
	ra->hinted += cnt;
	return cnt;
}

/* Is the file at ra->path the one the channel reads the journal from? */
static int same_journal(struct readahead *ra)
{
	unsigned int bs = ra->src->blocksize, one = 1;
	unsigned char *buf;
	uint64_t pblk;
	ssize_t got;
	int same;

	if (source_map(ra->src, ra->src->sb_block, &pblk, &one))
		return 0;
	buf = malloc(bs);
	if (!buf)
		return 0;
	got = pread(ra->fd, buf, bs, (off_t)pblk * bs);
	same = got == (ssize_t)bs && !memcmp(buf, ra->jsb, ra->jsb_len);
	free(buf);
	return same;
}

static void *run(void *arg)
{
	struct readahead *ra = arg;
	uint64_t done = 0, limit, n;
	struct timespec ts;
	int stop = 0;

	ra->fd = open(ra->path, O_RDONLY | O_CLOEXEC);
	if (ra->fd < 0 || !same_journal(ra))
		return NULL;
	while (done < ra->log_len) {
		pthread_mutex_lock(&ra->lock);
		stop = ra->stop;
		limit = stop ? ra->end : 0;
		pthread_mutex_unlock(&ra->lock);
		if (!stop)
			limit = atomic_load_explicit(&ra->pos,
						     memory_order_relaxed) +
				ra->window;
		if (limit > ra->log_len)
			limit = ra->log_len;
		/*
		 * Whole chunks, so that the device gets large requests: less
		 * only at the end of the log or of the scan.
		 */
		if (done < limit && (limit - done >= ra->chunk ||
				     limit == ra->log_len || stop)) {
			n = hint(ra, done, limit - done);
			if (!n)
				break;
			done += n;
			continue;
		}
		if (stop)
			break;
		/* A window ahead: wait for the scan (or for its end). */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += READAHEAD_NAP;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&ra->lock);
		if (!ra->stop)
			pthread_cond_timedwait(&ra->cond, &ra->lock, &ts);
		pthread_mutex_unlock(&ra->lock);
	}
	return NULL;
}

static int init_sync(struct readahead *ra)
{
	pthread_condattr_t attr;
	int err;

	if (pthread_condattr_init(&attr))
		return -1;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) ||
	      pthread_cond_init(&ra->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (err)
		return -1;
	if (pthread_mutex_init(&ra->lock, NULL)) {
		pthread_cond_destroy(&ra->cond);
		return -1;
	}
	return 0;
}

struct readahead *readahead_start(const struct jsource *src,
				  const struct jsuper *sb,
				  const unsigned char *jsb, unsigned int jsb_len)
{
	struct readahead *ra;
	sigset_t all, saved;
	int err;

	if (!src->io || src->io->manager != unix_io_manager ||
	    !src->io->name || !sb->pub.start || sb->last <= sb->pub.first)
		return NULL;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	ra->fd = -1;
	ra->src = src;
	ra->path = src->io->name;
	ra->jsb = jsb;
	ra->jsb_len = jsb_len;
	ra->start = sb->pub.start;
	ra->first = sb->pub.first;
	ra->last = sb->last;
	ra->log_len = sb->last - sb->pub.first;
	ra->window = READAHEAD_WINDOW / src->blocksize;
	ra->chunk = READAHEAD_CHUNK / src->blocksize;
	if (!ra->chunk)
		ra->chunk = 1;
	atomic_init(&ra->pos, 0);
	if (init_sync(ra)) {
		free(ra);
		return NULL;
	}
	/* The caller's signals stay with the caller's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	err = pthread_create(&ra->thread, NULL, run, ra);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (err) {
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->cond);
		free(ra);
		return NULL;
	}
	return ra;
}

void readahead_progress(struct readahead *ra, uint64_t walked)
{
	if (ra)
		atomic_store_explicit(&ra->pos, walked, memory_order_relaxed);
}

unsigned long long readahead_stop(struct readahead *ra, uint64_t walked)
{
	unsigned long long hinted;

	if (!ra)
		return 0;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	ra->end = walked;
	pthread_cond_signal(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	hinted = ra->hinted;
	if (ra->fd >= 0)
		close(ra->fd);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
	free(ra);
	return hinted;
}
