/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * errname_test.c -- recover_error_name() (lib/errname.c) against the error
 * tables themselves: every code of lib/recover_err.et, read here from the
 * source, has its own name in table order; libext2fs codes and errno
 * values have theirs; anything else has none.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <ext2fs/ext2_err.h>

#include "librecover.h"

/* The names of the "ec" lines of recover_err.et, in order. */
static int et_names(char names[][64], int max)
{
	const char *top = getenv("top_srcdir");
	char path[4096], line[256], name[64];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/lib/recover_err.et", top ? top : "..");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ec %63[A-Z0-9_]", name) == 1 && n < max)
			strcpy(names[n++], name);
	fclose(f);
	return n;
}

static void test_table_order(void **state)
{
	static char names[256][64];
	int i, n = et_names(names, 256);

	(void)state;
	assert_true(n > 30);
	for (i = 0; i < n; i++)
		assert_string_equal(recover_error_name(RECOVER_ET_MAGIC_BAD + i),
				    names[i]);
	/* One past the end of the table is no code of ours. */
	assert_null(recover_error_name(RECOVER_ET_MAGIC_BAD + n));
}

static void test_named_codes(void **state)
{
	(void)state;
	assert_string_equal(recover_error_name(RECOVER_ET_BUSY), "RECOVER_ET_BUSY");
	assert_string_equal(recover_error_name(RECOVER_ET_JDEV_UUID),
			    "RECOVER_ET_JDEV_UUID");
	assert_string_equal(recover_error_name(EXT2_ET_SHORT_READ),
			    "EXT2_ET_SHORT_READ");
	assert_string_equal(recover_error_name(EXT2_ET_BAD_MAGIC),
			    "EXT2_ET_BAD_MAGIC");
#ifdef HAVE_STRERRORNAME_NP
	assert_string_equal(recover_error_name(ENOENT), "ENOENT");
	assert_string_equal(recover_error_name(EACCES), "EACCES");
#endif
	assert_null(recover_error_name(0));
	assert_null(recover_error_name(-1));
	assert_null(recover_error_name(123456789));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_order),
		cmocka_unit_test(test_named_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
