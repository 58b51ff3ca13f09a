/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mkdata --- write reproducible block contents for debugfs's "jw -b".
 *
 * The tests log blocks whose contents must be the same on every run (so a
 * kept scratch directory can be replayed by hand) and, for the escape case,
 * blocks that begin with the jbd2 magic number.  There is no Python on a
 * fresh CI machine and /dev/urandom is not reproducible, so this small
 * generator does it: block i of seed s is a xorshift64* stream started from
 * (s, i), so any block can be regenerated alone.
 *
 * usage: mkdata [-m | -H TYPE:SEQ] [-f BYTE] [-s SEED] BLOCKSIZE COUNT > FILE
 *   -m          each block starts with the jbd2 magic 0xC03B3998
 *   -H TYPE:SEQ each block starts with a whole jbd2 block header (magic,
 *               block type, sequence), i.e. it looks like a journal block
 *   -f BYTE     fill with BYTE instead of pseudo-random bytes
 *   -s SEED     seed of the pseudo-random stream (default 1)
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JBD2_MAGIC 0xC03B3998u

static void usage(void)
{
	fputs("usage: mkdata [-m | -H TYPE:SEQ] [-f BYTE] [-s SEED] "
	      "BLOCKSIZE COUNT > FILE\n", stderr);
	exit(2);
}

static uint64_t parse_num(const char *s, uint64_t max)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > max)
		usage();
	return v;
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, count, i, type = 0, seq = 0;
	unsigned blocksize;
	int opt, magic = 0, header = 0, fill = -1;
	unsigned char *buf;

	while ((opt = getopt(argc, argv, "mH:f:s:")) != -1) {
		char *colon;

		switch (opt) {
		case 'm':
			magic = 1;
			break;
		case 'H':
			colon = strchr(optarg, ':');
			if (!colon)
				usage();
			*colon = '\0';
			type = parse_num(optarg, UINT32_MAX);
			seq = parse_num(colon + 1, UINT32_MAX);
			header = 1;
			break;
		case 'f':
			fill = (int)parse_num(optarg, 255);
			break;
		case 's':
			seed = parse_num(optarg, UINT64_MAX);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	blocksize = (unsigned)parse_num(argv[optind], 65536);
	count = parse_num(argv[optind + 1], UINT32_MAX);
	if (blocksize < 16 || blocksize % 8)
		usage();

	buf = malloc(blocksize);
	if (!buf) {
		fputs("mkdata: out of memory\n", stderr);
		return 1;
	}
	for (i = 0; i < count; i++) {
		unsigned j;

		if (fill >= 0) {
			memset(buf, fill, blocksize);
		} else {
			/* never zero: xorshift state must not be 0 */
			uint64_t x = (seed * 0x9E3779B97F4A7C15ULL) ^
				     (i + 1) * 0xD1B54A32D192ED03ULL;

			if (!x)
				x = 1;
			for (j = 0; j < blocksize; j += 8) {
				uint64_t r = next(&x);

				memcpy(buf + j, &r, 8);
			}
		}
		if (magic || header)
			put_be32(buf, JBD2_MAGIC);
		if (header) {
			put_be32(buf + 4, (uint32_t)type);
			put_be32(buf + 8, (uint32_t)seq);
		}
		if (fwrite(buf, blocksize, 1, stdout) != 1) {
			perror("mkdata: write");
			free(buf);
			return 1;
		}
	}
	free(buf);
	if (fflush(stdout) || ferror(stdout)) {
		perror("mkdata: write");
		return 1;
	}
	return 0;
}
