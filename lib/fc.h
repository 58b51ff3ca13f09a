/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fc.h -- the fast-commit area: its scan as the kernel's mount-time scan
 * judges it (fc.c), and what the area holds and what its replay did
 * (struct fc_result; the replay's entry points are in fc_replay.h).  Like
 * the passes, these are given the journal, the tags and the filesystem,
 * never the handle, and fill a result of their own.
 */
#ifndef FC_H
#define FC_H

#include <stdint.h>

#include "passes.h"

struct fc_tag;

/* What the area holds and what its replay did (recover_stats' fc_*). */
struct fc_result {
	enum recover_fc_state state;
	enum recover_fc_end end;	/* why its scan stopped */
	unsigned long long end_at;	/* the journal block where it stopped */
	uint32_t	tid;		/* the tid its HEAD and TAILs carry */
	unsigned long long blocks;	/* blocks up to the last valid TAIL */
	unsigned long long tags;	/* valid records */
	unsigned long long commits;	/* valid TAILs */
	unsigned long long replayed;	/* records replayed */
	errcode_t	error;		/* RECOVER_ET_FC_REPLAY: why */
	unsigned long long written_bytes; /* fc_replay_commit() wrote */
};

/*
 * Called for every record the scan looks at and accepts as a record (a
 * length that fits its tag); valid says it is among the first "limit"
 * records.  Nonzero stops the scan.
 */
typedef int (*fc_tag_fn)(void *data, const struct fc_tag *t, int valid);

struct fc_scan {
	uint32_t	expected_tid;
	unsigned int	blocksize;
	unsigned int	inode_size;	/* the filesystem's s_inode_size */
	unsigned long long limit;	/* for fc_tag_fn's valid */
	uint32_t	crc;		/* crc32c since the last TAIL */
	unsigned long long blocks;	/* blocks read records from */
	unsigned long long tags;	/* records counted so far */
	unsigned long long valid;	/* records up to the last good TAIL */
	unsigned long long valid_blocks; /* blocks up to that TAIL */
	unsigned long long commits;	/* good TAILs */
	enum recover_fc_end end;
	unsigned int	end_off;	/* byte of the record that ended it */
	int		done;
	int		interrupted;	/* fc_tag_fn asked to stop */
};

void fc_scan_init(struct fc_scan *s, uint32_t expected_tid,
		  unsigned int blocksize, unsigned int inode_size);
/* The next block of the area.  Returns 1 to go on with the next one, 0
 * when the scan stopped (s->end says why). */
int fc_scan_block(struct fc_scan *s, const unsigned char *blk, fc_tag_fn fn,
		  void *data);
/* What the kernel makes of a scan that stopped. */
errcode_t fc_scan_verdict(const struct fc_scan *s, enum recover_fc_state *state);
/* The start of a walk over the area of sb's journal: s set up for
 * transaction tid, its first limit records valid; returns a one-block
 * buffer to free, or NULL. */
unsigned char *fc_area_begin(const struct jsuper *sb, unsigned int inode_size,
			     struct fc_scan *s, uint32_t tid,
			     unsigned long long limit);
/*
 * The area after SCAN, for a log that ends before end_tid and whose
 * recovery did not fail: fills res, and hands its records to
 * recover_walk()'s callback (pl->notify).
 */
errcode_t fc_scan_area(const struct pass_log *pl, unsigned int inode_size,
		       uint32_t end_tid, struct fc_result *res);

#endif /* FC_H */
