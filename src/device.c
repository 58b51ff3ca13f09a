/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device.c -- the operands as an e2fsck user gives them: UUID=, LABEL=,
 * PARTUUID= and PARTLABEL= tags found by libblkid (for the filesystem and
 * for -j), and a mount point given where the device was meant, named as
 * the mount point of its device rather than refused as "Is a directory".
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <blkid/blkid.h>

#include "librecover.h"
#include "jrecover.h"

/* A tag libblkid resolves: NAME=VALUE with a name it knows. */
static int is_tag(const char *s)
{
	static const char *const names[] = {
		"UUID=", "LABEL=", "PARTUUID=", "PARTLABEL=",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(s, names[i], strlen(names[i])))
			return 1;
	return 0;
}

/* The devices found for the tags: the run's, to its end. */
static char *found_device, *found_journal;

/*
 * *path, when it is a tag, replaced by the device libblkid finds for it
 * (kept in *owned); RUN_ON, or EXIT_ERROR when none has it.
 */
static int resolve_tag(const char **path, char **owned, const char *what)
{
	char *dev;

	if (!*path || !is_tag(*path))
		return RUN_ON;
	dev = blkid_evaluate_tag(*path, NULL, NULL);
	if (!dev) {
		fprintf(stderr, "%s: no device has %s%s (blkid lists the "
			"devices and their tags)\n", prog, *path, what);
		return EXIT_ERROR;
	}
	*owned = dev;
	*path = dev;
	return RUN_ON;
}

/*
 * The mount point dir is: the source of the last mount of this mount
 * namespace whose mount point it is (/proc/self/mountinfo, fields 5 and
 * after " - " the source), or NULL.  Octal escapes are left as they are
 * in the source: it is only shown.
 */
static char *mounted_at(const char *dir)
{
	char real[PATH_MAX], line[8192], *found = NULL;
	FILE *f;

	if (!realpath(dir, real))
		return NULL;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *mp, *dash, *src, *end;
		int i;

		/* id parent major:minor root MOUNTPOINT ... - type SOURCE */
		mp = line;
		for (i = 0; i < 4 && mp; i++) {
			mp = strchr(mp, ' ');
			if (mp)
				mp++;
		}
		if (!mp || !(end = strchr(mp, ' ')))
			continue;
		*end = 0;
		if (strcmp(mp, real))
			continue;
		dash = strstr(end + 1, " - ");
		if (!dash || !(src = strchr(dash + 3, ' ')))
			continue;
		src++;
		src[strcspn(src, " \n")] = 0;
		free(found);
		found = strdup(src);
	}
	fclose(f);
	return found;
}

int resolve_operands(struct cli *c)
{
	struct stat st;
	char *src;
	int status;

	status = resolve_tag(&c->device, &found_device, "");
	if (status == RUN_ON)
		status = resolve_tag(&c->opts.journal_path, &found_journal,
				     " (-j)");
	if (status != RUN_ON)
		return status;
	if (stat(c->device, &st) || !S_ISDIR(st.st_mode))
		return RUN_ON;
	src = mounted_at(c->device);
	if (src) {
		fprintf(stderr, "%s: %s is where %s is mounted: give the "
			"device, once it is unmounted (a mounted filesystem is "
			"refused)\n", prog, c->device, src);
		free(src);
	} else {
		fprintf(stderr, "%s: %s is a directory, not a device or an "
			"image\n", prog, c->device);
	}
	return EXIT_ERROR;
}
