#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fcjudge-test.sh --- the fsync'd tree's judge (tests/kernel/fcjudge.sh)
# must fail a result that lost an fsynced file, holds one at a stale size
# or with stale contents, of another type, with a stale mode or xattrs, or
# keeps a name removed and fsynced away; and pass the tree before the
# shutdown and one that differs only where nothing was promised.  Made-up
# listings: no root, no mount.  And stale_copies, which excuses a file
# whose only difference from what was fsynced is blocks the log's full
# commits wrote back, on a small image debugfs writes.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/kernel/fcjudge.sh"

fsyncd_selftest
stale_selftest
end_test
