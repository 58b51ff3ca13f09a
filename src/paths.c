/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * paths.c -- the files -s and -z are to write, judged before anything is
 * opened (outpath.c holds the rules, shared with the library), and the
 * undo file's new file and its rename.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>

#include "librecover.h"
#include "jrecover.h"

/* What to do instead, after a refusal of path for opt. */
static const char *way_out(enum outpath_why why, const char *opt,
			   const char *path)
{
	if (!strcmp(path, "-"))
		return "send standard output to a new file or a pipe";
	switch (why) {
	case OUTPATH_LINK_UNTRUSTED:
		return !strcmp(opt, "-z") ?
		       "give -z a new file name, or the file the link names "
		       "itself, outside the world-writable directory" :
		       "give -s a new file name, or the file the link names "
		       "itself, outside the world-writable directory";
	case OUTPATH_HOLDS_FS:
	case OUTPATH_HOLDS_UNDO:
	case OUTPATH_HOLDS_DUMP:
	case OUTPATH_HOLDS_OTHER:
		return !strcmp(opt, "-z") ?
		       "give -z a new file name (or an earlier undo file of "
		       "jrecover or e2fsck), or remove the file first if it "
		       "is yours to lose" :
		       "give -s a new file name (or an earlier journal dump), "
		       "or remove the file first if it is yours to lose";
	default:
		return !strcmp(opt, "-z") ? "give -z a new file name" :
		       "give -s a new file name";
	}
}

static int refuse(const char *opt, const char *path, enum outpath_why why,
		  enum outpath_use use, int err)
{
	if (why == OUTPATH_ERRNO) {
		com_err(prog, err, "while looking at %s %s; nothing was written",
			opt, strcmp(path, "-") ? path : "- (standard output)");
		return EXIT_ERROR;
	}
	fprintf(stderr, "%s: %s %s: %s; nothing was written: %s\n", prog, opt,
		strcmp(path, "-") ? path : "- (standard output)",
		outpath_reason(why, use), way_out(why, opt, path));
	return EXIT_USAGE;
}

/* -s FILE or -z FILE, resolved into o (kept for -z: setup_undo()). */
static int check_one(const struct cli *c, const char *opt, const char *path,
		     enum outpath_use use, const char *other, struct outpath *o)
{
	enum outpath_why why = outpath_check(path, use, c->device,
					     c->opts.journal_path, other, o);

	/* A path that cannot be looked at (no such directory): -s leaves
	 * it to the library, which says so in the run's own report. */
	if (why == OUTPATH_ERRNO && use == OUTPATH_DUMP)
		return 0;
	return why ? refuse(opt, path, why, use, o->err) : 0;
}

int check_outputs(struct cli *c)
{
	const char *save = c->save_path && strcmp(c->save_path, "-") ?
			   c->save_path : NULL;
	struct outpath o;
	enum outpath_why why;
	int status = 0;

	c->undo_out.dirfd = -1;
	if (save) {
		status = check_one(c, "-s", save, OUTPATH_DUMP, c->undo_path, &o);
		outpath_free(&o);
		if (status)
			return status;
	}
	if (c->undo_path) {
		status = check_one(c, "-z", c->undo_path, OUTPATH_UNDO, save,
				   &c->undo_out);
		if (status) {
			outpath_free(&c->undo_out);
			return status;
		}
	}
	if (c->save_path && !save) {
		/* -s -: what the shell opened may be the image itself
		 * (1<>img, >>img) or its device. */
		why = outpath_check_fd(STDOUT_FILENO, OUTPATH_DUMP, c->device,
				       c->opts.journal_path);
		if (why) {
			outpath_free(&c->undo_out);
			return refuse("-s", "-", why, OUTPATH_DUMP, errno);
		}
	}
	return 0;
}
