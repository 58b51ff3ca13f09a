#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# formats.sh --- the same six-transaction journal (std_workload in lib.sh)
# in every format debugfs can write: 1 KiB and 4 KiB blocks, 32-bit and
# 64-bit filesystems, and no journal checksums, COMPAT_CHECKSUM (v1),
# CSUM_V2 and CSUM_V3.  That covers the tag sizes 8, 12 (no csum, v1),
# 10, 14 (v2) and 16 (v3), and revoke records of 4 and 8 bytes.
#
# With v1, debugfs's commit checksum covers the revoke block, which the
# kernel and e2fsck leave out: e2fsck calls transaction 2 corrupt, replays
# transaction 1 alone and marks the filesystem as having errors.  jrecover
# must do the same and exit 4.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for bs in 1k 4k; do
	for bits in 32 64; do
		for csum in none v1 v2 v3; do
			set_format "$bs-$bits-$csum"
			img=$bs-$bits-$csum.img
			mkimg_fmt "$img"
			std_workload "$img"
			oracle_compare -e "$(std_expect)" "$img"
		done
	done
done

end_test
