/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jw: an independent jbd2 journal writer (see jw.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jw.h"

#define WRITE_RUN_BYTES (1u << 20)	/* write-behind buffer size */

/* ==== sink ================================================================ */

static int sink_fail(struct jw_sink *s, errcode_t e, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	n = strlen(s->err);
	if (e)
		snprintf(s->err + n, sizeof s->err - n, ": %s", error_message(e));
	return -1;
}

/* Common part of the opens: block size, the write-behind buffer. */
static int sink_setup(struct jw_sink *s, uint32_t bs)
{
	s->bs = bs;
	s->wcap = bs < WRITE_RUN_BYTES ? WRITE_RUN_BYTES / bs : 1;
	s->wbuf = malloc(s->wcap * bs);
	if (!s->wbuf)
		return sink_fail(s, 0, "out of memory");
	return 0;
}

/* A single run: journal block N is io block N. */
static int sink_identity(struct jw_sink *s, uint64_t nblocks)
{
	s->runs = malloc(sizeof *s->runs);
	if (!s->runs)
		return sink_fail(s, 0, "out of memory");
	s->runs[0] = (struct jw_run){ 0, 0, nblocks };
	s->nruns = 1;
	s->nblocks = nblocks;
	return 0;
}

struct map_ctx {
	struct jw_sink *s;
	size_t cap;
	int nomem;
};

/* ext2fs_block_iterate3 callback: append (logical, physical) to the runs,
 * merging blocks contiguous in both. */
static int map_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct map_ctx *m = priv;
	struct jw_sink *s = m->s;
	struct jw_run *r = s->nruns ? &s->runs[s->nruns - 1] : NULL;

	(void)fs, (void)ref_blk, (void)ref_offset;
	if (blockcnt < 0)
		return 0;
	if (r && r->lblk + r->len == (uint64_t)blockcnt &&
	    r->pblk + r->len == *blocknr) {
		r->len++;
		return 0;
	}
	if (s->nruns == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct jw_run *n = realloc(s->runs, cap * sizeof *n);

		if (!n) {
			m->nomem = 1;
			return BLOCK_ABORT;
		}
		s->runs = n;
		m->cap = cap;
	}
	s->runs[s->nruns++] = (struct jw_run){ blockcnt, *blocknr, 1 };
	return 0;
}

int jw_sink_open_internal(struct jw_sink *s, ext2_filsys fs)
{
	struct map_ctx m = { s, 0, 0 };
	ext2_ino_t ino = fs->super->s_journal_inum;
	errcode_t e;
	size_t i;

	memset(s, 0, sizeof *s);
	if (!ext2fs_has_feature_journal(fs->super) || !ino)
		return sink_fail(s, 0, "the filesystem has no internal journal");
	if (sink_setup(s, fs->blocksize))
		return -1;
	s->io = fs->io;
	e = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY |
				  BLOCK_FLAG_DATA_ONLY, NULL, map_block, &m);
	if (m.nomem)
		return sink_fail(s, 0, "out of memory");
	if (e)
		return sink_fail(s, e, "mapping journal inode %u", ino);
	/* The journal is the hole-free prefix of the inode. */
	for (i = 0; i < s->nruns && s->runs[i].lblk == s->nblocks; i++)
		s->nblocks += s->runs[i].len;
	s->nruns = i;
	if (!s->nblocks)
		return sink_fail(s, 0, "journal inode %u has no block 0", ino);
	return 0;
}

int jw_sink_open_external(struct jw_sink *s, const char *path)
{
	errcode_t e;

	memset(s, 0, sizeof *s);
	e = ext2fs_open2(path, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS |
			 EXT2_FLAG_JOURNAL_DEV_OK, 0, 0, unix_io_manager, &s->fs);
	if (e)
		return sink_fail(s, e, "opening journal device %s", path);
	if (!ext2fs_has_feature_journal_dev(s->fs->super))
		return sink_fail(s, 0, "%s is not a journal device", path);
	if (sink_setup(s, s->fs->blocksize) ||
	    sink_identity(s, ext2fs_blocks_count(s->fs->super)))
		return -1;
	s->io = s->fs->io;
	s->sb_blk = ext2fs_journal_sb_start(s->bs);
	return 0;
}

int jw_sink_open_dump(struct jw_sink *s, const char *path, uint32_t bs)
{
	unsigned char hdr[1024];
	struct stat st;
	errcode_t e;

	memset(s, 0, sizeof *s);
	e = unix_io_manager->open(path, IO_FLAG_RW, &s->io);
	if (e)
		return sink_fail(s, e, "opening %s", path);
	s->own_io = 1;
	if (!bs) {
		io_channel_set_blksize(s->io, sizeof hdr);
		e = io_channel_read_blk64(s->io, 0, 1, hdr);
		if (e)
			return sink_fail(s, e, "reading %s", path);
		bs = jw_get_be32(hdr + 12);
		if (jw_get_be32(hdr) != JW_MAGIC || bs < 1024 || bs > 65536 ||
		    (bs & (bs - 1)))
			return sink_fail(s, 0, "%s: no journal superblock in block 0", path);
	}
	io_channel_set_blksize(s->io, bs);
	if (stat(path, &st))
		return sink_fail(s, errno, "%s", path);
	return sink_setup(s, bs) || sink_identity(s, st.st_size / bs);
}

int jw_sink_copy_to_dump(struct jw_sink *src, const char *path)
{
	uint64_t done, n;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return sink_fail(src, errno, "creating %s", path);
	for (done = 0; !rc && done < src->nblocks; done += n) {
		unsigned char *p = src->wbuf;
		size_t len;

		n = src->nblocks - done < src->wcap ? src->nblocks - done : src->wcap;
		rc = jw_sink_read(src, done, n, p);
		for (len = n * src->bs; !rc && len; ) {
			ssize_t k = write(fd, p, len);

			if (k <= 0)
				rc = sink_fail(src, k < 0 ? errno : EIO, "writing %s", path);
			else
				p += k, len -= k;
		}
	}
	if (close(fd) && !rc)
		rc = sink_fail(src, errno, "writing %s", path);
	if (rc)
		unlink(path);		/* no half-made dump */
	return rc;
}

/* The run holding journal block jblk (which must be mapped). */
static const struct jw_run *find_run(const struct jw_sink *s, uint64_t jblk)
{
	size_t lo = 0, hi = s->nruns;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->runs[mid].lblk <= jblk)
			lo = mid;
		else
			hi = mid;
	}
	return &s->runs[lo];
}

/* Read or write n journal blocks at jblk, split at run boundaries. */
static int sink_io(struct jw_sink *s, int wr, uint64_t jblk, uint64_t n,
		   unsigned char *buf)
{
	if (jblk + n > s->nblocks)
		return sink_fail(s, 0, "journal block %llu is past the journal's %llu mapped blocks",
				 (unsigned long long)(jblk + n - 1),
				 (unsigned long long)s->nblocks);
	while (n) {
		const struct jw_run *r = find_run(s, jblk);
		uint64_t off = jblk - r->lblk;
		uint64_t cnt = r->len - off < n ? r->len - off : n;
		errcode_t e = wr ?
			io_channel_write_blk64(s->io, r->pblk + off, cnt, buf) :
			io_channel_read_blk64(s->io, r->pblk + off, cnt, buf);

		if (e)
			return sink_fail(s, e, "%s journal block %llu",
					 wr ? "writing" : "reading",
					 (unsigned long long)jblk);
		jblk += cnt;
		n -= cnt;
		buf += cnt * s->bs;
	}
	return 0;
}

int jw_sink_read(struct jw_sink *s, uint64_t jblk, uint64_t n, void *buf)
{
	return jw_sink_flush(s) || sink_io(s, 0, jblk, n, buf);
}

unsigned char *jw_sink_slot(struct jw_sink *s, uint64_t jblk)
{
	if (s->wn && (jblk != s->wstart + s->wn || s->wn == s->wcap) &&
	    jw_sink_flush(s))
		return NULL;
	if (!s->wn)
		s->wstart = jblk;
	return s->wbuf + s->wn++ * s->bs;
}

int jw_sink_flush(struct jw_sink *s)
{
	size_t n = s->wn;

	s->wn = 0;
	return n ? sink_io(s, 1, s->wstart, n, s->wbuf) : 0;
}

int jw_sink_close(struct jw_sink *s)
{
	int rc = jw_sink_flush(s);
	errcode_t e;

	if (s->fs)			/* external device: close its fs */
		e = ext2fs_close_free(&s->fs);
	else if (s->own_io)		/* dump file */
		e = io_channel_close(s->io);
	else				/* internal: the caller closes the fs */
		e = io_channel_flush(s->io);
	s->io = NULL;
	free(s->runs);
	free(s->wbuf);
	s->runs = NULL;
	s->wbuf = NULL;
	if (e && !rc)
		rc = sink_fail(s, e, "closing the journal");
	return rc;
}

/* ==== writer ============================================================== */

static int fail(struct jw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
	return -1;
}

static void put_header(unsigned char *p, uint32_t type, uint32_t seq)
{
	jw_put_be32(p, JW_MAGIC);
	jw_put_be32(p + 4, type);
	jw_put_be32(p + 8, seq);
}

/* Descriptor and revoke blocks (v2/v3) end with
 * crc32c(seed, whole block with the tail zeroed). */
static void set_tail(const struct jw *w, unsigned char *blk, int bad)
{
	unsigned char *t = blk + w->bs - 4;
	uint32_t c;

	jw_put_be32(t, 0);
	c = ext2fs_crc32c_le(w->seed, blk, w->bs);
	jw_put_be32(t, bad ? ~c : c);
}

/* splitmix64: a counter-based generator, so a block's content depends only
 * on its seed. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void noise(unsigned char *p, uint32_t bs, uint64_t seed)
{
	uint32_t i;

	for (i = 0; i < bs; i += 8)
		jw_put_be64(p + i, splitmix(&seed));
}

/* The data block of a tag as stored in the log. Its content is a function of
 * (block, tid): a readable label "JW: blk=B tid=T\n" then noise; or the fill
 * byte. The jbd2 rule: a block starting with the magic is stored with those
 * 4 bytes zeroed and the tag flagged ESCAPE. Neither the label nor a
 * repeated byte can start with the magic, so that happens iff t->escape. */
static void gen_data(const struct jw *w, unsigned char *p, const struct jw_tag *t)
{
	if (t->fill >= 0) {
		memset(p, t->fill, w->bs);
	} else {
		noise(p, w->bs, t->blk * 0x100000001B3ull ^ w->tid);
		snprintf((char *)p, 48, "JW: blk=%llu tid=%u\n",
			 (unsigned long long)t->blk, w->tid);
	}
	if (t->escape)
		jw_put_be32(p, 0);
}

/* Data tag checksum (v2/v3): crc32c(crc32c(seed, be32 tid), stored block). */
static uint32_t data_csum(const struct jw *w, const unsigned char *data)
{
	unsigned char seq[4];

	jw_put_be32(seq, w->tid);
	return ext2fs_crc32c_le(ext2fs_crc32c_le(w->seed, seq, 4), data, w->bs);
}

/* Claim the next log block. *slot is where to build it (NULL in a dry run). */
static int place(struct jw *w, unsigned char **slot)
{
	uint32_t b = w->pos;

	*slot = NULL;
	if (w->used >= w->last - w->first)
		return fail(w, "the log overruns itself: it already fills all %u log blocks from s_start %u",
			    w->last - w->first, w->start);
	w->used++;
	w->pos = b + 1 == w->last ? w->first : b + 1;
	w->ended = 0;
	if (w->in_txn && !w->txn_placed) {
		w->txn_first = b;
		w->txn_placed = 1;
	}
	if (!w->dry && !(*slot = jw_sink_slot(w->sink, b)))
		return fail(w, "%s", w->sink->err);
	return 0;
}

/* Write the open descriptor block, then its data blocks in tag order. */
static int desc_close(struct jw *w)
{
	unsigned n = w->ntags, i;
	unsigned char *d, *p;
	size_t off = 12;

	if (!n)
		return 0;
	w->ntags = 0;
	if (place(w, &d))
		return -1;
	if (d) {
		memset(d, 0, w->bs);
		put_header(d, JW_BT_DESCRIPTOR, w->tid);
		for (i = 0; i < n; i++) {
			const struct jw_tag *t = &w->tags[i];
			/* The first tag of a descriptor carries the UUID. */
			int same = i && !t->uuid;
			uint16_t flags = (t->escape ? JW_TAG_ESCAPE : 0) |
				(same ? JW_TAG_SAME_UUID : 0) |
				(i == n - 1 ? JW_TAG_LAST : 0);
			uint32_t c = 0;

			if (w->csum >= 2) {
				gen_data(w, w->scratch, t);
				c = data_csum(w, w->scratch);
				if (t->badcsum)
					c = ~c;
			}
			jw_put_be32(d + off, (uint32_t)t->blk);
			if (w->csum == 3) {	/* 16 bytes: blk flags hi csum */
				jw_put_be32(d + off + 4, flags);
				jw_put_be32(d + off + 8, t->blk >> 32);
				jw_put_be32(d + off + 12, c);
			} else {		/* blk csum16 flags16 [hi] */
				jw_put_be16(d + off + 4, w->csum == 2 ? c : 0);
				jw_put_be16(d + off + 6, flags);
				if (w->conf.incompat & JW_INCOMPAT_64BIT)
					jw_put_be32(d + off + 8, t->blk >> 32);
			}
			off += w->tagsize;
			if (!same) {
				memcpy(d + off, w->sb + 48, 16);
				off += 16;
			}
		}
		if (w->tailsize)
			set_tail(w, d, w->dbad);
		if (w->csum == 1)
			w->crc1 = ext2fs_crc32_be(w->crc1, d, w->bs);
	}
	w->dbad = 0;
	for (i = 0; i < n; i++) {
		if (place(w, &p))
			return -1;
		if (p) {
			gen_data(w, p, &w->tags[i]);
			if (w->csum == 1)
				w->crc1 = ext2fs_crc32_be(w->crc1, p, w->bs);
		}
	}
	return 0;
}

/* Write the open revoke block. */
static int revoke_close(struct jw *w)
{
	unsigned char *p;

	if (!w->rused)
		return 0;
	if (place(w, &p))
		return -1;
	if (p) {
		memcpy(p, w->rblk, w->bs);
		/* r_count: bytes used, the 16-byte header included */
		jw_put_be32(p + 12, w->rcount_cur >= 0 ? (uint32_t)w->rcount_cur
						       : w->rused);
		if (w->tailsize)
			set_tail(w, p, w->rbad);
	}
	w->rused = 0;
	w->rbad = 0;
	return 0;
}

static int groups_close(struct jw *w)
{
	return desc_close(w) || revoke_close(w);
}

void jw_conf_init(struct jw_conf *c)
{
	memset(c, 0, sizeof *c);
	c->version = 2;
	c->sequence = 1;
	c->start = -1;
	c->nrusers = -1;
	c->fcblocks = -1;
}

int jw_init(struct jw *w, struct jw_sink *sink, uint64_t blklimit, int dry)
{
	const unsigned char *s;

	memset(w, 0, sizeof *w);
	w->sink = sink;
	w->dry = dry;
	w->bs = sink->bs;
	w->blklimit = blklimit;
	w->rcount = -1;
	jw_conf_init(&w->conf);
	w->sb = malloc(w->bs);
	w->scratch = malloc(w->bs);
	w->rblk = malloc(w->bs);
	if (!w->sb || !w->scratch || !w->rblk)
		return fail(w, "out of memory");
	if (jw_sink_read(sink, sink->sb_blk, 1, w->sb))
		return fail(w, "%s", sink->err);
	s = w->sb;
	if (jw_get_be32(s) != JW_MAGIC ||
	    (jw_get_be32(s + 4) != JW_BT_SB_V1 && jw_get_be32(s + 4) != JW_BT_SB_V2))
		return fail(w, "no journal superblock in journal block %llu",
			    (unsigned long long)sink->sb_blk);
	w->maxlen = jw_get_be32(s + 16);
	w->first = jw_get_be32(s + 20);
	if (jw_get_be32(s + 12) != w->bs)
		return fail(w, "journal block size %u is not the device's %u",
			    jw_get_be32(s + 12), w->bs);
	if (w->maxlen > sink->nblocks)
		return fail(w, "s_maxlen %u is past the %llu blocks of the journal",
			    w->maxlen, (unsigned long long)sink->nblocks);
	if (w->first <= sink->sb_blk || w->first >= w->maxlen)
		return fail(w, "bad s_first %u", w->first);
	return 0;
}

void jw_free(struct jw *w)
{
	free(w->sb);
	free(w->scratch);
	free(w->rblk);
	free(w->tags);
	w->sb = w->scratch = w->rblk = NULL;
	w->tags = NULL;
}

int jw_start(struct jw *w)
{
	const struct jw_conf *c = &w->conf;
	unsigned char *s = w->sb;
	int ncsum = !!(c->compat & JW_COMPAT_CHECKSUM) +
		    !!(c->incompat & JW_INCOMPAT_CSUM_V2) +
		    !!(c->incompat & JW_INCOMPAT_CSUM_V3);
	uint32_t fc, log_end;

	if (c->version == 1 && (c->compat || c->incompat))
		return fail(w, "a version 1 superblock has no feature fields");
	if (ncsum > 1)
		return fail(w, "csum1, csum2 and csum3 are mutually exclusive");
	w->csum = c->incompat & JW_INCOMPAT_CSUM_V3 ? 3 :
		  c->incompat & JW_INCOMPAT_CSUM_V2 ? 2 :
		  c->compat & JW_COMPAT_CHECKSUM ? 1 : 0;
	if (c->badsbcsum && w->csum < 2)
		return fail(w, "badsbcsum needs csum2 or csum3");
	/* Tag: v3 16 bytes; else blocknr, csum16, flags16 (8), +4 for
	 * blocknr_high with 64BIT, +2 with CSUM_V2 (kernel's tag size rule,
	 * although the v2 checksum lives in the csum16 field at offset 4). */
	w->tagsize = w->csum == 3 ? 16 :
		8 + (c->incompat & JW_INCOMPAT_64BIT ? 4 : 0) + (w->csum == 2 ? 2 : 0);
	w->recsize = c->incompat & JW_INCOMPAT_64BIT ? 8 : 4;
	w->tailsize = w->csum >= 2 ? 4 : 0;
	w->tagcap = (w->bs - 12) / w->tagsize + 1;
	w->tags = malloc(w->tagcap * sizeof *w->tags);
	if (!w->tags)
		return fail(w, "out of memory");

	/* The log area: with FAST_COMMIT the last s_num_fc_blks (0 = 256)
	 * blocks of the journal are the fast-commit area, where the kernel's
	 * log wraps (e2fsck 1.47.0's recovery wraps at s_maxlen regardless:
	 * logend lets a test write either). */
	fc = c->fcblocks >= 0 ? (uint32_t)c->fcblocks : jw_get_be32(s + 84);
	log_end = w->maxlen;
	if (c->incompat & JW_INCOMPAT_FAST_COMMIT)
		log_end = w->maxlen - (fc ? fc : JW_DEFAULT_FC_BLOCKS);
	if (c->logend)
		log_end = c->logend;
	if (log_end > w->maxlen || log_end <= w->first + 1)
		return fail(w, "no room for a log: s_first %u, log end %u, s_maxlen %u",
			    w->first, log_end, w->maxlen);
	w->last = log_end;
	if (c->start > 0 && (c->start < w->first || c->start >= w->last))
		return fail(w, "start %lld is outside the log [%u, %u)",
			    (long long)c->start, w->first, w->last);
	w->start = c->start > 0 ? (uint32_t)c->start : w->first;
	w->pos = w->start;

	/* The journal superblock. Fields not named here (s_blocksize,
	 * s_maxlen, s_first, s_users, ...) stay as they were. */
	put_header(s, c->version == 1 ? JW_BT_SB_V1 : JW_BT_SB_V2, 0);
	jw_put_be32(s + 24, c->sequence);
	jw_put_be32(s + 28, c->start >= 0 ? (uint32_t)c->start : w->first);
	jw_put_be32(s + 32, (uint32_t)c->errnum);
	jw_put_be32(s + 36, c->compat);
	jw_put_be32(s + 40, c->incompat);
	jw_put_be32(s + 44, 0);				/* ro_compat */
	if (c->set_uuid)
		memcpy(s + 48, c->uuid, 16);
	if (c->nrusers >= 0)
		jw_put_be32(s + 64, c->nrusers);
	if (c->fcblocks >= 0)
		jw_put_be32(s + 84, c->fcblocks);
	s[80] = w->csum >= 2 ? JW_CSUM_CRC32C : 0;	/* s_checksum_type, u8 */
	memset(s + 81, 0, 3);
	jw_put_be32(s + 252, 0);
	if (w->csum >= 2) {
		uint32_t k = ext2fs_crc32c_le(~0u, s, 1024);

		jw_put_be32(s + 252, c->badsbcsum ? ~k : k);
	}
	w->seed = ext2fs_crc32c_le(~0u, s + 48, 16);
	return 0;
}

static int check_blk(struct jw *w, uint64_t blk)
{
	if (!(w->conf.incompat & JW_INCOMPAT_64BIT) && blk > UINT32_MAX)
		return fail(w, "block %llu needs the 64bit feature",
			    (unsigned long long)blk);
	if (w->blklimit && !w->allow_past_end && blk >= w->blklimit)
		return fail(w, "block %llu is past the filesystem's %llu blocks (allow-past-end permits it)",
			    (unsigned long long)blk,
			    (unsigned long long)w->blklimit);
	return 0;
}

int jw_txn(struct jw *w, int have_tid, uint32_t tid)
{
	if (w->in_txn)
		return fail(w, "transaction %u is not ended (commit or nocommit)",
			    w->tid);
	w->tid = have_tid ? tid : w->ntxn ? w->tid + 1 : w->conf.sequence;
	w->in_txn = 1;
	w->ntxn++;
	w->crc1 = ~0u;
	w->txn_placed = 0;
	w->txn_tags = w->txn_revokes = 0;
	return 0;
}

int jw_log(struct jw *w, uint64_t blk, const struct jw_logopt *o)
{
	size_t need, room = w->bs - w->tailsize;

	if (!w->in_txn)
		return fail(w, "log outside a transaction");
	if ((o->badcsum || o->baddesc) && w->csum < 2)
		return fail(w, "badcsum/baddesc need csum2 or csum3");
	if (check_blk(w, blk) || revoke_close(w))
		return -1;
	need = w->tagsize + (!w->ntags || o->uuid ? 16 : 0);
	if (w->ntags && (w->dused + need > room ||
			 (w->maxtags && w->ntags >= w->maxtags))) {
		if (desc_close(w))
			return -1;
		need = w->tagsize + 16;
	}
	if (!w->ntags)
		w->dused = 12;
	w->tags[w->ntags++] = (struct jw_tag){ blk, o->fill, !!o->escape,
					       !!o->uuid, !!o->badcsum };
	w->dused += need;
	w->dbad |= o->baddesc;
	w->txn_tags++;
	return 0;
}

int jw_revoke(struct jw *w, uint64_t blk, int badcsum)
{
	if (!w->in_txn)
		return fail(w, "revoke outside a transaction");
	if (badcsum && w->csum < 2)
		return fail(w, "badcsum on revoke needs csum2 or csum3");
	if (check_blk(w, blk) || desc_close(w))
		return -1;
	if (w->rused && w->rused + w->recsize > w->bs - w->tailsize &&
	    revoke_close(w))
		return -1;
	if (!w->rused) {
		memset(w->rblk, 0, w->bs);
		put_header(w->rblk, JW_BT_REVOKE, w->tid);
		w->rused = 16;
		w->rcount_cur = w->rcount;
		w->rcount = -1;
	}
	if (w->recsize == 8)
		jw_put_be64(w->rblk + w->rused, blk);
	else
		jw_put_be32(w->rblk + w->rused, (uint32_t)blk);
	w->rused += w->recsize;
	w->rbad |= badcsum;
	w->txn_revokes++;
	return 0;
}

int jw_rcount(struct jw *w, uint32_t rcount)
{
	if (revoke_close(w))
		return -1;
	w->rcount = rcount;
	return 0;
}

static void txn_done(struct jw *w, const char *how)
{
	if (w->trace) {
		if (w->txn_placed)
			fprintf(w->trace, "txn %u: log block %u", w->tid, w->txn_first);
		else
			fprintf(w->trace, "txn %u: no blocks", w->tid);
		fprintf(w->trace, ", %llu tags, %llu revokes, %s\n",
			(unsigned long long)w->txn_tags,
			(unsigned long long)w->txn_revokes, how);
	}
	w->in_txn = 0;
}

int jw_commit(struct jw *w, const struct jw_commitopt *o)
{
	unsigned char *p;

	if (!w->in_txn)
		return fail(w, "commit outside a transaction");
	if (o->badcsum && !w->csum)
		return fail(w, "badcsum on commit needs a checksum feature");
	if (groups_close(w) || place(w, &p))
		return -1;
	if (p) {
		uint64_t sec = o->sec >= 0 ? (uint64_t)o->sec
					   : 1700000000ull + w->ntxn - 1;

		memset(p, 0, w->bs);
		put_header(p, JW_BT_COMMIT, w->tid);
		/* v1: crc32_be over the transaction's descriptor and data
		 * blocks. v2/v3 leave type and size 0, as the kernel does. */
		if (w->csum == 1 && !o->zerocsum) {
			p[12] = JW_CSUM_CRC32;
			p[13] = 4;
			jw_put_be32(p + 16, o->badcsum ? ~w->crc1 : w->crc1);
		}
		if (o->type >= 0)
			p[12] = o->type;
		if (o->size >= 0)
			p[13] = o->size;
		jw_put_be64(p + 48, sec);
		jw_put_be32(p + 56, o->nsec);
		/* v2/v3: crc32c(seed, block with h_chksum[0] zeroed) */
		if (w->csum >= 2 && !o->zerocsum) {
			uint32_t c = ext2fs_crc32c_le(w->seed, p, w->bs);

			jw_put_be32(p + 16, o->badcsum ? ~c : c);
		}
	}
	txn_done(w, o->zerocsum ? "commit (zero checksum)" :
		    o->badcsum ? "commit (bad checksum)" : "commit");
	return 0;
}

int jw_nocommit(struct jw *w)
{
	if (!w->in_txn)
		return fail(w, "nocommit outside a transaction");
	if (groups_close(w))
		return -1;
	txn_done(w, "no commit");
	return 0;
}

int jw_raw(struct jw *w, const unsigned char *data, size_t len)
{
	unsigned char *p;

	if (len > w->bs)
		return fail(w, "raw data longer than a block");
	if (groups_close(w) || place(w, &p))
		return -1;
	if (p) {
		if (len)
			memcpy(p, data, len);
		memset(p + len, 0, w->bs - len);
	}
	return 0;
}

int jw_garbage(struct jw *w)
{
	unsigned char *p;

	if (groups_close(w) || place(w, &p))
		return -1;
	if (p) {
		noise(p, w->bs, 0x6A772D6761726Bull ^ w->used);
		if (jw_get_be32(p) == JW_MAGIC)	/* garbage, not a header */
			p[0] = 0;
	}
	return 0;
}

int jw_end(struct jw *w)
{
	if (jw_raw(w, NULL, 0))
		return -1;
	w->ended = 1;
	return 0;
}

int jw_finish(struct jw *w, int noend)
{
	unsigned char *p;

	if (w->in_txn)
		return fail(w, "transaction %u is not ended (commit or nocommit)",
			    w->tid);
	if (!noend && !w->ended && jw_end(w))
		return -1;
	if (w->trace)
		fprintf(w->trace, "log: %llu blocks from block %u, next block %u\n",
			(unsigned long long)w->used, w->start, w->pos);
	if (w->dry)
		return 0;
	if (!(p = jw_sink_slot(w->sink, w->sink->sb_blk)))
		return fail(w, "%s", w->sink->err);
	memcpy(p, w->sb, w->bs);
	if (jw_sink_flush(w->sink))
		return fail(w, "%s", w->sink->err);
	return 0;
}

int jw_bulk(struct jw *w, uint64_t ntxn, uint64_t nrev, uint64_t nlog,
	    unsigned hitpct, uint64_t first, uint64_t span)
{
	static const struct jw_logopt lo = { .fill = -1 };
	static const struct jw_commitopt co = { .sec = -1, .type = -1, .size = -1 };
	uint64_t i, j, r = 0, hits = 0, others = 0, total;

	if (!w->blklimit)
		return fail(w, "bulk needs the filesystem's block count");
	if (hitpct > 100)
		return fail(w, "hit= is a percentage");
	if (nrev && !ntxn)
		return fail(w, "revoke records need transactions");
	if (__builtin_mul_overflow(ntxn, nlog, &total))
		return fail(w, "too many logged blocks");
	if (first >= w->blklimit)
		return fail(w, "first=%llu is past the filesystem's end",
			    (unsigned long long)first);
	if (span > w->blklimit - first)
		span = w->blklimit - first;
	if (span > total)
		span = total;
	if (nlog && !span)
		return fail(w, "no room for the logged blocks");
	if (nrev && span == w->blklimit)
		return fail(w, "no blocks left to revoke outside the logged range");
	for (i = 0; i < ntxn; i++) {
		uint64_t share = nrev / ntxn + (i < nrev % ntxn);

		if (jw_txn(w, 0, 0))
			return -1;
		for (j = 0; j < nlog; j++)
			if (jw_log(w, first + (i * nlog + j) % span, &lo))
				return -1;
		for (j = 0; j < share; j++, r++) {
			uint64_t blk;

			/* record r is a hit iff floor(r * pct / 100) steps up:
			 * exactly pct% of the records, spread evenly */
			if (nlog && i && (r + 1) * hitpct / 100 > r * hitpct / 100) {
				/* a block logged earlier: log slot g < i * nlog */
				uint64_t g = hits++ % (i * nlog);

				blk = first + g % span;
			} else {
				/* outside [first, first + span) */
				uint64_t u = others++ % (w->blklimit - span);

				blk = u < first ? u : u + span;
			}
			if (jw_revoke(w, blk, 0))
				return -1;
		}
		if (jw_commit(w, &co))
			return -1;
	}
	return 0;
}
