/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memio.h -- an io_manager over one image held in memory, for the fuzz
 * targets and the unit tests: a filesystem is built in it once, and each
 * input starts from a pristine copy.  Writes are tracked per 1 KiB unit,
 * so going back to the pristine image costs only what the last input
 * changed.
 */
#ifndef MEMIO_H
#define MEMIO_H

#include <stddef.h>
#include <stdint.h>

#include <ext2fs/ext2fs.h>

#define MEMIO_UNIT	1024U

extern io_manager memio_manager;

/* A zeroed image of size bytes (a multiple of MEMIO_UNIT). Returns 0 or -1. */
int memio_create(size_t size);
/* The image bytes; direct edits must be declared with memio_touch(). */
unsigned char *memio_data(void);
size_t memio_size(void);
void memio_touch(size_t off, size_t len);
/* Take the current image as the pristine one. */
void memio_snapshot(void);
/* Undo every change since the snapshot (or the last reset). */
void memio_reset(void);
/* The pristine image. */
const unsigned char *memio_pristine(void);
/* Whether the unit holding byte off changed since the last reset. */
int memio_dirty(size_t off);
/* Reads that touch the unit holding byte off fail with EIO, as a bad
 * sector would; (size_t)-1: none. */
void memio_fail_reads(size_t off);
/* Calls to write_blk/write_blk64/write_byte and flush since the last reset. */
unsigned long memio_writes(void);
unsigned long memio_flushes(void);

/*
 * Format the whole image as mke2fs would: 1 KiB blocks, 256-byte inodes,
 * extents, 64bit, flex_bg and metadata_csum, plus the compat features in
 * compat; a reproducible UUID (byte i is uuid0 + uuid_step * i) and
 * creation time; the reserved inodes, a root directory and the journal jp.
 * The filesystem is left open in *fsp for the caller to add to.  Returns 0
 * or the libext2fs error (the filesystem freed).
 */
errcode_t memio_mkfs(unsigned int inodes, __u32 compat,
		     struct ext2fs_journal_params *jp,
		     unsigned char uuid0, unsigned char uuid_step,
		     ext2_filsys *fsp);
/*
 * Record where the first n blocks of fs's journal are in the image, for
 * memio_jblock(); fails (EXT2_ET_BAD_BLOCK_NUM) when one is unmapped or
 * past the image.
 */
errcode_t memio_map_journal(ext2_filsys fs, unsigned int n);
/* Journal block j (j < n): its bytes, its byte offset in the image, and
 * the declaration of a direct edit of it. */
unsigned char *memio_jblock(unsigned int j);
size_t memio_jblock_off(unsigned int j);
void memio_touch_jblock(unsigned int j);
/* The end of a build(): with err 0, close fs (written to the image) and
 * return what closing returns; otherwise free it and return err. */
errcode_t memio_close_fs(ext2_filsys fs, errcode_t err);
/*
 * A fuzz target's image: size bytes, made a filesystem by build() (with
 * memio_mkfs and memio_map_journal), and taken as the pristine image.  A
 * replayer (built without libFuzzer) also loads com_err's messages for the
 * error codes of librecover and libext2fs, and sets *verbose when
 * FUZZ_VERBOSE asks it to say what each input did.  Returns 0 or -1.
 */
int memio_setup(size_t size, errcode_t (*build)(void), int *verbose);

#endif /* MEMIO_H */
