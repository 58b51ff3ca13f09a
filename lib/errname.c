/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * errname.c -- the symbolic names of error codes, for programs that act on
 * an error rather than show its message.  The tables are generated at
 * build time: librecover's from lib/recover_err.et, libext2fs's from the
 * installed <ext2fs/ext2_err.h> (Makefile.am), so neither can fall behind.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include <ext2fs/ext2_err.h>

#include "librecoverP.h"

struct err_name {
	errcode_t	code;
	const char	*name;
};

static const struct err_name names[] = {
#include "recover_err_names.h"
#include "ext2_err_names.h"
};

const char *recover_error_name(errcode_t code)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == code)
			return names[i].name;
#ifdef HAVE_STRERRORNAME_NP
	if (code > 0 && code < 4096)
		return strerrorname_np((int)code);
#endif
	return NULL;
}
