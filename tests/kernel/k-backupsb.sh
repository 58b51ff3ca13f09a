#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-backupsb.sh --- jrecover -b on a kernel's crash image, against
# e2fsck -b 32768 -y -E journal_only on a copy (tests/oracle/backup-sb.sh
# has the debugfs-made cases and says what e2fsck -b does).
#
#   plain         the crash image as the kernel left it: the backup at
#                 32768 was written by mke2fs, without needs_recovery,
#                 and the journal holds a log: e2fsck -b replays it and
#                 checks the whole filesystem; jrecover refuses [8],
#                 nothing written
#   marked        the backup marked as needing recovery (as the kernel's
#                 online resize leaves the backups it rewrites), with the
#                 primary intact and zeroed: replayed as e2fsck -b
#                 replays it (e2fsck 12, jrecover 1)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

need_built "$top_builddir/tests/oracle/sbfeature"

kernel_crash_image -s 256M mixed plain.img
bsb_compare 1 8 plain.img -b 32768 -B 4096

copy_img plain.img marked.img
mark_backup marked.img 32768 4096
bsb_compare 12 1 marked.img -b 32768 -B 4096
copy_img marked.img marked-zeroed.img
zero_primary marked-zeroed.img
bsb_compare 12 1 marked-zeroed.img -b 32768
kernel_counted

kend_test
