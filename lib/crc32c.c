/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * crc32c.c -- crc32c_update() (crc32c.h): ISA-L's crc32_iscsi when
 * configure found ISA-L, else libext2fs's ext2fs_crc32c_le.  Compiled a
 * second time with RECOVER_CRC32C_EXT2FS for the static archive, which
 * then needs no ISA-L (Makefile.am).
 */
#include "config.h"

#include <limits.h>

#include "crc32c.h"

#if defined(HAVE_ISAL) && !defined(RECOVER_CRC32C_EXT2FS)
#include <isa-l/crc.h>

uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	/* crc32_iscsi takes an int length. */
	while (len > (size_t)INT_MAX) {
		crc = crc32_iscsi((unsigned char *)p, INT_MAX, crc);
		p += INT_MAX;
		len -= INT_MAX;
	}
	return crc32_iscsi((unsigned char *)p, (int)len, crc);
}
#else
#include <ext2fs/ext2fs.h>

uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	return ext2fs_crc32c_le(crc, buf, len);
}
#endif
