/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kwork -- the filesystem operations of tests/kernel's workloads, each
 * committed by fsync, and the shutdown that leaves the journal as a crash
 * leaves it.  Debian's base system has no python3 and no xfs_io, and the
 * coreutils cannot fsync after a fallocate or hold a writer running, so
 * the workloads call this instead.
 *
 * usage: kwork COMMAND [-n] ARGS...
 *   shutdown MNT [nologflush|logflush|default]
 *                      EXT4_IOC_SHUTDOWN on the filesystem mounted at MNT
 *                      (default nologflush: the log is left as it is)
 *   write FILE OFF LEN [SEED]   write LEN bytes at OFF (FILE is created)
 *   append FILE LEN [SEED]      write LEN bytes at the end of FILE
 *   fallocate FILE MODE OFF LEN MODE: alloc, keep (KEEP_SIZE), punch,
 *                      zero (ZERO_RANGE), collapse, insert
 *   truncate FILE SIZE
 *   shrink FILE STEP            truncate FILE to 0 in steps of STEP bytes,
 *                      each step a transaction of its own
 *   setxattr PATH NAME VALUE
 *   fsync PATH...               fsync files or directories
 *   xattrs PATH                 print the extended attributes of PATH, one
 *                      "NAME=HEXVALUE" a line, sorted
 *   writer FILE BLOCKS BS       until an I/O error or a signal: write one
 *                      block of BS bytes in FILE (BLOCKS of them, in turn),
 *                      every 8th write also appends to FILE.log, fsync
 *                      both; "running" on stdout after the first fsync, the
 *                      count of fsyncs on stderr at the end
 * Every command that changes something fsyncs what it changed (and, for a
 * new file, its directory) unless -n is given.  The data written is a
 * function of SEED and the byte offset alone, so a file's contents can be
 * made again.  Exit status: 0, 1 when an operation fails, 2 usage error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/falloc.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

/* From the kernel's fs/ext4/ext4.h: _IOR('X', 125, __u32). */
#define EXT4_IOC_SHUTDOWN	_IOR('X', 125, uint32_t)
#define EXT4_GOING_FLAGS_DEFAULT	0x0
#define EXT4_GOING_FLAGS_LOGFLUSH	0x1
#define EXT4_GOING_FLAGS_NOLOGFLUSH	0x2

static const char *prog = "kwork";
static int do_sync = 1;

static void usage(void)
{
	fprintf(stderr,
		"usage: kwork shutdown MNT [nologflush|logflush|default]\n"
		"       kwork write [-n] FILE OFF LEN [SEED]\n"
		"       kwork append [-n] FILE LEN [SEED]\n"
		"       kwork fallocate [-n] FILE alloc|keep|punch|zero|collapse|insert OFF LEN\n"
		"       kwork truncate [-n] FILE SIZE\n"
		"       kwork shrink FILE STEP\n"
		"       kwork setxattr [-n] PATH NAME VALUE\n"
		"       kwork fsync PATH...\n"
		"       kwork xattrs PATH\n"
		"       kwork writer FILE BLOCKS BS\n");
	exit(2);
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s %s: %s\n", prog, what, path, strerror(errno));
	exit(1);
}

static unsigned long long number(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "%s: not a number: %s\n", prog, s);
		exit(2);
	}
	return v;
}

static void fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("cannot open", path);
	if (fsync(fd))
		die("fsync failed on", path);
	close(fd);
}

/* A new directory entry is only durable once its directory is fsynced. */
static void fsync_parent(const char *path)
{
	char *copy = strdup(path);

	if (!copy) {
		errno = ENOMEM;
		die("cannot copy", path);
	}
	fsync_path(dirname(copy));
	free(copy);
}

static void sync_fd(int fd, const char *path)
{
	if (do_sync && fsync(fd))
		die("fsync failed on", path);
}

/*
 * The byte at OFF of the data for SEED: each 8-byte word is a mix of the
 * seed and the word's offset (splitmix64's finalizer), so every block of
 * every file differs and can be made again.
 */
static void fill(unsigned char *buf, size_t len, uint64_t off, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t w = ((off + i) >> 3) * 0x9e3779b97f4a7c15ULL + seed;

		w ^= w >> 30;
		w *= 0xbf58476d1ce4e5b9ULL;
		w ^= w >> 27;
		w *= 0x94d049bb133111ebULL;
		w ^= w >> 31;
		buf[i] = (unsigned char)(w >> (((off + i) & 7) * 8));
	}
}

static void write_data(int fd, const char *path, uint64_t off, uint64_t len,
		       uint64_t seed)
{
	unsigned char buf[65536];

	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t w;

		fill(buf, n, off, seed);
		w = pwrite(fd, buf, n, off);
		if (w < 0)
			die("cannot write", path);
		off += (uint64_t)w;
		len -= (uint64_t)w;
	}
}

/* Open FILE for writing; a file this creates gets its directory fsynced. */
static int open_w(const char *path, int flags)
{
	int created = access(path, F_OK) != 0;
	int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);

	if (fd < 0)
		die("cannot open", path);
	if (created && do_sync)
		fsync_parent(path);
	return fd;
}

static int cmd_shutdown(int argc, char **argv)
{
	uint32_t flags = EXT4_GOING_FLAGS_NOLOGFLUSH;
	int fd;

	if (argc < 1 || argc > 2)
		usage();
	if (argc == 2) {
		if (!strcmp(argv[1], "nologflush"))
			flags = EXT4_GOING_FLAGS_NOLOGFLUSH;
		else if (!strcmp(argv[1], "logflush"))
			flags = EXT4_GOING_FLAGS_LOGFLUSH;
		else if (!strcmp(argv[1], "default"))
			flags = EXT4_GOING_FLAGS_DEFAULT;
		else
			usage();
	}
	fd = open(argv[0], O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die("cannot open", argv[0]);
	if (ioctl(fd, EXT4_IOC_SHUTDOWN, &flags))
		die("EXT4_IOC_SHUTDOWN failed on", argv[0]);
	close(fd);
	return 0;
}

static int cmd_write(int argc, char **argv, int append)
{
	uint64_t off, len, seed;
	struct stat st;
	int fd;

	if (argc != 3 - append && argc != 4 - append)
		usage();
	fd = open_w(argv[0], 0);
	if (append) {
		if (fstat(fd, &st))
			die("cannot stat", argv[0]);
		off = (uint64_t)st.st_size;
	} else {
		off = number(argv[1]);
	}
	len = number(argv[2 - append]);
	seed = argc == 4 - append ? number(argv[3 - append]) : 1;
	write_data(fd, argv[0], off, len, seed);
	sync_fd(fd, argv[0]);
	close(fd);
	return 0;
}

static int cmd_fallocate(int argc, char **argv)
{
	static const struct {
		const char *name;
		int mode;
	} modes[] = {
		{ "alloc", 0 },
		{ "keep", FALLOC_FL_KEEP_SIZE },
		{ "punch", FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE },
		{ "zero", FALLOC_FL_ZERO_RANGE },
		{ "collapse", FALLOC_FL_COLLAPSE_RANGE },
		{ "insert", FALLOC_FL_INSERT_RANGE },
	};
	size_t i;
	int fd;

	if (argc != 4)
		usage();
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name))
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		usage();
	fd = open_w(argv[0], 0);
	if (fallocate(fd, modes[i].mode, (off_t)number(argv[2]),
		      (off_t)number(argv[3])))
		die("fallocate failed on", argv[0]);
	sync_fd(fd, argv[0]);
	close(fd);
	return 0;
}

static int cmd_truncate(int argc, char **argv)
{
	int fd;

	if (argc != 2)
		usage();
	fd = open_w(argv[0], 0);
	if (ftruncate(fd, (off_t)number(argv[1])))
		die("cannot truncate", argv[0]);
	sync_fd(fd, argv[0]);
	close(fd);
	return 0;
}

static int cmd_shrink(int argc, char **argv)
{
	uint64_t step, size;
	struct stat st;
	int fd;

	if (argc != 2)
		usage();
	step = number(argv[1]);
	if (!step)
		usage();
	fd = open(argv[0], O_WRONLY);
	if (fd < 0)
		die("cannot open", argv[0]);
	if (fstat(fd, &st))
		die("cannot stat", argv[0]);
	size = (uint64_t)st.st_size;
	while (size) {
		size = size > step ? size - step : 0;
		if (ftruncate(fd, (off_t)size))
			die("cannot truncate", argv[0]);
		if (fsync(fd))
			die("fsync failed on", argv[0]);
	}
	close(fd);
	return 0;
}

static int cmd_setxattr(int argc, char **argv)
{
	if (argc != 3)
		usage();
	if (lsetxattr(argv[0], argv[1], argv[2], strlen(argv[2]), 0))
		die("cannot set an extended attribute on", argv[0]);
	if (do_sync)
		fsync_path(argv[0]);
	return 0;
}

static int cmd_fsync(int argc, char **argv)
{
	int i;

	if (argc < 1)
		usage();
	for (i = 0; i < argc; i++)
		fsync_path(argv[i]);
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmd_xattrs(int argc, char **argv)
{
	char *list, **names, *p;
	ssize_t len, i, n = 0;

	if (argc != 1)
		usage();
	len = llistxattr(argv[0], NULL, 0);
	if (len < 0)
		die("cannot list the extended attributes of", argv[0]);
	list = malloc((size_t)len + 1);
	names = malloc(((size_t)len + 1) * sizeof(*names));
	if (!list || !names) {
		errno = ENOMEM;
		die("cannot list the extended attributes of", argv[0]);
	}
	len = llistxattr(argv[0], list, (size_t)len);
	if (len < 0)
		die("cannot list the extended attributes of", argv[0]);
	for (p = list; p < list + len; p += strlen(p) + 1)
		names[n++] = p;
	qsort(names, (size_t)n, sizeof(*names), compare_names);
	for (i = 0; i < n; i++) {
		unsigned char val[65536];
		ssize_t vlen = lgetxattr(argv[0], names[i], val, sizeof(val));
		ssize_t j;

		if (vlen < 0)
			die("cannot read an extended attribute of", argv[0]);
		printf("%s=", names[i]);
		for (j = 0; j < vlen; j++)
			printf("%02x", val[j]);
		printf("\n");
	}
	free(names);
	free(list);
	return 0;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int cmd_writer(int argc, char **argv)
{
	unsigned char *buf;
	uint64_t blocks, bs, n = 0;
	char log[PATH_MAX];
	int fd, lfd;

	if (argc != 3)
		usage();
	blocks = number(argv[1]);
	bs = number(argv[2]);
	if (!blocks || !bs || bs > 1 << 20)
		usage();
	if (snprintf(log, sizeof(log), "%s.log", argv[0]) >= (int)sizeof(log))
		usage();
	buf = malloc(bs);
	if (!buf) {
		errno = ENOMEM;
		die("cannot write", argv[0]);
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	fd = open_w(argv[0], 0);
	lfd = open_w(log, O_APPEND);
	/* From here on an error is the shutdown: report and stop. */
	while (!stop) {
		uint64_t off = (n % blocks) * bs;

		fill(buf, bs, off, n + 1);
		if (pwrite(fd, buf, bs, (off_t)off) != (ssize_t)bs)
			break;
		if (n % 8 == 7 && write(lfd, buf, bs) != (ssize_t)bs)
			break;
		if (fsync(fd) || (n % 8 == 7 && fsync(lfd)))
			break;
		if (!n++) {
			printf("running\n");
			fflush(stdout);
		}
	}
	fprintf(stderr, "%s: writer stopped after %llu fsyncs: %s\n", prog,
		(unsigned long long)n, stop ? "signal" : strerror(errno));
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		usage();
	cmd = argv[1];
	argv += 2;
	argc -= 2;
	if (argc > 0 && !strcmp(argv[0], "-n")) {
		do_sync = 0;
		argv++;
		argc--;
	}
	if (!strcmp(cmd, "shutdown"))
		return cmd_shutdown(argc, argv);
	if (!strcmp(cmd, "write"))
		return cmd_write(argc, argv, 0);
	if (!strcmp(cmd, "append"))
		return cmd_write(argc, argv, 1);
	if (!strcmp(cmd, "fallocate"))
		return cmd_fallocate(argc, argv);
	if (!strcmp(cmd, "truncate"))
		return cmd_truncate(argc, argv);
	if (!strcmp(cmd, "shrink"))
		return cmd_shrink(argc, argv);
	if (!strcmp(cmd, "setxattr"))
		return cmd_setxattr(argc, argv);
	if (!strcmp(cmd, "fsync"))
		return cmd_fsync(argc, argv);
	if (!strcmp(cmd, "xattrs"))
		return cmd_xattrs(argc, argv);
	if (!strcmp(cmd, "writer"))
		return cmd_writer(argc, argv);
	usage();
	return 2;
}
