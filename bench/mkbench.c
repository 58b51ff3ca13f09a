/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mkbench -- write the benchmark journal into a fresh ext4 image.
 *
 * The image comes from mke2fs (bench/run.sh sizes it with `mkbench -p`).
 * mkbench then
 *   1. claims the largest free extent of the filesystem for a regular file,
 *      /bench-data, and fills its blocks with data, so that every block the
 *      journal logs is an allocated, already written block of the image: the
 *      replay overwrites data, as on a real device, instead of filling holes
 *      of a sparse file;
 *   2. writes the log with jw_bulk() from tests/lib/jw.c: T transactions,
 *      each logging L blocks of /bench-data then revoking its share of the N
 *      records, a share of them (hit=) naming blocks logged by earlier
 *      transactions, the rest freed blocks the log never logged;
 *   3. sets needs_recovery.
 *
 * The shape (see bench/README): T = N / 8192 transactions by default (8192
 * records, 17 revoke blocks, per transaction), so every part of the journal
 * grows with N and N = 2^25 makes a journal of about 1.1 GiB; L = 50; hit =
 * 1%.  The non-hit records cycle through the whole filesystem outside the
 * logged range, so the image needs N more blocks than that range for all the
 * records to name distinct blocks; `mkbench -p` sizes it that way.
 * With -s S the logged copies cycle through S blocks instead of T * L: -s L
 * makes a journal that relogs the same L blocks in every transaction (the
 * bitmaps and inode table blocks of a real journal), the bench's
 * write-request row.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"

#define BS		4096u
#define RECS_PER_TXN	8192u		/* default T = N / RECS_PER_TXN */
#define DEF_L		50u
#define DEF_HIT		1u
#define DATA_TIME	1700000000u	/* timestamps of /bench-data */
#define FILL_BLOCKS	256u		/* blocks written per call */
#define JOURNAL_SLACK	1024u		/* journal blocks beyond the log */
#define IMAGE_SLACK	(1u << 15)	/* image blocks for metadata etc. */

static const char usage_text[] =
"usage: mkbench [-c] [-t T] [-l L] [-s S] [-H PCT] IMAGE N\n"
"       mkbench -p [-c] [-t T] [-l L] [-s S] N\n"
"  IMAGE  a fresh ext4 image (64bit, 4 KiB blocks) with a journal big\n"
"         enough (see -p); its journal gets N revoke records\n"
"  -c     journal checksums v3 (csum3); without -c no journal checksums\n"
"  -t T   transactions (default N / 8192, at least 1)\n"
"  -l L   logged blocks per transaction (default 50)\n"
"  -s S   the logged blocks cycle through S distinct blocks (default\n"
"         T * L: every logged copy names its own block; S = L: every\n"
"         transaction relogs the same L blocks)\n"
"  -H PCT percent of the records revoking earlier-logged blocks (default 1)\n"
"  -p     print the plan (shell assignments): T, L, the log length, the\n"
"         journal size and the image size to give mke2fs, then exit\n"
"Prints one line of shell assignments describing what was written.\n";

struct shape {
	uint64_t n, t, l, span;	/* span 0: T * L */
	unsigned hit;
	int csum;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mkbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint64_t num(const char *s, const char *what)
{
	unsigned long long v;
	char *e;

	errno = 0;
	v = strtoull(s, &e, 0);
	if (errno || e == s || *e || *s == '-')
		die("bad %s '%s'", what, s);
	return v;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/*
 * Log blocks jw_bulk() places, counted the way jw.c lays them out: per
 * transaction its descriptor(s), data blocks, revoke blocks and commit,
 * then the terminating block.  Tags per
 * descriptor: the first carries a 16-byte UUID; with csum3 a tag is 16
 * bytes and a 4-byte tail ends the block; without checksums a 64bit tag is
 * 12 bytes.  Revoke records are 8 bytes after a 16-byte header.
 */
static uint64_t log_blocks(const struct shape *s)
{
	unsigned tag = s->csum ? 16 : 12, tail = s->csum ? 4 : 0;
	uint64_t tags = 1 + (BS - 12 - tail - tag - 16) / tag;
	uint64_t recs = (BS - 16 - tail) / 8;
	uint64_t i, total = 1;

	for (i = 0; i < s->t; i++) {
		uint64_t share = s->n / s->t + (i < s->n % s->t);

		total += div_up(s->l, tags) + s->l + div_up(share, recs) + 1;
	}
	return total;
}

static void plan(const struct shape *s)
{
	uint64_t log = log_blocks(s);
	uint64_t jmib = div_up(log + JOURNAL_SLACK, 256);
	uint64_t img;

	if (jmib < 4)
		jmib = 4;
	/* N distinct revoked blocks outside the logged range, the logged
	 * range, room for mke2fs's "journal at most half the free space"
	 * rule, and for the inode tables (1/64 of the blocks at 256-byte
	 * inodes, one per 16 KiB) and the other metadata. */
	img = s->n + (s->span ? s->span : s->t * s->l) + 2 * jmib * 256 +
	      IMAGE_SLACK;
	img += img / 32;
	printf("T=%llu L=%llu N=%llu HIT=%u CSUM=%s LOG_BLOCKS=%llu "
	       "JOURNAL_MIB=%llu IMAGE_MIB=%llu\n",
	       (unsigned long long)s->t, (unsigned long long)s->l,
	       (unsigned long long)s->n, s->hit, s->csum ? "v3" : "none",
	       (unsigned long long)log, (unsigned long long)jmib,
	       (unsigned long long)div_up(img, 256));
}

/* The largest run of free blocks: where the logged blocks go. */
static void largest_free(ext2_filsys fs, blk64_t *first, blk64_t *len)
{
	blk64_t b = fs->super->s_first_data_block;
	blk64_t end = ext2fs_blocks_count(fs->super) - 1, z, s;

	*first = *len = 0;
	while (b <= end &&
	       !ext2fs_find_first_zero_block_bitmap2(fs->block_map, b, end, &z)) {
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, z, end, &s))
			s = end + 1;
		if (s - z > *len) {
			*first = z;
			*len = s - z;
		}
		b = s;
	}
}

/* Block contents of /bench-data: nonzero everywhere (so that a sparse copy
 * keeps them), different in every block. */
static void fill(unsigned char *p, blk64_t blk)
{
	unsigned i;

	for (i = 0; i < BS; i += 8)
		jw_put_be64(p + i, (blk << 12 | i) ^ 0x62656e6368646174ull);
}

/*
 * /bench-data: a regular file owning exactly blocks [first, first + span),
 * in order, written with fill().  The blocks are marked in use before the
 * file is mapped, so the extent tree blocks the mapping needs land elsewhere.
 */
static void make_data_file(ext2_filsys fs, blk64_t first, blk64_t span)
{
	struct ext2_inode inode;
	ext2_extent_handle_t h;
	unsigned char *buf;
	ext2_ino_t ino;
	blk64_t b, n, p;
	errcode_t e;

	e = ext2fs_new_inode(fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0644, NULL, &ino);
	if (e)
		die("allocating an inode: %s", error_message(e));
	memset(&inode, 0, sizeof inode);
	inode.i_mode = LINUX_S_IFREG | 0644;
	inode.i_links_count = 1;
	inode.i_atime = inode.i_ctime = inode.i_mtime = DATA_TIME;
	/* Opening an extent handle on an empty inode sets up the header. */
	e = ext2fs_extent_open2(fs, ino, &inode, &h);
	if (e)
		die("extent header: %s", error_message(e));
	ext2fs_extent_free(h);
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	ext2fs_block_alloc_stats_range(fs, first, span, +1);
	e = ext2fs_write_new_inode(fs, ino, &inode);
	for (b = 0; !e && b < span; b++) {
		p = first + b;
		e = ext2fs_bmap2(fs, ino, &inode, NULL, BMAP_SET, b, NULL, &p);
	}
	if (!e)
		e = ext2fs_iblk_add_blocks(fs, &inode, span);
	if (!e)
		e = ext2fs_inode_size_set(fs, &inode, span * BS);
	if (!e)
		e = ext2fs_write_inode(fs, ino, &inode);
	if (!e)
		e = ext2fs_link(fs, EXT2_ROOT_INO, "bench-data", ino,
				EXT2_FT_REG_FILE);
	if (e)
		die("making /bench-data: %s", error_message(e));

	/* Check the mapping before trusting it. */
	for (b = 0; b < span; b += span > 1 ? span - 1 : 1) {
		e = ext2fs_bmap2(fs, ino, &inode, NULL, 0, b, NULL, &p);
		if (e || p != first + b)
			die("/bench-data block %llu is not at %llu",
			    (unsigned long long)b,
			    (unsigned long long)(first + b));
	}

	buf = malloc(FILL_BLOCKS * BS);
	if (!buf)
		die("out of memory");
	for (b = 0; b < span; b += n) {
		blk64_t i;

		n = span - b < FILL_BLOCKS ? span - b : FILL_BLOCKS;
		for (i = 0; i < n; i++)
			fill(buf + i * BS, first + b + i);
		e = io_channel_write_blk64(fs->io, first + b, n, buf);
		if (e)
			die("writing /bench-data: %s", error_message(e));
	}
	free(buf);
}

/* One pass of the writer: dry (every check, nothing written) or real. */
static uint64_t write_log(ext2_filsys fs, struct jw_sink *sink,
			  const struct shape *s, blk64_t first, blk64_t span,
			  int dry)
{
	struct jw w;
	uint64_t used;

	if (jw_init(&w, sink, ext2fs_blocks_count(fs->super), dry))
		die("%s", w.err);
	w.conf.incompat = JW_INCOMPAT_REVOKE | JW_INCOMPAT_64BIT |
			  (s->csum ? JW_INCOMPAT_CSUM_V3 : 0);
	if (jw_start(&w) || jw_bulk(&w, s->t, s->n, s->l, s->hit, first, span) ||
	    jw_finish(&w, 0))
		die("%s", w.err);
	used = w.used;
	jw_free(&w);
	return used;
}

int main(int argc, char **argv)
{
	struct shape s = { .l = DEF_L, .hit = DEF_HIT };
	const char *image;
	struct jw_sink sink;
	ext2_filsys fs;
	blk64_t first, free_len, span;
	uint64_t used;
	int opt, plan_only = 0, have_t = 0;
	errcode_t e;

	while ((opt = getopt(argc, argv, "hpct:l:s:H:")) != -1) {
		switch (opt) {
		case 'p': plan_only = 1; break;
		case 'c': s.csum = 1; break;
		case 't': s.t = num(optarg, "T"); have_t = 1; break;
		case 'l': s.l = num(optarg, "L"); break;
		case 's': s.span = num(optarg, "S"); break;
		case 'H': s.hit = num(optarg, "percentage"); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (argc - optind != (plan_only ? 1 : 2)) {
		fputs(usage_text, stderr);
		return 2;
	}
	s.n = num(argv[argc - 1], "N");
	if (!have_t)
		s.t = s.n / RECS_PER_TXN ? s.n / RECS_PER_TXN : 1;
	if (!s.t || s.t > UINT32_MAX || s.l > UINT32_MAX || s.hit > 100)
		die("T must be 1..2^32-1, L below 2^32, PCT at most 100");
	if (plan_only) {
		plan(&s);
		return 0;
	}
	image = argv[optind];

	add_error_table(&et_ext2_error_table);
	e = ext2fs_open2(image, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			 unix_io_manager, &fs);
	if (e)
		die("opening %s: %s", image, error_message(e));
	if (fs->blocksize != BS)
		die("%s: the block size is %u, not %u", image, fs->blocksize, BS);
	e = ext2fs_read_bitmaps(fs);
	if (e)
		die("reading the bitmaps: %s", error_message(e));
	largest_free(fs, &first, &free_len);
	span = s.t * s.l;
	if (s.span && s.span < span)
		span = s.span;
	if (span > free_len)
		die("%llu logged blocks do not fit in the largest free extent "
		    "(%llu blocks): make the image bigger",
		    (unsigned long long)span, (unsigned long long)free_len);
	if (s.n && ext2fs_blocks_count(fs->super) - span < s.n)
		fprintf(stderr, "mkbench: warning: fewer blocks than records: "
			"some records name the same block\n");
	if (jw_sink_open_internal(&sink, fs))
		die("%s", sink.err);
	/* Check the whole log fits before writing anything. */
	used = write_log(fs, &sink, &s, first, span, 1);
	if (span)
		make_data_file(fs, first, span);
	if (write_log(fs, &sink, &s, first, span, 0) != used)
		die("the dry and the real pass disagree");
	if (jw_sink_close(&sink))
		die("%s", sink.err);
	ext2fs_set_feature_journal_needs_recovery(fs->super);
	ext2fs_mark_super_dirty(fs);
	e = ext2fs_close_free(&fs);
	if (e)
		die("closing %s: %s", image, error_message(e));
	printf("T=%llu L=%llu N=%llu HIT=%u CSUM=%s LOG_BLOCKS=%llu "
	       "DATA_FIRST=%llu DATA_BLOCKS=%llu\n",
	       (unsigned long long)s.t, (unsigned long long)s.l,
	       (unsigned long long)s.n, s.hit, s.csum ? "v3" : "none",
	       (unsigned long long)used, (unsigned long long)first,
	       (unsigned long long)span);
	return 0;
}
