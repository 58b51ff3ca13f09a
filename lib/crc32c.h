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
 *
 * The function lives in crc32c.c, one object, so that the static archive
 * can hold libext2fs's instead (Makefile.am, "the static archive"): a
 * distribution may ship ISA-L as a shared library only, and a program
 * linking librecover.a statically then needs nothing that has no archive.
 */
#ifndef LIBRECOVER_CRC32C_H
#define LIBRECOVER_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);

#endif /* LIBRECOVER_CRC32C_H */
