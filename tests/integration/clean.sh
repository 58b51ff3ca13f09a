#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# clean.sh --- journals that need nothing: jrecover exits 0 and writes
# nothing, and -n and -i write nothing either (oracle_compare checks both,
# and e2fsck must leave these images alone too).
#   fresh       straight from mke2fs: s_start = 0, empty log
#   replayed    a journal e2fsck has replayed: s_start = 0, s_sequence
#               moved on, the old transactions still in the log
#   uncommitted a clean journal where debugfs wrote one transaction without
#               a commit block, which leaves s_start = 0
# and a fresh filesystem with an external journal.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"

	mkimg_fmt "fresh-$fmt.img"
	oracle_compare -e 0 "fresh-$fmt.img"

	mkimg_fmt "replayed-$fmt.img"
	std_workload "replayed-$fmt.img"
	run e2fsck -y -E journal_only "replayed-$fmt.img" ||
		die "e2fsck could not replay the journal"
	oracle_compare -e 0 "replayed-$fmt.img"
	# A replayed journal keeps its old log; logdump -O shows it.
	assert_readonly -i "replayed-$fmt.img"

	mkimg_fmt "uncommitted-$fmt.img"
	mkdata u.bin "$FMT_BS" 2 -s 21
	# shellcheck disable=SC2046
	set -- $(free_blocks "uncommitted-$fmt.img" 2)
	jtxn "uncommitted-$fmt.img" -c -b "$1,$2" u.bin
	oracle_compare -e 0 "uncommitted-$fmt.img"
done

set_format 4k-64-v3
# shellcheck disable=SC2086
mkimg_ext fresh-ext.img 16M fresh-ext.jdev 4M $FMT_MKFS
oracle_compare -e 0 fresh-ext.img fresh-ext.jdev
assert_noop fresh-ext.img fresh-ext.jdev

end_test
