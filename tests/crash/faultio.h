/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * faultio.h -- a test io_manager that wraps unix_io_manager, numbers every
 * write (write_blk, write_blk64, write_byte) and every flush in the order
 * they are asked for, and makes the one after event k go wrong.
 */
#ifndef FAULTIO_H
#define FAULTIO_H

#include <ext2fs/ext2fs.h>

enum fault_mode {
	FAULT_NONE = 0,	/* count only */
	FAULT_EIO,	/* event k + 1 fails with EIO; later ones go through */
	FAULT_DROP,	/* a crash: from event k + 1 on nothing reaches the
			 * file, and every write and flush fails with EIO */
	FAULT_EXIT,	/* a crash: _exit(FAULT_EXIT_STATUS) at event k + 1,
			 * before it happens (what unix_io still caches is
			 * lost, as in a real crash) */
	FAULT_POWER,	/* a power cut: writes reach the file only at the
			 * next flush of their channel, as with a disk's
			 * volatile cache; at event k + 1, of the writes not
			 * yet flushed only the newest (event k, if a write)
			 * lands, then _exit(FAULT_EXIT_STATUS) */
};

#define FAULT_EXIT_STATUS	75

enum fault_kind { FAULT_WRITE, FAULT_FLUSH };

/* One write or flush, as the wrapped manager saw it. */
struct fault_event {
	enum fault_kind	kind;
	unsigned long long block;	/* write: first block, or byte offset */
	long long	count;		/* write: blocks, or -bytes */
	int		block_size;
	int		byte;		/* write_byte */
	const char	*channel;	/* the channel's name */
};

extern io_manager fault_io_manager;

/* The fault: after event k (k = 0: before the first one). */
void fault_set(enum fault_mode mode, unsigned long k);
/* Events seen so far (those that failed or were dropped included). */
unsigned long fault_events(void);
unsigned long fault_writes(void);
unsigned long fault_flushes(void);
/* Whether the fault has happened. */
int fault_hit(void);
/*
 * Count the reads asked for within bytes [off, off + len) of every channel,
 * in units of unit bytes (a unit is counted once per request touching it);
 * called again, adds a range (up to 16, all with the same unit).
 */
int fault_watch_reads(unsigned long long off, unsigned long long len,
		      unsigned int unit);
struct fault_reads {
	unsigned long long requests;	/* read requests touching the range */
	unsigned long long bytes;	/* of them, bytes inside the range */
	unsigned long long units;	/* units read at least once */
	unsigned long long reread;	/* units read more than once */
};
void fault_read_stats(struct fault_reads *st);

/* Called with each event before it is carried out (NULL: none). */
void fault_set_trace(void (*fn)(unsigned long n, const struct fault_event *e));

#endif /* FAULTIO_H */
