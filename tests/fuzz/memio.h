/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memio.h -- an io_manager over one image held in memory, for the fuzz
 * targets: a filesystem is built in it once, and each input starts from a
 * pristine copy.  Writes are tracked per 1 KiB unit, so going back to the
 * pristine image costs only what the last input changed.
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

#endif /* MEMIO_H */
