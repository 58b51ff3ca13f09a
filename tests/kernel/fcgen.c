/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fcgen -- seeded random fast-commit workloads for tests/kernel/fcrand.sh.
 *
 * From one seed it derives a filesystem (mke2fs options) and a sequence of
 * operations on it; the same seed gives the same options and the same
 * sequence on every run (not the same kernel timing).  The generator keeps
 * a model of the tree it made (directories, names, which names are links
 * of one inode, sizes), so every operation it picks is one that succeeds
 * and the run does not depend on directory order or on the kernel's state.
 *
 * usage:
 *   fcgen mkfs SEED      print "SIZE MKE2FS_OPTIONS..." for the seed's
 *                        filesystem, on one line
 *   fcgen mount SEED     print the seed's mount options (commit=600 and
 *                        what the widened profile adds), on one line
 *   fcgen shutdown SEED  print the seed's EXT4_IOC_SHUTDOWN flag:
 *                        nologflush, logflush or default
 *   fcgen describe SEED  print the seed's filesystem and workload profile in
 *                        words, on one line
 *   fcgen run SEED DIR   run the seed's operations in DIR (the mount point
 *                        of a fresh filesystem made from "fcgen mkfs SEED"),
 *                        one line per operation on stdout; the last line
 *                        says how many there were; before it, "holder PID"
 *                        when files unlinked while open are held open by
 *                        that child (kill it after the shutdown); with
 *                        FCGEN_PROMISES=FILE in the environment it also
 *                        writes to FILE what the workload made durable
 *                        ("the promises" below)
 *
 * Operations: create (empty, small or large), write at an offset (holes
 * before it), append, truncate up and down, hard link (also into another
 * directory), unlink, rename (also over an existing name, also of a
 * directory), mkdir (with or without an fsync of its parent), rmdir,
 * symlink (fast and slow), fallocate (allocating and KEEP_SIZE), punch
 * hole, zero range, chmod, a burst of many names in one directory (the
 * directory grows blocks and, with dir_index, an htree), and now and then
 * setxattr (which makes the running transaction fast-commit ineligible:
 * a full commit).  After each operation, at random, an fsync or fdatasync
 * of what it changed (or of its directory), or nothing.  The number of
 * operations is random too: the shutdown comes after the last one.
 *
 * The widened generator (85 % of the seeds; the others, and every seed
 * with FCGEN_CLASSIC=1 in the environment, are "classic": the same
 * filesystem and operations as before it, drawn from the same streams)
 * adds, each with a weight of its own per seed:
 *   - writes made durable by O_SYNC, O_DSYNC, O_DIRECT (4 KiB-aligned
 *     buffer, offset and length), mmap+msync(MS_SYNC) (inside the file)
 *     or sync_file_range(WAIT_BEFORE|WRITE|WAIT_AFTER), besides write(2);
 *   - setattr: chmod with setuid, setgid and sticky bits, chown to owners
 *     and groups above 65535, utimensat to times before 1970 and after
 *     2038 (of files, and of directories);
 *   - orphan: a file created, written, maybe fsynced, unlinked, written
 *     again, maybe fsynced by its fd, and held open across the shutdown
 *     (a child of fcgen keeps the fds: "holder PID");
 *   - renameat2 RENAME_EXCHANGE of two names, RENAME_NOREPLACE to a new
 *     name, RENAME_WHITEOUT (a character device 0:0 left at the old name);
 *   - renameparent: a file's directory moved elsewhere, then the file
 *     fsynced (or fdatasynced) by its new path;
 *   - fallocate INSERT_RANGE and COLLAPSE_RANGE (block- or, with bigalloc,
 *     cluster-aligned);
 *   - interleave (once): a new file written one block in two, past what an
 *     inode and one level of leaves hold (an extent tree of depth 2);
 *   - far (once, in a fifth of the seeds): a write past 4 GiB;
 *   - mknod: a fifo, a socket, a character or a block device;
 *   - the filesystem: 2 KiB blocks, 128- or 512-byte inodes (128 not with
 *     inline_data), 64 KiB clusters with bigalloc on 1 KiB blocks,
 *     fast-commit areas of 2, 4 or 16 blocks or 4 MiB, 64 MiB more room;
 *   - mount options: data=writeback (with journal_checksum and
 *     journal_async_commit, which 6.18 takes only there), nodelalloc,
 *     dioread_nolock or nodioread_nolock, lazytime;
 *   - the shutdown flag: logflush (a full commit first) or default (the
 *     filesystem frozen first: nothing left to replay), a seed in ten each.
 * Exchange, whiteout, renameparent, insert and collapse make the
 * transaction fast-commit ineligible (6.18): they weigh little, and the
 * tail (no full commit asked; three widened seeds in four have one) leaves
 * them out with setxattr and renamedir.
 * Three widened seeds in five end in the reach block (reach_block(),
 * drawn from a stream of its own: the operations before it are as they
 * were, and make check's widened seeds 1049 and 1069 have none): what the
 * soak's measured reach of lib/fc*.c lacked (tests/kernel/fc-reach.txt),
 * made after the last operation so that only fast commits follow.
 *
 * Exit status: 0, 1 when an operation fails unexpectedly, 2 usage error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

/* ---- the random stream (splitmix64) ------------------------------------ */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n). */
static uint64_t rnd(uint64_t n)
{
	return n ? rnd64() % n : 0;
}

/* A number in [lo, hi]. */
static long long between(long long lo, long long hi)
{
	return lo + (long long)rnd((uint64_t)(hi - lo + 1));
}

/* True with probability pct/100. */
static int chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static void seed_stream(unsigned long long seed, uint64_t which)
{
	rng_state = seed * 0x2545f4914f6cdd1dULL + which;
	(void)rnd64();
}

/* ---- the filesystem of a seed -------------------------------------------- */

struct fsconf {
	unsigned int bs;		/* 1024 or 4096 */
	int csum;			/* metadata_csum */
	int uninit;			/* uninit_bg (only without csum) */
	int bit64;
	int flex;
	int inline_data;
	int bigalloc;
	int meta_bg;			/* with ^resize_inode */
	int dir_index;
	int orphan_file;
	unsigned int fc_kib;		/* fast_commit_size, 0 = default */
	unsigned int size_mib;
	unsigned int cluster;		/* bigalloc's cluster in bytes */
	unsigned int inode_size;	/* -I, 0 = mke2fs's */
};

/*
 * What the widened generator adds to a seed (its own stream, so that a
 * seed drawn classic, or any seed with FCGEN_CLASSIC=1 in the
 * environment, makes the same filesystem and the same operations as the
 * generator before it): a filesystem profile (2 KiB blocks, 128- or
 * 512-byte inodes, 64 KiB clusters on 1 KiB blocks, fast-commit areas
 * from 2 blocks to 4 MiB), mount options, the shutdown's flag, the
 * weights of the newer operations and how writes are made durable.
 */
enum wmode {
	WM_PLAIN, WM_SYNC, WM_DSYNC, WM_DIRECT, WM_MMAP, WM_SFR, WM_COUNT
};

static const char *const wmode_names[WM_COUNT] = {
	"write", "O_SYNC", "O_DSYNC", "O_DIRECT", "mmap+msync",
	"sync_file_range"
};

struct wide {
	int on;				/* 0: the classic generator */
	unsigned int bs;		/* 2048, or 0: the classic choice */
	unsigned int inode_size;	/* 128, 512 or 0 */
	int cluster64k;			/* bigalloc on 1 KiB: 64 KiB clusters */
	unsigned int fc_blocks;		/* fast-commit area in blocks, 0: classic */
	char mopts[160];		/* mount options after commit=600 */
	const char *shutdown;		/* nologflush, logflush or default */
	unsigned int wmode[WM_COUNT];	/* weights of the ways to write */
	unsigned int opscale[16];	/* the newer operations' scales */
	unsigned int tail;		/* a tail where the classic has none */
};

/* Their index in opscale (the operations after OP_RENAMEDIR, below). */
#define OP_INTERLEAVE_SCALE 8
#define OP_FAR_SCALE 9

static void wide_of(unsigned long long seed, struct wide *w)
{
	const char *env = getenv("FCGEN_CLASSIC");
	unsigned int i;

	seed_stream(seed, 4);
	memset(w, 0, sizeof(*w));
	w->shutdown = "nologflush";
	snprintf(w->mopts, sizeof(w->mopts), "commit=600");
	w->on = chance(85) && !(env && *env && strcmp(env, "0"));
	if (!w->on)
		return;
	w->bs = chance(20) ? 2048 : 0;
	switch (rnd(5)) {
	case 0: w->inode_size = 128; break;
	case 1: w->inode_size = 512; break;
	default: w->inode_size = 0; break;
	}
	w->cluster64k = chance(50);
	switch (rnd(8)) {
	case 0: w->fc_blocks = 2; break;
	case 1: w->fc_blocks = 4; break;
	case 2: w->fc_blocks = 16; break;
	case 3: w->fc_blocks = 4096; break;	/* 4 MiB on 1 KiB blocks */
	default: w->fc_blocks = 0; break;
	}
	if (chance(20)) {
		strcat(w->mopts, ",data=writeback");
		if (chance(50))
			strcat(w->mopts, ",journal_checksum,journal_async_commit");
	}
	if (chance(20))
		strcat(w->mopts, ",nodelalloc");
	if (chance(20))
		strcat(w->mopts, chance(50) ? ",dioread_nolock" : ",nodioread_nolock");
	if (chance(25))
		strcat(w->mopts, ",lazytime");
	/* The log flushed (logflush: a full commit first) or frozen first
	 * (default: nothing left to replay) in one seed in ten each. */
	switch (rnd(10)) {
	case 0: w->shutdown = "logflush"; break;
	case 1: w->shutdown = "default"; break;
	default: break;
	}
	/* Half the seeds write only with write(2), as before. */
	w->wmode[WM_PLAIN] = 10;
	if (chance(50))
		for (i = 1; i < WM_COUNT; i++)
			w->wmode[i] = (unsigned int)rnd(4) * 2;
	for (i = 0; i < sizeof(w->opscale) / sizeof(w->opscale[0]); i++) {
		static const unsigned int scale2[] = { 0, 1, 2, 2, 4, 6 };

		w->opscale[i] = scale2[rnd(6)];
	}
	/* The two slow ones in fewer seeds: a file past 4 GiB is read
	 * whole by each tree listing. */
	if (!chance(20))
		w->opscale[OP_FAR_SCALE] = 0;
	if (!chance(50))
		w->opscale[OP_INTERLEAVE_SCALE] = 0;
	w->tail = chance(50) ? (unsigned int)between(1, 40) : 0;
}

/* Where the widened profile changes the classic filesystem. */
static void fs_widen(struct fsconf *c, const struct wide *w)
{
	c->cluster = c->bs * 16;
	if (!w->on)
		return;
	if (w->bs)
		c->bs = w->bs;
	if (w->inode_size && !(w->inode_size == 128 && c->inline_data))
		c->inode_size = w->inode_size;
	if (c->bigalloc && c->bs == 1024 && w->cluster64k)
		c->cluster = 65536;
	if (w->fc_blocks)
		c->fc_kib = w->fc_blocks * (c->bs / 1024) > 4096 ? 4096 :
			    w->fc_blocks * (c->bs / 1024);
	/* Room for a file of thousands of extents besides the rest. */
	c->size_mib += 64;
}

static void fs_of(unsigned long long seed, struct fsconf *c)
{
	seed_stream(seed, 1);
	memset(c, 0, sizeof(*c));
	c->bs = chance(50) ? 1024 : 4096;
	c->csum = chance(60);
	c->uninit = !c->csum && chance(50);
	c->bit64 = chance(60);
	c->flex = chance(75);
	c->inline_data = chance(25);
	c->bigalloc = chance(15);
	c->meta_bg = !c->bigalloc && chance(15);
	c->dir_index = chance(90);
	c->orphan_file = chance(20);
	switch (rnd(4)) {
	case 0: c->fc_kib = 0; break;
	case 1: c->fc_kib = 64; break;
	case 2: c->fc_kib = 256; break;
	default: c->fc_kib = 1024; break;
	}
	c->size_mib = c->bigalloc ? 128 : 64;
	{
		struct wide w;

		wide_of(seed, &w);
		fs_widen(c, &w);
	}
}

static void print_mkfs(const struct fsconf *c)
{
	printf("%uM -b %u", c->size_mib, c->bs);
	if (c->bigalloc)
		printf(" -C %u", c->cluster);
	if (c->inode_size)
		printf(" -I %u", c->inode_size);
	printf(" -O fast_commit,extent,%smetadata_csum,%suninit_bg,%s64bit,"
	       "%sflex_bg,%sinline_data,%sbigalloc,%smeta_bg,%sresize_inode,"
	       "%sdir_index,%sorphan_file",
	       c->csum ? "" : "^", c->uninit ? "" : "^", c->bit64 ? "" : "^",
	       c->flex ? "" : "^", c->inline_data ? "" : "^",
	       c->bigalloc ? "" : "^", c->meta_bg ? "" : "^",
	       c->meta_bg ? "^" : "", c->dir_index ? "" : "^",
	       c->orphan_file ? "" : "^");
	if (c->fc_kib)
		printf(" -J size=%u,fast_commit_size=%u",
		       c->bs == 4096 ? 8 : 4, c->fc_kib);
	putchar('\n');
}

/* ---- the workload profile of a seed ------------------------------------ */

enum op {
	OP_CREATE, OP_WRITE, OP_APPEND, OP_TRUNC, OP_LINK, OP_UNLINK,
	OP_RENAME, OP_MKDIR, OP_RMDIR, OP_SYMLINK, OP_FALLOC, OP_PUNCH,
	OP_ZERO, OP_CHMOD, OP_MANY, OP_XATTR, OP_RENAMEDIR,
	/* the widened generator's (weight 0 in a classic seed) */
	OP_SETATTR, OP_ORPHAN, OP_EXCHANGE, OP_NOREPLACE, OP_WHITEOUT,
	OP_RENAMEPARENT, OP_INSERT, OP_COLLAPSE, OP_INTERLEAVE, OP_FAR,
	OP_MKNOD, OP_COUNT
};

#define OP_CLASSIC (OP_RENAMEDIR + 1)

static const char *const op_names[OP_COUNT] = {
	"create", "write", "append", "truncate", "link", "unlink", "rename",
	"mkdir", "rmdir", "symlink", "fallocate", "punch", "zero", "chmod",
	"many", "setxattr", "renamedir", "setattr", "orphan", "exchange",
	"noreplace", "whiteout", "renameparent", "insert", "collapse",
	"interleave", "far", "mknod"
};

/* Weights before the seed scales them. */
static const unsigned int base_weight[OP_COUNT] = {
	[OP_CREATE] = 14, [OP_WRITE] = 14, [OP_APPEND] = 10, [OP_TRUNC] = 8,
	[OP_LINK] = 6, [OP_UNLINK] = 7, [OP_RENAME] = 7, [OP_MKDIR] = 5,
	[OP_RMDIR] = 2, [OP_SYMLINK] = 4, [OP_FALLOC] = 5, [OP_PUNCH] = 4,
	[OP_ZERO] = 3, [OP_CHMOD] = 2, [OP_MANY] = 1, [OP_XATTR] = 1,
	[OP_RENAMEDIR] = 1, [OP_SETATTR] = 4, [OP_ORPHAN] = 2,
	[OP_EXCHANGE] = 1, [OP_NOREPLACE] = 3, [OP_WHITEOUT] = 1,
	[OP_RENAMEPARENT] = 1, [OP_INSERT] = 1, [OP_COLLAPSE] = 1,
	[OP_INTERLEAVE] = 1, [OP_FAR] = 1, [OP_MKNOD] = 2
};

/*
 * Of the widened operations these make the running transaction ineligible
 * on 6.18 (/proc/fs/ext4/DEV/fc_info: "Cross rename", "Data journalling"
 * for the whiteout, "Dir renamed", "Falloc range op"): every fsync is then
 * a full commit until one is made, so their weights are low and the tail
 * has none of them.
 */

struct profile {
	unsigned int weight[OP_COUNT];
	unsigned int total;
	unsigned int nops;
	unsigned int fsync_pct;		/* chance an op is fsynced */
	unsigned int fdatasync_pct;	/* of those, fdatasync instead */
	unsigned int dirsync_pct;	/* a name's change: fsync its directory */
	unsigned int tail;		/* the last ops: no full commit asked */
	struct wide w;
	unsigned int wtotal;		/* sum of w.wmode */
};

static void profile_of(unsigned long long seed, struct profile *p)
{
	unsigned int i;

	seed_stream(seed, 2);
	p->total = 0;
	for (i = 0; i < OP_CLASSIC; i++) {
		/* Each weight scaled by 0, 1/2, 1, 2 or 3: some seeds lean
		 * on a few kinds of change, some never make one. */
		static const unsigned int scale2[] = { 0, 1, 2, 2, 4, 6 };

		p->weight[i] = base_weight[i] * scale2[rnd(6)];
		if (i == OP_CREATE || i == OP_WRITE)
			p->weight[i] += 4;
		p->total += p->weight[i];
	}
	p->nops = (unsigned int)between(20, 320);
	p->fsync_pct = (unsigned int)(chance(30) ? 100 : between(40, 95));
	p->fdatasync_pct = (unsigned int)between(0, 30);
	{
		static const unsigned int dirsync[] = { 5, 20, 50, 90 };

		p->dirsync_pct = dirsync[rnd(4)];
	}
	p->tail = chance(50) ? (unsigned int)between(1, 40) : 0;
	if (p->tail > p->nops)
		p->tail = p->nops;
	wide_of(seed, &p->w);
	/* A widened seed ends in a tail more often (three in four): the
	 * fast commits after the log's last transaction are what the
	 * replay of fast commits gets to see. */
	if (p->w.on && !p->tail && p->w.tail)
		p->tail = p->w.tail > p->nops ? p->nops : p->w.tail;
	p->wtotal = 0;
	for (i = OP_CLASSIC; i < OP_COUNT; i++) {
		p->weight[i] = p->w.on ?
			base_weight[i] * p->w.opscale[i - OP_CLASSIC] : 0;
		p->total += p->weight[i];
	}
	for (i = 0; i < WM_COUNT; i++)
		p->wtotal += p->w.wmode[i];
}

/* ---- the model -------------------------------------------------------- */

#define MAXDIRS 512
#define MAXNAMES 8192
#define MAXOBJS 8192
#define MAXFILE (8LL << 20)

struct dir {
	int parent;			/* -1 for the root */
	char leaf[64];
	int alive;
};

struct obj {
	int symlink;
	long long size;
	int nlink;
};

struct name {
	int dir;
	char leaf[240];
	int obj;			/* -1: a free slot */
};

static struct dir dirs[MAXDIRS];
static int ndirs;
static struct obj objs[MAXOBJS];
static int nobjs;
static struct name names[MAXNAMES];
static int nnames;
static unsigned int counter;
static unsigned long long g_seed;
static unsigned int g_op;
static const struct fsconf *g_fs;

/* buf = a "/" b; paths here stay far below PATH_MAX (the model's depth
 * and leaf lengths are bounded), so too long is a bug of the model. */
static void join(char *buf, size_t len, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + 1 + lb + 1 > len) {
		fprintf(stderr, "fcgen: path too long\n");
		exit(1);
	}
	memmove(buf, a, la);
	buf[la] = '/';
	memcpy(buf + la + 1, b, lb + 1);
}

static void dir_path(int d, char *buf, size_t len)
{
	char tmp[4096];

	if (d <= 0) {
		snprintf(buf, len, ".");
		return;
	}
	dir_path(dirs[d].parent, tmp, sizeof(tmp));
	join(buf, len, tmp, dirs[d].leaf);
}

static void name_path(int n, char *buf, size_t len)
{
	char tmp[4096];

	dir_path(names[n].dir, tmp, sizeof(tmp));
	join(buf, len, tmp, names[n].leaf);
}

static int fail(const char *what, const char *path)
{
	printf("FAILED %s %s: %s\n", what, path, strerror(errno));
	fflush(stdout);
	fprintf(stderr, "fcgen: seed %llu op %u: %s %s: %s\n", g_seed, g_op,
		what, path, strerror(errno));
	exit(1);
}

static void logop(const char *fmt, ...)
{
	va_list ap;

	printf("%u ", g_op);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static int live_dir(void)
{
	int tries;

	for (tries = 0; tries < 64; tries++) {
		int d = (int)rnd((uint64_t)ndirs);

		if (dirs[d].alive)
			return d;
	}
	return 0;
}

/* A live name (of a file, or with symlinks=1 of anything), or -1. */
static int live_name(int symlinks)
{
	int tries;

	if (!nnames)
		return -1;
	for (tries = 0; tries < 64; tries++) {
		int n = (int)rnd((uint64_t)nnames);

		if (names[n].obj >= 0 &&
		    (symlinks || !objs[names[n].obj].symlink))
			return n;
	}
	return -1;
}

static int dir_entries(int d)
{
	int i, n = 0;

	for (i = 1; i < ndirs; i++)
		n += dirs[i].alive && dirs[i].parent == d;
	for (i = 0; i < nnames; i++)
		n += names[i].obj >= 0 && names[i].dir == d;
	return n;
}

/* d is a (descendant of) a */
static int under(int d, int a)
{
	for (; d > 0; d = dirs[d].parent)
		if (d == a)
			return 1;
	return a == 0;
}

static int new_name_slot(void)
{
	int i;

	if (nnames < MAXNAMES)
		return nnames++;
	for (i = 0; i < nnames; i++)
		if (names[i].obj < 0)
			return i;
	return -1;
}

static void new_leaf(char *buf, size_t len, char kind)
{
	unsigned int l = chance(15) ? (unsigned int)between(30, 200) : 0;
	int n = snprintf(buf, len, "%c%u", kind, ++counter);

	while (n < (int)l && n + 1 < (int)len) {
		buf[n++] = (char)('a' + rnd(26));
		buf[n] = 0;
	}
}

/* ---- the promises: what the workload made durable ------------------------
 *
 * With FCGEN_PROMISES=FILE in the environment, run() writes to FILE, after
 * the last operation, what a crash must keep: every name, file contents
 * and attributes that a durability call covered and that nothing changed
 * after it (tests/kernel/fcrand.sh takes their values from the tree listed
 * before the shutdown, which is then still the state at that call).  The
 * rules (tests/kernel/README, "The fsync'd tree"):
 *   - fsync of a file by a path, or an O_SYNC write (when the file had no
 *     other unsynced data): its contents and size, its mode, owner and
 *     xattrs, and its name with every directory above it;
 *   - fdatasync, an O_DSYNC write or msync (the same condition): its
 *     contents and size only;
 *   - fsync of a directory: its own mode and owner and every entry it holds
 *     (names there, and names removed from it: those must stay away), not
 *     its own name;
 *   - O_DIRECT and sync_file_range alone: nothing.
 * Any change after the call (data, attributes, or the name: unlink,
 * rename, exchange, its directory moved) takes the promise back: the crash
 * may keep either state.  Nothing here draws from the random stream. */

struct gone {
	int dir;
	char leaf[240];
	int durable;
};

static unsigned char pr_name_ok[MAXNAMES];	/* the name as it is */
static unsigned char pr_dir_ok[MAXDIRS];	/* the dir's name in its parent */
static unsigned char pr_dir_attr[MAXDIRS];
static unsigned char pr_data[MAXOBJS];
static unsigned char pr_attr[MAXOBJS];
static struct gone *pr_gone_list;
static int pr_ngone, pr_gone_cap;

/* A name at (d, leaf) again: a removal there is no longer the state. */
static void pr_arrive_at(int d, const char *leaf)
{
	int i;

	for (i = 0; i < pr_ngone; i++)
		if (pr_gone_list[i].dir == d &&
		    !strcmp(pr_gone_list[i].leaf, leaf)) {
			pr_gone_list[i] = pr_gone_list[--pr_ngone];
			i--;
		}
}

/* The name (d, leaf) removed, not yet durably. */
static void pr_gone(int d, const char *leaf)
{
	pr_arrive_at(d, leaf);
	if (pr_ngone == pr_gone_cap) {
		int cap = pr_gone_cap ? 2 * pr_gone_cap : 256;
		struct gone *g = realloc(pr_gone_list, (size_t)cap * sizeof(*g));

		if (!g) {
			fprintf(stderr, "fcgen: out of memory\n");
			exit(1);
		}
		pr_gone_list = g;
		pr_gone_cap = cap;
	}
	pr_gone_list[pr_ngone].dir = d;
	snprintf(pr_gone_list[pr_ngone].leaf, sizeof(pr_gone_list[0].leaf),
		 "%s", leaf);
	pr_gone_list[pr_ngone].durable = 0;
	pr_ngone++;
}

/* Name n leaves its path (before a rename or move changes it). */
static void pr_leave(int n)
{
	pr_gone(names[n].dir, names[n].leaf);
	pr_name_ok[n] = 0;
}

/* Name n is at a new path, or names another object. */
static void pr_arrive(int n)
{
	pr_arrive_at(names[n].dir, names[n].leaf);
	pr_name_ok[n] = 0;
}

/* Directory d moves (its old name goes). */
static void pr_dir_leave(int d)
{
	pr_gone(dirs[d].parent, dirs[d].leaf);
	pr_dir_ok[d] = 0;
}

static void pr_changed(int o, int data, int attr)
{
	if (data)
		pr_data[o] = 0;
	if (attr)
		pr_attr[o] = 0;
}

/* The name or directory a path of the model is: returns the name's index
 * (*isdir 0) or the directory's (*isdir 1), or -1. */
static int pr_resolve(const char *path, int *isdir)
{
	char comp[256];
	const char *s = path;
	int d = 0, i;

	*isdir = 1;
	if (s[0] == '.' && (s[1] == '/' || !s[1]))
		s++;
	while (*s == '/')
		s++;
	while (*s) {
		size_t l = strcspn(s, "/");

		if (l >= sizeof(comp))
			return -1;
		memcpy(comp, s, l);
		comp[l] = 0;
		s += l;
		while (*s == '/')
			s++;
		for (i = 1; i < ndirs; i++)
			if (dirs[i].alive && dirs[i].parent == d &&
			    !strcmp(dirs[i].leaf, comp))
				break;
		if (i < ndirs) {
			d = i;
			continue;
		}
		if (*s)
			return -1;
		for (i = 0; i < nnames; i++)
			if (names[i].obj >= 0 && names[i].dir == d &&
			    !strcmp(names[i].leaf, comp)) {
				*isdir = 0;
				return i;
			}
		return -1;
	}
	return d;
}

/* A durability call on path: full (fsync, O_SYNC) or data only
 * (fdatasync, O_DSYNC, msync). */
static void pr_synced(const char *path, int full)
{
	int isdir, k = pr_resolve(path, &isdir), i, d;

	if (k < 0)
		return;
	if (isdir) {
		if (!full)
			return;
		pr_dir_attr[k] = 1;
		for (i = 1; i < ndirs; i++)
			if (dirs[i].alive && dirs[i].parent == k)
				pr_dir_ok[i] = 1;
		for (i = 0; i < nnames; i++)
			if (names[i].obj >= 0 && names[i].dir == k)
				pr_name_ok[i] = 1;
		for (i = 0; i < pr_ngone; i++)
			if (pr_gone_list[i].dir == k)
				pr_gone_list[i].durable = 1;
		return;
	}
	pr_data[names[k].obj] = 1;
	if (!full)
		return;
	pr_attr[names[k].obj] = 1;
	pr_name_ok[k] = 1;
	for (d = names[k].dir; d > 0; d = dirs[d].parent)
		pr_dir_ok[d] = 1;
}

/* A write made durable by the way it was written (O_SYNC, O_DSYNC,
 * msync): the range only, so the whole file only if it had no other
 * unsynced data before; clean is pr_data before the write. */
static void pr_range_synced(int n, int clean, int full)
{
	char path[4400];

	pr_changed(names[n].obj, 1, 0);
	if (!clean)
		return;
	name_path(n, path, sizeof(path));
	pr_synced(path, full);
}

/* Directory d and all above it durably named. */
static int pr_chain(int d)
{
	for (; d > 0; d = dirs[d].parent)
		if (!dirs[d].alive || !pr_dir_ok[d])
			return 0;
	return 1;
}

static void pr_write_out(void)
{
	const char *file = getenv("FCGEN_PROMISES");
	char path[4400], dp[4096];
	FILE *f;
	int i;

	if (!file || !*file)
		return;
	f = fopen(file, "w");
	if (!f)
		fail("open", file);
	/* "have PATH DATA ATTR": PATH must be there, of the type it has
	 * now, with its contents and size (DATA 1) and its mode, owner and
	 * xattrs (ATTR 1) as they are now; "gone PATH": PATH must not be. */
	fprintf(f, "have . 0 %d\n", pr_dir_attr[0]);
	for (i = 1; i < ndirs; i++)
		if (dirs[i].alive && pr_chain(i)) {
			dir_path(i, path, sizeof(path));
			fprintf(f, "have %s 0 %d\n", path, pr_dir_attr[i]);
		}
	for (i = 0; i < nnames; i++) {
		int o = names[i].obj;

		if (o < 0 || !pr_name_ok[i] || !pr_chain(names[i].dir))
			continue;
		name_path(i, path, sizeof(path));
		/* A symlink's target and a special file's attributes are
		 * not asked for (tests/kernel/README). */
		fprintf(f, "have %s %d %d\n", path,
			objs[o].symlink ? 0 : pr_data[o],
			objs[o].symlink ? 0 : pr_attr[o]);
	}
	for (i = 0; i < pr_ngone; i++)
		if (pr_gone_list[i].durable && dirs[pr_gone_list[i].dir].alive) {
			dir_path(pr_gone_list[i].dir, dp, sizeof(dp));
			join(path, sizeof(path), dp, pr_gone_list[i].leaf);
			fprintf(f, "gone %s\n", path);
		}
	if (fclose(f))
		fail("write", file);
}

/* ---- the operations ----------------------------------------------------- */

static void fill(unsigned char *buf, size_t len, uint64_t off)
{
	uint64_t x = g_seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)g_op << 32) ^ off;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
		}
		buf[i] = (unsigned char)((x * 0x2545f4914f6cdd1dULL) >> (8 * (i & 7)));
	}
}

static void write_at(int fd, const char *path, long long off, long long len)
{
	/* Aligned for O_DIRECT (offsets and lengths are then multiples of
	 * 4096 too). */
	static unsigned char buf[65536] __attribute__((aligned(4096)));

	while (len > 0) {
		size_t n = len < (long long)sizeof(buf) ? (size_t)len : sizeof(buf);

		fill(buf, n, (uint64_t)off);
		if (pwrite(fd, buf, n, (off_t)off) != (ssize_t)n)
			fail("pwrite", path);
		off += (long long)n;
		len -= (long long)n;
	}
}

static int live_name(int symlinks);

/*
 * After an operation, at random: nothing, or an fsync (fdatasync) of the
 * file it changed (fd, or path when fd is -1; NULL for a symlink), or of
 * its directory (dirpath, NULL if none), or of another file.  An fsync of
 * a directory is a full commit; of a file, a fast commit that carries
 * every change tracked since the last commit (new and removed names
 * included), unless something in the transaction is ineligible.
 */
static void maybe_sync(const struct profile *p, int fd, const char *path,
		       const char *dirpath)
{
	char other[4400];
	int data = chance(p->fdatasync_pct);
	int own = -1;
	const char *what = path;

	if (!chance(p->fsync_pct)) {
		printf(" nosync\n");
		return;
	}
	if (dirpath && chance(fd >= 0 ? 10 : p->dirsync_pct)) {
		what = dirpath;
		data = 0;
	} else if (fd >= 0 && !chance(5)) {
		what = NULL;
	} else if (!path || chance(30)) {
		int n = live_name(0);

		if (n >= 0) {
			name_path(n, other, sizeof(other));
			what = other;
		} else {
			what = dirpath ? dirpath : ".";
			data = 0;
		}
	}
	if (what) {
		own = open(what, O_RDONLY);
		if (own < 0)
			fail("open", what);
		fd = own;
	} else {
		what = path;
	}
	if (data ? fdatasync(fd) : fsync(fd))
		fail(data ? "fdatasync" : "fsync", what);
	pr_synced(what, !data);
	printf(" %s %s\n", data ? "fdatasync" : "fsync", what);
	if (own >= 0)
		close(own);
}

static long long pick_len(void)
{
	switch (rnd(6)) {
	case 0: return between(1, 100);
	case 1: return between(1, 4096);
	case 2: return between(4096, 20000);
	case 3: return between(1, 65536);
	case 4: return 4096 * between(1, 16);
	default: return between(20000, 262144);
	}
}

static long long pick_off(long long size)
{
	switch (rnd(5)) {
	case 0: return 0;
	case 1: return size ? (long long)rnd((uint64_t)size) : 0;
	case 2: return size + between(0, 65536);
	case 3: return 4096 * (long long)rnd((uint64_t)(size / 4096 + 8));
	default: return between(0, 4LL << 20);
	}
}

static int add_name(int d, const char *leaf, int o)
{
	int n = new_name_slot();

	if (n < 0)
		return -1;
	names[n].dir = d;
	snprintf(names[n].leaf, sizeof(names[n].leaf), "%s", leaf);
	names[n].obj = o;
	objs[o].nlink++;
	pr_arrive(n);
	return n;
}

static void drop_name(int n)
{
	pr_gone(names[n].dir, names[n].leaf);
	objs[names[n].obj].nlink--;
	names[n].obj = -1;
}

static int op_create(const struct profile *p)
{
	char dp[4096], path[4400], leaf[240];
	int d = live_dir(), fd, n;
	long long len = chance(30) ? 0 : pick_len();

	if (nobjs >= MAXOBJS)
		return 0;
	if (chance(15))
		len = between(1, 60);	/* fits inline */
	dir_path(d, dp, sizeof(dp));
	new_leaf(leaf, sizeof(leaf), 'f');
	join(path, sizeof(path), dp, leaf);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		fail("create", path);
	objs[nobjs].symlink = 0;
	objs[nobjs].size = len;
	objs[nobjs].nlink = 0;
	n = add_name(d, leaf, nobjs++);
	if (n < 0)
		return 0;
	write_at(fd, path, 0, len);
	logop("create %s %lld", path, len);
	maybe_sync(p, fd, path, dp);
	close(fd);
	return 1;
}

static enum wmode pick_wmode(const struct profile *p)
{
	uint64_t r;
	int m;

	/* A classic seed draws nothing here: its stream stays as it was. */
	if (p->wtotal <= p->w.wmode[WM_PLAIN])
		return WM_PLAIN;
	r = rnd(p->wtotal);
	for (m = 0; m < WM_COUNT - 1 && r >= p->w.wmode[m]; m++)
		r -= p->w.wmode[m];
	return (enum wmode)m;
}

static int op_write(const struct profile *p, int append)
{
	char path[4400];
	int n = live_name(0), fd, flags, clean;
	struct obj *o;
	long long off, len;
	enum wmode m;

	if (n < 0)
		return 0;
	o = &objs[names[n].obj];
	m = pick_wmode(p);
	off = append ? o->size : pick_off(o->size);
	len = pick_len();
	if (m == WM_DIRECT) {
		/* Whole 4 KiB pieces at a multiple of 4096 (no O_APPEND). */
		off &= ~4095LL;
		len = (len + 4095) & ~4095LL;
		append = 0;
	} else if (m == WM_MMAP) {
		/* Only inside the file: a mapping does not grow it. */
		if (!o->size) {
			m = WM_PLAIN;
		} else {
			if (off >= o->size)
				off = (long long)rnd((uint64_t)o->size);
			if (len > o->size - off)
				len = o->size - off;
			append = 0;
		}
	}
	if (off + len > MAXFILE)
		return 0;
	name_path(n, path, sizeof(path));
	flags = append ? O_APPEND : 0;
	switch (m) {
	case WM_SYNC: flags |= O_SYNC; break;
	case WM_DSYNC: flags |= O_DSYNC; break;
	case WM_DIRECT: flags |= O_DIRECT; break;
	default: break;
	}
	fd = open(path, (m == WM_MMAP ? O_RDWR : O_WRONLY) | flags);
	if (fd < 0)
		fail("open", path);
	if (m == WM_MMAP) {
		long long start = off & ~4095LL;
		size_t maplen = (size_t)(off + len - start);
		unsigned char *map = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
					  MAP_SHARED, fd, (off_t)start);

		if (map == MAP_FAILED)
			fail("mmap", path);
		fill(map + (off - start), (size_t)len, (uint64_t)off);
		if (msync(map, maplen, MS_SYNC))
			fail("msync", path);
		munmap(map, maplen);
	} else {
		write_at(fd, path, off, len);
	}
	if (m == WM_SFR &&
	    sync_file_range(fd, (off_t)off, (off_t)len,
			    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			    SYNC_FILE_RANGE_WAIT_AFTER))
		fail("sync_file_range", path);
	if (off + len > o->size)
		o->size = off + len;
	/* O_SYNC, O_DSYNC and msync make this range durable; O_DIRECT and
	 * sync_file_range alone do not. */
	clean = pr_data[names[n].obj];
	if (m == WM_SYNC || m == WM_DSYNC || m == WM_MMAP)
		pr_range_synced(n, clean, m == WM_SYNC);
	else
		pr_changed(names[n].obj, 1, 0);
	logop("%s %s %lld %lld%s%s", append ? "append" : "write", path, off,
	      len, m == WM_PLAIN ? "" : " by ",
	      m == WM_PLAIN ? "" : wmode_names[m]);
	maybe_sync(p, fd, path, NULL);
	close(fd);
	return 1;
}

static int op_trunc(const struct profile *p)
{
	char path[4400];
	int n = live_name(0), fd;
	struct obj *o;
	long long to;

	if (n < 0)
		return 0;
	o = &objs[names[n].obj];
	if (chance(50) && o->size)
		to = (long long)rnd((uint64_t)o->size);
	else
		to = o->size + pick_len();
	if (chance(20))
		to &= ~4095LL;
	if (to > MAXFILE)
		return 0;
	name_path(n, path, sizeof(path));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail("open", path);
	if (ftruncate(fd, to))
		fail("ftruncate", path);
	logop("truncate %s %lld -> %lld", path, o->size, to);
	o->size = to;
	pr_changed(names[n].obj, 1, 0);
	maybe_sync(p, fd, path, NULL);
	close(fd);
	return 1;
}

static int op_link(const struct profile *p)
{
	char from[4400], dp[4096], to[4400], leaf[240];
	int n = live_name(1), d = chance(50) && n >= 0 ? names[n].dir : live_dir();

	if (n < 0 || objs[names[n].obj].nlink >= 20)
		return 0;
	name_path(n, from, sizeof(from));
	dir_path(d, dp, sizeof(dp));
	new_leaf(leaf, sizeof(leaf), 'h');
	join(to, sizeof(to), dp, leaf);
	if (link(from, to))
		fail("link", to);
	if (add_name(d, leaf, names[n].obj) < 0)
		return 0;
	logop("link %s %s", from, to);
	maybe_sync(p, -1, objs[names[n].obj].symlink ? NULL : to, dp);
	return 1;
}

static int op_unlink(const struct profile *p)
{
	char path[4400], dp[4096];
	int n = live_name(1);

	if (n < 0)
		return 0;
	name_path(n, path, sizeof(path));
	dir_path(names[n].dir, dp, sizeof(dp));
	if (unlink(path))
		fail("unlink", path);
	logop("unlink %s", path);
	drop_name(n);
	maybe_sync(p, -1, NULL, dp);
	return 1;
}

static int op_rename(const struct profile *p)
{
	char from[4400], to[4400], dp[4096], leaf[240];
	int n = live_name(1), t = -1, d;

	if (n < 0)
		return 0;
	if (chance(35)) {
		t = live_name(1);
		if (t < 0 || t == n || names[t].obj == names[n].obj)
			t = -1;
	}
	name_path(n, from, sizeof(from));
	if (t >= 0) {
		d = names[t].dir;
		snprintf(leaf, sizeof(leaf), "%s", names[t].leaf);
	} else {
		d = chance(50) ? names[n].dir : live_dir();
		new_leaf(leaf, sizeof(leaf), 'r');
	}
	dir_path(d, dp, sizeof(dp));
	join(to, sizeof(to), dp, leaf);
	if (rename(from, to))
		fail("rename", from);
	logop("rename %s %s%s", from, to, t >= 0 ? " (over)" : "");
	if (t >= 0)
		drop_name(t);
	pr_leave(n);
	names[n].dir = d;
	snprintf(names[n].leaf, sizeof(names[n].leaf), "%s", leaf);
	pr_arrive(n);
	maybe_sync(p, -1, objs[names[n].obj].symlink ? NULL : to, dp);
	return 1;
}

static int op_mkdir(const struct profile *p)
{
	char dp[4096], path[4400];
	int d = live_dir(), fd;

	if (ndirs >= MAXDIRS)
		return 0;
	dir_path(d, dp, sizeof(dp));
	dirs[ndirs].parent = d;
	dirs[ndirs].alive = 1;
	snprintf(dirs[ndirs].leaf, sizeof(dirs[ndirs].leaf), "d%u", ++counter);
	join(path, sizeof(path), dp, dirs[ndirs].leaf);
	if (mkdir(path, 0755))
		fail("mkdir", path);
	ndirs++;
	logop("mkdir %s", path);
	if (chance(p->dirsync_pct)) {
		/* The parent's fsync, then maybe the new one's too. */
		fd = open(dp, O_RDONLY | O_DIRECTORY);
		if (fd < 0 || fsync(fd))
			fail("fsync", dp);
		close(fd);
		printf(" fsync %s", dp);
		pr_synced(dp, 1);
	}
	maybe_sync(p, -1, NULL, path);
	return 1;
}

static int op_rmdir(const struct profile *p)
{
	char path[4400], dp[4096];
	int tries, d = -1;

	for (tries = 0; tries < 16 && d < 0; tries++) {
		int c = live_dir();

		if (c > 0 && !dir_entries(c))
			d = c;
	}
	if (d < 0)
		return 0;
	dir_path(d, path, sizeof(path));
	dir_path(dirs[d].parent, dp, sizeof(dp));
	if (rmdir(path))
		fail("rmdir", path);
	dirs[d].alive = 0;
	pr_gone(dirs[d].parent, dirs[d].leaf);
	logop("rmdir %s", path);
	maybe_sync(p, -1, NULL, dp);
	return 1;
}

static int op_renamedir(const struct profile *p)
{
	char from[4400], dp[4096], to[4400];
	int s = live_dir(), d = live_dir();

	if (s <= 0 || under(d, s))
		return 0;
	dir_path(s, from, sizeof(from));
	dir_path(d, dp, sizeof(dp));
	snprintf(to, sizeof(to), "%s/D%u", dp, ++counter);
	if (rename(from, to))
		fail("rename", from);
	pr_dir_leave(s);
	dirs[s].parent = d;
	snprintf(dirs[s].leaf, sizeof(dirs[s].leaf), "D%u", counter);
	logop("renamedir %s %s", from, to);
	maybe_sync(p, -1, NULL, to);
	return 1;
}

static int op_symlink(const struct profile *p)
{
	char dp[4096], path[4400], leaf[240], target[1100];
	int d = live_dir();
	long long len = chance(50) ? between(1, 59) : between(60, 1000), i;

	if (nobjs >= MAXOBJS)
		return 0;
	for (i = 0; i < len; i++)
		target[i] = (char)(i % 9 == 8 ? '/' : 'a' + rnd(26));
	target[len] = 0;
	dir_path(d, dp, sizeof(dp));
	new_leaf(leaf, sizeof(leaf), 's');
	join(path, sizeof(path), dp, leaf);
	if (symlink(target, path))
		fail("symlink", path);
	objs[nobjs].symlink = 1;
	objs[nobjs].size = len;
	objs[nobjs].nlink = 0;
	if (add_name(d, leaf, nobjs++) < 0)
		return 0;
	logop("symlink %s (%lld bytes)", path, len);
	maybe_sync(p, -1, NULL, dp);
	return 1;
}

static int op_fallocate(const struct profile *p, enum op what)
{
	char path[4400];
	int n = live_name(0), fd, mode = 0;
	struct obj *o;
	long long off, len;
	const char *how;

	if (n < 0)
		return 0;
	o = &objs[names[n].obj];
	off = pick_off(o->size);
	len = pick_len();
	if (chance(40)) {
		off &= ~4095LL;
		len = (len + 4095) & ~4095LL;
	}
	if (off + len > MAXFILE)
		return 0;
	switch (what) {
	case OP_PUNCH:
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		how = "punch";
		break;
	case OP_ZERO:
		mode = FALLOC_FL_ZERO_RANGE | (chance(50) ? FALLOC_FL_KEEP_SIZE : 0);
		how = mode & FALLOC_FL_KEEP_SIZE ? "zero-keep" : "zero";
		break;
	default:
		mode = chance(50) ? FALLOC_FL_KEEP_SIZE : 0;
		how = mode ? "alloc-keep" : "alloc";
		break;
	}
	name_path(n, path, sizeof(path));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail("open", path);
	if (fallocate(fd, mode, (off_t)off, (off_t)len)) {
		if (errno != EOPNOTSUPP)
			fail("fallocate", path);
		logop("fallocate %s %s %lld %lld: not supported here\n", how,
		      path, off, len);
		close(fd);
		return 1;
	}
	if (!(mode & FALLOC_FL_KEEP_SIZE) && off + len > o->size)
		o->size = off + len;
	pr_changed(names[n].obj, 1, 0);
	logop("fallocate %s %s %lld %lld", how, path, off, len);
	maybe_sync(p, fd, path, NULL);
	close(fd);
	return 1;
}

static int op_chmod(const struct profile *p)
{
	char path[4400];
	int n = live_name(0);
	mode_t m = (mode_t)(0600 | rnd(0200));

	if (n < 0)
		return 0;
	name_path(n, path, sizeof(path));
	if (chmod(path, m))
		fail("chmod", path);
	pr_changed(names[n].obj, 0, 1);
	logop("chmod %s %o", path, (unsigned int)m);
	maybe_sync(p, -1, path, NULL);
	return 1;
}

static int op_xattr(const struct profile *p)
{
	char path[4400], value[3000], key[32];
	int n = live_name(0);
	size_t len = (size_t)(chance(70) ? between(1, 100) : between(100, 3000));
	size_t i;

	if (n < 0)
		return 0;
	if (g_fs->bs == 1024 && len > 900)
		len = 900;
	for (i = 0; i < len; i++)
		value[i] = (char)('A' + rnd(26));
	snprintf(key, sizeof(key), "user.k%u", (unsigned int)rnd(4));
	name_path(n, path, sizeof(path));
	if (setxattr(path, key, value, len, 0)) {
		/* No room left in the inode and its xattr block (inline data
		 * takes the inode's): a fact of the sequence, not of timing. */
		if (errno != ENOSPC && errno != E2BIG)
			fail("setxattr", path);
		logop("setxattr %s %s %zu: no room\n", path, key, len);
		return 1;
	}
	pr_changed(names[n].obj, 0, 1);
	logop("setxattr %s %s %zu", path, key, len);
	maybe_sync(p, -1, path, NULL);
	return 1;
}

/* Many names in one directory in one go. */
static int op_many(const struct profile *p)
{
	char dp[4096], path[4400], leaf[240];
	int d = live_dir(), count = (int)between(40, 300), i, fd;
	int long_names = chance(60);

	if (nobjs + count >= MAXOBJS || nnames + count >= MAXNAMES)
		return 0;
	dir_path(d, dp, sizeof(dp));
	for (i = 0; i < count; i++) {
		size_t l;

		snprintf(leaf, sizeof(leaf), "m%u-", ++counter);
		l = strlen(leaf);
		if (long_names)
			for (; l < 180; l++)
				leaf[l] = (char)('a' + (counter + l) % 26);
		leaf[l] = 0;
		join(path, sizeof(path), dp, leaf);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			fail("create", path);
		objs[nobjs].symlink = 0;
		objs[nobjs].size = chance(10) ? between(1, 5000) : 0;
		objs[nobjs].nlink = 0;
		write_at(fd, path, 0, objs[nobjs].size);
		close(fd);
		add_name(d, leaf, nobjs++);
	}
	logop("many %s %d%s", dp, count, long_names ? " long" : "");
	maybe_sync(p, -1, NULL, dp);
	return 1;
}

/* ---- the widened generator's operations ---------------------------------- */

/* The unit of INSERT_RANGE and COLLAPSE_RANGE: a block, or a cluster. */
static long long alloc_unit(void)
{
	return g_fs->bigalloc ? (long long)g_fs->cluster : (long long)g_fs->bs;
}

/* A file (or, one time in four, a directory) changed in its attributes
 * alone: mode with setuid, setgid and sticky bits, owner and group above
 * 65535, or times before 1970 or after 2038. */
static int op_setattr(const struct profile *p)
{
	char path[4400];
	int isdir = chance(25), n = -1;
	const char *what;

	if (isdir) {
		int d = live_dir();

		dir_path(d, path, sizeof(path));
		pr_dir_attr[d] = 0;
	} else {
		n = live_name(0);
		if (n < 0)
			return 0;
		name_path(n, path, sizeof(path));
		pr_changed(names[n].obj, 0, 1);
	}
	switch (rnd(3)) {
	case 0: {
		mode_t m = (mode_t)((rnd(8) << 9) |
				    (isdir ? 0700 | rnd(0100) : 0600 | rnd(0200)));

		if (chmod(path, m))
			fail("chmod", path);
		logop("setattr %s mode %o", path, (unsigned int)m);
		what = "mode";
		break;
	}
	case 1: {
		uid_t u = (uid_t)(chance(80) ? between(65536, 4000000000LL) :
				  between(0, 65535));
		gid_t g = (gid_t)(chance(80) ? between(65536, 4000000000LL) :
				  between(0, 65535));

		if (chown(path, u, g))
			fail("chown", path);
		logop("setattr %s owner %u:%u", path, (unsigned int)u,
		      (unsigned int)g);
		what = "owner";
		break;
	}
	default: {
		struct timespec ts[2];
		int i;

		for (i = 0; i < 2; i++) {
			/* Before 1970, or after 2038 (up to 2445, which
			 * 256-byte inodes hold; 128-byte ones clamp). */
			ts[i].tv_sec = (time_t)(chance(50) ?
				-between(1, 2000000000LL) :
				between(2147483648LL, 15000000000LL));
			ts[i].tv_nsec = (long)between(0, 999999999);
		}
		if (utimensat(AT_FDCWD, path, ts, 0))
			fail("utimensat", path);
		logop("setattr %s times %lld %lld", path,
		      (long long)ts[0].tv_sec, (long long)ts[1].tv_sec);
		what = "times";
		break;
	}
	}
	(void)what;
	if (isdir)
		maybe_sync(p, -1, NULL, path);
	else
		maybe_sync(p, -1, path, NULL);
	return 1;
}

/* Files unlinked while open, held open across the shutdown by a process
 * of their own (see run()). */
#define MAXHELD 16
static int held[MAXHELD];
static int nheld;

static int op_orphan(const struct profile *p)
{
	char dp[4096], path[4400], leaf[240];
	int d = live_dir(), fd, pre, post;
	long long len = pick_len(), more = chance(50) ? pick_len() : 0;

	(void)p;
	if (nheld >= MAXHELD)
		return 0;
	dir_path(d, dp, sizeof(dp));
	new_leaf(leaf, sizeof(leaf), 'o');
	join(path, sizeof(path), dp, leaf);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		fail("create", path);
	write_at(fd, path, 0, len);
	pre = chance(30);
	if (pre && fsync(fd))
		fail("fsync", path);
	if (unlink(path))
		fail("unlink", path);
	pr_gone(d, leaf);
	write_at(fd, path, len, more);
	/* The fd's fsync after the unlink: the kernel (6.18) may then
	 * refuse to replay the log (tests/kernel/README). */
	post = chance(25);
	if (post && fsync(fd))
		fail("fsync", path);
	held[nheld++] = fd;
	logop("orphan %s %lld+%lld%s%s held open\n", path, len, more,
	      pre ? ", fsync before the unlink" : "",
	      post ? ", fsync after it" : "");
	return 1;
}

static int op_exchange(const struct profile *p)
{
	char a[4400], b[4400], dp[4096];
	int n = live_name(1), t = live_name(1), o;

	if (n < 0 || t < 0 || n == t || names[n].obj == names[t].obj)
		return 0;
	name_path(n, a, sizeof(a));
	name_path(t, b, sizeof(b));
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
		fail("renameat2 exchange", a);
	o = names[n].obj;
	names[n].obj = names[t].obj;
	names[t].obj = o;
	pr_arrive(n);
	pr_arrive(t);
	dir_path(names[t].dir, dp, sizeof(dp));
	logop("exchange %s %s", a, b);
	maybe_sync(p, -1, objs[names[t].obj].symlink ? NULL : b, dp);
	return 1;
}

/* renameat2 to a new name, with NOREPLACE or WHITEOUT (a whiteout, a
 * character device 0:0, is left at the old name). */
static int op_rename2(const struct profile *p, int whiteout)
{
	char from[4400], to[4400], dp[4096], leaf[240], oldleaf[240];
	int n = live_name(1), d, od;

	if (n < 0 || (whiteout && nobjs >= MAXOBJS))
		return 0;
	name_path(n, from, sizeof(from));
	d = chance(50) ? names[n].dir : live_dir();
	new_leaf(leaf, sizeof(leaf), 'r');
	dir_path(d, dp, sizeof(dp));
	join(to, sizeof(to), dp, leaf);
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to,
		      whiteout ? RENAME_WHITEOUT : RENAME_NOREPLACE))
		fail(whiteout ? "renameat2 whiteout" : "renameat2 noreplace",
		     from);
	od = names[n].dir;
	snprintf(oldleaf, sizeof(oldleaf), "%s", names[n].leaf);
	pr_leave(n);
	names[n].dir = d;
	snprintf(names[n].leaf, sizeof(names[n].leaf), "%s", leaf);
	pr_arrive(n);
	if (whiteout) {
		objs[nobjs].symlink = 2;	/* not a file: never opened */
		objs[nobjs].size = 0;
		objs[nobjs].nlink = 0;
		if (add_name(od, oldleaf, nobjs++) < 0)
			return 0;
	}
	logop("%s %s %s", whiteout ? "whiteout" : "noreplace", from, to);
	maybe_sync(p, -1, objs[names[n].obj].symlink ? NULL : to, dp);
	return 1;
}

/* The directory of a file renamed (moved elsewhere), then the file
 * fsynced by its new path. */
static int op_renameparent(const struct profile *p)
{
	char from[4400], to[4400], dp[4096], path[4400];
	int n = live_name(0), d, q, fd, data;

	if (n < 0)
		return 0;
	d = names[n].dir;
	q = live_dir();
	if (d <= 0 || under(q, d))
		return 0;
	dir_path(d, from, sizeof(from));
	dir_path(q, dp, sizeof(dp));
	snprintf(to, sizeof(to), "%s/P%u", dp, ++counter);
	if (rename(from, to))
		fail("rename", from);
	pr_dir_leave(d);
	dirs[d].parent = q;
	snprintf(dirs[d].leaf, sizeof(dirs[d].leaf), "P%u", counter);
	name_path(n, path, sizeof(path));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		fail("open", path);
	data = chance(p->fdatasync_pct);
	if (data ? fdatasync(fd) : fsync(fd))
		fail("fsync", path);
	pr_synced(path, !data);
	close(fd);
	logop("renameparent %s %s, %s %s\n", from, to,
	      data ? "fdatasync" : "fsync", path);
	return 1;
}

static int op_shift(const struct profile *p, int insert)
{
	char path[4400];
	int n = live_name(0), fd;
	struct obj *o;
	long long u = alloc_unit(), off, len = u * between(1, 16);

	if (n < 0)
		return 0;
	o = &objs[names[n].obj];
	if (insert) {
		/* At a unit boundary inside the file. */
		if (!o->size || o->size + len > MAXFILE)
			return 0;
		off = u * (long long)rnd((uint64_t)((o->size + u - 1) / u));
	} else {
		/* The range must end before the end of the file. */
		if (o->size <= len)
			len = u;
		if (o->size <= len)
			return 0;
		off = u * (long long)rnd((uint64_t)((o->size - len - 1) / u + 1));
	}
	name_path(n, path, sizeof(path));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail("open", path);
	if (fallocate(fd, insert ? FALLOC_FL_INSERT_RANGE :
		      FALLOC_FL_COLLAPSE_RANGE, (off_t)off, (off_t)len)) {
		if (errno != EOPNOTSUPP)
			fail(insert ? "fallocate insert" : "fallocate collapse",
			     path);
		logop("fallocate %s %s %lld %lld: not supported here\n",
		      insert ? "insert" : "collapse", path, off, len);
		close(fd);
		return 1;
	}
	o->size += insert ? len : -len;
	pr_changed(names[n].obj, 1, 0);
	logop("fallocate %s %s %lld %lld", insert ? "insert" : "collapse",
	      path, off, len);
	maybe_sync(p, fd, path, NULL);
	close(fd);
	return 1;
}

/* A new file written one block in two over a range: one extent per block
 * written, more than an inode and one level of leaves hold (a tree of
 * depth 2).  Once a seed. */
static int op_interleave(const struct profile *p)
{
	static int done;
	char dp[4096], path[4400], leaf[240];
	long long bs = g_fs->bs, count, i;
	int d = live_dir(), fd, n;

	if (done || nobjs >= MAXOBJS)
		return 0;
	done = 1;
	count = 4 * ((bs - 12) / 12) + between(20, 600);
	dir_path(d, dp, sizeof(dp));
	new_leaf(leaf, sizeof(leaf), 'x');
	join(path, sizeof(path), dp, leaf);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		fail("create", path);
	objs[nobjs].symlink = 0;
	objs[nobjs].size = (2 * count - 1) * bs;
	objs[nobjs].nlink = 0;
	n = add_name(d, leaf, nobjs++);
	for (i = 0; i < count; i++)
		write_at(fd, path, 2 * i * bs, bs);
	logop("interleave %s %lld blocks of %lld, one in two", path, count, bs);
	if (n >= 0)
		maybe_sync(p, fd, path, dp);
	else
		printf(" nosync\n");
	close(fd);
	return 1;
}

/* A fifo, a socket, a character or a block device: a name whose inode is
 * none of a file, a directory or a symlink. */
static int op_mknod(const struct profile *p)
{
	static const mode_t kinds[] = { S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK };
	static const char *const kind_names[] = { "fifo", "socket", "chr", "blk" };
	char dp[4096], path[4400], leaf[240];
	int d = live_dir(), k = (int)rnd(4);
	dev_t dev = makedev((unsigned int)between(1, 300),
			    (unsigned int)between(0, 1 << 19));

	if (nobjs >= MAXOBJS)
		return 0;
	dir_path(d, dp, sizeof(dp));
	new_leaf(leaf, sizeof(leaf), 'n');
	join(path, sizeof(path), dp, leaf);
	if (mknod(path, kinds[k] | 0640, k >= 2 ? dev : 0))
		fail("mknod", path);
	objs[nobjs].symlink = 3;	/* not a file: never opened */
	objs[nobjs].size = 0;
	objs[nobjs].nlink = 0;
	if (add_name(d, leaf, nobjs++) < 0)
		return 0;
	logop("mknod %s %s", path, kind_names[k]);
	maybe_sync(p, -1, NULL, dp);
	return 1;
}

/* A write past 4 GiB into a file (sparse below).  Once a seed. */
static int op_far(const struct profile *p)
{
	static int done;
	char path[4400];
	int n = live_name(0), fd;
	long long off = (4LL << 30) + between(0, 1 << 20), len = pick_len();

	if (done || n < 0)
		return 0;
	done = 1;
	name_path(n, path, sizeof(path));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail("open", path);
	write_at(fd, path, off, len);
	if (off + len > objs[names[n].obj].size)
		objs[names[n].obj].size = off + len;
	pr_changed(names[n].obj, 1, 0);
	logop("far %s %lld %lld", path, off, len);
	maybe_sync(p, fd, path, NULL);
	close(fd);
	return 1;
}

/* ---- the reach block ------------------------------------------------------ */

/*
 * What no seed's log carried when the soak's reach was measured (make
 * soak-coverage, tests/kernel/fc-reach.txt), made in one go after the last
 * operation in three widened seeds in five (a stream of its own: the
 * operations before it are the seed's as they were), under a directory
 * R0 that the model does not know:
 *   - a full commit (a setxattr makes the transaction ineligible): a
 *     directory with a small extended attribute (an inline one on
 *     inline_data filesystems, which its names then grow beside that
 *     attribute), a file with an extended attribute in a block of its
 *     own, and a small file;
 *   - then fast commits only: a file written one block in two (more
 *     extents than an inode holds), fsynced; the file with the attribute
 *     block written and the small one appended to, fsynced; the first
 *     file punched down to its first and last block, and its first block
 *     punched and written again (another physical block); ten names in
 *     the directory; the small file unlinked and a new one made, which
 *     takes its inode number (another generation); on 1 KiB blocks,
 *     33 MiB fallocated (extents of the longest length); last, an fsync
 *     of the punched file, which carries it all.
 * Not here, as 6.18 makes each of them ineligible (fc_info, measured): a
 * mknod or a symlink ("Data journalling"), the unlink of a file with an
 * extended attribute ("Extended attributes changed"), the unlink of a
 * symlink, a chmod of a fifo, utimensat of a symlink ("Data
 * journalling").
 */
static void reach_block(void)
{
	static char big[2048];
	char path[64];
	long long bs = g_fs->bs, k;
	size_t xlen = bs == 1024 ? 900 : sizeof(big);
	int fd, w, x, i;

	if (mkdir("R0", 0755) || mkdir("R0/d", 0755))
		fail("mkdir", "R0");
	if (setxattr("R0/d", "user.a", "1", 1, 0) && errno != ENOSPC)
		fail("setxattr", "R0/d");
	x = open("R0/x", O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (x < 0)
		fail("create", "R0/x");
	write_at(x, "R0/x", 0, 100);
	memset(big, 'B', sizeof(big));
	if (fsetxattr(x, "user.big", big, xlen, 0) && errno != ENOSPC &&
	    errno != E2BIG)
		fail("setxattr", "R0/x");
	fd = open("R0/y", O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		fail("create", "R0/y");
	write_at(fd, "R0/y", 0, 100);
	if (fsync(fd))
		fail("fsync", "R0/y");
	printf("reach: R0/d (setxattr), R0/x (setxattr of %zu bytes), R0/y: "
	       "fsync R0/y\n", xlen);

	w = open("R0/w", O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (w < 0)
		fail("create", "R0/w");
	for (k = 0; k < 10; k++)
		write_at(w, "R0/w", 2 * k * bs, bs);
	if (fsync(w))
		fail("fsync", "R0/w");
	write_at(x, "R0/x", bs, 2 * bs);
	write_at(fd, "R0/y", 100, 100);
	if (fsync(w))
		fail("fsync", "R0/w");
	close(x);
	close(fd);
	if (fallocate(w, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)bs, (off_t)(17 * bs)) ||
	    fallocate(w, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t)bs))
		fail("fallocate", "R0/w");
	write_at(w, "R0/w", 0, bs);
	for (i = 0; i < 10; i++) {
		snprintf(path, sizeof(path), "R0/d/name-of-some-length-%d", i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			fail("create", path);
		close(fd);
	}
	if (unlink("R0/y"))
		fail("unlink", "R0/y");
	fd = open("R0/z", O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		fail("create", "R0/z");
	write_at(fd, "R0/z", 0, 3 * bs);
	close(fd);
	if (bs == 1024) {
		fd = open("R0/big", O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			fail("create", "R0/big");
		if (fallocate(fd, 0, 0, 33LL << 20) && errno != ENOSPC)
			fail("fallocate", "R0/big");
		close(fd);
	}
	if (fsync(w))
		fail("fsync", "R0/w");
	close(w);
	printf("reach: R0/w written one block in two, fsync; R0/x written, "
	       "R0/y appended, fsync R0/w; R0/w punched, block 0 again; "
	       "R0/d: 10 names; unlink R0/y; R0/z%s: fsync R0/w\n",
	       bs == 1024 ? "; R0/big fallocated 33 MiB" : "");
}

/* Whether the seed ends in the reach block. */
static int reach_of(unsigned long long seed, const struct profile *p)
{
	seed_stream(seed, 5);
	return p->w.on && chance(60);
}

/* The files held open: a child keeps them (and the mount busy) until the
 * harness kills it after the shutdown (fcrand.sh's KW_AFTER). */
static void hold_orphans(void)
{
	pid_t pid;
	int null;

	if (!nheld)
		return;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fail("fork", ".");
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		/* Not forever, should the harness be gone. */
		alarm(1200);
		for (;;)
			pause();
	}
	printf("holder %d (%d files unlinked and open)\n", (int)pid, nheld);
}

static int run(unsigned long long seed, const char *dir)
{
	struct fsconf c;
	struct profile p;
	unsigned int done = 0;

	fs_of(seed, &c);
	g_fs = &c;
	profile_of(seed, &p);
	seed_stream(seed, 3);
	g_seed = seed;
	if (chdir(dir))
		fail("chdir", dir);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ndirs = 1;
	dirs[0].parent = -1;
	dirs[0].alive = 1;
	/* A few directories first, each fsynced with its parent. */
	for (g_op = 0; g_op < 3; g_op++) {
		struct profile all = p;

		all.fsync_pct = 100;
		all.dirsync_pct = 100;
		op_mkdir(&all);
	}
	while (done < p.nops) {
		uint64_t r;
		int k, ok;

		/* The tail: a run of what fast commits carry, with no fsync of
		 * a directory (a full commit) and nothing ineligible. */
		if (done == p.nops - p.tail && p.tail) {
			static const enum op full[] = {
				OP_XATTR, OP_RENAMEDIR, OP_EXCHANGE, OP_WHITEOUT,
				OP_RENAMEPARENT, OP_INSERT, OP_COLLAPSE
			};
			unsigned int f;

			for (f = 0; f < sizeof(full) / sizeof(full[0]); f++) {
				p.total -= p.weight[full[f]];
				p.weight[full[f]] = 0;
			}
			p.dirsync_pct = 0;
			printf("tail %u\n", p.tail);
		}
		r = rnd(p.total);
		for (k = 0; k < OP_COUNT - 1 && r >= p.weight[k]; k++)
			r -= p.weight[k];
		g_op++;
		switch ((enum op)k) {
		case OP_CREATE: ok = op_create(&p); break;
		case OP_WRITE: ok = op_write(&p, 0); break;
		case OP_APPEND: ok = op_write(&p, 1); break;
		case OP_TRUNC: ok = op_trunc(&p); break;
		case OP_LINK: ok = op_link(&p); break;
		case OP_UNLINK: ok = op_unlink(&p); break;
		case OP_RENAME: ok = op_rename(&p); break;
		case OP_MKDIR: ok = op_mkdir(&p); break;
		case OP_RMDIR: ok = op_rmdir(&p); break;
		case OP_SYMLINK: ok = op_symlink(&p); break;
		case OP_FALLOC:
		case OP_PUNCH:
		case OP_ZERO: ok = op_fallocate(&p, (enum op)k); break;
		case OP_CHMOD: ok = op_chmod(&p); break;
		case OP_MANY: ok = op_many(&p); break;
		case OP_XATTR: ok = op_xattr(&p); break;
		case OP_RENAMEDIR: ok = op_renamedir(&p); break;
		case OP_SETATTR: ok = op_setattr(&p); break;
		case OP_ORPHAN: ok = op_orphan(&p); break;
		case OP_EXCHANGE: ok = op_exchange(&p); break;
		case OP_NOREPLACE: ok = op_rename2(&p, 0); break;
		case OP_WHITEOUT: ok = op_rename2(&p, 1); break;
		case OP_RENAMEPARENT: ok = op_renameparent(&p); break;
		case OP_INSERT:
		case OP_COLLAPSE: ok = op_shift(&p, k == OP_INSERT); break;
		case OP_INTERLEAVE: ok = op_interleave(&p); break;
		case OP_FAR: ok = op_far(&p); break;
		case OP_MKNOD: ok = op_mknod(&p); break;
		default: ok = 0; break;
		}
		if (ok)
			done++;
		else
			g_op--;
	}
	if (reach_of(seed, &p))
		reach_block();
	pr_write_out();
	hold_orphans();
	printf("ops %u\n", done);
	return 0;
}

static void describe(unsigned long long seed)
{
	struct fsconf c;
	struct profile p;
	unsigned int i;
	char fc[32];

	fs_of(seed, &c);
	profile_of(seed, &p);
	if (c.fc_kib)
		snprintf(fc, sizeof(fc), "%u KiB", c.fc_kib);
	else
		snprintf(fc, sizeof(fc), "default");
	printf("seed %llu: %u-byte blocks%s%s%s%s%s%s%s%s%s, fast-commit area %s; "
	       "%u ops (the last %u without a full commit asked), "
	       "fsync %u%% (fdatasync %u%%, of a directory %u%%), ops:", seed, c.bs,
	       c.csum ? ", metadata_csum" : ", no csum",
	       c.uninit ? ", uninit_bg" : "", c.bit64 ? ", 64bit" : ", 32bit",
	       c.flex ? "" : ", no flex_bg",
	       c.inline_data ? ", inline_data" : "",
	       c.bigalloc ? ", bigalloc" : "", c.meta_bg ? ", meta_bg" : "",
	       c.dir_index ? "" : ", no dir_index",
	       c.orphan_file ? ", orphan_file" : "",
	       fc,
	       p.nops, p.tail, p.fsync_pct, p.fdatasync_pct, p.dirsync_pct);
	for (i = 0; i < OP_COUNT; i++)
		if (p.weight[i])
			printf(" %s", op_names[i]);
	if (p.w.on) {
		printf("; widened: %s%s, mount %s, shutdown %s, writes by",
		       c.inode_size == 128 ? "128-byte inodes, " :
		       c.inode_size == 512 ? "512-byte inodes, " : "",
		       c.bigalloc ? (c.cluster == 65536 ? "64 KiB clusters" :
				     "16-block clusters") : "no bigalloc",
		       p.w.mopts, p.w.shutdown);
		for (i = 0; i < WM_COUNT; i++)
			if (p.w.wmode[i])
				printf(" %s", wmode_names[i]);
		if (reach_of(seed, &p))
			printf("; reach block");
	} else {
		printf("; classic");
	}
	putchar('\n');
}

static int usage(void)
{
	fprintf(stderr, "usage: fcgen mkfs|mount|shutdown|describe SEED | "
		"run SEED DIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long seed;
	char *end;

	if (argc < 3)
		return usage();
	errno = 0;
	seed = strtoull(argv[2], &end, 0);
	if (errno || *end || end == argv[2])
		return usage();
	if (argc == 3 && !strcmp(argv[1], "mkfs")) {
		struct fsconf c;

		fs_of(seed, &c);
		print_mkfs(&c);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "mount")) {
		struct wide w;

		wide_of(seed, &w);
		printf("%s\n", w.mopts);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "shutdown")) {
		struct wide w;

		wide_of(seed, &w);
		printf("%s\n", w.shutdown);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "describe")) {
		describe(seed);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(seed, argv[3]);
	return usage();
}
