/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outshim.c -- an LD_PRELOAD library for tests/cli/outrace.sh and
 * tests/cli/limits.sh: it plays, at one exact step of a run, the other
 * user or the failing disk that those tests need, so that a race is not
 * hoped for but happens every time.  Each part is off unless its
 * environment variable is set:
 *
 *   OUTSHIM_SWAP=PREFIX OUTSHIM_TARGET=PATH
 *	the first file created (O_CREAT|O_EXCL) whose last path component
 *	starts with PREFIX is, as soon as it exists, unlinked and its name
 *	made a symbolic link to PATH: what the owner of a shared directory
 *	can do to a new file of someone else's there.
 *   OUTSHIM_EIO_FILE=NAME OUTSHIM_FSYNC_EIO=K
 *	the K-th fsync (or fdatasync) of a file whose last path component is
 *	NAME fails with EIO, once, after the data has reached the file: a
 *	disk that reports an error for a write it kept.  K=0 fails none and
 *	only counts.  Writes (pwrite, pwrite64, write) to NAME that cover
 *	byte 1024, the ext2/3/4 superblock's first, are logged, so that a
 *	test can pick the flush that follows the superblock's update.
 *   OUTSHIM_LOG=FILE
 *	a line for each of those events (a swap; a write over byte 1024,
 *	a flush, with its number and whether it failed) appended to FILE.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int swapped;
static unsigned long syncs;

static void shim_log(const char *fmt, ...)
{
	const char *path = getenv("OUTSHIM_LOG");
	va_list ap;
	FILE *f;

	if (!path || !(f = fopen(path, "ae")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static const char *last_part(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* After a successful create of path (relative to dirfd): the swap. */
static void maybe_swap(int dirfd, const char *path, int flags)
{
	const char *prefix = getenv("OUTSHIM_SWAP");
	const char *target = getenv("OUTSHIM_TARGET");

	if (swapped || !prefix || !target || !*prefix)
		return;
	if ((flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL))
		return;
	if (strncmp(last_part(path), prefix, strlen(prefix)))
		return;
	swapped = 1;
	if (unlinkat(dirfd, path, 0) || symlinkat(target, dirfd, path)) {
		shim_log("swap of %s failed: %s", path, strerror(errno));
		return;
	}
	shim_log("swapped %s for a link to %s", path, target);
}

typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*open_fn)(const char *, int, ...);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

static int call_openat(const char *sym, int dirfd, const char *path,
		       int flags, mode_t mode)
{
	openat_fn real = (openat_fn)dlsym(RTLD_NEXT, sym);
	int fd;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	fd = real(dirfd, path, flags, mode);
	if (fd >= 0)
		maybe_swap(dirfd, path, flags);
	return fd;
}

static int call_open(const char *sym, const char *path, int flags,
		     mode_t mode)
{
	open_fn real = (open_fn)dlsym(RTLD_NEXT, sym);
	int fd;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	fd = real(path, flags, mode);
	if (fd >= 0)
		maybe_swap(AT_FDCWD, path, flags);
	return fd;
}

/* The mode argument is there only with O_CREAT or O_TMPFILE. */
#define MODE_ARG(flags, mode) do {					\
	va_list ap;							\
	mode = 0;							\
	if ((flags) & (O_CREAT | O_TMPFILE)) {				\
		va_start(ap, flags);					\
		mode = (mode_t)va_arg(ap, int);				\
		va_end(ap);						\
	}								\
} while (0)

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return call_openat("openat", dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return call_openat("openat64", dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return call_open("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return call_open("open64", path, flags, mode);
}

/* Is fd open on the file OUTSHIM_EIO_FILE names? */
static int is_eio_file(int fd)
{
	const char *name = getenv("OUTSHIM_EIO_FILE");
	char link[64], target[4096];
	ssize_t n;

	if (!name || !getenv("OUTSHIM_FSYNC_EIO"))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return !strcmp(last_part(target), name);
}

static void note_write(int fd, size_t len, off_t off)
{
	if (off <= 1024 && off + (off_t)len > 1024 && is_eio_file(fd))
		shim_log("write over byte 1024 (%zu bytes at %lld)", len,
			 (long long)off);
}

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*sync_fn)(int);

static ssize_t call_pwrite(const char *sym, int fd, const void *buf,
			   size_t len, off_t off)
{
	pwrite_fn real = (pwrite_fn)dlsym(RTLD_NEXT, sym);
	ssize_t n;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	n = real(fd, buf, len, off);
	if (n > 0)
		note_write(fd, (size_t)n, off);
	return n;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return call_pwrite("pwrite", fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return call_pwrite("pwrite64", fd, buf, len, off);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	write_fn real = (write_fn)dlsym(RTLD_NEXT, "write");
	int saved = errno;
	off_t at = getenv("OUTSHIM_FSYNC_EIO") ? lseek(fd, 0, SEEK_CUR) : -1;
	ssize_t n;

	errno = saved;
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	n = real(fd, buf, len);
	if (n > 0 && at >= 0)
		note_write(fd, (size_t)n, at);
	return n;
}

static int call_sync(const char *sym, int fd)
{
	sync_fn real = (sync_fn)dlsym(RTLD_NEXT, sym);
	unsigned long k;
	int ret;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	ret = real(fd);
	if (!is_eio_file(fd))
		return ret;
	k = strtoul(getenv("OUTSHIM_FSYNC_EIO"), NULL, 10);
	syncs++;
	shim_log("flush %lu%s", syncs, syncs == k ? ": EIO" : "");
	if (syncs == k) {
		errno = EIO;
		return -1;
	}
	return ret;
}

int fsync(int fd)
{
	return call_sync("fsync", fd);
}

int fdatasync(int fd)
{
	return call_sync("fdatasync", fd);
}
