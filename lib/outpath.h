/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outpath.h -- may a file be written at a path the operator gave: the one
 * judgement shared by librecover (recover_save()) and jrecover (-s, -z),
 * compiled into each (Makefile.am builds outpath.c into jrecover too),
 * exported by neither.
 */
#ifndef OUTPATH_H
#define OUTPATH_H

#include <stddef.h>
#include <sys/stat.h>

/* What a run may put at the path, and so what it may replace there. */
enum outpath_use {
	OUTPATH_DUMP,		/* -s: a journal dump */
	OUTPATH_UNDO,		/* -z: an e2undo file */
};

/* Why a path is refused; OUTPATH_OK when it is not. */
enum outpath_why {
	OUTPATH_OK,
	OUTPATH_ERRNO,		/* a system call failed: see the errno kept */
	OUTPATH_BAD_NAME,	/* ends in /, ., .. */
	OUTPATH_LINK_UNTRUSTED,	/* protected_symlinks would not follow it */
	OUTPATH_LINK_DANGLING,	/* a symbolic link to nothing */
	OUTPATH_LINK_LOOP,	/* too many symbolic links */
	OUTPATH_NOT_REGULAR,	/* a directory, a device, a FIFO... */
	OUTPATH_IS_DEVICE,	/* the filesystem (image or device node) */
	OUTPATH_IS_JOURNAL,	/* the journal given with -j */
	OUTPATH_IS_OTHER,	/* the file of the other option */
	OUTPATH_LOOP_BACKING,	/* the file behind a loop device */
	OUTPATH_MOUNTED,	/* a mounted filesystem's source */
	OUTPATH_HOLDS_FS,	/* holds an ext2/3/4 superblock */
	OUTPATH_HOLDS_UNDO,	/* an e2undo file, where a dump would go */
	OUTPATH_HOLDS_DUMP,	/* a journal dump, where an undo file would go */
	OUTPATH_HOLDS_OTHER,	/* something else that is not empty */
};

/*
 * A path resolved for writing: the directory the file is (or will be)
 * in, held open, and its name there.  A final symbolic link is followed
 * only where the kernel's protected_symlinks would follow it.
 */
struct outpath {
	int		dirfd;		/* -1 when not resolved */
	char		*dir;		/* the directory, without symbolic links */
	char		*name;		/* the entry in it */
	char		*path;		/* dir/name */
	int		exists;
	struct stat	st;		/* of the entry, when it exists */
	int		err;		/* with OUTPATH_ERRNO */
	int		linked;		/* reached through a symbolic link */
};

/* The same file, or (both block devices) the same device. */
int outpath_same(const struct stat *a, const struct stat *b);

/*
 * Each loop device whose file is st, in turn: fn(arg, name, rdev) with its
 * name in /sys/block ("loop3") and its device number.  Stops at the first
 * nonzero return of fn and returns it; 0 when fn returned 0 throughout.
 */
int outpath_each_loop(const struct stat *st,
		      int (*fn)(void *arg, const char *name, dev_t rdev),
		      void *arg);

/*
 * The file behind the loop device dev (a device number), as sysfs names
 * it: 1 with its name in name (size bytes) and its identity in st; 0 when
 * dev is no loop device, has no file, or the name no longer leads to a
 * regular file.
 */
int outpath_loop_file(dev_t dev, char *name, size_t size, struct stat *st);

/*
 * Everything at once: path resolved into o and judged for use, with the
 * paths it must not be (NULL where there is none).
 */
enum outpath_why outpath_check(const char *path, enum outpath_use use,
			       const char *device, const char *journal,
			       const char *other, struct outpath *o);

/* An open file (standard output, for -s -) judged the same way. */
enum outpath_why outpath_check_fd(int fd, enum outpath_use use,
				  const char *device, const char *journal);

/* A new file next to o's entry (".NAME.XXXXXX", mode 0600), created
 * with O_EXCL; *tmp is its full path, *tmpname its name in o->dir, *fd
 * the file open for reading and writing.  Returns 0 or an errno. */
int outpath_create_temp(const struct outpath *o, char **tmp, char **tmpname,
			int *fd);

/*
 * A name that can only mean the file open as fd, for a library that opens
 * files by name (libext2fs's io managers): "/proc/self/fd/N", into buf of
 * OUTPATH_FD_NAME bytes.  Returns 0, or ENOENT when /proc does not show
 * fd there as that very file (not mounted, or another /proc).
 */
#define OUTPATH_FD_NAME		32
int outpath_fd_name(int fd, char *buf);

/* Returned by outpath_commit(): tmpname is not (or no longer) fd's file. */
#define OUTPATH_REPLACED	(-1)

/*
 * tmpname (in o->dir) renamed over o's entry, the directory synced, when
 * tmpname is still the file open as fd (device and inode), and the entry
 * it became checked again after the rename.  Returns 0, an errno, or
 * OUTPATH_REPLACED.
 */
int outpath_commit(const struct outpath *o, const char *tmpname, int fd);

/* tmpname removed, if it is still the file open as fd. */
void outpath_discard(const struct outpath *o, const char *tmpname, int fd);

/* A sentence for a refusal, without the path. */
const char *outpath_reason(enum outpath_why why, enum outpath_use use);

void outpath_free(struct outpath *o);

#endif /* OUTPATH_H */
