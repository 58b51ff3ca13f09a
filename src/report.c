/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.c -- the reports: -i's summary and the replay's in text (their
 * JSON is json.c's), -s's in both, and the warnings printed on the way.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "librecover.h"
#include "jrecover.h"

/*
 * Who holds the filesystem, as its MMP block says (mmp_warn() here, an MMP
 * refusal in fail.c): "node 'n1' (device 'sdb'), sequence 0x..., updated ..."
 */
void print_mmp_holder(const struct recover_mmp *m)
{
	fputs("node '", stderr);
	put_escaped(stderr, m->nodename, strnlen(m->nodename,
						 sizeof(m->nodename)), '\'');
	fputs("' (device '", stderr);
	put_escaped(stderr, m->bdevname, strnlen(m->bdevname,
						 sizeof(m->bdevname)), '\'');
	fprintf(stderr, "'), sequence 0x%08x, last updated %s", m->seq,
		utc_time(m->time));
}

/* A read-only look at a filesystem the MMP block says is not clean. */
void mmp_warn(const struct cli *c)
{
	const struct recover_mmp *m = &c->mmp;

	if (c->quiet || !m->present)
		return;
	if (m->status && !m->read) {
		fprintf(stderr, "%s: %s: warning: %s\n", prog, c->device,
			error_message(m->status));
		return;
	}
	if (!m->read || (!m->status && m->seq == EXT4_MMP_SEQ_CLEAN))
		return;
	fprintf(stderr, "%s: %s: warning: %s; the MMP block names ", prog,
		c->device, m->status ? error_message(m->status) :
		"the filesystem may be in use on another node");
	print_mmp_holder(m);
	fprintf(stderr, "; what is read may be changing under jrecover\n");
}

void print_info(const struct cli *c, const struct recover_super *sb,
		const struct recover_stats *st)
{
	if (c->dump_alone)
		printf("Filesystem:               none: %s is a saved journal on "
		       "its own (tags past the filesystem's end not checked)\n",
		       c->device);
	else {
		printf("Filesystem:               %s\n", c->device);
		printf("needs_recovery:           %s\n",
		       st->needs_recovery ? "yes" : "no");
	}
	printf("Journal source:           %s\n", source_name(sb->source));
	if (st->journal_inode_backup)
		printf("Journal inode:            invalid; read through the "
		       "superblock's backup (s_jnl_blocks)\n");
	printf("Journal superblock:       v%d\n", sb->version);
	printf("Journal features:         ");
	print_features(sb, " ", 0);
	printf("\n");
	printf("Journal UUID:             %s\n", uuid_str(sb->uuid));
	printf("Journal block size:       %u\n", sb->blocksize);
	printf("Journal length:           %u blocks\n", sb->maxlen);
	printf("First log block:          %u\n", sb->first);
	if (sb->num_fc_blocks)
		printf("Fast-commit blocks:       %u\n", sb->num_fc_blocks);
	printf("Journal sequence:         %u\n", sb->sequence);
	printf("Journal start:            %u\n", sb->start);
	printf("Journal errno:            %d\n", sb->errnum);
	if (c->mmp.present) {
		printf("MMP block:                %llu, update interval %u s\n",
		       c->mmp.block, c->mmp.update_interval);
		if (c->mmp.read) {
			printf("MMP sequence:             0x%08x (%s), node '",
			       c->mmp.seq, mmp_seq_name(c->mmp.seq));
			put_escaped(stdout, c->mmp.nodename,
				    strnlen(c->mmp.nodename,
					    sizeof(c->mmp.nodename)), '\'');
			printf("', device '");
			put_escaped(stdout, c->mmp.bdevname,
				    strnlen(c->mmp.bdevname,
					    sizeof(c->mmp.bdevname)), '\'');
			printf("', updated %s\n", utc_time(c->mmp.time));
		}
		if (c->mmp.status)
			printf("MMP check:                %s\n",
			       error_message(c->mmp.status));
	}
	if (!sb->start)
		return;
	printf("Log blocks walked:        %llu\n", st->log_blocks);
	printf("Transactions to replay:   %llu", st->transactions);
	if (st->transactions)
		printf(" (tid %u to %u)", st->first_tid, st->end_tid - 1);
	printf("\n");
	printf("Descriptor blocks:        %llu\n", st->descriptor_blocks);
	printf("Logged blocks:            %llu\n", st->logged_blocks);
	printf("Revoke blocks:            %llu\n", st->revoke_blocks);
	printf("Revoke records:           %llu\n", st->revoke_records);
	printf("Log ends at:              journal block %llu: %s\n",
	       st->end_at.jblock, end_reason(st->end_reason));
	if (c->verbose)
		printf("Read ahead:               %llu journal blocks\n",
		       st->readahead_blocks);
	if (st->failed_commit)
		printf("Corrupt commit:           transaction %u at journal block %llu\n",
		       st->failed_tid, st->failed_at.jblock);
	if (st->error)
		printf("Recovery would fail:      %s at %s\n",
		       error_message(st->error), where(&st->error_at));
	if (st->fc_state == RECOVER_FC_NONE)
		return;
	printf("Fast-commit area:         %s\n",
	       st->fc_state == RECOVER_FC_LIVE ? "fast commits to replay after the log" :
	       st->fc_state == RECOVER_FC_EMPTY ? "nothing for this log (ignored)" :
	       "corrupt: the kernel would not recover this journal");
	printf("Fast commits:             %llu (tid %u)\n", st->fc_commits,
	       st->fc_tid);
	printf("Fast-commit valid blocks: %llu\n", st->fc_blocks);
	printf("Fast-commit valid tags:   %llu\n", st->fc_tags);
	printf("Fast-commit area ends at: journal block %llu: %s\n",
	       st->fc_end_at, fc_end_reason(st->fc_end));
}

/*
 * An internal journal's superblock claiming several users: not a shared
 * journal but a damaged superblock, whose fields after s_errno the
 * library read (and a replay writes back) as zero, as e2fsck does.
 */
void note_garbage(const struct cli *c, const struct recover_stats *st,
		  int needs_recovery)
{
	const char *then = "";

	if (!st->garbage_nr_users || c->quiet || c->json)
		return;
	if (!needs_recovery)
		then = "; nothing to replay, so they stay on disk (e2fsck "
		       "would clear them)";
	else if (!(c->opts.flags & RECOVER_FL_DRY_RUN))
		then = " (the replay writes them zeroed)";
	fprintf(stderr, "%s: %s: the journal superblock claims %u users, but an "
		"internal journal has one: its fields after s_errno are garbage "
		"and were taken as zero, as e2fsck does%s\n", prog, c->device,
		st->garbage_nr_users, then);
}

/*
 * Before any report: a mounted filesystem read by -i or -l, and the
 * features libext2fs does not know that the replay goes past (said when
 * there is a log to replay, with -i, -l and -s, and with -v: not on every
 * run over a clean Lustre MDT).
 */
void note_features(const struct cli *c, const struct recover_stats *st,
		   int needs_recovery)
{
	if (c->quiet)
		return;
	if (st->mounted)
		fprintf(stderr, "%s: warning: %s is mounted: its journal is live, "
			"and what is shown is a snapshot the kernel may already "
			"have changed\n", prog, c->device);
	if (c->feat.tolerated && (needs_recovery || c->verbose ||
				  c->mode != MODE_REPLAY))
		fprintf(stderr, "%s: %s: libext2fs does not know the feature(s) "
			"%s: a replay of full commits does not need to (it writes "
			"logged blocks where their tags say and reads no "
			"directory); fast commits are not replayed\n", prog,
			c->device, fs_feature_names(c->feat.tolerated, 0));
}

void report_text(const struct cli *c, const struct recover_super *sb,
		 const struct recover_stats *st, double secs)
{
	int dry = c->opts.flags & RECOVER_FL_DRY_RUN;

	printf("%s: %s: %s %llu block%s from %llu transaction%s", prog,
	       c->device, dry ? "would replay" : "replayed", st->replayed,
	       st->replayed == 1 ? "" : "s", st->transactions,
	       st->transactions == 1 ? "" : "s");
	if (st->transactions)
		printf(" (tid %u-%u)", st->first_tid, st->end_tid - 1);
	printf("; %llu skipped by revoke records, %llu on bad checksums; %.2f s\n",
	       st->revoked, st->bad_csum, secs);
	if (st->fc_state == RECOVER_FC_LIVE)
		printf("%s: %s: %s %llu fast commit%s (%llu records, tid %u)\n",
		       prog, c->device, dry ? "would replay" : "replayed",
		       st->fc_commits, st->fc_commits == 1 ? "" : "s",
		       st->fc_tags, st->fc_tid);
	if (st->end_reason == RECOVER_END_TRUNCATED)
		printf("%s: the dump ends at journal block %llu, inside the log: "
		       "transaction %u and any later ones are lost\n",
		       prog, st->end_at.jblock, st->end_at.tid);
	if (st->journal_inode_backup)
		printf("%s: %s: the journal inode was invalid: %s from the "
		       "superblock's backup, as e2fsck does\n", prog, c->device,
		       dry ? "would be rewritten" : "rewritten");
	if (st->fc_state == RECOVER_FC_EMPTY && st->fc_end == RECOVER_FC_END_HEAD_TID)
		printf("%s: the fast-commit area is stale (its HEAD is of a "
		       "transaction other than %u): ignored, as the kernel "
		       "ignores it\n", prog, st->fc_tid);
	if (sb->source == RECOVER_SRC_DUMP && !dry)
		printf("%s: %s: %s\n", prog, c->device, st->dump_is_current ?
		       "the dump holds the filesystem's current journal: that "
		       "journal was reset and needs_recovery cleared" :
		       "only the dump's blocks were written: the filesystem's own "
		       "journal was not reset, and its superblock is as the log "
		       "left it (a logged copy of it brings back its flags of "
		       "then): look with jrecover -i, then run e2fsck -f");
	if (st->superseded)
		printf("%s: %s: each block %s once: %llu cop%s written, %llu "
		       "superseded by a later copy of the same block\n", prog,
		       c->device, dry ? "would be written" : "written",
		       st->copies_written, st->copies_written == 1 ? "y" : "ies",
		       st->superseded);
	if (st->desc_copies)
		printf("%s: %s: meta_bg: %llu cop%s of the group descriptors %s "
		       "from each metagroup's first, as e2fsck does\n", prog,
		       c->device, st->desc_copies,
		       st->desc_copies == 1 ? "y" : "ies",
		       dry ? "would be rewritten" : "rewritten");
	if (st->bad_csum)
		printf("%s: %llu logged block%s skipped on bad data checksums, "
		       "the first at %s\n", prog, st->bad_csum,
		       st->bad_csum == 1 ? "" : "s", where(&st->bad_csum_at));
	if (st->failed_commit)
		printf("%s: transaction %u was corrupt (commit block at journal "
		       "block %llu): replay stopped before it\n",
		       prog, st->failed_tid, st->failed_at.jblock);
	if (st->error)
		printf("%s: recovery failed (%s at %s): journal reset%s\n", prog,
		       error_message(st->error), where(&st->error_at),
		       st->error == RECOVER_ET_LOG_IO ?
		       " (e2fsck would rewrite the unreadable block and go on)" :
		       " as e2fsck would");
	if (!dry && (st->fs_errors || st->error || st->bad_csum))
		printf("%s: %s: the filesystem is marked as %s: run e2fsck -f\n",
		       prog, c->device,
		       st->fs_errors ? "having errors" : "not clean");
	if (dry)
		printf("%s: %s: would write %llu block%s (%llu bytes), superblocks "
		       "included; needs_recovery is %s\n", prog, c->device,
		       st->write_blocks, st->write_blocks == 1 ? "" : "s",
		       st->write_bytes, st->needs_recovery ? "set" : "clear");
	if (!dry && c->mmp.present && c->mmp.written)
		printf("%s: %s: MMP: waited %u s; the MMP block %s\n", prog,
		       c->device, c->mmp.wait, c->mmp.released ?
		       "is clean again" : "was not released");
}

void report_save(const struct cli *c, const struct recover_super *sb,
		 const struct recover_stats *st)
{
	if (c->json) {
		printf("{\"filesystem\":");
		json_fs(c);
		printf(",\"exit\":%d,\"saved\":", EXIT_CLEAN);
		json_str(c->save_path);
		printf(",\"bytes\":%llu,\"sha256\":\"%s\",", st->saved_bytes,
		       sha256_hex(st->saved_sha256));
		json_super(sb);
		json_mmp(c);
		printf("}\n");
	} else if (!c->quiet) {
		printf("%s: %s: journal %s%s: %llu bytes, sha256 %s\n", prog,
		       c->device, c->save_fd >= 0 ? "written to standard output" :
		       "saved to ", c->save_fd >= 0 ? "" : c->save_path,
		       st->saved_bytes, sha256_hex(st->saved_sha256));
	}
}

/* The checks a dump's replay could make, in words. */
static void stale_checked(const struct cli *c, const struct recover_stats *st,
			  FILE *f)
{
	unsigned int k = st->stale_checks;

	if (k & RECOVER_STALE_FACTS) {
		fprintf(f, "%s: %s: checked against the record jrecover -s saved "
			"with the dump (mount and write times, mount count, kbytes "
			"written%s)%s\n", prog, c->opts.journal_path,
			(k & RECOVER_STALE_JOURNAL) ? ", the journal superblock" : "",
			(k & RECOVER_STALE_TIME) ? " and the times" : "");
		return;
	}
	fprintf(f, "%s: %s: the dump carries no record of %s (jrecover -s "
		"saves one): ", prog, c->opts.journal_path, c->device);
	if (k & (RECOVER_STALE_TIME | RECOVER_STALE_SEQUENCE))
		fprintf(f, "checked only %s%s%s\n",
			(k & RECOVER_STALE_TIME) ? "the filesystem's mount and "
			"write times against the log's last commit time" : "",
			(k & RECOVER_STALE_TIME) && (k & RECOVER_STALE_SEQUENCE) ?
			" and " : "",
			(k & RECOVER_STALE_SEQUENCE) ? "its own journal's sequence" :
			"");
	else
		fprintf(f, "whether the filesystem changed after the log was "
			"written could not be checked (no usable commit time)\n");
	if (k & RECOVER_STALE_SHIFTED)
		fprintf(f, "%s: %s: the commit time is stored shifted by 32 bits, "
			"as debugfs writes it: read as %s\n", prog,
			c->opts.journal_path, utc_time(st->stale_log_time));
}

/*
 * A dump's replay and the filesystem's changes since the log: what was
 * found and checked; after a refusal, what replaying would do and how to
 * go on.  (A replay that found nothing says only what it could not check.)
 */
void stale_report(const struct cli *c, const struct recover_stats *st,
		  int refused)
{
	unsigned int f = st->stale_found;
	FILE *out = stderr;

	if (!c->opts.journal_path || c->quiet)
		return;
	if (f & RECOVER_STALE_MOUNT)
		fprintf(out, "%s: %s: mounted since the dump was saved (mount "
			"count %u, %u at the save)\n", prog, c->device,
			st->stale_fs_mnt_count, st->stale_saved_mnt_count);
	if (f & RECOVER_STALE_WRITE)
		fprintf(out, "%s: %s: written since the dump was saved (last "
			"write %s, ", prog, c->device,
			utc_time(st->stale_fs_wtime));
	if (f & RECOVER_STALE_WRITE)
		fprintf(out, "%s at the save)\n", utc_time(st->stale_saved_wtime));
	if (f & RECOVER_STALE_JOURNAL)
		fprintf(out, "%s: %s: its journal was replayed, used, dropped "
			"or made anew since the dump was saved (its superblock "
			"differs from the one recorded)\n", prog, c->device);
	if (f & RECOVER_STALE_TIME) {
		fprintf(out, "%s: %s: last mounted or written %s, ", prog,
			c->device, utc_time(st->stale_fs_time));
		fprintf(out, "after the log's last commit (%s)\n",
			utc_time(st->stale_log_time));
	}
	if (f & RECOVER_STALE_SEQUENCE)
		fprintf(out, "%s: %s: its own journal (sequence %u) is not the "
			"dump's: made anew, or used past the dump's log, since\n",
			prog, c->device, st->stale_own_sequence);
	if (refused || !(st->stale_checks & RECOVER_STALE_FACTS))
		stale_checked(c, st, out);
	if (refused)
		fprintf(out, "%s: replaying %s now would put the log's old blocks "
			"back over everything done on %s since: files made since "
			"would vanish, files deleted would come back.  To do it "
			"anyway, copy %s first (dd), then run: %s "
			"--replay-stale-dump -j %s %s\n", prog, c->opts.journal_path,
			c->device, c->device, prog, c->opts.journal_path, c->device);
	else if (f)
		fprintf(out, "%s: %s: replayed although the filesystem changed "
			"since (--replay-stale-dump)\n", prog, c->device);
}
