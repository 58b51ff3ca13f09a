/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * crc32c.h -- the one crc32c the library computes with.
 *
 * jbd2 checksums (and the ext4 superblock's) are crc32c without the final
 * inversion, which is what libext2fs's ext2fs_crc32c_le returns.  Intel
 * ISA-L's crc32_iscsi computes the very same function, with the CPU's
 * crc32 instruction where there is one; configure picks it when it finds
 * ISA-L (CRC32C_IMPL in config.h names the choice).  The unit tests check
 * both against published vectors and against each other.
 */
#ifndef LIBRECOVER_CRC32C_H
#define LIBRECOVER_CRC32C_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#else
#include <ext2fs/ext2fs.h>
#endif

static inline uint32_t recover_crc32c(uint32_t crc, const void *buf, size_t len)
{
#ifdef HAVE_ISAL
	const unsigned char *p = buf;

	/* crc32_iscsi takes an int length. */
	while (len > (size_t)INT_MAX) {
		crc = crc32_iscsi((unsigned char *)p, INT_MAX, crc);
		p += INT_MAX;
		len -= INT_MAX;
	}
	return crc32_iscsi((unsigned char *)p, (int)len, crc);
#else
	return ext2fs_crc32c_le(crc, buf, len);
#endif
}

#endif /* LIBRECOVER_CRC32C_H */
