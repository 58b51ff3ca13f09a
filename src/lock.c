/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lock.c -- one run at a time on a disk, whatever name each run gives it.
 * The image and the journal files (a dump, an external journal kept in a
 * file) are locked with flock(2) for the whole run, exclusively by a run
 * that may write, shared by one that only reads (-n, -i, -l, -s); a loop
 * device given for either has the file behind it locked the same way.
 * A second run is refused at once, naming the holder's pid as /proc/locks
 * gives it.  Block devices themselves are left to O_EXCL, which the
 * library takes for a replay on the device given and on every loop device
 * over the same file (lifecycle.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <et/com_err.h>

#include "librecover.h"
#include "jrecover.h"

/*
 * The pid /proc/locks gives for a flock lock on st's inode other than
 * our own, or 0.  Its lines read "N: FLOCK ADVISORY WRITE PID
 * MAJ:MIN:INODE START END" (device numbers in hex).
 */
static long lock_holder(const struct stat *st)
{
	char line[256], kind[16], mode[16];
	unsigned int maj, min;
	unsigned long long ino;
	long pid, found = 0;
	FILE *f = fopen("/proc/locks", "re");

	while (f && fgets(line, sizeof(line), f)) {
		/* Blocked waiters are listed as "N: -> FLOCK ...". */
		if (strstr(line, "->"))
			continue;
		if (sscanf(line, "%*d: %15s %*s %15s %ld %x:%x:%llu", kind, mode,
			   &pid, &maj, &min, &ino) != 6 || strcmp(kind, "FLOCK"))
			continue;
		if (ino == (unsigned long long)st->st_ino &&
		    maj == major(st->st_dev) && min == minor(st->st_dev) &&
		    pid != (long)getpid()) {
			found = pid;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* What the holder runs, from /proc/PID/cmdline, into buf. */
static void holder_cmd(long pid, char *buf, size_t size)
{
	char path[64];
	size_t n, i;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	while (n && !buf[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
}

/* Is st a file this run has locked already?  (Two of its own locks on one
 * file would refuse each other: flock's belong to the open file.) */
static int locked_here(const struct cli *c, const struct stat *st)
{
	struct stat held;
	int i;

	for (i = 0; i < LOCKS; i++)
		if (c->lock_fd[i] >= 0 && !fstat(c->lock_fd[i], &held) &&
		    outpath_same(&held, st))
			return 1;
	return 0;
}

/*
 * Lock path (when a regular file) for the run, into *fdp; via is the loop
 * device it was found behind, or NULL.  0, or the exit status.
 */
static int lock_one(struct cli *c, const char *path, const char *via,
		    int *fdp)
{
	int shared = !!(c->opts.flags & RECOVER_FL_DRY_RUN);
	char cmd[200];
	struct stat st;
	long pid;
	int fd;

	*fdp = -1;
	if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;	/* the library reports what is wrong with it */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (!flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB)) {
		*fdp = fd;
		return 0;
	}
	if (errno != EWOULDBLOCK) {
		/* A filesystem without flock (some network ones): go on
		 * unlocked, as e2fsck would. */
		close(fd);
		return 0;
	}
	if (fstat(fd, &st))
		st.st_ino = 0;
	close(fd);
	pid = lock_holder(&st);
	if (via)
		fprintf(stderr, "%s: %s: its file %s is locked by another run",
			prog, via, path);
	else
		fprintf(stderr, "%s: %s: locked by another run", prog, path);
	if (pid) {
		/* Another user's command line: anything but a terminal's. */
		holder_cmd(pid, cmd, sizeof(cmd));
		fprintf(stderr, " (pid %ld%s", pid, *cmd ? ": " : "");
		put_escaped(stderr, cmd, strlen(cmd), 0);
		fputc(')', stderr);
	}
	fprintf(stderr, "; nothing was written: wait for it to finish, then "
		"run again\n");
	return EXIT_ERROR;
}

/*
 * The lock for one name a run was given: the file itself (fds[0]), or,
 * for a loop device, the file behind it (fds[1]); none when this run
 * holds that file already.  0, or the exit status.
 */
static int lock_name(struct cli *c, const char *path, int *fds)
{
	char file[4096 + 16];
	struct stat st, behind;

	if (!path || stat(path, &st))
		return 0;
	if (S_ISREG(st.st_mode))
		return locked_here(c, &st) ? 0 : lock_one(c, path, NULL, &fds[0]);
	if (S_ISBLK(st.st_mode) &&
	    outpath_loop_file(st.st_rdev, file, sizeof(file), &behind) &&
	    !locked_here(c, &behind))
		return lock_one(c, file, path, &fds[1]);
	return 0;
}

int lock_files(struct cli *c)
{
	/* The same file twice (or a loop device and its file) is refused
	 * later, not by our own lock. */
	int status = lock_name(c, c->device, &c->lock_fd[0]);

	if (!status)
		status = lock_name(c, c->opts.journal_path, &c->lock_fd[2]);
	return status;
}

void unlock_files(struct cli *c)
{
	int i;

	for (i = 0; i < LOCKS; i++) {
		if (c->lock_fd[i] >= 0)
			close(c->lock_fd[i]);
		c->lock_fd[i] = -1;
	}
}
