/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcwork.c -- the system calls tests/kernel/fc.sh needs that the shell
 * tools do not offer.
 *
 *   fcwork shutdown DIR	EXT4_IOC_SHUTDOWN on the filesystem DIR is on,
 *				without flushing the journal
 *				(EXT4_GOING_FLAGS_NOLOGFLUSH): what is on disk
 *				then is what a crash would have left
 *   fcwork fsync PATH		fsync(2) PATH: on ext4 with fast_commit, a
 *				fast commit when the change since the last
 *				full commit is eligible
 *   fcwork write PATH OFF LEN SEED
 *				write LEN bytes of a pattern made from SEED at
 *				OFF (creating PATH), then fsync it
 *   fcwork fill PATH OFF LEN SEED
 *				the same without the fsync
 *   fcwork stripes PATH N BLOCKSIZE SEED
 *				write every other block of the first 2N blocks
 *				(N extents once allocated), no fsync
 *   fcwork rename OLD NEW plain|noreplace
 *				rename(2), or renameat2(2) with
 *				RENAME_NOREPLACE, and no fsync
 *   fcwork orphan PATH LEN SEED
 *				create PATH, write LEN bytes, unlink it, fsync
 *				the still open file (a fast commit), then shut
 *				the filesystem down as "shutdown" does with the
 *				file still open: an orphan at the crash
 *   fcwork retail IMG OFFSET BLOCKSIZE NBLOCKS
 *				after a byte edit of a fast-commit area (its
 *				first block at byte OFFSET of IMG): write every
 *				TAIL's crc32c again over the records before it,
 *				so that the edit is read as a valid record
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <ext2fs/ext2fs.h>

/* From the kernel's ext4 uapi: _IOR('X', 125, __u32). */
#define FCWORK_IOC_SHUTDOWN		0x8004587dUL
#define FCWORK_GOING_NOLOGFLUSH		2U

static int die(const char *what, const char *path)
{
	fprintf(stderr, "fcwork: %s %s: %s\n", what, path, strerror(errno));
	return 1;
}

static int do_shutdown(const char *dir)
{
	uint32_t flags = FCWORK_GOING_NOLOGFLUSH;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return die("open", dir);
	if (ioctl(fd, FCWORK_IOC_SHUTDOWN, &flags))
		return die("EXT4_IOC_SHUTDOWN", dir);
	close(fd);
	return 0;
}

static int do_fsync(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return die("open", path);
	if (fsync(fd))
		return die("fsync", path);
	close(fd);
	return 0;
}

static int do_write(const char *path, long long off, long long len,
		    unsigned int seed, int sync)
{
	unsigned char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	uint32_t x = seed * 2654435761U + 1;

	if (fd < 0)
		return die("open", path);
	while (len > 0) {
		size_t n = len < (long long)sizeof(buf) ? (size_t)len : sizeof(buf);
		size_t i;
		ssize_t w;

		for (i = 0; i < n; i++) {
			x = x * 1103515245U + 12345U;
			buf[i] = (unsigned char)(x >> 16);
		}
		w = pwrite(fd, buf, n, (off_t)off);
		if (w != (ssize_t)n)
			return die("write", path);
		off += (long long)n;
		len -= (long long)n;
	}
	if (sync && fsync(fd))
		return die("fsync", path);
	close(fd);
	return 0;
}

static int do_stripes(const char *path, long long n, long long bs,
		      unsigned int seed)
{
	long long i;
	int err = 0;

	for (i = 0; !err && i < n; i++)
		err = do_write(path, 2 * i * bs, bs, seed + (unsigned int)i, 0);
	return err;
}

static int do_orphan(const char *path, long long len, unsigned int seed)
{
	char dir[4096], *slash;
	int fd, err;

	err = do_write(path, 0, len, seed, 0);
	if (err)
		return err;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return die("open", path);
	if (unlink(path))
		return die("unlink", path);
	if (fsync(fd))
		return die("fsync", path);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	err = do_shutdown(dir);
	close(fd);
	return err;
}

static int do_rename(const char *from, const char *to, const char *how)
{
	unsigned int flags;

	if (!strcmp(how, "plain"))
		flags = 0;
	else if (!strcmp(how, "noreplace"))
		flags = RENAME_NOREPLACE;
	else
		return die("rename: unknown way", how);
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, flags))
		return die("rename", from);
	return 0;
}

static unsigned int le16(const unsigned char *p)
{
	return p[0] | (unsigned int)p[1] << 8;
}

/* Records as the kernel walks them; every TAIL gets the crc it needs. */
static int do_retail(const char *img, long long off, unsigned int bs,
		     unsigned int nblocks)
{
	unsigned char *blk = malloc(bs);
	uint32_t crc = 0;
	unsigned int b, pos;
	int fd = open(img, O_RDWR);

	if (fd < 0 || !blk)
		return die("open", img);
	for (b = 0; b < nblocks; b++) {
		off_t at = (off_t)(off + (long long)b * bs);

		if (pread(fd, blk, bs, at) != (ssize_t)bs)
			return die("read", img);
		for (pos = 0; pos + 4 <= bs; ) {
			unsigned int tag = le16(blk + pos), len = le16(blk + pos + 2);

			if (tag < 1 || tag > 9 || len > bs - pos - 4)
				goto done;
			if (tag == 8) {
				crc = ext2fs_crc32c_le(crc, blk + pos, 8);
				blk[pos + 8] = (unsigned char)crc;
				blk[pos + 9] = (unsigned char)(crc >> 8);
				blk[pos + 10] = (unsigned char)(crc >> 16);
				blk[pos + 11] = (unsigned char)(crc >> 24);
				crc = 0;
			} else {
				crc = ext2fs_crc32c_le(crc, blk + pos, 4 + len);
			}
			pos += 4 + len;
		}
		if (pwrite(fd, blk, bs, at) != (ssize_t)bs)
			return die("write", img);
	}
done:
	if (b < nblocks && pwrite(fd, blk, bs,
				  (off_t)(off + (long long)b * bs)) != (ssize_t)bs)
		return die("write", img);
	close(fd);
	free(blk);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "shutdown"))
		return do_shutdown(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fsync"))
		return do_fsync(argv[2]);
	if (argc == 6 && (!strcmp(argv[1], "write") ||
			  !strcmp(argv[1], "fill")))
		return do_write(argv[2], atoll(argv[3]), atoll(argv[4]),
				(unsigned int)strtoul(argv[5], NULL, 0),
				argv[1][0] == 'w');
	if (argc == 6 && !strcmp(argv[1], "stripes"))
		return do_stripes(argv[2], atoll(argv[3]), atoll(argv[4]),
				  (unsigned int)strtoul(argv[5], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "orphan"))
		return do_orphan(argv[2], atoll(argv[3]),
				 (unsigned int)strtoul(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "rename"))
		return do_rename(argv[2], argv[3], argv[4]);
	if (argc == 6 && !strcmp(argv[1], "retail"))
		return do_retail(argv[2], atoll(argv[3]),
				 (unsigned int)atoi(argv[4]),
				 (unsigned int)atoi(argv[5]));
	fprintf(stderr, "usage: fcwork shutdown DIR | fsync PATH | "
		"write|fill PATH OFF LEN SEED | stripes PATH N BLOCKSIZE SEED | "
		"rename OLD NEW plain|noreplace | orphan PATH LEN SEED | "
		"retail IMG OFFSET BLOCKSIZE NBLOCKS\n");
	return 2;
}
