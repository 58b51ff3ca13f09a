/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sha256_test.c -- lib/sha256.c against the FIPS 180-2 example vectors
 * ("abc", the 448-bit two-block message, a million 'a'), the empty
 * message, messages whose lengths sit on the padding boundaries (55, 63,
 * 64, 65 and 119 bytes: digests from Python's hashlib), and the same
 * messages fed in pieces of every size from 1 to 70 bytes.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sha256.h"

static void hex(const unsigned char d[SHA256_LENGTH], char out[65])
{
	int i;

	for (i = 0; i < SHA256_LENGTH; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* The digest of msg, in pieces of piece bytes (0: all at once). */
static void digest(const unsigned char *msg, size_t len, size_t piece,
		   char out[65])
{
	unsigned char d[SHA256_LENGTH];
	struct sha256 s;
	size_t off = 0;

	sha256_init(&s);
	if (!piece)
		piece = len ? len : 1;
	while (off < len) {
		size_t n = len - off < piece ? len - off : piece;

		sha256_update(&s, msg + off, n);
		off += n;
	}
	sha256_final(&s, d);
	hex(d, out);
}

static void check(const unsigned char *msg, size_t len, const char *want)
{
	char got[65];
	size_t piece;

	digest(msg, len, 0, got);
	assert_string_equal(got, want);
	for (piece = 1; piece <= 70; piece++) {
		digest(msg, len, piece, got);
		assert_string_equal(got, want);
	}
}

static void test_fips_vectors(void **state)
{
	static const char two_blocks[] =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	unsigned char *million;

	(void)state;
	check((const unsigned char *)"abc", 3,
	      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check((const unsigned char *)two_blocks, strlen(two_blocks),
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check((const unsigned char *)"", 0,
	      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	million = malloc(1000000);
	assert_non_null(million);
	memset(million, 'a', 1000000);
	check(million, 1000000,
	      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(million);
}

static void test_padding_boundaries(void **state)
{
	static const struct { size_t len; const char *sum; } v[] = {
		{ 55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b" },
		{ 63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055" },
		{ 64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241" },
		{ 65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e" },
		{ 119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e" },
	};
	unsigned char msg[119];
	size_t i;

	(void)state;
	/* byte i is (7 i + 3) mod 256, as the Python that gave the sums */
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)((i * 7 + 3) & 0xff);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		check(msg, v[i].len, v[i].sum);
}

/* sha256_final() leaves the state ready for a new message. */
static void test_reuse(void **state)
{
	unsigned char d[SHA256_LENGTH];
	struct sha256 s;
	char got[65];

	(void)state;
	sha256_init(&s);
	sha256_update(&s, "something else", 14);
	sha256_final(&s, d);
	sha256_update(&s, "abc", 3);
	sha256_final(&s, d);
	hex(d, got);
	assert_string_equal(got,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_vectors),
		cmocka_unit_test(test_padding_boundaries),
		cmocka_unit_test(test_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
