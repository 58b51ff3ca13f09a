/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * abi_test.c -- the growable structs of librecover.h: a caller's size is
 * honoured both ways.  An older caller's struct (a smaller size) is read
 * and filled only as far as its size, whatever lies beyond; a newer
 * caller's fields the library lacks must be zero; an unset size is
 * refused.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "librecoverP.h"
#include "notify.h"

#define MISSING "/nonexistent/librecover-abi-test.img"

static void test_options_size_unset(void **state)
{
	struct recover_options o;
	recover_t r = (recover_t)1;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(recover_open(MISSING, &o, &r), RECOVER_ET_STRUCT_SIZE);
	assert_null(r);
}

/* A caller built against a newer header: its extra fields must be zero. */
static void test_options_newer_caller(void **state)
{
	struct {
		struct recover_options o;
		uint64_t	extra;
	} big;
	recover_t r;
	errcode_t err;

	(void)state;
	memset(&big, 0, sizeof(big));
	big.o.size = sizeof(big);
	big.extra = 1;
	assert_int_equal(recover_open(MISSING, &big.o, &r), RECOVER_ET_STRUCT_SIZE);
	big.extra = 0;
	err = recover_open(MISSING, &big.o, &r);
	assert_int_not_equal(err, RECOVER_ET_STRUCT_SIZE);
	assert_int_not_equal(err, 0);
}

/*
 * A caller built before recover_options had its last fields: what lies
 * past its size is not its own (here garbage pointers), and the library
 * must neither read nor write through it.
 */
static void test_options_older_caller(void **state)
{
	struct recover_options o;
	enum recover_about about = RECOVER_ABOUT_NONE;
	recover_t r;
	errcode_t err;

	(void)state;
	memset(&o, 0xa5, sizeof(o));
	o.size = offsetof(struct recover_options, error_about);
	o.flags = RECOVER_FL_DRY_RUN;
	o.journal_path = NULL;
	o.io_manager = NULL;
	o.progress = NULL;
	o.progress_data = NULL;
	err = recover_open(MISSING, &o, &r);
	assert_int_not_equal(err, 0);
	assert_int_not_equal(err, RECOVER_ET_STRUCT_SIZE);
	/* With error_about inside its size, it is used. */
	o.size = offsetof(struct recover_options, mmp);
	o.error_about = &about;
	err = recover_open(MISSING, &o, &r);
	assert_int_not_equal(err, 0);
	assert_int_equal(about, RECOVER_ABOUT_FS);
}

struct lib_struct {
	size_t		size;
	uint32_t	a, b, c;
};

/* Out of the library: as many bytes as both know, the caller's size kept. */
static void test_copy_out(void **state)
{
	struct lib_struct src = { sizeof(src), 1, 2, 3 };
	unsigned char buf[sizeof(struct lib_struct) + 16];
	struct lib_struct *dst = (struct lib_struct *)buf;
	size_t size;

	(void)state;
	/* An older caller: only a and b. */
	memset(buf, 0xee, sizeof(buf));
	size = offsetof(struct lib_struct, c);
	memcpy(buf, &size, sizeof(size));
	notify_copy_out(buf, &src, sizeof(src));
	assert_int_equal(dst->size, offsetof(struct lib_struct, c));
	assert_int_equal(dst->a, 1);
	assert_int_equal(dst->b, 2);
	assert_int_equal(buf[offsetof(struct lib_struct, c)], 0xee);
	/* A newer caller: what the library lacks comes back zero. */
	memset(buf, 0xee, sizeof(buf));
	size = sizeof(buf);
	memcpy(buf, &size, sizeof(size));
	notify_copy_out(buf, &src, sizeof(src));
	assert_int_equal(dst->size, sizeof(buf));
	assert_int_equal(dst->c, 3);
	assert_int_equal(buf[sizeof(src)], 0);
	assert_int_equal(buf[sizeof(buf) - 1], 0);
	/* No size: nothing is written. */
	memset(buf, 0xee, sizeof(buf));
	size = 0;
	memcpy(buf, &size, sizeof(size));
	notify_copy_out(buf, &src, sizeof(src));
	assert_int_equal(buf[sizeof(size)], 0xee);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_size_unset),
		cmocka_unit_test(test_options_newer_caller),
		cmocka_unit_test(test_options_older_caller),
		cmocka_unit_test(test_copy_out),
	};

	initialize_rcvr_error_table();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
