/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsck.c -- recover_fsck_replay(): the replay an fsck tool runs on the
 * filesystem it holds open, in one call, as e2fsck runs its own between
 * loading the journal and releasing it.  Around it everything stays the
 * caller's: the MMP block, the filesystem superblock (needs_recovery, the
 * state, the lifetime writes, s_errno carried into EXT2_ERROR_FS), the
 * questions and the messages.  What the caller needs to say what happened
 * comes back in struct recover_fsck: the errno value the kernel's recovery
 * gives for the log, and the tid of a corrupt commit block.
 *
 * The handle is the ordinary one (recover_open_fs()); r->fsck makes the
 * end of the replay stop at the journal superblock, s_errno kept
 * (lifecycle.c), and r->notify.skipped reports each skipped copy (pass_replay.c).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "librecoverP.h"
#include "notify.h"

#ifndef EFSBADCRC
#define EFSBADCRC	EBADMSG		/* as the kernel and e2fsprogs spell it */
#endif
#ifndef EFSCORRUPTED
#define EFSCORRUPTED	EUCLEAN
#endif

#define FSCK_FLAGS	(RECOVER_FL_FULL_REVOKE | RECOVER_FL_NO_READAHEAD)

/*
 * The errno value the kernel's jbd2_journal_recover() returns for what the
 * scan and the replay found (recover_stats.error, bad_csum), positive.
 */
static int kernel_errno(const struct recover_stats *st)
{
	switch (st->error) {
	case 0:
		break;
	case RECOVER_ET_LOG_IO:
		return EIO;
	case RECOVER_ET_BAD_CSUM_TXN:
		return EFSBADCRC;
	case RECOVER_ET_REVOKE_COUNT:
		return EINVAL;
	case RECOVER_ET_LOG_LOOP:
		return EFSCORRUPTED;
	default:
		/* An errno value already (ENOMEM), or another code. */
		return st->error > 0 && st->error < 4096 ? (int)st->error : EIO;
	}
	return st->bad_csum ? EFSBADCRC : 0;
}

/* The caller's struct in: as many bytes as it says, the rest zero, and any
 * of its fields past the library's own must be zero. */
static errcode_t load_fsck(struct recover_fsck *dst,
			   const struct recover_fsck *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t have = src->size, i;

	if (have < offsetof(struct recover_fsck, errnum))
		return RECOVER_ET_STRUCT_SIZE;
	for (i = sizeof(*dst); i < have; i++)
		if (p[i])
			return RECOVER_ET_STRUCT_SIZE;
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, have < sizeof(*dst) ? have : sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}

errcode_t recover_fsck_replay(ext2_filsys fs, struct recover_fsck *caller)
{
	struct recover_options o = RECOVER_INIT(struct recover_options);
	struct recover_fsck f;
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	recover_t r;
	errcode_t err;

	if (!fs || !caller)
		return EINVAL;
	err = load_fsck(&f, caller);
	if (err)
		return err;
	if (f.flags & ~FSCK_FLAGS)
		return EINVAL;
	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	/*
	 * e2fsck's choices where the library asks for -f: a log is replayed
	 * without the flag (the caller asked), a failed recovery still resets
	 * the journal, an external journal not listing the filesystem is used.
	 */
	o.flags = f.flags | RECOVER_FL_FORCE;
	o.journal_path = f.journal_path;
	o.journal_io_manager = f.journal_io_manager;
	o.progress = f.progress;
	o.progress_data = f.progress_data;
	err = recover_open_fs(fs, &o, &r);
	if (err)
		return err;
	r->fsck = 1;
	r->notify.skipped = f.skipped;
	r->notify.skipped_data = f.skipped_data;
	err = recover_replay(r);
	recover_get_stats(r, &st);
	recover_close(r);
	if (err)
		return err;
	f.errnum = kernel_errno(&st);
	/* e2fsck reports a corrupt commit only after a recovery that held. */
	f.failed_commit = !f.errnum && st.failed_commit;
	f.failed_tid = f.failed_commit ? st.failed_tid : 0;
	f.outcome = st.outcome;
	f.transactions = st.transactions;
	f.written_bytes = st.written_bytes;
	notify_copy_out(caller, &f, sizeof(f));
	return 0;
}
