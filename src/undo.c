/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * undo.c -- -z: the e2undo file that saves what a replay overwrites.
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

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "librecover.h"
#include "jrecover.h"

/*
 * -z: every write to the filesystem goes through libext2fs's undo io
 * manager, which first copies the old contents into the undo file for
 * e2undo(8).  The undo manager appends to an undo file of the same
 * filesystem, refuses any other, and writes a header at close even when
 * nothing was written: so it gets a new, empty file next to FILE, which
 * replaces FILE only when the run wrote something (finish_undo()).
 *
 * The new file is this run's through its descriptor, not its name: FILE's
 * directory may belong to someone else, who can put anything under the new
 * name at any moment (a link to a block device).  The descriptor stays
 * open until the end, the undo manager (which opens its file by name) is
 * given "/proc/self/fd/N", and the rename checks that the name is still
 * that file (outpath_commit()).
 */
/*
 * -z with an external journal device (-j DEVICE): the replay resets that
 * device's journal superblock, and an undo file covers the filesystem's
 * device only.  e2undo would then give back the filesystem as it was,
 * marked as needing recovery, beside a journal whose log is gone.  Refused
 * before anything is opened.  (A saved dump is only read: -z with one is
 * fine.)  The device is told by its ext2 superblock's journal_dev feature.
 */
int undo_refuses_journal(const struct cli *c)
{
	unsigned char sb[1024];
	int fd;
	ssize_t n;

	if (!c->undo_path || !c->opts.journal_path ||
	    (c->opts.flags & RECOVER_FL_DRY_RUN))
		return 0;
	fd = open(c->opts.journal_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* the open proper reports it */
	n = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	/* s_magic (0xEF53, little-endian) and INCOMPAT_JOURNAL_DEV (0x8). */
	if (n != (ssize_t)sizeof(sb) || sb[56] != 0x53 || sb[57] != 0xef ||
	    !(sb[96] & 0x08))
		return 0;
	fprintf(stderr, "%s: -z %s: %s is an external journal device, which the "
		"replay resets and an undo file does not cover: e2undo would put "
		"back the filesystem but not the log.  Nothing was written.  For a "
		"way back, copy the filesystem and the journal device (dd), then "
		"replay without -z\n",
		prog, c->undo_path, c->opts.journal_path);
	return EXIT_USAGE;
}

/* A setup that failed leaves nothing allocated or open behind it. */
static int undo_failed(struct cli *c)
{
	if (c->undo_fd >= 0) {
		outpath_discard(&c->undo_out, c->undo_tmpname, c->undo_fd);
		close(c->undo_fd);
		c->undo_fd = -1;
	}
	free(c->undo_tmp);
	c->undo_tmp = NULL;
	free(c->undo_tmpname);
	c->undo_tmpname = NULL;
	return EXIT_ERROR;
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Whether the undo manager saved any block: an e2undo file starts with
 * the magic "E2UNDO02" and the number of keys (little-endian 64 bits),
 * one key per run of saved blocks.
 */
static int undo_has_blocks(int fd)
{
	unsigned char hdr[16];

	return pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) &&
	       !memcmp(hdr, "E2UNDO02", 8) && get_le(hdr + 8, 8);
}

/*
 * The undo file as e2fsprogs 1.43 and later write it ("E2UNDO02"), as far
 * as finish_undo() reads it.  The header, 512 bytes at the start (its
 * crc32c, of the 508 before it, last): the number of keys at byte 8, the
 * undo block holding the superblock's copy at 16, the first key block at
 * 24, the undo file's block size at 32, the copy's crc32c at 40, the state
 * at 44 (bit 0: finished), three words of features at 48 and the offset
 * of the filesystem in the device at 64.  A key block: its magic at 0,
 * its crc32c (of the block with this field 0) at 4, then from byte 16
 * keys of 16 bytes: the filesystem block (8 bytes), the crc32c of the
 * key's data, the data's size in bytes (at most 512 undo blocks).  A
 * key's data fills the undo blocks after its key block (after the data of
 * the keys before it there); the next key block follows the last key's
 * data.
 */
#define UNDO_HDR_SIZE		512
#define UNDO_KEYS		8
#define UNDO_FIRST_KEYBLOCK	24
#define UNDO_BLOCK_SIZE		32
#define UNDO_SUPER		16
#define UNDO_SB_CRC		40
#define UNDO_STATE		44
#define UNDO_FEATURES		48
#define UNDO_FS_OFFSET		64
#define UNDO_FINISHED		0x1
#define UNDO_KEYBLOCK_MAGIC	0xCADECADEU
#define UNDO_KEY_AT(i)		(16 + 16 * (size_t)(i))
#define UNDO_KEY_MAX_BLOCKS	512

static void put_le32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static int read_all(int fd, void *buf, size_t len, off_t at)
{
	return pread(fd, buf, len, at) == (ssize_t)len;
}

/*
 * The superblock the undo file keeps (its magic inverted) and the crc32c
 * its header keeps of it, against the superblock on device now: e2undo
 * refuses a file whose copy differs, as one of another filesystem.
 */
static int undo_super_matches(int fd, const unsigned char *hdr, uint64_t bs,
			      const char *device)
{
	unsigned char copy[1024], disk[1024];
	int dfd = open(device, O_RDONLY | O_CLOEXEC), ok;

	if (dfd < 0)
		return 0;
	ok = read_all(dfd, disk, sizeof(disk), 1024);
	close(dfd);
	if (!ok || !read_all(fd, copy, sizeof(copy),
			     (off_t)(get_le(hdr + UNDO_SUPER, 8) * bs)))
		return 0;
	copy[56] = (unsigned char)~copy[56];
	copy[57] = (unsigned char)~copy[57];
	return !memcmp(copy, disk, sizeof(disk)) &&
	       ext2fs_crc32c_le(~0U, copy, sizeof(copy)) ==
	       (uint32_t)get_le(hdr + UNDO_SB_CRC, 4);
}

/*
 * Make the undo file one that plain e2undo takes, where it can be: 0 when
 * it is (or now is), -1 when it is not (e2undo needs -f).  *fixed: the
 * number of records cut back, or -1 when only the header was finished.
 *
 * The undo manager writes a block's old contents (adding a key, or
 * growing the last one, first) before it writes the block, and the key
 * blocks and the header after each.  When one of those writes fails (a
 * full filesystem, a file size limit), the write to the filesystem is not
 * made, and the manager's cache keeps the failed block, so that writing
 * the header fails again at close: the header is left as of the last
 * write that worked, not marked finished, and the last key counts data the
 * file never got.  e2undo then stops at that key ("short read"); e2undo
 * -f puts the rest back but marks the filesystem not clean.  So here the
 * keys are read as e2undo reads them: every key block and every key's
 * data must be whole and match its checksum, up to the first key whose
 * data the end of the file cuts off; that key is cut back to the whole
 * blocks the file holds (dropped if none), the keys after it dropped
 * (nothing is lost: those blocks were never written), and the header
 * marked finished once the superblock copy it keeps is the one on the
 * disk.  Anything else leaves the file as it is.
 */
static int undo_make_whole(int fd, const char *device, int *fixed)
{
	unsigned char hdr[UNDO_HDR_SIZE], *kb = NULL, *data = NULL;
	uint64_t keys, i, k, blk, kblk = 0, bs;
	int finished, ret = -1, cut = 0;
	off_t fsize;
	struct stat st;

	*fixed = 0;
	if (fstat(fd, &st) || !read_all(fd, hdr, sizeof(hdr), 0) ||
	    memcmp(hdr, "E2UNDO02", 8))
		return -1;
	fsize = st.st_size;
	keys = get_le(hdr + UNDO_KEYS, 8);
	blk = get_le(hdr + UNDO_FIRST_KEYBLOCK, 8);
	bs = get_le(hdr + UNDO_BLOCK_SIZE, 4);
	finished = get_le(hdr + UNDO_STATE, 4) & UNDO_FINISHED;
	/* No offset into the device, no feature e2undo would refuse. */
	if (bs < 1024 || bs > (1U << 20) || bs % 16 ||
	    get_le(hdr + UNDO_FEATURES, 12) || get_le(hdr + UNDO_FS_OFFSET, 8))
		return -1;
	kb = malloc(bs);
	if (!kb)
		return -1;
	for (i = 0; i < keys; i++) {
		uint64_t size, have;
		off_t at;

		k = i % (bs / 16 - 1);
		if (!k) {
			/* A key block, whole and sound. */
			uint32_t want;

			kblk = blk++;
			if ((off_t)(blk * bs) > fsize ||
			    !read_all(fd, kb, bs, (off_t)(kblk * bs)) ||
			    get_le(kb, 4) != UNDO_KEYBLOCK_MAGIC)
				goto out;
			want = (uint32_t)get_le(kb + 4, 4);
			put_le32(kb + 4, 0);
			if (ext2fs_crc32c_le(~0U, kb, bs) != want)
				goto out;
			put_le32(kb + 4, want);
		}
		size = get_le(kb + UNDO_KEY_AT(k) + 12, 4);
		if (size > UNDO_KEY_MAX_BLOCKS * bs)
			goto out;
		at = (off_t)(blk * bs);
		have = at >= fsize ? 0 : (uint64_t)(fsize - at) < size ?
		       (uint64_t)(fsize - at) / bs * bs : size;
		free(data);
		data = malloc(size ? size : 1);
		if (!data || (have && !read_all(fd, data, have, at)))
			goto out;
		if (have == size) {
			if (ext2fs_crc32c_le(~0U, data, size) !=
			    (uint32_t)get_le(kb + UNDO_KEY_AT(k) + 8, 4))
				goto out;
			blk += (size + bs - 1) / bs;
			continue;
		}
		/* The first key cut off: it and every key after it. */
		cut = (int)(keys - i);
		if (have) {
			put_le32(kb + UNDO_KEY_AT(k) + 12, (uint32_t)have);
			put_le32(kb + UNDO_KEY_AT(k) + 8,
				 ext2fs_crc32c_le(~0U, data, have));
			k++;
		}
		memset(kb + UNDO_KEY_AT(k), 0, bs - UNDO_KEY_AT(k));
		put_le32(kb + 4, 0);
		put_le32(kb + 4, ext2fs_crc32c_le(~0U, kb, bs));
		keys = i + (have ? 1 : 0);
		break;
	}
	if (finished && !cut) {
		ret = 0;
		goto out;
	}
	if (!undo_super_matches(fd, hdr, bs, device))
		goto out;
	for (k = 0; k < 8; k++)
		hdr[UNDO_KEYS + k] = (unsigned char)(keys >> (8 * k));
	put_le32(hdr + UNDO_STATE,
		 (uint32_t)get_le(hdr + UNDO_STATE, 4) | UNDO_FINISHED);
	put_le32(hdr + UNDO_HDR_SIZE - 4,
		 ext2fs_crc32c_le(~0U, hdr, UNDO_HDR_SIZE - 4));
	if ((cut && pwrite(fd, kb, bs, (off_t)(kblk * bs)) != (ssize_t)bs) ||
	    pwrite(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    fsync(fd))
		goto out;
	*fixed = cut ? cut : -1;
	ret = 0;
out:
	free(kb);
	free(data);
	return ret;
}

/* The new undo file's descriptor, for undo_open_fresh() (one -z a run). */
static int fresh_fd = -1;

/*
 * The undo manager's open, given a file that holds no saved block yet
 * emptied first.  The manager writes its header whenever a channel of it
 * is closed, one that wrote nothing included, and it calls that header
 * (which names no block size yet) corrupt when it opens the file again.
 * The library opens the filesystem a second time when libext2fs refuses
 * a feature it does not know at the first (dirdata, on every Lustre MDT:
 * lib/lifecycle.c, open_forced()), so that the second open found the file
 * the first one closed.
 */
static errcode_t undo_open_fresh(const char *name, int flags,
				 io_channel *channel)
{
	if (fresh_fd >= 0 && !undo_has_blocks(fresh_fd) &&
	    ftruncate(fresh_fd, 0))
		return errno;
	return undo_io_manager->open(name, flags, channel);
}

static struct struct_io_manager undo_fresh_manager;

int setup_undo(struct cli *c)
{
	char name[OUTPATH_FD_NAME];
	errcode_t err;

	/* FILE was resolved and judged by check_outputs() (paths.c). */
	c->undo_existed = c->undo_out.exists;
	err = outpath_create_temp(&c->undo_out, &c->undo_tmp,
				  &c->undo_tmpname, &c->undo_fd);
	if (err) {
		c->undo_fd = -1;
		com_err(prog, err, "while creating a new undo file next to %s",
			c->undo_path);
		return EXIT_ERROR;
	}
	if (outpath_fd_name(c->undo_fd, name)) {
		fprintf(stderr, "%s: -z %s: the new undo file cannot be named by "
			"its descriptor (%s is not it: is /proc mounted?), and "
			"its name in %s is not safe to open again; nothing was "
			"written\n", prog, c->undo_path, name, c->undo_out.dir);
		return undo_failed(c);
	}
	undo_fresh_manager = *undo_io_manager;
	undo_fresh_manager.open = undo_open_fresh;
	fresh_fd = c->undo_fd;
	err = set_undo_io_backing_manager(unix_io_manager);
	if (!err)
		err = set_undo_io_backup_file(name);
	if (err) {
		com_err(prog, err, "while setting up the undo file %s",
			c->undo_path);
		return undo_failed(c);
	}
	c->opts.io_manager = &undo_fresh_manager;
	return 0;
}

/* All of from copied into to, and made durable. */
static int copy_fd(int from, int to)
{
	char buf[65536];
	off_t at = 0;

	for (;;) {
		ssize_t n = pread(from, buf, sizeof(buf), at), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (!n)
			break;
		while (w < n) {
			ssize_t k = pwrite(to, buf + w, (size_t)(n - w), at + w);

			if (k < 0 && errno != EINTR)
				return errno;
			if (k > 0)
				w += k;
		}
		at += n;
	}
	return fsync(to) ? errno : 0;
}

/*
 * The new undo file's name was taken over by someone who can write its
 * directory: the undo data, still this run's through its descriptor, goes
 * to a second new file, renamed under the same check.
 */
static int undo_copy(struct cli *c)
{
	char *tmp, *tmpname;
	int fd, e;

	fprintf(stderr, "%s: -z %s: the new undo file %s was replaced by "
		"another file while this run wrote it (someone else can write "
		"%s); the undo data goes from this run's own descriptor to a "
		"second new file\n", prog, c->undo_path, c->undo_tmp,
		c->undo_out.dir);
	e = outpath_create_temp(&c->undo_out, &tmp, &tmpname, &fd);
	if (e)
		return e;
	e = copy_fd(c->undo_fd, fd);
	if (!e)
		e = outpath_commit(&c->undo_out, tmpname, fd);
	if (e)
		outpath_discard(&c->undo_out, tmpname, fd);
	close(fd);
	free(tmp);
	free(tmpname);
	return e;
}

/*
 * After the run: the new undo file replaces FILE when anything was
 * written, even by a run that failed or was stopped half way (it is then
 * the only way back); otherwise it goes and FILE is left as it was.  The
 * command printed is one that works on the file as it is.
 */
void finish_undo(struct cli *c)
{
	const char *force;
	int e, fixed;

	if (c->undo_fd < 0)
		return;
	fresh_fd = -1;
	if (!undo_has_blocks(c->undo_fd)) {
		outpath_discard(&c->undo_out, c->undo_tmpname, c->undo_fd);
		if (c->undo_existed && !c->quiet)
			fprintf(stderr, "%s: nothing was written: undo file %s "
				"left as it was\n", prog, c->undo_path);
		goto out;
	}
	force = undo_make_whole(c->undo_fd, c->device, &fixed) ? "-f " : "";
	if (c->undo_existed && !c->quiet)
		fprintf(stderr, "%s: replacing undo file %s\n", prog,
			c->undo_path);
	e = outpath_commit(&c->undo_out, c->undo_tmpname, c->undo_fd);
	if (e && e != OUTPATH_REPLACED) {
		/* The new name was this run's file just before the rename. */
		com_err(prog, e, "while renaming the undo file %s to %s",
			c->undo_tmp, c->undo_path);
		fprintf(stderr, "%s: e2undo %s%s %s undoes what this run wrote\n",
			prog, force, c->undo_tmp, c->device);
		goto out;
	}
	if (e)
		e = undo_copy(c);
	if (e) {
		if (e == OUTPATH_REPLACED)
			fprintf(stderr, "%s: -z %s: the second new file was "
				"replaced too\n", prog, c->undo_path);
		else
			com_err(prog, e, "while copying the undo data to a new "
				"file next to %s", c->undo_path);
		fprintf(stderr, "%s: -z %s: no undo file of this run is left: "
			"what it wrote cannot be undone with e2undo\n", prog,
			c->undo_path);
		goto out;
	}
	if (fixed > 0)
		fprintf(stderr, "%s: %s: the failed write cut off the data of the "
			"undo file's last record%s (%d), for blocks it never "
			"wrote: cut back to what the file holds and the file "
			"finished, so that e2undo takes it\n", prog,
			c->undo_path, fixed > 1 ? "s" : "", fixed);
	else if (fixed < 0)
		fprintf(stderr, "%s: %s: the undo manager could not finish the "
			"undo file after the failed write; every record in it "
			"checked whole, and the file finished, so that e2undo "
			"takes it\n", prog, c->undo_path);
	if (*force)
		fprintf(stderr, "%s: %s: the undo file is not one plain e2undo "
			"takes: e2undo -f puts the blocks back and marks the "
			"filesystem as not clean (run e2fsck -f after it)\n",
			prog, c->undo_path);
	if (!c->quiet || *force)
		fprintf(stderr, "%s: e2undo %s%s %s undoes what this run wrote\n",
			prog, force, c->undo_path, c->device);
out:
	close(c->undo_fd);
	c->undo_fd = -1;
}
