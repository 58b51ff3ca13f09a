/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jwrite: write a jbd2 journal described by a script read from stdin into
 * an ext4 image's internal journal, an external journal device, or a
 * journal dump file; then flag the filesystem as needing recovery.
 *
 * The script is run twice: first dry (every check, nothing written), then
 * for real, so a script error leaves the images untouched.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/jw.h"

static const char usage_text[] =
"usage: jwrite [-v] [-j EXTDEV | -d DUMPFILE] [IMAGE] < SCRIPT\n"
"  IMAGE        ext4 image: its internal journal is written (unless -j/-d),\n"
"               its block count bounds the blocks, and needs_recovery is set\n"
"  -j EXTDEV    write the external journal device (mke2fs -O journal_dev)\n"
"  -d DUMPFILE  write a journal dump (block 0 = journal superblock); created\n"
"               from IMAGE's internal journal if missing; IMAGE optional if not\n"
"  -v           a summary line per transaction on stderr\n"
"Script (one directive a line, # comments; N may be decimal or 0x hex):\n"
"  header, before the first transaction:\n"
"    version 1|2           features [revoke] [64bit] [async] [csum1|csum2|csum3] [fast_commit]\n"
"    sequence TID          start BLOCK          errno N          uuid HEX32|fs\n"
"    nrusers N             fcblocks N           logend BLOCK     badsbcsum\n"
"  anywhere: maxtags N   noend   norecover   allow-past-end\n"
"  log: txn [TID]\n"
"    log B[-B2]... [escape] [uuid] [fill=BYTE] [badcsum] [baddesc]\n"
"    revoke B[-B2]... [badcsum]      rcount N\n"
"    commit [time=SEC] [nsec=NS] [badcsum] [zerocsum] [type=N] [size=N]\n"
"    nocommit      raw [HEX...]      garbage      end\n"
"    bulk T N L [hit=PERCENT] [first=BLOCK]\n";

/* What both passes share. */
struct env {
	ext2_filsys fs;			/* IMAGE, or NULL */
	int have_free;
	uint64_t free_first, free_len;	/* largest free extent of fs */
};

struct ctx {
	struct jw *w;
	struct env *env;
	int started;			/* jw_start done: header closed */
	int noend, norecover;
	char msg[320];
};

static int bad(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof c->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static int jwfail(struct ctx *c)
{
	return bad(c, "%s", c->w->err);
}

/* An unsigned number (decimal or 0x hex) no larger than max. */
static int num(const char *s, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, &e, 0);
	if (errno || *e || x > max)
		return -1;
	*v = x;
	return 0;
}

/* "name=N" */
static int opt_num(const char *tok, const char *name, uint64_t max,
		   uint64_t *v, int *err)
{
	size_t n = strlen(name);

	if (strncmp(tok, name, n) || tok[n] != '=')
		return 0;
	if (num(tok + n + 1, max, v))
		*err = 1;
	return 1;
}

/* "B" or "B-B2" (inclusive, B <= B2) */
static int range(const char *s, uint64_t *a, uint64_t *b)
{
	const char *dash = strchr(s, '-');
	char head[32];

	if (!dash)
		return num(s, UINT64_MAX, a) || num(s, UINT64_MAX, b);
	if ((size_t)(dash - s) >= sizeof head)
		return -1;
	memcpy(head, s, dash - s);
	head[dash - s] = 0;
	return num(head, UINT64_MAX, a) || num(dash + 1, UINT64_MAX, b) || *a > *b;
}

static int hexval(int ch)
{
	return isdigit(ch) ? ch - '0' : isxdigit(ch) ? tolower(ch) - 'a' + 10 : -1;
}

/* Hex digits from the tokens (dashes ignored) into buf; returns bytes. */
static long hexbytes(int ac, char **av, unsigned char *buf, size_t max)
{
	size_t n = 0;
	int i, half = -1;

	for (i = 0; i < ac; i++) {
		const char *p;

		for (p = av[i]; *p; p++) {
			int v = hexval((unsigned char)*p);

			if (*p == '-')
				continue;
			if (v < 0)
				return -1;
			if (half < 0) {
				half = v;
				continue;
			}
			if (n == max)
				return -1;
			buf[n++] = half << 4 | v;
			half = -1;
		}
	}
	return half < 0 ? (long)n : -1;
}

/* ---- header directives ------------------------------------------------- */

static int d_version(struct ctx *c, int ac, char **av)
{
	if (ac != 2 || (strcmp(av[1], "1") && strcmp(av[1], "2")))
		return bad(c, "usage: version 1|2");
	c->w->conf.version = av[1][0] - '0';
	return 0;
}

static int d_features(struct ctx *c, int ac, char **av)
{
	static const struct { const char *name; uint32_t compat, incompat; } f[] = {
		{ "revoke", 0, JW_INCOMPAT_REVOKE },
		{ "64bit", 0, JW_INCOMPAT_64BIT },
		{ "async", 0, JW_INCOMPAT_ASYNC },
		{ "csum1", JW_COMPAT_CHECKSUM, 0 },
		{ "csum2", 0, JW_INCOMPAT_CSUM_V2 },
		{ "csum3", 0, JW_INCOMPAT_CSUM_V3 },
		{ "fast_commit", 0, JW_INCOMPAT_FAST_COMMIT },
	};
	uint32_t compat = 0, incompat = 0;
	size_t k;
	int i;

	for (i = 1; i < ac; i++) {
		for (k = 0; k < sizeof f / sizeof f[0]; k++)
			if (!strcmp(av[i], f[k].name))
				break;
		if (k == sizeof f / sizeof f[0])
			return bad(c, "unknown feature '%s'", av[i]);
		compat |= f[k].compat;
		incompat |= f[k].incompat;
	}
	c->w->conf.compat = compat;
	c->w->conf.incompat = incompat;
	return 0;
}

static int d_sequence(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v))
		return bad(c, "usage: sequence TID (0..4294967295)");
	c->w->conf.sequence = v;
	return 0;
}

static int d_start(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v))
		return bad(c, "usage: start BLOCK");
	c->w->conf.start = v;
	return 0;
}

static int d_errno(struct ctx *c, int ac, char **av)
{
	long long v = 0;
	char *e = NULL;

	errno = 0;
	if (ac == 2)
		v = strtoll(av[1], &e, 0);
	if (ac != 2 || errno || *e || e == av[1] || v < INT32_MIN || v > INT32_MAX)
		return bad(c, "usage: errno N (signed 32-bit)");
	c->w->conf.errnum = v;
	return 0;
}

static int d_uuid(struct ctx *c, int ac, char **av)
{
	struct jw_conf *conf = &c->w->conf;

	if (ac == 2 && !strcmp(av[1], "fs")) {
		if (!c->env->fs)
			return bad(c, "uuid fs needs IMAGE");
		memcpy(conf->uuid, c->env->fs->super->s_uuid, 16);
	} else if (ac < 2 || hexbytes(ac - 1, av + 1, conf->uuid, 16) != 16) {
		return bad(c, "usage: uuid HEX32|fs");
	}
	conf->set_uuid = 1;
	return 0;
}

static int d_nrusers(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v))
		return bad(c, "usage: nrusers N");
	c->w->conf.nrusers = v;
	return 0;
}

static int d_fcblocks(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v))
		return bad(c, "usage: fcblocks N");
	c->w->conf.fcblocks = v;
	return 0;
}

static int d_logend(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v) || !v)
		return bad(c, "usage: logend BLOCK");
	c->w->conf.logend = v;
	return 0;
}

static int d_badsbcsum(struct ctx *c, int ac, char **av)
{
	(void)av;
	if (ac != 1)
		return bad(c, "usage: badsbcsum");
	c->w->conf.badsbcsum = 1;
	return 0;
}

/* ---- directives allowed anywhere ------------------------------------------ */

static int d_maxtags(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v))
		return bad(c, "usage: maxtags N (0 = as many as fit)");
	c->w->maxtags = v;
	return 0;
}

static int d_flag(struct ctx *c, int ac, char **av)
{
	if (ac != 1)
		return bad(c, "usage: %s", av[0]);
	if (!strcmp(av[0], "noend"))
		c->noend = 1;
	else if (!strcmp(av[0], "norecover"))
		c->norecover = 1;
	else
		c->w->allow_past_end = 1;
	return 0;
}

/* ---- log directives --------------------------------------------------------- */

static int d_txn(struct ctx *c, int ac, char **av)
{
	uint64_t v = 0;

	if (ac > 2 || (ac == 2 && num(av[1], UINT32_MAX, &v)))
		return bad(c, "usage: txn [TID]");
	return jw_txn(c->w, ac == 2, v) ? jwfail(c) : 0;
}

/* Check every block range of a log/revoke line; count them. */
static int ranges_ok(struct ctx *c, int ac, char **av)
{
	uint64_t a, b;
	int i, n = 0;

	for (i = 1; i < ac; i++) {
		if (!isdigit((unsigned char)av[i][0]))
			continue;
		if (range(av[i], &a, &b))
			return bad(c, "bad block range '%s'", av[i]);
		n++;
	}
	return n ? 0 : bad(c, "usage: %s BLOCK[-BLOCK2]... [options]", av[0]);
}

static int d_log(struct ctx *c, int ac, char **av)
{
	struct jw_logopt o = { .fill = -1 };
	uint64_t a, b, v;
	int i, err = 0;

	for (i = 1; i < ac; i++) {
		if (isdigit((unsigned char)av[i][0]))
			continue;
		if (!strcmp(av[i], "escape"))
			o.escape = 1;
		else if (!strcmp(av[i], "uuid"))
			o.uuid = 1;
		else if (!strcmp(av[i], "badcsum"))
			o.badcsum = 1;
		else if (!strcmp(av[i], "baddesc"))
			o.baddesc = 1;
		else if (opt_num(av[i], "fill", 255, &v, &err) && !err)
			o.fill = v;
		else
			return bad(c, "bad log option '%s'", av[i]);
	}
	if (ranges_ok(c, ac, av))
		return -1;
	for (i = 1; i < ac; i++) {
		if (!isdigit((unsigned char)av[i][0]))
			continue;
		range(av[i], &a, &b);
		for (;; a++) {
			if (jw_log(c->w, a, &o))
				return jwfail(c);
			if (a == b)
				break;
		}
	}
	return 0;
}

static int d_revoke(struct ctx *c, int ac, char **av)
{
	uint64_t a, b;
	int i, badcsum = 0;

	for (i = 1; i < ac; i++) {
		if (isdigit((unsigned char)av[i][0]))
			continue;
		if (strcmp(av[i], "badcsum"))
			return bad(c, "bad revoke option '%s'", av[i]);
		badcsum = 1;
	}
	if (ranges_ok(c, ac, av))
		return -1;
	for (i = 1; i < ac; i++) {
		if (!isdigit((unsigned char)av[i][0]))
			continue;
		range(av[i], &a, &b);
		for (;; a++) {
			if (jw_revoke(c->w, a, badcsum))
				return jwfail(c);
			if (a == b)
				break;
		}
	}
	return 0;
}

static int d_rcount(struct ctx *c, int ac, char **av)
{
	uint64_t v;

	if (ac != 2 || num(av[1], UINT32_MAX, &v))
		return bad(c, "usage: rcount N");
	return jw_rcount(c->w, v) ? jwfail(c) : 0;
}

static int d_commit(struct ctx *c, int ac, char **av)
{
	struct jw_commitopt o = { .sec = -1, .type = -1, .size = -1 };
	uint64_t v;
	int i, err = 0;

	for (i = 1; i < ac; i++) {
		if (!strcmp(av[i], "badcsum"))
			o.badcsum = 1;
		else if (!strcmp(av[i], "zerocsum"))
			o.zerocsum = 1;
		else if (opt_num(av[i], "time", INT64_MAX, &v, &err) && !err)
			o.sec = v;
		else if (opt_num(av[i], "nsec", UINT32_MAX, &v, &err) && !err)
			o.nsec = v;
		else if (opt_num(av[i], "type", 255, &v, &err) && !err)
			o.type = v;
		else if (opt_num(av[i], "size", 255, &v, &err) && !err)
			o.size = v;
		else
			return bad(c, "bad commit option '%s'", av[i]);
	}
	return jw_commit(c->w, &o) ? jwfail(c) : 0;
}

static int d_nocommit(struct ctx *c, int ac, char **av)
{
	(void)av;
	if (ac != 1)
		return bad(c, "usage: nocommit");
	return jw_nocommit(c->w) ? jwfail(c) : 0;
}

static int d_raw(struct ctx *c, int ac, char **av)
{
	unsigned char *buf = malloc(c->w->bs);
	long n;
	int rc;

	if (!buf)
		return bad(c, "out of memory");
	n = hexbytes(ac - 1, av + 1, buf, c->w->bs);
	if (n < 0)
		rc = bad(c, "usage: raw [HEX...] (at most one block, whole bytes)");
	else
		rc = jw_raw(c->w, buf, n) ? jwfail(c) : 0;
	free(buf);
	return rc;
}

static int d_garbage(struct ctx *c, int ac, char **av)
{
	(void)av;
	if (ac != 1)
		return bad(c, "usage: garbage");
	return jw_garbage(c->w) ? jwfail(c) : 0;
}

static int d_end(struct ctx *c, int ac, char **av)
{
	(void)av;
	if (ac != 1)
		return bad(c, "usage: end");
	return jw_end(c->w) ? jwfail(c) : 0;
}

/* The largest run of free blocks in the filesystem: where bulk logs by
 * default, so that replaying it leaves the filesystem consistent. */
static int largest_free(struct ctx *c)
{
	struct env *env = c->env;
	ext2_filsys fs = env->fs;
	blk64_t b = fs->super->s_first_data_block;
	blk64_t end = ext2fs_blocks_count(fs->super) - 1, z, s;
	errcode_t e;

	if (env->have_free)
		return 0;
	e = ext2fs_read_block_bitmap(fs);
	if (e)
		return bad(c, "reading the block bitmap: %s", error_message(e));
	while (b <= end &&
	       !ext2fs_find_first_zero_block_bitmap2(fs->block_map, b, end, &z)) {
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, z, end, &s))
			s = end + 1;
		if (s - z > env->free_len) {
			env->free_first = z;
			env->free_len = s - z;
		}
		b = s;
	}
	env->have_free = 1;
	return 0;
}

static int d_bulk(struct ctx *c, int ac, char **av)
{
	uint64_t t, n, l, hit = 0, first = 0, span, v;
	int i, err = 0, have_first = 0;

	if (ac < 4 || num(av[1], UINT64_MAX, &t) || num(av[2], UINT64_MAX, &n) ||
	    num(av[3], UINT64_MAX, &l))
		return bad(c, "usage: bulk T N L [hit=PERCENT] [first=BLOCK]");
	for (i = 4; i < ac; i++) {
		if (opt_num(av[i], "hit", 100, &v, &err) && !err)
			hit = v;
		else if (opt_num(av[i], "first", UINT64_MAX, &v, &err) && !err)
			first = v, have_first = 1;
		else
			return bad(c, "bad bulk option '%s'", av[i]);
	}
	if (!c->env->fs)
		return bad(c, "bulk needs IMAGE");
	if (have_first) {
		span = UINT64_MAX;
	} else {
		if (largest_free(c))
			return -1;
		first = c->env->free_first;
		span = c->env->free_len;
	}
	return jw_bulk(c->w, t, n, l, hit, first, span) ? jwfail(c) : 0;
}

enum kind { HEADER, ANY, BODY };

static const struct directive {
	const char *name;
	enum kind kind;
	int (*fn)(struct ctx *, int, char **);
} directives[] = {
	{ "version", HEADER, d_version },
	{ "features", HEADER, d_features },
	{ "sequence", HEADER, d_sequence },
	{ "start", HEADER, d_start },
	{ "errno", HEADER, d_errno },
	{ "uuid", HEADER, d_uuid },
	{ "nrusers", HEADER, d_nrusers },
	{ "fcblocks", HEADER, d_fcblocks },
	{ "logend", HEADER, d_logend },
	{ "badsbcsum", HEADER, d_badsbcsum },
	{ "maxtags", ANY, d_maxtags },
	{ "noend", ANY, d_flag },
	{ "norecover", ANY, d_flag },
	{ "allow-past-end", ANY, d_flag },
	{ "txn", BODY, d_txn },
	{ "log", BODY, d_log },
	{ "revoke", BODY, d_revoke },
	{ "rcount", BODY, d_rcount },
	{ "commit", BODY, d_commit },
	{ "nocommit", BODY, d_nocommit },
	{ "raw", BODY, d_raw },
	{ "garbage", BODY, d_garbage },
	{ "end", BODY, d_end },
	{ "bulk", BODY, d_bulk },
};

struct script {
	char **line;
	size_t n;
};

static int read_script(FILE *f, struct script *sc)
{
	size_t cap = 0, len = 0;
	char *l = NULL;

	sc->line = NULL;
	sc->n = 0;
	while (getline(&l, &len, f) >= 0) {
		if (sc->n == cap) {
			char **n = realloc(sc->line, (cap = cap ? 2 * cap : 64) * sizeof *n);

			if (!n)
				return -1;
			sc->line = n;
		}
		sc->line[sc->n++] = l;
		l = NULL;
		len = 0;
	}
	free(l);
	return ferror(f) ? -1 : 0;
}

/* Split s in place into words (a '#' starts a comment). */
static int split(char *s, char ***av, size_t *cap)
{
	char *hash = strchr(s, '#'), *save, *t;
	int ac = 0;

	if (hash)
		*hash = 0;
	for (t = strtok_r(s, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if ((size_t)ac == *cap) {
			char **n = realloc(*av, (*cap = *cap ? 2 * *cap : 16) * sizeof *n);

			if (!n)
				return -1;
			*av = n;
		}
		(*av)[ac++] = t;
	}
	return ac;
}

/* Run the script against w. Returns 0, or -1 after printing the error. */
static int run(struct jw *w, struct env *env, const struct script *sc,
	       int *norecover)
{
	struct ctx c = { .w = w, .env = env };
	char **av = NULL, *buf = NULL;
	size_t i, avcap = 0;
	int rc = -1;

	for (i = 0; i < sc->n; i++) {
		const struct directive *d = NULL;
		size_t k;
		int ac;

		free(buf);
		buf = strdup(sc->line[i]);
		if (!buf || (ac = split(buf, &av, &avcap)) < 0) {
			bad(&c, "out of memory");
			goto out;
		}
		if (!ac)
			continue;
		for (k = 0; k < sizeof directives / sizeof directives[0]; k++)
			if (!strcmp(av[0], directives[k].name))
				d = &directives[k];
		if (!d) {
			bad(&c, "unknown directive '%s'", av[0]);
			goto out;
		}
		if (d->kind == HEADER && c.started) {
			bad(&c, "'%s' must come before the first transaction", av[0]);
			goto out;
		}
		if (d->kind == BODY && !c.started) {
			if (jw_start(w)) {
				bad(&c, "journal settings (the lines above): %s", w->err);
				goto out;
			}
			c.started = 1;
		}
		if (d->fn(&c, ac, av))
			goto out;
	}
	if (!c.started && jw_start(w)) {
		jwfail(&c);
		goto out;
	}
	if (jw_finish(w, c.noend)) {
		jwfail(&c);
		goto out;
	}
	*norecover = c.norecover;
	rc = 0;
out:
	if (rc) {
		if (i < sc->n)
			fprintf(stderr, "jwrite: line %zu: %s\n", i + 1, c.msg);
		else
			fprintf(stderr, "jwrite: end of script: %s\n", c.msg);
	}
	free(buf);
	free(av);
	return rc;
}

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("jwrite: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(code);
}

int main(int argc, char **argv)
{
	const char *ext = NULL, *dump = NULL, *image = NULL;
	struct env env = { 0 };
	struct script sc;
	struct jw_sink sink;
	struct jw w;
	uint64_t blklimit = 0;
	int opt, verbose = 0, create = 0, norecover = 0, rc;
	errcode_t e;

	while ((opt = getopt(argc, argv, "hvj:d:")) != -1) {
		switch (opt) {
		case 'v': verbose = 1; break;
		case 'j': ext = optarg; break;
		case 'd': dump = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind < argc)
		image = argv[optind++];
	if (optind < argc || (ext && dump)) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (dump && access(dump, F_OK))
		create = 1;
	if (!image && (!dump || create))
		die(2, "IMAGE is needed (except with -d and an existing dump)");
	if (read_script(stdin, &sc))
		die(1, "reading the script: %s", strerror(errno));

	add_error_table(&et_ext2_error_table);
	if (image) {
		e = ext2fs_open2(image, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS,
				 0, 0, unix_io_manager, &env.fs);
		if (e)
			die(1, "opening %s: %s", image, error_message(e));
		blklimit = ext2fs_blocks_count(env.fs->super);
	}
	if (ext)
		rc = jw_sink_open_external(&sink, ext);
	else if (dump && !create)
		rc = jw_sink_open_dump(&sink, dump, env.fs ? env.fs->blocksize : 0);
	else
		rc = jw_sink_open_internal(&sink, env.fs);
	if (rc)
		die(1, "%s", sink.err);

	/* Pass 1: validate the whole script, writing nothing. */
	if (jw_init(&w, &sink, blklimit, 1))
		die(1, "%s", w.err);
	if (run(&w, &env, &sc, &norecover)) {
		/* A refused script: release everything, write nothing. */
		jw_free(&w);
		jw_sink_close(&sink);
		if (env.fs) {
			env.fs->flags &= ~EXT2_FLAG_DIRTY;
			ext2fs_close_free(&env.fs);
		}
		while (sc.n)
			free(sc.line[--sc.n]);
		free(sc.line);
		return 2;
	}
	jw_free(&w);

	if (create) {		/* the dump starts as a copy of the journal */
		if (jw_sink_copy_to_dump(&sink, dump) || jw_sink_close(&sink) ||
		    jw_sink_open_dump(&sink, dump, env.fs->blocksize))
			die(1, "%s", sink.err);
	}

	/* Pass 2: write. */
	if (jw_init(&w, &sink, blklimit, 0))
		die(1, "%s", w.err);
	w.trace = verbose ? stderr : NULL;
	if (run(&w, &env, &sc, &norecover))
		return 1;
	jw_free(&w);
	if (jw_sink_close(&sink))
		die(1, "%s", sink.err);

	if (env.fs) {
		if (!norecover) {
			ext2fs_set_feature_journal_needs_recovery(env.fs->super);
			ext2fs_mark_super_dirty(env.fs);
			env.fs->flags |= EXT2_FLAG_SUPER_ONLY;
			/*
			 * The superblock's write time from the journal's own
			 * clock (commit times start at 1700000000), unless
			 * E2FSPROGS_FAKE_TIME says otherwise: the image then
			 * looks like a kernel's, its log written after the
			 * superblock (a replay of a dump of it checks that).
			 */
			if (!getenv("E2FSPROGS_FAKE_TIME"))
				env.fs->now = 1700000000;
		}
		e = ext2fs_close_free(&env.fs);
		if (e)
			die(1, "closing %s: %s", image, error_message(e));
	}
	while (sc.n)
		free(sc.line[--sc.n]);
	free(sc.line);
	return 0;
}
