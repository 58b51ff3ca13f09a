/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outshim.c -- an LD_PRELOAD library for tests/cli/outrace.sh: it plays,
 * at one exact step of a run, the other user that test needs, so that a
 * race is not hoped for but happens every time.  Each part is off unless its
 * environment variable is set:
 *
 *   OUTSHIM_SWAP=PREFIX OUTSHIM_TARGET=PATH
 *	the first file created (O_CREAT|O_EXCL) whose last path component
 *	starts with PREFIX is, as soon as it exists, unlinked and its name
 *	made a symbolic link to PATH: what the owner of a shared directory
 *	can do to a new file of someone else's there.
 *   OUTSHIM_LOG=FILE
 *	a line for each swap appended to FILE.
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
