/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fail.c -- jrecover's error messages: what failed, where in the log,
 * which path it is about, and what to do next.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * "nothing was written", unless this run wrote the MMP block (its own
 * sequence while it waited, EXT4_MMP_SEQ_FSCK while it held it): then
 * exactly that, and what the block says now.
 */
static const char *nothing_written(const struct cli *c)
{
	const struct recover_mmp *m = &c->mmp;

	if (!m->present || !m->written)
		return "nothing was written";
	if (m->released)
		return "nothing was written but the MMP block, which jrecover "
		       "rewrote to take it and left clean again (its time, "
		       "node and device name changed)";
	if (m->status == EXT2_ET_MMP_FAILED ||
	    m->status == EXT2_ET_MMP_CHANGE_ABORT)
		return "nothing was written but the MMP block, which jrecover "
		       "rewrote to take it and another node then overwrote";
	return "nothing was written but the MMP block, which jrecover "
	       "rewrote to take it and could not release (tune2fs -f -E "
	       "clear_mmp clears it once no node uses the filesystem)";
}

/* advice() with its "nothing was written" made exact (nothing_written()). */
static void print_advice(const struct cli *c, const char *a)
{
	static const char head[] = "nothing was written";

	if (!strncmp(a, head, sizeof(head) - 1))
		fprintf(stderr, "%s%s", nothing_written(c),
			a + sizeof(head) - 1);
	else
		fputs(a, stderr);
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
			"since jrecover first read it: the filesystem is in use "
			"there; %s\n", prog, c->device, nothing_written(c));
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
	else
		return;
	/* tune2fs and e2fsck refuse a feature their libext2fs does not
	 * know (dirdata: every Lustre MDT). */
	if (c->feat.incompat || c->feat.ro_compat)
		fprintf(stderr, "%s: %s: this system's e2fsprogs do not know the "
			"feature(s) %s and refuse the filesystem: use tune2fs "
			"and e2fsck from e2fsprogs that know them (Lustre's "
			"builds, for dirdata)\n", prog, c->device,
			fs_feature_names(c->feat.incompat, c->feat.ro_compat));
}

/*
 * needs_recovery as the filesystem's superblock on the disk has it, read
 * back after a failed write rather than assumed: the update that clears it
 * may have failed, or reached the disk although a write or a flush said
 * otherwise (a flush that fails after the data went out; a block the io
 * channel's cache writes again at close).  1 set, 0 clear, -1 unknown.
 */
static int disk_needs_recovery(const char *device)
{
	unsigned char sb[1024];
	int fd = open(device, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	/* s_magic (0xEF53) at 56, INCOMPAT_RECOVER (0x4) in the word at 96. */
	if (n != (ssize_t)sizeof(sb) || sb[56] != 0x53 || sb[57] != 0xef)
		return -1;
	return (sb[96] & 0x04) != 0;
}

/*
 * What to tell the user to do next, for the errors whose answer depends on
 * the error alone.  errs ends at the first 0 (no error is 0), or after
 * ADVICE_ERRS of them.
 */
#define ADVICE_ERRS	6

static const struct {
	errcode_t	errs[ADVICE_ERRS];
	const char	*text;
} advice_by_code[] = {
	{ { RECOVER_ET_MOUNTED },
	  "unmount it first (-i and -l read a mounted filesystem)" },
	{ { RECOVER_ET_IS_JOURNAL_DEV },
	  "this is a journal device; give the filesystem and -j PATH" },
	{ { RECOVER_ET_BUSY },
	  "nothing was written; wait for the program using it to finish "
	  "(another fsck?), or unmount it where it is mounted (a mount in "
	  "another mount namespace does not show in this one's mount table)" },
	{ { RECOVER_ET_LOOP_BUSY },
	  "nothing was written; unmount the filesystem where it is mounted "
	  "through that device (a mount in another mount namespace does not "
	  "show in this one's mount table) or wait for the program holding "
	  "it; losetup -l lists the loop devices and their files" },
	{ { RECOVER_ET_NEED_EXT_JOURNAL },
	  "give the journal device (or a saved journal) with -j PATH" },
	{ { RECOVER_ET_JOURNAL_FLAG_CLEAR },
	  "nothing was written; the superblock contradicts itself: "
	  "e2fsck -y would delete the journal, losing its log, and "
	  "check the whole filesystem.  To replay the log first: "
	  "jrecover -s FILE saves it, debugfs -w -R 'feature "
	  "has_journal' sets the flag again, then run jrecover" },
	{ { RECOVER_ET_STALE_DUMP },
	  "nothing was written" },
	{ { RECOVER_ET_SAVE_REPLACED },
	  "the -s path is as it was, and the name taken over is left to "
	  "whoever took it; give -s a path in a directory only you can "
	  "write" },
	{ { RECOVER_ET_SAVE_NO_PROC },
	  "nothing was written; mount /proc and run jrecover again" },
	{ { RECOVER_ET_DEVICE_SMALL },
	  "nothing was written; the device or image is shorter than "
	  "the filesystem (a truncated image or a wrong partition?): "
	  "restore its full size, then run jrecover again" },
	{ { RECOVER_ET_FC_CORRUPT, RECOVER_ET_FC_RECORD, RECOVER_ET_FC_REPLAY },
	  "nothing was written; see jrecover -i and -l" },
	{ { RECOVER_ET_DUMP_MISMATCH, RECOVER_ET_EXT_JOURNAL_UUID },
	  "nothing was written; check the journal path: replaying "
	  "another filesystem's journal writes its blocks over "
	  "this one; if that is really meant, copy the filesystem "
	  "first, then --foreign-journal" },
	{ { RECOVER_ET_JDEV_MAGIC, RECOVER_ET_JDEV_FEATURE,
	    RECOVER_ET_NOT_JOURNAL_DEV },
	  "check that -j names this filesystem's journal device "
	  "(dumpe2fs -h shows journal_dev on it)" },
	{ { RECOVER_ET_JDEV_UUID },
	  "check that -j names this filesystem's journal device: its "
	  "UUID must be the filesystem's journal UUID (dumpe2fs -h of both)" },
	{ { RECOVER_ET_JDEV_BLOCKSIZE },
	  "check that -j names this filesystem's journal device: "
	  "its block size must be the filesystem's" },
	{ { RECOVER_ET_JDEV_CSUM },
	  "check that -j names this filesystem's journal device; "
	  "-f rewrites the checksum and replays, as e2fsck -y does" },
	{ { RECOVER_ET_JDEV_USERS },
	  "check that -j names this filesystem's journal device "
	  "(dumpe2fs -h lists its users); -f replays it anyway, as e2fsck does" },
	{ { RECOVER_ET_SB_NR_USERS },
	  "the journal superblock is damaged; check that -j names "
	  "this filesystem's journal" },
	{ { RECOVER_ET_UNSUPP_MULTIFS },
	  "neither e2fsck nor the kernel replays a journal shared "
	  "by several filesystems" },
	{ { RECOVER_ET_TAG_PAST_END },
	  "nothing was written; the journal is corrupt" },
	{ { RECOVER_ET_TAG_OWN_JOURNAL },
	  "nothing was written; the journal is corrupt: its tags "
	  "name blocks of the journal itself, which e2fsck would "
	  "overwrite while it reads on (jrecover -l lists them); "
	  "save the journal (jrecover -s FILE) before letting "
	  "e2fsck replay it" },
	{ { RECOVER_ET_LOG_MOVES_JOURNAL },
	  "nothing was written; the log would leave a superblock or "
	  "journal inode that no longer name this journal, as a journal "
	  "copied from another filesystem does: e2fsck would replay it, "
	  "delete the journal and check the whole filesystem.  Check "
	  "where the journal came from (jrecover -l lists the log's "
	  "blocks); save it (jrecover -s FILE) before letting e2fsck "
	  "run" },
	{ { RECOVER_ET_JOURNAL_INODE },
	  "nothing was written; e2fsck would delete the journal, "
	  "losing its updates, then check the filesystem and make "
	  "a new journal" },
	{ { RECOVER_ET_LOG_WITHOUT_FLAG },
	  "nothing was written; the kernel would discard this log at "
	  "mount, e2fsck would replay it and then run a full check; "
	  "-f replays it" },
	{ { RECOVER_ET_BACKUP_LOG_NO_FLAG },
	  "nothing was written; e2fsck -b would replay this log and then "
	  "run a full check of the filesystem, which no replay alone "
	  "gives; copy the image and run e2fsck -b on it" },
	{ { RECOVER_ET_BACKUP_FC },
	  "nothing was written; e2fsck -b would replay the fast commits "
	  "and then stop with an error; run jrecover without -b once the "
	  "primary superblock is good" },
	{ { EXT2_ET_MMP_FAILED, EXT2_ET_MMP_FSCK_ON, EXT2_ET_MMP_UNKNOWN_SEQ,
	    EXT2_ET_MMP_BAD_BLOCK, EXT2_ET_MMP_MAGIC_INVALID,
	    EXT2_ET_MMP_CSUM_INVALID },
	  "refused by multi-mount protection" },
};

/*
 * The advice for the errors whose answer depends on more than the error:
 * whether the open failed, which path the library says it is about, and
 * whether the scan found it in the log.  No error here is in
 * advice_by_code[], so the order of the two does not matter.
 */
static const char *advice_in_context(errcode_t err,
				     const struct recover_stats *st,
				     enum recover_about what, int opening)
{
	int in_log = st && st->error == err;

	/* What the path given as the filesystem holds is not one. */
	if (opening && what == RECOVER_ABOUT_FS && err == EXT2_ET_BAD_MAGIC)
		return "no ext2/3/4 filesystem and no saved journal there; check "
		       "the path (blkid PATH says what it holds)";
	if (opening && what == RECOVER_ABOUT_FS && err == EXT2_ET_SHORT_READ)
		return "it is empty or too short to hold a filesystem; check the "
		       "path";
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
	if (err == EFBIG)
		return "a file is larger than the file size limit lets this "
		       "process write (ulimit -f): raise the limit and run "
		       "jrecover again";
	return NULL;
}

/*
 * What to tell the user to do next, for the errors that have an answer.
 * A hint promises e2fsck's result from -f only where -f gives it byte for
 * byte (tests/oracle/jw-refuse.sh): a recovery failure the scan found.
 */
static const char *advice(errcode_t err, const struct recover_stats *st,
			  enum recover_about what, int opening)
{
	const char *a = advice_in_context(err, st, what, opening);
	size_t n = sizeof(advice_by_code) / sizeof(advice_by_code[0]);
	size_t i, j;

	if (a)
		return a;
	for (i = 0; i < n; i++)
		for (j = 0; j < ADVICE_ERRS && advice_by_code[i].errs[j]; j++)
			if (advice_by_code[i].errs[j] == err)
				return advice_by_code[i].text;
	return NULL;
}

/*
 * A feature refusal names the features, as e2fsck does ("unsupported
 * feature(s): dirdata"), and says what to do next.
 */
static const char *feature_advice(const struct cli *c, errcode_t err)
{
	static char buf[1024];
	const struct recover_fs_features *f = &c->feat;

	if (err == EXT2_ET_UNSUPP_FEATURE && f->incompat & ~f->tolerated)
		snprintf(buf, sizeof(buf), "unsupported feature(s): %s; nothing "
			 "was written: replay it with an e2fsprogs (or a jrecover "
			 "built with a libext2fs) that knows them",
			 fs_feature_names(f->incompat & ~f->tolerated, 0));
	else if (err == EXT2_ET_RO_UNSUPP_FEATURE && f->ro_compat)
		snprintf(buf, sizeof(buf), "unsupported feature(s): %s; nothing "
			 "was written: -n, -i, -l and -s can read it; replay it "
			 "with an e2fsprogs (or a jrecover built with a libext2fs) "
			 "that knows them", fs_feature_names(0, f->ro_compat));
	else if (err == RECOVER_ET_FC_UNKNOWN_FEATURE && f->tolerated)
		snprintf(buf, sizeof(buf), "unsupported feature(s): %s; nothing "
			 "was written: let the kernel that uses it (ldiskfs, for "
			 "Lustre) replay it at mount, or use an e2fsck that "
			 "knows them",
			 fs_feature_names(f->tolerated, 0));
	else
		return NULL;
	return buf;
}

/*
 * The filesystem cannot be opened for writing: the way to make it writable
 * that fits what it is (a device, an immutable or append-only file, a file
 * on a read-only filesystem, one without write permission).  For -n, which
 * only tried (jrecover.c, as_the_replay()), the replay's refusal.
 */
static const char *readonly_advice(const struct cli *c, errcode_t err,
				   int opening)
{
	static char buf[PATH_MAX + 256];
	const char *dev = c->device;
	const char *how, *tail = "";
	struct stat st;
	int attr = 0;
	int fd;

	if (!opening || c->error_about != RECOVER_ABOUT_FS ||
	    (err != EROFS && err != EACCES && err != EPERM &&
	     err != EXT2_ET_RO_FILSYS))
		return NULL;
	if (!stat(dev, &st) && S_ISREG(st.st_mode)) {
		fd = open(dev, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd >= 0) {
			if (ioctl(fd, FS_IOC_GETFLAGS, &attr))
				attr = 0;
			close(fd);
		}
		if (attr & FS_IMMUTABLE_FL) {
			how = "it is immutable: chattr -i ";
		} else if (attr & FS_APPEND_FL) {
			how = "it is append-only: chattr -a ";
		} else if (err == EROFS) {
			how = "the filesystem holding ";
			tail = " is mounted read-only: remount it read-write";
		} else {
			how = "chmod u+w ";
			tail = ", as its owner or root";
		}
	} else {
		how = "blockdev --setrw ";
	}
	snprintf(buf, sizeof(buf), "it cannot be written%s; -i, -l and -s only "
		 "read it; to replay, make it writable (%s%s%s), or replay a "
		 "copy", (c->opts.flags & RECOVER_FL_DRY_RUN) ?
		 ", so the replay would refuse it" : "", how, dev, tail);
	return buf;
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
	const char *a = advice(err, st, c->error_about, !strcmp(what, "opening"));
	const char *path = error_path(c);
	const char *name;

	if (feature_advice(c, err))
		a = feature_advice(c, err);
	/* -b named a block where libext2fs found no filesystem to open. */
	if (c->opts.superblock && !strcmp(what, "opening") &&
	    c->error_about == RECOVER_ABOUT_FS &&
	    (err == EXT2_ET_BAD_MAGIC || err == EXT2_ET_SB_CSUM_INVALID ||
	     err == EXT2_ET_CORRUPT_SUPERBLOCK || err == EXT2_ET_SHORT_READ))
		a = c->opts.block_size ?
		    "nothing was written; -b names no backup superblock at "
		    "that block of -B's size (dumpe2fs DEVICE | grep -i "
		    "superblock lists them)" :
		    "nothing was written; -b names no backup superblock at "
		    "that block for any block size from 1024 to 65536 "
		    "(dumpe2fs DEVICE | grep -i superblock lists them)";
	if (readonly_advice(c, err, !strcmp(what, "opening")))
		a = readonly_advice(c, err, !strcmp(what, "opening"));
	/* Only the open refuses; later, the MMP block went bad under us. */
	if (is_mmp_error(err) && strcmp(what, "opening"))
		a = NULL;
	progress_erase(c);
	if (err == EPIPE && c->mode == MODE_SAVE && c->save_fd >= 0) {
		fprintf(stderr, "%s: %s: standard output was closed before the "
			"copy was complete (the program reading it went away): "
			"what it received is incomplete\n", prog, c->device);
	} else if (err == RECOVER_ET_INTERRUPTED && c->mode == MODE_SAVE) {
		if (c->save_fd >= 0)
			fprintf(stderr, "%s: %s: interrupted; the copy on standard "
				"output is incomplete\n", prog, c->device);
		else
			fprintf(stderr, "%s: %s: interrupted; %s left as it was\n",
				prog, c->device, c->save_path);
	} else if (err == RECOVER_ET_INTERRUPTED) {
		fprintf(stderr, "%s: %s: interrupted; %s\n", prog, c->device,
			st && st->replayed ? "the journal still needs recovery: "
			"run jrecover again" : nothing_written(c));
	} else if (exit_status(err, st) == EXIT_PARTIAL) {
		int flag = disk_needs_recovery(c->device);

		com_err(prog, err, "while %s %s", what, c->device);
		fprintf(stderr, "%s: %s: the replay stopped part way: blocks "
			"were written (%llu bytes of them went through) before "
			"the error; ", prog, c->device, st->written_bytes);
		if (flag == 1)
			fprintf(stderr, "the journal still needs recovery "
				"(needs_recovery is set on the disk)");
		else if (flag == 0)
			fprintf(stderr, "yet the superblock read back from the "
				"disk has needs_recovery clear (its update reached "
				"the disk despite the error): jrecover -n %s says "
				"whether anything is left to replay", c->device);
		else
			fprintf(stderr, "the superblock on the disk cannot be "
				"read back to tell whether it still needs recovery");
		fprintf(stderr, ".  Fix the cause (%s) and run jrecover again%s\n",
			err == EFBIG ? "the file size limit, ulimit -f" :
			"free space, the device",
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
			fprintf(stderr, "%s: %s: %s while %s %s%s", prog, path,
				error_message(err), what, c->device,
				a ? ": " : "");
		else
			fprintf(stderr, "%s: %s while %s %s%s", prog,
				error_message(err), what, c->device,
				a ? ": " : "");
		if (a)
			print_advice(c, a);
		fputc('\n', stderr);
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
		json_unknown_features(c);
		json_mmp(c);
		printf("}\n");
	}
	return exit_status(err, st);
}
