/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pass_scan.h -- SCAN (pass_scan.c): how it reads, and what it
 * found.
 */
#ifndef PASS_SCAN_H
#define PASS_SCAN_H

#include "passes.h"

/* What SCAN found (recover_stats' fields of the same names). */
struct scan_result {
	uint32_t	first_tid;
	uint32_t	end_tid;
	unsigned long long transactions;
	unsigned long long log_blocks;
	unsigned long long descriptor_blocks;
	unsigned long long revoke_blocks;
	unsigned long long logged_blocks;
	unsigned long long revoke_records;
	unsigned long long readahead_blocks;
	unsigned long long last_commit_sec;
	enum recover_end end_reason;
	struct recover_where end_at;
	int		failed_commit;
	uint32_t	failed_tid;
	struct recover_where failed_at;
	errcode_t	error;		/* recovery failed, as e2fsck's does */
	struct recover_where error_at;
};

/* How the scan reads: RECOVER_FL_FULL_REVOKE picks the revoke strategy,
 * RECOVER_FL_NO_READAHEAD stops the read-ahead thread, which compares
 * the first jsb_len bytes of the block it reads with jsb_raw. */
struct scan_how {
	unsigned int	flags;		/* RECOVER_FL_* */
	const unsigned char *jsb_raw;
	size_t		jsb_len;
};

/*
 * The log from s_start to its end: its tags kept in pl->tags and its
 * revoke records handed to pl->revoke; rd (the caller's, to free) is left
 * holding the window the passes after it read through.  An empty log
 * (s_start 0) is not read.
 */
errcode_t pass_scan(const struct pass_log *pl, const struct scan_how *how,
		    struct jreader *rd, struct scan_result *res);

#endif /* PASS_SCAN_H */
