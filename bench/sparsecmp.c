/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sparsecmp -- compare two sparse filesystem images, skipping their holes.
 *
 * The benchmark images are sparse files of up to ~130 GiB holding a few GiB
 * of data; reading their holes costs more than the replay being measured.
 * This walks both files with SEEK_DATA/SEEK_HOLE and reads only ranges where
 * at least one of them has data (a hole facing data reads as zeros, as it
 * should).  As tests/integration/imgcmp, it skips the fields of the primary
 * superblock that a replay may set differently: s_wtime, s_wtime_hi,
 * s_kbytes_written and s_checksum.
 *
 * With -k JSB (JSB: the byte offset of the journal superblock in the image)
 * it also skips what a kernel mount and unmount write besides the replay
 * (bench/run.sh's kernel column): s_mtime and s_mnt_count of the primary
 * superblock, and the journal superblock's s_head (set on unmount, never by
 * e2fsck) and s_checksum.
 *
 * usage: sparsecmp [-k JSB] A B   exit 0 same, 1 different, 2 error
 *        sparsecmp -r FILE   read the data of FILE once (warm the page
 *                            cache); prints the bytes read
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK		(4u << 20)
#define MAX_REPORT	10

/* Byte ranges of the image not compared (primary superblock at 1024). */
static const struct { const char *name; off_t off, len; } skip[] = {
	{ "s_wtime",		1024 + 0x30,  4 },
	{ "s_kbytes_written",	1024 + 0x178, 8 },
	{ "s_wtime_hi",		1024 + 0x274, 1 },
	{ "s_checksum",		1024 + 0x3fc, 4 },
};

/* With -k: offsets in the primary superblock, or (jsb) in the journal's. */
static const struct { const char *name; off_t off, len; int jsb; } kskip[] = {
	{ "s_mtime",		1024 + 0x2c,  4, 0 },
	{ "s_mnt_count",	1024 + 0x34,  2, 0 },
	{ "jsb s_head",		0x58,         4, 1 },
	{ "jsb s_checksum",	0xfc,         4, 1 },
};

static off_t kernel_jsb = -1;	/* -k: the journal superblock's offset */

static int skipped(off_t pos)
{
	size_t i;

	for (i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (pos >= skip[i].off && pos < skip[i].off + skip[i].len)
			return 1;
	for (i = 0; kernel_jsb >= 0 && i < sizeof kskip / sizeof kskip[0]; i++) {
		off_t o = kskip[i].off + (kskip[i].jsb ? kernel_jsb : 0);

		if (pos >= o && pos < o + kskip[i].len)
			return 1;
	}
	return 0;
}

static void die(const char *what, const char *name)
{
	fprintf(stderr, "sparsecmp: %s %s: %s\n", what, name, strerror(errno));
	exit(2);
}

/*
 * Where the current extent of fd containing pos ends, and whether it is
 * data.  Ranges past the end of the file count as a hole to end.
 */
static off_t extent_at(int fd, off_t pos, off_t end, int *data)
{
	off_t d = lseek(fd, pos, SEEK_DATA), h;

	if (d < 0 && errno != ENXIO)
		return -1;
	if (d < 0 || d >= end) {
		*data = 0;
		return end;
	}
	if (d > pos) {
		*data = 0;
		return d;
	}
	h = lseek(fd, pos, SEEK_HOLE);
	if (h < 0)
		return -1;
	*data = 1;
	return h < end ? h : end;
}

static void read_all(int fd, unsigned char *buf, size_t len, off_t pos,
		     const char *name)
{
	while (len) {
		ssize_t k = pread(fd, buf, len, pos);

		if (k < 0)
			die("reading", name);
		if (k == 0) {		/* past the end: zeros */
			memset(buf, 0, len);
			return;
		}
		buf += k;
		len -= k;
		pos += k;
	}
}

static int warm(const char *name)
{
	unsigned char *buf = malloc(CHUNK);
	unsigned long long total = 0;
	struct stat st;
	off_t pos = 0, end;
	int fd = open(name, O_RDONLY), data;

	if (fd < 0 || fstat(fd, &st))
		die("opening", name);
	if (!buf)
		die("allocating a buffer for", name);
	while (pos < st.st_size) {
		end = extent_at(fd, pos, st.st_size, &data);
		if (end < 0)
			die("seeking in", name);
		for (; data && pos < end; pos += CHUNK < end - pos ? CHUNK : end - pos) {
			size_t n = CHUNK < end - pos ? CHUNK : end - pos;

			read_all(fd, buf, n, pos, name);
			total += n;
		}
		pos = end;
	}
	printf("%llu\n", total);
	free(buf);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *a, *b;
	unsigned long long ndiff = 0, compared = 0;
	struct stat sa, sb;
	off_t pos = 0;
	int fa, fb;

	if (argc == 3 && !strcmp(argv[1], "-r"))
		return warm(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "-k")) {
		char *e;

		errno = 0;
		kernel_jsb = strtoll(argv[2], &e, 10);
		if (errno || e == argv[2] || *e || kernel_jsb < 0) {
			fprintf(stderr, "sparsecmp: bad offset '%s'\n", argv[2]);
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fputs("usage: sparsecmp [-k JSB] A B | sparsecmp -r FILE\n",
		      stderr);
		return 2;
	}
	fa = open(argv[1], O_RDONLY);
	if (fa < 0 || fstat(fa, &sa))
		die("opening", argv[1]);
	fb = open(argv[2], O_RDONLY);
	if (fb < 0 || fstat(fb, &sb))
		die("opening", argv[2]);
	if (sa.st_size != sb.st_size) {
		printf("sizes differ: %lld and %lld bytes\n",
		       (long long)sa.st_size, (long long)sb.st_size);
		return 1;
	}
	a = malloc(CHUNK);
	b = malloc(CHUNK);
	if (!a || !b)
		die("allocating buffers for", argv[1]);
	while (pos < sa.st_size) {
		int da, db;
		off_t ea = extent_at(fa, pos, sa.st_size, &da);
		off_t eb = extent_at(fb, pos, sa.st_size, &db);
		off_t end = ea < eb ? ea : eb;

		if (ea < 0 || eb < 0)
			die("seeking in", ea < 0 ? argv[1] : argv[2]);
		while ((da || db) && pos < end) {
			size_t n = CHUNK < end - pos ? CHUNK : end - pos, i;

			read_all(fa, a, n, pos, argv[1]);
			read_all(fb, b, n, pos, argv[2]);
			compared += n;
			if (memcmp(a, b, n)) {
				for (i = 0; i < n; i++) {
					if (a[i] == b[i] || skipped(pos + i))
						continue;
					if (ndiff++ < MAX_REPORT)
						printf("byte %lld (block %lld of 4 KiB): %02x %02x\n",
						       (long long)(pos + i),
						       (long long)((pos + i) / 4096),
						       a[i], b[i]);
				}
			}
			pos += n;
		}
		pos = end;
	}
	if (ndiff) {
		printf("%llu bytes differ (of %llu compared)\n", ndiff, compared);
		return 1;
	}
	free(a);
	free(b);
	return 0;
}
