/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sha256.h -- SHA-256 (FIPS 180-4), streaming, for the digest recover_save()
 * reports of what it wrote.  libext2fs has no SHA-256 it exports.
 */
#ifndef LIBRECOVER_SHA256_H
#define LIBRECOVER_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LENGTH	32

struct sha256 {
	uint32_t	h[8];
	uint64_t	bytes;		/* message length so far */
	unsigned char	block[64];	/* a partial block, block_len bytes */
	size_t		block_len;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Pads, writes the digest to out and leaves s to be initialised again. */
void sha256_final(struct sha256 *s, unsigned char out[SHA256_LENGTH]);

#endif /* LIBRECOVER_SHA256_H */
