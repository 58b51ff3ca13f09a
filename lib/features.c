/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * features.c -- the names of the journal superblock's feature bits, so
 * that every program prints the same words for them (recover_feature_name()).
 *
 * The names are e2fsprogs's (dumpe2fs's "Journal features:"), with one
 * addition: e2fsprogs 1.47 has no name for the fast-commit bit and prints
 * it as FEATURE_I5; here it is journal_fast_commit, after the ext4 feature.
 */
#include "config.h"

#include <stddef.h>

#include "librecoverP.h"

struct feature_name {
	enum recover_feature_type type;
	unsigned int	mask;
	const char	*name;
};

static const struct feature_name names[] = {
	{ RECOVER_FEATURE_COMPAT, JBD2_FEATURE_COMPAT_CHECKSUM,
	  "journal_checksum" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_REVOKE,
	  "journal_incompat_revoke" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_64BIT,
	  "journal_64bit" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT,
	  "journal_async_commit" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_CSUM_V2,
	  "journal_checksum_v2" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_CSUM_V3,
	  "journal_checksum_v3" },
	{ RECOVER_FEATURE_INCOMPAT, JBD2_FEATURE_INCOMPAT_FAST_COMMIT,
	  "journal_fast_commit" },
};

const char *recover_feature_name(enum recover_feature_type type,
				 unsigned int mask)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type && names[i].mask == mask)
			return names[i].name;
	return NULL;
}
