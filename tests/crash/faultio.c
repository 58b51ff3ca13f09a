/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * faultio.c -- the fault-injecting io_manager (see faultio.h).
 *
 * Each channel wraps a unix_io channel.  Reads pass straight through (and
 * may be counted, fault_watch_reads());
 * writes, flushes (and discard/zeroout, which change data too) are events,
 * numbered from 1 across every channel the manager opened.  Events up to k
 * are carried out; what happens from event k + 1 on depends on the mode.
 *
 * FAULT_POWER holds writes back until a flush, as a disk's volatile write
 * cache does, so that a write can be lost while a later one lands: reads
 * see the held writes, a flush sends them down in order, and the power
 * cut lets only the newest of them through.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faultio.h"
#include "../lib/testio.h"

/* A write held back (FAULT_POWER), as it was asked for. */
struct held {
	io_channel	io;		/* the wrapping channel */
	unsigned long long off;		/* bytes */
	size_t		len;
	unsigned long long block;
	int		count;
	int		block_size;
	int		byte;
	unsigned long	event;
	unsigned char	*data;
};

static struct {
	struct held	*w;
	size_t		n, cap;
} held;

static struct {
	enum fault_mode	mode;
	unsigned long	k;
	unsigned long	events, writes, flushes;
	int		hit;
	void		(*trace)(unsigned long, const struct fault_event *);
} fault;

#define WATCH_MAX	16

/* Byte ranges whose reads are counted (fault_watch_reads()). */
static struct {
	struct {
		unsigned long long off, len;
		unsigned char	*seen;	/* reads per unit, up to 255 */
	} r[WATCH_MAX];
	unsigned int	n, unit;
	unsigned long long requests, bytes;
} watch;

int fault_watch_reads(unsigned long long off, unsigned long long len,
		      unsigned int unit)
{
	if (!unit || !len || len % unit || off % unit || watch.n == WATCH_MAX ||
	    (watch.unit && watch.unit != unit))
		return EINVAL;
	watch.r[watch.n].seen = calloc(len / unit, 1);
	if (!watch.r[watch.n].seen)
		return ENOMEM;
	watch.r[watch.n].off = off;
	watch.r[watch.n].len = len;
	watch.n++;
	watch.unit = unit;
	return 0;
}

void fault_read_stats(struct fault_reads *st)
{
	unsigned long long i;
	unsigned int k;

	memset(st, 0, sizeof(*st));
	st->requests = watch.requests;
	st->bytes = watch.bytes;
	for (k = 0; k < watch.n; k++)
		for (i = 0; i < watch.r[k].len / watch.unit; i++) {
			st->units += watch.r[k].seen[i] > 0;
			st->reread += watch.r[k].seen[i] > 1;
		}
}

static void watch_read(unsigned long long off, unsigned long long len)
{
	unsigned long long lo, hi, u;
	unsigned int k;
	int counted = 0;

	for (k = 0; k < watch.n; k++) {
		unsigned long long wo = watch.r[k].off, we = wo + watch.r[k].len;

		if (off >= we || off + len <= wo)
			continue;
		lo = off > wo ? off : wo;
		hi = off + len < we ? off + len : we;
		watch.requests += !counted;
		counted = 1;
		watch.bytes += hi - lo;
		for (u = (lo - wo) / watch.unit;
		     u < (hi - wo + watch.unit - 1) / watch.unit; u++)
			if (watch.r[k].seen[u] < 255)
				watch.r[k].seen[u]++;
	}
}

void fault_set(enum fault_mode mode, unsigned long k)
{
	fault.mode = mode;
	fault.k = k;
}

unsigned long fault_events(void)
{
	return fault.events;
}

unsigned long fault_writes(void)
{
	return fault.writes;
}

unsigned long fault_flushes(void)
{
	return fault.flushes;
}

int fault_hit(void)
{
	return fault.hit;
}

void fault_set_trace(void (*fn)(unsigned long, const struct fault_event *))
{
	fault.trace = fn;
}

#define INNER(io)	((io_channel)(io)->private_data)

static errcode_t hold(io_channel io, unsigned long long block, int count,
		      int byte, const void *data)
{
	struct held *h;
	size_t len = count < 0 ? (size_t)-(long long)count
			       : (size_t)count * (size_t)io->block_size;

	if (held.n == held.cap) {
		size_t cap = held.cap ? 2 * held.cap : 64;
		struct held *w = realloc(held.w, cap * sizeof(*w));

		if (!w)
			return EXT2_ET_NO_MEMORY;
		held.w = w;
		held.cap = cap;
	}
	h = &held.w[held.n];
	h->data = malloc(len ? len : 1);
	if (!h->data)
		return EXT2_ET_NO_MEMORY;
	memcpy(h->data, data, len);
	h->io = io;
	h->off = byte ? block : block * (unsigned long long)io->block_size;
	h->len = len;
	h->block = block;
	h->count = count;
	h->block_size = io->block_size;
	h->byte = byte;
	h->event = fault.events;
	held.n++;
	return 0;
}

/* Send one held write down, in the block size it was asked in. */
static errcode_t release(struct held *h)
{
	io_channel in = INNER(h->io);
	int bs = in->block_size;
	errcode_t err;

	if (h->byte)
		return io_channel_write_byte(in, (unsigned long)h->block,
					     (int)h->len, h->data);
	if (bs != h->block_size) {
		err = io_channel_set_blksize(in, h->block_size);
		if (err)
			return err;
	}
	err = io_channel_write_blk64(in, h->block, h->count, h->data);
	if (bs != h->block_size)
		io_channel_set_blksize(in, bs);
	return err;
}

/* Send down the writes held for io, oldest first. */
static errcode_t release_all(io_channel io)
{
	size_t i, keep = 0;
	errcode_t err = 0;

	for (i = 0; i < held.n; i++) {
		struct held *h = &held.w[i];

		if (h->io != io) {
			held.w[keep++] = *h;
			continue;
		}
		if (!err)
			err = release(h);
		free(h->data);
	}
	held.n = keep;
	return err;
}

/* A read sees the writes still held. */
static void overlay(io_channel io, unsigned long long block, int count,
		    void *data)
{
	unsigned long long off = block * (unsigned long long)io->block_size;
	unsigned long long len = count < 0 ? (unsigned long long)-(long long)count
		: (unsigned long long)count * (unsigned)io->block_size;
	size_t i;

	for (i = 0; i < held.n; i++) {
		const struct held *h = &held.w[i];
		unsigned long long a, b;

		if (strcmp(h->io->name, io->name))
			continue;
		a = h->off > off ? h->off : off;
		b = h->off + h->len < off + len ? h->off + h->len : off + len;
		if (a < b)
			memcpy((unsigned char *)data + (a - off),
			       h->data + (a - h->off), (size_t)(b - a));
	}
}

/* The power cut: of the held writes only the newest, if it is event k. */
static void power_cut(void)
{
	if (held.n && held.w[held.n - 1].event == fault.k) {
		struct held *h = &held.w[held.n - 1];

		release(h);
		io_channel_flush(INNER(h->io));
	}
	fflush(stdout);
	fflush(stderr);
	_exit(FAULT_EXIT_STATUS);
}

/* Number an event; 0: carry it out, else fail it with that code. */
static errcode_t event(io_channel io, enum fault_kind kind,
		       unsigned long long block, long long count, int byte)
{
	struct fault_event e = {
		.kind = kind, .block = block, .count = count,
		.block_size = io->block_size, .byte = byte, .channel = io->name,
	};
	unsigned long n = ++fault.events;

	if (kind == FAULT_WRITE)
		fault.writes++;
	else
		fault.flushes++;
	if (fault.trace)
		fault.trace(n, &e);
	if (fault.mode == FAULT_NONE || n <= fault.k)
		return 0;
	fault.hit = 1;
	switch (fault.mode) {
	case FAULT_EIO:
		return n == fault.k + 1 ? EIO : 0;
	case FAULT_DROP:
		return EIO;
	case FAULT_EXIT:
		fflush(stdout);
		fflush(stderr);
		_exit(FAULT_EXIT_STATUS);
	case FAULT_POWER:
		power_cut();
		break;
	case FAULT_NONE:
		break;
	}
	return 0;
}

static errcode_t f_open(const char *name, int flags, io_channel *channel)
{
	io_channel inner = NULL;
	errcode_t err;

	err = unix_io_manager->open(name, flags, &inner);
	if (err)
		return err;
	err = testio_channel_new(fault_io_manager, name, inner->block_size,
				 inner, channel);
	if (err) {
		io_channel_close(inner);
		return err;
	}
	(*channel)->flags = inner->flags;
	(*channel)->align = inner->align;
	return 0;
}

static errcode_t f_close(io_channel io)
{
	errcode_t err;

	if (--io->refcount > 0)
		return 0;
	/* No power cut came: what is still held reaches the file. */
	if (held.n)
		release_all(io);
	err = io_channel_close(INNER(io));
	testio_channel_free(io);
	return err;
}

static errcode_t f_set_blksize(io_channel io, int blksize)
{
	errcode_t err = io_channel_set_blksize(INNER(io), blksize);

	if (!err)
		io->block_size = blksize;
	return err;
}

static errcode_t f_read_blk64(io_channel io, unsigned long long block,
			      int count, void *data)
{
	errcode_t err = io_channel_read_blk64(INNER(io), block, count, data);

	watch_read(block * io->block_size, count < 0 ? (unsigned long long)-count :
		   (unsigned long long)count * io->block_size);
	if (!err && held.n)
		overlay(io, block, count, data);
	return err;
}

static errcode_t f_read_blk(io_channel io, unsigned long block, int count,
			    void *data)
{
	return f_read_blk64(io, block, count, data);
}

static errcode_t f_write_blk64(io_channel io, unsigned long long block,
			       int count, const void *data)
{
	errcode_t err = event(io, FAULT_WRITE, block, count, 0);

	if (err)
		return err;
	if (fault.mode == FAULT_POWER)
		return hold(io, block, count, 0, data);
	return io_channel_write_blk64(INNER(io), block, count, data);
}

static errcode_t f_write_blk(io_channel io, unsigned long block, int count,
			     const void *data)
{
	return f_write_blk64(io, block, count, data);
}

static errcode_t f_write_byte(io_channel io, unsigned long offset, int count,
			      const void *data)
{
	errcode_t err = event(io, FAULT_WRITE, offset, -(long long)count, 1);

	if (err)
		return err;
	if (fault.mode == FAULT_POWER)
		return hold(io, offset, -count, 1, data);
	return io_channel_write_byte(INNER(io), offset, count, data);
}

/* A flush makes the writes held for its channel durable (each channel is
 * a device with its own cache). */
static errcode_t f_flush(io_channel io)
{
	errcode_t err = event(io, FAULT_FLUSH, 0, 0, 0);

	if (!err && held.n)
		err = release_all(io);
	return err ? err : io_channel_flush(INNER(io));
}

static errcode_t f_set_option(io_channel io, const char *option,
			      const char *arg)
{
	io_channel in = INNER(io);

	if (!in->manager->set_option)
		return EXT2_ET_INVALID_ARGUMENT;
	return in->manager->set_option(in, option, arg);
}

static errcode_t f_get_stats(io_channel io, io_stats *stats)
{
	io_channel in = INNER(io);

	if (!in->manager->get_stats)
		return EXT2_ET_OP_NOT_SUPPORTED;
	return in->manager->get_stats(in, stats);
}

static errcode_t f_discard(io_channel io, unsigned long long block,
			   unsigned long long count)
{
	errcode_t err = event(io, FAULT_WRITE, block, (long long)count, 0);

	return err ? err : io_channel_discard(INNER(io), block, count);
}

static errcode_t f_cache_readahead(io_channel io, unsigned long long block,
				   unsigned long long count)
{
	return io_channel_cache_readahead(INNER(io), block, count);
}

static errcode_t f_zeroout(io_channel io, unsigned long long block,
			   unsigned long long count)
{
	errcode_t err = event(io, FAULT_WRITE, block, (long long)count, 0);

	return err ? err : io_channel_zeroout(INNER(io), block, count);
}

static struct struct_io_manager fault_struct = {
	.magic		= EXT2_ET_MAGIC_IO_MANAGER,
	.name		= "librecover fault-injecting I/O manager",
	.open		= f_open,
	.close		= f_close,
	.set_blksize	= f_set_blksize,
	.read_blk	= f_read_blk,
	.write_blk	= f_write_blk,
	.flush		= f_flush,
	.write_byte	= f_write_byte,
	.set_option	= f_set_option,
	.get_stats	= f_get_stats,
	.read_blk64	= f_read_blk64,
	.write_blk64	= f_write_blk64,
	.discard	= f_discard,
	.cache_readahead = f_cache_readahead,
	.zeroout	= f_zeroout,
};

io_manager fault_io_manager = &fault_struct;
