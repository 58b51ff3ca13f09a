/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * features_test.c -- recover_feature_name() (lib/feature.c): the bits it
 * names, the names e2fsprogs's libe2p gives the same bits (dumpe2fs's
 * words), and NULL for everything else; feature_judge(): which unknown
 * filesystem features an open goes past, against a libext2fs's supported
 * masks (Debian's, without dirdata; Lustre's, with it; an older one's
 * without large_dir and ea_inode; and the one this was built with, whose
 * answer the test prints: contrib/e2fsprogs/dirdata-libext2fs.sh builds
 * against a libext2fs that knows dirdata and looks for that line).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <e2p/e2p.h>

#include "librecoverP.h"
#include "ext4_fs.h"
#include "feature.h"
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
	assert_null(recover_feature_name(RECOVER_FEATURE_FS_INCOMPAT, 0x1001));
	assert_null(recover_feature_name((enum recover_feature_type)-1, 0x1));
}

/* The ext4 superblock's names are libe2p's, bit for bit where it has one. */
static void test_fs_bits_against_e2p(void **state)
{
	static const enum recover_feature_type types[] = {
		RECOVER_FEATURE_FS_INCOMPAT, RECOVER_FEATURE_FS_RO_COMPAT,
	};
	static const int e2p_types[] = {
		E2P_FEATURE_INCOMPAT, E2P_FEATURE_RO_INCOMPAT,
	};
	int t, b, named = 0;

	(void)state;
	assert_string_equal(recover_feature_name(RECOVER_FEATURE_FS_INCOMPAT,
						 EXT4_FEATURE_INCOMPAT_DIRDATA),
			    "dirdata");
	for (t = 0; t < 2; t++) {
		for (b = 0; b < 32; b++) {
			const char *ours = recover_feature_name(types[t], 1U << b);
			const char *e2p = e2p_feature2string(e2p_types[t], 1U << b);

			if (!ours) {
				/* libe2p names no bit the library leaves out,
				 * but for its test-only ones. */
				continue;
			}
			named++;
			assert_string_equal(ours, e2p);
		}
	}
	assert_true(named >= 30);
}

#define SUPP_IN		EXT2_LIB_FEATURE_INCOMPAT_SUPP
#define SUPP_RO		EXT2_LIB_FEATURE_RO_COMPAT_SUPP

static void test_judge(void **state)
{
	struct recover_fs_features f;
	/* Debian's libext2fs (1.47), whatever the header here says. */
	uint32_t deb_in = SUPP_IN & ~EXT4_FEATURE_INCOMPAT_DIRDATA;
	/* A libext2fs before large_dir and ea_inode (e2fsprogs 1.43). */
	uint32_t old_in = deb_in & ~(EXT4_FEATURE_INCOMPAT_LARGEDIR |
				     EXT4_FEATURE_INCOMPAT_EA_INODE);
	uint32_t mdt = EXT2_FEATURE_INCOMPAT_FILETYPE |
		EXT3_FEATURE_INCOMPAT_EXTENTS | EXT4_FEATURE_INCOMPAT_64BIT |
		EXT4_FEATURE_INCOMPAT_FLEX_BG | EXT4_FEATURE_INCOMPAT_LARGEDIR |
		EXT4_FEATURE_INCOMPAT_EA_INODE;

	(void)state;
	/* Everything known: nothing to say. */
	assert_int_equal(feature_judge(&f, mdt, 0, SUPP_IN, SUPP_RO, 1), 0);
	assert_int_equal(f.size, sizeof(f));
	assert_int_equal(f.incompat | f.ro_compat | f.tolerated, 0);
	/* dirdata, unknown to Debian's: gone past. */
	assert_int_equal(feature_judge(&f, mdt | EXT4_FEATURE_INCOMPAT_DIRDATA,
				       0, deb_in, SUPP_RO, 1), 0);
	assert_int_equal(f.incompat, EXT4_FEATURE_INCOMPAT_DIRDATA);
	assert_int_equal(f.tolerated, EXT4_FEATURE_INCOMPAT_DIRDATA);
	/* A libext2fs that knows dirdata (Lustre's): nothing special. */
	assert_int_equal(feature_judge(&f, mdt | EXT4_FEATURE_INCOMPAT_DIRDATA,
				       0, SUPP_IN | EXT4_FEATURE_INCOMPAT_DIRDATA,
				       SUPP_RO, 1), 0);
	assert_int_equal(f.incompat | f.tolerated, 0);
	/* An older libext2fs: large_dir and ea_inode are gone past too. */
	assert_int_equal(feature_judge(&f, mdt, 0, old_in, SUPP_RO, 1), 0);
	assert_int_equal(f.tolerated, EXT4_FEATURE_INCOMPAT_LARGEDIR |
			 EXT4_FEATURE_INCOMPAT_EA_INODE);
	/* Any other unknown bit is refused, and told apart. */
	assert_int_equal(feature_judge(&f, mdt | EXT4_FEATURE_INCOMPAT_DIRDATA |
				       EXT2_FEATURE_INCOMPAT_COMPRESSION,
				       0, deb_in, SUPP_RO, 0),
			 EXT2_ET_UNSUPP_FEATURE);
	assert_int_equal(f.incompat, EXT4_FEATURE_INCOMPAT_DIRDATA |
			 EXT2_FEATURE_INCOMPAT_COMPRESSION);
	assert_int_equal(f.tolerated, EXT4_FEATURE_INCOMPAT_DIRDATA);
	/* ... and with Lustre's, compression alone is named. */
	assert_int_equal(feature_judge(&f, mdt | EXT4_FEATURE_INCOMPAT_DIRDATA |
				       EXT2_FEATURE_INCOMPAT_COMPRESSION, 0,
				       SUPP_IN | EXT4_FEATURE_INCOMPAT_DIRDATA,
				       SUPP_RO, 0),
			 EXT2_ET_UNSUPP_FEATURE);
	assert_int_equal(f.incompat, EXT2_FEATURE_INCOMPAT_COMPRESSION);
	assert_int_equal(f.tolerated, 0);
	assert_int_equal(feature_judge(&f, mdt | 0x80000000U, 0, SUPP_IN,
				       SUPP_RO, 0), EXT2_ET_UNSUPP_FEATURE);
	/* An unknown ro_compat bit forbids writing only. */
	assert_int_equal(feature_judge(&f, mdt, EXT4_FEATURE_RO_COMPAT_REPLICA,
				       SUPP_IN, SUPP_RO, 1),
			 EXT2_ET_RO_UNSUPP_FEATURE);
	assert_int_equal(f.ro_compat, EXT4_FEATURE_RO_COMPAT_REPLICA);
	assert_int_equal(feature_judge(&f, mdt, EXT4_FEATURE_RO_COMPAT_REPLICA,
				       SUPP_IN, SUPP_RO, 0), 0);
}

/*
 * The libext2fs this was built with (its header's mask, which is what
 * open_forced() judges by): with dirdata in it, nothing is said of an
 * MDT's dirdata; without, it is gone past.  The line printed says which.
 */
static void test_judge_this_libext2fs(void **state)
{
	struct recover_fs_features f;
	uint32_t mdt = EXT2_FEATURE_INCOMPAT_FILETYPE |
		EXT3_FEATURE_INCOMPAT_EXTENTS | EXT4_FEATURE_INCOMPAT_64BIT |
		EXT4_FEATURE_INCOMPAT_FLEX_BG | EXT4_FEATURE_INCOMPAT_DIRDATA;

	(void)state;
	assert_int_equal(feature_judge(&f, mdt, 0, SUPP_IN, SUPP_RO, 1), 0);
	if (SUPP_IN & EXT4_FEATURE_INCOMPAT_DIRDATA) {
		print_message("this libext2fs knows dirdata: "
			      "nothing special-cased\n");
		assert_int_equal(f.incompat | f.tolerated, 0);
	} else {
		print_message("this libext2fs does not know dirdata: "
			      "gone past\n");
		assert_int_equal(f.incompat, EXT4_FEATURE_INCOMPAT_DIRDATA);
		assert_int_equal(f.tolerated, EXT4_FEATURE_INCOMPAT_DIRDATA);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_bits),
		cmocka_unit_test(test_all_bits_against_e2p),
		cmocka_unit_test(test_not_one_bit),
		cmocka_unit_test(test_fs_bits_against_e2p),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_judge_this_libext2fs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
