/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fail.c -- jrecover's error messages: what failed, where in the log,
 * which path it is about, and what to do next.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <et/com_err.h>

#include "librecover.h"
#include "jrecover.h"

static int is_mmp_error(errcode_t err)
{
	return err == EXT2_ET_MMP_FAILED || err == EXT2_ET_MMP_FSCK_ON ||
	       err == EXT2_ET_MMP_UNKNOWN_SEQ || err == EXT2_ET_MMP_BAD_BLOCK ||
	       err == EXT2_ET_MMP_MAGIC_INVALID ||
	       err == EXT2_ET_MMP_CSUM_INVALID ||
	       err == EXT2_ET_MMP_CHANGE_ABORT ||
	       err == EXT2_ET_MMP_OPEN_DIRECT;
}

/* "node 'n1' (device 'sdb'), sequence 0x..., updated ..." */
void print_mmp_holder(const struct recover_mmp *m)
{
	fprintf(stderr, "node '%s' (device '%s'), sequence 0x%08x, last "
		"updated %s", m->nodename, m->bdevname, m->seq,
		utc_time(m->time));
}

/* After an MMP refusal: who holds the filesystem, and the way out. */
static void mmp_explain(const struct cli *c, errcode_t err)
{
	const struct recover_mmp *m = &c->mmp;

	if (!m->present)
		return;
	if (m->read && (err == EXT2_ET_MMP_FAILED || err == EXT2_ET_MMP_FSCK_ON ||
			err == EXT2_ET_MMP_UNKNOWN_SEQ ||
			err == EXT2_ET_MMP_CHANGE_ABORT)) {
		fprintf(stderr, "%s: %s: the MMP block names ", prog, c->device);
		print_mmp_holder(m);
		fputc('\n', stderr);
	}
	if (err == EXT2_ET_MMP_FAILED)
		fprintf(stderr, "%s: %s: another node updated the MMP block "
			"during the wait: the filesystem is in use there; "
			"nothing was written\n", prog, c->device);
	else if (err == EXT2_ET_MMP_CHANGE_ABORT)
		fprintf(stderr, "%s: %s: another node wrote the MMP block while "
			"jrecover held it; jrecover stopped and left the block "
			"to it (jrecover -i tells whether the journal still "
			"needs recovery)\n", prog, c->device);
	if (err == EXT2_ET_MMP_FSCK_ON || err == EXT2_ET_MMP_UNKNOWN_SEQ)
		fprintf(stderr, "%s: if you are sure the filesystem is not in use "
			"on any node, run: tune2fs -f -E clear_mmp %s\n", prog,
			c->device);
	else if (err == EXT2_ET_MMP_BAD_BLOCK || err == EXT2_ET_MMP_MAGIC_INVALID ||
		 err == EXT2_ET_MMP_CSUM_INVALID)
		fprintf(stderr, "%s: the MMP block (block %llu) is damaged; if you "
			"are sure the filesystem is not in use on any node, run "
			"e2fsck, which repairs it\n", prog, m->block);
}

/*
 * What to tell the user to do next, for the errors that have an answer.
 * A hint promises e2fsck's result from -f only where -f gives it byte for
 * byte (tests/oracle/jw-refuse.sh): a recovery failure the scan found.
 */
static const char *advice(errcode_t err, const struct recover_stats *st,
			  enum recover_about what)
{
	int in_log = st && st->error == err;

	if (err == RECOVER_ET_MOUNTED)
		return "unmount it first";
	if (err == RECOVER_ET_BUSY)
		return "wait for the program using it (another fsck?) to finish";
	if (err == RECOVER_ET_NEED_EXT_JOURNAL)
		return "the superblock names an external journal (journal UUID "
		       "set): name that device with -j; nothing was written";
	if (err == RECOVER_ET_JOURNAL_FLAG_CLEAR)
		return "nothing was written; the superblock contradicts itself: "
		       "e2fsck -y would delete the journal, losing its log, and "
		       "check the whole filesystem.  To replay the log first: "
		       "jrecover -s FILE saves it, debugfs -w -R 'feature "
		       "has_journal' sets the flag again, then run jrecover";
	if (err == RECOVER_ET_STALE_DUMP)
		return "nothing was written";
	if (err == RECOVER_ET_DEVICE_SMALL)
		return "nothing was written; the device or image is shorter than "
		       "the filesystem (a truncated image or a wrong partition?): "
		       "restore its full size, then run jrecover again";
	if (err == RECOVER_ET_FC_CORRUPT || err == RECOVER_ET_FC_RECORD ||
	    err == RECOVER_ET_FC_REPLAY)
		return "nothing was written; see jrecover -i and -l";
	if (err == RECOVER_ET_DUMP_MISMATCH || err == RECOVER_ET_EXT_JOURNAL_UUID)
		return "check the journal path; -f replays it anyway";
	if (err == RECOVER_ET_JDEV_MAGIC || err == RECOVER_ET_JDEV_FEATURE ||
	    err == RECOVER_ET_NOT_JOURNAL_DEV)
		return "check that -j names this filesystem's journal device "
		       "(dumpe2fs -h shows journal_dev on it)";
	if (err == RECOVER_ET_JDEV_UUID)
		return "check that -j names this filesystem's journal device: its "
		       "UUID must be the filesystem's journal UUID (dumpe2fs -h of both)";
	if (err == RECOVER_ET_JDEV_BLOCKSIZE)
		return "check that -j names this filesystem's journal device: "
		       "its block size must be the filesystem's";
	if (err == RECOVER_ET_JDEV_CSUM)
		return "check that -j names this filesystem's journal device; "
		       "-f rewrites the checksum and replays, as e2fsck -y does";
	if (err == RECOVER_ET_JDEV_USERS)
		return "check that -j names this filesystem's journal device "
		       "(dumpe2fs -h lists its users); -f replays it anyway, as e2fsck does";
	if (err == RECOVER_ET_SB_NR_USERS)
		return "the journal superblock is damaged; check that -j names "
		       "this filesystem's journal";
	if (err == RECOVER_ET_UNSUPP_MULTIFS)
		return "neither e2fsck nor the kernel replays a journal shared "
		       "by several filesystems";
	if (what == RECOVER_ABOUT_JOURNAL && (err == RECOVER_ET_MAGIC_BAD ||
					      err == RECOVER_ET_SB_TYPE))
		return "check that -j names a journal device or a saved journal dump";
	if ((err == RECOVER_ET_BAD_CSUM_TXN || err == RECOVER_ET_REVOKE_COUNT) &&
	    in_log)
		return "nothing was written; -f resets the journal as e2fsck would, "
		       "losing its updates";
	/* e2fsck -y rewrites an unreadable block and reads on. */
	if (err == RECOVER_ET_LOG_IO && in_log)
		return "nothing was written; -f resets the journal, losing its "
		       "updates (e2fsck would rewrite the unreadable block and "
		       "go on)";
	if (err == RECOVER_ET_LOG_IO)
		return "nothing was written; the journal superblock cannot be read";
	if (err == RECOVER_ET_TAG_PAST_END)
		return "nothing was written; the journal is corrupt";
	if (err == RECOVER_ET_TAG_OWN_JOURNAL)
		return "nothing was written; the journal is corrupt: its tags "
		       "name blocks of the journal itself, which e2fsck would "
		       "overwrite while it reads on (jrecover -l lists them); "
		       "save the journal (jrecover -s FILE) before letting "
		       "e2fsck replay it";
	if (err == RECOVER_ET_JOURNAL_INODE)
		return "nothing was written; e2fsck would delete the journal, "
		       "losing its updates, then check the filesystem and make "
		       "a new journal";
	if (err == RECOVER_ET_LOG_WITHOUT_FLAG)
		return "nothing was written; the kernel would discard this log at "
		       "mount, e2fsck would replay it and then run a full check; "
		       "-f replays it";
	if (err == EXT2_ET_MMP_FAILED || err == EXT2_ET_MMP_FSCK_ON ||
	    err == EXT2_ET_MMP_UNKNOWN_SEQ || err == EXT2_ET_MMP_BAD_BLOCK ||
	    err == EXT2_ET_MMP_MAGIC_INVALID || err == EXT2_ET_MMP_CSUM_INVALID)
		return "refused by multi-mount protection";
	return NULL;
}

/* The path an error is about, as the library says. */
static const char *error_path(const struct cli *c)
{
	if (c->error_about == RECOVER_ABOUT_JOURNAL && c->opts.journal_path)
		return c->opts.journal_path;
	if (c->error_about == RECOVER_ABOUT_SAVE && c->save_path)
		return c->save_path;
	return c->device;
}

/*
 * An error about the filesystem reads "jrecover: MESSAGE while WHAT IMG";
 * one about another path (the -j journal, the -s file) is reported
 * against that path: "jrecover: PATH: MESSAGE while WHAT IMG".
 */
int fail(struct cli *c, errcode_t err, const char *what,
	 const struct recover_stats *st)
{
	const char *a = advice(err, st, c->error_about);
	const char *path = error_path(c);
	const char *name;

	/* Only the open refuses; later, the MMP block went bad under us. */
	if (is_mmp_error(err) && strcmp(what, "opening"))
		a = NULL;
	progress_erase(c);
	if (err == RECOVER_ET_INTERRUPTED && c->mode == MODE_SAVE) {
		if (c->save_fd >= 0)
			fprintf(stderr, "%s: %s: interrupted; the copy on standard "
				"output is incomplete\n", prog, c->device);
		else
			fprintf(stderr, "%s: %s: interrupted; %s left as it was\n",
				prog, c->device, c->save_path);
	} else if (err == RECOVER_ET_INTERRUPTED) {
		fprintf(stderr, "%s: %s: interrupted; %s\n", prog, c->device,
			st && st->replayed ? "the journal still needs recovery: "
			"run jrecover again" : "nothing was written");
	} else if (exit_status(err, st) == EXIT_PARTIAL) {
		com_err(prog, err, "while %s %s", what, c->device);
		fprintf(stderr, "%s: %s: the replay stopped part way: blocks "
			"were written (%llu bytes of them went through) before "
			"the error; the journal still needs recovery "
			"(needs_recovery is set).  Fix the cause (free space, the "
			"device) and run jrecover again%s\n",
			prog, c->device, st->written_bytes,
			c->undo_path ? ", or undo what was written with e2undo" :
			"");
		if (is_mmp_error(err))
			mmp_explain(c, err);
	} else {
		if (st && st->error == err)
			fprintf(stderr, "%s: %s: %s at %s\n", prog, path,
				error_message(err), where(&st->error_at));
		if (st && err == RECOVER_ET_FC_REPLAY && st->fc_error)
			fprintf(stderr, "%s: %s: replaying the fast commits: %s\n",
				prog, c->device, error_message(st->fc_error));
		if (path != c->device)
			fprintf(stderr, "%s: %s: %s while %s %s%s%s\n", prog, path,
				error_message(err), what, c->device,
				a ? ": " : "", a ? a : "");
		else
			com_err(prog, err, "while %s %s%s%s", what, c->device,
				a ? ": " : "", a ? a : "");
		if (is_mmp_error(err))
			mmp_explain(c, err);
		if (err == RECOVER_ET_STALE_DUMP && st)
			stale_report(c, st, 1);
	}
	if (c->json) {
		printf("{\"filesystem\":");
		json_fs(c);
		printf(",\"exit\":%d,\"error\":", exit_status(err, st));
		json_str(error_message(err));
		printf(",\"code\":");
		name = recover_error_name(err);
		if (name)
			json_str(name);
		else
			printf("null");
		printf(",\"path\":");
		json_str(path);
		if (st && st->error == err) {
			printf(",");
			json_where("error_at", &st->error_at);
		}
		json_mmp(c);
		printf("}\n");
	}
	return exit_status(err, st);
}
