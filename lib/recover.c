/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recover.c -- the handle and the public interface: options in, stats
 * out, each call a thin layer over the part that does the work (the open,
 * the passes in order and the end of a replay in lifecycle.c, the copy in
 * life_save.c).  recover_stats is made here alone, from the results the
 * passes (passes.h), the fast commits (fc.h) and the lifecycle keep.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "librecoverP.h"
#include "lifecycle.h"
#include "life_save.h"
#include "notify.h"

const char *recover_version(void)
{
	return PACKAGE_VERSION;
}

/* Tell the caller what a failure is about (recover_options.error_about). */
static errcode_t about(const struct recover_options *opts,
		       enum recover_about what, errcode_t err)
{
	if (err && opts && opts->error_about)
		*opts->error_about = what;
	return err;
}

/* The LIBRECOVER_DEBUG mask (librecover.h); unknown names count as 0. */
static unsigned int debug_mask(void)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "full_revoke", RECOVER_DEBUG_FULL_REVOKE },
		{ "no_readahead", RECOVER_DEBUG_NO_READAHEAD },
	};
	const char *s = secure_getenv("LIBRECOVER_DEBUG");
	unsigned int mask = 0;
	char *end;
	size_t i, len;

	if (!s || !*s)
		return 0;
	mask = (unsigned int)strtoul(s, &end, 0);
	if (!*end)
		return mask;
	mask = 0;
	while (*s) {
		len = strcspn(s, ",");
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    !strncmp(s, names[i].name, len))
				mask |= names[i].bit;
		s += len;
		if (*s == ',')
			s++;
	}
	return mask;
}

/*
 * The caller's options into the library's struct (librecover.h, "Structs
 * that grow"): as many bytes as the caller's size says, the rest zero; a
 * caller's fields past the library's own must be zero, as they would be
 * ignored.  NULL: the defaults.
 */
static errcode_t load_options(struct recover_options *dst,
			      const struct recover_options *src)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t have, i;

	memset(dst, 0, sizeof(*dst));
	dst->size = sizeof(*dst);
	if (!src)
		return 0;
	have = src->size;
	if (have < sizeof(src->size))
		return RECOVER_ET_STRUCT_SIZE;
	for (i = sizeof(*dst); i < have; i++)
		if (p[i])
			return RECOVER_ET_STRUCT_SIZE;
	memcpy(dst, src, have < sizeof(*dst) ? have : sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}

static errcode_t new_handle(const struct recover_options *opts,
			    struct recover_struct **ret)
{
	struct recover_struct *r;
	unsigned int mask;

	*ret = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return ENOMEM;
	r->opts = *opts;
	if (!r->opts.io_manager)
		r->opts.io_manager = unix_io_manager;
	r->notify.progress = r->opts.progress;
	r->notify.progress_data = r->opts.progress_data;
	mask = debug_mask();
	if (mask & RECOVER_DEBUG_FULL_REVOKE)
		r->opts.flags |= RECOVER_FL_FULL_REVOKE;
	if (mask & RECOVER_DEBUG_NO_READAHEAD)
		r->opts.flags |= RECOVER_FL_NO_READAHEAD;
	if (r->opts.journal_path) {
		r->journal_path = strdup(r->opts.journal_path);
		if (!r->journal_path) {
			free(r);
			return ENOMEM;
		}
		r->opts.journal_path = r->journal_path;
	}
	*ret = r;
	return 0;
}

/*
 * A new handle opened on device, on fs, or (alone set) on the dump at
 * dump alone, which is never written (lifecycle_open()).
 */
static errcode_t open_handle(const struct recover_options *caller_opts,
			     const char *device, ext2_filsys fs, int alone,
			     const char *dump, recover_t *ret)
{
	struct recover_options o;
	struct recover_struct *r;
	errcode_t err;

	*ret = NULL;
	err = load_options(&o, caller_opts);
	if (err)
		return err;
	if ((o.superblock || o.block_size) && !device)
		return about(&o, RECOVER_ABOUT_NONE, RECOVER_ET_BACKUP_UNSUPP);
	if (o.block_size && (o.block_size < EXT2_MIN_BLOCK_SIZE ||
			     o.block_size > EXT2_MAX_BLOCK_SIZE ||
			     (o.block_size & (o.block_size - 1))))
		return about(&o, RECOVER_ABOUT_NONE, RECOVER_ET_BLOCK_SIZE);
	if (o.superblock > INT_MAX)
		return about(&o, RECOVER_ABOUT_NONE,
			     EXT2_ET_INVALID_ARGUMENT);
	if (fs && !(fs->flags & EXT2_FLAG_RW) && !(o.flags & RECOVER_FL_DRY_RUN))
		return about(&o, RECOVER_ABOUT_FS, EXT2_ET_RO_FILSYS);
	if (alone) {
		o.journal_path = dump;
		o.flags |= RECOVER_FL_DRY_RUN;
	}
	err = new_handle(&o, &r);
	if (err)
		return about(&o, RECOVER_ABOUT_NONE, err);
	err = lifecycle_open(r, device, fs);
	if (err) {
		about(&o, r->about, err);
		recover_close(r);
		return err;
	}
	*ret = r;
	return 0;
}

errcode_t recover_open(const char *device,
		       const struct recover_options *caller_opts, recover_t *ret)
{
	return open_handle(caller_opts, device, NULL, 0, NULL, ret);
}

errcode_t recover_open_fs(ext2_filsys fs,
			  const struct recover_options *caller_opts, recover_t *ret)
{
	return open_handle(caller_opts, NULL, fs, 0, NULL, ret);
}

/*
 * A dump on its own: no filesystem is opened, and nothing is ever written
 * (the dump is opened read-only whatever the flags say).
 */
errcode_t recover_open_journal(const char *path,
			       const struct recover_options *caller_opts,
			       recover_t *ret)
{
	return open_handle(caller_opts, NULL, NULL, 1, path, ret);
}

void recover_close(recover_t r)
{
	if (!r)
		return;
	lifecycle_close(r);
	free(r->journal_path);
	free(r);
}

int recover_needs_recovery(recover_t r)
{
	return lifecycle_needs_recovery(r);
}

void recover_get_super(recover_t r, struct recover_super *sb)
{
	r->sb.pub.size = sizeof(r->sb.pub);
	notify_copy_out(sb, &r->sb.pub, sizeof(r->sb.pub));
}

/* The copy of the scan's results in recover_stats. */
static void stats_scan(const struct scan_result *s, struct recover_stats *st)
{
	st->first_tid = s->first_tid;
	st->end_tid = s->end_tid;
	st->transactions = s->transactions;
	st->log_blocks = s->log_blocks;
	st->descriptor_blocks = s->descriptor_blocks;
	st->revoke_blocks = s->revoke_blocks;
	st->logged_blocks = s->logged_blocks;
	st->revoke_records = s->revoke_records;
	st->readahead_blocks = s->readahead_blocks;
	st->last_commit_sec = s->last_commit_sec;
	st->end_reason = s->end_reason;
	st->end_at = s->end_at;
	st->failed_commit = s->failed_commit;
	st->failed_tid = s->failed_tid;
	st->failed_at = s->failed_at;
}

/* ... REPLAY's ... */
static void stats_replay(const struct replay_result *p,
			 struct recover_stats *st)
{
	st->replayed = p->replayed;
	st->revoked = p->revoked;
	st->bad_csum = p->bad_csum;
	st->bad_csum_at = p->bad_csum_at;
	st->copies_written = p->copies_written;
	st->superseded = p->superseded;
}

/* ... the fast commits' ... */
static void stats_fc(const struct fc_result *f, struct recover_stats *st)
{
	st->fc_state = f->state;
	st->fc_end = f->end;
	st->fc_end_at = f->end_at;
	st->fc_tid = f->tid;
	st->fc_blocks = f->blocks;
	st->fc_tags = f->tags;
	st->fc_commits = f->commits;
	st->fc_replayed = f->replayed;
	st->fc_error = f->error;
}

/* ... the dump checks' ... */
static void stats_stale(const struct stale_result *k,
			struct recover_stats *st)
{
	st->stale_checks = k->checks;
	st->stale_found = k->found;
	st->stale_log_time = k->log_time;
	st->stale_fs_time = k->fs_time;
	st->stale_saved_wtime = k->saved_wtime;
	st->stale_saved_mnt_count = k->saved_mnt_count;
	st->stale_own_sequence = k->own_sequence;
	st->stale_fs_wtime = k->fs_wtime;
	st->stale_fs_mnt_count = k->fs_mnt_count;
}

/* ... and what the lifecycle found and did itself, with what it makes of
 * the passes' results together (the error, the bytes written, a write). */
static void stats_life(const struct recover_struct *r,
		       struct recover_stats *st)
{
	st->error = lifecycle_log_error(r);
	st->error_at = r->scan.error ? r->scan.error_at : r->rep.error_at;
	st->needs_recovery = r->needs_recovery;
	st->read_bytes = r->read_bytes;
	st->written_bytes = lifecycle_written_bytes(r);
	st->revoke_kept = r->revoke_kept;
	st->table_bytes = r->table_bytes;
	st->dump_is_current = r->dump_is_current;
	st->fs_errors = r->fs_errors;
	st->journal_inode_backup = r->journal_inode_backup;
	st->garbage_nr_users = r->garbage_nr_users;
	st->write_blocks = r->write_blocks;
	st->write_bytes = r->write_bytes;
	st->saved_bytes = r->saved_bytes;
	memcpy(st->saved_sha256, r->saved_sha256, sizeof(st->saved_sha256));
	st->desc_copies = r->desc_copies;
	st->mounted = r->mounted;
	st->device_blocks = r->device_blocks;
	st->wrote = r->wrote || r->rep.wrote;
	st->outcome = r->outcome;
}

/* recover_stats, made of the results each layer keeps, one function for
 * each: this file is its one writer. */
static void make_stats(const struct recover_struct *r,
		       struct recover_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	stats_scan(&r->scan, st);
	stats_replay(&r->rep, st);
	stats_fc(&r->fc, st);
	stats_stale(&r->stale, st);
	stats_life(r, st);
}

void recover_get_stats(recover_t r, struct recover_stats *st)
{
	struct recover_stats mine;

	make_stats(r, &mine);
	notify_copy_out(st, &mine, sizeof(mine));
}

/*
 * A scan that failed or was stopped leaves its counters and tables half
 * built: every later scan, walk or replay on this handle returns the same
 * error (reopen to start again).
 */
errcode_t recover_scan(recover_t r)
{
	return about(&r->opts, recover_journal_about(r), lifecycle_scan(r));
}

errcode_t recover_walk(recover_t r, recover_event_fn fn, void *data)
{
	errcode_t err;

	if (r->scan_err)
		return about(&r->opts, recover_journal_about(r), r->scan_err);
	if (r->scanned)
		return about(&r->opts, RECOVER_ABOUT_FS, RECOVER_ET_ALREADY_DONE);
	r->notify.event = fn;
	r->notify.event_data = data;
	err = lifecycle_scan(r);
	r->notify.event = NULL;
	return about(&r->opts, recover_journal_about(r), err);
}

errcode_t recover_save_fd(recover_t r, int fd)
{
	errcode_t err = life_save_fd(r, fd);

	return about(&r->opts, r->about, err);
}

errcode_t recover_save(recover_t r, const char *path)
{
	errcode_t err = life_save_path(r, path);

	return about(&r->opts, r->about, err);
}

/* The outcome of a replay that returned no error (recover_outcome). */
static enum recover_outcome outcome(const struct recover_struct *r)
{
	if (!r->replayed)
		return RECOVER_OUTCOME_CLEAN;
	if (r->rep.bad_csum || r->scan.failed_commit ||
	    lifecycle_log_error(r) || r->fs_errors ||
	    r->scan.end_reason == RECOVER_END_TRUNCATED)
		return RECOVER_OUTCOME_PROBLEMS;
	return RECOVER_OUTCOME_RECOVERED;
}

errcode_t recover_replay(recover_t r)
{
	errcode_t err = lifecycle_replay(r);

	if (err == RECOVER_ET_INTERRUPTED)
		r->outcome = RECOVER_OUTCOME_INTERRUPTED;
	else if (err != RECOVER_ET_ALREADY_DONE)
		r->outcome = err ? RECOVER_OUTCOME_FAILED : outcome(r);

	return about(&r->opts, r->about, err);
}
