/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * partition-example -- librecover through an io_manager of the caller's own.
 *
 * This program is documentation for tool authors, such as a VM-snapshot
 * tool that holds raw disk images: it replays the journal of an ext3/ext4
 * filesystem that lives in a partition of a disk image, in place, without
 * copying the partition out.  The library reaches the filesystem only
 * through the io_manager in recover_options.io_manager, so all it takes is
 * a manager that adds the partition's byte offset to every block it is
 * asked for, and refuses to go past the partition's end.
 *
 * The points to take away:
 *   - the name given to recover_open() need not be a path: it is handed
 *     to the manager's open() as it is.  Here it is "DISK:N", partition N
 *     of DISK, and open() reads the MBR partition table itself;
 *   - the methods the library calls (librecover(3), "The io_manager
 *     contract"): open, set_blksize, read_blk64 (a negative count is a
 *     byte count), write_blk64, flush and close; the others are here for
 *     completeness and to show, with -v, that they are not called;
 *   - the library takes no lock on a file: this manager takes flock(2) on
 *     the disk image for as long as its channel is open (shared for a
 *     read-only open, exclusive for a read-write one), as jrecover does
 *     on an image, so that two runs on one disk do not meet;
 *   - libext2fs's mount check looks the name up in the mount table; a name
 *     that is no path matches nothing there, so a tool must know by
 *     itself that the partition is not in use (a snapshot is not).
 *
 * usage: partition-example [-n] [-v] DISK PARTNUM
 *   -n  dry run: report what the journal holds, write nothing, and exit
 *       with the status the replay would
 *   -v  trace every call the library makes into the io_manager (stderr)
 *   PARTNUM  1 to 4, an entry of the disk's MBR partition table
 *
 * Exit status, as jrecover(8)'s:
 *   0  nothing to replay
 *   1  the journal was replayed
 *   4  problems are left (blocks skipped on bad checksums, a corrupt
 *      commit, the filesystem marked with errors)
 *   8  operational error (no such partition, a filesystem that cannot be
 *      opened, the disk locked by another run, ...)
 *  16  usage error
 *
 * Build:
 *   cc partition-example.c $(pkg-config --cflags --libs librecover)
 * (make check builds it against the library in the build tree).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include <librecover.h>

#define EXIT_CLEAN	0
#define EXIT_REPLAYED	1
#define EXIT_PROBLEMS	4
#define EXIT_ERROR	8
#define EXIT_USAGE	16

static const char *prog = "partition-example";
static int verbose;

/* ---- the MBR partition table -------------------------------------------- */

#define SECTOR		512
#define MBR_TABLE	446	/* four entries of 16 bytes */
#define MBR_ENTRY	16
#define MBR_TYPE	4	/* offsets within an entry */
#define MBR_LBA		8
#define MBR_SECTORS	12

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*
 * Where partition partnum (1 to 4) of the disk open on fd lies, in bytes.
 * Returns 0, or an error code with *why saying what is wrong.
 */
static errcode_t find_partition(int fd, int partnum, unsigned long long *start,
				unsigned long long *length, const char **why)
{
	unsigned char mbr[SECTOR];
	const unsigned char *e;
	ssize_t n;

	*why = NULL;
	if (partnum < 1 || partnum > 4) {
		*why = "only the four primary partitions (1 to 4) are known";
		return EXT2_ET_BAD_DEVICE_NAME;
	}
	n = pread(fd, mbr, sizeof(mbr), 0);
	if (n < 0)
		return errno;
	if (n != (ssize_t)sizeof(mbr) || mbr[510] != 0x55 || mbr[511] != 0xaa) {
		*why = "no MBR partition table (no 55 aa at byte 510)";
		return EXT2_ET_BAD_DEVICE_NAME;
	}
	e = mbr + MBR_TABLE + (partnum - 1) * MBR_ENTRY;
	switch (e[MBR_TYPE]) {
	case 0x00:
		*why = "that partition table entry is empty";
		return EXT2_ET_BAD_DEVICE_NAME;
	case 0x05: case 0x0f: case 0x85:
		*why = "an extended partition holds no filesystem";
		return EXT2_ET_BAD_DEVICE_NAME;
	case 0xee:
		*why = "a GPT disk (protective MBR), which this example does not read";
		return EXT2_ET_BAD_DEVICE_NAME;
	}
	if (!le32(e + MBR_LBA) || !le32(e + MBR_SECTORS)) {
		*why = "that partition starts at sector 0 or has no sectors";
		return EXT2_ET_BAD_DEVICE_NAME;
	}
	*start = (unsigned long long)le32(e + MBR_LBA) * SECTOR;
	*length = (unsigned long long)le32(e + MBR_SECTORS) * SECTOR;
	return 0;
}

/*
 * "DISK:N" into the disk's path (malloc'd) and N.  The last colon counts,
 * so a path may hold colons of its own.
 */
static errcode_t parse_name(const char *name, char **disk, int *partnum)
{
	const char *colon = strrchr(name, ':');
	char *end;
	long n;

	if (!colon || colon == name || !colon[1])
		return EXT2_ET_BAD_DEVICE_NAME;
	errno = 0;
	n = strtol(colon + 1, &end, 10);
	if (errno || *end || n < 1 || n > 4)
		return EXT2_ET_BAD_DEVICE_NAME;
	*disk = strndup(name, (size_t)(colon - name));
	if (!*disk)
		return ENOMEM;
	*partnum = (int)n;
	return 0;
}

/* ---- the io_manager --------------------------------------------------- */

/* What each channel of this manager keeps (channel->private_data). */
struct part_channel {
	int fd;				/* the disk image */
	unsigned long long start;	/* the partition's first byte */
	unsigned long long length;	/* its size in bytes */
	int flags;			/* the IO_FLAG_* open() was given */
	struct struct_io_stats stats;
};

static void trace(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void trace(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	fputs("io: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *flag_names(int flags, char *buf, size_t size)
{
	static const struct { int bit; const char *name; } known[] = {
		{ IO_FLAG_RW, "IO_FLAG_RW" },
		{ IO_FLAG_EXCLUSIVE, "IO_FLAG_EXCLUSIVE" },
		{ IO_FLAG_DIRECT_IO, "IO_FLAG_DIRECT_IO" },
		{ IO_FLAG_FORCE_BOUNCE, "IO_FLAG_FORCE_BOUNCE" },
		{ IO_FLAG_THREADS, "IO_FLAG_THREADS" },
		{ IO_FLAG_NOCACHE, "IO_FLAG_NOCACHE" },
	};
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!(flags & known[i].bit))
			continue;
		flags &= ~known[i].bit;
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 used ? "|" : "", known[i].name);
		if (used >= size)
			return buf;
	}
	if (flags)
		snprintf(buf + used, size - used, "%s0x%x", used ? "|" : "",
			 (unsigned int)flags);
	else if (!used)
		snprintf(buf, size, "0");
	return buf;
}

static struct struct_io_manager part_io_manager;

static errcode_t part_open(const char *name, int flags, io_channel *ret)
{
	struct part_channel *p = NULL;
	io_channel ch = NULL;
	const char *why;
	char fl[128], *disk = NULL;
	int partnum, lock;
	errcode_t err;

	trace("open(\"%s\", %s)", name, flag_names(flags, fl, sizeof(fl)));
	err = parse_name(name, &disk, &partnum);
	if (err)
		return err;
	ch = calloc(1, sizeof(*ch));
	p = calloc(1, sizeof(*p));
	if (p)
		p->fd = -1;
	if (ch)
		ch->name = strdup(name);
	if (!ch || !p || !ch->name) {
		err = ENOMEM;
		goto fail;
	}
	p->flags = flags;
	p->stats.num_fields = 2;
	p->fd = open(disk, ((flags & IO_FLAG_RW) ? O_RDWR : O_RDONLY) |
		     O_CLOEXEC | O_NOCTTY);
	if (p->fd < 0) {
		err = errno;
		goto fail;
	}
	/*
	 * The lock the library does not take: one writer or several readers
	 * on the disk for as long as the channel is open.  EBUSY is what
	 * recover_open() turns into RECOVER_ET_BUSY.
	 */
	lock = (flags & (IO_FLAG_RW | IO_FLAG_EXCLUSIVE)) ? LOCK_EX : LOCK_SH;
	if (flock(p->fd, lock | LOCK_NB) && errno == EWOULDBLOCK) {
		err = EBUSY;
		goto fail;
	}
	err = find_partition(p->fd, partnum, &p->start, &p->length, &why);
	if (err)
		goto fail;
	free(disk);
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = &part_io_manager;
	ch->block_size = 1024;		/* libext2fs's default */
	ch->refcount = 1;
	ch->private_data = p;
	*ret = ch;
	return 0;
fail:
	if (p && p->fd >= 0)
		close(p->fd);
	free(p);
	if (ch)
		free(ch->name);
	free(ch);
	free(disk);
	return err;
}

static errcode_t part_close(io_channel ch)
{
	struct part_channel *p = ch->private_data;
	errcode_t err = 0;

	trace("close(\"%s\") refcount %d", ch->name, ch->refcount);
	if (--ch->refcount > 0)
		return 0;
	if (close(p->fd))	/* and the lock goes with it */
		err = errno;
	free(p);
	free(ch->name);
	free(ch);
	return err;
}

static errcode_t part_set_blksize(io_channel ch, int blksize)
{
	trace("set_blksize(%d)", blksize);
	if (blksize <= 0)
		return EXT2_ET_INVALID_ARGUMENT;
	ch->block_size = blksize;
	return 0;
}

/*
 * Blocks of the channel's block size into a byte range of the partition:
 * a count below zero is a number of bytes (libext2fs's convention, used to
 * read the 1024-byte superblock whatever the block size).
 */
static errcode_t part_range(io_channel ch, unsigned long long block, int count,
			    unsigned long long *off, size_t *size)
{
	struct part_channel *p = ch->private_data;
	unsigned long long bs = (unsigned long long)ch->block_size;
	unsigned long long n = count < 0 ? (unsigned long long)-(long long)count :
				(unsigned long long)count * bs;

	if (block > ULLONG_MAX / bs)
		return EXT2_ET_LLSEEK_FAILED;
	*off = block * bs;
	*size = (size_t)n;
	/* Nothing outside the partition is ever read or written. */
	if (*off > p->length || n > p->length - *off)
		return EXT2_ET_LLSEEK_FAILED;
	*off += p->start;
	return 0;
}

static errcode_t part_read_blk64(io_channel ch, unsigned long long block,
				 int count, void *data)
{
	struct part_channel *p = ch->private_data;
	unsigned long long off = 0;
	size_t size = 0, done = 0;
	errcode_t err;
	ssize_t n;

	trace("read_blk64(%llu, %d)", block, count);
	err = part_range(ch, block, count, &off, &size);
	while (!err && done < size) {
		n = pread(p->fd, (char *)data + done, size - done,
			  (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno;
		else if (n == 0)
			err = EXT2_ET_SHORT_READ;
		else
			done += (size_t)n;
	}
	p->stats.bytes_read += done;
	if (err) {
		/* What unix_io_manager hands a short read: zeros. */
		if (done < size)
			memset((char *)data + done, 0, size - done);
		if (ch->read_error)
			err = ch->read_error(ch, (unsigned long)block, count,
					     data, size, (int)done, err);
	}
	return err;
}

static errcode_t part_write_blk64(io_channel ch, unsigned long long block,
				  int count, const void *data)
{
	struct part_channel *p = ch->private_data;
	unsigned long long off = 0;
	size_t size = 0, done = 0;
	errcode_t err;
	ssize_t n;

	trace("write_blk64(%llu, %d)", block, count);
	if (!(p->flags & IO_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	err = part_range(ch, block, count, &off, &size);
	while (!err && done < size) {
		n = pwrite(p->fd, (const char *)data + done, size - done,
			   (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno;
		else if (n == 0)
			err = EXT2_ET_SHORT_WRITE;
		else
			done += (size_t)n;
	}
	p->stats.bytes_written += done;
	if (err && ch->write_error)
		err = ch->write_error(ch, (unsigned long)block, count, data,
				      size, (int)done, err);
	return err;
}

/* The 32-bit calls, kept for older callers of the io_channel. */
static errcode_t part_read_blk(io_channel ch, unsigned long block, int count,
			       void *data)
{
	trace("read_blk(%lu, %d)", block, count);
	return part_read_blk64(ch, block, count, data);
}

static errcode_t part_write_blk(io_channel ch, unsigned long block, int count,
				const void *data)
{
	trace("write_blk(%lu, %d)", block, count);
	return part_write_blk64(ch, block, count, data);
}

/* count bytes at a byte offset of the partition (libext2fs's superblock
 * write uses it where a manager has it). */
static errcode_t part_write_byte(io_channel ch, unsigned long offset,
				 int count, const void *data)
{
	struct part_channel *p = ch->private_data;
	ssize_t n;

	trace("write_byte(%lu, %d)", offset, count);
	if (!(p->flags & IO_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	if (count < 0 || offset > p->length ||
	    (unsigned long long)count > p->length - offset)
		return EXT2_ET_LLSEEK_FAILED;
	n = pwrite(p->fd, data, (size_t)count, (off_t)(p->start + offset));
	if (n < 0)
		return errno;
	p->stats.bytes_written += (unsigned long long)n;
	return n == count ? 0 : EXT2_ET_SHORT_WRITE;
}

static errcode_t part_flush(io_channel ch)
{
	struct part_channel *p = ch->private_data;

	trace("flush()");
	if ((p->flags & IO_FLAG_RW) && fsync(p->fd))
		return errno;
	return 0;
}

static errcode_t part_set_option(io_channel ch, const char *option,
				 const char *arg)
{
	(void)ch;
	trace("set_option(\"%s\", \"%s\")", option, arg ? arg : "");
	return EXT2_ET_INVALID_ARGUMENT;	/* this manager has none */
}

static errcode_t part_get_stats(io_channel ch, io_stats *stats)
{
	struct part_channel *p = ch->private_data;

	trace("get_stats()");
	if (stats)
		*stats = &p->stats;
	return 0;
}

static errcode_t part_discard(io_channel ch, unsigned long long block,
			      unsigned long long count)
{
	(void)ch;
	trace("discard(%llu, %llu)", block, count);
	return EXT2_ET_UNIMPLEMENTED;
}

static errcode_t part_cache_readahead(io_channel ch, unsigned long long block,
				      unsigned long long count)
{
	(void)ch;
	trace("cache_readahead(%llu, %llu)", block, count);
	return EXT2_ET_UNIMPLEMENTED;
}

static errcode_t part_zeroout(io_channel ch, unsigned long long block,
			      unsigned long long count)
{
	(void)ch;
	trace("zeroout(%llu, %llu)", block, count);
	return EXT2_ET_UNIMPLEMENTED;
}

static struct struct_io_manager part_io_manager = {
	.magic		= EXT2_ET_MAGIC_IO_MANAGER,
	.name		= "partition I/O manager",
	.open		= part_open,
	.close		= part_close,
	.set_blksize	= part_set_blksize,
	.read_blk	= part_read_blk,
	.write_blk	= part_write_blk,
	.flush		= part_flush,
	.write_byte	= part_write_byte,
	.set_option	= part_set_option,
	.get_stats	= part_get_stats,
	.read_blk64	= part_read_blk64,
	.write_blk64	= part_write_blk64,
	.discard	= part_discard,
	.cache_readahead = part_cache_readahead,
	.zeroout	= part_zeroout,
};

/* ---- the replay --------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-n] [-v] DISK PARTNUM\n", prog);
}

int main(int argc, char **argv)
{
	struct recover_options opts = RECOVER_INIT(struct recover_options);
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	unsigned long long start, length;
	const char *disk, *why;
	char name[PATH_MAX + 8], *end;
	recover_t r;
	errcode_t err;
	long partnum;
	int ch, fd, dry;

	while ((ch = getopt(argc, argv, "nvh")) != -1) {
		switch (ch) {
		case 'n':
			opts.flags |= RECOVER_FL_DRY_RUN;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_CLEAN;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	disk = argv[optind];
	errno = 0;
	partnum = strtol(argv[optind + 1], &end, 10);
	if (errno || *end || end == argv[optind + 1] || partnum < 1 ||
	    partnum > 4) {
		fprintf(stderr, "%s: %s: not a partition number (1 to 4)\n",
			prog, argv[optind + 1]);
		return EXIT_USAGE;
	}
	dry = !!(opts.flags & RECOVER_FL_DRY_RUN);

	initialize_ext2_error_table();
	initialize_rcvr_error_table();

	/* Say where the partition is, or why there is none, before the
	 * library is asked (its error would only say "bad device name"). */
	fd = open(disk, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		com_err(prog, errno, "while opening %s", disk);
		return EXIT_ERROR;
	}
	err = find_partition(fd, (int)partnum, &start, &length, &why);
	close(fd);
	if (err) {
		if (why)
			fprintf(stderr, "%s: %s: partition %ld: %s\n", prog,
				disk, partnum, why);
		else
			com_err(prog, err, "while reading the partition table "
				"of %s", disk);
		return EXIT_ERROR;
	}
	printf("%s: %s: partition %ld: bytes %llu to %llu (%llu MiB)\n", prog,
	       disk, partnum, start, start + length - 1, length >> 20);
	fflush(stdout);	/* before any message on stderr */

	/* The name for the manager's open(): no path, as the library
	 * opens nothing itself. */
	if ((size_t)snprintf(name, sizeof(name), "%s:%ld", disk, partnum) >=
	    sizeof(name)) {
		fprintf(stderr, "%s: %s: name too long\n", prog, disk);
		return EXIT_USAGE;
	}
	opts.io_manager = &part_io_manager;
	err = recover_open(name, &opts, &r);
	if (err) {
		com_err(prog, err, "while opening %s", name);
		return EXIT_ERROR;
	}
	err = recover_replay(r);	/* scans first */
	recover_get_stats(r, &st);
	recover_close(r);
	if (err) {
		com_err(prog, err, "while replaying the journal of %s", name);
		return EXIT_ERROR;
	}
	switch (st.outcome) {
	case RECOVER_OUTCOME_CLEAN:
		printf("%s: %s: nothing to replay\n", prog, name);
		return EXIT_CLEAN;
	case RECOVER_OUTCOME_RECOVERED:
	case RECOVER_OUTCOME_PROBLEMS:
		printf("%s: %s: %s %llu block(s) from %llu transaction(s)\n",
		       prog, name, dry ? "would replay" : "replayed",
		       st.replayed, st.transactions);
		if (st.outcome == RECOVER_OUTCOME_RECOVERED)
			return EXIT_REPLAYED;
		printf("%s: %s: problems %s: %llu block(s) skipped on bad "
		       "checksums%s%s\n", prog, name, dry ? "would be left" :
		       "left", st.bad_csum,
		       st.failed_commit ? ", a corrupt commit block" : "",
		       st.fs_errors ? ", filesystem marked with errors" : "");
		return EXIT_PROBLEMS;
	case RECOVER_OUTCOME_INTERRUPTED:
	case RECOVER_OUTCOME_FAILED:
	case RECOVER_OUTCOME_NONE:
		break;
	}
	return EXIT_ERROR;
}
