/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * features_test.c -- recover_feature_name() (lib/features.c): the bits it
 * names, the names e2fsprogs's libe2p gives the same bits (dumpe2fs's
 * words), and NULL for everything else.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <e2p/e2p.h>

#include "librecover.h"
#include "jbd2_fs.h"

static void test_known_bits(void **state)
{
	(void)state;
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_COMPAT,
						 JBD2_FEATURE_COMPAT_CHECKSUM),
			    "journal_checksum");
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_INCOMPAT,
						 JBD2_FEATURE_INCOMPAT_REVOKE),
			    "journal_incompat_revoke");
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0x2),
			    "journal_64bit");
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0x4),
			    "journal_async_commit");
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0x8),
			    "journal_checksum_v2");
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0x10),
			    "journal_checksum_v3");
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_INCOMPAT,
						 JBD2_FEATURE_INCOMPAT_FAST_COMMIT),
			    "journal_fast_commit");
}

/*
 * Every bit of every word: a name exactly where the library knows the
 * bit (every incompat bit it accepts, JBD2_KNOWN_INCOMPAT), and where
 * libe2p has a name of its own (not its "FEATURE_I5" fallback), the same.
 */
static void test_all_bits_against_e2p(void **state)
{
	static const enum recover_feature_type types[] = {
		RECOVER_FEATURE_COMPAT, RECOVER_FEATURE_INCOMPAT,
		RECOVER_FEATURE_RO_COMPAT,
	};
	static const int e2p_types[] = {
		E2P_FEATURE_COMPAT, E2P_FEATURE_INCOMPAT, E2P_FEATURE_RO_INCOMPAT,
	};
	unsigned int known[3] = { JBD2_FEATURE_COMPAT_CHECKSUM,
				  JBD2_KNOWN_INCOMPAT, JBD2_KNOWN_ROCOMPAT };
	int t, b, named = 0, compared = 0;

	(void)state;
	for (t = 0; t < 3; t++) {
		for (b = 0; b < 32; b++) {
			unsigned int mask = 1U << b;
			const char *ours = recover_feature_name(types[t], mask);
			const char *e2p = e2p_jrnl_feature2string(e2p_types[t],
								  mask);

			if (known[t] & mask)
				assert_non_null(ours);
			else
				assert_null(ours);
			if (!ours)
				continue;
			named++;
			if (strncmp(e2p, "FEATURE_", 8)) {
				assert_string_equal(ours, e2p);
				compared++;
			}
		}
	}
	assert_int_equal(named, 7);
	/* All but journal_fast_commit, which e2fsprogs 1.47 does not name. */
	assert_true(compared >= 6);
}

static void test_not_one_bit(void **state)
{
	(void)state;
	assert_null(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0));
	assert_null(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0x3));
	assert_null(recover_feature_name(RECOVER_FEATURE_INCOMPAT, 0xFFFFFFFFU));
	assert_null(recover_feature_name(RECOVER_FEATURE_COMPAT, 0x2));
	assert_null(recover_feature_name((enum recover_feature_type)3, 0x1));
	assert_null(recover_feature_name((enum recover_feature_type)-1, 0x1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_bits),
		cmocka_unit_test(test_all_bits_against_e2p),
		cmocka_unit_test(test_not_one_bit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
