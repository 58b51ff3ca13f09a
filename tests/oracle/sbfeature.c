/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sbfeature --- set or clear feature bits in the primary ext4 superblock of
 * an image, in place, and nothing else: the tests need a filesystem with a
 * bit libext2fs does not know (dirdata) next to the same image without it,
 * and every libext2fs tool (debugfs, tune2fs) refuses to open the first.
 * The superblock checksum is recomputed when metadata_csum is on.
 *
 * And one question for the tests that behave differently when libext2fs
 * knows such a bit (Lustre's e2fsprogs builds know dirdata): does the
 * libext2fs this program was linked with, the one jrecover runs with, open
 * the image without EXT2_FLAG_FORCE?  It prints which shared object
 * answered.
 *
 * A backup superblock is reached with -o BYTES, its byte offset in the
 * image (e2fsck -b N -B SIZE reads it at N * SIZE): the tests of -b need a
 * backup marked as needing recovery, as the kernel's online resize leaves
 * them, which no libext2fs tool writes.
 *
 * usage: sbfeature [-o BYTES] IMAGE incompat|ro_compat +MASK|-MASK
 *        sbfeature [-o BYTES] IMAGE show (prints the three feature words, hex)
 *        sbfeature IMAGE opens       ("opens: libext2fs PATH" or
 *                                     "refused: libext2fs PATH: ERROR")
 * exit:  0 done (opens: libext2fs opened it), 1 error, 2 usage,
 *        3 (opens) libext2fs refused an unsupported feature.
 */
#define _GNU_SOURCE		/* dladdr() */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#define SB_OFF		1024
#define SB_SIZE		1024
#define OFF_COMPAT	0x5c
#define OFF_INCOMPAT	0x60
#define OFF_RO_COMPAT	0x64
#define OFF_CHECKSUM	0x3fc

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* ext2fs_open2() as jrecover first tries it: no EXT2_FLAG_FORCE. */
static int opens(const char *image)
{
	Dl_info dl;
	ext2_filsys fs;
	errcode_t err;
	const char *lib = "(linked statically)";

	if (dladdr((void *)ext2fs_open2, &dl) && dl.dli_fname)
		lib = dl.dli_fname;
	initialize_ext2_error_table();
	err = ext2fs_open2(image, NULL, EXT2_FLAG_64BITS, 0, 0,
			   unix_io_manager, &fs);
	if (!err) {
		ext2fs_close_free(&fs);
		printf("opens: libext2fs %s\n", lib);
		return 0;
	}
	printf("refused: libext2fs %s: %s\n", lib, error_message(err));
	return err == EXT2_ET_UNSUPP_FEATURE ||
		err == EXT2_ET_RO_UNSUPP_FEATURE ? 3 : 1;
}

int main(int argc, char **argv)
{
	unsigned char sb[SB_SIZE];
	unsigned long mask;
	char *end;
	int fd, off, show;
	off_t at = SB_OFF;
	uint32_t w;

	if (argc > 3 && !strcmp(argv[1], "-o")) {
		errno = 0;
		at = (off_t)strtoull(argv[2], &end, 0);
		if (errno || *end || argv[2][0] == '\0') {
			fprintf(stderr, "sbfeature: %s: not an offset\n",
				argv[2]);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc == 3 && !strcmp(argv[2], "opens"))
		return opens(argv[1]);
	show = argc == 3 && !strcmp(argv[2], "show");
	if (!show && (argc != 4 || (argv[3][0] != '+' && argv[3][0] != '-'))) {
		fprintf(stderr, "usage: sbfeature [-o BYTES] IMAGE "
			"incompat|ro_compat +MASK|-MASK\n"
			"       sbfeature [-o BYTES] IMAGE show\n"
			"       sbfeature IMAGE opens\n");
		return 2;
	}
	if (show)
		off = 0;
	else if (!strcmp(argv[2], "incompat"))
		off = OFF_INCOMPAT;
	else if (!strcmp(argv[2], "ro_compat"))
		off = OFF_RO_COMPAT;
	else {
		fprintf(stderr, "sbfeature: %s: not incompat or ro_compat\n",
			argv[2]);
		return 2;
	}
	fd = open(argv[1], show ? O_RDONLY : O_RDWR);
	if (fd < 0 || pread(fd, sb, SB_SIZE, at) != SB_SIZE) {
		fprintf(stderr, "sbfeature: %s: %s\n", argv[1],
			fd < 0 ? strerror(errno) : "cannot read the superblock");
		return 1;
	}
	if (show) {
		printf("compat 0x%x incompat 0x%x ro_compat 0x%x\n",
		       le32(sb + OFF_COMPAT), le32(sb + OFF_INCOMPAT),
		       le32(sb + OFF_RO_COMPAT));
		return 0;
	}
	errno = 0;
	mask = strtoul(argv[3] + 1, &end, 0);
	if (errno || *end || !mask || mask > 0xffffffffUL) {
		fprintf(stderr, "sbfeature: %s: not a mask\n", argv[3]);
		return 2;
	}
	w = le32(sb + off);
	w = argv[3][0] == '+' ? w | (uint32_t)mask : w & ~(uint32_t)mask;
	put_le32(sb + off, w);
	if (le32(sb + OFF_RO_COMPAT) & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM)
		put_le32(sb + OFF_CHECKSUM,
			 ext2fs_crc32c_le(~0U, sb, OFF_CHECKSUM));
	if (pwrite(fd, sb, SB_SIZE, at) != SB_SIZE || fsync(fd)) {
		fprintf(stderr, "sbfeature: %s: cannot write the superblock\n",
			argv[1]);
		return 1;
	}
	return close(fd) ? 1 : 0;
}
