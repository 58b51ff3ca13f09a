/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outpath.c -- lib/outpath.c built into jrecover too: the library does not
 * export it, and automake will not build one source both with libtool and
 * without.  One judgement of output paths for both (lib/outpath.h).
 */
#include "../lib/outpath.c"
