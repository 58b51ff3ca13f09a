/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * holdexcl -- hold a block device open with O_EXCL, as a running fsck or
 * a mount does, for tests/integration/mounted.sh.
 *
 * usage: holdexcl DEVICE
 * Opens DEVICE read-only with O_EXCL, prints "held" on standard output,
 * and keeps it open until standard input reaches its end.  Exit status: 0,
 * or 1 when the open fails.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[64];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: holdexcl DEVICE\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL);
	if (fd < 0) {
		fprintf(stderr, "holdexcl: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return 0;
}
