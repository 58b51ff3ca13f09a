/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * imgcmp --- compare two filesystem images byte for byte.
 *
 * The integration tests replay one journal twice, once with e2fsck and once
 * with jrecover, and need the two results to be identical except for the
 * few fields of the primary ext4 superblock that record when and how much
 * was written: s_wtime, s_wtime_hi, s_kbytes_written, and s_checksum, which
 * covers them.  cmp(1) cannot leave fields out, hence this program.
 *
 * The files are read in large chunks and compared with memcmp(); only a
 * chunk that differs is walked byte by byte, so a 64 MiB image costs little
 * more than reading it.  Differences are reported as runs of differing
 * bytes, split at block boundaries, each with its block number, its offset
 * in the block and the superblock fields it touches.
 *
 * usage: imgcmp [-q | -l] [-s] [-x FIELD] [-b BLOCKSIZE] [-J OFFSET] [-n MAX]
 *               FILE_A FILE_B
 * exit:  0 identical (outside the skipped fields), 1 different, 2 error.
 *
 * -s also checks, with metadata_csum, that each file's superblock checksum
 * matches its superblock: the field is skipped, not its meaning.
 *
 * With -l it prints instead the numbers of the blocks that differ, one a
 * line: the tests use that to log every block a debugfs command changed.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ext2fs/ext2_fs.h>

#define CHUNK		(4u << 20)	/* a multiple of every block size */
#define SAMPLE		16		/* bytes shown of each side of a run */
#define SB_OFFSET	1024		/* the primary superblock */
#define SB_SIZE		1024

struct field {
	const char	*name;
	size_t		off;
	size_t		len;
};

#define SBF(f) { #f, offsetof(struct ext2_super_block, f), \
		 sizeof(((struct ext2_super_block *)0)->f) }

/* Fields a journal replay may legitimately set differently. */
static const struct field sb_volatile[] = {
	SBF(s_wtime),
	SBF(s_wtime_hi),
	SBF(s_kbytes_written),
	SBF(s_checksum),
};

/* Names for reports only; fields not listed are reported as "sb+0xNNN". */
static const struct field sb_fields[] = {
	SBF(s_inodes_count), SBF(s_blocks_count), SBF(s_r_blocks_count),
	SBF(s_free_blocks_count), SBF(s_free_inodes_count),
	SBF(s_first_data_block), SBF(s_log_block_size),
	SBF(s_log_cluster_size), SBF(s_blocks_per_group),
	SBF(s_clusters_per_group), SBF(s_inodes_per_group), SBF(s_mtime),
	SBF(s_wtime), SBF(s_mnt_count), SBF(s_max_mnt_count), SBF(s_magic),
	SBF(s_state), SBF(s_errors), SBF(s_minor_rev_level),
	SBF(s_lastcheck), SBF(s_checkinterval), SBF(s_creator_os),
	SBF(s_rev_level), SBF(s_def_resuid), SBF(s_def_resgid),
	SBF(s_first_ino), SBF(s_inode_size), SBF(s_block_group_nr),
	SBF(s_feature_compat), SBF(s_feature_incompat),
	SBF(s_feature_ro_compat), SBF(s_uuid), SBF(s_volume_name),
	SBF(s_last_mounted), SBF(s_algorithm_usage_bitmap),
	SBF(s_prealloc_blocks), SBF(s_prealloc_dir_blocks),
	SBF(s_reserved_gdt_blocks), SBF(s_journal_uuid), SBF(s_journal_inum),
	SBF(s_journal_dev), SBF(s_last_orphan), SBF(s_hash_seed),
	SBF(s_def_hash_version), SBF(s_jnl_backup_type), SBF(s_desc_size),
	SBF(s_default_mount_opts), SBF(s_first_meta_bg), SBF(s_mkfs_time),
	SBF(s_jnl_blocks), SBF(s_blocks_count_hi), SBF(s_r_blocks_count_hi),
	SBF(s_free_blocks_hi), SBF(s_min_extra_isize),
	SBF(s_want_extra_isize), SBF(s_flags), SBF(s_raid_stride),
	SBF(s_mmp_update_interval), SBF(s_mmp_block),
	SBF(s_raid_stripe_width), SBF(s_log_groups_per_flex),
	SBF(s_checksum_type), SBF(s_encryption_level), SBF(s_reserved_pad),
	SBF(s_kbytes_written), SBF(s_snapshot_inum), SBF(s_snapshot_id),
	SBF(s_snapshot_r_blocks_count), SBF(s_snapshot_list),
	SBF(s_error_count), SBF(s_first_error_time), SBF(s_first_error_ino),
	SBF(s_first_error_block), SBF(s_first_error_func),
	SBF(s_first_error_line), SBF(s_last_error_time),
	SBF(s_last_error_ino), SBF(s_last_error_line),
	SBF(s_last_error_block), SBF(s_last_error_func), SBF(s_mount_opts),
	SBF(s_usr_quota_inum), SBF(s_grp_quota_inum),
	SBF(s_overhead_clusters), SBF(s_backup_bgs), SBF(s_encrypt_algos),
	SBF(s_encrypt_pw_salt), SBF(s_lpf_ino), SBF(s_prj_quota_inum),
	SBF(s_checksum_seed), SBF(s_wtime_hi), SBF(s_mtime_hi),
	SBF(s_mkfs_time_hi), SBF(s_lastcheck_hi), SBF(s_first_error_time_hi),
	SBF(s_last_error_time_hi), SBF(s_first_error_errcode),
	SBF(s_last_error_errcode), SBF(s_encoding), SBF(s_encoding_flags),
	SBF(s_orphan_file_inum), SBF(s_reserved), SBF(s_checksum),
};

/*
 * The jbd2 superblock (big-endian on disk).  libext2fs-dev installs no
 * kernel-jbd.h, so the offsets are spelled out here.
 */
static const struct field jsb_fields[] = {
	{ "h_magic", 0, 4 },		{ "h_blocktype", 4, 4 },
	{ "h_sequence", 8, 4 },		{ "s_blocksize", 12, 4 },
	{ "s_maxlen", 16, 4 },		{ "s_first", 20, 4 },
	{ "s_sequence", 24, 4 },	{ "s_start", 28, 4 },
	{ "s_errno", 32, 4 },		{ "s_feature_compat", 36, 4 },
	{ "s_feature_incompat", 40, 4 }, { "s_feature_ro_compat", 44, 4 },
	{ "s_uuid", 48, 16 },		{ "s_nr_users", 64, 4 },
	{ "s_dynsuper", 68, 4 },	{ "s_max_transaction", 72, 4 },
	{ "s_max_trans_data", 76, 4 },	{ "s_checksum_type", 80, 1 },
	{ "s_padding2", 81, 3 },	{ "s_num_fc_blks", 84, 4 },
	{ "s_head", 88, 4 },		{ "s_padding", 92, 160 },
	{ "s_checksum", 252, 4 },	{ "s_users", 256, 768 },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct run {
	uint64_t	start;		/* first differing byte */
	uint64_t	end;		/* one past the last */
	unsigned char	a[SAMPLE], b[SAMPLE];
};

struct cmp {
	const char	*name_a, *name_b;
	unsigned	blocksize;
	int		skip_sb;
	const struct field *extra[16];	/* -x: more fields to skip */
	size_t		nr_extra;
	int		quiet;
	int		list;		/* -l: print differing block numbers */
	int		have_jsb;
	uint64_t	jsb_off;
	unsigned long	max_runs;

	struct run	cur;
	int		cur_open;
	unsigned long	nr_runs;
	uint64_t	nr_bytes;
	uint64_t	next_unlisted;	/* -l: blocks below this are printed */
};

static void usage(void)
{
	fputs("usage: imgcmp [-q | -l] [-s] [-x FIELD] [-b BLOCKSIZE] "
	      "[-J OFFSET] [-n MAX] FILE_A FILE_B\n"
	      "  -s  ignore s_wtime, s_wtime_hi, s_kbytes_written and "
	      "s_checksum\n"
	      "      of the ext4 superblock at byte 1024, but check that\n"
	      "      s_checksum is right in each file (with metadata_csum)\n"
	      "  -x  ignore this field of the ext4 superblock too (repeatable)\n"
	      "  -b  block size for the report (default: from FILE_A's "
	      "superblock)\n"
	      "  -J  name jbd2 superblock fields at byte OFFSET in the report\n"
	      "  -n  report at most MAX runs of differing bytes (default 20)\n"
	      "  -q  report nothing, set the exit status only\n"
	      "  -l  print the numbers of the blocks that differ, one a line\n"
	      "exit status: 0 same, 1 different, 2 trouble\n", stderr);
	exit(2);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || end == s || *end || *s == '-') ? -1 : 0;
}

/* Read exactly len bytes unless the file ends first; return bytes read. */
static ssize_t read_full(int fd, unsigned char *buf, size_t len,
			 const char *name)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "imgcmp: reading %s: %s\n", name,
				strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int in_field(const struct field *f, uint64_t off)
{
	return off >= f->off && off < f->off + f->len;
}

static int in_skipped_field(const struct cmp *c, uint64_t off)
{
	size_t i;

	if (off < SB_OFFSET || off >= SB_OFFSET + SB_SIZE)
		return 0;
	off -= SB_OFFSET;
	if (c->skip_sb)
		for (i = 0; i < ARRAY_SIZE(sb_volatile); i++)
			if (in_field(&sb_volatile[i], off))
				return 1;
	for (i = 0; i < c->nr_extra; i++)
		if (in_field(c->extra[i], off))
			return 1;
	return 0;
}

/* -x NAME: the superblock field of that name. */
static const struct field *find_sb_field(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sb_fields); i++)
		if (!strcmp(sb_fields[i].name, name))
			return &sb_fields[i];
	return NULL;
}

/* Print the names of the fields of table that [start, end) touches. */
static void name_fields(const char *what, const struct field *table,
			size_t n, uint64_t base, uint64_t start, uint64_t end)
{
	size_t i;
	int named = 0;

	if (end <= base || start >= base + SB_SIZE)
		return;
	printf(" [%s", what);
	for (i = 0; i < n; i++) {
		uint64_t f0 = base + table[i].off;
		uint64_t f1 = f0 + table[i].len;

		if (start < f1 && end > f0) {
			printf(" %s", table[i].name);
			named = 1;
		}
	}
	if (!named)
		printf(" +0x%03" PRIx64, start - base);
	printf("]");
}

static void print_run(const struct cmp *c, const struct run *r)
{
	uint64_t len = r->end - r->start;
	uint64_t blk = r->start / c->blocksize;
	uint64_t in = r->start % c->blocksize;
	uint64_t i, shown = len < SAMPLE ? len : SAMPLE;

	printf("  byte %" PRIu64 " (0x%" PRIx64 "), %" PRIu64
	       " byte%s: block %" PRIu64 " +%" PRIu64,
	       r->start, r->start, len, len == 1 ? "" : "s", blk, in);
	name_fields("ext4 sb", sb_fields, ARRAY_SIZE(sb_fields), SB_OFFSET,
		    r->start, r->end);
	if (c->have_jsb)
		name_fields("jbd2 sb", jsb_fields, ARRAY_SIZE(jsb_fields),
			    c->jsb_off, r->start, r->end);
	printf("\n    a:");
	for (i = 0; i < shown; i++)
		printf(" %02x", r->a[i]);
	printf("%s\n    b:", shown < len ? " ..." : "");
	for (i = 0; i < shown; i++)
		printf(" %02x", r->b[i]);
	printf("%s\n", shown < len ? " ..." : "");
}

static void close_run(struct cmp *c)
{
	if (!c->cur_open)
		return;
	c->cur_open = 0;
	c->nr_runs++;
	c->nr_bytes += c->cur.end - c->cur.start;
	if (c->quiet || c->list)
		return;
	if (c->nr_runs == 1)
		printf("imgcmp: %s and %s differ:\n", c->name_a, c->name_b);
	if (c->nr_runs <= c->max_runs)
		print_run(c, &c->cur);
}

static void note_diff(struct cmp *c, uint64_t off, unsigned char a,
		      unsigned char b)
{
	struct run *r = &c->cur;

	if (c->list && off / c->blocksize >= c->next_unlisted) {
		printf("%" PRIu64 "\n", off / c->blocksize);
		c->next_unlisted = off / c->blocksize + 1;
	}
	if (c->cur_open && off == r->end &&
	    off / c->blocksize == r->start / c->blocksize) {
		if (off - r->start < SAMPLE) {
			r->a[off - r->start] = a;
			r->b[off - r->start] = b;
		}
		r->end++;
		return;
	}
	close_run(c);
	r->start = off;
	r->end = off + 1;
	r->a[0] = a;
	r->b[0] = b;
	c->cur_open = 1;
}

static void walk_chunk(struct cmp *c, uint64_t base, const unsigned char *a,
		       const unsigned char *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i] && !in_skipped_field(c, base + i))
			note_diff(c, base + i, a[i], b[i]);
}

/*
 * crc32c (Castagnoli, reflected polynomial 0x82F63B78) without the final
 * inversion, as ext2fs_crc32c_le() computes it.  Bitwise: one superblock
 * per file is all it ever sees.
 */
static uint32_t crc32c_le(uint32_t crc, const unsigned char *p, size_t len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82F63B78u & -(crc & 1));
	}
	return crc;
}

static uint32_t get_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * -s leaves s_checksum out of the comparison because it covers the fields
 * that may differ; it must still be right.  With metadata_csum, check that
 * the stored checksum matches the superblock.  Returns 1 if it does not.
 */
static int check_sb_csum(const struct cmp *c, int fd, const char *name)
{
	unsigned char sb[SB_SIZE];
	size_t csum_off = offsetof(struct ext2_super_block, s_checksum);
	uint32_t stored, computed;

	if (pread(fd, sb, sizeof(sb), SB_OFFSET) != (ssize_t)sizeof(sb))
		return 0;
	if ((sb[0x38] | sb[0x39] << 8) != EXT2_SUPER_MAGIC)
		return 0;
	if (!(get_le32(sb + offsetof(struct ext2_super_block,
				     s_feature_ro_compat)) &
	      EXT4_FEATURE_RO_COMPAT_METADATA_CSUM))
		return 0;
	stored = get_le32(sb + csum_off);
	computed = crc32c_le(~0u, sb, csum_off);
	if (stored == computed)
		return 0;
	if (!c->quiet && !c->list)
		printf("imgcmp: %s: superblock checksum 0x%08x is wrong, the "
		       "superblock sums to 0x%08x\n", name, stored, computed);
	return 1;
}

/* Take the block size from an ext2/3/4 superblock at byte 1024, if any. */
static unsigned guess_blocksize(int fd)
{
	unsigned char sb[SB_SIZE];
	unsigned magic, log;

	if (pread(fd, sb, sizeof(sb), SB_OFFSET) != (ssize_t)sizeof(sb))
		return 4096;
	magic = sb[0x38] | sb[0x39] << 8;
	log = sb[0x18] | sb[0x19] << 8 | (unsigned)sb[0x1a] << 16 |
	      (unsigned)sb[0x1b] << 24;
	if (magic != EXT2_SUPER_MAGIC || log > 6)
		return 4096;
	return 1024u << log;
}

int main(int argc, char **argv)
{
	struct cmp c;
	unsigned char *buf_a = NULL, *buf_b = NULL;
	int fd_a = -1, fd_b = -1, opt, ret = 2;
	struct stat st_a, st_b;
	uint64_t off = 0, v;

	memset(&c, 0, sizeof(c));
	c.max_runs = 20;
	while ((opt = getopt(argc, argv, "qlsx:b:J:n:h")) != -1) {
		switch (opt) {
		case 'q':
			c.quiet = 1;
			break;
		case 'l':
			c.list = 1;
			break;
		case 's':
			c.skip_sb = 1;
			break;
		case 'x':
			if (c.nr_extra == ARRAY_SIZE(c.extra))
				usage();
			c.extra[c.nr_extra] = find_sb_field(optarg);
			if (!c.extra[c.nr_extra]) {
				fprintf(stderr, "imgcmp: no superblock field "
					"%s\n", optarg);
				return 2;
			}
			c.nr_extra++;
			break;
		case 'b':
			if (parse_u64(optarg, &v) || v < 512 || v > 65536 ||
			    (v & (v - 1)))
				usage();
			c.blocksize = (unsigned)v;
			break;
		case 'J':
			if (parse_u64(optarg, &v))
				usage();
			c.jsb_off = v;
			c.have_jsb = 1;
			break;
		case 'n':
			if (parse_u64(optarg, &v))
				usage();
			c.max_runs = (unsigned long)v;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	c.name_a = argv[optind];
	c.name_b = argv[optind + 1];

	fd_a = open(c.name_a, O_RDONLY);
	if (fd_a < 0 || fstat(fd_a, &st_a)) {
		fprintf(stderr, "imgcmp: %s: %s\n", c.name_a, strerror(errno));
		goto out;
	}
	fd_b = open(c.name_b, O_RDONLY);
	if (fd_b < 0 || fstat(fd_b, &st_b)) {
		fprintf(stderr, "imgcmp: %s: %s\n", c.name_b, strerror(errno));
		goto out;
	}
	if (!c.blocksize)
		c.blocksize = guess_blocksize(fd_a);

	buf_a = malloc(CHUNK);
	buf_b = malloc(CHUNK);
	if (!buf_a || !buf_b) {
		fprintf(stderr, "imgcmp: out of memory\n");
		goto out;
	}

	for (;;) {
		ssize_t na = read_full(fd_a, buf_a, CHUNK, c.name_a);
		ssize_t nb = read_full(fd_b, buf_b, CHUNK, c.name_b);
		size_t n;

		if (na < 0 || nb < 0)
			goto out;
		n = (size_t)(na < nb ? na : nb);
		if (memcmp(buf_a, buf_b, n))
			walk_chunk(&c, off, buf_a, buf_b, n);
		off += n;
		if (na != nb || na < (ssize_t)CHUNK)
			break;
	}
	close_run(&c);

	ret = 0;
	if (c.nr_runs) {
		ret = 1;
		if (!c.quiet && !c.list) {
			if (c.nr_runs > c.max_runs)
				printf("  ... %lu more run%s\n",
				       c.nr_runs - c.max_runs,
				       c.nr_runs - c.max_runs == 1 ? "" : "s");
			printf("imgcmp: %" PRIu64 " byte%s in %lu run%s "
			       "(block size %u)\n", c.nr_bytes,
			       c.nr_bytes == 1 ? " differs" : "s differ",
			       c.nr_runs,
			       c.nr_runs == 1 ? "" : "s", c.blocksize);
		}
	}
	if (c.skip_sb) {
		if (check_sb_csum(&c, fd_a, c.name_a))
			ret = 1;
		if (check_sb_csum(&c, fd_b, c.name_b))
			ret = 1;
	}
	if (st_a.st_size != st_b.st_size) {
		ret = 1;
		if (!c.quiet && !c.list)
			printf("imgcmp: sizes differ: %s is %jd bytes, %s is "
			       "%jd bytes (compared the first %" PRIu64 ")\n",
			       c.name_a, (intmax_t)st_a.st_size, c.name_b,
			       (intmax_t)st_b.st_size, off);
	}
out:
	free(buf_a);
	free(buf_b);
	if (fd_a >= 0)
		close(fd_a);
	if (fd_b >= 0)
		close(fd_b);
	return ret;
}
