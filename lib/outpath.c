/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outpath.c -- may a file be written at a path the operator gave (see
 * outpath.h).  A path the operator gives is theirs: it is replaced only
 * by a file of the kind already there (or when empty), never when it is
 * the filesystem, its journal, the file behind a loop device or a mount,
 * and never through a symbolic link that someone else could have planted.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "ext4_fs.h"
#include "outpath.h"

/* The ext2/3/4 superblock: 1024 bytes in, its magic 56 bytes into it. */
#define EXT_SB_OFFSET		1024
#define EXT_MAGIC		0xEF53

/* e2undo's header starts with this (e2fsprogs' undo_io, version 2). */
#define UNDO_MAGIC		"E2UNDO02"

/* Linux's limit on symbolic links followed for one path. */
#define MAX_LINKS		40

int outpath_same(const struct stat *a, const struct stat *b)
{
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * The name sysfs gives in attr for the file behind a loop device, into
 * name, and that file's identity now into b: 1, or 0 when there is none.
 */
static int backing_file(const char *attr, char *name, size_t size,
			struct stat *b)
{
	size_t n;
	FILE *f = fopen(attr, "re");

	if (!f)
		return 0;
	n = fread(name, 1, size - 1, f);
	fclose(f);
	while (n && name[n - 1] == '\n')
		n--;
	name[n] = '\0';
	/* A name, looked up now: a file that was renamed since the loop
	 * device was set up is not found this way. */
	return n && !stat(name, b);
}

/* Does the file named in sysfs's backing_file at attr have st's identity? */
static int backs(const char *attr, const struct stat *st)
{
	char name[4096 + 16];
	struct stat b;

	return backing_file(attr, name, sizeof(name), &b) && outpath_same(st, &b);
}

int outpath_loop_file(dev_t dev, char *name, size_t size, struct stat *st)
{
	char attr[96];

	snprintf(attr, sizeof(attr), "/sys/dev/block/%u:%u/loop/backing_file",
		 major(dev), minor(dev));
	return backing_file(attr, name, size, st) && S_ISREG(st->st_mode);
}

/* The file behind the loop device dev (a block device number), if any. */
static int loop_backing_is(dev_t dev, const struct stat *st)
{
	char attr[96];

	snprintf(attr, sizeof(attr), "/sys/dev/block/%u:%u/loop/backing_file",
		 major(dev), minor(dev));
	return backs(attr, st);
}

/* Is st the file, the device, or the file behind the loop device at path? */
static int outpath_involves(const struct stat *st, const char *path)
{
	struct stat b;

	if (!path || stat(path, &b))
		return 0;
	if (outpath_same(st, &b))
		return 1;
	/* path is a loop device, st its file; or st a loop device over path. */
	if (S_ISBLK(b.st_mode) && S_ISREG(st->st_mode))
		return loop_backing_is(b.st_rdev, st);
	if (S_ISBLK(st->st_mode) && S_ISREG(b.st_mode))
		return loop_backing_is(st->st_rdev, &b);
	return 0;
}

int outpath_each_loop(const struct stat *st,
		      int (*fn)(void *arg, const char *name, dev_t rdev),
		      void *arg)
{
	char attr[300];
	struct dirent *d;
	unsigned int maj, min;
	int ret = 0;
	DIR *dir;
	FILE *f;

	dir = opendir("/sys/block");
	while (!ret && dir && (d = readdir(dir))) {
		if (strncmp(d->d_name, "loop", 4))
			continue;
		snprintf(attr, sizeof(attr), "/sys/block/%s/loop/backing_file",
			 d->d_name);
		if (!backs(attr, st))
			continue;
		snprintf(attr, sizeof(attr), "/sys/block/%s/dev", d->d_name);
		f = fopen(attr, "re");
		if (!f)
			continue;
		if (fscanf(f, "%u:%u", &maj, &min) == 2)
			ret = fn(arg, d->d_name, makedev(maj, min));
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return ret;
}

static int found_loop(void *arg, const char *name, dev_t rdev)
{
	(void)arg;
	(void)name;
	(void)rdev;
	return 1;
}

/* Every loop device's file, and every mount's source, against st. */
static enum outpath_why outpath_in_use(const struct stat *st)
{
	char src[4096];
	struct stat b;
	FILE *f;

	if (outpath_each_loop(st, found_loop, NULL))
		return OUTPATH_LOOP_BACKING;
	/* A mount's source that is a path (octal escapes are left: such a
	 * name is not found, and the loop device behind it was checked). */
	f = fopen("/proc/self/mounts", "re");
	while (f && fscanf(f, "%4095s %*[^\n]", src) == 1) {
		if (src[0] == '/' && !stat(src, &b) && outpath_same(st, &b)) {
			fclose(f);
			return OUTPATH_MOUNTED;
		}
	}
	if (f)
		fclose(f);
	return OUTPATH_OK;
}

/* Whether what is in the open file fd may be replaced by use. */
static enum outpath_why outpath_contents(int fd, enum outpath_use use)
{
	unsigned char buf[EXT_SB_OFFSET + 64];
	ssize_t n;
	size_t got = 0;

	while (got < sizeof(buf)) {
		n = pread(fd, buf + got, sizeof(buf) - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return OUTPATH_ERRNO;
		if (!n)
			break;
		got += (size_t)n;
	}
	if (!got)
		return OUTPATH_OK;
	/* The headers first: an undo file keeps a copy of the superblock
	 * in its second 1 KiB, and a dump of a 1 KiB journal can log one
	 * there. */
	if (got >= 8 && !memcmp(buf, UNDO_MAGIC, 8))
		return use == OUTPATH_UNDO ? OUTPATH_OK : OUTPATH_HOLDS_UNDO;
	if (got >= 12 && jbd2_super_version(buf))
		return use == OUTPATH_DUMP ? OUTPATH_OK : OUTPATH_HOLDS_DUMP;
	if (got >= EXT_SB_OFFSET + ES_MAGIC + 2 &&
	    get_le16(buf + EXT_SB_OFFSET + ES_MAGIC) == EXT_MAGIC)
		return OUTPATH_HOLDS_FS;
	return OUTPATH_HOLDS_OTHER;
}

static char *join(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name) < 0)
		return NULL;
	return p;
}

/*
 * The kernel's protected_symlinks: in a sticky, world-writable directory
 * a link is followed only by its owner, or when the directory's owner
 * owns it too.  Judged for this process, whatever the sysctl says.
 */
static int link_trusted(const struct stat *dir, const struct stat *link)
{
	if (!(dir->st_mode & S_ISVTX) || !(dir->st_mode & S_IWOTH))
		return 1;
	return link->st_uid == geteuid() || link->st_uid == dir->st_uid;
}

void outpath_free(struct outpath *o)
{
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->dir);
	free(o->name);
	free(o->path);
	o->dirfd = -1;
	o->dir = o->name = o->path = NULL;
}

/* o's directory and name from path; o->dirfd open on the directory. */
static enum outpath_why split(const char *path, struct outpath *o)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char *dir;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return OUTPATH_BAD_NAME;
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir) {
		o->err = ENOMEM;
		return OUTPATH_ERRNO;
	}
	outpath_free(o);
	o->dir = realpath(dir, NULL);
	o->err = errno;
	free(dir);
	o->name = strdup(name);
	if (!o->dir || !o->name) {
		if (o->dir)
			o->err = ENOMEM;
		return OUTPATH_ERRNO;
	}
	o->path = join(o->dir, o->name);
	o->dirfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!o->path || o->dirfd < 0) {
		o->err = o->path ? errno : ENOMEM;
		return OUTPATH_ERRNO;
	}
	return OUTPATH_OK;
}

/* Resolve path into o (outpath_free() it whatever the answer). */
static enum outpath_why outpath_resolve(const char *path, struct outpath *o)
{
	char *next = NULL;
	enum outpath_why why;
	int hops;

	o->dirfd = -1;
	o->dir = o->name = o->path = NULL;
	o->exists = o->linked = 0;
	o->err = 0;
	for (hops = 0;; hops++) {
		struct stat dst;
		char target[4096];
		ssize_t n;

		why = split(next ? next : path, o);
		free(next);
		next = NULL;
		if (why)
			return why;
		if (!fstatat(o->dirfd, o->name, &o->st, AT_SYMLINK_NOFOLLOW)) {
			o->exists = 1;
		} else if (errno == ENOENT) {
			/* A link to nothing: the file would be made where
			 * the operator may not expect it. */
			return o->linked ? OUTPATH_LINK_DANGLING : OUTPATH_OK;
		} else {
			o->err = errno;
			return OUTPATH_ERRNO;
		}
		if (!S_ISLNK(o->st.st_mode))
			return OUTPATH_OK;
		if (hops == MAX_LINKS)
			return OUTPATH_LINK_LOOP;
		if (fstat(o->dirfd, &dst)) {
			o->err = errno;
			return OUTPATH_ERRNO;
		}
		if (!link_trusted(&dst, &o->st))
			return OUTPATH_LINK_UNTRUSTED;
		n = readlinkat(o->dirfd, o->name, target, sizeof(target) - 1);
		if (n < 0) {
			o->err = errno;
			return OUTPATH_ERRNO;
		}
		target[n] = '\0';
		next = target[0] == '/' ? strdup(target) : join(o->dir, target);
		if (!next) {
			o->err = ENOMEM;
			return OUTPATH_ERRNO;
		}
		o->linked = 1;
	}
}

/* An existing file (or device) st, open as fd (-1 when not a file). */
static enum outpath_why judge(const struct stat *st, int fd,
			      enum outpath_use use, const char *device,
			      const char *journal, const char *other)
{
	enum outpath_why why;

	if (outpath_involves(st, device))
		return OUTPATH_IS_DEVICE;
	if (outpath_involves(st, journal))
		return OUTPATH_IS_JOURNAL;
	if (outpath_involves(st, other))
		return OUTPATH_IS_OTHER;
	why = outpath_in_use(st);
	if (why)
		return why;
	if (!S_ISREG(st->st_mode))
		return OUTPATH_NOT_REGULAR;
	return st->st_size ? outpath_contents(fd, use) : OUTPATH_OK;
}

enum outpath_why outpath_check(const char *path, enum outpath_use use,
			       const char *device, const char *journal,
			       const char *other, struct outpath *o)
{
	enum outpath_why why = outpath_resolve(path, o);
	int fd = -1;

	if (why || !o->exists)
		return why;
	if (S_ISREG(o->st.st_mode)) {
		fd = openat(o->dirfd, o->name,
			    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			o->err = errno;
			return OUTPATH_ERRNO;
		}
	}
	why = judge(&o->st, fd, use, device, journal, other);
	if (why == OUTPATH_ERRNO)
		o->err = errno;
	if (fd >= 0)
		close(fd);
	return why;
}

enum outpath_why outpath_check_fd(int fd, enum outpath_use use,
				  const char *device, const char *journal)
{
	enum outpath_why why;
	struct stat st;

	if (fstat(fd, &st))
		return OUTPATH_ERRNO;
	/* A pipe, a socket, a terminal: nothing the run could destroy. */
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return OUTPATH_OK;
	if (S_ISREG(st.st_mode) && st.st_size) {
		/* Opened for writing only (>, >>): read through a new
		 * descriptor on the same file. */
		char self[64];
		int rfd;

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		rfd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (rfd >= 0) {
			why = judge(&st, rfd, use, device, journal, NULL);
			close(rfd);
			return why;
		}
	}
	return judge(&st, fd, use, device, journal, NULL);
}

int outpath_create_temp(const struct outpath *o, char **tmp, char **tmpname,
			int *fdp)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned int seed = (unsigned int)getpid() * 2654435761U ^
			    (unsigned int)(uintptr_t)o;
	int tries, i, fd = -1;
	size_t len;

	*tmp = *tmpname = NULL;
	if (asprintf(tmpname, ".%s.XXXXXX", o->name) < 0) {
		*tmpname = NULL;
		return ENOMEM;
	}
	len = strlen(*tmpname);
	for (tries = 0; tries < 1000 && fd < 0; tries++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (seed * 1103515245U + 12345U) ^ (unsigned int)ts.tv_nsec;
		for (i = 0; i < 6; i++)
			(*tmpname)[len - 6 + i] =
				digits[(seed >> (i * 5)) % (sizeof(digits) - 1)];
		fd = openat(o->dirfd, *tmpname, O_RDWR | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int e = errno;

		free(*tmpname);
		*tmpname = NULL;
		return e;
	}
	*tmp = join(o->dir, *tmpname);
	if (!*tmp) {
		close(fd);
		unlinkat(o->dirfd, *tmpname, 0);
		free(*tmpname);
		*tmpname = NULL;
		return ENOMEM;
	}
	*fdp = fd;
	return 0;
}

int outpath_fd_name(int fd, char *buf)
{
	struct stat a, b;

	snprintf(buf, OUTPATH_FD_NAME, "/proc/self/fd/%d", fd);
	if (fstat(fd, &a) || stat(buf, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		return ENOENT;
	return 0;
}

/* Is the entry name in o->dir (a link not followed) the file open as fd? */
static int entry_is(const struct outpath *o, const char *name, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) &&
	       !fstatat(o->dirfd, name, &b, AT_SYMLINK_NOFOLLOW) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * Whoever may write o->dir may replace tmpname at any time: the check
 * before the rename keeps this run from moving someone else's entry to
 * the operator's name; the check after it tells the few instructions
 * between the two apart (the entry is then reported, not trusted).
 */
int outpath_commit(const struct outpath *o, const char *tmpname, int fd)
{
	if (!entry_is(o, tmpname, fd))
		return OUTPATH_REPLACED;
	if (renameat(o->dirfd, tmpname, o->dirfd, o->name))
		return errno;
	/* The entry itself durable, as far as the directory's filesystem
	 * can make it. */
	(void)fsync(o->dirfd);
	return entry_is(o, o->name, fd) ? 0 : OUTPATH_REPLACED;
}

void outpath_discard(const struct outpath *o, const char *tmpname, int fd)
{
	if (entry_is(o, tmpname, fd))
		unlinkat(o->dirfd, tmpname, 0);
}

const char *outpath_reason(enum outpath_why why, enum outpath_use use)
{
	switch (why) {
	case OUTPATH_OK:
		return "can be written";
	case OUTPATH_ERRNO:
		return "cannot be looked at";
	case OUTPATH_BAD_NAME:
		return "does not name a file";
	case OUTPATH_LINK_UNTRUSTED:
		return "is a symbolic link in a sticky, world-writable "
		       "directory, owned by neither you nor the directory's "
		       "owner (the kernel's protected_symlinks would not "
		       "follow it)";
	case OUTPATH_LINK_DANGLING:
		return "is a symbolic link to nothing";
	case OUTPATH_LINK_LOOP:
		return "has too many levels of symbolic links";
	case OUTPATH_NOT_REGULAR:
		return "exists and is not a regular file";
	case OUTPATH_IS_DEVICE:
		return "is the filesystem itself";
	case OUTPATH_IS_JOURNAL:
		return "is the journal given with -j";
	case OUTPATH_IS_OTHER:
		return "is the file of both -z and -s";
	case OUTPATH_LOOP_BACKING:
		return "is the file behind a loop device";
	case OUTPATH_MOUNTED:
		return "holds a mounted filesystem";
	case OUTPATH_HOLDS_FS:
		return "holds an ext2/3/4 filesystem (its superblock is there)";
	case OUTPATH_HOLDS_UNDO:
		return "is an e2undo file, not a journal dump";
	case OUTPATH_HOLDS_DUMP:
		return use == OUTPATH_UNDO ?
		       "is a journal dump, not an e2undo file" :
		       "is a journal dump";
	case OUTPATH_HOLDS_OTHER:
		return use == OUTPATH_UNDO ?
		       "is neither empty nor an e2undo file" :
		       "is neither empty nor a journal dump";
	}
	return "is refused";
}
