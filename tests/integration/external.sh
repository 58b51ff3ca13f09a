#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# external.sh --- the journal on a separate device (here a file made with
# mke2fs -O journal_dev, passed to both tools with -j).  debugfs writes to
# it with jo -f.  The same six transactions as formats.sh, in four formats;
# both the filesystem and the journal device are compared afterwards (the
# journal superblock lives on the device).  The journal superblock sits
# after the device's ext2 superblock: block 2 with 1 KiB blocks, block 1
# otherwise.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-none 4k-64-v3 1k-32-v2 4k-32-v1; do
	set_format "$fmt"
	img=ext-$fmt.img
	jdev=ext-$fmt.jdev
	std_external "$img" "$jdev"
	oracle_compare -e "$(std_expect)" "$img" "$jdev"
done

# Nothing to do, but the device's log still holds replayed transactions.
set_format 4k-64-v3
img=ext-replayed.img
jdev=ext-replayed.jdev
std_external "$img" "$jdev"
run e2fsck -y -E journal_only -j "$jdev" "$img" || die "e2fsck could not replay"
oracle_compare -e 0 "$img" "$jdev"

end_test
