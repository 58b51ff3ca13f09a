/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_common.h -- what every fuzz target shares: the libFuzzer entry
 * point, and the plain main() that replays saved inputs when the target is
 * built without libFuzzer (make check runs it over the seed corpus and the
 * regression inputs, so every crash found becomes a test).
 *
 * A target defines fuzz_one() (and may define fuzz_init() and fuzz_main());
 * including this file once gives it LLVMFuzzerTestOneInput and, without
 * FUZZING_ENGINE, main().
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fuzz_init(void);
static void fuzz_one(const uint8_t *data, size_t size);

/* A broken invariant: abort, so that libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (fuzz_init()) {
		fprintf(stderr, "fuzz target: initialisation failed\n");
		exit(2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size);
	return 0;
}

#ifndef FUZZING_ENGINE

#define FUZZ_MAX_INPUT	(16U << 20)

#ifdef FUZZ_DIGEST_IMAGE
/*
 * FUZZ_DIGEST set: after each input, print its name and a 64-bit FNV-1a
 * digest of the image as the input left it (memio.c), for comparing two
 * builds of the target (tests/cross/big-endian.sh: the same inputs must
 * leave the same bytes on every host); with FUZZ_IMAGE=FILE too, write
 * that image to FILE (the last input's stays).
 */
static void print_digest(const char *path)
{
	const unsigned char *p = memio_data();
	const char *base = strrchr(path, '/');
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, n = memio_size();

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	printf("%016llx %s\n", (unsigned long long)h, base ? base + 1 : path);
	path = getenv("FUZZ_IMAGE");
	if (path && *path) {	/* and the image itself, to look at */
		FILE *f = fopen(path, "wb");

		if (!f || fwrite(p, 1, n, f) != n || fclose(f))
			perror(path);
	}
}
#endif

/* One saved input, in a buffer of exactly its size (so that an overread is
 * an ASan report, as under libFuzzer). */
static int run_file(const char *path)
{
	unsigned char *buf;
	struct stat st;
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st) || st.st_size > FUZZ_MAX_INPUT) {
		fprintf(stderr, "%s: %s\n", path,
			f ? "cannot size it, or larger than 16 MiB"
			  : strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	if (n != (size_t)st.st_size) {
		fprintf(stderr, "%s: short read\n", path);
		free(buf);
		return -1;
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%s\n", path);
	fuzz_one(buf, n);
	free(buf);
#ifdef FUZZ_DIGEST_IMAGE
	if (getenv("FUZZ_DIGEST"))
		print_digest(path);
#endif
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a directory, in name order; returns files run. */
static int run_dir(const char *dir, unsigned long *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? 2 * cap : 64) *
					   sizeof(*p));

			if (!p) {
				rc = -1;
				break;
			}
			names = p;
		}
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!names[n]) {
			rc = -1;
			break;
		}
		sprintf(names[n], "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (!rc && !stat(names[i], &st) && S_ISREG(st.st_mode)) {
			if (run_file(names[i]))
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

#ifdef FUZZ_HAVE_MAIN_HOOK
/* Options of the target's own: returns -1 when argv[1] is not one. */
static int fuzz_main(int argc, char **argv);
#endif

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int i, rc = 0;

#ifdef FUZZ_HAVE_MAIN_HOOK
	if (argc > 1 && argv[1][0] == '-') {
		rc = fuzz_main(argc, argv);
		if (rc >= 0)
			return rc;
		rc = 0;
	}
#endif
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n"
			"Run each saved input (each file of each DIR) through "
			"the fuzz target once.\n", argv[0]);
		return 2;
	}
	if (fuzz_init()) {
		fprintf(stderr, "%s: initialisation failed\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count))
				rc = 1;
		} else if (run_file(argv[i])) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("%s: %lu input(s) run\n", argv[0], count);
	return rc;
}

#endif /* !FUZZING_ENGINE */

#endif /* FUZZ_COMMON_H */
